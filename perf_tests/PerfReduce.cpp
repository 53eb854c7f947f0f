// A dot product three ways, in the same run, on Serial and the default host space:
//
//   lanes   KE::dot: its functor declares accumulates_only, so each worker adds in four
//           interleaved lanes (Host/Kokkos_HostReductionLanes.hpp)
//   single  the same body as a user lambda: one running value per worker, as Kokkos runs it
//   omp     #pragma omp parallel for reduction(+:) with the space's thread count (Serial: one)
//
// Counters: lanes_us, single_us, omp_us (medians), single_over_lanes, omp_over_lanes.
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include "PerfInterleaved.hpp"
#include <Kokkos_StdAlgorithms_Fused.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using Array = Kokkos::View<double*, Kokkos::HostSpace>;

template <class T>
void keep(const T& value) {
  benchmark::DoNotOptimize(value);  // the input-only overload: see PerfLaunch.cpp
}

using perf::interleaved_medians;

template <class Space>
int omp_threads_of() {
#if defined(KOKKOS_ENABLE_OPENMP)
  return std::is_same_v<Space, Kokkos::Serial> ? 1 : Space().concurrency();
#else
  return 1;
#endif
}

template <class Space>
void BM_Dot(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Space space;
  Array x("x", n), y("y", n);
  for (std::int64_t i = 0; i < n; ++i) {
    x(i) = 1.0 / double(i + 1);
    y(i) = double(i % 17) - 8.0;
  }
  const double* px = x.data();
  const double* py = y.data();
  const int threads = omp_threads_of<Space>();
  auto lanes = [&] { keep(KE::dot(space, x, y)); };
  auto single = [&] {
    double s = 0;
    Kokkos::parallel_reduce(
        "dot_single", Kokkos::RangePolicy<Space>(space, 0, n),
        KOKKOS_LAMBDA(std::int64_t i, double& acc) { acc += x(i) * y(i); }, s);
    keep(s);
  };
  auto omp = [&] {
    double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(threads) if (threads > 1)
    for (std::int64_t i = 0; i < n; ++i) s += px[i] * py[i];
    keep(s);
  };
  // Same value up to rounding, or the comparison means nothing.
  double a = KE::dot(space, x, y), b = 0;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Space>(space, 0, n), KOKKOS_LAMBDA(std::int64_t i, double& acc) { acc += x(i) * y(i); }, b);
  if (std::abs(a - b) > 1e-9 * (std::abs(b) + 1)) return perf::fail_result_check(state, "lanes and single disagree");

  const int rounds = static_cast<int>(std::clamp<std::int64_t>(20000000 / std::max<std::int64_t>(n, 1), 5, 400));
  std::vector<double> m;
  for (auto _ : state) m = interleaved_medians(rounds, {lanes, single, omp});
  state.counters["lanes_us"] = 1e6 * m[0];
  state.counters["single_us"] = 1e6 * m[1];
  state.counters["omp_us"] = 1e6 * m[2];
  state.counters["single_over_lanes"] = m[1] / m[0];
  state.counters["omp_over_lanes"] = m[2] / m[0];
}

BENCHMARK(BM_Dot<Kokkos::Serial>)->RangeMultiplier(10)->Range(1000, 10000000)->Iterations(1)->UseRealTime();
BENCHMARK(BM_Dot<Kokkos::DefaultHostExecutionSpace>)
    ->RangeMultiplier(10)
    ->Range(1000, 10000000)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace

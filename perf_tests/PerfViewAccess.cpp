// The cost of aliasing through View access, in the same run: a gather
//
//   y(i) = a * x(idx(i)) + y(i)
//
// four ways, on Serial and on the default host space:
//
//   plain     x, idx: View<const T*>, y: View<double*>
//   random    x, idx: View<const T*, MemoryTraits<RandomAccess>>, y plain
//   restrict  x, idx, y: MemoryTraits<Restrict>
//   raw       a loop over __restrict__ pointers (each worker its block), the baseline
//
// Without no-alias information the compiler must assume the store to y(i) may change idx or x,
// so it cannot vectorise the gather (the indices of the next iterations are unknown until the
// store is done).  Counters: *_us (medians), plain_over_raw, random_over_raw,
// restrict_over_raw, plain_over_random.
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include "PerfInterleaved.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace {

template <class T>
void keep(const T& value) {
  benchmark::DoNotOptimize(value);
}

using perf::interleaved_medians;

template <class Space, class X, class I, class Y>
void gather(const Space& space, std::int64_t n, double a, const X& x, const I& idx, const Y& y) {
  Kokkos::parallel_for(
      "gather", Kokkos::RangePolicy<Space>(space, 0, n), KOKKOS_LAMBDA(std::int64_t i) { y(i) = a * x(idx(i)) + y(i); });
}

KOKKOS_IMPL_NOINLINE void gather_raw(std::int64_t b, std::int64_t e, double a, const double* KOKKOS_RESTRICT x,
                                     const int* KOKKOS_RESTRICT idx, double* KOKKOS_RESTRICT y) {
  for (std::int64_t i = b; i < e; ++i) y[i] = a * x[idx[i]] + y[i];
}

template <class Space>
void BM_Gather(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Space space;
  using Plain = Kokkos::View<double*, Kokkos::HostSpace>;
  Plain x("x", n), y("y", n);
  Kokkos::View<int*, Kokkos::HostSpace> idx("idx", n);
  // A scrambled permutation: every load of x depends on the index just read.
  for (std::int64_t i = 0; i < n; ++i) {
    x(i) = 1.0 / double(i + 1);
    idx(i) = static_cast<int>((i * 7919) % n);
  }
  const double a = 1e-3;

  Kokkos::View<const double*, Kokkos::HostSpace> x_plain = x;
  Kokkos::View<const int*, Kokkos::HostSpace> idx_plain = idx;
  Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::RandomAccess>> x_random = x;
  Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::RandomAccess>> idx_random = idx;
  Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Restrict>> x_restrict = x;
  Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Restrict>> idx_restrict = idx;
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Restrict>> y_restrict = y;

  const int blocks = space.concurrency();
  auto plain = [&] { gather(space, n, a, x_plain, idx_plain, y); };
  auto random = [&] { gather(space, n, a, x_random, idx_random, y); };
  auto restrict_ = [&] { gather(space, n, a, x_restrict, idx_restrict, y_restrict); };
  auto raw = [&] {
    const double* px = x.data();
    const int* pidx = idx.data();
    double* py = y.data();
    Kokkos::parallel_for(
        "gather_raw", Kokkos::RangePolicy<Space>(space, 0, blocks), [=](int w) {  // host spaces only
          gather_raw(n * w / blocks, n * (w + 1) / blocks, a, px, pidx, py);
        });
  };

  // Each variant adds a * x(idx(i)) once: the same y, or the comparison means nothing.
  std::vector<std::vector<double>> results;
  for (const auto& variant : {std::function<void()>(plain), std::function<void()>(random),
                              std::function<void()>(restrict_), std::function<void()>(raw)}) {
    Kokkos::deep_copy(y, 1.0);
    variant();
    space.fence();
    results.emplace_back(y.data(), y.data() + n);
  }
  for (const auto& r : results)
    if (r != results[0]) return perf::fail_result_check(state, "the variants disagree");

  const int rounds = static_cast<int>(std::clamp<std::int64_t>(20000000 / std::max<std::int64_t>(n, 1), 5, 400));
  std::vector<double> m;
  for (auto _ : state) m = interleaved_medians(rounds, {plain, random, restrict_, raw});
  keep(y(n / 2));
  state.counters["plain_us"] = 1e6 * m[0];
  state.counters["random_us"] = 1e6 * m[1];
  state.counters["restrict_us"] = 1e6 * m[2];
  state.counters["raw_us"] = 1e6 * m[3];
  state.counters["plain_over_raw"] = m[0] / m[3];
  state.counters["random_over_raw"] = m[1] / m[3];
  state.counters["restrict_over_raw"] = m[2] / m[3];
  state.counters["plain_over_random"] = m[0] / m[1];
}

BENCHMARK(BM_Gather<Kokkos::Serial>)->RangeMultiplier(8)->Range(4096, 262144)->Iterations(1)->UseRealTime();
BENCHMARK(BM_Gather<Kokkos::DefaultHostExecutionSpace>)
    ->RangeMultiplier(8)
    ->Range(4096, 262144)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace

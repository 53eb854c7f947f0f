// Fusion: each program unfused, fused, and as one hand-written parallel_for (the limit), in the
// same process, n = 1e3 .. 1e7, on Serial (1 thread) and the default space (--kokkos-num-threads).
//
// The framework times the fused program; the counters give medians of all three variants
// measured interleaved inside the same benchmark, and their ratios:
//   speedup_vs_unfused = unfused / fused   (goal >= 1.5 for n <= 1e5, >= 1 everywhere)
//   fused_over_loop    = fused / hand-written loop   (goal <= 1.25)
// BM_Analysis reports the analysis cost per recorded launch with and without memoization.
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>
#include <Kokkos_StdAlgorithms_Fused.hpp>

#include "../example/black_scholes.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <cstdint>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using Arr = Kokkos::View<double*, Kokkos::HostSpace>;

constexpr int chain_length = 20;

struct AxpyStep {
  Arr x, y;
  double a;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { y(i) = a * x(i) + y(i); }
};

double coefficient(int k) { return 1.0 + 1.0 / (k + 2); }

// 20 axpy-style launches, each reading x and updating y.
template <class Space>
void chain_launches(const Space& space, const Arr& x, const Arr& y) {
  const auto n = static_cast<std::int64_t>(x.extent(0));
  Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> policy(space, 0, n);
  for (int k = 0; k < chain_length; ++k) {
    Kokkos::parallel_for("axpy", KE::with_accesses(policy, KE::reads(x), KE::read_writes(y)),
                         AxpyStep{x, y, coefficient(k)});
  }
}

template <class Space>
void chain_loop(const Space& space, const Arr& x, const Arr& y) {
  const auto n = static_cast<std::int64_t>(x.extent(0));
  double a[chain_length];
  for (int k = 0; k < chain_length; ++k) a[k] = coefficient(k);
  Kokkos::parallel_for(
      "chain_loop", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) {
        double yi = y(i);
        const double xi = x(i);
        for (int k = 0; k < chain_length; ++k) yi = a[k] * xi + yi;
        y(i) = yi;
      });
}

// Median seconds of each run, measured in its own steady state: rounds in which every variant
// runs `block` times back to back, in an order that rotates every round, and only the block's
// repeats after the first are timed.  An iterative program repeats the same variant, so the
// cache it starts from is the one its own previous iteration left; timing a variant right
// after another one would charge it for the other's cache state (on Black-Scholes, ~5% either
// way).
template <class... Runs>
std::vector<double> interleaved_medians(double budget, const Runs&... runs) {
  constexpr std::size_t count = sizeof...(Runs);
  constexpr int block = 3;
  std::vector<std::vector<double>> samples(count);
  const std::array<std::function<void()>, count> variants{std::function<void()>(runs)...};
  auto time_once = [](const std::function<void()>& run) {
    Kokkos::Timer t;
    run();
    return t.seconds();
  };
  // One warm-up each, which also estimates the number of rounds.
  double slowest = 0;
  for (const auto& run : variants) slowest = std::max(slowest, time_once(run));
  const int rounds = std::clamp(static_cast<int>(budget / std::max(slowest, 1e-7)) / block, 2, 67);
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t k = (j + static_cast<std::size_t>(r)) % count;
      variants[k]();  // untimed: leaves the cache as the variant's own iterations do
      for (int b = 1; b < block; ++b) samples[k].push_back(time_once(variants[k]));
    }
  }
  std::vector<double> medians;
  for (auto& s : samples) {
    std::nth_element(s.begin(), s.begin() + s.size() / 2, s.end());
    medians.push_back(s[s.size() / 2]);
  }
  return medians;
}

void report(benchmark::State& state, const std::vector<double>& m, std::int64_t n) {
  state.counters["unfused_us"] = 1e6 * m[0];
  state.counters["fused_us"] = 1e6 * m[1];
  state.counters["loop_us"] = 1e6 * m[2];
  state.counters["speedup_vs_unfused"] = m[0] / m[1];
  state.counters["fused_over_loop"] = m[1] / m[2];
  state.SetItemsProcessed(state.iterations() * n);
}

template <class Space>
void BM_Chain20(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Space space;
  Arr x("x", n), y("y", n);
  Kokkos::deep_copy(x, 0.5);
  Kokkos::deep_copy(y, 0.0);
  KE::set_fusion_enabled(true);
  auto unfused = [&] { chain_launches(space, x, y); };  // no window: each launch dispatched
  auto fused = [&] {
    KE::FusionScope scope;
    chain_launches(space, x, y);
  };
  auto loop = [&] { chain_loop(space, x, y); };
  const auto m = interleaved_medians(n >= 1000000 ? 0.05 : 0.02, unfused, fused, loop);
  for (auto _ : state) fused();
  report(state, m, n);
}

template <class Space>
void BM_BlackScholes(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Space space;
  black_scholes::Data data(n);
  KE::set_fusion_enabled(true);
  auto unfused = [&] { black_scholes::black_scholes_algorithms(space, data); };
  auto fused = [&] {
    KE::FusionScope scope;
    black_scholes::black_scholes_algorithms(space, data);
  };
  auto loop = [&] { black_scholes::black_scholes_single_loop(space, data); };
  const auto m = interleaved_medians(n >= 1000000 ? 0.05 : 0.02, unfused, fused, loop);
  for (auto _ : state) fused();
  report(state, m, n);
}

// Analysis cost per recorded launch: the 20-launch chain over an empty range (so nothing but
// recording, analysis and dispatch bookkeeping is timed), with and without memoization.
void BM_Analysis(benchmark::State& state) {
  const bool memoize = state.range(0) != 0;
  Kokkos::DefaultHostExecutionSpace space;
  Arr x("x", 0), y("y", 0);
  KE::set_fusion_memoization(memoize);
  KE::reset_fusion_statistics();
  for (auto _ : state) {
    KE::FusionScope scope;
    chain_launches(space, x, y);
  }
  const auto s = KE::fusion_statistics();
  KE::set_fusion_memoization(true);
  state.counters["analysis_ns_per_launch"] = s.analysis_ns_per_launch();
  state.counters["memo_hit_rate"] = s.memo_hit_rate();
  state.counters["record_and_flush_ns_per_launch"] =
      benchmark::Counter(static_cast<double>(state.iterations() * chain_length),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_Chain20<Kokkos::Serial>)->RangeMultiplier(10)->Range(1000, 10000000)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Chain20<Kokkos::DefaultExecutionSpace>)
    ->RangeMultiplier(10)
    ->Range(1000, 10000000)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BlackScholes<Kokkos::Serial>)->RangeMultiplier(10)->Range(1000, 1000000)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BlackScholes<Kokkos::DefaultExecutionSpace>)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Analysis)->Arg(1)->Arg(0)->UseRealTime();

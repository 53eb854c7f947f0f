// Fusion: each example program unfused, fused, and as hand-written plain launches (the limit),
// in the same process, n = 1e3 .. 1e7, on Serial (1 thread) and the default space
// (--kokkos-num-threads).  The programs: a 20-launch axpy chain, Black-Scholes
// (example/black_scholes.hpp; with its intermediates kept, and created and dropped by each run
// as NumPy's temporaries are), the weighted 1-D three-point stencil (example/stencil_1d.hpp,
// 10 sweeps a run), the 2-D five-point stencil on a side x side grid with side = sqrt(n)
// (example/stencil_2d.hpp, 10 sweeps a run) and 10 conjugate-gradient iterations
// (example/conjugate_gradient.hpp); two independent chains (concurrent flush) and an
// algorithm chain with three temporaries (temporary elimination) report their own ratios.  At n = 1e7 a run of the 2-D stencil or CG takes about a
// second, so those benchmarks take tens of seconds each.  The hand-written limit is as few plain launches as the
// program's data dependences allow without fusion: one for the chain and Black-Scholes, one
// per sweep for the stencils (double-buffered), three per CG iteration.  Each benchmark first
// checks that its limit computes what the unfused program does (CG: to rounding).
//
// The framework times the fused program; the counters give medians of all three variants
// measured interleaved inside the same benchmark, and their ratios:
//   speedup_vs_unfused = unfused / fused   (goal >= 1.5 for n <= 1e5, >= 1 everywhere)
//   fused_over_loop    = fused / hand-written loop   (goal <= 1.25)
// BM_Analysis reports the analysis cost per recorded launch with and without memoization.
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>
#include <Kokkos_StdAlgorithms_Fused.hpp>

#include "../example/black_scholes.hpp"
#include "../example/conjugate_gradient.hpp"
#include "../example/stencil_1d.hpp"
#include "../example/stencil_2d.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
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

// Three variants' medians as <name>_us counters, and two ratios of them.
struct Ratio {
  const char* name;
  int numerator, denominator;
};
void report(benchmark::State& state, const std::vector<double>& m, std::int64_t items,
            const std::array<const char*, 3>& names, const std::array<Ratio, 2>& ratios) {
  for (std::size_t k = 0; k < names.size(); ++k) state.counters[std::string(names[k]) + "_us"] = 1e6 * m[k];
  for (const Ratio& r : ratios) state.counters[r.name] = m[r.numerator] / m[r.denominator];
  state.SetItemsProcessed(state.iterations() * items);
}
void report(benchmark::State& state, const std::vector<double>& m, std::int64_t n) {
  report(state, m, n, {"unfused", "fused", "loop"}, {Ratio{"speedup_vs_unfused", 0, 1}, Ratio{"fused_over_loop", 1, 2}});
}

// Runs `program` unfused (fusion enabled, no window: each launch dispatched), fused (inside a
// FusionScope) and the hand-written `loop`, interleaved; the framework times the fused one.
template <class Program, class Loop>
void compare_with_loop(benchmark::State& state, std::int64_t n, const Program& program, const Loop& loop) {
  KE::set_fusion_enabled(true);
  auto fused = [&] {
    KE::FusionScope scope;
    program();
  };
  const auto m = interleaved_medians(n >= 1000000 ? 0.05 : 0.02, program, fused, loop);
  for (auto _ : state) fused();
  report(state, m, n);
}

template <class Space>
void BM_Chain20(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Space space;
  Arr x("x", n), y("y", n);
  Kokkos::deep_copy(x, 0.5);
  Kokkos::deep_copy(y, 0.0);
  compare_with_loop(
      state, n, [&] { chain_launches(space, x, y); }, [&] { chain_loop(space, x, y); });
}

template <class Space>
void BM_BlackScholes(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Space space;
  black_scholes::Data data(n);
  compare_with_loop(
      state, n, [&] { black_scholes::black_scholes_algorithms(space, data); },
      [&] { black_scholes::black_scholes_single_loop(space, data); });
}

// The same program as NumPy runs it: its 13 intermediates are created by each run and die in
// it, so the fused run eliminates them (from n = 32768, where one reaches
// fusion_temporary_bytes()) while the unfused one allocates and fills them.
template <class Space>
void BM_BlackScholesTemporaries(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Space space;
  const black_scholes::Problem<Kokkos::HostSpace> problem(n);
  compare_with_loop(
      state, n, [&] { black_scholes::black_scholes_with_temporaries(space, problem); },
      [&] { black_scholes::black_scholes_single_loop(space, problem); });
}

constexpr int stencil_sweeps = 10;
constexpr int cg_iterations = 10;

// The 1-D stencil in place on n + 2 points (n updated), 10 sweeps a run.
template <class Space>
void BM_Stencil1D(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Space space;
  stencil_1d::Array a("a", n + 2), b("b", n + 2), output("output", n), scratch("scratch", n + 2);
  for (std::int64_t i = 0; i < n + 2; ++i) a(i) = b(i) = (i % 17 == 0) ? 1.0 : 0.0;
  KE::set_fusion_enabled(true);
  stencil_1d::iterate(space, a, output, stencil_sweeps);
  stencil_1d::iterate_loop(space, b, scratch, stencil_sweeps);
  space.fence();
  for (std::int64_t i = 0; i < n + 2; ++i) {
    if (a(i) != b(i)) return perf::fail_result_check(state, "the hand-written stencil differs from the program");
  }
  compare_with_loop(
      state, n, [&] { stencil_1d::iterate(space, a, output, stencil_sweeps); },
      [&] { stencil_1d::iterate_loop(space, a, scratch, stencil_sweeps); });
}

// The 2-D stencil on a side x side interior, side = sqrt(n), with a hot west wall; 10 sweeps a run.
template <class Space>
void BM_Stencil2D(benchmark::State& state) {
  const auto side = static_cast<std::int64_t>(std::lround(std::sqrt(static_cast<double>(state.range(0)))));
  Space space;
  using stencil_2d::Grid;
  Grid a("a", side + 2, side + 2), b("b", side + 2, side + 2), scratch("scratch", side + 2, side + 2);
  Grid avg("avg", side, side), work("work", side, side);
  for (std::int64_t i = 0; i < side + 2; ++i) a(i, 0) = b(i, 0) = 1.0;
  KE::set_fusion_enabled(true);
  stencil_2d::iterate(space, a, avg, work, stencil_sweeps);
  stencil_2d::iterate_loop(space, b, scratch, stencil_sweeps);
  space.fence();
  for (std::int64_t i = 0; i < side + 2; ++i) {
    for (std::int64_t j = 0; j < side + 2; ++j) {
      if (a(i, j) != b(i, j)) return perf::fail_result_check(state, "the hand-written stencil differs from the program");
    }
  }
  compare_with_loop(
      state, side * side, [&] { stencil_2d::iterate(space, a, avg, work, stencil_sweeps); },
      [&] { stencil_2d::iterate_loop(space, a, scratch, stencil_sweeps); });
}

// 10 CG iterations on the 1-D Laplacian of size n (tolerance 0: every variant does them all).
template <class Space>
void BM_ConjugateGradient(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Space space;
  using conjugate_gradient::Array;
  Array rhs("rhs", n), x("x", n), x_loop("x_loop", n);
  for (std::int64_t i = 0; i < n; ++i) rhs(i) = std::sin(3.0 * double(i) / double(n)) + 0.1;
  const conjugate_gradient::Workspace w(n);
  KE::set_fusion_enabled(true);
  const int it = conjugate_gradient::solve(space, rhs, x, w, cg_iterations, 0.0);
  const int it_loop = conjugate_gradient::solve_loop(space, rhs, x_loop, w, cg_iterations, 0.0);
  space.fence();
  double largest = 0, error = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    largest = std::max(largest, std::fabs(x(i)));
    error = std::max(error, std::fabs(x(i) - x_loop(i)));
  }
  if (it != cg_iterations || it_loop != cg_iterations || !(error <= 1e-10 * largest)) {
    return perf::fail_result_check(state, "the hand-written CG differs from the program beyond rounding");
  }
  compare_with_loop(
      state, n, [&] { conjugate_gradient::solve(space, rhs, x, w, cg_iterations, 0.0); },
      [&] { conjugate_gradient::solve_loop(space, rhs, x, w, cg_iterations, 0.0); });
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

// Two independent 10-launch chains over different arrays (lengths n and n - 1, so that they
// never fuse with each other), interleaved in program order; each launch reads its chain's
// previous output through a shifted subview, so each chain is ten runs of one and each step's
// two launches form a wave of independent runs.  Variants: unfused (no window), today's flush
// (runs in program order, each on all workers) and the concurrent flush forced on (each wave
// in one dispatch, each run on half the workers).  The framework times the concurrent one.
//   concurrent_vs_in_order = in-order flush / concurrent flush  (goal >= 1.5 for n <= 1e5, 2 threads)
struct ShiftStep {
  Arr here, next, out;
  double add;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { out(i) = 0.5 * (here(i) + next(i)) + add; }
};

template <class Space>
void two_chains(const Space& space, const std::array<Arr, 4>& v, std::int64_t n) {
  for (int k = 0; k < 10; ++k) {
    for (int c = 0; c < 2; ++c) {
      const std::int64_t m = n - c;
      const Arr& src = v[2 * c + k % 2];
      const Arr& dst = v[2 * c + (k + 1) % 2];
      const Arr here = Kokkos::subview(src, Kokkos::pair<std::int64_t, std::int64_t>(0, m));
      const Arr next = Kokkos::subview(src, Kokkos::pair<std::int64_t, std::int64_t>(1, m + 1));
      const Arr out = Kokkos::subview(dst, Kokkos::pair<std::int64_t, std::int64_t>(0, m));
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> policy(space, 0, m);
      Kokkos::parallel_for("chain", KE::with_accesses(policy, KE::reads(here), KE::reads(next), KE::writes(out)),
                           ShiftStep{here, next, out, 0.25 * k + c});
    }
  }
}

template <class Space>
void BM_TwoChains(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Space space;
  std::array<Arr, 4> v;
  for (int a = 0; a < 4; ++a) {
    v[a] = Arr("chain", n + 1);
    Kokkos::deep_copy(v[a], 1.0 + a);
  }
  KE::set_fusion_enabled(true);
  auto run_with = [&](KE::FusionConcurrentFlush mode) {
    KE::set_fusion_concurrent_flush(mode);
    KE::FusionScope scope;
    two_chains(space, v, n);
  };
  auto unfused = [&] { two_chains(space, v, n); };
  auto in_order = [&] { run_with(KE::FusionConcurrentFlush::off); };
  auto concurrent = [&] { run_with(KE::FusionConcurrentFlush::always); };
  const auto m = interleaved_medians(n >= 1000000 ? 0.05 : 0.02, unfused, in_order, concurrent);
  for (auto _ : state) concurrent();
  KE::set_fusion_concurrent_flush(KE::FusionConcurrentFlush::measured);
  report(state, m, n * 20, {"unfused", "in_order", "concurrent"},
         {Ratio{"concurrent_vs_in_order", 1, 2}, Ratio{"concurrent_vs_unfused", 0, 2}});
}

// An array-algorithm chain with three temporaries that die inside it (seed 003's temporary
// elimination): out = (sqrt(a b + 1) a + b) - (a b + 1) / 3, the temporaries created by each run
// as a numpy-style program does.  Variants: fused with the temporaries eliminated (chunk-sized
// per worker; from n = 32768, where a temporary reaches fusion_temporary_bytes()), fused with
// them materialised (KE::set_fusion_temporary_elimination(false): allocated and
// value-initialised as without fusion), and the hand-written loop (no temporaries).  The
// framework times the eliminated one.
//   eliminated_over_loop = eliminated / hand-written loop   (goal <= 1.25)
template <class Space>
void temporaries_chain(const Space& space, const Arr& a, const Arr& b, const Arr& out) {
  const auto n = static_cast<std::int64_t>(a.extent(0));
  KE::FusionScope scope;
  Arr t1("t1", n), t2("t2", n), t3("t3", n);
  KE::transform(space, a, b, t1, KOKKOS_LAMBDA(double x, double y) { return x * y + 1.0; });
  KE::transform(space, t1, t2, KOKKOS_LAMBDA(double x) { return std::sqrt(x); });
  KE::transform(space, t2, a, b, t3, KOKKOS_LAMBDA(double x, double y, double z) { return x * y + z; });
  KE::transform(space, t3, t1, out, KOKKOS_LAMBDA(double x, double y) { return x - y / 3.0; });
}

template <class Space>
void temporaries_loop(const Space& space, const Arr& a, const Arr& b, const Arr& out) {
  Kokkos::parallel_for(
      "temporaries_loop", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, a.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) {
        const double t1 = a(i) * b(i) + 1.0;
        out(i) = (std::sqrt(t1) * a(i) + b(i)) - t1 / 3.0;
      });
}

template <class Space>
void BM_Temporaries(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Space space;
  Arr a("a", n), b("b", n), out("out", n), out_loop("out_loop", n);
  for (std::int64_t i = 0; i < n; ++i) {
    a(i) = 0.5 + static_cast<double>(i % 97) / 7.0;
    b(i) = 1.0 / (1.0 + static_cast<double>(i % 13));
  }
  KE::set_fusion_enabled(true);
  temporaries_chain(space, a, b, out);
  temporaries_loop(space, a, b, out_loop);
  for (std::int64_t i = 0; i < n; ++i) {
    if (out(i) != out_loop(i)) {
      perf::fail_result_check(state, "the hand-written loop computes something else than the chain");
      return;
    }
  }
  auto eliminated = [&] { temporaries_chain(space, a, b, out); };
  auto materialised = [&] {
    KE::set_fusion_temporary_elimination(false);
    temporaries_chain(space, a, b, out);
    KE::set_fusion_temporary_elimination(true);
  };
  auto loop = [&] { temporaries_loop(space, a, b, out); };
  KE::reset_fusion_statistics();
  const auto m = interleaved_medians(n >= 1000000 ? 0.05 : 0.02, eliminated, materialised, loop);
  for (auto _ : state) eliminated();
  report(state, m, n, {"eliminated", "materialised", "loop"},
         {Ratio{"eliminated_over_loop", 0, 2}, Ratio{"materialised_over_eliminated", 1, 0}});
}

}  // namespace

// Each program on Serial and on the default host space, n = 1e3, 1e4, ... up to `largest`.
#define KDAG_FUSION_BENCHMARK(program, largest)                                                   \
  BENCHMARK(program<Kokkos::Serial>)                                                              \
      ->RangeMultiplier(10)                                                                       \
      ->Range(1000, largest)                                                                      \
      ->UseRealTime()                                                                             \
      ->Unit(benchmark::kMicrosecond);                                                            \
  BENCHMARK(program<Kokkos::DefaultHostExecutionSpace>)                                               \
      ->RangeMultiplier(10)                                                                       \
      ->Range(1000, largest)                                                                      \
      ->UseRealTime()                                                                             \
      ->Unit(benchmark::kMicrosecond)

KDAG_FUSION_BENCHMARK(BM_Chain20, 10000000);
KDAG_FUSION_BENCHMARK(BM_TwoChains, 10000000);
KDAG_FUSION_BENCHMARK(BM_Temporaries, 10000000);
KDAG_FUSION_BENCHMARK(BM_BlackScholes, 10000000);
KDAG_FUSION_BENCHMARK(BM_BlackScholesTemporaries, 10000000);
KDAG_FUSION_BENCHMARK(BM_Stencil1D, 10000000);
KDAG_FUSION_BENCHMARK(BM_Stencil2D, 10000000);
KDAG_FUSION_BENCHMARK(BM_ConjugateGradient, 10000000);
BENCHMARK(BM_Analysis)->Arg(1)->Arg(0)->UseRealTime();

// Fusion on Kokkos::Cuda (Cuda/Kokkos_Cuda_Fusion.hpp): each program fused, unfused and as a
// hand-written single kernel, measured interleaved in the same run, n = 1e5 .. 1e8 (built only
// with Kokkos_ENABLE_CUDA; every benchmark skips, naming why, where no GPU is visible).
//
//   CudaFusion/AxpyChain/n     20 launches y = a_k x + y (one fused kernel)  vs  the same 20
//                              launches unfused  vs  one kernel looping over the 20 coefficients.
//   CudaFusion/BlackScholes/n  d1, d2 and the call price as three launches with declared
//                              accesses (one fused kernel; d1 and d2 still go through memory)  vs
//                              unfused  vs  one kernel computing the price from the inputs.
//   CudaFusion/BlackScholesArrays/n  seed 000's Listing 1 as NumPy runs it (example/black_scholes.hpp,
//                              black_scholes_with_temporaries): 27 array algorithms whose 13
//                              intermediates each run creates and drops (one fused kernel, the
//                              intermediates in shared memory; counter temporaries_eliminated)
//                              vs unfused  vs  black_scholes_single_loop.
//   CudaFusion/GraphReplay/n   a memoized window of 20 launches over different ranges replayed
//                              as one CUDA graph  vs  the 20 launches on the stream.  Counters:
//                              graph_us, stream_us, speedup_vs_stream (goal >= 2), host_us (the
//                              fused window's host time: recording its launches and flushing
//                              them into the graph's launch, before the fence) and
//                              as_recorded (the share of those windows whose graph launched as
//                              recorded, without recording it again: 1 when the window repeats).
//   CudaFusion/Stencil1D/n     10 weighted-Jacobi sweeps of the three-point stencil, three
//                              launches a sweep (one fused kernel a sweep)  vs  unfused  vs  one
//                              kernel a sweep.
//   CudaFusion/Stencil2D/n     10 sweeps of the five-point stencil on a sqrt(n)^2 grid, six
//                              launches a sweep, one thread per cell (a fused kernel of five and
//                              the in-place copy)  vs  unfused  vs  one kernel a sweep.
//   CudaFusion/ConjugateGradient/n  10 CG iterations on the 1-D Laplacian, six launches each
//                              (two fused kernels with their dot products, one plain)  vs
//                              unfused  vs  three hand-written kernels an iteration.
//   Each also reports what one fused run does (launches_recorded, dispatches,
//   launches_per_dispatch: the most fusion can give where launch latency is all the time,
//   device_fused_kernels, device_runs_split, device_runs_unfused, device_graph_replays,
//   temporaries_eliminated, and the way the measured choice settled on by the time the benchmark
//   ends: windows_other_registers, windows_other_tile, windows_unfused_graph, windows_unfused, the
//   windows of that run that ran another way than the default fused kernels).  The last three check every element: fused bitwise as unfused, the
//   hand-written version within a stated tolerance (the failed check names the first index
//   that differs, and the executable exits non-zero).
// Counters: fused_us, unfused_us, loop_us, speedup_vs_unfused = unfused / fused (the goals:
// >= 0.98 everywhere, >= 2 at n <= 1e5 for three or more launches, >= 4 for Black-Scholes as
// arrays at 1e8) and fused_over_loop = fused / loop (goal <= 1.25 for Black-Scholes at 1e8).  Each benchmark first checks that the three variants
// agree (fused and unfused bitwise).
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>
#include "PerfCudaSkip.hpp"
#include "PerfInterleaved.hpp"

#include "../example/black_scholes.hpp"
#include "../example/conjugate_gradient.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using Array = Kokkos::View<double*, Kokkos::CudaSpace>;
using Policy = Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>;
constexpr int chain_length = 20;

bool skip_without_gpu(benchmark::State& state) { return perf::skip_without_gpu(state, "PerfCudaFusion"); }

Array filled(const Kokkos::Cuda& exec, const char* label, std::int64_t n, double scale) {
  const Array v(Kokkos::view_alloc(exec, label, Kokkos::WithoutInitializing), n);
  Kokkos::parallel_for("fill", Policy(exec, 0, n),
                       KOKKOS_LAMBDA(std::int64_t i) { v(i) = scale * (1.0 + 0.5 * std::sin(0.001 * double(i))); });
  return v;
}

std::vector<double> to_host(const Array& v) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<double>(h.data(), h.data() + h.extent(0));
}

// Runs `program` with fusion on or off, inside a window, and waits for it.
void run_program(const Kokkos::Cuda& exec, bool fused, const std::function<void()>& program) {
  KE::set_fusion_enabled(fused);
  {
    KE::FusionScope scope;
    program();
  }
  KE::set_fusion_enabled(true);
  exec.fence("PerfCudaFusion: program");
}

void report(benchmark::State& state, const std::vector<double>& m) {
  state.counters["fused_us"] = 1e6 * m[0];
  state.counters["unfused_us"] = 1e6 * m[1];
  state.counters["loop_us"] = 1e6 * m[2];
  state.counters["speedup_vs_unfused"] = m[1] / m[0];
  state.counters["fused_over_loop"] = m[0] / m[2];
}

// What one steady-state fused run of `program` does: launches recorded, dispatches (one per run
// of the plan: a fused kernel or a launch alone), fused kernels, runs split, pieces run unfused,
// graph replays, temporaries eliminated; and launches_per_dispatch, the most fusion can give
// where launch latency is all the time (a 3-launch program: 3x; CG's 6 launches an iteration in
// 3 dispatches: 2x), against which speedup_vs_unfused at small n is to be read.
void report_fused_run(benchmark::State& state, const Kokkos::Cuda& exec, const std::function<void()>& program) {
  KE::reset_fusion_statistics();
  run_program(exec, true, program);
  const KE::FusionStatistics s = KE::fusion_statistics();
  state.counters["launches_recorded"] = double(s.launches_recorded);
  state.counters["dispatches"] = double(s.dispatches);
  state.counters["launches_per_dispatch"] = s.dispatches > 0 ? double(s.launches_recorded) / double(s.dispatches) : 0.0;
  state.counters["device_fused_kernels"] = double(s.device_fused_kernels);
  state.counters["device_runs_split"] = double(s.device_runs_split);
  state.counters["device_runs_unfused"] = double(s.device_runs_unfused);
  state.counters["device_graph_replays"] = double(s.device_graph_replays);
  state.counters["temporaries_eliminated"] = double(s.temporaries_eliminated);
  state.counters["windows_other_registers"] = double(s.device_windows_other_registers);
  state.counters["windows_other_tile"] = double(s.device_windows_other_tile);
  state.counters["windows_unfused_graph"] = double(s.device_windows_unfused_graph);
  state.counters["windows_unfused"] = double(s.device_windows_unfused);
}

// The 20 axpy launches y = a_k x + y; launch k covers [0, n - shrink * k) (shrink 1: no two
// share a range, so none fuse).
void axpy_launches(const Kokkos::Cuda& exec, const Array& x, const Array& y, std::int64_t n, std::int64_t shrink) {
  for (int k = 0; k < chain_length; ++k) {
    const double a = 1.0 / (k + 2);
    Kokkos::parallel_for("axpy", KE::with_accesses(Policy(exec, 0, n - shrink * k), KE::reads(x), KE::read_writes(y)),
                         KOKKOS_LAMBDA(std::int64_t i) { y(i) = a * x(i) + y(i); });
  }
}

int rounds_for(std::int64_t n) { return n >= 100000000 ? 3 : n >= 10000000 ? 6 : 20; }

void AxpyChain(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Kokkos::Cuda exec;
  const std::int64_t n = state.range(0);
  const Array x = filled(exec, "x", n, 1.0), y = filled(exec, "y", n, 2.0);
  const auto launches = [&] { axpy_launches(exec, x, y, n, 0); };
  const auto loop = [&] {
    Kokkos::parallel_for("chain loop", Policy(exec, 0, n), KOKKOS_LAMBDA(std::int64_t i) {
      const double xi = x(i);
      double yi = y(i);
      for (int k = 0; k < chain_length; ++k) yi = (1.0 / (k + 2)) * xi + yi;
      y(i) = yi;
    });
    exec.fence("PerfCudaFusion: chain loop");
  };
  // Agreement: the fused program bitwise as unfused, the loop to rounding.
  const std::vector<double> y0 = to_host(y);
  run_program(exec, true, launches);
  const std::vector<double> fused = to_host(y);
  Kokkos::deep_copy(y, Kokkos::View<const double*, Kokkos::HostSpace>(y0.data(), y0.size()));
  run_program(exec, false, launches);
  const std::vector<double> unfused = to_host(y);
  Kokkos::deep_copy(y, Kokkos::View<const double*, Kokkos::HostSpace>(y0.data(), y0.size()));
  loop();
  const std::vector<double> looped = to_host(y);
  for (std::size_t i = 0; i < fused.size(); i += 1 + fused.size() / 1000) {
    if (std::memcmp(&fused[i], &unfused[i], sizeof(double)) != 0) return perf::fail_result_check(state, "fused != unfused");
    if (std::abs(looped[i] - unfused[i]) > 1e-12 * std::abs(unfused[i])) return perf::fail_result_check(state, "loop != unfused");
  }
  std::vector<double> m;
  for (auto _ : state) {
    m = perf::interleaved_medians(rounds_for(n), {[&] { run_program(exec, true, launches); },
                                                  [&] { run_program(exec, false, launches); }, loop});
  }
  report(state, m);
  report_fused_run(state, exec, launches);
}

void BlackScholes(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Kokkos::Cuda exec;
  const std::int64_t n = state.range(0);
  const Array s = filled(exec, "s", n, 100.0), k = filled(exec, "k", n, 95.0), t = filled(exec, "t", n, 1.0);
  const Array d1(Kokkos::view_alloc(exec, "d1", Kokkos::WithoutInitializing), n);
  const Array d2(Kokkos::view_alloc(exec, "d2", Kokkos::WithoutInitializing), n);
  const Array call(Kokkos::view_alloc(exec, "call", Kokkos::WithoutInitializing), n);
  constexpr double r = 0.02, v = 0.3;
  const auto launches = [&] {
    Kokkos::parallel_for("d1", KE::with_accesses(Policy(exec, 0, n), KE::reads(s), KE::reads(k), KE::reads(t), KE::writes(d1)),
                         KOKKOS_LAMBDA(std::int64_t i) {
                           d1(i) = (std::log(s(i) / k(i)) + (r + 0.5 * v * v) * t(i)) / (v * std::sqrt(t(i)));
                         });
    Kokkos::parallel_for("d2", KE::with_accesses(Policy(exec, 0, n), KE::reads(d1), KE::reads(t), KE::writes(d2)),
                         KOKKOS_LAMBDA(std::int64_t i) { d2(i) = d1(i) - v * std::sqrt(t(i)); });
    Kokkos::parallel_for("call",
                         KE::with_accesses(Policy(exec, 0, n), KE::reads(s), KE::reads(k), KE::reads(t), KE::reads(d1),
                                           KE::reads(d2), KE::writes(call)),
                         KOKKOS_LAMBDA(std::int64_t i) {
                           call(i) = s(i) * 0.5 * std::erfc(-d1(i) / std::sqrt(2.0)) -
                                     k(i) * std::exp(-r * t(i)) * 0.5 * std::erfc(-d2(i) / std::sqrt(2.0));
                         });
  };
  const auto loop = [&] {
    Kokkos::parallel_for("black-scholes loop", Policy(exec, 0, n), KOKKOS_LAMBDA(std::int64_t i) {
      const double si = s(i), ki = k(i), ti = t(i);
      const double a = (std::log(si / ki) + (r + 0.5 * v * v) * ti) / (v * std::sqrt(ti));
      const double b = a - v * std::sqrt(ti);
      call(i) = si * 0.5 * std::erfc(-a / std::sqrt(2.0)) - ki * std::exp(-r * ti) * 0.5 * std::erfc(-b / std::sqrt(2.0));
    });
    exec.fence("PerfCudaFusion: black-scholes loop");
  };
  run_program(exec, true, launches);
  const std::vector<double> fused = to_host(call);
  run_program(exec, false, launches);
  const std::vector<double> unfused = to_host(call);
  loop();
  const std::vector<double> looped = to_host(call);
  for (std::size_t i = 0; i < fused.size(); i += 1 + fused.size() / 1000) {
    if (std::memcmp(&fused[i], &unfused[i], sizeof(double)) != 0) return perf::fail_result_check(state, "fused != unfused");
    if (std::abs(looped[i] - unfused[i]) > 1e-9 * (1 + std::abs(unfused[i]))) return perf::fail_result_check(state, "loop != unfused");
  }
  std::vector<double> m;
  for (auto _ : state) {
    m = perf::interleaved_medians(rounds_for(n), {[&] { run_program(exec, true, launches); },
                                                  [&] { run_program(exec, false, launches); }, loop});
  }
  report(state, m);
  report_fused_run(state, exec, launches);
}

// A memoized window of 20 launches over 20 different ranges (no two fuse): replayed as one CUDA
// graph vs the same 20 launches issued to the stream (fusion off).  Goal: >= 2x.
void GraphReplay(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Kokkos::Cuda exec;
  const std::int64_t n = state.range(0);
  const Array x = filled(exec, "x", n, 1.0), y = filled(exec, "y", n, 2.0);
  const auto launches = [&] { axpy_launches(exec, x, y, n, 1); };
  KE::reset_fusion_statistics();
  std::vector<double> m;
  for (auto _ : state) {
    m = perf::interleaved_medians(50, {[&] { run_program(exec, true, launches); },
                                       [&] { run_program(exec, false, launches); }});
  }
  const KE::FusionStatistics s = KE::fusion_statistics();
  if (s.device_graph_replays == 0) return perf::fail_result_check(state, "the memoized window was never replayed as a graph");
  // The host's share: the same fused window timed up to the end of its flush, then fenced.
  constexpr int host_rounds = 50;
  const std::uint64_t as_recorded = Kokkos::Impl::cuda_fusion_graph_launches_as_recorded().load();
  std::vector<std::vector<double>> host(1);
  for (int r = 0; r < host_rounds; ++r) {
    Kokkos::Timer timer;
    {
      KE::FusionScope scope;
      launches();
    }
    host[0].push_back(timer.seconds());
    exec.fence("PerfCudaFusion: host share");
  }
  state.counters["host_us"] = 1e6 * perf::medians_of_samples(host)[0];
  state.counters["as_recorded"] =
      double(Kokkos::Impl::cuda_fusion_graph_launches_as_recorded().load() - as_recorded) / host_rounds;
  state.counters["graph_us"] = 1e6 * m[0];
  state.counters["stream_us"] = 1e6 * m[1];
  state.counters["speedup_vs_stream"] = m[1] / m[0];
  state.counters["graph_replays"] = double(s.device_graph_replays);
  state.counters["graph_instantiations"] = double(s.device_graph_instantiations);
}


// ---- stencils and CG: shared checks and counters ---------------------------------------------

using Range = std::pair<std::int64_t, std::int64_t>;
constexpr int stencil_sweeps = 10;
constexpr int cg_iterations = 10;

// Empty when `fused` equals `unfused` bitwise and `looped` is within `tolerance` * (1 + largest
// |unfused|) of it everywhere; otherwise the first difference, for fail_result_check.
std::string disagreement(const Array& fused_v, const Array& unfused_v, const Array& looped_v, double tolerance) {
  const std::vector<double> fused = to_host(fused_v), unfused = to_host(unfused_v), looped = to_host(looped_v);
  double largest = 0;
  for (const double u : unfused) largest = std::max(largest, std::abs(u));
  const auto at = [&](const char* what, std::size_t i, double got) {
    return std::string(what) + " at index " + std::to_string(i) + ": " + std::to_string(got) + " vs unfused " +
           std::to_string(unfused[i]);
  };
  for (std::size_t i = 0; i < unfused.size(); ++i) {
    if (std::memcmp(&fused[i], &unfused[i], sizeof(double)) != 0) return at("fused != unfused (bitwise)", i, fused[i]);
    if (!(std::abs(looped[i] - unfused[i]) <= tolerance * (1 + largest))) {
      return at("hand-written kernel != unfused beyond tolerance", i, looped[i]);
    }
  }
  return {};
}

// Times fused, unfused and `loop` interleaved, reports them as `report` does, and adds what one
// steady-state fused run of `program` does (report_fused_run).
void measure_program(benchmark::State& state, const Kokkos::Cuda& exec, std::int64_t n,
                     const std::function<void()>& program, const std::function<void()>& loop) {
  std::vector<double> m;
  for (auto _ : state) {
    m = perf::interleaved_medians(rounds_for(n), {[&] { run_program(exec, true, program); },
                                                  [&] { run_program(exec, false, program); }, loop});
  }
  report(state, m);
  report_fused_run(state, exec, program);
}

// Seed 000's Listing 1 with its intermediates created and dropped by each run; call and put
// fused bitwise as unfused, the hand-written kernel to 1e-9.
void BlackScholesArrays(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Kokkos::Cuda exec;
  const std::int64_t n = state.range(0);
  const black_scholes::Problem<Kokkos::CudaSpace> problem(n);
  const auto program = [&] { black_scholes::black_scholes_with_temporaries(exec, problem); };
  const auto loop = [&] {
    black_scholes::black_scholes_single_loop(exec, problem);
    exec.fence("PerfCudaFusion: black-scholes loop");
  };
  std::vector<std::vector<double>> prices;  // fused, unfused, loop: call then put
  for (const int variant : {0, 1, 2}) {
    if (variant == 2) loop();
    else run_program(exec, variant == 0, program);
    std::vector<double> both = to_host(problem.call);
    const std::vector<double> put = to_host(problem.put);
    both.insert(both.end(), put.begin(), put.end());
    prices.push_back(std::move(both));
  }
  for (std::size_t i = 0; i < prices[0].size(); ++i) {
    if (std::memcmp(&prices[0][i], &prices[1][i], sizeof(double)) != 0) return perf::fail_result_check(state, "fused != unfused");
    if (std::abs(prices[2][i] - prices[1][i]) > 1e-9 * (1 + std::abs(prices[1][i]))) {
      return perf::fail_result_check(state, "loop != unfused");
    }
  }
  measure_program(state, exec, n, program, loop);
}

// Length n: 1 at every 17th index, 0 elsewhere (sharp features for the stencils to smooth).
Array spikes(const Kokkos::Cuda& exec, const char* label, std::int64_t n) {
  const Array v(Kokkos::view_alloc(exec, label, Kokkos::WithoutInitializing), n);
  Kokkos::parallel_for("spikes", Policy(exec, 0, n), KOKKOS_LAMBDA(std::int64_t i) { v(i) = i % 17 == 0 ? 1.0 : 0.0; });
  return v;
}

// ---- 1-D stencil: weighted Jacobi, three launches a sweep ------------------------------------
// One sweep of the three-point stencil from `from` to `to` (n + 2 points; the ends stay fixed),
// as an array program writes it: sum = east + west; average = .5 sum; next = (1 - w) center +
// w average.  The three launches fuse (each reads `from` and writes elsewhere); consecutive
// sweeps do not (the next sweep reads `to` at neighbouring indices).  The seed's in-place
// variant (example/stencil_1d.hpp) fuses only with the skewed schedule, which the device
// splits into one kernel per launch, so it would measure nothing here.
constexpr double jacobi_weight = 2.0 / 3.0;

void jacobi_1d_sweep(const Kokkos::Cuda& exec, const Array& from, const Array& to, const Array& sum,
                     const Array& average) {
  const auto n = static_cast<std::int64_t>(sum.extent(0));
  const auto east = Kokkos::subview(from, Range(0, n));
  const auto center = Kokkos::subview(from, Range(1, n + 1));
  const auto west = Kokkos::subview(from, Range(2, n + 2));
  const auto next = Kokkos::subview(to, Range(1, n + 1));
  const Policy policy(exec, 0, n);
  Kokkos::parallel_for("stencil_1d sum", KE::with_accesses(policy, KE::reads(east), KE::reads(west), KE::writes(sum)),
                       KOKKOS_LAMBDA(std::int64_t i) { sum(i) = east(i) + west(i); });
  Kokkos::parallel_for("stencil_1d average", KE::with_accesses(policy, KE::reads(sum), KE::writes(average)),
                       KOKKOS_LAMBDA(std::int64_t i) { average(i) = 0.5 * sum(i); });
  Kokkos::parallel_for("stencil_1d relax",
                       KE::with_accesses(policy, KE::reads(center), KE::reads(average), KE::writes(next)),
                       KOKKOS_LAMBDA(std::int64_t i) {
                         next(i) = (1.0 - jacobi_weight) * center(i) + jacobi_weight * average(i);
                       });
}

// The same sweep as one kernel.
void jacobi_1d_sweep_loop(const Kokkos::Cuda& exec, const Array& from, const Array& to) {
  Kokkos::parallel_for("stencil_1d loop", Policy(exec, 0, std::int64_t(from.extent(0)) - 2),
                       KOKKOS_LAMBDA(std::int64_t i) {
                         const double average = 0.5 * (from(i) + from(i + 2));
                         to(i + 1) = (1.0 - jacobi_weight) * from(i + 1) + jacobi_weight * average;
                       });
}

// 10 sweeps a run, alternating u -> v -> u (the result in u): 30 launches, 10 fused kernels.
void Stencil1D(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Kokkos::Cuda exec;
  const std::int64_t n = state.range(0);
  const Array initial = spikes(exec, "initial", n + 2);
  const Array u("u", n + 2), v("v", n + 2), sum("sum", n), average("average", n);
  const Array fused("fused", n + 2), unfused("unfused", n + 2);
  const auto restart = [&] {
    Kokkos::deep_copy(exec, u, initial);
    Kokkos::deep_copy(exec, v, initial);  // its ends are the fixed boundary too
  };
  const auto program = [&] {
    for (int s = 0; s < stencil_sweeps; ++s) {
      jacobi_1d_sweep(exec, s % 2 == 0 ? u : v, s % 2 == 0 ? v : u, sum, average);
    }
  };
  const auto loop = [&] {
    for (int s = 0; s < stencil_sweeps; ++s) jacobi_1d_sweep_loop(exec, s % 2 == 0 ? u : v, s % 2 == 0 ? v : u);
    exec.fence("PerfCudaFusion: stencil_1d loop");
  };
  restart();
  run_program(exec, true, program);
  Kokkos::deep_copy(exec, fused, u);
  restart();
  run_program(exec, false, program);
  Kokkos::deep_copy(exec, unfused, u);
  restart();
  loop();
  const std::string differ = disagreement(fused, unfused, u, 1e-12);
  if (!differ.empty()) return perf::fail_result_check(state, ("Stencil1D: " + differ).c_str());
  measure_program(state, exec, n, program, loop);
}

// ---- 2-D stencil: five points, six launches a sweep, flattened -------------------------------
// seed 003 Figure 1a as example/stencil_2d.hpp writes it (avg = center + north; avg += east;
// avg += west; avg += south; work = .2 avg; center = work), in place on a (side + 2)^2 grid
// with a hot west wall, side = sqrt(n).  On the GPU each launch is one thread per cell: the grid
// is a flat array of row-major rows of width W = side + 2, a launch covers the side interior rows
// whole (k in [0, side W) is cell W + k), the neighbours are the flat array shifted by -W, +1,
// -1 and +W, and the copy leaves the wall columns as they were.  The first five launches fuse
// into one kernel; the copy writes what they read at neighbouring cells (the host's skewed
// schedule), so the device runs it as a second kernel.
struct Grid2D {
  std::int64_t side, width;
  Array cells;  // width * width
  Array center() const { return Kokkos::subview(cells, Range(width, width + side * width)); }
  Array shifted(std::int64_t by) const { return Kokkos::subview(cells, Range(width + by, width + by + side * width)); }
};

Grid2D hot_west_wall(const Kokkos::Cuda& exec, const char* label, std::int64_t side) {
  const std::int64_t width = side + 2;
  const Grid2D g{side, width, Array(Kokkos::view_alloc(exec, label, Kokkos::WithoutInitializing), width * width)};
  const Array cells = g.cells;
  Kokkos::parallel_for("hot west wall", Policy(exec, 0, width * width),
                       KOKKOS_LAMBDA(std::int64_t k) { cells(k) = k % width == 0 ? 1.0 : 0.0; });
  return g;
}

template <class A, class B>
void add_cells(const Policy& cells, const A& a, const B& b, const Array& out) {
  Kokkos::parallel_for("stencil_2d add", KE::with_accesses(cells, KE::reads(a), KE::reads(b), KE::writes(out)),
                       KOKKOS_LAMBDA(std::int64_t k) { out(k) = a(k) + b(k); });
}

void stencil_2d_sweep(const Kokkos::Cuda& exec, const Grid2D& g, const Array& avg, const Array& work) {
  const Policy cells(exec, 0, g.side * g.width);
  const Array center = g.center();
  const std::int64_t width = g.width;
  add_cells(cells, center, g.shifted(-width), avg);
  add_cells(cells, avg, g.shifted(1), avg);
  add_cells(cells, avg, g.shifted(-1), avg);
  add_cells(cells, avg, g.shifted(width), avg);
  Kokkos::parallel_for("stencil_2d mult", KE::with_accesses(cells, KE::reads(avg), KE::writes(work)),
                       KOKKOS_LAMBDA(std::int64_t k) { work(k) = 0.2 * avg(k); });
  Kokkos::parallel_for("stencil_2d copy", KE::with_accesses(cells, KE::reads(work), KE::read_writes(center)),
                       KOKKOS_LAMBDA(std::int64_t k) {
                         const std::int64_t column = k % width;
                         if (column != 0 && column != width - 1) center(k) = work(k);
                       });
}

// The same sweep as one kernel, from `from` to `to` (the same border), summing in the program's order.
void stencil_2d_sweep_loop(const Kokkos::Cuda& exec, const Grid2D& from, const Grid2D& to) {
  const std::int64_t width = from.width;
  const Array a = from.cells, b = to.cells;
  Kokkos::parallel_for("stencil_2d loop", Policy(exec, 0, from.side * width), KOKKOS_LAMBDA(std::int64_t k) {
    const std::int64_t column = k % width, c = width + k;
    if (column == 0 || column == width - 1) return;
    b(c) = 0.2 * ((((a(c) + a(c - width)) + a(c + 1)) + a(c - 1)) + a(c + width));
  });
}

// 10 sweeps a run: 60 launches, 10 fused kernels of five plus 10 copies.
void Stencil2D(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Kokkos::Cuda exec;
  const auto side = static_cast<std::int64_t>(std::lround(std::sqrt(double(state.range(0)))));
  const Grid2D grid = hot_west_wall(exec, "grid", side), scratch = hot_west_wall(exec, "scratch", side);
  const Array initial = hot_west_wall(exec, "initial", side).cells;
  const Array avg("avg", side * grid.width), work("work", side * grid.width);
  const Array fused("fused", grid.cells.extent(0)), unfused("unfused", grid.cells.extent(0));
  const auto program = [&] {
    for (int s = 0; s < stencil_sweeps; ++s) stencil_2d_sweep(exec, grid, avg, work);
  };
  const auto loop = [&] {
    for (int s = 0; s < stencil_sweeps; ++s) {
      stencil_2d_sweep_loop(exec, s % 2 == 0 ? grid : scratch, s % 2 == 0 ? scratch : grid);
    }
    exec.fence("PerfCudaFusion: stencil_2d loop");
  };
  run_program(exec, true, program);
  Kokkos::deep_copy(exec, fused, grid.cells);
  Kokkos::deep_copy(exec, grid.cells, initial);
  run_program(exec, false, program);
  Kokkos::deep_copy(exec, unfused, grid.cells);
  Kokkos::deep_copy(exec, grid.cells, initial);
  loop();
  const std::string differ = disagreement(fused, unfused, grid.cells, 1e-12);
  if (!differ.empty()) return perf::fail_result_check(state, ("Stencil2D: " + differ).c_str());
  measure_program(state, exec, side * side, program, loop);
}

// ---- conjugate gradient on the 1-D Laplacian --------------------------------------------------
// example/conjugate_gradient.hpp's iteration as six launches with declared accesses: Ap = A p
// (p through shifted subviews of p with a zero halo), p.Ap, x += alpha p, r -= alpha Ap, r.r,
// p = r + beta p.  Each dot product ends its fused run and hands its value to the host, so an
// iteration is {Ap, p.Ap} {x, r, r.r} {p}: two fused kernels (each reduction in the kernel of
// its run) and one plain one.  The hand-written version is those three runs as three kernels
// (conjugate_gradient::solve_loop: a global reduction's value must reach the host before the
// next run can use it).
struct CgVectors {
  Array b, x, r, Ap, p_ext;  // p_ext(0) and p_ext(n + 1) stay 0
  explicit CgVectors(std::int64_t n) : b("b", n), x("x", n), r("r", n), Ap("Ap", n), p_ext("p_ext", n + 2) {}
};

void cg_program(const Kokkos::Cuda& exec, const CgVectors& v) {
  const auto n = static_cast<std::int64_t>(v.b.extent(0));
  const Array b = v.b, x = v.x, r = v.r, Ap = v.Ap;
  const auto p = Kokkos::subview(v.p_ext, Range(1, n + 1));
  const auto p_left = Kokkos::subview(v.p_ext, Range(0, n));
  const auto p_right = Kokkos::subview(v.p_ext, Range(2, n + 2));
  const Policy policy(exec, 0, n);
  Kokkos::parallel_for("cg start", KE::with_accesses(policy, KE::reads(b), KE::writes(x), KE::writes(r), KE::writes(p)),
                       KOKKOS_LAMBDA(std::int64_t i) {
                         x(i) = 0.0;
                         r(i) = b(i);
                         p(i) = b(i);
                       });
  double rr = 0;
  Kokkos::parallel_reduce("cg r.r", KE::with_accesses(policy, KE::reads(r)),
                          KOKKOS_LAMBDA(std::int64_t i, double& acc) { acc += r(i) * r(i); }, rr);
  for (int it = 0; it < cg_iterations; ++it) {
    Kokkos::parallel_for("cg matvec",
                         KE::with_accesses(policy, KE::reads(p), KE::reads(p_left), KE::reads(p_right), KE::writes(Ap)),
                         KOKKOS_LAMBDA(std::int64_t i) { Ap(i) = 2.0 * p(i) - p_left(i) - p_right(i); });
    double pAp = 0;
    Kokkos::parallel_reduce("cg p.Ap", KE::with_accesses(policy, KE::reads(p), KE::reads(Ap)),
                            KOKKOS_LAMBDA(std::int64_t i, double& acc) { acc += p(i) * Ap(i); }, pAp);
    const double alpha = rr / pAp;
    Kokkos::parallel_for("cg x", KE::with_accesses(policy, KE::reads(p), KE::read_writes(x)),
                         KOKKOS_LAMBDA(std::int64_t i) { x(i) = alpha * p(i) + x(i); });
    Kokkos::parallel_for("cg r", KE::with_accesses(policy, KE::reads(Ap), KE::read_writes(r)),
                         KOKKOS_LAMBDA(std::int64_t i) { r(i) = -alpha * Ap(i) + r(i); });
    double rr_new = 0;
    Kokkos::parallel_reduce("cg r.r", KE::with_accesses(policy, KE::reads(r)),
                            KOKKOS_LAMBDA(std::int64_t i, double& acc) { acc += r(i) * r(i); }, rr_new);
    const double beta = rr_new / rr;
    Kokkos::parallel_for("cg p", KE::with_accesses(policy, KE::reads(r), KE::read_writes(p)),
                         KOKKOS_LAMBDA(std::int64_t i) { p(i) = r(i) + beta * p(i); });
    rr = rr_new;
  }
}

// 10 iterations a run (2 + 60 launches); x compared fused vs unfused bitwise, the hand-written
// version to 1e-10 of the largest |x| (its reductions sum in another order).
void ConjugateGradient(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Kokkos::Cuda exec;
  const std::int64_t n = state.range(0);
  const CgVectors v(n);
  const Array b = v.b;
  Kokkos::parallel_for("cg rhs", Policy(exec, 0, n),
                       KOKKOS_LAMBDA(std::int64_t i) { b(i) = std::sin(3.0 * double(i) / double(n)) + 0.1; });
  const Array fused("fused", n), unfused("unfused", n);
  const auto program = [&] { cg_program(exec, v); };
  const auto loop = [&] {
    conjugate_gradient::solve_loop(exec, v.b, v.x, v, cg_iterations, 0.0);
    exec.fence("PerfCudaFusion: cg loop");
  };
  run_program(exec, true, program);
  Kokkos::deep_copy(exec, fused, v.x);
  run_program(exec, false, program);
  Kokkos::deep_copy(exec, unfused, v.x);
  loop();
  const std::string differ = disagreement(fused, unfused, v.x, 1e-10);
  if (!differ.empty()) return perf::fail_result_check(state, ("ConjugateGradient: " + differ).c_str());
  measure_program(state, exec, n, program, loop);
}

}  // namespace

BENCHMARK(AxpyChain)->Name("CudaFusion/AxpyChain")->RangeMultiplier(10)->Range(100000, 100000000)->Iterations(1)->UseRealTime();
BENCHMARK(GraphReplay)->Name("CudaFusion/GraphReplay")->Arg(1000)->Arg(100000)->Iterations(1)->UseRealTime();
BENCHMARK(BlackScholes)
    ->Name("CudaFusion/BlackScholes")
    ->RangeMultiplier(10)
    ->Range(100000, 100000000)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK(BlackScholesArrays)
    ->Name("CudaFusion/BlackScholesArrays")
    ->RangeMultiplier(10)
    ->Range(100000, 100000000)
    ->Iterations(1)
    ->UseRealTime();
// 1e8 too: the largest, the 2-D stencil, holds 4 grids of 0.8 GB; CG 6 vectors of 0.8 GB.
BENCHMARK(Stencil1D)->Name("CudaFusion/Stencil1D")->RangeMultiplier(10)->Range(100000, 100000000)->Iterations(1)->UseRealTime();
BENCHMARK(Stencil2D)->Name("CudaFusion/Stencil2D")->RangeMultiplier(10)->Range(100000, 100000000)->Iterations(1)->UseRealTime();
BENCHMARK(ConjugateGradient)
    ->Name("CudaFusion/ConjugateGradient")
    ->RangeMultiplier(10)
    ->Range(100000, 100000000)
    ->Iterations(1)
    ->UseRealTime();

// A task DAG whose work is found while it runs, on the host: the adaptive quadrature of
// example/task_adaptive.hpp (a quadtree refined where the estimate is not good enough) on kdag's
// TaskScheduler, beside the same recursion as OpenMP tasks and as oneTBB task_groups (where CMake
// found oneTBB), and the serial walk, interleaved in the same run on the same number of threads.
//
//   TaskAdaptive/peaks:<p>/spawn_depth:<d>  p peaks of width 0.01 (p = 1: to a tolerance of 1e-13,
//                        36,789 cells of about 0.3 us each, 4 to 12 levels deep; p = 8: to 1e-8,
//                        5,941 cells of about 20 us, 4 to 10 deep), a task per cell above depth d that is
//                        refined (d = 24: every cell's), each below d refining its cell serially:
//                        the grain.  kdag: one host_spawn of the root, whose tasks spawn their
//                        quadrants and respawn behind when_all of them, then wait; OpenMP: a task
//                        per quadrant and taskwait, inside one parallel region; oneTBB: a
//                        task_group per refined cell.  Every variant's value is checked against
//                        the serial walk's (equal: the same additions in the same order).
//   Counters: kdag_ms, omp_ms, tbb_ms, serial_ms (median ms per run), vs_omp = kdag_ms / omp_ms,
//             vs_tbb = kdag_ms / tbb_ms (< 1: kdag is faster), speedup = serial_ms / kdag_ms,
//             tasks (kdag's; the peers make as many), grain_us = serial_ms / tasks (the mean
//             serial work per task), cells, threads.
//
// Run: PerfTaskAdaptive --kokkos-num-threads=2
#include "PerfInterleaved.hpp"
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include "../example/task_adaptive.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

#if defined(KDAG_HAVE_TBB)
#include <tbb/task_arena.h>
#include <tbb/task_group.h>
#endif
#include <omp.h>

namespace {

using task_adaptive::Cell;
using task_adaptive::Problem;
using Scheduler = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;

Problem benchmark_problem(int peaks) {
  Problem p;
  p.f = {peaks, 0.01};
  p.tolerance = peaks == 1 ? 1e-13 : 1e-8;
  p.min_depth = 4;
  p.max_depth = 20;
  return p;
}

// ---- peers: the recursion of CellTask, a task per quadrant of a refined cell above spawn_depth --
double omp_cell(const Problem& p, const Cell& c, double coarse, int spawn_depth) {
  if (c.depth >= spawn_depth) return task_adaptive::refine_in_place(p, c, coarse);
  double quadrant[4];
  if (!task_adaptive::refines(p, c, coarse, quadrant)) return task_adaptive::sum_of_quadrants(quadrant);
  double value[4];
  for (int q = 0; q < 4; ++q) {
#pragma omp task default(none) shared(p, value, quadrant) firstprivate(c, q, spawn_depth)
    value[q] = omp_cell(p, task_adaptive::quadrant_of(c, q), quadrant[q], spawn_depth);
  }
#pragma omp taskwait
  return task_adaptive::sum_of_quadrants(value);
}

double omp_integral(const Problem& p, int spawn_depth, int threads) {
  double value = 0;
#pragma omp parallel num_threads(threads)
#pragma omp single
  value = omp_cell(p, Cell{}, task_adaptive::estimate(p.f, Cell{}), spawn_depth);
  return value;
}

#if defined(KDAG_HAVE_TBB)
double tbb_cell(const Problem& p, const Cell& c, double coarse, int spawn_depth) {
  if (c.depth >= spawn_depth) return task_adaptive::refine_in_place(p, c, coarse);
  double quadrant[4];
  if (!task_adaptive::refines(p, c, coarse, quadrant)) return task_adaptive::sum_of_quadrants(quadrant);
  double value[4];
  tbb::task_group group;
  for (int q = 0; q < 4; ++q)
    group.run([&, q] { value[q] = tbb_cell(p, task_adaptive::quadrant_of(c, q), quadrant[q], spawn_depth); });
  group.wait();
  return task_adaptive::sum_of_quadrants(value);
}
#endif

// ---- the benchmark ------------------------------------------------------------------------------
struct Variant {
  const char* name;
  std::function<double()> integrate;
  double value = 0;
};

void BM_TaskAdaptive(benchmark::State& state) {
  const Problem p = benchmark_problem(int(state.range(0)));
  const int spawn_depth = int(state.range(1));
  const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  const task_adaptive::TreeShape shape = task_adaptive::tree_shape(p, spawn_depth);

  Scheduler sched(Scheduler::memory_space(), std::size_t(64) << 20, 64, 1024, 1 << 16);
  std::string failed;
  std::vector<Variant> variants;
  variants.push_back({"kdag", [&] {
                        auto root = task_adaptive::spawn_integral(sched, p, spawn_depth);
                        if (root.is_null()) {
                          failed = "the root's spawn found the pool full";
                          return 0.0;
                        }
                        Kokkos::wait(sched);
                        return root.get();
                      }});
  variants.push_back({"omp", [&] { return omp_integral(p, spawn_depth, threads); }});
#if defined(KDAG_HAVE_TBB)
  tbb::task_arena arena(threads);
  variants.push_back({"tbb", [&] {
                        return arena.execute(
                            [&] { return tbb_cell(p, Cell{}, task_adaptive::estimate(p.f, Cell{}), spawn_depth); });
                      }});
#endif
  variants.push_back({"serial", [&] { return task_adaptive::serial_integral(p); }});

  std::vector<perf::SetupAndPass> runs;
  for (Variant& v : variants) runs.push_back({[] {}, [&v] { v.value = v.integrate(); }});
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians_after_setup(5, runs);

  if (!failed.empty()) return perf::fail_result_check(state, "kdag: " + failed);
  for (const Variant& v : variants)
    if (v.value != shape.value)
      return perf::fail_result_check(state, std::string(v.name) + ": the integral is " + std::to_string(v.value) +
                                                ", the serial walk's " + std::to_string(shape.value));
  std::map<std::string, double> median;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    median[variants[i].name] = m[i];
    state.counters[std::string(variants[i].name) + "_ms"] = m[i] * 1e3;
  }
  const double kdag = median["kdag"];
  state.counters["vs_omp"] = kdag / median["omp"];
#if defined(KDAG_HAVE_TBB)
  state.counters["vs_tbb"] = kdag / median["tbb"];
#endif
  state.counters["speedup"] = median["serial"] / kdag;
  state.counters["tasks"] = double(shape.tasks);
  state.counters["grain_us"] = median["serial"] / double(shape.tasks) * 1e6;
  state.counters["cells"] = double(shape.cells());
  state.counters["threads"] = threads;
}
BENCHMARK(BM_TaskAdaptive)
    ->Name("TaskAdaptive")
    ->ArgNames({"peaks", "spawn_depth"})
    ->Args({1, 5})
    ->Args({1, 24})
    ->Args({8, 5})
    ->Args({8, 24})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

// A sparse Cholesky factorisation as a task DAG over its elimination tree, on the host: the DAG of
// example/task_sparse.hpp on kdag's TaskScheduler, beside the same tree run as a parallel loop per
// level (level-set scheduling, the way sparse solvers run a tree without tasks), as OpenMP tasks,
// as oneTBB task_groups (where CMake found oneTBB), and the serial loop, interleaved in the same
// run on the same number of threads.
//
//   TaskSparse/grid:<g>/dims:<d>/grain:<c>  the weighted Laplacian of a g x g (d = 2) or g x g x g
//                        (d = 3) grid by nested dissection; a task per subtree of more than c
//                        columns (each smaller one factored in place by its task): the grain.
//                        kdag: one host_spawn of the root, whose tasks spawn their chain's
//                        children and respawn behind when_all of them, then wait; levels: a
//                        parallel_for over each level's columns on the host execution space;
//                        OpenMP: a task per child and taskwait, inside one parallel region;
//                        oneTBB: a task_group per spawning chain.  Every variant's factor is
//                        checked against the serial loop's (equal: the same operations in the
//                        same order).
//   Counters: kdag_ms, levels_ms, omp_ms, tbb_ms, serial_ms (median ms per run),
//             vs_levels = kdag_ms / levels_ms, vs_omp = kdag_ms / omp_ms, vs_tbb = kdag_ms / tbb_ms
//             (< 1: kdag is faster), speedup = serial_ms / kdag_ms, gflops (kdag's),
//             tasks (kdag's; OpenMP and oneTBB make as many), levels, grain_us = serial_ms / tasks
//             (the mean serial work per task), columns, threads.
//
// Run: PerfTaskSparse --kokkos-num-threads=2
#include "PerfInterleaved.hpp"
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include "../example/task_sparse.hpp"

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

using task_sparse::Factor;
using Space = Kokkos::DefaultHostExecutionSpace;
using Scheduler = Kokkos::TaskScheduler<Space>;

// ---- peers: the recursion of SubtreeTask, a task per child of a chain above the grain ----------
int last_column(const Factor& f, int top) { return top < f.n ? top : f.n - 1; }

void omp_subtree(const Factor& f, int top, int grain) {
  if (top - f.first[top] + 1 <= grain) return task_sparse::factor_columns(f, f.first[top], last_column(f, top) + 1);
  const int bottom = task_sparse::chain_bottom(f.child_ptr, f.child, top);
  for (int c = f.child_ptr[bottom]; c < f.child_ptr[bottom + 1]; ++c) {
#pragma omp task default(none) shared(f) firstprivate(c, grain)
    omp_subtree(f, f.child[c], grain);
  }
#pragma omp taskwait
  task_sparse::factor_columns(f, bottom, last_column(f, top) + 1);
}

#if defined(KDAG_HAVE_TBB)
void tbb_subtree(const Factor& f, int top, int grain) {
  if (top - f.first[top] + 1 <= grain) return task_sparse::factor_columns(f, f.first[top], last_column(f, top) + 1);
  const int bottom = task_sparse::chain_bottom(f.child_ptr, f.child, top);
  tbb::task_group group;
  for (int c = f.child_ptr[bottom]; c < f.child_ptr[bottom + 1]; ++c)
    group.run([&f, c, grain] { tbb_subtree(f, f.child[c], grain); });
  group.wait();
  task_sparse::factor_columns(f, bottom, last_column(f, top) + 1);
}
#endif

// ---- the benchmark ------------------------------------------------------------------------------
struct Variant {
  const char* name;
  std::function<void()> factor;
  std::function<std::vector<double>()> values;
};

void BM_TaskSparse(benchmark::State& state) {
  const int side = int(state.range(0)), dims = int(state.range(1)), grain = int(state.range(2));
  const task_sparse::Problem p = task_sparse::make_problem({side, side, dims == 3 ? side : 1});
  const int threads = Space().concurrency();
  const task_sparse::DagShape shape = task_sparse::dag_shape(p, grain);
  const std::vector<double> serial = task_sparse::serial_factor(p);

  task_sparse::FactorData<Space::memory_space> dag_data(p), level_data(p);
  Scheduler sched(Scheduler::memory_space(), std::size_t(64) << 20, 64, 1024, 1 << 16);
  std::string failed;
  std::vector<Variant> variants;
  variants.push_back({"kdag",
                      [&] {
                        auto done = task_sparse::spawn_factor(sched, dag_data.factor(), grain);
                        if (done.is_null()) failed = "the root's spawn found the pool full";
                        Kokkos::wait(sched);
                      },
                      [&] { return dag_data.values(); }});
  variants.push_back({"levels", [&] { level_data.factor_by_levels(Space()); }, [&] { return level_data.values(); }});
  std::vector<double> omp_values, tbb_values, serial_values;
  const Factor omp_f = task_sparse::host_factor(p.a, p.symbolic, omp_values);
  variants.push_back({"omp",
                      [&] {
#pragma omp parallel num_threads(threads)
#pragma omp single
                        omp_subtree(omp_f, p.a.n, grain);
                      },
                      [&] { return omp_values; }});
#if defined(KDAG_HAVE_TBB)
  tbb::task_arena arena(threads);
  const Factor tbb_f = task_sparse::host_factor(p.a, p.symbolic, tbb_values);
  variants.push_back({"tbb", [&] { arena.execute([&] { tbb_subtree(tbb_f, p.a.n, grain); }); },
                      [&] { return tbb_values; }});
#endif
  const Factor serial_f = task_sparse::host_factor(p.a, p.symbolic, serial_values);
  variants.push_back({"serial", [&] { task_sparse::factor_columns(serial_f, 0, p.a.n); },
                      [&] { return serial_values; }});

  std::vector<perf::SetupAndPass> runs;
  for (Variant& v : variants) runs.push_back({[] {}, v.factor});
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians_after_setup(5, runs);

  if (!failed.empty()) return perf::fail_result_check(state, "kdag: " + failed);
  for (const Variant& v : variants)
    if (v.values() != serial)
      return perf::fail_result_check(state, std::string(v.name) + ": the factor differs from the serial loop's");
  std::map<std::string, double> median;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    median[variants[i].name] = m[i];
    state.counters[std::string(variants[i].name) + "_ms"] = m[i] * 1e3;
  }
  const double kdag = median["kdag"];
  state.counters["vs_levels"] = kdag / median["levels"];
  state.counters["vs_omp"] = kdag / median["omp"];
#if defined(KDAG_HAVE_TBB)
  state.counters["vs_tbb"] = kdag / median["tbb"];
#endif
  state.counters["speedup"] = median["serial"] / kdag;
  state.counters["gflops"] = p.symbolic.flops() / kdag * 1e-9;
  state.counters["tasks"] = double(shape.tasks);
  state.counters["levels"] = task_sparse::level_sets(p.symbolic).levels();
  state.counters["grain_us"] = median["serial"] / double(shape.tasks) * 1e6;
  state.counters["columns"] = p.a.n;
  state.counters["threads"] = threads;
}
BENCHMARK(BM_TaskSparse)
    ->Name("TaskSparse")
    ->ArgNames({"grid", "dims", "grain"})
    ->Args({200, 2, 4})
    ->Args({200, 2, 64})
    ->Args({16, 3, 16})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

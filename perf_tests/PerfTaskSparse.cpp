// A sparse Cholesky factorisation, and the solve with its factor, as task DAGs over the
// elimination tree, on the host: the DAGs of example/task_sparse.hpp on kdag's TaskScheduler,
// beside the same tree run as a parallel loop per level (level-set scheduling, the way sparse
// solvers run a tree without tasks), as OpenMP tasks, as oneTBB task_groups (where CMake found
// oneTBB), and the serial loop, interleaved in the same run on the same number of threads.
//
//   TaskSparse/grid:<g>/dims:<d>/grain:<c>  the factorisation of the weighted Laplacian of a g x g
//                        (d = 2) or g x g x g (d = 3) grid by nested dissection; a task per subtree
//                        of more than c columns (each smaller one factored in place by its task):
//                        the grain.  kdag: one host_spawn of the root, whose tasks spawn their
//                        chain's children and respawn behind when_all of them, then wait; levels:
//                        a parallel_for over each level's columns on the host execution space;
//                        OpenMP: a task per child and taskwait, inside one parallel region;
//                        oneTBB: a task_group per spawning chain.
//   TaskSparseSolve/grid:<g>/dims:<d>/grain:<c>  the solve L L^T x = A 1 with that factor: the
//                        forward substitution up the tree, then the backward one down it (a chain
//                        before its children), each way the same as above (kdag: spawn_solve;
//                        levels: solve_by_levels), x reset before each run.
//   Every variant's result (L, or x) is checked against the serial loop's: equal, the same
//   operations in the same order.
//   Counters: kdag_ms, levels_ms, omp_ms, tbb_ms, serial_ms (median ms per run),
//             vs_levels = kdag_ms / levels_ms, vs_omp = kdag_ms / omp_ms, vs_tbb = kdag_ms / tbb_ms
//             (< 1: kdag is faster), speedup = serial_ms / kdag_ms, gflops (kdag's), tasks (kdag's
//             DAG, a solve's two; OpenMP and oneTBB make as many), levels, grain_us = serial_ms /
//             tasks (the mean serial work per task), columns, threads.
//
// Run: PerfTaskSparse --kokkos-num-threads=2
#include "PerfInterleaved.hpp"
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include "../example/task_sparse.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#if defined(KDAG_HAVE_TBB)
#include <tbb/task_arena.h>
#include <tbb/task_group.h>
#endif
#include <omp.h>

namespace {

using task_sparse::Factor;
using task_sparse::Problem;
using task_sparse::Sweep;
using Space = Kokkos::DefaultHostExecutionSpace;
using Scheduler = Kokkos::TaskScheduler<Space>;

// ---- peers: the recursion of SubtreeTask, a task per child of a chain above the grain ----------
// The chain runs after its children (the factorisation, the forward substitution) or before them
// (the backward substitution).
int last_column(const Factor& f, int top) { return top < f.n ? top : f.n - 1; }

void omp_subtree(const Factor& f, Sweep sweep, double* x, int top, int grain) {
  const int last = last_column(f, top);
  if (top - f.first[top] + 1 <= grain) return task_sparse::sweep_columns(f, sweep, x, f.first[top], last + 1);
  const int bottom = task_sparse::chain_bottom(f.child_ptr, f.child, top);
  if (sweep == Sweep::backward) task_sparse::sweep_columns(f, sweep, x, bottom, last + 1);
  for (int c = f.child_ptr[bottom]; c < f.child_ptr[bottom + 1]; ++c) {
#pragma omp task default(none) shared(f) firstprivate(c, grain, sweep, x)
    omp_subtree(f, sweep, x, f.child[c], grain);
  }
#pragma omp taskwait
  if (sweep != Sweep::backward) task_sparse::sweep_columns(f, sweep, x, bottom, last + 1);
}

#if defined(KDAG_HAVE_TBB)
void tbb_subtree(const Factor& f, Sweep sweep, double* x, int top, int grain) {
  const int last = last_column(f, top);
  if (top - f.first[top] + 1 <= grain) return task_sparse::sweep_columns(f, sweep, x, f.first[top], last + 1);
  const int bottom = task_sparse::chain_bottom(f.child_ptr, f.child, top);
  if (sweep == Sweep::backward) task_sparse::sweep_columns(f, sweep, x, bottom, last + 1);
  tbb::task_group group;
  for (int c = f.child_ptr[bottom]; c < f.child_ptr[bottom + 1]; ++c)
    group.run([&f, sweep, x, c, grain] { tbb_subtree(f, sweep, x, f.child[c], grain); });
  group.wait();
  if (sweep != Sweep::backward) task_sparse::sweep_columns(f, sweep, x, bottom, last + 1);
}
#endif

// The sweeps of a factorisation, or of a solve (each waits for the one before).
std::vector<Sweep> sweeps(bool solve) {
  return solve ? std::vector<Sweep>{Sweep::forward, Sweep::backward} : std::vector<Sweep>{Sweep::factor};
}

// ---- the benchmarks -----------------------------------------------------------------------------
// A way to run the tree: its untimed set-up, its timed run, and what it computed (L, or x).
struct Variant {
  std::string name;
  std::function<void()> setup, run;
  std::function<std::vector<double>()> result;
};

// A variant's own copy of the problem's arrays and b, where it runs: on the host for the peers
// (`host`, L's values in `l`), in the scheduler's memory for kdag and the level loops (`data`, `x`).
// L's values are zeros, or, for a solve, the factor (`factor`: serial_factor's, which
// factor_by_levels equals).
struct Copy {
  enum class On { host, scheduler };
  On on;
  std::vector<double> l, b, host_x;
  Factor host;
  std::optional<task_sparse::FactorData<Space::memory_space>> data;
  Kokkos::View<double*, Space::memory_space> x;

  Copy(const Problem& p, On where, const std::vector<double>* factor, const std::vector<double>& rhs)
      : on(where), b(rhs) {
    if (on == On::host) {
      l = factor != nullptr ? *factor : std::vector<double>(p.symbolic.nnz(), 0.0);
      host = task_sparse::host_factor(p.a, p.symbolic, l.data());
      return;
    }
    data.emplace(p);
    x = Kokkos::View<double*, Space::memory_space>("x", rhs.size());
    if (factor != nullptr) data->factor_by_levels(Space());
  }
  static Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> view_of(std::vector<double>& v) {
    return Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size());
  }
  // Before a substitution's run: x = b where the variant runs.
  void reset_x() {
    host_x = b;
    if (on == On::scheduler) Kokkos::deep_copy(x, view_of(host_x));
  }
  // What the last run computed: L, or for a solve x.
  std::vector<double> result(bool solve) {
    if (on == On::host) return solve ? host_x : l;
    if (!solve) return data->values();
    Kokkos::deep_copy(view_of(host_x), x);
    return host_x;
  }
};

// kdag, the level loops, OpenMP, oneTBB and the serial loop factoring p, or solving A x = A 1 with
// its factor, each on a copy of its own; their medians, every result checked against the serial
// loop's, into the state's counters.
void run_tree(benchmark::State& state, const Problem& p, bool solve, int grain) {
  const int threads = Space().concurrency();
  const std::vector<double> b = task_sparse::times_ones(p.a);
  const std::vector<double> factor = solve ? task_sparse::serial_factor(p) : std::vector<double>();
  std::vector<std::unique_ptr<Copy>> copies;
  const auto copy = [&](Copy::On on) -> Copy& {
    return *copies.emplace_back(std::make_unique<Copy>(p, on, solve ? &factor : nullptr, b));
  };
  const auto reset = [solve](Copy& c) {
    return [&c, solve] {
      if (solve) c.reset_x();
    };
  };
  Scheduler sched(Scheduler::memory_space(), std::size_t(64) << 20, 64, 1024, 1 << 16);
  std::string failed;
  std::vector<Variant> variants;
  Copy& dag = copy(Copy::On::scheduler);
  variants.push_back({"kdag", reset(dag),
                      [&, solve] {
                        auto done = solve ? task_sparse::spawn_solve(sched, dag.data->factor(), dag.x.data(), grain)
                                          : task_sparse::spawn_factor(sched, dag.data->factor(), grain);
                        if (done.is_null()) failed = "the root's spawn found the pool full";
                        Kokkos::wait(sched);
                      },
                      [&dag, solve] { return dag.result(solve); }});
  Copy& levels = copy(Copy::On::scheduler);
  variants.push_back({"levels", reset(levels),
                      [&levels, solve] {
                        if (solve) return levels.data->solve_by_levels(Space(), levels.x.data());
                        levels.data->factor_by_levels(Space());
                      },
                      [&levels, solve] { return levels.result(solve); }});
  Copy& omp = copy(Copy::On::host);
  variants.push_back({"omp", reset(omp),
                      [&omp, solve, grain, threads, n = p.a.n] {
#pragma omp parallel num_threads(threads)
#pragma omp single
                        for (const Sweep sweep : sweeps(solve))
                          omp_subtree(omp.host, sweep, omp.host_x.data(), n, grain);
                      },
                      [&omp, solve] { return omp.result(solve); }});
#if defined(KDAG_HAVE_TBB)
  tbb::task_arena arena(threads);
  Copy& tbb = copy(Copy::On::host);
  variants.push_back({"tbb", reset(tbb),
                      [&, solve, grain] {
                        arena.execute([&] {
                          for (const Sweep sweep : sweeps(solve))
                            tbb_subtree(tbb.host, sweep, tbb.host_x.data(), p.a.n, grain);
                        });
                      },
                      [&tbb, solve] { return tbb.result(solve); }});
#endif
  Copy& serial = copy(Copy::On::host);
  variants.push_back({"serial", reset(serial),
                      [&serial, solve, n = p.a.n] {
                        if (!solve) return task_sparse::factor_columns(serial.host, 0, n);
                        task_sparse::serial_solve(serial.host, serial.host_x.data());
                      },
                      [&serial, solve] { return serial.result(solve); }});

  std::vector<perf::SetupAndPass> runs;
  for (const Variant& v : variants) runs.push_back({v.setup, v.run});
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians_after_setup(5, runs);
  if (!failed.empty()) return perf::fail_result_check(state, "kdag: " + failed);
  const std::vector<double> reference = variants.back().result();
  for (const Variant& v : variants)
    if (v.result() != reference)
      return perf::fail_result_check(state, v.name + ": the result differs from the serial loop's");

  std::map<std::string, double> median;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    median[variants[i].name] = m[i];
    state.counters[variants[i].name + "_ms"] = m[i] * 1e3;
  }
  const double kdag = median["kdag"];
  const task_sparse::DagShape shape = task_sparse::dag_shape(p, grain);
  const long tasks = solve ? 2 * shape.tasks : shape.tasks;
  // A solve's flops: a multiply-add per off-diagonal entry of L and a division per column, each way.
  const double flops = solve ? 2.0 * (2.0 * double(p.symbolic.nnz() - p.a.n) + p.a.n) : p.symbolic.flops();
  state.counters["vs_levels"] = kdag / median["levels"];
  state.counters["vs_omp"] = kdag / median["omp"];
#if defined(KDAG_HAVE_TBB)
  state.counters["vs_tbb"] = kdag / median["tbb"];
#endif
  state.counters["speedup"] = median["serial"] / kdag;
  state.counters["gflops"] = flops / kdag * 1e-9;
  state.counters["tasks"] = double(tasks);
  state.counters["levels"] = dag.data->levels().levels();
  state.counters["grain_us"] = median["serial"] / double(tasks) * 1e6;
  state.counters["columns"] = p.a.n;
  state.counters["threads"] = threads;
}

Problem problem_of(const benchmark::State& state) {
  const int side = int(state.range(0)), dims = int(state.range(1));
  return task_sparse::make_problem({side, side, dims == 3 ? side : 1});
}

void BM_TaskSparse(benchmark::State& state) {
  run_tree(state, problem_of(state), false, int(state.range(2)));
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

void BM_TaskSparseSolve(benchmark::State& state) {
  run_tree(state, problem_of(state), true, int(state.range(2)));
}
BENCHMARK(BM_TaskSparseSolve)
    ->Name("TaskSparseSolve")
    ->ArgNames({"grid", "dims", "grain"})
    ->Args({200, 2, 64})
    ->Args({200, 2, 512})
    ->Args({16, 3, 64})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

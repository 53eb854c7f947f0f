// A task DAG that does real work on the host: the tiled Cholesky factorisation of
// example/task_cholesky.hpp on kdag's TaskScheduler, beside the same DAG as OpenMP tasks with
// depend clauses and as a oneTBB flow graph (where CMake found oneTBB), and the serial tiled
// algorithm, interleaved in the same run on the same number of threads.
//
//   TaskCholesky/nt:<nt>/b:<b>  nt x nt tiles of b x b doubles.  Every variant builds its DAG in the
//                        timed run (kdag: host_spawn + when_all, then wait, or one host_spawn of
//                        the builder task, which task_spawns the rest, then wait; OpenMP: the task
//                        constructs in one thread; oneTBB: continue_nodes and edges, then
//                        wait_for_all); A is copied back in before each run, untimed.  Every
//                        factor is checked against the serial algorithm's (to 1e-9) after the
//                        timed runs.
//   Counters: single_ms, team_ms (kdag with TaskSingle and with TaskTeam tasks spawned from the
//             host), built_ms (TaskSingle tasks spawned by a CholeskyBuilder task and its row
//             tasks, a step per run, while the others run), omp_ms, tbb_ms, serial_ms (median ms per run), vs_omp =
//             single_ms / omp_ms, built_vs_omp = built_ms / omp_ms and vs_tbb = single_ms / tbb_ms
//             (< 1: kdag is faster), team_vs_single = team_ms / single_ms, speedup = serial_ms /
//             single_ms, gflops (n^3 / 3 over single_ms), tasks, threads.
//
// Run: PerfTaskCholesky --kokkos-num-threads=2
#include "PerfInterleaved.hpp"
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include "../example/task_cholesky.hpp"

#include <cmath>
#include <functional>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#if defined(KDAG_HAVE_TBB)
#include <tbb/flow_graph.h>
#include <tbb/task_arena.h>
#endif
#include <omp.h>

namespace {

using task_cholesky::Tiles;
using Scheduler = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;

// ---- peers -------------------------------------------------------------------------------------
// The DAG's tile operations in the order of spawn_cholesky, each given the tiles it reads and the
// tile it writes: `op(body, reads, writes)`, where body runs the operation serially.
template <class AddOp>
void for_each_tile_op(const Tiles& m, AddOp&& op) {
  const int nt = m.nt, b = m.b;
  for (int k = 0; k < nt; ++k) {
    double* akk = m.tile(k, k);
    op([=] { task_cholesky::potrf_tile(akk, b); }, std::initializer_list<const double*>{}, akk);
    for (int i = k + 1; i < nt; ++i) {
      double* aik = m.tile(i, k);
      op([=] { task_cholesky::trsm_tile(akk, aik, b); }, std::initializer_list<const double*>{akk}, aik);
    }
    for (int i = k + 1; i < nt; ++i) {
      double* aik = m.tile(i, k);
      double* aii = m.tile(i, i);
      op([=] { task_cholesky::syrk_tile(aii, aik, b); }, std::initializer_list<const double*>{aik}, aii);
      for (int j = k + 1; j < i; ++j) {
        double* ajk = m.tile(j, k);
        double* aij = m.tile(i, j);
        op([=] { task_cholesky::gemm_tile(aij, aik, ajk, b); }, std::initializer_list<const double*>{aik, ajk}, aij);
      }
    }
  }
}

// OpenMP tasks: each tile operation a task with depend(in) on the tiles it reads and
// depend(inout) on the one it writes (the first element of a tile stands for the tile).
void omp_cholesky(const Tiles& m, int threads) {
#pragma omp parallel num_threads(threads)
#pragma omp single
  for_each_tile_op(m, [](auto body, std::initializer_list<const double*> reads, double* writes) {
    const double* r0 = reads.size() > 0 ? reads.begin()[0] : writes;
    const double* r1 = reads.size() > 1 ? reads.begin()[1] : r0;
#pragma omp task depend(in : r0[0], r1[0]) depend(inout : writes[0])
    body();
  });
}

#if defined(KDAG_HAVE_TBB)
// A oneTBB flow graph: a continue_node per tile operation, an edge from the last writer of each
// tile it reads or writes.
void tbb_cholesky(const Tiles& m, tbb::task_arena& arena) {
  arena.execute([&] {
    using node_t = tbb::flow::continue_node<tbb::flow::continue_msg>;
    tbb::flow::graph g;
    std::vector<std::unique_ptr<node_t>> nodes;
    nodes.reserve(std::size_t(task_cholesky::task_count(m.nt)));
    std::vector<node_t*> last(std::size_t(m.nt) * std::size_t(m.nt), nullptr), roots;
    const auto writer = [&](const double* tile) -> node_t*& {
      return last[std::size_t(tile - m.data) / (std::size_t(m.b) * std::size_t(m.b))];
    };
    for_each_tile_op(m, [&](auto body, std::initializer_list<const double*> reads, double* writes) {
      nodes.push_back(std::make_unique<node_t>(g, [body](const tbb::flow::continue_msg&) { body(); }));
      node_t* n = nodes.back().get();
      bool waits = false;
      for (const double* tile : {reads.size() > 0 ? reads.begin()[0] : nullptr,
                                 reads.size() > 1 ? reads.begin()[1] : nullptr, static_cast<const double*>(writes)}) {
        if (tile == nullptr || writer(tile) == nullptr) continue;
        tbb::flow::make_edge(*writer(tile), *n);
        waits = true;
      }
      if (!waits) roots.push_back(n);
      writer(writes) = n;
    });
    for (node_t* r : roots) r->try_put(tbb::flow::continue_msg());
    g.wait_for_all();
  });
}
#endif

// ---- the benchmark ------------------------------------------------------------------------------
// One variant: its tiles (A copied in before each run), how it factors them, and its name.
struct Variant {
  const char* name;
  std::vector<double> tiles;
  std::function<void(const Tiles&)> factor;
};

void BM_TaskCholesky(benchmark::State& state) {
  const int nt = int(state.range(0)), b = int(state.range(1));
  const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  const std::vector<double> a = task_cholesky::spd_matrix(nt, b);
  std::vector<double> reference = a;
  task_cholesky::reference_cholesky({reference.data(), nt, b});

  Scheduler sched(Scheduler::memory_space(), std::size_t(64) << 20, 64, 1024, 1 << 16);
  std::string failed;
  const auto kdag = [&](bool team_tasks) {
    return [&, team_tasks](const Tiles& m) {
      const std::string why = task_cholesky::spawn_cholesky(sched, m, team_tasks);
      Kokkos::wait(sched);
      if (failed.empty()) failed = why;
    };
  };
  std::vector<std::uintptr_t> table(task_cholesky::builder_table_bytes<Scheduler>(nt) / sizeof(std::uintptr_t) + 1);
  const auto built = [&](const Tiles& m) {
    auto builder = Kokkos::host_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High),
                                      task_cholesky::CholeskyBuilder<Scheduler>{sched, m, table.data(), false});
    Kokkos::wait(sched);
    const std::string why = builder.is_null() ? "the builder's spawn found the pool full"
                                              : task_cholesky::failure_text(builder.get());
    if (failed.empty()) failed = why;
  };
  std::vector<Variant> variants;
  variants.push_back({"single", a, kdag(false)});
  variants.push_back({"team", a, kdag(true)});
  variants.push_back({"built", a, built});
  variants.push_back({"omp", a, [threads](const Tiles& m) { omp_cholesky(m, threads); }});
#if defined(KDAG_HAVE_TBB)
  tbb::task_arena arena(threads);
  variants.push_back({"tbb", a, [&arena](const Tiles& m) { tbb_cholesky(m, arena); }});
#endif
  variants.push_back({"serial", a, [](const Tiles& m) { task_cholesky::reference_cholesky(m); }});

  std::vector<perf::SetupAndPass> runs;
  for (Variant& v : variants)
    runs.push_back({[&v, &a] { v.tiles = a; }, [&v, nt, b] { v.factor(Tiles{v.tiles.data(), nt, b}); }});
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians_after_setup(5, runs);

  if (!failed.empty()) return perf::fail_result_check(state, "kdag: " + failed);
  for (const Variant& v : variants)
    for (std::size_t e = 0; e < reference.size(); ++e)
      if (!(std::abs(v.tiles[e] - reference[e]) <= 1e-9))
        return perf::fail_result_check(state, std::string(v.name) + ": element " + std::to_string(e) + " is " +
                                                  std::to_string(v.tiles[e]) + ", the serial algorithm's " +
                                                  std::to_string(reference[e]));
  std::map<std::string, double> median;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    median[variants[i].name] = m[i];
    state.counters[std::string(variants[i].name) + "_ms"] = m[i] * 1e3;
  }
  const double single = median["single"];
  state.counters["vs_omp"] = single / median["omp"];
  state.counters["built_vs_omp"] = median["built"] / median["omp"];
#if defined(KDAG_HAVE_TBB)
  state.counters["vs_tbb"] = single / median["tbb"];
#endif
  state.counters["team_vs_single"] = median["team"] / single;
  state.counters["speedup"] = median["serial"] / single;
  state.counters["gflops"] = task_cholesky::flop_count(nt, b) / single * 1e-9;
  state.counters["tasks"] = double(task_cholesky::task_count(nt));
  state.counters["threads"] = threads;
}
BENCHMARK(BM_TaskCholesky)
    ->Name("TaskCholesky")
    ->ArgNames({"nt", "b"})
    ->Args({16, 32})
    ->Args({32, 32})
    ->Args({16, 64})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

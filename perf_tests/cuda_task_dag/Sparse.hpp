#pragma once
//   CudaTaskDag/Sparse/grid:<g>/dims:<d>/grain:<c>  the sparse Cholesky factorisation of
//                        example/task_sparse.hpp (the weighted Laplacian of a g x g grid, d = 2, or
//                        g x g x g, d = 3, by nested dissection: a DAG that is the matrix's
//                        elimination tree; 100 x 100: 10,000 columns, 1.6e7 flop, 294 levels, 18% of
//                        the flops on the longest path; 12 x 12 x 12: 1,728 columns, 1.1e7 flop,
//                        329 levels, 41% on the longest path), TaskSingle tasks that spawn their chain's children
//                        and respawn behind when_all of them, a task per subtree of more than c
//                        columns, each column factored on one lane (and again with every chain of
//                        at least 8 columns factored by a TaskTeam task on a whole warp: team_chain);
//                        one host_spawn of the root, on
//                        TaskScheduler<Cuda> with the matrix in CudaSpace, vs the same tree as a
//                        kernel per level of it (level-set scheduling: FactorData::factor_by_levels
//                        on Cuda, a column per thread), vs on TaskScheduler<DefaultHostExecutionSpace>
//                        with it in HostSpace, interleaved.  Every factor is checked against the
//                        serial loop's (to 1e-12 relative: nvcc contracts multiply-adds) after the
//                        first and the timed runs.  Counters: gpu_ms, gpu_team_ms, gpu_levels_ms,
//                        host_ms (median ms per run), ratio_gpu_to_host = host_ms / gpu_ms,
//                        ratio_gpu_to_levels = gpu_levels_ms / gpu_ms, ratio_team_to_host,
//                        ratio_team_to_levels (the same for the team chains; > 1: the GPU's tasks
//                        win), gflops_gpu, gflops_gpu_team, tasks, team_tasks, levels.
//
//   CudaTaskDag/SparseSolve/grid:<g>/dims:<d>/grain:<c>  the solve L L^T x = A 1 with that factor
//                        (FactorData::factor_by_levels'): spawn_solve (the forward substitution up
//                        the tree, then the backward one down it, a column per lane, a task per
//                        subtree of more than c columns) on TaskScheduler<Cuda>, vs
//                        FactorData::solve_by_levels on Cuda (a kernel per level each way: twice
//                        the levels), vs spawn_solve on TaskScheduler<DefaultHostExecutionSpace>,
//                        interleaved, x reset to A 1 before each run (untimed).  Every x is checked
//                        against the serial substitutions' (to 1e-12 relative) after the first and
//                        the timed runs.  Counters: gpu_ms, gpu_levels_ms, host_ms (median ms per
//                        run), ratio_gpu_to_host = host_ms / gpu_ms, ratio_gpu_to_levels =
//                        gpu_levels_ms / gpu_ms (> 1: the GPU's tasks win), tasks (both DAGs'),
//                        levels.
//
// Part of PerfCudaTaskDag.cpp (included there, and only there: see its opening comment).
#include "Common.hpp"
#include "../../example/task_sparse.hpp"

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace {

// Whether every entry of a factor (or of a solve's x: `what`) is the serial loop's to 1e-12
// relative; reports the first that is not.
bool sparse_checked(benchmark::State& state, const char* name, const char* what, const char* when,
                    const std::vector<double>& factor, const std::vector<double>& serial) {
  for (std::size_t q = 0; q < serial.size(); ++q) {
    if (q < factor.size() && std::abs(factor[q] - serial[q]) <= 1e-12 * (1 + std::abs(serial[q]))) continue;
    const std::string value = q < factor.size() ? std::to_string(factor[q]) : std::string("missing");
    perf::fail_result_check(state, std::string(name) + " " + what + " " + when + ": entry " + std::to_string(q) +
                                       " is " + value + ", the serial loop's " + std::to_string(serial[q]) +
                                       (q < factor.size() ? "" : " (the root's spawn found the pool full)"));
    return false;
  }
  return true;
}

// Spawns the factorisation's root on `sched` and waits; a full pool leaves the factor unwritten,
// which the check reports.
template <class Scheduler, class MemorySpace>
std::function<void()> sparse_run(const Scheduler& sched, const task_sparse::FactorData<MemorySpace>& data, int grain,
                                 int team_chain, bool& spawned) {
  return [&sched, &data, grain, team_chain, &spawned] {
    auto done = task_sparse::spawn_factor(sched, data.factor(), grain, team_chain);
    spawned = !done.is_null();
    Kokkos::wait(sched);
  };
}

constexpr int sparse_team_chain = 8;

void Sparse(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const int side = int(state.range(0)), grain = int(state.range(2));
  const task_sparse::Problem p = task_sparse::make_problem({side, side, state.range(1) == 3 ? side : 1});
  const std::vector<double> serial = task_sparse::serial_factor(p);
  const task_sparse::FactorData<Kokkos::CudaSpace> gpu_data(p), team_data(p), level_data(p);
  const task_sparse::FactorData<Kokkos::HostSpace> host_data(p);
  const gpu_t gpu = make_scheduler<gpu_t>(), team = make_scheduler<gpu_t>();
  const host_t host = make_scheduler<host_t>();
  bool gpu_spawned = false, team_spawned = false, host_spawned = false;
  GpuWorkerTime worker_time;
  const std::vector<std::function<void()>> runs{
      worker_time.timed(sparse_run(gpu, gpu_data, grain, 0, gpu_spawned)),
      sparse_run(team, team_data, grain, sparse_team_chain, team_spawned),
      [&] { level_data.factor_by_levels(Kokkos::Cuda()); }, sparse_run(host, host_data, grain, 0, host_spawned)};
  const auto check = [&](const char* when) {
    return sparse_checked(state, "GPU task", "factor", when,
                          gpu_spawned ? gpu_data.values() : std::vector<double>{}, serial) &&
           sparse_checked(state, "GPU team-chain task", "factor", when,
                          team_spawned ? team_data.values() : std::vector<double>{}, serial) &&
           sparse_checked(state, "GPU level-set", "factor", when, level_data.values(), serial) &&
           sparse_checked(state, "host task", "factor", when,
                          host_spawned ? host_data.values() : std::vector<double>{}, serial);
  };
  const std::vector<double> m = checked_medians(state, runs, check);
  if (m.empty()) return;
  state.counters["gpu_ms"] = m[0] * 1e3;
  state.counters["gpu_team_ms"] = m[1] * 1e3;
  state.counters["gpu_levels_ms"] = m[2] * 1e3;
  state.counters["host_ms"] = m[3] * 1e3;
  state.counters["ratio_gpu_to_host"] = m[3] / m[0];
  state.counters["ratio_gpu_to_levels"] = m[2] / m[0];
  state.counters["ratio_team_to_host"] = m[3] / m[1];
  state.counters["ratio_team_to_levels"] = m[2] / m[1];
  state.counters["gflops_gpu"] = p.symbolic.flops() / m[0] * 1e-9;
  state.counters["gflops_gpu_team"] = p.symbolic.flops() / m[1] * 1e-9;
  state.counters["tasks"] = double(task_sparse::dag_shape(p, grain).tasks);
  state.counters["team_tasks"] = double(task_sparse::dag_shape(p, grain, sparse_team_chain).team_tasks);
  state.counters["levels"] = gpu_data.levels().levels();
  worker_time.report(state, gpu);
}

// The factor of p in MemorySpace, with a vector x there for a solve: b = A 1 goes into x before
// each run (reset, untimed), and x comes back to the host after it (solution).
template <class MemorySpace>
struct SparseSolveData {
  task_sparse::FactorData<MemorySpace> data;
  std::vector<double> b;
  Kokkos::View<double*, MemorySpace> x;

  template <class ExecutionSpace>
  SparseSolveData(const task_sparse::Problem& p, const ExecutionSpace& space)
      : data(p), b(task_sparse::times_ones(p.a)), x("x", b.size()) {
    data.factor_by_levels(space);
  }
  void reset() { Kokkos::deep_copy(x, Kokkos::View<const double*, Kokkos::HostSpace>(b.data(), b.size())); }
  std::vector<double> solution() const {
    std::vector<double> h(b.size());
    Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace>(h.data(), h.size()), x);
    return h;
  }
};

// Spawns the solve's roots on `sched` and waits; a full pool leaves x unsolved, which the check reports.
template <class Scheduler, class MemorySpace>
std::function<void()> sparse_solve_run(const Scheduler& sched, SparseSolveData<MemorySpace>& s, int grain,
                                       bool& spawned) {
  return [&sched, &s, grain, &spawned] {
    auto done = task_sparse::spawn_solve(sched, s.data.factor(), s.x.data(), grain);
    spawned = !done.is_null();
    Kokkos::wait(sched);
  };
}

void SparseSolve(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const int side = int(state.range(0)), grain = int(state.range(2));
  const task_sparse::Problem p = task_sparse::make_problem({side, side, state.range(1) == 3 ? side : 1});
  std::vector<double> l = task_sparse::serial_factor(p), serial = task_sparse::times_ones(p.a);
  task_sparse::serial_solve(task_sparse::host_factor(p.a, p.symbolic, l.data()), serial.data());
  SparseSolveData<Kokkos::CudaSpace> gpu_data(p, Kokkos::Cuda()), level_data(p, Kokkos::Cuda());
  SparseSolveData<Kokkos::HostSpace> host_data(p, Kokkos::DefaultHostExecutionSpace());
  const gpu_t gpu = make_scheduler<gpu_t>();
  const host_t host = make_scheduler<host_t>();
  bool gpu_spawned = false, host_spawned = false;
  GpuWorkerTime worker_time;
  const std::vector<perf::SetupAndPass> runs{
      {[&] { gpu_data.reset(); }, worker_time.timed(sparse_solve_run(gpu, gpu_data, grain, gpu_spawned))},
      {[&] { level_data.reset(); }, [&] { level_data.data.solve_by_levels(Kokkos::Cuda(), level_data.x.data()); }},
      {[&] { host_data.reset(); }, sparse_solve_run(host, host_data, grain, host_spawned)}};
  const auto check = [&](const char* when) {
    return sparse_checked(state, "GPU task", "x", when,
                          gpu_spawned ? gpu_data.solution() : std::vector<double>{}, serial) &&
           sparse_checked(state, "GPU level-set", "x", when, level_data.solution(), serial) &&
           sparse_checked(state, "host task", "x", when,
                          host_spawned ? host_data.solution() : std::vector<double>{}, serial);
  };
  const std::vector<double> m = checked_medians(state, runs, check);
  if (m.empty()) return;
  state.counters["gpu_ms"] = m[0] * 1e3;
  state.counters["gpu_levels_ms"] = m[1] * 1e3;
  state.counters["host_ms"] = m[2] * 1e3;
  state.counters["ratio_gpu_to_host"] = m[2] / m[0];
  state.counters["ratio_gpu_to_levels"] = m[1] / m[0];
  state.counters["tasks"] = double(2 * task_sparse::dag_shape(p, grain).tasks);
  state.counters["levels"] = gpu_data.data.levels().levels();
  worker_time.report(state, gpu);
}

}  // namespace

#pragma once
//   CudaTaskDag/Granularity/<work>  N = 2^16 independent TaskSingle leaf tasks, leaf i running
//                        `work` steps of the dependent chain x = x * a + b from x = (i mod 1024) / 1024
//                        and storing x in slot i of a CudaSpace View, spawned inside the GPU by
//                        an 8-ary tree of spawner tasks (task_spawn in device code: 102,985
//                        tasks in all, one host_spawn of the root), vs the same arithmetic in ONE
//                        plain kernel, parallel_for(RangePolicy<Cuda>(0, N)), an index per
//                        thread (the GPU's ideal), for work = 2^4, 2^6, ..., 2^16.  Both Views are
//                        checked slot by slot against the closed form of the chain.
//                        Counters: task_us, kernel_us (median us per run: root spawn + wait(),
//                        launch + fence), efficiency = kernel_us / task_us (1: the tasks cost
//                        nothing over the kernel), work (the steps per leaf, for reading
//                        efficiency against it), leaf_ns = task_us * 1000 / N (wall time per leaf,
//                        all tasks overlapping), tasks (leaves and spawners).  Where a chain is a
//                        few hundred ns the run is the queue's; where it is long the run is the
//                        workers' lanes: a warp runs 32 TaskSingle tasks at once, one per lane, but
//                        the scheduler runs 8 one-warp workers on an SM where the kernel's blocks
//                        fill 64 warps, so efficiency stays below about 1/8 however long a chain.
//
// Part of PerfCudaTaskDag.cpp (included there, and only there: see its opening comment).
#include "Common.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

constexpr int granularity_leaves = 1 << 16;
constexpr int granularity_fanout = 8;
constexpr double chain_a = 0.9999, chain_b = 1e-4;  // x -> 1, staying in [0, 1]

KOKKOS_INLINE_FUNCTION double chain_start(int i) { return double(i % 1024) / 1024; }

KOKKOS_INLINE_FUNCTION double chain(int i, int work) {
  double x = chain_start(i);
  for (int k = 0; k < work; ++k) x = x * chain_a + chain_b;
  return x;
}

// Spawns its range's subranges (granularity_fanout of them) until one index is left, whose
// chain it runs.  A spawn that finds the pool full counts in *failures.
struct ChainTree {
  gpu_t sched;
  double* out;
  int* failures;
  int lo, hi, work;

  KOKKOS_INLINE_FUNCTION void operator()(gpu_t::member_type&) {
    if (hi - lo == 1) {
      out[lo] = chain(lo, work);
      return;
    }
    const int step = (hi - lo + granularity_fanout - 1) / granularity_fanout;
    for (int s = lo; s < hi; s += step) {
      const auto f = Kokkos::task_spawn(Kokkos::TaskSingle(sched),
                                        ChainTree{sched, out, failures, s, s + step < hi ? s + step : hi, work});
      if (f.is_null()) Kokkos::atomic_add(failures, 1);
    }
  }
};

// The tasks a ChainTree over [lo, hi) spawns, itself included.
long chain_tree_tasks(int lo, int hi) {
  if (hi - lo == 1) return 1;
  const int step = (hi - lo + granularity_fanout - 1) / granularity_fanout;
  long n = 1;
  for (int s = lo; s < hi; s += step) n += chain_tree_tasks(s, s + step < hi ? s + step : hi);
  return n;
}

// Spawns the tree over every leaf from the host and waits; empty, or why it failed.
std::string run_chain_tree(const gpu_t& gpu, double* out, int* failures, int work) {
  const auto root =
      Kokkos::host_spawn(Kokkos::TaskSingle(gpu), ChainTree{gpu, out, failures, 0, granularity_leaves, work});
  Kokkos::wait(gpu);
  return root.is_null() ? "host_spawn of the root failed (pool full)" : "";
}

// Empty, or how many of the tree's task_spawns found the pool full.
std::string spawn_failures(const Kokkos::View<int, Kokkos::CudaSpace>& failures) {
  int failed = 0;
  Kokkos::deep_copy(failed, failures);
  return failed != 0 ? std::to_string(failed) + " task_spawns failed (pool full)" : "";
}

// Empty, or the first slot that differs from the chain's closed form.
std::string chain_mismatch(const Kokkos::View<double*, Kokkos::CudaSpace>& out, int work) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const double an = std::pow(chain_a, work), fixed = chain_b / (1 - chain_a);
  for (int i = 0; i < granularity_leaves; ++i) {
    const double x = an * chain_start(i) + (1 - an) * fixed;
    if (!(std::abs(h(i) - x) <= 1e-9))
      return "slot " + std::to_string(i) + " is " + std::to_string(h(i)) + ", not " + std::to_string(x);
  }
  return {};
}

void Granularity(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const int work = int(state.range(0));
  constexpr int n = granularity_leaves;
  gpu_t gpu = make_scheduler<gpu_t>();
  Kokkos::View<double*, Kokkos::CudaSpace> out_task("task chains", n), out_kernel("kernel chains", n);
  Kokkos::View<int, Kokkos::CudaSpace> failures("spawn failures");
  Kokkos::deep_copy(out_task, std::numeric_limits<double>::quiet_NaN());
  Kokkos::deep_copy(out_kernel, std::numeric_limits<double>::quiet_NaN());
  std::string why;
  GpuWorkerTime worker_time;
  auto task_run = worker_time.timed([&] {
    const std::string failed = run_chain_tree(gpu, out_task.data(), failures.data(), work);
    if (why.empty()) why = failed;
  });
  auto kernel_run = [&] {
    const auto out = out_kernel;
    Kokkos::parallel_for(
        "chains", Kokkos::RangePolicy<Kokkos::Cuda>(0, n), KOKKOS_LAMBDA(int i) { out(i) = chain(i, work); });
    Kokkos::fence();
  };
  auto check = [&](const char* when) {
    if (why.empty()) why = spawn_failures(failures);
    if (why.empty() && !(why = chain_mismatch(out_task, work)).empty()) why = "task chains: " + why;
    if (why.empty() && !(why = chain_mismatch(out_kernel, work)).empty()) why = "kernel chains: " + why;
    if (!why.empty()) return perf::fail_result_check(state, std::string(when) + ": " + why), false;
    return true;
  };
  const std::vector<double> m = checked_medians(state, task_run, kernel_run, check);
  if (m.empty()) return;
  state.counters["task_us"] = m[0] * 1e6;
  state.counters["kernel_us"] = m[1] * 1e6;
  state.counters["efficiency"] = m[1] / m[0];
  state.counters["work"] = work;
  state.counters["leaf_ns"] = m[0] * 1e9 / n;
  state.counters["tasks"] = double(chain_tree_tasks(0, n));
  worker_time.report(state, gpu);
}

}  // namespace

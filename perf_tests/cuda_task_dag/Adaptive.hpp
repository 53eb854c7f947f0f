#pragma once
//   CudaTaskDag/Adaptive/peaks:<p>/spawn_depth:<d>  the adaptive quadrature of
//                        example/task_adaptive.hpp (a quadtree over the unit square refined where
//                        its estimate is not good enough: work found while it runs), TaskSingle
//                        tasks that spawn their quadrants and respawn behind when_all of them, a
//                        task per refined cell above depth d, each below d refining its cell
//                        serially on its lane; one host_spawn of the root, on
//                        TaskScheduler<Cuda> vs on TaskScheduler<DefaultHostExecutionSpace>,
//                        interleaved.  p = 1 peak to a tolerance of 1e-13 (36,789 cells of about
//                        0.3 us on a host core, 4 to 12 levels deep), p = 8 to 1e-8 (5,941 cells
//                        of about 20 us); d = 24 spawns a task per cell, d = 6 about 1,000 tasks.
//                        Both values are checked against the serial walk's (within the
//                        tolerance: nvcc contracts multiply-adds) after the first and the timed
//                        runs.  Counters: gpu_ms, host_ms (median ms per run), ratio_gpu_to_host =
//                        host_ms / gpu_ms (> 1: the GPU wins), tasks, cells.
//
// Part of PerfCudaTaskDag.cpp (included there, and only there: see its opening comment).
#include "Common.hpp"
#include "../../example/task_adaptive.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace {

task_adaptive::Problem adaptive_problem(int peaks) {
  task_adaptive::Problem p;
  p.f = {peaks, 0.01};
  p.tolerance = peaks == 1 ? 1e-13 : 1e-8;
  p.min_depth = 4;
  p.max_depth = 20;
  return p;
}

// Spawns the problem's root on `sched`, waits, and stores the integral in `value` (NaN where the
// root's spawn found the pool full).
template <class Scheduler>
std::function<void()> adaptive_run(const Scheduler& sched, const task_adaptive::Problem& p, int spawn_depth,
                                   double& value) {
  return [&sched, &p, spawn_depth, &value] {
    auto root = task_adaptive::spawn_integral(sched, p, spawn_depth);
    value = std::numeric_limits<double>::quiet_NaN();
    if (root.is_null()) return;
    Kokkos::wait(sched);
    value = root.get();
  };
}

void Adaptive(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const task_adaptive::Problem p = adaptive_problem(int(state.range(0)));
  const int spawn_depth = int(state.range(1));
  const task_adaptive::TreeShape shape = task_adaptive::tree_shape(p, spawn_depth);
  const gpu_t gpu = make_scheduler<gpu_t>();
  const host_t host = make_scheduler<host_t>();
  double gpu_value = 0, host_value = 0;
  GpuWorkerTime worker_time;
  const auto check = [&](const char* when) {
    for (const auto& [name, value] : {std::pair{"GPU", gpu_value}, std::pair{"host", host_value}}) {
      if (std::abs(value - shape.value) <= p.tolerance) continue;
      perf::fail_result_check(state, std::string(name) + " integral " + when + ": " + std::to_string(value) +
                                         ", the serial walk's " + std::to_string(shape.value) +
                                         (std::isnan(value) ? " (the root's spawn found the pool full)" : ""));
      return false;
    }
    return true;
  };
  const std::vector<double> m = checked_medians(
      state, worker_time.timed(adaptive_run(gpu, p, spawn_depth, gpu_value)),
      adaptive_run(host, p, spawn_depth, host_value), check);
  if (m.empty()) return;
  state.counters["gpu_ms"] = m[0] * 1e3;
  state.counters["host_ms"] = m[1] * 1e3;
  state.counters["ratio_gpu_to_host"] = m[1] / m[0];
  state.counters["tasks"] = double(shape.tasks);
  state.counters["cells"] = double(shape.cells());
  worker_time.report(state, gpu);
}

}  // namespace

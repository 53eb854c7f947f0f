#pragma once
// What every CudaTaskDag benchmark shares: the two schedulers it compares, where the GPU workers'
// time went, interleaved runs checked before and after timing, and the check of a result against
// a host reference.
//
// Part of PerfCudaTaskDag.cpp (included there, and only there: see its opening comment).
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include "../PerfCudaSkip.hpp"
#include "../PerfInterleaved.hpp"
#include "../PerfResultCheck.hpp"

#include <cmath>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using gpu_t = Kokkos::TaskScheduler<Kokkos::Cuda>;
using host_t = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;

// The schedulers every benchmark here uses: a 256 MiB pool, blocks of 64 to 1024 bytes.  A GPU
// scheduler launches the default worker shape on every run, so that a benchmark's few runs measure
// one shape, not the runs that time the candidates (CudaTaskDag/Measured measures those).
template <class Scheduler>
Scheduler make_scheduler() {
  Scheduler sched(typename Scheduler::memory_space(), std::size_t(1) << 28, 64, 1024, 1 << 16);
  if constexpr (std::is_same_v<Scheduler, gpu_t>)
    Kokkos::Experimental::set_task_workers(sched, Kokkos::Experimental::CudaTaskWorkers{});
  return sched;
}

// Where the GPU workers' time went, over every GPU run of a benchmark (the scheduler's per-shard
// counters, into which each worker reports when it stops; TaskScheduler<Cuda>'s queue()).  The
// wall time of those runs is measured here, around each (spawns included).  Counters:
//   gpu_busy             the workers' time running claimed tasks over their time in the runs
//                        (workers x wall time): what is not busy is looking for work and idling
//   gpu_batch_us         mean time of a batch, from the claim to the end of its last task
//   gpu_tasks_per_batch  mean task executions per batch (a warp runs up to 32 at once, one per
//                        lane; TaskTeam tasks one after the other)
//   gpu_team_per_batch   the TaskTeam ones among them (where there are any)
//   gpu_steal_share      executions claimed from another SM's ring, over all of them
class GpuWorkerTime {
  double m_run_seconds = 0;

 public:
  std::function<void()> timed(std::function<void()> run) {
    return [this, run = std::move(run)] {
      Kokkos::Timer timer;
      run();
      m_run_seconds += timer.seconds();
    };
  }
  void report(benchmark::State& state, const gpu_t& gpu) const {
    const auto total = gpu.queue().host_totals();
    const double workers = gpu.queue().m_workers, batches = double(total.batches), runs = double(total.tasks_run);
    if (batches == 0 || workers == 0 || m_run_seconds == 0) return;
    state.counters["gpu_busy"] = double(total.run_ns) * 1e-9 / (workers * m_run_seconds);
    state.counters["gpu_batch_us"] = double(total.run_ns) * 1e-3 / batches;
    state.counters["gpu_tasks_per_batch"] = runs / batches;
    if (total.team_tasks_run != 0) state.counters["gpu_team_per_batch"] = double(total.team_tasks_run) / batches;
    state.counters["gpu_steal_share"] = double(total.steals) / runs;
  }
};

// A run once, untimed; and the median seconds per run of each of `runs`, interleaved (runs with a
// set-up: one set-up, untimed, before each timed pass).
void run_once(const std::function<void()>& run) { run(); }
void run_once(const perf::SetupAndPass& run) {
  run.setup();
  run.pass();
}
std::vector<double> medians_of(const std::vector<std::function<void()>>& runs) {
  return perf::interleaved_medians(3, runs);
}
std::vector<double> medians_of(const std::vector<perf::SetupAndPass>& runs) {
  return perf::interleaved_medians_after_setup(3, runs);
}

// The median seconds per run of each of `runs`, interleaved, after one untimed run of each;
// `check(when)` (which reports a failure itself) runs after that first run and after the timed
// runs.  Empty where a check failed.
template <class Run>
std::vector<double> checked_medians(benchmark::State& state, const std::vector<Run>& runs,
                                    const std::function<bool(const char*)>& check) {
  for (const auto& run : runs) run_once(run);
  if (!check("first run")) return {};
  std::vector<double> m;
  for (auto _ : state) m = medians_of(runs);
  if (!check("after the timed runs")) return {};
  return m;
}

// The same for two runs, `a` and `b`.
std::vector<double> checked_medians(benchmark::State& state, const std::function<void()>& a,
                                    const std::function<void()>& b, const std::function<bool(const char*)>& check) {
  return checked_medians(state, std::vector<std::function<void()>>{a, b}, check);
}

// Empty, or where `a` (in any memory space) first differs from the serial result `ref`, to 1e-9.
template <class View>
std::string reference_mismatch(const View& a, const std::vector<double>& ref) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  for (std::size_t k = 0; k < ref.size(); ++k)
    if (!(std::abs(h(k) - ref[k]) <= 1e-9))  // nvcc contracts to FMA, the host compiler need not
      return "element " + std::to_string(k) + " is " + std::to_string(h(k)) + ", the serial reference " +
             std::to_string(ref[k]);
  return {};
}

}  // namespace

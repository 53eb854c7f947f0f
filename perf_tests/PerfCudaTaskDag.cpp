// The task DAG on the GPU against the same program on the host back end, measured interleaved
// in the same run (built only with Kokkos_ENABLE_CUDA; skips, naming why, where no GPU is
// visible):
//
//   CudaTaskDag/Fib/<n>  seed 001's naive Fibonacci(n) (each call a task, when_all + respawn:
//                        2 * F(n+1) - 1 tasks and half as many when_all aggregates) on
//                        TaskScheduler<Cuda>  vs  on TaskScheduler<DefaultHostExecutionSpace>,
//                        for n = 20 (21,891 tasks) and n = 30 (2,692,537 tasks).
//                        Counters: gpu_tasks_per_s, host_tasks_per_s, ratio_gpu_to_host.
//
// Where the GPU's time goes: every task is a few instructions, so the run is bound by the
// ready lists (a lock-bit pop on each; impl/tasking/Kokkos_DeviceTaskQueue.hpp), the pool's atomics,
// and the UVM pages of the pool and the queue.  On the first H200 run, with one ready list per
// priority for all ~4000 warps, this benchmark did not finish in 60 s, and TestTaskFib's timing
// (about a million tasks per fib(0..26) sweep, five sweeps in some 90 s) puts that queue at
// roughly 60,000 tasks/s: most of a minute per fib(30).  n = 20 finishes in seconds even then.
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include "PerfCudaSkip.hpp"
#include "PerfInterleaved.hpp"

#include "../unit_tests/TaskFibonacci.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace {

template <class Scheduler>
using Fibonacci = Kokkos::Test::TaskFibonacci<Scheduler>;
using Kokkos::Test::serial_fibonacci;

template <class Scheduler>
void run_fib(const Scheduler& sched, long n) {
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fibonacci<Scheduler>(sched, n));
  if (f.is_null()) throw std::runtime_error("PerfCudaTaskDag: host_spawn failed");
  Kokkos::wait(sched);
  if (f.get() == Fibonacci<Scheduler>::out_of_memory)
    throw std::runtime_error("PerfCudaTaskDag: the pool ran out of memory in Fibonacci(" + std::to_string(n) + ")");
  if (f.get() != serial_fibonacci(n)) throw std::runtime_error("PerfCudaTaskDag: wrong Fibonacci(" + std::to_string(n) + ")");
}

void Fib(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  using gpu_t = Kokkos::TaskScheduler<Kokkos::Cuda>;
  using host_t = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;
  gpu_t gpu(gpu_t::memory_space(), std::size_t(1) << 28, 64, 1024, 1 << 16);
  host_t host(host_t::memory_space(), std::size_t(1) << 28, 64, 1024, 1 << 16);
  const long n = state.range(0);
  const double tasks = 2.0 * double(serial_fibonacci(n + 1)) - 1;  // the calls of the naive recursion
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians(3, {[&] { run_fib(gpu, n); }, [&] { run_fib(host, n); }});
  state.counters["gpu_tasks_per_s"] = tasks / m[0];
  state.counters["host_tasks_per_s"] = tasks / m[1];
  state.counters["ratio_gpu_to_host"] = m[1] / m[0];
}

BENCHMARK(Fib)->Name("CudaTaskDag/Fib")->Arg(20)->Arg(30)->Iterations(1)->UseRealTime();

}  // namespace

#pragma once
//   CudaTaskDag/Fib/<n>  seed 001's naive Fibonacci(n) (each call a task, when_all + respawn:
//                        2 * F(n+1) - 1 tasks and half as many when_all aggregates) on
//                        TaskScheduler<Cuda>  vs  on TaskScheduler<DefaultHostExecutionSpace>,
//                        for n = 20 (21,891 tasks) and n = 30 (2,692,537 tasks).
//                        Counters: gpu_tasks_per_s, host_tasks_per_s, ratio_gpu_to_host.
//
// Part of PerfCudaTaskDag.cpp (included there, and only there: see its opening comment).
#include "Common.hpp"
#include "../../unit_tests/TaskFibonacci.hpp"

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
  if (f.get() != serial_fibonacci(n))
    throw std::runtime_error("PerfCudaTaskDag: wrong Fibonacci(" + std::to_string(n) + ")");
}

void Fib(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  gpu_t gpu = make_scheduler<gpu_t>();
  host_t host = make_scheduler<host_t>();
  const long n = state.range(0);
  const double tasks = 2.0 * double(serial_fibonacci(n + 1)) - 1;  // the calls of the naive recursion
  GpuWorkerTime worker_time;
  std::vector<double> m;
  for (auto _ : state)
    m = perf::interleaved_medians(3, {worker_time.timed([&] { run_fib(gpu, n); }), [&] { run_fib(host, n); }});
  state.counters["gpu_tasks_per_s"] = tasks / m[0];
  state.counters["host_tasks_per_s"] = tasks / m[1];
  state.counters["ratio_gpu_to_host"] = m[1] / m[0];
  worker_time.report(state, gpu);
}

}  // namespace

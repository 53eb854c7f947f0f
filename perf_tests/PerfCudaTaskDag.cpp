// The task DAG on the GPU against the same program on the host back end, measured interleaved
// in the same run (built only with Kokkos_ENABLE_CUDA; skips, naming why, where no GPU is
// visible):
//
//   CudaTaskDag/Fib30   seed 001's naive Fibonacci(30) (each call a task, when_all + respawn:
//                       2 * F(31) - 1 = 2,692,537 tasks and half as many when_all aggregates) on
//                       TaskScheduler<Cuda>  vs  on TaskScheduler<DefaultHostExecutionSpace>.
//                       Counters: gpu_tasks_per_s, host_tasks_per_s, ratio_gpu_to_host.
//
// Where the GPU's time goes: every task is a few instructions, so the run is bound by the
// ready queues (one LIFO head per priority, a lock-bit pop: every pop of the whole device
// serialises on it), the pool's atomics, and the UVM pages of the pool and the queue.
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include "PerfInterleaved.hpp"

#include <stdexcept>
#include <string>

namespace {

const std::string& gpu_unavailable_reason() {
  static const std::string reason = [] {
    try {
      Kokkos::Impl::cuda_require_device("PerfCudaTaskDag");
      return std::string();
    } catch (const std::runtime_error& e) {
      return std::string("no GPU visible: ") + e.what();
    }
  }();
  return reason;
}

template <class Scheduler>
struct Fibonacci {
  using value_type = long;
  Scheduler sched;
  typename Scheduler::template future_type<long> fib[2];
  long n;

  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, long& result) {
    if (n < 2) {
      result = n;
    } else if (!fib[0].is_null()) {
      result = fib[0].get() + fib[1].get();
    } else {
      fib[0] = Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High), Fibonacci{sched, {}, n - 2});
      fib[1] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), Fibonacci{sched, {}, n - 1});
      if (fib[0].is_null() || fib[1].is_null()) Kokkos::abort("PerfCudaTaskDag: the pool ran out of memory");
      Kokkos::respawn(this, Kokkos::when_all(fib, 2), Kokkos::TaskPriority::High);
    }
  }
};

constexpr long fib_n = 30;
constexpr long fib_30 = 832040;
constexpr double fib_30_tasks = 2.0 * 1346269 - 1;  // 2 * F(31) - 1 calls

template <class Scheduler>
void run_fib(const Scheduler& sched) {
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fibonacci<Scheduler>{sched, {}, fib_n});
  if (f.is_null()) throw std::runtime_error("PerfCudaTaskDag: host_spawn failed");
  Kokkos::wait(sched);
  if (f.get() != fib_30) throw std::runtime_error("PerfCudaTaskDag: wrong Fibonacci(30)");
}

void Fib30(benchmark::State& state) {
  if (!gpu_unavailable_reason().empty()) {
    state.SkipWithError(gpu_unavailable_reason().c_str());
    return;
  }
  using gpu_t = Kokkos::TaskScheduler<Kokkos::Cuda>;
  using host_t = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;
  gpu_t gpu(gpu_t::memory_space(), std::size_t(1) << 28, 64, 1024, 1 << 16);
  host_t host(host_t::memory_space(), std::size_t(1) << 28, 64, 1024, 1 << 16);
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians(3, {[&] { run_fib(gpu); }, [&] { run_fib(host); }});
  state.counters["gpu_tasks_per_s"] = fib_30_tasks / m[0];
  state.counters["host_tasks_per_s"] = fib_30_tasks / m[1];
  state.counters["ratio_gpu_to_host"] = m[1] / m[0];
}

BENCHMARK(Fib30)->Name("CudaTaskDag/Fib30")->Iterations(1)->UseRealTime();

}  // namespace

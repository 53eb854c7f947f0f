#pragma once
// Seed 001's naive Fibonacci (Figure 3.4) as a task that runs on every back end, the GPU
// included: F(n) spawns F(n-2) at high priority and F(n-1), then respawns itself behind
// when_all of the two and adds their values when it runs again.  Shared by TestTaskFib and
// PerfCudaTaskDag.
//
// A spawn that finds the pool full makes the task's value out_of_memory, which every parent
// passes on, so that the host can report it: an abort inside a GPU task traps, and a trapped
// kernel leaves the CUDA context unusable for the rest of the process.
#include <Kokkos_Core.hpp>
#include <Kokkos_TaskScheduler.hpp>

namespace Kokkos::Test {

template <class Scheduler>
struct TaskFibonacci {
  using value_type = long;
  static constexpr value_type out_of_memory = -1;
  using future_type = typename Scheduler::template future_type<long>;
  using member_type = typename Scheduler::member_type;

  Scheduler sched;
  future_type fib[2];  // null until the children are spawned
  value_type n;

  KOKKOS_INLINE_FUNCTION TaskFibonacci(const Scheduler& s, value_type arg_n) : sched(s), fib{}, n(arg_n) {}

  KOKKOS_INLINE_FUNCTION void operator()(member_type&, value_type& result) {
    if (n <= 1) {
      result = n;
    } else if (!fib[0].is_null()) {
      const value_type a = fib[0].get(), b = fib[1].get();
      result = a == out_of_memory || b == out_of_memory ? out_of_memory : a + b;
    } else {
      fib[0] = Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High), TaskFibonacci(sched, n - 2));
      fib[1] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), TaskFibonacci(sched, n - 1));
      auto all = Kokkos::when_all(fib, 2);
      if (fib[0].is_null() || fib[1].is_null() || all.is_null()) {
        result = out_of_memory;  // the spawned child, if any, still runs; its future goes with this closure
        return;
      }
      Kokkos::respawn(this, all, Kokkos::TaskPriority::High);
    }
  }
};

// F(n) by iteration: the reference TestTaskFib and TestWorkGraph compare with.
inline long serial_fibonacci(long n) {
  long a = 0, b = 1;
  for (long i = 0; i < n; ++i) {
    const long c = a + b;
    a = b;
    b = c;
  }
  return a;
}

}  // namespace Kokkos::Test

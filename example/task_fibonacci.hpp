#pragma once
// The seed's naive task-parallel Fibonacci (seed 001, Figure 3.4), shared by
// task_fibonacci.cpp and the showcase.
//
// F(n) spawns F(n-2) at high priority and F(n-1) at regular priority, then *respawns* itself
// behind when_all of the two: a task never blocks.  When it runs again both children are
// complete and it adds their results.  F(n-2) runs first because its subtree is smaller, which
// frees memory early and keeps the pool's high-water mark low.
#include <Kokkos_Core.hpp>
#include <Kokkos_TaskScheduler.hpp>

namespace task_fibonacci {

template <class Scheduler>
struct Fibonacci {
  using value_type = long;
  using future_type = Kokkos::BasicFuture<long, Scheduler>;
  using member_type = typename Scheduler::member_type;

  Scheduler sched;
  future_type fib[2];  // null until the children are spawned
  value_type n;

  Fibonacci(const Scheduler& s, value_type arg_n) : sched(s), fib{}, n(arg_n) {}

  void operator()(member_type&, value_type& result) {
    if (n <= 1) {
      result = n;
    } else if (!fib[0].is_null()) {  // second call: both children are complete
      result = fib[0].get() + fib[1].get();
    } else {
      fib[0] = Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High), Fibonacci(sched, n - 2));
      fib[1] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), Fibonacci(sched, n - 1));
      if (fib[0].is_null() || fib[1].is_null()) Kokkos::abort("Fibonacci: the memory pool is full");
      Kokkos::respawn(this, Kokkos::when_all(fib, 2), Kokkos::TaskPriority::High);
    }
  }
};

}  // namespace task_fibonacci

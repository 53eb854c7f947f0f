// A Kokkos 4 program whose task-parallel part is guarded by KOKKOS_ENABLE_TASKDAG, as libraries
// that support builds without the task DAG write it: recursive Fibonacci with futures and
// respawn, checked against the closed loop.  Without the macro the program reports failure.
#include <Kokkos_Core.hpp>

#include <cstdio>

#if !KOKKOS_VERSION_GREATER_EQUAL(4, 0, 0)
#error "this program is written for Kokkos 4"
#endif

#ifdef KOKKOS_ENABLE_TASKDAG
template <class Scheduler>
struct FibonacciTask {
  using value_type = long;
  using future_type = Kokkos::BasicFuture<long, Scheduler>;

  int n;
  future_type fib_m1;
  future_type fib_m2;

  KOKKOS_INLINE_FUNCTION explicit FibonacciTask(int arg_n) : n(arg_n) {}

  template <class TeamMember>
  KOKKOS_INLINE_FUNCTION void operator()(TeamMember& member, long& result) {
    auto& scheduler = member.scheduler();
    if (n < 2) {
      result = n;
    } else if (!fib_m1.is_null() && !fib_m2.is_null()) {
      result = fib_m1.get() + fib_m2.get();
    } else {
      fib_m1 = Kokkos::task_spawn(Kokkos::TaskSingle(scheduler, Kokkos::TaskPriority::High), FibonacciTask(n - 1));
      fib_m2 = Kokkos::task_spawn(Kokkos::TaskSingle(scheduler), FibonacciTask(n - 2));
      if (fib_m1.is_null() || fib_m2.is_null()) Kokkos::abort("FibonacciTask: the task memory pool is exhausted");
      Kokkos::BasicFuture<void, Scheduler> dependences[] = {fib_m1, fib_m2};
      Kokkos::respawn(this, scheduler.when_all(dependences, 2), Kokkos::TaskPriority::High);
    }
  }
};
#endif

long fibonacci_loop(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    const long c = a + b;
    a = b;
    b = c;
  }
  return a;
}

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
#ifdef KOKKOS_ENABLE_TASKDAG
  using scheduler_type = Kokkos::TaskScheduler<Kokkos::DefaultExecutionSpace>;
  using memory_space = typename scheduler_type::memory_space;
  using memory_pool = typename scheduler_type::memory_pool;

  int failures = 0;
  for (int n : {0, 1, 2, 10, 20}) {
    const std::size_t pool_bytes = 1024 * 1024 * 8;
    scheduler_type scheduler(memory_pool(memory_space{}, pool_bytes));
    Kokkos::BasicFuture<long, scheduler_type> result =
        Kokkos::host_spawn(Kokkos::TaskSingle(scheduler), FibonacciTask<scheduler_type>(n));
    Kokkos::wait(scheduler);
    const long expected = fibonacci_loop(n);
    if (result.get() != expected) {
      std::printf("fib(%d): task DAG gave %ld, expected %ld\n", n, result.get(), expected);
      ++failures;
    }
  }
  std::printf("task DAG Fibonacci: %s\n", failures == 0 ? "passed" : "FAILED");
  return failures == 0 ? 0 : 1;
#else
  std::printf("KOKKOS_ENABLE_TASKDAG is not defined, but this Kokkos has the task DAG\n");
  return 1;
#endif
}

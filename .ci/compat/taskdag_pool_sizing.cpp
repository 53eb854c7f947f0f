// Sizing a task scheduler's memory pool from the scheduler's own queries, as Kokkos' task
// tests print them: allocation sizes of a task and of a when_all, then the high-water mark and
// the accumulated count of a naive Fibonacci run.
#include <Kokkos_Core.hpp>

#include <cstdio>

using execution_space = Kokkos::DefaultExecutionSpace;
using scheduler_type = Kokkos::TaskScheduler<execution_space>;
using memory_space = scheduler_type::memory_space;

struct FibonacciTask {
  using value_type = long;
  using future_type = Kokkos::BasicFuture<long, scheduler_type>;

  scheduler_type sched;
  future_type fib_m1, fib_m2;
  long n;

  KOKKOS_INLINE_FUNCTION FibonacciTask(const scheduler_type& s, long arg_n) : sched(s), n(arg_n) {}

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(Member&, long& result) {
    if (n < 2) {
      result = n;
    } else if (!fib_m1.is_null() && !fib_m2.is_null()) {
      result = fib_m1.get() + fib_m2.get();
    } else {
      fib_m2 = Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High), FibonacciTask(sched, n - 2));
      fib_m1 = Kokkos::task_spawn(Kokkos::TaskSingle(sched), FibonacciTask(sched, n - 1));
      Kokkos::BasicFuture<void, scheduler_type> deps[] = {fib_m1, fib_m2};
      Kokkos::respawn(this, sched.when_all(deps, 2), Kokkos::TaskPriority::High);
    }
  }
};

long serial_fib(long n) { return n < 2 ? n : serial_fib(n - 1) + serial_fib(n - 2); }
long fib_tasks(long n) { return n < 2 ? 1 : 1 + fib_tasks(n - 1) + fib_tasks(n - 2); }

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int errors = 0;
  {
    const long n = 18;
    scheduler_type sched(memory_space(), 4 * 1024 * 1024, 32, 1024, 4096);
    const size_t task_bytes = sched.spawn_allocation_size<FibonacciTask>();
    const size_t when_all_bytes = sched.when_all_allocation_size(2);
    if (task_bytes < sizeof(FibonacciTask) || when_all_bytes == 0) ++errors;

    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), FibonacciTask(sched, n));
    Kokkos::wait(sched);
    const long tasks = fib_tasks(n), aggregates = (tasks - 1) / 2;
    std::printf("fib(%ld) = %ld: task %zu bytes, when_all %zu bytes, capacity %d, max %d, accum %ld\n", n, f.get(),
                task_bytes, when_all_bytes, sched.allocation_capacity(), sched.allocated_task_count_max(),
                sched.allocated_task_count_accum());
    if (f.get() != serial_fib(n)) ++errors;
    if (sched.allocated_task_count_accum() != tasks + aggregates) ++errors;
    if (sched.allocated_task_count_max() <= 0 || sched.allocated_task_count_max() > tasks + aggregates) ++errors;
    if (sched.allocation_capacity() < 4 * 1024 * 1024) ++errors;
    f = decltype(f)();
    if (sched.allocated_task_count() != 0) ++errors;
  }
  Kokkos::finalize();
  if (errors != 0) std::printf("FAILED: %d errors\n", errors);
  return errors == 0 ? 0 : 1;
}

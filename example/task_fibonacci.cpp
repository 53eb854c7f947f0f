// The seed's naive task-parallel Fibonacci (seed 001, Figure 3.4); the task itself is in
// task_fibonacci.hpp (shared with the showcase).
//
//   task_fibonacci [--small] [n] [--kokkos-num-threads=N]
#include "task_fibonacci.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using Space = Kokkos::DefaultHostExecutionSpace;
// The n-2 child is High: TaskSchedulerMultiple orders High and Regular per worker, so the DAG runs
// depth-first; TaskScheduler would order them across all workers (README, "Priorities across
// workers"), which makes this DAG breadth-first.
using Scheduler = Kokkos::TaskSchedulerMultiple<Space>;
using Fibonacci = task_fibonacci::Fibonacci<Scheduler>;

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  long n = 30;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0) n = 16;
    else n = std::atol(argv[i]);
  }
  {
    // The pool the issue allows for F(26): 27*27*64000 bytes, blocks of 64..1024 bytes.
    Scheduler sched(Scheduler::memory_space(), 27 * 27 * 64000, 64, 1024, 4096);
    Kokkos::Timer timer;
    Fibonacci::future_type f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fibonacci(sched, n));
    Kokkos::wait(sched);
    const double seconds = timer.seconds();
    long a = 0, b = 1;
    for (long i = 0; i < n; ++i) {
      const long c = a + b;
      a = b;
      b = c;
    }
    std::printf("Fibonacci(%ld) = %ld (expected %ld) in %.3f s on %d thread(s)\n", n, f.get(), a, seconds,
                Space().concurrency());
    if (f.get() != a) return 1;
  }
  return 0;
}

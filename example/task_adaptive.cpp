// Adaptive quadrature over a quadtree as a task DAG (task_adaptive.hpp): the integral of a sum
// of narrow peaks over the unit square, the tasks spawning their quadrants where the estimate is
// not yet good enough.  Checked against the serial walk of the same quadtree (equal) and against
// the integral in closed form (within the tolerance).
//
//   task_adaptive [--small] [peaks tolerance spawn_depth] [--kokkos-num-threads=N]
#include "task_adaptive.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using Space = Kokkos::DefaultHostExecutionSpace;
using Scheduler = Kokkos::TaskScheduler<Space>;

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  task_adaptive::Problem problem;
  problem.f = {16, 0.01};
  problem.tolerance = 1e-9;
  problem.max_depth = 20;
  int spawn_depth = 6;
  std::vector<const char*> numbers;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0) {
      problem.f.peaks = 4;
      problem.tolerance = 1e-7;
      spawn_depth = 4;
    } else {
      numbers.push_back(argv[i]);
    }
  }
  if (numbers.size() == 3) {
    problem.f.peaks = std::atoi(numbers[0]);
    problem.tolerance = std::atof(numbers[1]);
    spawn_depth = std::atoi(numbers[2]);
  }
  const task_adaptive::TreeShape shape = task_adaptive::tree_shape(problem, spawn_depth);

  Kokkos::Timer timer;
  const double serial = task_adaptive::serial_integral(problem);
  const double serial_seconds = timer.seconds();

  Scheduler sched(Scheduler::memory_space(), std::size_t(64) << 20, 64, 1024, 1 << 16);
  timer.reset();
  auto integral = task_adaptive::spawn_integral(sched, problem, spawn_depth);
  if (integral.is_null()) {
    std::printf("task_adaptive: the root's spawn found the pool full\n");
    return 1;
  }
  Kokkos::wait(sched);
  const double seconds = timer.seconds();
  const double exact = problem.f.exact();
  std::printf("Integral of %d peaks of width %g over the unit square, tolerance %g: %ld cells to depth %d, "
              "%ld tasks (spawned down to depth %d)\n",
              problem.f.peaks, problem.f.width, problem.tolerance, shape.cells(), shape.deepest, shape.tasks,
              spawn_depth);
  std::printf("  task DAG %.3f ms on %d thread(s), serial %.3f ms (%.2fx); value %.15g, serial %s, "
              "|value - exact| = %.1e\n",
              seconds * 1e3, Space().concurrency(), serial_seconds * 1e3, serial_seconds / seconds, integral.get(),
              integral.get() == serial ? "equal" : "DIFFERENT", std::fabs(integral.get() - exact));
  const bool right = integral.get() == serial && std::fabs(integral.get() - exact) <= 10 * problem.tolerance;
  return right ? 0 : 1;
}

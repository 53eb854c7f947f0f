// A sparse Cholesky factorisation as a task DAG over its elimination tree (task_sparse.hpp): the
// weighted Laplacian of a grid, ordered by nested dissection, factored by a task per subtree.
// Beside it, the same tree as a parallel loop per level of it (level-set scheduling).  Checked
// against the serial factorisation (equal) and by solving A x = A 1 with the factor, serially, by
// the solve's task DAGs and by a loop per level (equal to the serial substitutions, x = 1 to
// rounding).
//
//   task_sparse [--small] [nx ny nz grain] [--kokkos-num-threads=N]
#include "task_sparse.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using Space = Kokkos::DefaultHostExecutionSpace;
using Scheduler = Kokkos::TaskScheduler<Space>;

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  task_sparse::Grid grid{300, 300, 1};
  int grain = 32;
  std::vector<const char*> numbers;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0) {
      grid = {40, 40, 1};
      grain = 8;
    } else {
      numbers.push_back(argv[i]);
    }
  }
  if (numbers.size() == 4) {
    grid = {std::atoi(numbers[0]), std::atoi(numbers[1]), std::atoi(numbers[2])};
    grain = std::atoi(numbers[3]);
  }
  Kokkos::Timer timer;
  const task_sparse::Problem problem = task_sparse::make_problem(grid);
  const double analyse_seconds = timer.seconds();
  const task_sparse::DagShape shape = task_sparse::dag_shape(problem, grain);

  const std::vector<double> serial = task_sparse::serial_factor(problem);  // the reference
  task_sparse::FactorData<Kokkos::HostSpace> serial_data(problem);         // timed as the DAG is: a
  task_sparse::factor_columns(serial_data.factor(), 0, problem.a.n);       // warm-up, then a run
  timer.reset();
  task_sparse::factor_columns(serial_data.factor(), 0, problem.a.n);
  const double serial_seconds = timer.seconds();

  task_sparse::FactorData<Scheduler::memory_space> data(problem);
  Scheduler sched(Scheduler::memory_space(), std::size_t(16) << 20, 64, 1024, 1 << 16);
  double seconds = 0;
  for (int run = 0; run < 2; ++run) {  // a warm-up, as for the serial loop, then the timed run
    timer.reset();
    auto done = task_sparse::spawn_factor(sched, data.factor(), grain);
    if (done.is_null()) {
      std::printf("task_sparse: the root's spawn found the pool full\n");
      return 1;
    }
    Kokkos::wait(sched);
    seconds = timer.seconds();
  }
  const std::vector<double> factor = data.values();

  task_sparse::FactorData<Space::memory_space> level_data(problem);
  level_data.factor_by_levels(Space());  // a warm-up, as for the serial loop
  timer.reset();
  level_data.factor_by_levels(Space());
  const double level_seconds = timer.seconds();
  const bool levels_equal = level_data.values() == serial;
  const double error = task_sparse::solve_error(problem, factor);

  // A x = A 1 by the solve's DAGs, x in the scheduler's memory, against the serial substitutions.
  const std::vector<double> b = task_sparse::times_ones(problem.a);
  std::vector<double> x_serial = b, x_dag = b, l = factor;
  task_sparse::serial_solve(task_sparse::host_factor(problem.a, problem.symbolic, l.data()), x_serial.data());
  Kokkos::View<double*, Scheduler::memory_space> x("x", b.size());
  const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host_x(x_dag.data(), x_dag.size());
  Kokkos::deep_copy(x, host_x);
  timer.reset();
  auto solved = task_sparse::spawn_solve(sched, data.factor(), x.data(), grain);
  Kokkos::wait(sched);
  const double solve_seconds = timer.seconds();
  Kokkos::deep_copy(host_x, x);
  double x_error = solved.is_null() ? std::nan("") : 0;
  for (double v : x_dag) x_error = std::max(x_error, std::fabs(v - 1));
  const bool solve_equal = !solved.is_null() && x_dag == x_serial;
  // The same by a parallel loop per level, up the levels then down them.
  std::vector<double> x_levels = b;
  Kokkos::View<double*, Space::memory_space> level_x("level x", b.size());
  const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host_level_x(x_levels.data(), b.size());
  Kokkos::deep_copy(level_x, host_level_x);
  timer.reset();
  level_data.solve_by_levels(Space(), level_x.data());
  const double level_solve_seconds = timer.seconds();
  Kokkos::deep_copy(host_level_x, level_x);
  const bool level_solve_equal = x_levels == x_serial;
  const double flops = problem.symbolic.flops();
  std::printf("Sparse Cholesky of a %d x %d x %d grid's Laplacian (n = %d, nnz(L) = %ld, %.3g flop; analysed in "
              "%.1f ms): %ld tasks, %ld when_alls, %d on the longest path (grain %d columns)\n",
              grid.nx, grid.ny, grid.nz, problem.a.n, problem.symbolic.nnz(), flops, analyse_seconds * 1e3,
              shape.tasks, shape.when_alls, shape.critical_path, grain);
  std::printf("  task DAG %.3f ms on %d thread(s) (%.2f GFLOP/s), serial %.3f ms (%.2fx); factor %s the serial "
              "one, max |x - 1| solving A x = A 1: %.1e\n",
              seconds * 1e3, Space().concurrency(), flops / seconds * 1e-9, serial_seconds * 1e3,
              serial_seconds / seconds, factor == serial ? "equal to" : "DIFFERENT from", error);
  std::printf("  a parallel loop per level of the tree (%d levels) %.3f ms (%.2fx the task DAG's time); factor %s\n",
              level_data.levels().levels(), level_seconds * 1e3, level_seconds / seconds,
              levels_equal ? "equal" : "DIFFERENT");
  std::printf("  solve by the task DAGs (forward up the tree, backward down it) %.3f ms: x %s the serial "
              "substitutions', max |x - 1| = %.1e\n",
              solve_seconds * 1e3, solve_equal ? "equal to" : "DIFFERENT from", x_error);
  std::printf("  solve by a parallel loop per level (up, then down) %.3f ms (%.2fx the task DAGs' time): x %s\n",
              level_solve_seconds * 1e3, level_solve_seconds / solve_seconds, level_solve_equal ? "equal" : "DIFFERENT");
  const bool ok = factor == serial && levels_equal && error < 1e-10 && solve_equal && level_solve_equal;
  return ok && x_error < 1e-10 ? 0 : 1;
}

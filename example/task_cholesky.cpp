// A tiled Cholesky factorisation as a task DAG of TaskTeam tasks (task_cholesky.hpp), checked
// against the serial tiled algorithm and against A itself (max |L L^T - A|).
//
//   task_cholesky [--small] [nt b] [--kokkos-num-threads=N]
#include "task_cholesky.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using Space = Kokkos::DefaultHostExecutionSpace;
using Scheduler = Kokkos::TaskScheduler<Space>;

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  int nt = 16, b = 32;
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0) {
      nt = 6;
      b = 8;
    } else {
      sizes.push_back(std::atoi(argv[i]));
    }
  }
  if (sizes.size() == 2) {
    nt = sizes[0];
    b = sizes[1];
  }
  const std::vector<double> a = task_cholesky::spd_matrix(nt, b);
  std::vector<double> l = a, reference = a;
  task_cholesky::reference_cholesky({reference.data(), nt, b});
  {
    Scheduler sched(Scheduler::memory_space(), std::size_t(64) << 20, 64, 1024, 1 << 16);
    Kokkos::Timer timer;
    const std::string why = task_cholesky::spawn_cholesky(sched, task_cholesky::Tiles{l.data(), nt, b});
    Kokkos::wait(sched);
    const double seconds = timer.seconds();
    if (!why.empty()) {
      std::printf("task_cholesky: %s\n", why.c_str());
      return 1;
    }
    double difference = 0;
    for (std::size_t e = 0; e < l.size(); ++e) difference = std::fmax(difference, std::fabs(l[e] - reference[e]));
    const double residual = task_cholesky::max_residual(l, a, nt, b);
    std::printf("Cholesky of a %d x %d matrix (%d x %d tiles of %d x %d): %ld TaskTeam tasks in %.3f ms, %.2f GFLOP/s "
                "on %d thread(s); max |L - serial L| = %.1e, max |L L^T - A| = %.1e\n",
                nt * b, nt * b, nt, nt, b, b, task_cholesky::task_count(nt), seconds * 1e3,
                task_cholesky::flop_count(nt, b) / seconds * 1e-9, Space().concurrency(), difference, residual);
    if (!(difference <= 1e-9 && residual <= 1e-9 * nt * b)) return 1;
  }
  return 0;
}

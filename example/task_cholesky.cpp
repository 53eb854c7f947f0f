// A tiled Cholesky factorisation as a task DAG of TaskTeam tasks (task_cholesky.hpp), spawned from
// the host and then by a builder task, each checked against the serial tiled algorithm and
// against A itself (max |L L^T - A|).
//
//   task_cholesky [--small] [nt b] [--kokkos-num-threads=N]
#include "task_cholesky.hpp"

#include <cmath>
#include <cstdint>
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
  std::vector<double> reference = a;
  task_cholesky::reference_cholesky({reference.data(), nt, b});
  Scheduler sched(Scheduler::memory_space(), std::size_t(64) << 20, 64, 1024, 1 << 16);
  bool right = true;
  for (const bool built_in_a_task : {false, true}) {
    std::vector<double> l = a;
    const task_cholesky::Tiles tiles{l.data(), nt, b};
    // Memory for the builder's table of futures (one per tile), where its tasks can reach it.
    const std::size_t table_bytes = task_cholesky::builder_table_bytes<Scheduler>(nt);
    std::vector<std::uintptr_t> table_memory(table_bytes / sizeof(std::uintptr_t) + 1);
    Kokkos::Timer timer;
    std::string why;
    if (built_in_a_task) {
      auto built = Kokkos::host_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High),
                                      task_cholesky::CholeskyBuilder<Scheduler>{sched, tiles, table_memory.data()});
      Kokkos::wait(sched);
      why = built.is_null() ? "the builder's spawn found the pool full" : task_cholesky::failure_text(built.get());
    } else {
      why = task_cholesky::spawn_cholesky(sched, tiles);
      Kokkos::wait(sched);
    }
    const double seconds = timer.seconds();
    if (!why.empty()) {
      std::printf("task_cholesky: %s\n", why.c_str());
      return 1;
    }
    double difference = 0;
    for (std::size_t e = 0; e < l.size(); ++e) difference = std::fmax(difference, std::fabs(l[e] - reference[e]));
    const double residual = task_cholesky::max_residual(l, a, nt, b);
    std::printf("Cholesky of a %d x %d matrix (%d x %d tiles of %d x %d), %ld TaskTeam tasks spawned %s: %.3f ms, "
                "%.2f GFLOP/s on %d thread(s); max |L - serial L| = %.1e, max |L L^T - A| = %.1e\n",
                nt * b, nt * b, nt, nt, b, b, task_cholesky::task_count(nt),
                built_in_a_task ? "by a builder task" : "from the host", seconds * 1e3,
                task_cholesky::flop_count(nt, b) / seconds * 1e-9, Space().concurrency(), difference, residual);
    right = right && difference <= 1e-9 && residual <= 1e-9 * nt * b;
  }
  return right ? 0 : 1;
}

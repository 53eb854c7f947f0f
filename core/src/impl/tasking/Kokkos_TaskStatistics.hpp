#pragma once
// Where the task DAG statistics (Kokkos_TaskDagStatistics.hpp) are kept: the totals over every
// scheduler destroyed so far, and their print-out at finalize when KOKKOS_TASK_STATS=1.
//
// The counters live in the per-worker slots of the queue (written by their worker alone) and
// are summed when read, so counting costs no shared cache line.
#include <Kokkos_TaskDagStatistics.hpp>

#include <cstdlib>
#include <functional>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <ostream>
#include <sstream>

namespace Kokkos {
void push_finalize_hook(std::function<void()> hook);
}

namespace Kokkos::Impl {

struct TaskStatisticsTotals {
  std::mutex mutex;
  Experimental::TaskDagStatistics totals;
  bool print_hook_registered = false;
};
inline TaskStatisticsTotals& task_statistics_totals() {
  static TaskStatisticsTotals t;
  return t;
}

void task_print_statistics_at_finalize();

// Called when a scheduler is made: with KOKKOS_TASK_STATS=1, print the totals at finalize.
inline void task_statistics_register_print() {
  const char* env = std::getenv("KOKKOS_TASK_STATS");
  if (env == nullptr || std::atoi(env) == 0) return;
  TaskStatisticsTotals& t = task_statistics_totals();
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    first = !t.print_hook_registered;
    t.print_hook_registered = true;
  }
  if (first) Kokkos::push_finalize_hook(&task_print_statistics_at_finalize);
}

// Called when a scheduler's queue is destroyed.
inline void task_statistics_fold(const Experimental::TaskDagStatistics& s) {
  TaskStatisticsTotals& t = task_statistics_totals();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.totals += s;
}

}  // namespace Kokkos::Impl

namespace Kokkos::Experimental {

// Totals over every scheduler destroyed since start (or the last reset).
inline TaskDagStatistics task_dag_statistics() {
  Kokkos::Impl::TaskStatisticsTotals& t = Kokkos::Impl::task_statistics_totals();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.totals;
}
inline void reset_task_dag_statistics() {
  Kokkos::Impl::TaskStatisticsTotals& t = Kokkos::Impl::task_statistics_totals();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.totals = TaskDagStatistics{};
}

inline void print_task_dag_statistics(std::ostream& os, const TaskDagStatistics& s) {
  std::ostringstream out;
  out << "Kokkos task DAG statistics (" << s.schedulers << " scheduler" << (s.schedulers == 1 ? "" : "s") << ")\n";
  out << "  tasks spawned            " << s.tasks_spawned << "\n";
  out << "  respawns                 " << s.respawns << "\n";
  out << "  when_all aggregates      " << s.when_all_aggregates << "\n";
  out << "  steals                   " << s.steals << "\n";
  out << "  pool high-water mark     " << s.pool_high_water << " blocks\n";
  out << "  spawn failures           " << s.spawn_failures << "\n";
  os << out.str();
}
inline void print_task_dag_statistics(std::ostream& os) { print_task_dag_statistics(os, task_dag_statistics()); }

}  // namespace Kokkos::Experimental

namespace Kokkos::Impl {
inline void task_print_statistics_at_finalize() {
  Experimental::print_task_dag_statistics(std::cout);
  TaskStatisticsTotals& t = task_statistics_totals();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.print_hook_registered = false;
}
}  // namespace Kokkos::Impl

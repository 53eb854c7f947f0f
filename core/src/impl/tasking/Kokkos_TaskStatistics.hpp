#pragma once
// Task DAG statistics (issue 22), like the fusion layer's: per scheduler with
// Experimental::task_dag_statistics(sched); summed over every scheduler destroyed so far with
// Experimental::task_dag_statistics(); printed at finalize when KOKKOS_TASK_STATS=1.
//
// The counters live in the per-worker slots of the queue (written by their worker alone) and
// are summed when read, so counting costs no shared cache line.
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

namespace Kokkos::Experimental {

struct TaskDagStatistics {
  long schedulers = 0;           // schedulers counted (1 for one scheduler's statistics)
  long tasks_spawned = 0;        // host_spawn / task_spawn that allocated a task
  long respawns = 0;             // respawn() calls that took effect
  long when_all_aggregates = 0;  // when_all aggregates allocated
  long steals = 0;               // tasks a worker took from another worker's deque
  long spawn_failures = 0;       // spawns and when_alls given a null future (pool full or empty)
  long pool_high_water = 0;      // allocated_task_count_max() (the largest over schedulers)

  TaskDagStatistics& operator+=(const TaskDagStatistics& o) {
    schedulers += o.schedulers;
    tasks_spawned += o.tasks_spawned;
    respawns += o.respawns;
    when_all_aggregates += o.when_all_aggregates;
    steals += o.steals;
    spawn_failures += o.spawn_failures;
    if (o.pool_high_water > pool_high_water) pool_high_water = o.pool_high_water;
    return *this;
  }
};

}  // namespace Kokkos::Experimental

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

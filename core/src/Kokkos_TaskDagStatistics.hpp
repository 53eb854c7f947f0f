#pragma once
// Kokkos::Experimental::TaskDagStatistics, like the fusion layer's statistics: per scheduler with
// Experimental::task_dag_statistics(sched); summed over every scheduler destroyed so far with
// Experimental::task_dag_statistics(); printed at finalize when KOKKOS_TASK_STATS=1.

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

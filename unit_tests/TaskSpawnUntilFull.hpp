#pragma once
// A task that spawns children, held back behind a gate, until a spawn returns a null future: how
// many a scheduler's pool holds, counted inside the DAG on every back end, the GPU included.
// Shared by TestTaskEverySpace and TestCudaTaskPlacement.
#include <Kokkos_Core.hpp>
#include <Kokkos_TaskScheduler.hpp>

namespace Kokkos::Test {

template <class Scheduler>
struct Nothing {
  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&) {}
};

// Holds the spawner's children back until the spawner is done (`*spawner_done` set): otherwise
// other workers (a second host thread, or any of the GPU's thousands of warps) run and free each
// child as soon as it is spawned, and the pool never runs out.  It re-runs itself at low
// priority meanwhile; only one worker at a time can be busy with it.
template <class Scheduler>
struct GateUntilSpawnerDone {
  Scheduler sched;
  const int* spawner_done;

  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&) {
    if (Kokkos::atomic_load(spawner_done) == 0) Kokkos::respawn(this, sched, Kokkos::TaskPriority::Low);
  }
};

template <class Scheduler>
struct SpawnUntilFull {
  using value_type = long;
  static constexpr long never_ran_out = -1;
  static constexpr long gate_failed = -2;
  static constexpr long spawn_limit = 100000;
  Scheduler sched;
  int* done;

  // Spawns, behind a gate, until a spawn returns a null future; the result is how many
  // succeeded.  The futures are dropped at once: the children stay alive through the
  // scheduler's hold until they ran.
  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, long& result) {
    result = 0;
    auto gate = Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::Low),
                                   GateUntilSpawnerDone<Scheduler>{sched, done});
    if (gate.is_null()) {
      result = gate_failed;
    } else {
      while (true) {
        auto f = Kokkos::task_spawn(Kokkos::TaskSingle(sched, gate, Kokkos::TaskPriority::Low), Nothing<Scheduler>{});
        if (f.is_null()) break;
        if (++result == spawn_limit) {
          result = never_ran_out;
          break;
        }
      }
    }
    Kokkos::atomic_store(done, 1);
  }
};

}  // namespace Kokkos::Test

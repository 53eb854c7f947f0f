#pragma once
// The host worker loop of the task DAG: wait(scheduler) runs it on every worker of the
// execution space (impl_run_on_workers); tasks execute only inside wait(), as in Kokkos.  The
// loop itself is compiled in the library (Kokkos_HostTaskWorkerLoop.cpp); here are the task
// member type and wait(), which make the members and hand the loop their addresses.
//
// Workers form teams of Experimental::task_team_size() consecutive ranks (the hyperthreads of
// one core).  A team's leader pops and steals tasks; a TaskSingle task runs on the leader
// alone, a TaskTeam task on the whole team.  With teams of one every worker is a leader.
// The task member is the host team member of TeamPolicy (Host/Kokkos_HostTeam.hpp) plus
// scheduler(), so every nested TeamThreadRange / ThreadVectorRange pattern works in a task.
//
// Termination: a worker that finds no task leaves the active count, then watches the deques.
// It stops once it has seen every deque empty and, after that, no active worker: an active
// worker is the only thing that can push, and it stays active until its own deques are empty.
#include <Host/Kokkos_HostBackend.hpp>
#include <Host/Kokkos_HostTeam.hpp>
#include <impl/tasking/Kokkos_TaskQueue.hpp>
#include <impl/tools/Kokkos_Trace.hpp>

#include <atomic>
#include <memory>
#include <thread>
#include <type_traits>

namespace Kokkos::Experimental {
int task_team_size() noexcept;
}

namespace Kokkos::Impl {

// The member_type of a task (seed 001 §2.2.3): one team of the league of task teams.  A
// TaskSingle task sees a team of one.
template <class Scheduler>
class HostTaskTeamMember : public HostThreadTeamMember<typename Scheduler::execution_space> {
  using base_type = HostThreadTeamMember<typename Scheduler::execution_space>;
  const Scheduler* m_scheduler;

 public:
  using execution_space = typename Scheduler::execution_space;
  using scheduler_type = Scheduler;
  using team_handle = HostTaskTeamMember;

  HostTaskTeamMember(const Scheduler& sched, HostTeamShared& shared, int team_rank, int team_size, int league_rank,
                     int league_size) noexcept
      : base_type(shared, team_rank, team_size, league_rank, league_size), m_scheduler(&sched) {}

  // A handle sharing the running scheduler (copy it to keep it, e.g. into a spawned closure).
  const Scheduler& scheduler() const noexcept { return *m_scheduler; }
};

// The nested patterns of Kokkos_NestedPolicies.hpp serve every host team member.
template <class Scheduler>
struct is_host_thread_team_member<HostTaskTeamMember<Scheduler>> : std::true_type {};

// How a leader hands a team task to the rest of its team.
struct alignas(KOKKOS_IMPL_CACHE_LINE) HostTaskTeamDispatch {
  std::atomic<unsigned> generation{0};  // bumped by the leader for each team task (and to quit)
  TaskBase* task = nullptr;             // the team task, or null: leave the loop

  static void backoff(int& spins) {
    if (++spins < 64)
      Kokkos::Impl::pause();
    else
      std::this_thread::yield();
  }
};

// What one worker needs to run tasks.  The members are the scheduler's member_type, seen by
// the loop only as the argument it passes to a task's closure: the loop itself is compiled
// once, in the library (Kokkos_HostTaskWorkerLoop.cpp).
struct HostTaskWorker {
  TaskQueueBase& queue;
  TaskWorkerContext& ctx;
  int workers;
  HostTaskTeamDispatch* dispatch;
  HostTeamShared* shared;
  int team_size;
  void* single;  // a team of one
  void* team;    // this worker's rank in its task team
};

// Runs a worker until the DAG is finished: a team leader pops, steals and runs tasks; any other
// rank runs the team tasks its leader dispatches.
void host_task_worker_run(HostTaskWorker& w);

// ---- traces: task slices and their arrows (Kokkos_Trace.hpp) -----------------------------------
// The hooks of the spawn and when_all paths, which run only while a trace runs (the rest is in
// Kokkos_HostTaskWorkerLoop.cpp).  Cold (GCC, clang): their calls then do not count against
// inlining the paths that hold them.
#if defined(__GNUC__)
#define KOKKOS_IMPL_TRACE_HOOK __attribute__((noinline, cold))
#else
#define KOKKOS_IMPL_TRACE_HOOK KOKKOS_IMPL_NOINLINE
#endif

// Spawn hook: a task spawned by a running task starts its arrow here.
KOKKOS_IMPL_TRACE_HOOK void trace_spawn(TaskBase* t);

// when_all hook: the aggregate keeps its entries alive until it is freed (see m_trace), so the
// tasks that wait on it can still read where the entries ran after it completed.  Not while the
// calling thread's ring is full (the trace is losing events: its waiters get no arrows).
KOKKOS_IMPL_TRACE_HOOK void trace_hold_entries(TaskBase* a);

// wait(scheduler) for a host back end.
template <class Scheduler, class Queue, class ExecSpace>
void host_task_wait(const Scheduler& sched, Queue& queue, const ExecSpace& space) {
  if (current_task_context() != nullptr)
    Kokkos::abort("Kokkos::wait(scheduler): called from inside a task; a task waits by respawning behind a future");
  if (ExecSpace::in_parallel())
    Kokkos::abort("Kokkos::wait(scheduler): called from inside a parallel region; call it from host code");
  using Member = typename Scheduler::member_type;
  const int capacity = queue.worker_capacity();
  int team_size = Kokkos::Experimental::task_team_size();
  if (team_size < 1) team_size = 1;
  if (team_size > capacity) team_size = capacity;
  const int max_teams = (capacity + team_size - 1) / team_size;

  HostTeamStorage storage;
  storage.prepare(HostTeamLayout{max_teams, team_size, 0, 0, 0, 0});
  std::unique_ptr<HostTaskTeamDispatch[]> dispatch(new HostTaskTeamDispatch[static_cast<size_t>(max_teams)]);

  const int workers = space.impl_thread_pool_size() < capacity ? space.impl_thread_pool_size() : capacity;
  const int ts0 = team_size < workers ? team_size : workers;
  queue.set_workers(workers, (workers + ts0 - 1) / ts0, ts0);
  queue.set_waiting(true);
  space.impl_run_on_workers([&](int rank, int size) {
    if (size > capacity)
      Kokkos::abort("Kokkos::wait(scheduler): the execution space has more workers than when the scheduler was made");
    const int ts = team_size < size ? team_size : size;
    const int league_rank = rank / ts;
    const int league_size = (size + ts - 1) / ts;
    const int leader = league_rank * ts;
    const int my_team_size = (leader + ts <= size) ? ts : size - leader;
    HostTeamShared& shared = storage.team(league_rank);
    TaskWorkerContext ctx{&queue, nullptr, rank, &queue.slot(rank), rank == leader};
    t_task_context = &ctx;
    Member single(sched, shared, 0, 1, league_rank, league_size);
    Member team(sched, shared, rank - leader, my_team_size, league_rank, league_size);
    HostTaskWorker w{queue,  ctx,          size,    &dispatch[static_cast<size_t>(league_rank)],
                     &shared, my_team_size, &single, &team};
    host_task_worker_run(w);
    queue.flush_cache(rank);
    t_task_context = nullptr;
  });
  queue.set_waiting(false);
  queue.reclaim_deques();
  trace_flush_if_on();
  if (queue.incomplete_count() != 0)
    Kokkos::abort("Kokkos::wait(scheduler): tasks are still waiting after every runnable task finished: "
                  "their dependences form a cycle (a task respawned behind a future that depends on it)");
}

}  // namespace Kokkos::Impl

#pragma once
// The host worker loop of the task DAG: wait(scheduler) runs it on every worker of the
// execution space (impl_run_on_workers); tasks execute only inside wait(), as in Kokkos.
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

#include <algorithm>
#include <atomic>
#include <thread>
#include <type_traits>
#include <vector>

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

// What one worker needs to run tasks.
template <class Member>
struct HostTaskWorker {
  TaskQueueBase& queue;
  TaskWorkerContext& ctx;
  int workers;
  HostTaskTeamDispatch* dispatch;
  HostTeamShared* shared;
  int team_size;
  Member single;  // a team of one
  Member team;    // this worker's rank in its task team
};

// ---- traces: task slices and their arrows (Kokkos_Trace.hpp) -----------------------------------
// Every function here runs only while a trace runs.  A slice's arrows: from the spawning
// execution to a task's first one (spawn), from a task's previous execution to its respawn
// (respawn), and from the last execution of each predecessor it waited on, directly or through
// when_all aggregates, to the execution that waited (dependence).  Sources are the TracePoints
// kept in task headers; the slice's event carries them, so an arrow is recorded with its end.

inline void trace_store_point(TaskBase* t, const TracePoint& p) {
  t->m_dep_count = static_cast<std::int32_t>(static_cast<std::uint32_t>(p.tick));
  t->m_dep_index = static_cast<std::int32_t>(static_cast<std::uint32_t>(p.tick >> 32));
  t->m_trace = p.thread;
}
inline TracePoint trace_load_point(const TaskBase* t) {
  TracePoint p;
  p.tick = std::uint64_t(static_cast<std::uint32_t>(t->m_dep_count)) |
           (std::uint64_t(static_cast<std::uint32_t>(t->m_dep_index)) << 32);
  p.thread = t->m_trace;
  return p;
}

// The hooks below are cold (GCC, clang): their calls then do not count against inlining the
// spawn and when_all paths that hold them.
#if defined(__GNUC__)
#define KOKKOS_IMPL_TRACE_HOOK __attribute__((noinline, cold))
#else
#define KOKKOS_IMPL_TRACE_HOOK KOKKOS_IMPL_NOINLINE
#endif

// Spawn hook: a task spawned by a running task starts its arrow here.
KOKKOS_IMPL_TRACE_HOOK inline void trace_spawn(TaskBase* t) {
  if (!t_trace_ring_full) trace_store_point(t, trace_point_now());
}

// when_all hook: the aggregate keeps its entries alive until it is freed (see m_trace), so the
// tasks that wait on it can still read where the entries ran after it completed.  Not while the
// calling thread's ring is full (the trace is losing events: its waiters get no arrows).
KOKKOS_IMPL_TRACE_HOOK inline void trace_hold_entries(TaskBase* a) {
  if (t_trace_ring_full) return;
  TaskBase** entries = a->aggregate_entries();
  for (int i = 0; i < a->m_dep_count; ++i) entries[i]->add_ref();
  a->m_trace = 1;
}

// Appends the points of `dep`'s completed tasks: a task's own, an aggregate's entries' (only
// those held by trace_hold_entries: others may be freed).
inline void trace_dependence_points(const TaskBase* dep, std::vector<TracePoint>& out, int depth) {
  if (!dep->is_aggregate()) {
    const TracePoint p = trace_load_point(dep);
    if (trace_point_current(p)) out.push_back(p);
    return;
  }
  if (dep->m_trace == 0 || depth > 8) return;
  TaskBase* const* entries = const_cast<TaskBase*>(dep)->aggregate_entries();
  for (int i = 0; i < dep->m_dep_count; ++i) trace_dependence_points(entries[i], out, depth + 1);
}

// The slice of one execution of `t`, which began at `begin` (from trace_task_begin, non-zero),
// with its arrows; then releases `dependence` (what `t` waited on, held until now for its points).
// (`priority`: the task's priority when it started; a respawn may change it.)
KOKKOS_IMPL_TRACE_HOOK inline void trace_task(TaskQueueBase& queue, TaskBase* t, std::uint64_t begin, std::uint8_t priority,
                                            TaskBase* dependence) {
  const TracePoint before = trace_load_point(t);  // its spawn, or its previous execution
  trace_store_point(t, TracePoint{});
  {
    TraceEvent event;
    event.kind = TraceKind::task;
    event.begin_ns = begin;
    t->m_apply(t, TaskOp::Name, &event.type_name);
    event.priority = priority;
    event.respawn = t->m_respawned;
    static thread_local std::vector<TracePoint> sources;
    sources.clear();
    if (trace_point_current(before)) {
      sources.push_back(before);
      event.count = trace_flow_first_is_spawn;
    }
    if (dependence != nullptr) trace_dependence_points(dependence, sources, 0);
    const std::size_t first = std::min<std::size_t>(sources.size(), trace_flow_points_per_event);
    for (std::size_t i = 0; i < first; ++i) trace_flow_point(event, static_cast<int>(i), sources[i]);
    event.count |= first;
    if (const std::uint32_t thread = trace_record(event)) {
      // Arrows to this task's successors start in the middle of this slice.
      trace_store_point(t, TracePoint{begin + (event.end_ns - begin) / 2, thread});
      for (std::size_t i = first; i < sources.size(); i += trace_flow_points_per_event) {
        TraceEvent more;
        more.kind = TraceKind::task_flows;
        const std::size_t n = std::min<std::size_t>(sources.size() - i, trace_flow_points_per_event);
        for (std::size_t k = 0; k < n; ++k) trace_flow_point(more, static_cast<int>(k), sources[i + k]);
        more.count = n;
        more.begin_ns = begin;
        if (trace_record(more) == 0) break;
      }
    }
  }
  if (dependence != nullptr) queue.release(dependence);
}

// Runs `t` (on the calling leader, or on its team) and completes or respawns it.  Returns a
// waiter the completion made ready that should run next on this worker, or null.
template <class Member>
inline TaskBase* host_run_task(HostTaskWorker<Member>& w, TaskBase* t) {
  const std::uint64_t trace_start = trace_task_begin(&t->m_trace);
  TaskBase* traced_dependence = nullptr;  // tracing: released by trace_task, after its arrows
  if (t->m_dependence != nullptr) {
    if (KOKKOS_IMPL_LIKELY(trace_start == 0))
      w.queue.release(t->m_dependence);
    else
      traced_dependence = t->m_dependence;
    t->m_dependence = nullptr;
  }
  w.ctx.current = t;
  const std::uint8_t priority = t->m_priority;
  if (w.team_size > 1 && t->m_kind == TaskKind::Team) {
    w.dispatch->task = t;
    w.dispatch->generation.fetch_add(1, std::memory_order_release);
    t->m_apply(t, TaskOp::Run, &w.team);
    w.shared->barrier(w.team_size);  // every rank has returned from the closure
  } else {
    t->m_apply(t, TaskOp::Run, &w.single);
  }
  w.ctx.current = nullptr;
  if (KOKKOS_IMPL_UNLIKELY(trace_start != 0)) trace_task(w.queue, t, trace_start, priority, traced_dependence);
  if (t->m_respawn) {
    t->m_respawn = 0;
    t->m_respawned = 1;
    w.queue.count_respawn(w.ctx.slot);
    w.queue.schedule(t);
    return nullptr;
  }
  t->m_apply(t, TaskOp::DestroyClosure, nullptr);
  return w.queue.complete(t, w.ctx.slot);
}

template <class Member>
inline void host_run_chain(HostTaskWorker<Member>& w, TaskBase* t) {
  while (t != nullptr) t = host_run_task(w, t);
}

// A leader's loop: run tasks until the DAG is finished.
template <class Member>
inline void host_leader_loop(HostTaskWorker<Member>& w) {
  TaskQueueBase& queue = w.queue;
  std::atomic<int>& active = queue.active_workers();
  const int me = w.ctx.slot;
  active.fetch_add(1, std::memory_order_seq_cst);
  for (;;) {
    TaskBase* t = queue.pop_local(me);
    if (t == nullptr) t = queue.steal(me, w.workers);
    if (t != nullptr) {
      host_run_chain(w, t);
      continue;
    }
    // Idle: leave the active count and watch for work or the end.
    active.fetch_sub(1, std::memory_order_seq_cst);
    int spins = 0;
    for (;;) {
      if (queue.any_ready(w.workers)) {
        active.fetch_add(1, std::memory_order_seq_cst);
        t = queue.pop_local(me);
        if (t == nullptr) t = queue.steal(me, w.workers);
        if (t != nullptr) break;
        active.fetch_sub(1, std::memory_order_seq_cst);
      } else if (active.load(std::memory_order_seq_cst) == 0 && !queue.any_ready(w.workers)) {
        if (w.team_size > 1) {
          w.dispatch->task = nullptr;
          w.dispatch->generation.fetch_add(1, std::memory_order_release);
        }
        return;
      }
      HostTaskTeamDispatch::backoff(spins);
    }
    host_run_chain(w, t);
  }
}

// A non-leader team rank: runs the team tasks its leader dispatches.
template <class Member>
inline void host_team_follower_loop(HostTaskWorker<Member>& w) {
  unsigned seen = 0;
  for (;;) {
    int spins = 0;
    unsigned now;
    while ((now = w.dispatch->generation.load(std::memory_order_acquire)) == seen) HostTaskTeamDispatch::backoff(spins);
    seen = now;
    TaskBase* t = w.dispatch->task;
    if (t == nullptr) return;
    w.ctx.current = t;
    t->m_apply(t, TaskOp::Run, &w.team);
    w.ctx.current = nullptr;
    w.shared->barrier(w.team_size);
  }
}

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
    TaskWorkerContext ctx{&queue, nullptr, rank, rank == leader};
    t_task_context = &ctx;
    HostTaskWorker<Member> w{queue,
                             ctx,
                             size,
                             &dispatch[static_cast<size_t>(league_rank)],
                             &shared,
                             my_team_size,
                             Member(sched, shared, 0, 1, league_rank, league_size),
                             Member(sched, shared, rank - leader, my_team_size, league_rank, league_size)};
    if (rank == leader)
      host_leader_loop(w);
    else
      host_team_follower_loop(w);
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

// The host worker loop of the task DAG and its traces (Kokkos_HostTaskWorkerLoop.hpp).
#include <Host/Kokkos_HostTaskWorkerLoop.hpp>

#include <algorithm>
#include <atomic>
#include <vector>

#if defined(__GNUC__)
#define KOKKOS_IMPL_TASK_FLATTEN __attribute__((flatten))
#else
#define KOKKOS_IMPL_TASK_FLATTEN
#endif

namespace Kokkos::Impl {

// ---- traces: task slices and their arrows (Kokkos_Trace.hpp) -----------------------------------
// Every function here runs only while a trace runs.  A slice's arrows: from the spawning
// execution to a task's first one (spawn), from a task's previous execution to its respawn
// (respawn), and from the last execution of each predecessor it waited on, directly or through
// when_all aggregates, to the execution that waited (dependence).  Sources are the TracePoints
// kept in task headers; the slice's event carries them, so an arrow is recorded with its end.

static void trace_store_point(TaskBase* t, const TracePoint& p) {
  t->m_dep_count = static_cast<std::int32_t>(static_cast<std::uint32_t>(p.tick));
  t->m_dep_index = static_cast<std::int32_t>(static_cast<std::uint32_t>(p.tick >> 32));
  t->m_trace = p.thread;
}
static TracePoint trace_load_point(const TaskBase* t) {
  TracePoint p;
  p.tick = std::uint64_t(static_cast<std::uint32_t>(t->m_dep_count)) |
           (std::uint64_t(static_cast<std::uint32_t>(t->m_dep_index)) << 32);
  p.thread = t->m_trace;
  return p;
}

// Spawn hook: a task spawned by a running task starts its arrow here.
void trace_spawn(TaskBase* t) {
  if (!t_trace_ring_full) trace_store_point(t, trace_point_now());
}

// when_all hook: the aggregate keeps its entries alive until it is freed (see m_trace), so the
// tasks that wait on it can still read where the entries ran after it completed.  Not while the
// calling thread's ring is full (the trace is losing events: its waiters get no arrows).
void trace_hold_entries(TaskBase* a) {
  if (t_trace_ring_full) return;
  TaskBase** entries = a->aggregate_entries();
  for (int i = 0; i < a->m_dep_count; ++i) entries[i]->add_ref();
  a->m_trace = 1;
}

// Appends the points of `dep`'s completed tasks: a task's own, an aggregate's entries' (only
// those held by trace_hold_entries: others may be freed).
static void trace_dependence_points(const TaskBase* dep, std::vector<TracePoint>& out, int depth) {
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
KOKKOS_IMPL_TRACE_HOOK static void trace_task(TaskQueueBase& queue, TaskBase* t, std::uint64_t begin, std::uint8_t priority,
                                            TaskBase* dependence) {
  const TracePoint before = trace_load_point(t);  // its spawn, or its previous execution
  trace_store_point(t, TracePoint{});
  {
    TraceEvent event;
    event.kind = TraceKind::task;
    event.begin_ns = begin;
    t->m_apply(t, TaskOp::Name, &event.type_name);
    event.priority = priority;
    event.respawn = (t->m_flags & TaskBase::flag_respawned) != 0;
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
static TaskBase* host_run_task(HostTaskWorker& w, TaskBase* t) {
  const std::uint64_t trace_start = trace_task_begin(&t->m_trace);
  TaskBase* traced_dependence = nullptr;  // tracing: released by trace_task, after its arrows
  if (t->m_dependence != nullptr) {
    if (KOKKOS_IMPL_LIKELY(trace_start == 0))
      w.queue.release(t->m_dependence, *w.ctx.slot);
    else
      traced_dependence = t->m_dependence;
    t->m_dependence = nullptr;
  }
  w.ctx.current = t;
  const std::uint8_t priority = t->m_priority;
  const bool on_team = w.team_size > 1 && t->m_kind == TaskKind::Team;
  if (on_team) {
    w.dispatch->task = t;
    w.dispatch->generation.fetch_add(1, std::memory_order_release);
    t->m_apply(t, TaskOp::Run, w.team);
    w.shared->barrier(w.team_size);  // every rank has returned from the closure
  } else {
    t->m_apply(t, TaskOp::RunThenDestroy, w.single);
  }
  w.ctx.current = nullptr;
  if (KOKKOS_IMPL_UNLIKELY(trace_start != 0)) trace_task(w.queue, t, trace_start, priority, traced_dependence);
  if (t->m_respawn == 1) {  // (closure_destroying: run and destroyed)
    t->m_respawn = 0;
    t->m_flags |= TaskBase::flag_respawned;
    TaskQueueBase::count_respawn(*w.ctx.slot);
    w.queue.schedule(t, w.ctx);
    return nullptr;
  }
  if (on_team) t->m_apply(t, TaskOp::DestroyClosure, nullptr);  // once every rank has left it
  return w.queue.complete(t, *w.ctx.slot);
}

static void host_run_chain(HostTaskWorker& w, TaskBase* t) {
  while (t != nullptr) t = host_run_task(w, t);
}

// A leader's loop: run tasks until the DAG is finished.  The calls it makes are inlined into it
// (`flatten`; GCC follows them down, clang 14 inlines the direct ones), except those marked
// noinline and calls through pointers: popping, running and completing a task happen once per
// task, and the queue's side of them (Kokkos_TaskQueue.cpp) is compiled in the same unit in C++
// builds (core/CMakeLists.txt).
KOKKOS_IMPL_TASK_FLATTEN static void host_leader_loop(HostTaskWorker& w) {
  TaskQueueBase& queue = w.queue;
  std::atomic<int>& active = queue.active_workers();
  const int me = w.ctx.slot_index;
  TaskQueueBase::Slot& slot = *w.ctx.slot;
  active.fetch_add(1, std::memory_order_seq_cst);
  for (;;) {
    TaskBase* t = queue.pop_local(slot);
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
        t = queue.pop_local(slot);
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
static void host_team_follower_loop(HostTaskWorker& w) {
  unsigned seen = 0;
  for (;;) {
    int spins = 0;
    unsigned now;
    while ((now = w.dispatch->generation.load(std::memory_order_acquire)) == seen) HostTaskTeamDispatch::backoff(spins);
    seen = now;
    TaskBase* t = w.dispatch->task;
    if (t == nullptr) return;
    w.ctx.current = t;
    t->m_apply(t, TaskOp::Run, w.team);
    w.ctx.current = nullptr;
    w.shared->barrier(w.team_size);
  }
}

void host_task_worker_run(HostTaskWorker& w) {
  if (w.ctx.leader)
    host_leader_loop(w);
  else
    host_team_follower_loop(w);
}

}  // namespace Kokkos::Impl

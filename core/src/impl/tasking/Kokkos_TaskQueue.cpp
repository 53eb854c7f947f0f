// The host task queue's scheduling decisions and dependence machinery (Kokkos_TaskQueue.hpp
// explains the design): compiled once here rather than in every unit that spawns a task.
#include <impl/tasking/Kokkos_TaskQueue.hpp>

namespace Kokkos::Impl {

TaskQueueBase::TaskQueueBase(int workers, deallocate_type dealloc, int ordered_from)
    : m_deallocate(dealloc),
      m_slot_count(workers + 1),
      m_slots(new Slot[static_cast<size_t>(workers + 1)]),
      m_ordered_from(ordered_from) {}

// ---- blocks and statistics ------------------------------------------------------------------

void TaskQueueBase::return_to_pool(Slot& me, int c, int n) {
  const std::size_t bytes = cache_class_bytes(c);
  for (int i = 0; i < n; ++i) {
    FreeBlock* b = me.cache[c];
    me.cache[c] = b->next;
    m_deallocate(this, b, bytes);
  }
  me.cache_count[c] -= n;
  count_pool_blocks(-n);
}

void TaskQueueBase::count_pool_blocks(long d) {
  const long held = m_pool_blocks.fetch_add(d, std::memory_order_relaxed) + d;
  if (d > 0) {
    long high = m_pool_blocks_max.load(std::memory_order_relaxed);
    while (held > high && !m_pool_blocks_max.compare_exchange_weak(high, held, std::memory_order_relaxed)) {
    }
  }
}

long TaskQueueBase::sum_over_slots(std::atomic<long> Slot::*counter) const {
  long n = 0;
  for (int i = 0; i < m_slot_count; ++i) n += (m_slots[i].*counter).load(std::memory_order_relaxed);
  return n;
}

Experimental::TaskDagStatistics TaskQueueBase::statistics() const {
  Experimental::TaskDagStatistics s;
  s.schedulers = 1;
  s.tasks_spawned = sum_over_slots(&Slot::spawned);
  s.respawns = sum_over_slots(&Slot::respawns);
  s.when_all_aggregates = sum_over_slots(&Slot::aggregates);
  s.steals = sum_over_slots(&Slot::steals);
  s.spawn_failures = sum_over_slots(&Slot::spawn_failures);
  s.pool_high_water = allocation_count_max();
  return s;
}

long TaskQueueBase::allocation_count() const {
  long n = 0;
  for (int i = 0; i < m_slot_count; ++i)
    n += m_slots[i].allocated.load(std::memory_order_relaxed) - m_slots[i].freed.load(std::memory_order_relaxed);
  return n;
}

long TaskQueueBase::incomplete_count() const {
  long n = 0;
  for (int i = 0; i < m_slot_count; ++i)
    n += m_slots[i].spawned.load(std::memory_order_relaxed) - m_slots[i].completed.load(std::memory_order_relaxed);
  return n;
}

bool TaskQueueBase::drop_shared_handle() {
  m_slots[static_cast<size_t>(m_slot_count - 1)].handles.fetch_sub(1, std::memory_order_acq_rel);
  long total = 0;
  for (int i = 0; i < m_slot_count; ++i) total += m_slots[i].handles.load(std::memory_order_acquire);
  if (total > 0) return false;
  if (allocation_count() == 0) return true;
  m_orphaned.store(true, std::memory_order_release);
  return false;
}

void TaskQueueBase::release_trace_holds(TaskBase* a) {
  TaskBase** entries = a->aggregate_entries();
  for (int i = 0; i < a->m_dep_count; ++i) release(entries[i]);
}

// ---- scheduling --------------------------------------------------------------------------

// The level a worker at `level` must raise itself to, given the priorities `seen`: the lowest
// one seen, once that is lower than its level and ordered; else its level.
static int level_to_reach(unsigned seen, int level, int ordered_from) {
  const int lowest = static_cast<int>(std::bit_width(seen)) - 1;
  return lowest > level && lowest >= ordered_from ? lowest : level;
}

// Inlined into every push and pop of this file: its common case is two loads and a compare.
KOKKOS_IMPL_TASK_ALWAYS_INLINE inline int TaskQueueBase::catch_up(Slot& me) {
  const int level = me.public_below.load(std::memory_order_relaxed);
  if (m_leaders == 1) return level;
  const int to = level_to_reach(m_ready_seen.load(std::memory_order_relaxed), level, m_ordered_from);
  if (to != level) raise_level(me, level, to);
  return to;
}

void TaskQueueBase::raise_level(Slot& me, int level, int lowest) {
  for (int p = level; p < lowest; ++p)
    if (!me.local[p].empty()) me.local[p].publish_to(me.ready[p]);
  me.public_below.store(lowest, std::memory_order_release);
}

KOKKOS_IMPL_TASK_ALWAYS_INLINE inline bool TaskQueueBase::higher_ready(int q) const {
  if (q < m_ordered_from) return false;
  const unsigned higher = m_ready_seen.load(std::memory_order_acquire) & ((1u << q) - 1u);
  if (higher == 0 || m_leaders == 1) return false;
  return higher_ready_on_some_worker(q, higher);
}

bool TaskQueueBase::higher_ready_on_some_worker(int q, unsigned higher) const {
  for (int i = 0; i < m_workers; ++i)
    if (m_slots[i].public_below.load(std::memory_order_acquire) < q) return true;
  for (int i = 0; i < m_workers; ++i)
    for (int p = 0; p < q; ++p)
      if ((higher & (1u << p)) != 0 && m_slots[i].ready[p].maybe_nonempty()) return true;
  return false;
}

void TaskQueueBase::publish(Slot& me) {
  for (int p = 0; p < task_priority_count; ++p)
    if (!me.local[p].empty()) me.local[p].publish_to(me.ready[p]);
}

void TaskQueueBase::push_local(Slot& me, TaskBase* t) {
  // Every case but the common one (a task onto a private stack), out of line, so that the common
  // one needs no stack frame in an optimised build: the first task of a priority, a level to
  // raise, an idle worker, a priority kept public.  (A lambda has this member's access.)
  constexpr auto push_any = [](TaskQueueBase& q, Slot& me, TaskBase* t) KOKKOS_IMPL_NOINLINE {
    q.note_ready(t);
    const int level = q.catch_up(me);
    if (q.someone_idle()) {
      q.publish(me);
      me.ready[t->m_priority].push(t);
    } else if (t->m_priority < level) {
      me.ready[t->m_priority].push(t);
    } else if (TaskBase* oldest = me.local[t->m_priority].push(t)) {
      me.ready[t->m_priority].push(oldest);
    }
  };
  // A full stack's oldest task goes public: out of line too, which keeps the common case
  // frameless (a deque push has a call on its growth path).
  constexpr auto publish_evicted = [](TaskDeque& deque, TaskBase* oldest) KOKKOS_IMPL_NOINLINE { deque.push(oldest); };
  const int p = t->m_priority;
  const unsigned seen = m_ready_seen.load(std::memory_order_relaxed);
  const int level = me.public_below.load(std::memory_order_relaxed);
  const bool seen_before = (seen & (1u << p)) != 0;  // note_ready() has nothing to do
  const bool level_current = m_leaders == 1 || level_to_reach(seen, level, m_ordered_from) == level;  // nor catch_up()
  if (!seen_before || !level_current || someone_idle() || p < level) {
    push_any(*this, me, t);
  } else if (TaskBase* oldest = me.local[p].push(t)) {
    publish_evicted(me.ready[p], oldest);
  }
}

void TaskQueueBase::push_from_outside(TaskBase* t) {
  if (m_waiting.load(std::memory_order_relaxed))
    Kokkos::abort("Kokkos::TaskScheduler: a task was spawned from a thread that is not running this scheduler's tasks while wait() runs");
  note_ready(t);
  m_slots[0].ready[t->m_priority].push(t);  // no worker runs: slot 0's deques are free
}

bool TaskQueueBase::advance_aggregate(TaskBase* a) {
  TaskBase** entries = a->aggregate_entries();
  for (int i = a->m_dep_index; i < a->m_dep_count; ++i) {
    TaskBase* e = entries[i];
    if (e->is_complete()) continue;
    a->m_dep_index = i + 1;  // published by the release in try_add_waiter
    if (e->try_add_waiter(a)) return false;
  }
  return true;
}

TaskBase* TaskQueueBase::complete(TaskBase* t, Slot& me) {
  const bool is_task = !t->is_aggregate();
  TaskBase* list = atomic_exchange_seq_cst(&t->m_wait, TaskBase::completed_mark());
  if (is_task) bump(me.completed, 1, true);
  release(t, me);  // the scheduler's hold
  TaskBase* next = nullptr;
  while (list != nullptr) {
    TaskBase* w = list;
    list = w->m_next;
    if (!w->is_aggregate()) {
      if (next == nullptr) {
        next = w;
      } else if (w->m_priority < next->m_priority) {
        push_local(me, next);
        next = w;
      } else {
        push_local(me, w);
      }
    } else if (advance_aggregate(w)) {
      TaskBase* more = atomic_exchange_seq_cst(&w->m_wait, TaskBase::completed_mark());
      TaskBase** entries = w->aggregate_entries();
      for (int i = 0; i < w->m_dep_count; ++i) release(entries[i], me);
      release(w, me);
      while (more != nullptr) {
        TaskBase* n = more->m_next;
        more->m_next = list;
        list = more;
        more = n;
      }
    }
  }
  if (next != nullptr) {
    note_ready(next);
    for (int p = 0; p < next->m_priority; ++p) {
      if (!me.local[p].empty() || me.ready[p].owner_nonempty()) {
        push_local(me, next);
        return nullptr;
      }
    }
    if (higher_ready(next->m_priority)) {
      push_local(me, next);
      return nullptr;
    }
  }
  return next;
}

void TaskQueueBase::complete_new_aggregate(TaskBase* a) {
  atomic_store_seq_cst(&a->m_wait, TaskBase::completed_mark());
  TaskBase** entries = a->aggregate_entries();
  for (int i = 0; i < a->m_dep_count; ++i) release(entries[i]);
  release(a);
}

// ---- the worker loop's view -------------------------------------------------------------------

TaskBase* TaskQueueBase::pop_local(Slot& me) {
  catch_up(me);
  if (someone_idle()) publish(me);
  for (int p = 0; p < task_priority_count; ++p) {
    const bool mine = !me.local[p].empty();
    if (!mine && !me.ready[p].owner_nonempty()) continue;
    if (higher_ready(p)) {
      publish(me);
      return nullptr;
    }
    if (TaskBase* t = mine ? me.local[p].pop() : me.ready[p].pop()) return t;
  }
  return nullptr;
}

TaskBase* TaskQueueBase::steal(int s, int workers) {
  Slot& me = slot(s);
  for (int p = 0; p < task_priority_count; ++p) {
    if (higher_ready(p)) return nullptr;
    for (int k = 1; k <= workers; ++k) {
      const int v = (s + k) % workers;
      if (v == s) continue;
      if (TaskBase* t = slot(v).ready[p].steal()) {
        bump(me.steals, 1, true);
        return t;
      }
    }
  }
  return nullptr;
}

bool TaskQueueBase::any_ready(int workers) const {
  for (int v = 0; v < workers; ++v)
    for (int p = 0; p < task_priority_count; ++p)
      if (m_slots[v].ready[p].maybe_nonempty()) return true;
  return false;
}

void TaskQueueBase::set_workers(int workers, int leaders, int team_size) {
  m_workers = workers;
  m_leaders = leaders;
  for (int i = 0; i < m_slot_count; ++i)
    m_slots[i].public_below.store(i % team_size != 0 ? task_priority_count : 0, std::memory_order_relaxed);
}

void TaskQueueBase::reclaim_deques() {
  for (int i = 0; i < m_slot_count; ++i)
    for (auto& d : m_slots[i].ready) d.reclaim();
}

}  // namespace Kokkos::Impl

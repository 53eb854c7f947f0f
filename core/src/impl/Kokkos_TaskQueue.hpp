#pragma once
// Ready queues and the dependence machinery of the host task scheduler.
//
// Design (chosen over the seed's global LIFO lists per priority, §2.3.3, which serialise every
// worker on three shared heads; see perf_tests/PerfTaskDag.cpp):
//  * every worker owns, per priority, a small private LIFO stack (its 8 newest tasks) and a
//    public Chase-Lev deque (the older ones).  Pushing and popping the private stack costs no
//    atomic instruction and no fence; a push onto a full stack moves the oldest private task to
//    the public deque, where thieves find it even while the owner is busy or descheduled.  As
//    soon as some worker is idle (the active count is below the number of task teams), workers
//    publish their private tasks too at their next push or pop.  Private tasks are always newer
//    than public ones of the same priority, so the owner's order is exactly LIFO per priority
//    (depth-first: memory stays bounded as in a serial run); thieves take the oldest public
//    task (the biggest piece of remaining work);
//  * priorities hold across workers for Low tasks: once a Low task is ready, workers keep no
//    private task (each marks its slot nothing_private), and a Low task starts only when every
//    worker has done so and no deque holds a High or Regular task; the others are stolen
//    first.  Until a Low task exists nothing of this is read, so DAGs without Low tasks (fib)
//    keep the private stacks.  Between High and Regular each worker keeps its local order;
//  * a task whose predecessor is incomplete waits in the predecessor's wait list (a lock-free
//    LIFO through TaskBase::m_next); when a task completes, the completing worker takes its
//    ready waiters: one of them runs next on that worker without being queued at all;
//  * a when_all aggregate waits on one incomplete entry at a time (it has one m_next link)
//    and advances when that entry completes;
//  * statistics, the scheduler handle count and a small cache of freed task blocks are kept per
//    worker slot, so spawning and completing a task touch no cache line shared between workers
//    except the task's own (and the pool's when the cache misses).
#include <Kokkos_Abort.hpp>
#include <impl/Kokkos_TaskBase.hpp>
#include <impl/Kokkos_TaskStatistics.hpp>

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

namespace Kokkos::Impl {

// Chase-Lev work-stealing deque (Lê, Pop, Cohen, Zappa Nardelli 2013), with seq_cst
// operations where the paper uses fences, so ThreadSanitizer understands it.  Arrays replaced
// by growth stay readable by late thieves until the owner calls reclaim() while no one steals.
class TaskDeque {
  struct Array {
    std::int64_t mask;
    std::atomic<TaskBase*>* slots;
    explicit Array(std::int64_t capacity)
        : mask(capacity - 1), slots(new std::atomic<TaskBase*>[static_cast<size_t>(capacity)]) {}
    ~Array() { delete[] slots; }
    std::int64_t capacity() const { return mask + 1; }
    TaskBase* get(std::int64_t i) const { return slots[i & mask].load(std::memory_order_relaxed); }
    void put(std::int64_t i, TaskBase* t) { slots[i & mask].store(t, std::memory_order_relaxed); }
  };

  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<std::int64_t> m_top{0};
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<std::int64_t> m_bottom{0};
  std::atomic<Array*> m_array;
  std::vector<std::unique_ptr<Array>> m_retired;  // owner only
  std::unique_ptr<Array> m_current;

 public:
  explicit TaskDeque(std::int64_t capacity = 64) : m_current(new Array(capacity)) { m_array.store(m_current.get()); }
  TaskDeque(const TaskDeque&) = delete;
  TaskDeque& operator=(const TaskDeque&) = delete;

  // Owner only.
  void push(TaskBase* t) {
    const std::int64_t b = m_bottom.load(std::memory_order_relaxed);
    const std::int64_t top = m_top.load(std::memory_order_acquire);
    Array* a = m_array.load(std::memory_order_relaxed);
    if (b - top > a->mask) a = grow(a, top, b);
    a->put(b, t);
    m_bottom.store(b + 1, std::memory_order_release);
  }

  // Owner only: the most recently pushed task, or null.
  TaskBase* pop() {
    const std::int64_t b = m_bottom.load(std::memory_order_relaxed) - 1;
    Array* a = m_array.load(std::memory_order_relaxed);
    m_bottom.store(b, std::memory_order_seq_cst);
    std::int64_t t = m_top.load(std::memory_order_seq_cst);
    if (t > b) {  // empty
      m_bottom.store(b + 1, std::memory_order_relaxed);
      return nullptr;
    }
    TaskBase* x = a->get(b);
    if (t == b) {  // the last one: race the thieves for it
      if (!m_top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed)) x = nullptr;
      m_bottom.store(b + 1, std::memory_order_relaxed);
    }
    return x;
  }

  // Any thread: the oldest task, or null when empty or when another thief won the race.
  TaskBase* steal() {
    std::int64_t t = m_top.load(std::memory_order_seq_cst);
    const std::int64_t b = m_bottom.load(std::memory_order_seq_cst);
    if (t >= b) return nullptr;
    Array* a = m_array.load(std::memory_order_acquire);
    TaskBase* x = a->get(t);
    if (!m_top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed)) return nullptr;
    return x;
  }

  // Owner only: a cheap hint (thieves only ever shrink the deque).
  bool owner_nonempty() const {
    return m_top.load(std::memory_order_relaxed) < m_bottom.load(std::memory_order_relaxed);
  }

  bool maybe_nonempty() const {
    return m_top.load(std::memory_order_seq_cst) < m_bottom.load(std::memory_order_seq_cst);
  }

  // Owner only, while no thief runs (end of wait): frees arrays replaced by growth.
  void reclaim() { m_retired.clear(); }

 private:
  Array* grow(Array* old, std::int64_t top, std::int64_t bottom) {
    auto bigger = std::make_unique<Array>(old->capacity() * 2);
    for (std::int64_t i = top; i < bottom; ++i) bigger->put(i, old->get(i));
    Array* raw = bigger.get();
    m_retired.push_back(std::move(m_current));
    m_current = std::move(bigger);
    m_array.store(raw, std::memory_order_release);
    return raw;
  }
};

// A worker's newest ready tasks of one priority (owner only, no synchronisation).  It holds at
// most `capacity`: pushing onto a full stack hands back the oldest, which the owner publishes,
// so everything but the few newest (smallest) tasks stays stealable even while the owner is
// busy in a long task or descheduled.
class TaskStack {
 public:
  static constexpr unsigned capacity = 8;

  bool empty() const { return m_size == 0; }
  // Returns the task evicted to make room, or null.
  TaskBase* push(TaskBase* t) {
    TaskBase* evicted = nullptr;
    if (m_size == capacity) {
      evicted = m_tasks[m_oldest];
      m_oldest = (m_oldest + 1) % capacity;
      --m_size;
    }
    m_tasks[(m_oldest + m_size) % capacity] = t;
    ++m_size;
    return evicted;
  }
  TaskBase* pop() {
    --m_size;
    return m_tasks[(m_oldest + m_size) % capacity];
  }
  // Moves every task, oldest first, to `deque` (whose tasks are all older).
  void publish_to(TaskDeque& deque) {
    for (unsigned i = 0; i < m_size; ++i) deque.push(m_tasks[(m_oldest + i) % capacity]);
    m_size = 0;
  }

 private:
  TaskBase* m_tasks[capacity];
  unsigned m_oldest = 0;
  unsigned m_size = 0;
};

// What the current thread is doing for the task DAG: set by the worker loop during wait().
struct TaskWorkerContext {
  TaskQueueBase* queue = nullptr;
  TaskBase* current = nullptr;  // the task whose closure this thread is running
  int slot = 0;                 // this worker's deques and counters
  bool leader = true;           // pops tasks (a team follower only runs its leader's team tasks)
};
inline thread_local TaskWorkerContext* t_task_context = nullptr;

inline TaskWorkerContext* current_task_context() { return t_task_context; }

// The queue proper, independent of the memory pool type.
class TaskQueueBase {
 public:
  using deallocate_type = void (*)(TaskQueueBase*, void*, std::size_t);

  // Counters written by one worker (relaxed load + store, no locked instruction); the slot
  // past the workers is shared by threads outside wait() and uses atomic increments.
  // Freed blocks kept for reuse by the worker that freed them, per block size (2^(min + i)).
  static constexpr int cache_classes = 6;
  struct FreeBlock {
    FreeBlock* next;
  };

  struct alignas(KOKKOS_IMPL_CACHE_LINE) Slot {
    TaskDeque ready[task_priority_count];  // public: thieves steal here
    alignas(KOKKOS_IMPL_CACHE_LINE) TaskStack local[task_priority_count];
    FreeBlock* cache[cache_classes] = {};
    int cache_count[cache_classes] = {};
    alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<long> spawned{0};
    std::atomic<long> completed{0};
    std::atomic<long> allocated{0};
    std::atomic<long> freed{0};
    std::atomic<long> handles{0};  // scheduler handles created minus destroyed here
    alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<long> respawns{0};
    std::atomic<long> aggregates{0};
    std::atomic<long> steals{0};
    std::atomic<long> spawn_failures{0};
    // Set by the owner once it keeps no private task for the rest of the wait() (after a Low
    // task became ready): until every worker has, a Low task may not start.  Its own line:
    // read by other workers only while Low tasks exist.
    alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<bool> nothing_private{false};
  };

 private:
  deallocate_type m_deallocate;
  int m_slot_count;  // workers, plus one slot for every other thread
  std::unique_ptr<Slot[]> m_slots;
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<int> m_active{0};
  int m_leaders = 1;  // task teams of the running wait(); fewer active ones means someone is idle
  int m_workers = 1;  // workers of the running wait()
  // Set once a Low task became ready in this wait(): from then on workers keep no private
  // tasks, so every ready task is stealable and a Low task starts only when no High or Regular
  // one is ready on any worker (seed 001 §2.3.3).  Same cache line as m_active: one read.
  std::atomic<bool> m_low_ready_seen{false};
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<long> m_pool_blocks{0};  // blocks taken from the pool
  std::atomic<long> m_pool_blocks_max{0};
  std::atomic<bool> m_orphaned{false};
  std::atomic<bool> m_waiting{false};

  static void bump(std::atomic<long>& c, long d, bool owner) {
    if (owner)
      c.store(c.load(std::memory_order_relaxed) + d, std::memory_order_relaxed);
    else
      c.fetch_add(d, std::memory_order_relaxed);
  }

 protected:
  TaskQueueBase(int workers, deallocate_type dealloc)
      : m_deallocate(dealloc), m_slot_count(workers + 1), m_slots(new Slot[static_cast<size_t>(workers + 1)]) {}

 public:
  TaskQueueBase(const TaskQueueBase&) = delete;
  TaskQueueBase& operator=(const TaskQueueBase&) = delete;

  int worker_capacity() const { return m_slot_count - 1; }
  Slot& slot(int i) { return m_slots[static_cast<size_t>(i)]; }

  // The calling thread's slot: its worker slot while it runs tasks of this queue, else the
  // shared one.
  int current_slot(bool& owner) const {
    const TaskWorkerContext* ctx = t_task_context;
    owner = ctx != nullptr && ctx->queue == this;
    return owner ? ctx->slot : m_slot_count - 1;
  }

  // ---- statistics ------------------------------------------------------------------------
  void count_allocation(long d) {
    bool owner;
    const int i = current_slot(owner);
    Slot& s = slot(i);
    bump(d > 0 ? s.allocated : s.freed, d > 0 ? d : -d, owner);
  }
  // Pool blocks taken (d = 1) or given back (d = -1).  Only the pool path counts here, never
  // the worker caches' hits, so the shared counter costs nothing on the hot path.
  void count_pool_blocks(long d) {
    const long held = m_pool_blocks.fetch_add(d, std::memory_order_relaxed) + d;
    if (d > 0) {
      long high = m_pool_blocks_max.load(std::memory_order_relaxed);
      while (held > high && !m_pool_blocks_max.compare_exchange_weak(high, held, std::memory_order_relaxed)) {
      }
    }
  }
  // The most pool blocks the scheduler held at once since it was made: tasks and aggregates
  // alive, plus freed blocks a worker kept for reuse (none in pools too small for the worker
  // caches).  What the pool must hold to run the same DAG again.
  long allocation_count_max() const { return m_pool_blocks_max.load(std::memory_order_relaxed); }
  // Sum of one per-slot counter over every slot.
  long sum_over_slots(std::atomic<long> Slot::*counter) const {
    long n = 0;
    for (int i = 0; i < m_slot_count; ++i) n += (m_slots[i].*counter).load(std::memory_order_relaxed);
    return n;
  }
  // Tasks and aggregates allocated since the scheduler was made.
  long allocation_count_accum() const { return sum_over_slots(&Slot::allocated); }
  // This scheduler's statistics; exact whenever no wait() is running.
  Experimental::TaskDagStatistics statistics() const {
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
  void count_event(std::atomic<long> Slot::*counter) {
    bool owner;
    const int i = current_slot(owner);
    bump(slot(i).*counter, 1, owner);
  }
  // Live tasks and aggregates; exact whenever no wait() is running.
  long allocation_count() const {
    long n = 0;
    for (int i = 0; i < m_slot_count; ++i)
      n += m_slots[i].allocated.load(std::memory_order_relaxed) - m_slots[i].freed.load(std::memory_order_relaxed);
    return n;
  }
  // Spawned tasks that have not completed; exact whenever no wait() is running.
  long incomplete_count() const {
    long n = 0;
    for (int i = 0; i < m_slot_count; ++i)
      n += m_slots[i].spawned.load(std::memory_order_relaxed) - m_slots[i].completed.load(std::memory_order_relaxed);
    return n;
  }

  // ---- scheduler handles (shared ownership of the queue) ------------------------------------
  void add_handle() {
    bool owner;
    const int i = current_slot(owner);
    bump(slot(i).handles, 1, owner);
  }
  // True when the caller removed the last handle and no allocation is alive: delete the queue.
  // With allocations alive the queue is orphaned and the last free deletes it.
  bool drop_handle() {
    bool owner;
    const int s = current_slot(owner);
    if (owner) {  // inside a wait(): the handle passed to wait() keeps the queue alive
      bump(slot(s).handles, -1, true);
      return false;
    }
    // Handles made on workers may die on the host and vice versa: only the sum over all slots
    // counts (a loop on the host path only; workers never run it).
    slot(s).handles.fetch_sub(1, std::memory_order_acq_rel);
    long total = 0;
    for (int i = 0; i < m_slot_count; ++i) total += m_slots[i].handles.load(std::memory_order_acquire);
    if (total > 0) return false;
    if (allocation_count() == 0) return true;
    m_orphaned.store(true, std::memory_order_release);
    return false;
  }
  bool orphaned_and_empty() const {
    return m_orphaned.load(std::memory_order_acquire) && allocation_count() == 0;
  }

  // ---- references ----------------------------------------------------------------------
  // Frees a task or aggregate whose last reference is gone; returns true if this emptied an
  // orphaned queue, which the caller (who knows its type) must delete.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE bool free(TaskBase* t) {
    if (t->m_kind != TaskKind::Aggregate) t->m_apply(t, TaskOp::DestroyResult, nullptr);
    else if (KOKKOS_IMPL_UNLIKELY(t->m_trace != 0)) release_trace_holds(t);  // traces only
    const std::size_t bytes = t->m_alloc_size;
    count_allocation(-1);
    m_deallocate(this, t, bytes);
    return orphaned_and_empty();
  }
  // Traces: an aggregate made while a trace ran holds a second reference on each entry, so
  // that the tasks waiting on it can draw arrows from them (impl/Kokkos_HostTaskExec.hpp).
  // Out of line, so that free() stays inlinable into release() (it would be recursive).
  KOKKOS_IMPL_NOINLINE void release_trace_holds(TaskBase* a) {
    TaskBase** entries = a->aggregate_entries();
    for (int i = 0; i < a->m_dep_count; ++i) release(entries[i]);
  }
  // Releases one reference held by the scheduler (never the last owner of the queue itself).
  void release(TaskBase* t) {
    if (t != nullptr && t->drop_ref()) (void)free(t);
  }

  // ---- scheduling ----------------------------------------------------------------------
  // Whether workers must make every ready task stealable: someone is idle, or Low tasks exist
  // and the priority order must hold across workers.
  bool keep_nothing_private() const {
    return m_active.load(std::memory_order_relaxed) < m_leaders || m_low_ready_seen.load(std::memory_order_relaxed);
  }

  static bool is_low(const TaskBase* t) { return t->m_priority == static_cast<std::uint8_t>(TaskPriority::Low); }

  // The first Low task made ready switches the scheduler to public-only ready tasks.
  void note_ready(const TaskBase* t) {
    if (is_low(t) && !m_low_ready_seen.load(std::memory_order_relaxed))
      m_low_ready_seen.store(true, std::memory_order_release);
  }

  // Publishes a worker's private tasks; once Low tasks exist it tells the others that it will
  // keep none (release: its published tasks are visible to whoever reads the mark).
  void publish_all(Slot& me) {
    publish(me);
    if (m_low_ready_seen.load(std::memory_order_relaxed) && !me.nothing_private.load(std::memory_order_relaxed))
      me.nothing_private.store(true, std::memory_order_release);
  }

  // Whether a High or Regular task is ready on some worker: queued in a deque, or possibly in
  // the private stack of a worker that has not yet noticed the Low tasks (it publishes at its
  // next push or pop).  A Low task must not start then (seed 001 §2.3.3: ready queues are
  // ordered by priority for the whole scheduler).  Only Low starts pay for this scan.
  bool higher_than_low_ready() const {
    // No Low task made ready in this wait(): nothing to order (and no other slot is read, so
    // DAGs without Low tasks pay nothing).
    if (!m_low_ready_seen.load(std::memory_order_acquire)) return false;
    for (int i = 0; i < m_workers; ++i)
      if (!m_slots[i].nothing_private.load(std::memory_order_acquire)) return true;
    for (int i = 0; i < m_slot_count; ++i)
      for (int p = 0; p < static_cast<int>(TaskPriority::Low); ++p)
        if (m_slots[i].ready[p].maybe_nonempty()) return true;
    return false;
  }

  // Makes a worker's private tasks stealable.
  static void publish(Slot& me) {
    for (int p = 0; p < task_priority_count; ++p)
      if (!me.local[p].empty()) me.local[p].publish_to(me.ready[p]);
  }

  // A ready task pushed by the leader owning slot `me`.
  void push_local(Slot& me, TaskBase* t) {
    note_ready(t);
    if (keep_nothing_private()) {
      publish_all(me);
      me.ready[t->m_priority].push(t);
    } else if (TaskBase* oldest = me.local[t->m_priority].push(t)) {
      me.ready[t->m_priority].push(oldest);
    }
  }

  void push_ready(TaskBase* t) {
    const TaskWorkerContext* ctx = t_task_context;
    if (ctx != nullptr && ctx->queue == this) {
      Slot& me = slot(ctx->slot);
      if (ctx->leader) {
        push_local(me, t);
      } else {
        note_ready(t);
        me.ready[t->m_priority].push(t);  // leaders steal a follower's tasks
      }
      return;
    }
    if (m_waiting.load(std::memory_order_relaxed))
      Kokkos::abort("Kokkos::TaskScheduler: a task was spawned from a thread that is not running this scheduler's tasks while wait() runs");
    note_ready(t);
    slot(0).ready[t->m_priority].push(t);  // no worker runs: slot 0's deques are free
  }

  // A spawned or respawned task (its dependence reference, if any, in m_dependence).
  void schedule(TaskBase* t) {
    TaskBase* dep = t->m_dependence;
    if (dep != nullptr && dep->try_add_waiter(t)) return;
    push_ready(t);
  }

  void count_spawn() {
    bool owner;
    const int i = current_slot(owner);
    bump(slot(i).spawned, 1, owner);
  }

  // Moves an aggregate to its next incomplete entry; true when every entry is complete.
  bool advance_aggregate(TaskBase* a) {
    TaskBase** entries = a->aggregate_entries();
    for (int i = a->m_dep_index; i < a->m_dep_count; ++i) {
      TaskBase* e = entries[i];
      if (e->is_complete()) continue;
      a->m_dep_index = i + 1;  // published by the release in try_add_waiter
      if (e->try_add_waiter(a)) return false;
    }
    return true;
  }

  // Marks `t` complete and makes its waiters ready, completing aggregates in cascade; called
  // by worker `s`, whose deques receive the ready waiters.  Returns one of them for the worker
  // to run next (saving a push and a pop) when no local task has a higher priority, else null.
  // For a task, the closure has already been destroyed.
  TaskBase* complete(TaskBase* t, int s) {
    const bool is_task = !t->is_aggregate();
    TaskBase* list = Kokkos::atomic_exchange(&t->m_wait, TaskBase::completed_mark());
    Slot& me = slot(s);
    if (is_task) bump(me.completed, 1, true);
    release(t);  // the scheduler's hold
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
        TaskBase* more = Kokkos::atomic_exchange(&w->m_wait, TaskBase::completed_mark());
        TaskBase** entries = w->aggregate_entries();
        for (int i = 0; i < w->m_dep_count; ++i) release(entries[i]);
        release(w);
        while (more != nullptr) {
          TaskBase* n = more->m_next;
          more->m_next = list;
          list = more;
          more = n;
        }
      }
    }
    if (next != nullptr) {
      for (int p = 0; p < next->m_priority; ++p) {
        if (!me.local[p].empty() || me.ready[p].owner_nonempty()) {
          push_local(me, next);
          return nullptr;
        }
      }
      if (is_low(next) && higher_than_low_ready()) {
        push_local(me, next);
        return nullptr;
      }
    }
    return next;
  }

  // An aggregate created with every entry already complete.
  void complete_new_aggregate(TaskBase* a) {
    Kokkos::atomic_store(&a->m_wait, TaskBase::completed_mark());
    TaskBase** entries = a->aggregate_entries();
    for (int i = 0; i < a->m_dep_count; ++i) release(entries[i]);
    release(a);
  }

  // ---- the worker loop's view ---------------------------------------------------------------
  // Low tasks only once no High or Regular task is ready anywhere: the worker steals those
  // first (steal() runs next) or, when they sit unpublished on a busy worker, waits for them.
  TaskBase* pop_local(int s) {
    Slot& me = slot(s);
    if (keep_nothing_private()) publish_all(me);
    constexpr int low = static_cast<int>(TaskPriority::Low);
    for (int p = 0; p < task_priority_count; ++p) {
      if (p == low && higher_than_low_ready()) return nullptr;
      TaskBase* t = nullptr;
      if (!me.local[p].empty())
        t = me.local[p].pop();
      else if (me.ready[p].owner_nonempty())
        t = me.ready[p].pop();
      if (t != nullptr) return t;
    }
    return nullptr;
  }
  // Steals from other slots (the shared slot included), highest priority first.
  TaskBase* steal(int s, int workers) {
    Slot& me = slot(s);
    for (int p = 0; p < task_priority_count; ++p) {
      if (p == static_cast<int>(TaskPriority::Low) && higher_than_low_ready()) return nullptr;
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

  bool any_ready(int workers) const {
    for (int v = 0; v < workers; ++v)
      for (int p = 0; p < task_priority_count; ++p)
        if (m_slots[v].ready[p].maybe_nonempty()) return true;
    return false;
  }
  std::atomic<int>& active_workers() { return m_active; }
  // Called by the waiting host thread before the workers start: `workers` run, `leaders` of
  // them pop tasks; a follower never keeps private tasks.
  void set_workers(int workers, int leaders, int team_size) {
    m_workers = workers;
    m_leaders = leaders;
    for (int i = 0; i < m_slot_count; ++i) m_slots[i].nothing_private.store(i % team_size != 0, std::memory_order_relaxed);
  }
  void set_waiting(bool w) {
    m_waiting.store(w, std::memory_order_relaxed);
    if (!w) m_low_ready_seen.store(false, std::memory_order_relaxed);
  }
  void count_respawn(int s) { bump(slot(s).respawns, 1, true); }
  bool is_waiting() const { return m_waiting.load(std::memory_order_relaxed); }
  void reclaim_deques() {
    for (int i = 0; i < m_slot_count; ++i)
      for (auto& d : m_slots[i].ready) d.reclaim();
  }
};

// The queue with its memory pool.
template <class ExecSpace, class MemoryPool>
class TaskQueue : public TaskQueueBase {
  MemoryPool m_pool;
  unsigned m_min_block_lg2;
  int m_cache_limit;  // blocks kept per worker and block size: 0 in small pools

  // The pool's block size for `bytes`, as an index into a worker's cache (cache_classes: none).
  int cache_class(std::size_t bytes) const {
    const unsigned lg2 = static_cast<unsigned>(std::bit_width(bytes - 1));
    const int c = lg2 > m_min_block_lg2 ? static_cast<int>(lg2 - m_min_block_lg2) : 0;
    return c;
  }

  // A worker returns blocks to its own cache (bounded, so at most 1/32 of the pool waits
  // there); everyone else, and a full cache, returns them to the pool.
  static void deallocate_from_pool(TaskQueueBase* base, void* p, std::size_t bytes) {
    TaskQueue* q = static_cast<TaskQueue*>(base);
    const TaskWorkerContext* ctx = t_task_context;
    if (ctx != nullptr && ctx->queue == q) {
      const int c = q->cache_class(bytes);
      Slot& me = q->slot(ctx->slot);
      if (c < cache_classes && q->m_cache_limit > 0) {
        FreeBlock* b = static_cast<FreeBlock*>(p);
        b->next = me.cache[c];
        me.cache[c] = b;
        if (++me.cache_count[c] > q->m_cache_limit) q->return_to_pool(me, c, me.cache_count[c] / 2);
        return;
      }
    }
    q->m_pool.deallocate(p, bytes);
    q->count_pool_blocks(-1);
  }

  // A full worker cache gives half its blocks back at once, so the shared block count of
  // count_pool_blocks is touched once per batch, not once per freed task.
  void return_to_pool(Slot& me, int c, int n) {
    const std::size_t bytes = std::size_t(1) << (m_min_block_lg2 + static_cast<unsigned>(c));
    for (int i = 0; i < n; ++i) {
      FreeBlock* b = me.cache[c];
      me.cache[c] = b->next;
      m_pool.deallocate(b, bytes);
    }
    me.cache_count[c] -= n;
    count_pool_blocks(-n);
  }


 public:
  using execution_space = ExecSpace;
  using memory_pool = MemoryPool;

  TaskQueue(const ExecSpace& space, const MemoryPool& pool)
      : TaskQueueBase((task_statistics_register_print(), space.impl_thread_pool_size()), &deallocate_from_pool),
        m_pool(pool),
        m_min_block_lg2(pool.capacity() == 0 ? 0u : static_cast<unsigned>(std::bit_width(pool.min_block_size() - 1))) {
    // An empty (default-constructed) pool allocates nothing: every spawn gives a null future.
    const std::size_t per_class =
        pool.capacity() == 0
            ? 0
            : pool.capacity() / (pool.max_block_size() * 64 * static_cast<std::size_t>(worker_capacity() + 1));
    m_cache_limit = per_class > 64 ? 64 : static_cast<int>(per_class);
  }
  ~TaskQueue() {
    if (incomplete_count() != 0)
      Kokkos::abort(
          "Kokkos::TaskScheduler: the last scheduler handle went away with tasks that were spawned but never "
          "executed; call Kokkos::wait(scheduler) first");
    for (int i = 0; i < worker_capacity(); ++i) flush_cache(i);
    task_statistics_fold(statistics());
  }

  MemoryPool& memory() { return m_pool; }

  // The block the pool hands out for `bytes` (what a task or aggregate of that size uses).
  std::size_t allocation_block_size(std::size_t bytes) const { return m_pool.allocate_block_size(bytes); }

  // Pool memory for `bytes`, or null when the pool is full.
  void* allocate(std::size_t bytes) {
    if (m_pool.capacity() == 0) return nullptr;
    if (bytes > m_pool.max_block_size()) {
      Kokkos::abort(
          "Kokkos::TaskScheduler: a task (or when_all aggregate) is larger than the memory pool's largest block; "
          "construct the pool with a larger max_block_size");
    }
    const TaskWorkerContext* ctx = t_task_context;
    if (ctx != nullptr && ctx->queue == this) {
      const int c = cache_class(bytes);
      Slot& me = slot(ctx->slot);
      if (c < cache_classes && me.cache[c] != nullptr) {
        FreeBlock* b = me.cache[c];
        me.cache[c] = b->next;
        --me.cache_count[c];
        count_allocation(1);
        return b;
      }
    }
    void* p = m_pool.allocate(bytes);
    if (p != nullptr) {
      count_pool_blocks(1);
      count_allocation(1);
    }
    return p;
  }

  // Worker `i` (or anyone while no wait() runs) returns its cached blocks to the pool.
  void flush_cache(int i) {
    Slot& s = slot(i);
    for (int c = 0; c < cache_classes; ++c) {
      const std::size_t bytes = std::size_t(1) << (m_min_block_lg2 + static_cast<unsigned>(c));
      while (FreeBlock* b = s.cache[c]) {
        s.cache[c] = b->next;
        m_pool.deallocate(b, bytes);
        count_pool_blocks(-1);
      }
      s.cache_count[c] = 0;
    }
  }

  long allocation_count() const { return TaskQueueBase::allocation_count(); }

  // Drops one reference (a future's); deletes the queue if it was the last thing keeping an
  // orphaned queue alive.
  static void release_reference(TaskBase* t) {
    if (t != nullptr && t->drop_ref()) {
      TaskQueue* q = static_cast<TaskQueue*>(t->m_queue);
      if (q->free(t)) delete q;
    }
  }
};

}  // namespace Kokkos::Impl

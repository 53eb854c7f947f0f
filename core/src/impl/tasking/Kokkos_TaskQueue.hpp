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
//  * priorities hold across workers (seed 001 §2.3.3): a task of priority q >= ordered_from
//    starts only when no task of a higher priority is ready on any worker.  ordered_from is
//    Regular for TaskScheduler and DeprecatedTaskScheduler (every priority ordered
//    scheduler-wide) and Low for the multiple-queue schedulers, whose workers order High and
//    Regular tasks among their own, as Kokkos' per-team queues do (a depth-first High/Regular
//    DAG such as fib otherwise turns steal-heavy and breadth-first).  A bit per priority
//    records which priorities became ready in this wait().  Once the lowest priority seen (the
//    largest value) is an ordered one, a worker publishes its private tasks of every higher
//    priority and raises its level (`public_below`: it keeps no private task above that
//    priority for the rest of the wait(), so thieves and the check below see all of them).
//    Before a task of an ordered priority q starts, if a higher priority was seen, the worker
//    checks that every worker's level is at least q and that no deque holds a higher-priority
//    task; otherwise it steals those first (or, while they sit on a busy worker that has not
//    raised its level, waits for that worker's next push or pop).  A DAG of one priority reads
//    only the bits (one cache line, never written after the first task); one worker (or one
//    task team) never checks.  Guarantee: a task does not start while a higher-priority task
//    is ready whose push happens-before the start's check (for instance one pushed before a
//    flag the starting worker has read); a task made ready concurrently with the check may be
//    missed, and a higher-priority task taken by another worker but not yet entered counts as
//    started;
//  * a task whose predecessor is incomplete waits in the predecessor's wait list (a lock-free
//    LIFO through TaskBase::m_next); when a task completes, the completing worker takes its
//    ready waiters: one of them runs next on that worker without being queued at all;
//  * a when_all aggregate waits on one incomplete entry at a time (it has one m_next link)
//    and advances when that entry completes;
//  * statistics, the scheduler handle count and a small cache of freed task blocks are kept per
//    worker slot, so spawning and completing a task touch no cache line shared between workers
//    except the task's own (and the pool's when the cache misses).
#include <Kokkos_Abort.hpp>
#include <impl/tasking/Kokkos_TaskBase.hpp>
#include <impl/tasking/Kokkos_TaskDeque.hpp>
#include <impl/tasking/Kokkos_TaskStatistics.hpp>

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

namespace Kokkos::Impl {

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

struct TaskQueueSlot;

// What the current thread is doing for the task DAG: set by the worker loop during wait().
struct TaskWorkerContext {
  TaskQueueBase* queue = nullptr;
  TaskBase* current = nullptr;        // the task whose closure this thread is running
  int slot_index = 0;                 // this worker's deques and counters: their index
  TaskQueueSlot* slot = nullptr;      // ... and the slot itself (the hot paths' way in)
  bool leader = true;                 // pops tasks (a team follower only runs its leader's team tasks)
};
inline thread_local TaskWorkerContext* t_task_context = nullptr;

inline TaskWorkerContext* current_task_context() { return t_task_context; }

// Freed blocks kept for reuse by the worker that freed them, per block size (2^(min + i)).
inline constexpr int task_cache_classes = 6;

// One worker's share of a queue: its ready tasks and the counters only it writes (relaxed load
// + store, no locked instruction); the slot past the workers is shared by threads outside
// wait() and uses atomic increments.
struct alignas(KOKKOS_IMPL_CACHE_LINE) TaskQueueSlot {
  struct FreeBlock {
    FreeBlock* next;
  };
  TaskDeque ready[task_priority_count];  // public: thieves steal here
  alignas(KOKKOS_IMPL_CACHE_LINE) TaskStack local[task_priority_count];
  FreeBlock* cache[task_cache_classes] = {};
  int cache_count[task_cache_classes] = {};
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<long> spawned{0};
  std::atomic<long> completed{0};
  std::atomic<long> allocated{0};
  std::atomic<long> freed{0};
  std::atomic<long> handles{0};  // scheduler handles created minus destroyed here
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<long> respawns{0};
  std::atomic<long> aggregates{0};
  std::atomic<long> steals{0};
  std::atomic<long> spawn_failures{0};
  // Raised by the owner (never lowered within a wait()): it keeps no private task of a
  // priority below this value (higher than it) for the rest of the wait(), having published
  // those it had.  Its own line: read by other workers only before starting a task while a
  // higher priority was seen, written at most task_priority_count times per wait().
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<int> public_below{0};
};

// The queue proper, independent of the memory pool type.  What runs once per task operation
// (spawn, allocation, free, reference counts) is inline here; the scheduling decisions and the
// dependence machinery are compiled once, in the library (Kokkos_TaskQueue.cpp).
class TaskQueueBase {
 public:
  // Gives a block back to the memory pool (the derived queue knows the pool's type).
  using deallocate_type = void (*)(TaskQueueBase*, void*, std::size_t);
  using Slot = TaskQueueSlot;
  using FreeBlock = TaskQueueSlot::FreeBlock;
  static constexpr int cache_classes = task_cache_classes;

 private:
  deallocate_type m_deallocate;
  int m_slot_count;  // workers, plus one slot for every other thread
  // The worker caches: block sizes 2^(m_min_block_lg2 + class); at most m_cache_limit blocks
  // per worker and class (0 in pools too small for caches).
  unsigned m_min_block_lg2 = 0;
  int m_cache_limit = 0;
  std::unique_ptr<Slot[]> m_slots;
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<int> m_active{0};
  int m_leaders = 1;  // task teams of the running wait(); fewer active ones means someone is idle
  int m_workers = 1;  // workers of the running wait()
  // Starts of this priority and lower ones wait for every higher-priority ready task on every
  // worker; higher ones follow each worker's own order (see the scheduler kinds).
  const int m_ordered_from;
  // Bit p set once a task of priority p became ready since the last wait() ended (seed 001
  // §2.3.3): decides which priorities workers keep public and which starts check the others.
  // Same cache line as m_active; written once per priority, then only read.
  std::atomic<unsigned> m_ready_seen{0};
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<long> m_pool_blocks{0};  // blocks taken from the pool
  std::atomic<long> m_pool_blocks_max{0};
  std::atomic<bool> m_orphaned{false};
  std::atomic<bool> m_waiting{false};

 protected:
  KOKKOS_IMPL_TASK_ALWAYS_INLINE static void bump(std::atomic<long>& c, long d, bool owner) {
    if (owner)
      c.store(c.load(std::memory_order_relaxed) + d, std::memory_order_relaxed);
    else
      c.fetch_add(d, std::memory_order_relaxed);
  }

  TaskQueueBase(int workers, deallocate_type dealloc, int ordered_from);

  void set_cache_geometry(unsigned min_block_lg2, int cache_limit) {
    m_min_block_lg2 = min_block_lg2;
    m_cache_limit = cache_limit;
  }
  // The pool's block size for `bytes`, as an index into a worker's cache (>= cache_classes: none).
  int cache_class(std::size_t bytes) const {
    const unsigned lg2 = static_cast<unsigned>(std::bit_width(bytes - 1));
    return lg2 > m_min_block_lg2 ? static_cast<int>(lg2 - m_min_block_lg2) : 0;
  }
  std::size_t cache_class_bytes(int c) const { return std::size_t(1) << (m_min_block_lg2 + static_cast<unsigned>(c)); }
  // A full worker cache gives half its blocks back at once, so the shared block count of
  // count_pool_blocks is touched once per batch, not once per freed task.
  void return_to_pool(Slot& me, int c, int n);
  // A block from worker `me`'s cache, or null.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void* take_cached(Slot& me, std::size_t bytes) {
    const int c = cache_class(bytes);
    if (c >= cache_classes || me.cache[c] == nullptr) return nullptr;
    FreeBlock* b = me.cache[c];
    me.cache[c] = b->next;
    --me.cache_count[c];
    return b;
  }

 public:
  TaskQueueBase(const TaskQueueBase&) = delete;
  TaskQueueBase& operator=(const TaskQueueBase&) = delete;

  int worker_capacity() const { return m_slot_count - 1; }
  Slot& slot(int i) { return m_slots[static_cast<size_t>(i)]; }

  // The calling thread's slot: its worker slot while it runs tasks of this queue (`owner`:
  // only this thread writes it), else the shared one.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE Slot& current_slot(bool& owner) {
    const TaskWorkerContext* ctx = t_task_context;
    owner = ctx != nullptr && ctx->queue == this;
    return owner ? *ctx->slot : m_slots[static_cast<size_t>(m_slot_count - 1)];
  }

  // ---- statistics ------------------------------------------------------------------------
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void count_allocated() { count_event(&Slot::allocated); }
  // Pool blocks taken (d = 1) or given back (d = -1).  Only the pool path counts here, never
  // the worker caches' hits, so the shared counter costs nothing on the hot path.
  void count_pool_blocks(long d);
  // The most pool blocks the scheduler held at once since it was made: tasks and aggregates
  // alive, plus freed blocks a worker kept for reuse (none in pools too small for the worker
  // caches).  What the pool must hold to run the same DAG again.
  long allocation_count_max() const { return m_pool_blocks_max.load(std::memory_order_relaxed); }
  // Sum of one per-slot counter over every slot.
  long sum_over_slots(std::atomic<long> Slot::*counter) const;
  // Tasks and aggregates allocated since the scheduler was made.
  long allocation_count_accum() const { return sum_over_slots(&Slot::allocated); }
  // This scheduler's statistics; exact whenever no wait() is running.
  Experimental::TaskDagStatistics statistics() const;
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void count_event(std::atomic<long> Slot::*counter) {
    bool owner;
    Slot& me = current_slot(owner);
    bump(me.*counter, 1, owner);
  }
  // Live tasks and aggregates; exact whenever no wait() is running.
  long allocation_count() const;
  // Spawned tasks that have not completed; exact whenever no wait() is running.
  long incomplete_count() const;

  // ---- scheduler handles (shared ownership of the queue) ------------------------------------
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void add_handle() { count_event(&Slot::handles); }
  // True when the caller removed the last handle and no allocation is alive: delete the queue.
  // With allocations alive the queue is orphaned and the last free deletes it.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE bool drop_handle() {
    bool owner;
    Slot& me = current_slot(owner);
    if (owner) {  // inside a wait(): the handle passed to wait() keeps the queue alive
      bump(me.handles, -1, true);
      return false;
    }
    return drop_shared_handle();
  }
  // Handles made on workers may die on the host and vice versa: only the sum over all slots
  // counts (a loop on the host path only; workers never run it).
  bool drop_shared_handle();
  bool orphaned_and_empty() const {
    return m_orphaned.load(std::memory_order_acquire) && allocation_count() == 0;
  }

  // ---- references ----------------------------------------------------------------------
  // Frees a task or aggregate whose last reference is gone; returns true if this emptied an
  // orphaned queue, which the caller (who knows its type) must delete.
  // A worker keeps the block in its own cache (bounded, so at most 1/32 of the pool waits
  // there); everyone else, and a full cache, gives it back to the pool.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE bool free(TaskBase* t) {
    destroy_contents(t);
    bool owner;
    Slot& me = current_slot(owner);
    return free_block(t, me, owner);
  }
  // The same by the worker owning slot `worker`.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void free(TaskBase* t, Slot& worker) {
    destroy_contents(t);
    (void)free_block(t, worker, true);
  }
  // A task's result (if it has a destructor); the extra references of a traced aggregate.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void destroy_contents(TaskBase* t) {
    if (t->m_flags & TaskBase::flag_destroys_result) t->m_apply(t, TaskOp::DestroyResult, nullptr);
    else if (KOKKOS_IMPL_UNLIKELY(t->m_trace != 0) && t->m_kind == TaskKind::Aggregate) release_trace_holds(t);  // traces only
  }
  // The block, to the cache of slot `me` (`owner`: the calling worker's own) or the pool.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE bool free_block(TaskBase* t, Slot& me, bool owner) {
    const std::size_t bytes = t->m_alloc_size;
    bump(me.freed, 1, owner);
    const int c = cache_class(bytes);
    if (owner && c < cache_classes && m_cache_limit > 0) {
      FreeBlock* b = reinterpret_cast<FreeBlock*>(t);
      b->next = me.cache[c];
      me.cache[c] = b;
      if (KOKKOS_IMPL_UNLIKELY(++me.cache_count[c] > m_cache_limit)) return_to_pool(me, c, me.cache_count[c] / 2);
      return false;  // a worker runs inside wait(), whose handle keeps the queue alive
    }
    m_deallocate(this, t, bytes);
    count_pool_blocks(-1);
    return orphaned_and_empty();
  }
  // Traces: an aggregate made while a trace ran holds a second reference on each entry, so
  // that the tasks waiting on it can draw arrows from them (Host/Kokkos_HostTaskWorkerLoop.cpp).
  void release_trace_holds(TaskBase* a);
  // Releases one reference held by the scheduler (never the last owner of the queue itself).
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void release(TaskBase* t) {
    if (t != nullptr && t->drop_ref()) (void)free(t);
  }
  // The same by the worker owning slot `worker` (inside wait(), whose handle keeps the queue).
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void release(TaskBase* t, Slot& worker) {
    if (t != nullptr && t->drop_ref()) free(t, worker);
  }

  // ---- scheduling ----------------------------------------------------------------------
  // Whether some task team is idle: workers then make every ready task stealable.
  bool someone_idle() const { return m_active.load(std::memory_order_relaxed) < m_leaders; }

  // Records t's priority as seen in this wait(): a load, and a write only for the first task
  // of each priority (release: orders the bit before t's push, which follows).
  void note_ready(const TaskBase* t) {
    const unsigned bit = 1u << t->m_priority;
    if ((m_ready_seen.load(std::memory_order_relaxed) & bit) == 0) m_ready_seen.fetch_or(bit, std::memory_order_release);
  }

  // A ready task pushed by the leader owning slot `me`.
  void push_local(Slot& me, TaskBase* t);

  // A ready task pushed by the worker whose context is `ctx` (its queue is this one).
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void push_ready(const TaskWorkerContext& ctx, TaskBase* t) {
    if (ctx.leader) {
      push_local(*ctx.slot, t);
    } else {
      note_ready(t);
      ctx.slot->ready[t->m_priority].push(t);  // leaders steal a follower's tasks
    }
  }
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void push_ready(TaskBase* t) {
    const TaskWorkerContext* ctx = t_task_context;
    if (ctx != nullptr && ctx->queue == this)
      push_ready(*ctx, t);
    else
      push_from_outside(t);
  }
  // A task made ready by a thread that runs no task of this queue (before wait()).
  void push_from_outside(TaskBase* t);

  // A spawned or respawned task (its dependence reference, if any, in m_dependence).
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void schedule(TaskBase* t) {
    TaskBase* dep = t->m_dependence;
    if (dep != nullptr && dep->try_add_waiter(t)) return;
    push_ready(t);
  }
  // The same from the worker whose context is `ctx` (a task spawning: its slot is known).
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void schedule(TaskBase* t, const TaskWorkerContext& ctx) {
    TaskBase* dep = t->m_dependence;
    if (dep != nullptr && dep->try_add_waiter(t)) return;
    push_ready(ctx, t);
  }

  KOKKOS_IMPL_TASK_ALWAYS_INLINE void count_spawn() { count_event(&Slot::spawned); }
  // A when_all aggregate made by the thread whose slot is `me` (`owner`: see current_slot).
  KOKKOS_IMPL_TASK_ALWAYS_INLINE static void count_aggregate(Slot& me, bool owner) { bump(me.aggregates, 1, owner); }
  KOKKOS_IMPL_TASK_ALWAYS_INLINE static void count_spawn(Slot& worker) { bump(worker.spawned, 1, true); }

  // Moves an aggregate to its next incomplete entry; true when every entry is complete.
  bool advance_aggregate(TaskBase* a);

  // Marks `t` complete and makes its waiters ready, completing aggregates in cascade; called
  // by the worker owning slot `me`, whose deques receive the ready waiters.  Returns one of
  // them for the worker to run next (saving a push and a pop) when no local task has a higher
  // priority, else null.  For a task, the closure has already been destroyed.
  TaskBase* complete(TaskBase* t, Slot& me);

  // An aggregate created with every entry already complete.
  void complete_new_aggregate(TaskBase* a);

  // ---- the worker loop's view ---------------------------------------------------------------
  // A local task of priority q only while no higher-priority task is ready anywhere: the
  // worker steals those first (steal() runs next) or, when they sit unpublished on a busy
  // worker, waits for them.  A worker that returns null keeps no private task: it may go idle
  // next, and the end of wait() (no worker active, every deque empty) must not strand any.
  TaskBase* pop_local(Slot& me);
  // Steals for worker `s` from other slots (the shared slot included), highest priority first.
  TaskBase* steal(int s, int workers);

  bool any_ready(int workers) const;
  std::atomic<int>& active_workers() { return m_active; }
  // Called by the waiting host thread before the workers start: `workers` run, `leaders` of
  // them pop tasks; a follower never keeps private tasks.
  void set_workers(int workers, int leaders, int team_size);
  void set_waiting(bool w) {
    m_waiting.store(w, std::memory_order_relaxed);
    if (!w) m_ready_seen.store(0, std::memory_order_relaxed);
  }
  static void count_respawn(Slot& me) { bump(me.respawns, 1, true); }
  bool is_waiting() const { return m_waiting.load(std::memory_order_relaxed); }
  void reclaim_deques();

 private:
  // Brings worker `me`'s level up to the lowest priority seen, once that is one whose starts
  // are checked (m_ordered_from or lower): it publishes its private tasks of every higher
  // priority and promises to keep none for the rest of the wait() (release: whoever reads the
  // level sees the published tasks in the deques).  Returns the level.  One task team orders
  // its tasks alone: its leader keeps level 0.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE inline int catch_up(Slot& me);  // defined in Kokkos_TaskQueue.cpp, used only there
  // Its rare part: publishes the private tasks of priorities [level, lowest) and raises the level.
  KOKKOS_IMPL_NOINLINE void raise_level(Slot& me, int level, int lowest);

  // Whether a task of a priority higher than `q` (a smaller value) may be ready on some worker:
  // in a deque, or in the private stack of a worker whose level is still below q (it raises it
  // at its next push or pop).  A task of priority q must not start then (seed 001 §2.3.3).
  // Nothing but the seen bits is read unless a higher priority was seen in this wait().
  KOKKOS_IMPL_TASK_ALWAYS_INLINE inline bool higher_ready(int q) const;  // the same
  // Its scan of the workers, once a higher priority was seen.
  bool higher_ready_on_some_worker(int q, unsigned higher) const;

  // Makes a worker's private tasks stealable (out of line: only while some worker is idle).
  KOKKOS_IMPL_NOINLINE static void publish(Slot& me);
};

// The queue with its memory pool.
template <class ExecSpace, class MemoryPool>
class TaskQueue : public TaskQueueBase {
  MemoryPool m_pool;

  static void deallocate_to_pool(TaskQueueBase* base, void* p, std::size_t bytes) {
    static_cast<TaskQueue*>(base)->m_pool.deallocate(p, bytes);
  }

  // The pool path of allocate(): its checks, and the shared block count.
  KOKKOS_IMPL_NOINLINE void* allocate_from_pool(std::size_t bytes) {
    if (m_pool.capacity() == 0) return nullptr;
    if (bytes > m_pool.max_block_size()) {
      Kokkos::abort(
          "Kokkos::TaskScheduler: a task (or when_all aggregate) is larger than the memory pool's largest block; "
          "construct the pool with a larger max_block_size");
    }
    void* p = m_pool.allocate(bytes);
    if (p != nullptr) {
      count_pool_blocks(1);
      count_allocated();
    }
    return p;
  }


 public:
  using execution_space = ExecSpace;
  using memory_pool = MemoryPool;

  // `ordered_from`: the highest priority whose starts wait for higher-priority tasks ready on
  // other workers (TaskPriority::Regular: every priority is ordered scheduler-wide).
  TaskQueue(const ExecSpace& space, const MemoryPool& pool, TaskPriority ordered_from)
      : TaskQueueBase((task_statistics_register_print(), space.impl_thread_pool_size()), &deallocate_to_pool,
                      static_cast<int>(ordered_from)),
        m_pool(pool) {
    // An empty (default-constructed) pool allocates nothing: every spawn gives a null future.
    const std::size_t per_class =
        pool.capacity() == 0
            ? 0
            : pool.capacity() / (pool.max_block_size() * 64 * static_cast<std::size_t>(worker_capacity() + 1));
    set_cache_geometry(pool.capacity() == 0 ? 0u : static_cast<unsigned>(std::bit_width(pool.min_block_size() - 1)),
                       per_class > 64 ? 64 : static_cast<int>(per_class));
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

  // Pool memory for `bytes`, or null when the pool is full.  A worker's cache holds only blocks
  // of sizes the pool has handed out, so a request too large for the pool (which aborts on the
  // pool path) never finds one there.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void* allocate(std::size_t bytes) {
    const TaskWorkerContext* ctx = t_task_context;
    if (ctx != nullptr && ctx->queue == this) return allocate(*ctx->slot, bytes);
    return allocate_from_pool(bytes);
  }
  // The same for the worker owning slot `worker`.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void* allocate(Slot& worker, std::size_t bytes) {
    if (void* b = take_cached(worker, bytes)) {
      bump(worker.allocated, 1, true);
      return b;
    }
    return allocate_from_pool(bytes);
  }

  // Worker `i` (or anyone while no wait() runs) returns its cached blocks to the pool.
  void flush_cache(int i) {
    Slot& s = slot(i);
    for (int c = 0; c < cache_classes; ++c) {
      if (s.cache_count[c] > 0) return_to_pool(s, c, s.cache_count[c]);
    }
  }

  long allocation_count() const { return TaskQueueBase::allocation_count(); }

  // Drops one reference (a future's); deletes the queue if it was the last thing keeping an
  // orphaned queue alive.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE static void release_reference(TaskBase* t) {
    if (t != nullptr && t->drop_ref()) free_last(t);
  }
  KOKKOS_IMPL_NOINLINE static void free_last(TaskBase* t) {
    TaskQueue* q = static_cast<TaskQueue*>(t->m_queue);
    if (q->free(t)) delete q;
  }
};

}  // namespace Kokkos::Impl

#pragma once
// The task queue of the GPU scheduler (seed 001 §2.3.3), written once against Kokkos atomics
// so that host threads run and test the very algorithm the CUDA kernel runs.
//
// Memory: the tasks and the when_all aggregates are pool blocks: those host code makes from the
// queue's pool, those its workers make from the worker pool where the owner set one (device
// memory on a GPU, which host code never touches), else from the same pool; the ready rings and
// the shard counters are arrays the owner allocates (device memory on a GPU) and hands over with
// DeviceTaskQueueStorage; the queue object itself holds what the host reads between runs, and
// the pool blocks host code allocated or freed since the owner last asked (HostWrittenSpans,
// recorded and read on the host only).  Otherwise no std:: containers, only raw pointers and
// atomics, so every function below is callable on the device.
//
// Workers and shards: a worker (a GPU warp; a host thread in the tests) runs a batch of ready
// tasks at a time (up to 32 on a warp, one per lane) and has a home shard (its SM).  What its
// tasks make ready (spawned children, waiters released by a completion, respawns) goes into its
// DeviceTaskStage, a small buffer in fast memory (shared memory on a GPU), and at the batch's
// end into its home shard's ring of each priority, one reservation per priority
// (Kokkos_DeviceReadyRing.hpp).  A full stage or a full ring sends the task on directly: to the
// next shards' rings, and at last to a locked list of the priority (the overflow list), which
// keeps the queue unbounded as the pool is the only bound.
//
// Taking work (claim_ready): priority by priority from High to Low, the home ring, then up to
// steal_window other shards' rings, then the overflow list; a worker that finds nothing at any
// priority that way scans every ring before it looks at termination.  Priorities are
// scheduler-wide to that extent: a worker takes a lower priority only when its home and the
// window of shards it looked at have none of a higher one.
//
// Counting without a global hot spot: each shard counts its spawns, completions, allocations,
// frees and refused allocations (DeviceTaskShardCounters); a spawn is counted in its shard at
// once (before anyone can reach the task), the rest per batch from the stage.  The queue is
// finished when the completions equal the spawns: finished() sums every shard's completions and
// then every shard's spawns, which, both being monotonic and a task's spawn being counted
// before its completion can be, is exact when it says finished.  The count of blocks alive and
// its high-water mark are global, updated once per batch from the stage's net allocations:
// allocation_count_max() is the most alive as the batches reported it (it can exceed the true
// peak by blocks freed in batches not yet reported).  The statistics (respawns, aggregates,
// steals) and where the workers' time went (batches, task executions, the time from a claim to
// the end of its last task, by the worker's clock) add up in the stage over a worker's whole run
// and go into its shard when it stops.
//
// Idle workers and cycles: Kokkos_DeviceTaskIdleWorkers.hpp (m_idle).  The queue wakes counted
// workers for the tasks it makes ready (push_ready, report_counts), as many as those tasks can
// keep busy (claims_for: a worker per TaskTeam task, one per claim of TaskSingle ones), and tells
// whether any task is ready (any_ready), which they look at when woken; while every worker that
// has started is counted and tasks are left, they wait on each other (a dependence cycle), and the
// workers stop.  Workers
// that share fast memory may wait for one of them instead of looking themselves
// (Kokkos_DeviceTaskWorkerGroup.hpp); they count themselves idle while they wait.
//
// Wait lists: TaskBase::m_wait of a task or aggregate, pushed with TaskBase::try_add_waiter and
// swapped for TaskBase::completed_mark() at completion (the same protocol as the host queue).
//
// The result of a task must be trivially destructible: a future released on the host may free
// a task whose functions are device code (the scheduler checks this at compile time).
#include <Kokkos_Atomic.hpp>
#include <Kokkos_Macros.hpp>
#include <Kokkos_TaskDagStatistics.hpp>
#include <impl/memory_pool/Kokkos_MemoryPoolLanes.hpp>
#include <impl/tasking/Kokkos_DeviceReadyRing.hpp>
#include <impl/tasking/Kokkos_DeviceTaskIdleWorkers.hpp>
#include <impl/tasking/Kokkos_HostWrittenSpans.hpp>
#include <impl/tasking/Kokkos_TaskBase.hpp>

#include <cstddef>
#include <cstdint>
#include <thread>
#include <type_traits>
#include <utility>

namespace Kokkos::Impl {

// A task of the device queue: the header, the result at the fixed offset TaskResult gives, and
// the closure.  Its apply function is host-device code, so the same node runs in a host test
// (a host pointer) and in a CUDA kernel (a device pointer taken in device code, or read from a
// __device__ variable of the spawning translation unit).
template <class Functor, class Value, class Member>
struct DeviceTaskNode final : TaskResult<Value> {
  static_assert(std::is_void_v<Value> || std::is_trivially_destructible_v<Value>,
                "Kokkos::TaskScheduler (device queue): a task's value_type must be trivially destructible, "
                "because the last future may free the task on the host, where the task's device functions "
                "cannot run");
  union {
    Functor m_functor;  // a union member: its lifetime ends at completion, not at free
  };

  template <class F>
  KOKKOS_INLINE_FUNCTION explicit DeviceTaskNode(F&& f) {
    ::new (static_cast<void*>(&m_functor)) Functor(static_cast<F&&>(f));
  }
  KOKKOS_INLINE_FUNCTION ~DeviceTaskNode() {}

  KOKKOS_INLINE_FUNCTION static void apply(TaskBase* base, TaskOp op, void* member) {
    DeviceTaskNode* self = static_cast<DeviceTaskNode*>(base);
    if (op == TaskOp::Run) {
      invoke_task_functor<Value>(self->m_functor, *static_cast<Member*>(member), self);
    } else if (op == TaskOp::DestroyClosure) {
      self->m_functor.~Functor();
    }
  }
};

using DeviceTaskRing = DeviceReadyRing<TaskBase>;

// What one shard counted (monotonic, except by the owner between runs).  The first six keep the
// queue going; the rest are its statistics and where its workers' time went, which each worker
// reports once, when it stops.
struct alignas(DeviceTaskRing::line_bytes) DeviceTaskShardCounters {
  std::int64_t spawned = 0;    // tasks spawned by its workers
  std::int64_t completed = 0;  // tasks its workers completed
  std::int64_t allocated = 0;  // tasks and aggregates its workers allocated
  std::int64_t freed = 0;      // blocks its workers gave back
  std::int64_t failures = 0;   // allocations the pool refused its workers
  std::int64_t handles = 0;    // the owner's count of handles copied and dropped here (it may go below 0)
  std::int64_t respawns = 0;   // respawn requests that took effect
  std::int64_t aggregates = 0;  // when_all aggregates allocated
  std::int64_t steals = 0;      // tasks its workers claimed from another shard's ring
  std::int64_t batches = 0;     // claims its workers ran
  std::int64_t tasks_run = 0;   // task executions in them (a respawned task runs again)
  std::int64_t team_tasks_run = 0;  // the TaskTeam ones among them
  std::int64_t run_ns = 0;      // worker time from a claim to the end of its last task (a worker's clock)

  KOKKOS_INLINE_FUNCTION DeviceTaskShardCounters& operator+=(const DeviceTaskShardCounters& o) {
    spawned += o.spawned;
    completed += o.completed;
    allocated += o.allocated;
    freed += o.freed;
    failures += o.failures;
    handles += o.handles;
    respawns += o.respawns;
    aggregates += o.aggregates;
    steals += o.steals;
    batches += o.batches;
    tasks_run += o.tasks_run;
    team_tasks_run += o.team_tasks_run;
    run_ns += o.run_ns;
    return *this;
  }
};

// A worker's buffer of tasks made ready and counts not yet reported, in the worker's fast
// memory (no initialisers: a GPU keeps it in shared memory; reset() starts it).  The lanes of a
// warp add to it at once, hence the atomics.
struct DeviceTaskStage {
  static constexpr int capacity = 128;
  std::int32_t shard;  // the worker's home shard
  std::int32_t size;   // staged tasks (above capacity: the excess went on directly)
  std::int32_t completed;
  std::int32_t allocated;
  std::int32_t freed;
  std::int32_t failures;
  // The statistics, over the worker's whole run (reported once, at its end).
  std::int64_t respawns;
  std::int64_t aggregates;
  std::int64_t steals;
  std::int64_t batches;
  std::int64_t tasks_run;
  std::int64_t team_tasks_run;
  std::int64_t run_ns;
  TaskBase* tasks[capacity];

  KOKKOS_INLINE_FUNCTION void reset(std::int32_t home) {
    shard = home;
    size = completed = allocated = freed = failures = 0;
    clear_statistics();
  }
  KOKKOS_INLINE_FUNCTION void clear_statistics() {
    respawns = aggregates = steals = batches = tasks_run = team_tasks_run = run_ns = 0;
  }
  // A batch the worker ran (by one of its lanes): `tasks` executions, `team_tasks` of them
  // TaskTeam, claimed from another shard's ring if `stolen`, `ns` from the claim to its end.
  KOKKOS_INLINE_FUNCTION void note_batch(std::int64_t tasks, std::int64_t team_tasks, bool stolen, std::int64_t ns) {
    batches += 1;
    tasks_run += tasks;
    team_tasks_run += team_tasks;
    if (stolen) steals += tasks;
    run_ns += ns;
  }
  KOKKOS_INLINE_FUNCTION bool try_add(TaskBase* t) {
    const std::int32_t i = atomic_fetch_add_relaxed(&size, 1);
    if (i >= capacity) return false;
    tasks[i] = t;
    return true;
  }
  KOKKOS_INLINE_FUNCTION std::int32_t staged() const { return size < capacity ? size : capacity; }
};

// The arrays a queue works on, allocated by its owner: rings[priority * shards + shard] (their
// slots `ring_capacity` entries each, null-initialised) and counters[shard] (zeroed).
struct DeviceTaskQueueStorage {
  DeviceTaskRing* rings = nullptr;
  TaskBase** slots = nullptr;  // task_priority_count * shards * ring_capacity entries
  DeviceTaskShardCounters* counters = nullptr;
  std::int32_t shards = 1;
  std::uint32_t ring_capacity = 1024;  // a power of two

  static std::size_t slot_count(std::int32_t shards, std::uint32_t ring_capacity) {
    return static_cast<std::size_t>(task_priority_count) * static_cast<std::size_t>(shards) * ring_capacity;
  }
};

// A claim of ready tasks: `count` tickets from `first` of `ring`, or one task of an overflow
// list (`ring` null, `single` the task), or nothing.  `stolen`: the ring is another shard's.
struct DeviceTaskClaim {
  DeviceTaskRing* ring = nullptr;
  std::uint32_t first = 0;
  std::int32_t count = 0;
  TaskBase* single = nullptr;
  bool stolen = false;
};

// `Context::stage()`: the running worker's stage, or null outside a worker (host code);
// `Context::rings_reachable()`: whether the code running can reach the rings (host code of a GPU
// scheduler cannot: what it makes ready goes onto the overflow lists, in the queue object).
template <class MemoryPoolType, class Context, class WorkerPoolType = MemoryPoolType>
struct DeviceTaskQueue {
  using memory_pool = MemoryPoolType;
  using worker_pool_type = WorkerPoolType;
  // The TaskBase::m_flags bit of a block of m_worker_pool (deallocate's way back to it).
  static constexpr std::uint8_t flag_worker_block = 4;
  static_assert((flag_worker_block & (TaskBase::flag_respawned | TaskBase::flag_destroys_result)) == 0,
                "the worker pool's flag must not share a bit with TaskBase's own flags");
  using ring_type = DeviceTaskRing;
  static constexpr std::size_t line_bytes = DeviceTaskRing::line_bytes;
  // Other shards' rings a worker looks at, at each priority, before it takes a lower one.
  static constexpr int steal_window = 32;
  struct alignas(line_bytes) OverflowHead {
    TaskBase* task = nullptr;
  };

  memory_pool m_pool;                  // read only while workers run
  worker_pool_type m_worker_pool;      // the workers' blocks, where not empty (set_worker_pool)
  std::uint32_t m_stop = 0;            // nonzero: workers stop (the value says why; see the owner)
  std::uint32_t m_stop_detail = 0;
  DeviceTaskQueueStorage m_storage;
  OverflowHead m_overflow[task_priority_count];
  alignas(line_bytes) std::int64_t m_alive = 0;  // blocks alive, as the batches reported them
  std::int64_t m_alive_max = 0;
  alignas(line_bytes) std::int32_t m_handles = 0;  // scheduler handles (the owner decides what one is)
  DeviceTaskIdleWorkers m_idle;  // reset by the owner's m_idle.begin_run() before each run
  // What host code did (no worker): spawns, allocations, frees, refusals.
  std::int64_t m_host_spawned = 0;
  std::int64_t m_host_allocated = 0;
  std::int64_t m_host_freed = 0;
  std::int64_t m_host_failures = 0;
  std::int64_t m_host_completed = 0;
  std::int64_t m_host_respawns = 0;
  std::int64_t m_host_aggregates = 0;
  // The pool blocks host code allocated or freed since the owner last took them (the GPU
  // scheduler moves them to the GPU before its workers start).
  HostWrittenSpans m_host_written;

  // `storage`: rings and counters for storage.shards shards, set up by init_storage.
  DeviceTaskQueue(const memory_pool& pool, const DeviceTaskQueueStorage& storage) : m_pool(pool), m_storage(storage) {}

  // Sets the rings of `storage` up in `rings_here` (constructed rings the caller can write, a
  // copy of storage.rings or that array itself; slots and counters zeroed by the caller).
  static void init_rings(const DeviceTaskQueueStorage& storage, DeviceTaskRing* rings_here) {
    const std::int32_t n = task_priority_count * storage.shards;
    for (std::int32_t r = 0; r < n; ++r)
      rings_here[r] = DeviceTaskRing(storage.slots + static_cast<std::size_t>(r) * storage.ring_capacity,
                                     storage.ring_capacity);
  }

  KOKKOS_FORCEINLINE_FUNCTION static TaskBase* lock_mark() {
    return reinterpret_cast<TaskBase*>(~std::uintptr_t(0) - 1);
  }
  KOKKOS_FORCEINLINE_FUNCTION TaskQueueBase* as_owner() {
    return reinterpret_cast<TaskQueueBase*>(this);  // TaskBase::m_queue is an opaque owner pointer here
  }
  KOKKOS_FORCEINLINE_FUNCTION static DeviceTaskQueue* queue_of(const TaskBase* t) {
    return reinterpret_cast<DeviceTaskQueue*>(t->m_queue);
  }
  KOKKOS_INLINE_FUNCTION std::int32_t shards() const { return m_storage.shards; }
  KOKKOS_INLINE_FUNCTION DeviceTaskRing& ring(int priority, int shard) const {
    return m_storage.rings[priority * m_storage.shards + shard];
  }
  KOKKOS_INLINE_FUNCTION DeviceTaskShardCounters& counters(int shard) const { return m_storage.counters[shard]; }

  // ---- memory ------------------------------------------------------------------------------
  // Where workers allocate from now on: `pool`, or, empty, the queue's pool.  On the host between
  // runs, and only while no block is alive (a block goes back to the pool it came from, which
  // must still be there): false, changing nothing, otherwise.
  bool set_worker_pool(const worker_pool_type& pool) {
    if (m_alive != 0) return false;
    m_worker_pool = pool;
    return true;
  }
  // Whether the code running allocates from the worker pool: a worker, where there is one.
  KOKKOS_INLINE_FUNCTION bool worker_allocates() const {
    return Context::stage() != nullptr && m_worker_pool.capacity() != 0;
  }
  template <class Pool>
  KOKKOS_INLINE_FUNCTION static void* allocate_from(const Pool& pool, std::size_t bytes) {
    return bytes <= pool.max_block_size() ? pool.allocate(bytes) : nullptr;
  }
  // A block of `bytes`, or nullptr (counted as a refusal) when its pool is full.  The caller
  // builds the node in it and then calls init_task (or it is begin_aggregate's), in the same
  // code, which marks a worker pool's block.
  KOKKOS_INLINE_FUNCTION void* allocate(std::size_t bytes) {
    void* p = worker_allocates() ? allocate_from(m_worker_pool, bytes) : allocate_from(m_pool, bytes);
    DeviceTaskStage* stage = Context::stage();
    if (stage != nullptr) {
      atomic_fetch_add_relaxed(p != nullptr ? &stage->allocated : &stage->failures, 1);
    } else if (p != nullptr) {
      atomic_fetch_add_relaxed(&m_host_allocated, std::int64_t(1));
      report_alive(1);
      KOKKOS_IF_ON_HOST((m_host_written.record(p, bytes);))
    } else {
      atomic_fetch_add_relaxed(&m_host_failures, std::int64_t(1));
    }
    return p;
  }
  KOKKOS_INLINE_FUNCTION void mark_block(TaskBase* t) const {
    if (worker_allocates()) t->m_flags |= flag_worker_block;
  }
  KOKKOS_INLINE_FUNCTION void deallocate(TaskBase* t) {
    const bool worker_block = (t->m_flags & flag_worker_block) != 0;
    // Reported before the block goes back: after, another worker's allocation of the same
    // block could be reported first and the count exceed the pool's blocks.
    DeviceTaskStage* stage = Context::stage();
    if (stage != nullptr) {
      atomic_fetch_add_relaxed(&stage->freed, 1);
    } else {
      atomic_fetch_add_relaxed(&m_host_freed, std::int64_t(1));
      report_alive(-1);
      // Only the queue's pool is the owner's to place (host code that frees a worker block can
      // reach the worker pool's memory where it is).
      if (!worker_block) {
        KOKKOS_IF_ON_HOST((m_host_written.record(t, t->m_alloc_size);))
      }
    }
    if (worker_block) {
      m_worker_pool.deallocate(t, t->m_alloc_size);
    } else {
      m_pool.deallocate(t, t->m_alloc_size);
    }
  }
  // One more of a statistic: in the running worker's stage (reported when the worker stops),
  // else in the host's count.
  KOKKOS_INLINE_FUNCTION void count_one(std::int64_t DeviceTaskStage::*in_stage,
                                        std::int64_t DeviceTaskQueue::*on_host) {
    DeviceTaskStage* stage = Context::stage();
    if (stage != nullptr) {
      atomic_fetch_add_relaxed(&(stage->*in_stage), std::int64_t(1));
    } else {
      atomic_fetch_add_relaxed(&(this->*on_host), std::int64_t(1));
    }
  }
  KOKKOS_INLINE_FUNCTION void report_alive(std::int64_t delta) {
    const std::int64_t now = atomic_fetch_add_relaxed(&m_alive, delta) + delta;
    if (now > atomic_load_relaxed(&m_alive_max)) Kokkos::atomic_max(&m_alive_max, now);
  }

  // Tasks and aggregates alive now, and the statistics below (exact when no worker runs; a
  // back end whose counters live where the host cannot read them sums them itself).
  KOKKOS_INLINE_FUNCTION std::int64_t allocation_count() const { return m_alive; }
  KOKKOS_INLINE_FUNCTION std::int64_t allocation_count_max() const { return m_alive_max; }
  KOKKOS_INLINE_FUNCTION std::int64_t allocation_count_accum() const {
    std::int64_t n = m_host_allocated;
    for (int s = 0; s < shards(); ++s) n += counters(s).allocated;
    return n;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t spawn_failures() const {
    std::int64_t n = m_host_failures;
    for (int s = 0; s < shards(); ++s) n += counters(s).failures;
    return n;
  }
  // What host code counted, as a shard's counters (their handles are the owner's business).
  DeviceTaskShardCounters host_counts() const {
    DeviceTaskShardCounters c;
    c.spawned = m_host_spawned;
    c.completed = m_host_completed;
    c.allocated = m_host_allocated;
    c.freed = m_host_freed;
    c.failures = m_host_failures;
    c.respawns = m_host_respawns;
    c.aggregates = m_host_aggregates;
    return c;
  }
  // Every shard's counts and the host's, where the counters are host memory (a back end whose
  // counters are not copies them first and sums with host_counts() itself).
  DeviceTaskShardCounters totals() const {
    DeviceTaskShardCounters total = host_counts();
    for (int s = 0; s < shards(); ++s) total += counters(s);
    return total;
  }
  // The statistics of Kokkos_TaskDagStatistics.hpp from such totals.
  Experimental::TaskDagStatistics statistics_of(const DeviceTaskShardCounters& total) const {
    Experimental::TaskDagStatistics st;
    st.schedulers = 1;
    st.tasks_spawned = total.spawned;
    st.respawns = total.respawns;
    st.when_all_aggregates = total.aggregates;
    st.steals = total.steals;
    st.spawn_failures = total.failures;
    st.pool_high_water = allocation_count_max();
    return st;
  }
  Experimental::TaskDagStatistics statistics() const { return statistics_of(totals()); }

  // ---- construction of tasks and aggregates --------------------------------------------------
  // Fills the header of a freshly constructed node; `dependence` is an adopted reference.
  KOKKOS_INLINE_FUNCTION void init_task(TaskBase* t, std::uint32_t bytes, TaskKind kind, TaskPriority priority,
                                        TaskBase* dependence) {
    t->m_queue = as_owner();
    t->m_alloc_size = bytes;
    t->m_kind = kind;
    t->m_priority = static_cast<std::uint8_t>(priority);
    t->m_ref_count = 2;  // the future returned + the scheduler until completion
    t->m_dependence = dependence;
    mark_block(t);
  }

  // Schedules a newly spawned task (header filled by init_task).  Counted before anyone can
  // reach it (see finished()).
  KOKKOS_INLINE_FUNCTION void spawn(TaskBase* t) {
    DeviceTaskStage* stage = Context::stage();
    atomic_fetch_add_relaxed(stage != nullptr ? &counters(stage->shard).spawned : &m_host_spawned, std::int64_t(1));
    schedule(t);
  }

  // An aggregate over `n` entries, or nullptr when the pool is full.  The caller appends the
  // entries (each with a reference added) and then calls finish_aggregate.
  KOKKOS_INLINE_FUNCTION TaskBase* begin_aggregate(int n) {
    const std::size_t bytes = aggregate_bytes(n);
    void* p = allocate(bytes);
    if (p == nullptr) return nullptr;
    count_one(&DeviceTaskStage::aggregates, &DeviceTaskQueue::m_host_aggregates);
    TaskBase* a = ::new (p) TaskBase();
    a->m_queue = as_owner();
    a->m_alloc_size = static_cast<std::uint32_t>(bytes);
    a->m_kind = TaskKind::Aggregate;
    a->m_ref_count = 2;  // the future returned + the scheduler until completion
    mark_block(a);
    return a;
  }
  KOKKOS_INLINE_FUNCTION static void add_aggregate_entry(TaskBase* a, TaskBase* entry) {
    entry->add_ref();
    a->aggregate_entries()[a->m_dep_count++] = entry;
  }
  // The aggregate's future (one reference), or nullptr when it has no entry (then it is freed).
  KOKKOS_INLINE_FUNCTION TaskBase* finish_aggregate(TaskBase* a) {
    if (a->m_dep_count == 0) {
      a->m_ref_count = 1;
      release_reference(a);
      return nullptr;
    }
    Kokkos::memory_fence();  // the entries are written before any worker can reach the aggregate
    if (advance_aggregate(a)) complete_aggregates(a);
    return a;
  }
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t aggregate_bytes(int n) {
    return sizeof(TaskBase) + static_cast<std::size_t>(n < 0 ? 0 : n) * sizeof(TaskBase*);
  }

  // ---- making tasks ready -------------------------------------------------------------------
  // Into the running worker's stage, else on directly.
  KOKKOS_INLINE_FUNCTION void push_ready(TaskBase* t) {
    DeviceTaskStage* stage = Context::stage();
    if (stage != nullptr && stage->try_add(t)) return;
    if (stage == nullptr && !Context::rings_reachable()) {
      push_overflow(t);
    } else {
      push_direct(t, stage != nullptr ? stage->shard : 0);
    }
    m_idle.wake(1);
  }
  // Into the first ring from `shard` on with room, else onto the overflow list.
  KOKKOS_INLINE_FUNCTION void push_direct(TaskBase* t, int shard) {
    for (int k = 0; k < shards(); ++k) {
      if (ring(t->m_priority, (shard + k) % shards()).push(&t, 1)) return;
    }
    push_overflow(t);
  }
  // How many workers `teams` TaskTeam and `singles` TaskSingle ready tasks of one priority can keep
  // busy, where a claim takes up to `claim_width` tasks of one ring: each TaskTeam task keeps a
  // worker whole (a claim keeps one and hands the others back while workers are idle), the
  // TaskSingle ones run a claim's worth at once.  The wake tokens of a push: a token per task would
  // wake up to claim_width workers for one claim's tasks, all but one of which would look at every
  // ring, find nothing, and count themselves idle again.
  KOKKOS_INLINE_FUNCTION static std::int32_t claims_for(std::int32_t teams, std::int32_t singles,
                                                        std::int32_t claim_width) {
    return teams + (singles + claim_width - 1) / claim_width;
  }

  // The stage's tasks into its home rings (one reservation per priority; what does not fit goes
  // on directly), then its counts, waking idle workers for the claims of `claim_width` the tasks
  // make.  By the worker alone (a GPU warp has its own version with lanes, DeviceTaskQueue's users
  // keep the order: tasks first, completions after).
  KOKKOS_INLINE_FUNCTION void flush_stage(DeviceTaskStage& stage, std::int32_t claim_width) {
    const std::int32_t n = stage.staged();
    // Every priority and kind is read before the first push: a pushed task may run and be freed
    // at once.
    std::int32_t want[task_priority_count] = {};
    std::int32_t teams[task_priority_count] = {};
    for (std::int32_t i = 0; i < n; ++i) {
      ++want[stage.tasks[i]->m_priority];
      if (stage.tasks[i]->m_kind == TaskKind::Team) ++teams[stage.tasks[i]->m_priority];
    }
    std::int32_t claims = 0;
    for (int p = 0; p < task_priority_count; ++p) claims += claims_for(teams[p], want[p] - teams[p], claim_width);
    std::uint32_t ticket[task_priority_count] = {};
    bool reserved[task_priority_count] = {};
    for (int p = 0; p < task_priority_count; ++p)
      reserved[p] = want[p] > 0 && ring(p, stage.shard).reserve_push(want[p], ticket[p]);
    for (std::int32_t i = 0; i < n; ++i) {
      TaskBase* t = stage.tasks[i];
      const int p = t->m_priority;
      if (reserved[p]) {
        ring(p, stage.shard).put(ticket[p]++, t);
      } else {
        push_direct(t, stage.shard);
      }
    }
    stage.size = 0;
    report_counts(stage, claims);
  }
  // The stage's counts into its shard and the alive count, after its tasks are pushed: idle
  // workers are woken for the `claims` they make (claims_for; none when nothing was pushed), and
  // a completion must not be seen before the pushes it made.
  KOKKOS_INLINE_FUNCTION void report_counts(DeviceTaskStage& stage, std::int32_t claims) {
    DeviceTaskShardCounters& c = counters(stage.shard);
    if (stage.allocated != 0) atomic_fetch_add_relaxed(&c.allocated, std::int64_t(stage.allocated));
    if (stage.freed != 0) atomic_fetch_add_relaxed(&c.freed, std::int64_t(stage.freed));
    if (stage.failures != 0) atomic_fetch_add_relaxed(&c.failures, std::int64_t(stage.failures));
    if (stage.allocated != stage.freed) report_alive(std::int64_t(stage.allocated) - stage.freed);
    if (claims > 0) {
      m_idle.wake(claims);  // its fence orders the pushes before the completions too
    } else if (stage.completed != 0) {
      Kokkos::memory_fence();
    }
    if (stage.completed != 0) atomic_fetch_add_relaxed(&c.completed, std::int64_t(stage.completed));
    stage.completed = stage.allocated = stage.freed = stage.failures = 0;
  }
  // The stage's statistics into its shard, once, when its worker stops: nothing waits on them,
  // so they cost no atomic per batch.
  KOKKOS_INLINE_FUNCTION void report_statistics(DeviceTaskStage& stage) {
    DeviceTaskShardCounters& c = counters(stage.shard);
    const auto add = [](std::int64_t& to, std::int64_t& from) {
      if (from != 0) atomic_fetch_add_relaxed(&to, from);
      from = 0;
    };
    add(c.respawns, stage.respawns);
    add(c.aggregates, stage.aggregates);
    add(c.steals, stage.steals);
    add(c.batches, stage.batches);
    add(c.tasks_run, stage.tasks_run);
    add(c.team_tasks_run, stage.team_tasks_run);
    add(c.run_ns, stage.run_ns);
  }

  // ---- overflow lists ---------------------------------------------------------------------------
  // A push is one CAS; a pop locks the head (CAS to lock_mark()), reads the head's m_next and
  // stores it: the lock makes the read of m_next safe against the ABA of a plain Treiber pop (the
  // popped task may be completed, freed and reallocated by another worker meanwhile).
  KOKKOS_INLINE_FUNCTION void push_overflow(TaskBase* t) {
    TaskBase** head = &m_overflow[t->m_priority].task;
    unsigned pause_ns = 0;
    while (true) {
      TaskBase* h = Impl::atomic_load_relaxed(head);  // never dereferenced here
      if (h == lock_mark()) {
        DeviceTaskRing::wait_a_little(pause_ns);
        continue;
      }
      t->m_next = h;
      if (Impl::atomic_compare_exchange_weak_acq_rel(head, h, t)) return;
    }
  }
  KOKKOS_INLINE_FUNCTION TaskBase* pop_overflow(int priority) {
    TaskBase** head = &m_overflow[priority].task;
    unsigned pause_ns = 0;
    while (true) {
      TaskBase* h = Impl::atomic_load_relaxed(head);
      if (h == nullptr) return nullptr;
      if (h == lock_mark()) {
        DeviceTaskRing::wait_a_little(pause_ns);
        continue;
      }
      if (Impl::atomic_compare_exchange_weak_acq_rel(head, h, lock_mark())) {
        TaskBase* next = h->m_next;
        Impl::atomic_store_release(head, next);
        h->m_next = nullptr;
        return h;
      }
    }
  }

  // ---- taking work --------------------------------------------------------------------------------
  // Up to `want` ready tasks for a worker of shard `home`, in the order the header describes
  // (a GPU warp runs its own version, its lanes looking at 32 shards at once).
  KOKKOS_INLINE_FUNCTION DeviceTaskClaim claim_ready(int home, std::int32_t want) {
    DeviceTaskClaim c;
    for (int p = 0; p < task_priority_count; ++p) {
      const int window = shards() - 1 < steal_window ? shards() - 1 : steal_window;
      if (claim_at(p, home, window, want, c)) return c;
    }
    for (int p = 0; p < task_priority_count; ++p) {
      if (claim_at(p, home, shards() - 1, want, c)) return c;
    }
    return c;
  }
  // From the home ring of priority p, the `window` shards after it, or p's overflow list.
  KOKKOS_INLINE_FUNCTION bool claim_at(int p, int home, int window, std::int32_t want, DeviceTaskClaim& c) {
    for (int k = 0; k <= window; ++k) {
      DeviceTaskRing& r = ring(p, (home + k) % shards());
      if (r.size() > 0 && (c.count = r.reserve_pop(want, c.first)) > 0) {
        c.ring = &r;
        c.stolen = k != 0;
        return true;
      }
    }
    c.single = pop_overflow(p);
    return c.single != nullptr;
  }
  // One ready task for a caller outside the workers' loop (tests), or nullptr.
  KOKKOS_INLINE_FUNCTION TaskBase* pop_ready(int home = 0) {
    const DeviceTaskClaim c = claim_ready(home, 1);
    return c.count > 0 || c.single != nullptr ? take(c, 0) : nullptr;
  }
  // The task of a claim's i-th ticket (i < count), or its single task.
  KOKKOS_INLINE_FUNCTION static TaskBase* take(const DeviceTaskClaim& c, std::int32_t i) {
    return c.ring != nullptr ? c.ring->take(c.first + static_cast<std::uint32_t>(i)) : c.single;
  }

  // ---- TaskTeam tasks of one claim ------------------------------------------------------------------
  // A TaskTeam task keeps its worker whole, so the TaskTeam tasks of one claim run one after the
  // other.  While workers sit idle that is the wrong way round: the first runs here and the
  // others go back into the home rings (through the stage, which the caller flushes before it
  // runs anything) for the idle workers to take.  While none is idle they stay: every worker is
  // busy, and pushing them back would only add ring traffic.  This form takes the claim's
  // tasks[0, n), in claim order, for a worker that runs them one by one (a GPU warp has its own,
  // with ballots), and returns how many stay, in order, in tasks[0, result).
  KOKKOS_INLINE_FUNCTION int hand_back_extra_teams(TaskBase** tasks, int n) {
    int teams = 0;
    for (int i = 0; i < n; ++i) teams += tasks[i]->m_kind == TaskKind::Team ? 1 : 0;
    if (teams < 2 || !m_idle.any_counted()) return n;
    int kept = 0;
    bool team_kept = false;
    for (int i = 0; i < n; ++i) {
      TaskBase* t = tasks[i];
      if (t->m_kind == TaskKind::Team) {
        if (team_kept) {
          push_ready(t);
          continue;
        }
        team_kept = true;
      }
      tasks[kept++] = t;
    }
    return kept;
  }

  // Every spawned task has completed.  Completions first, spawns after: both only grow, and a
  // task's spawn is counted before its completion can be, so equal sums read in that order
  // mean that at the moment between them nothing was left (and nothing can spawn any more).
  KOKKOS_INLINE_FUNCTION bool finished() const {
    std::int64_t completed = atomic_load_relaxed(const_cast<std::int64_t*>(&m_host_completed));
    for (int s = 0; s < shards(); ++s) completed += atomic_load_relaxed(&counters(s).completed);
    Kokkos::memory_fence();
    std::int64_t spawned = atomic_load_relaxed(const_cast<std::int64_t*>(&m_host_spawned));
    for (int s = 0; s < shards(); ++s) spawned += atomic_load_relaxed(&counters(s).spawned);
    return completed == spawned;
  }
  // ---- what idle workers look at (Kokkos_DeviceTaskIdleWorkers.hpp) --------------------------------
  // Whether any ring or overflow list holds a ready task: a look, nothing is claimed.
  KOKKOS_INLINE_FUNCTION bool any_ready() const {
    for (int p = 0; p < task_priority_count; ++p) {
      for (int s = 0; s < shards(); ++s) {
        if (ring(p, s).size() > 0) return true;
      }
      if (overflow_nonempty(p)) return true;
    }
    return false;
  }
  KOKKOS_INLINE_FUNCTION bool overflow_nonempty(int priority) const {
    return atomic_load_relaxed(const_cast<TaskBase**>(&m_overflow[priority].task)) != nullptr;
  }

  KOKKOS_INLINE_FUNCTION bool stopped() const {
    return Impl::atomic_load_relaxed(const_cast<std::uint32_t*>(&m_stop)) != 0;
  }
  // Asks every worker to stop; the first reason given wins.
  KOKKOS_INLINE_FUNCTION void stop(std::uint32_t reason, std::uint32_t detail) {
    if (atomic_compare_exchange_seq_cst(&m_stop_detail, 0u, detail) == 0u) Impl::atomic_store_release(&m_stop, reason);
  }

  // ---- dependences ----------------------------------------------------------------------------
  // A task (new or respawned) waits for its dependence or becomes ready.
  KOKKOS_INLINE_FUNCTION void schedule(TaskBase* t) {
    TaskBase* dep = t->m_dependence;
    if (dep != nullptr) {
      if (dep->try_add_waiter(t)) return;
      t->m_dependence = nullptr;  // already complete: the dependence is met
      release_reference(dep);
    }
    push_ready(t);
  }

  // Moves an aggregate past its complete entries; false when it now waits on an entry.
  KOKKOS_INLINE_FUNCTION static bool advance_aggregate(TaskBase* a) {
    TaskBase** entries = a->aggregate_entries();
    while (a->m_dep_index < a->m_dep_count) {
      if (entries[a->m_dep_index]->try_add_waiter(a)) return false;
      ++a->m_dep_index;
    }
    return true;
  }

  // Completes `t` (a task whose closure is destroyed, or an aggregate that advanced to its end)
  // and, without recursion, every aggregate that completes in turn; waiting tasks become ready.
  // A completed task is counted in the worker's stage (reported after the pushes it made), or at
  // once where no worker runs it.
  KOKKOS_INLINE_FUNCTION void complete_aggregates(TaskBase* first) {
    TaskBase* done = first;  // completed entities whose waiters are still to release
    first->m_next = nullptr;
    while (done != nullptr) {
      TaskBase* c = done;
      done = c->m_next;
      c->m_next = nullptr;
      Kokkos::memory_fence();  // the result and the closure's effects before the completed mark
      TaskBase* w = atomic_exchange_seq_cst(&c->m_wait, TaskBase::completed_mark());
      while (w != nullptr) {
        TaskBase* next = w->m_next;
        w->m_next = nullptr;
        if (w->is_aggregate()) {
          ++w->m_dep_index;
          if (advance_aggregate(w)) {
            w->m_next = done;
            done = w;
          }
        } else {
          push_ready(w);
        }
        w = next;
      }
      const bool is_task = !c->is_aggregate();
      release_reference(c);  // the scheduler's hold
      if (is_task) count_completion();
    }
  }
  KOKKOS_INLINE_FUNCTION void count_completion() {
    DeviceTaskStage* stage = Context::stage();
    if (stage != nullptr) {
      atomic_fetch_add_relaxed(&stage->completed, 1);
    } else {
      // A task run outside the workers' loop (tests).
      Kokkos::memory_fence();
      atomic_fetch_add_relaxed(&m_host_completed, std::int64_t(1));
    }
  }

  // ---- execution ----------------------------------------------------------------------------------
  // Before a popped task runs: its met dependence is released.
  KOKKOS_INLINE_FUNCTION static void begin_execution(TaskBase* t) {
    TaskBase* dep = t->m_dependence;
    t->m_dependence = nullptr;
    t->m_respawn = 0;
    release_reference(dep);
  }
  // After a task ran: respawned behind its new dependence, or its closure destroyed (through
  // `destroy_closure(t)`, which the caller makes with a pointer valid where it runs) and it
  // completes.
  template <class DestroyClosure>
  KOKKOS_INLINE_FUNCTION void end_execution(TaskBase* t, DestroyClosure&& destroy_closure) {
    if (t->m_respawn != 0) {
      count_one(&DeviceTaskStage::respawns, &DeviceTaskQueue::m_host_respawns);
      t->m_respawn = 0;
      t->m_flags |= TaskBase::flag_respawned;
      Kokkos::memory_fence();  // the closure's new state before another worker can run it
      schedule(t);
    } else {
      destroy_closure(t);
      complete_aggregates(t);
    }
  }
  // respawn(): records the request of the running task `t`; false when it was already made.
  KOKKOS_INLINE_FUNCTION static bool request_respawn(TaskBase* t, TaskPriority priority, TaskBase* dependence) {
    if (atomic_exchange_seq_cst(&t->m_respawn, std::uint8_t(1)) != 0) return false;
    t->m_priority = static_cast<std::uint8_t>(priority);
    t->m_dependence = dependence;
    return true;
  }

  // ---- references ------------------------------------------------------------------------------
  // Drops one reference; frees what it held last, aggregates' entries included, without
  // recursion (the freed entities are chained through m_next, which no list uses any more).
  KOKKOS_INLINE_FUNCTION static void release_reference(TaskBase* t) {
    if (t == nullptr || !t->drop_ref()) return;
    TaskBase* dead = t;
    t->m_next = nullptr;
    while (dead != nullptr) {
      TaskBase* x = dead;
      dead = x->m_next;
      if (x->is_aggregate()) {
        TaskBase** entries = x->aggregate_entries();
        for (int i = 0; i < x->m_dep_count; ++i) {
          if (entries[i]->drop_ref()) {
            entries[i]->m_next = dead;
            dead = entries[i];
          }
        }
      }
      queue_of(x)->deallocate(x);
    }
  }
};

}  // namespace Kokkos::Impl

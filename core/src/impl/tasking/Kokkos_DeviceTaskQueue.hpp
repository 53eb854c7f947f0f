#pragma once
// The task queue of the GPU scheduler (seed 001 §2.3.3), written once against Kokkos atomics
// so that host threads run and test the very algorithm the CUDA kernel runs.
//
// Everything lives in memory the pool reaches: the queue object itself (allocated by its
// owner in memory both sides can reach, e.g. CudaUVMSpace), the tasks and the when_all
// aggregates (pool blocks).  No allocation beyond the pool, no std:: containers, only raw
// pointers and atomics, so every function below is callable on the device.
//
// Ready queues: per priority, ready_shards LIFO linked lists, each head a TaskBase* on a cache
// line of its own.  A worker pushes onto the list of its lane (Impl::memory_pool_thread_lane:
// the warp on a GPU, a leased lane on the host) and pops from it first, then from the others in
// turn, priority by priority from High to Low.  One list per priority served every worker of a
// GPU (thousands of warps) through one locked head, at well under a million pops a second; a
// worker's own list also keeps its children close at hand, depth first, which bounds the live
// tasks as one LIFO list did.  A push is one CAS.  A pop locks the head (CAS to lock_mark()),
// reads the head's m_next, and stores it: the lock makes the read of m_next safe against the
// ABA of a plain Treiber pop (the popped task may be completed, freed and reallocated by
// another worker before a plain CAS would land).  A worker that meets a locked head backs off
// (a short sleep on a GPU, a yield on the host) instead of re-reading it at once.
//
// Wait lists: TaskBase::m_wait of a task or aggregate, pushed with TaskBase::try_add_waiter and
// swapped for TaskBase::completed_mark() at completion (the same protocol as the host queue).
//
// Termination: m_incomplete counts tasks spawned and not yet complete (ready, waiting or
// running); aggregates are not counted, since a waiting aggregate always waits on a counted
// task.  A worker that finds every ready queue empty and m_incomplete == 0 is done.
//
// The result of a task must be trivially destructible: a future released on the host may free
// a task whose functions are device code (the scheduler checks this at compile time).
#include <Kokkos_Atomic.hpp>
#include <Kokkos_Macros.hpp>
#include <impl/memory_pool/Kokkos_MemoryPoolLanes.hpp>
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

template <class MemoryPoolType>
struct DeviceTaskQueue {
  using memory_pool = MemoryPoolType;
  static constexpr int ready_shards = 16;  // ready lists per priority
  // The line of a GPU's L2 (twice the host's): words written by different workers sit on
  // different lines, so that one's atomics do not queue behind another's.
  static constexpr std::size_t line_bytes = 128;
  struct alignas(line_bytes) ReadyHead {
    TaskBase* task = nullptr;
  };

  memory_pool m_pool;                  // read only while workers run
  std::uint32_t m_stop = 0;            // nonzero: workers stop (the value says why; see the owner)
  std::uint32_t m_stop_detail = 0;
  ReadyHead m_ready[task_priority_count][ready_shards];
  alignas(line_bytes) std::int32_t m_incomplete = 0;  // spawned tasks not yet complete
  alignas(line_bytes) std::int32_t m_handles = 0;     // scheduler handles (the owner decides what one is)
  std::int32_t m_allocated = 0;        // tasks and aggregates alive now
  std::int32_t m_allocated_max = 0;    // the most alive at once
  std::int64_t m_allocated_accum = 0;  // allocations so far
  std::int32_t m_spawn_failures = 0;   // allocations the pool refused

  explicit DeviceTaskQueue(const memory_pool& pool) : m_pool(pool) {}

  KOKKOS_FORCEINLINE_FUNCTION static TaskBase* lock_mark() {
    return reinterpret_cast<TaskBase*>(~std::uintptr_t(0) - 1);
  }
  KOKKOS_FORCEINLINE_FUNCTION TaskQueueBase* as_owner() {
    return reinterpret_cast<TaskQueueBase*>(this);  // TaskBase::m_queue is an opaque owner pointer here
  }
  KOKKOS_FORCEINLINE_FUNCTION static DeviceTaskQueue* queue_of(const TaskBase* t) {
    return reinterpret_cast<DeviceTaskQueue*>(t->m_queue);
  }

  // ---- memory ------------------------------------------------------------------------------
  // A block of `bytes` from the pool, or nullptr (counted as a spawn failure) when it is full.
  KOKKOS_INLINE_FUNCTION void* allocate(std::size_t bytes) {
    void* p = bytes <= m_pool.max_block_size() ? m_pool.allocate(bytes) : nullptr;
    if (p == nullptr) {
      Kokkos::atomic_inc(&m_spawn_failures);
      return nullptr;
    }
    const std::int32_t now = Kokkos::atomic_fetch_add(&m_allocated, 1) + 1;
    Kokkos::atomic_max(&m_allocated_max, now);
    Kokkos::atomic_inc(&m_allocated_accum);
    return p;
  }
  // Uncounted before the block goes back: counted after, another worker's allocation of the
  // same block could make the count exceed the pool's blocks.
  KOKKOS_INLINE_FUNCTION void deallocate(TaskBase* t) {
    Kokkos::atomic_dec(&m_allocated);
    m_pool.deallocate(t, t->m_alloc_size);
  }

  // Tasks and aggregates alive now (exact when no worker runs).
  KOKKOS_INLINE_FUNCTION std::int32_t allocation_count() const { return m_allocated; }
  KOKKOS_INLINE_FUNCTION std::int32_t allocation_count_max() const { return m_allocated_max; }
  KOKKOS_INLINE_FUNCTION std::int64_t allocation_count_accum() const { return m_allocated_accum; }
  KOKKOS_INLINE_FUNCTION std::int32_t spawn_failures() const { return m_spawn_failures; }

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
  }

  // Schedules a newly spawned task (header filled by init_task).
  KOKKOS_INLINE_FUNCTION void spawn(TaskBase* t) {
    Kokkos::atomic_inc(&m_incomplete);
    schedule(t);
  }

  // An aggregate over `n` entries, or nullptr when the pool is full.  The caller appends the
  // entries (each with a reference added) and then calls finish_aggregate.
  KOKKOS_INLINE_FUNCTION TaskBase* begin_aggregate(int n) {
    const std::size_t bytes = aggregate_bytes(n);
    void* p = allocate(bytes);
    if (p == nullptr) return nullptr;
    TaskBase* a = ::new (p) TaskBase();
    a->m_queue = as_owner();
    a->m_alloc_size = static_cast<std::uint32_t>(bytes);
    a->m_kind = TaskKind::Aggregate;
    a->m_ref_count = 2;  // the future returned + the scheduler until completion
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

  // ---- ready queues -----------------------------------------------------------------------------
  KOKKOS_INLINE_FUNCTION static int home_shard() {
    return static_cast<int>(Impl::memory_pool_thread_lane() % std::uint32_t(ready_shards));
  }
  // Waits a little after meeting a locked head; `pause_ns` (start at 0) grows with each call.
  KOKKOS_INLINE_FUNCTION static void back_off(unsigned& pause_ns) {
    pause_ns = pause_ns == 0 ? 32 : (pause_ns < 1024 ? 2 * pause_ns : pause_ns);
    KOKKOS_IF_ON_DEVICE((__nanosleep(pause_ns);))
    KOKKOS_IF_ON_HOST((std::this_thread::yield();))  // the lock holder may be a thread that lost its core
  }
  KOKKOS_INLINE_FUNCTION void push_ready(TaskBase* t) {
    TaskBase** head = &m_ready[t->m_priority][home_shard()].task;
    unsigned pause_ns = 0;
    while (true) {
      TaskBase* h = Impl::atomic_load_relaxed(head);  // never dereferenced here
      if (h == lock_mark()) {
        back_off(pause_ns);
        continue;
      }
      t->m_next = h;
      if (Impl::atomic_compare_exchange_weak_acq_rel(head, h, t)) return;
    }
  }
  // The first ready task from High to Low (the worker's own list first at each priority), or
  // nullptr when every list is empty.
  KOKKOS_INLINE_FUNCTION TaskBase* pop_ready() {
    const int home = home_shard();
    for (int p = 0; p < task_priority_count; ++p) {
      for (int k = 0; k < ready_shards; ++k) {
        TaskBase* const t = pop_from(&m_ready[p][(home + k) % ready_shards].task);
        if (t != nullptr) return t;
      }
    }
    return nullptr;
  }
  // The head is read relaxed: only the CAS that locks it must acquire (on a GPU an acquire load
  // costs a fence, and an idle worker reads every head in turn).
  KOKKOS_INLINE_FUNCTION static TaskBase* pop_from(TaskBase** head) {
    unsigned pause_ns = 0;
    while (true) {
      TaskBase* h = Impl::atomic_load_relaxed(head);
      if (h == nullptr) return nullptr;
      if (h == lock_mark()) {
        back_off(pause_ns);
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
  KOKKOS_INLINE_FUNCTION bool finished() const {
    return Impl::atomic_load_acquire(const_cast<std::int32_t*>(&m_incomplete)) == 0;
  }
  KOKKOS_INLINE_FUNCTION bool stopped() const {
    return Impl::atomic_load_relaxed(const_cast<std::uint32_t*>(&m_stop)) != 0;
  }
  // Asks every worker to stop; the first reason given wins.
  KOKKOS_INLINE_FUNCTION void stop(std::uint32_t reason, std::uint32_t detail) {
    if (Kokkos::atomic_compare_exchange(&m_stop_detail, 0u, detail) == 0u) Impl::atomic_store_release(&m_stop, reason);
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
  KOKKOS_INLINE_FUNCTION void complete_aggregates(TaskBase* first) {
    TaskBase* done = first;  // completed entities whose waiters are still to release
    first->m_next = nullptr;
    while (done != nullptr) {
      TaskBase* c = done;
      done = c->m_next;
      c->m_next = nullptr;
      Kokkos::memory_fence();  // the result and the closure's effects before the completed mark
      TaskBase* w = Kokkos::atomic_exchange(&c->m_wait, TaskBase::completed_mark());
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
      if (is_task) Kokkos::atomic_dec(&m_incomplete);
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
      t->m_respawn = 0;
      t->m_respawned = 1;
      Kokkos::memory_fence();  // the closure's new state before another worker can run it
      schedule(t);
    } else {
      destroy_closure(t);
      complete_aggregates(t);
    }
  }
  // respawn(): records the request of the running task `t`; false when it was already made.
  KOKKOS_INLINE_FUNCTION static bool request_respawn(TaskBase* t, TaskPriority priority, TaskBase* dependence) {
    if (Kokkos::atomic_exchange(&t->m_respawn, std::uint8_t(1)) != 0) return false;
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

#pragma once
// The header every task and every when_all aggregate starts with (seed 001 §2.3), and the
// typed task that appends a result and a closure to it.
//
// Life cycle of one allocation:
//   spawn      -> reference count 2 (the returned future + the scheduler's "in flight" hold)
//   waiting    -> linked into its predecessor's wait list through m_next
//   ready      -> in a worker's deque
//   executing  -> the closure runs; it may ask to be respawned behind a new dependence
//   complete   -> closure destroyed, m_wait set to the completed mark, waiters made ready,
//                 the scheduler's hold released
//   free       -> the last future goes away: result destroyed, memory back to the pool
//
// No virtual functions: one plain function pointer does run / destroy-closure /
// destroy-result, so the header stays 64 bytes and the closure stays device-friendly.
#include <Kokkos_Atomic.hpp>
#include <Kokkos_Macros.hpp>

#include <cstdint>
#include <new>
#include <type_traits>
#include <typeinfo>
#include <utility>

// Host functions of the scheduler's hot path that must be inlined whatever the compiler's size
// budget says (their cold trace hooks would otherwise tip it: a task's spawn, a block's free).
#if defined(__GNUC__)
#define KOKKOS_IMPL_TASK_ALWAYS_INLINE __attribute__((always_inline))
#else
#define KOKKOS_IMPL_TASK_ALWAYS_INLINE
#endif

// Futures, the task-DAG free functions and the members task functors call are host-device
// code, as the GPU scheduler's tasks use them; nvcc checks only the instantiations device code
// uses (the host schedulers' are host code, reached from portable KOKKOS_INLINE_FUNCTION
// functors).
#define KOKKOS_IMPL_TASK_HD KOKKOS_IMPL_DISABLE_EXEC_CHECK KOKKOS_INLINE_FUNCTION
// The same for what every task runs several times (a scheduler handle's copy and destruction).
#define KOKKOS_IMPL_TASK_HD_HOT KOKKOS_IMPL_DISABLE_EXEC_CHECK KOKKOS_FORCEINLINE_FUNCTION

namespace Kokkos {

enum class TaskPriority : int { High = 0, Regular = 1, Low = 2 };

namespace Impl {

inline constexpr int task_priority_count = 3;

enum class TaskKind : std::uint8_t { Single = 0, Team = 1, Aggregate = 2 };

// Name writes the closure's type name (a typeid name) to *(const char**)member, for traces.
// RunThenDestroy runs the closure and, unless it asked to be respawned, destroys it: one call
// instead of two for a task that runs on one thread.
enum class TaskOp : int { Run, DestroyClosure, DestroyResult, Name, RunThenDestroy };

class TaskQueueBase;

struct TaskBase {
  // op == Run calls the closure with `member`; the other ops ignore it.
  using function_type = void (*)(TaskBase*, TaskOp, void* member);

  function_type m_apply = nullptr;    // null for an aggregate
  TaskQueueBase* m_queue = nullptr;   // the scheduler that allocated this
  TaskBase* m_next = nullptr;         // link in exactly one wait list at a time
  TaskBase* m_wait = nullptr;         // head of the wait list, or completed_mark()
  TaskBase* m_dependence = nullptr;   // predecessor (holds a reference) until execution starts
  std::int32_t m_ref_count = 0;
  std::uint32_t m_alloc_size = 0;
  std::int32_t m_dep_count = 0;       // aggregate: number of entries after the header
  std::int32_t m_dep_index = 0;       // aggregate: first entry not known to be complete
  TaskKind m_kind = TaskKind::Single;
  std::uint8_t m_priority = static_cast<std::uint8_t>(TaskPriority::Regular);
  std::uint8_t m_respawn = 0;         // set by respawn() during the current execution (see closure_destroying)
  std::uint8_t m_flags = 0;           // flag_respawned | flag_destroys_result
  // Traces only (Host/Kokkos_HostTaskWorkerLoop.hpp), written only while a trace runs; the header's
  // last 4 bytes, so it stays 64.  A task: the thread of its trace point, whose clock tick it
  // keeps in m_dep_count / m_dep_index (aggregate-only fields): where its latest execution's
  // slice is (before it first runs: its spawn), where arrows to its successors start.  An
  // aggregate: 1 when it holds a second reference on each entry, dropped when it is freed.
  // A task of the GPU scheduler (impl/tasking/Kokkos_DeviceTaskQueue.hpp, which has no traces)
  // keeps here the module (translation unit) whose device code its m_apply points into.
  union {
    std::uint32_t m_trace = 0;
    std::uint32_t m_module;
  };

  // m_flags: the task has run before, so its next execution is a respawn (traces) ...
  static constexpr std::uint8_t flag_respawned = 1;
  // ... its result has a destructor, which freeing the task runs (a task without one is freed
  // without calling through m_apply).
  static constexpr std::uint8_t flag_destroys_result = 2;

  // m_respawn once RunThenDestroy destroys the closure: respawn() from its destructor aborts.
  // (1: respawn() was called, the closure is kept for the next run.)
  static constexpr std::uint8_t closure_destroying = 2;

  // The wait-list head of a completed task: no waiter can be linked after completion.
  KOKKOS_FORCEINLINE_FUNCTION static TaskBase* completed_mark() {
    return reinterpret_cast<TaskBase*>(~std::uintptr_t(0));
  }

  KOKKOS_FORCEINLINE_FUNCTION bool is_complete() const {
    return Impl::atomic_load_acquire(const_cast<TaskBase* const*>(&m_wait)) == completed_mark();
  }
  KOKKOS_FORCEINLINE_FUNCTION bool is_aggregate() const { return m_kind == TaskKind::Aggregate; }

  KOKKOS_FORCEINLINE_FUNCTION void add_ref() { Impl::atomic_fetch_add_relaxed(&m_ref_count, 1); }
  // True when the caller dropped the last reference and must free the allocation.
  // The sole holder cannot race with anyone (adding a reference needs one), so it skips the
  // locked decrement.
  KOKKOS_FORCEINLINE_FUNCTION bool drop_ref() {
    return Impl::atomic_load_acquire(&m_ref_count) == 1 || Impl::atomic_fetch_sub_acq_rel(&m_ref_count, 1) == 1;
  }

  // Links `waiter` into this task's wait list; false when this task has already completed.
  KOKKOS_INLINE_FUNCTION bool try_add_waiter(TaskBase* waiter) {
    TaskBase* head = Impl::atomic_load_acquire(&m_wait);
    do {
      if (head == completed_mark()) return false;
      waiter->m_next = head;
    } while (!Impl::atomic_compare_exchange_weak_acq_rel(&m_wait, head, waiter));
    return true;
  }

  // Aggregate entries live right after the header (a two-entry aggregate is 80 bytes).
  KOKKOS_FORCEINLINE_FUNCTION TaskBase** aggregate_entries() { return reinterpret_cast<TaskBase**>(this + 1); }
};

static_assert(sizeof(TaskBase) <= 64, "the task header must stay within 64 bytes (128-byte blocks hold a task)");
static_assert(alignof(TaskBase) <= 8);

// The result sits at a fixed offset, so a future of any closure type can read it.
template <class T>
struct TaskResult : TaskBase {
  T m_result{};
  KOKKOS_INLINE_FUNCTION static T& get(TaskBase* task) { return static_cast<TaskResult*>(task)->m_result; }
};
template <>
struct TaskResult<void> : TaskBase {};

// Calls the task functor with or without the result argument.  Host schedulers' functors and
// members are host code: nvcc checks only the instantiations device code (the GPU scheduler's
// DeviceTaskNode) uses.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Value, class Functor, class Member>
KOKKOS_FORCEINLINE_FUNCTION void invoke_task_functor(Functor& f, Member& member, TaskResult<Value>* task) {
  if constexpr (std::is_void_v<Value>) {
    (void)task;
    f(member);
  } else {
    f(member, task->m_result);
  }
}

template <class Functor, class Value, class Member>
struct TaskNode final : TaskResult<Value> {
  union {
    Functor m_functor;  // a union member: its lifetime ends at completion, not at free
  };

  template <class F>
  explicit TaskNode(F&& f) {
    ::new (static_cast<void*>(&m_functor)) Functor(std::forward<F>(f));
    this->m_apply = &TaskNode::apply;
    if constexpr (!std::is_void_v<Value> && !std::is_trivially_destructible_v<Value>)
      this->m_flags = TaskBase::flag_destroys_result;
  }
  ~TaskNode() {}

  static void run(TaskNode* self, void* member) {
    invoke_task_functor<Value>(self->m_functor, *static_cast<Member*>(member), self);
  }

  static void apply(TaskBase* base, TaskOp op, void* member) {
    TaskNode* self = static_cast<TaskNode*>(base);
    // Every execution of a TaskSingle task on the host comes here: tested before the others.
    if (KOKKOS_IMPL_LIKELY(op == TaskOp::RunThenDestroy)) {
      run(self, member);
      if (self->m_respawn == 0) {
        self->m_respawn = TaskBase::closure_destroying;  // and so it stays: the task is complete
        self->m_functor.~Functor();
      }
      return;
    }
    switch (op) {
      case TaskOp::Run: run(self, member); break;
      case TaskOp::RunThenDestroy: break;  // above
      case TaskOp::DestroyClosure: self->m_functor.~Functor(); break;
      case TaskOp::Name: *static_cast<const char**>(member) = typeid(Functor).name(); break;
      case TaskOp::DestroyResult:
        if constexpr (!std::is_void_v<Value>) {
          using R = TaskResult<Value>;
          static_cast<R*>(self)->m_result.~Value();
        }
        break;
    }
  }
};

}  // namespace Impl
}  // namespace Kokkos

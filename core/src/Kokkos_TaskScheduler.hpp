#pragma once
// The dynamic, heterogeneous task DAG (seed 001 §2.3, §3.2) with Kokkos 4's spelling:
// schedulers, TaskSingle / TaskTeam policies, host_spawn / task_spawn, when_all, respawn, wait.
//
//   using sched_t = Kokkos::TaskScheduler<Kokkos::OpenMP>;
//   sched_t sched(sched_t::memory_space(), 1 << 20, 64, 1024, 4096);
//   auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), MyTask{...});
//   Kokkos::wait(sched);
//   f.get();
//
// TaskScheduler, TaskSchedulerMultiple, ChaseLevTaskScheduler, DeprecatedTaskScheduler and
// DeprecatedTaskSchedulerMultiple are distinct types (their futures do not mix) that share one
// implementation: per worker and priority, a small private stack in front of a Chase-Lev deque,
// with work stealing (see impl/tasking/Kokkos_TaskQueue.hpp).  Kokkos' older queues are what this
// design replaces.
//
// A TaskTeam task runs on a team of Experimental::task_team_size() workers; its member_type is
// the host team member of TeamPolicy plus scheduler(), so TeamThreadRange / ThreadVectorRange /
// TeamVectorRange patterns, team_barrier and team_broadcast work inside it.  Every rank runs the
// functor: spawn and respawn from one rank (e.g. team_rank() == 0), after a team_barrier if the
// other ranks read closure state that rank changes.
//
// respawn(this, when_all(...)) hands the temporary future's reference over (no reference-count
// update); tasks run inside wait() only.
#include <Kokkos_Abort.hpp>
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Future.hpp>
#include <Kokkos_MemoryPool.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <Host/Kokkos_HostTaskWorkerLoop.hpp>
#include <impl/tasking/Kokkos_TaskBase.hpp>
#include <impl/tasking/Kokkos_TaskQueue.hpp>

#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace Kokkos {

template <class T>
struct is_scheduler : std::false_type {};
template <class E, class K>
struct is_scheduler<BasicTaskScheduler<E, K>> : std::true_type {};
template <class T>
inline constexpr bool is_scheduler_v = is_scheduler<T>::value;

namespace Impl {

template <class F, class = void>
struct task_functor_value {
  using type = void;
};
template <class F>
struct task_functor_value<F, std::void_t<typename F::value_type>> {
  using type = typename F::value_type;
};

// What TaskSingle / TaskTeam return: the scheduler, an optional predecessor, a priority.
template <TaskKind Kind, class Scheduler>
struct TaskPolicyWithScheduler {
  using scheduler_type = Scheduler;
  static constexpr TaskKind kind = Kind;
  Scheduler m_scheduler;
  BasicFuture<void, Scheduler> m_predecessor;
  TaskPriority m_priority;

  const Scheduler& scheduler() const noexcept { return m_scheduler; }
  TaskPriority priority() const noexcept { return m_priority; }
  bool has_predecessor() const noexcept { return !m_predecessor.is_null(); }
};
template <TaskKind Kind, class Future>
using TaskPolicyWithPredecessor = TaskPolicyWithScheduler<Kind, typename Future::scheduler_type>;

enum class TaskSpawnSite { Host, Task, Either };

}  // namespace Impl

template <class ExecSpace, class Kind>
class BasicTaskScheduler {
  static_assert(Impl::is_host_backend<ExecSpace>::value,
                "Kokkos::TaskScheduler: no task DAG for this execution space; name a host execution space or "
                "Kokkos::Cuda (its scheduler is in Cuda/Kokkos_Cuda_Task.hpp)");

 public:
  using execution_space = ExecSpace;
  using memory_space = typename ExecSpace::memory_space;
  using device_type = Device<execution_space, memory_space>;
  using memory_pool = MemoryPool<device_type>;
  using scheduler_type = BasicTaskScheduler;
  using member_type = Impl::HostTaskTeamMember<BasicTaskScheduler>;
  using queue_type = Impl::TaskQueue<ExecSpace, memory_pool>;
  template <class V>
  using future_type = BasicFuture<V, BasicTaskScheduler>;
  template <class F>
  using future_type_for_functor = future_type<typename Impl::task_functor_value<F>::type>;

 private:
  template <class, class>
  friend class BasicFuture;
  template <Impl::TaskKind, class>
  friend struct Impl::TaskPolicyWithScheduler;

  queue_type* m_queue = nullptr;

  // A handle on an existing queue (the scheduler of a future).
  KOKKOS_IMPL_TASK_ALWAYS_INLINE explicit BasicTaskScheduler(queue_type* q) noexcept : m_queue(q) {
    if (m_queue) m_queue->add_handle();
  }
  KOKKOS_IMPL_TASK_ALWAYS_INLINE void release_handle() noexcept {
    if (m_queue != nullptr && m_queue->drop_handle()) delete m_queue;
    m_queue = nullptr;
  }

  // A default-constructed (empty) pool is accepted (seed 001 §3.2.2): memory() is then null
  // and every spawn or when_all gives a null future, as from a full pool.
  static void check_pool(const memory_pool& pool) {
    if (pool.capacity() != 0 && pool.max_block_size() <= sizeof(Impl::TaskBase))
      Impl::throw_runtime_exception(
          "Kokkos::TaskScheduler: the memory pool is too small for even one task: its largest block is " +
          std::to_string(pool.max_block_size()) + " bytes and a task needs more than its " +
          std::to_string(sizeof(Impl::TaskBase)) + "-byte header");
  }

  static queue_type* queue_of(const Impl::TaskBase* t) { return static_cast<queue_type*>(t->m_queue); }

 public:
  // Kokkos' single-queue schedulers (TaskScheduler, DeprecatedTaskScheduler) order the ready
  // tasks by priority for the whole scheduler (seed 001 §2.3.3): no Regular or Low task starts
  // while a higher-priority one is ready on any worker.  Its multiple-queue schedulers order
  // High and Regular per worker (Kokkos steals between its per-team queues the same way) and
  // only Low tasks scheduler-wide; a depth-first DAG with High and Regular tasks (fib) keeps
  // its memory bound and its speed there.
  static constexpr TaskPriority impl_ordered_from =
      std::is_same_v<Kind, Impl::TaskSchedulerKind<0>> || std::is_same_v<Kind, Impl::TaskSchedulerKind<3>>
          ? TaskPriority::Regular
          : TaskPriority::Low;

  BasicTaskScheduler() noexcept = default;
  // Host-device in name only (as in Kokkos), so that a functor written for every back end
  // (KOKKOS_INLINE_FUNCTION, holding a scheduler) compiles with nvcc for a host scheduler too.
  KOKKOS_IMPL_TASK_HD_HOT BasicTaskScheduler(const BasicTaskScheduler& rhs) noexcept : BasicTaskScheduler(rhs.m_queue) {}
  KOKKOS_IMPL_TASK_HD BasicTaskScheduler(BasicTaskScheduler&& rhs) noexcept : m_queue(rhs.m_queue) { rhs.m_queue = nullptr; }
  KOKKOS_IMPL_TASK_HD BasicTaskScheduler& operator=(const BasicTaskScheduler& rhs) noexcept {
    if (rhs.m_queue) rhs.m_queue->add_handle();
    release_handle();
    m_queue = rhs.m_queue;
    return *this;
  }
  KOKKOS_IMPL_TASK_HD BasicTaskScheduler& operator=(BasicTaskScheduler&& rhs) noexcept {
    if (this != &rhs) {
      release_handle();
      m_queue = rhs.m_queue;
      rhs.m_queue = nullptr;
    }
    return *this;
  }
  KOKKOS_IMPL_TASK_HD_HOT ~BasicTaskScheduler() { release_handle(); }

  BasicTaskScheduler(const execution_space& space, const memory_pool& pool) {
    Impl::check_initialized("Kokkos::TaskScheduler");
    check_pool(pool);
    m_queue = new queue_type(space, pool, impl_ordered_from);
    m_queue->add_handle();
  }
  explicit BasicTaskScheduler(const memory_pool& pool) : BasicTaskScheduler(execution_space(), pool) {}
  BasicTaskScheduler(const memory_space& space, std::size_t capacity, unsigned min_block, unsigned max_block,
                     unsigned superblock)
      : BasicTaskScheduler(execution_space(), memory_pool(space, capacity, min_block, max_block, superblock)) {}

  bool is_null() const noexcept { return m_queue == nullptr; }
  // The pool tasks come from; null for an empty scheduler and for one made over a
  // default-constructed pool (seed 001 §3.2.2).
  memory_pool* memory() const noexcept {
    return m_queue != nullptr && m_queue->memory().capacity() != 0 ? &m_queue->memory() : nullptr;
  }

  // ---- pool sizing queries (Kokkos 4) ---------------------------------------------------
  // Bytes of pool block one spawn of a FunctorType task takes (0: larger than the largest
  // block, or an empty pool).
  template <class FunctorType>
  std::size_t spawn_allocation_size() const {
    using Node = Impl::TaskNode<FunctorType, typename Impl::task_functor_value<FunctorType>::type, member_type>;
    return queue().allocation_block_size(sizeof(Node));
  }
  // The same, with the functor type taken from a functor (the policy only names the scheduler).
  template <Impl::TaskKind K, class FunctorType>
  std::size_t spawn_allocation_size(const Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler>&,
                                    const FunctorType&) const {
    return spawn_allocation_size<FunctorType>();
  }
  // Bytes of pool block a when_all over `narg` futures takes.
  std::size_t when_all_allocation_size(int narg) const {
    return queue().allocation_block_size(aggregate_bytes(narg < 0 ? 0 : narg));
  }
  // The pool's capacity in bytes.
  int allocation_capacity() const noexcept {
    return m_queue ? static_cast<int>(m_queue->memory().capacity()) : 0;
  }
  // Tasks and when_all aggregates alive now (allocated, not yet freed); exact outside wait().
  int allocated_task_count() const noexcept { return m_queue ? static_cast<int>(m_queue->allocation_count()) : 0; }
  // The most that were alive at once since the scheduler was made.
  int allocated_task_count_max() const noexcept {
    return m_queue ? static_cast<int>(m_queue->allocation_count_max()) : 0;
  }
  // How many were allocated since the scheduler was made.
  long allocated_task_count_accum() const noexcept { return m_queue ? m_queue->allocation_count_accum() : 0; }
  queue_type& queue() const {
    if (m_queue == nullptr) Kokkos::abort("Kokkos::TaskScheduler::queue(): the scheduler is empty (default-constructed)");
    return *m_queue;
  }
  // The execution space instance tasks run on.
  execution_space get_execution_space() const { return execution_space(); }

  friend bool operator==(const BasicTaskScheduler& a, const BasicTaskScheduler& b) { return a.m_queue == b.m_queue; }
  friend bool operator!=(const BasicTaskScheduler& a, const BasicTaskScheduler& b) { return a.m_queue != b.m_queue; }

  // ---- spawn ---------------------------------------------------------------------------
  // Always inlined (GCC, clang): a task functor's spawn sites are its hot path, and the trace
  // hook below would otherwise tip the compiler's size budget against inlining it.
  template <Impl::TaskKind K, class F>
  // The policy is the caller's by-value parameter: its predecessor reference is adopted.
  KOKKOS_IMPL_TASK_ALWAYS_INLINE static future_type_for_functor<std::decay_t<F>> impl_spawn(Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler>& policy,
                                                             F&& functor, Impl::TaskSpawnSite site) {
    using Functor = std::decay_t<F>;
    using Value = typename Impl::task_functor_value<Functor>::type;
    using Node = Impl::TaskNode<Functor, Value, member_type>;
    using Result = future_type_for_functor<Functor>;
    static_assert(K == Impl::TaskKind::Single || K == Impl::TaskKind::Team);

    queue_type* q = policy.m_scheduler.m_queue;
    if (q == nullptr) Kokkos::abort("Kokkos spawn: the policy's scheduler is empty (default-constructed)");
    const Impl::TaskWorkerContext* ctx = Impl::current_task_context();
    if (site == Impl::TaskSpawnSite::Host && ctx != nullptr)
      Kokkos::abort("Kokkos::host_spawn: called from inside a task; use Kokkos::task_spawn there");
    if (site == Impl::TaskSpawnSite::Task && ctx == nullptr)
      Kokkos::abort("Kokkos::task_spawn: called outside a task; use Kokkos::host_spawn in host code");
    if (ctx != nullptr && ctx->queue != q)
      Kokkos::abort("Kokkos spawn: a task may only spawn into the scheduler that runs it");

    Impl::TaskBase* dep = policy.m_predecessor.m_task;  // adopt the policy's reference
    policy.m_predecessor.m_task = nullptr;
    if (dep != nullptr && dep->m_queue != q)
      Kokkos::abort("Kokkos spawn: the predecessor future belongs to another scheduler");

    // A task spawning (the checks above: its context names q) reaches its slot directly.
    void* p = ctx != nullptr ? q->allocate(*ctx->slot, sizeof(Node)) : q->allocate(sizeof(Node));
    if (p == nullptr) {  // the pool is full: a null future, nothing else changed
      q->count_event(&Impl::TaskQueueBase::Slot::spawn_failures);
      queue_type::release_reference(dep);
      return Result();
    }
    Node* t = ::new (p) Node(std::forward<F>(functor));
    t->m_queue = q;
    t->m_alloc_size = static_cast<std::uint32_t>(sizeof(Node));
    t->m_kind = K;
    t->m_priority = static_cast<std::uint8_t>(policy.m_priority);
    t->m_ref_count = 2;  // the future returned + the scheduler until completion
    t->m_dependence = dep;
    // Traces: a task spawned by a task gets a spawn arrow (Host/Kokkos_HostTaskWorkerLoop.cpp).
    if (KOKKOS_IMPL_UNLIKELY(Impl::g_trace_on.load(std::memory_order_relaxed)) && ctx != nullptr) Impl::trace_spawn(t);
    if (ctx != nullptr) {
      queue_type::count_spawn(*ctx->slot);
      q->schedule(t, *ctx);
    } else {
      q->count_spawn();
      q->schedule(t);
    }
    return Result(static_cast<Impl::TaskBase*>(t));
  }

  // Spawns from host code or from inside a task of this scheduler.
  KOKKOS_IMPL_DISABLE_EXEC_CHECK
  template <Impl::TaskKind K, class F>
  KOKKOS_INLINE_FUNCTION future_type_for_functor<std::decay_t<F>> spawn(Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler> policy,
                                                 F&& functor) const {
    if (policy.m_scheduler.m_queue != m_queue)
      Kokkos::abort("Kokkos::TaskScheduler::spawn: the policy names another scheduler");
    return impl_spawn(policy, std::forward<F>(functor), Impl::TaskSpawnSite::Either);
  }

  // ---- when_all ------------------------------------------------------------------------
  // A future complete when every non-null entry is; null entries are skipped; no non-null
  // entry (n <= 0 included) gives a null future, as does a full pool.
  KOKKOS_IMPL_DISABLE_EXEC_CHECK
  template <class V>
  KOKKOS_INLINE_FUNCTION static future_type<void> when_all(const future_type<V> futures[], int n) {
    return impl_when_all(nullptr, n, [&](int i) -> const future_type<V>& { return futures[i]; });
  }
  // Calls generator(i) for i in [0, n) once each, in order; n <= 0 gives a null future
  // without calling it.  The pool is asked for the aggregate before the generator runs, so a
  // full pool also gives a null future without calling it.
  KOKKOS_IMPL_DISABLE_EXEC_CHECK
  template <class Generator>
  KOKKOS_INLINE_FUNCTION future_type<void> when_all(int n, Generator&& generator) const {
    if (m_queue == nullptr) Kokkos::abort("Kokkos::TaskScheduler::when_all: the scheduler is empty (default-constructed)");
    return impl_when_all(m_queue, n, std::forward<Generator>(generator));
  }

  static constexpr std::size_t aggregate_bytes(int n) {
    return sizeof(Impl::TaskBase) + static_cast<std::size_t>(n) * sizeof(Impl::TaskBase*);
  }

  template <class Generator>
  static future_type<void> impl_when_all(queue_type* q, int n, Generator&& generator) {
    if (n <= 0) return future_type<void>();
    Impl::TaskBase* a = nullptr;
    if (q != nullptr && (a = new_aggregate(q, n)) == nullptr) return future_type<void>();
    for (int i = 0; i < n; ++i) {
      decltype(auto) f = generator(i);
      static_assert(is_future_v<std::decay_t<decltype(f)>>, "when_all: the generator must return a future");
      static_assert(std::is_same_v<typename std::decay_t<decltype(f)>::scheduler_type, BasicTaskScheduler>,
                    "when_all: the futures must belong to this scheduler type");
      Impl::TaskBase* t = f.impl_get_task();
      if (t == nullptr) continue;
      if (a == nullptr) {  // the static form: the first non-null entry names the scheduler
        q = queue_of(t);
        if ((a = new_aggregate(q, n)) == nullptr) return future_type<void>();
      } else if (t->m_queue != q) {
        Kokkos::abort("Kokkos::when_all: the futures belong to different schedulers");
      }
      t->add_ref();
      a->aggregate_entries()[a->m_dep_count++] = t;
    }
    if (a == nullptr) return future_type<void>();
    if (a->m_dep_count == 0) {  // every entry was null
      a->m_ref_count = 1;
      queue_type::release_reference(a);
      return future_type<void>();
    }
    // Traces: the aggregate keeps its entries for the arrows of its waiters.
    if (KOKKOS_IMPL_UNLIKELY(Impl::g_trace_on.load(std::memory_order_relaxed))) Impl::trace_hold_entries(a);
    if (q->advance_aggregate(a)) q->complete_new_aggregate(a);
    return future_type<void>(a);
  }

 private:
  // An aggregate of up to n entries, none yet, or null when the pool is full (counted).
  KOKKOS_IMPL_TASK_ALWAYS_INLINE static Impl::TaskBase* new_aggregate(queue_type* q, int n) {
    const std::size_t bytes = aggregate_bytes(n);
    bool owner;
    Impl::TaskQueueBase::Slot& me = q->current_slot(owner);
    void* p = owner ? q->allocate(me, bytes) : q->allocate(bytes);
    if (p == nullptr) {
      q->count_event(&Impl::TaskQueueBase::Slot::spawn_failures);
      return nullptr;
    }
    q->count_aggregate(me, owner);
    Impl::TaskBase* a = ::new (p) Impl::TaskBase();
    a->m_queue = q;
    a->m_alloc_size = static_cast<std::uint32_t>(bytes);
    a->m_kind = Impl::TaskKind::Aggregate;
    a->m_ref_count = 2;
    return a;
  }

 public:
  // ---- respawn -------------------------------------------------------------------------
  template <class F>
  static void respawn(F* self, const BasicTaskScheduler& sched, TaskPriority priority = TaskPriority::Regular) {
    Impl::TaskBase* t = respawn_target(self, priority);
    if (sched.m_queue != nullptr && sched.m_queue != t->m_queue)
      Kokkos::abort("Kokkos::respawn: the scheduler is not the one running the task");
  }
  template <class F, class V>
  static void respawn(F* self, const future_type<V>& dependence, TaskPriority priority = TaskPriority::Regular) {
    Impl::TaskBase* t = respawn_target(self, priority);
    Impl::TaskBase* d = dependence.impl_get_task();
    if (d == nullptr) return;
    if (d->m_queue != t->m_queue) Kokkos::abort("Kokkos::respawn: the dependence belongs to another scheduler");
    d->add_ref();
    t->m_dependence = d;
  }
  // A temporary future (respawn(this, when_all(...))) hands its reference over.
  template <class F, class V>
  static void respawn(F* self, future_type<V>&& dependence, TaskPriority priority = TaskPriority::Regular) {
    Impl::TaskBase* t = respawn_target(self, priority);
    Impl::TaskBase* d = dependence.impl_get_task();
    if (d == nullptr) return;
    if (d->m_queue != t->m_queue) Kokkos::abort("Kokkos::respawn: the dependence belongs to another scheduler");
    dependence.m_task = nullptr;
    t->m_dependence = d;
  }

 private:
  static Impl::TaskBase* respawn_target(const void* self, TaskPriority priority) {
    Impl::TaskWorkerContext* ctx = Impl::current_task_context();
    if (ctx == nullptr || ctx->current == nullptr) Kokkos::abort("Kokkos::respawn: called outside a running task");
    Impl::TaskBase* t = ctx->current;
    const char* b = reinterpret_cast<const char*>(t);
    const char* p = static_cast<const char*>(self);
    if (p <= b || p >= b + t->m_alloc_size)
      Kokkos::abort("Kokkos::respawn: the first argument must be `this` of the running task's functor");
    // The ranks of a team task run concurrently: one of them may respawn it.
    const std::uint8_t before = t->m_kind == Impl::TaskKind::Team
                                    ? Impl::atomic_exchange_seq_cst(&t->m_respawn, std::uint8_t(1))
                                    : std::exchange(t->m_respawn, std::uint8_t(1));
    if (before == Impl::TaskBase::closure_destroying)
      Kokkos::abort("Kokkos::respawn: called from the destructor of the task's functor (the task has finished)");
    if (before != 0)
      Kokkos::abort(
          "Kokkos::respawn: called twice in one execution of a task (in a TaskTeam task, call it from one team rank)");
    t->m_priority = static_cast<std::uint8_t>(priority);
    return t;
  }

 public:
  // The scheduler that owns task `t` (a new handle).
  static BasicTaskScheduler impl_from_task(Impl::TaskBase* t) { return BasicTaskScheduler(queue_of(t)); }

  void impl_wait() const {
    if (m_queue == nullptr) Kokkos::abort("Kokkos::wait: the scheduler is empty (default-constructed)");
    Impl::host_task_wait(*this, *m_queue, execution_space());
  }
};

namespace Experimental {
// One scheduler's statistics (exact outside wait()); an empty scheduler has none.
template <class E, class K>
TaskDagStatistics task_dag_statistics(const BasicTaskScheduler<E, K>& sched) {
  return sched.is_null() ? TaskDagStatistics{} : sched.queue().statistics();
}
}  // namespace Experimental

// Runs the scheduler's tasks until all of them, including those spawned by tasks, completed.
template <class E, class K>
void wait(const BasicTaskScheduler<E, K>& sched) {
  sched.impl_wait();
}

// The public scheduler names (seed 001 §3.2.2 and Kokkos 4).
template <class ExecSpace = DefaultExecutionSpace>
using TaskScheduler = BasicTaskScheduler<ExecSpace, Impl::TaskSchedulerKind<0>>;
template <class ExecSpace = DefaultExecutionSpace>
using TaskSchedulerMultiple = BasicTaskScheduler<ExecSpace, Impl::TaskSchedulerKind<1>>;
template <class ExecSpace = DefaultExecutionSpace>
using ChaseLevTaskScheduler = BasicTaskScheduler<ExecSpace, Impl::TaskSchedulerKind<2>>;
template <class ExecSpace = DefaultExecutionSpace>
using DeprecatedTaskScheduler = BasicTaskScheduler<ExecSpace, Impl::TaskSchedulerKind<3>>;
template <class ExecSpace = DefaultExecutionSpace>
using DeprecatedTaskSchedulerMultiple = BasicTaskScheduler<ExecSpace, Impl::TaskSchedulerKind<4>>;

// ---- policies ---------------------------------------------------------------------------
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Scheduler, std::enable_if_t<is_scheduler_v<Scheduler>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::TaskPolicyWithScheduler<Impl::TaskKind::Single, Scheduler> TaskSingle(
    const Scheduler& sched, TaskPriority priority = TaskPriority::Regular) {
  return {sched, {}, priority};
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class V, class Scheduler>
KOKKOS_INLINE_FUNCTION Impl::TaskPolicyWithScheduler<Impl::TaskKind::Single, Scheduler> TaskSingle(
    const BasicFuture<V, Scheduler>& predecessor, TaskPriority priority = TaskPriority::Regular);
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Scheduler, class V, std::enable_if_t<is_scheduler_v<Scheduler>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::TaskPolicyWithScheduler<Impl::TaskKind::Single, Scheduler> TaskSingle(
    const Scheduler& sched, const BasicFuture<V, Scheduler>& predecessor, TaskPriority priority = TaskPriority::Regular) {
  return {sched, predecessor, priority};
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Scheduler, std::enable_if_t<is_scheduler_v<Scheduler>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::TaskPolicyWithScheduler<Impl::TaskKind::Team, Scheduler> TaskTeam(const Scheduler& sched,
                                                                        TaskPriority priority = TaskPriority::Regular) {
  return {sched, {}, priority};
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class V, class Scheduler>
KOKKOS_INLINE_FUNCTION Impl::TaskPolicyWithScheduler<Impl::TaskKind::Team, Scheduler> TaskTeam(
    const BasicFuture<V, Scheduler>& predecessor, TaskPriority priority = TaskPriority::Regular);
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Scheduler, class V, std::enable_if_t<is_scheduler_v<Scheduler>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::TaskPolicyWithScheduler<Impl::TaskKind::Team, Scheduler> TaskTeam(
    const Scheduler& sched, const BasicFuture<V, Scheduler>& predecessor, TaskPriority priority = TaskPriority::Regular) {
  return {sched, predecessor, priority};
}

namespace Impl {
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <TaskKind K, class V, class Scheduler>
KOKKOS_INLINE_FUNCTION TaskPolicyWithScheduler<K, Scheduler> task_policy_from_future(const BasicFuture<V, Scheduler>& predecessor,
                                                             TaskPriority priority) {
  Impl::TaskBase* t = predecessor.impl_get_task();
  if (t == nullptr)
    Kokkos::abort("Kokkos::TaskSingle/TaskTeam(future): the future is null; pass the scheduler as well");
  return {Scheduler::impl_from_task(t), predecessor, priority};
}
}  // namespace Impl

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class V, class Scheduler>
KOKKOS_INLINE_FUNCTION Impl::TaskPolicyWithScheduler<Impl::TaskKind::Single, Scheduler> TaskSingle(const BasicFuture<V, Scheduler>& predecessor,
                                                                            TaskPriority priority) {
  return Impl::task_policy_from_future<Impl::TaskKind::Single>(predecessor, priority);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class V, class Scheduler>
KOKKOS_INLINE_FUNCTION Impl::TaskPolicyWithScheduler<Impl::TaskKind::Team, Scheduler> TaskTeam(const BasicFuture<V, Scheduler>& predecessor,
                                                                        TaskPriority priority) {
  return Impl::task_policy_from_future<Impl::TaskKind::Team>(predecessor, priority);
}

// ---- spawning ---------------------------------------------------------------------------
template <Impl::TaskKind K, class Scheduler, class F>
typename Scheduler::template future_type_for_functor<std::decay_t<F>> host_spawn(
    Impl::TaskPolicyWithScheduler<K, Scheduler> policy, F&& functor) {
  return Scheduler::impl_spawn(policy, std::forward<F>(functor), Impl::TaskSpawnSite::Host);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <Impl::TaskKind K, class Scheduler, class F>
KOKKOS_INLINE_FUNCTION typename Scheduler::template future_type_for_functor<std::decay_t<F>> task_spawn(
    Impl::TaskPolicyWithScheduler<K, Scheduler> policy, F&& functor) {
  return Scheduler::impl_spawn(policy, std::forward<F>(functor), Impl::TaskSpawnSite::Task);
}

// ---- when_all and respawn as free functions ------------------------------------------------
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class V, class Scheduler>
KOKKOS_INLINE_FUNCTION BasicFuture<void, Scheduler> when_all(const BasicFuture<V, Scheduler> futures[], int n) {
  return Scheduler::when_all(futures, n);
}
// The scheduler is the one of the first non-null future the generator returns.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Generator, std::enable_if_t<std::is_invocable_v<Generator&, int>, int> = 0>
KOKKOS_INLINE_FUNCTION auto when_all(int n, Generator&& generator) {
  using F = std::decay_t<std::invoke_result_t<Generator&, int>>;
  static_assert(is_future_v<F>, "Kokkos::when_all(n, generator): the generator must return a future");
  using Scheduler = typename F::scheduler_type;
  return Scheduler::impl_when_all(nullptr, n, std::forward<Generator>(generator));
}

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class F, class E, class K>
KOKKOS_INLINE_FUNCTION void respawn(F* self, const BasicTaskScheduler<E, K>& sched, TaskPriority priority = TaskPriority::Regular) {
  BasicTaskScheduler<E, K>::respawn(self, sched, priority);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class F, class V, class Scheduler>
KOKKOS_INLINE_FUNCTION void respawn(F* self, const BasicFuture<V, Scheduler>& dependence, TaskPriority priority = TaskPriority::Regular) {
  Scheduler::respawn(self, dependence, priority);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class F, class V, class Scheduler>
KOKKOS_INLINE_FUNCTION void respawn(F* self, BasicFuture<V, Scheduler>&& dependence, TaskPriority priority = TaskPriority::Regular) {
  Scheduler::respawn(self, std::move(dependence), priority);
}

}  // namespace Kokkos

#pragma once
// Kokkos::BasicFuture<Value, Scheduler>: a shared-ownership handle to a task (seed 001 §3.2.1).
// Copying a future adds a reference to the task; when the last reference goes away the task's
// memory returns to the scheduler's pool.  Future<A1, A2> takes a value type and/or an
// execution space in either order (the 2017 spelling) and names the TaskScheduler future.
#include <Kokkos_Abort.hpp>
#include <Kokkos_Concepts.hpp>
#include <Kokkos_Core_fwd.hpp>
#include <impl/tasking/Kokkos_TaskBase.hpp>

#include <type_traits>

namespace Kokkos {

template <class ExecSpace, class Kind>
class BasicTaskScheduler;

template <class ValueType, class Scheduler>
class BasicFuture;

template <class T>
struct is_future : std::false_type {};
template <class V, class S>
struct is_future<BasicFuture<V, S>> : std::true_type {};
template <class T>
inline constexpr bool is_future_v = is_future<T>::value;

template <class ValueType, class Scheduler>
class BasicFuture {
  template <class, class>
  friend class BasicFuture;
  template <class, class>
  friend class BasicTaskScheduler;

  using queue_type = typename Scheduler::queue_type;

  Impl::TaskBase* m_task = nullptr;

  // Adopts one reference already counted for the caller.
  KOKKOS_IMPL_TASK_HD explicit BasicFuture(Impl::TaskBase* task) noexcept : m_task(task) {}

  KOKKOS_IMPL_TASK_HD static void release(Impl::TaskBase* t) { queue_type::release_reference(t); }

 public:
  using value_type = ValueType;
  using scheduler_type = Scheduler;
  using execution_space = typename Scheduler::execution_space;

  BasicFuture() noexcept = default;
  KOKKOS_IMPL_TASK_HD BasicFuture(BasicFuture&& rhs) noexcept : m_task(rhs.m_task) { rhs.m_task = nullptr; }
  KOKKOS_IMPL_TASK_HD BasicFuture(const BasicFuture& rhs) noexcept : m_task(rhs.m_task) {
    if (m_task) m_task->add_ref();
  }
  // A future of any value type converts to a future of void (the when_all and dependence type).
  KOKKOS_IMPL_DISABLE_EXEC_CHECK
  template <class V, std::enable_if_t<std::is_void_v<ValueType> && !std::is_void_v<V>, int> = 0>
  KOKKOS_INLINE_FUNCTION BasicFuture(BasicFuture<V, Scheduler>&& rhs) noexcept : m_task(rhs.m_task) {
    rhs.m_task = nullptr;
  }
  KOKKOS_IMPL_DISABLE_EXEC_CHECK
  template <class V, std::enable_if_t<std::is_void_v<ValueType> && !std::is_void_v<V>, int> = 0>
  KOKKOS_INLINE_FUNCTION BasicFuture(const BasicFuture<V, Scheduler>& rhs) noexcept : m_task(rhs.m_task) {
    if (m_task) m_task->add_ref();
  }

  KOKKOS_IMPL_TASK_HD BasicFuture& operator=(BasicFuture&& rhs) noexcept {
    if (this != &rhs) {
      Impl::TaskBase* old = m_task;
      m_task = rhs.m_task;
      rhs.m_task = nullptr;
      release(old);
    }
    return *this;
  }
  KOKKOS_IMPL_TASK_HD BasicFuture& operator=(const BasicFuture& rhs) noexcept {
    if (rhs.m_task) rhs.m_task->add_ref();
    Impl::TaskBase* old = m_task;
    m_task = rhs.m_task;
    release(old);
    return *this;
  }
  KOKKOS_IMPL_DISABLE_EXEC_CHECK
  template <class V, std::enable_if_t<std::is_void_v<ValueType> && !std::is_void_v<V>, int> = 0>
  KOKKOS_INLINE_FUNCTION BasicFuture& operator=(const BasicFuture<V, Scheduler>& rhs) noexcept {
    return *this = BasicFuture(rhs);
  }
  KOKKOS_IMPL_DISABLE_EXEC_CHECK
  template <class V, std::enable_if_t<std::is_void_v<ValueType> && !std::is_void_v<V>, int> = 0>
  KOKKOS_INLINE_FUNCTION BasicFuture& operator=(BasicFuture<V, Scheduler>&& rhs) noexcept {
    return *this = BasicFuture(std::move(rhs));
  }

  KOKKOS_IMPL_TASK_HD ~BasicFuture() { release(m_task); }

  KOKKOS_IMPL_TASK_HD void clear() noexcept {
    Impl::TaskBase* old = m_task;
    m_task = nullptr;
    release(old);
  }

  KOKKOS_IMPL_TASK_HD bool is_null() const noexcept { return m_task == nullptr; }
  // A null future is ready: nothing to wait for.
  KOKKOS_IMPL_TASK_HD bool is_ready() const noexcept { return m_task == nullptr || m_task->is_complete(); }

  // The completed task's result (value_type = void: nothing to return).
  KOKKOS_IMPL_DISABLE_EXEC_CHECK
  template <class V = ValueType, std::enable_if_t<!std::is_void_v<V>, int> = 0>
  KOKKOS_INLINE_FUNCTION V& get() const {
    if (m_task == nullptr) Kokkos::abort("Kokkos::Future::get(): called on a null future");
    if (!m_task->is_complete())
      Kokkos::abort("Kokkos::Future::get(): the task has not completed (get() needs a completed task: "
                    "wait(scheduler) on the host, or a dependence on this future inside a task)");
    return Impl::TaskResult<V>::get(m_task);
  }
  KOKKOS_IMPL_DISABLE_EXEC_CHECK
  template <class V = ValueType, std::enable_if_t<std::is_void_v<V>, int> = 0>
  KOKKOS_INLINE_FUNCTION void get() const {
    if (m_task == nullptr) Kokkos::abort("Kokkos::Future::get(): called on a null future");
    if (!m_task->is_complete()) Kokkos::abort("Kokkos::Future::get(): the task has not completed");
  }

  // Kokkos 4 internals used by tests and by the scheduler.
  KOKKOS_IMPL_TASK_HD Impl::TaskBase* impl_get_task() const noexcept { return m_task; }
  KOKKOS_IMPL_TASK_HD int reference_count() const noexcept {
    return m_task ? Kokkos::Impl::atomic_load_relaxed(&m_task->m_ref_count) : 0;
  }
};

namespace Impl {
// Which public scheduler name a BasicTaskScheduler is (they share one implementation).
template <int Kind>
struct TaskSchedulerKind {};

// Future<A1, A2>: a value type and/or a space, in either order (void, void = void on the
// default execution space).
template <class A>
inline constexpr bool is_future_space_arg_v = Kokkos::is_space<A>::value;

template <class A1, class A2>
struct ResolveFutureArgs {
  static_assert(!(is_future_space_arg_v<A1> && is_future_space_arg_v<A2>),
                "Kokkos::Future<A1, A2>: at most one argument may be a space");
  using space = std::conditional_t<is_future_space_arg_v<A1>, A1,
                                   std::conditional_t<is_future_space_arg_v<A2>, A2, DefaultExecutionSpace>>;
  using value_type = std::conditional_t<is_future_space_arg_v<A1>, A2, A1>;
  using execution_space = typename SpaceTraits<space>::execution_space;
  using type = BasicFuture<value_type, BasicTaskScheduler<execution_space, TaskSchedulerKind<0>>>;
};
}  // namespace Impl

template <class A1 = void, class A2 = void>
using Future = typename Impl::ResolveFutureArgs<A1, A2>::type;

}  // namespace Kokkos

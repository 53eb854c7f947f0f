#pragma once
// Type traits that classify spaces and policies, and Device<Exec, Mem>.  As in Kokkos, they see
// through const and volatile (is_memory_space_v<const HostSpace>), not through references.
#include <Kokkos_Macros.hpp>
#include <type_traits>
#include <utility>

namespace Kokkos {

template <class T, class = void>
struct is_execution_space : std::false_type {};
template <class T>
struct is_execution_space<T, std::void_t<typename T::execution_space, typename T::memory_space,
                                         decltype(std::declval<const T&>().concurrency())>>
    : std::bool_constant<std::is_same_v<std::remove_cv_t<T>, typename T::execution_space>> {};

template <class T, class = void>
struct is_memory_space : std::false_type {};
template <class T>
struct is_memory_space<T, std::void_t<typename T::memory_space>>
    : std::bool_constant<std::is_same_v<std::remove_cv_t<T>, typename T::memory_space>> {};

template <class T>
inline constexpr bool is_execution_space_v = is_execution_space<T>::value;
template <class T>
inline constexpr bool is_memory_space_v = is_memory_space<T>::value;

// A (execution space, memory space) pair, Kokkos' DeviceType.
template <class ExecutionSpace, class MemorySpace>
struct Device {
  static_assert(is_execution_space_v<ExecutionSpace>, "Kokkos::Device: first argument must be an execution space");
  static_assert(is_memory_space_v<MemorySpace>, "Kokkos::Device: second argument must be a memory space");
  using execution_space = ExecutionSpace;
  using memory_space = MemorySpace;
  using device_type = Device<execution_space, memory_space>;
};

namespace Impl {
template <class T>
struct is_device_unqualified : std::false_type {};
template <class E, class M>
struct is_device_unqualified<Device<E, M>> : std::true_type {};
}  // namespace Impl
template <class T>
struct is_device : Impl::is_device_unqualified<std::remove_cv_t<T>> {};
template <class T>
inline constexpr bool is_device_v = is_device<T>::value;

template <class T>
struct is_space : std::bool_constant<is_execution_space_v<T> || is_memory_space_v<T> || is_device_v<T>> {};

namespace Impl {
// Whether code running where memory space Access lives reaches memory in Space (accessible), and
// whether a View of Access may be assigned one of Space (assignable), as Kokkos'
// MemorySpaceAccess.  Host-accessible memory reaches host-accessible memory; a device back end
// specialises the pairs that involve its spaces.
template <class Access, class Space>
struct MemorySpaceAccess {
  static constexpr bool accessible =
      std::is_same_v<Access, Space> || (Access::is_host_accessible && Space::is_host_accessible);
  static constexpr bool assignable = std::is_same_v<Access, Space>;
};

// The memory space of the execution space of a space (or of a Device): where the code that
// accesses runs.
template <class Space, class = void>
struct AccessingMemorySpace {
  using type = typename Space::memory_space;
};
template <class Space>
struct AccessingMemorySpace<Space, std::void_t<typename Space::execution_space::memory_space>> {
  using type = typename Space::execution_space::memory_space;
};
}  // namespace Impl

// Memory space accessibility, as Kokkos spells it: can code running in AccessSpace's execution
// space reach memory of MemorySpace, and may a View of AccessSpace's memory space be assigned one
// of MemorySpace.
template <class AccessSpace, class MemorySpace>
struct SpaceAccessibility {
  static constexpr bool accessible =
      std::is_same_v<typename AccessSpace::memory_space, MemorySpace> ||
      Impl::MemorySpaceAccess<typename Impl::AccessingMemorySpace<AccessSpace>::type, MemorySpace>::accessible;
  static constexpr bool assignable =
      std::is_same_v<typename AccessSpace::memory_space, MemorySpace> ||
      Impl::MemorySpaceAccess<typename AccessSpace::memory_space, MemorySpace>::assignable;
  static constexpr bool deepcopy = true;
};

namespace Impl {
// Resolve an execution space, memory space or Device into (execution, memory, device).
template <class Space, class = void>
struct SpaceTraits;
template <class Space>
struct SpaceTraits<Space, std::enable_if_t<is_execution_space_v<Space>>> {
  using execution_space = Space;
  using memory_space = typename Space::memory_space;
  using device_type = Device<execution_space, memory_space>;
};
template <class Space>
struct SpaceTraits<Space, std::enable_if_t<!is_execution_space_v<Space> && is_memory_space_v<Space>>> {
  using execution_space = typename Space::execution_space;
  using memory_space = Space;
  using device_type = Device<execution_space, memory_space>;
};
template <class E, class M>
struct SpaceTraits<Device<E, M>, void> {
  using execution_space = E;
  using memory_space = M;
  using device_type = Device<E, M>;
};
}  // namespace Impl

// Work tags and policy traits.
template <class T>
struct is_work_tag : std::bool_constant<std::is_empty_v<T>> {};

template <class T>
struct IndexType {
  static_assert(std::is_integral_v<T>, "Kokkos::IndexType<T>: T must be an integral type");
  using index_type = T;
  using type = T;
};

struct Static {};
struct Dynamic {};
template <class T = Static>
struct Schedule {
  static_assert(std::is_same_v<T, Static> || std::is_same_v<T, Dynamic>,
                "Kokkos::Schedule<T>: T must be Kokkos::Static or Kokkos::Dynamic");
  using type = T;
  using schedule_type = Schedule<T>;
};

// Threads per block and blocks per multiprocessor a GPU launch should be compiled for; accepted
// and recorded on the host, where it has no effect (as in Kokkos' host back ends).
template <unsigned int maxT = 0, unsigned int minB = 0>
struct LaunchBounds {
  using launch_bounds = LaunchBounds;
  using type = LaunchBounds<maxT, minB>;
  static constexpr unsigned int maxTperB{maxT};
  static constexpr unsigned int minBperSM{minB};
};

}  // namespace Kokkos

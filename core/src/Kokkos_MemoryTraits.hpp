#pragma once
// Memory access traits of a View: Unmanaged (no reference counting), RandomAccess, Atomic
// (every element access is atomic), Restrict, Aligned.
//
// Restrict, and RandomAccess on a View of const data, promise that during a kernel the
// elements read through the View are not written through any other View or pointer; the
// View then holds a restrict-qualified pointer (View::handle_type) so the compiler may
// reorder and vectorise around the kernel's other stores (a gather, for instance).
#include <Kokkos_Macros.hpp>

#include <type_traits>

namespace Kokkos {

enum MemoryTraitsFlags : unsigned {
  Unmanaged = 0x01,
  RandomAccess = 0x02,
  Atomic = 0x04,
  Restrict = 0x08,
  Aligned = 0x10
};

template <unsigned T>
struct MemoryTraits {
  using memory_traits = MemoryTraits<T>;
  static constexpr unsigned impl_value = T;
  static constexpr bool is_unmanaged = (T & unsigned(Unmanaged)) != 0;
  static constexpr bool is_random_access = (T & unsigned(RandomAccess)) != 0;
  static constexpr bool is_atomic = (T & unsigned(Atomic)) != 0;
  static constexpr bool is_restrict = (T & unsigned(Restrict)) != 0;
  static constexpr bool is_aligned = (T & unsigned(Aligned)) != 0;
};

using MemoryManaged = MemoryTraits<0>;
using MemoryUnmanaged = MemoryTraits<unsigned(Unmanaged)>;
using MemoryRandomAccess = MemoryTraits<unsigned(Unmanaged) | unsigned(RandomAccess)>;

namespace Impl {
template <class T>
struct is_memory_traits_unqualified : std::false_type {};
template <unsigned T>
struct is_memory_traits_unqualified<MemoryTraits<T>> : std::true_type {};
}  // namespace Impl
template <class T>
struct is_memory_traits : Impl::is_memory_traits_unqualified<std::remove_cv_t<T>> {};
template <class T>
inline constexpr bool is_memory_traits_v = is_memory_traits<T>::value;

}  // namespace Kokkos

#pragma once
// Kokkos::kokkos_swap: std::swap for functors on every back end (std::swap is not
// device-callable), for any move-constructible and move-assignable type and for built-in
// arrays, element by element.
//
//   Kokkos::kokkos_swap(x(i), x(j));
//   double a[3], b[3];  Kokkos::kokkos_swap(a, b);
//
// Types with a cheaper swap (Kokkos::Array) provide a kokkos_swap found by argument-dependent
// lookup; an array's elements (arrays themselves, possibly) are swapped through such an
// overload when there is one.
#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace Kokkos {

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T>
KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<std::is_move_constructible_v<T> && std::is_move_assignable_v<T>>
kokkos_swap(T& a, T& b) noexcept(std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>) {
  T tmp = static_cast<T&&>(a);
  a = static_cast<T&&>(b);
  b = static_cast<T&&>(tmp);
}

namespace Impl {
template <class T>
struct is_swappable;
template <class T>
struct is_nothrow_swappable;
}  // namespace Impl

// Declared before the traits below, so that they see it: arrays of arrays swap too.
template <class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<Impl::is_swappable<T>::value> kokkos_swap(T (&a)[N], T (&b)[N]) noexcept(
    Impl::is_nothrow_swappable<T>::value);

namespace Impl {
// Whether kokkos_swap(a, b) is callable for lvalues of T, with Kokkos' overloads and those
// found by argument-dependent lookup both in view.
namespace SwapDetail {
using Kokkos::kokkos_swap;
template <class T, class = void>
struct is_swappable : std::false_type {};
template <class T>
struct is_swappable<T, std::void_t<decltype(kokkos_swap(std::declval<T&>(), std::declval<T&>()))>>
    : std::true_type {};
template <class T, bool = is_swappable<T>::value>
struct is_nothrow_swappable : std::false_type {};
template <class T>
struct is_nothrow_swappable<T, true>
    : std::bool_constant<noexcept(kokkos_swap(std::declval<T&>(), std::declval<T&>()))> {};
}  // namespace SwapDetail
template <class T>
struct is_swappable : SwapDetail::is_swappable<T> {};
template <class T>
struct is_nothrow_swappable : SwapDetail::is_nothrow_swappable<T> {};
template <class T>
inline constexpr bool is_swappable_v = is_swappable<T>::value;
template <class T>
inline constexpr bool is_nothrow_swappable_v = is_nothrow_swappable<T>::value;
}  // namespace Impl

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<Impl::is_swappable<T>::value> kokkos_swap(T (&a)[N], T (&b)[N]) noexcept(
    Impl::is_nothrow_swappable<T>::value) {
  for (std::size_t i = 0; i < N; ++i) {
    using Kokkos::kokkos_swap;
    kokkos_swap(a[i], b[i]);
  }
}

}  // namespace Kokkos

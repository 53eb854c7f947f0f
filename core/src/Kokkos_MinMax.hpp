#pragma once
// Kokkos::min, max and minmax: <algorithm>'s, constexpr and callable in functors on every back
// end (std::min is not device-callable without relaxed constexpr).
//
//   const double& m = Kokkos::max(a, b);
//   auto [lo, hi] = Kokkos::minmax(a, b);                 // Kokkos::pair<const T&, const T&>
//   int smallest = Kokkos::min({3, 1, 2});                 // initializer_list forms
//   auto by_abs = Kokkos::max(a, b, [](double x, double y) { return x * x < y * y; });
//
// Ties behave as in the standard library: min and max of equal elements return the first;
// minmax(a, b) returns (a, b); minmax over a list returns the first smallest and the last
// largest.  The list forms require a non-empty list, as std does.
#include <Kokkos_Macros.hpp>
#if __has_include(<Kokkos_Pair.hpp>)
#include <Kokkos_Pair.hpp>
#else
#include <Kokkos_Layout.hpp>  // Kokkos::pair
#endif

#include <initializer_list>

namespace Kokkos {

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T>
KOKKOS_INLINE_FUNCTION constexpr const T& max(const T& a, const T& b) {
  return (a < b) ? b : a;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T, class Compare>
KOKKOS_INLINE_FUNCTION constexpr const T& max(const T& a, const T& b, Compare comp) {
  return comp(a, b) ? b : a;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T, class Compare>
KOKKOS_INLINE_FUNCTION constexpr T max(std::initializer_list<T> list, Compare comp) {
  const T* largest = list.begin();
  for (const T* it = list.begin() + 1; it < list.end(); ++it)
    if (comp(*largest, *it)) largest = it;
  return *largest;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T>
KOKKOS_INLINE_FUNCTION constexpr T max(std::initializer_list<T> list) {
  const T* largest = list.begin();
  for (const T* it = list.begin() + 1; it < list.end(); ++it)
    if (*largest < *it) largest = it;
  return *largest;
}

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T>
KOKKOS_INLINE_FUNCTION constexpr const T& min(const T& a, const T& b) {
  return (b < a) ? b : a;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T, class Compare>
KOKKOS_INLINE_FUNCTION constexpr const T& min(const T& a, const T& b, Compare comp) {
  return comp(b, a) ? b : a;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T, class Compare>
KOKKOS_INLINE_FUNCTION constexpr T min(std::initializer_list<T> list, Compare comp) {
  const T* smallest = list.begin();
  for (const T* it = list.begin() + 1; it < list.end(); ++it)
    if (comp(*it, *smallest)) smallest = it;
  return *smallest;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T>
KOKKOS_INLINE_FUNCTION constexpr T min(std::initializer_list<T> list) {
  const T* smallest = list.begin();
  for (const T* it = list.begin() + 1; it < list.end(); ++it)
    if (*it < *smallest) smallest = it;
  return *smallest;
}

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T>
KOKKOS_INLINE_FUNCTION constexpr Kokkos::pair<const T&, const T&> minmax(const T& a, const T& b) {
  using result = Kokkos::pair<const T&, const T&>;
  return (b < a) ? result(b, a) : result(a, b);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T, class Compare>
KOKKOS_INLINE_FUNCTION constexpr Kokkos::pair<const T&, const T&> minmax(const T& a, const T& b, Compare comp) {
  using result = Kokkos::pair<const T&, const T&>;
  return comp(b, a) ? result(b, a) : result(a, b);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T, class Compare>
KOKKOS_INLINE_FUNCTION constexpr Kokkos::pair<T, T> minmax(std::initializer_list<T> list, Compare comp) {
  const T* smallest = list.begin();
  const T* largest = list.begin();
  for (const T* it = list.begin() + 1; it < list.end(); ++it) {
    if (comp(*it, *smallest)) smallest = it;
    if (!comp(*it, *largest)) largest = it;
  }
  return Kokkos::pair<T, T>(*smallest, *largest);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T>
KOKKOS_INLINE_FUNCTION constexpr Kokkos::pair<T, T> minmax(std::initializer_list<T> list) {
  const T* smallest = list.begin();
  const T* largest = list.begin();
  for (const T* it = list.begin() + 1; it < list.end(); ++it) {
    if (*it < *smallest) smallest = it;
    if (!(*it < *largest)) largest = it;
  }
  return Kokkos::pair<T, T>(*smallest, *largest);
}

}  // namespace Kokkos

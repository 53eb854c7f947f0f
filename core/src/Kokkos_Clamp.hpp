#pragma once
// Kokkos::clamp: <algorithm>'s std::clamp, constexpr and callable in functors on every back end.
//
//   double c = Kokkos::clamp(x, 0.0, 1.0);
//   auto by_abs = Kokkos::clamp(x, lo, hi, [](double a, double b) { return a * a < b * b; });
//
// Returns a reference to lo when value < lo, to hi when hi < value, else to value (so a
// value equal to a bound is returned itself).  As in std, the bounds must satisfy !(hi < lo).
#include <Kokkos_Macros.hpp>

namespace Kokkos {

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T>
KOKKOS_INLINE_FUNCTION constexpr const T& clamp(const T& value, const T& lo, const T& hi) {
  return (value < lo) ? lo : (hi < value) ? hi : value;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T, class Compare>
KOKKOS_INLINE_FUNCTION constexpr const T& clamp(const T& value, const T& lo, const T& hi, Compare comp) {
  return comp(value, lo) ? lo : comp(hi, value) ? hi : value;
}

}  // namespace Kokkos

#pragma once
#include <Kokkos_Macros.hpp>
#include <bit>
#include <type_traits>

namespace Kokkos {
// Constexpr and device-callable counterparts of <bit> for unsigned integers.
template <class T>
concept impl_unsigned_integral = std::is_unsigned_v<T> && !std::is_same_v<T, bool>;

template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr int countl_zero(T x) noexcept {
  constexpr int digits = sizeof(T) * 8;
  if (x == 0) return digits;
  int n = 0;
  for (T mask = T(1) << (digits - 1); (x & mask) == 0; mask >>= 1) ++n;
  return n;
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr int countr_zero(T x) noexcept {
  constexpr int digits = sizeof(T) * 8;
  if (x == 0) return digits;
  int n = 0;
  while ((x & T(1)) == 0) { x >>= 1; ++n; }
  return n;
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr int popcount(T x) noexcept {
  int n = 0;
  for (; x; x &= x - 1) ++n;
  return n;
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr T bit_width(T x) noexcept {
  return T(sizeof(T) * 8 - countl_zero(x));
}
// Smallest power of two not less than x; bit_ceil(0) == 1 like std::bit_ceil.
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr T bit_ceil(T x) noexcept {
  if (x <= 1) return T(1);
  return T(T(1) << bit_width(T(x - 1)));
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr T bit_floor(T x) noexcept {
  if (x == 0) return 0;
  return T(T(1) << (bit_width(x) - 1));
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr bool has_single_bit(T x) noexcept {
  return x != 0 && (x & (x - 1)) == 0;
}
}  // namespace Kokkos

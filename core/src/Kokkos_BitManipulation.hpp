#pragma once
// C++20 <bit> (and C++23 byteswap) as Kokkos 4 provides it: constexpr, callable in functors on
// every back end.
//
//   int n = Kokkos::popcount(mask);                        // unsigned integer types only
//   auto bits = Kokkos::bit_cast<std::uint64_t>(1.0);
//   int lz = Kokkos::Experimental::countl_zero_builtin(x);  // compiler intrinsic, not constexpr
//
// The counting and power-of-two functions take the standard unsigned integer types (unsigned
// char ... unsigned long long); byteswap takes any integral type.  bit_width returns T, as in
// Kokkos.  The Experimental::*_builtin variants compute the same results with the compiler's
// intrinsics (__builtin_clz..., or CUDA's __clz/__popc on a device).
#include <Kokkos_Macros.hpp>

#include <climits>
#include <cstddef>
#include <cstring>
#include <type_traits>

namespace Kokkos {
namespace Impl {
template <class T>
inline constexpr bool is_standard_unsigned_integer_type_v =
    std::is_same_v<T, unsigned char> || std::is_same_v<T, unsigned short> || std::is_same_v<T, unsigned int> ||
    std::is_same_v<T, unsigned long> || std::is_same_v<T, unsigned long long>;
template <class T>
inline constexpr int bit_digits_v = static_cast<int>(sizeof(T) * CHAR_BIT);
}  // namespace Impl

template <class T>
concept impl_unsigned_integral = Impl::is_standard_unsigned_integer_type_v<T>;

// ---- bit_cast, byteswap ----------------------------------------------------------------------
template <class To, class From>
KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> &&
                                                      std::is_trivially_copyable_v<From>,
                                                  To>
bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}

template <class T>
KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<std::is_integral_v<T>, T> byteswap(T value) noexcept {
  if constexpr (sizeof(T) == 1) {
    return value;
  } else {
    using U = std::make_unsigned_t<T>;
    U in = static_cast<U>(value);
    U out = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      out = static_cast<U>((out << CHAR_BIT) | (in & static_cast<U>(0xff)));
      in = static_cast<U>(in >> CHAR_BIT);
    }
    return static_cast<T>(out);
  }
}

// ---- counting ----------------------------------------------------------------------------------
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr int countl_zero(T x) noexcept {
  constexpr int digits = Impl::bit_digits_v<T>;
  if (x == 0) return digits;
  int n = 0;
  for (T mask = T(T(1) << (digits - 1)); (x & mask) == 0; mask = T(mask >> 1)) ++n;
  return n;
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr int countl_one(T x) noexcept {
  return countl_zero(T(~x));
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr int countr_zero(T x) noexcept {
  if (x == 0) return Impl::bit_digits_v<T>;
  int n = 0;
  while ((x & T(1)) == 0) {
    x = T(x >> 1);
    ++n;
  }
  return n;
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr int countr_one(T x) noexcept {
  return countr_zero(T(~x));
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr int popcount(T x) noexcept {
  int n = 0;
  for (; x; x = T(x & (x - 1))) ++n;
  return n;
}

// ---- powers of two -----------------------------------------------------------------------------
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr bool has_single_bit(T x) noexcept {
  return x != 0 && (x & (x - 1)) == 0;
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr T bit_width(T x) noexcept {
  return T(Impl::bit_digits_v<T> - countl_zero(x));
}
// Smallest power of two not less than x; bit_ceil(0) == 1 like std::bit_ceil.  Undefined, as
// in std, when the result does not fit in T.
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

// ---- rotation ----------------------------------------------------------------------------------
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr T rotl(T x, int s) noexcept {
  constexpr int digits = Impl::bit_digits_v<T>;
  const int r = s % digits;
  if (r == 0) return x;
  if (r > 0) return T(T(x << r) | T(x >> (digits - r)));
  return T(T(x >> -r) | T(x << (digits + r)));
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION constexpr T rotr(T x, int s) noexcept {
  constexpr int digits = Impl::bit_digits_v<T>;
  const int r = s % digits;
  if (r == 0) return x;
  if (r > 0) return T(T(x >> r) | T(x << (digits - r)));
  return T(T(x << -r) | T(x >> (digits + r)));
}

namespace Experimental {

namespace Impl {
// The 32- and 64-bit intrinsics; narrower types are widened and the extra width subtracted.
template <class T>
KOKKOS_INLINE_FUNCTION int countl_zero_intrinsic(T x) noexcept {  // x != 0
  if constexpr (sizeof(T) <= sizeof(unsigned int)) {
    constexpr int extra = static_cast<int>((sizeof(unsigned int) - sizeof(T)) * CHAR_BIT);
    KOKKOS_IF_ON_DEVICE((return __clz(static_cast<int>(static_cast<unsigned int>(x))) - extra;))
    KOKKOS_IF_ON_HOST((return __builtin_clz(static_cast<unsigned int>(x)) - extra;))
  } else {
    KOKKOS_IF_ON_DEVICE((return __clzll(static_cast<long long>(static_cast<unsigned long long>(x)));))
    KOKKOS_IF_ON_HOST((return __builtin_clzll(static_cast<unsigned long long>(x));))
  }
}
template <class T>
KOKKOS_INLINE_FUNCTION int countr_zero_intrinsic(T x) noexcept {  // x != 0
  if constexpr (sizeof(T) <= sizeof(unsigned int)) {
    KOKKOS_IF_ON_DEVICE((return __ffs(static_cast<int>(static_cast<unsigned int>(x))) - 1;))
    KOKKOS_IF_ON_HOST((return __builtin_ctz(static_cast<unsigned int>(x));))
  } else {
    KOKKOS_IF_ON_DEVICE((return __ffsll(static_cast<long long>(static_cast<unsigned long long>(x))) - 1;))
    KOKKOS_IF_ON_HOST((return __builtin_ctzll(static_cast<unsigned long long>(x));))
  }
}
template <class T>
KOKKOS_INLINE_FUNCTION int popcount_intrinsic(T x) noexcept {
  if constexpr (sizeof(T) <= sizeof(unsigned int)) {
    KOKKOS_IF_ON_DEVICE((return __popc(static_cast<unsigned int>(x));))
    KOKKOS_IF_ON_HOST((return __builtin_popcount(static_cast<unsigned int>(x));))
  } else {
    KOKKOS_IF_ON_DEVICE((return __popcll(static_cast<unsigned long long>(x));))
    KOKKOS_IF_ON_HOST((return __builtin_popcountll(static_cast<unsigned long long>(x));))
  }
}
}  // namespace Impl

template <class To, class From>
KOKKOS_INLINE_FUNCTION std::enable_if_t<sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> &&
                                            std::is_trivially_copyable_v<From>,
                                        To>
bit_cast_builtin(const From& from) noexcept {
  To to;
  std::memcpy(static_cast<void*>(&to), static_cast<const void*>(&from), sizeof(To));
  return to;
}

template <class T>
KOKKOS_INLINE_FUNCTION std::enable_if_t<std::is_integral_v<T>, T> byteswap_builtin(T x) noexcept {
  if constexpr (sizeof(T) == 1) {
    return x;
  } else if constexpr (sizeof(T) == 2) {
    KOKKOS_IF_ON_DEVICE((return Kokkos::byteswap(x);))
    KOKKOS_IF_ON_HOST((return static_cast<T>(__builtin_bswap16(static_cast<unsigned short>(x)));))
  } else if constexpr (sizeof(T) == 4) {
    KOKKOS_IF_ON_DEVICE((return static_cast<T>(__byte_perm(static_cast<unsigned int>(x), 0, 0x0123));))
    KOKKOS_IF_ON_HOST((return static_cast<T>(__builtin_bswap32(static_cast<unsigned int>(x)));))
  } else {
    KOKKOS_IF_ON_DEVICE((return Kokkos::byteswap(x);))
    KOKKOS_IF_ON_HOST((return static_cast<T>(__builtin_bswap64(static_cast<unsigned long long>(x)));))
  }
}

template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION int countl_zero_builtin(T x) noexcept {
  return x == 0 ? Kokkos::Impl::bit_digits_v<T> : Impl::countl_zero_intrinsic(x);
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION int countl_one_builtin(T x) noexcept {
  return countl_zero_builtin(T(~x));
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION int countr_zero_builtin(T x) noexcept {
  return x == 0 ? Kokkos::Impl::bit_digits_v<T> : Impl::countr_zero_intrinsic(x);
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION int countr_one_builtin(T x) noexcept {
  return countr_zero_builtin(T(~x));
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION int popcount_builtin(T x) noexcept {
  return Impl::popcount_intrinsic(x);
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION bool has_single_bit_builtin(T x) noexcept {
  return has_single_bit(x);  // already a single branch-free test
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION T bit_width_builtin(T x) noexcept {
  return T(Kokkos::Impl::bit_digits_v<T> - countl_zero_builtin(x));
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION T bit_ceil_builtin(T x) noexcept {
  if (x <= 1) return T(1);
  return T(T(1) << bit_width_builtin(T(x - 1)));
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION T bit_floor_builtin(T x) noexcept {
  if (x == 0) return 0;
  return T(T(1) << (bit_width_builtin(x) - 1));
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION T rotl_builtin(T x, int s) noexcept {
  return rotl(x, s);  // compilers recognise the shift pair as a rotate instruction
}
template <impl_unsigned_integral T>
KOKKOS_INLINE_FUNCTION T rotr_builtin(T x, int s) noexcept {
  return rotr(x, s);
}

}  // namespace Experimental
}  // namespace Kokkos

#pragma once
// Kokkos::Experimental::half_t (IEEE binary16) and bhalf_t (bfloat16): 16-bit floating-point
// values for storage and bandwidth, computed in float.
//
//   using Kokkos::Experimental::half_t;
//   Kokkos::View<half_t*> v("v", n);
//   v(i) = half_t(0.1f);                    // rounds to the nearest binary16 value
//   float f = static_cast<float>(v(i) * v(i));
//
// Both are two bytes on every back end (KOKKOS_HALF_T_IS_FLOAT and KOKKOS_BHALF_T_IS_FLOAT are
// false; Kokkos' host-only builds make them wrappers of float instead).  Every operation
// converts to float, computes, and rounds the result to nearest-even, so results are those of
// IEEE arithmetic in the narrow format.  Mixed expressions with float or double compute in that
// type, as in Kokkos.
//
// Storage: g++ on x86-64 has _Float16 and half_t keeps one (conversions are the compiler's);
// elsewhere, and for bhalf_t until compilers offer __bf16 (g++ 13), the bits are held in a
// uint16_t and converted by Impl::binary_float_format, a bit-level round-to-nearest-even
// implementation.  The CUDA back end's seam is the pair of *_storage traits below: __half and
// __nv_bfloat16 from cuda_fp16.h / cuda_bf16.h with their intrinsic conversions.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Reducers.hpp>  // the primary reduction_identity template
#include <impl/Kokkos_BinaryFloatFormat.hpp>

#include <cstdint>
#include <istream>
#include <ostream>
#include <type_traits>

#define KOKKOS_HALF_T_IS_FLOAT false
#define KOKKOS_BHALF_T_IS_FLOAT false

// One storage per program: in a CUDA build, translation units compiled by nvcc and by the host
// compiler alone must agree on the class's definition, so neither takes the host-only types.
#if defined(__FLT16_MANT_DIG__) && !defined(__CUDACC__) && !defined(KOKKOS_ENABLE_CUDA)
#define KOKKOS_IMPL_HALF_NATIVE_FLOAT16
#endif
#if defined(__BFLT16_MANT_DIG__) && !defined(__CUDACC__) && !defined(KOKKOS_ENABLE_CUDA)
#define KOKKOS_IMPL_BHALF_NATIVE_BF16
#endif

namespace Kokkos::Experimental {
namespace Impl {

// The software representation: the bits, converted by a binary_float_format.
template <class Format>
struct software_float_storage {
  struct type {
    std::uint16_t bits;
  };
  KOKKOS_INLINE_FUNCTION static constexpr type from_double(double x) { return type{Format::encode(x)}; }
  KOKKOS_INLINE_FUNCTION static constexpr float to_float(type v) { return static_cast<float>(Format::decode(v.bits)); }
  KOKKOS_INLINE_FUNCTION static constexpr double to_double(type v) { return Format::decode(v.bits); }
  KOKKOS_INLINE_FUNCTION static constexpr std::uint16_t to_bits(type v) { return v.bits; }
  KOKKOS_INLINE_FUNCTION static constexpr type from_bits(std::uint16_t b) { return type{b}; }
};

// A compiler's own 16-bit type: conversions round to nearest-even in hardware or libgcc.
template <class Native>
struct native_float_storage {
  static_assert(sizeof(Native) == 2);
  using type = Native;
  KOKKOS_INLINE_FUNCTION static constexpr type from_double(double x) { return static_cast<Native>(x); }
  KOKKOS_INLINE_FUNCTION static constexpr float to_float(type v) { return static_cast<float>(v); }
  KOKKOS_INLINE_FUNCTION static constexpr double to_double(type v) { return static_cast<double>(v); }
  KOKKOS_INLINE_FUNCTION static constexpr std::uint16_t to_bits(type v) { return std::bit_cast<std::uint16_t>(v); }
  KOKKOS_INLINE_FUNCTION static constexpr type from_bits(std::uint16_t b) { return std::bit_cast<Native>(b); }
};

struct half_storage
#if defined(KOKKOS_IMPL_HALF_NATIVE_FLOAT16)
    : native_float_storage<_Float16> {
#else
    : software_float_storage<binary16_format> {
#endif
  using format = binary16_format;
};

struct bhalf_storage
#if defined(KOKKOS_IMPL_BHALF_NATIVE_BF16)
    : native_float_storage<__bf16> {
#else
    : software_float_storage<bfloat16_format> {
#endif
  using format = bfloat16_format;
};

template <class T>
inline constexpr bool is_float_or_double_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

// A bit pattern of a 16-bit format, as Kokkos' numeric traits give half values: a constant
// expression on every back end, convertible to the half type, with no arithmetic of its own.
template <class FloatType>
struct BitComparisonWrapper {
  std::uint16_t value;
};

// The 16-bit value type: Storage says how to hold the bits and convert them.
template <class Storage>
class alignas(2) floating_point_wrapper {
 public:
  using impl_type = typename Storage::type;
  using bit_comparison_type = BitComparisonWrapper<floating_point_wrapper>;

 private:
  impl_type val;

  KOKKOS_INLINE_FUNCTION static constexpr floating_point_wrapper from_float(float f) {
    return floating_point_wrapper(Storage::from_double(f));
  }
  KOKKOS_INLINE_FUNCTION constexpr float as_float() const { return Storage::to_float(val); }

 public:
  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper() : val(Storage::from_bits(0)) {}
  KOKKOS_DEFAULTED_FUNCTION constexpr floating_point_wrapper(const floating_point_wrapper&) noexcept = default;
  KOKKOS_DEFAULTED_FUNCTION constexpr floating_point_wrapper& operator=(const floating_point_wrapper&) noexcept =
      default;

  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper(impl_type rhs) : val(rhs) {}
  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper(bit_comparison_type rhs)
      : val(Storage::from_bits(rhs.value)) {}
  // Implicit from floating-point and integer values (as Kokkos), explicit from bool.
  template <class T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, int> = 0>
  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper(T rhs) : val(Storage::from_double(static_cast<double>(rhs))) {}
  KOKKOS_INLINE_FUNCTION constexpr explicit floating_point_wrapper(bool rhs)
      : val(Storage::from_double(rhs ? 1.0 : 0.0)) {}

  KOKKOS_INLINE_FUNCTION constexpr explicit operator impl_type() const { return val; }
  // Explicit to every arithmetic type; integers truncate, as a float would.
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  KOKKOS_INLINE_FUNCTION constexpr explicit operator T() const {
    if constexpr (std::is_same_v<T, double>)
      return Storage::to_double(val);
    else
      return static_cast<T>(as_float());
  }

  // The bit pattern (not in Kokkos' interface; for tests and tools).
  KOKKOS_INLINE_FUNCTION constexpr std::uint16_t impl_bits() const { return Storage::to_bits(val); }
  KOKKOS_INLINE_FUNCTION static constexpr floating_point_wrapper impl_from_bits(std::uint16_t b) {
    return floating_point_wrapper(Storage::from_bits(b));
  }

  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper operator+() const { return *this; }
  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper operator-() const {
    return impl_from_bits(std::uint16_t(impl_bits() ^ Storage::format::sign_mask));  // exact, NaN included
  }
  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper& operator++() { return *this = from_float(as_float() + 1.0f); }
  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper& operator--() { return *this = from_float(as_float() - 1.0f); }
  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper operator++(int) {
    floating_point_wrapper old = *this;
    ++*this;
    return old;
  }
  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper operator--(int) {
    floating_point_wrapper old = *this;
    --*this;
    return old;
  }

  // A float or double operand: the other converts to it and the operation is that type's.
#define KOKKOS_IMPL_HALF_UPCAST(OP, RESULT)                                              \
  template <class T, std::enable_if_t<is_float_or_double_v<T>, int> = 0>                 \
  friend KOKKOS_INLINE_FUNCTION constexpr RESULT operator OP(floating_point_wrapper a, T b) { \
    return static_cast<T>(a) OP b;                                                       \
  }                                                                                      \
  template <class T, std::enable_if_t<is_float_or_double_v<T>, int> = 0>                 \
  friend KOKKOS_INLINE_FUNCTION constexpr RESULT operator OP(T a, floating_point_wrapper b) { \
    return a OP static_cast<T>(b);                                                       \
  }

  // Arithmetic within the format: in float, then rounded to the format.  Rounding twice is
  // harmless here: float's 24-bit significand is at least 2p + 2 bits for p = 11 (binary16) and
  // p = 8 (bfloat16), which makes + - * / correctly rounded (Figueroa, "When is double rounding
  // innocuous?", 1995).
#define KOKKOS_IMPL_HALF_ARITHMETIC(OP)                                                                          \
  friend KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper operator OP(floating_point_wrapper a,            \
                                                                            floating_point_wrapper b) {          \
    return from_float(a.as_float() OP b.as_float());                                                             \
  }                                                                                                              \
  KOKKOS_IMPL_HALF_UPCAST(OP, T)                                                                                 \
  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper& operator OP##=(floating_point_wrapper b) {            \
    return *this = *this OP b;                                                                                   \
  }                                                                                                              \
  /* h += 0.1 computes in double and rounds once, as Kokkos */                                                   \
  template <class T, std::enable_if_t<is_float_or_double_v<T>, int> = 0>                                         \
  KOKKOS_INLINE_FUNCTION constexpr floating_point_wrapper& operator OP##=(T b) {                                 \
    return *this = floating_point_wrapper(static_cast<T>(*this) OP b);                                          \
  }                                                                                                              \
  template <class T, std::enable_if_t<is_float_or_double_v<T>, int> = 0>                                         \
  friend KOKKOS_INLINE_FUNCTION constexpr T& operator OP##=(T& a, floating_point_wrapper b) {                    \
    return a OP##= static_cast<T>(b);                                                                           \
  }
  KOKKOS_IMPL_HALF_ARITHMETIC(+)
  KOKKOS_IMPL_HALF_ARITHMETIC(-)
  KOKKOS_IMPL_HALF_ARITHMETIC(*)
  KOKKOS_IMPL_HALF_ARITHMETIC(/)
#undef KOKKOS_IMPL_HALF_ARITHMETIC

  // Comparisons: IEEE (NaN unordered, -0 == +0); against float or double in that type.
#define KOKKOS_IMPL_HALF_COMPARISON(OP)                                                                 \
  friend KOKKOS_INLINE_FUNCTION constexpr bool operator OP(floating_point_wrapper a,                    \
                                                           floating_point_wrapper b) {                  \
    return a.as_float() OP b.as_float();                                                                \
  }                                                                                                     \
  KOKKOS_IMPL_HALF_UPCAST(OP, bool)
  KOKKOS_IMPL_HALF_COMPARISON(==)
  KOKKOS_IMPL_HALF_COMPARISON(!=)
  KOKKOS_IMPL_HALF_COMPARISON(<)
  KOKKOS_IMPL_HALF_COMPARISON(<=)
  KOKKOS_IMPL_HALF_COMPARISON(>)
  KOKKOS_IMPL_HALF_COMPARISON(>=)
#undef KOKKOS_IMPL_HALF_COMPARISON
#undef KOKKOS_IMPL_HALF_UPCAST

  friend std::ostream& operator<<(std::ostream& os, const floating_point_wrapper& x) { return os << x.as_float(); }
  friend std::istream& operator>>(std::istream& is, floating_point_wrapper& x) {
    float f;
    if (is >> f) x = from_float(f);
    return is;
  }
};

}  // namespace Impl

using half_t = Impl::floating_point_wrapper<Impl::half_storage>;
using bhalf_t = Impl::floating_point_wrapper<Impl::bhalf_storage>;

template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr half_t cast_to_half(T val) {
  return half_t(static_cast<double>(val));
}
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr T cast_from_half(half_t val) {
  return static_cast<T>(val);
}
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr bhalf_t cast_to_bhalf(T val) {
  return bhalf_t(static_cast<double>(val));
}
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr T cast_from_bhalf(bhalf_t val) {
  return static_cast<T>(val);
}

// Numeric traits: the traits Kokkos defines for half_t and bhalf_t, distinguished values as
// bit_comparison_type bit patterns (as in Kokkos), characteristics as int.  Kokkos defines no
// denorm_min, reciprocal_overflow_threshold, max_digits10 or *_exponent10 for them.
namespace Impl {
#define KOKKOS_IMPL_HALF_TRAIT(TRAIT, TYPE, VALUE_TYPE, VALUE) \
  template <>                                                 \
  struct TRAIT##_helper<TYPE> {                               \
    static constexpr VALUE_TYPE value{VALUE};                 \
  };
#define KOKKOS_IMPL_HALF_TRAITS(TYPE, INF, LOWEST, MAX, EPS, ROUND, NORM_MIN, QNAN, SNAN, DIGITS, DIGITS10, MIN_EXP, \
                                MAX_EXP)                                                                           \
  KOKKOS_IMPL_HALF_TRAIT(infinity, TYPE, TYPE::bit_comparison_type, INF)                                          \
  KOKKOS_IMPL_HALF_TRAIT(finite_min, TYPE, TYPE::bit_comparison_type, LOWEST)                                     \
  KOKKOS_IMPL_HALF_TRAIT(finite_max, TYPE, TYPE::bit_comparison_type, MAX)                                        \
  KOKKOS_IMPL_HALF_TRAIT(epsilon, TYPE, TYPE::bit_comparison_type, EPS)                                           \
  KOKKOS_IMPL_HALF_TRAIT(round_error, TYPE, TYPE::bit_comparison_type, ROUND)                                     \
  KOKKOS_IMPL_HALF_TRAIT(norm_min, TYPE, TYPE::bit_comparison_type, NORM_MIN)                                     \
  KOKKOS_IMPL_HALF_TRAIT(quiet_NaN, TYPE, TYPE::bit_comparison_type, QNAN)                                        \
  KOKKOS_IMPL_HALF_TRAIT(signaling_NaN, TYPE, TYPE::bit_comparison_type, SNAN)                                    \
  KOKKOS_IMPL_HALF_TRAIT(digits, TYPE, int, DIGITS)                                                               \
  KOKKOS_IMPL_HALF_TRAIT(digits10, TYPE, int, DIGITS10)                                                           \
  KOKKOS_IMPL_HALF_TRAIT(radix, TYPE, int, 2)                                                                     \
  KOKKOS_IMPL_HALF_TRAIT(min_exponent, TYPE, int, MIN_EXP)                                                        \
  KOKKOS_IMPL_HALF_TRAIT(max_exponent, TYPE, int, MAX_EXP)
// binary16: 65504, 2^-10, 0.5, 2^-14; 11 significand bits.
KOKKOS_IMPL_HALF_TRAITS(half_t, 0x7C00, 0xFBFF, 0x7BFF, 0x1400, 0x3800, 0x0400, 0x7E00, 0x7D00, 11, 3, -13, 16)
// bfloat16: 3.3895e38, 2^-7, 0.5, 2^-126; 8 significand bits (Kokkos 4.6 says 2, and digits10
// 1, miscounting the stored 7 fraction bits; these are numeric_limits' values).
KOKKOS_IMPL_HALF_TRAITS(bhalf_t, 0x7F80, 0xFF7F, 0x7F7F, 0x3C00, 0x3F00, 0x0080, 0x7FC0, 0x7FA0, 8, 2, -125, 128)
#undef KOKKOS_IMPL_HALF_TRAITS
#undef KOKKOS_IMPL_HALF_TRAIT
}  // namespace Impl

}  // namespace Kokkos::Experimental

namespace Kokkos {
// Sum, Prod, Min and Max over half values; min()/max() are the largest / lowest finite values, as
// in Kokkos.
template <class Storage>
struct reduction_identity<Kokkos::Experimental::Impl::floating_point_wrapper<Storage>> {
  using value_type = Kokkos::Experimental::Impl::floating_point_wrapper<Storage>;
  KOKKOS_FORCEINLINE_FUNCTION constexpr static value_type sum() noexcept { return value_type(0.0f); }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static value_type prod() noexcept { return value_type(1.0f); }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static value_type max() noexcept { return -min(); }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static value_type min() noexcept {
    return value_type::impl_from_bits(Storage::format::max_finite_bits);
  }
};
}  // namespace Kokkos

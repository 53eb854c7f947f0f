#pragma once
// Numeric traits (Kokkos::Experimental) and reduction_identity<T> (Kokkos), as in Kokkos 4.
//
//   constexpr double big = Kokkos::Experimental::finite_max_v<double>;
//   int bits = Kokkos::Experimental::digits<unsigned>::value;           // 32
//   val = Kokkos::reduction_identity<float>::min();                      // FLT_MAX
//
// std::numeric_limits is not callable from device code without relaxed constexpr; these
// traits are plain constants, so a functor reads them on any back end.  Each trait is a class
// template with a `value` member and a `_v` variable template; a trait is defined only for
// the types where it is meaningful (infinity<int> has no `value`), so misuse fails at compile
// time.  Other numeric types (half_t, bhalf_t) join by specializing the Impl::X_helper
// templates, as in Kokkos.
#include <Kokkos_Macros.hpp>

#include <limits>
#include <type_traits>

namespace Kokkos::Experimental {
namespace Impl {

template <class T>
inline constexpr bool is_traits_floating_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, long double>;

// Declares the helper TRAIT##_helper<T>, defined (from std::numeric_limits, evaluated at compile
// time, hence device-safe) for the types CONDITION admits.
#define KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(TRAIT, CONDITION, VALUE_TYPE, LIMITS_EXPR)      \
  template <class T, class = void>                                                      \
  struct TRAIT##_helper {};                                                             \
  template <class T>                                                                    \
  struct TRAIT##_helper<T, std::enable_if_t<CONDITION<T>>> {                            \
    static constexpr VALUE_TYPE value = std::numeric_limits<T>::LIMITS_EXPR;            \
  };

template <class T>
inline constexpr bool is_traits_arithmetic_v = std::is_integral_v<T> || is_traits_floating_v<T>;

// Distinguished values.
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(infinity, is_traits_floating_v, T, infinity())
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(finite_min, is_traits_arithmetic_v, T, lowest())
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(finite_max, is_traits_arithmetic_v, T, max())
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(epsilon, is_traits_floating_v, T, epsilon())
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(round_error, is_traits_floating_v, T, round_error())
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(norm_min, is_traits_floating_v, T, min())
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(denorm_min, is_traits_floating_v, T, denorm_min())
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(quiet_NaN, is_traits_floating_v, T, quiet_NaN())
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(signaling_NaN, is_traits_floating_v, T, signaling_NaN())
// The smallest positive value whose reciprocal does not overflow: for IEEE formats the
// reciprocal of the largest finite value is subnormal, so this is the smallest normal number
// (LAPACK's "safe minimum").
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(reciprocal_overflow_threshold, is_traits_floating_v, T, min())

// Characteristics.
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(digits, is_traits_arithmetic_v, int, digits)
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(digits10, is_traits_arithmetic_v, int, digits10)
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(max_digits10, is_traits_floating_v, int, max_digits10)
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(radix, is_traits_arithmetic_v, int, radix)
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(min_exponent, is_traits_floating_v, int, min_exponent)
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(min_exponent10, is_traits_floating_v, int, min_exponent10)
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(max_exponent, is_traits_floating_v, int, max_exponent)
KOKKOS_IMPL_NUMERIC_TRAIT_HELPER(max_exponent10, is_traits_floating_v, int, max_exponent10)

#undef KOKKOS_IMPL_NUMERIC_TRAIT_HELPER
}  // namespace Impl

#define KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(TRAIT)                 \
  template <class T>                                           \
  struct TRAIT : Impl::TRAIT##_helper<std::remove_cv_t<T>> {}; \
  template <class T>                                           \
  inline constexpr auto TRAIT##_v = TRAIT<T>::value;

KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(infinity)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(finite_min)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(finite_max)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(epsilon)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(round_error)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(norm_min)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(denorm_min)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(reciprocal_overflow_threshold)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(quiet_NaN)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(signaling_NaN)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(digits)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(digits10)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(max_digits10)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(radix)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(min_exponent)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(min_exponent10)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(max_exponent)
KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT(max_exponent10)

#undef KOKKOS_IMPL_DEFINE_NUMERIC_TRAIT

}  // namespace Kokkos::Experimental

namespace Kokkos {

// Identity of each built-in reduction.  min() is the identity *of* min (the largest finite
// value), max() the identity of max (the lowest finite value), as in Kokkos.  Integral types
// have all eight; bool has the logical and bitwise ones; floating-point types have sum, prod,
// min, max, and the logical ones.  Other value types (complex, half) specialize this template
// in their own headers; a user type does the same to use the built-in reducers.
template <class T, class Enable = void>
struct reduction_identity;

template <class T>
struct reduction_identity<T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>>> {
  KOKKOS_FORCEINLINE_FUNCTION constexpr static T sum() { return static_cast<T>(0); }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static T prod() { return static_cast<T>(1); }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static T max() { return Experimental::finite_min<T>::value; }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static T min() { return Experimental::finite_max<T>::value; }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static T land() { return static_cast<T>(1); }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static T lor() { return static_cast<T>(0); }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, int> = 0>
  KOKKOS_FORCEINLINE_FUNCTION constexpr static T band() {
    return static_cast<T>(~static_cast<T>(0));
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, int> = 0>
  KOKKOS_FORCEINLINE_FUNCTION constexpr static T bor() {
    return static_cast<T>(0);
  }
};

template <>
struct reduction_identity<bool> {
  KOKKOS_FORCEINLINE_FUNCTION constexpr static bool land() { return true; }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static bool lor() { return false; }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static bool band() { return true; }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static bool bor() { return false; }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static bool max() { return false; }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static bool min() { return true; }
};

}  // namespace Kokkos

#pragma once
// The <cmath> functions as Kokkos 4 provides them: one overload set in namespace Kokkos that a
// functor calls on any back end.
//
//   double r = Kokkos::sqrt(x * x + y * y);
//   float  s = Kokkos::sinf(t);           // the f/l-suffixed names too
//   double q = Kokkos::pow(2, 10);        // integral arguments are promoted to double
//
// float and double overloads (and integral arguments, promoted to double; mixed arguments
// promoted as <cmath> does) are KOKKOS_INLINE_FUNCTION: they call std::, which on the host is
// the C library and under nvcc the CUDA math library, so a CUDA back end needs nothing more.
// long double overloads are host-only (GPUs have no long double), as in Kokkos.
//
// Not provided, as in Kokkos 4.6: lround, llround, rint, lrint, llrint, frexp, ldexp, modf,
// scalbn, scalbln, ilogb, nexttoward, fpclassify, isnormal and the comparison macros.
// Kokkos::Experimental::remquo is a kdag extension (Kokkos has no remquo).
#include <Kokkos_Macros.hpp>

#include <cmath>
#include <cstdlib>
#include <type_traits>

namespace Kokkos {

namespace Impl {
// The floating-point type an argument of type T is computed in: integral types promote to
// double; other non-floating types have no promotion (so the overloads drop out).
template <class T, bool = std::is_integral_v<T>>
struct promote {
  using type = double;
};
template <class T>
struct promote<T, false> {};
template <>
struct promote<float, false> {
  using type = float;
};
template <>
struct promote<double, false> {
  using type = double;
};
template <>
struct promote<long double, false> {
  using type = long double;
};
template <class T>
using promote_t = typename promote<T>::type;

template <class T, class U, bool = std::is_arithmetic_v<T> && std::is_arithmetic_v<U>>
struct promote_2 {
  using type = decltype(promote_t<T>() + promote_t<U>());
};
template <class T, class U>
struct promote_2<T, U, false> {};
template <class T, class U>
using promote_2_t = typename promote_2<T, U>::type;

template <class T, class U, class V,
          bool = std::is_arithmetic_v<T> && std::is_arithmetic_v<U> && std::is_arithmetic_v<V>>
struct promote_3 {
  using type = decltype(promote_t<T>() + promote_t<U>() + promote_t<V>());
};
template <class T, class U, class V>
struct promote_3<T, U, V, false> {};
template <class T, class U, class V>
using promote_3_t = typename promote_3<T, U, V>::type;

template <class... T>
inline constexpr bool any_long_double_v = (std::is_same_v<T, long double> || ...);
}  // namespace Impl

// Each family: float, double (device-callable), long double (host), the f/l-suffixed names, and
// a template for integral or mixed arguments.  The std:: call is spelled out in each body
// so that no overload of ours can be selected recursively.
// _VIA(FUNC, IMPL): the float and double overloads (and integral arguments) call IMPL, for the
// few functions whose device library result kdag corrects; long double stays std::FUNC.
#define KOKKOS_IMPL_MATH_UNARY_FUNCTION_VIA(FUNC, IMPL)                                                \
  KOKKOS_INLINE_FUNCTION float FUNC(float x) { return IMPL(x); }                                       \
  KOKKOS_INLINE_FUNCTION double FUNC(double x) { return IMPL(x); }                                     \
  inline long double FUNC(long double x) { return std::FUNC(x); }                                      \
  KOKKOS_INLINE_FUNCTION float FUNC##f(float x) { return IMPL(x); }                                    \
  inline long double FUNC##l(long double x) { return std::FUNC(x); }                                   \
  template <class T>                                                                                   \
  KOKKOS_INLINE_FUNCTION std::enable_if_t<std::is_integral_v<T>, double> FUNC(T x) {                   \
    return IMPL(static_cast<double>(x));                                                               \
  }
#define KOKKOS_IMPL_MATH_UNARY_FUNCTION(FUNC) KOKKOS_IMPL_MATH_UNARY_FUNCTION_VIA(FUNC, std::FUNC)
#define KOKKOS_IMPL_MATH_UNARY_PREDICATE(FUNC)                                                         \
  KOKKOS_INLINE_FUNCTION bool FUNC(float x) { return std::FUNC(x); }                                   \
  KOKKOS_INLINE_FUNCTION bool FUNC(double x) { return std::FUNC(x); }                                  \
  inline bool FUNC(long double x) { return std::FUNC(x); }                                             \
  template <class T>                                                                                   \
  KOKKOS_INLINE_FUNCTION std::enable_if_t<std::is_integral_v<T>, bool> FUNC(T x) {                     \
    return std::FUNC(static_cast<double>(x));                                                          \
  }

#define KOKKOS_IMPL_MATH_BINARY_FUNCTION_VIA(FUNC, IMPL)                                                  \
  KOKKOS_INLINE_FUNCTION float FUNC(float x, float y) { return IMPL(x, y); }                           \
  KOKKOS_INLINE_FUNCTION double FUNC(double x, double y) { return IMPL(x, y); }                        \
  inline long double FUNC(long double x, long double y) { return std::FUNC(x, y); }                    \
  KOKKOS_INLINE_FUNCTION float FUNC##f(float x, float y) { return IMPL(x, y); }                        \
  inline long double FUNC##l(long double x, long double y) { return std::FUNC(x, y); }                 \
  template <class T1, class T2>                                                                        \
  KOKKOS_INLINE_FUNCTION                                                                               \
      std::enable_if_t<!Impl::any_long_double_v<T1, T2>, Impl::promote_2_t<T1, T2>>                    \
      FUNC(T1 x, T2 y) {                                                                               \
    using Promoted = Impl::promote_2_t<T1, T2>;                                                        \
    return IMPL(static_cast<Promoted>(x), static_cast<Promoted>(y));                                   \
  }                                                                                                    \
  template <class T1, class T2>                                                                        \
  inline std::enable_if_t<Impl::any_long_double_v<T1, T2>, Impl::promote_2_t<T1, T2>> FUNC(T1 x,       \
                                                                                           T2 y) {     \
    return std::FUNC(static_cast<long double>(x), static_cast<long double>(y));                        \
  }

#define KOKKOS_IMPL_MATH_BINARY_FUNCTION(FUNC) KOKKOS_IMPL_MATH_BINARY_FUNCTION_VIA(FUNC, std::FUNC)
#define KOKKOS_IMPL_MATH_TERNARY_FUNCTION(FUNC, FLOAT_BODY, DOUBLE_BODY, LONG_DOUBLE_BODY)             \
  KOKKOS_INLINE_FUNCTION float FUNC(float x, float y, float z) { FLOAT_BODY }                          \
  KOKKOS_INLINE_FUNCTION double FUNC(double x, double y, double z) { DOUBLE_BODY }                     \
  inline long double FUNC(long double x, long double y, long double z) { LONG_DOUBLE_BODY }            \
  KOKKOS_INLINE_FUNCTION float FUNC##f(float x, float y, float z) { return Kokkos::FUNC(x, y, z); }   \
  inline long double FUNC##l(long double x, long double y, long double z) {                            \
    return Kokkos::FUNC(x, y, z);                                                                      \
  }                                                                                                    \
  template <class T1, class T2, class T3>                                                              \
  KOKKOS_INLINE_FUNCTION                                                                               \
      std::enable_if_t<!Impl::any_long_double_v<T1, T2, T3>, Impl::promote_3_t<T1, T2, T3>>            \
      FUNC(T1 x, T2 y, T3 z) {                                                                         \
    using Promoted = Impl::promote_3_t<T1, T2, T3>;                                                    \
    return Kokkos::FUNC(static_cast<Promoted>(x), static_cast<Promoted>(y), static_cast<Promoted>(z)); \
  }                                                                                                    \
  template <class T1, class T2, class T3>                                                              \
  inline std::enable_if_t<Impl::any_long_double_v<T1, T2, T3>, Impl::promote_3_t<T1, T2, T3>> FUNC(   \
      T1 x, T2 y, T3 z) {                                                                              \
    return Kokkos::FUNC(static_cast<long double>(x), static_cast<long double>(y),                      \
                        static_cast<long double>(z));                                                  \
  }

// ---- basic operations ------------------------------------------------------------------------
KOKKOS_INLINE_FUNCTION int abs(int n) { return std::abs(n); }
KOKKOS_INLINE_FUNCTION long abs(long n) { return std::abs(n); }
KOKKOS_INLINE_FUNCTION long long abs(long long n) { return std::abs(n); }
KOKKOS_INLINE_FUNCTION float abs(float x) { return std::abs(x); }
KOKKOS_INLINE_FUNCTION double abs(double x) { return std::abs(x); }
inline long double abs(long double x) { return std::abs(x); }
KOKKOS_IMPL_MATH_UNARY_FUNCTION(fabs)
KOKKOS_IMPL_MATH_BINARY_FUNCTION(fmod)
KOKKOS_IMPL_MATH_BINARY_FUNCTION(remainder)
KOKKOS_IMPL_MATH_TERNARY_FUNCTION(fma, return std::fma(x, y, z);, return std::fma(x, y, z);,
                                  return std::fma(x, y, z);)
KOKKOS_IMPL_MATH_BINARY_FUNCTION(fmax)
KOKKOS_IMPL_MATH_BINARY_FUNCTION(fmin)
KOKKOS_IMPL_MATH_BINARY_FUNCTION(fdim)
KOKKOS_INLINE_FUNCTION float nanf(const char* arg) { return ::nanf(arg); }
KOKKOS_INLINE_FUNCTION double nan(const char* arg) { return ::nan(arg); }
inline long double nanl(const char* arg) { return ::nanl(arg); }

// ---- exponential and power functions ---------------------------------------------------------
KOKKOS_IMPL_MATH_UNARY_FUNCTION(exp)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(exp2)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(expm1)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(log)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(log10)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(log2)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(log1p)
KOKKOS_IMPL_MATH_BINARY_FUNCTION(pow)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(sqrt)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(cbrt)
// hypot: below, after Impl::hypot3_scaled

// ---- trigonometric and hyperbolic functions --------------------------------------------------
KOKKOS_IMPL_MATH_UNARY_FUNCTION(sin)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(cos)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(tan)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(asin)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(acos)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(atan)
KOKKOS_IMPL_MATH_BINARY_FUNCTION(atan2)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(sinh)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(cosh)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(tanh)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(asinh)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(acosh)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(atanh)

// ---- error and gamma functions ---------------------------------------------------------------
KOKKOS_IMPL_MATH_UNARY_FUNCTION(erf)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(erfc)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(tgamma)
// lgamma: below, after Impl::lgamma_reflected

// ---- nearest integer, floating-point manipulation --------------------------------------------
KOKKOS_IMPL_MATH_UNARY_FUNCTION(ceil)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(floor)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(trunc)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(round)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(nearbyint)
KOKKOS_IMPL_MATH_UNARY_FUNCTION(logb)
KOKKOS_IMPL_MATH_BINARY_FUNCTION(nextafter)
KOKKOS_IMPL_MATH_BINARY_FUNCTION(copysign)

// ---- classification --------------------------------------------------------------------------
KOKKOS_IMPL_MATH_UNARY_PREDICATE(isfinite)
KOKKOS_IMPL_MATH_UNARY_PREDICATE(isinf)
KOKKOS_IMPL_MATH_UNARY_PREDICATE(isnan)
KOKKOS_IMPL_MATH_UNARY_PREDICATE(signbit)

namespace Impl {
// Three-argument hypot: scaling by the largest magnitude keeps the squares from overflowing or
// underflowing; an infinite argument gives +inf even beside a NaN (as Annex F says of hypot(x, y)).
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class T>
KOKKOS_INLINE_FUNCTION T hypot3_scaled(T x, T y, T z) {
  x = Kokkos::fabs(x);
  y = Kokkos::fabs(y);
  z = Kokkos::fabs(z);
  // An infinite argument wins over a NaN, as for std::hypot.
  if (Kokkos::isinf(x)) return x;
  if (Kokkos::isinf(y)) return y;
  if (Kokkos::isinf(z)) return z;
  T largest = x > y ? x : y;
  largest = largest > z ? largest : z;
  if (!(largest > T(0))) return x + y + z;  // all zero, or a NaN (which propagates)
  x /= largest;
  y /= largest;
  z /= largest;
  return largest * Kokkos::sqrt(x * x + y * y + z * z);
}
}  // namespace Impl

// hypot(x, y, z) through the scaled formula on every back end: C++17's std::hypot(x, y, z) is
// not in device math libraries, and libstdc++'s returns NaN for an infinite argument.
KOKKOS_IMPL_MATH_TERNARY_FUNCTION(hypot, return Impl::hypot3_scaled(x, y, z);, return Impl::hypot3_scaled(x, y, z);,
                                  return Impl::hypot3_scaled(x, y, z);)

namespace Impl {
// hypot(x, y): the device library's is accurate to 2 ulp, which rounds a result within an ulp
// of the largest finite value up to +inf (CUDA: hypot(DBL_MAX, 1)).  Finite arguments whose
// result overflowed are recomputed with the scaled formula, which overflows only when the exact
// result does.
template <class T>
KOKKOS_INLINE_FUNCTION T hypot_without_spurious_overflow(T x, T y) {
  const T r = std::hypot(x, y);
  KOKKOS_IF_ON_DEVICE((if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) return hypot3_scaled(x, y, T(0));))
  return r;
}

// sin(pi x) with an exact argument reduction (x - 2 round(x / 2), then r -> 1 - r, are exact),
// so that it is accurate to a few ulp where sin(pi * x) is not, and exactly 0 at integers.
KOKKOS_INLINE_FUNCTION double sin_pi(double x) {
  double r = x - 2.0 * std::nearbyint(0.5 * x);  // in [-1, 1]
  const double sign = r < 0 ? -1.0 : 1.0;
  r = std::fabs(r);
  if (r > 0.5) r = 1.0 - r;
  return sign * std::sin(3.141592653589793238462643383279502884 * r);
}

// The interval where CUDA documents lgamma's error as larger than 4 ulp (lgammaf: larger than
// 6 ulp on (-10.0001, -2.264)).
inline constexpr double lgamma_reflection_low = -11.0001, lgamma_reflection_high = -2.2637;

// lgamma of a negative non-integer x from the reflection formula
//   |Gamma(x)| |Gamma(1 - x)| = pi / |sin(pi x)|   =>   lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 - x),
// which needs lgamma of arguments above 1 only.  Its absolute error is a few ulp of the two terms.
KOKKOS_INLINE_FUNCTION double lgamma_reflected(double x) {
  return std::log(3.141592653589793238462643383279502884 / std::fabs(sin_pi(x))) - std::lgamma(1.0 - x);
}

// lgamma(x): the device library's, except on the interval above, where the reflection formula
// (computed in double, also for float) replaces it.  The host keeps its C library's.
template <class T>
KOKKOS_INLINE_FUNCTION T lgamma_accurate_on_device(T x) {
  KOKKOS_IF_ON_DEVICE((if (x > T(lgamma_reflection_low) && x < T(lgamma_reflection_high) && x != std::floor(x)) {
    return static_cast<T>(lgamma_reflected(static_cast<double>(x)));
  }))
  return std::lgamma(x);
}
}  // namespace Impl

KOKKOS_IMPL_MATH_BINARY_FUNCTION_VIA(hypot, Impl::hypot_without_spurious_overflow)
KOKKOS_IMPL_MATH_UNARY_FUNCTION_VIA(lgamma, Impl::lgamma_accurate_on_device)

// ---- non-standard: 1/sqrt(x), a single instruction on GPUs ----------------------------------
KOKKOS_INLINE_FUNCTION float rsqrt(float x) {
  KOKKOS_IF_ON_DEVICE((return ::rsqrtf(x);))
  KOKKOS_IF_ON_HOST((return 1.0f / std::sqrt(x);))
}
KOKKOS_INLINE_FUNCTION double rsqrt(double x) {
  KOKKOS_IF_ON_DEVICE((return ::rsqrt(x);))
  KOKKOS_IF_ON_HOST((return 1.0 / std::sqrt(x);))
}
inline long double rsqrt(long double x) { return 1.0L / std::sqrt(x); }
KOKKOS_INLINE_FUNCTION float rsqrtf(float x) { return Kokkos::rsqrt(x); }
inline long double rsqrtl(long double x) { return Kokkos::rsqrt(x); }
template <class T>
KOKKOS_INLINE_FUNCTION std::enable_if_t<std::is_integral_v<T>, double> rsqrt(T x) {
  return Kokkos::rsqrt(static_cast<double>(x));
}

namespace Experimental {
// remainder(x, y) and, in *quo, the sign and at least the three low bits of the quotient x/y.
// Not in Kokkos 4.6; provided here for completeness of <cmath>'s basic operations.
KOKKOS_INLINE_FUNCTION float remquo(float x, float y, int* quo) { return std::remquo(x, y, quo); }
KOKKOS_INLINE_FUNCTION double remquo(double x, double y, int* quo) { return std::remquo(x, y, quo); }
inline long double remquo(long double x, long double y, int* quo) { return std::remquo(x, y, quo); }
KOKKOS_INLINE_FUNCTION float remquof(float x, float y, int* quo) { return std::remquo(x, y, quo); }
inline long double remquol(long double x, long double y, int* quo) { return std::remquo(x, y, quo); }
template <class T1, class T2>
KOKKOS_INLINE_FUNCTION std::enable_if_t<!Kokkos::Impl::any_long_double_v<T1, T2>, Kokkos::Impl::promote_2_t<T1, T2>>
remquo(T1 x, T2 y, int* quo) {
  using Promoted = Kokkos::Impl::promote_2_t<T1, T2>;
  return std::remquo(static_cast<Promoted>(x), static_cast<Promoted>(y), quo);
}
template <class T1, class T2>
inline std::enable_if_t<Kokkos::Impl::any_long_double_v<T1, T2>, Kokkos::Impl::promote_2_t<T1, T2>> remquo(
    T1 x, T2 y, int* quo) {
  return std::remquo(static_cast<long double>(x), static_cast<long double>(y), quo);
}
}  // namespace Experimental

#undef KOKKOS_IMPL_MATH_UNARY_FUNCTION
#undef KOKKOS_IMPL_MATH_UNARY_PREDICATE
#undef KOKKOS_IMPL_MATH_BINARY_FUNCTION
#undef KOKKOS_IMPL_MATH_TERNARY_FUNCTION

}  // namespace Kokkos

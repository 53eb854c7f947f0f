#pragma once
// The <cmath> overloads for basic_simd, in namespace Kokkos as in Kokkos 4.6.  A function the
// ABI implements with an instruction (simd_impl<T, Abi>::sqrt, ...) uses it; every other
// function applies the scalar function lane by lane.
#include <Kokkos_SIMD_Basic.hpp>

#include <cmath>
#include <cstdlib>

namespace Kokkos {
namespace Experimental::Impl {

template <class T, class Abi, class Op, class... Simds>
KOKKOS_FORCEINLINE_FUNCTION basic_simd<T, Abi> lane_by_lane(Op op, basic_simd<T, Abi> const& a, Simds const&... rest) {
  T lanes[basic_simd<T, Abi>::size()];
  for (std::size_t i = 0; i < basic_simd<T, Abi>::size(); ++i) lanes[i] = static_cast<T>(op(a[i], rest[i]...));
  return basic_simd<T, Abi>(lanes, simd_flag_default);
}

// The scalar function of one lane: std:: on the host, the CUDA math library on the device.
#define KOKKOS_IMPL_SIMD_LANE_MATH(FUNC, DEVICE_FUNC)                                        \
  struct lane_math_##FUNC {                                                                 \
    template <class... T>                                                                   \
    KOKKOS_FORCEINLINE_FUNCTION auto operator()(T... x) const {                             \
      KOKKOS_IF_ON_HOST((return std::FUNC(x...);))                                          \
      KOKKOS_IF_ON_DEVICE((return ::DEVICE_FUNC(x...);))                                    \
    }                                                                                       \
  };
KOKKOS_IMPL_SIMD_LANE_MATH(exp, exp)
KOKKOS_IMPL_SIMD_LANE_MATH(exp2, exp2)
KOKKOS_IMPL_SIMD_LANE_MATH(log, log)
KOKKOS_IMPL_SIMD_LANE_MATH(log10, log10)
KOKKOS_IMPL_SIMD_LANE_MATH(log2, log2)
KOKKOS_IMPL_SIMD_LANE_MATH(sqrt, sqrt)
KOKKOS_IMPL_SIMD_LANE_MATH(cbrt, cbrt)
KOKKOS_IMPL_SIMD_LANE_MATH(sin, sin)
KOKKOS_IMPL_SIMD_LANE_MATH(cos, cos)
KOKKOS_IMPL_SIMD_LANE_MATH(tan, tan)
KOKKOS_IMPL_SIMD_LANE_MATH(asin, asin)
KOKKOS_IMPL_SIMD_LANE_MATH(acos, acos)
KOKKOS_IMPL_SIMD_LANE_MATH(atan, atan)
KOKKOS_IMPL_SIMD_LANE_MATH(sinh, sinh)
KOKKOS_IMPL_SIMD_LANE_MATH(cosh, cosh)
KOKKOS_IMPL_SIMD_LANE_MATH(tanh, tanh)
KOKKOS_IMPL_SIMD_LANE_MATH(asinh, asinh)
KOKKOS_IMPL_SIMD_LANE_MATH(acosh, acosh)
KOKKOS_IMPL_SIMD_LANE_MATH(atanh, atanh)
KOKKOS_IMPL_SIMD_LANE_MATH(erf, erf)
KOKKOS_IMPL_SIMD_LANE_MATH(erfc, erfc)
KOKKOS_IMPL_SIMD_LANE_MATH(tgamma, tgamma)
KOKKOS_IMPL_SIMD_LANE_MATH(lgamma, lgamma)
KOKKOS_IMPL_SIMD_LANE_MATH(pow, pow)
KOKKOS_IMPL_SIMD_LANE_MATH(atan2, atan2)
KOKKOS_IMPL_SIMD_LANE_MATH(copysign, copysign)
KOKKOS_IMPL_SIMD_LANE_MATH(fma, fma)
KOKKOS_IMPL_SIMD_LANE_MATH(hypot, hypot)
#undef KOKKOS_IMPL_SIMD_LANE_MATH

// Rounding an integer lane is the identity (going through double would lose int64 bits);
// round() rounds halfway cases to even, as Kokkos' simd round (and the AVX instruction) does.
#define KOKKOS_IMPL_SIMD_LANE_ROUNDING(FUNC, STD_FUNC)                \
  struct lane_math_##FUNC {                                          \
    template <class T>                                               \
    KOKKOS_FORCEINLINE_FUNCTION T operator()(T x) const {            \
      if constexpr (std::is_integral_v<T>) {                         \
        return x;                                                    \
      } else {                                                       \
        KOKKOS_IF_ON_HOST((return std::STD_FUNC(x);))                \
        KOKKOS_IF_ON_DEVICE((return ::STD_FUNC(x);))                 \
      }                                                              \
    }                                                                \
  };
KOKKOS_IMPL_SIMD_LANE_ROUNDING(floor, floor)
KOKKOS_IMPL_SIMD_LANE_ROUNDING(ceil, ceil)
KOKKOS_IMPL_SIMD_LANE_ROUNDING(trunc, trunc)
KOKKOS_IMPL_SIMD_LANE_ROUNDING(round, rint)
#undef KOKKOS_IMPL_SIMD_LANE_ROUNDING

struct lane_math_abs {
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION T operator()(T x) const {
    if constexpr (std::is_unsigned_v<T>) {
      return x;
    } else if constexpr (std::is_integral_v<T>) {
      return x < 0 ? static_cast<T>(-x) : x;
    } else {
      KOKKOS_IF_ON_HOST((return std::abs(x);))
      KOKKOS_IF_ON_DEVICE((return ::fabs(x);))
    }
  }
};

}  // namespace Experimental::Impl

#define KOKKOS_IMPL_SIMD_MATH_UNARY(FUNC)                                                                   \
  template <class T, class Abi>                                                                            \
  KOKKOS_FORCEINLINE_FUNCTION Experimental::basic_simd<T, Abi> FUNC(Experimental::basic_simd<T, Abi> const& a) { \
    using impl = Experimental::Impl::simd_impl<T, Abi>;                                                    \
    if constexpr (requires { impl::FUNC(a.impl_data()); }) {                                               \
      return Experimental::basic_simd<T, Abi>(impl::FUNC(a.impl_data()));                                  \
    } else {                                                                                               \
      return Experimental::Impl::lane_by_lane(Experimental::Impl::lane_math_##FUNC{}, a);                  \
    }                                                                                                      \
  }
#define KOKKOS_IMPL_SIMD_MATH_BINARY(FUNC)                                                                  \
  template <class T, class Abi>                                                                            \
  KOKKOS_FORCEINLINE_FUNCTION Experimental::basic_simd<T, Abi> FUNC(Experimental::basic_simd<T, Abi> const& a,  \
                                                                    Experimental::basic_simd<T, Abi> const& b) { \
    using impl = Experimental::Impl::simd_impl<T, Abi>;                                                    \
    if constexpr (requires { impl::FUNC(a.impl_data(), b.impl_data()); }) {                                \
      return Experimental::basic_simd<T, Abi>(impl::FUNC(a.impl_data(), b.impl_data()));                   \
    } else {                                                                                               \
      return Experimental::Impl::lane_by_lane(Experimental::Impl::lane_math_##FUNC{}, a, b);               \
    }                                                                                                      \
  }
#define KOKKOS_IMPL_SIMD_MATH_TERNARY(FUNC)                                                                  \
  template <class T, class Abi>                                                                             \
  KOKKOS_FORCEINLINE_FUNCTION Experimental::basic_simd<T, Abi> FUNC(                                        \
      Experimental::basic_simd<T, Abi> const& a, Experimental::basic_simd<T, Abi> const& b,                 \
      Experimental::basic_simd<T, Abi> const& c) {                                                          \
    using impl = Experimental::Impl::simd_impl<T, Abi>;                                                     \
    if constexpr (requires { impl::FUNC(a.impl_data(), b.impl_data(), c.impl_data()); }) {                  \
      return Experimental::basic_simd<T, Abi>(impl::FUNC(a.impl_data(), b.impl_data(), c.impl_data()));     \
    } else {                                                                                                \
      return Experimental::Impl::lane_by_lane(Experimental::Impl::lane_math_##FUNC{}, a, b, c);             \
    }                                                                                                       \
  }

KOKKOS_IMPL_SIMD_MATH_UNARY(abs)
KOKKOS_IMPL_SIMD_MATH_UNARY(exp)
KOKKOS_IMPL_SIMD_MATH_UNARY(exp2)
KOKKOS_IMPL_SIMD_MATH_UNARY(log)
KOKKOS_IMPL_SIMD_MATH_UNARY(log10)
KOKKOS_IMPL_SIMD_MATH_UNARY(log2)
KOKKOS_IMPL_SIMD_MATH_UNARY(sqrt)
KOKKOS_IMPL_SIMD_MATH_UNARY(cbrt)
KOKKOS_IMPL_SIMD_MATH_UNARY(sin)
KOKKOS_IMPL_SIMD_MATH_UNARY(cos)
KOKKOS_IMPL_SIMD_MATH_UNARY(tan)
KOKKOS_IMPL_SIMD_MATH_UNARY(asin)
KOKKOS_IMPL_SIMD_MATH_UNARY(acos)
KOKKOS_IMPL_SIMD_MATH_UNARY(atan)
KOKKOS_IMPL_SIMD_MATH_UNARY(sinh)
KOKKOS_IMPL_SIMD_MATH_UNARY(cosh)
KOKKOS_IMPL_SIMD_MATH_UNARY(tanh)
KOKKOS_IMPL_SIMD_MATH_UNARY(asinh)
KOKKOS_IMPL_SIMD_MATH_UNARY(acosh)
KOKKOS_IMPL_SIMD_MATH_UNARY(atanh)
KOKKOS_IMPL_SIMD_MATH_UNARY(erf)
KOKKOS_IMPL_SIMD_MATH_UNARY(erfc)
KOKKOS_IMPL_SIMD_MATH_UNARY(tgamma)
KOKKOS_IMPL_SIMD_MATH_UNARY(lgamma)
KOKKOS_IMPL_SIMD_MATH_UNARY(floor)
KOKKOS_IMPL_SIMD_MATH_UNARY(ceil)
KOKKOS_IMPL_SIMD_MATH_UNARY(round)
KOKKOS_IMPL_SIMD_MATH_UNARY(trunc)
KOKKOS_IMPL_SIMD_MATH_BINARY(pow)
KOKKOS_IMPL_SIMD_MATH_BINARY(hypot)
KOKKOS_IMPL_SIMD_MATH_BINARY(atan2)
KOKKOS_IMPL_SIMD_MATH_BINARY(copysign)
KOKKOS_IMPL_SIMD_MATH_TERNARY(fma)
KOKKOS_IMPL_SIMD_MATH_TERNARY(hypot)
#undef KOKKOS_IMPL_SIMD_MATH_UNARY
#undef KOKKOS_IMPL_SIMD_MATH_BINARY
#undef KOKKOS_IMPL_SIMD_MATH_TERNARY

// min/max pick as Kokkos::min/max do: min(a, b) is b only where b < a.
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION Experimental::basic_simd<T, Abi> min(Experimental::basic_simd<T, Abi> const& a,
                                                                 Experimental::basic_simd<T, Abi> const& b) {
  return Experimental::basic_simd<T, Abi>(Experimental::Impl::simd_impl<T, Abi>::min(a.impl_data(), b.impl_data()));
}
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION Experimental::basic_simd<T, Abi> max(Experimental::basic_simd<T, Abi> const& a,
                                                                 Experimental::basic_simd<T, Abi> const& b) {
  return Experimental::basic_simd<T, Abi>(Experimental::Impl::simd_impl<T, Abi>::max(a.impl_data(), b.impl_data()));
}

}  // namespace Kokkos

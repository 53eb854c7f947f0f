#pragma once
// Special functions of Kokkos 4 (namespace Kokkos::Experimental) for real arguments, callable
// in functors on every back end.
//
//   double e1 = Kokkos::Experimental::expint1(x);   // exponential integral E1(x)
//   double s  = Kokkos::Experimental::erfcx(x);     // scaled complementary error function
//
// expint1(x) = integral from x to infinity of exp(-t)/t dt, for x > 0; as in Kokkos it returns
// +inf at 0 and -inf for x < 0.  erfcx(x) = exp(x*x) * erfc(x), finite where erfc underflows
// (erfcx(x) ~ 1/(x sqrt(pi)) for large x) and +inf where exp(x*x) overflows (x < -26.6 for
// double).  Both are computed in the argument's own type (float, double, long double), so
// the float versions cost float arithmetic.
//
// Not provided (they need Kokkos::complex): erf and erfcx of a complex argument and the
// cylindrical Bessel and Hankel functions cyl_bessel_j0 ... cyl_bessel_h21.
#include <Kokkos_Macros.hpp>
#include <Kokkos_MathematicalConstants.hpp>
#include <Kokkos_MathematicalFunctions.hpp>
#include <Kokkos_NumericTraits.hpp>

#include <type_traits>

namespace Kokkos::Experimental {

namespace Impl {
// exp(x * x) without the error of rounding x * x first: the rounding error of the square,
// recovered exactly with fma, is folded back in (exp(a + e) = exp(a) (1 + e) for tiny e).
// Plain exp(x * x) would carry a relative error of about x * x * epsilon.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION Real exp_of_square(Real x) {
  const Real square = x * x;
  const Real square_error = Kokkos::fma(x, x, -square);
  const Real e = Kokkos::exp(square);
  return Kokkos::isinf(e) ? e : e + e * square_error;
}

// erfcx(x) for large x from the continued fraction
//   erfc(x) = exp(-x^2) / sqrt(pi) * 1 / (x + (1/2) / (x + 1 / (x + (3/2) / (x + 2 / (x + ...)))))
// evaluated with the modified Lentz method until a step changes the value by less than
// epsilon.  It converges faster the larger x is (a dozen terms at x = 26).
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION Real erfcx_continued_fraction(Real x) {
  constexpr Real tiny = norm_min_v<Real> / epsilon_v<Real>;
  constexpr Real tolerance = epsilon_v<Real>;
  Real f = x;
  Real c = x;
  Real d = 0;
  for (int k = 1; k < 500; ++k) {
    const Real a = static_cast<Real>(k) / 2;
    d = x + a * d;
    if (d == 0) d = tiny;
    c = x + a / c;
    if (c == 0) c = tiny;
    d = 1 / d;
    const Real step = c * d;
    f *= step;
    if (Kokkos::fabs(step - 1) < tolerance) break;
  }
  return Kokkos::numbers::inv_sqrtpi_v<Real> / f;
}
}  // namespace Impl

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class RealType>
KOKKOS_INLINE_FUNCTION RealType erfcx(RealType x) {
  static_assert(std::is_floating_point_v<RealType>, "Kokkos::Experimental::erfcx: the argument must be floating-point");
  if (Kokkos::isnan(x)) return x;
  if (x < 0) {
    // erfc(-y) = 2 - erfc(y), so erfcx(x) = 2 exp(x^2) - erfcx(-x); overflows to +inf.
    if (Kokkos::isinf(x)) return infinity_v<RealType>;
    return 2 * Impl::exp_of_square(x) - erfcx(-x);
  }
  // exp(x^2) erfc(x) directly while erfc(x) ~ exp(-x^2) / (x sqrt(pi)) stays a normal number
  // (x < 26.1 for double, 8.9 for float): both factors then carry their full precision.
  constexpr RealType direct_limit_squared =
      RealType(0.95) * static_cast<RealType>(-min_exponent_v<RealType>) * Kokkos::numbers::ln2_v<RealType>;
  if (x * x < direct_limit_squared) return Impl::exp_of_square(x) * Kokkos::erfc(x);
  if (Kokkos::isinf(x)) return RealType(0);
  return Impl::erfcx_continued_fraction(x);
}

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class RealType>
KOKKOS_INLINE_FUNCTION RealType expint1(RealType x) {
  static_assert(std::is_floating_point_v<RealType>,
                "Kokkos::Experimental::expint1: the argument must be floating-point");
  constexpr RealType tolerance = epsilon_v<RealType>;
  if (Kokkos::isnan(x)) return x;
  if (x < 0) return -infinity_v<RealType>;
  if (x == 0) return infinity_v<RealType>;
  if (x <= RealType(0.8)) {
    // E1(x) = -gamma - ln(x) - sum_{k>=1} (-x)^k / (k k!).  Above 0.8 the cancellation between
    // gamma + ln(x) and the sum costs more than the continued fraction below.
    RealType term = 1;  // (-x)^k / k!
    RealType sum = 0;
    for (int k = 1; k < 100; ++k) {
      term *= -x / static_cast<RealType>(k);
      const RealType contribution = term / static_cast<RealType>(k);
      sum += contribution;
      if (Kokkos::fabs(contribution) <= Kokkos::fabs(sum) * tolerance) break;
    }
    return -Kokkos::numbers::egamma_v<RealType> - Kokkos::log(x) - sum;
  }
  if (Kokkos::isinf(x)) return RealType(0);
  // E1(x) = exp(-x) / (x + 1 - 1 / (x + 3 - 4 / (x + 5 - 9 / (x + 7 - ...)))), evaluated from a
  // fixed depth backwards: each step then divides by a large denominator, so rounding errors
  // shrink instead of accumulating as in a forward (Lentz) evaluation (< 1 ulp against 15 ulp
  // near x = 1 for double).  The depth needed grows like 1/x and like the square of the number
  // of digits wanted.
  constexpr RealType digits_ratio = static_cast<RealType>(digits_v<RealType>) / 53;
  const RealType depth = (20 + 80 / x) * digits_ratio * digits_ratio + 5;
  const int terms = depth < 1000 ? static_cast<int>(depth) : 1000;
  RealType tail = 0;
  for (int i = terms; i >= 1; --i) {
    const RealType k = static_cast<RealType>(i);
    tail = -k * k / (x + 2 * k + 1 + tail);
  }
  return Kokkos::exp(-x) / (x + 1 + tail);
}

}  // namespace Kokkos::Experimental

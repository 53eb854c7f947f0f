#pragma once
// Special functions of Kokkos 4 (namespace Kokkos::Experimental), callable in functors on every
// back end.
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
// Complex arguments (Kokkos::complex<float|double|long double>), as in Kokkos 4.6:
//
//   auto w = Kokkos::Experimental::erf(z);      // erf(z), erfcx(z) = exp(z^2) erfc(z)
//   using C = Kokkos::complex<double>;
//   C j = Kokkos::Experimental::cyl_bessel_j0<C, double, int>(z);  // J0, Y0, I0, K0, J1, Y1, I1, K1
//   C h = Kokkos::Experimental::cyl_bessel_h10(z);                  // H0^(1), H1^(1), H0^(2), H1^(2)
//
// The Bessel functions take Kokkos' two tuning arguments, joint_val (the |z| from which the
// large-argument asymptotic expansion is tried; below it, or where that expansion cannot reach
// full precision, a convergent method is used) and bw_start (the lowest order the backward
// recurrence for J starts from; raised where |z| needs more).  Branch cuts of Y, K and the
// Hankel functions lie on the negative real axis; the sign of a zero imaginary part picks the
// side, as for Kokkos::log.  Accuracy (double, against mpmath): a relative error within about
// 16 epsilon times the condition number (1 + |z| for the Bessel functions, 1 + |z|^2 for erf and
// erfcx through exp(z^2)), measured near zeros of J, Y and I against the size of the envelope.
#include <Kokkos_Complex.hpp>
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


// ---------------------------------------------------------------------------------------------
// Complex arguments.
// ---------------------------------------------------------------------------------------------

namespace Impl {

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION Real complex_magnitude_bound(const Kokkos::complex<Real>& z) {
  // |re| + |im| bounds |z| within a factor sqrt(2) without a square root.
  return Kokkos::fabs(z.real()) + Kokkos::fabs(z.imag());
}

// erf(z) for 0 <= Re z <= 1 and 2 < |z|, |Im z| < 8: Abramowitz &
// Stegun 7.1.29 (a sum over the grid n/2 whose error is about 1e-16 |erf z|).  x = 0 takes the
// limits of the terms divided by x.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION Kokkos::complex<Real> erf_grid_series(Real x, Real y) {
  const Real two_xy = 2 * x * y;
  const Real c2 = Kokkos::cos(two_xy), s2 = Kokkos::sin(two_xy);
  Real sum_re = 0, sum_im = 0;
  for (int n = 1; n < 100; ++n) {
    const Real rn = static_cast<Real>(n);
    // exp(-n^2/4) cosh(n y) and exp(-n^2/4) sinh(n y) from single exponentials: the factors
    // apart overflow float for |y| near 8.
    const Real rise = Kokkos::exp(-rn * rn / 4 + rn * y), fall = Kokkos::exp(-rn * rn / 4 - rn * y);
    const Real denominator = rn * rn + 4 * x * x;
    const Real ch = (rise + fall) / 2, sh = (rise - fall) / 2;
    const Real f = (2 * x * (Kokkos::exp(-rn * rn / 4) - ch * c2) + rn * sh * s2) / denominator;
    const Real g = (2 * x * ch * s2 + rn * sh * c2) / denominator;
    sum_re += f;
    sum_im += g;
    if (Kokkos::fabs(f) + Kokkos::fabs(g) <= epsilon_v<Real> * (Kokkos::fabs(sum_re) + Kokkos::fabs(sum_im)) / 4) break;
  }
  const Real ex = Kokkos::exp(-x * x);
  const Real inv_pi = Kokkos::numbers::inv_pi_v<Real>;
  // (1 - cos 2xy) / (2 pi x) = sin^2(xy) / (pi x), exact as x -> 0; sin(2xy) / (2 pi x) -> y / pi.
  const Real sxy = Kokkos::sin(x * y);
  const Real head_re = x == 0 ? Real(0) : sxy * sxy / x * inv_pi;
  const Real head_im = x == 0 ? y * inv_pi : s2 / (2 * x) * inv_pi;
  return {Kokkos::erf(x) + ex * (head_re + 2 * inv_pi * sum_re), ex * (head_im + 2 * inv_pi * sum_im)};
}

// erfcx(z) = exp(z^2) erfc(z) for Re z > 1 by the Laplace continued fraction
//   erfc(z) = exp(-z^2) / sqrt(pi) / (z + (1/2) / (z + 1 / (z + (3/2) / (z + ...)))),
// evaluated backwards from a depth that grows as |z| shrinks (it converges for Re z > 0, slowly
// near the imaginary axis, where the callers use the asymptotic series instead).
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION Kokkos::complex<Real> erfcx_continued_fraction(const Kokkos::complex<Real>& z) {
  const Real magnitude = Kokkos::abs(z);
  const Real depth = 8 + 400 / magnitude;
  const int terms = depth < 400 ? static_cast<int>(depth) : 400;
  Kokkos::complex<Real> tail(0, 0);
  for (int k = terms; k >= 1; --k) tail = (static_cast<Real>(k) / 2) / (z + tail);
  // Real(constant): a copy, since device code may not bind a reference to the host constant.
  return Real(Kokkos::numbers::inv_sqrtpi_v<Real>) / (z + tail);
}

// erfcx(z) for |Im z| >= 8 near the imaginary axis by the asymptotic series
//   erfcx(z) ~ 1 / (z sqrt(pi)) sum_m (-1)^m (2m - 1)!! / (2 z^2)^m,
// whose smallest term (about exp(-|z|^2)) is far below epsilon there.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION Kokkos::complex<Real> erfcx_asymptotic(const Kokkos::complex<Real>& z) {
  const Kokkos::complex<Real> half_inv_z2 = Real(0.5) / (z * z);
  Kokkos::complex<Real> term(1, 0), sum(1, 0);
  Real previous = 1;
  for (int m = 1; m < 100; ++m) {
    term *= -static_cast<Real>(2 * m - 1) * half_inv_z2;
    const Real size = complex_magnitude_bound(term);
    if (size > previous) break;  // past the smallest term the series diverges
    previous = size;
    sum += term;
    if (complex_magnitude_bound(term) <= epsilon_v<Real> * complex_magnitude_bound(sum) / 2) break;
  }
  return sum * Real(Kokkos::numbers::inv_sqrtpi_v<Real>) / z;
}

// exp(z^2) erf(z) for |z| <= 2, Re z <= 1 by 2/sqrt(pi) sum_n (2 z^2)^n z / (2n + 1)!! (Abramowitz &
// Stegun 7.1.6): its terms do not alternate for real z.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION Kokkos::complex<Real> exp_square_times_erf(const Kokkos::complex<Real>& z) {
  const Kokkos::complex<Real> z2 = z * z;
  Kokkos::complex<Real> term(1, 0), sum(1, 0);
  for (int n = 1; n < 80; ++n) {
    term *= z2 / (static_cast<Real>(n) + Real(0.5));
    sum += term;
    if (complex_magnitude_bound(term) <= epsilon_v<Real> * complex_magnitude_bound(sum) / 4) break;
  }
  return 2 * Kokkos::numbers::inv_sqrtpi_v<Real> * z * sum;
}

// Which method erf and erfcx share for a z with Re z >= 0.
enum class ErfRegion { small, continued_fraction, grid_series, asymptotic };

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION ErfRegion erf_region(const Kokkos::complex<Real>& z) {
  // The continued fraction keeps full precision for every Re z > 1 (the series would lose
  // erfcx to cancellation near the real axis there).
  if (z.real() > 1) return ErfRegion::continued_fraction;
  if (Kokkos::abs(z) <= 2) return ErfRegion::small;
  if (Kokkos::fabs(z.imag()) < 8) return ErfRegion::grid_series;
  return ErfRegion::asymptotic;
}
}  // namespace Impl

namespace Impl {
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION bool complex_is_finite(const Kokkos::complex<Real>& z) {
  return Kokkos::isfinite(z.real()) && Kokkos::isfinite(z.imag());
}
}  // namespace Impl

// erf(z) of a complex argument.  Where exp(-z^2) overflows (the result is then beyond the
// type's range too) it returns (inf, inf), as Kokkos does; unlike Kokkos it stays finite
// wherever erf(z) is (Kokkos gives (inf, inf) for every |z^2| > 670 with |Re z| > 1).
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class RealType>
KOKKOS_INLINE_FUNCTION Kokkos::complex<RealType> erf(const Kokkos::complex<RealType>& z) {
  using Complex = Kokkos::complex<RealType>;
  constexpr RealType inf = infinity_v<RealType>;
  if (Kokkos::isnan(z.real()) || Kokkos::isnan(z.imag())) return Complex(z.real() + z.imag(), z.real() + z.imag());
  // erf is odd: every method below assumes Re z >= 0.
  const bool mirrored = z.real() < 0;
  const Complex w = mirrored ? -z : z;
  Complex result;
  if (Kokkos::isinf(w.real()) && Kokkos::isfinite(w.imag())) {
    result = Complex(1, 0);
  } else {
    const Impl::ErfRegion region = Impl::erf_region(w);
    if (region == Impl::ErfRegion::small) {
      result = Kokkos::exp(-w * w) * Impl::exp_square_times_erf(w);
    } else if (region == Impl::ErfRegion::grid_series) {
      result = Impl::erf_grid_series(w.real(), w.imag());
    } else {
      const Complex decay = Kokkos::exp(-w * w);
      if (!Impl::complex_is_finite(decay)) return Complex(inf, inf);
      result = RealType(1) - decay * (region == Impl::ErfRegion::continued_fraction ? Impl::erfcx_continued_fraction(w)
                                                                                     : Impl::erfcx_asymptotic(w));
    }
  }
  return mirrored ? -result : result;
}

// erfcx(z) = exp(z^2) erfc(z) of a complex argument: finite (about 1 / (z sqrt(pi))) for large
// |z| with Re z >= 0, where exp(z^2) and erfc(z) alone over- or underflow.  For Re z < 0 it is
// 2 exp(z^2) - erfcx(-z); where exp(z^2) overflows it returns (inf, inf), as Kokkos does.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class RealType>
KOKKOS_INLINE_FUNCTION Kokkos::complex<RealType> erfcx(const Kokkos::complex<RealType>& z) {
  using Complex = Kokkos::complex<RealType>;
  constexpr RealType inf = infinity_v<RealType>;
  if (Kokkos::isnan(z.real()) || Kokkos::isnan(z.imag())) return Complex(z.real() + z.imag(), z.real() + z.imag());
  if (Kokkos::isinf(z.real())) return z.real() > 0 ? Complex(0, 0) : Complex(inf, inf);
  if (z.real() < 0) {
    const Complex growth = Kokkos::exp(z * z);
    if (!Impl::complex_is_finite(growth)) return Complex(inf, inf);
    return RealType(2) * growth - erfcx(-z);
  }
  switch (Impl::erf_region(z)) {
    case Impl::ErfRegion::small: return Kokkos::exp(z * z) - Impl::exp_square_times_erf(z);
    case Impl::ErfRegion::grid_series:
      return Kokkos::exp(z * z) * (RealType(1) - Impl::erf_grid_series(z.real(), z.imag()));
    case Impl::ErfRegion::continued_fraction: return Impl::erfcx_continued_fraction(z);
    case Impl::ErfRegion::asymptotic: break;
  }
  return Impl::erfcx_asymptotic(z);
}

namespace Impl {

// J0, J1, Y0 and Y1 at one argument: the methods produce them together.
template <class Real>
struct CylBesselOrdersZeroOne {
  Kokkos::complex<Real> j0, j1, y0, y1;
};

// Hankel's large-argument expansion (Abramowitz & Stegun 9.2.5-9.2.10) for order nu in {0, 1}
// and Re z >= 0: J = sqrt(2/(pi z)) (P cos chi - Q sin chi), Y = sqrt(2/(pi z)) (P sin chi +
// Q cos chi), chi = z - (nu/2 + 1/4) pi, with P and Q the even and odd terms of
// a_k(nu) / z^k, a_k = (4nu^2 - 1)(4nu^2 - 9)...(4nu^2 - (2k-1)^2) / (k! 8^k).  Returns false
// where the series' smallest term is still above epsilon (|z| below about 18 for double).
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION bool hankel_expansion(const Kokkos::complex<Real>& z, int nu, Kokkos::complex<Real>& j,
                                             Kokkos::complex<Real>& y) {
  using Complex = Kokkos::complex<Real>;
  const Complex inv_z = Real(1) / z;
  const Real four_nu2 = static_cast<Real>(4 * nu * nu);
  Complex p(1, 0), q(0, 0), term(1, 0);
  Real previous = infinity_v<Real>;
  bool converged = false;
  for (int k = 0; k < 200; ++k) {
    const Real odd = static_cast<Real>(2 * k + 1);
    term *= (four_nu2 - odd * odd) / (8 * static_cast<Real>(k + 1)) * inv_z;
    const Real size = complex_magnitude_bound(term);
    if (size > previous) break;  // the asymptotic series started to diverge
    previous = size;
    // Term k+1: odd k+1 goes to Q, even to P, with signs (-1)^floor((k+1)/2).
    const int index = k + 1;
    const Complex signed_term = ((index / 2) % 2 == 0) ? term : -term;
    if (index % 2 == 1)
      q += signed_term;
    else
      p += signed_term;
    if (size <= epsilon_v<Real> / 4 * (complex_magnitude_bound(p) + complex_magnitude_bound(q))) {
      converged = true;
      break;
    }
  }
  if (!converged) return false;
  const Complex chi = z - (static_cast<Real>(nu) / 2 + Real(0.25)) * Kokkos::numbers::pi_v<Real>;
  const Complex c = Kokkos::cos(chi), s = Kokkos::sin(chi);
  const Complex scale = Kokkos::sqrt(2 * Kokkos::numbers::inv_pi_v<Real> * inv_z);
  j = scale * (p * c - q * s);
  y = scale * (p * s + q * c);
  return true;
}

// J0, J1, Y0, Y1 for moderate |z| by Miller's backward recurrence J_{n-1} = (2n/z) J_n - J_{n+1}
// from order `start`, normalised by the generating function
//   exp(-+ i z) = J0 + 2 sum_{n>=1} (-+ i)^n J_n,
// whose sign is chosen so that exp(-+ i z) is the large one (no cancellation for complex z).
// Y0 and Y1 follow from the Neumann series (Abramowitz & Stegun 9.1.88 and its derivative)
//   Y0 = (2/pi)(ln(z/2) + gamma) J0 - (4/pi) sum_k (-1)^k J_{2k} / k,
//   Y1 = (2/pi)(ln(z/2) + gamma) J1 - (2/pi) J0 / z + (2/pi) sum_k (-1)^k (J_{2k-1} - J_{2k+1}) / k.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION CylBesselOrdersZeroOne<Real> bessel_backward_recurrence(const Kokkos::complex<Real>& z,
                                                                                int start) {
  using Complex = Kokkos::complex<Real>;
  const Complex two_over_z = Real(2) / z;
  const Complex unit = z.imag() > 0 ? Complex(0, -1) : Complex(0, 1);  // exp(unit * z) is large
  if (start % 2 == 1) ++start;
  Complex f_next(0, 0), f(Real(1), 0);  // f_{n+1}, f_n, arbitrary scale
  Complex norm(0, 0), even_sum(0, 0), odd_sum(0, 0);
  Complex f1(0, 0);
  constexpr Real rescale_above = Real(1) / (epsilon_v<Real> * epsilon_v<Real> * epsilon_v<Real>);
  for (int n = start; n >= 1; --n) {
    const Complex power_of_unit = (n % 4 == 0) ? Complex(1, 0) : (n % 4 == 1) ? unit : (n % 4 == 2) ? Complex(-1, 0) : -unit;
    norm += Real(2) * power_of_unit * f;
    const Real k = static_cast<Real>(n / 2);
    const Real sign = ((n / 2) % 2 == 0) ? Real(1) : Real(-1);
    if (n % 2 == 0) {
      even_sum += sign / k * f;  // (-1)^k f_{2k} / k
    } else {
      // f_n = f_{2k-1} with k = (n+1)/2 contributes +(-1)^k f_{2k-1}/k; as f_{2k+1} it
      // contributes -(-1)^k f_{2k+1}/k with k = (n-1)/2.
      const int k_up = (n + 1) / 2, k_down = (n - 1) / 2;
      odd_sum += ((k_up % 2 == 0) ? Real(1) : Real(-1)) / static_cast<Real>(k_up) * f;
      if (k_down >= 1) odd_sum -= ((k_down % 2 == 0) ? Real(1) : Real(-1)) / static_cast<Real>(k_down) * f;
    }
    if (n == 1) f1 = f;
    const Complex f_previous = static_cast<Real>(n) * two_over_z * f - f_next;
    f_next = f;
    f = f_previous;
    if (complex_magnitude_bound(f) > rescale_above) {
      const Real shrink = 1 / rescale_above;
      f *= shrink;
      f_next *= shrink;
      f1 *= shrink;
      norm *= shrink;
      even_sum *= shrink;
      odd_sum *= shrink;
    }
  }
  norm += f;  // J0 term
  const Complex scale = Kokkos::exp(unit * z) / norm;
  CylBesselOrdersZeroOne<Real> out;
  out.j0 = f * scale;
  out.j1 = f1 * scale;
  const Real two_over_pi = 2 * Kokkos::numbers::inv_pi_v<Real>;
  const Complex log_term = Kokkos::log(z / Real(2)) + Real(Kokkos::numbers::egamma_v<Real>);
  out.y0 = two_over_pi * (log_term * out.j0 - Real(2) * even_sum * scale);
  out.y1 = two_over_pi * (log_term * out.j1 - out.j0 / z + odd_sum * scale);
  return out;
}

// The order the backward recurrence must start from: past |z| and far enough that
// (|z|/2)^n / n! is negligible.
template <class Real>
KOKKOS_INLINE_FUNCTION int bessel_recurrence_start(Real magnitude, int bw_start) {
  Real term = 1;
  int n = 0;
  while (n < 2000 && (static_cast<Real>(n) < magnitude || term > epsilon_v<Real> * epsilon_v<Real>)) {
    ++n;
    term *= magnitude / (2 * static_cast<Real>(n));
  }
  const int needed = n + 8;
  return needed > bw_start ? needed : bw_start;
}

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION CylBesselOrdersZeroOne<Real> bessel_orders_zero_one_right_half(
    const Kokkos::complex<Real>& z, Real joint_val, int bw_start) {
  CylBesselOrdersZeroOne<Real> out;
  const Real magnitude = Kokkos::abs(z);
  if (magnitude >= joint_val && hankel_expansion(z, 0, out.j0, out.y0) && hankel_expansion(z, 1, out.j1, out.y1))
    return out;
  return bessel_backward_recurrence(z, bessel_recurrence_start(magnitude, bw_start));
}

// J0, J1, Y0, Y1 anywhere: Re z < 0 is reflected to -z (J_n(-z) = (-1)^n J_n(z);
// Y_n(z e^{+-i pi}) = (-1)^n Y_n(z) +- 2i (-1)^n J_n(z), the sign of Im z choosing the side of
// the cut).  Tiny |z| uses the leading terms of the series, where the recurrence would divide
// by z too often.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION CylBesselOrdersZeroOne<Real> bessel_orders_zero_one(const Kokkos::complex<Real>& z,
                                                                            Real joint_val, int bw_start) {
  using Complex = Kokkos::complex<Real>;
  constexpr Real inf = infinity_v<Real>;
  const Real two_over_pi = 2 * Kokkos::numbers::inv_pi_v<Real>;
  CylBesselOrdersZeroOne<Real> out;
  if (z.real() == 0 && z.imag() == 0) {
    out.j0 = Complex(1, 0);
    out.j1 = Complex(0, 0);
    out.y0 = Complex(-inf, 0);
    out.y1 = Complex(-inf, 0);
    return out;
  }
  if (Kokkos::norm(z) < epsilon_v<Real>) {
    const Complex log_term = Kokkos::log(z / Real(2)) + Real(Kokkos::numbers::egamma_v<Real>);
    out.j0 = Real(1) - z * z / Real(4);
    out.j1 = z / Real(2);
    out.y0 = two_over_pi * log_term * out.j0;
    out.y1 = -two_over_pi / z + z / Real(Kokkos::numbers::pi_v<Real>) * (log_term - Real(0.5));
  } else if (z.real() < 0) {
    const CylBesselOrdersZeroOne<Real> mirrored = bessel_orders_zero_one_right_half(-z, joint_val, bw_start);
    const Complex two_i = Kokkos::signbit(z.imag()) ? Complex(0, -2) : Complex(0, 2);
    out.j0 = mirrored.j0;
    out.j1 = -mirrored.j1;
    out.y0 = mirrored.y0 + two_i * mirrored.j0;
    out.y1 = -mirrored.y1 - two_i * mirrored.j1;
  } else {
    out = bessel_orders_zero_one_right_half(z, joint_val, bw_start);
  }
  if (z.imag() == 0) {  // real argument: J is real, and so is Y right of the cut
    out.j0.imag(0);
    out.j1.imag(0);
    if (z.real() > 0) {
      out.y0.imag(0);
      out.y1.imag(0);
    }
  }
  return out;
}

// I0 and I1 from J at i z: I0(z) = J0(i z), I1(z) = -i J1(i z).
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION void modified_bessel_i(const Kokkos::complex<Real>& z, Real joint_val, int bw_start,
                                              Kokkos::complex<Real>& i0, Kokkos::complex<Real>& i1) {
  using Complex = Kokkos::complex<Real>;
  const Complex iz(-z.imag(), z.real());
  const CylBesselOrdersZeroOne<Real> at_iz = bessel_orders_zero_one(iz, joint_val, bw_start);
  i0 = at_iz.j0;
  i1 = Complex(at_iz.j1.imag(), -at_iz.j1.real());
  if (z.imag() == 0) {
    i0.imag(0);
    i1.imag(0);
  }
}

// K0 and K1 for Re z >= 0.  Small |z|: the power series (Abramowitz & Stegun 9.6.13, 9.6.11)
//   K0 = -(ln(z/2) + gamma) I0 + sum_k H_k (z^2/4)^k / (k!)^2,
//   K1 = 1/z + ln(z/2) I1 - (z/4) sum_k (psi(k+1) + psi(k+2)) (z^2/4)^k / (k! (k+1)!).
// Large |z|: the asymptotic series sqrt(pi/(2z)) exp(-z) sum_k a_k(nu) / z^k.  Re z < 2:
// K_nu(z) = (pi/2) i^{nu+1} H_nu^(1)(i z), which cancels by at most exp(2 Re z).  Otherwise the
// integral K_nu(z) = int_0^inf exp(-z cosh t) cosh(nu t) dt by the trapezoidal rule, which
// converges exponentially with the width atan(Re z / |Im z|) of the strip where the integrand
// stays analytic and decaying.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION void modified_bessel_k_right_half(const Kokkos::complex<Real>& z, Real joint_val,
                                                         int bw_start, Kokkos::complex<Real>& k0,
                                                         Kokkos::complex<Real>& k1) {
  using Complex = Kokkos::complex<Real>;
  const Real magnitude = Kokkos::abs(z);
  constexpr Real gamma = Kokkos::numbers::egamma_v<Real>;
  if (magnitude < 2) {
    const Complex quarter_z2 = z * z / Real(4);
    const Complex log_half_z = Kokkos::log(z / Real(2));
    Complex power(1, 0);  // (z^2/4)^k / (k!)^2
    Complex i0(1, 0), i1_series(1, 0), k0_sum(0, 0), k1_sum(-2 * gamma + 1, 0);
    Real harmonic = 0;  // H_k
    for (int k = 1; k < 100; ++k) {
      const Real rk = static_cast<Real>(k);
      power *= quarter_z2 / (rk * rk);
      harmonic += 1 / rk;
      const Complex power_over_k_plus_1 = power / (rk + 1);  // (z^2/4)^k / (k! (k+1)!)
      i0 += power;
      i1_series += power_over_k_plus_1;
      k0_sum += harmonic * power;
      // psi(k+1) + psi(k+2) = 2 H_k + 1/(k+1) - 2 gamma
      k1_sum += (2 * harmonic + 1 / (rk + 1) - 2 * gamma) * power_over_k_plus_1;
      if (complex_magnitude_bound(power) <= epsilon_v<Real> / 8 * complex_magnitude_bound(i0)) break;
    }
    const Complex i1 = z / Real(2) * i1_series;
    k0 = -(log_half_z + gamma) * i0 + k0_sum;
    k1 = Real(1) / z + log_half_z * i1 - z / Real(4) * k1_sum;
    return;
  }
  if (magnitude >= joint_val) {
    // Asymptotic series for both orders; used only when it reaches full precision.
    const Complex inv_z = Real(1) / z;
    Complex sums[2];
    bool converged[2] = {false, false};
    for (int nu = 0; nu < 2; ++nu) {
      Complex term(1, 0), sum(1, 0);
      Real previous = infinity_v<Real>;
      for (int k = 0; k < 200; ++k) {
        const Real odd = static_cast<Real>(2 * k + 1);
        term *= (static_cast<Real>(4 * nu * nu) - odd * odd) / (8 * static_cast<Real>(k + 1)) * inv_z;
        const Real size = complex_magnitude_bound(term);
        if (size > previous) break;
        previous = size;
        sum += term;
        if (size <= epsilon_v<Real> / 4 * complex_magnitude_bound(sum)) {
          converged[nu] = true;
          break;
        }
      }
      sums[nu] = sum;
    }
    if (converged[0] && converged[1]) {
      const Complex front =
          Kokkos::sqrt(Kokkos::numbers::pi_v<Real> / Real(2) * inv_z) * Kokkos::exp(-z);
      k0 = front * sums[0];
      k1 = front * sums[1];
      return;
    }
  }
  if (z.real() < 2) {
    const Complex iz(-z.imag(), z.real() + Real(0));  // + 0: Re z = -0 must not pick the cut's lower side
    const CylBesselOrdersZeroOne<Real> at_iz = bessel_orders_zero_one(iz, joint_val, bw_start);
    const Real half_pi = Kokkos::numbers::pi_v<Real> / 2;
    const Complex h0 = at_iz.j0 + Complex(0, 1) * at_iz.y0;
    const Complex h1 = at_iz.j1 + Complex(0, 1) * at_iz.y1;
    k0 = half_pi * Complex(0, 1) * h0;
    k1 = -half_pi * h1;
    return;
  }
  // Trapezoidal error ~ M exp(-2 pi d / step) for a strip |Im t| < d inside the analytic,
  // decaying one; M, the integrand's size on the strip's edge, is about exp(Re z (1 - cos d)).
  const Real strip = Kokkos::atan2(z.real(), Kokkos::fabs(z.imag()));
  const Real d = strip / 2 < 1 ? strip / 2 : Real(1);
  const Real step = 2 * Kokkos::numbers::pi_v<Real> * d /
                    (-Kokkos::log(epsilon_v<Real>) + 4 + z.real() * (1 - Kokkos::cos(d)));
  // exp(-z) factored out: the integrand is then exp(-z (cosh t - 1)) = exp(-2 z sinh^2(t/2)).
  Complex sum0 = Complex(Real(0.5), 0), sum1 = Complex(Real(0.5), 0);
  for (int n = 1; n < 100000; ++n) {
    const Real t = static_cast<Real>(n) * step;
    const Real half_sinh = Kokkos::sinh(t / 2);
    const Real excess = 2 * half_sinh * half_sinh;  // cosh t - 1
    const Complex value = Kokkos::exp(-z * excess);
    sum0 += value;
    sum1 += Kokkos::cosh(t) * value;
    if (z.real() * excess > -Kokkos::log(epsilon_v<Real>) + 4) break;
  }
  const Complex front = step * Kokkos::exp(-z);
  k0 = front * sum0;
  k1 = front * sum1;
}

// K0 and K1 anywhere.  Re z < 0 uses K_nu(z e^{+-i pi}) = (-1)^nu K_nu(z) -+ i pi I_nu(z), the
// sign of Im z choosing the side of the cut.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Real>
KOKKOS_INLINE_FUNCTION void modified_bessel_k(const Kokkos::complex<Real>& z, Real joint_val, int bw_start,
                                              Kokkos::complex<Real>& k0, Kokkos::complex<Real>& k1) {
  using Complex = Kokkos::complex<Real>;
  constexpr Real inf = infinity_v<Real>;
  if (z.real() == 0 && z.imag() == 0) {
    k0 = Complex(inf, 0);
    k1 = Complex(inf, 0);
    return;
  }
  if (z.real() < 0) {
    const Complex w = -z;
    Complex kw0, kw1, iw0, iw1;
    modified_bessel_k_right_half(w, joint_val, bw_start, kw0, kw1);
    modified_bessel_i(w, joint_val, bw_start, iw0, iw1);
    const Complex i_pi = Kokkos::signbit(z.imag()) ? Complex(0, -Kokkos::numbers::pi_v<Real>)
                                                   : Complex(0, Real(Kokkos::numbers::pi_v<Real>));
    k0 = kw0 - i_pi * iw0;
    k1 = -kw1 - i_pi * iw1;
    return;
  }
  modified_bessel_k_right_half(z, joint_val, bw_start, k0, k1);
  if (z.imag() == 0) {
    k0.imag(0);
    k1.imag(0);
  }
}
}  // namespace Impl

// Kokkos 4.6's cylindrical Bessel functions of orders 0 and 1 of a complex argument.  RealType
// and IntType are not deduced from the defaults: call them as
// cyl_bessel_j0<Kokkos::complex<double>, double, int>(z).
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType, class RealType, class IntType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_j0(const CmplxType& z, const RealType& joint_val = 25,
                                               const IntType& bw_start = 70) {
  using Real = typename CmplxType::value_type;
  return Impl::bessel_orders_zero_one(z, static_cast<Real>(joint_val), static_cast<int>(bw_start)).j0;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType, class RealType, class IntType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_j1(const CmplxType& z, const RealType& joint_val = 25,
                                               const IntType& bw_start = 70) {
  using Real = typename CmplxType::value_type;
  return Impl::bessel_orders_zero_one(z, static_cast<Real>(joint_val), static_cast<int>(bw_start)).j1;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType, class RealType, class IntType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_y0(const CmplxType& z, const RealType& joint_val = 25,
                                               const IntType& bw_start = 70) {
  using Real = typename CmplxType::value_type;
  return Impl::bessel_orders_zero_one(z, static_cast<Real>(joint_val), static_cast<int>(bw_start)).y0;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType, class RealType, class IntType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_y1(const CmplxType& z, const RealType& joint_val = 25,
                                               const IntType& bw_start = 70) {
  using Real = typename CmplxType::value_type;
  return Impl::bessel_orders_zero_one(z, static_cast<Real>(joint_val), static_cast<int>(bw_start)).y1;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType, class RealType, class IntType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_i0(const CmplxType& z, const RealType& joint_val = 25,
                                               const IntType& bw_start = 70) {
  using Real = typename CmplxType::value_type;
  CmplxType i0, i1;
  Impl::modified_bessel_i(z, static_cast<Real>(joint_val), static_cast<int>(bw_start), i0, i1);
  return i0;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType, class RealType, class IntType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_i1(const CmplxType& z, const RealType& joint_val = 25,
                                               const IntType& bw_start = 70) {
  using Real = typename CmplxType::value_type;
  CmplxType i0, i1;
  Impl::modified_bessel_i(z, static_cast<Real>(joint_val), static_cast<int>(bw_start), i0, i1);
  return i1;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType, class RealType, class IntType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_k0(const CmplxType& z, const RealType& joint_val = 9,
                                               const IntType& bw_start = 30) {
  using Real = typename CmplxType::value_type;
  CmplxType k0, k1;
  Impl::modified_bessel_k(z, static_cast<Real>(joint_val), static_cast<int>(bw_start), k0, k1);
  return k0;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType, class RealType, class IntType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_k1(const CmplxType& z, const RealType& joint_val = 9,
                                               const IntType& bw_start = 30) {
  using Real = typename CmplxType::value_type;
  CmplxType k0, k1;
  Impl::modified_bessel_k(z, static_cast<Real>(joint_val), static_cast<int>(bw_start), k0, k1);
  return k1;
}

// Hankel functions H0^(1), H1^(1), H0^(2), H1^(2).  In the half plane where a Hankel function
// decays, J +- iY would cancel; there it comes from K (H_nu^(1)(z) = (2/pi) (-i)^{nu+1}
// K_nu(-iz), H_nu^(2)(z) = (2/pi) i^{nu+1} K_nu(iz)).  At z = 0: (1, -+inf) for order 0 and
// (0, -+inf) for order 1, as in Kokkos.
namespace Impl {
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_hankel(const CmplxType& z, int order, int kind) {
  using Real = typename CmplxType::value_type;
  constexpr Real inf = infinity_v<Real>;
  const Real sign = kind == 1 ? Real(1) : Real(-1);  // H^(1,2) = J +- iY
  if (z.real() == 0 && z.imag() == 0) return CmplxType(order == 0 ? Real(1) : Real(0), -sign * inf);
  const bool decays = kind == 1 ? z.imag() > 0 : z.imag() < 0;
  if (!decays) {
    const CylBesselOrdersZeroOne<Real> jy = bessel_orders_zero_one(z, Real(25), 70);
    const CmplxType j = order == 0 ? jy.j0 : jy.j1;
    const CmplxType y = order == 0 ? jy.y0 : jy.y1;
    return CmplxType(j.real() - sign * y.imag(), j.imag() + sign * y.real());
  }
  // -i z for the first kind, i z for the second: both have Re > 0 here.
  const CmplxType rotated = kind == 1 ? CmplxType(z.imag(), -z.real()) : CmplxType(-z.imag(), z.real());
  CmplxType k0, k1;
  modified_bessel_k(rotated, Real(9), 30, k0, k1);
  const Real two_over_pi = 2 * Kokkos::numbers::inv_pi_v<Real>;
  if (order == 1) return -two_over_pi * k1;
  const CmplxType i_k0(-k0.imag(), k0.real());
  return -sign * two_over_pi * i_k0;
}
}  // namespace Impl

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_h10(const CmplxType& z) {
  return Impl::cyl_hankel(z, 0, 1);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_h11(const CmplxType& z) {
  return Impl::cyl_hankel(z, 1, 1);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_h20(const CmplxType& z) {
  return Impl::cyl_hankel(z, 0, 2);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class CmplxType>
KOKKOS_INLINE_FUNCTION CmplxType cyl_bessel_h21(const CmplxType& z) {
  return Impl::cyl_hankel(z, 1, 2);
}

}  // namespace Kokkos::Experimental

#pragma once
// Kokkos::complex<RealType>: a complex number usable in functors on every back end (std::complex
// is not device-callable), with the operators and functions of <complex>.
//
//   Kokkos::complex<double> z(1.0, 2.0);
//   auto w = Kokkos::exp(Kokkos::complex<double>(0, 0.5)) * z;
//   auto [re, im] = w;
//
// Layout: two RealType values, aligned to their combined size as in Kokkos, so that a
// complex<float> is one 8-byte word (lock-free atomics) and a complex<double> fills 16 bytes.
// Trivially copyable, so Kokkos::atomic_* and reductions handle it like any other value.
//
// Special values follow C99 Annex G / std::complex where Kokkos leaves them unspecified: division
// and multiplication recover infinities that the plain formulas would turn into NaN+iNaN (so
// 1/(inf+i0) is 0, not NaN); sqrt, log, exp and proj give the standard results for infinite and
// NaN parts and respect the sign of zero on the branch cuts.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Reducers.hpp>  // the primary reduction_identity template

#include <cmath>
#include <complex>
#include <cstddef>
#include <istream>
#include <limits>
#include <ostream>
#include <type_traits>
#include <utility>

namespace Kokkos {

template <class RealType>
class alignas(2 * sizeof(RealType)) complex {
  static_assert(std::is_floating_point_v<RealType> && std::is_same_v<RealType, std::remove_cv_t<RealType>>,
                "Kokkos::complex: RealType must be a cv-unqualified floating-point type");

  RealType re_{};
  RealType im_{};

 public:
  using value_type = RealType;

  KOKKOS_DEFAULTED_FUNCTION constexpr complex() noexcept = default;
  KOKKOS_DEFAULTED_FUNCTION constexpr complex(const complex&) noexcept = default;
  KOKKOS_DEFAULTED_FUNCTION constexpr complex& operator=(const complex&) noexcept = default;

  // Conversion between precisions is implicit in both directions, as in Kokkos.
  template <class RType, std::enable_if_t<std::is_convertible_v<RType, RealType>, int> = 0>
  KOKKOS_INLINE_FUNCTION constexpr complex(const complex<RType>& other) noexcept
      : re_(static_cast<RealType>(other.real())), im_(static_cast<RealType>(other.imag())) {}

  // The standard guarantees std::complex<T> is laid out as T[2], which keeps this device-callable.
  KOKKOS_INLINE_FUNCTION complex(const std::complex<RealType>& src) noexcept
      : re_(reinterpret_cast<const RealType(&)[2]>(src)[0]), im_(reinterpret_cast<const RealType(&)[2]>(src)[1]) {}

  operator std::complex<RealType>() const noexcept { return std::complex<RealType>(re_, im_); }

  KOKKOS_INLINE_FUNCTION constexpr complex(const RealType& val) noexcept : re_(val), im_(static_cast<RealType>(0)) {}
  KOKKOS_INLINE_FUNCTION constexpr complex(const RealType& re, const RealType& im) noexcept : re_(re), im_(im) {}

  KOKKOS_INLINE_FUNCTION constexpr complex& operator=(const RealType& val) noexcept {
    re_ = val;
    im_ = RealType(0);
    return *this;
  }
  complex& operator=(const std::complex<RealType>& src) noexcept {
    re_ = src.real();
    im_ = src.imag();
    return *this;
  }

  KOKKOS_INLINE_FUNCTION constexpr RealType& imag() noexcept { return im_; }
  KOKKOS_INLINE_FUNCTION constexpr RealType& real() noexcept { return re_; }
  KOKKOS_INLINE_FUNCTION constexpr RealType imag() const noexcept { return im_; }
  KOKKOS_INLINE_FUNCTION constexpr RealType real() const noexcept { return re_; }
  KOKKOS_INLINE_FUNCTION constexpr void imag(RealType v) noexcept { im_ = v; }
  KOKKOS_INLINE_FUNCTION constexpr void real(RealType v) noexcept { re_ = v; }

  KOKKOS_INLINE_FUNCTION constexpr complex& operator+=(const complex& src) noexcept {
    re_ += src.re_;
    im_ += src.im_;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION constexpr complex& operator+=(const RealType& src) noexcept {
    re_ += src;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION constexpr complex& operator-=(const complex& src) noexcept {
    re_ -= src.re_;
    im_ -= src.im_;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION constexpr complex& operator-=(const RealType& src) noexcept {
    re_ -= src;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION constexpr complex& operator*=(const complex& src) noexcept;
  KOKKOS_INLINE_FUNCTION constexpr complex& operator*=(const RealType& src) noexcept {
    re_ *= src;
    im_ *= src;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION constexpr complex& operator/=(const complex& y) noexcept;
  KOKKOS_INLINE_FUNCTION constexpr complex& operator/=(const RealType& src) noexcept {
    re_ /= src;
    im_ /= src;
    return *this;
  }
  complex& operator+=(const std::complex<RealType>& src) noexcept { return *this += complex(src); }
  complex& operator-=(const std::complex<RealType>& src) noexcept { return *this -= complex(src); }
  complex& operator*=(const std::complex<RealType>& src) noexcept { return *this *= complex(src); }
  complex& operator/=(const std::complex<RealType>& src) noexcept { return *this /= complex(src); }

  // Structured bindings: auto& [re, im] = z;
  template <std::size_t I, class RT>
  friend KOKKOS_INLINE_FUNCTION constexpr RT& get(complex<RT>&) noexcept;
};

template <std::size_t I, class RT>
KOKKOS_INLINE_FUNCTION constexpr RT& get(complex<RT>& z) noexcept {
  static_assert(I < 2, "Kokkos::get<I>(complex): I must be 0 (real part) or 1 (imaginary part)");
  if constexpr (I == 0)
    return z.re_;
  else
    return z.im_;
}
template <std::size_t I, class RT>
KOKKOS_INLINE_FUNCTION constexpr const RT& get(const complex<RT>& z) noexcept {
  return Kokkos::get<I>(const_cast<complex<RT>&>(z));
}
template <std::size_t I, class RT>
KOKKOS_INLINE_FUNCTION constexpr RT&& get(complex<RT>&& z) noexcept {
  return static_cast<RT&&>(Kokkos::get<I>(z));
}
template <std::size_t I, class RT>
KOKKOS_INLINE_FUNCTION constexpr const RT&& get(const complex<RT>&& z) noexcept {
  return static_cast<const RT&&>(Kokkos::get<I>(z));
}

namespace Impl {
// The floating-point type an arithmetic argument computes in (integers compute in double).
template <class T>
using complex_promote_t = std::conditional_t<std::is_floating_point_v<T>, T, double>;

template <class T>
inline constexpr bool complex_scalar_v = std::is_arithmetic_v<T>;

// i z and -i z: the trigonometric functions are the hyperbolic ones rotated by a quarter turn.
template <class R>
KOKKOS_INLINE_FUNCTION constexpr complex<R> complex_times_i(const complex<R>& z) {
  return complex<R>(-z.imag(), z.real());
}
template <class R>
KOKKOS_INLINE_FUNCTION constexpr complex<R> complex_times_minus_i(const complex<R>& z) {
  return complex<R>(z.imag(), -z.real());
}

template <class R>
KOKKOS_INLINE_FUNCTION constexpr R complex_box(R v) {
  // 1 for an infinite value (keeping its sign), 0 otherwise: Annex G's "box the infinity".
  return std::copysign(std::isinf(v) ? R(1) : R(0), v);
}

// Complex product with the recovery of C99 Annex G: when the plain formula gives NaN+iNaN but an
// operand is infinite, the result is an infinity (std::complex behaves this way).
template <class R>
KOKKOS_INLINE_FUNCTION constexpr complex<R> complex_multiply(R a, R b, R c, R d) {
  R ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  R x = ac - bd;
  R y = ad + bc;
  if (KOKKOS_IMPL_UNLIKELY(std::isnan(x) && std::isnan(y))) {
    bool recalc = false;
    if (std::isinf(a) || std::isinf(b)) {
      a = complex_box(a);
      b = complex_box(b);
      if (std::isnan(c)) c = std::copysign(R(0), c);
      if (std::isnan(d)) d = std::copysign(R(0), d);
      recalc = true;
    }
    if (std::isinf(c) || std::isinf(d)) {
      c = complex_box(c);
      d = complex_box(d);
      if (std::isnan(a)) a = std::copysign(R(0), a);
      if (std::isnan(b)) b = std::copysign(R(0), b);
      recalc = true;
    }
    if (!recalc && (std::isinf(ac) || std::isinf(bd) || std::isinf(ad) || std::isinf(bc))) {
      // Overflow in a partial product: the other NaNs came from inf - inf.
      if (std::isnan(a)) a = std::copysign(R(0), a);
      if (std::isnan(b)) b = std::copysign(R(0), b);
      if (std::isnan(c)) c = std::copysign(R(0), c);
      if (std::isnan(d)) d = std::copysign(R(0), d);
      recalc = true;
    }
    if (recalc) {
      const R inf = std::numeric_limits<R>::infinity();
      x = inf * (a * c - b * d);
      y = inf * (a * d + b * c);
    }
  }
  return complex<R>(x, y);
}

// (a + ib) / (c + id), with both operands scaled by the power of two nearest the divisor's
// larger part (exact, unlike Kokkos' division by the 1-norm) so that |c|^2 + |d|^2 can neither
// overflow nor underflow, and with Annex G's recovery of infinities and zeros where the scaled
// formula gives NaN+iNaN.
template <class R>
KOKKOS_INLINE_FUNCTION constexpr complex<R> complex_divide(R a, R b, R c, R d) {
  const R m = (std::isnan(c) || std::isnan(d)) ? std::numeric_limits<R>::quiet_NaN()
                                                : std::fmax(std::fabs(c), std::fabs(d));
  R x = std::numeric_limits<R>::quiet_NaN();
  R y = x;
  if (std::isfinite(m) && m > R(0)) {
    const int e = std::ilogb(m);
    const R as = std::scalbn(a, -e), bs = std::scalbn(b, -e);
    const R cs = std::scalbn(c, -e), ds = std::scalbn(d, -e);
    const R denom = cs * cs + ds * ds;
    x = (as * cs + bs * ds) / denom;
    y = (bs * cs - as * ds) / denom;
  }
  if (KOKKOS_IMPL_UNLIKELY(std::isnan(x) && std::isnan(y))) {
    const R inf = std::numeric_limits<R>::infinity();
    if (m == R(0) && (!std::isnan(a) || !std::isnan(b))) {
      x = std::copysign(inf, c) * a;
      y = std::copysign(inf, c) * b;
    } else if ((std::isinf(a) || std::isinf(b)) && std::isfinite(c) && std::isfinite(d)) {
      a = complex_box(a);
      b = complex_box(b);
      x = inf * (a * c + b * d);
      y = inf * (b * c - a * d);
    } else if ((std::isinf(c) || std::isinf(d)) && std::isfinite(a) && std::isfinite(b)) {
      c = complex_box(c);
      d = complex_box(d);
      x = R(0) * (a * c + b * d);
      y = R(0) * (b * c - a * d);
    }
  }
  return complex<R>(x, y);
}
}  // namespace Impl

template <class RealType>
KOKKOS_INLINE_FUNCTION constexpr complex<RealType>& complex<RealType>::operator*=(const complex& src) noexcept {
  *this = Impl::complex_multiply(re_, im_, src.re_, src.im_);
  return *this;
}
template <class RealType>
KOKKOS_INLINE_FUNCTION constexpr complex<RealType>& complex<RealType>::operator/=(const complex& y) noexcept {
  *this = Impl::complex_divide(re_, im_, y.re_, y.im_);
  return *this;
}

// ---- comparisons (mixed precisions, real and std::complex operands, as Kokkos allows) ----

template <class R1, class R2>
KOKKOS_INLINE_FUNCTION constexpr bool operator==(const complex<R1>& x, const complex<R2>& y) noexcept {
  using C = std::common_type_t<R1, R2>;
  return C(x.real()) == C(y.real()) && C(x.imag()) == C(y.imag());
}
template <class R1, class R2>
inline bool operator==(const std::complex<R1>& x, const complex<R2>& y) noexcept {
  using C = std::common_type_t<R1, R2>;
  return C(x.real()) == C(y.real()) && C(x.imag()) == C(y.imag());
}
template <class R1, class R2>
inline bool operator==(const complex<R1>& x, const std::complex<R2>& y) noexcept {
  return y == x;
}
template <class R1, class R2, std::enable_if_t<std::is_convertible_v<R2, R1> && Impl::complex_scalar_v<R2>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr bool operator==(const complex<R1>& x, const R2& y) noexcept {
  using C = std::common_type_t<R1, R2>;
  return C(x.real()) == C(y) && x.imag() == R1(0);
}
template <class R1, class R2, std::enable_if_t<std::is_convertible_v<R1, R2> && Impl::complex_scalar_v<R1>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr bool operator==(const R1& x, const complex<R2>& y) noexcept {
  return y == x;
}
template <class R1, class R2>
KOKKOS_INLINE_FUNCTION constexpr bool operator!=(const complex<R1>& x, const complex<R2>& y) noexcept {
  return !(x == y);
}
template <class R1, class R2>
inline bool operator!=(const std::complex<R1>& x, const complex<R2>& y) noexcept {
  return !(x == y);
}
template <class R1, class R2>
inline bool operator!=(const complex<R1>& x, const std::complex<R2>& y) noexcept {
  return !(x == y);
}
template <class R1, class R2, std::enable_if_t<std::is_convertible_v<R2, R1> && Impl::complex_scalar_v<R2>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr bool operator!=(const complex<R1>& x, const R2& y) noexcept {
  return !(x == y);
}
template <class R1, class R2, std::enable_if_t<std::is_convertible_v<R1, R2> && Impl::complex_scalar_v<R1>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr bool operator!=(const R1& x, const complex<R2>& y) noexcept {
  return !(x == y);
}

// ---- arithmetic: the result has the common precision of the operands ----

template <class R1, class R2>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator+(const complex<R1>& x,
                                                                               const complex<R2>& y) noexcept {
  return {x.real() + y.real(), x.imag() + y.imag()};
}
template <class R1, class R2, std::enable_if_t<Impl::complex_scalar_v<R2>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator+(const complex<R1>& x,
                                                                               const R2& y) noexcept {
  return {x.real() + y, std::common_type_t<R1, R2>(x.imag())};
}
template <class R1, class R2, std::enable_if_t<Impl::complex_scalar_v<R1>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator+(const R1& x,
                                                                               const complex<R2>& y) noexcept {
  return {x + y.real(), std::common_type_t<R1, R2>(y.imag())};
}
template <class R>
KOKKOS_INLINE_FUNCTION constexpr complex<R> operator+(const complex<R>& x) noexcept {
  return x;
}

template <class R1, class R2>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator-(const complex<R1>& x,
                                                                               const complex<R2>& y) noexcept {
  return {x.real() - y.real(), x.imag() - y.imag()};
}
template <class R1, class R2, std::enable_if_t<Impl::complex_scalar_v<R2>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator-(const complex<R1>& x,
                                                                               const R2& y) noexcept {
  return {x.real() - y, std::common_type_t<R1, R2>(x.imag())};
}
template <class R1, class R2, std::enable_if_t<Impl::complex_scalar_v<R1>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator-(const R1& x,
                                                                               const complex<R2>& y) noexcept {
  return {x - y.real(), -std::common_type_t<R1, R2>(y.imag())};
}
template <class R>
KOKKOS_INLINE_FUNCTION constexpr complex<R> operator-(const complex<R>& x) noexcept {
  return {-x.real(), -x.imag()};
}

template <class R1, class R2>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator*(const complex<R1>& x,
                                                                               const complex<R2>& y) noexcept {
  using C = std::common_type_t<R1, R2>;
  return Impl::complex_multiply<C>(x.real(), x.imag(), y.real(), y.imag());
}
template <class R1, class R2, std::enable_if_t<Impl::complex_scalar_v<R2>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator*(const complex<R1>& x,
                                                                               const R2& y) noexcept {
  return {x.real() * y, x.imag() * y};
}
template <class R1, class R2, std::enable_if_t<Impl::complex_scalar_v<R1>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator*(const R1& x,
                                                                               const complex<R2>& y) noexcept {
  return {x * y.real(), x * y.imag()};
}
// complex * std::complex: Kokkos provides it so that mixed code keeps Kokkos::complex.
template <class R1, class R2>
inline complex<std::common_type_t<R1, R2>> operator*(const std::complex<R1>& x, const complex<R2>& y) {
  using C = std::common_type_t<R1, R2>;
  return Impl::complex_multiply<C>(x.real(), x.imag(), y.real(), y.imag());
}

template <class R1, class R2>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator/(const complex<R1>& x,
                                                                               const complex<R2>& y) noexcept {
  using C = std::common_type_t<R1, R2>;
  return Impl::complex_divide<C>(x.real(), x.imag(), y.real(), y.imag());
}
template <class R1, class R2, std::enable_if_t<Impl::complex_scalar_v<R2>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator/(const complex<R1>& x,
                                                                               const R2& y) noexcept {
  return {x.real() / y, x.imag() / y};
}
template <class R1, class R2, std::enable_if_t<Impl::complex_scalar_v<R1>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr complex<std::common_type_t<R1, R2>> operator/(const R1& x,
                                                                               const complex<R2>& y) noexcept {
  using C = std::common_type_t<R1, R2>;
  return Impl::complex_divide<C>(x, C(0), y.real(), y.imag());
}

// ---- parts, magnitude, phase ----

template <class R>
KOKKOS_INLINE_FUNCTION constexpr R real(const complex<R>& x) noexcept {
  return x.real();
}
template <class R>
KOKKOS_INLINE_FUNCTION constexpr R imag(const complex<R>& x) noexcept {
  return x.imag();
}
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr Impl::complex_promote_t<T> real(T x) noexcept {
  return static_cast<Impl::complex_promote_t<T>>(x);
}
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr Impl::complex_promote_t<T> imag(T) noexcept {
  return Impl::complex_promote_t<T>(0);
}

template <class R>
KOKKOS_INLINE_FUNCTION R abs(const complex<R>& x) {
  return std::hypot(x.real(), x.imag());
}
template <class R>
KOKKOS_INLINE_FUNCTION R arg(const complex<R>& x) {
  return std::atan2(x.imag(), x.real());
}
template <class R>
KOKKOS_INLINE_FUNCTION constexpr R norm(const complex<R>& x) noexcept {
  return x.real() * x.real() + x.imag() * x.imag();
}
template <class R>
KOKKOS_INLINE_FUNCTION constexpr complex<R> conj(const complex<R>& x) noexcept {
  return {x.real(), -x.imag()};
}
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr complex<Impl::complex_promote_t<T>> conj(T x) noexcept {
  using R = Impl::complex_promote_t<T>;
  return {static_cast<R>(x), -R(0)};
}
// Projection onto the Riemann sphere: every infinity maps to (+inf, +-0).
template <class R>
KOKKOS_INLINE_FUNCTION constexpr complex<R> proj(const complex<R>& x) noexcept {
  if (std::isinf(x.real()) || std::isinf(x.imag()))
    return {std::numeric_limits<R>::infinity(), std::copysign(R(0), x.imag())};
  return x;
}
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
KOKKOS_INLINE_FUNCTION constexpr complex<Impl::complex_promote_t<T>> proj(T x) noexcept {
  return proj(complex<Impl::complex_promote_t<T>>(static_cast<Impl::complex_promote_t<T>>(x)));
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> polar(const R& r, const R& theta = R()) {
  return {r * std::cos(theta), r * std::sin(theta)};
}

// ---- exponentials, logarithms, powers, roots ----

template <class R>
KOKKOS_INLINE_FUNCTION complex<R> exp(const complex<R>& z) {
  const R x = z.real(), y = z.imag();
  if (y == R(0)) return {std::exp(x), y};  // real argument: exact zero imaginary part, sign kept
  if (std::isinf(x)) {
    if (x < R(0) && !std::isfinite(y)) return {R(0), R(0)};
    if (x > R(0) && !std::isfinite(y)) return {x, y - y};  // (inf, NaN)
  }
  const R e = std::exp(x);
  return {e * std::cos(y), e * std::sin(y)};
}
// Of the math functions, Kokkos overloads only exp for std::complex (host only, as std::complex
// is host code), returning Kokkos::complex; the others take Kokkos::complex.
template <class R>
inline complex<R> exp(const std::complex<R>& z) {
  return exp(complex<R>(z));
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> log(const complex<R>& z) {
  // atan2 places the branch cut on the negative real axis and keeps the sign of a zero imaginary
  // part: log(-1 - 0i) = -i pi.  Near the unit circle log|z| = log1p(|z|^2 - 1) / 2 keeps its
  // relative accuracy, which log(hypot) loses to cancellation.
  const R x = z.real(), y = z.imag();
  const R h = abs(z);
  if (h > R(0.5) && h < R(2)) return {R(0.5) * std::log1p((x - R(1)) * (x + R(1)) + y * y), arg(z)};
  return {std::log(h), arg(z)};
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> log10(const complex<R>& z) {
  return log(z) / std::log(R(10));
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> sqrt(const complex<R>& z) {
  const R x = z.real(), y = z.imag();
  const R inf = std::numeric_limits<R>::infinity();
  if (std::isinf(y)) return {inf, y};
  if (std::isinf(x)) {
    if (x > R(0)) return {x, std::isnan(y) ? y : std::copysign(R(0), y)};
    return {std::isnan(y) ? y : R(0), std::copysign(inf, y)};  // sqrt(-inf + iy) = 0 + i inf
  }
  if (std::isnan(x) || std::isnan(y)) return {std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN()};
  if (x == R(0) && y == R(0)) return {R(0), y};
  // Scale large arguments down so that |z| + |x| cannot overflow.
  const bool big = std::fabs(x) > std::numeric_limits<R>::max() / R(4) ||
                   std::fabs(y) > std::numeric_limits<R>::max() / R(4);
  const R xs = big ? x * R(0.25) : x;
  const R ys = big ? y * R(0.25) : y;
  const R t = std::sqrt((std::hypot(xs, ys) + std::fabs(xs)) * R(0.5));
  const R factor = big ? R(2) : R(1);
  if (x >= R(0)) return {t * factor, ys / (R(2) * t) * factor};
  return {std::fabs(ys) / (R(2) * t) * factor, std::copysign(t, y) * factor};
}

template <class R>
KOKKOS_INLINE_FUNCTION complex<R> pow(const complex<R>& x, const complex<R>& y) {
  if (x == R(0)) return complex<R>();  // as std::pow: 0^y is 0 for every y
  return exp(y * log(x));
}
template <class R, class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>
KOKKOS_INLINE_FUNCTION complex<std::common_type_t<R, Impl::complex_promote_t<U>>> pow(const complex<R>& x,
                                                                                      const U& y) {
  using C = std::common_type_t<R, Impl::complex_promote_t<U>>;
  const complex<C> xc(x);
  const C yc = static_cast<C>(y);
  // A positive real base stays on the real axis exactly.
  if (xc.imag() == C(0) && xc.real() > C(0)) return complex<C>(std::pow(xc.real(), yc), xc.imag());
  const complex<C> l = log(xc);
  return polar<C>(std::exp(yc * l.real()), yc * l.imag());
}
template <class T, class R, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
KOKKOS_INLINE_FUNCTION complex<std::common_type_t<Impl::complex_promote_t<T>, R>> pow(const T& x,
                                                                                      const complex<R>& y) {
  using C = std::common_type_t<Impl::complex_promote_t<T>, R>;
  const C xc = static_cast<C>(x);
  if (xc > C(0)) return polar<C>(std::pow(xc, y.real()), y.imag() * std::log(xc));
  return pow(complex<C>(xc), complex<C>(y));
}
template <class R1, class R2, std::enable_if_t<!std::is_same_v<R1, R2>, int> = 0>
KOKKOS_INLINE_FUNCTION complex<std::common_type_t<R1, R2>> pow(const complex<R1>& x, const complex<R2>& y) {
  using C = std::common_type_t<R1, R2>;
  return pow(complex<C>(x), complex<C>(y));
}

// ---- trigonometric and hyperbolic functions ----

template <class R>
KOKKOS_INLINE_FUNCTION complex<R> sinh(const complex<R>& z) {
  const R x = z.real(), y = z.imag();
  if (y == R(0)) return {std::sinh(x), y};
  return {std::sinh(x) * std::cos(y), std::cosh(x) * std::sin(y)};
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> cosh(const complex<R>& z) {
  const R x = z.real(), y = z.imag();
  if (y == R(0)) return {std::cosh(x), std::copysign(R(0), x) * y};
  return {std::cosh(x) * std::cos(y), std::sinh(x) * std::sin(y)};
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> tanh(const complex<R>& z) {
  const R x = z.real(), y = z.imag();
  if (y == R(0)) return {std::tanh(x), y};
  // Beyond |x| = 22 (double; it is more than enough for float) tanh(x) is +-1 to working
  // precision and cosh(2x) overflows: use the asymptotic imaginary part 4 sin y cos y e^{-2|x|}.
  if (std::fabs(x) > R(22)) {
    const R e = std::exp(-R(2) * std::fabs(x));
    return {std::copysign(R(1), x), R(4) * std::sin(y) * std::cos(y) * e};
  }
  // Kahan's formula: no cancellation and no overflow of sinh/cosh(2x).
  const R t = std::tan(y);
  const R beta = R(1) + t * t;
  const R s = std::sinh(x);
  const R rho = std::sqrt(R(1) + s * s);
  const R denom = R(1) + beta * s * s;
  return {beta * rho * s / denom, t / denom};
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> sin(const complex<R>& z) {
  // sin z = -i sinh(iz)
  return Impl::complex_times_minus_i(sinh(Impl::complex_times_i(z)));
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> cos(const complex<R>& z) {
  // cos z = cosh(iz)
  return cosh(Impl::complex_times_i(z));
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> tan(const complex<R>& z) {
  // tan z = -i tanh(iz)
  return Impl::complex_times_minus_i(tanh(Impl::complex_times_i(z)));
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> asinh(const complex<R>& z) {
  // asinh is odd: work in the right half-plane, where z + sqrt(z^2 + 1) has no cancellation.
  const bool flip = std::signbit(z.real());
  const complex<R> w = flip ? -z : z;
  complex<R> r;
  if (abs(w) > std::sqrt(std::numeric_limits<R>::max()) / R(4)) {
    r = log(w) + std::log(R(2));  // z^2 would overflow; sqrt(z^2 + 1) ~ z
  } else {
    r = log(w + sqrt(w * w + R(1)));
  }
  return flip ? -r : r;
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> acosh(const complex<R>& z) {
  // The product of two square roots (rather than sqrt(z^2 - 1)) puts the branch cut on
  // (-inf, 1] as the standard requires.
  if (abs(z) > std::sqrt(std::numeric_limits<R>::max()) / R(4)) {
    const complex<R> r = log(z) + std::log(R(2));
    return {r.real(), std::copysign(r.imag(), z.imag())};
  }
  return log(z + sqrt(z + R(1)) * sqrt(z - R(1)));
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> atanh(const complex<R>& z) {
  return (log(R(1) + z) - log(R(1) - z)) * R(0.5);
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> asin(const complex<R>& z) {
  // asin z = -i asinh(iz)
  return Impl::complex_times_minus_i(asinh(Impl::complex_times_i(z)));
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> acos(const complex<R>& z) {
  const complex<R> a = asin(z);
  return {R(1.57079632679489661923132169163975144) - a.real(), -a.imag()};
}
template <class R>
KOKKOS_INLINE_FUNCTION complex<R> atan(const complex<R>& z) {
  // atan z = -i atanh(iz)
  return Impl::complex_times_minus_i(atanh(Impl::complex_times_i(z)));
}

// ---- streams (host only): the format of std::complex, "(re,im)" ----

template <class R>
std::ostream& operator<<(std::ostream& os, const complex<R>& x) {
  return os << std::complex<R>(x);
}
template <class R>
std::istream& operator>>(std::istream& is, complex<R>& x) {
  std::complex<R> v;
  is >> v;
  if (is) x = v;
  return is;
}

// ---- reductions: Sum and Prod over complex values ----

template <class R>
struct reduction_identity<Kokkos::complex<R>> {
  KOKKOS_FORCEINLINE_FUNCTION constexpr static Kokkos::complex<R> sum() noexcept { return Kokkos::complex<R>(); }
  KOKKOS_FORCEINLINE_FUNCTION constexpr static Kokkos::complex<R> prod() noexcept { return Kokkos::complex<R>(1); }
};

}  // namespace Kokkos

template <class R>
struct std::tuple_size<Kokkos::complex<R>> : std::integral_constant<std::size_t, 2> {};
template <std::size_t I, class R>
struct std::tuple_element<I, Kokkos::complex<R>> {
  static_assert(I < 2, "Kokkos::complex has two elements");
  using type = R;
};

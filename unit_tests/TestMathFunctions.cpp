// Kokkos::<cmath> functions (Kokkos_MathematicalFunctions.hpp): every function for float, double,
// long double and int against the standard library, special values included (NaN, +-inf,
// signed zeros, subnormals, the extremes), called directly on the host and inside a
// parallel_for on the default execution space.  Table-driven: each function list is an
// X-macro expanded once into a switch, so the file instantiates one kernel, not one per function.
#include "TestCommon.hpp"

#include <Kokkos_MathematicalFunctions.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace {

#define KDAG_TEST_UNARY_FUNCTIONS(X)                                                                  \
  X(fabs) X(exp) X(exp2) X(expm1) X(log) X(log10) X(log2) X(log1p) X(sqrt) X(cbrt) X(sin) X(cos) X(tan) \
  X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(asinh) X(acosh) X(atanh) X(erf) X(erfc) X(tgamma)   \
  X(lgamma) X(ceil) X(floor) X(trunc) X(round) X(nearbyint) X(logb)
#define KDAG_TEST_BINARY_FUNCTIONS(X) \
  X(fmod) X(remainder) X(fmax) X(fmin) X(fdim) X(pow) X(hypot) X(atan2) X(nextafter) X(copysign)
#define KDAG_TEST_PREDICATES(X) X(isfinite) X(isinf) X(isnan) X(signbit)

#define KDAG_TEST_NAME(F) #F,
const char* const unary_names[] = {KDAG_TEST_UNARY_FUNCTIONS(KDAG_TEST_NAME)};
const char* const binary_names[] = {KDAG_TEST_BINARY_FUNCTIONS(KDAG_TEST_NAME)};
const char* const predicate_names[] = {KDAG_TEST_PREDICATES(KDAG_TEST_NAME)};
#undef KDAG_TEST_NAME
constexpr int num_unary = sizeof(unary_names) / sizeof(unary_names[0]);
constexpr int num_binary = sizeof(binary_names) / sizeof(binary_names[0]);
constexpr int num_predicates = sizeof(predicate_names) / sizeof(predicate_names[0]);

// Kokkos::F(x) for the which-th function, device-callable (what a functor would write).
KOKKOS_IMPL_DISABLE_EXEC_CHECK  // long double: host only
template <class T>
KOKKOS_INLINE_FUNCTION auto kokkos_unary(int which, T x) {
  using R = decltype(Kokkos::fabs(x));
  int i = 0;
#define KDAG_TEST_CASE(F) \
  if (which == i++) return static_cast<R>(Kokkos::F(x));
  KDAG_TEST_UNARY_FUNCTIONS(KDAG_TEST_CASE)
#undef KDAG_TEST_CASE
  return static_cast<R>(-12345);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK  // long double: host only
template <class T>
KOKKOS_INLINE_FUNCTION auto kokkos_binary(int which, T x, T y) {
  using R = decltype(Kokkos::fmax(x, y));
  int i = 0;
#define KDAG_TEST_CASE(F) \
  if (which == i++) return static_cast<R>(Kokkos::F(x, y));
  KDAG_TEST_BINARY_FUNCTIONS(KDAG_TEST_CASE)
#undef KDAG_TEST_CASE
  return static_cast<R>(-12345);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK  // long double: host only
template <class T>
KOKKOS_INLINE_FUNCTION bool kokkos_predicate(int which, T x) {
  int i = 0;
#define KDAG_TEST_CASE(F) \
  if (which == i++) return Kokkos::F(x);
  KDAG_TEST_PREDICATES(KDAG_TEST_CASE)
#undef KDAG_TEST_CASE
  return false;
}

// The same through the suffixed names (sinf, sinl, ...) for float and long double.
float kokkos_unary_suffixed(int which, float x) {
  int i = 0;
#define KDAG_TEST_CASE(F) \
  if (which == i++) return Kokkos::F##f(x);
  KDAG_TEST_UNARY_FUNCTIONS(KDAG_TEST_CASE)
#undef KDAG_TEST_CASE
  return -12345;
}
long double kokkos_unary_suffixed(int which, long double x) {
  int i = 0;
#define KDAG_TEST_CASE(F) \
  if (which == i++) return Kokkos::F##l(x);
  KDAG_TEST_UNARY_FUNCTIONS(KDAG_TEST_CASE)
#undef KDAG_TEST_CASE
  return -12345;
}
float kokkos_binary_suffixed(int which, float x, float y) {
  int i = 0;
#define KDAG_TEST_CASE(F) \
  if (which == i++) return Kokkos::F##f(x, y);
  KDAG_TEST_BINARY_FUNCTIONS(KDAG_TEST_CASE)
#undef KDAG_TEST_CASE
  return -12345;
}
long double kokkos_binary_suffixed(int which, long double x, long double y) {
  int i = 0;
#define KDAG_TEST_CASE(F) \
  if (which == i++) return Kokkos::F##l(x, y);
  KDAG_TEST_BINARY_FUNCTIONS(KDAG_TEST_CASE)
#undef KDAG_TEST_CASE
  return -12345;
}

// The standard library's answer, computed in the type the <cmath> overload set picks.
template <class T>
auto std_unary(int which, T x) {
  int i = 0;
#define KDAG_TEST_CASE(F) \
  if (which == i++) return std::F(x);
  KDAG_TEST_UNARY_FUNCTIONS(KDAG_TEST_CASE)
#undef KDAG_TEST_CASE
  return decltype(std::fabs(x))(-12345);
}
template <class T>
auto std_binary(int which, T x, T y) {
  int i = 0;
#define KDAG_TEST_CASE(F) \
  if (which == i++) return std::F(x, y);
  KDAG_TEST_BINARY_FUNCTIONS(KDAG_TEST_CASE)
#undef KDAG_TEST_CASE
  return decltype(std::fmax(x, y))(-12345);
}
template <class T>
bool std_predicate(int which, T x) {
  int i = 0;
#define KDAG_TEST_CASE(F) \
  if (which == i++) return std::F(x);
  KDAG_TEST_PREDICATES(KDAG_TEST_CASE)
#undef KDAG_TEST_CASE
  return false;
}

// Identical values: both NaN, or the same bits (so +0 and -0 differ).
template <class T>
bool same(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}
// Within a few units in the last place: what a device math library promises.  Host back ends
// call the very same std:: functions, so there the results are identical anyway.
template <class T>
bool close(T a, T b) {
  if (same(a, b)) return true;
  if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)) return false;
  const T scale = std::fmax(std::fabs(b), std::numeric_limits<T>::min());
  return std::fabs(a - b) <= 4 * std::numeric_limits<T>::epsilon() * scale;
}

// A double as float, out-of-range values becoming infinities (a plain conversion is undefined).
float to_float(double x) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  if (std::fabs(x) > std::numeric_limits<float>::max() && !std::isinf(x)) return x > 0 ? inf : -inf;
  return static_cast<float>(x);
}

template <class T>
std::vector<T> special_inputs() {
  using L = std::numeric_limits<T>;
  return {T(0),          -T(0),           T(1),        T(-1),       T(0.5),       T(-2.5),   T(3.75),
          T(1e-5),       T(100),          T(-100),     T(710),      T(0.9999),    T(-0.75),  T(40.5),
          L::infinity(), -L::infinity(),  L::quiet_NaN(), L::denorm_min(), -L::denorm_min(), L::min(),
          L::max(),      L::lowest(),     L::epsilon()};
}
template <class T>
std::vector<T> second_inputs() {
  using L = std::numeric_limits<T>;
  return {T(0), -T(0), T(1), T(-1.5), T(2), T(0.5), T(3), L::infinity(), -L::infinity(), L::quiet_NaN(),
          L::denorm_min()};
}
const std::vector<int> int_inputs = {0, 1, -1, 2, 7, -13, 100, 1000, std::numeric_limits<int>::max(),
                                     std::numeric_limits<int>::min()};

template <class T>
void check_host_unary() {
  for (int f = 0; f < num_unary; ++f)
    for (T x : special_inputs<T>()) {
      const auto expected = std_unary(f, x);
      static_assert(std::is_same_v<decltype(kokkos_unary(f, x)), T>);
      EXPECT_TRUE(same(kokkos_unary(f, x), expected)) << unary_names[f] << "(" << x << ")";
      if constexpr (!std::is_same_v<T, double>) {
        EXPECT_TRUE(same(kokkos_unary_suffixed(f, x), expected)) << unary_names[f] << "f/l(" << x << ")";
      }
    }
}
template <class T>
void check_host_binary() {
  for (int f = 0; f < num_binary; ++f)
    for (T x : special_inputs<T>())
      for (T y : second_inputs<T>()) {
        const auto expected = std_binary(f, x, y);
        EXPECT_TRUE(same(kokkos_binary(f, x, y), expected)) << binary_names[f] << "(" << x << ", " << y << ")";
        if constexpr (!std::is_same_v<T, double>) {
          EXPECT_TRUE(same(kokkos_binary_suffixed(f, x, y), expected))
              << binary_names[f] << "f/l(" << x << ", " << y << ")";
        }
      }
}
template <class T>
void check_host_predicates() {
  for (int f = 0; f < num_predicates; ++f)
    for (T x : special_inputs<T>()) EXPECT_EQ(kokkos_predicate(f, x), std_predicate(f, x)) << predicate_names[f] << "(" << x << ")";
}

TEST(MathFunctions, UnaryOnHostEveryType) {
  check_host_unary<float>();
  check_host_unary<double>();
  check_host_unary<long double>();
  // Integral arguments are computed in double.
  for (int f = 0; f < num_unary; ++f)
    for (int n : int_inputs) {
      static_assert(std::is_same_v<decltype(kokkos_unary(f, n)), double>);
      EXPECT_TRUE(same(kokkos_unary(f, n), std_unary(f, static_cast<double>(n)))) << unary_names[f] << "(" << n << ")";
    }
  static_assert(std::is_same_v<decltype(Kokkos::sqrt(2L)), double>);
  static_assert(std::is_same_v<decltype(Kokkos::sqrt(short(2))), double>);
  static_assert(std::is_same_v<decltype(Kokkos::sqrt(2u)), double>);
}

TEST(MathFunctions, BinaryOnHostEveryType) {
  check_host_binary<float>();
  check_host_binary<double>();
  check_host_binary<long double>();
  for (int f = 0; f < num_binary; ++f)
    for (int n : int_inputs)
      for (int m : {0, 1, -3, 2}) {
        static_assert(std::is_same_v<decltype(kokkos_binary(f, n, m)), double>);
        EXPECT_TRUE(same(kokkos_binary(f, n, m), std_binary(f, double(n), double(m))))
            << binary_names[f] << "(" << n << ", " << m << ")";
      }
}

TEST(MathFunctions, MixedArgumentsPromoteAsStd) {
  static_assert(std::is_same_v<decltype(Kokkos::pow(2, 3.0f)), double>);
  static_assert(std::is_same_v<decltype(Kokkos::pow(2.0f, 3.0f)), float>);
  static_assert(std::is_same_v<decltype(Kokkos::pow(2.0f, 3.0)), double>);
  static_assert(std::is_same_v<decltype(Kokkos::fmax(2.0f, 3.0L)), long double>);
  static_assert(std::is_same_v<decltype(Kokkos::fmax(2, 3.0L)), long double>);
  static_assert(std::is_same_v<decltype(Kokkos::atan2(1, 2)), double>);
  static_assert(std::is_same_v<decltype(Kokkos::fma(1.f, 2.f, 3.f)), float>);
  static_assert(std::is_same_v<decltype(Kokkos::fma(1.f, 2, 3.f)), double>);
  static_assert(std::is_same_v<decltype(Kokkos::fma(1.f, 2.f, 3.0L)), long double>);
  static_assert(std::is_same_v<decltype(Kokkos::hypot(1.f, 2.f, 3.f)), float>);
  static_assert(std::is_same_v<decltype(Kokkos::hypot(1, 2.f, 3.f)), double>);
  static_assert(std::is_same_v<decltype(Kokkos::hypot(1, 2, 3.0L)), long double>);
  static_assert(std::is_same_v<decltype(Kokkos::hypotf(1.f, 2.f)), float>);
  static_assert(std::is_same_v<decltype(Kokkos::hypotl(1.L, 2.L, 3.L)), long double>);
  EXPECT_EQ(Kokkos::pow(2, 10), 1024.0);
  EXPECT_EQ(Kokkos::pow(2.0f, 0.5), std::pow(2.0, 0.5));
  EXPECT_EQ(Kokkos::fmin(3, 2.5f), 2.5);
  EXPECT_EQ(Kokkos::copysign(3, -0.0), -3.0);
  EXPECT_EQ(Kokkos::fmod(7, 2.5L), std::fmod(7.0L, 2.5L));
  EXPECT_EQ(Kokkos::nextafter(1.0f, 2), std::nextafter(1.0, 2.0));
}

TEST(MathFunctions, PredicatesEveryType) {
  check_host_predicates<float>();
  check_host_predicates<double>();
  check_host_predicates<long double>();
  for (int f = 0; f < num_predicates; ++f)
    for (int n : int_inputs) EXPECT_EQ(kokkos_predicate(f, n), std_predicate(f, double(n))) << predicate_names[f] << n;
  static_assert(std::is_same_v<decltype(Kokkos::isnan(1)), bool>);
  static_assert(std::is_same_v<decltype(Kokkos::signbit(1.0L)), bool>);
  EXPECT_TRUE(Kokkos::signbit(-0.0f));
  EXPECT_FALSE(Kokkos::isfinite(std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(Kokkos::isfinite(std::numeric_limits<long double>::denorm_min()));
}

TEST(MathFunctions, AbsEveryType) {
  static_assert(std::is_same_v<decltype(Kokkos::abs(-3)), int>);
  static_assert(std::is_same_v<decltype(Kokkos::abs(-3L)), long>);
  static_assert(std::is_same_v<decltype(Kokkos::abs(-3LL)), long long>);
  static_assert(std::is_same_v<decltype(Kokkos::abs(short(-3))), int>);
  static_assert(std::is_same_v<decltype(Kokkos::abs(-3.f)), float>);
  static_assert(std::is_same_v<decltype(Kokkos::abs(-3.L)), long double>);
  EXPECT_EQ(Kokkos::abs(-3), 3);
  EXPECT_EQ(Kokkos::abs(std::numeric_limits<int>::max()), std::numeric_limits<int>::max());
  EXPECT_EQ(Kokkos::abs(-std::numeric_limits<int>::max()), std::numeric_limits<int>::max());
  EXPECT_EQ(Kokkos::abs(-5000000000L), 5000000000L);
  EXPECT_EQ(Kokkos::abs(-5000000000LL), 5000000000LL);
  EXPECT_TRUE(same(Kokkos::abs(-0.0), 0.0));
  EXPECT_TRUE(same(Kokkos::abs(-0.0f), 0.0f));
  EXPECT_TRUE(same(Kokkos::abs(-std::numeric_limits<long double>::infinity()),
                   std::numeric_limits<long double>::infinity()));
  EXPECT_TRUE(std::isnan(Kokkos::abs(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_EQ(Kokkos::abs(-std::numeric_limits<float>::denorm_min()), std::numeric_limits<float>::denorm_min());
}

// libstdc++'s std::hypot(x, y, z) gives NaN for an infinite argument and 0 for (0, 0, NaN),
// so the reference is the plain formula in long double (where the squares of floats and
// doubles neither overflow nor underflow); an infinity gives +inf, even beside a NaN.
template <class T>
void check_hypot3(T x, T y, T z) {
  const T result = Kokkos::hypot(x, y, z);
  if (std::isinf(x) || std::isinf(y) || std::isinf(z)) {
    EXPECT_EQ(result, std::numeric_limits<T>::infinity()) << x << " " << y << " " << z;
  } else if (std::isnan(x) || std::isnan(y) || std::isnan(z)) {
    EXPECT_TRUE(std::isnan(result)) << x << " " << y << " " << z;
  } else if constexpr (std::is_same_v<T, long double>) {
    EXPECT_TRUE(close(result, std::hypot(x, y, z))) << x << " " << y << " " << z;
  } else {
    const long double a = x, b = y, c = z;
    EXPECT_TRUE(close(result, static_cast<T>(std::sqrt(a * a + b * b + c * c)))) << x << " " << y << " " << z;
  }
}

TEST(MathFunctions, FmaAndThreeArgumentHypot) {
  using L = std::numeric_limits<double>;
  const double values[] = {0.0, -0.0, 1.0, -2.5, 1e300, 1e-300, L::denorm_min(), L::infinity(), -L::infinity(),
                           L::quiet_NaN()};
  for (double x : values)
    for (double y : values)
      for (double z : values) {
        EXPECT_TRUE(same(Kokkos::fma(x, y, z), std::fma(x, y, z))) << x << " " << y << " " << z;
        const float xf = to_float(x), yf = to_float(y), zf = to_float(z);
        EXPECT_TRUE(same(Kokkos::fmaf(xf, yf, zf), std::fma(xf, yf, zf)));
        EXPECT_TRUE(same(Kokkos::fmal((long double)x, (long double)y, (long double)z),
                         std::fma((long double)x, (long double)y, (long double)z)));
        check_hypot3(x, y, z);
        check_hypot3(xf, yf, zf);
        check_hypot3((long double)x, (long double)y, (long double)z);
      }
  // Neither overflow nor underflow of the squares.
  EXPECT_TRUE(close(Kokkos::hypot(3e300, 4e300, 12e300), 13e300));
  EXPECT_TRUE(close(Kokkos::hypot(3e-310, 4e-310, 12e-310), 13e-310));
  EXPECT_TRUE(close(Kokkos::hypotf(3e30f, 4e30f, 12e30f), 13e30f));
  EXPECT_EQ(Kokkos::hypot(2, 3, 6), 7.0);
  // An infinity wins over a NaN, as in std.
  EXPECT_EQ(Kokkos::hypot(L::quiet_NaN(), -L::infinity(), 1.0), L::infinity());
  EXPECT_TRUE(std::isnan(Kokkos::hypot(L::quiet_NaN(), 0.0, 1.0)));
  EXPECT_TRUE(same(Kokkos::hypot(-0.0, 0.0, -0.0), 0.0));
}

TEST(MathFunctions, NanRsqrtRemquo) {
  EXPECT_TRUE(std::isnan(Kokkos::nan("")));
  EXPECT_TRUE(std::isnan(Kokkos::nanf("")));
  EXPECT_TRUE(std::isnan(Kokkos::nanl("")));
  EXPECT_TRUE(std::isnan(Kokkos::nan("42")));
  static_assert(std::is_same_v<decltype(Kokkos::nanf("")), float>);
  static_assert(std::is_same_v<decltype(Kokkos::nanl("")), long double>);

  for (double x : special_inputs<double>()) {
    EXPECT_TRUE(same(Kokkos::rsqrt(x), 1.0 / std::sqrt(x))) << x;
    EXPECT_TRUE(same(Kokkos::rsqrtf(to_float(x)), 1.0f / std::sqrt(to_float(x)))) << x;
    EXPECT_TRUE(same(Kokkos::rsqrtl((long double)x), 1.0L / std::sqrt((long double)x))) << x;
  }
  EXPECT_EQ(Kokkos::rsqrt(4), 0.5);
  static_assert(std::is_same_v<decltype(Kokkos::rsqrt(4)), double>);
  EXPECT_EQ(Kokkos::rsqrt(0.0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(Kokkos::rsqrt(-0.0), -std::numeric_limits<double>::infinity());

  for (double x : special_inputs<double>())
    for (double y : second_inputs<double>()) {
      int q1 = 0, q2 = 0;
      const double r1 = Kokkos::Experimental::remquo(x, y, &q1);
      const double r2 = std::remquo(x, y, &q2);
      EXPECT_TRUE(same(r1, r2)) << x << " " << y;
      if (std::isfinite(r2)) {
        EXPECT_EQ(q1 & 7, q2 & 7) << x << " " << y;
      }
    }
  int q = 0;
  EXPECT_EQ(Kokkos::Experimental::remquo(7, 2, &q), std::remquo(7.0, 2.0, &q));
  EXPECT_EQ(Kokkos::Experimental::remquof(7.f, 2.f, &q), std::remquo(7.f, 2.f, &q));
  EXPECT_EQ(Kokkos::Experimental::remquol(7.L, 2.L, &q), std::remquo(7.L, 2.L, &q));
}

// The device's lgamma on (-11.0001, -2.2637) is the reflection formula (Impl::lgamma_reflected):
// its error is a few ulp of the two terms it subtracts, not of the result, which is near 0 around
// lgamma's zeros.  Elsewhere, and on the host, close() applies.
int lgamma_index() {
  for (int f = 0; f < num_unary; ++f)
    if (std::strcmp(unary_names[f], "lgamma") == 0) return f;
  return -1;
}
template <class T>
bool in_lgamma_reflection_interval(T x) {
  return x > T(Kokkos::Impl::lgamma_reflection_low) && x < T(Kokkos::Impl::lgamma_reflection_high) &&
         x != std::floor(x);
}
double lgamma_reflection_error_bound(double x) {
  const double pi = 3.141592653589793238462643383279502884;
  const double terms = std::fabs(std::log(pi / std::fabs(std::sin(pi * x)))) + std::fabs(std::lgamma(1.0 - x));
  return 8 * std::numeric_limits<double>::epsilon() * terms;
}

// The corrections the device takes, checked on the host: the reflection formula against the C
// library over the whole interval, sin_pi's reduction, and the scaled hypot at the overflow edge.
TEST(MathFunctions, DeviceCorrectionsOnTheHost) {
  for (double x = Kokkos::Impl::lgamma_reflection_low + 1e-4; x < Kokkos::Impl::lgamma_reflection_high; x += 1.0 / 1024 + 1e-7) {
    if (x == std::floor(x)) continue;
    EXPECT_LE(std::fabs(Kokkos::Impl::lgamma_reflected(x) - std::lgamma(x)), lgamma_reflection_error_bound(x)) << x;
    // float through double: within an ulp of the float result
    const float xf = static_cast<float>(x);
    const float rf = static_cast<float>(Kokkos::Impl::lgamma_reflected(xf));
    EXPECT_LE(std::fabs(rf - static_cast<float>(std::lgamma(static_cast<double>(xf)))),
              std::fabs(rf) * std::numeric_limits<float>::epsilon() + lgamma_reflection_error_bound(xf))
        << xf;
  }
  // Near lgamma's zeros (-2.457, -2.747, ...) the double result is good to its absolute bound
  // only; the float result, rounded from it, stays within a few ulp.
  EXPECT_TRUE(close(static_cast<float>(Kokkos::Impl::lgamma_reflected(-2.5)), std::lgamma(-2.5f)));
  for (double n : {-11.0, -3.0, -2.0, -1.0, 0.0, 1.0, 4.0, 1e300}) EXPECT_EQ(Kokkos::Impl::sin_pi(n), 0.0) << n;
  EXPECT_EQ(Kokkos::Impl::sin_pi(0.5), 1.0);
  EXPECT_EQ(Kokkos::Impl::sin_pi(-2.5), -1.0);
  EXPECT_EQ(Kokkos::Impl::sin_pi(3.5), -1.0);
  EXPECT_TRUE(close(Kokkos::Impl::sin_pi(1.0 / 6), 0.5));
  EXPECT_TRUE(close(Kokkos::Impl::sin_pi(-10.75), -std::sqrt(0.5)));
  using L = std::numeric_limits<double>;
  for (double y : {1.0, -1.5, 3.0, L::denorm_min(), L::max() / 1e10})
    EXPECT_EQ(Kokkos::Impl::hypot3_scaled(L::max(), y, 0.0), L::max()) << y;
  EXPECT_EQ(Kokkos::Impl::hypot3_scaled(L::max(), L::max(), 0.0), L::infinity());
  EXPECT_EQ(Kokkos::Impl::hypot3_scaled(-L::max(), 1.0, 0.0), L::max());
}

// Inside a kernel: every unary, binary and predicate function for float, double and int
// arguments, results copied back and compared with the standard library.
TEST(MathFunctions, InsideParallelFor) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  using Space = Kokkos::DefaultExecutionSpace;
  const auto fx = special_inputs<float>();
  const auto dx = special_inputs<double>();
  const auto fy = second_inputs<float>();
  const auto dy = second_inputs<double>();
  const int nx = static_cast<int>(dx.size());
  const int ny = static_cast<int>(dy.size());
  const int ni = static_cast<int>(int_inputs.size());

  Kokkos::View<float*> in_f("in_f", nx), in_fy("in_fy", ny);
  Kokkos::View<double*> in_d("in_d", nx), in_dy("in_dy", ny);
  Kokkos::View<int*> in_i("in_i", ni);
  auto h_in_f = Kokkos::create_mirror_view(in_f);
  auto h_in_d = Kokkos::create_mirror_view(in_d);
  auto h_in_fy = Kokkos::create_mirror_view(in_fy);
  auto h_in_dy = Kokkos::create_mirror_view(in_dy);
  auto h_in_i = Kokkos::create_mirror_view(in_i);
  for (int i = 0; i < nx; ++i) {
    h_in_f(i) = fx[i];
    h_in_d(i) = dx[i];
  }
  for (int i = 0; i < ny; ++i) {
    h_in_fy(i) = fy[i];
    h_in_dy(i) = dy[i];
  }
  for (int i = 0; i < ni; ++i) h_in_i(i) = int_inputs[i];
  Kokkos::deep_copy(in_f, h_in_f);
  Kokkos::deep_copy(in_d, h_in_d);
  Kokkos::deep_copy(in_fy, h_in_fy);
  Kokkos::deep_copy(in_dy, h_in_dy);
  Kokkos::deep_copy(in_i, h_in_i);

  Kokkos::View<float**> un_f("un_f", num_unary, nx);
  Kokkos::View<double**> un_d("un_d", num_unary, nx), un_i("un_i", num_unary, ni);
  Kokkos::View<float***> bin_f("bin_f", num_binary, nx, ny);
  Kokkos::View<double***> bin_d("bin_d", num_binary, nx, ny);
  Kokkos::View<int**> pred_f("pred_f", num_predicates, nx), pred_d("pred_d", num_predicates, nx);

  Kokkos::parallel_for(
      "math_functions", Kokkos::RangePolicy<Space>(0, num_unary + num_binary + num_predicates), KOKKOS_LAMBDA(int f) {
        if (f < num_unary) {
          for (int i = 0; i < nx; ++i) {
            un_f(f, i) = kokkos_unary(f, in_f(i));
            un_d(f, i) = kokkos_unary(f, in_d(i));
          }
          for (int i = 0; i < ni; ++i) un_i(f, i) = kokkos_unary(f, in_i(i));
        } else if (f < num_unary + num_binary) {
          const int b = f - num_unary;
          for (int i = 0; i < nx; ++i)
            for (int j = 0; j < ny; ++j) {
              bin_f(b, i, j) = kokkos_binary(b, in_f(i), in_fy(j));
              bin_d(b, i, j) = kokkos_binary(b, in_d(i), in_dy(j));
            }
        } else {
          const int p = f - num_unary - num_binary;
          for (int i = 0; i < nx; ++i) {
            pred_f(p, i) = kokkos_predicate(p, in_f(i));
            pred_d(p, i) = kokkos_predicate(p, in_d(i));
          }
        }
      });

  auto h_un_f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), un_f);
  auto h_un_d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), un_d);
  auto h_un_i = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), un_i);
  auto h_bin_f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bin_f);
  auto h_bin_d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bin_d);
  auto h_pred_f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pred_f);
  auto h_pred_d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pred_d);
  for (int f = 0; f < num_unary; ++f) {
    for (int i = 0; i < nx; ++i) {
      EXPECT_TRUE(close(h_un_f(f, i), std_unary(f, fx[i]))) << unary_names[f] << "(" << fx[i] << "f)";
      if (f == lgamma_index() && in_lgamma_reflection_interval(dx[i])) {
        EXPECT_LE(std::fabs(h_un_d(f, i) - std_unary(f, dx[i])), lgamma_reflection_error_bound(dx[i]))
            << "lgamma(" << dx[i] << ")";
      } else {
        EXPECT_TRUE(close(h_un_d(f, i), std_unary(f, dx[i]))) << unary_names[f] << "(" << dx[i] << ")";
      }
    }
    for (int i = 0; i < ni; ++i)
      EXPECT_TRUE(close(h_un_i(f, i), std_unary(f, double(int_inputs[i])))) << unary_names[f] << "(" << int_inputs[i] << ")";
  }
  for (int b = 0; b < num_binary; ++b)
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j) {
        EXPECT_TRUE(close(h_bin_f(b, i, j), std_binary(b, fx[i], fy[j]))) << binary_names[b] << fx[i] << "," << fy[j];
        EXPECT_TRUE(close(h_bin_d(b, i, j), std_binary(b, dx[i], dy[j]))) << binary_names[b] << dx[i] << "," << dy[j];
      }
  for (int p = 0; p < num_predicates; ++p)
    for (int i = 0; i < nx; ++i) {
      EXPECT_EQ(h_pred_f(p, i) != 0, std_predicate(p, fx[i])) << predicate_names[p] << fx[i];
      EXPECT_EQ(h_pred_d(p, i) != 0, std_predicate(p, dx[i])) << predicate_names[p] << dx[i];
    }
}

// Error cases follow the standard library rather than failing: domain errors give NaN,
// poles give infinities.
TEST(MathFunctions, DomainErrorsAndPoles) {
  EXPECT_TRUE(std::isnan(Kokkos::sqrt(-1.0)));
  EXPECT_TRUE(std::isnan(Kokkos::log(-1.0f)));
  EXPECT_TRUE(std::isnan(Kokkos::acos(2.0L)));
  EXPECT_EQ(Kokkos::log(0.0), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(Kokkos::lgamma(0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(Kokkos::atanh(1.0f), std::numeric_limits<float>::infinity());
  EXPECT_EQ(Kokkos::exp(1000.0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(Kokkos::exp(-1000.0), 0.0);
  EXPECT_EQ(Kokkos::logb(0.0), -std::numeric_limits<double>::infinity());
}

}  // namespace

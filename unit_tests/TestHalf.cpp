// half_t and bhalf_t: every bit pattern through the software format and the type itself against
// an independent reference, rounding at every midpoint, correctly rounded arithmetic, the
// conversion and comparison interface, reductions and atomics under contention.
#include "TestCommon.hpp"

#include <Kokkos_Half.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

namespace {

using Kokkos::Experimental::bhalf_t;
using Kokkos::Experimental::half_t;
namespace KI = Kokkos::Experimental::Impl;

// Reference decoding with ldexp, independent of the bit manipulation under test.
template <class Format>
double reference_decode(std::uint16_t h) {
  const bool negative = h & Format::sign_mask;
  const int e = (h >> Format::mantissa_bits) & Format::max_exponent_field;
  const int m = h & Format::mantissa_mask;
  double v;
  if (e == Format::max_exponent_field)
    v = m == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  else if (e == 0)
    v = std::ldexp(double(m), 1 - Format::bias - Format::mantissa_bits);
  else
    v = std::ldexp(double(m + (1 << Format::mantissa_bits)), e - Format::bias - Format::mantissa_bits);
  return negative ? -v : v;
}

bool same_double(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

template <class Format>
void check_format_decodes_every_pattern() {
  for (std::uint32_t h = 0; h < (1u << (1 + Format::exponent_bits + Format::mantissa_bits)); ++h)
    ASSERT_TRUE(same_double(Format::decode(std::uint16_t(h)), reference_decode<Format>(std::uint16_t(h)))) << h;
}

// Encoding: every finite value maps to itself; between neighbours the midpoint goes to the even
// one and anything off the midpoint to the nearer.  Encode is any callable double -> bits.
template <class Format, class Encode>
void check_rounding_at_every_midpoint(Encode encode) {
  const std::uint16_t max_bits = Format::max_finite_bits;
  for (std::uint16_t sign : {std::uint16_t(0), Format::sign_mask}) {
    const double s = sign ? -1.0 : 1.0;
    for (std::uint16_t h = 0; h <= max_bits; ++h) {
      const std::uint16_t lo = std::uint16_t(sign | h), hi = std::uint16_t(sign | (h + 1));
      const double v0 = Format::decode(lo);
      ASSERT_EQ(encode(v0), lo) << "value " << v0;
      // Past the largest finite value the neighbour is infinity, at the distance of one step.
      const double v1 = h < max_bits ? Format::decode(hi) : v0 + (v0 - Format::decode(std::uint16_t(lo - 1)));
      const double mid = (v0 + v1) / 2;
      const std::uint16_t even = (h & 1) ? hi : lo;
      ASSERT_EQ(encode(mid), even) << "midpoint " << mid;
      ASSERT_EQ(encode(std::nextafter(mid, s * 0.0)), lo) << "below midpoint " << mid;
      ASSERT_EQ(encode(std::nextafter(mid, s * INFINITY)), hi) << "above midpoint " << mid;
    }
  }
  ASSERT_EQ(encode(INFINITY), Format::infinity_bits);
  ASSERT_EQ(encode(-INFINITY), Format::sign_mask | Format::infinity_bits);
  ASSERT_EQ(encode(1e300), Format::infinity_bits);
  ASSERT_EQ(encode(-0.0), Format::sign_mask);
  ASSERT_EQ(encode(5e-324), 0);  // double subnormal
  const std::uint16_t nan = encode(std::numeric_limits<double>::quiet_NaN());
  ASSERT_EQ(nan & Format::infinity_bits, Format::infinity_bits);
  ASSERT_NE(nan & Format::mantissa_mask, 0);
  ASSERT_NE(encode(std::numeric_limits<double>::signaling_NaN()) & Format::mantissa_mask, 0);
}

TEST(HalfFormat, DecodesEveryPattern) {
  check_format_decodes_every_pattern<KI::binary16_format>();
  check_format_decodes_every_pattern<KI::bfloat16_format>();
}

TEST(HalfFormat, RoundsToNearestEven) {
  check_rounding_at_every_midpoint<KI::binary16_format>([](double x) { return KI::binary16_format::encode(x); });
  check_rounding_at_every_midpoint<KI::bfloat16_format>([](double x) { return KI::bfloat16_format::encode(x); });
  static_assert(KI::binary16_format::encode(65504.0) == 0x7bff);
  static_assert(KI::binary16_format::encode(1.0) == 0x3c00);
  static_assert(KI::binary16_format::decode(0x0001) == 0x1p-24);
  static_assert(KI::bfloat16_format::encode(1.0) == 0x3f80);
  static_assert(KI::bfloat16_format::decode(0x7f7f) == 0x1.fep127);
}

// ---- the types themselves (native storage where the compiler has one) ----

TEST(Half, LayoutAndTraits) {
  static_assert(sizeof(half_t) == 2 && alignof(half_t) == 2);
  static_assert(sizeof(bhalf_t) == 2 && alignof(bhalf_t) == 2);
  static_assert(std::is_trivially_copyable_v<half_t> && std::is_trivially_copyable_v<bhalf_t>);
  static_assert(!KOKKOS_HALF_T_IS_FLOAT && !KOKKOS_BHALF_T_IS_FLOAT);
  static_assert(std::is_convertible_v<float, half_t> && std::is_convertible_v<int, bhalf_t>);
  static_assert(!std::is_convertible_v<half_t, float> && !std::is_convertible_v<half_t, int>);
  EXPECT_EQ(half_t().impl_bits(), 0);
  EXPECT_EQ(bhalf_t().impl_bits(), 0);
}

// The numeric traits Kokkos defines for the half types: distinguished values are
// bit_comparison_type patterns that convert to the type; each is checked against its defining
// property, computed in the type itself.
template <class H>
void check_half_numeric_traits(int digits, int min_exponent, int max_exponent) {
  namespace KE = Kokkos::Experimental;
  using Bits = typename H::bit_comparison_type;
  static_assert(std::is_same_v<std::remove_cv_t<decltype(KE::epsilon_v<H>)>, Bits>);
  static_assert(std::is_same_v<decltype(KE::infinity<const H>::value), const Bits>);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(KE::digits_v<H>)>, int>);
  const H one(1.0f), two(2.0f), eps = KE::epsilon_v<H>;
  EXPECT_TRUE(one + eps != one);
  EXPECT_TRUE(one + eps / two == one) << "epsilon is the gap above 1";
  EXPECT_EQ(static_cast<double>(eps), std::ldexp(1.0, 1 - digits));
  EXPECT_EQ(static_cast<float>(H(KE::round_error_v<H>)), 0.5f);
  const H max = KE::finite_max<H>::value, lowest = KE::finite_min<H>::value, inf = KE::infinity<H>::value;
  EXPECT_TRUE(std::isinf(static_cast<float>(inf)) && static_cast<float>(inf) > 0);
  EXPECT_EQ(lowest, -max);
  EXPECT_TRUE(max < inf);
  EXPECT_EQ(H::impl_from_bits(std::uint16_t(KE::finite_max_v<H>.value + 1u)).impl_bits(), inf.impl_bits())
      << "the largest finite value is the pattern below infinity";
  EXPECT_EQ(static_cast<double>(max), std::ldexp(2.0 - std::ldexp(1.0, 1 - digits), max_exponent - 1));
  const H norm_min = KE::norm_min_v<H>;
  EXPECT_EQ(static_cast<double>(norm_min), std::ldexp(1.0, min_exponent - 1));
  EXPECT_TRUE(static_cast<float>(norm_min / two) > 0) << "below norm_min lie the subnormals";
  const float qnan = static_cast<float>(H(KE::quiet_NaN_v<H>)), snan = static_cast<float>(H(KE::signaling_NaN_v<H>));
  EXPECT_TRUE(std::isnan(qnan) && std::isnan(snan));
  EXPECT_NE(KE::quiet_NaN_v<H>.value, KE::signaling_NaN_v<H>.value);
  EXPECT_EQ(KE::digits_v<H>, digits);
  EXPECT_EQ(KE::digits10<H>::value, int(std::floor((digits - 1) * std::log10(2.0))));
  EXPECT_EQ(KE::radix_v<H>, 2);
  EXPECT_EQ(KE::min_exponent_v<H>, min_exponent);
  EXPECT_EQ(KE::max_exponent_v<H>, max_exponent);
}

TEST(Half, NumericTraits) {
  check_half_numeric_traits<half_t>(11, -13, 16);
  check_half_numeric_traits<bhalf_t>(8, -125, 128);
  // Usable in constant expressions and kernels, like the traits of float.
  constexpr half_t eps = Kokkos::Experimental::epsilon<half_t>::value;
  static_assert(eps.impl_bits() == 0x1400);
  static_assert(Kokkos::Experimental::infinity_v<bhalf_t>.value == 0x7F80);
  Kokkos::View<float*, Kokkos::HostSpace> out("out", 2);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 1), KOKKOS_LAMBDA(int) {
        out(0) = static_cast<float>(half_t(Kokkos::Experimental::finite_max_v<half_t>));
        out(1) = static_cast<float>(bhalf_t(Kokkos::Experimental::epsilon_v<bhalf_t>));
      });
  Kokkos::fence();
  EXPECT_EQ(out(0), 65504.0f);
  EXPECT_EQ(out(1), 0.0078125f);
}

template <class H, class Format>
void check_type_against_format() {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const H h = H::impl_from_bits(std::uint16_t(b));
    const float f = static_cast<float>(h);
    ASSERT_TRUE(same_double(f, Format::decode(std::uint16_t(b)))) << b;
    ASSERT_TRUE(same_double(static_cast<double>(h), Format::decode(std::uint16_t(b)))) << b;
    if (!std::isnan(f)) {
      ASSERT_EQ(H(f).impl_bits(), b);  // round trip through float
    } else {
      ASSERT_TRUE(std::isnan(static_cast<float>(H(f))));
    }
  }
  check_rounding_at_every_midpoint<Format>([](double x) { return H(x).impl_bits(); });
  // Random doubles and floats: the type rounds as the reference format does (this compares the
  // compiler's own conversions with the software ones where the type is native).
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> exponent(-30, 20);
  std::uniform_real_distribution<double> mantissa(1, 2);
  for (int i = 0; i < 200000; ++i) {
    const double x = std::ldexp(mantissa(gen), int(exponent(gen))) * (i & 1 ? -1 : 1);
    ASSERT_EQ(H(x).impl_bits(), Format::encode(x)) << x;
    const float xf = float(x);
    ASSERT_EQ(H(xf).impl_bits(), Format::encode(xf)) << xf;
  }
}

TEST(Half, EveryPatternAndRounding) {
  check_type_against_format<half_t, KI::binary16_format>();
  check_type_against_format<bhalf_t, KI::bfloat16_format>();
}

// a op b equals the exact result rounded once: double holds the exact sum, difference and
// product of two narrow values (or rounds it with 53 >= 2p + 2 bits, which is innocuous), so
// encode(double(a) op double(b)) is the correctly rounded reference.
template <class H, class Format>
void check_arithmetic_rounding() {
  std::mt19937 gen(11);
  std::uniform_int_distribution<int> bits(0, 65535);
  int checked = 0;
  for (int i = 0; i < 300000; ++i) {
    const H a = H::impl_from_bits(std::uint16_t(bits(gen)));
    const H b = H::impl_from_bits(std::uint16_t(bits(gen)));
    const double x = static_cast<double>(a), y = static_cast<double>(b);
    if (std::isnan(x) || std::isnan(y)) continue;
    ++checked;
    auto expect = [&](H got, double exact, const char* op) {
      const std::uint16_t want = Format::encode(exact);
      if (std::isnan(exact)) {
        ASSERT_TRUE(std::isnan(static_cast<float>(got))) << x << op << y;
      } else {
        ASSERT_EQ(got.impl_bits(), want) << x << op << y;
      }
    };
    expect(a + b, x + y, "+");
    expect(a - b, x - y, "-");
    expect(a * b, x * y, "*");
    expect(a / b, x / y, "/");
    H c = a;
    c += b;
    expect(c, x + y, "+=");
    c = a;
    c *= b;
    expect(c, x * y, "*=");
  }
  EXPECT_GT(checked, 250000);
}

TEST(Half, ArithmeticIsCorrectlyRounded) {
  check_arithmetic_rounding<half_t, KI::binary16_format>();
  check_arithmetic_rounding<bhalf_t, KI::bfloat16_format>();
  // Overflow and gradual underflow.
  EXPECT_TRUE(std::isinf(static_cast<float>(half_t(60000.0f) + half_t(60000.0f))));
  EXPECT_EQ((half_t(0x1p-14f) / half_t(4.0f)).impl_bits(), 0x0100);  // a subnormal
  EXPECT_EQ((half_t(0x1p-24f) / half_t(2.0f)).impl_bits(), 0x0000);  // tie to even: zero
}

TEST(Half, ConversionsAndMixedExpressions) {
  using Kokkos::Experimental::cast_from_bhalf;
  using Kokkos::Experimental::cast_from_half;
  using Kokkos::Experimental::cast_to_bhalf;
  using Kokkos::Experimental::cast_to_half;
  EXPECT_EQ(cast_from_half<float>(cast_to_half(0.5)), 0.5f);
  EXPECT_EQ(cast_from_half<int>(cast_to_half(-7)), -7);
  EXPECT_EQ(cast_from_half<unsigned long long>(cast_to_half(2049u)), 2048ull);  // 2049 is a tie: even
  EXPECT_EQ(cast_from_half<int>(half_t(2.75f)), 2);                            // truncates like float
  EXPECT_EQ(cast_from_half<short>(cast_to_half(short(-300))), -300);
  EXPECT_EQ(cast_from_half<bool>(cast_to_half(true)), true);
  EXPECT_EQ(cast_from_bhalf<double>(cast_to_bhalf(1.0 / 3.0)), 0x1.56p-2);
  EXPECT_EQ(cast_from_bhalf<long>(cast_to_bhalf(257L)), 256L);
  EXPECT_EQ(static_cast<float>(cast_to_half(70000.0)), INFINITY);
  EXPECT_EQ(static_cast<float>(cast_to_bhalf(70000.0)), 70144.0f);

  half_t h = 3;  // integers convert implicitly
  static_assert(std::is_same_v<decltype(h + h), half_t>);
  static_assert(std::is_same_v<decltype(h + 1.0f), float>);
  static_assert(std::is_same_v<decltype(2.0 * h), double>);
  static_assert(std::is_same_v<decltype(h * 2), half_t>);
  EXPECT_EQ(h + 0.1, 3.1);  // computed in double
  EXPECT_EQ(static_cast<float>(h + half_t(0.1f)), 3.099609375f);
  EXPECT_EQ(h * 2, half_t(6));
  h += 0.5;
  EXPECT_EQ(h, 3.5f);
  h -= 1;
  EXPECT_EQ(h, 2.5);
  h *= half_t(2);
  h /= 4.0f;
  EXPECT_EQ(h, half_t(1.25f));
  float f = 1.0f;
  f += half_t(0.5f);
  EXPECT_EQ(f, 1.5f);
  double d = 3.0;
  d /= half_t(2);
  EXPECT_EQ(d, 1.5);

  EXPECT_EQ(static_cast<float>(-half_t(2)), -2.0f);
  EXPECT_EQ((-half_t(0.0f)).impl_bits(), 0x8000);
  half_t counter = 1;
  EXPECT_EQ(counter++, half_t(1));
  EXPECT_EQ(++counter, half_t(3));
  EXPECT_EQ(counter--, half_t(3));
  EXPECT_EQ(--counter, half_t(1));
  half_t big = 2048;
  ++big;  // 2049 rounds back to 2048
  EXPECT_EQ(big, half_t(2048));
}

TEST(Half, Comparisons) {
  const half_t nan = half_t(std::numeric_limits<float>::quiet_NaN());
  const half_t one = 1, two = 2;
  EXPECT_TRUE(one < two && one <= two && two > one && two >= one && one != two && one == half_t(1.0));
  EXPECT_FALSE(nan == nan);
  EXPECT_TRUE(nan != nan);
  EXPECT_FALSE(nan < one || nan > one || nan <= one || nan >= one);
  EXPECT_TRUE(half_t(0.0f) == -half_t(0.0f));
  // Against float/double the comparison is in that type: 0.1 is not a half value.
  EXPECT_FALSE(half_t(0.1f) == 0.1f);
  EXPECT_TRUE(half_t(0.1f) == half_t(0.1));
  EXPECT_TRUE(0.5 == half_t(0.5f) && 1.0f < half_t(2) && half_t(3) > 2.5);
  EXPECT_TRUE(bhalf_t(1) < bhalf_t(1.0078125f));
}

TEST(Half, Streams) {
  std::ostringstream os;
  os << half_t(1.5f) << ' ' << bhalf_t(-2);
  EXPECT_EQ(os.str(), "1.5 -2");
  half_t h;
  std::istringstream("0.333") >> h;
  EXPECT_EQ(h, half_t(0.333f));
  std::istringstream bad("x");
  bad >> h;
  EXPECT_TRUE(bad.fail());
  EXPECT_EQ(h, half_t(0.333f));
}

TEST(Half, ReductionIdentity) {
  using RI = Kokkos::reduction_identity<half_t>;
  static_assert(RI::sum().impl_bits() == 0 && RI::prod().impl_bits() == 0x3c00);
  EXPECT_EQ(static_cast<float>(RI::min()), 65504.0f);
  EXPECT_EQ(static_cast<float>(RI::max()), -65504.0f);
  EXPECT_EQ(static_cast<float>(Kokkos::reduction_identity<bhalf_t>::min()), 0x1.fep127f);
  EXPECT_EQ(static_cast<float>(Kokkos::reduction_identity<bhalf_t>::prod()), 1.0f);
}

// ---- in kernels, every back end ----

template <class Space>
struct HalfKernels : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(HalfKernels, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(HalfKernels, Reductions) {
  using Space = TypeParam;
  const int n = 1000;
  Kokkos::View<half_t*, typename Space::memory_space> v("v", n);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { v(i) = half_t(0.5f) * half_t(i % 3); });
  // Partial sums are multiples of 0.5 below 2048: exact in any order.
  half_t sum;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i, half_t& acc) { acc += v(i); },
      Kokkos::Sum<half_t>(sum));
  EXPECT_EQ(static_cast<float>(sum), 0.5f * (333 * 1 + 333 * 2));
  half_t plain;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i, half_t& acc) { acc += v(i); }, plain);
  EXPECT_EQ(plain, sum);
  half_t mx, mn;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i, half_t& m) { m = v(i) > m ? v(i) : m; },
      Kokkos::Max<half_t>(mx));
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i, half_t& m) { m = v(i) < m ? v(i) : m; },
      Kokkos::Min<half_t>(mn));
  EXPECT_EQ(mx, half_t(1));
  EXPECT_EQ(mn, half_t(0));
  bhalf_t bsum;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Space>(0, 256), KOKKOS_LAMBDA(int, bhalf_t& acc) { acc += bhalf_t(1); },
      Kokkos::Sum<bhalf_t>(bsum));
  EXPECT_EQ(static_cast<float>(bsum), 256.0f);
}

// Two-byte values are lock-free on the host: a compare-exchange loop that must lose no update.
TYPED_TEST(HalfKernels, AtomicsUnderContention) {
  using Space = TypeParam;
  const int slots = 16, per_slot = 256;  // bfloat16 counts exactly to 256
  Kokkos::View<half_t*, typename Space::memory_space> h("h", slots);
  Kokkos::View<bhalf_t*, typename Space::memory_space> b("b", slots);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, slots * per_slot), KOKKOS_LAMBDA(int i) {
        Kokkos::atomic_add(&h(i % slots), half_t(1));
        Kokkos::atomic_fetch_add(&b(i % slots), bhalf_t(1));
        Kokkos::atomic_max(&h(i % slots), half_t(-1));  // never the maximum: a no-op
      });
  Kokkos::fence();
  for (int s = 0; s < slots; ++s) {
    EXPECT_EQ(static_cast<float>(h(s)), float(per_slot));
    EXPECT_EQ(static_cast<float>(b(s)), float(per_slot));
  }
}

TEST(HalfAtomics, FetchAddFromManyThreads) {
  constexpr int threads = 8, per_thread = 256;  // 2048: the last integer before half's step of 2
  half_t acc;
  std::vector<std::vector<float>> seen(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int k = 0; k < per_thread; ++k) seen[t].push_back(static_cast<float>(Kokkos::atomic_fetch_add(&acc, 1)));
    });
  for (auto& th : pool) th.join();
  EXPECT_EQ(static_cast<float>(acc), float(threads * per_thread));
  std::vector<char> hit(threads * per_thread, 0);
  for (const auto& v : seen)
    for (float r : v) {
      ASSERT_GE(r, 0.0f);
      ASSERT_LT(r, float(threads * per_thread));
      ASSERT_EQ(hit[int(r)], 0) << "two fetch_adds saw " << r;
      hit[int(r)] = 1;
    }
  half_t x = 2;
  EXPECT_EQ(Kokkos::atomic_exchange(&x, half_t(5)), half_t(2));
  EXPECT_TRUE(Kokkos::atomic_compare_exchange_strong(&x, half_t(5), half_t(-1)));
  EXPECT_EQ(Kokkos::atomic_load(&x), half_t(-1));
  EXPECT_EQ(Kokkos::atomic_mul_fetch(&x, half_t(3)), half_t(-3));
  EXPECT_EQ(Kokkos::atomic_min_fetch(&x, half_t(-4)), half_t(-4));
}

}  // namespace

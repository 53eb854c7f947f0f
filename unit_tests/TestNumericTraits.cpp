// Kokkos::Experimental numeric traits against std::numeric_limits for every type, which traits
// exist for which types, reduction_identity, and Kokkos::numbers against long double references
// (and std::numbers); read both on the host and inside a kernel.
#include "TestCommon.hpp"

#include <Kokkos_MathematicalConstants.hpp>
#include <Kokkos_NumericTraits.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>

namespace {

namespace KE = Kokkos::Experimental;

// Whether TRAIT<T>::value exists: traits are undefined, not wrong, where meaningless.
#define KDAG_TEST_HAS_TRAIT(TRAIT)                                    \
  template <class T, class = void>                                    \
  struct has_##TRAIT : std::false_type {};                            \
  template <class T>                                                  \
  struct has_##TRAIT<T, std::void_t<decltype(KE::TRAIT<T>::value)>> : std::true_type {};
KDAG_TEST_HAS_TRAIT(infinity)
KDAG_TEST_HAS_TRAIT(finite_max)
KDAG_TEST_HAS_TRAIT(epsilon)
KDAG_TEST_HAS_TRAIT(digits)
KDAG_TEST_HAS_TRAIT(max_digits10)
KDAG_TEST_HAS_TRAIT(min_exponent)
KDAG_TEST_HAS_TRAIT(quiet_NaN)
#undef KDAG_TEST_HAS_TRAIT

template <class T>
bool same_bits(T a, T b) {
  // long double has padding bytes; compare the value bits only.
  constexpr std::size_t bytes = std::is_same_v<T, long double> ? 10 : sizeof(T);
  return std::memcmp(&a, &b, bytes) == 0;
}

template <class T>
void check_integral_traits() {
  using L = std::numeric_limits<T>;
  static_assert(KE::finite_min<T>::value == L::lowest() && KE::finite_min_v<T> == L::lowest());
  static_assert(KE::finite_max<T>::value == L::max() && KE::finite_max_v<T> == L::max());
  static_assert(KE::digits_v<T> == L::digits && KE::digits10_v<T> == L::digits10 && KE::radix_v<T> == 2);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(KE::finite_max_v<T>)>, T>);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(KE::digits_v<T>)>, int>);
  static_assert(KE::finite_max_v<const T> == L::max() && KE::digits_v<volatile T> == L::digits);
  static_assert(!has_infinity<T>::value && !has_epsilon<T>::value && !has_max_digits10<T>::value);
  static_assert(!has_min_exponent<T>::value && !has_quiet_NaN<T>::value);
}

template <class T>
void check_floating_traits() {
  using L = std::numeric_limits<T>;
  static_assert(KE::infinity_v<T> == L::infinity() && KE::infinity<T>::value == L::infinity());
  static_assert(KE::finite_min_v<T> == L::lowest() && KE::finite_max_v<T> == L::max());
  static_assert(KE::epsilon_v<T> == L::epsilon() && KE::round_error_v<T> == L::round_error());
  static_assert(KE::norm_min_v<T> == L::min() && KE::denorm_min_v<T> == L::denorm_min());
  static_assert(KE::digits_v<T> == L::digits && KE::digits10_v<T> == L::digits10);
  static_assert(KE::max_digits10_v<T> == L::max_digits10 && KE::radix_v<T> == L::radix);
  static_assert(KE::min_exponent_v<T> == L::min_exponent && KE::min_exponent10_v<T> == L::min_exponent10);
  static_assert(KE::max_exponent_v<T> == L::max_exponent && KE::max_exponent10_v<T> == L::max_exponent10);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(KE::epsilon_v<T>)>, T>);
  static_assert(KE::epsilon_v<const volatile T> == L::epsilon());
  // The reciprocal of the threshold is finite, and it is the smallest such normal number.
  constexpr T threshold = KE::reciprocal_overflow_threshold_v<T>;
  EXPECT_TRUE(std::isfinite(T(1) / threshold));
  EXPECT_GE(threshold, L::min());
  EXPECT_TRUE(std::isinf(T(1) / (threshold / T(2))) || threshold == L::min());
  EXPECT_TRUE(std::isnan(KE::quiet_NaN_v<T>));
  EXPECT_TRUE(std::isnan(KE::signaling_NaN_v<T>));
  EXPECT_TRUE(same_bits(KE::quiet_NaN_v<T>, L::quiet_NaN()));
  EXPECT_TRUE(same_bits(KE::signaling_NaN_v<T>, L::signaling_NaN()));
  EXPECT_FALSE(same_bits(KE::quiet_NaN_v<T>, KE::signaling_NaN_v<T>));
  EXPECT_GT(KE::denorm_min_v<T>, T(0));
  EXPECT_LT(KE::denorm_min_v<T>, KE::norm_min_v<T>);
  EXPECT_EQ(T(1) + KE::epsilon_v<T> / 2, T(1));
  EXPECT_GT(T(1) + KE::epsilon_v<T>, T(1));
}

TEST(NumericTraits, IntegralTypesMatchNumericLimits) {
  check_integral_traits<bool>();
  check_integral_traits<char>();
  check_integral_traits<signed char>();
  check_integral_traits<unsigned char>();
  check_integral_traits<short>();
  check_integral_traits<unsigned short>();
  check_integral_traits<int>();
  check_integral_traits<unsigned int>();
  check_integral_traits<long>();
  check_integral_traits<unsigned long>();
  check_integral_traits<long long>();
  check_integral_traits<unsigned long long>();
  static_assert(KE::digits_v<int> == 31 && KE::digits10_v<int> == 9 && KE::digits_v<unsigned char> == 8);
}

TEST(NumericTraits, FloatingTypesMatchNumericLimits) {
  check_floating_traits<float>();
  check_floating_traits<double>();
  check_floating_traits<long double>();
  static_assert(KE::digits_v<double> == 53 && KE::max_digits10_v<float> == 9);
}

TEST(NumericTraits, NotDefinedForOtherTypes) {
  struct NotNumeric {};
  static_assert(!has_finite_max<NotNumeric>::value && !has_digits<NotNumeric>::value);
  static_assert(!has_finite_max<int*>::value && !has_epsilon<int*>::value);
}

TEST(NumericTraits, ReductionIdentity) {
  using RI = Kokkos::reduction_identity<int>;
  static_assert(RI::sum() == 0 && RI::prod() == 1 && RI::max() == std::numeric_limits<int>::lowest());
  static_assert(RI::min() == std::numeric_limits<int>::max() && RI::band() == -1 && RI::bor() == 0);
  static_assert(RI::land() == 1 && RI::lor() == 0);
  static_assert(Kokkos::reduction_identity<unsigned short>::band() == 0xffff);
  static_assert(Kokkos::reduction_identity<unsigned long long>::max() == 0);
  static_assert(Kokkos::reduction_identity<signed char>::max() == -128);
  static_assert(Kokkos::reduction_identity<long>::min() == std::numeric_limits<long>::max());
  static_assert(Kokkos::reduction_identity<float>::max() == -std::numeric_limits<float>::max());
  static_assert(Kokkos::reduction_identity<double>::min() == std::numeric_limits<double>::max());
  static_assert(Kokkos::reduction_identity<long double>::prod() == 1.0L);
  static_assert(Kokkos::reduction_identity<long double>::max() == -std::numeric_limits<long double>::max());
  static_assert(Kokkos::reduction_identity<bool>::land() && !Kokkos::reduction_identity<bool>::lor());
  static_assert(Kokkos::reduction_identity<bool>::band() && !Kokkos::reduction_identity<bool>::bor());
  // Each identity leaves any value unchanged under its operation.
  for (int v : {-7, 0, 1, 42, std::numeric_limits<int>::max(), std::numeric_limits<int>::lowest()}) {
    EXPECT_EQ(v + RI::sum(), v);
    EXPECT_EQ(v * RI::prod(), v);
    EXPECT_EQ(std::max(v, RI::max()), v);
    EXPECT_EQ(std::min(v, RI::min()), v);
    EXPECT_EQ(v & RI::band(), v);
    EXPECT_EQ(v | RI::bor(), v);
  }
}

// Every constant to the last bit of each type: against std::numbers (the same values C++20
// requires) and a long double reference printed with more digits than long double holds.
TEST(MathConstants, MatchStdNumbersForEveryType) {
  namespace KN = Kokkos::numbers;
  struct Constant {
    const char* name;
    long double kokkos_ld, std_ld;
    double kokkos_d, std_d, shortcut;
    float kokkos_f, std_f;
    long double reference;
  };
#define KDAG_TEST_CONSTANT(NAME, STD_NAME, REFERENCE)                                                             \
  Constant {                                                                                                       \
#NAME, KN::NAME##_v<long double>, std::numbers::STD_NAME##_v<long double>, KN::NAME##_v<double>,                   \
        std::numbers::STD_NAME##_v<double>, KN::NAME, KN::NAME##_v<float>, std::numbers::STD_NAME##_v<float>, REFERENCE \
  }
  const Constant constants[] = {
      KDAG_TEST_CONSTANT(e, e, 2.71828182845904523536028747135266249775724709369995957496696763L),
      KDAG_TEST_CONSTANT(log2e, log2e, 1.44269504088896340735992468100189213742664595415298593413544940L),
      KDAG_TEST_CONSTANT(log10e, log10e, 0.434294481903251827651128918916605082294397005803666566114453783L),
      KDAG_TEST_CONSTANT(pi, pi, 3.14159265358979323846264338327950288419716939937510582097494459L),
      KDAG_TEST_CONSTANT(inv_pi, inv_pi, 0.318309886183790671537767526745028724068919291480912897495334689L),
      KDAG_TEST_CONSTANT(inv_sqrtpi, inv_sqrtpi, 0.564189583547756286948079451560772585844050629328998856844085721L),
      KDAG_TEST_CONSTANT(ln2, ln2, 0.693147180559945309417232121458176568075500134360255254120680009L),
      KDAG_TEST_CONSTANT(ln10, ln10, 2.30258509299404568401799145468436420760110148862877297603332790L),
      KDAG_TEST_CONSTANT(sqrt2, sqrt2, 1.41421356237309504880168872420969807856967187537694807317667974L),
      KDAG_TEST_CONSTANT(sqrt3, sqrt3, 1.73205080756887729352744634150587236694280525381038062805580698L),
      KDAG_TEST_CONSTANT(inv_sqrt3, inv_sqrt3, 0.577350269189625764509148780501957455647601751270126876018602326L),
      KDAG_TEST_CONSTANT(egamma, egamma, 0.577215664901532860606512090082402431042159335939923598805767235L),
      KDAG_TEST_CONSTANT(phi, phi, 1.61803398874989484820458683436563811772030917980576286213544862L),
  };
#undef KDAG_TEST_CONSTANT
  for (const Constant& c : constants) {
    EXPECT_EQ(c.kokkos_ld, c.std_ld) << c.name;
    EXPECT_EQ(c.kokkos_d, c.std_d) << c.name;
    EXPECT_EQ(c.shortcut, c.std_d) << c.name;
    EXPECT_EQ(c.kokkos_f, c.std_f) << c.name;
    // Correctly rounded long double: within half an ulp of the longer reference.
    EXPECT_LE(std::fabs(c.kokkos_ld - c.reference), std::numeric_limits<long double>::epsilon() * c.reference / 2)
        << c.name;
    EXPECT_LE(std::fabs(c.kokkos_d - c.reference), std::numeric_limits<double>::epsilon() * c.reference / 2) << c.name;
  }
  static_assert(std::is_same_v<std::remove_cv_t<decltype(KN::pi)>, double>);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(KN::pi_v<float>)>, float>);
  // Identities the constants satisfy.
  EXPECT_NEAR(KN::inv_sqrt3 * KN::sqrt3, 1.0, 1e-15);
  EXPECT_NEAR(KN::phi * KN::phi, KN::phi + 1, 1e-15);
  EXPECT_NEAR(KN::ln2 * KN::log2e, 1.0, 1e-15);
}

// The traits and constants are plain constants a functor reads on any back end.
TEST(NumericTraits, ReadInsideKernel) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  Kokkos::View<double[6]> out("out");
  Kokkos::parallel_for(
      "traits", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(int) {
        out(0) = KE::finite_max_v<double>;
        out(1) = KE::epsilon_v<float>;
        out(2) = Kokkos::numbers::pi_v<double>;
        out(3) = KE::infinity<double>::value;
        out(4) = Kokkos::reduction_identity<int>::min();
        out(5) = KE::digits10_v<long long>;
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  EXPECT_EQ(h(0), std::numeric_limits<double>::max());
  EXPECT_EQ(h(1), double(std::numeric_limits<float>::epsilon()));
  EXPECT_EQ(h(2), std::numbers::pi);
  EXPECT_EQ(h(3), std::numeric_limits<double>::infinity());
  EXPECT_EQ(h(4), double(std::numeric_limits<int>::max()));
  EXPECT_EQ(h(5), 18.0);
}

}  // namespace

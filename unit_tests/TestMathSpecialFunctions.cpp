// Kokkos::Experimental::expint1 and erfcx (real arguments) against reference values computed
// to 30 digits with mpmath, for float, double and long double, special values, identities, and
// evaluation inside a kernel.
#include "TestCommon.hpp"

#include <Kokkos_MathematicalSpecialFunctions.hpp>

#include <cmath>
#include <limits>
#include <numbers>

namespace {

namespace KE = Kokkos::Experimental;

struct Reference {
  long double x, value;
};

// erfcx(x) = exp(x^2) erfc(x); mpmath, 30 significant digits.
const Reference erfcx_table[] = {
    {-8, 1.247029816162323376581848e+28L},
    {-3.5, 417962.422445770314129094L},
    {-1, 5.008980080762283466309825L},
    {-0.25, 1.358642370104722115210042L},
    {0, 1.0L},
    {0.0078125, 0.991245216065164883505397L},
    {0.25, 0.7703465477309967439167392L},
    {0.5, 0.6156903441929258748707934L},
    {0.75, 0.5069376502931448057914318L},
    {1, 0.4275835761558070044107503L},
    {1.25, 0.3678229164523610929260111L},
    {2, 0.2553956763105057438650886L},
    {3.5, 0.1552936556088942974027265L},
    {5, 0.1107046377330686263702121L},
    {8.5, 0.06592512249998035174081049L},
    {12, 0.04685422101489376261958841L},
    {26.5, 0.02127504668537110595521158L},
    {30, 0.01879588886141675149712533L},
    {100, 0.005641613782989432903556457L},
    {1000, 0.000564189301453387654199745L},
    {1e6, 0.000000564189583547474192156306L},
};

// E1(x); mpmath, 30 significant digits.  0.8125 and 0.75 sit on either side of the switch from
// the series to the continued fraction.
const Reference expint1_table[] = {
    {0.0078125, 4.282611866681218385347019L},
    {0.125, 1.623425640584168791456307L},
    {0.5, 0.5597735947761608117467959L},
    {0.75, 0.3403408129112300078065358L},
    {0.8125, 0.3036733463073745495553735L},
    {1, 0.2193839343955202736771638L},
    {1.25, 0.1464133725259101766932585L},
    {2, 0.04890051070806111956723984L},
    {3.5, 0.006970139857548392919272925L},
    {5, 0.001148295591275325797330562L},
    {10, 0.00000415696892968532427740286L},
    {20, 9.835525290649881690396987e-11L},
    {50, 3.783264029550459018698968e-24L},
    {100, 3.683597761682032180235193e-46L},
    {200, 6.885226106307635597710817e-90L},
    {700, 1.406518766234032922774411e-307L},
};

// Relative error in units of the type's epsilon; references outside the type's normal range
// are skipped (they underflow or overflow, checked separately).
template <class T>
void check_table(const Reference* table, std::size_t n, T (*function)(T), double max_ulps, const char* name) {
  for (std::size_t i = 0; i < n; ++i) {
    const long double ref = table[i].value;
    if (ref > std::numeric_limits<T>::max() || ref < std::numeric_limits<T>::min()) continue;
    const T x = static_cast<T>(table[i].x);
    ASSERT_EQ(static_cast<long double>(x), table[i].x) << "table arguments are exact in every type";
    const T got = function(x);
    const long double error = std::fabs((static_cast<long double>(got) - ref) / ref);
    EXPECT_LE(error, max_ulps * std::numeric_limits<T>::epsilon())
        << name << "(" << table[i].x << ") = " << got << ", expected " << static_cast<double>(ref) << " (" << sizeof(T)
        << "-byte type)";
  }
}

template <class T>
T erfcx_of(T x) {
  return KE::erfcx(x);
}
template <class T>
T expint1_of(T x) {
  return KE::expint1(x);
}

TEST(MathSpecialFunctions, ErfcxAgainstReferenceValues) {
  constexpr std::size_t n = sizeof(erfcx_table) / sizeof(erfcx_table[0]);
  check_table<float>(erfcx_table, n, erfcx_of<float>, 8, "erfcx");
  check_table<double>(erfcx_table, n, erfcx_of<double>, 8, "erfcx");
  check_table<long double>(erfcx_table, n, erfcx_of<long double>, 8, "erfcx");
}

TEST(MathSpecialFunctions, Expint1AgainstReferenceValues) {
  constexpr std::size_t n = sizeof(expint1_table) / sizeof(expint1_table[0]);
  check_table<float>(expint1_table, n, expint1_of<float>, 8, "expint1");
  check_table<double>(expint1_table, n, expint1_of<double>, 8, "expint1");
  check_table<long double>(expint1_table, n, expint1_of<long double>, 8, "expint1");
}

// Dense sweeps against the definitions evaluated in long double where they are accurate:
// erfcx(x) = expl(x^2) erfcl(x) for moderate x, and for expint1 the derivative identity
// E1'(x) = -exp(-x)/x checked through a central difference would be too loose, so the sweep
// checks monotonicity and the bounds exp(-x) ln(1 + 2/x) / 2 < E1(x) < exp(-x) ln(1 + 1/x).
TEST(MathSpecialFunctions, DenseSweeps) {
  double previous_e1 = std::numeric_limits<double>::infinity();
  for (double x = -6; x <= 20; x += 0.01) {
    const long double lx = x;
    const long double reference = std::exp(lx * lx) * std::erfc(lx);
    EXPECT_LE(std::fabs((KE::erfcx(x) - reference) / reference), 8 * std::numeric_limits<double>::epsilon()) << x;
    if (x > 0) {
      const double e1 = KE::expint1(x);
      EXPECT_LT(e1, previous_e1) << x;
      previous_e1 = e1;
      EXPECT_GT(e1, std::exp(-x) * std::log1p(2 / x) / 2) << x;
      EXPECT_LT(e1, std::exp(-x) * std::log1p(1 / x)) << x;
    }
  }
  // For large x, erfcx(x) = 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4) - ...).
  for (double x : {1e3, 1e8, 1e150, 1e300}) {
    const double asymptotic = 1 / (x * std::sqrt(std::numbers::pi)) * (1 - 1 / (2 * x * x) + 3 / (4 * x * x * x * x));
    EXPECT_NEAR(KE::erfcx(x) / asymptotic, 1.0, 4e-16) << x;
  }
}

TEST(MathSpecialFunctions, SpecialValues) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  // As Kokkos: E1 is +inf at 0 and -inf for negative arguments.
  EXPECT_EQ(KE::expint1(0.0), inf);
  EXPECT_EQ(KE::expint1(-0.0), inf);
  EXPECT_EQ(KE::expint1(-1.0), -inf);
  EXPECT_EQ(KE::expint1(-1.0f), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(KE::expint1(inf), 0.0);
  EXPECT_EQ(KE::expint1(800.0), 0.0);  // underflows
  EXPECT_GT(KE::expint1(std::numeric_limits<double>::denorm_min()), 700.0);
  EXPECT_TRUE(std::isnan(KE::expint1(nan)));
  EXPECT_EQ(KE::erfcx(inf), 0.0);
  EXPECT_EQ(KE::erfcx(-inf), inf);
  EXPECT_EQ(KE::erfcx(-30.0), inf);  // exp(900) overflows
  EXPECT_EQ(KE::erfcx(-10.0f), std::numeric_limits<float>::infinity());
  EXPECT_EQ(KE::erfcx(0.0), 1.0);
  EXPECT_EQ(KE::erfcx(-0.0), 1.0);
  EXPECT_TRUE(std::isnan(KE::erfcx(nan)));
  EXPECT_TRUE(std::isnan(KE::erfcx(std::numeric_limits<float>::quiet_NaN())));
  // A subnormal result, not zero.
  EXPECT_NEAR(KE::erfcx(std::numeric_limits<double>::max()), 1 / std::numeric_limits<double>::max() / std::sqrt(std::numbers::pi),
              1e-322);
  EXPECT_GT(KE::erfcx(std::numeric_limits<double>::max()), 0.0);
  static_assert(std::is_same_v<decltype(KE::erfcx(1.0f)), float>);
  static_assert(std::is_same_v<decltype(KE::expint1(1.0L)), long double>);
}

TEST(MathSpecialFunctions, InsideParallelFor) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  constexpr int n = sizeof(erfcx_table) / sizeof(erfcx_table[0]);
  constexpr int m = sizeof(expint1_table) / sizeof(expint1_table[0]);
  Kokkos::View<double*> x_erfcx("x_erfcx", n), x_e1("x_e1", m), erfcx_out("erfcx_out", n), e1_out("e1_out", m);
  Kokkos::View<float*> erfcx_out_f("erfcx_out_f", n);
  auto h_x_erfcx = Kokkos::create_mirror_view(x_erfcx);
  auto h_x_e1 = Kokkos::create_mirror_view(x_e1);
  for (int i = 0; i < n; ++i) h_x_erfcx(i) = static_cast<double>(erfcx_table[i].x);
  for (int i = 0; i < m; ++i) h_x_e1(i) = static_cast<double>(expint1_table[i].x);
  Kokkos::deep_copy(x_erfcx, h_x_erfcx);
  Kokkos::deep_copy(x_e1, h_x_e1);
  Kokkos::parallel_for(
      "special", n + m, KOKKOS_LAMBDA(int i) {
        if (i < n) {
          erfcx_out(i) = KE::erfcx(x_erfcx(i));
          erfcx_out_f(i) = KE::erfcx(static_cast<float>(x_erfcx(i)));
        } else {
          e1_out(i - n) = KE::expint1(x_e1(i - n));
        }
      });
  auto h_erfcx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), erfcx_out);
  auto h_erfcx_f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), erfcx_out_f);
  auto h_e1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), e1_out);
  for (int i = 0; i < n; ++i) {
    const long double ref = erfcx_table[i].value;
    EXPECT_LE(std::fabs((h_erfcx(i) - ref) / ref), 8 * std::numeric_limits<double>::epsilon()) << erfcx_table[i].x;
    if (ref < std::numeric_limits<float>::max()) {
      EXPECT_LE(std::fabs((h_erfcx_f(i) - ref) / ref), 8 * std::numeric_limits<float>::epsilon()) << erfcx_table[i].x;
    }
  }
  for (int i = 0; i < m; ++i) {
    const long double ref = expint1_table[i].value;
    EXPECT_LE(std::fabs((h_e1(i) - ref) / ref), 8 * std::numeric_limits<double>::epsilon()) << expint1_table[i].x;
  }
}

}  // namespace

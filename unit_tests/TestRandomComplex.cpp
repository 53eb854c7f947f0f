// Kokkos::rand<Generator, Kokkos::complex<float|double>> and fill_random of complex Views: the
// parts are the generator's real draws in order (real part first), each part keeps its own
// half-open range, the parts are uniform and uncorrelated, and fill_random covers the
// rectangle on every back end.
#include "TestCommon.hpp"

#include <Kokkos_Random.hpp>

#include <cmath>
#include <cstdint>

namespace {

using Pool64 = Kokkos::Random_XorShift64_Pool<Kokkos::DefaultHostExecutionSpace>;
using Pool1024 = Kokkos::Random_XorShift1024_Pool<Kokkos::DefaultHostExecutionSpace>;

template <class Pool, class Real>
void expect_parts_are_the_real_draws(std::uint64_t seed) {
  using Complex = Kokkos::complex<Real>;
  using Draw = Kokkos::rand<typename Pool::generator_type, Complex>;
  using Part = Kokkos::rand<typename Pool::generator_type, Real>;
  Pool complex_pool(seed), real_pool(seed);
  auto c = complex_pool.get_state();
  auto r = real_pool.get_state();
  const Complex range(Real(3), Real(0.25));
  const Complex start(Real(-2), Real(10)), end(Real(-1), Real(12));
  for (int i = 0; i < 200; ++i) {
    const Complex plain = Draw::draw(c);
    const Real plain_re = Part::draw(r);
    const Real plain_im = Part::draw(r);
    EXPECT_EQ(plain, Complex(plain_re, plain_im));
    const Complex ranged = Draw::draw(c, range);
    const Real ranged_re = Part::draw(r, range.real());
    const Real ranged_im = Part::draw(r, range.imag());
    EXPECT_EQ(ranged, Complex(ranged_re, ranged_im));
    const Complex boxed = Draw::draw(c, start, end);
    const Real boxed_re = Part::draw(r, start.real(), end.real());
    const Real boxed_im = Part::draw(r, start.imag(), end.imag());
    EXPECT_EQ(boxed, Complex(boxed_re, boxed_im));
  }
  complex_pool.free_state(c);
  real_pool.free_state(r);
}

TEST(RandomComplex, PartsAreTheRealDrawsInOrder) {
  expect_parts_are_the_real_draws<Pool64, double>(17);
  expect_parts_are_the_real_draws<Pool64, float>(18);
  expect_parts_are_the_real_draws<Pool1024, double>(19);
  expect_parts_are_the_real_draws<Pool1024, float>(20);
}

TEST(RandomComplex, MaxIsOneOne) {
  using G = Pool64::generator_type;
  EXPECT_EQ((Kokkos::rand<G, Kokkos::complex<double>>::max()), Kokkos::complex<double>(1, 1));
  EXPECT_EQ((Kokkos::rand<G, Kokkos::complex<float>>::max()), Kokkos::complex<float>(1, 1));
  static_assert(std::is_same_v<decltype(Kokkos::rand<G, Kokkos::complex<float>>::draw(std::declval<G&>())),
                               Kokkos::complex<float>>);
}

// Each part stays in its own half-open range and comes close to both ends; the parts have
// the uniform mean and variance and no correlation (fixed seed: deterministic statistics).
template <class Real>
void expect_uniform_rectangle(std::uint64_t seed) {
  using Complex = Kokkos::complex<Real>;
  using Draw = Kokkos::rand<Pool1024::generator_type, Complex>;
  Pool1024 pool(seed);
  auto gen = pool.get_state();
  const Complex start(Real(-4), Real(1)), end(Real(-2), Real(1.5));
  constexpr int n = 200000;
  double sum_re = 0, sum_im = 0, sum_re2 = 0, sum_im2 = 0, sum_cross = 0;
  Real min_re = end.real(), max_re = start.real(), min_im = end.imag(), max_im = start.imag();
  for (int i = 0; i < n; ++i) {
    const Complex v = Draw::draw(gen, start, end);
    ASSERT_GE(v.real(), start.real());
    ASSERT_LT(v.real(), end.real());
    ASSERT_GE(v.imag(), start.imag());
    ASSERT_LT(v.imag(), end.imag());
    min_re = std::min(min_re, v.real());
    max_re = std::max(max_re, v.real());
    min_im = std::min(min_im, v.imag());
    max_im = std::max(max_im, v.imag());
    // Standardised to [0, 1).
    const double u = (v.real() - start.real()) / (end.real() - start.real());
    const double w = (v.imag() - start.imag()) / (end.imag() - start.imag());
    sum_re += u;
    sum_im += w;
    sum_re2 += u * u;
    sum_im2 += w * w;
    sum_cross += (u - 0.5) * (w - 0.5);
  }
  pool.free_state(gen);
  EXPECT_LT(min_re - start.real(), 1e-3);
  EXPECT_LT(end.real() - max_re, 1e-3);
  EXPECT_LT(min_im - start.imag(), 1e-3);
  EXPECT_LT(end.imag() - max_im, 1e-3);
  // Standard errors: mean 0.00065, variance 0.0002, correlation 0.0022; bounds at ~5 sigma.
  EXPECT_NEAR(sum_re / n, 0.5, 0.004);
  EXPECT_NEAR(sum_im / n, 0.5, 0.004);
  EXPECT_NEAR(sum_re2 / n - (sum_re / n) * (sum_re / n), 1.0 / 12, 0.001);
  EXPECT_NEAR(sum_im2 / n - (sum_im / n) * (sum_im / n), 1.0 / 12, 0.001);
  EXPECT_NEAR(sum_cross / n * 12, 0.0, 0.012);
}

TEST(RandomComplex, UniformRectangle) {
  expect_uniform_rectangle<double>(5);
  expect_uniform_rectangle<float>(6);
}

TEST(RandomComplex, EmptyPartRangeGivesItsStart) {
  // A part whose range is empty returns its start, the other part still varies.
  using Complex = Kokkos::complex<double>;
  using Draw = Kokkos::rand<Pool64::generator_type, Complex>;
  Pool64 pool(3);
  auto gen = pool.get_state();
  bool varied = false;
  for (int i = 0; i < 50; ++i) {
    const Complex v = Draw::draw(gen, Complex(0, 2), Complex(1, 2));
    EXPECT_EQ(v.imag(), 2.0);
    varied = varied || v.real() != 0;
  }
  EXPECT_TRUE(varied);
  pool.free_state(gen);
}

template <class Space>
struct RandomComplexSpaceTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(RandomComplexSpaceTest, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

template <class View>
void expect_view_in_rectangle(const View& v, double re_lo, double re_hi, double im_lo, double im_hi) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  const auto* p = h.data();
  double mean_re = 0, mean_im = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    ASSERT_GE(p[i].real(), re_lo);
    ASSERT_LT(p[i].real(), re_hi);
    ASSERT_GE(p[i].imag(), im_lo);
    ASSERT_LT(p[i].imag(), im_hi);
    mean_re += p[i].real();
    mean_im += p[i].imag();
  }
  const double n = static_cast<double>(h.size());
  // Uniform means; n >= 3000 gives a standard error under 0.6% of the width.
  EXPECT_NEAR(mean_re / n, (re_lo + re_hi) / 2, 0.03 * (re_hi - re_lo));
  EXPECT_NEAR(mean_im / n, (im_lo + im_hi) / 2, 0.03 * (im_hi - im_lo));
}

TYPED_TEST(RandomComplexSpaceTest, FillRandomComplexViews) {
  using Space = TypeParam;
  using CD = Kokkos::complex<double>;
  using CF = Kokkos::complex<float>;
  Kokkos::Random_XorShift64_Pool<Space> pool(2024);
  Kokkos::View<CD*, Space> a("a", 3001);
  Kokkos::fill_random(a, pool, CD(2, 5));
  expect_view_in_rectangle(a, 0, 2, 0, 5);
  Kokkos::View<CF**, Kokkos::LayoutLeft, Space> b("b", 300, 17);
  Kokkos::fill_random(Space(), b, pool, CF(-1, 3), CF(1, 4));
  Space().fence();
  expect_view_in_rectangle(b, -1, 1, 3, 4);
  Kokkos::Random_XorShift1024_Pool<Space> pool1024(7);
  Kokkos::View<CD***, Space> c("c", 20, 15, 11);
  Kokkos::fill_random(c, pool1024, CD(-3, -3), CD(-2, 0));
  expect_view_in_rectangle(c, -3, -2, -3, 0);
}

}  // namespace

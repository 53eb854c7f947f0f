// The array algorithms that declare their own accesses: exact results, fused equals unfused
// bit for bit, Black-Scholes (seed 000 Listing 1) becomes one launch, bad input.
#include "TestCommon.hpp"

#include <Kokkos_StdAlgorithms_Fused.hpp>

#include "../example/black_scholes.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using Arr = Kokkos::View<double*, Kokkos::HostSpace>;

template <class Space>
struct FusionAlgorithms : ::testing::Test {
  void SetUp() override {
    KE::set_fusion_enabled(true);
    KE::set_fusion_inline_bytes(0);  // these tests exercise recording on every space
    KE::reset_fusion_statistics();
  }
  void TearDown() override { KE::set_fusion_enabled(true); }
};
TYPED_TEST_SUITE(FusionAlgorithms, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

struct Results {
  std::vector<double> x, y, z, w, s;
  double sum = 0, dot = 0, nrm = 0, mn = 0, mx = 0, red = 0, tr = 0, tr1 = 0;
};

// Every algorithm once, in one window; the reductions end runs.
template <class Space>
Results every_algorithm(std::int64_t n) {
  Space space;
  Arr x("x", n), y("y", n), z("z", n), w("w", n);
  Kokkos::View<int*, Kokkos::HostSpace> flag("flag", n);
  auto sub = Kokkos::subview(w, Kokkos::pair<std::int64_t, std::int64_t>(0, n / 2));
  Results r;
  {
    KE::FusionScope scope;
    KE::fill(space, x, 1.5);
    KE::transform(space, x, y, KOKKOS_LAMBDA(double v) { return v * 3.0; });      // 4.5
    KE::for_each(space, y, KOKKOS_LAMBDA(double& v) { v += 0.25; });               // 4.75
    KE::axpby(space, 2.0, x, 0.5, y);                                              // 3 + 2.375
    KE::transform(space, x, y, z, KOKKOS_LAMBDA(double a, double b) { return a - b; });
    KE::scale(space, -2.0, z);
    KE::transform(space, x, y, z, w, KOKKOS_LAMBDA(double a, double b, double c) { return a * b + c; });
    KE::copy(space, w, x);
    KE::fill(space, sub, 7.0);
    KE::transform(space, x, flag, KOKKOS_LAMBDA(double v) { return v > 0 ? 1 : 0; });
    KE::where(space, flag, x, z, y);
    r.sum = KE::sum(space, y);
    r.dot = KE::dot(space, x, y);
    r.nrm = KE::nrm2(space, z);
    r.mn = KE::min_value(space, w);
    r.mx = KE::max_value(space, z);
    r.red = KE::reduce(space, x, 10.0, KOKKOS_LAMBDA(double a, double b) { return a + b; });
    r.tr = KE::transform_reduce(space, x, z, 1.0);
    r.tr1 = KE::transform_reduce(
        space, z, 0.0, KOKKOS_LAMBDA(double a, double b) { return a > b ? a : b; },
        KOKKOS_LAMBDA(double v) { return -v; });
  }
  r.x.assign(x.data(), x.data() + n);
  r.y.assign(y.data(), y.data() + n);
  r.z.assign(z.data(), z.data() + n);
  r.w.assign(w.data(), w.data() + n);
  return r;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TYPED_TEST(FusionAlgorithms, ExactResultsAndFusedEqualsUnfused) {
  for (std::int64_t n : {1, 2, 7, 1000, 100003}) {
    const Results fused = every_algorithm<TypeParam>(n);
    KE::set_fusion_enabled(false);
    const Results plain = every_algorithm<TypeParam>(n);
    KE::set_fusion_enabled(true);
    // Exact values: x = 1.5, y = 5.375, z = -2*(1.5-5.375) = 7.75, w = 1.5*5.375 + 7.75 = 15.8125
    // (w's first half then 7), x = old w, flag = 1, y = x.
    for (std::int64_t i = 0; i < n; ++i) {
      const double w = i < n / 2 ? 7.0 : 15.8125;
      ASSERT_EQ(fused.z[i], 7.75) << i;
      ASSERT_EQ(fused.w[i], w) << i;
      ASSERT_EQ(fused.x[i], 15.8125) << i;
      ASSERT_EQ(fused.y[i], 15.8125) << i;
    }
    EXPECT_EQ(fused.sum, 15.8125 * double(n));
    EXPECT_EQ(fused.dot, 15.8125 * 15.8125 * double(n));
    EXPECT_DOUBLE_EQ(fused.nrm, std::sqrt(7.75 * 7.75 * double(n)));
    EXPECT_EQ(fused.mn, n / 2 > 0 ? 7.0 : 15.8125);
    EXPECT_EQ(fused.mx, 7.75);
    EXPECT_EQ(fused.red, 10.0 + 15.8125 * double(n));
    EXPECT_EQ(fused.tr, 1.0 + 15.8125 * 7.75 * double(n));
    EXPECT_EQ(fused.tr1, 0.0);  // max(0, max(-7.75)) = 0
    for (auto [a, b] : {std::pair(fused.sum, plain.sum), std::pair(fused.dot, plain.dot),
                        std::pair(fused.nrm, plain.nrm), std::pair(fused.red, plain.red),
                        std::pair(fused.tr, plain.tr)}) {
      EXPECT_TRUE(same_bits(a, b)) << a << " vs " << b;
    }
    EXPECT_EQ(fused.x, plain.x);
    EXPECT_EQ(fused.y, plain.y);
  }
  EXPECT_GT(KE::fusion_statistics().fused_launches, 0u);
}

TYPED_TEST(FusionAlgorithms, ReductionsOverEmptyViews) {
  TypeParam space;
  Arr empty("empty", 0);
  KE::FusionScope scope;
  EXPECT_EQ(KE::sum(space, empty), 0.0);
  EXPECT_EQ(KE::dot(space, empty, empty), 0.0);
  EXPECT_EQ(KE::reduce(space, empty, 3.0, KOKKOS_LAMBDA(double a, double b) { return a * b; }), 3.0);
  EXPECT_EQ(KE::min_value(space, empty), std::numeric_limits<double>::max());
  EXPECT_EQ(KE::max_value(space, empty), std::numeric_limits<double>::lowest());
  KE::fill(space, empty, 1.0);
}

TYPED_TEST(FusionAlgorithms, MismatchedExtentsThrowNamingTheAlgorithm) {
  TypeParam space;
  Arr a("a", 10), b("b", 11);
  auto expect_message = [](auto&& call, const std::string& what, const std::string& detail) {
    try {
      call();
      ADD_FAILURE() << "no exception for " << what;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(detail), std::string::npos) << e.what();
    }
  };
  KE::FusionScope scope;
  // Kokkos' copy writes source.extent(0) elements: a longer destination is fine, a shorter one is not.
  KE::copy(space, a, b);
  expect_message([&] { KE::copy(space, b, a); }, "Kokkos::Experimental::copy", "destination View is shorter");
  expect_message([&] { KE::axpby(space, 1.0, a, 1.0, b); }, "Kokkos::Experimental::axpby", "10, 11");
  expect_message([&] { KE::dot(space, a, b); }, "Kokkos::Experimental::transform_reduce", "extents differ");
  expect_message([&] { KE::where(space, a, a, a, b); }, "Kokkos::Experimental::where", "10, 11");
  KE::fusion_flush();
  EXPECT_EQ(KE::fusion_pending_launches(), 0u);
}

// Seed 000 Listing 1: every operation fuses; the whole program is a single launch.
TYPED_TEST(FusionAlgorithms, BlackScholesBecomesOneLaunch) {
  TypeParam space;
  const std::int64_t n = 10007;
  black_scholes::Data fused(n), plain(n), loop(n);
  {
    KE::FusionScope scope;
    black_scholes::black_scholes_algorithms(space, fused);
  }
  const auto s = KE::fusion_statistics();
  EXPECT_EQ(s.fused_launches, 1u);
  EXPECT_EQ(s.launches_fused, s.launches_recorded);
  EXPECT_EQ(s.max_fused_length, s.launches_recorded);
  EXPECT_GE(s.launches_recorded, 20u);
  std::uint64_t barriers = 0;
  for (auto b : s.barriers) barriers += b;
  EXPECT_EQ(barriers, 0u);
  KE::set_fusion_enabled(false);
  {
    KE::FusionScope scope;
    black_scholes::black_scholes_algorithms(space, plain);
  }
  KE::set_fusion_enabled(true);
  black_scholes::black_scholes_single_loop(space, loop);
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_TRUE(same_bits(fused.call(i), plain.call(i))) << i;
    ASSERT_TRUE(same_bits(fused.put(i), plain.put(i))) << i;
    ASSERT_NEAR(fused.call(i), loop.call(i), 1e-9 * (1 + std::fabs(loop.call(i)))) << i;
    ASSERT_NEAR(fused.put(i), loop.put(i), 1e-9 * (1 + std::fabs(loop.put(i)))) << i;
  }
  // Put-call parity: C - P = S - X e^{-RT}.
  for (std::int64_t i = 0; i < n; i += 101) {
    EXPECT_NEAR(fused.call(i) - fused.put(i), fused.S(i) - fused.X(i) * std::exp(-fused.R * fused.T(i)), 1e-6);
  }
}

}  // namespace

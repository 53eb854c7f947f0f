// Kokkos' numeric std algorithms on every back end: reduce, transform_reduce, the four scans
// (plain, init, user op, transform), adjacent_difference, against std:: on random data.
#include "TestCommon.hpp"
#include "StdAlgorithmsTestCommon.hpp"

#include <cstdint>
#include <numeric>
#include <string>

// nvcc accepts no KOKKOS_LAMBDA inside a generic lambda: the functors written inside the
// for_each_layout bodies below are plain [=] lambdas (these tests run on the host spaces).
namespace {

using namespace Kokkos::Test::StdAlg;

template <class Space>
struct StdNumeric : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(StdNumeric, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

struct Square {
  KOKKOS_INLINE_FUNCTION long operator()(int x) const { return long(x) * x; }
};
struct Max {
  KOKKOS_INLINE_FUNCTION long operator()(long a, long b) const { return a > b ? a : b; }
};
// Associative, not commutative: a scan joining partial results in the wrong order fails.
// (f, g) composes affine maps x -> m x + c (mod 2^20), kept in a long as m * 2^20 + c: f after g.
struct Compose {
  KOKKOS_INLINE_FUNCTION long operator()(long f, long g) const {
    const long fm = f >> 20, fc = f & 0xFFFFF, gm = g >> 20, gc = g & 0xFFFFF;
    return (((fm * gm) & 0xFFFFF) << 20) | ((gc * fm + fc) & 0xFFFFF);
  }
};

TYPED_TEST(StdNumeric, ReduceAndTransformReduceMatchStd) {
  TypeParam space;
  for_each_layout(1000, 11, [&](const auto& v, const std::vector<int>& h) {
    EXPECT_EQ(KE::reduce(space, v), std::reduce(h.begin(), h.end()));
    EXPECT_EQ(KE::reduce(space, KE::cbegin(v), KE::cend(v)), std::reduce(h.begin(), h.end()));
    EXPECT_EQ(KE::reduce("label", space, v, 5L), std::reduce(h.begin(), h.end(), 5L));
    EXPECT_EQ(KE::reduce(space, KE::cbegin(v), KE::cend(v), -3L, Max{}), std::reduce(h.begin(), h.end(), -3L, Max{}));
    EXPECT_EQ(KE::reduce(space, v, 100000L, Max{}), 100000L);  // init joins too
    auto w = contiguous(h);
    EXPECT_EQ(KE::transform_reduce(space, v, w, 2L), std::transform_reduce(h.begin(), h.end(), h.begin(), 2L));
    EXPECT_EQ(KE::transform_reduce(space, KE::cbegin(v), KE::cend(v), KE::cbegin(w), 0L, Max{},
                                   [=](int a, int b) { return long(a) - b + 1; }),
              h.empty() ? 0L : 1L);
    EXPECT_EQ(KE::transform_reduce("label", space, v, 0L, [=](long a, long b) { return a + b; }, Square{}),
              std::transform_reduce(h.begin(), h.end(), 0L, std::plus<>(), Square{}));
  });
  // doubles: the sum of a few thousand fractions, within rounding
  Kokkos::View<double*, Kokkos::HostSpace> d("d", 5000);
  for (int i = 0; i < 5000; ++i) d(i) = 1.0 / (i + 1);
  double expect = 0;
  for (int i = 0; i < 5000; ++i) expect += 1.0 / (i + 1);
  EXPECT_NEAR(KE::reduce(space, d), expect, 1e-12);
  EXPECT_NEAR(KE::reduce(space, d, 1.0), expect + 1.0, 1e-12);
}

TYPED_TEST(StdNumeric, ScansMatchStd) {
  TypeParam space;
  for_each_layout(100, 12, [&](const auto& v, const std::vector<int>& h) {
    const std::size_t n = h.size();
    std::vector<int> expect(n);
    Contiguous out("out", n);
    auto check = [&](auto returned, const char* what) {
      EXPECT_EQ(returned - KE::begin(out), static_cast<std::ptrdiff_t>(n)) << what;
      EXPECT_EQ(to_vector(out), expect) << what;
    };
    std::inclusive_scan(h.begin(), h.end(), expect.begin());
    check(KE::inclusive_scan(space, KE::cbegin(v), KE::cend(v), KE::begin(out)), "inclusive");
    std::inclusive_scan(h.begin(), h.end(), expect.begin(), std::plus<>(), 7);
    check(KE::inclusive_scan("label", space, v, out, [=](int a, int b) { return a + b; }, 7),
          "inclusive with init");
    std::inclusive_scan(h.begin(), h.end(), expect.begin(), [](int a, int b) { return a > b ? a : b; });
    check(KE::inclusive_scan(space, v, out, [=](int a, int b) { return a > b ? a : b; }), "inclusive max");
    std::exclusive_scan(h.begin(), h.end(), expect.begin(), 3);
    check(KE::exclusive_scan(space, v, out, 3), "exclusive");
    std::exclusive_scan(h.begin(), h.end(), expect.begin(), 50, [](int a, int b) { return a < b ? a : b; });
    check(KE::exclusive_scan(space, KE::cbegin(v), KE::cend(v), KE::begin(out), 50,
                             [=](int a, int b) { return a < b ? a : b; }),
          "exclusive min");
    auto twice = [=](int x) { return 2 * x; };
    auto plus = [=](int a, int b) { return a + b; };
    std::transform_inclusive_scan(h.begin(), h.end(), expect.begin(), std::plus<>(), [](int x) { return 2 * x; });
    check(KE::transform_inclusive_scan(space, v, out, plus, twice), "transform inclusive");
    std::transform_inclusive_scan(h.begin(), h.end(), expect.begin(), std::plus<>(), [](int x) { return 2 * x; }, -4);
    check(KE::transform_inclusive_scan(space, KE::cbegin(v), KE::cend(v), KE::begin(out), plus, twice, -4),
          "transform inclusive with init");
    std::transform_exclusive_scan(h.begin(), h.end(), expect.begin(), 1, std::plus<>(), [](int x) { return 2 * x; });
    check(KE::transform_exclusive_scan("label", space, v, out, 1, plus, twice), "transform exclusive");
    std::adjacent_difference(h.begin(), h.end(), expect.begin());
    check(KE::adjacent_difference(space, v, out), "adjacent_difference");
    std::adjacent_difference(h.begin(), h.end(), expect.begin(), std::plus<>());
    check(KE::adjacent_difference(space, KE::cbegin(v), KE::cend(v), KE::begin(out), plus), "adjacent_difference op");
    // in place, as std allows for scans
    auto in_place = contiguous(h);
    std::inclusive_scan(h.begin(), h.end(), expect.begin());
    KE::inclusive_scan(space, in_place, in_place);
    EXPECT_EQ(to_vector(in_place), expect);
    EXPECT_TRUE(sentinels_intact(v));
  });
}

// The join order of partial scans: a non-commutative op gives std's answer only when every
// back end joins the earlier part on the left.
TYPED_TEST(StdNumeric, ScanWithNonCommutativeOpKeepsOrder) {
  TypeParam space;
  const int n = 20011;
  Kokkos::View<long*, Kokkos::HostSpace> maps("maps", n), out("out", n);
  std::vector<long> h(n), expect(n);
  for (int i = 0; i < n; ++i) h[i] = maps(i) = ((long(i % 5 + 1)) << 20) | ((i * 37) & 0xFFFFF);
  std::inclusive_scan(h.begin(), h.end(), expect.begin(), Compose{});
  KE::inclusive_scan(space, maps, out, Compose{});
  for (int i = 0; i < n; ++i) ASSERT_EQ(out(i), expect[i]) << i;
  std::exclusive_scan(h.begin(), h.end(), expect.begin(), long(1) << 20, Compose{});
  KE::exclusive_scan(space, maps, out, long(1) << 20, Compose{});
  for (int i = 0; i < n; ++i) ASSERT_EQ(out(i), expect[i]) << i;
}

TEST(StdNumericMisuse, ShortDestinationThrowsNamingTheAlgorithm) {
  Kokkos::DefaultHostExecutionSpace space;
  Contiguous a("a", 10), b("b", 9);
  try {
    KE::inclusive_scan(space, a, b);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("Kokkos::Experimental::inclusive_scan"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("shorter"), std::string::npos) << e.what();
  }
}

}  // namespace

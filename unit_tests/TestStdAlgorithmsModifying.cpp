// Kokkos' modifying std algorithms against std:: on random data (fill, generate, copy, move,
// transform, replace, swap, reverse, rotate, shift, the compactions copy_if / unique / remove
// / partition_copy, iter_swap), their return values, strided Views, misuse; and that the
// element-wise ones fuse inside a FusionScope.
#include "TestCommon.hpp"
#include "FusionTestFixture.hpp"
#include "StdAlgorithmsTestCommon.hpp"

#include <algorithm>
#include <numeric>
#include <string>

// nvcc accepts no KOKKOS_LAMBDA inside a generic lambda: the functors written inside the
// for_each_layout bodies below are plain [=] lambdas (these tests run on the host spaces).
namespace {

using namespace Kokkos::Test::StdAlg;

template <class Space>
struct StdModifying : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(StdModifying, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

template <class Out>
std::ptrdiff_t offset(const Out& it, const Contiguous& v) {
  return it - KE::begin(v);
}

TEST(StdModifyingElementwise, FillGenerateCopyMoveTransformReplaceMatchStd) {
  Kokkos::DefaultHostExecutionSpace space;
  for_each_layout(10, 21, [&](const auto& v, const std::vector<int>& h) {
    const std::ptrdiff_t n = h.size();
    auto h2 = h;
    Contiguous out("out", n + 2);
    Kokkos::deep_copy(out, -1);
    auto expect = std::vector<int>(n + 2, -1);
    auto check = [&](std::ptrdiff_t returned, std::ptrdiff_t expected_end, const char* what) {
      EXPECT_EQ(returned, expected_end) << what;
      EXPECT_EQ(to_vector(out), expect) << what;
    };
    // each step: std:: on expect first, then the Kokkos call, whose result check compares
    std::copy(h.begin(), h.end(), expect.begin());
    check(offset(KE::copy(space, v, out), out), n, "copy");  // a longer destination is fine
    std::copy_backward(h.begin(), h.end(), expect.end());
    check(offset(KE::copy_backward(space, v, out), out), 2, "copy_backward");
    std::copy_n(h.begin(), n / 2, expect.begin());
    check(offset(KE::copy_n(space, KE::cbegin(v), n / 2, KE::begin(out)), out), n / 2, "copy_n");
    std::fill(expect.begin(), expect.end(), 4);
    KE::fill("label", space, out, 4);
    std::fill_n(expect.begin(), n, 5);
    check(offset(KE::fill_n(space, KE::begin(out), n, 5), out), n, "fill_n");
    check(offset(KE::fill_n(space, out, -3, 9), out), 0, "fill_n: a negative count fills nothing");
    std::transform(h.begin(), h.end(), expect.begin(), IsMultipleOf{3});
    check(offset(KE::transform(space, KE::cbegin(v), KE::cend(v), KE::begin(out), IsMultipleOf{3}), out), n,
          "transform unary");
    auto sum = [=](int a, int b) { return a + 10 * b; };
    std::transform(h.begin(), h.end(), h.rbegin(), expect.begin(), sum);
    auto rev = contiguous(std::vector<int>(h.rbegin(), h.rend()));
    check(offset(KE::transform("label", space, v, rev, out, sum), out), n, "transform binary");
    auto gen = [=]() { return 42; };
    KE::generate(space, v, gen);
    std::fill(h2.begin(), h2.end(), 42);
    EXPECT_EQ(to_vector(v), h2);
    EXPECT_EQ(offset(KE::generate_n(space, KE::begin(out), n, gen), out), n);
    std::fill_n(expect.begin(), n, 42);
    EXPECT_EQ(to_vector(out), expect);
    // replace family on fresh copies of the data
    auto a = contiguous(h), c = contiguous(h);
    h2 = h;
    KE::replace(space, a, 3, 30);
    std::replace(h2.begin(), h2.end(), 3, 30);
    EXPECT_EQ(to_vector(a), h2);
    KE::replace_if(space, KE::begin(a), KE::end(a), IsMultipleOf{2}, -2);
    std::replace_if(h2.begin(), h2.end(), IsMultipleOf{2}, -2);
    EXPECT_EQ(to_vector(a), h2);
    std::replace_copy(h.begin(), h.end(), expect.begin(), 5, 50);
    check(offset(KE::replace_copy(space, c, out, 5, 50), out), n, "replace_copy");
    std::replace_copy_if(h.begin(), h.end(), expect.begin(), IsLess{4}, 0);
    check(offset(KE::replace_copy_if(space, KE::cbegin(c), KE::cend(c), KE::begin(out), IsLess{4}, 0), out), n,
          "replace_copy_if");
    // move, move_backward, swap_ranges
    auto m = contiguous(h);
    std::copy(h.begin(), h.end(), expect.begin());
    check(offset(KE::move(space, m, out), out), n, "move");
    std::copy_backward(h.begin(), h.end(), expect.end());
    check(offset(KE::move_backward(space, KE::begin(m), KE::end(m), KE::end(out)), out), 2, "move_backward");
    auto x = contiguous(h), y = contiguous(std::vector<int>(h.rbegin(), h.rend()));
    EXPECT_EQ(offset(KE::swap_ranges(space, x, y), y), n);
    EXPECT_EQ(to_vector(x), std::vector<int>(h.rbegin(), h.rend()));
    EXPECT_EQ(to_vector(y), h);
    EXPECT_TRUE(sentinels_intact(v));
  });
}

TEST(StdModifyingElementwise, ForEachReturnsTheFunctorAndVisitsEveryElement) {
  Kokkos::DefaultHostExecutionSpace space;
  for_each_layout(10, 22, [&](const auto& v, const std::vector<int>& h) {
    auto h2 = h;
    struct AddThree {
      int tag;
      KOKKOS_INLINE_FUNCTION void operator()(int& x) const { x += 3; }
    };
    const AddThree f = KE::for_each(space, v, AddThree{17});
    EXPECT_EQ(f.tag, 17);
    for (auto& e : h2) e += 3;
    EXPECT_EQ(to_vector(v), h2);
    const std::ptrdiff_t half = h.size() / 2;
    EXPECT_EQ(KE::for_each_n("label", space, KE::begin(v), half, AddThree{0}) - KE::begin(v), half);
    for (std::ptrdiff_t i = 0; i < half; ++i) h2[i] += 3;
    EXPECT_EQ(to_vector(v), h2);
    EXPECT_TRUE(sentinels_intact(v));
  });
}

// Reordering algorithms: every back end's parallel order must give std's result.
TYPED_TEST(StdModifying, ReverseRotateShiftMatchStd) {
  TypeParam space;
  for_each_layout(1000, 23, [&](const auto& v, const std::vector<int>& h) {
    const std::ptrdiff_t n = h.size();
    auto h2 = h;
    KE::reverse(space, v);
    std::reverse(h2.begin(), h2.end());
    EXPECT_EQ(to_vector(v), h2);
    Contiguous out("out", n);
    EXPECT_EQ(offset(KE::reverse_copy(space, v, out), out), n);
    EXPECT_EQ(to_vector(out), h);
    for (std::ptrdiff_t k : {std::ptrdiff_t(0), n / 3, n}) {
      auto r = contiguous(h);
      auto s = h;
      const auto it = KE::rotate(space, KE::begin(r), KE::begin(r) + k, KE::end(r));
      const auto sit = std::rotate(s.begin(), s.begin() + k, s.end());
      EXPECT_EQ(it - KE::begin(r), sit - s.begin());
      EXPECT_EQ(to_vector(r), s);
      EXPECT_EQ(offset(KE::rotate_copy(space, v, k, out), out), n);
      auto sv = to_vector(v);
      std::vector<int> rc(n);
      std::rotate_copy(sv.begin(), sv.begin() + k, sv.end(), rc.begin());
      EXPECT_EQ(to_vector(out), rc);
    }
    for (std::ptrdiff_t shift : {std::ptrdiff_t(0), std::ptrdiff_t(1), n / 2 + 1, n, n + 5}) {
      auto l = contiguous(h), r = contiguous(h);
      auto sl = h, sr = h;
      const auto lit = KE::shift_left(space, l, shift);
      const auto slit = std::shift_left(sl.begin(), sl.end(), shift);
      EXPECT_EQ(lit - KE::begin(l), slit - sl.begin());
      // std leaves the vacated tail in a valid but unspecified state: compare the kept part
      const auto lv = to_vector(l);
      EXPECT_EQ(std::vector<int>(lv.begin(), lv.begin() + (slit - sl.begin())), std::vector<int>(sl.begin(), slit));
      const auto rit = KE::shift_right(space, KE::begin(r), KE::end(r), shift);
      const auto srit = std::shift_right(sr.begin(), sr.end(), shift);
      EXPECT_EQ(rit - KE::begin(r), srit - sr.begin());
      const auto rv = to_vector(r);
      EXPECT_EQ(std::vector<int>(rv.begin() + (srit - sr.begin()), rv.end()), std::vector<int>(srit, sr.end()));
    }
    EXPECT_TRUE(sentinels_intact(v));
  });
}

// Compactions are scans: every back end's partial counts must place each element where std does.
TYPED_TEST(StdModifying, CompactionsMatchStd) {
  TypeParam space;
  for_each_layout(4, 24, [&](const auto& v, const std::vector<int>& h) {
    const std::ptrdiff_t n = h.size();
    Contiguous out("out", n), out2("out2", n);
    std::vector<int> expect(n), expect2(n);
    auto prefix = [](const Contiguous& o, std::ptrdiff_t k) {
      auto all = to_vector(o);
      return std::vector<int>(all.begin(), all.begin() + k);
    };
    auto check = [&](std::ptrdiff_t got, std::vector<int>::iterator std_end, const char* what) {
      const auto k = std_end - expect.begin();
      EXPECT_EQ(got, k) << what;
      EXPECT_EQ(prefix(out, k), std::vector<int>(expect.begin(), std_end)) << what;
    };
    check(offset(KE::copy_if(space, v, out, IsMultipleOf{2}), out),
          std::copy_if(h.begin(), h.end(), expect.begin(), IsMultipleOf{2}), "copy_if");
    check(offset(KE::remove_copy(space, KE::cbegin(v), KE::cend(v), KE::begin(out), 1), out),
          std::remove_copy(h.begin(), h.end(), expect.begin(), 1), "remove_copy");
    check(offset(KE::remove_copy_if("label", space, v, out, IsLess{2}), out),
          std::remove_copy_if(h.begin(), h.end(), expect.begin(), IsLess{2}), "remove_copy_if");
    check(offset(KE::unique_copy(space, v, out), out), std::unique_copy(h.begin(), h.end(), expect.begin()),
          "unique_copy");
    const auto [t, f] = KE::partition_copy(space, v, out, out2, IsLess{2});
    const auto [st, sf] = std::partition_copy(h.begin(), h.end(), expect.begin(), expect2.begin(), IsLess{2});
    EXPECT_EQ(offset(t, out), st - expect.begin());
    EXPECT_EQ(offset(f, out2), sf - expect2.begin());
    EXPECT_EQ(prefix(out, st - expect.begin()), std::vector<int>(expect.begin(), st));
    EXPECT_EQ(prefix(out2, sf - expect2.begin()), std::vector<int>(expect2.begin(), sf));
    // in place
    auto check_in_place = [&](auto make, auto std_op, const char* what) {
      auto w = contiguous(h);
      auto s = h;
      const auto k = make(w) - KE::begin(w);
      const auto sk = std_op(s) - s.begin();
      EXPECT_EQ(k, sk) << what;
      auto got = to_vector(w);
      EXPECT_EQ(std::vector<int>(got.begin(), got.begin() + k), std::vector<int>(s.begin(), s.begin() + sk)) << what;
    };
    check_in_place([&](auto& w) { return KE::unique(space, w); }, [](auto& s) { return std::unique(s.begin(), s.end()); },
                   "unique");
    // a predicate must be an equivalence (std's precondition): same parity.  Each group keeps
    // its first element, as std does.
    auto same_parity = [=](int a, int b) { return (a - b) % 2 == 0; };
    check_in_place([&](auto& w) { return KE::unique(space, KE::begin(w), KE::end(w), same_parity); },
                   [&](auto& s) { return std::unique(s.begin(), s.end(), same_parity); }, "unique with predicate");
    check_in_place([&](auto& w) { return KE::remove(space, w, 0); },
                   [](auto& s) { return std::remove(s.begin(), s.end(), 0); }, "remove");
    check_in_place([&](auto& w) { return KE::remove_if(space, KE::begin(w), KE::end(w), IsMultipleOf{3}); },
                   [](auto& s) { return std::remove_if(s.begin(), s.end(), IsMultipleOf{3}); }, "remove_if");
  });
}

TEST(StdModifyingMisc, IterSwapAndMisuse) {
  Kokkos::DefaultHostExecutionSpace space;
  Contiguous v("v", 5);
  for (int i = 0; i < 5; ++i) v(i) = i;
  KE::iter_swap(KE::begin(v) + 1, KE::begin(v) + 4);
  EXPECT_EQ(to_vector(v), (std::vector<int>{0, 4, 2, 3, 1}));
  auto expect_message = [](auto&& call, const std::string& what, const std::string& detail) {
    try {
      call();
      ADD_FAILURE() << "no exception for " << what;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(detail), std::string::npos) << e.what();
    }
  };
  Contiguous shorter("shorter", 4);
  expect_message([&] { KE::copy(space, v, shorter); }, "Kokkos::Experimental::copy", "shorter");
  expect_message([&] { KE::transform(space, v, shorter, IsLess{1}); }, "Kokkos::Experimental::transform", "shorter");
  expect_message([&] { KE::fill(space, KE::end(v), KE::begin(v), 1); }, "Kokkos::Experimental::fill", "precedes");
  expect_message([&] { KE::for_each_n(space, v, -1, IsLess{1}); }, "Kokkos::Experimental::for_each_n", "negative");
  expect_message([&] { KE::shift_left(space, v, -2); }, "Kokkos::Experimental::shift_left", "negative");
  expect_message([&] { KE::rotate(space, KE::begin(v), KE::end(v) + 1, KE::end(v)); }, "Kokkos::Experimental::rotate",
                 "middle");
  EXPECT_EQ(to_vector(v), (std::vector<int>{0, 4, 2, 3, 1}));  // nothing ran
}

// Raw pointers into host memory are random-access iterators too.
TEST(StdModifyingMisc, RawPointersIntoHostMemory) {
  Kokkos::DefaultHostExecutionSpace space;
  std::vector<int> data(1000);
  int* first = data.data();
  int* last = first + data.size();
  KE::generate(space, first, last, KOKKOS_LAMBDA() { return 3; });
  KE::fill_n(space, first, 10, 6);
  EXPECT_EQ(KE::count(space, first, last, 3), 990);
  EXPECT_EQ(KE::remove_if(space, first, last, IsMultipleOf{2}), first + 990);
  EXPECT_EQ(KE::find(space, first, last, 6), last);
  std::vector<int> out(1000);
  EXPECT_EQ(KE::inclusive_scan(space, first, first + 990, out.data()), out.data() + 990);
  EXPECT_EQ(out[989], 3 * 990);
}

// The element-wise algorithms declare their accesses: a chain of them over Views and View
// iterators is one fused launch, and the reduction at its end joins it.
struct StdFusion : Kokkos::Test::FusionFixture {};

TEST_F(StdFusion, ElementwiseAlgorithmsFuseIntoOneLaunch) {
  Kokkos::DefaultHostExecutionSpace space;
  const int n = 10000;
  Kokkos::View<double*, Kokkos::HostSpace> x("x", n), y("y", n), z("z", n);
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> m("m", n, 2);
  auto column = Kokkos::subview(m, Kokkos::ALL, 1);  // strided
  double total = 0;
  std::ptrdiff_t found = 0;
  {
    KE::FusionScope scope;
    KE::fill(space, x, 2.0);
    KE::transform(space, KE::cbegin(x), KE::cend(x), KE::begin(y), KOKKOS_LAMBDA(double a) { return a * 3.0; });
    KE::for_each(space, y, KOKKOS_LAMBDA(double& a) { a += 1.0; });                            // 7
    KE::copy(space, y, column);
    KE::replace_if(space, column, KOKKOS_LAMBDA(double a) { return a > 6.0; }, 8.0);            // 8
    KE::transform("label", space, x, column, z, KOKKOS_LAMBDA(double a, double b) { return a + b; });  // 10
    KE::generate(space, KE::begin(x), KE::end(x), KOKKOS_LAMBDA() { return 1.0; });
    total = KE::reduce(space, z);
    found = KE::find(space, x, 2.0) - KE::begin(x);
  }
  EXPECT_EQ(total, 10.0 * n);
  EXPECT_EQ(found, n);  // not found: end
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(y(i), 7.0);
    ASSERT_EQ(m(i, 1), 8.0);
    ASSERT_EQ(m(i, 0), 0.0);
  }
  const auto s = KE::fusion_statistics();
  EXPECT_EQ(s.launches_recorded, 8u);  // find comes after the reduce's flush: it runs alone
  EXPECT_EQ(s.fused_launches, 1u);
  EXPECT_EQ(s.max_fused_length, 8u);
}

}  // namespace

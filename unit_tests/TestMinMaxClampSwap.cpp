// Kokkos::min, max, minmax, clamp and kokkos_swap: values and, for ties, which argument is
// returned (by address, as std specifies), constexpr use, comparators, and calls from a kernel.
#include "TestCommon.hpp"

#include <Kokkos_Array.hpp>
#include <Kokkos_Clamp.hpp>
#include <Kokkos_MinMax.hpp>
#include <Kokkos_Swap.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace {

// Compares by key only, so equal keys with different tags tell which element was returned.
struct Tagged {
  int key;
  int tag;
  friend constexpr bool operator<(const Tagged& a, const Tagged& b) { return a.key < b.key; }
};
constexpr auto greater_key = [](const Tagged& a, const Tagged& b) { return a.key > b.key; };

static_assert(Kokkos::max(1, 2) == 2 && Kokkos::min(1, 2) == 1);
static_assert(Kokkos::max({4, 9, 2}) == 9 && Kokkos::min({4, 9, 2}) == 2);
static_assert(Kokkos::max({4}) == 4 && Kokkos::min({4}) == 4);
static_assert(Kokkos::minmax(3, 1).first == 1 && Kokkos::minmax(3, 1).second == 3);
static_assert(Kokkos::minmax({5, 1, 9, 3}).first == 1 && Kokkos::minmax({5, 1, 9, 3}).second == 9);
static_assert(Kokkos::clamp(5, 0, 3) == 3 && Kokkos::clamp(-5, 0, 3) == 0 && Kokkos::clamp(2, 0, 3) == 2);
static_assert(Kokkos::max(1, 2, [](int a, int b) { return a > b; }) == 1);

constexpr int swapped_in_constexpr() {
  int a = 1, b = 2;
  Kokkos::kokkos_swap(a, b);
  return a * 10 + b;
}
static_assert(swapped_in_constexpr() == 21);

TEST(MinMax, TwoArgumentTiesReturnTheFirstLikeStd) {
  const Tagged a{1, 0}, b{1, 1};
  EXPECT_EQ(&Kokkos::max(a, b), &std::max(a, b));
  EXPECT_EQ(&Kokkos::max(a, b), &a);
  EXPECT_EQ(&Kokkos::min(a, b), &a);
  EXPECT_EQ(&Kokkos::min(b, a), &b);
  EXPECT_EQ(&Kokkos::max(a, b, greater_key), &std::max(a, b, greater_key));
  EXPECT_EQ(&Kokkos::min(a, b, greater_key), &std::min(a, b, greater_key));
  // minmax of equal elements: (a, b), as std.
  const auto mm = Kokkos::minmax(a, b);
  const auto smm = std::minmax(a, b);
  EXPECT_EQ(&mm.first, &smm.first);
  EXPECT_EQ(&mm.second, &smm.second);
  EXPECT_EQ(&mm.first, &a);
  EXPECT_EQ(&mm.second, &b);
  const auto mmc = Kokkos::minmax(a, b, greater_key);
  EXPECT_EQ(&mmc.first, &a);
  EXPECT_EQ(&mmc.second, &b);
  // Distinct values: references to the arguments themselves.
  const Tagged lo{0, 2}, hi{5, 3};
  EXPECT_EQ(&Kokkos::max(lo, hi), &hi);
  EXPECT_EQ(&Kokkos::min(hi, lo), &lo);
  const auto r = Kokkos::minmax(hi, lo);
  EXPECT_EQ(&r.first, &lo);
  EXPECT_EQ(&r.second, &hi);
  const auto rc = Kokkos::minmax(lo, hi, greater_key);
  EXPECT_EQ(&rc.first, &hi);
  EXPECT_EQ(&rc.second, &lo);
}

TEST(MinMax, ListFormsMatchStdOnTies) {
  // First smallest, first largest for min/max; first smallest and last largest for minmax.
  const std::initializer_list<Tagged> lists[] = {
      {{3, 0}, {1, 1}, {3, 2}, {1, 3}},
      {{2, 0}},
      {{7, 0}, {7, 1}, {7, 2}},
      {{1, 0}, {2, 1}, {3, 2}, {3, 3}, {0, 4}, {0, 5}},
      {{5, 0}, {4, 1}},
  };
  for (const auto& list : lists) {
    EXPECT_EQ(Kokkos::max(list).tag, std::max(list).tag);
    EXPECT_EQ(Kokkos::min(list).tag, std::min(list).tag);
    EXPECT_EQ(Kokkos::minmax(list).first.tag, std::minmax(list).first.tag);
    EXPECT_EQ(Kokkos::minmax(list).second.tag, std::minmax(list).second.tag);
    EXPECT_EQ(Kokkos::max(list, greater_key).tag, std::max(list, greater_key).tag);
    EXPECT_EQ(Kokkos::min(list, greater_key).tag, std::min(list, greater_key).tag);
    EXPECT_EQ(Kokkos::minmax(list, greater_key).first.tag, std::minmax(list, greater_key).first.tag);
    EXPECT_EQ(Kokkos::minmax(list, greater_key).second.tag, std::minmax(list, greater_key).second.tag);
  }
  static_assert(std::is_same_v<decltype(Kokkos::minmax({1, 2})), Kokkos::pair<int, int>>);
  static_assert(std::is_same_v<decltype(Kokkos::minmax(1, 2)), Kokkos::pair<const int&, const int&>>);
  static_assert(std::is_same_v<decltype(Kokkos::max(1, 2)), const int&>);
  static_assert(std::is_same_v<decltype(Kokkos::max({1, 2})), int>);
}

TEST(MinMax, FloatingPointNaNAndSignedZeroFollowOperatorLess) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Comparisons with NaN are false, so the first argument comes back, as with std.
  EXPECT_TRUE(std::isnan(Kokkos::max(nan, 1.0)));
  EXPECT_EQ(Kokkos::max(1.0, nan), 1.0);
  EXPECT_TRUE(std::isnan(Kokkos::min(nan, 1.0)));
  EXPECT_TRUE(std::signbit(Kokkos::max(-0.0, 0.0)));
  EXPECT_FALSE(std::signbit(Kokkos::min(0.0, -0.0)));
}

TEST(Clamp, BoundsAndTies) {
  const Tagged lo{0, 0}, hi{10, 1};
  const Tagged below{-3, 2}, inside{4, 3}, above{11, 4}, at_lo{0, 5}, at_hi{10, 6};
  EXPECT_EQ(&Kokkos::clamp(below, lo, hi), &lo);
  EXPECT_EQ(&Kokkos::clamp(above, lo, hi), &hi);
  EXPECT_EQ(&Kokkos::clamp(inside, lo, hi), &inside);
  // A value equal to a bound is returned itself, as std::clamp does.
  EXPECT_EQ(&Kokkos::clamp(at_lo, lo, hi), &at_lo);
  EXPECT_EQ(&Kokkos::clamp(at_hi, lo, hi), &at_hi);
  EXPECT_EQ(&Kokkos::clamp(at_lo, lo, hi), &std::clamp(at_lo, lo, hi));
  // With a comparator the order is the comparator's: bounds (hi, lo) under "greater".
  EXPECT_EQ(&Kokkos::clamp(below, hi, lo, greater_key), &lo);
  EXPECT_EQ(&Kokkos::clamp(above, hi, lo, greater_key), &hi);
  EXPECT_EQ(&Kokkos::clamp(inside, hi, lo, greater_key), &inside);
  EXPECT_EQ(&Kokkos::clamp(inside, hi, lo, greater_key), &std::clamp(inside, hi, lo, greater_key));
  // Equal bounds.
  EXPECT_EQ(Kokkos::clamp(7, 3, 3), 3);
  EXPECT_EQ(Kokkos::clamp(1.5, -1.0, 1.0), 1.0);
}

struct MoveOnly {
  int value;
  explicit MoveOnly(int v) : value(v) {}
  MoveOnly(MoveOnly&& o) noexcept : value(o.value) { o.value = -1; }
  MoveOnly& operator=(MoveOnly&& o) noexcept {
    value = o.value;
    o.value = -1;
    return *this;
  }
};
struct ThrowingMove {
  ThrowingMove() = default;
  ThrowingMove(ThrowingMove&&) noexcept(false) {}
  ThrowingMove& operator=(ThrowingMove&&) noexcept(false) { return *this; }
};
struct Pinned {
  Pinned() = default;
  Pinned(Pinned&&) = delete;
};

template <class T, class = void>
struct can_kokkos_swap : std::false_type {};
template <class T>
struct can_kokkos_swap<T, std::void_t<decltype(Kokkos::kokkos_swap(std::declval<T&>(), std::declval<T&>()))>>
    : std::true_type {};

TEST(Swap, ValuesArraysAndNoexcept) {
  int a = 1, b = 2;
  Kokkos::kokkos_swap(a, b);
  EXPECT_EQ(a, 2);
  EXPECT_EQ(b, 1);
  Kokkos::kokkos_swap(a, a);  // self-swap keeps the value
  EXPECT_EQ(a, 2);

  std::string s = "left", t = "right";
  Kokkos::kokkos_swap(s, t);
  EXPECT_EQ(s, "right");
  EXPECT_EQ(t, "left");

  MoveOnly m(3), n(4);
  Kokkos::kokkos_swap(m, n);
  EXPECT_EQ(m.value, 4);
  EXPECT_EQ(n.value, 3);

  double x[3] = {1, 2, 3}, y[3] = {4, 5, 6};
  Kokkos::kokkos_swap(x, y);
  EXPECT_EQ(x[0], 4);
  EXPECT_EQ(x[2], 6);
  EXPECT_EQ(y[1], 2);

  Kokkos::Array<int, 3> u{1, 2, 3}, v{7, 8, 9};
  kokkos_swap(u, v);  // Array's own, found by argument-dependent lookup
  EXPECT_EQ(u[0], 7);
  EXPECT_EQ(v[2], 3);
  Kokkos::kokkos_swap(u, v);  // the generic one, same result
  EXPECT_EQ(u[0], 1);
  EXPECT_EQ(v[2], 9);
  Kokkos::Array<int, 3> arrays_a[2] = {{1, 1, 1}, {2, 2, 2}}, arrays_b[2] = {{3, 3, 3}, {4, 4, 4}};
  Kokkos::kokkos_swap(arrays_a, arrays_b);
  EXPECT_EQ(arrays_a[1][0], 4);
  EXPECT_EQ(arrays_b[0][2], 1);

  int grid_a[2][3] = {{1, 2, 3}, {4, 5, 6}}, grid_b[2][3] = {{7, 8, 9}, {10, 11, 12}};
  Kokkos::kokkos_swap(grid_a, grid_b);
  EXPECT_EQ(grid_a[0][0], 7);
  EXPECT_EQ(grid_a[1][2], 12);
  EXPECT_EQ(grid_b[1][0], 4);
  static_assert(noexcept(Kokkos::kokkos_swap(grid_a, grid_b)));
  static_assert(can_kokkos_swap<MoveOnly[2][2]>::value && !can_kokkos_swap<Pinned[2][2]>::value);

  static_assert(noexcept(Kokkos::kokkos_swap(a, b)));
  static_assert(noexcept(Kokkos::kokkos_swap(x, y)));
  static_assert(noexcept(kokkos_swap(u, v)));
  ThrowingMove p, q;
  static_assert(!noexcept(Kokkos::kokkos_swap(p, q)));
  ThrowingMove pa[2], qa[2];
  static_assert(!noexcept(Kokkos::kokkos_swap(pa, qa)));
  static_assert(!can_kokkos_swap<Pinned>::value);
  static_assert(!can_kokkos_swap<Pinned[2]>::value);
  static_assert(can_kokkos_swap<MoveOnly[2]>::value);
  static_assert(Kokkos::Impl::is_swappable_v<int> && !Kokkos::Impl::is_swappable_v<Pinned>);
}

// Called from a kernel on the default execution space.
TEST(MinMax, InsideParallelReduce) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  const int n = 1000;
  Kokkos::View<double*> values("values", n);
  Kokkos::parallel_for(
      "fill", n, KOKKOS_LAMBDA(int i) { values(i) = (i * 37 % 101) - 50.0; });
  double lowest = 0, clamped_sum = 0;
  Kokkos::parallel_reduce(
      "min", n, KOKKOS_LAMBDA(int i, double& m) { m = Kokkos::min(m, values(i)); }, Kokkos::Min<double>(lowest));
  Kokkos::parallel_reduce(
      "clamp", n,
      KOKKOS_LAMBDA(int i, double& s) {
        double v = values(i), w = -v;
        Kokkos::kokkos_swap(v, w);
        const auto mm = Kokkos::minmax(v, w);
        s += Kokkos::clamp(mm.second - mm.first, 0.0, 10.0) + Kokkos::max({v, w, 0.0}) * 0;
      },
      clamped_sum);
  double expected_sum = 0;
  double expected_min = 1e9;
  for (int i = 0; i < n; ++i) {
    const double v = (i * 37 % 101) - 50.0;
    expected_min = std::min(expected_min, v);
    expected_sum += std::clamp(2 * std::abs(v), 0.0, 10.0);
  }
  EXPECT_EQ(lowest, expected_min);
  EXPECT_EQ(clamped_sum, expected_sum);
}

}  // namespace

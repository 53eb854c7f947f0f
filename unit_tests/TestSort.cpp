// Kokkos::sort, Experimental::sort_by_key and the nested team/thread sorts: every result is
// compared with std::sort of the same data (sizes on both sides of the parallel threshold, so
// both the single-thread and the parallel merge paths run), on every back end.
#include "TestCommon.hpp"

#include <Kokkos_Random.hpp>
#include <Kokkos_NestedSort.hpp>
#include <Kokkos_Sort.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace {

template <class Space>
struct Sort : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(Sort, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

enum class Pattern { random, few_distinct, sorted, reversed };

template <class T>
std::vector<T> make_data(std::size_t n, Pattern pattern, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (pattern) {
      case Pattern::random:
        v[i] = static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
        break;
      case Pattern::few_distinct:
        v[i] = static_cast<T>(rng() % 7);
        break;
      case Pattern::sorted:
        v[i] = static_cast<T>(i);
        break;
      case Pattern::reversed:
        v[i] = static_cast<T>(n - i);
        break;
    }
  }
  return v;
}

template <class View, class T>
void copy_in(const View& view, const std::vector<T>& data) {
  auto h = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < data.size(); ++i) h(i) = data[i];
  Kokkos::deep_copy(view, h);
}

template <class View>
auto copy_out(const View& view) {
  auto h = Kokkos::create_mirror_view(view);
  Kokkos::deep_copy(h, view);
  std::vector<typename View::non_const_value_type> out(view.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = h(i);
  return out;
}

// Sizes: trivial, below the parallel threshold, and above it with uneven blocks.
const std::size_t sizes[] = {0, 1, 2, 3, 17, 1000, 40000, 100003};

TYPED_TEST(Sort, MatchesStdSort) {
  using Space = TypeParam;
  for (std::size_t n : sizes) {
    for (Pattern p : {Pattern::random, Pattern::few_distinct, Pattern::sorted, Pattern::reversed}) {
      const auto data = make_data<double>(n, p, static_cast<unsigned>(n));
      Kokkos::View<double*, Space> view("view", n);
      copy_in(view, data);
      Kokkos::sort(view);
      auto expected = data;
      std::sort(expected.begin(), expected.end());
      ASSERT_EQ(copy_out(view), expected) << "n = " << n << " pattern " << int(p);
    }
  }
}

TYPED_TEST(Sort, ExecutionSpaceAndComparator) {
  using Space = TypeParam;
  const std::size_t n = 70001;
  const auto data = make_data<int>(n, Pattern::random, 3);
  Kokkos::View<int*, Space> view("view", n);
  copy_in(view, data);
  Space exec;
  Kokkos::sort(exec, view, KOKKOS_LAMBDA(int a, int b) { return a > b; });
  exec.fence();
  auto expected = data;
  std::sort(expected.begin(), expected.end(), std::greater<int>());
  EXPECT_EQ(copy_out(view), expected);

  // Ordering by a derived key: absolute value, without an execution space.
  copy_in(view, data);
  Kokkos::sort(view, KOKKOS_LAMBDA(int a, int b) { return (a < 0 ? -a : a) < (b < 0 ? -b : b); });
  const auto out = copy_out(view);
  for (std::size_t i = 1; i < n; ++i) ASSERT_LE(std::abs(out[i - 1]), std::abs(out[i]));
  auto multiset = out;
  std::sort(multiset.begin(), multiset.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(multiset, expected);

  copy_in(view, data);
  Kokkos::sort(exec, view);
  exec.fence();
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(copy_out(view), expected);
}

TYPED_TEST(Sort, StridedView) {
  using Space = TypeParam;
  const std::size_t n = 50000;
  Kokkos::View<float**, Kokkos::LayoutRight, Space> matrix("matrix", n, 3);
  const auto data = make_data<float>(n, Pattern::random, 7);
  auto h = Kokkos::create_mirror_view(matrix);
  for (std::size_t i = 0; i < n; ++i) {
    h(i, 0) = -1;
    h(i, 1) = data[i];
    h(i, 2) = -2;
  }
  Kokkos::deep_copy(matrix, h);
  Kokkos::View<float*, Kokkos::LayoutStride, Space> column = Kokkos::subview(matrix, Kokkos::ALL, 1);
  Kokkos::sort(column);
  Kokkos::deep_copy(h, matrix);
  auto expected = data;
  std::sort(expected.begin(), expected.end());
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(h(i, 1), expected[i]);
    ASSERT_EQ(h(i, 0), -1);
    ASSERT_EQ(h(i, 2), -2);
  }
  // LayoutLeft.
  Kokkos::View<float*, Kokkos::LayoutLeft, Space> left("left", n);
  copy_in(left, data);
  Kokkos::sort(Space(), left, KOKKOS_LAMBDA(float a, float b) { return a > b; });
  Space().fence();
  std::reverse(expected.begin(), expected.end());
  EXPECT_EQ(copy_out(left), expected);
}

TYPED_TEST(Sort, SubRange) {
  using Space = TypeParam;
  const std::size_t n = 60000, begin = 1234, end = 55555;
  const auto data = make_data<long>(n, Pattern::random, 11);
  Kokkos::View<long*, Space> view("view", n);
  copy_in(view, data);
  Kokkos::sort(view, begin, end);
  auto expected = data;
  std::sort(expected.begin() + begin, expected.begin() + end);
  EXPECT_EQ(copy_out(view), expected);
  copy_in(view, data);
  Kokkos::sort(Space(), view, 0, 10);
  Space().fence();
  expected = data;
  std::sort(expected.begin(), expected.begin() + 10);
  EXPECT_EQ(copy_out(view), expected);
  EXPECT_THROW(Kokkos::sort(view, 10, n + 1), std::runtime_error);
}

TYPED_TEST(Sort, SortByKeyWithDuplicates) {
  using Space = TypeParam;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(500), std::size_t(90001)}) {
    const auto keys_in = make_data<int>(n, Pattern::few_distinct, 5);
    Kokkos::View<int*, Space> keys("keys", n);
    Kokkos::View<std::int64_t*, Space> values("values", n);
    copy_in(keys, keys_in);
    std::vector<std::int64_t> index(n);
    for (std::size_t i = 0; i < n; ++i) index[i] = static_cast<std::int64_t>(i);
    copy_in(values, index);
    Kokkos::Experimental::sort_by_key(Space(), keys, values);
    Space().fence();
    const auto k = copy_out(keys);
    const auto v = copy_out(values);
    auto expected = keys_in;
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(k, expected);
    // Each value still travels with its own key, and every value is there once.
    std::vector<char> seen(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(keys_in[v[i]], k[i]);
      ASSERT_EQ(seen[v[i]], 0);
      seen[v[i]] = 1;
    }
  }
}

TYPED_TEST(Sort, SortByKeyComparatorAndStrides) {
  using Space = TypeParam;
  const std::size_t n = 45000;
  const auto keys_in = make_data<double>(n, Pattern::random, 9);
  Kokkos::View<double*, Space> keys("keys", n);
  copy_in(keys, keys_in);
  Kokkos::View<int**, Space> pairs("pairs", n, 2);
  auto values = Kokkos::subview(pairs, Kokkos::ALL, 1);  // LayoutStride values
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { values(i) = i; });
  Kokkos::Experimental::sort_by_key(Space(), keys, values, KOKKOS_LAMBDA(double a, double b) { return a > b; });
  Space().fence();
  const auto k = copy_out(keys);
  const auto v = copy_out(values);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) {
      ASSERT_GE(k[i - 1], k[i]);
    }
    ASSERT_EQ(keys_in[v[i]], k[i]);
  }
}

TEST(SortByKey, MismatchedExtentsAbort) {
  Kokkos::View<int*, Kokkos::DefaultHostExecutionSpace> keys("keys", 10), values("values", 9);
  EXPECT_DEATH(Kokkos::Experimental::sort_by_key(Kokkos::DefaultHostExecutionSpace(), keys, values),
               "values and keys extents must be the same");
}

// ---- nested sorts -------------------------------------------------------------------------

TYPED_TEST(Sort, TeamAndThreadSorts) {
  using Space = TypeParam;
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  const int rows = 37, cols = 203;  // not a power of two
  std::vector<int> data = make_data<int>(std::size_t(rows) * cols, Pattern::random, 21);
  Kokkos::View<int**, Kokkos::LayoutRight, Space> a("a", rows, cols), b("b", rows, cols), c("c", rows, cols);
  Kokkos::View<int**, Kokkos::LayoutRight, Space> va("va", rows, cols), vc("vc", rows, cols);
  auto fill = [&](auto view) {
    auto h = Kokkos::create_mirror_view(view);
    for (int r = 0; r < rows; ++r) {
      for (int j = 0; j < cols; ++j) h(r, j) = data[std::size_t(r) * cols + j];
    }
    Kokkos::deep_copy(view, h);
  };
  fill(a);
  fill(b);
  fill(c);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, rows), KOKKOS_LAMBDA(int r) {
        for (int j = 0; j < cols; ++j) va(r, j) = vc(r, j) = j;
      });
  // Teams as large as the space allows, so that the network's steps are split between threads.
  Kokkos::parallel_for(
      Kokkos::TeamPolicy<Space>(rows, Space().concurrency()), KOKKOS_LAMBDA(const Member& t) {
        const int r = t.league_rank();
        Kokkos::Experimental::sort_by_key_team(t, Kokkos::subview(a, r, Kokkos::ALL), Kokkos::subview(va, r, Kokkos::ALL));
        Kokkos::Experimental::sort_team(t, Kokkos::subview(b, r, Kokkos::ALL), [](int x, int y) { return x > y; });
      });
  // Each thread of a team sorts its own rows.
  Kokkos::parallel_for(
      Kokkos::TeamPolicy<Space>(1, Space().concurrency()), KOKKOS_LAMBDA(const Member& t) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(t, rows), [&](int r) {
          Kokkos::Experimental::sort_by_key_thread(t, Kokkos::subview(c, r, Kokkos::ALL),
                                                   Kokkos::subview(vc, r, Kokkos::ALL));
        });
      });
  Kokkos::fence();
  auto ha = Kokkos::create_mirror_view(a);
  auto hb = Kokkos::create_mirror_view(b);
  auto hva = Kokkos::create_mirror_view(va);
  auto hc = Kokkos::create_mirror_view(c);
  auto hvc = Kokkos::create_mirror_view(vc);
  Kokkos::deep_copy(hc, c);
  Kokkos::deep_copy(hvc, vc);
  Kokkos::deep_copy(ha, a);
  Kokkos::deep_copy(hb, b);
  Kokkos::deep_copy(hva, va);
  for (int r = 0; r < rows; ++r) {
    std::vector<int> expected(data.begin() + std::size_t(r) * cols, data.begin() + std::size_t(r + 1) * cols);
    const auto original = expected;
    std::sort(expected.begin(), expected.end());
    for (int j = 0; j < cols; ++j) {
      ASSERT_EQ(ha(r, j), expected[j]);
      ASSERT_EQ(original[hva(r, j)], ha(r, j));
      ASSERT_EQ(hb(r, j), expected[cols - 1 - j]);
      ASSERT_EQ(hc(r, j), expected[j]);
      ASSERT_EQ(original[hvc(r, j)], hc(r, j));
    }
  }
}

}  // namespace

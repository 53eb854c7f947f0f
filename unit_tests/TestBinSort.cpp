// Kokkos::BinSort with BinOp1D and BinOp3D: bin counts and offsets against a count made here,
// the permutation (a permutation, bins in order, sorted within bins on request), the sort of
// keys and of other Views by it, and sub-ranges; on every back end.
#include "TestCommon.hpp"

#include <Kokkos_Random.hpp>
#include <Kokkos_Sort.hpp>

#include <algorithm>
#include <vector>

namespace {

template <class Space>
struct BinSortTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(BinSortTest, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// A copy, never an alias (create_mirror_view of a host View is the View itself).
template <class View>
auto host_copy(const View& v) {
  auto h = Kokkos::create_mirror(v);
  Kokkos::deep_copy(h, v);
  return h;
}

TYPED_TEST(BinSortTest, OneDimensionalBins) {
  using Space = TypeParam;
  using KeyView = Kokkos::View<double*, Space>;
  const int n = 20000, bins = 50;
  KeyView keys("keys", n);
  Kokkos::Random_XorShift64_Pool<Space> pool(17);
  Kokkos::fill_random(keys, pool, -3.0, 5.0);
  Kokkos::View<int*, Space> values("values", n);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { values(i) = i; });
  const auto original = host_copy(keys);
  double lo = original(0), hi = original(0);
  for (int i = 0; i < n; ++i) {
    lo = std::min(lo, original(i));
    hi = std::max(hi, original(i));
  }

  using Op = Kokkos::BinOp1D<KeyView>;
  Op op(bins, lo, hi);
  ASSERT_EQ(op.max_bins(), bins + 1);
  Kokkos::BinSort<KeyView, Op> bin_sort(keys, op, /*sort_within_bins=*/true);
  bin_sort.create_permute_vector();
  bin_sort.create_permute_vector();  // again: the counts start from zero each time

  std::vector<int> expected_count(bins + 1, 0);
  for (int i = 0; i < n; ++i) ++expected_count[static_cast<int>(bins / (hi - lo) * (original(i) - lo))];
  const auto count = host_copy(bin_sort.get_bin_count());
  const auto offsets = host_copy(bin_sort.get_bin_offsets());
  std::size_t running = 0;
  for (int b = 0; b <= bins; ++b) {
    ASSERT_EQ(count(b), expected_count[b]) << "bin " << b;
    ASSERT_EQ(offsets(b), running);
    running += count(b);
  }
  const auto perm = host_copy(bin_sort.get_permute_vector());
  std::vector<char> seen(n, 0);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(seen[perm(i)], 0);
    seen[perm(i)] = 1;
    if (i > 0) {
      ASSERT_LE(original(perm(i - 1)), original(perm(i)));  // sorted within bins, bins in order
    }
  }
  bin_sort.sort(keys);
  bin_sort.sort(Space(), values);
  Space().fence();
  const auto sorted = host_copy(keys);
  const auto moved = host_copy(values);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(sorted(i), original(perm(i)));
    ASSERT_EQ(moved(i), perm(i));
  }
}

TYPED_TEST(BinSortTest, IntegerKeysGetOneBinPerValueAndSubRange) {
  using Space = TypeParam;
  using KeyView = Kokkos::View<int*, Space>;
  const int n = 5000, begin = 100, end = 4000;
  KeyView keys("keys", n);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { keys(i) = (i * 7919) % 13; });
  Kokkos::View<double**, Space> rows("rows", n, 2);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
    rows(i, 0) = i;
    rows(i, 1) = -i;
  });
  const auto original = host_copy(keys);
  using Op = Kokkos::BinOp1D<KeyView>;
  Space exec;
  Kokkos::BinSort<KeyView, Op> bin_sort(exec, keys, begin, end, Op(100, 0, 12));
  bin_sort.create_permute_vector(exec);
  bin_sort.sort(exec, keys, begin, end);
  bin_sort.sort(exec, rows, begin, end);
  exec.fence();
  const auto k = host_copy(keys);
  const auto r = host_copy(rows);
  std::vector<int> expected(original.data() + begin, original.data() + end);
  std::sort(expected.begin(), expected.end());
  for (int i = 0; i < n; ++i) {
    if (i < begin || i >= end) {
      ASSERT_EQ(k(i), original(i));
      ASSERT_EQ(r(i, 0), i);
      continue;
    }
    ASSERT_EQ(k(i), expected[i - begin]);
    const int from = static_cast<int>(r(i, 0));  // rows moved with their keys
    ASSERT_EQ(r(i, 1), -from);
    ASSERT_EQ(original(from), k(i));
  }
  EXPECT_THROW((Kokkos::BinSort<KeyView, Op>(keys, 10, n + 1, Op(10, 0, 12))), std::runtime_error);
  EXPECT_DEATH(bin_sort.sort(rows, 0, 10), "values range length != permutation vector length");
}

TYPED_TEST(BinSortTest, ThreeDimensionalBins) {
  using Space = TypeParam;
  using KeyView = Kokkos::View<double* [3], Space>;
  const int n = 6000;
  KeyView keys("keys", n);
  Kokkos::Random_XorShift1024_Pool<Space> pool(23);
  Kokkos::fill_random(keys, pool, 1.0);
  const auto original = host_copy(keys);
  int bins[3] = {4, 5, 3};
  double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  using Op = Kokkos::BinOp3D<KeyView>;
  Op op(bins, lo, hi);
  ASSERT_EQ(op.max_bins(), 60);
  Kokkos::BinSort<KeyView, Op> bin_sort(keys, op, true);
  bin_sort.create_permute_vector();
  const auto perm = host_copy(bin_sort.get_permute_vector());
  const auto count = host_copy(bin_sort.get_bin_count());
  auto bin_of = [&](int i) {
    int b = 0;
    for (int d = 0; d < 3; ++d) b = b * bins[d] + static_cast<int>(bins[d] * original(i, d));
    return b;
  };
  std::vector<int> expected_count(60, 0);
  for (int i = 0; i < n; ++i) ++expected_count[bin_of(i)];
  for (int b = 0; b < 60; ++b) ASSERT_EQ(count(b), expected_count[b]);
  for (int i = 1; i < n; ++i) {
    const int p = perm(i - 1), q = perm(i);
    ASSERT_LE(bin_of(p), bin_of(q));
    if (bin_of(p) == bin_of(q)) {  // within a bin: descending lexicographic, as Kokkos orders
      ASSERT_FALSE(std::lexicographical_compare(&original(p, 0), &original(p, 0) + 3, &original(q, 0),
                                                &original(q, 0) + 3));
    }
  }
  bin_sort.sort(keys);
  const auto sorted = host_copy(keys);
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) ASSERT_EQ(sorted(i, d), original(perm(i), d));
  }
}

}  // namespace

// MDRangePolicy: construction, tiling, bad input; parallel_for visiting every index exactly
// once for ranks 2-6 with and without tiles in every iteration order; parallel_reduce; and
// Kokkos::Array.  On every back end.
#include "TestCommon.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

template <class Space>
struct MDRange : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(MDRange, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

using I64 = std::int64_t;
using Kokkos::Iterate;

// Visit counts of a box [lo, hi) of rank N, stored row-major.
template <int N>
struct Box {
  std::array<I64, N> lo, hi;
  std::vector<std::atomic<int>> hits;
  Box(std::array<I64, N> l, std::array<I64, N> h) : lo(l), hi(h), hits(size()) {}
  std::size_t size() const {
    std::size_t s = 1;
    for (int d = 0; d < N; ++d) s *= std::size_t(hi[d] - lo[d]);
    return s;
  }
  template <class... Idx>
  std::size_t offset(Idx... idx) const {
    const I64 i[] = {I64(idx)...};
    std::size_t o = 0;
    for (int d = 0; d < N; ++d) {
      if (i[d] < lo[d] || i[d] >= hi[d]) return std::size_t(-1);
      o = o * std::size_t(hi[d] - lo[d]) + std::size_t(i[d] - lo[d]);
    }
    return o;
  }
};

template <class BoxT, class... A>
void count_args(const BoxT& box, A&... a) {
  // a = (i0, ..., i{N-1}, count&, sum&): split the last two off.
  auto tup = std::forward_as_tuple(a...);
  constexpr std::size_t K = sizeof...(A);
  call_offset(box, tup, std::make_index_sequence<K - 2>{}, std::get<K - 2>(tup), std::get<K - 1>(tup));
}
template <class BoxT, class Tuple, std::size_t... D>
void call_offset(const BoxT& box, Tuple& t, std::index_sequence<D...>, I64& count, I64& sum) {
  count += 1;
  sum += I64(box.offset(std::get<D>(t)...));
}

template <class Space, int N, Iterate Outer, Iterate Inner>
void check_visits(std::array<I64, N> lo, std::array<I64, N> hi, std::array<I64, N> tile) {
  using Policy = Kokkos::MDRangePolicy<Space, Kokkos::Rank<N, Outer, Inner>>;
  Box<N> box(lo, hi);
  std::atomic<int> out_of_box{0};
  Policy policy(lo, hi, tile);
  auto visit = [&](auto... idx) {
    const std::size_t o = box.offset(idx...);
    if (o == std::size_t(-1)) {
      out_of_box++;
    } else {
      box.hits[o]++;
    }
  };
  Kokkos::parallel_for("visit", policy, visit);
  ASSERT_EQ(out_of_box.load(), 0);
  for (std::size_t k = 0; k < box.hits.size(); ++k) ASSERT_EQ(box.hits[k].load(), 1) << "linear index " << k;

  // The same box reduced: the count of indices and the sum of their linear offsets.
  I64 count = -1, sum = -1;
  Kokkos::parallel_reduce(
      "count", policy, [&](auto&&... args) { count_args(box, args...); }, count, sum);
  const I64 n = I64(box.size());
  EXPECT_EQ(count, n);
  EXPECT_EQ(sum, n * (n - 1) / 2);
}

template <class Space, Iterate Outer, Iterate Inner>
void check_all_ranks() {
  // Uneven extents, offsets, tiles that do and do not divide, tiles larger than the extent.
  check_visits<Space, 2, Outer, Inner>({0, 0}, {13, 7}, {0, 0});
  check_visits<Space, 2, Outer, Inner>({-3, 2}, {10, 9}, {4, 3});
  check_visits<Space, 2, Outer, Inner>({0, 0}, {1, 1}, {5, 5});
  check_visits<Space, 3, Outer, Inner>({0, 0, 0}, {5, 6, 7}, {0, 0, 0});
  check_visits<Space, 3, Outer, Inner>({1, -2, 0}, {5, 6, 7}, {2, 3, 4});
  check_visits<Space, 4, Outer, Inner>({0, 0, 0, 0}, {3, 4, 5, 6}, {0, 0, 0, 0});
  check_visits<Space, 4, Outer, Inner>({0, 1, 0, 2}, {3, 4, 5, 6}, {2, 2, 3, 1});
  check_visits<Space, 5, Outer, Inner>({0, 0, 0, 0, 0}, {2, 3, 4, 3, 5}, {0, 0, 0, 0, 0});
  check_visits<Space, 5, Outer, Inner>({0, 0, 0, 0, 0}, {2, 3, 4, 3, 5}, {1, 2, 3, 2, 2});
  check_visits<Space, 6, Outer, Inner>({0, 0, 0, 0, 0, 0}, {2, 3, 2, 3, 2, 4}, {0, 0, 0, 0, 0, 0});
  check_visits<Space, 6, Outer, Inner>({0, 0, 0, 0, 0, 0}, {2, 3, 2, 3, 2, 4}, {1, 2, 1, 2, 1, 3});
  // Empty boxes: nothing is visited, the reduction gives the identity.
  check_visits<Space, 2, Outer, Inner>({0, 0}, {0, 5}, {0, 0});
  check_visits<Space, 3, Outer, Inner>({0, 4, 0}, {3, 4, 2}, {1, 1, 1});
}

TYPED_TEST(MDRange, VisitsEachIndexOnceDefault) { check_all_ranks<TypeParam, Iterate::Default, Iterate::Default>(); }
TYPED_TEST(MDRange, VisitsEachIndexOnceRightRight) { check_all_ranks<TypeParam, Iterate::Right, Iterate::Right>(); }
TYPED_TEST(MDRange, VisitsEachIndexOnceLeftLeft) { check_all_ranks<TypeParam, Iterate::Left, Iterate::Left>(); }
TYPED_TEST(MDRange, VisitsEachIndexOnceLeftRight) { check_all_ranks<TypeParam, Iterate::Left, Iterate::Right>(); }
TYPED_TEST(MDRange, VisitsEachIndexOnceRightLeft) { check_all_ranks<TypeParam, Iterate::Right, Iterate::Left>(); }

TYPED_TEST(MDRange, DynamicSchedule) {
  using Policy = Kokkos::MDRangePolicy<TypeParam, Kokkos::Rank<3>, Kokkos::Schedule<Kokkos::Dynamic>>;
  std::vector<std::atomic<int>> hits(20 * 30 * 40);
  Kokkos::parallel_for(Policy({0, 0, 0}, {20, 30, 40}, {3, 7, 8}),
                       [&](I64 i, I64 j, I64 k) { hits[(i * 30 + j) * 40 + k]++; });
  for (auto& h : hits) ASSERT_EQ(h.load(), 1);
  double s = 0;
  Kokkos::parallel_reduce(Policy({0, 0, 0}, {20, 30, 40}, {3, 7, 8}),
                          KOKKOS_LAMBDA(I64 i, I64 j, I64 k, double& v) { v += double(i + j + k); }, s);
  EXPECT_EQ(s, double(30 * 40 * 190 + 20 * 40 * 435 + 20 * 30 * 780));
}

// The order within a tile and of the tiles, observed on one worker (Serial semantics): each
// Iterate choice must give exactly the nested-loop order it names.
template <Iterate Outer, Iterate Inner>
std::vector<std::pair<I64, I64>> expected_order(I64 n0, I64 n1, I64 t0, I64 t1) {
  std::vector<std::pair<I64, I64>> order;
  const I64 nt0 = (n0 + t0 - 1) / t0, nt1 = (n1 + t1 - 1) / t1;
  auto tile = [&](I64 a, I64 b) {
    const I64 e0 = std::min(n0, (a + 1) * t0), e1 = std::min(n1, (b + 1) * t1);
    if (Inner == Iterate::Left) {
      for (I64 j = b * t1; j < e1; ++j)
        for (I64 i = a * t0; i < e0; ++i) order.emplace_back(i, j);
    } else {
      for (I64 i = a * t0; i < e0; ++i)
        for (I64 j = b * t1; j < e1; ++j) order.emplace_back(i, j);
    }
  };
  if (Outer == Iterate::Left) {
    for (I64 b = 0; b < nt1; ++b)
      for (I64 a = 0; a < nt0; ++a) tile(a, b);
  } else {
    for (I64 a = 0; a < nt0; ++a)
      for (I64 b = 0; b < nt1; ++b) tile(a, b);
  }
  return order;
}

template <Iterate Outer, Iterate Inner>
void check_order() {
#if defined(KOKKOS_ENABLE_SERIAL)
  std::vector<std::pair<I64, I64>> seen;
  Kokkos::parallel_for(Kokkos::MDRangePolicy<Kokkos::Serial, Kokkos::Rank<2, Outer, Inner>>({0, 0}, {5, 7}, {2, 3}),
                       [&](I64 i, I64 j) { seen.emplace_back(i, j); });
  EXPECT_EQ(seen, (expected_order<Outer, Inner>(5, 7, 2, 3)));
#endif
}

TEST(MDRangeOrder, IterationOrders) {
  check_order<Iterate::Right, Iterate::Right>();
  check_order<Iterate::Right, Iterate::Left>();
  check_order<Iterate::Left, Iterate::Right>();
  check_order<Iterate::Left, Iterate::Left>();
}

struct TagMD {};
struct TaggedMD {
  int* out;
  KOKKOS_INLINE_FUNCTION void operator()(TagMD, int i, int j) const { out[i * 10 + j] = i + j; }
  KOKKOS_INLINE_FUNCTION void operator()(TagMD, int i, int j, long& v) const { v += out[i * 10 + j]; }
};

TYPED_TEST(MDRange, WorkTagsIndexTypeAndReducers) {
  std::vector<int> data(100, -1);
  using Policy = Kokkos::MDRangePolicy<TypeParam, TagMD, Kokkos::Rank<2>, Kokkos::IndexType<int>>;
  static_assert(std::is_same_v<typename Policy::index_type, int>);
  Kokkos::parallel_for(Policy({0, 0}, {10, 10}), TaggedMD{data.data()});
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j) ASSERT_EQ(data[i * 10 + j], i + j);
  long s = 0;
  Kokkos::parallel_reduce(Policy({0, 0}, {10, 10}, {3, 3}), TaggedMD{data.data()}, s);
  EXPECT_EQ(s, 900);

  Kokkos::MaxLoc<int, int>::value_type best;
  Kokkos::parallel_reduce(
      Kokkos::MDRangePolicy<TypeParam, Kokkos::Rank<2>>({0, 0}, {50, 40}),
      KOKKOS_LAMBDA(I64 i, I64 j, Kokkos::ValLocScalar<int, int> & v) {
        const int x = int((i * 40 + j) % 97);
        if (x > v.val) v.val = x, v.loc = int(i * 40 + j);
      },
      Kokkos::MaxLoc<int, int>(best));
  EXPECT_EQ(best.val, 96);
  EXPECT_EQ(best.loc, 96);
}

// ---- policy construction and bad input ---------------------------------------------------------

TEST(MDRangePolicy, AccessorsAndDefaults) {
  using P = Kokkos::MDRangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Rank<3>>;
  static_assert(P::rank == 3);
  static_assert(P::outer_direction == Iterate::Right && P::inner_direction == Iterate::Right);
  static_assert(Kokkos::is_execution_policy_v<P>);
  static_assert(std::is_same_v<P::point_type, Kokkos::Array<std::int64_t, 3>>);
  static_assert(Kokkos::MDRangePolicy<Kokkos::Rank<2, Iterate::Left, Iterate::Left>>::inner_direction == Iterate::Left);

  P p({1, 2, 3}, {11, 12, 13});
  EXPECT_EQ(p.m_lower[0], 1);
  EXPECT_EQ(p.m_upper[2], 13);
  // Host default tile: the fastest dimension whole, 2 in the others.
  EXPECT_EQ(p.m_tile[0], 2);
  EXPECT_EQ(p.m_tile[1], 2);
  EXPECT_EQ(p.m_tile[2], 10);
  EXPECT_EQ(p.m_num_tiles, 5 * 5 * 1);
  EXPECT_EQ(p.m_tile_end[0], 5);
  EXPECT_EQ(p.tile_size_recommended()[2], 10);
  EXPECT_GT(p.max_total_tile_size(), 0);

  P q({0, 0, 0}, {10, 9, 8}, {3, 4, 0});
  EXPECT_EQ(q.m_tile[0], 3);
  EXPECT_EQ(q.m_tile[1], 4);
  EXPECT_EQ(q.m_tile[2], 8);
  EXPECT_EQ(q.m_num_tiles, 4 * 3 * 1);

  using L = Kokkos::MDRangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Rank<2, Iterate::Left, Iterate::Left>>;
  L l({0, 0}, {6, 9});
  EXPECT_EQ(l.m_tile[0], 6);
  EXPECT_EQ(l.m_tile[1], 2);

  // Other ways to pass the bounds.
  std::array<int, 3> lo{0, 0, 0}, hi{4, 5, 6};
  P from_std(lo, hi);
  EXPECT_EQ(from_std.m_upper[1], 5);
  Kokkos::Array<long, 3> klo{{1, 1, 1}}, khi{{2, 3, 4}}, kt{{1, 1, 2}};
  P from_kokkos(Kokkos::DefaultHostExecutionSpace(), klo, khi, kt);
  EXPECT_EQ(from_kokkos.m_tile[2], 2);
  P::point_type plo{{0, 0, 0}}, phi{{1, 2, 3}};
  P from_point(plo, phi);
  EXPECT_EQ(from_point.m_upper[2], 3);
  P with_space(Kokkos::DefaultHostExecutionSpace(), {0, 0, 0}, {1, 2, 3}, {1, 1, 1});
  EXPECT_EQ(with_space.m_num_tiles, 6);
}

TEST(MDRangePolicy, BadBoundsThrowNamingTheDimension) {
  using P = Kokkos::MDRangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Rank<3>>;
  // Reversed bounds are an empty box with a warning, as in Kokkos 4.6 (TestPolicyConstructors).
  try {
    P p({0, 0, 0}, {4, 4, 4}, {1, 1, -2});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("tile size -2 in dimension 2 is negative"), std::string::npos) << e.what();
  }
  std::array<int, 2> wrong{0, 0};
  std::array<int, 3> hi{1, 1, 1};
  EXPECT_THROW(P(wrong, hi), std::runtime_error);
  EXPECT_THROW((Kokkos::MDRangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Rank<2>, Kokkos::IndexType<int>>({0, 0}, {1, I64(1) << 40})),
               std::runtime_error);
}

// ---- Kokkos::Array ----------------------------------------------------------------------------

TEST(KokkosArray, Interface) {
  Kokkos::Array<int, 3> a = {1, 2, 3};
  static_assert(Kokkos::Array<int, 3>::size() == 3);
  static_assert(!Kokkos::Array<int, 3>::empty());
  EXPECT_EQ(a[0] + a[1] + a[2], 6);
  a[1] = 7;
  EXPECT_EQ(*(a.data() + 1), 7);
  auto [x, y, z] = a;
  EXPECT_EQ(x + y + z, 11);
  EXPECT_EQ(Kokkos::get<2>(a), 3);
  Kokkos::Array b = {1, 7, 3};
  static_assert(std::is_same_v<decltype(b), Kokkos::Array<int, 3>>);
  EXPECT_TRUE(a == b);
  b[2] = 4;
  EXPECT_TRUE(a != b);
  int sum = 0;
  for (int v : a) sum += v;  // begin/end found by ADL
  EXPECT_EQ(sum, 11);
  Kokkos::Array<double, 0> e{};
  static_assert(Kokkos::Array<double, 0>::empty());
  EXPECT_EQ(e.data(), nullptr);
  constexpr auto c = Kokkos::to_array({4, 5});
  static_assert(c[1] == 5 && c.size() == 2);
}

}  // namespace

// Kokkos::subview: every argument kind, the resulting layouts, extents, strides and offsets,
// reference counting, and bounds errors.
#include "TestCommon.hpp"

#include <type_traits>
#include <utility>

namespace {

using Kokkos::ALL;
using Kokkos::LayoutLeft;
using Kokkos::LayoutRight;
using Kokkos::LayoutStride;
using Kokkos::make_pair;
using Kokkos::subview;

// Host Views: these tests read and write elements from host code (in a CUDA build the default
// memory space is CudaSpace).  SubviewSpace below runs subviews in kernels on every back end.
using V2R = Kokkos::View<int**, LayoutRight, Kokkos::HostSpace>;
using V2L = Kokkos::View<int**, LayoutLeft, Kokkos::HostSpace>;
using V3R = Kokkos::View<int***, LayoutRight, Kokkos::HostSpace>;
using V3L = Kokkos::View<int***, LayoutLeft, Kokkos::HostSpace>;
using P = Kokkos::pair<int, int>;

// Result layouts, as Kokkos chooses them.
static_assert(std::is_same_v<Kokkos::Subview<V2R, int, Kokkos::ALL_t>::array_layout, LayoutRight>);
static_assert(std::is_same_v<Kokkos::Subview<V2R, P, Kokkos::ALL_t>::array_layout, LayoutRight>);
static_assert(std::is_same_v<Kokkos::Subview<V2R, Kokkos::ALL_t, P>::array_layout, LayoutRight>);
static_assert(std::is_same_v<Kokkos::Subview<V2R, Kokkos::ALL_t, int>::array_layout, LayoutStride>);
static_assert(std::is_same_v<Kokkos::Subview<V2R, P, int>::array_layout, LayoutStride>);
static_assert(std::is_same_v<Kokkos::Subview<V2R, int, int>::array_layout, LayoutRight>);
static_assert(Kokkos::Subview<V2R, int, int>::rank == 0);
static_assert(std::is_same_v<Kokkos::Subview<V2L, Kokkos::ALL_t, int>::array_layout, LayoutLeft>);
static_assert(std::is_same_v<Kokkos::Subview<V2L, int, Kokkos::ALL_t>::array_layout, LayoutStride>);
static_assert(std::is_same_v<Kokkos::Subview<V3R, int, P, Kokkos::ALL_t>::array_layout, LayoutRight>);
static_assert(std::is_same_v<Kokkos::Subview<V3R, P, Kokkos::ALL_t, Kokkos::ALL_t>::array_layout, LayoutRight>);
static_assert(std::is_same_v<Kokkos::Subview<V3R, Kokkos::ALL_t, P, Kokkos::ALL_t>::array_layout, LayoutStride>);
static_assert(std::is_same_v<Kokkos::Subview<V3R, Kokkos::ALL_t, int, Kokkos::ALL_t>::array_layout, LayoutRight>);
static_assert(std::is_same_v<Kokkos::Subview<V3L, Kokkos::ALL_t, Kokkos::ALL_t, P>::array_layout, LayoutLeft>);
static_assert(std::is_same_v<Kokkos::Subview<V3L, Kokkos::ALL_t, P, int>::array_layout, LayoutLeft>);
static_assert(std::is_same_v<Kokkos::Subview<V3L, P, Kokkos::ALL_t, int>::array_layout, LayoutLeft>);
static_assert(std::is_same_v<Kokkos::Subview<V3L, Kokkos::ALL_t, Kokkos::ALL_t, Kokkos::ALL_t>::array_layout,
                             LayoutLeft>);
static_assert(std::is_same_v<Kokkos::Subview<Kokkos::View<int**, LayoutStride>, int, Kokkos::ALL_t>::array_layout,
                             LayoutStride>);
// compile-time extents survive ALL
static_assert(std::is_same_v<Kokkos::Subview<Kokkos::View<int*[3], Kokkos::HostSpace>, int, Kokkos::ALL_t>::data_type, int[3]>);
static_assert(std::is_same_v<Kokkos::Subview<Kokkos::View<int**[3], Kokkos::HostSpace>, int, Kokkos::ALL_t, Kokkos::ALL_t>::data_type,
                             int*[3]>);
static_assert(std::is_same_v<Kokkos::Subview<Kokkos::View<int*[3][4], Kokkos::HostSpace>, Kokkos::ALL_t, Kokkos::ALL_t, P>::data_type,
                             int***>);
static_assert(std::is_same_v<Kokkos::Subview<Kokkos::View<const double***, Kokkos::HostSpace>, int, Kokkos::ALL_t, int>::value_type,
                             const double>);
static_assert(std::is_same_v<
              Kokkos::Subview<Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Atomic>>, P>::memory_traits,
              Kokkos::MemoryTraits<Kokkos::Atomic>>);

template <class V>
void iota2(const V& v) {
  for (std::size_t i = 0; i < v.extent(0); ++i)
    for (std::size_t j = 0; j < v.extent(1); ++j) v(i, j) = int(100 * i + j);
}

TEST(ViewSubview, RowOfLayoutRight) {
  V2R a("a", 4, 5);
  iota2(a);
  auto row = subview(a, 2, ALL);
  static_assert(std::is_same_v<decltype(row)::array_layout, LayoutRight>);
  static_assert(decltype(row)::rank == 1);
  EXPECT_EQ(row.extent(0), 5u);
  EXPECT_EQ(row.stride(0), 1u);
  EXPECT_EQ(row.data(), &a(2, 0));
  EXPECT_TRUE(row.span_is_contiguous());
  for (int j = 0; j < 5; ++j) EXPECT_EQ(row(j), 200 + j);
  row(4) = -1;
  EXPECT_EQ(a(2, 4), -1);
  EXPECT_EQ(row.label(), "a");
}

TEST(ViewSubview, ColumnOfLayoutRightIsStrided) {
  V2R a("a", 4, 5);
  iota2(a);
  auto col = subview(a, ALL, 3);
  static_assert(std::is_same_v<decltype(col)::array_layout, LayoutStride>);
  EXPECT_EQ(col.extent(0), 4u);
  EXPECT_EQ(col.stride(0), 5u);
  EXPECT_EQ(col.span(), 16u);
  EXPECT_FALSE(col.span_is_contiguous());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(col(i), 100 * i + 3);
  EXPECT_EQ(&col(3) - &col(0), 15);
}

TEST(ViewSubview, RangesOfLayoutRight) {
  V2R a("a", 6, 5);
  iota2(a);
  auto rows = subview(a, make_pair(1, 4), ALL);
  static_assert(std::is_same_v<decltype(rows)::array_layout, LayoutRight>);
  EXPECT_EQ(rows.extent(0), 3u);
  EXPECT_EQ(rows.extent(1), 5u);
  EXPECT_EQ(rows.stride(0), 5u);
  EXPECT_EQ(rows.stride(1), 1u);
  EXPECT_TRUE(rows.span_is_contiguous());
  EXPECT_EQ(rows(0, 0), 100);
  EXPECT_EQ(rows(2, 4), 304);
  // std::pair and a column range: LayoutRight with a free leading stride
  auto block = subview(a, std::pair<int, int>(2, 5), std::make_pair(1, 3));
  static_assert(std::is_same_v<decltype(block)::array_layout, LayoutRight>);
  EXPECT_EQ(block.extent(0), 3u);
  EXPECT_EQ(block.extent(1), 2u);
  EXPECT_EQ(block.stride(0), 5u);
  EXPECT_EQ(block.stride(1), 1u);
  EXPECT_FALSE(block.span_is_contiguous());
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) EXPECT_EQ(block(i, j), 100 * (i + 2) + j + 1);
  // empty range
  auto empty = subview(a, make_pair(3, 3), ALL);
  EXPECT_EQ(empty.extent(0), 0u);
  EXPECT_EQ(empty.size(), 0u);
  // scalar
  auto s = subview(a, 5, 4);
  static_assert(decltype(s)::rank == 0);
  EXPECT_EQ(s(), 504);
  // subview of a subview
  auto ss = subview(block, 1, ALL);
  EXPECT_EQ(ss.extent(0), 2u);
  EXPECT_EQ(ss(1), 302);
  EXPECT_EQ(ss.impl_allocation_base(), a.impl_allocation_base());
}

TEST(ViewSubview, LayoutLeft) {
  V2L a("a", 4, 5);
  iota2(a);
  auto col = subview(a, ALL, 2);
  static_assert(std::is_same_v<decltype(col)::array_layout, LayoutLeft>);
  EXPECT_EQ(col.extent(0), 4u);
  EXPECT_EQ(col.stride(0), 1u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(col(i), 100 * i + 2);
  auto row = subview(a, 1, ALL);
  static_assert(std::is_same_v<decltype(row)::array_layout, LayoutStride>);
  EXPECT_EQ(row.stride(0), 4u);
  for (int j = 0; j < 5; ++j) EXPECT_EQ(row(j), 100 + j);
  auto cols = subview(a, make_pair(1, 3), make_pair(2, 5));
  static_assert(std::is_same_v<decltype(cols)::array_layout, LayoutLeft>);
  EXPECT_EQ(cols.stride(0), 1u);
  EXPECT_EQ(cols.stride(1), 4u);
  EXPECT_EQ(cols(1, 2), 204);
}

TEST(ViewSubview, ThreeDimensional) {
  V3R a("a", 3, 4, 5);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) a(i, j, k) = 100 * i + 10 * j + k;
  auto plane = subview(a, 1, ALL, ALL);
  static_assert(std::is_same_v<decltype(plane)::array_layout, LayoutRight>);
  EXPECT_EQ(plane.extent(0), 4u);
  EXPECT_EQ(plane.extent(1), 5u);
  EXPECT_EQ(plane(3, 4), 134);
  auto mid = subview(a, ALL, 2, ALL);
  static_assert(std::is_same_v<decltype(mid)::array_layout, LayoutRight>);
  EXPECT_EQ(mid.stride(0), 20u);
  EXPECT_EQ(mid.stride(1), 1u);
  EXPECT_EQ(mid(2, 3), 223);
  auto strided = subview(a, ALL, make_pair(1, 3), ALL);
  static_assert(std::is_same_v<decltype(strided)::array_layout, LayoutStride>);
  EXPECT_EQ(strided.extent(1), 2u);
  EXPECT_EQ(strided.stride(0), 20u);
  EXPECT_EQ(strided.stride(1), 5u);
  EXPECT_EQ(strided.stride(2), 1u);
  EXPECT_EQ(strided(2, 1, 4), 224);
  auto line = subview(a, 2, make_pair(1, 4), 3);
  static_assert(std::is_same_v<decltype(line)::array_layout, LayoutStride>);
  EXPECT_EQ(line.extent(0), 3u);
  EXPECT_EQ(line.stride(0), 5u);
  EXPECT_EQ(line(2), 233);
  auto pencil = subview(a, 0, 3, ALL);
  static_assert(std::is_same_v<decltype(pencil)::array_layout, LayoutRight>);
  EXPECT_EQ(pencil(4), 34);
  // LayoutStride source
  Kokkos::View<int***, LayoutStride, Kokkos::HostSpace> st = a;
  auto st2 = subview(st, make_pair(1, 3), 2, ALL);
  EXPECT_EQ(st2.extent(0), 2u);
  EXPECT_EQ(st2(1, 3), 223);
}

TEST(ViewSubview, StaticExtents) {
  Kokkos::View<double**[3], Kokkos::HostSpace> a("a", 4, 5);
  a(2, 3, 1) = 7.5;
  auto s = subview(a, 2, ALL, ALL);
  static_assert(std::is_same_v<decltype(s)::data_type, double*[3]>);
  EXPECT_EQ(s.extent(0), 5u);
  EXPECT_EQ(s.extent(1), 3u);
  EXPECT_EQ(s(3, 1), 7.5);
  Kokkos::View<double**, Kokkos::HostSpace> d = s;  // static -> dynamic
  EXPECT_EQ(d(3, 1), 7.5);
  Kokkos::View<int*[2][3], Kokkos::HostSpace> b("b", 4);
  auto t = subview(b, 3, ALL, ALL);
  static_assert(std::is_same_v<decltype(t)::data_type, int[2][3]>);
  EXPECT_EQ(t.size(), 6u);
  EXPECT_EQ(t.data(), b.data() + 18);
}

TEST(ViewSubview, RankEightAndRankOne) {
  Kokkos::View<int********, Kokkos::HostSpace> a("a", 2, 2, 2, 2, 2, 2, 2, 3);
  a(1, 0, 1, 0, 1, 0, 1, 2) = 42;
  auto s = subview(a, 1, 0, 1, 0, 1, 0, 1, ALL);
  EXPECT_EQ(s.extent(0), 3u);
  EXPECT_EQ(s(2), 42);
  Kokkos::View<int*, Kokkos::HostSpace> v("v", 10);
  for (int i = 0; i < 10; ++i) v(i) = i;
  auto r = subview(v, make_pair(3, 7));
  static_assert(std::is_same_v<decltype(r)::array_layout, LayoutRight>);
  EXPECT_EQ(r.extent(0), 4u);
  EXPECT_EQ(r(0), 3);
  auto all = subview(v, ALL);
  EXPECT_EQ(all.data(), v.data());
  auto one = subview(v, 9);
  EXPECT_EQ(one(), 9);
  Kokkos::View<int, Kokkos::HostSpace> zero("zero");
  auto z = subview(zero);
  EXPECT_EQ(z.data(), zero.data());
}

TEST(ViewSubview, SharesReferenceCount) {
  V2R a("a", 4, 5);
  {
    auto s1 = subview(a, 1, ALL);
    auto s2 = subview(a, ALL, 1);
    EXPECT_EQ(a.use_count(), 3);
    EXPECT_EQ(s2.use_count(), 3);
  }
  EXPECT_EQ(a.use_count(), 1);
  // the subview keeps the allocation alive
  Kokkos::View<int*, Kokkos::HostSpace> row;
  {
    V2R b("b", 2, 3);
    b(1, 2) = 12;
    row = subview(b, 1, ALL);
  }
  EXPECT_EQ(row.use_count(), 1);
  EXPECT_EQ(row(2), 12);
  // constructor form
  Kokkos::View<int*, Kokkos::HostSpace> r2(a, 3, ALL);
  EXPECT_EQ(r2.data(), &a(3, 0));
  EXPECT_EQ(a.use_count(), 2);
  // unmanaged source: no count
  Kokkos::View<int**, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> u(a.data(), 4, 5);
  auto us = subview(u, 2, ALL);
  EXPECT_EQ(us.use_count(), 0);
  EXPECT_EQ(us.impl_allocation_base(), static_cast<const void*>(a.data()));
}

TEST(ViewSubviewDeath, OutOfRange) {
  V2R a("subsrc", 4, 5);
  EXPECT_DEATH({ auto s = subview(a, 4, ALL); (void)s; }, "subview bounds error.*subsrc.*argument 0 = 4 >= extent 4");
  EXPECT_DEATH({ auto s = subview(a, ALL, make_pair(2, 6)); (void)s; },
               "subview bounds error.*argument 1 = \\[2, 6\\)");
  EXPECT_DEATH({ auto s = subview(a, make_pair(3, 2), ALL); (void)s; }, "subview bounds error");
}

template <class Space>
class SubviewSpace : public Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(SubviewSpace, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(SubviewSpace, WriteThroughSubviewsInParallel) {
  using Space = TypeParam;
  const int n = 257;
  Kokkos::View<double**, Space> a("a", n, 4);
  auto c1 = subview(a, ALL, 1);
  auto blk = subview(a, make_pair(1, n), make_pair(2, 4));
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { c1(i) = i; });
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n - 1), KOKKOS_LAMBDA(int i) {
        blk(i, 0) = -i;
        blk(i, 1) = 2 * i;
      });
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(h(i, 0), 0.0);
    ASSERT_EQ(h(i, 1), double(i));
    if (i > 0) {
      ASSERT_EQ(h(i, 2), double(-(i - 1)));
      ASSERT_EQ(h(i, 3), double(2 * (i - 1)));
    }
  }
}

}  // namespace

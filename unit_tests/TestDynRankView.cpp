// Kokkos::DynRankView: rank chosen at run time (0 to 7).  Bounds checking is forced on in
// this executable so that index-count and range errors can be tested.  Only DynRankView<int, Kokkos::HostSpace>
// and <double> are instantiated, and only one test runs on every back end, to keep the
// rank-7 View instantiations (and compile time) few.
#define KOKKOS_IMPL_FORCE_BOUNDS_CHECK
#include "TestCommon.hpp"

#include <Kokkos_DynRankView.hpp>

#include <stdexcept>
#include <vector>

namespace {

using Kokkos::DynRankView;

TEST(DynRankView, RankFromTheNumberOfExtents) {
  DynRankView<int, Kokkos::HostSpace> r0("r0");
  DynRankView<int, Kokkos::HostSpace> r1("r1", 5);
  DynRankView<int, Kokkos::HostSpace> r3("r3", 2, 3, 4);
  DynRankView<int, Kokkos::HostSpace> r7("r7", 2, 3, 1, 2, 3, 2, 2);
  EXPECT_EQ(r0.rank(), 0u);
  EXPECT_EQ(r1.rank(), 1u);
  EXPECT_EQ(r3.rank(), 3u);
  EXPECT_EQ(Kokkos::rank(r7), 7u);
  EXPECT_EQ(r0.size(), 1u);
  EXPECT_EQ(r3.size(), 24u);
  EXPECT_EQ(r7.size(), 144u);
  EXPECT_EQ(r3.extent(2), 4u);
  EXPECT_EQ(r3.extent_int(1), 3);
  EXPECT_EQ(r3.extent(3), 1u);  // beyond the rank
  EXPECT_EQ(r3.extent(6), 1u);
  EXPECT_EQ(r3.label(), "r3");
  EXPECT_EQ(r3.span(), 24u);
  EXPECT_TRUE(r3.span_is_contiguous());
  static_assert(Kokkos::is_dyn_rank_view_v<decltype(r3)>);
  static_assert(!Kokkos::is_dyn_rank_view_v<Kokkos::View<int*, Kokkos::HostSpace>>);

  r0() = 11;
  EXPECT_EQ(*r0.data(), 11);
  // LayoutRight (the host default): the last index is fastest, in every rank.
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) {
        r3(i, j, k) = 100 * i + 10 * j + k;
        EXPECT_EQ(&r3(i, j, k) - r3.data(), (i * 3 + j) * 4 + k);
      }
  EXPECT_EQ(r3(1, 2, 3, 0, 0), 123);  // trailing zero indices are allowed
  EXPECT_EQ(r3.access(1, 2, 3), 123);
  EXPECT_EQ(r3.access(1), 100);  // access: missing indices are 0
  EXPECT_EQ(r3[5], 11);          // [i]: the i-th element of the allocation
  EXPECT_EQ(r3.stride(2), 1u);
  EXPECT_EQ(r3.stride_0(), 12u);
  std::size_t strides[8];
  r3.stride(strides);
  EXPECT_EQ(strides[1], 4u);

  r7(1, 2, 0, 1, 2, 1, 1) = 7;
  const long offset = ((((((1 * 3 + 2) * 1 + 0) * 2 + 1) * 3 + 2) * 2 + 1) * 2 + 1);
  EXPECT_EQ(&r7(1, 2, 0, 1, 2, 1, 1) - r7.data(), offset);
  EXPECT_EQ(r7.data()[offset], 7);
}

TEST(DynRankView, EmptyExtentsAndBadExtents) {
  DynRankView<double, Kokkos::HostSpace> e("empty", 0, 5);
  EXPECT_EQ(e.rank(), 2u);
  EXPECT_EQ(e.size(), 0u);
  EXPECT_EQ(e.span(), 0u);
  EXPECT_EQ(e.extent(1), 5u);
  EXPECT_THROW((DynRankView<double, Kokkos::HostSpace>("eight", 1, 1, 1, 1, 1, 1, 1, 1)), std::runtime_error);
  // A layout with a gap in its dimensions has no rank.
  EXPECT_THROW((DynRankView<double, Kokkos::HostSpace>("gap", Kokkos::LayoutRight(2, KOKKOS_INVALID_INDEX, 3))),
               std::runtime_error);
  DynRankView<double, Kokkos::HostSpace> none;
  EXPECT_EQ(none.rank(), 0u);
  EXPECT_FALSE(none.is_allocated());
}

TEST(DynRankView, ViewAllocLayoutAndUnmanaged) {
  DynRankView<int, Kokkos::HostSpace> raw(Kokkos::view_alloc("raw", Kokkos::WithoutInitializing), 4, 4);
  EXPECT_EQ(raw.rank(), 2u);
  EXPECT_EQ(raw.label(), "raw");

  DynRankView<double, Kokkos::LayoutLeft, Kokkos::HostSpace> left("left", Kokkos::LayoutLeft(3, 2));
  EXPECT_EQ(left.rank(), 2u);
  EXPECT_EQ(left.stride(0), 1u);
  EXPECT_EQ(left.stride(1), 3u);
  left(2, 1) = 5;
  EXPECT_EQ(left.data()[2 + 3 * 1], 5.0);
  EXPECT_EQ(left.layout().dimension[1], 2u);

  std::vector<double> storage(6, 0.0);
  DynRankView<double, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> wrapped(storage.data(), 2, 3);
  EXPECT_EQ(wrapped.rank(), 2u);
  EXPECT_EQ(wrapped.use_count(), 0);
  wrapped(1, 2) = 4.5;
  EXPECT_EQ(storage[5], 4.5);
  DynRankView<double, Kokkos::HostSpace> wrapped_managed_type(storage.data(), 6);  // a pointer: unmanaged
  EXPECT_EQ(wrapped_managed_type(5), 4.5);
}

TEST(DynRankView, FromAndToViews) {
  Kokkos::View<double**, Kokkos::HostSpace> v("v", 3, 4);
  v(2, 3) = 1.5;
  DynRankView<double, Kokkos::HostSpace> d = v;  // shares the data
  EXPECT_EQ(d.rank(), 2u);
  EXPECT_EQ(d.extent(1), 4u);
  EXPECT_EQ(d(2, 3), 1.5);
  EXPECT_EQ(d.data(), v.data());
  EXPECT_EQ(v.use_count(), 2);
  EXPECT_EQ(d.label(), "v");

  DynRankView<const double, Kokkos::HostSpace> c = d;  // const added
  EXPECT_EQ(c(2, 3), 1.5);
  DynRankView<const double, Kokkos::HostSpace> from_view = v;
  EXPECT_EQ(from_view.rank(), 2u);

  Kokkos::View<int*, Kokkos::LayoutLeft, Kokkos::HostSpace> l("l", 5);
  DynRankView<int, Kokkos::LayoutStride, Kokkos::HostSpace> s = l;  // any layout into LayoutStride
  l(4) = 9;
  EXPECT_EQ(s(4), 9);

  Kokkos::View<double, Kokkos::HostSpace> scalar("scalar");
  d = scalar;  // assignment changes the rank
  EXPECT_EQ(d.rank(), 0u);
  d() = 2.0;
  EXPECT_EQ(scalar(), 2.0);

  Kokkos::View<int*******, Kokkos::HostSpace> seven("seven", 1, 2, 1, 2, 1, 2, 1);
  DynRankView<int, Kokkos::HostSpace> d7(seven);
  EXPECT_EQ(d7.rank(), 7u);
  d7(0, 1, 0, 1, 0, 1, 0) = 3;
  EXPECT_EQ(seven(0, 1, 0, 1, 0, 1, 0), 3);
}

template <class Space>
class DynRankViewSpace : public Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(DynRankViewSpace, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// The rank is a run-time value: the same kernels fill a rank-1 and a rank-3 view.
TYPED_TEST(DynRankViewSpace, KernelsOverARunTimeRank) {
  using Space = TypeParam;
  for (unsigned rank : {1u, 3u}) {
    DynRankView<double, Space> d = rank == 1 ? DynRankView<double, Space>("d", 60) : DynRankView<double, Space>("d", 3, 4, 5);
    ASSERT_EQ(d.rank(), rank);
    const int n0 = d.extent_int(0), n1 = d.extent_int(1), n2 = d.extent_int(2);
    Kokkos::parallel_for(
        Kokkos::MDRangePolicy<Space, Kokkos::Rank<3>>({0, 0, 0}, {n0, n1, n2}),
        KOKKOS_LAMBDA(int i, int j, int k) { d.access(i, j, k) = (i * n1 + j) * n2 + k; });
    double sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::RangePolicy<Space>(0, int(d.size())), KOKKOS_LAMBDA(int i, double& s) { s += d[i]; }, sum);
    EXPECT_EQ(sum, 60.0 * 59 / 2);
    if (rank == 3) EXPECT_EQ(d(2, 3, 4), 59.0);
    else EXPECT_EQ(d(59), 59.0);
  }
}

TEST(DynRankView, Subviews) {
  DynRankView<int, Kokkos::HostSpace> a("a", 3, 4, 5);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) a(i, j, k) = 100 * i + 10 * j + k;

  auto s = Kokkos::subdynrankview(a, 1, Kokkos::ALL, Kokkos::make_pair(1, 4));
  static_assert(std::is_same_v<decltype(s)::array_layout, Kokkos::LayoutStride>);
  EXPECT_EQ(s.rank(), 2u);
  EXPECT_EQ(s.extent(0), 4u);
  EXPECT_EQ(s.extent(1), 3u);
  EXPECT_EQ(s.extent(2), 1u);
  EXPECT_EQ(s(2, 0), 121);
  EXPECT_EQ(s(3, 2), 133);
  EXPECT_EQ(a.use_count(), 2);
  EXPECT_EQ(s.label(), "a");

  auto point = Kokkos::subview(a, 2, 3, 4);  // the subview spelling; rank 0
  EXPECT_EQ(point.rank(), 0u);
  EXPECT_EQ(point(), 234);

  auto col = Kokkos::subview(s, Kokkos::ALL, 1);  // a subview of a subview
  EXPECT_EQ(col.rank(), 1u);
  EXPECT_EQ(col(3), 132);

  // Arguments beyond the rank are ignored (whatever they are).
  DynRankView<int, Kokkos::HostSpace> b("b", 4, 2);
  b(3, 1) = 8;
  auto row = Kokkos::subdynrankview(b, 3, Kokkos::ALL, Kokkos::ALL, 5);
  EXPECT_EQ(row.rank(), 1u);
  EXPECT_EQ(row(1), 8);
}

TEST(DynRankViewDeath, SubviewErrors) {
  DynRankView<int, Kokkos::HostSpace> a("sub", 3, 4);
  EXPECT_DEATH(Kokkos::subdynrankview(a, 1), "the number of arguments must be at least the rank");
  EXPECT_DEATH(Kokkos::subdynrankview(a, 3, Kokkos::ALL), "subview bounds error: view \"sub\" argument 0 = 3 >= extent 3");
}

TEST(DynRankView, DeepCopy) {
  DynRankView<int, Kokkos::HostSpace> a("a", 3, 4), b("b", 3, 4);
  Kokkos::deep_copy(a, 5);
  Kokkos::deep_copy(b, a);
  EXPECT_EQ(b(2, 3), 5);

  Kokkos::View<int**, Kokkos::HostSpace> v("v", 3, 4);
  v(1, 1) = 9;
  Kokkos::deep_copy(a, v);
  EXPECT_EQ(a(1, 1), 9);
  EXPECT_EQ(a(0, 0), 0);
  a(0, 0) = -1;
  Kokkos::deep_copy(v, a);
  EXPECT_EQ(v(0, 0), -1);

  Kokkos::View<int**, Kokkos::LayoutLeft, Kokkos::HostSpace> left("left", 3, 4);  // layouts may differ
  Kokkos::deep_copy(left, a);
  EXPECT_EQ(left(1, 1), 9);

  DynRankView<int, Kokkos::HostSpace> r3("r3", 3, 4, 1), other("other", 4, 3);
  EXPECT_THROW(Kokkos::deep_copy(r3, a), std::runtime_error);     // rank 3 vs 2
  EXPECT_THROW(Kokkos::deep_copy(other, a), std::runtime_error);  // extents differ
  Kokkos::View<int*, Kokkos::HostSpace> v1("v1", 12);
  EXPECT_THROW(Kokkos::deep_copy(v1, a), std::runtime_error);

  DynRankView<double, Kokkos::HostSpace> s("s");
  Kokkos::deep_copy(s, 2.5);
  double x = 0;
  Kokkos::deep_copy(x, s);
  EXPECT_EQ(x, 2.5);
  DynRankView<double, Kokkos::HostSpace> not_scalar("ns", 2);
  EXPECT_THROW(Kokkos::deep_copy(x, not_scalar), std::runtime_error);

  Kokkos::deep_copy(Kokkos::DefaultHostExecutionSpace(), b, a);
  EXPECT_EQ(b(1, 1), 9);
}

TEST(DynRankView, Mirrors) {
  DynRankView<double, Kokkos::LayoutLeft, Kokkos::HostSpace> a("a", 2, 3, 4);
  a(1, 2, 3) = 7;
  auto m = Kokkos::create_mirror(a);
  static_assert(std::is_same_v<decltype(m)::array_layout, Kokkos::LayoutLeft>);
  EXPECT_NE(m.data(), a.data());
  EXPECT_EQ(m.rank(), 3u);
  EXPECT_EQ(m.extent(2), 4u);
  EXPECT_EQ(m.label(), "a_mirror");
  EXPECT_EQ(m(1, 2, 3), 0.0);
  Kokkos::deep_copy(m, a);
  EXPECT_EQ(m(1, 2, 3), 7.0);

  auto mv = Kokkos::create_mirror_view(a);  // host memory already: the same data
  EXPECT_EQ(mv.data(), a.data());
  EXPECT_EQ(mv.rank(), 3u);
  auto mw = Kokkos::create_mirror(Kokkos::WithoutInitializing, a);
  EXPECT_EQ(mw.extent(1), 3u);
  auto ms = Kokkos::create_mirror(Kokkos::HostSpace(), a);
  EXPECT_NE(ms.data(), a.data());
  EXPECT_EQ(ms.rank(), 3u);
  auto msv = Kokkos::create_mirror_view(Kokkos::HostSpace(), a);
  EXPECT_EQ(msv.data(), a.data());

  DynRankView<double, Kokkos::HostSpace> zero("zero");
  auto mz = Kokkos::create_mirror(zero);
  EXPECT_EQ(mz.rank(), 0u);
  auto sub = Kokkos::subdynrankview(DynRankView<double, Kokkos::HostSpace>("src", 4, 4), Kokkos::ALL, 2);
  auto msub = Kokkos::create_mirror(sub);  // of a LayoutStride subview
  EXPECT_EQ(msub.rank(), 1u);
  EXPECT_EQ(msub.extent(0), 4u);
}

TEST(DynRankView, ResizeAndRealloc) {
  DynRankView<int, Kokkos::HostSpace> a("a", 3, 4);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) a(i, j) = 10 * i + j;
  Kokkos::resize(a, 5, 2);  // the overlap (3 x 2) is kept, the rest is zero
  EXPECT_EQ(a.rank(), 2u);
  EXPECT_EQ(a.extent(0), 5u);
  EXPECT_EQ(a.label(), "a");
  EXPECT_EQ(a(2, 1), 21);
  EXPECT_EQ(a(4, 1), 0);

  Kokkos::resize(a, 2, 2, 3);  // the rank may change: old (i, j) lands at (i, j, 0)
  EXPECT_EQ(a.rank(), 3u);
  EXPECT_EQ(a(1, 1, 0), 11);
  EXPECT_EQ(a(1, 1, 2), 0);

  Kokkos::resize(Kokkos::WithoutInitializing, a, 2, 2, 4);
  EXPECT_EQ(a(1, 1, 0), 11);

  Kokkos::realloc(a, 6);
  EXPECT_EQ(a.rank(), 1u);
  EXPECT_EQ(a.extent(0), 6u);
  EXPECT_EQ(a(0), 0);
  EXPECT_EQ(a.label(), "a");
  Kokkos::realloc(Kokkos::WithoutInitializing, a, 2, 2);
  EXPECT_EQ(a.rank(), 2u);
  EXPECT_EQ(a.use_count(), 1);
}

TEST(DynRankViewDeath, IndexCountAndRange) {
  DynRankView<int, Kokkos::HostSpace> a("checked", 3, 4);
  a(2, 3) = 1;
  a(2, 3, 0) = 1;
  EXPECT_DEATH(a(2) = 0, "Kokkos::DynRankView ERROR: out of bounds access label=\\(\"checked\"\\) rank 2: 1 indices given, at least 2 needed");
  EXPECT_DEATH(a(2, 3, 1) = 0, "rank 2: index 2 = 1 beyond the rank must be 0");
  EXPECT_DEATH(a(3, 0) = 0, "rank 2: index 0 = 3 is not below extent 3");
  EXPECT_DEATH(a(0, -1) = 0, "rank 2: index 1 = -1 is not below extent 4");
}

}  // namespace

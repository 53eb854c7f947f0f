// Kokkos::Experimental::OffsetView: index ranges that start anywhere.  Bounds checking is
// forced on in this executable so that out-of-range offset indices can be tested.
#define KOKKOS_IMPL_FORCE_BOUNDS_CHECK
#include "TestCommon.hpp"

#include <Kokkos_OffsetView.hpp>

#include <stdexcept>
#include <vector>

namespace {

using Kokkos::Experimental::OffsetView;

template <class Space>
class OffsetViewSpace : public Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(OffsetViewSpace, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(OffsetViewSpace, Rank2RangesAndKernelAccess) {
  using Space = TypeParam;
  OffsetView<int**, Space> ov("ov", {-2, 3}, {5, 7});  // inclusive ranges
  EXPECT_EQ(ov.label(), "ov");
  EXPECT_EQ(ov.extent(0), 6u);
  EXPECT_EQ(ov.extent(1), 3u);
  EXPECT_EQ(ov.begin(0), -2);
  EXPECT_EQ(ov.end(0), 4);
  EXPECT_EQ(ov.begin(1), 5);
  EXPECT_EQ(ov.end(1), 8);
  EXPECT_EQ(ov.size(), 18u);
  EXPECT_EQ(Kokkos::Experimental::rank(ov), 2u);
  EXPECT_EQ(decltype(ov)::rank(), 2u);

  Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>> policy({ov.begin(0), ov.begin(1)}, {ov.end(0), ov.end(1)});
  Kokkos::parallel_for(
      policy, KOKKOS_LAMBDA(int64_t i, int64_t j) { ov(i, j) = int(100 * i + j); });
  Space().fence();

  auto plain = ov.view();  // the same data, 0-based
  static_assert(Kokkos::is_view_v<decltype(plain)> && decltype(plain)::rank() == 2);
  for (int64_t i = -2; i <= 3; ++i)
    for (int64_t j = 5; j <= 7; ++j) {
      EXPECT_EQ(ov(i, j), 100 * i + j);
      EXPECT_EQ(plain(i + 2, j - 5), 100 * i + j);
    }
  EXPECT_EQ(ov.data(), plain.data());
  EXPECT_EQ(ov.use_count(), 2);
}

TEST(OffsetView, Rank1StencilOverGhostCells) {
  const int n = 10;
  OffsetView<double*, Kokkos::HostSpace> u("u", {-1, n});
  EXPECT_EQ(u.extent(0), std::size_t(n + 2));
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(u.begin(0), u.end(0)),
      KOKKOS_LAMBDA(int64_t i) { u(i) = double(i * i); });
  OffsetView<double*, Kokkos::HostSpace> lap("lap", {0, n - 1});
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, n),
      KOKKOS_LAMBDA(int64_t i) { lap(i) = u(i - 1) - 2 * u(i) + u(i + 1); });
  Kokkos::fence();
  for (int i = 0; i < n; ++i) EXPECT_EQ(lap[i], 2.0);
}

TEST(OffsetView, FromViewWithBeginsAndConversions) {
  Kokkos::View<int**, Kokkos::HostSpace> v("v", 3, 4);
  OffsetView<int**, Kokkos::HostSpace> zero_based(v);
  EXPECT_EQ(zero_based.begin(0), 0);
  EXPECT_EQ(zero_based.end(1), 4);
  OffsetView<int**, Kokkos::HostSpace> shifted(v, {10, -5});
  EXPECT_EQ(shifted.begin(0), 10);
  EXPECT_EQ(shifted.begin(1), -5);
  shifted(12, -2) = 42;
  EXPECT_EQ(v(2, 3), 42);

  OffsetView<int**, Kokkos::HostSpace>::begins_type b{{-1, 1}};
  OffsetView<int**, Kokkos::HostSpace> from_array(v, b);
  EXPECT_EQ(from_array(1, 4), 42);
  EXPECT_EQ(from_array.begins()[0], -1);

  OffsetView<const int**, Kokkos::HostSpace> as_const = shifted;  // non-const to const keeps the begins
  EXPECT_EQ(as_const(12, -2), 42);
  EXPECT_TRUE(as_const == shifted);
  EXPECT_FALSE(from_array == shifted);  // same data, different begins
  EXPECT_TRUE(v == zero_based);
  EXPECT_EQ(shifted.use_count(), 5);

  EXPECT_THROW((OffsetView<int**, Kokkos::HostSpace>(v, {1, 2, 3})), std::runtime_error);  // wrong number of begins
}

TEST(OffsetView, UnmanagedHalfOpenRanges) {
  std::vector<double> storage(12);
  OffsetView<double**, Kokkos::HostSpace> w(storage.data(), {-1, 2}, {2, 6});  // [-1,2) x [2,6)
  EXPECT_EQ(w.extent(0), 3u);
  EXPECT_EQ(w.extent(1), 4u);
  EXPECT_EQ(w.use_count(), 0);
  w(1, 5) = 7.5;
  EXPECT_EQ(storage[11], 7.5);  // LayoutRight: (2, 3) -> 2 * 4 + 3
  EXPECT_THROW((OffsetView<double**, Kokkos::HostSpace>(storage.data(), {0, 0}, {2, -1})), std::runtime_error);
  EXPECT_THROW((OffsetView<double**, Kokkos::HostSpace>(storage.data(), {0}, {2, 2})), std::runtime_error);
}

TEST(OffsetView, BadAllocationRanges) {
  EXPECT_THROW((OffsetView<int**, Kokkos::HostSpace>("two", {0, 3})), std::runtime_error);           // one range for rank 2
  EXPECT_THROW((OffsetView<int*, Kokkos::HostSpace>("backwards", {5, 3})), std::runtime_error);     // last < first - 1
  OffsetView<int*, Kokkos::HostSpace> empty("empty", {5, 4});                                       // zero elements
  EXPECT_EQ(empty.extent(0), 0u);
  EXPECT_EQ(empty.begin(0), 5);
  EXPECT_EQ(empty.end(0), 5);
}

TEST(OffsetView, ViewAllocWithLayoutAndRank0AndRank3) {
  OffsetView<float***, Kokkos::LayoutLeft, Kokkos::HostSpace> a(Kokkos::view_alloc("a", Kokkos::WithoutInitializing),
                                              Kokkos::LayoutLeft(2, 3, 4), {-1, 0, 1});
  EXPECT_EQ(a.label(), "a");
  EXPECT_EQ(a.end(2), 5);
  a(0, 2, 4) = 3.f;
  EXPECT_EQ(a.view()(1, 2, 3), 3.f);
  EXPECT_EQ(a.stride(0), 1u);  // LayoutLeft kept

  Kokkos::View<double, Kokkos::HostSpace> scalar("scalar");
  OffsetView<double, Kokkos::HostSpace> s(scalar);
  s() = 2.5;
  EXPECT_EQ(scalar(), 2.5);
  EXPECT_EQ(Kokkos::Experimental::rank(s), 0u);
  EXPECT_EQ(s.begin(0), KOKKOS_INVALID_OFFSET);
}

TEST(OffsetView, Subviews) {
  OffsetView<int**, Kokkos::HostSpace> ov("ov", {-2, 2}, {10, 13});
  for (int64_t i = -2; i <= 2; ++i)
    for (int64_t j = 10; j <= 13; ++j) ov(i, j) = int(10 * i + j);

  auto row = Kokkos::Experimental::subview(ov, -1, Kokkos::ALL);  // ALL keeps the begin
  static_assert(Kokkos::Experimental::is_offset_view_v<decltype(row)>);
  EXPECT_EQ(Kokkos::Experimental::rank(row), 1u);
  EXPECT_EQ(row.begin(0), 10);
  EXPECT_EQ(row.end(0), 14);
  for (int64_t j = 10; j <= 13; ++j) EXPECT_EQ(row(j), -10 + j);

  auto col = subview(ov, Kokkos::make_pair(-1, 2), 12);  // found by ADL; a range begins at 0
  EXPECT_EQ(col.begin(0), 0);
  EXPECT_EQ(col.extent(0), 3u);
  for (int64_t i = 0; i < 3; ++i) EXPECT_EQ(col(i), 10 * (i - 1) + 12);

  auto block = Kokkos::Experimental::subview(ov, Kokkos::ALL, std::make_pair(11, 13));
  EXPECT_EQ(block.begin(0), -2);
  EXPECT_EQ(block.begin(1), 0);
  EXPECT_EQ(block(2, 1), 20 + 12);

  auto point = Kokkos::Experimental::subview(ov, 2, 13);
  EXPECT_EQ(point(), 33);
}

TEST(OffsetView, DeepCopyAndMirrors) {
  OffsetView<int*, Kokkos::HostSpace> a("a", {-3, 3});
  Kokkos::deep_copy(a, 4);
  for (int64_t i = -3; i <= 3; ++i) EXPECT_EQ(a(i), 4);

  OffsetView<int*, Kokkos::HostSpace> b("b", {100, 106});  // begins need not match, extents must
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(a.begin(0), a.end(0)), KOKKOS_LAMBDA(int64_t i) { a(i) = int(i); });
  Kokkos::deep_copy(b, a);
  for (int64_t k = 0; k < 7; ++k) EXPECT_EQ(b(100 + k), k - 3);

  Kokkos::View<int*, Kokkos::HostSpace> v("v", 7);
  Kokkos::deep_copy(v, a);
  EXPECT_EQ(v(0), -3);
  Kokkos::deep_copy(v, 9);
  Kokkos::deep_copy(a, v);
  EXPECT_EQ(a(-3), 9);

  Kokkos::View<int*, Kokkos::HostSpace> wrong("wrong", 6);
  EXPECT_THROW(Kokkos::deep_copy(a, wrong), std::runtime_error);

  auto m = Kokkos::create_mirror(a);  // a new allocation with the same begins
  static_assert(std::is_same_v<decltype(m), OffsetView<int*, Kokkos::HostSpace>::HostMirror>);
  EXPECT_NE(m.data(), a.data());
  EXPECT_EQ(m.begin(0), -3);
  EXPECT_EQ(m.label(), "a_mirror");
  Kokkos::deep_copy(m, a);
  EXPECT_EQ(m(3), 9);

  auto mv = Kokkos::create_mirror_view(a);  // host memory already: the same data
  EXPECT_EQ(mv.data(), a.data());
  EXPECT_EQ(mv.begin(0), -3);
  auto ms = Kokkos::create_mirror(Kokkos::HostSpace(), a);
  EXPECT_NE(ms.data(), a.data());
  EXPECT_EQ(ms.end(0), 4);
  auto mc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  EXPECT_EQ(mc(-3), 9);
}

TEST(OffsetViewDeath, OutOfRangeOffsetIndices) {
  OffsetView<int**, Kokkos::HostSpace> ov("guarded", {-1, 1}, {4, 5});
  ov(-1, 4) = 1;
  ov(1, 5) = 2;
  EXPECT_DEATH(ov(-2, 4) = 0, "OffsetView ERROR: out of bounds access label=\\(\"guarded\"\\) index 0 = -2 is not in \\[-1, 2\\)");
  EXPECT_DEATH(ov(0, 6) = 0, "index 1 = 6 is not in \\[4, 6\\)");
  EXPECT_DEATH(ov(2, 4) = 0, "index 0 = 2 is not in \\[-1, 2\\)");
}

}  // namespace

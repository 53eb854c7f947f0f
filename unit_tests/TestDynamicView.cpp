// Kokkos::Experimental::DynamicView: growth in chunks without moving elements, shrinking,
// copies sharing the extent, deep_copy, mirrors, concurrent element access, and (bounds
// checking forced on here) accesses beyond the allocated chunks; subviews of a range, and
// Kokkos::sort over a range of a DynamicView.
#define KOKKOS_IMPL_FORCE_BOUNDS_CHECK
#include "TestCommon.hpp"

#include <Kokkos_DynamicView.hpp>
#include <Kokkos_Sort.hpp>

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using Kokkos::Experimental::DynamicView;

TEST(DynamicView, ChunkingAndGrowthKeepsElementsInPlace) {
  DynamicView<int*, Kokkos::HostSpace> a("grow", 5, 100);  // chunks of 8, at most 13 chunks
  EXPECT_EQ(a.label(), "grow");
  EXPECT_EQ(a.chunk_size(), 8u);
  EXPECT_EQ(a.chunk_max(), 13u);
  EXPECT_EQ(a.extent(0), 0u);
  EXPECT_EQ(a.allocation_extent(), 0u);
  EXPECT_FALSE(a.is_allocated());
  static_assert(Kokkos::is_dynamic_view_v<decltype(a)>);
  static_assert(!Kokkos::is_dynamic_view_v<Kokkos::View<int*, Kokkos::HostSpace>>);

  a.resize_serial(10);  // two chunks
  EXPECT_EQ(a.extent(0), 10u);
  EXPECT_EQ(a.extent(1), 1u);
  EXPECT_EQ(a.allocation_extent(), 16u);
  EXPECT_TRUE(a.is_allocated());
  for (int i = 0; i < 10; ++i) a(i) = 3 * i;
  int* first = &a(0);
  int* ninth = &a(9);

  a.resize_serial(97);  // grows across many chunk boundaries
  EXPECT_EQ(a.extent(0), 97u);
  EXPECT_EQ(a.allocation_extent(), 104u);
  EXPECT_EQ(&a(0), first);  // existing elements did not move
  EXPECT_EQ(&a(9), ninth);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(a(i), 3 * i);
  // Consecutive indices inside a chunk are contiguous; chunks need not be.
  EXPECT_EQ(&a(7), &a(0) + 7);
  EXPECT_EQ(&a(15), &a(8) + 7);

  a.resize_serial(100);  // exactly the maximum
  EXPECT_EQ(a.allocation_extent(), 104u);
  EXPECT_THROW(a.resize_serial(105), std::runtime_error);
  EXPECT_THROW(a.resize_serial(-1), std::runtime_error);

  a.resize_serial(3);  // shrinking frees all chunks but the first
  EXPECT_EQ(a.extent(0), 3u);
  EXPECT_EQ(a.allocation_extent(), 8u);
  EXPECT_EQ(&a(0), first);
  EXPECT_EQ(a(2), 6);
  a.resize_serial(0);
  EXPECT_EQ(a.allocation_extent(), 0u);
  EXPECT_FALSE(a.is_allocated());

  DynamicView<int*, Kokkos::HostSpace> unset;
  EXPECT_THROW(unset.resize_serial(1), std::runtime_error);
  EXPECT_EQ(unset.extent(0), 0u);
}

TEST(DynamicView, ChunkSizeOneAndCopiesShareTheExtent) {
  DynamicView<double*, Kokkos::HostSpace> a(Kokkos::view_alloc("one"), 1, 4);
  EXPECT_EQ(a.chunk_size(), 1u);
  EXPECT_EQ(a.chunk_max(), 4u);
  DynamicView<double*, Kokkos::HostSpace> copy = a;
  DynamicView<const double*, Kokkos::HostSpace> const_copy = a;
  EXPECT_EQ(a.use_count(), 3);
  a.resize_serial(std::size_t(4));
  EXPECT_EQ(copy.extent(0), 4u);  // copies see the new size
  for (int i = 0; i < 4; ++i) copy(i) = i + 0.5;
  EXPECT_EQ(const_copy(3), 3.5);
  EXPECT_EQ(const_copy.extent(0), 4u);
}

template <class Space>
class DynamicViewSpace : public Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(DynamicViewSpace, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// Fill in kernels, grow, fill the new part, then many threads add atomically to shared
// elements through operator() while other elements are written plainly.
TYPED_TEST(DynamicViewSpace, KernelsAcrossGrowthAndConcurrentAccess) {
  using Space = TypeParam;
  DynamicView<long*, Space> a("kernel", 64, 1 << 16);
  const int n1 = 1000, n2 = 5000;
  a.resize_serial(n1);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n1), KOKKOS_LAMBDA(int i) { a(i) = 2 * i; });
  Space().fence();
  a.resize_serial(n2);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(n1, n2), KOKKOS_LAMBDA(int i) { a(i) = 2 * i; });
  long sum = 0;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Space>(0, n2), KOKKOS_LAMBDA(int i, long& s) { s += a(i); }, sum);
  EXPECT_EQ(sum, long(n2) * (n2 - 1));

  // 100 counters spread over several chunks, hit 200000 times from all threads, while other
  // threads write distinct elements plainly.
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, 100), KOKKOS_LAMBDA(int i) { a(i * 37) = 0; });
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, 200000), KOKKOS_LAMBDA(int i) {
        Kokkos::atomic_add(&a((i % 100) * 37), 1L);
        if (i < 1000) a(4000 + i) = i;
      });
  Space().fence();
  for (int k = 0; k < 100; ++k) ASSERT_EQ(a(k * 37), 2000) << k;
  for (int k = 0; k < 1000; ++k) ASSERT_EQ(a(4000 + k), k);
}

// A subview is the range's own elements, indexed from zero, across chunk boundaries; kernels
// write the DynamicView through it; a subview of a subview composes the offsets.
TYPED_TEST(DynamicViewSpace, SubviewOfARangeIsTheRangesElements) {
  using Space = TypeParam;
  DynamicView<int*, Space> a("sub", 8, 1024);  // chunks of 8
  a.resize_serial(100);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, 100), KOKKOS_LAMBDA(int i) { a(i) = i; });
  Space().fence();
  auto mid = Kokkos::subview(a, std::make_pair(5, 29));  // crosses three chunk boundaries
  static_assert(std::is_same_v<decltype(mid), Kokkos::Experimental::DynamicSubview<int*, Space>>);
  EXPECT_EQ(mid.extent(0), 24u);
  EXPECT_EQ(mid.label(), "sub");
  EXPECT_FALSE(mid.span_is_contiguous());
  for (int i = 0; i < 24; ++i) ASSERT_EQ(mid(i), 5 + i);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, 24), KOKKOS_LAMBDA(int i) { mid(i) = -mid(i); });
  Space().fence();
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a(i), (i >= 5 && i < 29) ? -i : i) << i;
  auto inner = Kokkos::subview(mid, std::make_pair(std::size_t(3), std::size_t(10)));
  EXPECT_EQ(inner.extent(0), 7u);
  for (int i = 0; i < 7; ++i) ASSERT_EQ(inner(i), -(8 + i));
  auto all = Kokkos::subview(a, Kokkos::ALL);
  EXPECT_EQ(all.extent(0), 100u);
  EXPECT_EQ(all(99), 99);
  EXPECT_EQ(Kokkos::subview(a, std::make_pair(100, 100)).extent(0), 0u);  // empty, at the end
  EXPECT_THROW(Kokkos::subview(a, std::make_pair(0, 101)), std::runtime_error);
  EXPECT_THROW(Kokkos::subview(a, std::make_pair(30, 20)), std::runtime_error);
  EXPECT_THROW(Kokkos::subview(mid, std::make_pair(0, 25)), std::runtime_error);
  EXPECT_THROW(Kokkos::subview(mid, std::make_pair(4, 3)), std::runtime_error);
}

// Kokkos::sort(exec, dynamic_view, begin, end) and sort(dynamic_view, begin, end) sort exactly
// [begin, end), across chunks; everything outside it is untouched.
TYPED_TEST(DynamicViewSpace, SortARangeAcrossChunks) {
  using Space = TypeParam;
  const int n = 3000;
  DynamicView<double*, Space> a("sort", 64, 1 << 14);
  a.resize_serial(n);
  std::vector<double> reference(n);
  for (int i = 0; i < n; ++i) reference[i] = double((i * 7919) % 1009) - 500.5;  // with repeats
  for (int i = 0; i < n; ++i) a(i) = reference[i];
  const Space exec;
  Kokkos::sort(exec, a, 100, 2900);
  exec.fence();
  std::sort(reference.begin() + 100, reference.begin() + 2900);
  for (int i = 0; i < n; ++i) ASSERT_EQ(a(i), reference[i]) << i;

  for (int i = 0; i < n; ++i) a(i) = reference[i] = double(n - i);
  Kokkos::sort(a, 0, n);  // the whole extent
  std::sort(reference.begin(), reference.end());
  for (int i = 0; i < n; ++i) ASSERT_EQ(a(i), reference[i]) << i;

  Kokkos::sort(exec, a, 7, 7);  // empty and one-element ranges change nothing
  Kokkos::sort(exec, a, 7, 8);
  exec.fence();
  for (int i = 0; i < n; ++i) ASSERT_EQ(a(i), reference[i]) << i;
  EXPECT_THROW(Kokkos::sort(exec, a, 0, n + 1), std::runtime_error);
  EXPECT_THROW(Kokkos::sort(exec, a, 10, 5), std::runtime_error);
}

TEST(DynamicView, DeepCopyAndMirrors) {
  DynamicView<int*, Kokkos::HostSpace> a("a", 16, 1000);
  a.resize_serial(40);
  Kokkos::View<int*, Kokkos::HostSpace> v("v", 40);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 40), KOKKOS_LAMBDA(int i) { v(i) = 40 - i; });
  Kokkos::deep_copy(a, v);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(a(i), 40 - i);

  Kokkos::View<int*, Kokkos::HostSpace> shorter("shorter", 10);  // only the common part is copied
  Kokkos::deep_copy(shorter, a);
  EXPECT_EQ(shorter(9), 31);

  auto mv = Kokkos::create_mirror_view(a);  // host memory: the DynamicView itself
  EXPECT_EQ(&mv(0), &a(0));
  auto m = Kokkos::create_mirror(a);  // same chunking and extent, new chunks
  EXPECT_EQ(m.label(), "a_mirror");
  EXPECT_EQ(m.extent(0), 40u);
  EXPECT_EQ(m.chunk_size(), 16u);
  EXPECT_EQ(m.chunk_max(), a.chunk_max());
  EXPECT_NE(&m(0), &a(0));
  Kokkos::deep_copy(m, a);
  EXPECT_EQ(m(39), 1);
  auto ms = Kokkos::create_mirror(Kokkos::HostSpace(), a);
  EXPECT_EQ(ms.extent(0), 40u);
  auto msv = Kokkos::create_mirror_view(Kokkos::HostSpace(), a);
  EXPECT_EQ(&msv(5), &a(5));

  Kokkos::View<int*, Kokkos::HostSpace> back("back", 50);
  Kokkos::deep_copy(back, 7);
  Kokkos::deep_copy(back, m);
  EXPECT_EQ(back(0), 40);
  EXPECT_EQ(back(39), 1);
  EXPECT_EQ(back(40), 7);  // beyond the DynamicView's extent: untouched
}

TEST(DynamicViewDeath, AccessBeyondAllocatedChunks) {
  DynamicView<int*, Kokkos::HostSpace> a("bounded", 4, 64);
  a.resize_serial(6);  // two chunks of 4: indices up to 7 are allocated
  a(7) = 1;
  EXPECT_DEATH(a(8) = 0, "Kokkos::DynamicView array bounds error: label=\\(\"bounded\"\\) index 8 is beyond the allocated 8");
  DynamicView<int*, Kokkos::HostSpace> none("none", 4, 64);
  EXPECT_DEATH(none(0) = 0, "index 0 is beyond the allocated 0");
}

}  // namespace

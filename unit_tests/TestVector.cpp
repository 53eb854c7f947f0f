// Kokkos::vector (Kokkos_Vector.hpp, deprecated in Kokkos 4.2 and kept under
// Kokkos_ENABLE_DEPRECATED_CODE_4): the std::vector operations on the host copy, growth by the
// over-allocation factor, inserts at every position, the sorted-data searches, misuse aborts, and
// the data's way to kernels and back through the DualView.
#include <Kokkos_Vector.hpp>

#include "TestCommon.hpp"

#include <numeric>
#include <vector>

#if defined(KOKKOS_ENABLE_DEPRECATED_CODE_4)

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

namespace {

// Host tests on a vector whose both sides are host memory, so that they run in every build.
using Vec = Kokkos::vector<int, Kokkos::HostSpace>;

template <class V>
std::vector<int> contents(const V& v) {
  return std::vector<int>(v.begin(), v.end());
}

TEST(Vector, ConstructedWithCopiesOfAValue) {
  Vec v(10, 7);
  EXPECT_EQ(v.size(), 10u);
  EXPECT_GE(v.span(), 10u);
  EXPECT_FALSE(v.empty());
  EXPECT_EQ(contents(v), std::vector<int>(10, 7));
  EXPECT_EQ(v.front(), 7);
  EXPECT_EQ(v.back(), 7);
  EXPECT_EQ(v(3), 7);
  EXPECT_EQ(v[9], 7);
  Vec empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.begin(), empty.end());
}

TEST(Vector, PushBackGrowsAndKeepsTheElements) {
  Vec v;
  for (int i = 0; i < 1000; ++i) v.push_back(i);
  ASSERT_EQ(v.size(), 1000u);
  EXPECT_GE(v.span(), 1000u);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(v[i], i);
  v.pop_back();
  EXPECT_EQ(v.size(), 999u);
  EXPECT_EQ(v.back(), 998);
  v.clear();
  EXPECT_TRUE(v.empty());
  v.push_back(5);
  EXPECT_EQ(contents(v), std::vector<int>{5});
}

TEST(Vector, GrowthFollowsTheOverallocationFactor) {
  Vec v;
  v.set_overallocation(1.0f);  // twice what is needed
  v.reserve(100);
  EXPECT_EQ(v.span(), 200u);
  v.reserve(10);  // never shrinks
  EXPECT_EQ(v.span(), 200u);
  v.resize(200);  // at the allocation: grows to 400
  EXPECT_EQ(v.span(), 400u);
  EXPECT_EQ(v.size(), 200u);
}

TEST(Vector, ResizeKeepsTheFirstElementsAndResizeWithAValueAssigns) {
  Vec v;
  for (int i = 0; i < 5; ++i) v.push_back(i);
  v.resize(50);
  EXPECT_EQ(v.size(), 50u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(v[i], i);
  v.resize(3);
  EXPECT_EQ(contents(v), (std::vector<int>{0, 1, 2}));
  v.resize(4, 9);
  EXPECT_EQ(contents(v), std::vector<int>(4, 9));
}

TEST(Vector, InsertsAtTheFrontMiddleAndEnd) {
  Vec v;
  v.insert(v.begin(), 3);                      // into an empty vector
  v.insert(v.begin(), 2, 1);                   // 1 1 3
  v.insert(v.end(), 4);                        // 1 1 3 4
  const std::vector<int> more{7, 8, 9};
  auto it = v.insert(v.begin() + 2, more.begin(), more.end());  // 1 1 7 8 9 3 4
  EXPECT_EQ(it, v.begin() + 2);
  EXPECT_EQ(contents(v), (std::vector<int>{1, 1, 7, 8, 9, 3, 4}));
  v.insert(v.begin() + 1, 0, 5);  // nothing
  EXPECT_EQ(v.size(), 7u);
  // Enough inserts to grow the allocation several times, each in the middle.
  std::vector<int> reference = contents(v);
  for (int i = 0; i < 200; ++i) {
    const std::size_t at = reference.size() / 2;
    v.insert(v.begin() + at, 100 + i);
    reference.insert(reference.begin() + at, 100 + i);
  }
  EXPECT_EQ(contents(v), reference);
}

TEST(Vector, SearchesOnSortedData) {
  Vec v;
  for (int x : {1, 3, 3, 5, 8}) v.push_back(x);
  EXPECT_TRUE(v.is_sorted());
  EXPECT_EQ(v.find(3), v.begin() + 1);
  EXPECT_EQ(v.find(8), v.begin() + 4);
  EXPECT_EQ(v.find(4), v.end());
  EXPECT_EQ(v.find(0), v.end());
  EXPECT_EQ(v.find(9), v.end());
  EXPECT_EQ(v.lower_bound(0, 5, 3), 1u);
  EXPECT_EQ(v.lower_bound(0, 5, 4), 3u);
  EXPECT_EQ(v.lower_bound(0, 5, 100), 5u);
  EXPECT_EQ(v.lower_bound(2, 100, 0), 2u);  // the end is clipped to size()
  EXPECT_EQ(v.lower_bound(4, 2, 0), 2u);    // an empty range
  v.push_back(2);
  EXPECT_FALSE(v.is_sorted());
  Vec empty;
  EXPECT_TRUE(empty.is_sorted());
  EXPECT_EQ(empty.find(1), empty.end());
}

TEST(VectorDeathTest, MisuseAborts) {
  EXPECT_DEATH(
      {
        Vec v;
        v.pop_back();
      },
      "Kokkos::vector::pop_back: the vector is empty");
  EXPECT_DEATH(
      {
        Vec v(3, 0);
        v.insert(v.end() + 1, 1);
      },
      "Kokkos::vector::insert: the iterator is not in the vector");
}

// Host data to a kernel and back: host_to_device, a kernel doubling d_view, device_to_host; then
// assign() after the device was marked modified fills the device.
TEST(Vector, DataReachKernelsThroughTheDualView) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  Kokkos::vector<int> v;
  for (int i = 0; i < 100; ++i) v.push_back(i);
  v.host_to_device();
  auto d = v.d_view;
  Kokkos::parallel_for(
      "double", Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>(0, 100), KOKKOS_LAMBDA(int i) { d(i) *= 2; });
  Kokkos::fence();
  v.device_to_host();
  for (int i = 0; i < 100; ++i) ASSERT_EQ(v[i], 2 * i);

  v.on_device();
  v.assign(100, 4);
  EXPECT_TRUE(v.need_sync_host());
  v.sync_host();
  EXPECT_EQ(contents(v), std::vector<int>(100, 4));
}

}  // namespace

#endif

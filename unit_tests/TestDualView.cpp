// Kokkos::DualView: the two sides, the modified counters, sync in both directions, resize and
// realloc, conversions, subviews and deep_copy.
#include "TestCommon.hpp"

#include <Kokkos_DualView.hpp>

#include <stdexcept>
#include <type_traits>

namespace {

// ---- typed over every back end: the modify / sync / kernel / sync-back loop ------------------
template <class Space>
struct DualViewTyped : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(DualViewTyped, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(DualViewTyped, ModifySyncKernelSyncBack) {
  using Space = TypeParam;
  using DV = Kokkos::DualView<int*, Space>;
  const int n = 1000;
  DV dv("dv", n);
  ASSERT_TRUE(dv.is_allocated());
  EXPECT_EQ(dv.extent(0), size_t(n));
  for (int round = 0; round < 3; ++round) {
    auto h = dv.view_host();
    for (int i = 0; i < n; ++i) h(i) = i + round;
    dv.modify_host();
    dv.sync_device();
    EXPECT_FALSE(dv.need_sync_device());
    auto d = dv.view_device();
    Kokkos::parallel_for(
        "double", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { d(i) *= 2; });
    Space().fence();
    dv.modify_device();
    dv.template sync<typename DV::t_host::memory_space>(Space());
    dv.sync_host(Space());
    EXPECT_FALSE(dv.need_sync_host());
    for (int i = 0; i < n; ++i) ASSERT_EQ(dv.view_host()(i), 2 * (i + round));
  }
}

TYPED_TEST(DualViewTyped, ViewOfEachSpelling) {
  using Space = TypeParam;
  using DV = Kokkos::DualView<double**, Kokkos::LayoutLeft, Space>;
  DV dv("dv", 3, 4);
  EXPECT_EQ(dv.template view<Space>().data(), dv.view_device().data());
  EXPECT_EQ(dv.template view<typename DV::t_dev::device_type>().data(), dv.d_view.data());
  EXPECT_EQ(dv.template view<typename DV::t_host::device_type>().data(), dv.h_view.data());
  EXPECT_EQ(dv.extent(0), 3u);
  EXPECT_EQ(dv.extent_int(1), 4);
  EXPECT_EQ(dv.span(), 12u);
  EXPECT_TRUE(dv.span_is_contiguous());
  size_t s[3] = {0, 0, 0};
  dv.stride(s);
  EXPECT_EQ(s[0], 1u);
  EXPECT_EQ(s[1], 3u);
}

// ---- one Device on both sides: one allocation, no counters ------------------------------------
TEST(DualView, SingleDeviceSharesOneAllocationAndIgnoresModify) {
  using DV = Kokkos::DualView<int*, Kokkos::HostSpace>;
  static_assert(DV::impl_dualview_is_single_device);
  DV dv("single", 10);
  EXPECT_EQ(dv.view_host().data(), dv.view_device().data());
  dv.view_host()(3) = 7;
  dv.modify_host();
  EXPECT_FALSE(dv.need_sync_device());
  EXPECT_FALSE(dv.need_sync_host());
  dv.sync_device();
  EXPECT_EQ(dv.view_device()(3), 7);
  dv.modify_device();
  dv.modify_host();  // no "concurrent modification" abort: nothing is tracked
  EXPECT_FALSE(dv.template need_sync<Kokkos::DefaultHostExecutionSpace>());
}

TEST(DualView, EmptyAndZeroLength) {
  Kokkos::DualView<int*, Kokkos::HostSpace> none;
  EXPECT_FALSE(none.is_allocated());
  EXPECT_FALSE(none.need_sync_host());
  none.modify_host();
  none.sync_device();
  none.clear_sync_state();
  Kokkos::DualView<int*, Kokkos::HostSpace> zero("zero", 0);
  EXPECT_EQ(zero.extent(0), 0u);
  zero.sync_host();
  zero.realloc(1);
  EXPECT_EQ(zero.extent(0), 1u);
  EXPECT_EQ(zero.view_host()(0), 0);
}

// ---- two Devices over one memory space: the counters work, sync copies nothing ----------------
#if defined(KOKKOS_ENABLE_SERIAL) && (defined(KOKKOS_ENABLE_OPENMP) || defined(KOKKOS_ENABLE_THREADS))
using TwoSided = Kokkos::DualView<int*, Kokkos::Serial>;
static_assert(!TwoSided::impl_dualview_is_single_device);

TEST(DualViewTwoDevices, CountersFollowModifyAndSync) {
  TwoSided dv("two", 8);
  EXPECT_EQ(dv.view_host().data(), dv.view_device().data());
  EXPECT_FALSE(dv.need_sync_host());
  EXPECT_FALSE(dv.need_sync_device());

  dv.modify_host();
  EXPECT_TRUE(dv.need_sync_device());
  EXPECT_FALSE(dv.need_sync_host());
  EXPECT_TRUE(dv.need_sync<Kokkos::Serial>());
  EXPECT_FALSE(dv.need_sync<Kokkos::DefaultHostExecutionSpace>());
  dv.sync<Kokkos::Serial>();
  EXPECT_FALSE(dv.need_sync_device());

  dv.modify<Kokkos::Serial>();
  EXPECT_TRUE(dv.need_sync_host());
  dv.sync_host();
  EXPECT_FALSE(dv.need_sync_host());

  // A memory space names both sides here: modify and sync through it do nothing.
  dv.modify<Kokkos::HostSpace>();
  EXPECT_FALSE(dv.need_sync_host());
  EXPECT_FALSE(dv.need_sync_device());

  dv.modify_device();
  dv.modify_device();
  EXPECT_TRUE(dv.need_sync_host());
  dv.clear_sync_state();
  EXPECT_FALSE(dv.need_sync_host());
}

TEST(DualViewTwoDevices, CopiesAndConstConversionShareCounters) {
  TwoSided a("a", 4);
  TwoSided b = a;
  Kokkos::DualView<const int*, Kokkos::Serial> c = a;
  static_assert(std::is_same_v<decltype(c)::t_dev::value_type, const int>);
  EXPECT_EQ(c.view_device().data(), a.view_device().data());
  a.modify_host();
  EXPECT_TRUE(b.need_sync_device());
  EXPECT_TRUE(c.need_sync_device());
  b.sync_device();
  EXPECT_FALSE(a.need_sync_device());
  // A const DualView cannot copy into its const side.
  a.modify_device();
  EXPECT_THROW(c.sync_host(), std::runtime_error);
}

TEST(DualViewTwoDevices, ResizeKeepsTheNewestSideAndMarksIt) {
  TwoSided dv("r", 4);
  for (int i = 0; i < 4; ++i) dv.view_host()(i) = 10 + i;
  dv.modify_host();
  dv.resize(6);
  EXPECT_EQ(dv.extent(0), 6u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(dv.view_host()(i), 10 + i);
  EXPECT_EQ(dv.view_host()(5), 0);
  EXPECT_TRUE(dv.need_sync_device());
  dv.sync_device();
  Kokkos::resize(Kokkos::WithoutInitializing, dv, 2);
  EXPECT_EQ(dv.extent(0), 2u);
  EXPECT_EQ(dv.view_device()(1), 11);
  EXPECT_TRUE(dv.need_sync_host());  // the device side was kept and marked
  dv.resize(2);                      // same extent: nothing changes
  EXPECT_EQ(dv.view_device()(0), 10);
}

TEST(DualViewTwoDevices, ReallocDiscardsAndClears) {
  TwoSided dv("re", 3);
  dv.view_host()(0) = 5;
  dv.modify_host();
  dv.realloc(3);  // same extent: contents re-initialised
  EXPECT_EQ(dv.view_host()(0), 0);
  EXPECT_FALSE(dv.need_sync_device());
  dv.modify_device();
  Kokkos::realloc(dv, 7);
  EXPECT_EQ(dv.extent(0), 7u);
  EXPECT_FALSE(dv.need_sync_host());
  dv.realloc(Kokkos::WithoutInitializing, 9);
  EXPECT_EQ(dv.extent(0), 9u);
  EXPECT_EQ(dv.view_host().label(), "re");
}

TEST(DualViewTwoDevicesDeathTest, ConcurrentModificationAborts) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  EXPECT_DEATH(
      {
        TwoSided dv("both", 2);
        dv.modify_host();
        dv.modify_device();
      },
      "Concurrent modification");
}

TEST(DualViewTwoDevices, DeepCopyTakesTheNewestSide) {
  TwoSided src("src", 5), dst("dst", 5);
  for (int i = 0; i < 5; ++i) src.view_host()(i) = i * i;
  src.modify_host();
  Kokkos::deep_copy(dst, src);
  EXPECT_TRUE(dst.need_sync_device());
  for (int i = 0; i < 5; ++i) EXPECT_EQ(dst.view_host()(i), i * i);
  src.sync_device();
  dst.sync_device();
  Kokkos::deep_copy(Kokkos::Serial(), dst, src);
  EXPECT_TRUE(dst.need_sync_host());
}

TEST(DualViewTwoDevices, SubviewSharesCountersAndData) {
  Kokkos::DualView<int**, Kokkos::LayoutRight, Kokkos::Serial> dv("2d", 4, 3);
  auto row = Kokkos::subview(dv, 2, Kokkos::ALL);
  static_assert(Kokkos::is_dual_view_v<decltype(row)>);
  EXPECT_EQ(row.extent(0), 3u);
  row.view_host()(1) = 42;
  EXPECT_EQ(dv.view_host()(2, 1), 42);
  row.modify_host();
  EXPECT_TRUE(dv.need_sync_device());
}
#endif

TEST(DualView, FromTwoViews) {
  using DV = Kokkos::DualView<double*, Kokkos::HostSpace>;
  DV::t_dev d("d", 4);
  DV dv(d, DV::t_host(d));
  EXPECT_EQ(dv.view_host().data(), d.data());
  DV::t_dev other("other", 5);
  EXPECT_THROW(DV(d, DV::t_host(other)), std::runtime_error);
}

TEST(DualView, LabelledWithViewAlloc) {
  Kokkos::DualView<float*, Kokkos::HostSpace> dv(Kokkos::view_alloc("lab", Kokkos::WithoutInitializing), 16);
  EXPECT_EQ(dv.extent(0), 16u);
  EXPECT_EQ(dv.view_device().label(), "lab");
  Kokkos::DualView<float*, Kokkos::HostSpace> seq(Kokkos::view_alloc("seq", Kokkos::SequentialHostInit), 4);
  EXPECT_EQ(seq.view_host()(3), 0.0f);
}

// Elements without a default constructor: WithoutInitializing construction, resize and realloc
// compile and keep what the caller constructed, as in Kokkos.
struct Tagged {
  int id;
  KOKKOS_INLINE_FUNCTION explicit Tagged(int i) : id(i) {}
};

TEST(DualView, ElementsWithoutDefaultConstructor) {
  Kokkos::DualView<Tagged*, Kokkos::HostSpace> dv(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tagged"), 5);
  EXPECT_EQ(dv.extent(0), 5u);
  EXPECT_EQ(dv.view_host().label(), "tagged");
  for (int i = 0; i < 5; ++i) new (&dv.view_host()(i)) Tagged(i + 1);
  dv.modify_host();
  dv.resize(Kokkos::WithoutInitializing, 8);
  EXPECT_EQ(dv.extent(0), 8u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(dv.view_device()(i).id, i + 1);
  Kokkos::resize(Kokkos::view_alloc(Kokkos::WithoutInitializing), dv, 3);
  EXPECT_EQ(dv.view_host()(2).id, 3);
  dv.realloc(Kokkos::WithoutInitializing, 2);
  EXPECT_EQ(dv.extent(0), 2u);
  EXPECT_EQ(dv.view_host().label(), "tagged");
#if defined(KOKKOS_ENABLE_SERIAL) && (defined(KOKKOS_ENABLE_OPENMP) || defined(KOKKOS_ENABLE_THREADS))
  Kokkos::DualView<Tagged*, Kokkos::Serial> two(Kokkos::view_alloc("two", Kokkos::WithoutInitializing), 4);
  for (int i = 0; i < 4; ++i) new (&two.view_host()(i)) Tagged(7 * i);
  two.modify_host();
  Kokkos::resize(Kokkos::WithoutInitializing, two, 6);
  two.sync_device();
  EXPECT_EQ(two.view_device()(3).id, 21);
  Kokkos::realloc(Kokkos::WithoutInitializing, two, 1);
  EXPECT_EQ(two.extent(0), 1u);
#endif
}

}  // namespace

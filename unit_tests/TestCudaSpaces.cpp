// The CUDA memory spaces and what Views do with them: accessibility between every pair of spaces,
// allocation and element initialisation in each space, deep_copy between every pair (contiguous,
// non-contiguous, fills, with and without an execution space instance), mirrors, resize, and the
// errors (oversized allocation, host access to device memory, no GPU).  Tests that need a GPU
// skip, naming why, where none is visible.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>
#include "TestCommon.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
namespace {

using Kokkos::Cuda;
using Kokkos::CudaHostPinnedSpace;
using Kokkos::CudaSpace;
using Kokkos::CudaUVMSpace;
using Kokkos::HostSpace;
using Kokkos::SpaceAccessibility;

// ---------------------------------------------------------------------------------------------
// Compile-time properties (checked on every machine).
static_assert(!CudaSpace::is_host_accessible && CudaUVMSpace::is_host_accessible &&
              CudaHostPinnedSpace::is_host_accessible);
static_assert(std::is_same_v<Kokkos::SharedSpace, CudaUVMSpace> &&
              std::is_same_v<Kokkos::SharedHostPinnedSpace, CudaHostPinnedSpace> && Kokkos::has_shared_space &&
              Kokkos::has_shared_host_pinned_space);
static_assert(std::is_same_v<Cuda::memory_space, CudaSpace> && std::is_same_v<CudaUVMSpace::execution_space, Cuda> &&
              std::is_same_v<CudaHostPinnedSpace::execution_space, Kokkos::DefaultHostExecutionSpace>);
static_assert(std::is_same_v<Kokkos::Device<Cuda, CudaUVMSpace>::memory_space, CudaUVMSpace>);
static_assert(std::is_same_v<Cuda::size_type, unsigned int>);

// The host reaches everything but CudaSpace; the GPU reaches every CUDA space but plain host memory.
static_assert(SpaceAccessibility<HostSpace, HostSpace>::accessible);
static_assert(!SpaceAccessibility<HostSpace, CudaSpace>::accessible);
static_assert(SpaceAccessibility<HostSpace, CudaUVMSpace>::accessible);
static_assert(SpaceAccessibility<HostSpace, CudaHostPinnedSpace>::accessible);
static_assert(SpaceAccessibility<Kokkos::DefaultHostExecutionSpace, CudaUVMSpace>::accessible);
static_assert(!SpaceAccessibility<Kokkos::DefaultHostExecutionSpace, CudaSpace>::accessible);
static_assert(!SpaceAccessibility<Cuda, HostSpace>::accessible);
static_assert(SpaceAccessibility<Cuda, CudaSpace>::accessible);
static_assert(SpaceAccessibility<Cuda, CudaUVMSpace>::accessible);
static_assert(SpaceAccessibility<Cuda, CudaHostPinnedSpace>::accessible);
static_assert(SpaceAccessibility<CudaSpace, CudaUVMSpace>::accessible);
static_assert(!SpaceAccessibility<CudaSpace, HostSpace>::accessible);
// A memory space as the accessing space means its execution space: managed memory's is Cuda,
// pinned memory's is the host's.
static_assert(!SpaceAccessibility<CudaUVMSpace, HostSpace>::accessible);
static_assert(SpaceAccessibility<CudaUVMSpace, CudaSpace>::accessible);
static_assert(SpaceAccessibility<CudaHostPinnedSpace, HostSpace>::accessible);
static_assert(!SpaceAccessibility<CudaHostPinnedSpace, CudaSpace>::accessible);
static_assert(SpaceAccessibility<Kokkos::Device<Cuda, CudaUVMSpace>, CudaUVMSpace>::accessible);
static_assert(SpaceAccessibility<Kokkos::Device<Cuda, CudaUVMSpace>, CudaSpace>::accessible);
// A View of CudaSpace may be assigned one of CudaUVMSpace, not the other way round.
static_assert(SpaceAccessibility<CudaSpace, CudaUVMSpace>::assignable);
static_assert(!SpaceAccessibility<CudaUVMSpace, CudaSpace>::assignable);
static_assert(!SpaceAccessibility<HostSpace, CudaHostPinnedSpace>::assignable);
// ... and so are the Views (as Kokkos: View assignment follows MemorySpaceAccess::assignable).
template <class Dst, class Src>
inline constexpr bool view_assignable = Kokkos::Impl::ViewAssignCheck<Dst, Src>::value;
static_assert(view_assignable<Kokkos::View<double*, CudaSpace>, Kokkos::View<double*, CudaUVMSpace>>);
static_assert(view_assignable<Kokkos::View<const double**, Kokkos::LayoutStride, CudaSpace>,
                              Kokkos::View<double**, Kokkos::LayoutLeft, CudaUVMSpace>>);
static_assert(!view_assignable<Kokkos::View<double*, CudaUVMSpace>, Kokkos::View<double*, CudaSpace>>);
static_assert(!view_assignable<Kokkos::View<double*, HostSpace>, Kokkos::View<double*, CudaHostPinnedSpace>>);
static_assert(!view_assignable<Kokkos::View<double*, CudaSpace>, Kokkos::View<double*, HostSpace>>);

// HostMirror: host memory for device memory; the same space for memory the host reaches.
static_assert(std::is_same_v<Kokkos::View<double*, CudaSpace>::HostMirror::memory_space, HostSpace>);
static_assert(std::is_same_v<Kokkos::View<double*>::HostMirror::memory_space, HostSpace>);
static_assert(std::is_same_v<Kokkos::View<double*, CudaUVMSpace>::HostMirror::memory_space, CudaUVMSpace>);
static_assert(std::is_same_v<Kokkos::View<double*, CudaHostPinnedSpace>::HostMirror::memory_space,
                             CudaHostPinnedSpace>);
static_assert(std::is_same_v<Kokkos::View<double*, CudaSpace>::HostMirror::execution_space,
                             Kokkos::DefaultHostExecutionSpace>);

// The test suite's own classification (TestCommon.hpp): what needs a device skips without one.
static_assert(Kokkos::Test::needs_device<Cuda> && Kokkos::Test::needs_device<CudaHostPinnedSpace> &&
              Kokkos::Test::needs_device<Kokkos::Device<Cuda, CudaUVMSpace>> &&
              !Kokkos::Test::needs_device<HostSpace> &&
              !Kokkos::Test::needs_device<Kokkos::DefaultHostExecutionSpace>);

bool gpu_visible() { return Kokkos::Test::device_unavailable_reason<Cuda>().empty(); }

template <class F>
std::string thrown_message(F&& use) {
  try {
    use();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// Host execution and memory spaces work with CUDA enabled, with or without a GPU.
TEST(CudaSpacesNoGpu, HostSpacesKeepWorking) {
  Kokkos::View<int*, HostSpace> host("host", 10);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 10),
                       [=](int i) { host(i) = 2 * i; });
  Kokkos::fence();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(host(i), 2 * i);
}

// ---------------------------------------------------------------------------------------------
// Without a GPU (the initialize() of this process found none): the first use throws.
TEST(CudaSpacesNoGpu, FirstUseThrowsNamingTheCudaError) {
  if (gpu_visible()) GTEST_SKIP() << "a GPU is visible: the no-GPU path cannot be exercised here";
  const std::string exec = thrown_message([] { Cuda c; });
  EXPECT_EQ(exec.find("Kokkos::Cuda: no usable CUDA device: cudaGetDeviceCount() failed: cudaError"), 0u) << exec;
  const std::string raw = thrown_message([] { (void)CudaSpace().allocate("raw", 64); });
  EXPECT_EQ(raw.find("Kokkos::CudaSpace::allocate: no usable CUDA device"), 0u) << raw;
  const std::string view = thrown_message([] { Kokkos::View<double*> v("default_space_view", 8); });
  EXPECT_EQ(view.find("Kokkos::CudaSpace::allocate: no usable CUDA device"), 0u) << view;
  const std::string part = thrown_message([] { (void)Kokkos::Experimental::partition_space(Cuda(), 1, 1); });
  EXPECT_NE(part.find("no usable CUDA device"), std::string::npos) << part;
  EXPECT_FALSE(Kokkos::Impl::cuda_device_available());
  // Host spaces and global fences keep working.
  Kokkos::View<int*, HostSpace> h("h", 5);
  Kokkos::deep_copy(h, 4);
  Kokkos::fence();
  EXPECT_EQ(h(4), 4);
}

// Host code touching device memory aborts naming the View instead of dereferencing the pointer.
// An unmanaged View over an address that is never dereferenced: runs with or without a GPU.
TEST(CudaSpacesDeathTest, HostAccessToDeviceMemoryAborts) {
  int* fake = reinterpret_cast<int*>(std::uintptr_t(0x1000));
  Kokkos::View<int*, CudaSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> v(fake, 4);
  EXPECT_DEATH(v(1) = 1, "attempt to access inaccessible memory space: View \"\" in memory space Cuda");
  EXPECT_DEATH((void)v[2], "attempt to access inaccessible memory space");
  EXPECT_DEATH((void)v.access(3), "attempt to access inaccessible memory space");
}

TEST(CudaSpacesDeathTest, HostAccessToAllocatedDeviceViewNamesTheLabel) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  Kokkos::View<double**, CudaSpace> v("device_matrix", 3, 3);
  EXPECT_DEATH(v(1, 2) = 1.0,
               "attempt to access inaccessible memory space: View \"device_matrix\" in memory space Cuda");
}

// ---------------------------------------------------------------------------------------------
// With a GPU.
TEST(CudaSpaces, ExecutionSpaceInstances) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const Cuda def;
  EXPECT_EQ(def, Cuda());
  EXPECT_GT(def.concurrency(), 0);
  EXPECT_GE(def.cuda_device(), 0);
  EXPECT_STREQ(Cuda::name(), "Cuda");
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  {
    const Cuda mine(stream);
    EXPECT_EQ(mine.cuda_stream(), stream);
    EXPECT_FALSE(mine == def);
    const Cuda copy = mine;
    EXPECT_EQ(copy, mine);
    EXPECT_NE(copy.impl_instance_id(), def.impl_instance_id());
    copy.fence("TestCudaSpaces: fence on a user stream");
  }
  // The instance did not own the stream: it is still usable.
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);

  const auto parts = Kokkos::Experimental::partition_space(def, 1, 2);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_NE(parts[0].cuda_stream(), parts[1].cuda_stream());
  EXPECT_NE(parts[0].cuda_stream(), def.cuda_stream());
  for (const auto& p : parts) p.fence();

  std::ostringstream os;
  def.print_configuration(os, true);
  EXPECT_NE(os.str().find("compute capability"), std::string::npos) << os.str();
}

TEST(CudaSpaces, ScratchGrowsAndFlagsStartZero) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  Kokkos::Impl::CudaInternal& internal = *Cuda().impl_internal_space_instance();
  std::lock_guard<std::mutex> lock(internal.m_mutexScratchSpace);
  auto* a = internal.scratch_space(1000);
  EXPECT_NE(a, nullptr);
  EXPECT_EQ(internal.scratch_space(500), a);  // grow-only: a smaller request reuses the buffer
  auto* flags = internal.scratch_flags(4096);
  unsigned host[1024];
  ASSERT_EQ(cudaMemcpy(host, flags, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
  for (unsigned f : host) ASSERT_EQ(f, 0u);
  auto* unified = internal.scratch_unified(64);
  unified[0] = 42;  // host-pinned: the host writes it directly
  EXPECT_EQ(unified[0], 42u);
  EXPECT_NE(internal.resize_team_scratch_space(1 << 20), nullptr);
}

template <class Space>
void check_allocation() {
  const int n = 1000;
  Kokkos::View<double*, Space> v("alloc_test", n);
  EXPECT_EQ(v.label(), "alloc_test");
  EXPECT_EQ(v.extent(0), std::size_t(n));
  auto h = Kokkos::create_mirror_view_and_copy(HostSpace(), v);
  for (int i = 0; i < n; ++i) ASSERT_EQ(h(i), 0.0) << Space::name() << " element " << i;
  Kokkos::View<double*, Space> uninit(Kokkos::view_alloc(Kokkos::WithoutInitializing, "uninit"), n);
  EXPECT_NE(uninit.data(), nullptr);
  Kokkos::View<double*, Space> empty("empty", 0);
  EXPECT_EQ(empty.size(), 0u);
  // Reference counting stays on the host.
  {
    auto copy = v;
    EXPECT_EQ(v.use_count(), 2);
  }
  EXPECT_EQ(v.use_count(), 1);
}

TEST(CudaSpaces, AllocationInEverySpaceIsValueInitialized) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  check_allocation<CudaSpace>();
  check_allocation<CudaUVMSpace>();
  check_allocation<CudaHostPinnedSpace>();
}

// A CudaSpace View assigned a CudaUVMSpace one shares its allocation: the kernel writes through the
// former, the host reads through the latter; the allocation lives until the last of them goes.
TEST(CudaSpaces, DeviceViewTakesManagedView) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  Kokkos::View<int*, CudaSpace> device;
  EXPECT_FALSE(Kokkos::is_assignable(Kokkos::View<int*, CudaUVMSpace>(), device));
  {
    Kokkos::View<int*, CudaUVMSpace> managed("managed", 100);
    EXPECT_TRUE(Kokkos::is_assignable(device, managed));
    device = managed;
    EXPECT_EQ(device.data(), managed.data());
    EXPECT_EQ(device.extent(0), 100u);
    EXPECT_EQ(managed.use_count(), 2);
    EXPECT_EQ(device.label(), "managed");
    Kokkos::parallel_for(Kokkos::RangePolicy<Cuda>(0, 100), KOKKOS_LAMBDA(int i) { device(i) = 3 * i + 1; });
    Kokkos::fence();
    for (int i = 0; i < 100; ++i) ASSERT_EQ(managed(i), 3 * i + 1) << i;
  }
  EXPECT_EQ(device.use_count(), 1);
  const auto host = Kokkos::create_mirror_view_and_copy(HostSpace(), device);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(host(i), 3 * i + 1) << i;
}

// A type with a constructor: its elements are constructed on the device.
struct Tagged {
  int tag;
  double value;
  KOKKOS_FUNCTION Tagged() : tag(7), value(0.5) {}
};

TEST(CudaSpaces, NonTrivialElementsAreConstructedOnTheDevice) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  Kokkos::View<Tagged*, CudaSpace> v("tagged", 300);
  Kokkos::View<Tagged*, CudaSpace> on_stream(Kokkos::view_alloc(Cuda(), "tagged_on_stream"), 300);
  Cuda().fence();
  for (const auto& view : {v, on_stream}) {
    auto h = Kokkos::create_mirror_view_and_copy(HostSpace(), view);
    for (int i = 0; i < 300; ++i) {
      ASSERT_EQ(h(i).tag, 7);
      ASSERT_EQ(h(i).value, 0.5);
    }
  }
}

template <class A, class B>
void round_trip(int n) {
  SCOPED_TRACE(std::string(A::name()) + " -> " + B::name());
  Kokkos::View<long*, HostSpace> src("src", n), back("back", n);
  for (int i = 0; i < n; ++i) src(i) = 3 * i + 1;
  Kokkos::View<long*, A> a("a", n);
  Kokkos::View<long*, B> b("b", n);
  Kokkos::deep_copy(a, src);
  Kokkos::deep_copy(b, a);
  Kokkos::deep_copy(back, b);
  for (int i = 0; i < n; ++i) ASSERT_EQ(back(i), 3 * i + 1) << "synchronous, element " << i;
  // The same through an instance: asynchronous on its stream, complete after its fence.
  const Cuda exec = Kokkos::Experimental::partition_space(Cuda(), 1)[0];
  Kokkos::deep_copy(exec, b, 0L);
  Kokkos::deep_copy(exec, a, src);
  Kokkos::deep_copy(exec, b, a);
  Kokkos::deep_copy(exec, back, b);
  exec.fence();
  for (int i = 0; i < n; ++i) ASSERT_EQ(back(i), 3 * i + 1) << "with an instance, element " << i;
}

template <class A, class... Bs>
void round_trips_from(int n) {
  (round_trip<A, Bs>(n), ...);
}

TEST(CudaSpaces, DeepCopyBetweenEveryPairOfSpaces) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  round_trips_from<HostSpace, HostSpace, CudaSpace, CudaUVMSpace, CudaHostPinnedSpace>(1000);
  round_trips_from<CudaSpace, HostSpace, CudaSpace, CudaUVMSpace, CudaHostPinnedSpace>(1000);
  round_trips_from<CudaUVMSpace, HostSpace, CudaSpace, CudaUVMSpace, CudaHostPinnedSpace>(1000);
  round_trips_from<CudaHostPinnedSpace, HostSpace, CudaSpace, CudaUVMSpace, CudaHostPinnedSpace>(1000);
}

TEST(CudaSpaces, DeepCopyNonContiguousAndAcrossLayouts) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const int rows = 13, cols = 7;
  Kokkos::View<int**, Kokkos::LayoutRight, HostSpace> h("h", rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) h(i, j) = 100 * i + j;
  // Different layouts: the elements, not the bytes, are copied.
  Kokkos::View<int**, Kokkos::LayoutLeft, CudaSpace> d("d", rows, cols);
  Kokkos::deep_copy(d, h);
  Kokkos::View<int**, Kokkos::LayoutRight, HostSpace> back("back", rows, cols);
  Kokkos::deep_copy(back, d);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) ASSERT_EQ(back(i, j), 100 * i + j);
  // A strided column of a device View to a contiguous host View and back into another column;
  // the other columns stay as they were.
  Kokkos::View<int**, Kokkos::LayoutRight, CudaSpace> dr("dr", rows, cols);
  Kokkos::deep_copy(dr, h);
  auto col3 = Kokkos::subview(dr, Kokkos::ALL, 3);
  Kokkos::View<int*, HostSpace> hc("hc", rows);
  Kokkos::deep_copy(hc, col3);
  for (int i = 0; i < rows; ++i) ASSERT_EQ(hc(i), 100 * i + 3);
  for (int i = 0; i < rows; ++i) hc(i) = -i;
  Kokkos::deep_copy(Kokkos::subview(dr, Kokkos::ALL, 5), hc);
  // Device to device between a strided and a contiguous View.
  Kokkos::View<int*, CudaSpace> dc("dc", rows);
  Kokkos::deep_copy(dc, Kokkos::subview(dr, Kokkos::ALL, 5));
  Kokkos::deep_copy(back, dr);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) ASSERT_EQ(back(i, j), j == 5 ? -i : 100 * i + j);
  Kokkos::deep_copy(hc, dc);
  for (int i = 0; i < rows; ++i) ASSERT_EQ(hc(i), -i);
  // Rank 3, a strided block of one device View into a device View of the other layout (no
  // rank is contiguous in both: staged through the host).
  Kokkos::View<int***, Kokkos::LayoutRight, HostSpace> h3("h3", 4, 5, 6);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 6; ++k) h3(i, j, k) = 10000 * i + 100 * j + k;
  Kokkos::View<int***, Kokkos::LayoutRight, CudaSpace> d3("d3", 4, 5, 6);
  Kokkos::deep_copy(d3, h3);
  auto block = Kokkos::subview(d3, Kokkos::pair<int, int>(1, 3), Kokkos::ALL, Kokkos::pair<int, int>(2, 5));
  Kokkos::View<int***, Kokkos::LayoutLeft, CudaSpace> dl("dl", 2, 5, 3);
  Kokkos::deep_copy(dl, block);
  auto hl = Kokkos::create_mirror_view_and_copy(HostSpace(), dl);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 3; ++k) ASSERT_EQ(hl(i, j, k), 10000 * (i + 1) + 100 * j + k + 2);
}

TEST(CudaSpaces, FillContiguousStridedAndScalar) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  Kokkos::View<double**, Kokkos::LayoutRight, CudaSpace> d("fill", 9, 5);
  Kokkos::deep_copy(d, 2.5);
  Kokkos::deep_copy(Kokkos::subview(d, Kokkos::ALL, 1), 0.0);    // strided, zero
  Kokkos::deep_copy(Kokkos::subview(d, 4, Kokkos::ALL), -1.0);   // contiguous row, non-zero
  Kokkos::deep_copy(Cuda(), Kokkos::subview(d, 8, Kokkos::ALL), 0.0);  // through an instance
  Cuda().fence();
  auto h = Kokkos::create_mirror_view_and_copy(HostSpace(), d);
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 5; ++j) {
      const double expected = i == 8 ? 0.0 : i == 4 ? -1.0 : j == 1 ? 0.0 : 2.5;
      ASSERT_EQ(h(i, j), expected) << i << "," << j;
    }
  Kokkos::View<double, CudaSpace> scalar("scalar");
  Kokkos::deep_copy(scalar, 6.25);
  double x = 0;
  Kokkos::deep_copy(x, scalar);
  EXPECT_EQ(x, 6.25);
  Kokkos::View<Tagged*, CudaSpace> tagged("tagged_fill", 10);
  Tagged t;
  t.tag = 3;
  Kokkos::deep_copy(tagged, t);
  auto ht = Kokkos::create_mirror_view_and_copy(HostSpace(), tagged);
  for (int i = 0; i < 10; ++i) ASSERT_EQ(ht(i).tag, 3);
}

TEST(CudaSpaces, Mirrors) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  Kokkos::View<int*, CudaSpace> d("mirrored", 50);
  auto m = Kokkos::create_mirror(d);
  static_assert(std::is_same_v<decltype(m)::memory_space, HostSpace>);
  auto mv = Kokkos::create_mirror_view(d);
  static_assert(std::is_same_v<decltype(mv)::memory_space, HostSpace>);
  EXPECT_NE(static_cast<void*>(mv.data()), static_cast<void*>(d.data()));
  for (int i = 0; i < 50; ++i) mv(i) = i * i;
  Kokkos::deep_copy(d, mv);
  auto back = Kokkos::create_mirror_view_and_copy(HostSpace(), d);
  for (int i = 0; i < 50; ++i) ASSERT_EQ(back(i), i * i);
  // Into device memory from the host, and a mirror in a named space.
  auto on_device = Kokkos::create_mirror_view_and_copy(CudaSpace(), mv);
  static_assert(std::is_same_v<decltype(on_device)::memory_space, CudaSpace>);
  auto again = Kokkos::create_mirror_view_and_copy(CudaSpace(), on_device);
  EXPECT_EQ(again.data(), on_device.data());  // already there: the same View
  auto in_uvm = Kokkos::create_mirror(CudaUVMSpace(), d);
  Kokkos::deep_copy(in_uvm, d);
  Kokkos::fence();
  for (int i = 0; i < 50; ++i) ASSERT_EQ(in_uvm(i), i * i);
  // Managed memory is host accessible: its host mirror view is itself.
  auto uvm_mirror = Kokkos::create_mirror_view(in_uvm);
  EXPECT_EQ(uvm_mirror.data(), in_uvm.data());
}

TEST(CudaSpaces, ResizeAndReallocKeepOrDropContents) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  Kokkos::View<int*, CudaSpace> v("grow", 10);
  auto h = Kokkos::create_mirror_view(v);
  for (int i = 0; i < 10; ++i) h(i) = i + 1;
  Kokkos::deep_copy(v, h);
  Kokkos::resize(v, 25);
  EXPECT_EQ(v.label(), "grow");
  auto hv = Kokkos::create_mirror_view_and_copy(HostSpace(), v);
  for (int i = 0; i < 25; ++i) ASSERT_EQ(hv(i), i < 10 ? i + 1 : 0);
  Kokkos::resize(v, 4);
  hv = Kokkos::create_mirror_view_and_copy(HostSpace(), v);
  for (int i = 0; i < 4; ++i) ASSERT_EQ(hv(i), i + 1);

  Kokkos::View<int**, Kokkos::LayoutLeft, CudaSpace> m("matrix", 3, 4);
  Kokkos::View<int**, Kokkos::LayoutLeft, HostSpace> hm("hm", 3, 4);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) hm(i, j) = 10 * i + j;
  Kokkos::deep_copy(m, hm);
  Kokkos::resize(m, 5, 2);
  auto hm2 = Kokkos::create_mirror_view_and_copy(HostSpace(), m);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 2; ++j) ASSERT_EQ(hm2(i, j), i < 3 ? 10 * i + j : 0) << i << "," << j;

  Kokkos::realloc(m, 2, 2);
  hm2 = Kokkos::create_mirror_view_and_copy(HostSpace(), m);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) ASSERT_EQ(hm2(i, j), 0);
}

TEST(CudaSpaces, OversizedAllocationNamesLabelSizeSpaceAndError) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const std::size_t huge = std::size_t(1) << 50;  // 1 PiB
  const std::string what = thrown_message([&] { Kokkos::View<char*, CudaSpace> v("too_big", huge); });
  EXPECT_NE(what.find("Kokkos::CudaSpace::allocate(\"too_big\", 1 PiB) failed: cudaErrorMemoryAllocation"),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("1125899906842624 bytes"), std::string::npos) << what;
  // Kokkos' (and HostSpace's) wording leads, for kokkos_malloc's default label too.
  EXPECT_EQ(what.find("Kokkos failed to allocate memory for label \"too_big\"."), 0u) << what;
  const std::string unlabeled = thrown_message([&] { (void)Kokkos::kokkos_malloc<CudaSpace>(huge); });
  EXPECT_EQ(unlabeled.find("Kokkos failed to allocate memory for label \"no-label\"."), 0u) << unlabeled;
  // The device is still usable afterwards.
  Kokkos::View<int*, CudaSpace> fine("fine", 10);
  Kokkos::deep_copy(fine, 1);
  auto h = Kokkos::create_mirror_view_and_copy(HostSpace(), fine);
  EXPECT_EQ(h(9), 1);
}

}  // namespace
#endif

#if defined(KOKKOS_ENABLE_CUDA)
namespace {
namespace KTE = Kokkos::Tools::Experimental;

struct ToolEvent {
  std::string what;  // "alloc", "dealloc", "fence"
  std::string name;  // space name or fence label
  std::uint64_t value;  // bytes or device id
};
std::vector<ToolEvent> g_tool_events;

// Kokkos Tools see CUDA allocations under the space's name and Cuda fences with a Cuda device id.
TEST(CudaSpaces, ToolsSeeAllocationsAndFences) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  g_tool_events.clear();
  KTE::set_allocate_data_callback([](Kokkos::Tools::SpaceHandle space, const char*, const void*, std::uint64_t bytes) {
    g_tool_events.push_back({"alloc", space.name, bytes});
  });
  KTE::set_deallocate_data_callback(
      [](Kokkos::Tools::SpaceHandle space, const char*, const void*, std::uint64_t bytes) {
        g_tool_events.push_back({"dealloc", space.name, bytes});
      });
  KTE::set_begin_fence_callback([](const char* name, std::uint32_t device_id, std::uint64_t* handle) {
    *handle = 1;
    g_tool_events.push_back({"fence", name, device_id});
  });
  {
    Kokkos::View<double*, CudaSpace> v("tools_view", 100);
    Kokkos::View<double*, CudaUVMSpace> u("tools_uvm", 10);
  }
  Cuda().fence("tools cuda fence");
  KTE::set_callbacks({});
  std::vector<std::string> seen;
  for (const auto& e : g_tool_events) seen.push_back(e.what + ":" + e.name + ":" + std::to_string(e.value));
  const auto has = [&](const std::string& s) { return std::find(seen.begin(), seen.end(), s) != seen.end(); };
  EXPECT_TRUE(has("alloc:Cuda:800"));
  EXPECT_TRUE(has("dealloc:Cuda:800"));
  EXPECT_TRUE(has("alloc:CudaUVM:80"));
  const auto fence = std::find_if(g_tool_events.begin(), g_tool_events.end(),
                                  [](const ToolEvent& e) { return e.what == "fence" && e.name == "tools cuda fence"; });
  ASSERT_NE(fence, g_tool_events.end());
  EXPECT_EQ(KTE::identifier_from_devid(std::uint32_t(fence->value)).type, KTE::DeviceType::Cuda);
}
}  // namespace
#endif

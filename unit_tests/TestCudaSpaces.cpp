// The CUDA execution and memory spaces as a user meets them: instances, fences, Views in every
// CUDA memory space, deep_copy and mirrors between them and the host, and what happens on a
// machine without a GPU (host spaces keep working; the first use of a CUDA space throws a
// std::runtime_error naming the CUDA error).  Built only with Kokkos_ENABLE_CUDA.
#include "TestCommon.hpp"

#include <stdexcept>
#include <string>

namespace {

bool gpu_visible() { return Kokkos::Test::device_unavailable_reason<Kokkos::Cuda>().empty(); }

// ---- without a GPU ----------------------------------------------------------------------

TEST(CudaWithoutGpu, HostSpacesKeepWorking) {
  Kokkos::View<int*, Kokkos::HostSpace> host("host", 10);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 10),
                       [=](int i) { host(i) = 2 * i; });
  Kokkos::fence();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(host(i), 2 * i);
}

TEST(CudaWithoutGpu, FirstUseOfCudaThrowsNamingTheError) {
  if (gpu_visible()) GTEST_SKIP() << "a GPU is visible: this test checks the GPU-less path";
  try {
    Kokkos::Cuda exec;
    FAIL() << "Kokkos::Cuda() succeeded without a GPU";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << e.what();
  }
}

template <class MemorySpace>
void expect_allocation_throws() {
  try {
    Kokkos::View<double*, MemorySpace> v("kdag_no_gpu_view", 100);
    FAIL() << "allocating in " << MemorySpace::name() << " succeeded without a GPU";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cuda"), std::string::npos) << what;
  }
}

TEST(CudaWithoutGpu, AllocationInEveryCudaSpaceThrows) {
  if (gpu_visible()) GTEST_SKIP() << "a GPU is visible: this test checks the GPU-less path";
  expect_allocation_throws<Kokkos::CudaSpace>();
  expect_allocation_throws<Kokkos::CudaUVMSpace>();
  expect_allocation_throws<Kokkos::CudaHostPinnedSpace>();
}

// ---- on a GPU ---------------------------------------------------------------------------

TEST(CudaSpaces, InstanceQueries) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  const Kokkos::Cuda exec;
  EXPECT_GT(exec.concurrency(), 0);
  EXPECT_GE(exec.cuda_device(), 0);
  EXPECT_STREQ(Kokkos::Cuda::name(), "Cuda");
  EXPECT_TRUE(exec == Kokkos::Cuda());
  exec.fence();
  exec.fence("TestCudaSpaces: labelled fence");
}

TEST(CudaSpaces, InstanceOwningAStream) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  {
    const Kokkos::Cuda exec(stream);
    EXPECT_EQ(exec.cuda_stream(), stream);
    EXPECT_FALSE(exec == Kokkos::Cuda());
    exec.fence();
  }
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

// Host -> MemorySpace -> host round trip through deep_copy and a mirror.
template <class MemorySpace>
void check_round_trip() {
  constexpr int n = 1000;
  Kokkos::View<int*, MemorySpace> device("device", n);
  auto host = Kokkos::create_mirror_view(device);
  for (int i = 0; i < n; ++i) host(i) = 3 * i + 1;
  Kokkos::deep_copy(device, host);
  Kokkos::View<int*, Kokkos::HostSpace> back("back", n);
  Kokkos::deep_copy(back, device);
  for (int i = 0; i < n; ++i) ASSERT_EQ(back(i), 3 * i + 1) << MemorySpace::name() << " index " << i;
}

TEST(CudaSpaces, DeepCopyRoundTripInEveryCudaSpace) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  check_round_trip<Kokkos::CudaSpace>();
  check_round_trip<Kokkos::CudaUVMSpace>();
  check_round_trip<Kokkos::CudaHostPinnedSpace>();
}

TEST(CudaSpaces, DeviceToDeviceAndScalarFill) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  constexpr int n = 257;
  Kokkos::View<double*, Kokkos::CudaSpace> a("a", n), b("b", n);
  Kokkos::deep_copy(a, 2.5);
  Kokkos::deep_copy(b, a);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  for (int i = 0; i < n; ++i) ASSERT_EQ(host(i), 2.5) << "index " << i;
}

TEST(CudaSpaces, AsynchronousDeepCopyOnAnInstance) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  constexpr int n = 4096;
  const Kokkos::Cuda exec;
  Kokkos::View<float*, Kokkos::CudaSpace> device("device", n);
  Kokkos::View<float*, Kokkos::HostSpace> host("host", n);
  for (int i = 0; i < n; ++i) host(i) = 0.5f * float(i);
  Kokkos::deep_copy(exec, device, host);
  Kokkos::View<float*, Kokkos::HostSpace> back("back", n);
  Kokkos::deep_copy(exec, back, device);
  exec.fence();
  for (int i = 0; i < n; ++i) ASSERT_EQ(back(i), 0.5f * float(i)) << "index " << i;
}

TEST(CudaSpaces, HostMirrorOfADeviceViewIsHostAccessible) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  using DeviceView = Kokkos::View<int**, Kokkos::CudaSpace>;
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename DeviceView::HostMirror::memory_space>::accessible);
  DeviceView device("device", 7, 5);
  auto mirror = Kokkos::create_mirror(device);
  EXPECT_EQ(mirror.extent(0), 7u);
  EXPECT_EQ(mirror.extent(1), 5u);
}

// Which spaces can reach which memory, as in Kokkos.
static_assert(!Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::CudaSpace>::accessible);
static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::CudaUVMSpace>::accessible);
static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::CudaHostPinnedSpace>::accessible);
static_assert(Kokkos::SpaceAccessibility<Kokkos::Cuda, Kokkos::CudaSpace>::accessible);
static_assert(Kokkos::SpaceAccessibility<Kokkos::Cuda, Kokkos::CudaUVMSpace>::accessible);
static_assert(Kokkos::SpaceAccessibility<Kokkos::Cuda, Kokkos::CudaHostPinnedSpace>::accessible);
static_assert(!Kokkos::SpaceAccessibility<Kokkos::Cuda, Kokkos::HostSpace>::accessible);
static_assert(std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>);
static_assert(Kokkos::Impl::is_host_backend<Kokkos::DefaultHostExecutionSpace>::value);
static_assert(Kokkos::Test::needs_device<Kokkos::Cuda> && Kokkos::Test::needs_device<Kokkos::CudaHostPinnedSpace> &&
              Kokkos::Test::needs_device<Kokkos::Device<Kokkos::Cuda, Kokkos::CudaUVMSpace>> &&
              !Kokkos::Test::needs_device<Kokkos::HostSpace> &&
              !Kokkos::Test::needs_device<Kokkos::DefaultHostExecutionSpace>);

}  // namespace

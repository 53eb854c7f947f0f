#pragma once
// Included by every unit test: the list of enabled back ends each typed test runs on, and the
// check that skips a device instantiation (naming why) where no GPU is visible.
#include "GTestExtendedLambda.hpp"
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace Kokkos::Test {
namespace Detail {
template <class... Spaces>
struct SpaceList {
  template <class Space>
  using add = SpaceList<Spaces..., Space>;
  using gtest_types = ::testing::Types<Spaces...>;
};
using L0 = SpaceList<>;
#if defined(KOKKOS_ENABLE_SERIAL)
using L1 = L0::add<Kokkos::Serial>;
#else
using L1 = L0;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
using L2 = L1::add<Kokkos::OpenMP>;
#else
using L2 = L1;
#endif
#if defined(KOKKOS_ENABLE_THREADS)
using L3 = L2::add<Kokkos::Threads>;
#else
using L3 = L2;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
using L4 = L3::add<Kokkos::Cuda>;
#else
using L4 = L3;
#endif

// Empty when a CUDA device is visible; asked once per process.
inline const std::string& cuda_unavailable_reason() {
#if defined(KOKKOS_ENABLE_CUDA)
  static const std::string reason = [] {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
      return std::string("no GPU visible: cudaGetDeviceCount failed: ") + cudaGetErrorName(err) + ": " +
             cudaGetErrorString(err);
    }
    if (count == 0) return std::string("no GPU visible: cudaGetDeviceCount found no CUDA device");
    return std::string();
  }();
#else
  static const std::string reason;
#endif
  return reason;
}
}  // namespace Detail

// Every enabled host back end: for tests of host-only machinery (the host thread pool, host
// teams), of host-specific behaviour of features that also run on Cuda (the task DAG,
// MemoryPool, WorkGraphPolicy and fusion have Cuda tests of their own: TestTaskEverySpace,
// TestMemoryPool, TestWorkGraph, TestFusionCuda), and for tests whose bodies run host code in
// their kernels.
using HostExecSpaces = Detail::L3::gtest_types;
// Every enabled back end, Kokkos::Cuda included when CUDA is enabled.
using ExecSpaces = Detail::L4::gtest_types;

// True for an execution space, memory space or Device that needs a GPU: a device execution
// space, or memory that is not plain host memory (CUDA, UVM and host-pinned memory all need the
// CUDA runtime and a device).
template <class Space>
inline constexpr bool needs_device = !Kokkos::Impl::is_host_backend<typename Space::execution_space>::value ||
                                     !std::is_same_v<typename Space::memory_space, Kokkos::HostSpace>;

// Why a test on `Space` cannot run in this process; empty when it can (host spaces always can,
// a CUDA space when a GPU is visible).
template <class Space>
const std::string& device_unavailable_reason() {
  static const std::string none;
  if constexpr (needs_device<Space>) {
    return Detail::cuda_unavailable_reason();
  } else {
    return none;
  }
}

// The base of every typed-test fixture: a device instantiation skips, with the reason, before
// its body runs when no GPU is visible; it never passes without running.
template <class Space>
struct SpaceTest : ::testing::Test {
 protected:
  void SetUp() override {
    const std::string& reason = device_unavailable_reason<Space>();
    if (!reason.empty()) GTEST_SKIP() << reason;
  }
};

// A host copy of a View in any memory space: how a test reads what a kernel wrote (a host
// View is returned as it is, no copy).
template <class View>
auto to_host(const View& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

// n elements of the memory of Space (an execution or memory space), each `value`: a kernel's
// input or output, read back with to_host or to_vector.
template <class Space, class T>
Kokkos::View<T*, typename Space::memory_space> filled_view(std::size_t n, const T& value) {
  Kokkos::View<T*, typename Space::memory_space> v(Kokkos::view_alloc("filled", Kokkos::WithoutInitializing), n);
  Kokkos::deep_copy(v, value);
  return v;
}

// The elements of a rank-1 View in any memory space, as a host vector.
template <class View>
std::vector<typename View::non_const_value_type> to_vector(const View& v) {
  static_assert(View::rank == 1, "Kokkos::Test::to_vector: a rank-1 View");
  const auto h = to_host(v);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

// Prints the back end's name in test names: "RangeFor/Serial.Fill".
struct SpaceNames {
  template <class T>
  static std::string GetName(int) {
    return T::name();
  }
};
}  // namespace Kokkos::Test

// For a non-typed test that runs on `Space` (e.g. Kokkos::DefaultExecutionSpace): skips the
// test, naming why, where the space cannot run here.
#define KOKKOS_TEST_REQUIRE_SPACE(Space)                                                \
  do {                                                                                  \
    const std::string& kokkos_test_reason = ::Kokkos::Test::device_unavailable_reason<Space>(); \
    if (!kokkos_test_reason.empty()) GTEST_SKIP() << kokkos_test_reason;                \
  } while (false)

// The CUDA back end's lifecycle: initialize() on a machine without a GPU (succeeds, warns once,
// the first use of Cuda or a CUDA memory space throws naming the CUDA error) and device
// selection on one with a GPU.  Kokkos initialises once per process, so each scenario runs in a
// child process.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
namespace {

static_assert(std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>,
              "with CUDA enabled the default execution space is Cuda");
static_assert(Kokkos::DefaultHostExecutionSpace::impl_is_host_backend,
              "the default host execution space stays a host back end");

struct Args {
  std::vector<std::string> storage;
  std::vector<char*> ptrs;
  int argc;
  explicit Args(std::vector<std::string> a) : storage(std::move(a)) {
    for (auto& s : storage) ptrs.push_back(s.data());
    ptrs.push_back(nullptr);
    argc = static_cast<int>(storage.size());
  }
};

// Empty when a GPU is visible, else why not.
std::string no_gpu_reason() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  (void)cudaGetLastError();
  if (err != cudaSuccess) return std::string("no GPU visible: ") + cudaGetErrorName(err) + ": " + cudaGetErrorString(err);
  return count > 0 ? "" : "no GPU visible: no CUDA device";
}
bool gpu_visible() { return no_gpu_reason().empty(); }

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

// Runs `use`, which must throw std::runtime_error; returns its message ("" when nothing threw).
template <class F>
std::string thrown_message(F&& use) {
  try {
    use();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// Exits with 0 when `ok`, else prints `why` and exits with 1.
[[noreturn]] void finish(bool ok, const std::string& why) {
  if (!ok) std::fprintf(stderr, "check failed: %s\n", why.c_str());
  std::exit(ok ? 0 : 1);
}

// The child processes' bodies (each exits: 0 when its checks hold).
[[noreturn]] void child_WithoutGpuInitializeWarnsOnceAndFirstUseThrows() {
  testing::internal::CaptureStderr();
  Kokkos::initialize();
  // Host spaces work.
  int sum = 0;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 10),
      [](int i, int& s) { s += i; }, sum);
  Kokkos::View<int*, Kokkos::HostSpace> h("h", 4);
  Kokkos::deep_copy(h, 3);
  Kokkos::fence();
  const std::string cuda = thrown_message([] { Kokkos::Cuda exec; });
  const std::string space = thrown_message([] { Kokkos::View<int*, Kokkos::CudaSpace> d("device_view", 10); });
  const std::string uvm = thrown_message([] { Kokkos::View<int*, Kokkos::CudaUVMSpace> d("uvm_view", 10); });
  const std::string pinned =
      thrown_message([] { Kokkos::View<int*, Kokkos::CudaHostPinnedSpace> d("pinned_view", 10); });
  const std::string again = thrown_message([] { Kokkos::Cuda exec; });
  Kokkos::finalize();
  const std::string err = testing::internal::GetCapturedStderr();
  finish(sum == 45 && h(3) == 3 && occurrences(err, "no usable GPU") == 1 &&
             occurrences(err, "cudaGetDeviceCount() failed: cudaError") == 1 &&
             cuda.find("Kokkos::Cuda: no usable CUDA device: cudaGetDeviceCount() failed: cudaError") == 0 &&
             space.find("Kokkos::CudaSpace::allocate: no usable CUDA device: cudaGetDeviceCount() failed: "
                        "cudaError") == 0 &&
             uvm.find("Kokkos::CudaUVMSpace::allocate: no usable CUDA device") == 0 &&
             pinned.find("Kokkos::CudaHostPinnedSpace::allocate: no usable CUDA device") == 0 && again == cuda,
         "stderr: [" + err + "] Cuda: [" + cuda + "] CudaSpace: [" + space + "] UVM: [" + uvm +
             "] pinned: [" + pinned + "] again: [" + again + "] sum " + std::to_string(sum));
}

[[noreturn]] void child_WithoutGpuDisableWarningsSilencesTheWarning() {
  Args a({"prog", "--kokkos-disable-warnings"});
  testing::internal::CaptureStderr();
  Kokkos::initialize(a.argc, a.ptrs.data());
  const std::string cuda = thrown_message([] { Kokkos::Cuda exec; });
  Kokkos::finalize();
  const std::string err = testing::internal::GetCapturedStderr();
  finish(err.find("no usable GPU") == std::string::npos && cuda.find("cudaError") != std::string::npos,
         "stderr: [" + err + "] Cuda: [" + cuda + "]");
}

[[noreturn]] void child_WithoutGpuPrintConfigurationNamesTheError() {
  Kokkos::InitializationSettings settings;
  settings.set_disable_warnings(true);
  Kokkos::initialize(settings);
  std::ostringstream os;
  Kokkos::print_configuration(os);
  Kokkos::finalize();
  const std::string out = os.str();
  finish(out.find("Default execution space: Cuda") != std::string::npos &&
             out.find("Cuda: no usable GPU: cudaGetDeviceCount() failed: cudaError") != std::string::npos,
         out);
}

[[noreturn]] void child_UseBeforeInitializeThrows() {
  const std::string cuda = thrown_message([] { Kokkos::Cuda exec; });
  finish(cuda.find("Kokkos::Cuda used before Kokkos::initialize()") == 0, cuda);
}

[[noreturn]] void child_BadDeviceMappingThrows() {
  Args a({"prog", "--kokkos-map-device-id-by=round_robin"});
  const std::string what = thrown_message([&] { Kokkos::initialize(a.argc, a.ptrs.data()); });
  finish(what.find("--kokkos-map-device-id-by must be 'mpi_rank' or 'random', got 'round_robin'") !=
             std::string::npos,
         what);
}

[[noreturn]] void child_DeviceIdSelectsTheDevice() {
  Args a({"prog", "--kokkos-device-id=0"});
  Kokkos::initialize(a.argc, a.ptrs.data());
  const Kokkos::Cuda exec;
  int current = -1;
  (void)cudaGetDevice(&current);
  const bool ok = exec.cuda_device() == 0 && current == 0 && exec.concurrency() > 0;
  Kokkos::finalize();
  finish(ok, "device " + std::to_string(current));
}

[[noreturn]] void child_DeviceIdOutOfRangeThrows() {
  Args a({"prog", "--kokkos-device-id=4096"});
  const std::string what = thrown_message([&] { Kokkos::initialize(a.argc, a.ptrs.data()); });
  finish(what.find("--kokkos-device-id=4096 is out of range") != std::string::npos, what);
}

[[noreturn]] void child_MpiRankMapsToLocalRankModuloDevices() {
  int count = 0;
  (void)cudaGetDeviceCount(&count);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "5", 1);
  Args a({"prog", "--kokkos-map-device-id-by=mpi_rank"});
  Kokkos::initialize(a.argc, a.ptrs.data());
  const int device = Kokkos::Cuda().cuda_device();
  Kokkos::finalize();
  finish(device == 5 % count, "device " + std::to_string(device));
}

[[noreturn]] void child_EnvironmentDeviceIdAndConfiguration() {
  setenv("KOKKOS_DEVICE_ID", "0", 1);
  Kokkos::initialize();
  std::ostringstream os;
  Kokkos::print_configuration(os);
  const int device = Kokkos::Cuda().cuda_device();
  Kokkos::finalize();
  const std::string out = os.str();
  finish(device == 0 && out.find("compute capability") != std::string::npos &&
             out.find("SMs") != std::string::npos && out.find("MiB global memory") != std::string::npos,
         out);
}

TEST(LifecycleCudaDeathTest, WithoutGpuInitializeWarnsOnceAndFirstUseThrows) {
  if (gpu_visible()) GTEST_SKIP() << "a GPU is visible: the no-GPU path cannot be exercised here";
  EXPECT_EXIT(child_WithoutGpuInitializeWarnsOnceAndFirstUseThrows(), ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleCudaDeathTest, WithoutGpuDisableWarningsSilencesTheWarning) {
  if (gpu_visible()) GTEST_SKIP() << "a GPU is visible: the no-GPU path cannot be exercised here";
  EXPECT_EXIT(child_WithoutGpuDisableWarningsSilencesTheWarning(), ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleCudaDeathTest, WithoutGpuPrintConfigurationNamesTheError) {
  if (gpu_visible()) GTEST_SKIP() << "a GPU is visible: the no-GPU path cannot be exercised here";
  EXPECT_EXIT(child_WithoutGpuPrintConfigurationNamesTheError(), ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleCudaDeathTest, UseBeforeInitializeThrows) {
  EXPECT_EXIT(child_UseBeforeInitializeThrows(), ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleCudaDeathTest, BadDeviceMappingThrows) {
  EXPECT_EXIT(child_BadDeviceMappingThrows(), ::testing::ExitedWithCode(0), "");
}

// --- With a GPU ------------------------------------------------------------------------------

TEST(LifecycleCudaDeathTest, DeviceIdSelectsTheDevice) {
  if (!gpu_visible()) GTEST_SKIP() << no_gpu_reason();
  EXPECT_EXIT(child_DeviceIdSelectsTheDevice(), ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleCudaDeathTest, DeviceIdOutOfRangeThrows) {
  if (!gpu_visible()) GTEST_SKIP() << no_gpu_reason();
  EXPECT_EXIT(child_DeviceIdOutOfRangeThrows(), ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleCudaDeathTest, MpiRankMapsToLocalRankModuloDevices) {
  if (!gpu_visible()) GTEST_SKIP() << no_gpu_reason();
  EXPECT_EXIT(child_MpiRankMapsToLocalRankModuloDevices(), ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleCudaDeathTest, EnvironmentDeviceIdAndConfiguration) {
  if (!gpu_visible()) GTEST_SKIP() << no_gpu_reason();
  EXPECT_EXIT(child_EnvironmentDeviceIdAndConfiguration(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
#endif

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  return RUN_ALL_TESTS();
}

#include <Cuda/Kokkos_CudaSpace.hpp>
#include <Cuda/Kokkos_Cuda.hpp>
#include <Cuda/Kokkos_Cuda_Instance.hpp>
#include <Cuda/Kokkos_Cuda_UntouchedAllocations.hpp>
#include <impl/tools/Kokkos_Profiling.hpp>
#include <impl/Kokkos_UntouchedAllocations.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace Kokkos {
namespace {

// "10 TiB" / "1.5 GiB" / "100 B": sizes as people read them.
std::string human_bytes(std::size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  char text[64];
  if (unit == 0 || value == static_cast<double>(static_cast<std::size_t>(value))) {
    std::snprintf(text, sizeof text, "%.0f %s", value, units[unit]);
  } else {
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  }
  return text;
}

// Kokkos failed to allocate memory for label "x".  Kokkos::CudaSpace::allocate("x", 10 TiB)
// failed: cudaErrorMemoryAllocation: out of memory (10995116277760 bytes; cudaMallocAsync)
// The first sentence is Kokkos' (and HostSpace's) wording, so that code matching it works for
// every space.
[[noreturn]] void throw_allocation_error(const char* space_class, const char* label, std::size_t bytes,
                                         cudaError_t err, const char* call) {
  (void)cudaGetLastError();
  const std::string name = label ? label : "";
  throw std::runtime_error("Kokkos failed to allocate memory for label \"" + name + "\".  Kokkos::" + space_class +
                           "::allocate(\"" + name + "\", " +
                           human_bytes(bytes) + ") failed: " + cudaGetErrorName(err) + ": " +
                           cudaGetErrorString(err) + " (" + std::to_string(bytes) + " bytes; " + call + ")");
}

template <class Space>
void* report_allocation(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes) {
  Tools::Impl::report_allocation(Space::name(), label, ptr, logical_bytes > 0 ? logical_bytes : bytes);
  return ptr;
}

template <class Space>
void report_deallocation(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes) {
  Tools::Impl::report_deallocation(Space::name(), label, ptr, logical_bytes > 0 ? logical_bytes : bytes);
}

void* cuda_space_allocate(Impl::CudaInternal& instance, const char* label, std::size_t bytes) {
  void* ptr = nullptr;
  if (instance.m_memoryPoolsSupported) {
    const cudaError_t err = cudaMallocAsync(&ptr, bytes, instance.m_stream);
    if (err != cudaSuccess) throw_allocation_error("CudaSpace", label, bytes, err, "cudaMallocAsync");
  } else {
    const cudaError_t err = cudaMalloc(&ptr, bytes);
    if (err != cudaSuccess) throw_allocation_error("CudaSpace", label, bytes, err, "cudaMalloc");
  }
  return ptr;
}

}  // namespace

void* CudaSpace::allocate(const char* label, std::size_t bytes, std::size_t logical_bytes) const {
  Impl::cuda_require_device("Kokkos::CudaSpace::allocate");
  if (bytes == 0) return report_allocation<CudaSpace>(label, nullptr, 0, logical_bytes);
  Impl::CudaInternal& instance = Impl::CudaInternal::singleton();
  void* ptr = cuda_space_allocate(instance, label, bytes);
  // Usable from every stream once this returns.
  if (instance.m_memoryPoolsSupported) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(instance.m_stream));
  return report_allocation<CudaSpace>(label, ptr, bytes, logical_bytes);
}

void* CudaSpace::allocate(const Cuda& exec, const char* label, std::size_t bytes, std::size_t logical_bytes) const {
  Impl::cuda_require_device("Kokkos::CudaSpace::allocate");
  if (bytes == 0) return report_allocation<CudaSpace>(label, nullptr, 0, logical_bytes);
  void* ptr = cuda_space_allocate(*exec.impl_internal_space_instance(), label, bytes);
  return report_allocation<CudaSpace>(label, ptr, bytes, logical_bytes);
}

namespace Impl {
namespace {
UntouchedAllocations<cudaStream_t>& untouched_allocations() {
  static UntouchedAllocations<cudaStream_t> untouched;
  return untouched;
}
}  // namespace

void cuda_note_untouched_allocation(const void* allocation, cudaStream_t stream) {
  untouched_allocations().note(allocation, stream);
}

bool cuda_take_untouched_allocation(const void* allocation, cudaStream_t& stream) {
  return untouched_allocations().take(allocation, stream);
}

std::size_t cuda_untouched_allocations() { return untouched_allocations().size(); }
}  // namespace Impl

// Kernels on any stream may still use the memory: the device finishes them first, unless no
// kernel ever touched it (Cuda/Kokkos_Cuda_UntouchedAllocations.hpp).
void CudaSpace::deallocate(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes) const {
  report_deallocation<CudaSpace>(label, ptr, bytes, logical_bytes);
  if (ptr == nullptr) return;
  cudaStream_t stream = nullptr;
  if (Impl::cuda_take_untouched_allocation(ptr, stream)) {
    KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaFreeAsync(ptr, stream));
    return;
  }
  KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaDeviceSynchronize());
  KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaFree(ptr));
}

void* CudaUVMSpace::allocate(const char* label, std::size_t bytes, std::size_t logical_bytes) const {
  Impl::cuda_require_device("Kokkos::CudaUVMSpace::allocate");
  if (bytes == 0) return report_allocation<CudaUVMSpace>(label, nullptr, 0, logical_bytes);
  void* ptr = nullptr;
  const cudaError_t err = cudaMallocManaged(&ptr, bytes, cudaMemAttachGlobal);
  if (err != cudaSuccess) throw_allocation_error("CudaUVMSpace", label, bytes, err, "cudaMallocManaged");
  return report_allocation<CudaUVMSpace>(label, ptr, bytes, logical_bytes);
}

void CudaUVMSpace::deallocate(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes) const {
  report_deallocation<CudaUVMSpace>(label, ptr, bytes, logical_bytes);
  if (ptr == nullptr) return;
  KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaDeviceSynchronize());
  KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaFree(ptr));
}

void* CudaHostPinnedSpace::allocate(const char* label, std::size_t bytes, std::size_t logical_bytes) const {
  Impl::cuda_require_device("Kokkos::CudaHostPinnedSpace::allocate");
  if (bytes == 0) return report_allocation<CudaHostPinnedSpace>(label, nullptr, 0, logical_bytes);
  void* ptr = nullptr;
  const cudaError_t err = cudaHostAlloc(&ptr, bytes, cudaHostAllocDefault);
  if (err != cudaSuccess) throw_allocation_error("CudaHostPinnedSpace", label, bytes, err, "cudaHostAlloc");
  return report_allocation<CudaHostPinnedSpace>(label, ptr, bytes, logical_bytes);
}

void CudaHostPinnedSpace::deallocate(const char* label, void* ptr, std::size_t bytes,
                                     std::size_t logical_bytes) const {
  report_deallocation<CudaHostPinnedSpace>(label, ptr, bytes, logical_bytes);
  if (ptr == nullptr) return;
  KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaDeviceSynchronize());
  KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaFreeHost(ptr));
}

}  // namespace Kokkos

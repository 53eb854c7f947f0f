#pragma once
// The CUDA memory spaces: CudaSpace (device memory), CudaUVMSpace (managed memory, reachable from
// host and device), CudaHostPinnedSpace (page-locked host memory the device can read and write).
//
// Every allocation is reported to Kokkos Tools like HostSpace's; a failed one throws
// std::runtime_error naming the label, the size, the space and the CUDA error.  With no usable
// GPU the first allocation throws the error that initialize() met (cuda_require_device).
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Concepts.hpp>
#include <Kokkos_HostSpace.hpp>
#include <cstddef>

namespace Kokkos {

class Cuda;

class CudaSpace {
 public:
  using memory_space = CudaSpace;
  using execution_space = Cuda;
  using device_type = Device<execution_space, memory_space>;
  using size_type = unsigned int;
  static constexpr bool is_host_accessible = false;

  CudaSpace() = default;

  // Without an execution space instance the memory is usable on every stream when this returns
  // (allocated on the default instance's stream, which is then synchronised); with one it is
  // ordered on that instance's stream only (cudaMallocAsync), as in Kokkos.
  void* allocate(std::size_t bytes) const { return allocate("[unlabeled]", bytes); }
  void* allocate(const char* label, std::size_t bytes, std::size_t logical_bytes = 0) const;
  void* allocate(const Cuda& exec, std::size_t bytes) const { return allocate(exec, "[unlabeled]", bytes); }
  void* allocate(const Cuda& exec, const char* label, std::size_t bytes, std::size_t logical_bytes = 0) const;
  // Waits for the device first: a kernel still running may use the memory.
  void deallocate(void* ptr, std::size_t bytes) const { deallocate("[unlabeled]", ptr, bytes); }
  void deallocate(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes = 0) const;

  static constexpr const char* name() { return "Cuda"; }
  friend constexpr bool operator==(const CudaSpace&, const CudaSpace&) { return true; }
};

class CudaUVMSpace {
 public:
  using memory_space = CudaUVMSpace;
  using execution_space = Cuda;
  using device_type = Device<execution_space, memory_space>;
  using size_type = unsigned int;
  static constexpr bool is_host_accessible = true;

  CudaUVMSpace() = default;

  void* allocate(std::size_t bytes) const { return allocate("[unlabeled]", bytes); }
  void* allocate(const char* label, std::size_t bytes, std::size_t logical_bytes = 0) const;
  void* allocate(const Cuda&, std::size_t bytes) const { return allocate("[unlabeled]", bytes); }
  void* allocate(const Cuda&, const char* label, std::size_t bytes, std::size_t logical_bytes = 0) const {
    return allocate(label, bytes, logical_bytes);
  }
  void deallocate(void* ptr, std::size_t bytes) const { deallocate("[unlabeled]", ptr, bytes); }
  void deallocate(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes = 0) const;

  static constexpr const char* name() { return "CudaUVM"; }
  friend constexpr bool operator==(const CudaUVMSpace&, const CudaUVMSpace&) { return true; }
};

class CudaHostPinnedSpace {
 public:
  using memory_space = CudaHostPinnedSpace;
  // Host memory: host execution spaces run on it by default, as in Kokkos.
  using execution_space = HostSpace::execution_space;
  using device_type = Device<execution_space, memory_space>;
  using size_type = unsigned int;
  static constexpr bool is_host_accessible = true;

  CudaHostPinnedSpace() = default;

  void* allocate(std::size_t bytes) const { return allocate("[unlabeled]", bytes); }
  void* allocate(const char* label, std::size_t bytes, std::size_t logical_bytes = 0) const;
  template <class ExecSpace>
  void* allocate(const ExecSpace&, std::size_t bytes) const {
    return allocate("[unlabeled]", bytes);
  }
  template <class ExecSpace>
  void* allocate(const ExecSpace&, const char* label, std::size_t bytes, std::size_t logical_bytes = 0) const {
    return allocate(label, bytes, logical_bytes);
  }
  void deallocate(void* ptr, std::size_t bytes) const { deallocate("[unlabeled]", ptr, bytes); }
  void deallocate(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes = 0) const;

  static constexpr const char* name() { return "CudaHostPinned"; }
  friend constexpr bool operator==(const CudaHostPinnedSpace&, const CudaHostPinnedSpace&) { return true; }
};

// Memory both the host and the GPU reach: managed memory, and page-locked host memory.
using SharedSpace = CudaUVMSpace;
using SharedHostPinnedSpace = CudaHostPinnedSpace;
#define KOKKOS_HAS_SHARED_SPACE
#define KOKKOS_HAS_SHARED_HOST_PINNED_SPACE
inline constexpr bool has_shared_space = true;
inline constexpr bool has_shared_host_pinned_space = true;

namespace Impl {
// What kernels on the GPU reach: every CUDA memory space (see SpaceAccessibility).
template <>
struct MemorySpaceAccess<CudaSpace, CudaUVMSpace> {
  static constexpr bool accessible = true;
  static constexpr bool assignable = true;
};
template <>
struct MemorySpaceAccess<CudaSpace, CudaHostPinnedSpace> {
  static constexpr bool accessible = true;
  static constexpr bool assignable = false;
};
template <>
struct MemorySpaceAccess<CudaUVMSpace, CudaSpace> {
  static constexpr bool accessible = true;
  static constexpr bool assignable = false;
};
// Managed memory's own execution space is Cuda, which cannot reach plain host memory.
template <>
struct MemorySpaceAccess<CudaUVMSpace, HostSpace> {
  static constexpr bool accessible = false;
  static constexpr bool assignable = false;
};
template <>
struct MemorySpaceAccess<CudaUVMSpace, CudaHostPinnedSpace> {
  static constexpr bool accessible = true;
  static constexpr bool assignable = false;
};
}  // namespace Impl

}  // namespace Kokkos

#pragma once
// HostSpace: the memory of the host, reachable by every host execution space.
#include <Kokkos_Core_fwd.hpp>
#include <cstddef>

namespace Kokkos {

class HostSpace {
 public:
  using memory_space = HostSpace;
  using execution_space = DefaultHostExecutionSpace;
  using device_type = Device<execution_space, memory_space>;
  using size_type = std::size_t;
  static constexpr bool is_host_accessible = true;
  // Every allocation is aligned to this many bytes (a cache line, enough for AVX-512).
  static constexpr std::size_t alignment = 64;

  HostSpace() = default;

  // Throws std::runtime_error naming the label and size when the system is out of memory.
  void* allocate(std::size_t bytes) const { return allocate("[unlabeled]", bytes); }
  void* allocate(const char* label, std::size_t bytes, std::size_t logical_bytes = 0) const;
  void deallocate(void* ptr, std::size_t bytes) const { deallocate("[unlabeled]", ptr, bytes); }
  void deallocate(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes = 0) const;

  // Zero-filled memory whose pages are materialised only when first written (a fresh anonymous
  // mapping, or one a previous reserved allocation gave back, zeroed again).  The fusion layer
  // allocates the Views created inside a FusionScope this way, so that a temporary it eliminates
  // (impl/fusion/Kokkos_FusionTemporaries.hpp) never costs memory.  Reported to Kokkos Tools as an
  // ordinary allocation.  `written`: whether the memory may have been written since.
  void* impl_allocate_reserved(const char* label, std::size_t bytes) const;
  void impl_deallocate_reserved(const char* label, void* ptr, std::size_t bytes, bool written) const;

  // Kokkos' name: tools (space-time-stack, memory-hwm) decide the memory space from it.
  static constexpr const char* name() { return "Host"; }
  friend constexpr bool operator==(const HostSpace&, const HostSpace&) { return true; }
};

// Memory every execution space of the build can read and write (Kokkos 4's SharedSpace), and
// host memory every execution space can reach (SharedHostPinnedSpace).  A host-only build has one
// memory, so both are HostSpace; a device back end defines them as its managed / pinned space (Cuda/Kokkos_CudaSpace.hpp,
// which Kokkos_Core.hpp includes with the back ends).
#if !defined(KOKKOS_ENABLE_CUDA)
using SharedSpace = HostSpace;
using SharedHostPinnedSpace = HostSpace;
#define KOKKOS_HAS_SHARED_SPACE
#define KOKKOS_HAS_SHARED_HOST_PINNED_SPACE
inline constexpr bool has_shared_space = true;
inline constexpr bool has_shared_host_pinned_space = true;
#endif

}  // namespace Kokkos

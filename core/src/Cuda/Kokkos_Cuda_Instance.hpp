#pragma once
// CudaInternal: what one Cuda instance is, its stream, the device's properties the launch code
// sizes kernels with, and the scratch memory successive launches on the instance reuse.
#include <Cuda/Kokkos_Cuda.hpp>
#include <Cuda/Kokkos_Cuda_Error.hpp>
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace Kokkos::Impl {

// The properties of the device this process uses (selected at initialize()).  Valid only after
// cuda_require_device() succeeded.
const cudaDeviceProp& cuda_device_properties();

// Throws std::runtime_error naming `what` and the CUDA error when no GPU is usable (the error
// initialize() met is remembered), or when Kokkos is not initialized; every first use of Cuda
// or a CUDA memory space calls it.
void cuda_require_device(const char* what);
// Whether initialize() found a usable GPU (false before initialize() and after finalize()).
bool cuda_device_available() noexcept;
// Why no GPU is usable (empty while one is).
const std::string& cuda_device_error() noexcept;
bool cuda_is_initialized() noexcept;
// Lifecycle (Cuda::impl_initialize / impl_finalize): selects the device (--kokkos-device-id,
// else --kokkos-map-device-id-by=mpi_rank|random, mpi_rank by default: the node-local MPI rank
// modulo the device count), creates the default instance; with no usable GPU it records the
// error and warns once instead.
void cuda_initialize_device(const InitializationSettings& settings);
void cuda_finalize_device();

class CudaInternal {
 public:
  using size_type = Cuda::size_type;

  CudaInternal(cudaStream_t stream, bool manage_stream);
  ~CudaInternal();
  CudaInternal(const CudaInternal&) = delete;
  CudaInternal& operator=(const CudaInternal&) = delete;

  static CudaInternal& singleton();

  cudaStream_t m_stream;
  int m_cudaDev;
  // The device's properties (the same object for every instance).
  const cudaDeviceProp& m_deviceProp;
  int m_maxShmemPerBlock;
  int m_multiProcCount;
  int m_maxThreadsPerSM;
  int m_maxBlocksPerSM;
  // Whether cudaMallocAsync may be used (the device supports stream-ordered memory pools).
  bool m_memoryPoolsSupported;
  uint32_t m_instance_id;

  // Scratch reused by successive launches on this instance (ordered by its stream).  Each grows
  // when a launch needs more and is freed when the instance goes away (the default one at
  // finalize).  Launches from several host threads on one instance serialise on
  // m_mutexScratchSpace: the caller holds it from the scratch request until the kernel is
  // enqueued.
  std::mutex m_mutexScratchSpace;
  // Device memory (per-block partials).
  size_type* scratch_space(std::size_t bytes);
  // Device memory, zero when handed out; a kernel that uses the flags leaves them zero again.
  size_type* scratch_flags(std::size_t bytes);
  // Host-pinned memory the device writes (reduction results read back by the host).
  size_type* scratch_unified(std::size_t bytes);
  // Level-1 team scratch: device memory of `bytes` (bytes per team times teams).
  void* resize_team_scratch_space(std::size_t bytes);

  void fence(const std::string& label) const;

  // Shared ownership of non-default instances (the default one lives until finalize).
  std::atomic<int> m_refcount{1};
  bool m_is_default = false;

 private:
  bool m_manageStream;
  std::size_t m_scratchSpaceBytes = 0;
  std::size_t m_scratchFlagsBytes = 0;
  std::size_t m_scratchUnifiedBytes = 0;
  std::size_t m_teamScratchBytes = 0;
  size_type* m_scratchSpace = nullptr;
  size_type* m_scratchFlags = nullptr;
  size_type* m_scratchUnified = nullptr;
  void* m_teamScratch = nullptr;
};

}  // namespace Kokkos::Impl

#pragma once
// Cuda: the execution space of one NVIDIA GPU.  An instance is a CUDA stream: the default
// instance owns the stream kdag creates at initialize(); Cuda(stream) wraps a caller's stream,
// and partition_space makes instances with new streams.  Work on one instance runs in launch
// order; fence() waits for it.  Kernels themselves are in Kokkos_Cuda_Parallel.hpp.
//
// Copies of an instance share it (reference counted on the host).  Copying an instance into
// device code (a policy inside a kernel's closure) copies the pointer only.
#include <Kokkos_Core_fwd.hpp>
#include <Cuda/Kokkos_CudaSpace.hpp>
#include <Cuda/Kokkos_Cuda_Error.hpp>
#include <impl/Kokkos_Profiling_Interface.hpp>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <iosfwd>
#include <string>

namespace Kokkos {
class InitializationSettings;
struct LayoutLeft;
template <class ExecSpace>
class ScratchMemorySpace;

namespace Impl {
class CudaInternal;
// Whether Cuda(stream, ...) destroys the stream with its last copy (Kokkos 4's spelling).
enum class ManageStream : bool { no, yes };
}  // namespace Impl

class Cuda {
 public:
  using execution_space = Cuda;
  using memory_space = CudaSpace;
  using device_type = Device<execution_space, memory_space>;
  using array_layout = LayoutLeft;
  using size_type = CudaSpace::size_type;
  using scratch_memory_space = ScratchMemorySpace<Cuda>;

  // Never dispatched through the host patterns of impl/.
  static constexpr bool impl_is_host_backend = false;

  // The default instance.  Throws std::runtime_error naming the CUDA error when no GPU is usable.
  Cuda();
  explicit Cuda(cudaStream_t stream, Impl::ManageStream manage_stream = Impl::ManageStream::no);
#if defined(KOKKOS_ENABLE_DEPRECATED_CODE_4)
  // Kokkos 4.2 deprecated it: a Cuda instance should not own the caller's stream.
  KOKKOS_DEPRECATED_WITH_COMMENT("Use Cuda(cudaStream_t) and manage the stream yourself")
  Cuda(cudaStream_t stream, bool manage_stream)
      : Cuda(stream, manage_stream ? Impl::ManageStream::yes : Impl::ManageStream::no) {}
#endif

  KOKKOS_FUNCTION Cuda(const Cuda& other) noexcept : m_internal(other.m_internal) {
    KOKKOS_IF_ON_HOST((impl_retain();))
  }
  KOKKOS_FUNCTION Cuda& operator=(const Cuda& other) noexcept {
    KOKKOS_IF_ON_HOST((if (m_internal != other.m_internal) {
      impl_release();
      m_internal = other.m_internal;
      impl_retain();
    }))
    KOKKOS_IF_ON_DEVICE((m_internal = other.m_internal;))
    return *this;
  }
  KOKKOS_FUNCTION ~Cuda() { KOKKOS_IF_ON_HOST((impl_release();)) }

  cudaStream_t cuda_stream() const;
  int cuda_device() const;
  // Threads resident at once: multiprocessors times resident threads per multiprocessor.
  int concurrency() const;
  // The same for the device of the default instance (the size of a Global UniqueToken).
  static int impl_max_hardware_threads();
  // The calling device thread's index in its launch (the first UniqueToken it tries); 0 on the host.
  KOKKOS_INLINE_FUNCTION static int impl_hardware_thread_id() {
    KOKKOS_IF_ON_DEVICE((const unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
                         const unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
                         return static_cast<int>(block * (blockDim.x * blockDim.y * blockDim.z) + thread);))
    KOKKOS_IF_ON_HOST((return 0;))
  }
  KOKKOS_INLINE_FUNCTION static int in_parallel() {
    KOKKOS_IF_ON_DEVICE((return true;))
    KOKKOS_IF_ON_HOST((return false;))
  }
  void fence(const std::string& label = "Kokkos::Cuda::fence(): Unnamed Instance Fence") const;
  // Waits for every stream of the device (a global fence's part for Cuda).
  static void impl_static_fence(const std::string& label);
  static constexpr const char* name() { return "Cuda"; }
  void print_configuration(std::ostream& os, bool verbose = false) const;
  // Devices the runtime sees (0 when there is no usable GPU or driver).
  static int detect_device_count();

  Impl::CudaInternal* impl_internal_space_instance() const { return m_internal; }
  uint32_t impl_instance_id() const noexcept;
  // An instance with a stream of its own, destroyed with its last copy (partition_space).
  Cuda impl_create_instance() const;

  static bool impl_is_initialized();
  static void impl_initialize(const InitializationSettings&);
  static void impl_finalize();

  friend bool operator==(const Cuda& a, const Cuda& b) { return a.m_internal == b.m_internal; }
  friend bool operator!=(const Cuda& a, const Cuda& b) { return a.m_internal != b.m_internal; }

 private:
  void impl_retain() const noexcept;
  void impl_release() noexcept;

  Impl::CudaInternal* m_internal;
};

namespace Tools::Experimental {
template <>
struct DeviceTypeTraits<Cuda> {
  static constexpr DeviceType id = DeviceType::Cuda;
  static int device_id(const Cuda& exec) { return exec.cuda_device(); }
};
}  // namespace Tools::Experimental

}  // namespace Kokkos

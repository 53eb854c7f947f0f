#include <Cuda/Kokkos_Cuda.hpp>
#include <Cuda/Kokkos_Cuda_Instance.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/Kokkos_InitializationSettings.hpp>
#include <impl/tools/Kokkos_Profiling.hpp>

#include <ostream>

namespace Kokkos {

Cuda::Cuda() : m_internal(&Impl::CudaInternal::singleton()) {}

Cuda::Cuda(cudaStream_t stream, Impl::ManageStream manage_stream) : m_internal(nullptr) {
  Impl::cuda_require_device("Kokkos::Cuda(cudaStream_t)");
  m_internal = new Impl::CudaInternal(stream, manage_stream == Impl::ManageStream::yes);
}

void Cuda::impl_retain() const noexcept {
  if (m_internal && !m_internal->m_is_default) m_internal->m_refcount.fetch_add(1, std::memory_order_relaxed);
}

void Cuda::impl_release() noexcept {
  if (m_internal && !m_internal->m_is_default &&
      m_internal->m_refcount.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    delete m_internal;
  }
  m_internal = nullptr;
}

cudaStream_t Cuda::cuda_stream() const { return m_internal->m_stream; }
int Cuda::cuda_device() const { return m_internal->m_cudaDev; }
int Cuda::concurrency() const { return m_internal->m_multiProcCount * m_internal->m_maxThreadsPerSM; }
int Cuda::impl_max_hardware_threads() { return Cuda().concurrency(); }
uint32_t Cuda::impl_instance_id() const noexcept { return m_internal->m_instance_id; }

Cuda Cuda::impl_create_instance() const {
  Impl::cuda_require_device("Kokkos::Experimental::partition_space(Kokkos::Cuda)");
  cudaStream_t stream = nullptr;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamCreate(&stream));
  return Cuda(stream, Impl::ManageStream::yes);
}

void Cuda::fence(const std::string& label) const {
  Tools::Experimental::Impl::profile_fence_event<Cuda>(
      label, Tools::Experimental::Impl::DirectFenceIDHandle{impl_instance_id()},
      [&] {
        // The calling thread's recorded launches may run on this instance.
        Impl::fusion_flush_if_pending(Impl::FusionFlush::fence);
        m_internal->fence(label);
      });
}

// Without a GPU nothing can have been launched: a global fence must still work for the host.
void Cuda::impl_static_fence(const std::string&) {
  if (Impl::cuda_device_available()) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceSynchronize());
}

void Cuda::print_configuration(std::ostream& os, bool verbose) const {
  const cudaDeviceProp& prop = m_internal->m_deviceProp;
  os << "  Cuda: device " << m_internal->m_cudaDev << ": " << prop.name << ", compute capability " << prop.major
     << '.' << prop.minor << ", " << prop.multiProcessorCount << " SMs, "
     << (prop.totalGlobalMem >> 20) << " MiB global memory";
  int runtime = 0, driver = 0;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaRuntimeGetVersion(&runtime));
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDriverGetVersion(&driver));
  os << ", runtime " << runtime / 1000 << '.' << runtime % 1000 / 10 << ", driver " << driver / 1000 << '.'
     << driver % 1000 / 10 << '\n';
  if (verbose) {
    os << "    compiled for sm_" << KOKKOS_IMPL_CUDA_ARCHITECTURES << "; warp size " << prop.warpSize
       << "; max threads per block " << prop.maxThreadsPerBlock << ", per SM " << prop.maxThreadsPerMultiProcessor
       << "; shared memory per block " << (prop.sharedMemPerBlock >> 10) << " KiB (opt-in "
       << (prop.sharedMemPerBlockOptin >> 10) << " KiB), per SM " << (prop.sharedMemPerMultiprocessor >> 10)
       << " KiB; L2 " << (prop.l2CacheSize >> 10) << " KiB; stream-ordered allocation "
       << (m_internal->m_memoryPoolsSupported ? "yes" : "no") << '\n';
  }
}

int Cuda::detect_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

bool Cuda::impl_is_initialized() { return Impl::cuda_is_initialized(); }
void Cuda::impl_initialize(const InitializationSettings& settings) { Impl::cuda_initialize_device(settings); }
void Cuda::impl_finalize() { Impl::cuda_finalize_device(); }

}  // namespace Kokkos

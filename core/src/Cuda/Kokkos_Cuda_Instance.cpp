// The device this process uses, what initialize() found, and CudaInternal.
#include <Cuda/Kokkos_Cuda_Instance.hpp>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

namespace Kokkos::Impl {

namespace {
bool g_cuda_initialized = false;
// Empty while a GPU is usable; otherwise the CUDA error initialize() met.
std::string g_cuda_device_error = "Kokkos::Cuda is not initialized";
int g_cuda_device = -1;
cudaDeviceProp g_cuda_device_prop{};
CudaInternal* g_cuda_default_instance = nullptr;
std::atomic<uint32_t> g_next_cuda_instance_id{1};

std::string cuda_error_text(cudaError_t err) {
  return std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
}

// The node-local rank that MPI launchers export, or -1 outside such a launch.
int local_mpi_rank() {
  for (const char* var : {"OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                          "SLURM_LOCALID", "PMI_LOCAL_RANK", "PALS_LOCAL_RANKID"}) {
    if (const char* text = std::getenv(var); text && *text) {
      char* end = nullptr;
      const long rank = std::strtol(text, &end, 10);
      if (*end == '\0' && rank >= 0) return static_cast<int>(rank);
    }
  }
  return -1;
}

// --kokkos-map-device-id-by / KOKKOS_MAP_DEVICE_ID_BY, checked before the device count so that a
// typo is an error on every machine.
std::string device_mapping(const InitializationSettings& settings) {
  std::string mapping = settings.has_map_device_id_by() ? settings.get_map_device_id_by() : "";
  if (mapping.empty()) {
    if (const char* text = std::getenv("KOKKOS_MAP_DEVICE_ID_BY")) mapping = text;
  }
  if (mapping.empty()) mapping = "mpi_rank";
  if (mapping != "mpi_rank" && mapping != "random") {
    throw std::runtime_error("Kokkos::initialize: --kokkos-map-device-id-by must be 'mpi_rank' or 'random', got '" +
                             mapping + "'");
  }
  return mapping;
}

int select_device(const InitializationSettings& settings, const std::string& mapping, int device_count) {
  if (settings.has_device_id()) {
    const int id = settings.get_device_id();
    if (id < 0 || id >= device_count) {
      throw std::runtime_error("Kokkos::initialize: --kokkos-device-id=" + std::to_string(id) +
                               " is out of range: " + std::to_string(device_count) + " CUDA device(s) visible");
    }
    return id;
  }
  if (mapping == "random") {
    std::random_device entropy;
    return static_cast<int>(entropy() % static_cast<unsigned>(device_count));
  }
  const int rank = local_mpi_rank();
  return rank < 0 ? 0 : rank % device_count;
}

template <class T>
T* cuda_malloc_device(std::size_t bytes, const char* what) {
  void* ptr = nullptr;
  const cudaError_t err = cudaMalloc(&ptr, bytes);
  if (err != cudaSuccess) cuda_throw_error(err, what, __FILE__, __LINE__);
  return static_cast<T*>(ptr);
}

// Grow-only buffers: the next size is at least double the last, so a sequence of slowly growing
// launches reallocates O(log) times.
std::size_t grown_size(std::size_t requested, std::size_t current) {
  const std::size_t granule = 256;
  requested = (requested + granule - 1) / granule * granule;
  return std::max(requested, 2 * current);
}
}  // namespace

[[noreturn]] void cuda_throw_error(cudaError_t err, const char* call, const char* file, int line) {
  // Clears the error (unless it is sticky), so that it is not reported again by the next check.
  (void)cudaGetLastError();
  throw std::runtime_error(std::string(call) + " failed: " + cuda_error_text(err) + " (" + file + ":" +
                           std::to_string(line) + ")");
}

void cuda_warn_error(cudaError_t err, const char* call, const char* file, int line) noexcept {
  (void)cudaGetLastError();
  try {
    log_warning(std::string(call) + " failed: " + cuda_error_text(err) + " (" + file + ":" + std::to_string(line) +
                ")");
  } catch (...) {
    // Out of memory for the message itself: nothing more can be said.
  }
}

const cudaDeviceProp& cuda_device_properties() { return g_cuda_device_prop; }

bool cuda_device_available() noexcept { return g_cuda_initialized && g_cuda_device_error.empty(); }

const std::string& cuda_device_error() noexcept { return g_cuda_device_error; }

void cuda_require_device(const char* what) {
  if (KOKKOS_IMPL_LIKELY(cuda_device_available())) return;
  if (!g_cuda_initialized) {
    throw std::runtime_error(std::string(what) + " used before Kokkos::initialize() or after Kokkos::finalize()");
  }
  throw std::runtime_error(std::string(what) + ": no usable CUDA device: " + g_cuda_device_error);
}

void cuda_initialize_device(const InitializationSettings& settings) {
  const std::string mapping = device_mapping(settings);
  g_cuda_initialized = true;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaSuccess && count == 0) err = cudaErrorNoDevice;
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    g_cuda_device_error = "cudaGetDeviceCount() failed: " + cuda_error_text(err);
    log_warning("Kokkos::Cuda: no usable GPU (" + g_cuda_device_error +
                "); host execution spaces work, the first use of Kokkos::Cuda or a CUDA memory space throws");
    return;
  }
  const int device = select_device(settings, mapping, count);
  err = cudaSetDevice(device);
  if (err == cudaSuccess) err = cudaGetDeviceProperties(&g_cuda_device_prop, device);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    g_cuda_device_error = "cudaSetDevice(" + std::to_string(device) + ") failed: " + cuda_error_text(err);
    log_warning("Kokkos::Cuda: no usable GPU (" + g_cuda_device_error +
                "); host execution spaces work, the first use of Kokkos::Cuda or a CUDA memory space throws");
    return;
  }
  g_cuda_device = device;
  g_cuda_device_error.clear();
  // Memory freed to the stream-ordered pool stays there for the next allocation instead of going
  // back to the driver at every synchronisation (View allocations on a hot path stay cheap).
  int pools = 0;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device));
  if (pools) {
    cudaMemPool_t pool;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t threshold = ~std::uint64_t(0);
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  }
  g_cuda_default_instance = new CudaInternal(nullptr, true);
  g_cuda_default_instance->m_is_default = true;
}

void cuda_finalize_device() {
  if (g_cuda_default_instance) {
    KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaDeviceSynchronize());
    delete g_cuda_default_instance;
    g_cuda_default_instance = nullptr;
  }
  g_cuda_initialized = false;
  g_cuda_device = -1;
  g_cuda_device_error = "Kokkos::Cuda is finalized";
}

bool cuda_is_initialized() noexcept { return g_cuda_initialized; }

CudaInternal& CudaInternal::singleton() {
  cuda_require_device("Kokkos::Cuda");
  return *g_cuda_default_instance;
}

CudaInternal::CudaInternal(cudaStream_t stream, bool manage_stream)
    : m_stream(stream),
      m_cudaDev(g_cuda_device),
      m_deviceProp(g_cuda_device_prop),
      m_maxShmemPerBlock(static_cast<int>(g_cuda_device_prop.sharedMemPerBlock)),
      m_multiProcCount(g_cuda_device_prop.multiProcessorCount),
      m_maxThreadsPerSM(g_cuda_device_prop.maxThreadsPerMultiProcessor),
      m_maxBlocksPerSM(g_cuda_device_prop.maxBlocksPerMultiProcessor),
      m_memoryPoolsSupported(false),
      m_instance_id(g_next_cuda_instance_id.fetch_add(1, std::memory_order_relaxed)),
      m_manageStream(manage_stream) {
  cuda_require_device("Kokkos::Cuda");
  int pools = 0;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, m_cudaDev));
  m_memoryPoolsSupported = pools != 0;
  if (manage_stream && stream == nullptr) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamCreate(&m_stream));
}

CudaInternal::~CudaInternal() {
  KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaStreamSynchronize(m_stream));
  if (m_scratchSpace) KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaFree(m_scratchSpace));
  if (m_scratchFlags) KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaFree(m_scratchFlags));
  if (m_scratchUnified) KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaFreeHost(m_scratchUnified));
  if (m_teamScratch) KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaFree(m_teamScratch));
  if (m_manageStream && m_stream) KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaStreamDestroy(m_stream));
}

void CudaInternal::fence(const std::string&) const { KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(m_stream)); }

// A buffer is replaced only after the work already queued on this stream, which may still read
// it, has finished.
CudaInternal::size_type* CudaInternal::scratch_space(std::size_t bytes) {
  if (bytes > m_scratchSpaceBytes) {
    const std::size_t size = grown_size(bytes, m_scratchSpaceBytes);
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(m_stream));
    if (m_scratchSpace) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaFree(m_scratchSpace));
    m_scratchSpace = nullptr;
    m_scratchSpaceBytes = 0;
    m_scratchSpace = cuda_malloc_device<size_type>(size, "cudaMalloc (Kokkos::Cuda reduction scratch)");
    m_scratchSpaceBytes = size;
  }
  return m_scratchSpace;
}

CudaInternal::size_type* CudaInternal::scratch_flags(std::size_t bytes) {
  if (bytes > m_scratchFlagsBytes) {
    const std::size_t size = grown_size(bytes, m_scratchFlagsBytes);
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(m_stream));
    if (m_scratchFlags) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaFree(m_scratchFlags));
    m_scratchFlags = nullptr;
    m_scratchFlagsBytes = 0;
    m_scratchFlags = cuda_malloc_device<size_type>(size, "cudaMalloc (Kokkos::Cuda scan flags)");
    m_scratchFlagsBytes = size;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemsetAsync(m_scratchFlags, 0, size, m_stream));
  }
  return m_scratchFlags;
}

CudaInternal::size_type* CudaInternal::scratch_unified(std::size_t bytes) {
  if (bytes > m_scratchUnifiedBytes) {
    const std::size_t size = grown_size(bytes, m_scratchUnifiedBytes);
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(m_stream));
    if (m_scratchUnified) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaFreeHost(m_scratchUnified));
    m_scratchUnified = nullptr;
    m_scratchUnifiedBytes = 0;
    void* ptr = nullptr;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaHostAlloc(&ptr, size, cudaHostAllocDefault));
    m_scratchUnified = static_cast<size_type*>(ptr);
    m_scratchUnifiedBytes = size;
  }
  return m_scratchUnified;
}

void* CudaInternal::resize_team_scratch_space(std::size_t bytes) {
  if (bytes > m_teamScratchBytes) {
    const std::size_t size = grown_size(bytes, m_teamScratchBytes);
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(m_stream));
    if (m_teamScratch) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaFree(m_teamScratch));
    m_teamScratch = nullptr;
    m_teamScratchBytes = 0;
    m_teamScratch = cuda_malloc_device<char>(size, "cudaMalloc (Kokkos::Cuda team scratch level 1)");
    m_teamScratchBytes = size;
  }
  return m_teamScratch;
}

}  // namespace Kokkos::Impl

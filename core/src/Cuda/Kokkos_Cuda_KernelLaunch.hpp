#pragma once
// Launching a pattern's kernel on a Cuda instance.
//
// A pattern builds a *driver*: a small object holding the functor and what the device needs of
// the policy, with a `__device__ void operator()() const`.  The driver is copied into the
// kernel by value:
//   - as the kernel parameter when it fits the parameter space (32 KiB from CUDA 12.1 on sm_70+,
//     4 KiB before), so a launch is one <<<>>> call;
//   - otherwise through a device copy ordered on the instance's stream (cudaMallocAsync,
//     cudaMemcpyAsync, launch, cudaFreeAsync), for closures too large for a parameter.
// The driver is built on the host with View tracking disabled: the Views it carries are
// untracked copies (no reference count change on the host, none possible on the device); the
// caller's functor keeps the allocations alive until the launch has been enqueued, and the
// stream order keeps them alive until it has run (deallocation fences, see CudaSpace).
//
// Every launch checks cudaGetLastError and names the launch's label in the error.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_Concepts.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <impl/view/Kokkos_SharedAlloc.hpp>

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <type_traits>

namespace Kokkos::Impl {

// "Kokkos::parallel_for('label') on Cuda: " or with "(unlabeled)".
inline std::string cuda_launch_context(const char* pattern) {
  const std::string* label = t_current_launch_label;
  return std::string(pattern) + "('" + (label != nullptr && !label->empty() ? *label : std::string("(unlabeled)")) +
         "') on Cuda: ";
}

[[noreturn]] inline void cuda_launch_error(const char* pattern, const std::string& what) {
  throw_runtime_exception(cuda_launch_context(pattern) + what);
}

// A failed call also leaves its error as the thread's last error; it is taken here, so that the
// next launch's cudaGetLastError reports that launch and not this one.
inline void cuda_check_launch(const char* pattern, cudaError_t err, const char* call) {
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    cuda_launch_error(pattern, std::string(call) + " failed: " + cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
  }
}

// ---- device limits the launches need, queried once per device ------------------------------------
struct CudaLaunchLimits {
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 2048;
  int sm_count = 1;
  int max_grid_x = 2147483647;
  std::size_t shmem_per_block = 48 * 1024;      // without opting in
  std::size_t shmem_per_block_optin = 48 * 1024;  // the most a kernel may opt in to
};

inline const CudaLaunchLimits& cuda_launch_limits(int device) {
  constexpr int max_devices = 64;
  static CudaLaunchLimits limits[max_devices];
  static std::once_flag once[max_devices];
  if (device < 0 || device >= max_devices) device = 0;
  std::call_once(once[device], [device] {
    CudaLaunchLimits& l = limits[device];
    auto get = [device](cudaDeviceAttr attr, int& out) {
      int v = 0;
      if (cudaDeviceGetAttribute(&v, attr, device) == cudaSuccess && v > 0) out = v;
    };
    int shmem = 0, optin = 0;
    get(cudaDevAttrMaxThreadsPerBlock, l.max_threads_per_block);
    get(cudaDevAttrMaxThreadsPerMultiProcessor, l.max_threads_per_sm);
    get(cudaDevAttrMultiProcessorCount, l.sm_count);
    get(cudaDevAttrMaxGridDimX, l.max_grid_x);
    get(cudaDevAttrMaxSharedMemoryPerBlock, shmem);
    get(cudaDevAttrMaxSharedMemoryPerBlockOptin, optin);
    if (shmem > 0) l.shmem_per_block = static_cast<std::size_t>(shmem);
    l.shmem_per_block_optin = optin > shmem ? static_cast<std::size_t>(optin) : l.shmem_per_block;
  });
  return limits[device];
}

// ---- kernels ----------------------------------------------------------------------------------
// One kernel template per driver type, instantiated in the user's translation unit.  The launch
// bounds are the policy's LaunchBounds<> (1024 threads, no minimum when not given).
template <class Bounds>
struct CudaLaunchBounds {
  static constexpr unsigned max_threads = Bounds::maxTperB > 0 ? Bounds::maxTperB : 1024;
  static constexpr unsigned min_blocks = Bounds::minBperSM > 0 ? Bounds::minBperSM : 1;
};

template <class Driver, class Bounds>
__global__ __launch_bounds__(CudaLaunchBounds<Bounds>::max_threads, CudaLaunchBounds<Bounds>::min_blocks) void
cuda_parallel_launch_local_memory(const Driver driver) {
  driver();
}

template <class Driver, class Bounds>
__global__ __launch_bounds__(CudaLaunchBounds<Bounds>::max_threads, CudaLaunchBounds<Bounds>::min_blocks) void
cuda_parallel_launch_global_memory(const Driver* driver) {
  (*driver)();
}

// The kernel parameter space: 32764 bytes from CUDA 12.1 (Volta and later), 4096 before.
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12010
inline constexpr std::size_t cuda_max_kernel_parameter_bytes = 32764;
#else
inline constexpr std::size_t cuda_max_kernel_parameter_bytes = 4096;
#endif

template <class Driver, class Bounds>
struct CudaKernel {
  static constexpr bool by_parameter = sizeof(Driver) <= cuda_max_kernel_parameter_bytes - 64;

  static const void* address() {
    if constexpr (by_parameter) {
      return reinterpret_cast<const void*>(&cuda_parallel_launch_local_memory<Driver, Bounds>);
    } else {
      return reinterpret_cast<const void*>(&cuda_parallel_launch_global_memory<Driver, Bounds>);
    }
  }

  // The kernel's attributes (registers, static shared memory, the most threads per block it
  // can run with), queried once per process.
  static const cudaFuncAttributes& attributes(const char* pattern) {
    static cudaFuncAttributes attr;
    static std::once_flag once;
    static cudaError_t err = cudaSuccess;
    std::call_once(once, [] { err = cudaFuncGetAttributes(&attr, address()); });
    cuda_check_launch(pattern, err, "cudaFuncGetAttributes");
    return attr;
  }

  // The block size that gives the highest occupancy for `shmem_per_thread` dynamic shared
  // bytes per thread (plus `shmem_per_block`), a power of two, and how many such blocks one
  // multiprocessor holds; cached per kernel for the last (shmem_per_thread, shmem_per_block).
  struct Shape {
    int block;
    int blocks_per_sm;
  };
  static Shape occupancy_shape(const char* pattern, int device, std::size_t shmem_per_thread,
                               std::size_t shmem_per_block) {
    // One 64-bit word holds the key and the answer, so concurrent launches never pair one key
    // with another's answer: shmem_per_thread (24 bits), shmem_per_block (23 bits), block (11),
    // blocks per SM (6).  Keys too large for their fields are not cached.
    const bool cacheable = shmem_per_thread < (std::size_t(1) << 24) && shmem_per_block < (std::size_t(1) << 23);
    const std::uint64_t key = (std::uint64_t(shmem_per_thread) << 40) | (std::uint64_t(shmem_per_block) << 17);
    constexpr std::uint64_t key_mask = ~((std::uint64_t(1) << 17) - 1);
    static std::atomic<std::uint64_t> cached{0};  // block 0: nothing cached yet
    if (cacheable) {
      const std::uint64_t packed = cached.load(std::memory_order_relaxed);
      const int block = static_cast<int>((packed >> 6) & 0x7ff);
      if ((packed & key_mask) == key && block > 0) return Shape{block, static_cast<int>(packed & 0x3f)};
    }
    const cudaFuncAttributes& attr = attributes(pattern);
    const CudaLaunchLimits& limits = cuda_launch_limits(device);
    Shape best{0, 0};
    int best_threads = -1;
    for (int block = 1024; block >= 1; block /= 2) {
      if (block > attr.maxThreadsPerBlock) continue;
      const std::size_t shmem = shmem_per_block + shmem_per_thread * std::size_t(block);
      if (shmem + attr.sharedSizeBytes > limits.shmem_per_block) continue;
      int blocks_per_sm = 0;
      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, address(), block, shmem) != cudaSuccess ||
          blocks_per_sm < 1)
        continue;
      const int threads = blocks_per_sm * block;
      // Among equally occupied sizes prefer 256 threads or fewer (Kokkos' default): cheaper
      // block-level combines, finer load balance.
      if (threads > best_threads || (threads == best_threads && block <= 256 && best.block > 256)) {
        best_threads = threads;
        best = Shape{block, blocks_per_sm};
      }
      if (block <= 32 && best.block > 0) break;
    }
    if (best.block <= 0) {
      cuda_launch_error(pattern, "no block size fits: " + std::to_string(shmem_per_block) + " + " +
                                     std::to_string(shmem_per_thread) +
                                     " bytes of shared memory per thread exceed the device's " +
                                     std::to_string(limits.shmem_per_block) + " bytes per block");
    }
    if (cacheable && best.blocks_per_sm < 64) {
      cached.store(key | (std::uint64_t(best.block) << 6) | std::uint64_t(best.blocks_per_sm), std::memory_order_relaxed);
    }
    return best;
  }
  static int block_size(const char* pattern, int device, std::size_t shmem_per_thread, std::size_t shmem_per_block) {
    return occupancy_shape(pattern, device, shmem_per_thread, shmem_per_block).block;
  }

  // Raises the kernel's dynamic shared memory limit when a launch needs more than the kernel
  // allows without opting in (`default_limit`: 48 KiB less its static shared memory).
  static void allow_shared_memory(const char* pattern, std::size_t bytes, std::size_t default_limit) {
    static std::atomic<std::size_t> allowed{0};
    std::size_t now = allowed.load(std::memory_order_relaxed);
    if (bytes <= default_limit || bytes <= now) return;
    cuda_check_launch(pattern,
                      cudaFuncSetAttribute(address(), cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
                      "cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize)");
    while (now < bytes && !allowed.compare_exchange_weak(now, bytes)) {
    }
  }
};

// Enqueues `driver` on `stream` with the given shape.  `pattern` names the front end for errors
// ("Kokkos::parallel_for"); the launch's label comes from the thread's CurrentLaunchLabel.
template <class Bounds, class Driver>
void cuda_parallel_launch(const char* pattern, const Driver& driver, dim3 grid, dim3 block, std::size_t shmem,
                          int device, cudaStream_t stream) {
  using Kernel = CudaKernel<Driver, Bounds>;
  const CudaLaunchLimits& limits = cuda_launch_limits(device);
  const cudaFuncAttributes& attr = Kernel::attributes(pattern);
  const unsigned threads = block.x * block.y * block.z;
  if (threads > static_cast<unsigned>(attr.maxThreadsPerBlock)) {
    cuda_launch_error(pattern, std::to_string(threads) + " threads per block exceed the " +
                                   std::to_string(attr.maxThreadsPerBlock) +
                                   " threads this kernel can run with (registers and launch bounds on this device)");
  }
  if (shmem + attr.sharedSizeBytes > limits.shmem_per_block_optin) {
    cuda_launch_error(pattern, std::to_string(shmem) + " bytes of dynamic shared memory (plus " +
                                   std::to_string(attr.sharedSizeBytes) + " static) exceed the device's limit of " +
                                   std::to_string(limits.shmem_per_block_optin) + " bytes per block");
  }
  Kernel::allow_shared_memory(pattern, shmem, static_cast<std::size_t>(attr.maxDynamicSharedSizeBytes));
  if (grid.x == 0 || threads == 0) return;
  if constexpr (Kernel::by_parameter) {
    cuda_parallel_launch_local_memory<Driver, Bounds><<<grid, block, shmem, stream>>>(driver);
    cuda_check_launch(pattern, cudaGetLastError(), "kernel launch");
  } else {
    // Too large for the parameter space: a device copy, ordered with the launch on the stream.
    // cudaMemcpyAsync from pageable memory returns once the bytes are staged, so the host
    // driver may go away after it.
    // Where stream-ordered allocation is not supported, a plain allocation freed after the
    // stream has drained.
    void* copy = nullptr;
    const bool ordered = cudaMallocAsync(&copy, sizeof(Driver), stream) == cudaSuccess;
    if (!ordered) {
      (void)cudaGetLastError();
      cuda_check_launch(pattern, cudaMalloc(&copy, sizeof(Driver)), "cudaMalloc (functor copy)");
    }
    // Frees the copy after whatever was enqueued: the launch, or only the copy when it failed.
    const auto release = [&] {
      if (ordered) return cudaFreeAsync(copy, stream);
      const cudaError_t drained = cudaStreamSynchronize(stream);
      const cudaError_t freed = cudaFree(copy);
      return drained != cudaSuccess ? drained : freed;
    };
    const cudaError_t copied = cudaMemcpyAsync(copy, &driver, sizeof(Driver), cudaMemcpyHostToDevice, stream);
    if (copied != cudaSuccess) {
      (void)cudaGetLastError();
      (void)release();
      cuda_check_launch(pattern, copied, "cudaMemcpyAsync (functor copy)");
    }
    cuda_parallel_launch_global_memory<Driver, Bounds><<<grid, block, shmem, stream>>>(static_cast<const Driver*>(copy));
    const cudaError_t launched = cudaGetLastError();
    cuda_check_launch(pattern, release(), ordered ? "cudaFreeAsync (functor copy)" : "cudaStreamSynchronize + cudaFree (functor copy)");
    cuda_check_launch(pattern, launched, "kernel launch");
  }
}

// Returns make()'s driver, built with View tracking off so that the Views it copies are untracked.
template <class Make>
auto cuda_make_driver(const Make& make) {
  const ViewTrackingDisabled untracked;
  return make();
}

}  // namespace Kokkos::Impl

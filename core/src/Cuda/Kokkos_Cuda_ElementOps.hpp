#pragma once
// What a View of CudaSpace needs beyond bytes: its elements constructed before the View is handed
// out and destroyed before the memory is freed, on the device (Impl::DeviceElementOps), and
// filled by deep_copy(view, value).  Value-initialised trivial types are zeroed with
// cudaMemsetAsync; everything else runs a small grid-stride kernel, a template instantiated in
// the translation unit that makes the View (which is therefore compiled as CUDA).
#include <Cuda/Kokkos_Cuda.hpp>
#include <Cuda/Kokkos_Cuda_Instance.hpp>
#include <impl/Kokkos_SharedAlloc.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace Kokkos::Impl {

template <class T>
inline constexpr bool cuda_dependent_false_v = false;

inline constexpr unsigned cuda_elementwise_block_size = 256;

inline unsigned cuda_elementwise_grid_size(std::size_t n) {
  // Grid-stride loops: more blocks than the device runs at once buy nothing.
  const std::size_t blocks = (n + cuda_elementwise_block_size - 1) / cuda_elementwise_block_size;
  return static_cast<unsigned>(std::min<std::size_t>(blocks, std::size_t(1) << 16));
}

#if defined(__CUDACC__)
template <class T, bool ValueInit>
__global__ void cuda_construct_elements(T* p, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    if constexpr (ValueInit) new (p + i) T();
    else new (p + i) T;
  }
}

template <class T>
__global__ void cuda_destroy_elements(T* p, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i].~T();
}

template <class T>
__global__ void cuda_fill_elements(T* p, std::size_t n, T value) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = value;
}
#endif

// The stream of `exec` when it is a Cuda instance, else the default instance's; the second
// member says whether the caller must wait for it (work without an instance is synchronous).
template <class Exec>
std::pair<cudaStream_t, bool> cuda_stream_for(const Exec& exec) {
  if constexpr (std::is_same_v<Exec, Cuda>) return {exec.cuda_stream(), false};
  else return {Cuda().cuda_stream(), true};
}

template <>
struct DeviceElementOps<CudaSpace> {
  template <class T, class Exec>
  static void construct(const Exec& exec, T* p, std::size_t n, bool value_init) {
    if (n == 0) return;
    const auto [stream, synchronous] = cuda_stream_for(exec);
    if constexpr (std::is_trivially_default_constructible_v<T>) {
      // Value-initialising a trivial type zeroes it; default-initialising it does nothing.
      if (!value_init) return;
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemsetAsync(p, 0, n * sizeof(T), stream));
    } else {
#if defined(__CUDACC__)
      const unsigned grid = cuda_elementwise_grid_size(n);
      if (value_init) cuda_construct_elements<T, true><<<grid, cuda_elementwise_block_size, 0, stream>>>(p, n);
      else cuda_construct_elements<T, false><<<grid, cuda_elementwise_block_size, 0, stream>>>(p, n);
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetLastError());
#else
      static_assert(cuda_dependent_false_v<T>,
                    "Kokkos::View in CudaSpace: elements of a type with a constructor are constructed by a kernel; "
                    "compile this file as CUDA (kokkos_compilation in CMake)");
#endif
    }
    if (synchronous) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(stream));
  }

  // deep_copy(view, value) on contiguous memory: a memset when the value is all zero bytes,
  // otherwise a kernel (or, in a translation unit not compiled as CUDA, a host buffer of copies).
  template <class Exec, class T>
  static void fill(const Exec& exec, T* p, std::size_t n, const T& value) {
    if (n == 0) return;
    const auto [stream, synchronous] = cuda_stream_for(exec);
    bool zero_bytes = false;
    if constexpr (std::is_trivially_copyable_v<T>) {
      unsigned char bytes[sizeof(T)];
      std::memcpy(bytes, &value, sizeof(T));
      zero_bytes = std::all_of(bytes, bytes + sizeof(T), [](unsigned char b) { return b == 0; });
    }
    if (zero_bytes) {
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemsetAsync(p, 0, n * sizeof(T), stream));
    } else {
#if defined(__CUDACC__)
      cuda_fill_elements<T><<<cuda_elementwise_grid_size(n), cuda_elementwise_block_size, 0, stream>>>(p, n, value);
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetLastError());
#else
      static_assert(std::is_trivially_copyable_v<T>,
                    "Kokkos::deep_copy(View in CudaSpace, value): filling with a non-trivially-copyable value runs a "
                    "kernel; compile this file as CUDA (kokkos_compilation in CMake)");
      std::vector<T> copies(n, value);
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemcpyAsync(p, copies.data(), n * sizeof(T), cudaMemcpyHostToDevice, stream));
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(stream));
#endif
    }
    if (synchronous) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(stream));
  }

  // Runs from the allocation record's destructor: failures are warnings, not exceptions.
  template <class T>
  static void destroy(T* p, std::size_t n) {
    if (n == 0 || !cuda_device_available()) return;
#if defined(__CUDACC__)
    cudaStream_t stream = CudaInternal::singleton().m_stream;
    cuda_destroy_elements<T><<<cuda_elementwise_grid_size(n), cuda_elementwise_block_size, 0, stream>>>(p, n);
    KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaGetLastError());
    KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaStreamSynchronize(stream));
#else
    static_assert(cuda_dependent_false_v<T>,
                  "Kokkos::View in CudaSpace: elements of a type with a destructor are destroyed by a kernel; "
                  "compile this file as CUDA (kokkos_compilation in CMake)");
#endif
  }
};

}  // namespace Kokkos::Impl

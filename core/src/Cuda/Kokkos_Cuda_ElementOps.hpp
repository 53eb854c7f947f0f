#pragma once
// What a View of CudaSpace needs beyond bytes: its elements constructed before the View is handed
// out and destroyed before the memory is freed, on the device (Impl::DeviceElementOps), filled by
// deep_copy(view, value), and copied element by element between two non-contiguous Views.  Value-initialised trivial types are zeroed with
// cudaMemsetAsync; everything else runs a small grid-stride kernel, a template instantiated in
// the translation unit that makes the View (which is therefore compiled as CUDA).
#include <Cuda/Kokkos_Cuda.hpp>
#include <Cuda/Kokkos_Cuda_Instance.hpp>
#include <impl/view/Kokkos_SharedAlloc.hpp>

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

// The shape of an element-wise copy between two strided arrays: the extents and the strides (in
// elements) of up to 8 ranks, the fastest-varying rank first; passed to the kernel by value.
struct CudaStridedCopyShape {
  std::size_t dims[8];
  std::size_t dst_stride[8];
  std::size_t src_stride[8];
  int rank;
};

#if defined(__CUDACC__)
// Each thread copies one element: its linear index is split into one index per rank.
template <class T>
__global__ void cuda_copy_strided_elements(T* dst, const T* src, CudaStridedCopyShape shape, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    std::size_t rest = i, od = 0, os = 0;
    for (int r = 0; r < shape.rank; ++r) {
      const std::size_t k = rest % shape.dims[r];
      rest /= shape.dims[r];
      od += k * shape.dst_stride[r];
      os += k * shape.src_stride[r];
    }
    dst[od] = src[os];
  }
}

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

  // deep_copy between two Views of CudaSpace that no pitched copy can express (rank 3 to 8, or
  // strided on every rank): one kernel on the instance's stream, consecutive threads along the
  // layout's fastest rank (rank 0 when `left`), instead of staging both Views through the host.
  // False in a translation unit not compiled as CUDA: the caller stages the copy then.
  template <class Exec, class T>
  static bool copy_strided(const Exec& exec, T* dst, const std::size_t* dst_strides, const T* src,
                           const std::size_t* src_strides, const std::size_t* dims, std::size_t rank, bool left) {
#if defined(__CUDACC__)
    CudaStridedCopyShape shape{};
    std::size_t n = 1;
    for (std::size_t k = 0; k < rank; ++k) {
      const std::size_t r = left ? k : rank - 1 - k;
      shape.dims[k] = dims[r];
      shape.dst_stride[k] = dst_strides[r];
      shape.src_stride[k] = src_strides[r];
      n *= dims[r];
    }
    shape.rank = static_cast<int>(rank);
    if (n == 0) return true;
    const auto [stream, synchronous] = cuda_stream_for(exec);
    cuda_copy_strided_elements<T>
        <<<cuda_elementwise_grid_size(n), cuda_elementwise_block_size, 0, stream>>>(dst, src, shape, n);
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetLastError());
    if (synchronous) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(stream));
    return true;
#else
    (void)exec, (void)dst, (void)dst_strides, (void)src, (void)src_strides, (void)dims, (void)rank, (void)left;
    return false;
#endif
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

#pragma once
// deep_copy's byte copies when either side is CUDA memory: cudaMemcpyAsync with cudaMemcpyDefault
// (unified addressing tells the directions apart).  Without an execution space instance the copy
// runs on the default instance's stream and is complete on return; with a Cuda instance it is
// ordered on that instance's stream and returns at once.  Strided Views of rank 1 and 2 with a
// common contiguous rank are copied with cudaMemcpy2DAsync; other non-contiguous copies and fills
// are staged through host buffers by Kokkos_CopyViews.hpp on top of these.
#include <Cuda/Kokkos_Cuda.hpp>
#include <Cuda/Kokkos_Cuda_ElementOps.hpp>
#include <Cuda/Kokkos_Cuda_Instance.hpp>

#include <cstddef>
#include <type_traits>

namespace Kokkos::Impl {

template <class Space>
inline constexpr bool is_cuda_memory_space_v = std::is_same_v<Space, CudaSpace> ||
                                               std::is_same_v<Space, CudaUVMSpace> ||
                                               std::is_same_v<Space, CudaHostPinnedSpace>;

template <class DstSpace, class SrcSpace>
struct DeepCopy<DstSpace, SrcSpace,
                std::enable_if_t<is_cuda_memory_space_v<DstSpace> || is_cuda_memory_space_v<SrcSpace>>> {
  DeepCopy(void* dst, const void* src, std::size_t n) : DeepCopy(NoExecutionSpaceArg{}, dst, src, n) {}

  template <class Exec>
  DeepCopy(const Exec& exec, void* dst, const void* src, std::size_t n) {
    if (n == 0) return;
    const auto [stream, synchronous] = cuda_stream_for(exec);
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, stream));
    if (synchronous) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(stream));
  }

  // `height` rows of `width` bytes, `dst_pitch` / `src_pitch` bytes apart (strided Views).
  template <class Exec>
  static void pitched(const Exec& exec, void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch,
                      std::size_t width, std::size_t height) {
    const auto [stream, synchronous] = cuda_stream_for(exec);
    KOKKOS_IMPL_CUDA_SAFE_CALL(
        cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width, height, cudaMemcpyDefault, stream));
    if (synchronous) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(stream));
  }
};

}  // namespace Kokkos::Impl

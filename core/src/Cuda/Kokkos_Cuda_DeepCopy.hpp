#pragma once
// deep_copy's byte copies when either side is CUDA memory: cudaMemcpyAsync with cudaMemcpyDefault
// (unified addressing tells the directions apart).  Without an execution space instance the copy
// runs on the default instance's stream and is complete on return; with a Cuda instance it is
// ordered on that instance's stream and returns at once.  Element-wise copies and fills of
// non-contiguous Views are staged through host buffers by Kokkos_CopyViews.hpp on top of these.
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
};

}  // namespace Kokkos::Impl

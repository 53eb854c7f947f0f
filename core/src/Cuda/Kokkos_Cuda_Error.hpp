#pragma once
// Checked CUDA runtime calls: every call of the back end goes through KOKKOS_IMPL_CUDA_SAFE_CALL,
// so a failure is a std::runtime_error naming the call and the CUDA error, never a silent one.
#include <Kokkos_Macros.hpp>
#include <cuda_runtime_api.h>

namespace Kokkos::Impl {

// Throws std::runtime_error "<call> failed: <cudaGetErrorName>: <cudaGetErrorString> (<file>:<line>)",
// after clearing the error so that the next call does not report it again.
[[noreturn]] void cuda_throw_error(cudaError_t err, const char* call, const char* file, int line);

// For calls in destructors and deallocation, which must not throw: the failure becomes a warning
// on std::cerr naming the call and the error.
void cuda_warn_error(cudaError_t err, const char* call, const char* file, int line) noexcept;

inline void cuda_check_call(cudaError_t err, const char* call, const char* file, int line) {
  if (KOKKOS_IMPL_UNLIKELY(err != cudaSuccess)) cuda_throw_error(err, call, file, line);
}

}  // namespace Kokkos::Impl

#define KOKKOS_IMPL_CUDA_SAFE_CALL(call) ::Kokkos::Impl::cuda_check_call((call), #call, __FILE__, __LINE__)
#define KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(call)                                     \
  do {                                                                              \
    const cudaError_t kokkos_impl_cuda_err = (call);                                \
    if (kokkos_impl_cuda_err != cudaSuccess)                                        \
      ::Kokkos::Impl::cuda_warn_error(kokkos_impl_cuda_err, #call, __FILE__, __LINE__); \
  } while (false)

#pragma once
// Function-space annotations and back-end selection.  Everything a functor may call is
// marked KOKKOS_FUNCTION / KOKKOS_INLINE_FUNCTION so that the CUDA back end can compile it
// for the device; on host-only builds the annotations are empty.

#include <KokkosCore_config.h>

#if defined(__CUDACC__)
#define KOKKOS_IMPL_HOST_DEVICE __host__ __device__
#define KOKKOS_IMPL_DEVICE_ONLY __device__
#else
#define KOKKOS_IMPL_HOST_DEVICE
#define KOKKOS_IMPL_DEVICE_ONLY
#endif

#define KOKKOS_FUNCTION KOKKOS_IMPL_HOST_DEVICE
#define KOKKOS_INLINE_FUNCTION KOKKOS_IMPL_HOST_DEVICE inline
#define KOKKOS_DEFAULTED_FUNCTION KOKKOS_IMPL_HOST_DEVICE
#if defined(__GNUC__) || defined(__clang__)
#define KOKKOS_FORCEINLINE_FUNCTION KOKKOS_IMPL_HOST_DEVICE inline __attribute__((always_inline))
// For a loop that calls a functor: out of line, it is compiled on its own, where the functor
// inlines into it and its accumulator stays in a register.
#define KOKKOS_IMPL_NOINLINE __attribute__((noinline))
#else
#define KOKKOS_FORCEINLINE_FUNCTION KOKKOS_IMPL_HOST_DEVICE inline
#define KOKKOS_IMPL_NOINLINE
#endif
#define KOKKOS_INLINE_FUNCTION_DELETED KOKKOS_IMPL_HOST_DEVICE inline
#define KOKKOS_DEDUCTION_GUIDE

#define KOKKOS_LAMBDA [=] KOKKOS_IMPL_HOST_DEVICE
#define KOKKOS_CLASS_LAMBDA [ =, *this ] KOKKOS_IMPL_HOST_DEVICE

#if defined(__CUDA_ARCH__)
#define KOKKOS_IF_ON_DEVICE(CODE) {_KOKKOS_IMPL_STRIP_PARENS CODE}
#define KOKKOS_IF_ON_HOST(CODE)
#else
#define KOKKOS_IF_ON_DEVICE(CODE)
#define KOKKOS_IF_ON_HOST(CODE) {_KOKKOS_IMPL_STRIP_PARENS CODE}
#endif
#define _KOKKOS_IMPL_STRIP_PARENS(...) __VA_ARGS__

// Before a host-device function template that host-only types may instantiate (std::string
// in Kokkos::max, long double in a math template): nvcc then checks only the instantiations
// device code uses, instead of warning about host calls in host-only instantiations.
#if defined(__CUDACC__) && !defined(__clang__)
#define KOKKOS_IMPL_DISABLE_EXEC_CHECK _Pragma("nv_exec_check_disable")
#else
#define KOKKOS_IMPL_DISABLE_EXEC_CHECK
#endif

#define KOKKOS_IMPL_STRINGIFY_(x) #x
#define KOKKOS_IMPL_STRINGIFY(x) KOKKOS_IMPL_STRINGIFY_(x)

#if defined(__GNUC__) || defined(__clang__)
#define KOKKOS_IMPL_LIKELY(x) __builtin_expect(!!(x), 1)
#define KOKKOS_IMPL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define KOKKOS_RESTRICT __restrict__
#else
#define KOKKOS_IMPL_LIKELY(x) (x)
#define KOKKOS_IMPL_UNLIKELY(x) (x)
#define KOKKOS_RESTRICT
#endif

#define KOKKOS_IMPL_CACHE_LINE 64

// The default execution space: the most parallel back end enabled.
#if defined(KOKKOS_ENABLE_CUDA)
#define KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_CUDA
#elif defined(KOKKOS_ENABLE_OPENMP)
#define KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_OPENMP
#elif defined(KOKKOS_ENABLE_THREADS)
#define KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_THREADS
#else
#define KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_SERIAL
#endif

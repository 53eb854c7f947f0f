#pragma once
// Function-space annotations and back-end selection.  Everything a functor may call is
// marked KOKKOS_FUNCTION / KOKKOS_INLINE_FUNCTION so that the CUDA back end can compile it
// for the device; on host-only builds the annotations are empty.

#include <KokkosCore_config.h>

// Version comparisons, as in Kokkos: KOKKOS_VERSION is MAJOR * 10000 + MINOR * 100 + PATCH.
#define KOKKOS_VERSION_LESS(MAJOR, MINOR, PATCH) (KOKKOS_VERSION < ((MAJOR) * 10000 + (MINOR) * 100 + (PATCH)))
#define KOKKOS_VERSION_LESS_EQUAL(MAJOR, MINOR, PATCH) (KOKKOS_VERSION <= ((MAJOR) * 10000 + (MINOR) * 100 + (PATCH)))
#define KOKKOS_VERSION_GREATER(MAJOR, MINOR, PATCH) (KOKKOS_VERSION > ((MAJOR) * 10000 + (MINOR) * 100 + (PATCH)))
#define KOKKOS_VERSION_GREATER_EQUAL(MAJOR, MINOR, PATCH) \
  (KOKKOS_VERSION >= ((MAJOR) * 10000 + (MINOR) * 100 + (PATCH)))
#define KOKKOS_VERSION_EQUAL(MAJOR, MINOR, PATCH) (KOKKOS_VERSION == ((MAJOR) * 10000 + (MINOR) * 100 + (PATCH)))
#if !KOKKOS_VERSION_EQUAL(KOKKOS_VERSION_MAJOR, KOKKOS_VERSION_MINOR, KOKKOS_VERSION_PATCH)
#error "kdag: KOKKOS_VERSION disagrees with KOKKOS_VERSION_MAJOR/MINOR/PATCH"
#endif

// The compiler, with Kokkos' encoding: MAJOR * 100 + MINOR * 10 + PATCH (nvcc: no patch).
#if defined(__NVCC__)
#define KOKKOS_COMPILER_NVCC __CUDACC_VER_MAJOR__ * 100 + __CUDACC_VER_MINOR__ * 10
#endif
#if defined(__clang__)
#define KOKKOS_COMPILER_CLANG __clang_major__ * 100 + __clang_minor__ * 10 + __clang_patchlevel__
#elif defined(__GNUC__)
#define KOKKOS_COMPILER_GNU __GNUC__ * 100 + __GNUC_MINOR__ * 10 + __GNUC_PATCHLEVEL__
#endif

// Host vector instruction sets the compiler actually targets in this translation unit (set by
// -march=..., e.g. through Kokkos_ARCH_NATIVE=ON); nothing is claimed that the code cannot use.
#if defined(__AVX512F__) && defined(__AVX512CD__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && \
    defined(__AVX512VL__)
#define KOKKOS_ARCH_AVX512XEON
#endif
#if defined(__AVX2__)
#define KOKKOS_ARCH_AVX2
#endif
#if defined(__AVX__)
#define KOKKOS_ARCH_AVX
#endif
#if defined(__SSE4_2__)
#define KOKKOS_ARCH_SSE42
#endif
#if defined(__ARM_NEON)
#define KOKKOS_ARCH_ARM_NEON
#endif

// Deprecated API: marked with [[deprecated]] while deprecation warnings are on (the default).
#if defined(KOKKOS_ENABLE_DEPRECATION_WARNINGS) && !defined(__NVCC__)
#define KOKKOS_DEPRECATED [[deprecated]]
#define KOKKOS_DEPRECATED_WITH_COMMENT(comment) [[deprecated(comment)]]
#else
#define KOKKOS_DEPRECATED
#define KOKKOS_DEPRECATED_WITH_COMMENT(comment)
#endif
#if defined(__GNUC__) || defined(__clang__)
#define KOKKOS_IMPL_DISABLE_DEPRECATED_WARNINGS_PUSH() \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")
#define KOKKOS_IMPL_DISABLE_DEPRECATED_WARNINGS_POP() _Pragma("GCC diagnostic pop")
#else
#define KOKKOS_IMPL_DISABLE_DEPRECATED_WARNINGS_PUSH()
#define KOKKOS_IMPL_DISABLE_DEPRECATED_WARNINGS_POP()
#endif

#if defined(__CUDACC__)
#define KOKKOS_IMPL_HOST_DEVICE __host__ __device__
#define KOKKOS_IMPL_DEVICE_ONLY __device__
#else
#define KOKKOS_IMPL_HOST_DEVICE
#define KOKKOS_IMPL_DEVICE_ONLY
#endif

#define KOKKOS_FUNCTION KOKKOS_IMPL_HOST_DEVICE
#define KOKKOS_INLINE_FUNCTION KOKKOS_IMPL_HOST_DEVICE inline
// nvcc derives the execution space of a function defaulted on its first declaration from the
// members it calls and ignores (with warning #20012) an explicit __host__ __device__ there; as
// in Kokkos, the macro then says nothing.
#if defined(__NVCC__)
#define KOKKOS_DEFAULTED_FUNCTION
#else
#define KOKKOS_DEFAULTED_FUNCTION KOKKOS_IMPL_HOST_DEVICE
#endif
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
// A function callable from kernels but defined in another translation unit.  Host back ends
// need nothing for that.  On a GPU it needs relocatable device code, which kdag's CUDA back end
// does not use: there, as in Kokkos built without RDC, using the macro is a compile error that
// says so.
// clang-format off
#if defined(KOKKOS_ENABLE_CUDA)
#define KOKKOS_RELOCATABLE_FUNCTION @"KOKKOS_RELOCATABLE_FUNCTION requires relocatable device code, which kdag's CUDA back end does not use"
#else
#define KOKKOS_RELOCATABLE_FUNCTION
#endif
// clang-format on

#define KOKKOS_LAMBDA [=] KOKKOS_IMPL_HOST_DEVICE
#define KOKKOS_CLASS_LAMBDA [ =, *this ] KOKKOS_IMPL_HOST_DEVICE

// KOKKOS_IF_ON_HOST((code)) / KOKKOS_IF_ON_DEVICE((code)): the code, its parentheses removed
// if it has them (as in Kokkos, where both spellings are accepted), in the matching pass only.
#define KOKKOS_IMPL_STRIP_PARENS(X) KOKKOS_IMPL_ESC(KOKKOS_IMPL_ISH X)
#define KOKKOS_IMPL_ISH(...) KOKKOS_IMPL_ISH __VA_ARGS__
#define KOKKOS_IMPL_ESC(...) KOKKOS_IMPL_ESC_(__VA_ARGS__)
#define KOKKOS_IMPL_ESC_(...) KOKKOS_IMPL_VAN_##__VA_ARGS__
#define KOKKOS_IMPL_VAN_KOKKOS_IMPL_ISH
#if defined(__CUDA_ARCH__)
#define KOKKOS_IF_ON_DEVICE(CODE) \
  { KOKKOS_IMPL_STRIP_PARENS(CODE) }
#define KOKKOS_IF_ON_HOST(CODE) \
  {}
#else
#define KOKKOS_IF_ON_DEVICE(CODE) \
  {}
#define KOKKOS_IF_ON_HOST(CODE) \
  { KOKKOS_IMPL_STRIP_PARENS(CODE) }
#endif

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
#define KOKKOS_IMPL_TOSTRING(x) KOKKOS_IMPL_STRINGIFY_(x)

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

#pragma once
// Kokkos::Experimental SIMD types (Kokkos 4.6 API): basic_simd<T, Abi>, basic_simd_mask<T, Abi>,
// simd<T, N>, simd_mask<T, N>, where expressions, reductions and the <cmath> overloads.
//
// The host's native ABI follows the ISA the compiler targets: avx512_fixed_size<8> with
// __AVX512F__, else avx2_fixed_size<4> with __AVX2__, else neon_fixed_size<2> with __ARM_NEON,
// else scalar.  A plain build (no -mavx2 / -march=native) is therefore one lane wide.
#include <Kokkos_Core.hpp>
#include <Kokkos_SIMD_Common.hpp>
#if defined(__AVX2__)
#include <Kokkos_SIMD_AVX2.hpp>
#endif
#include <Kokkos_SIMD_Basic.hpp>
#include <Kokkos_SIMD_Where.hpp>
#include <Kokkos_SIMD_Common_Math.hpp>

namespace Kokkos::Experimental {

namespace simd_abi {

namespace Impl {
#if defined(__AVX512F__)
template <class T>
using host_fixed_native = avx512_fixed_size<8>;
template <int N>
using host_native_abi = avx512_fixed_size<N>;
#elif defined(__AVX2__)
template <class T>
using host_fixed_native = avx2_fixed_size<4>;
template <int N>
using host_native_abi = avx2_fixed_size<N>;
#elif defined(__ARM_NEON)
template <class T>
using host_fixed_native = neon_fixed_size<2>;
template <int N>
using host_native_abi = neon_fixed_size<N>;
#else
template <class T>
using host_fixed_native = scalar;
template <int N>
using host_native_abi = scalar;
#endif

// The ABI each execution space's code uses: the host's native ABI on the host back ends.
template <class ExecutionSpace>
struct ForSpace {
  template <class T>
  using type = host_fixed_native<T>;
  template <int N>
  using simd_abi = host_native_abi<N>;
};
#if defined(KOKKOS_ENABLE_CUDA)
// A CUDA thread is one lane (the warp is the vector), so device code is scalar, as in Kokkos;
// simd<T> follows the default execution space, host_native stays the host's.
template <>
struct ForSpace<Kokkos::Cuda> {
  template <class T>
  using type = scalar;
  template <int N>
  using simd_abi = scalar;
};
#endif

template <class T, class Space = Kokkos::DefaultExecutionSpace>
using native_fixed_abi = typename ForSpace<typename Space::execution_space>::template type<T>;
template <int N, class Space = Kokkos::DefaultExecutionSpace>
using native_abi = typename ForSpace<typename Space::execution_space>::template simd_abi<N>;
}  // namespace Impl

using host_native = Impl::host_fixed_native<double>;

template <class T, class Space>
using ForSpace = Impl::native_fixed_abi<T, Space>;

template <class T>
using native = ForSpace<T, Kokkos::DefaultExecutionSpace>;

}  // namespace simd_abi

// Kokkos 4.6 deprecates these two in favour of simd<T> / simd_mask<T> (same types).
template <class T>
using native_simd = basic_simd<T, simd_abi::native<T>>;
template <class T>
using native_simd_mask = basic_simd_mask<T, simd_abi::native<T>>;

// simd<T> is the native width for T; simd<T, N> asks the native ISA for N lanes.
template <class T, int N = 0>
using simd = basic_simd<T, std::conditional_t<(N == 0), simd_abi::Impl::native_fixed_abi<T>,
                                              simd_abi::Impl::native_abi<N>>>;
template <class T, int N = 0>
using simd_mask = basic_simd_mask<T, std::conditional_t<(N == 0), simd_abi::Impl::native_fixed_abi<T>,
                                                        simd_abi::Impl::native_abi<N>>>;

}  // namespace Kokkos::Experimental

#pragma once
// AVX2: double and float lanes live in YMM/XMM registers and every arithmetic, comparison,
// mask, load and store operation is one intrinsic.  Integer element types keep the lane
// loops of Kokkos_SIMD_Common.hpp, which the compiler vectorises under -mavx2.
// Included only when the compiler targets AVX2 (__AVX2__).
#include <Kokkos_SIMD_Common.hpp>

#include <immintrin.h>

#include <cmath>
#include <cstdint>

namespace Kokkos::Experimental::Impl {

// The intrinsics of one register shape, named once so that x86_simd_impl is written once.
// PFX/SFX compose the intrinsic names (_mm256 + pd -> _mm256_add_pd), SI the integer cast width.
#define KOKKOS_IMPL_SIMD_X86_REGISTER(NAME, VALUE, LANES, REG, IREG, BITS, PFX, SFX, SI)                        \
  struct NAME {                                                                                                \
    using value_type = VALUE;                                                                                  \
    using reg = REG;                                                                                           \
    using mask_bits = BITS;                                                                                    \
    static constexpr int width = LANES;                                                                        \
    static reg set1(VALUE v) { return PFX##_set1_##SFX(v); }                                                  \
    static reg zero() { return PFX##_setzero_##SFX(); }                                                        \
    static reg loadu(VALUE const* p) { return PFX##_loadu_##SFX(p); }                                         \
    static reg load(VALUE const* p) { return PFX##_load_##SFX(p); }                                           \
    static void storeu(VALUE* p, reg v) { PFX##_storeu_##SFX(p, v); }                                         \
    static void store(VALUE* p, reg v) { PFX##_store_##SFX(p, v); }                                           \
    static reg maskload(VALUE const* p, reg m) { return PFX##_maskload_##SFX(p, PFX##_cast##SFX##_si##SI(m)); } \
    static void maskstore(VALUE* p, reg m, reg v) { PFX##_maskstore_##SFX(p, PFX##_cast##SFX##_si##SI(m), v); } \
    static reg from_bits(BITS const* b) {                                                                      \
      return PFX##_castsi##SI##_##SFX(PFX##_loadu_si##SI(reinterpret_cast<IREG const*>(b)));                  \
    }                                                                                                          \
    static reg add(reg a, reg b) { return PFX##_add_##SFX(a, b); }                                            \
    static reg sub(reg a, reg b) { return PFX##_sub_##SFX(a, b); }                                            \
    static reg mul(reg a, reg b) { return PFX##_mul_##SFX(a, b); }                                            \
    static reg div(reg a, reg b) { return PFX##_div_##SFX(a, b); }                                            \
    static reg bit_and(reg a, reg b) { return PFX##_and_##SFX(a, b); }                                        \
    static reg bit_or(reg a, reg b) { return PFX##_or_##SFX(a, b); }                                          \
    static reg bit_xor(reg a, reg b) { return PFX##_xor_##SFX(a, b); }                                        \
    static reg and_not(reg a, reg b) { return PFX##_andnot_##SFX(a, b); }                                     \
    static reg min(reg a, reg b) { return PFX##_min_##SFX(a, b); }                                            \
    static reg max(reg a, reg b) { return PFX##_max_##SFX(a, b); }                                            \
    static reg sqrt(reg a) { return PFX##_sqrt_##SFX(a); }                                                    \
    static reg floor(reg a) { return PFX##_floor_##SFX(a); }                                                  \
    static reg ceil(reg a) { return PFX##_ceil_##SFX(a); }                                                    \
    static reg rint(reg a) { return PFX##_round_##SFX(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }     \
    static reg trunc(reg a) { return PFX##_round_##SFX(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }           \
    template <int Predicate>                                                                                   \
    static reg cmp(reg a, reg b) {                                                                             \
      return PFX##_cmp_##SFX(a, b, Predicate);                                                                 \
    }                                                                                                          \
    static reg blendv(reg if_false, reg if_true, reg m) { return PFX##_blendv_##SFX(if_false, if_true, m); }  \
    static int movemask(reg m) { return PFX##_movemask_##SFX(m); }                                            \
    KOKKOS_IMPL_SIMD_X86_FMA(PFX, SFX)                                                                        \
  };

#if defined(__FMA__)
#define KOKKOS_IMPL_SIMD_X86_FMA(PFX, SFX) \
  static reg fma(reg a, reg b, reg c) { return PFX##_fmadd_##SFX(a, b, c); }
#else
#define KOKKOS_IMPL_SIMD_X86_FMA(PFX, SFX)
#endif

KOKKOS_IMPL_SIMD_X86_REGISTER(avx2_double4, double, 4, __m256d, __m256i, std::int64_t, _mm256, pd, 256)
KOKKOS_IMPL_SIMD_X86_REGISTER(avx2_float8, float, 8, __m256, __m256i, std::int32_t, _mm256, ps, 256)
KOKKOS_IMPL_SIMD_X86_REGISTER(avx2_float4, float, 4, __m128, __m128i, std::int32_t, _mm, ps, 128)
#undef KOKKOS_IMPL_SIMD_X86_REGISTER
#undef KOKKOS_IMPL_SIMD_X86_FMA

template <class R>
struct has_register_fma {
  template <class P>
  static auto test(int) -> decltype(P::fma(P::zero(), P::zero(), P::zero()), std::true_type{});
  template <class P>
  static std::false_type test(...);
  static constexpr bool value = decltype(test<R>(0))::value;
};

// The simd_impl interface (see Kokkos_SIMD_Common.hpp) over one register shape.  A mask is a
// register of the same shape whose selected lanes have every bit set, as the compare
// instructions produce and blendv/maskload/maskstore consume.
template <class R>
struct x86_simd_impl {
  using T = typename R::value_type;
  using storage = typename R::reg;
  using mask_storage = typename R::reg;
  static constexpr int width = R::width;

  static storage sign_bits() { return R::set1(T(-0.0)); }
  static mask_storage all_bits() { return R::template cmp<_CMP_EQ_OQ>(R::zero(), R::zero()); }

  static storage broadcast(T v) { return R::set1(v); }
  static T get(storage const& s, std::size_t i) {
    alignas(sizeof(storage)) T lanes[width];
    R::store(lanes, s);
    return lanes[i];
  }
  static storage load(T const* p) { return R::loadu(p); }
  static storage load_aligned(T const* p) { return R::load(p); }
  static void store(T* p, storage const& s) { R::storeu(p, s); }
  static void store_aligned(T* p, storage const& s) { R::store(p, s); }
  static storage masked_load(mask_storage const& m, storage const& old, T const* p) {
    return R::blendv(old, R::maskload(p, m), m);
  }
  static void masked_store(mask_storage const& m, storage const& s, T* p) { R::maskstore(p, m, s); }

  static storage add(storage const& a, storage const& b) { return R::add(a, b); }
  static storage sub(storage const& a, storage const& b) { return R::sub(a, b); }
  static storage mul(storage const& a, storage const& b) { return R::mul(a, b); }
  static storage div(storage const& a, storage const& b) { return R::div(a, b); }
  static storage neg(storage const& a) { return R::bit_xor(a, sign_bits()); }
  // minpd(x, y) is y unless x < y: argument order chosen to match Kokkos::min/max lane by lane.
  static storage min(storage const& a, storage const& b) { return R::min(b, a); }
  static storage max(storage const& a, storage const& b) { return R::max(b, a); }

  static mask_storage eq(storage const& a, storage const& b) { return R::template cmp<_CMP_EQ_OQ>(a, b); }
  static mask_storage ne(storage const& a, storage const& b) { return R::template cmp<_CMP_NEQ_UQ>(a, b); }
  static mask_storage lt(storage const& a, storage const& b) { return R::template cmp<_CMP_LT_OQ>(a, b); }
  static mask_storage le(storage const& a, storage const& b) { return R::template cmp<_CMP_LE_OQ>(a, b); }
  static mask_storage gt(storage const& a, storage const& b) { return R::template cmp<_CMP_GT_OQ>(a, b); }
  static mask_storage ge(storage const& a, storage const& b) { return R::template cmp<_CMP_GE_OQ>(a, b); }
  static storage blend(mask_storage const& m, storage const& if_false, storage const& if_true) {
    return R::blendv(if_false, if_true, m);
  }

  static mask_storage mask_broadcast(bool v) { return v ? all_bits() : R::zero(); }
  static mask_storage mask_load(bool const* p) {
    typename R::mask_bits bits[width];
    for (int i = 0; i < width; ++i) bits[i] = p[i] ? -1 : 0;
    return R::from_bits(bits);
  }
  static bool mask_get(mask_storage const& m, std::size_t i) { return (R::movemask(m) >> i) & 1; }
  static mask_storage mask_and(mask_storage const& a, mask_storage const& b) { return R::bit_and(a, b); }
  static mask_storage mask_or(mask_storage const& a, mask_storage const& b) { return R::bit_or(a, b); }
  static mask_storage mask_xor(mask_storage const& a, mask_storage const& b) { return R::bit_xor(a, b); }
  static mask_storage mask_not(mask_storage const& a) { return R::bit_xor(a, all_bits()); }
  static bool mask_all(mask_storage const& a) { return R::movemask(a) == (1 << width) - 1; }
  static bool mask_any(mask_storage const& a) { return R::movemask(a) != 0; }

  // Math with a single instruction; Kokkos_SIMD_Common_Math.hpp calls these when present.
  static storage abs(storage const& a) { return R::and_not(sign_bits(), a); }
  static storage sqrt(storage const& a) { return R::sqrt(a); }
  static storage floor(storage const& a) { return R::floor(a); }
  static storage ceil(storage const& a) { return R::ceil(a); }
  static storage round(storage const& a) { return R::rint(a); }
  static storage trunc(storage const& a) { return R::trunc(a); }
  static storage copysign(storage const& magnitude, storage const& sign) {
    return R::bit_or(R::and_not(sign_bits(), magnitude), R::bit_and(sign_bits(), sign));
  }
  static storage fma(storage const& a, storage const& b, storage const& c) {
    if constexpr (has_register_fma<R>::value) {
      return R::fma(a, b, c);
    } else {  // without -mfma: fused lane by lane, never a separate multiply and add
      alignas(sizeof(storage)) T x[width], y[width], z[width];
      R::store(x, a);
      R::store(y, b);
      R::store(z, c);
      for (int i = 0; i < width; ++i) x[i] = std::fma(x[i], y[i], z[i]);
      return R::load(x);
    }
  }
};

// The register types are host-only: nvcc refuses vector types in the signature of any
// __host__ __device__ function, which every basic_simd member is.  So the device pass of a CUDA
// translation unit (__CUDA_ARCH__) keeps the lane arrays of Kokkos_SIMD_Common.hpp for these ABIs:
// the same size, alignment and lane order as the registers, so an object means the same in both
// passes.  Device code uses the scalar ABI (simd_abi::ForSpace<T, Kokkos::Cuda>); host code gets
// the intrinsics.  Converting to and from a raw register is therefore host code only: in a CUDA
// translation unit, put it under #ifndef __CUDA_ARCH__.
template <class T, int N, class R>
inline constexpr bool same_layout_as_lanes_v =
    sizeof(simd_lanes<T, N>) == sizeof(typename R::reg) && alignof(simd_lanes<T, N>) == alignof(typename R::reg);
static_assert(same_layout_as_lanes_v<double, 4, avx2_double4> && same_layout_as_lanes_v<float, 8, avx2_float8> &&
              same_layout_as_lanes_v<float, 4, avx2_float4>);

#if !defined(__CUDA_ARCH__)
template <>
struct simd_impl<double, simd_abi::avx2_fixed_size<4>> : x86_simd_impl<avx2_double4> {};
template <>
struct simd_impl<float, simd_abi::avx2_fixed_size<8>> : x86_simd_impl<avx2_float8> {};
template <>
struct simd_impl<float, simd_abi::avx2_fixed_size<4>> : x86_simd_impl<avx2_float4> {};
#endif

}  // namespace Kokkos::Experimental::Impl

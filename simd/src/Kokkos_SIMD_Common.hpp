#pragma once
// The vocabulary every SIMD ABI shares: load/store flags, ABI tags, and the lane-by-lane
// implementation that any (type, ABI) pair without hand-written intrinsics falls back to.
// The fallback is plain loops over a small aligned array, so it is device-safe and the host
// compiler vectorises it for the ISA it targets.
#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace Kokkos::Experimental {

template <class T, class Abi>
class basic_simd;
template <class T, class Abi>
class basic_simd_mask;

class simd_alignment_vector_aligned {};

template <class... Flags>
struct simd_flags {};

inline constexpr simd_flags<> simd_flag_default{};
inline constexpr simd_flags<simd_alignment_vector_aligned> simd_flag_aligned{};

using element_aligned_tag = simd_flags<>;
using vector_aligned_tag = simd_flags<simd_alignment_vector_aligned>;

namespace simd_abi {
// One lane: what device code uses, and the host's choice when no vector ISA is targeted.
class scalar {};
#if defined(__AVX2__)
template <int N>
class avx2_fixed_size {};
#endif
#if defined(__AVX512F__)
template <int N>
class avx512_fixed_size {};
#endif
#if defined(__ARM_NEON)
template <int N>
class neon_fixed_size {};
#endif
}  // namespace simd_abi

namespace Impl {

template <class Abi>
struct abi_width;
template <>
struct abi_width<simd_abi::scalar> : std::integral_constant<int, 1> {};
#if defined(__AVX2__)
template <int N>
struct abi_width<simd_abi::avx2_fixed_size<N>> : std::integral_constant<int, N> {};
#endif
#if defined(__AVX512F__)
template <int N>
struct abi_width<simd_abi::avx512_fixed_size<N>> : std::integral_constant<int, N> {};
#endif
#if defined(__ARM_NEON)
template <int N>
struct abi_width<simd_abi::neon_fixed_size<N>> : std::integral_constant<int, N> {};
#endif

template <class Flags>
struct is_vector_aligned : std::false_type {};
template <class... Flags>
struct is_vector_aligned<simd_flags<Flags...>>
    : std::disjunction<std::is_same<Flags, simd_alignment_vector_aligned>...> {};

// Aligned to the whole vector (capped at a cache line) so that a vector_aligned load of a
// simd's own storage is legal.
template <class T, int N>
struct alignas((sizeof(T) * N) < 64 ? sizeof(T) * N : 64) simd_lanes {
  static_assert(N > 0 && (N & (N - 1)) == 0, "Kokkos SIMD: the lane count must be a power of two");
  T lane[N];
};

// Lane operations as function objects, so that one loop serves every operator.
#define KOKKOS_IMPL_SIMD_LANE_BINARY(NAME, EXPR)                                \
  struct NAME {                                                                \
    template <class T>                                                         \
    KOKKOS_FORCEINLINE_FUNCTION constexpr auto operator()(T a, T b) const {    \
      return EXPR;                                                             \
    }                                                                          \
  };
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_plus, static_cast<T>(a + b))
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_minus, static_cast<T>(a - b))
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_times, static_cast<T>(a * b))
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_divides, static_cast<T>(a / b))
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_bit_and, static_cast<T>(a & b))
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_bit_or, static_cast<T>(a | b))
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_bit_xor, static_cast<T>(a ^ b))
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_shift_left, static_cast<T>(a << b))
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_shift_right, static_cast<T>(a >> b))
// Kokkos::min/max's choice on ties and NaN: min(a, b) is b only when b < a.
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_min, (b < a) ? b : a)
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_max, (a < b) ? b : a)
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_equal, a == b)
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_not_equal, a != b)
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_less, a < b)
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_less_equal, a <= b)
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_greater, a > b)
KOKKOS_IMPL_SIMD_LANE_BINARY(lane_greater_equal, a >= b)
#undef KOKKOS_IMPL_SIMD_LANE_BINARY

struct lane_negate {
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION constexpr T operator()(T a) const {
    return static_cast<T>(-a);
  }
};
struct lane_bit_not {
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION constexpr T operator()(T a) const {
    return static_cast<T>(~a);
  }
};

// The lane-by-lane implementation of a (T, Abi) pair; an ABI header specialises it for the
// pairs it maps onto vector registers.
template <class T, class Abi>
struct simd_impl {
  static constexpr int width = abi_width<Abi>::value;
  using storage = simd_lanes<T, width>;
  using mask_storage = simd_lanes<bool, width>;

  template <class Op>
  KOKKOS_FORCEINLINE_FUNCTION static storage map(storage const& a, Op op) {
    storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = op(a.lane[i]);
    return r;
  }
  template <class Op>
  KOKKOS_FORCEINLINE_FUNCTION static storage zip(storage const& a, storage const& b, Op op) {
    storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = op(a.lane[i], b.lane[i]);
    return r;
  }
  template <class Op>
  KOKKOS_FORCEINLINE_FUNCTION static mask_storage compare(storage const& a, storage const& b, Op op) {
    mask_storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = op(a.lane[i], b.lane[i]);
    return r;
  }

  KOKKOS_FORCEINLINE_FUNCTION static storage broadcast(T v) {
    storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = v;
    return r;
  }
  KOKKOS_FORCEINLINE_FUNCTION static T get(storage const& s, std::size_t i) { return s.lane[i]; }
  KOKKOS_FORCEINLINE_FUNCTION static storage load(T const* p) {
    storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = p[i];
    return r;
  }
  KOKKOS_FORCEINLINE_FUNCTION static storage load_aligned(T const* p) { return load(p); }
  KOKKOS_FORCEINLINE_FUNCTION static void store(T* p, storage const& s) {
    for (int i = 0; i < width; ++i) p[i] = s.lane[i];
  }
  KOKKOS_FORCEINLINE_FUNCTION static void store_aligned(T* p, storage const& s) { store(p, s); }
  // Only the selected lanes touch memory: a masked tail never reads or writes past the end.
  KOKKOS_FORCEINLINE_FUNCTION static storage masked_load(mask_storage const& m, storage const& old,
                                                         T const* p) {
    storage r = old;
    for (int i = 0; i < width; ++i)
      if (m.lane[i]) r.lane[i] = p[i];
    return r;
  }
  KOKKOS_FORCEINLINE_FUNCTION static void masked_store(mask_storage const& m, storage const& s, T* p) {
    for (int i = 0; i < width; ++i)
      if (m.lane[i]) p[i] = s.lane[i];
  }

  KOKKOS_FORCEINLINE_FUNCTION static storage add(storage const& a, storage const& b) { return zip(a, b, lane_plus{}); }
  KOKKOS_FORCEINLINE_FUNCTION static storage sub(storage const& a, storage const& b) { return zip(a, b, lane_minus{}); }
  KOKKOS_FORCEINLINE_FUNCTION static storage mul(storage const& a, storage const& b) { return zip(a, b, lane_times{}); }
  KOKKOS_FORCEINLINE_FUNCTION static storage div(storage const& a, storage const& b) { return zip(a, b, lane_divides{}); }
  KOKKOS_FORCEINLINE_FUNCTION static storage neg(storage const& a) { return map(a, lane_negate{}); }
  KOKKOS_FORCEINLINE_FUNCTION static storage min(storage const& a, storage const& b) { return zip(a, b, lane_min{}); }
  KOKKOS_FORCEINLINE_FUNCTION static storage max(storage const& a, storage const& b) { return zip(a, b, lane_max{}); }

  KOKKOS_FORCEINLINE_FUNCTION static mask_storage eq(storage const& a, storage const& b) { return compare(a, b, lane_equal{}); }
  KOKKOS_FORCEINLINE_FUNCTION static mask_storage ne(storage const& a, storage const& b) { return compare(a, b, lane_not_equal{}); }
  KOKKOS_FORCEINLINE_FUNCTION static mask_storage lt(storage const& a, storage const& b) { return compare(a, b, lane_less{}); }
  KOKKOS_FORCEINLINE_FUNCTION static mask_storage le(storage const& a, storage const& b) { return compare(a, b, lane_less_equal{}); }
  KOKKOS_FORCEINLINE_FUNCTION static mask_storage gt(storage const& a, storage const& b) { return compare(a, b, lane_greater{}); }
  KOKKOS_FORCEINLINE_FUNCTION static mask_storage ge(storage const& a, storage const& b) { return compare(a, b, lane_greater_equal{}); }

  KOKKOS_FORCEINLINE_FUNCTION static storage blend(mask_storage const& m, storage const& if_false,
                                                   storage const& if_true) {
    storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = m.lane[i] ? if_true.lane[i] : if_false.lane[i];
    return r;
  }

  KOKKOS_FORCEINLINE_FUNCTION static mask_storage mask_broadcast(bool v) {
    mask_storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = v;
    return r;
  }
  KOKKOS_FORCEINLINE_FUNCTION static mask_storage mask_load(bool const* p) {
    mask_storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = p[i];
    return r;
  }
  KOKKOS_FORCEINLINE_FUNCTION static bool mask_get(mask_storage const& m, std::size_t i) { return m.lane[i]; }
  KOKKOS_FORCEINLINE_FUNCTION static mask_storage mask_and(mask_storage const& a, mask_storage const& b) {
    mask_storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = a.lane[i] && b.lane[i];
    return r;
  }
  KOKKOS_FORCEINLINE_FUNCTION static mask_storage mask_or(mask_storage const& a, mask_storage const& b) {
    mask_storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = a.lane[i] || b.lane[i];
    return r;
  }
  KOKKOS_FORCEINLINE_FUNCTION static mask_storage mask_xor(mask_storage const& a, mask_storage const& b) {
    mask_storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = a.lane[i] != b.lane[i];
    return r;
  }
  KOKKOS_FORCEINLINE_FUNCTION static mask_storage mask_not(mask_storage const& a) {
    mask_storage r;
    for (int i = 0; i < width; ++i) r.lane[i] = !a.lane[i];
    return r;
  }
  KOKKOS_FORCEINLINE_FUNCTION static bool mask_all(mask_storage const& a) {
    for (int i = 0; i < width; ++i)
      if (!a.lane[i]) return false;
    return true;
  }
  KOKKOS_FORCEINLINE_FUNCTION static bool mask_any(mask_storage const& a) {
    for (int i = 0; i < width; ++i)
      if (a.lane[i]) return true;
    return false;
  }
};

// A generator is called as gen(std::integral_constant<std::size_t, I>{}) for every lane, as
// in Kokkos, so it may use the lane index as a constant expression.
// (A captureless lambda also converts to bool, so for masks the generator constructor, an exact
// match, must not be excluded for that.)
template <class G, class T>
inline constexpr bool is_lane_generator_v = std::is_invocable_r_v<T, G, std::integral_constant<std::size_t, 0>>;

template <class T, int N, class G, std::size_t... I>
KOKKOS_FORCEINLINE_FUNCTION simd_lanes<T, N> generate_lanes(G& gen, std::index_sequence<I...>) {
  simd_lanes<T, N> out;
  ((out.lane[I] = static_cast<T>(gen(std::integral_constant<std::size_t, I>{}))), ...);
  return out;
}
template <class T, int N, class G>
KOKKOS_FORCEINLINE_FUNCTION simd_lanes<T, N> generate_lanes(G& gen) {
  return generate_lanes<T, N>(gen, std::make_index_sequence<N>{});
}

}  // namespace Impl
}  // namespace Kokkos::Experimental

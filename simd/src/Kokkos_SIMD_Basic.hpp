#pragma once
// basic_simd<T, Abi> and basic_simd_mask<T, Abi>: one class template each for every ABI; the
// per-ABI work is done by Impl::simd_impl<T, Abi> (lane loops, or intrinsics where an ABI
// header specialises it).
#include <Kokkos_SIMD_Common.hpp>

namespace Kokkos::Experimental {

template <class T, class Abi>
class basic_simd_mask {
  using impl = Impl::simd_impl<T, Abi>;
  typename impl::mask_storage m_data;

 public:
  using value_type = bool;
  using abi_type = Abi;
  using simd_type = basic_simd<T, Abi>;

  KOKKOS_FORCEINLINE_FUNCTION static constexpr std::size_t size() { return impl::width; }

  basic_simd_mask() = default;
  KOKKOS_FORCEINLINE_FUNCTION explicit basic_simd_mask(value_type value)
      : m_data(impl::mask_broadcast(value)) {}
  template <class G, std::enable_if_t<Impl::is_lane_generator_v<G, value_type>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION explicit basic_simd_mask(G&& gen) {
    m_data = impl::mask_load(Impl::generate_lanes<value_type, impl::width>(gen).lane);
  }
  KOKKOS_FORCEINLINE_FUNCTION explicit basic_simd_mask(typename impl::mask_storage const& data) : m_data(data) {}

  KOKKOS_FORCEINLINE_FUNCTION value_type operator[](std::size_t i) const { return impl::mask_get(m_data, i); }
  KOKKOS_FORCEINLINE_FUNCTION typename impl::mask_storage const& impl_data() const { return m_data; }

  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd_mask operator&&(basic_simd_mask const& a, basic_simd_mask const& b) {
    return basic_simd_mask(impl::mask_and(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd_mask operator||(basic_simd_mask const& a, basic_simd_mask const& b) {
    return basic_simd_mask(impl::mask_or(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd_mask operator&(basic_simd_mask const& a, basic_simd_mask const& b) {
    return basic_simd_mask(impl::mask_and(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd_mask operator|(basic_simd_mask const& a, basic_simd_mask const& b) {
    return basic_simd_mask(impl::mask_or(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd_mask operator^(basic_simd_mask const& a, basic_simd_mask const& b) {
    return basic_simd_mask(impl::mask_xor(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION basic_simd_mask operator!() const { return basic_simd_mask(impl::mask_not(m_data)); }
  // Whole-mask equality, as Kokkos' masks compare (all_of/any_of are built on it there).
  KOKKOS_FORCEINLINE_FUNCTION friend bool operator==(basic_simd_mask const& a, basic_simd_mask const& b) {
    return !impl::mask_any(impl::mask_xor(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend bool operator!=(basic_simd_mask const& a, basic_simd_mask const& b) {
    return impl::mask_any(impl::mask_xor(a.m_data, b.m_data));
  }
};

template <class T, class Abi>
class basic_simd {
  using impl = Impl::simd_impl<T, Abi>;
  typename impl::storage m_data;

  template <class Flags>
  KOKKOS_FORCEINLINE_FUNCTION static typename impl::storage load(T const* ptr, Flags) {
    if constexpr (Impl::is_vector_aligned<Flags>::value) {
      return impl::load_aligned(ptr);
    } else {
      return impl::load(ptr);
    }
  }

 public:
  using value_type = T;
  using abi_type = Abi;
  using mask_type = basic_simd_mask<T, Abi>;

  KOKKOS_FORCEINLINE_FUNCTION static constexpr std::size_t size() { return impl::width; }

  basic_simd() = default;
  template <class U, std::enable_if_t<std::is_convertible_v<U, value_type>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION basic_simd(U&& value) : m_data(impl::broadcast(static_cast<value_type>(value))) {}
  template <class U, std::enable_if_t<!std::is_same_v<U, T>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION explicit basic_simd(basic_simd<U, Abi> const& other) {
    value_type lanes[impl::width];
    for (std::size_t i = 0; i < size(); ++i) lanes[i] = static_cast<value_type>(other[i]);
    m_data = impl::load(lanes);
  }
  template <class G, std::enable_if_t<Impl::is_lane_generator_v<G, value_type>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION explicit basic_simd(G&& gen) {
    m_data = impl::load(Impl::generate_lanes<value_type, impl::width>(gen).lane);
  }
  template <class... Flags>
  KOKKOS_FORCEINLINE_FUNCTION basic_simd(value_type const* ptr, simd_flags<Flags...> flags)
      : m_data(load(ptr, flags)) {}
  // From and to the ABI's register type (e.g. __m256d), as Kokkos' intrinsic ABIs allow.
  KOKKOS_FORCEINLINE_FUNCTION constexpr explicit basic_simd(typename impl::storage const& data) : m_data(data) {}
  KOKKOS_FORCEINLINE_FUNCTION constexpr explicit operator typename impl::storage() const { return m_data; }
  template <class A = Abi, std::enable_if_t<std::is_same_v<A, simd_abi::scalar>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION explicit operator value_type() const {
    return impl::get(m_data, 0);
  }

  KOKKOS_FORCEINLINE_FUNCTION value_type operator[](std::size_t i) const { return impl::get(m_data, i); }
  KOKKOS_FORCEINLINE_FUNCTION typename impl::storage const& impl_data() const { return m_data; }

  template <class... Flags>
  KOKKOS_FORCEINLINE_FUNCTION void copy_from(value_type const* ptr, simd_flags<Flags...> flags) {
    m_data = load(ptr, flags);
  }
  template <class... Flags>
  KOKKOS_FORCEINLINE_FUNCTION void copy_to(value_type* ptr, simd_flags<Flags...>) const {
    if constexpr (Impl::is_vector_aligned<simd_flags<Flags...>>::value) {
      impl::store_aligned(ptr, m_data);
    } else {
      impl::store(ptr, m_data);
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION basic_simd operator-() const { return basic_simd(impl::neg(m_data)); }
  KOKKOS_FORCEINLINE_FUNCTION basic_simd operator+() const { return *this; }

  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd operator+(basic_simd const& a, basic_simd const& b) {
    return basic_simd(impl::add(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd operator-(basic_simd const& a, basic_simd const& b) {
    return basic_simd(impl::sub(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd operator*(basic_simd const& a, basic_simd const& b) {
    return basic_simd(impl::mul(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd operator/(basic_simd const& a, basic_simd const& b) {
    return basic_simd(impl::div(a.m_data, b.m_data));
  }
  // Compound assignment keeps the element type: the right side is converted to it first.
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd& operator+=(basic_simd& a, basic_simd const& b) { return a = a + b; }
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd& operator-=(basic_simd& a, basic_simd const& b) { return a = a - b; }
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd& operator*=(basic_simd& a, basic_simd const& b) { return a = a * b; }
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd& operator/=(basic_simd& a, basic_simd const& b) { return a = a / b; }

  KOKKOS_FORCEINLINE_FUNCTION friend mask_type operator==(basic_simd const& a, basic_simd const& b) {
    return mask_type(impl::eq(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend mask_type operator!=(basic_simd const& a, basic_simd const& b) {
    return mask_type(impl::ne(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend mask_type operator<(basic_simd const& a, basic_simd const& b) {
    return mask_type(impl::lt(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend mask_type operator<=(basic_simd const& a, basic_simd const& b) {
    return mask_type(impl::le(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend mask_type operator>(basic_simd const& a, basic_simd const& b) {
    return mask_type(impl::gt(a.m_data, b.m_data));
  }
  KOKKOS_FORCEINLINE_FUNCTION friend mask_type operator>=(basic_simd const& a, basic_simd const& b) {
    return mask_type(impl::ge(a.m_data, b.m_data));
  }

  // Integer element types only: shifts (by one count or lane by lane) and bitwise operators.
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd operator<<(basic_simd const& a, int count) {
    return basic_simd(impl::zip(a.m_data, impl::broadcast(static_cast<T>(count)), Impl::lane_shift_left{}));
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd operator>>(basic_simd const& a, int count) {
    return basic_simd(impl::zip(a.m_data, impl::broadcast(static_cast<T>(count)), Impl::lane_shift_right{}));
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd operator<<(basic_simd const& a, basic_simd const& counts) {
    return basic_simd(impl::zip(a.m_data, counts.m_data, Impl::lane_shift_left{}));
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd operator>>(basic_simd const& a, basic_simd const& counts) {
    return basic_simd(impl::zip(a.m_data, counts.m_data, Impl::lane_shift_right{}));
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd operator&(basic_simd const& a, basic_simd const& b) {
    return basic_simd(impl::zip(a.m_data, b.m_data, Impl::lane_bit_and{}));
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd operator|(basic_simd const& a, basic_simd const& b) {
    return basic_simd(impl::zip(a.m_data, b.m_data, Impl::lane_bit_or{}));
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd operator^(basic_simd const& a, basic_simd const& b) {
    return basic_simd(impl::zip(a.m_data, b.m_data, Impl::lane_bit_xor{}));
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION basic_simd operator~() const {
    return basic_simd(impl::map(m_data, Impl::lane_bit_not{}));
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd& operator<<=(basic_simd& a, int count) { return a = a << count; }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION friend basic_simd& operator>>=(basic_simd& a, int count) { return a = a >> count; }
};

// simd OP arithmetic scalar and scalar OP simd: the usual arithmetic conversions decide the
// element type of the result (simd<float> * 2.0 is a simd<double>), as in Kokkos.
#define KOKKOS_IMPL_SIMD_MIXED_OPERATOR(OP)                                                                      \
  template <class T, class U, class Abi, std::enable_if_t<std::is_arithmetic_v<U>, bool> = false>               \
  KOKKOS_FORCEINLINE_FUNCTION auto operator OP(basic_simd<T, Abi> const& lhs, U rhs) {                           \
    using result_type = basic_simd<decltype(lhs[0] OP rhs), Abi>;                                                \
    return result_type(lhs) OP result_type(rhs);                                                                 \
  }                                                                                                              \
  template <class T, class U, class Abi, std::enable_if_t<std::is_arithmetic_v<U>, bool> = false>               \
  KOKKOS_FORCEINLINE_FUNCTION auto operator OP(U lhs, basic_simd<T, Abi> const& rhs) {                           \
    using result_type = basic_simd<decltype(lhs OP rhs[0]), Abi>;                                                \
    return result_type(lhs) OP result_type(rhs);                                                                 \
  }
KOKKOS_IMPL_SIMD_MIXED_OPERATOR(+)
KOKKOS_IMPL_SIMD_MIXED_OPERATOR(-)
KOKKOS_IMPL_SIMD_MIXED_OPERATOR(*)
KOKKOS_IMPL_SIMD_MIXED_OPERATOR(/)
#undef KOKKOS_IMPL_SIMD_MIXED_OPERATOR

// Mask reductions, with bool overloads so that generic code accepts a scalar too.
KOKKOS_FORCEINLINE_FUNCTION constexpr bool all_of(bool a) { return a; }
KOKKOS_FORCEINLINE_FUNCTION constexpr bool any_of(bool a) { return a; }
KOKKOS_FORCEINLINE_FUNCTION constexpr bool none_of(bool a) { return !a; }
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION bool all_of(basic_simd_mask<T, Abi> const& a) {
  return Impl::simd_impl<T, Abi>::mask_all(a.impl_data());
}
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION bool any_of(basic_simd_mask<T, Abi> const& a) {
  return Impl::simd_impl<T, Abi>::mask_any(a.impl_data());
}
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION bool none_of(basic_simd_mask<T, Abi> const& a) {
  return !Impl::simd_impl<T, Abi>::mask_any(a.impl_data());
}

}  // namespace Kokkos::Experimental

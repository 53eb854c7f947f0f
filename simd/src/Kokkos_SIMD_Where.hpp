#pragma once
// where(mask, value) expressions, condition(mask, a, b) and the horizontal reductions.
#include <Kokkos_SIMD_Basic.hpp>
#include <Kokkos_Reducers.hpp>

#include <functional>

namespace Kokkos::Experimental {

// A read-only view of the lanes of `value` that `mask` selects.
template <class M, class V>
class const_where_expression {
 protected:
  V& m_value;
  M const& m_mask;

 public:
  KOKKOS_FORCEINLINE_FUNCTION const_where_expression(M const& mask_arg, V const& value_arg)
      : m_value(const_cast<V&>(value_arg)), m_mask(mask_arg) {}
  KOKKOS_FORCEINLINE_FUNCTION V const& impl_get_value() const { return m_value; }
  KOKKOS_FORCEINLINE_FUNCTION M const& impl_get_mask() const { return m_mask; }
};

template <class T, class Abi>
class const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>> {
 protected:
  using impl = Impl::simd_impl<T, Abi>;
  using value_type = basic_simd<T, Abi>;
  using mask_type = basic_simd_mask<T, Abi>;
  using index_type = basic_simd<std::int32_t, Abi>;
  value_type& m_value;
  mask_type const& m_mask;

 public:
  KOKKOS_FORCEINLINE_FUNCTION const_where_expression(mask_type const& mask_arg, value_type const& value_arg)
      : m_value(const_cast<value_type&>(value_arg)), m_mask(mask_arg) {}
  KOKKOS_FORCEINLINE_FUNCTION value_type const& impl_get_value() const { return m_value; }
  KOKKOS_FORCEINLINE_FUNCTION mask_type const& impl_get_mask() const { return m_mask; }

  // Writes only the selected lanes; the others' memory is not touched.
  template <class... Flags>
  KOKKOS_FORCEINLINE_FUNCTION void copy_to(T* mem, simd_flags<Flags...>) const {
    impl::masked_store(m_mask.impl_data(), m_value.impl_data(), mem);
  }
  KOKKOS_FORCEINLINE_FUNCTION void scatter_to(T* mem, index_type const& index) const {
    for (std::size_t i = 0; i < value_type::size(); ++i)
      if (m_mask[i]) mem[index[i]] = m_value[i];
  }
};

// A writable view: assignment and compound assignment change the selected lanes only.
template <class M, class V>
class where_expression : public const_where_expression<M, V> {
  using base_type = const_where_expression<M, V>;

 public:
  KOKKOS_FORCEINLINE_FUNCTION where_expression(M const& mask_arg, V& value_arg) : base_type(mask_arg, value_arg) {}
  KOKKOS_FORCEINLINE_FUNCTION V& impl_get_value() { return this->m_value; }
};

template <class T, class Abi>
class where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>>
    : public const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>> {
  using base_type = const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>>;
  using typename base_type::impl;
  using typename base_type::index_type;
  using typename base_type::value_type;

  KOKKOS_FORCEINLINE_FUNCTION void assign_selected(value_type const& x) {
    this->m_value = value_type(impl::blend(this->m_mask.impl_data(), this->m_value.impl_data(), x.impl_data()));
  }

 public:
  KOKKOS_FORCEINLINE_FUNCTION where_expression(basic_simd_mask<T, Abi> const& mask_arg, value_type& value_arg)
      : base_type(mask_arg, value_arg) {}
  KOKKOS_FORCEINLINE_FUNCTION value_type& impl_get_value() { return this->m_value; }

  // Reads only the selected lanes, so a masked tail never reads past the end of an array.
  template <class... Flags>
  KOKKOS_FORCEINLINE_FUNCTION void copy_from(T const* mem, simd_flags<Flags...>) {
    this->m_value = value_type(impl::masked_load(this->m_mask.impl_data(), this->m_value.impl_data(), mem));
  }
  KOKKOS_FORCEINLINE_FUNCTION void gather_from(T const* mem, index_type const& index) {
    T lanes[value_type::size()];
    for (std::size_t i = 0; i < value_type::size(); ++i) lanes[i] = this->m_mask[i] ? mem[index[i]] : this->m_value[i];
    this->m_value.copy_from(lanes, simd_flag_default);
  }
  template <class U, std::enable_if_t<std::is_convertible_v<U, value_type>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION void operator=(U&& x) {
    assign_selected(static_cast<value_type>(std::forward<U>(x)));
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator+=(value_type const& x) { assign_selected(this->m_value + x); }
  KOKKOS_FORCEINLINE_FUNCTION void operator-=(value_type const& x) { assign_selected(this->m_value - x); }
  KOKKOS_FORCEINLINE_FUNCTION void operator*=(value_type const& x) { assign_selected(this->m_value * x); }
  KOKKOS_FORCEINLINE_FUNCTION void operator/=(value_type const& x) { assign_selected(this->m_value / x); }
};

// where(bool, scalar): lets generic code use where() on plain arithmetic values too.  The mask
// is held by value: where() receives it by value.
template <class T>
class const_where_expression<bool, T> {
 protected:
  T& m_value;
  bool m_mask;

 public:
  KOKKOS_FORCEINLINE_FUNCTION const_where_expression(bool mask_arg, T const& value_arg)
      : m_value(const_cast<T&>(value_arg)), m_mask(mask_arg) {}
  KOKKOS_FORCEINLINE_FUNCTION T const& impl_get_value() const { return m_value; }
  KOKKOS_FORCEINLINE_FUNCTION bool impl_get_mask() const { return m_mask; }
};

template <class T>
class where_expression<bool, T> : public const_where_expression<bool, T> {
  using base_type = const_where_expression<bool, T>;

 public:
  KOKKOS_FORCEINLINE_FUNCTION where_expression(bool mask_arg, T& value_arg) : base_type(mask_arg, value_arg) {}
  KOKKOS_FORCEINLINE_FUNCTION T& impl_get_value() { return this->m_value; }
  template <class U, std::enable_if_t<std::is_convertible_v<U, T>, bool> = false>
  KOKKOS_FORCEINLINE_FUNCTION void operator=(U const& x) {
    if (this->m_mask) this->m_value = x;
  }
};

template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>> where(
    typename basic_simd<T, Abi>::mask_type const& mask, basic_simd<T, Abi>& value) {
  return where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>>(mask, value);
}
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>> where(
    typename basic_simd<T, Abi>::mask_type const& mask, basic_simd<T, Abi> const& value) {
  return const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>>(mask, value);
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION where_expression<bool, T> where(bool mask, T& value) {
  return where_expression<bool, T>(mask, value);
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION const_where_expression<bool, T> where(bool mask, T const& value) {
  return const_where_expression<bool, T>(mask, value);
}

// Lane i of the result is a[i] where mask[i], else b[i].
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION basic_simd<T, Abi> condition(basic_simd_mask<T, Abi> const& mask,
                                                         basic_simd<T, Abi> const& a, basic_simd<T, Abi> const& b) {
  return basic_simd<T, Abi>(Impl::simd_impl<T, Abi>::blend(mask.impl_data(), b.impl_data(), a.impl_data()));
}

namespace Impl {
// The identity of a reduction's binary operation: what reduce() returns for an empty mask.
template <class T, class BinaryOperation>
struct ReductionIdentity;
template <class T, class Op>
struct ReductionIdentity<T, std::plus<Op>> {
  KOKKOS_FORCEINLINE_FUNCTION constexpr operator T() const { return T(0); }
};
template <class T, class Op>
struct ReductionIdentity<T, std::multiplies<Op>> {
  KOKKOS_FORCEINLINE_FUNCTION constexpr operator T() const { return T(1); }
};
template <class T, class Op>
struct ReductionIdentity<T, std::bit_and<Op>> {
  KOKKOS_FORCEINLINE_FUNCTION constexpr operator T() const { return static_cast<T>(~T(0)); }
};
template <class T, class Op>
struct ReductionIdentity<T, std::bit_or<Op>> {
  KOKKOS_FORCEINLINE_FUNCTION constexpr operator T() const { return T(0); }
};
template <class T, class Op>
struct ReductionIdentity<T, std::bit_xor<Op>> {
  KOKKOS_FORCEINLINE_FUNCTION constexpr operator T() const { return T(0); }
};
}  // namespace Impl

template <class T, class Abi, class BinaryOperation = std::plus<>,
          std::enable_if_t<!std::is_same_v<BinaryOperation, basic_simd_mask<T, Abi>>, bool> = false>
KOKKOS_FORCEINLINE_FUNCTION T reduce(basic_simd<T, Abi> const& v, BinaryOperation op = {}) {
  T result = v[0];
  for (std::size_t i = 1; i < v.size(); ++i) result = op(result, v[i]);
  return result;
}
template <class T, class Abi, class BinaryOperation = std::plus<>>
KOKKOS_FORCEINLINE_FUNCTION T reduce(basic_simd<T, Abi> const& v, typename basic_simd<T, Abi>::mask_type const& m,
                                     BinaryOperation op = {},
                                     T identity = Impl::ReductionIdentity<T, BinaryOperation>()) {
  T result = identity;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (m[i]) result = op(result, v[i]);
  return result;
}
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION T reduce_min(basic_simd<T, Abi> const& v) {
  return reduce(v, Impl::lane_min{});
}
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION T reduce_max(basic_simd<T, Abi> const& v) {
  return reduce(v, Impl::lane_max{});
}
// Over the selected lanes; an empty mask gives reduction_identity<T>::min() (resp. max()).
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION T reduce_min(basic_simd<T, Abi> const& v, typename basic_simd<T, Abi>::mask_type const& m) {
  return reduce(v, m, Impl::lane_min{}, Kokkos::reduction_identity<T>::min());
}
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION T reduce_max(basic_simd<T, Abi> const& v, typename basic_simd<T, Abi>::mask_type const& m) {
  return reduce(v, m, Impl::lane_max{}, Kokkos::reduction_identity<T>::max());
}

// The Kokkos 4 spellings over a where expression, still accepted by Kokkos 4.6.
template <class T, class Abi, class BinaryOperation = std::plus<>>
KOKKOS_FORCEINLINE_FUNCTION T reduce(const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>> const& x,
                                     T identity, BinaryOperation op = {}) {
  return reduce(x.impl_get_value(), x.impl_get_mask(), op, identity);
}
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION T hmin(const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>> const& x) {
  return reduce_min(x.impl_get_value(), x.impl_get_mask());
}
template <class T, class Abi>
KOKKOS_FORCEINLINE_FUNCTION T hmax(const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>> const& x) {
  return reduce_max(x.impl_get_value(), x.impl_get_mask());
}

}  // namespace Kokkos::Experimental

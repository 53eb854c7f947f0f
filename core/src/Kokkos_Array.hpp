#pragma once
// Kokkos::Array<T, N>: a fixed-size array usable in functors on every back end (std::array is
// not device-callable).  An aggregate, so `Kokkos::Array<int, 3> a = {1, 2, 3};` works, with
// structured bindings, get<I>, begin/end and to_array as in Kokkos 4.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Swap.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

#ifndef KOKKOS_INVALID_INDEX
#define KOKKOS_INVALID_INDEX (~std::size_t(0))
#endif

namespace Kokkos {

// The Proxy parameter exists for source compatibility with Kokkos' Array<T, N, Proxy>; only
// the plain form (Proxy = void) is provided.
template <class T = void, std::size_t N = KOKKOS_INVALID_INDEX, class Proxy = void>
struct Array {
  static_assert(std::is_void_v<Proxy>, "Kokkos::Array: proxy arrays are not supported by kdag");

  // Public only so that Array stays an aggregate; use operator[] or data().
  T m_internal_implementation_private_member_data[N];

  using reference = T&;
  using const_reference = std::add_const_t<T>&;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using value_type = T;
  using pointer = T*;
  using const_pointer = std::add_const_t<T>*;

  KOKKOS_INLINE_FUNCTION static constexpr size_type size() { return N; }
  KOKKOS_INLINE_FUNCTION static constexpr bool empty() { return false; }
  KOKKOS_INLINE_FUNCTION constexpr size_type max_size() const { return N; }

  template <class I>
  KOKKOS_INLINE_FUNCTION constexpr reference operator[](const I& i) {
    static_assert(std::is_integral_v<I> || std::is_enum_v<I>, "Kokkos::Array: the index must be integral");
    return m_internal_implementation_private_member_data[i];
  }
  template <class I>
  KOKKOS_INLINE_FUNCTION constexpr const_reference operator[](const I& i) const {
    static_assert(std::is_integral_v<I> || std::is_enum_v<I>, "Kokkos::Array: the index must be integral");
    return m_internal_implementation_private_member_data[i];
  }

  KOKKOS_INLINE_FUNCTION constexpr pointer data() { return &m_internal_implementation_private_member_data[0]; }
  KOKKOS_INLINE_FUNCTION constexpr const_pointer data() const {
    return &m_internal_implementation_private_member_data[0];
  }

  friend KOKKOS_INLINE_FUNCTION constexpr bool operator==(const Array& a, const Array& b) noexcept {
    for (size_type i = 0; i < N; ++i)
      if (!(a[i] == b[i])) return false;
    return true;
  }
  friend KOKKOS_INLINE_FUNCTION constexpr bool operator!=(const Array& a, const Array& b) noexcept {
    return !(a == b);
  }
  // Element by element through kokkos_swap, so elements with their own swap use it.
  friend KOKKOS_INLINE_FUNCTION constexpr void kokkos_swap(Array& a, Array& b) noexcept(
      Impl::is_nothrow_swappable_v<T>) {
    for (size_type i = 0; i < N; ++i) {
      using Kokkos::kokkos_swap;
      kokkos_swap(a[i], b[i]);
    }
  }
};

template <class T, class Proxy>
struct Array<T, 0, Proxy> {
  using reference = T&;
  using const_reference = std::add_const_t<T>&;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using value_type = T;
  using pointer = T*;
  using const_pointer = std::add_const_t<T>*;

  KOKKOS_INLINE_FUNCTION static constexpr size_type size() { return 0; }
  KOKKOS_INLINE_FUNCTION static constexpr bool empty() { return true; }
  KOKKOS_INLINE_FUNCTION constexpr size_type max_size() const { return 0; }
  KOKKOS_INLINE_FUNCTION constexpr pointer data() { return nullptr; }
  KOKKOS_INLINE_FUNCTION constexpr const_pointer data() const { return nullptr; }
  friend KOKKOS_INLINE_FUNCTION constexpr bool operator==(const Array&, const Array&) noexcept { return true; }
  friend KOKKOS_INLINE_FUNCTION constexpr bool operator!=(const Array&, const Array&) noexcept { return false; }
  friend KOKKOS_INLINE_FUNCTION constexpr void kokkos_swap(Array&, Array&) noexcept {}
};

template <class T, class... U>
Array(T, U...) -> Array<T, 1 + sizeof...(U)>;

template <std::size_t I, class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr T& get(Array<T, N>& a) noexcept {
  static_assert(I < N, "Kokkos::get<I>(Array): index out of range");
  return a[I];
}
template <std::size_t I, class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr const T& get(const Array<T, N>& a) noexcept {
  static_assert(I < N, "Kokkos::get<I>(Array): index out of range");
  return a[I];
}
template <std::size_t I, class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr T&& get(Array<T, N>&& a) noexcept {
  static_assert(I < N, "Kokkos::get<I>(Array): index out of range");
  return static_cast<T&&>(a[I]);
}

template <class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr T* begin(Array<T, N>& a) noexcept {
  return a.data();
}
template <class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr const T* begin(const Array<T, N>& a) noexcept {
  return a.data();
}
template <class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr T* end(Array<T, N>& a) noexcept {
  return a.data() + N;
}
template <class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr const T* end(const Array<T, N>& a) noexcept {
  return a.data() + N;
}

namespace Impl {
template <class T, std::size_t N, std::size_t... I>
KOKKOS_INLINE_FUNCTION constexpr Array<std::remove_cv_t<T>, N> to_array_impl(T (&a)[N], std::index_sequence<I...>) {
  return {{a[I]...}};
}
template <class T, std::size_t N, std::size_t... I>
KOKKOS_INLINE_FUNCTION constexpr Array<std::remove_cv_t<T>, N> to_array_impl(T (&&a)[N], std::index_sequence<I...>) {
  return {{static_cast<T&&>(a[I])...}};
}
}  // namespace Impl

template <class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr Array<std::remove_cv_t<T>, N> to_array(T (&a)[N]) {
  return Impl::to_array_impl(a, std::make_index_sequence<N>{});
}
template <class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr Array<std::remove_cv_t<T>, N> to_array(T (&&a)[N]) {
  return Impl::to_array_impl(static_cast<T(&&)[N]>(a), std::make_index_sequence<N>{});
}

}  // namespace Kokkos

// Structured bindings: auto [a, b] = Kokkos::Array<int, 2>{...};
template <class T, std::size_t N>
struct std::tuple_size<Kokkos::Array<T, N>> : std::integral_constant<std::size_t, N> {};
template <std::size_t I, class T, std::size_t N>
struct std::tuple_element<I, Kokkos::Array<T, N>> {
  using type = T;
};

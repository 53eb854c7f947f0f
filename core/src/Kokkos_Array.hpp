#pragma once
// Kokkos::Array<T, N>: a fixed-size array usable in functors on every back end (std::array is
// not device-callable).  An aggregate, so `Kokkos::Array<int, 3> a = {1, 2, 3};` works, with
// structured bindings, get<I>, begin/end, kokkos_swap and to_array as in Kokkos 4.
//
// Kokkos 4.6 still has the non-owning views Array<T, KOKKOS_INVALID_INDEX, Array<>::contiguous>
// and Array<T, KOKKOS_INVALID_INDEX, Array<>::strided>, deprecated (gone in Kokkos 5); they are
// here, deprecated likewise, for source compatibility.
//
// With KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK an out-of-range operator[] aborts with a message.
#include <Kokkos_Abort.hpp>
#include <Kokkos_Macros.hpp>
#include <Kokkos_Swap.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

#ifndef KOKKOS_INVALID_INDEX
#define KOKKOS_INVALID_INDEX (~std::size_t(0))
#endif

namespace Kokkos {

namespace Impl {
// The index as size_t, after the checks every Array::operator[] makes.
template <class I>
KOKKOS_INLINE_FUNCTION constexpr std::size_t array_checked_index(const I& i, [[maybe_unused]] std::size_t n) {
  static_assert(std::is_integral_v<I> || std::is_enum_v<I>, "Kokkos::Array: the index must be integral");
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
  if (std::size_t(i) >= n) Kokkos::abort("Kokkos::Array: index out of bounds");
#endif
  return std::size_t(i);
}
}  // namespace Impl

// The Proxy parameter selects the deprecated non-owning forms (Array<>::contiguous,
// Array<>::strided) with N = KOKKOS_INVALID_INDEX; the owning array has Proxy = void.
template <class T = void, std::size_t N = KOKKOS_INVALID_INDEX, class Proxy = void>
struct Array {
  static_assert(std::is_void_v<Proxy>,
                "Kokkos::Array: the proxy forms are Array<T, KOKKOS_INVALID_INDEX, Array<>::contiguous> and "
                "Array<T, KOKKOS_INVALID_INDEX, Array<>::strided>");

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
    return m_internal_implementation_private_member_data[Impl::array_checked_index(i, N)];
  }
  template <class I>
  KOKKOS_INLINE_FUNCTION constexpr const_reference operator[](const I& i) const {
    return m_internal_implementation_private_member_data[Impl::array_checked_index(i, N)];
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

template <class T>
struct Array<T, 0, void> {
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
  // An empty array has no element to return: indexing it aborts, as in Kokkos.
  template <class I>
  KOKKOS_INLINE_FUNCTION reference operator[](const I& i) {
    (void)Impl::array_checked_index(i, 0);
    Kokkos::abort("Kokkos::Array<T, 0>: indexing an empty array");
  }
  template <class I>
  KOKKOS_INLINE_FUNCTION const_reference operator[](const I& i) const {
    (void)Impl::array_checked_index(i, 0);
    Kokkos::abort("Kokkos::Array<T, 0>: indexing an empty array");
  }
  friend KOKKOS_INLINE_FUNCTION constexpr bool operator==(const Array&, const Array&) noexcept { return true; }
  friend KOKKOS_INLINE_FUNCTION constexpr bool operator!=(const Array&, const Array&) noexcept { return false; }
  friend KOKKOS_INLINE_FUNCTION constexpr void kokkos_swap(Array&, Array&) noexcept {}
};

// Array<> names the proxy tags.
template <>
struct Array<void, KOKKOS_INVALID_INDEX, void> {
  struct contiguous {};
  struct strided {};
};

// Assigning one deprecated proxy to another names its type here: that is not the user's use.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
namespace Impl {
// A non-owning view of `size` elements `stride` apart.  Assignment copies the elements of the
// shorter of the two; it never changes where or how many the view refers to.
template <class T>
class array_proxy {
 public:
  using reference = T&;
  using const_reference = std::add_const_t<T>&;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using value_type = T;
  using pointer = T*;
  using const_pointer = std::add_const_t<T>*;

  KOKKOS_INLINE_FUNCTION constexpr size_type size() const { return m_size; }
  KOKKOS_INLINE_FUNCTION constexpr bool empty() const { return m_size == 0; }
  KOKKOS_INLINE_FUNCTION constexpr size_type max_size() const { return m_size; }
  template <class I>
  KOKKOS_INLINE_FUNCTION reference operator[](const I& i) {
    return m_elem[array_checked_index(i, m_size) * m_stride];
  }
  template <class I>
  KOKKOS_INLINE_FUNCTION const_reference operator[](const I& i) const {
    return m_elem[array_checked_index(i, m_size) * m_stride];
  }
  KOKKOS_INLINE_FUNCTION pointer data() { return m_elem; }
  KOKKOS_INLINE_FUNCTION const_pointer data() const { return m_elem; }

  array_proxy() = delete;
  array_proxy(const array_proxy&) = delete;
  KOKKOS_INLINE_FUNCTION array_proxy& operator=(const array_proxy& rhs) { return assign(rhs); }
  template <std::size_t N, class P>
  KOKKOS_INLINE_FUNCTION array_proxy& operator=(const Array<T, N, P>& rhs) {
    return assign(rhs);
  }

 protected:
  KOKKOS_INLINE_FUNCTION constexpr array_proxy(pointer p, size_type n, size_type stride)
      : m_elem(p), m_size(n), m_stride(stride) {}

 private:
  template <class Other>
  KOKKOS_INLINE_FUNCTION array_proxy& assign(const Other& rhs) {
    const std::size_t n = m_size < rhs.size() ? m_size : rhs.size();
    for (std::size_t i = 0; i < n; ++i) (*this)[i] = rhs[i];
    return *this;
  }

  T* m_elem;
  std::size_t m_size;
  std::size_t m_stride;
};
}  // namespace Impl
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

template <class T>
struct [[deprecated("Kokkos::Array<T, KOKKOS_INVALID_INDEX, Array<>::contiguous> is deprecated in Kokkos 4")]] Array<
    T, KOKKOS_INVALID_INDEX, Array<>::contiguous> : Impl::array_proxy<T> {
  // The third argument is ignored, as in Kokkos.
  KOKKOS_INLINE_FUNCTION constexpr Array(T* ptr, std::size_t n, std::size_t = 0) : Impl::array_proxy<T>(ptr, n, 1) {}
  using Impl::array_proxy<T>::operator=;
};

template <class T>
struct [[deprecated("Kokkos::Array<T, KOKKOS_INVALID_INDEX, Array<>::strided> is deprecated in Kokkos 4")]] Array<
    T, KOKKOS_INVALID_INDEX, Array<>::strided> : Impl::array_proxy<T> {
  KOKKOS_INLINE_FUNCTION constexpr Array(T* ptr, std::size_t n, std::size_t stride)
      : Impl::array_proxy<T>(ptr, n, stride) {}
  using Impl::array_proxy<T>::operator=;
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
template <std::size_t I, class T, std::size_t N>
KOKKOS_INLINE_FUNCTION constexpr const T&& get(const Array<T, N>&& a) noexcept {
  static_assert(I < N, "Kokkos::get<I>(Array): index out of range");
  return static_cast<const T&&>(a[I]);
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
  static_assert(I < N, "Kokkos::Array: tuple_element index out of range");
  using type = T;
};

#pragma once
// Kokkos::pair<T1, T2>: std::pair for functors (std::pair's members are not device-callable).
//
//   Kokkos::pair<int, double> p = Kokkos::make_pair(1, 2.5);
//   int i; double d;
//   Kokkos::tie(i, d) = p;                          // assign through references
//   auto sub = Kokkos::subview(v, Kokkos::make_pair(2, 5));
//
// One template serves value and reference members (Kokkos spells out pair<T1&, T2&>,
// pair<T1&, T2> and pair<T1, T2&>; the behaviour is the same).  The comparisons are
// lexicographic, as std::pair's.  The one-member pair<T1, void> is deprecated in Kokkos 4 and
// kept for source compatibility.
#include <Kokkos_Macros.hpp>

#include <type_traits>
#include <utility>

namespace Kokkos {

template <class T1, class T2>
struct pair {
  using first_type = T1;
  using second_type = T2;

  first_type first;
  second_type second;

  KOKKOS_DEFAULTED_FUNCTION constexpr pair() = default;
  KOKKOS_FORCEINLINE_FUNCTION constexpr pair(first_type const& f, second_type const& s) : first(f), second(s) {}
  template <class U, class V>
  KOKKOS_FORCEINLINE_FUNCTION constexpr pair(const pair<U, V>& p) : first(p.first), second(p.second) {}
  template <class U, class V>
  constexpr pair(const std::pair<U, V>& p) : first(p.first), second(p.second) {}

  template <class U, class V>
  KOKKOS_FORCEINLINE_FUNCTION constexpr pair& operator=(const pair<U, V>& p) {
    first = p.first;
    second = p.second;
    return *this;
  }

  // Not a conversion operator: one would make the comparisons ambiguous (as in Kokkos).
  constexpr std::pair<std::remove_reference_t<T1>, std::remove_reference_t<T2>> to_std_pair() const {
    return {first, second};
  }
};

template <class T1, class T2>
pair(T1, T2) -> pair<T1, T2>;

template <class T1>
struct [[deprecated("Kokkos::pair<T1, void> is deprecated in Kokkos 4")]] pair<T1, void> {
  using first_type = T1;
  using second_type = void;

  first_type first;
  enum { second = 0 };

  KOKKOS_DEFAULTED_FUNCTION constexpr pair() = default;
  KOKKOS_FORCEINLINE_FUNCTION constexpr pair(const first_type& f) : first(f) {}
  KOKKOS_FORCEINLINE_FUNCTION constexpr pair(const first_type& f, int) : first(f) {}
  template <class U>
  KOKKOS_FORCEINLINE_FUNCTION constexpr pair(const pair<U, void>& p) : first(p.first) {}
  template <class U>
  KOKKOS_FORCEINLINE_FUNCTION constexpr pair& operator=(const pair<U, void>& p) {
    first = p.first;
    return *this;
  }
};

template <class T1, class T2>
KOKKOS_FORCEINLINE_FUNCTION constexpr bool operator==(const pair<T1, T2>& a, const pair<T1, T2>& b) {
  return a.first == b.first && a.second == b.second;
}
template <class T1, class T2>
KOKKOS_FORCEINLINE_FUNCTION constexpr bool operator!=(const pair<T1, T2>& a, const pair<T1, T2>& b) {
  return !(a == b);
}
template <class T1, class T2>
KOKKOS_FORCEINLINE_FUNCTION constexpr bool operator<(const pair<T1, T2>& a, const pair<T1, T2>& b) {
  return a.first < b.first || (!(b.first < a.first) && a.second < b.second);
}
template <class T1, class T2>
KOKKOS_FORCEINLINE_FUNCTION constexpr bool operator<=(const pair<T1, T2>& a, const pair<T1, T2>& b) {
  return !(b < a);
}
template <class T1, class T2>
KOKKOS_FORCEINLINE_FUNCTION constexpr bool operator>(const pair<T1, T2>& a, const pair<T1, T2>& b) {
  return b < a;
}
template <class T1, class T2>
KOKKOS_FORCEINLINE_FUNCTION constexpr bool operator>=(const pair<T1, T2>& a, const pair<T1, T2>& b) {
  return !(a < b);
}

// The one-member pair compares its first members.
#define KOKKOS_IMPL_PAIR_VOID_COMPARISON(OP)                                                       \
  template <class T1>                                                                             \
  [[deprecated("Kokkos::pair<T1, void> is deprecated in Kokkos 4")]] KOKKOS_FORCEINLINE_FUNCTION \
      constexpr bool operator OP(const pair<T1, void>& a, const pair<T1, void>& b) {              \
    return a.first OP b.first;                                                                    \
  }
KOKKOS_IMPL_PAIR_VOID_COMPARISON(==)
KOKKOS_IMPL_PAIR_VOID_COMPARISON(!=)
KOKKOS_IMPL_PAIR_VOID_COMPARISON(<)
KOKKOS_IMPL_PAIR_VOID_COMPARISON(<=)
KOKKOS_IMPL_PAIR_VOID_COMPARISON(>)
KOKKOS_IMPL_PAIR_VOID_COMPARISON(>=)
#undef KOKKOS_IMPL_PAIR_VOID_COMPARISON

template <class T1, class T2>
KOKKOS_FORCEINLINE_FUNCTION constexpr pair<T1, T2> make_pair(T1 x, T2 y) {
  return pair<T1, T2>(x, y);
}
template <class T1, class T2>
KOKKOS_FORCEINLINE_FUNCTION constexpr pair<T1&, T2&> tie(T1& x, T2& y) {
  return pair<T1&, T2&>(x, y);
}

namespace Impl {
template <class T>
struct is_pair_like : std::false_type {};
template <class T, class U>
struct is_pair_like<Kokkos::pair<T, U>> : std::true_type {};
template <class T, class U>
struct is_pair_like<std::pair<T, U>> : std::true_type {};
}  // namespace Impl

}  // namespace Kokkos

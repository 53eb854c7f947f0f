#pragma once
// Array layouts (LayoutRight, LayoutLeft, LayoutStride) and the subview tag ALL; Kokkos::pair
// (subview ranges) comes with them from Kokkos_Pair.hpp.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Pair.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

#ifndef KOKKOS_INVALID_INDEX
#define KOKKOS_INVALID_INDEX (~std::size_t(0))
#endif
#ifndef KOKKOS_IMPL_CTOR_DEFAULT_ARG
#define KOKKOS_IMPL_CTOR_DEFAULT_ARG KOKKOS_INVALID_INDEX
#endif

namespace Kokkos {

enum { ARRAY_LAYOUT_MAX_RANK = 8 };

// Row-major: the right-most index is the fastest.  `dimension[r]` holds the extent of rank r
// (KOKKOS_IMPL_CTOR_DEFAULT_ARG where not given).
struct LayoutRight {
  using array_layout = LayoutRight;
  static constexpr bool is_extent_constructible = true;

  std::size_t dimension[ARRAY_LAYOUT_MAX_RANK];
  // Kokkos 4 carries a padded stride here; kdag accepts it and allocates compactly.
  std::size_t stride = KOKKOS_IMPL_CTOR_DEFAULT_ARG;

  KOKKOS_INLINE_FUNCTION explicit constexpr LayoutRight(
      std::size_t N0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, std::size_t N1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      std::size_t N2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, std::size_t N3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      std::size_t N4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, std::size_t N5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      std::size_t N6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, std::size_t N7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG)
      : dimension{N0, N1, N2, N3, N4, N5, N6, N7} {}

  LayoutRight(const LayoutRight&) = default;
  LayoutRight& operator=(const LayoutRight&) = default;

  friend KOKKOS_INLINE_FUNCTION constexpr bool operator==(const LayoutRight& a, const LayoutRight& b) {
    for (int r = 0; r < ARRAY_LAYOUT_MAX_RANK; ++r)
      if (a.dimension[r] != b.dimension[r]) return false;
    return a.stride == b.stride;
  }
  friend KOKKOS_INLINE_FUNCTION constexpr bool operator!=(const LayoutRight& a, const LayoutRight& b) {
    return !(a == b);
  }
};

// Column-major: the left-most index is the fastest.
struct LayoutLeft {
  using array_layout = LayoutLeft;
  static constexpr bool is_extent_constructible = true;

  std::size_t dimension[ARRAY_LAYOUT_MAX_RANK];
  std::size_t stride = KOKKOS_IMPL_CTOR_DEFAULT_ARG;

  KOKKOS_INLINE_FUNCTION explicit constexpr LayoutLeft(
      std::size_t N0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, std::size_t N1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      std::size_t N2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, std::size_t N3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      std::size_t N4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, std::size_t N5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      std::size_t N6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, std::size_t N7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG)
      : dimension{N0, N1, N2, N3, N4, N5, N6, N7} {}

  LayoutLeft(const LayoutLeft&) = default;
  LayoutLeft& operator=(const LayoutLeft&) = default;

  friend KOKKOS_INLINE_FUNCTION constexpr bool operator==(const LayoutLeft& a, const LayoutLeft& b) {
    for (int r = 0; r < ARRAY_LAYOUT_MAX_RANK; ++r)
      if (a.dimension[r] != b.dimension[r]) return false;
    return a.stride == b.stride;
  }
  friend KOKKOS_INLINE_FUNCTION constexpr bool operator!=(const LayoutLeft& a, const LayoutLeft& b) {
    return !(a == b);
  }
};

// Arbitrary strides: element (i0, i1, ...) lives at sum(i_r * stride[r]).
struct LayoutStride {
  using array_layout = LayoutStride;
  static constexpr bool is_extent_constructible = false;

  std::size_t dimension[ARRAY_LAYOUT_MAX_RANK];
  std::size_t stride[ARRAY_LAYOUT_MAX_RANK];

  // Compact strides for the given extents; order[0] is the fastest-varying rank (stride 1).
  // An `order` that is not a permutation of 0..rank-1 yields an all-zero layout.
  template <class iTypeOrder, class iTypeDimen>
  KOKKOS_INLINE_FUNCTION static LayoutStride order_dimensions(int const rank, iTypeOrder const* const order,
                                                              iTypeDimen const* const dimen) {
    LayoutStride tmp;
    for (int r = 0; r < ARRAY_LAYOUT_MAX_RANK; ++r) {
      tmp.dimension[r] = KOKKOS_IMPL_CTOR_DEFAULT_ARG;
      tmp.stride[r] = 0;
    }
    unsigned seen = 0;
    bool ok = rank >= 0 && rank <= ARRAY_LAYOUT_MAX_RANK;
    for (int r = 0; ok && r < rank; ++r) {
      const int o = static_cast<int>(order[r]);
      if (o < 0 || o >= rank || (seen & (1u << o))) ok = false;
      else seen |= 1u << o;
    }
    if (!ok) {
      for (int r = 0; r < ARRAY_LAYOUT_MAX_RANK; ++r) tmp.dimension[r] = 0;
      return tmp;
    }
    std::size_t n = 1;
    for (int r = 0; r < rank; ++r) {
      tmp.stride[order[r]] = n;
      n *= static_cast<std::size_t>(dimen[order[r]]);
      tmp.dimension[r] = static_cast<std::size_t>(dimen[r]);
    }
    return tmp;
  }

  KOKKOS_INLINE_FUNCTION explicit constexpr LayoutStride(std::size_t N0 = 0, std::size_t S0 = 0, std::size_t N1 = 0,
                                                         std::size_t S1 = 0, std::size_t N2 = 0, std::size_t S2 = 0,
                                                         std::size_t N3 = 0, std::size_t S3 = 0, std::size_t N4 = 0,
                                                         std::size_t S4 = 0, std::size_t N5 = 0, std::size_t S5 = 0,
                                                         std::size_t N6 = 0, std::size_t S6 = 0, std::size_t N7 = 0,
                                                         std::size_t S7 = 0)
      : dimension{N0, N1, N2, N3, N4, N5, N6, N7}, stride{S0, S1, S2, S3, S4, S5, S6, S7} {}

  LayoutStride(const LayoutStride&) = default;
  LayoutStride& operator=(const LayoutStride&) = default;

  friend KOKKOS_INLINE_FUNCTION constexpr bool operator==(const LayoutStride& a, const LayoutStride& b) {
    for (int r = 0; r < ARRAY_LAYOUT_MAX_RANK; ++r)
      if (a.dimension[r] != b.dimension[r] || a.stride[r] != b.stride[r]) return false;
    return true;
  }
  friend KOKKOS_INLINE_FUNCTION constexpr bool operator!=(const LayoutStride& a, const LayoutStride& b) {
    return !(a == b);
  }
};

template <class T, class = void>
struct is_array_layout : std::false_type {};
template <class T>
struct is_array_layout<T, std::void_t<typename T::array_layout>>
    : std::bool_constant<std::is_same_v<std::remove_cv_t<T>, typename T::array_layout>> {};
template <class T>
inline constexpr bool is_array_layout_v = is_array_layout<T>::value;

// ---------------------------------------------------------------------------------------------
// Subview argument "the whole extent".
struct ALL_t {
  KOKKOS_INLINE_FUNCTION constexpr const ALL_t& operator()() const { return *this; }
  KOKKOS_INLINE_FUNCTION constexpr bool operator==(const ALL_t&) const { return true; }
};
inline constexpr ALL_t ALL{};

}  // namespace Kokkos

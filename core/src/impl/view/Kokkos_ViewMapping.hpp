#pragma once
// View machinery: parsing the data type (`double**[3]`), the extents with mixed compile-time
// and run-time dimensions, and the offset computation of each layout.
//
// Every layout is stored the same way: the extent and the stride of each rank.  The layout
// type only adds invariants the offset computation exploits:
//   LayoutRight: stride[rank-1] == 1 and stride[r] == stride[r+1]*extent[r+1] for 1 <= r < rank-1
//                (only the stride of rank 0 is free, which is what a subview may leave);
//   LayoutLeft : the mirror image (stride[0] == 1, only the stride of the last rank is free);
//   LayoutStride: nothing.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Layout.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace Kokkos {
namespace Impl {

// r < n in a loop over a View's ranks.  A call rather than the comparison itself: for a rank-0
// View, nvcc warns (#186) that `r < 0` on an unsigned r is pointless.
KOKKOS_INLINE_FUNCTION constexpr bool rank_below(std::size_t r, std::size_t n) { return r < n; }

// std::integral_constant usable in device code, with operator() as Kokkos 4 has for View::rank.
template <class T, T v>
struct integral_constant {
  using value_type = T;
  using type = integral_constant;
  static constexpr T value = v;
  KOKKOS_INLINE_FUNCTION constexpr operator T() const noexcept { return v; }
  KOKKOS_INLINE_FUNCTION constexpr T operator()() const noexcept { return v; }
};

// ---------------------------------------------------------------------------------------------
// Data type analysis: `const double**[3][4]` -> value_type const double, rank 4, 2 dynamic.
template <class T>
struct CountPointers {
  using value_type = T;
  static constexpr std::size_t value = 0;
};
template <class T>
struct CountPointers<T*> {
  using value_type = typename CountPointers<T>::value_type;
  static constexpr std::size_t value = 1 + CountPointers<T>::value;
};

template <class T, std::size_t... I>
KOKKOS_INLINE_FUNCTION constexpr std::size_t static_extent_impl(std::size_t r, std::index_sequence<I...>) {
  std::size_t result = 0;
  ((result = (r == I ? std::extent_v<T, I> : result)), ...);
  return result;
}

template <class DataType>
struct ViewDataAnalysis {
  using array_base = std::remove_all_extents_t<DataType>;  // `double**`
  using value_type = typename CountPointers<array_base>::value_type;
  static constexpr std::size_t rank_dynamic = CountPointers<array_base>::value;
  static constexpr std::size_t rank_static = std::rank_v<DataType>;
  static constexpr std::size_t rank = rank_dynamic + rank_static;
  static_assert(rank <= 8, "Kokkos::View: rank must be at most 8");
  static_assert(!std::is_array_v<value_type> && !std::is_reference_v<value_type>,
                "Kokkos::View: run-time extents (*) must come before compile-time extents ([N])");
  // Compile-time extent of rank r, 0 if r is a run-time rank.
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t static_extent(std::size_t r) {
    return rank_below(r, rank_dynamic) ? 0 : static_extent_impl<DataType>(r - rank_dynamic, std::make_index_sequence<rank_static>{});
  }
};

// Replace the value type of a data type: ReplaceValueType<double*[3], const double> = const double*[3].
template <class T, class V>
struct ReplaceValueType {
  using type = V;
};
template <class T, class V>
struct ReplaceValueType<T*, V> {
  using type = typename ReplaceValueType<T, V>::type*;
};
template <class T, std::size_t N, class V>
struct ReplaceValueType<T[N], V> {
  using type = typename ReplaceValueType<T, V>::type[N];
};
template <class T, class V>
struct ReplaceValueType<T[], V> {
  using type = typename ReplaceValueType<T, V>::type[];
};

// Build `V` + NDyn pointers + static extents Ns..., e.g. <double, 1, 3, 4> -> double*[3][4].
template <class T, std::size_t NDyn>
struct AddPointers {
  using type = typename AddPointers<T*, NDyn - 1>::type;
};
template <class T>
struct AddPointers<T, 0> {
  using type = T;
};
template <class T, std::size_t... Ns>
struct AddExtents;
template <class T>
struct AddExtents<T> {
  using type = T;
};
template <class T, std::size_t N0, std::size_t... Ns>
struct AddExtents<T, N0, Ns...> {
  using type = typename AddExtents<T, Ns...>::type[N0];
};
template <class V, std::size_t NDyn, std::size_t... Ns>
using BuildDataType = typename AddExtents<typename AddPointers<V, NDyn>::type, Ns...>::type;

// ---------------------------------------------------------------------------------------------
// Extents, strides and offsets.
template <class Layout, std::size_t Rank>
struct ViewOffset {
  using array_layout = Layout;
  static constexpr std::size_t rank = Rank;
  static constexpr std::size_t N = Rank == 0 ? 1 : Rank;
  static constexpr bool is_right = std::is_same_v<Layout, LayoutRight>;
  static constexpr bool is_left = std::is_same_v<Layout, LayoutLeft>;

  std::size_t m_dim[N];
  std::size_t m_stride[N];

  KOKKOS_INLINE_FUNCTION constexpr ViewOffset() : m_dim{}, m_stride{} {
    for (std::size_t r = 0; r < N; ++r) {
      m_dim[r] = 0;
      m_stride[r] = 0;
    }
  }

  // Compact strides for the given extents in the order of the layout (LayoutStride: right).
  KOKKOS_INLINE_FUNCTION void set_compact(const std::size_t* dims) {
    for (std::size_t r = 0; rank_below(r, Rank); ++r) m_dim[r] = dims[r];
    if constexpr (Rank > 0) {
      if constexpr (is_left) {
        std::size_t s = 1;
        for (std::size_t r = 0; rank_below(r, Rank); ++r) {
          m_stride[r] = s;
          s *= m_dim[r];
        }
      } else {
        std::size_t s = 1;
        for (std::size_t r = Rank; r-- > 0;) {
          m_stride[r] = s;
          s *= m_dim[r];
        }
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void set(const std::size_t* dims, const std::size_t* strides) {
    for (std::size_t r = 0; rank_below(r, Rank); ++r) {
      m_dim[r] = dims[r];
      m_stride[r] = strides[r];
    }
  }

  KOKKOS_INLINE_FUNCTION constexpr std::size_t extent(std::size_t r) const { return rank_below(r, Rank) ? m_dim[r] : 1; }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t size() const {
    std::size_t n = 1;
    for (std::size_t r = 0; rank_below(r, Rank); ++r) n *= m_dim[r];
    return n;
  }
  // Number of elements between the first and one past the last addressable element.
  KOKKOS_INLINE_FUNCTION constexpr std::size_t span() const {
    std::size_t last = 0;
    for (std::size_t r = 0; rank_below(r, Rank); ++r) {
      if (m_dim[r] == 0) return 0;
      last += (m_dim[r] - 1) * m_stride[r];
    }
    return last + 1;
  }
  KOKKOS_INLINE_FUNCTION constexpr bool span_is_contiguous() const { return span() == size(); }

  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride(std::size_t r) const {
    if (rank_below(r, Rank)) return m_stride[r];
    // Ranks beyond the view's rank, as Kokkos reports them.
    if constexpr (is_left) return size();
    return is_right ? 1 : 0;
  }

  template <std::size_t... K, class... I>
  KOKKOS_FORCEINLINE_FUNCTION constexpr std::size_t offset_impl(std::index_sequence<K...>, I... i) const {
    if constexpr (is_right) {
      return ((K == Rank - 1 ? std::size_t(i) : std::size_t(i) * m_stride[K]) + ... + 0);
    } else if constexpr (is_left) {
      return ((K == 0 ? std::size_t(i) : std::size_t(i) * m_stride[K]) + ... + 0);
    } else {
      return ((std::size_t(i) * m_stride[K]) + ... + 0);
    }
  }
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION constexpr std::size_t operator()(I... i) const {
    static_assert(sizeof...(I) == Rank);
    return offset_impl(std::make_index_sequence<Rank>{}, i...);
  }

  // The first rank whose explicit stride breaks the invariant of `Layout` (ranks of extent
  // <= 1 are free), with the stride it would need; Rank when the strides fit.
  struct StrideMismatch {
    std::size_t rank;
    std::size_t expected;
  };
  KOKKOS_INLINE_FUNCTION static StrideMismatch strides_fit_layout(const std::size_t* dims,
                                                                  const std::size_t* strides) {
    if constexpr (Rank > 0 && (is_left || is_right)) {
      if constexpr (is_right) {
        if (dims[Rank - 1] > 1 && strides[Rank - 1] != 1) return {Rank - 1, 1};
        for (std::size_t r = Rank - 1; r-- > 1;)
          if (dims[r] > 1 && strides[r] != strides[r + 1] * dims[r + 1]) return {r, strides[r + 1] * dims[r + 1]};
      } else {
        if (dims[0] > 1 && strides[0] != 1) return {0, 1};
        for (std::size_t r = 1; r + 1 < Rank; ++r)
          if (dims[r] > 1 && strides[r] != strides[r - 1] * dims[r - 1]) return {r, strides[r - 1] * dims[r - 1]};
      }
    }
    (void)dims;
    (void)strides;
    return {Rank, 0};
  }

  // Bytes from the first element to one past the last one, for elements of `elem_bytes`;
  // false when that, or the number of elements, does not fit in std::size_t.  Host only: it
  // guards allocations.
  bool span_bytes_checked(std::size_t elem_bytes, std::size_t& bytes) const {
    bytes = 0;
    for (std::size_t r = 0; rank_below(r, Rank); ++r)
      if (m_dim[r] == 0) return true;
    std::size_t count = 1, last = 0;
    for (std::size_t r = 0; rank_below(r, Rank); ++r) {
      std::size_t reach = 0;
      if (__builtin_mul_overflow(count, m_dim[r], &count)) return false;
      if (__builtin_mul_overflow(m_dim[r] - 1, m_stride[r], &reach)) return false;
      if (__builtin_add_overflow(last, reach, &last)) return false;
    }
    if (__builtin_add_overflow(last, std::size_t(1), &last)) return false;
    return !__builtin_mul_overflow(last, elem_bytes, &bytes);
  }

  KOKKOS_INLINE_FUNCTION Layout layout() const {
    if constexpr (std::is_same_v<Layout, LayoutStride>) {
      LayoutStride l;
      for (std::size_t r = 0; r < ARRAY_LAYOUT_MAX_RANK; ++r) {
        l.dimension[r] = rank_below(r, Rank) ? m_dim[r] : 1;
        l.stride[r] = rank_below(r, Rank) ? m_stride[r] : 0;
      }
      return l;
    } else {
      Layout l;
      for (std::size_t r = 0; r < ARRAY_LAYOUT_MAX_RANK; ++r) l.dimension[r] = rank_below(r, Rank) ? m_dim[r] : 1;
      return l;
    }
  }
};

}  // namespace Impl
}  // namespace Kokkos

#pragma once
// Kokkos::subview(v, args...): one argument per rank, each an integral index (drops the rank),
// Kokkos::ALL (keeps it), or a half-open range Kokkos::pair<I,J> / std::pair<I,J>.
//
// Result layout (as Kokkos): the source layout is kept when the result is still addressable
// with it, i.e.
//   rank 0; or rank <= 2 and the fastest rank of the source is a range (last argument for
//   LayoutRight, first for LayoutLeft); or, for LayoutRight, the arguments are
//   indices..., one range, ALL... (mirror image for LayoutLeft);
// otherwise LayoutStride.  The subview shares the allocation and reference count of v.
#include <Kokkos_View.hpp>

#include <cstdio>
#include <utility>

namespace Kokkos {
namespace Impl {

// 0: index, 1: ALL, 2: range
template <class A, class = void>
struct SubviewArgKind {
  static constexpr int value = -1;
};
template <class A>
struct SubviewArgKind<A, std::enable_if_t<std::is_integral_v<A> || std::is_enum_v<A>>> {
  static constexpr int value = 0;
};
template <>
struct SubviewArgKind<ALL_t, void> {
  static constexpr int value = 1;
};
template <class I, class J>
struct SubviewArgKind<Kokkos::pair<I, J>, void> {
  static_assert(std::is_integral_v<I> && std::is_integral_v<J>, "Kokkos::subview: range bounds must be integral");
  static constexpr int value = 2;
};
template <class I, class J>
struct SubviewArgKind<std::pair<I, J>, void> {
  static_assert(std::is_integral_v<I> && std::is_integral_v<J>, "Kokkos::subview: range bounds must be integral");
  static constexpr int value = 2;
};

template <class SrcView, class... Args>
struct SubviewType {
  using src_traits = typename SrcView::traits;
  static constexpr std::size_t SR = src_traits::rank;
  static_assert(sizeof...(Args) == SR, "Kokkos::subview: give exactly one argument per rank of the source view");
  static_assert(((SubviewArgKind<std::decay_t<Args>>::value >= 0) && ...),
                "Kokkos::subview: each argument must be an integral index, Kokkos::ALL, or a Kokkos::pair / "
                "std::pair range");

  static constexpr int kind[SR + 1] = {SubviewArgKind<std::decay_t<Args>>::value..., 0};
  static constexpr std::size_t rank = (std::size_t(0) + ... + std::size_t(SubviewArgKind<std::decay_t<Args>>::value != 0));

  // Compile-time extents kept for ALL over a compile-time rank, in the trailing run only.
  struct Ext {
    std::size_t v[SR + 1];
    std::size_t ndyn;
  };
  static constexpr Ext compute_ext() {
    Ext e{};
    std::size_t r = 0;
    for (std::size_t k = 0; rank_below(k, SR); ++k) {
      if (kind[k] == 0) continue;
      e.v[r++] = kind[k] == 1 ? src_traits::static_extent(k) : 0;
    }
    std::size_t ndyn = rank;
    while (ndyn > 0 && e.v[ndyn - 1] != 0) --ndyn;
    e.ndyn = ndyn;
    return e;
  }
  static constexpr Ext ext = compute_ext();

  template <std::size_t... I>
  static auto build(std::index_sequence<I...>)
      -> std::type_identity<BuildDataType<typename src_traits::value_type, ext.ndyn, ext.v[ext.ndyn + I]...>>;
  using data_type = typename decltype(build(std::make_index_sequence<rank - ext.ndyn>{}))::type;

  using src_layout = typename src_traits::array_layout;
  static constexpr bool is_right = std::is_same_v<src_layout, LayoutRight>;
  static constexpr bool is_left = std::is_same_v<src_layout, LayoutLeft>;

  // indices..., one range, ALL...   (LayoutRight), reversed for LayoutLeft
  static constexpr bool legal_contiguous(bool right) {
    std::size_t k = 0;
    auto at = [&](std::size_t j) { return right ? kind[j] : kind[SR - 1 - j]; };
    while (rank_below(k, SR) && at(k) == 0) ++k;
    if (k == SR) return true;
    ++k;  // the one range (ALL or pair)
    for (; rank_below(k, SR); ++k)
      if (at(k) != 1) return false;
    return true;
  }
  static constexpr bool keep_layout =
      rank == 0 || (is_right && ((rank <= 2 && kind[SR - 1] != 0) || legal_contiguous(true))) ||
      (is_left && ((rank <= 2 && kind[0] != 0) || legal_contiguous(false)));
  using array_layout = std::conditional_t<keep_layout, src_layout, LayoutStride>;

  using type =
      View<data_type, array_layout, typename src_traits::device_type, typename src_traits::memory_traits>;
};

KOKKOS_INLINE_FUNCTION void subview_error(const char* label, std::size_t r, long long b, long long e,
                                          std::size_t n, bool is_range) {
  KOKKOS_IF_ON_HOST((char buf[512]; if (is_range) std::snprintf(buf, sizeof(buf),
                                                                "Kokkos::subview bounds error: view \"%s\" argument "
                                                                "%zu = [%lld, %lld) is not within extent %zu",
                                                                label, r, b, e, n);
                     else std::snprintf(buf, sizeof(buf),
                                        "Kokkos::subview bounds error: view \"%s\" argument %zu = %lld >= extent %zu",
                                        label, r, b, n);
                     Kokkos::abort(buf);))
  KOKKOS_IF_ON_DEVICE(((void)label; (void)r; (void)b; (void)e; (void)n; (void)is_range;
                       Kokkos::abort("Kokkos::subview bounds error");))
}

struct SubviewBuilder {
  std::size_t offset = 0;
  std::size_t dims[9] = {};
  std::size_t strides[9] = {};
  std::size_t r = 0;
  const char* label = "";

  template <class A>
  KOKKOS_INLINE_FUNCTION void add(std::size_t k, std::size_t n, std::size_t s, const A& a) {
    constexpr int kd = SubviewArgKind<std::decay_t<A>>::value;
    if constexpr (kd == 0) {
      bool bad = false;
      if constexpr (std::is_signed_v<A>) bad = a < 0;
      // index 0 into an empty rank is allowed (the result is empty anyway)
      if (bad || (std::size_t(a) >= n && !(n == 0 && std::size_t(a) == 0)))
        subview_error(label, k, (long long)a, 0, n, false);
      offset += std::size_t(a) * s;
    } else if constexpr (kd == 1) {
      dims[r] = n;
      strides[r] = s;
      ++r;
    } else {
      const long long b = (long long)a.first, e = (long long)a.second;
      if (b < 0 || e < b || std::size_t(e) > n) subview_error(label, k, b, e, n, true);
      if (e > b) offset += std::size_t(b) * s;
      dims[r] = std::size_t(e - b);
      strides[r] = s;
      ++r;
    }
  }
};

}  // namespace Impl

template <class ViewType, class... Args>
using Subview = typename Impl::SubviewType<ViewType, Args...>::type;

template <class D, class... P, class... Args>
KOKKOS_INLINE_FUNCTION Subview<View<D, P...>, Args...> subview(const View<D, P...>& src, Args... args) {
  using result = Subview<View<D, P...>, Args...>;
  using map_type = typename result::map_type;
  Impl::SubviewBuilder b;
  KOKKOS_IF_ON_HOST((if (src.impl_track() != nullptr) b.label = src.impl_track()->label_c_str();))
  {
    std::size_t k = 0;
    ((b.add(k, src.extent(k), src.stride(k), args), ++k), ...);
    (void)k;
  }
  map_type map;
  map.set(b.dims, b.strides);
  return result(Impl::ViewImplTag{}, src.data() + (map.span() == 0 ? 0 : b.offset), map, src.impl_track(),
                src.impl_allocation_base(), src.impl_allocation_bytes());
}

}  // namespace Kokkos

#pragma once
// Kokkos::Experimental::local_deep_copy: copies between Views, or fills one, from inside a kernel.
//
//   local_deep_copy(team, dst, src);   // the team's threads share the elements, then a team barrier
//   local_deep_copy(team, dst, 0.0);
//   local_deep_copy(dst, src);         // the calling thread alone
//   local_deep_copy(dst, value);
//
// Views of rank 1 to 7 (and 0, a single element).  When both Views are contiguous with the same
// layout the copy walks their spans; otherwise it walks the index space in layout-right order.
// Views of different extents are a misuse and abort naming it; a View without data is a no-op.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_View.hpp>
#include <Kokkos_NestedPolicies.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace Kokkos::Experimental {

namespace Impl {

// Element `i` of the layout-right enumeration of v's index space.
template <class ViewType, std::size_t... R>
KOKKOS_INLINE_FUNCTION auto& local_element(const ViewType& v, std::size_t i, std::index_sequence<R...>) {
  constexpr std::size_t rank = sizeof...(R);
  std::size_t index[rank > 0 ? rank : 1] = {};
  for (std::size_t r = rank; r-- > 0;) {
    const std::size_t extent = v.extent(r);
    index[r] = i % extent;
    i /= extent;
  }
  return v(index[R]...);
}

template <class ViewType>
KOKKOS_INLINE_FUNCTION auto& local_element(const ViewType& v, std::size_t i) {
  return local_element(v, i, std::make_index_sequence<ViewType::rank()>{});
}

template <class DstView, class SrcView>
KOKKOS_INLINE_FUNCTION bool local_copy_is_linear(const DstView& dst, const SrcView& src) {
  return std::is_same_v<typename DstView::array_layout, typename SrcView::array_layout> && dst.span_is_contiguous() &&
         src.span_is_contiguous();
}

template <class DstView, class SrcView>
KOKKOS_INLINE_FUNCTION bool local_copy_checked(const DstView& dst, const SrcView& src) {
  static_assert(DstView::rank() == SrcView::rank(), "Kokkos::Experimental::local_deep_copy: Views of different ranks");
  static_assert(DstView::rank() <= 7, "Kokkos::Experimental::local_deep_copy: Views of rank above 7");
  static_assert(!std::is_const_v<typename DstView::value_type>,
                "Kokkos::Experimental::local_deep_copy: the destination View is const");
  if (dst.data() == nullptr || src.data() == nullptr) return false;
  for (std::size_t r = 0; r < DstView::rank(); ++r) {
    if (dst.extent(r) != src.extent(r)) {
      Kokkos::abort("Kokkos::Experimental::local_deep_copy: the destination and source Views have different extents");
    }
  }
  return true;
}

template <class DstView, class SrcView>
KOKKOS_INLINE_FUNCTION void local_copy_element(const DstView& dst, const SrcView& src, bool linear, std::size_t i) {
  if (linear) {
    dst.data()[i] = src.data()[i];
  } else {
    local_element(dst, i) = local_element(src, i);
  }
}

template <class DstView>
KOKKOS_INLINE_FUNCTION void local_fill_element(const DstView& dst, const typename DstView::value_type& value,
                                               bool linear, std::size_t i) {
  if (linear) {
    dst.data()[i] = value;
  } else {
    local_element(dst, i) = value;
  }
}

}  // namespace Impl

template <class TeamType, class DT, class... DP, class ST, class... SP>
KOKKOS_INLINE_FUNCTION void local_deep_copy(const TeamType& team, const View<DT, DP...>& dst,
                                            const View<ST, SP...>& src) {
  if (Impl::local_copy_checked(dst, src)) {
    const bool linear = Impl::local_copy_is_linear(dst, src);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, dst.size()),
                         [&](std::size_t i) { Impl::local_copy_element(dst, src, linear, i); });
  }
  team.team_barrier();
}

template <class TeamType, class DT, class... DP>
KOKKOS_INLINE_FUNCTION void local_deep_copy(const TeamType& team, const View<DT, DP...>& dst,
                                            typename View<DT, DP...>::const_value_type& value) {
  if (dst.data() != nullptr) {
    const bool linear = dst.span_is_contiguous();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, dst.size()),
                         [&](std::size_t i) { Impl::local_fill_element(dst, value, linear, i); });
  }
  team.team_barrier();
}

template <class DT, class... DP, class ST, class... SP>
KOKKOS_INLINE_FUNCTION void local_deep_copy(const View<DT, DP...>& dst, const View<ST, SP...>& src) {
  if (!Impl::local_copy_checked(dst, src)) return;
  const bool linear = Impl::local_copy_is_linear(dst, src);
  for (std::size_t i = 0; i < dst.size(); ++i) Impl::local_copy_element(dst, src, linear, i);
}

template <class DT, class... DP>
KOKKOS_INLINE_FUNCTION void local_deep_copy(const View<DT, DP...>& dst,
                                            typename View<DT, DP...>::const_value_type& value) {
  if (dst.data() == nullptr) return;
  const bool linear = dst.span_is_contiguous();
  for (std::size_t i = 0; i < dst.size(); ++i) Impl::local_fill_element(dst, value, linear, i);
}

}  // namespace Kokkos::Experimental

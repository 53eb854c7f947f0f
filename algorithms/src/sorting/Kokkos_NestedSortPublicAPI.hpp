#pragma once
// Sorts callable inside a kernel, as in Kokkos 4.6 (Kokkos::Experimental): sort_team and
// sort_by_key_team sort one View with the whole team; sort_thread and sort_by_key_thread with
// the calling thread's vector lanes.  In place, O(n log^2 n) comparisons, not stable.
//
//   parallel_for(TeamPolicy<>(rows, AUTO), KOKKOS_LAMBDA(const member_type& t) {
//     auto row = subview(A, t.league_rank(), ALL);
//     Kokkos::Experimental::sort_team(t, row);
//   });
#include <sorting/impl/Kokkos_NestedSortImpl.hpp>
#include <sorting/impl/Kokkos_SortImpl.hpp>
#include <cstddef>

namespace Kokkos::Experimental {

template <class TeamMember, class ViewType>
KOKKOS_INLINE_FUNCTION void sort_team(const TeamMember& t, const ViewType& view) {
  Impl::sort_nested_impl(t, view, nullptr, ::Kokkos::Impl::SortLess(), Impl::NestedRange<true>());
}

template <class TeamMember, class ViewType, class Comparator>
KOKKOS_INLINE_FUNCTION void sort_team(const TeamMember& t, const ViewType& view, const Comparator& comp) {
  Impl::sort_nested_impl(t, view, nullptr, comp, Impl::NestedRange<true>());
}

template <class TeamMember, class KeyViewType, class ValueViewType>
KOKKOS_INLINE_FUNCTION void sort_by_key_team(const TeamMember& t, const KeyViewType& keyView,
                                             const ValueViewType& valueView) {
  Impl::sort_nested_impl(t, keyView, valueView, ::Kokkos::Impl::SortLess(), Impl::NestedRange<true>());
}

template <class TeamMember, class KeyViewType, class ValueViewType, class Comparator>
KOKKOS_INLINE_FUNCTION void sort_by_key_team(const TeamMember& t, const KeyViewType& keyView,
                                             const ValueViewType& valueView, const Comparator& comp) {
  Impl::sort_nested_impl(t, keyView, valueView, comp, Impl::NestedRange<true>());
}

template <class TeamMember, class ViewType>
KOKKOS_INLINE_FUNCTION void sort_thread(const TeamMember& t, const ViewType& view) {
  Impl::sort_nested_impl(t, view, nullptr, ::Kokkos::Impl::SortLess(), Impl::NestedRange<false>());
}

template <class TeamMember, class ViewType, class Comparator>
KOKKOS_INLINE_FUNCTION void sort_thread(const TeamMember& t, const ViewType& view, const Comparator& comp) {
  Impl::sort_nested_impl(t, view, nullptr, comp, Impl::NestedRange<false>());
}

template <class TeamMember, class KeyViewType, class ValueViewType>
KOKKOS_INLINE_FUNCTION void sort_by_key_thread(const TeamMember& t, const KeyViewType& keyView,
                                               const ValueViewType& valueView) {
  Impl::sort_nested_impl(t, keyView, valueView, ::Kokkos::Impl::SortLess(), Impl::NestedRange<false>());
}

template <class TeamMember, class KeyViewType, class ValueViewType, class Comparator>
KOKKOS_INLINE_FUNCTION void sort_by_key_thread(const TeamMember& t, const KeyViewType& keyView,
                                               const ValueViewType& valueView, const Comparator& comp) {
  Impl::sort_nested_impl(t, keyView, valueView, comp, Impl::NestedRange<false>());
}

}  // namespace Kokkos::Experimental

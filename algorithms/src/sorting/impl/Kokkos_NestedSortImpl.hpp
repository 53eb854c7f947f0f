#pragma once
// The team and thread sorts: a bitonic sorting network, in place, whose compare-exchanges at
// each step are independent and so are spread over the team's threads and lanes
// (TeamVectorRange, a team barrier between steps) or the thread's vector lanes
// (ThreadVectorRange).  A length that
// is not a power of two is padded with virtual elements greater than every key: every network
// comparator is ascending, so a comparison that touches a virtual element never moves anything
// and is skipped.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <type_traits>

namespace Kokkos::Experimental::Impl {

template <bool InTeam>
struct NestedRange {
  template <class TeamMember, class Size>
  KOKKOS_INLINE_FUNCTION static auto range(const TeamMember& t, Size n) {
    if constexpr (InTeam) {
      return TeamVectorRange(t, n);
    } else {
      return ThreadVectorRange(t, n);
    }
  }
  template <class TeamMember>
  KOKKOS_INLINE_FUNCTION static void barrier(const TeamMember& t) {
    if constexpr (InTeam) t.team_barrier();
  }
};

// Sorts keys (and applies the same exchanges to values, unless values is nullptr).
template <class TeamMember, class KeyView, class ValueView, class Comparator, bool InTeam>
KOKKOS_INLINE_FUNCTION void sort_nested_impl(const TeamMember& t, const KeyView& keys, const ValueView& values,
                                             const Comparator& comp, NestedRange<InTeam>) {
  using Range = NestedRange<InTeam>;
  constexpr bool has_values = !std::is_same_v<ValueView, std::nullptr_t>;
  const std::size_t n = keys.extent(0);
  std::size_t padded = 1;
  while (padded < n) padded *= 2;
  auto compare_exchange = [&](std::size_t a, std::size_t b) {
    if (b >= n || !comp(keys(b), keys(a))) return;
    const auto key = keys(a);
    keys(a) = keys(b);
    keys(b) = key;
    if constexpr (has_values) {
      const auto value = values(a);
      values(a) = values(b);
      values(b) = value;
    }
  };
  Range::barrier(t);  // the keys may have been written by other threads just before
  for (std::size_t block = 2; block <= padded; block *= 2) {
    // Merge sorted halves of each block: first compare each element with its mirror image...
    const std::size_t half = block / 2;
    parallel_for(Range::range(t, padded / 2), [&](std::size_t i) {
      const std::size_t first = (i / half) * block, offset = i % half;
      compare_exchange(first + offset, first + block - 1 - offset);
    });
    Range::barrier(t);
    // ...then half-cleaners of shrinking distance.
    for (std::size_t distance = half / 2; distance > 0; distance /= 2) {
      parallel_for(Range::range(t, padded / 2), [&](std::size_t i) {
        const std::size_t a = (i / distance) * 2 * distance + i % distance;
        compare_exchange(a, a + distance);
      });
      Range::barrier(t);
    }
  }
}

}  // namespace Kokkos::Experimental::Impl

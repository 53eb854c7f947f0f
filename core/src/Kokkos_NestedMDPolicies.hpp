#pragma once
// Multi-dimensional nested ranges inside a team functor (Kokkos 4 API):
//
//   parallel_for(TeamThreadMDRange(team, n0, n1), [&](int i, int j) { ... });
//   parallel_reduce(ThreadVectorMDRange<Rank<3>, Member>(team, a, b, c),
//                   [&](int i, int j, int k, double& s) { ... }, sum);
//   parallel_for(TeamVectorMDRange<Rank<2, Iterate::Left>, Member>(team, n0, n1), ...);
//
// Each splits the product of its extents as TeamThreadRange, ThreadVectorRange and
// TeamVectorRange split a count, so every back end's nested ranges serve it; an index is taken
// apart with the outer direction of its Rank (Iterate::Default: the execution space's, as for
// MDRangePolicy; only the outer direction matters).  The deduction guides give Rank<N> with the
// default direction for N extents.  Extents are ints, as in Kokkos; a zero or negative extent
// makes an empty range.
#include <Kokkos_MDRangePolicy.hpp>
#include <Kokkos_Macros.hpp>
#include <Kokkos_Reducers.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace Kokkos {

namespace Impl {

// The extents and the direction shared by the three MD ranges.
template <class RankType, class TeamHandle>
struct TeamMDRangeExtents;

template <unsigned N, Iterate OuterDir, Iterate InnerDir, class TeamHandle>
struct TeamMDRangeExtents<Rank<N, OuterDir, InnerDir>, TeamHandle> {
  using TeamHandleType = TeamHandle;
  using ExecutionSpace = typename TeamHandle::execution_space;
  static constexpr int total_nest_level = int(N);
  static constexpr Iterate direction =
      OuterDir != Iterate::Default ? OuterDir : default_outer_direction<ExecutionSpace>::value;

  template <class... Args>
  KOKKOS_INLINE_FUNCTION TeamMDRangeExtents(const TeamHandle& team_, Args... extents)
      : team(team_), boundaries{static_cast<int>(extents)...} {
    static_assert(sizeof...(Args) == N, "Kokkos::*MDRange: give one extent per dimension of the Rank");
    static_assert((std::is_integral_v<Args> && ...), "Kokkos::*MDRange: extents are integers");
  }

  // The number of index tuples: 0 when an extent is not positive.
  KOKKOS_INLINE_FUNCTION int count() const {
    int total = 1;
    for (int d = 0; d < total_nest_level; ++d) total = boundaries[d] > 0 ? total * boundaries[d] : 0;
    return total;
  }

  // The index tuple of the flat position `flat` (direction Right: the last index varies fastest).
  KOKKOS_INLINE_FUNCTION void unflatten(int flat, int (&index)[N]) const {
    if constexpr (direction == Iterate::Left) {
      for (int d = 0; d < total_nest_level; ++d) {
        index[d] = flat % boundaries[d];
        flat /= boundaries[d];
      }
    } else {
      for (int d = total_nest_level - 1; d >= 0; --d) {
        index[d] = flat % boundaries[d];
        flat /= boundaries[d];
      }
    }
  }

  const TeamHandle& team;
  int boundaries[N];
};

// closure(i0, ..., iN-1) or closure(i0, ..., iN-1, value) for a flat position.
template <class Extents, class Closure>
struct TeamMDRangeFlatClosure {
  const Extents& extents;
  const Closure& closure;

  template <class... Value>
  KOKKOS_INLINE_FUNCTION void operator()(int flat, Value&... value) const {
    int index[Extents::total_nest_level];
    extents.unflatten(flat, index);
    call(index, std::make_index_sequence<std::size_t(Extents::total_nest_level)>(), value...);
  }

 private:
  template <std::size_t... D, class... Value>
  KOKKOS_INLINE_FUNCTION void call(const int (&index)[Extents::total_nest_level], std::index_sequence<D...>,
                                   Value&... value) const {
    closure(index[D]..., value...);
  }
};

}  // namespace Impl

// TeamThreadMDRange<Rank<N>, TeamHandle>(team, n0, ..., nN-1): the tuples split over the team's
// threads.  ThreadVectorMDRange: over the calling thread's vector lanes.  TeamVectorMDRange: both.
#define KOKKOS_IMPL_TEAM_MD_RANGE(NAME)                                                                \
  template <class RankType, class TeamHandle>                                                          \
  struct NAME : Impl::TeamMDRangeExtents<RankType, TeamHandle> {                                       \
    using Impl::TeamMDRangeExtents<RankType, TeamHandle>::TeamMDRangeExtents;                          \
  };                                                                                                   \
  template <class TeamHandle, class... Args>                                                           \
  NAME(const TeamHandle&, Args&&...)->NAME<Rank<sizeof...(Args), Iterate::Default>, TeamHandle>;
KOKKOS_IMPL_TEAM_MD_RANGE(TeamThreadMDRange)
KOKKOS_IMPL_TEAM_MD_RANGE(ThreadVectorMDRange)
KOKKOS_IMPL_TEAM_MD_RANGE(TeamVectorMDRange)
#undef KOKKOS_IMPL_TEAM_MD_RANGE

namespace Impl {
template <class RankType, class TeamHandle>
KOKKOS_INLINE_FUNCTION auto flat_range(const TeamThreadMDRange<RankType, TeamHandle>& policy) {
  return TeamThreadRange(policy.team, policy.count());
}
template <class RankType, class TeamHandle>
KOKKOS_INLINE_FUNCTION auto flat_range(const ThreadVectorMDRange<RankType, TeamHandle>& policy) {
  return ThreadVectorRange(policy.team, policy.count());
}
template <class RankType, class TeamHandle>
KOKKOS_INLINE_FUNCTION auto flat_range(const TeamVectorMDRange<RankType, TeamHandle>& policy) {
  return TeamVectorRange(policy.team, policy.count());
}
template <class Policy>
inline constexpr bool is_team_md_range_v = false;
template <class RankType, class TeamHandle>
inline constexpr bool is_team_md_range_v<TeamThreadMDRange<RankType, TeamHandle>> = true;
template <class RankType, class TeamHandle>
inline constexpr bool is_team_md_range_v<ThreadVectorMDRange<RankType, TeamHandle>> = true;
template <class RankType, class TeamHandle>
inline constexpr bool is_team_md_range_v<TeamVectorMDRange<RankType, TeamHandle>> = true;
}  // namespace Impl

template <class Policy, class Closure>
  requires Impl::is_team_md_range_v<Policy>
KOKKOS_INLINE_FUNCTION void parallel_for(const Policy& policy, const Closure& closure) {
  parallel_for(Impl::flat_range(policy), Impl::TeamMDRangeFlatClosure<Policy, Closure>{policy, closure});
}

// `result`: a reducer, or a value the tuples' contributions are summed into (the team-wide or,
// for ThreadVectorMDRange, the thread's result, as with the one-dimensional ranges).
template <class Policy, class Closure, class Result>
  requires Impl::is_team_md_range_v<Policy>
KOKKOS_INLINE_FUNCTION void parallel_reduce(const Policy& policy, const Closure& closure, Result&& result) {
  parallel_reduce(Impl::flat_range(policy), Impl::TeamMDRangeFlatClosure<Policy, Closure>{policy, closure},
                  static_cast<Result&&>(result));
}

}  // namespace Kokkos

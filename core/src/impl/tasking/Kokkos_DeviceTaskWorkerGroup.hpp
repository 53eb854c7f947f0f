#pragma once
// Workers that share fast memory (the warps of one GPU block) take turns looking for work: while
// one of them, the group's scout, polls the queue's rings and counters, the others wait on the
// group's words in that fast memory instead of polling global memory too.  So a block of many
// warps can fill an SM without its idle warps' polling slowing its busy warps' atomics, which is
// what keeps blocks of one warp to a few per SM.
//
// With the queue's idle workers (Kokkos_DeviceTaskIdleWorkers.hpp):
// - a worker whose claim over every ring found nothing becomes the scout if the group has none
//   (look_myself); the scout goes on as a lone worker does: it pauses, counts itself idle after a
//   while, watches for the end and for cycles;
// - a worker that finds a scout there counts itself idle (DeviceTaskIdleWorkers::enter) at once and
//   waits until the news changes, the group has no scout, or the group is over (should_look); it
//   leaves the count (leave) before it claims again;
// - the scout gives the role up when a claim of its own succeeds, and the news changes, so that
//   the waiting workers look again (found_work);
// - a worker that stops (every task completed, or the queue stopped) ends the group (end): every
//   waiting worker stops too.
// A waiting worker looked at every ring before it counted itself idle, as a lone worker does
// before it counts itself, so the queue's argument that every worker counted idle means a cycle
// holds with groups too.  Waiting workers count as idle for DeviceTaskIdleWorkers::any_counted,
// so a claim's extra TaskTeam tasks go back to the rings for them.
//
// A group's members are numbered from 0; a group of one member never waits (it is always the
// scout).  The words are read and written with relaxed atomics: they only say when to look, and
// what a worker then claims goes through the rings' own ordering.
#include <Kokkos_Atomic.hpp>
#include <Kokkos_Macros.hpp>

#include <cstdint>

namespace Kokkos::Impl {

struct DeviceTaskWorkerGroup {
  static constexpr std::int32_t no_scout = -1;
  std::int32_t scout;  // the member polling the queue for the group, or no_scout
  std::uint32_t news;  // changes when the scout gives up its role and when the group ends
  std::int32_t over;   // nonzero once a member stopped: the run is over for all of them

  // No initialisers: a GPU keeps the group in shared memory, and one member resets it before any
  // member uses it.
  KOKKOS_INLINE_FUNCTION void reset() {
    scout = no_scout;
    news = 0;
    over = 0;
  }

  // After a claim over every ring found nothing: true when `member` is to go on looking itself
  // (it is the scout, or has just become it); false when another member is the scout, and
  // `seen` is then the news to wait past (should_look).
  KOKKOS_INLINE_FUNCTION bool look_myself(std::int32_t member, std::uint32_t& seen) {
    seen = atomic_load_relaxed(&news);  // before the scout is read: a role given up after this changes it
    const std::int32_t current = atomic_load_relaxed(&scout);
    if (current == member) return true;
    return current == no_scout && atomic_compare_exchange(&scout, no_scout, member) == no_scout;
  }
  // Whether a member waiting since `seen` should look again (and, if is_over(), stop).
  KOKKOS_INLINE_FUNCTION bool should_look(std::uint32_t seen) const {
    return is_over() || atomic_load_relaxed(const_cast<std::uint32_t*>(&news)) != seen ||
           atomic_load_relaxed(const_cast<std::int32_t*>(&scout)) == no_scout;
  }
  KOKKOS_INLINE_FUNCTION bool is_over() const { return atomic_load_relaxed(const_cast<std::int32_t*>(&over)) != 0; }
  KOKKOS_INLINE_FUNCTION bool is_scout(std::int32_t member) const {
    return atomic_load_relaxed(const_cast<std::int32_t*>(&scout)) == member;
  }

  // A claim of `member` succeeded: if it was the scout, it is no longer, and the others look again.
  KOKKOS_INLINE_FUNCTION void found_work(std::int32_t member) {
    if (!is_scout(member)) return;
    atomic_store_relaxed(&scout, no_scout);
    atomic_fetch_add_relaxed(&news, 1u);
  }
  // A member stops: so do the others.
  KOKKOS_INLINE_FUNCTION void end() {
    atomic_store_relaxed(&over, 1);
    atomic_fetch_add_relaxed(&news, 1u);
  }
};

}  // namespace Kokkos::Impl

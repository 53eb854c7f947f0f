#pragma once
// A device's second way to run a work graph: one kernel per level, each over that level's items
// (a level-synchronous run, a valid topological order: every edge goes from a lower level to a
// higher one).  The persistent queue kernel (Cuda/Kokkos_Cuda_WorkGraph.hpp) pays, per unit, a
// pop, a fence and the successors' atomic decrements; a wide, shallow graph (a 2^20-item tree
// of 20 levels) runs two orders of magnitude faster as a loop of kernels, while a deep, narrow
// one (a chain) runs one kernel per item.  Which is faster depends on the functor too, so a
// launch chooses by timing both, as the plan's choice between schedules does, where a rule says
// the per-level way can win at all.
//
// Here: the items grouped by level (WorkGraphLevelSets), that rule, and the choice
// (WorkGraphDeviceWays).  Portable: the plan keeps them for device memory spaces only.
#include <impl/Kokkos_MeasuredChoice.hpp>
#include <impl/workgraph/Kokkos_WorkGraphAnalysis.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace Kokkos::Impl {

// The items grouped by level.  Level l is items[offsets[l] .. offsets[l+1]) (each level's items
// ascending) or, with `ranges`, an index range of the numbering: [offsets[l], offsets[l+1])
// ascending, or, `descending`, the indices n - offsets[l] - 1 down to n - offsets[l+1].
struct WorkGraphLevelSets {
  std::int32_t num_items = 0;
  std::vector<std::int32_t> offsets;  // num_levels() + 1 entries (none: no levels known)
  std::vector<std::int32_t> items;    // empty with `ranges`
  bool ranges = false;
  bool descending = false;

  std::int32_t num_levels() const { return offsets.empty() ? 0 : static_cast<std::int32_t>(offsets.size()) - 1; }
  std::int32_t width(std::int32_t l) const {
    return offsets[static_cast<std::size_t>(l) + 1] - offsets[static_cast<std::size_t>(l)];
  }

  // Level l as the device kernels take a unit (cuda_work_graph_lane_items): items[b .. e) with
  // an item array, else the indices b .. e-1, or b-1 down to e where b > e.
  struct Span {
    std::int32_t b = 0, e = 0;
  };
  Span span(std::int32_t l) const {
    const std::int32_t lo = offsets[static_cast<std::size_t>(l)], hi = offsets[static_cast<std::size_t>(l) + 1];
    if (ranges && descending) return {num_items - lo, num_items - hi};
    return {lo, hi};
  }
};

// The level sets of the n items whose levels `order` holds (its level_start, where set, makes
// them ranges with no item array).  A counting sort: O(n + levels).  Without levels for n > 0
// (one worker's plan made none), no offsets: no level sets.
inline WorkGraphLevelSets work_graph_level_sets(const WorkGraphOrder& order, std::int32_t n) {
  WorkGraphLevelSets s;
  s.num_items = n;
  if (n == 0) {
    s.offsets.assign(1, 0);
    return s;
  }
  if (order.level.size() != static_cast<std::size_t>(n)) return s;
  if (!order.level_start.empty()) {
    s.offsets = order.level_start;
    s.ranges = true;
    s.descending = order.backward;
    return s;
  }
  std::int32_t levels = order.num_levels;
  for (const std::int32_t l : order.level) levels = std::max(levels, l + 1);
  s.offsets.assign(static_cast<std::size_t>(levels) + 1, 0);
  for (const std::int32_t l : order.level) ++s.offsets[static_cast<std::size_t>(l) + 1];
  for (std::size_t l = 1; l < s.offsets.size(); ++l) s.offsets[l] += s.offsets[l - 1];
  s.items.resize(static_cast<std::size_t>(n));
  std::vector<std::int32_t> fill(s.offsets.begin(), s.offsets.end() - 1);
  for (std::int32_t i = 0; i < n; ++i) {
    s.items[static_cast<std::size_t>(fill[static_cast<std::size_t>(order.level[static_cast<std::size_t>(i)])]++)] = i;
  }
  return s;
}

// Whether the per-level way is worth timing for a graph of n items in `levels` levels.
//   - work_graph_levels_min_width: the average level holds at least a warp's worth of items.
//     Each level costs a kernel node's launch and the drain before the next (a few microseconds
//     on a GPU, however few its items), which the persistent kernel overlaps across levels;
//     below a warp per level most lanes of the one wave idle anyway, so the queue cannot lose by
//     much and timing the other way would cost a slow launch per sample (a chain of 10^5 items
//     is 10^5 kernels).
//   - work_graph_levels_max_levels: every level is one node of the recorded CUDA graph, whose
//     capture and instantiation cost microseconds and driver memory per node: past 65536 nodes
//     the recording alone costs about as much as many launches of the persistent kernel.
inline constexpr std::int64_t work_graph_levels_min_width = 32;
inline constexpr std::int32_t work_graph_levels_max_levels = 65536;

inline bool work_graph_levels_worth_timing(std::int64_t n, std::int32_t levels) {
  return levels > 0 && levels <= work_graph_levels_max_levels && n >= work_graph_levels_min_width * levels;
}

// How the launches of a device back end ran, for tests and benchmarks (relaxed counters: they
// only ever grow).
struct WorkGraphDeviceCounters {
  std::atomic<std::uint64_t> level_launches{0};  // launches that ran the per-level way
  std::atomic<std::uint64_t> graph_replays{0};   // of those, launches of a recorded CUDA graph
  std::atomic<std::uint64_t> recordings{0};      // captures (first ones and re-captures)
};
inline WorkGraphDeviceCounters work_graph_device_counters;

// The choice between the persistent queue and one kernel per level, for one functor type over
// one plan: a MeasuredChoice with the plan's options, timing each way's launches from the plan's
// second launch (which plans the levels) on.  A way the caller says is not eligible for a launch is
// neither timed nor chosen for it.  `recording` is the back end's per-(plan, functor type)
// state of the per-level way (the Cuda back end keeps its recorded graph there).
class WorkGraphDeviceWays {
 public:
  enum Way : int { persistent = 0, levels = 1, num_ways = 2 };

  explicit WorkGraphDeviceWays(const MeasuredChoiceOptions& options) : m_choice(num_ways, options) {}

  MeasuredChoice::Decision next(bool levels_eligible) {
    MeasuredChoice::Decision d = m_choice.next([&](int way) { return way == persistent || levels_eligible; });
    if (d.way == levels && !levels_eligible) d = {persistent, false};
    m_last = d.way;
    return d;
  }
  void record(int way, double ns) { m_choice.record(way, ns); }
  int last() const { return m_last; }
  const MeasuredChoice& choice() const { return m_choice; }

  std::shared_ptr<void> recording;

 private:
  MeasuredChoice m_choice;
  int m_last = persistent;
};

}  // namespace Kokkos::Impl

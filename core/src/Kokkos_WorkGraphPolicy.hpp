#pragma once
// WorkGraphPolicy: a static, homogeneous work DAG (seed 001 §2.4, §3.3; Kokkos 4 API).
//
//   using Policy = Kokkos::WorkGraphPolicy<std::int32_t, ExecSpace>;   // or IndexType<>, a work tag
//   Policy::graph_type graph = ...;                                    // a Kokkos::Crs
//   Kokkos::parallel_for("label", Policy(graph), functor);             // functor(i) or functor(Tag{}, i)
//   Kokkos::parallel_reduce(Policy(graph), functor, result);           // functor(i, value&)
//
// THE DIRECTION OF AN EDGE: entry j in row i of the graph means "j executes after i".  Row i
// lists the items that wait for i (its successors), not the items i waits for.  A list of
// predecessors per item is the transpose of this graph: pass it through transpose_crs (or build
// the graph with Kokkos::Experimental::DagBuilder).
//
// functor(i) is called exactly once for every i in [0, graph.numRows()), and only after
// functor(j) has returned for every j that i executes after.
//
// Beyond Kokkos (in Kokkos::Experimental):
//   - priorities: a View of one small integer per item (WorkGraphPriority::High = 0, Regular = 1,
//     Low = 2, or any value below 16; smaller runs first), one FIFO range per priority in the
//     ready array (seed §2.4.2).  On one worker the order is exact and deterministic: the
//     successor that the item just run made ready runs next unless an item of higher priority
//     is waiting; otherwise ready items run by priority, first in first out, the initial ones
//     in index order.  Several workers honour priority per scheduling unit (below).
//   - checks: the constructor throws std::runtime_error naming the problem when the CRS is
//     malformed or the graph has a cycle (naming the cycle and the items left).
//     WorkGraphOptions{.check_graph = false} skips the O(N + E) cycle check and the planning
//     below; workers then schedule every item on its own, as the seed does, and a launch over
//     a cyclic graph aborts with a message naming the cycle instead of spinning forever.
//   - scheduling units: with the check on, the policy plans for the execution space's
//     concurrency: the constructor makes what a first launch runs (one worker: the numbering
//     or Kahn's order; several: the level-synchronous plan, from the levels), the plan's second
//     launch the planner's (Impl::WorkGraphPlan), and a policy rebuilt from an unchanged graph
//     reuses the plan after one pass that fingerprints the graph (Impl::WorkGraphPlanCache).
//     Several workers schedule *units* of consecutive items of a topological
//     order (one ready-queue operation and one waiting-count update per unit, not per item),
//     cut so that the units' DAG keeps its parallelism; one worker runs a topological order
//     with no synchronisation at all.  WorkGraphOptions::unit_size forces the unit size (1:
//     every item its own unit).  The plan may keep contenders its cost model cannot rank
//     without the functor; launches then choose between them by timing (Impl::WorkGraphPlan).
//     See impl/workgraph/Kokkos_WorkGraphAnalysis.hpp and impl/workgraph/Kokkos_WorkGraphQueue.hpp.
//   - execution spaces: the host back ends, and Kokkos::Cuda (Cuda/Kokkos_Cuda_WorkGraph.hpp:
//     one persistent kernel whose workers are warps, the same queue in device memory; the
//     checks and the planning run on the host at construction, before any kernel; a warp runs
//     a unit's items at once, so its units hold independent items).
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_Crs.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_View.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <impl/Kokkos_MeasuredChoice.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>
#include <impl/workgraph/Kokkos_WorkGraphAnalysis.hpp>
#include <impl/workgraph/Kokkos_WorkGraphQueue.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace Kokkos {

// Declared in Kokkos_Core.hpp, which includes this header.
void push_finalize_hook(std::function<void()> hook);

namespace Experimental {

enum class WorkGraphPriority : std::uint8_t { High = 0, Regular = 1, Low = 2 };

struct WorkGraphOptions {
  // Reject a cyclic graph at construction (O(N + E)), and plan scheduling units.
  bool check_graph = true;
  // Items per scheduling unit (at most: on Kokkos::Cuda, whose warps run a unit's items at
  // once, a unit also ends where a level of the graph starts); 0 lets the graph's shape decide.
  // Ignored without the check.
  int unit_size = 0;
};

}  // namespace Experimental

namespace Impl {

// One way to schedule a graph's items on several workers: the units, their DAG and the ready
// array at the start of a launch.
template <class MemorySpace>
struct WorkGraphSchedule {
  using ints = View<std::int32_t*, MemorySpace>;
  using bytes = View<std::uint8_t*, MemorySpace>;

  // The scheduling units: ranges of unit_items (index ranges from unit_first where that is
  // all there is), or the items themselves when unit_begin is empty.
  std::int32_t num_units = 0;
  ints unit_items, unit_begin, unit_first, unit_row_map, unit_succ, unit_indegree;
  bytes unit_priority;
  ints ready_initial;  // the ready array at the start of a launch
  std::vector<std::int32_t> range_begin, tail_initial;
  // With one priority, the items of the units ready at launch, summed in ready order (the
  // homes' balance); empty otherwise.
  std::vector<std::int64_t> initial_items_prefix;

  WorkGraphSchedule() = default;
  // Copies the units' host arrays to the memory space (dropping their priorities when there
  // is a single one).
  WorkGraphSchedule(WorkGraphUnits& units, int num_priorities);

  template <class T>
  static View<T*, MemorySpace> to_space(const std::string& label, const std::vector<T>& v) {
    View<T*, MemorySpace> out(view_alloc(label, WithoutInitializing), v.size());
    if (!v.empty()) deep_copy(out, View<const T*, HostSpace, MemoryUnmanaged>(v.data(), v.size()));
    return out;
  }
};

template <class MemorySpace>
WorkGraphSchedule<MemorySpace>::WorkGraphSchedule(WorkGraphUnits& units, int num_priorities) {
  if (!units.items.empty()) unit_items = to_space("Kokkos::WorkGraphPolicy::unit_items", units.items);
  if (!units.begin.empty()) {
    unit_begin = to_space("Kokkos::WorkGraphPolicy::unit_begin", units.begin);
    unit_first = to_space("Kokkos::WorkGraphPolicy::unit_first", work_graph_unit_first(units));
  }
  if (num_priorities == 1) units.priority.clear();
  num_units = static_cast<std::int32_t>(units.indegree.size());
  unit_row_map = to_space("Kokkos::WorkGraphPolicy::unit_row_map", units.row_map);
  unit_succ = to_space("Kokkos::WorkGraphPolicy::unit_successors", units.succ);
  unit_indegree = to_space("Kokkos::WorkGraphPolicy::unit_indegree", units.indegree);
  unit_priority = to_space("Kokkos::WorkGraphPolicy::unit_priority", units.priority);

  // The ready array at launch: one range per priority, the units with nothing to wait for at
  // the front of their range in unit order.
  WorkGraphReadyRanges ranges(units.priority.empty() ? nullptr : units.priority.data(), num_units, num_priorities);
  for (std::int32_t u = 0; u < num_units; ++u) {
    if (units.indegree[static_cast<std::size_t>(u)] == 0) ranges.push(u);
  }
  std::vector<std::int32_t> ready(static_cast<std::size_t>(num_units), WorkGraphQueue::empty);
  for (int p = 0; p < num_priorities; ++p) {
    for (std::int32_t s = ranges.range_begin()[static_cast<std::size_t>(p)]; s < ranges.tails()[static_cast<std::size_t>(p)]; ++s) {
      ready[static_cast<std::size_t>(s)] = ranges.slots()[static_cast<std::size_t>(s)];
    }
  }
  ready_initial = to_space("Kokkos::WorkGraphPolicy::ready_initial", ready);
  range_begin = ranges.range_begin();
  tail_initial = ranges.tails();
  if (num_priorities == 1 && num_units > 0) {
    initial_items_prefix.assign(1, 0);
    for (std::int32_t k = 0; k < tail_initial[0]; ++k) {
      const auto u = static_cast<std::size_t>(ready[static_cast<std::size_t>(k)]);
      const std::int64_t items = units.begin.empty() ? 1 : units.begin[u + 1] - units.begin[u];
      initial_items_prefix.push_back(initial_items_prefix.back() + items);
    }
  }
}

// The first pass of a construction over the graph's host arrays: the fingerprint (where a plan
// may be reused or deferred) and the check of the rows, each on request, and with entry_rows
// (num_entries of them) the row of each entry for the levels.  All of it splits into ranges,
// so a large graph's pass runs on the workers of `space`.
struct WorkGraphFirstPass {
  WorkGraphRowCheck check;
  WorkGraphFingerprint fingerprint;
};

template <class ExecSpace, class SizeT, class IndexT>
WorkGraphFirstPass work_graph_first_pass(const ExecSpace& space, std::size_t row_map_extent, const SizeT* row_map,
                                         std::size_t num_entries, const IndexT* entries, bool fingerprint, bool check,
                                         std::int32_t* entry_rows = nullptr) {
  // Below this many items and entries, waking the workers costs more than the pass.
  constexpr std::size_t parallel_from = std::size_t(1) << 15;
  const std::int64_t n = row_map_extent > 0 ? static_cast<std::int64_t>(row_map_extent) - 1 : 0;
  const std::size_t row_bytes = row_map_extent * sizeof(SizeT), entry_bytes = num_entries * sizeof(IndexT);
  const std::size_t row_words = work_graph_fingerprint_word_count(row_bytes);
  const std::size_t entry_words = work_graph_fingerprint_word_count(entry_bytes);
  struct alignas(KOKKOS_IMPL_CACHE_LINE) Part {
    WorkGraphRowCheck check;
    std::uint64_t rows = 0, entries = 0;
  };
  auto run = [&](Part& part, int rank, int size) {
    if (check) {
      const auto b = static_block<std::int64_t>(0, n, rank, size);
      part.check = work_graph_check_rows(row_map, entries, num_entries, n, b.begin, b.end, entry_rows);
    }
    if (fingerprint) {
      const auto r = static_block<std::size_t>(0, row_words, rank, size);
      const auto e = static_block<std::size_t>(0, entry_words, rank, size);
      part.rows = work_graph_fingerprint_words(row_map, row_bytes, r.begin, r.end);
      part.entries = work_graph_fingerprint_words(entries, entry_bytes, e.begin, e.end);
    }
  };
  const int workers = space.impl_thread_pool_size();
  std::vector<Part> parts(static_cast<std::size_t>(std::max(workers, 1)));
  const bool parallel = workers > 1 && static_cast<std::size_t>(n) + num_entries >= parallel_from;
  if (parallel && check && entry_rows != nullptr) {
    // Workers store the rows of their rows' entries: those are disjoint only if row_map never
    // decreases, which must hold everywhere before anyone stores (a malformed graph throws
    // afterwards, but its workers must not race meanwhile).
    std::vector<std::uint8_t> ordered(parts.size(), 1);
    space.impl_run_on_workers([&](int rank, int size) {
      const auto b = static_block<std::int64_t>(0, n, rank, size);
      bool fine = true;
      for (std::int64_t i = b.begin; i < b.end; ++i) fine &= row_map[i] <= row_map[i + 1];
      ordered[static_cast<std::size_t>(rank)] = fine && row_map[b.end] <= static_cast<SizeT>(num_entries);
    });
    if (std::find(ordered.begin(), ordered.end(), 0) != ordered.end() || row_map[0] < 0) entry_rows = nullptr;
  }
  if (parallel) {
    // Nested in another launch, the space may run fewer workers than its pool has: the
    // parts they leave untouched are neutral.
    space.impl_run_on_workers([&](int rank, int size) { run(parts[static_cast<std::size_t>(rank)], rank, size); });
  } else {
    run(parts[0], 0, 1);
  }
  WorkGraphFirstPass pass;
  std::uint64_t row_sum = 0, entry_sum = 0;
  for (const Part& part : parts) {
    pass.check.join(part.check);
    row_sum += part.rows;
    entry_sum += part.entries;
  }
  if (fingerprint) {
    pass.fingerprint = {work_graph_fingerprint_finish(row_sum, row_bytes), work_graph_fingerprint_finish(entry_sum, entry_bytes)};
  }
  return pass;
}

// Which execution spaces run work graphs: the host back ends, and Kokkos::Cuda
// (Cuda/Kokkos_Cuda_WorkGraph.hpp).
template <class ExecSpace>
inline constexpr bool work_graph_space_v =
#if defined(KOKKOS_ENABLE_CUDA)
    std::is_same_v<ExecSpace, Kokkos::Cuda> ||
#endif
    is_host_backend<ExecSpace>::value;

// The host threads that make a policy's passes over its graph at construction: the space's
// own for a host back end, the default host space's for a device.
template <class ExecSpace>
auto work_graph_host_space(const ExecSpace& space) {
  if constexpr (is_host_backend<ExecSpace>::value) {
    return space;
  } else {
    return DefaultHostExecutionSpace();
  }
}

// The workers a policy plans for: a host back end's threads; on a GPU a worker is a warp
// (32 threads) and the space's concurrency counts resident threads.
inline constexpr int work_graph_device_worker_threads = 32;
template <class ExecSpace>
int work_graph_planned_workers(const ExecSpace& space) {
  const int threads = static_cast<int>(space.concurrency());
  if constexpr (is_host_backend<ExecSpace>::value) {
    return std::max(1, threads);
  } else {
    return std::max(1, threads / work_graph_device_worker_threads);
  }
}

// Whether ExecSpace's workers run a unit's items at once (a GPU's warp strides its 32 lanes over
// them), so that the plan must cut units whose items are independent of each other; a host
// back end's worker runs them one after the other, in the order's sequence.
template <class ExecSpace>
inline constexpr bool work_graph_independent_unit_items_v = !is_host_backend<ExecSpace>::value;

// How a launch on ExecSpace counts completions (WorkGraphQueue::completion_slots): per worker
// on a host back end's threads; a GPU's thousands of warps share this many counters, enough
// that the warps of one multiprocessor rarely share one, few enough that an idle warp's poll
// stays short.
inline constexpr int work_graph_device_completion_slots = 32;
template <class ExecSpace>
inline constexpr int work_graph_completion_slots_v =
    is_host_backend<ExecSpace>::value ? 0 : work_graph_device_completion_slots;

// The address of one byte per functor type: what the measured choice is keyed by.
template <class Functor>
inline constexpr char work_graph_functor_key = 0;

// What a policy computes at construction, shared by its copies, and the run-time state its
// launches reuse.
//
// Construction costs one pass over the graph's arrays, on the space's workers for a large
// graph (work_graph_first_pass: the fingerprint and the check of the rows, which also tells
// whether every edge goes one way in the numbering), then only what the first launch needs:
//   - a numbered graph (every edge forward, or every edge backward) has no cycle and its
//     numbering is an order: one worker runs it as it is (ascending or descending, nothing
//     stored); several run the level-synchronous plan, which needs the levels (a pass over the
//     edges in the numbering's order) and, where each level is an index range (a tree or a
//     mesh numbered level by level), no item array at all;
//   - any other graph gets its in-degrees and Kahn's order with levels (which finds a cycle).
// The planner's comparison of candidate cuts (banded level orders, homes, contenders) costs
// several passes over the graph each, which only repeated launches amortise: the second launch
// of the plan makes it (plan_fully, making one worker's levels first), after checking that the
// graph still has the fingerprint it had at construction (otherwise the policy keeps the plan
// it was built with).
//
// A plan may hold several schedules (work_graph_plan_units: the planner's best estimate and
// contenders it cannot rank without the functor).  Launches then choose by timing them, one
// choice per functor type (functors of different cost over one graph may prefer different
// schedules): the first launches run each schedule three times in a row, schedule 0 first,
// timing the last two (the first after a switch pays for data the other schedule left in the
// other core's cache); later launches run the fastest, and re-time the others every epoch (64
// launches, doubling while the choice holds, up to 4096); a schedule 1.5 times slower than
// the fastest in two epochs in a row is not timed again.  Any schedule gives the functor the
// same guarantees, so only the time differs.
template <class MemorySpace>
struct WorkGraphPlan {
  using ints = View<std::int32_t*, MemorySpace>;
  using schedule_type = WorkGraphSchedule<MemorySpace>;
  static constexpr bool host_memory = SpaceAccessibility<HostSpace, MemorySpace>::accessible;
  static constexpr MeasuredChoice::Options choice_options{
      .samples_per_way = 2, .warmup_per_way = 1, .epoch = 64, .max_epoch = 4096, .prune_ratio = 1.5};

  // How one worker runs the items: `order`, or the numbering itself (ascending or descending;
  // `order` is then left empty).
  enum class OrderKind : std::uint8_t { stored, ascending, descending };

  std::int32_t num_items = 0;
  int num_priorities = 1;
  bool checked = false;     // one worker may run `order`
  OrderKind order_kind = OrderKind::stored;
  ints order;  // a topological order (one worker runs it)
  std::vector<schedule_type> schedules;  // at least one
  std::atomic<int> preferred{0};         // the schedule the last timed choice prefers

  // Run-time state, reused by launches that do not overlap.
  struct State {
    ints waiting, ready, control;
    View<std::int64_t*, MemorySpace> homes;
    // Per schedule, the homes' shares packed (empty without homes).
    std::vector<typename View<std::int64_t*, MemorySpace>::HostMirror> homes_initial;
    // Per schedule, `control` at the start of a launch, where the host cannot write `control`
    // itself: a launch's reset is then a copy on the device.
    std::vector<ints> controls_initial;
    int max_workers = 0;
    int completion_slots = 0;  // WorkGraphQueue::completion_slots
  };
  State state;
  // Held by the launch that owns `state`, the choices and the deferred planning; launches that
  // overlap it read the schedules under `mutex`, which plan_fully holds while it replaces them.
  std::atomic<bool> busy{false};
  std::mutex mutex;

  // What the planning deferred to the second launch needs (released by it).
  struct Deferred {
    bool pending = false;
    std::uint64_t launches = 0;
    WorkGraphOrder order;  // levels (for one worker, made here), and Kahn's order unless the numbering is one
    bool numbered_forward = false;       // with no levels yet: the direction of a numbered graph
    std::vector<std::uint8_t> priority;  // empty with one priority
    WorkGraphFingerprint fingerprint;
    int workers = 1;
    bool independent_items = false;  // work_graph_independent_unit_items_v
  };
  Deferred deferred;

  void set_schedules(std::vector<schedule_type> s) {
    schedules = std::move(s);
    choices.clear();
    preferred.store(0, std::memory_order_relaxed);
  }

  // The measured choice of the functor type `key` (the owner of `busy` only).
  MeasuredChoice& choice_for(const void* key) {
    for (auto& c : choices) {
      if (c.first == key) return c.second;
    }
    return choices.emplace_back(key, MeasuredChoice(static_cast<int>(schedules.size()), choice_options)).second;
  }
  const MeasuredChoice* choice_of(const void* key) const {
    for (const auto& c : choices) {
      if (c.first == key) return &c.second;
    }
    return nullptr;
  }

  // The planning deferred from construction (see above); by the owner of `busy`.
  template <class Graph>
  void plan_fully(const Graph& graph) {
    if (!deferred.pending) return;
    Deferred d = std::move(deferred);
    deferred = Deferred{};
    deferred.launches = d.launches;
    auto row_map = create_mirror_view_and_copy(HostSpace(), graph.row_map);
    auto entries = create_mirror_view_and_copy(HostSpace(), graph.entries);
    if (row_map.extent(0) != static_cast<std::size_t>(num_items) + 1 ||
        !(work_graph_fingerprint(row_map.extent(0), row_map.data(), entries.extent(0), entries.data()) == d.fingerprint)) {
      return;  // modified since construction: keep the plan the policy was built with
    }
    const WorkGraphHostCrs<typename Graph::size_type, typename Graph::data_type> g{num_items, row_map.data(),
                                                                                  entries.data()};
    if (d.order.level.empty()) work_graph_numbered_levels(g, d.numbered_forward, d.order);
    const std::uint8_t* item_priority = d.priority.empty() ? nullptr : d.priority.data();
    std::vector<WorkGraphUnits> planned;
    if (d.workers > 1) planned = work_graph_plan_units(g, d.order, item_priority, d.workers, 0, d.independent_items);
    std::vector<schedule_type> s;
    for (auto& units : planned) s.emplace_back(units, num_priorities);
    ints serial_order;
    if (planned.empty() && item_priority == nullptr) {
      serial_order = schedule_type::to_space("Kokkos::WorkGraphPolicy::order", work_graph_serial_order(g, d.order));
    }
    const std::lock_guard<std::mutex> lock(mutex);
    if (!s.empty()) {
      set_schedules(std::move(s));
      if (item_priority == nullptr) {
        order = schedules.front().unit_items;
        order_kind = OrderKind::stored;
      }
    } else if (serial_order.extent(0) > 0) {
      order = serial_order;
      order_kind = OrderKind::stored;
    }
    state = make_state(std::max(state.max_workers, 1), state.completion_slots);
  }

  // State for `workers` workers counting completions as WorkGraphQueue::completion_slots says.
  // The counting mode is for launches of thousands of workers: they get no homes either (a
  // worker whose home is empty would look through every other home, O(workers) per pop).
  State make_state(int workers, int completion_slots = 0) const {
    State s;
    s.max_workers = workers;
    s.completion_slots = completion_slots;
    std::int32_t units = 0;
    bool homes = false;
    for (const auto& schedule : schedules) {
      units = std::max(units, schedule.num_units);
      homes = homes || !schedule.initial_items_prefix.empty();
    }
    homes = homes && completion_slots == 0;
    s.waiting = ints(view_alloc("Kokkos::WorkGraphPolicy::waiting", WithoutInitializing), units);
    s.ready = ints(view_alloc("Kokkos::WorkGraphPolicy::ready", WithoutInitializing), units);
    s.control = ints("Kokkos::WorkGraphPolicy::control",
                     WorkGraphQueue::control_size(num_priorities, workers, completion_slots));
    if (homes) {
      s.homes = View<std::int64_t*, MemorySpace>("Kokkos::WorkGraphPolicy::homes",
                                                  static_cast<std::size_t>(workers) * WorkGraphQueue::home_stride);
    }
    if constexpr (!host_memory) {
      std::vector<std::int32_t> image(s.control.extent(0));
      for (const auto& schedule : schedules) {
        initial_control(image.data(), image.size(), schedule, s);
        s.controls_initial.push_back(schedule_type::to_space("Kokkos::WorkGraphPolicy::control_initial", image));
      }
    }
    for (const auto& schedule : schedules) {
      auto& packed = s.homes_initial.emplace_back();
      if (!homes || schedule.initial_items_prefix.empty()) continue;
      packed = create_mirror(s.homes);
      const auto bounds = work_graph_balanced_split(schedule.initial_items_prefix, workers);
      for (int w = 0; w < workers; ++w) {
        packed(static_cast<std::size_t>(w) * WorkGraphQueue::home_stride) =
            WorkGraphQueue::pack_home(bounds[static_cast<std::size_t>(w)], bounds[static_cast<std::size_t>(w) + 1]);
      }
    }
    return s;
  }

  // Resets `s` for a launch of schedule `which` on `space` (copies ordered on its stream where
  // the host cannot reach the memory) and returns the queue over it.
  template <class ExecSpace>
  WorkGraphQueue prepare(const State& s, int which, const ExecSpace& space) const {
    const schedule_type& schedule = schedules[static_cast<std::size_t>(which)];
    reset_prefix(space, s.waiting, schedule.unit_indegree);
    reset_prefix(space, s.ready, schedule.ready_initial);
    if constexpr (host_memory) {
      initial_control(s.control.data(), s.control.extent(0), schedule, s);
    } else {
      reset_prefix(space, s.control, s.controls_initial[static_cast<std::size_t>(which)]);
    }
    WorkGraphQueue q;
    q.num_units = schedule.num_units;
    q.num_priorities = num_priorities;
    q.max_workers = s.max_workers;
    q.completion_slots = s.completion_slots;
    if (has_homes(schedule, s)) {
      q.num_homes = s.max_workers;
      reset_prefix(space, s.homes, s.homes_initial[static_cast<std::size_t>(which)]);
      q.homes = s.homes.data();
    }
    q.items = schedule.unit_items.extent(0) > 0 ? schedule.unit_items.data() : nullptr;
    q.begin = schedule.unit_begin.data();
    q.first = schedule.unit_begin.extent(0) > 0 ? schedule.unit_first.data() : nullptr;
    q.row_map = schedule.unit_row_map.data();
    q.succ = schedule.unit_succ.data();
    q.indegree = schedule.unit_indegree.data();
    q.priority = schedule.unit_priority.extent(0) > 0 ? schedule.unit_priority.data() : nullptr;
    q.waiting = s.waiting.data();
    q.ready = s.ready.data();
    q.control = s.control.data();
    return q;
  }

  // Whether several workers schedule units (otherwise one worker runs `order`).
  bool has_units() const { return schedules.front().unit_begin.extent(0) > 0; }

  // A launch's reset of state array `dst` from `src`: the state is sized for the largest of the
  // schedules (make_state), so a launch of a smaller one resets the first src.extent(0)
  // entries.  A plain copy where the host can reach the memory (deep_copy would fence every
  // back end, twice), else (OrderedOnStream) a deep_copy ordered before the launch on the
  // space's stream (from pageable host memory, such a copy has read its source when it
  // returns).  Both check the extents as deep_copy does.
  template <bool OrderedOnStream = !host_memory, class ExecSpace, class Dst, class Src>
  static void reset_prefix(const ExecSpace& space, const Dst& dst, const Src& src) {
    static_assert(OrderedOnStream || host_memory, "a plain copy needs state the host can reach");
    if (src.extent(0) > dst.extent(0)) {
      throw_runtime_exception("Kokkos::WorkGraphPolicy: the launch state \"" + dst.label() + "\" holds " +
                              std::to_string(dst.extent(0)) + " entries, fewer than the schedule's \"" + src.label() +
                              "\" (" + std::to_string(src.extent(0)) + ")");
    }
    const auto prefix = subview(dst, std::pair<std::size_t, std::size_t>(0, src.extent(0)));
    if constexpr (OrderedOnStream) {
      deep_copy(space, prefix, src);
    } else {
      if (src.data() != prefix.data()) std::copy_n(src.data(), src.extent(0), prefix.data());
    }
  }

 private:
  static bool has_homes(const schedule_type& schedule, const State& s) {
    return !schedule.initial_items_prefix.empty() && s.homes.extent(0) > 0;
  }

  // The control counters (`size` of them) at the start of a launch of `schedule` on `s`: the
  // ready ranges' heads and tails, zero otherwise.
  void initial_control(std::int32_t* control, std::size_t size, const schedule_type& schedule, const State& s) const {
    std::fill_n(control, size, 0);
    WorkGraphQueue q;
    q.num_priorities = num_priorities;
    q.control = control;
    for (int p = 0; p < num_priorities; ++p) {
      *q.head(p) = schedule.range_begin[static_cast<std::size_t>(p)];
      *q.tail(p) = schedule.tail_initial[static_cast<std::size_t>(p)];
    }
    // The ready units go to the homes; the shared queue starts empty after them.
    if (has_homes(schedule, s)) *q.head(0) = *q.tail(0);
  }

  std::vector<std::pair<const void*, MeasuredChoice>> choices;
};

// Plans of recently constructed policies, so that a policy rebuilt from an unchanged graph
// (the time-step loop) reuses its plan, launch count and measured choices: one pass over the
// graph (its fingerprint) instead of construction.  A plan is found by the addresses and
// extents of the graph's arrays and the workers it was planned for, and reused only when the
// graph's fingerprint is the one it was planned from: a View modified in place is planned
// again.  Only policies without priorities and with the default options are kept; the last
// few are, and all are dropped at Kokkos::finalize.
template <class MemorySpace>
class WorkGraphPlanCache {
 public:
  using plan_pointer = std::shared_ptr<WorkGraphPlan<MemorySpace>>;
  struct Key {
    const void* row_map = nullptr;
    const void* entries = nullptr;
    std::size_t row_map_extent = 0, num_entries = 0;
    int workers = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };

  // Whether a plan is kept for `key` (then its fingerprint must be compared).
  static bool has(const Key& key) {
    const std::lock_guard<std::mutex> lock(mutex());
    return find(key) != nullptr;
  }
  static plan_pointer lookup(const Key& key, const WorkGraphFingerprint& fingerprint) {
    const std::lock_guard<std::mutex> lock(mutex());
    const Entry* e = find(key);
    return e != nullptr && e->fingerprint == fingerprint ? e->plan : nullptr;
  }
  // Forgets every plan (benchmarks that time a first construction).
  static void clear() {
    const std::lock_guard<std::mutex> lock(mutex());
    entries().clear();
  }
  static void insert(const Key& key, const WorkGraphFingerprint& fingerprint, plan_pointer plan) {
    const std::lock_guard<std::mutex> lock(mutex());
    auto& list = entries();
    list.erase(std::remove_if(list.begin(), list.end(), [&](const Entry& e) { return e.key == key; }), list.end());
    if (list.size() >= capacity) list.erase(list.begin());
    list.push_back({key, fingerprint, std::move(plan)});
    static bool hooked = false;  // the hook clears the list and re-arms itself at the next insert
    if (!hooked) {
      hooked = true;
      push_finalize_hook([] {
        const std::lock_guard<std::mutex> l(mutex());
        entries().clear();
        hooked = false;
      });
    }
  }

 private:
  static constexpr std::size_t capacity = 4;  // a plan of a 2^20-item graph holds ~30 MB
  struct Entry {
    Key key;
    WorkGraphFingerprint fingerprint;
    plan_pointer plan;
  };
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::vector<Entry>& entries() {
    static std::vector<Entry> list;
    return list;
  }
  static const Entry* find(const Key& key) {
    for (const auto& e : entries()) {
      if (e.key == key) return &e;
    }
    return nullptr;
  }
};

// What the workers of one launch need, copyable into a GPU kernel: the queue, or the order one
// worker runs alone.
struct WorkGraphWork {
  WorkGraphQueue queue;
  const std::int32_t* order = nullptr;  // null: the numbering itself is the order
  std::int32_t num_items = 0;
  bool serial = false;      // one worker runs the order, whatever the launch's size
  bool checked = false;     // the graph was checked: a launch of one worker runs the order too
  bool descending = false;  // with no stored order: the numbering backwards

  // Whether a launch of `size` workers runs the order on its worker 0 (the others returning).
  KOKKOS_INLINE_FUNCTION bool runs_order(int size) const { return serial || (checked && size == 1); }

  // One worker's whole order: run_items as for WorkGraphQueue::run.
  template <class RunItems>
  KOKKOS_INLINE_FUNCTION void run_order(const RunItems& run_items) const {
    if (order != nullptr) {
      run_items(order, 0, num_items);
    } else if (descending) {
      run_items(order, num_items, 0);  // b > e: descending
    } else {
      run_items(order, 0, num_items);
    }
  }

  template <class RunItems>
  KOKKOS_INLINE_FUNCTION void run_worker(int rank, int size, const RunItems& run_items) const {
    if (runs_order(size)) {
      if (rank == 0) run_order(run_items);
    } else if (size == 1) {
      queue.template run<false>(rank, size, run_items);
    } else {
      queue.template run<true>(rank, size, run_items);
    }
  }
};

// One launch over a policy, on the host side: takes (or makes) the run-time state, makes the
// deferred plan at the plan's second launch, picks the schedule (timing it when the functor's
// choice asks), and after the workers return turns a stall into an abort that names the cycle.
// `completion_slots`: WorkGraphQueue::completion_slots (0 for a host back end's threads).
template <class Policy>
class WorkGraphLaunch {
  using Plan = typename Policy::impl_plan_type;
  using Clock = std::chrono::steady_clock;
  static constexpr bool host_memory = SpaceAccessibility<HostSpace, typename Policy::memory_space>::accessible;

 public:
  WorkGraphLaunch(const Policy& policy, int workers, const void* functor_key, int completion_slots = 0)
      : m_policy(policy), m_plan(*policy.impl_plan()) {
    prepare_launch(policy, std::max(workers, 1), functor_key, completion_slots);
    m_work = work();
  }

 private:
  void prepare_launch(const Policy& policy, int needed, const void* functor_key, int completion_slots) {
    if (!m_plan.busy.exchange(true, std::memory_order_acquire)) {
      m_owns_shared = true;
      if (m_plan.deferred.launches++ > 0) m_plan.plan_fully(policy.graph());
      take_order();
      // Without units one worker runs the order: the queue is not used.
      m_serial = m_plan.checked && (needed == 1 || !m_plan.has_units());
      if (m_serial) return;
      if (m_plan.state.max_workers < needed || m_plan.state.completion_slots != completion_slots) {
        m_plan.state = m_plan.make_state(needed, completion_slots);
      }
      m_state = m_plan.state;
      m_choice = &m_plan.choice_for(functor_key);
      const MeasuredChoice::Decision d = m_choice->next();
      m_schedule = d.way;
      m_timed = d.timed;
      m_queue = m_plan.prepare(m_state, m_schedule, policy.space());
    } else {
      // Another launch of this policy is running (another host thread, or a launch from inside
      // its own functor): this one gets state of its own, and leaves the choice to that one.
      const std::lock_guard<std::mutex> lock(m_plan.mutex);
      take_order();
      m_serial = m_plan.checked && (needed == 1 || !m_plan.has_units());
      if (m_serial) return;
      m_schedules = m_plan.schedules;  // kept alive should the owner replace them
      m_state = m_plan.make_state(needed, completion_slots);
      m_schedule = std::min(m_plan.preferred.load(std::memory_order_relaxed), static_cast<int>(m_schedules.size()) - 1);
      m_queue = m_plan.prepare(m_state, m_schedule, policy.space());
    }
    m_prepared = true;
    if (m_timed) {
      // A device launch is timed from an idle stream to its fence in finish().
      if constexpr (!host_memory) policy.space().fence("Kokkos::WorkGraphPolicy: fence before a timed launch");
      m_start = Clock::now();
    }
  }

 public:
  ~WorkGraphLaunch() {
    if (m_owns_shared) m_plan.busy.store(false, std::memory_order_release);
  }
  WorkGraphLaunch(const WorkGraphLaunch&) = delete;
  WorkGraphLaunch& operator=(const WorkGraphLaunch&) = delete;

  // What the workers run (WorkGraphWork::run_worker: every worker of the launch calls it with
  // run_items(items, b, e), which runs items[b .. e), or the items b .. e-1 when items is null;
  // back ends keep it out of line so that the functor is inlined into its loop).
  WorkGraphWork work() const {
    WorkGraphWork w;
    w.queue = m_queue;
    w.num_items = m_plan.num_items;
    w.serial = m_serial;
    w.checked = m_plan.checked;
    w.order = m_order_kind == Plan::OrderKind::stored ? m_order.data() : nullptr;
    w.descending = m_order_kind == Plan::OrderKind::descending;
    return w;
  }

  template <class RunItems>
  void run_worker(int rank, int size, const RunItems& run_items) const {
    m_work.run_worker(rank, size, run_items);
  }

  // After the workers returned: reports the time when the choice asked for it; a stalled
  // launch means a cycle the constructor did not check.
  void finish() const {
    if (!m_prepared) return;
    if (m_timed) {
      if constexpr (!host_memory) m_policy.space().fence("Kokkos::WorkGraphPolicy: fence after a timed launch");
      m_choice->record(m_schedule, std::chrono::duration<double, std::nano>(Clock::now() - m_start).count());
      m_plan.preferred.store(m_choice->fastest(), std::memory_order_relaxed);
    }
    std::int32_t stalled = 0;
    if constexpr (host_memory) {
      stalled = *m_queue.stalled();
    } else {
      // A checked graph cannot stall: only an unchecked launch waits for its flag.
      if (m_plan.checked) return;
      m_policy.space().fence("Kokkos::WorkGraphPolicy: fence before reading whether the launch stalled");
      DeepCopy<HostSpace, typename Policy::memory_space>(&stalled, m_queue.stalled(), sizeof(stalled));
    }
    if (stalled == 0) return;
    // The items that ran are exactly those Kahn's algorithm reaches: the others are left.
    auto row_map = create_mirror_view_and_copy(HostSpace(), m_policy.graph().row_map);
    auto entries = create_mirror_view_and_copy(HostSpace(), m_policy.graph().entries);
    WorkGraphHostCrs<typename Policy::index_type, typename Policy::index_type> g{m_plan.num_items, row_map.data(),
                                                                                 entries.data()};
    std::vector<std::int32_t> waiting =
        work_graph_indegrees("Kokkos::WorkGraphPolicy", row_map.extent(0), row_map.data(), entries.extent(0), entries.data());
    WorkGraphOrder order;
    work_graph_fifo_order(g, waiting, order);
    std::vector<std::uint8_t> left(static_cast<std::size_t>(m_plan.num_items), 0);
    for (std::int32_t i = 0; i < m_plan.num_items; ++i) left[static_cast<std::size_t>(i)] = waiting[static_cast<std::size_t>(i)] > 0;
    const std::string msg = work_graph_cycle_message(
        "Kokkos::parallel_for/parallel_reduce(WorkGraphPolicy constructed with check_graph = false): no work item is "
        "ready or running but some never ran",
        g, left);
    Kokkos::abort(msg.c_str());
  }

 private:
  void take_order() {
    m_order = m_plan.order;
    m_order_kind = m_plan.order_kind;
  }

  const Policy& m_policy;
  Plan& m_plan;
  typename Plan::State m_state;
  typename Plan::ints m_order;
  std::vector<typename Plan::schedule_type> m_schedules;
  WorkGraphQueue m_queue;
  WorkGraphWork m_work;
  MeasuredChoice* m_choice = nullptr;
  int m_schedule = 0;
  typename Plan::OrderKind m_order_kind = Plan::OrderKind::stored;
  bool m_serial = false;
  bool m_prepared = false;
  bool m_owns_shared = false;
  bool m_timed = false;
  Clock::time_point m_start;
};

template <class T>
inline constexpr bool work_graph_priority_element_v = std::is_integral_v<T> || std::is_enum_v<T>;

}  // namespace Impl

template <class... Properties>
class WorkGraphPolicy {
  using traits = Impl::PolicyTraits<Properties...>;
  static_assert(Impl::work_graph_space_v<typename traits::execution_space>,
                "Kokkos::WorkGraphPolicy runs on the host back ends and Kokkos::Cuda only; name one of them "
                "(e.g. Kokkos::WorkGraphPolicy<Kokkos::DefaultHostExecutionSpace>)");

 public:
  using execution_policy = WorkGraphPolicy<Properties...>;
  using self_type = WorkGraphPolicy<Properties...>;
  using traits_type = traits;
  using execution_space = typename traits::execution_space;
  using memory_space = typename execution_space::memory_space;
  using schedule_type = typename traits::schedule_type;
  using index_type = typename traits::index_type::type;
  using member_type = index_type;
  using work_tag = typename traits::work_tag;
  using launch_bounds = typename traits::launch_bounds;
  using graph_type = Kokkos::Crs<index_type, execution_space, void, index_type>;
  using options_type = Experimental::WorkGraphOptions;
  using impl_plan_type = Impl::WorkGraphPlan<memory_space>;
  using impl_schedule_type = Impl::WorkGraphSchedule<memory_space>;

  WorkGraphPolicy(const graph_type& graph, const options_type& options = {})
      : WorkGraphPolicy(execution_space(), graph, options) {}

  WorkGraphPolicy(const execution_space& space, const graph_type& graph, const options_type& options = {})
      : m_space(space), m_graph(graph) {
    impl_construct(std::vector<std::uint8_t>(), 1, options);
  }

  // priority(i): WorkGraphPriority::High, Regular, Low or an integer in [0, 16); smaller runs first.
  template <class PriorityView, class = std::enable_if_t<is_view_v<PriorityView>>>
  WorkGraphPolicy(const graph_type& graph, const PriorityView& priority, const options_type& options = {})
      : WorkGraphPolicy(execution_space(), graph, priority, options) {}

  template <class PriorityView, class = std::enable_if_t<is_view_v<PriorityView>>>
  WorkGraphPolicy(const execution_space& space, const graph_type& graph, const PriorityView& priority,
                  const options_type& options = {})
      : m_space(space), m_graph(graph) {
    static_assert(PriorityView::rank() == 1, "Kokkos::WorkGraphPolicy: the priorities must be a rank-1 View");
    using P = std::remove_cv_t<typename PriorityView::value_type>;
    static_assert(Impl::work_graph_priority_element_v<P>,
                  "Kokkos::WorkGraphPolicy: priorities must be integers or an enum (WorkGraphPriority)");
    const std::size_t n = static_cast<std::size_t>(m_graph.numRows());
    if (priority.extent(0) != n) {
      Impl::throw_runtime_exception("Kokkos::WorkGraphPolicy: the priority View has extent " +
                                    std::to_string(priority.extent(0)) + " but the graph has " + std::to_string(n) +
                                    " work items");
    }
    auto host = create_mirror_view_and_copy(HostSpace(), priority);
    std::vector<std::uint8_t> levels(n);
    int count = 1;
    for (std::size_t i = 0; i < n; ++i) {
      const auto value = static_cast<long long>(host(i));
      if (value < 0 || value >= Impl::work_graph_max_priorities) {
        Impl::throw_runtime_exception("Kokkos::WorkGraphPolicy: priority(" + std::to_string(i) + ") = " +
                                      std::to_string(value) + " is outside [0, " +
                                      std::to_string(Impl::work_graph_max_priorities) + ")");
      }
      levels[i] = static_cast<std::uint8_t>(value);
      count = std::max(count, static_cast<int>(value) + 1);
    }
    impl_construct(std::move(levels), count, options);
  }

  const graph_type& graph() const { return m_graph; }
  const execution_space& space() const { return m_space; }
  index_type num_items() const { return static_cast<index_type>(m_plan->num_items); }

  // The number of scheduling units several workers share the items in (num_items() when
  // every item is scheduled on its own), in the schedule launches prefer now (see
  // Impl::WorkGraphPlan: the first until launches have timed the others).
  index_type impl_num_units() const {
    return static_cast<index_type>(m_plan->schedules[static_cast<std::size_t>(m_plan->preferred.load())].num_units);
  }
  // The schedules launches choose between, and the one they prefer now.
  int impl_num_schedules() const { return static_cast<int>(m_plan->schedules.size()); }
  int impl_preferred_schedule() const { return m_plan->preferred.load(); }
  // Whether the planning a second launch does is still to do.
  bool impl_plan_deferred() const { return m_plan->deferred.pending; }
  // Does now what the plan's second launch would (tests, or a program that knows it will
  // launch often and wants the cost out of its timed loop).  Not concurrently with a launch.
  void impl_plan_fully() const {
    while (m_plan->busy.exchange(true, std::memory_order_acquire)) {
    }
    m_plan->plan_fully(m_graph);
    m_plan->busy.store(false, std::memory_order_release);
  }
  const std::shared_ptr<impl_plan_type>& impl_plan() const { return m_plan; }

 private:
  void impl_construct(std::vector<std::uint8_t> priority, int num_priorities, const options_type& options) {
    static constexpr const char* who = "Kokkos::WorkGraphPolicy";
    static_assert(std::is_integral_v<index_type>, "Kokkos::WorkGraphPolicy: the index type must be integral");
    auto row_map = create_mirror_view_and_copy(HostSpace(), m_graph.row_map);
    auto entries = create_mirror_view_and_copy(HostSpace(), m_graph.entries);
    const std::size_t rows = row_map.extent(0), num_entries = entries.extent(0);
    Impl::work_graph_check_shape(who, rows, row_map.data(), num_entries);
    const auto n = static_cast<std::int32_t>(rows > 0 ? rows - 1 : 0);
    const int workers = Impl::work_graph_planned_workers(m_space);
    constexpr bool independent_items = Impl::work_graph_independent_unit_items_v<execution_space>;
    using Cache = Impl::WorkGraphPlanCache<memory_space>;
    const bool cached = options.check_graph && options.unit_size <= 0 && num_priorities == 1;
    const typename Cache::Key key{m_graph.row_map.data(), m_graph.entries.data(), rows, num_entries, workers};
    // The fingerprint costs (a part of) a pass: only for a graph whose plan may be reused or deferred.
    const bool deferring = options.check_graph && options.unit_size <= 0 && n > 0;
    // On several workers a numbered graph's levels need each entry's row: the check has it at hand.
    const bool levels_ahead = options.check_graph && num_priorities == 1 && workers > 1 && num_entries > 0;
    std::unique_ptr<std::int32_t[]> entry_rows;  // not zeroed: the workers write it first
    auto first_pass = [&](bool fingerprint, bool check) {
      if (check && levels_ahead) entry_rows.reset(new std::int32_t[num_entries]);
      return Impl::work_graph_first_pass(Impl::work_graph_host_space(m_space), rows, row_map.data(), num_entries, entries.data(), fingerprint, check,
                                         entry_rows.get());
    };
    Impl::WorkGraphFirstPass pass;
    if (cached && Cache::has(key)) {
      // A rebuilt policy: its plan is reused if the graph's contents are those it was made for.
      pass.fingerprint = first_pass(true, false).fingerprint;
      m_plan = Cache::lookup(key, pass.fingerprint);
      if (m_plan) return;
      pass.check = first_pass(false, true).check;
    } else {
      pass = first_pass(cached || deferring, true);
    }
    if (!pass.check.well_formed || (n > 0 && static_cast<std::size_t>(row_map(n)) != num_entries)) {
      (void)Impl::work_graph_scan(who, rows, row_map.data(), num_entries, entries.data());  // throws, naming the problem
    }
    const Impl::WorkGraphHostCrs<index_type, index_type> g{n, row_map.data(), entries.data()};
    const std::uint8_t* item_priority = num_priorities > 1 ? priority.data() : nullptr;
    // Every edge goes one way in the numbering: no cycle, and the numbering is an order.
    const bool numbered = item_priority == nullptr && (pass.check.forward || pass.check.backward);

    m_plan = std::make_shared<impl_plan_type>();
    impl_plan_type& plan = *m_plan;
    plan.num_items = n;
    plan.num_priorities = num_priorities;
    plan.checked = options.check_graph;

    std::vector<Impl::WorkGraphUnits> planned;  // the schedules several workers choose between
    if (options.check_graph) {
      Impl::WorkGraphOrder order;
      if (numbered) {
        // The levels only where a plan for several workers needs them now (one worker's are
        // made by the second launch, if there is one).
        if (workers > 1 && n > 0) Impl::work_graph_numbered_levels(g, pass.check.forward, order, entry_rows.get());
      } else {
        std::vector<std::int32_t> waiting = Impl::work_graph_checked_indegrees(n, entries.data(), num_entries);
        const bool acyclic = item_priority == nullptr
                                 ? Impl::work_graph_fifo_order(g, waiting, order)
                                 : Impl::work_graph_order(g, waiting, item_priority, num_priorities, order);
        if (!acyclic) {
          std::vector<std::uint8_t> left(static_cast<std::size_t>(n));
          for (std::int32_t i = 0; i < n; ++i) left[static_cast<std::size_t>(i)] = waiting[static_cast<std::size_t>(i)] > 0;
          Impl::throw_runtime_exception(Impl::work_graph_cycle_message(who, g, left));
        }
      }
      if (options.unit_size > 0) {
        // A forced unit size: the planner has a single candidate to make.
        if (workers > 1 && n > 0) {
          planned = Impl::work_graph_plan_units(g, order, item_priority, workers, options.unit_size, independent_items);
        }
      } else if (workers > 1 && n > 0) {
        planned.push_back(Impl::work_graph_first_launch_units(g, order, item_priority, workers));  // independent items
      }
      // One worker's order: with priorities, Kahn's (which honours them exactly); without, the
      // numbering when it is one, Kahn's order (or the units' level order) otherwise, until the
      // second launch plans a banded level order (see Kokkos_WorkGraphAnalysis.hpp).
      if (item_priority != nullptr || (!numbered && planned.empty())) {
        plan.order = impl_schedule_type::to_space("Kokkos::WorkGraphPolicy::order", order.order);
      } else if (numbered) {
        plan.order_kind = pass.check.forward ? impl_plan_type::OrderKind::ascending : impl_plan_type::OrderKind::descending;
      }
      if (deferring) {
        plan.deferred.pending = true;
        plan.deferred.order = std::move(order);
        plan.deferred.numbered_forward = pass.check.forward;
        plan.deferred.priority = std::move(priority);
        plan.deferred.fingerprint = pass.fingerprint;
        plan.deferred.workers = workers;
        plan.deferred.independent_items = independent_items;
      }
    } else {
      // The seed's scheduling: every item its own unit, successors straight from the graph.
      Impl::WorkGraphUnits& units = planned.emplace_back();
      units.row_map.resize(static_cast<std::size_t>(n) + 1);
      units.succ.resize(num_entries);
      for (std::int32_t i = 0; i <= n && rows > 0; ++i) units.row_map[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(row_map(i));
      for (std::size_t k = 0; k < num_entries; ++k) units.succ[k] = static_cast<std::int32_t>(entries(k));
      units.indegree = Impl::work_graph_checked_indegrees(n, entries.data(), num_entries);
      units.priority = std::move(priority);
    }
    if (planned.empty()) planned.emplace_back();  // one worker runs plan.order: nothing to schedule
    std::vector<impl_schedule_type> schedules;
    for (auto& units : planned) schedules.emplace_back(units, num_priorities);
    plan.set_schedules(std::move(schedules));
    if (plan.has_units() && item_priority == nullptr && !numbered) plan.order = plan.schedules.front().unit_items;
    plan.state = plan.make_state(workers, Impl::work_graph_completion_slots_v<execution_space>);
    if (cached) Cache::insert(key, pass.fingerprint, m_plan);
  }

  execution_space m_space;
  graph_type m_graph;
  std::shared_ptr<impl_plan_type> m_plan;
};

template <class T>
struct is_work_graph_policy : std::false_type {};
template <class... P>
struct is_work_graph_policy<WorkGraphPolicy<P...>> : std::true_type {};

}  // namespace Kokkos

#include <Host/Kokkos_HostParallelWorkGraph.hpp>
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include <Cuda/Kokkos_Cuda_WorkGraph.hpp>
#endif

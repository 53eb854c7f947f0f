#pragma once
// What a WorkGraphPolicy computes at construction (Kokkos_WorkGraphPolicy.hpp): the schedules a
// launch can run (WorkGraphSchedule), the first pass over the graph, the plan and its cache of
// recently planned graphs, and which execution spaces run work graphs with how many workers.
// The analysis it builds on is Kokkos_WorkGraphAnalysis.hpp; the run-time queue
// Kokkos_WorkGraphQueue.hpp; one launch Kokkos_WorkGraphLaunch.hpp.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_Crs.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_View.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <impl/Kokkos_MeasuredChoice.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>
#include <impl/workgraph/Kokkos_WorkGraphAnalysis.hpp>
#include <impl/workgraph/Kokkos_WorkGraphLevels.hpp>
#include <impl/workgraph/Kokkos_WorkGraphQueue.hpp>
#include <impl/workgraph/Kokkos_WorkGraphUnits.hpp>

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

// Declared in Kokkos_Core.hpp.
void push_finalize_hook(std::function<void()> hook);

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

  // On a device memory space, without priorities, once plan_fully has run: the items by level
  // for the per-level way (Kokkos_WorkGraphLevels.hpp), the item array in the memory space
  // (level_sets.items is then empty), and whether the way is worth timing.  Host memory
  // spaces have none: their back ends run the queue only.
  WorkGraphLevelSets level_sets;
  ints level_items;
  bool levels_eligible = false;
  std::vector<std::pair<const void*, WorkGraphDeviceWays>> device_ways;

  void set_level_sets(WorkGraphLevelSets sets) {
    levels_eligible = !sets.offsets.empty() && work_graph_levels_worth_timing(sets.num_items, sets.num_levels());
    level_items = ints();
    if (levels_eligible && !sets.ranges) {
      level_items = schedule_type::to_space("Kokkos::WorkGraphPolicy::level_items", sets.items);
      sets.items = std::vector<std::int32_t>();
    }
    level_sets = std::move(sets);
  }

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
  // The choice between a device's ways (WorkGraphDeviceWays) of the functor type `key` (the
  // owner of `busy` only).
  WorkGraphDeviceWays& device_ways_for(const void* key) {
    for (auto& w : device_ways) {
      if (w.first == key) return w.second;
    }
    return device_ways.emplace_back(key, WorkGraphDeviceWays(choice_options)).second;
  }
  const WorkGraphDeviceWays* device_ways_of(const void* key) const {
    for (const auto& w : device_ways) {
      if (w.first == key) return &w.second;
    }
    return nullptr;
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
    if constexpr (!host_memory) {
      if (item_priority == nullptr) set_level_sets(work_graph_level_sets(d.order, num_items));
    }
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

// A checked graph's order for the first launch: a numbered graph's own (with its levels where
// several workers plan now; one worker's are made by the second launch, if there is one), or
// Kahn's order, which honours priorities and finds a cycle (thrown, naming it).
template <class Graph>
WorkGraphOrder work_graph_checked_order(const char* who, const Graph& g, bool numbered, bool forward, int workers,
                                        std::size_t num_entries, const std::uint8_t* item_priority,
                                        int num_priorities, const std::int32_t* entry_rows) {
  WorkGraphOrder order;
  const auto n = static_cast<std::int32_t>(g.num_items);
  if (numbered) {
    if (workers > 1 && n > 0) work_graph_numbered_levels(g, forward, order, entry_rows);
    return order;
  }
  std::vector<std::int32_t> waiting = work_graph_checked_indegrees(n, g.entries, num_entries);
  const bool acyclic = item_priority == nullptr ? work_graph_fifo_order(g, waiting, order)
                                                : work_graph_order(g, waiting, item_priority, num_priorities, order);
  if (!acyclic) {
    std::vector<std::uint8_t> left(static_cast<std::size_t>(n));
    for (std::int32_t i = 0; i < n; ++i) left[static_cast<std::size_t>(i)] = waiting[static_cast<std::size_t>(i)] > 0;
    throw_runtime_exception(work_graph_cycle_message(who, g, left));
  }
  return order;
}

// The seed's scheduling, for an unchecked graph: every item its own unit, successors straight
// from the graph.
template <class Graph>
WorkGraphUnits work_graph_seed_units(const Graph& g, std::size_t num_entries, std::vector<std::uint8_t> priority) {
  WorkGraphUnits units;
  const auto n = static_cast<std::int32_t>(g.num_items);
  units.row_map.resize(static_cast<std::size_t>(n) + 1);
  units.succ.resize(num_entries);
  for (std::int32_t i = 0; n > 0 && i <= n; ++i) units.row_map[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(g.row_map[i]);
  for (std::size_t k = 0; k < num_entries; ++k) units.succ[k] = static_cast<std::int32_t>(g.entries[k]);
  units.indegree = work_graph_checked_indegrees(n, g.entries, num_entries);
  units.priority = std::move(priority);
  return units;
}

}  // namespace Impl
}  // namespace Kokkos

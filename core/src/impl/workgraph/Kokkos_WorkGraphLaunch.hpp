#pragma once
// One launch over a WorkGraphPolicy, on the host side (WorkGraphLaunch), and what its workers
// need (WorkGraphWork).  The back ends' executors run it: Host/Kokkos_HostParallelWorkGraph.hpp
// and Cuda/Kokkos_Cuda_WorkGraph.hpp.
#include <impl/workgraph/Kokkos_WorkGraphPlan.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace Kokkos::Impl {

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
// `levels_way`: the back end can run the per-level way instead (Kokkos_WorkGraphLevels.hpp; a
// device's parallel_for): the launch's owner then first chooses between the ways, by timing
// them too, for checked graphs without priorities; runs_levels() says which it took (the
// queue is then not prepared: the back end runs plan().level_sets and calls finish()).
template <class Policy>
class WorkGraphLaunch {
  using Plan = typename Policy::impl_plan_type;
  using Clock = std::chrono::steady_clock;
  static constexpr bool host_memory = SpaceAccessibility<HostSpace, typename Policy::memory_space>::accessible;

 public:
  WorkGraphLaunch(const Policy& policy, int workers, const void* functor_key, int completion_slots = 0,
                  bool levels_way = false)
      : m_policy(policy), m_plan(*policy.impl_plan()) {
    prepare_launch(policy, std::max(workers, 1), functor_key, completion_slots, levels_way);
    m_work = work();
  }

 private:
  void prepare_launch(const Policy& policy, int needed, const void* functor_key, int completion_slots,
                      bool levels_way) {
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
      if constexpr (!host_memory) {
        // An unchecked graph needs the persistent kernel's stall detection; priorities are
        // only a hint, but the queue is what honours them.  Where the levels are not worth
        // timing (or not known yet) no choice is made: timing the queue alone would only add
        // fences to asynchronous launches.
        if (levels_way && m_plan.checked && m_plan.num_priorities == 1 && m_plan.levels_eligible) {
          m_ways = &m_plan.device_ways_for(functor_key);
          const MeasuredChoice::Decision w = m_ways->next(true);
          m_way_timed = w.timed;
          m_levels = w.way == WorkGraphDeviceWays::levels;
        }
      }
      if (!m_levels) {
        m_state = m_plan.state;
        m_choice = &m_plan.choice_for(functor_key);
        const MeasuredChoice::Decision d = m_choice->next();
        m_schedule = d.way;
        m_timed = d.timed;
        m_queue = m_plan.prepare(m_state, m_schedule, policy.space());
      }
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
    if (m_timed || m_way_timed) {
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

  // Whether this launch runs the per-level way (the constructor's levels_way), over plan()'s
  // level sets.
  bool runs_levels() const { return m_levels; }
  const Plan& plan() const { return m_plan; }
  // The choice between the ways this launch made (null where it made none), for the back end's
  // per-(plan, functor type) state (WorkGraphDeviceWays::recording).
  WorkGraphDeviceWays* ways() const { return m_ways; }

  template <class RunItems>
  void run_worker(int rank, int size, const RunItems& run_items) const {
    m_work.run_worker(rank, size, run_items);
  }

  // After the workers returned: reports the time when the choice asked for it; a stalled
  // launch means a cycle the constructor did not check.
  void finish() const {
    if (!m_prepared) return;
    if (m_timed || m_way_timed) {
      if constexpr (!host_memory) m_policy.space().fence("Kokkos::WorkGraphPolicy: fence after a timed launch");
      const double ns = std::chrono::duration<double, std::nano>(Clock::now() - m_start).count();
      if (m_timed) {
        m_choice->record(m_schedule, ns);
        m_plan.preferred.store(m_choice->fastest(), std::memory_order_relaxed);
      }
      // A persistent launch's time is a sample of that way whichever schedule ran: the
      // schedules' own choice converges to the fastest of them meanwhile.
      if (m_way_timed) m_ways->record(m_levels ? WorkGraphDeviceWays::levels : WorkGraphDeviceWays::persistent, ns);
    }
    if (m_levels) return;  // a checked graph: nothing can stall
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
  WorkGraphDeviceWays* m_ways = nullptr;
  int m_schedule = 0;
  typename Plan::OrderKind m_order_kind = Plan::OrderKind::stored;
  bool m_serial = false;
  bool m_prepared = false;
  bool m_owns_shared = false;
  bool m_timed = false;      // the schedules' choice times this launch
  bool m_way_timed = false;  // the ways' choice does
  bool m_levels = false;
  Clock::time_point m_start;
};

template <class T>
inline constexpr bool work_graph_priority_element_v = std::is_integral_v<T> || std::is_enum_v<T>;

}  // namespace Kokkos::Impl

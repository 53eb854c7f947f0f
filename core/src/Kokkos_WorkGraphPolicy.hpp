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
//   - scheduling units: with the check on, the constructor plans for the execution space's
//     concurrency.  Several workers schedule *units* of consecutive items of a topological
//     order (one ready-queue operation and one waiting-count update per unit, not per item),
//     cut so that the units' DAG keeps its parallelism; one worker runs a topological order
//     with no synchronisation at all.  WorkGraphOptions::unit_size forces the unit size (1:
//     every item its own unit).  See impl/Kokkos_WorkGraphAnalysis.hpp and
//     impl/Kokkos_WorkGraphQueue.hpp.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_Crs.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_View.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>
#include <impl/Kokkos_WorkGraphAnalysis.hpp>
#include <impl/Kokkos_WorkGraphQueue.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace Kokkos {
namespace Experimental {

enum class WorkGraphPriority : std::uint8_t { High = 0, Regular = 1, Low = 2 };

struct WorkGraphOptions {
  // Reject a cyclic graph at construction (O(N + E)), and plan scheduling units.
  bool check_graph = true;
  // Items per scheduling unit; 0 lets the graph's shape decide.  Ignored without the check.
  int unit_size = 0;
};

}  // namespace Experimental

namespace Impl {

// What a policy computes at construction, shared by its copies, and the run-time state its
// launches reuse.
template <class MemorySpace>
struct WorkGraphPlan {
  using ints = View<std::int32_t*, MemorySpace>;
  using bytes = View<std::uint8_t*, MemorySpace>;

  std::int32_t num_items = 0;
  int num_priorities = 1;
  ints order;  // a topological order (one worker runs it); empty when unchecked
  // The scheduling units: ranges of unit_items, or the items themselves when unit_items is empty.
  std::int32_t num_units = 0;
  ints unit_items, unit_begin, unit_first, unit_row_map, unit_succ, unit_indegree;
  bytes unit_priority;
  ints ready_initial;  // the ready array at the start of a launch
  std::vector<std::int32_t> range_begin, tail_initial;
  // With one priority, the items of the units ready at launch, summed in ready order (the
  // homes' balance); empty otherwise.
  std::vector<std::int64_t> initial_items_prefix;

  // Run-time state, reused by launches that do not overlap.
  struct State {
    ints waiting, ready, control;
    View<std::int64_t*, MemorySpace> homes;
    typename View<std::int64_t*, MemorySpace>::HostMirror homes_initial;  // the shares, packed
    int max_workers = 0;
  };
  State state;
  std::atomic<bool> busy{false};

  template <class T>
  static View<T*, MemorySpace> to_space(const std::string& label, const std::vector<T>& v) {
    View<T*, MemorySpace> out(view_alloc(label, WithoutInitializing), v.size());
    if (!v.empty()) deep_copy(out, View<const T*, HostSpace, MemoryUnmanaged>(v.data(), v.size()));
    return out;
  }

  State make_state(int workers) const {
    State s;
    s.max_workers = workers;
    s.waiting = ints(view_alloc("Kokkos::WorkGraphPolicy::waiting", WithoutInitializing), num_units);
    s.ready = ints(view_alloc("Kokkos::WorkGraphPolicy::ready", WithoutInitializing), num_units);
    s.control = ints("Kokkos::WorkGraphPolicy::control", WorkGraphQueue::control_size(num_priorities, workers));
    if (!initial_items_prefix.empty()) {
      s.homes = View<std::int64_t*, MemorySpace>("Kokkos::WorkGraphPolicy::homes",
                                                  static_cast<std::size_t>(workers) * WorkGraphQueue::home_stride);
      s.homes_initial = create_mirror(s.homes);
      const auto bounds = work_graph_balanced_split(initial_items_prefix, workers);
      for (int w = 0; w < workers; ++w) {
        s.homes_initial(static_cast<std::size_t>(w) * WorkGraphQueue::home_stride) =
            WorkGraphQueue::pack_home(bounds[static_cast<std::size_t>(w)], bounds[static_cast<std::size_t>(w) + 1]);
      }
    }
    return s;
  }

  // Resets `s` for a launch and returns the queue over it.
  WorkGraphQueue prepare(const State& s) const {
    copy(s.waiting, unit_indegree);
    copy(s.ready, ready_initial);
    auto control = create_mirror_view(s.control);
    std::fill_n(control.data(), control.extent(0), 0);
    WorkGraphQueue q;
    q.num_units = num_units;
    q.num_priorities = num_priorities;
    q.max_workers = s.max_workers;
    q.control = control.data();
    for (int p = 0; p < num_priorities; ++p) {
      *q.head(p) = range_begin[static_cast<std::size_t>(p)];
      *q.tail(p) = tail_initial[static_cast<std::size_t>(p)];
    }
    if (!initial_items_prefix.empty()) {
      // The ready units go to the homes; the shared queue starts empty after them.
      *q.head(0) = *q.tail(0);
      q.num_homes = s.max_workers;
      copy(s.homes, s.homes_initial);
      q.homes = s.homes.data();
    }
    copy(s.control, control);
    q.items = unit_items.extent(0) > 0 ? unit_items.data() : nullptr;
    q.begin = unit_begin.data();
    q.first = unit_first.data();
    q.row_map = unit_row_map.data();
    q.succ = unit_succ.data();
    q.indegree = unit_indegree.data();
    q.priority = unit_priority.extent(0) > 0 ? unit_priority.data() : nullptr;
    q.waiting = s.waiting.data();
    q.ready = s.ready.data();
    q.control = s.control.data();
    return q;
  }

 private:
  // A launch's reset: a plain copy where the host can reach the memory (deep_copy would fence
  // every back end, twice).
  template <class Dst, class Src>
  static void copy(const Dst& dst, const Src& src) {
    if constexpr (SpaceAccessibility<HostSpace, MemorySpace>::accessible) {
      if (src.data() != dst.data()) std::copy_n(src.data(), src.extent(0), dst.data());
    } else {
      deep_copy(dst, src);
    }
  }
};

// One launch over a policy, on the host side: takes (or makes) the run-time state, and after
// the workers return turns a stall into an abort that names the cycle.
template <class Policy>
class WorkGraphLaunch {
  using Plan = typename Policy::impl_plan_type;

 public:
  WorkGraphLaunch(const Policy& policy, int workers) : m_policy(policy), m_plan(*policy.impl_plan()) {
    const int needed = std::max(workers, 1);
    // Without units one worker runs the order: the queue is not used.
    if (m_plan.order.extent(0) > 0 && (needed == 1 || m_plan.unit_items.extent(0) == 0)) return;
    if (!m_plan.busy.exchange(true, std::memory_order_acquire)) {
      m_owns_shared = true;
      if (m_plan.state.max_workers < needed) m_plan.state = m_plan.make_state(needed);
      m_state = m_plan.state;
    } else {
      // Another launch of this policy is running (another host thread, or a launch from inside
      // its own functor): this one gets state of its own.
      m_state = m_plan.make_state(needed);
    }
    m_queue = m_plan.prepare(m_state);
    m_prepared = true;
  }
  ~WorkGraphLaunch() {
    if (m_owns_shared) m_plan.busy.store(false, std::memory_order_release);
  }
  WorkGraphLaunch(const WorkGraphLaunch&) = delete;
  WorkGraphLaunch& operator=(const WorkGraphLaunch&) = delete;

  // Called by every worker of the launch.  run_items(items, b, e) runs items[b .. e), or the
  // items b .. e-1 when items is null; back ends keep it out of line so that the functor is
  // inlined into its loop.
  template <class RunItems>
  void run_worker(int rank, int size, const RunItems& run_items) const {
    const bool planned_units = m_plan.unit_items.extent(0) > 0;
    if (m_plan.order.extent(0) > 0 && (size == 1 || !planned_units)) {
      // One worker runs the whole order; without units (the policy was planned for one worker)
      // the others have nothing to do.
      if (rank == 0) run_items(m_plan.order.data(), 0, m_plan.num_items);
      return;
    }
    if (size == 1) {
      m_queue.template run<false>(rank, size, run_items);
    } else {
      m_queue.template run<true>(rank, size, run_items);
    }
  }

  // After the workers returned: a stalled launch means a cycle the constructor did not check.
  void finish() const {
    if (!m_prepared) return;
    auto stalled = *m_queue.stalled();
    if (stalled == 0) return;
    // The items that ran are exactly those Kahn's algorithm reaches: the others are left.
    auto row_map = create_mirror_view_and_copy(HostSpace(), m_policy.graph().row_map);
    auto entries = create_mirror_view_and_copy(HostSpace(), m_policy.graph().entries);
    WorkGraphHostCrs<typename Policy::index_type, typename Policy::index_type> g{m_plan.num_items, row_map.data(),
                                                                                 entries.data()};
    std::vector<std::int32_t> waiting =
        work_graph_indegrees("Kokkos::WorkGraphPolicy", row_map.extent(0), row_map.data(), entries.extent(0), entries.data());
    WorkGraphOrder order;
    work_graph_order(g, waiting, nullptr, 1, order);
    std::vector<std::uint8_t> left(static_cast<std::size_t>(m_plan.num_items), 0);
    for (std::int32_t i = 0; i < m_plan.num_items; ++i) left[static_cast<std::size_t>(i)] = waiting[static_cast<std::size_t>(i)] > 0;
    const std::string msg = work_graph_cycle_message(
        "Kokkos::parallel_for/parallel_reduce(WorkGraphPolicy constructed with check_graph = false): no work item is "
        "ready or running but some never ran",
        g, left);
    Kokkos::abort(msg.c_str());
  }

 private:
  const Policy& m_policy;
  Plan& m_plan;
  typename Plan::State m_state;
  WorkGraphQueue m_queue;
  bool m_prepared = false;
  bool m_owns_shared = false;
};

template <class T>
inline constexpr bool work_graph_priority_element_v = std::is_integral_v<T> || std::is_enum_v<T>;

}  // namespace Impl

template <class... Properties>
class WorkGraphPolicy {
  using traits = Impl::PolicyTraits<Properties...>;

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
  // every item is scheduled on its own).
  index_type impl_num_units() const { return static_cast<index_type>(m_plan->num_units); }
  const std::shared_ptr<impl_plan_type>& impl_plan() const { return m_plan; }

 private:
  void impl_construct(std::vector<std::uint8_t> priority, int num_priorities, const options_type& options) {
    static constexpr const char* who = "Kokkos::WorkGraphPolicy";
    static_assert(std::is_integral_v<index_type>, "Kokkos::WorkGraphPolicy: the index type must be integral");
    auto row_map = create_mirror_view_and_copy(HostSpace(), m_graph.row_map);
    auto entries = create_mirror_view_and_copy(HostSpace(), m_graph.entries);
    std::vector<std::int32_t> indegree =
        Impl::work_graph_indegrees(who, row_map.extent(0), row_map.data(), entries.extent(0), entries.data());
    const auto n = static_cast<std::int32_t>(indegree.size());
    const Impl::WorkGraphHostCrs<index_type, index_type> g{n, row_map.data(), entries.data()};
    const std::uint8_t* item_priority = num_priorities > 1 ? priority.data() : nullptr;

    m_plan = std::make_shared<impl_plan_type>();
    impl_plan_type& plan = *m_plan;
    plan.num_items = n;
    plan.num_priorities = num_priorities;

    Impl::WorkGraphUnits units;
    if (options.check_graph) {
      Impl::WorkGraphOrder order;
      std::vector<std::int32_t> waiting = std::move(indegree);  // the units have their own
      if (!Impl::work_graph_order(g, waiting, item_priority, num_priorities, order)) {
        std::vector<std::uint8_t> left(static_cast<std::size_t>(n));
        for (std::int32_t i = 0; i < n; ++i) left[static_cast<std::size_t>(i)] = waiting[static_cast<std::size_t>(i)] > 0;
        Impl::throw_runtime_exception(Impl::work_graph_cycle_message(who, g, left));
      }
      const int workers = m_space.concurrency();
      if (workers > 1 && n > 0) {
        Impl::work_graph_plan_units(g, order, item_priority, workers, options.unit_size, units);
      }
      // One worker's order: with priorities, Kahn's (which honours them exactly); without,
      // the units' order, or a banded level order (see Kokkos_WorkGraphAnalysis.hpp).
      if (item_priority != nullptr) {
        plan.order = impl_plan_type::to_space("Kokkos::WorkGraphPolicy::order", order.order);
      } else if (units.items.empty()) {
        plan.order = impl_plan_type::to_space("Kokkos::WorkGraphPolicy::order", Impl::work_graph_serial_order(g, order));
      }
    }
    if (!units.items.empty()) {
      plan.unit_items = impl_plan_type::to_space("Kokkos::WorkGraphPolicy::unit_items", units.items);
      plan.unit_begin = impl_plan_type::to_space("Kokkos::WorkGraphPolicy::unit_begin", units.begin);
      plan.unit_first = impl_plan_type::to_space("Kokkos::WorkGraphPolicy::unit_first", Impl::work_graph_unit_first(units));
      if (item_priority == nullptr) plan.order = plan.unit_items;
    } else if (!options.check_graph) {
      // The seed's scheduling: every item its own unit, successors straight from the graph.
      units.row_map.resize(static_cast<std::size_t>(n) + 1);
      units.succ.resize(entries.extent(0));
      for (std::int32_t i = 0; i <= n; ++i) units.row_map[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(row_map(i));
      for (std::size_t k = 0; k < entries.extent(0); ++k) units.succ[k] = static_cast<std::int32_t>(entries(k));
      units.indegree = std::move(indegree);
      units.priority = std::move(priority);
    }  // else one worker runs plan.order: nothing to schedule
    if (num_priorities == 1) units.priority.clear();
    plan.num_units = static_cast<std::int32_t>(units.indegree.size());
    plan.unit_row_map = impl_plan_type::to_space("Kokkos::WorkGraphPolicy::unit_row_map", units.row_map);
    plan.unit_succ = impl_plan_type::to_space("Kokkos::WorkGraphPolicy::unit_successors", units.succ);
    plan.unit_indegree = impl_plan_type::to_space("Kokkos::WorkGraphPolicy::unit_indegree", units.indegree);
    plan.unit_priority = impl_plan_type::to_space("Kokkos::WorkGraphPolicy::unit_priority", units.priority);

    // The ready array at launch: one range per priority, the units with nothing to wait for
    // at the front of their range in unit order.
    Impl::WorkGraphReadyRanges ranges(units.priority.empty() ? nullptr : units.priority.data(), plan.num_units,
                                      num_priorities);
    for (std::int32_t u = 0; u < plan.num_units; ++u) {
      if (units.indegree[static_cast<std::size_t>(u)] == 0) ranges.push(u);
    }
    std::vector<std::int32_t> ready(static_cast<std::size_t>(plan.num_units), Impl::WorkGraphQueue::empty);
    for (int p = 0; p < num_priorities; ++p) {
      for (std::int32_t s = ranges.range_begin()[static_cast<std::size_t>(p)]; s < ranges.tails()[static_cast<std::size_t>(p)]; ++s) {
        ready[static_cast<std::size_t>(s)] = ranges.slots()[static_cast<std::size_t>(s)];
      }
    }
    plan.ready_initial = impl_plan_type::to_space("Kokkos::WorkGraphPolicy::ready_initial", ready);
    plan.range_begin = ranges.range_begin();
    plan.tail_initial = ranges.tails();
    if (num_priorities == 1 && plan.num_units > 0) {
      plan.initial_items_prefix.assign(1, 0);
      for (std::int32_t k = 0; k < plan.tail_initial[0]; ++k) {
        const auto u = static_cast<std::size_t>(ready[static_cast<std::size_t>(k)]);
        const std::int64_t items = units.begin.empty() ? 1 : units.begin[u + 1] - units.begin[u];
        plan.initial_items_prefix.push_back(plan.initial_items_prefix.back() + items);
      }
    }
    plan.state = plan.make_state(std::max(1, static_cast<int>(m_space.concurrency())));
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

#include <impl/Kokkos_HostWorkGraph.hpp>

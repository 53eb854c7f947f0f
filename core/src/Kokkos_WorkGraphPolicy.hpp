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
#include <impl/Kokkos_PolicyTraits.hpp>
#include <impl/workgraph/Kokkos_WorkGraphAnalysis.hpp>
#include <impl/workgraph/Kokkos_WorkGraphLaunch.hpp>
#include <impl/workgraph/Kokkos_WorkGraphPlan.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace Kokkos {

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
      Impl::WorkGraphOrder order = Impl::work_graph_checked_order(who, g, numbered, pass.check.forward, workers,
                                                                  num_entries, item_priority, num_priorities,
                                                                  entry_rows.get());
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
      planned.push_back(Impl::work_graph_seed_units(g, num_entries, std::move(priority)));
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

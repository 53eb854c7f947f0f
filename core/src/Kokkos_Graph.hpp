#pragma once
// Kokkos::Experimental::Graph: Kokkos 4's explicit kernel graph.
//
//   auto graph = Kokkos::Experimental::create_graph(exec, [&](auto root) {
//     auto a = root.then_parallel_for("a", n, fa);
//     auto b = root.then_parallel_for("b", Kokkos::RangePolicy<Exec>(0, n), fb);
//     auto c = Kokkos::Experimental::when_all(a, b).then_parallel_reduce("c", n, fc, result_view);
//     c.then("report", KOKKOS_LAMBDA() { flag() = 1; });   // a single task: called once
//   });
//   graph.instantiate();   // optional: submit() instantiates a graph that is not yet
//   graph.submit();        // as many times as wanted; fence before reading results on the host
//   graph.submit(other);   // the same graph on another instance of Exec
//
// A node runs after all its predecessors.  Nodes can only be added to nodes that already
// exist, so the order in which they were created is a topological order; a submission runs
// the nodes in that order.  Reductions deliver into a View or a reducer over a View (a
// reducer over a host scalar could not complete asynchronously in Kokkos: it is rejected).
//
// On Cuda (Kokkos 4.7/5) instantiate() records the nodes into a CUDA graph by stream capture,
// native_graph() and native_graph_exec() give its handles, Graph(exec, cudaGraph_t) adds Kokkos
// nodes after a graph built with the CUDA API, and a submission is one cudaGraphLaunch; graphs
// with nodes that cannot be recorded (reductions, scans, team policies) run as below, and
// then_host nodes become host nodes of the graph: see Cuda/Kokkos_Cuda_Graph.hpp.
//
// A submission runs every node on one instance: submit(exec) on `exec`, submit() on the
// graph's own (the one given to create_graph), whatever instance a node's policy was built
// with; the policy keeps its bounds, chunk size, schedule, work tag and declared accesses
// (Impl::policy_on_space).  The one exception is a WorkGraphPolicy node, whose schedule is
// planned for its own instance's workers: it runs there.  then(label, functor) adds a single
// task, `functor()` (a KOKKOS_FUNCTION void operator()() const) called exactly once per
// submission, as a one-iteration launch on the submission's instance (on Cuda a one-thread
// kernel).  then_host(label, functor) (Kokkos 4.7) adds a host node: `functor()`, any host
// callable, runs on the calling thread once per submission, after the submission's instance
// has been fenced, so it sees everything its predecessors wrote.  On Cuda,
// cuda_capture(exec, functor) (Kokkos 4.7) adds a node whose functor(const Cuda&) issues work on
// the submission's stream.
//
// Built on the fusion layer (<Kokkos_Fusion.hpp>): when a node's policy declares its accesses
// (Kokkos::Experimental::with_accesses), a submission records the graph's nodes into a fusion
// window, so chains of such nodes over the same range run as one fused launch, and the
// window's analysis is memoized like any repeated window: the second submission of a graph
// pays no analysis.  Nodes without declared accesses run as plain launches, each flushing what
// was recorded before it.  With fusion off (KOKKOS_FUSION=0) every node runs as it is issued.
// A submission finishes before submit() returns (the host back ends are synchronous); fencing
// afterwards, as Kokkos requires, is then free.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Concepts.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_MDRangePolicy.hpp>
#include <Kokkos_Parallel.hpp>
#include <Kokkos_Parallel_Reduce.hpp>
#include <Kokkos_Parallel_Scan.hpp>
#include <Kokkos_Reducers.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace Kokkos::Experimental {

struct TypeErasedTag {};

template <class ExecutionSpace = DefaultExecutionSpace>
struct Graph;

template <class ExecutionSpace, class Kernel = TypeErasedTag, class Predecessor = TypeErasedTag>
class GraphNodeRef;

}  // namespace Kokkos::Experimental

namespace Kokkos::Impl {

// One node: the launch it issues on the submission's instance (none for the root and for
// when_all joins) and the nodes it waits for (indices of nodes created before it).
template <class ExecutionSpace>
struct GraphNodeRecord {
  std::function<void(const ExecutionSpace&)> launch;
  std::vector<std::size_t> predecessors;
  bool declares_accesses = false;
  // A then_host node's callable alone, for a back end that enqueues it in a native graph.
  std::function<void()> host_call;
  // Why the node cannot be recorded into a native graph (null: it can).
  const char* not_capturable = nullptr;
};

// A back end's native graph (Cuda: Cuda/Kokkos_Cuda_Graph.hpp); the host back ends have none.
template <class ExecutionSpace>
class GraphNative {
 public:
  static constexpr bool enabled = false;
  void note_node(const char*) {}
};

inline constexpr const char graph_reduce_not_capturable[] =
    "a parallel_reduce or parallel_scan node (its partials use the instance's shared scratch)";
inline constexpr const char graph_for_not_capturable[] =
    "a parallel_for node over a TeamPolicy or WorkGraphPolicy (team scratch is grown with a synchronisation; a "
    "WorkGraphPolicy runs on its own instance)";

// Calls launch(policy), with the policy moved to `exec` when it names another instance (the
// copy only then: a policy with declared accesses carries its declarations).
template <class Policy, class Launch>
void graph_launch_on(const Policy& policy, const typename Policy::execution_space& exec, const Launch& launch) {
  if constexpr (requires { bool(policy.space() == exec); }) {
    if (policy.space() == exec) {
      launch(policy);
      return;
    }
  }
  launch(policy_on_space(policy, exec));
}

// The body of a then() node: one iteration that calls the task once.
template <class Functor>
struct GraphThenFunctor {
  Functor task;
  KOKKOS_IMPL_DISABLE_EXEC_CHECK  // a host space's task may be a host-only callable
  KOKKOS_FUNCTION void operator()(std::int64_t) const { task(); }
};

}  // namespace Kokkos::Impl

#if defined(KOKKOS_ENABLE_CUDA)
#include <Cuda/Kokkos_Cuda_Graph.hpp>
#endif

namespace Kokkos::Impl {

template <class ExecutionSpace>
class GraphImpl {
 public:
  explicit GraphImpl(ExecutionSpace exec) : m_exec(std::move(exec)) { m_nodes.emplace_back(); }  // the root
  template <class Native>
  GraphImpl(ExecutionSpace exec, Native native) : m_exec(std::move(exec)), m_native(native) {
    m_nodes.emplace_back();
  }

  const ExecutionSpace& execution_space() const { return m_exec; }

  std::size_t add_node(GraphNodeRecord<ExecutionSpace> node) {
    if (m_instantiated) {
      throw_runtime_exception(
          "Kokkos::Experimental::Graph: a node was added after the graph was instantiated (or submitted); "
          "build the whole graph first");
    }
    m_any_declared = m_any_declared || node.declares_accesses;
    m_native.note_node(node.not_capturable);
    m_nodes.push_back(std::move(node));
    return m_nodes.size() - 1;
  }

  void instantiate() {
    if (m_instantiated) return;
    m_instantiated = true;
    if constexpr (GraphNative<ExecutionSpace>::enabled) {
      m_native.instantiate(m_exec, [this](const ExecutionSpace& exec) { record_nodes(exec); });
    }
  }

  // Runs every node on `exec`: as one native graph where the back end recorded one, otherwise
  // in creation order.
  void submit(const ExecutionSpace& exec) {
    instantiate();
    if constexpr (GraphNative<ExecutionSpace>::enabled) {
      if (m_native.launch(exec)) return;
    }
    const FusionScopeHooks& hooks = fusion_scope_hooks();
    const bool record = m_any_declared && hooks.open != nullptr;
    if (record) hooks.open();
    struct Close {
      bool active;
      ~Close() {
        if (active) fusion_scope_hooks().close();
      }
    } close{record};
    for (const GraphNodeRecord<ExecutionSpace>& node : m_nodes) {
      if (node.launch) node.launch(exec);
    }
  }

  std::size_t size() const { return m_nodes.size(); }
  const std::vector<std::size_t>& predecessors(std::size_t node) const { return m_nodes[node].predecessors; }
  GraphNative<ExecutionSpace>& native() { return m_native; }

 private:
  // The nodes as a native recording sees them: no fusion window (see Kokkos_Cuda_Graph.hpp), a
  // host node enqueued rather than called after a fence.
  void record_nodes(const ExecutionSpace& exec) {
    for (GraphNodeRecord<ExecutionSpace>& node : m_nodes) {
      if (node.host_call) {
        GraphNative<ExecutionSpace>::enqueue_host_call(exec, &node.host_call);
      } else if (node.launch) {
        node.launch(exec);
      }
    }
  }

  ExecutionSpace m_exec;
  std::vector<GraphNodeRecord<ExecutionSpace>> m_nodes;
  // After the nodes: destroyed first, as its host nodes call into them.
  GraphNative<ExecutionSpace> m_native;
  bool m_instantiated = false;
  bool m_any_declared = false;
};

struct GraphAccess;

}  // namespace Kokkos::Impl

namespace Kokkos::Experimental {

template <class ExecutionSpace>
struct [[nodiscard]] Graph {
  static_assert(Kokkos::is_execution_space_v<ExecutionSpace>,
                "Kokkos::Experimental::Graph: the template argument must be an execution space");

 public:
  using execution_space = ExecutionSpace;
  using graph = Graph;
  using root_t = GraphNodeRef<ExecutionSpace>;

  Graph(ExecutionSpace exec = ExecutionSpace{})
      : m_impl(std::make_shared<Kokkos::Impl::GraphImpl<ExecutionSpace>>(std::move(exec))) {}

#if defined(KOKKOS_ENABLE_CUDA)
  // Kokkos 4.7: a graph whose Kokkos nodes run after every node of `native` (a graph built with
  // the CUDA API); the Graph owns it from here on and destroys it.
  Graph(ExecutionSpace exec, cudaGraph_t native)
    requires std::is_same_v<ExecutionSpace, Kokkos::Cuda>
      : m_impl(std::make_shared<Kokkos::Impl::GraphImpl<ExecutionSpace>>(std::move(exec), native)) {}

  // Kokkos 4.7: the CUDA graph, the same handle before and after instantiate() (the Kokkos nodes
  // are recorded into it then), and the executable graph (null before instantiate()).  Both
  // throw for a graph that runs as in-order launches (see Cuda/Kokkos_Cuda_Graph.hpp).
  cudaGraph_t native_graph()
    requires std::is_same_v<ExecutionSpace, Kokkos::Cuda>
  {
    return m_impl->native().native_graph();
  }
  cudaGraphExec_t native_graph_exec()
    requires std::is_same_v<ExecutionSpace, Kokkos::Cuda>
  {
    return m_impl->native().native_graph_exec();
  }
#endif

  const ExecutionSpace& get_execution_space() const { return m_impl->execution_space(); }

  // Adding nodes afterwards is an error (Kokkos: undefined behaviour).
  void instantiate() { m_impl->instantiate(); }

  auto root_node() const { return root_t::impl_make(m_impl, 0); }

  // Runs every node once, predecessors first, on `exec` (every node: see the file's comment);
  // a graph may be submitted any number of times, on any instances.
  void submit(const execution_space& exec) const { m_impl->submit(exec); }
  // The same on the graph's own instance.
  void submit() const { m_impl->submit(m_impl->execution_space()); }

 private:
  std::shared_ptr<Kokkos::Impl::GraphImpl<ExecutionSpace>> m_impl;
};

template <class ExecutionSpace, class Kernel, class Predecessor>
class GraphNodeRef {
  using impl_t = Kokkos::Impl::GraphImpl<ExecutionSpace>;
  template <class, class, class>
  friend class GraphNodeRef;

 public:
  using execution_space = ExecutionSpace;
  using graph_kernel = Kernel;
  using graph_predecessor = Predecessor;

  GraphNodeRef() noexcept = default;
  template <class OtherKernel, class OtherPredecessor>
    requires(!std::is_same_v<GraphNodeRef, GraphNodeRef<ExecutionSpace, OtherKernel, OtherPredecessor>>)
  GraphNodeRef(const GraphNodeRef<ExecutionSpace, OtherKernel, OtherPredecessor>& other)  // NOLINT: implicit, as in Kokkos
      : m_graph(other.m_graph), m_node(other.m_node) {}

  // ---- then: a single task, functor() called once per submission ----
  template <class Label, class Functor>
    requires(std::is_constructible_v<std::string, Label> &&
             std::is_invocable_r_v<void, const std::decay_t<Functor>&>)
  auto then(Label&& label, const execution_space& exec, Functor&& functor) const {
    using task_t = Kokkos::Impl::GraphThenFunctor<std::decay_t<Functor>>;
    using policy_t = RangePolicy<execution_space, IndexType<std::int64_t>>;
    return add_launch(false, [label = std::string(std::forward<Label>(label)), policy = policy_t(exec, 0, 1),
                              task = task_t{std::forward<Functor>(functor)}](const execution_space& on) {
      Kokkos::Impl::graph_launch_on(policy, on, [&](const auto& p) { Kokkos::parallel_for(label, p, task); });
    });
  }
  template <class Label, class Functor>
    requires(std::is_constructible_v<std::string, Label> &&
             std::is_invocable_r_v<void, const std::decay_t<Functor>&>)
  auto then(Label&& label, Functor&& functor) const {
    return then(std::forward<Label>(label), execution_space{}, std::forward<Functor>(functor));
  }
  // Without a label (a kdag convenience, like the unlabelled then_parallel_* forms).
  template <class Functor>
    requires std::is_invocable_r_v<void, const std::decay_t<Functor>&>
  auto then(Functor&& functor) const {
    return then(std::string(), execution_space{}, std::forward<Functor>(functor));
  }

  // ---- then_host (Kokkos 4.7): functor() called on the host, once per submission ----
  // The submission's instance is fenced first: the predecessors' launches may still be running
  // (on Cuda) or recorded in a fusion window, and the host callable must see their results.
  template <class Label, class Functor>
    requires(std::is_constructible_v<std::string, Label> &&
             std::is_invocable_r_v<void, const std::decay_t<Functor>&>)
  auto then_host(Label&& label, Functor&& functor) const {
    auto shared = std::make_shared<std::decay_t<Functor>>(std::forward<Functor>(functor));
    return add_launch(
        false,
        [label = std::string(std::forward<Label>(label)), shared](const execution_space& on) {
          on.fence("Kokkos::Experimental::GraphNodeRef::then_host: before " + label);
          (*shared)();
        },
        nullptr, [shared] { (*shared)(); });
  }

#if defined(KOKKOS_ENABLE_CUDA)
  // ---- cuda_capture (Kokkos 4.7, Cuda graphs): functor(exec) issues work on exec's stream ----
  // The work it puts on exec.cuda_stream() (cuBLAS calls, cudaMemcpyAsync, kernels) runs after
  // the predecessors and before the successors.  In a graph recorded as a CUDA graph the functor
  // is called once, by instantiate(), with the recording instance, and its work is replayed by
  // every submission, as in Kokkos (which calls it when the node is added); in a graph that runs
  // as in-order launches (Cuda/Kokkos_Cuda_Graph.hpp) it is called at each submission with the
  // submission's instance.  The functor is kept for the graph's lifetime, as in Kokkos.
  template <class Functor>
    requires(std::is_same_v<ExecutionSpace, Kokkos::Cuda> &&
             std::is_invocable_v<const std::decay_t<Functor>&, const Kokkos::Cuda&>)
  auto cuda_capture(const execution_space& exec, Functor&& functor) const {
    (void)exec;  // the work goes on the instance the graph is submitted on
    return add_launch(false, [functor = std::decay_t<Functor>(std::forward<Functor>(functor))](
                                 const execution_space& on) { functor(on); });
  }
#endif

  // ---- then_parallel_for ----
  template <class Policy, class Functor>
    requires is_execution_policy_v<std::remove_cvref_t<Policy>>
  auto then_parallel_for(std::string label, Policy&& policy, Functor&& functor) const {
    check_space<Policy>();
    using policy_t = std::remove_cvref_t<Policy>;
    constexpr bool recordable = is_range_policy<policy_t>::value || is_mdrange_policy<policy_t>::value;
    return add_launch(
        declares<Policy>(),
        [label = std::move(label), policy = policy_t(policy),
         functor = std::decay_t<Functor>(functor)](const execution_space& exec) {
          Kokkos::Impl::graph_launch_on(policy, exec, [&](const auto& p) { Kokkos::parallel_for(label, p, functor); });
        },
        recordable ? nullptr : Kokkos::Impl::graph_for_not_capturable);
  }
  template <class Policy, class Functor>
    requires is_execution_policy_v<std::remove_cvref_t<Policy>>
  auto then_parallel_for(Policy&& policy, Functor&& functor) const {
    return then_parallel_for(std::string(), std::forward<Policy>(policy), std::forward<Functor>(functor));
  }
  template <class Functor>
  auto then_parallel_for(std::string label, std::size_t n, Functor&& functor) const {
    return then_parallel_for(std::move(label), RangePolicy<execution_space>(0, n), std::forward<Functor>(functor));
  }
  template <class Functor>
  auto then_parallel_for(std::size_t n, Functor&& functor) const {
    return then_parallel_for(std::string(), n, std::forward<Functor>(functor));
  }

  // ---- then_parallel_reduce: into a View or a reducer over a View ----
  template <class Policy, class Functor, class ReturnType>
    requires is_execution_policy_v<std::remove_cvref_t<Policy>>
  auto then_parallel_reduce(std::string label, Policy&& policy, Functor&& functor, ReturnType&& result) const {
    check_space<Policy>();
    using result_t = std::remove_cvref_t<ReturnType>;
    static_assert(is_view_v<result_t> || is_reducer_v<result_t>,
                  "Kokkos::Experimental::GraphNodeRef::then_parallel_reduce: the result must be a View or a reducer; "
                  "a graph's reductions complete when the graph runs, not when the node is created");
    if constexpr (is_reducer_v<result_t>) {
      if (result.references_scalar()) {
        Kokkos::Impl::throw_runtime_exception(
            "Kokkos::Experimental::GraphNodeRef::then_parallel_reduce: a reducer that references a scalar cannot be "
            "used in a graph (it would be read before the graph runs); construct the reducer from a View");
      }
    }
    return add_launch(
        declares<Policy>(),
        [label = std::move(label), policy = std::remove_cvref_t<Policy>(policy), functor = std::decay_t<Functor>(functor),
         result = result_t(result)](const execution_space& exec) {
          Kokkos::Impl::graph_launch_on(policy, exec,
                                        [&](const auto& p) { Kokkos::parallel_reduce(label, p, functor, result); });
        },
        Kokkos::Impl::graph_reduce_not_capturable);
  }
  template <class Policy, class Functor, class ReturnType>
    requires is_execution_policy_v<std::remove_cvref_t<Policy>>
  auto then_parallel_reduce(Policy&& policy, Functor&& functor, ReturnType&& result) const {
    return then_parallel_reduce(std::string(), std::forward<Policy>(policy), std::forward<Functor>(functor),
                                std::forward<ReturnType>(result));
  }
  template <class Functor, class ReturnType>
  auto then_parallel_reduce(std::string label, typename execution_space::size_type n, Functor&& functor,
                            ReturnType&& result) const {
    return then_parallel_reduce(std::move(label), RangePolicy<execution_space>(0, n), std::forward<Functor>(functor),
                                std::forward<ReturnType>(result));
  }
  template <class Functor, class ReturnType>
  auto then_parallel_reduce(typename execution_space::size_type n, Functor&& functor, ReturnType&& result) const {
    return then_parallel_reduce(std::string(), n, std::forward<Functor>(functor), std::forward<ReturnType>(result));
  }

  // ---- then_parallel_scan ----
  template <class Policy, class Functor>
    requires is_execution_policy_v<std::remove_cvref_t<Policy>>
  auto then_parallel_scan(std::string label, Policy&& policy, Functor&& functor) const {
    check_space<Policy>();
    return add_launch(
        false,
        [label = std::move(label), policy = std::remove_cvref_t<Policy>(policy),
         functor = std::decay_t<Functor>(functor)](const execution_space& exec) {
          Kokkos::Impl::graph_launch_on(policy, exec, [&](const auto& p) { Kokkos::parallel_scan(label, p, functor); });
        },
        Kokkos::Impl::graph_reduce_not_capturable);
  }
  template <class Policy, class Functor>
    requires is_execution_policy_v<std::remove_cvref_t<Policy>>
  auto then_parallel_scan(Policy&& policy, Functor&& functor) const {
    return then_parallel_scan(std::string(), std::forward<Policy>(policy), std::forward<Functor>(functor));
  }
  template <class Functor>
  auto then_parallel_scan(std::string label, std::size_t n, Functor&& functor) const {
    return then_parallel_scan(std::move(label), RangePolicy<execution_space>(0, n), std::forward<Functor>(functor));
  }
  template <class Functor>
  auto then_parallel_scan(std::size_t n, Functor&& functor) const {
    return then_parallel_scan(std::string(), n, std::forward<Functor>(functor));
  }

  // Which node of which graph this refers to (for Graph and when_all).
  std::size_t impl_node_index() const { return m_node; }
  static GraphNodeRef impl_make(std::weak_ptr<impl_t> graph, std::size_t node) {
    GraphNodeRef ref;
    ref.m_graph = std::move(graph);
    ref.m_node = node;
    return ref;
  }
  std::shared_ptr<impl_t> impl_graph() const {
    std::shared_ptr<impl_t> g = m_graph.lock();
    if (!g) {
      Kokkos::Impl::throw_runtime_exception(
          "Kokkos::Experimental::GraphNodeRef: the node's graph no longer exists (or the node was default-constructed)");
    }
    return g;
  }

 private:
  template <class Policy>
  static constexpr bool declares() {
    return Kokkos::Impl::is_fusion_access_policy<std::remove_cvref_t<Policy>>::value;
  }
  template <class Policy>
  static constexpr void check_space() {
    static_assert(std::is_same_v<typename std::remove_cvref_t<Policy>::execution_space, execution_space>,
                  "Kokkos::Experimental::GraphNodeRef: the policy's execution space differs from the graph's");
  }

  template <class Launch>
  GraphNodeRef<ExecutionSpace> add_launch(bool declares_accesses, Launch&& launch,
                                          const char* not_capturable = nullptr,
                                          std::function<void()> host_call = {}) const {
    std::shared_ptr<impl_t> g = impl_graph();
    Kokkos::Impl::GraphNodeRecord<ExecutionSpace> node;
    node.launch = std::forward<Launch>(launch);
    node.predecessors.push_back(m_node);
    node.declares_accesses = declares_accesses;
    node.not_capturable = not_capturable;
    node.host_call = std::move(host_call);
    return GraphNodeRef<ExecutionSpace>::impl_make(g, g->add_node(std::move(node)));
  }

  std::weak_ptr<impl_t> m_graph;
  std::size_t m_node = 0;
};

// A node that follows every one of `refs` (all of one graph) and launches nothing.
template <class... Refs>
auto when_all(Refs&&... refs) {
  static_assert(sizeof...(Refs) > 0, "Kokkos::Experimental::when_all: needs at least one predecessor");
  using first_t = std::remove_cvref_t<std::tuple_element_t<0, std::tuple<Refs...>>>;
  using space = typename first_t::execution_space;
  using node_t = GraphNodeRef<space>;
  const node_t first = std::get<0>(std::forward_as_tuple(refs...));
  std::shared_ptr<Kokkos::Impl::GraphImpl<space>> g = first.impl_graph();
  Kokkos::Impl::GraphNodeRecord<space> join;
  (
      [&](const node_t& ref) {
        if (ref.impl_graph() != g) {
          Kokkos::Impl::throw_runtime_exception("Kokkos::Experimental::when_all: the nodes belong to different graphs");
        }
        join.predecessors.push_back(ref.impl_node_index());
      }(node_t(refs)),
      ...);
  return node_t::impl_make(g, g->add_node(std::move(join)));
}

template <class ExecutionSpace, class Closure>
  requires is_execution_space_v<ExecutionSpace>
Graph<ExecutionSpace> create_graph(ExecutionSpace ex, Closure&& closure) {
  Graph<ExecutionSpace> graph{std::move(ex)};
  std::forward<Closure>(closure)(graph.root_node());
  return graph;
}

template <class ExecutionSpace = DefaultExecutionSpace, class Closure>
  requires(!is_execution_space_v<std::remove_cvref_t<Closure>>)
Graph<ExecutionSpace> create_graph(Closure&& closure) {
  return create_graph(ExecutionSpace{}, std::forward<Closure>(closure));
}

}  // namespace Kokkos::Experimental

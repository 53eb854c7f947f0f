// WorkGraphPolicy (seed 001 §2.4, §3.3): the seed's Fibonacci work DAG, random DAGs checked
// edge by edge, shapes (empty, one item, chain, fan-in, fan-out), work tags, parallel_reduce,
// priorities, and rejection of malformed and cyclic graphs, on every back end (Kokkos::Cuda
// included, skipped naming why without a GPU; the functors write device-accessible Views).  The
// tests of the one-worker order, of launches nested in other launches and of the plans made
// for the host's workers run on the host back ends (WorkGraphHost).
#include "TaskFibonacci.hpp"
#include "TestCommon.hpp"
#include "WorkGraphTestCommon.hpp"

#include <Kokkos_Crs.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

template <class Space>
struct WorkGraph : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(WorkGraph, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);
template <class Space>
struct WorkGraphHost : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(WorkGraphHost, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

using Options = Kokkos::Experimental::WorkGraphOptions;
using Edges = Kokkos::Test::WorkGraphEdges;
using Kokkos::Test::expect_rejected;

template <class Policy>
typename Policy::graph_type make_graph(std::int32_t n, const Edges& edges) {
  return Kokkos::Test::make_work_graph_of<Policy>(n, edges);
}

// A random DAG whose index order is not a topological order: item at position b of a random
// permutation waits on up to max_preds items at earlier positions (within `window` of it when
// window > 0).
Edges random_dag(std::int32_t n, int max_preds, std::int32_t window, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::int32_t> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  Edges edges;
  for (std::int32_t b = 1; b < n; ++b) {
    const int k = static_cast<int>(rng() % static_cast<unsigned>(max_preds + 1));
    const std::int32_t lo = window > 0 ? std::max(0, b - window) : 0;
    for (int e = 0; e < k; ++e) {
      const std::int32_t a = lo + static_cast<std::int32_t>(rng() % static_cast<unsigned>(b - lo));
      edges.emplace_back(perm[static_cast<std::size_t>(a)], perm[static_cast<std::size_t>(b)]);
    }
  }
  return edges;
}

// Each call takes a ticket when it starts and one when it returns, from one atomic counter.
// Raw pointers into memory of the launch's space.
struct TicketFunctor {
  std::int64_t* counter;
  std::int64_t* start;
  std::int64_t* finish;
  int* calls;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    start[i] = Kokkos::atomic_fetch_add(counter, std::int64_t(1));
    Kokkos::atomic_increment(&calls[i]);
    finish[i] = Kokkos::atomic_fetch_add(counter, std::int64_t(1));
  }
};

// The tickets of one launch, in `Memory`.
template <class Memory = Kokkos::HostSpace>
struct Tickets {
  Kokkos::View<std::int64_t*, Memory> counter, start, finish;
  Kokkos::View<int*, Memory> calls;
  explicit Tickets(std::int32_t n)
      : counter("counter", 1), start("start", static_cast<std::size_t>(n)), finish("finish", static_cast<std::size_t>(n)),
        calls("calls", static_cast<std::size_t>(n)) {
    Kokkos::deep_copy(start, std::int64_t(-1));
    Kokkos::deep_copy(finish, std::int64_t(-1));
  }
  TicketFunctor functor() const { return {counter.data(), start.data(), finish.data(), calls.data()}; }
};

// Every item ran exactly once, and for every edge i -> j, j started after i returned.
template <class Memory>
void check_tickets(const Tickets<Memory>& t, const Edges& edges, const std::string& what) {
  const auto calls = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), t.calls);
  const auto start = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), t.start);
  const auto finish = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), t.finish);
  for (std::size_t i = 0; i < calls.extent(0); ++i) ASSERT_EQ(calls(i), 1) << what << ": item " << i;
  for (const auto& [i, j] : edges) {
    ASSERT_LT(finish(i), start(j)) << what << ": " << j << " started before " << i << " returned";
  }
}

template <class Space>
using SpaceTickets = Tickets<typename Space::memory_space>;

template <class Space>
void run_tickets(std::int32_t n, const Edges& edges, const Options& options, const std::string& what) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
  const Policy policy(make_graph<Policy>(n, edges), options);
  ASSERT_EQ(policy.num_items(), n);
  for (int launch = 0; launch < 2; ++launch) {  // a policy can be launched again
    SpaceTickets<Space> t(n);
    Kokkos::parallel_for("tickets", policy, t.functor());
    check_tickets(t, edges, what + " launch " + std::to_string(launch));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

const Options option_sets[] = {Options{}, Options{.check_graph = true, .unit_size = 1},
                               Options{.check_graph = true, .unit_size = 5}, Options{.check_graph = false}};
const char* option_names[] = {"default", "unit_size=1", "unit_size=5", "unchecked"};

TYPED_TEST(WorkGraph, RandomDagsRespectEveryEdge) {
  for (std::int32_t n : {1, 2, 10, 1000, 30000}) {
    for (int preds : {0, 1, 3}) {
      for (std::int32_t window : {0, 50}) {
        const Edges edges = random_dag(n, preds, window, static_cast<unsigned>(n * 7 + preds * 3 + window));
        for (std::size_t o = 0; o < std::size(option_sets); ++o) {
          run_tickets<TypeParam>(n, edges, option_sets[o],
                                 "n=" + std::to_string(n) + " preds=" + std::to_string(preds) +
                                     " window=" + std::to_string(window) + " " + option_names[o]);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

TYPED_TEST(WorkGraph, Shapes) {
  const std::int32_t n = 20000;
  Edges chain, fan_out, fan_in, diamond;
  for (std::int32_t i = 0; i + 1 < n; ++i) chain.emplace_back(i, i + 1);
  for (std::int32_t i = 1; i < n; ++i) fan_out.emplace_back(0, i);
  for (std::int32_t i = 0; i + 1 < n; ++i) fan_in.emplace_back(i, n - 1);
  for (std::int32_t i = 1; i + 1 < n; ++i) {  // 0 -> everything -> n-1
    diamond.emplace_back(0, i);
    diamond.emplace_back(i, n - 1);
  }
  for (std::size_t o = 0; o < std::size(option_sets); ++o) {
    run_tickets<TypeParam>(1, {}, option_sets[o], std::string("one item ") + option_names[o]);
    run_tickets<TypeParam>(n, {}, option_sets[o], std::string("no edges ") + option_names[o]);
    run_tickets<TypeParam>(n, chain, option_sets[o], std::string("chain ") + option_names[o]);
    run_tickets<TypeParam>(n, fan_out, option_sets[o], std::string("fan-out ") + option_names[o]);
    run_tickets<TypeParam>(n, fan_in, option_sets[o], std::string("fan-in ") + option_names[o]);
    run_tickets<TypeParam>(n, diamond, option_sets[o], std::string("diamond ") + option_names[o]);
    // Duplicate edges count twice in the waiting count and are released twice.
    run_tickets<TypeParam>(3, {{0, 2}, {0, 2}, {1, 2}}, option_sets[o], std::string("duplicates ") + option_names[o]);
  }
}

// Units are cut along the item numbering when every edge goes forward (or every edge backward)
// in it, and along Kahn's order otherwise: all three, with several unit sizes.
TYPED_TEST(WorkGraph, NumberingDirections) {
  const std::int32_t n = 20000;
  Edges forward, backward, tree;
  std::mt19937 rng(5);
  for (std::int32_t j = 1; j < n; ++j) {
    for (int e = 0; e < 2; ++e) {
      const auto i = static_cast<std::int32_t>(rng() % static_cast<unsigned>(j));
      forward.emplace_back(i, j);
      backward.emplace_back(n - 1 - i, n - 1 - j);
    }
    tree.emplace_back(j, (j - 1) / 2);  // children before parents, as in a reduction
  }
  for (const Options& options : {Options{}, Options{.check_graph = true, .unit_size = 2},
                                 Options{.check_graph = true, .unit_size = 16},
                                 Options{.check_graph = true, .unit_size = 300}}) {
    const std::string size = " unit_size=" + std::to_string(options.unit_size);
    run_tickets<TypeParam>(n, forward, options, "forward" + size);
    run_tickets<TypeParam>(n, backward, options, "backward" + size);
    run_tickets<TypeParam>(n, tree, options, "tree" + size);
  }
}

struct CountCalls {
  int* count;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t) const { Kokkos::atomic_increment(count); }
};
struct SumOfIndices {
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i, long& s) const { s += i; }
};
struct LargestIndex {
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i, int& m) const { m = Kokkos::max(m, i); }
};

TYPED_TEST(WorkGraph, EmptyGraph) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  Kokkos::View<int*, typename TypeParam::memory_space> calls("calls", 1);
  const Policy from_default{typename Policy::graph_type()};  // row map of extent 0
  EXPECT_EQ(from_default.num_items(), 0);
  Kokkos::parallel_for(from_default, CountCalls{calls.data()});
  const Policy from_one_offset(make_graph<Policy>(0, {}));  // row map {0}
  Kokkos::parallel_for("empty", from_one_offset, CountCalls{calls.data()});
  EXPECT_EQ(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), calls)(0), 0);
  for (const Options& options : {Options{}, Options{.check_graph = false}}) {
    long sum = 42;
    Kokkos::parallel_reduce(Policy(typename Policy::graph_type(), options), SumOfIndices{}, sum);
    EXPECT_EQ(sum, 0);
    int largest = 0;
    Kokkos::parallel_reduce(Policy(make_graph<Policy>(0, {}), options), LargestIndex{}, Kokkos::Max<int>(largest));
    EXPECT_EQ(largest, Kokkos::reduction_identity<int>::max());
  }
}

// ---- the seed's Figure 3.6 / Kokkos' TestWorkGraph: naive Fibonacci as a work DAG ------------

template <class ExecSpace>
struct FibonacciWorkGraph {
  using MemorySpace = typename ExecSpace::memory_space;
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, ExecSpace>;
  using Graph = typename Policy::graph_type;
  using RowMap = typename Graph::row_map_type;
  using Entries = typename Graph::entries_type;
  using Values = Kokkos::View<long*, MemorySpace>;

  long m_input;
  Graph m_graph;
  Graph m_transpose;
  Values m_values;

  explicit FibonacciWorkGraph(long arg_input) : m_input(arg_input) {
    form_graph();
    transpose_crs(m_transpose, m_graph);
  }

  struct HostEntry {
    long input;
    std::int32_t parent;
  };
  std::vector<HostEntry> form_host_graph() const {
    std::vector<HostEntry> g;
    g.push_back({m_input, -1});
    for (std::int32_t i = 0; i < std::int32_t(g.size()); ++i) {
      auto e = g.at(std::size_t(i));
      if (e.input < 2) continue;
      g.push_back({e.input - 1, i});
      g.push_back({e.input - 2, i});
    }
    return g;
  }

  void form_graph() {
    auto hg = form_host_graph();
    m_graph.row_map = RowMap("row_map", hg.size() + 1);
    m_graph.entries = Entries("entries", hg.size() - 1);
    m_values = Values("values", hg.size());
    auto h_row_map = Kokkos::create_mirror_view(m_graph.row_map);
    auto h_entries = Kokkos::create_mirror_view(m_graph.entries);
    auto h_values = Kokkos::create_mirror_view(m_values);
    h_row_map(0) = 0;
    for (std::int32_t i = 0; i < std::int32_t(hg.size()); ++i) {
      auto& e = hg.at(std::size_t(i));
      h_row_map(i + 1) = i;
      if (e.input < 2) h_values(i) = e.input;
      if (e.parent == -1) continue;
      h_entries(i - 1) = e.parent;
    }
    Kokkos::deep_copy(m_graph.row_map, h_row_map);
    Kokkos::deep_copy(m_graph.entries, h_entries);
    Kokkos::deep_copy(m_values, h_values);
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    const auto begin = m_transpose.row_map(i);
    const auto end = m_transpose.row_map(i + 1);
    for (auto j = begin; j < end; ++j) m_values(i) += m_values(m_transpose.entries(j));
  }

  long run(const Options& options) {
    Kokkos::parallel_for("fibonacci", Policy(m_graph, options), *this);
    Kokkos::fence();
    auto h_values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m_values);
    return h_values(0);
  }
};

TYPED_TEST(WorkGraph, Fibonacci) {
  for (long n = 0; n < 27; ++n) {
    FibonacciWorkGraph<TypeParam> f(n);
    EXPECT_EQ(f.m_values.extent(0), n == 26 ? 392835u : f.m_values.extent(0));
    ASSERT_EQ(f.run(Options{}), Kokkos::Test::serial_fibonacci(n)) << "n = " << n;
  }
}

TYPED_TEST(WorkGraph, FibonacciUncheckedAndItemUnits) {
  for (long n : {0L, 1L, 2L, 5L, 17L, 22L}) {
    FibonacciWorkGraph<TypeParam> unchecked(n);
    ASSERT_EQ(unchecked.run(Options{.check_graph = false}), Kokkos::Test::serial_fibonacci(n));
    FibonacciWorkGraph<TypeParam> items(n);
    ASSERT_EQ(items.run(Options{.check_graph = true, .unit_size = 1}), Kokkos::Test::serial_fibonacci(n));
  }
}

// ---- policy traits, work tags, reduce ---------------------------------------------------------

struct TagA {};
struct TagB {};
struct TaggedFunctor {
  int* out;  // in memory of the launch's space
  KOKKOS_INLINE_FUNCTION void operator()(TagA, std::int64_t i) const { out[i] += 1; }
  KOKKOS_INLINE_FUNCTION void operator()(TagB, std::int64_t i) const { out[i] += 10; }
  KOKKOS_INLINE_FUNCTION void operator()(TagA, std::int64_t i, long& sum) const { sum += i; }
};

TYPED_TEST(WorkGraph, PolicyTraits) {
  using P1 = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  static_assert(std::is_same_v<typename P1::index_type, std::int32_t>);
  static_assert(std::is_same_v<typename P1::member_type, std::int32_t>);
  static_assert(std::is_same_v<typename P1::execution_space, TypeParam>);
  static_assert(std::is_void_v<typename P1::work_tag>);
  static_assert(std::is_same_v<typename P1::graph_type, Kokkos::Crs<std::int32_t, TypeParam, void, std::int32_t>>);
  static_assert(Kokkos::is_execution_policy_v<P1>);
  // Properties in any order, the index type through IndexType<>, a work tag.
  using P2 = Kokkos::WorkGraphPolicy<TagA, TypeParam, Kokkos::IndexType<std::int64_t>>;
  static_assert(std::is_same_v<typename P2::index_type, std::int64_t>);
  static_assert(std::is_same_v<typename P2::work_tag, TagA>);
  static_assert(std::is_same_v<typename P2::graph_type::row_map_type::value_type, std::int64_t>);
  static_assert(Kokkos::is_work_graph_policy<P2>::value);
  SUCCEED();
}

TYPED_TEST(WorkGraph, WorkTags) {
  using PA = Kokkos::WorkGraphPolicy<std::int64_t, TypeParam, TagA>;
  using PB = Kokkos::WorkGraphPolicy<TagB, TypeParam, Kokkos::IndexType<std::int64_t>>;
  const Edges edges = random_dag(500, 2, 0, 5u);
  Kokkos::View<int*, typename TypeParam::memory_space> out("out", 500);
  TaggedFunctor f{out.data()};
  Kokkos::parallel_for(PA(make_graph<PA>(500, edges)), f);
  Kokkos::parallel_for("tagged", PB(make_graph<PB>(500, edges)), f);
  const auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int i = 0; i < 500; ++i) ASSERT_EQ(h_out(i), 11);
  long sum = 0;
  Kokkos::parallel_reduce(PA(make_graph<PA>(500, edges)), f, sum);
  EXPECT_EQ(sum, 500L * 499 / 2);
}

// Each item's depth is one more than its deepest predecessor's, read through the transposed
// graph while the DAG runs; the largest depth, reduced, is the critical path.
template <class Space>
struct DepthFunctor {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
  typename Policy::graph_type predecessors;
  Kokkos::View<int*, typename Space::memory_space> depth;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i, int& deepest) const {
    int d = 0;
    for (auto k = predecessors.row_map(i); k < predecessors.row_map(i + 1); ++k) {
      d = Kokkos::max(d, depth(predecessors.entries(k)));
    }
    depth(i) = d + 1;
    deepest = Kokkos::max(deepest, d + 1);
  }
};

TYPED_TEST(WorkGraph, ReduceCriticalPath) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  for (std::int32_t n : {1, 7, 2000, 40000}) {
    const Edges edges = random_dag(n, 2, 100, static_cast<unsigned>(n));
    // The longest path, on the host, by relaxing edges in a topological order (Kahn).
    std::vector<std::vector<std::int32_t>> succ(static_cast<std::size_t>(n));
    std::vector<int> indeg(static_cast<std::size_t>(n), 0), depth(static_cast<std::size_t>(n), 1);
    for (const auto& [i, j] : edges) {
      succ[static_cast<std::size_t>(i)].push_back(j);
      ++indeg[static_cast<std::size_t>(j)];
    }
    std::vector<std::int32_t> queue;
    for (std::int32_t i = 0; i < n; ++i) {
      if (indeg[static_cast<std::size_t>(i)] == 0) queue.push_back(i);
    }
    int expected = 0;
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::int32_t i = queue[q];
      expected = std::max(expected, depth[static_cast<std::size_t>(i)]);
      for (std::int32_t j : succ[static_cast<std::size_t>(i)]) {
        depth[static_cast<std::size_t>(j)] = std::max(depth[static_cast<std::size_t>(j)], depth[static_cast<std::size_t>(i)] + 1);
        if (--indeg[static_cast<std::size_t>(j)] == 0) queue.push_back(j);
      }
    }
    const auto graph = make_graph<Policy>(n, edges);
    DepthFunctor<TypeParam> f;
    transpose_crs(f.predecessors, graph);
    for (const Options& options : option_sets) {
      f.depth = Kokkos::View<int*, typename TypeParam::memory_space>("depth", static_cast<std::size_t>(n));
      int deepest = 0;
      Kokkos::parallel_reduce("depth", Policy(graph, options), f, Kokkos::Max<int>(deepest));
      ASSERT_EQ(deepest, expected) << "n = " << n;
      int sum_of_maxima = 0;
      Kokkos::parallel_reduce(Policy(graph, options), f, sum_of_maxima);  // Sum over workers' maxima
      ASSERT_GE(sum_of_maxima, expected);
    }
  }
}

// ---- priorities -------------------------------------------------------------------------------

using Priority = Kokkos::Experimental::WorkGraphPriority;

// The order one worker runs the items in.  A launch from inside a parallel region runs on one
// worker, so this observes the one-worker order on every back end.
template <class Space>
std::vector<std::int32_t> one_worker_order(std::int32_t n, const Edges& edges, const std::vector<Priority>& priority,
                                           const Options& options) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
  Kokkos::View<Priority*, typename Space::memory_space> p("priority", priority.size());
  auto hp = Kokkos::create_mirror_view(p);
  for (std::size_t i = 0; i < priority.size(); ++i) hp(i) = priority[i];
  Kokkos::deep_copy(p, hp);
  const Policy policy(make_graph<Policy>(n, edges), p, options);
  std::vector<std::int32_t> order;
  order.reserve(static_cast<std::size_t>(n));
  auto record = [&order](std::int32_t i) { order.push_back(i); };
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, 1), [&](std::int64_t) { Kokkos::parallel_for(policy, record); });
  return order;
}

template <class Space>
void expect_one_worker_order(std::int32_t n, const Edges& edges, const std::vector<Priority>& priority,
                             const std::vector<std::int32_t>& expected) {
  EXPECT_EQ(one_worker_order<Space>(n, edges, priority, Options{}), expected);
  // The seed's per-item queue (no construction check) runs the same order on one worker.
  EXPECT_EQ(one_worker_order<Space>(n, edges, priority, Options{.check_graph = false}), expected);
}

TYPED_TEST(WorkGraphHost, PrioritiesOnOneWorker) {
  constexpr Priority H = Priority::High, R = Priority::Regular, L = Priority::Low;
  // No edges: by priority, first in first out (index order) within one.
  expect_one_worker_order<TypeParam>(7, {}, {L, R, H, L, H, R, R}, {2, 4, 1, 5, 6, 0, 3});
  // The successor just made ready runs next (1 before 3, which was ready earlier)...
  expect_one_worker_order<TypeParam>(4, {{0, 1}, {1, 2}}, {R, R, R, R}, {0, 1, 2, 3});
  // ... the most urgent of them when several become ready ...
  expect_one_worker_order<TypeParam>(4, {{0, 1}, {0, 2}}, {R, L, H, R}, {0, 2, 3, 1});
  // ... unless a ready item of higher priority is waiting.
  expect_one_worker_order<TypeParam>(3, {{0, 2}}, {H, H, R}, {0, 1, 2});
  // A low priority item runs only when nothing else is ready, even if ready from the start.
  expect_one_worker_order<TypeParam>(5, {{1, 2}, {2, 3}}, {L, R, R, R, H}, {4, 1, 2, 3, 0});
}

TYPED_TEST(WorkGraph, PriorityLevelsAndBadPriorities) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  const std::int32_t n = 3000;
  const Edges edges = random_dag(n, 2, 40, 11u);
  const auto graph = make_graph<Policy>(n, edges);
  // Sixteen levels as plain integers, on all workers: every edge still holds.
  Kokkos::View<int*, Kokkos::HostSpace> levels("levels", n);
  for (std::int32_t i = 0; i < n; ++i) levels(i) = (i * 7) % 16;
  for (const Options& options : option_sets) {
    SpaceTickets<TypeParam> t(n);
    Kokkos::parallel_for(Policy(graph, levels, options), t.functor());
    check_tickets(t, edges, "16 priority levels");
  }
  auto expect_message = [&](const auto& priorities, const std::string& expected) {
    try {
      const Policy policy(graph, priorities);
      ADD_FAILURE() << "no exception; expected " << expected;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  Kokkos::View<int*, Kokkos::HostSpace> short_view("short", n - 1);
  expect_message(short_view, "the priority View has extent 2999 but the graph has 3000 work items");
  levels(17) = 16;
  expect_message(levels, "priority(17) = 16 is outside [0, 16)");
  levels(17) = -1;
  expect_message(levels, "priority(17) = -1 is outside [0, 16)");
}

// ---- checks -----------------------------------------------------------------------------------

template <class Policy>
typename Policy::graph_type raw_graph(const std::vector<std::int32_t>& rows, const std::vector<std::int32_t>& entries) {
  typename Policy::graph_type g;
  g.row_map = typename Policy::graph_type::row_map_type("row_map", rows.size());
  g.entries = typename Policy::graph_type::entries_type("entries", entries.size());
  auto hr = Kokkos::create_mirror_view(g.row_map);
  auto he = Kokkos::create_mirror_view(g.entries);
  for (std::size_t i = 0; i < rows.size(); ++i) hr(i) = rows[i];
  for (std::size_t i = 0; i < entries.size(); ++i) he(i) = entries[i];
  Kokkos::deep_copy(g.row_map, hr);
  Kokkos::deep_copy(g.entries, he);
  return g;
}

TYPED_TEST(WorkGraph, MalformedGraphsRejected) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  for (const Options& options : {Options{}, Options{.check_graph = false}}) {
    expect_rejected<Policy>(raw_graph<Policy>({1, 1, 2}, {1, 0}), "malformed graph: row_map(0) = 1, expected 0",
                            options);
    expect_rejected<Policy>(raw_graph<Policy>({0, 2, 1, 3}, {1, 2, 0}),
                            "malformed graph: row_map decreases at row 1: row_map(1) = 2 > row_map(2) = 1", options);
    expect_rejected<Policy>(raw_graph<Policy>({0, 1, 2}, {1, 0, 0}),
                            "malformed graph: row_map(2) = 2 (the last offset) differs from entries.extent(0) = 3",
                            options);
    expect_rejected<Policy>(raw_graph<Policy>({0, 2, 2, 2}, {1, 3}),
                            "malformed graph: entries(1) = 3 (in row 0) is outside the work items [0, 3)", options);
    expect_rejected<Policy>(raw_graph<Policy>({0, 0, 1}, {-1}),
                            "malformed graph: entries(0) = -1 (in row 1) is outside the work items [0, 2)", options);
    expect_rejected<Policy>(raw_graph<Policy>({}, {0, 0}),
                            "malformed graph: row_map is empty (no work items) but entries.extent(0) = 2", options);
  }
}

TYPED_TEST(WorkGraph, CyclesRejected) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  expect_rejected<Policy>(make_graph<Policy>(1, {{0, 0}}),
                          "the graph has a cycle, so its work items cannot all run: 0 -> 0. 1 of 1 work items are on "
                          "a cycle or wait on one: 0");
  // 1 -> 2 -> 3 -> 1, with 4 waiting on the cycle and 0 before it.
  expect_rejected<Policy>(make_graph<Policy>(5, {{0, 1}, {1, 2}, {2, 3}, {3, 1}, {3, 4}}),
                          "cannot all run: 1 -> 2 -> 3 -> 1. 4 of 5 work items");
  expect_rejected<Policy>(make_graph<Policy>(5, {{0, 1}, {1, 2}, {2, 3}, {3, 1}, {3, 4}}),
                          "4 of 5 work items are on a cycle or wait on one: 1, 2, 3, 4");
  // A long cycle in a large DAG: the message lists the first items and how many more.
  const std::int32_t n = 5000;
  Edges edges = random_dag(n, 2, 0, 3u);
  for (std::int32_t i = 100; i < 200; ++i) edges.emplace_back(i, i + 1);
  edges.emplace_back(200, 100);
  try {
    const Policy policy(make_graph<Policy>(n, edges));
    ADD_FAILURE() << "a cycle of 101 items was not rejected";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Kokkos::WorkGraphPolicy: the graph has a cycle"), std::string::npos) << what;
    EXPECT_NE(what.find("more)"), std::string::npos) << what;
  }
}

// Without the construction check, a cycle is found at run time: the launch aborts with the
// cycle instead of spinning forever, on one worker and on several.
struct DoNothing {
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t) const {}
};

TYPED_TEST(WorkGraph, UncheckedCycleAbortsInsteadOfHanging) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  // A forked child cannot use the parent's CUDA context: the child runs the test afresh.
  if constexpr (Kokkos::Test::needs_device<TypeParam>) GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto graph = make_graph<Policy>(6, {{0, 1}, {1, 2}, {2, 3}, {3, 1}, {3, 4}, {0, 5}});
  const Policy policy(graph, Options{.check_graph = false});
  EXPECT_DEATH(Kokkos::parallel_for(policy, DoNothing{}),
               "no work item is ready or running but some never ran: the graph has a cycle, so its work items cannot "
               "all run: 1 -> 2 -> 3 -> 1. 4 of 6 work items are on a cycle or wait on one: 1, 2, 3, 4");
  EXPECT_DEATH(
      {
        long sum = 0;
        Kokkos::parallel_reduce(policy, SumOfIndices{}, sum);
      },
      "1 -> 2 -> 3 -> 1");
  // Many items ready at first, the cycle found only after they ran.
  Edges edges = random_dag(20000, 2, 0, 9u);
  edges.emplace_back(19999, 19999);
  const Policy big(make_graph<Policy>(20000, edges), Options{.check_graph = false});
  EXPECT_DEATH(Kokkos::parallel_for(big, DoNothing{}), "19999 -> 19999");
}

// ---- launches sharing a policy ---------------------------------------------------------------

// Copies share what the constructor computed; launches that overlap (here, from inside the
// functor of another launch on several threads) each get their own run-time state.
TYPED_TEST(WorkGraphHost, OverlappingLaunchesOfOnePolicy) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  const std::int32_t n = 2000;
  const Edges edges = random_dag(n, 2, 30, 21u);
  const Policy policy(make_graph<Policy>(n, edges));
  const Policy copy = policy;
  EXPECT_EQ(copy.impl_plan().get(), policy.impl_plan().get());
  constexpr int outer = 8;
  std::vector<Tickets<>> tickets;
  for (int k = 0; k < outer; ++k) tickets.emplace_back(n);
  std::vector<TicketFunctor> functors;
  for (auto& t : tickets) functors.push_back(t.functor());
  const TicketFunctor* fs = functors.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(0, outer), [&](std::int64_t k) {
    Kokkos::parallel_for((k % 2) ? policy : copy, fs[k]);
  });
  for (int k = 0; k < outer; ++k) check_tickets(tickets[static_cast<std::size_t>(k)], edges, "outer " + std::to_string(k));
}

// Policies over one graph on two instances, launched alternately without a fence: where they
// share their run-time state (copies, or one cached plan), a launch must not reset it while the
// other instance's launch still runs (on Cuda the two streams are not otherwise ordered).
TYPED_TEST(WorkGraph, AlternatingInstancesWithoutFences) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  const std::int32_t n = 100000;  // long enough a launch that the next one's reset would overlap it
  const Edges edges = random_dag(n, 2, 40, 33u);
  const auto instances = Kokkos::Experimental::partition_space(TypeParam(), 1, 1);
  const auto graph = make_graph<Policy>(n, edges);
  // Checked: the two policies find one cached plan.  Unchecked: each has its own, and each launch
  // fences (it reads whether the graph stalled).
  for (const Options& options : {Options{}, Options{.check_graph = false}}) {
    const Policy on_a(instances[0], graph, options);
    const Policy on_b(instances[1], graph, options);
    if (options.check_graph) {
      EXPECT_EQ(on_a.impl_plan().get(), on_b.impl_plan().get());
    }
    constexpr int launches = 8;
    std::vector<SpaceTickets<TypeParam>> tickets;
    for (int k = 0; k < launches; ++k) tickets.emplace_back(n);
    TypeParam().fence();  // the tickets' initial values
    for (int k = 0; k < launches; ++k) {
      Kokkos::parallel_for("alternating", k % 2 == 0 ? on_a : on_b, tickets[static_cast<std::size_t>(k)].functor());
    }
    for (const auto& instance : instances) instance.fence();
    for (int k = 0; k < launches; ++k) {
      check_tickets(tickets[static_cast<std::size_t>(k)], edges,
                    std::string(options.check_graph ? "checked" : "unchecked") + " launch " + std::to_string(k));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// Several workers schedule units of items, planned at construction from the graph's shape.
TYPED_TEST(WorkGraphHost, SchedulingUnits) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  const std::int32_t n = 100000;
  const auto graph = make_graph<Policy>(n, random_dag(n, 2, 20, 4u));
  const Policy planned(graph), sevens(graph, Options{.check_graph = true, .unit_size = 7}),
      items(graph, Options{.check_graph = true, .unit_size = 1}), unchecked(graph, Options{.check_graph = false});
  planned.impl_plan_fully();  // what its second launch would plan
  EXPECT_EQ(unchecked.impl_num_units(), n);  // the seed's scheduling: one item at a time
  if (TypeParam().concurrency() > 1) {
    EXPECT_LT(planned.impl_num_units(), n / 8);
    EXPECT_GE(sevens.impl_num_units(), n / 7);
    EXPECT_LE(sevens.impl_num_units(), n / 2);
    EXPECT_EQ(items.impl_num_units(), n);
  } else {
    EXPECT_EQ(planned.impl_num_units(), 0);  // one worker runs the order: nothing to schedule
  }
}


// A graph given as host vectors, with its level order: the input of the planner tests.
struct PlannerInput {
  std::vector<std::int32_t> row_map, entries;
  Kokkos::Impl::WorkGraphHostCrs<std::int32_t, std::int32_t> graph;
  Kokkos::Impl::WorkGraphOrder order;
  bool ordered;
  PlannerInput(std::vector<std::int32_t> rows, std::vector<std::int32_t> succ)
      : row_map(std::move(rows)), entries(std::move(succ)),
        graph{static_cast<std::int32_t>(row_map.size()) - 1, row_map.data(), entries.data()} {
    std::vector<std::int32_t> waiting(row_map.size() - 1, 0);
    for (std::int32_t j : entries) ++waiting[static_cast<std::size_t>(j)];
    ordered = Kokkos::Impl::work_graph_order(graph, waiting, nullptr, 1, order);
  }
  PlannerInput(const PlannerInput&) = delete;
  PlannerInput& operator=(const PlannerInput&) = delete;
};

// The level-synchronous plan cuts each level into guided chunks: a 4P-th of what is left, at
// least 256 items, so sizes never grow and the level ends in small chunks; an empty join unit
// separates the levels.
TEST(WorkGraphPlanner, LeveledPlanCutsLevelsIntoGuidedChunks) {
  const std::int32_t width = 10000, n = 2 * width, workers = 2, min_chunk = 256;
  std::vector<std::int32_t> row_map(n + 1), entries;
  std::mt19937 rng(7);
  for (std::int32_t i = 0; i < n; ++i) {
    row_map[i] = static_cast<std::int32_t>(entries.size());
    if (i < width) {  // level 0 -> level 1: item width + i and a random other one
      entries.push_back(width + i);
      const std::int32_t other = width + static_cast<std::int32_t>(rng() % width);
      if (other != width + i) entries.push_back(other);
    }
  }
  row_map[n] = static_cast<std::int32_t>(entries.size());
  const PlannerInput input(row_map, entries);
  ASSERT_TRUE(input.ordered);
  ASSERT_EQ(input.order.num_levels, 2);
  Kokkos::Impl::WorkGraphPlanner<std::int32_t, std::int32_t> planner(input.graph, input.order);
  const auto cost = planner.leveled(workers, min_chunk);
  Kokkos::Impl::WorkGraphUnits units;
  planner.build_leveled(nullptr, units);
  ASSERT_EQ(static_cast<std::int64_t>(units.begin.size()) - 1, cost.units);
  ASSERT_EQ(units.items.size(), static_cast<std::size_t>(n));
  // Units in order: level 0's chunks, the join, level 1's chunks.
  std::vector<std::int32_t> sizes;
  for (std::size_t u = 0; u + 1 < units.begin.size(); ++u) sizes.push_back(units.begin[u + 1] - units.begin[u]);
  const auto join = std::find(sizes.begin(), sizes.end(), 0) - sizes.begin();
  ASSERT_LT(join, static_cast<std::ptrdiff_t>(sizes.size()));
  EXPECT_EQ(units.indegree[static_cast<std::size_t>(join)], join);  // every chunk of level 0 feeds it
  for (auto [first, last] : {std::pair<std::size_t, std::size_t>(0, join), std::pair<std::size_t, std::size_t>(join + 1, sizes.size())}) {
    std::int32_t left = width;
    for (std::size_t u = first; u < last; ++u) {
      const std::int32_t expected = std::min(left, std::max(min_chunk, (left + 4 * workers - 1) / (4 * workers)));
      EXPECT_EQ(sizes[u], expected) << "unit " << u;
      if (u > first) {
        EXPECT_LE(sizes[u], sizes[u - 1]);
      }
      EXPECT_EQ(units.indegree[u], first == 0 ? 0 : 1) << "unit " << u;
      left -= sizes[u];
    }
    EXPECT_EQ(left, 0);
  }
  EXPECT_EQ(sizes.front(), (width + 4 * workers - 1) / (4 * workers));
  EXPECT_EQ(cost.critical_path, 2 * sizes.front());
}


// The ready units are shared out by item count: every share but the last weighs at most a part
// plus one unit, the shares are contiguous and cover every unit once.
TEST(WorkGraphPlanner, BalancedSplitSharesOutByWeight) {
  using Kokkos::Impl::work_graph_balanced_split;
  auto prefix_of = [](const std::vector<std::int64_t>& weights) {
    std::vector<std::int64_t> prefix(1, 0);
    for (auto w : weights) prefix.push_back(prefix.back() + w);
    return prefix;
  };
  EXPECT_EQ(work_graph_balanced_split(prefix_of({}), 3), (std::vector<std::int32_t>{0, 0, 0, 0}));
  EXPECT_EQ(work_graph_balanced_split(prefix_of({5}), 2), (std::vector<std::int32_t>{0, 1, 1}));
  EXPECT_EQ(work_graph_balanced_split(prefix_of({1, 1, 1, 1}), 2), (std::vector<std::int32_t>{0, 2, 4}));
  EXPECT_EQ(work_graph_balanced_split(prefix_of({8, 1, 1, 1, 1, 1, 1, 1, 1}), 2), (std::vector<std::int32_t>{0, 1, 9}));
  EXPECT_EQ(work_graph_balanced_split(prefix_of({1, 1, 1}), 1), (std::vector<std::int32_t>{0, 3}));
  EXPECT_EQ(work_graph_balanced_split(prefix_of({1, 1}), 4), (std::vector<std::int32_t>{0, 1, 1, 2, 2}));
  std::mt19937 rng(11);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::int64_t> weights(rng() % 50);
    for (auto& w : weights) w = static_cast<std::int64_t>(rng() % 100);
    const int parts = 1 + static_cast<int>(rng() % 8);
    const auto prefix = prefix_of(weights);
    const auto bounds = work_graph_balanced_split(prefix, parts);
    ASSERT_EQ(bounds.size(), static_cast<std::size_t>(parts) + 1);
    EXPECT_EQ(bounds.front(), 0);
    EXPECT_EQ(bounds.back(), static_cast<std::int32_t>(weights.size()));
    const std::int64_t total = prefix.back(), heaviest = weights.empty() ? 0 : *std::max_element(weights.begin(), weights.end());
    for (int w = 0; w < parts; ++w) {
      const auto b = static_cast<std::size_t>(bounds[static_cast<std::size_t>(w)]);
      const auto e = static_cast<std::size_t>(bounds[static_cast<std::size_t>(w) + 1]);
      ASSERT_LE(b, e) << "round " << round;
      if (w + 1 < parts) {
        EXPECT_LE(prefix[e] - prefix[b], (total + parts - 1) / parts + heaviest) << "round " << round << ", share " << w;
      }
    }
  }
}

// A unit whose items are consecutive ascending indices runs as an index range.
TEST(WorkGraphPlanner, UnitFirstMarksConsecutiveUnits) {
  Kokkos::Impl::WorkGraphUnits units;
  units.items = {4, 5, 6, /**/ 9, /**/ /**/ 3, 2, /**/ 7, 9, /**/ 0, 1};
  units.begin = {0, 3, 4, 4, 6, 8, 10};
  EXPECT_EQ(Kokkos::Impl::work_graph_unit_first(units), (std::vector<std::int32_t>{4, 9, -1, -1, -1, 0}));
  EXPECT_TRUE(Kokkos::Impl::work_graph_unit_first(Kokkos::Impl::WorkGraphUnits{}).empty());
}


TEST(WorkGraphQueue, HomePacksHeadAndTail) {
  using Queue = Kokkos::Impl::WorkGraphQueue;
  for (auto [b, e] : {std::pair<std::int32_t, std::int32_t>(0, 0), {0, 1}, {7, 3}, {0, 2147483647}, {2147483647, 2147483647}}) {
    const auto h = Queue::pack_home(b, e);
    EXPECT_EQ(Queue::home_head(h), b);
    EXPECT_EQ(Queue::home_tail(h), e);
  }
}

// A worker runs its own home front to back, then the shared queue, then takes from the back of
// the other homes; every unit once, in that order.
TEST(WorkGraphQueue, HomeFirstThenSharedThenStealFromTheBack) {
  Kokkos::Test::HandWorkGraphQueue hq({10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}, {0, 4, 7, 10}, 12);
  auto& q = hq.q;
  EXPECT_EQ(q.pop<false>(1), 14);
  EXPECT_TRUE(q.any_ready());
  std::vector<std::int32_t> taken;
  for (std::int32_t u; (u = q.pop<false>(0)) != Kokkos::Impl::WorkGraphQueue::empty;) taken.push_back(u);
  EXPECT_EQ(taken, (std::vector<std::int32_t>{10, 11, 12, 13, 20, 21, 16, 15, 19, 18, 17}));
  EXPECT_FALSE(q.any_ready());
  EXPECT_EQ(q.pop<false>(1), Kokkos::Impl::WorkGraphQueue::empty);
  EXPECT_EQ(q.pop<true>(2), Kokkos::Impl::WorkGraphQueue::empty);
}

// Empty homes (fewer ready units than workers) hand over to the shared queue and other homes.
TEST(WorkGraphQueue, EmptyHomes) {
  Kokkos::Test::HandWorkGraphQueue hq({5, 6}, {0, 0, 1, 1}, 2);
  auto& q = hq.q;
  EXPECT_EQ(q.pop<true>(0), 6);  // the shared queue first, then another home
  EXPECT_EQ(q.pop<true>(2), 5);
  EXPECT_EQ(q.pop<true>(1), Kokkos::Impl::WorkGraphQueue::empty);
  EXPECT_FALSE(q.any_ready());
}

// The planner's units for a numbered graph are mostly index ranges: the run loop's fast path.
TYPED_TEST(WorkGraphHost, NumberedGraphsRunUnitsAsIndexRanges) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  if (TypeParam().concurrency() < 2) GTEST_SKIP() << "one worker runs the order, no units";
  const std::int32_t leaves = 1 << 14, n = 2 * leaves - 1;
  Edges edges;  // a binary-tree reduction: node i after its children 2i+1 and 2i+2
  for (std::int32_t i = 0; 2 * i + 2 < n; ++i) {
    edges.emplace_back(2 * i + 1, i);
    edges.emplace_back(2 * i + 2, i);
  }
  const Policy policy(make_graph<Policy>(n, edges));
  policy.impl_plan_fully();
  const auto units = Kokkos::Test::planned_units(policy);
  auto first = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), policy.impl_plan()->schedules.front().unit_first);
  std::int64_t in_ranges = 0;
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto& items = units[u];
    const bool consecutive = !items.empty() && items.back() - items.front() + 1 == static_cast<std::int32_t>(items.size()) &&
                             std::is_sorted(items.begin(), items.end());
    EXPECT_EQ(first(u), consecutive ? items.front() : Kokkos::Impl::WorkGraphQueue::empty) << "unit " << u;
    if (consecutive) in_ranges += static_cast<std::int64_t>(items.size());
  }
  EXPECT_GE(in_ranges, n / 2);
  Tickets tickets(n);
  Kokkos::parallel_for(policy, tickets.functor());
  check_tickets(tickets, edges, "tree");
}


// The planner counts the item edges between bands: on an 8x8 grid numbered by rows, bands of 16
// items are two rows, and only the 8 downward edges at each of the 3 band boundaries cross.
TEST(WorkGraphPlanner, CountsEdgesBetweenBands) {
  const std::int32_t side = 8, n = side * side;
  std::vector<std::int32_t> row_map(n + 1), entries;
  for (std::int32_t i = 0; i < n; ++i) {
    row_map[i] = static_cast<std::int32_t>(entries.size());
    if (i % side + 1 < side) entries.push_back(i + 1);
    if (i + side < n) entries.push_back(i + side);
  }
  row_map[n] = static_cast<std::int32_t>(entries.size());
  const PlannerInput input(row_map, entries);
  ASSERT_TRUE(input.ordered);
  Kokkos::Impl::WorkGraphPlanner<std::int32_t, std::int32_t> planner(input.graph, input.order);
  for (auto [shift, expected] : {std::pair<int, std::int64_t>(4, 3 * side), {5, 1 * side}, {3, 7 * side}, {planner.one_band, 0}}) {
    planner.sequence(shift);
    planner.cut(4);
    EXPECT_EQ(planner.measure().cross_band_edges, expected) << "shift " << shift;
  }
}

// On two workers a 1000x1000 wavefront is cut into bands of a quarter of the rows (each band
// runs on one core; an edge between bands is a transfer between cores), not into 16-unit bands.
TYPED_TEST(WorkGraphHost, WavefrontBandsAreTall) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  if (TypeParam().concurrency() != 2) GTEST_SKIP() << "the band height checked is for two workers";
  const std::int32_t side = 1000, n = side * side;
  Edges edges;
  for (std::int32_t i = 0; i < n; ++i) {
    if (i % side + 1 < side) edges.emplace_back(i, i + 1);
    if (i + side < n) edges.emplace_back(i, i + side);
  }
  const Policy policy(make_graph<Policy>(n, edges));
  policy.impl_plan_fully();
  std::int32_t tallest = 0;
  for (const auto& items : Kokkos::Test::planned_units(policy)) {
    if (items.empty()) continue;
    const auto [top, bottom] = std::minmax_element(items.begin(), items.end(), [&](std::int32_t a, std::int32_t b) { return a / side < b / side; });
    tallest = std::max(tallest, *bottom / side - *top / side + 1);
  }
  EXPECT_GT(tallest, 200);
}

// A DAG numbered in a topological order, like an application's: item j waits on 0-3 items
// drawn uniformly from [0, j) (long edges, wide levels).
Edges numbered_random_dag(std::int32_t n, unsigned seed) {
  std::mt19937 rng(seed);
  Edges edges;
  for (std::int32_t j = 1; j < n; ++j) {
    const int k = static_cast<int>(rng() % 4);
    for (int e = 0; e < k; ++e) edges.emplace_back(static_cast<std::int32_t>(rng() % static_cast<unsigned>(j)), j);
  }
  return edges;
}

// Host CRS arrays (successors) of an edge list.
std::pair<std::vector<std::int32_t>, std::vector<std::int32_t>> host_crs(std::int32_t n, const Edges& edges) {
  std::vector<std::int32_t> row_map(static_cast<std::size_t>(n) + 1, 0), entries(edges.size());
  for (const auto& e : edges) ++row_map[static_cast<std::size_t>(e.first) + 1];
  for (std::int32_t i = 0; i < n; ++i) row_map[static_cast<std::size_t>(i) + 1] += row_map[static_cast<std::size_t>(i)];
  std::vector<std::int32_t> cursor(row_map.begin(), row_map.end() - 1);
  for (const auto& e : edges) entries[static_cast<std::size_t>(cursor[static_cast<std::size_t>(e.first)]++)] = e.second;
  return {row_map, entries};
}

// Checks that a schedule's units hold every item once and that running its units in a random
// order its DAG allows (each unit after the units it waits on) runs every item after all the
// items it executes after.
void check_schedule(std::int32_t n, const Edges& edges, const Kokkos::Impl::WorkGraphUnits& units, unsigned seed,
                    const std::string& what) {
  const std::size_t m = units.begin.size() - 1;
  ASSERT_EQ(units.items.size(), static_cast<std::size_t>(n)) << what;
  std::vector<int> seen(static_cast<std::size_t>(n), 0);
  for (std::int32_t i : units.items) ++seen[static_cast<std::size_t>(i)];
  ASSERT_EQ(std::count(seen.begin(), seen.end(), 1), n) << what << ": an item is missing or repeated";
  std::vector<std::vector<std::int32_t>> preds(static_cast<std::size_t>(n));
  for (const auto& e : edges) preds[static_cast<std::size_t>(e.second)].push_back(e.first);
  std::vector<std::int32_t> waiting = units.indegree, ready;
  for (std::size_t u = 0; u < m; ++u) {
    if (waiting[u] == 0) ready.push_back(static_cast<std::int32_t>(u));
  }
  std::vector<std::uint8_t> done(static_cast<std::size_t>(n), 0);
  std::mt19937 rng(seed);
  std::size_t ran = 0;
  while (!ready.empty()) {
    std::swap(ready[rng() % ready.size()], ready.back());
    const auto u = static_cast<std::size_t>(ready.back());
    ready.pop_back();
    ++ran;
    for (std::int32_t k = units.begin[u]; k < units.begin[u + 1]; ++k) {
      const std::int32_t i = units.items[static_cast<std::size_t>(k)];
      for (std::int32_t p : preds[static_cast<std::size_t>(i)]) {
        ASSERT_TRUE(done[static_cast<std::size_t>(p)]) << what << ": item " << i << " (unit " << u << ") before " << p;
      }
      done[static_cast<std::size_t>(i)] = 1;
    }
    for (std::int32_t e = units.row_map[u]; e < units.row_map[u + 1]; ++e) {
      if (--waiting[static_cast<std::size_t>(units.succ[static_cast<std::size_t>(e)])] == 0) ready.push_back(units.succ[static_cast<std::size_t>(e)]);
    }
  }
  EXPECT_EQ(ran, m) << what << ": the units' DAG stalls";
}

// The planner returns its best estimate first and contenders that only timing can rank: when
// the level-synchronous plan wins (long edges, wide levels), bands of four of the largest units
// compete with it.  Every schedule is a valid one; a forced unit size gives exactly one.
TEST(WorkGraphPlanner, SchedulesAreValidAndLeveledPlansGetABandedContender) {
  const std::int32_t n = 1 << 16, workers = 2;
  const Edges edges = numbered_random_dag(n, 11u);
  auto [row_map, entries] = host_crs(n, edges);
  const PlannerInput input(row_map, entries);
  ASSERT_TRUE(input.ordered);
  const auto schedules = Kokkos::Impl::work_graph_plan_units(input.graph, input.order, nullptr, workers, 0);
  ASSERT_GE(schedules.size(), 2u);
  ASSERT_LE(schedules.size(), 3u);
  for (std::size_t k = 0; k < schedules.size(); ++k) check_schedule(n, edges, schedules[k], 5u + k, "schedule " + std::to_string(k));
  auto has_join = [](const Kokkos::Impl::WorkGraphUnits& u) {
    for (std::size_t k = 0; k + 1 < u.begin.size(); ++k) {
      if (u.begin[k] == u.begin[k + 1]) return true;
    }
    return false;
  };
  EXPECT_TRUE(has_join(schedules[0])) << "the level-synchronous plan (joins between levels) wins the estimate";
  // The contender: units of 4096 items in bands of 16384 numbers, so no unit spans two bands.
  const auto& banded = schedules[1];
  EXPECT_FALSE(has_join(banded));
  for (std::size_t u = 0; u + 1 < banded.begin.size(); ++u) {
    const auto first = banded.items.begin() + banded.begin[u], last = banded.items.begin() + banded.begin[u + 1];
    EXPECT_LE(last - first, 4096);
    const auto [lo, hi] = std::minmax_element(first, last);
    EXPECT_EQ(*lo >> 14, *hi >> 14) << "unit " << u;
  }
  const auto forced = Kokkos::Impl::work_graph_plan_units(input.graph, input.order, nullptr, workers, 64);
  ASSERT_EQ(forced.size(), 1u);
  check_schedule(n, edges, forced[0], 3u, "unit_size 64");
  for (std::int32_t side : {1, 2, 37, 300}) {  // grids: banded plans win; every schedule valid
    Edges grid;
    for (std::int32_t i = 0; i < side * side; ++i) {
      if (i % side + 1 < side) grid.emplace_back(i, i + 1);
      if (i + side < side * side) grid.emplace_back(i, i + side);
    }
    auto [rows, succ] = host_crs(side * side, grid);
    const PlannerInput g(rows, succ);
    for (int w : {2, 3, 8}) {
      const auto plans = Kokkos::Impl::work_graph_plan_units(g.graph, g.order, nullptr, w, 0);
      ASSERT_GE(plans.size(), 1u);
      ASSERT_LE(plans.size(), 3u);
      for (std::size_t k = 0; k < plans.size(); ++k) {
        check_schedule(side * side, grid, plans[k], 7u, "grid " + std::to_string(side) + ", " + std::to_string(w) + " workers, schedule " + std::to_string(k));
      }
    }
  }
}

// A GPU's warp runs a unit's items at once, so its plans must cut units whose items are
// independent (WorkGraphPlanner::cut with independent_items).  The case the first GPU run
// failed: two items, 1 -> 0, forced into one unit of up to 5 items, which its 32 lanes ran
// together.
TEST(WorkGraphPlanner, UnitsForWarpsHoldIndependentItems) {
  {
    auto [row_map, entries] = host_crs(2, Edges{{1, 0}});
    const PlannerInput input(row_map, entries);
    const auto mixed = Kokkos::Impl::work_graph_plan_units(input.graph, input.order, nullptr, 2, 5);
    ASSERT_EQ(mixed.size(), 1u);
    EXPECT_EQ(Kokkos::Impl::work_graph_unit_with_dependent_items(input.graph, mixed[0]), 0)
        << "a host worker's unit may hold a chain: it runs the items in sequence";
    const auto split = Kokkos::Impl::work_graph_plan_units(input.graph, input.order, nullptr, 2, 5, true);
    ASSERT_EQ(split.size(), 1u);
    EXPECT_EQ(split[0].indegree.size(), 2u);
    EXPECT_EQ(Kokkos::Impl::work_graph_unit_with_dependent_items(input.graph, split[0]), Kokkos::Impl::work_graph_empty);
    check_schedule(2, Edges{{1, 0}}, split[0], 1u, "two items, independent units");
  }
  for (std::int32_t n : {10, 1000, 30000}) {
    for (std::int32_t window : {0, 50}) {
      const Edges edges = random_dag(n, 3, window, static_cast<unsigned>(n + window));
      auto [row_map, entries] = host_crs(n, edges);
      const PlannerInput input(row_map, entries);
      ASSERT_TRUE(input.ordered);
      const std::string what = "n=" + std::to_string(n) + " window=" + std::to_string(window);
      for (int workers : {2, 8, 4224}) {  // 4224: an H200's resident warps at one block of 1024 per SM
        for (std::int32_t unit_size : {0, 1, 5, 64}) {
          const auto plans = Kokkos::Impl::work_graph_plan_units(input.graph, input.order, nullptr, workers, unit_size, true);
          for (std::size_t k = 0; k < plans.size(); ++k) {
            const std::string where = what + " workers=" + std::to_string(workers) + " unit_size=" + std::to_string(unit_size) +
                                      " schedule " + std::to_string(k);
            EXPECT_EQ(Kokkos::Impl::work_graph_unit_with_dependent_items(input.graph, plans[k]), Kokkos::Impl::work_graph_empty)
                << where;
            check_schedule(n, edges, plans[k], 3u + k, where);
          }
        }
        const auto first = Kokkos::Impl::work_graph_first_launch_units(input.graph, input.order, nullptr, workers);
        EXPECT_EQ(Kokkos::Impl::work_graph_unit_with_dependent_items(input.graph, first), Kokkos::Impl::work_graph_empty)
            << what << " workers=" << workers << ": the level-synchronous plan";
      }
    }
  }
}

// The plans a policy makes for its space's workers, the deferred ones included: on a space whose
// workers run a unit's items at once (Kokkos::Cuda), no unit holds an item and its predecessor.
TYPED_TEST(WorkGraph, UnitsSuitTheSpacesWorkers) {
  if constexpr (!Kokkos::Impl::work_graph_independent_unit_items_v<TypeParam>) {
    GTEST_SKIP() << "a host back end's worker runs a unit's items in sequence (WorkGraphPlanner tests)";
  } else {
    using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
    const std::int32_t n = 3000;
    const Edges edges = random_dag(n, 3, 50, 17u);
    const auto graph = make_graph<Policy>(n, edges);
    for (std::size_t o = 0; o + 1 < std::size(option_sets); ++o) {  // the checked ones: they plan
      const Policy policy(graph, option_sets[o]);
      policy.impl_plan_fully();
      for (int schedule = 0; schedule < policy.impl_num_schedules(); ++schedule) {
        const auto units = Kokkos::Test::planned_units(policy, schedule);
        std::vector<std::int32_t> unit_of(static_cast<std::size_t>(n), -1);
        for (std::size_t u = 0; u < units.size(); ++u) {
          for (std::int32_t i : units[u]) unit_of[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(u);
        }
        for (const auto& [i, j] : edges) {
          ASSERT_TRUE(unit_of[static_cast<std::size_t>(i)] < 0 || unit_of[static_cast<std::size_t>(i)] != unit_of[static_cast<std::size_t>(j)])
              << option_names[o] << " schedule " << schedule << ": " << i << " -> " << j << " in one unit";
        }
      }
    }
  }
}

// A launch resets the state arrays, sized for the largest schedule, from a schedule's arrays,
// which may be shorter: only their prefix.  The device's path (a deep_copy on the stream, which
// demands equal extents) runs here on host memory too; it once copied whole arrays and threw
// on the GPU ("extents of the Views do not match").
TEST(WorkGraphPlan, LaunchResetCopiesTheSchedulesPrefix) {
  using Plan = Kokkos::Impl::WorkGraphPlan<Kokkos::HostSpace>;
  const Kokkos::DefaultHostExecutionSpace space;
  auto reset_both_ways = [&](auto ordered_on_stream) {
    Kokkos::View<std::int32_t*, Kokkos::HostSpace> state("Kokkos::WorkGraphPolicy::waiting", 20), schedule("unit_indegree", 7);
    Kokkos::deep_copy(state, -7);
    for (int k = 0; k < 7; ++k) schedule(k) = k;
    Plan::reset_prefix<decltype(ordered_on_stream)::value>(space, state, schedule);
    space.fence();
    for (int k = 0; k < 20; ++k) EXPECT_EQ(state(k), k < 7 ? k : -7) << k;
    try {
      Plan::reset_prefix<decltype(ordered_on_stream)::value>(space, schedule, state);
      ADD_FAILURE() << "a state array shorter than the schedule's was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("\"unit_indegree\" holds 7 entries, fewer than the schedule's "
                                           "\"Kokkos::WorkGraphPolicy::waiting\" (20)"),
                std::string::npos)
          << e.what();
    }
  };
  reset_both_ways(std::true_type{});
  reset_both_ways(std::false_type{});
}

// A policy with several schedules runs each in its first launches (each is timed, schedule 0
// first), and every launch, whichever schedule it runs, honours every edge.
TYPED_TEST(WorkGraph, EveryScheduleRunsEveryItemInOrder) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  const std::int32_t n = 1 << 16;
  const Edges edges = numbered_random_dag(n, 13u);
  const Policy policy(make_graph<Policy>(n, edges));
  policy.impl_plan_fully();
  if (TypeParam().concurrency() == 1) {
    EXPECT_EQ(policy.impl_num_schedules(), 1);
  } else if (TypeParam().concurrency() == 2) {
    EXPECT_GE(policy.impl_num_schedules(), 2);  // the case of the planner test above
  }
  const int ways = policy.impl_num_schedules();
  for (int launch = 0; launch < 3 * ways + 4; ++launch) {
    SpaceTickets<TypeParam> tickets(n);
    Kokkos::parallel_for(policy, tickets.functor());
    check_tickets(tickets, edges, "launch " + std::to_string(launch));
    EXPECT_LT(policy.impl_preferred_schedule(), ways);
  }
  const auto* choice = policy.impl_plan()->choice_of(&Kokkos::Impl::work_graph_functor_key<TicketFunctor>);
  if (TypeParam().concurrency() > 1) {
    ASSERT_NE(choice, nullptr);
  }
  // On a device the launches also choose between the queue and one kernel per level
  // (TestWorkGraphLevels): where the levels won, the queue's launches were fewer than the
  // schedules' sampling needs, and only the first schedule is sure to have run.
  const auto* device_ways = policy.impl_plan()->device_ways_of(&Kokkos::Impl::work_graph_functor_key<TicketFunctor>);
  const bool levels_won =
      device_ways != nullptr && device_ways->choice().fastest() == Kokkos::Impl::WorkGraphDeviceWays::levels;
  const int timed_schedules = levels_won ? 1 : ways;
  for (int w = 0; w < timed_schedules && TypeParam().concurrency() > 1; ++w) {
    EXPECT_LT(choice->time_ns(w), 1e300) << "schedule " << w << " never ran";
  }
  // A reduction over the same policy runs through the same choice.
  std::int64_t sum = 0;
  Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(std::int32_t i, std::int64_t& acc) { acc += i; }, sum);
  EXPECT_EQ(sum, std::int64_t(n) * (n - 1) / 2);
}

// ---- planning deferred to the second launch, plans reused across rebuilt policies ---------------

using HostPolicy = Kokkos::WorkGraphPolicy<std::int32_t, Kokkos::DefaultHostExecutionSpace>;

// Each test starts with no plan kept: a graph allocated where an earlier test's was, with the
// same contents, would otherwise find that test's plan (rightly: it is the same graph).
struct WorkGraphDeferredPlan : ::testing::Test {
  void SetUp() override { Kokkos::Impl::WorkGraphPlanCache<HostPolicy::memory_space>::clear(); }
};

// Construction makes only the plan a first launch needs (the level-synchronous one, or the
// order on one worker); the second launch makes the planner's, contenders included.
TEST_F(WorkGraphDeferredPlan, FirstLaunchRunsTheCheapPlanAndTheSecondPlansFully) {
  const std::int32_t n = 1 << 16;
  const Edges edges = numbered_random_dag(n, 13u);  // the planner keeps two schedules on two workers
  const HostPolicy policy(make_graph<HostPolicy>(n, edges));
  EXPECT_TRUE(policy.impl_plan_deferred());
  EXPECT_EQ(policy.impl_num_schedules(), 1);
  const bool several = Kokkos::DefaultHostExecutionSpace().concurrency() > 1;
  if (several) {
    // The level-synchronous plan: its joins are units without items.
    const auto units = Kokkos::Test::planned_units(policy);
    EXPECT_TRUE(std::any_of(units.begin(), units.end(), [](const auto& u) { return u.empty(); }));
  }
  for (int launch = 0; launch < 2; ++launch) {
    Tickets tickets(n);
    Kokkos::parallel_for(policy, tickets.functor());
    check_tickets(tickets, edges, "launch " + std::to_string(launch));
    EXPECT_EQ(policy.impl_plan_deferred(), launch == 0) << "launch " << launch;
  }
  if (Kokkos::DefaultHostExecutionSpace().concurrency() == 2) {
    EXPECT_GE(policy.impl_num_schedules(), 2);
  }
  for (int launch = 2; launch < 12; ++launch) {  // the planned schedules, each timed in turn
    Tickets tickets(n);
    Kokkos::parallel_for(policy, tickets.functor());
    check_tickets(tickets, edges, "launch " + std::to_string(launch));
  }
}

// A graph whose index order is not a topological order, with priorities: the first launch on
// one worker runs Kahn's order, on several the level-synchronous plan; both honour every edge.
TEST_F(WorkGraphDeferredPlan, UnnumberedGraphsWithAndWithoutPriorities) {
  const std::int32_t n = 5000;
  const Edges edges = random_dag(n, 3, 0, 17u);
  const auto graph = make_graph<HostPolicy>(n, edges);
  Kokkos::View<int*, Kokkos::HostSpace> priority("priority", n);
  for (std::int32_t i = 0; i < n; ++i) priority(i) = i % 3;
  const HostPolicy plain(graph), prioritised(graph, priority);
  for (const HostPolicy* policy : {&plain, &prioritised}) {
    for (int launch = 0; launch < 3; ++launch) {
      Tickets tickets(n);
      Kokkos::parallel_for(*policy, tickets.functor());
      check_tickets(tickets, edges, std::string(policy == &plain ? "plain" : "priorities") + " launch " + std::to_string(launch));
    }
    EXPECT_FALSE(policy->impl_plan_deferred());
  }
}

// A policy rebuilt from an unchanged graph (the time-step loop) reuses the plan, planned fully
// once the graph has been launched twice.
TEST_F(WorkGraphDeferredPlan, RebuiltPolicyReusesThePlan) {
  const std::int32_t n = 20000;
  const Edges edges = random_dag(n, 2, 50, 5u);
  const auto graph = make_graph<HostPolicy>(n, edges);
  const HostPolicy first(graph);
  for (int step = 0; step < 3; ++step) {
    const HostPolicy policy(graph);
    EXPECT_EQ(policy.impl_plan().get(), first.impl_plan().get()) << "step " << step;
    EXPECT_EQ(policy.impl_plan_deferred(), step < 2) << "step " << step;
    Tickets tickets(n);
    Kokkos::parallel_for(policy, tickets.functor());
    check_tickets(tickets, edges, "step " + std::to_string(step));
  }
  // Another graph with the same contents in other arrays is planned on its own.
  const HostPolicy other(make_graph<HostPolicy>(n, edges));
  EXPECT_NE(other.impl_plan().get(), first.impl_plan().get());
  // So is the same graph with other options.
  const HostPolicy items(graph, Options{.check_graph = true, .unit_size = 1});
  EXPECT_NE(items.impl_plan().get(), first.impl_plan().get());
}

// A graph modified in place is planned again, and its launches honour the new edges.
TEST_F(WorkGraphDeferredPlan, GraphModifiedInPlaceIsPlannedAgain) {
  const std::int32_t n = 10000;
  Edges chain, skips;  // i -> i+1, then (same row sizes) i -> i+2, and n-2 -> n-1
  for (std::int32_t i = 0; i + 1 < n; ++i) {
    chain.emplace_back(i, i + 1);
    skips.emplace_back(i, i + 2 < n ? i + 2 : i + 1);
  }
  auto graph = make_graph<HostPolicy>(n, chain);
  const HostPolicy before(graph);
  const auto old_plan = before.impl_plan();
  auto entries = Kokkos::create_mirror_view(graph.entries);
  for (std::int32_t i = 0; i + 1 < n; ++i) entries(i) = skips[static_cast<std::size_t>(i)].second;
  Kokkos::deep_copy(graph.entries, entries);
  const HostPolicy after(graph);
  EXPECT_NE(after.impl_plan().get(), old_plan.get());
  for (int launch = 0; launch < 3; ++launch) {
    Tickets tickets(n);
    Kokkos::parallel_for(after, tickets.functor());
    check_tickets(tickets, skips, "launch " + std::to_string(launch));
  }
  // A single entry changed is enough.
  entries(0) = 1;
  Kokkos::deep_copy(graph.entries, entries);
  const HostPolicy once_more(graph);
  EXPECT_NE(once_more.impl_plan().get(), after.impl_plan().get());
  // The fingerprint is that of the contents: equal graphs, equal fingerprints; any change, another.
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), graph.entries);
  auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), graph.row_map);
  const auto f = Kokkos::Impl::work_graph_fingerprint(rows.extent(0), rows.data(), host.extent(0), host.data());
  EXPECT_EQ(f, Kokkos::Impl::work_graph_fingerprint(rows.extent(0), rows.data(), host.extent(0), host.data()));
  std::swap(host(10), host(11));  // the same values at other positions
  EXPECT_NE(f, Kokkos::Impl::work_graph_fingerprint(rows.extent(0), rows.data(), host.extent(0), host.data()));
}

// A graph modified in place after a policy was built from it: the policy's second launch does
// not plan from contents it was not built for (it keeps its plan).
TEST_F(WorkGraphDeferredPlan, SecondLaunchAfterAModificationKeepsThePlan) {
  const std::int32_t n = 4000;
  Edges chain;
  for (std::int32_t i = 0; i + 1 < n; ++i) chain.emplace_back(i, i + 1);
  auto graph = make_graph<HostPolicy>(n, chain);
  const HostPolicy policy(graph, Options{});
  {
    Tickets tickets(n);
    Kokkos::parallel_for(policy, tickets.functor());
    check_tickets(tickets, chain, "first launch");
  }
  const int schedules = policy.impl_num_schedules();
  auto entries = Kokkos::create_mirror_view(graph.entries);
  entries(0) = 2;
  Kokkos::deep_copy(graph.entries, entries);
  policy.impl_plan_fully();
  EXPECT_FALSE(policy.impl_plan_deferred());
  EXPECT_EQ(policy.impl_num_schedules(), schedules);
}

// Each functor type has its own measured choice over one plan.
struct CheapFunctor {
  double* out;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const { out[i] = 1.0; }
};
TEST_F(WorkGraphDeferredPlan, MeasuredChoiceIsPerFunctorType) {
  const std::int32_t n = 1 << 16;
  const Edges edges = numbered_random_dag(n, 13u);
  const HostPolicy policy(make_graph<HostPolicy>(n, edges));
  policy.impl_plan_fully();
  std::vector<double> out(static_cast<std::size_t>(n), 0.0);
  Tickets tickets(n);
  Kokkos::parallel_for(policy, tickets.functor());
  for (int launch = 0; launch < 4; ++launch) Kokkos::parallel_for(policy, CheapFunctor{out.data()});
  const auto& plan = *policy.impl_plan();
  const auto* tickets_choice = plan.choice_of(&Kokkos::Impl::work_graph_functor_key<TicketFunctor>);
  const auto* cheap_choice = plan.choice_of(&Kokkos::Impl::work_graph_functor_key<CheapFunctor>);
  EXPECT_EQ(std::count(out.begin(), out.end(), 1.0), n);
  if (Kokkos::DefaultHostExecutionSpace().concurrency() < 2) {
    EXPECT_EQ(tickets_choice, nullptr);  // one worker runs the order: nothing to choose
    return;
  }
  ASSERT_NE(tickets_choice, nullptr);
  ASSERT_NE(cheap_choice, nullptr);
  EXPECT_NE(tickets_choice, cheap_choice);
  if (policy.impl_num_schedules() > 1) {
    // One launch of the tickets: schedule 0's warm-up only, nothing timed; four of the other
    // functor: schedule 0 warmed up and timed twice, schedule 1 warmed up.
    EXPECT_FALSE(tickets_choice->time_ns(0) < 1e300);
    EXPECT_TRUE(cheap_choice->time_ns(0) < 1e300);
  }
}

}  // namespace

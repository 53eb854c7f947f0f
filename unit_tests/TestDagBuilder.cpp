// Kokkos::Experimental::DagBuilder and the graph helpers of containers/Kokkos_DagBuilder.hpp:
// edge lists and predecessor lists to a work graph, critical-path lengths and priorities.
#include "TestCommon.hpp"

#include <Kokkos_DagBuilder.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

template <class Space>
struct DagBuilderTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(DagBuilderTest, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

using Pairs = std::vector<std::pair<std::int32_t, std::int32_t>>;

template <class Graph>
Pairs rows_of(const Graph& g) {
  auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.row_map);
  auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.entries);
  Pairs out;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(g.numRows()); ++i) {
    for (auto k = rows(i); k < rows(i + 1); ++k) {
      out.emplace_back(static_cast<std::int32_t>(i), static_cast<std::int32_t>(entries(k)));
    }
  }
  return out;
}

template <class F>
void expect_error(const F& f, const std::string& expected) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected " << expected;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

// Edges in any order, with duplicates, become sorted successor rows without duplicates; the
// predecessor graph is their transpose.
TYPED_TEST(DagBuilderTest, EdgesToGraph) {
  using Builder = Kokkos::Experimental::DagBuilder<std::int32_t, TypeParam>;
  static_assert(std::is_same_v<typename Builder::graph_type,
                               typename Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>::graph_type>);
  Builder dag(5);
  dag.add_edge(3, 4).add_edge(0, 2).add_edge(0, 1).add_edge(0, 2);
  dag.add_predecessors(4, {1, 2});
  dag.add_edges({{1, 3}});
  EXPECT_EQ(dag.num_items(), 5);
  EXPECT_EQ(dag.num_edges(), 7u);
  const auto graph = dag.build();
  EXPECT_EQ(graph.numRows(), 5);
  EXPECT_EQ(rows_of(graph), (Pairs{{0, 1}, {0, 2}, {1, 3}, {1, 4}, {2, 4}, {3, 4}}));
  EXPECT_EQ(rows_of(dag.build_predecessors()), (Pairs{{1, 0}, {2, 0}, {3, 1}, {4, 1}, {4, 2}, {4, 3}}));
}

TYPED_TEST(DagBuilderTest, EmptyAndIsolated) {
  using Builder = Kokkos::Experimental::DagBuilder<std::int64_t, TypeParam>;
  const auto none = Builder(0).build();
  EXPECT_EQ(none.numRows(), 0);
  EXPECT_EQ(none.row_map.extent(0), 1u);
  const auto isolated = Builder(3).build();
  EXPECT_EQ(isolated.numRows(), 3);
  EXPECT_EQ(isolated.entries.extent(0), 0u);
  int calls = 0;
  int* c = &calls;
  Kokkos::parallel_for(Kokkos::WorkGraphPolicy<std::int64_t, TypeParam>(isolated),
                       [=](std::int64_t) { Kokkos::atomic_increment(c); });
  EXPECT_EQ(calls, 3);
}

TYPED_TEST(DagBuilderTest, BadEdgesRejected) {
  using Builder = Kokkos::Experimental::DagBuilder<std::int32_t, TypeParam>;
  using Graph = typename Builder::graph_type;
  Builder dag(4);
  expect_error([&] { dag.add_edge(0, 4); }, "DagBuilder::add_edge: the edge 0 -> 4 names an item outside [0, 4)");
  expect_error([&] { dag.add_edge(-1, 2); }, "the edge -1 -> 2 names an item outside [0, 4)");
  expect_error([&] { dag.add_edge(2, 2); }, "item 2 cannot execute after itself");
  expect_error([] { Builder(-3); }, "the number of items -3 is negative");
  expect_error([] { Kokkos::Experimental::make_work_graph<Graph>(2, Pairs{{0, 2}}); },
               "make_work_graph: the edge 0 -> 2 names an item outside [0, 2)");
  expect_error([] { Kokkos::Experimental::make_work_graph_from_predecessors<Graph>(std::vector<std::vector<int>>{{}, {1}}); },
               "item 1 cannot execute after itself");
  // A cycle is not the builder's business: the policy names it.
  const auto cyclic = Builder(3).add_edge(0, 1).add_edge(1, 2).add_edge(2, 1).build();
  expect_error([&] { Kokkos::WorkGraphPolicy<std::int32_t, TypeParam> policy(cyclic); }, "1 -> 2 -> 1");
}

// The three ways in give the same graph, and a WorkGraphPolicy over it respects every edge.
TYPED_TEST(DagBuilderTest, EdgeListsPredecessorListsAndTranspose) {
  using Graph = typename Kokkos::Experimental::DagBuilder<std::int32_t, TypeParam>::graph_type;
  const std::int32_t n = 3000;
  Pairs edges;
  std::vector<std::vector<std::int32_t>> preds(static_cast<std::size_t>(n));
  for (std::int32_t j = 1; j < n; ++j) {
    for (std::int32_t i : {j / 2, j - 1, (j * 7) % j}) {
      if (i == j) continue;
      edges.emplace_back(i, j);
      preds[static_cast<std::size_t>(j)].push_back(i);
    }
  }
  const Graph a = Kokkos::Experimental::make_work_graph<Graph>(n, edges);
  const Graph b = Kokkos::Experimental::make_work_graph_from_predecessors<Graph>(preds);
  Kokkos::Experimental::DagBuilder<std::int32_t, TypeParam> dag(n);
  for (std::int32_t j = 0; j < n; ++j) dag.add_predecessors(j, preds[static_cast<std::size_t>(j)]);
  const Graph c = Kokkos::Experimental::make_work_graph_from_predecessors(dag.build_predecessors());
  EXPECT_EQ(rows_of(a), rows_of(b));
  EXPECT_EQ(rows_of(a), rows_of(c));
  EXPECT_EQ(rows_of(a), rows_of(dag.build()));

  std::vector<std::int64_t> start(static_cast<std::size_t>(n)), finish(static_cast<std::size_t>(n));
  std::int64_t counter = 0;
  std::int64_t* s = start.data();
  std::int64_t* f = finish.data();
  std::int64_t* t = &counter;
  Kokkos::parallel_for(Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>(a), [=](std::int32_t i) {
    s[i] = Kokkos::atomic_fetch_add(t, std::int64_t(1));
    f[i] = Kokkos::atomic_fetch_add(t, std::int64_t(1));
  });
  for (const auto& [i, j] : edges) ASSERT_LT(finish[static_cast<std::size_t>(i)], start[static_cast<std::size_t>(j)]);
}

// Critical path lengths: the items on the longest path ahead of each item, itself included.
TYPED_TEST(DagBuilderTest, CriticalPathLengths) {
  // 0 -> 1 -> 2 -> 3 (a chain of 4), 4 -> 3, 5 alone, 6 -> 1.
  const auto graph = Kokkos::Experimental::DagBuilder<std::int32_t, TypeParam>(7)
                         .add_edge(0, 1)
                         .add_edge(1, 2)
                         .add_edge(2, 3)
                         .add_edge(4, 3)
                         .add_edge(6, 1)
                         .build();
  const auto length = Kokkos::Experimental::critical_path_lengths(graph);
  const int expected[] = {4, 3, 2, 1, 2, 1, 4};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(length(i), expected[i]) << "item " << i;
  // Bands of the longest length (4): (8/3, 4] -> High, (4/3, 8/3] -> Regular, the rest Low.
  const auto priority = Kokkos::Experimental::critical_path_priorities(graph);
  const int expected_priority[] = {0, 0, 1, 2, 1, 2, 0};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(priority(i), expected_priority[i]) << "item " << i;
  const auto two = Kokkos::Experimental::critical_path_priorities(graph, 2);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(two(i), expected[i] > 2 ? 0 : 1) << "item " << i;
  expect_error([&] { Kokkos::Experimental::critical_path_priorities(graph, 0); }, "num_priorities = 0 is outside [1, 16]");
  expect_error([&] { Kokkos::Experimental::critical_path_priorities(graph, 17); }, "num_priorities = 17");
  const auto cyclic = Kokkos::Experimental::DagBuilder<std::int32_t, TypeParam>(2).add_edge(0, 1).add_edge(1, 0).build();
  expect_error([&] { Kokkos::Experimental::critical_path_lengths(cyclic); },
               "critical_path_lengths: the graph has a cycle, so its work items cannot all run: 0 -> 1 -> 0");
}

// On one worker, critical-path priorities run the long chain before the single items, which
// come first in index order (without priorities: 0, 1, 2, 3, 4, 5, 6).
TYPED_TEST(DagBuilderTest, CriticalPathPrioritiesOrderOneWorker) {
  // Items 0..2 are single items; 3 -> 4 -> 5 -> 6 is a chain.
  const auto graph =
      Kokkos::Experimental::DagBuilder<std::int32_t, TypeParam>(7).add_edge(3, 4).add_edge(4, 5).add_edge(5, 6).build();
  const auto priority = Kokkos::Experimental::critical_path_priorities(graph);
  std::vector<std::int32_t> order;
  auto record = [&order](std::int32_t i) { order.push_back(i); };
  const Kokkos::WorkGraphPolicy<std::int32_t, TypeParam> policy(graph, priority);
  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(0, 1), [&](std::int64_t) { Kokkos::parallel_for(policy, record); });
  EXPECT_EQ(order, (std::vector<std::int32_t>{3, 4, 5, 6, 0, 1, 2}));
}

}  // namespace

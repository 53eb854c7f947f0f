#pragma once
// Building the graph a WorkGraphPolicy takes, without hand-building CRS arrays (Kokkos has no
// such helper; kokkos/kokkos#991), and assigning priorities by critical path.
//
//   Kokkos::Experimental::DagBuilder<std::int32_t, ExecSpace> dag(n);
//   dag.add_edge(before, after);                  // "after" executes after "before"
//   dag.add_predecessors(item, {p0, p1});         // item executes after p0 and p1
//   auto graph = dag.build();                     // WorkGraphPolicy<std::int32_t, ExecSpace>::graph_type
//   auto preds = dag.build_predecessors();        // row i: the items i executes after
//
//   make_work_graph<Graph>(n, edges)              // from (before, after) pairs
//   make_work_graph_from_predecessors<Graph>(lists or a predecessor Crs)
//
//   critical_path_lengths(graph)      per item, the number of items on the longest path that
//                                     starts at it (itself included)
//   critical_path_priorities(graph)   High for the items with the longest paths ahead of them,
//                                     then Regular, then Low (or num_priorities levels)
//
// Every graph built here lists each row in ascending order without duplicates.  An edge that
// names an item outside [0, n), or an item before itself, is rejected with a message.
#include <Kokkos_Core.hpp>
#include <Kokkos_Crs.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace Kokkos::Experimental {

namespace Impl {

// A CRS of Views from rows given on the host as (row, column) pairs, each row's columns sorted
// with duplicates removed.  The pairs are bucketed by row (a counting sort, two passes) and each
// row sorted on its own: rows are short, where sorting all the pairs pays a log factor (about
// 200 ms for the 2M edges of a 1000x1000 wavefront).
template <class Graph, class I>
Graph work_graph_from_pairs(std::int64_t num_rows, const std::vector<std::pair<I, I>>& pairs, const std::string& label) {
  using size_type = typename Graph::size_type;
  using data_type = typename Graph::data_type;
  std::vector<std::size_t> start(static_cast<std::size_t>(num_rows) + 1, 0);
  for (const auto& p : pairs) ++start[static_cast<std::size_t>(p.first) + 1];
  for (std::int64_t i = 0; i < num_rows; ++i) start[static_cast<std::size_t>(i) + 1] += start[static_cast<std::size_t>(i)];
  std::vector<data_type> columns(pairs.size());
  {
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (const auto& p : pairs) columns[next[static_cast<std::size_t>(p.first)]++] = static_cast<data_type>(p.second);
  }
  // Each row sorted and made unique, compacted towards the front.
  std::size_t kept = 0;
  typename Graph::row_map_type row_map(label + "_row_map", static_cast<std::size_t>(num_rows) + 1);
  auto host_rows = create_mirror_view(row_map);
  host_rows(0) = 0;
  for (std::int64_t i = 0; i < num_rows; ++i) {
    const auto first = columns.begin() + static_cast<std::ptrdiff_t>(start[static_cast<std::size_t>(i)]);
    const auto last = columns.begin() + static_cast<std::ptrdiff_t>(start[static_cast<std::size_t>(i) + 1]);
    std::sort(first, last);
    const auto row_end = std::unique(first, last);
    kept = static_cast<std::size_t>(std::copy(first, row_end, columns.begin() + static_cast<std::ptrdiff_t>(kept)) - columns.begin());
    host_rows(i + 1) = static_cast<size_type>(kept);
  }
  typename Graph::entries_type entries(view_alloc(label + "_entries", WithoutInitializing), kept);
  auto host_entries = create_mirror_view(entries);
  std::copy_n(columns.begin(), kept, host_entries.data());
  deep_copy(row_map, host_rows);
  deep_copy(entries, host_entries);
  return Graph(row_map, entries);
}

template <class I>
void check_edge(const char* who, std::int64_t n, I before, I after) {
  auto outside = [n](I v) { return v < 0 || static_cast<std::int64_t>(v) >= n; };
  if (outside(before) || outside(after)) {
    Kokkos::Impl::throw_runtime_exception(std::string(who) + ": the edge " + std::to_string(before) + " -> " +
                                          std::to_string(after) + " names an item outside [0, " + std::to_string(n) +
                                          ")");
  }
  if (before == after) {
    Kokkos::Impl::throw_runtime_exception(std::string(who) + ": item " + std::to_string(before) +
                                          " cannot execute after itself (a cycle of one item)");
  }
}

}  // namespace Impl

template <class IndexType = std::int32_t, class Space = DefaultExecutionSpace>
class DagBuilder {
  static_assert(std::is_integral_v<IndexType>, "Kokkos::Experimental::DagBuilder: the index type must be integral");

 public:
  using index_type = IndexType;
  // The graph type of WorkGraphPolicy<IndexType, Space> when Space is an execution space.
  using graph_type = Crs<IndexType, Space, void, IndexType>;

  explicit DagBuilder(index_type num_items) : m_num_items(num_items) {
    if (num_items < 0) {
      Kokkos::Impl::throw_runtime_exception("Kokkos::Experimental::DagBuilder: the number of items " +
                                            std::to_string(num_items) + " is negative");
    }
  }

  index_type num_items() const { return m_num_items; }
  // The edges added so far, duplicates included.
  std::size_t num_edges() const { return m_edges.size(); }

  // `after` executes after `before`.
  DagBuilder& add_edge(index_type before, index_type after) {
    Impl::check_edge("Kokkos::Experimental::DagBuilder::add_edge", m_num_items, before, after);
    m_edges.emplace_back(before, after);
    return *this;
  }
  DagBuilder& add_edges(const std::vector<std::pair<index_type, index_type>>& edges) {
    m_edges.reserve(m_edges.size() + edges.size());
    for (const auto& [before, after] : edges) add_edge(before, after);
    return *this;
  }
  // `item` executes after each of `predecessors`.
  template <class Range>
  DagBuilder& add_predecessors(index_type item, const Range& predecessors) {
    for (const auto& p : predecessors) add_edge(static_cast<index_type>(p), item);
    return *this;
  }
  DagBuilder& add_predecessors(index_type item, std::initializer_list<index_type> predecessors) {
    for (const auto p : predecessors) add_edge(p, item);
    return *this;
  }

  // Row i: the items that execute after i, the graph a WorkGraphPolicy takes.
  graph_type build(const std::string& label = "work_graph") const {
    return Impl::work_graph_from_pairs<graph_type>(m_num_items, m_edges, label);
  }

  // Row i: the items that i executes after (the transpose of build()); what a functor reads to
  // find its inputs.
  graph_type build_predecessors(const std::string& label = "work_graph_predecessors") const {
    std::vector<std::pair<index_type, index_type>> reversed;
    reversed.reserve(m_edges.size());
    for (const auto& [before, after] : m_edges) reversed.emplace_back(after, before);
    return Impl::work_graph_from_pairs<graph_type>(m_num_items, reversed, label);
  }

 private:
  index_type m_num_items;
  std::vector<std::pair<index_type, index_type>> m_edges;
};

// The graph for a WorkGraphPolicy from (before, after) pairs: `after` executes after `before`.
template <class Graph, class I>
Graph make_work_graph(I num_items, const std::vector<std::pair<I, I>>& edges, const std::string& label = "work_graph") {
  for (const auto& [before, after] : edges) Impl::check_edge("Kokkos::Experimental::make_work_graph", num_items, before, after);
  return Impl::work_graph_from_pairs<Graph>(static_cast<std::int64_t>(num_items), edges, label);
}

// The graph for a WorkGraphPolicy from per-item predecessor lists: item i executes after each
// of predecessors[i].
template <class Graph, class I>
Graph make_work_graph_from_predecessors(const std::vector<std::vector<I>>& predecessors,
                                        const std::string& label = "work_graph") {
  const auto n = static_cast<std::int64_t>(predecessors.size());
  std::vector<std::pair<I, I>> edges;
  for (std::int64_t i = 0; i < n; ++i) {
    for (const I p : predecessors[static_cast<std::size_t>(i)]) {
      Impl::check_edge("Kokkos::Experimental::make_work_graph_from_predecessors", n, p, static_cast<I>(i));
      edges.emplace_back(p, static_cast<I>(i));
    }
  }
  return Impl::work_graph_from_pairs<Graph>(n, edges, label);
}

// The graph for a WorkGraphPolicy from a predecessor graph (row i: the items i executes
// after): its transpose.
template <class D, class A1, class A2, class S>
Crs<D, A1, A2, S> make_work_graph_from_predecessors(const Crs<D, A1, A2, S>& predecessors) {
  Crs<D, A1, A2, S> graph;
  transpose_crs(graph, predecessors);
  return graph;
}

// Per item, the number of items on the longest path of the graph that starts at it (1 for an
// item nothing executes after).  The graph must be acyclic (the message names a cycle).
template <class D, class A1, class A2, class S>
View<std::int32_t*, HostSpace> critical_path_lengths(const Crs<D, A1, A2, S>& graph) {
  static constexpr const char* who = "Kokkos::Experimental::critical_path_lengths";
  auto row_map = create_mirror_view_and_copy(HostSpace(), graph.row_map);
  auto entries = create_mirror_view_and_copy(HostSpace(), graph.entries);
  std::vector<std::int32_t> waiting =
      Kokkos::Impl::work_graph_indegrees(who, row_map.extent(0), row_map.data(), entries.extent(0), entries.data());
  const auto n = static_cast<std::int32_t>(waiting.size());
  const Kokkos::Impl::WorkGraphHostCrs<S, std::remove_cv_t<D>> g{n, row_map.data(), entries.data()};
  Kokkos::Impl::WorkGraphOrder order;
  if (!Kokkos::Impl::work_graph_order(g, waiting, nullptr, 1, order)) {
    std::vector<std::uint8_t> left(static_cast<std::size_t>(n));
    for (std::int32_t i = 0; i < n; ++i) left[static_cast<std::size_t>(i)] = waiting[static_cast<std::size_t>(i)] > 0;
    Kokkos::Impl::throw_runtime_exception(Kokkos::Impl::work_graph_cycle_message(who, g, left));
  }
  View<std::int32_t*, HostSpace> length("critical_path_lengths", static_cast<std::size_t>(n));
  for (std::int32_t k = n; k-- > 0;) {
    const std::int32_t i = order.order[static_cast<std::size_t>(k)];
    std::int32_t longest = 0;
    for (std::int64_t e = g.begin(i); e < g.end(i); ++e) longest = std::max(longest, length(g.entry(e)));
    length(i) = longest + 1;
  }
  return length;
}

// Priorities by critical path, for WorkGraphPolicy(graph, priorities): the items whose longest
// path ahead (critical_path_lengths) is in the top 1/num_priorities of the range get 0 (High),
// the next band 1, and so on; the items on a longest path of the whole graph start it at High.
template <class D, class A1, class A2, class S>
View<std::uint8_t*, HostSpace> critical_path_priorities(const Crs<D, A1, A2, S>& graph, int num_priorities = 3) {
  if (num_priorities < 1 || num_priorities > Kokkos::Impl::work_graph_max_priorities) {
    Kokkos::Impl::throw_runtime_exception("Kokkos::Experimental::critical_path_priorities: num_priorities = " +
                                          std::to_string(num_priorities) + " is outside [1, " +
                                          std::to_string(Kokkos::Impl::work_graph_max_priorities) + "]");
  }
  auto length = critical_path_lengths(graph);
  const std::size_t n = length.extent(0);
  std::int64_t longest = 1;
  for (std::size_t i = 0; i < n; ++i) longest = std::max<std::int64_t>(longest, length(i));
  View<std::uint8_t*, HostSpace> priority("critical_path_priorities", n);
  for (std::size_t i = 0; i < n; ++i) {
    // Band of the path length, counted from the longest: lengths in (longest*(P-1)/P, longest] -> 0.
    const std::int64_t shortfall = longest - length(i);
    const std::int64_t band = shortfall * num_priorities / longest;
    priority(i) = static_cast<std::uint8_t>(std::min<std::int64_t>(band, num_priorities - 1));
  }
  return priority;
}

}  // namespace Kokkos::Experimental

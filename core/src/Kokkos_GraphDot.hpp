#pragma once
// kdag extension: Graphviz (DOT) pictures of work DAGs, for `dot -Tsvg graph.dot > graph.svg`.
//
//   std::string dot = Kokkos::Experimental::work_graph_dot(policy);   // a WorkGraphPolicy's DAG
//
// An edge i -> j means j executes after i (the graph's own direction: row i lists i's
// successors).  Graphs larger than `max_items` are cut to their first max_items items, and the
// picture says so.  The fusion layer's analysis has Kokkos::Experimental::fusion_window_dot()
// (Kokkos_Fusion.hpp); a task DAG as it was executed, Kokkos::Experimental::traced_task_dag_dot()
// (Kokkos_Trace.hpp).
#include <Kokkos_Core.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>

#include <cstddef>
#include <string>

namespace Kokkos::Experimental {

template <class... Properties>
std::string work_graph_dot(const Kokkos::WorkGraphPolicy<Properties...>& policy, std::size_t max_items = 1000) {
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), policy.graph().row_map);
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), policy.graph().entries);
  const std::size_t items = static_cast<std::size_t>(policy.num_items());
  const std::size_t shown = items < max_items ? items : max_items;
  std::string out = "digraph work_graph {\n  node [shape=circle];\n";
  if (shown < items) {
    out += "  cut [shape=note, label=\"work graph of " + std::to_string(items) + " items: only the first " +
           std::to_string(shown) + " are drawn\"];\n";
  }
  for (std::size_t i = 0; i < shown; ++i) out += "  " + std::to_string(i) + ";\n";
  for (std::size_t i = 0; i < shown; ++i) {
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      const auto j = static_cast<std::size_t>(entries(k));
      if (j < shown) out += "  " + std::to_string(i) + " -> " + std::to_string(j) + ";\n";
    }
  }
  return out + "}\n";
}

}  // namespace Kokkos::Experimental

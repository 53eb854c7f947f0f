#pragma once
// A fusion plan as a Graphviz digraph (Kokkos::Experimental::fusion_window_dot): each run a
// cluster, fused launches joined, and each barrier labelled with the constraint that placed it.
#include <impl/fusion/Kokkos_FusionAnalysis.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace Kokkos::Impl {

inline std::string fusion_dot_quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// `names[k]`: launch k's reported name ("" when none: "launch k").
inline std::string fusion_plan_dot(const FusionPlan& plan, const std::vector<std::string>& names) {
  auto node_label = [&](std::size_t k) {
    return names[k].empty() ? "launch " + std::to_string(k) : names[k];
  };
  std::string out = "digraph fusion_window {\n  rankdir=LR;\n  node [shape=box];\n";
  for (std::size_t r = 0; r < plan.runs.size(); ++r) {
    const FusionRun& run = plan.runs[r];
    out += "  subgraph cluster_run" + std::to_string(r) + " {\n    label=\"" +
           (run.count > 1 ? "fused run " + std::to_string(r) + " (" + std::to_string(run.count) + " launches" +
                                (run.split >= 0 ? ", skewed" : "") + ")"
                          : "run " + std::to_string(r) + " (alone)") +
           "\";\n";
    for (std::uint32_t k = run.first; k < run.first + run.count; ++k) {
      out += "    l" + std::to_string(k) + " [label=" + fusion_dot_quoted(node_label(k)) + "];\n";
    }
    out += "  }\n";
    for (std::uint32_t k = run.first; k + 1 < run.first + run.count; ++k) {
      out += "  l" + std::to_string(k) + " -> l" + std::to_string(k + 1) + " [label=\"fused\"];\n";
    }
    if (run.ended_by != FusionConstraint::none) {
      const std::uint32_t last = run.first + run.count - 1;
      out += "  l" + std::to_string(last) + " -> l" + std::to_string(last + 1) + " [label=\"refused: " +
             fusion_constraint_name(run.ended_by) + "\", color=red, style=dashed];\n";
    } else if (r + 1 < plan.runs.size()) {
      const std::uint32_t last = run.first + run.count - 1;
      out += "  l" + std::to_string(last) + " -> l" + std::to_string(last + 1) + " [style=dotted];\n";
    }
  }
  return out + "}\n";
}

}  // namespace Kokkos::Impl

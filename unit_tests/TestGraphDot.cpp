// DOT pictures: a WorkGraphPolicy's DAG (Kokkos_GraphDot.hpp) with its nodes and edges, cut
// with a note when it is large; a fusion window's analysis (fusion_window_dot) with its runs,
// "fused" edges, and the seed-003 constraint that refused each adjacent pair.
#include "FusionTestFixture.hpp"
#include "TestCommon.hpp"

#include <Kokkos_Fusion.hpp>
#include <Kokkos_GraphDot.hpp>

#include <string>

namespace {

using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Kokkos::DefaultHostExecutionSpace>;

// A diamond 0 -> {1, 2} -> 3 plus `extra` isolated items.
Policy diamond(int extra) {
  const int n = 4 + extra;
  Policy::graph_type graph;
  graph.row_map = Policy::graph_type::row_map_type("row_map", n + 1);
  graph.entries = Policy::graph_type::entries_type("entries", 4);
  auto rows = Kokkos::create_mirror_view(graph.row_map);
  auto entries = Kokkos::create_mirror_view(graph.entries);
  rows(0) = 0, rows(1) = 2, rows(2) = 3;
  for (int i = 3; i <= n; ++i) rows(i) = 4;
  entries(0) = 1, entries(1) = 2, entries(2) = 3, entries(3) = 3;
  Kokkos::deep_copy(graph.row_map, rows);
  Kokkos::deep_copy(graph.entries, entries);
  return Policy(graph);
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(GraphDot, WorkGraphNodesAndEdges) {
  const std::string dot = Kokkos::Experimental::work_graph_dot(diamond(0));
  EXPECT_EQ(dot.rfind("digraph work_graph {", 0), 0u);
  EXPECT_EQ(count(dot, " -> "), 4);
  for (const char* edge : {"  0 -> 1;", "  0 -> 2;", "  1 -> 3;", "  2 -> 3;"}) {
    EXPECT_NE(dot.find(edge), std::string::npos) << edge << "\n" << dot;
  }
  for (const char* node : {"  0;", "  1;", "  2;", "  3;"}) EXPECT_NE(dot.find(node), std::string::npos) << node;
  EXPECT_EQ(dot.back(), '\n');
  EXPECT_EQ(dot.find("cut"), std::string::npos);
}

TEST(GraphDot, LargeWorkGraphIsCutWithANote) {
  const std::string dot = Kokkos::Experimental::work_graph_dot(diamond(20), 3);
  EXPECT_NE(dot.find("work graph of 24 items: only the first 3 are drawn"), std::string::npos) << dot;
  EXPECT_EQ(count(dot, " -> "), 2) << "only edges between drawn items: 0 -> 1, 0 -> 2";
  EXPECT_EQ(dot.find("  3;"), std::string::npos);
}

struct GraphDotFusion : Kokkos::Test::FusionFixture {};

// The fusion layer records host launches (a CUDA build's default space is never fused yet).
using HostRange = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>;
using HostView = Kokkos::View<double*, Kokkos::HostSpace>;

TEST_F(GraphDotFusion, FusionWindowRunsAndRefusals) {
  using namespace Kokkos::Experimental;
  const int n = 100;
  HostView a("a", n + 1), b("b", n), c("c", n);
  auto front = Kokkos::subview(a, Kokkos::make_pair(0, n));
  auto east = Kokkos::subview(a, Kokkos::make_pair(1, n + 1));
  // Names are kept while a trace listens.
  const std::string path = "/tmp/kdag_graphdot_trace_" + std::to_string(n) + ".json";
  start_trace(path);
  std::string dot;
  {
    FusionScope fuse;
    Kokkos::parallel_for("fill a", with_accesses(HostRange(0, n), writes(front)), KOKKOS_LAMBDA(int i) { front(i) = i; });
    Kokkos::parallel_for("b = a", with_accesses(HostRange(0, n), reads(front), writes(b)), KOKKOS_LAMBDA(int i) { b(i) = front(i); });
    // Reads, shifted, what the run wrote: refused (true dependence).
    Kokkos::parallel_for("shifted", with_accesses(HostRange(0, n), reads(east), writes(c)), KOKKOS_LAMBDA(int i) { c(i) = east(i); });
    // Another range: refused (launch domain).
    Kokkos::parallel_for("half", with_accesses(HostRange(0, n / 2), read_writes(b)), KOKKOS_LAMBDA(int i) { b(i) += 1; });
    dot = fusion_window_dot();
    EXPECT_EQ(fusion_pending_launches(), 4u) << "the picture leaves the launches pending";
  }
  stop_trace();
  std::remove(path.c_str());
  EXPECT_EQ(dot.rfind("digraph fusion_window {", 0), 0u);
  EXPECT_NE(dot.find("label=\"fused run 0 (2 launches)\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("l0 [label=\"fill a\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("l0 -> l1 [label=\"fused\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("l1 -> l2 [label=\"refused: true_dependence\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("l2 -> l3 [label=\"refused: launch_domain\""), std::string::npos) << dot;
  EXPECT_EQ(count(dot, "subgraph cluster_run"), 3);
  auto host_b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  EXPECT_EQ(host_b(0), 1.0);
  EXPECT_EQ(host_b(n - 1), n - 1.0);
}

TEST_F(GraphDotFusion, UnnamedLaunchesAreNumbered) {
  using namespace Kokkos::Experimental;
  HostView a("a", 10);
  FusionScope fuse;
  Kokkos::parallel_for("not kept", with_accesses(HostRange(0, 10), writes(a)), KOKKOS_LAMBDA(int i) { a(i) = i; });
  const std::string dot = fusion_window_dot();
  EXPECT_NE(dot.find("l0 [label=\"launch 0\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("run 0 (alone)"), std::string::npos) << dot;
}

}  // namespace

// The seed's naive Fibonacci as a static work DAG (seed 001, Figure 3.6).
//
// Unlike the task DAG (task_fibonacci.cpp), the whole DAG is built before anything runs: one
// work item per call of the naive recursion, and one closure that computes item i from the
// items it executes after.  The host builds the tree breadth first: item 0 is F(n), and every
// item for F(k), k > 1, has two children, F(k-1) and F(k-2).  A child executes before its
// parent, so the graph the policy takes has an entry "parent" in the row of each child:
//
//     j = graph.entries(graph.row_map(i))   means   j executes after i   (j is i's parent)
//
// The closure needs the other direction, the children of i, which is the transpose.
//
//   work_graph_fibonacci [--small] [n] [--kokkos-num-threads=N]
#include <Kokkos_Core.hpp>
#include <Kokkos_Crs.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using Space = Kokkos::DefaultHostExecutionSpace;
using Policy = Kokkos::WorkGraphPolicy<int, Space>;
using Graph = Policy::graph_type;
using Values = Kokkos::View<long*, Space::memory_space>;

struct Fibonacci {
  Graph m_graph;   // row i: the item that executes after i (its parent)
  Graph m_depend;  // row i: the items i executes after (its children), the transpose
  Values m_values;

  // Item i adds up its children once both have run; a leaf already holds F(0) or F(1).
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    const int k = m_depend.row_map(i);
    if (k < m_depend.row_map(i + 1)) m_values(i) += m_values(m_depend.entries(k)) + m_values(m_depend.entries(k + 1));
  }

  explicit Fibonacci(long n) {
    form_graph(n);
    transpose_crs(m_depend, m_graph);
  }

  struct HostEntry {
    long input;
    int parent;
  };

  void form_graph(long n) {
    std::vector<HostEntry> hg;
    hg.push_back({n, -1});
    for (int i = 0; i < int(hg.size()); ++i) {
      const HostEntry e = hg[std::size_t(i)];
      if (e.input < 2) continue;
      hg.push_back({e.input - 1, i});
      hg.push_back({e.input - 2, i});
    }
    // Every item but the root has exactly one parent: row i holds entry i-1.
    m_graph.row_map = Graph::row_map_type("row_map", hg.size() + 1);
    m_graph.entries = Graph::entries_type("entries", hg.size() - 1);
    m_values = Values("values", hg.size());
    auto row_map = Kokkos::create_mirror_view(m_graph.row_map);
    auto entries = Kokkos::create_mirror_view(m_graph.entries);
    auto values = Kokkos::create_mirror_view(m_values);
    row_map(0) = 0;
    for (int i = 0; i < int(hg.size()); ++i) {
      const HostEntry& e = hg[std::size_t(i)];
      row_map(i + 1) = i;
      if (e.input < 2) values(i) = e.input;
      if (e.parent != -1) entries(i - 1) = e.parent;
    }
    Kokkos::deep_copy(m_graph.row_map, row_map);
    Kokkos::deep_copy(m_graph.entries, entries);
    Kokkos::deep_copy(m_values, values);
  }
};

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  long n = 30;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--small") == 0) {
      n = 20;
    } else if (argv[a][0] != '-') {
      n = std::atol(argv[a]);
    }
  }
  if (n < 0 || n > 35) {
    std::fprintf(stderr, "work_graph_fibonacci: n = %ld must be in [0, 35]\n", n);
    return 1;
  }

  Kokkos::Timer timer;
  Fibonacci fib(n);
  const double build = timer.seconds();
  timer.reset();
  const Policy policy(fib.m_graph);  // checks the graph and plans its scheduling
  const double plan = timer.seconds();
  timer.reset();
  Kokkos::parallel_for("Fibonacci", policy, fib);
  Kokkos::fence();
  const double run = timer.seconds();

  auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fib.m_values);
  long a = 0, b = 1;  // the answer, by iteration
  for (long k = 0; k < n; ++k) {
    const long c = a + b;
    a = b;
    b = c;
  }
  std::printf("Fibonacci(%ld) = %ld with %zu work items on %s (%d threads)\n", n, values(0), values.extent(0),
              Space::name(), Space().concurrency());
  std::printf("  build %.3f s, policy %.3f s, run %.3f s (%.1f M items/s)\n", build, plan, run,
              1e-6 * double(values.extent(0)) / run);
  if (values(0) != a) {
    std::printf("  wrong: expected %ld\n", a);
    return 1;
  }
  return 0;
}

// A wavefront recurrence solved with a WorkGraphPolicy inside a time-step loop: the policy is
// built again every step from the same dependence graph, as Kokkos programs usually do, and
// every step's result is checked against a plain sequential loop.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <vector>

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Policy = Kokkos::WorkGraphPolicy<int, ExecSpace>;
using Graph = Policy::graph_type;

constexpr int rows = 120, cols = 90, steps = 6;

// Cell (r, c) needs (r-1, c) and (r, c-1): row k of the graph lists the cells that wait for k.
Graph make_wavefront() {
  Graph graph;
  graph.row_map = Graph::row_map_type("row_map", rows * cols + 1);
  auto row_map = Kokkos::create_mirror_view(graph.row_map);
  std::vector<int> successors;
  for (int k = 0; k < rows * cols; ++k) {
    row_map(k) = static_cast<int>(successors.size());
    const int r = k / cols, c = k % cols;
    if (c + 1 < cols) successors.push_back(k + 1);
    if (r + 1 < rows) successors.push_back(k + cols);
  }
  row_map(rows * cols) = static_cast<int>(successors.size());
  graph.entries = Graph::entries_type("entries", successors.size());
  auto entries = Kokkos::create_mirror_view(graph.entries);
  for (std::size_t e = 0; e < successors.size(); ++e) entries(e) = successors[e];
  Kokkos::deep_copy(graph.row_map, row_map);
  Kokkos::deep_copy(graph.entries, entries);
  return graph;
}

struct Recurrence {
  Kokkos::View<double*> value;
  int step;
  KOKKOS_INLINE_FUNCTION void operator()(int k) const {
    const int r = k / cols, c = k % cols;
    const double up = r > 0 ? value(k - cols) : 0.0;
    const double left = c > 0 ? value(k - 1) : 0.0;
    value(k) = (up > left ? up : left) + static_cast<double>((r * 7 + c * 3 + step) % 5);
  }
};

int main(int argc, char* argv[]) {
  int failures = 0;
  Kokkos::initialize(argc, argv);
  {
    const Graph graph = make_wavefront();
    Kokkos::View<double*> value("value", rows * cols);
    std::vector<double> expected(rows * cols);
    for (int step = 0; step < steps; ++step) {
      Kokkos::parallel_for("wavefront", Policy(graph), Recurrence{value, step});
      Kokkos::fence();
      for (int k = 0; k < rows * cols; ++k) {
        const int r = k / cols, c = k % cols;
        const double up = r > 0 ? expected[k - cols] : 0.0, left = c > 0 ? expected[k - 1] : 0.0;
        expected[k] = (up > left ? up : left) + static_cast<double>((r * 7 + c * 3 + step) % 5);
      }
      auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), value);
      for (int k = 0; k < rows * cols; ++k) {
        if (host(k) != expected[k]) {
          if (failures++ < 5) std::printf("step %d: cell %d is %g, expected %g\n", step, k, host(k), expected[k]);
        }
      }
    }
  }
  Kokkos::finalize();
  if (failures != 0) {
    std::printf("FAILED: %d wrong cells\n", failures);
    return 1;
  }
  std::printf("wavefront over %d time steps: OK\n", steps);
  return 0;
}

// A Kokkos 4 kernel graph in the style of Kokkos' graph examples: a chain of parallel_for nodes,
// a fork joined with when_all, a reduction into a View, submitted several times.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using exec_space = Kokkos::DefaultExecutionSpace;
  const int n = 10000, steps = 4, submissions = 3;
  Kokkos::View<double*> a("a", n), b("b", n);
  Kokkos::View<double> total("total");

  auto graph = Kokkos::Experimental::create_graph(exec_space{}, [&](auto root) {
    auto node = root.then_parallel_for("init_a", Kokkos::RangePolicy<exec_space>(0, n),
                                       KOKKOS_LAMBDA(const int i) { a(i) += 1.0; });
    for (int s = 0; s < steps; ++s) {
      node = node.then_parallel_for("scale", n, KOKKOS_LAMBDA(const int i) { a(i) = 0.5 * a(i) + s; });
    }
    auto other = root.then_parallel_for("init_b", n, KOKKOS_LAMBDA(const int i) { b(i) = 2.0 * i; });
    Kokkos::Experimental::when_all(node, other)
        .then_parallel_reduce("dot", n, KOKKOS_LAMBDA(const int i, double& sum) { sum += a(i) * b(i); }, total);
  });
  graph.instantiate();

  double expected_a = 0;
  int errors = 0;
  for (int k = 0; k < submissions; ++k) {
    graph.submit();
    Kokkos::fence();
    expected_a += 1.0;
    for (int s = 0; s < steps; ++s) expected_a = 0.5 * expected_a + s;
    auto host_a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, a);
    auto host_total = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, total);
    double expected_total = 0;
    for (int i = 0; i < n; ++i) {
      if (host_a(i) != expected_a) ++errors;
      expected_total += expected_a * 2.0 * i;
    }
    if (std::fabs(host_total() - expected_total) > 1e-9 * expected_total) {
      std::printf("submission %d: total %.17g, expected %.17g\n", k, host_total(), expected_total);
      ++errors;
    }
  }
  std::printf("graph_basic: %s\n", errors == 0 ? "passed" : "FAILED");
  return errors == 0 ? 0 : 1;
}

// A Kokkos 4.7 kernel graph with host nodes, in the style of Kokkos' graph tutorial: a device
// step, a host node that inspects its result and chooses the next step's parameter, a second
// device step that reads it, and a host node that reports; submitted several times.
#include <Kokkos_Core.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using exec_space = Kokkos::DefaultExecutionSpace;
  using shared_space = Kokkos::SharedSpace;  // read by the host nodes and the kernels alike
  const int n = 1000, submissions = 4;
  Kokkos::View<double*, shared_space> x("x", n);
  Kokkos::View<double, shared_space> factor("factor");
  int host_calls = 0, errors = 0;
  double last_seen = -1;

  exec_space exec;
  auto graph = Kokkos::Experimental::create_graph(exec, [&](auto root) {
    auto step = root.then_parallel_for("step", Kokkos::RangePolicy<exec_space>(0, n),
                                       KOKKOS_LAMBDA(const int i) { x(i) += i; });
    auto choose = step.then_host("choose factor", [&]() {
      ++host_calls;
      factor() = x(n - 1) > 2.0 * (n - 1) ? 0.5 : 1.0;
    });
    auto scale = choose.then_parallel_for("scale", Kokkos::RangePolicy<exec_space>(0, n),
                                          KOKKOS_LAMBDA(const int i) { x(i) *= factor(); });
    scale.then_host("report", [&]() { last_seen = x(n - 1); });
  });
  graph.instantiate();

  // x(i) after k submissions: add i, then halve once the value exceeds 2i.
  double expected = 0;
  for (int k = 1; k <= submissions; ++k) {
    graph.submit();
    exec.fence();
    expected += 1.0;
    if (expected > 2.0) expected *= 0.5;
    for (int i = 0; i < n; ++i) {
      if (x(i) != expected * i) ++errors;
    }
    if (last_seen != expected * (n - 1) || host_calls != k) {
      std::printf("submission %d: report saw %g (expected %g), %d host calls\n", k, last_seen, expected * (n - 1),
                  host_calls);
      ++errors;
    }
  }
  std::printf("graph_then_host: %s\n", errors == 0 ? "passed" : "FAILED");
  return errors == 0 ? 0 : 1;
}

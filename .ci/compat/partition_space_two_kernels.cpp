// Two independent kernels on two partitions of the host execution space, launched from two host
// threads so that they run at the same time.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <thread>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using ExecSpace = Kokkos::DefaultHostExecutionSpace;
  auto instances = Kokkos::Experimental::partition_space(ExecSpace(), 1, 1);
  const int n = 200000;
  Kokkos::View<double*, Kokkos::HostSpace> a("a", n), b("b", n);
  double sum_a = 0, sum_b = 0;

  std::thread first([&] {
    Kokkos::parallel_for("axpy a", Kokkos::RangePolicy<ExecSpace>(instances[0], 0, n),
                         KOKKOS_LAMBDA(int i) { a(i) = 2.0 * i; });
    Kokkos::parallel_reduce("sum a", Kokkos::RangePolicy<ExecSpace>(instances[0], 0, n),
                            KOKKOS_LAMBDA(int i, double& s) { s += a(i); }, sum_a);
    instances[0].fence("first instance done");
  });
  std::thread second([&] {
    Kokkos::parallel_for("fill b", Kokkos::RangePolicy<ExecSpace>(instances[1], 0, n),
                         KOKKOS_LAMBDA(int i) { b(i) = 1.0; });
    Kokkos::parallel_reduce("sum b", Kokkos::RangePolicy<ExecSpace>(instances[1], 0, n),
                            KOKKOS_LAMBDA(int i, double& s) { s += b(i); }, sum_b);
    instances[1].fence("second instance done");
  });
  first.join();
  second.join();

  const double expected_a = double(n) * (n - 1);
  const bool ok = sum_a == expected_a && sum_b == n;
  std::printf("partition_space_two_kernels: %zu instances, sums %.0f and %.0f, %s\n", instances.size(), sum_a, sum_b,
              ok ? "correct" : "WRONG");
  return ok ? 0 : 1;
}

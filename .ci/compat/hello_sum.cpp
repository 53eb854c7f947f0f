// Builds against the installed headers and library only; checks a result so a broken install fails.
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 1000;
  Kokkos::View<double*> x("x", n);
  Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(std::int64_t i) { x(i) = static_cast<double>(i); });
  double sum = 0;
  Kokkos::parallel_reduce("sum", n, KOKKOS_LAMBDA(std::int64_t i, double& s) { s += x(i); }, sum);
  const double expected = n * (n - 1) / 2.0;
  std::printf("consumer: %s sum = %.0f (expected %.0f)\n", Kokkos::DefaultExecutionSpace::name(), sum, expected);
  return sum == expected ? 0 : 1;
}

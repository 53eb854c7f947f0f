// Monte Carlo estimate of pi with Kokkos' random pool, as in Kokkos' random-number tutorial:
// each iteration takes its thread's generator, throws darts at the unit square and counts those
// inside the quarter circle.
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <cmath>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using Pool = Kokkos::Random_XorShift64_Pool<Kokkos::DefaultExecutionSpace>;
  Pool pool(/*seed=*/5374857);
  const long iterations = 1 << 16, darts_per_iteration = 64;

  long inside = 0;
  Kokkos::parallel_reduce(
      "pi", iterations,
      KOKKOS_LAMBDA(long, long& count) {
        Pool::generator_type gen = pool.get_state();
        for (long d = 0; d < darts_per_iteration; ++d) {
          const double x = gen.drand(), y = gen.drand();
          if (x * x + y * y <= 1.0) ++count;
        }
        pool.free_state(gen);
      },
      inside);

  const double darts = double(iterations) * darts_per_iteration;
  const double pi = 4.0 * double(inside) / darts;
  // Binomial standard error of the estimate; 6 of them is far beyond chance.
  const double error = 4.0 * std::sqrt(0.25 * M_PI * (1 - 0.25 * M_PI) / darts);
  std::printf("pi ~ %.6f from %.0f darts (|error| %.2e, tolerance %.2e)\n", pi, darts, std::fabs(pi - M_PI), 6 * error);
  return std::fabs(pi - M_PI) < 6 * error ? 0 : 1;
}

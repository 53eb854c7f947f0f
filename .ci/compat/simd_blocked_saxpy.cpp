// A tutorial-style Kokkos SIMD kernel: z = a * x + y over a View, each parallel_for index
// handling one native SIMD vector (copy_from / copy_to), the last partial vector handled by a
// scalar remainder loop; then a masked reduction over the same data.
#include <Kokkos_Core.hpp>
#include <Kokkos_SIMD.hpp>

#include <cmath>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using simd_t = Kokkos::Experimental::native_simd<double>;
  using mask_t = Kokkos::Experimental::native_simd_mask<double>;
  constexpr int width = int(simd_t::size());
  const int n = 1000 + width / 2 + 3;  // not a multiple of the width
  const double a = 2.5;

  Kokkos::View<double*> x("x", n), y("y", n), z("z", n);
  Kokkos::parallel_for(
      "init", n, KOKKOS_LAMBDA(int i) {
        x(i) = 0.001 * i;
        y(i) = 1.0 - 0.5 * (i % 7);
      });

  const int vectors = n / width;
  Kokkos::parallel_for(
      "simd_axpy", vectors, KOKKOS_LAMBDA(int v) {
        simd_t xv, yv;
        xv.copy_from(x.data() + v * width, Kokkos::Experimental::simd_flag_default);
        yv.copy_from(y.data() + v * width, Kokkos::Experimental::simd_flag_default);
        simd_t zv = a * xv + yv;
        zv.copy_to(z.data() + v * width, Kokkos::Experimental::simd_flag_default);
      });
  for (int i = vectors * width; i < n; ++i) z(i) = a * x(i) + y(i);  // scalar remainder
  Kokkos::fence();

  // Sum of the positive entries, vector by vector, through a mask.
  double positive_sum = 0.0;
  Kokkos::parallel_reduce(
      "masked_sum", vectors,
      KOKKOS_LAMBDA(int v, double& sum) {
        simd_t zv(z.data() + v * width, Kokkos::Experimental::element_aligned_tag());
        mask_t positive = zv > simd_t(0.0);
        sum += Kokkos::Experimental::reduce(zv, positive, std::plus<>());
      },
      positive_sum);
  for (int i = vectors * width; i < n; ++i)
    if (z(i) > 0.0) positive_sum += z(i);

  int errors = 0;
  double expected_sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double expected = a * (0.001 * i) + (1.0 - 0.5 * (i % 7));
    // A tolerance, not equality: the compiler may fuse a * x + y into one fma in either loop.
    if (std::abs(z(i) - expected) > 1e-14 * (1.0 + std::abs(expected))) ++errors;
    if (expected > 0.0) expected_sum += expected;
  }
  if (std::abs(positive_sum - expected_sum) > 1e-9 * expected_sum) ++errors;
  std::printf("simd width %d, n %d, positive sum %.6f (expected %.6f), %d errors\n", width, n, positive_sum,
              expected_sum, errors);
  return errors == 0 ? 0 : 1;
}

// Mixed precision as Kokkos programs write it: vectors stored as Kokkos::Experimental::half_t,
// arithmetic in float, a float dot product of half data, and a Max reduction over half values.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>

using Kokkos::Experimental::half_t;

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 4096;
  Kokkos::View<half_t*> x("x", n), y("y", n);
  Kokkos::parallel_for(
      "init", n, KOKKOS_LAMBDA(const int i) {
        x(i) = static_cast<float>(i % 64) / 64.0f;  // exact in half precision
        y(i) = half_t(1.0f);
      });

  // y = 2 x + y in half storage, computed in float.
  const float alpha = 2.0f;
  Kokkos::parallel_for(
      "axpy", n, KOKKOS_LAMBDA(const int i) { y(i) = alpha * static_cast<float>(x(i)) + static_cast<float>(y(i)); });

  float dot = 0.0f;
  Kokkos::parallel_reduce(
      "dot", n, KOKKOS_LAMBDA(const int i, float& s) { s += static_cast<float>(x(i)) * static_cast<float>(y(i)); },
      dot);

  // Host reference in double: every y(i) = 2 k/64 + 1 is exact in half precision.
  double ref = 0.0;
  for (int i = 0; i < n; ++i) {
    const double xi = (i % 64) / 64.0;
    ref += xi * (2.0 * xi + 1.0);
  }

  half_t max_y;
  Kokkos::parallel_reduce(
      "max", n, KOKKOS_LAMBDA(const int i, half_t& m) { m = y(i) > m ? y(i) : m; }, Kokkos::Max<half_t>(max_y));

  const bool ok = std::fabs(dot - ref) <= 1e-5 * ref && static_cast<float>(max_y) == 2.0f * 63.0f / 64.0f + 1.0f &&
                  sizeof(half_t) == 2;
  std::printf("half_storage_axpy: dot %.4f (reference %.4f), max y %.6f: %s\n", dot, ref,
              static_cast<double>(static_cast<float>(max_y)), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}

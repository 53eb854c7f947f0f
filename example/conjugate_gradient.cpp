// Conjugate gradient on the 1-D Laplacian (conjugate_gradient.hpp) to a tolerance, fused and
// unfused; the solutions must be identical and solve the system.
//   conjugate_gradient [--small]
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include "conjugate_gradient.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace KE = Kokkos::Experimental;
using conjugate_gradient::Array;

// Returns the number of iterations; x holds the solution of A x = b.
int solve(const Array& b, const Array& x, int max_iterations, double tolerance) {
  Kokkos::DefaultHostExecutionSpace space;
  const conjugate_gradient::Workspace w(static_cast<std::int64_t>(b.extent(0)));
  KE::FusionScope scope;
  return conjugate_gradient::solve(space, b, x, w, max_iterations, tolerance);
}

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  bool small = false;
  for (int i = 1; i < argc; ++i) small = small || std::strcmp(argv[i], "--small") == 0;
  const std::int64_t n = small ? 200 : 20000;
  Array b("b", n), x_fused("x_fused", n), x_plain("x_plain", n);
  for (std::int64_t i = 0; i < n; ++i) b(i) = std::sin(3.0 * double(i) / double(n)) + 0.1;

  KE::reset_fusion_statistics();
  Kokkos::Timer timer;
  const int it_fused = solve(b, x_fused, 4 * static_cast<int>(n), 1e-10);
  const double fused_s = timer.seconds();
  const auto s = KE::fusion_statistics();
  KE::set_fusion_enabled(false);
  timer.reset();
  const int it_plain = solve(b, x_plain, 4 * static_cast<int>(n), 1e-10);
  const double unfused_s = timer.seconds();
  KE::set_fusion_enabled(true);

  // Residual of the fused solution.
  double res = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double left = i > 0 ? x_fused(i - 1) : 0.0, right = i + 1 < n ? x_fused(i + 1) : 0.0;
    const double ri = b(i) - (2.0 * x_fused(i) - left - right);
    res += ri * ri;
  }
  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < n; ++i) differ += x_fused(i) != x_plain(i);
  std::printf("CG on the 1-D Laplacian, n=%lld: %d iterations (unfused %d), |b - A x| = %.3e\n", (long long)n,
              it_fused, it_plain, std::sqrt(res));
  std::printf("  %llu launches -> %llu dispatches; unfused %.3f ms, fused %.3f ms; solutions differing: %lld\n",
              (unsigned long long)s.launches_recorded, (unsigned long long)s.dispatches, 1e3 * unfused_s,
              1e3 * fused_s, (long long)differ);
  KE::print_fusion_statistics(std::cout);
  return differ == 0 && it_fused == it_plain && std::sqrt(res) < 1e-6 ? 0 : 1;
}

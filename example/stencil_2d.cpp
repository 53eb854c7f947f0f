// The five-point stencil of seed 003 Figure 1a (stencil_2d.hpp), fused and unfused: each
// iteration's six launches become one fused launch; the results must be identical.
//   stencil_2d [--small]
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include "stencil_2d.hpp"

#include <cstdio>
#include <cstring>
#include <iostream>

namespace KE = Kokkos::Experimental;
using stencil_2d::Grid;

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  bool small = false;
  for (int i = 1; i < argc; ++i) small = small || std::strcmp(argv[i], "--small") == 0;
  const std::int64_t n = small ? 64 : 1500;
  const int iterations = small ? 8 : 40;
  Grid a("a", n + 2, n + 2), b("b", n + 2, n + 2), avg("avg", n, n), work("work", n, n);
  for (std::int64_t i = 0; i < n + 2; ++i) {
    a(i, 0) = b(i, 0) = 1.0;  // a hot west wall
  }
  Kokkos::DefaultHostExecutionSpace space;
  KE::reset_fusion_statistics();
  Kokkos::Timer timer;
  {
    KE::FusionScope scope;
    stencil_2d::iterate(space, a, avg, work, iterations);
  }
  const double fused_s = timer.seconds();
  const auto s = KE::fusion_statistics();
  timer.reset();
  stencil_2d::iterate(space, b, avg, work, iterations);
  const double unfused_s = timer.seconds();
  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < n + 2; ++i)
    for (std::int64_t j = 0; j < n + 2; ++j) differ += a(i, j) != b(i, j);
  std::printf("2-D five-point stencil %lldx%lld, %d iterations: %llu launches -> %llu dispatches (max fused %llu)\n",
              (long long)n, (long long)n, iterations, (unsigned long long)s.launches_recorded,
              (unsigned long long)s.dispatches, (unsigned long long)s.max_fused_length);
  std::printf("  unfused %.3f ms, fused %.3f ms; results differing: %lld; a(n/2, 1) = %.6f\n", 1e3 * unfused_s,
              1e3 * fused_s, (long long)differ, a(n / 2, 1));
  KE::print_fusion_statistics(std::cout);
  return differ == 0 && (!KE::fusion_enabled() || s.max_fused_length == 6) ? 0 : 1;
}

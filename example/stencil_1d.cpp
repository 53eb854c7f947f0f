// The weighted three-point stencil of seed 000 §III-C2 (stencil_1d.hpp), fused and unfused:
// each iteration's two launches fuse, consecutive iterations do not, so the window splits
// {1,2} {3,4} ...; the results must be identical.
//   stencil_1d [--small]
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include "stencil_1d.hpp"

#include <cstdio>
#include <cstring>
#include <iostream>

namespace KE = Kokkos::Experimental;
using stencil_1d::Array;

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  bool small = false;
  for (int i = 1; i < argc; ++i) small = small || std::strcmp(argv[i], "--small") == 0;
  const std::int64_t N = small ? 1000 : 4000000;
  const int iterations = small ? 10 : 50;
  Array a("a", N), b("b", N), out_a("out_a", N - 2), out_b("out_b", N - 2);
  for (std::int64_t i = 0; i < N; ++i) a(i) = b(i) = (i % 17 == 0) ? 1.0 : 0.0;

  Kokkos::DefaultHostExecutionSpace space;
  KE::reset_fusion_statistics();
  Kokkos::Timer timer;
  {
    KE::FusionScope scope;
    stencil_1d::iterate(space, a, out_a, iterations);
  }
  const double fused_s = timer.seconds();
  const auto s = KE::fusion_statistics();
  timer.reset();
  stencil_1d::iterate(space, b, out_b, iterations);
  const double unfused_s = timer.seconds();

  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < N; ++i) differ += a(i) != b(i);
  std::printf("1-D stencil, N=%lld, %d iterations: %llu launches -> %llu dispatches, %llu fused of length %llu\n",
              (long long)N, iterations, (unsigned long long)s.launches_recorded, (unsigned long long)s.dispatches,
              (unsigned long long)s.fused_launches, (unsigned long long)s.max_fused_length);
  std::printf("  unfused %.3f ms, fused %.3f ms; results differing: %lld\n", 1e3 * unfused_s, 1e3 * fused_s,
              (long long)differ);
  KE::print_fusion_statistics(std::cout);
  const bool split_as_seed = !KE::fusion_enabled() || s.fused_launches == static_cast<std::uint64_t>(iterations) && s.max_fused_length == 2;
  return differ == 0 && split_as_seed ? 0 : 1;
}

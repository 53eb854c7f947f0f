// Black-Scholes (seed 000 Listing 1) written with the array algorithms, one call per NumPy
// operation.  Inside a FusionScope the ~30 launches become a single launch: no annotation in
// user code, because the algorithms declare their own accesses.
//   black_scholes [--small] [--kokkos-num-threads=N]
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include "black_scholes.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  bool small = false;
  for (int i = 1; i < argc; ++i) small = small || std::strcmp(argv[i], "--small") == 0;
  namespace KE = Kokkos::Experimental;
  const std::int64_t n = small ? 10000 : 2000000;
  const int repeats = small ? 3 : 20;
  Kokkos::DefaultHostExecutionSpace space;
  black_scholes::Data fused(n), unfused(n);

  KE::reset_fusion_statistics();
  Kokkos::Timer timer;
  for (int r = 0; r < repeats; ++r) {
    KE::FusionScope scope;  // everything issued in here is recorded, then fused at the end
    black_scholes::black_scholes_algorithms(space, fused);
  }
  const double fused_s = timer.seconds() / repeats;
  const auto stats = KE::fusion_statistics();

  timer.reset();
  for (int r = 0; r < repeats; ++r) black_scholes::black_scholes_algorithms(space, unfused);  // no window
  const double unfused_s = timer.seconds() / repeats;

  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    differ += (fused.call(i) != unfused.call(i) || fused.put(i) != unfused.put(i));
  }
  std::printf("Black-Scholes, %lld options: %llu launches per pricing -> %llu fused launch(es)\n", (long long)n,
              (unsigned long long)(stats.launches_recorded / repeats),
              (unsigned long long)(stats.dispatches / repeats));
  std::printf("  unfused %.3f ms, fused %.3f ms, speedup %.2fx; results differing: %lld\n", 1e3 * unfused_s,
              1e3 * fused_s, unfused_s / fused_s, (long long)differ);
  std::printf("  option 0: S=%.2f X=%.2f T=%.3f  call=%.4f put=%.4f\n", fused.S(0), fused.X(0), fused.T(0),
              fused.call(0), fused.put(0));
  KE::print_fusion_statistics(std::cout);
  const bool one_launch = !KE::fusion_enabled() || stats.dispatches == static_cast<std::uint64_t>(repeats);
  return differ == 0 && one_launch ? 0 : 1;
}

// The five-point stencil of seed 003 Figure 1a, written as cuPyNumeric issues it (one launch
// per array operation, a temporary per result):
//   center = grid[1:-1, 1:-1]; north = grid[0:-2, 1:-1]; east = grid[1:-1, 2:]; ...
//   loop: avg = center + north + east + west + south; work = 0.2 * avg; center[:] = work
// A launch iterates over rows; each declares rank-2 subviews, so iteration i touches row i.
// Diffuse fuses all but the final copy (it writes a View that others read shifted); here the
// copy joins too, trailing the other launches by one row (the skewed schedule), so each
// iteration is one fused launch.
//   stencil_2d [--small]
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include <cstdio>
#include <cstring>
#include <iostream>

namespace KE = Kokkos::Experimental;
using Grid = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
using Range = std::pair<std::int64_t, std::int64_t>;

void iterate(const Grid& grid, const Grid& avg, const Grid& work, int iterations) {
  const std::int64_t n = static_cast<std::int64_t>(avg.extent(0));
  const auto center = Kokkos::subview(grid, Range(1, n + 1), Range(1, n + 1));
  const auto north = Kokkos::subview(grid, Range(0, n), Range(1, n + 1));
  const auto south = Kokkos::subview(grid, Range(2, n + 2), Range(1, n + 1));
  const auto east = Kokkos::subview(grid, Range(1, n + 1), Range(2, n + 2));
  const auto west = Kokkos::subview(grid, Range(1, n + 1), Range(0, n));
  Kokkos::RangePolicy<> rows(0, n);
  auto add = [&](const auto& a, const auto& b, const Grid& out) {
    Kokkos::parallel_for("add", KE::with_accesses(rows, KE::reads(a), KE::reads(b), KE::writes(out)),
                         KOKKOS_LAMBDA(int i) {
                           for (std::int64_t j = 0; j < n; ++j) out(i, j) = a(i, j) + b(i, j);
                         });
  };
  for (int it = 0; it < iterations; ++it) {
    add(center, north, avg);
    add(avg, east, avg);
    add(avg, west, avg);
    add(avg, south, avg);
    Kokkos::parallel_for("mult", KE::with_accesses(rows, KE::reads(avg), KE::writes(work)), KOKKOS_LAMBDA(int i) {
      for (std::int64_t j = 0; j < n; ++j) work(i, j) = 0.2 * avg(i, j);
    });
    Kokkos::parallel_for("copy", KE::with_accesses(rows, KE::reads(work), KE::writes(center)), KOKKOS_LAMBDA(int i) {
      for (std::int64_t j = 0; j < n; ++j) center(i, j) = work(i, j);
    });
  }
}

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
  KE::reset_fusion_statistics();
  Kokkos::Timer timer;
  {
    KE::FusionScope scope;
    iterate(a, avg, work, iterations);
  }
  const double fused_s = timer.seconds();
  const auto s = KE::fusion_statistics();
  timer.reset();
  iterate(b, avg, work, iterations);
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

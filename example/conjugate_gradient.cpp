// Conjugate gradient on the 1-D Laplacian (tridiag(-1, 2, -1)), written with the array
// algorithms plus one annotated matrix-vector launch that reads p through shifted subviews.
// Each dot product ends its fused run and hands its value to the host:
//   {Ap = A p, pAp = dot(p, Ap)}  {x += alpha p, r -= alpha Ap, rr = dot(r, r)}  {p = r + beta p}
//   conjugate_gradient [--small]
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>
#include <Kokkos_StdAlgorithms_Fused.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace KE = Kokkos::Experimental;
using Array = Kokkos::View<double*, Kokkos::HostSpace>;
using Range = std::pair<std::int64_t, std::int64_t>;

// Returns the number of iterations; x holds the solution of A x = b.
int solve(const Array& b, const Array& x, int max_iterations, double tolerance) {
  Kokkos::DefaultExecutionSpace space;
  const std::int64_t n = static_cast<std::int64_t>(b.extent(0));
  Array p_ext("p_ext", n + 2), r("r", n), Ap("Ap", n);  // p with a zero halo
  const auto p = Kokkos::subview(p_ext, Range(1, n + 1));
  const auto p_left = Kokkos::subview(p_ext, Range(0, n));
  const auto p_right = Kokkos::subview(p_ext, Range(2, n + 2));
  KE::FusionScope scope;
  KE::fill(space, x, 0.0);
  KE::copy(space, b, r);
  KE::copy(space, b, p);
  double rr = KE::dot(space, r, r);
  int it = 0;
  for (; it < max_iterations && std::sqrt(rr) > tolerance; ++it) {
    Kokkos::parallel_for("matvec",
                         KE::with_accesses(Kokkos::RangePolicy<>(0, n), KE::reads(p), KE::reads(p_left),
                                           KE::reads(p_right), KE::writes(Ap)),
                         KOKKOS_LAMBDA(int i) { Ap(i) = 2.0 * p(i) - p_left(i) - p_right(i); });
    const double alpha = rr / KE::dot(space, p, Ap);
    KE::axpby(space, alpha, p, 1.0, x);
    KE::axpby(space, -alpha, Ap, 1.0, r);
    const double rr_new = KE::dot(space, r, r);
    KE::axpby(space, 1.0, r, rr_new / rr, p);
    rr = rr_new;
  }
  return it;
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

#pragma once
// Conjugate gradient on the 1-D Laplacian (tridiag(-1, 2, -1)), written with the array
// algorithms plus one annotated matrix-vector launch that reads p through shifted subviews.
// Inside a FusionScope each dot product ends its fused run and hands its value to the host:
//   {Ap = A p, pAp = dot(p, Ap)}  {x += alpha p, r -= alpha Ap, rr = dot(r, r)}  {p = r + beta p}
// solve_loop is the hand-written limit: those three runs as one plain launch each.
// Shared by example/conjugate_gradient.cpp and perf_tests/PerfFusion.cpp.
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>
#include <Kokkos_StdAlgorithms_Fused.hpp>

#include <cmath>
#include <cstdint>
#include <utility>

namespace conjugate_gradient {

namespace KE = Kokkos::Experimental;
using Array = Kokkos::View<double*, Kokkos::HostSpace>;
using Range = std::pair<std::int64_t, std::int64_t>;

// The solver's vectors: p with a zero halo (p_ext(0) and p_ext(n + 1) are never written).
struct Workspace {
  Array p_ext, r, Ap;
  explicit Workspace(std::int64_t n) : p_ext("p_ext", n + 2), r("r", n), Ap("Ap", n) {}
};

// One rank holding the whole system: no halo to exchange, dot products are already global.
// example/mpi_cg.cpp passes its own, which exchanges p's halo elements with the neighbouring
// ranks and sums dot products over all ranks.
struct SingleRank {
  int exchange_halo(const Array&) const { return 0; }
  double sum(double local) const { return local; }
};

// Returns the number of iterations; x holds the solution of A x = b.
template <class Space, class Ranks = SingleRank>
int solve(const Space& space, const Array& b, const Array& x, const Workspace& w, int max_iterations,
          double tolerance, const Ranks& ranks = Ranks()) {
  const std::int64_t n = static_cast<std::int64_t>(b.extent(0));
  const Array r = w.r, Ap = w.Ap;
  const auto p = Kokkos::subview(w.p_ext, Range(1, n + 1));
  const auto p_left = Kokkos::subview(w.p_ext, Range(0, n));
  const auto p_right = Kokkos::subview(w.p_ext, Range(2, n + 2));
  KE::fill(space, x, 0.0);
  KE::copy(space, b, r);
  KE::copy(space, b, p);
  double rr = ranks.sum(KE::dot(space, r, r));
  int it = 0;
  for (; it < max_iterations && std::sqrt(rr) > tolerance; ++it) {
    // In flight until the matrix-vector product needs the halo (it lives to the end of the iteration).
    [[maybe_unused]] const auto halo = ranks.exchange_halo(w.p_ext);
    Kokkos::parallel_for("matvec",
                         KE::with_accesses(Kokkos::RangePolicy<Space>(space, 0, n), KE::reads(p), KE::reads(p_left),
                                           KE::reads(p_right), KE::writes(Ap)),
                         KOKKOS_LAMBDA(std::int64_t i) { Ap(i) = 2.0 * p(i) - p_left(i) - p_right(i); });
    const double alpha = rr / ranks.sum(KE::dot(space, p, Ap));
    KE::axpby(space, alpha, p, 1.0, x);
    KE::axpby(space, -alpha, Ap, 1.0, r);
    const double rr_new = ranks.sum(KE::dot(space, r, r));
    KE::axpby(space, 1.0, r, rr_new / rr, p);
    rr = rr_new;
  }
  return it;
}

// The same iteration as plain launches: the setup with the first r.r, then per iteration
// {matvec, p.Ap}, {x and r updates, r.r} and {p update}.  Vector and Work may live in any
// memory space Space can access (perf_tests/PerfCudaFusion.cpp passes CudaSpace ones): Work
// has members p_ext, r and Ap as Workspace does.
template <class Space, class Vector, class Work>
int solve_loop(const Space& space, const Vector& b, const Vector& x, const Work& w, int max_iterations,
               double tolerance) {
  const std::int64_t n = static_cast<std::int64_t>(b.extent(0));
  const Vector p = w.p_ext, r = w.r, Ap = w.Ap;  // p(i + 1) is the solver's p_i
  Kokkos::RangePolicy<Space> policy(space, 0, n);
  double rr = 0;
  Kokkos::parallel_reduce(
      "cg_loop_setup", policy,
      KOKKOS_LAMBDA(std::int64_t i, double& sum) {
        x(i) = 0.0;
        r(i) = b(i);
        p(i + 1) = b(i);
        sum += b(i) * b(i);
      },
      rr);
  int it = 0;
  for (; it < max_iterations && std::sqrt(rr) > tolerance; ++it) {
    double pAp = 0;
    Kokkos::parallel_reduce(
        "cg_loop_matvec", policy,
        KOKKOS_LAMBDA(std::int64_t i, double& sum) {
          Ap(i) = 2.0 * p(i + 1) - p(i) - p(i + 2);
          sum += p(i + 1) * Ap(i);
        },
        pAp);
    const double alpha = rr / pAp;
    double rr_new = 0;
    Kokkos::parallel_reduce(
        "cg_loop_update", policy,
        KOKKOS_LAMBDA(std::int64_t i, double& sum) {
          x(i) = alpha * p(i + 1) + 1.0 * x(i);
          r(i) = -alpha * Ap(i) + 1.0 * r(i);
          sum += r(i) * r(i);
        },
        rr_new);
    const double beta = rr_new / rr;
    Kokkos::parallel_for(
        "cg_loop_direction", policy, KOKKOS_LAMBDA(std::int64_t i) { p(i + 1) = 1.0 * r(i) + beta * p(i + 1); });
    rr = rr_new;
  }
  return it;
}

}  // namespace conjugate_gradient

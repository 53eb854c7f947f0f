#pragma once
// The five-point stencil of seed 003 Figure 1a, written as cuPyNumeric issues it (one launch
// per array operation, a temporary per result):
//   center = grid[1:-1, 1:-1]; north = grid[0:-2, 1:-1]; east = grid[1:-1, 2:]; ...
//   loop: avg = center + north + east + west + south; work = 0.2 * avg; center[:] = work
// A launch iterates over rows; each declares rank-2 subviews, so iteration i touches row i.
// Diffuse fuses all but the final copy (it writes a View that others read shifted); here the
// copy joins too, trailing the other launches by one row (the skewed schedule), so each
// iteration is one fused launch.  iterate_loop is the hand-written limit: a double-buffered
// Jacobi sweep, one launch per iteration, producing the same values.
// Shared by example/stencil_2d.cpp and perf_tests/PerfFusion.cpp.
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include <cstdint>
#include <utility>

namespace stencil_2d {

namespace KE = Kokkos::Experimental;
using Grid = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
using Range = std::pair<std::int64_t, std::int64_t>;

// grid is (n + 2) x (n + 2) for n x n avg and work; its border stays fixed.
// out = a + b, row by row (a named function: nvcc accepts no KOKKOS_LAMBDA in a generic lambda).
template <class Space, class A, class B>
void add_rows(const Kokkos::RangePolicy<Space>& rows, std::int64_t n, const A& a, const B& b, const Grid& out) {
  Kokkos::parallel_for("add", KE::with_accesses(rows, KE::reads(a), KE::reads(b), KE::writes(out)),
                       KOKKOS_LAMBDA(std::int64_t i) {
                         for (std::int64_t j = 0; j < n; ++j) out(i, j) = a(i, j) + b(i, j);
                       });
}

template <class Space>
void iterate(const Space& space, const Grid& grid, const Grid& avg, const Grid& work, int iterations) {
  const std::int64_t n = static_cast<std::int64_t>(avg.extent(0));
  const auto center = Kokkos::subview(grid, Range(1, n + 1), Range(1, n + 1));
  const auto north = Kokkos::subview(grid, Range(0, n), Range(1, n + 1));
  const auto south = Kokkos::subview(grid, Range(2, n + 2), Range(1, n + 1));
  const auto east = Kokkos::subview(grid, Range(1, n + 1), Range(2, n + 2));
  const auto west = Kokkos::subview(grid, Range(1, n + 1), Range(0, n));
  Kokkos::RangePolicy<Space> rows(space, 0, n);
  auto add = [&](const auto& a, const auto& b, const Grid& out) { add_rows(rows, n, a, b, out); };
  for (int it = 0; it < iterations; ++it) {
    add(center, north, avg);
    add(avg, east, avg);
    add(avg, west, avg);
    add(avg, south, avg);
    Kokkos::parallel_for("mult", KE::with_accesses(rows, KE::reads(avg), KE::writes(work)),
                         KOKKOS_LAMBDA(std::int64_t i) {
                           for (std::int64_t j = 0; j < n; ++j) work(i, j) = 0.2 * avg(i, j);
                         });
    Kokkos::parallel_for("copy", KE::with_accesses(rows, KE::reads(work), KE::writes(center)),
                         KOKKOS_LAMBDA(std::int64_t i) {
                           for (std::int64_t j = 0; j < n; ++j) center(i, j) = work(i, j);
                         });
  }
}

// The same values in `grid` as iterate, by sweeps alternating between grid and scratch (same
// extents as grid), summing in the program's order.
template <class Space>
void iterate_loop(const Space& space, const Grid& grid, const Grid& scratch, int iterations) {
  const std::int64_t n = static_cast<std::int64_t>(grid.extent(0)) - 2;
  space.fence();
  for (std::int64_t k = 0; k < n + 2; ++k) {  // the fixed border
    scratch(0, k) = grid(0, k);
    scratch(n + 1, k) = grid(n + 1, k);
    scratch(k, 0) = grid(k, 0);
    scratch(k, n + 1) = grid(k, n + 1);
  }
  Kokkos::RangePolicy<Space> rows(space, 1, n + 1);
  Grid from = grid, to = scratch;
  for (int it = 0; it < iterations; ++it) {
    Kokkos::parallel_for("stencil_2d_loop", rows, KOKKOS_LAMBDA(std::int64_t i) {
      for (std::int64_t j = 1; j <= n; ++j) {
        to(i, j) = 0.2 * ((((from(i, j) + from(i - 1, j)) + from(i, j + 1)) + from(i, j - 1)) + from(i + 1, j));
      }
    });
    std::swap(from, to);
  }
  if (iterations % 2 != 0) {  // the result is in scratch
    Kokkos::parallel_for("stencil_2d_copy_back", rows, KOKKOS_LAMBDA(std::int64_t i) {
      for (std::int64_t j = 1; j <= n; ++j) to(i, j) = from(i, j);
    });
  }
}

}  // namespace stencil_2d

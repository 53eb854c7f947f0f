// Conjugate gradient on the 1-D Laplacian (conjugate_gradient.hpp) distributed over MPI ranks
// by rows: the same fused solver, with p's halo elements exchanged through
// Kokkos::Experimental::isend_view / irecv_view before each matrix-vector product, and each dot
// product (a fused local reduction) summed over the ranks with MPI_Allreduce.  Rank 0 gathers
// the solution and compares it with the single-rank solve it runs itself: the sums are taken in
// another order, so the solutions agree within a relative 1e-8 (and each solves the system to
// the tolerance); fused and unfused distributed runs agree bitwise.
//   mpirun -np 2 mpi_cg [--small] --kokkos-num-threads=1
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>
#include <Kokkos_MPI.hpp>

#include "conjugate_gradient.hpp"
#include "mpi_rows.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace KE = Kokkos::Experimental;
using conjugate_gradient::Array;

namespace {

double rhs(std::int64_t i, std::int64_t n) { return std::sin(3.0 * double(i) / double(n)) + 0.1; }

}  // namespace

int main(int argc, char* argv[]) {
  return mpi_rows::run_example(argc, argv, [](bool small) {
    int failed = 0;
    const std::int64_t n = small ? 200 : 20000;
    const int max_iterations = 4 * static_cast<int>(n);
    const double tolerance = 1e-10;
    const mpi_rows::Neighbours ranks{mpi_rows::distribute(n, MPI_COMM_WORLD)};
    const std::int64_t m = ranks.rows.count();
    Array b("b", m), x_fused("x_fused", m), x_plain("x_plain", m);
    for (std::int64_t i = 0; i < m; ++i) b(i) = rhs(ranks.rows.begin + i, n);
    const conjugate_gradient::Workspace w(m);
    Kokkos::DefaultHostExecutionSpace space;

    KE::set_fusion_inline_bytes(0);  // fuse even on one thread per rank
    MPI_Barrier(MPI_COMM_WORLD);  // the ranks start the clock together
    Kokkos::Timer timer;
    int it_fused = 0, it_plain = 0;
    {
      KE::FusionScope scope;
      it_fused = conjugate_gradient::solve(space, b, x_fused, w, max_iterations, tolerance, ranks);
    }
    const double fused_s = timer.seconds();
    KE::set_fusion_enabled(false);
    MPI_Barrier(MPI_COMM_WORLD);
    timer.reset();
    it_plain = conjugate_gradient::solve(space, b, x_plain, w, max_iterations, tolerance, ranks);
    const double unfused_s = timer.seconds();
    KE::set_fusion_enabled(true);

    std::int64_t differ_unfused = 0;
    for (std::int64_t i = 0; i < m; ++i) differ_unfused += x_fused(i) != x_plain(i);
    MPI_Allreduce(MPI_IN_PLACE, &differ_unfused, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);

    std::vector<int> counts(ranks.rows.size), displs(ranks.rows.size);
    const int mine = static_cast<int>(m);
    MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 1; r < ranks.rows.size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
    std::vector<double> x(ranks.rows.rank == 0 ? n : 0);
    MPI_Gatherv(x_fused.data(), mine, MPI_DOUBLE, x.data(), counts.data(), displs.data(), MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
    if (ranks.rows.rank == 0) {
      Array b1("b1", n), x1("x1", n);
      for (std::int64_t i = 0; i < n; ++i) b1(i) = rhs(i, n);
      const conjugate_gradient::Workspace w1(n);
      int it_single = 0;
      {
        KE::FusionScope scope;
        it_single = conjugate_gradient::solve(space, b1, x1, w1, max_iterations, tolerance);
      }
      double diff = 0, norm = 0, res = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        diff = std::max(diff, std::abs(x[i] - x1(i)));
        norm = std::max(norm, std::abs(x1(i)));
        const double left = i > 0 ? x[i - 1] : 0.0, right = i + 1 < n ? x[i + 1] : 0.0;
        const double ri = b1(i) - (2.0 * x[i] - left - right);
        res += ri * ri;
      }
      const double relative = diff / norm;
      std::printf("distributed CG on the 1-D Laplacian, n=%lld on %d ranks: %d iterations (single rank %d, "
                  "unfused %d)\n",
                  (long long)n, ranks.rows.size, it_fused, it_single, it_plain);
      std::printf("  fused %.3f ms, unfused %.3f ms; |b - A x| = %.3e; max |x - x_single| / max |x_single| = %.3e; "
                  "fused vs unfused differing: %lld\n",
                  1e3 * fused_s, 1e3 * unfused_s, std::sqrt(res), relative, (long long)differ_unfused);
      failed = relative > 1e-8 || std::sqrt(res) > 1e-6 || differ_unfused != 0 || it_fused != it_plain ||
               std::abs(it_fused - it_single) > 2;
    }
    return failed;
  });
}

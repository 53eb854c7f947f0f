// The five-point stencil of stencil_2d.hpp distributed over MPI ranks by rows: each rank
// sweeps its rows with the same fused launches, after exchanging halo rows with its neighbours
// through Kokkos::Experimental::isend_view / irecv_view.  Rank 0 gathers the grid and compares
// it bitwise with the single-rank run it computes itself; fused and unfused runs must agree too.
//   mpirun -np 2 mpi_stencil_2d [--small] --kokkos-num-threads=1
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>
#include <Kokkos_MPI.hpp>

#include "mpi_rows.hpp"
#include "stencil_2d.hpp"

#include <mpi.h>

#include <cstdio>
#include <vector>

namespace KE = Kokkos::Experimental;
using stencil_2d::Grid;

namespace {

double initial(std::int64_t j) { return j == 0 ? 1.0 : 0.0; }  // a hot west wall

// This rank's rows of the (n + 2) x (n + 2) grid after `iterations` sweeps, gathered on rank 0
// (interior rows 1..n; the fixed first and last rows are added there).
Grid run(const mpi_rows::Rows& rows, std::int64_t n, int iterations, bool fused, double& seconds) {
  const std::int64_t m = rows.count();
  Grid local("local", m + 2, n + 2), avg("avg", m, n), work("work", m, n);
  for (std::int64_t i = 0; i < m + 2; ++i)
    for (std::int64_t j = 0; j < n + 2; ++j) local(i, j) = initial(j);
  KE::set_fusion_enabled(fused);
  MPI_Barrier(MPI_COMM_WORLD);
  Kokkos::Timer timer;
  {
    KE::FusionScope scope;
    for (int it = 0; it < iterations; ++it) {
      // The messages fly while the sweep is recorded; the flush that runs it waits for the halos.
      auto halo = mpi_rows::exchange_halo_rows(local, rows, 0, MPI_COMM_WORLD);
      stencil_2d::iterate(Kokkos::DefaultHostExecutionSpace(), local, avg, work, 1);
    }
  }
  seconds = timer.seconds();
  KE::set_fusion_enabled(true);

  std::vector<int> counts(rows.size), displs(rows.size);
  const int mine = static_cast<int>(m * (n + 2));
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int r = 1; r < rows.size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  Grid whole("gathered", rows.rank == 0 ? n + 2 : 0, n + 2);
  double* interior = rows.rank == 0 ? &whole(1, 0) : nullptr;
  MPI_Gatherv(&local(1, 0), mine, MPI_DOUBLE, interior, counts.data(), displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rows.rank == 0) {
    for (std::int64_t j = 0; j < n + 2; ++j) {
      whole(0, j) = initial(j);
      whole(n + 1, j) = initial(j);
    }
  }
  return whole;
}

}  // namespace

int main(int argc, char* argv[]) {
  return mpi_rows::run_example(argc, argv, [](bool small) {
    int failed = 0;
    const std::int64_t n = small ? 64 : 1024;
    const int iterations = small ? 8 : 40;
    const mpi_rows::Rows rows = mpi_rows::distribute(n, MPI_COMM_WORLD);

    KE::set_fusion_inline_bytes(0);  // fuse even on one thread per rank
    KE::reset_fusion_statistics();
    double fused_s = 0, unfused_s = 0;
    const Grid fused = run(rows, n, iterations, true, fused_s);
    const auto stats = KE::fusion_statistics();
    const Grid unfused = run(rows, n, iterations, false, unfused_s);

    if (rows.rank == 0) {
      Grid single("single", n + 2, n + 2), avg("avg", n, n), work("work", n, n);
      for (std::int64_t i = 0; i < n + 2; ++i)
        for (std::int64_t j = 0; j < n + 2; ++j) single(i, j) = initial(j);
      {
        KE::FusionScope scope;
        stencil_2d::iterate(Kokkos::DefaultHostExecutionSpace(), single, avg, work, iterations);
      }
      std::int64_t differ_single = 0, differ_unfused = 0;
      for (std::int64_t i = 0; i < n + 2; ++i) {
        for (std::int64_t j = 0; j < n + 2; ++j) {
          differ_single += fused(i, j) != single(i, j);
          differ_unfused += fused(i, j) != unfused(i, j);
        }
      }
      std::printf("distributed 2-D stencil %lldx%lld on %d ranks, %d iterations: fused %.3f ms, unfused %.3f ms\n",
                  (long long)n, (long long)n, rows.size, iterations, 1e3 * fused_s, 1e3 * unfused_s);
      std::printf("  rank 0: %llu launches -> %llu dispatches (max fused %llu), %llu flushes for messages\n",
                  (unsigned long long)stats.launches_recorded, (unsigned long long)stats.dispatches,
                  (unsigned long long)stats.max_fused_length,
                  (unsigned long long)stats.flush_count(Kokkos::Impl::FusionFlush::communication));
      std::printf("  cells differing from the single-rank run: %lld; fused vs unfused: %lld\n",
                  (long long)differ_single, (long long)differ_unfused);
      failed = differ_single != 0 || differ_unfused != 0 || stats.max_fused_length != 6;
    }
    return failed;
  });
}

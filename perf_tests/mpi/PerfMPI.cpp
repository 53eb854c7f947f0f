// Distributed CG (example/mpi_cg.cpp's solver) on 2 ranks x 1 thread against 1 rank x 2
// threads, on the same problem, fused and unfused, in one run: time per iteration (median of
// repetitions) and the fraction of the halo messages' time in flight that overlapped with
// computation (Kokkos::Experimental::mpi_statistics()).
//
// Not Google Benchmark: the two configurations are separate mpirun jobs (a Kokkos process has
// one thread count for its life), so this program is the driver that starts both and prints
// one table, with ratios against 1 rank x 2 threads unfused measured in the same run:
//   PerfMPI [--small]                       the driver (needs mpirun on PATH or KDAG_MPIEXEC)
//   mpirun -np R PerfMPI --worker [--small] --kokkos-num-threads=T    one configuration
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>
#include <Kokkos_MPI.hpp>

#include "../../example/conjugate_gradient.hpp"
#include "../../example/mpi_rows.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using conjugate_gradient::Array;

struct Problem {
  std::int64_t n;
  int iterations, repetitions;
};
Problem problem(bool small) { return small ? Problem{1 << 15, 20, 3} : Problem{1 << 19, 50, 5}; }

// One configuration, under mpirun: prints "PERFMPI ranks threads mode us_per_iteration overlap" on rank 0.
int worker(bool small) {
  const Problem p = problem(small);
  const mpi_rows::Neighbours ranks{mpi_rows::distribute(p.n, MPI_COMM_WORLD)};
  const std::int64_t m = ranks.rows.count();
  Array b("b", m), x("x", m);
  for (std::int64_t i = 0; i < m; ++i) b(i) = std::sin(3.0 * double(ranks.rows.begin + i) / double(p.n)) + 0.1;
  const conjugate_gradient::Workspace w(m);
  Kokkos::DefaultHostExecutionSpace space;
  KE::set_fusion_inline_bytes(0);
  for (const bool fused : {false, true}) {
    KE::set_fusion_enabled(fused);
    std::vector<double> per_iteration;
    KE::reset_mpi_statistics();
    for (int rep = 0; rep <= p.repetitions; ++rep) {  // repetition 0 warms up (memo, pages)
      MPI_Barrier(MPI_COMM_WORLD);
      Kokkos::Timer timer;
      int done = 0;
      {
        KE::FusionScope scope;
        done = conjugate_gradient::solve(space, b, x, w, p.iterations, 0.0, ranks);
      }
      double seconds = timer.seconds();
      MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (rep > 0) per_iteration.push_back(seconds / done);
    }
    std::sort(per_iteration.begin(), per_iteration.end());
    const KE::MPIStatistics stats = KE::mpi_statistics();
    double in_flight = stats.seconds_in_flight, waiting = stats.seconds_waiting;
    MPI_Allreduce(MPI_IN_PLACE, &in_flight, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &waiting, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (ranks.rows.rank == 0) {
      std::printf("PERFMPI %d %d %s %.3f %.4f\n", ranks.rows.size, space.concurrency(), fused ? "fused" : "unfused",
                  1e6 * per_iteration[per_iteration.size() / 2], in_flight > 0 ? 1.0 - waiting / in_flight : -1.0);
    }
  }
  KE::set_fusion_enabled(true);
  return 0;
}

struct Row {
  int ranks = 0, threads = 0;
  std::string mode;
  double us = 0, overlap = -1;
};

int driver(const char* self, bool small) {
  const char* mpiexec = std::getenv("KDAG_MPIEXEC");
  const std::string launcher = mpiexec ? mpiexec : KDAG_MPIEXEC_DEFAULT;
  // The launcher binds nothing: each rank takes its share of the cores (Kokkos_NodeShare).
  const std::string common = " --bind-to none " + std::string(self) + " --worker" + (small ? " --small" : "");
  const std::string runs[] = {launcher + " -np 1" + common + " --kokkos-num-threads=2",
                              launcher + " -np 2" + common + " --kokkos-num-threads=1"};
  std::vector<Row> rows;
  for (const std::string& command : runs) {
    FILE* out = popen((command + " 2>&1").c_str(), "r");
    if (!out) return 1;
    char line[512];
    while (std::fgets(line, sizeof line, out)) {
      Row r;
      char mode[16] = {};
      if (std::sscanf(line, "PERFMPI %d %d %15s %lf %lf", &r.ranks, &r.threads, mode, &r.us, &r.overlap) == 5) {
        r.mode = mode;
        rows.push_back(r);
      } else {
        std::fputs(line, stdout);
      }
    }
    if (pclose(out) != 0) {
      std::printf("PerfMPI: '%s' failed\n", command.c_str());
      return 1;
    }
  }
  if (rows.size() != 4) return 1;
  const Problem p = problem(small);
  double baseline = 0;
  for (const Row& r : rows) {
    if (r.ranks == 1 && r.mode == "unfused") baseline = r.us;
  }
  std::printf("distributed CG on the 1-D Laplacian, n = %lld, %d iterations, median of %d repetitions\n",
              (long long)p.n, p.iterations, p.repetitions);
  std::printf("  ranks x threads  mode      us/iteration  vs 1x2 unfused  messages overlapped\n");
  for (const Row& r : rows) {
    char overlap[32] = "-  (no messages)";
    if (r.overlap >= 0) std::snprintf(overlap, sizeof overlap, "%.1f%%", 100.0 * r.overlap);
    std::printf("  %d x %d            %-8s  %12.1f  %14.2f  %s\n", r.ranks, r.threads, r.mode.c_str(), r.us,
                r.us / baseline, overlap);
  }
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  bool small = false, is_worker = false;
  for (int i = 1; i < argc; ++i) {
    small = small || std::strcmp(argv[i], "--small") == 0;
    is_worker = is_worker || std::strcmp(argv[i], "--worker") == 0;
  }
  if (!is_worker) return driver(argv[0], small);
  return mpi_rows::run_example(argc, argv, [](bool small_problem) { return worker(small_problem); });
}

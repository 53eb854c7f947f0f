#pragma once
// Rows of a global array distributed over MPI ranks in contiguous blocks, and the exchange of
// the halo rows between neighbouring ranks with Kokkos::Experimental::isend_view / irecv_view.
// Shared by example/mpi_stencil_2d.cpp, example/mpi_cg.cpp, unit_tests/mpi/TestMPIHalo.cpp and
// perf_tests/PerfMPI.cpp.
#include <Kokkos_Core.hpp>
#include <Kokkos_MPI.hpp>

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace mpi_rows {

namespace KE = Kokkos::Experimental;

struct Rows {
  int rank = 0, size = 1;
  std::int64_t begin = 0, end = 0;  // the global rows this rank owns
  int below = MPI_PROC_NULL, above = MPI_PROC_NULL;  // neighbours owning rows begin - 1 and end
  std::int64_t count() const { return end - begin; }
};

// Rank r of the communicator owns rows [begin, end) of [0, global_rows): the first
// (global_rows % size) ranks one row more.
inline Rows distribute(std::int64_t global_rows, MPI_Comm comm) {
  Rows r;
  MPI_Comm_rank(comm, &r.rank);
  MPI_Comm_size(comm, &r.size);
  const std::int64_t base = global_rows / r.size, extra = global_rows % r.size;
  r.begin = r.rank * base + (r.rank < extra ? r.rank : extra);
  r.end = r.begin + base + (r.rank < extra ? 1 : 0);
  if (r.rank > 0) r.below = r.rank - 1;
  if (r.rank + 1 < r.size) r.above = r.rank + 1;
  return r;
}

// `local` holds the rank's rows in [1, extent(0) - 1) and the neighbours' boundary rows in its
// first and last row (a rank-1 View: one element each).  Posts the four messages; the returned
// requests complete them (or a fusion flush that needs the halos does).
template <class ViewType>
std::vector<KE::MPIRequest> exchange_halo_rows(const ViewType& local, const Rows& r, int tag, MPI_Comm comm) {
  const std::size_t last = local.extent(0) - 1;
  auto row = [&](std::size_t i) {
    if constexpr (ViewType::rank() == 1) {
      return Kokkos::subview(local, std::pair<std::size_t, std::size_t>(i, i + 1));
    } else {
      return Kokkos::subview(local, i, Kokkos::ALL);
    }
  };
  std::vector<KE::MPIRequest> requests;
  requests.reserve(4);
  requests.push_back(KE::irecv_view(row(0), r.below, tag, comm));
  requests.push_back(KE::irecv_view(row(last), r.above, tag, comm));
  requests.push_back(KE::isend_view(row(1), r.below, tag, comm));
  requests.push_back(KE::isend_view(row(last - 1), r.above, tag, comm));
  return requests;
}

// What a solver written for one rank (conjugate_gradient::solve) needs of the others: the
// exchange of its halo elements and global sums of its local dot products.
struct Neighbours {
  Rows rows;
  MPI_Comm comm = MPI_COMM_WORLD;
  template <class ViewType>
  std::vector<KE::MPIRequest> exchange_halo(const ViewType& local) const {
    return exchange_halo_rows(local, rows, 0, comm);
  }
  double sum(double local) const {
    double global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm);
    return global;
  }
};

// The frame of a distributed example: MPI and Kokkos started and finished, `--small` read,
// and the verdict of rank 0 (the body's return there: non-zero means wrong) returned by every
// rank, so that mpirun reports it.
template <class Body>
int run_example(int argc, char* argv[], const Body& body) {
  MPI_Init(&argc, &argv);
  int failed = 0;
  {
    Kokkos::ScopeGuard guard(argc, argv);
    bool small = false;
    for (int i = 1; i < argc; ++i) small = small || std::strcmp(argv[i], "--small") == 0;
    failed = body(small);
  }
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed;
}

}  // namespace mpi_rows

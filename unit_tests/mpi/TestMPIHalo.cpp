// Kokkos::Experimental::isend_view / irecv_view (mpi/src/Kokkos_MPI.hpp) under mpirun: halo
// exchanges of a row-distributed stencil equal the single-rank run bitwise, fused and unfused;
// a message runs exactly the recorded launches it depends on; a receive's halo is never read
// before it arrives; strided slices travel through derived datatypes; bad input stops with a
// message naming the View, the rank and the sizes.  Works on any number of ranks.
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>
#include <Kokkos_MPI.hpp>

#include "../../example/mpi_rows.hpp"
#include "../../example/stencil_2d.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace {

namespace KE = Kokkos::Experimental;
using Grid = stencil_2d::Grid;
using Vector = Kokkos::View<double*, Kokkos::HostSpace>;
using Range = std::pair<std::int64_t, std::int64_t>;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// Every rank agrees that `ok` held everywhere.
bool all_ranks(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

double initial(std::int64_t i, std::int64_t j, std::int64_t n) {
  return j == 0 ? 1.0 : (i == 0 || i == n + 1 || j == n + 1 ? 0.0 : 0.001 * double((i * 7 + j * 3) % 11));
}

// The stencil of example/stencil_2d.hpp on this rank's rows, halos exchanged before each sweep.
Grid distributed_stencil(std::int64_t n, int iterations, bool fused) {
  const mpi_rows::Rows rows = mpi_rows::distribute(n, MPI_COMM_WORLD);
  const std::int64_t m = rows.count();
  Grid local("local", m + 2, n + 2), avg("avg", m, n), work("work", m, n);
  for (std::int64_t i = 0; i < m + 2; ++i)
    for (std::int64_t j = 0; j < n + 2; ++j) local(i, j) = initial(rows.begin + i, j, n);
  KE::set_fusion_enabled(fused);
  KE::set_fusion_inline_bytes(0);  // record even on one thread
  {
    KE::FusionScope scope;
    for (int it = 0; it < iterations; ++it) {
      auto requests = mpi_rows::exchange_halo_rows(local, rows, 10, MPI_COMM_WORLD);
      stencil_2d::iterate(Kokkos::DefaultHostExecutionSpace(), local, avg, work, 1);
      // The requests complete here at the latest, or earlier when a flush needs the halos.
    }
  }
  KE::set_fusion_enabled(true);
  KE::set_fusion_inline_bytes(256 * 1024);
  return local;
}

TEST(MPIHalo, DistributedStencilEqualsSingleRankBitwiseFusedAndUnfused) {
  const std::int64_t n = 48;
  const int iterations = 6;
  Grid whole("whole", n + 2, n + 2), avg("avg", n, n), work("work", n, n);
  for (std::int64_t i = 0; i < n + 2; ++i)
    for (std::int64_t j = 0; j < n + 2; ++j) whole(i, j) = initial(i, j, n);
  stencil_2d::iterate(Kokkos::DefaultHostExecutionSpace(), whole, avg, work, iterations);
  Kokkos::fence();

  KE::reset_fusion_statistics();
  const Grid fused = distributed_stencil(n, iterations, true);
  const auto stats = KE::fusion_statistics();
  const Grid unfused = distributed_stencil(n, iterations, false);
  const mpi_rows::Rows rows = mpi_rows::distribute(n, MPI_COMM_WORLD);
  std::int64_t differ_single = 0, differ_unfused = 0;
  for (std::int64_t i = 1; i <= rows.count(); ++i) {
    for (std::int64_t j = 0; j < n + 2; ++j) {
      differ_single += fused(i, j) != whole(rows.begin + i, j);
      differ_unfused += fused(i, j) != unfused(i, j);
    }
  }
  EXPECT_EQ(differ_single, 0) << "rank " << world_rank();
  EXPECT_EQ(differ_unfused, 0) << "rank " << world_rank();
  // Each sweep's six launches ran as one fused launch, between the messages.
  EXPECT_EQ(stats.max_fused_length, 6u);
  if (rows.size > 1) {
    EXPECT_GT(stats.flush_count(Kokkos::Impl::FusionFlush::communication), 0u);
  }
  EXPECT_TRUE(all_ranks(differ_single == 0 && differ_unfused == 0));
}

// Two launches in a window, one writing the row a send needs and one writing elsewhere: the
// send runs the first only, and the second goes on fusing with what follows.
TEST(MPIHalo, SendRunsExactlyTheLaunchesItDependsOn) {
  const int rank = world_rank(), size = world_size();
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  const std::int64_t n = 64;
  Vector boundary("boundary", n), interior("interior", n), interior2("interior2", n), received("received", n);
  KE::set_fusion_inline_bytes(0);  // record even on one thread
  KE::reset_fusion_statistics();
  {
    KE::FusionScope scope;
    Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace> all(0, n);
    Kokkos::parallel_for("boundary", KE::with_accesses(all, KE::writes(boundary)),
                         KOKKOS_LAMBDA(std::int64_t i) { boundary(i) = 100.0 * rank + double(i); });
    Kokkos::parallel_for("interior", KE::with_accesses(all, KE::writes(interior)),
                         KOKKOS_LAMBDA(std::int64_t i) { interior(i) = double(i); });
    EXPECT_EQ(KE::fusion_pending_launches(), 2u);
    auto recv = KE::irecv_view(received, prev, 20);
    EXPECT_EQ(KE::fusion_pending_launches(), 2u);  // nothing recorded touches `received`
    auto send = KE::isend_view(boundary, next, 20);
    EXPECT_EQ(KE::fusion_pending_launches(), 1u);  // "boundary" ran, "interior" waits
    EXPECT_EQ(KE::fusion_statistics().flush_count(Kokkos::Impl::FusionFlush::communication), 1u);
    Kokkos::parallel_for("interior2", KE::with_accesses(all, KE::reads(interior), KE::writes(interior2)),
                         KOKKOS_LAMBDA(std::int64_t i) { interior2(i) = 2.0 * interior(i); });
    EXPECT_EQ(KE::fusion_pending_launches(), 2u);
    recv.wait();
    send.wait();
  }
  const auto stats = KE::fusion_statistics();
  EXPECT_EQ(stats.launches_fused, 2u);  // interior + interior2, fused while the messages flew
  KE::set_fusion_inline_bytes(256 * 1024);
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(received(i), 100.0 * prev + double(i));
    ASSERT_EQ(interior2(i), 2.0 * double(i));
  }
}

// A column halo of a row-major array: sending the first column runs none of the launches on
// the interior columns; sending the last interior column runs the launch that writes it.
TEST(MPIHalo, ColumnHaloConflictsOnlyWithItsColumns) {
  const int rank = world_rank(), size = world_size();
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  const std::int64_t m = 40, n = 30;
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> u("u", m, n + 2);
  Kokkos::View<double*, Kokkos::HostSpace> west_in("west_in", m), east_in("east_in", m);
  for (std::int64_t i = 0; i < m; ++i) u(i, 0) = 7.0 * rank + double(i);
  const auto interior = Kokkos::subview(u, Kokkos::ALL, Range(1, n + 1));
  KE::set_fusion_inline_bytes(0);
  {
    KE::FusionScope scope;
    Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace> rows(0, m);
    Kokkos::parallel_for("interior", KE::with_accesses(rows, KE::writes(interior)), KOKKOS_LAMBDA(std::int64_t i) {
      for (std::int64_t j = 0; j < n; ++j) interior(i, j) = 100.0 * rank + double(i * n + j);
    });
    auto recv_west = KE::irecv_view(west_in, prev, 35);
    auto send_west = KE::isend_view(Kokkos::subview(u, Kokkos::ALL, 0), next, 35);
    EXPECT_EQ(KE::fusion_pending_launches(), 1u);  // column 0 is not the interior's
    auto recv_east = KE::irecv_view(east_in, prev, 36);
    auto send_east = KE::isend_view(Kokkos::subview(u, Kokkos::ALL, n), next, 36);
    EXPECT_EQ(KE::fusion_pending_launches(), 0u);  // column n is
    KE::MPIRequest all[] = {std::move(recv_west), std::move(send_west), std::move(recv_east), std::move(send_east)};
    for (auto& r : all) r.wait();
  }
  KE::set_fusion_inline_bytes(256 * 1024);
  for (std::int64_t i = 0; i < m; ++i) {
    ASSERT_EQ(west_in(i), 7.0 * prev + double(i));
    ASSERT_EQ(east_in(i), 100.0 * prev + double(i * n + n - 1));
  }
}

// A launch recorded after irecv_view reads the halo: the flush that runs it waits for the
// message first; and a launch writing a View being sent waits for the send.
TEST(MPIHalo, ReceiveCompletesBeforeALaunchReadsTheHalo) {
  const int rank = world_rank(), size = world_size();
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  const std::int64_t n = 1000;
  Vector halo("halo", n), out("out", n), outgoing("outgoing", n);
  for (std::int64_t i = 0; i < n; ++i) outgoing(i) = 3.0 * rank + 0.5 * double(i);
  KE::set_fusion_inline_bytes(0);
  {
    KE::FusionScope scope;
    Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace> all(0, n);
    auto recv = KE::irecv_view(halo, prev, 30);
    auto send = KE::isend_view(outgoing, next, 30);
    Kokkos::parallel_for("use_halo", KE::with_accesses(all, KE::reads(halo), KE::writes(out)),
                         KOKKOS_LAMBDA(std::int64_t i) { out(i) = halo(i) + 1.0; });
    Kokkos::parallel_for("overwrite", KE::with_accesses(all, KE::writes(outgoing)),
                         KOKKOS_LAMBDA(std::int64_t i) { outgoing(i) = -1.0; });
    EXPECT_TRUE(recv.in_flight());
    KE::fusion_flush();
    EXPECT_FALSE(recv.in_flight());
    EXPECT_FALSE(send.in_flight());
  }
  KE::set_fusion_inline_bytes(256 * 1024);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(out(i), 3.0 * prev + 0.5 * double(i) + 1.0);
}

// A column of a row-major array, a row of a column-major one, a rank-2 block of a strided View:
// sent in place through derived datatypes into Views of other layouts.
TEST(MPIHalo, StridedSlicesOfEveryLayout) {
  const int rank = world_rank(), size = world_size();
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  auto value = [](int r, std::int64_t i, std::int64_t j) { return 1000.0 * r + 10.0 * double(i) + double(j); };
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> right("right", 6, 7);
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> left("left", 6, 7);
  for (std::int64_t i = 0; i < 6; ++i)
    for (std::int64_t j = 0; j < 7; ++j) right(i, j) = left(i, j) = value(rank, i, j);
  Kokkos::View<double*, Kokkos::LayoutRight, Kokkos::HostSpace> column_in("column_in", 6);
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> row_in_left("row_in_left", 2, 7);
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> block_in_right("block_in_right", 6, 7);
  const Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace> block =
      Kokkos::subview(right, Range(1, 4), Range(2, 6));
  auto block_dest = Kokkos::subview(block_in_right, Range(2, 5), Range(0, 4));
  std::vector<KE::MPIRequest> requests;
  requests.push_back(KE::irecv_view(column_in, prev, 40));
  requests.push_back(KE::irecv_view(Kokkos::subview(row_in_left, 1, Kokkos::ALL), prev, 41));
  requests.push_back(KE::irecv_view(block_dest, prev, 42));
  requests.push_back(KE::isend_view(Kokkos::subview(right, Kokkos::ALL, 3), next, 40));
  requests.push_back(KE::isend_view(Kokkos::subview(left, 4, Kokkos::ALL), next, 41));
  requests.push_back(KE::isend_view(block, next, 42));
  KE::wait_all(requests);
  for (std::int64_t i = 0; i < 6; ++i) EXPECT_EQ(column_in(i), value(prev, i, 3));
  for (std::int64_t j = 0; j < 7; ++j) {
    EXPECT_EQ(row_in_left(1, j), value(prev, 4, j));
    EXPECT_EQ(row_in_left(0, j), 0.0);
  }
  for (std::int64_t i = 0; i < 6; ++i) {
    for (std::int64_t j = 0; j < 7; ++j) {
      const bool inside = i >= 2 && i < 5 && j < 4;
      EXPECT_EQ(block_in_right(i, j), inside ? value(prev, i - 1, j + 2) : 0.0) << i << ", " << j;
    }
  }
}

TEST(MPIHalo, EmptyViewsAndProcNull) {
  const int rank = world_rank(), size = world_size();
  Vector empty("empty", 0), some("some", 4);
  auto a = KE::irecv_view(empty, (rank + size - 1) % size, 50);
  auto b = KE::isend_view(empty, (rank + 1) % size, 50);
  auto c = KE::isend_view(some, MPI_PROC_NULL, 51);
  auto d = KE::irecv_view(some, MPI_PROC_NULL, 51);
  a.wait();
  b.wait();
  c.wait();
  d.wait();
  EXPECT_FALSE(a.in_flight());
  KE::MPIRequest moved = std::move(c);
  moved.wait();
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(MPIHalo, SizesThatDifferStopWithBothSizes) {
  const int rank = world_rank(), size = world_size();
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  Vector sent("sent", 10), too_long("too_long", 12), too_short("too_short", 8);
  auto s1 = KE::isend_view(sent, next, 60);
  auto s2 = KE::isend_view(sent, next, 61);
  auto r1 = KE::irecv_view(too_long, prev, 60);
  auto r2 = KE::irecv_view(too_short, prev, 61);
  const std::string m1 = message_of([&] { r1.wait(); });
  const std::string m2 = message_of([&] { r2.wait(); });
  const std::string where = "on rank " + std::to_string(rank) + " from rank " + std::to_string(prev);
  EXPECT_NE(m1.find("irecv_view: View 'too_long' " + where), std::string::npos) << m1;
  EXPECT_NE(m1.find("holds 12 elements of 8 bytes but rank " + std::to_string(prev) + " sent 10 elements of 8 bytes"),
            std::string::npos)
      << m1;
  EXPECT_NE(m2.find("View 'too_short'"), std::string::npos) << m2;
  EXPECT_NE(m2.find("holds 8 elements of 8 bytes but rank " + std::to_string(prev) + " sent 10"), std::string::npos)
      << m2;
  // Same count, another element type.
  Kokkos::View<float*, Kokkos::HostSpace> floats("floats", 10);
  auto s3 = KE::isend_view(sent, next, 62);
  auto r3 = KE::irecv_view(floats, prev, 62);
  const std::string m3 = message_of([&] { r3.wait(); });
  EXPECT_NE(m3.find("View 'floats' " + where + " (tag 62): the View holds 10 elements of 4 bytes but rank " +
                    std::to_string(prev) + " sent 10 elements of 8 bytes"),
            std::string::npos)
      << m3;
  s1.wait();
  s2.wait();
  s3.wait();
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(MPIHalo, BadPeersStopWithAMessage) {
  const int rank = world_rank(), size = world_size();
  Vector v("halo_row", 4);
  const std::string beyond = message_of([&] { auto r = KE::isend_view(v, size + 3, 70); });
  EXPECT_NE(beyond.find("isend_view: View 'halo_row' on rank " + std::to_string(rank) + " to rank " +
                        std::to_string(size + 3)),
            std::string::npos)
      << beyond;
  EXPECT_NE(beyond.find("outside the communicator of " + std::to_string(size) + " ranks"), std::string::npos)
      << beyond;
  const std::string any = message_of([&] { auto r = KE::irecv_view(v, MPI_ANY_SOURCE, 70); });
  EXPECT_NE(any.find("MPI_ANY_SOURCE"), std::string::npos) << any;
  const std::string negative = message_of([&] { auto r = KE::irecv_view(v, 0, -5); });
  EXPECT_NE(negative.find("tag must not be negative"), std::string::npos) << negative;
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> cube("cube", 3, 3, 3);
  auto slab = Kokkos::subview(cube, Kokkos::ALL, Kokkos::ALL, 1);  // rank 2: fine
  auto strided3 = Kokkos::subview(cube, Range(0, 2), Range(0, 2), Range(0, 2));
  const std::string rank3 = message_of([&] { auto r = KE::isend_view(strided3, rank, 71); });
  EXPECT_NE(rank3.find("View 'cube' on rank " + std::to_string(rank)), std::string::npos) << rank3;
  EXPECT_NE(rank3.find("non-contiguous View of rank 3"), std::string::npos) << rank3;
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> slab_in("slab_in", 3, 3);
  auto r = KE::irecv_view(slab_in, rank, 72);
  auto s = KE::isend_view(slab, rank, 72);
  r.wait();
  s.wait();
  EXPECT_EQ(slab_in(2, 0), cube(2, 0, 1));
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int result = 0;
  {
    Kokkos::ScopeGuard guard(argc, argv);
    result = RUN_ALL_TESTS();
  }
  int worst = 0;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}

// Kokkos::initialize under a launcher that put two ranks on this node: the share this rank
// takes, its default thread count, the configuration print-out, and the warnings.  Its own
// main sets Open MPI's variables before initialize (TestLifecycle* executables start Kokkos
// themselves).
#include <Kokkos_Core.hpp>
#include <impl/Kokkos_NodeShare.hpp>
#include <impl/Kokkos_Topology.hpp>

#include <gtest/gtest.h>
#include "GTestExtendedLambda.hpp"

#include <cstdlib>
#include <sstream>
#include <string>

namespace {

std::string g_warnings;  // what initialize wrote to std::cerr

TEST(LifecycleNodeShare, SecondRankTakesTheSecondHalf) {
  const Kokkos::Impl::HostTopology& topo = Kokkos::Impl::host_topology();
  const Kokkos::Impl::NodeShare& share = Kokkos::Impl::node_share();
  EXPECT_EQ(share.local_rank, 1);
  EXPECT_EQ(share.local_size, 2);
  const Kokkos::Impl::NodeShare expected = Kokkos::Impl::compute_node_share(1, 2, topo.cores, topo.threads_per_core);
  EXPECT_EQ(share.first_core, expected.first_core);
  EXPECT_EQ(share.share_cores, expected.share_cores);
  // No --kokkos-num-threads: the share's hardware threads (one when the node has one core).
  EXPECT_EQ(Kokkos::DefaultHostExecutionSpace().concurrency(), expected.default_threads());
  // Only local rank 0 warns about the node (every rank would say the same).  (A CUDA build
  // without a GPU adds its own warning, about the GPU.)
  EXPECT_EQ(g_warnings.find("rank"), std::string::npos) << g_warnings;
  if (topo.cores >= 2) {
    EXPECT_EQ(Kokkos::Impl::processing_unit_for_worker(0), expected.first_processing_unit());
  }
}

TEST(LifecycleNodeShare, ConfigurationShowsTheShare) {
  std::ostringstream os;
  Kokkos::print_configuration(os);
  EXPECT_NE(os.str().find("Node share: local rank 1 of 2 on this node"), std::string::npos) << os.str();
}

TEST(LifecycleNodeShare, WorkersStillComputeCorrectly) {
  const int n = 10000;
  long sum = 0;
  Kokkos::parallel_reduce("sum", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, n),
                          KOKKOS_LAMBDA(int i, long& s) { s += i; }, sum);
  EXPECT_EQ(sum, static_cast<long>(n) * (n - 1) / 2);
}

}  // namespace

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  // The launcher's variables for the second of two ranks; ctest's --kokkos-num-threads is
  // dropped so that the default under a launcher is what is tested.
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
  unsetenv("KOKKOS_NUM_THREADS");
  testing::internal::CaptureStderr();
  Kokkos::initialize(Kokkos::InitializationSettings());
  g_warnings = testing::internal::GetCapturedStderr();
  int result = RUN_ALL_TESTS();
  Kokkos::finalize();
  return result;
}

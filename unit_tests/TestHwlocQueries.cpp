// Kokkos::hwloc queries: consistent with each other, with the topology the back ends use, and
// with the machine as Kokkos describes it when hwloc is disabled.
#include "TestCommon.hpp"
#include <Kokkos_hwloc.hpp>
#include <impl/Kokkos_Topology.hpp>

#include <thread>

namespace {

TEST(HwlocQueries, CountsDescribeTheAvailableProcessingUnits) {
  const unsigned numa = Kokkos::hwloc::get_available_numa_count();
  const unsigned cores = Kokkos::hwloc::get_available_cores_per_numa();
  const unsigned threads = Kokkos::hwloc::get_available_threads_per_core();
  EXPECT_GE(numa, 1u);
  EXPECT_GE(cores, 1u);
  EXPECT_GE(threads, 1u);
  const Kokkos::Impl::HostTopology& topo = Kokkos::Impl::host_topology();
  EXPECT_EQ(numa * cores, unsigned(topo.cores) - unsigned(topo.cores) % numa);
  EXPECT_EQ(threads, unsigned(topo.threads_per_core));
}

TEST(HwlocQueries, AvailableMatchesTheBuild) {
#if defined(KOKKOS_ENABLE_HWLOC)
  // hwloc loads its topology on any Linux machine this builds on.
  EXPECT_TRUE(Kokkos::hwloc::available());
#else
  EXPECT_FALSE(Kokkos::hwloc::available());
#endif
  if (!Kokkos::hwloc::available()) {
    const unsigned hc = std::thread::hardware_concurrency();
    EXPECT_EQ(Kokkos::hwloc::get_available_numa_count(), 1u);
    EXPECT_EQ(Kokkos::hwloc::get_available_threads_per_core(), 1u);
    EXPECT_EQ(Kokkos::hwloc::get_available_cores_per_numa(), hc > 0 ? hc : 1u);
  }
}

TEST(HwlocQueries, CountsDoNotExceedTheProcessingUnits) {
  const unsigned pus = Kokkos::hwloc::get_available_numa_count() * Kokkos::hwloc::get_available_cores_per_numa() *
                       Kokkos::hwloc::get_available_threads_per_core();
  EXPECT_LE(pus, unsigned(Kokkos::Impl::host_topology().processing_units));
  EXPECT_GE(pus, 1u);
}

}  // namespace

#pragma once
// Kokkos::hwloc: the host topology as Kokkos reports it.
//
//   if (Kokkos::hwloc::available()) ...
//   unsigned numa = Kokkos::hwloc::get_available_numa_count();
//   unsigned cores = Kokkos::hwloc::get_available_cores_per_numa();
//   unsigned threads = Kokkos::hwloc::get_available_threads_per_core();
//
// With hwloc (Kokkos_ENABLE_HWLOC) the counts are hwloc's NUMA nodes, cores and processing units
// available to this process; a node's cores are the cores divided evenly over the nodes.  Without
// it, available() is false and, as in Kokkos, the machine is one NUMA node of
// std::thread::hardware_concurrency() cores with one thread each.  hwloc stays a private
// dependency: this header does not include <hwloc.h>.
namespace Kokkos::hwloc {

bool available();
unsigned get_available_numa_count();
unsigned get_available_cores_per_numa();
unsigned get_available_threads_per_core();

}  // namespace Kokkos::hwloc

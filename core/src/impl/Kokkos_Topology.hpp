#pragma once
// The host's processor topology: cores and hardware threads per core, from hwloc when enabled.
// A task team on a hyperthreaded CPU (Xeon Phi style) is the hardware threads of one core.

namespace Kokkos::Impl {

struct HostTopology {
  int cores = 1;             // physical cores available to this process
  int processing_units = 1;  // hardware threads available to this process
  int threads_per_core = 1;  // processing_units / cores, at least 1
  int numa_nodes = 1;        // NUMA nodes holding the available cores, at least 1
  bool from_hwloc = false;   // false: counts come from std::thread::hardware_concurrency
};

// Discovered once, on first use; thread-safe.
const HostTopology& host_topology();

// Binds the calling thread to the given processing unit index (cores filled breadth-first
// across cores then hyperthreads is the caller's choice).  Returns false without hwloc or on error.
bool bind_current_thread_to_processing_unit(int pu_index);

// The logical processing unit index order that places worker w on core (w / threads_per_core)...
// i.e. consecutive workers share a core first, so a team of consecutive workers is one core.
int processing_unit_for_worker(int worker);

}  // namespace Kokkos::Impl

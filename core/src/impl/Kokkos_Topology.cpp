#include <impl/Kokkos_Topology.hpp>
#include <impl/Kokkos_NodeShare.hpp>
#include <Kokkos_hwloc.hpp>
#include <KokkosCore_config.h>

#include <mutex>
#include <thread>

#if defined(KOKKOS_ENABLE_HWLOC)
#include <hwloc.h>
#endif

namespace Kokkos::Impl {
namespace {

#if defined(KOKKOS_ENABLE_HWLOC)
struct HwlocState {
  hwloc_topology_t topology = nullptr;
  HwlocState() {
    if (hwloc_topology_init(&topology) != 0) {
      topology = nullptr;
      return;
    }
    if (hwloc_topology_load(topology) != 0) {
      hwloc_topology_destroy(topology);
      topology = nullptr;
    }
  }
  ~HwlocState() {
    if (topology) hwloc_topology_destroy(topology);
  }
};

HwlocState& hwloc_state() {
  static HwlocState state;
  return state;
}
#endif

HostTopology discover() {
  HostTopology topo;
  const unsigned hc = std::thread::hardware_concurrency();
  topo.processing_units = hc > 0 ? static_cast<int>(hc) : 1;
  topo.cores = topo.processing_units;
#if defined(KOKKOS_ENABLE_HWLOC)
  hwloc_topology_t t = hwloc_state().topology;
  if (t) {
    const int cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
    const int pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    if (cores > 0 && pus > 0) {
      topo.cores = cores;
      topo.processing_units = pus;
      topo.from_hwloc = true;
      const int numa = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
      topo.numa_nodes = numa > 0 && numa <= cores ? numa : 1;
    }
  }
#endif
  topo.threads_per_core = topo.cores > 0 ? topo.processing_units / topo.cores : 1;
  if (topo.threads_per_core < 1) topo.threads_per_core = 1;
  return topo;
}

}  // namespace

const HostTopology& host_topology() {
  static const HostTopology topo = discover();
  return topo;
}

int processing_unit_for_worker(int worker) {
  const HostTopology& topo = host_topology();
  // Several ranks on the node: this rank's workers stay on its own share of the cores.
  const NodeShare& share = node_share();
  if (share.local_size > 1 && share.first_processing_unit() + share.processing_units() <= topo.processing_units) {
    return share.first_processing_unit() + worker % share.processing_units();
  }
  return worker % topo.processing_units;
}

bool bind_current_thread_to_processing_unit(int pu_index) {
#if defined(KOKKOS_ENABLE_HWLOC)
  hwloc_topology_t t = hwloc_state().topology;
  if (!t) return false;
  // hwloc orders PUs so that the PUs of one core are adjacent in logical index order.
  hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, static_cast<unsigned>(pu_index));
  if (!pu || !pu->cpuset) return false;
  return hwloc_set_cpubind(t, pu->cpuset, HWLOC_CPUBIND_THREAD) == 0;
#else
  (void)pu_index;
  return false;
#endif
}

}  // namespace Kokkos::Impl

namespace Kokkos::hwloc {

bool available() { return Impl::host_topology().from_hwloc; }

unsigned get_available_numa_count() { return static_cast<unsigned>(Impl::host_topology().numa_nodes); }

unsigned get_available_cores_per_numa() {
  const Impl::HostTopology& topo = Impl::host_topology();
  return static_cast<unsigned>(topo.cores / topo.numa_nodes);
}

unsigned get_available_threads_per_core() {
  return static_cast<unsigned>(Impl::host_topology().threads_per_core);
}

}  // namespace Kokkos::hwloc

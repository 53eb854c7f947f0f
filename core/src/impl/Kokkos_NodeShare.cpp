#include <impl/Kokkos_NodeShare.hpp>
#include <impl/Kokkos_Topology.hpp>

#include <cstdlib>
#include <cstring>
#if defined(__linux__)
#include <sched.h>
#endif

namespace Kokkos::Impl {
namespace {

bool parse_count(const char* text, int& value) {
  if (text == nullptr || *text == '\0') return false;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*end != '\0' || v < 0 || v > 1 << 20) return false;
  value = static_cast<int>(v);
  return true;
}

// Slurm's SLURM_TASKS_PER_NODE: "2(x3),1" is 2 tasks on each of 3 nodes, then 1 on the fourth.
bool slurm_tasks_on_node(const char* list, int node, int& tasks) {
  if (list == nullptr || *list == '\0' || node < 0) return false;
  const char* p = list;
  while (*p != '\0') {
    char* end = nullptr;
    const long count = std::strtol(p, &end, 10);
    if (end == p || count < 1) return false;
    long repeat = 1;
    p = end;
    if (std::strncmp(p, "(x", 2) == 0) {
      repeat = std::strtol(p + 2, &end, 10);
      if (end == p + 2 || *end != ')' || repeat < 1) return false;
      p = end + 1;
    }
    if (node < repeat) {
      tasks = static_cast<int>(count);
      return true;
    }
    node -= static_cast<int>(repeat);
    if (*p == ',') ++p;
    else if (*p != '\0') return false;
  }
  return false;
}

// The processing units the process may run on (its CPU affinity), and the lowest of them;
// 0 where the platform does not say.
int affinity_units(int& lowest) {
  lowest = 0;
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  for (int cpu = CPU_SETSIZE - 1; cpu >= 0; --cpu) {
    if (CPU_ISSET(cpu, &set)) lowest = cpu;
  }
  return CPU_COUNT(&set);
#else
  return 0;
#endif
}

NodeShare& current_share() {
  static NodeShare share;
  return share;
}

}  // namespace

LauncherPlacement launcher_placement(const std::function<const char*(const char*)>& lookup) {
  struct Pair {
    const char* rank;
    const char* size;
  };
  // In order of precedence: a launcher sets its own names; Slurm's may be set around any of them.
  static const Pair pairs[] = {{"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
                               {"MV2_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_SIZE"},
                               {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
                               {"PMI_LOCAL_RANK", "PMI_LOCAL_SIZE"}};
  LauncherPlacement placement;
  auto accept = [&](const char* rank_var, const char* rank_text, const char* size_var, const char* size_text,
                    int size_known) {
    int rank = 0, size = size_known;
    const bool rank_ok = parse_count(rank_text, rank);
    const bool size_ok = size_known > 0 || (parse_count(size_text, size) && size > 0);
    if (rank_ok && size_ok && rank < size) {
      placement.local_rank = rank;
      placement.local_size = size;
      placement.source = rank_var;
      return true;
    }
    placement.problem = std::string(rank_var) + "='" + (rank_text ? rank_text : "") + "' with " + size_var + "='" +
                        (size_text ? size_text : "") + "' is not a local rank below a positive local size";
    return false;
  };
  for (const Pair& p : pairs) {
    const char* rank = lookup(p.rank);
    if (rank == nullptr) continue;
    accept(p.rank, rank, p.size, lookup(p.size), 0);
    return placement;
  }
  if (const char* rank = lookup("SLURM_LOCALID")) {
    if (const char* per_node = lookup("SLURM_NTASKS_PER_NODE")) {
      accept("SLURM_LOCALID", rank, "SLURM_NTASKS_PER_NODE", per_node, 0);
      return placement;
    }
    int node = 0, tasks = 0;
    const char* list = lookup("SLURM_TASKS_PER_NODE");
    const char* node_text = lookup("SLURM_NODEID");
    if (node_text != nullptr && !parse_count(node_text, node)) node = -1;
    if (slurm_tasks_on_node(list, node, tasks)) {
      accept("SLURM_LOCALID", rank, "SLURM_TASKS_PER_NODE", list, tasks);
    } else {
      placement.problem = std::string("SLURM_LOCALID is set but SLURM_TASKS_PER_NODE='") + (list ? list : "") +
                          "' gives no task count for SLURM_NODEID='" + (node_text ? node_text : "") + "'";
    }
  }
  return placement;
}

NodeShare compute_node_share(int local_rank, int local_size, int cores, int threads_per_core) {
  NodeShare s;
  s.local_size = local_size < 1 ? 1 : local_size;
  s.local_rank = local_rank < 0 ? 0 : (local_rank >= s.local_size ? s.local_size - 1 : local_rank);
  s.cores = cores < 1 ? 1 : cores;
  s.threads_per_core = threads_per_core < 1 ? 1 : threads_per_core;
  if (s.local_size > s.cores) {
    s.oversubscribed = true;
    s.first_core = s.local_rank % s.cores;
    s.share_cores = 1;
    return s;
  }
  const int base = s.cores / s.local_size, extra = s.cores % s.local_size;
  s.first_core = s.local_rank * base + (s.local_rank < extra ? s.local_rank : extra);
  s.share_cores = base + (s.local_rank < extra ? 1 : 0);
  return s;
}

void take_node_share(InitializationSettings& settings, const std::function<void(const std::string&)>& warn) {
  const HostTopology& topo = host_topology();
  const LauncherPlacement placement = launcher_placement([](const char* name) { return std::getenv(name); });
  if (!placement.problem.empty()) warn(placement.problem + "; this rank uses the whole node");
  NodeShare share = compute_node_share(placement.local_rank, placement.local_size, topo.cores, topo.threads_per_core);
  // A launcher that bound the process (mpirun --bind-to core, the default for two ranks or
  // fewer) already gave it its share: the processing units of its affinity.
  int lowest = 0;
  const int units = affinity_units(lowest);
  const bool bound_by_launcher = placement.source != nullptr && units > 0 && units < topo.processing_units;
  if (bound_by_launcher) {
    share = compute_node_share(0, 1, topo.cores, topo.threads_per_core);
    share.first_core = lowest / share.threads_per_core;
    share.share_cores = units / share.threads_per_core > 0 ? units / share.threads_per_core : 1;
    share.launcher_bound_units = units;
    share.local_rank = placement.local_rank;
    share.local_size = placement.local_size;
    if (!settings.has_bind_threads()) settings.set_bind_threads(false);
  }
  set_node_share(share);
  if (placement.source == nullptr) return;
  // Every rank of the node would say the same: local rank 0 says it.
  const bool speaks_for_node = placement.local_rank == 0 && !bound_by_launcher;
  if (!settings.has_num_threads()) {
    settings.set_num_threads(share.default_threads());
    if (share.oversubscribed && speaks_for_node) {
      warn(std::to_string(share.local_size) + " ranks on this node (" + placement.source + ") but only " +
           std::to_string(share.cores) + " cores: each rank gets one worker, and ranks share cores");
    }
    return;
  }
  const int threads = settings.get_num_threads();
  const long total = static_cast<long>(threads) * share.local_size;
  if (bound_by_launcher && threads > units) {
    warn(std::to_string(threads) + " threads on the " + std::to_string(units) + " hardware thread" +
         (units == 1 ? "" : "s") + " the launcher bound local rank " + std::to_string(placement.local_rank) +
         " to: its workers share them (launch with --bind-to none to let kdag place them)");
  } else if (speaks_for_node && total > topo.processing_units) {
    warn(std::to_string(share.local_size) + " ranks on this node (" + placement.source + ") x " +
         std::to_string(threads) + " threads = " + std::to_string(total) + " workers for " +
         std::to_string(topo.processing_units) + " hardware threads: the node is oversubscribed");
  }
}

std::string describe_node_share(const NodeShare& s) {
  const int last = s.first_core + s.share_cores - 1;
  std::string text = "local rank " + std::to_string(s.local_rank) + " of " + std::to_string(s.local_size) +
                     " on this node, core" + (s.share_cores == 1 ? " " + std::to_string(s.first_core)
                                                                  : "s " + std::to_string(s.first_core) + "-" +
                                                                        std::to_string(last)) +
                     " of " + std::to_string(s.cores);
  if (s.oversubscribed) text += " (more ranks than cores: shared)";
  if (s.launcher_bound_units > 0) {
    text += " (bound by the launcher to " + std::to_string(s.launcher_bound_units) + " hardware thread" +
            (s.launcher_bound_units == 1 ? "" : "s") + ")";
  }
  return text;
}

const NodeShare& node_share() { return current_share(); }
void set_node_share(const NodeShare& share) { current_share() = share; }

}  // namespace Kokkos::Impl

#pragma once
// A rank's share of its node when an MPI launcher starts several ranks on one node.
//
// The core library never links MPI: it reads the launcher's local rank and local size from the
// environment (Open MPI, MVAPICH2, MPICH/Hydra, PMI, Slurm) and gives each rank a contiguous
// block of the cores it sees, so that ranks x workers never oversubscribe the node.  A launcher
// that already confined the process to its own cores (mpirun --bind-to core) is respected: the
// share is then the processing units the launcher left to the process: workers default to
// that many, and kdag does not bind them itself (they keep the launcher's binding).
#include <impl/Kokkos_InitializationSettings.hpp>

#include <functional>
#include <string>

namespace Kokkos::Impl {

// What the launcher says about this process's place on its node.
struct LauncherPlacement {
  int local_rank = 0;
  int local_size = 1;
  const char* source = nullptr;  // the variable that gave the local rank; null: not launched by MPI
  std::string problem;           // non-empty: a variable was set but unusable (the placement is the default)
};

// Reads the launcher's variables through `lookup` (std::getenv in the library, a table in tests).
LauncherPlacement launcher_placement(const std::function<const char*(const char*)>& lookup);

struct NodeShare {
  int local_rank = 0;
  int local_size = 1;
  int cores = 1;             // cores this process sees
  int threads_per_core = 1;
  int first_core = 0;        // the share: cores [first_core, first_core + share_cores)
  int share_cores = 1;
  bool oversubscribed = false;  // more ranks on the node than cores: one worker each, cores shared
  int launcher_bound_units = 0;  // > 0: the launcher bound the process to this many processing units

  int first_processing_unit() const { return first_core * threads_per_core; }
  int processing_units() const { return share_cores * threads_per_core; }
  // Workers a rank starts when the user did not choose: every hardware thread of its share.
  int default_threads() const {
    if (launcher_bound_units > 0) return launcher_bound_units;
    return oversubscribed ? 1 : processing_units();
  }
};

// The share of rank `local_rank` of `local_size` ranks on a node of `cores` cores: contiguous
// blocks, the first (cores % local_size) ranks one core more.  Arguments are clamped to sense
// (local_size >= 1, 0 <= local_rank < local_size, cores >= 1).
NodeShare compute_node_share(int local_rank, int local_size, int cores, int threads_per_core);

// The share in force: set by Kokkos::initialize, the whole node before.
const NodeShare& node_share();
void set_node_share(const NodeShare& share);

// Called by Kokkos::initialize before the back ends start: takes this process's share from the
// environment and the topology, sets the default thread count when the user gave none, and
// reports through `warn` (once per initialize) an unusable launcher variable, or (on local
// rank 0 only, since every rank of the node would say the same) more ranks than cores, or
// ranks x --kokkos-num-threads beyond the node's hardware threads.
void take_node_share(InitializationSettings& settings, const std::function<void(const std::string&)>& warn);

// "local rank 1 of 2 on this node: cores 4-7 of 8" (or "whole node" without a launcher).
std::string describe_node_share(const NodeShare& share);

}  // namespace Kokkos::Impl

#pragma once
// The memory spaces the connectors modelled on kokkos-tools (space-time-stack, memory-hwm) tell
// apart, decided from the SpaceHandle's name by kokkos-tools' rule: a device space by the prefix
// of its name ("Cuda", "SYCL", "OpenMPTarget", "HIP"), the host by the exact name "Host".  Any
// other name aborts the process, as those tools do, so a Kokkos whose spaces are named otherwise
// cannot run under them.  Also the per-space high-water mark both tools print.
#include <impl/Kokkos_Profiling_C_Interface.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace kdag_connector {

enum Space { host, cuda, hip, sycl, openmp_target, num_spaces };

inline Space space_of(const Kokkos_Profiling_SpaceHandle& handle) {
  const auto starts_with = [&](const char* prefix) { return std::strncmp(handle.name, prefix, std::strlen(prefix)) == 0; };
  if (starts_with("Cuda")) return cuda;
  if (starts_with("SYCL")) return sycl;
  if (starts_with("OpenMPTarget")) return openmp_target;
  if (starts_with("HIP")) return hip;
  if (std::strcmp(handle.name, "Host") == 0) return host;
  std::abort();
}

// The names the tools print for each space.
inline const char* report_name(Space space) {
  constexpr std::array<const char*, num_spaces> names{"HOST", "CUDA", "HIP", "SYCL", "OpenMPTarget"};
  return names[space];
}

// Bytes live in each space and the most ever live at once.
class HighWaterMarks {
 public:
  void allocate(Space space, uint64_t bytes) {
    std::lock_guard lock(m_mutex);
    m_live[space] += bytes;
    if (m_live[space] > m_max[space]) m_max[space] = m_live[space];
  }
  void deallocate(Space space, uint64_t bytes) {
    std::lock_guard lock(m_mutex);
    m_live[space] -= bytes;
  }
  uint64_t max(Space space) const { return m_max[space]; }
  uint64_t live(Space space) const { return m_live[space]; }

 private:
  std::mutex m_mutex;
  std::array<uint64_t, num_spaces> m_live{};
  std::array<uint64_t, num_spaces> m_max{};
};

}  // namespace kdag_connector

#pragma once
// Kokkos::InitializationSettings: the programmatic form of the --kokkos-* flags.
#include <optional>
#include <string>

namespace Kokkos {

class InitializationSettings {
#define KOKKOS_IMPL_SETTING(TYPE, NAME)                                        \
 private:                                                                      \
  std::optional<TYPE> m_##NAME;                                                \
                                                                               \
 public:                                                                       \
  InitializationSettings& set_##NAME(TYPE value) {                             \
    m_##NAME = std::move(value);                                               \
    return *this;                                                              \
  }                                                                            \
  bool has_##NAME() const noexcept { return static_cast<bool>(m_##NAME); }     \
  TYPE get_##NAME() const { return *m_##NAME; }

  KOKKOS_IMPL_SETTING(int, num_threads)
  KOKKOS_IMPL_SETTING(int, device_id)
  KOKKOS_IMPL_SETTING(bool, disable_warnings)
  KOKKOS_IMPL_SETTING(bool, print_configuration)
  KOKKOS_IMPL_SETTING(bool, tune_internals)
  KOKKOS_IMPL_SETTING(std::string, map_device_id_by)
  KOKKOS_IMPL_SETTING(bool, tools_help)
  KOKKOS_IMPL_SETTING(std::string, tools_libs)
  KOKKOS_IMPL_SETTING(std::string, tools_args)
  // kdag extension: threads per task team (default: hardware threads per core from hwloc).
  KOKKOS_IMPL_SETTING(int, task_team_size)
  // kdag extension: bind host worker threads to processing units (default: when OMP_PROC_BIND is unset).
  KOKKOS_IMPL_SETTING(bool, bind_threads)
#undef KOKKOS_IMPL_SETTING
};

}  // namespace Kokkos

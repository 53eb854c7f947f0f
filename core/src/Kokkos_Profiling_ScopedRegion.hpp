#pragma once
// Kokkos::Profiling::ScopedRegion: pushes a profiling region on construction and pops it on
// destruction, so a region closes on every path out of a scope.
#include <impl/tools/Kokkos_Profiling.hpp>

#include <string>

namespace Kokkos::Profiling {

class [[nodiscard]] ScopedRegion {
 public:
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;

  explicit ScopedRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
};

}  // namespace Kokkos::Profiling

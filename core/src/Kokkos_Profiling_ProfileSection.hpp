#pragma once
// Kokkos::Profiling::ProfilingSection: a named section that a tool times over any number of
// start()/stop() intervals; the section is created with the object and destroyed with it.
#include <impl/tools/Kokkos_Profiling.hpp>

#include <cstdint>
#include <string>

namespace Kokkos::Profiling {

class ProfilingSection {
 public:
  ProfilingSection(const ProfilingSection&) = delete;
  ProfilingSection& operator=(const ProfilingSection&) = delete;

  explicit ProfilingSection(const std::string& sectionName) {
    if (Kokkos::Profiling::profileLibraryLoaded()) Kokkos::Profiling::createProfileSection(sectionName, &secID);
  }
  void start() {
    if (Kokkos::Profiling::profileLibraryLoaded()) Kokkos::Profiling::startSection(secID);
  }
  void stop() {
    if (Kokkos::Profiling::profileLibraryLoaded()) Kokkos::Profiling::stopSection(secID);
  }
  ~ProfilingSection() {
    if (Kokkos::Profiling::profileLibraryLoaded()) Kokkos::Profiling::destroyProfileSection(secID);
  }

 protected:
  uint32_t secID = 0;
};

}  // namespace Kokkos::Profiling

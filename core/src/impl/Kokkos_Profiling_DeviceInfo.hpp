#pragma once
// Kokkos::Profiling::KokkosPDeviceInfo: the C++ name of the device description a tool's
// kokkosp_init_library receives, where Kokkos declares it, so that a tool written against
// Kokkos' headers compiles here unchanged.
#include <impl/Kokkos_Profiling_C_Interface.h>

namespace Kokkos::Profiling {
using KokkosPDeviceInfo = Kokkos_Profiling_KokkosPDeviceInfo;
}  // namespace Kokkos::Profiling

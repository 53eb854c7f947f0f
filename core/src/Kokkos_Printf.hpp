#pragma once
#include <Kokkos_Macros.hpp>
#include <cstdio>

namespace Kokkos {
// Kokkos::printf: std::printf on the host, the device printf under CUDA.  The format is the
// caller's, as with printf itself.
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
template <class... Args>
KOKKOS_FUNCTION void printf(const char* format, Args... args) {
  ::printf(format, args...);
}
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
}  // namespace Kokkos

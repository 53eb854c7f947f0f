#pragma once
#include <Kokkos_Macros.hpp>
#include <cstdio>

namespace Kokkos {
// Kokkos::printf: std::printf on the host, the device printf under CUDA.
template <class... Args>
KOKKOS_FUNCTION void printf(const char* format, Args... args) {
  if constexpr (sizeof...(Args) == 0) {
    ::printf("%s", format);
  } else {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#endif
    ::printf(format, args...);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  }
}
}  // namespace Kokkos

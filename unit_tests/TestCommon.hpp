#pragma once
// Included by every unit test: the list of enabled back ends each typed test runs on.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

namespace Kokkos::Test {
using ExecSpaces = ::testing::Types<
#if defined(KOKKOS_ENABLE_SERIAL)
    Kokkos::Serial
#endif
#if defined(KOKKOS_ENABLE_SERIAL) && defined(KOKKOS_ENABLE_OPENMP)
    ,
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    Kokkos::OpenMP
#endif
    >;

// Prints the back end's name in test names: "RangeFor/Serial.Fill".
struct SpaceNames {
  template <class T>
  static std::string GetName(int) {
    return T::name();
  }
};
}  // namespace Kokkos::Test

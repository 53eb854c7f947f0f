#pragma once
// Included by every unit test: the list of enabled back ends each typed test runs on.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <string>

namespace Kokkos::Test {
namespace Detail {
template <class... Spaces>
struct SpaceList {
  template <class Space>
  using add = SpaceList<Spaces..., Space>;
  using gtest_types = ::testing::Types<Spaces...>;
};
using L0 = SpaceList<>;
#if defined(KOKKOS_ENABLE_SERIAL)
using L1 = L0::add<Kokkos::Serial>;
#else
using L1 = L0;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
using L2 = L1::add<Kokkos::OpenMP>;
#else
using L2 = L1;
#endif
#if defined(KOKKOS_ENABLE_THREADS)
using L3 = L2::add<Kokkos::Threads>;
#else
using L3 = L2;
#endif
}  // namespace Detail

using ExecSpaces = Detail::L3::gtest_types;

// Prints the back end's name in test names: "RangeFor/Serial.Fill".
struct SpaceNames {
  template <class T>
  static std::string GetName(int) {
    return T::name();
  }
};
}  // namespace Kokkos::Test

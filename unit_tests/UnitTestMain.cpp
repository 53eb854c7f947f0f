// Shared main for every unit-test executable: Kokkos is initialised once per process
// (Kokkos can be initialised at most once) with the command-line's --kokkos-* flags.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  // Death tests fork; "threadsafe" re-executes the binary so the child starts clean.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Kokkos::initialize(argc, argv);
  const int result = RUN_ALL_TESTS();
  Kokkos::finalize();
  return result;
}

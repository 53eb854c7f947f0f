// KOKKOS_ASSERT / KOKKOS_EXPECTS / KOKKOS_ENSURES when active: forced on here with
// KOKKOS_ENFORCE_CONTRACTS (Kokkos' switch), so that Release builds test them too.
#define KOKKOS_ENFORCE_CONTRACTS
#include "TestCommon.hpp"

#include <Kokkos_Assert.hpp>

namespace {

TEST(ContractsDeathTest, ViolationsAbortWithExpressionAndLocation) {
  const int bad = -1;
  EXPECT_DEATH({ KOKKOS_ASSERT(bad > 0); }, "Kokkos contract violation");
  EXPECT_DEATH({ KOKKOS_ASSERT(bad > 0); }, "Asserted condition `bad > 0` evaluated false");
  // The location line, as Kokkos prints it: Error at "<file>":<line>
  EXPECT_DEATH({ KOKKOS_ASSERT(bad > 0); }, "Error at \"[^\"]*TestContracts.cpp\":[0-9]+");
  EXPECT_DEATH({ KOKKOS_EXPECTS(bad == 3); }, "Expected precondition `bad == 3` evaluated false");
  EXPECT_DEATH({ KOKKOS_ENSURES(bad != -1); }, "Ensured postcondition `bad != -1` evaluated false");
}

TEST(ContractsDeathTest, ViolationInsideAKernelAborts) {
  EXPECT_DEATH(Kokkos::parallel_for(
                   Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 4),
                   KOKKOS_LAMBDA(int i) { KOKKOS_ASSERT(i < 3); }),
               "Asserted condition `i < 3`");
}

TEST(Contracts, SatisfiedChecksEvaluateOnceAndPass) {
  int evaluated = 0;
  KOKKOS_ASSERT((++evaluated, true));
  KOKKOS_EXPECTS((++evaluated, true));
  KOKKOS_ENSURES((++evaluated, true));
  EXPECT_EQ(evaluated, 3);
  int sum = 0;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 10),
      KOKKOS_LAMBDA(int i, int& s) {
        KOKKOS_EXPECTS(i >= 0 && i < 10);
        s += i;
      },
      sum);
  EXPECT_EQ(sum, 45);
}

}  // namespace

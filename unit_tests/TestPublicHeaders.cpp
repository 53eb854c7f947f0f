// Every public header (core, containers, algorithms, SIMD) in one translation unit, in three
// orders, generated at configure time (unit_tests/CMakeLists.txt): sorted, reversed, and the
// containers, algorithms and SIMD before core's own.  A header that declares a nested namespace
// (Kokkos::Impl::Experimental, Kokkos::Experimental::Impl) changes what an unqualified name means
// in every header after it, and two headers may declare one name twice: such a clash fails to
// compile in one of the orders.  Each unit then runs a little of what it included.
#include "TestCommon.hpp"

int public_headers_smoke_sorted();
int public_headers_smoke_reversed();
int public_headers_smoke_containers_first();

namespace {

TEST(PublicHeaders, EveryOrderCompilesAndRuns) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  // Sorted, ten distinct keys, and a SIMD sum of 2.0 per lane.
  EXPECT_EQ(public_headers_smoke_sorted(), 111);
  EXPECT_EQ(public_headers_smoke_reversed(), 111);
  EXPECT_EQ(public_headers_smoke_containers_first(), 111);
}

}  // namespace

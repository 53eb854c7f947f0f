// Debug builds catch host accesses to a View whose allocation a pending recorded launch writes.
// Forced on here (the suite builds in release): bounds checking plus the stale-read check.
#define KOKKOS_IMPL_FORCE_BOUNDS_CHECK
#define KOKKOS_IMPL_FORCE_STALE_READ_CHECK
#include "FusionTestFixture.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include <gtest/gtest.h>

namespace {

namespace KE = Kokkos::Experimental;
using Space = Kokkos::DefaultHostExecutionSpace;
using V = Kokkos::View<double*, Kokkos::HostSpace>;

struct FusionStaleRead : Kokkos::Test::FusionFixture {};

void record_fill(const V& x, const V& y) {
  Kokkos::parallel_for("fill_from_y", KE::with_accesses(Kokkos::RangePolicy<Space>(0, x.extent(0)), KE::reads(y), KE::writes(x)),
                       KOKKOS_LAMBDA(int i) { x(i) = 2 * y(i) + 1; });
}

TEST_F(FusionStaleRead, HostReadOfAPendingWriteAbortsNamingViewAndLaunch) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  V x("pending_x", 100), y("input_y", 100);
  EXPECT_DEATH(
      {
        KE::FusionScope scope;
        record_fill(x, y);
        const double stale = x(3);
        std::printf("read %g\n", stale);
      },
      "Kokkos::View \"pending_x\": host access while the recorded launch \"fill_from_y\".*Kokkos::fence\\(\\)");
  // A subview of the same allocation is caught too, and so is operator[] and access().
  EXPECT_DEATH(
      {
        KE::FusionScope scope;
        record_fill(x, y);
        auto tail = Kokkos::subview(x, Kokkos::pair<int, int>(50, 100));
        std::printf("read %g\n", tail[1]);
      },
      "pending_x.*fill_from_y");
}

TEST_F(FusionStaleRead, ReadsAfterTheFenceAndOfViewsOnlyReadArePermitted) {
  V x("x", 100), y("y", 100);
  for (int i = 0; i < 100; ++i) y(i) = i;
  {
    KE::FusionScope scope;
    record_fill(x, y);
    ASSERT_EQ(KE::fusion_pending_launches(), 1u);
    EXPECT_EQ(y(7), 7.0);  // pending launches only read y
    Kokkos::fence();
    EXPECT_EQ(x(7), 15.0);
    record_fill(x, y);
  }
  EXPECT_EQ(x(99), 199.0);  // the scope's end flushed
  EXPECT_EQ(KE::fusion_pending_launches(), 0u);
}

}  // namespace

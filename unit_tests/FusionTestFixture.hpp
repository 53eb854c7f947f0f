#pragma once
// The fusion tests' common set-up: fusion on, a 50-launch window, memoization on, recording on
// every space (one thread included: no inline launches), statistics from zero.
#include <Kokkos_Fusion.hpp>

#include <gtest/gtest.h>

namespace Kokkos::Test {

struct FusionFixture : ::testing::Test {
  void SetUp() override {
    namespace KE = Kokkos::Experimental;
    KE::set_fusion_enabled(true);
    KE::set_fusion_window_size(50);
    KE::set_fusion_adaptive_window(false);
    KE::set_fusion_memoization(true);
    KE::set_fusion_inline_bytes(0);
    KE::set_fusion_concurrent_flush(KE::FusionConcurrentFlush::measured);
    KE::reset_fusion_statistics();
  }
  void TearDown() override { Kokkos::Experimental::set_fusion_enabled(true); }
};

}  // namespace Kokkos::Test

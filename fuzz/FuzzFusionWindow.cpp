// libFuzzer target: a fusion window built from the input bytes (FusionRandomProgram.hpp's
// generator, reading its choices from the bytes) runs unfused and then fused under the settings
// the first bytes choose; any bit of difference, exception or sanitizer report is a finding.
#include "FusionRandomProgram.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

namespace KE = Kokkos::Experimental;
namespace RF = Kokkos::Test::RandomFusion;

template <class Space>
std::string check(const RF::Program& p, int fused_repeats) {
  return RF::fused_differs_from_unfused<Space>(p, fused_repeats);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Never finalized: libFuzzer leaves through exit(), and Kokkos::finalize from an exit handler
  // would run after the library's own function-local statics are gone.
  Kokkos::initialize(Kokkos::InitializationSettings().set_num_threads(2));
  // Record every launch, even on one thread (as FusionTestFixture does): nothing runs inline.
  KE::set_fusion_inline_bytes(0);
  KE::set_fusion_enabled(true);
  // Every View the window creates is a candidate temporary, however small.
  KE::set_fusion_temporary_bytes(0);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Kokkos::Test::RandomSource rng(data, size);
  // Sizes around the chunk and block edges, then a few chunks per worker.
  static constexpr std::int64_t sizes[] = {1, 2, 3, 5, 8, 13, 37, 64, 100, 257, 1000, 3000};
  const bool threads = rng.pick(2) == 1;
  RF::Shape shape;
  shape.n = sizes[rng.pick(static_cast<int>(std::size(sizes)))];
  shape.lanes = 1 + rng.pick(3);
  shape.max_temporaries = rng.pick(4);
  const int fused_repeats = 1 + rng.pick(3);
  KE::set_fusion_window_size(1 + rng.pick(50));
  KE::set_fusion_adaptive_window(rng.pick(2) == 1);
  KE::set_fusion_memoization(rng.pick(2) == 1);
  KE::set_fusion_adaptive_dispatch(rng.pick(2) == 1);
  static constexpr KE::FusionConcurrentFlush flush_modes[] = {
      KE::FusionConcurrentFlush::measured, KE::FusionConcurrentFlush::off, KE::FusionConcurrentFlush::always};
  KE::set_fusion_concurrent_flush(flush_modes[rng.pick(3)]);
  KE::set_fusion_temporary_elimination(rng.pick(4) != 0);
  const RF::Program p = RF::make_program(rng, shape);
  const std::string diff = threads ? check<Kokkos::DefaultHostExecutionSpace>(p, fused_repeats) : check<Kokkos::Serial>(p, fused_repeats);
  if (!diff.empty()) {
    std::fprintf(stderr, "FuzzFusionWindow: fused differs from unfused on %s, n %lld, %d lanes, %d temporaries, %zu launches: %s\n",
                 threads ? Kokkos::DefaultHostExecutionSpace::name() : "Serial", static_cast<long long>(shape.n), shape.lanes,
                 p.temporaries, p.steps.size(), diff.c_str());
    std::abort();
  }
  return 0;
}

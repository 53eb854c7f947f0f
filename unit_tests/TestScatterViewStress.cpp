// ScatterView under contention: random bins (few, so that workers collide), many rounds, every
// back end with its default duplication and with the atomic non-duplicated form, checked against
// a sequential histogram.  Runs clean under ThreadSanitizer (the tsan preset).
#include "TestCommon.hpp"

#include <Kokkos_ScatterView.hpp>

#include <random>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;

template <class Space>
struct ScatterViewStress : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(ScatterViewStress, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

template <class Space, class SV>
void run_rounds(std::mt19937& rng, int rounds) {
  const int n = 20000;
  for (int round = 0; round < rounds; ++round) {
    const int bins = 1 + static_cast<int>(rng() % 17);
    Kokkos::View<int*, Space> keys("keys", n);
    std::vector<long> expect(bins, 1);
    for (int i = 0; i < n; ++i) {
      keys(i) = static_cast<int>(rng() % static_cast<unsigned>(bins));
      expect[keys(i)] += keys(i) + 1;
    }
    Kokkos::View<long*, Kokkos::LayoutRight, Space> hist("hist", bins);
    Kokkos::deep_copy(hist, 1L);
    SV sv(hist);
    sv.reset_except(hist);
    Kokkos::parallel_for(
        "stress", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
          auto a = sv.access();
          const int k = keys(i);
          for (int r = 0; r <= k; ++r) a(k) += 1;
        });
    KE::contribute(hist, sv);
    Space().fence();
    for (int b = 0; b < bins; ++b) ASSERT_EQ(hist(b), expect[b]) << "round " << round << " bin " << b;
  }
}

TYPED_TEST(ScatterViewStress, RandomBinsDefaultAndAtomic) {
  using Space = TypeParam;
  std::mt19937 rng(12345);
  using Default = KE::ScatterView<long*, Kokkos::LayoutRight, Space>;
  using Atomic = KE::ScatterView<long*, Kokkos::LayoutRight, Space, KE::ScatterSum, KE::ScatterNonDuplicated,
                                 KE::ScatterAtomic>;
  using DupAtomic = KE::ScatterView<long*, Kokkos::LayoutRight, Space, KE::ScatterSum, KE::ScatterDuplicated,
                                    KE::ScatterAtomic>;
  run_rounds<Space, Default>(rng, 12);
  run_rounds<Space, Atomic>(rng, 12);
  run_rounds<Space, DupAtomic>(rng, 6);
}

}  // namespace

// Kokkos 4.6's per-algorithm headers, each included before anything else: code that includes
// only std_algorithms/Kokkos_Transform.hpp (or sorting/Kokkos_SortPublicAPI.hpp ...) compiles
// and the algorithms work.
#include <std_algorithms/Kokkos_BeginEnd.hpp>
#include <std_algorithms/Kokkos_Transform.hpp>
#include <std_algorithms/Kokkos_Reduce.hpp>
#include <std_algorithms/Kokkos_Find.hpp>
#include <std_algorithms/Kokkos_Copy.hpp>
#include <std_algorithms/Kokkos_IsSorted.hpp>
#include <sorting/Kokkos_SortPublicAPI.hpp>
#include <sorting/Kokkos_BinOpsPublicAPI.hpp>
#include <sorting/Kokkos_BinSortPublicAPI.hpp>

#include "TestCommon.hpp"

namespace {

namespace KE = Kokkos::Experimental;

struct Twice {
  KOKKOS_FUNCTION int operator()(int v) const { return 2 * v; }
};

template <class Space>
class AlgorithmHeaders : public Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(AlgorithmHeaders, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(AlgorithmHeaders, StdAlgorithmsAndSortFromTheirOwnHeaders) {
  using Space = TypeParam;
  using V = Kokkos::View<int*, typename Space::memory_space>;
  const Space space;
  const int n = 1000;
  V x("x", n), y("y", n);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(space, 0, n), KOKKOS_LAMBDA(int i) { x(i) = (i * 37) % n; });
  auto written = KE::transform("twice", space, KE::cbegin(x), KE::cend(x), KE::begin(y), Twice{});
  EXPECT_EQ(written, KE::end(y));
  EXPECT_EQ(KE::reduce(space, y), n * (n - 1));  // 37 is coprime with 1000: a permutation, doubled
  EXPECT_EQ(KE::find(space, KE::cbegin(x), KE::cend(x), 37) - KE::cbegin(x), 1);
  EXPECT_EQ(KE::find(space, KE::cbegin(x), KE::cend(x), n), KE::cend(x));  // not there: last
  EXPECT_FALSE(KE::is_sorted(space, x));

  Kokkos::sort(space, x);
  space.fence();
  EXPECT_TRUE(KE::is_sorted(space, x));
  KE::copy(space, x, y);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  for (int i = 0; i < n; ++i) ASSERT_EQ(h(i), i);

  // BinSort with a BinOp1D from their own headers: sorts descending keys back to ascending.
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(space, 0, n), KOKKOS_LAMBDA(int i) { x(i) = n - 1 - i; });
  using Op = Kokkos::BinOp1D<V>;
  Kokkos::BinSort<V, Op> bin_sort(space, x, Op(n / 10, 0, n - 1), /*sort_within_bins=*/true);
  bin_sort.create_permute_vector(space);
  bin_sort.sort(space, x);
  space.fence();
  EXPECT_TRUE(KE::is_sorted(space, x));
}

}  // namespace

// require / prefer / LaunchBounds: the returned policies keep launching correctly, carry their
// properties, and HintIrregular selects the dynamic schedule on the host.
#include "TestCommon.hpp"

#include <type_traits>

namespace {

namespace KE = Kokkos::Experimental;
namespace WIP = Kokkos::Experimental::WorkItemProperty;

static_assert(std::is_same_v<decltype(WIP::HintLightWeight | WIP::HintIrregular), WIP::ImplWorkItemProperty<9>>);
static_assert((WIP::HintLightWeight | WIP::HintIrregular) == WIP::ImplWorkItemProperty<9>());
static_assert(((WIP::HintLightWeight | WIP::HintIrregular) & WIP::HintIrregular) == WIP::HintIrregular);
static_assert(WIP::None.value == 0u && WIP::HintHeavyWeight.value == 2u && WIP::HintRegular.value == 4u);

template <class Space>
struct PolicyProperties : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(PolicyProperties, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

template <class Policy>
long sum_of_indices(const Policy& policy) {
  long sum = 0;
  Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(long i, long& s) { s += i; }, sum);
  return sum;
}

TYPED_TEST(PolicyProperties, RequireOnRangePolicy) {
  using Space = TypeParam;
  const Kokkos::RangePolicy<Space> base(Space(), 3, 1003);
  const auto light = KE::require(base, WIP::HintLightWeight);
  static_assert(std::is_same_v<typename decltype(light)::work_item_property, WIP::HintLightWeight_t>);
  static_assert(std::is_same_v<typename decltype(light)::schedule_type, Kokkos::Schedule<Kokkos::Static>>);
  EXPECT_EQ(light.begin(), 3);
  EXPECT_EQ(light.end(), 1003);
  EXPECT_EQ(sum_of_indices(light), 1002L * 1003 / 2 - 3);

  const auto irregular = KE::require(base, WIP::HintIrregular | WIP::HintHeavyWeight);
  static_assert(std::is_same_v<typename decltype(irregular)::schedule_type, Kokkos::Schedule<Kokkos::Dynamic>>);
  EXPECT_EQ(sum_of_indices(irregular), 1002L * 1003 / 2 - 3);
  // An explicit schedule wins over the hint.
  const auto explicit_static =
      KE::require(Kokkos::RangePolicy<Space, Kokkos::Schedule<Kokkos::Static>>(0, 10), WIP::HintIrregular);
  static_assert(std::is_same_v<typename decltype(explicit_static)::schedule_type, Kokkos::Schedule<Kokkos::Static>>);
  // Requiring again replaces the property instead of stacking a second one.
  const auto again = KE::require(irregular, WIP::HintRegular);
  static_assert(std::is_same_v<typename decltype(again)::work_item_property, WIP::HintRegular_t>);
  EXPECT_EQ(sum_of_indices(again), 1002L * 1003 / 2 - 3);

  Kokkos::View<int*, Kokkos::HostSpace> v("v", 100);
  Kokkos::parallel_for(KE::require(Kokkos::RangePolicy<Space>(0, 100), WIP::None),
                       KOKKOS_LAMBDA(int i) { v(i) = i; });
  Kokkos::View<long, Kokkos::HostSpace> scanned("scanned");
  Kokkos::parallel_scan(KE::require(Kokkos::RangePolicy<Space>(0, 100), WIP::HintIrregular),
                        KOKKOS_LAMBDA(int i, long& partial, bool final) {
                          partial += v(i);
                          if (final && i == 99) scanned() = partial;
                        });
  EXPECT_EQ(scanned(), 4950);
}

TYPED_TEST(PolicyProperties, PreferOccupancy) {
  using Space = TypeParam;
  const Kokkos::RangePolicy<Space> base(0, 500);
  const auto half = KE::prefer(base, KE::DesiredOccupancy(50));
  static_assert(std::is_same_v<typename decltype(half)::occupancy_control, KE::DesiredOccupancy>);
  EXPECT_EQ(half.impl_get_desired_occupancy().value(), 50);
  EXPECT_EQ(sum_of_indices(half), 499L * 500 / 2);
  const auto max = KE::prefer(half, KE::MaximizeOccupancy());
  static_assert(std::is_same_v<typename decltype(max)::occupancy_control, KE::MaximizeOccupancy>);
  EXPECT_EQ(max.impl_get_desired_occupancy().value(), 100);
  // Properties combine.
  const auto both = KE::prefer(KE::require(base, WIP::HintIrregular), KE::DesiredOccupancy(33));
  static_assert(std::is_same_v<typename decltype(both)::work_item_property, WIP::HintIrregular_t>);
  EXPECT_EQ(both.impl_get_desired_occupancy().value(), 33);
  EXPECT_EQ(sum_of_indices(both), 499L * 500 / 2);
  EXPECT_THROW(KE::DesiredOccupancy(101), std::runtime_error);
  EXPECT_EQ(int(KE::DesiredOccupancy(7)), 7);
}

TYPED_TEST(PolicyProperties, TeamAndMDRangePolicies) {
  using Space = TypeParam;
  using Team = Kokkos::TeamPolicy<Space>;
  const auto team = KE::prefer(KE::require(Team(20, Kokkos::AUTO), WIP::HintIrregular), KE::DesiredOccupancy(25));
  using TeamOut = std::remove_cvref_t<decltype(team)>;
  static_assert(std::is_same_v<typename TeamOut::schedule_type, Kokkos::Schedule<Kokkos::Dynamic>>);
  EXPECT_EQ(team.league_size(), 20);
  long leagues = 0;
  Kokkos::parallel_reduce(
      team, KOKKOS_LAMBDA(const typename TeamOut::member_type& m, long& s) {
        if (m.team_rank() == 0) s += m.league_rank();
      },
      leagues);
  EXPECT_EQ(leagues, 190);

  using MD = Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>;
  const auto md = KE::require(MD({0, 0}, {30, 40}, {4, 8}), WIP::HintIrregular);
  static_assert(std::is_same_v<typename decltype(md)::schedule_type, Kokkos::Schedule<Kokkos::Dynamic>>);
  EXPECT_EQ(md.m_tile[1], 8);
  long cells = 0;
  Kokkos::parallel_reduce(md, KOKKOS_LAMBDA(long i, long j, long& s) { s += i * 40 + j; }, cells);
  EXPECT_EQ(cells, 1199L * 1200 / 2);
}

TYPED_TEST(PolicyProperties, LaunchBoundsAsATemplateArgument) {
  using Space = TypeParam;
  using Range = Kokkos::RangePolicy<Space, Kokkos::LaunchBounds<128, 2>>;
  static_assert(Range::launch_bounds::maxTperB == 128 && Range::launch_bounds::minBperSM == 2);
  EXPECT_EQ(sum_of_indices(Range(0, 100)), 4950);
  using Team = Kokkos::TeamPolicy<Kokkos::LaunchBounds<64>, Space>;
  static_assert(std::is_same_v<typename Team::execution_space, Space>);
  long n = 0;
  Kokkos::parallel_reduce(Team(8, 1), KOKKOS_LAMBDA(const typename Team::member_type&, long& s) { s += 1; }, n);
  EXPECT_EQ(n, 8);
  using MD = Kokkos::MDRangePolicy<Kokkos::LaunchBounds<256>, Space, Kokkos::Rank<3>>;
  long md = 0;
  Kokkos::parallel_reduce(MD({0, 0, 0}, {2, 3, 4}), KOKKOS_LAMBDA(int, int, int, long& s) { s += 1; }, md);
  EXPECT_EQ(md, 24);
}

}  // namespace

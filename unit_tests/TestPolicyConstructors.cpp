// RangePolicy / MDRangePolicy / TeamPolicy constructors, setters, member types and deduction
// guides as Kokkos 4.6 has them, and its handling of reversed bounds (a warning, an empty range).
#include "TestCommon.hpp"

#include <array>
#include <type_traits>

namespace {

using DES = Kokkos::DefaultExecutionSpace;

// Deduction guides.
static_assert(std::is_same_v<decltype(Kokkos::RangePolicy(0, 5)), Kokkos::RangePolicy<>>);
static_assert(std::is_same_v<decltype(Kokkos::RangePolicy(0L, 5u)), Kokkos::RangePolicy<>>);
static_assert(std::is_same_v<decltype(Kokkos::RangePolicy(DES(), 0, 5)), Kokkos::RangePolicy<>>);
static_assert(std::is_same_v<decltype(Kokkos::RangePolicy(0, 5, Kokkos::ChunkSize(2))), Kokkos::RangePolicy<>>);
static_assert(std::is_same_v<decltype(Kokkos::RangePolicy(Kokkos::DefaultHostExecutionSpace(), 0, 5)),
                             std::conditional_t<std::is_same_v<DES, Kokkos::DefaultHostExecutionSpace>,
                                                Kokkos::RangePolicy<>,
                                                Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>>>);
static_assert(std::is_same_v<decltype(Kokkos::MDRangePolicy({0, 0}, {4, 5})), Kokkos::MDRangePolicy<Kokkos::Rank<2>>>);
static_assert(std::is_same_v<decltype(Kokkos::MDRangePolicy({0, 0, 0}, {4, 5, 6}, {1, 1, 1})),
                             Kokkos::MDRangePolicy<Kokkos::Rank<3>>>);
static_assert(std::is_same_v<decltype(Kokkos::MDRangePolicy(DES(), {0, 0}, {4, 5})),
                             Kokkos::MDRangePolicy<Kokkos::Rank<2>>>);
static_assert(std::is_same_v<decltype(Kokkos::MDRangePolicy(Kokkos::Array<int, 2>{0, 0}, Kokkos::Array<int, 2>{3, 3})),
                             Kokkos::MDRangePolicy<Kokkos::Rank<2>>>);
static_assert(std::is_same_v<decltype(Kokkos::MDRangePolicy(std::array<long, 4>{}, std::array<long, 4>{})),
                             Kokkos::MDRangePolicy<Kokkos::Rank<4>>>);
static_assert(std::is_same_v<decltype(Kokkos::TeamPolicy(4, 1)), Kokkos::TeamPolicy<>>);
static_assert(std::is_same_v<decltype(Kokkos::TeamPolicy(4, Kokkos::AUTO)), Kokkos::TeamPolicy<>>);
static_assert(std::is_same_v<decltype(Kokkos::TeamPolicy(4, Kokkos::AUTO, Kokkos::AUTO)), Kokkos::TeamPolicy<>>);
static_assert(std::is_same_v<decltype(Kokkos::TeamPolicy(4, 1, 2)), Kokkos::TeamPolicy<>>);
static_assert(std::is_same_v<decltype(Kokkos::TeamPolicy(DES(), 4, Kokkos::AUTO)), Kokkos::TeamPolicy<>>);

// MDRangePolicy member types.
using MD3 = Kokkos::MDRangePolicy<Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Right>, Kokkos::IndexType<int>>;
static_assert(std::is_same_v<MD3::index_type, int>);
static_assert(std::is_same_v<MD3::array_index_type, std::int64_t>);
static_assert(std::is_same_v<MD3::point_type, Kokkos::Array<std::int64_t, 3>>);
static_assert(std::is_same_v<MD3::tile_type, Kokkos::Array<std::int64_t, 3>>);
static_assert(std::is_same_v<MD3::iteration_pattern, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Right>>);
static_assert(MD3::rank == 3 && MD3::outer_direction == Kokkos::Iterate::Left &&
              MD3::inner_direction == Kokkos::Iterate::Right);
static_assert(std::is_same_v<MD3::execution_space, DES>);
static_assert(std::is_same_v<MD3::work_tag, void>);
static_assert(Kokkos::is_execution_policy_v<MD3>);

template <class Space>
struct PolicyConstructors : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(PolicyConstructors, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(PolicyConstructors, RangePolicyFormsAndSetters) {
  using Space = TypeParam;
  const Space space;
  Kokkos::RangePolicy<Space> a(space, 2, 10);
  Kokkos::RangePolicy<Space> b(space, 2, 10, Kokkos::ChunkSize(4));
  Kokkos::RangePolicy<Space> c(2, 10, Kokkos::ChunkSize(3));
  EXPECT_EQ(a.begin(), 2);
  EXPECT_EQ(a.end(), 10);
  EXPECT_EQ(b.chunk_size(), 4);
  EXPECT_EQ(c.chunk_size(), 3);
  EXPECT_EQ(&a.set_chunk_size(8), &a);
  EXPECT_EQ(a.chunk_size(), 8);
  EXPECT_TRUE(a.space() == space);
  auto parts = Kokkos::Experimental::partition_space(space, 1, 1);
  Kokkos::RangePolicy<Space> on_part(parts[1], 0, 4);
  EXPECT_TRUE(on_part.space() == parts[1]);
  auto deduced = Kokkos::RangePolicy(parts[0], 0, 100);
  long sum = 0;
  Kokkos::parallel_reduce(deduced, KOKKOS_LAMBDA(long i, long& s) { s += i; }, sum);
  EXPECT_EQ(sum, 4950);
  static_assert(std::is_same_v<typename Kokkos::RangePolicy<Space, Kokkos::IndexType<int>>::member_type, int>);
  static_assert(std::is_same_v<typename Kokkos::RangePolicy<Space, unsigned>::index_type, unsigned>);
}

TYPED_TEST(PolicyConstructors, TeamPolicyFormsAndQueries) {
  using Space = TypeParam;
  using Policy = Kokkos::TeamPolicy<Space>;
  const Space space;
  const auto functor = KOKKOS_LAMBDA(const typename Policy::member_type&) {};
  Policy p(space, 10, 1);
  EXPECT_EQ(p.league_size(), 10);
  EXPECT_EQ(p.team_size(), 1);
  EXPECT_EQ(p.impl_vector_length(), 1);
  EXPECT_EQ(p.vector_length(), 1);
  const int max_for = p.team_size_max(functor, Kokkos::ParallelForTag());
  const int max_reduce = p.team_size_max(functor, Kokkos::ParallelReduceTag());
  const int rec = p.team_size_recommended(functor, Kokkos::ParallelForTag());
  EXPECT_EQ(max_for, Space::concurrency());
  EXPECT_EQ(max_reduce, Space::concurrency());
  EXPECT_GE(rec, 1);
  EXPECT_LE(rec, max_for);
  Policy automatic(space, 7, Kokkos::AUTO, Kokkos::AUTO);
  EXPECT_EQ(automatic.team_size(), rec);
  EXPECT_TRUE(automatic.impl_auto_team_size());
  Policy vec(7, 1, 4);
  EXPECT_EQ(vec.impl_vector_length(), 1);  // host vector loops are sequential
  EXPECT_EQ(&p.set_chunk_size(2), &p);
  EXPECT_EQ(p.chunk_size(), 2);
  p.set_scratch_size(0, Kokkos::PerTeam(128), Kokkos::PerThread(16)).set_scratch_size(1, Kokkos::PerTeam(1000));
  EXPECT_EQ(p.team_scratch_size(0), 128u);
  EXPECT_EQ(p.thread_scratch_size(0), 16u);
  EXPECT_EQ(p.scratch_size(0), 128u + 16u);
  EXPECT_EQ(p.scratch_size(1), 1000u);
  EXPECT_THROW(Policy(-1, 1), std::runtime_error);
  EXPECT_THROW(Policy(1, max_for + 1), std::runtime_error);
  auto deduced = Kokkos::TeamPolicy(space, 5, Kokkos::AUTO);
  long n = 0;
  Kokkos::parallel_reduce(
      deduced, KOKKOS_LAMBDA(const typename decltype(deduced)::member_type& m, long& s) {
        if (m.team_rank() == 0) s += 1;
      },
      n);
  EXPECT_EQ(n, 5);
}

TYPED_TEST(PolicyConstructors, MDRangeFormsWithInstances) {
  using Space = TypeParam;
  auto parts = Kokkos::Experimental::partition_space(Space(), 1, 1);
  auto md = Kokkos::MDRangePolicy(parts[0], {1, 2}, {4, 6}, {2, 2});
  using MD = decltype(md);
  static_assert(MD::rank == 2);
  EXPECT_TRUE(md.space() == parts[0]);
  EXPECT_EQ(md.m_lower[0], 1);
  EXPECT_EQ(md.m_upper[1], 6);
  EXPECT_EQ(md.m_tile[0], 2);
  long cells = 0;
  Kokkos::parallel_reduce(md, KOKKOS_LAMBDA(long, long, long& s) { s += 1; }, cells);
  EXPECT_EQ(cells, 12);
  typename MD::point_type lo{0, 0}, hi{3, 3};
  EXPECT_EQ((Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>(parts[1], lo, hi).m_num_tiles), 2);
}

// Kokkos 4.6 (default build, deprecated code 4 on): a warning and an empty range.
TEST(PolicyConstructors, ReversedBoundsGiveAnEmptyRange) {
  testing::internal::CaptureStderr();
  Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace> p(5, 2);
  Kokkos::MDRangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Rank<2>> md({0, 5}, {4, 2});
  const std::string warnings = testing::internal::GetCapturedStderr();
  EXPECT_EQ(p.begin(), 0);
  EXPECT_EQ(p.end(), 0);
  EXPECT_NE(warnings.find("lower bound (5) is greater than the upper bound (2)"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("greater than its upper bound (2) in dimension 1"), std::string::npos) << warnings;
  int calls = 0;
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Serial>(7, 3), [&](int) { ++calls; });
  Kokkos::parallel_for(Kokkos::MDRangePolicy<Kokkos::Serial, Kokkos::Rank<2>>({0, 5}, {4, 2}), [&](int, int) { ++calls; });
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(md.m_num_tiles, 0);
  // Negative bounds with a signed index type are a valid, non-empty range.
  long sum = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<int>>(-3, 2),
                          KOKKOS_LAMBDA(int i, long& s) { s += i; }, sum);
  EXPECT_EQ(sum, -5);
}

}  // namespace

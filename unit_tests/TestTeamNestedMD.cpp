// Multi-dimensional nested ranges inside team functors: TeamThreadMDRange, ThreadVectorMDRange
// and TeamVectorMDRange with parallel_for and parallel_reduce, on every back end (Cuda included):
// every index tuple once per team (per thread for ThreadVectorMDRange), empty ranges, the class
// template argument deduction, the default and explicit iteration directions, scalar and reducer
// results on every member.
#include "TestCommon.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace {

template <class Space>
struct TeamNestedMD : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TeamNestedMD, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

template <class Space>
using MemberOf = typename Kokkos::TeamPolicy<Space>::member_type;

using Kokkos::Test::filled_view;
using Kokkos::Test::to_vector;

// Deduction: N extents give Rank<N> with the default directions.
using HostMember = MemberOf<Kokkos::DefaultHostExecutionSpace>;
static_assert(std::is_same_v<decltype(Kokkos::TeamThreadMDRange(std::declval<const HostMember&>(), 2, 3)),
                             Kokkos::TeamThreadMDRange<Kokkos::Rank<2>, HostMember>>);
static_assert(std::is_same_v<decltype(Kokkos::ThreadVectorMDRange(std::declval<const HostMember&>(), 2, 3, 4)),
                             Kokkos::ThreadVectorMDRange<Kokkos::Rank<3>, HostMember>>);
static_assert(std::is_same_v<decltype(Kokkos::TeamVectorMDRange(std::declval<const HostMember&>(), 2, 3, 4, 5)),
                             Kokkos::TeamVectorMDRange<Kokkos::Rank<4>, HostMember>>);
// The default direction is the execution space's, as for MDRangePolicy; an explicit one is kept.
static_assert(Kokkos::TeamThreadMDRange<Kokkos::Rank<2>, HostMember>::direction == Kokkos::Iterate::Right);
static_assert(Kokkos::TeamThreadMDRange<Kokkos::Rank<2, Kokkos::Iterate::Left>, HostMember>::direction ==
              Kokkos::Iterate::Left);
static_assert(Kokkos::TeamThreadMDRange<Kokkos::Rank<3>, HostMember>::total_nest_level == 3);
#if defined(KOKKOS_ENABLE_CUDA)
static_assert(Kokkos::TeamVectorMDRange<Kokkos::Rank<2>, MemberOf<Kokkos::Cuda>>::direction ==
              Kokkos::Iterate::Left);
#endif

enum class Kind { TeamThread, ThreadVector, TeamVector };

// hits[league][i][j][k] counts the visits of (i, j, k) for extents (n0, n1, n2) given in ranks 2
// (n2 == 1: the closure takes two indices) and 3.
template <class Space, Kind K, int R>
void check_coverage(int n0, int n1, int n2) {
  using Member = MemberOf<Space>;
  const int league = 3;
  const int e0 = n0 > 0 ? n0 : 0, e1 = n1 > 0 ? n1 : 0, e2 = R == 3 && n2 > 0 ? n2 : (R == 2 ? 1 : 0);
  const std::size_t cells = std::size_t(league) * e0 * e1 * e2;
  auto d_hits = filled_view<Space>(cells > 0 ? cells : 1, 0);
  int* h = d_hits.data();
  Kokkos::TeamPolicy<Space> policy(league, Kokkos::AUTO);
  Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const Member& m) {
    int* mine = h + std::size_t(m.league_rank()) * e0 * e1 * e2;
    // Copied before the constexpr-if: nvcc's extended lambdas may not first capture inside one.
    const int x0 = n0, x1 = n1, x2 = n2;
    if constexpr (R == 2) {
      const auto body = [&](int i, int j) { Kokkos::atomic_add(&mine[i * e1 + j], 1); };
      if constexpr (K == Kind::TeamThread) Kokkos::parallel_for(Kokkos::TeamThreadMDRange(m, x0, x1), body);
      if constexpr (K == Kind::ThreadVector) Kokkos::parallel_for(Kokkos::ThreadVectorMDRange(m, x0, x1), body);
      if constexpr (K == Kind::TeamVector) Kokkos::parallel_for(Kokkos::TeamVectorMDRange(m, x0, x1), body);
    } else {
      const auto body = [&](int i, int j, int k) { Kokkos::atomic_add(&mine[(i * e1 + j) * e2 + k], 1); };
      using Rank = Kokkos::Rank<3, Kokkos::Iterate::Left>;
      if constexpr (K == Kind::TeamThread)
        Kokkos::parallel_for(Kokkos::TeamThreadMDRange<Rank, Member>(m, x0, x1, x2), body);
      if constexpr (K == Kind::ThreadVector)
        Kokkos::parallel_for(Kokkos::ThreadVectorMDRange<Rank, Member>(m, x0, x1, x2), body);
      if constexpr (K == Kind::TeamVector)
        Kokkos::parallel_for(Kokkos::TeamVectorMDRange<Rank, Member>(m, x0, x1, x2), body);
    }
  });
  const int expected = K == Kind::ThreadVector ? policy.team_size() : 1;  // every thread runs them all
  const auto hits = to_vector(d_hits);
  for (std::size_t c = 0; c < cells; ++c) ASSERT_EQ(hits[c], expected) << "cell " << c << " of " << n0 << "x" << n1;
}

TYPED_TEST(TeamNestedMD, EveryTupleOnceInRanksTwoAndThree) {
  for (auto [n0, n1, n2] : {std::array{4, 7, 3}, std::array{1, 1, 1}, std::array{9, 1, 2}}) {
    check_coverage<TypeParam, Kind::TeamThread, 2>(n0, n1, n2);
    check_coverage<TypeParam, Kind::ThreadVector, 2>(n0, n1, n2);
    check_coverage<TypeParam, Kind::TeamVector, 2>(n0, n1, n2);
    check_coverage<TypeParam, Kind::TeamThread, 3>(n0, n1, n2);
    check_coverage<TypeParam, Kind::ThreadVector, 3>(n0, n1, n2);
    check_coverage<TypeParam, Kind::TeamVector, 3>(n0, n1, n2);
  }
}

TYPED_TEST(TeamNestedMD, AZeroOrNegativeExtentIsEmpty) {
  using Member = MemberOf<TypeParam>;
  auto d_calls = filled_view<TypeParam>(1, 0);
  int* c = d_calls.data();
  Kokkos::parallel_for(Kokkos::TeamPolicy<TypeParam>(2, Kokkos::AUTO), KOKKOS_LAMBDA(const Member& m) {
    Kokkos::parallel_for(Kokkos::TeamThreadMDRange(m, 5, 0), [&](int, int) { Kokkos::atomic_add(c, 1); });
    Kokkos::parallel_for(Kokkos::ThreadVectorMDRange(m, 0, 5, 5), [&](int, int, int) { Kokkos::atomic_add(c, 1); });
    Kokkos::parallel_for(Kokkos::TeamVectorMDRange(m, -3, 4), [&](int, int) { Kokkos::atomic_add(c, 1); });
    int sum = 7;
    Kokkos::parallel_reduce(Kokkos::TeamThreadMDRange(m, 3, -1), [&](int, int, int& s) { s += 1; }, sum);
    if (sum != 0) Kokkos::atomic_add(c, 100);
  });
  EXPECT_EQ(to_vector(d_calls)[0], 0);
}

// Sums of i + 10 j + 100 k and maxima of the same over rank-3 ranges: team-wide on every member
// for TeamThread and TeamVector, the thread's own for ThreadVector.
TYPED_TEST(TeamNestedMD, ScalarAndReducerResultsOnEveryMember) {
  using Space = TypeParam;
  using Member = MemberOf<Space>;
  const int league = 4, n0 = 5, n1 = 3, n2 = 6;
  Kokkos::TeamPolicy<Space> policy(league, Kokkos::AUTO);
  const int team = policy.team_size();
  auto d_out = filled_view<Space>(std::size_t(league) * team * 6, -1L);
  long* out = d_out.data();
  Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const Member& m) {
    const auto value = [](int i, int j, int k) { return long(i + 10 * j + 100 * k); };
    long* mine = out + (std::size_t(m.league_rank()) * m.team_size() + m.team_rank()) * 6;
    const auto sum_and_max = [&](const auto& range, long* results) {
      long sum = 0, max = 0;
      Kokkos::parallel_reduce(range, [&](int i, int j, int k, long& s) { s += value(i, j, k); }, sum);
      Kokkos::parallel_reduce(
          range, [&](int i, int j, int k, long& x) { x = value(i, j, k) > x ? value(i, j, k) : x; },
          Kokkos::Max<long>(max));
      results[0] = sum;
      results[1] = max;
    };
    sum_and_max(Kokkos::TeamThreadMDRange(m, n0, n1, n2), mine);
    sum_and_max(Kokkos::ThreadVectorMDRange(m, n0, n1, n2), mine + 2);
    sum_and_max(Kokkos::TeamVectorMDRange(m, n0, n1, n2), mine + 4);
  });
  long expected_sum = 0;
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j)
      for (int k = 0; k < n2; ++k) expected_sum += i + 10 * j + 100 * k;
  const long expected_max = (n0 - 1) + 10 * (n1 - 1) + 100 * (n2 - 1);
  const auto o = to_vector(d_out);
  for (std::size_t member = 0; member < std::size_t(league) * team; ++member) {
    for (int r = 0; r < 6; ++r) {
      EXPECT_EQ(o[member * 6 + r], r % 2 == 0 ? expected_sum : expected_max) << "member " << member << " result " << r;
    }
  }
}

// On the host a thread runs its vector lanes in order, so the order of a ThreadVectorMDRange's
// tuples shows the direction: Right varies the last index fastest, Left the first.
template <class Space>
struct TeamNestedMDHost : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TeamNestedMDHost, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(TeamNestedMDHost, TuplesFollowTheOuterDirection) {
  using Member = MemberOf<TypeParam>;
  const int n0 = 3, n1 = 4;
  std::vector<int> right(n0 * n1, -1), left(n0 * n1, -1), by_default(n0 * n1, -1);
  Kokkos::parallel_for(Kokkos::TeamPolicy<TypeParam>(1, 1), [&](const Member& m) {
    int step = 0;
    Kokkos::parallel_for(Kokkos::ThreadVectorMDRange<Kokkos::Rank<2, Kokkos::Iterate::Right>, Member>(m, n0, n1),
                         [&](int i, int j) { right[i * n1 + j] = step++; });
    step = 0;
    Kokkos::parallel_for(Kokkos::ThreadVectorMDRange<Kokkos::Rank<2, Kokkos::Iterate::Left>, Member>(m, n0, n1),
                         [&](int i, int j) { left[i * n1 + j] = step++; });
    step = 0;
    Kokkos::parallel_for(Kokkos::ThreadVectorMDRange(m, n0, n1), [&](int i, int j) { by_default[i * n1 + j] = step++; });
  });
  for (int i = 0; i < n0; ++i) {
    for (int j = 0; j < n1; ++j) {
      EXPECT_EQ(right[i * n1 + j], i * n1 + j) << i << "," << j;
      EXPECT_EQ(left[i * n1 + j], j * n0 + i) << i << "," << j;
      EXPECT_EQ(by_default[i * n1 + j], i * n1 + j) << i << "," << j;
    }
  }
}

}  // namespace

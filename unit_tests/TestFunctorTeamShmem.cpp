// A functor's own team scratch declaration (team_shmem_size, or the older shmem_size) is added to
// the level-0 arena of TeamPolicy launches, so team.team_shmem() hands it out.
#include "TestCommon.hpp"

namespace {

template <class Space>
using ScratchView = Kokkos::View<long*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

// Each team copies its row into scratch, then every member sums it; row r holds r*width + j.
template <class Space>
struct RowSums {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  int width;
  Kokkos::View<long*, Kokkos::HostSpace> sums;
  Kokkos::View<int, Kokkos::HostSpace> failures;

  std::size_t team_shmem_size(int /*team_size*/) const { return ScratchView<Space>::shmem_size(width); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    ScratchView<Space> row(team.team_shmem(), width);
    if (row.data() == nullptr) {
      Kokkos::atomic_add(&failures(), 1);
      return;
    }
    const long r = team.league_rank();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, width), [&](int j) { row(j) = r * width + j; });
    team.team_barrier();
    long s = 0;
    Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, width), [&](int j, long& acc) { acc += row(j); }, s);
    if (team.team_rank() == 0) sums(r) = s;
  }
};

// The Kokkos 3 spelling, used by a parallel_reduce, on top of a policy's own level-0 request.
template <class Space>
struct OldSpellingReduce {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  int n;
  std::size_t shmem_size(int team_size) const { return ScratchView<Space>::shmem_size(n) * std::size_t(team_size); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team, long& total) const {
    // The policy's PerTeam request and the functor's come from the same arena.
    ScratchView<Space> policy_part(team.team_shmem(), 16);
    ScratchView<Space> functor_part(team.team_shmem(), n * team.team_size());
    if (policy_part.data() == nullptr || functor_part.data() == nullptr) {
      total -= 1000000;
      return;
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      for (int j = 0; j < n * team.team_size(); ++j) functor_part(j) = 1;
      for (int j = 0; j < 16; ++j) policy_part(j) = 2;
    });
    team.team_barrier();
    long s = 0;
    for (int j = 0; j < n * team.team_size(); ++j) s += functor_part(j);
    for (int j = 0; j < 16; ++j) s += policy_part(j);
    if (team.team_rank() == 0) total += s;
  }
};

template <class Space>
struct FunctorTeamShmem : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(FunctorTeamShmem, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(FunctorTeamShmem, TeamShmemSizeIsHonouredByParallelFor) {
  using Space = TypeParam;
  constexpr int league = 40, width = 300;
  RowSums<Space> f{width, Kokkos::View<long*, Kokkos::HostSpace>("sums", league),
                   Kokkos::View<int, Kokkos::HostSpace>("failures")};
  EXPECT_EQ(Kokkos::Impl::functor_team_shmem_size(f, 1), ScratchView<Space>::shmem_size(width));
  Kokkos::parallel_for(Kokkos::TeamPolicy<Space>(league, Kokkos::AUTO), f);
  EXPECT_EQ(f.failures(), 0);
  for (int r = 0; r < league; ++r) {
    EXPECT_EQ(f.sums(r), long(r) * width * width + long(width) * (width - 1) / 2) << "row " << r;
  }
}

TYPED_TEST(FunctorTeamShmem, ShmemSizeIsHonouredByParallelReduce) {
  using Space = TypeParam;
  constexpr int league = 12, n = 50;
  Kokkos::TeamPolicy<Space> policy(league, 1);
  policy.set_scratch_size(0, Kokkos::PerTeam(ScratchView<Space>::shmem_size(16)));
  long total = 0;
  Kokkos::parallel_reduce(policy, OldSpellingReduce<Space>{n}, total);
  EXPECT_EQ(total, long(league) * (n + 32));
}

TYPED_TEST(FunctorTeamShmem, TooMuchScratchIsRefused) {
  using Space = TypeParam;
  struct Greedy {
    std::size_t team_shmem_size(int) const { return Kokkos::TeamPolicy<Space>::scratch_size_max(0) + 1; }
    KOKKOS_INLINE_FUNCTION void operator()(const typename Kokkos::TeamPolicy<Space>::member_type&) const {}
  };
  EXPECT_THROW(Kokkos::parallel_for(Kokkos::TeamPolicy<Space>(2, 1), Greedy{}), std::runtime_error);
  struct Plain {
    KOKKOS_INLINE_FUNCTION void operator()(int) const {}
  };
  EXPECT_EQ(Kokkos::Impl::functor_team_shmem_size(Plain{}, 4), 0u);
}

}  // namespace

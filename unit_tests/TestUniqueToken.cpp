// UniqueToken (Instance and Global scope), AcquireUniqueToken and AcquireTeamUniqueToken: no two
// holders ever share a token, under launches on every back end (device threads on Cuda),
// oversubscribed host threads and both together.
#include "TestCommon.hpp"

#include <atomic>
#include <thread>
#include <vector>

namespace {

using Kokkos::Experimental::AcquireTeamUniqueToken;
using Kokkos::Experimental::AcquireUniqueToken;
using Kokkos::Experimental::UniqueToken;
using Kokkos::Experimental::UniqueTokenScope;

// Counts holders per token: a token held twice at once shows up as a count above one.  Its
// Views are in MemorySpace, the memory the launch's threads use.
template <class MemorySpace = Kokkos::HostSpace>
struct Occupancy {
  Kokkos::View<int*, MemorySpace> holders;
  Kokkos::View<int, MemorySpace> clashes;
  Kokkos::View<long, MemorySpace> uses;
  explicit Occupancy(int size) : holders("holders", size), clashes("clashes"), uses("uses") {}

  KOKKOS_INLINE_FUNCTION void hold(int token) const {
    if (Kokkos::atomic_fetch_add(&holders(token), 1) != 0) Kokkos::atomic_add(&clashes(), 1);
    Kokkos::atomic_add(&uses(), 1L);
    // Give another holder time to collide (a yield lets an oversubscribed thread in), then leave.
    for (int spin = 0; spin < 32; ++spin) {
      if (Kokkos::atomic_load(&holders(token)) != 1) Kokkos::atomic_add(&clashes(), 1);
      if (spin == 16) KOKKOS_IF_ON_HOST((std::this_thread::yield();))
    }
    Kokkos::atomic_fetch_sub(&holders(token), 1);
  }
  int clash_count() const { return Kokkos::Test::to_host(clashes)(); }
  long use_count() const { return Kokkos::Test::to_host(uses)(); }
};

// An instance's concurrency: host back ends report it through a static member taking the
// instance, Cuda through the instance.
template <class Space>
int concurrency_of(const Space& space) {
  if constexpr (Kokkos::Impl::is_host_backend<Space>::value) {
    return Space::concurrency(space);
  } else {
    return space.concurrency();
  }
}

// The tests whose launches run on every back end (Kokkos::Cuda included: device threads acquire
// and release there, and the counts come back through mirrors).
template <class Space>
struct UniqueTokenTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(UniqueTokenTest, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

// The tests that acquire from host threads: host back ends only (a Cuda token lives in device
// memory and is acquired by device threads).
template <class Space>
struct UniqueTokenHostTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(UniqueTokenHostTest, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(UniqueTokenTest, SizesFollowKokkos) {
  using Space = TypeParam;
  UniqueToken<Space> instance;
  // On Cuda: the device's resident threads (multiprocessors times threads per multiprocessor).
  EXPECT_EQ(int(instance.size()), concurrency_of(Space()));
  UniqueToken<Space> sized(37);
  EXPECT_EQ(sized.size(), 37u);
  UniqueToken<Space, UniqueTokenScope::Global> global;
  EXPECT_EQ(int(global.size()), Space::impl_max_hardware_threads());
  EXPECT_THROW(UniqueToken<Space>(0), std::runtime_error);
  auto parts = Kokkos::Experimental::partition_space(Space(), 1, 1);
  UniqueToken<Space> of_part(parts[0]);
  EXPECT_EQ(int(of_part.size()), concurrency_of(parts[0]));
  EXPECT_EQ(instance.impl_held(), 0);
  EXPECT_EQ(global.impl_held(), 0);
}

TYPED_TEST(UniqueTokenHostTest, AcquireGivesEveryTokenOnceThenReleaseReturnsIt) {
  UniqueToken<TypeParam> token(70);  // three words, the last one partial
  std::vector<int> seen(70, 0);
  std::vector<typename UniqueToken<TypeParam>::size_type> held;
  for (int i = 0; i < 70; ++i) {
    const auto t = token.acquire();
    ASSERT_LT(t, 70u);
    ++seen[t];
    held.push_back(t);
  }
  for (int s : seen) EXPECT_EQ(s, 1);
  EXPECT_EQ(token.impl_held(), 70);
  token.release(held[5]);
  EXPECT_EQ(token.acquire(), held[5]);  // the only free one
  for (auto t : held) token.release(t);
  EXPECT_EQ(token.impl_held(), 0);
  // Copies share the tokens (a functor's copy is the same token set).
  UniqueToken<TypeParam> copy = token;
  const auto a = token.acquire();
  EXPECT_EQ(copy.impl_held(), 1);
  copy.release(a);
  EXPECT_EQ(token.impl_held(), 0);
}

// n iterations each hold a token (half through AcquireUniqueToken, half through acquire() and
// release()) while counting its holders.
template <class Space, UniqueTokenScope Scope>
void check_holders(const UniqueToken<Space, Scope>& token, int n) {
  using memory_space = typename Space::memory_space;
  Occupancy<memory_space> occ(int(token.size()));
  Kokkos::View<int, memory_space> out_of_range("out of range");
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
    if (i % 2 == 0) {
      AcquireUniqueToken<Space, Scope> lock(token);
      if (lock.value() >= token.size()) Kokkos::atomic_add(&out_of_range(), 1);
      else occ.hold(int(lock.value()));
    } else {
      const auto t = token.acquire();
      if (t >= token.size()) Kokkos::atomic_add(&out_of_range(), 1);
      else occ.hold(int(t));
      token.release(t);
    }
  });
  EXPECT_EQ(Kokkos::Test::to_host(out_of_range)(), 0);
  EXPECT_EQ(occ.clash_count(), 0);
  EXPECT_EQ(occ.use_count(), n);
  EXPECT_EQ(token.impl_held(), 0);
}

TYPED_TEST(UniqueTokenTest, AcquireInParallelForNeverSharesAToken) {
  using Space = TypeParam;
  UniqueToken<Space> resident;
  // Four times as many iterations as tokens: on a GPU, every resident thread holds one at once.
  check_holders(resident, 4 * int(resident.size()) + 20000);
  check_holders(UniqueToken<Space>(37), 20000);  // far more holders than tokens: they wait
  check_holders(UniqueToken<Space>(1), 3000);
  UniqueToken<Space, UniqueTokenScope::Global> global;
  check_holders(global, 3 * int(global.size()) + 17);
}

// Per-token private histograms, summed: the canonical use.
TYPED_TEST(UniqueTokenTest, PrivateCopiesIndexedByGlobalToken) {
  using Space = TypeParam;
  UniqueToken<Space, UniqueTokenScope::Global> token;
  constexpr int bins = 8, n = 50000;
  Kokkos::View<long**, typename Space::memory_space> copies("copies", token.size(), bins);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
    const auto t = token.acquire();
    copies(t, i % bins) += 1;  // no atomic: the token is ours alone
    token.release(t);
  });
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), copies);
  for (int b = 0; b < bins; ++b) {
    long total = 0;
    for (std::size_t t = 0; t < h.extent(0); ++t) total += h(t, b);
    EXPECT_EQ(total, n / bins) << "bin " << b;
  }
  EXPECT_EQ(token.impl_held(), 0);
}

TYPED_TEST(UniqueTokenTest, TeamToken) {
  using Space = TypeParam;
  using Policy = Kokkos::TeamPolicy<Space>;
  constexpr int league = 64;
  UniqueToken<Space> token(3);  // fewer tokens than teams could want
  Occupancy<typename Space::memory_space> occ(3);
  Kokkos::View<int, typename Space::memory_space> disagreements("disagreements");
  Policy policy(league, Kokkos::AUTO);
  policy.set_scratch_size(0, Kokkos::PerTeam(AcquireTeamUniqueToken<Policy>::shmem_size()));
  Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const typename Policy::member_type& team) {
    AcquireTeamUniqueToken<Policy> lock(token, team);
    const int mine = int(lock.value());
    int leader = mine;
    team.team_broadcast(leader, 0);
    if (leader != mine) Kokkos::atomic_add(&disagreements(), 1);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { occ.hold(mine); });
  });
  EXPECT_EQ(Kokkos::Test::to_host(disagreements)(), 0);
  EXPECT_EQ(occ.clash_count(), 0);
  EXPECT_EQ(occ.use_count(), league);
  EXPECT_EQ(token.impl_held(), 0);
}

// Oversubscribed: many more host threads than tokens, each acquiring and releasing in a loop,
// some through launches and some directly.  Every acquisition must find its token unshared.
template <class Token>
void stress_host_threads(const Token& token, int threads, int rounds) {
  Occupancy<> occ(int(token.size()));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int r = 0; r < rounds; ++r) {
        const auto v = token.acquire();
        occ.hold(int(v));
        token.release(v);
        if ((r + t) % 7 == 0) std::this_thread::yield();
      }
    });
  }
  for (auto& th : pool) th.join();
  EXPECT_EQ(occ.clash_count(), 0);
  EXPECT_EQ(occ.use_count(), long(threads) * rounds);
  EXPECT_EQ(token.impl_held(), 0);
}

TYPED_TEST(UniqueTokenHostTest, StressOversubscribedHostThreads) {
  using Space = TypeParam;
  stress_host_threads(UniqueToken<Space>(3), 16, 2000);
  stress_host_threads(UniqueToken<Space>(40), 12, 2000);
  stress_host_threads(UniqueToken<Space, UniqueTokenScope::Global>(), 9, 2000);
}

TYPED_TEST(UniqueTokenHostTest, StressLaunchesFromManyHostThreads) {
  using Space = TypeParam;
  UniqueToken<Space> token(4);
  Occupancy<> occ(4);
  constexpr int threads = 6, n = 3000;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int) {
        AcquireUniqueToken<Space> lock(token);
        occ.hold(int(lock.value()));
      });
    });
  }
  for (auto& th : pool) th.join();
  EXPECT_EQ(occ.clash_count(), 0);
  EXPECT_EQ(occ.use_count(), long(threads) * n);
  EXPECT_EQ(token.impl_held(), 0);
}

}  // namespace

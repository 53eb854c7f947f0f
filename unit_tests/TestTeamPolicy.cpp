// TeamPolicy construction and bad input, parallel_for/parallel_reduce over teams, and the team
// member's collectives (barrier, broadcast, reduce, scan): launches on every back end (Cuda
// included, counters in the space's memory read back through host mirrors), and what only the
// host back ends have on those.
#include "TestCommon.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

template <class Space>
struct TeamPolicyTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TeamPolicyTest, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

// What only the host back ends have: their team member type and limits, a random-number engine
// inside a kernel, a launch from inside a team functor.
template <class Space>
struct TeamPolicyHostTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TeamPolicyHostTest, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

using Kokkos::Test::filled_view;
using Kokkos::Test::to_vector;


// Skips a test needing `team_size` threads per team when the back end has fewer.
#define SKIP_UNLESS_TEAM_SIZE(Space, team_size)                                                             \
  if (Space().concurrency() < (team_size)) {                                                                \
    GTEST_SKIP() << Space::name() << " has concurrency " << Space().concurrency() << " < team size " \
                 << (team_size);                                                                            \
  }

template <class F>
std::string thrown_message(const F& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "<nothing thrown>";
}

// ---- construction --------------------------------------------------------------------------

TYPED_TEST(TeamPolicyHostTest, ConstructorsAndAccessors) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  static_assert(Kokkos::is_execution_policy_v<Policy>);
  static_assert(std::is_same_v<typename Policy::execution_space, TypeParam>);
  static_assert(std::is_same_v<typename Policy::member_type, Kokkos::Impl::HostThreadTeamMember<TypeParam>>);
  static_assert(Kokkos::is_team_handle_v<typename Policy::member_type>);
  static_assert(!Kokkos::is_team_handle_v<int>);

  Policy p(7, 1);
  EXPECT_EQ(p.league_size(), 7);
  EXPECT_EQ(p.team_size(), 1);
  EXPECT_EQ(p.vector_length(), 1);
  EXPECT_GT(p.chunk_size(), 0);
  EXPECT_EQ(p.scratch_size(0), 0u);
  EXPECT_EQ(p.scratch_size(1), 0u);
  EXPECT_FALSE(p.impl_auto_team_size());

  Policy with_space(TypeParam(), 3, 1, 4);
  EXPECT_EQ(with_space.league_size(), 3);
  EXPECT_EQ(with_space.vector_length(), 1) << "host vector lanes are sequential";
  EXPECT_EQ(with_space.impl_requested_vector_length(), 4);

  const int max = p.team_size_max([](const typename Policy::member_type&) {}, Kokkos::ParallelForTag());
  EXPECT_EQ(max, TypeParam().concurrency());
  const int rec = p.team_size_recommended([](const typename Policy::member_type&) {}, Kokkos::ParallelForTag());
  EXPECT_GE(rec, 1);
  EXPECT_LE(rec, max);
  EXPECT_EQ(p.team_size_max([](const typename Policy::member_type&, double&) {}, Kokkos::ParallelReduceTag()), max);

  Policy a(5, Kokkos::AUTO);
  EXPECT_TRUE(a.impl_auto_team_size());
  EXPECT_EQ(a.team_size(), rec);
  Policy aa(TypeParam(), 5, Kokkos::AUTO, Kokkos::AUTO);
  EXPECT_EQ(aa.team_size(), rec);
  EXPECT_TRUE(aa.impl_auto_vector_length());
  Policy av(5, 1, Kokkos::AUTO);
  EXPECT_EQ(av.team_size(), 1);
  EXPECT_EQ(av.vector_length(), 1);

  p.set_chunk_size(16);
  EXPECT_EQ(p.chunk_size(), 16);
  p.set_scratch_size(0, Kokkos::PerTeam(100));
  p.set_scratch_size(1, Kokkos::PerThread(8), Kokkos::PerTeam(24));
  EXPECT_EQ(p.team_scratch_size(0), 100u);
  EXPECT_EQ(p.thread_scratch_size(0), 0u);
  EXPECT_EQ(p.team_scratch_size(1), 24u);
  EXPECT_EQ(p.thread_scratch_size(1), 8u);
  EXPECT_EQ(p.scratch_size(1), 24u + 8u);
  EXPECT_EQ(p.scratch_size(1, 4), 24u + 4 * 8u);
  p.set_scratch_size(0, Kokkos::PerThread(10));  // keeps the team part of level 0
  EXPECT_EQ(p.scratch_size(0, 3), 100u + 30u);

  // Conversion keeps everything but the properties.
  struct Tag {};
  Kokkos::TeamPolicy<TypeParam, Tag, Kokkos::Schedule<Kokkos::Dynamic>> converted = p;
  EXPECT_EQ(converted.league_size(), 7);
  EXPECT_EQ(converted.chunk_size(), 16);
  EXPECT_EQ(converted.scratch_size(1, 4), 24u + 4 * 8u);
}

TYPED_TEST(TeamPolicyHostTest, BadInputThrows) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  const int max = TypeParam().concurrency();
  EXPECT_NE(thrown_message([] { Policy(-1, 1); }).find("league size -1 is negative"), std::string::npos);
  EXPECT_NE(thrown_message([] { Policy(4, 0); }).find("team size 0 is less than 1"), std::string::npos);
  EXPECT_NE(thrown_message([] { Policy(4, -3); }).find("team size -3 is less than 1"), std::string::npos);
  const std::string too_big = thrown_message([&] { Policy(4, max + 1); });
  EXPECT_NE(too_big.find("team size " + std::to_string(max + 1) + " exceeds team_size_max " + std::to_string(max)),
            std::string::npos)
      << too_big;
  EXPECT_NE(thrown_message([] { Policy(4, 1, 3); }).find("vector length 3 is not a power of two"), std::string::npos);
  EXPECT_NE(thrown_message([] { Policy(4, 1, 0); }).find("vector length 0 is not a power of two"), std::string::npos);
  EXPECT_NE(thrown_message([] { Policy(4, Kokkos::AUTO, 6); }).find("vector length 6"), std::string::npos);
  EXPECT_NO_THROW(Policy(4, 1, 1024));

  Policy p(4, 1);
  const std::size_t max0 = Policy::scratch_size_max(0);
  EXPECT_EQ(max0, std::size_t(1) << 20);
  EXPECT_NO_THROW(p.set_scratch_size(0, Kokkos::PerTeam(max0)));
  const std::string over = thrown_message([&] { p.set_scratch_size(0, Kokkos::PerTeam(max0 + 1)); });
  EXPECT_NE(over.find("exceeds scratch_size_max(0) = " + std::to_string(max0)), std::string::npos) << over;
  EXPECT_NE(thrown_message([&] { p.set_scratch_size(0, Kokkos::PerTeam(max0 / 2), Kokkos::PerThread(max0)); })
                .find("exceeds scratch_size_max(0)"),
            std::string::npos);
  EXPECT_NE(thrown_message([&] { p.set_scratch_size(1, Kokkos::PerThread(~std::size_t(0))); })
                .find("exceeds scratch_size_max(1)"),
            std::string::npos);
  EXPECT_NE(thrown_message([&] { p.set_scratch_size(2, Kokkos::PerTeam(8)); }).find("scratch level 2 is not 0 or 1"),
            std::string::npos);
  EXPECT_EQ(p.scratch_size(0), max0) << "a rejected request leaves the policy unchanged";
  EXPECT_NE(thrown_message([&] { p.set_chunk_size(-2); }).find("chunk size -2 is negative"), std::string::npos);
}

// ---- each (league_rank, team_rank) exactly once ---------------------------------------------

template <class Space, class Schedule>
void check_visits(int league_size, int team_size, bool use_auto) {
  using Policy = Kokkos::TeamPolicy<Space, Schedule>;
  using Member = typename Policy::member_type;
  Policy policy = use_auto ? Policy(league_size, Kokkos::AUTO) : Policy(league_size, team_size);
  const int ts = policy.team_size();
  auto d_hits = filled_view<Space>(static_cast<std::size_t>(league_size) * ts + 1, 0);
  auto d_bad = filled_view<Space>(1, 0);
  int* h = d_hits.data();
  int* b = d_bad.data();
  Kokkos::parallel_for("visit", policy, KOKKOS_LAMBDA(const Member& m) {
    if (m.league_size() != league_size || m.team_size() != ts || m.team_rank() < 0 || m.team_rank() >= ts ||
        m.league_rank() < 0 || m.league_rank() >= league_size) {
      Kokkos::atomic_add(b, 1);
      return;
    }
    Kokkos::atomic_add(&h[m.league_rank() * ts + m.team_rank()], 1);
  });
  EXPECT_EQ(to_vector(d_bad)[0], 0);
  const auto hits = to_vector(d_hits);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    ASSERT_EQ(hits[i], i + 1 < hits.size() ? 1 : 0)
        << "league " << league_size << " team " << ts << ": (league, team) = (" << i / ts << ", " << i % ts << ")";
  }
}

TYPED_TEST(TeamPolicyTest, VisitsEachMemberOnceTeamSize1) {
  for (int league : {0, 1, 7, 1000}) {
    check_visits<TypeParam, Kokkos::Schedule<Kokkos::Static>>(league, 1, false);
    check_visits<TypeParam, Kokkos::Schedule<Kokkos::Dynamic>>(league, 1, false);
  }
}

TYPED_TEST(TeamPolicyTest, VisitsEachMemberOnceTeamSize2) {
  SKIP_UNLESS_TEAM_SIZE(TypeParam, 2);
  for (int league : {0, 1, 7, 1000}) {
    check_visits<TypeParam, Kokkos::Schedule<Kokkos::Static>>(league, 2, false);
    check_visits<TypeParam, Kokkos::Schedule<Kokkos::Dynamic>>(league, 2, false);
  }
}

TYPED_TEST(TeamPolicyTest, VisitsEachMemberOnceAuto) {
  for (int league : {0, 1, 7, 1000}) {
    check_visits<TypeParam, Kokkos::Schedule<Kokkos::Static>>(league, 0, true);
    check_visits<TypeParam, Kokkos::Schedule<Kokkos::Dynamic>>(league, 0, true);
  }
}

TYPED_TEST(TeamPolicyTest, DynamicChunkSizes) {
  using Policy = Kokkos::TeamPolicy<TypeParam, Kokkos::Schedule<Kokkos::Dynamic>>;
  for (int chunk : {1, 3, 64, 5000}) {
    auto d_hits = filled_view<TypeParam>(997, 0);
    int* h = d_hits.data();
    Kokkos::parallel_for(Policy(997, 1).set_chunk_size(chunk), KOKKOS_LAMBDA(const typename Policy::member_type& m) {
      Kokkos::atomic_add(&h[m.league_rank()], 1);
    });
    const auto hits = to_vector(d_hits);
    EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), 997) << "chunk " << chunk;
  }
}

struct TagA {};
struct TagB {};
template <class Member>
struct TaggedTeamFunctor {
  int* out;
  KOKKOS_INLINE_FUNCTION void operator()(TagA, const Member& m) const {
    if (m.team_rank() == 0) out[m.league_rank()] = 1;
  }
  KOKKOS_INLINE_FUNCTION void operator()(TagB, const Member& m) const {
    if (m.team_rank() == 0) out[m.league_rank()] = 2;
  }
  KOKKOS_INLINE_FUNCTION void operator()(TagA, const Member& m, long& sum) const { sum += m.league_rank(); }
};

TYPED_TEST(TeamPolicyTest, WorkTags) {
  using PA = Kokkos::TeamPolicy<TypeParam, TagA>;
  using PB = Kokkos::TeamPolicy<TagB, TypeParam, Kokkos::Schedule<Kokkos::Dynamic>>;
  static_assert(std::is_same_v<typename PA::member_type, typename PB::member_type>);
  auto d_v = filled_view<TypeParam>(20, 0);
  TaggedTeamFunctor<typename PA::member_type> f{d_v.data()};
  Kokkos::parallel_for(PA(10, 1), f);
  Kokkos::parallel_for("tagged", PB(20, 1), f);
  const auto v = to_vector(d_v);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(v[i], 2);
  Kokkos::parallel_for(PA(10, 1), f);
  const auto w = to_vector(d_v);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(w[i], i < 10 ? 1 : 2);
  long sum = -1;
  Kokkos::parallel_reduce(PA(100, 1), f, sum);
  EXPECT_EQ(sum, 99L * 100 / 2);
}

// ---- parallel_reduce over teams ------------------------------------------------------------

TYPED_TEST(TeamPolicyTest, ReduceIntoScalarAndReducer) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  using Member = typename Policy::member_type;
  const int max_team = std::min(2, TypeParam().concurrency());
  for (int ts = 1; ts <= max_team; ++ts) {
    for (int league : {0, 1, 7, 1000}) {
      // Every member contributes, as in Kokkos: team_size copies of each league rank.
      long sum = -1;
      Kokkos::parallel_reduce("sum", Policy(league, ts), KOKKOS_LAMBDA(const Member& m, long& acc) {
        acc += m.league_rank() + 1;
      }, sum);
      EXPECT_EQ(sum, static_cast<long>(ts) * league * (league + 1) / 2) << "league " << league << " team " << ts;

      int mx = 0;
      Kokkos::parallel_reduce(Policy(league, ts), KOKKOS_LAMBDA(const Member& m, int& acc) {
        const int v = (m.league_rank() * 7919 + m.team_rank() * 13) % 1009;
        if (v > acc) acc = v;
      }, Kokkos::Max<int>(mx));
      int expect = std::numeric_limits<int>::lowest();
      for (int l = 0; l < league; ++l)
        for (int r = 0; r < ts; ++r) expect = std::max(expect, (l * 7919 + r * 13) % 1009);
      EXPECT_EQ(mx, expect);

      using MinLoc = Kokkos::MinLoc<double, int>;
      typename MinLoc::value_type loc;
      Kokkos::parallel_reduce(Policy(league, ts), KOKKOS_LAMBDA(const Member& m, typename MinLoc::value_type& acc) {
        const double v = (m.league_rank() - 300) * (m.league_rank() - 300) + 0.5;
        if (v < acc.val || (v == acc.val && m.league_rank() < acc.loc)) {
          acc.val = v;
          acc.loc = m.league_rank();
        }
      }, MinLoc(loc));
      if (league > 0) {
        const int best = std::min(300, league - 1);
        EXPECT_EQ(loc.loc, best);
        EXPECT_EQ(loc.val, (best - 300.0) * (best - 300.0) + 0.5);
      } else {
        EXPECT_EQ(loc.val, Kokkos::reduction_identity<double>::min());
      }
    }
  }
}

// An array reduction (value_type T[] with value_count) over teams.
template <class Member>
struct ArrayTeamSum {
  using value_type = long[];
  int value_count = 3;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m, long* acc) const {
    acc[0] += 1;
    acc[1] += m.league_rank();
    acc[2] += m.team_rank();
  }
};

TYPED_TEST(TeamPolicyTest, ArrayReduction) {
  using Policy = Kokkos::TeamPolicy<TypeParam, Kokkos::Schedule<Kokkos::Dynamic>>;
  const int ts = std::min(2, TypeParam().concurrency());
  for (int league : {0, 1, 333}) {
    long result[3] = {-1, -1, -1};
    Kokkos::parallel_reduce(Policy(league, ts), ArrayTeamSum<typename Policy::member_type>{}, result);
    EXPECT_EQ(result[0], static_cast<long>(league) * ts);
    EXPECT_EQ(result[1], static_cast<long>(ts) * league * (league - 1) / 2);
    EXPECT_EQ(result[2], static_cast<long>(league) * ts * (ts - 1) / 2);
  }
}

// ---- collectives -----------------------------------------------------------------------------

// Each member writes before the barrier and reads every other member's write after it.
TYPED_TEST(TeamPolicyTest, BarrierOrdersWrites) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  using Member = typename Policy::member_type;
  for (int ts = 1; ts <= TypeParam().concurrency() && ts <= 4; ++ts) {
    const int league = 200;
    auto d_slots = filled_view<TypeParam>(static_cast<std::size_t>(league) * ts, -1);
    auto d_errors = filled_view<TypeParam>(1, 0);
    int* s = d_slots.data();
    int* err = d_errors.data();
    Kokkos::parallel_for(Policy(league, ts), KOKKOS_LAMBDA(const Member& m) {
      int* mine = s + m.league_rank() * m.team_size();
      for (int round = 0; round < 20; ++round) {
        mine[m.team_rank()] = round * 1000 + m.team_rank();
        m.team_barrier();
        for (int r = 0; r < m.team_size(); ++r)
          if (mine[r] != round * 1000 + r) Kokkos::atomic_add(err, 1);
        m.team_barrier();
      }
    });
    EXPECT_EQ(to_vector(d_errors)[0], 0) << "team size " << ts;
  }
}

TYPED_TEST(TeamPolicyTest, BroadcastReduceScan) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  using Member = typename Policy::member_type;
  for (int ts = 1; ts <= TypeParam().concurrency() && ts <= 4; ++ts) {
    const int league = 50;
    auto d_errors = filled_view<TypeParam>(1, 0);
    int* err = d_errors.data();
    auto d_global = filled_view<TypeParam>(1, 0L);
    long* g = d_global.data();
    Kokkos::parallel_for(Policy(league, ts), KOKKOS_LAMBDA(const Member& m) {
      const int n = m.team_size();
      const int r = m.team_rank();
      const auto fail = [&] { Kokkos::atomic_add(err, 1); };
      for (int source = 0; source < n; ++source) {
        double value = r == source ? 10.0 * m.league_rank() + source : -1.0;
        m.team_broadcast(value, source);
        if (value != 10.0 * m.league_rank() + source) fail();
        int doubled = r == source ? source + 1 : -7;
        m.team_broadcast([](int& v) { v *= 2; }, doubled, source);
        if (doubled != 2 * (source + 1)) fail();
      }
      // Sum and max through reducers, and the plain-value sum.
      long sum = r + 1;
      m.team_reduce(Kokkos::Sum<long>(sum));
      if (sum != static_cast<long>(n) * (n + 1) / 2) fail();
      int mx = (r * 5 + m.league_rank()) % 7;
      m.team_reduce(Kokkos::Max<int>(mx));
      int expect_max = 0;
      for (int k = 0; k < n; ++k) expect_max = std::max(expect_max, (k * 5 + m.league_rank()) % 7);
      if (mx != expect_max) fail();
      int contributed = 0;
      m.team_reduce(Kokkos::Sum<int>(contributed), r * r);
      int expect_sq = 0;
      for (int k = 0; k < n; ++k) expect_sq += k * k;
      if (contributed != expect_sq) fail();
      if (m.team_reduce(2.5) != 2.5 * n) fail();
      // Exclusive scan in team-rank order, with and without a global accumulator.
      const int scanned = m.team_scan(r + 1);
      if (scanned != r * (r + 1) / 2) fail();
      const long base_and_prefix = m.team_scan(static_cast<long>(r + 1), g);
      if (base_and_prefix < r * (r + 1) / 2) fail();
    });
    EXPECT_EQ(to_vector(d_errors)[0], 0) << "team size " << ts;
    EXPECT_EQ(to_vector(d_global)[0], static_cast<long>(league) * ts * (ts + 1) / 2);
  }
}

// team_scan with a global accumulator gives each team a disjoint range: the scanned offsets of
// all members of all teams are a permutation of the exclusive prefix sums.
TYPED_TEST(TeamPolicyTest, TeamScanGlobalRanges) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  using Member = typename Policy::member_type;
  const int ts = std::min(2, TypeParam().concurrency());
  const int league = 300;
  auto d_owner = filled_view<TypeParam>(static_cast<std::size_t>(league) * ts * 3, 0);
  int* o = d_owner.data();
  auto d_total = filled_view<TypeParam>(1, 0);
  int* t = d_total.data();
  Kokkos::parallel_for(Policy(league, ts), KOKKOS_LAMBDA(const Member& m) {
    const int count = 1 + (m.league_rank() + m.team_rank()) % 3;
    const int offset = m.team_scan(count, t);
    for (int k = 0; k < count; ++k) Kokkos::atomic_add(&o[offset + k], 1);
  });
  const int n = to_vector(d_total)[0];
  const auto owner = to_vector(d_owner);
  EXPECT_GT(n, league * ts);
  for (int i = 0; i < n; ++i) ASSERT_EQ(owner[i], 1) << "slot " << i;
  for (std::size_t i = n; i < owner.size(); ++i) ASSERT_EQ(owner[i], 0);
}

// ---- stress: many launches, randomised work per thread between barriers -----------------------

TYPED_TEST(TeamPolicyHostTest, BarrierStress) {
  using Policy = Kokkos::TeamPolicy<TypeParam, Kokkos::Schedule<Kokkos::Dynamic>>;
  using Member = typename Policy::member_type;
  const int ts = TypeParam().concurrency();
  std::vector<long> cells(64 * 4, 0);
  long* c = cells.data();
  std::vector<int> errors(1, 0);
  int* err = errors.data();
  for (int launch = 0; launch < 300; ++launch) {
    const int league = 1 + launch % 9;
    // A host lambda (std::minstd_rand is host code): nvcc compiles a KOKKOS_LAMBDA for the device too.
    Kokkos::parallel_for(Policy(league, ts).set_chunk_size(1 + launch % 3), [=](const Member& m) {
      long* team_cells = c + (m.league_rank() % 64) * 4;
      std::minstd_rand rng(static_cast<unsigned>(launch * 131 + m.league_rank() * 17 + m.team_rank()));
      for (int phase = 0; phase < 8; ++phase) {
        // Random busy work, so members arrive at the barrier in random order.
        volatile long spin = 0;
        const int work = static_cast<int>(rng() % 200);
        for (int k = 0; k < work; ++k) spin = spin + k;
        if (m.team_rank() == phase % m.team_size()) team_cells[0] = phase * 10 + m.league_rank();
        m.team_barrier();
        if (team_cells[0] != phase * 10 + m.league_rank()) Kokkos::atomic_add(err, 1);
        m.team_barrier();
        long v = 1;
        m.team_reduce(Kokkos::Sum<long>(v));
        if (v != m.team_size()) Kokkos::atomic_add(err, 1);
      }
    });
  }
  EXPECT_EQ(errors[0], 0);
}

// A team launch from inside a team functor runs on the calling worker: a team of one.
TYPED_TEST(TeamPolicyHostTest, NestedLaunchRunsAsTeamOfOne) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  using Member = typename Policy::member_type;
  const int ts = TypeParam().concurrency();
  std::vector<int> inner(4 * 5, 0);
  std::vector<int> inner_team_size(1, 0);
  int* in = inner.data();
  int* its = inner_team_size.data();
  // Host lambdas: a launch is host code, and nvcc allows no extended lambda inside another.
  Kokkos::parallel_for(Policy(4, 1), [=](const Member& outer) {
    const int l = outer.league_rank();
    Kokkos::parallel_for(Policy(5, ts), [=](const Member& m) {
      if (m.team_rank() == 0) Kokkos::atomic_add(&in[l * 5 + m.league_rank()], 1);
      Kokkos::atomic_max(its, m.team_size());
      m.team_barrier();
    });
  });
  for (int i = 0; i < 20; ++i) EXPECT_EQ(inner[i], 1) << i;
  EXPECT_EQ(inner_team_size[0], 1);
}

// The team machinery without a TeamPolicy, as a task scheduler uses it: two threads form a team
// over their own storage.
TEST(HostTeam, StandaloneTeamOfTwo) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  using Member = Kokkos::Impl::HostThreadTeamMember<Space>;
  Kokkos::Impl::HostTeamStorage storage;
  storage.prepare({.teams = 1, .team_size = 2, .scratch_bytes_l0 = 64 * sizeof(int)});
  std::atomic<int> errors{0};
  std::vector<int> seen(64, 0);
  const auto work = [&](int rank) {
    const Member m(storage.team(0), rank, 2, 0, 1);
    for (int round = 0; round < 500; ++round) {
      long v = rank + round;
      m.team_reduce(Kokkos::Sum<long>(v));
      if (v != 1 + 2L * round) ++errors;
      int b = rank == 1 ? round : -1;
      m.team_broadcast(b, 1);
      if (b != round) ++errors;
      if (m.team_scan(1) != rank) ++errors;
    }
    int* shared = static_cast<int*>(m.team_scratch(0).get_shmem(64 * sizeof(int)));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 64), [&](int i) { shared[i] = i; });
    m.team_barrier();
    long sum = 0;
    Kokkos::parallel_reduce(Kokkos::TeamThreadRange(m, 64), [&](int i, long& acc) { acc += shared[i]; }, sum);
    if (sum != 63 * 64 / 2) ++errors;
    Kokkos::single(Kokkos::PerTeam(m), [&] { std::copy(shared, shared + 64, seen.begin()); });
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  EXPECT_EQ(errors.load(), 0);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(seen[i], i);

  // Storage is reused by the next prepare(): fresh barriers, the same memory when it fits.
  const std::size_t capacity = storage.capacity();
  storage.prepare({.teams = 1, .team_size = 2});
  EXPECT_EQ(storage.capacity(), capacity);
  EXPECT_EQ(storage.teams(), 1);
}

}  // namespace

// Nested parallelism inside team functors: TeamThreadRange, ThreadVectorRange and TeamVectorRange
// with parallel_for / parallel_reduce / parallel_scan, and single(PerTeam|PerThread), on every
// back end (Cuda included: the counters live in the space's memory and are read back through
// host mirrors) and for team sizes 1, 2 and AUTO.
#include "TestCommon.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

template <class Space>
struct TeamNested : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TeamNested, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

using Kokkos::Test::filled_view;
using Kokkos::Test::to_vector;


// The team sizes a back end can run: 1, 2 when it has two threads, and AUTO (size 0 here).
template <class Space>
std::vector<int> team_sizes() {
  std::vector<int> sizes{1, 0};
  if (Space().concurrency() >= 2) sizes.push_back(2);
  return sizes;
}
template <class Space>
Kokkos::TeamPolicy<Space> make_policy(int league, int team_size) {
  return team_size > 0 ? Kokkos::TeamPolicy<Space>(league, team_size) : Kokkos::TeamPolicy<Space>(league, Kokkos::AUTO);
}

enum class RangeKind { TeamThread, TeamVector };

// Counts into hits[league][i] for the requested range kind.
template <class Space, RangeKind Kind>
void check_team_range_for(int league, int ts, std::int64_t b, std::int64_t e) {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  const std::int64_t width = e > 0 ? e : 1;
  auto d_hits = filled_view<Space>(static_cast<std::size_t>(league * width), 0);
  int* h = d_hits.data();
  auto policy = make_policy<Space>(league, ts);
  Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const Member& m) {
    int* row = h + m.league_rank() * width;
    const auto body = [&](std::int64_t i) { Kokkos::atomic_add(&row[i], 1); };
    // Copied before the constexpr-if: nvcc's extended lambdas may not first capture inside one.
    const std::int64_t first = b, last = e;
    if constexpr (Kind == RangeKind::TeamThread) {
      if (first == 0)
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, last), body);
      else
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, first, last), body);
    } else {
      if (first == 0)
        Kokkos::parallel_for(Kokkos::TeamVectorRange(m, last), body);
      else
        Kokkos::parallel_for(Kokkos::TeamVectorRange(m, first, last), body);
    }
  });
  const auto hits = to_vector(d_hits);
  for (int l = 0; l < league; ++l)
    for (std::int64_t i = 0; i < width; ++i)
      ASSERT_EQ(hits[l * width + i], (i >= b && i < e) ? 1 : 0)
          << "league " << l << " index " << i << " of [" << b << "," << e << ") team size " << policy.team_size();
}

TYPED_TEST(TeamNested, TeamThreadAndTeamVectorRangeFor) {
  for (int ts : team_sizes<TypeParam>()) {
    for (std::int64_t n : {0, 1, 2, 7, 1000}) {
      check_team_range_for<TypeParam, RangeKind::TeamThread>(5, ts, 0, n);
      check_team_range_for<TypeParam, RangeKind::TeamVector>(5, ts, 0, n);
      check_team_range_for<TypeParam, RangeKind::TeamThread>(3, ts, n / 3, n);
      check_team_range_for<TypeParam, RangeKind::TeamVector>(3, ts, n / 3, n);
    }
  }
}

TYPED_TEST(TeamNested, ReversedBoundsAreEmpty) {
  using Member = typename Kokkos::TeamPolicy<TypeParam>::member_type;
  auto d_calls = filled_view<TypeParam>(1, 0);
  int* c = d_calls.data();
  Kokkos::parallel_for(Kokkos::TeamPolicy<TypeParam>(3, 1), KOKKOS_LAMBDA(const Member& m) {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 10, 4), [&](int) { Kokkos::atomic_add(c, 1); });
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, 10, 4), [&](int) { Kokkos::atomic_add(c, 1); });
    Kokkos::parallel_for(Kokkos::TeamVectorRange(m, 10u, 4u), [&](unsigned) { Kokkos::atomic_add(c, 1); });
  });
  EXPECT_EQ(to_vector(d_calls)[0], 0);
}

// Every thread of every team runs every index of a ThreadVectorRange, in order.
TYPED_TEST(TeamNested, ThreadVectorRangeFor) {
  using Member = typename Kokkos::TeamPolicy<TypeParam>::member_type;
  for (int ts : team_sizes<TypeParam>()) {
    auto policy = make_policy<TypeParam>(4, ts);
    const int t = policy.team_size();
    for (int n : {0, 1, 33}) {
      auto d_sums = filled_view<TypeParam>(static_cast<std::size_t>(4 * t), -1L);
      long* s = d_sums.data();
      Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const Member& m) {
        long acc = 0;
        int expect_next = 3;
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, 3, n + 3), [&](int i) {
          acc += i * (i == expect_next ? 1 : 1000000);
          ++expect_next;
        });
        s[m.league_rank() * m.team_size() + m.team_rank()] = acc;
      });
      long expect = 0;
      for (int i = 3; i < n + 3; ++i) expect += i;
      for (long v : to_vector(d_sums)) EXPECT_EQ(v, expect) << "n " << n << " team size " << t;
    }
  }
}

// A TeamThreadRange over rows with a ThreadVectorRange over columns covers the matrix once.
TYPED_TEST(TeamNested, TeamThreadWithThreadVectorCoversMatrix) {
  using Member = typename Kokkos::TeamPolicy<TypeParam>::member_type;
  for (int ts : team_sizes<TypeParam>()) {
    const int league = 6, rows = 13, cols = 5;
    auto d_hits = filled_view<TypeParam>(static_cast<std::size_t>(league * rows * cols), 0);
    int* h = d_hits.data();
    Kokkos::parallel_for(make_policy<TypeParam>(league, ts), KOKKOS_LAMBDA(const Member& m) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, rows), [&](int r) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, cols), [&](int c) {
          Kokkos::atomic_add(&h[(m.league_rank() * rows + r) * cols + c], 1);
        });
      });
    });
    const auto m_hits = to_vector(d_hits);
    EXPECT_EQ(std::count(m_hits.begin(), m_hits.end(), 1), league * rows * cols);
  }
}

// The range kind K over [0, n): 0 TeamThreadRange, 1 TeamVectorRange, 2 ThreadVectorRange.
template <int K, class Member>
KOKKOS_INLINE_FUNCTION auto make_range(const Member& m, int n) {
  if constexpr (K == 0)
    return Kokkos::TeamThreadRange(m, n);
  else if constexpr (K == 1)
    return Kokkos::TeamVectorRange(m, n);
  else
    return Kokkos::ThreadVectorRange(m, n);
}

// ---- reductions -------------------------------------------------------------------------------

// Reduces over [0, n) with the range kind K and checks the result on every member.
template <class Space, int K>
void check_team_reduce(int ts, int n) {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  using MinLoc = Kokkos::MinLoc<double, int>;
  const int league = 5;
  auto d_errors = filled_view<Space>(1, 0);
  int* err = d_errors.data();
  auto policy = make_policy<Space>(league, ts);
  Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const Member& m) {
    const auto range = make_range<K>(m, n);
    const auto fail = [&] { Kokkos::atomic_add(err, 1); };
    const long l = m.league_rank();

    long scalar = -99;
    Kokkos::parallel_reduce(range, [&](int i, long& acc) { acc += i + l; }, scalar);
    if (scalar != static_cast<long>(n) * (n - 1) / 2 + l * n) fail();

    double sum = -99;
    Kokkos::parallel_reduce(range, [&](int i, double& acc) { acc += 0.5 * i; }, Kokkos::Sum<double>(sum));
    if (sum != 0.25 * n * (n - 1)) fail();

    int mx = -99;
    Kokkos::parallel_reduce(range, [&](int i, int& acc) { acc = std::max(acc, (i * 37 + int(l)) % 101); },
                            Kokkos::Max<int>(mx));
    int expect_max = std::numeric_limits<int>::lowest();
    for (int i = 0; i < n; ++i) expect_max = std::max(expect_max, (i * 37 + int(l)) % 101);
    if (mx != expect_max) fail();

    typename MinLoc::value_type loc{};
    Kokkos::parallel_reduce(range, [&](int i, typename MinLoc::value_type& acc) {
      const double v = (i - 40) * (i - 40) + 1.0;
      if (v < acc.val) {
        acc.val = v;
        acc.loc = i;
      }
    }, MinLoc(loc));
    if (n > 0) {
      const int best = std::min(40, n - 1);
      if (loc.loc != best || loc.val != (best - 40) * (best - 40) + 1.0) fail();
    } else if (loc.val != Kokkos::reduction_identity<double>::min()) {
      fail();
    }
  });
  EXPECT_EQ(to_vector(d_errors)[0], 0) << "range kind " << K << " n " << n << " team size " << policy.team_size();
}

TYPED_TEST(TeamNested, Reductions) {
  for (int ts : team_sizes<TypeParam>()) {
    for (int n : {0, 1, 2, 7, 1000}) {
      check_team_reduce<TypeParam, 0>(ts, n);
      check_team_reduce<TypeParam, 1>(ts, n);
      check_team_reduce<TypeParam, 2>(ts, n);
    }
  }
}

// A reducer whose result lives in team scratch would race if every member wrote it during the
// reduction; the results are written only once the team has finished reading.
TYPED_TEST(TeamNested, ReduceResultsArePerMember) {
  using Member = typename Kokkos::TeamPolicy<TypeParam>::member_type;
  const int ts = std::min(2, TypeParam().concurrency());
  auto d_out = filled_view<TypeParam>(static_cast<std::size_t>(8 * ts), 0L);
  long* o = d_out.data();
  Kokkos::parallel_for(Kokkos::TeamPolicy<TypeParam>(8, ts), KOKKOS_LAMBDA(const Member& m) {
    long mine = 0;
    Kokkos::parallel_reduce(Kokkos::TeamThreadRange(m, 100), [&](int i, long& acc) { acc += i; }, mine);
    o[m.league_rank() * m.team_size() + m.team_rank()] = mine;
  });
  for (long v : to_vector(d_out)) EXPECT_EQ(v, 4950);
}

// ---- scans ------------------------------------------------------------------------------------

template <class Space, int K>
void check_team_scan(int ts, int n) {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  const int league = 4;
  const int width = n > 0 ? n : 1;
  auto d_exclusive = filled_view<Space>(static_cast<std::size_t>(league * width), -1L);
  auto d_inclusive = filled_view<Space>(static_cast<std::size_t>(league * width), -1L);
  auto d_totals = filled_view<Space>(static_cast<std::size_t>(league * 2), -1L);
  long* ex = d_exclusive.data();
  long* in = d_inclusive.data();
  long* tot = d_totals.data();
  auto d_errors = filled_view<Space>(1, 0);
  int* err = d_errors.data();
  auto policy = make_policy<Space>(league, ts);
  Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const Member& m) {
    const auto range = make_range<K>(m, n);
    const long l = m.league_rank();
    long* ex_row = ex + l * width;
    long* in_row = in + l * width;
    // Every thread runs a whole ThreadVectorRange: one of them records it.
    const bool record = K != 2 || m.team_rank() == 0;
    // The value type is deduced from the closure (no result argument).
    Kokkos::parallel_scan(range, [&](int i, long& partial, bool final) {
      if (final && record) ex_row[i] = partial;
      partial += i % 5 + l;
    });
    long total = -1;
    Kokkos::parallel_scan(range, [&](int i, long& partial, const bool final) {
      partial += i % 5 + l;
      if (final && record) in_row[i] = partial;
    }, total);
    long expect = 0;
    for (int i = 0; i < n; ++i) expect += i % 5 + l;
    if (total != expect) Kokkos::atomic_add(err, 1);
    if (m.team_rank() == 0) tot[l * 2] = total;
    if constexpr (K == 2) {
      // ThreadVectorRange also scans with a reducer.
      int mx = -1;
      Kokkos::parallel_scan(range, [&](int i, int& partial, bool) { partial = std::max(partial, (i * 7) % 11); },
                            Kokkos::Max<int>(mx));
      int expect_max = std::numeric_limits<int>::lowest();
      for (int i = 0; i < n; ++i) expect_max = std::max(expect_max, (i * 7) % 11);
      if (mx != expect_max) Kokkos::atomic_add(err, 1);
    }
  });
  EXPECT_EQ(to_vector(d_errors)[0], 0) << "range kind " << K << " n " << n;
  const auto exclusive = to_vector(d_exclusive), inclusive = to_vector(d_inclusive), totals = to_vector(d_totals);
  for (int l = 0; l < league; ++l) {
    long run = 0;
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(exclusive[l * width + i], run) << "kind " << K << " league " << l << " i " << i;
      run += i % 5 + l;
      ASSERT_EQ(inclusive[l * width + i], run) << "kind " << K << " league " << l << " i " << i;
    }
    EXPECT_EQ(totals[l * 2], run);
  }
}

TYPED_TEST(TeamNested, Scans) {
  for (int ts : team_sizes<TypeParam>()) {
    for (int n : {0, 1, 2, 7, 1000}) {
      check_team_scan<TypeParam, 0>(ts, n);
      check_team_scan<TypeParam, 1>(ts, n);
      check_team_scan<TypeParam, 2>(ts, n);
    }
  }
}

// A functor with a value_type scans without a closure signature to deduce from.
struct PrefixOfSquares {
  using value_type = long;
  long* out;
  KOKKOS_INLINE_FUNCTION void operator()(int i, long& partial, bool final) const {
    if (final) out[i] = partial;
    partial += static_cast<long>(i) * i;
  }
};

TYPED_TEST(TeamNested, ScanFunctorWithValueType) {
  using Member = typename Kokkos::TeamPolicy<TypeParam>::member_type;
  const int ts = std::min(2, TypeParam().concurrency());
  auto d_out = filled_view<TypeParam>(50, -1L);
  PrefixOfSquares f{d_out.data()};
  Kokkos::parallel_for(Kokkos::TeamPolicy<TypeParam>(1, ts), KOKKOS_LAMBDA(const Member& m) {
    Kokkos::parallel_scan(Kokkos::TeamThreadRange(m, 50), f);
  });
  const auto out = to_vector(d_out);
  long run = 0;
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(out[i], run);
    run += static_cast<long>(i) * i;
  }
}

// ---- single -------------------------------------------------------------------------------------

TYPED_TEST(TeamNested, Single) {
  using Member = typename Kokkos::TeamPolicy<TypeParam>::member_type;
  for (int ts : team_sizes<TypeParam>()) {
    auto policy = make_policy<TypeParam>(9, ts);
    const int t = policy.team_size();
    auto d_per_team = filled_view<TypeParam>(9, 0), d_per_thread = filled_view<TypeParam>(static_cast<std::size_t>(9 * t), 0);
    auto d_errors = filled_view<TypeParam>(1, 0);
    int* pt = d_per_team.data();
    int* pth = d_per_thread.data();
    int* err = d_errors.data();
    Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const Member& m) {
      Kokkos::single(Kokkos::PerTeam(m), [&]() { Kokkos::atomic_add(&pt[m.league_rank()], 1); });
      Kokkos::single(Kokkos::PerThread(m), [&]() {
        Kokkos::atomic_add(&pth[m.league_rank() * m.team_size() + m.team_rank()], 1);
      });
      double value = -1.0;
      Kokkos::single(Kokkos::PerTeam(m), [&](double& v) { v = 3.0 * m.league_rank() + m.team_rank(); }, value);
      if (value != 3.0 * m.league_rank()) Kokkos::atomic_add(err, 1);  // rank 0's value, on every member
      int mine = -1;
      Kokkos::single(Kokkos::PerThread(m), [&](int& v) { v = m.team_rank(); }, mine);
      if (mine != m.team_rank()) Kokkos::atomic_add(err, 1);
    });
    EXPECT_EQ(to_vector(d_errors)[0], 0);
    for (int v : to_vector(d_per_team)) EXPECT_EQ(v, 1);
    for (int v : to_vector(d_per_thread)) EXPECT_EQ(v, 1);
  }
}

}  // namespace

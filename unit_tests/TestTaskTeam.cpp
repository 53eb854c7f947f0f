// Team tasks: a TaskTeam task runs on a task team and uses the nested patterns of
// team policies (TeamThreadRange / ThreadVectorRange parallel_for, parallel_reduce with a scalar
// and with reducers, inclusive and exclusive parallel_scan) with results checked.  This file
// runs with the task team size of the machine (one on most machines);
// TestLifecycleTaskTeams.cpp includes it and runs the same tests with teams of two.
#include "TestCommon.hpp"

#include <Kokkos_TaskScheduler.hpp>

#include <atomic>
#include <vector>

namespace {

template <class Space>
struct TaskTeam : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TaskTeam, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// The team size a TaskTeam task gets on `Space`.
template <class Space>
int expected_task_team_size() {
  const int threads = Space().concurrency();
  const int team = Kokkos::Experimental::task_team_size();
  return team < threads ? team : threads;
}

// Per-index results of the chain, checked on the host after wait().
struct ChainResults {
  explicit ChainResults(long n)
      : parfor(n, -1), reduce_check(n, -1), sum_check(n, -1), max_check(n, -1), exscan(n, -1), inscan(n, -1),
        vector_sum(n, -1) {}
  std::vector<long> parfor, reduce_check, sum_check, max_check, exscan, inscan, vector_sum;
  std::atomic<int> errors{0};  // collective results that disagreed on some member
};

// Kokkos' TestTaskTeam, extended: the task for [begin, end) first spawns the task for the span
// before it and respawns behind it, so the chain runs from index 0 upwards; each link returns
// the running total of its indices.
template <class Scheduler>
struct TeamChain {
  using value_type = long;
  using member_type = typename Scheduler::member_type;
  static constexpr long span = 33;

  Scheduler sched;
  typename Scheduler::template future_type<long> before;
  ChainResults* out;
  long end;
  int expected_team_size;

  void fail() const { out->errors.fetch_add(1, std::memory_order_relaxed); }

  void operator()(member_type& member, long& result) {
    const long begin = end - span > 0 ? end - span : 0;
    const bool first_run = begin > 0 && before.is_null();
    member.team_barrier();  // every rank has read `before` before rank 0 sets it
    if (first_run) {
      if (member.team_rank() == 0) {
        before = Kokkos::task_spawn(Kokkos::TaskTeam(sched),
                                    TeamChain{sched, {}, out, begin, expected_team_size});
        if (before.is_null()) Kokkos::abort("TeamChain: the pool is full");
        Kokkos::respawn(this, before);
      }
      return;
    }
    if (member.team_size() != expected_team_size) fail();
    if (member.league_rank() < 0 || member.league_rank() >= member.league_size()) fail();
    if (!before.is_null() && !before.is_ready()) fail();

    long* parfor = out->parfor.data();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, begin, end), [&](long i) { parfor[i] = i; });
    member.team_barrier();  // the reductions read entries other members wrote

    const long expected = (begin + end - 1) * (end - begin) / 2;
    long total = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(member, begin, end), [&](long i, long& s) { s += parfor[i]; }, total);
    long total_sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(member, begin, end), [&](long i, long& s) { s += parfor[i]; },
        Kokkos::Sum<long>(total_sum));
    long largest = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(member, begin, end), [&](long i, long& m) { m = parfor[i] > m ? parfor[i] : m; },
        Kokkos::Max<long>(largest));
    long* reduce_check = out->reduce_check.data();
    long* sum_check = out->sum_check.data();
    long* max_check = out->max_check.data();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, begin, end), [&](long i) {
      reduce_check[i] = expected - total;
      sum_check[i] = expected - total_sum;
      max_check[i] = (end - 1) - largest;
    });

    // Exclusive scan (with its total), then inclusive.
    long* exscan = out->exscan.data();
    long scan_total = -1;
    Kokkos::parallel_scan(
        Kokkos::TeamThreadRange(member, begin, end),
        [&](long i, long& partial, const bool final) {
          if (final) exscan[i] = partial;
          partial += i;
        },
        scan_total);
    if (scan_total != expected) fail();
    long* inscan = out->inscan.data();
    Kokkos::parallel_scan(Kokkos::TeamThreadRange(member, begin, end), [&](long i, long& partial, const bool final) {
      partial += i;
      if (final) inscan[i] = partial;
    });

    // Vector lanes inside team threads: sum of 0..i per index.
    long* vector_sum = out->vector_sum.data();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, begin, end), [&](long i) {
      long s = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(member, i + 1), [&](long j, long& v) { v += j; }, s);
      vector_sum[i] = s;
    });

    // Broadcast: every member sees rank 0's value.
    long token = member.team_rank() == 0 ? end : -1;
    member.team_broadcast(token, 0);
    if (token != end) fail();

    member.team_barrier();  // the scans' results are complete before the task is
    if (member.team_rank() == 0) result = total + (before.is_null() ? 0 : before.get());
  }
};

template <class Space>
void run_team_chain(long n) {
  using S = Kokkos::TaskScheduler<Space>;
  S sched(typename S::memory_space(), 1 << 20, 64, 1024, 4096);
  ChainResults out(n);
  auto f = Kokkos::host_spawn(Kokkos::TaskTeam(sched), TeamChain<S>{sched, {}, &out, n, expected_task_team_size<Space>()});
  ASSERT_FALSE(f.is_null());
  Kokkos::wait(sched);
  ASSERT_TRUE(f.is_ready());
  EXPECT_EQ(f.get(), n * (n - 1) / 2);
  EXPECT_EQ(out.errors.load(), 0);
  constexpr long span = TeamChain<S>::span;
  for (long i = 0; i < n; ++i) {
    ASSERT_EQ(out.parfor[i], i) << i;
    ASSERT_EQ(out.reduce_check[i], 0) << i;
    ASSERT_EQ(out.sum_check[i], 0) << i;
    ASSERT_EQ(out.max_check[i], 0) << i;
    ASSERT_EQ(out.vector_sum[i], i * (i + 1) / 2) << i;
  }
  // Scans restart at each link's first index: link boundaries are n, n - span, ... down to 0.
  for (long end = n; end > 0; end -= span) {
    const long begin = end - span > 0 ? end - span : 0;
    long prefix = 0;
    for (long i = begin; i < end; ++i) {
      ASSERT_EQ(out.exscan[i], prefix) << i;
      prefix += i;
      ASSERT_EQ(out.inscan[i], prefix) << i;
    }
  }
  f.clear();
  EXPECT_EQ(sched.queue().allocation_count(), 0);
}

TYPED_TEST(TaskTeam, ChainOfNestedPatterns) {
  for (long n : {1L, 2L, 33L, 34L, 100L, 1000L}) run_team_chain<TypeParam>(n);
}

// A TaskSingle task sees a team of one; a TaskTeam task its task team.
template <class Scheduler>
struct ReportTeamSize {
  using value_type = int;
  void operator()(typename Scheduler::member_type& member, int& size) {
    member.team_barrier();
    if (member.team_rank() == 0) size = member.team_size();
  }
};

TYPED_TEST(TaskTeam, SingleSeesOneTeamSeesTeam) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  S sched(typename S::memory_space(), 1 << 16, 64, 1024, 4096);
  auto single = Kokkos::host_spawn(Kokkos::TaskSingle(sched), ReportTeamSize<S>{});
  auto team = Kokkos::host_spawn(Kokkos::TaskTeam(sched), ReportTeamSize<S>{});
  auto team_after = Kokkos::host_spawn(Kokkos::TaskTeam(sched, single, Kokkos::TaskPriority::Low), ReportTeamSize<S>{});
  Kokkos::wait(sched);
  EXPECT_EQ(single.get(), 1);
  EXPECT_EQ(team.get(), expected_task_team_size<TypeParam>());
  EXPECT_EQ(team_after.get(), expected_task_team_size<TypeParam>());
}

// The multi-dimensional nested ranges in a task: a TaskTeam task splits the tuples over its team,
// a TaskSingle task (a team of one) runs them all; both reduce the same sum.
template <class Scheduler>
struct MDRangeSum {
  using value_type = long;
  void operator()(typename Scheduler::member_type& member, long& result) {
    long sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadMDRange(member, 7, 5, 3), [&](int i, int j, int k, long& s) { s += i * 15 + j * 3 + k; },
        sum);
    long vector_sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamVectorMDRange(member, 7, 15), [&](int i, int j, long& s) { s += i * 15 + j; }, vector_sum);
    if (member.team_rank() == 0) result = sum == vector_sum ? sum : -1;
  }
};

TYPED_TEST(TaskTeam, MDRangesSplitOverTheTaskTeam) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  S sched(typename S::memory_space(), 1 << 16, 64, 1024, 4096);
  auto team = Kokkos::host_spawn(Kokkos::TaskTeam(sched), MDRangeSum<S>{});
  auto single = Kokkos::host_spawn(Kokkos::TaskSingle(sched), MDRangeSum<S>{});
  Kokkos::wait(sched);
  EXPECT_EQ(team.get(), 104L * 105 / 2);  // 0 + 1 + ... + 104, every index of 7 x 15 once
  EXPECT_EQ(single.get(), 104L * 105 / 2);
}

// Team tasks and single tasks in one DAG: a team task fans out single tasks from one rank,
// respawns behind them, then reduces their results over the team.
template <class Scheduler>
struct Square {
  using value_type = long;
  long i;
  void operator()(typename Scheduler::member_type&, long& r) { r = i * i; }
};

template <class Scheduler>
struct TeamFanIn {
  using value_type = long;
  using future_long = typename Scheduler::template future_type<long>;
  static constexpr int width = 24;
  Scheduler sched;
  future_long parts[width];
  bool spawned = false;

  void operator()(typename Scheduler::member_type& member, long& result) {
    const bool first_run = !spawned;
    member.team_barrier();  // every rank has read `spawned` before rank 0 sets it
    if (first_run) {
      if (member.team_rank() == 0) {
        spawned = true;
        for (int i = 0; i < width; ++i) parts[i] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), Square<Scheduler>{i});
        Kokkos::respawn(this, Kokkos::when_all(parts, width), Kokkos::TaskPriority::High);
      }
      return;
    }
    long total = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(member, width), [&](int i, long& s) { s += parts[i].get(); }, total);
    if (member.team_rank() == 0) result = total;
  }
};

TYPED_TEST(TaskTeam, TeamTasksFanOutSingleTasks) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  S sched(typename S::memory_space(), 1 << 20, 64, 1024, 4096);
  constexpr int w = TeamFanIn<S>::width;
  long expected = 0;
  for (long i = 0; i < w; ++i) expected += i * i;
  for (int round = 0; round < 20; ++round) {
    std::vector<typename S::template future_type<long>> fs;
    for (int k = 0; k < 8; ++k) fs.push_back(Kokkos::host_spawn(Kokkos::TaskTeam(sched), TeamFanIn<S>{sched, {}, false}));
    Kokkos::wait(sched);
    for (auto& f : fs) ASSERT_EQ(f.get(), expected);
  }
  EXPECT_EQ(sched.queue().allocation_count(), 0);
}

}  // namespace

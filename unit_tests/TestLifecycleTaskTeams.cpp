// The team-task tests of TestTaskTeam.cpp with task teams of two threads, forced by the
// initialization setting (this machine may have one hardware thread per core).  A TestLifecycle*
// executable has its own main, so Kokkos is initialised here with the setting.
#include "TestTaskTeam.cpp"

namespace {
TEST(TaskTeamSetting, TeamsOfTwo) {
  EXPECT_EQ(Kokkos::Experimental::task_team_size(), 2);
  EXPECT_EQ(expected_task_team_size<Kokkos::DefaultHostExecutionSpace>(), 2);
}

// Every rank of a team task calling respawn is respawn called twice in one execution.
template <class Scheduler>
struct RespawnFromEveryRank {
  bool again = true;
  void operator()(typename Scheduler::member_type& member) {
    const bool first = again;
    member.team_barrier();
    if (first) {
      Kokkos::respawn(this, member.scheduler());
      member.team_barrier();
      again = false;
    }
  }
};

TEST(TaskTeamDeathTest, RespawnFromEveryRankAborts) {
  using S = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;
  EXPECT_DEATH(
      {
        S sched(S::memory_space(), 1 << 16, 64, 1024, 4096);
        Kokkos::host_spawn(Kokkos::TaskTeam(sched), RespawnFromEveryRank<S>{});
        Kokkos::wait(sched);
      },
      "respawn: called twice in one execution of a task \\(in a TaskTeam task, call it from one team rank\\)");
}
}  // namespace

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Kokkos::initialize(Kokkos::InitializationSettings().set_num_threads(2).set_task_team_size(2));
  const int result = RUN_ALL_TESTS();
  Kokkos::finalize();
  return result;
}

// Impl::DeviceTaskWorkerChoice, the choice of worker shape of the GPU task scheduler's wait(),
// with injected run times: the first candidate until runs were timed, each candidate timed in
// turn, the fastest per task kept, runs without tasks ignored, a slow candidate pruned, a user's
// shape launched as set and untimed until the choice is handed back.
#include <impl/tasking/Kokkos_DeviceTaskWorkerChoice.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

namespace {

struct Shape {
  int blocks_per_sm = 0;
  int warps_per_block = 0;
  friend bool operator==(const Shape&, const Shape&) = default;
};

using Choice = Kokkos::Impl::DeviceTaskWorkerChoice<Shape>;
constexpr std::array<Shape, 4> candidates{{{8, 1}, {2, 1}, {2, 4}, {6, 4}}};
constexpr int samples = static_cast<int>(Choice::options.samples_per_way);

// Runs `runs` waits whose candidate `w` takes ns_per_task[w] per task over `tasks` tasks; returns
// the candidate of each run.
std::vector<int> run_waits(Choice& choice, int runs, const std::array<double, 4>& ns_per_task,
                           std::int64_t tasks = 1000) {
  std::vector<int> ways;
  for (int r = 0; r < runs; ++r) {
    const Choice::Run run = choice.next();
    ways.push_back(run.way);
    EXPECT_GE(run.way, 0);
    EXPECT_EQ(run.shape, choice.candidate(run.way));
    choice.record(run, ns_per_task[static_cast<std::size_t>(run.way)] * double(tasks), tasks);
  }
  return ways;
}

TEST(DeviceTaskWorkerChoice, TheFirstCandidateUntilRunsWereTimed) {
  Choice choice(candidates);
  EXPECT_TRUE(choice.measuring());
  EXPECT_EQ(choice.candidate_count(), 4);
  EXPECT_EQ(choice.chosen(), (Shape{8, 1}));
  const Choice::Run first = choice.next();
  EXPECT_EQ(first.way, 0);
  EXPECT_EQ(first.shape, (Shape{8, 1})) << "a program that waits once runs the default";
  EXPECT_TRUE(first.timed);
}

TEST(DeviceTaskWorkerChoice, EachCandidateIsTimedInTurnAndTheFastestPerTaskKept) {
  Choice choice(candidates);
  const std::vector<int> sampled = run_waits(choice, 4 * samples, {50, 20, 30, 40});
  for (int i = 0; i < 4 * samples; ++i) EXPECT_EQ(sampled[static_cast<std::size_t>(i)], i / samples) << "run " << i;
  EXPECT_EQ(choice.chosen(), (Shape{2, 1}));
  const std::vector<int> settled = run_waits(choice, 20, {50, 20, 30, 40});
  for (int way : settled) EXPECT_EQ(way, 1);
  EXPECT_DOUBLE_EQ(choice.choice().time_ns(1), 20.0);
}

TEST(DeviceTaskWorkerChoice, RunsCompareByTimePerTaskNotByTotal) {
  Choice choice(candidates);
  // Candidate 2's runs take the longest in all, but ran ten times the tasks.
  for (int r = 0; r < 4 * samples; ++r) {
    const Choice::Run run = choice.next();
    const std::int64_t tasks = run.way == 2 ? 10000 : 1000;
    const double ns = run.way == 2 ? 100000.0 : 50000.0;
    choice.record(run, ns, tasks);
  }
  EXPECT_EQ(choice.chosen(), (Shape{2, 4}));
  EXPECT_DOUBLE_EQ(choice.choice().time_ns(2), 10.0);
}

TEST(DeviceTaskWorkerChoice, ARunWithoutTasksOrUntimedIsNotRecorded) {
  Choice choice(candidates);
  Choice::Run run = choice.next();
  ASSERT_TRUE(run.timed);
  choice.record(run, 1e9, 0);
  choice.record(run, 1e9, -3);
  EXPECT_EQ(choice.choice().time_ns(0), std::numeric_limits<double>::infinity()) << "a run of no task tells nothing";
  run.timed = false;
  choice.record(run, 1.0, 10);
  EXPECT_EQ(choice.choice().time_ns(0), std::numeric_limits<double>::infinity());
  run.timed = true;
  choice.record(run, 1000.0, 10);
  EXPECT_DOUBLE_EQ(choice.choice().time_ns(0), 100.0);
  choice.record(run, 5000.0, 10);
  EXPECT_DOUBLE_EQ(choice.choice().time_ns(0), 100.0) << "a sample's minimum is kept";
}

TEST(DeviceTaskWorkerChoice, ACandidateNeverTimedIsNeverChosen) {
  Choice choice(candidates);
  // Only candidate 3's runs ran tasks.
  for (int r = 0; r < 4 * samples; ++r) {
    const Choice::Run run = choice.next();
    choice.record(run, 1000.0, run.way == 3 ? 10 : 0);
  }
  EXPECT_EQ(choice.chosen(), (Shape{6, 4}));
}

TEST(DeviceTaskWorkerChoice, EveryEpochTimesTheCandidatesAgainAndFollowsAChange) {
  Choice choice(candidates);
  const int epoch = static_cast<int>(choice.choice().epoch_length());
  run_waits(choice, epoch, {50, 20, 30, 40});
  EXPECT_EQ(choice.chosen(), (Shape{2, 1}));
  // The GPU is now shared, say: candidate 0 became the fastest.
  const std::vector<int> next_epoch = run_waits(choice, 4 * samples + 4, {10, 20, 30, 40});
  for (int i = 0; i < 4 * samples; ++i) EXPECT_EQ(next_epoch[static_cast<std::size_t>(i)], i / samples) << "run " << i;
  for (int i = 4 * samples; i < 4 * samples + 4; ++i) EXPECT_EQ(next_epoch[static_cast<std::size_t>(i)], 0);
  EXPECT_EQ(choice.chosen(), (Shape{8, 1}));
}

TEST(DeviceTaskWorkerChoice, ACandidateFourTimesSlowerInTwoEpochsIsNoLongerTried) {
  Choice choice(candidates);
  const std::array<double, 4> ns{10, 20, 30, 45};  // candidate 3: 4.5x the fastest
  for (int e = 0; e < 2; ++e) run_waits(choice, static_cast<int>(choice.choice().epoch_length()), ns);
  const std::vector<int> third = run_waits(choice, 4 * samples, ns);
  EXPECT_TRUE(choice.choice().pruned(3));
  EXPECT_FALSE(choice.choice().pruned(2)) << "3x is within the prune ratio";
  for (int way : third) EXPECT_NE(way, 3);
}

TEST(DeviceTaskWorkerChoice, AUsersShapeRunsAsSetUntimedUntilTheChoiceIsHandedBack) {
  Choice choice(candidates);
  run_waits(choice, 4 * samples, {50, 20, 30, 40});
  choice.fix({3, 8});
  EXPECT_FALSE(choice.measuring());
  EXPECT_EQ(choice.chosen(), (Shape{3, 8}));
  for (int r = 0; r < 100; ++r) {
    const Choice::Run run = choice.next();
    EXPECT_EQ(run.shape, (Shape{3, 8}));
    EXPECT_EQ(run.way, -1);
    EXPECT_FALSE(run.timed);
    choice.record(run, 1.0, 1000);  // ignored: the user's shape is no candidate
  }
  EXPECT_DOUBLE_EQ(choice.choice().time_ns(1), 20.0) << "the candidates' times stay as they were";
  choice.measure();
  EXPECT_TRUE(choice.measuring());
  EXPECT_EQ(choice.chosen(), (Shape{2, 1})) << "what was measured before the user's shape";
  EXPECT_GE(choice.next().way, 0);
}

TEST(DeviceTaskWorkerChoice, OneCandidateIsAlwaysLaunchedAndNeverTimed) {
  const std::array<Shape, 1> one{{{4, 2}}};
  Kokkos::Impl::DeviceTaskWorkerChoice<Shape> choice(one);
  for (int r = 0; r < 10; ++r) {
    const auto run = choice.next();
    EXPECT_EQ(run.shape, (Shape{4, 2}));
    EXPECT_FALSE(run.timed) << "nothing to choose between";
  }
}

TEST(DeviceTaskWorkerChoice, CandidatesAreOneToEight) {
  const std::vector<Shape> none, nine(9, Shape{1, 1}), eight(8, Shape{1, 1});
  EXPECT_THROW(Choice{std::span<const Shape>(none)}, std::invalid_argument);
  EXPECT_THROW(Choice{std::span<const Shape>(nine)}, std::invalid_argument);
  EXPECT_NO_THROW(Choice{std::span<const Shape>(eight)});
}

}  // namespace

// The workers of the GPU scheduler's queue on host threads (DeviceTaskQueueHarness.hpp): the
// group protocol of blocks of several warps (Kokkos_DeviceTaskWorkerGroup.hpp), idle workers and
// their wake tokens, TaskTeam tasks handed back while workers are idle, and the detection of a
// dependence cycle (Kokkos_DeviceTaskIdleWorkers.hpp), also while some workers have not started.
#include "DeviceTaskQueueHarness.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

namespace {

using namespace device_task_queue_test;

// ---- workers in groups (a GPU block of several warps) ----------------------------------------------
// The protocol of Kokkos_DeviceTaskWorkerGroup.hpp, step by step on one thread.
TEST(DeviceTaskWorkers, GroupScoutRoleAndNews) {
  Kokkos::Impl::DeviceTaskWorkerGroup g;
  g.reset();
  std::uint32_t seen0 = 0, seen1 = 0, seen2 = 0;
  EXPECT_TRUE(g.look_myself(0, seen0));  // no scout yet: 0 becomes it
  EXPECT_TRUE(g.is_scout(0));
  EXPECT_TRUE(g.look_myself(0, seen0));  // and stays it
  EXPECT_FALSE(g.look_myself(1, seen1));
  EXPECT_FALSE(g.look_myself(2, seen2));
  EXPECT_FALSE(g.should_look(seen1));
  g.found_work(1);  // not the scout: nothing changes
  EXPECT_TRUE(g.is_scout(0));
  EXPECT_FALSE(g.should_look(seen1));
  g.found_work(0);  // the scout found work: it gives the role up and the others look again
  EXPECT_FALSE(g.is_scout(0));
  EXPECT_TRUE(g.should_look(seen1));
  EXPECT_TRUE(g.should_look(seen2));
  EXPECT_FALSE(g.is_over());
  EXPECT_TRUE(g.look_myself(2, seen2));  // the first to look next becomes the scout
  EXPECT_FALSE(g.look_myself(1, seen1));
  EXPECT_FALSE(g.should_look(seen1));
  g.end();
  EXPECT_TRUE(g.is_over());
  EXPECT_TRUE(g.should_look(seen1));
}

// A member waiting on one scout looks again when that scout gives its role up, even if another
// member took the role meanwhile; it then waits on the new scout, past the news it saw last.
TEST(DeviceTaskWorkers, GroupWaiterWakesWhenItsScoutGivesUp) {
  Kokkos::Impl::DeviceTaskWorkerGroup g;
  g.reset();
  std::uint32_t seen3 = 0, seen4 = 0, seen5 = 0;
  ASSERT_TRUE(g.look_myself(3, seen3));
  ASSERT_FALSE(g.look_myself(4, seen4));
  g.found_work(3);
  ASSERT_TRUE(g.look_myself(5, seen5));  // 5 takes the role before 4 looks at the group again
  EXPECT_TRUE(g.should_look(seen4));
  EXPECT_FALSE(g.look_myself(4, seen4));
  EXPECT_FALSE(g.should_look(seen4));
  EXPECT_TRUE(g.is_scout(5));
}

// Fibonacci on blocks of 2, 4 and 8 workers: members wait for their scout, wake when it finds
// work, and every group ends with the run.
TEST(DeviceTaskWorkers, FibonacciInGroupsOfWorkers) {
  Pool pool(Kokkos::HostSpace(), 1 << 22, 64, 1024, 1 << 16);
  for (int group_size : {2, 4, 8}) {
    for (int threads : {group_size, 16}) {
      QueueOnHost q(pool);
      constexpr long n = 16;
      TaskBase* f = spawn(q, Fib{n, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
      ASSERT_NE(f, nullptr);
      EXPECT_FALSE(run_workers(q, threads, 4, 2, group_size)) << threads << " workers in groups of " << group_size;
      ASSERT_TRUE(f->is_complete());
      EXPECT_EQ(result_of(f), serial_fib(n));
      Queue::release_reference(f);
      EXPECT_EQ(q.allocation_count(), 0);
    }
  }
}

TEST(DeviceTaskWorkers, RandomDagsInGroupsOfWorkers) {
  Pool pool(Kokkos::HostSpace(), 1 << 23, 64, 1024, 1 << 16);
  QueueOnHost q(pool);
  std::mt19937 rng(20261201);
  const int shapes[][2] = {{4, 2}, {8, 4}, {12, 3}, {16, 8}, {5, 4}};  // threads, group size (5: a group of 1)
  for (int round = 0; round < 20; ++round) random_dag_round(q, rng, 400, shapes[round % 5][0], shapes[round % 5][1]);
  Pool::usage_statistics stats;
  pool.get_usage_statistics(stats);
  EXPECT_EQ(stats.consumed_blocks, 0u);
  EXPECT_EQ(q.spawn_failures(), 0);
}

// ---- waking idle workers ------------------------------------------------------------------------
// Tokens are added while a worker is counted idle, and only then, one per claim the pushed tasks
// make; each is taken once; a finished DAG wakes every idle worker; a run starts with none.
TEST(DeviceTaskWorkers, WakeTokensOnlyWhileWorkersIdle) {
  Pool pool(Kokkos::HostSpace(), 1 << 20, 64, 1024, 1 << 16);
  QueueOnHost q(pool, 2, 64);
  q.m_idle.begin_run();
  DeviceTaskStage stage;
  stage.reset(0);
  HostWorkerContext::current() = &stage;
  std::vector<TaskBase*> futures;
  const auto spawn_and_flush = [&](int n, int claim_width) {
    for (int i = 0; i < n; ++i)
      futures.push_back(spawn(q, DagNode::Leaf{long(futures.size())}, Kokkos::TaskPriority::Regular, nullptr));
    q.flush_stage(stage, claim_width);
  };
  spawn_and_flush(3, 1);
  EXPECT_EQ(q.m_idle.m_tokens, 0) << "no worker is idle: nobody to wake";
  EXPECT_FALSE(q.m_idle.take_token());
  q.m_idle.start();
  q.m_idle.enter();
  spawn_and_flush(5, 1);
  EXPECT_EQ(q.m_idle.m_tokens, 5) << "claims of one task: a token per task pushed while a worker is idle";
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(q.m_idle.take_token()) << i;
  EXPECT_FALSE(q.m_idle.take_token()) << "a token is taken once";
  spawn_and_flush(5, 4);
  EXPECT_EQ(q.m_idle.m_tokens, 2) << "five tasks, claims of four: two workers to wake";
  EXPECT_TRUE(q.m_idle.take_token());
  EXPECT_TRUE(q.m_idle.take_token());
  HostWorkerContext::current() = nullptr;  // host code pushes directly
  futures.push_back(spawn(q, DagNode::Leaf{long(futures.size())}, Kokkos::TaskPriority::High, nullptr));
  EXPECT_EQ(q.m_idle.m_tokens, 1) << "a task pushed outside a stage wakes one too";
  q.m_idle.leave();
  spawn_and_flush(2, 1);
  EXPECT_EQ(q.m_idle.m_tokens, 1) << "nobody idle any more";
  q.m_idle.begin_run();
  EXPECT_EQ(q.m_idle.m_tokens, 0);
  EXPECT_EQ(q.m_idle.m_counted, 0);
  EXPECT_EQ(q.m_idle.m_started, 0);
  run_workers(q, 2);
  for (std::size_t i = 0; i < futures.size(); ++i) {
    EXPECT_EQ(result_of(futures[i]), long(i));
    Queue::release_reference(futures[i]);
  }
  EXPECT_EQ(q.allocation_count(), 0);
}

void spin_for(std::chrono::microseconds d) {
  const auto until = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < until) {
  }
}

// Runs for a while, then notes which worker ran it.
struct NotedSpin {
  std::mutex* lock;
  std::vector<std::thread::id>* ran;
  void operator()(Worker&, long& result) {
    spin_for(std::chrono::microseconds(500));
    std::lock_guard<std::mutex> guard(*lock);
    ran->push_back(std::this_thread::get_id());
    result = 1;
  }
};

// Works long enough for every other worker to count itself idle, then spawns `children`.
struct LateFanOut {
  std::mutex* lock;
  std::vector<std::thread::id>* ran;
  int children;
  void operator()(Worker& w, long& result) {
    spin_for(std::chrono::milliseconds(50));
    for (int i = 0; i < children; ++i) {
      TaskBase* c = spawn(*w.queue, NotedSpin{lock, ran}, Kokkos::TaskPriority::Regular, nullptr);
      if (c == nullptr) Kokkos::abort("DeviceTaskQueue LateFanOut test: the pool ran out");
      Queue::release_reference(c);
    }
    result = children;
  }
};

// Workers counted idle look again only when woken: the children of a task spawned after they
// counted themselves must still spread over them rather than all run on the spawner's worker.
TEST(DeviceTaskWorkers, IdleWorkersWakeForWorkSpawnedLater) {
  Pool pool(Kokkos::HostSpace(), 1 << 22, 64, 1024, 1 << 16);
  for (int group_size : {1, 2}) {
    QueueOnHost q(pool);
    std::mutex lock;
    std::vector<std::thread::id> ran;
    constexpr int children = 64;
    TaskBase* root = spawn(q, LateFanOut{&lock, &ran, children}, Kokkos::TaskPriority::Regular, nullptr);
    ASSERT_NE(root, nullptr);
    EXPECT_FALSE(run_workers(q, 4, 4, 2, group_size));
    EXPECT_EQ(result_of(root), children);
    Queue::release_reference(root);
    ASSERT_EQ(ran.size(), std::size_t(children));
    std::sort(ran.begin(), ran.end());
    const auto workers = std::distance(ran.begin(), std::unique(ran.begin(), ran.end()));
    EXPECT_GE(workers, 2) << "the idle workers never woke for the children (groups of " << group_size << ")";
    EXPECT_EQ(q.allocation_count(), 0);
  }
}

// A push wakes a worker per TaskTeam task (it keeps its worker whole) and one per claim's worth of
// TaskSingle tasks of each priority (a claim takes tasks of one ring, one priority).
TEST(DeviceTaskWorkers, WakeTokensPerClaimTheTasksMake) {
  EXPECT_EQ(Queue::claims_for(0, 0, 32), 0);
  EXPECT_EQ(Queue::claims_for(0, 1, 32), 1);
  EXPECT_EQ(Queue::claims_for(0, 32, 32), 1);
  EXPECT_EQ(Queue::claims_for(0, 33, 32), 2);
  EXPECT_EQ(Queue::claims_for(2, 0, 32), 2);
  EXPECT_EQ(Queue::claims_for(2, 5, 4), 4);
  EXPECT_EQ(Queue::claims_for(0, 7, 1), 7);

  Pool pool(Kokkos::HostSpace(), 1 << 20, 64, 1024, 1 << 16);
  QueueOnHost q(pool, 2, 64);
  q.m_idle.begin_run();
  q.m_idle.start();
  q.m_idle.enter();
  DeviceTaskStage stage;
  stage.reset(0);
  HostWorkerContext::current() = &stage;
  std::vector<TaskBase*> futures;
  const auto add = [&](int n, Kokkos::TaskPriority priority, TaskKind kind) {
    for (int i = 0; i < n; ++i)
      futures.push_back(spawn(q, DagNode::Leaf{long(futures.size())}, priority, nullptr, kind));
  };
  add(10, Kokkos::TaskPriority::Regular, TaskKind::Single);
  add(3, Kokkos::TaskPriority::Regular, TaskKind::Team);
  add(5, Kokkos::TaskPriority::High, TaskKind::Single);
  add(1, Kokkos::TaskPriority::Low, TaskKind::Team);
  q.flush_stage(stage, 4);
  EXPECT_EQ(q.m_idle.m_tokens, 3 + 3 + 2 + 1)
      << "Regular: 3 teams + 10 singles in claims of 4; High: 5 in claims of 4; Low: 1 team";
  HostWorkerContext::current() = nullptr;
  q.m_idle.leave();
  q.m_idle.begin_run();
  run_workers(q, 3, 4);
  for (std::size_t i = 0; i < futures.size(); ++i) {
    EXPECT_EQ(result_of(futures[i]), long(i));
    Queue::release_reference(futures[i]);
  }
  EXPECT_EQ(q.allocation_count(), 0);
}

// ---- the TaskTeam tasks of one claim ----------------------------------------------------------------
struct Count {
  std::atomic<int>* runs;
  void operator()(Worker&, long& result) {
    runs->fetch_add(1, std::memory_order_relaxed);
    result = 1;
  }
};

// Only while a worker is idle, a claim keeps its first TaskTeam task (and every TaskSingle one, in
// claim order) and hands the other TaskTeam tasks back to the rings.
TEST(DeviceTaskWorkers, ExtraTeamTasksGoBackOnlyWhileWorkersIdle) {
  Pool pool(Kokkos::HostSpace(), 1 << 20, 64, 1024, 1 << 16);
  QueueOnHost q(pool, 1, 64);
  std::atomic<int> runs{0};
  const TaskKind kinds[] = {TaskKind::Single, TaskKind::Team, TaskKind::Single, TaskKind::Team, TaskKind::Team};
  std::vector<TaskBase*> futures;
  for (TaskKind k : kinds)
    futures.push_back(spawn(q, Count{&runs}, Kokkos::TaskPriority::Regular, nullptr, k));
  DeviceTaskStage stage;
  stage.reset(0);
  HostWorkerContext::current() = &stage;
  for (bool idle : {false, true}) {
    q.m_idle.m_counted = idle ? 1 : 0;
    const Kokkos::Impl::DeviceTaskClaim c = q.claim_ready(0, 8);
    ASSERT_EQ(c.count, 5) << "every ready task is in the one ring";
    std::vector<TaskBase*> tasks;
    for (int i = 0; i < c.count; ++i) tasks.push_back(Queue::take(c, i));
    const int kept = q.hand_back_extra_teams(tasks.data(), c.count);
    if (!idle) {
      EXPECT_EQ(kept, 5);
      EXPECT_EQ(tasks, futures);
      q.flush_stage(stage, 8);
      for (TaskBase* t : tasks) q.push_direct(t, 0);  // ready again, for the idle round
      continue;
    }
    ASSERT_EQ(kept, 3);
    EXPECT_EQ(tasks[0], futures[0]);
    EXPECT_EQ(tasks[1], futures[1]);
    EXPECT_EQ(tasks[2], futures[2]);
    q.flush_stage(stage, 8);
    EXPECT_EQ(q.pop_ready(), futures[3]);  // handed back in claim order
    EXPECT_EQ(q.pop_ready(), futures[4]);
    EXPECT_EQ(q.pop_ready(), nullptr);
    for (TaskBase* t : futures) q.push_direct(t, 0);  // ready again, for the workers
  }
  HostWorkerContext::current() = nullptr;
  run_workers(q, 2);
  EXPECT_EQ(runs.load(), 5);
  EXPECT_EQ(q.totals().team_tasks_run, 3);
  for (TaskBase* f : futures) {
    EXPECT_EQ(result_of(f), 1);
    Queue::release_reference(f);
  }
  EXPECT_EQ(q.allocation_count(), 0);
}

// A TaskTeam task that spawns `fanout` TaskTeam children, `depth` levels down; the root first
// pauses, so that the other workers go idle before its children all become ready at once.
struct FanOut {
  std::atomic<int>* runs;
  int fanout, depth;
  bool root;
  void operator()(Worker& w, long& result) {
    if (root) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    runs->fetch_add(1, std::memory_order_relaxed);
    result = 1;
    if (depth == 0) return;
    for (int k = 0; k < fanout; ++k) {
      TaskBase* child = spawn(*w.queue, FanOut{runs, fanout, depth - 1, false}, Kokkos::TaskPriority::Regular, nullptr,
                              TaskKind::Team);
      if (child == nullptr) Kokkos::abort("DeviceTaskQueue fan-out test: the pool ran out");
      Queue::release_reference(child);  // nobody waits for it
    }
  }
};

// Bursts of TaskTeam tasks made ready together among workers that went idle: claims hand their
// extra TaskTeam tasks back, and each task still runs exactly once.
TEST(DeviceTaskWorkers, TeamTasksHandedBackRunOnce) {
  Pool pool(Kokkos::HostSpace(), 1 << 22, 64, 1024, 1 << 16);
  for (int threads : {2, 8, 32}) {
    QueueOnHost q(pool, 4, 64);
    std::atomic<int> runs{0};
    constexpr int fanout = 12, depth = 2, tasks = 1 + fanout + fanout * fanout;
    TaskBase* f = spawn(q, FanOut{&runs, fanout, depth, true}, Kokkos::TaskPriority::Regular, nullptr, TaskKind::Team);
    ASSERT_NE(f, nullptr);
    EXPECT_FALSE(run_workers(q, threads, 8, 1, threads >= 8 ? 4 : 1));
    EXPECT_EQ(runs.load(), tasks) << threads << " workers";
    const auto total = q.totals();
    EXPECT_EQ(total.tasks_run, tasks);
    EXPECT_EQ(total.team_tasks_run, tasks);
    EXPECT_EQ(result_of(f), 1);
    Queue::release_reference(f);
    EXPECT_EQ(q.allocation_count(), 0);
  }
}

// ---- a dependence cycle stops the workers ----------------------------------------------------------
// Respawns once, behind the task `*behind` (the test stores it after spawning that task, which
// waits for this one), then returns 1.
struct RespawnBehind {
  TaskBase* const* behind;
  bool respawned;
  void operator()(Worker& w, long& result) {
    if (!respawned) {
      respawned = true;
      (*behind)->add_ref();  // the respawn's dependence holds a reference
      if (!Queue::request_respawn(w.current, Kokkos::TaskPriority::Regular, *behind))
        Kokkos::abort("DeviceTaskQueue cycle test: respawn refused");
      return;
    }
    result = 1;
  }
};

// Fibonacci(12), to keep the workers busy for a while before they go idle, beside two tasks that
// wait on each other; the workers of run_workers(threads, group_size, late_workers) stop for the
// cycle after completing the rest.
void expect_cycle_stops_the_workers(int threads, int group_size, int late_workers) {
  Pool pool(Kokkos::HostSpace(), 1 << 16, 64, 256, 1 << 12);
  QueueOnHost q(pool);
  TaskBase* second = nullptr;
  TaskBase* fib = spawn(q, Fib{12, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
  TaskBase* first = spawn(q, RespawnBehind{&second, false}, Kokkos::TaskPriority::Regular, nullptr);
  ASSERT_NE(first, nullptr);
  first->add_ref();  // the dependence of `second`
  second = spawn(q, DagNode::Leaf{2}, Kokkos::TaskPriority::Regular, first);
  ASSERT_NE(second, nullptr);
  EXPECT_TRUE(run_workers(q, threads, 4, 4, group_size, late_workers))
      << threads << " workers in groups of " << group_size << ", " << late_workers << " late";
  EXPECT_EQ(q.m_stop, stop_for_cycle);
  EXPECT_TRUE(fib->is_complete());
  EXPECT_EQ(result_of(fib), serial_fib(12));
  EXPECT_FALSE(first->is_complete());
  EXPECT_FALSE(second->is_complete());
  EXPECT_FALSE(q.finished());
  EXPECT_EQ(q.m_idle.m_started, threads) << "the late workers started after the stop";
  // The two tasks stay allocated: as on the GPU, wait() aborts after such a stop.
}

TEST(DeviceTaskWorkers, ADependenceCycleStopsTheWorkers) {
  expect_cycle_stops_the_workers(1, 1, 0);
  expect_cycle_stops_the_workers(4, 1, 0);
  expect_cycle_stops_the_workers(16, 4, 0);
}

// The blocks of a launch that do not fit beside another kernel start only when others end: the
// workers that did start see the cycle without them (every worker that started is counted), and
// the late ones stop at once.
TEST(DeviceTaskWorkers, ACycleStopsTheWorkersThatStartedWhileOthersHaveNot) {
  expect_cycle_stops_the_workers(8, 1, 4);
  expect_cycle_stops_the_workers(8, 2, 4);
  expect_cycle_stops_the_workers(3, 1, 2);
}

// Workers that start late find the DAG running or finished, and never see a cycle in it.
TEST(DeviceTaskWorkers, WorkersThatStartLateNeverSeeACycle) {
  Pool pool(Kokkos::HostSpace(), 1 << 22, 64, 1024, 1 << 16);
  for (int run = 0; run < 12; ++run) {
    QueueOnHost q(pool);
    const int n = 10 + run % 5;
    TaskBase* f = spawn(q, Fib{n, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
    ASSERT_NE(f, nullptr);
    const int late = 1 + run % 7;
    ASSERT_FALSE(run_workers(q, 8, 1 + run % 4, 1, 1, late)) << "run " << run << ", " << late << " late";
    ASSERT_TRUE(f->is_complete());
    EXPECT_EQ(result_of(f), serial_fib(n));
    Queue::release_reference(f);
    EXPECT_EQ(q.allocation_count(), 0);
  }
}

// No run of the other tests stops for a cycle: many workers going idle and busy again, each
// counting itself idle after a few empty polls (alone, or, in groups of 8, waiting for its scout).
TEST(DeviceTaskWorkers, IdleWorkersNeverSeeACycleInAnAcyclicDag) {
  Pool pool(Kokkos::HostSpace(), 1 << 22, 64, 1024, 1 << 16);
  for (int run = 0; run < 20; ++run) {
    QueueOnHost q(pool);
    TaskBase* f = spawn(q, Fib{8 + run % 6, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
    ASSERT_NE(f, nullptr);
    ASSERT_FALSE(run_workers(q, 32, 1 + run % 4, 1, run % 2 == 0 ? 1 : 8)) << "run " << run;
    ASSERT_TRUE(f->is_complete());
    EXPECT_EQ(result_of(f), serial_fib(8 + run % 6));
    Queue::release_reference(f);
    EXPECT_EQ(q.allocation_count(), 0);
  }
}

}  // namespace

// Seed 001 §2.3.3: the ready queues are ordered by priority for the whole scheduler, so no
// worker starts a Low task while a High task is ready on any worker.  Deterministic: workers
// are blocked and released by handshakes, never by timing.  ctest runs it on 2 and 4 threads.
#include "TestCommon.hpp"

#include <Kokkos_TaskScheduler.hpp>

#include <atomic>
#include <functional>
#include <thread>

namespace {

template <class Space>
struct TaskPriorityOrder : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TaskPriorityOrder, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

struct Shared {
  int workers = 0;
  int lows_per_worker = 4;
  int highs = 0;
  std::atomic<int> arrived{0};
  std::atomic<bool> released{false};
  std::atomic<int> highs_unstarted{0};
  std::atomic<int> lows_run{0};
  std::atomic<int> lows_behind_ready_high{0};
  std::atomic<int> worst_unstarted_at_low{0};
};

void spin_until(const std::function<bool()>& done) {
  while (!done()) std::this_thread::yield();
}

template <class S>
struct LowTask {
  Shared* sh;
  void operator()(typename S::member_type&) {
    // Every High task was taken before this one started; at most the other workers, one each,
    // may have taken one and not yet entered it.
    const int unstarted = sh->highs_unstarted.load();
    if (unstarted > sh->workers - 1) sh->lows_behind_ready_high.fetch_add(1);
    int w = sh->worst_unstarted_at_low.load();
    while (unstarted > w && !sh->worst_unstarted_at_low.compare_exchange_weak(w, unstarted)) {
    }
    sh->lows_run.fetch_add(1);
  }
};

template <class S>
struct HighTask {
  Shared* sh;
  void operator()(typename S::member_type&) { sh->highs_unstarted.fetch_sub(1); }
};

// Holds one worker: queues its own Low tasks there, then blocks until released.
template <class S>
struct Blocker {
  S sched;
  Shared* sh;
  void operator()(typename S::member_type&) {
    for (int i = 0; i < sh->lows_per_worker; ++i)
      (void)Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::Low), LowTask<S>{sh});
    sh->arrived.fetch_add(1);
    spin_until([&] { return sh->released.load(); });
  }
};

// Runs beside a Blocker on every other worker (the host spawns them all, so each worker takes
// one), queues the High tasks on its own worker, releases the blockers and stays busy until
// every High task started: the released workers, each with Low tasks of its own, must take the
// High tasks from this worker first.
template <class S>
struct Root {
  S sched;
  Shared* sh;
  void operator()(typename S::member_type&) {
    spin_until([&] { return sh->arrived.load() == sh->workers - 1; });
    sh->highs_unstarted.store(sh->highs);
    for (int i = 0; i < sh->highs; ++i)
      (void)Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High), HighTask<S>{sh});
    sh->released.store(true);
    // (A scheduler without the cross-worker order runs the Low tasks first: stop then too, so
    // that it fails the check below instead of hanging.)
    const int lows = sh->lows_per_worker * (sh->workers - 1);
    spin_until([&] { return sh->highs_unstarted.load() == 0 || sh->lows_run.load() == lows; });
  }
};

TYPED_TEST(TaskPriorityOrder, NoLowTaskStartsWhileAHighTaskIsReadyElsewhere) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  const int workers = TypeParam().concurrency();
  if (workers < 2) GTEST_SKIP() << "one worker: the order is the local one (TestTaskScheduler)";
  if (Kokkos::Experimental::task_team_size() != 1) GTEST_SKIP() << "needs task teams of one worker";
  S sched(typename S::memory_space(), 1 << 20, 64, 1024, 4096);
  for (int round = 0; round < 20; ++round) {
    Shared sh;
    sh.workers = workers;
    sh.highs = 16 * workers;
    for (int i = 1; i < workers; ++i)
      ASSERT_FALSE(Kokkos::host_spawn(Kokkos::TaskSingle(sched), Blocker<S>{sched, &sh}).is_null());
    ASSERT_FALSE(Kokkos::host_spawn(Kokkos::TaskSingle(sched), Root<S>{sched, &sh}).is_null());
    Kokkos::wait(sched);
    EXPECT_EQ(sh.lows_run.load(), sh.lows_per_worker * (workers - 1));
    EXPECT_EQ(sh.highs_unstarted.load(), 0);
    EXPECT_EQ(sh.lows_behind_ready_high.load(), 0)
        << "round " << round << ": a Low task started with " << sh.worst_unstarted_at_low.load() << " of "
        << sh.highs << " High tasks ready (" << workers << " workers)";
  }
}

// The priorities still order one worker's tasks when no Low task exists (the private stacks
// stay in use then) and once Low tasks exist (every ready task public): a DAG of both kinds
// completes with the right results on every worker count.
template <class S>
struct Tree {
  S sched;
  int depth;
  std::atomic<long>* leaves;
  void operator()(typename S::member_type&) {
    if (depth == 0) {
      leaves->fetch_add(1);
      return;
    }
    for (auto p : {Kokkos::TaskPriority::High, Kokkos::TaskPriority::Low, Kokkos::TaskPriority::Regular})
      (void)Kokkos::task_spawn(Kokkos::TaskSingle(sched, p), Tree{sched, depth - 1, leaves});
  }
};

TYPED_TEST(TaskPriorityOrder, MixedPriorityTreeCompletes) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  S sched(typename S::memory_space(), 1 << 22, 64, 1024, 4096);
  for (int round = 0; round < 5; ++round) {
    std::atomic<long> leaves{0};
    (void)Kokkos::host_spawn(Kokkos::TaskSingle(sched), Tree<S>{sched, 7, &leaves});
    Kokkos::wait(sched);
    EXPECT_EQ(leaves.load(), 2187);
    EXPECT_EQ(sched.allocated_task_count(), 0);
  }
}

}  // namespace

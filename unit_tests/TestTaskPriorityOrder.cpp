// Seed 001 §2.3.3: the ready queues are ordered by priority for the whole scheduler, so no
// worker of a TaskScheduler starts a Regular or Low task while a High task is ready on any
// worker (nor a Low task while a Regular one is).  Deterministic: workers are blocked and released by handshakes,
// never by timing.  ctest runs it on 2 and 4 threads.
#include "TestCommon.hpp"

#include <Kokkos_TaskScheduler.hpp>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

template <class Space>
struct TaskPriorityOrder : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TaskPriorityOrder, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

using Kokkos::TaskPriority;

struct Shared {
  int workers = 0;
  std::vector<TaskPriority> queued;  // what each blocked worker queues on itself, in order
  int highs = 0;
  TaskPriority host_priority = TaskPriority::Regular;  // of the Root and Blocker tasks
  std::atomic<int> started{0};         // Blockers running
  std::atomic<bool> highs_spawned{false};
  std::atomic<int> arrived{0};         // Blockers that queued their tasks
  std::atomic<bool> released{false};
  std::atomic<int> returned{0};        // Blockers that returned
  std::atomic<int> highs_unstarted{0};
  std::atomic<int> lower_run{0};
  std::atomic<int> lower_behind_ready_high{0};
  std::atomic<int> worst_unstarted_at_lower{0};
  int lower_total() const { return static_cast<int>(queued.size()) * (workers - 1); }
};

void spin_until(const std::function<bool()>& done) {
  while (!done()) std::this_thread::yield();
}

// A Regular or Low task: every High task was taken before it started; at most the other
// workers, one each, may have taken one and not yet entered it.
template <class S>
struct LowerTask {
  Shared* sh;
  void operator()(typename S::member_type&) {
    const int unstarted = sh->highs_unstarted.load();
    if (unstarted > sh->workers - 1) sh->lower_behind_ready_high.fetch_add(1);
    int w = sh->worst_unstarted_at_lower.load();
    while (unstarted > w && !sh->worst_unstarted_at_lower.compare_exchange_weak(w, unstarted)) {
    }
    sh->lower_run.fetch_add(1);
  }
};

template <class S>
struct HighTask {
  Shared* sh;
  void operator()(typename S::member_type&) { sh->highs_unstarted.fetch_sub(1); }
};

template <class S>
void spawn_highs(const S& sched, Shared* sh) {
  sh->highs_unstarted.store(sh->highs);
  for (int i = 0; i < sh->highs; ++i)
    (void)Kokkos::task_spawn(Kokkos::TaskSingle(sched, TaskPriority::High), HighTask<S>{sh});
}

// Holds one worker: queues its own Regular/Low tasks there, then blocks until released.
template <class S>
struct Blocker {
  S sched;
  Shared* sh;
  void operator()(typename S::member_type&) {
    sh->started.fetch_add(1);
    for (TaskPriority p : sh->queued) (void)Kokkos::task_spawn(Kokkos::TaskSingle(sched, p), LowerTask<S>{sh});
    sh->arrived.fetch_add(1);
    spin_until([&] { return sh->released.load(); });
    sh->returned.fetch_add(1);
  }
};

// Runs beside a Blocker on every other worker (the host spawns them all, so each worker takes
// one), queues the High tasks on its own worker, releases the blockers and stays busy until
// every High task started: the released workers, each with Regular/Low tasks of its own, must
// take the High tasks from this worker first.
template <class S>
struct Root {
  S sched;
  Shared* sh;
  void operator()(typename S::member_type&) {
    spin_until([&] { return sh->arrived.load() == sh->workers - 1; });
    spawn_highs(sched, sh);
    sh->released.store(true);
    // (A scheduler without the cross-worker order runs the other tasks first: stop then too,
    // so that it fails the check instead of hanging.)
    spin_until([&] { return sh->highs_unstarted.load() == 0 || sh->lower_run.load() == sh->lower_total(); });
  }
};

// The High tasks sit in this worker's private stack: it queues them while High is the only
// priority seen (Root and Blockers are High tasks), before the blockers queue their Regular
// tasks, and it stays busy (no push, no pop) while the blockers return.  They must take the
// High tasks this worker published (the stack overflowed into its deque) and then wait for the
// private ones, which this worker publishes at its next pop, after returning.
template <class S>
struct PrivateRoot {
  S sched;
  Shared* sh;
  void operator()(typename S::member_type&) {
    spin_until([&] { return sh->started.load() == sh->workers - 1; });
    spawn_highs(sched, sh);
    sh->released.store(true);
    spin_until([&] { return sh->returned.load() == sh->workers - 1; });
    // The blockers' workers have taken every published High task (or, without the order, run
    // their own tasks) before this worker publishes the private ones.
    spin_until([&] {
      return sh->highs_unstarted.load() <= static_cast<int>(Kokkos::Impl::TaskStack::capacity) ||
             sh->lower_run.load() == sh->lower_total();
    });
  }
};

// Private-High scenario: the Blockers wait for the High tasks before queueing their own.
template <class S>
struct LateBlocker {
  S sched;
  Shared* sh;
  void operator()(typename S::member_type&) {
    sh->started.fetch_add(1);
    spin_until([&] { return sh->released.load(); });
    for (TaskPriority p : sh->queued) (void)Kokkos::task_spawn(Kokkos::TaskSingle(sched, p), LowerTask<S>{sh});
    sh->returned.fetch_add(1);
  }
};

const char* name(TaskPriority p) {
  return p == TaskPriority::High ? "High" : p == TaskPriority::Regular ? "Regular" : "Low";
}

template <class Space, class S = Kokkos::TaskScheduler<Space>>
void check_order(std::vector<TaskPriority> queued, bool private_highs) {
  const int workers = Space().concurrency();
  if (workers < 2) GTEST_SKIP() << "one worker: the order is the local one (TestTaskScheduler)";
  if (Kokkos::Experimental::task_team_size() != 1) GTEST_SKIP() << "needs task teams of one worker";
  S sched(typename S::memory_space(), 1 << 20, 64, 1024, 4096);
  std::string what;
  for (TaskPriority p : queued) what += std::string(name(p)) + " ";
  for (int round = 0; round < 20; ++round) {
    Shared sh;
    sh.workers = workers;
    sh.queued = queued;
    sh.highs = 16 * workers;
    const auto prio = private_highs ? TaskPriority::High : TaskPriority::Regular;
    for (int i = 1; i < workers; ++i) {
      auto f = private_highs ? Kokkos::host_spawn(Kokkos::TaskSingle(sched, prio), LateBlocker<S>{sched, &sh})
                             : Kokkos::host_spawn(Kokkos::TaskSingle(sched, prio), Blocker<S>{sched, &sh});
      ASSERT_FALSE(f.is_null());
    }
    auto f = private_highs ? Kokkos::host_spawn(Kokkos::TaskSingle(sched, prio), PrivateRoot<S>{sched, &sh})
                           : Kokkos::host_spawn(Kokkos::TaskSingle(sched, prio), Root<S>{sched, &sh});
    ASSERT_FALSE(f.is_null());
    Kokkos::wait(sched);
    EXPECT_EQ(sh.lower_run.load(), sh.lower_total());
    EXPECT_EQ(sh.highs_unstarted.load(), 0);
    EXPECT_EQ(sh.lower_behind_ready_high.load(), 0)
        << "round " << round << ": a task of " << what << "started with " << sh.worst_unstarted_at_lower.load()
        << " of " << sh.highs << " High tasks ready (" << workers << " workers"
        << (private_highs ? ", High tasks in a private stack)" : ")");
    if (sh.lower_behind_ready_high.load() != 0) break;
  }
}

TYPED_TEST(TaskPriorityOrder, NoLowTaskStartsWhileAHighTaskIsReadyElsewhere) {
  check_order<TypeParam>(std::vector<TaskPriority>(4, TaskPriority::Low), false);
}

TYPED_TEST(TaskPriorityOrder, NoRegularTaskStartsWhileAHighTaskIsReadyElsewhere) {
  check_order<TypeParam>(std::vector<TaskPriority>(4, TaskPriority::Regular), false);
  check_order<TypeParam, Kokkos::DeprecatedTaskScheduler<TypeParam>>(std::vector<TaskPriority>(4, TaskPriority::Regular),
                                                                     false);
}

TYPED_TEST(TaskPriorityOrder, NoRegularOrLowTaskStartsWhileAHighTaskIsReadyElsewhere) {
  check_order<TypeParam>({TaskPriority::Low, TaskPriority::Regular, TaskPriority::Low, TaskPriority::Regular}, false);
}

// Kokkos' multiple-queue schedulers order High and Regular per worker (as Kokkos' per-team
// queues do), Low tasks still scheduler-wide.
TYPED_TEST(TaskPriorityOrder, MultipleQueueSchedulersStartNoLowTaskWhileAHighTaskIsReadyElsewhere) {
  check_order<TypeParam, Kokkos::TaskSchedulerMultiple<TypeParam>>(std::vector<TaskPriority>(4, TaskPriority::Low),
                                                                   false);
  check_order<TypeParam, Kokkos::ChaseLevTaskScheduler<TypeParam>>(std::vector<TaskPriority>(4, TaskPriority::Low),
                                                                   false);
}

// The High tasks wait in the private stack of a busy worker that has not published them.
TYPED_TEST(TaskPriorityOrder, NoRegularTaskStartsWhileAHighTaskIsReadyInAPrivateStack) {
  check_order<TypeParam>(std::vector<TaskPriority>(4, TaskPriority::Regular), true);
}

TYPED_TEST(TaskPriorityOrder, NoLowTaskStartsWhileAHighTaskIsReadyInAPrivateStack) {
  check_order<TypeParam>({TaskPriority::Regular, TaskPriority::Low, TaskPriority::Low}, true);
  check_order<TypeParam>({TaskPriority::Low, TaskPriority::Low}, true);
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

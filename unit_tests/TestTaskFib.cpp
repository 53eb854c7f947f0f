// The seed's naive Fibonacci (seed 001 Figure 3.4) on every back end and every scheduler name,
// for n = 0..26, in the memory the issue allows (27*27*64000 bytes, blocks 64..1024, 4096-byte
// superblocks): depth-first scheduling keeps the live tasks within that pool.
//
// The functor (TaskFibonacci.hpp) reports a full pool as its value, which fails the test.
#include "TaskFibonacci.hpp"
#include "TestCommon.hpp"

#include <Kokkos_TaskScheduler.hpp>

namespace {

using Kokkos::Test::serial_fibonacci;
template <class Scheduler>
using Fibonacci = Kokkos::Test::TaskFibonacci<Scheduler>;

template <class Scheduler>
void run_fib_range(int max_n) {
  using memory_space = typename Scheduler::memory_space;
  Scheduler sched(memory_space(), 27 * 27 * 64000, 64, 1024, 4096);
  for (int n = 0; n <= max_n; ++n) {
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fibonacci<Scheduler>(sched, n));
    ASSERT_FALSE(f.is_null());
    Kokkos::wait(sched);
    ASSERT_TRUE(f.is_ready());
    ASSERT_NE(f.get(), Fibonacci<Scheduler>::out_of_memory) << "n = " << n << ": a task_spawn found the pool full";
    ASSERT_EQ(f.get(), serial_fibonacci(n)) << "n = " << n;
  }
  EXPECT_EQ(sched.queue().allocation_count(), 0);
}

template <class Space>
struct TaskFib : Kokkos::Test::SpaceTest<Space> {};
// Kokkos::Cuda included: the same functor runs on the GPU scheduler (Cuda/Kokkos_Cuda_Task.hpp).
TYPED_TEST_SUITE(TaskFib, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(TaskFib, TaskScheduler) { run_fib_range<Kokkos::TaskScheduler<TypeParam>>(26); }
TYPED_TEST(TaskFib, TaskSchedulerMultiple) { run_fib_range<Kokkos::TaskSchedulerMultiple<TypeParam>>(26); }
TYPED_TEST(TaskFib, ChaseLevTaskScheduler) { run_fib_range<Kokkos::ChaseLevTaskScheduler<TypeParam>>(26); }
TYPED_TEST(TaskFib, DeprecatedTaskScheduler) { run_fib_range<Kokkos::DeprecatedTaskScheduler<TypeParam>>(26); }
TYPED_TEST(TaskFib, DeprecatedTaskSchedulerMultiple) {
  run_fib_range<Kokkos::DeprecatedTaskSchedulerMultiple<TypeParam>>(26);
}

// The seed's own spelling: Future<long, Space>, a pool constructed first, then the scheduler.
// The pool is Kokkos' own test sizing for fib(n), (n+1)^2 * 64000 bytes, which holds fib(20)'s
// whole tree of 21891 tasks and 10945 when_all aggregates at once: the live tasks grow with the
// workers (each running task holds its children and their aggregate), and the 1 MiB that a few
// host threads need ran out under the ~4000 warps of an H200.
TYPED_TEST(TaskFib, SeedSpelling) {
  using sched_t = Kokkos::TaskScheduler<TypeParam>;
  using future_t = Kokkos::Future<long, TypeParam>;
  static_assert(std::is_same_v<future_t, typename sched_t::template future_type<long>>);
  static_assert(std::is_same_v<Kokkos::Future<TypeParam, long>, future_t>);
  constexpr long n = 20;
  typename sched_t::memory_pool pool(typename sched_t::memory_space(), (n + 1) * (n + 1) * 64000, 64, 1024, 4096);
  sched_t sched(pool);
  EXPECT_NE(sched.memory(), nullptr);
  future_t f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fibonacci<sched_t>(sched, n));
  Kokkos::wait(sched);
  EXPECT_NE(f.get(), Fibonacci<sched_t>::out_of_memory) << "a task_spawn found the pool full";
  EXPECT_EQ(f.get(), 6765);
}

// Experimental::task_dag_statistics on every back end, the GPU's included: the DAG's shape fixes
// every count but the steals.  On the GPU, also where its workers' time went (the queue's
// per-shard counters): every spawn and every respawn ran once, in batches of at most a warp.
TYPED_TEST(TaskFib, StatisticsCountTheDag) {
  using sched_t = Kokkos::TaskScheduler<TypeParam>;
  sched_t sched(typename sched_t::memory_space(), 27 * 27 * 64000, 64, 1024, 4096);
  constexpr long n = 15;
  const long tasks = 2 * serial_fibonacci(n + 1) - 1, inner = (tasks - 1) / 2;
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fibonacci<sched_t>(sched, n));
  Kokkos::wait(sched);
  ASSERT_EQ(f.get(), serial_fibonacci(n));
  const Kokkos::Experimental::TaskDagStatistics st = Kokkos::Experimental::task_dag_statistics(sched);
  EXPECT_EQ(st.schedulers, 1);
  EXPECT_EQ(st.tasks_spawned, tasks);
  EXPECT_EQ(st.respawns, inner);
  EXPECT_EQ(st.when_all_aggregates, inner);
  EXPECT_EQ(st.spawn_failures, 0);
  EXPECT_EQ(st.pool_high_water, sched.allocated_task_count_max());
  EXPECT_GE(st.steals, 0);
  EXPECT_LE(st.steals, tasks + inner);
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<TypeParam, Kokkos::Cuda>) {
    const auto total = sched.queue().host_totals();
    EXPECT_EQ(total.tasks_run, tasks + inner);
    EXPECT_EQ(total.team_tasks_run, 0);
    EXPECT_LE(total.batches, total.tasks_run);
    EXPECT_GE(total.batches * 32, total.tasks_run);
    EXPECT_EQ(total.steals, st.steals);
    EXPECT_GT(total.run_ns, 0);
    EXPECT_GT(sched.queue().m_workers, 0);
  }
#endif
}

}  // namespace

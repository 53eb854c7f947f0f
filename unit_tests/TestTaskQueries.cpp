// The scheduler's pool-sizing queries (Kokkos 4: spawn_allocation_size, when_all_allocation_size,
// allocation_capacity, allocated_task_count[_max|_accum]) checked against the memory pool's own
// statistics, and the corner cases of seed 001 §3.2.2 (a scheduler over a default-constructed
// pool, memory()), plus the task DAG statistics (Experimental::task_dag_statistics).
#include "TestCommon.hpp"

#include <Kokkos_TaskScheduler.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace {

template <class Space>
struct TaskQueries : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TaskQueries, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

template <class Scheduler>
struct Value {
  using value_type = long;
  long v;
  char padding[100];  // a task bigger than the pool's 64-byte minimum block
  void operator()(typename Scheduler::member_type&, long& r) { r = v; }
};

template <class Pool>
typename Pool::usage_statistics usage(const Pool& pool) {
  typename Pool::usage_statistics s{};
  pool.get_usage_statistics(s);
  return s;
}

// A pool too small for the worker block caches: every task block comes from the pool, so the
// pool's statistics see every allocation.
TYPED_TEST(TaskQueries, MatchThePoolsStatistics) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  using Pool = typename S::memory_pool;
  Pool pool(typename S::memory_space(), 1 << 16, 64, 1024, 4096);
  S sched(pool);
  ASSERT_NE(sched.memory(), nullptr);
  EXPECT_EQ(static_cast<std::size_t>(sched.allocation_capacity()), pool.capacity());
  EXPECT_EQ(sched.allocated_task_count(), 0);
  EXPECT_EQ(sched.allocated_task_count_max(), 0);
  EXPECT_EQ(sched.allocated_task_count_accum(), 0);

  const std::size_t task_block = sched.template spawn_allocation_size<Value<S>>();
  EXPECT_EQ(task_block, sched.spawn_allocation_size(Kokkos::TaskSingle(sched), Value<S>{1, {}}));
  EXPECT_GE(task_block, sizeof(Value<S>));
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Value<S>{7, {}});
  ASSERT_FALSE(f.is_null());
  EXPECT_EQ(usage(*sched.memory()).consumed_bytes, task_block);  // the block the spawn took

  using FL = typename S::template future_type<long>;
  std::vector<FL> held{f};
  for (int i = 0; i < 9; ++i) held.push_back(Kokkos::host_spawn(Kokkos::TaskSingle(sched), Value<S>{i, {}}));
  const std::size_t before = usage(*sched.memory()).consumed_bytes;
  auto all = Kokkos::when_all(held.data(), 10);
  ASSERT_FALSE(all.is_null());
  EXPECT_EQ(usage(*sched.memory()).consumed_bytes - before, sched.when_all_allocation_size(10));
  EXPECT_EQ(sched.when_all_allocation_size(10), pool.allocate_block_size(sched.when_all_allocation_size(10)));
  EXPECT_LT(sched.when_all_allocation_size(2), sched.when_all_allocation_size(100));

  EXPECT_EQ(sched.allocated_task_count(), 11);
  EXPECT_EQ(static_cast<std::size_t>(sched.allocated_task_count()), usage(*sched.memory()).consumed_blocks);
  EXPECT_EQ(sched.allocated_task_count_max(), 11);
  EXPECT_EQ(sched.allocated_task_count_accum(), 11);
  Kokkos::wait(sched);
  EXPECT_EQ(held[0].get(), 7);
  // Completed tasks stay allocated while a future references them.
  EXPECT_EQ(static_cast<std::size_t>(sched.allocated_task_count()), usage(*sched.memory()).consumed_blocks);
  held.clear();
  f = FL();
  all = decltype(all)();
  EXPECT_EQ(sched.allocated_task_count(), 0);
  EXPECT_EQ(usage(*sched.memory()).consumed_blocks, 0u);
  EXPECT_EQ(sched.allocated_task_count_max(), 11);  // the high-water mark stays
  EXPECT_EQ(sched.allocated_task_count_accum(), 11);
  for (int i = 0; i < 3; ++i) (void)Kokkos::host_spawn(Kokkos::TaskSingle(sched), Value<S>{i, {}});
  Kokkos::wait(sched);
  EXPECT_EQ(sched.allocated_task_count(), 0);
  EXPECT_EQ(sched.allocated_task_count_max(), 11);
  EXPECT_EQ(sched.allocated_task_count_accum(), 14);
  // Larger than the largest block: 0, as the pool's allocate_block_size.
  EXPECT_EQ(sched.when_all_allocation_size(1000), 0u);
}

template <class S>
struct Fib {
  using value_type = long;
  S sched;
  long n;
  typename S::template future_type<long> f[2] = {};
  void operator()(typename S::member_type&, long& r) {
    if (n < 2) {
      r = n;
    } else if (f[0].is_null()) {
      f[0] = Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High), Fib{sched, n - 2});
      f[1] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), Fib{sched, n - 1});
      if (f[0].is_null() || f[1].is_null()) Kokkos::abort("Fib: pool exhausted");
      Kokkos::respawn(this, Kokkos::when_all(f, 2), Kokkos::TaskPriority::High);
    } else {
      r = f[0].get() + f[1].get();
    }
  }
};

long fib_tasks(long n) { return n < 2 ? 1 : 1 + fib_tasks(n - 1) + fib_tasks(n - 2); }

// Under every worker count: accum counts exactly the tasks and aggregates of the DAG, the
// high-water mark lies between one root-to-leaf path and all of them (this pool is large
// enough for the worker block caches, whose blocks it includes), and the statistics agree.
TYPED_TEST(TaskQueries, CountsOfAParallelDag) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  S sched(typename S::memory_space(), 1 << 20, 64, 1024, 4096);
  const long n = 15;
  const long tasks = fib_tasks(n), aggregates = (tasks - 1) / 2;
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fib<S>{sched, n});
  Kokkos::wait(sched);
  EXPECT_EQ(f.get(), 610);
  f = decltype(f)();
  EXPECT_EQ(sched.allocated_task_count(), 0);
  EXPECT_EQ(usage(*sched.memory()).consumed_blocks, 0u);  // worker caches gave everything back
  EXPECT_EQ(sched.allocated_task_count_accum(), tasks + aggregates);
  EXPECT_GE(sched.allocated_task_count_max(), 2 * n / 2);  // a root-to-leaf path and its aggregates
  EXPECT_LE(sched.allocated_task_count_max(), tasks + aggregates);
  const auto st = Kokkos::Experimental::task_dag_statistics(sched);
  EXPECT_EQ(st.tasks_spawned, tasks);
  EXPECT_EQ(st.respawns, aggregates);  // every inner node respawns once
  EXPECT_EQ(st.when_all_aggregates, aggregates);
  EXPECT_EQ(st.spawn_failures, 0);
  EXPECT_EQ(st.pool_high_water, sched.allocated_task_count_max());
  // One worker has no one to steal from; several steal each task (or respawned task) at most once.
  if (TypeParam().concurrency() == 1) {
    EXPECT_EQ(st.steals, 0);
  } else {
    EXPECT_GE(st.steals, 0);
    EXPECT_LE(st.steals, tasks + aggregates);
  }
}

// Seed 001 §3.2.2: "memory() ... Returns NULL if the memory pool object was default
// constructed."  Such a scheduler is valid: nothing can be allocated from it, so spawns and
// when_all give null futures (as from a full pool) and wait() returns at once.
TYPED_TEST(TaskQueries, SchedulerOverDefaultConstructedPool) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  S sched{typename S::memory_pool()};
  EXPECT_FALSE(sched.is_null());
  EXPECT_EQ(sched.memory(), nullptr);
  EXPECT_EQ(sched.allocation_capacity(), 0);
  EXPECT_EQ(sched.template spawn_allocation_size<Value<S>>(), 0u);
  EXPECT_EQ(sched.when_all_allocation_size(2), 0u);
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Value<S>{1, {}});
  EXPECT_TRUE(f.is_null());
  using FL = typename S::template future_type<long>;
  EXPECT_TRUE(sched.when_all(2, [](int) { return FL(); }).is_null());
  Kokkos::wait(sched);
  EXPECT_EQ(sched.allocated_task_count(), 0);
  EXPECT_EQ(sched.allocated_task_count_accum(), 0);
  EXPECT_EQ(Kokkos::Experimental::task_dag_statistics(sched).spawn_failures, 2);  // the spawn and the when_all
  // Shared ownership (§3.2.2): copies see the same (absent) pool.
  S copy = sched;
  EXPECT_TRUE(copy == sched);
  EXPECT_EQ(copy.memory(), nullptr);
}

// Seed 001 §3.2.2: memory() of a scheduler made over a pool is that pool (shared: the same
// allocations), and of a default-constructed scheduler is null.
TEST(TaskQueriesSeed, MemoryIsThePoolOrNull) {
  using S = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;
  S empty;
  EXPECT_EQ(empty.memory(), nullptr);
  EXPECT_EQ(empty.allocation_capacity(), 0);
  EXPECT_EQ(empty.allocated_task_count(), 0);
  EXPECT_EQ(empty.allocated_task_count_max(), 0);
  EXPECT_EQ(empty.allocated_task_count_accum(), 0);
  S::memory_pool pool(S::memory_space(), 1 << 16, 64, 1024, 4096);
  S sched(pool);
  ASSERT_NE(sched.memory(), nullptr);
  EXPECT_EQ(sched.memory()->capacity(), pool.capacity());
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Value<S>{3, {}});
  EXPECT_EQ(usage(pool).consumed_blocks, 1u);  // the scheduler allocates from this very pool
  Kokkos::wait(sched);
  EXPECT_EQ(f.get(), 3);
}

// Seed 001 §3.2.2 declares when_all (array form) and both respawn forms static members of the
// scheduler: called through the type, inside a task, they behave as the free functions.
template <class S>
struct StaticForms {
  using value_type = long;
  S sched;
  typename S::template future_type<long> parts[2] = {};
  int runs = 0;
  void operator()(typename S::member_type&, long& r) {
    ++runs;
    if (runs == 1) {
      parts[0] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), Value<S>{20, {}});
      parts[1] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), Value<S>{22, {}});
      S::respawn(this, S::when_all(parts, 2), Kokkos::TaskPriority::High);
    } else if (runs == 2) {
      S::respawn(this, sched, Kokkos::TaskPriority::Low);  // behind nothing: ready at once
    } else {
      r = parts[0].get() + parts[1].get() + runs;
    }
  }
};

TYPED_TEST(TaskQueries, SeedStaticWhenAllAndRespawn) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  S sched(typename S::memory_space(), 1 << 16, 64, 1024, 4096);
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), StaticForms<S>{sched});
  Kokkos::wait(sched);
  EXPECT_EQ(f.get(), 20 + 22 + 3);
  const auto st = Kokkos::Experimental::task_dag_statistics(sched);
  EXPECT_EQ(st.tasks_spawned, 3);
  EXPECT_EQ(st.respawns, 2);
  EXPECT_EQ(st.when_all_aggregates, 1);
  f = decltype(f)();
  EXPECT_EQ(sched.allocated_task_count(), 0);
  EXPECT_EQ(sched.allocated_task_count_accum(), 4);  // three tasks and one aggregate
  EXPECT_EQ(sched.allocated_task_count_max(), 4);    // all alive at once (no worker caches here)
}

// The totals over destroyed schedulers and their printer (what KOKKOS_TASK_STATS=1 prints at
// finalize; ctest checks that output too: TestTaskQueriesStatsPrinter).
TEST(TaskQueriesStatistics, TotalsOverDestroyedSchedulersAndPrinter) {
  using S = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;
  Kokkos::Experimental::reset_task_dag_statistics();
  {
    S sched(S::memory_space(), 1 << 16, 64, 1024, 4096);
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), StaticForms<S>{sched});
    Kokkos::wait(sched);
    EXPECT_EQ(f.get(), 45);
    EXPECT_EQ(Kokkos::Experimental::task_dag_statistics().schedulers, 0);  // counted when destroyed
  }
  const auto t = Kokkos::Experimental::task_dag_statistics();
  EXPECT_EQ(t.schedulers, 1);
  EXPECT_EQ(t.tasks_spawned, 3);
  EXPECT_EQ(t.respawns, 2);
  EXPECT_EQ(t.when_all_aggregates, 1);
  EXPECT_EQ(t.spawn_failures, 0);
  EXPECT_EQ(t.pool_high_water, 4);
  std::ostringstream os;
  Kokkos::Experimental::print_task_dag_statistics(os);
  const std::string text = os.str();
  for (const char* line : {"Kokkos task DAG statistics (1 scheduler)\n", "  tasks spawned            3\n",
                           "  respawns                 2\n", "  when_all aggregates      1\n",
                           "  pool high-water mark     4 blocks\n", "  spawn failures           0\n"})
    EXPECT_NE(text.find(line), std::string::npos) << line << " not in:\n" << text;
  Kokkos::Experimental::reset_task_dag_statistics();
  EXPECT_EQ(Kokkos::Experimental::task_dag_statistics().tasks_spawned, 0);
}

// Seed 001 §3.2.2, wait(): "Requires: Called from host code outside of any Kokkos data parallel
// or task parallel execution."  Both misuses abort with a message naming them.
using TaskQueriesDeathTest = ::testing::Test;
TEST(TaskQueriesDeathTest, SeedWaitOnlyFromHostCode) {
  using S = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;
  if (Kokkos::DefaultHostExecutionSpace().concurrency() < 2)
    GTEST_SKIP() << "one thread: the host space runs a parallel_for inline, outside any parallel region, as Serial does";
  EXPECT_DEATH(
      {
        S s(S::memory_space(), 1 << 16, 64, 1024, 4096);
        Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 1), [&](int) { Kokkos::wait(s); });
      },
      "called from inside a parallel region");
}

}  // namespace

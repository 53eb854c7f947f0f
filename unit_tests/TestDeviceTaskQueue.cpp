// The GPU scheduler's queue (impl/tasking/Kokkos_DeviceTaskQueue.hpp) on host threads
// (DeviceTaskQueueHarness.hpp): Fibonacci with when_all and respawn, its statistics, random DAGs
// (random predecessors, priorities, dynamic children, respawns) against a sequential reference,
// more workers than pool blocks, pool exhaustion, respawn misuse, where ready tasks go (full rings,
// overflow, priorities, a full stage), the pool blocks host code writes (for the GPU
// scheduler to move before its workers start), and the workers' own pool.
#include "DeviceTaskQueueHarness.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace {

using namespace device_task_queue_test;

// Fibonacci(n) spawned by host code and run by `workers` workers; its future (one reference),
// checked, or null where the spawn failed.
TaskBase* run_fibonacci(Queue& q, long n, int workers) {
  TaskBase* f = spawn(q, Fib{n, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
  EXPECT_NE(f, nullptr) << "the root's spawn failed";
  if (f == nullptr) return nullptr;
  run_workers(q, workers);
  EXPECT_TRUE(f->is_complete());
  EXPECT_EQ(result_of(f), serial_fib(n)) << "n = " << n;
  return f;
}

TEST(DeviceTaskQueue, FibonacciWithWhenAllAndRespawn) {
  Pool pool(Kokkos::HostSpace(), 1 << 22, 64, 1024, 1 << 16);
  QueueOnHost q(pool);
  for (long n : {0L, 1L, 2L, 10L, 18L}) {
    TaskBase* f = run_fibonacci(q, n, 4);
    ASSERT_NE(f, nullptr);
    Queue::release_reference(f);
    EXPECT_EQ(q.allocation_count(), 0);
  }
  EXPECT_GT(q.allocation_count_max(), 10);
  EXPECT_EQ(q.spawn_failures(), 0);
}

// Many more workers than a GPU-sized test would give a host (seed 001 §2.3.3: the GPU runs
// thousands of warps): the live tasks grow with the workers, yet the whole tree of fib(18) (8361
// tasks, 4180 aggregates) fits this pool, so nothing may fail, and nothing may leak.
TEST(DeviceTaskQueue, FibonacciWithSixtyFourWorkers) {
  Pool pool(Kokkos::HostSpace(), 1 << 22, 64, 1024, 1 << 16);
  QueueOnHost q(pool);
  TaskBase* f = run_fibonacci(q, 18, 64);
  ASSERT_NE(f, nullptr);
  Queue::release_reference(f);
  EXPECT_EQ(q.allocation_count(), 0);
  EXPECT_EQ(q.spawn_failures(), 0);
  EXPECT_EQ(q.allocation_count_accum(), 8361 + 4180);
  Pool::usage_statistics stats;
  pool.get_usage_statistics(stats);
  EXPECT_EQ(stats.consumed_blocks, 0u);
}

// The statistics and the workers' time, counted per shard and per batch: exact for the DAG's
// shape (every inner call respawns once behind one aggregate; every spawn and respawn runs once),
// within bounds for what depends on the interleaving.
TEST(DeviceTaskQueue, StatisticsAndWorkerTimeOfFibonacci) {
  Pool pool(Kokkos::HostSpace(), 1 << 22, 64, 1024, 1 << 16);
  QueueOnHost q(pool);
  constexpr long n = 18, tasks = 8361, inner = 4180;
  constexpr int batch = 4;
  TaskBase* f = spawn(q, Fib{n, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
  ASSERT_NE(f, nullptr);
  run_workers(q, 16, batch);
  EXPECT_EQ(result_of(f), serial_fib(n));
  Queue::release_reference(f);

  const Kokkos::Experimental::TaskDagStatistics st = q.statistics();
  EXPECT_EQ(st.schedulers, 1);
  EXPECT_EQ(st.tasks_spawned, tasks);
  EXPECT_EQ(st.respawns, inner);
  EXPECT_EQ(st.when_all_aggregates, inner);
  EXPECT_EQ(st.spawn_failures, 0);
  EXPECT_EQ(st.pool_high_water, q.allocation_count_max());
  const Kokkos::Impl::DeviceTaskShardCounters total = q.totals();
  EXPECT_EQ(total.spawned, tasks);
  EXPECT_EQ(total.completed, tasks);
  EXPECT_EQ(total.tasks_run, tasks + inner);
  EXPECT_EQ(total.team_tasks_run, 0);
  EXPECT_GE(total.batches, (tasks + inner + batch - 1) / batch);
  EXPECT_LE(total.batches, tasks + inner);
  EXPECT_GE(total.steals, 0);
  EXPECT_LE(total.steals, total.tasks_run);
  EXPECT_EQ(st.steals, total.steals);
  EXPECT_GT(total.run_ns, 0);
  // Only the root was spawned outside a worker; the rest is the shards'.
  EXPECT_EQ(q.host_counts().spawned, 1);
  EXPECT_EQ(q.host_counts().aggregates, 0);
}

// Outside a worker (host code, no stage): counted at once in the host's counts.
TEST(DeviceTaskQueue, StatisticsOutsideWorkers) {
  Pool pool(Kokkos::HostSpace(), 1 << 20, 64, 1024, 1 << 16);
  QueueOnHost q(pool);
  TaskBase* f = spawn(q, Fib{5, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
  ASSERT_NE(f, nullptr);
  TaskBase* entries[1] = {f};
  TaskBase* all = when_all(q, entries, 1);
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(q.statistics().when_all_aggregates, 1);
  // The root runs here, outside any worker: its respawn is the host's.
  TaskBase* t = q.pop_ready();
  ASSERT_EQ(t, f);
  Queue::begin_execution(t);
  Worker w{&q, t};
  t->m_apply(t, TaskOp::Run, &w);
  q.end_execution(t, [](TaskBase* done) { done->m_apply(done, TaskOp::DestroyClosure, nullptr); });
  EXPECT_EQ(q.host_counts().respawns, 1);
  EXPECT_EQ(q.host_counts().aggregates, 2);  // the test's and the task's
  EXPECT_EQ(q.host_counts().spawned, 3);     // the root and its two children
  EXPECT_EQ(q.totals().batches, 0);
  run_workers(q, 2);
  EXPECT_EQ(result_of(f), 5);
  const auto total = q.totals();
  EXPECT_EQ(total.respawns, 7);  // fib(5)'s inner calls (n >= 2), each once
  EXPECT_EQ(total.spawned, 15);
  EXPECT_EQ(total.aggregates, 7 + 1);
  EXPECT_EQ(total.tasks_run + 1, 15 + 7);  // the root's first run was not a worker's
  Queue::release_reference(all);
  Queue::release_reference(f);
  EXPECT_EQ(q.allocation_count(), 0);
}

// ---- more workers than pool blocks --------------------------------------------------------------
// Each task below the depth limit tries to spawn two children and goes on without the ones the
// pool refuses; nobody waits, so every block in use is a task that will run.  With 64 workers and
// 16 blocks, spawns fail all the time; each attempt must either run exactly once or count one
// failure, and the queue must terminate with every block back in the pool.
struct Spread {
  int depth;
  std::atomic<long>* ran;
  std::atomic<long>* attempts;
  static constexpr int max_depth = 14;

  void operator()(Worker& w, long& result) {
    ran->fetch_add(1, std::memory_order_relaxed);
    result = depth;
    if (depth == max_depth) return;
    for (int c = 0; c < 2; ++c) {
      attempts->fetch_add(1, std::memory_order_relaxed);
      Queue::release_reference(
          spawn(*w.queue, Spread{depth + 1, ran, attempts}, Kokkos::TaskPriority(c + 1), nullptr));
    }
  }
};

TEST(DeviceTaskQueue, SixtyFourWorkersOnSixteenBlocks) {
  Pool pool(Kokkos::HostSpace(), 1 << 11, 128, 128, 1 << 11);
  QueueOnHost q(pool);
  ASSERT_EQ(pool.capacity(), std::size_t(1) << 11);
  std::atomic<long> ran{0}, attempts{1};
  for (int round = 0; round < 4; ++round) {
    TaskBase* root = spawn(q, Spread{0, &ran, &attempts}, Kokkos::TaskPriority::High, nullptr);
    ASSERT_NE(root, nullptr);
    run_workers(q, round == 0 ? 1 : 64);
    ASSERT_TRUE(root->is_complete());
    EXPECT_EQ(result_of(root), 0);
    Queue::release_reference(root);
    EXPECT_EQ(q.allocation_count(), 0) << "round " << round;
    // One worker reports every block's allocation and free in order: its high-water mark is
    // exact at its batches' ends, and so within the pool (with many, a batch can report
    // allocations whose frees another worker has not reported yet).
    if (round == 0) {
      EXPECT_LE(q.allocation_count_max(), 16);
    }
    if (round < 3) attempts.fetch_add(1);  // the next root
  }
  EXPECT_EQ(ran.load(), q.allocation_count_accum()) << "every allocated task ran exactly once";
  EXPECT_EQ(ran.load() + q.spawn_failures(), attempts.load()) << "every attempt ran or failed";
  EXPECT_LE(q.allocation_count_max(), q.allocation_count_accum());
  EXPECT_GT(ran.load(), 4 * 15) << "the workers never found a free block";
  Pool::usage_statistics stats;
  pool.get_usage_statistics(stats);
  EXPECT_EQ(stats.consumed_blocks, 0u);
}

TEST(DeviceTaskQueue, RandomDagsAgainstSequentialReference) {
  Pool pool(Kokkos::HostSpace(), 1 << 23, 64, 1024, 1 << 16);
  QueueOnHost q(pool);
  std::mt19937 rng(20261127);
  for (int round = 0; round < 40; ++round) random_dag_round(q, rng, 500, 1 + round % 4);
  Pool::usage_statistics stats;
  pool.get_usage_statistics(stats);
  EXPECT_EQ(stats.consumed_blocks, 0u);
}

// ---- what host code wrote, for the GPU scheduler to move before its workers start ---------------
using HostSpan = std::pair<std::uintptr_t, std::size_t>;

std::vector<HostSpan> take_host_written(Queue& q) {
  std::vector<HostSpan> spans;
  q.m_host_written.take([&](const void* p, std::size_t bytes) { spans.emplace_back(std::uintptr_t(p), bytes); });
  return spans;
}

bool covered(const std::vector<HostSpan>& spans, const HostSpan& block) {
  return std::any_of(spans.begin(), spans.end(), [&](const HostSpan& s) {
    return s.first <= block.first && block.first + block.second <= s.first + s.second;
  });
}

HostSpan block_of(const TaskBase* t) { return {std::uintptr_t(t), std::size_t(t->m_alloc_size)}; }

// Host code's allocations (its spawns and aggregates) and its frees (futures released last on
// the host) are recorded; what the workers allocate and free is not.
TEST(DeviceTaskQueue, HostCodeRecordsTheBlocksItAllocatesAndFrees) {
  Pool pool(Kokkos::HostSpace(), 1 << 22, 64, 1024, 1 << 16);
  QueueOnHost q(pool);
  EXPECT_TRUE(q.m_host_written.empty());
  const long ns[] = {3, 7, 12};
  std::vector<TaskBase*> fibs;
  for (long n : ns) fibs.push_back(spawn(q, Fib{n, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr));
  TaskBase* all = when_all(q, fibs.data(), int(fibs.size()));
  ASSERT_NE(all, nullptr);
  const std::vector<HostSpan> spawned = take_host_written(q);
  for (TaskBase* f : fibs) EXPECT_TRUE(covered(spawned, block_of(f)));
  EXPECT_TRUE(covered(spawned, block_of(all)));
  EXPECT_TRUE(q.m_host_written.empty()) << "taken spans are forgotten";

  run_workers(q, 4);
  EXPECT_GT(q.allocation_count_accum(), 100) << "the workers allocated and freed blocks of their own";
  EXPECT_TRUE(q.m_host_written.empty()) << "the workers' blocks are not the host's";

  std::vector<HostSpan> released;
  for (std::size_t i = 0; i < fibs.size(); ++i) {
    EXPECT_EQ(result_of(fibs[i]), serial_fib(ns[i]));
    released.push_back(block_of(fibs[i]));
    Queue::release_reference(fibs[i]);
  }
  released.push_back(block_of(all));
  Queue::release_reference(all);
  EXPECT_EQ(q.allocation_count(), 0);
  const std::vector<HostSpan> freed = take_host_written(q);
  for (const HostSpan& b : released) EXPECT_TRUE(covered(freed, b));
}

// ---- the workers' own pool (device memory on a GPU: set_task_worker_memory) ---------------------
bool worker_block(const TaskBase* t) { return (t->m_flags & Queue::flag_worker_block) != 0; }

std::size_t consumed_blocks(const Pool& pool) {
  Pool::usage_statistics stats;
  pool.get_usage_statistics(stats);
  return stats.consumed_blocks;
}

// Run by a worker: spawns three leaves and their when_all, notes what each pool holds then
// (read on the one worker thread of the run, the only thread using the pools), and respawns
// behind the aggregate; then sums the leaves.  It hands one more reference to the first leaf to
// the host through `kept`.
struct WorkerPoolProbe {
  struct Seen {
    std::size_t worker_pool_blocks = 0, queue_pool_blocks = 0;
    int children_marked = 0;
    bool aggregate_marked = false, self_marked = true;
    TaskBase* kept = nullptr;
  };
  const Pool* queue_pool;
  const Pool* worker_pool;
  Seen* seen;
  TaskBase* child[3];

  void operator()(Worker& w, long& result) {
    if (child[0] != nullptr) {
      result = 0;
      for (TaskBase*& c : child) {
        result += result_of(c);
        Queue::release_reference(c);
        c = nullptr;
      }
      return;
    }
    for (int i = 0; i < 3; ++i) {
      child[i] = spawn(*w.queue, DagNode::Leaf{i + 1}, Kokkos::TaskPriority::Regular, nullptr);
      if (child[i] == nullptr) Kokkos::abort("WorkerPoolProbe: the worker pool ran out");
    }
    TaskBase* all = when_all(*w.queue, child, 3);
    if (all == nullptr) Kokkos::abort("WorkerPoolProbe: no room for the aggregate");
    seen->worker_pool_blocks = consumed_blocks(*worker_pool);
    seen->queue_pool_blocks = consumed_blocks(*queue_pool);
    for (TaskBase* c : child) seen->children_marked += worker_block(c) ? 1 : 0;
    seen->aggregate_marked = worker_block(all);
    seen->self_marked = worker_block(w.current);
    child[0]->add_ref();
    seen->kept = child[0];
    if (!Queue::request_respawn(w.current, Kokkos::TaskPriority::Regular, all)) Kokkos::abort("respawn refused");
  }
};

// Host code's spawns come from the queue's pool, a worker's spawns and aggregates from the
// worker pool, and each block goes back to the pool it came from, wherever it is freed; a
// worker block freed by host code is not recorded as the host's to place.
TEST(DeviceTaskQueue, WorkersAllocateFromTheWorkerPoolAndHostCodeFromTheQueuesPool) {
  Pool queue_pool(Kokkos::HostSpace(), 1 << 16, 64, 1024, 1 << 12);
  Pool worker_pool(Kokkos::HostSpace(), 1 << 16, 64, 1024, 1 << 12);
  QueueOnHost q(queue_pool);
  ASSERT_TRUE(q.set_worker_pool(worker_pool));
  WorkerPoolProbe::Seen seen;
  TaskBase* f = spawn(q, WorkerPoolProbe{&queue_pool, &worker_pool, &seen, {nullptr, nullptr, nullptr}},
                      Kokkos::TaskPriority::Regular, nullptr);
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(worker_block(f));
  EXPECT_EQ(consumed_blocks(worker_pool), 0u);
  run_workers(q, 1, 1);
  ASSERT_TRUE(f->is_complete());
  EXPECT_EQ(result_of(f), 1 + 2 + 3);
  EXPECT_FALSE(seen.self_marked);
  EXPECT_EQ(seen.children_marked, 3);
  EXPECT_TRUE(seen.aggregate_marked);
  EXPECT_EQ(seen.worker_pool_blocks, 4u) << "three leaves and their aggregate";
  EXPECT_EQ(seen.queue_pool_blocks, 1u) << "the host's spawn alone";
  EXPECT_EQ(consumed_blocks(worker_pool), 1u) << "the leaf whose reference the host holds";
  take_host_written(q);
  Queue::release_reference(seen.kept);
  EXPECT_EQ(consumed_blocks(worker_pool), 0u);
  EXPECT_TRUE(take_host_written(q).empty()) << "a worker block is not the host's to place";
  Queue::release_reference(f);
  EXPECT_EQ(consumed_blocks(queue_pool), 0u);
  EXPECT_EQ(q.allocation_count(), 0);
}

// Many workers on both pools: Fibonacci's tasks and aggregates, all but the root from the
// worker pool, all given back.
TEST(DeviceTaskQueue, FibonacciOnTheWorkerPoolWithSixteenWorkers) {
  Pool queue_pool(Kokkos::HostSpace(), 1 << 14, 64, 1024, 1 << 12);
  Pool worker_pool(Kokkos::HostSpace(), 1 << 22, 64, 1024, 1 << 16);
  QueueOnHost q(queue_pool);
  ASSERT_TRUE(q.set_worker_pool(worker_pool));
  TaskBase* f = run_fibonacci(q, 16, 16);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(q.spawn_failures(), 0);
  EXPECT_EQ(q.allocation_count_accum(), 3193 + 1596) << "2 F(17) - 1 tasks, F(17) - 1 aggregates";
  EXPECT_EQ(consumed_blocks(worker_pool), 0u);
  EXPECT_EQ(consumed_blocks(queue_pool), 1u) << "the root, until its future goes";
  Queue::release_reference(f);
  EXPECT_EQ(consumed_blocks(queue_pool), 0u);
  EXPECT_EQ(q.allocation_count(), 0);
}

// Spawns leaves from a worker until one is refused; the result is how many succeeded.
struct SpawnUntilRefused {
  void operator()(Worker& w, long& result) {
    result = 0;
    while (TaskBase* leaf = spawn(*w.queue, DagNode::Leaf{1}, Kokkos::TaskPriority::Regular, nullptr)) {
      Queue::release_reference(leaf);  // the queue's hold keeps it until it ran
      if (++result == 100000) return;
    }
  }
};

// The worker pool bounds the workers' spawns on its own: the one worker's leaves cannot run
// before its batch ends, so exactly the worker pool's blocks succeed, while the queue's pool,
// larger, holds only the host's spawn.
TEST(DeviceTaskQueue, AWorkerSpawnIntoAFullWorkerPoolIsNullWhileTheQueuesPoolHasRoom) {
  Pool queue_pool(Kokkos::HostSpace(), 1 << 16, 64, 128, 1 << 12);
  Pool worker_pool(Kokkos::HostSpace(), 1 << 13, 64, 128, 1 << 12);
  QueueOnHost q(queue_pool);
  ASSERT_TRUE(q.set_worker_pool(worker_pool));
  for (int round = 0; round < 2; ++round) {
    TaskBase* f = spawn(q, SpawnUntilRefused{}, Kokkos::TaskPriority::Regular, nullptr);
    ASSERT_NE(f, nullptr);
    run_workers(q, 1, 1);
    ASSERT_TRUE(f->is_complete());
    EXPECT_EQ(result_of(f), (1 << 13) / 128) << "round " << round;
    EXPECT_EQ(q.spawn_failures(), round + 1);
    Queue::release_reference(f);
    EXPECT_EQ(q.allocation_count(), 0);
    EXPECT_EQ(consumed_blocks(worker_pool), 0u);
  }
}

// The worker pool changes only while no block is alive; empty, the workers share the queue's.
TEST(DeviceTaskQueue, TheWorkerPoolChangesOnlyWhileNoBlockIsAlive) {
  Pool queue_pool(Kokkos::HostSpace(), 1 << 20, 64, 1024, 1 << 16);
  Pool worker_pool(Kokkos::HostSpace(), 1 << 20, 64, 1024, 1 << 16);
  QueueOnHost q(queue_pool);
  ASSERT_TRUE(q.set_worker_pool(worker_pool));
  TaskBase* f = spawn(q, Fib{10, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(q.set_worker_pool(Pool())) << "the host's spawn is alive";
  run_workers(q, 3);
  EXPECT_FALSE(q.set_worker_pool(Pool())) << "its future still holds it";
  EXPECT_EQ(q.m_worker_pool, worker_pool);
  EXPECT_EQ(result_of(f), serial_fib(10));
  Queue::release_reference(f);
  ASSERT_TRUE(q.set_worker_pool(Pool()));
  EXPECT_EQ(q.m_worker_pool.capacity(), 0u);
  WorkerPoolProbe::Seen seen;
  f = spawn(q, WorkerPoolProbe{&queue_pool, &worker_pool, &seen, {nullptr, nullptr, nullptr}},
            Kokkos::TaskPriority::Regular, nullptr);
  ASSERT_NE(f, nullptr);
  run_workers(q, 1, 1);
  EXPECT_EQ(result_of(f), 6);
  EXPECT_EQ(seen.children_marked, 0);
  EXPECT_FALSE(seen.aggregate_marked);
  EXPECT_EQ(seen.worker_pool_blocks, 0u);
  EXPECT_EQ(seen.queue_pool_blocks, 5u) << "the root, three leaves and their aggregate";
  Queue::release_reference(seen.kept);
  Queue::release_reference(f);
  EXPECT_EQ(q.allocation_count(), 0);
  EXPECT_EQ(consumed_blocks(queue_pool), 0u);
}

// ---- exhaustion: a null future, nothing corrupted -----------------------------------------------
TEST(DeviceTaskQueue, PoolExhaustionGivesNullAndRecovers) {
  Pool pool(Kokkos::HostSpace(), 1 << 14, 64, 128, 1 << 12);
  QueueOnHost q(pool);
  std::vector<TaskBase*> spawned;
  while (true) {
    TaskBase* f = spawn(q, DagNode::Leaf{long(spawned.size())}, Kokkos::TaskPriority::Regular, nullptr);
    if (f == nullptr) break;
    spawned.push_back(f);
    ASSERT_LT(spawned.size(), 1000u) << "the pool never ran out";
  }
  EXPECT_EQ(int(spawned.size()), (1 << 14) / 128);
  EXPECT_EQ(q.spawn_failures(), 1);
  std::vector<TaskBase*> none(2, nullptr);
  EXPECT_EQ(when_all(q, spawned.data(), 2), nullptr) << "a when_all from a full pool is null";
  run_workers(q, 3);
  for (std::size_t i = 0; i < spawned.size(); ++i) {
    ASSERT_TRUE(spawned[i]->is_complete());
    EXPECT_EQ(result_of(spawned[i]), long(i));
    Queue::release_reference(spawned[i]);
  }
  EXPECT_EQ(q.allocation_count(), 0);
  // An aggregate of null entries only is no aggregate.
  EXPECT_EQ(when_all(q, none.data(), 2), nullptr);
  EXPECT_EQ(q.allocation_count(), 0);
  // The pool works again.
  TaskBase* f = spawn(q, DagNode::Leaf{42}, Kokkos::TaskPriority::High, nullptr);
  ASSERT_NE(f, nullptr);
  run_workers(q, 2);
  EXPECT_EQ(result_of(f), 42);
  Queue::release_reference(f);
}

// A respawn requested twice in one execution is refused.
TEST(DeviceTaskQueue, SecondRespawnRequestIsRefused) {
  Pool pool(Kokkos::HostSpace(), 1 << 14, 64, 128, 1 << 12);
  QueueOnHost q(pool);
  TaskBase* f = spawn(q, DagNode::Leaf{1}, Kokkos::TaskPriority::Regular, nullptr);
  ASSERT_NE(f, nullptr);
  TaskBase* t = q.pop_ready();
  ASSERT_EQ(t, f);
  Queue::begin_execution(t);
  EXPECT_TRUE(Queue::request_respawn(t, Kokkos::TaskPriority::Low, nullptr));
  EXPECT_FALSE(Queue::request_respawn(t, Kokkos::TaskPriority::Low, nullptr));
  q.end_execution(t, [](TaskBase* done) { done->m_apply(done, TaskOp::DestroyClosure, nullptr); });
  EXPECT_EQ(t->m_priority, std::uint8_t(Kokkos::TaskPriority::Low));
  EXPECT_FALSE(q.finished());
  run_workers(q, 1);
  EXPECT_TRUE(f->is_complete());
  Queue::release_reference(f);
  EXPECT_EQ(q.allocation_count(), 0);
}

// ---- where ready tasks go, and the order they are taken in -------------------------------------------
// Runs one popped task to its end on the calling thread (no worker: what it makes ready goes on
// directly).
void run_popped(Queue& q, TaskBase* t) {
  Worker w{&q, t};
  Queue::begin_execution(t);
  t->m_apply(t, TaskOp::Run, &w);
  q.end_execution(t, [](TaskBase* done) { done->m_apply(done, TaskOp::DestroyClosure, nullptr); });
}

// Outside a worker a ready task goes into the first ring with room from shard 0 on, then onto
// its priority's overflow list; taking starts at the highest priority wherever it waits, then
// the home ring, the other shards' rings, the overflow list.
TEST(DeviceTaskQueue, FullRingsSpillToOtherShardsThenOverflowAndPrioritiesComeFirst) {
  Pool pool(Kokkos::HostSpace(), 1 << 16, 64, 256, 1 << 12);
  QueueOnHost q(pool, /*shards=*/2, /*ring_capacity=*/2);
  std::vector<TaskBase*> regular;
  for (long k = 0; k < 5; ++k) regular.push_back(spawn(q, DagNode::Leaf{k}, Kokkos::TaskPriority::Regular, nullptr));
  const int reg = int(Kokkos::TaskPriority::Regular), high = int(Kokkos::TaskPriority::High);
  EXPECT_EQ(q.ring(reg, 0).size(), 2);
  EXPECT_EQ(q.ring(reg, 1).size(), 2) << "a full ring did not spill into the next shard's";
  EXPECT_NE(q.m_overflow[reg].task, nullptr) << "with every ring full, the task did not go onto the overflow list";
  TaskBase* urgent = spawn(q, DagNode::Leaf{100}, Kokkos::TaskPriority::High, nullptr);
  EXPECT_EQ(q.ring(high, 0).size(), 1);
  // From shard 1: High first (in shard 0's ring), then shard 1's own Regular ring, then shard
  // 0's, then the overflow list.
  std::vector<long> order;
  while (TaskBase* t = q.pop_ready(1)) {
    run_popped(q, t);
    order.push_back(result_of(t));  // a leaf's value is its weight; its future still holds it
  }
  ASSERT_EQ(order.size(), 6u);
  EXPECT_EQ(order[0], 100) << "a Regular task was taken before the High one";
  std::vector<long> rest(order.begin() + 1, order.end());
  std::sort(rest.begin(), rest.begin() + 2);
  std::sort(rest.begin() + 2, rest.begin() + 4);
  EXPECT_EQ(rest, (std::vector<long>{2, 3, 0, 1, 4})) << "not home ring, other shard, overflow list in that order";
  EXPECT_TRUE(q.finished());
  for (TaskBase* f : regular) Queue::release_reference(f);
  Queue::release_reference(urgent);
  EXPECT_EQ(q.allocation_count(), 0);
}

// A task that spawns more children in one run than a stage holds (DeviceTaskStage::capacity):
// the excess goes on directly, and every child runs once.
struct Wide {
  int children;
  TaskBase* child[300];

  void operator()(Worker& w, long& result) {
    if (child[0] == nullptr) {
      for (int c = 0; c < children; ++c) {
        child[c] = spawn(*w.queue, DagNode::Leaf{c + 1}, Kokkos::TaskPriority(c % 3), nullptr);
        if (child[c] == nullptr) Kokkos::abort("DeviceTaskQueue wide test: the pool ran out");
      }
      Queue::request_respawn(w.current, Kokkos::TaskPriority::Regular, when_all(*w.queue, child, children));
      return;
    }
    result = 0;
    for (int c = 0; c < children; ++c) {
      result += result_of(child[c]);
      Queue::release_reference(child[c]);
    }
  }
};

TEST(DeviceTaskQueue, MoreChildrenThanAStageHolds) {
  static_assert(300 > Kokkos::Impl::DeviceTaskStage::capacity);
  Pool pool(Kokkos::HostSpace(), 1 << 22, 64, 4096, 1 << 16);
  QueueOnHost q(pool);
  for (int threads : {1, 4}) {
    Wide w{};
    w.children = 300;
    TaskBase* f = spawn(q, w, Kokkos::TaskPriority::High, nullptr);
    ASSERT_NE(f, nullptr);
    run_workers(q, threads);
    ASSERT_TRUE(f->is_complete());
    EXPECT_EQ(result_of(f), 300L * 301 / 2) << threads << " workers";
    Queue::release_reference(f);
    EXPECT_EQ(q.allocation_count(), 0);
  }
  EXPECT_EQ(q.spawn_failures(), 0);
}

}  // namespace

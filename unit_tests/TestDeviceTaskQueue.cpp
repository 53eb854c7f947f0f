// The GPU scheduler's queue (impl/tasking/Kokkos_DeviceTaskQueue.hpp) driven by host threads: the same
// code the CUDA kernel runs, so its concurrency is tested (and run under TSan/ASan) here.
// Random DAGs (random predecessors, priorities, dynamic children, respawns) against a
// sequential reference; Fibonacci with when_all and respawn; pool exhaustion.
#include "TestCommon.hpp"

#include <Kokkos_Core.hpp>
#include <impl/tasking/Kokkos_DeviceTaskQueue.hpp>
#include <impl/tasking/Kokkos_DeviceTaskWorkerGroup.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>
#include <thread>
#include <utility>
#include <vector>

namespace {

using Pool = Kokkos::MemoryPool<Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>>;
using Kokkos::Impl::DeviceTaskStage;
using Kokkos::Impl::TaskBase;
using Kokkos::Impl::TaskKind;
using Kokkos::Impl::TaskOp;

// Host threads stand in for the GPU's warps: a thread's stage, set while it works.
struct HostWorkerContext {
  static DeviceTaskStage*& current() {
    static thread_local DeviceTaskStage* stage = nullptr;
    return stage;
  }
  KOKKOS_INLINE_FUNCTION static DeviceTaskStage* stage() {
    KOKKOS_IF_ON_HOST((return current();))
    KOKKOS_IF_ON_DEVICE((return nullptr;))
  }
  KOKKOS_INLINE_FUNCTION static constexpr bool rings_reachable() { return true; }
};

using Queue = Kokkos::Impl::DeviceTaskQueue<Pool, HostWorkerContext>;

// A queue with its rings and counters in host memory.  Few shards and short rings, so that
// stealing, full rings and the overflow lists all happen in these tests.
class QueueOnHost : public Queue {
  std::vector<Kokkos::Impl::DeviceTaskRing> m_ring_array;
  std::vector<TaskBase*> m_slot_array;
  std::vector<Kokkos::Impl::DeviceTaskShardCounters> m_counter_array;

  static Kokkos::Impl::DeviceTaskQueueStorage storage_for(int shards, std::uint32_t ring_capacity) {
    Kokkos::Impl::DeviceTaskQueueStorage s;
    s.shards = shards;
    s.ring_capacity = ring_capacity;
    return s;
  }

 public:
  explicit QueueOnHost(const Pool& pool, int shards = 4, std::uint32_t ring_capacity = 16)
      : Queue(pool, storage_for(shards, ring_capacity)),
        m_ring_array(std::size_t(Kokkos::Impl::task_priority_count) * shards),
        m_slot_array(Kokkos::Impl::DeviceTaskQueueStorage::slot_count(shards, ring_capacity), nullptr),
        m_counter_array(std::size_t(shards)) {
    m_storage.rings = m_ring_array.data();
    m_storage.slots = m_slot_array.data();
    m_storage.counters = m_counter_array.data();
    Queue::init_rings(m_storage, m_storage.rings);
  }
};

// What a task sees of its worker: the queue and the running task (for respawn).
struct Worker {
  Queue* queue;
  TaskBase* current;
};

template <class Functor>
using Node = Kokkos::Impl::DeviceTaskNode<Functor, long, Worker>;

// A spawned task's future (one reference), or nullptr when the pool is full.  A TaskTeam task
// runs on its worker alone, as a TaskSingle one: what differs is how a claim treats it.
template <class Functor>
TaskBase* spawn(Queue& q, Functor f, Kokkos::TaskPriority priority, TaskBase* dependence,
                TaskKind kind = TaskKind::Single) {
  void* p = q.allocate(sizeof(Node<Functor>));
  if (p == nullptr) {
    Queue::release_reference(dependence);
    return nullptr;
  }
  auto* t = ::new (p) Node<Functor>(f);
  t->m_apply = &Node<Functor>::apply;
  q.init_task(t, sizeof(Node<Functor>), kind, priority, dependence);
  q.spawn(t);
  return t;
}

TaskBase* when_all(Queue& q, TaskBase* const* entries, int n) {
  TaskBase* a = q.begin_aggregate(n);
  if (a == nullptr) return nullptr;
  for (int i = 0; i < n; ++i)
    if (entries[i] != nullptr) Queue::add_aggregate_entry(a, entries[i]);
  return q.finish_aggregate(a);
}

long result_of(TaskBase* t) { return Kokkos::Impl::TaskResult<long>::get(t); }

// Why run_workers stopped early.
constexpr std::uint32_t stop_for_cycle = 2;
constexpr std::uint32_t stop_for_stuck = 3;

// How long idle workers may wait before run_workers gives up on them: far beyond any run here, so
// that only a lost wake-up (an idle worker that never looks again while tasks are ready) reaches
// it, and fails the test instead of hanging it.
constexpr std::chrono::seconds stuck_after{120};

// The workers of one run, as the GPU's warps run: each claims a batch of up to `batch` tasks
// (a warp: 32, one per lane), runs them, stages what they make ready, and flushes the stage,
// until no task is left.  Workers come in groups of `group_size` (a GPU block's warps), group g
// with home shard g mod the shards.  A worker that found nothing either waits for its group's
// scout (DeviceTaskWorkerGroup) or is the scout: after `idle_after` empty looks in a row it
// counts itself idle and then only looks until it sees a ready task; when every worker is
// counted, twice in a row, while tasks are left, it stops the queue (a cycle: the queue's "Idle
// workers and cycles").  Counted idle, a worker looks only right after it counted itself, when it
// takes a wake token, or when every worker is counted (no periodic look, unlike the GPU's: a
// lost wake-up shows here as workers stuck, which fails the test).  Returns whether a cycle
// stopped it.
bool run_workers(Queue& q, int threads, int batch = 4, int idle_after = 4, int group_size = 1) {
  q.begin_run();
  std::vector<Kokkos::Impl::DeviceTaskWorkerGroup> groups(std::size_t((threads + group_size - 1) / group_size));
  for (auto& g : groups) g.reset();
  auto work = [&q, &groups, threads, batch, idle_after, group_size](int rank) {
    Kokkos::Impl::DeviceTaskWorkerGroup& group = groups[std::size_t(rank / group_size)];
    const int member = rank % group_size;
    DeviceTaskStage stage;
    stage.reset((rank / group_size) % q.shards());
    HostWorkerContext::current() = &stage;
    Worker w{&q, nullptr};
    std::vector<TaskBase*> tasks(std::size_t(batch), nullptr);
    bool counted_idle = false, first_idle_look = false;
    int idle_polls = 0, all_idle_looks = 0;
    auto idle_since = std::chrono::steady_clock::now();
    while (!q.stopped()) {
      if (counted_idle) {
        const bool all_idle = q.all_idle(threads);
        const bool look = all_idle || first_idle_look || q.take_wake_token();
        first_idle_look = false;
        if (!look) {
          if (std::chrono::steady_clock::now() - idle_since > stuck_after) q.stop(stop_for_stuck, 0);
          std::this_thread::yield();
          continue;
        }
        if (!q.any_ready()) {
          if (q.finished()) break;
          all_idle_looks = all_idle ? all_idle_looks + 1 : 0;
          if (all_idle_looks >= 2) q.stop(stop_for_cycle, 0);
          std::this_thread::yield();
          continue;
        }
        q.leave_idle();
        counted_idle = false;
        idle_polls = all_idle_looks = 0;
      }
      const Kokkos::Impl::DeviceTaskClaim c = q.claim_ready(stage.shard, batch);
      const int n = c.single != nullptr ? 1 : c.count;
      if (n == 0) {
        if (q.finished()) {
          q.wake_all_idle(threads);
          break;
        }
        std::uint32_t seen = 0;
        if (!group.look_myself(member, seen)) {
          q.enter_idle();
          while (!group.should_look(seen)) std::this_thread::yield();
          q.leave_idle();
          if (group.is_over()) break;
          idle_polls = 0;
          continue;
        }
        if (++idle_polls == idle_after) {
          q.enter_idle();
          counted_idle = first_idle_look = true;
          idle_since = std::chrono::steady_clock::now();
        }
        std::this_thread::yield();
        continue;
      }
      idle_polls = 0;
      group.found_work(member);
      const auto claimed_at = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i) tasks[std::size_t(i)] = Queue::take(c, i);
      const int kept = q.hand_back_extra_teams(tasks.data(), n);
      if (kept != n) q.flush_stage(stage);
      int teams = 0;
      for (int i = 0; i < kept; ++i) teams += tasks[std::size_t(i)]->m_kind == TaskKind::Team ? 1 : 0;
      for (int i = 0; i < kept; ++i) {
        TaskBase* t = tasks[std::size_t(i)];
        Queue::begin_execution(t);
        w.current = t;
        t->m_apply(t, TaskOp::Run, &w);
        w.current = nullptr;
        q.end_execution(t, [](TaskBase* done) { done->m_apply(done, TaskOp::DestroyClosure, nullptr); });
      }
      stage.note_batch(kept, teams, c.stolen,
                       std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - claimed_at).count());
      q.flush_stage(stage);
    }
    q.report_statistics(stage);
    group.end();
    HostWorkerContext::current() = nullptr;
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(work, i);
  work(0);
  for (auto& th : pool) th.join();
  if (q.m_stop == stop_for_stuck) ADD_FAILURE() << "idle workers waited " << stuck_after.count() << " s for a wake-up";
  return q.stopped();
}

// ---- Fibonacci (seed 001 Figure 3.4) ------------------------------------------------------------
struct Fib {
  long n;
  TaskBase* child[2];

  void operator()(Worker& w, long& result) {
    if (n < 2) {
      result = n;
    } else if (child[0] != nullptr) {
      result = result_of(child[0]) + result_of(child[1]);
      Queue::release_reference(child[0]);
      Queue::release_reference(child[1]);
      child[0] = child[1] = nullptr;
    } else {
      child[0] = spawn(*w.queue, Fib{n - 2, {nullptr, nullptr}}, Kokkos::TaskPriority::High, nullptr);
      child[1] = spawn(*w.queue, Fib{n - 1, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
      if (child[0] == nullptr || child[1] == nullptr) Kokkos::abort("DeviceTaskQueue Fib test: the pool ran out");
      TaskBase* all = when_all(*w.queue, child, 2);
      if (!Queue::request_respawn(w.current, Kokkos::TaskPriority::High, all))
        Kokkos::abort("DeviceTaskQueue Fib test: respawn refused");
    }
  }
};

long serial_fib(long n) { return n < 2 ? n : serial_fib(n - 1) + serial_fib(n - 2); }

TEST(DeviceTaskQueue, FibonacciWithWhenAllAndRespawn) {
  Pool pool(Kokkos::HostSpace(), 1 << 22, 64, 1024, 1 << 16);
  QueueOnHost q(pool);
  for (long n : {0L, 1L, 2L, 10L, 18L}) {
    TaskBase* f = spawn(q, Fib{n, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
    ASSERT_NE(f, nullptr);
    run_workers(q, 4);
    ASSERT_TRUE(f->is_complete());
    EXPECT_EQ(result_of(f), serial_fib(n)) << "n = " << n;
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
  constexpr long n = 18;
  TaskBase* f = spawn(q, Fib{n, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
  ASSERT_NE(f, nullptr);
  run_workers(q, 64);
  ASSERT_TRUE(f->is_complete());
  EXPECT_EQ(result_of(f), serial_fib(n));
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

// ---- random DAGs against a sequential reference ---------------------------------------------------
// Node i's value: its own weight + the values of its predecessors + the values of the children
// it spawns (each child's value is its weight); each node may also respawn itself a few times
// with no dependence before it finishes.  It holds a reference on each predecessor until it
// has read its value.
struct DagNode {
  long weight;
  int preds;          // number of predecessor futures below
  int children;       // children to spawn (then respawn behind their when_all)
  int extra_respawns;
  int phase;
  TaskBase* pred[4];
  TaskBase* child[3];

  struct Leaf {
    long weight;
    void operator()(Worker&, long& result) { result = weight; }
  };

  void operator()(Worker& w, long& result) {
    if (phase == 0) {
      result = weight;
      for (int i = 0; i < preds; ++i) {
        if (!pred[i]->is_complete()) Kokkos::abort("DeviceTaskQueue DAG test: a predecessor had not completed");
        result += result_of(pred[i]);
        Queue::release_reference(pred[i]);
        pred[i] = nullptr;
      }
      phase = 1;
      if (children > 0) {
        for (int c = 0; c < children; ++c) {
          child[c] = spawn(*w.queue, Leaf{weight * 7 + c}, Kokkos::TaskPriority(c % 3), nullptr);
          if (child[c] == nullptr) Kokkos::abort("DeviceTaskQueue DAG test: the pool ran out");
        }
        Queue::request_respawn(w.current, Kokkos::TaskPriority::Low, when_all(*w.queue, child, children));
        return;
      }
    }
    if (phase == 1) {
      for (int c = 0; c < children; ++c) {
        result += result_of(child[c]);
        Queue::release_reference(child[c]);
        child[c] = nullptr;
      }
      phase = 2;
    }
    if (extra_respawns > 0) {
      --extra_respawns;
      Queue::request_respawn(w.current, Kokkos::TaskPriority::Regular, nullptr);
    }
  }
};

void random_dag_round(Queue& q, std::mt19937& rng, int nodes, int threads, int group_size = 1) {
  std::vector<TaskBase*> futures(nodes, nullptr);
  std::vector<long> expected(nodes, 0);
  std::uniform_int_distribution<int> coin(0, 99);
  for (int i = 0; i < nodes; ++i) {
    DagNode d{};
    d.weight = 1 + coin(rng);
    d.children = coin(rng) < 30 ? 1 + coin(rng) % 3 : 0;
    d.extra_respawns = coin(rng) < 20 ? 1 + coin(rng) % 2 : 0;
    expected[i] = d.weight;
    for (int c = 0; c < d.children; ++c) expected[i] += d.weight * 7 + c;
    const int want = i == 0 ? 0 : coin(rng) % 5;
    for (int k = 0; k < want && k < 4; ++k) {
      const int j = std::uniform_int_distribution<int>(0, i - 1)(rng);
      d.pred[d.preds++] = futures[j];
      futures[j]->add_ref();
      expected[i] += expected[j];
    }
    // The dependence: none, one predecessor, or the when_all of all of them.
    TaskBase* dep = nullptr;
    if (d.preds == 1) {
      dep = d.pred[0];
      dep->add_ref();
    } else if (d.preds > 1) {
      dep = when_all(q, d.pred, d.preds);
      ASSERT_NE(dep, nullptr);
    }
    futures[i] = spawn(q, d, Kokkos::TaskPriority(coin(rng) % 3), dep);
    ASSERT_NE(futures[i], nullptr);
  }
  run_workers(q, threads, 4, 4, group_size);
  for (int i = 0; i < nodes; ++i) {
    ASSERT_TRUE(futures[i]->is_complete()) << "node " << i;
    EXPECT_EQ(result_of(futures[i]), expected[i]) << "node " << i;
    Queue::release_reference(futures[i]);
  }
  EXPECT_EQ(q.allocation_count(), 0);
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

// ---- workers in groups (a GPU block of several warps) ----------------------------------------------
// The protocol of Kokkos_DeviceTaskWorkerGroup.hpp, step by step on one thread.
TEST(DeviceTaskQueue, GroupScoutRoleAndNews) {
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
TEST(DeviceTaskQueue, GroupWaiterWakesWhenItsScoutGivesUp) {
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
TEST(DeviceTaskQueue, FibonacciInGroupsOfWorkers) {
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

TEST(DeviceTaskQueue, RandomDagsInGroupsOfWorkers) {
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

// ---- waking idle workers ------------------------------------------------------------------------
// Tokens are added per task pushed while a worker is counted idle, and only then; each is taken
// once; a finished DAG wakes every idle worker; a run starts with none.
TEST(DeviceTaskQueue, WakeTokensOnlyWhileWorkersIdle) {
  Pool pool(Kokkos::HostSpace(), 1 << 20, 64, 1024, 1 << 16);
  QueueOnHost q(pool, 2, 64);
  q.begin_run();
  DeviceTaskStage stage;
  stage.reset(0);
  HostWorkerContext::current() = &stage;
  std::vector<TaskBase*> futures;
  const auto spawn_and_flush = [&](int n) {
    for (int i = 0; i < n; ++i)
      futures.push_back(spawn(q, DagNode::Leaf{long(futures.size())}, Kokkos::TaskPriority::Regular, nullptr));
    q.flush_stage(stage);
  };
  spawn_and_flush(3);
  EXPECT_EQ(q.m_wake_tokens, 0) << "no worker is idle: nobody to wake";
  EXPECT_FALSE(q.take_wake_token());
  q.enter_idle();
  spawn_and_flush(5);
  EXPECT_EQ(q.m_wake_tokens, 5) << "one token per task pushed while a worker is idle";
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(q.take_wake_token()) << i;
  EXPECT_FALSE(q.take_wake_token()) << "a token is taken once";
  HostWorkerContext::current() = nullptr;  // host code pushes directly
  futures.push_back(spawn(q, DagNode::Leaf{long(futures.size())}, Kokkos::TaskPriority::High, nullptr));
  EXPECT_EQ(q.m_wake_tokens, 1) << "a task pushed outside a stage wakes one too";
  q.leave_idle();
  q.wake_all_idle(7);
  EXPECT_EQ(q.m_wake_tokens, 8);
  q.begin_run();
  EXPECT_EQ(q.m_wake_tokens, 0);
  EXPECT_EQ(q.m_idle_workers, 0);
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
TEST(DeviceTaskQueue, IdleWorkersWakeForWorkSpawnedLater) {
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
TEST(DeviceTaskQueue, ExtraTeamTasksGoBackOnlyWhileWorkersIdle) {
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
    q.m_idle_workers = idle ? 1 : 0;
    const Kokkos::Impl::DeviceTaskClaim c = q.claim_ready(0, 8);
    ASSERT_EQ(c.count, 5) << "every ready task is in the one ring";
    std::vector<TaskBase*> tasks;
    for (int i = 0; i < c.count; ++i) tasks.push_back(Queue::take(c, i));
    const int kept = q.hand_back_extra_teams(tasks.data(), c.count);
    if (!idle) {
      EXPECT_EQ(kept, 5);
      EXPECT_EQ(tasks, futures);
      q.flush_stage(stage);
      for (TaskBase* t : tasks) q.push_direct(t, 0);  // ready again, for the idle round
      continue;
    }
    ASSERT_EQ(kept, 3);
    EXPECT_EQ(tasks[0], futures[0]);
    EXPECT_EQ(tasks[1], futures[1]);
    EXPECT_EQ(tasks[2], futures[2]);
    q.flush_stage(stage);
    EXPECT_EQ(q.pop_ready(), futures[3]);  // handed back in claim order
    EXPECT_EQ(q.pop_ready(), futures[4]);
    EXPECT_EQ(q.pop_ready(), nullptr);
    for (TaskBase* t : futures) q.push_direct(t, 0);  // ready again, for the workers
  }
  HostWorkerContext::current() = nullptr;
  q.begin_run();
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
TEST(DeviceTaskQueue, TeamTasksHandedBackRunOnce) {
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

TEST(DeviceTaskQueue, ADependenceCycleStopsTheWorkers) {
  for (int threads : {1, 4, 16}) {
    Pool pool(Kokkos::HostSpace(), 1 << 16, 64, 256, 1 << 12);
    QueueOnHost q(pool);
    TaskBase* second = nullptr;
    // Work around the cycle, so that the workers are busy for a while before they go idle.
    TaskBase* fib = spawn(q, Fib{12, {nullptr, nullptr}}, Kokkos::TaskPriority::Regular, nullptr);
    TaskBase* first = spawn(q, RespawnBehind{&second, false}, Kokkos::TaskPriority::Regular, nullptr);
    ASSERT_NE(first, nullptr);
    first->add_ref();  // the dependence of `second`
    second = spawn(q, DagNode::Leaf{2}, Kokkos::TaskPriority::Regular, first);
    ASSERT_NE(second, nullptr);
    EXPECT_TRUE(run_workers(q, threads, 4, 4, threads == 16 ? 4 : 1)) << threads << " workers";
    EXPECT_EQ(q.m_stop, stop_for_cycle);
    EXPECT_TRUE(fib->is_complete());
    EXPECT_EQ(result_of(fib), serial_fib(12));
    EXPECT_FALSE(first->is_complete());
    EXPECT_FALSE(second->is_complete());
    EXPECT_FALSE(q.finished());
    // The two tasks stay allocated: as on the GPU, wait() aborts after such a stop.
  }
}

// No run of the other tests stops for a cycle: many workers going idle and busy again, each
// counting itself idle after a few empty polls (alone, or, in groups of 8, waiting for its scout).
TEST(DeviceTaskQueue, IdleWorkersNeverSeeACycleInAnAcyclicDag) {
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

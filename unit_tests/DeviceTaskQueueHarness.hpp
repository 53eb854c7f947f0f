#pragma once
// The GPU scheduler's queue (impl/tasking/Kokkos_DeviceTaskQueue.hpp) driven by host threads: the
// same code the CUDA kernel runs, so that its concurrency is tested (and run under TSan/ASan) on
// any machine.  A queue with its rings in host memory, host threads standing in for warps (and
// groups of them for blocks of several warps), spawn and when_all as a task's code calls them,
// the workers' loop of the kernel (run_workers), and the DAGs the tests share: Fibonacci with
// when_all and respawn, and random DAGs against a sequential reference.
#include "TestCommon.hpp"

#include <Kokkos_Core.hpp>
#include <impl/tasking/Kokkos_DeviceTaskQueue.hpp>
#include <impl/tasking/Kokkos_DeviceTaskWorkerGroup.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

namespace device_task_queue_test {


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

inline TaskBase* when_all(Queue& q, TaskBase* const* entries, int n) {
  TaskBase* a = q.begin_aggregate(n);
  if (a == nullptr) return nullptr;
  for (int i = 0; i < n; ++i)
    if (entries[i] != nullptr) Queue::add_aggregate_entry(a, entries[i]);
  return q.finish_aggregate(a);
}

inline long result_of(TaskBase* t) { return Kokkos::Impl::TaskResult<long>::get(t); }

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
// takes a wake token, or when every worker that started is counted (no periodic look, unlike the
// GPU's: a lost wake-up shows here as workers stuck, which fails the test).  The last
// `late_workers` workers (whole groups) start only once all the others have stopped, as the blocks
// of a launch that do not fit beside another kernel start when others end.  Returns whether a
// cycle stopped it.
inline bool run_workers(Queue& q, int threads, int batch = 4, int idle_after = 4, int group_size = 1,
                        int late_workers = 0) {
  q.m_idle.begin_run();
  std::vector<Kokkos::Impl::DeviceTaskWorkerGroup> groups(std::size_t((threads + group_size - 1) / group_size));
  for (auto& g : groups) g.reset();
  const int early_workers = threads - late_workers;
  std::atomic<int> early_stopped{0};
  auto work = [&q, &groups, &early_stopped, batch, idle_after, group_size, early_workers](int rank) {
    if (rank >= early_workers) {
      while (early_stopped.load() < early_workers) std::this_thread::yield();
    }
    q.m_idle.start();
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
        const bool all_idle = q.m_idle.all_counted();
        const bool look = all_idle || first_idle_look || q.m_idle.take_token();
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
        q.m_idle.leave();
        counted_idle = false;
        idle_polls = all_idle_looks = 0;
      }
      const Kokkos::Impl::DeviceTaskClaim c = q.claim_ready(stage.shard, batch);
      const int n = c.single != nullptr ? 1 : c.count;
      if (n == 0) {
        if (q.finished()) {
          q.m_idle.wake_all();
          break;
        }
        std::uint32_t seen = 0;
        if (!group.look_myself(member, seen)) {
          q.m_idle.enter();
          while (!group.should_look(seen)) std::this_thread::yield();
          q.m_idle.leave();
          if (group.is_over()) break;
          idle_polls = 0;
          continue;
        }
        if (++idle_polls == idle_after) {
          q.m_idle.enter();
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
      if (kept != n) q.flush_stage(stage, batch);
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
      q.flush_stage(stage, batch);
    }
    q.report_statistics(stage);
    group.end();
    HostWorkerContext::current() = nullptr;
    if (rank < early_workers) early_stopped.fetch_add(1);
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

inline long serial_fib(long n) { return n < 2 ? n : serial_fib(n - 1) + serial_fib(n - 2); }

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

inline void random_dag_round(Queue& q, std::mt19937& rng, int nodes, int threads, int group_size = 1) {
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

}  // namespace device_task_queue_test

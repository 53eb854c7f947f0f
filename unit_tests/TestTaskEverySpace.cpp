// The task DAG on every back end, Kokkos::Cuda included: the task functors here are written
// the portable way (standard-layout classes, KOKKOS_INLINE_FUNCTION, no host containers), so
// the same tests run on the host schedulers and on the GPU scheduler (Cuda/Kokkos_Cuda_Task.hpp),
// which skips, with the reason, where no GPU is visible.  Dependence chains, when_all from the
// host and inside tasks, respawn, priorities, team tasks with nested patterns, spawning up to
// pool exhaustion, and random DAGs against a sequential reference.
#include "TaskSpawnUntilFull.hpp"
#include "TestCommon.hpp"

#include <Kokkos_TaskScheduler.hpp>

#include <new>
#include <random>
#include <type_traits>
#include <vector>

namespace {

template <class Space>
struct TaskEverySpace : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TaskEverySpace, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

template <class Space>
using SchedulerOf = Kokkos::TaskScheduler<Space>;

// ---- a dependence chain: each link adds one to its predecessor's value ----------------------------
template <class Scheduler>
struct ChainLink {
  using value_type = long;
  typename Scheduler::template future_type<long> previous;

  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, long& result) {
    result = previous.is_null() ? 1 : previous.get() + 1;
  }
};

TYPED_TEST(TaskEverySpace, DependenceChainFromTheHost) {
  using S = SchedulerOf<TypeParam>;
  S sched(typename S::memory_space(), 1 << 20, 64, 512, 1 << 14);
  constexpr int length = 200;
  typename S::template future_type<long> last;
  for (int i = 0; i < length; ++i) {
    auto next = Kokkos::host_spawn(last.is_null() ? Kokkos::TaskSingle(sched) : Kokkos::TaskSingle(sched, last),
                                   ChainLink<S>{last});
    ASSERT_FALSE(next.is_null());
    last = next;
  }
  Kokkos::wait(sched);
  ASSERT_TRUE(last.is_ready());
  EXPECT_EQ(last.get(), length);
  last = {};
  EXPECT_EQ(sched.allocated_task_count(), 0);
}

// ---- a task that builds a chain inside the DAG, with respawn, and priorities -------------------------
template <class Scheduler>
struct ChainBuilder {
  using value_type = long;
  typename Scheduler::template future_type<long> last;
  Scheduler sched;
  int length;

  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, long& result) {
    if (last.is_null()) {
      for (int i = 0; i < length; ++i) {
        const auto priority = Kokkos::TaskPriority(i % 3);
        auto next = last.is_null() ? Kokkos::task_spawn(Kokkos::TaskSingle(sched, priority), ChainLink<Scheduler>{last})
                                   : Kokkos::task_spawn(Kokkos::TaskSingle(sched, last, priority),
                                                        ChainLink<Scheduler>{last});
        if (next.is_null()) Kokkos::abort("ChainBuilder: the pool ran out");
        last = next;
      }
      Kokkos::respawn(this, last, Kokkos::TaskPriority::Low);
    } else {
      result = last.get() * 10;
    }
  }
};

TYPED_TEST(TaskEverySpace, ChainBuiltInsideTheDagWithRespawn) {
  using S = SchedulerOf<TypeParam>;
  S sched(typename S::memory_space(), 1 << 20, 64, 512, 1 << 14);
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), ChainBuilder<S>{{}, sched, 100});
  ASSERT_FALSE(f.is_null());
  Kokkos::wait(sched);
  EXPECT_EQ(f.get(), 1000);
  f = {};
  EXPECT_EQ(sched.allocated_task_count(), 0);
}

// ---- when_all over many children, built with the generator form inside a task ------------------------
template <class Scheduler>
struct Square {
  using value_type = long;
  long x;
  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, long& result) { result = x * x; }
};

template <class Scheduler>
struct SumOfSquares {
  using value_type = long;
  static constexpr int fan_out = 16;
  Scheduler sched;
  typename Scheduler::template future_type<long> child[fan_out];
  bool spawned;

  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, long& result) {
    if (!spawned) {
      spawned = true;
      for (int i = 0; i < fan_out; ++i) {
        child[i] = Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High), Square<Scheduler>{i});
        if (child[i].is_null()) Kokkos::abort("SumOfSquares: the pool ran out");
      }
      Kokkos::respawn(this, sched.when_all(fan_out, [this](int i) { return child[i]; }));
      return;
    }
    result = 0;
    for (int i = 0; i < fan_out; ++i) result += child[i].get();
  }
};

TYPED_TEST(TaskEverySpace, WhenAllInsideTasksAndFromTheHost) {
  using S = SchedulerOf<TypeParam>;
  S sched(typename S::memory_space(), 1 << 20, 64, 1024, 1 << 14);
  constexpr int parents = 20;
  std::vector<typename S::template future_type<long>> f(parents);
  for (auto& x : f) {
    x = Kokkos::host_spawn(Kokkos::TaskSingle(sched), SumOfSquares<S>{sched, {}, false});
    ASSERT_FALSE(x.is_null());
  }
  // A when_all built on the host, and a task behind it.
  auto all = Kokkos::when_all(f.data(), parents);
  ASSERT_FALSE(all.is_null());
  auto after = Kokkos::host_spawn(Kokkos::TaskSingle(sched, all), Square<S>{3});
  auto direct = sched.spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::Low), Square<S>{5});  // the member form
  Kokkos::wait(sched);
  EXPECT_TRUE(all.is_ready());
  EXPECT_EQ(after.get(), 9);
  EXPECT_EQ(direct.get(), 25);
  direct = {};
  for (auto& x : f) EXPECT_EQ(x.get(), 1240);  // 0^2 + ... + 15^2
  f.clear();
  all = {};
  after = {};
  EXPECT_EQ(sched.allocated_task_count(), 0);
}

// ---- team tasks: the nested patterns on the task team (a warp on the GPU) ----------------------------
template <class Scheduler>
struct TeamSum {
  using value_type = long;
  long n;

  // The ranks split [0, n) (TeamThreadRange) and each repeats [0, 10) (ThreadVectorRange), adding
  // into the task's result (value-initialised to 0 at spawn) with atomics; the task completes
  // when every rank has returned.
  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type& member, long& result) {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, n), [&](long i) { Kokkos::atomic_add(&result, 100 * i); });
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, 10L), [&](long i) {
      if (member.team_rank() == 0) Kokkos::atomic_add(&result, i);
    });
  }
};

TYPED_TEST(TaskEverySpace, TeamTasksUseNestedPatterns) {
  using S = SchedulerOf<TypeParam>;
  S sched(typename S::memory_space(), 1 << 20, 64, 512, 1 << 14);
  std::vector<typename S::template future_type<long>> f;
  for (long n : {0L, 1L, 31L, 32L, 33L, 1000L}) {
    f.push_back(Kokkos::host_spawn(Kokkos::TaskTeam(sched), TeamSum<S>{n}));
    ASSERT_FALSE(f.back().is_null());
  }
  Kokkos::wait(sched);
  const long ns[] = {0, 1, 31, 32, 33, 1000};
  for (std::size_t k = 0; k < f.size(); ++k) EXPECT_EQ(f[k].get(), ns[k] * (ns[k] - 1) / 2 * 100 + 45) << "n = " << ns[k];
}

// ---- single tasks: the nested reductions and scans on a team of one (one lane of a warp on the GPU,
// whose other lanes run other tasks meanwhile) --------------------------------------------------------
template <class Scheduler>
struct SingleTaskCollectives {
  using value_type = long;
  long n;

  // sum over [0, n) of i by TeamVectorRange reduce, plus 1000 * the last exclusive prefix of a
  // TeamVectorRange scan of i (the sum over [0, n - 1)), plus 10^6 * the scan's total.
  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type& member, long& result) {
    long sum = 0;
    Kokkos::parallel_reduce(Kokkos::TeamVectorRange(member, n), [&](long i, long& s) { s += i; }, sum);
    long last_prefix = 0, total = 0;
    Kokkos::parallel_scan(
        Kokkos::TeamVectorRange(member, n),
        [&](long i, long& partial, const bool final) {
          if (final && i == n - 1) last_prefix = partial;
          partial += i;
        },
        total);
    result = sum + 1000 * last_prefix + 1000000 * total;
  }
};

TYPED_TEST(TaskEverySpace, SingleTasksReduceAndScanOnATeamOfOne) {
  using S = SchedulerOf<TypeParam>;
  S sched(typename S::memory_space(), 1 << 20, 64, 512, 1 << 14);
  const long ns[] = {0, 1, 2, 31, 32, 33, 100};
  std::vector<typename S::template future_type<long>> f;
  // 64 tasks at once, so that on a GPU several share a warp.
  for (int copy = 0; copy < 64 / 7 + 1; ++copy) {
    for (long n : ns) {
      f.push_back(Kokkos::host_spawn(Kokkos::TaskSingle(sched), SingleTaskCollectives<S>{n}));
      ASSERT_FALSE(f.back().is_null());
    }
  }
  Kokkos::wait(sched);
  for (std::size_t k = 0; k < f.size(); ++k) {
    const long n = ns[k % 7];
    const long sum = n * (n - 1) / 2;
    const long last_prefix = n > 1 ? (n - 1) * (n - 2) / 2 : 0;
    EXPECT_EQ(f[k].get(), sum + 1000 * last_prefix + 1000000 * sum) << "n = " << n;
  }
}

// ---- a task with more than a KiB of local arrays (on the GPU, in the stack frame of a call through a
// pointer, which the compiler cannot size) -------------------------------------------------------------
template <class Scheduler>
struct LocalArrayTask {
  using value_type = long;
  long seed;

  // A sieve over [0, 192) in a local array whose indices depend on `seed`: sum of i * seed over
  // the i < 192 with (i * seed) % 7 != 0, read back in a seed-dependent order.
  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, long& result) {
    constexpr int size = 192;  // 1.5 KiB: more than the GPU's default stack, well within the raised one
    long values[size];
    for (int i = 0; i < size; ++i) values[(i * 5 + seed) % size] = (i * seed) % 7 != 0 ? i * seed : 0;
    long sum = 0;
    for (int k = 0; k < size; ++k) sum += values[(k * 7 + seed) % size];
    result = sum;
  }
};

TYPED_TEST(TaskEverySpace, TasksWithMoreThanAKiloByteOfLocalArrays) {
  using S = SchedulerOf<TypeParam>;
  S sched(typename S::memory_space(), 1 << 20, 64, 512, 1 << 14);
  std::vector<typename S::template future_type<long>> f;
  for (long seed = 1; seed <= 64; ++seed) {
    f.push_back(Kokkos::host_spawn(Kokkos::TaskSingle(sched), LocalArrayTask<S>{seed}));
    ASSERT_FALSE(f.back().is_null());
  }
  Kokkos::wait(sched);
  for (long seed = 1; seed <= 64; ++seed) {
    long expected = 0;
    for (long i = 0; i < 192; ++i) expected += (i * seed) % 7 != 0 ? i * seed : 0;
    EXPECT_EQ(f[static_cast<std::size_t>(seed - 1)].get(), expected) << "seed " << seed;
  }
}

// ---- a dependence cycle: wait() aborts, naming it, rather than hang --------------------------------------
template <class Scheduler>
struct RespawnBehind {
  using value_type = long;
  using future_type = typename Scheduler::template future_type<long>;
  const future_type* behind;  // set by the host before wait()
  int runs;

  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, long& result) {
    if (runs++ == 0) {
      Kokkos::respawn(this, *behind);
      return;
    }
    result = 1;
  }
};
template <class Scheduler>
struct ReturnTwo {
  using value_type = long;
  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, long& result) { result = 2; }
};

// `first` respawns behind `second`, which was spawned behind `first`.
TYPED_TEST(TaskEverySpace, ADependenceCycleAbortsWait) {
  using S = SchedulerOf<TypeParam>;
  using F = typename S::template future_type<long>;
  EXPECT_DEATH(
      {
        S sched(typename S::memory_space(), 1 << 20, 64, 512, 1 << 14);
        // Where the task can read it: the scheduler's memory space (CudaUVMSpace on the GPU).
        F* slot = ::new (Kokkos::kokkos_malloc<typename S::memory_space>("slot", sizeof(F))) F();
        const F first = Kokkos::host_spawn(Kokkos::TaskSingle(sched), RespawnBehind<S>{slot, 0});
        *slot = Kokkos::host_spawn(Kokkos::TaskSingle(sched, first), ReturnTwo<S>{});
        Kokkos::wait(sched);
      },
      "form a cycle");
}

// ---- spawning up to pool exhaustion inside a task ------------------------------------------------------
TYPED_TEST(TaskEverySpace, SpawnUpToPoolExhaustionThenRecover) {
  using S = SchedulerOf<TypeParam>;
  // 64 KiB of 128-byte blocks: 512 blocks, one the spawning task's, one the gate's.
  S sched(typename S::memory_space(), 1 << 16, 128, 128, 1 << 12);
  Kokkos::View<int, typename S::memory_space> done("spawner_done");  // zeroed; read and written by tasks only
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Kokkos::Test::SpawnUntilFull<S>{sched, done.data()});
  ASSERT_FALSE(f.is_null());
  Kokkos::wait(sched);
  ASSERT_NE(f.get(), Kokkos::Test::SpawnUntilFull<S>::never_ran_out)
      << "the pool never ran out: " << Kokkos::Test::SpawnUntilFull<S>::spawn_limit << " children spawned behind the gate";
  ASSERT_NE(f.get(), Kokkos::Test::SpawnUntilFull<S>::gate_failed) << "the gate task found the pool full";
  // No child can run before the spawner is done, so exactly the blocks left succeeded.
  EXPECT_EQ(f.get(), 510);
  f = {};
  EXPECT_EQ(sched.allocated_task_count(), 0);
  // The scheduler works again after exhaustion.
  auto g = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Square<S>{12});
  ASSERT_FALSE(g.is_null());
  Kokkos::wait(sched);
  EXPECT_EQ(g.get(), 144);
}

// ---- random DAGs built on the host, against a sequential reference -----------------------------------
template <class Scheduler>
struct DagNode {
  using value_type = long;
  static constexpr int max_preds = 4;
  long weight;
  int preds;
  typename Scheduler::template future_type<long> pred[max_preds];

  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, long& result) {
    result = weight;
    for (int i = 0; i < preds; ++i) result += pred[i].get() % 1000003;
  }
};

TYPED_TEST(TaskEverySpace, RandomDagsAgainstSequentialReference) {
  using S = SchedulerOf<TypeParam>;
  using F = typename S::template future_type<long>;
  S sched(typename S::memory_space(), 1 << 22, 64, 1024, 1 << 16);
  std::mt19937 rng(7);
  for (int round = 0; round < 4; ++round) {
    constexpr int nodes = 400;
    std::vector<F> f(nodes);
    std::vector<long> expected(nodes);
    for (int i = 0; i < nodes; ++i) {
      DagNode<S> d{long(rng() % 1000), 0, {}};
      expected[i] = d.weight;
      const int want = i == 0 ? 0 : int(rng() % (DagNode<S>::max_preds + 1));
      for (int k = 0; k < want; ++k) {
        const int j = int(rng() % unsigned(i));
        d.pred[d.preds++] = f[j];
        expected[i] += expected[j] % 1000003;
      }
      const auto priority = Kokkos::TaskPriority(rng() % 3);
      using FV = typename S::template future_type<void>;
      FV dep = d.preds == 0 ? FV() : d.preds == 1 ? FV(d.pred[0]) : Kokkos::when_all(d.pred, d.preds);
      f[i] = dep.is_null() ? Kokkos::host_spawn(Kokkos::TaskSingle(sched, priority), d)
                           : Kokkos::host_spawn(Kokkos::TaskSingle(sched, dep, priority), d);
      ASSERT_FALSE(f[i].is_null());
    }
    Kokkos::wait(sched);
    for (int i = 0; i < nodes; ++i) ASSERT_EQ(f[i].get(), expected[i]) << "round " << round << ", node " << i;
  }
  EXPECT_EQ(sched.allocated_task_count(), 0);
}

// ---- the closure rule of the GPU scheduler (seed 001 §2.2.4) -------------------------------------------
#if defined(KOKKOS_ENABLE_CUDA)
struct NotStandardLayout {
  long a;

 private:
  long b = 0;

 public:
  KOKKOS_INLINE_FUNCTION void operator()(Kokkos::TaskScheduler<Kokkos::Cuda>::member_type&) { (void)b; }
};
struct Virtual {
  virtual ~Virtual() = default;
};
static_assert(Kokkos::Impl::is_cuda_host_task_closure_v<ChainLink<Kokkos::TaskScheduler<Kokkos::Cuda>>>);
static_assert(Kokkos::Impl::is_cuda_host_task_closure_v<SumOfSquares<Kokkos::TaskScheduler<Kokkos::Cuda>>>);
static_assert(!Kokkos::Impl::is_cuda_host_task_closure_v<NotStandardLayout>,
              "mixed access control is not standard layout: host_spawn must refuse it");
static_assert(!Kokkos::Impl::is_cuda_host_task_closure_v<Virtual>, "a class with virtual functions is refused");
static_assert(!Kokkos::Impl::is_cuda_host_task_closure_v<long>, "a closure must be a class");
// The GPU scheduler's handles are device-usable and small; its futures are one pointer.
static_assert(std::is_standard_layout_v<Kokkos::TaskScheduler<Kokkos::Cuda>>);
static_assert(sizeof(Kokkos::Future<long, Kokkos::Cuda>) == sizeof(void*));
static_assert(std::is_same_v<Kokkos::TaskScheduler<Kokkos::Cuda>::memory_space, Kokkos::CudaUVMSpace>);
#endif

}  // namespace

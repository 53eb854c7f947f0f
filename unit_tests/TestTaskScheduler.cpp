// The task DAG API (seed 001 §3.2, Kokkos 4 spelling): futures, spawn with predecessors,
// when_all (array and generator), respawn, priorities, result types, finite memory, misuse.
#include "TestCommon.hpp"

#include <Kokkos_TaskScheduler.hpp>

#include <atomic>
#include <string>
#include <vector>

namespace {

template <class Space>
struct TaskApi : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TaskApi, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

template <class Space>
using Sched = Kokkos::TaskScheduler<Space>;

template <class Scheduler>
Scheduler make_scheduler(std::size_t bytes = 1 << 20, unsigned min_block = 64, unsigned max_block = 1024,
                         unsigned superblock = 4096) {
  return Scheduler(typename Scheduler::memory_space(), bytes, min_block, max_block, superblock);
}

// ---- types and futures ---------------------------------------------------------------------
TEST(TaskTypes, TraitsAndTypedefs) {
  // The default execution space, as in Kokkos (with CUDA on, naming it is a static_assert: the
  // task DAG runs on the host spaces only for now).
  static_assert(std::is_same_v<Kokkos::TaskScheduler<>, Kokkos::TaskScheduler<Kokkos::DefaultExecutionSpace>>);
  using H = Kokkos::DefaultHostExecutionSpace;
  using S = Kokkos::TaskScheduler<H>;
  static_assert(Kokkos::is_scheduler<S>::value);
  static_assert(Kokkos::is_scheduler<Kokkos::TaskSchedulerMultiple<H>>::value);
  static_assert(Kokkos::is_scheduler<Kokkos::ChaseLevTaskScheduler<H>>::value);
  static_assert(Kokkos::is_scheduler<Kokkos::DeprecatedTaskScheduler<H>>::value);
  static_assert(Kokkos::is_scheduler<Kokkos::DeprecatedTaskSchedulerMultiple<H>>::value);
  static_assert(!Kokkos::is_scheduler<int>::value);
  static_assert(!std::is_same_v<S, Kokkos::TaskSchedulerMultiple<H>>);
  static_assert(std::is_same_v<S::execution_space, H>);
  static_assert(std::is_same_v<S::memory_pool, Kokkos::MemoryPool<Kokkos::Device<S::execution_space, S::memory_space>>>);
  using F = S::future_type<int>;
  static_assert(Kokkos::is_future<F>::value && !Kokkos::is_future<int>::value);
  static_assert(std::is_same_v<F::value_type, int> && std::is_same_v<F::scheduler_type, S>);
#if !defined(KOKKOS_ENABLE_CUDA)  // Kokkos::Future<> names the default space, Cuda in a CUDA build
  static_assert(std::is_same_v<Kokkos::Future<>, S::future_type<void>>);
  static_assert(std::is_same_v<Kokkos::Future<double>, S::future_type<double>>);
#endif
  struct WithValue {
    using value_type = short;
  };
  struct WithoutValue {};
  static_assert(std::is_same_v<S::future_type_for_functor<WithValue>, S::future_type<short>>);
  static_assert(std::is_same_v<S::future_type_for_functor<WithoutValue>, S::future_type<void>>);
  static_assert(std::is_convertible_v<F, S::future_type<void>>);
  static_assert(!std::is_convertible_v<S::future_type<void>, F>);
}

// Seed 001 §3.2.2: a default-constructed scheduler is empty; memory() is null; copies share it.
TEST(TaskTypes, NullFutureAndEmptyScheduler) {
  Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>::future_type<long> f;
  EXPECT_TRUE(f.is_null());
  EXPECT_TRUE(f.is_ready());
  f.clear();
  EXPECT_TRUE(f.is_null());
  Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace> empty;
  EXPECT_EQ(empty.memory(), nullptr);
  Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace> copy = empty;
  EXPECT_TRUE(copy == empty);
}

struct TwoFuturesAndLong {
  using value_type = long;
  Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>::future_type<long> a, b;
  long n;
  void operator()(Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>::member_type&, long&) {}
};

TEST(TaskTypes, HeaderAndAggregateFitSmallBlocks) {
  using S = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;
  static_assert(std::is_same_v<S::future_type_for_functor<TwoFuturesAndLong>, S::future_type<long>>);
  using Node = Kokkos::Impl::TaskNode<TwoFuturesAndLong, long, S::member_type>;
  static_assert(sizeof(Kokkos::Impl::TaskBase) <= 64);
  static_assert(sizeof(Node) <= 128, "a task with two futures and a long must fit a 128-byte block");
  static_assert(sizeof(Kokkos::Impl::TaskBase) + 2 * sizeof(void*) <= 128);
}

// ---- spawning, results, lifetime ------------------------------------------------------------
template <class T, class Scheduler>
struct Constant {
  using value_type = T;
  T value;
  void operator()(typename Scheduler::member_type&, T& r) { r = value; }
};

struct Point {
  double x;
  int y;
  bool operator==(const Point& o) const { return x == o.x && y == o.y; }
};

TYPED_TEST(TaskApi, ResultTypes) {
  using S = Sched<TypeParam>;
  S sched = make_scheduler<S>();
  std::atomic<int> ran{0};
  struct VoidTask {
    std::atomic<int>* ran;
    void operator()(typename S::member_type&) { ++*ran; }
  };
  auto fv = Kokkos::host_spawn(Kokkos::TaskSingle(sched), VoidTask{&ran});
  auto fi = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Constant<int, S>{-7});
  auto fl = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Constant<long, S>{1L << 40});
  auto fd = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Constant<double, S>{2.5});
  auto fp = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Constant<Point, S>{{1.5, 3}});
  static_assert(std::is_same_v<decltype(fv), typename S::template future_type<void>>);
  static_assert(std::is_same_v<decltype(fp), typename S::template future_type<Point>>);
  EXPECT_FALSE(fi.is_ready());
  Kokkos::wait(sched);
  EXPECT_EQ(ran.load(), 1);
  fv.get();
  EXPECT_EQ(fi.get(), -7);
  EXPECT_EQ(fl.get(), 1L << 40);
  EXPECT_EQ(fd.get(), 2.5);
  EXPECT_EQ(fp.get(), (Point{1.5, 3}));
  EXPECT_TRUE(fv.is_ready() && fi.is_ready() && fp.is_ready());
  // Shared ownership: a copy keeps the task after the original is cleared.
  typename S::template future_type<void> as_void = fl;
  EXPECT_EQ(fl.reference_count(), 2);
  fl.clear();
  EXPECT_EQ(as_void.reference_count(), 1);
  EXPECT_TRUE(as_void.is_ready());
  EXPECT_EQ(sched.queue().allocation_count(), 5);
  fv = {};
  fi = {};
  fd = {};
  fp = {};
  as_void = {};
  EXPECT_EQ(sched.queue().allocation_count(), 0);
}

// A closure's destructor runs at completion, releasing the futures it holds.
TYPED_TEST(TaskApi, ClosureDestroyedAtCompletion) {
  using S = Sched<TypeParam>;
  S sched = make_scheduler<S>();
  static std::atomic<int> alive{0};
  struct Tracked {
    Tracked() { ++alive; }
    Tracked(const Tracked&) { ++alive; }
    ~Tracked() { --alive; }
    void operator()(typename S::member_type&) {}
  };
  alive = 0;
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Tracked{});
  EXPECT_EQ(alive.load(), 1);  // the copy inside the task
  Kokkos::wait(sched);
  EXPECT_EQ(alive.load(), 0);
  EXPECT_FALSE(f.is_null());
}

// A result with a destructor is destroyed once, when the last future to its task goes away
// (not at completion), on every path a task is freed: the host's future, a task's future and
// a when_all entry.  A result without one (int) is freed alike.
template <class S>
struct ResultTracked {
  static inline std::atomic<int> alive{0};
  int value = 0;
  ResultTracked() { ++alive; }
  ResultTracked(const ResultTracked& o) : value(o.value) { ++alive; }
  ResultTracked& operator=(const ResultTracked&) = default;
  ~ResultTracked() { --alive; }
};
template <class S>
struct MakeTracked {
  using value_type = ResultTracked<S>;
  int v;
  void operator()(typename S::member_type&, value_type& r) { r.value = v; }
};
template <class S>
struct SumTracked {
  using value_type = int;
  S sched;
  typename S::template future_type<ResultTracked<S>> parts[2];
  void operator()(typename S::member_type&, int& r) {
    if (parts[0].is_null()) {
      parts[0] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), MakeTracked<S>{20});
      parts[1] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), MakeTracked<S>{22});
      Kokkos::respawn(this, Kokkos::when_all(parts, 2));
      return;
    }
    r = parts[0].get().value + parts[1].get().value;
  }
};

TYPED_TEST(TaskApi, ResultDestroyedWithLastFuture) {
  using S = Sched<TypeParam>;
  using Tracked = ResultTracked<S>;
  S sched = make_scheduler<S>();
  Tracked::alive = 0;
  {
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), MakeTracked<S>{7});
    Kokkos::wait(sched);
    EXPECT_EQ(Tracked::alive.load(), 1);  // completed: the result lives while a future does
    EXPECT_EQ(f.get().value, 7);
    auto copy = f;
    f = {};
    EXPECT_EQ(Tracked::alive.load(), 1);
    copy = {};
    EXPECT_EQ(Tracked::alive.load(), 0);
  }
  {
    auto sum = Kokkos::host_spawn(Kokkos::TaskSingle(sched), SumTracked<S>{sched, {}});
    Kokkos::wait(sched);
    EXPECT_EQ(sum.get(), 42);
    EXPECT_EQ(Tracked::alive.load(), 0);  // freed by the parent's closure and the aggregate
  }
  EXPECT_EQ(sched.queue().allocation_count(), 0);
}

template <class S>
struct CheckPredecessor {
  using value_type = int;
  typename S::template future_type<int> pred;
  void operator()(typename S::member_type&, int& r) {
    r = pred.is_ready() ? pred.get() + 1 : -1000;
  }
};

// Tasks spawned with a predecessor run after it: a chain built from the host, each link
// observing that its predecessor is ready.
TYPED_TEST(TaskApi, PredecessorChain) {
  using S = Sched<TypeParam>;
  S sched = make_scheduler<S>();
  typename S::template future_type<int> f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Constant<int, S>{0});
  std::vector<typename S::template future_type<int>> chain{f};
  for (int i = 0; i < 200; ++i) {
    auto next = (i % 3 == 0) ? Kokkos::host_spawn(Kokkos::TaskSingle(chain.back()), CheckPredecessor<S>{chain.back()})
                : (i % 3 == 1)
                    ? Kokkos::host_spawn(Kokkos::TaskSingle(sched, chain.back(), Kokkos::TaskPriority::Low),
                                         CheckPredecessor<S>{chain.back()})
                    : sched.spawn(Kokkos::TaskSingle(chain.back(), Kokkos::TaskPriority::High),
                                  CheckPredecessor<S>{chain.back()});
    ASSERT_FALSE(next.is_null());
    chain.push_back(next);
  }
  Kokkos::wait(sched);
  for (int i = 0; i <= 200; ++i) ASSERT_EQ(chain[i].get(), i);
}

// ---- when_all ----------------------------------------------------------------------------
template <class S>
struct FanOut {
  using value_type = void;
  S sched;
  int depth;
  std::atomic<long>* leaves;
  typename S::template future_type<void> all;
  void operator()(typename S::member_type&) {
    if (depth == 0) {
      ++*leaves;
      return;
    }
    if (!all.is_null()) return;  // second run: children done
    all = sched.when_all(4, [&](int) {
      return Kokkos::task_spawn(Kokkos::TaskSingle(sched), FanOut{sched, depth - 1, leaves, {}});
    });
    if (all.is_null()) Kokkos::abort("FanOut: pool exhausted");
    Kokkos::respawn(this, all);
  }
};

// when_all(n, generator) fan-out in the tiny pool (16,000 bytes, blocks 64..1024).
TYPED_TEST(TaskApi, WhenAllGeneratorFanOutTinyPool) {
  using S = Sched<TypeParam>;
  S sched = make_scheduler<S>(16000, 64, 1024, 4096);
  for (int depth : {0, 1, 3, 5}) {
    std::atomic<long> leaves{0};
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), FanOut<S>{sched, depth, &leaves, {}});
    ASSERT_FALSE(f.is_null());
    Kokkos::wait(sched);
    EXPECT_EQ(leaves.load(), 1L << (2 * depth)) << "depth " << depth;
  }
  EXPECT_EQ(sched.queue().allocation_count(), 0);
}

template <class S>
struct SumOfTwo {
  using value_type = int;
  typename S::template future_type<int> a, b;
  void operator()(typename S::member_type&, int& r) { r = a.get() + b.get(); }
};

// Seed 001 §3.2.2: when_all over an array (free and static forms) and over a generator, whose
// futures "must either be null or reference a task that was spawned by the scheduler".
TYPED_TEST(TaskApi, WhenAllArrayAndNulls) {
  using S = Sched<TypeParam>;
  S sched = make_scheduler<S>();
  using FI = typename S::template future_type<int>;
  FI fs[4] = {Kokkos::host_spawn(Kokkos::TaskSingle(sched), Constant<int, S>{1}), FI(),
              Kokkos::host_spawn(Kokkos::TaskSingle(sched), Constant<int, S>{2}), FI()};
  auto all = Kokkos::when_all(fs, 4);
  auto all_static = S::when_all(fs, 4);
  ASSERT_FALSE(all.is_null());
  EXPECT_FALSE(all.is_ready());
  // Null entries only, or none at all: a null future.
  FI nulls[2];
  EXPECT_TRUE(Kokkos::when_all(nulls, 2).is_null());
  EXPECT_TRUE(Kokkos::when_all(nulls, 0).is_null());
  EXPECT_TRUE(sched.when_all(0, [](int) { return FI(); }).is_null());
  EXPECT_TRUE(sched.when_all(3, [](int) { return FI(); }).is_null());
  int calls = 0;
  auto gen_all = Kokkos::when_all(4, [&](int i) {
    ++calls;
    return fs[i];
  });
  EXPECT_EQ(calls, 4);
  // A task behind the aggregate sees both entries complete.
  auto sum = Kokkos::host_spawn(Kokkos::TaskSingle(all), SumOfTwo<S>{fs[0], fs[2]});
  Kokkos::wait(sched);
  EXPECT_TRUE(all.is_ready() && all_static.is_ready() && gen_all.is_ready());
  EXPECT_EQ(sum.get(), 3);
  // An aggregate over completed futures is complete at once.
  auto done = Kokkos::when_all(fs, 4);
  EXPECT_TRUE(done.is_ready());
}

// ---- respawn -----------------------------------------------------------------------------
template <class S>
struct Countdown {
  using value_type = int;
  int remaining;
  int runs = 0;
  void operator()(typename S::member_type& m, int& r) {
    ++runs;
    if (remaining-- > 0) {
      Kokkos::respawn(this, m.scheduler(), remaining % 2 ? Kokkos::TaskPriority::Low : Kokkos::TaskPriority::High);
    } else {
      r = runs;
    }
  }
};

TYPED_TEST(TaskApi, RespawnKeepsClosureState) {
  using S = Sched<TypeParam>;
  S sched = make_scheduler<S>();
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Countdown<S>{10});
  Kokkos::wait(sched);
  EXPECT_EQ(f.get(), 11);
  // wait() may be called again after more host spawns.
  auto g = Kokkos::host_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::Low), Countdown<S>{3});
  Kokkos::wait(sched);
  EXPECT_EQ(g.get(), 4);
  Kokkos::wait(sched);  // nothing to do
}

// ---- priorities --------------------------------------------------------------------------
template <class S>
struct Record {
  std::vector<int>* order;
  int id;
  void operator()(typename S::member_type&) { order->push_back(id); }
};

TEST(TaskPriorities, ObservedInOrderOnOneThread) {
  using S = Sched<Kokkos::Serial>;
  S sched = make_scheduler<S>();
  std::vector<int> order;
  const Kokkos::TaskPriority p[3] = {Kokkos::TaskPriority::Low, Kokkos::TaskPriority::Regular,
                                     Kokkos::TaskPriority::High};
  for (int i = 0; i < 9; ++i) Kokkos::host_spawn(Kokkos::TaskSingle(sched, p[i % 3]), Record<S>{&order, i});
  Kokkos::wait(sched);
  // High first, then Regular, then Low; last spawned first within a priority (depth-first).
  EXPECT_EQ(order, (std::vector<int>{8, 5, 2, 7, 4, 1, 6, 3, 0}));
}

// Spawned by a task: more tasks per priority than a worker keeps private (the older ones move to
// its public deque), then a respawn behind one of them; the order is still exact.
template <class S>
struct SpawnMixedPriorities {
  std::vector<int>* order;
  bool spawned = false;
  void operator()(typename S::member_type& member) {
    if (spawned) {
      order->push_back(-1);
      return;
    }
    spawned = true;
    const Kokkos::TaskPriority p[3] = {Kokkos::TaskPriority::Low, Kokkos::TaskPriority::Regular,
                                       Kokkos::TaskPriority::High};
    typename S::template future_type<void> last_low;
    for (int i = 0; i < 60; ++i) {
      auto f = Kokkos::task_spawn(Kokkos::TaskSingle(member.scheduler(), p[i % 3]), Record<S>{order, i});
      if (i % 3 == 0) last_low = f;
    }
    Kokkos::respawn(this, last_low, Kokkos::TaskPriority::High);
  }
};

TEST(TaskPriorities, ObservedInOrderForTaskSpawnsOnOneThread) {
  using S = Sched<Kokkos::Serial>;
  S sched = make_scheduler<S>();
  std::vector<int> order;
  Kokkos::host_spawn(Kokkos::TaskSingle(sched), SpawnMixedPriorities<S>{&order});
  Kokkos::wait(sched);
  std::vector<int> expected;
  for (int first : {2, 1}) {
    for (int i = 57 + first; i >= 0; i -= 3) expected.push_back(i);
  }
  // The Low tasks, newest first; the respawned task becomes ready (High) when task 57, the
  // newest Low one, completes, so it runs right after it.
  expected.push_back(57);
  expected.push_back(-1);
  for (int i = 54; i >= 0; i -= 3) expected.push_back(i);
  EXPECT_EQ(order, expected);
}

// ---- finite memory -------------------------------------------------------------------------
TYPED_TEST(TaskApi, PoolExhaustionThenRecovery) {
  using S = Sched<TypeParam>;
  S sched = make_scheduler<S>(8192, 64, 1024, 4096);
  std::vector<typename S::template future_type<int>> held;
  for (int i = 0; i < 10000; ++i) {
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Constant<int, S>{i});
    if (f.is_null()) break;
    held.push_back(f);
  }
  ASSERT_GT(held.size(), 0u);
  ASSERT_LT(held.size(), 10000u) << "the pool never filled";
  const long live = sched.queue().allocation_count();
  EXPECT_EQ(live, static_cast<long>(held.size()));
  // Full: spawn and when_all give null futures and change nothing.
  EXPECT_TRUE(Kokkos::host_spawn(Kokkos::TaskSingle(sched), Constant<int, S>{0}).is_null());
  EXPECT_EQ(sched.queue().allocation_count(), live);
  Kokkos::wait(sched);
  for (size_t i = 0; i < held.size(); ++i) ASSERT_EQ(held[i].get(), static_cast<int>(i));
  held.clear();
  EXPECT_EQ(sched.queue().allocation_count(), 0);
  auto again = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Constant<int, S>{42});
  ASSERT_FALSE(again.is_null());
  Kokkos::wait(sched);
  EXPECT_EQ(again.get(), 42);
}

// Seed 001 §3.2.2: "The TaskScheduler class follows Kokkos' shared ownership semantics for the
// copy constructors and assignment operators"; constructed over a memory pool.
TYPED_TEST(TaskApi, SchedulerConstructorsAndSharedOwnership) {
  using S = Sched<TypeParam>;
  typename S::memory_pool pool(typename S::memory_space(), 1 << 16, 64, 1024, 4096);
  S a(typename S::execution_space(), pool);
  S b(pool);
  EXPECT_TRUE(a != b);
  S c = a;
  EXPECT_TRUE(c == a);
  S d = std::move(c);
  EXPECT_TRUE(d == a);
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(d), Constant<int, S>{5});
  Kokkos::wait(d);
  a = S();
  d = S();  // the future still works: the queue lives while allocations do
  EXPECT_EQ(f.reference_count(), 1);
  EXPECT_EQ(f.get(), 5);
  f.clear();  // frees the task, then the orphaned queue
  static_assert(std::is_same_v<decltype(b.memory()), typename S::memory_pool*>);
  try {
    S tiny(typename S::memory_space(), 4096, 32, 64, 4096);
    FAIL() << "a pool whose largest block is 64 bytes cannot hold a task";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("too small for even one task"), std::string::npos) << e.what();
  }
}

// ---- misuse ------------------------------------------------------------------------------
template <class S>
struct RespawnTwice {
  void operator()(typename S::member_type& m) {
    Kokkos::respawn(this, m.scheduler());
    Kokkos::respawn(this, m.scheduler());
  }
};
// Respawns from its destructor once it has run (the moved-from spawn argument never ran).
template <class S>
struct RespawnInDestructor {
  S sched;
  bool ran = false;
  void operator()(typename S::member_type&) { ran = true; }
  ~RespawnInDestructor() {
    if (ran) Kokkos::respawn(this, sched);
  }
};
template <class S>
struct HostSpawnInside {
  void operator()(typename S::member_type& m) { Kokkos::host_spawn(Kokkos::TaskSingle(m.scheduler()), Record<S>{}); }
};
template <class S>
struct WaitInside {
  void operator()(typename S::member_type& m) { Kokkos::wait(m.scheduler()); }
};
template <class S>
struct GetUnfinished {
  typename S::template future_type<int> other;
  void operator()(typename S::member_type&) { (void)other.get(); }
};
template <class S>
struct WhenAllMixed {
  typename S::template future_type<int> mine, theirs;
  void operator()(typename S::member_type&) {
    typename S::template future_type<int> both[2] = {mine, theirs};
    (void)Kokkos::when_all(both, 2);
  }
};

using TaskMisuseDeathTest = ::testing::Test;

// Each "Requires" of seed 001 §3.2.2 broken: respawn at most once, and only while the task runs
// (not from its functor's destructor); host_spawn from host code,
// task_spawn within a task; wait outside task execution; when_all over one scheduler's futures;
// TaskSingle over a non-null scheduler or future.  (wait inside a parallel region: TestTaskQueries.)
TEST(TaskMisuseDeathTest, ClearMessages) {
  using S = Sched<Kokkos::DefaultHostExecutionSpace>;
  EXPECT_DEATH(
      {
        S s = make_scheduler<S>();
        Kokkos::host_spawn(Kokkos::TaskSingle(s), RespawnTwice<S>{});
        Kokkos::wait(s);
      },
      "respawn: called twice");
  EXPECT_DEATH(
      {
        S s = make_scheduler<S>();
        Kokkos::host_spawn(Kokkos::TaskSingle(s), RespawnInDestructor<S>{s});
        Kokkos::wait(s);
      },
      "respawn: called from the destructor of the task's functor");
  EXPECT_DEATH(
      {
        S s = make_scheduler<S>();
        Kokkos::host_spawn(Kokkos::TaskSingle(s), HostSpawnInside<S>{});
        Kokkos::wait(s);
      },
      "host_spawn: called from inside a task");
  EXPECT_DEATH(
      {
        S s = make_scheduler<S>();
        Kokkos::task_spawn(Kokkos::TaskSingle(s), Record<S>{});
      },
      "task_spawn: called outside a task");
  EXPECT_DEATH(
      {
        S s = make_scheduler<S>();
        Kokkos::host_spawn(Kokkos::TaskSingle(s), WaitInside<S>{});
        Kokkos::wait(s);
      },
      "wait\\(scheduler\\): called from inside a task");
  EXPECT_DEATH(
      {
        S::future_type<int> f;
        (void)f.get();
      },
      "null future");
  EXPECT_DEATH(
      {
        S s = make_scheduler<S>();
        auto f = Kokkos::host_spawn(Kokkos::TaskSingle(s), Constant<int, S>{1});
        (void)f.get();
      },
      "has not completed");
  EXPECT_DEATH(
      {
        S s = make_scheduler<S>();
        S t = make_scheduler<S>();
        auto a = Kokkos::host_spawn(Kokkos::TaskSingle(s), Constant<int, S>{1});
        auto b = Kokkos::host_spawn(Kokkos::TaskSingle(t), Constant<int, S>{1});
        Kokkos::host_spawn(Kokkos::TaskSingle(s), WhenAllMixed<S>{a, b});
        Kokkos::wait(s);
      },
      "different schedulers");
  EXPECT_DEATH(
      {
        S s = make_scheduler<S>(1 << 16, 64, 128, 4096);
        struct Big {
          char bytes[512];
          void operator()(S::member_type&) {}
        };
        Kokkos::host_spawn(Kokkos::TaskSingle(s), Big{});
      },
      "larger than the memory pool's largest block");
  EXPECT_DEATH(
      {
        S s;
        Kokkos::host_spawn(Kokkos::TaskSingle(s), Record<S>{});
      },
      "scheduler is empty");
  EXPECT_DEATH(
      {
        S::future_type<int> null;
        (void)Kokkos::TaskSingle(null);
      },
      "the future is null");
  // A task's future read inside an unrelated running task: not complete yet.
  EXPECT_DEATH(
      {
        S s = make_scheduler<S>();
        auto later = Kokkos::host_spawn(Kokkos::TaskSingle(s, Kokkos::TaskPriority::Low), Constant<int, S>{1});
        Kokkos::host_spawn(Kokkos::TaskSingle(s, Kokkos::TaskPriority::High), GetUnfinished<S>{later});
        Kokkos::wait(s);
      },
      "has not completed");
}

}  // namespace

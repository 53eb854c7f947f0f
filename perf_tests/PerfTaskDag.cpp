// Task DAG overhead: naive Fibonacci in tasks per second on 1 and 2 threads, beside
// the same recursion with oneTBB task_group and with OpenMP tasks in the same process; and a
// Task Bench style stencil DAG reporting the minimum effective task granularity (METG).
//
// Counters:  tasks/s       tasks + when_all aggregates per second (Kokkos' count)
//            vs_tbb        this time / oneTBB task_group's time for the same n and threads
//                          (the TBB and OpenMP benchmarks are registered first and run first);
//                          BM_FibVsTbb: the two run in alternating rounds, the ratio of their
//                          medians (kokkos_ms, tbb_ms), the one to quote
//            speedup       (2-thread run) the 1-thread (Serial) time for the same n / this time
//            vs_untraced   (BM_KokkosFibTraced) this time / the untraced time, same n and threads
//            METG_us       smallest task duration keeping >= 50% efficiency (stencil)
//            low_behind_high  (priority DAG) fraction of Low tasks that started while more
//                          High tasks were ready than the other workers could have taken and not
//                          yet entered (goal 0: seed 001 §2.3.3 orders priorities scheduler-wide)
//            regular_behind_high  the same for Regular tasks (goal 0 on TaskScheduler; the
//                          multiple-queue schedulers order High and Regular per worker only)
//            vs_multiple   (priority DAG on TaskScheduler) this time / TaskSchedulerMultiple's
//                          time for the same DAG in the same run (per-worker High/Regular order)
//
// Run: PerfTaskDag --kokkos-num-threads=2 [--benchmark_filter=Fib]
#include "PerfInterleaved.hpp"
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_TaskScheduler.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <type_traits>
#include <map>
#include <utility>
#include <vector>

#if defined(KDAG_HAVE_TBB)
#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>
#endif
#include <omp.h>

namespace {

// Seconds of the peers, by (n, threads), for the ratios.
std::map<std::pair<long, int>, double>& tbb_seconds() {
  static std::map<std::pair<long, int>, double> m;
  return m;
}
std::map<long, double>& kokkos_one_thread_seconds() {
  static std::map<long, double> m;
  return m;
}

long fib_tasks(long n) {  // tasks spawned by the naive recursion: T(n) = T(n-1) + T(n-2) + 1
  long a = 1, b = 1;      // T(0), T(1)
  for (long i = 2; i <= n; ++i) {
    const long c = a + b + 1;
    a = b;
    b = c;
  }
  return n == 0 ? 1 : b;
}
long fib_tasks_and_aggregates(long n) { return fib_tasks(n) + (fib_tasks(n) - 1) / 2; }

// ---- Kokkos ----------------------------------------------------------------------------------
template <class Scheduler>
struct Fib {
  using value_type = long;
  using future_type = typename Scheduler::template future_type<long>;
  Scheduler sched;
  future_type fib[2];
  long n;
  Fib(const Scheduler& s, long arg_n) : sched(s), fib{}, n(arg_n) {}
  void operator()(typename Scheduler::member_type&, long& result) {
    if (n <= 1) {
      result = n;
    } else if (!fib[0].is_null()) {
      result = fib[0].get() + fib[1].get();
    } else {
      fib[0] = Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High), Fib(sched, n - 2));
      fib[1] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), Fib(sched, n - 1));
      Kokkos::respawn(this, Kokkos::when_all(fib, 2), Kokkos::TaskPriority::High);
    }
  }
};

// Untraced seconds by (n, threads), for the traced runs' ratio.
std::map<std::pair<long, int>, double>& untraced_seconds() {
  static std::map<std::pair<long, int>, double> m;
  return m;
}

// Space = Serial is the 1-thread run; the default host space runs on all its threads.
// Traced: the same with a Chrome trace being written (Kokkos_Trace.hpp), each wait() flushing
// the rings to the file; vs_untraced = this time / the untraced run's.
template <class Space, bool Traced = false>
void BM_KokkosFib(benchmark::State& state) {
  using Scheduler = Kokkos::TaskSchedulerMultiple<Space>;
  const long n = state.range(0);
  Scheduler sched(typename Scheduler::memory_space(), 64u << 20, 32, 128, 4096);
  const std::string trace = "/tmp/kdag_perf_fib_trace.json";
  if (Traced) Kokkos::Experimental::start_trace(trace);
  double seconds = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fib<Scheduler>(sched, n));
    Kokkos::wait(sched);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (f.is_null() || f.get() < 0) perf::fail_result_check(state, "pool exhausted");
  }
  const int threads = Space().concurrency();
  const double per_iter = seconds / static_cast<double>(state.iterations());
  state.counters["threads"] = threads;
  state.counters["tasks/s"] = static_cast<double>(fib_tasks_and_aggregates(n)) / per_iter;
  if (Traced) {
    state.counters["dropped_per_iter"] =
        static_cast<double>(Kokkos::Experimental::trace_dropped_events()) / static_cast<double>(state.iterations());
    Kokkos::Experimental::stop_trace();
    std::remove(trace.c_str());
    if (auto plain = untraced_seconds().find({n, threads}); plain != untraced_seconds().end()) {
      state.counters["vs_untraced"] = per_iter / plain->second;
    }
    return;
  }
  untraced_seconds()[{n, threads}] = per_iter;
  auto it = tbb_seconds().find({n, threads});
  if (it != tbb_seconds().end()) state.counters["vs_tbb"] = per_iter / it->second;
  if (threads == 1) {
    kokkos_one_thread_seconds()[n] = per_iter;
  } else if (auto one = kokkos_one_thread_seconds().find(n); one != kokkos_one_thread_seconds().end()) {
    state.counters["speedup"] = one->second / per_iter;
  }
}

// ---- oneTBB task_group --------------------------------------------------------------------------
#if defined(KDAG_HAVE_TBB)
long tbb_fib(long n) {
  if (n <= 1) return n;
  long a = 0, b = 0;
  tbb::task_group g;
  g.run([&] { a = tbb_fib(n - 2); });
  g.run([&] { b = tbb_fib(n - 1); });
  g.wait();
  return a + b;
}

void BM_TbbFib(benchmark::State& state) {
  const long n = state.range(0);
  const int threads = static_cast<int>(state.range(1));
  tbb::task_arena arena(threads);
  double seconds = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    long r = 0;
    arena.execute([&] { r = tbb_fib(n); });
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    benchmark::DoNotOptimize(r);
  }
  const double per_iter = seconds / static_cast<double>(state.iterations());
  tbb_seconds()[{n, threads}] = per_iter;
  state.counters["threads"] = threads;
  state.counters["tasks/s"] = static_cast<double>(fib_tasks_and_aggregates(n)) / per_iter;
}
BENCHMARK(BM_TbbFib)->ArgsProduct({{20, 25, 30}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

// Kokkos' Fibonacci and oneTBB's in alternating rounds (perf::interleaved_medians: each round
// runs each a few times, the first untimed, the order rotating), so that both meet the same
// machine: on a VM whose speed drifts by tens of percent from one minute to the next, the
// medians of two benchmarks run a minute apart (vs_tbb above) disagree with themselves from
// run to run.  1 thread: Serial beside a 1-thread arena; 2 threads: the default host space
// beside a 2-thread arena.
template <class Space>
void BM_FibVsTbb(benchmark::State& state) {
  using Scheduler = Kokkos::TaskSchedulerMultiple<Space>;
  const long n = state.range(0);
  const int threads = Space().concurrency();
  Scheduler sched(typename Scheduler::memory_space(), 64u << 20, 32, 128, 4096);
  tbb::task_arena arena(threads);
  long kokkos_result = 0, tbb_result = 0;
  const auto kokkos = [&] {
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fib<Scheduler>(sched, n));
    Kokkos::wait(sched);
    kokkos_result = f.is_null() ? -1 : f.get();
  };
  const auto tbb = [&] { arena.execute([&] { tbb_result = tbb_fib(n); }); };
  const int rounds = n >= 30 ? 3 : 7;
  std::vector<double> medians;
  for (auto _ : state) medians = perf::interleaved_medians(rounds, {kokkos, tbb});
  if (kokkos_result != tbb_result) perf::fail_result_check(state, "Kokkos and oneTBB Fibonacci disagree (pool exhausted?)");
  state.counters["threads"] = threads;
  state.counters["kokkos_ms"] = 1e3 * medians[0];
  state.counters["tbb_ms"] = 1e3 * medians[1];
  state.counters["vs_tbb"] = medians[0] / medians[1];
}
#if defined(KOKKOS_ENABLE_SERIAL)
BENCHMARK(BM_FibVsTbb<Kokkos::Serial>)->Name("BM_FibVsTbb/1thread")->Arg(25)->Arg(30)->Iterations(1)->UseRealTime();
#endif
BENCHMARK(BM_FibVsTbb<Kokkos::DefaultHostExecutionSpace>)
    ->Name("BM_FibVsTbb/allthreads")
    ->Arg(25)
    ->Arg(30)
    ->Iterations(1)
    ->UseRealTime();
#endif

// ---- OpenMP tasks -------------------------------------------------------------------------------
long omp_fib(long n) {
  if (n <= 1) return n;
  long a = 0, b = 0;
#pragma omp task shared(a)
  a = omp_fib(n - 2);
#pragma omp task shared(b)
  b = omp_fib(n - 1);
#pragma omp taskwait
  return a + b;
}

void BM_OmpTaskFib(benchmark::State& state) {
  const long n = state.range(0);
  const int threads = static_cast<int>(state.range(1));
  for (auto _ : state) {
    long r = 0;
#pragma omp parallel num_threads(threads)
#pragma omp single
    r = omp_fib(n);
    benchmark::DoNotOptimize(r);
  }
  state.counters["threads"] = threads;
  state.counters["tasks/s"] = benchmark::Counter(static_cast<double>(fib_tasks_and_aggregates(n)),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_OmpTaskFib)->ArgsProduct({{20, 25, 30}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

#if defined(KOKKOS_ENABLE_SERIAL)
BENCHMARK(BM_KokkosFib<Kokkos::Serial>)->Arg(20)->Arg(25)->Arg(30)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif
BENCHMARK(BM_KokkosFib<Kokkos::DefaultHostExecutionSpace>)
    ->Arg(20)
    ->Arg(25)
    ->Arg(30)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
#if defined(KOKKOS_ENABLE_SERIAL)
BENCHMARK(BM_KokkosFib<Kokkos::Serial, true>)->Name("BM_KokkosFibTraced<Kokkos::Serial>")->Arg(20)->Arg(25)->Arg(30)
    ->Unit(benchmark::kMillisecond)->UseRealTime();
#endif
BENCHMARK(BM_KokkosFib<Kokkos::DefaultHostExecutionSpace, true>)
    ->Name("BM_KokkosFibTraced<Kokkos::DefaultHostExecutionSpace>")
    ->Arg(20)
    ->Arg(25)
    ->Arg(30)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// ---- priority-heavy DAG: every inner task spawns two High, one Regular and one Low child ------
void spin(long iterations);

struct PriorityCounts {
  std::atomic<long> high_spawned{0}, high_started{0};
  std::atomic<long> started[3] = {}, behind_high[3] = {};  // by priority (Regular, Low used)
  long tolerance = 0;  // High tasks taken but not yet entered: at most one per other worker
};

template <class Scheduler>
struct PriorityNode {
  Scheduler sched;
  int depth;
  Kokkos::TaskPriority priority;
  PriorityCounts* counts;
  void operator()(typename Scheduler::member_type&) {
    const int p = static_cast<int>(priority);
    if (priority == Kokkos::TaskPriority::High) {
      counts->high_started.fetch_add(1, std::memory_order_relaxed);
    } else {
      const long ready = counts->high_spawned.load(std::memory_order_relaxed) -
                         counts->high_started.load(std::memory_order_relaxed);
      if (ready > counts->tolerance) counts->behind_high[p].fetch_add(1, std::memory_order_relaxed);
    }
    counts->started[p].fetch_add(1, std::memory_order_relaxed);
    spin(200);
    if (depth == 0) return;
    for (int i = 0; i < 2; ++i) {
      if (Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High),
                             PriorityNode{sched, depth - 1, Kokkos::TaskPriority::High, counts})
              .is_null())
        Kokkos::abort("PriorityNode: pool exhausted");
      counts->high_spawned.fetch_add(1, std::memory_order_relaxed);
    }
    for (auto q : {Kokkos::TaskPriority::Regular, Kokkos::TaskPriority::Low})
      if (Kokkos::task_spawn(Kokkos::TaskSingle(sched, q), PriorityNode{sched, depth - 1, q, counts}).is_null())
        Kokkos::abort("PriorityNode: pool exhausted");
  }
};

std::map<int, double>& priority_multiple_seconds() {  // by depth
  static std::map<int, double> m;
  return m;
}

// Registered for TaskSchedulerMultiple first (High/Regular ordered per worker), then for
// TaskScheduler (every priority ordered scheduler-wide), which reports vs_multiple.
template <class Scheduler>
void BM_PriorityDag(benchmark::State& state) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  const int depth = static_cast<int>(state.range(0));
  Scheduler sched(typename Scheduler::memory_space(), 64u << 20, 64, 1024, 4096);
  long started[3] = {}, behind[3] = {};
  double seconds = 0;
  for (auto _ : state) {
    PriorityCounts counts;
    counts.tolerance = Space().concurrency() - 1;
    const auto t0 = std::chrono::steady_clock::now();
    (void)Kokkos::host_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High),
                             PriorityNode<Scheduler>{sched, depth, Kokkos::TaskPriority::High, &counts});
    Kokkos::wait(sched);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (int p = 1; p < 3; ++p) {
      started[p] += counts.started[p].load();
      behind[p] += counts.behind_high[p].load();
    }
  }
  const double per_iter = seconds / static_cast<double>(state.iterations());
  const auto fraction = [&](int p) {
    return started[p] == 0 ? 0.0 : static_cast<double>(behind[p]) / static_cast<double>(started[p]);
  };
  state.counters["threads"] = Space().concurrency();
  state.counters["regular_behind_high"] = fraction(1);
  state.counters["low_behind_high"] = fraction(2);
  if constexpr (std::is_same_v<Scheduler, Kokkos::TaskSchedulerMultiple<Space>>) {
    priority_multiple_seconds()[depth] = per_iter;
  } else if (auto it = priority_multiple_seconds().find(depth); it != priority_multiple_seconds().end()) {
    state.counters["vs_multiple"] = per_iter / it->second;
  }
}

// ---- Task Bench stencil: width = threads, each task depends on 3 tasks of the previous step ----
void spin(long iterations) {
  volatile double x = 1.0;
  for (long i = 0; i < iterations; ++i) x = x * 1.0000001 + 1e-9;
}

template <class Scheduler>
struct StencilTask {
  long grain;
  void operator()(typename Scheduler::member_type&) { spin(grain); }
};

template <class Scheduler>
double run_stencil(const Scheduler& sched, int width, int steps, long grain) {
  using FV = typename Scheduler::template future_type<void>;
  std::vector<FV> prev(width), cur(width);
  const auto t0 = std::chrono::steady_clock::now();
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < width; ++i) {
      FV deps[3] = {i > 0 ? prev[i - 1] : FV(), prev[i], i + 1 < width ? prev[i + 1] : FV()};
      FV all = Kokkos::when_all(deps, 3);
      cur[i] = all.is_null() ? Kokkos::host_spawn(Kokkos::TaskSingle(sched), StencilTask<Scheduler>{grain})
                             : Kokkos::host_spawn(Kokkos::TaskSingle(sched, all), StencilTask<Scheduler>{grain});
    }
    std::swap(prev, cur);
  }
  Kokkos::wait(sched);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void BM_StencilMETG(benchmark::State& state) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  using Scheduler = Kokkos::TaskScheduler<Space>;
  const int width = Space().concurrency();
  const int steps = static_cast<int>(state.range(0));
  Scheduler sched(Scheduler::memory_space(), 16u << 20, 64, 1024, 4096);
  // Cost of one spin iteration, measured serially.
  const long calib = 1 << 20;
  const auto c0 = std::chrono::steady_clock::now();
  spin(calib);
  const double sec_per_iter = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count() / calib;
  double metg_us = 0;
  for (auto _ : state) {
    metg_us = 0;
    for (long grain = 1 << 16; grain >= 1; grain /= 2) {
      const double elapsed = run_stencil(sched, width, steps, grain);
      const double ideal = static_cast<double>(steps) * width * grain * sec_per_iter / width;
      const double efficiency = ideal / elapsed;
      if (efficiency < 0.5) break;
      metg_us = grain * sec_per_iter * 1e6;
    }
  }
  state.counters["width"] = width;
  state.counters["METG_us"] = metg_us;  // 0: even the largest grain was below 50%
}
BENCHMARK(BM_PriorityDag<Kokkos::TaskSchedulerMultiple<Kokkos::DefaultHostExecutionSpace>>)
    ->Arg(7)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_PriorityDag<Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>>)
    ->Arg(7)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_StencilMETG)->Arg(100)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace

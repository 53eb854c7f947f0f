// Launch overhead of parallel_for and parallel_reduce on each host back end, against a plain
// OpenMP loop over the same range measured in the same benchmark:
//
//   For/<Space>     parallel_for over 2 indices (one store each)  vs  #pragma omp parallel for
//   Reduce/<Space>  parallel_reduce summing 1000 ints             vs  #pragma omp parallel for reduction(+:)
//   (the baseline on as many threads as the space; for Serial, one thread: the plain loop)
//   ForTraced/<Space>  For with a Chrome trace running; untraced_ratio = its time / For's
//
// Counters: us_per_launch (this back end, the benchmark's own loop); omp_us_per_launch (the
// baseline with the same thread count) and ratio_to_omp, both timed side by side with this back
// end's launch after the loop: rounds of blocks of 200 launches of each in a rotating order, the
// ratio of their median blocks.  For/<Space> on two threads or more also reports round_trip_ns,
// a cache line's round trip between the launching thread and the space's second thread (ranks 0
// and 1 of a team of two), and round_trips, the launch in those round trips: the unit of the
// Threads launch goal, both timed in alternating rounds after the loop (a VM's core-to-core
// latency drifts by several times from one minute to the next).
// Reduce/<Space> also reports, timed side by side with the reduction and the baseline:
// for_us_per_launch, For's launch on the same space; short_us_per_launch, a parallel_reduce over
// For's 2 indices; ratio_to_for = short_us_per_launch / for_us_per_launch, the launch cost of a
// reduction against a parallel_for of the same shape (the goal is <= 1.5); and ratio_1000_to_for,
// the 1000-int reduction's median block / For's, which also counts the additions.
#include "PerfInterleaved.hpp"
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;

// benchmark 1.7.1's DoNotOptimize(T&) ("+m,r") is miscompiled by GCC 12 after an OpenMP
// reduction (the value reads back as 0); the const overload is an input-only asm.
template <class T>
void keep(const T& value) {
  benchmark::DoNotOptimize(value);
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The baseline's threads: as many as the back end under test runs.  With one (Serial) the
// baseline is the plain loop: the back end enters no parallel region either.
template <class Space>
int omp_threads_of() {
  return Space().concurrency();
}

// One launch of each kind (named functions, not lambdas: nvcc allows no extended lambda inside
// another lambda, and the interleaved timing below wraps each launch in one).
void omp_for_once(int* out, int n, int threads) {
  if (threads == 1) {
    for (int i = 0; i < n; ++i) out[i] = i;
  } else {
#pragma omp parallel for num_threads(threads)
    for (int i = 0; i < n; ++i) out[i] = i;
  }
  benchmark::ClobberMemory();
}

long omp_reduce_once(const int* in, int n, int threads) {
  long sum = 0;
  if (threads == 1) {
    for (int i = 0; i < n; ++i) sum += in[i];
  } else {
#pragma omp parallel for num_threads(threads) reduction(+ : sum)
    for (int i = 0; i < n; ++i) sum += in[i];
  }
  keep(sum);
  return sum;
}

template <class Space>
void kdag_for_once(const Kokkos::RangePolicy<Space>& policy, int* out) {
  Kokkos::parallel_for(policy, KOKKOS_LAMBDA(std::int64_t i) { out[i] = int(i); });
  benchmark::ClobberMemory();
}

template <class Space>
long kdag_reduce_once(const Kokkos::RangePolicy<Space>& policy, const int* in) {
  long result = 0;
  Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(std::int64_t i, long& s) { s += in[i]; }, result);
  keep(result);
  return result;
}

// Microseconds per launch of each variant, timed side by side: rounds of blocks of launches in a
// rotating order (perf::interleaved_medians), the median block of each.  The ratios of these
// medians are the benchmark's ratios: a VM's speed drifts by tens of percent between one
// second and the next, so two loops timed one after the other disagree from run to run.
std::vector<double> interleaved_us_per_launch(const std::vector<std::function<void()>>& launches) {
  constexpr int per_block = 200;
  std::vector<std::function<void()>> blocks;
  for (const auto& launch : launches) {
    blocks.push_back([&launch] {
      for (int i = 0; i < per_block; ++i) launch();
    });
  }
  std::vector<double> us = perf::interleaved_medians(15, blocks);
  for (double& u : us) u *= 1e6 / per_block;
  return us;
}

// The line the two threads of round_trip_ns pass back and forth (at namespace scope: nvcc's
// extended lambdas may not capture pointers to function-local types).
struct alignas(64) RoundTripToken {
  std::atomic<long> value{0};
};

// Ranks 0 and 1 of one team of two pass a token back and forth 2000 times in one launch:
// nanoseconds per round trip (0 below two threads).
template <class Space>
double one_round_trip_ns() {
  if (Space().concurrency() < 2) return 0;
  constexpr long passes = 2000;
  RoundTripToken token;
  RoundTripToken* const shared = &token;
  double launch_seconds = 0;
  double* const measured = &launch_seconds;
  // A host lambda: the body is host-only code (std::atomic, the clock), and Space is a host space.
  Kokkos::parallel_for(
      Kokkos::TeamPolicy<Space>(1, 2), [=](const typename Kokkos::TeamPolicy<Space>::member_type& member) {
        std::atomic<long>& v = shared->value;
        if (member.team_rank() == 1) {
          for (long k = 0; k < passes; ++k) {
            while (v.load(std::memory_order_acquire) != 2 * k + 1) {
            }
            v.store(2 * k + 2, std::memory_order_release);
          }
        } else if (member.team_rank() == 0) {
          const auto t0 = Clock::now();
          for (long k = 0; k < passes; ++k) {
            v.store(2 * k + 1, std::memory_order_release);
            while (v.load(std::memory_order_acquire) != 2 * k + 2) {
            }
          }
          *measured = seconds_since(t0);
        }
      });
  Kokkos::fence();
  return 1e9 * launch_seconds / double(passes);
}

// The launch in round trips between its two threads: rounds of a block of 200 launches and one
// round-trip measurement, alternating, so that both meet the same machine (a VM's core-to-core
// latency drifts by several times from one minute to the next); the median block over the
// median round trip.  Writes the median round trip to `trip_ns`.
template <class Space>
double launch_in_round_trips(const Kokkos::RangePolicy<Space>& policy, int* out, double& trip_ns) {
  constexpr int rounds = 41, per_block = 200;
  std::vector<double> launch_ns, trip;
  for (int round = 0; round < rounds; ++round) {
    const auto t0 = Clock::now();
    for (int i = 0; i < per_block; ++i) kdag_for_once(policy, out);
    launch_ns.push_back(1e9 * seconds_since(t0) / per_block);
    trip.push_back(one_round_trip_ns<Space>());
  }
  std::vector<std::vector<double>> samples{launch_ns, trip};
  const std::vector<double> median = perf::medians_of_samples(samples);
  trip_ns = median[1];
  return median[1] > 0 ? median[0] / median[1] : 0.0;
}

// us_per_launch: the benchmark's own loop; the ratio: both launches timed side by side.
void report(benchmark::State& state, double seconds, double side_by_side_us, double omp_us, int threads) {
  state.counters["us_per_launch"] = 1e6 * seconds / double(state.iterations());
  state.counters["omp_us_per_launch"] = omp_us;
  state.counters["ratio_to_omp"] = omp_us > 0 ? side_by_side_us / omp_us : 0.0;
  state.counters["threads"] = threads;
}

// Traced: parallel_for with a Chrome trace being written (Kokkos_Trace.hpp); once the calling
// thread's ring is full the rest of the launches' events are dropped (counted), as in a long
// traced run between fences.  untraced_ratio = this time per launch / the untraced For's.
// The untraced For's microseconds per launch, by space, for ForTraced's ratio.
std::map<std::string, double>& untraced_for_us() {
  static std::map<std::string, double> m;
  return m;
}

template <class Space, bool Traced = false>
void For(benchmark::State& state) {
  double& untraced_us = untraced_for_us()[Space::name()];
  constexpr int n = 2;
  std::vector<int> data(n, 0);
  int* out = data.data();
  const Kokkos::RangePolicy<Space> policy(0, n);
  const std::string trace = "/tmp/kdag_perf_launch_trace.json";
  const int threads = omp_threads_of<Space>();
  if (Traced) Kokkos::Experimental::start_trace(trace);
  const auto start = Clock::now();
  for (auto _ : state) kdag_for_once(policy, out);
  const double seconds = seconds_since(start);
  const std::vector<double> side_by_side =
      interleaved_us_per_launch({[&] { kdag_for_once(policy, out); }, [&] { omp_for_once(out, n, threads); }});
  if (Traced) {
    Kokkos::Experimental::stop_trace();
    std::remove(trace.c_str());
    if (untraced_us > 0) state.counters["untraced_ratio"] = 1e6 * seconds / double(state.iterations()) / untraced_us;
  } else {
    untraced_us = 1e6 * seconds / double(state.iterations());
  }
  report(state, seconds, side_by_side[0], side_by_side[1], Space().impl_thread_pool_size());
  if (!Traced && Space().concurrency() >= 2) {
    double trip_ns = 0;
    state.counters["round_trips"] = launch_in_round_trips(policy, out, trip_ns);
    state.counters["round_trip_ns"] = trip_ns;
  }
}

template <class Space>
void Reduce(benchmark::State& state) {
  constexpr int n = 1000;
  std::vector<int> data(n);
  for (int i = 0; i < n; ++i) data[i] = i % 17;
  const int* in = data.data();
  const Kokkos::RangePolicy<Space> policy(0, n);
  std::vector<int> for_data(2, 0);
  const Kokkos::RangePolicy<Space> for_policy(0, 2);
  long short_result = 0;
  const int threads = omp_threads_of<Space>();
  long result = 0, omp_result = 0;
  const auto start = Clock::now();
  for (auto _ : state) result = kdag_reduce_once(policy, in);
  const double seconds = seconds_since(start);
  const std::vector<double> side_by_side = interleaved_us_per_launch({[&] { result = kdag_reduce_once(policy, in); },
                                                                      [&] { omp_result = omp_reduce_once(in, n, threads); },
                                                                      [&] { kdag_for_once(for_policy, for_data.data()); },
                                                                      [&] { short_result = kdag_reduce_once(for_policy, in); }});
  if (result != omp_result) perf::fail_result_check(state, "parallel_reduce and the OpenMP baseline disagree");
  if (short_result != in[0] + in[1]) perf::fail_result_check(state, "parallel_reduce over 2 indices is wrong");
  report(state, seconds, side_by_side[0], side_by_side[1], Space().impl_thread_pool_size());
  state.counters["for_us_per_launch"] = side_by_side[2];
  state.counters["short_us_per_launch"] = side_by_side[3];
  state.counters["ratio_to_for"] = side_by_side[3] / side_by_side[2];
  state.counters["ratio_1000_to_for"] = side_by_side[0] / side_by_side[2];
}

#if defined(KOKKOS_ENABLE_SERIAL)
BENCHMARK(For<Kokkos::Serial>)->Name("For/Serial")->UseRealTime();
BENCHMARK(Reduce<Kokkos::Serial>)->Name("Reduce/Serial")->UseRealTime();
BENCHMARK(For<Kokkos::Serial, true>)->Name("ForTraced/Serial")->UseRealTime();
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
BENCHMARK(For<Kokkos::OpenMP>)->Name("For/OpenMP")->UseRealTime();
BENCHMARK(Reduce<Kokkos::OpenMP>)->Name("Reduce/OpenMP")->UseRealTime();
BENCHMARK(For<Kokkos::OpenMP, true>)->Name("ForTraced/OpenMP")->UseRealTime();
#endif
#if defined(KOKKOS_ENABLE_THREADS)
BENCHMARK(For<Kokkos::Threads>)->Name("For/Threads")->UseRealTime();
BENCHMARK(Reduce<Kokkos::Threads>)->Name("Reduce/Threads")->UseRealTime();
BENCHMARK(For<Kokkos::Threads, true>)->Name("ForTraced/Threads")->UseRealTime();
#endif

}  // namespace

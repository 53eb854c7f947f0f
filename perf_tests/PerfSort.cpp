// Kokkos::sort of random doubles beside the standard library and oneTBB, in the same run, and
// fill_random's throughput beside a std::mt19937_64 loop.
//
//   SortDoubles/n    kokkos   Kokkos::sort(exec, view) on the default host space
//                    std      std::sort on one thread
//                    par      std::sort(std::execution::par, ...) (libstdc++'s TBB back end)
//                    tbb      tbb::parallel_sort
//   Every variant sorts a fresh copy of the same random data; only the sort is timed; TBB
//   (and so std::execution::par) is limited to the Kokkos space's thread count.
//   Counters: *_ms (medians), std_over_kokkos, par_over_kokkos, tbb_over_kokkos (> 1: Kokkos
//   is faster).
//
//   FillRandom/n     kokkos   Kokkos::fill_random(exec, view, pool, 1.0), XorShift64 pool
//                    mt       std::mt19937_64 + uniform_real_distribution on one thread
//   Counters: kokkos_Mnum_per_s, mt_Mnum_per_s, mt_over_kokkos (time ratio).
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <Kokkos_Sort.hpp>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#if defined(KDAG_HAVE_TBB)
#include <execution>
#include <tbb/global_control.h>
#include <tbb/parallel_sort.h>
#endif

namespace {

using Space = Kokkos::DefaultHostExecutionSpace;

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Median seconds of each timed variant over `rounds` rounds in rotating order; prepare() runs
// untimed before every timed call.
std::vector<double> medians(int rounds, const std::function<void()>& prepare,
                            const std::vector<std::function<void()>>& variants) {
  std::vector<std::vector<double>> samples(variants.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t j = 0; j < variants.size(); ++j) {
      const std::size_t k = (j + static_cast<std::size_t>(r)) % variants.size();
      prepare();
      Kokkos::Timer timer;
      variants[k]();
      samples[k].push_back(timer.seconds());
    }
  }
  std::vector<double> out;
  for (auto& s : samples) out.push_back(median(s));
  return out;
}

void SortDoubles(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const int rounds = static_cast<int>(state.range(1));
  std::vector<double> source(n);
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (auto& x : source) x = uniform(rng);
  Kokkos::View<double*, Space> view(Kokkos::view_alloc("data", Kokkos::WithoutInitializing), n);
  double* data = view.data();
  const double* from = source.data();
  const Space exec;
  auto prepare = [&] {
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Space>(exec, 0, n), KOKKOS_LAMBDA(std::size_t i) { data[i] = from[i]; });
    exec.fence();
  };
  std::vector<std::string> names = {"kokkos", "std"};
  std::vector<std::function<void()>> variants = {
      [&] {
        Kokkos::sort(exec, view);
        exec.fence();
      },
      [&] { std::sort(data, data + n); }};
#if defined(KDAG_HAVE_TBB)
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(exec.concurrency()));
  names.push_back("par");
  variants.push_back([&] { std::sort(std::execution::par, data, data + n); });
  names.push_back("tbb");
  variants.push_back([&] { tbb::parallel_sort(data, data + n); });
#endif
  std::vector<double> t;
  for (auto _ : state) t = medians(rounds, prepare, variants);
  if (!std::is_sorted(data, data + n)) perf::fail_result_check(state, "the last sort left the data unsorted");
  for (std::size_t k = 0; k < names.size(); ++k) {
    state.counters[names[k] + "_ms"] = t[k] * 1e3;
    if (k > 0) state.counters[names[k] + "_over_kokkos"] = t[k] / t[0];
  }
  state.counters["threads"] = exec.concurrency();
}
BENCHMARK(SortDoubles)->Args({1 << 20, 7})->Args({1 << 24, 5})->Iterations(1)->Unit(benchmark::kMillisecond);

void FillRandom(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const int rounds = static_cast<int>(state.range(1));
  Kokkos::View<double*, Space> view(Kokkos::view_alloc("data", Kokkos::WithoutInitializing), n);
  const Space exec;
  Kokkos::Random_XorShift64_Pool<Space> pool(12345);
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  double* data = view.data();
  std::vector<std::function<void()>> variants = {[&] {
                                                   Kokkos::fill_random(exec, view, pool, 1.0);
                                                   exec.fence();
                                                 },
                                                 [&] {
                                                   for (std::size_t i = 0; i < n; ++i) data[i] = uniform(rng);
                                                 }};
  std::vector<double> t;
  for (auto _ : state) t = medians(rounds, [] {}, variants);
  benchmark::DoNotOptimize(data[n / 2]);
  state.counters["kokkos_Mnum_per_s"] = n / t[0] * 1e-6;
  state.counters["mt_Mnum_per_s"] = n / t[1] * 1e-6;
  state.counters["mt_over_kokkos"] = t[1] / t[0];
  state.counters["threads"] = exec.concurrency();
}
BENCHMARK(FillRandom)->Args({1 << 24, 7})->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

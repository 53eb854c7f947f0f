// Kokkos' containers beside their usual alternatives, in the same run:
//
//   BM_MapInsert      UnorderedMap::insert of n random keys (about half of them repeats) from a
//                     parallel_for, beside oneTBB's concurrent_hash_map::insert of the same keys
//                     from the same parallel_for (same workers, same split).  Both maps are sized
//                     for the distinct keys and emptied before each timed insert pass (untimed).
//   BM_Histogram      a histogram of n random bins through ScatterView (default duplication of
//                     the space; reset + updates + contribute timed), beside atomic_add into a
//                     plain View; the histogram is zeroed before each pass (untimed).
//
// Counters (medians over interleaved passes): kdag_Mins_s / tbb_Mins_s (million inserts per
// second) and kdag_over_tbb; scatter_Mupd_s / atomic_Mupd_s (million updates per second) and
// scatter_over_atomic.  A ratio > 1 means the kdag container is faster.
//
// Run for real numbers:  PerfContainers --kokkos-num-threads=2
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>
#include <Kokkos_UnorderedMap.hpp>

#include "PerfInterleaved.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#if defined(KDAG_HAVE_TBB)
#include <oneapi/tbb/concurrent_hash_map.h>
#endif

namespace {

std::vector<uint32_t> random_keys(std::size_t n, uint32_t distinct, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> keys(n);
  for (auto& k : keys) k = (rng() % distinct) * 2654435761u;
  return keys;
}

template <class Space>
void BM_MapInsert(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const uint32_t distinct = static_cast<uint32_t>(n / 2);
  const auto host_keys = random_keys(static_cast<std::size_t>(n), distinct, 7);
  Kokkos::View<uint32_t*, Space> keys("keys", n);
  for (int i = 0; i < n; ++i) keys(i) = host_keys[static_cast<std::size_t>(i)];

  using Map = Kokkos::UnorderedMap<uint32_t, uint32_t, Space>;
  Map map(distinct);
  std::vector<perf::SetupAndPass> variants;
  variants.push_back({[&] { map.clear(); },
                      [&] {
                        Kokkos::parallel_for(
                            "kdag_insert", Kokkos::RangePolicy<Space>(0, n),
                            KOKKOS_LAMBDA(int i) { map.insert(keys(i), uint32_t(i)); });
                        Kokkos::fence();
                      }});
#if defined(KDAG_HAVE_TBB)
  using TbbMap = tbb::concurrent_hash_map<uint32_t, uint32_t>;
  TbbMap tbb_map(distinct);
  // clear() also frees the buckets: the setup sizes the map again, as kdag's keeps its capacity.
  variants.push_back({[&] {
                        tbb_map.clear();
                        tbb_map.rehash(distinct);
                      },
                      [&] {
                        TbbMap* m = &tbb_map;
                        Kokkos::parallel_for(
                            "tbb_insert", Kokkos::RangePolicy<Space>(0, n),
                            [=](int i) { m->insert(std::make_pair(keys(i), uint32_t(i))); });
                        Kokkos::fence();
                      }});
#endif
  std::vector<double> med;
  for (auto _ : state) med = perf::interleaved_medians_after_setup(15, variants);

  // Both hold every distinct key once, or the comparison means nothing.
  uint32_t expected = 0;
  {
    std::vector<uint32_t> sorted = host_keys;
    std::sort(sorted.begin(), sorted.end());
    expected = static_cast<uint32_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
  }
  if (map.failed_insert() || map.size() != expected) return perf::fail_result_check(state, "UnorderedMap lost keys");
  state.counters["kdag_Mins_s"] = n / med[0] / 1e6;
#if defined(KDAG_HAVE_TBB)
  if (tbb_map.size() != expected) return perf::fail_result_check(state, "concurrent_hash_map lost keys");
  state.counters["tbb_Mins_s"] = n / med[1] / 1e6;
  state.counters["kdag_over_tbb"] = med[1] / med[0];
#endif
}

template <class Space>
void BM_Histogram(benchmark::State& state) {
  const int n = 1 << 22;
  const int bins = static_cast<int>(state.range(0));
  std::mt19937 rng(11);
  Kokkos::View<int*, Space> item_bin("item_bin", n);
  for (int i = 0; i < n; ++i) item_bin(i) = static_cast<int>(rng() % static_cast<unsigned>(bins));
  Kokkos::View<long*, Space> hist_scatter("hist_scatter", bins), hist_atomic("hist_atomic", bins);
  auto scatter = Kokkos::Experimental::create_scatter_view(hist_scatter);

  std::vector<perf::SetupAndPass> variants;
  variants.push_back({[&] { Kokkos::deep_copy(hist_scatter, 0L); },
                      [&] {
                        scatter.reset();
                        Kokkos::parallel_for(
                            "scatter_histogram", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
                              auto a = scatter.access();
                              a(item_bin(i)) += 1;
                            });
                        Kokkos::Experimental::contribute(hist_scatter, scatter);
                        Kokkos::fence();
                      }});
  variants.push_back({[&] { Kokkos::deep_copy(hist_atomic, 0L); },
                      [&] {
                        Kokkos::parallel_for(
                            "atomic_histogram", Kokkos::RangePolicy<Space>(0, n),
                            KOKKOS_LAMBDA(int i) { Kokkos::atomic_add(&hist_atomic(item_bin(i)), 1L); });
                        Kokkos::fence();
                      }});
  std::vector<double> med;
  for (auto _ : state) med = perf::interleaved_medians_after_setup(15, variants);
  for (int b = 0; b < bins; ++b)
    if (hist_scatter(b) != hist_atomic(b)) return perf::fail_result_check(state, "the two histograms differ");
  state.counters["scatter_Mupd_s"] = n / med[0] / 1e6;
  state.counters["atomic_Mupd_s"] = n / med[1] / 1e6;
  state.counters["scatter_over_atomic"] = med[1] / med[0];
}

BENCHMARK(BM_MapInsert<Kokkos::DefaultHostExecutionSpace>)->Arg(1 << 16)->Arg(1 << 20)->Iterations(1)->UseRealTime();
BENCHMARK(BM_Histogram<Kokkos::DefaultHostExecutionSpace>)->Arg(16)->Arg(1024)->Arg(1 << 16)->Iterations(1)->UseRealTime();
#if defined(KOKKOS_ENABLE_THREADS) && !defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_THREADS)
BENCHMARK(BM_MapInsert<Kokkos::Threads>)->Arg(1 << 20)->Iterations(1)->UseRealTime();
BENCHMARK(BM_Histogram<Kokkos::Threads>)->Arg(16)->Arg(1 << 16)->Iterations(1)->UseRealTime();
#endif

}  // namespace

// Stress of the work graph's concurrent queue (impl/Kokkos_WorkGraphQueue.hpp): many launches of
// graphs that make the workers contend on the ready ranges and the waiting counts, per item
// (unit_size = 1, and without the construction check) and per unit, with and without
// priorities; and the per-worker homes of the ready units under many threads.  Run under
// ThreadSanitizer.
#include "TestCommon.hpp"
#include "WorkGraphTestCommon.hpp"

#include <Kokkos_WorkGraphPolicy.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

template <class Space>
struct WorkGraphStress : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(WorkGraphStress, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

using Options = Kokkos::Experimental::WorkGraphOptions;
using Edges = Kokkos::Test::WorkGraphEdges;

template <class Policy>
typename Policy::graph_type make_graph(std::int32_t n, const Edges& edges) {
  return Kokkos::Test::make_work_graph_of<Policy>(n, edges);
}

// Each item records, when it starts, how many of its predecessors have finished: it must be
// all of them.  Reads through the predecessor lists while other items finish.
struct CheckPredecessors {
  const std::int32_t* pred_row_map;
  const std::int32_t* pred_entries;
  int* finished;
  int* violations;
  int* calls;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    for (std::int32_t k = pred_row_map[i]; k < pred_row_map[i + 1]; ++k) {
      if (Kokkos::atomic_load(&finished[pred_entries[k]]) == 0) Kokkos::atomic_increment(violations);
    }
    Kokkos::atomic_increment(&calls[i]);
    Kokkos::atomic_store(&finished[i], 1);
  }
};

template <class Space>
void stress(std::int32_t n, const Edges& edges, const std::vector<int>& priority, const Options& options, int launches,
            const std::string& what) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
  std::vector<std::int32_t> pred_row_map(static_cast<std::size_t>(n) + 1, 0), pred_entries(edges.size());
  for (const auto& e : edges) ++pred_row_map[static_cast<std::size_t>(e.second) + 1];
  for (std::int32_t i = 0; i < n; ++i) pred_row_map[static_cast<std::size_t>(i) + 1] += pred_row_map[static_cast<std::size_t>(i)];
  {
    std::vector<std::int32_t> cursor(pred_row_map.begin(), pred_row_map.end() - 1);
    for (const auto& e : edges) pred_entries[static_cast<std::size_t>(cursor[static_cast<std::size_t>(e.second)]++)] = e.first;
  }
  const auto graph = make_graph<Policy>(n, edges);
  Kokkos::View<int*, Kokkos::HostSpace> p("priority", priority.size());
  for (std::size_t i = 0; i < priority.size(); ++i) p(i) = priority[i];
  const Policy policy = priority.empty() ? Policy(graph, options) : Policy(graph, p, options);
  for (int launch = 0; launch < launches; ++launch) {
    std::vector<int> finished(static_cast<std::size_t>(n), 0), calls(static_cast<std::size_t>(n), 0);
    int violations = 0;
    Kokkos::parallel_for(policy, CheckPredecessors{pred_row_map.data(), pred_entries.data(), finished.data(),
                                                   &violations, calls.data()});
    ASSERT_EQ(violations, 0) << what << ", launch " << launch;
    for (std::int32_t i = 0; i < n; ++i) ASSERT_EQ(calls[static_cast<std::size_t>(i)], 1) << what << ", item " << i;
  }
}

const Options stress_options[] = {Options{.check_graph = true, .unit_size = 1}, Options{.check_graph = false},
                                  Options{.check_graph = true, .unit_size = 4}, Options{}};

// Producers and consumers: every consumer waits on eight random producers, so the last
// decrements of a count race between the workers; consumers feed a second layer.
TYPED_TEST(WorkGraphStress, ContendedFanIn) {
  const std::int32_t layer = 1500, n = 3 * layer;
  Edges edges;
  std::mt19937 rng(77);
  for (std::int32_t c = layer; c < n; ++c) {
    for (int k = 0; k < 8; ++k) edges.emplace_back(static_cast<std::int32_t>(rng() % static_cast<unsigned>(layer)) + (c >= 2 * layer ? layer : 0), c);
  }
  for (const Options& options : stress_options) {
    stress<TypeParam>(n, edges, {}, options, 20, "fan-in unit_size=" + std::to_string(options.unit_size));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Priorities spread over 16 ready ranges, pushed and popped concurrently.
TYPED_TEST(WorkGraphStress, ManyPriorities) {
  const std::int32_t n = 6000;
  Edges edges;
  std::vector<int> priority(static_cast<std::size_t>(n));
  std::mt19937 rng(78);
  for (std::int32_t j = 0; j < n; ++j) {
    priority[static_cast<std::size_t>(j)] = static_cast<int>(rng() % 16);
    if (j == 0) continue;
    const int k = static_cast<int>(rng() % 3);
    for (int e = 0; e < k; ++e) edges.emplace_back(static_cast<std::int32_t>(rng() % static_cast<unsigned>(j)), j);
  }
  for (const Options& options : stress_options) {
    stress<TypeParam>(n, edges, priority, options, 20, "priorities unit_size=" + std::to_string(options.unit_size));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Long chains side by side: workers keep the successor they make ready, so they mostly run
// their own chain, and steal the others' pushed work at the joins.
TYPED_TEST(WorkGraphStress, ChainsWithJoins) {
  const std::int32_t chains = 8, length = 500, n = chains * length;
  Edges edges;
  for (std::int32_t c = 0; c < chains; ++c) {
    for (std::int32_t k = 0; k + 1 < length; ++k) edges.emplace_back(c * length + k, c * length + k + 1);
  }
  for (std::int32_t k = 50; k < length; k += 50) {  // every 50 steps, chain c waits on chain c+1
    for (std::int32_t c = 0; c + 1 < chains; ++c) edges.emplace_back((c + 1) * length + k - 1, c * length + k);
  }
  for (const Options& options : stress_options) {
    stress<TypeParam>(n, edges, {}, options, 20, "chains unit_size=" + std::to_string(options.unit_size));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Reductions repeated: the per-worker accumulators and the queue together.
TYPED_TEST(WorkGraphStress, RepeatedReduce) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  const std::int32_t n = 4000;
  Edges edges;
  std::mt19937 rng(79);
  for (std::int32_t j = 1; j < n; ++j) edges.emplace_back(static_cast<std::int32_t>(rng() % static_cast<unsigned>(j)), j);
  const auto graph = make_graph<Policy>(n, edges);
  for (const Options& options : stress_options) {
    const Policy policy(graph, options);
    for (int launch = 0; launch < 50; ++launch) {
      long sum = 0;
      Kokkos::parallel_reduce(policy, [](std::int32_t i, long& s) { s += i + 1; }, sum);
      ASSERT_EQ(sum, static_cast<long>(n) * (n + 1) / 2);
    }
  }
}


// The homes under contention: many threads each run their own home from the front while the
// others steal from its back and share the queue behind the homes.  Every unit is taken
// exactly once, and each worker takes its own home's units in ascending slot order.
TEST(WorkGraphQueueStress, HomesHandOutEveryUnitOnce) {
  using Queue = Kokkos::Impl::WorkGraphQueue;
  const int workers = 8;
  std::mt19937 rng(80);
  for (int round = 0; round < 200; ++round) {
    const auto home_units = static_cast<std::int32_t>(rng() % 400), shared_units = static_cast<std::int32_t>(rng() % 50);
    std::vector<std::int64_t> prefix(1, 0);
    for (std::int32_t k = 0; k < home_units; ++k) prefix.push_back(prefix.back() + 1 + static_cast<std::int64_t>(rng() % 5));
    const auto bounds = Kokkos::Impl::work_graph_balanced_split(prefix, workers);
    std::vector<std::int32_t> ready(static_cast<std::size_t>(home_units + shared_units));
    std::iota(ready.begin(), ready.end(), 0);
    std::shuffle(ready.begin(), ready.end(), rng);
    std::vector<int> slot_of(ready.size());
    for (std::size_t k = 0; k < ready.size(); ++k) slot_of[static_cast<std::size_t>(ready[k])] = static_cast<int>(k);
    Kokkos::Test::HandWorkGraphQueue hq(ready, bounds, home_units + shared_units);
    const Queue& q = hq.q;
    std::vector<std::vector<std::int32_t>> taken(workers);
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w) {
      threads.emplace_back([&, w, seed = rng()] {
        std::mt19937 local(seed);
        for (std::int32_t u; (u = q.pop<true>(w)) != Queue::empty;) {
          taken[static_cast<std::size_t>(w)].push_back(u);
          for (unsigned spin = local() % 64; spin > 0; --spin) Kokkos::Impl::pause();  // vary the interleaving
        }
      });
    }
    for (auto& t : threads) t.join();
    std::vector<int> count(ready.size(), 0);
    for (int w = 0; w < workers; ++w) {
      int last_own = -1;
      for (std::int32_t u : taken[static_cast<std::size_t>(w)]) {
        ++count[static_cast<std::size_t>(u)];
        const int slot = slot_of[static_cast<std::size_t>(u)];
        if (slot >= bounds[static_cast<std::size_t>(w)] && slot < bounds[static_cast<std::size_t>(w) + 1]) {
          ASSERT_GT(slot, last_own) << "round " << round << ", worker " << w;
          last_own = slot;
        }
      }
    }
    for (std::size_t u = 0; u < count.size(); ++u) ASSERT_EQ(count[u], 1) << "round " << round << ", unit " << u;
    ASSERT_FALSE(q.any_ready());
  }
}

}  // namespace

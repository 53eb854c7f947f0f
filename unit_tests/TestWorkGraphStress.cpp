// Stress of the work graph's concurrent queue (impl/workgraph/Kokkos_WorkGraphQueue.hpp): many launches of
// graphs that make the workers contend on the ready ranges and the waiting counts, per item
// (unit_size = 1, and without the construction check) and per unit, with and without
// priorities; the per-worker homes of the ready units under many threads; and the counting
// mode of completions (the one a GPU's thousands of warps use) on many host threads, against
// random DAGs and a cycle.  On every back end, Kokkos::Cuda included (skipped, naming why,
// without a GPU).  Run under ThreadSanitizer.
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
TYPED_TEST_SUITE(WorkGraphStress, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

using Options = Kokkos::Experimental::WorkGraphOptions;
using Edges = Kokkos::Test::WorkGraphEdges;

template <class Policy>
typename Policy::graph_type make_graph(std::int32_t n, const Edges& edges) {
  return Kokkos::Test::make_work_graph_of<Policy>(n, edges);
}

// The predecessor lists of `edges` (the transpose of the execute-after graph), as CRS arrays.
struct Predecessors {
  std::vector<std::int32_t> row_map, entries;
  Predecessors(std::int32_t n, const Edges& edges) : row_map(static_cast<std::size_t>(n) + 1, 0), entries(edges.size()) {
    for (const auto& e : edges) ++row_map[static_cast<std::size_t>(e.second) + 1];
    for (std::int32_t i = 0; i < n; ++i) row_map[static_cast<std::size_t>(i) + 1] += row_map[static_cast<std::size_t>(i)];
    std::vector<std::int32_t> cursor(row_map.begin(), row_map.end() - 1);
    for (const auto& e : edges) entries[static_cast<std::size_t>(cursor[static_cast<std::size_t>(e.second)]++)] = e.first;
  }
};

// Each item records, when it starts, how many of its predecessors have finished: it must be
// all of them.  Reads through the predecessor lists while other items finish.  Raw pointers
// into memory of the launch's space.
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

template <class MemorySpace, class T>
Kokkos::View<T*, MemorySpace> to_space(const std::vector<T>& v) {
  Kokkos::View<T*, MemorySpace> out("stress", v.size());
  Kokkos::deep_copy(out, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return out;
}

template <class Space>
void stress(std::int32_t n, const Edges& edges, const std::vector<int>& priority, const Options& options, int launches,
            const std::string& what) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
  using Memory = typename Space::memory_space;
  const Predecessors pred(n, edges);
  const auto pred_row_map = to_space<Memory>(pred.row_map);
  const auto pred_entries = to_space<Memory>(pred.entries);
  const auto graph = make_graph<Policy>(n, edges);
  Kokkos::View<int*, Kokkos::HostSpace> p("priority", priority.size());
  for (std::size_t i = 0; i < priority.size(); ++i) p(i) = priority[i];
  const Policy policy = priority.empty() ? Policy(graph, options) : Policy(graph, p, options);
  for (int launch = 0; launch < launches; ++launch) {
    Kokkos::View<int*, Memory> finished("finished", static_cast<std::size_t>(n)), calls("calls", static_cast<std::size_t>(n)),
        violations("violations", 1);
    Kokkos::parallel_for(policy, CheckPredecessors{pred_row_map.data(), pred_entries.data(), finished.data(),
                                                   violations.data(), calls.data()});
    const auto h_violations = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), violations);
    const auto h_calls = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), calls);
    ASSERT_EQ(h_violations(0), 0) << what << ", launch " << launch;
    for (std::int32_t i = 0; i < n; ++i) ASSERT_EQ(h_calls(i), 1) << what << ", item " << i;
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

struct SumOfIndicesPlusOne {
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i, long& s) const { s += i + 1; }
};

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
      Kokkos::parallel_reduce(policy, SumOfIndicesPlusOne{}, sum);
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

// ---- the counting mode of completions ---------------------------------------------------------

// The queue over the items of a DAG given as edges (every item its own unit, one priority),
// set up as a launch would, with its completions counted in `slots` shared counters; `workers`
// host threads run it, each item checking that its predecessors have finished.
struct CountingModeRun {
  using Queue = Kokkos::Impl::WorkGraphQueue;
  std::int32_t n;
  Predecessors pred;
  std::vector<std::int32_t> row_map, succ, indegree, waiting, ready, control;
  std::vector<int> finished, calls;
  int violations = 0;
  Queue q;

  CountingModeRun(std::int32_t items, const Edges& edges, int workers, int slots)
      : n(items), pred(items, edges), row_map(static_cast<std::size_t>(items) + 1, 0), succ(edges.size()),
        indegree(static_cast<std::size_t>(items), 0), ready(static_cast<std::size_t>(items), Queue::empty),
        control(Queue::control_size(1, workers, slots), 0), finished(static_cast<std::size_t>(items), 0),
        calls(static_cast<std::size_t>(items), 0) {
    for (const auto& e : edges) {
      ++row_map[static_cast<std::size_t>(e.first) + 1];
      ++indegree[static_cast<std::size_t>(e.second)];
    }
    for (std::int32_t i = 0; i < n; ++i) row_map[static_cast<std::size_t>(i) + 1] += row_map[static_cast<std::size_t>(i)];
    std::vector<std::int32_t> cursor(row_map.begin(), row_map.end() - 1);
    for (const auto& e : edges) succ[static_cast<std::size_t>(cursor[static_cast<std::size_t>(e.first)]++)] = e.second;
    waiting = indegree;
    std::int32_t initially_ready = 0;
    for (std::int32_t i = 0; i < n; ++i) {
      if (indegree[static_cast<std::size_t>(i)] == 0) ready[static_cast<std::size_t>(initially_ready++)] = i;
    }
    q.num_units = n;
    q.max_workers = workers;
    q.completion_slots = slots;
    q.row_map = row_map.data();
    q.succ = succ.data();
    q.indegree = indegree.data();
    q.waiting = waiting.data();
    q.ready = ready.data();
    q.control = control.data();
    *q.head(0) = 0;
    *q.tail(0) = initially_ready;
  }
  CountingModeRun(const CountingModeRun&) = delete;
  CountingModeRun& operator=(const CountingModeRun&) = delete;

  void run(int workers) {
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w) {
      threads.emplace_back([this, w, workers] {
        q.run<true>(w, workers, [this](const std::int32_t* items, std::int32_t b, std::int32_t e) {
          if (items != nullptr) Kokkos::atomic_increment(&violations);  // every unit is one item
          for (std::int32_t i = b; i < e; ++i) run_item(i);
        });
      });
    }
    for (auto& t : threads) t.join();
  }

  void run_item(std::int32_t i) {
    const auto u = static_cast<std::size_t>(i);
    for (std::int32_t k = pred.row_map[u]; k < pred.row_map[u + 1]; ++k) {
      if (Kokkos::atomic_load(&finished[static_cast<std::size_t>(pred.entries[static_cast<std::size_t>(k)])]) == 0) {
        Kokkos::atomic_increment(&violations);
      }
    }
    Kokkos::atomic_increment(&calls[u]);
    Kokkos::atomic_store(&finished[u], 1);
  }
};

// Random DAGs on many more threads than cores, with one, a few and more counters than workers:
// every item runs once, after its predecessors, the launch ends (no stall), and the counters
// add up to the number of units.
TEST(WorkGraphQueueStress, CountingModeRunsRandomDags) {
  std::mt19937 rng(81);
  const int workers = 16;
  for (int round = 0; round < 40; ++round) {
    const auto n = static_cast<std::int32_t>(1 + rng() % 3000);
    Edges edges;
    for (std::int32_t j = 1; j < n; ++j) {
      const int k = static_cast<int>(rng() % 4);
      const std::int32_t lo = round % 2 == 0 ? 0 : std::max(0, j - 20);  // wide, or deep and narrow
      for (int e = 0; e < k; ++e) edges.emplace_back(lo + static_cast<std::int32_t>(rng() % static_cast<unsigned>(j - lo)), j);
    }
    for (const int slots : {1, 3, 32}) {
      CountingModeRun r(n, edges, workers, slots);
      r.run(workers);
      const std::string what = "round " + std::to_string(round) + ", " + std::to_string(slots) + " counters";
      ASSERT_EQ(r.violations, 0) << what;
      for (std::int32_t i = 0; i < n; ++i) ASSERT_EQ(r.calls[static_cast<std::size_t>(i)], 1) << what << ", item " << i;
      ASSERT_EQ(*r.q.stalled(), 0) << what;
      ASSERT_EQ(r.q.completed_sum(workers), n) << what;
      ASSERT_EQ(*r.q.idle(), 0) << what;  // every worker deregistered
    }
  }
}

// A cycle that was not checked for, behind many ready items: the counting mode finds the stall
// when every worker is idle, so the workers return; exactly the items outside the cycle's reach
// ran.
TEST(WorkGraphQueueStress, CountingModeFindsAStall) {
  std::mt19937 rng(82);
  const int workers = 12;
  for (int round = 0; round < 20; ++round) {
    const std::int32_t n = 2000;
    Edges edges;
    for (std::int32_t j = 1; j < n; ++j) edges.emplace_back(static_cast<std::int32_t>(rng() % static_cast<unsigned>(j)), j);
    const auto a = static_cast<std::int32_t>(1000 + rng() % 500);
    edges.emplace_back(a + 5, a);  // a and a + 5 wait on each other
    edges.emplace_back(a, a + 5);
    CountingModeRun r(n, edges, workers, 4);
    r.run(workers);
    // What can run: Kahn's algorithm from the items with nothing to wait for.
    std::vector<std::int32_t> waiting = r.indegree, queue;
    for (std::int32_t i = 0; i < n; ++i) {
      if (waiting[static_cast<std::size_t>(i)] == 0) queue.push_back(i);
    }
    for (std::size_t k = 0; k < queue.size(); ++k) {
      const auto u = static_cast<std::size_t>(queue[k]);
      for (std::int32_t s = r.row_map[u]; s < r.row_map[u + 1]; ++s) {
        if (--waiting[static_cast<std::size_t>(r.succ[static_cast<std::size_t>(s)])] == 0) {
          queue.push_back(r.succ[static_cast<std::size_t>(s)]);
        }
      }
    }
    ASSERT_LT(queue.size(), static_cast<std::size_t>(n)) << "round " << round;
    ASSERT_EQ(*r.q.stalled(), 1) << "round " << round;
    ASSERT_EQ(r.violations, 0) << "round " << round;
    std::vector<int> expected(static_cast<std::size_t>(n), 0);
    for (std::int32_t i : queue) expected[static_cast<std::size_t>(i)] = 1;
    ASSERT_EQ(r.calls, expected) << "round " << round;
    ASSERT_EQ(r.q.completed_sum(workers), static_cast<std::int32_t>(queue.size())) << "round " << round;
  }
}

// The counting mode through a launch of a policy on the host's threads (the path a GPU launch
// takes: its state made with shared counters and no homes), after and before ordinary launches
// of the same policy: every launch honours every edge.
TEST(WorkGraphQueueStress, CountingModeThroughAPolicyLaunch) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
  const std::int32_t n = 3000;
  Edges edges;
  std::mt19937 rng(83);
  for (std::int32_t j = 1; j < n; ++j) {
    for (int k = static_cast<int>(rng() % 3); k > 0; --k) edges.emplace_back(static_cast<std::int32_t>(rng() % static_cast<unsigned>(j)), j);
  }
  const Predecessors pred(n, edges);
  const auto graph = make_graph<Policy>(n, edges);
  const Space space;
  for (const Options& options : stress_options) {
    const Policy policy(graph, options);
    for (int launch = 0; launch < 12; ++launch) {
      std::vector<int> finished(static_cast<std::size_t>(n), 0), calls(static_cast<std::size_t>(n), 0);
      int violations = 0;
      const CheckPredecessors check{pred.row_map.data(), pred.entries.data(), finished.data(), &violations, calls.data()};
      const int slots = launch % 3 == 2 ? 0 : 1 + launch % 3;  // counting with 1 or 2 counters, or per worker
      {
        const Kokkos::Impl::WorkGraphLaunch<Policy> run(policy, space.impl_thread_pool_size(),
                                                        &Kokkos::Impl::work_graph_functor_key<CheckPredecessors>, slots);
        EXPECT_EQ(run.work().queue.completion_slots, run.work().runs_order(space.impl_thread_pool_size()) ? 0 : slots);
        space.impl_run_on_workers([&](int rank, int size) {
          run.run_worker(rank, size, [&](const std::int32_t* items, std::int32_t b, std::int32_t e) {
            if (items != nullptr) {
              for (std::int32_t k = b; k < e; ++k) check(items[k]);
            } else if (b <= e) {
              for (std::int32_t i = b; i < e; ++i) check(i);
            } else {
              for (std::int32_t i = b; i-- > e;) check(i);
            }
          });
        });
        run.finish();
      }
      const std::string what = "unit_size=" + std::to_string(options.unit_size) + " launch " + std::to_string(launch);
      ASSERT_EQ(violations, 0) << what;
      for (std::int32_t i = 0; i < n; ++i) ASSERT_EQ(calls[static_cast<std::size_t>(i)], 1) << what << ", item " << i;
    }
  }
}

}  // namespace

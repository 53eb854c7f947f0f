// The per-level way of a device's work graph launches (impl/workgraph/Kokkos_WorkGraphLevels.hpp):
// the items grouped by level for every kind of order the plan makes (Kahn's, a numbering
// ascending or descending, with or without level ranges), the rule that says when the way is
// worth timing, the choice between the ways driven with chosen timings, that host plans keep
// no level sets, and on Kokkos::Cuda (skipped naming why without a GPU) launches that run both
// ways, each item once after its predecessors.
#include "TestCommon.hpp"
#include "WorkGraphTestCommon.hpp"

#include <Kokkos_WorkGraphPolicy.hpp>
#include <impl/workgraph/Kokkos_WorkGraphLevels.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

namespace {

using Edges = Kokkos::Test::WorkGraphEdges;
using Kokkos::Impl::WorkGraphDeviceWays;
using Kokkos::Impl::WorkGraphLevelSets;
using Kokkos::Impl::WorkGraphOrder;

// A graph's host arrays, as the plan reads them.
struct HostGraph {
  std::int32_t n = 0;
  Edges edges;
  std::vector<std::int32_t> row_map, entries;

  HostGraph(std::int32_t items, Edges e) : n(items), edges(std::move(e)) {
    row_map.assign(static_cast<std::size_t>(n) + 1, 0);
    for (const auto& [a, b] : edges) ++row_map[static_cast<std::size_t>(a) + 1];
    for (std::int32_t i = 0; i < n; ++i) row_map[static_cast<std::size_t>(i) + 1] += row_map[static_cast<std::size_t>(i)];
    entries.resize(edges.size());
    std::vector<std::int32_t> cursor(row_map.begin(), row_map.end() - 1);
    for (const auto& [a, b] : edges) entries[static_cast<std::size_t>(cursor[static_cast<std::size_t>(a)]++)] = b;
  }
  Kokkos::Impl::WorkGraphHostCrs<std::int32_t, std::int32_t> crs() const { return {n, row_map.data(), entries.data()}; }

  // Kahn's order (any graph), or the numbering's levels (every edge forward, or every backward).
  WorkGraphOrder kahn() const {
    WorkGraphOrder order;
    std::vector<std::int32_t> waiting = Kokkos::Impl::work_graph_checked_indegrees(n, entries.data(), entries.size());
    EXPECT_TRUE(Kokkos::Impl::work_graph_fifo_order(crs(), waiting, order));
    return order;
  }
  WorkGraphOrder numbered(bool forward) const {
    WorkGraphOrder order;
    Kokkos::Impl::work_graph_numbered_levels(crs(), forward, order);
    return order;
  }
};

Edges chain(std::int32_t n) {
  Edges e;
  for (std::int32_t i = 0; i + 1 < n; ++i) e.emplace_back(i, i + 1);
  return e;
}
// Each node after its two children 2i+1, 2i+2: every edge backward in the numbering.
Edges tree(std::int32_t n) {
  Edges e;
  for (std::int32_t c = 1; c < n; ++c) e.emplace_back(c, (c - 1) / 2);
  return e;
}
// (r, c) after (r-1, c) and (r, c-1), numbered by rows: every edge forward, levels out of order.
Edges wavefront(std::int32_t side) {
  Edges e;
  for (std::int32_t i = 0; i < side * side; ++i) {
    if (i >= side) e.emplace_back(i - side, i);
    if (i % side > 0) e.emplace_back(i - 1, i);
  }
  return e;
}
// Layers of `width` items, every item of a layer after every item of the one before: levels
// are index ranges of the numbering.
Edges layers(std::int32_t count, std::int32_t width) {
  Edges e;
  for (std::int32_t l = 0; l + 1 < count; ++l) {
    for (std::int32_t a = 0; a < width; ++a) {
      for (std::int32_t b = 0; b < width; ++b) e.emplace_back(l * width + a, (l + 1) * width + b);
    }
  }
  return e;
}
// 2n random edges, each from the lower of two random positions of a shuffled numbering to the
// higher (a duplicate edge now and then is allowed).
Edges random_dag(std::int32_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::int32_t> label(static_cast<std::size_t>(n));
  std::iota(label.begin(), label.end(), 0);
  std::shuffle(label.begin(), label.end(), rng);
  std::uniform_int_distribution<std::int32_t> position(0, n - 1);
  Edges e;
  while (e.size() < 2 * static_cast<std::size_t>(n)) {
    const std::int32_t x = position(rng), y = position(rng);
    if (x != y) e.emplace_back(label[static_cast<std::size_t>(std::min(x, y))], label[static_cast<std::size_t>(std::max(x, y))]);
  }
  return e;
}

// Every item in exactly one level, each level's item array ascending, every edge from a lower
// level to a higher one; returns the items' levels.
std::vector<std::int32_t> expect_level_sets(const WorkGraphLevelSets& s, const HostGraph& g) {
  std::vector<std::int32_t> level(static_cast<std::size_t>(g.n), -1);
  EXPECT_EQ(s.num_items, g.n);
  EXPECT_FALSE(s.offsets.empty());
  if (s.offsets.empty()) return level;
  EXPECT_EQ(s.offsets.front(), 0);
  EXPECT_EQ(s.offsets.back(), g.n);
  if (!s.ranges) {
    EXPECT_EQ(s.items.size(), static_cast<std::size_t>(g.n));
  }
  auto take = [&](std::int32_t i, std::int32_t l) {
    ASSERT_GE(i, 0);
    ASSERT_LT(i, g.n);
    EXPECT_EQ(level[static_cast<std::size_t>(i)], -1) << "item " << i << " in two levels";
    level[static_cast<std::size_t>(i)] = l;
  };
  for (std::int32_t l = 0; l < s.num_levels(); ++l) {
    EXPECT_GT(s.width(l), 0) << "level " << l << " is empty";
    const WorkGraphLevelSets::Span span = s.span(l);
    if (!s.ranges) {
      for (std::int32_t k = span.b; k < span.e; ++k) {
        take(s.items[static_cast<std::size_t>(k)], l);
        if (k > span.b) {
          EXPECT_LT(s.items[static_cast<std::size_t>(k) - 1], s.items[static_cast<std::size_t>(k)]);
        }
      }
    } else if (span.b <= span.e) {
      for (std::int32_t i = span.b; i < span.e; ++i) take(i, l);
    } else {
      for (std::int32_t i = span.b - 1; i >= span.e; --i) take(i, l);
    }
  }
  for (std::int32_t i = 0; i < g.n; ++i) EXPECT_NE(level[static_cast<std::size_t>(i)], -1) << "item " << i << " in no level";
  for (const auto& [a, b] : g.edges) {
    EXPECT_LT(level[static_cast<std::size_t>(a)], level[static_cast<std::size_t>(b)]) << "edge " << a << " -> " << b;
  }
  return level;
}

TEST(WorkGraphLevels, Chain) {
  const HostGraph g(100, chain(100));
  for (const WorkGraphOrder& o : {g.kahn(), g.numbered(true)}) {
    const WorkGraphLevelSets s = Kokkos::Impl::work_graph_level_sets(o, g.n);
    expect_level_sets(s, g);
    EXPECT_EQ(s.num_levels(), 100);
  }
  EXPECT_TRUE(Kokkos::Impl::work_graph_level_sets(g.numbered(true), g.n).ranges);
}

TEST(WorkGraphLevels, TreeNumberedDescending) {
  const std::int32_t n = (1 << 10) - 1;
  const HostGraph g(n, tree(n));
  const WorkGraphLevelSets s = Kokkos::Impl::work_graph_level_sets(g.numbered(false), n);
  EXPECT_TRUE(s.ranges);
  EXPECT_TRUE(s.descending);
  EXPECT_TRUE(s.items.empty());
  EXPECT_EQ(s.num_levels(), 10);
  EXPECT_EQ(s.width(0), 512);
  const auto level = expect_level_sets(s, g);
  EXPECT_EQ(level[0], 9);  // the root runs last
  expect_level_sets(Kokkos::Impl::work_graph_level_sets(g.kahn(), n), g);
}

TEST(WorkGraphLevels, WavefrontLevelsOutOfNumbering) {
  const HostGraph g(30 * 30, wavefront(30));
  for (const WorkGraphOrder& o : {g.kahn(), g.numbered(true)}) {
    const WorkGraphLevelSets s = Kokkos::Impl::work_graph_level_sets(o, g.n);
    EXPECT_FALSE(s.ranges);
    EXPECT_EQ(s.num_levels(), 59);
    const auto level = expect_level_sets(s, g);
    for (std::int32_t i = 0; i < g.n; ++i) EXPECT_EQ(level[static_cast<std::size_t>(i)], i / 30 + i % 30);
  }
}

TEST(WorkGraphLevels, NumberedAscendingRanges) {
  const HostGraph g(5 * 7, layers(5, 7));
  const WorkGraphLevelSets s = Kokkos::Impl::work_graph_level_sets(g.numbered(true), g.n);
  EXPECT_TRUE(s.ranges);
  EXPECT_FALSE(s.descending);
  EXPECT_EQ(s.offsets, (std::vector<std::int32_t>{0, 7, 14, 21, 28, 35}));
  expect_level_sets(s, g);
}

TEST(WorkGraphLevels, RandomDags) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const HostGraph g(2000, random_dag(2000, seed));
    const WorkGraphOrder o = g.kahn();
    const WorkGraphLevelSets s = Kokkos::Impl::work_graph_level_sets(o, g.n);
    EXPECT_EQ(s.num_levels(), o.num_levels);
    const auto level = expect_level_sets(s, g);
    EXPECT_EQ(level, o.level);
  }
}

TEST(WorkGraphLevels, EmptyOneLevelAndNoLevels) {
  const HostGraph empty(0, {});
  const WorkGraphLevelSets e = Kokkos::Impl::work_graph_level_sets(WorkGraphOrder{}, 0);
  EXPECT_EQ(e.num_levels(), 0);
  expect_level_sets(e, empty);

  const HostGraph flat(9, {});
  for (const WorkGraphOrder& o : {flat.kahn(), flat.numbered(true)}) {
    const WorkGraphLevelSets s = Kokkos::Impl::work_graph_level_sets(o, flat.n);
    EXPECT_EQ(s.num_levels(), 1);
    expect_level_sets(s, flat);
  }
  // An order without levels (one worker's plan) gives none.
  EXPECT_TRUE(Kokkos::Impl::work_graph_level_sets(WorkGraphOrder{}, 9).offsets.empty());
}

TEST(WorkGraphLevels, WorthTimingAtItsEdges) {
  using Kokkos::Impl::work_graph_levels_worth_timing;
  constexpr auto width = Kokkos::Impl::work_graph_levels_min_width;
  constexpr auto most = Kokkos::Impl::work_graph_levels_max_levels;
  EXPECT_TRUE(work_graph_levels_worth_timing(width * 20, 20));
  EXPECT_FALSE(work_graph_levels_worth_timing(width * 20 - 1, 20));
  EXPECT_TRUE(work_graph_levels_worth_timing(width * most, most));
  EXPECT_FALSE(work_graph_levels_worth_timing(width * (most + 1), most + 1));
  EXPECT_FALSE(work_graph_levels_worth_timing(0, 0));
  EXPECT_FALSE(work_graph_levels_worth_timing(100000, 100000));  // a chain
  EXPECT_TRUE(work_graph_levels_worth_timing((1 << 20) - 1, 20));  // a 2^20-item tree
  EXPECT_TRUE(work_graph_levels_worth_timing(1000 * 1000, 1999));  // a 1000 x 1000 wavefront
}

constexpr auto plan_options = Kokkos::Impl::WorkGraphPlan<Kokkos::HostSpace>::choice_options;
constexpr int persistent = WorkGraphDeviceWays::persistent, levels = WorkGraphDeviceWays::levels;

// Runs `count` launches: eligible(k) says whether the per-level way may run the k-th, ns(way)
// is what a timed one of `way` takes; returns the ways they ran.
template <class Eligible, class Ns>
std::vector<int> drive(WorkGraphDeviceWays& ways, int count, const Eligible& eligible, const Ns& ns) {
  std::vector<int> ran;
  for (int k = 0; k < count; ++k) {
    const auto d = ways.next(eligible(k));
    if (d.timed) ways.record(d.way, ns(d.way));
    ran.push_back(d.way);
  }
  return ran;
}

TEST(WorkGraphLevels, FasterWayWinsAfterTheSamples) {
  for (const int faster : {persistent, levels}) {
    WorkGraphDeviceWays ways(plan_options);
    const auto ran = drive(ways, 200, [](int) { return true; }, [&](int way) { return way == faster ? 1e3 : 2e3; });
    // Each way's warmup and samples come first, persistent first.
    const int block = static_cast<int>(plan_options.warmup_per_way + plan_options.samples_per_way);
    for (int k = 0; k < 2 * block; ++k) EXPECT_EQ(ran[static_cast<std::size_t>(k)], k < block ? persistent : levels);
    for (std::size_t k = 2 * static_cast<std::size_t>(block); k < plan_options.epoch; ++k) EXPECT_EQ(ran[k], faster);
    EXPECT_EQ(ways.choice().fastest(), faster);
    EXPECT_EQ(ways.last(), ran.back());
  }
}

TEST(WorkGraphLevels, IneligibleWayNeverRuns) {
  WorkGraphDeviceWays never(plan_options);
  for (const int way : drive(never, 1000, [](int) { return false; }, [](int w) { return w == levels ? 1.0 : 1e6; })) {
    EXPECT_EQ(way, persistent);
  }
  // A way that won while eligible is not run where it is not.
  WorkGraphDeviceWays sometimes(plan_options);
  drive(sometimes, 100, [](int) { return true; }, [](int w) { return w == levels ? 1.0 : 1e6; });
  EXPECT_EQ(sometimes.next(true).way, levels);
  EXPECT_EQ(sometimes.next(false).way, persistent);
}

TEST(WorkGraphLevels, SlowerWayPrunedAfterTwoEpochs) {
  WorkGraphDeviceWays ways(plan_options);
  auto ns = [](int w) { return w == levels ? 1.6e3 : 1e3; };  // more than 1.5 times slower
  const auto epoch = static_cast<int>(plan_options.epoch);
  drive(ways, epoch, [](int) { return true; }, ns);
  drive(ways, epoch + 1, [](int) { return true; }, ns);  // the next epoch's first launch judges the second
  EXPECT_FALSE(ways.choice().pruned(persistent));
  EXPECT_TRUE(ways.choice().pruned(levels));
  for (const int way : drive(ways, 5000, [](int) { return true; }, ns)) EXPECT_EQ(way, persistent);

  // 1.4 times slower is re-timed every epoch.
  WorkGraphDeviceWays close(plan_options);
  drive(close, 3 * epoch + 1, [](int) { return true; }, [](int w) { return w == levels ? 1.4e3 : 1e3; });
  EXPECT_FALSE(close.choice().pruned(levels));
}

// A host back end's plan keeps no level sets, even planned fully.
TEST(WorkGraphLevels, HostPlansKeepNone) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Kokkos::DefaultHostExecutionSpace>;
  const Policy policy(Kokkos::Test::make_work_graph_of<Policy>(30 * 30, wavefront(30)));
  policy.impl_plan_fully();
  EXPECT_TRUE(policy.impl_plan()->level_sets.offsets.empty());
  EXPECT_FALSE(policy.impl_plan()->levels_eligible);
}

// What a device plan keeps (the plan's arrays in HostSpace here): the item array only where the
// way is worth timing and the levels are not index ranges.
TEST(WorkGraphLevels, PlanKeepsItemsOnlyWhereWorthTiming) {
  auto kept = [](const HostGraph& g, const WorkGraphOrder& o) {
    auto plan = std::make_unique<Kokkos::Impl::WorkGraphPlan<Kokkos::HostSpace>>();
    plan->set_level_sets(Kokkos::Impl::work_graph_level_sets(o, g.n));
    return plan;
  };
  const HostGraph wide(100 * 100, wavefront(100));  // 199 levels of 50 items on average
  const auto w = kept(wide, wide.kahn());
  EXPECT_TRUE(w->levels_eligible);
  EXPECT_EQ(w->level_items.extent(0), static_cast<std::size_t>(wide.n));
  EXPECT_TRUE(w->level_sets.items.empty());
  EXPECT_EQ(w->level_sets.num_levels(), 199);

  const std::int32_t n = (1 << 12) - 1;
  const HostGraph t(n, tree(n));
  const auto r = kept(t, t.numbered(false));
  EXPECT_TRUE(r->levels_eligible);
  EXPECT_EQ(r->level_items.extent(0), 0u);
  EXPECT_TRUE(r->level_sets.ranges);

  const HostGraph c(1000, chain(1000));
  const auto k = kept(c, c.kahn());
  EXPECT_FALSE(k->levels_eligible);
  EXPECT_EQ(k->level_items.extent(0), 0u);

  EXPECT_FALSE(kept(c, WorkGraphOrder{})->levels_eligible);  // no levels known
}

}  // namespace

#if defined(KOKKOS_ENABLE_CUDA)
// Outside the anonymous namespace: nvcc's extended lambdas need an enclosing function with
// external linkage.
namespace kokkos_test_work_graph_levels {

// Launches enough for both ways to be timed (the second launch plans the levels; the ways'
// samples follow), alternating between two output Views so that the recorded graph is updated
// for new functor bytes; every launch runs each item once, after its predecessors.
void run_on_cuda(std::int32_t n, const Kokkos::Test::WorkGraphEdges& edges) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Kokkos::Cuda>;
  const Policy policy(Kokkos::Test::make_work_graph_of<Policy>(n, edges));
  using Ints = Kokkos::View<std::int32_t*, Kokkos::CudaSpace>;
  const Ints stamps[2] = {Ints("stamp0", n), Ints("stamp1", n)};
  const Ints counts[2] = {Ints("count0", n), Ints("count1", n)};
  const Kokkos::View<std::int32_t, Kokkos::CudaSpace> clock("clock");
  auto& counters = Kokkos::Impl::work_graph_device_counters;
  const std::uint64_t levels_before = counters.level_launches.load();
  for (int launch = 0; launch < 40; ++launch) {
    const Ints stamp = stamps[launch % 2], count = counts[launch % 2];
    Kokkos::deep_copy(count, 0);
    Kokkos::deep_copy(clock, 0);
    Kokkos::parallel_for(
        "TestWorkGraphLevels", policy, KOKKOS_LAMBDA(std::int32_t i) {
          Kokkos::atomic_add(&count(i), 1);
          stamp(i) = Kokkos::atomic_fetch_add(&clock(), 1);
        });
    Kokkos::fence();
    const auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), count);
    const auto s = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stamp);
    for (std::int32_t i = 0; i < n; ++i) ASSERT_EQ(c(i), 1) << "launch " << launch << ", item " << i;
    for (const auto& [a, b] : edges) ASSERT_LT(s(a), s(b)) << "launch " << launch << ", edge " << a << " -> " << b;
  }
  EXPECT_TRUE(policy.impl_plan()->levels_eligible);
  EXPECT_GT(counters.level_launches.load(), levels_before) << "the per-level way never ran";
}

}  // namespace kokkos_test_work_graph_levels

namespace {

TEST(WorkGraphLevelsCuda, WavefrontAndTreeRunBothWays) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  kokkos_test_work_graph_levels::run_on_cuda(96 * 96, wavefront(96));
  kokkos_test_work_graph_levels::run_on_cuda((1 << 14) - 1, tree((1 << 14) - 1));
}

}  // namespace
#endif

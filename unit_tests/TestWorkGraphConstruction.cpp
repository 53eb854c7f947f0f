// WorkGraphPolicy construction (issue: construction as fast as one topological sort): the first
// pass over the graph (row checks and fingerprint, split over the workers), the levels of a
// numbered graph and its level ranges, the index-range units of a first launch, the order one
// worker runs, and the messages for malformed graphs large enough to be checked in parallel.
#include "TestCommon.hpp"
#include "WorkGraphTestCommon.hpp"

#include <Kokkos_Crs.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Edges = Kokkos::Test::WorkGraphEdges;
using Kokkos::Test::expect_rejected;
using Options = Kokkos::Experimental::WorkGraphOptions;
using HostCrs = Kokkos::Impl::WorkGraphHostCrs<std::int32_t, std::int32_t>;

template <class Space>
struct WorkGraphConstruction : Kokkos::Test::SpaceTest<Space> {
  // A graph allocated where an earlier test's was, with the same contents, would find that
  // test's plan: each test starts with none kept.
  void SetUp() override {
    Kokkos::Test::SpaceTest<Space>::SetUp();
    Kokkos::Impl::WorkGraphPlanCache<typename Space::memory_space>::clear();
  }
};
TYPED_TEST_SUITE(WorkGraphConstruction, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// A CRS held in vectors, for the analysis functions.
struct VectorCrs {
  std::int32_t n = 0;
  std::vector<std::int32_t> row_map, entries;
  HostCrs crs() const { return {n, row_map.data(), entries.data()}; }
};

VectorCrs crs_of(std::int32_t n, const Edges& edges) {
  VectorCrs g;
  g.n = n;
  g.row_map.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& e : edges) ++g.row_map[static_cast<std::size_t>(e.first) + 1];
  for (std::int32_t i = 0; i < n; ++i) g.row_map[static_cast<std::size_t>(i) + 1] += g.row_map[static_cast<std::size_t>(i)];
  std::vector<std::int32_t> cursor(g.row_map.begin(), g.row_map.end() - 1);
  g.entries.resize(edges.size());
  for (const auto& e : edges) g.entries[static_cast<std::size_t>(cursor[static_cast<std::size_t>(e.first)]++)] = e.second;
  return g;
}

// A binary-tree reduction numbered level by level from the root: node i after 2i+1 and 2i+2, so
// every edge goes backward and the levels (leaves first) are index ranges, descending.
Edges tree_edges(std::int32_t n) {
  Edges edges;
  for (std::int32_t i = 0; 2 * i + 2 < n; ++i) {
    edges.emplace_back(2 * i + 1, i);
    edges.emplace_back(2 * i + 2, i);
  }
  return edges;
}

// Layers of `width` items numbered layer by layer, each item after two of the layer before:
// every edge goes forward and the levels are the layers, ascending index ranges.
Edges layered_edges(std::int32_t layers, std::int32_t width) {
  Edges edges;
  for (std::int32_t l = 1; l < layers; ++l) {
    for (std::int32_t c = 0; c < width; ++c) {
      edges.emplace_back((l - 1) * width + c, l * width + c);
      edges.emplace_back((l - 1) * width + (c * 7 + 3) % width, l * width + c);
    }
  }
  return edges;
}

// A side x side grid, each point after its upper and left neighbours: forward, but the levels
// are the anti-diagonals, not index ranges.
Edges wavefront_edges(std::int32_t side) {
  Edges edges;
  for (std::int32_t r = 0; r < side; ++r) {
    for (std::int32_t c = 0; c < side; ++c) {
      if (r > 0) edges.emplace_back((r - 1) * side + c, r * side + c);
      if (c > 0) edges.emplace_back(r * side + c - 1, r * side + c);
    }
  }
  return edges;
}

// Each item after up to three random earlier ones (forward), or the mirror image (backward).
Edges random_numbered_edges(std::int32_t n, bool forward, unsigned seed) {
  std::mt19937 rng(seed);
  Edges edges;
  for (std::int32_t j = 1; j < n; ++j) {
    const int k = static_cast<int>(rng() % 4);
    for (int e = 0; e < k; ++e) {
      const auto i = static_cast<std::int32_t>(rng() % static_cast<unsigned>(j));
      if (forward) {
        edges.emplace_back(i, j);
      } else {
        edges.emplace_back(n - 1 - i, n - 1 - j);
      }
    }
  }
  return edges;
}

// Each item's level (the longest path from a source) by Kahn's algorithm: the reference.
std::vector<std::int32_t> reference_levels(const VectorCrs& g) {
  std::vector<std::int32_t> waiting(static_cast<std::size_t>(g.n), 0);
  for (std::int32_t j : g.entries) ++waiting[static_cast<std::size_t>(j)];
  Kokkos::Impl::WorkGraphOrder order;
  EXPECT_TRUE(Kokkos::Impl::work_graph_fifo_order(g.crs(), waiting, order));
  return order.level;
}

// Every item ran exactly once, and for every edge i -> j, j started after i returned.
struct OrderRecorder {
  std::int64_t* counter;
  std::int64_t* start;
  std::int64_t* finish;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    start[i] = Kokkos::atomic_fetch_add(counter, std::int64_t(1));
    finish[i] = Kokkos::atomic_fetch_add(counter, std::int64_t(1));
  }
};

template <class Policy>
void run_and_check(const Policy& policy, std::int32_t n, const Edges& edges, const std::string& what) {
  std::int64_t counter = 0;
  std::vector<std::int64_t> start(static_cast<std::size_t>(n), -1), finish(static_cast<std::size_t>(n), -1);
  Kokkos::parallel_for("order", policy, OrderRecorder{&counter, start.data(), finish.data()});
  ASSERT_EQ(counter, 2 * static_cast<std::int64_t>(n)) << what << ": every item runs once";
  for (std::int32_t i = 0; i < n; ++i) ASSERT_GE(start[static_cast<std::size_t>(i)], 0) << what << ": item " << i;
  for (const auto& [i, j] : edges) {
    ASSERT_LT(finish[static_cast<std::size_t>(i)], start[static_cast<std::size_t>(j)])
        << what << ": " << j << " started before " << i << " returned";
  }
}

// ---- the analysis functions ------------------------------------------------------------------

TEST(WorkGraphAnalysis, EntryRowsNameEachEntrysRow) {
  // Rows 0 (two entries), 1 (none), 2 (one), 3 (none), 4 (two).
  const VectorCrs g{5, {0, 2, 2, 3, 3, 5}, {1, 2, 4, 0, 1}};
  EXPECT_EQ(Kokkos::Impl::work_graph_entry_rows(g.crs()), (std::vector<std::int32_t>{0, 0, 2, 4, 4}));
  const VectorCrs empty_rows{3, {0, 0, 0, 0}, {}};
  EXPECT_TRUE(Kokkos::Impl::work_graph_entry_rows(empty_rows.crs()).empty());
  const VectorCrs last_row_only{4, {0, 0, 0, 0, 2}, {0, 1}};
  EXPECT_EQ(Kokkos::Impl::work_graph_entry_rows(last_row_only.crs()), (std::vector<std::int32_t>{3, 3}));
}

TEST(WorkGraphAnalysis, NumberedLevelsMatchKahnsAndFindLevelRanges) {
  struct Case {
    const char* name;
    std::int32_t n;
    Edges edges;
    bool forward, ranges;
  };
  const std::vector<Case> cases = {
      {"tree", 1023, tree_edges(1023), false, true},
      {"layers", 40 * 25, layered_edges(40, 25), true, true},
      {"wavefront", 30 * 30, wavefront_edges(30), true, false},
      {"random forward", 5000, random_numbered_edges(5000, true, 3u), true, false},
      {"random backward", 5000, random_numbered_edges(5000, false, 4u), false, false},
      {"no edges", 17, {}, true, true},
      {"one item", 1, {}, true, true},
  };
  for (const Case& c : cases) {
    const VectorCrs g = crs_of(c.n, c.edges);
    Kokkos::Impl::WorkGraphOrder order;
    Kokkos::Impl::work_graph_numbered_levels(g.crs(), c.forward, order);
    const std::vector<std::int32_t> expected = reference_levels(g);
    EXPECT_EQ(order.level, expected) << c.name;
    EXPECT_EQ(order.num_levels, *std::max_element(expected.begin(), expected.end()) + 1) << c.name;
    EXPECT_EQ(order.backward, !c.forward) << c.name;
    ASSERT_EQ(!order.level_start.empty(), c.ranges) << c.name;
    if (!c.ranges) continue;
    // Level l is the index range the comment of WorkGraphOrder::level_start gives.
    ASSERT_EQ(order.level_start.size(), static_cast<std::size_t>(order.num_levels) + 1) << c.name;
    EXPECT_EQ(order.level_start.front(), 0) << c.name;
    EXPECT_EQ(order.level_start.back(), c.n) << c.name;
    for (std::int32_t l = 0; l < order.num_levels; ++l) {
      const std::int32_t b = order.level_start[static_cast<std::size_t>(l)], e = order.level_start[static_cast<std::size_t>(l) + 1];
      const std::int32_t lo = c.forward ? b : c.n - e, hi = c.forward ? e : c.n - b;
      for (std::int32_t i = lo; i < hi; ++i) ASSERT_EQ(expected[static_cast<std::size_t>(i)], l) << c.name << " item " << i;
    }
  }
}

TEST(WorkGraphAnalysis, RowChecksSplitIntoRangesAndFindDirections) {
  for (const bool forward : {true, false}) {
    const std::int32_t n = 3000;
    const VectorCrs g = crs_of(n, random_numbered_edges(n, forward, 11u));
    const auto whole = Kokkos::Impl::work_graph_check_rows(g.row_map.data(), g.entries.data(), g.entries.size(), n, 0, n);
    EXPECT_TRUE(whole.well_formed);
    EXPECT_EQ(whole.forward, forward);
    EXPECT_EQ(whole.backward, !forward);
    for (const std::int64_t cut : {std::int64_t(0), std::int64_t(1), std::int64_t(1234), std::int64_t(n - 1), std::int64_t(n)}) {
      auto parts = Kokkos::Impl::work_graph_check_rows(g.row_map.data(), g.entries.data(), g.entries.size(), n, 0, cut);
      parts.join(Kokkos::Impl::work_graph_check_rows(g.row_map.data(), g.entries.data(), g.entries.size(), n, cut, n));
      EXPECT_EQ(parts.well_formed, whole.well_formed) << "cut " << cut;
      EXPECT_EQ(parts.forward, whole.forward) << "cut " << cut;
      EXPECT_EQ(parts.backward, whole.backward) << "cut " << cut;
    }
  }
  // Both directions: neither; an entry outside the items, a decreasing row_map, a row past the
  // entries: malformed, in whichever range holds the row.
  const VectorCrs mixed{3, {0, 1, 2, 2}, {2, 0}};
  const auto m = Kokkos::Impl::work_graph_check_rows(mixed.row_map.data(), mixed.entries.data(), 2, 3, 0, 3);
  EXPECT_TRUE(m.well_formed);
  EXPECT_FALSE(m.forward);
  EXPECT_FALSE(m.backward);
  const VectorCrs outside{3, {0, 1, 2, 2}, {1, 3}};
  EXPECT_TRUE(Kokkos::Impl::work_graph_check_rows(outside.row_map.data(), outside.entries.data(), 2, 3, 0, 1).well_formed);
  EXPECT_FALSE(Kokkos::Impl::work_graph_check_rows(outside.row_map.data(), outside.entries.data(), 2, 3, 1, 3).well_formed);
  const VectorCrs decreasing{3, {0, 2, 1, 2}, {1, 2}};
  EXPECT_FALSE(Kokkos::Impl::work_graph_check_rows(decreasing.row_map.data(), decreasing.entries.data(), 2, 3, 0, 3).well_formed);
  const VectorCrs past_the_end{2, {0, 3, 2}, {1, 0}};
  EXPECT_FALSE(Kokkos::Impl::work_graph_check_rows(past_the_end.row_map.data(), past_the_end.entries.data(), 2, 2, 0, 1).well_formed);
}

std::uint64_t fingerprint_of(const std::vector<std::int32_t>& v) {
  const std::size_t bytes = v.size() * sizeof(std::int32_t);
  return Kokkos::Impl::work_graph_fingerprint_finish(
      Kokkos::Impl::work_graph_fingerprint_words(v.data(), bytes, 0, Kokkos::Impl::work_graph_fingerprint_word_count(bytes)),
      bytes);
}

TEST(WorkGraphAnalysis, FingerprintSplitsIntoRangesOfWords) {
  for (const std::size_t size : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(7), std::size_t(1000), std::size_t(1001)}) {
    std::vector<std::int32_t> v(size);
    for (std::size_t k = 0; k < size; ++k) v[k] = static_cast<std::int32_t>(k * 2654435761u % 100003u);
    const std::size_t bytes = size * sizeof(std::int32_t);
    const std::size_t words = Kokkos::Impl::work_graph_fingerprint_word_count(bytes);
    EXPECT_EQ(words, (size + 1) / 2);
    const std::uint64_t whole = Kokkos::Impl::work_graph_fingerprint_words(v.data(), bytes, 0, words);
    for (std::size_t cut = 0; cut <= words; cut += std::max<std::size_t>(1, words / 7)) {
      const std::uint64_t split = Kokkos::Impl::work_graph_fingerprint_words(v.data(), bytes, 0, cut) +
                                  Kokkos::Impl::work_graph_fingerprint_words(v.data(), bytes, cut, words);
      EXPECT_EQ(split, whole) << "size " << size << " cut " << cut;
    }
  }
}

TEST(WorkGraphAnalysis, FingerprintSeesEveryElementChange) {
  std::vector<std::int32_t> v(501);  // an odd count: the last word is half full
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<std::int32_t>(k % 37);
  const std::uint64_t original = fingerprint_of(v);
  for (std::size_t k = 0; k < v.size(); ++k) {
    for (const std::int32_t delta : {1, -1, 1 << 20, std::int32_t(0x40000000)}) {
      std::vector<std::int32_t> changed = v;
      changed[k] += delta;
      EXPECT_NE(fingerprint_of(changed), original) << "element " << k << " changed by " << delta;
    }
    if (k + 1 < v.size() && v[k] != v[k + 1]) {
      std::vector<std::int32_t> swapped = v;
      std::swap(swapped[k], swapped[k + 1]);
      EXPECT_NE(fingerprint_of(swapped), original) << "elements " << k << " and " << k + 1 << " swapped";
    }
  }
  // Whole words moved: a sum of terms that ignored positions would not change.
  for (std::size_t k = 0; k + 3 < v.size(); k += 2) {
    if (v[k] == v[k + 2] && v[k + 1] == v[k + 3]) continue;
    std::vector<std::int32_t> moved = v;
    std::swap(moved[k], moved[k + 2]);
    std::swap(moved[k + 1], moved[k + 3]);
    EXPECT_NE(fingerprint_of(moved), original) << "words at elements " << k << " and " << k + 2 << " swapped";
  }
  std::vector<std::int32_t> longer = v;
  longer.push_back(0);  // a zero more: another size
  EXPECT_NE(fingerprint_of(longer), original);
}

// ---- policies ---------------------------------------------------------------------------------

// A first launch on several workers runs the level-synchronous plan; where levels are index
// ranges its units are ranges, with no item array at all.  One worker runs the numbering itself.
TYPED_TEST(WorkGraphConstruction, LevelOrderedGraphsRunIndexRangesFirst) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  using OrderKind = typename Policy::impl_plan_type::OrderKind;
  struct Case {
    const char* name;
    std::int32_t n;
    Edges edges;
    OrderKind one_worker;
  };
  const std::vector<Case> cases = {{"tree", (1 << 15) - 1, tree_edges((1 << 15) - 1), OrderKind::descending},
                                   {"layers", 200 * 150, layered_edges(200, 150), OrderKind::ascending}};
  const bool several = TypeParam().concurrency() > 1;
  for (const Case& c : cases) {
    const Policy policy(Kokkos::Test::make_work_graph_of<Policy>(c.n, c.edges));
    ASSERT_TRUE(policy.impl_plan_deferred()) << c.name;
    EXPECT_EQ(policy.impl_plan()->order_kind, c.one_worker) << c.name;
    EXPECT_EQ(policy.impl_plan()->order.extent(0), 0u) << c.name << ": the numbering needs no stored order";
    if (several) {
      const auto& schedule = policy.impl_plan()->schedules.front();
      EXPECT_EQ(schedule.unit_items.extent(0), 0u) << c.name << ": units are index ranges";
      const auto units = Kokkos::Test::planned_units(policy);
      const VectorCrs g = crs_of(c.n, c.edges);
      const std::vector<std::int32_t> level = reference_levels(g);
      std::vector<int> seen(static_cast<std::size_t>(c.n), 0);
      std::int32_t joins = 0, last_level = 0;
      for (const auto& unit : units) {
        if (unit.empty()) {
          ++joins;
          continue;
        }
        const std::int32_t l = level[static_cast<std::size_t>(unit.front())];
        EXPECT_GE(l, last_level) << c.name << ": units go level by level";
        last_level = l;
        for (std::int32_t i : unit) {
          ++seen[static_cast<std::size_t>(i)];
          EXPECT_EQ(level[static_cast<std::size_t>(i)], l) << c.name << ": a unit holds one level";
        }
      }
      EXPECT_EQ(joins, *std::max_element(level.begin(), level.end())) << c.name << ": a join between levels";
      EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; })) << c.name;
    }
    for (int launch = 0; launch < 3; ++launch) {  // the first plan, then the planner's
      run_and_check(policy, c.n, c.edges, std::string(c.name) + " launch " + std::to_string(launch));
      EXPECT_EQ(policy.impl_plan_deferred(), launch == 0) << c.name;
    }
  }
}

// One worker's order: the numbering forward or backward, Kahn's order for other graphs, and
// Kahn's with priorities.
TYPED_TEST(WorkGraphConstruction, OneWorkersOrderIsTheNumberingWhereItIsOne) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  using OrderKind = typename Policy::impl_plan_type::OrderKind;
  const std::int32_t n = 4000;
  const Edges forward = random_numbered_edges(n, true, 21u), backward = random_numbered_edges(n, false, 22u);
  Edges shuffled;  // the forward graph with its items renamed by a permutation
  std::vector<std::int32_t> perm(static_cast<std::size_t>(n));
  for (std::int32_t i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = static_cast<std::int32_t>((i * 1237) % n);
  for (const auto& [i, j] : forward) shuffled.emplace_back(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(j)]);
  const Policy f(Kokkos::Test::make_work_graph_of<Policy>(n, forward));
  const Policy b(Kokkos::Test::make_work_graph_of<Policy>(n, backward));
  const Policy s(Kokkos::Test::make_work_graph_of<Policy>(n, shuffled));
  EXPECT_EQ(f.impl_plan()->order_kind, OrderKind::ascending);
  EXPECT_EQ(b.impl_plan()->order_kind, OrderKind::descending);
  EXPECT_EQ(s.impl_plan()->order_kind, OrderKind::stored);
  EXPECT_EQ(s.impl_plan()->order.extent(0), static_cast<std::size_t>(n));
  Kokkos::View<int*, Kokkos::HostSpace> priority("priority", n);
  for (std::int32_t i = 0; i < n; ++i) priority(i) = i % 3;
  const Policy p(Kokkos::Test::make_work_graph_of<Policy>(n, forward), priority);
  EXPECT_EQ(p.impl_plan()->order_kind, OrderKind::stored) << "priorities: Kahn's order, which honours them";
  for (int launch = 0; launch < 2; ++launch) {
    run_and_check(f, n, forward, "forward");
    run_and_check(b, n, backward, "backward");
    run_and_check(s, n, shuffled, "shuffled");
    run_and_check(p, n, forward, "priorities");
  }
}

// Graphs large enough for the workers to check them in parallel get the sequential check's
// message, naming the first problem.
TYPED_TEST(WorkGraphConstruction, LargeMalformedGraphsNameTheFirstProblem) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  using Graph = typename Policy::graph_type;
  const std::int32_t n = 100000;
  const Edges chain = [&] {
    Edges e;
    for (std::int32_t i = 0; i + 1 < n; ++i) e.emplace_back(i, i + 1);
    return e;
  }();
  auto broken = [&](auto&& edit) {
    const Graph g = Kokkos::Test::make_work_graph_of<Policy>(n, chain);
    auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.row_map);
    auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.entries);
    edit(rows, entries);
    Kokkos::deep_copy(g.row_map, rows);
    Kokkos::deep_copy(g.entries, entries);
    return g;
  };
  for (const Options& options : {Options{}, Options{.check_graph = false}}) {
    expect_rejected<Policy>(broken([](auto&, auto& e) { e(90000) = n; }),
                            "malformed graph: entries(90000) = 100000 (in row 90000) is outside the work items [0, 100000)",
                            options);
    expect_rejected<Policy>(broken([](auto&, auto& e) {
                              e(60000) = -7;
                              e(95000) = n + 5;
                            }),
                            "malformed graph: entries(60000) = -7 (in row 60000) is outside the work items", options);
    expect_rejected<Policy>(broken([](auto& r, auto&) { r(70000) = 69998; }),
                            "malformed graph: row_map decreases at row 69999: row_map(69999) = 69999 > row_map(70000) = 69998",
                            options);
    expect_rejected<Policy>(broken([](auto& r, auto&) {
                              r(n - 1) = n - 2;
                              r(n) = n - 2;
                            }),
                            "malformed graph: row_map(100000) = 99998 (the last offset) differs from entries.extent(0) = 99999",
                            options);
  }
  // A cycle far from the start, through the parallel check: named.
  expect_rejected<Policy>(broken([](auto&, auto& e) { e(80000) = 79000; }), "the graph has a cycle");
}

// A rebuilt policy reuses its plan only while neither array changed, wherever the change is (the
// workers fingerprint a large graph in parts).
TYPED_TEST(WorkGraphConstruction, RebuiltPolicySeesAChangeAnywhere) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, TypeParam>;
  const std::int32_t n = 1 << 17;
  const Edges edges = random_numbered_edges(n, true, 31u);
  const auto graph = Kokkos::Test::make_work_graph_of<Policy>(n, edges);
  auto plan_of = [&] { return Policy(graph).impl_plan(); };
  auto plan = plan_of();
  EXPECT_EQ(plan_of(), plan) << "unchanged: reused";
  auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), graph.entries);
  auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), graph.row_map);
  const std::size_t m = entries.extent(0);
  for (const std::size_t k : {std::size_t(0), m / 2 - 1, m / 2, m - 1}) {
    const std::int32_t old = entries(k);
    if (old == n - 1) continue;
    entries(k) = n - 1;  // still after its row: the graph stays forward
    Kokkos::deep_copy(graph.entries, entries);
    const auto changed = plan_of();
    EXPECT_NE(changed, plan) << "entry " << k << " changed";
    entries(k) = old;
    Kokkos::deep_copy(graph.entries, entries);
    plan = plan_of();
    EXPECT_NE(plan, changed) << "entry " << k << " restored: planned again (one plan per graph is kept)";
    EXPECT_EQ(plan_of(), plan);
  }
  // An edge moved to the next row: row_map changes, entries do not.
  std::int32_t row = n / 2;  // a row whose last successor comes after the next row too
  while (rows(row + 1) == rows(row) || entries(rows(row + 1) - 1) <= row + 1) ++row;
  rows(row + 1) -= 1;
  Kokkos::deep_copy(graph.row_map, rows);
  EXPECT_NE(plan_of(), plan) << "row_map changed";
}

}  // namespace

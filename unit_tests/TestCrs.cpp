// Kokkos::Crs, count_and_fill_crs, transpose_crs and the row-map helpers on every back end,
// and the containers' StaticCrsGraph.
#include "TestCommon.hpp"

#include <Kokkos_Crs.hpp>
#include <Kokkos_StaticCrsGraph.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace {

template <class Space>
struct CrsTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(CrsTest, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

constexpr std::int32_t row_counts[] = {0, 1, 2, 3, 13, 100, 1000, 10000};

// Kokkos' test functor: row i has (i % 4) + 1 entries 1, 2, ...
struct CountFillFunctor {
  KOKKOS_INLINE_FUNCTION std::int32_t operator()(std::int32_t row, float* fill) const {
    const std::int32_t n = (row % 4) + 1;
    if (fill) {
      for (std::int32_t j = 0; j < n; ++j) fill[j] = static_cast<float>(j + 1);
    }
    return n;
  }
};

// Rows of varying length, some empty (every third row, and the last ones).
struct SparseFillFunctor {
  std::int32_t nrows;
  KOKKOS_INLINE_FUNCTION std::int32_t operator()(std::int32_t row, std::int32_t* fill) const {
    const std::int32_t n = (row % 3 == 0 || row + 2 >= nrows) ? 0 : (row * 7) % 5 + 1;
    if (fill) {
      for (std::int32_t j = 0; j < n; ++j) fill[j] = (row + j + 1) % nrows;
    }
    return n;
  }
};

template <class Space>
void check_count_fill(std::int32_t nrows) {
  Kokkos::Crs<float, Space, void, std::int32_t> graph;
  count_and_fill_crs(graph, nrows, CountFillFunctor());  // found by argument-dependent lookup
  ASSERT_EQ(graph.numRows(), nrows);
  auto row_map = Kokkos::create_mirror_view(graph.row_map);
  Kokkos::deep_copy(row_map, graph.row_map);
  auto entries = Kokkos::create_mirror_view(graph.entries);
  Kokkos::deep_copy(entries, graph.entries);
  ASSERT_EQ(row_map.extent(0), static_cast<std::size_t>(nrows) + 1);
  EXPECT_EQ(row_map(0), 0);
  std::int32_t expected_total = 0;
  for (std::int32_t row = 0; row < nrows; ++row) {
    const std::int32_t n = (row % 4) + 1;
    expected_total += n;
    ASSERT_EQ(row_map(row + 1) - row_map(row), n) << "row " << row << " of " << nrows;
    for (std::int32_t j = 0; j < n; ++j) ASSERT_EQ(entries(row_map(row) + j), j + 1);
  }
  EXPECT_EQ(graph.entries.extent(0), static_cast<std::size_t>(expected_total));
}

TYPED_TEST(CrsTest, CountAndFill) {
  for (std::int32_t n : row_counts) check_count_fill<TypeParam>(n);
}

// The fill pass hands a null pointer to an empty row at the end (there is no entries(nnz)).
TYPED_TEST(CrsTest, CountAndFillEmptyRows) {
  for (std::int32_t nrows : {2, 3, 13, 1000}) {
    Kokkos::Crs<std::int32_t, TypeParam, void, std::int32_t> graph;
    SparseFillFunctor f{nrows};
    count_and_fill_crs(graph, nrows, f);
    auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), graph.row_map);
    auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), graph.entries);
    for (std::int32_t row = 0; row < nrows; ++row) {
      const std::int32_t n = f(row, nullptr);
      ASSERT_EQ(row_map(row + 1) - row_map(row), n);
      for (std::int32_t j = 0; j < n; ++j) ASSERT_EQ(entries(row_map(row) + j), (row + j + 1) % nrows);
    }
  }
}

// Copies share the arrays (shallow), as Kokkos' Crs constructor test checks.
TYPED_TEST(CrsTest, CopyAndAssignShare) {
  using crs_type = Kokkos::Crs<float, TypeParam, void, std::int32_t>;
  crs_type graph;
  count_and_fill_crs(graph, 13, CountFillFunctor());
  crs_type copy(graph);
  crs_type assigned;
  assigned = graph;
  EXPECT_EQ(copy.row_map.data(), graph.row_map.data());
  EXPECT_EQ(assigned.entries.data(), graph.entries.data());
  EXPECT_EQ(assigned.numRows(), 13);
  crs_type from_views(graph.row_map, graph.entries);  // (row_map, entries)
  EXPECT_EQ(from_views.entries.data(), graph.entries.data());
  EXPECT_EQ(from_views.numRows(), 13);
  crs_type empty;
  EXPECT_EQ(empty.numRows(), 0);  // a row map of extent 0 has no rows
}

TYPED_TEST(CrsTest, Types) {
  using crs_type = Kokkos::Crs<std::int64_t, TypeParam, void, std::int32_t>;
  static_assert(std::is_same_v<typename crs_type::size_type, std::int32_t>);
  static_assert(std::is_same_v<typename crs_type::data_type, std::int64_t>);
  static_assert(std::is_same_v<typename crs_type::execution_space, TypeParam>);
  static_assert(std::is_same_v<typename crs_type::row_map_type::value_type, std::int32_t>);
  static_assert(std::is_same_v<typename crs_type::entries_type::value_type, std::int64_t>);
  static_assert(std::is_same_v<typename crs_type::HostMirror::memory_space, Kokkos::HostSpace>);
  // A memory space as the second argument, and the default size type.
  using host_crs = Kokkos::Crs<int, Kokkos::HostSpace>;
  static_assert(std::is_same_v<typename host_crs::memory_space, Kokkos::HostSpace>);
  static_assert(std::is_integral_v<typename host_crs::size_type>);
  SUCCEED();
}

// A random square graph with nnz entries over n rows, as (row, column) pairs.
std::vector<std::pair<std::int32_t, std::int32_t>> random_pairs(std::int32_t n, std::int32_t nnz, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
  if (n == 0) return pairs;
  std::uniform_int_distribution<std::int32_t> pick(0, n - 1);
  for (std::int32_t k = 0; k < nnz; ++k) pairs.emplace_back(pick(rng), pick(rng));
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

template <class Crs>
Crs crs_from_pairs(std::int32_t n, const std::vector<std::pair<std::int32_t, std::int32_t>>& sorted_pairs) {
  Crs g;
  g.row_map = typename Crs::row_map_type("row_map", static_cast<std::size_t>(n) + 1);
  g.entries = typename Crs::entries_type("entries", sorted_pairs.size());
  auto rows = Kokkos::create_mirror_view(g.row_map);
  auto entries = Kokkos::create_mirror_view(g.entries);
  for (std::size_t k = 0; k < sorted_pairs.size(); ++k) {
    ++rows(sorted_pairs[k].first + 1);
    entries(k) = sorted_pairs[k].second;
  }
  for (std::int32_t i = 0; i < n; ++i) rows(i + 1) += rows(i);
  Kokkos::deep_copy(g.row_map, rows);
  Kokkos::deep_copy(g.entries, entries);
  return g;
}

template <class Crs>
std::vector<std::pair<std::int32_t, std::int32_t>> pairs_of(const Crs& g) {
  auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.row_map);
  auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.entries);
  std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(g.numRows()); ++i) {
    for (auto k = rows(i); k < rows(i + 1); ++k) pairs.emplace_back(i, static_cast<std::int32_t>(entries(k)));
  }
  return pairs;
}

// The transpose holds j -> i for each i -> j, each row in ascending order (so the result does
// not depend on the thread count), duplicates kept; transposing twice gives back the input.
TYPED_TEST(CrsTest, Transpose) {
  using crs_type = Kokkos::Crs<std::int32_t, TypeParam, void, std::int32_t>;
  for (std::int32_t n : row_counts) {
    for (std::int32_t per_row : {0, 1, 3}) {
      const auto pairs = random_pairs(n, n * per_row + (n > 0 ? 5 : 0), static_cast<unsigned>(n * 31 + per_row));
      const crs_type in = crs_from_pairs<crs_type>(n, pairs);
      crs_type out;
      transpose_crs(out, in);  // argument-dependent lookup
      ASSERT_EQ(out.numRows(), n);
      std::vector<std::pair<std::int32_t, std::int32_t>> expected;
      for (const auto& [i, j] : pairs) expected.emplace_back(j, i);
      std::sort(expected.begin(), expected.end());
      ASSERT_EQ(pairs_of(out), expected) << "n = " << n;
      crs_type back;
      transpose_crs(back, out);
      ASSERT_EQ(pairs_of(back), pairs) << "n = " << n;
    }
  }
}

// A row with many entries (a wide fan-in) takes the heap sort path.
TYPED_TEST(CrsTest, TransposeWideRow) {
  using crs_type = Kokkos::Crs<std::int32_t, TypeParam, void, std::int32_t>;
  const std::int32_t n = 5000;
  std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
  for (std::int32_t i = 0; i < n; ++i) pairs.emplace_back(i, 7);
  const crs_type in = crs_from_pairs<crs_type>(n, pairs);
  crs_type out;
  transpose_crs(out, in);
  const auto got = pairs_of(out);
  ASSERT_EQ(got.size(), static_cast<std::size_t>(n));
  for (std::int32_t k = 0; k < n; ++k) ASSERT_EQ(got[static_cast<std::size_t>(k)], std::make_pair(7, k));
}

TYPED_TEST(CrsTest, TransposeIntoItself) {
  using crs_type = Kokkos::Crs<std::int32_t, TypeParam, void, std::int32_t>;
  const auto pairs = random_pairs(100, 300, 7u);
  crs_type g = crs_from_pairs<crs_type>(100, pairs);
  transpose_crs(g, g);
  std::vector<std::pair<std::int32_t, std::int32_t>> expected;
  for (const auto& [i, j] : pairs) expected.emplace_back(j, i);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(pairs_of(g), expected);
}

TYPED_TEST(CrsTest, TransposeCountsAndRowMap) {
  using crs_type = Kokkos::Crs<std::int32_t, TypeParam, void, std::int32_t>;
  using counts_type = Kokkos::View<std::int32_t*, TypeParam>;
  // Row i -> (i + 1) % 4 and i -> 0.
  std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
  for (std::int32_t i = 0; i < 4; ++i) {
    pairs.emplace_back(i, 0);
    pairs.emplace_back(i, (i + 1) % 4);
  }
  std::sort(pairs.begin(), pairs.end());
  const crs_type g = crs_from_pairs<crs_type>(4, pairs);
  counts_type counts;
  Kokkos::get_crs_transpose_counts(counts, g);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
  ASSERT_EQ(h.extent(0), 4u);
  EXPECT_EQ(h(0), 5);  // four times as "0", once as (3 + 1) % 4
  EXPECT_EQ(h(1), 1);
  EXPECT_EQ(h(2), 1);
  EXPECT_EQ(h(3), 1);
  counts_type row_map;
  const auto total = Kokkos::get_crs_row_map_from_counts(row_map, counts);
  EXPECT_EQ(total, 8);
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_map);
  ASSERT_EQ(r.extent(0), 5u);
  const std::int32_t expected[] = {0, 5, 6, 7, 8};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(r(i), expected[i]);
}

TYPED_TEST(CrsTest, TransposeRejectsEntryOutsideRows) {
  using crs_type = Kokkos::Crs<std::int32_t, TypeParam, void, std::int32_t>;
  const crs_type g = crs_from_pairs<crs_type>(3, {{0, 1}, {1, 3}});
  crs_type out;
  EXPECT_DEATH(transpose_crs(out, g), "transpose_crs: an entry of the input graph is outside");
}

// ---- StaticCrsGraph ----------------------------------------------------------------------

template <class Space>
struct StaticCrsGraphTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(StaticCrsGraphTest, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(StaticCrsGraphTest, FromRowsAndMirror) {
  using graph_type = Kokkos::StaticCrsGraph<unsigned, TypeParam>;
  const std::vector<std::vector<int>> rows = {{0, 1}, {2}, {}, {4, 5, 6}, {7}};
  graph_type g = Kokkos::create_staticcrsgraph<graph_type>("g", rows);
  EXPECT_EQ(g.numRows(), 5u);
  EXPECT_TRUE(g.is_allocated());
  auto h = Kokkos::create_mirror(g);
  auto hv = Kokkos::create_mirror_view(g);
  ASSERT_EQ(h.row_map.extent(0), 6u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(h.row_map(i + 1) - h.row_map(i), rows[i].size());
    for (std::size_t j = 0; j < rows[i].size(); ++j) {
      EXPECT_EQ(h.entries(h.row_map(i) + j), static_cast<unsigned>(rows[i][j]));
      EXPECT_EQ(hv.entries(hv.row_map(i) + j), static_cast<unsigned>(rows[i][j]));
    }
  }
  EXPECT_EQ(Kokkos::maximum_entry(g), 7u);
  static_assert(std::is_const_v<typename graph_type::row_map_type::value_type>);
}

TYPED_TEST(StaticCrsGraphTest, RowConst) {
  using graph_type = Kokkos::StaticCrsGraph<int, TypeParam>;
  graph_type g = Kokkos::create_staticcrsgraph<graph_type>("g", std::vector<std::vector<int>>{{3, 1}, {}, {9}});
  auto h = Kokkos::create_mirror_view(g);
  const auto r0 = h.rowConst(0);
  EXPECT_EQ(r0.length, 2);
  EXPECT_EQ(r0.colidx(0), 3);
  EXPECT_EQ(r0(1), 1);
  EXPECT_EQ(h.rowConst(1).length, 0);
  EXPECT_EQ(h.rowConst(2)(0), 9);
}

TYPED_TEST(StaticCrsGraphTest, FromLengths) {
  using graph_type = Kokkos::StaticCrsGraph<int, TypeParam>;
  graph_type g = Kokkos::create_staticcrsgraph<graph_type>("g", std::vector<int>{2, 0, 3});
  auto h = Kokkos::create_mirror(g);
  EXPECT_EQ(g.numRows(), 3u);
  EXPECT_EQ(g.entries.extent(0), 5u);
  EXPECT_EQ(h.row_map(1), 2u);
  EXPECT_EQ(h.row_map(2), 2u);
  EXPECT_EQ(h.row_map(3), 5u);
  EXPECT_THROW(Kokkos::create_staticcrsgraph<graph_type>("bad", std::vector<int>{1, -2}), std::runtime_error);
  graph_type empty = Kokkos::create_staticcrsgraph<graph_type>("empty", std::vector<int>{});
  EXPECT_EQ(empty.numRows(), 0u);
  EXPECT_EQ(Kokkos::maximum_entry(empty), 0);
}

// Blocks cover all rows in order and balance entries + fix_cost_per_row per row.
TYPED_TEST(StaticCrsGraphTest, BlockPartitioning) {
  using graph_type = Kokkos::StaticCrsGraph<int, TypeParam>;
  std::vector<int> lengths(1000);
  for (std::size_t i = 0; i < lengths.size(); ++i) lengths[i] = static_cast<int>(i % 10);
  graph_type g = Kokkos::create_staticcrsgraph<graph_type>("g", lengths);
  for (unsigned blocks : {1u, 2u, 7u, 64u}) {
    g.create_block_partitioning(blocks);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.row_block_offsets);
    auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.row_map);
    ASSERT_EQ(h.extent(0), blocks + 1);
    EXPECT_EQ(h(0), 0u);
    EXPECT_EQ(h(blocks), 1000u);
    const double total = rows(1000) + 4.0 * 1000;
    for (unsigned b = 0; b < blocks; ++b) {
      ASSERT_LE(h(b), h(b + 1));
      const double cost = (rows(h(b + 1)) - rows(h(b))) + 4.0 * (h(b + 1) - h(b));
      EXPECT_LE(cost, total / blocks + 9 + 4) << "block " << b << " of " << blocks;
    }
  }
  EXPECT_THROW(g.create_block_partitioning(0), std::runtime_error);
}

}  // namespace

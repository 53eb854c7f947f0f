// The sparse Cholesky task DAG of example/task_sparse.hpp on every back end, the GPU included
// (which skips, with the reason, where no GPU is visible): the factor against the serial one for
// every grain, the tasks and when_alls the DAG makes, batches of children, a forest, a full pool,
// team chains, the level-set loops, a failed pivot, the solve by DAGs and by level loops, bad
// input; and the serial pieces (ordering, elimination tree, postorder, L's pattern, the numeric
// factor, the substitutions) against dense brute force.
#include "TestCommon.hpp"

#include "../example/task_sparse.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using task_sparse::Csc;
using task_sparse::Grid;
using task_sparse::Problem;

template <class Space>
struct TaskSparse : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TaskSparse, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

// ---- dense brute force ------------------------------------------------------------------------
using Dense = std::vector<std::vector<double>>;

Dense dense_of(const Csc& a) {
  Dense d(a.n, std::vector<double>(a.n, 0));
  for (int j = 0; j < a.n; ++j)
    for (long p = a.col_ptr[j]; p < a.col_ptr[j + 1]; ++p) d[a.row[p]][j] = d[j][a.row[p]] = a.value[p];
  return d;
}

// L's pattern by eliminating a dense boolean matrix: filled[i][j] for i >= j.
std::vector<std::vector<bool>> dense_fill(const Csc& a) {
  std::vector<std::vector<bool>> f(a.n, std::vector<bool>(a.n, false));
  for (int j = 0; j < a.n; ++j)
    for (long p = a.col_ptr[j]; p < a.col_ptr[j + 1]; ++p) f[a.row[p]][j] = true;
  for (int k = 0; k < a.n; ++k)
    for (int i = k + 1; i < a.n; ++i)
      for (int j = k + 1; j <= i; ++j)
        if (f[i][k] && f[j][k]) f[i][j] = true;
  return f;
}

// The dense Cholesky factor (right-looking), L(i, j) for i >= j.
Dense dense_cholesky(const Csc& a) {
  Dense l = dense_of(a);
  for (int k = 0; k < a.n; ++k) {
    l[k][k] = std::sqrt(l[k][k]);
    for (int i = k + 1; i < a.n; ++i) l[i][k] /= l[k][k];
    for (int j = k + 1; j < a.n; ++j)
      for (int i = j; i < a.n; ++i) l[i][j] -= l[i][k] * l[j][k];
  }
  return l;
}

// A random symmetric pattern of n columns, each off-diagonal entry present with probability
// `density`, diagonally dominant; postordered unless `keep_order`.
Csc random_matrix(int n, double density, unsigned seed, bool keep_order = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Csc a;
  a.n = n;
  std::vector<double> diagonal(n, 1);
  std::vector<std::vector<std::pair<int, double>>> below(n);
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i)
      if (u(rng) < density) {
        const double w = -0.1 - u(rng);
        below[j].push_back({i, w});
        diagonal[i] -= w;
        diagonal[j] -= w;
      }
  for (int j = 0; j < n; ++j) {
    a.row.push_back(j);
    a.value.push_back(diagonal[j]);
    for (const auto& [i, w] : below[j]) {
      a.row.push_back(i);
      a.value.push_back(w);
    }
    a.col_ptr.push_back(long(a.row.size()));
  }
  return keep_order ? a : task_sparse::permute(a, task_sparse::postorder(task_sparse::elimination_tree(a)));
}

Problem problem_of(const Csc& a) {
  Problem p;
  p.a = a;
  p.symbolic = task_sparse::analyse(a);
  return p;
}

// An arrowhead: every column joined to the last, so the last has n - 1 children.
Csc arrowhead(int n) {
  Csc a;
  a.n = n;
  for (int j = 0; j < n; ++j) {
    a.row.push_back(j);
    a.value.push_back(j == n - 1 ? n : 2);
    if (j < n - 1) {
      a.row.push_back(n - 1);
      a.value.push_back(-1);
    }
    a.col_ptr.push_back(long(a.row.size()));
  }
  return a;
}

// A diagonal matrix: a forest of n roots.
Csc diagonal(int n) {
  Csc a;
  a.n = n;
  for (int j = 0; j < n; ++j) {
    a.row.push_back(j);
    a.value.push_back(4.0 + j);
    a.col_ptr.push_back(long(a.row.size()));
  }
  return a;
}

template <class F>
void expect_invalid(F&& f, const std::string& needed) {
  try {
    f();
    ADD_FAILURE() << "no exception for " << needed;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needed), std::string::npos) << e.what();
  }
}

// ---- the serial pieces --------------------------------------------------------------------------
TEST(TaskSparseReference, TheGridMatrixIsTheWeightedLaplacian) {
  for (const Grid& g : {Grid{3, 2, 1}, Grid{2, 2, 2}, Grid{1, 1, 1}, Grid{5, 1, 1}}) {
    const Csc a = task_sparse::grid_matrix(g);
    const long edges = long(g.nx - 1) * g.ny * g.nz + long(g.nx) * (g.ny - 1) * g.nz + long(g.nx) * g.ny * (g.nz - 1);
    ASSERT_EQ(a.n, g.points());
    EXPECT_EQ(a.nnz(), a.n + edges);
    const Dense d = dense_of(a);
    for (int i = 0; i < a.n; ++i) {
      const int x = i % g.nx, y = i / g.nx % g.ny, z = i / (g.nx * g.ny);
      double off = 0;
      for (int j = 0; j < a.n; ++j) {
        if (i == j) continue;
        const int dx = std::abs(x - j % g.nx), dy = std::abs(y - j / g.nx % g.ny), dz = std::abs(z - j / (g.nx * g.ny));
        if (dx + dy + dz == 1) {
          EXPECT_LE(d[i][j], -0.5) << i << " " << j;
          EXPECT_GT(d[i][j], -1) << i << " " << j;
        } else {
          EXPECT_EQ(d[i][j], 0) << i << " " << j;
        }
        off -= d[i][j];
      }
      EXPECT_DOUBLE_EQ(d[i][i], 1 + off) << i;
    }
    const std::vector<double> row_sums = task_sparse::times_ones(a);  // 1 + |edges| - |edges|
    for (int i = 0; i < a.n; ++i) EXPECT_NEAR(row_sums[i], 1, 1e-14) << i;
    for (int j = 0; j < a.n; ++j) {
      EXPECT_EQ(a.row[a.col_ptr[j]], j);
      EXPECT_TRUE(std::is_sorted(a.row.begin() + a.col_ptr[j], a.row.begin() + a.col_ptr[j + 1]));
    }
  }
  expect_invalid([] { task_sparse::grid_matrix(Grid{0, 3, 3}); }, "sides >= 1");
  expect_invalid([] { task_sparse::grid_matrix(Grid{3, -1, 3}); }, "sides >= 1");
  expect_invalid([] { task_sparse::nested_dissection(Grid{2048, 1024, 1024}); }, "fewer than 2^31 points");
}

TEST(TaskSparseReference, NestedDissectionPutsTheSeparatorLast) {
  // A line of 7: halves {0, 1, 2} and {4, 5, 6}, each by its middle point, then point 3.
  EXPECT_EQ(task_sparse::nested_dissection(Grid{7, 1, 1}), (std::vector<int>{0, 2, 1, 6, 3, 5, 4}));
  // 3 x 3: the column x = 1 last (the first of two longest sides), then each half's point.
  const std::vector<int> square = task_sparse::nested_dissection(Grid{3, 3, 1});
  for (int y = 0; y < 3; ++y) EXPECT_EQ(square[1 + 3 * y], 6 + y) << y;
  // Any grid: a permutation.
  for (const Grid& g : {Grid{5, 4, 3}, Grid{1, 9, 2}, Grid{16, 16, 1}}) {
    std::vector<int> label = task_sparse::nested_dissection(g);
    std::sort(label.begin(), label.end());
    std::vector<int> identity(g.points());
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_EQ(label, identity);
  }
}

TEST(TaskSparseReference, PermuteMovesRowsAndColumns) {
  const Csc a = random_matrix(9, 0.4, 1, true);
  const std::vector<int> label{4, 0, 8, 2, 6, 1, 7, 3, 5};
  const Dense d = dense_of(a), e = dense_of(task_sparse::permute(a, label));
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 9; ++j) EXPECT_EQ(e[label[i]][label[j]], d[i][j]) << i << " " << j;
  expect_invalid([&] { task_sparse::permute(a, {0, 1, 2}); }, "a permutation of 0 .. 8 (3 labels given)");
  expect_invalid([&] { task_sparse::permute(a, {0, 1, 2, 3, 4, 5, 6, 7, 7}); }, "a permutation");
  expect_invalid([&] { task_sparse::permute(a, {0, 1, 2, 3, 4, 5, 6, 7, 9}); }, "a permutation");
  expect_invalid([&] { task_sparse::permute(a, {0, 1, 2, 3, 4, 5, 6, 7, -1}); }, "a permutation");
}

TEST(TaskSparseReference, TheEliminationTreeAndPatternMatchDenseElimination) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const Csc a = random_matrix(30, seed % 3 == 0 ? 0.02 : 0.08, seed);
    const auto fill = dense_fill(a);
    const std::vector<int> parent = task_sparse::elimination_tree(a);
    for (int j = 0; j < a.n; ++j) {
      int expected = -1;  // the first row below the diagonal that L's column j has
      for (int i = j + 1; i < a.n && expected < 0; ++i)
        if (fill[i][j]) expected = i;
      EXPECT_EQ(parent[j], expected) << "seed " << seed << ", column " << j;
    }
    const task_sparse::Symbolic s = task_sparse::analyse(a);
    EXPECT_EQ(s.parent, parent);
    for (int j = 0; j < a.n; ++j) {
      std::vector<int> rows;
      for (int i = j; i < a.n; ++i)
        if (fill[i][j]) rows.push_back(i);
      EXPECT_EQ(std::vector<int>(s.row.begin() + s.col_ptr[j], s.row.begin() + s.col_ptr[j + 1]), rows)
          << "seed " << seed << ", column " << j;
      // The rows: the columns k < j with L(j, k), ascending, and where L(j, k) is stored.
      std::vector<int> columns;
      for (int k = 0; k < j; ++k)
        if (fill[j][k]) columns.push_back(k);
      EXPECT_EQ(std::vector<int>(s.row_col.begin() + s.row_ptr[j], s.row_col.begin() + s.row_ptr[j + 1]), columns);
      for (long r = s.row_ptr[j]; r < s.row_ptr[j + 1]; ++r) {
        EXPECT_EQ(s.row[s.row_pos[r]], j);
        EXPECT_GE(s.row_pos[r], s.col_ptr[s.row_col[r]]);
        EXPECT_LT(s.row_pos[r], s.col_ptr[s.row_col[r] + 1]);
      }
    }
  }
}

TEST(TaskSparseReference, APostorderKeepsEverySubtreeTogether) {
  // A forest out of order: roots 0, 2 and 6; 0's children 3 and 5; 3's children 1 and 4.
  const std::vector<int> parent{-1, 3, -1, 0, 3, 0, -1};
  const std::vector<int> label = task_sparse::postorder(parent);
  EXPECT_EQ(label, (std::vector<int>{4, 0, 5, 2, 1, 3, 6}));
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const Csc a = random_matrix(40, 0.05, seed, true);
    const std::vector<int> before = task_sparse::elimination_tree(a);
    const std::vector<int> post = task_sparse::postorder(before);
    const Csc b = task_sparse::permute(a, post);
    const task_sparse::Symbolic s = task_sparse::analyse(b);  // throws unless postordered
    for (int j = 0; j < a.n; ++j) {
      // The relabelled tree is the same tree.
      EXPECT_EQ(s.parent[post[j]], before[j] < 0 ? -1 : post[before[j]]);
      // Every column between first[j] and j is in j's subtree.
      for (int k = s.first[j]; k < j; ++k) {
        int up = k;
        while (up >= 0 && up < j) up = s.parent[up];
        EXPECT_EQ(up, j) << k << " in " << j << "'s subtree";
      }
    }
    EXPECT_EQ(s.first[a.n], 0);
  }
}

TEST(TaskSparseReference, AnalyseRefusesWhatItCannotFactor) {
  // A random order is accepted exactly when it is a postorder already.
  Csc a = random_matrix(30, 0.08, 3, true);
  const std::vector<int> parent = task_sparse::elimination_tree(a);
  bool postordered = true;
  try {
    task_sparse::analyse(a);
  } catch (const std::invalid_argument& e) {
    postordered = false;
    EXPECT_NE(std::string(e.what()).find("not postordered"), std::string::npos) << e.what();
  }
  EXPECT_EQ(postordered, task_sparse::postorder(parent) == [&] {
    std::vector<int> identity(a.n);
    std::iota(identity.begin(), identity.end(), 0);
    return identity;
  }());
  // A tree whose subtrees interleave: 0 -> 2, 1 -> 3, 2 -> 3.
  Csc interleaved;
  interleaved.n = 4;
  interleaved.col_ptr = {0, 2, 4, 6, 7};
  interleaved.row = {0, 2, 1, 3, 2, 3, 3};
  interleaved.value = {4, -1, 4, -1, 4, -1, 4};
  expect_invalid([&] { task_sparse::analyse(interleaved); }, "not postordered");
  Csc missing = diagonal(3);
  missing.row[1] = 2;
  expect_invalid([&] { task_sparse::analyse(missing); }, "column 1 has no diagonal entry first");
}

TEST(TaskSparseReference, TheSerialFactorIsTheDenseOne) {
  std::vector<Problem> problems{task_sparse::make_problem(Grid{6, 5, 1}), task_sparse::make_problem(Grid{3, 3, 3}),
                                problem_of(random_matrix(40, 0.1, 7)), problem_of(arrowhead(12)),
                                problem_of(diagonal(5))};
  for (const Problem& p : problems) {
    const std::vector<double> l = task_sparse::serial_factor(p);
    const Dense dense = dense_cholesky(p.a);
    const auto fill = dense_fill(p.a);
    double flops = 0;
    for (int j = 0; j < p.a.n; ++j) {
      const double entries = double(p.symbolic.col_ptr[j + 1] - p.symbolic.col_ptr[j]);
      flops += entries * entries;
      for (long q = p.symbolic.col_ptr[j]; q < p.symbolic.col_ptr[j + 1]; ++q) {
        EXPECT_NEAR(l[q], dense[p.symbolic.row[q]][j], 1e-13 * std::fabs(dense[j][j])) << p.a.n << ": " << j;
      }
      for (int i = j; i < p.a.n; ++i) {
        if (!fill[i][j]) {
          EXPECT_EQ(dense[i][j], 0);
        }
      }
    }
    EXPECT_EQ(p.symbolic.flops(), flops);
    EXPECT_LT(task_sparse::solve_error(p, l), 1e-12) << p.a.n;
    int failed = -1;
    (void)task_sparse::serial_factor(p, &failed);
    EXPECT_EQ(failed, p.a.n) << "positive definite";
  }
  // Not positive definite: column 1's pivot, and a NaN, which the solve reports.
  Csc indefinite = diagonal(3);
  indefinite.value[1] = -1;
  const Problem bad = problem_of(indefinite);
  int failed = -1;
  EXPECT_TRUE(std::isnan(task_sparse::solve_error(bad, task_sparse::serial_factor(bad, &failed))));
  EXPECT_EQ(failed, 1);
}

double max_distance_from_one(const std::vector<double>& x) {
  double d = 0;
  for (double v : x) d = std::isnan(v) ? v : std::max(d, std::fabs(v - 1));
  return d;
}

TEST(TaskSparseReference, TheSerialSubstitutionsSolve) {
  for (const Problem& p : {task_sparse::make_problem(Grid{9, 7, 1}), task_sparse::make_problem(Grid{4, 4, 4}),
                           problem_of(random_matrix(60, 0.05, 4)), problem_of(arrowhead(12)),
                           problem_of(diagonal(5))}) {
    std::vector<double> l = task_sparse::serial_factor(p), x = task_sparse::times_ones(p.a);
    const task_sparse::Factor f = task_sparse::host_factor(p.a, p.symbolic, l.data());
    std::vector<double> y = x;
    task_sparse::sweep_columns(f, task_sparse::Sweep::forward, y.data(), 0, p.a.n);
    // L y = b, checked row by row against L's columns.
    std::vector<double> ly(p.a.n, 0);
    for (int j = 0; j < p.a.n; ++j)
      for (long q = p.symbolic.col_ptr[j]; q < p.symbolic.col_ptr[j + 1]; ++q) ly[p.symbolic.row[q]] += l[q] * y[j];
    for (int j = 0; j < p.a.n; ++j) EXPECT_NEAR(ly[j], x[j], 1e-12 * (1 + std::fabs(x[j]))) << j;
    task_sparse::serial_solve(f, x.data());
    EXPECT_LT(max_distance_from_one(x), 1e-12) << p.a.n << " columns";
  }
}

TEST(TaskSparseReference, LevelSetsOrderTheTree) {
  for (const Problem& p : {task_sparse::make_problem(Grid{9, 7, 1}), problem_of(random_matrix(60, 0.05, 4)),
                           problem_of(diagonal(4))}) {
    const task_sparse::LevelSets sets = task_sparse::level_sets(p.symbolic);
    std::vector<int> level(p.a.n, -1);
    for (int l = 0; l < sets.levels(); ++l) {
      EXPECT_LT(sets.level_ptr[l], sets.level_ptr[l + 1]) << "level " << l << " is empty";
      for (int i = sets.level_ptr[l]; i < sets.level_ptr[l + 1]; ++i) level[sets.column[i]] = l;
    }
    for (int j = 0; j < p.a.n; ++j) {
      ASSERT_GE(level[j], 0) << j;
      if (p.symbolic.parent[j] >= 0) {
        EXPECT_GT(level[p.symbolic.parent[j]], level[j]);
      }
      bool child_one_below = p.symbolic.child_ptr[j] == p.symbolic.child_ptr[j + 1] && level[j] == 0;
      for (int c = p.symbolic.child_ptr[j]; c < p.symbolic.child_ptr[j + 1]; ++c)
        child_one_below = child_one_below || level[p.symbolic.child[c]] == level[j] - 1;
      EXPECT_TRUE(child_one_below) << j;
    }
  }
  EXPECT_EQ(task_sparse::level_sets(problem_of(diagonal(4)).symbolic).levels(), 1);
  EXPECT_EQ(task_sparse::level_sets(problem_of(arrowhead(9)).symbolic).levels(), 2);
}

TEST(TaskSparseReference, TheDagShapeOfALineIsKnown) {
  // A line of 7 by nested dissection: root 6 (point 3) over 2 and 5, each over two leaves.
  const Problem line = task_sparse::make_problem(Grid{7, 1, 1});
  EXPECT_EQ(line.symbolic.parent, (std::vector<int>{2, 2, 6, 5, 5, 6, -1}));
  const auto shape = [&](int grain) { return task_sparse::dag_shape(line, grain); };
  EXPECT_EQ(shape(0).tasks, 7);  // the root's, 2 and 5, their four leaves
  EXPECT_EQ(shape(0).when_alls, 3);
  EXPECT_EQ(shape(0).chains, 3);
  EXPECT_EQ(shape(0).critical_path, 3);
  EXPECT_EQ(shape(1).tasks, 7);  // a leaf is a subtree of one column: in place, but still a task
  EXPECT_EQ(shape(3).tasks, 3);  // 2's and 5's subtrees in place
  EXPECT_EQ(shape(3).critical_path, 2);
  EXPECT_EQ(shape(7).tasks, 3);  // the root's parent has 8 nodes
  EXPECT_EQ(shape(8).tasks, 1);
  EXPECT_EQ(shape(8).when_alls, 0);
  // Batches of max_children: an arrowhead of 20 has a column with 19 children.
  const task_sparse::DagShape arrow = task_sparse::dag_shape(problem_of(arrowhead(20)), 0);
  EXPECT_EQ(arrow.tasks, 20);
  EXPECT_EQ(arrow.when_alls, 3);  // 8 + 8 + 3
  EXPECT_EQ(task_sparse::dag_shape(problem_of(diagonal(10)), 0).tasks, 11);  // the roots' parent's ten
  // Team tasks: every chain of a task above the grain with at least team_chain columns.
  EXPECT_EQ(task_sparse::dag_shape(line, 0, 1).team_tasks, 7);  // every task's chain: one column each
  EXPECT_EQ(task_sparse::dag_shape(line, 0, 2).team_tasks, 0);
  EXPECT_EQ(task_sparse::dag_shape(line, 3, 1).team_tasks, 1);  // the root's; 2's and 5's subtrees in place
  EXPECT_EQ(task_sparse::dag_shape(line, 0).team_tasks, 0);
  const Problem square = task_sparse::make_problem(Grid{15, 15, 1});
  EXPECT_EQ(task_sparse::dag_shape(square, 0, 1).team_tasks, task_sparse::dag_shape(square, 0).tasks);
  EXPECT_EQ(task_sparse::dag_shape(square, 0, 15).team_tasks, 1);  // the top separator, 15 columns
  EXPECT_EQ(task_sparse::dag_shape(square, 0, 16).team_tasks, 0);
  expect_invalid([&] { task_sparse::dag_shape(line, -1); }, "grain >= 0");
  expect_invalid([&] { task_sparse::dag_shape(line, 0, -1); }, "team_chain >= 0");
}

// ---- the DAG ------------------------------------------------------------------------------------
// The factor by the DAG on Space's scheduler (a pool of pool_bytes), and its statistics.
template <class Space>
std::vector<double> dag_factor(const Problem& p, int grain, std::size_t pool_bytes,
                               Kokkos::Experimental::TaskDagStatistics& statistics, int team_chain = 0) {
  using S = Kokkos::TaskScheduler<Space>;
  task_sparse::FactorData<typename Space::memory_space> data(p);
  S sched(typename S::memory_space(), pool_bytes, 64, 1024, pool_bytes < (1 << 16) ? pool_bytes : (1 << 16));
  auto done = task_sparse::spawn_factor(sched, data.factor(), grain, team_chain);
  EXPECT_FALSE(done.is_null()) << "the root's spawn found the pool full";
  if (done.is_null()) return {};
  Kokkos::wait(sched);
  statistics = Kokkos::Experimental::task_dag_statistics(sched);
  EXPECT_TRUE(done.is_ready());
  done = {};
  EXPECT_EQ(sched.allocated_task_count(), 0);
  return data.values();
}

// The host back ends compile factor_column with the same flags as serial_factor, so their factor
// is the serial one to the bit; the GPU's compiler contracts multiply-adds: within rounding there.
template <class Space>
void expect_same_factor(const std::vector<double>& dag, const std::vector<double>& serial, const std::string& what) {
  ASSERT_EQ(dag.size(), serial.size()) << what;
  if constexpr (Kokkos::Test::needs_device<Space>) {
    for (std::size_t q = 0; q < dag.size(); ++q) {
      ASSERT_NEAR(dag[q], serial[q], 1e-12 * (1 + std::fabs(serial[q]))) << what << ", entry " << q;
    }
  } else {
    EXPECT_TRUE(dag == serial) << what;
  }
}

std::vector<Problem> dag_problems() {
  return {task_sparse::make_problem(Grid{24, 24, 1}), task_sparse::make_problem(Grid{6, 6, 6}),
          problem_of(random_matrix(200, 0.01, 11))};
}

TYPED_TEST(TaskSparse, TheDagFactorsAsTheSerialLoopAtEveryGrain) {
  for (const Problem& p : dag_problems()) {
    const std::vector<double> serial = task_sparse::serial_factor(p);
    for (const int grain : {0, 1, 4, 16, 100, 1 << 30})
      for (const int team_chain : {0, 1, 8}) {
        Kokkos::Experimental::TaskDagStatistics statistics;
        const std::vector<double> l = dag_factor<TypeParam>(p, grain, 1 << 22, statistics, team_chain);
        expect_same_factor<TypeParam>(l, serial, std::to_string(p.a.n) + " columns, grain " + std::to_string(grain) +
                                                     ", team chains from " + std::to_string(team_chain));
        EXPECT_LT(task_sparse::solve_error(p, l), 1e-12);
      }
  }
}

TYPED_TEST(TaskSparse, ATaskPerSubtreeAboveTheGrainAndAWhenAllPerBatch) {
  std::vector<Problem> problems = dag_problems();
  problems.push_back(problem_of(arrowhead(30)));  // a column with 29 children: four batches
  problems.push_back(problem_of(diagonal(17)));   // seventeen roots: three batches
  for (const Problem& p : problems)
    for (const int grain : {0, 3, 50})
      for (const int team_chain : {0, 2}) {
        const task_sparse::DagShape shape = task_sparse::dag_shape(p, grain, team_chain);
        Kokkos::Experimental::TaskDagStatistics statistics;
        (void)dag_factor<TypeParam>(p, grain, 1 << 22, statistics, team_chain);
        const std::string what = std::to_string(p.a.n) + " columns, grain " + std::to_string(grain) +
                                 ", team chains from " + std::to_string(team_chain);
        EXPECT_EQ(statistics.tasks_spawned, shape.tasks + shape.team_tasks) << what;
        EXPECT_EQ(statistics.when_all_aggregates, shape.when_alls) << what;
        EXPECT_EQ(statistics.respawns, shape.when_alls + shape.team_tasks) << what;  // behind each ChainTask
        EXPECT_EQ(statistics.spawn_failures, 0) << what;
      }
  EXPECT_GT(task_sparse::dag_shape(dag_problems()[0], 0).tasks, 100);
  EXPECT_GT(task_sparse::dag_shape(dag_problems()[0], 0, 2).team_tasks, 10);
}

TYPED_TEST(TaskSparse, AFullPoolCostsParallelismNotTheAnswer) {
  // Pools of 1 to 4 KiB hold a few of the DAG's tasks at once: spawns and when_alls fail, their
  // subtrees are factored in place or their children waited for one at a time.  The arrowhead's
  // batches of eight fill the smaller pools between a batch's spawns and its when_all.
  // Team chains from one column: a ChainTask whose spawn fails leaves its chain to its parent.
  long failures = 0, single_waits = 0;
  for (const Problem& p : {task_sparse::make_problem(Grid{20, 20, 1}), problem_of(arrowhead(40))}) {
    const std::vector<double> serial = task_sparse::serial_factor(p);
    for (std::size_t bytes = 1 << 10; bytes <= 4 << 10; bytes += 256) {
      Kokkos::Experimental::TaskDagStatistics statistics;
      const std::vector<double> l = dag_factor<TypeParam>(p, 0, bytes, statistics, bytes % 512 == 0 ? 1 : 0);
      expect_same_factor<TypeParam>(l, serial, std::to_string(p.a.n) + " columns, " + std::to_string(bytes) + " bytes");
      failures += statistics.spawn_failures;
      if (bytes % 512 != 0) single_waits += statistics.respawns - statistics.when_all_aggregates;  // behind one child
    }
  }
  EXPECT_GT(failures, 0);
  EXPECT_GT(single_waits, 0);
}

TYPED_TEST(TaskSparse, TheLevelSetLoopsFactorAsTheSerialLoop) {
  for (const Problem& p : dag_problems()) {
    task_sparse::FactorData<typename TypeParam::memory_space> data(p);
    data.factor_by_levels(TypeParam());
    expect_same_factor<TypeParam>(data.values(), task_sparse::serial_factor(p), std::to_string(p.a.n) + " columns");
    EXPECT_EQ(data.levels().levels(), task_sparse::level_sets(p.symbolic).levels());
  }
}

TYPED_TEST(TaskSparse, ANonPositivePivotIsReportedByItsColumn) {
  // A diagonal entry made negative: that column's pivot fails, then (NaN) its ancestors'; the
  // lowest failing column is that one, whatever the schedule.
  Problem p = task_sparse::make_problem(Grid{16, 16, 1});
  const int column = 100;
  ASSERT_GT(p.symbolic.child_ptr[column + 1] - p.symbolic.child_ptr[column], 0) << "a column with children";
  p.a.value[p.a.col_ptr[column]] = -100;
  int serial_failed = -1;
  (void)task_sparse::serial_factor(p, &serial_failed);
  EXPECT_EQ(serial_failed, column);
  for (const int grain : {0, 16, 1 << 30})
    for (const int team_chain : {0, 1}) {
      using S = Kokkos::TaskScheduler<TypeParam>;
      task_sparse::FactorData<typename TypeParam::memory_space> data(p);
      S sched(typename S::memory_space(), 1 << 22, 64, 1024, 1 << 16);
      auto done = task_sparse::spawn_factor(sched, data.factor(), grain, team_chain);
      ASSERT_FALSE(done.is_null());
      Kokkos::wait(sched);
      EXPECT_EQ(data.failed_column(), column) << "grain " << grain << ", team chains from " << team_chain;
    }
  task_sparse::FactorData<typename TypeParam::memory_space> levels(p);
  levels.factor_by_levels(TypeParam());
  EXPECT_EQ(levels.failed_column(), column);
  // A positive definite matrix: n, after the DAG and after the level loops alike.
  const Problem good = task_sparse::make_problem(Grid{16, 16, 1});
  task_sparse::FactorData<typename TypeParam::memory_space> data(good);
  Kokkos::TaskScheduler<TypeParam> sched(typename Kokkos::TaskScheduler<TypeParam>::memory_space(), 1 << 22, 64, 1024,
                                         1 << 16);
  auto done = task_sparse::spawn_factor(sched, data.factor(), 4);
  ASSERT_FALSE(done.is_null());
  Kokkos::wait(sched);
  EXPECT_EQ(data.failed_column(), good.a.n);
  data.factor_by_levels(TypeParam());
  EXPECT_EQ(data.failed_column(), good.a.n);
}

// x after `solve(x)` on a copy of A 1 in Space's memory: the solution of A x = A 1.
template <class Space, class Solve>
std::vector<double> solve_ones(const Problem& p, const Solve& solve) {
  std::vector<double> x = task_sparse::times_ones(p.a);
  Kokkos::View<double*, typename Space::memory_space> device_x("x", x.size());
  const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host_x(x.data(), x.size());
  Kokkos::deep_copy(device_x, host_x);
  solve(device_x.data());
  Kokkos::deep_copy(host_x, device_x);
  return x;
}

// Solves A x = A 1 with the factor of `data` on Space's scheduler (a pool of pool_bytes): x, and
// the statistics of the solve's DAG.
template <class Space>
std::vector<double> dag_solve(const Problem& p, const task_sparse::FactorData<typename Space::memory_space>& data,
                              int grain, std::size_t pool_bytes, Kokkos::Experimental::TaskDagStatistics& statistics) {
  using S = Kokkos::TaskScheduler<Space>;
  return solve_ones<Space>(p, [&](double* x) {
    S sched(typename S::memory_space(), pool_bytes, 64, 1024, pool_bytes < (1 << 16) ? pool_bytes : (1 << 16));
    auto done = task_sparse::spawn_solve(sched, data.factor(), x, grain);
    EXPECT_FALSE(done.is_null()) << "a root's spawn found the pool full";
    Kokkos::wait(sched);
    statistics = Kokkos::Experimental::task_dag_statistics(sched);
    done = {};
    EXPECT_EQ(sched.allocated_task_count(), 0);
  });
}

// The serial substitutions' solution of A x = A 1 with the serial factor: what every solve equals.
std::vector<double> serial_solution(const Problem& p) {
  std::vector<double> l = task_sparse::serial_factor(p), x = task_sparse::times_ones(p.a);
  task_sparse::serial_solve(task_sparse::host_factor(p.a, p.symbolic, l.data()), x.data());
  return x;
}

TYPED_TEST(TaskSparse, TheDagSolvesAsTheSerialSubstitutions) {
  // The forward substitution is the factorisation's DAG; the backward one runs it from the top down.
  for (const Problem& p : dag_problems()) {
    const std::vector<double> serial = serial_solution(p);
    task_sparse::FactorData<typename TypeParam::memory_space> data(p);
    data.factor_by_levels(TypeParam());
    for (const int grain : {0, 4, 100, 1 << 30}) {
      Kokkos::Experimental::TaskDagStatistics statistics;
      const std::vector<double> x = dag_solve<TypeParam>(p, data, grain, 1 << 22, statistics);
      const std::string what = std::to_string(p.a.n) + " columns, grain " + std::to_string(grain);
      expect_same_factor<TypeParam>(x, serial, what);
      EXPECT_LT(max_distance_from_one(x), 1e-12) << what;
      const task_sparse::DagShape shape = task_sparse::dag_shape(p, grain);
      EXPECT_EQ(statistics.tasks_spawned, 2 * shape.tasks) << what;
      EXPECT_EQ(statistics.when_all_aggregates, 2 * shape.when_alls) << what;
      EXPECT_EQ(statistics.respawns, 2 * shape.when_alls) << what;
    }
    // A full pool: subtrees solved in place by their parents, the same x.
    long failures = 0;
    for (std::size_t bytes = 1 << 10; bytes <= 4 << 10; bytes += 512) {
      Kokkos::Experimental::TaskDagStatistics statistics;
      expect_same_factor<TypeParam>(dag_solve<TypeParam>(p, data, 0, bytes, statistics), serial,
                                    std::to_string(bytes) + " bytes");
      failures += statistics.spawn_failures;
    }
    EXPECT_GT(failures, 0);
  }
}

TYPED_TEST(TaskSparse, TheLevelSetLoopsSolveAsTheSerialSubstitutions) {
  // Forward up the levels, backward down them: each column after the ones it reads.
  for (const Problem& p : dag_problems()) {
    const std::vector<double> serial = serial_solution(p);
    task_sparse::FactorData<typename TypeParam::memory_space> data(p);
    data.factor_by_levels(TypeParam());
    const std::vector<double> x = solve_ones<TypeParam>(p, [&](double* b) { data.solve_by_levels(TypeParam(), b); });
    expect_same_factor<TypeParam>(x, serial, std::to_string(p.a.n) + " columns");
    EXPECT_LT(max_distance_from_one(x), 1e-12) << p.a.n << " columns";
  }
  // One point, and no right-hand side.
  const Problem one = task_sparse::make_problem(Grid{1, 1, 1});
  task_sparse::FactorData<typename TypeParam::memory_space> data(one);
  data.factor_by_levels(TypeParam());
  EXPECT_EQ(solve_ones<TypeParam>(one, [&](double* b) { data.solve_by_levels(TypeParam(), b); }),
            std::vector<double>{1.0});
  expect_invalid([&] { data.solve_by_levels(TypeParam(), nullptr); }, "solve_by_levels needs x");
}

TYPED_TEST(TaskSparse, BadGrainsThrowBeforeAnythingIsSpawned) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  const Problem p = task_sparse::make_problem(Grid{4, 4, 1});
  task_sparse::FactorData<typename TypeParam::memory_space> data(p);
  S sched(typename S::memory_space(), 1 << 16, 64, 1024, 1 << 14);
  expect_invalid([&] { task_sparse::spawn_factor(sched, data.factor(), -2); }, "grain = -2; grain >= 0 is needed");
  expect_invalid([&] { task_sparse::spawn_factor(sched, data.factor(), 0, -1); }, "team_chain = -1; team_chain >= 0");
  expect_invalid([&] { task_sparse::spawn_solve(sched, data.factor(), nullptr, -3); }, "grain = -3; grain >= 0");
  expect_invalid([&] { task_sparse::spawn_solve(sched, data.factor(), nullptr, 0); }, "spawn_solve needs x");
  Kokkos::wait(sched);
  EXPECT_EQ(Kokkos::Experimental::task_dag_statistics(sched).tasks_spawned, 0);
  // One point: the root's task factors its one column.
  Kokkos::Experimental::TaskDagStatistics statistics;
  const Problem one = task_sparse::make_problem(Grid{1, 1, 1});
  const std::vector<double> l = dag_factor<TypeParam>(one, 0, 1 << 16, statistics);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_DOUBLE_EQ(l[0], 1);  // sqrt(1): no edges
  EXPECT_EQ(statistics.tasks_spawned, 1);  // the roots' parent's task walks down to the column
}

}  // namespace

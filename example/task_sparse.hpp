#pragma once
// A sparse Cholesky factorisation A = L L^T as a task DAG over its elimination tree: the shape of
// a sparse direct solver (the DAG is the matrix's, irregular, and mostly small tasks).  Shared by
// task_sparse.cpp, TestTaskSparse and the task DAG benchmarks; the tasks are written the portable
// way (KOKKOS_INLINE_FUNCTION, a standard-layout closure, pointers into the scheduler's memory
// space), so the same DAG runs on every scheduler, the GPU's included.
//
// The matrix: the graph of a grid (5-point in 2D, 7-point in 3D) with weights that make it
// symmetric positive definite (grid_matrix), ordered by nested dissection (a separator plane
// last, each half dissected the same way) and then by a postorder of its elimination tree
// (make_problem), stored as its lower triangle by columns (Csc).  analyse() finds L's pattern,
// its rows, the tree's children and each subtree's columns: in a postorder, the subtree of column
// j is the columns first[j] .. j.
//
// Column j is factored left-looking (factor_column): A's column scattered into L's, minus
// L(j, k) times column k for every k < j with L(j, k) != 0, in ascending k, then divided by the
// square root of its diagonal.  Those k are j's descendants in the tree, so a column can be
// factored once its children's subtrees are, and the DAG is the tree: a task per subtree
// (SubtreeTask) walks down from its top column while a column has one child (a chain, as a
// separator makes), spawns a task per child of the chain's lowest column and respawns behind
// when_all of them, then factors the chain.  A subtree of at most `grain` columns is factored in
// place by its task, in ascending order: the grain, set by the caller.  A chain of at least
// `team_chain` columns can go to a TaskTeam task (ChainTask), which splits each column's entries
// over its team's ranks (a warp's lanes on the GPU).  A child whose spawn finds the pool full is factored
// in place by its parent, and a when_all that finds it full makes the
// task wait for its children one at a time, so a full pool costs parallelism, never the answer.
//
// Every column is computed with the same operations in the same order whatever the schedule, so
// the factor equals serial_factor's up to the compiler's contraction of multiply-adds (nvcc
// contracts by default, the host compiler need not).  FactorData::factor_by_levels runs the tree
// the other way, without tasks: a parallel loop per level (level_sets), the columns of a level
// being independent, and a wait between levels.
#include <Kokkos_Core.hpp>
#include <Kokkos_TaskScheduler.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace task_sparse {

// An nx x ny x nz grid; nz = 1 is a 2D grid.  Point (x, y, z) is x + nx (y + ny z) in the natural order.
struct Grid {
  int nx = 1, ny = 1, nz = 1;
  long points() const { return long(nx) * long(ny) * long(nz); }
};

// Throws unless every side is at least 1 and the grid has fewer than 2^31 points.
inline void check_grid(const Grid& g) {
  if (g.nx < 1 || g.ny < 1 || g.nz < 1 || double(g.nx) * double(g.ny) * double(g.nz) >= 2147483648.0)
    throw std::invalid_argument("task_sparse: a grid of " + std::to_string(g.nx) + " x " + std::to_string(g.ny) +
                                " x " + std::to_string(g.nz) +
                                "; sides >= 1 and fewer than 2^31 points are needed");
}

// A symmetric matrix by its lower triangle, by columns: column j's rows (ascending, the diagonal
// first) are row[col_ptr[j] .. col_ptr[j + 1]), their values beside them.
struct Csc {
  int n = 0;
  std::vector<long> col_ptr{0};
  std::vector<int> row;
  std::vector<double> value;

  long nnz() const { return col_ptr.back(); }
};

// The weighted grid Laplacian in the natural order: edge weights -(0.5 + a pseudo-random half),
// fixed by the edge; diagonal 1 plus the magnitudes of the point's edges (strictly diagonally
// dominant, so positive definite).
inline Csc grid_matrix(const Grid& g) {
  check_grid(g);
  const auto weight = [](long i, long j) {  // an edge's weight, from a hash of its ends
    std::uint64_t h = std::uint64_t(i) * 0x9E3779B97F4A7C15ull ^ std::uint64_t(j) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return -(0.5 + 0.5 * double(h >> 11) / double(1ull << 53));
  };
  Csc a;
  a.n = int(g.points());
  std::vector<double> diagonal(a.n, 1);
  std::vector<std::vector<std::pair<int, double>>> below(a.n);  // per column, the rows below the diagonal
  for (int z = 0; z < g.nz; ++z)
    for (int y = 0; y < g.ny; ++y)
      for (int x = 0; x < g.nx; ++x) {
        const long i = x + long(g.nx) * (y + long(g.ny) * z);
        const long neighbour[3] = {x + 1 < g.nx ? i + 1 : -1, y + 1 < g.ny ? i + g.nx : -1,
                                   z + 1 < g.nz ? i + long(g.nx) * g.ny : -1};
        for (long j : neighbour) {
          if (j < 0) continue;
          const double w = weight(i, j);
          below[i].push_back({int(j), w});
          diagonal[i] -= w;
          diagonal[j] -= w;
        }
      }
  for (int j = 0; j < a.n; ++j) {
    a.row.push_back(j);
    a.value.push_back(diagonal[j]);
    std::sort(below[j].begin(), below[j].end());
    for (const auto& [i, w] : below[j]) {
      a.row.push_back(i);
      a.value.push_back(w);
    }
    a.col_ptr.push_back(long(a.row.size()));
  }
  return a;
}

// The nested dissection order of the grid: label[p] is the position of natural point p in it.
// A box is ordered as its half below the middle plane across its longest side, then the half
// above it, then the plane, each half the same way.
inline std::vector<int> nested_dissection(const Grid& g) {
  check_grid(g);
  std::vector<int> label(g.points(), -1);
  int next = 0;
  struct Box {
    int lo[3], hi[3];  // [lo, hi) per dimension
  };
  const auto order = [&](const auto& self, const Box& b) -> void {
    for (int e = 0; e < 3; ++e)
      if (b.hi[e] <= b.lo[e]) return;  // empty
    int d = 0;
    for (int e = 1; e < 3; ++e)
      if (b.hi[e] - b.lo[e] > b.hi[d] - b.lo[d]) d = e;
    const int middle = b.lo[d] + (b.hi[d] - b.lo[d]) / 2;
    Box below = b, above = b, plane = b;
    below.hi[d] = middle;
    above.lo[d] = middle + 1;
    plane.lo[d] = middle;
    plane.hi[d] = middle + 1;
    self(self, below);
    self(self, above);
    for (int z = plane.lo[2]; z < plane.hi[2]; ++z)
      for (int y = plane.lo[1]; y < plane.hi[1]; ++y)
        for (int x = plane.lo[0]; x < plane.hi[0]; ++x) label[x + long(g.nx) * (y + long(g.ny) * z)] = next++;
  };
  order(order, Box{{0, 0, 0}, {g.nx, g.ny, g.nz}});
  return label;
}

// P A P^T, where `label` moves row and column j to label[j] (a permutation of 0 .. n-1; throws otherwise).
inline Csc permute(const Csc& a, const std::vector<int>& label) {
  std::vector<char> seen(a.n, 0);
  bool permutation = int(label.size()) == a.n;
  for (std::size_t j = 0; permutation && j < label.size(); ++j) {
    permutation = label[j] >= 0 && label[j] < a.n && !seen[label[j]];
    if (permutation) seen[label[j]] = 1;
  }
  if (!permutation)
    throw std::invalid_argument("task_sparse: permute needs a permutation of 0 .. " + std::to_string(a.n - 1) +
                                " (" + std::to_string(label.size()) + " labels given)");
  std::vector<std::vector<std::pair<int, double>>> column(a.n);
  for (int j = 0; j < a.n; ++j)
    for (long p = a.col_ptr[j]; p < a.col_ptr[j + 1]; ++p) {
      const int i = label[a.row[p]], k = label[j];
      column[std::min(i, k)].push_back({std::max(i, k), a.value[p]});
    }
  Csc b;
  b.n = a.n;
  for (auto& c : column) {
    std::sort(c.begin(), c.end());
    for (const auto& [i, v] : c) {
      b.row.push_back(i);
      b.value.push_back(v);
    }
    b.col_ptr.push_back(long(b.row.size()));
  }
  return b;
}

// The elimination tree of a (its lower triangle's pattern): parent[j] > j, or -1 for a root.
inline std::vector<int> elimination_tree(const Csc& a) {
  // The rows of the strict lower triangle: for row i, the columns k < i with A(i, k) != 0.
  std::vector<long> row_ptr(a.n + 1, 0);
  for (long p = 0; p < a.nnz(); ++p) ++row_ptr[a.row[p] + 1];
  for (int i = 0; i < a.n; ++i) row_ptr[i + 1] += row_ptr[i];
  std::vector<int> row_col(a.nnz());
  std::vector<long> fill(row_ptr.begin(), row_ptr.end() - 1);
  for (int k = 0; k < a.n; ++k)
    for (long p = a.col_ptr[k]; p < a.col_ptr[k + 1]; ++p) row_col[fill[a.row[p]]++] = k;
  std::vector<int> parent(a.n, -1), ancestor(a.n, -1);
  for (int i = 0; i < a.n; ++i)
    for (long p = row_ptr[i]; p < row_ptr[i + 1]; ++p) {
      // Liu's algorithm: climb from k to the root of its current subtree, pointing the path at i.
      for (int r = row_col[p]; r != i && r >= 0;) {
        const int up = ancestor[r];
        ancestor[r] = i;
        if (up < 0) parent[r] = i;
        r = up;
      }
    }
  return parent;
}

// A postorder of the forest `parent`: label[j] is j's position in it, children in ascending order.
inline std::vector<int> postorder(const std::vector<int>& parent) {
  const int n = int(parent.size());
  std::vector<int> head(n + 1, -1), next(n, -1);  // children lists; node n: the roots
  for (int j = n - 1; j >= 0; --j) {
    const int p = parent[j] < 0 ? n : parent[j];
    next[j] = head[p];
    head[p] = j;
  }
  std::vector<int> label(n), stack{n};
  int position = 0;
  while (!stack.empty()) {
    const int j = stack.back();
    if (head[j] >= 0) {  // descend into the next child
      const int c = head[j];
      head[j] = next[c];
      stack.push_back(c);
    } else {
      stack.pop_back();
      if (j < n) label[j] = position++;
    }
  }
  return label;
}

// What the factorisation needs besides A: L's pattern and rows, and the elimination tree's
// children and subtrees.  Node n stands for the tree's roots' common parent.
struct Symbolic {
  int n = 0;
  std::vector<int> parent;        // the elimination tree; -1 for a root
  std::vector<int> first;         // first[j]: the lowest column of j's subtree (n + 1 entries; first[n] = 0)
  std::vector<int> child_ptr{0};  // the children of node j: child[child_ptr[j] .. child_ptr[j + 1]), ascending
  std::vector<int> child;
  std::vector<long> col_ptr{0};   // L's pattern by columns: rows ascending, the diagonal first
  std::vector<int> row;
  std::vector<long> row_ptr{0};   // L's strict lower triangle by rows: for row j, the columns
  std::vector<int> row_col;       // k < j with L(j, k) != 0 (ascending) and where L(j, k) is
  std::vector<long> row_pos;      // stored (an index into row and into the factor's values)

  long nnz() const { return col_ptr.back(); }
  // The factorisation's floating-point operations: a column of c entries costs c^2
  // (c(c - 1) for the multiply-adds of its updates of later columns, c - 1 divisions, a root).
  double flops() const {
    double sum = 0;
    for (int j = 0; j < n; ++j) sum += double(col_ptr[j + 1] - col_ptr[j]) * double(col_ptr[j + 1] - col_ptr[j]);
    return sum;
  }
};

// Analyses a matrix whose elimination tree is postordered (make_problem's are); throws
// std::invalid_argument for another, or for a pattern without its diagonal.
inline Symbolic analyse(const Csc& a) {
  Symbolic s;
  s.n = a.n;
  for (int j = 0; j < a.n; ++j)
    if (a.col_ptr[j] == a.col_ptr[j + 1] || a.row[a.col_ptr[j]] != j)
      throw std::invalid_argument("task_sparse: column " + std::to_string(j) +
                                  " has no diagonal entry first; a positive definite matrix needs one");
  s.parent = elimination_tree(a);
  std::vector<int> size(a.n + 1, 1);
  for (int j = 0; j < a.n; ++j) size[s.parent[j] < 0 ? a.n : s.parent[j]] += size[j];
  s.first.resize(a.n + 1);
  for (int j = 0; j <= a.n; ++j) s.first[j] = j - size[j] + 1;
  s.child_ptr.assign(a.n + 2, 0);
  for (int j = 0; j < a.n; ++j) ++s.child_ptr[(s.parent[j] < 0 ? a.n : s.parent[j]) + 1];
  for (int j = 0; j <= a.n; ++j) s.child_ptr[j + 1] += s.child_ptr[j];
  s.child.resize(a.n);
  std::vector<int> fill(s.child_ptr.begin(), s.child_ptr.end() - 1);
  for (int j = 0; j < a.n; ++j) s.child[fill[s.parent[j] < 0 ? a.n : s.parent[j]]++] = j;
  // In a postorder, a node's subtree is the columns right below it: its last child's subtree
  // ends just below it, and each other child's just below the next child's.
  for (int j = 0; j <= a.n; ++j) {
    int below = j - 1;
    for (int c = s.child_ptr[j + 1] - 1; c >= s.child_ptr[j]; --c) {
      if (s.child[c] != below)
        throw std::invalid_argument("task_sparse: the elimination tree is not postordered (column " +
                                    std::to_string(s.child[c]) + "'s subtree is not right below its parent's " +
                                    "next); permute by postorder(elimination_tree(a)) first");
      below = s.first[s.child[c]] - 1;
    }
  }
  // L's column j: j, A's rows below it, and the rows below j of its children's columns.
  std::vector<std::vector<int>> column(a.n);
  for (int j = 0; j < a.n; ++j) {
    std::vector<int> rows(a.row.begin() + a.col_ptr[j], a.row.begin() + a.col_ptr[j + 1]);
    for (int c = s.child_ptr[j]; c < s.child_ptr[j + 1]; ++c) {
      std::vector<int> merged;
      const std::vector<int>& below = column[s.child[c]];
      std::set_union(rows.begin(), rows.end(), below.begin() + 1, below.end(), std::back_inserter(merged));
      rows.swap(merged);
    }
    s.row.insert(s.row.end(), rows.begin(), rows.end());
    s.col_ptr.push_back(long(s.row.size()));
    column[j].swap(rows);
    for (int c = s.child_ptr[j]; c < s.child_ptr[j + 1]; ++c) std::vector<int>().swap(column[s.child[c]]);  // merged
  }
  s.row_ptr.assign(a.n + 1, 0);
  for (long q = 0; q < s.nnz(); ++q) ++s.row_ptr[s.row[q] + 1];
  for (int j = 0; j < a.n; ++j) s.row_ptr[j + 1] += s.row_ptr[j] - 1;  // less the diagonal
  s.row_col.resize(s.row_ptr[a.n]);
  s.row_pos.resize(s.row_ptr[a.n]);
  std::vector<long> next(s.row_ptr.begin(), s.row_ptr.end() - 1);
  for (int k = 0; k < a.n; ++k)
    for (long q = s.col_ptr[k] + 1; q < s.col_ptr[k + 1]; ++q) {
      s.row_col[next[s.row[q]]] = k;
      s.row_pos[next[s.row[q]]++] = q;
    }
  return s;
}

// The columns of each level of the elimination tree (a leaf's level is 0, a parent's one more
// than its highest child's): level l is column[level_ptr[l] .. level_ptr[l + 1]), ascending;
// the columns of a level depend on none of each other, only on lower levels.
struct LevelSets {
  std::vector<int> level_ptr{0};
  std::vector<int> column;
  int levels() const { return int(level_ptr.size()) - 1; }
};
inline LevelSets level_sets(const Symbolic& s) {
  std::vector<int> level(s.n, 0);
  int top = -1;
  for (int j = 0; j < s.n; ++j) {
    if (s.parent[j] >= 0) level[s.parent[j]] = std::max(level[s.parent[j]], level[j] + 1);
    top = std::max(top, level[j]);
  }
  LevelSets sets;
  sets.level_ptr.assign(top + 2, 0);
  for (int j = 0; j < s.n; ++j) ++sets.level_ptr[level[j] + 1];
  for (int l = 0; l <= top; ++l) sets.level_ptr[l + 1] += sets.level_ptr[l];
  sets.column.resize(s.n);
  std::vector<int> next(sets.level_ptr.begin(), sets.level_ptr.end() - 1);
  for (int j = 0; j < s.n; ++j) sets.column[next[level[j]]++] = j;
  return sets;
}

// A grid's matrix, ordered by nested dissection and postordered, and its analysis.
struct Problem {
  Grid grid;
  Csc a;
  Symbolic symbolic;
};
inline Problem make_problem(const Grid& g) {
  const Csc dissected = permute(grid_matrix(g), nested_dissection(g));
  Problem p;
  p.grid = g;
  p.a = permute(dissected, postorder(elimination_tree(dissected)));
  p.symbolic = analyse(p.a);
  return p;
}

// ---- the numeric factorisation, on pointers into memory its tasks can reach ----------------------
struct Factor {
  int n = 0;
  const long* a_col_ptr = nullptr;  // A, as Csc
  const int* a_row = nullptr;
  const double* a_value = nullptr;
  const long* col_ptr = nullptr;  // L, as Symbolic
  const int* row = nullptr;
  double* value = nullptr;  // L's values, beside row
  const long* row_ptr = nullptr;
  const int* row_col = nullptr;
  const long* row_pos = nullptr;
  const int* first = nullptr;
  const int* child_ptr = nullptr;
  const int* child = nullptr;
  int* failed = nullptr;  // where not null: lowered to each column whose pivot is not positive
};

// Records that column j's pivot is not positive (A is not positive definite; the column, and the
// columns that read it, become NaN).  The lowest such column does not depend on the schedule.
KOKKOS_INLINE_FUNCTION void check_pivot(const Factor& f, int j, double pivot) {
  if (!(pivot > 0) && f.failed != nullptr) Kokkos::atomic_min(f.failed, j);
}

// Factors column j, left-looking; the columns it reads (its row's in L) must be factored.
KOKKOS_INLINE_FUNCTION void factor_column(const Factor& f, int j) {
  const long begin = f.col_ptr[j], end = f.col_ptr[j + 1];
  for (long t = begin; t < end; ++t) f.value[t] = 0;
  long t = begin;  // A's rows are a subset of L's: walk both in ascending order
  for (long p = f.a_col_ptr[j]; p < f.a_col_ptr[j + 1]; ++p) {
    while (f.row[t] != f.a_row[p]) ++t;
    f.value[t] = f.a_value[p];
  }
  for (long r = f.row_ptr[j]; r < f.row_ptr[j + 1]; ++r) {
    const int k = f.row_col[r];
    const long p = f.row_pos[r];  // L(j, k); below it, column k's rows are a subset of column j's
    const double ljk = f.value[p];
    t = begin;
    for (long s = p; s < f.col_ptr[k + 1]; ++s) {
      while (f.row[t] != f.row[s]) ++t;
      f.value[t] -= f.value[s] * ljk;
    }
  }
  check_pivot(f, j, f.value[begin]);
  const double diagonal = Kokkos::sqrt(f.value[begin]);  // NaN where A is not positive definite
  f.value[begin] = diagonal;
  for (t = begin + 1; t < end; ++t) f.value[t] /= diagonal;
}

// Factors columns begin .. end - 1 in ascending order (a subtree, or a chain, whose descendants are).
KOKKOS_INLINE_FUNCTION void factor_columns(const Factor& f, int begin, int end) {
  for (int j = begin; j < end; ++j) factor_column(f, j);
}

// The first position in row[begin .. end) (ascending) whose row is at least i; end if none.
KOKKOS_INLINE_FUNCTION long first_row_at_least(const Factor& f, long begin, long end, int i) {
  while (begin < end) {
    const long middle = begin + (end - begin) / 2;
    if (f.row[middle] < i)
      begin = middle + 1;
    else
      end = middle;
  }
  return begin;
}

// factor_column on a team: each rank takes a slice of the column's entries and applies every
// update to its slice (column k's rows in the slice's range, found by a binary search), so no
// two ranks write one entry and the updates need no barrier between them.  Each entry sees the
// same operations in the same order as in factor_column, so the two give the same column.
template <class Member>
KOKKOS_INLINE_FUNCTION void factor_column(const Member& member, const Factor& f, int j) {
  const long begin = f.col_ptr[j], end = f.col_ptr[j + 1];
  const long ranks = member.team_size(), rank = member.team_rank();
  const long first = begin + (end - begin) * rank / ranks, last = begin + (end - begin) * (rank + 1) / ranks;
  if (first < last) {
    const int low = f.row[first], high = f.row[last - 1];
    for (long t = first; t < last; ++t) f.value[t] = 0;
    long t = first;
    for (long p = f.a_col_ptr[j]; p < f.a_col_ptr[j + 1]; ++p) {
      if (f.a_row[p] < low || f.a_row[p] > high) continue;
      while (f.row[t] != f.a_row[p]) ++t;
      f.value[t] = f.a_value[p];
    }
    for (long r = f.row_ptr[j]; r < f.row_ptr[j + 1]; ++r) {
      const long p = f.row_pos[r], k_end = f.col_ptr[f.row_col[r] + 1];
      const double ljk = f.value[p];
      t = first;
      for (long s = first_row_at_least(f, p, k_end, low); s < k_end && f.row[s] <= high; ++s) {
        while (f.row[t] != f.row[s]) ++t;
        f.value[t] -= f.value[s] * ljk;
      }
    }
  }
  member.team_barrier();  // every slice updated, the diagonal among them
  if (rank == 0) check_pivot(f, j, f.value[begin]);
  const double diagonal = Kokkos::sqrt(f.value[begin]);
  member.team_barrier();  // every rank has read the diagonal before one overwrites it
  for (long t = first; t < last; ++t) f.value[t] = t == begin ? diagonal : f.value[t] / diagonal;
  member.team_barrier();  // the column is L's before any rank reads it
}

// A Factor over host vectors.
inline Factor host_factor(const Csc& a, const Symbolic& s, std::vector<double>& value, int* failed = nullptr) {
  value.assign(s.nnz(), 0);
  return Factor{a.n,           a.col_ptr.data(), a.row.data(),      a.value.data(),   s.col_ptr.data(),
                s.row.data(),  value.data(),     s.row_ptr.data(),  s.row_col.data(), s.row_pos.data(),
                s.first.data(), s.child_ptr.data(), s.child.data(),  failed};
}

// L's values, factored serially: the reference every DAG's factor equals.  Where failed_column is
// not null it receives the lowest column whose pivot was not positive, or n where none was.
inline std::vector<double> serial_factor(const Problem& p, int* failed_column = nullptr) {
  std::vector<double> value;
  int failed = p.a.n;
  factor_columns(host_factor(p.a, p.symbolic, value, &failed), 0, p.a.n);
  if (failed_column != nullptr) *failed_column = failed;
  return value;
}

// Factors column[i] for each index i of a parallel loop: a level of the tree, whose columns are independent.
struct LevelColumns {
  Factor f;
  const int* column;
  KOKKOS_INLINE_FUNCTION void operator()(int i) const { factor_column(f, column[i]); }
};

// The arrays of a Factor in MemorySpace (copies of a problem's), for the tasks of a scheduler there.
template <class MemorySpace>
class FactorData {
 public:
  explicit FactorData(const Problem& p)
      : m_n(p.a.n),
        m_a_col_ptr(copy(p.a.col_ptr)),
        m_a_row(copy(p.a.row)),
        m_a_value(copy(p.a.value)),
        m_col_ptr(copy(p.symbolic.col_ptr)),
        m_row(copy(p.symbolic.row)),
        m_value("task_sparse L", std::size_t(p.symbolic.nnz())),
        m_row_ptr(copy(p.symbolic.row_ptr)),
        m_row_col(copy(p.symbolic.row_col)),
        m_row_pos(copy(p.symbolic.row_pos)),
        m_first(copy(p.symbolic.first)),
        m_child_ptr(copy(p.symbolic.child_ptr)),
        m_child(copy(p.symbolic.child)),
        m_levels(level_sets(p.symbolic)),
        m_level_column(copy(m_levels.column)),
        m_failed("task_sparse failed column") {}

  Factor factor() const {
    return Factor{m_n,           m_a_col_ptr.data(), m_a_row.data(),     m_a_value.data(), m_col_ptr.data(),
                  m_row.data(),  m_value.data(),     m_row_ptr.data(),   m_row_col.data(), m_row_pos.data(),
                  m_first.data(), m_child_ptr.data(), m_child.data(),    m_failed.data()};
  }
  // The lowest column whose pivot was not positive in the last factorisation (spawn_factor's,
  // after wait, or factor_by_levels'), or n where none was: A is positive definite (to rounding).
  int failed_column() const {
    int failed = 0;
    Kokkos::deep_copy(failed, m_failed);
    return failed;
  }
  // Factors the columns a level at a time, a parallel loop per level on `space` (the other way to
  // run the tree: no tasks, but a wait at every level), and waits for it.
  template <class ExecutionSpace>
  void factor_by_levels(const ExecutionSpace& space) const {
    Kokkos::deep_copy(space, m_failed, m_n);
    const LevelColumns columns{factor(), m_level_column.data()};
    for (int l = 0; l < m_levels.levels(); ++l)
      Kokkos::parallel_for("task_sparse level",
                           Kokkos::RangePolicy<ExecutionSpace>(space, m_levels.level_ptr[l], m_levels.level_ptr[l + 1]),
                           columns);
    space.fence("task_sparse::FactorData::factor_by_levels");
  }
  const LevelSets& levels() const { return m_levels; }

  // L's values, copied to the host.
  std::vector<double> values() const {
    std::vector<double> v(m_value.extent(0));
    Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()), m_value);
    return v;
  }

 private:
  template <class T>
  static Kokkos::View<T*, MemorySpace> copy(const std::vector<T>& v) {
    Kokkos::View<T*, MemorySpace> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "task_sparse"), v.size());
    Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
    return d;
  }
  int m_n;
  Kokkos::View<long*, MemorySpace> m_a_col_ptr;
  Kokkos::View<int*, MemorySpace> m_a_row;
  Kokkos::View<double*, MemorySpace> m_a_value;
  Kokkos::View<long*, MemorySpace> m_col_ptr;
  Kokkos::View<int*, MemorySpace> m_row;
  Kokkos::View<double*, MemorySpace> m_value;
  Kokkos::View<long*, MemorySpace> m_row_ptr;
  Kokkos::View<int*, MemorySpace> m_row_col;
  Kokkos::View<long*, MemorySpace> m_row_pos;
  Kokkos::View<int*, MemorySpace> m_first;
  Kokkos::View<int*, MemorySpace> m_child_ptr;
  Kokkos::View<int*, MemorySpace> m_child;
  LevelSets m_levels;
  Kokkos::View<int*, MemorySpace> m_level_column;
  Kokkos::View<int, MemorySpace> m_failed;
};

// How much of the solution of A x = b, b = A 1, the factor gets wrong: max |x_i - 1| after the
// forward and backward substitutions with L.  About n times the rounding for a good factor; NaN
// for a factor with a NaN.
inline double solve_error(const Problem& p, const std::vector<double>& l) {
  const Csc& a = p.a;
  const Symbolic& s = p.symbolic;
  std::vector<double> x(a.n, 0);
  for (int j = 0; j < a.n; ++j)  // b = A 1, from the lower triangle and its mirror
    for (long q = a.col_ptr[j]; q < a.col_ptr[j + 1]; ++q) {
      x[a.row[q]] += a.value[q];
      if (a.row[q] != j) x[j] += a.value[q];
    }
  for (int j = 0; j < a.n; ++j) {  // L y = b
    x[j] /= l[s.col_ptr[j]];
    for (long q = s.col_ptr[j] + 1; q < s.col_ptr[j + 1]; ++q) x[s.row[q]] -= l[q] * x[j];
  }
  for (int j = a.n - 1; j >= 0; --j) {  // L^T x = y
    for (long q = s.col_ptr[j] + 1; q < s.col_ptr[j + 1]; ++q) x[j] -= l[q] * x[s.row[q]];
    x[j] /= l[s.col_ptr[j]];
  }
  double error = 0;
  for (double v : x) error = std::isnan(v) || std::isnan(error) ? std::nan("") : std::max(error, std::fabs(v - 1));
  return error;
}

// ---- the task DAG ---------------------------------------------------------------------------------
// The futures a task holds at once: a column with more children spawns them in batches.
constexpr int max_children = 8;

// The lowest column of the chain that starts at `top` (node n: the roots' parent): down while a
// column has exactly one child.
KOKKOS_INLINE_FUNCTION int chain_bottom(const int* child_ptr, const int* child, int top) {
  int bottom = top;
  while (child_ptr[bottom + 1] - child_ptr[bottom] == 1) bottom = child[child_ptr[bottom]];
  return bottom;
}

// Throws unless grain >= 0 and team_chain >= 0.
inline void check_grain(int grain, int team_chain = 0) {
  if (grain < 0)
    throw std::invalid_argument("task_sparse: grain = " + std::to_string(grain) + "; grain >= 0 is needed");
  if (team_chain < 0)
    throw std::invalid_argument("task_sparse: team_chain = " + std::to_string(team_chain) +
                                "; team_chain >= 0 is needed (0: no team tasks)");
}

// The DAG that SubtreeTasks make for a problem with a given grain and team_chain (all spawns succeeding).
struct DagShape {
  long tasks = 0;        // SubtreeTasks spawned: the root's, and one per child of a spawning chain
  long when_alls = 0;    // one per batch of at most max_children children
  long chains = 0;       // tasks that spawn (their subtree above the grain, with children below the chain)
  long team_tasks = 0;   // ChainTasks: chains above the grain of at least team_chain columns
  int critical_path = 0; // the most SubtreeTasks on a path from the root to a leaf
};
inline DagShape dag_shape(const Problem& p, int grain, int team_chain = 0) {
  check_grain(grain, team_chain);
  const Symbolic& s = p.symbolic;
  DagShape shape;
  struct Pending {
    int top, depth;
  };
  std::vector<Pending> stack{{s.n, 1}};
  shape.tasks = 1;
  while (!stack.empty()) {
    const auto [top, depth] = stack.back();
    stack.pop_back();
    shape.critical_path = std::max(shape.critical_path, depth);
    if (top - s.first[top] + 1 <= grain) continue;
    const int bottom = chain_bottom(s.child_ptr.data(), s.child.data(), top);
    const int length = std::min(top, s.n - 1) - bottom + 1;
    if (team_chain > 0 && length >= team_chain) ++shape.team_tasks;
    const int children = s.child_ptr[bottom + 1] - s.child_ptr[bottom];
    if (children == 0) continue;
    ++shape.chains;
    shape.tasks += children;
    shape.when_alls += (children + max_children - 1) / max_children;
    for (int c = s.child_ptr[bottom]; c < s.child_ptr[bottom + 1]; ++c) stack.push_back({s.child[c], depth + 1});
  }
  return shape;
}

// A TaskTeam task that factors columns begin .. end - 1 (a chain whose descendants are factored)
// on its team.
template <class Scheduler>
struct ChainTask {
  using value_type = void;
  Factor f;
  int begin = 0, end = 0;

  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type& member) const {
    for (int j = begin; j < end; ++j) factor_column(member, f, j);
  }
};

// The task of the subtree below column `top` (node n: the whole tree); its future is ready once
// every column of it is factored.  A chain of at least team_chain columns (team_chain > 0) is
// factored by a ChainTask that it spawns once its children are complete (by itself where the
// pool is full).
template <class Scheduler>
struct SubtreeTask {
  using value_type = void;
  using future_type = Kokkos::BasicFuture<void, Scheduler>;
  using member_type = typename Scheduler::member_type;

  Scheduler sched;
  Factor f;
  int top = 0;
  int grain = 0;
  int team_chain = 0;
  int bottom = -1;      // the chain's lowest column, once the task has spawned
  int next_child = 0;   // the first of the bottom's children (an index into f.child) not spawned yet
  bool chain_spawned = false;
  future_type child_task[max_children];  // the current batch's; null where a spawn failed

  SubtreeTask() = default;
  KOKKOS_INLINE_FUNCTION SubtreeTask(const Scheduler& s, const Factor& factor, int top_column, int grain_columns,
                                     int team_chain_columns)
      : sched(s), f(factor), top(top_column), grain(grain_columns), team_chain(team_chain_columns) {}

  KOKKOS_INLINE_FUNCTION void operator()(member_type&) {
    const int last = top < f.n ? top : f.n - 1;  // the root's parent factors nothing itself
    if (chain_spawned) return;                   // the ChainTask is complete
    if (bottom < 0) {
      if (top == f.n && f.failed != nullptr) *f.failed = f.n;  // the root's task, before any column
      if (top - f.first[top] + 1 <= grain) {
        factor_columns(f, f.first[top], last + 1);
        return;
      }
      bottom = chain_bottom(f.child_ptr, f.child, top);
      next_child = f.child_ptr[bottom];
    } else if (!batch_complete()) {
      return;
    }
    while (next_child < f.child_ptr[bottom + 1]) {
      int spawned = 0;
      for (; next_child < f.child_ptr[bottom + 1] && spawned < max_children; ++next_child) {
        const int c = f.child[next_child];
        future_type child =
            Kokkos::task_spawn(Kokkos::TaskSingle(sched), SubtreeTask(sched, f, c, grain, team_chain));
        if (child.is_null())
          factor_columns(f, f.first[c], c + 1);
        else
          child_task[spawned++] = child;
      }
      if (spawned > 0) {
        auto all = Kokkos::when_all(child_task, spawned);  // null where the pool is full
        if (!all.is_null()) {
          Kokkos::respawn(this, all);
          return;
        }
        if (!batch_complete()) return;
      }
    }
    if (team_chain > 0 && last - bottom + 1 >= team_chain) {
      auto chain = Kokkos::task_spawn(Kokkos::TaskTeam(sched), ChainTask<Scheduler>{f, bottom, last + 1});
      if (!chain.is_null()) {
        chain_spawned = true;
        Kokkos::respawn(this, chain);
        return;
      }
    }
    factor_columns(f, bottom, last + 1);
  }

  // Whether every child of the batch is complete (their futures dropped then); otherwise
  // respawns behind the first that is not (no allocation, so a full pool cannot stop it).
  KOKKOS_INLINE_FUNCTION bool batch_complete() {
    for (int i = 0; i < max_children; ++i) {
      if (child_task[i].is_null()) continue;
      if (!child_task[i].is_ready()) {
        Kokkos::respawn(this, child_task[i]);
        return false;
      }
      child_task[i] = future_type();
    }
    return true;
  }
};

// Spawns the factorisation of f from the host: its future is ready after wait(sched), L's
// values in f.value then, and in *f.failed (where not null) the lowest column whose pivot was not
// positive, or n.  Subtrees of at most `grain` columns are factored in place, chains of at
// least `team_chain` columns by a TaskTeam task (0: none).  Null where the pool is full.  Throws
// std::invalid_argument for a negative grain or team_chain.
template <class Scheduler>
Kokkos::BasicFuture<void, Scheduler> spawn_factor(const Scheduler& sched, const Factor& f, int grain,
                                                  int team_chain = 0) {
  check_grain(grain, team_chain);
  return Kokkos::host_spawn(Kokkos::TaskSingle(sched), SubtreeTask<Scheduler>(sched, f, f.n, grain, team_chain));
}

}  // namespace task_sparse

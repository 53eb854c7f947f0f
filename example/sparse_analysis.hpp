#pragma once
// The sparse matrices of task_sparse.hpp and their analysis, on the host: a grid's weighted
// Laplacian (grid_matrix), ordered by nested dissection (a separator plane last, each half
// dissected the same way) and then by a postorder of its elimination tree (make_problem), stored
// as its lower triangle by columns (Csc).  analyse() finds what the numeric factorisation needs:
// L's pattern and rows, the tree's children and each subtree's columns (in a postorder, the
// subtree of column j is the columns first[j] .. j), and level_sets() the tree's levels.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
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

// A 1: the row sums of the symmetric matrix, from its lower triangle and the mirror.
inline std::vector<double> times_ones(const Csc& a) {
  std::vector<double> b(a.n, 0);
  for (int j = 0; j < a.n; ++j)
    for (long q = a.col_ptr[j]; q < a.col_ptr[j + 1]; ++q) {
      b[a.row[q]] += a.value[q];
      if (a.row[q] != j) b[j] += a.value[q];
    }
  return b;
}

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
  // Visits every point i in the natural order with its neighbours j > i, ascending.
  const auto for_each_point = [&](const auto& visit) {
    for (int z = 0; z < g.nz; ++z)
      for (int y = 0; y < g.ny; ++y)
        for (int x = 0; x < g.nx; ++x) {
          const long i = x + long(g.nx) * (y + long(g.ny) * z);
          const long neighbour[3] = {x + 1 < g.nx ? i + 1 : -1, y + 1 < g.ny ? i + g.nx : -1,
                                     z + 1 < g.nz ? i + long(g.nx) * g.ny : -1};
          visit(i, neighbour);
        }
  };
  Csc a;
  a.n = int(g.points());
  std::vector<double> diagonal(a.n, 1);
  for_each_point([&](long i, const long(&neighbour)[3]) {
    for (long j : neighbour)
      if (j >= 0) {
        diagonal[i] -= weight(i, j);
        diagonal[j] -= weight(i, j);
      }
  });
  a.col_ptr.reserve(std::size_t(a.n) + 1);
  a.row.reserve(std::size_t(a.n) * 4);
  a.value.reserve(std::size_t(a.n) * 4);
  for_each_point([&](long i, const long(&neighbour)[3]) {
    a.row.push_back(int(i));
    a.value.push_back(diagonal[i]);
    for (long j : neighbour)
      if (j >= 0) {
        a.row.push_back(int(j));
        a.value.push_back(weight(i, j));
      }
    a.col_ptr.push_back(long(a.row.size()));
  });
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
  // Entry (i, j) goes to column min(label[i], label[j]): count them, place them, sort each column.
  Csc b;
  b.n = a.n;
  b.col_ptr.assign(std::size_t(a.n) + 1, 0);
  for (int j = 0; j < a.n; ++j)
    for (long p = a.col_ptr[j]; p < a.col_ptr[j + 1]; ++p) ++b.col_ptr[std::min(label[a.row[p]], label[j]) + 1];
  for (int j = 0; j < a.n; ++j) b.col_ptr[j + 1] += b.col_ptr[j];
  b.row.resize(std::size_t(a.nnz()));
  b.value.resize(std::size_t(a.nnz()));
  std::vector<long> next(b.col_ptr.begin(), b.col_ptr.end() - 1);
  for (int j = 0; j < a.n; ++j)
    for (long p = a.col_ptr[j]; p < a.col_ptr[j + 1]; ++p) {
      const int i = label[a.row[p]], k = label[j];
      const long q = next[std::min(i, k)]++;
      b.row[q] = std::max(i, k);
      b.value[q] = a.value[p];
    }
  std::vector<std::pair<int, double>> column;
  for (int j = 0; j < b.n; ++j) {
    column.clear();
    for (long q = b.col_ptr[j]; q < b.col_ptr[j + 1]; ++q) column.push_back({b.row[q], b.value[q]});
    std::sort(column.begin(), column.end());
    for (std::size_t e = 0; e < column.size(); ++e) {
      b.row[b.col_ptr[j] + long(e)] = column[e].first;
      b.value[b.col_ptr[j] + long(e)] = column[e].second;
    }
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
  // L's column j: A's rows (j first) and the rows below its children's diagonals, each once
  // (marked with j), ascending.  The children's columns are L's already.
  std::vector<int> mark(a.n, -1), rows;
  s.col_ptr.reserve(std::size_t(a.n) + 1);
  for (int j = 0; j < a.n; ++j) {
    rows.clear();
    for (long p = a.col_ptr[j]; p < a.col_ptr[j + 1]; ++p) {
      mark[a.row[p]] = j;
      rows.push_back(a.row[p]);
    }
    for (int c = s.child_ptr[j]; c < s.child_ptr[j + 1]; ++c)
      for (long q = s.col_ptr[s.child[c]] + 1; q < s.col_ptr[s.child[c] + 1]; ++q)
        if (mark[s.row[q]] != j) {
          mark[s.row[q]] = j;
          rows.push_back(s.row[q]);
        }
    std::sort(rows.begin(), rows.end());
    s.row.insert(s.row.end(), rows.begin(), rows.end());
    s.col_ptr.push_back(long(s.row.size()));
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

}  // namespace task_sparse

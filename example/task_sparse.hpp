#pragma once
// A sparse Cholesky factorisation A = L L^T as a task DAG over its elimination tree: the shape of
// a sparse direct solver (the DAG is the matrix's, irregular, and mostly small tasks).  Shared by
// task_sparse.cpp, TestTaskSparse and the task DAG benchmarks; the tasks are written the portable
// way (KOKKOS_INLINE_FUNCTION, a standard-layout closure, pointers into the scheduler's memory
// space), so the same DAG runs on every scheduler, the GPU's included.  The matrix and its
// analysis (L's pattern, the elimination tree): sparse_analysis.hpp.
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
// over its team's ranks (a warp's lanes on the GPU).  A child whose spawn finds the pool full is
// factored in place by its parent, and a when_all that finds it full makes the task wait for its
// children one at a time, so a full pool costs parallelism, never the answer.
//
// Every column is computed with the same operations in the same order whatever the schedule, so
// the factor equals serial_factor's up to the compiler's contraction of multiply-adds (nvcc
// contracts by default, the host compiler need not).  FactorData::factor_by_levels runs the tree
// the other way, without tasks: a parallel loop per level (level_sets), the columns of a level
// being independent, and a wait between levels; FactorData::solve_by_levels solves with the
// factor that way, as spawn_solve does with tasks.
#include "sparse_analysis.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_TaskScheduler.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace task_sparse {

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
inline Factor host_factor(const Csc& a, const Symbolic& s, double* value, int* failed = nullptr) {
  return Factor{a.n,           a.col_ptr.data(), a.row.data(),      a.value.data(),   s.col_ptr.data(),
                s.row.data(),  value,            s.row_ptr.data(),  s.row_col.data(), s.row_pos.data(),
                s.first.data(), s.child_ptr.data(), s.child.data(),  failed};
}
// The same over `value`, sized to L's entries and zeroed.
inline Factor host_factor(const Csc& a, const Symbolic& s, std::vector<double>& value, int* failed = nullptr) {
  value.assign(s.nnz(), 0);
  return host_factor(a, s, value.data(), failed);
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

// ---- the solve L L^T x = b, over the same tree ---------------------------------------------------
// Row j of L y = b: y_j = (b_j - sum of L(j, k) y_k over row j's k, ascending) / L(j, j), in x; it
// needs j's descendants, as column j's factorisation does.
KOKKOS_INLINE_FUNCTION void forward_column(const Factor& f, double* x, int j) {
  double sum = x[j];
  for (long r = f.row_ptr[j]; r < f.row_ptr[j + 1]; ++r) sum -= f.value[f.row_pos[r]] * x[f.row_col[r]];
  x[j] = sum / f.value[f.col_ptr[j]];
}
// Row j of L^T x = y: x_j = (y_j - sum of L(i, j) x_i over column j's rows i > j, ascending) / L(j, j);
// it needs j's ancestors, so the tree runs from the top down.
KOKKOS_INLINE_FUNCTION void backward_column(const Factor& f, double* x, int j) {
  double sum = x[j];
  for (long q = f.col_ptr[j] + 1; q < f.col_ptr[j + 1]; ++q) sum -= f.value[q] * x[f.row[q]];
  x[j] = sum / f.value[f.col_ptr[j]];
}

// What a SubtreeTask does to each column of its subtree: the factorisation, or a substitution.
enum class Sweep : int { factor, forward, backward };

// Column j of a sweep (x: the substitutions' vector).
KOKKOS_INLINE_FUNCTION void sweep_column(const Factor& f, Sweep sweep, double* x, int j) {
  if (sweep == Sweep::factor) {
    factor_column(f, j);
  } else if (sweep == Sweep::forward) {
    forward_column(f, x, j);
  } else {
    backward_column(f, x, j);
  }
}

// Columns begin .. end - 1 of a sweep, in its order: ascending, but descending for the backward one.
KOKKOS_INLINE_FUNCTION void sweep_columns(const Factor& f, Sweep sweep, double* x, int begin, int end) {
  if (sweep == Sweep::backward) {
    for (int j = end - 1; j >= begin; --j) backward_column(f, x, j);
  } else {
    for (int j = begin; j < end; ++j) sweep_column(f, sweep, x, j);
  }
}

// Solves L L^T x = b serially: x holds b, then the solution.  The reference the DAG's solve equals.
inline void serial_solve(const Factor& f, double* x) {
  sweep_columns(f, Sweep::forward, x, 0, f.n);
  sweep_columns(f, Sweep::backward, x, 0, f.n);
}

// How much of the solution of A x = b, b = A 1, the factor l gets wrong: max |x_i - 1| after
// serial_solve.  About n times the rounding for a good factor; NaN for a factor with a NaN.
inline double solve_error(const Problem& p, const std::vector<double>& l) {
  std::vector<double> x = times_ones(p.a), factor = l;
  serial_solve(host_factor(p.a, p.symbolic, factor.data()), x.data());
  double error = 0;
  for (double v : x) error = std::isnan(v) || std::isnan(error) ? std::nan("") : std::max(error, std::fabs(v - 1));
  return error;
}

// ---- the factor in a memory space, and the tree a level at a time --------------------------------
// A sweep's column column[i] for each index i of a parallel loop: a level of the tree, whose
// columns are independent (none is another's ancestor).
struct LevelColumns {
  Factor f;
  const int* column;
  Sweep sweep = Sweep::factor;
  double* x = nullptr;
  KOKKOS_INLINE_FUNCTION void operator()(int i) const { sweep_column(f, sweep, x, column[i]); }
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
    for (int l = 0; l < m_levels.levels(); ++l) run_level(space, l, Sweep::factor, nullptr);
    space.fence("task_sparse::FactorData::factor_by_levels");
  }
  // Solves L L^T x = b with the factor (factor_by_levels' or the tasks'), a parallel loop per level
  // on `space`: the forward substitution up the levels, the backward one down them; x (n doubles
  // `space` reaches) holds b, and the solution once this returns.  Equal to serial_solve's x.
  template <class ExecutionSpace>
  void solve_by_levels(const ExecutionSpace& space, double* x) const {
    if (x == nullptr && m_n > 0)
      throw std::invalid_argument("task_sparse: solve_by_levels needs x, the right-hand side");
    for (int l = 0; l < m_levels.levels(); ++l) run_level(space, l, Sweep::forward, x);
    for (int l = m_levels.levels() - 1; l >= 0; --l) run_level(space, l, Sweep::backward, x);
    space.fence("task_sparse::FactorData::solve_by_levels");
  }
  const LevelSets& levels() const { return m_levels; }

  // L's values, copied to the host.
  std::vector<double> values() const {
    std::vector<double> v(m_value.extent(0));
    Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()), m_value);
    return v;
  }

 private:
  template <class ExecutionSpace>
  void run_level(const ExecutionSpace& space, int level, Sweep sweep, double* x) const {
    Kokkos::parallel_for(
        "task_sparse level",
        Kokkos::RangePolicy<ExecutionSpace>(space, m_levels.level_ptr[level], m_levels.level_ptr[level + 1]),
        LevelColumns{factor(), m_level_column.data(), sweep, x});
  }
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
// its sweep is done on every column of it.  The factorisation and the forward substitution run a
// chain after its children; the backward substitution runs it first, then spawns the children.
// In the factorisation, a chain of at least team_chain columns (team_chain > 0) is factored by a
// ChainTask that it spawns once its children are complete (by itself where the pool is full).
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
  Sweep sweep = Sweep::factor;
  double* x = nullptr;  // the substitutions' vector
  int bottom = -1;      // the chain's lowest column, once the task has spawned
  int next_child = 0;   // the first of the bottom's children (an index into f.child) not spawned yet
  bool chain_spawned = false;
  future_type child_task[max_children];  // the current batch's; null where a spawn failed

  SubtreeTask() = default;
  KOKKOS_INLINE_FUNCTION SubtreeTask(const Scheduler& s, const Factor& factor, int top_column, int grain_columns,
                                     int team_chain_columns, Sweep what = Sweep::factor, double* vector = nullptr)
      : sched(s),
        f(factor),
        top(top_column),
        grain(grain_columns),
        team_chain(team_chain_columns),
        sweep(what),
        x(vector) {}

  KOKKOS_INLINE_FUNCTION void operator()(member_type&) {
    const int last = top < f.n ? top : f.n - 1;  // the root's parent factors nothing itself
    if (chain_spawned) return;                   // the ChainTask is complete
    if (bottom < 0) {
      if (sweep == Sweep::factor && top == f.n && f.failed != nullptr) *f.failed = f.n;  // before any column
      if (top - f.first[top] + 1 <= grain) {
        sweep_columns(f, sweep, x, f.first[top], last + 1);
        return;
      }
      bottom = chain_bottom(f.child_ptr, f.child, top);
      next_child = f.child_ptr[bottom];
      if (sweep == Sweep::backward) sweep_columns(f, sweep, x, bottom, last + 1);
    } else if (!batch_complete()) {
      return;
    }
    while (next_child < f.child_ptr[bottom + 1]) {
      int spawned = 0;
      for (; next_child < f.child_ptr[bottom + 1] && spawned < max_children; ++next_child) {
        const int c = f.child[next_child];
        future_type child =
            Kokkos::task_spawn(Kokkos::TaskSingle(sched), SubtreeTask(sched, f, c, grain, team_chain, sweep, x));
        if (child.is_null())
          sweep_columns(f, sweep, x, f.first[c], c + 1);
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
    if (sweep == Sweep::backward) return;  // the chain went first
    if (sweep == Sweep::factor && team_chain > 0 && last - bottom + 1 >= team_chain) {
      auto chain = Kokkos::task_spawn(Kokkos::TaskTeam(sched), ChainTask<Scheduler>{f, bottom, last + 1});
      if (!chain.is_null()) {
        chain_spawned = true;
        Kokkos::respawn(this, chain);
        return;
      }
    }
    sweep_columns(f, sweep, x, bottom, last + 1);
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

// Spawns the solve of L L^T x = b with f's factor from the host: x (f.n doubles the scheduler's
// tasks reach) holds b, and after wait(sched) the solution.  The forward substitution is the
// factorisation's DAG; the backward one waits for it and runs the tree from the top down, a chain
// before its children.  Subtrees of at most `grain` columns are solved in place.  Null where the
// pool is full (x then holds b, or the forward substitution's y).  Throws std::invalid_argument
// for a negative grain or a null x.
template <class Scheduler>
Kokkos::BasicFuture<void, Scheduler> spawn_solve(const Scheduler& sched, const Factor& f, double* x, int grain) {
  check_grain(grain);
  if (x == nullptr && f.n > 0) throw std::invalid_argument("task_sparse: spawn_solve needs x, the right-hand side");
  auto forward =
      Kokkos::host_spawn(Kokkos::TaskSingle(sched), SubtreeTask<Scheduler>(sched, f, f.n, grain, 0, Sweep::forward, x));
  if (forward.is_null()) return forward;
  return Kokkos::host_spawn(Kokkos::TaskSingle(sched, forward),
                            SubtreeTask<Scheduler>(sched, f, f.n, grain, 0, Sweep::backward, x));
}

}  // namespace task_sparse

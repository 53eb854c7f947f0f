#pragma once
// A tiled Cholesky factorisation A = L L^T as a task DAG, the shape of a dense or supernodal
// sparse factorisation: one task per tile operation, each waiting on the futures of the tasks
// that last wrote the tiles it reads.  Shared by task_cholesky.cpp, TestTaskCholesky and the
// task DAG benchmarks; the tasks are written the portable way (KOKKOS_INLINE_FUNCTION, a
// standard-layout closure, nested team patterns), so the same DAG runs on every scheduler, the
// GPU's included.
//
// The matrix: nt x nt tiles of b x b doubles, tile-major (tile (i, j) is b*b consecutive doubles,
// row-major), symmetric positive definite; only the lower tiles (i >= j) are read and written,
// and L overwrites them (the upper half of a diagonal tile keeps A's values).  Step k of the
// right-looking algorithm:
//   POTRF(k)      L_kk = chol(A_kk)                          after A_kk's last update
//   TRSM(i, k)    L_ik = A_ik L_kk^-T            (i > k)      after POTRF(k) and A_ik's last update
//   SYRK(i, k)    A_ii -= L_ik L_ik^T            (i > k)      after TRSM(i, k) and A_ii's last update
//   GEMM(i, j, k) A_ij -= L_ik L_jk^T      (i > j > k)      after TRSM(i, k), TRSM(j, k), A_ij's last
// POTRF and TRSM are the critical path and spawn at High priority, the updates at Regular.  A
// tile is final once its POTRF or TRSM has run, so no task waits for a reader to finish (no
// write-after-read edges).
//
// Each element is computed by one rank with the same operations in the same order as the serial
// reference (reference_cholesky), so a task DAG's result equals the reference up to the
// compiler's contraction of multiply-adds (nvcc contracts by default, the host compiler need not).
#include <Kokkos_Core.hpp>
#include <Kokkos_TaskScheduler.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace task_cholesky {

// The tiles of an nt x nt tiled matrix of b x b tiles at `data` (nt * nt * b * b doubles).
struct Tiles {
  double* data = nullptr;
  int nt = 0;
  int b = 1;

  KOKKOS_INLINE_FUNCTION double* tile(int i, int j) const {
    return data + (std::size_t(i) * std::size_t(nt) + std::size_t(j)) * std::size_t(b) * std::size_t(b);
  }
  KOKKOS_INLINE_FUNCTION std::size_t size() const {
    return std::size_t(nt) * std::size_t(nt) * std::size_t(b) * std::size_t(b);
  }
};

// Throws unless nt >= 0 and b >= 1.
inline void check_shape(int nt, int b) {
  if (nt < 0 || b < 1)
    throw std::invalid_argument("task_cholesky: " + std::to_string(nt) + " x " + std::to_string(nt) + " tiles of " +
                                std::to_string(b) + " x " + std::to_string(b) + "; nt >= 0 and b >= 1 are needed");
}

// The tasks of the DAG for nt x nt tiles: nt POTRF, nt(nt-1)/2 TRSM and SYRK, nt(nt-1)(nt-2)/6 GEMM.
inline long task_count(int nt) {
  const long n = nt;
  return n + n * (n - 1) + n * (n - 1) * (n - 2) / 6;
}
// The floating-point operations of the factorisation of an n x n matrix (n = nt * b): n^3 / 3.
inline double flop_count(int nt, int b) {
  const double n = double(nt) * double(b);
  return n * n * n / 3;
}

// ---- the element operations, shared by the tasks and the serial reference ---------------------
// Sum over p < n of x(r, p) * y(c, p), for b x b row-major tiles x and y.
KOKKOS_INLINE_FUNCTION double row_dot(const double* x, int r, const double* y, int c, int b, int n) {
  double s = 0;
  for (int p = 0; p < n; ++p) s += x[r * b + p] * y[c * b + p];
  return s;
}
// Column c of POTRF on tile a (its columns before c are L's): L(c, c), and L(r, c) below it.
KOKKOS_INLINE_FUNCTION double potrf_diagonal(const double* a, int b, int c) {
  return Kokkos::sqrt(a[c * b + c] - row_dot(a, c, a, c, b, c));
}
KOKKOS_INLINE_FUNCTION double potrf_below(const double* a, int b, int r, int c, double diagonal) {
  return (a[r * b + c] - row_dot(a, r, a, c, b, c)) / diagonal;
}
// Row r of TRSM: x(r, :) = x(r, :) L^-T for the lower-triangular tile l.
KOKKOS_INLINE_FUNCTION void trsm_row(const double* l, double* x, int b, int r) {
  for (int c = 0; c < b; ++c) x[r * b + c] = (x[r * b + c] - row_dot(x, r, l, c, b, c)) / l[c * b + c];
}
// Element (r, c) of SYRK or GEMM: a(r, c) -= sum_p x(r, p) y(c, p).
KOKKOS_INLINE_FUNCTION void update_element(double* a, const double* x, const double* y, int b, int r, int c) {
  a[r * b + c] -= row_dot(x, r, y, c, b, b);
}

// ---- the tile operations, serial (the reference, and one task each for a peer scheduler) -----
inline void potrf_tile(double* a, int b) {
  for (int c = 0; c < b; ++c) {
    const double d = potrf_diagonal(a, b, c);
    for (int r = c + 1; r < b; ++r) a[r * b + c] = potrf_below(a, b, r, c, d);
    a[c * b + c] = d;
  }
}
inline void trsm_tile(const double* l, double* x, int b) {
  for (int r = 0; r < b; ++r) trsm_row(l, x, b, r);
}
inline void syrk_tile(double* a, const double* x, int b) {
  for (int r = 0; r < b; ++r)
    for (int c = 0; c <= r; ++c) update_element(a, x, x, b, r, c);
}
inline void gemm_tile(double* a, const double* x, const double* y, int b) {
  for (int r = 0; r < b; ++r)
    for (int c = 0; c < b; ++c) update_element(a, x, y, b, r, c);
}

// The factorisation of `m` in place, serially, in the DAG's order.
inline void reference_cholesky(const Tiles& m) {
  for (int k = 0; k < m.nt; ++k) {
    potrf_tile(m.tile(k, k), m.b);
    for (int i = k + 1; i < m.nt; ++i) trsm_tile(m.tile(k, k), m.tile(i, k), m.b);
    for (int i = k + 1; i < m.nt; ++i) {
      syrk_tile(m.tile(i, i), m.tile(i, k), m.b);
      for (int j = k + 1; j < i; ++j) gemm_tile(m.tile(i, j), m.tile(i, k), m.tile(j, k), m.b);
    }
  }
}

// A symmetric, strictly diagonally dominant (so positive definite) matrix, tile-major:
// off-diagonal elements in [0, 1) from a hash of their (unordered) row and column, n on the diagonal.
inline std::vector<double> spd_matrix(int nt, int b) {
  check_shape(nt, b);
  const long n = long(nt) * b;
  std::vector<double> a(std::size_t(n) * std::size_t(n));
  const Tiles m{a.data(), nt, b};
  for (long gr = 0; gr < n; ++gr)
    for (long gc = 0; gc < n; ++gc) {
      const std::uint64_t lo = std::uint64_t(gr < gc ? gr : gc), hi = std::uint64_t(gr < gc ? gc : gr);
      std::uint64_t h = (lo * 0x9E3779B97F4A7C15ull) ^ (hi + 0x632BE59BD9B4E019ull + (lo << 6));
      h ^= h >> 31;
      h *= 0xBF58476D1CE4E5B9ull;
      h ^= h >> 29;
      const double value = gr == gc ? double(n) : double(h >> 11) * 0x1.0p-53;
      m.tile(int(gr / b), int(gc / b))[(gr % b) * b + gc % b] = value;
    }
  return a;
}

// The largest |(L L^T)(r, c) - A(r, c)| over the lower triangle, for L the lower triangle of
// `l`'s lower tiles and A those of `a` (both nt x nt tiles of b x b).
inline double max_residual(const std::vector<double>& l, const std::vector<double>& a, int nt, int b) {
  const Tiles lt{const_cast<double*>(l.data()), nt, b}, at{const_cast<double*>(a.data()), nt, b};
  const long n = long(nt) * b;
  const auto element = [&](const Tiles& m, long r, long c) {
    return m.tile(int(r / b), int(c / b))[(r % b) * b + c % b];
  };
  double worst = 0;
  for (long r = 0; r < n; ++r)
    for (long c = 0; c <= r; ++c) {
      double s = 0;
      for (long p = 0; p <= c; ++p) s += element(lt, r, p) * element(lt, c, p);
      worst = std::fmax(worst, std::fabs(s - element(at, r, c)));
    }
  return worst;
}

// ---- the DAG ----------------------------------------------------------------------------------
enum class TileOp : int { potrf, trsm, syrk, gemm };

// One tile operation of step k, writing tile (i, j) (POTRF: (k, k); TRSM: (i, k); SYRK: (i, i);
// GEMM: (i, j)), its elements split over the team's ranks.  A TaskSingle task's team is its one
// rank.
template <class Scheduler>
struct TileTask {
  using value_type = void;
  Tiles m;
  TileOp op;
  int i, j, k;

  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type& member) const {
    const int b = m.b;
    double* a = m.tile(i, j);
    if (op == TileOp::potrf) {
      for (int c = 0; c < b; ++c) {
        const double d = potrf_diagonal(a, b, c);
        member.team_barrier();  // every rank has read a(c, c) before one overwrites it
        Kokkos::parallel_for(Kokkos::TeamThreadRange(member, c, b),
                             [&](int r) { a[r * b + c] = r == c ? d : potrf_below(a, b, r, c, d); });
        member.team_barrier();  // column c is L's before any rank reads it
      }
    } else if (op == TileOp::trsm) {
      const double* l = m.tile(k, k);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, b), [&](int r) { trsm_row(l, a, b, r); });
    } else {
      const double* x = m.tile(i, k);
      const double* y = m.tile(j, k);
      const bool lower_only = op == TileOp::syrk;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, b * b), [&](int e) {
        const int r = e / b, c = e % b;
        if (!lower_only || c <= r) update_element(a, x, y, b, r, c);
      });
    }
  }
};

// Why spawning the DAG stopped: spawned_all, the pool was full at a when_all or at a spawn, or
// (a builder, which cannot throw where it runs) the shape check_shape refuses.
enum SpawnFailure : int { spawned_all = 0, when_all_pool_full = 1, spawn_pool_full = 2, bad_shape = 3 };

inline std::string failure_text(int failure) {
  switch (failure) {
    case spawned_all: return std::string();
    case when_all_pool_full: return "when_all found the pool full";
    case spawn_pool_full: return "a spawn found the pool full";
    case bad_shape: return "a shape of nt < 0 tiles or tiles of b < 1; nt >= 0 and b >= 1 are needed";
    default: return "unknown failure " + std::to_string(failure);
  }
}

// The tiles whose last writers the task (op, i, j, k) waits for: those it reads and the one it
// writes, (i, j), in that order.
struct TileReads {
  int count;
  int i[3];
  int j[3];
};
KOKKOS_INLINE_FUNCTION TileReads reads_of(TileOp op, int i, int j, int k) {
  switch (op) {
    case TileOp::potrf: return {1, {k, 0, 0}, {k, 0, 0}};
    case TileOp::trsm: return {2, {k, i, 0}, {k, k, 0}};
    case TileOp::syrk: return {2, {i, i, 0}, {k, i, 0}};
    default: return {3, {i, j, i}, {k, k, j}};
  }
}

// Step k's tile tasks in the DAG's order, each through spawn(op, i, j, k, priority), which returns a
// SpawnFailure; the first failure ends the step and is returned.  The panel (POTRF(k) and the
// TRSMs below it, at High priority: the critical path) first, then each row i > k: SYRK(i, k) and
// the GEMMs left of it.  A row's tasks read the panel's tiles and write only row i's.
template <class Spawn>
KOKKOS_INLINE_FUNCTION int spawn_panel(int nt, int k, const Spawn& spawn) {
  constexpr auto high = Kokkos::TaskPriority::High;
  int failure = spawn(TileOp::potrf, k, k, k, high);
  for (int i = k + 1; i < nt && failure == spawned_all; ++i) failure = spawn(TileOp::trsm, i, k, k, high);
  return failure;
}
template <class Spawn>
KOKKOS_INLINE_FUNCTION int spawn_row(int i, int k, const Spawn& spawn) {
  constexpr auto regular = Kokkos::TaskPriority::Regular;
  int failure = spawn(TileOp::syrk, i, i, k, regular);
  for (int j = k + 1; j < i && failure == spawned_all; ++j) failure = spawn(TileOp::gemm, i, j, k, regular);
  return failure;
}
template <class Spawn>
KOKKOS_INLINE_FUNCTION int spawn_step(int nt, int k, const Spawn& spawn) {
  int failure = spawn_panel(nt, k, spawn);
  for (int i = k + 1; i < nt && failure == spawned_all; ++i) failure = spawn_row(i, k, spawn);
  return failure;
}

// Spawns the task (op, i, j, k) behind the last writers of its tiles, which `last` holds (nt * nt
// futures, row-major), and makes it the last writer of (i, j): with `spawn_one(policy, task)`,
// Kokkos::host_spawn from the host or Kokkos::task_spawn inside a task.  Returns a SpawnFailure.
template <class Scheduler, class SpawnOne>
KOKKOS_INLINE_FUNCTION int spawn_tile_task(const Scheduler& sched, const Tiles& m,
                                           typename Scheduler::template future_type<void>* last, bool team_tasks,
                                           const SpawnOne& spawn_one, TileOp op, int i, int j, int k,
                                           Kokkos::TaskPriority priority) {
  using future_t = typename Scheduler::template future_type<void>;
  const TileReads reads = reads_of(op, i, j, k);
  future_t deps[3];
  int n = 0;
  for (int r = 0; r < reads.count; ++r) {
    const future_t& f = last[reads.i[r] * m.nt + reads.j[r]];
    if (!f.is_null()) deps[n++] = f;
  }
  future_t dep = n == 1 ? deps[0] : future_t();
  if (n > 1) {
    dep = Kokkos::when_all(deps, n);
    if (dep.is_null()) return when_all_pool_full;
  }
  const TileTask<Scheduler> task{m, op, i, j, k};
  future_t f = team_tasks ? future_t(spawn_one(dep.is_null() ? Kokkos::TaskTeam(sched, priority)
                                                             : Kokkos::TaskTeam(sched, dep, priority),
                                               task))
                          : future_t(spawn_one(dep.is_null() ? Kokkos::TaskSingle(sched, priority)
                                                             : Kokkos::TaskSingle(sched, dep, priority),
                                               task));
  if (f.is_null()) return spawn_pool_full;
  last[i * m.nt + j] = f;
  return spawned_all;
}

// spawn_tile_task's `spawn_one` from host code: Kokkos::host_spawn.  Callable where spawn_tile_task
// is (host and device), but host_spawn is a host function, which device code must not reach.
struct HostSpawn {
  template <class Policy, class Task>
  KOKKOS_INLINE_FUNCTION auto operator()(const Policy& policy, const Task& task) const
      -> decltype(Kokkos::host_spawn(policy, task)) {
    KOKKOS_IF_ON_HOST((return Kokkos::host_spawn(policy, task);))
    KOKKOS_IF_ON_DEVICE((Kokkos::abort("task_cholesky: host_spawn in device code"); return {};))
  }
};

// Spawns the factorisation of `m` (memory the scheduler's tasks can reach) from the host, as
// TaskTeam tasks or, with `team_tasks` false, TaskSingle ones; returns empty, or why it stopped
// spawning (failure_text).  Kokkos::wait(sched) runs it, and whatever was spawned before a failure.
template <class Scheduler>
std::string spawn_cholesky(const Scheduler& sched, const Tiles& m, bool team_tasks = true) {
  check_shape(m.nt, m.b);
  using future_t = typename Scheduler::template future_type<void>;
  std::vector<future_t> last(std::size_t(m.nt) * std::size_t(m.nt));  // the last task to write each tile
  const auto spawn = [&](TileOp op, int i, int j, int k, Kokkos::TaskPriority priority) {
    return spawn_tile_task(sched, m, last.data(), team_tasks, HostSpawn{}, op, i, j, k, priority);
  };
  int failure = spawned_all;
  for (int k = 0; k < m.nt && failure == spawned_all; ++k) failure = spawn_step(m.nt, k, spawn);
  return failure_text(failure);
}

// The DAG spawned from inside the scheduler's tasks, as a program running on a GPU spawns it (the
// host's spawns there go through managed memory), and spawned in parallel, since one GPU lane spawns
// far slower than a host thread: a TaskSingle task that at step k spawns the panel, then a row task
// (CholeskyBuilder::Row) per row i > k, which spawns that row's SYRK and GEMMs, and respawns itself
// at High priority behind when_all of the row tasks for step k + 1.  So the tile tasks run while
// later steps are spawned, and a task run spawns at most about three tasks per row.  `table`:
// builder_table_bytes(nt) bytes the tasks can reach (device memory on a GPU), aligned for a pointer,
// where the builder keeps the last writer of each tile and the row tasks' futures from its first
// run to its last.  Its value: a SpawnFailure (failure_text); a builder of no tile spawns nothing,
// one of a bad shape (check_shape) nothing either and says so.
template <class Scheduler>
struct CholeskyBuilder {
  using value_type = int;
  using future_t = typename Scheduler::template future_type<void>;
  using row_future_t = typename Scheduler::template future_type<int>;

  Scheduler sched;
  Tiles m;
  void* table;
  bool team_tasks = true;
  int k = 0;             // the step the next run spawns
  int rows_pending = 0;  // row tasks of step k - 1 not yet collected, rows()[k, k + rows_pending)
  int failure = spawned_all;
  bool started = false;

  // Task spawning for spawn_tile_task inside a task.
  struct TaskSpawn {
    template <class Policy, class Task>
    KOKKOS_INLINE_FUNCTION auto operator()(const Policy& policy, const Task& task) const {
      return Kokkos::task_spawn(policy, task);
    }
  };
  // Row i's tasks of step k; its value: a SpawnFailure.
  struct Row {
    using value_type = int;
    Scheduler sched;
    Tiles m;
    future_t* last;
    bool team_tasks;
    int i, k;

    KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, int& result) const {
      const auto spawn = [&](TileOp op, int ti, int tj, int step, Kokkos::TaskPriority priority) {
        return spawn_tile_task(sched, m, last, team_tasks, TaskSpawn{}, op, ti, tj, step, priority);
      };
      result = spawn_row(i, k, spawn);
    }
  };

  KOKKOS_INLINE_FUNCTION future_t* last() const { return static_cast<future_t*>(table); }
  KOKKOS_INLINE_FUNCTION row_future_t* rows() const {
    return reinterpret_cast<row_future_t*>(last() + m.nt * m.nt);
  }

  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type&, int& result) {
    const int nt = m.nt;
    if (nt < 0 || m.b < 1) {
      result = bad_shape;
      return;
    }
    if (!started) {
      for (int t = 0; t < nt * nt; ++t) new (&last()[t]) future_t();
      for (int r = 0; r < nt; ++r) new (&rows()[r]) row_future_t();
      started = true;
    }
    if (rows_pending > 0) {  // the row tasks of step k - 1 are done, unless when_all found the pool full
      for (int r = k; r < k + rows_pending; ++r) {
        if (!rows()[r].is_ready()) {
          Kokkos::respawn(this, sched, Kokkos::TaskPriority::Low);
          return;
        }
      }
      for (int r = k; r < k + rows_pending; ++r) {
        if (failure == spawned_all) failure = rows()[r].get();
        rows()[r] = row_future_t();
      }
      rows_pending = 0;
    }
    if (failure == spawned_all && k < nt) {
      const auto spawn = [&](TileOp op, int i, int j, int step, Kokkos::TaskPriority priority) {
        return spawn_tile_task(sched, m, last(), team_tasks, TaskSpawn{}, op, i, j, step, priority);
      };
      failure = spawn_panel(nt, k, spawn);
      for (int i = k + 1; i < nt && failure == spawned_all; ++i) {
        rows()[i] = Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High),
                                       Row{sched, m, last(), team_tasks, i, k});
        if (rows()[i].is_null()) failure = spawn_pool_full;
        else ++rows_pending;
      }
      ++k;
      if (rows_pending > 0) {  // always so but after the last step, or a failure at the first row
        auto rows_done = Kokkos::when_all(rows() + k, rows_pending);
        if (rows_done.is_null()) {
          // The pool is full: look again at the next run, after every ready task of higher priority
          // (the row tasks are High), so that a single worker does not look forever.
          Kokkos::respawn(this, sched, Kokkos::TaskPriority::Low);
        } else {
          Kokkos::respawn(this, static_cast<future_t&&>(rows_done), Kokkos::TaskPriority::High);
        }
        return;
      }
    }
    for (int t = 0; t < nt * nt; ++t) last()[t].~future_t();
    for (int r = 0; r < nt; ++r) rows()[r].~row_future_t();
    result = failure;
  }
};

template <class Scheduler>
constexpr std::size_t builder_table_bytes(int nt) {
  const std::size_t n = nt < 0 ? 0 : std::size_t(nt);
  return sizeof(typename CholeskyBuilder<Scheduler>::future_t) * n * n +
         sizeof(typename CholeskyBuilder<Scheduler>::row_future_t) * n;
}

}  // namespace task_cholesky

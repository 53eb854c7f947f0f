#pragma once
// Adaptive quadrature over a quadtree as a task DAG: the shape of adaptive mesh refinement, where
// the work is found while it runs.  Shared by task_adaptive.cpp, TestTaskAdaptive and the task DAG
// benchmarks; written the portable way (KOKKOS_INLINE_FUNCTION, a standard-layout closure), so the
// same tasks run on every scheduler, the GPU's included.
//
// The integral of f over the unit square, f a sum of narrow Gaussian peaks (Integrand).  A cell's
// estimate is the 3 x 3 Gauss-Legendre rule on it; a cell is refined into its four quadrants
// above min_depth (so that the rule's points see every peak: a peak between them would look like
// no peak to both estimates), and below it while the sum of their estimates differs from its own
// by more than the tolerance's share of its area (tolerance x area), down to max_depth.  An
// unrefined cell's value is the sum of its quadrants' estimates, a refined cell's the sum of its
// quadrants' values, added in quadrant order (sum_of_quadrants), so the whole integral's error is
// about the tolerance.
//
// As tasks (CellTask): a cell's task estimates its quadrants and, if the cell is refined, spawns a
// task per quadrant and respawns behind when_all of them; when it runs again it adds their
// values.  At spawn_depth and below a task refines its cell in place, serially (refine_in_place):
// the grain, set by the caller.  A quadrant whose spawn finds the pool full is refined in place
// too, and a when_all that finds it full makes the task wait for its quadrants one at a time, so
// a full pool costs parallelism, never the answer.  The value does not depend on the scheduler,
// the spawn depth or the pool: the same additions in the same order, up to the compiler's
// contraction of multiply-adds (nvcc contracts by default, the host compiler need not), which can
// also move a cell across the refinement threshold.
#include <Kokkos_Core.hpp>
#include <Kokkos_TaskScheduler.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

namespace task_adaptive {

// f(x, y) = sum over p < peaks of exp(-((x - x_p)^2 + (y - y_p)^2) / width^2), the centres spread
// over the square by the two-dimensional golden-ratio (R2) sequence.  More peaks: more work per
// evaluation and more places where the quadtree is deep.
struct Integrand {
  int peaks = 1;
  double width = 0.01;

  KOKKOS_INLINE_FUNCTION static double fraction(double v) { return v - Kokkos::floor(v); }
  KOKKOS_INLINE_FUNCTION static double centre_x(int p) { return fraction(0.5 + p * 0.7548776662466927); }
  KOKKOS_INLINE_FUNCTION static double centre_y(int p) { return fraction(0.5 + p * 0.5698402909980532); }

  KOKKOS_INLINE_FUNCTION double operator()(double x, double y) const {
    const double scale = 1 / (width * width);
    double sum = 0;
    for (int p = 0; p < peaks; ++p) {
      const double dx = x - centre_x(p), dy = y - centre_y(p);
      sum += Kokkos::exp(-(dx * dx + dy * dy) * scale);
    }
    return sum;
  }
  // The integral over the unit square in closed form: per peak, the product of
  // integral_0^1 exp(-(t - c)^2 / width^2) dt = width sqrt(pi) / 2 (erf((1 - c) / width) + erf(c / width)).
  double exact() const {
    const double half_sqrt_pi = 0.886226925452758;  // sqrt(pi) / 2
    const auto line = [&](double c) {
      return width * half_sqrt_pi * (std::erf((1 - c) / width) + std::erf(c / width));
    };
    double sum = 0;
    for (int p = 0; p < peaks; ++p) sum += line(centre_x(p)) * line(centre_y(p));
    return sum;
  }
};

// A square cell of side h at (x, y), depth levels below the unit square.
struct Cell {
  double x = 0, y = 0, h = 1;
  int depth = 0;
};

// Quadrant q of a cell: bit 0 the right half, bit 1 the upper half.
KOKKOS_INLINE_FUNCTION Cell quadrant_of(const Cell& c, int q) {
  const double half = c.h / 2;
  return Cell{c.x + (q & 1) * half, c.y + (q >> 1) * half, half, c.depth + 1};
}

// The deepest quadtree refine_in_place walks: its stack holds a frame per level.
constexpr int max_levels = 24;

struct Problem {
  Integrand f;
  double tolerance = 1e-6;
  int min_depth = 4;
  int max_depth = 12;
};

// Throws unless the problem and spawn depth can be integrated: peaks >= 0, width > 0,
// tolerance > 0, 0 <= min_depth <= max_depth <= max_levels, spawn_depth >= 0.
inline void check_problem(const Problem& p, int spawn_depth) {
  std::string why;
  if (p.f.peaks < 0) why = "peaks = " + std::to_string(p.f.peaks) + "; peaks >= 0 is needed";
  else if (!(p.f.width > 0)) why = "width = " + std::to_string(p.f.width) + "; width > 0 is needed";
  else if (!(p.tolerance > 0)) why = "tolerance = " + std::to_string(p.tolerance) + "; tolerance > 0 is needed";
  else if (p.min_depth < 0 || p.min_depth > p.max_depth || p.max_depth > max_levels)
    why = "min_depth = " + std::to_string(p.min_depth) + ", max_depth = " + std::to_string(p.max_depth) +
          "; 0 <= min_depth <= max_depth <= " + std::to_string(max_levels) + " is needed";
  else if (spawn_depth < 0) why = "spawn_depth = " + std::to_string(spawn_depth) + "; spawn_depth >= 0 is needed";
  if (!why.empty()) throw std::invalid_argument("task_adaptive: " + why);
}

// The 3 x 3 Gauss-Legendre rule on cell c.
KOKKOS_INLINE_FUNCTION double estimate(const Integrand& f, const Cell& c) {
  const double node[3] = {-0.7745966692414834, 0.0, 0.7745966692414834};  // -sqrt(3/5), 0, sqrt(3/5)
  const double weight[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
  const double half = c.h / 2;
  double sum = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      sum += weight[i] * weight[j] * f(c.x + half * (1 + node[i]), c.y + half * (1 + node[j]));
  return sum * half * half;
}

// The one order in which four quadrants' values are added, by the tasks and in place alike.
KOKKOS_INLINE_FUNCTION double sum_of_quadrants(const double (&v)[4]) { return ((v[0] + v[1]) + v[2]) + v[3]; }

// Fills `quadrant` with the estimates of c's quadrants; whether c is refined, given its own
// estimate `coarse`.
KOKKOS_INLINE_FUNCTION bool refines(const Problem& p, const Cell& c, double coarse, double (&quadrant)[4]) {
  for (int q = 0; q < 4; ++q) quadrant[q] = estimate(p.f, quadrant_of(c, q));
  if (c.depth < p.min_depth) return true;
  return c.depth < p.max_depth && Kokkos::fabs(sum_of_quadrants(quadrant) - coarse) > p.tolerance * c.h * c.h;
}

// The value of cell c, whose estimate is `coarse`, refined serially: the quadtree below c walked
// depth first with a stack of a frame per level (no recursion, which device code would have to
// size a stack for), the values added as the tasks add them.
KOKKOS_INLINE_FUNCTION double refine_in_place(const Problem& p, const Cell& c, double coarse) {
  struct Frame {
    Cell cell;
    double quadrant[4];  // the quadrants' estimates, then each one's value once known
    int next;            // the next quadrant to visit
  };
  Frame stack[max_levels + 1];
  if (!refines(p, c, coarse, stack[0].quadrant)) return sum_of_quadrants(stack[0].quadrant);
  stack[0].cell = c;
  stack[0].next = 0;
  int top = 0;
  for (;;) {
    Frame& frame = stack[top];
    if (frame.next == 4) {
      const double value = sum_of_quadrants(frame.quadrant);
      if (top == 0) return value;
      --top;
      stack[top].quadrant[stack[top].next - 1] = value;
      continue;
    }
    const int q = frame.next++;
    Frame& child = stack[top + 1];
    child.cell = quadrant_of(frame.cell, q);
    if (refines(p, child.cell, frame.quadrant[q], child.quadrant)) {
      child.next = 0;
      ++top;
    } else {
      frame.quadrant[q] = sum_of_quadrants(child.quadrant);
    }
  }
}

// The integral computed serially: the reference every task DAG's value equals.
inline double serial_integral(const Problem& p) {
  check_problem(p, 0);
  const Cell unit{};
  return refine_in_place(p, unit, estimate(p.f, unit));
}

// The quadtree of a problem, and the DAG its tasks make with a given spawn depth.
struct TreeShape {
  long refined = 0;         // cells split into quadrants
  int deepest = 0;          // the deepest refined cell's depth, plus one
  long tasks = 0;           // CellTasks spawned: the root's, and four per refined cell above spawn_depth
  long spawning_cells = 0;  // refined cells above spawn_depth: a when_all and a respawn each
  double value = 0;         // the integral, computed recursively (independently of refine_in_place)

  long cells() const { return 1 + 4 * refined; }  // the quadtree's cells, each of which estimates its quadrants
};

// Walks the quadtree recursively, on the host.
inline TreeShape tree_shape(const Problem& p, int spawn_depth) {
  check_problem(p, spawn_depth);
  TreeShape shape;
  shape.tasks = 1;
  const auto walk = [&](const auto& self, const Cell& c, double coarse) -> double {
    double quadrant[4];
    if (!refines(p, c, coarse, quadrant)) return sum_of_quadrants(quadrant);
    ++shape.refined;
    if (c.depth + 1 > shape.deepest) shape.deepest = c.depth + 1;
    if (c.depth < spawn_depth) {
      shape.tasks += 4;
      ++shape.spawning_cells;
    }
    double value[4];
    for (int q = 0; q < 4; ++q) value[q] = self(self, quadrant_of(c, q), quadrant[q]);
    return sum_of_quadrants(value);
  };
  const Cell unit{};
  shape.value = walk(walk, unit, estimate(p.f, unit));
  return shape;
}

// The task of one cell, whose value is the integral over it.
template <class Scheduler>
struct CellTask {
  using value_type = double;
  using future_type = Kokkos::BasicFuture<double, Scheduler>;
  using member_type = typename Scheduler::member_type;

  Scheduler sched;
  Problem problem;
  Cell cell;
  double coarse = 0;  // the cell's estimate, made by its parent
  int spawn_depth = 0;
  bool spawned = false;
  future_type quadrant_task[4];  // null until spawned, and where the spawn found the pool full
  double in_place[4] = {};       // the values of the quadrants whose spawn found the pool full

  CellTask() = default;
  KOKKOS_INLINE_FUNCTION CellTask(const Scheduler& s, const Problem& p, const Cell& c, double c_estimate, int depth)
      : sched(s), problem(p), cell(c), coarse(c_estimate), spawn_depth(depth) {}

  KOKKOS_INLINE_FUNCTION void operator()(member_type&, double& result) {
    if (spawned) {
      add_quadrants(result);
      return;
    }
    if (cell.depth >= spawn_depth) {
      result = refine_in_place(problem, cell, coarse);
      return;
    }
    double quadrant[4];
    if (!refines(problem, cell, coarse, quadrant)) {
      result = sum_of_quadrants(quadrant);
      return;
    }
    spawned = true;
    for (int q = 0; q < 4; ++q) {
      const Cell c = quadrant_of(cell, q);
      quadrant_task[q] =
          Kokkos::task_spawn(Kokkos::TaskSingle(sched), CellTask(sched, problem, c, quadrant[q], spawn_depth));
      if (quadrant_task[q].is_null()) in_place[q] = refine_in_place(problem, c, quadrant[q]);
    }
    auto all = Kokkos::when_all(quadrant_task, 4);  // null where every spawn failed, or the pool is full
    if (!all.is_null())
      Kokkos::respawn(this, all);
    else
      add_quadrants(result);
  }

  // Adds the quadrants' values once every spawned one is complete; until then respawns behind
  // the first that is not (no allocation, so a full pool cannot stop it).
  KOKKOS_INLINE_FUNCTION void add_quadrants(double& result) {
    double value[4];
    for (int q = 0; q < 4; ++q) {
      if (quadrant_task[q].is_null()) {
        value[q] = in_place[q];
      } else if (quadrant_task[q].is_ready()) {
        value[q] = quadrant_task[q].get();
      } else {
        Kokkos::respawn(this, quadrant_task[q]);
        return;
      }
    }
    result = sum_of_quadrants(value);
  }
};

// Spawns the root of the problem's DAG from the host; its future holds the integral after
// wait(sched).  Null where the pool is full.  Throws std::invalid_argument for a bad problem.
template <class Scheduler>
Kokkos::BasicFuture<double, Scheduler> spawn_integral(const Scheduler& sched, const Problem& p, int spawn_depth) {
  check_problem(p, spawn_depth);
  const Cell unit{};
  return Kokkos::host_spawn(Kokkos::TaskSingle(sched),
                            CellTask<Scheduler>(sched, p, unit, estimate(p.f, unit), spawn_depth));
}

}  // namespace task_adaptive

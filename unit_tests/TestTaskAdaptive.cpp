// The adaptive quadrature task DAG of example/task_adaptive.hpp on every back end, the GPU
// included (which skips, with the reason, where no GPU is visible): the integral against the
// serial walk of the same quadtree and against the closed form, for every spawn depth, the tasks
// and when_alls the DAG makes, a full pool, bad problems; the serial pieces themselves.
#include "TestCommon.hpp"

#include "../example/task_adaptive.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using task_adaptive::Cell;
using task_adaptive::Problem;

template <class Space>
struct TaskAdaptive : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TaskAdaptive, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

Problem make_problem(int peaks, double width, double tolerance, int min_depth, int max_depth) {
  Problem p;
  p.f = {peaks, width};
  p.tolerance = tolerance;
  p.min_depth = min_depth;
  p.max_depth = max_depth;
  return p;
}

// Four peaks of width 0.02 to 1e-8: 2,000 to 3,000 cells, refined unevenly down to depth 9.
Problem uneven_problem() { return make_problem(4, 0.02, 1e-8, 3, 14); }

// The integral by the DAG on Space's scheduler (a pool of pool_bytes), and its statistics.
template <class Space>
double dag_integral(const Problem& p, int spawn_depth, std::size_t pool_bytes,
                    Kokkos::Experimental::TaskDagStatistics& statistics) {
  using S = Kokkos::TaskScheduler<Space>;
  S sched(typename S::memory_space(), pool_bytes, 64, 512, pool_bytes < (1 << 16) ? pool_bytes : (1 << 16));
  auto root = task_adaptive::spawn_integral(sched, p, spawn_depth);
  EXPECT_FALSE(root.is_null()) << "the root's spawn found the pool full";
  if (root.is_null()) return std::nan("");
  Kokkos::wait(sched);
  statistics = Kokkos::Experimental::task_dag_statistics(sched);
  const double value = root.get();
  root = {};
  EXPECT_EQ(sched.allocated_task_count(), 0);
  return value;
}

// The host back ends compile the same functions with the same flags as the serial walk, so their
// value is the serial one to the bit; the GPU's compiler contracts multiply-adds, which may move a
// cell across the threshold: within the tolerance there.
template <class Space>
void expect_same_integral(double dag, double serial, const Problem& p, const std::string& what) {
  if constexpr (Kokkos::Test::needs_device<Space>) {
    EXPECT_NEAR(dag, serial, p.tolerance) << what;
  } else {
    EXPECT_EQ(dag, serial) << what;
  }
}

// ---- the serial pieces ---------------------------------------------------------------------------
TEST(TaskAdaptiveReference, TheIntegrandPeaksAtItsCentres) {
  const task_adaptive::Integrand one{1, 0.05};
  const double cx = one.centre_x(0), cy = one.centre_y(0);
  EXPECT_DOUBLE_EQ(cx, 0.5);
  EXPECT_DOUBLE_EQ(cy, 0.5);
  EXPECT_DOUBLE_EQ(one(cx, cy), 1);
  EXPECT_NEAR(one(cx + 0.05, cy), std::exp(-1.0), 1e-15);
  EXPECT_LT(one(0, 0), 1e-80);  // exp(-200)
  const task_adaptive::Integrand many{8, 0.05};
  for (int p = 0; p < 8; ++p) {
    EXPECT_GE(many.centre_x(p), 0);
    EXPECT_LT(many.centre_x(p), 1);
    EXPECT_GE(many(many.centre_x(p), many.centre_y(p)), 1) << p;
    for (int o = 0; o < p; ++o) EXPECT_NE(many.centre_x(p), many.centre_x(o)) << p << " " << o;
  }
  EXPECT_EQ((task_adaptive::Integrand{0, 0.05}(0.3, 0.7)), 0);
}

TEST(TaskAdaptiveReference, TheClosedFormMatchesKnownIntegrals) {
  // A peak of width w at the centre of the square: (w sqrt(pi) erf(1 / 2w))^2; nearly pi w^2 when narrow.
  const double w = 0.1;
  const double line = w * std::sqrt(M_PI) * std::erf(0.5 / w);
  EXPECT_NEAR((task_adaptive::Integrand{1, w}.exact()), line * line, 1e-15);
  EXPECT_NEAR((task_adaptive::Integrand{1, 0.01}.exact()), M_PI * 1e-4, 1e-15);
  // Very wide: f is nearly 1 everywhere.
  EXPECT_NEAR((task_adaptive::Integrand{1, 1e3}.exact()), 1, 1e-6);
  EXPECT_EQ((task_adaptive::Integrand{0, 0.1}.exact()), 0);
}

TEST(TaskAdaptiveReference, TheRuleIsExactForWidePeaksAndAddsOverQuadrants) {
  const task_adaptive::Integrand flat{1, 1e4};  // 1 - O(1e-8) over the square
  EXPECT_NEAR(task_adaptive::estimate(flat, Cell{}), 1, 1e-8);
  EXPECT_NEAR(task_adaptive::estimate(flat, Cell{0.25, 0.5, 0.25, 2}), 0.0625, 1e-9);
  const Cell c{0.25, 0.5, 0.5, 1};
  const Cell q1 = task_adaptive::quadrant_of(c, 1), q2 = task_adaptive::quadrant_of(c, 2);
  const Cell q3 = task_adaptive::quadrant_of(c, 3);
  EXPECT_EQ(q1.x, 0.5);
  EXPECT_EQ(q1.y, 0.5);
  EXPECT_EQ(q2.x, 0.25);
  EXPECT_EQ(q2.y, 0.75);
  EXPECT_EQ(q3.x, 0.5);
  EXPECT_EQ(q3.y, 0.75);
  EXPECT_EQ(q3.h, 0.25);
  EXPECT_EQ(q3.depth, 2);
  // A smooth peak: the four quadrants' rule agrees with the cell's to the rule's order.
  const Problem smooth = make_problem(1, 0.5, 1, 0, 1);
  double quadrant[4];
  const double coarse = task_adaptive::estimate(smooth.f, Cell{});
  EXPECT_FALSE(task_adaptive::refines(smooth, Cell{}, coarse, quadrant));  // 1 > |fine - coarse|
  const double fine_error = std::fabs(task_adaptive::sum_of_quadrants(quadrant) - smooth.f.exact());
  EXPECT_LT(fine_error, 1e-4);
  EXPECT_LT(fine_error, std::fabs(coarse - smooth.f.exact()) / 100);  // the rule's order: 2^-6 per halving, and more
  const double v[4] = {1e16, 1, -1e16, 1};
  EXPECT_EQ(task_adaptive::sum_of_quadrants(v), 1);  // ((1e16 + 1) - 1e16) + 1, in that order
}

TEST(TaskAdaptiveReference, RefinementFollowsTheDepthsAndTheTolerance) {
  double quadrant[4];
  const Problem p = make_problem(1, 0.02, 1e-12, 2, 5);
  const double coarse = 0.123;  // far from the quadrants' sum: refined wherever the depth allows
  EXPECT_TRUE(task_adaptive::refines(p, Cell{0, 0, 0.25, 1}, coarse, quadrant));   // above min_depth
  EXPECT_TRUE(task_adaptive::refines(p, Cell{0, 0, 0.125, 4}, coarse, quadrant));  // by the tolerance
  EXPECT_FALSE(task_adaptive::refines(p, Cell{0, 0, 1.0 / 32, 5}, coarse, quadrant));  // at max_depth
  // Far from every peak the quadrants agree with the cell: not refined below min_depth.
  const Cell corner{0, 0, 0.125, 3};
  EXPECT_FALSE(task_adaptive::refines(p, corner, task_adaptive::estimate(p.f, corner), quadrant));
  EXPECT_TRUE(task_adaptive::refines(p, Cell{0, 0, 0.125, 1}, task_adaptive::estimate(p.f, corner), quadrant));
}

TEST(TaskAdaptiveReference, TheSerialWalkMatchesTheRecursiveOneAndTheClosedForm) {
  for (const Problem& p : {uneven_problem(), make_problem(8, 0.01, 1e-8, 4, 20), make_problem(1, 0.3, 1e-12, 0, 24),
                           make_problem(3, 0.05, 1e-6, 0, 0), make_problem(2, 0.05, 1, 3, 3),
                           make_problem(1, 0.3, 1, 6, 6)}) {
    const task_adaptive::TreeShape shape = task_adaptive::tree_shape(p, 0);
    const double serial = task_adaptive::serial_integral(p);
    EXPECT_EQ(serial, shape.value) << p.f.peaks << " peaks, max_depth " << p.max_depth;
    if (p.max_depth >= 14) {
      EXPECT_NEAR(serial, p.f.exact(), 10 * p.tolerance) << p.f.peaks << " peaks";
    }
  }
}

TEST(TaskAdaptiveReference, TheShapeOfAUniformTreeIsKnown) {
  // min_depth = max_depth = 3: every cell above depth 3 refined, whatever the tolerance.
  const Problem uniform = make_problem(2, 0.05, 1e3, 3, 3);
  for (int spawn_depth = 0; spawn_depth <= 5; ++spawn_depth) {
    const task_adaptive::TreeShape shape = task_adaptive::tree_shape(uniform, spawn_depth);
    EXPECT_EQ(shape.refined, 1 + 4 + 16);
    EXPECT_EQ(shape.cells(), 1 + 4 + 16 + 64);
    EXPECT_EQ(shape.deepest, 3);
    EXPECT_EQ(task_adaptive::tree_shape(make_problem(1, 0.3, 1, 6, 6), spawn_depth).refined, (4096 - 1) / 3);
    const int spawning = spawn_depth >= 3 ? 21 : spawn_depth == 2 ? 5 : spawn_depth;  // cells above spawn_depth
    EXPECT_EQ(shape.spawning_cells, spawning) << spawn_depth;
    EXPECT_EQ(shape.tasks, 1 + 4 * spawning) << spawn_depth;
  }
  const task_adaptive::TreeShape single = task_adaptive::tree_shape(make_problem(1, 0.5, 1, 0, 0), 4);
  EXPECT_EQ(single.refined, 0);
  EXPECT_EQ(single.cells(), 1);
  EXPECT_EQ(single.tasks, 1);
}

TEST(TaskAdaptiveReference, BadProblemsThrow) {
  const auto throws = [](const Problem& p, int spawn_depth, const std::string& needed) {
    try {
      task_adaptive::check_problem(p, spawn_depth);
      ADD_FAILURE() << "no exception for " << needed;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(needed), std::string::npos) << e.what();
    }
    EXPECT_THROW(task_adaptive::tree_shape(p, spawn_depth), std::invalid_argument);
  };
  throws(make_problem(-1, 0.1, 1e-6, 0, 4), 0, "peaks >= 0");
  throws(make_problem(1, 0, 1e-6, 0, 4), 0, "width > 0");
  throws(make_problem(1, std::nan(""), 1e-6, 0, 4), 0, "width > 0");
  throws(make_problem(1, 0.1, 0, 0, 4), 0, "tolerance > 0");
  throws(make_problem(1, 0.1, -1e-6, 0, 4), 0, "tolerance > 0");
  throws(make_problem(1, 0.1, 1e-6, -1, 4), 0, "0 <= min_depth <= max_depth <= 24");
  throws(make_problem(1, 0.1, 1e-6, 5, 4), 0, "0 <= min_depth <= max_depth <= 24");
  throws(make_problem(1, 0.1, 1e-6, 0, 25), 0, "0 <= min_depth <= max_depth <= 24");
  throws(make_problem(1, 0.1, 1e-6, 0, 4), -1, "spawn_depth >= 0");
  EXPECT_THROW(task_adaptive::serial_integral(make_problem(1, 0.1, 1e-6, 0, 25)), std::invalid_argument);
  EXPECT_NO_THROW(task_adaptive::check_problem(make_problem(0, 0.1, 1e-6, 24, 24), 100));
}

// ---- the DAG ---------------------------------------------------------------------------------------
TYPED_TEST(TaskAdaptive, TheDagComputesTheSerialIntegralAtEverySpawnDepth) {
  const Problem p = uneven_problem();
  const task_adaptive::TreeShape reference = task_adaptive::tree_shape(p, 0);
  ASSERT_GT(reference.refined, 400);
  ASSERT_GE(reference.deepest, 8);
  for (const int spawn_depth : {0, 1, 2, 4, 6, 24}) {
    Kokkos::Experimental::TaskDagStatistics statistics;
    const double value = dag_integral<TypeParam>(p, spawn_depth, 1 << 22, statistics);
    expect_same_integral<TypeParam>(value, reference.value, p, "spawn depth " + std::to_string(spawn_depth));
    EXPECT_NEAR(value, p.f.exact(), 10 * p.tolerance);
  }
}

TYPED_TEST(TaskAdaptive, ATaskPerCellAboveTheSpawnDepthAndAWhenAllPerRefinedOne) {
  if constexpr (Kokkos::Test::needs_device<TypeParam>) {
    GTEST_SKIP() << "the GPU's tree may differ by a contracted rounding";
  }
  const Problem p = uneven_problem();
  for (const int spawn_depth : {0, 3, 5, 24}) {
    const task_adaptive::TreeShape shape = task_adaptive::tree_shape(p, spawn_depth);
    Kokkos::Experimental::TaskDagStatistics statistics;
    (void)dag_integral<TypeParam>(p, spawn_depth, 1 << 22, statistics);
    EXPECT_EQ(statistics.tasks_spawned, shape.tasks) << spawn_depth;
    EXPECT_EQ(statistics.when_all_aggregates, shape.spawning_cells) << spawn_depth;
    EXPECT_EQ(statistics.respawns, shape.spawning_cells) << spawn_depth;
    EXPECT_EQ(statistics.spawn_failures, 0) << spawn_depth;
  }
  EXPECT_GT(task_adaptive::tree_shape(p, 24).tasks, 1000);
}

TYPED_TEST(TaskAdaptive, AFullPoolCostsParallelismNotTheAnswer) {
  // Pools of 4 to 8 KiB hold a few dozen of the DAG's 2,737 tasks at once: spawns and when_alls
  // fail, their cells are refined in place or their quadrants waited for one at a time.
  const Problem p = uneven_problem();
  const task_adaptive::TreeShape shape = task_adaptive::tree_shape(p, 24);
  long failures = 0, single_waits = 0;
  for (std::size_t kib = 4; kib <= 8; ++kib) {
    Kokkos::Experimental::TaskDagStatistics statistics;
    const double value = dag_integral<TypeParam>(p, 24, kib << 10, statistics);
    expect_same_integral<TypeParam>(value, shape.value, p, std::to_string(kib) + " KiB");
    failures += statistics.spawn_failures;
    // A respawn without a when_all of its own waits for one quadrant.
    single_waits += statistics.respawns - statistics.when_all_aggregates;
  }
  EXPECT_GT(failures, 0);
  if constexpr (!Kokkos::Test::needs_device<TypeParam>) {
    EXPECT_GT(single_waits, 0);
  }
}

TYPED_TEST(TaskAdaptive, BadProblemsThrowBeforeAnythingIsSpawned) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  S sched(typename S::memory_space(), 1 << 16, 64, 512, 1 << 14);
  EXPECT_THROW(task_adaptive::spawn_integral(sched, make_problem(1, 0.1, 0, 0, 4), 2), std::invalid_argument);
  EXPECT_THROW(task_adaptive::spawn_integral(sched, make_problem(1, 0.1, 1e-6, 0, 4), -1), std::invalid_argument);
  Kokkos::wait(sched);
  EXPECT_EQ(Kokkos::Experimental::task_dag_statistics(sched).tasks_spawned, 0);
  // No peaks: the integral is zero, from the root alone at spawn depth 0.
  Kokkos::Experimental::TaskDagStatistics statistics;
  EXPECT_EQ(dag_integral<TypeParam>(make_problem(0, 0.1, 1e-6, 0, 4), 0, 1 << 16, statistics), 0);
  EXPECT_EQ(statistics.tasks_spawned, 1);
}

}  // namespace

// The tiled Cholesky task DAG of example/task_cholesky.hpp on every back end, the GPU included
// (which skips, with the reason, where no GPU is visible): the factor against the serial tiled
// algorithm, as TaskTeam and as TaskSingle tasks, for tiles narrower and wider than a warp; the
// serial algorithm itself against known factors and against A; a full pool; bad shapes.
#include "TestCommon.hpp"

#include "../example/task_cholesky.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using task_cholesky::Tiles;

template <class Space>
struct TaskCholesky : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TaskCholesky, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

double max_difference(const std::vector<double>& x, const std::vector<double>& y) {
  double worst = 0;
  for (std::size_t e = 0; e < x.size(); ++e) worst = std::fmax(worst, std::fabs(x[e] - y[e]));
  return worst;
}

// How a test spawns the DAG: from the host, or by a CholeskyBuilder task.
enum class Spawner { host, builder };

// Spawns the DAG of `tiles` on `sched` as `spawner` says and waits; what the spawning returned
// (failure_text).  The builder's table is in `Space`'s memory.
template <class Space, class Scheduler>
std::string spawn_and_wait(const Scheduler& sched, const Tiles& tiles, bool team_tasks, Spawner spawner) {
  if (spawner == Spawner::host) {
    const std::string why = task_cholesky::spawn_cholesky(sched, tiles, team_tasks);
    Kokkos::wait(sched);
    return why;
  }
  const std::size_t words = (task_cholesky::builder_table_bytes<Scheduler>(tiles.nt) + 7) / 8;
  Kokkos::View<std::uint64_t*, typename Space::memory_space> table("builder table", words);
  auto built = Kokkos::host_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High),
                                  task_cholesky::CholeskyBuilder<Scheduler>{sched, tiles, table.data(), team_tasks});
  if (built.is_null()) return "the builder's spawn found the pool full";
  Kokkos::wait(sched);
  return task_cholesky::failure_text(built.get());
}

// The factor of spd_matrix(nt, b) by the task DAG on Space's scheduler, with the matrix in Space's
// memory; `why` is what the spawning returned.
template <class Space>
std::vector<double> dag_factor(int nt, int b, bool team_tasks, std::string& why, Spawner spawner = Spawner::host,
                               std::size_t pool_bytes = 1 << 22) {
  using S = Kokkos::TaskScheduler<Space>;
  const std::vector<double> a = task_cholesky::spd_matrix(nt, b);
  Kokkos::View<double*, typename Space::memory_space> m("tiles", a.size());
  Kokkos::deep_copy(m, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(a.data(), a.size()));
  {
    S sched(typename S::memory_space(), pool_bytes, 64, 512, pool_bytes < (1 << 16) ? pool_bytes : (1 << 16));
    why = spawn_and_wait<Space>(sched, Tiles{m.data(), nt, b}, team_tasks, spawner);
    EXPECT_EQ(sched.allocated_task_count(), 0);
  }
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
  return std::vector<double>(h.data(), h.data() + h.size());
}

std::vector<double> reference_factor(int nt, int b) {
  std::vector<double> l = task_cholesky::spd_matrix(nt, b);
  task_cholesky::reference_cholesky({l.data(), nt, b});
  return l;
}

// ---- the serial algorithm and the matrix ----------------------------------------------------------
TEST(TaskCholeskyReference, FactorsAKnownMatrix) {
  // [[4, 2], [2, 3]] = [[2, 0], [1, sqrt 2]] [[2, 1], [0, sqrt 2]], as 2 x 2 tiles of one element
  // and as one tile of 2 x 2.
  std::vector<double> tiled{4, 2, 2, 3};  // tiles (0,0), (0,1), (1,0), (1,1)
  task_cholesky::reference_cholesky({tiled.data(), 2, 1});
  EXPECT_DOUBLE_EQ(tiled[0], 2);
  EXPECT_DOUBLE_EQ(tiled[2], 1);
  EXPECT_DOUBLE_EQ(tiled[3], std::sqrt(2.0));
  EXPECT_EQ(tiled[1], 2);  // an upper tile is not touched
  std::vector<double> one{4, 2, 2, 3};
  task_cholesky::reference_cholesky({one.data(), 1, 2});
  EXPECT_DOUBLE_EQ(one[0], 2);
  EXPECT_DOUBLE_EQ(one[2], 1);
  EXPECT_DOUBLE_EQ(one[3], std::sqrt(2.0));
  EXPECT_EQ(one[1], 2);  // nor a diagonal tile's upper half
}

TEST(TaskCholeskyReference, TheFactorOfTheSameMatrixDoesNotDependOnTheTiles) {
  // 12 x 12 as 4 x 4 tiles of 3, 2 x 2 of 6 and 1 of 12: one global matrix, so one factor.
  const int n = 12;
  std::vector<std::vector<double>> dense;
  for (const int b : {3, 6, 12}) {
    const int nt = n / b;
    const std::vector<double> l = reference_factor(nt, b);
    std::vector<double> d(std::size_t(n) * n);
    const Tiles t{const_cast<double*>(l.data()), nt, b};
    for (int r = 0; r < n; ++r)
      for (int c = 0; c <= r; ++c) d[std::size_t(r) * n + c] = t.tile(r / b, c / b)[(r % b) * b + c % b];
    dense.push_back(d);
    EXPECT_LE(task_cholesky::max_residual(l, task_cholesky::spd_matrix(nt, b), nt, b), 1e-12) << b;
  }
  EXPECT_LE(max_difference(dense[0], dense[1]), 1e-13);
  EXPECT_LE(max_difference(dense[0], dense[2]), 1e-13);
}

TEST(TaskCholeskyReference, TheMatrixIsSymmetricAndDiagonallyDominant) {
  const int nt = 3, b = 4, n = nt * b;
  std::vector<double> a = task_cholesky::spd_matrix(nt, b);
  const Tiles t{a.data(), nt, b};
  const auto at = [&](int r, int c) { return t.tile(r / b, c / b)[(r % b) * b + c % b]; };
  for (int r = 0; r < n; ++r) {
    double off = 0;
    for (int c = 0; c < n; ++c) {
      EXPECT_EQ(at(r, c), at(c, r));
      if (c != r) {
        EXPECT_GE(at(r, c), 0);
        EXPECT_LT(at(r, c), 1);
        off += at(r, c);
      }
    }
    EXPECT_GT(at(r, r), off) << "row " << r;
  }
  EXPECT_NE(at(1, 0), at(2, 0));  // not a constant
}

TEST(TaskCholeskyReference, CountsAndBadShapes) {
  EXPECT_EQ(task_cholesky::task_count(0), 0);
  EXPECT_EQ(task_cholesky::task_count(1), 1);
  EXPECT_EQ(task_cholesky::task_count(2), 4);    // 2 POTRF, 1 TRSM, 1 SYRK
  EXPECT_EQ(task_cholesky::task_count(4), 20);   // 4 + 6 + 6 + 4
  EXPECT_EQ(task_cholesky::task_count(16), 816);
  EXPECT_DOUBLE_EQ(task_cholesky::flop_count(2, 3), 72);
  EXPECT_THROW(task_cholesky::spd_matrix(-1, 4), std::invalid_argument);
  EXPECT_THROW(task_cholesky::spd_matrix(2, 0), std::invalid_argument);
  EXPECT_TRUE(task_cholesky::spd_matrix(0, 4).empty());
}

// ---- the DAG -------------------------------------------------------------------------------------
TYPED_TEST(TaskCholesky, TeamTasksMatchTheSerialAlgorithm) {
  // b = 33: wider than a warp, so a GPU team's ranks take two rows or elements each.
  for (const auto& [nt, b] : std::vector<std::pair<int, int>>{{1, 1}, {3, 5}, {6, 8}, {4, 33}}) {
    std::string why;
    const std::vector<double> l = dag_factor<TypeParam>(nt, b, true, why);
    ASSERT_EQ(why, "");
    EXPECT_LE(max_difference(l, reference_factor(nt, b)), 1e-9) << nt << " tiles of " << b;
    EXPECT_LE(task_cholesky::max_residual(l, task_cholesky::spd_matrix(nt, b), nt, b), 1e-9) << nt << " tiles of " << b;
  }
}

TYPED_TEST(TaskCholesky, SingleTasksMatchTheSerialAlgorithm) {
  for (const auto& [nt, b] : std::vector<std::pair<int, int>>{{2, 3}, {7, 6}}) {
    std::string why;
    const std::vector<double> l = dag_factor<TypeParam>(nt, b, false, why);
    ASSERT_EQ(why, "");
    EXPECT_LE(max_difference(l, reference_factor(nt, b)), 1e-9) << nt << " tiles of " << b;
  }
}

TYPED_TEST(TaskCholesky, ABuilderTaskSpawnsTheSameDag) {
  for (const bool team_tasks : {true, false})
    for (const auto& [nt, b] : std::vector<std::pair<int, int>>{{1, 4}, {2, 3}, {5, 8}, {3, 33}}) {
      std::string why;
      const std::vector<double> l = dag_factor<TypeParam>(nt, b, team_tasks, why, Spawner::builder);
      ASSERT_EQ(why, "");
      EXPECT_LE(max_difference(l, reference_factor(nt, b)), 1e-9) << nt << " tiles of " << b << ", team " << team_tasks;
    }
}

TYPED_TEST(TaskCholesky, TheBuilderSpawnsAStepPerRunAndATaskPerRow) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  for (const int nt : {0, 1, 6}) {
    const int b = 2;
    Kokkos::View<double*, typename TypeParam::memory_space> m("tiles", std::size_t(nt) * nt * b * b);
    S sched(typename S::memory_space(), 1 << 20, 64, 512, 1 << 14);
    ASSERT_EQ(spawn_and_wait<TypeParam>(sched, Tiles{m.data(), nt, b}, true, Spawner::builder), "");
    const auto statistics = Kokkos::Experimental::task_dag_statistics(sched);
    // The tile tasks, the builder, and a row task per row below each step's panel.
    EXPECT_EQ(statistics.tasks_spawned, task_cholesky::task_count(nt) + 1 + nt * (nt - 1) / 2) << nt << " tiles";
    EXPECT_EQ(statistics.respawns, nt > 1 ? nt - 1 : 0) << nt << " tiles";
    EXPECT_EQ(sched.allocated_task_count(), 0);
  }
}

TYPED_TEST(TaskCholesky, SpawnsOneTaskPerTileOperation) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  const int nt = 5, b = 2;
  std::vector<double> a = task_cholesky::spd_matrix(nt, b);
  Kokkos::View<double*, typename TypeParam::memory_space> m("tiles", a.size());
  S sched(typename S::memory_space(), 1 << 20, 64, 512, 1 << 14);
  ASSERT_EQ(task_cholesky::spawn_cholesky(sched, Tiles{m.data(), nt, b}), "");
  Kokkos::wait(sched);
  const auto statistics = Kokkos::Experimental::task_dag_statistics(sched);
  EXPECT_EQ(statistics.tasks_spawned, task_cholesky::task_count(nt));
  // A when_all wherever a task reads two tiles already written: TRSM and SYRK after step 0
  // ((nt-1)(nt-2)/2 each), every GEMM (nt(nt-1)(nt-2)/6): 6 + 6 + 10.
  EXPECT_EQ(statistics.when_all_aggregates, 22);
}

TYPED_TEST(TaskCholesky, AFullPoolStopsTheSpawnsAndWhatWasSpawnedRuns) {
  // 12 x 12 tiles: 364 tasks and 341 when_alls, in a pool of 8 KiB; dag_factor checks that every
  // block came back.
  for (const Spawner spawner : {Spawner::host, Spawner::builder}) {
    std::string why;
    (void)dag_factor<TypeParam>(12, 2, true, why, spawner, 1 << 13);
    EXPECT_NE(why.find("pool full"), std::string::npos) << why;
  }
}

TYPED_TEST(TaskCholesky, AnEmptyMatrixSpawnsNothingAndABadShapeThrows) {
  using S = Kokkos::TaskScheduler<TypeParam>;
  S sched(typename S::memory_space(), 1 << 16, 64, 512, 1 << 14);
  EXPECT_EQ(task_cholesky::spawn_cholesky(sched, Tiles{nullptr, 0, 4}), "");
  Kokkos::wait(sched);
  EXPECT_EQ(Kokkos::Experimental::task_dag_statistics(sched).tasks_spawned, 0);
  EXPECT_THROW(task_cholesky::spawn_cholesky(sched, Tiles{nullptr, 2, 0}), std::invalid_argument);
  EXPECT_THROW(task_cholesky::spawn_cholesky(sched, Tiles{nullptr, -1, 4}), std::invalid_argument);
  // A builder cannot throw where it runs: it spawns nothing and its value says why.
  for (const Tiles bad : {Tiles{nullptr, 2, 0}, Tiles{nullptr, -1, 4}}) {
    EXPECT_EQ(spawn_and_wait<TypeParam>(sched, bad, true, Spawner::builder),
              task_cholesky::failure_text(task_cholesky::bad_shape));
  }
  EXPECT_EQ(Kokkos::Experimental::task_dag_statistics(sched).tasks_spawned, 2);  // the two builders
  EXPECT_EQ(sched.allocated_task_count(), 0);
}

TEST(TaskCholeskyReference, FailureTexts) {
  EXPECT_EQ(task_cholesky::failure_text(task_cholesky::spawned_all), "");
  EXPECT_EQ(task_cholesky::failure_text(task_cholesky::when_all_pool_full), "when_all found the pool full");
  EXPECT_EQ(task_cholesky::failure_text(task_cholesky::spawn_pool_full), "a spawn found the pool full");
  EXPECT_NE(task_cholesky::failure_text(task_cholesky::bad_shape).find("nt >= 0 and b >= 1"), std::string::npos);
  EXPECT_EQ(task_cholesky::failure_text(7), "unknown failure 7");
  using S = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;
  EXPECT_EQ(task_cholesky::builder_table_bytes<S>(3),  // a future per tile, and per row for the row tasks
            9 * sizeof(S::future_type<void>) + 3 * sizeof(S::future_type<int>));
  EXPECT_EQ(task_cholesky::builder_table_bytes<Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>>(-2), 0u);
}

}  // namespace

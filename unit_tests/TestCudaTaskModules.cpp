// TaskScheduler<Cuda> across translation units without relocatable device code: each unit
// spawns and waits with its own kernel and entry points, and a task spawned in one unit that
// reaches another unit's kernel stops wait() with a message instead of a call into the other
// module's code.  CUDA builds only; skips, with the reason, without a GPU.
#include "TestCommon.hpp"

#include "CudaTaskModules.hpp"

namespace {

using kdag_test::CudaScheduler;
using kdag_test::SquareTask;

CudaScheduler make_scheduler() { return CudaScheduler(CudaScheduler::memory_space(), 1 << 16, 64, 256, 1 << 12); }

TEST(CudaTaskModules, EachUnitSpawnsAndWaitsWithItsOwnKernel) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  CudaScheduler sched = make_scheduler();
  auto here = Kokkos::host_spawn(Kokkos::TaskSingle(sched), SquareTask{7});
  ASSERT_FALSE(here.is_null());
  Kokkos::wait(sched);
  EXPECT_EQ(here.get(), 49);
  auto there = kdag_test::spawn_square_in_other_unit(sched, 9);
  ASSERT_FALSE(there.is_null());
  kdag_test::wait_in_other_unit(sched);
  EXPECT_EQ(there.get(), 81);
}

using CudaTaskModulesDeathTest = ::testing::Test;

TEST(CudaTaskModulesDeathTest, TaskOfAnotherUnitStopsWaitWithAMessage) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  EXPECT_DEATH(
      {
        CudaScheduler sched = make_scheduler();
        auto there = kdag_test::spawn_square_in_other_unit(sched, 3);
        Kokkos::wait(sched);  // this unit's kernel
      },
      "reached the scheduler's kernel of another");
}

}  // namespace

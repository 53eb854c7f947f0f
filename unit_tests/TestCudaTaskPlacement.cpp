// TaskScheduler<Cuda>'s wait() moves the pool blocks host code wrote (its spawns, the blocks its
// released futures freed) to the GPU before the workers start, where the device can take managed
// memory ahead of use.  Placed or not, a DAG spawned from the host gives the same results, round
// after round (the later rounds reuse blocks the host freed), a run forgets what it placed, and the
// pool's own words and the queue object go with the blocks.
// CUDA builds only; the tests skip, with the reason, without a GPU.
#include "TestCommon.hpp"

#include <string>
#include <vector>

namespace {

using Scheduler = Kokkos::TaskScheduler<Kokkos::Cuda>;
constexpr int grid = 24;  // a grid x grid wavefront: every task waits for its left and upper neighbours

// Cell (i,j) of the wavefront: its upper and left neighbours' values, plus a salt, modulo a prime.
struct Cell {
  long* values;  // grid x grid, in device memory
  int i, j;
  long salt;

  KOKKOS_INLINE_FUNCTION void operator()(Scheduler::member_type&) const {
    const long up = i > 0 ? values[(i - 1) * grid + j] : 1;
    const long left = j > 0 ? values[i * grid + j - 1] : 1;
    values[i * grid + j] = (up * 3 + left * 7 + salt + i * grid + j) % 1000003;
  }
};

std::vector<long> serial_wavefront(long salt) {
  std::vector<long> v(std::size_t(grid) * grid);
  for (int i = 0; i < grid; ++i)
    for (int j = 0; j < grid; ++j) {
      const long up = i > 0 ? v[std::size_t((i - 1) * grid + j)] : 1;
      const long left = j > 0 ? v[std::size_t(i * grid + j - 1)] : 1;
      v[std::size_t(i * grid + j)] = (up * 3 + left * 7 + salt + i * grid + j) % 1000003;
    }
  return v;
}

// Spawns the wavefront from the host, every cell behind a when_all of its neighbours; the
// futures stay with the caller.
std::vector<Scheduler::future_type<void>> spawn_wavefront(const Scheduler& sched, long* values, long salt) {
  std::vector<Scheduler::future_type<void>> f(std::size_t(grid) * grid);
  for (int i = 0; i < grid; ++i)
    for (int j = 0; j < grid; ++j) {
      Scheduler::future_type<void> dep;
      if (i > 0 && j > 0) {
        const Scheduler::future_type<void> pred[2] = {f[std::size_t((i - 1) * grid + j)], f[std::size_t(i * grid + j - 1)]};
        dep = Kokkos::when_all(pred, 2);
      } else if (i > 0 || j > 0) {
        dep = i > 0 ? f[std::size_t((i - 1) * grid + j)] : f[std::size_t(j - 1)];
      }
      f[std::size_t(i * grid + j)] = Kokkos::host_spawn(Kokkos::TaskSingle(sched, dep), Cell{values, i, j, salt});
    }
  return f;
}

bool device_takes_managed_memory_ahead() {
  int device = 0, concurrent = 0;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetDevice(&device));
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
  return concurrent != 0;
}

TEST(CudaTaskPlacement, OnWhereTheDeviceAllowsIt) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  Scheduler sched(Scheduler::memory_space(), 1 << 20, 64, 1024, 4096);
  EXPECT_EQ(sched.queue().m_place_host_writes, device_takes_managed_memory_ahead());
}

TEST(CudaTaskPlacement, HostSpawnedDagGivesTheSameResultsPlacedOrNot) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  for (bool place : {true, false}) {
    Scheduler sched(Scheduler::memory_space(), 1 << 22, 64, 1024, 4096);
    sched.queue().m_place_host_writes = place && sched.queue().m_place_host_writes;
    Kokkos::View<long*, Kokkos::CudaSpace> values("values", std::size_t(grid) * grid);
    for (long salt : {0L, 11L, 12345L}) {
      const std::string where = std::string(place ? "placed" : "not placed") + ", salt " + std::to_string(salt);
      Kokkos::deep_copy(values, -1L);
      auto futures = spawn_wavefront(sched, values.data(), salt);
      for (const auto& f : futures) ASSERT_FALSE(f.is_null()) << where;
      EXPECT_FALSE(sched.queue().m_host_written.empty()) << where << ": the spawns were not recorded";
      Kokkos::wait(sched);
      EXPECT_TRUE(sched.queue().m_host_written.empty()) << where << ": the run kept what it took";
      for (const auto& f : futures) EXPECT_TRUE(f.impl_get_task()->is_complete()) << where;
      std::vector<long> got(std::size_t(grid) * grid);
      Kokkos::deep_copy(Kokkos::View<long*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(got.data(), got.size()), values);
      EXPECT_EQ(got, serial_wavefront(salt)) << where;
      futures.clear();  // the host frees the blocks: the next round's spawns reuse them
      EXPECT_EQ(sched.queue().allocation_count(), 0) << where;
      EXPECT_FALSE(sched.queue().m_host_written.empty()) << where << ": the host's frees were not recorded";
    }
  }
}

// Where the device takes managed memory ahead of use, a run after host spawns leaves the pool's
// own words (the states the spawns' allocations wrote) and the queue object last sent to the GPU.
TEST(CudaTaskPlacement, ThePoolsOwnWordsAndTheQueueGoToo) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  if (!device_takes_managed_memory_ahead()) GTEST_SKIP() << "the device does not take managed memory ahead of use";
  Scheduler sched(Scheduler::memory_space(), 1 << 22, 64, 1024, 4096);
  ASSERT_TRUE(sched.queue().m_place_host_writes);
  Kokkos::View<long*, Kokkos::CudaSpace> values("values", std::size_t(grid) * grid);
  auto futures = spawn_wavefront(sched, values.data(), 5);
  Kokkos::wait(sched);
  int device = 0, words_at = -2, queue_at = -2;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetDevice(&device));
  const auto [words, bytes] = sched.queue().m_pool.impl_bookkeeping();
  ASSERT_NE(bytes, 0u);
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemRangeGetAttribute(&words_at, sizeof(words_at), cudaMemRangeAttributeLastPrefetchLocation,
                                                      words, bytes));
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemRangeGetAttribute(&queue_at, sizeof(queue_at), cudaMemRangeAttributeLastPrefetchLocation,
                                                      &sched.queue(), sizeof(sched.queue())));
  EXPECT_EQ(words_at, device);
  EXPECT_EQ(queue_at, device);
}

}  // namespace

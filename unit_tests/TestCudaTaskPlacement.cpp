// TaskScheduler<Cuda>'s wait() moves the pool blocks host code wrote (its spawns, the blocks its
// released futures freed) to the GPU before the workers start, where the device can take managed
// memory ahead of use.  Placed or not, a DAG spawned from the host gives the same results, round
// after round (the later rounds reuse blocks the host freed), a run forgets what it placed, and the
// pool's own words and the queue object go with the blocks.  With
// Experimental::set_task_worker_memory(sched, CudaSpace()), what the workers spawn is in device
// memory, the host's spawns stay managed, and each pool bounds its own spawns.
// CUDA builds only; the tests skip, with the reason, without a GPU.
#include "TaskFibonacci.hpp"
#include "TaskSpawnUntilFull.hpp"
#include "TestCommon.hpp"

#include <cstdint>
#include <stdexcept>
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

// ---- the workers' pool in device memory ---------------------------------------------------------
// Writes the address of its own closure, which lies in its pool block.
struct WriteOwnAddress {
  std::uintptr_t* out;
  KOKKOS_INLINE_FUNCTION void operator()(Scheduler::member_type&) const { *out = reinterpret_cast<std::uintptr_t>(this); }
};
// Writes its closure's address to out[0] and spawns a child that writes its own to out[1].
struct WriteAddressesOfParentAndChild {
  Scheduler sched;
  std::uintptr_t* out;
  KOKKOS_INLINE_FUNCTION void operator()(Scheduler::member_type&) const {
    out[0] = reinterpret_cast<std::uintptr_t>(this);
    (void)Kokkos::task_spawn(Kokkos::TaskSingle(sched), WriteOwnAddress{out + 1});
  }
};

cudaMemoryType memory_type_of(std::uintptr_t address) {
  cudaPointerAttributes attributes{};
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaPointerGetAttributes(&attributes, reinterpret_cast<const void*>(address)));
  return attributes.type;
}

TEST(CudaTaskPlacement, WhatTheWorkersSpawnIsInDeviceMemoryWhenSet) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  Scheduler sched(Scheduler::memory_space(), 1 << 22, 64, 1024, 4096);
  EXPECT_FALSE(Kokkos::Experimental::task_worker_memory_is_device(sched));
  Kokkos::View<std::uintptr_t[2], Kokkos::CudaSpace> addresses("addresses");
  for (bool device : {true, false, true}) {
    const std::string where = device ? "device memory" : "managed memory";
    if (device) {
      Kokkos::Experimental::set_task_worker_memory(sched, Kokkos::CudaSpace());
    } else {
      Kokkos::Experimental::set_task_worker_memory(sched, Kokkos::CudaUVMSpace());
    }
    EXPECT_EQ(Kokkos::Experimental::task_worker_memory_is_device(sched), device) << where;
    Kokkos::deep_copy(addresses, std::uintptr_t(0));
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), WriteAddressesOfParentAndChild{sched, addresses.data()});
    ASSERT_FALSE(f.is_null()) << where;
    Kokkos::wait(sched);
    const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), addresses);
    ASSERT_NE(got(0), 0u) << where;
    ASSERT_NE(got(1), 0u) << where << ": the child was not spawned";
    EXPECT_EQ(memory_type_of(got(0)), cudaMemoryTypeManaged) << where << ": the host's spawn";
    EXPECT_EQ(memory_type_of(got(1)), device ? cudaMemoryTypeDevice : cudaMemoryTypeManaged) << where;

    auto fib = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Kokkos::Test::TaskFibonacci<Scheduler>(sched, 20));
    ASSERT_FALSE(fib.is_null()) << where;
    Kokkos::wait(sched);
    EXPECT_EQ(fib.get(), Kokkos::Test::serial_fibonacci(20)) << where;
    f = {};
    fib = {};
    EXPECT_EQ(sched.allocated_task_count(), 0) << where;
  }
}

// The workers' pool has the scheduler pool's sizes and bounds the workers' spawns on its own: the
// spawner (a host spawn) is in the scheduler's pool, its gate and children fill the other.
TEST(CudaTaskPlacement, TheWorkersPoolBoundsTheirSpawnsOnItsOwn) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  using Spawner = Kokkos::Test::SpawnUntilFull<Scheduler>;
  for (bool device : {false, true}) {
    // 64 KiB of 128-byte blocks: 512 blocks in each pool.
    Scheduler sched(Scheduler::memory_space(), 1 << 16, 128, 128, 1 << 12);
    if (device) Kokkos::Experimental::set_task_worker_memory(sched, Kokkos::CudaSpace());
    Kokkos::View<int, Kokkos::CudaUVMSpace> done("spawner_done");
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Spawner{sched, done.data()});
    ASSERT_FALSE(f.is_null());
    Kokkos::wait(sched);
    ASSERT_NE(f.get(), Spawner::never_ran_out);
    ASSERT_NE(f.get(), Spawner::gate_failed);
    EXPECT_EQ(f.get(), device ? 511 : 510) << (device ? "device memory" : "one pool");
    f = {};
    EXPECT_EQ(sched.allocated_task_count(), 0);
  }
}

TEST(CudaTaskPlacement, TheWorkersMemoryChangesOnlyWhileNoTaskIsAlive) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  Scheduler sched(Scheduler::memory_space(), 1 << 20, 64, 1024, 4096);
  Kokkos::View<std::uintptr_t[2], Kokkos::CudaSpace> addresses("addresses");
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), WriteAddressesOfParentAndChild{sched, addresses.data()});
  ASSERT_FALSE(f.is_null());
  EXPECT_THROW(Kokkos::Experimental::set_task_worker_memory(sched, Kokkos::CudaSpace()), std::runtime_error);
  EXPECT_FALSE(Kokkos::Experimental::task_worker_memory_is_device(sched));
  Kokkos::wait(sched);
  EXPECT_THROW(Kokkos::Experimental::set_task_worker_memory(sched, Kokkos::CudaSpace()), std::runtime_error)
      << "the future still holds the task";
  f = {};
  Kokkos::Experimental::set_task_worker_memory(sched, Kokkos::CudaSpace());
  EXPECT_TRUE(Kokkos::Experimental::task_worker_memory_is_device(sched));
  f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), WriteAddressesOfParentAndChild{sched, addresses.data()});
  EXPECT_THROW(Kokkos::Experimental::set_task_worker_memory(sched, Kokkos::CudaUVMSpace()), std::runtime_error);
  EXPECT_TRUE(Kokkos::Experimental::task_worker_memory_is_device(sched));
  Kokkos::wait(sched);
  f = {};
  Kokkos::Experimental::set_task_worker_memory(sched, Kokkos::CudaUVMSpace());
  EXPECT_FALSE(Kokkos::Experimental::task_worker_memory_is_device(sched));

  Scheduler no_pool{Scheduler::memory_pool()};
  EXPECT_THROW(Kokkos::Experimental::set_task_worker_memory(no_pool, Kokkos::CudaSpace()), std::runtime_error);
}

}  // namespace

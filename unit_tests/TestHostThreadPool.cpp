// The Threads back end's persistent pool: every launch reaches every worker exactly once,
// nested launches and launches racing from several host threads run inline, parking and
// waking survive idle gaps, and results are visible to the caller after the join.
#include "TestCommon.hpp"
#include <Host/Kokkos_HostThreadPool.hpp>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

namespace {

using Kokkos::Impl::HostThreadPool;

TEST(HostThreadPool, EveryWorkerRunsEachLaunchOnce) {
  for (int size : {1, 2, 3, 5}) {
    HostThreadPool pool(size, false);
    ASSERT_EQ(pool.size(), size);
    std::vector<int> hits(size, 0);
    for (int launch = 1; launch <= 500; ++launch) {
      pool.run([&](int rank, int n) {
        ASSERT_EQ(n, size);
        ASSERT_EQ(HostThreadPool::current_rank(), rank);
        ++hits[rank];  // each rank writes only its own slot; the join publishes it
      });
      for (int r = 0; r < size; ++r) ASSERT_EQ(hits[r], launch) << "rank " << r << " size " << size;
    }
    EXPECT_EQ(HostThreadPool::current_rank(), -1);
  }
}

TEST(HostThreadPool, NestedLaunchRunsInline) {
  HostThreadPool pool(2, false);
  std::atomic<int> inner_calls{0};
  pool.run([&](int, int) {
    pool.run([&](int rank, int size) {
      EXPECT_EQ(rank, 0);
      EXPECT_EQ(size, 1);
      ++inner_calls;
    });
  });
  EXPECT_EQ(inner_calls.load(), 2);
}

TEST(HostThreadPool, ConcurrentCallersAreSerialisedOrInlined) {
  HostThreadPool pool(2, false);
  constexpr int callers = 4, launches = 500;
  std::atomic<long> total{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < callers; ++c) {
    threads.emplace_back([&] {
      for (int k = 0; k < launches; ++k) {
        std::atomic<int> ranks_seen{0};
        int expected = 0;
        pool.run([&](int rank, int size) {
          if (rank == 0) expected = size;  // the join publishes it to this thread
          ++ranks_seen;
        });
        ASSERT_EQ(ranks_seen.load(), expected);
        total += ranks_seen.load();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_GE(total.load(), static_cast<long>(callers) * launches);
}

TEST(HostThreadPool, WakesAfterWorkersParked) {
  HostThreadPool pool(2, false);
  std::mt19937 rng(12345);
  for (int k = 0; k < 20; ++k) {
    // Long enough for the workers to give up spinning and park.
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % 3000));
    std::atomic<int> count{0};
    pool.run([&](int, int) { ++count; });
    ASSERT_EQ(count.load(), 2);
  }
}

// A pool destroyed while its workers spin or after they parked joins them; every run before
// that reaches each rank exactly once.
TEST(HostThreadPool, DestroyWhileParkedOrSpinning) {
  for (int k = 0; k < 50; ++k) {
    std::atomic<int> ranks_seen{0}, calls{0};
    {
      HostThreadPool pool(3, false);
      pool.run([&](int rank, int size) {
        EXPECT_EQ(size, 3);
        ranks_seen.fetch_or(1 << rank);
        ++calls;
      });
      ASSERT_EQ(ranks_seen.load(), 0b111);
      if (k % 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_EQ(calls.load(), 3) << "a worker ran after the pool was destroyed";
  }
}

#if defined(KOKKOS_ENABLE_THREADS)
TEST(ThreadsBackEnd, RunsOnTheConfiguredPool) {
  EXPECT_EQ(Kokkos::Threads().impl_thread_pool_size(), Kokkos::Threads::concurrency());
  EXPECT_FALSE(Kokkos::Threads::in_parallel());
  std::atomic<int> inside{0};
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Threads>(0, 100), [&](std::int64_t) {
    if (Kokkos::Threads::in_parallel()) ++inside;
  });
  EXPECT_EQ(inside.load(), 100);
}
#endif

}  // namespace

// Impl::HostThreadPool (the Threads back end's fork/join) and Impl::CapturedFunctor: every rank
// runs exactly once per launch whether the body travels in the launch line or by address,
// nested and concurrent launches run inline, an exception from rank 0 leaves the pool usable,
// and pools of many sizes survive random interleavings of launches, parking and destruction.
#include "TestCommon.hpp"

#include <Host/Kokkos_HostThreadPool.hpp>
#include <impl/Kokkos_LocalFunctorCopy.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using Kokkos::Impl::CapturedFunctor;
using Kokkos::Impl::HostThreadPool;

// A body whose size is chosen by the test: Pad bytes of payload, read by every rank.
template <std::size_t Pad>
struct PaddedBody {
  std::atomic<int>* counts;
  std::array<unsigned char, Pad> payload;
  void operator()(int rank, int size) const {
    int sum = 0;
    for (unsigned char c : payload) sum += c;
    counts[rank].fetch_add(sum == static_cast<int>(Pad) ? 1 : 1000, std::memory_order_relaxed);
    if (size < 1) counts[0].fetch_add(1000000);
  }
};

template <std::size_t Pad>
void expect_every_rank_once(HostThreadPool& pool, int launches) {
  std::vector<std::atomic<int>> counts(static_cast<std::size_t>(pool.size()));
  PaddedBody<Pad> body{counts.data(), {}};
  body.payload.fill(1);
  for (int i = 0; i < launches; ++i) pool.run(body);
  for (int r = 0; r < pool.size(); ++r) EXPECT_EQ(counts[static_cast<std::size_t>(r)].load(), launches) << "rank " << r;
}

TEST(HostThreadPool, SmallTriviallyCopyableBodiesTravelInTheLaunchLine) {
  EXPECT_TRUE(HostThreadPool::travels_in_line<PaddedBody<8>>());
  EXPECT_TRUE(HostThreadPool::travels_in_line<PaddedBody<HostThreadPool::inline_body_bytes - sizeof(void*)>>());
  EXPECT_FALSE(HostThreadPool::travels_in_line<PaddedBody<HostThreadPool::inline_body_bytes>>());
  auto by_reference = [v = std::vector<int>(3)](int, int) { (void)v; };
  EXPECT_FALSE(HostThreadPool::travels_in_line<decltype(by_reference)>());
  struct NoCopy {
    int x;
    NoCopy(const NoCopy&) = delete;
    void operator()(int, int) const {}
  };
  EXPECT_FALSE(HostThreadPool::travels_in_line<NoCopy>());
}

TEST(HostThreadPool, EveryRankRunsOncePerLaunchForInlineAndAddressedBodies) {
  for (int size : {1, 2, 3, 5}) {
    HostThreadPool pool(size, false);
    ASSERT_EQ(pool.size(), size);
    expect_every_rank_once<1>(pool, 200);
    expect_every_rank_once<HostThreadPool::inline_body_bytes - sizeof(void*)>(pool, 200);
    expect_every_rank_once<200>(pool, 200);
  }
}

TEST(HostThreadPool, SizeBelowOneIsOne) {
  HostThreadPool pool(0, false);
  EXPECT_EQ(pool.size(), 1);
  int calls = 0;
  pool.run([&](int rank, int size) {
    EXPECT_EQ(rank, 0);
    EXPECT_EQ(size, 1);
    ++calls;
  });
  EXPECT_EQ(calls, 1);
}

TEST(HostThreadPool, RanksAndCurrentRankInsideALaunch) {
  HostThreadPool pool(4, false);
  EXPECT_EQ(HostThreadPool::current_rank(), -1);
  std::array<std::atomic<int>, 4> seen{};
  pool.run([&](int rank, int size) {
    EXPECT_EQ(size, 4);
    EXPECT_EQ(HostThreadPool::current_rank(), rank);
    seen[static_cast<std::size_t>(rank)].fetch_add(1);
  });
  for (auto& s : seen) EXPECT_EQ(s.load(), 1);
  EXPECT_EQ(HostThreadPool::current_rank(), -1);
}

TEST(HostThreadPool, NestedLaunchRunsInlineOnTheCallingWorker) {
  HostThreadPool pool(3, false);
  std::atomic<int> inner{0};
  pool.run([&](int rank, int) {
    pool.run([&](int inner_rank, int inner_size) {
      EXPECT_EQ(inner_rank, 0);
      EXPECT_EQ(inner_size, 1);
      inner.fetch_add(1);
    });
    EXPECT_EQ(HostThreadPool::current_rank(), rank);
  });
  EXPECT_EQ(inner.load(), 3);
}

TEST(HostThreadPool, ExceptionFromRankZeroIsRethrownAndThePoolStaysUsable) {
  HostThreadPool pool(3, false);
  std::atomic<int> workers_ran{0};
  EXPECT_THROW(pool.run([&](int rank, int) {
    if (rank == 0) throw std::runtime_error("rank 0");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    workers_ran.fetch_add(1);
  }),
               std::runtime_error);
  // rethrown only after both workers finished their share
  EXPECT_EQ(workers_ran.load(), 2);
  EXPECT_EQ(HostThreadPool::current_rank(), -1);
  expect_every_rank_once<4>(pool, 50);
}

TEST(HostThreadPool, ParkedWorkersWakeForTheNextLaunchAndForDestruction) {
  HostThreadPool pool(3, false);
  expect_every_rank_once<4>(pool, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // long past the spin: parked
  expect_every_rank_once<4>(pool, 3);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

TEST(HostThreadPool, ConcurrentLaunchesFromManyHostThreadsStress) {
  HostThreadPool pool(3, false);
  constexpr int callers = 6, launches = 300;
  std::atomic<long> total{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < callers; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(static_cast<unsigned>(t));
      for (int i = 0; i < launches; ++i) {
        std::atomic<int> ranks{0};
        std::atomic<int> size_seen{0};
        pool.run([&](int, int size) {
          ranks.fetch_add(1);
          size_seen.store(size);  // every rank of one launch stores the same value
        });
        const int expected_size = size_seen.load();
        // Either the whole pool ran it (size 3) or this thread ran it inline (size 1).
        EXPECT_EQ(ranks.load(), expected_size);
        total.fetch_add(ranks.load());
        if (rng() % 8 == 0) std::this_thread::yield();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_GE(total.load(), callers * launches);
}

TEST(HostThreadPool, RandomLaunchesParkingAndDestructionStress) {
  std::mt19937 rng(42);
  for (int round = 0; round < 20; ++round) {
    auto pool = std::make_unique<HostThreadPool>(1 + static_cast<int>(rng() % 4), false);
    const int launches = static_cast<int>(rng() % 50);
    for (int i = 0; i < launches; ++i) {
      switch (rng() % 3) {
        case 0: expect_every_rank_once<2>(*pool, 1); break;
        case 1: expect_every_rank_once<120>(*pool, 1); break;
        default: std::this_thread::sleep_for(std::chrono::microseconds(rng() % 2000)); break;
      }
    }
  }
}

// run(body, after): each rank leaves rank * 10 + 1 at current_result().
void expect_results_in_rank_order(HostThreadPool& pool) {
  int after_calls = 0;
  pool.run(
      [](int rank, int) {
        ASSERT_NE(HostThreadPool::current_result(), nullptr);
        ::new (HostThreadPool::current_result()) int(rank * 10 + 1);
      },
      [&](int size, void* const* results) {
        ++after_calls;
        EXPECT_EQ(size, pool.size());
        for (int r = 0; r < size; ++r) EXPECT_EQ(*static_cast<const int*>(results[r]), r * 10 + 1) << "rank " << r;
      });
  EXPECT_EQ(after_calls, 1);
}

TEST(HostThreadPool, RunWithAfterHandsBackEachRanksResult) {
  EXPECT_EQ(HostThreadPool::current_result(), nullptr);
  for (int size : {1, 2, 4}) {
    HostThreadPool pool(size, false);
    for (int i = 0; i < 100; ++i) expect_results_in_rank_order(pool);
  }
  EXPECT_EQ(HostThreadPool::current_result(), nullptr);
}

TEST(HostThreadPool, RunAloneGivesOneResultOnTheCallingThread) {
  int seen = -1;
  HostThreadPool::run_alone([](int rank, int size) { ::new (HostThreadPool::current_result()) int(rank + size * 100); },
                            [&](int size, void* const* results) {
                              EXPECT_EQ(size, 1);
                              seen = *static_cast<const int*>(results[0]);
                            });
  EXPECT_EQ(seen, 100);
  EXPECT_EQ(HostThreadPool::current_result(), nullptr);
}

TEST(HostThreadPool, NestedRunWithAfterRunsAloneAndKeepsTheOuterResultArea) {
  HostThreadPool pool(3, false);
  std::atomic<int> inner_ok{0};
  pool.run(
      [&](int rank, int) {
        void* const outer = HostThreadPool::current_result();
        pool.run([](int, int) { ::new (HostThreadPool::current_result()) int(7); },
                 [&](int size, void* const* results) {
                   if (size == 1 && *static_cast<const int*>(results[0]) == 7) inner_ok.fetch_add(1);
                 });
        EXPECT_EQ(HostThreadPool::current_result(), outer);
        ::new (outer) int(rank);
      },
      [&](int size, void* const* results) {
        for (int r = 0; r < size; ++r) EXPECT_EQ(*static_cast<const int*>(results[r]), r);
      });
  EXPECT_EQ(inner_ok.load(), 3);
}

TEST(HostThreadPool, ExceptionFromAfterLeavesThePoolUsable) {
  HostThreadPool pool(2, false);
  EXPECT_THROW(pool.run([](int, int) {}, [](int, void* const*) { throw std::runtime_error("after"); }),
               std::runtime_error);
  expect_results_in_rank_order(pool);
}

TEST(HostThreadPool, ConcurrentRunsWithAfterStress) {
  HostThreadPool pool(3, false);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        const int tag = t * 100000 + i;
        pool.run([tag](int rank, int) { ::new (HostThreadPool::current_result()) int(tag + rank); },
                 [&](int size, void* const* results) {
                   for (int r = 0; r < size; ++r) {
                     if (*static_cast<const int*>(results[r]) != tag + r) wrong.fetch_add(1);
                   }
                 });
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

#if defined(KOKKOS_ENABLE_THREADS) && defined(KOKKOS_ENABLE_SERIAL)
// The Threads reduction hands each worker's value back in its finished line; joined in rank
// order it gives the bits of the same blocks reduced one after the other on this thread.
TEST(HostThreadPool, ThreadsReductionThroughWorkerLinesMatchesTheSequentialStandInBitwise) {
  static_assert(Kokkos::Impl::HostWorkerResults<Kokkos::Threads, double>);
  const Kokkos::Threads space;
  for (long n : {1L, 2L, 3L, 100L, 10007L, 200003L}) {
    double parallel = 0;
    Kokkos::parallel_reduce(
        Kokkos::RangePolicy<Kokkos::Threads>(space, 0, n), [](long i, double& s) { s += 1.0 / double(i + 1); },
        parallel);
    double sequential = 0;
    const Kokkos::Impl::HostSequentialWorkers<Kokkos::Threads> workers{space};
    std::vector<double> shares(static_cast<std::size_t>(space.impl_thread_pool_size()), 0.0);
    workers.impl_run_on_workers([&](int rank, int size) {
      const auto block = Kokkos::Impl::range_block(0L, n, rank, size);
      double acc = 0;
      Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Serial>(block.begin, block.end),
                              [](long i, double& s) { s += 1.0 / double(i + 1); }, acc);
      shares[static_cast<std::size_t>(rank)] = acc;
    });
    for (double share : shares) sequential += share;
    EXPECT_EQ(parallel, sequential) << "n = " << n;
  }
}
#endif

struct SmallFunctor {
  int a, b;
  int operator()() const { return a + b; }
};
struct LargeFunctor {
  double v[8];
};

TEST(CapturedFunctor, HoldsACopyOfSmallTriviallyCopyableFunctorsAndTheAddressOfOthers) {
  SmallFunctor small{2, 3};
  const CapturedFunctor<SmallFunctor> held(small);
  EXPECT_TRUE(decltype(held)::holds_copy);
  small.a = 100;  // a copy: later changes to the original are not seen
  EXPECT_EQ(held.get()(), 5);
  EXPECT_NE(&held.get(), &small);

  LargeFunctor large{};
  const CapturedFunctor<LargeFunctor> by_address(large);
  EXPECT_FALSE(decltype(by_address)::holds_copy);
  EXPECT_EQ(&by_address.get(), &large);

  Kokkos::View<int*, Kokkos::HostSpace> view("v", 1);
  auto with_view = KOKKOS_LAMBDA(int) { (void)view; };
  const CapturedFunctor<decltype(with_view)> view_functor(with_view);
  EXPECT_FALSE(decltype(view_functor)::holds_copy);  // a View's copy counts a reference
  EXPECT_EQ(&view_functor.get(), &with_view);
}

TEST(CapturedFunctor, RangeLaunchesWithCopiedAndAddressedFunctorsAgree) {
  constexpr int n = 1000;
  Kokkos::View<int*, Kokkos::HostSpace> out("out", n);
  int* raw = out.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, n),
                       [raw](int i) { raw[i] = 2 * i; });  // by value
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, n),
                       KOKKOS_LAMBDA(int i) { out(i) += 1; });  // by address
  for (int i = 0; i < n; ++i) ASSERT_EQ(out(i), 2 * i + 1);
}

}  // namespace

// The pool's first tests: launches, nesting, racing callers, parking, destruction, and the
// Threads back end on its configured pool.
namespace first_tests {

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

}  // namespace first_tests

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

  Kokkos::View<int*> view("v", 1);
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

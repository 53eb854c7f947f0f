// Impl::DeviceTaskIdleWorkers, the idle count, start count and wake tokens of the GPU scheduler's
// workers: tokens only while a worker is counted, each taken once; a finished DAG wakes every
// worker that started; "every started worker is counted" is never seen while a started worker is
// out of the count, with host threads starting, entering and leaving at once.
#include <impl/tasking/Kokkos_DeviceTaskIdleWorkers.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

namespace {

using Kokkos::Impl::DeviceTaskIdleWorkers;

TEST(DeviceTaskIdleWorkers, CountsAndTokensStepByStep) {
  DeviceTaskIdleWorkers idle;
  idle.begin_run();
  EXPECT_FALSE(idle.any_counted());
  idle.wake(4);
  EXPECT_FALSE(idle.take_token()) << "nobody counted: nobody to wake";
  for (int i = 0; i < 3; ++i) idle.start();
  EXPECT_FALSE(idle.all_counted());
  idle.enter();
  idle.enter();
  EXPECT_TRUE(idle.any_counted());
  EXPECT_FALSE(idle.all_counted()) << "one started worker is out of the count";
  idle.enter();
  EXPECT_TRUE(idle.all_counted());
  idle.wake(0);
  EXPECT_FALSE(idle.take_token()) << "no task, no token";
  idle.wake(2);
  EXPECT_TRUE(idle.take_token());
  EXPECT_TRUE(idle.take_token());
  EXPECT_FALSE(idle.take_token()) << "a token is taken once";
  idle.start();  // a worker of the launch that starts late
  EXPECT_FALSE(idle.all_counted());
  idle.enter();
  EXPECT_TRUE(idle.all_counted());
  idle.leave();
  EXPECT_FALSE(idle.all_counted());
  idle.wake_all();
  EXPECT_EQ(idle.m_tokens, 4) << "one per worker that started";
  for (int i = 0; i < 3; ++i) idle.leave();
  EXPECT_FALSE(idle.any_counted());
  idle.begin_run();
  EXPECT_EQ(idle.m_counted, 0);
  EXPECT_EQ(idle.m_started, 0);
  EXPECT_FALSE(idle.take_token());
}

// Threads start at random moments and go in and out of the count; an observer that sees
// all_counted() must not have seen, around that call, a started thread stay out of the count.
// A thread's phase is odd while it is out of the count (set after leave() or start(), cleared
// before enter()); a thread whose odd phase did not change from before the call to after it was
// out of the count for the whole call.
TEST(DeviceTaskIdleWorkers, AllCountedNeverWhileAStartedWorkerIsOut) {
  constexpr int threads = 8;
  for (int round = 0; round < 6; ++round) {
    DeviceTaskIdleWorkers idle;
    idle.begin_run();
    std::vector<std::atomic<std::uint32_t>> phase(threads);
    for (auto& p : phase) p.store(0);
    std::atomic<bool> done{false};
    std::atomic<int> violations{0}, seen_all{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        std::mt19937 rng{std::uint32_t(round * 131 + t)};
        for (int k = int(rng() % 2000); k > 0; --k) std::this_thread::yield();  // start late, or not
        idle.start();
        phase[t].store(1);
        for (int i = 0; i < 3000; ++i) {
          phase[t].fetch_add(1);  // even: about to be counted
          idle.enter();
          for (int k = int(rng() % 8); k > 0; --k) std::this_thread::yield();
          idle.leave();
          phase[t].fetch_add(1);  // odd: out of the count
          for (int k = int(rng() % 3); k > 0; --k) std::this_thread::yield();
        }
        phase[t].fetch_add(1);
        idle.enter();  // stays counted: the others' observations can end true
      });
    }
    std::thread observer([&] {
      std::vector<std::uint32_t> before(threads);
      while (!done.load()) {
        for (int t = 0; t < threads; ++t) before[std::size_t(t)] = phase[t].load();
        if (!idle.all_counted()) continue;
        seen_all.fetch_add(1);
        for (int t = 0; t < threads; ++t) {
          const std::uint32_t b = before[std::size_t(t)];
          if (b % 2 == 1 && phase[t].load() == b) violations.fetch_add(1);
        }
      }
    });
    for (auto& th : pool) th.join();
    while (seen_all.load() == 0) std::this_thread::yield();  // at least the end, all counted
    done.store(true);
    observer.join();
    EXPECT_EQ(violations.load(), 0) << "round " << round;
    EXPECT_TRUE(idle.all_counted()) << "every thread ended counted";
    EXPECT_EQ(idle.m_started, threads);
  }
}

// Tokens added by many pushers and taken by many idle workers at once: each is taken exactly once.
TEST(DeviceTaskIdleWorkers, TokensAreTakenOnceUnderContention) {
  constexpr int pushers = 4, takers = 4, pushes = 20000;
  DeviceTaskIdleWorkers idle;
  idle.begin_run();
  idle.start();
  idle.enter();  // someone is counted for the whole test, so every wake adds its tokens
  std::atomic<long> added{0}, taken{0};
  std::atomic<int> pushers_done{0};
  std::vector<std::thread> pool;
  for (int p = 0; p < pushers; ++p) {
    pool.emplace_back([&, p] {
      std::mt19937 rng{std::uint32_t(p)};
      for (int i = 0; i < pushes; ++i) {
        const int n = int(rng() % 4);
        idle.wake(n);
        added.fetch_add(n);
      }
      pushers_done.fetch_add(1);
    });
  }
  for (int t = 0; t < takers; ++t) {
    pool.emplace_back([&] {
      while (true) {
        if (idle.take_token()) {
          taken.fetch_add(1);
        } else if (pushers_done.load() == pushers) {
          if (!idle.take_token()) break;
          taken.fetch_add(1);
        } else {
          std::this_thread::yield();
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  EXPECT_GT(added.load(), 0);
  EXPECT_EQ(taken.load(), added.load());
  EXPECT_EQ(idle.m_tokens, 0);
}

}  // namespace

// Impl::asymmetric_fence_light / asymmetric_fence_heavy: Dekker's pattern.  In every round, each
// of several frequent-side threads stores its flag and loads the rare side's; the rare-side
// thread stores its flag and loads all of theirs.  With a fence between each store and load, no
// pair of threads can both miss the other's store (x86 reorders a store after a later load, so
// without the fences this happens within a few thousand rounds).  Run with the expedited
// membarrier where the kernel has it, and with full fences on both sides.
#include "TestCommon.hpp"

#include <impl/Kokkos_AsymmetricFence.hpp>

#include <atomic>
#include <barrier>
#include <thread>
#include <vector>

namespace {

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr int rounds = 4000;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
constexpr int rounds = 4000;
#else
constexpr int rounds = 20000;
#endif
#else
constexpr int rounds = 20000;
#endif

// Rounds in which a frequent-side thread and the rare side both missed each other's store.
long missed_pairs(int frequent_threads) {
  struct alignas(64) Flag {
    std::atomic<int> value{0};
  };
  std::vector<Flag> frequent_flag(frequent_threads);
  Flag rare_flag;
  std::vector<std::vector<char>> frequent_saw_rare(frequent_threads, std::vector<char>(rounds));
  std::vector<std::vector<char>> rare_saw(frequent_threads, std::vector<char>(rounds));
  std::barrier start(frequent_threads + 1), reset(frequent_threads + 1);

  std::vector<std::thread> threads;
  for (int t = 0; t < frequent_threads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < rounds; ++r) {
        start.arrive_and_wait();
        frequent_flag[t].value.store(1, std::memory_order_relaxed);
        Kokkos::Impl::asymmetric_fence_light();
        frequent_saw_rare[t][r] = char(rare_flag.value.load(std::memory_order_relaxed));
        reset.arrive_and_wait();
        frequent_flag[t].value.store(0, std::memory_order_relaxed);
      }
    });
  }
  for (int r = 0; r < rounds; ++r) {
    start.arrive_and_wait();
    rare_flag.value.store(1, std::memory_order_relaxed);
    Kokkos::Impl::asymmetric_fence_heavy();
    for (int t = 0; t < frequent_threads; ++t) rare_saw[t][r] = char(frequent_flag[t].value.load(std::memory_order_relaxed));
    reset.arrive_and_wait();
    rare_flag.value.store(0, std::memory_order_relaxed);
  }
  for (auto& th : threads) th.join();
  long missed = 0;
  for (int t = 0; t < frequent_threads; ++t) {
    for (int r = 0; r < rounds; ++r) missed += !frequent_saw_rare[t][r] && !rare_saw[t][r];
  }
  return missed;
}

TEST(AsymmetricFence, NoFrequentSideAndRareSideMissEachOther) {
  Kokkos::Impl::asymmetric_fence_prepare();
  for (int frequent : {1, 3}) EXPECT_EQ(missed_pairs(frequent), 0) << frequent << " frequent-side threads";
}

TEST(AsymmetricFence, FullFencesOnBothSidesWhereTheMembarrierIsMissing) {
  Kokkos::Impl::asymmetric_fence_prepare();
  const bool expedited = Kokkos::Impl::g_asymmetric_fence_expedited.load();
  Kokkos::Impl::g_asymmetric_fence_expedited.store(false);  // no thread uses either side now
  EXPECT_EQ(missed_pairs(2), 0);
  Kokkos::Impl::g_asymmetric_fence_expedited.store(expedited);
}

TEST(AsymmetricFence, PrepareIsIdempotent) {
  Kokkos::Impl::asymmetric_fence_prepare();
  const bool first = Kokkos::Impl::g_asymmetric_fence_expedited.load();
  Kokkos::Impl::asymmetric_fence_prepare();
  EXPECT_EQ(Kokkos::Impl::g_asymmetric_fence_expedited.load(), first);
  EXPECT_EQ(missed_pairs(1), 0);
}

}  // namespace

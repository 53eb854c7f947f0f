// The registry of allocations a device space may free on a stream without waiting for the whole
// device (impl/Kokkos_UntouchedAllocations.hpp; CudaSpace keeps one of cudaStream_t).  A fused
// kernel's thread notes its temporaries as it enqueues the kernel; whichever thread drops the
// last View of one takes it.  Checked here with integer queues, single-threaded for the rules,
// then with many threads whose notes and takes interleave at random (run under
// ThreadSanitizer by the tsan preset).
#include <gtest/gtest.h>

#include <impl/Kokkos_UntouchedAllocations.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

namespace {

using Registry = Kokkos::Impl::UntouchedAllocations<std::uint64_t>;

TEST(UntouchedAllocations, TakenOnceWithTheLastQueueNoted) {
  Registry registry;
  int a = 0, b = 0, never = 0;
  std::uint64_t queue = 0;
  EXPECT_FALSE(registry.take(&a, queue)) << "nothing noted";
  EXPECT_EQ(queue, 0u) << "a failed take leaves the queue alone";
  registry.note(&a, 1);
  registry.note(&b, 2);
  registry.note(&b, 3);  // noted again (a recorded graph launched once more): the last queue
  EXPECT_EQ(registry.size(), 2u);
  ASSERT_TRUE(registry.take(&b, queue));
  EXPECT_EQ(queue, 3u);
  EXPECT_FALSE(registry.take(&b, queue)) << "taken once";
  EXPECT_FALSE(registry.take(&never, queue));
  ASSERT_TRUE(registry.take(&a, queue));
  EXPECT_EQ(queue, 1u);
  EXPECT_EQ(registry.size(), 0u);
  registry.note(&a, 4);  // the same address, allocated again after it was freed
  ASSERT_TRUE(registry.take(&a, queue));
  EXPECT_EQ(queue, 4u);
}

TEST(UntouchedAllocations, NullIsAnAllocationLikeAnyOther) {
  // CudaSpace never notes null (a zero-byte allocation is never a temporary), but the registry
  // does not depend on it.
  Registry registry;
  std::uint64_t queue = 0;
  registry.note(nullptr, 9);
  ASSERT_TRUE(registry.take(nullptr, queue));
  EXPECT_EQ(queue, 9u);
}

// Every thread notes its own allocations, some more than once, in random order, and takes them
// back in another random order, while a watcher reads the size: each is taken exactly once, with
// the queue noted last.
TEST(UntouchedAllocationsStress, ManyThreadsNoteAndTakeTheirOwn) {
  constexpr int threads = 8, per_thread = 2000;
  Registry registry;
  std::vector<char> allocations(threads * per_thread);
  std::atomic<int> failures{0};
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    while (!done.load(std::memory_order_acquire)) {
      if (registry.size() > allocations.size()) failures.fetch_add(1);
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      std::mt19937 rng(1234u + static_cast<unsigned>(t));
      std::vector<int> order(per_thread);
      for (int i = 0; i < per_thread; ++i) order[i] = t * per_thread + i;
      std::vector<std::uint64_t> last(per_thread);
      std::shuffle(order.begin(), order.end(), rng);
      for (int k : order) {
        const int notes = 1 + static_cast<int>(rng() % 3);
        for (int r = 0; r < notes; ++r) {
          last[k - t * per_thread] = static_cast<std::uint64_t>(k) * 4 + static_cast<std::uint64_t>(r);
          registry.note(&allocations[k], last[k - t * per_thread]);
        }
        if (rng() % 4 == 0) std::this_thread::yield();
      }
      std::shuffle(order.begin(), order.end(), rng);
      for (int k : order) {
        std::uint64_t queue = 0;
        if (!registry.take(&allocations[k], queue) || queue != last[k - t * per_thread]) failures.fetch_add(1);
        if (registry.take(&allocations[k], queue)) failures.fetch_add(1);
      }
    });
  }
  for (std::thread& w : workers) w.join();
  done.store(true, std::memory_order_release);
  watcher.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(registry.size(), 0u);
}

// Noted on one thread, taken on another (the View dropped elsewhere): a producer hands each
// allocation over once noted; the consumers race to take what was handed over and find the
// producer's queue; every allocation is taken by exactly one of them.
TEST(UntouchedAllocationsStress, NotedOnOneThreadTakenOnAnother) {
  constexpr int producers = 3, consumers = 3, per_producer = 3000;
  constexpr int total = producers * per_producer;
  Registry registry;
  std::vector<char> allocations(total);
  std::vector<std::atomic<int>> handed(total);  // 0: not yet, 1: noted, 2: taken
  for (auto& h : handed) h.store(0);
  std::atomic<int> taken{0}, failures{0};
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p) {
    threads.emplace_back([&, p] {
      std::mt19937 rng(77u + static_cast<unsigned>(p));
      for (int i = 0; i < per_producer; ++i) {
        const int k = p * per_producer + i;
        registry.note(&allocations[k], static_cast<std::uint64_t>(k) + 1);
        handed[k].store(1, std::memory_order_release);
        if (rng() % 8 == 0) std::this_thread::yield();
      }
    });
  }
  for (int c = 0; c < consumers; ++c) {
    threads.emplace_back([&, c] {
      std::mt19937 rng(991u + static_cast<unsigned>(c));
      while (taken.load() < total) {
        const int k = static_cast<int>(rng() % total);
        int expected = 1;
        if (!handed[k].compare_exchange_strong(expected, 2, std::memory_order_acq_rel)) continue;
        std::uint64_t queue = 0;
        if (!registry.take(&allocations[k], queue) || queue != static_cast<std::uint64_t>(k) + 1) failures.fetch_add(1);
        taken.fetch_add(1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(taken.load(), total);
  EXPECT_EQ(registry.size(), 0u);
}

}  // namespace

// The GPU scheduler's ready ring (impl/tasking/Kokkos_DeviceReadyRing.hpp) driven by host
// threads standing in for warps: batches reserved at once and filled or emptied one entry at a
// time, with random batch sizes and pauses, on rings small enough to be full and empty all the
// time.  Every entry pushed must come out exactly once.  Run under TSan and ASan by their presets.
#include "TestCommon.hpp"

#include <impl/tasking/Kokkos_DeviceReadyRing.hpp>

#include <atomic>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

namespace {

struct Item {
  std::int64_t id;
  std::atomic<int> taken{0};
};
using Ring = Kokkos::Impl::DeviceReadyRing<Item>;

struct RingOnHost {
  std::vector<Item*> slots;
  Ring ring;
  explicit RingOnHost(std::uint32_t capacity) : slots(capacity, nullptr), ring(slots.data(), capacity) {}
};

TEST(DeviceReadyRing, EmptyFullAndWrapAround) {
  RingOnHost r(8);
  std::vector<Item> items(64);
  std::uint32_t first = 0;
  EXPECT_EQ(r.ring.capacity(), 8);
  EXPECT_EQ(r.ring.reserve_pop(4, first), 0) << "an empty ring gave entries";
  std::vector<Item*> out(8, nullptr);
  // Round after round past the ring's end: what goes in comes out, the ring never overfills.
  for (int round = 0; round < 8; ++round) {
    std::vector<Item*> in;
    for (int i = 0; i < 8; ++i) in.push_back(&items[std::size_t(round * 8 + i)]);
    ASSERT_TRUE(r.ring.push(in.data(), 5));
    EXPECT_FALSE(r.ring.push(in.data() + 5, 4)) << "round " << round << ": 9 entries fitted in 8";
    EXPECT_EQ(r.ring.size(), 5);
    ASSERT_TRUE(r.ring.push(in.data() + 5, 3));
    EXPECT_FALSE(r.ring.push(in.data(), 1)) << "a full ring took an entry";
    EXPECT_EQ(r.ring.pop(out.data(), 3), 3);
    EXPECT_EQ(r.ring.pop(out.data() + 3, 10), 5) << "a pop took more than the ring held, or less";
    EXPECT_EQ(r.ring.size(), 0);
    std::vector<bool> seen(8, false);
    for (Item* e : out) {
      const std::int64_t k = e - &items[std::size_t(round * 8)];
      ASSERT_TRUE(k >= 0 && k < 8) << "an entry of another round";
      EXPECT_FALSE(seen[std::size_t(k)]) << "entry " << k << " came out twice";
      seen[std::size_t(k)] = true;
    }
  }
  EXPECT_EQ(r.ring.reserve_pop(1, first), 0);
}

// Threads alternate at random between pushing a batch of their own items and popping a batch,
// with random pauses between a reservation and its puts or takes (a warp's lanes are not in
// step).  Each item is pushed once; at the end every item was taken exactly once.
void hammer(std::uint32_t capacity, int threads, int items_per_thread, unsigned seed) {
  RingOnHost r(capacity);
  std::vector<Item> items(std::size_t(threads) * items_per_thread);
  for (std::size_t i = 0; i < items.size(); ++i) items[i].id = std::int64_t(i);
  std::atomic<std::int64_t> taken_total{0};
  const std::int64_t total = std::int64_t(items.size());
  auto work = [&](int rank) {
    std::mt19937 rng(seed + unsigned(rank));
    std::uniform_int_distribution<int> coin(0, 99);
    std::uniform_int_distribution<int> batch(1, int(capacity));
    int next = 0;  // this thread's next item to push
    Item* const mine = &items[std::size_t(rank) * items_per_thread];
    while (taken_total.load(std::memory_order_relaxed) < total) {
      if (next < items_per_thread && coin(rng) < 50) {
        const int n = std::min(batch(rng), items_per_thread - next);
        std::uint32_t first = 0;
        if (!r.ring.reserve_push(n, first)) continue;
        for (int i = 0; i < n; ++i) {
          if (coin(rng) < 5) std::this_thread::yield();
          r.ring.put(first + std::uint32_t(i), &mine[next + i]);
        }
        next += n;
      } else {
        std::uint32_t first = 0;
        const int k = r.ring.reserve_pop(batch(rng), first);
        for (int i = 0; i < k; ++i) {
          if (coin(rng) < 5) std::this_thread::yield();
          Item* e = r.ring.take(first + std::uint32_t(i));
          e->taken.fetch_add(1, std::memory_order_relaxed);
        }
        taken_total.fetch_add(k, std::memory_order_relaxed);
        if (k == 0) std::this_thread::yield();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  for (const Item& it : items) ASSERT_EQ(it.taken.load(), 1) << "item " << it.id;
  EXPECT_EQ(r.ring.size(), 0);
  for (Item* s : r.slots) EXPECT_EQ(s, nullptr) << "a slot still holds an entry";
}

TEST(DeviceReadyRingDeathTest, ACapacityThatIsNotAPowerOfTwoAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::vector<Item*> slots(12, nullptr);
  EXPECT_DEATH(Ring(slots.data(), 12), "the capacity must be a power of two");
  EXPECT_DEATH(Ring(slots.data(), 0), "the capacity must be a power of two");
  EXPECT_DEATH(Ring(slots.data(), std::uint32_t(1) << 31), "between 1 and 2\\^30");
  Ring one(slots.data(), 1);
  EXPECT_EQ(one.capacity(), 1);
}

TEST(DeviceReadyRing, ManyThreadsTinyRing) { hammer(4, 16, 400, 1u); }
TEST(DeviceReadyRing, ManyThreadsWarpSizedBatches) { hammer(32, 12, 1000, 2u); }
TEST(DeviceReadyRing, FewThreadsLargeRing) { hammer(1024, 3, 5000, 3u); }

}  // namespace

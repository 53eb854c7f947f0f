// Concurrency stress for Kokkos::MemoryPool: many std::threads (more than cores, to force
// interleavings) and parallel_for on every back end allocate and free random sizes in random
// order.  Every block handed out is checked against an ownership map of the whole pool (no two
// live blocks share a byte, every pointer lies inside the pool and is aligned to its block) and
// carries its owner's byte pattern, verified before it is freed.  A tiny pool under contention
// returns nullptr, never a bad pointer, and gives back its whole capacity afterwards.
//
// Seeds are random per run and printed; set KDAG_TEST_SEED=<n> to replay one.
#include "TestCommon.hpp"

#include <Kokkos_MemoryPool.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using HostPool = Kokkos::MemoryPool<Kokkos::HostSpace>;

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr int sanitizer_slowdown = 4;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
constexpr int sanitizer_slowdown = 4;
#else
constexpr int sanitizer_slowdown = 1;
#endif
#else
constexpr int sanitizer_slowdown = 1;
#endif

std::uint64_t test_seed() {
  static const std::uint64_t seed = [] {
    if (const char* env = std::getenv("KDAG_TEST_SEED")) return std::uint64_t(std::strtoull(env, nullptr, 10));
    std::random_device rd;
    return (std::uint64_t(rd()) << 32) ^ rd();
  }();
  return seed;
}

// Records the seed with the test and in every failure message of the current scope.
#define KDAG_SEED_TRACE()                                                                          \
  ::testing::Test::RecordProperty("seed", std::to_string(test_seed()));                                           \
  std::cout << "[ seed     ] KDAG_TEST_SEED=" << test_seed() << std::endl;                          \
  SCOPED_TRACE("KDAG_TEST_SEED=" + std::to_string(test_seed()))

std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Log-uniform in [1, max]: every block size is about equally likely.
std::size_t random_size(std::uint64_t r, std::size_t max) {
  const int max_lg2 = 63 - __builtin_clzll(max);
  const int lg2 = int(r % std::uint64_t(max_lg2 + 1));
  const std::size_t lo = std::size_t(1) << lg2;
  const std::size_t size = lo + (r >> 8) % lo;
  return std::min(size, max);
}

// The first byte of the pool's data: the lowest block once every smallest block is allocated.
// Needs an empty pool; leaves it empty.
std::uintptr_t pool_data_begin(const HostPool& pool) {
  std::vector<void*> all;
  while (void* p = pool.allocate(1)) all.push_back(p);
  EXPECT_EQ(all.size(), pool.capacity() / pool.min_block_size());
  const auto lowest = reinterpret_cast<std::uintptr_t>(*std::min_element(all.begin(), all.end()));
  for (void* p : all) pool.deallocate(p, 1);
  return lowest;
}

// Which owner holds each smallest-block granule of the pool.  Relaxed atomics only, so that the
// map adds no synchronisation the pool itself does not provide (ThreadSanitizer checks the pool).
class OwnershipMap {
 public:
  explicit OwnershipMap(const HostPool& pool)
      : m_pool(pool),
        m_begin(pool_data_begin(pool)),
        m_granule_lg2(__builtin_ctzll(pool.min_block_size())),
        m_sb_lg2(__builtin_ctzll(pool.capacity() / std::size_t(pool.number_of_superblocks()))),
        m_count(pool.capacity() >> m_granule_lg2),
        m_owner(new std::atomic<std::uint32_t>[m_count]()) {}

  // Checks that `p`, returned for `size` bytes, is a block of the pool of at least that size,
  // aligned to its size, and claims its bytes for `owner`; false (with a message) otherwise.
  bool claim(const void* p, std::size_t size, std::uint32_t owner, std::string& error) const {
    std::size_t first = 0, count = 0;
    if (!locate(p, size, first, count, error)) return false;
    for (std::size_t g = first; g < first + count; ++g) {
      std::uint32_t expected = 0;
      if (!m_owner[g].compare_exchange_strong(expected, owner, std::memory_order_relaxed)) {
        error = "block " + hex(p) + " of " + std::to_string(count << m_granule_lg2) + " bytes overlaps a block of owner " +
                std::to_string(expected);
        for (std::size_t u = first; u < g; ++u) m_owner[u].store(0, std::memory_order_relaxed);
        return false;
      }
    }
    return true;
  }

  bool release(const void* p, std::size_t size, std::uint32_t owner, std::string& error) const {
    std::size_t first = 0, count = 0;
    if (!locate(p, size, first, count, error)) return false;
    bool ok = true;
    for (std::size_t g = first; g < first + count; ++g) {
      std::uint32_t expected = owner;
      if (!m_owner[g].compare_exchange_strong(expected, 0, std::memory_order_relaxed)) {
        error = "block " + hex(p) + " lost bytes to owner " + std::to_string(expected);
        ok = false;
      }
    }
    return ok;
  }

  std::size_t owned_granules() const {
    std::size_t n = 0;
    for (std::size_t g = 0; g < m_count; ++g) n += m_owner[g].load(std::memory_order_relaxed) != 0;
    return n;
  }

 private:
  static std::string hex(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%p", p);
    return buf;
  }
  bool locate(const void* p, std::size_t size, std::size_t& first, std::size_t& count, std::string& error) const {
    const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
    if (a < m_begin || a - m_begin >= m_pool.capacity()) {
      error = "pointer " + hex(p) + " is outside the pool";
      return false;
    }
    const std::size_t offset = a - m_begin;
    // The block size is exact while a block of the superblock is allocated (only an empty
    // superblock changes it); `used` is not checked: under concurrent frees it is a snapshot.
    int block = 0, capacity = 0, used = 0;
    m_pool.superblock_state(int(offset >> m_sb_lg2), block, capacity, used);
    if (block <= 0 || std::size_t(block) < m_pool.allocate_block_size(size) || offset % std::size_t(block) != 0) {
      error = "pointer " + hex(p) + " for " + std::to_string(size) + " bytes lies in a superblock of " +
              std::to_string(block) + "-byte blocks (" + std::to_string(used) + " used) at offset " +
              std::to_string(offset);
      return false;
    }
    first = offset >> m_granule_lg2;
    count = std::size_t(block) >> m_granule_lg2;
    return true;
  }

  const HostPool& m_pool;
  std::uintptr_t m_begin;
  int m_granule_lg2;
  int m_sb_lg2;
  std::size_t m_count;
  std::unique_ptr<std::atomic<std::uint32_t>[]> m_owner;
};

// The owner's byte pattern over the requested bytes of a block.
void write_pattern(void* p, std::size_t size, std::uint64_t tag) {
  auto* b = static_cast<unsigned char*>(p);
  for (std::size_t k = 0; k < size; ++k) b[k] = static_cast<unsigned char>(mix(tag + k / 8) >> (8 * (k % 8)));
}
bool check_pattern(const void* p, std::size_t size, std::uint64_t tag) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t k = 0; k < size; ++k)
    if (b[k] != static_cast<unsigned char>(mix(tag + k / 8) >> (8 * (k % 8)))) return false;
  return true;
}

struct Live {
  void* p;
  std::size_t size;
  std::uint64_t tag;
};

struct ThreadReport {
  long allocated = 0, refused = 0, freed = 0;
  std::string error;  // the first problem this thread saw
};

// `threads` threads each run `ops` random allocate/free steps, holding at most `max_live` blocks
// of up to `max_size` bytes; thread t is owner first_owner + t in the map.
std::vector<ThreadReport> hammer(const HostPool& pool, const OwnershipMap& map, int threads, int ops, int max_live,
                                 std::size_t max_size, std::uint64_t seed, std::uint32_t first_owner = 1) {
  std::vector<ThreadReport> reports(threads);
  std::atomic<int> ready{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      ThreadReport& report = reports[t];
      const std::uint32_t owner = first_owner + std::uint32_t(t);
      std::mt19937_64 rng(seed ^ mix(std::uint64_t(t)));
      std::vector<Live> live;
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();  // start together
      std::uint64_t serial = 0;
      const auto fail = [&](const std::string& what) {
        if (report.error.empty()) report.error = "thread " + std::to_string(t) + ": " + what;
      };
      for (int op = 0; op < ops && report.error.empty(); ++op) {
        const std::uint64_t r = rng();
        if (live.empty() || (int(live.size()) < max_live && (r & 1))) {
          const std::size_t size = random_size(r >> 1, max_size);
          void* p = pool.allocate(size, 1 + int((r >> 40) % 3));
          if (!p) {
            ++report.refused;
            continue;
          }
          std::string error;
          if (!map.claim(p, size, owner, error)) {
            fail(error);
            break;
          }
          const std::uint64_t tag = (std::uint64_t(owner) << 40) | ++serial;
          write_pattern(p, size, tag);
          live.push_back({p, size, tag});
          ++report.allocated;
        } else {
          const std::size_t i = std::size_t(r >> 1) % live.size();
          const Live block = live[i];
          live[i] = live.back();
          live.pop_back();
          if (!check_pattern(block.p, block.size, block.tag)) fail("pattern of a live block was overwritten");
          std::string error;
          if (!map.release(block.p, block.size, owner, error)) fail(error);
          pool.deallocate(block.p, block.size);
          ++report.freed;
        }
      }
      for (const Live& block : live) {
        if (!check_pattern(block.p, block.size, block.tag)) fail("pattern of a live block was overwritten");
        std::string error;
        if (!map.release(block.p, block.size, owner, error)) fail(error);
        pool.deallocate(block.p, block.size);
        ++report.freed;
      }
    });
  }
  for (auto& w : workers) w.join();
  return reports;
}

void expect_empty(const HostPool& pool, const OwnershipMap& map) {
  HostPool::usage_statistics s;
  pool.get_usage_statistics(s);
  EXPECT_EQ(s.consumed_blocks, 0u);
  EXPECT_EQ(s.consumed_superblocks, 0u);
  EXPECT_EQ(s.consumed_bytes, 0u);
  EXPECT_EQ(map.owned_granules(), 0u);
}

// Every block is back (blocks in exited threads' magazines included): the whole capacity
// allocates in blocks of `size` bytes, and goes back.
void expect_whole_capacity(const HostPool& pool, const OwnershipMap& map, std::size_t size) {
  std::vector<void*> all;
  while (void* p = pool.allocate(size)) all.push_back(p);
  EXPECT_EQ(all.size(), pool.capacity() / pool.allocate_block_size(size)) << size;
  for (void* p : all) pool.deallocate(p, size);
  expect_empty(pool, map);
}

// A thread that reads the pool's statistics (each read empties every magazine) until stop().
class StatisticsReader {
 public:
  explicit StatisticsReader(const HostPool& pool)
      : m_thread([this, &pool] {
          while (!m_done.load()) {
            HostPool::usage_statistics s;
            pool.get_usage_statistics(s);
            m_most_in_use = std::max(m_most_in_use, s.consumed_blocks);
            ++m_reads;
          }
        }) {}
  ~StatisticsReader() { stop(); }
  void stop() {
    m_done = true;
    if (m_thread.joinable()) m_thread.join();
  }
  // After stop():
  std::size_t most_blocks_in_use() const { return m_most_in_use; }
  long reads() const { return m_reads; }

 private:
  std::atomic<bool> m_done{false};
  std::size_t m_most_in_use = 0;
  long m_reads = 0;
  std::thread m_thread;  // last: starts after the counters exist
};

TEST(MemoryPoolStress, ManyThreadsRandomSizesNeverOverlap) {
  KDAG_SEED_TRACE();
  // 64 superblocks of 64 KiB, blocks of 32..4096 bytes: never more than ~1.5 MiB live, so
  // every allocation must succeed.
  HostPool pool(Kokkos::HostSpace(), 4 << 20, 32, 4096, 64 << 10);
  OwnershipMap map(pool);
  const int threads = 12;
  const auto reports = hammer(pool, map, threads, 40000 / sanitizer_slowdown, 32, 4096, test_seed());
  long allocated = 0, freed = 0, refused = 0;
  for (const auto& r : reports) {
    EXPECT_TRUE(r.error.empty()) << r.error;
    allocated += r.allocated;
    freed += r.freed;
    refused += r.refused;
  }
  EXPECT_EQ(refused, 0) << "the pool never ran out of room, yet refused allocations";
  EXPECT_EQ(allocated, freed);
  EXPECT_GT(allocated, long(threads) * 1000 / sanitizer_slowdown);
  expect_empty(pool, map);
}

TEST(MemoryPoolStress, TinyPoolUnderContentionRefusesThenRecovers) {
  KDAG_SEED_TRACE();
  // Four superblocks of 4 KiB (16 KiB) for 16 threads wanting up to 16 blocks of up to 1 KiB.
  HostPool pool(Kokkos::HostSpace(), 16 << 10, 64, 1024, 4 << 10);
  OwnershipMap map(pool);
  const auto reports = hammer(pool, map, 16, 20000 / sanitizer_slowdown, 16, 1024, test_seed() + 1);
  long allocated = 0, refused = 0;
  for (const auto& r : reports) {
    EXPECT_TRUE(r.error.empty()) << r.error;
    allocated += r.allocated;
    refused += r.refused;
  }
  EXPECT_GT(refused, 0) << "the pool was expected to run out under this load";
  EXPECT_GT(allocated, 1000 / sanitizer_slowdown);
  expect_empty(pool, map);

  // The whole capacity in smallest blocks, then in largest ones.
  for (std::size_t size : {std::size_t(64), std::size_t(1024), std::size_t(100)}) expect_whole_capacity(pool, map, size);
}

TEST(MemoryPoolStress, OneSuperblockManyThreads) {
  KDAG_SEED_TRACE();
  // Everything contends for one state word and one bit array.
  HostPool pool(Kokkos::HostSpace(), 8 << 10, 64, 64, 8 << 10);
  OwnershipMap map(pool);
  const auto reports = hammer(pool, map, 16, 20000 / sanitizer_slowdown, 12, 64, test_seed() + 2);
  for (const auto& r : reports) EXPECT_TRUE(r.error.empty()) << r.error;
  expect_empty(pool, map);
}

TEST(MemoryPoolStress, MoreThreadsThanLanesNeverOverlapAndGiveEveryBlockBack) {
  KDAG_SEED_TRACE();
  // 72 threads alive at once: the 65th and later share lanes, and use no magazine; a pool this
  // small makes searches empty the magazines again and again.
  HostPool pool(Kokkos::HostSpace(), 64 << 10, 32, 1024, 8 << 10);
  OwnershipMap map(pool);
  const auto reports = hammer(pool, map, 72, 4000 / sanitizer_slowdown, 8, 1024, test_seed() + 3);
  long allocated = 0;
  for (const auto& r : reports) {
    EXPECT_TRUE(r.error.empty()) << r.error;
    allocated += r.allocated;
  }
  EXPECT_GT(allocated, 72L * 100 / sanitizer_slowdown);
  expect_empty(pool, map);
  expect_whole_capacity(pool, map, 32);
}

TEST(MemoryPoolStress, FullMagazinesUnderConstantFlushesNeverLoseOrDuplicateBlocks) {
  KDAG_SEED_TRACE();
  // One block size in 1 MiB: 256 blocks, magazines of 64.  16 threads hold up to a few hundred
  // blocks each, more than the pool has, so searches keep emptying every magazine while their
  // owners push and pop; another thread reads the statistics (which empty them too) all along.
  HostPool pool(Kokkos::HostSpace(), 1 << 20, 4096, 4096, 64 << 10);
  ASSERT_EQ(pool.magazine_capacity(), 64u);
  OwnershipMap map(pool);
  StatisticsReader reader(pool);
  const auto reports = hammer(pool, map, 16, 30000 / sanitizer_slowdown, 1200, 4096, test_seed() + 4);
  reader.stop();
  EXPECT_LE(reader.most_blocks_in_use(), pool.capacity() / 4096) << "more blocks in use than the pool has";
  long allocated = 0, refused = 0;
  for (const auto& r : reports) {
    EXPECT_TRUE(r.error.empty()) << r.error;
    allocated += r.allocated;
    refused += r.refused;
  }
  EXPECT_GT(refused, 0) << "the pool was expected to run out under this load";
  EXPECT_GT(allocated, 16L * 1000 / sanitizer_slowdown);
  expect_empty(pool, map);
  expect_whole_capacity(pool, map, 4096);
}

// `threads` threads allocate and free 64-byte blocks (one block size, so every free and every
// allocation uses the same stack of each magazine) holding at most `max_live` each, in a pool that
// never runs out, while another thread empties every magazine through the statistics.
void hammer_racing_flushes(int threads, int max_live, std::uint64_t seed) {
  HostPool pool(Kokkos::HostSpace(), 4 << 20, 64, 64, 64 << 10);
  ASSERT_EQ(pool.magazine_capacity(), 64u);
  OwnershipMap map(pool);
  StatisticsReader flusher(pool);
  const auto reports = hammer(pool, map, threads, 400000 / sanitizer_slowdown, max_live, 64, seed);
  flusher.stop();
  long refused = 0, allocated = 0;
  for (const auto& r : reports) {
    EXPECT_TRUE(r.error.empty()) << r.error;
    refused += r.refused;
    allocated += r.allocated;
  }
  EXPECT_EQ(refused, 0) << threads * max_live << " blocks live at most, of 65536";
  EXPECT_GT(allocated, threads * 100000L / sanitizer_slowdown);
  EXPECT_GT(flusher.reads(), 0);
  expect_empty(pool, map);
  expect_whole_capacity(pool, map, 64);
}

TEST(MemoryPoolStress, FreesRacingFlushesNeverLoseOrDuplicateBlocks) {
  KDAG_SEED_TRACE();
  // A free pushes onto its magazine without entering the gate.
  hammer_racing_flushes(2, 200, test_seed() + 6);
}

TEST(MemoryPoolStress, PopsRacingFlushesNeverLoseOrDuplicateBlocks) {
  KDAG_SEED_TRACE();
  // An allocation pops from its magazine without entering the gate, against a flush that locks
  // the stack.  Threads holding one or two blocks at a time keep their stacks at a few blocks,
  // emptied by every flush, so pops meet locked stacks, stacks a flush just emptied, and stacks
  // whose last block the flush and the pop both reach for.
  hammer_racing_flushes(3, 2, test_seed() + 7);
}

TEST(MemoryPoolStress, MagazinesWithFullFencesOnBothSides) {
  KDAG_SEED_TRACE();
  // Where the expedited membarrier is missing, both sides of each magazine's gate use a full
  // fence.  Switched only while no thread uses a pool, so that both sides agree.
  const bool expedited = Kokkos::Impl::g_asymmetric_fence_expedited.load();
  Kokkos::Impl::g_asymmetric_fence_expedited.store(false);
  {
    HostPool pool(Kokkos::HostSpace(), 1 << 20, 1024, 1024, 64 << 10);
    OwnershipMap map(pool);
    const auto reports = hammer(pool, map, 8, 20000 / sanitizer_slowdown, 2400, 1024, test_seed() + 5);
    for (const auto& r : reports) EXPECT_TRUE(r.error.empty()) << r.error;
    expect_empty(pool, map);
    expect_whole_capacity(pool, map, 1024);
  }
  Kokkos::Impl::g_asymmetric_fence_expedited.store(expedited);
}

TEST(MemoryPoolStress, ThreadsComingAndGoingHandTheirLanesOver) {
  KDAG_SEED_TRACE();
  // Two streams of short-lived threads, four at a time each: a lane an exiting thread gives back
  // is leased again at once, with the blocks in its magazines, while the other stream's threads
  // allocate and free.
  HostPool pool(Kokkos::HostSpace(), 1 << 20, 32, 1024, 16 << 10);
  OwnershipMap map(pool);
  constexpr int waves = 12;
  std::vector<std::vector<ThreadReport>> reports(2 * waves);
  std::thread other([&] {
    for (int w = 0; w < waves; ++w)
      reports[2 * w + 1] = hammer(pool, map, 4, 1500 / sanitizer_slowdown, 8, 1024, test_seed() + 100 + w, 1000);
  });
  for (int w = 0; w < waves; ++w)
    reports[2 * w] = hammer(pool, map, 4, 1500 / sanitizer_slowdown, 8, 1024, test_seed() + 200 + w, 1);
  other.join();
  long allocated = 0;
  for (const auto& wave : reports) {
    for (const auto& r : wave) {
      EXPECT_TRUE(r.error.empty()) << r.error;
      allocated += r.allocated;
    }
  }
  EXPECT_GT(allocated, 2L * waves * 4 * 100 / sanitizer_slowdown);
  expect_empty(pool, map);
  expect_whole_capacity(pool, map, 32);
}

template <class Space>
struct MemoryPoolStressOn : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(MemoryPoolStressOn, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// Rounds of parallel_for: allocate random sizes into slots, verify, free a random subset,
// reallocate it while other workers churn temporary blocks, verify, free everything.
TYPED_TEST(MemoryPoolStressOn, ParallelForRoundsNeverOverlap) {
  KDAG_SEED_TRACE();
  HostPool pool(Kokkos::HostSpace(), 32 << 20, 32, 4096, 256 << 10);
  OwnershipMap map(pool);
  const int n = 10000 / sanitizer_slowdown;
  std::vector<Live> slots(n, Live{nullptr, 0, 0});
  Live* s = slots.data();
  const OwnershipMap* m = &map;
  std::atomic<long> errors{0}, refused{0};
  std::atomic<long>* e = &errors;
  std::atomic<long>* f = &refused;
  const std::uint64_t seed = test_seed();

  for (std::uint64_t round = 0; round < 3; ++round) {
    const std::uint64_t rs = mix(seed + round);
    const auto fill = [=](std::int64_t i, std::uint64_t salt) {
      const std::uint64_t r = mix(rs ^ (std::uint64_t(i) * 0x9E37u) ^ salt);
      const std::size_t size = random_size(r, 4096);
      void* p = pool.allocate(size);
      if (!p) {
        f->fetch_add(1);
        return;
      }
      std::string error;
      const std::uint32_t owner = std::uint32_t(i + 1);
      if (!m->claim(p, size, owner, error)) {
        e->fetch_add(1);
        return;
      }
      write_pattern(p, size, r);
      s[i] = Live{p, size, r};
    };
    const auto drop = [=](std::int64_t i) {
      if (!s[i].p) return;
      std::string error;
      if (!check_pattern(s[i].p, s[i].size, s[i].tag) || !m->release(s[i].p, s[i].size, std::uint32_t(i + 1), error))
        e->fetch_add(1);
      pool.deallocate(s[i].p, s[i].size);
      s[i] = Live{nullptr, 0, 0};
    };
    Kokkos::parallel_for("fill", Kokkos::RangePolicy<TypeParam>(0, n), [=](std::int64_t i) { fill(i, 1); });
    Kokkos::parallel_for("free some", Kokkos::RangePolicy<TypeParam>(0, n), [=](std::int64_t i) {
      if (mix(rs + std::uint64_t(i)) % 3 == 0) drop(i);
    });
    Kokkos::parallel_for("refill and churn", Kokkos::RangePolicy<TypeParam>(0, n), [=](std::int64_t i) {
      if (!s[i].p) {
        fill(i, 2);
      } else {
        // A short-lived block beside the long-lived ones.
        const std::size_t size = random_size(mix(rs - std::uint64_t(i)), 4096);
        void* p = pool.allocate(size);
        if (p) {
          write_pattern(p, size, std::uint64_t(i));
          if (!check_pattern(p, size, std::uint64_t(i))) e->fetch_add(1);
          pool.deallocate(p, size);
        }
      }
    });
    Kokkos::parallel_for("verify and free", Kokkos::RangePolicy<TypeParam>(0, n), [=](std::int64_t i) { drop(i); });
    ASSERT_EQ(errors.load(), 0) << "round " << round;
    expect_empty(pool, map);
  }
  // Under 1 KiB per block on average, at most 10000 long-lived blocks: 32 MiB always suffices.
  EXPECT_EQ(refused.load(), 0);
}

// The same churn from each back end's own threads on a pool in its own memory (on Cuda: device
// threads, warps whose lanes allocate at once, random sizes per lane).  Ownership: every block
// holds its owner's id in every word, checked before it is freed.
template <class Space>
struct MemoryPoolStressInSpace : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(MemoryPoolStressInSpace, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

KOKKOS_INLINE_FUNCTION std::uint64_t device_mix(std::uint64_t x) {  // splitmix64
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template <class Exec>
struct DeviceChurn {
  using Mem = typename Exec::memory_space;
  using Pool = Kokkos::MemoryPool<Kokkos::Device<Exec, Mem>>;
  Pool pool;
  Kokkos::View<std::uintptr_t*, Mem> ptr;
  Kokkos::View<std::uint32_t*, Mem> size;
  Kokkos::View<long*, Mem> counts;  // [0] blocks found overwritten, [1] refused allocations
  std::uint64_t seed;

  // 32..4096 bytes, a multiple of 8.
  KOKKOS_INLINE_FUNCTION static std::uint32_t random_bytes(std::uint64_t r) {
    return std::uint32_t(32 + (r % 4065)) & ~7u;
  }
  KOKKOS_INLINE_FUNCTION bool owns(std::int64_t i, std::uintptr_t p, std::uint32_t bytes) const {
    const auto* w = reinterpret_cast<const std::int64_t*>(p);
    for (std::uint32_t k = 0; k < bytes / 8; ++k)
      if (w[k] != i) return false;
    return true;
  }
  KOKKOS_INLINE_FUNCTION void fill(std::int64_t i, std::uint64_t salt) const {
    const std::uint32_t bytes = random_bytes(device_mix(seed ^ (std::uint64_t(i) * 0x9E37u) ^ salt));
    auto* p = static_cast<std::int64_t*>(pool.allocate(bytes, 8));
    if (p == nullptr) {
      Kokkos::atomic_add(&counts(1), 1L);
      return;
    }
    for (std::uint32_t k = 0; k < bytes / 8; ++k) p[k] = i;
    ptr(i) = reinterpret_cast<std::uintptr_t>(p);
    size(i) = bytes;
  }
  KOKKOS_INLINE_FUNCTION void drop(std::int64_t i) const {
    if (ptr(i) == 0) return;
    if (!owns(i, ptr(i), size(i))) Kokkos::atomic_add(&counts(0), 1L);
    pool.deallocate(reinterpret_cast<void*>(ptr(i)), size(i));
    ptr(i) = 0;
  }
};

TYPED_TEST(MemoryPoolStressInSpace, RandomSizesFromEveryThreadNeverOverlap) {
  KDAG_SEED_TRACE();
  using Exec = TypeParam;
  using Churn = DeviceChurn<Exec>;
  const std::int64_t n = Kokkos::Test::needs_device<Exec> ? 100000 : 10000 / sanitizer_slowdown;
  // At most n blocks of at most 4 KiB live: the capacity always suffices.
  Churn c{typename Churn::Pool(typename Churn::Mem(), std::size_t(n) * 4096 + (4 << 20), 32, 4096, 256 << 10),
          Kokkos::View<std::uintptr_t*, typename Churn::Mem>("ptr", n),
          Kokkos::View<std::uint32_t*, typename Churn::Mem>("size", n),
          Kokkos::View<long*, typename Churn::Mem>("counts", 2), 0};
  for (std::uint64_t round = 0; round < 3; ++round) {
    c.seed = mix(test_seed() + round);
    const Churn k = c;
    Kokkos::parallel_for("fill", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::int64_t i) { k.fill(i, 1); });
    Kokkos::parallel_for(
        "free some", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::int64_t i) {
          if (device_mix(k.seed + std::uint64_t(i)) % 3 == 0) k.drop(i);
        });
    Kokkos::parallel_for(
        "refill and churn", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::int64_t i) {
          if (k.ptr(i) == 0) {
            k.fill(i, 2);
            return;
          }
          // A short-lived block beside the long-lived ones.
          const std::uint32_t bytes = Churn::random_bytes(device_mix(k.seed - std::uint64_t(i)));
          auto* p = static_cast<std::int64_t*>(k.pool.allocate(bytes, 8));
          if (p == nullptr) return;
          for (std::uint32_t w = 0; w < bytes / 8; ++w) p[w] = -i - 1;
          if (!k.owns(-i - 1, reinterpret_cast<std::uintptr_t>(p), bytes)) Kokkos::atomic_add(&k.counts(0), 1L);
          k.pool.deallocate(p, bytes);
        });
    Kokkos::parallel_for("verify and free", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::int64_t i) { k.drop(i); });
    Kokkos::fence();
    const auto counts = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.counts);
    const long errors = counts(0), refused = counts(1);
    ASSERT_EQ(errors, 0) << "round " << round << ": blocks overwritten by another owner";
    EXPECT_EQ(refused, 0) << "round " << round;
    typename Churn::Pool::usage_statistics s;
    c.pool.get_usage_statistics(s);
    EXPECT_EQ(s.consumed_blocks, 0u) << "round " << round;
    EXPECT_EQ(s.consumed_bytes, 0u) << "round " << round;
  }
}

}  // namespace

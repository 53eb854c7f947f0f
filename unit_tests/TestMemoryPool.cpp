// Kokkos::MemoryPool (seed 001 §2.5, §3.1): construction defaults and rounding, every
// constraint violation, shared ownership, block sizes and alignment, exact packing under
// concurrent allocation on every back end, filling through the larger-block fallback,
// reassignment of emptied superblocks, exact usage statistics, and misuse that aborts.
#include "TestCommon.hpp"

#include <Kokkos_MemoryPool.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

template <class Space>
struct MemoryPoolTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(MemoryPoolTest, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

using HostPool = Kokkos::MemoryPool<Kokkos::HostSpace>;

constexpr std::size_t KiB = 1024;
constexpr std::size_t MiB = 1024 * 1024;

struct Geometry {
  std::size_t capacity, min_block, max_block, superblocks;
};
Geometry geometry_of(const HostPool& pool) {
  return {pool.capacity(), pool.min_block_size(), pool.max_block_size(), std::size_t(pool.number_of_superblocks())};
}
bool operator==(const Geometry& a, const Geometry& b) {
  return a.capacity == b.capacity && a.min_block == b.min_block && a.max_block == b.max_block &&
         a.superblocks == b.superblocks;
}
std::ostream& operator<<(std::ostream& os, const Geometry& g) {
  return os << "{capacity " << g.capacity << ", blocks " << g.min_block << ".." << g.max_block << ", "
            << g.superblocks << " superblocks}";
}

HostPool::usage_statistics stats_of(const HostPool& pool) {
  HostPool::usage_statistics s;
  std::memset(&s, 0xff, sizeof(s));  // every field must be written
  pool.get_usage_statistics(s);
  return s;
}

// Blocks the superblocks' state words count as used (superblock_state: blocks in magazines
// included, no flush).
std::size_t used_in_state_words(const HostPool& pool) {
  std::size_t total = 0;
  for (int sb = 0; sb < pool.number_of_superblocks(); ++sb) {
    std::size_t size = 0, capacity = 0, used = 0;
    pool.superblock_state(sb, size, capacity, used);
    total += used;
  }
  return total;
}

// ------------------------------------------------------------------------------------------------
// Types and construction
// ------------------------------------------------------------------------------------------------

TYPED_TEST(MemoryPoolTest, SpaceArgumentsResolveToTheirMemorySpace) {
  static_assert(std::is_same_v<typename Kokkos::MemoryPool<TypeParam>::memory_space, Kokkos::HostSpace>);
  static_assert(std::is_same_v<typename Kokkos::MemoryPool<Kokkos::HostSpace>::memory_space, Kokkos::HostSpace>);
  using D = Kokkos::Device<TypeParam, Kokkos::HostSpace>;
  static_assert(std::is_same_v<typename Kokkos::MemoryPool<D>::memory_space, Kokkos::HostSpace>);
  static_assert(std::is_same_v<typename Kokkos::MemoryPool<D>::execution_space, TypeParam>);
  Kokkos::MemoryPool<D> pool(Kokkos::HostSpace(), 64 * KiB);
  void* p = pool.allocate(10);
  ASSERT_NE(p, nullptr);
  pool.deallocate(p, 10);
}

TEST(MemoryPool, DefaultsWhenMinBlockIsZero) {
  // superblock min(1 MiB, total), blocks min(64, superblock)..min(4096, superblock)
  EXPECT_EQ(geometry_of(HostPool(Kokkos::HostSpace(), 10000000)), (Geometry{10 * MiB, 64, 4096, 10}));
  EXPECT_EQ(geometry_of(HostPool(Kokkos::HostSpace(), 1000)), (Geometry{1024, 64, 1024, 1}));
  EXPECT_EQ(geometry_of(HostPool(Kokkos::HostSpace(), 32)), (Geometry{32, 32, 32, 1}));
  EXPECT_EQ(geometry_of(HostPool(Kokkos::HostSpace(), 1)), (Geometry{1, 1, 1, 1}));
  // The other arguments are ignored when min_block_alloc_size is 0, as in Kokkos.
  EXPECT_EQ(geometry_of(HostPool(Kokkos::HostSpace(), 3 * MiB, 0, 128, 4096)), (Geometry{3 * MiB, 64, 4096, 3}));
}

TEST(MemoryPool, DefaultSuperblockAndMaxBlock) {
  // Only the superblock is 0: min(min_block << 25, 2^31, total).
  EXPECT_EQ(geometry_of(HostPool(Kokkos::HostSpace(), 10000000, 64, 256)), (Geometry{16 * MiB, 64, 256, 1}));
  EXPECT_EQ(geometry_of(HostPool(Kokkos::HostSpace(), 100 * MiB, 1, 64)), (Geometry{128 * MiB, 1, 64, 4}));
  // Superblock and max block 0: the max block is the superblock.
  EXPECT_EQ(geometry_of(HostPool(Kokkos::HostSpace(), 100 * MiB, 1)), (Geometry{128 * MiB, 1, 32 * MiB, 4}));
  // Only the max block is 0.
  EXPECT_EQ(geometry_of(HostPool(Kokkos::HostSpace(), MiB, 64, 0, 64 * KiB)), (Geometry{MiB, 64, 64 * KiB, 16}));
}

TEST(MemoryPool, SizesRoundUpToPowersOfTwo) {
  // 33 -> 64, 1000 -> 1024, 5000 -> 8192, 100000 bytes -> 13 superblocks of 8 KiB.
  EXPECT_EQ(geometry_of(HostPool(Kokkos::HostSpace(), 100000, 33, 1000, 5000)), (Geometry{13 * 8192, 64, 1024, 13}));
  // Exact powers of two stay.
  EXPECT_EQ(geometry_of(HostPool(Kokkos::HostSpace(), 64 * KiB, 64, 512, 16 * KiB)), (Geometry{64 * KiB, 64, 512, 4}));
  // Capacity is a whole number of superblocks, at least the request.
  for (std::size_t total : {std::size_t(4097), std::size_t(8191), std::size_t(8192), std::size_t(8193)}) {
    HostPool pool(Kokkos::HostSpace(), total, 64, 1024, 4096);
    EXPECT_GE(pool.capacity(), total);
    EXPECT_EQ(pool.capacity() % 4096, 0u);
    EXPECT_LT(pool.capacity() - total, 4096u);
  }
}

TEST(MemoryPool, AllocateBlockSize) {
  HostPool pool(Kokkos::HostSpace(), MiB, 48, 3000, 64 * KiB);
  EXPECT_EQ(pool.min_block_size(), 64u);
  EXPECT_EQ(pool.max_block_size(), 4096u);
  EXPECT_EQ(pool.allocate_block_size(0), 0u);
  EXPECT_EQ(pool.allocate_block_size(1), 64u);
  EXPECT_EQ(pool.allocate_block_size(64), 64u);
  EXPECT_EQ(pool.allocate_block_size(65), 128u);
  EXPECT_EQ(pool.allocate_block_size(1024), 1024u);
  EXPECT_EQ(pool.allocate_block_size(1025), 2048u);
  EXPECT_EQ(pool.allocate_block_size(4096), 4096u);
  EXPECT_EQ(pool.allocate_block_size(4097), 0u);
}

void expect_invalid(std::size_t total, std::size_t min_block, std::size_t max_block, std::size_t superblock,
                    const std::vector<std::string>& fragments) {
  try {
    HostPool pool(Kokkos::HostSpace(), total, min_block, max_block, superblock);
    ADD_FAILURE() << "no exception for (" << total << ", " << min_block << ", " << max_block << ", " << superblock
                  << ")";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Kokkos::MemoryPool"), std::string::npos) << what;
    for (const auto& f : fragments) EXPECT_NE(what.find(f), std::string::npos) << "missing '" << f << "' in: " << what;
  }
}

TEST(MemoryPool, EveryConstraintViolationThrowsNamingIt) {
  expect_invalid(0, 0, 0, 0, {"0 < min_total_alloc_size", "min_total_alloc_size = 0"});
  expect_invalid(0, 64, 128, 256, {"0 < min_total_alloc_size"});
  expect_invalid(MiB, 128, 64, 4096,
                 {"min_block_alloc_size <= max_block_alloc_size", "min_block_alloc_size = 128",
                  "max_block_alloc_size = 64"});
  expect_invalid(MiB, 64, 8192, 4096,
                 {"max_block_alloc_size <= min_superblock_size", "max_block_alloc_size = 8192",
                  "min_superblock_size = 4096"});
  expect_invalid(4096, 64, 256, 8192,
                 {"min_superblock_size <= min_total_alloc_size", "min_superblock_size = 8192",
                  "min_total_alloc_size = 4096"});
  expect_invalid(std::size_t(1) << 33, 64, 4096, std::size_t(1) << 32,
                 {"min_superblock_size <= 2^31", "min_superblock_size = 4294967296"});
  expect_invalid(std::size_t(1) << 32, 1, 1, std::size_t(1) << 26,
                 {"at most 2^25", "2^26 blocks of 2^0 bytes"});
  // The count uses the rounded sizes: 3-byte blocks round to 4, so a 2^27-byte superblock holds
  // 2^25 of them (allowed), while 2-byte blocks would be 2^26.
  EXPECT_NO_THROW(HostPool(Kokkos::HostSpace(), std::size_t(1) << 27, 3, 4, std::size_t(1) << 27));
  expect_invalid(std::size_t(1) << 27, 2, 4, std::size_t(1) << 27, {"at most 2^25", "2^26 blocks of 2^1 bytes"});
  // Defaulted values are reported as such.
  expect_invalid(MiB, 8192, 0, 4096, {"min_block_alloc_size <= max_block_alloc_size", "after defaults"});
}

// ------------------------------------------------------------------------------------------------
// Ownership
// ------------------------------------------------------------------------------------------------

// A host memory space that counts what the pool asks of it.
struct CountingSpace {
  using memory_space = CountingSpace;
  using execution_space = Kokkos::DefaultHostExecutionSpace;
  using device_type = Kokkos::Device<execution_space, memory_space>;
  using size_type = std::size_t;
  static constexpr bool is_host_accessible = true;
  static inline int allocations = 0;
  static inline int deallocations = 0;
  static inline std::string last_label;
  void* allocate(const char* label, std::size_t bytes) const {
    ++allocations;
    last_label = label;
    return Kokkos::HostSpace().allocate(label, bytes);
  }
  void deallocate(const char* label, void* p, std::size_t bytes) const {
    ++deallocations;
    Kokkos::HostSpace().deallocate(label, p, bytes);
  }
};

TEST(MemoryPool, OneLabelledAllocationFreedWithTheLastCopy) {
  using Pool = Kokkos::MemoryPool<CountingSpace>;
  static_assert(std::is_same_v<Pool::memory_space, CountingSpace>);
  const int allocations = CountingSpace::allocations, deallocations = CountingSpace::deallocations;
  // Invalid sizes throw before anything is allocated.
  EXPECT_THROW(Pool(CountingSpace(), 4096, 64, 256, 8192), std::runtime_error);
  EXPECT_THROW(Pool(CountingSpace(), 0), std::runtime_error);
  EXPECT_EQ(CountingSpace::allocations, allocations);
  {
    Pool a(CountingSpace(), 64 * KiB, 64, 1024, 16 * KiB);
    EXPECT_EQ(CountingSpace::allocations, allocations + 1);
    EXPECT_EQ(CountingSpace::last_label, "Kokkos::MemoryPool");
    void* p = a.allocate(100);
    EXPECT_NE(p, nullptr);
    Pool b = a;
    Pool c;
    c = b;
    {
      const Pool d = std::move(a);
      EXPECT_EQ(CountingSpace::allocations, allocations + 1);  // copies share the span
    }
    EXPECT_EQ(CountingSpace::deallocations, deallocations);  // b and c still hold it
    b = Pool();
    EXPECT_EQ(CountingSpace::deallocations, deallocations);
    c.deallocate(p, 100);
  }
  EXPECT_EQ(CountingSpace::deallocations, deallocations + 1);
}

TEST(MemoryPool, DefaultConstructedPoolIsEmpty) {
  HostPool pool;
  EXPECT_EQ(pool.capacity(), 0u);
  EXPECT_EQ(pool.min_block_size(), 0u);
  EXPECT_EQ(pool.max_block_size(), 0u);
  EXPECT_EQ(pool.number_of_superblocks(), 0);
  EXPECT_EQ(pool.allocate_block_size(8), 0u);
  EXPECT_EQ(pool.allocate(8), nullptr);
  EXPECT_EQ(pool.allocate(1 << 20, 10), nullptr);
  pool.deallocate(nullptr, 8);
  EXPECT_TRUE(pool == HostPool());
  const auto s = stats_of(pool);
  EXPECT_EQ(s.capacity_bytes, 0u);
  EXPECT_EQ(s.capacity_superblocks, 0u);
  EXPECT_EQ(s.consumed_blocks, 0u);
  std::ostringstream os;
  pool.print_state(os);
  EXPECT_NE(os.str().find("0 superblocks"), std::string::npos) << os.str();
}

TEST(MemoryPool, CopiesShareOneSpan) {
  HostPool a(Kokkos::HostSpace(), 64 * KiB, 64, 1024, 16 * KiB);
  HostPool b = a;
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a != b);
  EXPECT_EQ(b.max_block_size(), 1024u);
  EXPECT_EQ(b.allocate_block_size(1024), 1024u);
  HostPool other(Kokkos::HostSpace(), 64 * KiB, 64, 1024, 16 * KiB);
  EXPECT_FALSE(a == other);

  void* p = a.allocate(100);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(stats_of(b).consumed_blocks, 1u);
  b.deallocate(p, 100);
  EXPECT_EQ(stats_of(a).consumed_blocks, 0u);

  // The span lives as long as any copy: allocate through a copy after the original is gone.
  HostPool c;
  {
    HostPool d(Kokkos::HostSpace(), 64 * KiB, 64, 1024, 16 * KiB);
    c = d;
  }
  char* q = static_cast<char*>(c.allocate(1024));
  ASSERT_NE(q, nullptr);
  std::memset(q, 0x5a, 1024);
  c.deallocate(q, 1024);

  // Assignment over a pool releases the old span and shares the new one; self-assignment is a no-op.
  c = a;
  EXPECT_TRUE(c == a);
  c = *&c;
  EXPECT_TRUE(c == a);
  EXPECT_NE(c.allocate(64), nullptr);
}

TEST(MemoryPool, MoveLeavesTheSourceEmpty) {
  HostPool a(Kokkos::HostSpace(), 64 * KiB, 64, 1024, 16 * KiB);
  const HostPool keep = a;
  HostPool b(std::move(a));
  EXPECT_TRUE(b == keep);
  EXPECT_TRUE(a == HostPool());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  EXPECT_EQ(a.capacity(), 0u);
  EXPECT_EQ(a.max_block_size(), 0u);
  EXPECT_EQ(a.allocate(64), nullptr);
  HostPool c;
  c = std::move(b);
  EXPECT_TRUE(c == keep);
  EXPECT_TRUE(b == HostPool());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(b.max_block_size(), 0u);
  EXPECT_EQ(c.capacity(), 64 * KiB);
  EXPECT_EQ(c.max_block_size(), 1024u);
  void* p = c.allocate(1024);
  EXPECT_NE(p, nullptr);
  c.deallocate(p, 1024);
}

// ------------------------------------------------------------------------------------------------
// Allocation
// ------------------------------------------------------------------------------------------------

TEST(MemoryPool, BlocksAreAlignedToTheirSizeAndDisjoint) {
  HostPool pool(Kokkos::HostSpace(), 4 * MiB, 32, 64 * KiB, 256 * KiB);
  std::vector<std::pair<char*, std::size_t>> blocks;
  for (std::size_t size = 1; size <= 64 * KiB; size = size * 3 + 1) {
    for (int k = 0; k < 5; ++k) {
      char* p = static_cast<char*>(pool.allocate(size));
      ASSERT_NE(p, nullptr) << size;
      const std::size_t block = pool.allocate_block_size(size);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % block, 0u) << "block of " << block << " bytes at " << (void*)p;
      std::memset(p, int(blocks.size() & 0xff), size);
      blocks.emplace_back(p, block);
    }
  }
  std::sort(blocks.begin(), blocks.end());
  for (std::size_t i = 1; i < blocks.size(); ++i) {
    EXPECT_LE(blocks[i - 1].first + blocks[i - 1].second, blocks[i].first) << "overlapping blocks";
  }
  for (auto& [p, block] : blocks) pool.deallocate(p, 1);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

// impl_bookkeeping(): the pool's own words (hints, superblock states and bits), before every
// block, shared by copies of the pool; what an allocation and a search write lies inside it.
TEST(MemoryPool, BookkeepingSpanHoldsThePoolsOwnWordsBeforeEveryBlock) {
  EXPECT_EQ(HostPool().impl_bookkeeping(), (std::pair<const void*, std::size_t>(nullptr, 0)));
  HostPool pool(Kokkos::HostSpace(), 256 * KiB, 64, 1024, 16 * KiB);
  const auto [words, bytes] = pool.impl_bookkeeping();
  ASSERT_NE(words, nullptr);
  ASSERT_GT(bytes, std::size_t(pool.number_of_superblocks()) * sizeof(std::uint32_t));
  EXPECT_EQ(HostPool(pool).impl_bookkeeping(), pool.impl_bookkeeping());
  const char* const begin = static_cast<const char*>(words);
  const std::vector<char> before(begin, begin + bytes);
  std::vector<void*> blocks;
  while (void* p = pool.allocate(64)) blocks.push_back(p);  // every superblock, hints moving
  ASSERT_EQ(blocks.size(), pool.capacity() / 64);
  for (void* p : blocks) EXPECT_GE(static_cast<const char*>(p), begin + bytes) << "a block inside the bookkeeping";
  EXPECT_NE(std::vector<char>(begin, begin + bytes), before) << "the states of full superblocks lie in the span";
  for (void* p : blocks) pool.deallocate(p, 64);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

TEST(MemoryPool, ZeroBytesAndAttemptLimitBelowOneReturnNull) {
  HostPool pool(Kokkos::HostSpace(), 64 * KiB, 64, 1024, 16 * KiB);
  EXPECT_EQ(pool.allocate(0), nullptr);
  EXPECT_EQ(pool.allocate(0, 100), nullptr);
  EXPECT_EQ(pool.allocate(64, 0), nullptr);
  EXPECT_EQ(pool.allocate(64, -1), nullptr);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
  void* p = pool.allocate(64, 1);
  EXPECT_NE(p, nullptr);
  pool.deallocate(p, 64);
}

TEST(MemoryPool, SingleBlockSizeSingleSuperblock) {
  // Seed 001 §2.5.4: min == max block and total == superblock: one bit array, exact capacity.
  HostPool pool(Kokkos::HostSpace(), 8 * KiB, 128, 128, 8 * KiB);
  ASSERT_EQ(pool.number_of_superblocks(), 1);
  std::vector<void*> ptrs;
  for (int i = 0; i < 64; ++i) {
    void* p = pool.allocate(100);
    ASSERT_NE(p, nullptr) << i;
    ptrs.push_back(p);
  }
  EXPECT_EQ(pool.allocate(1), nullptr);
  EXPECT_EQ(pool.allocate(1, 50), nullptr);
  pool.deallocate(ptrs[17], 100);
  void* again = pool.allocate(128);
  EXPECT_EQ(again, ptrs[17]);  // the only free block
  for (void* p : ptrs) pool.deallocate(p, 100);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

TEST(MemoryPool, BlockAsLargeAsTheSuperblock) {
  HostPool pool(Kokkos::HostSpace(), 4 * 4096, 64, 4096, 4096);
  std::vector<void*> ptrs;
  for (int i = 0; i < 4; ++i) ptrs.push_back(pool.allocate(4096));
  for (void* p : ptrs) ASSERT_NE(p, nullptr);
  EXPECT_EQ(pool.allocate(1), nullptr);
  const auto s = stats_of(pool);
  EXPECT_EQ(s.consumed_superblocks, 4u);
  EXPECT_EQ(s.consumed_blocks, 4u);
  EXPECT_EQ(s.consumed_bytes, 4u * 4096);
  EXPECT_EQ(s.reserved_blocks, 0u);
  for (void* p : ptrs) pool.deallocate(p, 4096);
  EXPECT_NE(pool.allocate(1), nullptr);  // an emptied superblock takes another size
}

// Kokkos' test_memory_pool_v2: 70,000 concurrent allocations of 32*(1 + i%5) bytes, blocks of
// 64..256 bytes, attempt_limit 1; consumed_blocks equals the successful allocations after each
// phase.  The issue's configuration is the 1 MiB superblock (10 superblocks of 1 MiB).
template <class Space>
void check_exact_packing(std::size_t min_superblock_size) {
  constexpr std::size_t total = 10000000;
  constexpr long nfill = 70000;
  HostPool pool(Kokkos::HostSpace(), total, 64, 256, min_superblock_size);
  std::vector<std::uintptr_t> ptrs(nfill, 0);
  std::uintptr_t* p = ptrs.data();
  const auto size_of = [](long i) { return std::size_t(32 * (1 + i % 5)); };
  long count = 0;
  long* c = &count;
  const auto live = [&] { return long(std::count_if(ptrs.begin(), ptrs.end(), [](auto x) { return x != 0; })); };
  const auto check_phase = [&](const char* phase, long expected_live) {
    const auto s = stats_of(pool);
    EXPECT_EQ(live(), expected_live) << phase;
    EXPECT_EQ(long(s.consumed_blocks), expected_live) << phase;
    // No two live blocks overlap.
    std::vector<std::pair<std::uintptr_t, std::size_t>> blocks;
    for (long i = 0; i < nfill; ++i)
      if (ptrs[i]) blocks.emplace_back(ptrs[i], pool.allocate_block_size(size_of(i)));
    std::sort(blocks.begin(), blocks.end());
    for (std::size_t i = 1; i < blocks.size(); ++i) ASSERT_LE(blocks[i - 1].first + blocks[i - 1].second, blocks[i].first);
    if (::testing::Test::HasFailure()) pool.print_state(std::cout);
  };

  Kokkos::parallel_for("fill", Kokkos::RangePolicy<Space>(0, nfill), [=](std::int64_t i) {
    p[i] = reinterpret_cast<std::uintptr_t>(pool.allocate(size_of(i), 1));
    if (p[i]) Kokkos::atomic_add(c, 1L);
  });
  EXPECT_EQ(count, nfill) << "superblock " << min_superblock_size;
  check_phase("fill", nfill);

  count = 0;
  Kokkos::parallel_for("free every third", Kokkos::RangePolicy<Space>(0, nfill), [=](std::int64_t i) {
    if (p[i] && i % 3 == 0) {
      pool.deallocate(reinterpret_cast<void*>(p[i]), size_of(i));
      p[i] = 0;
      Kokkos::atomic_add(c, 1L);
    }
  });
  const long ndel = count;
  EXPECT_EQ(ndel, (nfill + 2) / 3);
  check_phase("free every third", nfill - ndel);

  count = 0;
  Kokkos::parallel_for("refill", Kokkos::RangePolicy<Space>(0, nfill), [=](std::int64_t i) {
    if (!p[i] && i % 3 == 0) {
      p[i] = reinterpret_cast<std::uintptr_t>(pool.allocate(size_of(i), 1));
      if (p[i]) Kokkos::atomic_add(c, 1L);
    }
  });
  EXPECT_EQ(count, ndel);
  check_phase("refill", nfill);

  count = 0;
  Kokkos::parallel_for("mixed", Kokkos::RangePolicy<Space>(0, nfill), [=](std::int64_t i) {
    if (p[i] && i % 3 == 0) {
      pool.deallocate(reinterpret_cast<void*>(p[i]), size_of(i));
      p[i] = reinterpret_cast<std::uintptr_t>(pool.allocate(size_of(i), 1));
      if (p[i]) Kokkos::atomic_add(c, 1L);
    }
  });
  EXPECT_EQ(count, ndel);
  check_phase("mixed", nfill);

  Kokkos::parallel_for("free all", Kokkos::RangePolicy<Space>(0, nfill), [=](std::int64_t i) {
    if (p[i]) pool.deallocate(reinterpret_cast<void*>(p[i]), size_of(i));
  });
  const auto s = stats_of(pool);
  EXPECT_EQ(s.consumed_blocks, 0u);
  EXPECT_EQ(s.consumed_superblocks, 0u);
  EXPECT_EQ(s.consumed_bytes, 0u);
}

TYPED_TEST(MemoryPoolTest, ExactPackingOneMiBSuperblocks) {
  HostPool probe(Kokkos::HostSpace(), 10000000, 64, 256, 1000000);
  ASSERT_EQ(probe.number_of_superblocks(), 10);
  ASSERT_EQ(probe.capacity(), 10 * MiB);
  check_exact_packing<TypeParam>(1000000);
}

TYPED_TEST(MemoryPoolTest, ExactPackingSmallerSuperblocks) {
  check_exact_packing<TypeParam>(10000);
  check_exact_packing<TypeParam>(100000);
}

// Kokkos' test_memory_pool_corners: four 16 KiB superblocks, blocks 64..512: one block of each
// size locks each superblock to a size, then 476 more 64-byte blocks fill every superblock to its
// last block through the larger-block fallback.
TYPED_TEST(MemoryPoolTest, FillsToTheLastBlockThroughLargerBlocks) {
  HostPool pool(Kokkos::HostSpace(), 4 * 16 * KiB, 64, 512, 16 * KiB);
  ASSERT_EQ(pool.number_of_superblocks(), 4);
  std::vector<std::uintptr_t> ptrs(480, 0);
  std::uintptr_t* p = ptrs.data();
  long count = 0;
  long* c = &count;
  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(0, 4), [=](std::int64_t i) {
    p[i] = reinterpret_cast<std::uintptr_t>(pool.allocate(std::size_t(64) << i));
    if (p[i]) Kokkos::atomic_add(c, 1L);
  });
  ASSERT_EQ(count, 4);
  std::set<std::size_t> sizes;
  for (int sb = 0; sb < 4; ++sb) {
    int size = 0, capacity = 0, used = 0;
    pool.superblock_state(sb, size, capacity, used);
    EXPECT_EQ(used, 1) << "superblock " << sb;
    EXPECT_EQ(size * capacity, int(16 * KiB));
    sizes.insert(std::size_t(size));
  }
  EXPECT_EQ(sizes, (std::set<std::size_t>{64, 128, 256, 512}));

  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(4, 480), [=](std::int64_t i) {
    p[i] = reinterpret_cast<std::uintptr_t>(pool.allocate(64));
    if (p[i]) Kokkos::atomic_add(c, 1L);
  });
  EXPECT_EQ(count, 480);
  EXPECT_EQ(pool.allocate(1), nullptr);
  EXPECT_EQ(pool.allocate(64, 20), nullptr);
  auto s = stats_of(pool);
  EXPECT_EQ(s.consumed_blocks, 480u);
  EXPECT_EQ(s.consumed_bytes, 64 * KiB);
  EXPECT_EQ(s.consumed_superblocks, 4u);
  EXPECT_EQ(s.reserved_blocks, 0u);
  EXPECT_EQ(s.reserved_bytes, 0u);
  for (int sb = 0; sb < 4; ++sb) {
    int size = 0, capacity = 0, used = 0;
    pool.superblock_state(sb, size, capacity, used);
    EXPECT_EQ(used, capacity) << "superblock " << sb << " is not full";
  }

  // Free the 512-byte block: the next 64-byte request takes it.
  pool.deallocate(reinterpret_cast<void*>(p[3]), 512);
  void* again = pool.allocate(64);
  EXPECT_NE(again, nullptr);
  pool.deallocate(again, 64);
  p[3] = 0;
  for (auto x : ptrs)
    if (x) pool.deallocate(reinterpret_cast<void*>(x), 64);
  s = stats_of(pool);
  EXPECT_EQ(s.consumed_blocks, 0u);
  EXPECT_EQ(s.consumed_superblocks, 0u);
}

TEST(MemoryPool, EmptiedSuperblockIsReassigned) {
  // One superblock: full of 64-byte blocks, emptied, then full of 1024-byte blocks.
  HostPool pool(Kokkos::HostSpace(), 8 * KiB, 64, 1024, 8 * KiB);
  std::vector<void*> small;
  while (void* p = pool.allocate(64)) small.push_back(p);
  EXPECT_EQ(small.size(), 128u);
  EXPECT_EQ(pool.allocate(1024), nullptr);  // full of smaller blocks
  pool.deallocate(small.back(), 64);
  small.pop_back();
  EXPECT_EQ(pool.allocate(1024), nullptr);  // one free 64-byte block cannot hold 1024 bytes
  for (void* p : small) pool.deallocate(p, 64);
  std::vector<void*> big;
  while (void* p = pool.allocate(1000)) big.push_back(p);
  EXPECT_EQ(big.size(), 8u);
  int size = 0, capacity = 0, used = 0;
  pool.superblock_state(0, size, capacity, used);
  EXPECT_EQ(size, 1024);
  EXPECT_EQ(capacity, 8);
  EXPECT_EQ(used, 8);
  for (void* p : big) pool.deallocate(p, 1000);
}

TEST(MemoryPool, PrefersItsOwnSizeThenEmptyThenLarger) {
  // Three superblocks of 4 KiB, blocks of 64 and 128 bytes.  Superblocks 0 and 1 start assigned
  // to 64 and 128 bytes (SBStart of each size), superblock 2 is unassigned.
  HostPool pool(Kokkos::HostSpace(), 3 * 4096, 64, 128, 4096);
  const auto used_in = [&](int sb) {
    int size = 0, capacity = 0, used = 0;
    stats_of(pool);  // empties the magazines: blocks reserved by a refill but not handed out
    pool.superblock_state(sb, size, capacity, used);
    return std::make_pair(size, used);
  };
  void* big = pool.allocate(128);
  ASSERT_NE(big, nullptr);
  std::vector<void*> small;
  for (int i = 0; i < 64; ++i) small.push_back(pool.allocate(64));
  for (void* q : small) ASSERT_NE(q, nullptr);
  EXPECT_EQ(used_in(0), std::make_pair(64, 64));
  EXPECT_EQ(used_in(1), std::make_pair(128, 1));
  EXPECT_EQ(used_in(2), std::make_pair(0, 0));

  // Superblock 0 is full: an empty superblock is preferred to the larger blocks of superblock 1.
  for (int i = 0; i < 64; ++i) small.push_back(pool.allocate(64));
  for (void* q : small) ASSERT_NE(q, nullptr);
  EXPECT_EQ(used_in(2), std::make_pair(64, 64));
  EXPECT_EQ(used_in(1), std::make_pair(128, 1));

  // No 64-byte block and no empty superblock is left: the larger blocks of superblock 1 serve.
  void* fallback = pool.allocate(64);
  ASSERT_NE(fallback, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(fallback) % 128, 0u);
  EXPECT_EQ(used_in(1), std::make_pair(128, 2));
  auto s = stats_of(pool);
  EXPECT_EQ(s.consumed_blocks, 130u);
  EXPECT_EQ(s.consumed_bytes, 128u * 64 + 2u * 128);  // the fallback block counts as 128 bytes

  // A freed 64-byte block is preferred to the larger blocks again.
  pool.deallocate(small[5], 64);
  void* own = pool.allocate(64);
  EXPECT_EQ(own, small[5]);
  EXPECT_EQ(used_in(1), std::make_pair(128, 2));

  pool.deallocate(fallback, 64);
  pool.deallocate(big, 128);
  for (void* q : small) pool.deallocate(q, 64);
  s = stats_of(pool);
  EXPECT_EQ(s.consumed_blocks, 0u);
  EXPECT_EQ(s.consumed_superblocks, 0u);
}

TEST(MemoryPool, UsageStatisticsAreExact) {
  HostPool pool(Kokkos::HostSpace(), MiB, 64, 4096, 64 * KiB);
  ASSERT_EQ(pool.number_of_superblocks(), 16);
  auto s = stats_of(pool);
  EXPECT_EQ(s.capacity_bytes, MiB);
  EXPECT_EQ(s.superblock_bytes, 64 * KiB);
  EXPECT_EQ(s.max_block_bytes, 4096u);
  EXPECT_EQ(s.min_block_bytes, 64u);
  EXPECT_EQ(s.capacity_superblocks, 16u);
  EXPECT_EQ(s.consumed_superblocks, 0u);
  EXPECT_EQ(s.consumed_blocks, 0u);
  EXPECT_EQ(s.consumed_bytes, 0u);
  EXPECT_EQ(s.reserved_blocks, 0u);
  EXPECT_EQ(s.reserved_bytes, 0u);

  std::vector<std::pair<void*, std::size_t>> live;
  for (std::size_t size : {1, 64, 30, 100, 128, 4096}) live.emplace_back(pool.allocate(size), size);
  for (auto& [p, size] : live) ASSERT_NE(p, nullptr);
  s = stats_of(pool);
  EXPECT_EQ(s.consumed_superblocks, 3u);  // one superblock each for 64, 128 and 4096 bytes
  EXPECT_EQ(s.consumed_blocks, 6u);
  EXPECT_EQ(s.consumed_bytes, 3u * 64 + 2u * 128 + 4096u);
  EXPECT_EQ(s.reserved_blocks, (1024u - 3) + (512u - 2) + (16u - 1));
  EXPECT_EQ(s.reserved_bytes, (1024u - 3) * 64 + (512u - 2) * 128 + (16u - 1) * 4096);
  EXPECT_EQ(s.capacity_bytes, MiB);

  // superblock_state agrees with the totals.
  std::size_t blocks = 0, bytes = 0;
  for (int sb = 0; sb < pool.number_of_superblocks(); ++sb) {
    std::size_t size = 0, capacity = 0, used = 0;
    pool.superblock_state(sb, size, capacity, used);
    if (size) {
      EXPECT_EQ(size * capacity, 64 * KiB);
    }
    blocks += used;
    bytes += used * size;
  }
  EXPECT_EQ(blocks, 6u);
  EXPECT_EQ(bytes, s.consumed_bytes);
  int size = 1, capacity = 1, used = 1;
  pool.superblock_state(-1, size, capacity, used);
  EXPECT_EQ(size + capacity + used, 0);
  pool.superblock_state(16, size, capacity, used);
  EXPECT_EQ(size + capacity + used, 0);

  for (auto& [p, sz] : live) pool.deallocate(p, sz);
  s = stats_of(pool);
  EXPECT_EQ(s.consumed_superblocks, 0u);
  EXPECT_EQ(s.consumed_blocks, 0u);
  EXPECT_EQ(s.reserved_blocks, 0u);
}

// ------------------------------------------------------------------------------------------------
// Magazines: a thread's freed blocks of each size wait for its next allocations
// ------------------------------------------------------------------------------------------------

TEST(MemoryPool, AFreedBlockIsTheThreadsNextBlockOfItsSize) {
  HostPool pool(Kokkos::HostSpace(), MiB, 64, 4096, 64 * KiB);
  void* a = pool.allocate(64);
  void* b = pool.allocate(64);
  void* big = pool.allocate(1024);
  ASSERT_TRUE(a && b && big);
  pool.deallocate(a, 64);
  void* other_size = pool.allocate(128);  // another size does not take it
  EXPECT_NE(other_size, a);
  EXPECT_EQ(pool.allocate(40), a);  // the same block size does
  pool.deallocate(b, 64);
  pool.deallocate(a, 64);  // the latest freed comes first
  EXPECT_EQ(pool.allocate(64), a);
  EXPECT_EQ(pool.allocate(64), b);
  for (auto [p, n] : {std::pair{a, 64}, std::pair{b, 64}, std::pair{big, 1024}, std::pair{other_size, 128}}) {
    pool.deallocate(p, n);
  }
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

TEST(MemoryPool, BlocksInMagazinesCountAsFreeInTheStatistics) {
  HostPool pool(Kokkos::HostSpace(), MiB, 64, 4096, 64 * KiB);
  void* a = pool.allocate(64);
  void* b = pool.allocate(64);
  void* c = pool.allocate(4096);
  ASSERT_TRUE(a && b && c);
  pool.deallocate(a, 64);    // into the magazine
  pool.deallocate(c, 4096);  // likewise: its superblock now holds no allocated block
  EXPECT_GE(used_in_state_words(pool), 3u) << "superblock_state reads the state word: blocks in magazines count as used";
  const auto s = stats_of(pool);  // empties the magazines
  EXPECT_EQ(s.consumed_blocks, 1u);
  EXPECT_EQ(s.consumed_bytes, 64u);
  EXPECT_EQ(s.consumed_superblocks, 1u);
  EXPECT_EQ(used_in_state_words(pool), 1u);
  void* d = pool.allocate(4096);
  pool.deallocate(d, 4096);
  std::ostringstream state;
  pool.print_state(state);  // empties them as well
  EXPECT_NE(state.str().find("block_size(4096) block_count( 0 / 16 )"), std::string::npos) << state.str();
  pool.deallocate(b, 64);
}

TEST(MemoryPool, AThreadsFirstCallMayBeAFreeIntoItsMagazine) {
  HostPool pool(Kokkos::HostSpace(), MiB, 64, 64, 64 * KiB);
  void* p = pool.allocate(64);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(stats_of(pool).consumed_blocks, 1u);  // empties this thread's magazine (its refill)
  std::thread([&] { pool.deallocate(p, 64); }).join();  // that thread's first use of any pool
  EXPECT_EQ(used_in_state_words(pool), 1u) << "the block waits in that thread's magazine";
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
  EXPECT_EQ(used_in_state_words(pool), 0u);
}

TEST(MemoryPool, ABlockSmallerThanAPointerComesBackFromItsMagazineWithItsNeighboursIntact) {
  // Blocks of 4 bytes: taking one out of a magazine must not write past it.
  HostPool pool(Kokkos::HostSpace(), 64 * KiB, 4, 64, 16 * KiB);
  ASSERT_EQ(pool.magazine_capacity(), 1u);
  std::vector<std::uint32_t*> blocks;
  for (std::uint32_t i = 0; i < 64; ++i) {
    blocks.push_back(static_cast<std::uint32_t*>(pool.allocate(4)));
    ASSERT_NE(blocks.back(), nullptr);
    *blocks.back() = 0xA5A50000u + i;
  }
  for (std::uint32_t i = 0; i < 64; i += 2) {
    pool.deallocate(blocks[i], 4);
    ASSERT_EQ(pool.allocate(4), blocks[i]) << "the magazine's block";
  }
  for (std::uint32_t i = 1; i < 64; i += 2) EXPECT_EQ(*blocks[i], 0xA5A50000u + i) << i;
  for (std::uint32_t* p : blocks) pool.deallocate(p, 4);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

TEST(MemoryPool, MagazineCapacityFollowsThePoolSize) {
  // 64 blocks where the magazines take at most 1/16 of the capacity, fewer below, at least one;
  // one for pools whose blocks are smaller than a pointer; none outside HostSpace.
  EXPECT_EQ(HostPool(Kokkos::HostSpace(), 64 * MiB, 32, 4096, MiB).magazine_capacity(), 64u);
  EXPECT_EQ(HostPool(Kokkos::HostSpace(), MiB, 64, 64, 64 * KiB).magazine_capacity(), 64u);
  const std::uint32_t small = HostPool(Kokkos::HostSpace(), 4 * MiB, 32, 4096, 64 * KiB).magazine_capacity();
  EXPECT_GE(small, 2u);
  EXPECT_LT(small, 64u);
  EXPECT_EQ(small & (small - 1), 0u) << "a power of two";
  EXPECT_EQ(HostPool(Kokkos::HostSpace(), 16 * KiB, 64, 1024, 4 * KiB).magazine_capacity(), 1u);
  EXPECT_EQ(HostPool(Kokkos::HostSpace(), 64 * MiB, 4, 4096, MiB).magazine_capacity(), 1u);
  EXPECT_EQ(HostPool().magazine_capacity(), 0u);
}

TEST(MemoryPool, AMagazineGivesBackItsBlocksLatestFirstAndReleasesItsOlderHalfWhenFull) {
  HostPool pool(Kokkos::HostSpace(), MiB, 64, 64, 64 * KiB);
  const std::uint32_t capacity = pool.magazine_capacity();
  ASSERT_EQ(capacity, 64u);
  std::vector<void*> blocks;
  for (std::uint32_t i = 0; i < capacity + 10; ++i) blocks.push_back(pool.allocate(64));
  for (void* p : blocks) ASSERT_NE(p, nullptr);
  EXPECT_EQ(stats_of(pool).consumed_blocks, blocks.size());  // also empties the magazine
  for (void* p : blocks) pool.deallocate(p, 64);
  // The last 64 - 32 + 10 = 42 freed are still in the magazine, latest on top; the others went
  // back to their superblock when the magazine was full.
  const std::uint32_t kept = capacity - capacity / 2 + 10;
  for (std::uint32_t i = 0; i < kept; ++i) EXPECT_EQ(pool.allocate(64), blocks[blocks.size() - 1 - i]) << i;
  std::set<void*> all(blocks.end() - kept, blocks.end());
  while (all.size() < blocks.size()) {
    void* p = pool.allocate(64);
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(all.insert(p).second) << "handed out twice";
  }
  for (void* p : all) pool.deallocate(p, 64);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

TEST(MemoryPool, FreesAfterAFlushFillTheMagazineAgainWithoutReleasingAnyBlock) {
  // The flush empties the magazine by moving its top up; the next frees go above it until the
  // last word, and the free after that moves the blocks down instead of releasing half of them.
  HostPool pool(Kokkos::HostSpace(), MiB, 64, 64, 64 * KiB);
  const std::uint32_t capacity = pool.magazine_capacity();
  ASSERT_EQ(capacity, 64u);
  std::vector<void*> blocks;
  for (int i = 0; i < 100; ++i) blocks.push_back(pool.allocate(64));
  for (void* p : blocks) ASSERT_NE(p, nullptr);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 100u);
  for (int i = 0; i < 40; ++i) pool.deallocate(blocks[i], 64);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 60u);  // the flush released those 40
  for (int i = 40; i < 100; ++i) pool.deallocate(blocks[i], 64);  // 24 above the 40, then 36 more
  EXPECT_EQ(used_in_state_words(pool), 60u) << "all 60 still in the magazine, none released";
  for (int i = 99; i >= 40; --i) EXPECT_EQ(pool.allocate(64), blocks[i]) << i;
  for (int i = 40; i < 100; ++i) pool.deallocate(blocks[i], 64);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

TEST(MemoryPool, AFlushReleasesBlocksOfNeighbouringSuperblocksSmallerThanABitWord) {
  // 16 blocks per superblock: blocks of three superblocks, adjacent in memory, share one
  // magazine, and each goes back to its own superblock's bits.
  HostPool pool(Kokkos::HostSpace(), 4 * MiB, 4096, 4096, 64 * KiB);
  ASSERT_EQ(pool.magazine_capacity(), 64u);
  std::vector<void*> blocks;
  for (int i = 0; i < 48; ++i) blocks.push_back(pool.allocate(4096));
  for (void* p : blocks) ASSERT_NE(p, nullptr);
  for (void* p : blocks) pool.deallocate(p, 4096);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
  std::set<void*> all;
  while (void* p = pool.allocate(4096)) ASSERT_TRUE(all.insert(p).second);
  EXPECT_EQ(all.size(), 4 * MiB / 4096);
  for (void* p : all) pool.deallocate(p, 4096);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

TEST(MemoryPool, AnEmptyMagazineRefillsWithNeighbouringBlocks) {
  // A fresh pool: the first allocation reserves half a magazine of blocks at once; they are handed
  // out in address order, and only the blocks handed out count as allocated.
  HostPool pool(Kokkos::HostSpace(), MiB, 64, 64, 64 * KiB);
  std::vector<char*> blocks;
  for (int i = 0; i < 32; ++i) blocks.push_back(static_cast<char*>(pool.allocate(64)));
  for (int i = 1; i < 32; ++i) EXPECT_EQ(blocks[i], blocks[i - 1] + 64) << i;
  EXPECT_EQ(stats_of(pool).consumed_blocks, 32u);
  void* next = pool.allocate(64);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 33u);
  pool.deallocate(next, 64);
  for (char* p : blocks) pool.deallocate(p, 64);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

TEST(MemoryPool, ASuperblockHoldingOnlyBlocksInMagazinesIsReassigned) {
  // One superblock: a 64-byte block in a magazine must not keep it from holding 1024-byte blocks.
  HostPool pool(Kokkos::HostSpace(), 8 * KiB, 64, 1024, 8 * KiB);
  void* small = pool.allocate(64);
  ASSERT_NE(small, nullptr);
  pool.deallocate(small, 64);
  std::vector<void*> big;
  while (void* p = pool.allocate(1000)) big.push_back(p);
  EXPECT_EQ(big.size(), 8u);
  for (void* p : big) pool.deallocate(p, 1000);
}

TEST(MemoryPool, BlocksInOtherThreadsMagazinesServeAFullPool) {
  // Exact capacity: blocks other threads freed (into their magazines) are allocatable by
  // this thread once nothing else is, whether those threads still run or have exited.
  HostPool pool(Kokkos::HostSpace(), 16 * KiB, 64, 64, 16 * KiB);
  const std::size_t blocks = 16 * KiB / 64;
  std::atomic<int> freed{0};
  std::atomic<bool> done{false};
  std::vector<std::thread> alive, exiting;
  for (int t = 0; t < 4; ++t) {
    alive.emplace_back([&] {
      pool.deallocate(pool.allocate(64), 64);
      freed.fetch_add(1);
      while (!done.load()) std::this_thread::yield();
    });
    exiting.emplace_back([&] {
      pool.deallocate(pool.allocate(64), 64);
      freed.fetch_add(1);
    });
  }
  for (auto& t : exiting) t.join();
  while (freed.load() < 8) std::this_thread::yield();
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
  std::set<void*> mine;
  while (void* p = pool.allocate(64)) ASSERT_TRUE(mine.insert(p).second);
  EXPECT_EQ(mine.size(), blocks);
  EXPECT_EQ(stats_of(pool).consumed_blocks, blocks);
  done = true;
  for (auto& t : alive) t.join();
  for (void* p : mine) pool.deallocate(p, 64);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

TEST(MemoryPool, PrintStateShowsEverySuperblock) {
  HostPool pool(Kokkos::HostSpace(), MiB, 64, 4096, 64 * KiB);
  void* a = pool.allocate(64);
  void* b = pool.allocate(60);
  void* c = pool.allocate(3000);
  std::ostringstream os;
  pool.print_state(os);
  const std::string out = os.str();
  EXPECT_NE(out.find("capacity 1048576 bytes in 16 superblocks of 65536 bytes"), std::string::npos) << out;
  EXPECT_NE(out.find("block_size(64) block_count( 2 / 1024 )"), std::string::npos) << out;
  EXPECT_NE(out.find("block_size(4096) block_count( 1 / 16 )"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 17) << out;
  EXPECT_NE(out.find("Superblock[ 15 / 16 ]"), std::string::npos) << out;
  pool.deallocate(a, 64);
  pool.deallocate(b, 60);
  pool.deallocate(c, 3000);
}

TEST(MemoryPool, ConcurrentThreadsStartInDifferentSuperblocks) {
  // One block size and 128 superblocks: 64 lanes, each with its own starting superblock.  Threads
  // alive at the same time hold different lanes, so their first blocks land in different
  // superblocks and they do not contend for one state word.
  HostPool pool(Kokkos::HostSpace(), 128 * 4096, 64, 64, 4096);
  constexpr int threads = 4;
  std::vector<void*> ptrs(threads + 1, nullptr);
  ptrs[threads] = pool.allocate(64);  // this thread holds its lane throughout
  std::atomic<int> allocated{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      ptrs[t] = pool.allocate(64);
      allocated.fetch_add(1);
      while (allocated.load() < threads) std::this_thread::yield();  // stay alive: keep the lane
    });
  }
  for (auto& w : workers) w.join();
  stats_of(pool);  // empties the magazines: the rest of each thread's first refill goes back
  int used_superblocks = 0;
  for (int sb = 0; sb < pool.number_of_superblocks(); ++sb) {
    int size = 0, capacity = 0, used = 0;
    pool.superblock_state(sb, size, capacity, used);
    EXPECT_LE(used, 1) << "superblock " << sb;
    used_superblocks += used;
  }
  EXPECT_EQ(used_superblocks, threads + 1);
  for (void* p : ptrs) {
    EXPECT_NE(p, nullptr);
    pool.deallocate(p, 64);
  }
}

TEST(MemoryPool, AFullSuperblocksThreadMovesToAnEmptyOneNotToAnotherLanes) {
  // Blocks of 64 and 128 bytes (64 and 32 per superblock), 64 superblocks: 32 lanes, lane l
  // starting in superblock 2l for 64 bytes and 2l + 1 for 128 bytes (its hints).  When this
  // thread's superblock of 64-byte blocks fills, the first one of that size with room is
  // another lane's; it takes the empty one after its own (reassigned to 64 bytes) instead, so
  // two threads filling the pool do not share a state word.  Then it fills the whole pool with
  // 64-byte blocks, the other lanes' superblocks included: capacity stays exact.
  HostPool pool(Kokkos::HostSpace(), 64 * 4096, 64, 128, 4096);
  const auto used_in = [&](int sb) {
    int size = 0, capacity = 0, used = 0;
    stats_of(pool);  // empties the magazines: blocks reserved by a refill but not handed out
    pool.superblock_state(sb, size, capacity, used);
    return used;
  };
  const auto superblocks_used = [&] {
    std::vector<int> sbs;
    for (int sb = 0; sb < pool.number_of_superblocks(); ++sb)
      if (used_in(sb) > 0) sbs.push_back(sb);
    return sbs;
  };
  std::vector<void*> mine{pool.allocate(64)};
  ASSERT_NE(mine[0], nullptr);
  const int own = superblocks_used().at(0);
  void* other = nullptr;
  std::thread([&] { other = pool.allocate(64); }).join();
  ASSERT_NE(other, nullptr);
  const std::vector<int> both = superblocks_used();
  if (both.size() != 2) GTEST_SKIP() << "the two threads hold the same lane of this pool";
  const int others = both[0] == own ? both[1] : both[0];
  EXPECT_EQ(own % 2, 0) << "this thread's first superblock: " << own;
  EXPECT_EQ(others % 2, 0) << "the other thread's first superblock: " << others;

  while (mine.size() < 64) mine.push_back(pool.allocate(64));
  EXPECT_EQ(used_in(own), 64);
  mine.push_back(pool.allocate(64));
  ASSERT_NE(mine.back(), nullptr);
  EXPECT_EQ(used_in((own + 1) % 64), 1) << "the first empty superblock after its own";
  EXPECT_EQ(used_in(others), 1) << "the other thread's superblock stays its own";
  for (int sb = 0; sb < 64; sb += 2) {
    if (sb != own && sb != others) {
      EXPECT_EQ(used_in(sb), 0) << "superblock " << sb << " starts another lane";
    }
  }

  while (void* p = pool.allocate(64)) mine.push_back(p);
  EXPECT_EQ(mine.size(), 64u * 64u - 1u);
  EXPECT_EQ(used_in(others), 64);
  pool.deallocate(other, 64);
  for (void* p : mine) pool.deallocate(p, 64);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

TYPED_TEST(MemoryPoolTest, AllocatesInsideFunctors) {
  HostPool pool(Kokkos::HostSpace(), 4 * MiB, 32, 4096, 256 * KiB);
  constexpr int n = 20000;
  long failures = 0;
  long* f = &failures;
  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(0, n), KOKKOS_LAMBDA(std::int64_t i) {
    const std::size_t size = std::size_t(1) + std::size_t(i * 7919) % 4096;
    auto* q = static_cast<unsigned char*>(pool.allocate(size));
    if (!q) {
      Kokkos::atomic_add(f, 1L);
      return;
    }
    for (std::size_t k = 0; k < size; ++k) q[k] = static_cast<unsigned char>(i + k);
    for (std::size_t k = 0; k < size; ++k)
      if (q[k] != static_cast<unsigned char>(i + k)) Kokkos::atomic_add(f, 1L);
    pool.deallocate(q, size);
  });
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(stats_of(pool).consumed_blocks, 0u);
}

// ------------------------------------------------------------------------------------------------
// In each back end's own memory, from its own threads (on Cuda: device memory, device threads,
// whole warps allocating at once)
// ------------------------------------------------------------------------------------------------

template <class Space>
struct MemoryPoolOnSpace : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(MemoryPoolOnSpace, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

template <class Exec, class Mem = typename Exec::memory_space>
using SpacePool = Kokkos::MemoryPool<Kokkos::Device<Exec, Mem>>;
template <class Mem>
using Pointers = Kokkos::View<std::uintptr_t*, Mem>;

// Item i allocates a block of size_of(i) bytes and writes i into every word of it.
template <class Exec, class Mem, class SizeOf>
void fill_owned(const SpacePool<Exec, Mem>& pool, const Pointers<Mem>& ptrs, SizeOf size_of) {
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Exec>(0, ptrs.extent(0)), KOKKOS_LAMBDA(std::int64_t i) {
        auto* p = static_cast<std::int64_t*>(pool.allocate(size_of(i)));
        ptrs(i) = reinterpret_cast<std::uintptr_t>(p);
        if (p != nullptr) {
          for (std::size_t k = 0; k < size_of(i) / sizeof(std::int64_t); ++k) p[k] = i;
        }
      });
}

// The items whose block is missing, misaligned, or no longer holds their id everywhere (a
// block handed to two items holds only one id).
template <class Exec, class Mem, class SizeOf>
long count_not_owned(const SpacePool<Exec, Mem>& pool, const Pointers<Mem>& ptrs, SizeOf size_of) {
  long bad = 0;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Exec>(0, ptrs.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i, long& errors) {
        const std::uintptr_t p = ptrs(i);
        const std::size_t block = pool.allocate_block_size(size_of(i));
        if (p == 0 || p % block != 0) {
          ++errors;
          return;
        }
        const auto* words = reinterpret_cast<const std::int64_t*>(p);
        for (std::size_t k = 0; k < size_of(i) / sizeof(std::int64_t); ++k) {
          if (words[k] != i) {
            ++errors;
            return;
          }
        }
      },
      bad);
  return bad;
}

template <class Exec, class Mem, class SizeOf>
void drain(const SpacePool<Exec, Mem>& pool, const Pointers<Mem>& ptrs, SizeOf size_of) {
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Exec>(0, ptrs.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) { pool.deallocate(reinterpret_cast<void*>(ptrs(i)), size_of(i)); });
}

struct FixedSize {
  std::size_t bytes;
  KOKKOS_INLINE_FUNCTION std::size_t operator()(std::int64_t) const { return bytes; }
};
struct FourSizes {  // 64, 128, 256, 512 bytes in turn
  KOKKOS_INLINE_FUNCTION std::size_t operator()(std::int64_t i) const { return std::size_t(64) << (i % 4); }
};

TYPED_TEST(MemoryPoolOnSpace, FillToExhaustionDrainAndRefillWithOwnershipChecks) {
  using Exec = TypeParam;
  using Mem = typename Exec::memory_space;
  using Pool = SpacePool<Exec>;
  Pool pool(Mem(), MiB, 64, 4096, 64 * KiB);  // 16 superblocks
  ASSERT_EQ(pool.capacity(), MiB);

  // Every block of 256 bytes, one per item: the pool packs exactly (no allocation may fail
  // while room is left, whatever the interleaving), and is then full.
  const FixedSize quarter_kib{256};
  const std::int64_t n = std::int64_t(MiB / 256);
  Pointers<Mem> ptrs("ptrs", n);
  fill_owned<Exec>(pool, ptrs, quarter_kib);
  Kokkos::fence();
  EXPECT_EQ(count_not_owned<Exec>(pool, ptrs, quarter_kib), 0);

  long refused = 0;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Exec>(0, 256),
      KOKKOS_LAMBDA(std::int64_t i, long& r) {
        // Every size, from many threads: all refused.
        if (pool.allocate(std::size_t(64) << (i % 7), 4) == nullptr) ++r;
      },
      refused);
  EXPECT_EQ(refused, 256) << "allocations from a full pool must return nullptr";

  typename Pool::usage_statistics s;
  pool.get_usage_statistics(s);
  EXPECT_EQ(s.capacity_bytes, MiB);
  EXPECT_EQ(s.capacity_superblocks, 16u);
  EXPECT_EQ(s.consumed_superblocks, 16u);
  EXPECT_EQ(s.consumed_blocks, std::size_t(n));
  EXPECT_EQ(s.consumed_bytes, MiB);
  EXPECT_EQ(s.reserved_blocks, 0u);
  EXPECT_EQ(s.reserved_bytes, 0u);
  std::size_t used_total = 0;
  for (int sb = 0; sb < pool.number_of_superblocks(); ++sb) {
    std::size_t size = 0, count = 0, used = 0;
    pool.superblock_state(sb, size, count, used);
    EXPECT_EQ(size, 256u) << "superblock " << sb;
    EXPECT_EQ(used, count) << "superblock " << sb;
    used_total += used;
  }
  EXPECT_EQ(used_total, std::size_t(n));

  drain<Exec>(pool, ptrs, quarter_kib);
  Kokkos::fence();
  pool.get_usage_statistics(s);
  EXPECT_EQ(s.consumed_blocks, 0u);
  EXPECT_EQ(s.consumed_superblocks, 0u);
  EXPECT_EQ(s.consumed_bytes, 0u);

  // Four sizes at once, about half the capacity: the emptied superblocks are reassigned.
  const FourSizes four;
  const std::int64_t m = 2048;  // 512 of each: 480 KiB of blocks
  Pointers<Mem> mixed("mixed", m);
  fill_owned<Exec>(pool, mixed, four);
  Kokkos::fence();
  EXPECT_EQ(count_not_owned<Exec>(pool, mixed, four), 0);
  pool.get_usage_statistics(s);
  EXPECT_EQ(s.consumed_blocks, std::size_t(m));
  EXPECT_EQ(s.consumed_bytes, std::size_t(512) * (64 + 128 + 256 + 512));
  drain<Exec>(pool, mixed, four);
  Kokkos::fence();
  pool.get_usage_statistics(s);
  EXPECT_EQ(s.consumed_blocks, 0u);
}

#if defined(KOKKOS_ENABLE_CUDA)
// Managed memory: the host writes the pool's metadata in place and reads its statistics in
// place (after a fence), device threads allocate from it.
TEST(MemoryPool, CudaUVMSpacePoolFromDeviceThreads) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  using Mem = Kokkos::CudaUVMSpace;
  const SpacePool<Kokkos::Cuda, Mem> pool(Mem(), MiB, 64, 4096, 64 * KiB);
  const FourSizes four;
  Pointers<Mem> ptrs("ptrs", 2048);
  fill_owned<Kokkos::Cuda>(pool, ptrs, four);
  Kokkos::fence();
  EXPECT_EQ(count_not_owned<Kokkos::Cuda>(pool, ptrs, four), 0);
  typename SpacePool<Kokkos::Cuda, Mem>::usage_statistics s;
  pool.get_usage_statistics(s);
  EXPECT_EQ(s.consumed_blocks, 2048u);
  EXPECT_EQ(s.consumed_bytes, std::size_t(512) * (64 + 128 + 256 + 512));
  drain<Kokkos::Cuda>(pool, ptrs, four);
  Kokkos::fence();
  pool.get_usage_statistics(s);
  EXPECT_EQ(s.consumed_blocks, 0u);
}

TEST(MemoryPoolDeathTest, CudaSpacePoolUsedOnTheHostAborts) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  const Kokkos::MemoryPool<Kokkos::Cuda> pool(Kokkos::CudaSpace(), MiB, 64, 4096, 64 * KiB);
  EXPECT_DEATH((void)pool.allocate(64), "MemoryPool::allocate called on the host for a pool in memory the host cannot");
  int x = 0;
  EXPECT_DEATH(pool.deallocate(&x, 4), "MemoryPool::deallocate called on the host for a pool in memory the host");
}
#endif

TEST(MemoryPool, SuperblockReservesForSeveralAtOnce) {
  // One compare-exchange reserves as many of the wanted blocks as are free (a GPU warp's lanes).
  alignas(64) std::uint32_t word = Kokkos::Impl::SuperblockState::make(3, 0);
  alignas(64) std::uint64_t bits[1] = {0};
  const Kokkos::Impl::SuperblockState state(&word, bits);
  EXPECT_EQ(state.try_reserve_up_to(3, 8, 5), 5u);
  EXPECT_EQ(state.try_reserve_up_to(3, 8, 5), 3u);
  EXPECT_EQ(state.try_reserve_up_to(3, 8, 1), 0u);
  EXPECT_EQ(Kokkos::Impl::SuperblockState::used(word), 8u);
  word = Kokkos::Impl::SuperblockState::make(2, 1);
  EXPECT_EQ(state.try_reserve_up_to(3, 8, 4), 0u) << "a superblock of another block size";
  EXPECT_EQ(word, Kokkos::Impl::SuperblockState::make(2, 1));
  EXPECT_TRUE(state.try_reserve(2, 8));
  EXPECT_EQ(Kokkos::Impl::SuperblockState::used(word), 2u);
}

// ------------------------------------------------------------------------------------------------
// Misuse
// ------------------------------------------------------------------------------------------------

using MemoryPoolDeathTest = ::testing::Test;

TEST_F(MemoryPoolDeathTest, AllocationAboveTheMaximumBlockSizeAborts) {
  HostPool pool(Kokkos::HostSpace(), 64 * KiB, 64, 4096, 16 * KiB);
  EXPECT_DEATH((void)pool.allocate(4097), "request of 4097 bytes exceeds the maximum block size of 4096 bytes");
  EXPECT_DEATH((void)pool.allocate(std::size_t(1) << 40),
               "request of 1099511627776 bytes exceeds the maximum block size of 4096 bytes");
}

TEST_F(MemoryPoolDeathTest, DeallocatingAPointerOutsideThePoolAborts) {
  HostPool pool(Kokkos::HostSpace(), 64 * KiB, 64, 4096, 16 * KiB);
  int on_stack = 0;
  EXPECT_DEATH(pool.deallocate(&on_stack, 4), "deallocate\\(.*\\): the pointer is not inside the pool");
  char* p = static_cast<char*>(pool.allocate(64));
  ASSERT_NE(p, nullptr);
  void* past_the_end = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(p) + pool.capacity());
  EXPECT_DEATH(pool.deallocate(past_the_end, 64), "not inside the pool");
  HostPool empty;
  EXPECT_DEATH(empty.deallocate(p, 64), "not inside the pool");
  pool.deallocate(p, 64);
}

TEST_F(MemoryPoolDeathTest, DeallocatingInsideABlockAborts) {
  HostPool pool(Kokkos::HostSpace(), 64 * KiB, 64, 4096, 16 * KiB);
  char* p = static_cast<char*>(pool.allocate(256));
  ASSERT_NE(p, nullptr);
  EXPECT_DEATH(pool.deallocate(p + 8, 256),
               "not at a block boundary \\(blocks of 256 bytes there; it is 8 bytes into one\\)");
  pool.deallocate(p, 256);
}

TEST_F(MemoryPoolDeathTest, DoubleDeallocationAborts) {
  HostPool pool(Kokkos::HostSpace(), 64 * KiB, 64, 4096, 16 * KiB);
  void* p = pool.allocate(100);
  void* keep = pool.allocate(100);
  ASSERT_NE(p, nullptr);
  pool.deallocate(p, 100);
  EXPECT_DEATH(pool.deallocate(p, 100), "the block is not allocated \\(already deallocated, or never allocated");
  pool.deallocate(keep, 100);  // on top of p in the magazine
  EXPECT_DEATH(pool.deallocate(keep, 100), "the block is not allocated \\(already deallocated, or never allocated");
}

TEST_F(MemoryPoolDeathTest, DeallocatingABlockAfterAFlushReleasedItAborts) {
  // p in the magazine, then released to its superblock by a search that found no room: a second
  // deallocation finds its bit clear.
  HostPool pool(Kokkos::HostSpace(), 8 * KiB, 64, 1024, 8 * KiB);
  void* p = pool.allocate(64);
  pool.deallocate(p, 64);
  void* big = pool.allocate(1024);  // releases p, reassigns the only superblock
  ASSERT_NE(big, nullptr);
  pool.deallocate(big, 1024);
  EXPECT_DEATH(pool.deallocate(p, 64), "the block is not allocated");
}

TEST_F(MemoryPoolDeathTest, ABlockFreedByTwoThreadsAbortsWhenASearchReleasesItTwice) {
  // One superblock of 64-byte blocks: p in another thread's magazine and in this one's; a 32-byte
  // request needs the superblock emptied, so the search releases both.
  HostPool pool(Kokkos::HostSpace(), 8 * KiB, 32, 64, 8 * KiB);
  void* p = pool.allocate(64);
  ASSERT_NE(p, nullptr);
  std::thread([&] { pool.deallocate(p, 64); }).join();
  EXPECT_DEATH(
      {
        pool.deallocate(p, 64);
        (void)pool.allocate(32);
      },
      "deallocate\\(.*, 0\\): the block is not allocated \\(already deallocated");
}

TEST_F(MemoryPoolDeathTest, ABlockFreedTwiceDeepInAMagazineAborts) {
  HostPool pool(Kokkos::HostSpace(), MiB, 64, 64, 64 * KiB);
  ASSERT_EQ(pool.magazine_capacity(), 64u);
  std::vector<void*> blocks;
  for (int i = 0; i < 20; ++i) blocks.push_back(pool.allocate(64));
  for (void* p : blocks) pool.deallocate(p, 64);  // blocks[3] lies deep in the magazine
  EXPECT_DEATH(pool.deallocate(blocks[3], 64), "the block is not allocated \\(already deallocated");
}

TEST_F(MemoryPoolDeathTest, ABlockSmallerThanAPointerFreedTwiceAborts) {
  HostPool pool(Kokkos::HostSpace(), 64 * KiB, 4, 64, 16 * KiB);
  ASSERT_EQ(pool.magazine_capacity(), 1u);
  void* p = pool.allocate(4);
  ASSERT_NE(p, nullptr);
  pool.deallocate(p, 4);
  EXPECT_DEATH(pool.deallocate(p, 4), "the block is not allocated \\(already deallocated");
}

TEST_F(MemoryPoolDeathTest, DeallocatingInASuperblockThatNeverHeldBlocksAborts) {
  // Three superblocks, two block sizes: superblocks 0 and 1 start assigned to the two sizes,
  // superblock 2 has never held a block.
  HostPool pool(Kokkos::HostSpace(), 3 * 4096, 64, 128, 4096);
  std::vector<char*> ptrs;
  for (int i = 0; i < 64; ++i) ptrs.push_back(static_cast<char*>(pool.allocate(64)));
  for (char* q : ptrs) ASSERT_NE(q, nullptr);
  int size = 0, capacity = 0, used = 0;
  pool.superblock_state(2, size, capacity, used);
  ASSERT_EQ(size, 0) << "superblock 2 was expected to be unassigned";
  pool.superblock_state(0, size, capacity, used);
  ASSERT_EQ(used, 64) << "the 64-byte blocks were expected in superblock 0";
  char* const base = *std::min_element(ptrs.begin(), ptrs.end());
  EXPECT_DEATH(pool.deallocate(base + 2 * 4096, 64), "superblock 2 has never held blocks");
  for (char* q : ptrs) pool.deallocate(q, 64);
}

// The magazines' protocol on one lane, in the states a pop and a flush can meet in (the races
// themselves are in TestMemoryPoolStress): blocks are only addresses to the magazines.
class MemoryPoolMagazinesTest : public ::testing::Test {
 protected:
  using Magazines = Kokkos::Impl::MemoryPoolMagazines;
  static constexpr std::uint32_t capacity = 8;

  void SetUp() override { Kokkos::Impl::asymmetric_fence_prepare(); }

  void* block(int i) { return &m_blocks[i]; }
  std::uintptr_t* stack() const { return lane().stack(0); }
  Magazines::Lane lane() const { return m_magazines.lane(0); }
  std::uintptr_t bottom() const { return stack()[Magazines::bottom_word]; }
  std::uintptr_t top() const { return stack()[Magazines::top_word]; }
  void push(int i) { lane().push(stack(), bottom(), block(i)); }
  // What a flush hands back, in order; `ran` is flush()'s result.
  std::vector<void*> flush(bool* ran = nullptr) {
    std::vector<void*> taken;
    const bool any = m_magazines.flush([&](void* const* blocks, std::uint32_t count) {
      taken.insert(taken.end(), blocks, blocks + count);
    });
    if (ran) *ran = any;
    return taken;
  }

 private:
  alignas(64) std::vector<char> m_region = std::vector<char>(Magazines::bytes_for(1, capacity) + 64, 0);
  Magazines m_magazines{reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(m_region.data()) + 63) & ~std::uintptr_t(63)),
                        1, capacity};
  std::uint64_t m_blocks[capacity] = {};
};

TEST_F(MemoryPoolMagazinesTest, PopTakesTheLatestBlockWithoutTheGate) {
  push(0);
  push(1);
  push(2);
  EXPECT_EQ(lane().pop(stack(), bottom()), block(2));
  EXPECT_EQ(bottom(), 2u);
  EXPECT_EQ(lane().pop(stack(), bottom()), block(1));
  EXPECT_EQ(flush(), std::vector<void*>{block(0)});
  EXPECT_EQ(top(), 1u);
  EXPECT_EQ(bottom(), 1u);
}

TEST_F(MemoryPoolMagazinesTest, PopOnALockedStackPutsTheBottomBackAndLeavesTheBlock) {
  push(0);
  push(1);
  stack()[Magazines::top_word] |= Magazines::locked;  // a flush between its lock and its unlock
  EXPECT_EQ(lane().pop(stack(), bottom()), nullptr);
  EXPECT_EQ(bottom(), 2u);
  stack()[Magazines::top_word] &= ~Magazines::locked;
  EXPECT_EQ(lane().pop(stack(), bottom()), block(1));
  EXPECT_EQ(flush(), std::vector<void*>{block(0)});
}

TEST_F(MemoryPoolMagazinesTest, PopOnAStackAFlushEmptiedPutsTheBottomBackAndMarksTheLane) {
  push(0);
  push(1);
  EXPECT_EQ(flush(), (std::vector<void*>{block(0), block(1)}));
  bool ran = true;
  EXPECT_TRUE(flush(&ran).empty());
  EXPECT_FALSE(ran) << "a flush ran over a lane that pushed nothing since the last one";
  EXPECT_EQ(lane().pop(stack(), bottom()), nullptr);
  EXPECT_EQ(bottom(), 2u);
  EXPECT_EQ(top(), 2u);
  EXPECT_TRUE(flush().empty());
}

TEST_F(MemoryPoolMagazinesTest, FlushThatSeesAPopLowerTheBottomOfAnEmptyStackTakesNothing) {
  push(0);
  push(1);
  EXPECT_EQ(flush().size(), 2u);
  // A pop on the empty stack lowered `bottom` below `top` and has not yet put it back.
  push(2);
  EXPECT_EQ(lane().pop(stack(), bottom()), block(2));
  stack()[Magazines::bottom_word] = 1;
  lane().mark_holding();
  EXPECT_TRUE(flush().empty());
  EXPECT_EQ(top(), 2u) << "the flush moved top below blocks it had taken";
  stack()[Magazines::bottom_word] = 2;  // the pop puts it back
  push(3);
  EXPECT_EQ(flush(), std::vector<void*>{block(3)});
  EXPECT_EQ(top(), 3u);
}

TEST_F(MemoryPoolMagazinesTest, FlushUnlocksEveryStackItLooksAt) {
  push(0);
  EXPECT_EQ(flush().size(), 1u);
  EXPECT_EQ(top() & Magazines::locked, 0u);
  push(1);
  EXPECT_EQ(lane().pop(stack(), bottom()), block(1)) << "the stack stayed locked after the flush";
}

#if defined(KOKKOS_ENABLE_DEBUG)
TEST_F(MemoryPoolDeathTest, DeallocationSizeLargerThanTheBlockAbortsInDebugBuilds) {
  HostPool pool(Kokkos::HostSpace(), 64 * KiB, 64, 4096, 16 * KiB);
  void* p = pool.allocate(100);
  EXPECT_DEATH(pool.deallocate(p, 200), "the size is larger than the block of 128 bytes");
  pool.deallocate(p, 100);
}
#endif

}  // namespace

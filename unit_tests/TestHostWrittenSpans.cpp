// Impl::HostWrittenSpans, the record of the pool spans host code wrote that TaskScheduler<Cuda>'s
// wait() moves to the GPU before its workers start: what take() hands over covers every byte
// recorded, never leaves the hull of what was recorded, merges only spans within merge_gap of
// each other, comes in increasing order, and is forgotten once taken; host threads record at once.
#include <impl/tasking/Kokkos_HostWrittenSpans.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <utility>
#include <vector>

namespace {

using Kokkos::Impl::HostWrittenSpans;
using Span = std::pair<std::size_t, std::size_t>;  // offset from the arena, bytes
constexpr std::size_t gap = HostWrittenSpans::merge_gap;

// A stand-in for a pool's allocation: the spans are offsets into it.  Never written, so its
// pages are never touched (the large ones cost address space only).
struct Arena {
  std::unique_ptr<char[]> bytes;
  explicit Arena(std::size_t n) : bytes(new char[n]) {}
  const void* at(std::size_t offset) const { return bytes.get() + offset; }
  std::size_t offset_of(const void* p) const { return std::size_t(static_cast<const char*>(p) - bytes.get()); }
};

std::vector<Span> take_all(HostWrittenSpans& spans, const Arena& arena) {
  std::vector<Span> out;
  spans.take([&](const void* p, std::size_t bytes) { out.emplace_back(arena.offset_of(p), bytes); });
  return out;
}

// What a correct take() returns for `recorded`: in order, disjoint, more than merge_gap apart,
// each inside the hull of the recorded spans, and every recorded byte inside one of them.
void expect_covering(const std::vector<Span>& taken, const std::vector<Span>& recorded) {
  ASSERT_FALSE(taken.empty());
  std::size_t lo = SIZE_MAX, hi = 0;
  for (const Span& r : recorded) {
    lo = std::min(lo, r.first);
    hi = std::max(hi, r.first + r.second);
  }
  for (std::size_t k = 0; k < taken.size(); ++k) {
    EXPECT_GT(taken[k].second, 0u);
    EXPECT_GE(taken[k].first, lo);
    EXPECT_LE(taken[k].first + taken[k].second, hi);
    if (k > 0) {
      EXPECT_GT(taken[k].first, taken[k - 1].first + taken[k - 1].second + gap) << "span " << k;
    }
  }
  for (const Span& r : recorded) {
    const auto in = std::find_if(taken.begin(), taken.end(), [&](const Span& t) {
      return t.first <= r.first && r.first + r.second <= t.first + t.second;
    });
    EXPECT_NE(in, taken.end()) << "recorded [" << r.first << ", +" << r.second << ") is not covered";
  }
}

TEST(HostWrittenSpans, NothingRecordedNothingTaken) {
  Arena arena(1024);
  HostWrittenSpans spans;
  EXPECT_TRUE(spans.empty());
  EXPECT_TRUE(take_all(spans, arena).empty());
  spans.record(arena.at(10), 0);
  EXPECT_TRUE(spans.empty()) << "a span of no bytes is not recorded";
}

TEST(HostWrittenSpans, ConsecutiveBlocksBecomeOneSpan) {
  Arena arena(64 << 10);
  HostWrittenSpans spans;
  for (std::size_t k = 0; k < 200; ++k) spans.record(arena.at(k * 256), 200);
  EXPECT_FALSE(spans.empty());
  EXPECT_EQ(take_all(spans, arena), (std::vector<Span>{{0, 199 * 256 + 200}}));
  EXPECT_TRUE(spans.empty()) << "taken spans are forgotten";
  EXPECT_TRUE(take_all(spans, arena).empty());
}

TEST(HostWrittenSpans, SpansMoreThanTheGapApartStaySeparate) {
  Arena arena(8 * gap);
  HostWrittenSpans spans;
  spans.record(arena.at(5 * gap), 64);  // out of address order on purpose
  spans.record(arena.at(0), 64);
  spans.record(arena.at(64 + gap + 1), 64);  // one byte more than the gap after the first
  EXPECT_EQ(take_all(spans, arena), (std::vector<Span>{{0, 64}, {64 + gap + 1, 64}, {5 * gap, 64}}));
}

TEST(HostWrittenSpans, SpansWithinTheGapMergeWhateverTheOrder) {
  Arena arena(8 * gap);
  HostWrittenSpans spans;
  spans.record(arena.at(3 * gap), 100);
  spans.record(arena.at(0), 100);
  spans.record(arena.at(100 + gap), 100);  // exactly the gap after the second: merged with it
  spans.record(arena.at(2 * gap), 100);    // bridges the two
  spans.record(arena.at(2 * gap + 10), 20);  // inside one already recorded
  EXPECT_EQ(take_all(spans, arena), (std::vector<Span>{{0, 3 * gap + 100}}));
}

TEST(HostWrittenSpans, ScatteredRecordsBeyondTheMergePassStayExact) {
  // Far more spans than one merge pass holds, none near another: every one is handed over.
  Arena arena(2048 * 2 * gap + 64);
  HostWrittenSpans spans;
  std::vector<Span> recorded;
  std::vector<std::size_t> slots(2048);
  for (std::size_t k = 0; k < slots.size(); ++k) slots[k] = k;
  std::shuffle(slots.begin(), slots.end(), std::mt19937(7));
  for (std::size_t s : slots) {
    recorded.emplace_back(s * 2 * gap, 64);
    spans.record(arena.at(s * 2 * gap), 64);
  }
  const std::vector<Span> taken = take_all(spans, arena);
  EXPECT_EQ(taken.size(), slots.size());
  expect_covering(taken, recorded);
}

// Pool-like traffic: blocks allocated and freed in random places, then taken, several times over.
TEST(HostWrittenSpans, RandomRecordsAreCoveredAndNoMore) {
  constexpr std::size_t arena_bytes = 64 * gap;
  Arena arena(arena_bytes);
  HostWrittenSpans spans;
  std::mt19937_64 random(42);
  for (int round = 0; round < 50; ++round) {
    std::vector<Span> recorded;
    const int n = 1 + int(random() % 3000);
    for (int k = 0; k < n; ++k) {
      const std::size_t bytes = std::size_t(64) << (random() % 5);
      const std::size_t at = random() % (arena_bytes - bytes) / 64 * 64;
      recorded.emplace_back(at, bytes);
      spans.record(arena.at(at), bytes);
    }
    expect_covering(take_all(spans, arena), recorded);
    ASSERT_TRUE(spans.empty());
  }
}

// Host threads spawning and releasing futures at once record at once.
TEST(HostWrittenSpans, ManyThreadsRecordAtOnce) {
  constexpr int threads = 8, per_thread = 4000;
  constexpr std::size_t arena_bytes = 256 * gap;
  Arena arena(arena_bytes);
  for (int round = 0; round < 5; ++round) {
    HostWrittenSpans spans;
    std::vector<std::vector<Span>> recorded(threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        std::mt19937_64 random(std::uint64_t(round) * 131 + std::uint64_t(t));
        for (int k = 0; k < per_thread; ++k) {
          // Half the threads write runs of consecutive blocks (spawns), half scattered ones (frees).
          const std::size_t at = t % 2 == 0 ? (std::size_t(t) * 32 * gap + std::size_t(k) * 128) % (arena_bytes - 128)
                                            : random() % (arena_bytes - 128) / 64 * 64;
          recorded[std::size_t(t)].emplace_back(at, 128);
          spans.record(arena.at(at), 128);
          if (k % 512 == 0) std::this_thread::yield();
        }
      });
    }
    for (auto& th : pool) th.join();
    std::vector<Span> all;
    for (const auto& r : recorded) all.insert(all.end(), r.begin(), r.end());
    expect_covering(take_all(spans, arena), all);
  }
}

}  // namespace

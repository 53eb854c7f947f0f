// Allocate/deallocate pairs per second of Kokkos::MemoryPool beside glibc malloc/free, oneTBB's
// scalable_malloc/scalable_free and the Kokkos 4.6 pool algorithm, at 1 and 2 threads, in the
// same process.
//
// Pattern (the same for every allocator): each thread keeps a working set of 1024 live blocks;
// one pair frees a random one of them and allocates a new block in its place, then writes its
// first 8 bytes.  Sizes are fixed (32, 64 or 1024 bytes) or mixed: a block size class 32, 64,
// ..., 4096 chosen uniformly, then a size uniform within the class (so 33..4096 bytes,
// log-uniform, every block size about equally often).  The 2-thread runs measure two threads
// allocating concurrently from the same allocator (Google Benchmark's Threads(2)).
//
// Two more patterns allocate a batch of blocks and then free all of them, again and again:
//   MemoryPoolBatch/<sizes>/<allocator>  batches of 64 blocks, fixed 32 bytes or mixed sizes as
//                                        above, freed in allocation order
//   MemoryPoolFill/fixed32/<allocator>   1M blocks of 32 bytes in all (1M / threads per thread),
//                                        then freed in allocation order: the pool filled and drained
// Their rates count a block allocated and freed as one pair, like Pairs' counters below;
// MemoryPoolFill also reports each phase alone: Malloc/s and Mfree/s (per second of each thread's
// own phase, summed over threads) and their ratios to malloc's, x_malloc_alloc and x_malloc_free.
//
// Counters (all threads' pairs together):
//   Mpairs/s     million pairs per second of wall-clock time over the whole concurrent section
//   Mpairs/s_cpu the same per second of each thread's own CPU time, summed over threads: what
//                the threads would do with a core each; on a shared, loaded machine this is the
//                figure to compare (stalls on contended cache lines count, preemption does not)
//   x_malloc     ratio of Mpairs/s to malloc/free's, same pattern and thread count, measured
//                just before (x_malloc_cpu: of Mpairs/s_cpu)
//   x_tbb        ratio to scalable_malloc/scalable_free (when oneTBB was found)
//   x_kokkos46   ratio to the Kokkos 4.6 pool algorithm (x_kokkos46_cpu: of Mpairs/s_cpu)
//   x_1thread    (2 threads) ratio to the same allocator's 1-thread rate: >= 1 means 2 threads
//                are not slower than one (x_1thread_cpu: of Mpairs/s_cpu)
// MemoryPool{Pairs,Batch,Fill}SideBySide/<sizes>/kdag: the same patterns in the pool and in
// malloc in alternating turns of one run (see side_by_side()): x_malloc (for the fill
// x_malloc_alloc and x_malloc_free), the ratios to quote against malloc.
//
// "kokkos46" is this file's transcription of the allocation algorithm of Kokkos 4.6's
// Kokkos_MemoryPool.hpp / Kokkos_ConcurrentBitset.hpp (one hint per block size, a fetch_add
// reservation on the superblock state, a clock-randomised bit search, full fences around the
// count updates), written from the Kokkos sources' design, not a copy of them: a same-process
// stand-in for the reference numbers (Kokkos 4.6 MemoryPool<OpenMP>, 19.5-21.9 M pairs/s
// at 1 thread, 12.1-13.2 M at 2).
//
// Run for real numbers:  PerfMemoryPool --kokkos-num-threads=2 --benchmark_repetitions=5
//                        --benchmark_report_aggregates_only=true
#include "PerfInterleaved.hpp"
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_MemoryPool.hpp>

#if defined(KDAG_HAVE_TBB)
#include <oneapi/tbb/scalable_allocator.h>
#endif

#include <time.h>
#include <x86intrin.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr std::size_t live_blocks = 1024;  // working set per thread (a power of two)
constexpr std::size_t pool_bytes = std::size_t(64) << 20;
constexpr std::size_t pool_min_block = 32;
constexpr std::size_t pool_max_block = 4096;
constexpr std::size_t pool_superblock = std::size_t(1) << 20;

// -------------------------------------------------------------------------------------------------
// The Kokkos 4.6 algorithm
// -------------------------------------------------------------------------------------------------

class Kokkos46Pool {
  // Per superblock: a state word [block_count_lg2 : 6 | used : 26] and a bit array of 32-bit
  // words; per block size two words: the hint and the fixed search start.
  static constexpr std::uint32_t state_shift = 26;
  static constexpr std::uint32_t state_used_mask = (1u << state_shift) - 1;
  static constexpr std::uint32_t state_header_mask = ~state_used_mask;
  static constexpr std::uint32_t hint_per_block_size = 2;

 public:
  Kokkos46Pool(std::size_t total, std::size_t min_block, std::size_t max_block, std::size_t superblock) {
    m_min_lg2 = lg2(min_block);
    m_max_lg2 = lg2(max_block);
    m_sb_lg2 = lg2(superblock);
    m_sb_count = std::int32_t((total + superblock - 1) >> m_sb_lg2);
    const std::uint32_t max_count_lg2 = m_sb_lg2 - m_min_lg2;
    const std::uint32_t bound = 1 + (max_count_lg2 > 5 ? (1u << (max_count_lg2 - 5)) : 1u);
    m_sb_state_size = (bound + 7) & ~7u;
    const std::uint32_t all_states = (std::uint32_t(m_sb_count) * m_sb_state_size + 7) & ~7u;
    const std::uint32_t sizes = 1 + m_max_lg2 - m_min_lg2;
    m_hint_offset = all_states;
    m_data_offset = m_hint_offset + ((sizes + 7) & ~7u) * hint_per_block_size;
    m_bytes = std::size_t(m_data_offset) * 4 + (std::size_t(m_sb_count) << m_sb_lg2);
    m_array = static_cast<std::uint32_t*>(std::aligned_alloc(64, (m_bytes + 63) / 64 * 64));
    std::memset(m_array, 0, std::size_t(m_data_offset) * 4);
    for (std::uint32_t i = 0; i < sizes; ++i) {
      const std::uint32_t block_state = (m_sb_lg2 - (i + m_min_lg2)) << state_shift;
      const std::uint32_t begin = std::uint32_t((std::uint64_t(m_sb_count) * i) / sizes);
      m_array[m_hint_offset + i * hint_per_block_size] = begin;
      m_array[m_hint_offset + i * hint_per_block_size + 1] = begin;
      if (m_array[begin * m_sb_state_size] == 0) m_array[begin * m_sb_state_size] = block_state;
    }
  }
  ~Kokkos46Pool() { std::free(m_array); }
  Kokkos46Pool(const Kokkos46Pool&) = delete;
  Kokkos46Pool& operator=(const Kokkos46Pool&) = delete;

  void* allocate(std::size_t alloc_size, std::int32_t attempt_limit = 1) const noexcept {
    if (alloc_size == 0 || alloc_size > (std::size_t(1) << m_max_lg2)) return nullptr;
    const std::uint32_t size_lg2 = std::max(lg2(alloc_size), m_min_lg2);
    const std::uint32_t count_lg2 = m_sb_lg2 - size_lg2;
    const std::uint32_t block_state = count_lg2 << state_shift;
    const std::uint32_t block_count = 1u << count_lg2;
    std::uint32_t* const hint_ptr = m_array + m_hint_offset + hint_per_block_size * (size_lg2 - m_min_lg2);
    const std::int32_t sb_begin = std::int32_t(hint_ptr[1]);
    const std::uint32_t bit_hint = std::uint32_t(__rdtsc());
    std::uint32_t sb_state = block_state;
    std::int32_t sb_id = -1;
    std::uint32_t* sb_array = nullptr;
    while (attempt_limit) {
      std::int32_t hint_sb = -1;
      if (sb_id < 0) {
        sb_id = hint_sb = std::int32_t(__atomic_load_n(hint_ptr, __ATOMIC_RELAXED));
        sb_array = m_array + sb_id * m_sb_state_size;
      }
      if (sb_state == (state_header_mask & __atomic_load_n(sb_array, __ATOMIC_RELAXED))) {
        const std::uint32_t cnt_lg2 = sb_state >> state_shift;
        const int bit = acquire_bounded_lg2(sb_array, cnt_lg2, bit_hint & ((1u << cnt_lg2) - 1), sb_state);
        if (bit >= 0) {
          return reinterpret_cast<char*>(m_array + m_data_offset) + (std::uint64_t(sb_id) << m_sb_lg2) +
                 (std::uint64_t(bit) << (m_sb_lg2 - cnt_lg2));
        }
      }
      sb_state = block_state;
      sb_id = -1;
      bool update_hint = false;
      std::int32_t sb_empty = -1, sb_large = -1;
      std::uint32_t sb_state_large = 0;
      sb_array = m_array + sb_begin * m_sb_state_size;
      for (std::int32_t i = 0, id = sb_begin; i < m_sb_count; ++i) {
        const std::uint32_t full = __atomic_load_n(sb_array, __ATOMIC_RELAXED);
        const std::uint32_t used = full & state_used_mask;
        const std::uint32_t state = full & state_header_mask;
        if (state == block_state) {
          if (used < block_count) {
            sb_id = id;
            update_hint = used + 1 < block_count;
            break;
          }
        } else if (used == 0) {
          if (sb_empty == -1) sb_empty = id;
        } else if (sb_empty == -1 && sb_large == -1 && state < block_state &&
                   used < (1u << (state >> state_shift))) {
          sb_large = id;
          sb_state_large = state;
        }
        if (++id < m_sb_count) {
          sb_array += m_sb_state_size;
        } else {
          id = 0;
          sb_array = m_array;
        }
      }
      if (sb_id < 0) {
        if (sb_empty >= 0) {
          sb_id = sb_empty;
          sb_array = m_array + sb_id * m_sb_state_size;
          std::uint32_t empty = state_header_mask & __atomic_load_n(sb_array, __ATOMIC_RELAXED);
          update_hint = __atomic_compare_exchange_n(sb_array, &empty, block_state, false, __ATOMIC_SEQ_CST,
                                                    __ATOMIC_SEQ_CST);
        } else if (sb_large >= 0) {
          sb_id = sb_large;
          sb_state = sb_state_large;
          sb_array = m_array + sb_id * m_sb_state_size;
        } else {
          --attempt_limit;
        }
      }
      if (update_hint) {
        std::uint32_t expected = std::uint32_t(hint_sb);
        __atomic_compare_exchange_n(hint_ptr, &expected, std::uint32_t(sb_id), false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST);
      }
    }
    return nullptr;
  }

  void deallocate(void* p, std::size_t) const noexcept {
    if (!p) return;
    const std::ptrdiff_t d = static_cast<char*>(p) - reinterpret_cast<char*>(m_array + m_data_offset);
    if (d < 0 || std::size_t(d) >= (std::size_t(m_sb_count) << m_sb_lg2)) std::abort();
    const int sb_id = int(d >> m_sb_lg2);
    std::uint32_t* const sb_array = m_array + sb_id * m_sb_state_size;
    const std::uint32_t block_state = __atomic_load_n(sb_array, __ATOMIC_RELAXED) & state_header_mask;
    const std::uint32_t block_size_lg2 = m_sb_lg2 - (block_state >> state_shift);
    if (d & ((std::ptrdiff_t(1) << block_size_lg2) - 1)) std::abort();
    const std::uint32_t bit = std::uint32_t((d & ((std::ptrdiff_t(1) << m_sb_lg2) - 1)) >> block_size_lg2);
    if (release(sb_array, bit, block_state) < 0) std::abort();
  }

 private:
  static std::uint32_t lg2(std::size_t n) { return n <= 1 ? 0 : std::uint32_t(64 - __builtin_clzll(n - 1)); }

  static int acquire_bounded_lg2(std::uint32_t* buffer, std::uint32_t bound_lg2, std::uint32_t bit,
                                 std::uint32_t header) noexcept {
    const std::uint32_t bound = 1u << bound_lg2;
    const std::uint32_t word_count = bound >> 5;
    const std::uint32_t state = __atomic_fetch_add(buffer, 1u, __ATOMIC_SEQ_CST);
    const bool state_error = header != (state & state_header_mask);
    const std::uint32_t used = state & state_used_mask;
    if (state_error || bound <= used) {
      __atomic_fetch_sub(buffer, 1u, __ATOMIC_SEQ_CST);
      return -1;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    while (true) {
      const std::uint32_t word = bit >> 5;
      const std::uint32_t mask = 1u << (bit & 31);
      const std::uint32_t prev = __atomic_fetch_or(buffer + word + 1, mask, __ATOMIC_SEQ_CST);
      if (!(prev & mask)) return int(bit);
      if (~prev != 0) {
        bit = (word << 5) | std::uint32_t(__builtin_ctz(~prev));
      } else {
        bit = ((word + 1) < word_count ? ((word + 1) << 5) : 0) | (bit & 31);
      }
    }
  }

  static int release(std::uint32_t* buffer, std::uint32_t bit, std::uint32_t header) noexcept {
    if (header != (state_header_mask & __atomic_load_n(buffer, __ATOMIC_RELAXED))) return -1;
    const std::uint32_t mask = 1u << (bit & 31);
    const std::uint32_t prev = __atomic_fetch_and(buffer + (bit >> 5) + 1, ~mask, __ATOMIC_SEQ_CST);
    if (!(prev & mask)) return -1;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    const std::uint32_t count = __atomic_fetch_sub(buffer, 1u, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return int(count & state_used_mask) - 1;
  }

  std::uint32_t* m_array = nullptr;
  std::size_t m_bytes = 0;
  std::uint32_t m_sb_state_size = 0, m_sb_lg2 = 0, m_min_lg2 = 0, m_max_lg2 = 0;
  std::int32_t m_sb_count = 0;
  std::uint32_t m_hint_offset = 0, m_data_offset = 0;
};

// -------------------------------------------------------------------------------------------------
// Allocators under test
// -------------------------------------------------------------------------------------------------

struct Malloc {
  static constexpr const char* name = "malloc";
  void* allocate(std::size_t n) const { return std::malloc(n); }
  void deallocate(void* p, std::size_t) const { std::free(p); }
};

#if defined(KDAG_HAVE_TBB)
struct TbbScalable {
  static constexpr const char* name = "tbb";
  void* allocate(std::size_t n) const { return scalable_malloc(n); }
  void deallocate(void* p, std::size_t) const { scalable_free(p); }
};
#endif

// The two pools are made once per process and shared by every benchmark; each allocator object
// (one per thread and benchmark run) holds the pool as a program does (a Kokkos pool is a handle
// that functors capture by value), so that an allocation does not also pay for reaching a
// function-local static (its guard check and a call per allocation, which malloc's wrapper does
// not pay).
struct Kokkos46 {
  static constexpr const char* name = "kokkos46";
  static const Kokkos46Pool& shared_pool() {
    static const Kokkos46Pool p(pool_bytes, pool_min_block, pool_max_block, pool_superblock);
    return p;
  }
  const Kokkos46Pool& pool = shared_pool();
  void* allocate(std::size_t n) const { return pool.allocate(n); }
  void deallocate(void* p, std::size_t n) const { pool.deallocate(p, n); }
};

struct KdagPool {
  static constexpr const char* name = "kdag";
  using pool_type = Kokkos::MemoryPool<Kokkos::DefaultHostExecutionSpace>;
  static const pool_type& shared_pool() {
    static const pool_type p(Kokkos::HostSpace(), pool_bytes, pool_min_block, pool_max_block, pool_superblock);
    return p;
  }
  const pool_type pool = shared_pool();  // a copy: the same pool
  void* allocate(std::size_t n) const { return pool.allocate(n); }
  void deallocate(void* p, std::size_t n) const { pool.deallocate(p, n); }
};

// -------------------------------------------------------------------------------------------------
// The measurement
// -------------------------------------------------------------------------------------------------

struct Pattern {
  const char* name;
  std::size_t fixed;  // 0: mixed sizes
};

// Rates measured so far: (pattern, threads, allocator) -> pairs per second.
struct Rate {
  double wall = 0, cpu = 0;
};
std::map<std::string, Rate>& rates() {
  static std::map<std::string, Rate> r;
  return r;
}

double thread_cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Per-thread CPU rates of the current run, summed for thread 0.  Thread 0 resets it before the
// loop and the other threads add after it, so Google Benchmark's start barrier orders the two.
struct CpuRateSum {
  std::mutex mutex;
  double sum = 0;
  int arrived = 0;
};
CpuRateSum& cpu_rate_sum() {
  static CpuRateSum s;
  return s;
}
std::string key(const Pattern& p, int threads, const char* allocator) {
  return std::string(p.name) + "/" + std::to_string(threads) + "/" + allocator;
}

std::uint64_t xorshift(std::uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

// 4096 request sizes of the pattern: its fixed size, or a block size class 32, 64, ..., 4096
// chosen uniformly and then a size uniform within the class.
std::vector<std::uint32_t> draw_sizes(const Pattern& pattern, std::uint64_t& rng) {
  std::vector<std::uint32_t> sizes(4096);
  for (auto& s : sizes) {
    if (pattern.fixed) {
      s = std::uint32_t(pattern.fixed);
    } else {
      const std::uint32_t cls = std::uint32_t(xorshift(rng) % 8);  // blocks of 32 << cls bytes
      s = cls == 0 ? 32u : (16u << cls) + 1 + std::uint32_t(xorshift(rng) % (16u << cls));
    }
  }
  return sizes;
}

// One thread's working set of the pairs pattern in one allocator: live_blocks blocks; a pair
// frees a random one and allocates a block of a random size of the pattern in its place, then
// writes its first 8 bytes.
template <class Allocator>
struct PairsWorkingSet {
  const Allocator alloc{};
  const std::vector<std::uint32_t>& sizes;
  std::vector<void*> slot = std::vector<void*>(live_blocks);
  std::vector<std::uint32_t> slot_size = std::vector<std::uint32_t>(live_blocks);

  explicit PairsWorkingSet(const std::vector<std::uint32_t>& pattern_sizes) : sizes(pattern_sizes) {}
  bool fill() {
    for (std::size_t i = 0; i < live_blocks; ++i) {
      slot_size[i] = sizes[i & 4095];
      slot[i] = alloc.allocate(slot_size[i]);
      if (!slot[i]) return false;
      std::memcpy(slot[i], &i, sizeof(i));
    }
    return true;
  }
  // False when the allocation failed (the slot is then empty).
  bool pair(std::uint64_t r) {
    const std::size_t i = std::size_t(r) & (live_blocks - 1);
    alloc.deallocate(slot[i], slot_size[i]);
    const std::uint32_t n = sizes[(r >> 20) & 4095];
    void* p = alloc.allocate(n);
    slot[i] = p;
    slot_size[i] = n;
    if (!p) return false;
    std::memcpy(p, &r, sizeof(r));
    return true;
  }
  void drain() {
    for (std::size_t i = 0; i < live_blocks; ++i) alloc.deallocate(slot[i], slot_size[i]);
  }
};

template <class Allocator>
void pairs(benchmark::State& state, Pattern pattern) {
  std::uint64_t rng = 0x9E3779B97F4A7C15ull * std::uint64_t(state.thread_index() + 1);
  const std::vector<std::uint32_t> sizes = draw_sizes(pattern, rng);
  PairsWorkingSet<Allocator> set(sizes);
  if (!set.fill()) perf::fail_result_check(state, "allocation failed while filling the working set");

  CpuRateSum& cpu_sum = cpu_rate_sum();
  if (state.thread_index() == 0) {
    std::lock_guard<std::mutex> lock(cpu_sum.mutex);
    cpu_sum.sum = 0;
    cpu_sum.arrived = 0;
  }
  std::chrono::steady_clock::time_point start;
  double cpu_start = 0;
  bool first = true;
  for (auto _ : state) {
    if (first) {
      start = std::chrono::steady_clock::now();
      cpu_start = thread_cpu_seconds();
      first = false;
    }
    if (!set.pair(xorshift(rng))) {
      perf::fail_result_check(state, "allocation failed");
      break;
    }
  }
  const double cpu_seconds = thread_cpu_seconds() - cpu_start;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  set.drain();
  state.SetItemsProcessed(state.iterations());
  const int threads = state.threads();
  {
    std::lock_guard<std::mutex> lock(cpu_sum.mutex);
    if (cpu_seconds > 0) cpu_sum.sum += double(state.iterations()) / cpu_seconds;
    ++cpu_sum.arrived;
  }

  // Thread 0 left the loop after every thread finished (Google Benchmark's end barrier), so its
  // wall time covers the whole concurrent section; only it reports, so counters are not summed.
  if (state.thread_index() != 0 || seconds <= 0) return;
  Rate rate;
  rate.wall = double(state.iterations()) * threads / seconds;
  while (true) {
    std::lock_guard<std::mutex> lock(cpu_sum.mutex);
    if (cpu_sum.arrived == threads) {
      rate.cpu = cpu_sum.sum;
      break;
    }
  }
  rates()[key(pattern, threads, Allocator::name)] = rate;
  state.counters["Mpairs/s"] = rate.wall / 1e6;
  state.counters["Mpairs/s_cpu"] = rate.cpu / 1e6;
  const auto ratio_to = [&](const std::string& counter, int peer_threads, const char* peer) {
    const auto it = rates().find(key(pattern, peer_threads, peer));
    if (it == rates().end()) return;
    if (it->second.wall > 0) state.counters[counter] = rate.wall / it->second.wall;
    if (it->second.cpu > 0) state.counters[counter + "_cpu"] = rate.cpu / it->second.cpu;
  };
  if (std::string(Allocator::name) != "malloc") ratio_to("x_malloc", threads, "malloc");
  if (std::string(Allocator::name) == "kdag") {
    ratio_to("x_tbb", threads, "tbb");
    ratio_to("x_kokkos46", threads, "kokkos46");
  }
  if (threads > 1) ratio_to("x_1thread", 1, Allocator::name);
}

// Side by side: the same work in Allocator and in malloc, in alternating turns of one run.
// Every thread keeps its own blocks in each; all threads take each turn together (a barrier
// before it), in one allocator, then the other, the order alternating from round to round and
// the first round untimed.  A turn times one or two phases (the pairs; a fill's allocations and
// its frees); each thread's median per phase and allocator becomes a rate, summed over threads:
// x_malloc* = the allocator's rate / malloc's.  Both meet the same machine at the same moment,
// which two benchmarks run one after the other do not on a VM whose speed drifts by tens of
// percent.
constexpr int side_by_side_max_phases = 2;

struct SideBySideSum {
  std::mutex mutex;
  double rate[side_by_side_max_phases] = {}, malloc_rate[side_by_side_max_phases] = {};
  bool failed = false;
};
SideBySideSum& side_by_side_sum() {
  static SideBySideSum s;
  return s;
}
std::barrier<>& side_by_side_barrier(int threads) {
  static std::barrier<> one(1), two(2);  // the thread counts registered below
  return threads == 1 ? one : two;
}

// turn(in_allocator, seconds) runs one turn, writes its phases' seconds and returns false if an
// allocation failed; `units` is the pairs or blocks one phase handles.  Thread 0 returns after
// every thread added its rates to side_by_side_sum().
template <class Turn>
void side_by_side(benchmark::State& state, int rounds, int phases, double units, Turn&& turn) {
  SideBySideSum& sum = side_by_side_sum();
  std::barrier<>& barrier = side_by_side_barrier(state.threads());
  if (state.thread_index() == 0) {  // before the first barrier: the others add after their last
    std::lock_guard<std::mutex> lock(sum.mutex);
    for (int k = 0; k < side_by_side_max_phases; ++k) sum.rate[k] = sum.malloc_rate[k] = 0;
    sum.failed = false;
  }
  for (auto _ : state) {
    std::vector<std::vector<double>> samples(2 * std::size_t(phases));  // the allocator's phases, then malloc's
    bool ok = true;
    for (int round = 0; round < rounds; ++round) {
      for (int step = 0; step < 2; ++step) {
        const bool in_allocator = (round + step) % 2 == 0;
        double seconds[side_by_side_max_phases] = {};
        barrier.arrive_and_wait();
        ok &= turn(in_allocator, seconds);
        if (round == 0) continue;
        for (int k = 0; k < phases; ++k) samples[std::size_t((in_allocator ? 0 : phases) + k)].push_back(seconds[k]);
      }
    }
    const std::vector<double> median = perf::medians_of_samples(samples);
    std::lock_guard<std::mutex> lock(sum.mutex);
    for (int k = 0; k < phases; ++k) {
      sum.rate[k] += units / median[std::size_t(k)];
      sum.malloc_rate[k] += units / median[std::size_t(phases + k)];
    }
    sum.failed |= !ok;
  }
  // Thread 0 leaves the loop after every thread finished it (Google Benchmark's end barrier).
  if (state.thread_index() == 0 && sum.failed) perf::fail_result_check(state, "allocation failed");
}

// MemoryPoolPairsSideBySide: turns of 20000 pairs.
template <class Allocator>
void pairs_side_by_side(benchmark::State& state, Pattern pattern) {
  constexpr int pairs_per_turn = 20000;
  std::uint64_t rng = 0x9E3779B97F4A7C15ull * std::uint64_t(state.thread_index() + 1);
  const std::vector<std::uint32_t> sizes = draw_sizes(pattern, rng);
  PairsWorkingSet<Allocator> set(sizes);
  PairsWorkingSet<Malloc> malloc_set(sizes);
  const bool filled = set.fill() && malloc_set.fill();
  const auto run = [&](auto& working_set) {
    bool ok = filled;
    for (int k = 0; k < pairs_per_turn; ++k) ok &= working_set.pair(xorshift(rng));
    return ok;
  };
  side_by_side(state, 31, 1, pairs_per_turn, [&](bool in_allocator, double* seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = in_allocator ? run(set) : run(malloc_set);
    seconds[0] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return ok;
  });
  set.drain();
  malloc_set.drain();
  if (state.thread_index() != 0) return;
  const SideBySideSum& sum = side_by_side_sum();
  state.counters["Mpairs/s"] = sum.rate[0] / 1e6;
  state.counters["malloc_Mpairs/s"] = sum.malloc_rate[0] / 1e6;
  state.counters["x_malloc"] = sum.rate[0] / sum.malloc_rate[0];
}

// Allocates `count` blocks of the pattern's sizes into `blocks` (writing 8 bytes of each), then
// frees them in allocation order; Timed: adds the two phases' seconds to seconds[0] and [1].
template <bool Timed, class Allocator>
bool allocate_then_free(const Allocator& alloc, const std::vector<std::uint32_t>& sizes, std::vector<void*>& blocks,
                        std::size_t count, double* seconds) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Timed ? Clock::now() : Clock::time_point{};
  std::size_t made = 0;
  for (; made < count; ++made) {
    void* p = alloc.allocate(sizes[made & 4095]);
    if (!p) break;
    std::memcpy(p, &made, sizeof(made));
    blocks[made] = p;
  }
  const auto t1 = Timed ? Clock::now() : t0;
  for (std::size_t i = 0; i < made; ++i) alloc.deallocate(blocks[i], sizes[i & 4095]);
  if constexpr (Timed) {
    seconds[0] += std::chrono::duration<double>(t1 - t0).count();
    seconds[1] += std::chrono::duration<double>(Clock::now() - t1).count();
  }
  return made == count;
}

// MemoryPoolBatchSideBySide: turns of 300 batches of 64 blocks, one phase (their pairs).
// MemoryPoolFillSideBySide: turns of one fill of 1M / threads blocks, two phases (the
// allocations, the frees).
template <class Allocator>
void batches_side_by_side(benchmark::State& state, Pattern pattern, std::size_t batch, bool phases) {
  const std::size_t batches_per_turn = phases ? 1 : 300;
  std::uint64_t rng = 0x9E3779B97F4A7C15ull * std::uint64_t(state.thread_index() + 1);
  const std::vector<std::uint32_t> sizes = draw_sizes(pattern, rng);
  std::vector<void*> blocks(batch);
  const Allocator alloc{};
  const Malloc malloc_alloc{};
  side_by_side(state, phases ? 9 : 31, phases ? 2 : 1, double(batch * batches_per_turn),
               [&](bool in_allocator, double* seconds) {
                 if (phases) {
                   return in_allocator ? allocate_then_free<true>(alloc, sizes, blocks, batch, seconds)
                                       : allocate_then_free<true>(malloc_alloc, sizes, blocks, batch, seconds);
                 }
                 bool ok = true;
                 const auto t0 = std::chrono::steady_clock::now();
                 for (std::size_t k = 0; k < batches_per_turn; ++k) {
                   ok &= in_allocator ? allocate_then_free<false>(alloc, sizes, blocks, batch, seconds)
                                      : allocate_then_free<false>(malloc_alloc, sizes, blocks, batch, seconds);
                 }
                 seconds[0] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                 return ok;
               });
  if (state.thread_index() != 0) return;
  const SideBySideSum& sum = side_by_side_sum();
  if (phases) {
    state.counters["Malloc/s"] = sum.rate[0] / 1e6;
    state.counters["Mfree/s"] = sum.rate[1] / 1e6;
    state.counters["x_malloc_alloc"] = sum.rate[0] / sum.malloc_rate[0];
    state.counters["x_malloc_free"] = sum.rate[1] / sum.malloc_rate[1];
  } else {
    state.counters["Mpairs/s"] = sum.rate[0] / 1e6;
    state.counters["x_malloc"] = sum.rate[0] / sum.malloc_rate[0];
  }
}

void register_side_by_side(const std::string& name, int threads, std::function<void(benchmark::State&)> run) {
  benchmark::RegisterBenchmark((name + "/kdag").c_str(), [run](benchmark::State& state) { run(state); })
      ->Threads(threads)
      ->Iterations(1)
      ->UseRealTime();
}

// Each thread's rates of one phase, summed (as CpuRateSum): blocks per second of its own phase.
struct PhaseSum {
  std::mutex mutex;
  double allocate = 0, deallocate = 0;
  int arrived = 0;
};
PhaseSum& phase_sum() {
  static PhaseSum s;
  return s;
}

// MemoryPoolBatch and MemoryPoolFill: each iteration allocates `batch` blocks (sizes drawn as
// in pairs()), writes the first 8 bytes of each, then frees them in allocation order.
template <class Allocator>
void batches(benchmark::State& state, Pattern pattern, std::size_t batch, bool phases) {
  const Allocator alloc{};
  std::uint64_t rng = 0x9E3779B97F4A7C15ull * std::uint64_t(state.thread_index() + 1);
  const std::vector<std::uint32_t> sizes = draw_sizes(pattern, rng);
  std::vector<void*> blocks(batch);
  PhaseSum& sum = phase_sum();
  if (state.thread_index() == 0) {
    std::lock_guard<std::mutex> lock(sum.mutex);
    sum.allocate = sum.deallocate = 0;
    sum.arrived = 0;
  }
  double allocate_seconds = 0, deallocate_seconds = 0;
  std::chrono::steady_clock::time_point start;
  bool first = true;
  for (auto _ : state) {
    if (first) {
      start = std::chrono::steady_clock::now();
      first = false;
    }
    double phase[2] = {0, 0};
    const bool made = phases ? allocate_then_free<true>(alloc, sizes, blocks, batch, phase)
                             : allocate_then_free<false>(alloc, sizes, blocks, batch, phase);
    if (!made) {
      perf::fail_result_check(state, "allocation failed");
      break;
    }
    allocate_seconds += phase[0];
    deallocate_seconds += phase[1];
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double blocks_done = double(state.iterations()) * double(batch);
  state.SetItemsProcessed(std::int64_t(blocks_done));
  {
    std::lock_guard<std::mutex> lock(sum.mutex);
    if (allocate_seconds > 0) sum.allocate += blocks_done / allocate_seconds;
    if (deallocate_seconds > 0) sum.deallocate += blocks_done / deallocate_seconds;
    ++sum.arrived;
  }
  // As in pairs(): thread 0's wall time covers the whole concurrent section.
  if (state.thread_index() != 0 || seconds <= 0) return;
  const int threads = state.threads();
  Rate rate, allocate, deallocate;
  rate.wall = blocks_done * threads / seconds;
  while (true) {
    std::lock_guard<std::mutex> lock(sum.mutex);
    if (sum.arrived == threads) {
      allocate.wall = sum.allocate;
      deallocate.wall = sum.deallocate;
      break;
    }
  }
  const std::string name = key(pattern, threads, Allocator::name);
  rates()[name] = rate;
  state.counters["Mpairs/s"] = rate.wall / 1e6;
  if (phases) {
    rates()[name + "/allocate"] = allocate;
    rates()[name + "/deallocate"] = deallocate;
    state.counters["Malloc/s"] = allocate.wall / 1e6;
    state.counters["Mfree/s"] = deallocate.wall / 1e6;
  }
  const auto ratio_to = [&](const std::string& counter, const char* peer, const char* phase) {
    const auto it = rates().find(key(pattern, threads, peer) + phase);
    const auto mine = rates().find(name + phase);
    if (it != rates().end() && mine != rates().end() && it->second.wall > 0)
      state.counters[counter] = mine->second.wall / it->second.wall;
  };
  if (std::string(Allocator::name) == "malloc") return;
  ratio_to("x_malloc", "malloc", "");
  if (phases) {
    ratio_to("x_malloc_alloc", "malloc", "/allocate");
    ratio_to("x_malloc_free", "malloc", "/deallocate");
  }
  if (std::string(Allocator::name) == "kdag") {
    ratio_to("x_tbb", "tbb", "");
    ratio_to("x_kokkos46", "kokkos46", "");
  }
}

constexpr std::size_t batch_blocks = 64;
constexpr std::size_t fill_blocks = std::size_t(1) << 20;  // in all, over the threads

template <class Allocator>
void register_batches(const Pattern& pattern, int threads) {
  benchmark::RegisterBenchmark(("MemoryPoolBatch/" + std::string(pattern.name) + "/" + Allocator::name).c_str(),
                               [pattern](benchmark::State& state) { batches<Allocator>(state, pattern, batch_blocks, false); })
      ->Threads(threads)
      ->UseRealTime();
}

template <class Allocator>
void register_fill(int threads) {
  const Pattern pattern{"fill-fixed32", 32};
  benchmark::RegisterBenchmark(("MemoryPoolFill/fixed32/" + std::string(Allocator::name)).c_str(),
                               [pattern, threads](benchmark::State& state) {
                                 batches<Allocator>(state, pattern, fill_blocks / std::size_t(threads), true);
                               })
      ->Threads(threads)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

template <class Allocator>
void register_pairs(const Pattern& pattern, int threads) {
  benchmark::RegisterBenchmark(("MemoryPoolPairs/" + std::string(pattern.name) + "/" + Allocator::name).c_str(),
                               [pattern](benchmark::State& state) { pairs<Allocator>(state, pattern); })
      ->Threads(threads)
      ->UseRealTime();
}

// Peers first: the pool's ratios use the peers' rates from the same run.
[[maybe_unused]] const bool registered = [] {
  for (const Pattern& pattern : {Pattern{"fixed32", 32}, Pattern{"fixed64", 64}, Pattern{"fixed1024", 1024},
                                 Pattern{"mixed32-4096", 0}}) {
    for (int threads : {1, 2}) {
      register_pairs<Malloc>(pattern, threads);
#if defined(KDAG_HAVE_TBB)
      register_pairs<TbbScalable>(pattern, threads);
#endif
      register_pairs<Kokkos46>(pattern, threads);
      register_pairs<KdagPool>(pattern, threads);
      register_side_by_side("MemoryPoolPairsSideBySide/" + std::string(pattern.name), threads,
                            [pattern](benchmark::State& state) { pairs_side_by_side<KdagPool>(state, pattern); });
    }
  }
  for (const Pattern& pattern : {Pattern{"fixed32", 32}, Pattern{"mixed32-4096", 0}}) {
    for (int threads : {1, 2}) {
      register_batches<Malloc>(pattern, threads);
#if defined(KDAG_HAVE_TBB)
      register_batches<TbbScalable>(pattern, threads);
#endif
      register_batches<Kokkos46>(pattern, threads);
      register_batches<KdagPool>(pattern, threads);
      register_side_by_side("MemoryPoolBatchSideBySide/" + std::string(pattern.name), threads,
                            [pattern](benchmark::State& state) {
                              batches_side_by_side<KdagPool>(state, pattern, batch_blocks, false);
                            });
    }
  }
  for (int threads : {1, 2}) {
    register_fill<Malloc>(threads);
#if defined(KDAG_HAVE_TBB)
    register_fill<TbbScalable>(threads);
#endif
    register_fill<Kokkos46>(threads);
    register_fill<KdagPool>(threads);
    register_side_by_side("MemoryPoolFillSideBySide/fixed32", threads, [threads](benchmark::State& state) {
      batches_side_by_side<KdagPool>(state, Pattern{"fill-fixed32", 32}, fill_blocks / std::size_t(threads), true);
    });
  }
  return true;
}();

}  // namespace

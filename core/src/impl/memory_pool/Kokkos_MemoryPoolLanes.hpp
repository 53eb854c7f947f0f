#pragma once
// Where a thread starts looking in a memory pool.
//
// Two threads that allocate the same block size from the same superblock fight over its state
// word (a cache line bouncing between cores on every allocation and deallocation).  So each
// pool keeps one hint per block size *per lane* (seed 001's SBHint(N), widened), and each thread
// holds a lane: on the host a lane is leased from 64 per process when the thread first uses a
// pool and returned when it exits, so the threads running at any time have distinct lanes; on a
// GPU the warp index plays that role.  A host lane also holds the thread's magazines of freed
// blocks (impl/memory_pool/Kokkos_MemoryPoolMagazines.hpp), which only a thread that owns its
// lane uses: beyond 64 threads, lanes are shared.
//
// A thread also remembers, per block size, the bit word where it last claimed or released a
// block.  Starting the bit search there finds a free bit at once in the common
// allocate-after-free pattern, and hands back recently used, cache-warm memory.
#include <Kokkos_Macros.hpp>

#include <atomic>
#include <cstdint>

namespace Kokkos::Impl {

inline constexpr std::uint32_t memory_pool_max_lanes = 64;

struct MemoryPoolThreadContext {
  std::uint32_t lane_tag;        // 0 before the thread's first use of a pool, else lane + 1
  std::uint32_t magazine_tag;    // lane + 1 while no other thread holds the lane, else 0
  std::uint32_t bit_cursor[32];  // indexed by log2 of the block size
};

// Trivial and constant-initialised, so an access is a plain TLS load (no init guard).
inline thread_local MemoryPoolThreadContext t_memory_pool_thread{};

inline std::atomic<std::uint64_t> g_memory_pool_lanes_leased{0};
inline std::atomic<std::uint32_t> g_memory_pool_lane_overflow{0};

struct MemoryPoolLaneLease {
  std::uint32_t lane = memory_pool_max_lanes;
  ~MemoryPoolLaneLease() {
    t_memory_pool_thread.magazine_tag = 0;  // a pool used by a later thread_local destructor
    if (lane < memory_pool_max_lanes) {
      g_memory_pool_lanes_leased.fetch_and(~(std::uint64_t(1) << lane), std::memory_order_release);
    }
  }
};

// Slow path, once per thread: the lowest free lane, or a shared one when all 64 are leased.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
inline std::uint32_t memory_pool_lease_lane() noexcept {
  static thread_local MemoryPoolLaneLease lease;
  std::uint32_t lane;
  std::uint64_t leased = g_memory_pool_lanes_leased.load(std::memory_order_relaxed);
  while (true) {
    if (~leased == 0) {
      lane = g_memory_pool_lane_overflow.fetch_add(1, std::memory_order_relaxed) % memory_pool_max_lanes;
      t_memory_pool_thread.magazine_tag = 0;
      break;
    }
    lane = std::uint32_t(__builtin_ctzll(~leased));
    if (g_memory_pool_lanes_leased.compare_exchange_weak(leased, leased | (std::uint64_t(1) << lane),
                                                         std::memory_order_acq_rel, std::memory_order_relaxed)) {
      lease.lane = lane;
      t_memory_pool_thread.magazine_tag = lane + 1;
      break;
    }
  }
  t_memory_pool_thread.lane_tag = lane + 1;
  return lane;
}

KOKKOS_FORCEINLINE_FUNCTION std::uint32_t memory_pool_thread_lane() noexcept {
  KOKKOS_IF_ON_DEVICE((return (((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) *
                                   (blockDim.x * blockDim.y * blockDim.z) +
                               (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) >>
                              5;))
  KOKKOS_IF_ON_HOST((const std::uint32_t tag = t_memory_pool_thread.lane_tag;
                     return KOKKOS_IMPL_LIKELY(tag != 0) ? tag - 1 : memory_pool_lease_lane();))
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
inline std::uint32_t memory_pool_lease_magazine_tag() noexcept {
  if (t_memory_pool_thread.lane_tag == 0) memory_pool_lease_lane();
  return t_memory_pool_thread.magazine_tag;
}

// The calling host thread's lane + 1 when it owns the lane, so that it may use the lane's
// magazines; 0 when it shares its lane.  Leases a lane at the thread's first use of a pool.
inline std::uint32_t memory_pool_thread_magazine_tag() noexcept {
  const std::uint32_t tag = t_memory_pool_thread.magazine_tag;
  return KOKKOS_IMPL_LIKELY(tag != 0) ? tag : memory_pool_lease_magazine_tag();
}

// The bit word at which this thread starts looking for a free block of 2^block_lg2 bytes.
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t memory_pool_bit_cursor(std::uint32_t block_lg2) noexcept {
  KOKKOS_IF_ON_DEVICE(((void)block_lg2; return std::uint32_t(clock64()) ^ (threadIdx.x * 0x9E3779B9u);))
  KOKKOS_IF_ON_HOST((return t_memory_pool_thread.bit_cursor[block_lg2 & 31];))
}

KOKKOS_FORCEINLINE_FUNCTION void memory_pool_set_bit_cursor(std::uint32_t block_lg2, std::uint32_t word) noexcept {
  KOKKOS_IF_ON_DEVICE(((void)block_lg2; (void)word;))
  KOKKOS_IF_ON_HOST((t_memory_pool_thread.bit_cursor[block_lg2 & 31] = word;))
}

}  // namespace Kokkos::Impl

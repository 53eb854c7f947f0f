#pragma once
// Kokkos::MemoryPool: a finite, variable-size, lock-free superblock pool (seed 001 §2.5, §3.1).
//
// One allocation from the memory space holds, in this order:
//   hints       per lane, one superblock index per block size (SBHint(N)); a lane's hints share
//               a cache line, lanes never do (see impl/memory_pool/Kokkos_MemoryPoolLanes.hpp);
//   superblocks per superblock a cache line with its state word, then its bit array
//               (impl/memory_pool/Kokkos_SuperblockState.hpp) — states of neighbours never share a line;
//   magazines   in host memory, per thread lane (all 64) a stack of freed blocks per size
//               (impl/memory_pool/Kokkos_MemoryPoolMagazines.hpp);
//   data        the superblocks, aligned to the largest block size, so that every block is
//               aligned to its own size.
// Block and superblock sizes are powers of two, so all arithmetic is shifts and masks.
//
// allocate(n) takes the block size 2^N that fits n (at least the minimum block size) and tries
// the superblock its lane's hint names; only when that one is full or reassigned does it run
// Figure 2.5's search from SBStart(N, lane): the first superblock of blocks 2^N with room that
// no other lane is allocating from (on a GPU: with room), else the first empty one (reassigned
// to 2^N), else one of blocks 2^N that another lane allocates from, else one of larger blocks
// with room (the smallest such size).  `attempt_limit` counts searches that find nothing usable.  deallocate is
// constant time: superblock and block follow from the address.
//
// A pool in HostSpace keeps each thread's freed blocks in the thread's magazine for their size
// (up to magazine_capacity() blocks, fewer for small pools): deallocate leaves the block
// reserved and allocated in its superblock and pushes it; the thread's next allocate of that
// size pops the latest one.  An empty magazine is refilled with half its capacity of blocks from
// the hinted superblock (one compare-exchange and one fetch_or for all of them), a full one
// releases its older half (one fetch_and and one fetch_sub per bit word they share).  A thread
// uses its own magazines with plain loads and stores (a free, and an allocation from a magazine
// that holds blocks, need not even enter the magazine's gate), so a free followed by an
// allocation costs no atomic read-modify-write at all.  A block in a
// magazine is free for everything else: get_usage_statistics() and print_state() first empty
// every magazine (superblock_state() reads one state word, in which such a block still counts as
// used), and a search that finds no room (before it gives up) empties them and searches again
// while that releases any, so an allocation still fails only when the blocks not allocated by
// the program cannot serve it.
//
// The pool object is a handle: copies share the memory, which is freed with the last copy on
// the host; copies made on a device do not touch the count.
#include <Kokkos_Abort.hpp>
#include <Kokkos_Atomic.hpp>
#include <Kokkos_Concepts.hpp>
#include <Kokkos_View.hpp>  // Impl::DeepCopy
#include <Kokkos_HostSpace.hpp>
#include <Kokkos_Macros.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <impl/memory_pool/Kokkos_MemoryPoolLanes.hpp>
#include <impl/memory_pool/Kokkos_MemoryPoolMagazines.hpp>
#include <impl/memory_pool/Kokkos_SuperblockState.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__GNUC__) || defined(__clang__)
#define KOKKOS_IMPL_MEMORY_POOL_COLD __attribute__((noinline, cold))
#define KOKKOS_IMPL_MEMORY_POOL_NOINLINE __attribute__((noinline))
#else
#define KOKKOS_IMPL_MEMORY_POOL_COLD
#define KOKKOS_IMPL_MEMORY_POOL_NOINLINE
#endif

namespace Kokkos {
namespace Impl {

// Smallest k with 2^k >= n (0 for n <= 1).
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t memory_pool_ceil_lg2(std::uint64_t n) noexcept {
#if defined(__CUDA_ARCH__)
  return n <= 1 ? 0u : std::uint32_t(64 - __clzll(static_cast<long long>(n - 1)));
#else
  return n <= 1 ? 0u : std::uint32_t(64 - __builtin_clzll(n - 1));
#endif
}

// The sizes a pool is built with, after Kokkos' defaults and rounding to powers of two.
struct MemoryPoolSizes {
  std::uint32_t min_block_lg2;
  std::uint32_t max_block_lg2;
  std::uint32_t superblock_lg2;
  std::uint32_t superblock_count;
};

// Applies the defaults of Kokkos 4 to the constructor's arguments, checks
//   0 < min_block <= max_block <= superblock <= total,  superblock <= 2^31,
//   at most 2^25 blocks per superblock,
// and throws std::runtime_error naming the violated constraint and the values.
inline MemoryPoolSizes memory_pool_sizes(std::size_t total, std::size_t min_block, std::size_t max_block,
                                         std::size_t superblock) {
  constexpr std::size_t max_superblock = std::size_t(1) << 31;
  constexpr std::uint32_t max_count_lg2 = SuperblockState::max_block_count_lg2;
  const std::string requested = "(min_total_alloc_size = " + std::to_string(total) +
                                ", min_block_alloc_size = " + std::to_string(min_block) +
                                ", max_block_alloc_size = " + std::to_string(max_block) +
                                ", min_superblock_size = " + std::to_string(superblock) + ")";

  if (min_block == 0) {
    superblock = std::min<std::size_t>(std::size_t(1) << 20, total);
    min_block = std::min<std::size_t>(64, superblock);
    max_block = std::min<std::size_t>(4096, superblock);
  } else if (superblock == 0) {
    const std::size_t by_count =
        min_block > (max_superblock >> max_count_lg2) ? max_superblock : min_block << max_count_lg2;
    superblock = std::min({by_count, max_superblock, total});
  }
  if (max_block == 0) max_block = superblock;

  const auto fail = [&](const std::string& constraint, const std::string& values) {
    throw std::runtime_error("Kokkos::MemoryPool " + requested + ": requires " + constraint + ", but " + values +
                             " (min_block_alloc_size = " + std::to_string(min_block) +
                             ", max_block_alloc_size = " + std::to_string(max_block) +
                             ", min_superblock_size = " + std::to_string(superblock) + " after defaults)");
  };
  if (total == 0) fail("0 < min_total_alloc_size", "min_total_alloc_size = 0");
  if (min_block > max_block) {
    fail("min_block_alloc_size <= max_block_alloc_size", "min_block_alloc_size = " + std::to_string(min_block) +
                                                             " > max_block_alloc_size = " + std::to_string(max_block));
  }
  if (max_block > superblock) {
    fail("max_block_alloc_size <= min_superblock_size", "max_block_alloc_size = " + std::to_string(max_block) +
                                                            " > min_superblock_size = " + std::to_string(superblock));
  }
  if (superblock > total) {
    fail("min_superblock_size <= min_total_alloc_size", "min_superblock_size = " + std::to_string(superblock) +
                                                            " > min_total_alloc_size = " + std::to_string(total));
  }
  if (superblock > max_superblock) {
    fail("min_superblock_size <= 2^31 (2147483648)", "min_superblock_size = " + std::to_string(superblock));
  }

  MemoryPoolSizes sizes;
  sizes.min_block_lg2 = memory_pool_ceil_lg2(min_block);
  sizes.max_block_lg2 = memory_pool_ceil_lg2(max_block);
  sizes.superblock_lg2 = memory_pool_ceil_lg2(superblock);
  if (sizes.superblock_lg2 - sizes.min_block_lg2 > max_count_lg2) {
    fail("at most 2^25 (33554432) blocks per superblock",
         "a superblock of 2^" + std::to_string(sizes.superblock_lg2) + " bytes holds 2^" +
             std::to_string(sizes.superblock_lg2 - sizes.min_block_lg2) + " blocks of 2^" +
             std::to_string(sizes.min_block_lg2) + " bytes");
  }
  const std::size_t count =
      (total >> sizes.superblock_lg2) + ((total & ((std::size_t(1) << sizes.superblock_lg2) - 1)) != 0);
  if (count > std::size_t(INT32_MAX)) {
    fail("at most 2^31 - 1 superblocks", std::to_string(count) + " superblocks of 2^" +
                                             std::to_string(sizes.superblock_lg2) + " bytes are needed");
  }
  sizes.superblock_count = std::uint32_t(count);
  return sizes;
}

// The one allocation behind all copies of a pool, with its host-side reference count.
template <class MemorySpace>
struct MemoryPoolAllocation {
  std::atomic<int> references{1};
  MemorySpace space;
  void* base = nullptr;
  std::size_t bytes = 0;
};

inline constexpr const char* memory_pool_label = "Kokkos::MemoryPool";

[[noreturn]] KOKKOS_IMPL_MEMORY_POOL_COLD KOKKOS_INLINE_FUNCTION void memory_pool_abort_too_large(
    std::size_t request, std::size_t max_block) {
  KOKKOS_IF_ON_HOST((char message[192]; std::snprintf(message, sizeof(message),
                                                      "Kokkos::MemoryPool::allocate: request of %zu bytes exceeds "
                                                      "the maximum block size of %zu bytes",
                                                      request, max_block);
                     ::Kokkos::abort(message);))
  KOKKOS_IF_ON_DEVICE((::printf("Kokkos::MemoryPool::allocate: request of %llu bytes exceeds the maximum block size "
                                "of %llu bytes\n",
                                (unsigned long long)request, (unsigned long long)max_block);
                       ::Kokkos::abort("Kokkos::MemoryPool::allocate: request exceeds the maximum block size");))
}

enum class MemoryPoolMisuse { outside_pool, never_allocated, not_block_boundary, size_exceeds_block, not_allocated };

// What is wrong with a deallocation, as a format of the two figures (unsigned long long) each
// case quotes: one table for the host's message and the device's printf, so both say the same.
KOKKOS_INLINE_FUNCTION const char* memory_pool_misuse_format(MemoryPoolMisuse misuse) noexcept {
  switch (misuse) {
    case MemoryPoolMisuse::outside_pool: return "the pointer is not inside the pool [%#llx, %#llx)";
    case MemoryPoolMisuse::never_allocated:
      return "the block is not allocated (superblock %llu has never held blocks)";
    case MemoryPoolMisuse::not_block_boundary:
      return "the pointer is not at a block boundary (blocks of %llu bytes there; it is %llu bytes into one)";
    case MemoryPoolMisuse::size_exceeds_block:
      return "the size is larger than the block of %llu bytes at that address";
    case MemoryPoolMisuse::not_allocated:
      return "the block is not allocated (already deallocated, or never allocated; block %llu of superblock %llu)";
  }
  return "erroneous pointer";
}

[[noreturn]] KOKKOS_IMPL_MEMORY_POOL_COLD KOKKOS_INLINE_FUNCTION void memory_pool_abort_deallocate(
    const void* ptr, std::size_t size, MemoryPoolMisuse misuse, std::size_t a, std::size_t b) {
  const char* const format = memory_pool_misuse_format(misuse);
  const auto a_ = static_cast<unsigned long long>(a);
  const auto b_ = static_cast<unsigned long long>(b);
  KOKKOS_IF_ON_HOST((char detail[192]; std::snprintf(detail, sizeof(detail), format, a_, b_); char message[320];
                     std::snprintf(message, sizeof(message), "Kokkos::MemoryPool::deallocate(%p, %zu): %s", ptr, size,
                                   detail);
                     ::Kokkos::abort(message);))
  // Device printf has no %s of a formatted buffer: the same words in three calls, then abort.
  KOKKOS_IF_ON_DEVICE((::printf("Kokkos::MemoryPool::deallocate(%p, %llu): ", ptr, (unsigned long long)size);
                       ::printf(format, a_, b_); ::printf("\n");
                       ::Kokkos::abort("Kokkos::MemoryPool::deallocate: erroneous pointer (see the message above)");))
}

}  // namespace Impl

template <class DeviceType>
class MemoryPool {
  using traits = Impl::SpaceTraits<DeviceType>;

 public:
  using memory_space = typename traits::memory_space;
  using execution_space = typename traits::execution_space;
  using device_type = typename traits::device_type;

  static constexpr std::uint32_t max_superblock_size = std::uint32_t(1) << 31;
  static constexpr std::uint32_t max_block_per_superblock = std::uint32_t(1)
                                                            << Impl::SuperblockState::max_block_count_lg2;

  struct usage_statistics {
    std::size_t capacity_bytes;        // bytes the pool can hand out
    std::size_t superblock_bytes;      // bytes per superblock
    std::size_t max_block_bytes;       // largest block size
    std::size_t min_block_bytes;       // smallest block size
    std::size_t capacity_superblocks;  // superblocks in the pool
    std::size_t consumed_superblocks;  // superblocks holding at least one allocated block
    std::size_t consumed_blocks;       // allocated blocks
    std::size_t consumed_bytes;        // bytes of allocated blocks
    std::size_t reserved_blocks;       // free blocks in consumed superblocks
    std::size_t reserved_bytes;        // bytes of free blocks in consumed superblocks
  };

  // ---------------------------------------------------------------------------------------------
  // Construction and shared ownership
  // ---------------------------------------------------------------------------------------------

  // An empty pool: capacity 0, every allocation returns nullptr.
  KOKKOS_INLINE_FUNCTION MemoryPool() noexcept {}

  // A span of at least `min_total_alloc_size` bytes in `space`, in superblocks of at least
  // `min_superblock_size` bytes, handing out blocks of min_block_alloc_size..max_block_alloc_size
  // bytes (each rounded up to a power of two); zero arguments take Kokkos' defaults.  Throws
  // std::runtime_error for invalid sizes, before allocating anything.
  MemoryPool(const memory_space& space, std::size_t min_total_alloc_size, std::size_t min_block_alloc_size = 0,
             std::size_t max_block_alloc_size = 0, std::size_t min_superblock_size = 0) {
    const Impl::MemoryPoolSizes sizes = Impl::memory_pool_sizes(min_total_alloc_size, min_block_alloc_size,
                                                                max_block_alloc_size, min_superblock_size);
    constexpr std::size_t line = KOKKOS_IMPL_CACHE_LINE;
    const auto round_to_line = [](std::size_t n) { return (n + line - 1) / line * line; };

    m_sb_count = sizes.superblock_count;
    m_sb_lg2 = sizes.superblock_lg2;
    m_min_block_lg2 = sizes.min_block_lg2;
    m_max_block_lg2 = sizes.max_block_lg2;
    m_max_block_size = m_sb_count ? std::size_t(1) << m_max_block_lg2 : 0;
    m_size_count = m_max_block_lg2 - m_min_block_lg2 + 1;
    const std::uint64_t words = Impl::SuperblockState::words_for(m_sb_lg2 - m_min_block_lg2);
    m_sb_record_bytes = std::uint32_t(line + round_to_line(words * sizeof(std::uint64_t)));
    // As many lanes as leave every (block size, lane) its own starting superblock, at most 64.
    std::uint32_t lanes = 1;
    while (lanes * 2 <= Impl::memory_pool_max_lanes && std::uint64_t(lanes) * 2 * m_size_count <= m_sb_count) {
      lanes *= 2;
    }
    m_lane_mask = lanes - 1;
    m_hint_stride = std::uint32_t(round_to_line(m_size_count * sizeof(std::uint32_t)) / sizeof(std::uint32_t));
    std::uint32_t magazine_capacity = 0;
    if constexpr (has_magazines) {
      magazine_capacity = magazine_capacity_for(std::size_t(m_sb_count) << m_sb_lg2);
      Impl::asymmetric_fence_prepare();
    }
    const std::size_t magazine_bytes = Impl::MemoryPoolMagazines::bytes_for(m_size_count, magazine_capacity);

    const std::size_t hint_bytes = std::size_t(lanes) * m_hint_stride * sizeof(std::uint32_t);
    const std::size_t records_bytes = std::size_t(m_sb_count) * m_sb_record_bytes;
    const std::size_t meta_bytes = hint_bytes + records_bytes + magazine_bytes;
    const std::size_t data_align = std::max<std::size_t>(line, std::size_t(1) << m_max_block_lg2);
    const std::size_t capacity_bytes = std::size_t(m_sb_count) << m_sb_lg2;
    const std::size_t bytes = line + meta_bytes + data_align + capacity_bytes;

    auto* allocation = new Impl::MemoryPoolAllocation<memory_space>();
    allocation->space = space;
    try {
      allocation->base = space.allocate(Impl::memory_pool_label, bytes);
    } catch (...) {
      delete allocation;
      throw;
    }
    allocation->bytes = bytes;
    m_allocation = allocation;

    const auto align_up = [](std::uintptr_t p, std::size_t a) { return (p + a - 1) / a * a; };
    char* const meta = reinterpret_cast<char*>(align_up(reinterpret_cast<std::uintptr_t>(allocation->base), line));
    m_hints = reinterpret_cast<std::uint32_t*>(meta);
    m_sb_records = meta + hint_bytes;
    if (magazine_capacity > 0) {
      m_magazines = Impl::MemoryPoolMagazines(meta + hint_bytes + records_bytes, m_size_count, magazine_capacity);
    }
    m_data = reinterpret_cast<char*>(align_up(reinterpret_cast<std::uintptr_t>(meta + meta_bytes), data_align));
    if constexpr (host_accessible) {
      initialize_metadata(meta, lanes);
    } else {
      // Device memory: the hints and states are written on the host and copied in one piece.
      std::vector<char> image(meta_bytes);
      initialize_metadata(image.data(), lanes);
      Impl::DeepCopy<memory_space, HostSpace>(meta, image.data(), meta_bytes);
    }
  }

  KOKKOS_INLINE_FUNCTION MemoryPool(const MemoryPool& other) noexcept { copy_from(other); }
  KOKKOS_INLINE_FUNCTION MemoryPool(MemoryPool&& other) noexcept {
    copy_fields(other);
    other.clear();
  }
  KOKKOS_INLINE_FUNCTION MemoryPool& operator=(const MemoryPool& other) noexcept {
    if (this != &other) {
      release();
      copy_from(other);
    }
    return *this;
  }
  KOKKOS_INLINE_FUNCTION MemoryPool& operator=(MemoryPool&& other) noexcept {
    if (this != &other) {
      release();
      copy_fields(other);
      other.clear();
    }
    return *this;
  }
  KOKKOS_INLINE_FUNCTION ~MemoryPool() { release(); }

  KOKKOS_INLINE_FUNCTION bool operator==(const MemoryPool& other) const noexcept {
    return m_allocation == other.m_allocation;
  }
  KOKKOS_INLINE_FUNCTION bool operator!=(const MemoryPool& other) const noexcept { return !(*this == other); }

  // ---------------------------------------------------------------------------------------------
  // Sizes
  // ---------------------------------------------------------------------------------------------

  KOKKOS_INLINE_FUNCTION std::size_t capacity() const noexcept { return std::size_t(m_sb_count) << m_sb_lg2; }
  KOKKOS_INLINE_FUNCTION std::size_t min_block_size() const noexcept {
    return m_sb_count ? std::size_t(1) << m_min_block_lg2 : 0;
  }
  KOKKOS_INLINE_FUNCTION std::size_t max_block_size() const noexcept { return m_max_block_size; }
  KOKKOS_INLINE_FUNCTION int number_of_superblocks() const noexcept { return int(m_sb_count); }

  // The pool's own words in its memory: every lane's hints and every superblock's state word and
  // bit array, one span before the first block; {nullptr, 0} for an empty pool.  For code that
  // moves the pool's memory between host and device ahead of use (TaskScheduler<Cuda>::wait()).
  std::pair<const void*, std::size_t> impl_bookkeeping() const noexcept {
    if (m_sb_count == 0) return {nullptr, 0};
    const char* const begin = reinterpret_cast<const char*>(m_hints);
    return {begin, std::size_t(m_sb_records + std::size_t(m_sb_count) * m_sb_record_bytes - begin)};
  }

  // The block size allocate(alloc_size) would hand out; 0 for 0 bytes and for requests larger
  // than the maximum block size.
  KOKKOS_INLINE_FUNCTION std::size_t allocate_block_size(std::size_t alloc_size) const noexcept {
    if (alloc_size - 1 >= max_block_size()) return 0;
    return std::size_t(1) << block_lg2_for(alloc_size);
  }

  // ---------------------------------------------------------------------------------------------
  // Allocation
  // ---------------------------------------------------------------------------------------------

  // A block of at least `alloc_size` bytes aligned to its size, or nullptr when `alloc_size` is
  // 0, the pool is empty, or `attempt_limit` searches found no room (attempt_limit < 1 makes no
  // search).  A request above max_block_size() aborts.
  KOKKOS_INLINE_FUNCTION void* allocate(std::size_t alloc_size, std::int32_t attempt_limit = 1) const noexcept {
    if constexpr (!host_accessible) {
      KOKKOS_IF_ON_HOST((::Kokkos::abort("Kokkos::MemoryPool::allocate called on the host for a pool in memory the "
                                         "host cannot access; call it inside a kernel of the pool's execution space");))
    }
    if (KOKKOS_IMPL_UNLIKELY(alloc_size - 1 >= max_block_size())) {
      if (alloc_size == 0 || m_sb_count == 0) return nullptr;
      Impl::memory_pool_abort_too_large(alloc_size, max_block_size());
    }
    if (KOKKOS_IMPL_UNLIKELY(attempt_limit < 1)) return nullptr;
    const std::uint32_t block_lg2 = block_lg2_for(alloc_size);
    const std::uint32_t code = block_lg2 - m_min_block_lg2 + 1;
    if constexpr (has_magazines) {
      KOKKOS_IF_ON_HOST((const std::uint32_t tag = Impl::memory_pool_thread_magazine_tag();
                         if (KOKKOS_IMPL_LIKELY(tag != 0)) {
                           if (void* p = pop_from_magazine(tag - 1, code)) return p;
                           return allocate_past_magazine(code, tag - 1, attempt_limit);
                         }))
    }
    return allocate_from_superblocks(code, Impl::memory_pool_thread_lane(), attempt_limit);
  }

  // Returns a block to the pool; nullptr is a no-op.  A pointer outside the pool, not at a block
  // boundary, or not allocated (e.g. freed twice) aborts with a message naming the problem:
  // those checks cost nothing beyond the deallocation itself.  `alloc_size` is only checked in
  // debug builds (KOKKOS_ENABLE_DEBUG): it must fit the block.
  KOKKOS_INLINE_FUNCTION void deallocate(void* ptr, std::size_t alloc_size) const noexcept {
    if (ptr == nullptr) return;
    if constexpr (!host_accessible) {
      KOKKOS_IF_ON_HOST((::Kokkos::abort("Kokkos::MemoryPool::deallocate called on the host for a pool in memory the "
                                         "host cannot access; call it inside a kernel of the pool's execution space");))
    }
    const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(ptr) - reinterpret_cast<std::uintptr_t>(m_data);
    if (KOKKOS_IMPL_UNLIKELY(offset >= capacity())) {
      Impl::memory_pool_abort_deallocate(ptr, alloc_size, Impl::MemoryPoolMisuse::outside_pool,
                                         std::size_t(reinterpret_cast<std::uintptr_t>(m_data)),
                                         std::size_t(reinterpret_cast<std::uintptr_t>(m_data)) + capacity());
    }
    const std::uint32_t sb = std::uint32_t(offset >> m_sb_lg2);
    const Impl::SuperblockState state = superblock(sb);
    const std::uint32_t code = Impl::SuperblockState::code(state.load());
    if (KOKKOS_IMPL_UNLIKELY(code == 0)) {
      Impl::memory_pool_abort_deallocate(ptr, alloc_size, Impl::MemoryPoolMisuse::never_allocated, sb, 0);
    }
    const std::uint32_t block_lg2 = m_min_block_lg2 + code - 1;
    const std::size_t in_superblock = offset & ((std::size_t(1) << m_sb_lg2) - 1);
    const std::size_t in_block = in_superblock & ((std::size_t(1) << block_lg2) - 1);
    if (KOKKOS_IMPL_UNLIKELY(in_block != 0)) {
      Impl::memory_pool_abort_deallocate(ptr, alloc_size, Impl::MemoryPoolMisuse::not_block_boundary,
                                         std::size_t(1) << block_lg2, in_block);
    }
#if defined(KOKKOS_ENABLE_DEBUG)
    if (alloc_size > (std::size_t(1) << block_lg2)) {
      Impl::memory_pool_abort_deallocate(ptr, alloc_size, Impl::MemoryPoolMisuse::size_exceeds_block,
                                         std::size_t(1) << block_lg2, 0);
    }
#endif
    const std::uint32_t index = std::uint32_t(in_superblock >> block_lg2);
    if constexpr (has_magazines) {
      KOKKOS_IF_ON_HOST((if (push_to_magazine(ptr, alloc_size, sb, index, code)) return;))
    }
    if (KOKKOS_IMPL_UNLIKELY(!state.release(index))) {
      Impl::memory_pool_abort_deallocate(ptr, alloc_size, Impl::MemoryPoolMisuse::not_allocated, index, sb);
    }
    Impl::memory_pool_set_bit_cursor(block_lg2, index >> Impl::SuperblockState::bits_per_word_lg2);
  }

  // ---------------------------------------------------------------------------------------------
  // Inspection (a snapshot: exact when no allocation or deallocation runs concurrently)
  // ---------------------------------------------------------------------------------------------

  // Blocks each thread's magazine holds at most, per block size (0 for a pool not in HostSpace).
  KOKKOS_INLINE_FUNCTION std::uint32_t magazine_capacity() const noexcept { return m_magazines.capacity(); }

  // Block size and block counts of superblock `sb_id`; all 0 for a superblock never assigned a
  // block size or an id out of range.  Blocks in threads' magazines count as used here (one state
  // word is read); get_usage_statistics() empties the magazines first.  Called on the host for a
  // pool in device memory, it copies the state back (after the work on the default instance that
  // used the pool).
  template <class Int>
  KOKKOS_INLINE_FUNCTION void superblock_state(int sb_id, Int& block_size, Int& block_count_capacity,
                                               Int& block_count_used) const noexcept {
    block_size = block_count_capacity = block_count_used = 0;
    if (sb_id < 0 || std::uint32_t(sb_id) >= m_sb_count) return;
    std::uint32_t state = 0;
    if constexpr (host_accessible) {
      state = superblock(std::uint32_t(sb_id)).load();
    } else {
      KOKKOS_IF_ON_DEVICE((state = superblock(std::uint32_t(sb_id)).load();))
      KOKKOS_IF_ON_HOST((Impl::DeepCopy<HostSpace, memory_space>(&state, superblock_word(std::uint32_t(sb_id)),
                                                                 sizeof(state));))
    }
    decode(state, block_size, block_count_capacity, block_count_used);
  }

  void get_usage_statistics(usage_statistics& stats) const {
    stats = usage_statistics{};
    stats.capacity_bytes = capacity();
    stats.superblock_bytes = m_sb_count ? std::size_t(1) << m_sb_lg2 : 0;
    stats.max_block_bytes = max_block_size();
    stats.min_block_bytes = min_block_size();
    stats.capacity_superblocks = m_sb_count;
    const std::vector<std::uint32_t> states = state_snapshot();
    for (std::uint32_t state : states) {
      std::size_t size = 0, count = 0, used = 0;
      decode(state, size, count, used);
      if (used == 0) continue;
      ++stats.consumed_superblocks;
      stats.consumed_blocks += used;
      stats.consumed_bytes += used * size;
      stats.reserved_blocks += count - used;
      stats.reserved_bytes += (count - used) * size;
    }
  }

  // One line per superblock: its block size and how many of its blocks are allocated.
  void print_state(std::ostream& s) const {
    s << "Kokkos::MemoryPool { capacity " << capacity() << " bytes in " << m_sb_count << " superblocks of "
      << (m_sb_count ? std::size_t(1) << m_sb_lg2 : 0) << " bytes, blocks of " << min_block_size() << " to "
      << max_block_size() << " bytes }\n";
    const std::vector<std::uint32_t> states = state_snapshot();
    for (std::uint32_t sb = 0; sb < m_sb_count; ++sb) {
      std::size_t size = 0, count = 0, used = 0;
      decode(states[sb], size, count, used);
      s << "  Superblock[ " << sb << " / " << m_sb_count << " ] { ";
      if (size == 0) {
        s << "unassigned }\n";
      } else {
        s << "block_size(" << size << ") block_count( " << used << " / " << count << " ) }\n";
      }
    }
  }

 private:
  static constexpr std::uint32_t no_superblock = ~std::uint32_t(0);
  static constexpr bool host_accessible = SpaceAccessibility<HostSpace, memory_space>::accessible;
  // Only host threads use a HostSpace pool, so only they can hold blocks in its magazines, and
  // every search that could need one (see allocate_by_search) can release them.
  static constexpr bool has_magazines = std::is_same_v<memory_space, HostSpace>;

  // Blocks per magazine: 64 where the magazines take at most 1/16 of the pool's capacity, fewer
  // (a power of two) for smaller pools, at least 1.  Blocks smaller than a pointer cannot carry
  // the mark that finds a block freed twice at once (push_to_magazine), so pools with such blocks
  // keep one block per magazine, which is checked by comparison.
  std::uint32_t magazine_capacity_for(std::size_t capacity_bytes) const noexcept {
    using Magazines = Impl::MemoryPoolMagazines;
    if ((std::size_t(1) << m_min_block_lg2) < sizeof(std::uintptr_t)) return 1;
    std::uint32_t blocks = Magazines::max_capacity;
    while (blocks > 1 && Magazines::bytes_for(m_size_count, blocks) > capacity_bytes / 16) blocks /= 2;
    return blocks;
  }
  KOKKOS_FORCEINLINE_FUNCTION std::size_t magazine_bytes() const noexcept {
    return Impl::MemoryPoolMagazines::bytes_for(m_size_count, m_magazines.capacity());
  }
  KOKKOS_FORCEINLINE_FUNCTION std::uint32_t superblock_of(const void* p) const noexcept {
    return std::uint32_t(std::size_t(static_cast<const char*>(p) - m_data) >> m_sb_lg2);
  }

  KOKKOS_FORCEINLINE_FUNCTION std::uint32_t* hint_of(std::uint32_t thread_lane, std::uint32_t code) const noexcept {
    return m_hints + (thread_lane & m_lane_mask) * m_hint_stride + (code - 1);
  }

  // A block of the superblock the lane's hint names, else the search.
  KOKKOS_INLINE_FUNCTION void* allocate_from_superblocks(std::uint32_t code, std::uint32_t thread_lane,
                                                         std::int32_t attempt_limit) const noexcept {
    const std::uint32_t block_lg2 = m_min_block_lg2 + code - 1;
    std::uint32_t* const hint = hint_of(thread_lane, code);
    std::uint32_t sb = 0;
    bool reserved = false;
    KOKKOS_IF_ON_HOST((sb = Impl::atomic_load_relaxed(hint);
                       reserved = superblock(sb).try_reserve(code, block_count(block_lg2));))
    KOKKOS_IF_ON_DEVICE((reserved = reserve_with_peers(code, block_lg2, hint, sb);))
    if (KOKKOS_IMPL_LIKELY(reserved)) return claim(sb, block_lg2);
    return allocate_by_search(code, thread_lane & m_lane_mask, hint, attempt_limit);
  }

  // The same, out of line: on the host a magazine serves most allocations.
  KOKKOS_IMPL_MEMORY_POOL_NOINLINE void* allocate_past_magazine(std::uint32_t code, std::uint32_t thread_lane,
                                                                std::int32_t attempt_limit) const noexcept {
    return allocate_from_superblocks(code, thread_lane, attempt_limit);
  }

  // The calling thread's latest freed block of size `code`, or a block of a refill; nullptr when
  // its magazine is empty and the hinted superblock has no room (the caller searches), or when a
  // flush runs.  The thread owns `thread_lane`.
  KOKKOS_FORCEINLINE_FUNCTION void* pop_from_magazine(std::uint32_t thread_lane, std::uint32_t code) const noexcept {
    using Magazines = Impl::MemoryPoolMagazines;
    const Magazines::Lane lane = m_magazines.lane(thread_lane);
    std::uintptr_t* const stack = lane.stack(code - 1);
    const std::uintptr_t bottom = stack[Magazines::bottom_word];
    if (KOKKOS_IMPL_LIKELY(bottom != 0)) {
      if (auto* const p = static_cast<unsigned char*>(lane.pop(stack, bottom))) {
        *p = 0;  // no longer the mark (see MemoryPoolMagazines::mark), in a block of any size
        return p;
      }
    }
    return refill_magazine(stack, lane, thread_lane, code);
  }

  // The stack of blocks of size `code` had none for a pop, or a flush locked it.  Inside the gate,
  // where no flush runs: an empty stack is refilled (refill_magazine_in_gate), a stack that holds
  // blocks again (the flush left them) gives its latest.  nullptr while a flush runs, or when the
  // hinted superblock has no room.
  KOKKOS_IMPL_MEMORY_POOL_NOINLINE void* refill_magazine(std::uintptr_t* stack,
                                                         const Impl::MemoryPoolMagazines::Lane& lane,
                                                         std::uint32_t thread_lane, std::uint32_t code) const noexcept {
    using Magazines = Impl::MemoryPoolMagazines;
    if (KOKKOS_IMPL_UNLIKELY(!lane.enter())) return nullptr;
    void* p;
    const std::uintptr_t bottom = stack[Magazines::bottom_word];
    if (bottom != stack[Magazines::top_word]) {
      p = reinterpret_cast<void*>(stack[Magazines::blocks_word + bottom - 1]);
      stack[Magazines::bottom_word] = bottom - 1;
      *static_cast<unsigned char*>(p) = 0;
    } else {
      p = refill_magazine_in_gate(stack, lane, thread_lane, code);
    }
    lane.leave();
    return p;
  }

  // Reserves and claims up to half a magazine of blocks of size `code` in the hinted superblock:
  // returns the first, pushes the others (the next in address order on top) on the empty `stack`.
  // Inside the gate.
  void* refill_magazine_in_gate(std::uintptr_t* stack, const Impl::MemoryPoolMagazines::Lane& lane,
                                std::uint32_t thread_lane, std::uint32_t code) const noexcept {
    using Magazines = Impl::MemoryPoolMagazines;
    std::uint32_t* const hint = hint_of(thread_lane, code);
    const std::uint32_t block_lg2 = m_min_block_lg2 + code - 1;
    const std::uint32_t sb = Impl::atomic_load_relaxed(hint);
    const std::uint32_t wanted = m_magazines.capacity() > 1 ? m_magazines.capacity() / 2 : 1;
    const std::uint32_t got = superblock(sb).try_reserve_up_to(code, block_count(block_lg2), wanted);
    if (got == 0) return nullptr;
    std::uint32_t index[Magazines::max_capacity];
    superblock(sb).claim_many(m_sb_lg2 - block_lg2, Impl::memory_pool_bit_cursor(block_lg2), got, index);
    Impl::memory_pool_set_bit_cursor(block_lg2, index[got - 1] >> Impl::SuperblockState::bits_per_word_lg2);
    char* const base = m_data + (std::size_t(sb) << m_sb_lg2);
    stack[Magazines::top_word] = 0;
    std::uintptr_t bottom = 0;
    for (std::uint32_t i = got - 1; i > 0; --i) {
      char* const block = base + (std::size_t(index[i]) << block_lg2);
      stack[Magazines::blocks_word + bottom++] = reinterpret_cast<std::uintptr_t>(block);
    }
    stack[Magazines::bottom_word] = bottom;
    if (got > 1) lane.mark_holding();
    char* const first = base + (std::size_t(index[0]) << block_lg2);
    *first = 0;  // not the mark (a block released by a flush still holds it)
    return first;
  }

  // Pushes the block `ptr` (block `index` of superblock `sb`, blocks of size `code`) on the
  // calling thread's magazine for its size; false when the caller must release it (a flush runs,
  // the thread shares its lane, or the block's bit is clear, which the caller's release reports).
  // A block already in the magazine aborts.  The common case needs no gate (see
  // Kokkos_MemoryPoolMagazines.hpp): room at the bottom, and a block without the mark.
  KOKKOS_FORCEINLINE_FUNCTION bool push_to_magazine(void* ptr, std::size_t alloc_size, std::uint32_t sb,
                                                    std::uint32_t index, std::uint32_t code) const noexcept {
    using Magazines = Impl::MemoryPoolMagazines;
    const std::uint32_t tag = Impl::memory_pool_thread_magazine_tag();
    if (KOKKOS_IMPL_UNLIKELY(tag == 0)) return false;
    const Magazines::Lane lane = m_magazines.lane(tag - 1);
    std::uintptr_t* const stack = lane.stack(code - 1);
    const std::uintptr_t bottom = stack[Magazines::bottom_word];
    const std::uintptr_t mark = m_magazines.mark();
    std::uintptr_t* const first_word = static_cast<std::uintptr_t*>(ptr);
    if (KOKKOS_IMPL_LIKELY(bottom < m_magazines.push_limit() && *first_word != mark)) {
      if (KOKKOS_IMPL_UNLIKELY(!superblock(sb).holds(index))) return false;
      // Before the push: once a flush can see the block, another thread may own it.
      *first_word = mark;
      lane.push(stack, bottom, ptr);
      return true;
    }
    return push_to_magazine_in_gate(ptr, alloc_size, sb, index, lane, stack);
  }

  // push_to_magazine's other cases, inside the gate: a full stack, a block that may be in the
  // magazine already, a magazine of one block.
  KOKKOS_IMPL_MEMORY_POOL_NOINLINE bool push_to_magazine_in_gate(void* ptr, std::size_t alloc_size, std::uint32_t sb,
                                                                 std::uint32_t index,
                                                                 const Impl::MemoryPoolMagazines::Lane& lane,
                                                                 std::uintptr_t* stack) const noexcept {
    using Magazines = Impl::MemoryPoolMagazines;
    if (KOKKOS_IMPL_UNLIKELY(!lane.enter())) return false;
    const bool marked = m_magazines.capacity() > 1;
    const std::uintptr_t bottom = stack[Magazines::bottom_word];
    const std::uintptr_t top = stack[Magazines::top_word];
    if (marked ? *static_cast<std::uintptr_t*>(ptr) == m_magazines.mark()
               : bottom != top && stack[Magazines::blocks_word + bottom - 1] == reinterpret_cast<std::uintptr_t>(ptr)) {
      if (magazine_holds(stack, ptr)) {
        lane.leave();
        Impl::memory_pool_abort_deallocate(ptr, alloc_size, Impl::MemoryPoolMisuse::not_allocated, index, sb);
      }
    }
    if (KOKKOS_IMPL_UNLIKELY(!superblock(sb).holds(index))) {
      lane.leave();
      return false;
    }
    if (bottom == m_magazines.capacity()) make_room(stack);
    if (marked) *static_cast<std::uintptr_t*>(ptr) = m_magazines.mark();
    lane.push(stack, stack[Magazines::bottom_word], ptr);
    lane.leave();
    return true;
  }

  static bool magazine_holds(const std::uintptr_t* stack, const void* ptr) noexcept {
    using Magazines = Impl::MemoryPoolMagazines;
    for (std::uintptr_t i = stack[Magazines::top_word]; i < stack[Magazines::bottom_word]; ++i) {
      if (stack[Magazines::blocks_word + i] == reinterpret_cast<std::uintptr_t>(ptr)) return true;
    }
    return false;
  }

  // A stack whose bottom reached the capacity: releases the older half of a full one (a single
  // block for a magazine of one), then moves the blocks down to the first word.  Inside the gate.
  KOKKOS_IMPL_MEMORY_POOL_NOINLINE void make_room(std::uintptr_t* stack) const noexcept {
    using Magazines = Impl::MemoryPoolMagazines;
    std::uintptr_t* const blocks = stack + Magazines::blocks_word;
    std::uintptr_t top = stack[Magazines::top_word];
    const std::uintptr_t bottom = stack[Magazines::bottom_word];
    if (bottom - top == m_magazines.capacity()) {
      const std::uintptr_t older = bottom - top > 1 ? (bottom - top) / 2 : 1;
      release_blocks(reinterpret_cast<void* const*>(blocks + top), std::uint32_t(older));
      top += older;
    }
    for (std::uintptr_t i = top; i < bottom; ++i) blocks[i - top] = blocks[i];
    stack[Magazines::top_word] = 0;
    stack[Magazines::bottom_word] = bottom - top;
  }

  // Releases `count` blocks from magazines to their superblocks, one fetch_and and one fetch_sub
  // per run of blocks that share a bit word.  A block whose bit is clear, or that appears twice,
  // was freed twice (by two threads, or after a flush): abort.
  KOKKOS_IMPL_MEMORY_POOL_NOINLINE void release_blocks(void* const* blocks, std::uint32_t count) const noexcept {
    using State = Impl::SuperblockState;
    constexpr std::uint32_t word_bits = std::uint32_t(1) << State::bits_per_word_lg2;
    std::uint32_t i = 0;
    while (i < count) {
      const std::size_t offset = std::size_t(static_cast<char*>(blocks[i]) - m_data);
      const std::uint32_t sb = std::uint32_t(offset >> m_sb_lg2);
      const std::uint32_t block_lg2 = m_min_block_lg2 + State::code(superblock(sb).load()) - 1;
      const std::size_t sb_begin = std::size_t(sb) << m_sb_lg2;
      const std::uint32_t word = std::uint32_t((offset - sb_begin) >> block_lg2) >> State::bits_per_word_lg2;
      const std::size_t word_begin = sb_begin + (std::size_t(word) << (block_lg2 + State::bits_per_word_lg2));
      // A superblock of fewer than 64 blocks ends before its word does.
      const std::size_t word_end =
          std::min(word_begin + (std::size_t(word_bits) << block_lg2), sb_begin + (std::size_t(1) << m_sb_lg2));
      std::uint64_t mask = 0;
      for (; i < count; ++i) {
        const std::size_t at = std::size_t(static_cast<char*>(blocks[i]) - m_data);
        if (at < word_begin || at >= word_end) break;
        const std::uint64_t bit = std::uint64_t(1) << (((at - word_begin) >> block_lg2) & (word_bits - 1));
        if (mask & bit) abort_released_twice(m_data + at);
        mask |= bit;
      }
      if (const std::uint64_t missing = superblock(sb).release_many(word, mask)) {
        const std::uint32_t b = State::lowest_set_bit(missing);
        abort_released_twice(m_data + word_begin + (std::size_t(b) << block_lg2));
      }
    }
  }
  [[noreturn]] KOKKOS_IMPL_MEMORY_POOL_COLD void abort_released_twice(const void* p) const noexcept {
    const std::size_t offset = std::size_t(static_cast<const char*>(p) - m_data);
    const std::uint32_t sb = std::uint32_t(offset >> m_sb_lg2);
    const std::uint32_t block_lg2 = m_min_block_lg2 + Impl::SuperblockState::code(superblock(sb).load()) - 1;
    const std::size_t index = (offset & ((std::size_t(1) << m_sb_lg2) - 1)) >> block_lg2;
    Impl::memory_pool_abort_deallocate(p, 0, Impl::MemoryPoolMisuse::not_allocated, index, sb);
  }

  // Empties every thread's magazines into the superblocks; true if they held any block.
  KOKKOS_IMPL_MEMORY_POOL_NOINLINE bool release_magazines() const noexcept {
    if (m_magazines.capacity() == 0) return false;
    return m_magazines.flush([this](void* const* blocks, std::uint32_t count) { release_blocks(blocks, count); });
  }

  // Zeroes the hints and superblock records at `meta` (the pool's own memory, or a host image
  // of it) and starts each lane's hint at its SBStart, assigning that superblock to the hint's
  // block size if no other (size, lane) claimed it first: threads of different lanes then
  // allocate from different superblocks from the first allocation on.  Assigned but empty
  // superblocks remain free to be reassigned.
  void initialize_metadata(char* meta, std::uint32_t lanes) const {
    const std::size_t hint_bytes = std::size_t(lanes) * m_hint_stride * sizeof(std::uint32_t);
    std::memset(meta, 0, hint_bytes + std::size_t(m_sb_count) * m_sb_record_bytes + magazine_bytes());
    auto* const hints = reinterpret_cast<std::uint32_t*>(meta);
    char* const records = meta + hint_bytes;
    for (std::uint32_t lane = 0; lane < lanes; ++lane) {
      for (std::uint32_t n = 0; n < m_size_count; ++n) {
        const std::uint32_t sb = superblock_start(n, lane);
        hints[lane * m_hint_stride + n] = sb;
        auto* const state = reinterpret_cast<std::uint32_t*>(records + std::size_t(sb) * m_sb_record_bytes);
        if (*state == 0) *state = Impl::SuperblockState::make(n + 1, 0);
      }
    }
  }

  // Every superblock's state word, read on the host (copied back from device memory).
  std::vector<std::uint32_t> state_snapshot() const {
    std::vector<std::uint32_t> states(m_sb_count);
    if constexpr (host_accessible) {
      if constexpr (has_magazines) release_magazines();
      for (std::uint32_t sb = 0; sb < m_sb_count; ++sb) states[sb] = superblock(sb).load();
    } else if (m_sb_count > 0) {
      std::vector<char> records(std::size_t(m_sb_count) * m_sb_record_bytes);
      Impl::DeepCopy<HostSpace, memory_space>(records.data(), m_sb_records, records.size());
      for (std::uint32_t sb = 0; sb < m_sb_count; ++sb) {
        std::memcpy(&states[sb], records.data() + std::size_t(sb) * m_sb_record_bytes, sizeof(std::uint32_t));
      }
    }
    return states;
  }

  template <class Int>
  KOKKOS_INLINE_FUNCTION void decode(std::uint32_t state, Int& block_size, Int& block_count_capacity,
                                     Int& block_count_used) const noexcept {
    block_size = block_count_capacity = block_count_used = 0;
    const std::uint32_t code = Impl::SuperblockState::code(state);
    if (code == 0) return;
    const std::uint32_t block_lg2 = m_min_block_lg2 + code - 1;
    block_size = Int(std::size_t(1) << block_lg2);
    block_count_capacity = Int(block_count(block_lg2));
    block_count_used = Int(Impl::SuperblockState::used(state));
  }

  KOKKOS_FORCEINLINE_FUNCTION std::uint32_t block_lg2_for(std::size_t alloc_size) const noexcept {
    const std::uint32_t lg2 = Impl::memory_pool_ceil_lg2(alloc_size);
    return lg2 < m_min_block_lg2 ? m_min_block_lg2 : lg2;
  }
  KOKKOS_FORCEINLINE_FUNCTION std::uint32_t block_count(std::uint32_t block_lg2) const noexcept {
    return std::uint32_t(1) << (m_sb_lg2 - block_lg2);
  }
  KOKKOS_FORCEINLINE_FUNCTION std::uint32_t* superblock_word(std::uint32_t sb) const noexcept {
    return reinterpret_cast<std::uint32_t*>(m_sb_records + std::size_t(sb) * m_sb_record_bytes);
  }
  KOKKOS_FORCEINLINE_FUNCTION Impl::SuperblockState superblock(std::uint32_t sb) const noexcept {
    char* const record = m_sb_records + std::size_t(sb) * m_sb_record_bytes;
    return Impl::SuperblockState(reinterpret_cast<std::uint32_t*>(record),
                                 reinterpret_cast<std::uint64_t*>(record + KOKKOS_IMPL_CACHE_LINE));
  }
  // SBStart(N, lane): spread over the pool so that different block sizes and different lanes
  // start their searches at different superblocks.
  KOKKOS_INLINE_FUNCTION std::uint32_t superblock_start(std::uint32_t size_index, std::uint32_t lane) const noexcept {
    const std::uint64_t slots = std::uint64_t(m_size_count) * (m_lane_mask + 1);
    return std::uint32_t((std::uint64_t(lane) * m_size_count + size_index) * m_sb_count / slots);
  }

#if defined(__CUDA_ARCH__)
  // The hinted reservation on a GPU: the lanes of a warp that allocate the same block size from
  // this pool at once (all of them, in a kernel where every thread allocates) reserve their
  // blocks in the hinted superblock with one compare-exchange by the lowest of them; the first
  // `reserved` of them in lane order get one each and claim their own bits.  The others, as a
  // lane that found the hint full on the host, go on to the search.  Sets `sb` to the hint.
  __device__ bool reserve_with_peers(std::uint32_t code, std::uint32_t block_lg2, std::uint32_t* hint,
                                     std::uint32_t& sb) const noexcept {
#if __CUDA_ARCH__ < 700
    // No __match_any_sync before Volta: every lane reserves on its own, as on the host.
    sb = Impl::atomic_load_relaxed(hint);
    return superblock(sb).try_reserve(code, block_count(block_lg2));
#else
    const unsigned active = __activemask();
    // m_sb_records is cache-line aligned, so the low bits are free to carry the block size.
    const unsigned long long key = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(m_sb_records)) |
                                   block_lg2;
    const unsigned peers = __match_any_sync(active, key);
    const int leader = __ffs(peers) - 1;
    unsigned lanes_below;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lanes_below));
    const unsigned rank = __popc(peers & lanes_below);
    std::uint32_t reserved = 0;
    if (rank == 0) {
      sb = Impl::atomic_load_relaxed(hint);
      reserved = superblock(sb).try_reserve_up_to(code, block_count(block_lg2), __popc(peers));
    }
    sb = __shfl_sync(peers, sb, leader);
    reserved = __shfl_sync(peers, reserved, leader);
    if (rank >= reserved) return false;
    // The leader's compare-exchange acquired the previous owners' releases; a shuffle does not
    // carry that ordering to the other lanes, their own acquire does.
    if (rank != 0) superblock(sb).acquire();
    return true;
#endif
  }
#endif

  // Claims a block in superblock `sb`, where one block of 2^block_lg2 bytes is reserved.
  KOKKOS_FORCEINLINE_FUNCTION void* claim(std::uint32_t sb, std::uint32_t block_lg2) const noexcept {
    const std::uint32_t index = superblock(sb).claim(m_sb_lg2 - block_lg2, Impl::memory_pool_bit_cursor(block_lg2));
    Impl::memory_pool_set_bit_cursor(block_lg2, index >> Impl::SuperblockState::bits_per_word_lg2);
    return m_data + (std::size_t(sb) << m_sb_lg2) + (std::size_t(index) << block_lg2);
  }

  // Whether superblock `sb` is where another lane now allocates blocks of size `code` (its hint).
  KOKKOS_INLINE_FUNCTION bool hinted_by_another_lane(std::uint32_t sb, std::uint32_t code,
                                                     std::uint32_t lane) const noexcept {
    for (std::uint32_t other = 0; other <= m_lane_mask; ++other) {
      if (other != lane && Impl::atomic_load_relaxed(m_hints + other * m_hint_stride + (code - 1)) == sb) return true;
    }
    return false;
  }

  // Figure 2.5 once the hinted superblock failed, with one change on the host: a superblock of
  // blocks 2^N with room that another lane's hint names comes after the empty ones.  Otherwise,
  // when two threads fill the pool, the first one whose superblock fills finds the other's (the
  // only 2^N superblock with room) and both allocate from one state word from then on (a cache
  // line bouncing on every allocation: filling 1M blocks from two threads ran at a fifth of
  // malloc's rate).  Not on a GPU: there the warps outnumber the lanes many times over (a lane
  // is the warp index modulo the lanes), so a lane's superblock is shared anyway and another
  // lane's hint says nothing more than its own, while the check reads every lane's hint, each on
  // its own cache line, for every superblock with room the search passes.  Nothing is left out
  // of the search, so an allocation still fails only when no superblock can serve it.
  KOKKOS_IMPL_MEMORY_POOL_NOINLINE KOKKOS_FUNCTION void* allocate_by_search(std::uint32_t code, std::uint32_t lane,
                                                                          std::uint32_t* hint,
                                                                          std::int32_t attempt_limit) const noexcept {
    using State = Impl::SuperblockState;
    const std::uint32_t block_lg2 = m_min_block_lg2 + code - 1;
    const std::uint32_t start = superblock_start(code - 1, lane);
    while (true) {
      std::uint32_t preferred = no_superblock, empty = no_superblock, larger = no_superblock;
      std::uint32_t shared = no_superblock;
      std::uint32_t empty_state = 0, larger_code = State::max_code + 1;
      bool preferred_has_more = false, shared_has_more = false;
      for (std::uint32_t i = 0, sb = start; i < m_sb_count; ++i) {
        const std::uint32_t state = superblock(sb).load();
        const std::uint32_t sb_code = State::code(state);
        const std::uint32_t used = State::used(state);
        if (sb_code == code) {
          if (used < block_count(block_lg2)) {
            bool another_lanes = false;
            KOKKOS_IF_ON_HOST((another_lanes = hinted_by_another_lane(sb, code, lane);))
            if (!another_lanes) {
              preferred = sb;
              preferred_has_more = used + 1 < block_count(block_lg2);
              break;
            }
            if (shared == no_superblock) {
              shared = sb;
              shared_has_more = used + 1 < block_count(block_lg2);
            }
          }
        } else if (used == 0) {
          if (empty == no_superblock) {
            empty = sb;
            empty_state = state;
          }
        } else if (sb_code > code && sb_code < larger_code && used < block_count(m_min_block_lg2 + sb_code - 1)) {
          larger = sb;
          larger_code = sb_code;
        }
        if (++sb == m_sb_count) sb = 0;
      }

      // No superblock of this size has room and none is empty: blocks in magazines may be what
      // keeps superblocks from being empty, or of this size from having room.  Release them and
      // search again before settling for larger blocks or giving up; again while a flush finds
      // any (other threads may have taken the released ones and freed others meanwhile).
      if constexpr (has_magazines) {
        if (preferred == no_superblock && empty == no_superblock && shared == no_superblock) {
          bool released = false;
          KOKKOS_IF_ON_HOST((released = release_magazines();))
          if (released) continue;
        }
      }
      if (preferred == no_superblock && empty == no_superblock && shared != no_superblock) {
        preferred = shared;  // only other lanes' superblocks have room: share one
        preferred_has_more = shared_has_more;
      }
      if (preferred != no_superblock) {
        if (preferred_has_more && Impl::atomic_load_relaxed(hint) != preferred) {
          Impl::atomic_store_relaxed(hint, preferred);
        }
        if (superblock(preferred).try_reserve(code, block_count(block_lg2))) return claim(preferred, block_lg2);
      } else if (empty != no_superblock) {
        if (superblock(empty).try_assign_and_reserve(empty_state, code)) {
          Impl::atomic_store_relaxed(hint, empty);
          return claim(empty, block_lg2);
        }
      } else if (larger != no_superblock) {
        const std::uint32_t larger_lg2 = m_min_block_lg2 + larger_code - 1;
        if (superblock(larger).try_reserve(larger_code, block_count(larger_lg2))) return claim(larger, larger_lg2);
      } else {
        // Nothing usable was seen; blocks may have been freed meanwhile, so try again while
        // attempts remain, starting from the hint as the first attempt did.
        if (--attempt_limit < 1) return nullptr;
        const std::uint32_t sb = Impl::atomic_load_relaxed(hint);
        if (superblock(sb).try_reserve(code, block_count(block_lg2))) return claim(sb, block_lg2);
      }
      // A superblock seen usable was taken by a concurrent allocation: search again.
    }
  }

  KOKKOS_INLINE_FUNCTION void copy_fields(const MemoryPool& other) noexcept {
    m_allocation = other.m_allocation;
    m_hints = other.m_hints;
    m_sb_records = other.m_sb_records;
    m_data = other.m_data;
    m_sb_count = other.m_sb_count;
    m_sb_lg2 = other.m_sb_lg2;
    m_min_block_lg2 = other.m_min_block_lg2;
    m_max_block_lg2 = other.m_max_block_lg2;
    m_max_block_size = other.m_max_block_size;
    m_size_count = other.m_size_count;
    m_sb_record_bytes = other.m_sb_record_bytes;
    m_hint_stride = other.m_hint_stride;
    m_magazines = other.m_magazines;
    m_lane_mask = other.m_lane_mask;
  }
  KOKKOS_INLINE_FUNCTION void clear() noexcept {
    m_allocation = nullptr;
    m_hints = nullptr;
    m_sb_records = m_data = nullptr;
    m_sb_count = m_sb_lg2 = m_min_block_lg2 = m_max_block_lg2 = m_size_count = 0;
    m_max_block_size = 0;
    m_sb_record_bytes = m_hint_stride = m_lane_mask = 0;
    m_magazines = Impl::MemoryPoolMagazines();
  }
  KOKKOS_INLINE_FUNCTION void copy_from(const MemoryPool& other) noexcept {
    copy_fields(other);
    KOKKOS_IF_ON_HOST((if (m_allocation) m_allocation->references.fetch_add(1, std::memory_order_relaxed);))
  }
  KOKKOS_INLINE_FUNCTION void release() noexcept {
    KOKKOS_IF_ON_HOST((if (m_allocation && m_allocation->references.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      m_allocation->space.deallocate(Impl::memory_pool_label, m_allocation->base, m_allocation->bytes);
      delete m_allocation;
    }))
    clear();
  }

  Impl::MemoryPoolAllocation<memory_space>* m_allocation = nullptr;
  std::uint32_t* m_hints = nullptr;  // [lane][block size]: superblock index
  Impl::MemoryPoolMagazines m_magazines;  // HostSpace: the threads' magazines (none elsewhere)
  char* m_sb_records = nullptr;      // per superblock: state word line, then bit array
  char* m_data = nullptr;            // superblock 0
  std::size_t m_max_block_size = 0;  // 0 for an empty pool
  std::uint32_t m_sb_count = 0;
  std::uint32_t m_sb_lg2 = 0;
  std::uint32_t m_min_block_lg2 = 0;
  std::uint32_t m_max_block_lg2 = 0;
  std::uint32_t m_size_count = 0;       // block sizes: m_max_block_lg2 - m_min_block_lg2 + 1
  std::uint32_t m_sb_record_bytes = 0;  // stride of m_sb_records
  std::uint32_t m_hint_stride = 0;      // stride of m_hints, in uint32
  std::uint32_t m_lane_mask = 0;        // lanes - 1 (a power of two)
};

}  // namespace Kokkos

#undef KOKKOS_IMPL_MEMORY_POOL_COLD
#undef KOKKOS_IMPL_MEMORY_POOL_NOINLINE

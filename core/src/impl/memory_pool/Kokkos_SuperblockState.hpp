#pragma once
// The lock-free state of one memory-pool superblock (seed 001 §2.5.2).
//
//   state word (32 bits):  [ block-size code : 6 | used blocks : 26 ]
//     code 0     the superblock has never been assigned a block size;
//     code c > 0 it holds blocks of (min block size << (c - 1)) bytes;
//     used       blocks reserved by allocations.  The superblock is empty iff used == 0, and only
//                an empty superblock changes its code, so one compare-exchange both checks
//                emptiness and reassigns.
//   bit array:   one bit per block, sized for the smallest block size (the most blocks a
//                superblock can hold); bits past the current block count stay zero.
//
// Allocation first *reserves* a block (used + 1 by compare-exchange, which also checks the code
// and the capacity), then *claims* a bit with fetch_or; deallocation clears the bit with
// fetch_and, then decrements used.  Hence at every instant  set bits <= used <= capacity, so a
// reservation is always backed by a free bit and the claim loop ends; and "used" is exact at
// every instant (no optimistic increment that must be undone), so a search that reads it never
// sees a superblock as fuller than it is.
//
// Memory order: a free releases (fetch_and, fetch_sub); a claim acquires the same bit word and a
// reservation acquires the state word, so whoever gets a block next sees every write the
// previous owner made to it, also after the superblock changed its block size in between.
//
// Everything here is device-safe: no exceptions, no containers, atomics from Kokkos_Atomic.hpp.
#include <Kokkos_Atomic.hpp>
#include <Kokkos_Macros.hpp>

#include <cstdint>

namespace Kokkos::Impl {

class SuperblockState {
 public:
  static constexpr std::uint32_t code_shift = 26;
  static constexpr std::uint32_t used_mask = (std::uint32_t(1) << code_shift) - 1;
  static constexpr std::uint32_t max_code = std::uint32_t(63);
  // used must be able to hold the block count itself, hence one bit of headroom.
  static constexpr std::uint32_t max_block_count_lg2 = code_shift - 1;
  static constexpr std::uint32_t bits_per_word_lg2 = 6;

  KOKKOS_FORCEINLINE_FUNCTION static constexpr std::uint32_t code(std::uint32_t state) noexcept {
    return state >> code_shift;
  }
  KOKKOS_FORCEINLINE_FUNCTION static constexpr std::uint32_t used(std::uint32_t state) noexcept {
    return state & used_mask;
  }
  KOKKOS_FORCEINLINE_FUNCTION static constexpr std::uint32_t make(std::uint32_t code, std::uint32_t used) noexcept {
    return (code << code_shift) | used;
  }

  // 64-bit words in the bit array of a superblock of 2^max_count_lg2 blocks at most.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr std::uint64_t words_for(std::uint32_t max_count_lg2) noexcept {
    return max_count_lg2 > bits_per_word_lg2 ? std::uint64_t(1) << (max_count_lg2 - bits_per_word_lg2) : 1;
  }

  KOKKOS_FORCEINLINE_FUNCTION SuperblockState(std::uint32_t* word, std::uint64_t* bits) noexcept
      : m_word(word), m_bits(bits) {}

  KOKKOS_FORCEINLINE_FUNCTION std::uint32_t load() const noexcept { return atomic_load_relaxed(m_word); }

  // Reserves one block if the superblock holds blocks of `code` and fewer than `capacity` are used.
  KOKKOS_FORCEINLINE_FUNCTION bool try_reserve(std::uint32_t code, std::uint32_t capacity) const noexcept {
    return try_reserve_up_to(code, capacity, 1) != 0;
  }

  // Reserves as many of `wanted` blocks as are free (at least one) with one compare-exchange, if
  // the superblock holds blocks of `code`; returns how many, 0 when none.  A GPU warp whose
  // lanes allocate at once reserves for all of them this way (one atomic on the state word
  // instead of one per lane); each lane then claims its own bit.
  KOKKOS_FORCEINLINE_FUNCTION std::uint32_t try_reserve_up_to(std::uint32_t code, std::uint32_t capacity,
                                                              std::uint32_t wanted) const noexcept {
    std::uint32_t state = load();
    while (SuperblockState::code(state) == code && used(state) < capacity) {
      const std::uint32_t room = capacity - used(state);
      const std::uint32_t taken = wanted < room ? wanted : room;
      if (atomic_compare_exchange_weak_acq_rel(m_word, state, state + taken)) return taken;
    }
    return 0;
  }

  // Makes the writes of whoever released blocks of this superblock visible to a lane whose
  // reservation another lane of its warp made (see try_reserve_up_to).
  KOKKOS_FORCEINLINE_FUNCTION void acquire() const noexcept { (void)atomic_load_acquire(m_word); }

  // Reassigns the superblock, observed empty as `empty_state`, to `code` and reserves one of its
  // blocks in the same step.  Fails if anything changed since `empty_state` was read.
  KOKKOS_INLINE_FUNCTION bool try_assign_and_reserve(std::uint32_t empty_state, std::uint32_t code) const noexcept {
    if (used(empty_state) != 0) return false;
    std::uint32_t expected = empty_state;
    while (!atomic_compare_exchange_weak_acq_rel(m_word, expected, make(code, 1))) {
      if (expected != empty_state) return false;  // a real change, not a spurious failure
    }
    return true;
  }

  // Claims a free bit of a reserved block, scanning from word `start_word`; returns its index.
  KOKKOS_FORCEINLINE_FUNCTION std::uint32_t claim(std::uint32_t count_lg2, std::uint32_t start_word) const noexcept {
    const std::uint32_t word_mask = std::uint32_t(words_for(count_lg2) - 1);
    const std::uint64_t valid =
        count_lg2 >= bits_per_word_lg2 ? ~std::uint64_t(0) : (std::uint64_t(1) << (1u << count_lg2)) - 1;
    std::uint32_t w = start_word & word_mask;
    while (true) {
      for (std::uint64_t free = ~atomic_load_relaxed(m_bits + w) & valid; free != 0;
           free = ~atomic_load_relaxed(m_bits + w) & valid) {
        const std::uint32_t b = lowest_set_bit(free);
        const std::uint64_t mask = std::uint64_t(1) << b;
        // Only the claimed bit of the result is used, so x86 compiles this to `lock bts`.
        if ((atomic_fetch_or_acq_rel(m_bits + w, mask) & mask) == 0) return (w << bits_per_word_lg2) | b;
      }
      w = (w + 1) & word_mask;
    }
  }

  // Claims `count` free bits of blocks reserved together (try_reserve_up_to), scanning from word
  // `start_word`, several per fetch_or; writes their indices to `out`.
  KOKKOS_INLINE_FUNCTION void claim_many(std::uint32_t count_lg2, std::uint32_t start_word, std::uint32_t count,
                                         std::uint32_t* out) const noexcept {
    const std::uint32_t word_mask = std::uint32_t(words_for(count_lg2) - 1);
    const std::uint64_t valid =
        count_lg2 >= bits_per_word_lg2 ? ~std::uint64_t(0) : (std::uint64_t(1) << (1u << count_lg2)) - 1;
    std::uint32_t w = start_word & word_mask;
    while (count != 0) {
      for (std::uint64_t free = ~atomic_load_relaxed(m_bits + w) & valid; free != 0 && count != 0;
           free = ~atomic_load_relaxed(m_bits + w) & valid) {
        std::uint64_t wanted = 0;
        for (std::uint32_t n = count; n != 0 && free != 0; --n) {
          wanted |= free & (~free + 1);
          free &= free - 1;
        }
        for (std::uint64_t got = wanted & ~atomic_fetch_or_acq_rel(m_bits + w, wanted); got != 0; got &= got - 1) {
          *out++ = (w << bits_per_word_lg2) | lowest_set_bit(got);
          --count;
        }
      }
      w = (w + 1) & word_mask;
    }
  }

  // Whether block `index` is allocated (its bit set; a snapshot).
  KOKKOS_FORCEINLINE_FUNCTION bool holds(std::uint32_t index) const noexcept {
    const std::uint64_t mask = std::uint64_t(1) << (index & ((1u << bits_per_word_lg2) - 1));
    return (atomic_load_relaxed(m_bits + (index >> bits_per_word_lg2)) & mask) != 0;
  }

  // Clears the bit of block `index`; false (and nothing changed) if it was not set.
  KOKKOS_FORCEINLINE_FUNCTION bool release(std::uint32_t index) const noexcept {
    const std::uint64_t mask = std::uint64_t(1) << (index & ((1u << bits_per_word_lg2) - 1));
    const std::uint64_t before = atomic_fetch_and_acq_rel(m_bits + (index >> bits_per_word_lg2), ~mask);
    if ((before & mask) == 0) return false;
    atomic_fetch_sub_acq_rel(m_word, std::uint32_t(1));
    return true;
  }

  // Clears the bits `mask` of bit word `word`, then takes them off the used count; returns the
  // bits of `mask` that were not set (and so were not released).
  KOKKOS_INLINE_FUNCTION std::uint64_t release_many(std::uint32_t word, std::uint64_t mask) const noexcept {
    const std::uint64_t before = atomic_fetch_and_acq_rel(m_bits + word, ~mask);
    const std::uint64_t released = before & mask;
    if (released != 0) atomic_fetch_sub_acq_rel(m_word, std::uint32_t(popcount(released)));
    return mask & ~released;
  }

  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t popcount(std::uint64_t x) noexcept {
#if defined(__CUDA_ARCH__)
    return std::uint32_t(__popcll(x));
#else
    return std::uint32_t(__builtin_popcountll(x));
#endif
  }

  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t lowest_set_bit(std::uint64_t x) noexcept {
#if defined(__CUDA_ARCH__)
    return std::uint32_t(__ffsll(static_cast<long long>(x)) - 1);
#else
    return std::uint32_t(__builtin_ctzll(x));
#endif
  }

 private:
  std::uint32_t* m_word;
  std::uint64_t* m_bits;
};

}  // namespace Kokkos::Impl

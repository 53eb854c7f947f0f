#pragma once
// Magazines: each host thread's stacks of freed blocks of a memory pool, one per block size.
//
// A block a thread frees goes on top of its stack for that size, still reserved and allocated in
// its superblock; the thread's next allocations of that size pop it.  The owner of a lane (see
// Kokkos_MemoryPoolLanes.hpp) uses its stacks with plain loads and stores: where a release to the
// superblock is two locked read-modify-writes on lines shared with every thread that allocates
// from it, a push is three stores (the block, `bottom`, the lane's `holding` flag) and a pop that
// finds a block one store and a few loads, on lines no other running thread writes.
//
// A stack is [bottom, top, block 0 .. block capacity - 1]: it holds blocks top .. bottom - 1.
// Only the owner moves `bottom`, and pushes and pops without the gate.  A push writes the block
// above `bottom`, then `bottom` (release).  A pop lowers `bottom` first, then checks for a flush
// (Lane::pop).  A flush takes top .. bottom - 1 as it reads them and moves `top` up to that
// `bottom`; a push it did not see stays above, for the next one.  Everything else (refilling an
// empty stack, a full stack, a search for a block freed twice) runs inside the gate, where the
// owner alone touches the stack.
//
// Blocks in magazines are free for everything else, so any thread must be able to take them
// (a search that finds no room, the statistics): flush() closes every lane's gate, waits until
// no owner is inside, locks every stack against pops, hands every stack's blocks to the caller,
// unlocks the stacks and opens the gates again.  The gate is Dekker's pattern with an asymmetric
// fence (impl/Kokkos_AsymmetricFence.hpp): the owner stores `inside`, then loads `closed`, with
// only a compiler barrier between them; a flush stores `closed`, makes every running thread
// execute a full fence, then loads `inside`.  A pop runs the same pattern on the stack's own
// words, `bottom` against the lock in `top` (Lane::pop), so that it touches no other line.  An
// owner that finds its gate closed or its stack locked goes the slow way (the superblocks), so a
// flush never waits for more than the few instructions an owner runs inside.
//
// Layout of the region (host memory, zeroed when the pool is built):
//   one line         the flush lock (one flush at a time);
//   per lane (64)    a line for the gate {inside, closed, holding}, then per block size a stack
//                    [bottom, top, block 0 .. block capacity - 1] of pointer-sized words.
#include <Kokkos_Atomic.hpp>
#include <Kokkos_Macros.hpp>
#include <impl/Kokkos_AsymmetricFence.hpp>
#include <impl/memory_pool/Kokkos_MemoryPoolLanes.hpp>

#include <cstddef>
#include <cstdint>
#include <thread>

namespace Kokkos::Impl {

class MemoryPoolMagazines {
 public:
  static constexpr std::size_t line = KOKKOS_IMPL_CACHE_LINE;
  static constexpr std::uint32_t max_capacity = 64;

  // Bytes of the region for `sizes` block sizes and stacks of `capacity` blocks (0: none).
  static constexpr std::size_t bytes_for(std::uint32_t sizes, std::uint32_t capacity) noexcept {
    return capacity == 0 ? 0 : line + std::size_t(memory_pool_max_lanes) * lane_bytes(sizes, capacity);
  }

  MemoryPoolMagazines() = default;
  MemoryPoolMagazines(char* region, std::uint32_t sizes, std::uint32_t capacity) noexcept
      : m_region(region),
        m_lanes(region + line),
        m_lane_bytes(lane_bytes(sizes, capacity)),
        m_stack_bytes(stack_bytes(capacity)),
        m_mark((reinterpret_cast<std::uintptr_t>(region) ^ std::uintptr_t(0x9e3779b97f4a7c15ull)) | end_bytes_set),
        m_sizes(sizes),
        m_capacity(capacity),
        m_push_limit(capacity > 1 ? capacity : 0) {}

  KOKKOS_FUNCTION std::uint32_t capacity() const noexcept { return m_capacity; }

  // A word that no block holds first unless it sits in one of these magazines, or by chance: the
  // pool writes it into a block it pushes (blocks at least a pointer large), so that a block freed
  // again is looked for in the magazine, and any other block only costs that search.  Its lowest
  // and highest bytes are not 0, so that zeroing a block's first byte (either of them, by the
  // host's byte order), which fits blocks of any size, clears it.
  std::uintptr_t mark() const noexcept { return m_mark; }
  // The bottom below which the owner pushes without its gate: capacity() where blocks carry the
  // mark (magazines of more than one block), else 0 (a magazine of one is checked by comparison).
  std::uintptr_t push_limit() const noexcept { return m_push_limit; }

  static constexpr std::size_t bottom_word = 0;
  static constexpr std::size_t top_word = 1;
  static constexpr std::size_t blocks_word = 2;
  // Set in `top` while a flush takes a stack's blocks; no bottom reaches it.
  static constexpr std::uintptr_t locked = std::uintptr_t(1) << (8 * sizeof(std::uintptr_t) - 1);

  // One lane's gate and stacks, their address computed once per operation: after the gate's
  // compiler barrier, the compiler would reread every member it needs for an address.
  class Lane {
   public:
    // The stack of blocks of size index `size` (0 for the smallest): words [bottom_word] and
    // [top_word], then the blocks; it holds blocks[top .. bottom - 1], the latest freed at
    // bottom - 1.  The owner pushes (push()) and pops (pop()) at any time; it changes anything
    // else only inside its gate, and a flush only with the gate closed.
    std::uintptr_t* stack(std::uint32_t size) const noexcept {
      return reinterpret_cast<std::uintptr_t*>(m_base + line + std::size_t(size) * m_stack_bytes);
    }

    // The owner, with or without its gate, on a stack whose bottom is below capacity(): puts
    // `block` at the bottom, where a flush that reads the new bottom finds it, and marks the lane
    // holding.
    void push(std::uintptr_t* stack, std::uintptr_t bottom, void* block) const noexcept {
      stack[blocks_word + bottom] = reinterpret_cast<std::uintptr_t>(block);
      atomic_store_release(stack + bottom_word, bottom + 1);
      // Release: after the bottom, so that a flush that clears this flag and misses the push finds
      // the flag set again (flush() clears it with an exchange).
      mark_holding();
    }

    // The owner, without its gate, on a stack whose bottom it read as `bottom` > 0: takes the
    // block at bottom - 1 and returns it, or returns nullptr (the stack unchanged) when the stack
    // is empty or a flush locks it.  `bottom` is the owner's Dekker flag and `top` the flush's:
    // the owner lowers `bottom`, then loads `top`; a flush sets `locked` in `top`, then (after
    // the heavy fence) loads `bottom`.  So either the owner sees the lock and puts `bottom` back,
    // or the flush sees the lowered bottom and leaves that block alone.
    void* pop(std::uintptr_t* stack, std::uintptr_t bottom) const noexcept {
      // Release: a flush that reads the new bottom must see the blocks pushed below it.
      atomic_store_release(stack + bottom_word, bottom - 1);
      asymmetric_fence_light();
      // Acquire: the `top` a finished flush left.  A locked top is never below a bottom.
      if (KOKKOS_IMPL_LIKELY(atomic_load_acquire(stack + top_word) < bottom)) {
        return reinterpret_cast<void*>(stack[blocks_word + bottom - 1]);
      }
      atomic_store_release(stack + bottom_word, bottom);
      // After the bottom, as in push(): a flush that read the lowered bottom left this block.
      mark_holding();
      return nullptr;
    }

    // The owner: true when it may use the lane's stacks until leave(); false while a flush runs
    // (then it must not touch them, and must not call leave).
    bool enter() const noexcept {
      atomic_store_relaxed(gate() + inside_word, std::uint32_t(1));
      asymmetric_fence_light();
      // Acquire: a flush's changes to the stacks, made before it opened the gate.
      if (KOKKOS_IMPL_LIKELY(atomic_load_acquire(gate() + closed_word) == 0)) return true;
      atomic_store_release(gate() + inside_word, std::uint32_t(0));
      return false;
    }
    // Release: the owner's changes to the stacks, for the next flush that sees it outside.
    void leave() const noexcept { atomic_store_release(gate() + inside_word, std::uint32_t(0)); }

    // The owner, after putting blocks on a stack: the lane may hold blocks.
    void mark_holding() const noexcept { atomic_store_release(gate() + holding_word, std::uint32_t(1)); }

   private:
    friend class MemoryPoolMagazines;
    Lane(char* base, std::size_t stack_bytes) noexcept : m_base(base), m_stack_bytes(stack_bytes) {}
    std::uint32_t* gate() const noexcept { return reinterpret_cast<std::uint32_t*>(m_base); }
    char* m_base;               // the gate's line, then the stacks
    std::size_t m_stack_bytes;  // stride of the stacks
  };

  Lane lane(std::uint32_t lane) const noexcept {
    return Lane(m_lanes + std::size_t(lane) * m_lane_bytes, m_stack_bytes);
  }

  // Empties the stacks of every lane that pushed since its last flush: release(blocks, count)
  // for each stack that holds blocks, with those lanes' gates closed.  Returns whether there was
  // any block, or whether another thread's flush ran meanwhile (the caller looks again): threads
  // that run out of room together pay for one flush, not one each.  A pool with no such lane
  // returns at once, without the heavy fence.
  template <class Release>
  bool flush(Release&& release) const {
    std::uint64_t lanes = 0;
    for (std::uint32_t index = 0; index < memory_pool_max_lanes; ++index) {
      if (atomic_load_relaxed(lane(index).gate() + holding_word) != 0) lanes |= std::uint64_t(1) << index;
    }
    if (lanes == 0) return false;
    std::uint32_t* const lock = reinterpret_cast<std::uint32_t*>(m_region);
    if (atomic_exchange_order<atomic_order::acquire>(lock, std::uint32_t(1)) != 0) {
      while (atomic_load_acquire(lock) != 0) std::this_thread::yield();
      return true;
    }
    for (std::uint64_t l = lanes; l != 0; l &= l - 1) {
      atomic_store_relaxed(lane(std::uint32_t(__builtin_ctzll(l))).gate() + closed_word, std::uint32_t(1));
    }
    asymmetric_fence_heavy();
    // The owners are outside their gates now and stay out: only pops and pushes run, and neither
    // writes `top`.  Lock the stacks against pops (Lane::pop), then look at the bottoms.
    for (std::uint64_t l = lanes; l != 0; l &= l - 1) {
      const Lane owner = lane(std::uint32_t(__builtin_ctzll(l)));
      // Acquire: what the owner did to its stacks before it left the gate.
      while (atomic_load_acquire(owner.gate() + inside_word) != 0) std::this_thread::yield();
      for (std::uint32_t size = 0; size < m_sizes; ++size) {
        std::uintptr_t* const s = owner.stack(size);
        atomic_store_relaxed(s + top_word, atomic_load_relaxed(s + top_word) | locked);
      }
    }
    asymmetric_fence_heavy();
    bool any = false;
    for (std::uint64_t l = lanes; l != 0; l &= l - 1) {
      const Lane owner = lane(std::uint32_t(__builtin_ctzll(l)));
      // An exchange, so that it reads the flag a push set after its bottom, and then sees that.
      atomic_exchange_order<atomic_order::acq_rel>(owner.gate() + holding_word, std::uint32_t(0));
      for (std::uint32_t size = 0; size < m_sizes; ++size) {
        std::uintptr_t* const s = owner.stack(size);
        // Acquire: the blocks pushed below this bottom.
        const std::uintptr_t bottom = atomic_load_acquire(s + bottom_word);
        const std::uintptr_t top = atomic_load_relaxed(s + top_word) & ~locked;
        // A pop that lowered the bottom of an empty stack puts it back: nothing to take.
        if (bottom <= top) {
          atomic_store_release(s + top_word, top);
          continue;
        }
        any = true;
        // Release: the owner reads `top` before it reuses these words (pop(), make_room()).
        // Before the blocks go back: a thread that then allocates one of them sees it gone from
        // the stack.
        atomic_store_release(s + top_word, bottom);
        release(reinterpret_cast<void* const*>(s + blocks_word + top), std::uint32_t(bottom - top));
      }
    }
    for (std::uint64_t l = lanes; l != 0; l &= l - 1) {
      atomic_store_release(lane(std::uint32_t(__builtin_ctzll(l))).gate() + closed_word, std::uint32_t(0));
    }
    atomic_store_release(lock, std::uint32_t(0));
    return any;
  }

 private:
  static constexpr std::size_t inside_word = 0;
  static constexpr std::size_t closed_word = 1;
  static constexpr std::size_t holding_word = 2;
  static constexpr std::uintptr_t end_bytes_set =
      std::uintptr_t(1) | (std::uintptr_t(1) << (8 * sizeof(std::uintptr_t) - 1));

  static constexpr std::size_t stack_bytes(std::uint32_t capacity) noexcept {
    return (capacity + blocks_word) * sizeof(std::uintptr_t);
  }
  static constexpr std::size_t lane_bytes(std::uint32_t sizes, std::uint32_t capacity) noexcept {
    const std::size_t stacks = std::size_t(sizes) * stack_bytes(capacity);
    return line + (stacks + line - 1) / line * line;
  }

  char* m_region = nullptr;
  char* m_lanes = nullptr;  // lane 0's gate
  std::size_t m_lane_bytes = 0;
  std::size_t m_stack_bytes = 0;
  std::uintptr_t m_mark = 0;
  std::uint32_t m_sizes = 0;
  std::uint32_t m_capacity = 0;
  std::uintptr_t m_push_limit = 0;
};

}  // namespace Kokkos::Impl

#pragma once
// A bounded ring of ready tasks shared by many producers and many consumers, each taking or
// giving several entries with one reservation (a GPU warp takes up to 32 tasks, one per lane).
// The GPU scheduler keeps one per (priority, shard) (Kokkos_DeviceTaskQueue.hpp).
//
// The algorithm is the broker queue's (Kerbl et al., "The Broker Queue", ICS 2018): `count`
// says how many entries are pushed and not yet claimed; a producer first reserves room in it
// and a consumer first claims entries from it, and only then do they draw tickets from `tail`
// and `head`.  A ticket names a slot (ticket mod capacity): a producer waits for its slot to be
// empty and fills it, a consumer waits for its slot to be full and empties it.  The waits are
// short and always end: a claimed entry has a producer already past its reservation, and a
// reserved slot is at worst still held by a consumer already past its claim.  No lock, no ABA
// (a slot holds a pointer or null; which round's consumer empties it does not matter, since the
// ring is a pool of ready tasks, not a FIFO).
//
// Written against Kokkos atomics only, so that host threads run and test the very code a CUDA
// kernel runs (TestDeviceReadyRing).  The slots live wherever the owner allocates them.
#include <Kokkos_Abort.hpp>
#include <Kokkos_Atomic.hpp>
#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstdint>
#include <thread>

namespace Kokkos::Impl {

template <class Entry>
struct DeviceReadyRing {
  // The line of a GPU's L2 (twice the host's): the three counters are written by different
  // workers, and one's atomics must not queue behind another's.
  static constexpr std::size_t line_bytes = 128;

  alignas(line_bytes) std::int32_t count = 0;  // entries pushed and not yet claimed
  alignas(line_bytes) std::uint32_t head = 0;  // the next ticket to empty
  alignas(line_bytes) std::uint32_t tail = 0;  // the next ticket to fill
  alignas(line_bytes) Entry** slots = nullptr;  // capacity() entries, null when empty
  std::uint32_t mask = 0;                       // capacity() - 1 (capacity: a power of two)

  DeviceReadyRing() = default;
  // `storage`: capacity null-initialised entries, capacity a power of two (tickets map to slots
  // by a mask; any other capacity would make two tickets of one round share a slot).
  KOKKOS_INLINE_FUNCTION DeviceReadyRing(Entry** storage, std::uint32_t capacity)
      : slots(storage), mask(capacity - 1) {
    if (capacity == 0 || (capacity & (capacity - 1)) != 0 || capacity > (std::uint32_t(1) << 30))
      Kokkos::abort("Kokkos::Impl::DeviceReadyRing: the capacity must be a power of two between 1 and 2^30");
  }

  KOKKOS_INLINE_FUNCTION std::int32_t capacity() const { return static_cast<std::int32_t>(mask + 1); }
  // Entries pushed and not yet claimed (a snapshot: others may change it at once).
  KOKKOS_INLINE_FUNCTION std::int32_t size() const { return atomic_load_relaxed(const_cast<std::int32_t*>(&count)); }

  // ---- producer: reserve_push, then put() each of its n tickets -----------------------------------
  // Room for n entries: true and the first of n consecutive tickets, or false (nothing changed)
  // when the ring has no room for all n.
  KOKKOS_INLINE_FUNCTION bool reserve_push(std::int32_t n, std::uint32_t& first) {
    std::int32_t c = atomic_load_relaxed(&count);
    while (true) {
      if (c + n > capacity()) return false;
      if (atomic_compare_exchange_weak_acq_rel(&count, c, c + n)) break;
    }
    first = atomic_fetch_add_relaxed(&tail, static_cast<std::uint32_t>(n));
    return true;
  }
  // Fills the slot of `ticket` (from reserve_push) with `e`; the entry's contents are published
  // with it (release).
  KOKKOS_INLINE_FUNCTION void put(std::uint32_t ticket, Entry* e) {
    Entry** slot = &slots[ticket & mask];
    unsigned pause = 0;
    while (true) {
      Entry* expected = nullptr;
      if (atomic_load_relaxed(slot) == nullptr && atomic_compare_exchange_weak_acq_rel(slot, expected, e)) return;
      wait_a_little(pause);  // a consumer of an earlier round has claimed this slot's entry
    }
  }

  // ---- consumer: reserve_pop, then take() each of its tickets -------------------------------------
  // Claims up to `want` entries: how many (0 when the ring is empty) and the first ticket.
  KOKKOS_INLINE_FUNCTION std::int32_t reserve_pop(std::int32_t want, std::uint32_t& first) {
    std::int32_t c = atomic_load_relaxed(&count);
    std::int32_t k = 0;
    while (true) {
      if (c <= 0) return 0;
      k = c < want ? c : want;
      if (atomic_compare_exchange_weak_acq_rel(&count, c, c - k)) break;
    }
    first = atomic_fetch_add_relaxed(&head, static_cast<std::uint32_t>(k));
    return k;
  }
  // Empties the slot of `ticket` (from reserve_pop) and returns its entry (acquire).
  KOKKOS_INLINE_FUNCTION Entry* take(std::uint32_t ticket) {
    Entry** slot = &slots[ticket & mask];
    unsigned pause = 0;
    while (true) {
      if (atomic_load_relaxed(slot) != nullptr) {
        Entry* e = atomic_exchange_seq_cst(slot, static_cast<Entry*>(nullptr));
        if (e != nullptr) return e;
      }
      wait_a_little(pause);  // the producer of this ticket is between its reservation and its put
    }
  }

  // One producer's whole push (n entries) or one consumer's whole pop, for callers with no lanes.
  KOKKOS_INLINE_FUNCTION bool push(Entry* const* entries, std::int32_t n) {
    std::uint32_t first = 0;
    if (!reserve_push(n, first)) return false;
    for (std::int32_t i = 0; i < n; ++i) put(first + static_cast<std::uint32_t>(i), entries[i]);
    return true;
  }
  KOKKOS_INLINE_FUNCTION std::int32_t pop(Entry** out, std::int32_t want) {
    std::uint32_t first = 0;
    const std::int32_t k = reserve_pop(want, first);
    for (std::int32_t i = 0; i < k; ++i) out[i] = take(first + static_cast<std::uint32_t>(i));
    return k;
  }

  // The pause between two looks at a slot another worker is about to change: it grows from a
  // few tens of nanoseconds on a GPU; on the host the other worker may be a thread without a core.
  KOKKOS_INLINE_FUNCTION static void wait_a_little(unsigned& pause_ns) {
    pause_ns = pause_ns == 0 ? 32 : (pause_ns < 1024 ? 2 * pause_ns : pause_ns);
    KOKKOS_IF_ON_DEVICE((__nanosleep(pause_ns);))
    KOKKOS_IF_ON_HOST((std::this_thread::yield();))
  }
};

}  // namespace Kokkos::Impl

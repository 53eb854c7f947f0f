#pragma once
// Kokkos::Bitset<Device>: a fixed-size set of bits in a memory space; set/reset/test of one bit
// are atomic and callable from kernels, whole-set operations (count, set all, reset all) run on
// the host.  ConstBitset<Device> is its read-only view.  find_any_set_near / find_any_unset_near
// look for a bit within the 32-bit block holding a hint and, failing that, hand back the next
// hint to try: the allocation search of UnorderedMap.
#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdint>
#include <string>

namespace Kokkos {

template <typename Device = Kokkos::DefaultExecutionSpace>
class Bitset;
template <typename Device = Kokkos::DefaultExecutionSpace>
class ConstBitset;

template <typename DstDevice, typename SrcDevice>
void deep_copy(Bitset<DstDevice>& dst, Bitset<SrcDevice> const& src);
template <typename DstDevice, typename SrcDevice>
void deep_copy(Bitset<DstDevice>& dst, ConstBitset<SrcDevice> const& src);
template <typename DstDevice, typename SrcDevice>
void deep_copy(ConstBitset<DstDevice>& dst, ConstBitset<SrcDevice> const& src);

namespace Impl {
// The blocks of a bitset and the shape arithmetic shared by Bitset and ConstBitset.
struct BitsetBlocks {
  static constexpr unsigned block_size = static_cast<unsigned>(sizeof(unsigned) * CHAR_BIT);
  static constexpr unsigned block_mask = block_size - 1u;
  static constexpr unsigned block_shift = 5u;
  static_assert((1u << block_shift) == block_size);

  KOKKOS_INLINE_FUNCTION static constexpr unsigned block_count(unsigned bits) {
    return (bits + block_mask) >> block_shift;
  }
  // The bits of the last block that belong to the set; 0 when the last block is full.
  KOKKOS_INLINE_FUNCTION static constexpr unsigned last_block_mask(unsigned bits) {
    return (bits & block_mask) ? (1u << (bits & block_mask)) - 1u : 0u;
  }
  KOKKOS_INLINE_FUNCTION static constexpr unsigned rotate_right(unsigned x, unsigned r) {
    return r == 0u ? x : (x >> r) | (x << (block_size - r));
  }
};

// Number of set bits in blocks [0, n), on `Exec`.
template <class Exec, class BlockView>
unsigned bitset_count(const BlockView& blocks) {
  unsigned total = 0;
  const unsigned* data = blocks.data();
  Kokkos::parallel_reduce(
      "Kokkos::Bitset::count", Kokkos::RangePolicy<Exec>(0, blocks.extent(0)),
      KOKKOS_LAMBDA(const int i, unsigned& sum) { sum += static_cast<unsigned>(Kokkos::popcount(data[i])); }, total);
  return total;
}
}  // namespace Impl

template <typename Device>
class Bitset {
 public:
  using execution_space = typename Device::execution_space;
  using size_type = unsigned int;

  static constexpr unsigned BIT_SCAN_REVERSE = 1u;
  static constexpr unsigned MOVE_HINT_BACKWARD = 2u;
  static constexpr unsigned BIT_SCAN_FORWARD_MOVE_HINT_FORWARD = 0u;
  static constexpr unsigned BIT_SCAN_REVERSE_MOVE_HINT_FORWARD = BIT_SCAN_REVERSE;
  static constexpr unsigned BIT_SCAN_FORWARD_MOVE_HINT_BACKWARD = MOVE_HINT_BACKWARD;
  static constexpr unsigned BIT_SCAN_REVERSE_MOVE_HINT_BACKWARD = BIT_SCAN_REVERSE | MOVE_HINT_BACKWARD;

 private:
  using shape = Impl::BitsetBlocks;
  using block_view_type = View<unsigned*, Device, MemoryTraits<RandomAccess>>;

 public:
  // arg_size bits, all reset.
  Bitset(unsigned arg_size = 0u) : Bitset(Kokkos::view_alloc(), arg_size) {}

  template <class... P>
  Bitset(const Impl::ViewCtorProp<P...>& arg_prop, unsigned arg_size)
      : m_size(arg_size), m_last_block_mask(shape::last_block_mask(arg_size)) {
    using prop_t = Impl::ViewCtorProp<P...>;
    static_assert(!prop_t::has_pointer, "Kokkos::Bitset: view_wrap is not allowed");
    static_assert(!prop_t::has_memory_space, "Kokkos::Bitset: the memory space is the Bitset's own");
    const std::string label = prop_t::has_label ? arg_prop.get_label() : std::string("Bitset");
    if constexpr (prop_t::has_execution_space)
      m_blocks = block_view_type(view_alloc(label, arg_prop.get_execution_space()), shape::block_count(arg_size));
    else
      m_blocks = block_view_type(view_alloc(label), shape::block_count(arg_size));
  }

  KOKKOS_DEFAULTED_FUNCTION Bitset(const Bitset&) = default;
  KOKKOS_DEFAULTED_FUNCTION Bitset& operator=(const Bitset&) = default;
  KOKKOS_DEFAULTED_FUNCTION Bitset(Bitset&&) = default;
  KOKKOS_DEFAULTED_FUNCTION Bitset& operator=(Bitset&&) = default;
  KOKKOS_DEFAULTED_FUNCTION ~Bitset() = default;

  KOKKOS_FORCEINLINE_FUNCTION unsigned size() const { return m_size; }

  // Host: the number of set bits (a parallel_reduce over the blocks).
  unsigned count() const { return Impl::bitset_count<execution_space>(m_blocks); }

  // Host: every bit set / reset.
  void set() {
    Kokkos::deep_copy(m_blocks, ~0u);
    if (m_last_block_mask) {
      const unsigned last = m_blocks.extent(0) - 1;
      auto tail = Kokkos::subview(m_blocks, Kokkos::make_pair(last, last + 1));
      Kokkos::deep_copy(tail, m_last_block_mask);
    }
  }
  void reset() { Kokkos::deep_copy(m_blocks, 0u); }
  void clear() { reset(); }

  // Atomic; true when this call changed the bit (false for an index out of range).  Acquire and
  // release (stronger than Kokkos' relaxed): what a thread wrote before resetting a bit is seen by
  // the thread that sets it next, as UnorderedMap hands a freed slot on.
  KOKKOS_FORCEINLINE_FUNCTION bool set(unsigned i) const {
    if (i >= m_size) return false;
    const unsigned mask = 1u << (i & shape::block_mask);
    return !(Kokkos::Impl::atomic_fetch_or_acq_rel(&m_blocks[i >> shape::block_shift], mask) & mask);
  }
  KOKKOS_FORCEINLINE_FUNCTION bool reset(unsigned i) const {
    if (i >= m_size) return false;
    const unsigned mask = 1u << (i & shape::block_mask);
    return Kokkos::Impl::atomic_fetch_and_acq_rel(&m_blocks[i >> shape::block_shift], ~mask) & mask;
  }
  KOKKOS_FORCEINLINE_FUNCTION bool test(unsigned i) const {
    if (i >= m_size) return false;
    const unsigned mask = 1u << (i & shape::block_mask);
    return Kokkos::atomic_load(&m_blocks[i >> shape::block_shift]) & mask;
  }

  // The number of blocks: how many different hints find_any_*_near visits.
  KOKKOS_FORCEINLINE_FUNCTION unsigned max_hint() const { return m_blocks.extent(0); }

  // (true, index of a set bit in hint's block, the first at or after hint cyclically in the
  // scan direction) or (false, a hint in the next block in the hint direction, wrapping).
  KOKKOS_INLINE_FUNCTION Kokkos::pair<bool, unsigned> find_any_set_near(
      unsigned hint, unsigned scan_direction = BIT_SCAN_FORWARD_MOVE_HINT_FORWARD) const {
    if (m_blocks.extent(0) == 0) return Kokkos::make_pair(false, 0u);
    const unsigned b = block_of(hint);
    return find_in_block(b, hint & shape::block_mask, live_bits(b, Kokkos::atomic_load(&m_blocks[b])), scan_direction);
  }
  KOKKOS_INLINE_FUNCTION Kokkos::pair<bool, unsigned> find_any_unset_near(
      unsigned hint, unsigned scan_direction = BIT_SCAN_FORWARD_MOVE_HINT_FORWARD) const {
    if (m_blocks.extent(0) == 0) return Kokkos::make_pair(false, 0u);
    const unsigned b = block_of(hint);
    return find_in_block(b, hint & shape::block_mask, live_bits(b, ~Kokkos::atomic_load(&m_blocks[b])),
                         scan_direction);
  }

  KOKKOS_INLINE_FUNCTION constexpr bool is_allocated() const { return m_blocks.is_allocated(); }

 private:
  unsigned m_size = 0u;
  unsigned m_last_block_mask = 0u;
  block_view_type m_blocks;

  template <typename>
  friend class ConstBitset;
  template <typename DstDevice, typename SrcDevice>
  friend void deep_copy(Bitset<DstDevice>&, Bitset<SrcDevice> const&);
  template <typename DstDevice, typename SrcDevice>
  friend void deep_copy(Bitset<DstDevice>&, ConstBitset<SrcDevice> const&);

  KOKKOS_INLINE_FUNCTION unsigned block_of(unsigned hint) const {
    const unsigned b = hint >> shape::block_shift;
    return b < m_blocks.extent(0) ? b : 0u;
  }
  // Drops the bits past size() in the last block.
  KOKKOS_INLINE_FUNCTION unsigned live_bits(unsigned b, unsigned bits) const {
    return (m_last_block_mask && b + 1 == m_blocks.extent(0)) ? bits & m_last_block_mask : bits;
  }
  KOKKOS_INLINE_FUNCTION Kokkos::pair<bool, unsigned> find_in_block(unsigned b, unsigned offset, unsigned bits,
                                                                    unsigned scan_direction) const {
    if (bits == 0u) {
      const unsigned n = m_blocks.extent(0);
      unsigned next = (scan_direction & MOVE_HINT_BACKWARD) ? (b == 0u ? n - 1u : b - 1u) : b + 1u;
      if (next >= n) next = 0u;
      return Kokkos::make_pair(false, (next << shape::block_shift) + offset);
    }
    unsigned found;
    if (!(scan_direction & BIT_SCAN_REVERSE)) {
      // The first set bit at or after offset, cyclically.
      const unsigned rotated = shape::rotate_right(bits, offset);
      found = (static_cast<unsigned>(Kokkos::countr_zero(rotated)) + offset) & shape::block_mask;
    } else {
      // The first set bit at or before offset, cyclically.
      const unsigned shift = (offset + 1u) & shape::block_mask;
      const unsigned rotated = shape::rotate_right(bits, shift);
      const unsigned top = shape::block_mask - static_cast<unsigned>(Kokkos::countl_zero(rotated));
      found = (top + shift) & shape::block_mask;
    }
    return Kokkos::make_pair(true, (b << shape::block_shift) + found);
  }
};

template <typename Device>
class ConstBitset {
 public:
  using execution_space = typename Device::execution_space;
  using size_type = unsigned int;

 private:
  using shape = Impl::BitsetBlocks;
  using block_view_type = View<const unsigned*, Device, MemoryTraits<RandomAccess>>;

 public:
  KOKKOS_FUNCTION ConstBitset() : m_size(0) {}
  KOKKOS_FUNCTION ConstBitset(Bitset<Device> const& rhs) : m_size(rhs.m_size), m_blocks(rhs.m_blocks) {}
  KOKKOS_FUNCTION ConstBitset& operator=(Bitset<Device> const& rhs) {
    m_size = rhs.m_size;
    m_blocks = rhs.m_blocks;
    return *this;
  }
  KOKKOS_DEFAULTED_FUNCTION ConstBitset(ConstBitset const&) = default;
  KOKKOS_DEFAULTED_FUNCTION ConstBitset& operator=(ConstBitset const&) = default;

  KOKKOS_FORCEINLINE_FUNCTION unsigned size() const { return m_size; }
  unsigned count() const { return Impl::bitset_count<execution_space>(m_blocks); }
  KOKKOS_FORCEINLINE_FUNCTION bool test(unsigned i) const {
    if (i >= m_size) return false;
    return m_blocks[i >> shape::block_shift] & (1u << (i & shape::block_mask));
  }

 private:
  unsigned m_size;
  block_view_type m_blocks;

  template <typename DstDevice, typename SrcDevice>
  friend void deep_copy(Bitset<DstDevice>&, ConstBitset<SrcDevice> const&);
  template <typename DstDevice, typename SrcDevice>
  friend void deep_copy(ConstBitset<DstDevice>&, ConstBitset<SrcDevice> const&);
};

namespace Impl {
template <class Dst, class Src>
void bitset_copy_blocks(unsigned dst_size, unsigned src_size, const Dst& dst_blocks, const Src& src_blocks) {
  if (dst_size != src_size)
    Kokkos::Impl::throw_runtime_exception("Kokkos::deep_copy: cannot deep_copy bitsets of different sizes (" +
                                          std::to_string(dst_size) + " and " + std::to_string(src_size) + ")");
  using writable = View<unsigned*, typename Dst::device_type, MemoryUnmanaged>;
  Kokkos::deep_copy(writable(const_cast<unsigned*>(dst_blocks.data()), dst_blocks.extent(0)), src_blocks);
}
}  // namespace Impl

template <typename DstDevice, typename SrcDevice>
void deep_copy(Bitset<DstDevice>& dst, Bitset<SrcDevice> const& src) {
  Impl::bitset_copy_blocks(dst.m_size, src.m_size, dst.m_blocks, src.m_blocks);
}
template <typename DstDevice, typename SrcDevice>
void deep_copy(Bitset<DstDevice>& dst, ConstBitset<SrcDevice> const& src) {
  Impl::bitset_copy_blocks(dst.m_size, src.m_size, dst.m_blocks, src.m_blocks);
}
// The destination's blocks are written through although it is a ConstBitset, as in Kokkos.
template <typename DstDevice, typename SrcDevice>
void deep_copy(ConstBitset<DstDevice>& dst, ConstBitset<SrcDevice> const& src) {
  Impl::bitset_copy_blocks(dst.m_size, src.m_size, dst.m_blocks, src.m_blocks);
}

}  // namespace Kokkos

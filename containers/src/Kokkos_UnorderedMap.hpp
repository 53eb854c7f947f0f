#pragma once
// Kokkos::UnorderedMap<Key, Value, Device, Hasher, EqualTo>: a fixed-capacity hash map (a set
// when Value is void) that kernels insert into concurrently without locks.
//
// Layout: `capacity()` slots (keys, values, a next-index link per slot), a Bitset saying which
// slots are in use, and `hash_capacity()` bucket heads.  Each bucket is a singly linked list of
// slots, only ever appended to.  insert(k) walks k's bucket; at the end of the list it reserves a
// free slot (an atomic bit set in the Bitset, searched near a hash-derived hint), writes the key
// and value into it and links it with a compare-and-swap on the last link.  A failed swap means
// another thread appended first: the walk goes on from there, and if that thread inserted the
// same key the reserved slot is given back (result `existing() && freed_existing()`).  When no
// slot is free the insert fails and failed_insert() turns true; the caller then rehashes to a
// larger capacity and inserts again, as Kokkos' tutorials teach.
//
// erase(k) only clears the slot's bit, between begin_erase() and end_erase(); end_erase()
// unlinks the cleared slots from their buckets.  Inserts are refused while erasing.
#include <Kokkos_Bitset.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_Functional.hpp>

#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <type_traits>

namespace Kokkos {

inline constexpr uint32_t UnorderedMapInvalidIndex = ~uint32_t(0);

// ---- insert results and operations -----------------------------------------------------------
class UnorderedMapInsertResult {
 private:
  enum Status : uint32_t {
    SUCCESS = 1u << 31,
    EXISTING = 1u << 30,
    FREED_EXISTING = 1u << 29,
    LIST_LENGTH_MASK = ~(SUCCESS | EXISTING | FREED_EXISTING)
  };

 public:
  // The key was new and now sits at index().
  KOKKOS_FORCEINLINE_FUNCTION bool success() const { return (m_status & SUCCESS); }
  // The key was already present, at index().
  KOKKOS_FORCEINLINE_FUNCTION bool existing() const { return (m_status & EXISTING); }
  // No free slot (or the map was not insertable): index() is invalid.
  KOKKOS_FORCEINLINE_FUNCTION bool failed() const { return m_index == UnorderedMapInvalidIndex; }
  // existing(), and this call had reserved a slot that it gave back.
  KOKKOS_FORCEINLINE_FUNCTION bool freed_existing() const { return (m_status & FREED_EXISTING); }
  // How many slots of the bucket were passed before the key was found or linked.
  KOKKOS_FORCEINLINE_FUNCTION uint32_t list_position() const { return (m_status & LIST_LENGTH_MASK); }
  KOKKOS_FORCEINLINE_FUNCTION uint32_t index() const { return m_index; }

  KOKKOS_FORCEINLINE_FUNCTION UnorderedMapInsertResult() : m_index(UnorderedMapInvalidIndex), m_status(0) {}

  KOKKOS_FORCEINLINE_FUNCTION void increment_list_position() {
    m_status += (list_position() < LIST_LENGTH_MASK) ? 1u : 0u;
  }
  KOKKOS_FORCEINLINE_FUNCTION void set_existing(uint32_t i, bool arg_freed_existing) {
    m_index = i;
    m_status = EXISTING | (arg_freed_existing ? FREED_EXISTING : 0u) | list_position();
  }
  KOKKOS_FORCEINLINE_FUNCTION void set_success(uint32_t i) {
    m_index = i;
    m_status = SUCCESS | list_position();
  }

 private:
  uint32_t m_index;
  uint32_t m_status;
};

// What insert() does to the value of a key that is already present: nothing (NoOp, the default)
// or an atomic add of the inserted value (AtomicAdd).
template <class ValueTypeView, class ValuesIdxType>
struct UnorderedMapInsertOpTypes {
  using value_type = typename ValueTypeView::non_const_value_type;
  struct NoOp {
    KOKKOS_FUNCTION
    void op(ValueTypeView, ValuesIdxType, const value_type) const {}
  };
  struct AtomicAdd {
    KOKKOS_FUNCTION
    void op(ValueTypeView values, ValuesIdxType values_idx, const value_type v) const {
      Kokkos::atomic_add(values.data() + values_idx, v);
    }
  };
};

namespace Impl {
template <typename UMap>
struct UnorderedMapHistogram;
}  // namespace Impl

template <typename Key, typename Value, typename Device = Kokkos::DefaultExecutionSpace,
          typename Hasher = pod_hash<std::remove_const_t<Key>>,
          typename EqualTo = pod_equal_to<std::remove_const_t<Key>>>
class UnorderedMap {
 public:
  using declared_key_type = Key;
  using key_type = std::remove_const_t<declared_key_type>;
  using const_key_type = std::add_const_t<key_type>;
  using declared_value_type = Value;
  using value_type = std::remove_const_t<declared_value_type>;
  using const_value_type = std::add_const_t<value_type>;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;
  using hasher_type = Hasher;
  using equal_to_type = EqualTo;
  using size_type = uint32_t;

  using insertable_map_type = UnorderedMap<key_type, value_type, device_type, hasher_type, equal_to_type>;
  using modifiable_map_type = UnorderedMap<const_key_type, value_type, device_type, hasher_type, equal_to_type>;
  using const_map_type = UnorderedMap<const_key_type, const_value_type, device_type, hasher_type, equal_to_type>;

  static constexpr bool is_set = std::is_void_v<value_type>;
  using histogram_type = Impl::UnorderedMapHistogram<const_map_type>;
  static constexpr bool has_const_key = std::is_same_v<const_key_type, declared_key_type>;
  static constexpr bool has_const_value = is_set || std::is_same_v<const_value_type, declared_value_type>;
  static constexpr bool is_insertable_map = !has_const_key && (is_set || !has_const_value);
  static constexpr bool is_modifiable_map = has_const_key && !has_const_value;
  static constexpr bool is_const_map = has_const_key && has_const_value;

  using insert_result = UnorderedMapInsertResult;
  using HostMirror =
      UnorderedMap<Key, Value, typename ViewTraits<int, Device>::host_mirror_space, Hasher, EqualTo>;

  static constexpr size_type invalid_index = UnorderedMapInvalidIndex;

 private:
  using impl_value_type = std::conditional_t<is_set, int, declared_value_type>;
  using key_view = View<declared_key_type*, Device>;
  using value_view = View<std::conditional_t<is_set, int, declared_value_type>*, Device>;
  using index_view = View<size_type*, Device>;
  // [0]: erasing (between begin_erase and end_erase), [1]: an insert failed.
  using flags_view = View<int[2], Device>;
  static constexpr int erasable_flag = 0, failed_insert_flag = 1;
  // Slots of the Bitset searched before an insert with bounded search gives up.
  static constexpr size_type bounded_find_attempts = 32u;

 public:
  using value_type_view = value_view;
  using default_op_type = typename UnorderedMapInsertOpTypes<value_type_view, size_type>::NoOp;

  // At least capacity_hint slots (rounded up by about 1/6 and to a multiple of 128).
  UnorderedMap(size_type capacity_hint = 0, hasher_type hasher = hasher_type(), equal_to_type equal_to = equal_to_type())
      : UnorderedMap(Kokkos::view_alloc(), capacity_hint, hasher, equal_to) {}

  template <class... P>
  UnorderedMap(const Impl::ViewCtorProp<P...>& arg_prop, size_type capacity_hint = 0,
               hasher_type hasher = hasher_type(), equal_to_type equal_to = equal_to_type())
      : m_bounded_insert(true), m_hasher(hasher), m_equal_to(equal_to) {
    using prop_t = Impl::ViewCtorProp<P...>;
    static_assert(!prop_t::has_pointer, "Kokkos::UnorderedMap: view_wrap is not allowed");
    static_assert(!prop_t::has_memory_space, "Kokkos::UnorderedMap: the memory space is the map's own");
    if constexpr (!is_insertable_map) {
      (void)arg_prop;
      (void)capacity_hint;
      Kokkos::Impl::throw_runtime_exception(
          "Kokkos::UnorderedMap: cannot construct a non-insertable (const key or value) map; convert one from an "
          "insertable map instead");
    } else {
      const std::string label = prop_t::has_label ? arg_prop.get_label() : std::string("UnorderedMap");
      const size_type capacity = calculate_capacity(capacity_hint);
      impl_allocate(label, capacity, find_hash_size(capacity));
    }
  }

  // From a map with the same or a less const key/value type (insertable -> modifiable -> const).
  template <typename SKey, typename SValue>
  UnorderedMap(UnorderedMap<SKey, SValue, Device, Hasher, EqualTo> const& src,
               std::enable_if_t<std::is_same_v<std::remove_const_t<SKey>, key_type> &&
                                    std::is_same_v<std::remove_const_t<SValue>, value_type> &&
                                    (has_const_key || !std::is_const_v<SKey>) &&
                                    (has_const_value || std::is_void_v<SValue> || !std::is_const_v<SValue>),
                                int> = 0)
      : m_bounded_insert(src.m_bounded_insert),
        m_hasher(src.m_hasher),
        m_equal_to(src.m_equal_to),
        m_available_indexes(src.m_available_indexes),
        m_hash_lists(src.m_hash_lists),
        m_next_index(src.m_next_index),
        m_keys(src.m_keys),
        m_values(src.m_values),
        m_flags(src.m_flags) {}

  KOKKOS_DEFAULTED_FUNCTION UnorderedMap(const UnorderedMap&) = default;
  KOKKOS_DEFAULTED_FUNCTION UnorderedMap& operator=(const UnorderedMap&) = default;

  // ---- host operations ----------------------------------------------------------------------
  void reset_failed_insert_flag() { impl_write_flag(failed_insert_flag, 0); }

  // Every slot free, every bucket empty, the flags cleared.
  void clear() {
    if (!is_allocated()) return;
    Kokkos::deep_copy(m_hash_lists, invalid_index);
    Kokkos::deep_copy(m_next_index, invalid_index);
    m_available_indexes.clear();
    Kokkos::deep_copy(m_flags, 0);
  }

  KOKKOS_INLINE_FUNCTION constexpr bool is_allocated() const {
    return m_keys.is_allocated() && m_hash_lists.is_allocated();
  }

  // A new map of at least max(requested_capacity, size()) slots holding the same entries.
  // Without bounded_insert, an insert searches every block of free slots before failing.
  bool rehash(size_type requested_capacity = 0) {
    const bool bounded_insert = capacity() == 0 || size() == 0u;
    return rehash(requested_capacity, bounded_insert);
  }
  bool rehash(size_type requested_capacity, bool bounded_insert) {
    if constexpr (!is_insertable_map) {
      (void)requested_capacity;
      (void)bounded_insert;
      return false;
    } else {
      const size_type curr_size = size();
      if (requested_capacity < curr_size) requested_capacity = curr_size;
      insertable_map_type tmp(requested_capacity, m_hasher, m_equal_to);
      if (curr_size) {
        tmp.m_bounded_insert = false;
        impl_insert_all_into(tmp);
      }
      tmp.m_bounded_insert = bounded_insert;
      *this = tmp;
      return true;
    }
  }

  // Host: the number of entries (a count of the used slots).
  size_type size() const { return is_allocated() ? m_available_indexes.count() : 0u; }

  bool failed_insert() const { return impl_read_flag(failed_insert_flag) != 0; }
  bool erasable() const { return is_insertable_map && impl_read_flag(erasable_flag) != 0; }

  bool begin_erase() {
    if constexpr (!is_insertable_map) {
      return false;
    } else {
      if (!is_allocated()) return false;
      Kokkos::fence("Kokkos::UnorderedMap::begin_erase: fence before erasing");
      impl_write_flag(erasable_flag, 1);
      return true;
    }
  }
  bool end_erase() {
    if constexpr (!is_insertable_map) {
      return false;
    } else {
      if (!erasable()) return false;
      Kokkos::fence("Kokkos::UnorderedMap::end_erase: fence before unlinking");
      impl_unlink_erased();
      impl_write_flag(erasable_flag, 0);
      return true;
    }
  }

  // How the buckets' chains are laid out (see UnorderedMapHistogram below); call calculate().
  histogram_type get_histogram() { return histogram_type(*this); }

  KOKKOS_FORCEINLINE_FUNCTION size_type capacity() const { return m_available_indexes.size(); }
  KOKKOS_INLINE_FUNCTION size_type hash_capacity() const { return m_hash_lists.extent(0); }

  // ---- operations inside kernels ------------------------------------------------------------
  template <typename InsertOpType = default_op_type>
  KOKKOS_INLINE_FUNCTION insert_result insert(key_type const& k, impl_value_type const& v = impl_value_type(),
                                              [[maybe_unused]] InsertOpType arg_insert_op = InsertOpType()) const {
    insert_result result;
    if constexpr (is_insertable_map) {
      if (capacity() == 0u || m_flags(erasable_flag)) return result;
      const uint32_t hash = m_hasher(k);
      size_type* link = &m_hash_lists(hash % hash_capacity());
      size_type reserved = invalid_index;
      while (true) {
        const size_type curr = Kokkos::Impl::atomic_load_acquire(link);
        if (curr == invalid_index) {
          if (reserved == invalid_index) {
            reserved = impl_reserve_slot(hash);
            if (reserved == invalid_index) {
              if (!Kokkos::atomic_load(&m_flags(failed_insert_flag))) Kokkos::atomic_store(&m_flags(failed_insert_flag), 1);
              return result;
            }
            m_keys(reserved) = k;
            if constexpr (!is_set) m_values(reserved) = v;
            Kokkos::atomic_store(&m_next_index(reserved), invalid_index);
          }
          // Publishes the slot's key and value with the link (a full barrier).
          if (Kokkos::Impl::atomic_compare_exchange_seq_cst(link, invalid_index, reserved) == invalid_index) {
            result.set_success(reserved);
            return result;
          }
          continue;  // another slot was linked here first: look at it
        }
        result.increment_list_position();
        if (m_equal_to(m_keys(curr), k)) {
          const bool freed = reserved != invalid_index;
          if (freed) m_available_indexes.reset(reserved);
          result.set_existing(curr, freed);
          if constexpr (!is_set) arg_insert_op.op(m_values, curr, v);
          return result;
        }
        link = &m_next_index(curr);
      }
    } else {
      (void)k;
      (void)v;
      return result;
    }
  }

  // Clears k's slot; only between begin_erase() and end_erase().  True when this call erased k.
  KOKKOS_INLINE_FUNCTION bool erase(key_type const& k) const {
    if constexpr (is_insertable_map) {
      if (capacity() == 0u || !m_flags(erasable_flag)) return false;
      const size_type index = find(k);
      return valid_at(index) && m_available_indexes.reset(index);
    } else {
      (void)k;
      return false;
    }
  }

  // k's slot, or invalid_index.  (Between erase(k) and end_erase() the slot is still found but
  // no longer valid_at, as in Kokkos.)
  KOKKOS_INLINE_FUNCTION size_type find(const key_type& k) const {
    if (capacity() == 0u) return invalid_index;
    size_type curr = Kokkos::Impl::atomic_load_acquire(&m_hash_lists(m_hasher(k) % hash_capacity()));
    while (curr != invalid_index && !m_equal_to(m_keys(curr), k))
      curr = Kokkos::Impl::atomic_load_acquire(&m_next_index(curr));
    return curr;
  }
  KOKKOS_INLINE_FUNCTION bool exists(const key_type& k) const { return valid_at(find(k)); }

  template <typename Dummy = value_type>
  KOKKOS_FORCEINLINE_FUNCTION
      std::enable_if_t<!std::is_void_v<Dummy>, std::conditional_t<has_const_value, impl_value_type, impl_value_type&>>
      value_at(size_type i) const {
    return m_values(i);
  }
  KOKKOS_FORCEINLINE_FUNCTION key_type key_at(size_type i) const { return m_keys(i); }
  KOKKOS_FORCEINLINE_FUNCTION bool valid_at(size_type i) const { return m_available_indexes.test(i); }

  // ---- copies between maps ------------------------------------------------------------------
  // Gives this map storage shaped like src's (same capacity and bucket count), contents unset.
  template <typename SKey, typename SValue, typename SDevice>
  std::enable_if_t<std::is_same_v<std::remove_const_t<SKey>, key_type> &&
                   std::is_same_v<std::remove_const_t<SValue>, value_type>>
  allocate_view(UnorderedMap<SKey, SValue, SDevice, Hasher, EqualTo> const& src) {
    insertable_map_type tmp(impl_unallocated{});
    tmp.m_bounded_insert = src.m_bounded_insert;
    tmp.m_hasher = src.m_hasher;
    tmp.m_equal_to = src.m_equal_to;
    tmp.impl_allocate("UnorderedMap", src.capacity(), src.hash_capacity());
    *this = tmp;
  }

  // Makes this map an exact copy of src, reallocating when the shapes differ.
  template <typename SKey, typename SValue, typename SDevice>
  std::enable_if_t<std::is_same_v<std::remove_const_t<SKey>, key_type> &&
                   std::is_same_v<std::remove_const_t<SValue>, value_type>>
  deep_copy_view(UnorderedMap<SKey, SValue, SDevice, Hasher, EqualTo> const& src) {
    if (capacity() != src.capacity() || hash_capacity() != src.hash_capacity()) allocate_view(src);
    if (static_cast<const void*>(m_hash_lists.data()) == static_cast<const void*>(src.m_hash_lists.data())) return;
    Kokkos::fence("Kokkos::deep_copy(UnorderedMap): fence before copying");
    impl_copy_into(m_hash_lists, src.m_hash_lists);
    impl_copy_into(m_next_index, src.m_next_index);
    impl_copy_into(m_keys, src.m_keys);
    if constexpr (!is_set) impl_copy_into(m_values, src.m_values);
    impl_copy_into(m_flags, src.m_flags);
    Kokkos::deep_copy(m_available_indexes, src.m_available_indexes);
    m_bounded_insert = src.m_bounded_insert;
  }
  // Kokkos' older name: allocate and copy unless src is this very storage.
  template <typename SKey, typename SValue, typename SDevice>
  std::enable_if_t<std::is_same_v<std::remove_const_t<SKey>, key_type> &&
                   std::is_same_v<std::remove_const_t<SValue>, value_type>>
  create_copy_view(UnorderedMap<SKey, SValue, SDevice, Hasher, EqualTo> const& src) {
    if (static_cast<const void*>(m_hash_lists.data()) != static_cast<const void*>(src.m_hash_lists.data())) {
      allocate_view(src);
      deep_copy_view(src);
    }
  }

  // Capacity for a hint: about 1/6 more, a multiple of 128, 128 at least.
  static size_type calculate_capacity(size_type capacity_hint) {
    return capacity_hint ? static_cast<size_type>(((7ull * capacity_hint / 6u) + 127u) / 128u * 128u) : 128u;
  }

 private:
  template <typename, typename, typename, typename, typename>
  friend class UnorderedMap;
  template <typename>
  friend struct Impl::UnorderedMapHistogram;

  struct impl_unallocated {};
  explicit UnorderedMap(impl_unallocated) {}

  bool m_bounded_insert = true;
  hasher_type m_hasher;
  equal_to_type m_equal_to;
  Bitset<Device> m_available_indexes;
  index_view m_hash_lists;
  index_view m_next_index;
  key_view m_keys;
  value_view m_values;
  flags_view m_flags;

  // A prime number of buckets near the capacity: spreads hashes that share low bits.
  static size_type find_hash_size(size_type capacity) {
    uint64_t n = capacity < 3 ? 3 : (capacity | 1u);
    auto is_prime = [](uint64_t x) {
      for (uint64_t d = 3; d * d <= x; d += 2)
        if (x % d == 0) return false;
      return true;
    };
    while (!is_prime(n)) n += 2;
    return static_cast<size_type>(n);
  }

  void impl_allocate(const std::string& label, size_type capacity, size_type hash_capacity) {
    m_available_indexes = Bitset<Device>(capacity);
    m_hash_lists = index_view(view_alloc(WithoutInitializing, label + " hash list"), hash_capacity);
    m_next_index = index_view(view_alloc(WithoutInitializing, label + " next index"), capacity);
    m_keys = key_view(label + " keys", capacity);
    if constexpr (!is_set) m_values = value_view(label + " values", capacity);
    m_flags = flags_view(label + " flags");
    Kokkos::deep_copy(m_hash_lists, invalid_index);
    Kokkos::deep_copy(m_next_index, invalid_index);
  }

  // deep_copy into one of this map's Views, which is const in a const map.
  template <class Dst, class Src>
  static void impl_copy_into(const Dst& dst, const Src& src) {
    using writable = View<typename Dst::non_const_data_type, typename Dst::array_layout, typename Dst::device_type,
                          MemoryUnmanaged>;
    auto* data = const_cast<typename Dst::non_const_value_type*>(dst.data());
    if constexpr (Dst::rank_dynamic == 0) Kokkos::deep_copy(writable(data), src);
    else Kokkos::deep_copy(writable(data, dst.extent(0)), src);
  }

  int impl_read_flag(int which) const {
    if (!m_flags.is_allocated()) return 0;
    int value = 0;
    Kokkos::deep_copy(value, Kokkos::subview(m_flags, which));
    return value;
  }
  void impl_write_flag(int which, int value) {
    if (!m_flags.is_allocated()) return;
    Kokkos::deep_copy(Kokkos::subview(m_flags, which), value);
  }

  // A free slot near the hash's hint, claimed with an atomic bit set; invalid_index when the
  // search (bounded or over every block) finds none.
  KOKKOS_INLINE_FUNCTION size_type impl_reserve_slot(uint32_t hash) const {
    const size_type max_hint = m_available_indexes.max_hint();
    const size_type max_attempts =
        (m_bounded_insert && bounded_find_attempts < max_hint) ? bounded_find_attempts : max_hint;
    unsigned hint = hash % capacity();
    for (size_type attempt = 0; attempt < max_attempts;) {
      const Kokkos::pair<bool, unsigned> found = m_available_indexes.find_any_unset_near(hint);
      if (!found.first) {
        hint = found.second;
        ++attempt;
      } else if (m_available_indexes.set(found.second)) {
        return found.second;
      } else {
        hint = found.second;  // taken meanwhile: look again in the same block
      }
    }
    return invalid_index;
  }

  // Public only because nvcc refuses a KOKKOS_LAMBDA in a private member function.
 public:
  // Inserts every entry into `dst` (a larger, empty map), in parallel.
  void impl_insert_all_into(const insertable_map_type& dst) const {
    const UnorderedMap src = *this;
    Kokkos::parallel_for(
        "Kokkos::UnorderedMap::rehash", Kokkos::RangePolicy<execution_space>(0, capacity()),
        KOKKOS_LAMBDA(const size_type i) {
          if (!src.valid_at(i)) return;
          const insertable_map_type& target = dst;  // nvcc: captured outside the constexpr-if
          if constexpr (is_set) target.insert(src.key_at(i));
          else target.insert(src.key_at(i), src.value_at(i));
        });
    Kokkos::fence("Kokkos::UnorderedMap::rehash: fence after inserting");
  }

  // Drops the erased slots from their buckets: one worker per bucket.
  void impl_unlink_erased() const {
    const UnorderedMap map = *this;
    Kokkos::parallel_for(
        "Kokkos::UnorderedMap::end_erase", Kokkos::RangePolicy<execution_space>(0, hash_capacity()),
        KOKKOS_LAMBDA(const size_type b) {
          size_type* link = &map.m_hash_lists(b);
          size_type curr = *link;
          while (curr != invalid_index) {
            const size_type next = map.m_next_index(curr);
            if (!map.valid_at(curr)) {
              *link = next;
              map.m_next_index(curr) = invalid_index;
            } else {
              link = &map.m_next_index(curr);
            }
            curr = next;
          }
        });
    Kokkos::fence("Kokkos::UnorderedMap::end_erase: fence after unlinking");
  }
 private:
};

// ---- mirrors and deep_copy -------------------------------------------------------------------
template <typename DKey, typename DT, typename DDevice, typename SKey, typename ST, typename SDevice, typename Hasher,
          typename EqualTo>
inline void deep_copy(UnorderedMap<DKey, DT, DDevice, Hasher, EqualTo>& dst,
                      const UnorderedMap<SKey, ST, SDevice, Hasher, EqualTo>& src) {
  dst.deep_copy_view(src);
}

// get_histogram(): three histograms over the buckets (Kokkos 4.6's quantities; kdag's layout
// is the same, bucket heads linking slots into chains).  For every non-empty bucket:
//   length          the number of slots in its chain (erased slots included until end_erase),
//   distance        the largest minus the smallest slot index in the chain,
//   block distance  the same in 32-slot blocks (words of the slot-usage Bitset),
// each counted in bin min(value, 99) of a View<int[100]>.  Short chains mean cheap finds; small
// distances mean a chain's slots share cache lines.  calculate() adds to the bins (clear()
// zeroes them); print_* write the 100 bins, comma-separated, on one line.
namespace Impl {
template <typename UMap>
struct UnorderedMapHistogram {
  using map_type = UMap;
  using execution_space = typename map_type::execution_space;
  using size_type = typename map_type::size_type;
  using histogram_view = View<int[100], execution_space>;
  using host_histogram_view = typename histogram_view::HostMirror;

  map_type m_map;
  histogram_view m_length;
  histogram_view m_distance;
  histogram_view m_block_distance;

  UnorderedMapHistogram(map_type const& map)
      : m_map(map),
        m_length("UnorderedMap Histogram"),
        m_distance("UnorderedMap Histogram"),
        m_block_distance("UnorderedMap Histogram") {}

  void calculate() {
    parallel_for("Kokkos::Impl::UnorderedMapHistogram::calculate",
                 RangePolicy<execution_space>(0, m_map.m_hash_lists.extent(0)), *this);
  }
  void clear() {
    Kokkos::deep_copy(m_length, 0);
    Kokkos::deep_copy(m_distance, 0);
    Kokkos::deep_copy(m_block_distance, 0);
  }
  void print_length(std::ostream& out) { print(out, m_length); }
  void print_distance(std::ostream& out) { print(out, m_distance); }
  void print_block_distance(std::ostream& out) { print(out, m_block_distance); }

  KOKKOS_INLINE_FUNCTION void operator()(size_type bucket) const {
    constexpr size_type invalid_index = map_type::invalid_index;
    size_type length = 0, lowest = invalid_index, highest = 0;
    for (size_type slot = m_map.m_hash_lists(bucket); slot != invalid_index; slot = m_map.m_next_index(slot)) {
      ++length;
      lowest = slot < lowest ? slot : lowest;
      highest = slot > highest ? slot : highest;
    }
    if (length == 0) return;
    const size_type distance = highest - lowest;
    const size_type block_distance = highest / 32u - lowest / 32u;
    Kokkos::atomic_fetch_add(&m_length(bin(length)), 1);
    Kokkos::atomic_fetch_add(&m_distance(bin(distance)), 1);
    Kokkos::atomic_fetch_add(&m_block_distance(bin(block_distance)), 1);
  }

 private:
  KOKKOS_INLINE_FUNCTION static size_type bin(size_type value) { return value < 100u ? value : 99u; }
  static void print(std::ostream& out, const histogram_view& bins) {
    auto host = create_mirror_view_and_copy(HostSpace(), bins);
    for (int i = 0; i < 100; ++i) out << (i ? " , " : "") << host(i);
    out << '\n';
  }
};
}  // namespace Impl

template <typename Key, typename ValueType, typename Device, typename Hasher, typename EqualTo>
typename UnorderedMap<Key, ValueType, Device, Hasher, EqualTo>::HostMirror create_mirror(
    const UnorderedMap<Key, ValueType, Device, Hasher, EqualTo>& src) {
  typename UnorderedMap<Key, ValueType, Device, Hasher, EqualTo>::HostMirror dst;
  dst.allocate_view(src);
  return dst;
}

}  // namespace Kokkos

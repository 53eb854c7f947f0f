#pragma once
// Host thread teams: the state the workers of one team share, and the team member a team
// functor receives.  TeamPolicy launches (Host/Kokkos_HostParallelTeam.hpp) and task teams both
// build on it; a task scheduler forms its own teams:
//
//   HostTeamStorage storage;
//   storage.prepare({.teams = 1, .team_size = 2});
//   // on each of the two workers:
//   HostThreadTeamMember<Space> member(storage.team(0), team_rank, 2, /*league*/ 0, 1);
//
// Collectives exchange *pointers* to each member's own value through one slot per member, so
// any value type works without a sized buffer.  Every collective is bracketed by barriers: the
// first publishes the pointers, the second keeps each value alive until all have read it.
// Reductions are computed redundantly by every member in team-rank order, which costs
// team_size joins per member (teams are a core's hyperthreads) and gives every member the
// bitwise-same result.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_Atomic.hpp>
#include <Kokkos_HostSpace.hpp>
#include <Kokkos_Reducers.hpp>
#include <Kokkos_ScratchSpace.hpp>
#include <Host/Kokkos_HostBackend.hpp>

#include <cstddef>
#include <cstdint>
#include <new>
#include <thread>
#include <type_traits>

namespace Kokkos::Impl {

inline constexpr std::size_t host_team_round_up(std::size_t bytes) {
  return (bytes + KOKKOS_IMPL_CACHE_LINE - 1) / KOKKOS_IMPL_CACHE_LINE * KOKKOS_IMPL_CACHE_LINE;
}

// Sense-free spin barrier: the last arriver resets the count and bumps the generation the others
// spin on.  The team's threads are all running, so spinning (with pause, then yield when the
// machine is oversubscribed) beats sleeping.
class HostTeamBarrier {
 public:
  void arrive_and_wait(int team_size) noexcept {
    if (team_size <= 1) return;
    // Read before arriving: the generation cannot move until this thread has arrived.
    const unsigned generation = atomic_load_relaxed(&m_generation);
    if (atomic_fetch_add_acq_rel(&m_arrived, 1) == team_size - 1) {
      atomic_store_relaxed(&m_arrived, 0);
      atomic_store_release(&m_generation, generation + 1u);
      return;
    }
    for (int spins = 0; atomic_load_acquire(&m_generation) == generation;) {
      if (spins < spins_before_yield) {
        ++spins;
        pause();
      } else {
        std::this_thread::yield();
      }
    }
  }

 private:
  static constexpr int spins_before_yield = 2000;
  alignas(KOKKOS_IMPL_CACHE_LINE) int m_arrived = 0;
  alignas(KOKKOS_IMPL_CACHE_LINE) unsigned m_generation = 0;
};

// What one team of up to `max_team_size` workers shares.
class alignas(KOKKOS_IMPL_CACHE_LINE) HostTeamShared {
 public:
  // One exchange slot per member, each on its own cache line.
  struct alignas(KOKKOS_IMPL_CACHE_LINE) Slot {
    const void* value = nullptr;
  };

  HostTeamShared(Slot* slots, int max_team_size, char* scratch_l0, std::size_t bytes_l0, char* scratch_l1,
                 std::size_t bytes_l1) noexcept
      : m_slots(slots), m_max_team_size(max_team_size), m_scratch{scratch_l0, scratch_l1}, m_scratch_bytes{bytes_l0, bytes_l1} {}

  HostTeamShared(const HostTeamShared&) = delete;
  HostTeamShared& operator=(const HostTeamShared&) = delete;

  // __host__ __device__ like the team member functions that call them: in a CUDA translation
  // unit, a KOKKOS_LAMBDA launched on a host back end is compiled for the device too (never run
  // there), and the host barrier (spin, yield) exists only on the host.
  KOKKOS_INLINE_FUNCTION void barrier(int team_size) noexcept {
    KOKKOS_IF_ON_HOST((m_barrier.arrive_and_wait(team_size);))
    KOKKOS_IF_ON_DEVICE(((void)team_size; Kokkos::abort("Kokkos: a host team barrier was called in device code");))
  }

  KOKKOS_INLINE_FUNCTION void publish(int team_rank, const void* value) noexcept { m_slots[team_rank].value = value; }
  KOKKOS_INLINE_FUNCTION const void* peer(int team_rank) const noexcept { return m_slots[team_rank].value; }

  int max_team_size() const noexcept { return m_max_team_size; }
  char* scratch(int level) const noexcept { return m_scratch[level]; }
  std::size_t scratch_bytes(int level) const noexcept { return m_scratch_bytes[level]; }

  // The league block a dynamic schedule's team leader claimed; double-buffered by claim parity
  // so the leader can claim the next block before the others have read this one.
  void set_league_block(unsigned claim, HostBlock<std::int64_t> block) noexcept { m_league_block[claim & 1u] = block; }
  HostBlock<std::int64_t> league_block(unsigned claim) const noexcept { return m_league_block[claim & 1u]; }

 private:
  HostTeamBarrier m_barrier;
  alignas(KOKKOS_IMPL_CACHE_LINE) Slot* m_slots;
  int m_max_team_size;
  char* m_scratch[2];
  std::size_t m_scratch_bytes[2];
  HostBlock<std::int64_t> m_league_block[2] = {};
};

// Sizes of one launch's team storage.
struct HostTeamLayout {
  int teams = 1;
  int team_size = 1;
  std::size_t scratch_bytes_l0 = 0;  // per team
  std::size_t scratch_bytes_l1 = 0;  // per team
  int workers = 0;                   // per-worker buffers (e.g. reduction values)
  std::size_t worker_bytes = 0;      // per worker
};

// Owns the team states, scratch arenas and worker buffers of a launch in one HostSpace
// allocation, which grows but is never shrunk by prepare().
class HostTeamStorage {
 public:
  HostTeamStorage() = default;
  HostTeamStorage(const HostTeamStorage&) = delete;
  HostTeamStorage& operator=(const HostTeamStorage&) = delete;
  ~HostTeamStorage() { release(); }

  // Constructs fresh team states (zeroed barriers) for `layout`; scratch contents are undefined.
  void prepare(const HostTeamLayout& layout) {
    const std::size_t teams = static_cast<std::size_t>(layout.teams < 0 ? 0 : layout.teams);
    const std::size_t team_size = static_cast<std::size_t>(layout.team_size < 1 ? 1 : layout.team_size);
    const std::size_t l0 = host_team_round_up(layout.scratch_bytes_l0);
    const std::size_t l1 = host_team_round_up(layout.scratch_bytes_l1);
    const std::size_t team_bytes = sizeof(HostTeamShared) + team_size * sizeof(HostTeamShared::Slot) + l0 + l1;
    m_worker_stride = host_team_round_up(layout.worker_bytes);
    const std::size_t bytes = teams * team_bytes + static_cast<std::size_t>(layout.workers) * m_worker_stride;
    if (bytes > m_capacity) {
      release();
      m_memory = static_cast<char*>(HostSpace().allocate("Kokkos::TeamPolicy team storage", bytes));
      m_capacity = bytes;
    }
    m_teams = static_cast<int>(teams);
    m_team_stride = team_bytes;
    for (std::size_t t = 0; t < teams; ++t) {
      char* base = m_memory + t * team_bytes;
      auto* slots = reinterpret_cast<HostTeamShared::Slot*>(base + sizeof(HostTeamShared));
      for (std::size_t r = 0; r < team_size; ++r) new (slots + r) HostTeamShared::Slot();
      char* scratch = base + sizeof(HostTeamShared) + team_size * sizeof(HostTeamShared::Slot);
      new (base) HostTeamShared(slots, static_cast<int>(team_size), scratch, layout.scratch_bytes_l0, scratch + l0,
                                layout.scratch_bytes_l1);
    }
    m_worker_base = m_memory + teams * team_bytes;
  }

  int teams() const noexcept { return m_teams; }
  HostTeamShared& team(int t) const noexcept {
    return *std::launder(reinterpret_cast<HostTeamShared*>(m_memory + static_cast<std::size_t>(t) * m_team_stride));
  }
  void* worker_buffer(int rank) const noexcept { return m_worker_base + static_cast<std::size_t>(rank) * m_worker_stride; }
  std::size_t capacity() const noexcept { return m_capacity; }

  void release() noexcept {
    if (m_memory) HostSpace().deallocate("Kokkos::TeamPolicy team storage", m_memory, m_capacity);
    m_memory = nullptr;
    m_capacity = 0;
    m_teams = 0;
  }

 private:
  char* m_memory = nullptr;
  std::size_t m_capacity = 0;
  std::size_t m_team_stride = 0;
  std::size_t m_worker_stride = 0;
  char* m_worker_base = nullptr;
  int m_teams = 0;
};

// The team storage of one launch: the launching thread's cached storage, or a private one when
// a launch on this thread is already using the cache (a launch from inside a team functor).
// Large storage is not kept cached, so one big scratch request does not pin memory.
class HostTeamStorageLease {
 public:
  explicit HostTeamStorageLease(const HostTeamLayout& layout) {
    Cache& cache = thread_cache();
    if (!cache.in_use) {
      cache.in_use = true;
      m_storage = &cache.storage;
      m_cached = true;
    } else {
      m_storage = &m_private;
    }
    m_storage->prepare(layout);
  }
  ~HostTeamStorageLease() {
    if (m_cached) {
      if (m_storage->capacity() > max_cached_bytes) m_storage->release();
      thread_cache().in_use = false;
    }
  }
  HostTeamStorageLease(const HostTeamStorageLease&) = delete;
  HostTeamStorageLease& operator=(const HostTeamStorageLease&) = delete;

  HostTeamStorage& storage() const noexcept { return *m_storage; }

 private:
  static constexpr std::size_t max_cached_bytes = std::size_t(16) << 20;
  struct Cache {
    HostTeamStorage storage;
    bool in_use = false;
  };
  static Cache& thread_cache() {
    thread_local Cache cache;
    return cache;
  }

  HostTeamStorage* m_storage = nullptr;
  HostTeamStorage m_private;
  bool m_cached = false;
};

// The team member of every host back end (Kokkos' HostThreadTeamMember).
template <class ExecSpace>
class HostThreadTeamMember {
 public:
  using execution_space = ExecSpace;
  using scratch_memory_space = ScratchMemorySpace<ExecSpace>;
  using team_handle = HostThreadTeamMember;

  HostThreadTeamMember(HostTeamShared& shared, int team_rank, int team_size, int league_rank, int league_size) noexcept
      : m_shared(&shared),
        m_scratch(shared.scratch(0), shared.scratch_bytes(0), shared.scratch(1), shared.scratch_bytes(1)),
        m_team_rank(team_rank),
        m_team_size(team_size),
        m_league_rank(league_rank),
        m_league_size(league_size) {}

  KOKKOS_INLINE_FUNCTION int league_rank() const noexcept { return m_league_rank; }
  KOKKOS_INLINE_FUNCTION int league_size() const noexcept { return m_league_size; }
  KOKKOS_INLINE_FUNCTION int team_rank() const noexcept { return m_team_rank; }
  KOKKOS_INLINE_FUNCTION int team_size() const noexcept { return m_team_size; }

  KOKKOS_INLINE_FUNCTION const scratch_memory_space& team_shmem() const { return m_scratch.set_team_thread_mode(0, 1, 0); }
  KOKKOS_INLINE_FUNCTION const scratch_memory_space& team_scratch(const int level) const {
    return m_scratch.set_team_thread_mode(level, 1, 0);
  }
  KOKKOS_INLINE_FUNCTION const scratch_memory_space& thread_scratch(const int level) const {
    return m_scratch.set_team_thread_mode(level, m_team_size, m_team_rank);
  }

  KOKKOS_INLINE_FUNCTION void team_barrier() const noexcept { m_shared->barrier(m_team_size); }

  // `value` of member `source` is copied to every member's `value`.
  template <class ValueType>
  KOKKOS_INLINE_FUNCTION void team_broadcast(ValueType& value, const int source) const noexcept {
    check_source(source);
    if (m_team_size == 1) return;
    if (m_team_rank == source) m_shared->publish(source, &value);
    m_shared->barrier(m_team_size);
    if (m_team_rank != source) value = *static_cast<const ValueType*>(m_shared->peer(source));
    m_shared->barrier(m_team_size);
  }
  // As above, after member `source` has applied f(value).
  template <class Closure, class ValueType>
  KOKKOS_INLINE_FUNCTION void team_broadcast(const Closure& f, ValueType& value, const int source) const noexcept {
    check_source(source);
    if (m_team_rank == source) f(value);
    team_broadcast(value, source);
  }

  // Joins every member's reducer.reference() (in team-rank order); all members get the result.
  template <class ReducerType>
  KOKKOS_INLINE_FUNCTION std::enable_if_t<is_reducer_v<ReducerType>> team_reduce(
      const ReducerType& reducer) const noexcept {
    using value_type = typename ReducerType::value_type;
    join_in_rank_order(reducer.reference(), [&](value_type& dst, const value_type& src) { reducer.join(dst, src); });
  }
  template <class ReducerType>
  KOKKOS_INLINE_FUNCTION std::enable_if_t<is_reducer_v<ReducerType>> team_reduce(
      const ReducerType& reducer, const typename ReducerType::value_type contribution) const noexcept {
    reducer.reference() = contribution;
    team_reduce(reducer);
  }
  // The team sum of `value` (kdag keeps this pre-reducer Kokkos form).
  template <class ValueType>
  KOKKOS_INLINE_FUNCTION std::enable_if_t<!is_reducer_v<ValueType>, ValueType> team_reduce(
      const ValueType& value) const noexcept {
    ValueType result = value;
    join_in_rank_order(result, [](ValueType& dst, const ValueType& src) { dst += src; });
    return result;
  }

  // Exclusive prefix sum of `value` in team-rank order.  With `global`, the team's total is
  // added atomically to *global and the prefix is offset by *global's previous value.
  template <class ValueType>
  KOKKOS_INLINE_FUNCTION ValueType team_scan(const ValueType& value, ValueType* const global = nullptr) const noexcept {
    if (m_team_size == 1) return global ? atomic_fetch_add(global, value) : ValueType();
    m_shared->publish(m_team_rank, &value);
    m_shared->barrier(m_team_size);
    ValueType prefix = ValueType();
    for (int r = 0; r < m_team_rank; ++r) prefix += *static_cast<const ValueType*>(m_shared->peer(r));
    if (!global) {
      m_shared->barrier(m_team_size);
      return prefix;
    }
    // The last member has seen every value: it claims the team's range of *global.
    ValueType base = ValueType();
    const int last = m_team_size - 1;
    if (m_team_rank == last) {
      base = atomic_fetch_add(global, prefix + value);
      m_shared->publish(last, &base);  // no member reads the last member's value
    }
    m_shared->barrier(m_team_size);
    if (m_team_rank != last) base = *static_cast<const ValueType*>(m_shared->peer(last));
    m_shared->barrier(m_team_size);
    return base + prefix;
  }

  // Exclusive prefix sum of `value` in team-rank order, and the team's total (for nested scans).
  template <class ValueType>
  ValueType impl_team_scan(const ValueType& value, ValueType& total) const noexcept {
    if (m_team_size == 1) {
      total = value;
      return ValueType();
    }
    m_shared->publish(m_team_rank, &value);
    m_shared->barrier(m_team_size);
    ValueType prefix = ValueType();
    for (int r = 0; r < m_team_rank; ++r) prefix += *static_cast<const ValueType*>(m_shared->peer(r));
    total = prefix;
    for (int r = m_team_rank; r < m_team_size; ++r) total += *static_cast<const ValueType*>(m_shared->peer(r));
    m_shared->barrier(m_team_size);
    return prefix;
  }

  HostTeamShared& impl_shared() const noexcept { return *m_shared; }

 private:
  KOKKOS_INLINE_FUNCTION void check_source(int source) const noexcept {
    if (source < 0 || source >= m_team_size) Kokkos::abort("Kokkos::team_broadcast: source rank is not a rank of the team");
  }

  template <class ValueType, class Join>
  void join_in_rank_order(ValueType& value, const Join& join) const noexcept {
    if (m_team_size == 1) return;
    m_shared->publish(m_team_rank, &value);
    m_shared->barrier(m_team_size);
    ValueType total = *static_cast<const ValueType*>(m_shared->peer(0));
    for (int r = 1; r < m_team_size; ++r) join(total, *static_cast<const ValueType*>(m_shared->peer(r)));
    m_shared->barrier(m_team_size);
    value = total;
  }

  HostTeamShared* m_shared;
  scratch_memory_space m_scratch;
  int m_team_rank;
  int m_team_size;
  int m_league_rank;
  int m_league_size;
};

template <class T>
struct is_host_thread_team_member : std::false_type {};
template <class ExecSpace>
struct is_host_thread_team_member<HostThreadTeamMember<ExecSpace>> : std::true_type {};

}  // namespace Kokkos::Impl

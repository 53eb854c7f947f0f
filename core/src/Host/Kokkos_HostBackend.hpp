#pragma once
// The contract every host back end (Serial, OpenMP, ...) implements, and the work
// partitioning shared by all host patterns:
//
//   static constexpr bool impl_is_host_backend = true;
//   int  impl_thread_pool_size() const;        // workers a launch runs on
//   static int impl_thread_pool_rank();        // calling worker's rank, 0 outside a launch
//   template <class Body> void impl_run_on_workers(const Body& body) const;
//        // calls body(rank, size) once on each of `size` workers, returns after all return
//
// Optionally, a back end whose workers can hand a small result back with the signal that they
// finished (the Threads pool) also offers
//   static constexpr std::size_t impl_worker_result_bytes;   // room for each worker's result
//   static void* impl_current_worker_result();              // the calling worker's room, in a launch
//   template <class Body, class After> void impl_run_on_workers(const Body&, const After&) const;
//        // as above, then after(size, results) on the caller: results[r] is rank r's room
// and host reductions of small scalars return each worker's value that way.
//
// Patterns (range/MDRange/team for, reduce, scan) are written once against this contract in
// impl/; a back end never re-implements them.
#include <Kokkos_Macros.hpp>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace Kokkos::Impl {

template <class ExecSpace, class = void>
struct is_host_backend : std::false_type {};
template <class ExecSpace>
struct is_host_backend<ExecSpace, std::enable_if_t<ExecSpace::impl_is_host_backend>> : std::true_type {};
template <class ExecSpace>
concept HostBackend = is_host_backend<ExecSpace>::value;

// Whether workers of ExecSpace can hand back a Value with the signal that they finished.
template <class ExecSpace, class Value>
concept HostWorkerResults = requires {
  { ExecSpace::impl_worker_result_bytes } -> std::convertible_to<std::size_t>;
  { ExecSpace::impl_current_worker_result() } -> std::same_as<void*>;
} && sizeof(Value) <= ExecSpace::impl_worker_result_bytes && alignof(Value) <= alignof(std::max_align_t);

// Worker `rank` of `size` takes the contiguous block [begin, end) of [first, last).
template <class I>
struct HostBlock {
  I begin, end;
};
template <class I>
inline HostBlock<I> static_block(I first, I last, int rank, int size) {
  using U = std::make_unsigned_t<I>;
  const U n = static_cast<U>(last - first);
  const U base = n / static_cast<U>(size);
  const U extra = n % static_cast<U>(size);
  const U r = static_cast<U>(rank);
  const U b = r * base + (r < extra ? r : extra);
  const U e = b + base + (r < extra ? 1 : 0);
  return {static_cast<I>(first + static_cast<I>(b)), static_cast<I>(first + static_cast<I>(e))};
}

// The static block of a range of array indices: boundaries fall on multiples of
// range_block_granule indices from `first` once every worker gets many granules, so that two
// workers never write the same cache line of an array indexed by i (a line that ping-pongs at
// every block boundary costs more than a short launch's whole body).  Range patterns whose
// results must agree bit for bit (a fused run and the unfused reduce) share this split.
inline constexpr int range_block_granule = 16;

template <class I>
inline HostBlock<I> range_block(I first, I last, int rank, int size) {
  using U = std::make_unsigned_t<I>;
  const U n = static_cast<U>(last - first);
  constexpr U g = static_cast<U>(range_block_granule);
  if (size == 1 || n < g * 16u * static_cast<U>(size)) return static_block(first, last, rank, size);
  const HostBlock<U> units = static_block<U>(0, (n + g - 1) / g, rank, size);
  const U b = units.begin * g, e = units.end * g < n ? units.end * g : n;
  return {static_cast<I>(first + static_cast<I>(b)), static_cast<I>(first + static_cast<I>(e))};
}

// Every worker's share of a host launch, run in turn on the calling thread: the blocks and the
// join order of `space`'s workers without waking them (the adaptive dispatch of fused runs,
// impl/fusion/Kokkos_FusionDispatchChoice.hpp).  Satisfies the impl_run_on_workers half of the
// contract above, so host_reduce and the fused drivers accept it in place of the space.
template <class ExecSpace>
struct HostSequentialWorkers {
  const ExecSpace& space;
  int impl_thread_pool_size() const { return space.impl_thread_pool_size(); }
  template <class Body>
  void impl_run_on_workers(const Body& body) const {
    const int size = impl_thread_pool_size();
    for (int rank = 0; rank < size; ++rank) body(rank, size);
  }
};

// Identifiers of host execution space instances: 1 is every back end's default instance; each
// instance made with NewInstance or by partition_space takes the next one.
inline std::atomic<std::uint32_t> g_next_host_instance_id{2};
inline std::uint32_t new_host_instance_id() noexcept {
  return g_next_host_instance_id.fetch_add(1, std::memory_order_relaxed);
}

// Dynamic scheduling: workers claim chunks of `chunk` indices from a shared counter.
template <class I>
class HostChunkQueue {
 public:
  HostChunkQueue(I first, I last, I chunk) : m_next(first), m_last(last), m_chunk(chunk < 1 ? I(1) : chunk) {}
  bool next(HostBlock<I>& block) {
    const I b = m_next.fetch_add(m_chunk, std::memory_order_relaxed);
    if (b >= m_last) return false;
    block.begin = b;
    block.end = (m_last - b) > m_chunk ? static_cast<I>(b + m_chunk) : m_last;
    return true;
  }

 private:
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<I> m_next;
  I m_last, m_chunk;
};

// A default chunk for dynamic schedules: about eight chunks per worker, at least one index.
template <class I>
inline I default_dynamic_chunk(I n, int workers) {
  const I c = n / static_cast<I>(8 * (workers > 0 ? workers : 1));
  return c > 0 ? c : I(1);
}

}  // namespace Kokkos::Impl

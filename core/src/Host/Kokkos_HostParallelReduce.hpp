#pragma once
// parallel_reduce over a RangePolicy on any host back end, and the reduction driver that the
// MDRange (and any other host) reduction reuses.
//
// Each worker reduces its share into local accumulators (registers for scalars; four
// interleaved lanes for commutative reductions of numbers, see HostWorkerAccumulator), then
// publishes it in its own cache-line padded slot; the launching thread joins the slots in rank
// order, so a static schedule gives the same bits for the same thread count.  The slots live in
// a per-thread reusable buffer: no heap allocation per launch.
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_Abort.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <impl/Kokkos_FunctorAnalysis.hpp>
#include <Host/Kokkos_HostReductionLanes.hpp>
#include <impl/Kokkos_LocalFunctorCopy.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

namespace Kokkos::Impl {

template <class CombinedFunctorReducer, class Policy, class ExecSpace>
class ParallelReduce;

// A cache-line aligned scratch buffer for the duration of one launch, reused by later launches
// from the same thread.  A launch nested inside another on the same thread gets its own
// heap buffer, so the outer launch's slots are never overwritten.
class HostScratchLease {
  struct Free {
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t{KOKKOS_IMPL_CACHE_LINE}); }
  };
  using Buffer = std::unique_ptr<std::byte, Free>;
  struct Cache {
    Buffer buffer;
    std::size_t bytes;
    bool busy;
  };
  static Cache& cache() {
    static thread_local Cache c{Buffer(), 0, false};
    return c;
  }
  static std::byte* allocate(std::size_t bytes) {
    return static_cast<std::byte*>(::operator new(bytes > 0 ? bytes : 1, std::align_val_t{KOKKOS_IMPL_CACHE_LINE}));
  }

 public:
  explicit HostScratchLease(std::size_t bytes) {
    Cache& c = cache();
    if (!c.busy) {
      if (c.bytes < bytes) {
        c.buffer.reset(allocate(bytes));
        c.bytes = bytes;
      }
      c.busy = true;
      m_cached = true;
      m_data = c.buffer.get();
    } else {
      m_owned.reset(allocate(bytes));
      m_data = m_owned.get();
    }
  }
  ~HostScratchLease() {
    if (m_cached) cache().busy = false;
  }
  HostScratchLease(const HostScratchLease&) = delete;
  HostScratchLease& operator=(const HostScratchLease&) = delete;

  std::byte* data() const { return m_data; }

 private:
  std::byte* m_data = nullptr;
  Buffer m_owned;
  bool m_cached = false;
};

inline constexpr std::size_t host_slot_stride(std::size_t value_bytes) {
  const std::size_t line = KOKKOS_IMPL_CACHE_LINE;
  return value_bytes == 0 ? line : (value_bytes + line - 1) / line * line;
}

// body(rank, size, acc, reducer) where the body takes the reducer, body(rank, size, acc) otherwise.
template <class WorkerBody, class Reference, class Reducer>
inline void call_worker_body(const WorkerBody& body, int rank, int size, Reference&& acc, const Reducer& reducer) {
  if constexpr (std::is_invocable_v<const WorkerBody&, int, int, Reference&&, const Reducer&>) {
    body(rank, size, static_cast<Reference&&>(acc), reducer);
  } else {
    body(rank, size, static_cast<Reference&&>(acc));
  }
}

// host_reduce of a scalar on a back end whose workers hand a result back with the signal that
// they finished (HostWorkerResults): each worker's value travels in that line, and no slot is
// written on one thread and read on another.  The body is copied into the launch when it is
// small and trivially copyable.  Joined in rank order, as host_reduce's slots are.
// A body may take the reducer as a fourth argument: it then gets the launch's copy of a small
// reducer, and need not read the caller's.
template <class ExecSpace, class Reducer, class WorkerBody>
void host_reduce_in_worker_lines(const ExecSpace& space, const Reducer& reducer,
                                 typename Reducer::pointer_type result, const WorkerBody& body) {
  using value_type = typename Reducer::value_type;
  using pointer_type = typename Reducer::pointer_type;
  const CapturedFunctor<Reducer, 16> worker_reducer(reducer);
  const CapturedFunctor<WorkerBody, 32> worker_body(body);
  space.impl_run_on_workers(
      [worker_reducer, worker_body](int rank, int size) {
        const Reducer& local_reducer = worker_reducer.get();
        value_type acc;
        local_reducer.init(&acc);
        call_worker_body(worker_body.get(), rank, size, acc, local_reducer);
        ::new (ExecSpace::impl_current_worker_result()) value_type(static_cast<value_type&&>(acc));
      },
      [&](int size, void* const* results) {
        const auto value_of = [&](int rank) { return std::launder(static_cast<pointer_type>(results[rank])); };
        const pointer_type total = value_of(0);
        for (int r = 1; r < size; ++r) reducer.join(total, value_of(r));
        reducer.final(total);
        if (result != nullptr) *result = *total;
        if constexpr (!std::is_trivially_destructible_v<value_type>) {
          for (int r = 0; r < size; ++r) value_of(r)->~value_type();
        }
      });
}

// host_reduce through cache-line padded slots in a per-thread scratch buffer.
template <class ExecSpace, class Reducer, class WorkerBody>
void host_reduce_in_slots(const ExecSpace& space, const Reducer& reducer, typename Reducer::pointer_type result,
                          const WorkerBody& body) {
  using value_type = typename Reducer::value_type;
  using pointer_type = typename Reducer::pointer_type;
  constexpr bool scalar = std::is_same_v<typename Reducer::reference_type, value_type&>;

  const std::size_t stride = host_slot_stride(reducer.value_size());
  const int max_workers = space.impl_thread_pool_size();
  HostScratchLease scratch(stride * static_cast<std::size_t>(max_workers));
  std::byte* const base = scratch.data();
  int used = 1;

  space.impl_run_on_workers([&](int rank, int size) {
    if (size > max_workers) Kokkos::abort("Kokkos::parallel_reduce: the back end ran more workers than it reported");
    if (rank == 0) used = size;
    const pointer_type slot = reinterpret_cast<pointer_type>(base + static_cast<std::size_t>(rank) * stride);
    if constexpr (scalar) {
      // A local accumulator lets the compiler keep the running value in a register.
      value_type acc;
      reducer.init(&acc);
      call_worker_body(body, rank, size, acc, reducer);
      new (slot) value_type(static_cast<value_type&&>(acc));
    } else {
      reducer.init(slot);
      call_worker_body(body, rank, size, reducer.reference(slot), reducer);
    }
  });

  const pointer_type total = reinterpret_cast<pointer_type>(base);
  for (int r = 1; r < used; ++r) {
    reducer.join(total, reinterpret_cast<pointer_type>(base + static_cast<std::size_t>(r) * stride));
  }
  reducer.final(total);
  const int count = reducer.value_count();
  if (result != nullptr) {
    for (int k = 0; k < count; ++k) result[k] = total[k];
  }
  if constexpr (!std::is_trivially_destructible_v<value_type>) {
    for (int r = 0; r < used; ++r) {
      const pointer_type slot = reinterpret_cast<pointer_type>(base + static_cast<std::size_t>(r) * stride);
      for (int k = 0; k < count; ++k) slot[k].~value_type();
    }
  }
}

// Runs body(rank, size, acc) on every worker of `space`, where acc is the worker's accumulator
// (reducer.reference() of an init'ed value), joins the workers' values in rank order, applies
// final, and copies value_count() values to `result` unless it is null.  A body may instead take
// (rank, size, acc, reducer), reducer being `reducer` or a copy of it.
template <class ExecSpace, class Reducer, class WorkerBody>
void host_reduce(const ExecSpace& space, const Reducer& reducer, typename Reducer::pointer_type result,
                 const WorkerBody& body) {
  using value_type = typename Reducer::value_type;
  if constexpr (std::is_same_v<typename Reducer::reference_type, value_type&> &&
                HostWorkerResults<ExecSpace, value_type>) {
    host_reduce_in_worker_lines(space, reducer, result, body);
  } else {
    host_reduce_in_slots(space, reducer, result, body);
  }
}

// An empty launch: the result is init followed by final, and no worker needs waking.
template <class Reducer>
void host_reduce_empty(const Reducer& reducer, typename Reducer::pointer_type result) {
  using value_type = typename Reducer::value_type;
  using pointer_type = typename Reducer::pointer_type;
  HostScratchLease scratch(host_slot_stride(reducer.value_size()));
  const pointer_type value = reinterpret_cast<pointer_type>(scratch.data());
  reducer.init(value);
  reducer.final(value);
  const int count = reducer.value_count();
  for (int k = 0; k < count; ++k) {
    if (result != nullptr) result[k] = value[k];
    if constexpr (!std::is_trivially_destructible_v<value_type>) value[k].~value_type();
  }
}

template <class CombinedFunctorReducerType, class... P, HostBackend ExecSpace>
class ParallelReduce<CombinedFunctorReducerType, RangePolicy<P...>, ExecSpace> {
  using Policy = RangePolicy<P...>;
  using Tag = typename Policy::work_tag;
  using I = typename Policy::member_type;
  using Functor = typename CombinedFunctorReducerType::functor_type;
  using Reducer = typename CombinedFunctorReducerType::reducer_type;
  using pointer_type = typename Reducer::pointer_type;
  using reference_type = typename Reducer::reference_type;

  const CombinedFunctorReducerType& m_functor_reducer;
  const Policy& m_policy;
  pointer_type m_result;

 public:
  ParallelReduce(const CombinedFunctorReducerType& functor_reducer, const Policy& policy, pointer_type result)
      : m_functor_reducer(functor_reducer), m_policy(policy), m_result(result) {}

  void execute() const {
    const Functor& f = m_functor_reducer.get_functor();
    const Reducer& reducer = m_functor_reducer.get_reducer();
    const I first = m_policy.begin(), last = m_policy.end();
    const auto& space = m_policy.space();
    if (first == last) {
      host_reduce_empty(reducer, m_result);
    } else if constexpr (std::is_same_v<typename Policy::schedule_type::type, Dynamic>) {
      const int workers = space.impl_thread_pool_size();
      const I chunk = m_policy.chunk_size() > 0 ? static_cast<I>(m_policy.chunk_size())
                                                 : default_dynamic_chunk<I>(last - first, workers);
      HostChunkQueue<I> queue(first, last, chunk);
      host_reduce(space, reducer, m_result, [&](int, int, reference_type acc) {
        HostWorkerAccumulator<Functor, Reducer> worker(reducer, acc);
        with_local_functor_copy(f, [&](const Functor& local) {
          HostBlock<I> block;
          while (queue.next(block)) worker.template run<Tag>(local, block.begin, block.end);
        });
        worker.finish();
      });
    } else {
      // The bounds and a small functor by value, the reducer as an argument: the body then fits
      // a pool's launch line with a copy of the reducer (host_reduce_in_worker_lines).
      const CapturedFunctor<Functor, 8> functor(f);
      host_reduce(space, reducer, m_result,
                  [first, last, functor](int rank, int size, reference_type acc, const Reducer& local_reducer) {
        const HostBlock<I> block = range_block(first, last, rank, size);
        HostWorkerAccumulator<Functor, Reducer> worker(local_reducer, acc);
        with_local_functor_copy(functor.get(),
                                [&](const Functor& local) { worker.template run<Tag>(local, block.begin, block.end); });
        worker.finish();
      });
    }
  }
};

}  // namespace Kokkos::Impl

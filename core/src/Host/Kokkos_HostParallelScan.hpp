#pragma once
// parallel_scan over a RangePolicy on any host back end, in one fork/join:
//   pass 1: each worker sums its static block (operator() with final = false);
//   barrier;
//   pass 2: each worker starts from the join of the lower ranks' sums, in rank order, and
//           replays its block with final = true.
// One worker skips pass 1.  The "Functor" template argument is the
// CombinedFunctorReducer<Functor, FunctorReducer<...>> the front end builds.
#include <Kokkos_ExecPolicy.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <Host/Kokkos_HostParallelReduce.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>

#include <atomic>
#include <thread>
#include <type_traits>

namespace Kokkos::Impl {

// Every worker of one launch arrives once; all are running, so spinning (yielding when the
// machine is oversubscribed) is cheaper than sleeping.
class HostOneShotBarrier {
 public:
  void arrive_and_wait(int size) noexcept {
    m_arrived.fetch_add(1, std::memory_order_acq_rel);
    for (int spins = 0; m_arrived.load(std::memory_order_acquire) < size; ++spins) {
      if (spins > 64) std::this_thread::yield();
    }
  }

 private:
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<int> m_arrived{0};
};

template <class CombinedFunctorReducerType, class Policy>
class HostRangeScan {
  using Tag = typename Policy::work_tag;
  using I = typename Policy::member_type;
  using Functor = typename CombinedFunctorReducerType::functor_type;
  using Reducer = typename CombinedFunctorReducerType::reducer_type;
  using value_type = typename Reducer::value_type;
  static_assert(std::is_same_v<typename Reducer::reference_type, value_type&>,
                "Kokkos::parallel_scan: array (value_type[]) scans are not supported");

 public:
  // Runs the scan; when total is not null it receives the reduction of the whole range.
  static void run(const CombinedFunctorReducerType& functor_reducer, const Policy& policy, value_type* total) {
    const Functor& f = functor_reducer.get_functor();
    const Reducer& reducer = functor_reducer.get_reducer();
    const I first = policy.begin(), last = policy.end();
    const auto& space = policy.space();

    if (first == last) {
      if (total != nullptr) {
        value_type v;
        reducer.init(&v);
        *total = v;
      }
      return;
    }

    const std::size_t stride = host_slot_stride(sizeof(value_type));
    const int max_workers = space.impl_thread_pool_size();
    HostScratchLease scratch(stride * static_cast<std::size_t>(max_workers));
    std::byte* const base = scratch.data();
    auto slot = [&](int r) { return reinterpret_cast<value_type*>(base + static_cast<std::size_t>(r) * stride); };
    HostOneShotBarrier barrier;
    int used = 1;

    space.impl_run_on_workers([&](int rank, int size) {
      if (size > max_workers) Kokkos::abort("Kokkos::parallel_scan: the back end ran more workers than it reported");
      if (rank == 0) used = size;
      const HostBlock<I> block = range_block(first, last, rank, size);
      value_type acc;
      reducer.init(&acc);
      if (size > 1) {
        // The last worker's own sum is needed by nobody.
        if (rank < size - 1) {
          for (I i = block.begin; i < block.end; ++i) invoke_functor<Tag>(f, i, acc, false);
        }
        new (slot(rank)) value_type(acc);
        barrier.arrive_and_wait(size);
        reducer.init(&acc);
        for (int r = 0; r < rank; ++r) reducer.join(&acc, slot(r));
      }
      for (I i = block.begin; i < block.end; ++i) invoke_functor<Tag>(f, i, acc, true);
      if (rank == size - 1 && total != nullptr) *total = acc;
    });
    if constexpr (!std::is_trivially_destructible_v<value_type>) {
      if (used > 1)
        for (int r = 0; r < used; ++r) slot(r)->~value_type();
    }
  }
};

template <class CombinedFunctorReducerType, class... P, HostBackend ExecSpace>
class ParallelScan<CombinedFunctorReducerType, RangePolicy<P...>, ExecSpace> {
  using Policy = RangePolicy<P...>;
  const CombinedFunctorReducerType& m_functor_reducer;
  const Policy& m_policy;

 public:
  ParallelScan(const CombinedFunctorReducerType& functor_reducer, const Policy& policy)
      : m_functor_reducer(functor_reducer), m_policy(policy) {}
  void execute() const { HostRangeScan<CombinedFunctorReducerType, Policy>::run(m_functor_reducer, m_policy, nullptr); }
};

template <class CombinedFunctorReducerType, class... P, HostBackend ExecSpace>
class ParallelScanWithTotal<CombinedFunctorReducerType, RangePolicy<P...>, ExecSpace> {
  using Policy = RangePolicy<P...>;
  using value_type = typename CombinedFunctorReducerType::reducer_type::value_type;
  const CombinedFunctorReducerType& m_functor_reducer;
  const Policy& m_policy;
  value_type* m_total;

 public:
  ParallelScanWithTotal(const CombinedFunctorReducerType& functor_reducer, const Policy& policy, value_type* total)
      : m_functor_reducer(functor_reducer), m_policy(policy), m_total(total) {}
  void execute() const { HostRangeScan<CombinedFunctorReducerType, Policy>::run(m_functor_reducer, m_policy, m_total); }
};

}  // namespace Kokkos::Impl

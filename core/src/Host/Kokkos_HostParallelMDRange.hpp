#pragma once
// parallel_for and parallel_reduce over an MDRangePolicy on any host back end.  Tiles are the
// unit of work: a static schedule gives each worker a contiguous block of tiles (in the
// policy's outer order), a dynamic one hands tiles out one at a time.  Within a tile the
// indices run in the inner order, the fastest dimension in the innermost loop.
#include <Kokkos_MDRangePolicy.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <impl/Kokkos_LocalFunctorCopy.hpp>
#include <Host/Kokkos_HostParallelReduce.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>

#include <type_traits>
#include <utility>

namespace Kokkos::Impl {

template <class Policy>
struct HostMDRangeTiles {
  using I = typename Policy::index_type;
  using Tag = typename Policy::work_tag;
  static constexpr int rank = Policy::rank;
  static constexpr bool right_outer = Policy::outer_direction == Iterate::Right;
  static constexpr bool right_inner = Policy::inner_direction == Iterate::Right;

  // Calls f([tag,] i0, ..., i{rank-1}, extra...) for every index of tile `tile`.
  template <class F, class... Extra>
  static void run_tile(const Policy& p, I tile, const F& f, Extra&&... extra) {
    I lo[rank], hi[rank];
    for (int k = 0; k < rank; ++k) {
      const int d = right_outer ? rank - 1 - k : k;
      const I n = static_cast<I>(p.m_tile_end[d]);
      const I t = tile % n;
      tile /= n;
      lo[d] = static_cast<I>(p.m_lower[d] + t * p.m_tile[d]);
      const I end = static_cast<I>(lo[d] + p.m_tile[d]);
      hi[d] = end < static_cast<I>(p.m_upper[d]) ? end : static_cast<I>(p.m_upper[d]);
    }
    run_box(lo, hi, f, extra...);
  }

  // Calls f([tag,] i0, ..., extra...) for every index of the box [lo, hi), in the inner order.
  template <class F, class... Extra>
  KOKKOS_FORCEINLINE_FUNCTION static void run_box(const I* lo, const I* hi, const F& f, Extra&&... extra) {
    I idx[rank];
    loop<0>(lo, hi, idx, f, std::make_integer_sequence<int, rank>{}, extra...);
  }

 private:
  template <int Level, class F, int... D, class... Extra>
  KOKKOS_FORCEINLINE_FUNCTION static void loop(const I* lo, const I* hi, I* idx, const F& f,
                                               std::integer_sequence<int, D...> seq, Extra&... extra) {
    constexpr int d = right_inner ? Level : rank - 1 - Level;
    if constexpr (Level + 1 == rank) {
      // The innermost loop: a plain counted loop the compiler can vectorise.
      for (I i = lo[d]; i < hi[d]; ++i) {
        idx[d] = i;
        invoke_functor<Tag>(f, static_cast<I>(idx[D])..., extra...);
      }
    } else {
      for (I i = lo[d]; i < hi[d]; ++i) {
        idx[d] = i;
        loop<Level + 1>(lo, hi, idx, f, seq, extra...);
      }
    }
  }
};

// Hands out [0, num_tiles) per the policy's schedule and calls run(tile) for each of this
// worker's tiles.
KOKKOS_IMPL_DISABLE_EXEC_CHECK  // host code; `run` is a host lambda
template <class Policy, class TileQueue, class Run>
KOKKOS_FORCEINLINE_FUNCTION void host_mdrange_worker(const Policy& p, TileQueue& queue, int rank, int size,
                                                     const Run& run) {
  using I = typename Policy::index_type;
  if constexpr (std::is_same_v<typename Policy::schedule_type::type, Dynamic>) {
    HostBlock<I> block;
    while (queue.next(block))
      for (I t = block.begin; t < block.end; ++t) run(t);
  } else {
    (void)queue;
    const HostBlock<I> block = static_block(I(0), static_cast<I>(p.m_num_tiles), rank, size);
    for (I t = block.begin; t < block.end; ++t) run(t);
  }
}

template <class Functor, class... P, HostBackend ExecSpace>
class ParallelFor<Functor, MDRangePolicy<P...>, ExecSpace> {
  using Policy = MDRangePolicy<P...>;
  using Tiles = HostMDRangeTiles<Policy>;
  using I = typename Policy::index_type;

  const Functor& m_functor;
  const Policy& m_policy;

 public:
  ParallelFor(const Functor& functor, const Policy& policy) : m_functor(functor), m_policy(policy) {}

  void execute() const {
    if (m_policy.m_num_tiles == 0) return;
    HostChunkQueue<I> queue(I(0), static_cast<I>(m_policy.m_num_tiles), I(1));
    m_policy.space().impl_run_on_workers([&](int rank, int size) {
      with_local_functor_copy(m_functor, [&](const Functor& f) {
        host_mdrange_worker(m_policy, queue, rank, size, [&](I tile) { Tiles::run_tile(m_policy, tile, f); });
      });
    });
  }
};

template <class CombinedFunctorReducerType, class... P, HostBackend ExecSpace>
class ParallelReduce<CombinedFunctorReducerType, MDRangePolicy<P...>, ExecSpace> {
  using Policy = MDRangePolicy<P...>;
  using Tiles = HostMDRangeTiles<Policy>;
  using I = typename Policy::index_type;
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
    const Reducer& reducer = m_functor_reducer.get_reducer();
    if (m_policy.m_num_tiles == 0) {
      host_reduce_empty(reducer, m_result);
      return;
    }
    const auto& kept = m_functor_reducer.get_functor();
    HostChunkQueue<I> queue(I(0), static_cast<I>(m_policy.m_num_tiles), I(1));
    host_reduce(m_policy.space(), reducer, m_result, [&](int rank, int size, reference_type acc) {
      with_local_functor_copy(kept, [&](const auto& f) {
        host_mdrange_worker(m_policy, queue, rank, size, [&](I tile) { Tiles::run_tile(m_policy, tile, f, acc); });
      });
    });
  }
};

}  // namespace Kokkos::Impl

#pragma once
// parallel_for over a RangePolicy on any host back end.
#include <Kokkos_ExecPolicy.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <impl/Kokkos_LocalFunctorCopy.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>

namespace Kokkos::Impl {

template <class Functor, class... P, HostBackend ExecSpace>
class ParallelFor<Functor, RangePolicy<P...>, ExecSpace> {
  using Policy = RangePolicy<P...>;
  using Tag = typename Policy::work_tag;
  using I = typename Policy::member_type;

  const Functor& m_functor;
  const Policy& m_policy;

  // A function of its own, taking the functor as a restrict reference: g++ then gives the
  // restrict-qualified handles of Restrict and const RandomAccess Views their meaning (stores
  // through other Views do not change what they read), so a gather through them vectorises.
  // Inlined into the worker, the parameter and with it that knowledge were lost.
  KOKKOS_IMPL_NOINLINE static void run_block(const Functor& KOKKOS_RESTRICT f, I b, I e) {
    for (I i = b; i < e; ++i) invoke_functor<Tag>(f, i);
  }

 public:
  ParallelFor(const Functor& functor, const Policy& policy) : m_functor(functor), m_policy(policy) {}

  void execute() const {
    const I first = m_policy.begin(), last = m_policy.end();
    if (first == last) return;
    const auto& space = m_policy.space();
    if constexpr (std::is_same_v<typename Policy::schedule_type::type, Dynamic>) {
      const int workers = space.impl_thread_pool_size();
      const I chunk = m_policy.chunk_size() > 0 ? static_cast<I>(m_policy.chunk_size())
                                                 : default_dynamic_chunk<I>(last - first, workers);
      HostChunkQueue<I> queue(first, last, chunk);
      space.impl_run_on_workers([&](int, int) {
        with_local_functor_copy(m_functor, [&](const Functor& f) {
          HostBlock<I> block;
          while (queue.next(block)) run_block(f, block.begin, block.end);
        });
      });
    } else {
      // The bounds and a small functor by value: the body then fits a pool's launch line.
      const CapturedFunctor<Functor> functor(m_functor);
      space.impl_run_on_workers([first, last, functor](int rank, int size) {
        const HostBlock<I> block = range_block(first, last, rank, size);
        with_local_functor_copy(functor.get(), [&](const Functor& f) { run_block(f, block.begin, block.end); });
      });
    }
  }
};

}  // namespace Kokkos::Impl

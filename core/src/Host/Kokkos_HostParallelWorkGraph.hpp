#pragma once
// parallel_for and parallel_reduce over a WorkGraphPolicy on any host back end: every worker
// runs the shared queue (impl/workgraph/Kokkos_WorkGraphQueue.hpp); a reduction gives each worker its own
// accumulator and joins them at the end (Host/Kokkos_HostParallelReduce.hpp).
#include <Kokkos_WorkGraphPolicy.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <Host/Kokkos_HostParallelReduce.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>
#include <impl/tools/Kokkos_Trace.hpp>

namespace Kokkos::Impl {

// The slice of one work-graph unit (items [b, e) of the ready queue) of `Functor`.
template <class Functor>
KOKKOS_IMPL_NOINLINE void trace_work_graph_unit(std::uint64_t begin, std::int32_t items) {
  TraceEvent event;
  event.kind = TraceKind::work_graph_unit;
  event.begin_ns = begin;
  event.type_name = typeid(Functor).name();
  event.count = static_cast<std::uint64_t>(items);
  trace_record(event);
}

// The loop that calls the functor, kept out of line so that the functor is inlined into it
// (inlined into the scheduler's loop, the calls would be too many for the compiler to inline).

template <class Functor, class... P, HostBackend ExecSpace>
class ParallelFor<Functor, WorkGraphPolicy<P...>, ExecSpace> {
  using Policy = WorkGraphPolicy<P...>;
  using Tag = typename Policy::work_tag;
  using I = typename Policy::index_type;

  const Functor& m_functor;
  const Policy& m_policy;

  KOKKOS_IMPL_NOINLINE static void run_items(const Functor& f, const std::int32_t* items, std::int32_t b,
                                                        std::int32_t e) {
    if (items != nullptr) {
      for (std::int32_t k = b; k < e; ++k) invoke_functor<Tag>(f, static_cast<I>(items[k]));
    } else if (b <= e) {
      for (std::int32_t i = b; i < e; ++i) invoke_functor<Tag>(f, static_cast<I>(i));
    } else {
      for (std::int32_t i = b; i-- > e;) invoke_functor<Tag>(f, static_cast<I>(i));
    }
  }

 public:
  ParallelFor(const Functor& functor, const Policy& policy) : m_functor(functor), m_policy(policy) {}

  void execute() const {
    if (m_policy.num_items() == 0) return;
    const auto& space = m_policy.space();
    const WorkGraphLaunch<Policy> launch(m_policy, space.impl_thread_pool_size(), &work_graph_functor_key<Functor>);
    const Functor& f = m_functor;
    space.impl_run_on_workers([&](int rank, int size) {
      launch.run_worker(rank, size, [&f](const std::int32_t* items, std::int32_t b, std::int32_t e) {
        const std::uint64_t trace_start = trace_begin();
        run_items(f, items, b, e);
        if (KOKKOS_IMPL_UNLIKELY(trace_start != 0)) trace_work_graph_unit<Functor>(trace_start, b <= e ? e - b : b - e);
      });
    });
    launch.finish();
  }
};

template <class CombinedFunctorReducerType, class... P, HostBackend ExecSpace>
class ParallelReduce<CombinedFunctorReducerType, WorkGraphPolicy<P...>, ExecSpace> {
  using Policy = WorkGraphPolicy<P...>;
  using Tag = typename Policy::work_tag;
  using I = typename Policy::index_type;
  using Functor = typename CombinedFunctorReducerType::functor_type;
  using Reducer = typename CombinedFunctorReducerType::reducer_type;
  using value_type = typename Reducer::value_type;
  using pointer_type = typename Reducer::pointer_type;
  using reference_type = typename Reducer::reference_type;

  const CombinedFunctorReducerType& m_functor_reducer;
  const Policy& m_policy;
  pointer_type m_result;

  KOKKOS_IMPL_NOINLINE static void run_items(const Functor& f, const std::int32_t* items, std::int32_t b,
                                                        std::int32_t e, reference_type acc) {
    if constexpr (std::is_same_v<reference_type, value_type&>) {
      // A local accumulator lets the compiler keep the running value in a register.
      value_type local = acc;
      run_range(f, items, b, e, local);
      acc = static_cast<value_type&&>(local);
    } else {
      run_range(f, items, b, e, acc);
    }
  }
  template <class Acc>
  KOKKOS_FORCEINLINE_FUNCTION static void run_range(const Functor& f, const std::int32_t* items, std::int32_t b,
                                                    std::int32_t e, Acc& acc) {
    if (items != nullptr) {
      for (std::int32_t k = b; k < e; ++k) invoke_functor<Tag>(f, static_cast<I>(items[k]), acc);
    } else if (b <= e) {
      for (std::int32_t i = b; i < e; ++i) invoke_functor<Tag>(f, static_cast<I>(i), acc);
    } else {
      for (std::int32_t i = b; i-- > e;) invoke_functor<Tag>(f, static_cast<I>(i), acc);
    }
  }

 public:
  ParallelReduce(const CombinedFunctorReducerType& functor_reducer, const Policy& policy, pointer_type result)
      : m_functor_reducer(functor_reducer), m_policy(policy), m_result(result) {}

  void execute() const {
    const Reducer& reducer = m_functor_reducer.get_reducer();
    if (m_policy.num_items() == 0) {
      host_reduce_empty(reducer, m_result);
      return;
    }
    const Functor& f = m_functor_reducer.get_functor();
    const auto& space = m_policy.space();
    const WorkGraphLaunch<Policy> launch(m_policy, space.impl_thread_pool_size(), &work_graph_functor_key<Functor>);
    host_reduce(space, reducer, m_result, [&](int rank, int size, reference_type acc) {
      launch.run_worker(rank, size, [&f, &acc](const std::int32_t* items, std::int32_t b, std::int32_t e) {
        const std::uint64_t trace_start = trace_begin();
        run_items(f, items, b, e, acc);
        if (KOKKOS_IMPL_UNLIKELY(trace_start != 0)) trace_work_graph_unit<Functor>(trace_start, b <= e ? e - b : b - e);
      });
    });
    launch.finish();
  }
};

}  // namespace Kokkos::Impl


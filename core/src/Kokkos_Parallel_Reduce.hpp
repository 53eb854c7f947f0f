#pragma once
// parallel_reduce front end (Kokkos 4 API):
//
//   parallel_reduce([label,] policy_or_count, functor [, results...]);
//
// A result is a host scalar/struct lvalue (Sum semantics unless the functor defines
// init/join), a rank-0 View, a rank-1 View or pointer for `value_type[]` array reductions, or a
// reducer (Kokkos::Sum, MinLoc, ... or user-defined).  Several results at once combine into one
// reduction whose functor takes one value argument per result.  Without a result the functor
// must name its value type (value_type, or operator()'s value argument); final() still runs.
//
// Every launch goes through Impl::dispatch_parallel_reduce, which builds
//   Impl::ParallelReduce<CombinedFunctorReducer<Functor, Reducer>, Policy, ExecSpace>
// and hands it a host pointer that receives the final value(s).
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_Parallel.hpp>
#include <Kokkos_Reducers.hpp>
#include <Kokkos_View.hpp>
#include <impl/Kokkos_FunctorAnalysis.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <Host/Kokkos_HostParallelReduce.hpp>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

namespace Kokkos {
namespace Impl {

template <class CombinedFunctorReducer, class Policy, class ExecSpace>
class ParallelReduce;

// The single funnel for every parallel_reduce: the fusion layer and Kokkos Tools hook in here.  `result` is a
// host pointer to value_count() values, or null when the result is discarded.
template <class Policy, class CombinedFunctorReducerType>
void dispatch_parallel_reduce(const std::string& label, const Policy& policy,
                              const CombinedFunctorReducerType& functor_reducer,
                              typename CombinedFunctorReducerType::reducer_type::pointer_type result) {
  check_initialized("Kokkos::parallel_reduce");
  const CurrentLaunchLabel current_label(label);
  fusion_before_dispatch(policy, label);
  if constexpr (is_fusion_access_policy<Policy>::value) {
    // Reported where it runs: at once, or at the end of its fused run.
    const FusionLaunchLabel named(label);
    ParallelReduce<CombinedFunctorReducerType, Policy, typename Policy::execution_space>(functor_reducer, policy, result)
        .execute();
    return;
  }
  uint64_t kernel_id = 0;
  Tools::Impl::begin_parallel_reduce<typename CombinedFunctorReducerType::functor_type>(policy, label, kernel_id);
  {
    const TraceLaunchScope trace(TraceKind::parallel_reduce, label,
                                 typeid(typename CombinedFunctorReducerType::functor_type).name());
    ParallelReduce<CombinedFunctorReducerType, Policy, typename Policy::execution_space>(functor_reducer, policy, result)
        .execute();
  }
  Tools::Impl::end_parallel_reduce(kernel_id);
}

template <class Policy, class Functor, class Reducer>
void reduce_with(const std::string& label, const Policy& policy, const Functor& functor, const Reducer& reducer,
                 typename Reducer::pointer_type result) {
  dispatch_parallel_reduce(label, policy, CombinedFunctorReducer<Functor, Reducer>(functor, reducer), result);
}

template <class MemorySpace>
inline constexpr bool host_accessible_v = SpaceAccessibility<HostSpace, MemorySpace>::accessible;
// A result the launch can write: host memory (the launch fences before returning) or memory
// the policy's execution space reaches (a device View: the result stays there, no fence).
template <class Policy, class MemorySpace>
inline constexpr bool result_accessible_v =
    host_accessible_v<MemorySpace> || SpaceAccessibility<typename Policy::execution_space, MemorySpace>::accessible;

// ---- several results at once ------------------------------------------------------------------

template <std::size_t I, class T>
struct CombinedReductionLeaf {
  T value;
};
template <class Seq, class... T>
struct CombinedReductionValueImpl;
template <std::size_t... I, class... T>
struct CombinedReductionValueImpl<std::index_sequence<I...>, T...> : CombinedReductionLeaf<I, T>... {
  template <std::size_t K, class U>
  KOKKOS_FORCEINLINE_FUNCTION static U& leaf(CombinedReductionLeaf<K, U>& l) {
    return l.value;
  }
  template <std::size_t K, class U>
  KOKKOS_FORCEINLINE_FUNCTION static const U& leaf(const CombinedReductionLeaf<K, U>& l) {
    return l.value;
  }
  template <std::size_t K>
  KOKKOS_FORCEINLINE_FUNCTION auto& get() {
    return leaf<K>(*this);
  }
  template <std::size_t K>
  KOKKOS_FORCEINLINE_FUNCTION const auto& get() const {
    return leaf<K>(*this);
  }
};
// One value per result, in argument order.
template <class... T>
using CombinedReductionValue = CombinedReductionValueImpl<std::index_sequence_for<T...>, T...>;

// A reducer made of several reducers; its value is a CombinedReductionValue.
template <class... Reducers>
class CombinedReducer {
  using Storage = CombinedReductionValue<Reducers...>;
  using Seq = std::index_sequence_for<Reducers...>;

 public:
  using reducer = CombinedReducer;
  using value_type = CombinedReductionValue<typename Reducers::value_type...>;

  KOKKOS_INLINE_FUNCTION explicit CombinedReducer(const Reducers&... reducers) : m_reducers{{reducers}...} {}

  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { init(v, Seq{}); }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const { join(dst, src, Seq{}); }
  KOKKOS_INLINE_FUNCTION void final(value_type& v) const { final(v, Seq{}); }

  // Copies each part of v to the place its reducer names.
  void write_results(const value_type& v) const { write_results(v, Seq{}); }

 private:
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void init(value_type& v, std::index_sequence<I...>) const {
    (m_reducers.template get<I>().init(v.template get<I>()), ...);
  }
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src, std::index_sequence<I...>) const {
    (m_reducers.template get<I>().join(dst.template get<I>(), src.template get<I>()), ...);
  }
  template <class R, class V>
  KOKKOS_INLINE_FUNCTION static void final_one(const R& r, V& v) {
    if constexpr (requires { r.final(v); }) r.final(v);
  }
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void final(value_type& v, std::index_sequence<I...>) const {
    (final_one(m_reducers.template get<I>(), v.template get<I>()), ...);
  }
  template <std::size_t... I>
  void write_results(const value_type& v, std::index_sequence<I...>) const {
    ((m_reducers.template get<I>().reference() = v.template get<I>()), ...);
  }

  Storage m_reducers;
};

template <std::size_t K, class A0, class... A>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) nth_argument(A0&& a0, A&&... a) {
  if constexpr (K == 0) {
    return static_cast<A0&&>(a0);
  } else {
    return nth_argument<K - 1>(static_cast<A&&>(a)...);
  }
}

// Presents a functor taking one value argument per result as a functor of one combined value:
// f(args..., combined) calls the user's f(args..., v0, v1, ...).
template <class Functor, std::size_t NumResults>
struct CombinedReductionFunctor {
  Functor functor;

  template <class... A>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(A&&... a) const {
    call(std::make_index_sequence<sizeof...(A) - 1>{}, std::make_index_sequence<NumResults>{},
         static_cast<A&&>(a)...);
  }

 private:
  template <std::size_t... Args, std::size_t... Values, class... A>
  KOKKOS_FORCEINLINE_FUNCTION void call(std::index_sequence<Args...>, std::index_sequence<Values...>,
                                        A&&... a) const {
    auto& combined = nth_argument<sizeof...(A) - 1>(static_cast<A&&>(a)...);
    functor(nth_argument<Args>(static_cast<A&&>(a)...)..., combined.template get<Values>()...);
  }
};

// A result of a multi-result reduction as a reducer: scalars and rank-0 Views reduce by Sum.
template <class Result>
auto as_reducer(Result&& result) {
  using R = std::remove_cvref_t<Result>;
  if constexpr (is_reducer_v<R>) {
    return R(result);
  } else if constexpr (is_view_v<R>) {
    static_assert(R::rank() == 0, "Kokkos::parallel_reduce with several results: each View must be rank 0");
    static_assert(host_accessible_v<typename R::memory_space>,
                  "Kokkos::parallel_reduce with several results: each View must be in host-accessible memory");
    static_assert(!std::is_const_v<typename R::value_type>, "Kokkos::parallel_reduce: the result View is const");
    return Sum<typename R::value_type, typename R::memory_space>(result);
  } else {
    static_assert(std::is_lvalue_reference_v<Result&&> && !std::is_const_v<std::remove_reference_t<Result>>,
                  "Kokkos::parallel_reduce: a scalar result must be a non-const lvalue");
    return Sum<R, HostSpace>(result);
  }
}

// ---- one result ----------------------------------------------------------------------------

template <class Policy, class Functor, class Result>
void reduce_into(const std::string& label, const Policy& policy, const Functor& functor, Result&& result) {
  using R = std::remove_cvref_t<Result>;
  using Tag = typename Policy::work_tag;
  constexpr bool functor_typed = functor_has_value_type<Functor>::value;
  using FunctorValue = typename functor_value_type<Functor, FunctorPatternInterface::REDUCE, Tag>::type;

  if constexpr (is_reducer_v<R>) {
    static_assert(result_accessible_v<Policy, typename R::result_view_type::memory_space>,
                  "Kokkos::parallel_reduce: the reducer's result must be in memory the host or the policy's "
                  "execution space can access");
    using Adapter = ReducerAdapter<R>;
    // Through the result View when the reducer has one: its data may live on a device.
    if constexpr (requires { result.view().data(); }) {
      reduce_with(label, policy, functor, Adapter(result), result.view().data());
    } else {
      reduce_with(label, policy, functor, Adapter(result), &result.reference());
    }
  } else if constexpr (is_view_v<R>) {
    using V = typename R::value_type;
    static_assert(!std::is_const_v<V>, "Kokkos::parallel_reduce: the result View is const");
    static_assert(result_accessible_v<Policy, typename R::memory_space>,
                  "Kokkos::parallel_reduce: the result View must be in memory the host or the policy's execution "
                  "space can access");
    static_assert(R::rank() <= 1, "Kokkos::parallel_reduce: a result View must be rank 0 or rank 1 (arrays)");
    if constexpr (R::rank() == 0) {
      static_assert(!functor_typed || std::is_same_v<FunctorValue, V>,
                    "Kokkos::parallel_reduce: the result View's value type differs from the functor's value_type");
      reduce_with(label, policy, functor, FunctorReducer<Functor, V, Tag>(functor), result.data());
    } else {
      static_assert(!functor_typed || (std::is_array_v<FunctorValue> &&
                                       std::is_same_v<std::remove_cv_t<std::remove_extent_t<FunctorValue>>, V>),
                    "Kokkos::parallel_reduce: a rank-1 result View needs an array reduction (value_type T[] "
                    "with value_count) of the same element type");
      using Reducer = FunctorReducer<Functor, V[], Tag>;
      const Reducer reducer = functor_typed ? Reducer(functor) : Reducer(functor, static_cast<int>(result.extent(0)));
      if (static_cast<std::size_t>(reducer.value_count()) > result.extent(0)) {
        throw_runtime_exception("Kokkos::parallel_reduce: the result View has extent " +
                                std::to_string(result.extent(0)) + " but the reduction has value_count " +
                                std::to_string(reducer.value_count()));
      }
      reduce_with(label, policy, functor, reducer, result.data());
    }
  } else if constexpr (std::is_pointer_v<R> || std::is_array_v<R>) {
    using V = std::remove_cv_t<std::remove_pointer_t<std::decay_t<R>>>;
    static_assert(!std::is_const_v<std::remove_pointer_t<std::decay_t<R>>>,
                  "Kokkos::parallel_reduce: the result pointer is to const");
    static_assert(!functor_typed || std::is_same_v<std::remove_cv_t<std::remove_extent_t<FunctorValue>>, V>,
                  "Kokkos::parallel_reduce: the result pointer's element type differs from the functor's value_type");
    using ValueType = std::conditional_t<functor_typed, FunctorValue, V>;
    const FunctorReducer<Functor, ValueType, Tag> reducer(functor);
    if constexpr (std::is_array_v<R>) {
      if (static_cast<std::size_t>(reducer.value_count()) > std::extent_v<R>) {
        throw_runtime_exception("Kokkos::parallel_reduce: the result array has " + std::to_string(std::extent_v<R>) +
                                " elements but the reduction has value_count " +
                                std::to_string(reducer.value_count()));
      }
    }
    reduce_with(label, policy, functor, reducer, static_cast<V*>(result));
  } else {
    static_assert(std::is_lvalue_reference_v<Result&&> && !std::is_const_v<std::remove_reference_t<Result>>,
                  "Kokkos::parallel_reduce: a scalar result must be a non-const lvalue (pass a reducer or a "
                  "View otherwise)");
    static_assert(!functor_typed || std::is_same_v<FunctorValue, R>,
                  "Kokkos::parallel_reduce: the result type differs from the functor's value_type");
    reduce_with(label, policy, functor, FunctorReducer<Functor, R, Tag>(functor), &result);
  }
}

template <class Policy, class Functor>
void reduce_discarding_result(const std::string& label, const Policy& policy, const Functor& functor) {
  using Tag = typename Policy::work_tag;
  using ValueType = typename functor_value_type<Functor, FunctorPatternInterface::REDUCE, Tag>::type;
  using Reducer = FunctorReducer<Functor, ValueType, Tag>;
  reduce_with(label, policy, functor, Reducer(functor), typename Reducer::pointer_type(nullptr));
}

template <class Policy, class Functor, class... Results>
void reduce_into_many(const std::string& label, const Policy& policy, const Functor& functor,
                      Results&&... results) {
  using Combined = CombinedReducer<decltype(as_reducer(static_cast<Results&&>(results)))...>;
  using Wrapped = CombinedReductionFunctor<Functor, sizeof...(Results)>;
  const Combined combined(as_reducer(static_cast<Results&&>(results))...);
  typename Combined::value_type value;
  reduce_with(label, policy, Wrapped{functor}, ReducerAdapter<Combined>(combined), &value);
  combined.write_results(value);
}

template <class Policy, class Functor, class... Results>
void parallel_reduce_impl(const std::string& label, const Policy& policy, const Functor& functor,
                          Results&&... results) {
  if constexpr (sizeof...(Results) == 0) {
    reduce_discarding_result(label, policy, functor);
  } else if constexpr (sizeof...(Results) == 1) {
    reduce_into(label, policy, functor, static_cast<Results&&>(results)...);
  } else {
    reduce_into_many(label, policy, functor, static_cast<Results&&>(results)...);
  }
}

template <class T>
concept policy_or_count = is_execution_policy_v<T> || std::is_integral_v<T>;

}  // namespace Impl

template <class PolicyOrCount, class Functor, class... Results>
  requires Impl::policy_or_count<PolicyOrCount>
inline void parallel_reduce(const std::string& label, const PolicyOrCount& policy, const Functor& functor,
                            Results&&... results) {
  Impl::parallel_reduce_impl(label, Impl::to_policy(policy), functor, static_cast<Results&&>(results)...);
}

template <class PolicyOrCount, class Functor, class... Results>
  requires Impl::policy_or_count<PolicyOrCount>
inline void parallel_reduce(const PolicyOrCount& policy, const Functor& functor, Results&&... results) {
  Impl::parallel_reduce_impl(std::string(), Impl::to_policy(policy), functor, static_cast<Results&&>(results)...);
}

}  // namespace Kokkos

#include <Kokkos_Parallel_Scan.hpp>

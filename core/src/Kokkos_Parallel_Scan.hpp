#pragma once
// parallel_scan front end (Kokkos 4 API):
//
//   parallel_scan([label,] policy_or_count, functor);
//   parallel_scan([label,] policy_or_count, functor, total);   // total: scalar lvalue or rank-0 View
//   parallel_scan(count, functor, label);                       // Kokkos' older spelling
//
// The functor is called as f([tag,] i, update, final): update is value_type& holding the
// exclusive prefix on entry; with final == true it is the true prefix and the functor may
// write it out; adding its contribution to update yields the inclusive prefix.  value_type is
// the functor's, else operator()'s update argument's, else the total's.  Optional init/join as
// for parallel_reduce.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_Parallel.hpp>
#include <Kokkos_View.hpp>
#include <impl/Kokkos_FunctorAnalysis.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <Host/Kokkos_HostParallelScan.hpp>

#include <string>
#include <type_traits>

namespace Kokkos {
namespace Impl {

template <class Functor, class Tag, class Fallback>
using scan_value_type_t =
    std::conditional_t<std::is_void_v<typename functor_value_type<Functor, FunctorPatternInterface::SCAN, Tag>::type>,
                       Fallback, typename functor_value_type<Functor, FunctorPatternInterface::SCAN, Tag>::type>;

// The single funnel for every parallel_scan (fusion ends a run at a scan).  total, when not
// null, receives the reduction over the whole range.
template <class Policy, class CombinedFunctorReducerType>
void dispatch_parallel_scan(const std::string& label, const Policy& policy,
                            const CombinedFunctorReducerType& functor_reducer,
                            typename CombinedFunctorReducerType::reducer_type::value_type* total) {
  check_initialized("Kokkos::parallel_scan");
  const CurrentLaunchLabel current_label(label);
  fusion_before_dispatch(policy);
  using ExecSpace = typename Policy::execution_space;
  uint64_t kernel_id = 0;
  Tools::Impl::begin_parallel_scan<typename CombinedFunctorReducerType::functor_type>(policy, label, kernel_id);
  {
    const TraceLaunchScope trace(TraceKind::parallel_scan, label,
                                 typeid(typename CombinedFunctorReducerType::functor_type).name());
    if (total == nullptr) {
      ParallelScan<CombinedFunctorReducerType, Policy, ExecSpace>(functor_reducer, policy).execute();
    } else {
      ParallelScanWithTotal<CombinedFunctorReducerType, Policy, ExecSpace>(functor_reducer, policy, total).execute();
    }
  }
  Tools::Impl::end_parallel_scan(kernel_id);
}

template <class Policy, class Functor, class Fallback = void>
void scan_impl(const std::string& label, const Policy& policy, const Functor& functor,
               scan_value_type_t<Functor, typename Policy::work_tag, Fallback>* total) {
  static_assert(is_range_policy<Policy>::value, "Kokkos::parallel_scan: only RangePolicy (or a count) is supported");
  using ValueType = scan_value_type_t<Functor, typename Policy::work_tag, Fallback>;
  static_assert(!std::is_void_v<ValueType>,
                "Kokkos::parallel_scan: cannot tell the scan's value type; give the functor a value_type or a "
                "non-template operator()(i, value_type& update, const bool final)");
  static_assert(!std::is_array_v<ValueType>, "Kokkos::parallel_scan: array (value_type[]) scans are not supported");
  using Reducer = FunctorReducer<Functor, ValueType, typename Policy::work_tag>;
  dispatch_parallel_scan(label, policy, CombinedFunctorReducer<Functor, Reducer>(functor, Reducer(functor)), total);
}

template <class Policy, class Functor, class Total>
void scan_with_total(const std::string& label, const Policy& policy, const Functor& functor, Total& total) {
  if constexpr (is_view_v<Total>) {
    using V = typename Total::value_type;
    static_assert(Total::rank() == 0, "Kokkos::parallel_scan: the total View must be rank 0");
    static_assert(!std::is_const_v<V>, "Kokkos::parallel_scan: the total View is const");
    static_assert(SpaceAccessibility<HostSpace, typename Total::memory_space>::accessible,
                  "Kokkos::parallel_scan: the total View must be in host-accessible memory");
    static_assert(std::is_same_v<scan_value_type_t<Functor, typename Policy::work_tag, V>, V>,
                  "Kokkos::parallel_scan: the total's type differs from the scan's value type");
    scan_impl<Policy, Functor, V>(label, policy, functor, total.data());
  } else {
    static_assert(!std::is_const_v<Total>, "Kokkos::parallel_scan: the total must be a non-const lvalue");
    static_assert(std::is_same_v<scan_value_type_t<Functor, typename Policy::work_tag, Total>, Total>,
                  "Kokkos::parallel_scan: the total's type differs from the scan's value type");
    scan_impl<Policy, Functor, Total>(label, policy, functor, &total);
  }
}

}  // namespace Impl

template <class PolicyOrCount, class Functor>
  requires(is_execution_policy_v<PolicyOrCount> || std::is_integral_v<PolicyOrCount>)
inline void parallel_scan(const std::string& label, const PolicyOrCount& policy, const Functor& functor) {
  Impl::scan_impl(label, Impl::to_policy(policy), functor, nullptr);
}

template <class PolicyOrCount, class Functor>
  requires(is_execution_policy_v<PolicyOrCount> || std::is_integral_v<PolicyOrCount>)
inline void parallel_scan(const PolicyOrCount& policy, const Functor& functor) {
  Impl::scan_impl(std::string(), Impl::to_policy(policy), functor, nullptr);
}

template <class PolicyOrCount, class Functor, class Total>
  requires((is_execution_policy_v<PolicyOrCount> || std::is_integral_v<PolicyOrCount>) &&
           !std::is_convertible_v<const Total&, std::string>)
inline void parallel_scan(const std::string& label, const PolicyOrCount& policy, const Functor& functor,
                          Total& total) {
  Impl::scan_with_total(label, Impl::to_policy(policy), functor, total);
}

template <class PolicyOrCount, class Functor, class Total>
  requires((is_execution_policy_v<PolicyOrCount> || std::is_integral_v<PolicyOrCount>) &&
           !std::is_convertible_v<const Total&, std::string>)
inline void parallel_scan(const PolicyOrCount& policy, const Functor& functor, Total& total) {
  Impl::scan_with_total(std::string(), Impl::to_policy(policy), functor, total);
}

// Kokkos' older form with the label last.
template <class Count, class Functor>
  requires std::is_integral_v<Count>
inline void parallel_scan(const Count work_count, const Functor& functor, const std::string& label) {
  Impl::scan_impl(label, Impl::to_policy(work_count), functor, nullptr);
}

}  // namespace Kokkos

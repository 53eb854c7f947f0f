#pragma once
// parallel_for and parallel_scan front ends: label handling, integral work counts, and
// dispatch to the back end's ParallelFor / ParallelScan specialisation.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <Host/Kokkos_HostParallelRange.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/tools/Kokkos_Profiling.hpp>
#include <impl/tools/Kokkos_Trace.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace Kokkos {
namespace Impl {

// Turns the policy argument of a front end into a policy: an integral work count n
// means RangePolicy<DefaultExecutionSpace>(0, n).
template <class PolicyOrCount>
decltype(auto) to_policy(const PolicyOrCount& p) {
  if constexpr (std::is_integral_v<PolicyOrCount>) {
    return RangePolicy<DefaultExecutionSpace, IndexType<std::int64_t>>(0, static_cast<std::int64_t>(p));
  } else {
    static_assert(is_execution_policy_v<PolicyOrCount>,
                  "Kokkos::parallel_*: the first argument must be an execution policy or an integral work count");
    return (p);
  }
}

// The single funnel for every parallel_for: the fusion layer and Kokkos Tools hook in here.
template <class Policy, class Functor>
void dispatch_parallel_for(const std::string& label, const Policy& policy, const Functor& functor) {
  check_initialized("Kokkos::parallel_for");
  const CurrentLaunchLabel current_label(label);
  fusion_before_dispatch(policy, label);
  if constexpr (is_fusion_access_policy<Policy>::value) {
    // Reported where it runs: at once, or in its fused run.
    const FusionLaunchLabel named(label);
    ParallelFor<Functor, Policy, typename Policy::execution_space>(functor, policy).execute();
    return;
  }
  uint64_t kernel_id = 0;
  Tools::Impl::begin_parallel_for<Functor>(policy, label, kernel_id);
  {
    const TraceLaunchScope trace(TraceKind::parallel_for, label, typeid(Functor).name());
    ParallelFor<Functor, Policy, typename Policy::execution_space>(functor, policy).execute();
  }
  Tools::Impl::end_parallel_for(kernel_id);
}

}  // namespace Impl

template <class PolicyOrCount, class Functor,
          class = std::enable_if_t<is_execution_policy_v<PolicyOrCount> || std::is_integral_v<PolicyOrCount>>>
inline void parallel_for(const std::string& label, const PolicyOrCount& policy, const Functor& functor) {
  Impl::dispatch_parallel_for(label, Impl::to_policy(policy), functor);
}

template <class PolicyOrCount, class Functor,
          class = std::enable_if_t<is_execution_policy_v<PolicyOrCount> || std::is_integral_v<PolicyOrCount>>>
inline void parallel_for(const PolicyOrCount& policy, const Functor& functor) {
  Impl::dispatch_parallel_for(std::string(), Impl::to_policy(policy), functor);
}

}  // namespace Kokkos

#pragma once
// The dispatch class templates each back end specialises for each policy, as in Kokkos:
//   ParallelFor<Functor, Policy, ExecSpace>{functor, policy}.execute();
//   ParallelReduce<CombinedFunctorReducer, Policy, ExecSpace>  (see Kokkos_Parallel_Reduce.hpp)
//   ParallelScan<CombinedFunctorReducer, Policy, ExecSpace>{combined, policy}.execute();
//   ParallelScanWithTotal<CombinedFunctorReducer, Policy, ExecSpace>{combined, policy, total}
#include <string>

namespace Kokkos::Impl {
template <class Functor, class Policy, class ExecSpace>
class ParallelFor;
template <class Functor, class Policy, class ExecSpace>
class ParallelScan;
template <class Functor, class Policy, class ExecSpace>
class ParallelScanWithTotal;

// The label of the launch in progress on this host thread: the front ends set it
// (dispatch_parallel_for/reduce/scan) so that a back end's host-side errors name the launch, as
// Kokkos' do.
inline thread_local const std::string* t_current_launch_label = nullptr;

class CurrentLaunchLabel {
 public:
  explicit CurrentLaunchLabel(const std::string& label) noexcept : m_previous(t_current_launch_label) {
    t_current_launch_label = &label;
  }
  ~CurrentLaunchLabel() { t_current_launch_label = m_previous; }
  CurrentLaunchLabel(const CurrentLaunchLabel&) = delete;
  CurrentLaunchLabel& operator=(const CurrentLaunchLabel&) = delete;

 private:
  const std::string* m_previous;
};

}  // namespace Kokkos::Impl

#pragma once
// The dispatch class templates each back end specialises for each policy, as in Kokkos:
//   ParallelFor<Functor, Policy, ExecSpace>{functor, policy}.execute();
//   ParallelReduce<CombinedFunctorReducer, Policy, ExecSpace>  (see Kokkos_Parallel_Reduce.hpp)
//   ParallelScan<CombinedFunctorReducer, Policy, ExecSpace>{combined, policy}.execute();
//   ParallelScanWithTotal<CombinedFunctorReducer, Policy, ExecSpace>{combined, policy, total}
namespace Kokkos::Impl {
template <class Functor, class Policy, class ExecSpace>
class ParallelFor;
template <class Functor, class Policy, class ExecSpace>
class ParallelScan;
template <class Functor, class Policy, class ExecSpace>
class ParallelScanWithTotal;
}  // namespace Kokkos::Impl

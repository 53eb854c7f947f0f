#pragma once
// Kokkos::sort of a rank-1 View (LayoutLeft, LayoutRight or LayoutStride), ascending or by a
// comparator, as in Kokkos 4.6.  On host back ends it is a parallel merge sort over the
// space's workers (sorting/impl/Kokkos_SortImpl.hpp); it is not stable.
//
//   Kokkos::sort(view);                                  // fences before and after
//   Kokkos::sort(exec, view);                            // ordered on exec
//   Kokkos::sort(exec, view, KOKKOS_LAMBDA(double a, double b) { return a > b; });
//   Kokkos::sort(view, begin, end);                      // only [begin, end)
#include <sorting/impl/Kokkos_SortImpl.hpp>
#include <Kokkos_Core.hpp>
#include <cstddef>

namespace Kokkos {

template <class ExecutionSpace, class DataType, class... Properties>
std::enable_if_t<is_execution_space_v<ExecutionSpace>> sort(const ExecutionSpace& exec,
                                                            const View<DataType, Properties...>& view) {
  using ViewType = View<DataType, Properties...>;
  Impl::static_assert_is_admissible_to_kokkos_sort(view);
  static_assert(SpaceAccessibility<ExecutionSpace, typename ViewType::memory_space>::accessible,
                "Kokkos::sort: execution space instance is not able to access the memory space of the View argument!");
  Impl::sort_view(exec, view, Impl::SortLess());
}

template <class DataType, class... Properties>
void sort(const View<DataType, Properties...>& view) {
  using ViewType = View<DataType, Properties...>;
  Impl::static_assert_is_admissible_to_kokkos_sort(view);
  Kokkos::fence("Kokkos::sort: before");
  typename ViewType::execution_space exec;
  sort(exec, view);
  exec.fence("Kokkos::sort: fence after sorting");
}

template <class ExecutionSpace, class ComparatorType, class DataType, class... Properties>
std::enable_if_t<is_execution_space_v<ExecutionSpace>> sort(const ExecutionSpace& exec,
                                                            const View<DataType, Properties...>& view,
                                                            const ComparatorType& comparator) {
  using ViewType = View<DataType, Properties...>;
  Impl::static_assert_is_admissible_to_kokkos_sort(view);
  static_assert(SpaceAccessibility<ExecutionSpace, typename ViewType::memory_space>::accessible,
                "Kokkos::sort: execution space instance is not able to access the memory space of the View argument!");
  Impl::sort_view(exec, view, comparator);
}

template <class ComparatorType, class DataType, class... Properties>
std::enable_if_t<!is_execution_space_v<ComparatorType>> sort(const View<DataType, Properties...>& view,
                                                             const ComparatorType& comparator) {
  using ViewType = View<DataType, Properties...>;
  Impl::static_assert_is_admissible_to_kokkos_sort(view);
  Kokkos::fence("Kokkos::sort with comparator: before");
  typename ViewType::execution_space exec;
  sort(exec, view, comparator);
  exec.fence("Kokkos::sort with comparator: fence after sorting");
}

// Sorts only view(begin) .. view(end - 1).
template <class ExecutionSpace, class ViewType>
std::enable_if_t<is_execution_space_v<ExecutionSpace>> sort(const ExecutionSpace& exec, ViewType view,
                                                            std::size_t const begin, std::size_t const end) {
  static_assert(ViewType::rank == 1, "Kokkos::sort: currently only supports rank-1 Views.");
  if (end > view.extent(0) || begin > end) {
    Impl::throw_runtime_exception("Kokkos::sort(exec, view, begin, end): [begin, end) is not a range of the view");
  }
  Impl::sort_view(exec, subview(view, std::make_pair(begin, end)), Impl::SortLess());
}

template <class ViewType>
void sort(ViewType view, std::size_t const begin, std::size_t const end) {
  static_assert(ViewType::rank == 1, "Kokkos::sort: currently only supports rank-1 Views.");
  Kokkos::fence("Kokkos::sort: before");
  typename ViewType::execution_space exec;
  sort(exec, view, begin, end);
  exec.fence("Kokkos::Sort: fence after sorting");
}

}  // namespace Kokkos

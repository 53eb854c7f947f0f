#pragma once
// Kokkos::Experimental::sort_by_key(exec, keys, values[, comparator]): sorts keys and applies the
// same permutation to values (rank-1 Views of equal extent), as in Kokkos 4.6.  Not stable.
#include <sorting/impl/Kokkos_SortByKeyImpl.hpp>
#include <Kokkos_Core.hpp>

namespace Kokkos::Experimental {

template <class ExecutionSpace, class ComparatorType, class KeysDataType, class... KeysProperties,
          class ValuesDataType, class... ValuesProperties>
void sort_by_key(const ExecutionSpace& exec, const Kokkos::View<KeysDataType, KeysProperties...>& keys,
                 const Kokkos::View<ValuesDataType, ValuesProperties...>& values, const ComparatorType& comparator) {
  using KeysType = Kokkos::View<KeysDataType, KeysProperties...>;
  using ValuesType = Kokkos::View<ValuesDataType, ValuesProperties...>;
  ::Kokkos::Impl::static_assert_is_admissible_to_kokkos_sort_by_key(keys);
  ::Kokkos::Impl::static_assert_is_admissible_to_kokkos_sort_by_key(values);
  static_assert(SpaceAccessibility<ExecutionSpace, typename KeysType::memory_space>::accessible,
                "Kokkos::sort: execution space instance is not able to access the memory space of the keys View argument!");
  static_assert(SpaceAccessibility<ExecutionSpace, typename ValuesType::memory_space>::accessible,
                "Kokkos::sort: execution space instance is not able to access the memory space of the values View argument!");
  static_assert(KeysType::static_extent(0) == 0 || ValuesType::static_extent(0) == 0 ||
                KeysType::static_extent(0) == ValuesType::static_extent(0));
  ::Kokkos::Impl::sort_by_key_view(exec, keys, values, comparator);
}


template <class ExecutionSpace, class KeysDataType, class... KeysProperties, class ValuesDataType,
          class... ValuesProperties>
void sort_by_key(const ExecutionSpace& exec, const Kokkos::View<KeysDataType, KeysProperties...>& keys,
                 const Kokkos::View<ValuesDataType, ValuesProperties...>& values) {
  sort_by_key(exec, keys, values, ::Kokkos::Impl::SortLess());
}

}  // namespace Kokkos::Experimental

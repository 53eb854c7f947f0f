#pragma once
// sort_by_key on host back ends: the (key, value) pairs are gathered into one array, sorted by
// key with the parallel merge sort, and scattered back; moving pairs together keeps every
// comparison and move local, unlike sorting a permutation of indices.
#include <sorting/impl/Kokkos_SortImpl.hpp>
#include <Kokkos_Core.hpp>
#include <string>

namespace Kokkos::Impl {

template <class T>
constexpr inline bool is_admissible_to_kokkos_sort_by_key = is_admissible_to_kokkos_sort<T>;

template <class ViewType>
constexpr void static_assert_is_admissible_to_kokkos_sort_by_key(const ViewType&) {
  static_assert(is_admissible_to_kokkos_sort_by_key<ViewType>,
                "Kokkos::sort_by_key only accepts 1D values View with LayoutRight, LayoutLeft or LayoutStride.");
}

template <class Key, class Value>
struct KeyValuePair {
  Key key;
  Value value;
};

template <class Compare>
struct CompareKeys {
  Compare comp;
  template <class Pair>
  bool operator()(const Pair& a, const Pair& b) const {
    return comp(a.key, b.key);
  }
};

template <class ExecutionSpace, class KeysView, class ValuesView, class Compare>
void sort_by_key_view(const ExecutionSpace& exec, const KeysView& keys, const ValuesView& values, const Compare& comp) {
  if (values.extent(0) != keys.extent(0)) {
    Kokkos::abort(("values and keys extents must be the same. The values extent is " + std::to_string(values.extent(0)) +
                   ", and the keys extent is " + std::to_string(keys.extent(0)) + ".")
                      .c_str());
  }
  const std::size_t n = keys.extent(0);
  if (n <= 1) return;
  if constexpr (is_host_backend<ExecutionSpace>::value) {
    using Pair = KeyValuePair<typename KeysView::non_const_value_type, typename ValuesView::non_const_value_type>;
    View<Pair*, HostSpace> pairs(view_alloc("Kokkos::sort_by_key::pairs", WithoutInitializing), n);
    parallel_for(
        "Kokkos::sort_by_key::gather", RangePolicy<ExecutionSpace>(exec, 0, n),
        KOKKOS_LAMBDA(std::size_t i) { pairs(i) = Pair{keys(i), values(i)}; });
    exec.fence("Kokkos::sort_by_key: gathered");
    host_parallel_sort(exec, pairs.data(), n, CompareKeys<Compare>{comp});
    parallel_for(
        "Kokkos::sort_by_key::scatter", RangePolicy<ExecutionSpace>(exec, 0, n), KOKKOS_LAMBDA(std::size_t i) {
          keys(i) = pairs(i).key;
          values(i) = pairs(i).value;
        });
  } else {
    auto host_keys = create_mirror_view_and_copy(view_alloc(HostSpace()), keys);
    auto host_values = create_mirror_view_and_copy(view_alloc(HostSpace()), values);
    sort_by_key_view(DefaultHostExecutionSpace(), host_keys, host_values, comp);
    DefaultHostExecutionSpace().fence("Kokkos::sort_by_key: sorted on the host");
    deep_copy(exec, keys, host_keys);
    deep_copy(exec, values, host_values);
  }
}

}  // namespace Kokkos::Impl

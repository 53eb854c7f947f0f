#pragma once
// Kokkos::BinSort: sorts by bins.  create_permute_vector() counts the keys per bin, scans the
// counts into bin offsets and places each key's index in its bin (optionally sorting each bin
// with the bin operator's comparator); sort(values) then permutes any View's leading dimension
// with that permutation.
//
//   using Op = Kokkos::BinOp1D<KeyView>;
//   Kokkos::BinSort<KeyView, Op> bin_sort(keys, Op(nbins, key_min, key_max), /*sort_within_bins*/ true);
//   bin_sort.create_permute_vector();
//   bin_sort.sort(keys);
//   bin_sort.sort(values);          // the same permutation
//
// Without sort_within_bins the order of the keys within a bin depends on the schedule.
#include <sorting/Kokkos_BinOpsPublicAPI.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace Kokkos {

namespace Impl {
// dst(d, ...) = src(s, ...) for every trailing index of rank-R Views.
template <class Dst, class Src, class... Index>
KOKKOS_INLINE_FUNCTION void copy_leading_row(const Dst& dst, std::size_t d, const Src& src, std::size_t s,
                                             Index... index) {
  constexpr std::size_t fixed = 1 + sizeof...(Index);
  if constexpr (fixed == Dst::rank) {
    dst(d, index...) = src(s, index...);
  } else {
    for (std::size_t k = 0; k < dst.extent(fixed); ++k) copy_leading_row(dst, d, src, s, index..., k);
  }
}
}  // namespace Impl

template <class KeyViewType, class BinSortOp, class Space = typename KeyViewType::device_type,
          class SizeType = typename KeyViewType::memory_space::size_type>
class BinSort {
 public:
  using exec_space = typename Space::execution_space;
  using bin_op_type = BinSortOp;
  using size_type = SizeType;
  using value_type = size_type;

  using offset_type = Kokkos::View<size_type*, Space>;
  using bin_count_type = Kokkos::View<const int*, Space>;
  using const_key_view_type = typename KeyViewType::const_type;
  using const_rnd_key_view_type =
      Kokkos::View<typename KeyViewType::const_data_type, typename KeyViewType::array_layout,
                   typename KeyViewType::device_type, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
  using non_const_key_scalar = typename KeyViewType::non_const_value_type;
  using const_key_scalar = typename KeyViewType::const_value_type;
  using bin_count_atomic_type = Kokkos::View<int*, Space, Kokkos::MemoryTraits<Kokkos::Atomic>>;

  struct bin_count_tag {};
  struct bin_offset_tag {};
  struct bin_binning_tag {};
  struct bin_sort_bins_tag {};

 private:
  const_key_view_type keys;
  const_rnd_key_view_type keys_rnd;

 public:
  BinSortOp bin_op;
  offset_type bin_offsets;
  bin_count_atomic_type bin_count_atomic;
  bin_count_type bin_count_const;
  offset_type sort_order;

  int range_begin;
  int range_end;
  bool sort_within_bins;

  BinSort() = delete;

  // Bins keys(range_begin) .. keys(range_end - 1).
  template <typename ExecutionSpace>
  BinSort(const ExecutionSpace& exec, const_key_view_type keys_, int range_begin_, int range_end_, BinSortOp bin_op_,
          bool sort_within_bins_ = false)
      : keys(keys_),
        keys_rnd(keys_),
        bin_op(bin_op_),
        range_begin(range_begin_),
        range_end(range_end_),
        sort_within_bins(sort_within_bins_) {
    static_assert(SpaceAccessibility<ExecutionSpace, typename Space::memory_space>::accessible,
                  "The provided execution space must be able to access the memory space BinSort was initialized with!");
    if (bin_op.max_bins() <= 0) {
      Impl::throw_runtime_exception("The number of bins in the BinSortOp object must be greater than 0!");
    }
    if (range_begin < 0 || range_end < range_begin || static_cast<std::size_t>(range_end) > keys.extent(0)) {
      Impl::throw_runtime_exception("Kokkos::BinSort: [range_begin, range_end) is not a range of the keys");
    }
    bin_count_atomic = Kokkos::View<int*, Space>("Kokkos::SortImpl::BinSortFunctor::bin_count", bin_op.max_bins());
    bin_count_const = bin_count_atomic;
    bin_offsets = offset_type(view_alloc(exec, WithoutInitializing, "Kokkos::SortImpl::BinSortFunctor::bin_offsets"),
                              bin_op.max_bins());
    sort_order = offset_type(view_alloc(exec, WithoutInitializing, "Kokkos::SortImpl::BinSortFunctor::sort_order"),
                             range_end - range_begin);
  }

  BinSort(const_key_view_type keys_, int range_begin_, int range_end_, BinSortOp bin_op_,
          bool sort_within_bins_ = false)
      : BinSort(exec_space{}, keys_, range_begin_, range_end_, bin_op_, sort_within_bins_) {}

  template <typename ExecutionSpace>
  BinSort(const ExecutionSpace& exec, const_key_view_type keys_, BinSortOp bin_op_, bool sort_within_bins_ = false)
      : BinSort(exec, keys_, 0, static_cast<int>(keys_.extent(0)), bin_op_, sort_within_bins_) {}

  BinSort(const_key_view_type keys_, BinSortOp bin_op_, bool sort_within_bins_ = false)
      : BinSort(exec_space{}, keys_, bin_op_, sort_within_bins_) {}

  // Counts, offsets and the permutation; call again after the keys change.
  template <class ExecutionSpace>
  void create_permute_vector(const ExecutionSpace& exec) {
    static_assert(SpaceAccessibility<ExecutionSpace, typename Space::memory_space>::accessible,
                  "The provided execution space must be able to access the memory space BinSort was initialized with!");
    const std::size_t len = range_end - range_begin;
    Kokkos::deep_copy(exec, bin_count_atomic, 0);
    Kokkos::parallel_for("Kokkos::Sort::BinCount", Kokkos::RangePolicy<ExecutionSpace, bin_count_tag>(exec, 0, len),
                         *this);
    Kokkos::parallel_scan("Kokkos::Sort::BinOffset",
                          Kokkos::RangePolicy<ExecutionSpace, bin_offset_tag>(exec, 0, bin_op.max_bins()), *this);
    Kokkos::deep_copy(exec, bin_count_atomic, 0);
    Kokkos::parallel_for("Kokkos::Sort::BinBinning",
                         Kokkos::RangePolicy<ExecutionSpace, bin_binning_tag>(exec, 0, len), *this);
    if (sort_within_bins) {
      Kokkos::parallel_for("Kokkos::Sort::BinSort",
                           Kokkos::RangePolicy<ExecutionSpace, bin_sort_bins_tag>(exec, 0, bin_op.max_bins()), *this);
    }
  }

  void create_permute_vector() {
    Kokkos::fence("Kokkos::Binsort::create_permute_vector: before");
    exec_space e{};
    create_permute_vector(e);
    e.fence("Kokkos::Binsort::create_permute_vector: after");
  }

  // Permutes values(values_range_begin) .. values(values_range_end - 1) (along the first
  // dimension) as the keys' range was sorted.
  template <class ExecutionSpace, class ValuesViewType>
  void sort(const ExecutionSpace& exec, ValuesViewType const& values, int values_range_begin,
            int values_range_end) const {
    static_assert(SpaceAccessibility<ExecutionSpace, typename Space::memory_space>::accessible,
                  "The provided execution space must be able to access the memory space BinSort was initialized with!");
    static_assert(SpaceAccessibility<ExecutionSpace, typename ValuesViewType::memory_space>::accessible,
                  "The provided execution space must be able to access the memory space of the View argument!");
    if (values.extent(0) == 0) return;
    const std::size_t len = range_end - range_begin;
    if (values_range_end - values_range_begin < 0 ||
        static_cast<std::size_t>(values_range_end - values_range_begin) != len) {
      Kokkos::abort("BinSort::sort: values range length != permutation vector length");
    }
    using scratch_view_type =
        Kokkos::View<typename ValuesViewType::non_const_data_type, typename ValuesViewType::device_type>;
    scratch_view_type sorted(
        view_alloc(exec, WithoutInitializing, "Kokkos::SortImpl::BinSortFunctor::sorted_values"),
        values.rank_dynamic > 0 ? len : KOKKOS_IMPL_CTOR_DEFAULT_ARG,
        values.rank_dynamic > 1 ? values.extent(1) : KOKKOS_IMPL_CTOR_DEFAULT_ARG,
        values.rank_dynamic > 2 ? values.extent(2) : KOKKOS_IMPL_CTOR_DEFAULT_ARG,
        values.rank_dynamic > 3 ? values.extent(3) : KOKKOS_IMPL_CTOR_DEFAULT_ARG,
        values.rank_dynamic > 4 ? values.extent(4) : KOKKOS_IMPL_CTOR_DEFAULT_ARG,
        values.rank_dynamic > 5 ? values.extent(5) : KOKKOS_IMPL_CTOR_DEFAULT_ARG,
        values.rank_dynamic > 6 ? values.extent(6) : KOKKOS_IMPL_CTOR_DEFAULT_ARG,
        values.rank_dynamic > 7 ? values.extent(7) : KOKKOS_IMPL_CTOR_DEFAULT_ARG);
    const std::size_t src_offset = values_range_begin - range_begin;
    const std::size_t dst_offset = values_range_begin;
    const offset_type order = sort_order;
    parallel_for(
        "Kokkos::Sort::CopyPermute", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, len),
        KOKKOS_LAMBDA(std::size_t i) { Impl::copy_leading_row(sorted, i, values, src_offset + order(i)); });
    parallel_for(
        "Kokkos::Sort::Copy", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, len),
        KOKKOS_LAMBDA(std::size_t i) { Impl::copy_leading_row(values, dst_offset + i, sorted, i); });
  }

  template <class ValuesViewType>
  void sort(ValuesViewType const& values, int values_range_begin, int values_range_end) const {
    Kokkos::fence("Kokkos::Binsort::sort: before");
    exec_space exec;
    sort(exec, values, values_range_begin, values_range_end);
    exec.fence("Kokkos::BinSort:sort: after");
  }

  template <class ExecutionSpace, class ValuesViewType>
  std::enable_if_t<is_execution_space_v<ExecutionSpace>> sort(ExecutionSpace const& exec,
                                                              ValuesViewType const& values) const {
    this->sort(exec, values, 0, range_end - range_begin);
  }

  template <class ValuesViewType>
  void sort(ValuesViewType const& values) const {
    this->sort(values, 0, range_end - range_begin);
  }

  // Index (into the keys) of the i-th key in sorted order.
  KOKKOS_INLINE_FUNCTION offset_type get_permute_vector() const { return sort_order; }
  // Where each bin starts in the permutation.
  KOKKOS_INLINE_FUNCTION offset_type get_bin_offsets() const { return bin_offsets; }
  // How many keys each bin holds.
  KOKKOS_INLINE_FUNCTION bin_count_type get_bin_count() const { return bin_count_const; }

  KOKKOS_INLINE_FUNCTION void operator()(const bin_count_tag&, const int i) const {
    bin_count_atomic(bin_op.bin(keys, range_begin + i))++;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const bin_offset_tag&, const int i, value_type& offset,
                                         const bool& final) const {
    if (final) bin_offsets(i) = offset;
    offset += bin_count_const(i);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const bin_binning_tag&, const int i) const {
    const int j = range_begin + i;
    const int bin = bin_op.bin(keys, j);
    const int count = bin_count_atomic(bin)++;
    sort_order(bin_offsets(bin) + count) = j;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const bin_sort_bins_tag&, const int i) const {
    const int bin_size = bin_count_const(i);
    if (bin_size <= 1) return;
    const size_type lower = bin_offsets(i), upper = lower + bin_size;
    auto before = [this](size_type p, size_type q) { return bin_op(keys_rnd, p, q); };
    // Large bins: std::sort on the host; small bins (and the device): insertion sort.
    if (bin_size > 10) {
      KOKKOS_IF_ON_HOST((std::sort(sort_order.data() + lower, sort_order.data() + upper, before); return;))
    }
    for (size_type k = lower + 1; k < upper; ++k) {
      const size_type moving = sort_order(k);
      size_type j = k;
      while (j > lower && before(moving, sort_order(j - 1))) {
        sort_order(j) = sort_order(j - 1);
        --j;
      }
      sort_order(j) = moving;
    }
  }
};

}  // namespace Kokkos

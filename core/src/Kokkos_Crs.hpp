#pragma once
// Crs: a compressed row storage graph of Views, and the functions that build one (Kokkos 4 API,
// seed 001 §3.3):
//
//   Kokkos::Crs<DataType, Arg1Type, Arg2Type = void, SizeType = ...> graph;
//     graph.row_map   View<SizeType*>   numRows()+1 offsets; row i is [row_map(i), row_map(i+1))
//     graph.entries   View<DataType*>   the column index of each entry
//
//   count_and_fill_crs(crs, nrows, f);   f(i, nullptr) returns the length of row i, then
//                                        f(i, &crs.entries(crs.row_map(i))) fills it
//   transpose_crs(out, in);              out has an entry j -> i for every entry i -> j of in
//   get_crs_transpose_counts(counts, in), get_crs_row_map_from_counts(row_map, counts)
//
// All are found by argument-dependent lookup.  Unlike Kokkos, transpose_crs lists each row of
// the result in ascending order, so the result does not depend on the thread count.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_Atomic.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_Parallel.hpp>
#include <Kokkos_Parallel_Reduce.hpp>
#include <Kokkos_View.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace Kokkos {

template <class DataType, class Arg1Type, class Arg2Type = void,
          class SizeType = typename ViewTraits<DataType*, Arg1Type, Arg2Type, void>::size_type>
class Crs {
 protected:
  using traits = ViewTraits<DataType*, Arg1Type, Arg2Type, void>;

 public:
  using data_type = DataType;
  using array_layout = typename traits::array_layout;
  using execution_space = typename traits::execution_space;
  using memory_space = typename traits::memory_space;
  using device_type = typename traits::device_type;
  using size_type = SizeType;

  using staticcrsgraph_type = Crs<DataType, Arg1Type, Arg2Type, SizeType>;
  using HostMirror = Crs<DataType, array_layout, typename traits::host_mirror_space, SizeType>;
  using row_map_type = View<size_type*, array_layout, device_type>;
  using entries_type = View<DataType*, array_layout, device_type>;

  row_map_type row_map;
  entries_type entries;

  KOKKOS_DEFAULTED_FUNCTION Crs() = default;
  KOKKOS_DEFAULTED_FUNCTION Crs(const Crs&) = default;
  KOKKOS_DEFAULTED_FUNCTION Crs(Crs&&) = default;
  KOKKOS_DEFAULTED_FUNCTION Crs& operator=(const Crs&) = default;
  KOKKOS_DEFAULTED_FUNCTION Crs& operator=(Crs&&) = default;
  KOKKOS_DEFAULTED_FUNCTION ~Crs() = default;

  // Kokkos' argument order: row map first, then entries.
  template <class EntriesType, class RowMapType>
  KOKKOS_INLINE_FUNCTION Crs(const RowMapType& row_map_, const EntriesType& entries_)
      : row_map(row_map_), entries(entries_) {}

  // A row map of extent 0 is an empty graph, as in Kokkos.
  KOKKOS_INLINE_FUNCTION size_type numRows() const {
    return (row_map.extent(0) != 0) ? static_cast<size_type>(row_map.extent(0) - 1) : static_cast<size_type>(0);
  }
};

template <class T>
struct is_crs : std::false_type {};
template <class D, class A1, class A2, class S>
struct is_crs<Crs<D, A1, A2, S>> : std::true_type {};

namespace Impl {

// Sorts a[0, n) ascending in place; callable from a functor (no recursion, no allocation).
template <class T, class I>
KOKKOS_INLINE_FUNCTION void crs_sort_row(T* a, I n) {
  if (n < 2) return;
  if (n <= 32) {
    for (I i = 1; i < n; ++i) {
      const T v = a[i];
      I j = i;
      for (; j > 0 && v < a[j - 1]; --j) a[j] = a[j - 1];
      a[j] = v;
    }
    return;
  }
  auto sift_down = [a](I root, I end) {
    while (2 * root + 1 < end) {
      I child = 2 * root + 1;
      if (child + 1 < end && a[child] < a[child + 1]) ++child;
      if (!(a[root] < a[child])) return;
      const T t = a[root];
      a[root] = a[child];
      a[child] = t;
      root = child;
    }
  };
  for (I start = n / 2; start-- > 0;) sift_down(start, n);
  for (I end = n - 1; end > 0; --end) {
    const T t = a[0];
    a[0] = a[end];
    a[end] = t;
    sift_down(I(0), end);
  }
}

template <class InCrs, class OutCounts>
struct GetCrsTransposeCounts {
  using size_type = typename InCrs::size_type;
  InCrs in;
  OutCounts out;
  KOKKOS_INLINE_FUNCTION void operator()(size_type k) const {
    const auto j = in.entries(k);
    if (j < 0 || static_cast<size_type>(j) >= static_cast<size_type>(out.extent(0))) {
      Kokkos::abort("Kokkos::transpose_crs: an entry of the input graph is outside [0, numRows())");
    }
    Kokkos::atomic_increment(&out(j));
  }
};

template <class InCounts, class OutRowMap>
struct CrsRowMapFromCounts {
  using value_type = typename OutRowMap::non_const_value_type;
  InCounts in;
  OutRowMap out;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, value_type& update, const bool final) const {
    update += static_cast<value_type>(in(i));
    if (final) out(i + 1) = update;
  }
};

template <class InCrs, class OutCrs, class Cursor>
struct FillCrsTransposeEntries {
  using size_type = typename InCrs::size_type;
  InCrs in;
  OutCrs out;
  Cursor cursor;
  KOKKOS_INLINE_FUNCTION void operator()(size_type i) const {
    for (size_type k = in.row_map(i); k < in.row_map(i + 1); ++k) {
      const auto j = in.entries(k);
      const auto slot = Kokkos::atomic_fetch_add(&cursor(j), static_cast<typename Cursor::value_type>(1));
      out.entries(slot) = static_cast<typename OutCrs::data_type>(i);
    }
  }
};

template <class CrsType>
struct SortCrsRows {
  using size_type = typename CrsType::size_type;
  CrsType crs;
  KOKKOS_INLINE_FUNCTION void operator()(size_type i) const {
    const size_type b = crs.row_map(i), e = crs.row_map(i + 1);
    if (e - b > 1) crs_sort_row(&crs.entries(b), e - b);
  }
};

template <class CrsType, class Functor>
struct CountAndFill {
  using size_type = typename CrsType::size_type;
  using data_type = typename CrsType::data_type;
  using counts_type = View<size_type*, typename CrsType::device_type>;
  struct Count {};
  struct Fill {};

  CrsType crs;
  Functor functor;
  counts_type counts;

  KOKKOS_INLINE_FUNCTION void operator()(Count, size_type i) const {
    counts(i) = static_cast<size_type>(functor(i, static_cast<data_type*>(nullptr)));
  }
  KOKKOS_INLINE_FUNCTION void operator()(Fill, size_type i) const {
    const size_type j = crs.row_map(i);
    // An empty row at the end would address entries(entries.extent(0)): pass null instead.
    data_type* fill = (static_cast<std::size_t>(j) == crs.entries.extent(0)) ? nullptr : &crs.entries(j);
    functor(i, fill);
  }
};

template <class SizeType, class ExecSpace, class Tag = void>
using CrsRangePolicy = RangePolicy<ExecSpace, IndexType<SizeType>, Tag>;

}  // namespace Impl

// counts(j) = the number of entries equal to j in `in`, i.e. the row lengths of its transpose.
template <class OutCounts, class DataType, class Arg1Type, class Arg2Type, class SizeType>
void get_crs_transpose_counts(OutCounts& out, const Crs<DataType, Arg1Type, Arg2Type, SizeType>& in,
                              const std::string& name = "transpose_counts") {
  using InCrs = Crs<DataType, Arg1Type, Arg2Type, SizeType>;
  using execution_space = typename InCrs::execution_space;
  out = OutCounts(name, in.numRows());
  const auto nnz = static_cast<SizeType>(in.entries.extent(0));
  parallel_for("Kokkos::get_crs_transpose_counts", Impl::CrsRangePolicy<SizeType, execution_space>(0, nnz),
               Impl::GetCrsTransposeCounts<InCrs, OutCounts>{in, out});
}

// row_map(0) = 0, row_map(i+1) = counts(0) + ... + counts(i); returns the total.
template <class OutRowMap, class InCounts>
typename OutRowMap::value_type get_crs_row_map_from_counts(OutRowMap& out, const InCounts& in,
                                                           const std::string& name = "row_map") {
  using value_type = typename OutRowMap::non_const_value_type;
  using execution_space = typename OutRowMap::execution_space;
  const std::int64_t n = static_cast<std::int64_t>(in.extent(0));
  out = OutRowMap(name, static_cast<std::size_t>(n + 1));  // initialised: row_map(0) = 0
  value_type total = 0;
  if (n > 0) {
    parallel_scan("Kokkos::get_crs_row_map_from_counts",
                  RangePolicy<execution_space, IndexType<std::int64_t>>(0, n),
                  Impl::CrsRowMapFromCounts<InCounts, OutRowMap>{in, out}, total);
  }
  return total;
}

// out = the transpose of in: an entry i in row j of out for each entry j in row i of in.
// `in` must be square: every entry in [0, in.numRows()).
template <class DataType, class Arg1Type, class Arg2Type, class SizeType>
void transpose_crs(Crs<DataType, Arg1Type, Arg2Type, SizeType>& out,
                   const Crs<DataType, Arg1Type, Arg2Type, SizeType>& in) {
  using crs_type = Crs<DataType, Arg1Type, Arg2Type, SizeType>;
  using execution_space = typename crs_type::execution_space;
  using counts_type = View<SizeType*, typename crs_type::device_type>;
  const SizeType n = in.numRows();
  crs_type result;
  {
    counts_type counts;
    get_crs_transpose_counts(counts, in);
    get_crs_row_map_from_counts(result.row_map, counts, "transpose_row_map");
  }
  result.entries = typename crs_type::entries_type("transpose_entries", in.entries.extent(0));
  if (n > 0) {
    counts_type cursor(view_alloc("transpose_cursor", WithoutInitializing), n);
    deep_copy(cursor, subview(result.row_map, std::pair<std::size_t, std::size_t>(0, n)));
    parallel_for("Kokkos::transpose_crs::fill", Impl::CrsRangePolicy<SizeType, execution_space>(0, n),
                 Impl::FillCrsTransposeEntries<crs_type, crs_type, counts_type>{in, result, cursor});
    parallel_for("Kokkos::transpose_crs::sort", Impl::CrsRangePolicy<SizeType, execution_space>(0, n),
                 Impl::SortCrsRows<crs_type>{result});
  }
  // Assigned last so that transpose_crs(g, g) reads the old g throughout.
  out = result;
}

// Fills `crs` with nrows rows from f: f(i, nullptr) returns the length of row i; then
// f(i, fill) writes that many entries to fill (null when the row is empty and last).
template <class CrsType, class Functor>
void count_and_fill_crs(CrsType& crs, typename CrsType::size_type nrows, const Functor& f) {
  static_assert(is_crs<CrsType>::value, "Kokkos::count_and_fill_crs: the first argument must be a Kokkos::Crs");
  using size_type = typename CrsType::size_type;
  using execution_space = typename CrsType::execution_space;
  using Closure = Impl::CountAndFill<CrsType, Functor>;
  Closure closure{crs, f, typename Closure::counts_type("counts", static_cast<std::size_t>(nrows))};
  parallel_for("Kokkos::count_and_fill_crs::count",
               Impl::CrsRangePolicy<size_type, execution_space, typename Closure::Count>(0, nrows), closure);
  const auto nentries = get_crs_row_map_from_counts(closure.crs.row_map, closure.counts);
  closure.counts = typename Closure::counts_type();
  closure.crs.entries = typename CrsType::entries_type("entries", static_cast<std::size_t>(nentries));
  parallel_for("Kokkos::count_and_fill_crs::fill",
               Impl::CrsRangePolicy<size_type, execution_space, typename Closure::Fill>(0, nrows), closure);
  crs = closure.crs;
}

}  // namespace Kokkos

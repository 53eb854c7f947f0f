#pragma once
// StaticCrsGraph: a compressed row storage graph whose structure does not change after
// construction, compatible with Kokkos' container of that name:
//
//   using Graph = Kokkos::StaticCrsGraph<int, Space>;
//   Graph g = Kokkos::create_staticcrsgraph<Graph>("g", std::vector<std::vector<int>>{{1, 2}, {}, {0}});
//   g.numRows(); g.row_map(i); g.entries(k); g.rowConst(i).colidx(j);
//   g.create_block_partitioning(num_blocks);   // fills g.row_block_offsets
//
// Unlike Kokkos::Crs, row_map is a View of const (the structure is fixed) and the graph can be
// split into blocks of rows of balanced cost.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace Kokkos {

// A read-only view of one row of a graph: its entries are colidx(0) .. colidx(length - 1).
template <class GraphType>
struct GraphRowViewConst {
  using ordinal_type = const typename GraphType::data_type;

 private:
  ordinal_type* colidx_;
  const int stride_;

 public:
  KOKKOS_INLINE_FUNCTION GraphRowViewConst(ordinal_type* const colidx_in, const ordinal_type& stride,
                                           const ordinal_type& count)
      : colidx_(colidx_in), stride_(static_cast<int>(stride)), length(count) {}

  template <class OffsetType>
  KOKKOS_INLINE_FUNCTION GraphRowViewConst(const typename GraphType::entries_type& colidx_in,
                                           const ordinal_type& stride, const ordinal_type& count,
                                           const OffsetType& idx,
                                           std::enable_if_t<std::is_integral_v<OffsetType>, int> = 0)
      : colidx_(&colidx_in(idx)), stride_(static_cast<int>(stride)), length(count) {}

  const ordinal_type length;

  KOKKOS_INLINE_FUNCTION ordinal_type& colidx(const ordinal_type& i) const { return colidx_[i * stride_]; }
  KOKKOS_INLINE_FUNCTION ordinal_type& operator()(const ordinal_type& i) const { return colidx(i); }
};

template <class DataType, class Arg1Type, class Arg2Type = void, class Arg3Type = void,
          class SizeType = typename ViewTraits<DataType*, Arg1Type, Arg2Type, Arg3Type>::size_type>
class StaticCrsGraph {
 private:
  using traits = ViewTraits<DataType*, Arg1Type, Arg2Type, Arg3Type>;

 public:
  using data_type = DataType;
  using array_layout = typename traits::array_layout;
  using execution_space = typename traits::execution_space;
  using device_type = typename traits::device_type;
  using memory_traits = typename traits::memory_traits;
  using size_type = SizeType;

  using staticcrsgraph_type = StaticCrsGraph<DataType, Arg1Type, Arg2Type, Arg3Type, SizeType>;
  using HostMirror =
      StaticCrsGraph<data_type, array_layout, typename traits::host_mirror_space, memory_traits, size_type>;

  using row_map_type = View<const size_type*, array_layout, device_type, memory_traits>;
  using entries_type = View<data_type*, array_layout, device_type, memory_traits>;
  using row_block_type = View<const size_type*, array_layout, device_type, memory_traits>;

  entries_type entries;
  row_map_type row_map;
  row_block_type row_block_offsets;

  KOKKOS_INLINE_FUNCTION StaticCrsGraph() : entries(), row_map(), row_block_offsets() {}
  KOKKOS_DEFAULTED_FUNCTION StaticCrsGraph(const StaticCrsGraph&) = default;
  KOKKOS_DEFAULTED_FUNCTION StaticCrsGraph& operator=(const StaticCrsGraph&) = default;
  KOKKOS_DEFAULTED_FUNCTION ~StaticCrsGraph() = default;

  // Kokkos' argument order: entries first, then the row map.
  template <class EntriesType, class RowMapType>
  KOKKOS_INLINE_FUNCTION StaticCrsGraph(const EntriesType& entries_, const RowMapType& row_map_)
      : entries(entries_), row_map(row_map_), row_block_offsets() {}

  KOKKOS_INLINE_FUNCTION size_type numRows() const {
    return (row_map.extent(0) != 0) ? static_cast<size_type>(row_map.extent(0) - 1) : static_cast<size_type>(0);
  }

  KOKKOS_INLINE_FUNCTION constexpr bool is_allocated() const {
    return row_map.data() != nullptr && (entries.data() != nullptr || entries.extent(0) == 0);
  }

  KOKKOS_INLINE_FUNCTION GraphRowViewConst<StaticCrsGraph> rowConst(const data_type i) const {
    const size_type start = row_map(i);
    const data_type count = static_cast<data_type>(row_map(i + 1) - start);
    if (count == 0) return GraphRowViewConst<StaticCrsGraph>(nullptr, 1, 0);
    return GraphRowViewConst<StaticCrsGraph>(entries, 1, count, start);
  }

  // Splits the rows into num_blocks consecutive blocks of about equal cost, a row costing its
  // entries plus fix_cost_per_row: block b is rows [row_block_offsets(b), row_block_offsets(b+1)).
  void create_block_partitioning(size_type num_blocks, size_type fix_cost_per_row = 4) {
    if (num_blocks < 1) {
      Impl::throw_runtime_exception("Kokkos::StaticCrsGraph::create_block_partitioning: num_blocks = " +
                                    std::to_string(num_blocks) + " must be at least 1");
    }
    View<size_type*, array_layout, device_type, memory_traits> block_offsets(
        "StaticCrsGraph::load_balance_offsets", static_cast<std::size_t>(num_blocks) + 1);
    auto host_offsets = create_mirror_view(block_offsets);
    auto host_rows = create_mirror_view_and_copy(HostSpace(), row_map);
    const size_type n = numRows();
    const double total = static_cast<double>(n > 0 ? host_rows(n) : 0) + static_cast<double>(fix_cost_per_row) * n;
    const double per_block = total / static_cast<double>(num_blocks);
    size_type row = 0;
    host_offsets(0) = 0;
    for (size_type b = 1; b < num_blocks; ++b) {
      const double target = per_block * static_cast<double>(b);
      while (row < n && static_cast<double>(host_rows(row + 1)) + static_cast<double>(fix_cost_per_row) * (row + 1) <=
                            target) {
        ++row;
      }
      host_offsets(b) = row;
    }
    host_offsets(num_blocks) = n;
    deep_copy(block_offsets, host_offsets);
    row_block_offsets = block_offsets;
  }
};

template <class T>
struct is_staticcrsgraph : std::false_type {};
template <class D, class A1, class A2, class A3, class S>
struct is_staticcrsgraph<StaticCrsGraph<D, A1, A2, A3, S>> : std::true_type {};

namespace Impl {
template <class GraphType>
GraphType staticcrsgraph_from_lengths(const std::string& label, std::size_t rows, const auto& length_of) {
  using size_type = typename GraphType::size_type;
  using row_map_type = View<size_type*, typename GraphType::array_layout, typename GraphType::device_type>;
  row_map_type row_map(label + "_row_map", rows + 1);
  auto host = create_mirror_view(row_map);
  host(0) = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    const auto len = length_of(i);
    if (len < 0) {
      throw_runtime_exception("Kokkos::create_staticcrsgraph: row " + std::to_string(i) + " has negative length " +
                              std::to_string(len));
    }
    host(i + 1) = host(i) + static_cast<size_type>(len);
  }
  deep_copy(row_map, host);
  GraphType g;
  g.row_map = row_map;
  g.entries = typename GraphType::entries_type(label, static_cast<std::size_t>(host(rows)));
  return g;
}
}  // namespace Impl

// A graph with input[i] entries in row i; the entries are zero, for the caller to fill.
template <class StaticCrsGraphType, class InputSizeType>
typename StaticCrsGraphType::staticcrsgraph_type create_staticcrsgraph(const std::string& label,
                                                                       const std::vector<InputSizeType>& input) {
  using graph_type = typename StaticCrsGraphType::staticcrsgraph_type;
  return Impl::staticcrsgraph_from_lengths<graph_type>(label, input.size(),
                                                       [&](std::size_t i) { return input[i]; });
}

// A graph whose row i holds input[i].
template <class StaticCrsGraphType, class InputSizeType>
typename StaticCrsGraphType::staticcrsgraph_type create_staticcrsgraph(
    const std::string& label, const std::vector<std::vector<InputSizeType>>& input) {
  using graph_type = typename StaticCrsGraphType::staticcrsgraph_type;
  graph_type g = Impl::staticcrsgraph_from_lengths<graph_type>(
      label, input.size(), [&](std::size_t i) { return static_cast<std::int64_t>(input[i].size()); });
  auto entries = create_mirror_view(g.entries);
  std::size_t k = 0;
  for (const auto& row : input) {
    for (const auto& e : row) entries(k++) = static_cast<typename graph_type::data_type>(e);
  }
  deep_copy(g.entries, entries);
  return g;
}

template <class DataType, class Arg1Type, class Arg2Type, class Arg3Type, class SizeType>
typename StaticCrsGraph<DataType, Arg1Type, Arg2Type, Arg3Type, SizeType>::HostMirror create_mirror(
    const StaticCrsGraph<DataType, Arg1Type, Arg2Type, Arg3Type, SizeType>& view) {
  using mirror_type = typename StaticCrsGraph<DataType, Arg1Type, Arg2Type, Arg3Type, SizeType>::HostMirror;
  auto entries = create_mirror(view.entries);
  deep_copy(entries, view.entries);
  auto row_map = create_mirror(view.row_map);
  deep_copy(row_map, view.row_map);
  mirror_type out(entries, typename mirror_type::row_map_type(row_map));
  if (view.row_block_offsets.extent(0) > 0) {
    auto blocks = create_mirror(view.row_block_offsets);
    deep_copy(blocks, view.row_block_offsets);
    out.row_block_offsets = blocks;
  }
  return out;
}

// The graph itself when it already lives in host-accessible memory, a copy otherwise.
template <class DataType, class Arg1Type, class Arg2Type, class Arg3Type, class SizeType>
typename StaticCrsGraph<DataType, Arg1Type, Arg2Type, Arg3Type, SizeType>::HostMirror create_mirror_view(
    const StaticCrsGraph<DataType, Arg1Type, Arg2Type, Arg3Type, SizeType>& view) {
  using graph_type = StaticCrsGraph<DataType, Arg1Type, Arg2Type, Arg3Type, SizeType>;
  using mirror_type = typename graph_type::HostMirror;
  if constexpr (std::is_same_v<typename mirror_type::entries_type::memory_space,
                               typename graph_type::entries_type::memory_space>) {
    mirror_type out(view.entries, view.row_map);
    out.row_block_offsets = view.row_block_offsets;
    return out;
  } else {
    return create_mirror(view);
  }
}

// The largest entry of the graph (0 for a graph without entries).
template <class GraphType>
typename GraphType::data_type maximum_entry(const GraphType& graph) {
  using data_type = typename GraphType::data_type;
  using execution_space = typename GraphType::execution_space;
  data_type result = 0;
  const auto entries = graph.entries;
  if (entries.extent(0) > 0) {
    parallel_reduce(
        "Kokkos::maximum_entry", RangePolicy<execution_space, IndexType<std::int64_t>>(0, entries.extent(0)),
        KOKKOS_LAMBDA(std::int64_t k, data_type & m) {
          if (m < entries(k)) m = entries(k);
        },
        Max<data_type>(result));
  }
  return result;
}

}  // namespace Kokkos

#pragma once
// MDRangePolicy: a rank 2-6 box [lower, upper) cut into tiles (Kokkos 4 API).
//
//   parallel_for(MDRangePolicy<Rank<3>>({0, 0, 0}, {n0, n1, n2}, {4, 4, 64}), f);  // f(i, j, k)
//
// Rank<N, Outer, Inner>: Outer orders the tiles, Inner the indices within a tile; Right means
// the last index varies fastest (the host default).  A tile extent of 0 (or no tile argument)
// picks the host default: the whole extent in the fastest dimension, 2 in the others.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_Array.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace Kokkos {

enum class Iterate { Default, Left, Right };

template <class ExecSpace>
struct default_outer_direction {
  using type = Iterate;
  static constexpr Iterate value = Iterate::Right;
};
template <class ExecSpace>
struct default_inner_direction {
  using type = Iterate;
  static constexpr Iterate value = Iterate::Right;
};

template <unsigned N, Iterate OuterDir = Iterate::Default, Iterate InnerDir = Iterate::Default>
struct Rank {
  static_assert(N != 0u, "Kokkos::Rank: rank 0 is undefined");
  static_assert(N != 1u, "Kokkos::Rank: rank 1 is not a multi-dimensional range; use RangePolicy");
  static_assert(N < 7u, "Kokkos::Rank: ranks above 6 are not supported");
  using kokkos_impl_iteration_pattern = void;  // lets PolicyTraits recognise it
  using iteration_pattern = Rank<N, OuterDir, InnerDir>;
  static constexpr int rank = N;
  static constexpr Iterate outer_direction = OuterDir;
  static constexpr Iterate inner_direction = InnerDir;
};

namespace Impl {
// A back end's default tile: fills the zero entries of tile[0, rank).  `right`: the last index
// is the fastest.  Host back ends take the whole extent in the fastest dimension and 2 in the
// others; a device back end specialises this (and max_total_tile_size) for its blocks.
template <class ExecSpace, class = void>
struct MDRangeTileDefaults {
  template <class Point>
  static void fill(const Point& lower, const Point& upper, Point& tile, int rank, bool right) {
    for (int d = 0; d < rank; ++d) {
      if (tile[d] != 0) continue;
      const auto span = upper[d] - lower[d];
      tile[d] = (right ? d == rank - 1 : d == 0) ? (span <= 0 ? 1 : span) : 2;
    }
  }
  static constexpr int max_total_tile_size() { return 2147483647; }
};

template <class T>
concept md_array_like = requires(const T& a) {
  { a.size() } -> std::convertible_to<std::size_t>;
  a[0];
} && std::is_integral_v<std::remove_cvref_t<decltype(std::declval<const T&>()[0])>>;
}  // namespace Impl

// A lower bound above its upper bound: as Kokkos 4.6 (with its default deprecated-code-4 build)
// does, a warning, and that dimension (so the box) is empty.
template <class... Properties>
class MDRangePolicy : public Impl::PolicyOccupancy {
  using traits = Impl::PolicyTraits<Properties...>;

 public:
  using execution_policy = MDRangePolicy<Properties...>;
  using execution_space = typename traits::execution_space;
  using schedule_type = typename traits::schedule_type;
  using work_tag = typename traits::work_tag;
  using launch_bounds = typename traits::launch_bounds;
  using index_type = typename traits::index_type::type;
  using iteration_pattern = typename traits::iteration_pattern;
  using work_item_property = typename traits::work_item_property;
  using occupancy_control = typename traits::occupancy_control;
  using traits_type = traits;
  using range_policy = RangePolicy<Properties...>;
  using impl_range_policy = RangePolicy<execution_space, IndexType<index_type>>;

 private:
  // Without a Rank<> the class still instantiates (class template argument deduction looks at
  // MDRangePolicy<> while it weighs the constructors); constructing one is the error.
  using pattern = std::conditional_t<std::is_void_v<iteration_pattern>, Rank<2>, iteration_pattern>;
  static constexpr void check_rank_given() {
    static_assert(!std::is_void_v<iteration_pattern>,
                  "Kokkos::MDRangePolicy: give the rank as a property, e.g. MDRangePolicy<Kokkos::Rank<2>>");
  }

 public:
  static constexpr int rank = pattern::rank;
  static constexpr Iterate outer_direction = pattern::outer_direction != Iterate::Default
                                                 ? pattern::outer_direction
                                                 : default_outer_direction<execution_space>::value;
  static constexpr Iterate inner_direction = pattern::inner_direction != Iterate::Default
                                                 ? pattern::inner_direction
                                                 : default_inner_direction<execution_space>::value;

  using array_index_type = std::int64_t;
  using point_type = Kokkos::Array<array_index_type, rank>;
  using tile_type = Kokkos::Array<array_index_type, rank>;

  // Public as in Kokkos 4: back ends read them directly.
  execution_space m_space{};
  point_type m_lower{};
  point_type m_upper{};
  tile_type m_tile{};
  point_type m_tile_end{};     // number of tiles in each dimension
  index_type m_num_tiles = 1;  // product of m_tile_end
  index_type m_prod_tile_dims = 1;
  bool m_tune_tile_size = false;

  MDRangePolicy() = default;

  // The same box with other properties (what require/prefer return), as in Kokkos.
  template <class... Other>
  MDRangePolicy(const MDRangePolicy<Other...>& other)  // NOLINT: implicit, as in Kokkos
      : Impl::PolicyOccupancy(other),
        m_space(other.m_space),
        m_lower(other.m_lower),
        m_upper(other.m_upper),
        m_tile(other.m_tile),
        m_tile_end(other.m_tile_end),
        m_num_tiles(static_cast<index_type>(other.m_num_tiles)),
        m_prod_tile_dims(static_cast<index_type>(other.m_prod_tile_dims)),
        m_tune_tile_size(other.m_tune_tile_size) {
    static_assert(std::is_same_v<typename MDRangePolicy<Other...>::execution_space, execution_space> &&
                      MDRangePolicy<Other...>::rank == rank,
                  "Kokkos::MDRangePolicy: conversion between policies of different execution spaces or ranks");
  }

  // Braced lists: MDRangePolicy<Rank<2>>({0, 0}, {n, m}[, {t0, t1}]).
  template <class LT, std::size_t LN, class UT, std::size_t UN, class TT = array_index_type, std::size_t TN = rank>
    requires(std::is_integral_v<LT> && std::is_integral_v<UT> && std::is_integral_v<TT>)
  MDRangePolicy(const LT (&lower)[LN], const UT (&upper)[UN], const TT (&tile)[TN] = {})
      : MDRangePolicy(execution_space(), lower, upper, tile) {}

  template <class LT, std::size_t LN, class UT, std::size_t UN, class TT = array_index_type, std::size_t TN = rank>
    requires(std::is_integral_v<LT> && std::is_integral_v<UT> && std::is_integral_v<TT>)
  MDRangePolicy(const execution_space& space, const LT (&lower)[LN], const UT (&upper)[UN],
                const TT (&tile)[TN] = {})
      : m_space(space) {
    static_assert(LN == rank && UN == rank, "Kokkos::MDRangePolicy: the bounds must have one entry per dimension");
    static_assert(TN <= rank, "Kokkos::MDRangePolicy: the tile has more entries than the rank");
    for (int d = 0; d < rank; ++d) {
      m_lower[d] = checked(lower[d], "lower bound", d);
      m_upper[d] = checked(upper[d], "upper bound", d);
      m_tile[d] = d < static_cast<int>(TN) ? checked(tile[d], "tile size", d) : 0;
    }
    init();
  }

  MDRangePolicy(const point_type& lower, const point_type& upper, const tile_type& tile = tile_type{})
      : MDRangePolicy(execution_space(), lower, upper, tile) {}
  MDRangePolicy(const execution_space& space, const point_type& lower, const point_type& upper,
                const tile_type& tile = tile_type{})
      : m_space(space), m_lower(lower), m_upper(upper), m_tile(tile) {
    init();
  }

  // std::array, Kokkos::Array of another index type, ...
  template <class L, class U, class T = tile_type>
    requires(Impl::md_array_like<L> && Impl::md_array_like<U> && Impl::md_array_like<T> &&
             !(std::is_same_v<L, point_type> && std::is_same_v<U, point_type> && std::is_same_v<T, tile_type>))
  MDRangePolicy(const L& lower, const U& upper, const T& tile = T{})
      : MDRangePolicy(execution_space(), lower, upper, tile) {}

  template <class L, class U, class T = tile_type>
    requires(Impl::md_array_like<L> && Impl::md_array_like<U> && Impl::md_array_like<T> &&
             !(std::is_same_v<L, point_type> && std::is_same_v<U, point_type> && std::is_same_v<T, tile_type>))
  MDRangePolicy(const execution_space& space, const L& lower, const U& upper, const T& tile = T{})
      : m_space(space) {
    if (lower.size() != std::size_t(rank) || upper.size() != std::size_t(rank) || tile.size() > std::size_t(rank)) {
      Impl::throw_runtime_exception("Kokkos::MDRangePolicy: bounds of sizes " + std::to_string(lower.size()) + " and " +
                                    std::to_string(upper.size()) + " (tile " + std::to_string(tile.size()) +
                                    ") do not match rank " + std::to_string(rank));
    }
    for (int d = 0; d < rank; ++d) {
      m_lower[d] = checked(lower[d], "lower bound", d);
      m_upper[d] = checked(upper[d], "upper bound", d);
      m_tile[d] = std::size_t(d) < tile.size() ? checked(tile[d], "tile size", d) : 0;
    }
    init();
  }

  const execution_space& space() const { return m_space; }
  // Launch on another instance of the space (see Impl::policy_on_space); the tiling stays.
  void impl_set_space(const execution_space& space) { m_space = space; }

  // The back end's default tile for this box (what a tile of zeros selects).
  tile_type tile_size_recommended() const {
    tile_type t{};
    point_type lower = m_lower, upper = m_upper;
    for (int d = 0; d < rank; ++d) upper[d] = upper[d] < lower[d] ? lower[d] : upper[d];
    Impl::MDRangeTileDefaults<execution_space>::fill(lower, upper, t, rank, inner_direction == Iterate::Right);
    return t;
  }
  int max_total_tile_size() const { return Impl::MDRangeTileDefaults<execution_space>::max_total_tile_size(); }

 private:
  template <class I>
  static array_index_type checked(I value, const char* what, int d) {
    if (!std::in_range<array_index_type>(value)) {
      Impl::throw_runtime_exception(std::string("Kokkos::MDRangePolicy: ") + what + " " + std::to_string(value) +
                                    " in dimension " + std::to_string(d) + " does not fit a 64-bit index");
    }
    return static_cast<array_index_type>(value);
  }

  void init() {
    check_rank_given();
    m_num_tiles = 1;
    m_prod_tile_dims = 1;
    for (int d = 0; d < rank; ++d) {
      if (m_lower[d] > m_upper[d]) {
        Impl::log_warning("Kokkos::MDRangePolicy bounds error: The lower bound (" + std::to_string(m_lower[d]) +
                          ") is greater than its upper bound (" + std::to_string(m_upper[d]) + ") in dimension " +
                          std::to_string(d) + "; the range is empty.");
        m_upper[d] = m_lower[d];
      }
      if (!std::in_range<index_type>(m_lower[d]) || !std::in_range<index_type>(m_upper[d])) {
        Impl::throw_runtime_exception("Kokkos::MDRangePolicy: the bounds of dimension " + std::to_string(d) +
                                      " do not fit the policy's index type");
      }
      if (m_tile[d] < 0) {
        Impl::throw_runtime_exception("Kokkos::MDRangePolicy: tile size " + std::to_string(m_tile[d]) +
                                      " in dimension " + std::to_string(d) + " is negative");
      }
    }
    Impl::MDRangeTileDefaults<execution_space>::fill(m_lower, m_upper, m_tile, rank, inner_direction == Iterate::Right);
    for (int d = 0; d < rank; ++d) {
      const array_index_type span = m_upper[d] - m_lower[d];
      m_tile_end[d] = (span + m_tile[d] - 1) / m_tile[d];
      m_num_tiles *= static_cast<index_type>(m_tile_end[d]);
      m_prod_tile_dims *= static_cast<index_type>(m_tile[d]);
    }
  }
};

// CTAD as in Kokkos 4.6: MDRangePolicy({0, 0}, {n, m}) is MDRangePolicy<Rank<2>>, and with an
// execution space other than the default one, MDRangePolicy<Space, Rank<2>>.
namespace Impl {
template <class E>
concept md_non_default_space = is_execution_space_v<E> && !std::is_same_v<E, DefaultExecutionSpace>;
}  // namespace Impl
template <class LT, std::size_t N, class UT>
MDRangePolicy(const LT (&)[N], const UT (&)[N]) -> MDRangePolicy<Rank<N>>;
template <class LT, std::size_t N, class UT, class TT, std::size_t TN>
MDRangePolicy(const LT (&)[N], const UT (&)[N], const TT (&)[TN]) -> MDRangePolicy<Rank<N>>;
template <class LT, std::size_t N, class UT>
MDRangePolicy(const DefaultExecutionSpace&, const LT (&)[N], const UT (&)[N]) -> MDRangePolicy<Rank<N>>;
template <class LT, std::size_t N, class UT, class TT, std::size_t TN>
MDRangePolicy(const DefaultExecutionSpace&, const LT (&)[N], const UT (&)[N], const TT (&)[TN])
    -> MDRangePolicy<Rank<N>>;
template <Impl::md_non_default_space E, class LT, std::size_t N, class UT>
MDRangePolicy(const E&, const LT (&)[N], const UT (&)[N]) -> MDRangePolicy<E, Rank<N>>;
template <Impl::md_non_default_space E, class LT, std::size_t N, class UT, class TT, std::size_t TN>
MDRangePolicy(const E&, const LT (&)[N], const UT (&)[N], const TT (&)[TN]) -> MDRangePolicy<E, Rank<N>>;
template <class T, std::size_t N>
MDRangePolicy(const Array<T, N>&, const Array<T, N>&) -> MDRangePolicy<Rank<N>>;
template <class T, std::size_t N>
MDRangePolicy(const Array<T, N>&, const Array<T, N>&, const Array<T, N>&) -> MDRangePolicy<Rank<N>>;
template <class T, std::size_t N>
MDRangePolicy(const DefaultExecutionSpace&, const Array<T, N>&, const Array<T, N>&) -> MDRangePolicy<Rank<N>>;
template <class T, std::size_t N>
MDRangePolicy(const DefaultExecutionSpace&, const Array<T, N>&, const Array<T, N>&, const Array<T, N>&)
    -> MDRangePolicy<Rank<N>>;
template <Impl::md_non_default_space E, class T, std::size_t N>
MDRangePolicy(const E&, const Array<T, N>&, const Array<T, N>&) -> MDRangePolicy<E, Rank<N>>;
template <Impl::md_non_default_space E, class T, std::size_t N>
MDRangePolicy(const E&, const Array<T, N>&, const Array<T, N>&, const Array<T, N>&) -> MDRangePolicy<E, Rank<N>>;
template <class T, std::size_t N>
MDRangePolicy(const std::array<T, N>&, const std::array<T, N>&) -> MDRangePolicy<Rank<N>>;
template <class T, std::size_t N>
MDRangePolicy(const std::array<T, N>&, const std::array<T, N>&, const std::array<T, N>&) -> MDRangePolicy<Rank<N>>;
template <class T, std::size_t N>
MDRangePolicy(const DefaultExecutionSpace&, const std::array<T, N>&, const std::array<T, N>&)
    -> MDRangePolicy<Rank<N>>;
template <class T, std::size_t N>
MDRangePolicy(const DefaultExecutionSpace&, const std::array<T, N>&, const std::array<T, N>&,
              const std::array<T, N>&) -> MDRangePolicy<Rank<N>>;
template <Impl::md_non_default_space E, class T, std::size_t N>
MDRangePolicy(const E&, const std::array<T, N>&, const std::array<T, N>&) -> MDRangePolicy<E, Rank<N>>;
template <Impl::md_non_default_space E, class T, std::size_t N>
MDRangePolicy(const E&, const std::array<T, N>&, const std::array<T, N>&, const std::array<T, N>&)
    -> MDRangePolicy<E, Rank<N>>;

template <class T>
struct is_mdrange_policy : std::false_type {};
template <class... P>
struct is_mdrange_policy<MDRangePolicy<P...>> : std::true_type {};

}  // namespace Kokkos

#include <Host/Kokkos_HostParallelMDRange.hpp>

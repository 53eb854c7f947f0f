#pragma once
// Kokkos' std algorithms (Kokkos 4.6, namespace Kokkos::Experimental):
//
//   namespace KE = Kokkos::Experimental;
//   KE::fill(space, x, 1.0);
//   KE::transform("scale", space, KE::cbegin(x), KE::cend(x), KE::begin(y), op);
//   double s = KE::reduce(space, y);
//   auto [lo, hi] = KE::minmax_element(space, y);          // Kokkos::pair of iterators
//   parallel_for(TeamPolicy<>(space, rows, AUTO), KOKKOS_LAMBDA(const member_type& team) {
//     auto row = subview(m, team.league_rank(), ALL);
//     KE::inclusive_scan(team, row, row);                  // the team-handle overloads
//   });
//
// Each algorithm comes as Kokkos has it: (space, iterators...), (label, space, iterators...),
// (space, views...), (label, space, views...), and inside a TeamPolicy kernel (team, iterators...)
// and (team, views...).  Views are rank 1 (LayoutLeft, LayoutRight or LayoutStride, subviews
// included); iterators are KE::begin/end/cbegin/cend of such Views (or raw pointers into
// memory the space can reach).  Returned iterators have Kokkos' meaning (find: last when not
// found; min_element of an empty range: last; copy: the end of what was written).
//
// Fusion: the element-wise algorithms (for_each, for_each_n, transform, copy, copy_n,
// copy_backward, move, move_backward, fill, fill_n, replace*, replace_copy*, generate*,
// swap_ranges) over View iterators declare their accesses, as the launches of
// <Kokkos_Fusion.hpp> do, and so fuse with their neighbours inside a FusionScope; the
// reductions (reduce, transform_reduce, count, find, ...) declare theirs and end a fused run.
// Scans and the algorithms built on them (copy_if, unique, remove, partition_copy ...) run alone.
//
// Parallel execution: element-wise work, reductions (searches are min-index reductions) and
// scans run as parallel_for/reduce/scan.  In-place compactions (unique, remove, remove_if) and
// shifts (shift_left, shift_right) use a scratch View of the range's memory space on an
// execution space; in a team they run on the team's rank 0 (no scratch), as do team scans
// with a user binary op (team scans with + run in parallel).
//
// Misuse: a View of rank other than 1, or a layout other than Left/Right/Stride, fails to
// compile with a message; a range whose last precedes its first, a destination View shorter
// than its source, or a negative count throws std::runtime_error on an execution space (aborts
// in a team) naming the algorithm.  Overlapping source and destination ranges are not
// supported except where std allows them in place (transform, replace_copy, scans and the
// like may write onto their own input); adjacent_difference needs a distinct destination.
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace Kokkos::Experimental {
namespace Impl {

// ---- iterators -------------------------------------------------------------------------------

template <class ViewType>
class RandomAccessIterator {
 public:
  using view_type = ViewType;
  using iterator_category = std::random_access_iterator_tag;
  using value_type = typename ViewType::non_const_value_type;
  using difference_type = std::ptrdiff_t;
  using pointer = typename ViewType::pointer_type;
  using reference = typename ViewType::reference_type;

  RandomAccessIterator() = default;
  KOKKOS_INLINE_FUNCTION explicit RandomAccessIterator(const ViewType& view) : m_view(view) {}
  KOKKOS_INLINE_FUNCTION RandomAccessIterator(const ViewType& view, difference_type index)
      : m_view(view), m_index(index) {}
  // iterator -> const_iterator, as begin(v) -> cbegin(v)
  template <class Other>
    requires(!std::is_same_v<Other, ViewType> && std::is_constructible_v<ViewType, Other>)
  KOKKOS_INLINE_FUNCTION RandomAccessIterator(const RandomAccessIterator<Other>& other)
      : m_view(other.view()), m_index(other.current_index()) {}

  KOKKOS_INLINE_FUNCTION reference operator*() const { return m_view(m_index); }
  KOKKOS_INLINE_FUNCTION reference operator[](difference_type k) const { return m_view(m_index + k); }
  KOKKOS_INLINE_FUNCTION RandomAccessIterator& operator++() {
    ++m_index;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION RandomAccessIterator operator++(int) {
    RandomAccessIterator old = *this;
    ++m_index;
    return old;
  }
  KOKKOS_INLINE_FUNCTION RandomAccessIterator& operator--() {
    --m_index;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION RandomAccessIterator operator--(int) {
    RandomAccessIterator old = *this;
    --m_index;
    return old;
  }
  KOKKOS_INLINE_FUNCTION RandomAccessIterator& operator+=(difference_type k) {
    m_index += k;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION RandomAccessIterator& operator-=(difference_type k) {
    m_index -= k;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION RandomAccessIterator operator+(difference_type k) const { return {m_view, m_index + k}; }
  KOKKOS_INLINE_FUNCTION RandomAccessIterator operator-(difference_type k) const { return {m_view, m_index - k}; }
  KOKKOS_INLINE_FUNCTION friend RandomAccessIterator operator+(difference_type k, const RandomAccessIterator& it) {
    return it + k;
  }
  KOKKOS_INLINE_FUNCTION difference_type operator-(const RandomAccessIterator& other) const {
    return m_index - other.m_index;
  }
  KOKKOS_INLINE_FUNCTION bool operator==(const RandomAccessIterator& o) const { return m_index == o.m_index; }
  KOKKOS_INLINE_FUNCTION bool operator!=(const RandomAccessIterator& o) const { return m_index != o.m_index; }
  KOKKOS_INLINE_FUNCTION bool operator<(const RandomAccessIterator& o) const { return m_index < o.m_index; }
  KOKKOS_INLINE_FUNCTION bool operator<=(const RandomAccessIterator& o) const { return m_index <= o.m_index; }
  KOKKOS_INLINE_FUNCTION bool operator>(const RandomAccessIterator& o) const { return m_index > o.m_index; }
  KOKKOS_INLINE_FUNCTION bool operator>=(const RandomAccessIterator& o) const { return m_index >= o.m_index; }

  KOKKOS_INLINE_FUNCTION const ViewType& view() const { return m_view; }
  KOKKOS_INLINE_FUNCTION difference_type current_index() const { return m_index; }
  // See View::impl_fusion_rebase.
  KOKKOS_INLINE_FUNCTION void impl_fusion_rebase(const void* allocation, std::ptrdiff_t delta_bytes) {
    m_view.impl_fusion_rebase(allocation, delta_bytes);
  }

 private:
  ViewType m_view;
  difference_type m_index = 0;
};

template <class T>
struct is_random_access_view_iterator : std::false_type {};
template <class V>
struct is_random_access_view_iterator<RandomAccessIterator<V>> : std::true_type {};

// What the algorithms accept as an iterator: a random-access iterator that is not a View.
template <class T>
concept std_iterator = !Kokkos::is_view_v<T> && requires { typename std::iterator_traits<T>::iterator_category; } &&
                       std::is_base_of_v<std::random_access_iterator_tag,
                                         typename std::iterator_traits<T>::iterator_category>;

template <class It>
using iter_value_t = std::remove_cv_t<typename std::iterator_traits<It>::value_type>;

template <class It>
struct iterator_memory_space {
  using type = Kokkos::HostSpace;
};
template <class V>
struct iterator_memory_space<RandomAccessIterator<V>> {
  using type = typename V::memory_space;
};

template <class ViewType>
KOKKOS_INLINE_FUNCTION constexpr void static_assert_admissible() {
  static_assert(ViewType::rank() == 1, "Kokkos::Experimental std algorithms take rank-1 Views");
  using L = typename ViewType::array_layout;
  static_assert(std::is_same_v<L, Kokkos::LayoutLeft> || std::is_same_v<L, Kokkos::LayoutRight> ||
                    std::is_same_v<L, Kokkos::LayoutStride>,
                "Kokkos::Experimental std algorithms take Views of LayoutLeft, LayoutRight or LayoutStride");
}

}  // namespace Impl

template <class DataType, class... Properties>
KOKKOS_INLINE_FUNCTION auto begin(const Kokkos::View<DataType, Properties...>& v) {
  using V = Kokkos::View<DataType, Properties...>;
  Impl::static_assert_admissible<V>();
  return Impl::RandomAccessIterator<V>(v);
}
template <class DataType, class... Properties>
KOKKOS_INLINE_FUNCTION auto end(const Kokkos::View<DataType, Properties...>& v) {
  using V = Kokkos::View<DataType, Properties...>;
  Impl::static_assert_admissible<V>();
  return Impl::RandomAccessIterator<V>(v, static_cast<std::ptrdiff_t>(v.extent(0)));
}
template <class DataType, class... Properties>
KOKKOS_INLINE_FUNCTION auto cbegin(const Kokkos::View<DataType, Properties...>& v) {
  using V = typename Kokkos::View<DataType, Properties...>::const_type;
  Impl::static_assert_admissible<V>();
  return Impl::RandomAccessIterator<V>(V(v));
}
template <class DataType, class... Properties>
KOKKOS_INLINE_FUNCTION auto cend(const Kokkos::View<DataType, Properties...>& v) {
  using V = typename Kokkos::View<DataType, Properties...>::const_type;
  Impl::static_assert_admissible<V>();
  return Impl::RandomAccessIterator<V>(V(v), static_cast<std::ptrdiff_t>(v.extent(0)));
}
template <class IteratorType>
KOKKOS_INLINE_FUNCTION constexpr typename std::iterator_traits<IteratorType>::difference_type distance(
    IteratorType first, IteratorType last) {
  return last - first;
}

namespace Impl {

// ---- where the work runs: an execution space (with a label) or a team ------------------------

// A range an element-wise launch touches at index i as first[i]; declared to the fusion window
// when it is a View's iterator.
template <Privilege P, class It>
struct Touch {
  It first;
  std::int64_t n;
};
template <class It>
KOKKOS_INLINE_FUNCTION Touch<Privilege::read, It> reads_range(It first, std::int64_t n) {
  return {first, n};
}
template <class It>
KOKKOS_INLINE_FUNCTION Touch<Privilege::write, It> writes_range(It first, std::int64_t n) {
  return {first, n};
}
template <class It>
KOKKOS_INLINE_FUNCTION Touch<Privilege::read_write, It> read_writes_range(It first, std::int64_t n) {
  return {first, n};
}
template <class T>
inline constexpr bool declarable_v = false;
template <Privilege P, class It>
inline constexpr bool declarable_v<Touch<P, It>> = is_random_access_view_iterator<It>::value;

template <Privilege P, class V>
DataAccess declare(const Touch<P, RandomAccessIterator<V>>& t) {
  const auto b = static_cast<std::int64_t>(t.first.current_index());
  return DataAccess::impl_make(Kokkos::subview(t.first.view(), Kokkos::pair<std::int64_t, std::int64_t>(b, b + t.n)),
                               P);
}

template <class ExecSpace>
struct SpaceRunner {
  static constexpr bool is_team = false;
  std::string label;
  ExecSpace space;
  const char* algorithm;

  auto policy(std::int64_t n) const { return Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n); }

  template <class F, class... Touches>
  void for_n(std::int64_t n, const F& f, const Touches&... touches) const {
    if constexpr (sizeof...(Touches) > 0 && (declarable_v<Touches> && ...)) {
      Kokkos::parallel_for(label, with_accesses(policy(n), declare(touches)...), f);
    } else {
      Kokkos::parallel_for(label, policy(n), f);
    }
  }
  // result: a scalar (summed) or a reducer
  template <class F, class Result, class... Touches>
  void reduce_n(std::int64_t n, const F& f, Result&& result, const Touches&... touches) const {
    if constexpr (sizeof...(Touches) > 0 && (declarable_v<Touches> && ...)) {
      Kokkos::parallel_reduce(label, with_accesses(policy(n), declare(touches)...), f, std::forward<Result>(result));
    } else {
      Kokkos::parallel_reduce(label, policy(n), f, std::forward<Result>(result));
    }
  }
  template <class F, class T>
  void scan_n(std::int64_t n, const F& f, T& total) const {
    Kokkos::parallel_scan(label, policy(n), f, total);
  }
  void require(bool ok, const char* message) const {
    if (!ok) Kokkos::Impl::throw_runtime_exception(std::string("Kokkos::Experimental::") + algorithm + ": " + message);
  }
};

template <class TeamHandle>
struct TeamRunner {
  static constexpr bool is_team = true;
  const TeamHandle& team;
  const char* algorithm;

  template <class F, class... Touches>
  KOKKOS_INLINE_FUNCTION void for_n(std::int64_t n, const F& f, const Touches&...) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), f);
    team.team_barrier();
  }
  template <class F, class Result, class... Touches>
  KOKKOS_INLINE_FUNCTION void reduce_n(std::int64_t n, const F& f, Result&& result, const Touches&...) const {
    Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, n), f, std::forward<Result>(result));
    team.team_barrier();
  }
  template <class F, class T>
  KOKKOS_INLINE_FUNCTION void scan_n(std::int64_t n, const F& f, T& total) const {
    Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, n), f, total);
    team.team_barrier();
  }
  // f() on rank 0, its result on every member
  template <class F>
  KOKKOS_INLINE_FUNCTION std::int64_t on_rank0(const F& f) const {
    std::int64_t result = 0;
    if (team.team_rank() == 0) result = f();
    team.team_broadcast(result, 0);
    team.team_barrier();
    return result;
  }
  KOKKOS_INLINE_FUNCTION void require(bool ok, const char* message) const {
    if (!ok) {
      Kokkos::printf("Kokkos::Experimental::%s: %s\n", algorithm, message);
      Kokkos::abort("Kokkos::Experimental std algorithm misused in a team");
    }
  }
};

// Every algorithm below is written once for both runners: R is a SpaceRunner (host code that
// launches) or a TeamRunner (device code in a team), so each is a host-device template whose
// SpaceRunner instantiations nvcc must not check as device code (KOKKOS_IMPL_DISABLE_EXEC_CHECK).
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class It>
KOKKOS_INLINE_FUNCTION std::int64_t range_size(const R& r, It first, It last) {
  const auto n = static_cast<std::int64_t>(last - first);
  r.require(n >= 0, "the range's last iterator precedes its first");
  return n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class Size>
KOKKOS_INLINE_FUNCTION std::int64_t count_size(const R& r, Size count) {
  const auto n = static_cast<std::int64_t>(count);
  r.require(n >= 0, "the count is negative");
  return n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class V, class W>
KOKKOS_INLINE_FUNCTION void require_fits(const R& r, const V& source, const W& dest) {
  r.require(dest.extent(0) >= source.extent(0), "the destination View is shorter than the source");
}

// ---- predicates and operations -----------------------------------------------------------------

struct Identity {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& x) const {
    return x;
  }
};
struct Plus {
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION auto operator()(const A& a, const B& b) const {
    return a + b;
  }
};
struct Multiplies {
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION auto operator()(const A& a, const B& b) const {
    return a * b;
  }
};
struct Minus {
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION auto operator()(const A& a, const B& b) const {
    return a - b;
  }
};
struct EqualTo {
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION bool operator()(const A& a, const B& b) const {
    return a == b;
  }
};
struct Less {
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION bool operator()(const A& a, const B& b) const {
    return a < b;
  }
};
template <class T>
struct EqualsValue {
  T value;
  template <class A>
  KOKKOS_INLINE_FUNCTION bool operator()(const A& a) const {
    return a == value;
  }
};
template <class P>
struct Not {
  P p;
  template <class... A>
  KOKKOS_INLINE_FUNCTION bool operator()(const A&... a) const {
    return !p(a...);
  }
};
template <class C>
struct Flipped {
  C c;
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION bool operator()(const A& a, const B& b) const {
    return c(b, a);
  }
};

// Index predicates: does index i satisfy the algorithm's condition?
template <class It, class Pred>
struct ElementIs {
  It first;
  Pred pred;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const { return pred(first[i]); }
};
template <class It, class Pred>
struct NextPairIs {  // pred(first[i], first[i + 1])
  It first;
  Pred pred;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const { return pred(first[i], first[i + 1]); }
};
template <class I1, class I2, class Pred>
struct PairIs {  // pred(a[i], b[i])
  I1 a;
  I2 b;
  Pred pred;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const { return pred(a[i], b[i]); }
};
template <class I1, class I2, class Comp>
struct Differs {  // comp(a, b) || comp(b, a)
  I1 a;
  I2 b;
  Comp comp;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const { return comp(a[i], b[i]) || comp(b[i], a[i]); }
};
template <class It, class S, class Pred>
struct MatchesAt {  // [first + i, first + i + m) matches [s, s + m)
  It first;
  S s;
  std::int64_t m;
  Pred pred;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const {
    for (std::int64_t j = 0; j < m; ++j) {
      if (!pred(first[i + j], s[j])) return false;
    }
    return true;
  }
};
template <class It, class T, class Pred>
struct RunAt {  // count elements from first + i all equal value
  It first;
  std::int64_t count;
  T value;
  Pred pred;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const {
    for (std::int64_t j = 0; j < count; ++j) {
      if (!pred(first[i + j], value)) return false;
    }
    return true;
  }
};
template <class It, class S, class Pred>
struct InSet {  // first[i] matches one of [s, s + m)
  It first;
  S s;
  std::int64_t m;
  Pred pred;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const {
    for (std::int64_t j = 0; j < m; ++j) {
      if (pred(first[i], s[j])) return true;
    }
    return false;
  }
};
template <class It, class Pred>
struct StartsGroup {  // unique keeps i: the first element, or one not equal to its predecessor
  It first;
  Pred pred;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const { return i == 0 || !pred(first[i - 1], first[i]); }
};

// ---- functors --------------------------------------------------------------------------------

template <class It, class F>
struct ForEachF {
  It first;
  F f;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(first); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { f(first[i]); }
};
template <class It, class T>
struct FillF {
  It first;
  T value;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(first); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { first[i] = value; }
};
template <class I, class O>
struct CopyF {
  I src;
  O dst;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(src, dst); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst[i] = src[i]; }
};
template <class I, class O>
struct MoveF {
  I src;
  O dst;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(src, dst); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst[i] = std::move(src[i]); }
};
template <class I, class O, class Op>
struct Transform1F {
  I src;
  O dst;
  Op op;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(src, dst); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst[i] = op(src[i]); }
};
template <class I1, class I2, class O, class Op>
struct Transform2F {
  I1 a;
  I2 b;
  O dst;
  Op op;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(a, b, dst); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst[i] = op(a[i], b[i]); }
};
template <class It, class Pred, class T>
struct ReplaceIfF {
  It first;
  Pred pred;
  T new_value;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(first); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    if (pred(first[i])) first[i] = new_value;
  }
};
template <class I, class O, class Pred, class T>
struct ReplaceCopyIfF {
  I src;
  O dst;
  Pred pred;
  T new_value;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(src, dst); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    if (pred(src[i])) {
      dst[i] = new_value;
    } else {
      dst[i] = src[i];
    }
  }
};
template <class It, class G>
struct GenerateF {
  It first;
  G g;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(first); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { first[i] = g(); }
};
template <class I1, class I2>
struct SwapF {
  I1 a;
  I2 b;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(a, b); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    auto tmp = std::move(a[i]);
    a[i] = std::move(b[i]);
    b[i] = std::move(tmp);
  }
};
template <class It>
struct ReverseSwapF {
  It first;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    auto tmp = std::move(first[i]);
    first[i] = std::move(first[n - 1 - i]);
    first[n - 1 - i] = std::move(tmp);
  }
};
template <class I, class O>
struct ReverseCopyF {
  I src;
  O dst;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst[i] = src[n - 1 - i]; }
};
template <class I, class O>
struct RotateCopyF {
  I src;
  O dst;
  std::int64_t n, k;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst[i] = src[i + k < n ? i + k : i + k - n]; }
};
template <class I, class O, class Op>
struct AdjacentDifferenceF {
  I src;
  O dst;
  Op op;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    if (i == 0) {
      dst[0] = src[0];
    } else {
      dst[i] = op(src[i], src[i - 1]);
    }
  }
};

// Searches: the smallest (or largest) index satisfying an index predicate.
template <class P>
struct FirstIndexF {
  P p;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& acc) const {
    if (i < acc && p(i)) acc = i;
  }
};
template <class P>
struct LastIndexF {
  P p;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& acc) const {
    if (i > acc && p(i)) acc = i;
  }
};
template <class P>
struct CountF {
  static constexpr bool accumulates_only = true;  // reduce in lanes (Host/Kokkos_HostReductionLanes.hpp)
  P p;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& acc) const {
    if (p(i)) acc += 1;
  }
};
// The first index in [0, n) where p holds, n when none does.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class P>
KOKKOS_INLINE_FUNCTION std::int64_t first_index(const R& r, std::int64_t n, const P& p) {
  std::int64_t result = n;
  if (n > 0) r.reduce_n(n, FirstIndexF<P>{p}, Kokkos::Min<std::int64_t>(result));
  return result < n ? result : n;
}
// Same, declaring the range [first, first + n) read (fuses as a reduction).
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class It, class P>
KOKKOS_INLINE_FUNCTION std::int64_t first_index_in(const R& r, It first, std::int64_t n, const P& p) {
  std::int64_t result = n;
  if (n > 0) r.reduce_n(n, FirstIndexF<P>{p}, Kokkos::Min<std::int64_t>(result), reads_range(first, n));
  return result < n ? result : n;
}
// The last index in [0, n) where p holds, -1 when none does.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class P>
KOKKOS_INLINE_FUNCTION std::int64_t last_index(const R& r, std::int64_t n, const P& p) {
  std::int64_t result = -1;
  if (n > 0) r.reduce_n(n, LastIndexF<P>{p}, Kokkos::Max<std::int64_t>(result));
  return result >= 0 ? result : -1;
}

template <class It, class T, class Unary>
struct SumF {
  static constexpr bool accumulates_only = true;  // reduce in lanes (Host/Kokkos_HostReductionLanes.hpp)
  It first;
  Unary unary;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, T& acc) const { acc += static_cast<T>(unary(first[i])); }
};
template <class I1, class I2, class T>
struct DotF {
  static constexpr bool accumulates_only = true;  // reduce in lanes (Host/Kokkos_HostReductionLanes.hpp)
  I1 a;
  I2 b;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, T& acc) const { acc += static_cast<T>(a[i] * b[i]); }
};

// A reducer from a join: Join has value_type, join(dst, src) and init(v).
template <class Join>
struct JoinReducer : Kokkos::Impl::ReducerResult<typename Join::value_type, Kokkos::HostSpace> {
  using reducer = JoinReducer;
  using value_type = typename Join::value_type;
  using result_view_type = Kokkos::View<value_type, Kokkos::HostSpace>;
  Join j;
  KOKKOS_INLINE_FUNCTION JoinReducer(const Join& join_op, value_type& result)
      : Kokkos::Impl::ReducerResult<value_type, Kokkos::HostSpace>(result), j(join_op) {}
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const { j.join(dst, src); }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { j.init(v); }
};

// reduce / transform_reduce / scans with a user op: no identity is known, so a partial value
// remembers whether it has seen an element.
template <class T>
struct Partial {
  T value;
  bool set;
};
template <class T, class Op>
struct PartialJoin {
  using value_type = Partial<T>;
  Op op;
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    if (!src.set) return;
    dst.value = dst.set ? static_cast<T>(op(dst.value, src.value)) : src.value;
    dst.set = true;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    v.value = T();
    v.set = false;
  }
  KOKKOS_INLINE_FUNCTION void add(value_type& acc, const T& x) const {
    acc.value = acc.set ? static_cast<T>(op(acc.value, x)) : x;
    acc.set = true;
  }
};
template <class It, class Unary, class J>
struct JoinUnaryF {
  It first;
  Unary unary;
  J j;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, typename J::value_type& acc) const {
    j.add(acc, unary(first[i]));
  }
};
template <class I1, class I2, class Binary, class J>
struct JoinBinaryF {
  I1 a;
  I2 b;
  Binary binary;
  J j;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, typename J::value_type& acc) const {
    j.add(acc, binary(a[i], b[i]));
  }
};

// min/max/minmax_element: indices of the extremes under comp; -1 when none seen.  Ties go to
// the first index, except the maximum of minmax_element, which goes to the last (as std's).
struct ExtremeIndices {
  std::int64_t min, max;
};
template <class It, class Comp, bool last_max>
struct ExtremaJoin {
  using value_type = ExtremeIndices;
  It first;
  Comp comp;
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    if (src.min >= 0) {
      if (dst.min < 0 || comp(first[src.min], first[dst.min]) ||
          (!comp(first[dst.min], first[src.min]) && src.min < dst.min)) {
        dst.min = src.min;
      }
    }
    if (src.max >= 0) {
      if (dst.max < 0 || comp(first[dst.max], first[src.max])) {
        dst.max = src.max;
      } else if (!comp(first[src.max], first[dst.max]) && (last_max ? src.max > dst.max : src.max < dst.max)) {
        dst.max = src.max;
      }
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v.min = v.max = -1; }
};
template <class J>
struct ExtremaF {
  J j;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, ExtremeIndices& acc) const { j.join(acc, {i, i}); }
};

// Scans: value_type carries "seen anything yet", so a user op needs no identity.  Reads
// src[i] before writing dst[i], so dst may be src.
template <class I, class O, class T, class Op, class Unary, bool exclusive, bool has_init>
struct ScanF {
  using value_type = Partial<T>;
  I src;
  O dst;
  PartialJoin<T, Op> j;
  Unary unary;
  T init_value;
  KOKKOS_INLINE_FUNCTION void join(value_type& dst_v, const value_type& src_v) const { j.join(dst_v, src_v); }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { j.init(v); }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, value_type& update, const bool final) const {
    const T x = static_cast<T>(unary(src[i]));
    if (final) {
      if constexpr (exclusive) {
        dst[i] = update.set ? static_cast<T>(j.op(init_value, update.value)) : init_value;
      } else {
        const T inclusive = update.set ? static_cast<T>(j.op(update.value, x)) : x;
        if constexpr (has_init) {
          dst[i] = static_cast<T>(j.op(init_value, inclusive));
        } else {
          dst[i] = inclusive;
        }
      }
    }
    j.add(update, x);
  }
};

// The same with + over an arithmetic T: T() is its identity, so no flag, and a team scans it
// in parallel.
template <class I, class O, class T, class Unary, bool exclusive, bool has_init>
struct PlusScanF {
  using value_type = T;
  I src;
  O dst;
  Unary unary;
  T init_value;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, T& update, const bool final) const {
    const T x = static_cast<T>(unary(src[i]));
    if (final) {
      if constexpr (exclusive) {
        dst[i] = static_cast<T>(init_value + update);
      } else if constexpr (has_init) {
        dst[i] = static_cast<T>(init_value + (update + x));
      } else {
        dst[i] = static_cast<T>(update + x);
      }
    }
    update += x;
  }
};

// Stable compaction: the indices where keep holds, in order, written to dst.
template <class Keep, class I, class O>
struct CompactF {
  using value_type = std::int64_t;
  Keep keep;
  I src;
  O dst;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& update, const bool final) const {
    if (keep(i)) {
      if (final) dst[update] = src[i];
      update += 1;
    }
  }
};
struct CountPair {
  std::int64_t kept = 0, rejected = 0;
  KOKKOS_INLINE_FUNCTION CountPair& operator+=(const CountPair& o) {
    kept += o.kept;
    rejected += o.rejected;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION CountPair operator+(const CountPair& o) const {
    CountPair r = *this;
    r += o;
    return r;
  }
};
template <class I, class OT, class OF, class Pred>
struct PartitionCopyF {
  using value_type = CountPair;
  I src;
  OT to_true;
  OF to_false;
  Pred pred;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, CountPair& update, const bool final) const {
    if (pred(src[i])) {
      if (final) to_true[update.kept] = src[i];
      update.kept += 1;
    } else {
      if (final) to_false[update.rejected] = src[i];
      update.rejected += 1;
    }
  }
};

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class Keep, class I, class O>
KOKKOS_INLINE_FUNCTION std::int64_t compact(const R& r, std::int64_t n, const Keep& keep, I src, O dst) {
  std::int64_t count = 0;
  if (n > 0) r.scan_n(n, CompactF<Keep, I, O>{keep, src, dst}, count);
  return count;
}

// In place: keep's elements move to the front, in order; returns how many.  keep(i) may read
// first[i - 1] and first[i] (unique), which the team's sequential loop has not yet overwritten.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class It, class Keep>
KOKKOS_INLINE_FUNCTION std::int64_t compact_in_place(const R& r, It first, std::int64_t n, const Keep& keep) {
  if (n == 0) return 0;
  if constexpr (R::is_team) {
    return r.on_rank0([&]() {
      std::int64_t k = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        if (keep(i)) {
          if (k != i) first[k] = std::move(first[i]);
          ++k;
        }
      }
      return k;
    });
  } else {
    using T = iter_value_t<It>;
    Kokkos::View<T*, typename iterator_memory_space<It>::type> scratch(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "Kokkos::Experimental::compaction_scratch"), n);
    const std::int64_t count = compact(r, n, keep, first, Experimental::begin(scratch));
    if (count > 0) r.for_n(count, MoveF<decltype(Experimental::begin(scratch)), It>{Experimental::begin(scratch), first});
    return count;
  }
}

// Moves [src, src + n) to [dst, dst + n) where the two may overlap.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class It>
KOKKOS_INLINE_FUNCTION void move_overlapping(const R& r, It src, It dst, std::int64_t n) {
  if (n <= 0) return;
  if constexpr (R::is_team) {
    r.on_rank0([&]() {
      if (dst < src) {
        for (std::int64_t i = 0; i < n; ++i) dst[i] = std::move(src[i]);
      } else {
        for (std::int64_t i = n - 1; i >= 0; --i) dst[i] = std::move(src[i]);
      }
      return std::int64_t(0);
    });
  } else {
    using T = iter_value_t<It>;
    Kokkos::View<T*, typename iterator_memory_space<It>::type> scratch(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "Kokkos::Experimental::shift_scratch"), n);
    using S = decltype(Experimental::begin(scratch));
    r.for_n(n, MoveF<It, S>{src, Experimental::begin(scratch)});
    r.for_n(n, MoveF<S, It>{Experimental::begin(scratch), dst});
  }
}

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class It>
KOKKOS_INLINE_FUNCTION void reverse_n(const R& r, It first, std::int64_t n) {
  if (n > 1) r.for_n(n / 2, ReverseSwapF<It>{first, n});
}

// ---- the algorithms: iterator forms, then View forms in terms of them --------------------------

#define KOKKOS_IMPL_STD_VIEW(V) const Kokkos::View<V##D, V##P...>&

// for_each, for_each_n
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class F>
KOKKOS_INLINE_FUNCTION F for_each_impl(const R& r, It first, It last, F f) {
  const auto n = range_size(r, first, last);
  if (n > 0) {
    if constexpr (std::is_const_v<std::remove_reference_t<typename std::iterator_traits<It>::reference>>) {
      r.for_n(n, ForEachF<It, F>{first, f}, reads_range(first, n));
    } else {
      r.for_n(n, ForEachF<It, F>{first, f}, read_writes_range(first, n));
    }
  }
  return f;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class F>
KOKKOS_INLINE_FUNCTION F for_each_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, F f) {
  return for_each_impl(r, Experimental::begin(v), Experimental::end(v), f);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Size, class F>
KOKKOS_INLINE_FUNCTION It for_each_n_impl(const R& r, It first, Size count, F f) {
  const auto n = count_size(r, count);
  for_each_impl(r, first, first + n, f);
  return first + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Size, class F>
KOKKOS_INLINE_FUNCTION auto for_each_n_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Size count, F f) {
  return for_each_n_impl(r, Experimental::begin(v), count, f);
}

// fill, fill_n, generate, generate_n
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class T>
KOKKOS_INLINE_FUNCTION void fill_impl(const R& r, It first, It last, const T& value) {
  const auto n = range_size(r, first, last);
  using V = iter_value_t<It>;
  if (n > 0) r.for_n(n, FillF<It, V>{first, static_cast<V>(value)}, writes_range(first, n));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class T>
KOKKOS_INLINE_FUNCTION void fill_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, const T& value) {
  fill_impl(r, Experimental::begin(v), Experimental::end(v), value);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Size, class T>
KOKKOS_INLINE_FUNCTION It fill_n_impl(const R& r, It first, Size count, const T& value) {
  const auto n = static_cast<std::int64_t>(count);
  if (n <= 0) return first;  // std::fill_n: a non-positive count fills nothing
  fill_impl(r, first, first + n, value);
  return first + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Size, class T>
KOKKOS_INLINE_FUNCTION auto fill_n_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Size count, const T& value) {
  return fill_n_impl(r, Experimental::begin(v), count, value);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class G>
KOKKOS_INLINE_FUNCTION void generate_impl(const R& r, It first, It last, G g) {
  const auto n = range_size(r, first, last);
  if (n > 0) r.for_n(n, GenerateF<It, G>{first, g}, writes_range(first, n));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class G>
KOKKOS_INLINE_FUNCTION void generate_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, G g) {
  generate_impl(r, Experimental::begin(v), Experimental::end(v), g);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Size, class G>
KOKKOS_INLINE_FUNCTION It generate_n_impl(const R& r, It first, Size count, G g) {
  const auto n = static_cast<std::int64_t>(count);
  if (n <= 0) return first;
  generate_impl(r, first, first + n, g);
  return first + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Size, class G>
KOKKOS_INLINE_FUNCTION auto generate_n_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Size count, G g) {
  return generate_n_impl(r, Experimental::begin(v), count, g);
}

// copy, copy_n, copy_backward, move, move_backward
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O>
KOKKOS_INLINE_FUNCTION O copy_impl(const R& r, I first, I last, O d_first) {
  const auto n = range_size(r, first, last);
  if (n > 0) r.for_n(n, CopyF<I, O>{first, d_first}, reads_range(first, n), writes_range(d_first, n));
  return d_first + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class SD, class... SP, class DD, class... DP>
KOKKOS_INLINE_FUNCTION auto copy_impl(const R& r, KOKKOS_IMPL_STD_VIEW(S) source, KOKKOS_IMPL_STD_VIEW(D) dest) {
  require_fits(r, source, dest);
  return copy_impl(r, Experimental::cbegin(source), Experimental::cend(source), Experimental::begin(dest));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, class Size, std_iterator O>
KOKKOS_INLINE_FUNCTION O copy_n_impl(const R& r, I first, Size count, O d_first) {
  const auto n = static_cast<std::int64_t>(count);
  if (n <= 0) return d_first;
  return copy_impl(r, first, first + n, d_first);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class SD, class... SP, class Size, class DD, class... DP>
KOKKOS_INLINE_FUNCTION auto copy_n_impl(const R& r, KOKKOS_IMPL_STD_VIEW(S) source, Size count,
                                        KOKKOS_IMPL_STD_VIEW(D) dest) {
  r.require(static_cast<std::int64_t>(count) <= static_cast<std::int64_t>(source.extent(0)) &&
                static_cast<std::int64_t>(count) <= static_cast<std::int64_t>(dest.extent(0)),
            "the count exceeds a View's extent");
  return copy_n_impl(r, Experimental::cbegin(source), count, Experimental::begin(dest));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O>
KOKKOS_INLINE_FUNCTION O copy_backward_impl(const R& r, I first, I last, O d_last) {
  const auto n = range_size(r, first, last);
  copy_impl(r, first, last, d_last - n);
  return d_last - n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class SD, class... SP, class DD, class... DP>
KOKKOS_INLINE_FUNCTION auto copy_backward_impl(const R& r, KOKKOS_IMPL_STD_VIEW(S) source,
                                               KOKKOS_IMPL_STD_VIEW(D) dest) {
  require_fits(r, source, dest);
  return copy_backward_impl(r, Experimental::cbegin(source), Experimental::cend(source), Experimental::end(dest));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O>
KOKKOS_INLINE_FUNCTION O move_impl(const R& r, I first, I last, O d_first) {
  const auto n = range_size(r, first, last);
  if (n > 0) r.for_n(n, MoveF<I, O>{first, d_first}, read_writes_range(first, n), writes_range(d_first, n));
  return d_first + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class SD, class... SP, class DD, class... DP>
KOKKOS_INLINE_FUNCTION auto move_impl(const R& r, KOKKOS_IMPL_STD_VIEW(S) source, KOKKOS_IMPL_STD_VIEW(D) dest) {
  require_fits(r, source, dest);
  return move_impl(r, Experimental::begin(source), Experimental::end(source), Experimental::begin(dest));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O>
KOKKOS_INLINE_FUNCTION O move_backward_impl(const R& r, I first, I last, O d_last) {
  const auto n = range_size(r, first, last);
  move_impl(r, first, last, d_last - n);
  return d_last - n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class SD, class... SP, class DD, class... DP>
KOKKOS_INLINE_FUNCTION auto move_backward_impl(const R& r, KOKKOS_IMPL_STD_VIEW(S) source,
                                               KOKKOS_IMPL_STD_VIEW(D) dest) {
  require_fits(r, source, dest);
  return move_backward_impl(r, Experimental::begin(source), Experimental::end(source), Experimental::end(dest));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I1, std_iterator I2>
KOKKOS_INLINE_FUNCTION I2 swap_ranges_impl(const R& r, I1 first1, I1 last1, I2 first2) {
  const auto n = range_size(r, first1, last1);
  if (n > 0) r.for_n(n, SwapF<I1, I2>{first1, first2}, read_writes_range(first1, n), read_writes_range(first2, n));
  return first2 + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class AD, class... AP, class BD, class... BP>
KOKKOS_INLINE_FUNCTION auto swap_ranges_impl(const R& r, KOKKOS_IMPL_STD_VIEW(A) a, KOKKOS_IMPL_STD_VIEW(B) b) {
  require_fits(r, a, b);
  return swap_ranges_impl(r, Experimental::begin(a), Experimental::end(a), Experimental::begin(b));
}

// transform (unary and binary)
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class Op>
KOKKOS_INLINE_FUNCTION O transform_impl(const R& r, I first, I last, O d_first, Op op) {
  const auto n = range_size(r, first, last);
  if (n > 0) r.for_n(n, Transform1F<I, O, Op>{first, d_first, op}, reads_range(first, n), writes_range(d_first, n));
  return d_first + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I1, std_iterator I2, std_iterator O, class Op>
KOKKOS_INLINE_FUNCTION O transform_impl(const R& r, I1 first1, I1 last1, I2 first2, O d_first, Op op) {
  const auto n = range_size(r, first1, last1);
  if (n > 0) {
    r.for_n(n, Transform2F<I1, I2, O, Op>{first1, first2, d_first, op}, reads_range(first1, n),
            reads_range(first2, n), writes_range(d_first, n));
  }
  return d_first + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class SD, class... SP, class DD, class... DP, class Op>
KOKKOS_INLINE_FUNCTION auto transform_impl(const R& r, KOKKOS_IMPL_STD_VIEW(S) source, KOKKOS_IMPL_STD_VIEW(D) dest,
                                           Op op) {
  require_fits(r, source, dest);
  return transform_impl(r, Experimental::begin(source), Experimental::end(source), Experimental::begin(dest), op);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class AD, class... AP, class BD, class... BP, class DD, class... DP, class Op>
KOKKOS_INLINE_FUNCTION auto transform_impl(const R& r, KOKKOS_IMPL_STD_VIEW(A) a, KOKKOS_IMPL_STD_VIEW(B) b,
                                           KOKKOS_IMPL_STD_VIEW(D) dest, Op op) {
  require_fits(r, a, b);
  require_fits(r, a, dest);
  return transform_impl(r, Experimental::begin(a), Experimental::end(a), Experimental::begin(b),
                        Experimental::begin(dest), op);
}

// replace, replace_if, replace_copy, replace_copy_if
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred, class T>
KOKKOS_INLINE_FUNCTION void replace_if_impl(const R& r, It first, It last, Pred pred, const T& new_value) {
  const auto n = range_size(r, first, last);
  using V = iter_value_t<It>;
  if (n > 0) r.for_n(n, ReplaceIfF<It, Pred, V>{first, pred, static_cast<V>(new_value)}, read_writes_range(first, n));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred, class T>
KOKKOS_INLINE_FUNCTION void replace_if_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred, const T& new_value) {
  replace_if_impl(r, Experimental::begin(v), Experimental::end(v), pred, new_value);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class T>
KOKKOS_INLINE_FUNCTION void replace_impl(const R& r, It first, It last, const T& old_value, const T& new_value) {
  replace_if_impl(r, first, last, EqualsValue<T>{old_value}, new_value);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class T>
KOKKOS_INLINE_FUNCTION void replace_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, const T& old_value,
                                         const T& new_value) {
  replace_if_impl(r, Experimental::begin(v), Experimental::end(v), EqualsValue<T>{old_value}, new_value);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class Pred, class T>
KOKKOS_INLINE_FUNCTION O replace_copy_if_impl(const R& r, I first, I last, O d_first, Pred pred, const T& new_value) {
  const auto n = range_size(r, first, last);
  using V = iter_value_t<O>;
  if (n > 0) {
    r.for_n(n, ReplaceCopyIfF<I, O, Pred, V>{first, d_first, pred, static_cast<V>(new_value)}, reads_range(first, n),
            writes_range(d_first, n));
  }
  return d_first + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class SD, class... SP, class DD, class... DP, class Pred, class T>
KOKKOS_INLINE_FUNCTION auto replace_copy_if_impl(const R& r, KOKKOS_IMPL_STD_VIEW(S) source,
                                                 KOKKOS_IMPL_STD_VIEW(D) dest, Pred pred, const T& new_value) {
  require_fits(r, source, dest);
  return replace_copy_if_impl(r, Experimental::cbegin(source), Experimental::cend(source), Experimental::begin(dest),
                              pred, new_value);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class T>
KOKKOS_INLINE_FUNCTION O replace_copy_impl(const R& r, I first, I last, O d_first, const T& old_value,
                                           const T& new_value) {
  return replace_copy_if_impl(r, first, last, d_first, EqualsValue<T>{old_value}, new_value);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class SD, class... SP, class DD, class... DP, class T>
KOKKOS_INLINE_FUNCTION auto replace_copy_impl(const R& r, KOKKOS_IMPL_STD_VIEW(S) source, KOKKOS_IMPL_STD_VIEW(D) dest,
                                              const T& old_value, const T& new_value) {
  return replace_copy_if_impl(r, source, dest, EqualsValue<T>{old_value}, new_value);
}

// reduce, transform_reduce
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It>
KOKKOS_INLINE_FUNCTION iter_value_t<It> reduce_impl(const R& r, It first, It last) {
  using T = iter_value_t<It>;
  const auto n = range_size(r, first, last);
  T result{};
  if (n > 0) r.reduce_n(n, SumF<It, T, Identity>{first, Identity{}}, result, reads_range(first, n));
  return result;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class T>
KOKKOS_INLINE_FUNCTION T reduce_impl(const R& r, It first, It last, T init) {
  const auto n = range_size(r, first, last);
  T result{};
  if (n > 0) r.reduce_n(n, SumF<It, T, Identity>{first, Identity{}}, result, reads_range(first, n));
  return init + result;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Unary, class T, class Join>
KOKKOS_INLINE_FUNCTION T joined_reduce(const R& r, It first, std::int64_t n, T init, Join join, Unary unary) {
  using J = PartialJoin<T, Join>;
  Partial<T> partial{T(), false};
  if (n > 0) {
    r.reduce_n(n, JoinUnaryF<It, Unary, J>{first, unary, J{join}}, JoinReducer<J>(J{join}, partial),
               reads_range(first, n));
  }
  return partial.set ? static_cast<T>(join(init, partial.value)) : init;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class T, class Join>
KOKKOS_INLINE_FUNCTION T reduce_impl(const R& r, It first, It last, T init, Join join) {
  return joined_reduce(r, first, range_size(r, first, last), init, join, Identity{});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP>
KOKKOS_INLINE_FUNCTION auto reduce_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v) {
  return reduce_impl(r, Experimental::cbegin(v), Experimental::cend(v));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class T>
KOKKOS_INLINE_FUNCTION T reduce_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, T init) {
  return reduce_impl(r, Experimental::cbegin(v), Experimental::cend(v), init);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class T, class Join>
KOKKOS_INLINE_FUNCTION T reduce_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, T init, Join join) {
  return reduce_impl(r, Experimental::cbegin(v), Experimental::cend(v), init, join);
}

// init + sum of a[i] * b[i]
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I1, std_iterator I2, class T>
KOKKOS_INLINE_FUNCTION T transform_reduce_impl(const R& r, I1 first1, I1 last1, I2 first2, T init) {
  const auto n = range_size(r, first1, last1);
  T result{};
  if (n > 0) r.reduce_n(n, DotF<I1, I2, T>{first1, first2}, result, reads_range(first1, n), reads_range(first2, n));
  return init + result;
}
// join(init, join over binary(a[i], b[i]))
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I1, std_iterator I2, class T, class Join, class Binary>
KOKKOS_INLINE_FUNCTION T transform_reduce_impl(const R& r, I1 first1, I1 last1, I2 first2, T init, Join join,
                                               Binary binary) {
  const auto n = range_size(r, first1, last1);
  using J = PartialJoin<T, Join>;
  Partial<T> partial{T(), false};
  if (n > 0) {
    r.reduce_n(n, JoinBinaryF<I1, I2, Binary, J>{first1, first2, binary, J{join}}, JoinReducer<J>(J{join}, partial),
               reads_range(first1, n), reads_range(first2, n));
  }
  return partial.set ? static_cast<T>(join(init, partial.value)) : init;
}
// join(init, join over unary(v[i]))
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class T, class Join, class Unary>
  requires(!std_iterator<T>)
KOKKOS_INLINE_FUNCTION T transform_reduce_impl(const R& r, It first, It last, T init, Join join, Unary unary) {
  return joined_reduce(r, first, range_size(r, first, last), init, join, unary);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class AD, class... AP, class BD, class... BP, class T>
  requires(!Kokkos::is_view_v<T>)
KOKKOS_INLINE_FUNCTION T transform_reduce_impl(const R& r, KOKKOS_IMPL_STD_VIEW(A) a, KOKKOS_IMPL_STD_VIEW(B) b,
                                               T init) {
  r.require(a.extent(0) == b.extent(0), "the Views' extents differ");
  return transform_reduce_impl(r, Experimental::cbegin(a), Experimental::cend(a), Experimental::cbegin(b), init);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class AD, class... AP, class BD, class... BP, class T, class Join, class Binary>
KOKKOS_INLINE_FUNCTION T transform_reduce_impl(const R& r, KOKKOS_IMPL_STD_VIEW(A) a, KOKKOS_IMPL_STD_VIEW(B) b,
                                               T init, Join join, Binary binary) {
  r.require(a.extent(0) == b.extent(0), "the Views' extents differ");
  return transform_reduce_impl(r, Experimental::cbegin(a), Experimental::cend(a), Experimental::cbegin(b), init, join,
                               binary);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class T, class Join, class Unary>
  requires(!Kokkos::is_view_v<T>)
KOKKOS_INLINE_FUNCTION T transform_reduce_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, T init, Join join,
                                               Unary unary) {
  return joined_reduce(r, Experimental::cbegin(v), static_cast<std::int64_t>(v.extent(0)), init, join, unary);
}

// find, find_if, find_if_not, count, count_if, all_of, any_of, none_of
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred>
KOKKOS_INLINE_FUNCTION It find_if_impl(const R& r, It first, It last, Pred pred) {
  const auto n = range_size(r, first, last);
  return first + first_index_in(r, first, n, ElementIs<It, Pred>{first, pred});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred>
KOKKOS_INLINE_FUNCTION auto find_if_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred) {
  return find_if_impl(r, Experimental::begin(v), Experimental::end(v), pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred>
KOKKOS_INLINE_FUNCTION It find_if_not_impl(const R& r, It first, It last, Pred pred) {
  return find_if_impl(r, first, last, Not<Pred>{pred});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred>
KOKKOS_INLINE_FUNCTION auto find_if_not_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred) {
  return find_if_impl(r, Experimental::begin(v), Experimental::end(v), Not<Pred>{pred});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class T>
KOKKOS_INLINE_FUNCTION It find_impl(const R& r, It first, It last, const T& value) {
  return find_if_impl(r, first, last, EqualsValue<T>{value});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class T>
KOKKOS_INLINE_FUNCTION auto find_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, const T& value) {
  return find_if_impl(r, Experimental::begin(v), Experimental::end(v), EqualsValue<T>{value});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred>
KOKKOS_INLINE_FUNCTION typename std::iterator_traits<It>::difference_type count_if_impl(const R& r, It first, It last,
                                                                                       Pred pred) {
  const auto n = range_size(r, first, last);
  std::int64_t count = 0;
  if (n > 0) r.reduce_n(n, CountF<ElementIs<It, Pred>>{{first, pred}}, count, reads_range(first, n));
  return static_cast<typename std::iterator_traits<It>::difference_type>(count);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred>
KOKKOS_INLINE_FUNCTION auto count_if_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred) {
  return count_if_impl(r, Experimental::cbegin(v), Experimental::cend(v), pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class T>
KOKKOS_INLINE_FUNCTION auto count_impl(const R& r, It first, It last, const T& value) {
  return count_if_impl(r, first, last, EqualsValue<T>{value});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class T>
KOKKOS_INLINE_FUNCTION auto count_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, const T& value) {
  return count_if_impl(r, Experimental::cbegin(v), Experimental::cend(v), EqualsValue<T>{value});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred>
KOKKOS_INLINE_FUNCTION bool all_of_impl(const R& r, It first, It last, Pred pred) {
  return find_if_impl(r, first, last, Not<Pred>{pred}) == last;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred>
KOKKOS_INLINE_FUNCTION bool all_of_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred) {
  return all_of_impl(r, Experimental::cbegin(v), Experimental::cend(v), pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred>
KOKKOS_INLINE_FUNCTION bool any_of_impl(const R& r, It first, It last, Pred pred) {
  return find_if_impl(r, first, last, pred) != last;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred>
KOKKOS_INLINE_FUNCTION bool any_of_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred) {
  return any_of_impl(r, Experimental::cbegin(v), Experimental::cend(v), pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred>
KOKKOS_INLINE_FUNCTION bool none_of_impl(const R& r, It first, It last, Pred pred) {
  return find_if_impl(r, first, last, pred) == last;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred>
KOKKOS_INLINE_FUNCTION bool none_of_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred) {
  return none_of_impl(r, Experimental::cbegin(v), Experimental::cend(v), pred);
}

// min_element, max_element, minmax_element
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <bool last_max, class R, class It, class Comp>
KOKKOS_INLINE_FUNCTION ExtremeIndices extremes(const R& r, It first, It last, Comp comp) {
  const auto n = range_size(r, first, last);
  using J = ExtremaJoin<It, Comp, last_max>;
  ExtremeIndices result{n, n};
  if (n > 0) r.reduce_n(n, ExtremaF<J>{J{first, comp}}, JoinReducer<J>(J{first, comp}, result), reads_range(first, n));
  return result;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Comp = Less>
KOKKOS_INLINE_FUNCTION It min_element_impl(const R& r, It first, It last, Comp comp = {}) {
  return first + extremes<false>(r, first, last, comp).min;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Comp = Less>
KOKKOS_INLINE_FUNCTION auto min_element_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Comp comp = {}) {
  return min_element_impl(r, Experimental::begin(v), Experimental::end(v), comp);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Comp = Less>
KOKKOS_INLINE_FUNCTION It max_element_impl(const R& r, It first, It last, Comp comp = {}) {
  return first + extremes<false>(r, first, last, comp).max;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Comp = Less>
KOKKOS_INLINE_FUNCTION auto max_element_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Comp comp = {}) {
  return max_element_impl(r, Experimental::begin(v), Experimental::end(v), comp);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Comp = Less>
KOKKOS_INLINE_FUNCTION Kokkos::pair<It, It> minmax_element_impl(const R& r, It first, It last, Comp comp = {}) {
  const ExtremeIndices e = extremes<true>(r, first, last, comp);
  return {first + e.min, first + e.max};
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Comp = Less>
KOKKOS_INLINE_FUNCTION auto minmax_element_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Comp comp = {}) {
  return minmax_element_impl(r, Experimental::begin(v), Experimental::end(v), comp);
}

// Scans.  dest may be the source.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <bool exclusive, bool has_init, class R, class I, class O, class T, class Op, class Unary>
KOKKOS_INLINE_FUNCTION O scan(const R& r, I first, I last, O d_first, T init, Op op, Unary unary) {
  const auto n = range_size(r, first, last);
  if (n == 0) return d_first;
  if constexpr (std::is_same_v<Op, Plus> && std::is_arithmetic_v<T>) {
    T total{};
    r.scan_n(n, PlusScanF<I, O, T, Unary, exclusive, has_init>{first, d_first, unary, init}, total);
  } else {
    const ScanF<I, O, T, Op, Unary, exclusive, has_init> f{first, d_first, PartialJoin<T, Op>{op}, unary, init};
    if constexpr (R::is_team) {
      // the team scan adds values with +; a user op has no such form, so rank 0 runs the scan
      r.on_rank0([&]() {
        Partial<T> update{T(), false};
        for (std::int64_t i = 0; i < n; ++i) f(i, update, true);
        return std::int64_t(0);
      });
    } else {
      Partial<T> total{T(), false};
      r.scan_n(n, f, total);
    }
  }
  return d_first + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O>
KOKKOS_INLINE_FUNCTION O inclusive_scan_impl(const R& r, I first, I last, O d_first) {
  return scan<false, false>(r, first, last, d_first, iter_value_t<O>(), Plus{}, Identity{});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class Op>
KOKKOS_INLINE_FUNCTION O inclusive_scan_impl(const R& r, I first, I last, O d_first, Op op) {
  return scan<false, false>(r, first, last, d_first, iter_value_t<O>(), op, Identity{});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class Op, class T>
KOKKOS_INLINE_FUNCTION O inclusive_scan_impl(const R& r, I first, I last, O d_first, Op op, T init) {
  return scan<false, true>(r, first, last, d_first, init, op, Identity{});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class T>
KOKKOS_INLINE_FUNCTION O exclusive_scan_impl(const R& r, I first, I last, O d_first, T init) {
  return scan<true, true>(r, first, last, d_first, init, Plus{}, Identity{});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class T, class Op>
KOKKOS_INLINE_FUNCTION O exclusive_scan_impl(const R& r, I first, I last, O d_first, T init, Op op) {
  return scan<true, true>(r, first, last, d_first, init, op, Identity{});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class Op, class Unary>
KOKKOS_INLINE_FUNCTION O transform_inclusive_scan_impl(const R& r, I first, I last, O d_first, Op op, Unary unary) {
  return scan<false, false>(r, first, last, d_first, iter_value_t<O>(), op, unary);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class Op, class Unary, class T>
KOKKOS_INLINE_FUNCTION O transform_inclusive_scan_impl(const R& r, I first, I last, O d_first, Op op, Unary unary,
                                                       T init) {
  return scan<false, true>(r, first, last, d_first, init, op, unary);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class T, class Op, class Unary>
KOKKOS_INLINE_FUNCTION O transform_exclusive_scan_impl(const R& r, I first, I last, O d_first, T init, Op op,
                                                       Unary unary) {
  return scan<true, true>(r, first, last, d_first, init, op, unary);
}
// The View forms of the scans: (source, dest, rest...) as (cbegin, cend, begin(dest), rest...).
#define KOKKOS_IMPL_STD_SCAN_VIEW_FORM(NAME)                                                                     \
  KOKKOS_IMPL_DISABLE_EXEC_CHECK                                                                                 \
  template <class R, class SD, class... SP, class DD, class... DP, class... Rest>                                \
  KOKKOS_INLINE_FUNCTION auto NAME##_impl(const R& r, KOKKOS_IMPL_STD_VIEW(S) source, KOKKOS_IMPL_STD_VIEW(D) dest, \
                                          Rest... rest) {                                                        \
    require_fits(r, source, dest);                                                                               \
    return NAME##_impl(r, Experimental::cbegin(source), Experimental::cend(source), Experimental::begin(dest),   \
                       rest...);                                                                                 \
  }
KOKKOS_IMPL_STD_SCAN_VIEW_FORM(inclusive_scan)
KOKKOS_IMPL_STD_SCAN_VIEW_FORM(exclusive_scan)
KOKKOS_IMPL_STD_SCAN_VIEW_FORM(transform_inclusive_scan)
KOKKOS_IMPL_STD_SCAN_VIEW_FORM(transform_exclusive_scan)
KOKKOS_IMPL_STD_SCAN_VIEW_FORM(adjacent_difference)
KOKKOS_IMPL_STD_SCAN_VIEW_FORM(copy_if)
KOKKOS_IMPL_STD_SCAN_VIEW_FORM(remove_copy)
KOKKOS_IMPL_STD_SCAN_VIEW_FORM(remove_copy_if)
KOKKOS_IMPL_STD_SCAN_VIEW_FORM(unique_copy)
KOKKOS_IMPL_STD_SCAN_VIEW_FORM(reverse_copy)

// adjacent_difference: dest[0] = src[0], dest[i] = op(src[i], src[i - 1]); dest must not be src.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class Op = Minus>
KOKKOS_INLINE_FUNCTION O adjacent_difference_impl(const R& r, I first, I last, O d_first, Op op = {}) {
  const auto n = range_size(r, first, last);
  if (n > 0) r.for_n(n, AdjacentDifferenceF<I, O, Op>{first, d_first, op});
  return d_first + n;
}

// copy_if, remove_copy, remove_copy_if, unique_copy, partition_copy
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class Pred>
KOKKOS_INLINE_FUNCTION O copy_if_impl(const R& r, I first, I last, O d_first, Pred pred) {
  const auto n = range_size(r, first, last);
  return d_first + compact(r, n, ElementIs<I, Pred>{first, pred}, first, d_first);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class Pred>
KOKKOS_INLINE_FUNCTION O remove_copy_if_impl(const R& r, I first, I last, O d_first, Pred pred) {
  return copy_if_impl(r, first, last, d_first, Not<Pred>{pred});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class T>
KOKKOS_INLINE_FUNCTION O remove_copy_impl(const R& r, I first, I last, O d_first, const T& value) {
  return copy_if_impl(r, first, last, d_first, Not<EqualsValue<T>>{{value}});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION O unique_copy_impl(const R& r, I first, I last, O d_first, Pred pred = {}) {
  const auto n = range_size(r, first, last);
  return d_first + compact(r, n, StartsGroup<I, Pred>{first, pred}, first, d_first);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator OT, std_iterator OF, class Pred>
KOKKOS_INLINE_FUNCTION Kokkos::pair<OT, OF> partition_copy_impl(const R& r, I first, I last, OT to_true, OF to_false,
                                                                Pred pred) {
  const auto n = range_size(r, first, last);
  CountPair counts;
  if (n > 0) r.scan_n(n, PartitionCopyF<I, OT, OF, Pred>{first, to_true, to_false, pred}, counts);
  return {to_true + counts.kept, to_false + counts.rejected};
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class SD, class... SP, class TD, class... TP, class FD, class... FP, class Pred>
KOKKOS_INLINE_FUNCTION auto partition_copy_impl(const R& r, KOKKOS_IMPL_STD_VIEW(S) source,
                                                KOKKOS_IMPL_STD_VIEW(T) to_true, KOKKOS_IMPL_STD_VIEW(F) to_false,
                                                Pred pred) {
  return partition_copy_impl(r, Experimental::cbegin(source), Experimental::cend(source), Experimental::begin(to_true),
                             Experimental::begin(to_false), pred);
}

// unique, remove, remove_if (in place)
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION It unique_impl(const R& r, It first, It last, Pred pred = {}) {
  const auto n = range_size(r, first, last);
  return first + compact_in_place(r, first, n, StartsGroup<It, Pred>{first, pred});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION auto unique_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred = {}) {
  return unique_impl(r, Experimental::begin(v), Experimental::end(v), pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred>
KOKKOS_INLINE_FUNCTION It remove_if_impl(const R& r, It first, It last, Pred pred) {
  const auto n = range_size(r, first, last);
  return first + compact_in_place(r, first, n, ElementIs<It, Not<Pred>>{first, {pred}});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred>
KOKKOS_INLINE_FUNCTION auto remove_if_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred) {
  return remove_if_impl(r, Experimental::begin(v), Experimental::end(v), pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class T>
KOKKOS_INLINE_FUNCTION It remove_impl(const R& r, It first, It last, const T& value) {
  return remove_if_impl(r, first, last, EqualsValue<T>{value});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class T>
KOKKOS_INLINE_FUNCTION auto remove_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, const T& value) {
  return remove_if_impl(r, Experimental::begin(v), Experimental::end(v), EqualsValue<T>{value});
}

// reverse, reverse_copy, rotate, rotate_copy, shift_left, shift_right
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It>
KOKKOS_INLINE_FUNCTION void reverse_impl(const R& r, It first, It last) {
  reverse_n(r, first, range_size(r, first, last));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP>
KOKKOS_INLINE_FUNCTION void reverse_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v) {
  reverse_impl(r, Experimental::begin(v), Experimental::end(v));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O>
KOKKOS_INLINE_FUNCTION O reverse_copy_impl(const R& r, I first, I last, O d_first) {
  const auto n = range_size(r, first, last);
  if (n > 0) r.for_n(n, ReverseCopyF<I, O>{first, d_first, n});
  return d_first + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It>
KOKKOS_INLINE_FUNCTION It rotate_impl(const R& r, It first, It n_first, It last) {
  const auto n = range_size(r, first, last);
  const auto k = range_size(r, first, n_first);
  r.require(k <= n, "the middle iterator lies past the range's end");
  if (k > 0 && k < n) {
    reverse_n(r, first, k);
    reverse_n(r, n_first, n - k);
    reverse_n(r, first, n);
  }
  return first + (n - k);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP>
KOKKOS_INLINE_FUNCTION auto rotate_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, std::size_t n_location) {
  return rotate_impl(r, Experimental::begin(v), Experimental::begin(v) + static_cast<std::ptrdiff_t>(n_location),
                     Experimental::end(v));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I, std_iterator O>
KOKKOS_INLINE_FUNCTION O rotate_copy_impl(const R& r, I first, I n_first, I last, O d_first) {
  const auto n = range_size(r, first, last);
  const auto k = range_size(r, first, n_first);
  r.require(k <= n, "the middle iterator lies past the range's end");
  if (n > 0) r.for_n(n, RotateCopyF<I, O>{first, d_first, n, k});
  return d_first + n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class SD, class... SP, class DD, class... DP>
KOKKOS_INLINE_FUNCTION auto rotate_copy_impl(const R& r, KOKKOS_IMPL_STD_VIEW(S) source, std::size_t n_location,
                                             KOKKOS_IMPL_STD_VIEW(D) dest) {
  require_fits(r, source, dest);
  return rotate_copy_impl(r, Experimental::cbegin(source),
                          Experimental::cbegin(source) + static_cast<std::ptrdiff_t>(n_location),
                          Experimental::cend(source), Experimental::begin(dest));
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Size>
KOKKOS_INLINE_FUNCTION It shift_left_impl(const R& r, It first, It last, Size shift) {
  const auto n = range_size(r, first, last);
  const auto s = count_size(r, shift);
  if (s == 0) return last;
  if (s >= n) return first;
  move_overlapping(r, first + s, first, n - s);
  return first + (n - s);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Size>
KOKKOS_INLINE_FUNCTION auto shift_left_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Size shift) {
  return shift_left_impl(r, Experimental::begin(v), Experimental::end(v), shift);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Size>
KOKKOS_INLINE_FUNCTION It shift_right_impl(const R& r, It first, It last, Size shift) {
  const auto n = range_size(r, first, last);
  const auto s = count_size(r, shift);
  if (s == 0) return first;
  if (s >= n) return last;
  move_overlapping(r, first, first + s, n - s);
  return first + s;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Size>
KOKKOS_INLINE_FUNCTION auto shift_right_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Size shift) {
  return shift_right_impl(r, Experimental::begin(v), Experimental::end(v), shift);
}

// equal, mismatch, lexicographical_compare
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I1, std_iterator I2, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION bool equal_impl(const R& r, I1 first1, I1 last1, I2 first2, Pred pred = {}) {
  const auto n = range_size(r, first1, last1);
  return first_index(r, n, PairIs<I1, I2, Not<Pred>>{first1, first2, {pred}}) == n;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I1, std_iterator I2, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION bool equal_impl(const R& r, I1 first1, I1 last1, I2 first2, I2 last2, Pred pred = {}) {
  if (range_size(r, first1, last1) != range_size(r, first2, last2)) return false;
  return equal_impl(r, first1, last1, first2, pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class AD, class... AP, class BD, class... BP, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION bool equal_impl(const R& r, KOKKOS_IMPL_STD_VIEW(A) a, KOKKOS_IMPL_STD_VIEW(B) b,
                                       Pred pred = {}) {
  return equal_impl(r, Experimental::cbegin(a), Experimental::cend(a), Experimental::cbegin(b), Experimental::cend(b),
                    pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I1, std_iterator I2, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION Kokkos::pair<I1, I2> mismatch_impl(const R& r, I1 first1, I1 last1, I2 first2, I2 last2,
                                                          Pred pred = {}) {
  const auto n1 = range_size(r, first1, last1);
  const auto n2 = range_size(r, first2, last2);
  const auto m = first_index(r, n1 < n2 ? n1 : n2, PairIs<I1, I2, Not<Pred>>{first1, first2, {pred}});
  return {first1 + m, first2 + m};
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class AD, class... AP, class BD, class... BP, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION auto mismatch_impl(const R& r, KOKKOS_IMPL_STD_VIEW(A) a, KOKKOS_IMPL_STD_VIEW(B) b,
                                          Pred pred = {}) {
  return mismatch_impl(r, Experimental::begin(a), Experimental::end(a), Experimental::begin(b), Experimental::end(b),
                       pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator I1, std_iterator I2, class Comp = Less>
KOKKOS_INLINE_FUNCTION bool lexicographical_compare_impl(const R& r, I1 first1, I1 last1, I2 first2, I2 last2,
                                                         Comp comp = {}) {
  const auto n1 = range_size(r, first1, last1);
  const auto n2 = range_size(r, first2, last2);
  const auto m = n1 < n2 ? n1 : n2;
  const auto i = first_index(r, m, Differs<I1, I2, Comp>{first1, first2, comp});
  return i < m ? comp(first1[i], first2[i]) : n1 < n2;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class AD, class... AP, class BD, class... BP, class Comp = Less>
KOKKOS_INLINE_FUNCTION bool lexicographical_compare_impl(const R& r, KOKKOS_IMPL_STD_VIEW(A) a,
                                                         KOKKOS_IMPL_STD_VIEW(B) b, Comp comp = {}) {
  return lexicographical_compare_impl(r, Experimental::cbegin(a), Experimental::cend(a), Experimental::cbegin(b),
                                      Experimental::cend(b), comp);
}

// adjacent_find, is_sorted_until, is_sorted, is_partitioned, partition_point
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION It adjacent_find_impl(const R& r, It first, It last, Pred pred = {}) {
  const auto n = range_size(r, first, last);
  if (n < 2) return last;
  const auto i = first_index(r, n - 1, NextPairIs<It, Pred>{first, pred});
  return i < n - 1 ? first + i : last;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION auto adjacent_find_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred = {}) {
  return adjacent_find_impl(r, Experimental::begin(v), Experimental::end(v), pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Comp = Less>
KOKKOS_INLINE_FUNCTION It is_sorted_until_impl(const R& r, It first, It last, Comp comp = {}) {
  const auto n = range_size(r, first, last);
  if (n < 2) return last;
  const auto i = first_index(r, n - 1, NextPairIs<It, Flipped<Comp>>{first, {comp}});
  return i < n - 1 ? first + (i + 1) : last;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Comp = Less>
KOKKOS_INLINE_FUNCTION auto is_sorted_until_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Comp comp = {}) {
  return is_sorted_until_impl(r, Experimental::begin(v), Experimental::end(v), comp);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Comp = Less>
KOKKOS_INLINE_FUNCTION bool is_sorted_impl(const R& r, It first, It last, Comp comp = {}) {
  return is_sorted_until_impl(r, first, last, comp) == last;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Comp = Less>
KOKKOS_INLINE_FUNCTION bool is_sorted_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Comp comp = {}) {
  return is_sorted_impl(r, Experimental::cbegin(v), Experimental::cend(v), comp);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred>
KOKKOS_INLINE_FUNCTION bool is_partitioned_impl(const R& r, It first, It last, Pred pred) {
  const auto n = range_size(r, first, last);
  const auto first_false = first_index(r, n, ElementIs<It, Not<Pred>>{first, {pred}});
  const auto last_true = last_index(r, n, ElementIs<It, Pred>{first, pred});
  return last_true < first_false;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred>
KOKKOS_INLINE_FUNCTION bool is_partitioned_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred) {
  return is_partitioned_impl(r, Experimental::cbegin(v), Experimental::cend(v), pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Pred>
KOKKOS_INLINE_FUNCTION It partition_point_impl(const R& r, It first, It last, Pred pred) {
  return find_if_impl(r, first, last, Not<Pred>{pred});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Pred>
KOKKOS_INLINE_FUNCTION auto partition_point_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Pred pred) {
  return partition_point_impl(r, Experimental::begin(v), Experimental::end(v), pred);
}

// search, search_n, find_end, find_first_of
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, std_iterator S, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION It search_impl(const R& r, It first, It last, S s_first, S s_last, Pred pred = {}) {
  const auto n = range_size(r, first, last);
  const auto m = range_size(r, s_first, s_last);
  if (m == 0) return first;
  if (m > n) return last;
  const auto i = first_index(r, n - m + 1, MatchesAt<It, S, Pred>{first, s_first, m, pred});
  return i <= n - m ? first + i : last;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class SD, class... SP, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION auto search_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, KOKKOS_IMPL_STD_VIEW(S) s,
                                        Pred pred = {}) {
  return search_impl(r, Experimental::begin(v), Experimental::end(v), Experimental::begin(s), Experimental::end(s),
                     pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, std_iterator S, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION It find_end_impl(const R& r, It first, It last, S s_first, S s_last, Pred pred = {}) {
  const auto n = range_size(r, first, last);
  const auto m = range_size(r, s_first, s_last);
  if (m == 0 || m > n) return last;
  const auto i = last_index(r, n - m + 1, MatchesAt<It, S, Pred>{first, s_first, m, pred});
  return i >= 0 ? first + i : last;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class SD, class... SP, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION auto find_end_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, KOKKOS_IMPL_STD_VIEW(S) s,
                                          Pred pred = {}) {
  return find_end_impl(r, Experimental::begin(v), Experimental::end(v), Experimental::begin(s), Experimental::end(s),
                       pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, class Size, class T, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION It search_n_impl(const R& r, It first, It last, Size count, const T& value, Pred pred = {}) {
  const auto n = range_size(r, first, last);
  const auto c = static_cast<std::int64_t>(count);
  if (c <= 0) return first;
  if (c > n) return last;
  const auto i = first_index(r, n - c + 1, RunAt<It, T, Pred>{first, c, value, pred});
  return i <= n - c ? first + i : last;
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class Size, class T, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION auto search_n_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, Size count, const T& value,
                                          Pred pred = {}) {
  return search_n_impl(r, Experimental::begin(v), Experimental::end(v), count, value, pred);
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, std_iterator It, std_iterator S, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION It find_first_of_impl(const R& r, It first, It last, S s_first, S s_last, Pred pred = {}) {
  const auto n = range_size(r, first, last);
  const auto m = range_size(r, s_first, s_last);
  if (m == 0) return last;
  return first + first_index(r, n, InSet<It, S, Pred>{first, s_first, m, pred});
}
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class R, class VD, class... VP, class SD, class... SP, class Pred = EqualTo>
KOKKOS_INLINE_FUNCTION auto find_first_of_impl(const R& r, KOKKOS_IMPL_STD_VIEW(V) v, KOKKOS_IMPL_STD_VIEW(S) s,
                                               Pred pred = {}) {
  return find_first_of_impl(r, Experimental::begin(v), Experimental::end(v), Experimental::begin(s),
                            Experimental::end(s), pred);
}

#undef KOKKOS_IMPL_STD_SCAN_VIEW_FORM
#undef KOKKOS_IMPL_STD_VIEW

template <class First, class... Rest>
constexpr const char* default_label(const char* view_label, const char* iterator_label) {
  return Kokkos::is_view_v<First> ? view_label : iterator_label;
}

template <class IteratorType>
struct IterSwapF {
  IteratorType a, b;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t) const {
    auto tmp = std::move(*a);
    *a = std::move(*b);
    *b = std::move(tmp);
  }
};

}  // namespace Impl

// ---- the public overload sets -------------------------------------------------------------------
// Each NAME: (space, args...), (label, space, args...) and, in a TeamPolicy kernel,
// (team, args...); args are iterators or Views as for Impl::NAME_impl above.

#define KOKKOS_IMPL_STD_ALGORITHM(NAME)                                                                         \
  template <class ExecutionSpace, class First, class... Args>                                                   \
    requires ::Kokkos::is_execution_space_v<ExecutionSpace>                                                     \
  auto NAME(const ExecutionSpace& ex, const First& first, const Args&... args) {                                \
    return Impl::NAME##_impl(                                                                                   \
        Impl::SpaceRunner<ExecutionSpace>{                                                                      \
            Impl::default_label<First>("Kokkos::" #NAME "_view_api_default", "Kokkos::" #NAME "_iterator_api_default"), \
            ex, #NAME},                                                                                         \
        first, args...);                                                                                        \
  }                                                                                                             \
  template <class ExecutionSpace, class... Args>                                                                \
    requires ::Kokkos::is_execution_space_v<ExecutionSpace>                                                     \
  auto NAME(const std::string& label, const ExecutionSpace& ex, const Args&... args) {                          \
    return Impl::NAME##_impl(Impl::SpaceRunner<ExecutionSpace>{label, ex, #NAME}, args...);                            \
  }                                                                                                             \
  template <class TeamHandleType, class... Args>                                                                \
    requires ::Kokkos::is_team_handle_v<TeamHandleType>                                                         \
  KOKKOS_INLINE_FUNCTION auto NAME(const TeamHandleType& team, const Args&... args) {                           \
    return Impl::NAME##_impl(Impl::TeamRunner<TeamHandleType>{team, #NAME}, args...);                                  \
  }

KOKKOS_IMPL_STD_ALGORITHM(for_each)
KOKKOS_IMPL_STD_ALGORITHM(for_each_n)
KOKKOS_IMPL_STD_ALGORITHM(fill)
KOKKOS_IMPL_STD_ALGORITHM(fill_n)
KOKKOS_IMPL_STD_ALGORITHM(generate)
KOKKOS_IMPL_STD_ALGORITHM(generate_n)
KOKKOS_IMPL_STD_ALGORITHM(copy)
KOKKOS_IMPL_STD_ALGORITHM(copy_n)
KOKKOS_IMPL_STD_ALGORITHM(copy_backward)
KOKKOS_IMPL_STD_ALGORITHM(copy_if)
KOKKOS_IMPL_STD_ALGORITHM(move)
KOKKOS_IMPL_STD_ALGORITHM(move_backward)
KOKKOS_IMPL_STD_ALGORITHM(swap_ranges)
KOKKOS_IMPL_STD_ALGORITHM(transform)
KOKKOS_IMPL_STD_ALGORITHM(replace)
KOKKOS_IMPL_STD_ALGORITHM(replace_if)
KOKKOS_IMPL_STD_ALGORITHM(replace_copy)
KOKKOS_IMPL_STD_ALGORITHM(replace_copy_if)
KOKKOS_IMPL_STD_ALGORITHM(reduce)
KOKKOS_IMPL_STD_ALGORITHM(transform_reduce)
KOKKOS_IMPL_STD_ALGORITHM(find)
KOKKOS_IMPL_STD_ALGORITHM(find_if)
KOKKOS_IMPL_STD_ALGORITHM(find_if_not)
KOKKOS_IMPL_STD_ALGORITHM(count)
KOKKOS_IMPL_STD_ALGORITHM(count_if)
KOKKOS_IMPL_STD_ALGORITHM(all_of)
KOKKOS_IMPL_STD_ALGORITHM(any_of)
KOKKOS_IMPL_STD_ALGORITHM(none_of)
KOKKOS_IMPL_STD_ALGORITHM(min_element)
KOKKOS_IMPL_STD_ALGORITHM(max_element)
KOKKOS_IMPL_STD_ALGORITHM(minmax_element)
KOKKOS_IMPL_STD_ALGORITHM(inclusive_scan)
KOKKOS_IMPL_STD_ALGORITHM(exclusive_scan)
KOKKOS_IMPL_STD_ALGORITHM(transform_inclusive_scan)
KOKKOS_IMPL_STD_ALGORITHM(transform_exclusive_scan)
KOKKOS_IMPL_STD_ALGORITHM(adjacent_difference)
KOKKOS_IMPL_STD_ALGORITHM(remove_copy)
KOKKOS_IMPL_STD_ALGORITHM(remove_copy_if)
KOKKOS_IMPL_STD_ALGORITHM(unique_copy)
KOKKOS_IMPL_STD_ALGORITHM(partition_copy)
KOKKOS_IMPL_STD_ALGORITHM(unique)
KOKKOS_IMPL_STD_ALGORITHM(remove)
KOKKOS_IMPL_STD_ALGORITHM(remove_if)
KOKKOS_IMPL_STD_ALGORITHM(reverse)
KOKKOS_IMPL_STD_ALGORITHM(reverse_copy)
KOKKOS_IMPL_STD_ALGORITHM(rotate)
KOKKOS_IMPL_STD_ALGORITHM(rotate_copy)
KOKKOS_IMPL_STD_ALGORITHM(shift_left)
KOKKOS_IMPL_STD_ALGORITHM(shift_right)
KOKKOS_IMPL_STD_ALGORITHM(equal)
KOKKOS_IMPL_STD_ALGORITHM(mismatch)
KOKKOS_IMPL_STD_ALGORITHM(lexicographical_compare)
KOKKOS_IMPL_STD_ALGORITHM(adjacent_find)
KOKKOS_IMPL_STD_ALGORITHM(is_sorted)
KOKKOS_IMPL_STD_ALGORITHM(is_sorted_until)
KOKKOS_IMPL_STD_ALGORITHM(is_partitioned)
KOKKOS_IMPL_STD_ALGORITHM(partition_point)
KOKKOS_IMPL_STD_ALGORITHM(search)
KOKKOS_IMPL_STD_ALGORITHM(search_n)
KOKKOS_IMPL_STD_ALGORITHM(find_end)
KOKKOS_IMPL_STD_ALGORITHM(find_first_of)

#undef KOKKOS_IMPL_STD_ALGORITHM

// Swaps *a and *b in the iterators' execution space and waits for it.
template <class IteratorType1, class IteratorType2>
void iter_swap(IteratorType1 a, IteratorType2 b) {
  static_assert(std::is_same_v<IteratorType1, IteratorType2>,
                "Kokkos::Experimental::iter_swap: both iterators must be of the same type");
  using Space = typename Impl::iterator_memory_space<IteratorType1>::type::execution_space;
  Kokkos::parallel_for("Kokkos::iter_swap", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(Space(), 0, 1),
                       Impl::IterSwapF<IteratorType1>{a, b});
  Space().fence();
}

}  // namespace Kokkos::Experimental

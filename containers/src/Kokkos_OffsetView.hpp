#pragma once
// Kokkos::Experimental::OffsetView<DataType, Properties...>: a View whose index range along
// each rank starts at an arbitrary (possibly negative) begin(r) instead of 0.
//
//   Kokkos::Experimental::OffsetView<double*> u("u", {-1, n});   // indices -1 ... n inclusive
//   u(-1) = u(n) = 0;                                            // ghost cells
//   auto plain = u.view();                                       // the 0-based View
//
// Range constructors take inclusive {first, last} pairs (Kokkos' convention); the unmanaged
// constructor OffsetView(ptr, begins, ends) takes half-open [begin, end).  end(r) is always
// one past the last index.  An OffsetView is a View plus Rank begins: it shares the View's
// allocation, reference count and layout, and is device-safe wherever the View is.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

#define KOKKOS_INVALID_OFFSET int64_t(0x7FFFFFFFFFFFFFFFLL)
#define KOKKOS_INVALID_INDEX_RANGE \
  { KOKKOS_INVALID_OFFSET, KOKKOS_INVALID_OFFSET }

namespace Kokkos {
namespace Experimental {

template <class DataType, class... Properties>
class OffsetView;

template <class>
struct is_offset_view : public std::false_type {};
template <class D, class... P>
struct is_offset_view<OffsetView<D, P...>> : public std::true_type {};
template <class D, class... P>
struct is_offset_view<const OffsetView<D, P...>> : public std::true_type {};
template <class T>
inline constexpr bool is_offset_view_v = is_offset_view<T>::value;

namespace Impl {

using index_list_type = std::initializer_list<int64_t>;
using range_type = std::pair<int64_t, int64_t>;

// A subview argument of an OffsetView, moved to the 0-based indices of the underlying View.
template <class T>
KOKKOS_INLINE_FUNCTION auto shift_input(const T& arg, int64_t begin) {
  if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    return static_cast<int64_t>(arg) - begin;
  } else if constexpr (std::is_same_v<T, ALL_t>) {
    (void)begin;
    return arg;
  } else {
    return Kokkos::pair<int64_t, int64_t>(static_cast<int64_t>(arg.first) - begin,
                                          static_cast<int64_t>(arg.second) - begin);
  }
}

// The begin of a rank kept by a subview: ALL keeps the source's begin, a range starts at 0.
template <class T>
inline constexpr bool is_index_arg_v = std::is_integral_v<T> || std::is_enum_v<T>;

[[noreturn]] inline void offset_view_error(const std::string& what) {
  Kokkos::Impl::throw_runtime_exception("Kokkos::Experimental::OffsetView ERROR: " + what);
}

}  // namespace Impl

template <class DataType, class... Properties>
class OffsetView : public ViewTraits<DataType, Properties...> {
 public:
  using traits = ViewTraits<DataType, Properties...>;
  using view_type = View<typename traits::scalar_array_type, typename traits::array_layout,
                         typename traits::device_type, typename traits::memory_traits>;
  using typename traits::array_layout;
  using typename traits::const_data_type;
  using typename traits::device_type;
  using typename traits::execution_space;
  using typename traits::memory_space;
  using typename traits::memory_traits;
  using typename traits::non_const_data_type;
  using typename traits::value_type;

  static constexpr std::size_t Rank = traits::rank;
  static constexpr Kokkos::Impl::integral_constant<std::size_t, Rank> rank = {};
  using begins_type = Kokkos::Array<int64_t, Rank>;
  using index_list_type = Impl::index_list_type;
  using reference_type = typename view_type::reference_type;
  using pointer_type = typename view_type::pointer_type;

  using const_type = OffsetView<const_data_type, array_layout, device_type, memory_traits>;
  using non_const_type = OffsetView<non_const_data_type, array_layout, device_type, memory_traits>;
  // The OffsetView over view_type::HostMirror, so that mirrors of the View and of the
  // OffsetView have the same type.
  using HostMirror = OffsetView<non_const_data_type, array_layout,
                                Device<DefaultHostExecutionSpace, typename traits::host_mirror_space::memory_space>>;

 private:
  template <class, class...>
  friend class OffsetView;

  view_type m_view;
  // A plain array rather than begins_type: Kokkos::Array<T, 0> has no elements to index.
  int64_t m_begins[Rank == 0 ? 1 : Rank];

  KOKKOS_INLINE_FUNCTION void impl_copy_begins(const begins_type& begins) {
    if constexpr (Rank > 0)
      for (std::size_t r = 0; r < Rank; ++r) m_begins[r] = begins[r];
  }

 public:
  // ------------------------------------------------------------------------------------------
  // Construction.
  KOKKOS_INLINE_FUNCTION OffsetView() : m_view(), m_begins{} {
    for (std::size_t r = 0; r < Rank; ++r) m_begins[r] = KOKKOS_INVALID_OFFSET;
  }

  // Around a View: begins 0, the given begins, or a list of begins.
  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION OffsetView(const View<RT, RP...>& v) : m_view(v), m_begins{} {
    for (int r = 0; r < static_cast<int>(Rank); ++r) m_begins[r] = 0;  // int: Rank may be 0
  }
  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION OffsetView(const View<RT, RP...>& v, const begins_type& begins)
      : m_view(v), m_begins{} {
    impl_copy_begins(begins);
  }
  template <class RT, class... RP>
  OffsetView(const View<RT, RP...>& v, index_list_type begins) : m_view(v), m_begins{} {
    impl_set_begins(begins);
  }

  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION OffsetView(const OffsetView<RT, RP...>& rhs) : m_view(rhs.m_view), m_begins{} {
    impl_copy_begins(rhs.begins());
  }

  // Unmanaged, around p, with half-open index ranges [begins[r], ends[r]).
  OffsetView(const pointer_type& p, const begins_type& begins, const begins_type& ends) { impl_wrap(p, begins, ends); }
  OffsetView(const pointer_type& p, const begins_type& begins, index_list_type ends) { impl_wrap(p, begins, ends); }
  OffsetView(const pointer_type& p, index_list_type begins, const begins_type& ends) { impl_wrap(p, begins, ends); }
  OffsetView(const pointer_type& p, index_list_type begins, index_list_type ends) { impl_wrap(p, begins, ends); }

  // Allocating, with inclusive index ranges {first, last}, one per rank.
  template <class Label, std::enable_if_t<Kokkos::Impl::is_view_label<std::remove_cv_t<Label>>::value, int> = 0>
  explicit OffsetView(const Label& arg_label, const Impl::range_type range0,
                      const Impl::range_type range1 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range2 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range3 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range4 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range5 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range6 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range7 = KOKKOS_INVALID_INDEX_RANGE)
      : OffsetView(Kokkos::view_alloc(std::string(arg_label)), range0, range1, range2, range3, range4, range5, range6,
                   range7) {}

  template <class... P>
  explicit OffsetView(const Kokkos::Impl::ViewCtorProp<P...>& arg_prop,
                      const Impl::range_type range0 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range1 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range2 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range3 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range4 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range5 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range6 = KOKKOS_INVALID_INDEX_RANGE,
                      const Impl::range_type range7 = KOKKOS_INVALID_INDEX_RANGE) {
    const Impl::range_type ranges[8] = {range0, range1, range2, range3, range4, range5, range6, range7};
    const std::string label = arg_prop.get_label();
    std::size_t given = 0;
    while (given < 8 && ranges[given] != Impl::range_type KOKKOS_INVALID_INDEX_RANGE) ++given;
    if (given != Rank)
      Impl::offset_view_error("\"" + label + "\": " + std::to_string(given) + " index ranges given for rank " +
                              std::to_string(Rank));
    array_layout layout;
    for (std::size_t r = 0; r < Rank; ++r) {
      if (ranges[r].second < ranges[r].first - 1)
        Impl::offset_view_error("\"" + label + "\": index range " + std::to_string(r) + " = {" +
                                std::to_string(ranges[r].first) + ", " + std::to_string(ranges[r].second) +
                                "} has its last index before its first");
      layout.dimension[r] = static_cast<std::size_t>(ranges[r].second - ranges[r].first + 1);
      m_begins[r] = ranges[r].first;
    }
    impl_allocate(arg_prop, layout);
  }

  // view_alloc(...) or view_wrap(ptr) with a layout and the begins.
  template <class... P>
  explicit OffsetView(const Kokkos::Impl::ViewCtorProp<P...>& arg_prop, const array_layout& arg_layout,
                      index_list_type begins) {
    impl_set_begins(begins);
    impl_allocate(arg_prop, arg_layout);
  }

  // ------------------------------------------------------------------------------------------
  // Index ranges and shape.
  KOKKOS_INLINE_FUNCTION int64_t begin(const std::size_t r) const {
    return static_cast<std::int64_t>(r) < static_cast<std::int64_t>(Rank) ? m_begins[r] : KOKKOS_INVALID_OFFSET;
  }
  KOKKOS_INLINE_FUNCTION int64_t end(const std::size_t r) const {
    return r < Rank ? m_begins[r] + static_cast<int64_t>(m_view.extent(r)) : KOKKOS_INVALID_OFFSET;
  }
  KOKKOS_INLINE_FUNCTION begins_type begins() const {
    begins_type b{};
    if constexpr (Rank > 0)
      for (std::size_t r = 0; r < Rank; ++r) b[r] = m_begins[r];
    return b;
  }

  template <class iType>
  KOKKOS_INLINE_FUNCTION constexpr std::size_t extent(const iType& r) const {
    return m_view.extent(r);
  }
  template <class iType>
  KOKKOS_INLINE_FUNCTION constexpr int extent_int(const iType& r) const {
    return m_view.extent_int(r);
  }
  template <class iType>
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride(const iType& r) const {
    return m_view.stride(r);
  }
  template <class iType>
  KOKKOS_INLINE_FUNCTION void stride(iType* const s) const {
    m_view.stride(s);
  }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t size() const { return m_view.size(); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t span() const { return m_view.span(); }
  KOKKOS_INLINE_FUNCTION constexpr bool span_is_contiguous() const { return m_view.span_is_contiguous(); }
  KOKKOS_INLINE_FUNCTION constexpr pointer_type data() const { return m_view.data(); }
  KOKKOS_INLINE_FUNCTION constexpr bool is_allocated() const { return m_view.is_allocated(); }
  KOKKOS_INLINE_FUNCTION array_layout layout() const { return m_view.layout(); }
  KOKKOS_INLINE_FUNCTION int use_count() const { return m_view.use_count(); }
  std::string label() const { return m_view.label(); }

  // The same data as a 0-based View.
  KOKKOS_INLINE_FUNCTION view_type view() const { return m_view; }

  // ------------------------------------------------------------------------------------------
  // Element access with offset indices.
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION reference_type operator()(I... i) const {
    static_assert(sizeof...(I) == Rank, "Kokkos::Experimental::OffsetView::operator(): one index per rank");
    static_assert((Kokkos::Impl::is_view_index_v<I> && ...),
                  "Kokkos::Experimental::OffsetView::operator(): indices must be integral");
    return impl_access(std::make_index_sequence<Rank>{}, i...);
  }
  template <class I>
  KOKKOS_FORCEINLINE_FUNCTION reference_type operator[](I i) const {
    static_assert(Rank == 1, "Kokkos::Experimental::OffsetView::operator[]: only for rank-1 views");
    return (*this)(i);
  }

 private:
  template <std::size_t... K, class... I>
  KOKKOS_FORCEINLINE_FUNCTION reference_type impl_access(std::index_sequence<K...>, I... i) const {
#if defined(KOKKOS_IMPL_VIEW_BOUNDS_CHECK)
    (impl_check_index(K, static_cast<int64_t>(i)), ...);
#endif
    return m_view(static_cast<std::size_t>(static_cast<int64_t>(i) - m_begins[K])...);
  }

#if defined(KOKKOS_IMPL_VIEW_BOUNDS_CHECK)
  KOKKOS_INLINE_FUNCTION void impl_check_index(std::size_t r, int64_t i) const {
    if (i >= begin(r) && i < end(r)) return;
    KOKKOS_IF_ON_HOST((char buf[512]; const std::string lbl = m_view.label();
                       std::snprintf(buf, sizeof(buf),
                                     "Kokkos::Experimental::OffsetView ERROR: out of bounds access label=(\"%s\") "
                                     "index %zu = %lld is not in [%lld, %lld)",
                                     lbl.c_str(), r, (long long)i, (long long)begin(r), (long long)end(r));
                       Kokkos::abort(buf);))
    KOKKOS_IF_ON_DEVICE(((void)r; Kokkos::abort("Kokkos::Experimental::OffsetView ERROR: out of bounds access");))
  }
#endif

  template <class B>
  void impl_set_begins(const B& begins) {
    if (begins.size() != Rank)
      Impl::offset_view_error(std::to_string(begins.size()) + " begins given for rank " + std::to_string(Rank));
    for (std::size_t r = 0; r < Rank; ++r) m_begins[r] = *(begins.begin() + r);
  }

  template <class B, class E>
  void impl_wrap(const pointer_type& p, const B& begins, const E& ends) {
    if (ends.size() != Rank)
      Impl::offset_view_error(std::to_string(ends.size()) + " ends given for rank " + std::to_string(Rank));
    impl_set_begins(begins);
    array_layout layout;
    for (std::size_t r = 0; r < Rank; ++r) {
      const int64_t e = *(ends.begin() + r);
      if (e < m_begins[r])
        Impl::offset_view_error("unmanaged OffsetView: end " + std::to_string(r) + " (" + std::to_string(e) +
                                ") is before begin (" + std::to_string(m_begins[r]) + ")");
      layout.dimension[r] = static_cast<std::size_t>(e - m_begins[r]);
    }
    m_view = view_type(p, layout);
  }

  template <class... P>
  void impl_allocate(const Kokkos::Impl::ViewCtorProp<P...>& arg_prop, array_layout layout) {
    if constexpr (std::is_same_v<array_layout, LayoutStride>) {
      std::size_t stride = 1;
      for (std::size_t r = Rank; r-- > 0;) {
        layout.stride[r] = stride;
        stride *= layout.dimension[r];
      }
    }
    m_view = view_type(arg_prop, layout);
  }
};

template <class D, class... P>
KOKKOS_INLINE_FUNCTION constexpr unsigned rank(const OffsetView<D, P...>&) {
  return OffsetView<D, P...>::Rank;
}

namespace Impl {
// An OffsetView of v with the given begins, whatever the type of v.
template <class D, class... P, std::size_t N>
KOKKOS_INLINE_FUNCTION OffsetView<D, P...> offset_view_of(const View<D, P...>& v,
                                                          const Kokkos::Array<int64_t, N>& begins) {
  return OffsetView<D, P...>(v, begins);
}

template <class D, class... P, std::size_t... K, class... Args>
KOKKOS_INLINE_FUNCTION auto subview_offset(const OffsetView<D, P...>& src, std::index_sequence<K...>,
                                           const Args&... args) {
  const auto sub = Kokkos::subview(src.view(), shift_input(args, src.begin(K))...);
  constexpr std::size_t R = decltype(sub)::rank();
  Kokkos::Array<int64_t, R> begins{};
  if constexpr (R > 0) {
    const int64_t kept_begin[] = {(std::is_same_v<Args, ALL_t> ? src.begin(K) : int64_t(0))...};
    constexpr bool is_index[] = {is_index_arg_v<Args>...};
    std::size_t r = 0;
    for (std::size_t k = 0; k < sizeof...(Args); ++k)
      if (!is_index[k]) begins[r++] = kept_begin[k];
  }
  return offset_view_of(sub, begins);
}
}  // namespace Impl

// subview(ov, args...): integral indices and ranges are offset indices; ALL keeps a rank with
// its begin, a range [a, b) becomes a rank that begins at 0 (as in Kokkos).
template <class D, class... P, class... Args>
KOKKOS_INLINE_FUNCTION auto subview(const OffsetView<D, P...>& src, Args... args) {
  static_assert(sizeof...(Args) == OffsetView<D, P...>::Rank,
                "Kokkos::Experimental::subview: give exactly one argument per rank of the OffsetView");
  return Impl::subview_offset(src, std::make_index_sequence<sizeof...(Args)>{}, args...);
}

// Same data, layout, extents and begins.
template <class LT, class... LP, class RT, class... RP>
KOKKOS_INLINE_FUNCTION bool operator==(const OffsetView<LT, LP...>& lhs, const OffsetView<RT, RP...>& rhs) {
  if (!(lhs.view() == rhs.view())) return false;
  for (std::size_t r = 0; r < OffsetView<LT, LP...>::Rank; ++r)
    if (lhs.begin(r) != rhs.begin(r)) return false;
  return true;
}
template <class LT, class... LP, class RT, class... RP>
KOKKOS_INLINE_FUNCTION bool operator!=(const OffsetView<LT, LP...>& lhs, const OffsetView<RT, RP...>& rhs) {
  return !(lhs == rhs);
}
template <class LT, class... LP, class RT, class... RP>
KOKKOS_INLINE_FUNCTION bool operator==(const View<LT, LP...>& lhs, const OffsetView<RT, RP...>& rhs) {
  return lhs == rhs.view();
}
template <class LT, class... LP, class RT, class... RP>
KOKKOS_INLINE_FUNCTION bool operator==(const OffsetView<LT, LP...>& lhs, const View<RT, RP...>& rhs) {
  return lhs.view() == rhs;
}

}  // namespace Experimental

// ---------------------------------------------------------------------------------------------
// deep_copy: element by element over the 0-based Views (the begins need not match).
template <class DT, class... DP>
inline void deep_copy(const Experimental::OffsetView<DT, DP...>& dst,
                      typename ViewTraits<DT, DP...>::const_value_type& value) {
  Kokkos::deep_copy(dst.view(), value);
}
template <class DT, class... DP, class ST, class... SP>
inline void deep_copy(const Experimental::OffsetView<DT, DP...>& dst, const Experimental::OffsetView<ST, SP...>& src) {
  Kokkos::deep_copy(dst.view(), src.view());
}
template <class DT, class... DP, class ST, class... SP>
inline void deep_copy(const Experimental::OffsetView<DT, DP...>& dst, const View<ST, SP...>& src) {
  Kokkos::deep_copy(dst.view(), src);
}
template <class DT, class... DP, class ST, class... SP>
inline void deep_copy(const View<DT, DP...>& dst, const Experimental::OffsetView<ST, SP...>& src) {
  Kokkos::deep_copy(dst, src.view());
}

// Mirrors keep the begins of the source.
template <class T, class... P>
inline auto create_mirror(const Experimental::OffsetView<T, P...>& src) {
  return Experimental::Impl::offset_view_of(Kokkos::create_mirror(src.view()), src.begins());
}
template <class T, class... P>
inline auto create_mirror(Impl::WithoutInitializing_t wi, const Experimental::OffsetView<T, P...>& src) {
  return Experimental::Impl::offset_view_of(Kokkos::create_mirror(wi, src.view()), src.begins());
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline auto create_mirror(const Space& space, const Experimental::OffsetView<T, P...>& src) {
  return Experimental::Impl::offset_view_of(Kokkos::create_mirror(space, src.view()), src.begins());
}
template <class T, class... P>
inline auto create_mirror_view(const Experimental::OffsetView<T, P...>& src) {
  return Experimental::Impl::offset_view_of(Kokkos::create_mirror_view(src.view()), src.begins());
}
template <class T, class... P>
inline auto create_mirror_view(Impl::WithoutInitializing_t wi, const Experimental::OffsetView<T, P...>& src) {
  return Experimental::Impl::offset_view_of(Kokkos::create_mirror_view(wi, src.view()), src.begins());
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline auto create_mirror_view(const Space& space, const Experimental::OffsetView<T, P...>& src) {
  return Experimental::Impl::offset_view_of(Kokkos::create_mirror_view(space, src.view()), src.begins());
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline auto create_mirror_view_and_copy(const Space& space, const Experimental::OffsetView<T, P...>& src) {
  return Experimental::Impl::offset_view_of(Kokkos::create_mirror_view_and_copy(space, src.view()), src.begins());
}

}  // namespace Kokkos

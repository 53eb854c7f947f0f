#pragma once
// Kokkos::DynRankView<DataType, Properties...>: a View whose rank (0 to 7) is chosen at run
// time.  DataType is the value type (no * or []); the properties are those of View.
//
//   Kokkos::DynRankView<double> a("a", n0, n1);        // rank 2, from the number of extents
//   a(i, j) = 1;  a(i, j, 0) = 1;                      // trailing indices beyond the rank: 0
//   auto row = Kokkos::subdynrankview(a, i, Kokkos::ALL);   // rank 1, LayoutStride
//
// It is a rank-7 View whose extents beyond rank() are 1, plus the rank: every operation is
// the View's, so allocation, reference counting, deep_copy and device-safety are the View's.
// As in Kokkos: extent(r) is 1 for r >= rank(); operator() takes at least rank() indices and
// extra ones must be 0 (checked with bounds checking); every subview has LayoutStride; a View
// converts to a DynRankView of its layout (or LayoutStride).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

namespace Kokkos {

template <class DataType, class... Properties>
class DynRankView;

template <class>
struct is_dyn_rank_view : public std::false_type {};
template <class D, class... P>
struct is_dyn_rank_view<DynRankView<D, P...>> : public std::true_type {};
template <class D, class... P>
struct is_dyn_rank_view<const DynRankView<D, P...>> : public std::true_type {};
template <class T>
inline constexpr bool is_dyn_rank_view_v = is_dyn_rank_view<T>::value;

namespace Impl {

inline constexpr unsigned dyn_rank_view_max_rank = 7;

// The rank given by leading extents that are set (unset ones are KOKKOS_INVALID_INDEX).
inline unsigned dyn_rank_from_extents(const char* label, const std::size_t* n) {
  unsigned rank = 0;
  while (rank < 8 && n[rank] != KOKKOS_INVALID_INDEX) ++rank;
  for (unsigned r = rank; r < 8; ++r)
    if (n[r] != KOKKOS_INVALID_INDEX)
      throw_runtime_exception(std::string("Kokkos::DynRankView \"") + label + "\": extent " + std::to_string(r) +
                              " is given but extent " + std::to_string(rank) + " is not");
  if (rank > dyn_rank_view_max_rank)
    throw_runtime_exception(std::string("Kokkos::DynRankView \"") + label + "\": rank " + std::to_string(rank) +
                            " exceeds the maximum rank 7");
  return rank;
}

// Layout of the rank-7 View: the first `rank` dimensions, then extent 1.
template <class Layout>
Layout dyn_rank_padded_layout(const Layout& layout, unsigned rank) {
  Layout padded = layout;
  for (unsigned r = rank; r < ARRAY_LAYOUT_MAX_RANK; ++r) padded.dimension[r] = 1;
  if constexpr (std::is_same_v<Layout, LayoutStride>) {
    // A stride-less layout (all zero) gets compact right-to-left strides.
    bool has_strides = false;
    for (unsigned r = 0; r < rank; ++r) has_strides = has_strides || layout.stride[r] != 0;
    std::size_t s = 1;
    for (unsigned r = ARRAY_LAYOUT_MAX_RANK; r-- > 0;) {
      if (r >= rank) padded.stride[r] = 0;
      else if (!has_strides) padded.stride[r] = s;
      s *= padded.dimension[r];
    }
  }
  return padded;
}

template <class Layout>
unsigned dyn_rank_of_layout(const char* label, const Layout& layout) {
  std::size_t n[8];
  for (unsigned r = 0; r < 8; ++r) n[r] = r < ARRAY_LAYOUT_MAX_RANK ? layout.dimension[r] : KOKKOS_INVALID_INDEX;
  return dyn_rank_from_extents(label, n);
}

}  // namespace Impl

template <class DataType, class... Properties>
class DynRankView : public ViewTraits<DataType, Properties...> {
  static_assert(!std::is_array_v<DataType> && !std::is_pointer_v<DataType>,
                "Kokkos::DynRankView: the data type is the value type (DynRankView<double>, not <double*>)");

 public:
  using drvtraits = ViewTraits<DataType, Properties...>;
  using view_type = View<DataType*******, Properties...>;
  using traits = ViewTraits<DataType*******, Properties...>;
  using typename drvtraits::array_layout;
  using typename drvtraits::device_type;
  using typename drvtraits::execution_space;
  using typename drvtraits::memory_space;
  using typename drvtraits::memory_traits;
  using typename drvtraits::value_type;
  using typename drvtraits::const_value_type;
  using typename drvtraits::non_const_value_type;

  using array_type = DynRankView<typename drvtraits::scalar_array_type, array_layout, device_type, memory_traits>;
  using const_type = DynRankView<typename drvtraits::const_data_type, array_layout, device_type, memory_traits>;
  using non_const_type = DynRankView<typename drvtraits::non_const_data_type, array_layout, device_type, memory_traits>;
  // Mirrors land where the mirror of the underlying View lands.
  using HostMirror = DynRankView<typename drvtraits::non_const_data_type, array_layout,
                                 Device<DefaultHostExecutionSpace, typename drvtraits::host_mirror_space::memory_space>>;
  using host_mirror_type = HostMirror;

  using reference_type = typename view_type::reference_type;
  using pointer_type = typename view_type::pointer_type;
  enum { reference_type_is_lvalue_reference = std::is_lvalue_reference_v<reference_type> };

 private:
  template <class, class...>
  friend class DynRankView;

  view_type m_view;
  unsigned m_rank;

  using map_type = typename view_type::map_type;

 public:
  // ------------------------------------------------------------------------------------------
  // Construction.
  KOKKOS_INLINE_FUNCTION DynRankView() : m_view(), m_rank(0) {}

  // Internal: a rank-7 View and the rank it represents.
  KOKKOS_INLINE_FUNCTION DynRankView(Impl::ViewImplTag, const view_type& v, unsigned rank) : m_view(v), m_rank(rank) {}

  // From a compatible DynRankView (const, memory traits, LayoutStride).
  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION DynRankView(const DynRankView<RT, RP...>& rhs) : m_view(rhs.m_view), m_rank(rhs.m_rank) {}
  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION DynRankView& operator=(const DynRankView<RT, RP...>& rhs) {
    m_view = rhs.m_view;
    m_rank = rhs.m_rank;
    return *this;
  }

  // From a View of rank <= 7 with the same layout (or any layout, for a LayoutStride
  // DynRankView): shares the allocation.
  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION DynRankView(const View<RT, RP...>& v) : m_view(impl_view_of(v)), m_rank(View<RT, RP...>::rank()) {}
  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION DynRankView& operator=(const View<RT, RP...>& v) {
    m_view = impl_view_of(v);
    m_rank = View<RT, RP...>::rank();
    return *this;
  }

  // Allocation: the rank is the number of extents given.
  template <class Label, std::enable_if_t<Impl::is_view_label<std::remove_cv_t<Label>>::value, int> = 0>
  explicit DynRankView(const Label& arg_label, const std::size_t n0 = KOKKOS_INVALID_INDEX,
                       const std::size_t n1 = KOKKOS_INVALID_INDEX, const std::size_t n2 = KOKKOS_INVALID_INDEX,
                       const std::size_t n3 = KOKKOS_INVALID_INDEX, const std::size_t n4 = KOKKOS_INVALID_INDEX,
                       const std::size_t n5 = KOKKOS_INVALID_INDEX, const std::size_t n6 = KOKKOS_INVALID_INDEX,
                       const std::size_t n7 = KOKKOS_INVALID_INDEX)
      : DynRankView(Kokkos::view_alloc(std::string(arg_label)), n0, n1, n2, n3, n4, n5, n6, n7) {}

  template <class... P>
  explicit DynRankView(const Impl::ViewCtorProp<P...>& arg_prop, const std::size_t n0 = KOKKOS_INVALID_INDEX,
                       const std::size_t n1 = KOKKOS_INVALID_INDEX, const std::size_t n2 = KOKKOS_INVALID_INDEX,
                       const std::size_t n3 = KOKKOS_INVALID_INDEX, const std::size_t n4 = KOKKOS_INVALID_INDEX,
                       const std::size_t n5 = KOKKOS_INVALID_INDEX, const std::size_t n6 = KOKKOS_INVALID_INDEX,
                       const std::size_t n7 = KOKKOS_INVALID_INDEX)
      : m_view(), m_rank(0) {
    const std::size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
    m_rank = Impl::dyn_rank_from_extents(arg_prop.get_label().c_str(), n);
    std::size_t d[7];
    for (unsigned r = 0; r < 7; ++r) d[r] = r < m_rank ? n[r] : 1;
    m_view = view_type(arg_prop, d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
  }

  // Allocation with a layout: the rank is the number of leading dimensions that are set.
  template <class Label, std::enable_if_t<Impl::is_view_label<std::remove_cv_t<Label>>::value, int> = 0>
  explicit DynRankView(const Label& arg_label, const array_layout& arg_layout)
      : DynRankView(Kokkos::view_alloc(std::string(arg_label)), arg_layout) {}
  template <class... P>
  explicit DynRankView(const Impl::ViewCtorProp<P...>& arg_prop, const array_layout& arg_layout)
      : m_view(), m_rank(Impl::dyn_rank_of_layout(arg_prop.get_label().c_str(), arg_layout)) {
    m_view = view_type(arg_prop, Impl::dyn_rank_padded_layout(arg_layout, m_rank));
  }

  // Unmanaged, around user memory.
  template <class Ptr, std::enable_if_t<std::is_convertible_v<Ptr, pointer_type> && !std::is_integral_v<Ptr> &&
                                            !Impl::is_view_label<std::remove_cv_t<Ptr>>::value,
                                        int> = 0>
  explicit DynRankView(const Ptr& arg_ptr, const std::size_t n0 = KOKKOS_INVALID_INDEX,
                       const std::size_t n1 = KOKKOS_INVALID_INDEX, const std::size_t n2 = KOKKOS_INVALID_INDEX,
                       const std::size_t n3 = KOKKOS_INVALID_INDEX, const std::size_t n4 = KOKKOS_INVALID_INDEX,
                       const std::size_t n5 = KOKKOS_INVALID_INDEX, const std::size_t n6 = KOKKOS_INVALID_INDEX,
                       const std::size_t n7 = KOKKOS_INVALID_INDEX)
      : DynRankView(Kokkos::view_wrap(static_cast<pointer_type>(arg_ptr)), n0, n1, n2, n3, n4, n5, n6, n7) {}

  // ------------------------------------------------------------------------------------------
  // Shape.
  KOKKOS_INLINE_FUNCTION constexpr unsigned rank() const { return m_rank; }
  template <class iType>
  KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<std::is_integral_v<iType>, std::size_t> extent(
      const iType& r) const {
    return m_view.extent(r);
  }
  template <class iType>
  KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<std::is_integral_v<iType>, int> extent_int(const iType& r) const {
    return m_view.extent_int(r);
  }
  template <class iType>
  KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<std::is_integral_v<iType>, std::size_t> stride(
      const iType& r) const {
    return m_view.stride(r);
  }
  template <class iType>
  KOKKOS_INLINE_FUNCTION void stride(iType* const s) const {
    m_view.stride(s);
  }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_0() const { return m_view.stride_0(); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_1() const { return m_view.stride_1(); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_2() const { return m_view.stride_2(); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_3() const { return m_view.stride_3(); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_4() const { return m_view.stride_4(); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_5() const { return m_view.stride_5(); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_6() const { return m_view.stride_6(); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_7() const { return m_view.stride_7(); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t size() const { return m_view.size(); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t span() const { return m_view.span(); }
  KOKKOS_INLINE_FUNCTION constexpr bool span_is_contiguous() const { return m_view.span_is_contiguous(); }
  KOKKOS_INLINE_FUNCTION constexpr pointer_type data() const { return m_view.data(); }
  KOKKOS_INLINE_FUNCTION constexpr bool is_allocated() const { return m_view.is_allocated(); }
  // The layout of the first rank() ranks; the dimensions beyond are 1, as in Kokkos.
  KOKKOS_INLINE_FUNCTION array_layout layout() const { return m_view.layout(); }
  KOKKOS_INLINE_FUNCTION int use_count() const { return m_view.use_count(); }
  std::string label() const { return m_view.label(); }

  // The underlying rank-7 View (extents beyond rank() are 1).
  KOKKOS_INLINE_FUNCTION const view_type& DownCast() const { return m_view; }
  KOKKOS_INLINE_FUNCTION const view_type& ConstDownCast() const { return m_view; }

  // ------------------------------------------------------------------------------------------
  // Element access.
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION reference_type operator()(I... i) const {
    static_assert(sizeof...(I) <= 7, "Kokkos::DynRankView::operator(): at most 7 indices");
    static_assert((Impl::is_view_index_v<I> && ...), "Kokkos::DynRankView::operator(): indices must be integral");
#if defined(KOKKOS_IMPL_VIEW_BOUNDS_CHECK)
    const long long idx[] = {static_cast<long long>(i)..., 0LL};
    impl_check_indices(sizeof...(I), idx);
#endif
    return m_view.access(i...);
  }
  // Kokkos: the i-th element of the allocation, whatever the rank.
  template <class I>
  KOKKOS_FORCEINLINE_FUNCTION reference_type operator[](const I& i) const {
    static_assert(Impl::is_view_index_v<I>, "Kokkos::DynRankView::operator[]: the index must be integral");
    return m_view.data()[i];
  }
  // Up to 7 indices, missing ones 0; no check of their number against the rank.
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION reference_type access(I... i) const {
    static_assert(sizeof...(I) <= 7, "Kokkos::DynRankView::access: at most 7 indices");
    return m_view.access(i...);
  }

 private:
  // A rank-7 View of v: v's extents and strides, then extent 1.
  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION static view_type impl_view_of(const View<RT, RP...>& v) {
    using src_type = View<RT, RP...>;
    constexpr std::size_t R = src_type::rank();
    static_assert(R <= 7, "Kokkos::DynRankView: a View of rank 8 cannot become a DynRankView");
    static_assert(std::is_same_v<typename src_type::non_const_value_type, non_const_value_type> &&
                      (std::is_const_v<value_type> || !std::is_const_v<typename src_type::value_type>),
                  "Kokkos::DynRankView from View: the value types must match (const may be added)");
    static_assert(std::is_same_v<typename src_type::memory_space, memory_space>,
                  "Kokkos::DynRankView from View: the memory spaces must match");
    static_assert(std::is_same_v<typename src_type::array_layout, array_layout> ||
                      std::is_same_v<array_layout, LayoutStride>,
                  "Kokkos::DynRankView from View: the layouts must match, or the DynRankView must be LayoutStride");
    std::size_t dims[7], strides[7];
    for (int r = 0; r < 7; ++r) {  // int: R may be 0
      dims[r] = r < static_cast<int>(R) ? v.extent(r) : 1;
      // Beyond the rank: the stride a LayoutLeft View reports (the size), else 1.
      strides[r] = r < static_cast<int>(R) ? v.stride(r) : (std::is_same_v<array_layout, LayoutLeft> ? v.size() : 1);
    }
    map_type map;
    map.set(dims, strides);
    return view_type(Impl::ViewImplTag{}, v.data(), map, v.impl_track(), v.impl_allocation_base(),
                     v.impl_allocation_bytes());
  }

#if defined(KOKKOS_IMPL_VIEW_BOUNDS_CHECK)
  KOKKOS_INLINE_FUNCTION void impl_check_indices(std::size_t given, const long long* idx) const {
    if (given < m_rank) impl_index_error("%zu indices given, at least %zu needed", given, std::size_t(m_rank));
    for (std::size_t r = 0; r < given; ++r) {
      if (r >= m_rank) {
        if (idx[r] != 0) impl_index_error("index %zu = %lld beyond the rank must be 0", r, idx[r]);
      } else if (idx[r] < 0 || std::size_t(idx[r]) >= m_view.extent(r)) {
        impl_index_error("index %zu = %lld is not below extent %zu", r, idx[r], m_view.extent(r));
      }
    }
  }
  template <class... A>
  KOKKOS_INLINE_FUNCTION void impl_index_error(const char* fmt, A... a) const {
    KOKKOS_IF_ON_HOST((char what[256]; std::snprintf(what, sizeof(what), fmt, a...); char buf[512];
                       const std::string lbl = m_view.label();
                       std::snprintf(buf, sizeof(buf),
                                     "Kokkos::DynRankView ERROR: out of bounds access label=(\"%s\") rank %u: %s",
                                     lbl.c_str(), m_rank, what);
                       Kokkos::abort(buf);))
    KOKKOS_IF_ON_DEVICE(((void)fmt; ((void)a, ...); Kokkos::abort("Kokkos::DynRankView ERROR: out of bounds access");))
  }
#endif
};

template <class D, class... P>
KOKKOS_INLINE_FUNCTION constexpr unsigned rank(const DynRankView<D, P...>& v) {
  return v.rank();
}

template <class LT, class... LP, class RT, class... RP>
KOKKOS_INLINE_FUNCTION bool operator==(const DynRankView<LT, LP...>& lhs, const DynRankView<RT, RP...>& rhs) {
  return lhs.rank() == rhs.rank() && lhs.DownCast() == rhs.DownCast();
}
template <class LT, class... LP, class RT, class... RP>
KOKKOS_INLINE_FUNCTION bool operator!=(const DynRankView<LT, LP...>& lhs, const DynRankView<RT, RP...>& rhs) {
  return !(lhs == rhs);
}

// ---------------------------------------------------------------------------------------------
// Subviews: one argument per rank (index, ALL or a range), arguments beyond rank() ignored;
// the result is a LayoutStride DynRankView whose rank is the number of non-index arguments.
template <class D, class... P>
using DynRankSubview =
    DynRankView<typename ViewTraits<D, P...>::value_type, LayoutStride, typename ViewTraits<D, P...>::device_type,
                typename ViewTraits<D, P...>::memory_traits>;

template <class D, class... P, class... Args>
KOKKOS_INLINE_FUNCTION DynRankSubview<D, P...> subdynrankview(const DynRankView<D, P...>& src, Args... args) {
  static_assert(sizeof...(Args) <= 7, "Kokkos::subdynrankview: at most 7 arguments");
  using result = DynRankSubview<D, P...>;
  using result_view = typename result::view_type;
  if (src.rank() > sizeof...(Args))
    Kokkos::abort("Kokkos::subdynrankview: the number of arguments must be at least the rank of the source");
  const auto& v = src.DownCast();
  Impl::SubviewBuilder b;
  KOKKOS_IF_ON_HOST((if (v.impl_track() != nullptr) b.label = v.impl_track()->label_c_str();))
  {
    std::size_t k = 0;
    ((k < src.rank() ? b.add(k, v.extent(k), v.stride(k), args) : void(), ++k), ...);
    (void)k;
  }
  const unsigned rank = static_cast<unsigned>(b.r);
  for (std::size_t r = rank; r < 7; ++r) {
    b.dims[r] = 1;
    b.strides[r] = 0;
  }
  typename result_view::map_type map;
  map.set(b.dims, b.strides);
  const result_view sub(Impl::ViewImplTag{}, v.data() + (map.span() == 0 ? 0 : b.offset), map, v.impl_track(),
                        v.impl_allocation_base(), v.impl_allocation_bytes());
  return result(Impl::ViewImplTag{}, sub, rank);
}

template <class D, class... P, class... Args>
KOKKOS_INLINE_FUNCTION DynRankSubview<D, P...> subview(const DynRankView<D, P...>& src, Args... args) {
  return subdynrankview(src, args...);
}

// ---------------------------------------------------------------------------------------------
// deep_copy: between DynRankViews of equal rank and extents, with a View of that rank, and
// from / to a scalar.
namespace Impl {
template <class V>
KOKKOS_INLINE_FUNCTION auto as_dyn_rank_view(const V& v) {
  if constexpr (is_dyn_rank_view_v<V>) {
    return v;
  } else {
    return DynRankView<typename V::value_type, typename V::array_layout, typename V::device_type,
                       typename V::memory_traits>(v);
  }
}

template <class Exec, class Dst, class Src>
void dyn_rank_deep_copy(const Exec& exec, const Dst& dst, const Src& src) {
  const auto d = as_dyn_rank_view(dst);
  const auto s = as_dyn_rank_view(src);
  if (d.rank() != s.rank())
    throw_runtime_exception("Kokkos::deep_copy: the ranks differ: destination \"" + d.label() + "\" has rank " +
                            std::to_string(d.rank()) + ", source \"" + s.label() + "\" has rank " +
                            std::to_string(s.rank()));
  deep_copy_impl(exec, d.DownCast(), s.DownCast());
}
}  // namespace Impl

template <class DT, class... DP, class ST, class... SP>
inline void deep_copy(const DynRankView<DT, DP...>& dst, const DynRankView<ST, SP...>& src) {
  Impl::dyn_rank_deep_copy(Impl::NoExecSpace{}, dst, src);
}
template <class DT, class... DP, class ST, class... SP>
inline void deep_copy(const DynRankView<DT, DP...>& dst, const View<ST, SP...>& src) {
  Impl::dyn_rank_deep_copy(Impl::NoExecSpace{}, dst, src);
}
template <class DT, class... DP, class ST, class... SP>
inline void deep_copy(const View<DT, DP...>& dst, const DynRankView<ST, SP...>& src) {
  Impl::dyn_rank_deep_copy(Impl::NoExecSpace{}, dst, src);
}
template <class Exec, class DT, class... DP, class ST, class... SP>
inline std::enable_if_t<is_execution_space_v<Exec>> deep_copy(const Exec& exec, const DynRankView<DT, DP...>& dst,
                                                                const DynRankView<ST, SP...>& src) {
  Impl::dyn_rank_deep_copy(exec, dst, src);
}
template <class DT, class... DP>
inline void deep_copy(const DynRankView<DT, DP...>& dst, typename ViewTraits<DT, DP...>::const_value_type& value) {
  Kokkos::deep_copy(dst.DownCast(), value);
}
template <class ST, class... SP>
inline void deep_copy(typename ViewTraits<ST, SP...>::non_const_value_type& dst, const DynRankView<ST, SP...>& src) {
  if (src.rank() != 0)
    Impl::throw_runtime_exception("Kokkos::deep_copy: copying a DynRankView into a scalar needs rank 0, \"" +
                                  src.label() + "\" has rank " + std::to_string(src.rank()));
  Impl::fence_backends("Kokkos::deep_copy(scalar, DynRankView): fence before copy");
  if (src.data() != nullptr)
    Impl::DeepCopy<HostSpace, typename DynRankView<ST, SP...>::memory_space>(&dst, src.data(), sizeof(dst));
}

// ---------------------------------------------------------------------------------------------
// Mirrors (same rank, extents and layout), resize and realloc.
namespace Impl {
// The layout of the first rank() ranks, the others unset.
template <class V>
typename V::array_layout dyn_rank_layout(const V& v) {
  auto layout = v.layout();
  for (unsigned r = v.rank(); r < ARRAY_LAYOUT_MAX_RANK; ++r) {
    layout.dimension[r] = KOKKOS_INVALID_INDEX;
    if constexpr (std::is_same_v<typename V::array_layout, LayoutStride>) layout.stride[r] = 0;
  }
  return layout;
}

template <class Result, class Src, class... VP>
Result create_dyn_rank_mirror(const Src& src, const ViewCtorProp<VP...>&) {
  const std::string label = src.label() + "_mirror";
  if constexpr (ViewCtorProp<VP...>::initialize) return Result(view_alloc(label), dyn_rank_layout(src));
  else return Result(view_alloc(label, WithoutInitializing), dyn_rank_layout(src));
}

template <class Space, class D, class... P>
using DynRankMirror = DynRankView<typename ViewTraits<D, P...>::non_const_value_type,
                                  typename ViewTraits<D, P...>::array_layout, Device<
                                      std::conditional_t<is_execution_space_v<Space>, Space,
                                                         typename Space::execution_space>,
                                      typename Space::memory_space>>;
}  // namespace Impl

template <class T, class... P>
inline typename DynRankView<T, P...>::HostMirror create_mirror(const DynRankView<T, P...>& src) {
  return Impl::create_dyn_rank_mirror<typename DynRankView<T, P...>::HostMirror>(src, view_alloc());
}
template <class T, class... P>
inline typename DynRankView<T, P...>::HostMirror create_mirror(Impl::WithoutInitializing_t wi,
                                                               const DynRankView<T, P...>& src) {
  return Impl::create_dyn_rank_mirror<typename DynRankView<T, P...>::HostMirror>(src, view_alloc(wi));
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline Impl::DynRankMirror<Space, T, P...> create_mirror(const Space&, const DynRankView<T, P...>& src) {
  return Impl::create_dyn_rank_mirror<Impl::DynRankMirror<Space, T, P...>>(src, view_alloc());
}
template <class T, class... P>
inline auto create_mirror_view(const DynRankView<T, P...>& src) {
  using mirror = typename DynRankView<T, P...>::HostMirror;
  if constexpr (std::is_same_v<typename mirror::memory_space, typename DynRankView<T, P...>::memory_space> &&
                std::is_same_v<typename mirror::value_type, typename DynRankView<T, P...>::value_type>) {
    return mirror(src);
  } else {
    return Kokkos::create_mirror(src);
  }
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline auto create_mirror_view(const Space& space, const DynRankView<T, P...>& src) {
  if constexpr (std::is_same_v<typename Space::memory_space, typename DynRankView<T, P...>::memory_space>) {
    (void)space;
    return src;
  } else {
    return Kokkos::create_mirror(space, src);
  }
}

// create_mirror_view_and_copy: src itself when it lives in the requested memory space (after a
// fence, unless the properties name an execution space), else a DynRankView of the same rank,
// extents and layout there, labelled with the properties' label or "<label>_mirror", holding a
// copy.
namespace Impl {
template <class Mirror, class Src, class... VP>
Mirror dyn_rank_mirror_and_copy(const ViewCtorProp<VP...>& prop, const Src& src) {
  using prop_t = ViewCtorProp<VP...>;
  std::string label;
  if constexpr (prop_t::has_label) label = prop.get_label();
  else label = src.label() + "_mirror";
  Mirror mirror(view_alloc(label, WithoutInitializing), dyn_rank_layout(src));
  if constexpr (prop_t::has_execution_space) Kokkos::deep_copy(prop.get_execution_space(), mirror, src);
  else Kokkos::deep_copy(mirror, src);
  return mirror;
}
}  // namespace Impl

template <class T, class... P, class... VP>
inline auto create_mirror_view_and_copy(const Impl::ViewCtorProp<VP...>& prop, const DynRankView<T, P...>& src) {
  using prop_t = Impl::ViewCtorProp<VP...>;
  static_assert(prop_t::has_memory_space, "Kokkos::create_mirror_view_and_copy: needs a memory space");
  using mem = std::remove_cv_t<std::remove_reference_t<decltype(prop.get_memory_space())>>;
  if constexpr (std::is_same_v<typename mem::memory_space, typename DynRankView<T, P...>::memory_space>) {
    // The View overload does the fencing (and the flush of recorded launches) for the same space.
    (void)Kokkos::create_mirror_view_and_copy(prop, src.DownCast());
    return src;
  } else {
    return Impl::dyn_rank_mirror_and_copy<Impl::DynRankMirror<mem, T, P...>>(prop, src);
  }
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline auto create_mirror_view_and_copy(const Space& space, const DynRankView<T, P...>& src,
                                        const std::string& name = "") {
  if (name.empty()) return Kokkos::create_mirror_view_and_copy(view_alloc(Impl::space_as_memory_space(space)), src);
  return Kokkos::create_mirror_view_and_copy(view_alloc(Impl::space_as_memory_space(space), name), src);
}

namespace Impl {
template <class T, class... P, class... VP>
void dyn_rank_resize(const ViewCtorProp<VP...>&, DynRankView<T, P...>& v, const std::size_t* n, bool keep) {
  using view_t = DynRankView<T, P...>;
  static_assert(view_t::traits::is_managed, "Kokkos::resize/realloc: the DynRankView must be managed");
  const std::string label = v.label();
  if (!keep) v = view_t();  // realloc frees first
  view_t fresh = [&] {
    if constexpr (ViewCtorProp<VP...>::initialize) return view_t(view_alloc(label), n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]);
    else return view_t(view_alloc(label, WithoutInitializing), n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]);
  }();
  if (keep && v.data() != nullptr) {
    std::size_t dims[8];
    for (unsigned r = 0; r < 7; ++r) dims[r] = v.extent(r) < fresh.extent(r) ? v.extent(r) : fresh.extent(r);
    Kokkos::fence("Kokkos::resize(DynRankView): fence before copying the contents");
    view_copy_elements(fresh.DownCast(), v.DownCast(), dims);
  }
  v = fresh;
}
}  // namespace Impl

#define KOKKOS_IMPL_DRV_RESIZE_ARGS                                                                               \
  const std::size_t n0 = KOKKOS_INVALID_INDEX, const std::size_t n1 = KOKKOS_INVALID_INDEX,                       \
        const std::size_t n2 = KOKKOS_INVALID_INDEX, const std::size_t n3 = KOKKOS_INVALID_INDEX,                 \
        const std::size_t n4 = KOKKOS_INVALID_INDEX, const std::size_t n5 = KOKKOS_INVALID_INDEX,                 \
        const std::size_t n6 = KOKKOS_INVALID_INDEX, const std::size_t n7 = KOKKOS_INVALID_INDEX

// The new extents (and so the new rank) are those given; the overlap of the contents is kept.
template <class T, class... P>
inline void resize(DynRankView<T, P...>& v, KOKKOS_IMPL_DRV_RESIZE_ARGS) {
  const std::size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
  Impl::dyn_rank_resize(view_alloc(), v, n, true);
}
template <class T, class... P>
inline void resize(Impl::WithoutInitializing_t wi, DynRankView<T, P...>& v, KOKKOS_IMPL_DRV_RESIZE_ARGS) {
  const std::size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
  Impl::dyn_rank_resize(view_alloc(wi), v, n, true);
}
// A fresh allocation with the given extents; the old contents are dropped.
template <class T, class... P>
inline void realloc(DynRankView<T, P...>& v, KOKKOS_IMPL_DRV_RESIZE_ARGS) {
  const std::size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
  Impl::dyn_rank_resize(view_alloc(), v, n, false);
}
template <class T, class... P>
inline void realloc(Impl::WithoutInitializing_t wi, DynRankView<T, P...>& v, KOKKOS_IMPL_DRV_RESIZE_ARGS) {
  const std::size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
  Impl::dyn_rank_resize(view_alloc(wi), v, n, false);
}

#undef KOKKOS_IMPL_DRV_RESIZE_ARGS

}  // namespace Kokkos

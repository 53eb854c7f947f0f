#pragma once
// Kokkos::View: a reference-counted multi-dimensional array in a memory space (Kokkos 4 API).
//
//   View<double**[3], LayoutLeft, HostSpace, MemoryTraits<Atomic>> v("v", n0, n1);
//
// Data type: value type, then run-time extents (*), then compile-time extents ([N]); rank 0-8.
// Properties, in any order: an array layout, a space (execution space, memory space or
// Device<E, M>), MemoryTraits<...>.
//
// Machinery: impl/view/Kokkos_ViewMapping.hpp (data type parsing, extents, offsets),
// impl/view/Kokkos_SharedAlloc.hpp (allocation record), impl/view/Kokkos_ViewSubview.hpp (subview),
// Kokkos_CopyViews.hpp (deep_copy, mirrors, resize, realloc).
//
// Allocating constructors check that the byte size fits in std::size_t and throw
// std::runtime_error naming the label and extents otherwise, before allocating.
//
// Fusion identity: impl_allocation_base() is the start of the whole allocation (the same for
// every subview of it), impl_allocation_bytes() its size; data(), extent(r) and stride(r)
// then give the offset and strides of this view's partition of the allocation.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Concepts.hpp>
#include <Kokkos_HostSpace.hpp>
#include <Kokkos_Layout.hpp>
#include <Kokkos_MemoryTraits.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_Atomic.hpp>
#include <impl/view/Kokkos_ViewMapping.hpp>
#include <impl/view/Kokkos_SharedAlloc.hpp>

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK) || defined(KOKKOS_IMPL_FORCE_BOUNDS_CHECK)
#define KOKKOS_IMPL_VIEW_BOUNDS_CHECK 1
#endif
// Debug builds with bounds checking also catch host accesses to an allocation that a launch
// recorded in the calling thread's fusion window is still to write (Kokkos_Fusion.hpp).
#if defined(KOKKOS_IMPL_VIEW_BOUNDS_CHECK) && (defined(KOKKOS_ENABLE_DEBUG) || defined(KOKKOS_IMPL_FORCE_STALE_READ_CHECK))
#define KOKKOS_IMPL_VIEW_STALE_READ_CHECK 1
#include <impl/fusion/Kokkos_FusionHooks.hpp>
namespace Kokkos::Impl {
inline const bool fusion_stale_read_check_enabled = [] {
  fusion_keeps_labels().store(true, std::memory_order_relaxed);
  return true;
}();
}  // namespace Kokkos::Impl
#endif

namespace Kokkos {

template <class DataType, class... Properties>
class View;

// ---------------------------------------------------------------------------------------------
// Allocation properties: view_alloc(label, memory space, execution space instance,
// WithoutInitializing, AllowPadding, SequentialHostInit), view_wrap(pointer).
namespace Impl {
struct WithoutInitializing_t {};
struct AllowPadding_t {};
struct SequentialHostInit_t {};
struct LabelTag {};
struct MemorySpaceTag {};
struct ExecutionSpaceTag {};
struct PointerTag {};
}  // namespace Impl

inline constexpr Impl::WithoutInitializing_t WithoutInitializing{};
inline constexpr Impl::AllowPadding_t AllowPadding{};
inline constexpr Impl::SequentialHostInit_t SequentialHostInit{};

namespace Impl {

template <class T>
struct is_view_label : std::false_type {};
template <>
struct is_view_label<std::string> : std::true_type {};
template <std::size_t N>
struct is_view_label<char[N]> : std::true_type {};
template <std::size_t N>
struct is_view_label<const char[N]> : std::true_type {};
template <>
struct is_view_label<const char*> : std::true_type {};
template <>
struct is_view_label<char*> : std::true_type {};

// Normalised property types: every label becomes std::string.
template <class T, bool Wrap>
struct ViewCtorPropType {
  using type = T;
};
template <std::size_t N, bool Wrap>
struct ViewCtorPropType<char[N], Wrap> {
  using type = std::string;
};

template <bool Wrap>
struct ViewCtorPropType<const char*, Wrap> {
  using type = std::conditional_t<Wrap, const char*, std::string>;
};
template <bool Wrap>
struct ViewCtorPropType<char*, Wrap> {
  using type = std::conditional_t<Wrap, char*, std::string>;
};
// view_wrap(buffer) of a non-char array wraps its first element, as a pointer would.
template <class T>
using view_ctor_prop_arg_t =
    std::conditional_t<std::is_array_v<T> && !std::is_same_v<std::remove_cv_t<std::remove_all_extents_t<T>>, char>,
                       std::decay_t<T>, std::remove_cv_t<T>>;
template <class T, bool Wrap = false>
using view_ctor_prop_t =
    typename ViewCtorPropType<view_ctor_prop_arg_t<std::remove_reference_t<T>>, Wrap>::type;

template <class T>
struct is_label_prop : std::is_same<T, std::string> {};
template <class T>
struct is_memspace_prop : std::bool_constant<is_memory_space_v<T>> {};
template <class T>
struct is_execspace_prop : std::bool_constant<is_execution_space_v<T>> {};
template <class T>
struct is_pointer_prop : std::is_pointer<T> {};

template <class... P>
struct ViewCtorProp {
  std::tuple<P...> value;

  template <template <class> class Pred>
  static constexpr std::size_t count() {
    return (std::size_t(0) + ... + std::size_t(Pred<P>::value));
  }
  template <template <class> class Pred>
  static constexpr std::size_t index_of() {
    constexpr bool b[] = {Pred<P>::value..., false};
    for (std::size_t i = 0; i < sizeof...(P); ++i)
      if (b[i]) return i;
    return sizeof...(P);
  }

  static constexpr bool has_label = count<is_label_prop>() > 0;
  static constexpr bool has_memory_space = count<is_memspace_prop>() > 0;
  static constexpr bool has_execution_space = count<is_execspace_prop>() > 0;
  static constexpr bool has_pointer = count<is_pointer_prop>() > 0;
  static constexpr bool initialize = !(std::is_same_v<P, WithoutInitializing_t> || ...);
  static constexpr bool allow_padding = (std::is_same_v<P, AllowPadding_t> || ...);
  static constexpr bool sequential_host_init = (std::is_same_v<P, SequentialHostInit_t> || ...);

  static_assert(count<is_label_prop>() <= 1, "Kokkos::view_alloc: at most one label");
  static_assert(count<is_memspace_prop>() <= 1, "Kokkos::view_alloc: at most one memory space");
  static_assert(count<is_execspace_prop>() <= 1, "Kokkos::view_alloc: at most one execution space");
  static_assert(count<is_pointer_prop>() <= 1, "Kokkos::view_wrap: at most one pointer");
  static_assert(((is_label_prop<P>::value || is_memspace_prop<P>::value || is_execspace_prop<P>::value ||
                  is_pointer_prop<P>::value || std::is_same_v<P, WithoutInitializing_t> ||
                  std::is_same_v<P, AllowPadding_t> || std::is_same_v<P, SequentialHostInit_t>) &&
                 ...),
                "Kokkos::view_alloc: properties are a label, a memory space, an execution space instance, "
                "Kokkos::WithoutInitializing, Kokkos::AllowPadding or Kokkos::SequentialHostInit");

  std::string get_label() const {
    if constexpr (has_label) return std::get<index_of<is_label_prop>()>(value);
    else return std::string();
  }
  decltype(auto) get_memory_space() const { return std::get<index_of<is_memspace_prop>()>(value); }
  decltype(auto) get_execution_space() const { return std::get<index_of<is_execspace_prop>()>(value); }
  decltype(auto) get_pointer() const { return std::get<index_of<is_pointer_prop>()>(value); }

  // The same properties plus/minus one (used by mirrors and resize).
  template <class Q>
  auto with(const Q& q) const {
    return std::apply([&](const P&... p) { return ViewCtorProp<P..., Q>{std::tuple<P..., Q>(p..., q)}; }, value);
  }
};

template <class Tag, class... P>
decltype(auto) get_property(const ViewCtorProp<P...>& prop) {
  if constexpr (std::is_same_v<Tag, LabelTag>) return prop.get_label();
  else if constexpr (std::is_same_v<Tag, MemorySpaceTag>) return prop.get_memory_space();
  else if constexpr (std::is_same_v<Tag, ExecutionSpaceTag>) return prop.get_execution_space();
  else return prop.get_pointer();
}

template <class T>
struct is_view_ctor_prop : std::false_type {};
template <class... P>
struct is_view_ctor_prop<ViewCtorProp<P...>> : std::true_type {};

}  // namespace Impl

template <class... Args>
inline Impl::ViewCtorProp<Impl::view_ctor_prop_t<Args>...> view_alloc(const Args&... args) {
  static_assert(!(Impl::is_pointer_prop<Impl::view_ctor_prop_t<Args>>::value || ...),
                "Kokkos::view_alloc: a pointer is given with Kokkos::view_wrap");
  return {std::tuple<Impl::view_ctor_prop_t<Args>...>(args...)};
}
template <class... Args>
inline Impl::ViewCtorProp<Impl::view_ctor_prop_t<Args, true>...> view_wrap(Args&&... args) {
  static_assert((Impl::is_pointer_prop<Impl::view_ctor_prop_t<Args, true>>::value || ...),
                "Kokkos::view_wrap: needs a pointer");
  return {std::tuple<Impl::view_ctor_prop_t<Args, true>...>(static_cast<Impl::view_ctor_prop_t<Args, true>>(args)...)};
}

// The older spelling of view_alloc(WithoutInitializing, label), still common in applications.
inline auto ViewAllocateWithoutInitializing(const std::string& label) {
  return view_alloc(WithoutInitializing, label);
}

// ---------------------------------------------------------------------------------------------
// ViewTraits: what the template arguments of a View mean.
namespace Impl {

template <class L, class S, class M, class... P>
struct ViewPropsParse {
  using layout = L;
  using space = S;
  using mtraits = M;
};
template <class L, class S, class M, class P0, class... P>
struct ViewPropsParse<L, S, M, P0, P...>
    : ViewPropsParse<std::conditional_t<is_array_layout_v<P0>, P0, L>, std::conditional_t<is_space<P0>::value, P0, S>,
                     std::conditional_t<is_memory_traits_v<P0>, P0, M>, P...> {
  static_assert(std::is_void_v<P0> || is_array_layout_v<P0> || is_space<P0>::value || is_memory_traits_v<P0>,
                "Kokkos::View: template arguments after the data type must be an array layout, a space "
                "(execution space, memory space or Kokkos::Device) or Kokkos::MemoryTraits");
  static_assert(!(is_array_layout_v<P0> && !std::is_void_v<L>), "Kokkos::View: more than one array layout given");
  static_assert(!(is_space<P0>::value && !std::is_void_v<S>), "Kokkos::View: more than one space given");
  static_assert(!(is_memory_traits_v<P0> && !std::is_void_v<M>), "Kokkos::View: more than one MemoryTraits given");
};

// The space of a View: the given one or DefaultExecutionSpace (kept dependent so that the
// back ends only need to be complete where a View is instantiated).
template <class Space, class Dummy = void>
struct ViewSpace {
  using execution_space = typename SpaceTraits<Space>::execution_space;
  using memory_space = typename SpaceTraits<Space>::memory_space;
};
template <class Dummy>
struct ViewSpace<void, Dummy> {
  using exec = std::conditional_t<std::is_void_v<Dummy>, DefaultExecutionSpace, Dummy>;
  using execution_space = typename SpaceTraits<exec>::execution_space;
  using memory_space = typename SpaceTraits<exec>::memory_space;
};

template <class E, class = void>
struct exec_array_layout {
  using type = LayoutRight;
};
template <class E>
struct exec_array_layout<E, std::void_t<typename E::array_layout>> {
  using type = typename E::array_layout;
};

template <class M, class = void>
struct memspace_host_accessible : std::false_type {};
template <class M>
struct memspace_host_accessible<M, std::void_t<decltype(M::is_host_accessible)>>
    : std::bool_constant<M::is_host_accessible> {};

template <class M, class = void>
struct memspace_size_type {
  using type = std::size_t;
};
template <class M>
struct memspace_size_type<M, std::void_t<typename M::size_type>> {
  using type = typename M::size_type;
};

}  // namespace Impl

template <class DataType, class... Properties>
struct ViewTraits {
 private:
  using analysis = Impl::ViewDataAnalysis<DataType>;
  using props = Impl::ViewPropsParse<void, void, void, Properties...>;
  using space = Impl::ViewSpace<typename props::space>;

 public:
  using data_type = DataType;
  using value_type = typename analysis::value_type;
  using const_value_type = std::add_const_t<value_type>;
  using non_const_value_type = std::remove_const_t<value_type>;
  using const_data_type = typename Impl::ReplaceValueType<DataType, const_value_type>::type;
  using non_const_data_type = typename Impl::ReplaceValueType<DataType, non_const_value_type>::type;
  using scalar_array_type = data_type;
  using const_scalar_array_type = const_data_type;
  using non_const_scalar_array_type = non_const_data_type;

  using execution_space = typename space::execution_space;
  using memory_space = typename space::memory_space;
  using device_type = Device<execution_space, memory_space>;
  using array_layout = std::conditional_t<std::is_void_v<typename props::layout>,
                                          typename Impl::exec_array_layout<execution_space>::type,
                                          typename props::layout>;
  using memory_traits =
      std::conditional_t<std::is_void_v<typename props::mtraits>, MemoryManaged, typename props::mtraits>;
  using host_mirror_space = std::conditional_t<Impl::memspace_host_accessible<memory_space>::value, device_type,
                                               Device<DefaultHostExecutionSpace, HostSpace>>;
  using size_type = typename Impl::memspace_size_type<memory_space>::type;
  using specialize = void;

  static constexpr unsigned rank = analysis::rank;
  static constexpr unsigned rank_dynamic = analysis::rank_dynamic;
  static constexpr bool is_hostspace = std::is_same_v<memory_space, HostSpace>;
  static constexpr bool is_managed = !memory_traits::is_unmanaged;
  static constexpr bool is_random_access = memory_traits::is_random_access;

  KOKKOS_INLINE_FUNCTION static constexpr std::size_t static_extent(std::size_t r) {
    return analysis::static_extent(r);
  }
};

// ---------------------------------------------------------------------------------------------
namespace Impl {

// Element reference of a MemoryTraits<Atomic> view: every operation is a Kokkos atomic.
template <class T>
class AtomicDataElement {
 public:
  using value_type = T;
  using const_value_type = const T;
  using non_const_value_type = std::remove_const_t<T>;

  KOKKOS_INLINE_FUNCTION explicit AtomicDataElement(T* p) : m_ptr(p) {}
  AtomicDataElement(const AtomicDataElement&) = default;

  KOKKOS_INLINE_FUNCTION operator non_const_value_type() const { return Kokkos::atomic_load(m_ptr); }
  KOKKOS_INLINE_FUNCTION non_const_value_type load() const { return Kokkos::atomic_load(m_ptr); }

  KOKKOS_INLINE_FUNCTION non_const_value_type operator=(const non_const_value_type& v) const {
    Kokkos::atomic_store(m_ptr, v);
    return v;
  }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator=(const AtomicDataElement& other) const {
    const non_const_value_type v = other;
    Kokkos::atomic_store(m_ptr, v);
    return v;
  }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator+=(const non_const_value_type& v) const {
    return Kokkos::atomic_add_fetch(m_ptr, v);
  }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator-=(const non_const_value_type& v) const {
    return Kokkos::atomic_sub_fetch(m_ptr, v);
  }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator*=(const non_const_value_type& v) const {
    return Kokkos::atomic_mul_fetch(m_ptr, v);
  }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator/=(const non_const_value_type& v) const {
    return Kokkos::atomic_div_fetch(m_ptr, v);
  }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator%=(const non_const_value_type& v) const {
    return Kokkos::atomic_mod_fetch(m_ptr, v);
  }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator&=(const non_const_value_type& v) const {
    return Kokkos::atomic_and_fetch(m_ptr, v);
  }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator|=(const non_const_value_type& v) const {
    return Kokkos::atomic_or_fetch(m_ptr, v);
  }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator^=(const non_const_value_type& v) const {
    return Kokkos::atomic_xor_fetch(m_ptr, v);
  }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator++() const { return Kokkos::atomic_inc_fetch(m_ptr); }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator--() const { return Kokkos::atomic_dec_fetch(m_ptr); }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator++(int) const { return Kokkos::atomic_fetch_inc(m_ptr); }
  KOKKOS_INLINE_FUNCTION non_const_value_type operator--(int) const { return Kokkos::atomic_fetch_dec(m_ptr); }

 private:
  T* m_ptr;
};

template <class T, class Traits>
struct ViewDataHandle {
  static constexpr bool no_alias =
      !Traits::is_atomic && (Traits::is_restrict || (Traits::is_random_access && std::is_const_v<T>));
  using type = std::conditional_t<no_alias, T* KOKKOS_RESTRICT, T*>;
};

template <class T>
inline constexpr bool is_view_index_v = std::is_integral_v<T> || std::is_enum_v<T>;

struct ViewImplTag {};

// "(n0, n1, ...)": the extents of a View, for messages.  Host only.
template <class V>
std::string view_extents_string(const V& v) {
  std::string text = "(";
  for (std::size_t r = 0; Impl::rank_below(r, V::rank()); ++r) text += (r ? ", " : "") + std::to_string(v.extent(r));
  return text + ")";
}

// Static checks of View<D...> = View<S...>; returns whether the assignment compiles.
template <class Dst, class Src, std::size_t... K>
constexpr bool view_static_extents_compatible(std::index_sequence<K...>) {
  return ((Dst::traits::static_extent(K) == 0 || Src::traits::static_extent(K) == 0 ||
           Dst::traits::static_extent(K) == Src::traits::static_extent(K)) &&
          ...);
}
template <class DL, class SL>
inline constexpr bool is_left_or_right_v =
    (std::is_same_v<DL, LayoutLeft> || std::is_same_v<DL, LayoutRight>)&&(std::is_same_v<SL, LayoutLeft> ||
                                                                          std::is_same_v<SL, LayoutRight>);

template <class Dst, class Src>
struct ViewAssignCheck {
  using DT = typename Dst::traits;
  using ST = typename Src::traits;
  static constexpr bool rank_ok = DT::rank == ST::rank;
  static constexpr bool value_ok = std::is_same_v<typename DT::non_const_value_type, typename ST::non_const_value_type>;
  static constexpr bool const_ok = std::is_const_v<typename DT::value_type> || !std::is_const_v<typename ST::value_type>;
  // As Kokkos: the destination's space may take the source's (a CudaSpace View from a CudaUVMSpace one).
  static constexpr bool space_ok =
      std::is_same_v<typename DT::memory_space, typename ST::memory_space> ||
      MemorySpaceAccess<typename DT::memory_space, typename ST::memory_space>::assignable;
  using DL = typename DT::array_layout;
  using SL = typename ST::array_layout;
  static constexpr bool layout_ok = std::is_same_v<DL, SL> || std::is_same_v<DL, LayoutStride> ||
                                    (DT::rank <= 1 && is_left_or_right_v<DL, SL>) ||
                                    ((std::is_same_v<DL, LayoutLeft> || std::is_same_v<DL, LayoutRight>)&&std::is_same_v<
                                        SL, LayoutStride>);
  static constexpr bool extents_ok = [] {
    if constexpr (rank_ok) return view_static_extents_compatible<Dst, Src>(std::make_index_sequence<DT::rank>{});
    else return false;
  }();
  static constexpr bool value = rank_ok && value_ok && const_ok && space_ok && layout_ok && extents_ok;

  KOKKOS_INLINE_FUNCTION static constexpr void check() {
    static_assert(rank_ok, "Incompatible Kokkos::View copy construction or assignment: the ranks differ");
    static_assert(value_ok, "Incompatible Kokkos::View copy construction or assignment: the value types differ");
    static_assert(const_ok,
                  "Incompatible Kokkos::View copy construction or assignment: cannot assign a View of const "
                  "values to a View of non-const values");
    static_assert(space_ok,
                  "Incompatible Kokkos::View copy construction or assignment: the destination's memory space cannot "
                  "be assigned the source's (Kokkos::SpaceAccessibility<DstSpace, SrcSpace>::assignable is false)");
    static_assert(layout_ok,
                  "Incompatible Kokkos::View copy construction or assignment: the layouts are incompatible (only "
                  "the same layout, any layout to LayoutStride, LayoutStride to LayoutLeft/Right with matching "
                  "strides, and LayoutLeft <-> LayoutRight for rank <= 1)");
    static_assert(extents_ok,
                  "Incompatible Kokkos::View copy construction or assignment: compile-time extents differ");
  }
};

}  // namespace Impl

// ---------------------------------------------------------------------------------------------
template <class DataType, class... Properties>
class View : public ViewTraits<DataType, Properties...> {
 public:
  using traits = ViewTraits<DataType, Properties...>;
  using typename traits::array_layout;
  using typename traits::const_data_type;
  using typename traits::const_value_type;
  using typename traits::data_type;
  using typename traits::device_type;
  using typename traits::execution_space;
  using typename traits::host_mirror_space;
  using typename traits::memory_space;
  using typename traits::memory_traits;
  using typename traits::non_const_data_type;
  using typename traits::non_const_value_type;
  using typename traits::size_type;
  using typename traits::value_type;

  using map_type = Impl::ViewOffset<array_layout, traits::rank>;
  using pointer_type = value_type*;
  // What the View stores: restrict-qualified for MemoryTraits<Restrict>, and for RandomAccess
  // on const data (nothing writes it during a kernel), so that a compiler may assume that the
  // kernel's stores through other Views do not change what this one reads.
  using handle_type = typename Impl::ViewDataHandle<value_type, memory_traits>::type;
  using reference_type = std::conditional_t<memory_traits::is_atomic && !std::is_const_v<value_type>,
                                            Impl::AtomicDataElement<value_type>, value_type&>;
  using track_type = Impl::SharedAllocationRecord;

  using const_type = View<const_data_type, array_layout, device_type, memory_traits>;
  using non_const_type = View<non_const_data_type, array_layout, device_type, memory_traits>;
  using array_type = View<typename traits::scalar_array_type, array_layout, device_type, memory_traits>;
  using HostMirror = View<non_const_data_type, array_layout,
                          Device<DefaultHostExecutionSpace, typename host_mirror_space::memory_space>>;
  using host_mirror_type = HostMirror;
  using uniform_type = View<data_type, array_layout, device_type, memory_traits>;
  using uniform_const_type = View<const_data_type, array_layout, device_type, memory_traits>;
  using uniform_runtime_type =
      View<Impl::BuildDataType<value_type, traits::rank>, array_layout, device_type, memory_traits>;
  using uniform_runtime_const_type =
      View<Impl::BuildDataType<const_value_type, traits::rank>, array_layout, device_type, memory_traits>;

  static constexpr Impl::integral_constant<std::size_t, traits::rank> rank = {};
  static constexpr Impl::integral_constant<std::size_t, traits::rank_dynamic> rank_dynamic = {};
  static constexpr bool reference_type_is_lvalue_reference = std::is_lvalue_reference_v<reference_type>;

 private:
  template <class, class...>
  friend class View;

  static constexpr std::size_t R = traits::rank;

  handle_type m_ptr;
  map_type m_map;
  track_type* m_track;         // null for unmanaged views
  const void* m_alloc_base;    // start of the whole allocation (fusion identity)
  std::size_t m_alloc_bytes;   // its size in bytes

  // Makes this View another reference to `track` (possibly carrying the untracked mark): a
  // counted one, or an untracked one while tracking is disabled on this thread.
  KOKKOS_INLINE_FUNCTION void impl_share(track_type* track) {
    m_track = track;
    KOKKOS_IF_ON_HOST((if (Impl::t_view_capture_watch != nullptr) {
      Impl::t_view_capture_watch->note(Impl::view_record(track),
                                       std::is_same_v<typename traits::memory_space, HostSpace>);
    }))
    KOKKOS_IF_ON_HOST((if (Impl::view_counts_reference(track)) {
      if (Impl::t_view_tracking_disabled != 0) {
        m_track = reinterpret_cast<track_type*>(reinterpret_cast<std::uintptr_t>(track) | Impl::view_untracked_bit);
      } else {
        track->increment();
      }
    }))
  }
  KOKKOS_INLINE_FUNCTION void impl_dec() const {
    KOKKOS_IF_ON_HOST((if (Impl::view_counts_reference(m_track)) m_track->decrement();))
  }

 public:
  // ------------------------------------------------------------------------------------------
  // Construction, copy, destruction.
  KOKKOS_INLINE_FUNCTION View() : m_ptr(nullptr), m_map(), m_track(nullptr), m_alloc_base(nullptr), m_alloc_bytes(0) {}

  KOKKOS_INLINE_FUNCTION View(const View& rhs)
      : m_ptr(rhs.m_ptr),
        m_map(rhs.m_map),
        m_track(nullptr),
        m_alloc_base(rhs.m_alloc_base),
        m_alloc_bytes(rhs.m_alloc_bytes) {
    impl_share(rhs.m_track);
  }

  KOKKOS_INLINE_FUNCTION View(View&& rhs) noexcept
      : m_ptr(rhs.m_ptr),
        m_map(rhs.m_map),
        m_track(rhs.m_track),
        m_alloc_base(rhs.m_alloc_base),
        m_alloc_bytes(rhs.m_alloc_bytes) {
    rhs.m_ptr = nullptr;
    rhs.m_map = map_type();
    rhs.m_track = nullptr;
    rhs.m_alloc_base = nullptr;
    rhs.m_alloc_bytes = 0;
  }

  KOKKOS_INLINE_FUNCTION View& operator=(const View& rhs) {
    if (this != &rhs) {
      const View old(static_cast<View&&>(*this));  // released last: rhs may share our record
      m_ptr = rhs.m_ptr;
      m_map = rhs.m_map;
      impl_share(rhs.m_track);
      m_alloc_base = rhs.m_alloc_base;
      m_alloc_bytes = rhs.m_alloc_bytes;
    }
    return *this;
  }

  KOKKOS_INLINE_FUNCTION View& operator=(View&& rhs) noexcept {
    if (this != &rhs) {
      impl_dec();
      m_ptr = rhs.m_ptr;
      m_map = rhs.m_map;
      m_track = rhs.m_track;
      m_alloc_base = rhs.m_alloc_base;
      m_alloc_bytes = rhs.m_alloc_bytes;
      rhs.m_ptr = nullptr;
      rhs.m_map = map_type();
      rhs.m_track = nullptr;
      rhs.m_alloc_base = nullptr;
      rhs.m_alloc_bytes = 0;
    }
    return *this;
  }

  KOKKOS_INLINE_FUNCTION ~View() { impl_dec(); }

  // Conversion from a compatible View (const, layout, traits); shares the allocation.
  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION View(const View<RT, RP...>& rhs)
      : m_ptr(impl_assign_ptr(rhs)),
        m_map(),
        m_track(nullptr),
        m_alloc_base(rhs.m_alloc_base),
        m_alloc_bytes(rhs.m_alloc_bytes) {
    using check = Impl::ViewAssignCheck<View, View<RT, RP...>>;
    if constexpr (check::value) {
      std::size_t dims[map_type::N], strides[map_type::N];
      for (std::size_t r = 0; Impl::rank_below(r, R); ++r) {
        dims[r] = rhs.m_map.m_dim[r];
        strides[r] = rhs.m_map.m_stride[r];
        const std::size_t se = traits::static_extent(r);
        if (se != 0 && se != dims[r]) impl_assign_extent_error(rhs, r, dims[r], se);
      }
      if constexpr (!std::is_same_v<array_layout, typename View<RT, RP...>::array_layout> &&
                    !std::is_same_v<array_layout, LayoutStride>) {
        const auto mismatch = map_type::strides_fit_layout(dims, strides);
        if (mismatch.rank != R) impl_assign_layout_error(rhs, strides, mismatch.rank, mismatch.expected);
        if constexpr (R > 0) {
          if constexpr (std::is_same_v<array_layout, LayoutRight>) strides[R - 1] = 1;
          else strides[0] = 1;
        }
      }
      m_map.set(dims, strides);
      if constexpr (traits::is_managed) impl_share(rhs.m_track);
    }
  }

  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION View& operator=(const View<RT, RP...>& rhs) {
    *this = View(rhs);
    return *this;
  }

  // Managed allocation: View("label", N0, ..., N7).  Run-time extents only, or all extents.
  template <class Label, std::enable_if_t<Impl::is_view_label<std::remove_cv_t<Label>>::value &&
                                              !std::is_convertible_v<const Label&, pointer_type>,
                                          int> = 0>
  explicit View(const Label& arg_label, const std::size_t N0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG)
      : View(Kokkos::view_alloc(std::string(arg_label)), N0, N1, N2, N3, N4, N5, N6, N7) {}

  template <class Label, std::enable_if_t<Impl::is_view_label<std::remove_cv_t<Label>>::value &&
                                              !std::is_convertible_v<const Label&, pointer_type>,
                                          int> = 0>
  explicit View(const Label& arg_label, const array_layout& arg_layout)
      : View(Kokkos::view_alloc(std::string(arg_label)), arg_layout) {}

  // View(view_alloc(...), N0, ..., N7) and View(view_wrap(ptr), N0, ...).
  template <class... P>
  explicit View(const Impl::ViewCtorProp<P...>& arg_prop, const std::size_t N0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                const std::size_t N7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG)
      : View() {
    const std::size_t n[8] = {N0, N1, N2, N3, N4, N5, N6, N7};
    std::string label = arg_prop.get_label();
    std::size_t dims[map_type::N];
    impl_dims_from_args(label.c_str(), n, dims);
    map_type map;
    map.set_compact(dims);
    impl_construct(arg_prop, label, map);
  }

  template <class... P>
  explicit View(const Impl::ViewCtorProp<P...>& arg_prop, const array_layout& arg_layout) : View() {
    std::string label = arg_prop.get_label();
    map_type map = impl_map_from_layout(label.c_str(), arg_layout);
    impl_construct(arg_prop, label, map);
  }

  // Unmanaged: View(ptr, N0, ..., N7) and View(ptr, layout).  The pointer is taken by value,
  // as Kokkos does, so that arrays, nullptr and char pointers (which are also labels) convert.
  KOKKOS_INLINE_FUNCTION explicit View(pointer_type arg_ptr, const std::size_t N0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG)
      : View() {
    const std::size_t n[8] = {N0, N1, N2, N3, N4, N5, N6, N7};
    std::size_t dims[map_type::N];
    impl_dims_from_args("", n, dims);
    m_map.set_compact(dims);
    impl_set_unmanaged(arg_ptr);
  }

  KOKKOS_INLINE_FUNCTION explicit View(pointer_type arg_ptr, const array_layout& arg_layout) : View() {
    m_map = impl_map_from_layout("", arg_layout);
    impl_set_unmanaged(arg_ptr);
  }

  // Team scratch memory: View(team.team_scratch(level), N0, ...); never reference counted.
  template <class S, class = decltype(std::declval<const S&>().get_shmem_aligned(std::ptrdiff_t(0),
                                                                                   std::ptrdiff_t(0)))>
  KOKKOS_INLINE_FUNCTION explicit View(const S& arg_space, const std::size_t N0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                                       const std::size_t N7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG)
      : View() {
    const std::size_t n[8] = {N0, N1, N2, N3, N4, N5, N6, N7};
    std::size_t dims[map_type::N];
    impl_dims_from_args("", n, dims);
    m_map.set_compact(dims);
    impl_set_unmanaged(static_cast<pointer_type>(arg_space.get_shmem_aligned(
        std::ptrdiff_t(m_map.span() * sizeof(value_type)), std::ptrdiff_t(impl_scratch_alignment))));
  }
  template <class S, class = decltype(std::declval<const S&>().get_shmem_aligned(std::ptrdiff_t(0),
                                                                                   std::ptrdiff_t(0)))>
  KOKKOS_INLINE_FUNCTION explicit View(const S& arg_space, const array_layout& arg_layout) : View() {
    m_map = impl_map_from_layout("", arg_layout);
    impl_set_unmanaged(static_cast<pointer_type>(arg_space.get_shmem_aligned(
        std::ptrdiff_t(m_map.span() * sizeof(value_type)), std::ptrdiff_t(impl_scratch_alignment))));
  }

  // Kokkos' scratch alignment: sizeof too, so consecutive elements of scratch Views of one type
  // keep the same phase; shmem_size() adds it to the span, so a sequence of scratch Views of
  // mixed types always fits in the sum of their shmem_size().
  static constexpr std::size_t impl_scratch_alignment =
      sizeof(value_type) > alignof(value_type) ? (sizeof(value_type) > 8 ? sizeof(value_type) : 8)
                                               : (alignof(value_type) > 8 ? alignof(value_type) : 8);

  // Bytes of scratch memory a View of these extents needs (with alignment slack).
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_size(
      const std::size_t N0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const std::size_t N1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      const std::size_t N2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const std::size_t N3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      const std::size_t N4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const std::size_t N5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      const std::size_t N6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const std::size_t N7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG) {
    return required_allocation_size(N0, N1, N2, N3, N4, N5, N6, N7) + impl_scratch_alignment;
  }
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_size(const array_layout& arg_layout) {
    return required_allocation_size(arg_layout) + impl_scratch_alignment;
  }
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t required_allocation_size(
      const std::size_t N0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const std::size_t N1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      const std::size_t N2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const std::size_t N3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      const std::size_t N4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const std::size_t N5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
      const std::size_t N6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const std::size_t N7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG) {
    const std::size_t n[8] = {N0, N1, N2, N3, N4, N5, N6, N7};
    std::size_t bytes = sizeof(value_type);
    std::size_t given = 0;
    for (std::size_t r = 0; Impl::rank_below(r, R); ++r) {
      const std::size_t se = traits::static_extent(r);
      std::size_t e;
      if (se != 0 && (r >= traits::rank_dynamic || n[r] == KOKKOS_IMPL_CTOR_DEFAULT_ARG)) e = se;
      else e = n[given];
      if (n[r] != KOKKOS_IMPL_CTOR_DEFAULT_ARG) ++given;
      bytes *= e;
    }
    return bytes;
  }
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t required_allocation_size(const array_layout& arg_layout) {
    std::size_t n = 1;
    for (std::size_t r = 0; Impl::rank_below(r, R); ++r) {
      const std::size_t se = traits::static_extent(r);
      n *= se != 0 ? se : arg_layout.dimension[r];
    }
    return n * sizeof(value_type);
  }

  // A subview as a constructor: View<double*> row(matrix, i, Kokkos::ALL).
  template <class RT, class... RP, class Arg0, class... Args>
  View(const View<RT, RP...>& src, const Arg0& arg0, Args... args) : View(subview(src, arg0, args...)) {}

  // Internal: assemble from parts (used by subview).
  KOKKOS_INLINE_FUNCTION View(Impl::ViewImplTag, pointer_type ptr, const map_type& map, track_type* track,
                              const void* alloc_base, std::size_t alloc_bytes)
      : m_ptr(ptr), m_map(map), m_track(nullptr), m_alloc_base(alloc_base), m_alloc_bytes(alloc_bytes) {
    if constexpr (traits::is_managed) impl_share(track);
  }

  // ------------------------------------------------------------------------------------------
  // Element access.
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION reference_type operator()(I... i) const {
    static_assert(sizeof...(I) == R, "Kokkos::View::operator(): the number of indices must equal the rank");
    static_assert((Impl::is_view_index_v<I> && ...), "Kokkos::View::operator(): indices must be integral");
    impl_check_host_access();
#if defined(KOKKOS_IMPL_VIEW_BOUNDS_CHECK)
    impl_check_bounds(std::make_index_sequence<R>{}, i...);
#endif
    return impl_ref(m_ptr + m_map(i...));
  }

  template <class I>
  KOKKOS_FORCEINLINE_FUNCTION reference_type operator[](I i) const {
    static_assert(R == 1, "Kokkos::View::operator[]: only for rank-1 views");
    static_assert(Impl::is_view_index_v<I>, "Kokkos::View::operator[]: the index must be integral");
    impl_check_host_access();
#if defined(KOKKOS_IMPL_VIEW_BOUNDS_CHECK)
    impl_check_bounds(std::make_index_sequence<R>{}, i);
#endif
    return impl_ref(m_ptr + m_map(i));
  }

  // access(i0, ..., i7): up to 8 indices; missing ones are 0, those beyond the rank ignored.
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION reference_type access(I... i) const {
    static_assert(sizeof...(I) <= 8, "Kokkos::View::access: at most 8 indices");
    static_assert((Impl::is_view_index_v<I> && ...), "Kokkos::View::access: indices must be integral");
    return impl_access(std::make_index_sequence<R>{}, i...);
  }

  // ------------------------------------------------------------------------------------------
  // Shape.
  template <class iType>
  KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<std::is_integral_v<iType>, std::size_t> extent(
      const iType& r) const {
    return m_map.extent(std::size_t(r));
  }
  template <class iType>
  KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<std::is_integral_v<iType>, int> extent_int(const iType& r) const {
    return static_cast<int>(m_map.extent(std::size_t(r)));
  }
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t static_extent(const unsigned r) noexcept {
    return traits::static_extent(r);
  }
  template <class iType>
  KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<std::is_integral_v<iType>, std::size_t> stride(
      const iType& r) const {
    return m_map.stride(std::size_t(r));
  }
  // s[r] = stride(r) for r < rank, s[rank] = span().
  template <class iType>
  KOKKOS_INLINE_FUNCTION void stride(iType* const s) const {
    for (std::size_t r = 0; Impl::rank_below(r, R); ++r) s[r] = static_cast<iType>(m_map.m_stride[r]);
    s[R] = static_cast<iType>(m_map.span());
  }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_0() const { return m_map.stride(0); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_1() const { return m_map.stride(1); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_2() const { return m_map.stride(2); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_3() const { return m_map.stride(3); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_4() const { return m_map.stride(4); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_5() const { return m_map.stride(5); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_6() const { return m_map.stride(6); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t stride_7() const { return m_map.stride(7); }

  KOKKOS_INLINE_FUNCTION constexpr std::size_t size() const { return m_map.size(); }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t span() const { return m_map.span(); }
  KOKKOS_INLINE_FUNCTION constexpr bool span_is_contiguous() const { return m_map.span_is_contiguous(); }
  KOKKOS_INLINE_FUNCTION constexpr pointer_type data() const { return m_ptr; }
  KOKKOS_INLINE_FUNCTION constexpr bool is_allocated() const { return m_ptr != nullptr; }
  KOKKOS_INLINE_FUNCTION array_layout layout() const { return m_map.layout(); }
  KOKKOS_INLINE_FUNCTION const map_type& impl_map() const { return m_map; }

  // The label of the allocation ("" for unmanaged views).  Host only.
  std::string label() const { return m_track != nullptr ? Impl::view_record(m_track)->get_label() : std::string(); }
  // Views sharing the allocation (0 for unmanaged views).
  KOKKOS_INLINE_FUNCTION int use_count() const {
    KOKKOS_IF_ON_HOST((return m_track != nullptr ? Impl::view_record(m_track)->use_count() : 0;))
    KOKKOS_IF_ON_DEVICE((return 0;))
  }

  // Points this View at other memory of the same shape; it no longer counts as a reference to
  // the allocation it had (as Kokkos: the View becomes unmanaged).
  KOKKOS_INLINE_FUNCTION void assign_data(pointer_type arg_data) {
    impl_dec();
    impl_set_unmanaged(arg_data);
  }

  // Whether View(rhs) would hold: compile-time rules, then the run-time extents and strides.
  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION static bool impl_is_assignable_from(const View<RT, RP...>& rhs) {
    if constexpr (!Impl::ViewAssignCheck<View, View<RT, RP...>>::value) {
      (void)rhs;
      return false;
    } else {
      std::size_t dims[map_type::N], strides[map_type::N];
      for (std::size_t r = 0; Impl::rank_below(r, R); ++r) {
        dims[r] = rhs.m_map.m_dim[r];
        strides[r] = rhs.m_map.m_stride[r];
        if (traits::static_extent(r) != 0 && traits::static_extent(r) != dims[r]) return false;
      }
      if constexpr (!std::is_same_v<array_layout, typename View<RT, RP...>::array_layout> &&
                    !std::is_same_v<array_layout, LayoutStride>) {
        return map_type::strides_fit_layout(dims, strides).rank == R;
      }
      return true;
    }
  }

  // ------------------------------------------------------------------------------------------
  // Hooks for the fusion layer and other library internals.
  // The allocation record (null for unmanaged Views), whether or not this View counts.
  KOKKOS_INLINE_FUNCTION track_type* impl_track() const { return Impl::view_record(m_track); }
  KOKKOS_INLINE_FUNCTION const void* impl_allocation_base() const { return m_alloc_base; }
  KOKKOS_INLINE_FUNCTION std::size_t impl_allocation_bytes() const { return m_alloc_bytes; }
  // A copy of a View in a fused run's functor that points into an eliminated temporary is moved
  // onto the worker's chunk buffer (impl/fusion/Kokkos_FusionTemporaries.hpp); its identity stays.
  KOKKOS_INLINE_FUNCTION void impl_fusion_rebase(const void* allocation, std::ptrdiff_t delta_bytes) {
    if (m_alloc_base == allocation) {
      m_ptr = reinterpret_cast<pointer_type>(reinterpret_cast<std::uintptr_t>(m_ptr) + delta_bytes);
    }
  }
  // Element offset of data() from impl_allocation_base().
  KOKKOS_INLINE_FUNCTION std::size_t impl_allocation_offset() const {
    return m_alloc_base == nullptr
               ? 0
               : std::size_t(reinterpret_cast<const char*>(m_ptr) - static_cast<const char*>(m_alloc_base)) /
                     sizeof(value_type);
  }

 private:
  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION static pointer_type impl_assign_ptr(const View<RT, RP...>& rhs) {
    using check = Impl::ViewAssignCheck<View, View<RT, RP...>>;
    check::check();
    if constexpr (check::value) return rhs.m_ptr;
    else return nullptr;
  }

  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION static void impl_assign_extent_error(const View<RT, RP...>& rhs, std::size_t r,
                                                              std::size_t got, std::size_t expected) {
    KOKKOS_IF_ON_HOST((char buf[512]; std::snprintf(buf, sizeof(buf),
                                                    "Kokkos::View assignment from \"%s\": extent(%zu) = %zu does "
                                                    "not match the compile-time extent %zu of the destination",
                                                    rhs.label().c_str(), r, got, expected);
                       Kokkos::abort(buf);))
    KOKKOS_IF_ON_DEVICE(((void)rhs; (void)r; (void)got; (void)expected;
                         Kokkos::abort("Kokkos::View assignment: run-time extent does not match the compile-time "
                                       "extent");))
  }

  // Kokkos' words first, so that code matching them keeps working; then which stride.
  template <class RT, class... RP>
  KOKKOS_INLINE_FUNCTION static void impl_assign_layout_error(const View<RT, RP...>& rhs, const std::size_t* strides,
                                                              std::size_t r, std::size_t expected) {
    constexpr const char* layout = std::is_same_v<array_layout, LayoutLeft> ? "LayoutLeft" : "LayoutRight";
    KOKKOS_IF_ON_HOST((std::string text = "View assignment must have compatible layouts: the source \"" +
                                          rhs.label() + "\" has extents " + Impl::view_extents_string(rhs) +
                                          " and strides (";
                       for (std::size_t k = 0; k < R; ++k) text += (k ? ", " : "") + std::to_string(strides[k]);
                       text += "), but a " + std::string(layout) + " View needs stride(" + std::to_string(r) +
                               ") = " + std::to_string(expected) + ", not " + std::to_string(strides[r]);
                       Kokkos::abort(text.c_str());))
    KOKKOS_IF_ON_DEVICE(((void)rhs; (void)strides; (void)r; (void)expected; (void)layout;
                         Kokkos::abort("View assignment must have compatible layouts");))
  }

  KOKKOS_FORCEINLINE_FUNCTION static reference_type impl_ref(pointer_type p) {
    if constexpr (std::is_lvalue_reference_v<reference_type>) return *p;
    else return reference_type(p);
  }

  template <std::size_t... K, class... I>
  KOKKOS_FORCEINLINE_FUNCTION reference_type impl_access(std::index_sequence<K...>, I... i) const {
    const std::size_t idx[9] = {std::size_t(i)..., 0};
    (void)idx;
    impl_check_host_access();
#if defined(KOKKOS_IMPL_VIEW_BOUNDS_CHECK)
    impl_check_bounds(std::index_sequence<K...>{}, (K < sizeof...(I) ? idx[K] : std::size_t(0))...);
#endif
    return impl_ref(m_ptr + m_map((K < sizeof...(I) ? idx[K] : std::size_t(0))...));
  }

  // Extents from constructor arguments: either the run-time ones or all of them.
  KOKKOS_INLINE_FUNCTION void impl_dims_from_args(const char* label, const std::size_t* n,
                                                  std::size_t* dims) const {
    std::size_t given = 0;
    while (given < 8 && n[given] != KOKKOS_IMPL_CTOR_DEFAULT_ARG) ++given;
    bool ok = given == traits::rank_dynamic || given == R;
    for (std::size_t r = given; r < 8; ++r)
      if (n[r] != KOKKOS_IMPL_CTOR_DEFAULT_ARG) ok = false;
    if (!ok) impl_ctor_error(label, given, "has mismatched number of arguments", 0, 0, 0);
    for (std::size_t r = 0; Impl::rank_below(r, R); ++r) {
      const std::size_t se = traits::static_extent(r);
      if (se != 0) {
        if (given == R && n[r] != se) impl_ctor_error(label, r, "extent does not match the compile-time extent", n[r], se, 1);
        dims[r] = se;
      } else {
        dims[r] = n[r];
      }
    }
  }

  KOKKOS_INLINE_FUNCTION map_type impl_map_from_layout(const char* label, const array_layout& l) const {
    std::size_t dims[map_type::N];
    for (std::size_t r = 0; Impl::rank_below(r, R); ++r) {
      const std::size_t se = traits::static_extent(r);
      const std::size_t d = l.dimension[r];
      if (se != 0) {
        if (d != KOKKOS_IMPL_CTOR_DEFAULT_ARG && d != se)
          impl_ctor_error(label, r, "extent does not match the compile-time extent", d, se, 1);
        dims[r] = se;
      } else {
        if (d == KOKKOS_IMPL_CTOR_DEFAULT_ARG) impl_ctor_error(label, r, "layout has no extent for rank", 0, 0, 2);
        dims[r] = d;
      }
    }
    map_type map;
    if constexpr (std::is_same_v<array_layout, LayoutStride>) {
      std::size_t strides[map_type::N];
      for (std::size_t r = 0; Impl::rank_below(r, R); ++r) strides[r] = l.stride[r];
      map.set(dims, strides);
    } else {
      map.set_compact(dims);
    }
    return map;
  }

  KOKKOS_INLINE_FUNCTION static void impl_ctor_error(const char* label, std::size_t a, const char* what,
                                                     std::size_t got, std::size_t expected, int kind) {
    KOKKOS_IF_ON_HOST((char buf[512]; if (kind == 0) {
      std::snprintf(buf, sizeof(buf),
                    "Constructor for Kokkos::View '%s' has mismatched number of arguments. The number of "
                    "arguments = %zu neither matches the dynamic rank = %u nor the total rank = %u",
                    label, a, traits::rank_dynamic, traits::rank);
    } else if (kind == 1) {
      std::snprintf(buf, sizeof(buf), "Constructor for Kokkos::View '%s': %s: extent(%zu) = %zu, expected %zu", label,
                    what, a, got, expected);
    } else {
      std::snprintf(buf, sizeof(buf), "Constructor for Kokkos::View '%s': %s %zu", label, what, a);
    } Kokkos::abort(buf);))
    KOKKOS_IF_ON_DEVICE(((void)label; (void)a; (void)got; (void)expected; (void)kind; Kokkos::abort(what);))
  }

  KOKKOS_INLINE_FUNCTION void impl_set_unmanaged(pointer_type p) {
    m_ptr = p;
    m_track = nullptr;
    m_alloc_base = p;
    m_alloc_bytes = m_map.span() * sizeof(value_type);
  }

  template <class... P>
  void impl_construct(const Impl::ViewCtorProp<P...>& prop, const std::string& label, const map_type& map) {
    using prop_t = Impl::ViewCtorProp<P...>;
    m_map = map;
    if constexpr (prop_t::has_pointer) {
      impl_set_unmanaged(static_cast<pointer_type>(prop.get_pointer()));
    } else {
      static_assert(traits::is_managed,
                    "Kokkos::View: an allocating constructor needs a managed View (no MemoryTraits<Unmanaged>)");
      static_assert(!prop_t::initialize || std::is_default_constructible_v<non_const_value_type>,
                    "Kokkos::View: value-initialising elements needs a default constructor; allocate with "
                    "Kokkos::view_alloc(Kokkos::WithoutInitializing, label) and construct them in place");
      {
        const std::string what = "Kokkos::View (label \"" + label + "\") allocation";
        Impl::check_initialized(what.c_str());
      }
      memory_space space;
      if constexpr (prop_t::has_memory_space) {
        static_assert(std::is_same_v<std::remove_cv_t<std::remove_reference_t<decltype(prop.get_memory_space())>>,
                                     memory_space>,
                      "Kokkos::view_alloc: the memory space differs from the View's memory space");
        space = prop.get_memory_space();
      }
      std::size_t bytes = 0;
      if (!m_map.span_bytes_checked(sizeof(value_type), bytes)) {
        throw std::runtime_error("Kokkos::View \"" + label + "\": the allocation size of extents " +
                                 Impl::view_extents_string(*this) + " with " + std::to_string(sizeof(value_type)) +
                                 "-byte elements overflows std::size_t");
      }
      using record_type = Impl::SharedAllocationRecordFor<memory_space, non_const_value_type>;
      record_type* rec = nullptr;
      if constexpr (prop_t::has_execution_space) {
        rec = record_type::allocate(space, label, m_map.span(), prop_t::initialize, prop.get_execution_space());
      } else {
        rec = record_type::allocate(space, label, m_map.span(), prop_t::initialize);
      }
      m_track = rec;
      m_ptr = static_cast<pointer_type>(rec->data());
      m_alloc_base = rec->data();
      m_alloc_bytes = rec->size();
    }
  }

  // Element access from host code to memory the host cannot touch (a CudaSpace View) aborts with
  // a message naming the View, instead of a segmentation fault.  Decided at compile time: Views
  // of host-accessible memory, and device code, pay nothing.
  KOKKOS_FORCEINLINE_FUNCTION void impl_check_host_access() const {
    if constexpr (!Impl::memspace_host_accessible<memory_space>::value) {
      KOKKOS_IF_ON_HOST((impl_host_access_error();))
    }
  }
  [[noreturn]] KOKKOS_IMPL_NOINLINE void impl_host_access_error() const {
    const char* lbl = m_track != nullptr ? Impl::view_record(m_track)->label_c_str() : "";
    char buf[512];
    std::snprintf(buf, sizeof(buf),
                  "Kokkos::View ERROR: attempt to access inaccessible memory space: View \"%s\" in memory space %s "
                  "accessed from host code (copy it to a host mirror with Kokkos::create_mirror_view_and_copy)",
                  lbl, memory_space::name());
    Kokkos::abort(buf);
  }

#if defined(KOKKOS_IMPL_VIEW_BOUNDS_CHECK)
  template <std::size_t... K, class... I>
  KOKKOS_INLINE_FUNCTION void impl_check_bounds(std::index_sequence<K...>, I... i) const {
    (impl_check_one(K, i), ...);
#if defined(KOKKOS_IMPL_VIEW_STALE_READ_CHECK)
    KOKKOS_IF_ON_HOST((impl_check_not_pending();))
#endif
  }
#if defined(KOKKOS_IMPL_VIEW_STALE_READ_CHECK)
  void impl_check_not_pending() const {
    const char* writer = Impl::fusion_pending_writer(m_alloc_base);
    if (writer == nullptr) return;
    char buf[768];
    std::snprintf(buf, sizeof(buf),
                  "Kokkos::View \"%s\": host access while the recorded launch \"%s\" that writes it is still "
                  "pending in the fusion window (the access would see stale data); call Kokkos::fence() (or end "
                  "the FusionScope) before accessing the View on the host",
                  label().c_str(), writer);
    Kokkos::abort(buf);
  }
#endif
  template <class I>
  KOKKOS_INLINE_FUNCTION void impl_check_one(std::size_t r, I i) const {
    bool negative = false;
    if constexpr (std::is_signed_v<I>) negative = i < 0;
    if (negative || std::size_t(i) >= m_map.m_dim[r]) impl_bounds_error(r, (long long)(i), negative);
  }
  KOKKOS_INLINE_FUNCTION void impl_bounds_error(std::size_t r, long long i, bool negative) const {
    KOKKOS_IF_ON_HOST((const char* lbl = m_track != nullptr ? Impl::view_record(m_track)->label_c_str() : ""; char buf[512];
                       if (negative) std::snprintf(buf, sizeof(buf),
                                                   "Kokkos::View ERROR: out of bounds access label=(\"%s\") index "
                                                   "%zu = %lld < 0 (extent %zu)",
                                                   lbl, r, i, m_map.m_dim[r]);
                       else std::snprintf(buf, sizeof(buf),
                                          "Kokkos::View ERROR: out of bounds access label=(\"%s\") index %zu = "
                                          "%lld >= extent %zu",
                                          lbl, r, i, m_map.m_dim[r]);
                       Kokkos::abort(buf);))
    KOKKOS_IF_ON_DEVICE(((void)negative;
                         printf("Kokkos::View ERROR: out of bounds access label=(unavailable on device) index %llu = "
                                "%lld >= extent %llu\n",
                                (unsigned long long)r, i, (unsigned long long)m_map.m_dim[r]);
                         Kokkos::abort("Kokkos::View ERROR: out of bounds access");))
  }
#endif
};

// ---------------------------------------------------------------------------------------------
template <class T>
struct is_view : std::false_type {};
template <class D, class... P>
struct is_view<View<D, P...>> : std::true_type {};
template <class D, class... P>
struct is_view<const View<D, P...>> : std::true_type {};
template <class T>
inline constexpr bool is_view_v = is_view<T>::value;

// Whether `dst = src` is allowed for these two Views (Kokkos::is_assignable).
template <class DT, class... DP, class ST, class... SP>
KOKKOS_INLINE_FUNCTION bool is_assignable(const View<DT, DP...>&, const View<ST, SP...>& src) {
  return View<DT, DP...>::impl_is_assignable_from(src);
}

template <class D, class... P>
KOKKOS_INLINE_FUNCTION constexpr unsigned rank(const View<D, P...>&) {
  return View<D, P...>::rank();
}

// Same element type, layout, space, data and extents.
template <class LT, class... LP, class RT, class... RP>
KOKKOS_INLINE_FUNCTION bool operator==(const View<LT, LP...>& lhs, const View<RT, RP...>& rhs) {
  using L = View<LT, LP...>;
  using Rv = View<RT, RP...>;
  if constexpr (!std::is_same_v<typename L::const_value_type, typename Rv::const_value_type> ||
                !std::is_same_v<typename L::array_layout, typename Rv::array_layout> ||
                !std::is_same_v<typename L::memory_space, typename Rv::memory_space> || L::rank() != Rv::rank()) {
    return false;
  } else {
    if (lhs.data() != rhs.data() || lhs.span() != rhs.span()) return false;
    for (std::size_t r = 0; r < L::rank(); ++r)
      if (lhs.extent(r) != rhs.extent(r) || lhs.stride(r) != rhs.stride(r)) return false;
    return true;
  }
}
template <class LT, class... LP, class RT, class... RP>
KOKKOS_INLINE_FUNCTION bool operator!=(const View<LT, LP...>& lhs, const View<RT, RP...>& rhs) {
  return !(lhs == rhs);
}

}  // namespace Kokkos

#include <impl/view/Kokkos_ViewSubview.hpp>
#include <Kokkos_CopyViews.hpp>

#pragma once
// Kokkos::Experimental::DynamicView<T*, Properties...>: a rank-1 array that grows and shrinks
// in chunks of chunk_size() elements (a power of two) up to a maximum fixed at construction.
//
//   Kokkos::Experimental::DynamicView<double*> a("a", 1024, 1 << 20);  // chunks, max extent
//   a.resize_serial(5000);                                           // host, between kernels
//   parallel_for(5000, KOKKOS_LAMBDA(int i) { a(i) = i; });
//
// Elements live in separately allocated chunks reached through a table of chunk pointers in
// the memory space, so growing allocates new chunks and never moves existing elements: a
// reference or pointer to a(i) stays valid until a resize drops its chunk.  Copies share the
// chunks and the current extent.  The table's two slots past the last chunk pointer hold the
// number of allocated chunks and the extent, so a copy taken before a resize sees the new size.
//
// resize_serial runs on the host outside kernels; operator() may be called concurrently from
// any number of threads on elements of allocated chunks.  Chunks are not initialised (as in
// Kokkos), which is why the value type must be trivially copyable and destructible.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

namespace Kokkos {
namespace Experimental {

namespace Impl {

// Owns the chunks of one DynamicView and its copies; kept in a one-element host View so that
// the View's reference counting decides when the last copy is gone.
template <class MemorySpace>
struct DynamicViewChunkOwner {
  using table_host_type = View<std::uintptr_t*, HostSpace>;
  table_host_type table;  // host copy of the chunk table
  std::string label;
  std::size_t chunk_bytes = 0;
  std::size_t chunk_max = 0;

  void release_chunks_from(std::size_t first) {
    const std::size_t allocated = table(chunk_max);
    for (std::size_t c = first; c < allocated; ++c) {
      MemorySpace().deallocate(label.c_str(), reinterpret_cast<void*>(table(c)), chunk_bytes);
      table(c) = 0;
    }
    if (first < allocated) table(chunk_max) = first;
  }

  DynamicViewChunkOwner() = default;
  DynamicViewChunkOwner(const DynamicViewChunkOwner&) = delete;
  DynamicViewChunkOwner& operator=(const DynamicViewChunkOwner&) = delete;
  ~DynamicViewChunkOwner() {
    if (table.data() != nullptr) release_chunks_from(0);
  }
};

}  // namespace Impl

template <class DataType, class... P>
class DynamicView : public ViewTraits<DataType, P...> {
 public:
  using traits = ViewTraits<DataType, P...>;
  using value_type = typename traits::value_type;
  using device_space = typename traits::memory_space;
  using memory_space = typename traits::memory_space;
  using execution_space = typename traits::execution_space;
  using reference_type = value_type&;
  using pointer_type = value_type*;

  using type = DynamicView<typename traits::data_type, typename traits::device_type>;
  using const_type = DynamicView<typename traits::const_data_type, typename traits::device_type>;
  using non_const_type = DynamicView<typename traits::non_const_data_type, typename traits::device_type>;
  using HostMirror = DynamicView;
  using uniform_type = type;
  using uniform_const_type = const_type;
  using uniform_runtime_type = type;
  using uniform_runtime_const_type = const_type;

  static_assert(traits::rank == 1 && traits::rank_dynamic == 1,
                "Kokkos::Experimental::DynamicView must be rank one with a run-time extent (T*)");
  static_assert(std::is_trivially_copyable_v<value_type> && std::is_trivially_destructible_v<value_type>,
                "Kokkos::Experimental::DynamicView: chunks are not initialised or destroyed, so the value type "
                "must be trivially copyable and destructible");

  enum { Rank = 1 };
  static constexpr Kokkos::Impl::integral_constant<std::size_t, 1> rank = {};
  enum { reference_type_is_lvalue_reference = 1 };

 private:
  template <class, class...>
  friend class DynamicView;

  using table_type = View<std::uintptr_t*, memory_space>;
  using owner_type = Impl::DynamicViewChunkOwner<memory_space>;

  table_type m_table;                                // chunk pointers, then count and extent
  typename owner_type::table_host_type m_table_host;  // the same on the host (maybe the same View)
  View<owner_type*, HostSpace> m_owner;
  unsigned m_chunk_shift = 0;
  unsigned m_chunk_mask = 0;
  unsigned m_chunk_max = 0;
  unsigned m_chunk_size = 0;

  KOKKOS_INLINE_FUNCTION std::uintptr_t impl_table_entry(std::size_t k) const {
    KOKKOS_IF_ON_HOST((return m_table_host.data() != nullptr ? m_table_host(k) : 0;))
    KOKKOS_IF_ON_DEVICE((return m_table.data() != nullptr ? m_table(k) : 0;))
  }

 public:
  DynamicView() = default;

  template <class RT, class... RP>
  DynamicView(const DynamicView<RT, RP...>& rhs)
      : m_table(rhs.m_table),
        m_table_host(rhs.m_table_host),
        m_owner(rhs.m_owner),
        m_chunk_shift(rhs.m_chunk_shift),
        m_chunk_mask(rhs.m_chunk_mask),
        m_chunk_max(rhs.m_chunk_max),
        m_chunk_size(rhs.m_chunk_size) {
    static_assert(std::is_same_v<typename traits::non_const_value_type,
                                 typename DynamicView<RT, RP...>::traits::non_const_value_type> &&
                      (std::is_const_v<value_type> || !std::is_const_v<typename DynamicView<RT, RP...>::value_type>) &&
                      std::is_same_v<memory_space, typename DynamicView<RT, RP...>::memory_space>,
                  "Incompatible Kokkos::Experimental::DynamicView copy construction");
  }

  // Chunks of at least min_chunk_size elements (rounded up to a power of two) and at most
  // max_extent elements in all; nothing is allocated until resize_serial.
  template <class... Prop>
  DynamicView(const Kokkos::Impl::ViewCtorProp<Prop...>& arg_prop, const unsigned min_chunk_size,
              const unsigned max_extent)
      : m_chunk_shift(min_chunk_size > 1 ? Kokkos::bit_width(min_chunk_size - 1) : 0),
        m_chunk_mask((1u << m_chunk_shift) - 1),
        m_chunk_max(static_cast<unsigned>((std::size_t(max_extent) + m_chunk_mask) >> m_chunk_shift)),
        m_chunk_size(1u << m_chunk_shift) {
    const std::string label = arg_prop.get_label();
    m_table = table_type(label + "::chunks", m_chunk_max + 2);  // zero: no chunks, extent 0
    m_table_host = Kokkos::create_mirror_view(m_table);
    Kokkos::deep_copy(m_table_host, m_table);
    m_owner = View<owner_type*, HostSpace>(label, 1);
    owner_type& owner = m_owner(0);
    owner.table = m_table_host;
    owner.label = label;
    owner.chunk_bytes = sizeof(value_type) * m_chunk_size;
    owner.chunk_max = m_chunk_max;
  }

  DynamicView(const std::string& arg_label, const unsigned min_chunk_size, const unsigned max_extent)
      : DynamicView(Kokkos::view_alloc(arg_label), min_chunk_size, max_extent) {}

  // ------------------------------------------------------------------------------------------
  KOKKOS_INLINE_FUNCTION std::size_t allocation_extent() const noexcept {
    return std::size_t(impl_table_entry(m_chunk_max)) << m_chunk_shift;
  }
  KOKKOS_INLINE_FUNCTION std::size_t chunk_size() const noexcept { return m_chunk_size; }
  KOKKOS_INLINE_FUNCTION std::size_t chunk_max() const noexcept { return m_chunk_max; }
  KOKKOS_INLINE_FUNCTION std::size_t size() const noexcept { return impl_table_entry(m_chunk_max + 1); }
  template <class iType>
  KOKKOS_INLINE_FUNCTION std::size_t extent(const iType& r) const {
    return r == 0 ? size() : 1;
  }
  template <class iType>
  KOKKOS_INLINE_FUNCTION int extent_int(const iType& r) const {
    return static_cast<int>(extent(r));
  }
  KOKKOS_INLINE_FUNCTION constexpr bool span_is_contiguous() const { return false; }
  KOKKOS_INLINE_FUNCTION constexpr std::size_t span() const { return 0; }
  KOKKOS_INLINE_FUNCTION constexpr pointer_type data() const { return nullptr; }
  KOKKOS_INLINE_FUNCTION bool is_allocated() const { return m_table.data() != nullptr && size() > 0; }
  KOKKOS_INLINE_FUNCTION int use_count() const { return m_owner.use_count(); }
  std::string label() const { return m_owner.data() != nullptr ? m_owner(0).label : std::string(); }

  // Element i0; further arguments (zeros, for rank-generic code) are ignored, as in Kokkos.
  template <class I0, class... Args>
  KOKKOS_INLINE_FUNCTION reference_type operator()(const I0& i0, const Args&...) const {
    static_assert(Kokkos::Impl::is_view_index_v<I0> && (Kokkos::Impl::is_view_index_v<Args> && ...),
                  "Kokkos::Experimental::DynamicView: indices must be integral");
    const std::uintptr_t chunk = std::uintptr_t(i0) >> m_chunk_shift;
#if defined(KOKKOS_IMPL_VIEW_BOUNDS_CHECK)
    if (chunk >= m_table(m_chunk_max)) impl_bounds_error(static_cast<long long>(i0));
#endif
    return reinterpret_cast<pointer_type>(m_table(chunk))[std::uintptr_t(i0) & m_chunk_mask];
  }

  // Grows or shrinks to n elements: allocates the missing chunks / frees the unused ones.
  // Host only, outside kernels that use this DynamicView.
  template <class IntType>
  void resize_serial(IntType const& n) {
    static_assert(std::is_integral_v<IntType>, "Kokkos::Experimental::DynamicView::resize_serial: integral size");
    if (m_owner.data() == nullptr)
      Kokkos::Impl::throw_runtime_exception("Kokkos::Experimental::DynamicView::resize_serial on a default-constructed DynamicView");
    bool negative = false;
    if constexpr (std::is_signed_v<IntType>) negative = n < 0;
    if (negative || ((std::size_t(n) + m_chunk_mask) >> m_chunk_shift) > m_chunk_max)
      Kokkos::Impl::throw_runtime_exception("Kokkos::Experimental::DynamicView::resize_serial(" + std::to_string(n) +
                                            ") of \"" + label() + "\" exceeds the maximum extent " +
                                            std::to_string(std::size_t(m_chunk_max) * m_chunk_size));
    const std::size_t chunks_needed = (std::size_t(n) + m_chunk_mask) >> m_chunk_shift;
    Kokkos::fence("Kokkos::Experimental::DynamicView::resize_serial: before changing the chunks");
    owner_type& owner = m_owner(0);
    owner.release_chunks_from(chunks_needed);
    for (std::size_t c = m_table_host(m_chunk_max); c < chunks_needed; ++c) {
      m_table_host(c) = reinterpret_cast<std::uintptr_t>(memory_space().allocate(owner.label.c_str(), owner.chunk_bytes));
      m_table_host(m_chunk_max) = c + 1;
    }
    m_table_host(m_chunk_max + 1) = std::size_t(n);
    Kokkos::deep_copy(m_table, m_table_host);
  }

 private:
#if defined(KOKKOS_IMPL_VIEW_BOUNDS_CHECK)
  KOKKOS_INLINE_FUNCTION void impl_bounds_error(long long i) const {
    KOKKOS_IF_ON_HOST((char buf[512]; const std::string lbl = label();
                       std::snprintf(buf, sizeof(buf),
                                     "Kokkos::DynamicView array bounds error: label=(\"%s\") index %lld is beyond "
                                     "the allocated %zu elements",
                                     lbl.c_str(), i, allocation_extent());
                       Kokkos::abort(buf);))
    KOKKOS_IF_ON_DEVICE(((void)i; Kokkos::abort("Kokkos::DynamicView array bounds error");))
  }
#endif
};

// A fixed range [begin, begin + extent) of a DynamicView, indexed from zero: what
// Kokkos::subview(dynamic_view, pair) returns (a kdag addition: Kokkos has no DynamicView
// subview).  Its elements are the DynamicView's own, so it is not contiguous (data() is null)
// and it does not follow a later resize: a resize that drops the range's chunks leaves it
// dangling, like a reference to an element.
template <class DataType, class... P>
class DynamicSubview : public ViewTraits<DataType, P...> {
 public:
  using parent_type = DynamicView<DataType, P...>;
  using reference_type = typename parent_type::reference_type;
  using pointer_type = typename parent_type::pointer_type;
  static constexpr Kokkos::Impl::integral_constant<std::size_t, 1> rank = {};

  DynamicSubview() = default;
  DynamicSubview(const parent_type& parent, std::size_t begin, std::size_t end)
      : m_parent(parent), m_begin(begin), m_extent(end - begin) {
    if (begin > end || end > parent.extent(0)) {
      Kokkos::Impl::throw_runtime_exception("Kokkos::subview(DynamicView, [" + std::to_string(begin) + ", " +
                                            std::to_string(end) + ")): not a range of \"" + parent.label() +
                                            "\", whose extent is " + std::to_string(parent.extent(0)));
    }
  }

  KOKKOS_INLINE_FUNCTION std::size_t size() const noexcept { return m_extent; }
  template <class iType>
  KOKKOS_INLINE_FUNCTION std::size_t extent(const iType& r) const {
    return r == 0 ? m_extent : 1;
  }
  template <class iType>
  KOKKOS_INLINE_FUNCTION int extent_int(const iType& r) const {
    return static_cast<int>(extent(r));
  }
  KOKKOS_INLINE_FUNCTION constexpr bool span_is_contiguous() const { return false; }
  KOKKOS_INLINE_FUNCTION constexpr pointer_type data() const { return nullptr; }
  KOKKOS_INLINE_FUNCTION std::size_t begin_offset() const { return m_begin; }
  KOKKOS_INLINE_FUNCTION const parent_type& parent() const { return m_parent; }
  std::string label() const { return m_parent.label(); }

  template <class I0, class... Args>
  KOKKOS_INLINE_FUNCTION reference_type operator()(const I0& i0, const Args&... args) const {
    return m_parent(m_begin + std::size_t(i0), args...);
  }

 private:
  parent_type m_parent;
  std::size_t m_begin = 0;
  std::size_t m_extent = 0;
};

}  // namespace Experimental

// subview(dynamic_view, pair) / subview(dynamic_view, ALL) and the same of such a range: a
// DynamicSubview of the DynamicView.
template <class D, class... P, class B, class E>
Experimental::DynamicSubview<D, P...> subview(const Experimental::DynamicView<D, P...>& v, const std::pair<B, E>& r) {
  return {v, std::size_t(r.first), std::size_t(r.second)};
}
template <class D, class... P>
Experimental::DynamicSubview<D, P...> subview(const Experimental::DynamicView<D, P...>& v, ALL_t) {
  return {v, 0, v.extent(0)};
}
template <class D, class... P, class B, class E>
Experimental::DynamicSubview<D, P...> subview(const Experimental::DynamicSubview<D, P...>& v, const std::pair<B, E>& r) {
  if (std::size_t(r.first) > std::size_t(r.second) || std::size_t(r.second) > v.extent(0)) {
    Kokkos::Impl::throw_runtime_exception("Kokkos::subview(DynamicSubview, [" + std::to_string(r.first) + ", " +
                                          std::to_string(r.second) + ")): not a range of the subview, whose extent is " +
                                          std::to_string(v.extent(0)));
  }
  return {v.parent(), v.begin_offset() + std::size_t(r.first), v.begin_offset() + std::size_t(r.second)};
}

namespace Experimental {
// So that an unqualified subview(dynamic_view, ...) in generic code finds the overloads above.
using Kokkos::subview;
}  // namespace Experimental

template <class>
struct is_dynamic_view : public std::false_type {};
template <class D, class... P>
struct is_dynamic_view<Kokkos::Experimental::DynamicView<D, P...>> : public std::true_type {};
template <class D, class... P>
struct is_dynamic_view<const Kokkos::Experimental::DynamicView<D, P...>> : public std::true_type {};
template <class T>
inline constexpr bool is_dynamic_view_v = is_dynamic_view<T>::value;

// ---------------------------------------------------------------------------------------------
// Mirrors: a new DynamicView with the same chunking and extent (contents not copied), or the
// source itself where it already lives in the requested (host) memory.
namespace Impl {
template <class Result, class T, class... P>
Result create_dynamic_view_mirror(const Kokkos::Experimental::DynamicView<T, P...>& src) {
  Result mirror(src.label() + "_mirror", static_cast<unsigned>(src.chunk_size()),
                static_cast<unsigned>(src.chunk_max() * src.chunk_size()));
  mirror.resize_serial(src.extent(0));
  return mirror;
}

template <class Dst, class Src>
void dynamic_view_copy(const Dst& dst, const Src& src) {
  static_assert(memspace_host_accessible<typename Dst::memory_space>::value &&
                    memspace_host_accessible<typename Src::memory_space>::value,
                "Kokkos::deep_copy with a DynamicView: only host-accessible memory spaces are supported");
  Kokkos::fence("Kokkos::deep_copy(DynamicView): before copy");
  const std::size_t n = dst.extent(0) < src.extent(0) ? dst.extent(0) : src.extent(0);
  for (std::size_t i = 0; i < n; ++i) dst(i) = src(i);
  Kokkos::fence("Kokkos::deep_copy(DynamicView): after copy");
}
}  // namespace Impl

template <class T, class... P>
inline auto create_mirror(const Kokkos::Experimental::DynamicView<T, P...>& src) {
  return Impl::create_dynamic_view_mirror<typename Kokkos::Experimental::DynamicView<T, P...>::HostMirror>(src);
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline auto create_mirror(const Space&, const Kokkos::Experimental::DynamicView<T, P...>& src) {
  using result = Kokkos::Experimental::DynamicView<typename ViewTraits<T, P...>::non_const_data_type,
                                                   typename Space::memory_space>;
  return Impl::create_dynamic_view_mirror<result>(src);
}
template <class T, class... P>
inline auto create_mirror_view(const Kokkos::Experimental::DynamicView<T, P...>& src) {
  return typename Kokkos::Experimental::DynamicView<T, P...>::HostMirror(src);
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline auto create_mirror_view(const Space& space, const Kokkos::Experimental::DynamicView<T, P...>& src) {
  if constexpr (std::is_same_v<typename Space::memory_space, typename ViewTraits<T, P...>::memory_space>) {
    (void)space;
    return src;
  } else {
    return Kokkos::create_mirror(space, src);
  }
}

// deep_copy between a DynamicView and a View or another DynamicView: the first
// min(dst.extent(0), src.extent(0)) elements.
template <class T, class... DP, class... SP>
inline void deep_copy(const Kokkos::Experimental::DynamicView<T, DP...>& dst,
                      const Kokkos::Experimental::DynamicView<T, SP...>& src) {
  Impl::dynamic_view_copy(dst, src);
}
template <class T, class... DP, class S, class... SP>
inline void deep_copy(const View<T, DP...>& dst, const Kokkos::Experimental::DynamicView<S, SP...>& src) {
  static_assert(View<T, DP...>::rank() == 1, "Kokkos::deep_copy(View, DynamicView): the View must be rank one");
  Impl::dynamic_view_copy(dst, src);
}
template <class T, class... DP, class S, class... SP>
inline void deep_copy(const Kokkos::Experimental::DynamicView<T, DP...>& dst, const View<S, SP...>& src) {
  static_assert(View<S, SP...>::rank() == 1, "Kokkos::deep_copy(DynamicView, View): the View must be rank one");
  Impl::dynamic_view_copy(dst, src);
}

}  // namespace Kokkos

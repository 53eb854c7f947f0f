#pragma once
// deep_copy, create_mirror, create_mirror_view, create_mirror_view_and_copy, resize, realloc.
//
// Every deep_copy goes through Impl::deep_copy_impl, the one place where a hook (the fusion
// layer's flush) sees all copies.  Copies run on the calling thread with plain loops / memcpy;
// without an execution space argument they fence before and after (Kokkos semantics), with
// one they fence that instance before copying (so its pending work is ordered before the copy).
#include <Kokkos_View.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/tools/Kokkos_Profiling.hpp>

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>

namespace Kokkos {
namespace Impl {

// Raw byte copy between two memory spaces; a back end with device memory specialises it.
template <class DstSpace, class SrcSpace, class Enable = void>
struct DeepCopy {
  static_assert(memspace_host_accessible<DstSpace>::value && memspace_host_accessible<SrcSpace>::value,
                "Kokkos::deep_copy: no copy is implemented between these memory spaces");
  DeepCopy(void* dst, const void* src, std::size_t n) {
    if (n != 0) std::memcpy(dst, src, n);
  }
  template <class Exec>
  DeepCopy(const Exec&, void* dst, const void* src, std::size_t n) {
    if (n != 0) std::memcpy(dst, src, n);
  }
};

// Calls op(offset_a, offset_b) for every multi-index of `dims`, where the offsets use strides
// `sa` and `sb`; the fastest rank is the first (left) or the last.
template <class Op>
inline void strided_for_each(std::size_t R, const std::size_t* dims, const std::size_t* sa, const std::size_t* sb,
                             bool left, Op&& op) {
  if (R == 0) {
    op(std::size_t(0), std::size_t(0));
    return;
  }
  for (std::size_t r = 0; rank_below(r, R); ++r)
    if (dims[r] == 0) return;
  const std::size_t inner = left ? 0 : R - 1;
  const std::size_t n = dims[inner], ia = sa[inner], ib = sb[inner];
  std::size_t idx[8] = {};
  while (true) {
    std::size_t oa = 0, ob = 0;
    for (std::size_t r = 0; rank_below(r, R); ++r) {
      oa += idx[r] * sa[r];
      ob += idx[r] * sb[r];
    }
    for (std::size_t i = 0; i < n; ++i) op(oa + i * ia, ob + i * ib);
    bool done = true;
    if (left) {
      for (std::size_t r = 1; r < R; ++r) {
        if (++idx[r] < dims[r]) {
          done = false;
          break;
        }
        idx[r] = 0;
      }
    } else {
      for (std::size_t r = R - 1; r-- > 0;) {
        if (++idx[r] < dims[r]) {
          done = false;
          break;
        }
        idx[r] = 0;
      }
    }
    if (done) break;
  }
}

template <class V>
inline std::string view_shape_string(const V& v) {
  // Appended piece by piece: g++ 12 -O3 warns (-Wrestrict, a false positive) about the
  // temporaries of a chained operator+.
  std::string s = "\"";
  s += v.label();
  s += "\" (";
  for (std::size_t r = 0; rank_below(r, V::rank()); ++r) {
    if (r) s += ",";
    s += std::to_string(v.extent(r));
  }
  return s + ")";
}

// Copy the elements of src to dst over the given extents (the overlap for resize).
template <class DstView, class SrcView>
inline void view_copy_elements(const DstView& dst, const SrcView& src, const std::size_t* dims) {
  static_assert(memspace_host_accessible<typename DstView::memory_space>::value &&
                    memspace_host_accessible<typename SrcView::memory_space>::value,
                "Kokkos::deep_copy: element-wise copy of non-contiguous views needs host-accessible memory");
  constexpr std::size_t R = DstView::rank();
  std::size_t sd[R + 1], ss[R + 1];
  dst.stride(sd);
  src.stride(ss);
  auto* d = dst.data();
  const auto* s = src.data();
  strided_for_each(R, dims, sd, ss, std::is_same_v<typename DstView::array_layout, LayoutLeft>,
                   [&](std::size_t od, std::size_t os) { d[od] = s[os]; });
}

// No execution space instance given: a synchronous copy (the NoExecutionSpaceArg of allocation).
using NoExecSpace = NoExecutionSpaceArg;

// Work that deep_copy(exec, ...) does on the calling thread (host loops, staging through the host)
// must come after what `exec` has queued: a device instance is fenced first.  (A host instance was
// fenced by deep_copy_impl already; without an instance everything was fenced.)
template <class Exec>
inline void fence_before_host_copy(const Exec& exec) {
  if constexpr (!std::is_same_v<Exec, NoExecSpace>) {
    if constexpr (!Exec::impl_is_host_backend) exec.fence("Kokkos::deep_copy: fence before copying on the host");
  }
}

// A View's elements seen from the host.  A View in host-accessible memory is used in place; one
// in memory the host cannot touch is staged: its span [data, data + span) is copied to a host
// buffer (when `load`), element access goes through an unmanaged View of the same strides over
// the buffer, and store() copies the span back.  So every element-wise copy or fill between any
// two memory spaces is a host loop between byte copies, whatever the layouts.
template <class V>
class HostElementAccess {
  using value_type = typename V::non_const_value_type;
  using memory_space = typename V::memory_space;
  static constexpr bool in_place = memspace_host_accessible<memory_space>::value;
  static constexpr std::size_t R = V::rank();

 public:
  using host_view = View<BuildDataType<value_type, R>, LayoutStride, HostSpace, MemoryTraits<Unmanaged>>;

  HostElementAccess(const V& v, bool load) : m_view(v), m_bytes(v.span() * sizeof(value_type)) {
    value_type* data = const_cast<value_type*>(v.data());
    if constexpr (!in_place) {
      m_buffer.reset(static_cast<value_type*>(::operator new(m_bytes, std::align_val_t(HostSpace::alignment))));
      data = m_buffer.get();
      if (load) DeepCopy<HostSpace, memory_space>(data, v.data(), m_bytes);
    }
    LayoutStride layout;
    for (std::size_t r = 0; r < ARRAY_LAYOUT_MAX_RANK; ++r) {
      layout.dimension[r] = KOKKOS_IMPL_CTOR_DEFAULT_ARG;
      layout.stride[r] = 0;
    }
    for (std::size_t r = 0; r != R; ++r) {  // != : R may be 0, and nvcc warns about r < 0
      layout.dimension[r] = v.extent(r);
      layout.stride[r] = v.stride(r);
    }
    m_host = host_view(data, layout);
  }

  const host_view& view() const { return m_host; }

  // Copies the staged span back to the View's memory (nothing to do in place).
  void store() const {
    if constexpr (!in_place) DeepCopy<memory_space, HostSpace>(const_cast<value_type*>(m_view.data()), m_buffer.get(), m_bytes);
  }

 private:
  struct AlignedDelete {
    void operator()(value_type* p) const { ::operator delete(p, std::align_val_t(HostSpace::alignment)); }
  };
  const V& m_view;
  std::size_t m_bytes;
  std::unique_ptr<value_type, AlignedDelete> m_buffer;
  host_view m_host;
};

// A copy of rank 1 or 2 whose elements are rows of contiguous bytes at a fixed pitch in both
// Views (a strided vector, a matrix or a block of one with the same contiguous rank in both): a
// device back end copies it in one pitched copy (DeepCopy::pitched, cudaMemcpy2D) instead of
// staging it.  Returns false when the shapes do not allow it.
template <class Exec, class DstView, class SrcView>
inline bool view_copy_pitched(const Exec& exec, const DstView& dst, const SrcView& src, const std::size_t* dims) {
  using Copy = DeepCopy<typename DstView::memory_space, typename SrcView::memory_space>;
  constexpr std::size_t R = DstView::rank();
  constexpr std::size_t elem = sizeof(typename DstView::value_type);
  if constexpr ((R == 1 || R == 2) &&
                requires(void* d, const void* s, std::size_t n) { Copy::pitched(exec, d, n, s, n, n, n); }) {
    std::size_t width = 0, height = 0, dst_pitch = 0, src_pitch = 0;
    if constexpr (R == 1) {
      const bool unit = dst.stride(0) == 1 && src.stride(0) == 1;
      width = unit ? dims[0] * elem : elem;
      height = unit ? 1 : dims[0];
      dst_pitch = unit ? width : dst.stride(0) * elem;
      src_pitch = unit ? width : src.stride(0) * elem;
    } else {
      // The rank along which both Views are contiguous becomes the row.
      const std::size_t inner = dst.stride(1) == 1 && src.stride(1) == 1   ? 1
                                : dst.stride(0) == 1 && src.stride(0) == 1 ? 0
                                                                           : 2;
      if (inner == 2) return false;
      const std::size_t outer = 1 - inner;
      width = dims[inner] * elem;
      height = dims[outer];
      dst_pitch = dst.stride(outer) * elem;
      src_pitch = src.stride(outer) * elem;
    }
    if (width == 0 || height == 0) return true;
    // A single row's pitch is never used, but must not be below its width.
    if (height == 1) dst_pitch = src_pitch = width;
    if (dst_pitch < width || src_pitch < width) return false;
    Copy::pitched(exec, dst.data(), dst_pitch, src.data(), src_pitch, width, height);
    return true;
  } else {
    (void)exec, (void)dst, (void)src, (void)dims;
    return false;
  }
}

// A copy between two Views of the same device memory that are not one contiguous block: the
// back end copies element by element in a kernel (DeviceElementOps::copy_strided) instead of
// staging both Views through the host.  Returns false when the back end cannot.
template <class Exec, class DstView, class SrcView>
inline bool view_copy_on_device(const Exec& exec, const DstView& dst, const SrcView& src, const std::size_t* dims) {
  using memory_space = typename DstView::memory_space;
  using value_type = typename DstView::non_const_value_type;
  using Ops = DeviceElementOps<memory_space>;
  if constexpr (std::is_same_v<memory_space, typename SrcView::memory_space> &&
                std::is_same_v<value_type, typename SrcView::non_const_value_type> &&
                !memspace_host_accessible<memory_space>::value &&
                requires(value_type* d, const value_type* s, const std::size_t* k) {
                  Ops::copy_strided(exec, d, k, s, k, k, std::size_t(0), true);
                }) {
    constexpr std::size_t R = DstView::rank();
    std::size_t sd[R + 1], ss[R + 1];
    dst.stride(sd);
    src.stride(ss);
    return Ops::copy_strided(exec, const_cast<value_type*>(dst.data()), sd, src.data(), ss, dims, R,
                             std::is_same_v<typename DstView::array_layout, LayoutLeft>);
  } else {
    (void)exec, (void)dst, (void)src, (void)dims;
    return false;
  }
}

// Element-wise copy of the overlap `dims` between Views in any memory spaces.
template <class Exec, class DstView, class SrcView>
inline void view_copy_elements_any_space(const Exec& exec, const DstView& dst, const SrcView& src,
                                         const std::size_t* dims) {
  if constexpr (memspace_host_accessible<typename DstView::memory_space>::value &&
                memspace_host_accessible<typename SrcView::memory_space>::value) {
    fence_before_host_copy(exec);
    view_copy_elements(dst, src, dims);
  } else {
    if (view_copy_pitched(exec, dst, src, dims)) return;
    if (view_copy_on_device(exec, dst, src, dims)) return;
    fence_before_host_copy(exec);
    // The destination is loaded too: the elements of its span outside `dims` (and the gaps of a
    // strided View) must come back unchanged.
    HostElementAccess<DstView> d(dst, true);
    HostElementAccess<SrcView> s(src, true);
    view_copy_elements(d.view(), s.view(), dims);
    d.store();
  }
}

template <class Exec, class DstView>
inline void view_fill(const Exec& exec, const DstView& dst, const typename DstView::const_value_type& value) {
  using memory_space = typename DstView::memory_space;
  if (dst.data() == nullptr) return;
  if constexpr (!memspace_host_accessible<memory_space>::value) {
    if (DstView::rank() == 0 || dst.span_is_contiguous()) {
      // The back end fills contiguous device memory itself (a memset or a kernel).
      DeviceElementOps<memory_space>::fill(exec, dst.data(), dst.span(), value);
    } else if constexpr (DstView::rank() > 0) {
      fence_before_host_copy(exec);
      HostElementAccess<DstView> d(dst, true);
      view_fill(exec, d.view(), value);
      d.store();
    }
  } else {
    fence_before_host_copy(exec);
    auto* d = dst.data();
    if (dst.span_is_contiguous()) {
      const std::size_t n = dst.span();
      for (std::size_t i = 0; i < n; ++i) d[i] = value;
      return;
    }
    constexpr std::size_t R = DstView::rank();
    std::size_t sd[R + 1], dims[R + 1];
    dst.stride(sd);
    for (std::size_t r = 0; rank_below(r, R); ++r) dims[r] = dst.extent(r);
    strided_for_each(R, dims, sd, sd, std::is_same_v<typename DstView::array_layout, LayoutLeft>,
                     [&](std::size_t od, std::size_t) { d[od] = value; });
  }
}

// The single entry of every deep_copy: Dst and Src are each a View or a scalar.
template <class Exec, class Dst, class Src>
void deep_copy_impl(const Exec& exec, const Dst& dst, const Src& src) {
  constexpr bool has_exec = !std::is_same_v<Exec, NoExecSpace>;
  const Tools::Impl::DeepCopyEvent tools_event(dst, src);
  // Recorded (not yet dispatched) launches that touch either View run first; the others stay
  // in the fusion window, since the copy cannot depend on them.
  if constexpr (is_view_v<Dst>) fusion_flush_touching(dst.impl_allocation_base(), dst.impl_allocation_bytes());
  if constexpr (is_view_v<Src>) fusion_flush_touching(src.impl_allocation_base(), src.impl_allocation_bytes());
  // With a device instance the copy is ordered on its stream after the instance's work.
  if constexpr (has_exec) {
    if constexpr (Exec::impl_is_host_backend) Exec::impl_static_fence("Kokkos::deep_copy: fence before copy");
  } else {
    fence_backends("Kokkos::deep_copy: fence before copy");
  }

  if constexpr (is_view_v<Dst> && is_view_v<Src>) {
    static_assert(!std::is_const_v<typename Dst::value_type>,
                  "Kokkos::deep_copy: the destination View must not have const values");
    static_assert(std::is_same_v<typename Dst::non_const_value_type, typename Src::non_const_value_type>,
                  "Kokkos::deep_copy: the two Views must have the same value type");
    static_assert(Dst::rank() == Src::rank(), "Kokkos::deep_copy: the two Views must have the same rank");
    constexpr std::size_t R = Dst::rank();
    std::size_t dims[R + 1];
    bool same_extents = true;
    for (std::size_t r = 0; rank_below(r, R); ++r) {
      dims[r] = dst.extent(r);
      if (dst.extent(r) != src.extent(r)) same_extents = false;
    }
    if (!same_extents) {
      const std::string msg = "Kokkos::deep_copy: extents of the Views do not match: destination " +
                              view_shape_string(dst) + " vs source " + view_shape_string(src);
      Kokkos::Impl::throw_runtime_exception(msg.c_str());
    }
    bool same_strides = true;
    for (std::size_t r = 0; rank_below(r, R); ++r)
      if (dst.extent(r) > 1 && dst.stride(r) != src.stride(r)) same_strides = false;
    const bool empty = dst.size() == 0 || dst.data() == nullptr || src.data() == nullptr;
    const bool same_data = static_cast<const void*>(dst.data()) == static_cast<const void*>(src.data());
    if (!empty && !(same_data && same_strides)) {
      if (same_strides && dst.span_is_contiguous() && src.span_is_contiguous()) {
        using DM = typename Dst::memory_space;
        using SM = typename Src::memory_space;
        const std::size_t bytes = dst.span() * sizeof(typename Dst::value_type);
        if constexpr (has_exec) DeepCopy<DM, SM>(exec, dst.data(), src.data(), bytes);
        else DeepCopy<DM, SM>(dst.data(), src.data(), bytes);
      } else {
        view_copy_elements_any_space(exec, dst, src, dims);
      }
    }
  } else if constexpr (is_view_v<Dst>) {
    static_assert(!std::is_const_v<typename Dst::value_type>,
                  "Kokkos::deep_copy: the destination View must not have const values");
    view_fill(exec, dst, src);
  } else {
    static_assert(is_view_v<Src> && Src::rank() == 0,
                  "Kokkos::deep_copy: copying a View into a scalar needs a rank-0 View");
    if (src.data() != nullptr) {
      using Copy = DeepCopy<HostSpace, typename Src::memory_space>;
      if constexpr (has_exec) {
        // The caller reads the scalar on return: the instance's copy must be complete.
        Copy(exec, const_cast<Dst*>(&dst), src.data(), sizeof(Dst));
        fence_before_host_copy(exec);
      } else {
        Copy(const_cast<Dst*>(&dst), src.data(), sizeof(Dst));
      }
    }
  }

  if constexpr (!has_exec) fence_backends("Kokkos::deep_copy: fence after copy");
}

}  // namespace Impl

// ---------------------------------------------------------------------------------------------
// deep_copy
template <class DT, class... DP, class ST, class... SP>
inline void deep_copy(const View<DT, DP...>& dst, const View<ST, SP...>& src) {
  Impl::deep_copy_impl(Impl::NoExecSpace{}, dst, src);
}
template <class DT, class... DP>
inline void deep_copy(const View<DT, DP...>& dst, typename ViewTraits<DT, DP...>::const_value_type& value) {
  Impl::deep_copy_impl(Impl::NoExecSpace{}, dst, value);
}
template <class ST, class... SP>
inline void deep_copy(typename ViewTraits<ST, SP...>::non_const_value_type& dst, const View<ST, SP...>& src) {
  static_assert(View<ST, SP...>::rank() == 0, "Kokkos::deep_copy: copying a View into a scalar needs a rank-0 View");
  Impl::deep_copy_impl(Impl::NoExecSpace{}, dst, src);
}
template <class Exec, class DT, class... DP, class ST, class... SP>
inline std::enable_if_t<is_execution_space_v<Exec>> deep_copy(const Exec& exec, const View<DT, DP...>& dst,
                                                                const View<ST, SP...>& src) {
  Impl::deep_copy_impl(exec, dst, src);
}
template <class Exec, class DT, class... DP>
inline std::enable_if_t<is_execution_space_v<Exec>> deep_copy(
    const Exec& exec, const View<DT, DP...>& dst, typename ViewTraits<DT, DP...>::const_value_type& value) {
  Impl::deep_copy_impl(exec, dst, value);
}
template <class Exec, class ST, class... SP>
inline std::enable_if_t<is_execution_space_v<Exec>> deep_copy(
    const Exec& exec, typename ViewTraits<ST, SP...>::non_const_value_type& dst, const View<ST, SP...>& src) {
  static_assert(View<ST, SP...>::rank() == 0, "Kokkos::deep_copy: copying a View into a scalar needs a rank-0 View");
  Impl::deep_copy_impl(exec, dst, src);
}

// ---------------------------------------------------------------------------------------------
// Mirrors
namespace Impl {

template <class Space, class SrcView>
struct MirrorViewType {
  using src_view_type = SrcView;
  using memory_space = typename Space::memory_space;
  static constexpr bool is_same_memspace = std::is_same_v<memory_space, typename SrcView::memory_space>;
  using array_layout = typename SrcView::array_layout;
  using data_type = typename SrcView::non_const_data_type;
  using dest_view_type = View<data_type, array_layout, Space>;
  using view_type = std::conditional_t<is_same_memspace, src_view_type, dest_view_type>;
};
template <class Space, class SrcView>
struct MirrorType {
  using view_type = View<typename SrcView::non_const_data_type, typename SrcView::array_layout, Space>;
};

template <class SrcView, class... P>
struct MirrorResult {
  using prop_t = ViewCtorProp<P...>;
  template <class PP, bool = PP::has_memory_space>
  struct pick {
    using type = typename SrcView::HostMirror;
  };
  template <class PP>
  struct pick<PP, true> {
    using mem = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<PP>().get_memory_space())>>;
    using type = typename MirrorType<mem, SrcView>::view_type;
  };
  using type = typename pick<prop_t>::type;
};

template <class Result, class SrcView, class... P>
Result create_mirror_impl(const SrcView& src, const ViewCtorProp<P...>& prop) {
  using prop_t = ViewCtorProp<P...>;
  static_assert(!prop_t::has_pointer, "Kokkos::create_mirror: view_wrap is not allowed");
  const std::string label = prop_t::has_label ? prop.get_label() : src.label() + "_mirror";
  if constexpr (prop_t::initialize) return Result(view_alloc(label), src.layout());
  else return Result(view_alloc(label, WithoutInitializing), src.layout());
}

template <class SrcView, class... P>
auto create_mirror_view_impl(const SrcView& src, const ViewCtorProp<P...>& prop) {
  using prop_t = ViewCtorProp<P...>;
  if constexpr (!prop_t::has_memory_space) {
    using HM = typename SrcView::HostMirror;
    if constexpr (std::is_same_v<typename SrcView::memory_space, typename HM::memory_space> &&
                  std::is_same_v<typename SrcView::data_type, typename HM::data_type>) {
      return HM(src);
    } else {
      return create_mirror_impl<HM>(src, prop);
    }
  } else {
    using mem = std::remove_cv_t<std::remove_reference_t<decltype(prop.get_memory_space())>>;
    using MV = MirrorViewType<mem, SrcView>;
    if constexpr (MV::is_same_memspace) {
      return typename MV::view_type(src);
    } else {
      return create_mirror_impl<typename MV::view_type>(src, prop);
    }
  }
}

template <class Space>
inline auto space_as_memory_space(const Space&) {
  return typename Space::memory_space();
}

}  // namespace Impl

// create_mirror: always a new allocation (HostSpace, or the given space).
template <class T, class... P>
inline typename View<T, P...>::HostMirror create_mirror(const View<T, P...>& src) {
  return Impl::create_mirror_impl<typename View<T, P...>::HostMirror>(src, view_alloc());
}
template <class T, class... P>
inline typename View<T, P...>::HostMirror create_mirror(Impl::WithoutInitializing_t wi, const View<T, P...>& src) {
  return Impl::create_mirror_impl<typename View<T, P...>::HostMirror>(src, view_alloc(wi));
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline typename Impl::MirrorType<Space, View<T, P...>>::view_type create_mirror(const Space&,
                                                                                const View<T, P...>& src) {
  return Impl::create_mirror_impl<typename Impl::MirrorType<Space, View<T, P...>>::view_type>(src, view_alloc());
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline typename Impl::MirrorType<Space, View<T, P...>>::view_type create_mirror(Impl::WithoutInitializing_t wi,
                                                                                const Space&,
                                                                                const View<T, P...>& src) {
  return Impl::create_mirror_impl<typename Impl::MirrorType<Space, View<T, P...>>::view_type>(src,
                                                                                             view_alloc(wi));
}
template <class T, class... P, class... VP>
inline auto create_mirror(const Impl::ViewCtorProp<VP...>& prop, const View<T, P...>& src) {
  using result = typename Impl::MirrorResult<View<T, P...>, VP...>::type;
  return Impl::create_mirror_impl<result>(src, prop);
}

// create_mirror_view: src itself when it already lives in the target (host) space.
template <class T, class... P>
inline auto create_mirror_view(const View<T, P...>& src) {
  return Impl::create_mirror_view_impl(src, view_alloc());
}
template <class T, class... P>
inline auto create_mirror_view(Impl::WithoutInitializing_t wi, const View<T, P...>& src) {
  return Impl::create_mirror_view_impl(src, view_alloc(wi));
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline auto create_mirror_view(const Space& space, const View<T, P...>& src) {
  return Impl::create_mirror_view_impl(src, view_alloc(Impl::space_as_memory_space(space)));
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline auto create_mirror_view(Impl::WithoutInitializing_t wi, const Space& space, const View<T, P...>& src) {
  return Impl::create_mirror_view_impl(src, view_alloc(wi, Impl::space_as_memory_space(space)));
}
template <class T, class... P, class... VP>
inline auto create_mirror_view(const Impl::ViewCtorProp<VP...>& prop, const View<T, P...>& src) {
  return Impl::create_mirror_view_impl(src, prop);
}

// create_mirror_view_and_copy: src itself when it lives in `space`, else a copy there.
template <class T, class... P, class... VP>
inline auto create_mirror_view_and_copy(const Impl::ViewCtorProp<VP...>& prop, const View<T, P...>& src) {
  using prop_t = Impl::ViewCtorProp<VP...>;
  static_assert(prop_t::has_memory_space, "Kokkos::create_mirror_view_and_copy: needs a memory space");
  using mem = std::remove_cv_t<std::remove_reference_t<decltype(prop.get_memory_space())>>;
  using MV = Impl::MirrorViewType<mem, View<T, P...>>;
  if constexpr (MV::is_same_memspace) {
    if constexpr (!prop_t::has_execution_space) {
      // The caller will read src on the host: launches recorded on it must have run.
      Impl::fusion_flush_touching(src.impl_allocation_base(), src.impl_allocation_bytes());
      Impl::fence_backends("Kokkos::create_mirror_view_and_copy: fence before returning src view");
    }
    return src;
  } else {
    const std::string label = prop_t::has_label ? prop.get_label() : src.label() + "_mirror";
    typename MV::view_type mirror(view_alloc(label, WithoutInitializing), src.layout());
    if constexpr (prop_t::has_execution_space) deep_copy(prop.get_execution_space(), mirror, src);
    else deep_copy(mirror, src);
    return mirror;
  }
}
template <class Space, class T, class... P, class = std::enable_if_t<is_space<Space>::value>>
inline auto create_mirror_view_and_copy(const Space& space, const View<T, P...>& src,
                                        const std::string& name = "") {
  if (name.empty()) return create_mirror_view_and_copy(view_alloc(Impl::space_as_memory_space(space)), src);
  return create_mirror_view_and_copy(view_alloc(Impl::space_as_memory_space(space), name), src);
}

// ---------------------------------------------------------------------------------------------
// resize (keeps the overlapping contents and the label) and realloc (discards the contents).
namespace Impl {

template <class V>
inline bool view_same_extents(const V& v, const std::size_t* n) {
  for (std::size_t r = 0; rank_below(r, V::rank()); ++r) {
    if (V::static_extent(r) != 0) continue;
    if (n[r] != v.extent(r)) return false;
  }
  return true;
}

template <class V>
inline bool view_same_extents(const V& v, const typename V::array_layout& l) {
  for (std::size_t r = 0; rank_below(r, V::rank()); ++r) {
    if (V::static_extent(r) != 0) continue;
    if (l.dimension[r] != v.extent(r)) return false;
  }
  if constexpr (std::is_same_v<typename V::array_layout, LayoutStride>) {
    for (std::size_t r = 0; r < V::rank(); ++r)
      if (l.stride[r] != v.stride(r)) return false;
  }
  return true;
}

template <class... VP>
inline void check_resize_props() {
  using prop_t = ViewCtorProp<VP...>;
  static_assert(!prop_t::has_label, "Kokkos::resize/realloc: the label of the View is kept; do not pass one");
  static_assert(!prop_t::has_pointer, "Kokkos::resize/realloc: view_wrap is not allowed");
  static_assert(!prop_t::has_memory_space, "Kokkos::resize/realloc: the memory space of the View is kept");
}

template <class V, class... VP, class Shape>
inline void resize_impl(const ViewCtorProp<VP...>&, V& v, const Shape& shape) {
  static_assert(V::traits::is_managed, "Kokkos::resize: can only resize managed Views");
  check_resize_props<VP...>();
  if (v.data() != nullptr && view_same_extents(v, shape)) return;
  V v_new = [&] {
    if constexpr (ViewCtorProp<VP...>::initialize) {
      if constexpr (std::is_same_v<Shape, typename V::array_layout>) return V(view_alloc(v.label()), shape);
      else return V(view_alloc(v.label()), shape[0], shape[1], shape[2], shape[3], shape[4], shape[5], shape[6], shape[7]);
    } else {
      if constexpr (std::is_same_v<Shape, typename V::array_layout>)
        return V(view_alloc(v.label(), WithoutInitializing), shape);
      else
        return V(view_alloc(v.label(), WithoutInitializing), shape[0], shape[1], shape[2], shape[3], shape[4],
                 shape[5], shape[6], shape[7]);
    }
  }();
  if (v.data() != nullptr) {
    constexpr std::size_t R = V::rank();
    std::size_t dims[R + 1];
    for (std::size_t r = 0; rank_below(r, R); ++r) dims[r] = v.extent(r) < v_new.extent(r) ? v.extent(r) : v_new.extent(r);
    fusion_flush_touching(v.impl_allocation_base(), v.impl_allocation_bytes());
    fence_backends("Kokkos::resize: fence before copying the contents");
    view_copy_elements_any_space(NoExecSpace{}, v_new, v, dims);
  }
  v = v_new;
}

template <class V, class... VP, class Shape>
inline void realloc_impl(const ViewCtorProp<VP...>&, V& v, const Shape& shape) {
  static_assert(V::traits::is_managed, "Kokkos::realloc: can only reallocate managed Views");
  check_resize_props<VP...>();
  if (v.data() != nullptr && view_same_extents(v, shape)) {
    if constexpr (ViewCtorProp<VP...>::initialize) deep_copy(v, typename V::non_const_value_type{});
    return;
  }
  const std::string label = v.label();
  v = V();  // free first
  if constexpr (ViewCtorProp<VP...>::initialize) {
    if constexpr (std::is_same_v<Shape, typename V::array_layout>) v = V(view_alloc(label), shape);
    else v = V(view_alloc(label), shape[0], shape[1], shape[2], shape[3], shape[4], shape[5], shape[6], shape[7]);
  } else {
    if constexpr (std::is_same_v<Shape, typename V::array_layout>) v = V(view_alloc(label, WithoutInitializing), shape);
    else
      v = V(view_alloc(label, WithoutInitializing), shape[0], shape[1], shape[2], shape[3], shape[4], shape[5],
            shape[6], shape[7]);
  }
}

template <class I>
inline constexpr bool is_resize_prop_v =
    std::is_same_v<I, WithoutInitializing_t> || is_execution_space_v<I> || std::is_same_v<I, SequentialHostInit_t>;


}  // namespace Impl

#define KOKKOS_IMPL_RESIZE_ARGS                                                                          \
  const std::size_t n0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const std::size_t n1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, \
        const std::size_t n2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,                                             \
        const std::size_t n3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,                                             \
        const std::size_t n4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,                                             \
        const std::size_t n5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,                                             \
        const std::size_t n6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,                                             \
        const std::size_t n7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG

template <class T, class... P>
inline void resize(View<T, P...>& v, KOKKOS_IMPL_RESIZE_ARGS) {
  const std::size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
  Impl::resize_impl(view_alloc(), v, n);
}
template <class I, class T, class... P, class = std::enable_if_t<Impl::is_resize_prop_v<I>>>
inline void resize(const I& arg_prop, View<T, P...>& v, KOKKOS_IMPL_RESIZE_ARGS) {
  const std::size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
  Impl::resize_impl(view_alloc(arg_prop), v, n);
}
template <class... VP, class T, class... P>
inline void resize(const Impl::ViewCtorProp<VP...>& arg_prop, View<T, P...>& v, KOKKOS_IMPL_RESIZE_ARGS) {
  const std::size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
  Impl::resize_impl(arg_prop, v, n);
}
template <class T, class... P>
inline void resize(View<T, P...>& v, const typename View<T, P...>::array_layout& layout) {
  Impl::resize_impl(view_alloc(), v, layout);
}
template <class I, class T, class... P, class = std::enable_if_t<Impl::is_resize_prop_v<I>>>
inline void resize(const I& arg_prop, View<T, P...>& v, const typename View<T, P...>::array_layout& layout) {
  Impl::resize_impl(view_alloc(arg_prop), v, layout);
}
template <class... VP, class T, class... P>
inline void resize(const Impl::ViewCtorProp<VP...>& arg_prop, View<T, P...>& v,
                   const typename View<T, P...>::array_layout& layout) {
  Impl::resize_impl(arg_prop, v, layout);
}

template <class T, class... P>
inline void realloc(View<T, P...>& v, KOKKOS_IMPL_RESIZE_ARGS) {
  const std::size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
  Impl::realloc_impl(view_alloc(), v, n);
}
template <class I, class T, class... P, class = std::enable_if_t<Impl::is_resize_prop_v<I>>>
inline void realloc(const I& arg_prop, View<T, P...>& v, KOKKOS_IMPL_RESIZE_ARGS) {
  const std::size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
  Impl::realloc_impl(view_alloc(arg_prop), v, n);
}
template <class... VP, class T, class... P>
inline void realloc(const Impl::ViewCtorProp<VP...>& arg_prop, View<T, P...>& v, KOKKOS_IMPL_RESIZE_ARGS) {
  const std::size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
  Impl::realloc_impl(arg_prop, v, n);
}
template <class T, class... P>
inline void realloc(View<T, P...>& v, const typename View<T, P...>::array_layout& layout) {
  Impl::realloc_impl(view_alloc(), v, layout);
}
template <class I, class T, class... P, class = std::enable_if_t<Impl::is_resize_prop_v<I>>>
inline void realloc(const I& arg_prop, View<T, P...>& v, const typename View<T, P...>::array_layout& layout) {
  Impl::realloc_impl(view_alloc(arg_prop), v, layout);
}
template <class... VP, class T, class... P>
inline void realloc(const Impl::ViewCtorProp<VP...>& arg_prop, View<T, P...>& v,
                    const typename View<T, P...>::array_layout& layout) {
  Impl::realloc_impl(arg_prop, v, layout);
}

#undef KOKKOS_IMPL_RESIZE_ARGS

}  // namespace Kokkos

#pragma once
// Kokkos::DualView: a View in the device's memory space beside its host mirror, with "modified"
// counters that say which side holds the newest data, so that sync copies only when needed.
//
// When the device's and the host's Device types coincide (every host-only build with the default
// spaces) both sides are one allocation: modify is a no-op and sync never copies, as in Kokkos.
// When they differ but share a memory space (DualView<T*, Serial> beside an OpenMP default host
// space) the two Views still alias one allocation, the counters are kept, and a sync's deep_copy
// sees the same pointer and copies nothing.
#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <utility>

// The eight optional extents of resize/realloc, as View's constructors take them.
#define KOKKOS_IMPL_DUALVIEW_EXTENTS                                                                          \
  const size_t n0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,           \
               const size_t n2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, \
               const size_t n4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, \
               const size_t n6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG

namespace Kokkos {

template <class DataType, class... Properties>
class DualView;

template <class>
struct is_dual_view : std::false_type {};
template <class DT, class... DP>
struct is_dual_view<DualView<DT, DP...>> : std::true_type {};
template <class DT, class... DP>
struct is_dual_view<const DualView<DT, DP...>> : std::true_type {};
template <class T>
inline constexpr bool is_dual_view_v = is_dual_view<T>::value;

template <class DataType, class... Properties>
class DualView : public ViewTraits<DataType, Properties...> {
  template <class, class...>
  friend class DualView;

 public:
  using traits = ViewTraits<DataType, Properties...>;
  using host_mirror_space = typename traits::host_mirror_space;

  using t_dev = View<typename traits::data_type, Properties...>;
  using t_host = typename t_dev::HostMirror;
  using t_dev_const = View<typename traits::const_data_type, Properties...>;
  using t_host_const = typename t_dev_const::HostMirror;
  using t_dev_const_randomread = View<typename traits::const_data_type, typename traits::array_layout,
                                      typename traits::device_type, MemoryTraits<RandomAccess>>;
  using t_host_const_randomread = typename t_dev_const_randomread::HostMirror;
  using t_dev_um = View<typename traits::data_type, typename traits::array_layout, typename traits::device_type,
                        MemoryUnmanaged>;
  using t_host_um = View<typename t_host::data_type, typename t_host::array_layout, typename t_host::device_type,
                         MemoryUnmanaged>;
  using t_dev_const_um = View<typename traits::const_data_type, typename traits::array_layout,
                              typename traits::device_type, MemoryUnmanaged>;
  using t_host_const_um = View<typename t_host::const_data_type, typename t_host::array_layout,
                               typename t_host::device_type, MemoryUnmanaged>;
  using t_dev_const_randomread_um = View<typename t_host::const_data_type, typename t_host::array_layout,
                                         typename t_host::device_type, MemoryTraits<Unmanaged | RandomAccess>>;
  using t_host_const_randomread_um = typename t_dev_const_randomread_um::HostMirror;

  // Both sides are the same Device: one allocation, nothing to track.
  static constexpr bool impl_dualview_is_single_device =
      std::is_same_v<typename t_dev::device_type, typename t_host::device_type>;

 protected:
  // (0) counts host modifications, (1) device modifications; shared by every copy of the DualView.
  using t_modified_flags = View<unsigned int[2], LayoutLeft, HostSpace>;
  t_modified_flags modified_flags;

 public:
  // Public as in Kokkos 4 with deprecated code enabled (its default); prefer view_device()/view_host().
  t_dev d_view;
  t_host h_view;

  DualView() = default;

  explicit DualView(const std::string& label, const size_t n0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                    const size_t n1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                    const size_t n3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                    const size_t n5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                    const size_t n7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG)
      : modified_flags("DualView::modified_flags"),
        d_view(label, n0, n1, n2, n3, n4, n5, n6, n7),
        h_view(impl_mirror<true, t_host>(d_view)) {}

  template <class... P>
  explicit DualView(const Impl::ViewCtorProp<P...>& arg_prop,
                    std::enable_if_t<!Impl::ViewCtorProp<P...>::has_pointer, size_t> const n0 =
                        KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                    const size_t n1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                    const size_t n3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                    const size_t n5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,
                    const size_t n7 = KOKKOS_IMPL_CTOR_DEFAULT_ARG)
      : modified_flags("DualView::modified_flags") {
    using prop_t = Impl::ViewCtorProp<P...>;
    if constexpr (prop_t::sequential_host_init) {
      static_assert(prop_t::initialize, "Kokkos::DualView: SequentialHostInit is incompatible with WithoutInitializing");
      static_assert(!prop_t::has_execution_space,
                    "Kokkos::DualView: SequentialHostInit is incompatible with an execution space instance");
      h_view = t_host(arg_prop, n0, n1, n2, n3, n4, n5, n6, n7);
      d_view = create_mirror_view_and_copy(typename traits::memory_space{}, h_view);
    } else {
      d_view = t_dev(arg_prop, n0, n1, n2, n3, n4, n5, n6, n7);
      h_view = impl_mirror<prop_t::initialize, t_host>(d_view);
    }
  }

  // Shallow copy, also from a non-const DualView into a const one.
  template <class DT, class... DP>
  DualView(const DualView<DT, DP...>& src)
      : modified_flags(src.modified_flags), d_view(src.d_view), h_view(src.h_view) {}

  // Subview of both sides; the counters stay shared with src, as in Kokkos.
  template <class DT, class... DP, class Arg0, class... Args>
  DualView(const DualView<DT, DP...>& src, const Arg0& arg0, Args... args)
      : modified_flags(src.modified_flags),
        d_view(Kokkos::subview(src.d_view, arg0, args...)),
        h_view(Kokkos::subview(src.h_view, arg0, args...)) {}

  // From Views the caller already holds and has synchronised.
  DualView(const t_dev& d_view_, const t_host& h_view_)
      : modified_flags("DualView::modified_flags"), d_view(d_view_), h_view(h_view_) {
    bool compatible = d_view.span() == h_view.span();
    for (size_t r = 0; r < t_dev::rank(); ++r)
      compatible = compatible && d_view.extent(r) == h_view.extent(r) && d_view.stride(r) == h_view.stride(r);
    if (!compatible) Impl::throw_runtime_exception("Kokkos::DualView constructed with incompatible views");
    if (SpaceAccessibility<HostSpace, typename t_dev::memory_space>::accessible &&
        static_cast<const void*>(d_view.data()) != static_cast<const void*>(h_view.data()))
      Kokkos::abort("Kokkos::DualView storing one View constructed from two different Views");
  }

  // ---- the Views -----------------------------------------------------------------------------
  // Device may be a memory space, an execution space or a Device naming either side.
  template <class Device>
  KOKKOS_FUNCTION auto view() const {
    constexpr int side = side_of<Device>();
    static_assert(side != no_side, "Kokkos::DualView::view: the template argument names neither side");
    if constexpr (side == host_side) return h_view;
    else return d_view;
  }
  KOKKOS_INLINE_FUNCTION const t_host& view_host() const { return h_view; }
  KOKKOS_INLINE_FUNCTION const t_dev& view_device() const { return d_view; }
  KOKKOS_INLINE_FUNCTION constexpr bool is_allocated() const { return d_view.is_allocated() && h_view.is_allocated(); }

  // ---- modified counters and sync ------------------------------------------------------------
  template <class Device>
  void modify() {
    constexpr int side = side_of<Device>();
    static_assert(side != no_side, "Kokkos::DualView::modify: the template argument names neither side");
    if constexpr (side == host_side) modify_host();
    else if constexpr (side == device_side) modify_device();
  }
  void modify_host() { impl_modify(0, "Kokkos::DualView::modify_host"); }
  void modify_device() { impl_modify(1, "Kokkos::DualView::modify_device"); }
  void clear_sync_state() {
    if (modified_flags.data() != nullptr) modified_flags(0) = modified_flags(1) = 0;
  }

  template <class Device>
  bool need_sync() const {
    constexpr int side = side_of<Device>();
    static_assert(side != no_side, "Kokkos::DualView::need_sync: the template argument names neither side");
    if (modified_flags.data() == nullptr) return false;
    if constexpr (side == device_side) return modified_flags(0) > 0 && modified_flags(0) >= modified_flags(1);
    else if constexpr (side == host_side) return modified_flags(1) > 0 && modified_flags(1) >= modified_flags(0);
    else return false;
  }
  bool need_sync_host() const { return modified_flags.data() != nullptr && modified_flags(0) < modified_flags(1); }
  bool need_sync_device() const { return modified_flags.data() != nullptr && modified_flags(1) < modified_flags(0); }

  template <class Device>
  void sync() {
    if constexpr (!impl_dualview_is_single_device) impl_sync_side<Device>();
  }
  template <class Device, class ExecutionSpace>
  void sync(const ExecutionSpace& exec) {
    if constexpr (!impl_dualview_is_single_device) impl_sync_side<Device>(exec);
  }
  void sync_host() {
    if constexpr (!impl_dualview_is_single_device) impl_sync_host();
  }
  template <class ExecutionSpace>
  void sync_host(const ExecutionSpace& exec) {
    if constexpr (!impl_dualview_is_single_device) impl_sync_host(exec);
  }
  void sync_device() {
    if constexpr (!impl_dualview_is_single_device) impl_sync_device();
  }
  template <class ExecutionSpace>
  void sync_device(const ExecutionSpace& exec) {
    if constexpr (!impl_dualview_is_single_device) impl_sync_device(exec);
  }

  // ---- realloc / resize ----------------------------------------------------------------------
  // realloc discards the contents (re-initialising them unless WithoutInitializing) and clears
  // the counters.
  void realloc(KOKKOS_IMPL_DUALVIEW_EXTENTS) { impl_realloc(Impl::ViewCtorProp<>{}, n0, n1, n2, n3, n4, n5, n6, n7); }
  template <class... VP>
  void realloc(const Impl::ViewCtorProp<VP...>& arg_prop, KOKKOS_IMPL_DUALVIEW_EXTENTS) {
    impl_realloc(arg_prop, n0, n1, n2, n3, n4, n5, n6, n7);
  }
  template <class I, class = std::enable_if_t<Impl::is_resize_prop_v<I>>>
  void realloc(const I& arg_prop, KOKKOS_IMPL_DUALVIEW_EXTENTS) {
    impl_realloc(view_alloc(arg_prop), n0, n1, n2, n3, n4, n5, n6, n7);
  }

  // resize keeps the contents of the side modified last (the device side on a tie), gives the
  // other side a fresh mirror and marks the kept side modified.
  void resize(KOKKOS_IMPL_DUALVIEW_EXTENTS) { impl_resize(Impl::ViewCtorProp<>{}, n0, n1, n2, n3, n4, n5, n6, n7); }
  template <class... VP>
  void resize(const Impl::ViewCtorProp<VP...>& arg_prop, KOKKOS_IMPL_DUALVIEW_EXTENTS) {
    impl_resize(arg_prop, n0, n1, n2, n3, n4, n5, n6, n7);
  }
  template <class I, class = std::enable_if_t<Impl::is_resize_prop_v<I>>>
  void resize(const I& arg_prop, KOKKOS_IMPL_DUALVIEW_EXTENTS) {
    impl_resize(view_alloc(arg_prop), n0, n1, n2, n3, n4, n5, n6, n7);
  }

  // ---- shape ---------------------------------------------------------------------------------
  KOKKOS_INLINE_FUNCTION constexpr size_t span() const { return d_view.span(); }
  KOKKOS_INLINE_FUNCTION bool span_is_contiguous() const { return d_view.span_is_contiguous(); }
  template <typename iType>
  void stride(iType* stride_) const {
    d_view.stride(stride_);
  }
  template <typename iType>
  KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<std::is_integral_v<iType>, size_t> extent(const iType& r) const {
    return d_view.extent(r);
  }
  template <typename iType>
  KOKKOS_INLINE_FUNCTION constexpr std::enable_if_t<std::is_integral_v<iType>, int> extent_int(const iType& r) const {
    return static_cast<int>(d_view.extent(r));
  }

 private:
  static constexpr int no_side = -2, both_sides = -1, host_side = 0, device_side = 1;

  // Which side a memory space, execution space or Device names; both_sides when it names both
  // (then sync and modify through it do nothing, as in Kokkos).
  template <class Device>
  static constexpr int side_of() {
    using dev_t = typename t_dev::device_type;
    using host_t = typename t_host::device_type;
    if constexpr (std::is_same_v<Device, dev_t>) return device_side;
    else if constexpr (std::is_same_v<Device, host_t>) return host_side;
    else {
      constexpr bool is_mem = is_memory_space_v<Device>, is_exec = is_execution_space_v<Device>;
      constexpr bool mem_dev = std::is_same_v<typename Device::memory_space, typename dev_t::memory_space>;
      constexpr bool mem_host = std::is_same_v<typename Device::memory_space, typename host_t::memory_space>;
      constexpr bool exec_dev = std::is_same_v<typename Device::execution_space, typename dev_t::execution_space>;
      constexpr bool exec_host = std::is_same_v<typename Device::execution_space, typename host_t::execution_space>;
      constexpr bool dev = is_mem ? mem_dev : is_exec ? exec_dev : (mem_dev || exec_dev);
      constexpr bool host = is_mem ? mem_host : is_exec ? exec_host : (mem_host || exec_host);
      if constexpr (dev && host) return both_sides;
      else if constexpr (dev) return device_side;
      else if constexpr (host) return host_side;
      else return no_side;
    }
  }

  // The other side of src: src itself where the memory space is shared (the host mirror of a
  // const device View is the exception Kokkos makes: a non-const copy).
  template <bool Initialize, class Dst, class Src>
  static Dst impl_mirror(const Src& src) {
    if constexpr (std::is_same_v<Dst, t_host>) {
      if constexpr (Initialize) return create_mirror_view(src);
      else return create_mirror_view(WithoutInitializing, src);
    } else {
      if constexpr (Initialize) return create_mirror_view(typename Dst::memory_space(), src);
      else return create_mirror_view(WithoutInitializing, typename Dst::memory_space(), src);
    }
  }

  void impl_modify(int side, const char* who) {
    if constexpr (!impl_dualview_is_single_device) {
      if (modified_flags.data() == nullptr) return;
      const unsigned newest = modified_flags(0) > modified_flags(1) ? modified_flags(0) : modified_flags(1);
      modified_flags(side) = newest + 1;
      if (modified_flags(0) != 0 && modified_flags(1) != 0) {
        const std::string msg = std::string(who) +
                                " ERROR: Concurrent modification of host and device views in DualView \"" +
                                d_view.label() + "\"\n";
        Kokkos::abort(msg.c_str());
      }
    } else {
      (void)side;
      (void)who;
    }
  }

  static constexpr bool is_const_data = !std::is_same_v<typename traits::data_type, typename traits::non_const_data_type>;

  template <class... Exec>
  void impl_copy_to_device(const Exec&... exec) {
    if constexpr (is_const_data) {
      Impl::throw_runtime_exception("Kokkos::DualView: calling sync on a DualView with a const datatype");
    } else {
      deep_copy(exec..., d_view, h_view);
      modified_flags(0) = modified_flags(1) = 0;
    }
  }
  template <class... Exec>
  void impl_copy_to_host(const Exec&... exec) {
    if constexpr (is_const_data) {
      Impl::throw_runtime_exception("Kokkos::DualView: calling sync on a DualView with a const datatype");
    } else {
      deep_copy(exec..., h_view, d_view);
      modified_flags(0) = modified_flags(1) = 0;
    }
  }

  template <class Device, class... Exec>
  void impl_sync_side(const Exec&... exec) {
    constexpr int side = side_of<Device>();
    static_assert(side != no_side, "Kokkos::DualView::sync: the template argument names neither side");
    if constexpr (side == device_side) {
      if (need_sync<Device>()) impl_copy_to_device(exec...);
    } else if constexpr (side == host_side) {
      if (need_sync<Device>()) impl_copy_to_host(exec...);
    }
  }
  template <class... Exec>
  void impl_sync_host(const Exec&... exec) {
    if constexpr (is_const_data)
      Impl::throw_runtime_exception("Kokkos::DualView: calling sync_host on a DualView with a const datatype");
    if (need_sync_host()) impl_copy_to_host(exec...);
  }
  template <class... Exec>
  void impl_sync_device(const Exec&... exec) {
    if constexpr (is_const_data)
      Impl::throw_runtime_exception("Kokkos::DualView: calling sync_device on a DualView with a const datatype");
    if (need_sync_device()) impl_copy_to_device(exec...);
  }

  void impl_ensure_flags() {
    if (modified_flags.data() == nullptr) modified_flags = t_modified_flags("DualView::modified_flags");
  }

  template <class... VP>
  static void impl_check_props(const char* who) {
    using prop_t = Impl::ViewCtorProp<VP...>;
    static_assert(!prop_t::has_label, "Kokkos::DualView::resize/realloc: the label is kept; do not pass one");
    static_assert(!prop_t::has_pointer, "Kokkos::DualView::resize/realloc: view_wrap is not allowed");
    static_assert(!prop_t::has_memory_space, "Kokkos::DualView::resize/realloc: the memory spaces are kept");
    (void)who;
  }

  template <class... VP>
  void impl_realloc(const Impl::ViewCtorProp<VP...>& arg_prop, size_t n0, size_t n1, size_t n2, size_t n3, size_t n4,
                    size_t n5, size_t n6, size_t n7) {
    using prop_t = Impl::ViewCtorProp<VP...>;
    impl_check_props<VP...>("realloc");
    const size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
    if (!Impl::view_same_extents(h_view, n)) {
      if constexpr (prop_t::sequential_host_init) {
        ::Kokkos::realloc(arg_prop, h_view, n0, n1, n2, n3, n4, n5, n6, n7);
        d_view = create_mirror_view_and_copy(typename t_dev::memory_space(), h_view);
      } else {
        ::Kokkos::realloc(arg_prop, d_view, n0, n1, n2, n3, n4, n5, n6, n7);
        h_view = impl_mirror<prop_t::initialize, t_host>(d_view);
      }
    } else if constexpr (prop_t::initialize) {
      if constexpr (prop_t::has_execution_space)
        deep_copy(arg_prop.get_execution_space(), d_view, typename t_dev::value_type{});
      else
        deep_copy(d_view, typename t_dev::value_type{});
    }
    impl_ensure_flags();
    clear_sync_state();
  }

  template <class... VP>
  void impl_resize(const Impl::ViewCtorProp<VP...>& arg_prop, size_t n0, size_t n1, size_t n2, size_t n3, size_t n4,
                   size_t n5, size_t n6, size_t n7) {
    using prop_t = Impl::ViewCtorProp<VP...>;
    impl_check_props<VP...>("resize");
    const size_t n[8] = {n0, n1, n2, n3, n4, n5, n6, n7};
    const bool mismatch = !Impl::view_same_extents(h_view, n);
    impl_ensure_flags();
    auto resize_device = [&] {
      if (!mismatch) return;
      ::Kokkos::resize(arg_prop, d_view, n0, n1, n2, n3, n4, n5, n6, n7);
      h_view = impl_mirror<prop_t::initialize, t_host>(d_view);
      ++modified_flags(1);
    };
    auto resize_host = [&] {
      if (!mismatch) return;
      ::Kokkos::resize(arg_prop, h_view, n0, n1, n2, n3, n4, n5, n6, n7);
      d_view = impl_mirror<prop_t::initialize, t_dev>(h_view);
      ++modified_flags(0);
    };
    if constexpr (prop_t::sequential_host_init) {
      static_assert(prop_t::initialize, "Kokkos::DualView: SequentialHostInit is incompatible with WithoutInitializing");
      if (mismatch) {
        sync<typename t_host::memory_space>();
        ::Kokkos::resize(arg_prop, h_view, n0, n1, n2, n3, n4, n5, n6, n7);
        d_view = create_mirror_view_and_copy(typename t_dev::memory_space(), h_view);
      }
    } else if constexpr (prop_t::has_execution_space) {
      using Exec = std::remove_cv_t<std::remove_reference_t<decltype(arg_prop.get_execution_space())>>;
      if constexpr (SpaceAccessibility<Exec, typename t_dev::memory_space>::accessible) {
        sync<typename t_dev::memory_space>(arg_prop.get_execution_space());
        resize_device();
      } else {
        static_assert(SpaceAccessibility<Exec, typename t_host::memory_space>::accessible,
                      "Kokkos::DualView::resize: the execution space reaches neither side");
        sync<typename t_host::memory_space>(arg_prop.get_execution_space());
        resize_host();
      }
    } else {
      if (modified_flags(1) >= modified_flags(0)) resize_device();
      else resize_host();
    }
  }
};

// ---- free functions --------------------------------------------------------------------------
namespace Impl {
template <class V>
struct ViewToDualView;
template <class D, class... P>
struct ViewToDualView<View<D, P...>> {
  using type = DualView<D, P...>;
};
}  // namespace Impl

template <class DataType, class... Properties, class... Args>
auto subview(const DualView<DataType, Properties...>& src, Args&&... args) {
  using sub_view_type = decltype(subview(std::declval<View<DataType, Properties...>>(), std::forward<Args>(args)...));
  return typename Impl::ViewToDualView<sub_view_type>::type(src, std::forward<Args>(args)...);
}

namespace Impl {
// Copies the side of src that holds its newest data into the same side of dst, and marks that
// side of dst modified.
template <class Dst, class Src, class... Exec>
void dual_view_deep_copy(Dst& dst, const Src& src, const Exec&... exec) {
  if (src.need_sync_device()) {
    deep_copy(exec..., dst.view_host(), src.view_host());
    dst.modify_host();
  } else {
    deep_copy(exec..., dst.view_device(), src.view_device());
    dst.modify_device();
  }
}
}  // namespace Impl

template <class DT, class... DP, class ST, class... SP>
void deep_copy(DualView<DT, DP...>& dst, const DualView<ST, SP...>& src) {
  Impl::dual_view_deep_copy(dst, src);
}
template <class ExecutionSpace, class DT, class... DP, class ST, class... SP>
std::enable_if_t<is_execution_space_v<ExecutionSpace>> deep_copy(const ExecutionSpace& exec, DualView<DT, DP...>& dst,
                                                                 const DualView<ST, SP...>& src) {
  Impl::dual_view_deep_copy(dst, src, exec);
}

template <class DT, class... DP, class... Args>
void realloc(DualView<DT, DP...>& dv, Args&&... args) {
  dv.realloc(std::forward<Args>(args)...);
}
template <class I, class DT, class... DP, class... Args>
std::enable_if_t<Impl::is_resize_prop_v<I> || Impl::is_view_ctor_prop<I>::value> realloc(const I& arg_prop,
                                                                                          DualView<DT, DP...>& dv,
                                                                                          Args&&... args) {
  dv.realloc(arg_prop, std::forward<Args>(args)...);
}
template <class DT, class... DP, class... Args>
void resize(DualView<DT, DP...>& dv, Args&&... args) {
  dv.resize(std::forward<Args>(args)...);
}
template <class I, class DT, class... DP, class... Args>
std::enable_if_t<Impl::is_resize_prop_v<I> || Impl::is_view_ctor_prop<I>::value> resize(const I& arg_prop,
                                                                                         DualView<DT, DP...>& dv,
                                                                                         Args&&... args) {
  dv.resize(arg_prop, std::forward<Args>(args)...);
}

}  // namespace Kokkos

#undef KOKKOS_IMPL_DUALVIEW_EXTENTS

#pragma once
// Kokkos::Experimental::ScatterView: scatter-add (or multiply, min, max) into a View from many
// threads, without the caller choosing between atomics and per-thread copies.
//
//   ScatterDuplicated    every worker of the execution space owns a private copy of the View,
//                        indexed by its worker id; contribute() reduces the copies into the
//                        destination in a parallel_for over the elements.
//   ScatterNonDuplicated the updates go straight into the View (the ScatterView aliases it).
//   ScatterAtomic / ScatterNonAtomic  whether each update is an atomic read-modify-write.
//
// Defaults follow Kokkos: host thread pools (OpenMP, Threads) duplicate without atomics, Serial
// neither duplicates nor uses atomics, device back ends update the View itself atomically.
#include <Kokkos_Core.hpp>
#include <Host/Kokkos_HostBackend.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

// The seven optional extents of resize/realloc.
#define KOKKOS_IMPL_SCATTER_EXTENTS                                                                           \
  const size_t n0 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n1 = KOKKOS_IMPL_CTOR_DEFAULT_ARG,           \
               const size_t n2 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n3 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, \
               const size_t n4 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, const size_t n5 = KOKKOS_IMPL_CTOR_DEFAULT_ARG, \
               const size_t n6 = KOKKOS_IMPL_CTOR_DEFAULT_ARG

namespace Kokkos::Experimental {

struct ScatterSum {};
struct ScatterProd {};
struct ScatterMax {};
struct ScatterMin {};

struct ScatterNonDuplicated {};
struct ScatterDuplicated {};

struct ScatterNonAtomic {};
struct ScatterAtomic {};

}  // namespace Kokkos::Experimental

namespace Kokkos::Impl::Experimental {

// A thread pool of the host duplicates; Serial has one worker, a device too many.
template <class ExecSpace>
inline constexpr bool scatter_pool_duplicates = [] {
  if constexpr (Impl::is_host_backend<ExecSpace>::value) {
#if defined(KOKKOS_ENABLE_SERIAL)
    return !std::is_same_v<ExecSpace, Kokkos::Serial>;
#else
    return true;
#endif
  } else {
    return false;
  }
}();

template <typename ExecSpace>
struct DefaultDuplication {
  using type = std::conditional_t<scatter_pool_duplicates<ExecSpace>, Kokkos::Experimental::ScatterDuplicated,
                                  Kokkos::Experimental::ScatterNonDuplicated>;
};

// Atomics are needed wherever two workers can write one element: a shared View on a thread
// pool, or any View on a device (where many threads share a worker id).
template <typename ExecSpace, typename Duplication>
struct DefaultContribution {
  static constexpr bool one_writer_per_element =
#if defined(KOKKOS_ENABLE_SERIAL)
      std::is_same_v<ExecSpace, Kokkos::Serial> ||
#endif
      (Impl::is_host_backend<ExecSpace>::value &&
       std::is_same_v<Duplication, Kokkos::Experimental::ScatterDuplicated>);
  using type = std::conditional_t<one_writer_per_element, Kokkos::Experimental::ScatterNonAtomic,
                                  Kokkos::Experimental::ScatterAtomic>;
};

// The calling worker's index among the copies of a duplicated ScatterView, and their number:
// on host back ends their contract's rank and pool size (a thread_local read, once per access);
// elsewhere Kokkos' impl_hardware_thread_id/impl_max_hardware_threads.
template <class ExecSpace>
KOKKOS_INLINE_FUNCTION int scatter_worker_id() {
  if constexpr (Impl::is_host_backend<ExecSpace>::value) {
    int id = 0;
    KOKKOS_IF_ON_HOST((id = ExecSpace::impl_thread_pool_rank();))
    return id;
  } else {
    return ExecSpace::impl_hardware_thread_id();
  }
}
template <class ExecSpace>
inline int scatter_worker_count(const ExecSpace& space) {
  if constexpr (Impl::is_host_backend<ExecSpace>::value) return space.impl_thread_pool_size();
  else return ExecSpace::impl_max_hardware_threads();
}

template <class Op, class T>
KOKKOS_FORCEINLINE_FUNCTION constexpr T scatter_identity() {
  if constexpr (std::is_same_v<Op, Kokkos::Experimental::ScatterSum>) return reduction_identity<T>::sum();
  else if constexpr (std::is_same_v<Op, Kokkos::Experimental::ScatterProd>) return reduction_identity<T>::prod();
  else if constexpr (std::is_same_v<Op, Kokkos::Experimental::ScatterMin>) return reduction_identity<T>::min();
  else return reduction_identity<T>::max();
}

// dest = dest (op) src, atomically or not.
template <class Op, bool Atomic, class T>
KOKKOS_FORCEINLINE_FUNCTION void scatter_combine(T& dest, const T& src) {
  using namespace Kokkos::Experimental;
  if constexpr (std::is_same_v<Op, ScatterSum>) {
    if constexpr (Atomic) Kokkos::atomic_add(&dest, src);
    else dest += src;
  } else if constexpr (std::is_same_v<Op, ScatterProd>) {
    if constexpr (Atomic) Kokkos::atomic_mul(&dest, src);
    else dest *= src;
  } else if constexpr (std::is_same_v<Op, ScatterMin>) {
    if constexpr (Atomic) Kokkos::atomic_min(&dest, src);
    else dest = src < dest ? src : dest;
  } else {
    static_assert(std::is_same_v<Op, ScatterMax>, "Kokkos::ScatterView: Op is ScatterSum, ScatterProd, ScatterMin or ScatterMax");
    if constexpr (Atomic) Kokkos::atomic_max(&dest, src);
    else dest = src > dest ? src : dest;
  }
}

// What access()(i...) returns: one element, updated through the ScatterView's operation.
// Sum offers += -= ++ --, Prod *= /=, every operation update() and reset().
template <typename ValueType, typename Op, typename DeviceType, typename Contribution>
struct ScatterValue {
  static constexpr bool atomic = std::is_same_v<Contribution, Kokkos::Experimental::ScatterAtomic>;
  static constexpr bool is_sum = std::is_same_v<Op, Kokkos::Experimental::ScatterSum>;
  static constexpr bool is_prod = std::is_same_v<Op, Kokkos::Experimental::ScatterProd>;
  ValueType& value;

  KOKKOS_FORCEINLINE_FUNCTION ScatterValue(ValueType& value_in) : value(value_in) {}
  KOKKOS_FORCEINLINE_FUNCTION ScatterValue(ScatterValue&& other) : value(other.value) {}

  KOKKOS_FORCEINLINE_FUNCTION void update(ValueType const& rhs) { scatter_combine<Op, atomic>(value, rhs); }
  KOKKOS_FORCEINLINE_FUNCTION void reset() { value = scatter_identity<Op, ValueType>(); }

  KOKKOS_FORCEINLINE_FUNCTION void operator+=(ValueType const& rhs)
    requires is_sum
  {
    update(rhs);
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator-=(ValueType const& rhs)
    requires is_sum
  {
    update(ValueType(-rhs));
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator++()
    requires is_sum
  {
    update(ValueType(1));
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator++(int)
    requires is_sum
  {
    update(ValueType(1));
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator--()
    requires is_sum
  {
    update(ValueType(-1));
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator--(int)
    requires is_sum
  {
    update(ValueType(-1));
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator*=(ValueType const& rhs)
    requires is_prod
  {
    update(rhs);
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator/=(ValueType const& rhs)
    requires is_prod
  {
    if constexpr (atomic) Kokkos::atomic_div(&value, rhs);
    else value /= rhs;
  }
};

// The data type of the duplicated storage: one more runtime extent, the slowest one (first for
// LayoutRight; last for LayoutLeft, where every extent then has to be a runtime one).
template <typename T, typename Layout>
struct DuplicatedDataType;
template <typename T>
struct DuplicatedDataType<T, Kokkos::LayoutRight> {
  using value_type = T*;
};
template <typename T, size_t N>
struct DuplicatedDataType<T[N], Kokkos::LayoutRight> {
  using value_type = typename DuplicatedDataType<T, Kokkos::LayoutRight>::value_type[N];
};
template <typename T>
struct DuplicatedDataType<T*, Kokkos::LayoutRight> {
  using value_type = typename DuplicatedDataType<T, Kokkos::LayoutRight>::value_type*;
};
template <typename T>
struct DuplicatedDataType<T, Kokkos::LayoutLeft> {
  using value_type = T*;
};
template <typename T, size_t N>
struct DuplicatedDataType<T[N], Kokkos::LayoutLeft> {
  using value_type = typename DuplicatedDataType<T, Kokkos::LayoutLeft>::value_type*;
};
template <typename T>
struct DuplicatedDataType<T*, Kokkos::LayoutLeft> {
  using value_type = typename DuplicatedDataType<T, Kokkos::LayoutLeft>::value_type*;
};

// Runs f(0..n-1): a parallel_for, or on the calling thread when a host back end would spend
// more waking its workers than the loop takes (a histogram's reset and contribute touch a few
// hundred elements; two parallel regions cost more than its updates on a loaded machine).
inline constexpr size_t scatter_inline_work = 8192;
template <class ExecSpace, class Functor>
void scatter_launch(const char* what, const std::string& label, const ExecSpace& exec, size_t n, size_t work,
                    const Functor& f) {
  if (n == 0) return;
  if constexpr (Impl::is_host_backend<ExecSpace>::value) {
    if (work <= scatter_inline_work) {
      exec.fence(std::string(what) + ": fence before running inline");
      for (size_t i = 0; i < n; ++i) f(i);
      return;
    }
  }
  Kokkos::parallel_for(std::string(what) + " [" + label + "]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<size_t>>(exec, 0, n), f);
}

// dst[i] = dst[i] (op) src[c * copy_stride + i] for every element i and copy c in [first, last):
// one parallel_for over the elements, each combining the copies in order.
template <class ExecSpace, class ValueType, class Op>
struct ReduceDuplicates {
  const ValueType* src;
  ValueType* dst;
  size_t copy_stride, first, last;

  KOKKOS_INLINE_FUNCTION void operator()(const size_t i) const {
    ValueType v = dst[i];
    for (size_t c = first; c < last; ++c) scatter_combine<Op, false>(v, src[c * copy_stride + i]);
    dst[i] = v;
  }
  static void run(const ExecSpace& exec, const ValueType* src, ValueType* dst, size_t copy_stride, size_t first,
                  size_t last, size_t n, const std::string& label) {
    if (first >= last) return;
    scatter_launch("Kokkos::ScatterView::ReduceDuplicates", label, exec, n, n * (last - first),
                   ReduceDuplicates{src, dst, copy_stride, first, last});
  }
};

// Sets n contiguous elements to the identity of Op.
template <class ExecSpace, class ValueType, class Op>
struct ResetDuplicates {
  ValueType* data;
  KOKKOS_INLINE_FUNCTION void operator()(const size_t i) const { data[i] = scatter_identity<Op, ValueType>(); }
  static void run(const ExecSpace& exec, ValueType* data, size_t n, const std::string& label) {
    scatter_launch("Kokkos::ScatterView::ResetDuplicates", label, exec, n, n, ResetDuplicates{data});
  }
};

}  // namespace Kokkos::Impl::Experimental

namespace Kokkos::Experimental {

// Declared without its default arguments, which go on the definition below: nvcc's front end
// re-emits a definition's template head with the defaults of an earlier declaration, and the host
// compiler then sees them twice.
template <typename DataType, typename Layout, typename DeviceType, typename Op, typename Duplication,
          typename Contribution>
class ScatterView;

template <class>
struct is_scatter_view : std::false_type {};
template <class D, class... P>
struct is_scatter_view<ScatterView<D, P...>> : std::true_type {};
template <class D, class... P>
struct is_scatter_view<const ScatterView<D, P...>> : std::true_type {};
template <class T>
inline constexpr bool is_scatter_view_v = is_scatter_view<T>::value;

template <typename DataType, typename Op, typename DeviceType, typename Layout, typename Duplication,
          typename Contribution, typename OverrideContribution>
class ScatterAccess;

template <typename DataType, typename Layout = Kokkos::DefaultExecutionSpace::array_layout,
          typename DeviceType = Kokkos::DefaultExecutionSpace, typename Op = ScatterSum,
          typename Duplication =
              typename Kokkos::Impl::Experimental::DefaultDuplication<typename DeviceType::execution_space>::type,
          typename Contribution = typename Kokkos::Impl::Experimental::DefaultContribution<
              typename DeviceType::execution_space, Duplication>::type>
class ScatterView {
  static_assert(std::is_same_v<Op, ScatterSum> || std::is_same_v<Op, ScatterProd> || std::is_same_v<Op, ScatterMin> ||
                    std::is_same_v<Op, ScatterMax>,
                "Kokkos::ScatterView: Op is ScatterSum, ScatterProd, ScatterMin or ScatterMax");
  static_assert(std::is_same_v<Duplication, ScatterDuplicated> || std::is_same_v<Duplication, ScatterNonDuplicated>,
                "Kokkos::ScatterView: Duplication is ScatterDuplicated or ScatterNonDuplicated");
  static_assert(std::is_same_v<Contribution, ScatterAtomic> || std::is_same_v<Contribution, ScatterNonAtomic>,
                "Kokkos::ScatterView: Contribution is ScatterAtomic or ScatterNonAtomic");

 public:
  using execution_space = typename DeviceType::execution_space;
  using memory_space = typename DeviceType::memory_space;
  using device_type = Kokkos::Device<execution_space, memory_space>;
  using original_view_type = Kokkos::View<DataType, Layout, device_type>;
  using original_value_type = typename original_view_type::value_type;
  using original_reference_type = typename original_view_type::reference_type;

  static constexpr bool is_duplicated = std::is_same_v<Duplication, ScatterDuplicated>;
  static_assert(!is_duplicated || std::is_same_v<Layout, LayoutRight> || std::is_same_v<Layout, LayoutLeft>,
                "Kokkos::ScatterView: a duplicated ScatterView needs LayoutRight or LayoutLeft");
  using internal_view_type = std::conditional_t<
      is_duplicated,
      Kokkos::View<typename Kokkos::Impl::Experimental::DuplicatedDataType<DataType, Layout>::value_type, Layout,
                   device_type>,
      original_view_type>;

  template <typename, typename, typename, typename, typename, typename, typename>
  friend class ScatterAccess;
  template <typename, typename, typename, typename, typename, typename>
  friend class ScatterView;

  ScatterView() = default;

  // Non-duplicated: the ScatterView aliases original_view.  Duplicated: fresh private copies,
  // each reset to the identity of Op; original_view itself is untouched until contribute.
  template <typename RT, typename... RP>
  ScatterView(View<RT, RP...> const& original_view) : ScatterView(execution_space(), original_view) {}

  template <typename RT, typename... RP>
  ScatterView(execution_space const& exec_space, View<RT, RP...> const& original_view) {
    if constexpr (is_duplicated) {
      size_t extents[8];
      for (size_t r = 0; r < original_view_type::rank(); ++r) extents[r] = original_view.extent(r);
      impl_allocate_copies(view_alloc(WithoutInitializing, std::string("duplicated_") + original_view.label(), exec_space),
                           extents);
      reset(exec_space);
    } else {
      internal_view = original_view;
    }
  }

  template <typename... Dims>
  ScatterView(std::string const& name, Dims... dims) : ScatterView(view_alloc(execution_space(), name), dims...) {}

  // view_alloc(exec_space, "label") selects the instance that resets the copies.
  template <typename... P, typename... Dims>
  ScatterView(Kokkos::Impl::ViewCtorProp<P...> const& arg_prop, Dims... dims) {
    using prop_t = Kokkos::Impl::ViewCtorProp<P...>;
    static_assert(!prop_t::has_pointer, "Kokkos::ScatterView: view_wrap is not allowed");
    static_assert(!prop_t::has_memory_space, "Kokkos::ScatterView: the memory space is the ScatterView's own");
    if constexpr (is_duplicated) {
      const size_t given[] = {static_cast<size_t>(dims)..., 0};
      size_t extents[8];
      size_t next = 0;
      for (size_t r = 0; r < original_view_type::rank(); ++r)
        extents[r] = original_view_type::static_extent(r) != 0 ? original_view_type::static_extent(r) : given[next++];
      impl_allocate_copies(view_alloc(WithoutInitializing, arg_prop.get_label(), impl_exec_of(arg_prop)), extents);
      reset(impl_exec_of(arg_prop));
    } else {
      internal_view = original_view_type(arg_prop, dims...);
    }
  }

  // From a ScatterView of a compatible data type or device (e.g. non-const to const).
  template <typename OtherDataType, typename OtherDeviceType>
  KOKKOS_FUNCTION ScatterView(
      const ScatterView<OtherDataType, Layout, OtherDeviceType, Op, Duplication, Contribution>& other_view)
      : internal_view(other_view.internal_view), m_copies(other_view.m_copies) {}
  template <typename OtherDataType, typename OtherDeviceType>
  KOKKOS_FUNCTION ScatterView& operator=(
      const ScatterView<OtherDataType, Layout, OtherDeviceType, Op, Duplication, Contribution>& other_view) {
    internal_view = other_view.internal_view;
    m_copies = other_view.m_copies;
    return *this;
  }

  template <typename OverrideContribution = Contribution>
  KOKKOS_FORCEINLINE_FUNCTION
      ScatterAccess<DataType, Op, DeviceType, Layout, Duplication, Contribution, OverrideContribution>
      access() const {
    return ScatterAccess<DataType, Op, DeviceType, Layout, Duplication, Contribution, OverrideContribution>(*this);
  }

  // The View the updates land in: the original (non-duplicated) or the first private copy.
  auto subview() const {
    if constexpr (is_duplicated) return impl_copy(0);
    else return internal_view;
  }

  KOKKOS_INLINE_FUNCTION constexpr bool is_allocated() const { return internal_view.is_allocated(); }

  template <typename DT, typename... RP>
  void contribute_into(View<DT, RP...> const& dest) const {
    contribute_into(execution_space(), dest);
  }

  // dest (op)= every copy.  A non-duplicated ScatterView aliasing dest has nothing to add; one
  // that does not alias dest combines its View into dest.
  template <typename DT, typename... RP>
  void contribute_into(execution_space const& exec_space, View<DT, RP...> const& dest) const {
    using dest_type = View<DT, RP...>;
    static_assert(std::is_same_v<typename dest_type::array_layout, Layout>,
                  "Kokkos::ScatterView::contribute_into: the destination has a different layout");
    static_assert(std::is_same_v<typename dest_type::value_type, typename original_view_type::non_const_value_type>,
                  "Kokkos::ScatterView::contribute_into: the destination has a different value type");
    static_assert(SpaceAccessibility<execution_space, typename dest_type::memory_space>::accessible,
                  "Kokkos::ScatterView::contribute_into: the destination is not accessible from the execution space");
    const size_t n = impl_elements();
    if (static_cast<const void*>(dest.data()) == static_cast<const void*>(internal_view.data()) && !is_duplicated)
      return;
    if (dest.size() != n || !dest.span_is_contiguous() || !internal_view.span_is_contiguous())
      Kokkos::Impl::throw_runtime_exception(
          "Kokkos::ScatterView::contribute_into: the destination must be contiguous and of the ScatterView's extents");
    const bool dest_is_first_copy =
        static_cast<const void*>(dest.data()) == static_cast<const void*>(internal_view.data());
    Kokkos::Impl::Experimental::ReduceDuplicates<execution_space, original_value_type, Op>::run(
        exec_space, internal_view.data(), dest.data(), n, dest_is_first_copy ? 1 : 0, is_duplicated ? m_copies : 1, n,
        internal_view.label());
  }

  // Every element of every copy to the identity of Op (the original View too when not duplicated).
  void reset(execution_space const& exec_space = execution_space()) {
    if constexpr (is_duplicated) {
      Kokkos::Impl::Experimental::ResetDuplicates<execution_space, original_value_type, Op>::run(
          exec_space, internal_view.data(), internal_view.size(), internal_view.label());
    } else if (internal_view.is_allocated()) {
      Kokkos::deep_copy(exec_space, internal_view,
                        Kokkos::Impl::Experimental::scatter_identity<Op, original_value_type>());
    }
  }
  template <typename DT, typename... RP>
  void reset_except(View<DT, RP...> const& view) {
    reset_except(execution_space(), view);
  }
  // reset(), but the copy that aliases `view` (if any) keeps its contents.
  template <typename DT, typename... RP>
  void reset_except(execution_space const& exec_space, View<DT, RP...> const& view) {
    if (static_cast<const void*>(view.data()) != static_cast<const void*>(internal_view.data())) {
      reset(exec_space);
    } else if constexpr (is_duplicated) {
      Kokkos::Impl::Experimental::ResetDuplicates<execution_space, original_value_type, Op>::run(
          exec_space, internal_view.data() + view.size(), internal_view.size() - view.size(), internal_view.label());
    }
  }

  void resize(KOKKOS_IMPL_SCATTER_EXTENTS) { impl_reshape<false>(Kokkos::Impl::ViewCtorProp<>{}, n0, n1, n2, n3, n4, n5, n6); }
  template <class... VP>
  void resize(const Kokkos::Impl::ViewCtorProp<VP...>& arg_prop, KOKKOS_IMPL_SCATTER_EXTENTS) {
    impl_reshape<false>(arg_prop, n0, n1, n2, n3, n4, n5, n6);
  }
  template <class I, class = std::enable_if_t<Kokkos::Impl::is_resize_prop_v<I>>>
  void resize(const I& arg_prop, KOKKOS_IMPL_SCATTER_EXTENTS) {
    impl_reshape<false>(view_alloc(arg_prop), n0, n1, n2, n3, n4, n5, n6);
  }
  void realloc(KOKKOS_IMPL_SCATTER_EXTENTS) { impl_reshape<true>(Kokkos::Impl::ViewCtorProp<>{}, n0, n1, n2, n3, n4, n5, n6); }
  template <class... VP>
  void realloc(const Kokkos::Impl::ViewCtorProp<VP...>& arg_prop, KOKKOS_IMPL_SCATTER_EXTENTS) {
    impl_reshape<true>(arg_prop, n0, n1, n2, n3, n4, n5, n6);
  }
  template <class I, class = std::enable_if_t<Kokkos::Impl::is_resize_prop_v<I>>>
  void realloc(const I& arg_prop, KOKKOS_IMPL_SCATTER_EXTENTS) {
    impl_reshape<true>(view_alloc(arg_prop), n0, n1, n2, n3, n4, n5, n6);
  }

 protected:
  // Element (args...) of the calling worker's copy.
  template <typename... Args>
  KOKKOS_FORCEINLINE_FUNCTION original_reference_type at(int copy, Args... args) const {
    if constexpr (!is_duplicated) {
      (void)copy;
      return internal_view(args...);
    } else if constexpr (std::is_same_v<Layout, LayoutRight>) {
      return internal_view(copy, args...);
    } else {
      return internal_view(args..., copy);
    }
  }

 private:
  internal_view_type internal_view;
  size_t m_copies = 1;

  template <class Prop>
  static auto impl_exec_of(const Prop& prop) {
    if constexpr (Prop::has_execution_space) return prop.get_execution_space();
    else return execution_space();
  }

  // Number of elements of the original View.
  size_t impl_elements() const {
    if constexpr (is_duplicated) return m_copies == 0 ? 0 : internal_view.size() / m_copies;
    else return internal_view.size();
  }

  auto impl_copy(size_t c) const {
    constexpr size_t R = internal_view_type::rank();
    return [&]<size_t... K>(std::index_sequence<K...>) {
      if constexpr (std::is_same_v<Layout, LayoutRight>) return Kokkos::subview(internal_view, c, ((void)K, Kokkos::ALL)...);
      else return Kokkos::subview(internal_view, ((void)K, Kokkos::ALL)..., c);
    }(std::make_index_sequence<R - 1>());
  }

  // The internal View's runtime extents from the original's full extents, plus the copies.
  template <class Prop>
  void impl_allocate_copies(const Prop& prop, const size_t* original_extents) {
    m_copies = static_cast<size_t>(Kokkos::Impl::Experimental::scatter_worker_count(impl_exec_of(prop)));
    size_t n[8];
    impl_internal_extents(original_extents, n);
    internal_view = internal_view_type(prop, n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]);
  }
  void impl_internal_extents(const size_t* original_extents, size_t* n) const {
    constexpr size_t R = original_view_type::rank();
    for (size_t r = 0; r < 8; ++r) n[r] = KOKKOS_IMPL_CTOR_DEFAULT_ARG;
    size_t k = 0;
    if constexpr (std::is_same_v<Layout, LayoutRight>) {
      n[k++] = m_copies;
      for (size_t r = 0; r < R; ++r)
        if (original_view_type::static_extent(r) == 0) n[k++] = original_extents[r];
    } else {
      for (size_t r = 0; r < R; ++r) n[k++] = original_extents[r];
      n[k++] = m_copies;
    }
  }

  template <bool Discard, class... VP>
  void impl_reshape(const Kokkos::Impl::ViewCtorProp<VP...>& arg_prop, size_t n0, size_t n1, size_t n2, size_t n3,
                    size_t n4, size_t n5, size_t n6) {
    if constexpr (is_duplicated) {
      const size_t given[7] = {n0, n1, n2, n3, n4, n5, n6};
      size_t extents[8];
      size_t next = 0;
      for (size_t r = 0; r < original_view_type::rank(); ++r)
        extents[r] = original_view_type::static_extent(r) != 0 ? original_view_type::static_extent(r) : given[next++];
      size_t n[8];
      impl_internal_extents(extents, n);
      if constexpr (Discard)
        ::Kokkos::realloc(arg_prop, internal_view, n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]);
      else
        ::Kokkos::resize(arg_prop, internal_view, n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]);
    } else {
      if constexpr (Discard)
        ::Kokkos::realloc(arg_prop, internal_view, n0, n1, n2, n3, n4, n5, n6);
      else
        ::Kokkos::resize(arg_prop, internal_view, n0, n1, n2, n3, n4, n5, n6);
    }
  }
};

// Returned by ScatterView::access(): holds the calling worker's copy index (read once, when the
// accessor is made inside the functor) and yields ScatterValues.
template <typename DataType, typename Op, typename DeviceType, typename Layout, typename Duplication,
          typename Contribution, typename OverrideContribution>
class ScatterAccess {
 public:
  using view_type = ScatterView<DataType, Layout, DeviceType, Op, Duplication, Contribution>;
  using original_value_type = typename view_type::original_value_type;
  using value_type =
      Kokkos::Impl::Experimental::ScatterValue<original_value_type, Op, DeviceType, OverrideContribution>;

  KOKKOS_FORCEINLINE_FUNCTION ScatterAccess(view_type const& view_in)
      : view(view_in),
        copy(view_type::is_duplicated
                 ? Kokkos::Impl::Experimental::scatter_worker_id<typename view_type::execution_space>()
                 : 0) {}

  template <typename... Args>
  KOKKOS_FORCEINLINE_FUNCTION value_type operator()(Args... args) const {
    return view.at(copy, args...);
  }
  template <typename Arg>
  KOKKOS_FORCEINLINE_FUNCTION std::enable_if_t<view_type::original_view_type::rank == 1 && std::is_integral_v<Arg>,
                                               value_type>
  operator[](Arg arg) const {
    return view.at(copy, arg);
  }

 private:
  view_type const& view;
  int copy;
};

template <typename Op = ScatterSum, typename Duplication = void, typename Contribution = void, typename RT,
          typename... RP>
auto create_scatter_view(View<RT, RP...> const& original_view) {
  using traits = ViewTraits<RT, RP...>;
  using exec = typename traits::execution_space;
  using dup = std::conditional_t<std::is_void_v<Duplication>,
                                 typename Kokkos::Impl::Experimental::DefaultDuplication<exec>::type, Duplication>;
  using contrib =
      std::conditional_t<std::is_void_v<Contribution>,
                         typename Kokkos::Impl::Experimental::DefaultContribution<exec, dup>::type, Contribution>;
  return ScatterView<RT, typename traits::array_layout, typename traits::device_type, Op, dup, contrib>(original_view);
}
template <typename Op, typename RT, typename... RP>
auto create_scatter_view(Op, View<RT, RP...> const& original_view) {
  return create_scatter_view<Op>(original_view);
}
template <typename Op, typename Duplication, typename Contribution, typename RT, typename... RP>
auto create_scatter_view(Op, Duplication, Contribution, View<RT, RP...> const& original_view) {
  return create_scatter_view<Op, Duplication, Contribution>(original_view);
}

template <typename DT1, typename DT2, typename LY, typename ES, typename OP, typename CT, typename DP, typename... VP>
void contribute(typename ES::execution_space const& exec_space, View<DT1, VP...>& dest,
                ScatterView<DT2, LY, ES, OP, CT, DP> const& src) {
  src.contribute_into(exec_space, dest);
}
template <typename DT1, typename DT2, typename LY, typename ES, typename OP, typename CT, typename DP, typename... VP>
void contribute(View<DT1, VP...>& dest, ScatterView<DT2, LY, ES, OP, CT, DP> const& src) {
  src.contribute_into(typename ES::execution_space{}, dest);
}

}  // namespace Kokkos::Experimental

namespace Kokkos {

template <typename DT, typename LY, typename ES, typename OP, typename CT, typename DP, typename... IS>
void realloc(Kokkos::Experimental::ScatterView<DT, LY, ES, OP, CT, DP>& scatter_view, IS... is) {
  scatter_view.realloc(is...);
}
template <typename I, typename DT, typename LY, typename ES, typename OP, typename CT, typename DP, typename... IS>
std::enable_if_t<Impl::is_resize_prop_v<I> || Impl::is_view_ctor_prop<I>::value> realloc(
    const I& arg_prop, Kokkos::Experimental::ScatterView<DT, LY, ES, OP, CT, DP>& scatter_view, IS... is) {
  scatter_view.realloc(arg_prop, is...);
}
template <typename DT, typename LY, typename ES, typename OP, typename CT, typename DP, typename... IS>
void resize(Kokkos::Experimental::ScatterView<DT, LY, ES, OP, CT, DP>& scatter_view, IS... is) {
  scatter_view.resize(is...);
}
template <typename I, typename DT, typename LY, typename ES, typename OP, typename CT, typename DP, typename... IS>
std::enable_if_t<Impl::is_resize_prop_v<I> || Impl::is_view_ctor_prop<I>::value> resize(
    const I& arg_prop, Kokkos::Experimental::ScatterView<DT, LY, ES, OP, CT, DP>& scatter_view, IS... is) {
  scatter_view.resize(arg_prop, is...);
}

}  // namespace Kokkos

#undef KOKKOS_IMPL_SCATTER_EXTENTS

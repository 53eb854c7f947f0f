#pragma once
// Parses the property list of an execution policy (RangePolicy<Props...>, TeamPolicy<Props...>,
// MDRangePolicy<Props...>, WorkGraphPolicy<Props...>) in any order, as Kokkos does:
// an execution space, Schedule<>, IndexType<> (or a raw integral type), LaunchBounds<>,
// an iteration pattern (MDRange Rank<>), and at most one work tag (any other class type).
#include <Kokkos_Concepts.hpp>
#include <Kokkos_Core_fwd.hpp>
#include <impl/Kokkos_PolicyProperties.hpp>
#include <cstdint>
#include <type_traits>

namespace Kokkos::Impl {

template <class T>
struct is_schedule : std::false_type {};
template <class T>
struct is_schedule<Schedule<T>> : std::true_type {};

template <class T>
struct is_index_type : std::false_type {};
template <class T>
struct is_index_type<IndexType<T>> : std::true_type {};

template <class T>
struct is_launch_bounds : std::false_type {};
template <unsigned N, unsigned M>
struct is_launch_bounds<LaunchBounds<N, M>> : std::true_type {};

// Policies of other kinds (e.g. MDRange's Rank<>) mark themselves with this member.
template <class T, class = void>
struct is_iteration_pattern : std::false_type {};
template <class T>
struct is_iteration_pattern<T, std::void_t<typename T::kokkos_impl_iteration_pattern>> : std::true_type {};

template <class T, class = void>
struct is_priority_property : std::false_type {};
template <class T>
struct is_priority_property<T, std::void_t<typename T::kokkos_impl_priority_property>> : std::true_type {};

struct PolicyTraitsDefaults {
  using execution_space = void;
  using schedule_type = void;
  using index_type = void;
  using launch_bounds = LaunchBounds<>;
  using iteration_pattern = void;
  using work_tag = void;
  using priority_property = void;
  using work_item_property = void;
  using occupancy_control = void;
};

template <class Acc, class P, class = void>
struct PolicyTraitsAdd;

#define KOKKOS_IMPL_POLICY_SET(MEMBER, VALUE, WHAT)                                                   \
  static_assert(std::is_void_v<typename Acc::MEMBER>, "Kokkos policy: " WHAT " given more than once"); \
  struct type : Acc {                                                                                \
    using MEMBER = VALUE;                                                                            \
  };

template <class Acc, class P>
struct PolicyTraitsAdd<Acc, P, std::enable_if_t<is_execution_space_v<P>>> {
  KOKKOS_IMPL_POLICY_SET(execution_space, P, "execution space")
};
template <class Acc, class P>
struct PolicyTraitsAdd<Acc, P, std::enable_if_t<is_schedule<P>::value>> {
  KOKKOS_IMPL_POLICY_SET(schedule_type, P, "Schedule<>")
};
template <class Acc, class P>
struct PolicyTraitsAdd<Acc, P, std::enable_if_t<is_index_type<P>::value>> {
  KOKKOS_IMPL_POLICY_SET(index_type, P, "IndexType<>")
};
template <class Acc, class P>
struct PolicyTraitsAdd<Acc, P, std::enable_if_t<std::is_integral_v<P>>> {
  KOKKOS_IMPL_POLICY_SET(index_type, IndexType<P>, "index type")
};
template <class Acc, class P>
struct PolicyTraitsAdd<Acc, P, std::enable_if_t<is_launch_bounds<P>::value>> {
  struct type : Acc {
    using launch_bounds = P;
  };
};
template <class Acc, class P>
struct PolicyTraitsAdd<Acc, P, std::enable_if_t<is_iteration_pattern<P>::value>> {
  KOKKOS_IMPL_POLICY_SET(iteration_pattern, P, "iteration pattern")
};
template <class Acc, class P>
struct PolicyTraitsAdd<Acc, P, std::enable_if_t<is_priority_property<P>::value>> {
  KOKKOS_IMPL_POLICY_SET(priority_property, P, "priority property")
};
template <class Acc, class P>
struct PolicyTraitsAdd<Acc, P, std::enable_if_t<is_work_item_property<P>::value>> {
  KOKKOS_IMPL_POLICY_SET(work_item_property, P, "work item property")
};
template <class Acc, class P>
struct PolicyTraitsAdd<Acc, P, std::enable_if_t<is_occupancy_control<P>::value>> {
  KOKKOS_IMPL_POLICY_SET(occupancy_control, P, "occupancy control")
};
template <class Acc, class P>
struct PolicyTraitsAdd<Acc, P,
                       std::enable_if_t<!is_work_item_property<P>::value && !is_occupancy_control<P>::value &&
                                        !is_execution_space_v<P> && !is_schedule<P>::value && !is_index_type<P>::value &&
                                        !std::is_integral_v<P> && !is_launch_bounds<P>::value &&
                                        !is_iteration_pattern<P>::value && !is_priority_property<P>::value>> {
  static_assert(std::is_class_v<P> || std::is_void_v<P>,
                "Kokkos policy: unrecognised property (expected an execution space, Schedule<>, IndexType<>, "
                "LaunchBounds<> or a work tag class)");
  KOKKOS_IMPL_POLICY_SET(work_tag, P, "work tag")
};
template <class Acc>
struct PolicyTraitsAdd<Acc, void, void> {
  using type = Acc;
};
#undef KOKKOS_IMPL_POLICY_SET

template <class Acc, class... Props>
struct PolicyTraitsFold {
  using type = Acc;
};
template <class Acc, class P, class... Rest>
struct PolicyTraitsFold<Acc, P, Rest...> {
  using type = typename PolicyTraitsFold<typename PolicyTraitsAdd<Acc, P>::type, Rest...>::type;
};

template <class... Props>
struct PolicyTraits {
 private:
  using parsed = typename PolicyTraitsFold<PolicyTraitsDefaults, Props...>::type;

 public:
  using execution_space =
      std::conditional_t<std::is_void_v<typename parsed::execution_space>, DefaultExecutionSpace,
                         typename parsed::execution_space>;
  using work_item_property =
      std::conditional_t<std::is_void_v<typename parsed::work_item_property>,
                         Kokkos::Experimental::WorkItemProperty::None_t, typename parsed::work_item_property>;
  using occupancy_control =
      std::conditional_t<std::is_void_v<typename parsed::occupancy_control>, Kokkos::Experimental::MaximizeOccupancy,
                         typename parsed::occupancy_control>;
  // Without an explicit Schedule<>, HintIrregular asks for the dynamic schedule on the host.
  using schedule_type = std::conditional_t<
      std::is_void_v<typename parsed::schedule_type>,
      std::conditional_t<(work_item_property::value & Kokkos::Experimental::WorkItemProperty::HintIrregular_t::value) != 0,
                         Schedule<Dynamic>, Schedule<Static>>,
      typename parsed::schedule_type>;
  using index_type =
      std::conditional_t<std::is_void_v<typename parsed::index_type>, IndexType<std::int64_t>, typename parsed::index_type>;
  using launch_bounds = typename parsed::launch_bounds;
  using iteration_pattern = typename parsed::iteration_pattern;
  using work_tag = typename parsed::work_tag;
  using priority_property = typename parsed::priority_property;
};

// Calls f(i...) or f(Tag{}, i...): the one place that knows how work tags are passed.
// Host back ends also run functors whose operator() is host-only (a lambda without
// KOKKOS_LAMBDA): nvcc checks only the instantiations device code uses.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Tag, class F, class... Args>
KOKKOS_FORCEINLINE_FUNCTION void invoke_functor(const F& f, Args&&... args) {
  if constexpr (std::is_void_v<Tag>) {
    f(static_cast<Args&&>(args)...);
  } else {
    f(Tag{}, static_cast<Args&&>(args)...);
  }
}

}  // namespace Kokkos::Impl

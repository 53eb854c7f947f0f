#pragma once
// Execution policy properties of Kokkos 4 (namespace Kokkos::Experimental):
//
//   auto p = Kokkos::Experimental::require(policy, Kokkos::Experimental::WorkItemProperty::HintIrregular);
//   auto q = Kokkos::Experimental::prefer(policy, Kokkos::Experimental::DesiredOccupancy(50));
//   auto r = Kokkos::Experimental::prefer(policy, Kokkos::Experimental::MaximizeOccupancy());
//
// Each returns the policy with the property added to its template arguments (replacing one of the
// same kind), so it launches like the original.  What the host back ends do with them:
//   HintIrregular     a policy without an explicit Schedule<> gets Schedule<Dynamic> (work items of
//                     unequal cost are claimed in chunks instead of split in equal blocks);
//   HintRegular       the static schedule (the default anyway);
//   HintLightWeight, HintHeavyWeight, DesiredOccupancy, MaximizeOccupancy, LaunchBounds<>:
//                     recorded (policy.impl_get_desired_occupancy(), launch_bounds) and otherwise
//                     without effect, as in Kokkos' host back ends: they steer GPU launch shapes.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Abort.hpp>

#include <type_traits>

namespace Kokkos::Experimental {

namespace WorkItemProperty {
template <unsigned long Property>
struct ImplWorkItemProperty {
  static const unsigned value = Property;
  using work_item_property = ImplWorkItemProperty<Property>;
};

inline constexpr ImplWorkItemProperty<0> None = ImplWorkItemProperty<0>();
inline constexpr ImplWorkItemProperty<1> HintLightWeight = ImplWorkItemProperty<1>();
inline constexpr ImplWorkItemProperty<2> HintHeavyWeight = ImplWorkItemProperty<2>();
inline constexpr ImplWorkItemProperty<4> HintRegular = ImplWorkItemProperty<4>();
inline constexpr ImplWorkItemProperty<8> HintIrregular = ImplWorkItemProperty<8>();
inline constexpr ImplWorkItemProperty<16> ImplForceGlobalLaunch = ImplWorkItemProperty<16>();
using None_t = ImplWorkItemProperty<0>;
using HintLightWeight_t = ImplWorkItemProperty<1>;
using HintHeavyWeight_t = ImplWorkItemProperty<2>;
using HintRegular_t = ImplWorkItemProperty<4>;
using HintIrregular_t = ImplWorkItemProperty<8>;
using ImplForceGlobalLaunch_t = ImplWorkItemProperty<16>;

template <unsigned long pv1, unsigned long pv2>
constexpr ImplWorkItemProperty<pv1 | pv2> operator|(ImplWorkItemProperty<pv1>, ImplWorkItemProperty<pv2>) {
  return ImplWorkItemProperty<pv1 | pv2>();
}
template <unsigned long pv1, unsigned long pv2>
constexpr ImplWorkItemProperty<pv1 & pv2> operator&(ImplWorkItemProperty<pv1>, ImplWorkItemProperty<pv2>) {
  return ImplWorkItemProperty<pv1 & pv2>();
}
template <unsigned long pv1, unsigned long pv2>
constexpr bool operator==(ImplWorkItemProperty<pv1>, ImplWorkItemProperty<pv2>) {
  return pv1 == pv2;
}
}  // namespace WorkItemProperty

struct MaximizeOccupancy;

// A percentage of the hardware's occupancy a launch should aim for (1..100).
struct DesiredOccupancy {
  int m_occ = 100;
  explicit constexpr DesiredOccupancy(int occ) : m_occ(occ) {
    if (occ < 0 || occ > 100) {
      Kokkos::Impl::throw_runtime_exception("Kokkos::Experimental::DesiredOccupancy: " + std::to_string(occ) +
                                            " is not a percentage between 0 and 100");
    }
  }
  explicit constexpr operator int() const { return m_occ; }
  constexpr int value() const { return m_occ; }
  DesiredOccupancy() = default;
  explicit DesiredOccupancy(const MaximizeOccupancy&) : DesiredOccupancy() {}
};

struct MaximizeOccupancy {
  explicit MaximizeOccupancy() = default;
};

}  // namespace Kokkos::Experimental

namespace Kokkos::Impl {

template <class T, class = void>
struct is_work_item_property : std::false_type {};
template <class T>
struct is_work_item_property<T, std::void_t<typename T::work_item_property>> : std::true_type {};

template <class T>
struct is_occupancy_control
    : std::bool_constant<std::is_same_v<T, Kokkos::Experimental::DesiredOccupancy> ||
                         std::is_same_v<T, Kokkos::Experimental::MaximizeOccupancy>> {};

// The desired occupancy a policy carries (every policy has one; only prefer() sets it).
class PolicyOccupancy {
 public:
  Kokkos::Experimental::DesiredOccupancy impl_get_desired_occupancy() const { return m_desired_occupancy; }
  void impl_set_desired_occupancy(Kokkos::Experimental::DesiredOccupancy occupancy) {
    m_desired_occupancy = occupancy;
  }

 private:
  Kokkos::Experimental::DesiredOccupancy m_desired_occupancy{};
};

// Policy<Props...> with Trait in place of any property of the same kind.
template <template <class...> class Same, class Trait, class Done, class... Rest>
struct ReplacePolicyTrait;
template <template <class...> class Same, class Trait, template <class...> class Policy, class... Done>
struct ReplacePolicyTrait<Same, Trait, Policy<Done...>> {
  using type = Policy<Done..., Trait>;
};
template <template <class...> class Same, class Trait, template <class...> class Policy, class... Done, class P,
          class... Rest>
struct ReplacePolicyTrait<Same, Trait, Policy<Done...>, P, Rest...>
    : ReplacePolicyTrait<Same, Trait, std::conditional_t<Same<P>::value, Policy<Done...>, Policy<Done..., P>>,
                         Rest...> {};

template <template <class...> class Same, class Policy, class Trait>
struct PolicyWithTrait;
template <template <class...> class Same, template <class...> class Policy, class... Props, class Trait>
struct PolicyWithTrait<Same, Policy<Props...>, Trait> {
  using type = typename ReplacePolicyTrait<Same, Trait, Policy<>, Props...>::type;
};

}  // namespace Kokkos::Impl

namespace Kokkos::Experimental {

template <class PolicyType, unsigned long P>
constexpr auto require(const PolicyType& policy, WorkItemProperty::ImplWorkItemProperty<P>) {
  using out = typename Kokkos::Impl::PolicyWithTrait<Kokkos::Impl::is_work_item_property, PolicyType,
                                                     WorkItemProperty::ImplWorkItemProperty<P>>::type;
  return out(policy);
}

template <class PolicyType>
auto prefer(const PolicyType& policy, DesiredOccupancy occupancy) {
  using out = typename Kokkos::Impl::PolicyWithTrait<Kokkos::Impl::is_occupancy_control, PolicyType,
                                                     DesiredOccupancy>::type;
  out result(policy);
  result.impl_set_desired_occupancy(occupancy);
  return result;
}

template <class PolicyType>
auto prefer(const PolicyType& policy, MaximizeOccupancy) {
  using out = typename Kokkos::Impl::PolicyWithTrait<Kokkos::Impl::is_occupancy_control, PolicyType,
                                                     MaximizeOccupancy>::type;
  out result(policy);
  result.impl_set_desired_occupancy(DesiredOccupancy(MaximizeOccupancy()));
  return result;
}

}  // namespace Kokkos::Experimental

// The classification traits (is_execution_space, is_memory_space, is_space, is_device, is_view,
// is_memory_traits, is_array_layout, is_execution_policy, is_reducer, is_team_handle) on
// cv-qualified and reference types, answered as Kokkos 4.6 answers them: cv-qualifiers are seen
// through, references are not, and non-members stay false.
#include "TestCommon.hpp"

#include <type_traits>

namespace {

using Exec = Kokkos::DefaultHostExecutionSpace;
using Mem = Kokkos::HostSpace;
using Dev = Kokkos::Device<Exec, Mem>;
using Policy = Kokkos::RangePolicy<Exec>;
using Team = Kokkos::TeamPolicy<Exec>;

// Every cv-qualification of T gives `expected`; T& and const T& give false.  `trait` maps a
// std::type_identity<U> to the trait's answer for U.
template <class T, class Trait>
constexpr bool cv_answers(Trait trait, bool expected) {
  return trait(std::type_identity<T>()) == expected && trait(std::type_identity<const T>()) == expected &&
         trait(std::type_identity<volatile T>()) == expected &&
         trait(std::type_identity<const volatile T>()) == expected && !trait(std::type_identity<T&>()) &&
         !trait(std::type_identity<const T&>());
}
using MinLoc = Kokkos::MinLoc<int, int>;
using MDPolicy = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
using UnmanagedAtomic = Kokkos::MemoryTraits<Kokkos::Unmanaged | Kokkos::Atomic>;
#define KOKKOS_TEST_CV(TRAIT, T, EXPECTED)                                                                    \
  static_assert(cv_answers<T>([](auto t) { return Kokkos::TRAIT<typename decltype(t)::type>::value; }, EXPECTED), \
                #TRAIT " on cv-qualified " #T)
KOKKOS_TEST_CV(is_execution_space, Exec, true);
KOKKOS_TEST_CV(is_execution_space, Mem, false);
KOKKOS_TEST_CV(is_execution_space, int, false);
KOKKOS_TEST_CV(is_memory_space, Mem, true);
KOKKOS_TEST_CV(is_memory_space, Exec, false);
KOKKOS_TEST_CV(is_memory_space, Dev, false);
KOKKOS_TEST_CV(is_space, Exec, true);
KOKKOS_TEST_CV(is_space, Mem, true);
KOKKOS_TEST_CV(is_space, Dev, true);
KOKKOS_TEST_CV(is_space, Policy, false);
KOKKOS_TEST_CV(is_device, Dev, true);
KOKKOS_TEST_CV(is_device, Exec, false);
KOKKOS_TEST_CV(is_memory_traits, Kokkos::MemoryManaged, true);
KOKKOS_TEST_CV(is_memory_traits, UnmanagedAtomic, true);
KOKKOS_TEST_CV(is_memory_traits, Mem, false);
KOKKOS_TEST_CV(is_array_layout, Kokkos::LayoutLeft, true);
KOKKOS_TEST_CV(is_array_layout, Kokkos::LayoutStride, true);
KOKKOS_TEST_CV(is_array_layout, Mem, false);
KOKKOS_TEST_CV(is_execution_policy, Policy, true);
KOKKOS_TEST_CV(is_execution_policy, Team, true);
KOKKOS_TEST_CV(is_execution_policy, MDPolicy, true);
KOKKOS_TEST_CV(is_execution_policy, Exec, false);
KOKKOS_TEST_CV(is_reducer, Kokkos::Sum<double>, true);
KOKKOS_TEST_CV(is_reducer, MinLoc, true);
KOKKOS_TEST_CV(is_reducer, double, false);
#undef KOKKOS_TEST_CV

// The _v forms agree with the class templates.
static_assert(Kokkos::is_execution_space_v<const Exec> && Kokkos::is_memory_space_v<volatile Mem> &&
              Kokkos::is_device_v<const Dev> && Kokkos::is_memory_traits_v<const Kokkos::MemoryUnmanaged> &&
              Kokkos::is_array_layout_v<const Kokkos::LayoutRight> && Kokkos::is_execution_policy_v<const Team> &&
              Kokkos::is_reducer_v<const Kokkos::Max<int>>);

// is_view: Kokkos specialises View and const View only; is_team_handle checks the member's
// interface, which a const member has.
static_assert(Kokkos::is_view_v<Kokkos::View<int*>> && Kokkos::is_view_v<const Kokkos::View<int*>>);
static_assert(!Kokkos::is_view_v<volatile Kokkos::View<int*>> && !Kokkos::is_view_v<Kokkos::View<int*>&>);
static_assert(Kokkos::is_team_handle_v<Team::member_type> && Kokkos::is_team_handle_v<const Team::member_type>);
static_assert(!Kokkos::is_team_handle_v<Exec>);

// The usual use: a constrained template that receives a const-qualified deduced type.
template <class T>
constexpr int classify() {
  using U = std::remove_reference_t<T>;
  if constexpr (Kokkos::is_execution_space_v<U>) return 1;
  else if constexpr (Kokkos::is_memory_space_v<U>) return 2;
  else if constexpr (Kokkos::is_view_v<U>) return 3;
  else return 0;
}
template <class T>
int classify_forwarded(T&&) {
  return classify<T>();
}

TEST(Concepts, ConstQualifiedArgumentsAreClassified) {
  const Exec exec;
  const Mem mem;
  const Kokkos::View<int*, Mem> view("v", 1);
  EXPECT_EQ(classify_forwarded(exec), 1);
  EXPECT_EQ(classify_forwarded(mem), 2);
  EXPECT_EQ(classify_forwarded(view), 3);
  EXPECT_EQ(classify_forwarded(42), 0);
  EXPECT_EQ(classify_forwarded(Exec()), 1);
}

// Kokkos::InvalidType: the empty placeholder type Kokkos names in template argument lists.
static_assert(std::is_empty_v<Kokkos::InvalidType> && !std::is_void_v<Kokkos::InvalidType>);
static_assert(!Kokkos::is_execution_space_v<Kokkos::InvalidType> && !Kokkos::is_memory_space_v<Kokkos::InvalidType>);

TEST(Concepts, InvalidTypeIsAnOrdinaryEmptyType) {
  Kokkos::InvalidType a, b = a;
  (void)b;
  EXPECT_EQ(sizeof(Kokkos::InvalidType), 1u);
  EXPECT_TRUE((std::is_same_v<std::conditional_t<true, Kokkos::InvalidType, int>, Kokkos::InvalidType>));
}

}  // namespace

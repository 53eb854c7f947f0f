// The classification traits (is_execution_space, is_memory_space, is_space, is_device, is_view,
// is_memory_traits, is_array_layout, is_execution_policy, is_reducer, is_team_handle) on
// cv-qualified and reference types, answered as Kokkos 4.6 answers them: cv-qualifiers are seen
// through, references are not, and non-members stay false.  The detection idiom
// (Kokkos_DetectionIdiom.hpp, included first: it stands alone; Kokkos_Core.hpp provides it too).
#include <Kokkos_DetectionIdiom.hpp>

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
  Kokkos::InvalidType a;
  [[maybe_unused]] Kokkos::InvalidType b = a;  // copyable
  EXPECT_EQ(sizeof(Kokkos::InvalidType), 1u);
  EXPECT_TRUE((std::is_same_v<std::conditional_t<true, Kokkos::InvalidType, int>, Kokkos::InvalidType>));
}

// ---- the detection idiom ---------------------------------------------------------------------
template <class T>
using size_member_t = decltype(std::declval<const T&>().size());
template <class T>
using value_type_t = typename T::value_type;
template <class T, class U>
using sum_t = decltype(std::declval<T>() + std::declval<U>());

struct Sized {
  long size() const { return 3; }
};
struct Unsized {};

static_assert(std::is_same_v<Kokkos::is_detected<size_member_t, Sized>, std::true_type>);
static_assert(std::is_same_v<Kokkos::is_detected<size_member_t, Unsized>, std::false_type>);
static_assert(Kokkos::is_detected_v<value_type_t, Kokkos::View<int*, Mem>>);
static_assert(!Kokkos::is_detected_v<value_type_t, int>);
static_assert(Kokkos::is_detected_v<sum_t, int, double> && !Kokkos::is_detected_v<sum_t, int, Unsized>);

static_assert(std::is_same_v<Kokkos::detected_t<size_member_t, Sized>, long>);
static_assert(std::is_same_v<Kokkos::detected_t<size_member_t, Unsized>, Kokkos::nonesuch>);
static_assert(std::is_same_v<Kokkos::detected_t<sum_t, int, double>, double>);
static_assert(std::is_same_v<Kokkos::detected_or_t<int, size_member_t, Sized>, long>);
static_assert(std::is_same_v<Kokkos::detected_or_t<int, size_member_t, Unsized>, int>);

static_assert(Kokkos::is_detected_exact_v<long, size_member_t, Sized>);
static_assert(!Kokkos::is_detected_exact_v<int, size_member_t, Sized>);
static_assert(!Kokkos::is_detected_exact_v<Kokkos::nonesuch, size_member_t, Sized>);
static_assert(Kokkos::is_detected_convertible_v<int, size_member_t, Sized>);
static_assert(!Kokkos::is_detected_convertible_v<Unsized, size_member_t, Sized>);
static_assert(!Kokkos::is_detected_convertible_v<int, size_member_t, Unsized>);
static_assert(Kokkos::is_detected_exact<long, size_member_t, Sized>::value &&
              Kokkos::is_detected_convertible<int, size_member_t, Sized>::value);

// nonesuch: no value of it can exist, so it matches no real result.
static_assert(!std::is_default_constructible_v<Kokkos::nonesuch> && !std::is_destructible_v<Kokkos::nonesuch>);
static_assert(!std::is_copy_constructible_v<Kokkos::nonesuch> && !std::is_move_constructible_v<Kokkos::nonesuch>);
static_assert(!std::is_copy_assignable_v<Kokkos::nonesuch> && !std::is_move_assignable_v<Kokkos::nonesuch>);
static_assert(!std::is_aggregate_v<Kokkos::nonesuch>);

// The idiom picking an overload, as a library does with it.
template <class T>
long size_or_minus_one(const T& t) {
  if constexpr (Kokkos::is_detected_v<size_member_t, T>) {
    return long(t.size());
  } else {
    return -1;
  }
}

TEST(Concepts, DetectionIdiomChoosesByWhatATypeProvides) {
  EXPECT_EQ(size_or_minus_one(Sized()), 3);
  EXPECT_EQ(size_or_minus_one(Unsized()), -1);
  EXPECT_EQ(size_or_minus_one(Kokkos::View<int*, Mem>("v", 5)), 5);
}

}  // namespace

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

// Every cv-qualification of T gives `expected`; T& and const T& give false.
template <template <class> class Trait, class T>
constexpr bool cv_answers(bool expected) {
  return Trait<T>::value == expected && Trait<const T>::value == expected && Trait<volatile T>::value == expected &&
         Trait<const volatile T>::value == expected && !Trait<T&>::value && !Trait<const T&>::value;
}

template <class T>
using IsExec = Kokkos::is_execution_space<T>;
template <class T>
using IsMem = Kokkos::is_memory_space<T>;
template <class T>
using IsSpace = Kokkos::is_space<T>;
template <class T>
using IsDevice = Kokkos::is_device<T>;
template <class T>
using IsTraits = Kokkos::is_memory_traits<T>;
template <class T>
using IsLayout = Kokkos::is_array_layout<T>;
template <class T>
using IsPolicy = Kokkos::is_execution_policy<T>;
template <class T>
using IsReducer = Kokkos::is_reducer<T>;

static_assert(cv_answers<IsExec, Exec>(true) && cv_answers<IsExec, Mem>(false) && cv_answers<IsExec, int>(false));
static_assert(cv_answers<IsMem, Mem>(true) && cv_answers<IsMem, Exec>(false) && cv_answers<IsMem, Dev>(false));
static_assert(cv_answers<IsSpace, Exec>(true) && cv_answers<IsSpace, Mem>(true) && cv_answers<IsSpace, Dev>(true) &&
              cv_answers<IsSpace, Policy>(false));
static_assert(cv_answers<IsDevice, Dev>(true) && cv_answers<IsDevice, Exec>(false));
static_assert(cv_answers<IsTraits, Kokkos::MemoryManaged>(true) &&
              cv_answers<IsTraits, Kokkos::MemoryTraits<Kokkos::Unmanaged | Kokkos::Atomic>>(true) &&
              cv_answers<IsTraits, Mem>(false));
static_assert(cv_answers<IsLayout, Kokkos::LayoutLeft>(true) && cv_answers<IsLayout, Kokkos::LayoutStride>(true) &&
              cv_answers<IsLayout, Mem>(false));
static_assert(cv_answers<IsPolicy, Policy>(true) && cv_answers<IsPolicy, Team>(true) &&
              cv_answers<IsPolicy, Kokkos::MDRangePolicy<Kokkos::Rank<2>>>(true) && cv_answers<IsPolicy, Exec>(false));
static_assert(cv_answers<IsReducer, Kokkos::Sum<double>>(true) && cv_answers<IsReducer, Kokkos::MinLoc<int, int>>(true) &&
              cv_answers<IsReducer, double>(false));

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

}  // namespace

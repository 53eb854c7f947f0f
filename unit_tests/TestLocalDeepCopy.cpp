// Kokkos::Experimental::local_deep_copy, team and thread versions: copies and fills of Views of
// rank 1 to 7, contiguous (span walk) and not (layout mix, strided subviews).
#include "TestCommon.hpp"

#include <array>

namespace {

using Kokkos::Experimental::local_deep_copy;

template <class V>
std::size_t total(const V& v) {
  std::size_t n = 1;
  for (std::size_t r = 0; r < V::rank(); ++r) n *= v.extent(r);
  return n;
}

// Fills v(i...) with a value unique to the element, walking its data in any layout.
template <class V>
void number(const V& v) {
  for (std::size_t i = 0; i < v.span(); ++i) v.data()[i] = double(i) + 0.5;
}

template <class A, class B, std::size_t... R>
bool same_elements(const A& a, const B& b, std::index_sequence<R...>) {
  const std::size_t n = total(a);
  for (std::size_t i = 0; i < n; ++i) {
    if (Kokkos::Experimental::Impl::local_element(a, i, std::index_sequence<R...>{}) !=
        Kokkos::Experimental::Impl::local_element(b, i, std::index_sequence<R...>{}))
      return false;
  }
  return true;
}
template <class A, class B>
bool same_elements(const A& a, const B& b) {
  return same_elements(a, b, std::make_index_sequence<A::rank()>{});
}

template <class Space, class Dst, class Src>
void team_copy_and_check(const Dst& dst, const Src& src) {
  using Policy = Kokkos::TeamPolicy<Space>;
  number(src);
  Kokkos::parallel_for(Policy(1, Kokkos::AUTO), KOKKOS_LAMBDA(const typename Policy::member_type& team) {
    local_deep_copy(team, dst, src);
  });
  EXPECT_TRUE(same_elements(dst, src)) << "rank " << Dst::rank();
  Kokkos::parallel_for(Policy(1, Kokkos::AUTO), KOKKOS_LAMBDA(const typename Policy::member_type& team) {
    local_deep_copy(team, dst, 7.25);
  });
  bool filled = true;
  for (std::size_t i = 0; i < total(dst); ++i) filled = filled && Kokkos::Experimental::Impl::local_element(dst, i) == 7.25;
  EXPECT_TRUE(filled);
}

template <class Space, class Dst, class Src>
void thread_copy_and_check(const Dst& dst, const Src& src) {
  number(src);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, 1), KOKKOS_LAMBDA(int) { local_deep_copy(dst, src); });
  EXPECT_TRUE(same_elements(dst, src)) << "rank " << Dst::rank();
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, 1), KOKKOS_LAMBDA(int) { local_deep_copy(dst, -1.0); });
  bool filled = true;
  for (std::size_t i = 0; i < total(dst); ++i) filled = filled && Kokkos::Experimental::Impl::local_element(dst, i) == -1.0;
  EXPECT_TRUE(filled);
}

template <class Space>
struct LocalDeepCopy : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(LocalDeepCopy, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(LocalDeepCopy, TeamRanks1To3AndSeven) {
  using Space = TypeParam;
  using Right = Kokkos::LayoutRight;
  using Left = Kokkos::LayoutLeft;
  team_copy_and_check<Space>(Kokkos::View<double*, Right, Kokkos::HostSpace>("d", 37),
                             Kokkos::View<double*, Right, Kokkos::HostSpace>("s", 37));
  team_copy_and_check<Space>(Kokkos::View<double**, Right, Kokkos::HostSpace>("d", 5, 9),
                             Kokkos::View<double**, Left, Kokkos::HostSpace>("s", 5, 9));
  team_copy_and_check<Space>(Kokkos::View<double***, Left, Kokkos::HostSpace>("d", 3, 4, 5),
                             Kokkos::View<double***, Left, Kokkos::HostSpace>("s", 3, 4, 5));
  team_copy_and_check<Space>(Kokkos::View<double*******, Right, Kokkos::HostSpace>("d", 2, 1, 3, 2, 1, 2, 3),
                             Kokkos::View<double*******, Left, Kokkos::HostSpace>("s", 2, 1, 3, 2, 1, 2, 3));
}

TYPED_TEST(LocalDeepCopy, ThreadRanks1And2AndStridedSubview) {
  using Space = TypeParam;
  thread_copy_and_check<Space>(Kokkos::View<double*, Kokkos::HostSpace>("d", 11), Kokkos::View<double*, Kokkos::HostSpace>("s", 11));
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> big("big", 6, 8);
  auto column = Kokkos::subview(big, Kokkos::ALL, 3);  // stride 8
  thread_copy_and_check<Space>(column, Kokkos::View<double*, Kokkos::HostSpace>("s", 6));
  EXPECT_EQ(big(2, 3), -1.0);
  EXPECT_EQ(big(2, 4), 0.0);  // neighbours untouched
}

// Ranks 4 to 6 once (the code path is the same for every back end).
TEST(LocalDeepCopy, ThreadRanks4To6) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  using Left = Kokkos::LayoutLeft;
  thread_copy_and_check<Space>(Kokkos::View<double****, Kokkos::HostSpace>("d", 2, 3, 2, 3),
                               Kokkos::View<double****, Left, Kokkos::HostSpace>("s", 2, 3, 2, 3));
  thread_copy_and_check<Space>(Kokkos::View<double*****, Kokkos::HostSpace>("d", 2, 3, 1, 2, 2),
                               Kokkos::View<double*****, Kokkos::HostSpace>("s", 2, 3, 1, 2, 2));
  thread_copy_and_check<Space>(Kokkos::View<double******, Left, Kokkos::HostSpace>("d", 1, 2, 3, 2, 1, 2),
                               Kokkos::View<double******, Kokkos::HostSpace>("s", 1, 2, 3, 2, 1, 2));
}

TEST(LocalDeepCopy, EmptyViewsAreNoOps) {
  Kokkos::View<double*, Kokkos::HostSpace> none, some("some", 3);
  local_deep_copy(none, some);
  local_deep_copy(none, 1.0);
  local_deep_copy(some, none);
  EXPECT_EQ(some(0), 0.0);
  Kokkos::View<double*, Kokkos::HostSpace> zero("zero", 0), zero2("zero2", 0);
  local_deep_copy(zero, zero2);
}

TEST(LocalDeepCopyDeathTest, DifferentExtentsAbort) {
  Kokkos::View<double*, Kokkos::HostSpace> a("a", 3), b("b", 4);
  EXPECT_DEATH(local_deep_copy(a, b), "different extents");
}

}  // namespace

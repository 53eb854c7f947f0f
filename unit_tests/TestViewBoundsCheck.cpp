// Bounds checking of View accesses: forced on for this executable only.
#define KOKKOS_IMPL_FORCE_BOUNDS_CHECK
#include "TestCommon.hpp"

#include <vector>

namespace {

TEST(ViewBoundsCheckDeath, OperatorParen) {
  Kokkos::View<double*, Kokkos::HostSpace> x("x", 10);
  x(9) = 1;  // in bounds
  EXPECT_EQ(x(9), 1.0);
  EXPECT_DEATH(x(10) = 1, "Kokkos::View ERROR: out of bounds access label=\\(\"x\"\\) index 0 = 10 >= extent 10");
}

TEST(ViewBoundsCheckDeath, SecondIndexAndNegative) {
  Kokkos::View<int**, Kokkos::HostSpace> m("matrix", 3, 4);
  EXPECT_DEATH(m(1, 4) = 0, "label=\\(\"matrix\"\\) index 1 = 4 >= extent 4");
  EXPECT_DEATH(m(-1, 0) = 0, "label=\\(\"matrix\"\\) index 0 = -1 < 0");
  Kokkos::View<int*[3], Kokkos::HostSpace> s("static", 2);
  EXPECT_DEATH(s(0, 3) = 0, "label=\\(\"static\"\\) index 1 = 3 >= extent 3");
}

TEST(ViewBoundsCheckDeath, BracketAccessAndSubview) {
  Kokkos::View<int*, Kokkos::HostSpace> v("vec", 5);
  EXPECT_DEATH(v[5] = 0, "label=\\(\"vec\"\\) index 0 = 5 >= extent 5");
  EXPECT_DEATH(v.access(7) = 0, "label=\\(\"vec\"\\) index 0 = 7 >= extent 5");
  auto sub = Kokkos::subview(v, Kokkos::make_pair(1, 3));
  EXPECT_EQ(sub.extent(0), 2u);
  EXPECT_DEATH(sub(2) = 0, "label=\\(\"vec\"\\) index 0 = 2 >= extent 2");
  Kokkos::View<int*, Kokkos::HostSpace> empty;
  EXPECT_DEATH(empty(0) = 0, "index 0 = 0 >= extent 0");
  std::vector<int> storage(4);
  Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> u(storage.data(), 4);
  // The access is out of bounds on purpose: GCC sees it at compile time.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
  EXPECT_DEATH(u(4) = 0, "label=\\(\"\"\\) index 0 = 4 >= extent 4");
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
}

template <class Space>
class BoundsCheckSpace : public Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(BoundsCheckSpace, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(BoundsCheckSpace, InsideParallelFor) {
  using Space = TypeParam;
  Kokkos::View<int*, Space> v("inkernel", 8);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, 8), KOKKOS_LAMBDA(int i) { v(i) = i; });
  Space().fence();
  EXPECT_EQ(v(7), 7);
  EXPECT_DEATH(
      {
        Kokkos::parallel_for(
            Kokkos::RangePolicy<Space>(0, 9), KOKKOS_LAMBDA(int i) { v(i) = i; });
        Space().fence();
      },
      "label=\\(\"inkernel\"\\) index 0 = 8 >= extent 8");
}

}  // namespace

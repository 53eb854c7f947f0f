// Kokkos::Experimental::ScatterView: every operation x duplication x contribution on every back
// end, the defaults per back end, create_scatter_view, reset/reset_except, subview, resize and
// realloc, layouts with static extents, and misuse.
#include "TestCommon.hpp"

#include <Kokkos_ScatterView.hpp>

#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;

template <class Op>
double start_value() {
  if constexpr (std::is_same_v<Op, KE::ScatterSum>) return 5.0;
  else if constexpr (std::is_same_v<Op, KE::ScatterProd>) return 3.0;
  else if constexpr (std::is_same_v<Op, KE::ScatterMin>) return 1e9;
  else return -1e9;
}

// Item i lands in bin i % bins.  Sum: +1 in three spellings; Prod: x2 for every fifth item (exact
// in any order); Min/Max: the item's index.
template <class Op, class Access>
KOKKOS_INLINE_FUNCTION void scatter_item(const Access& a, int i, int bins) {
  if constexpr (std::is_same_v<Op, KE::ScatterSum>) {
    if (i % 3 == 0) a(i % bins)++;
    else if (i % 3 == 1) ++a(i % bins);
    else {
      a(i % bins) += 3.0;
      a(i % bins) -= 2.0;
    }
  } else if constexpr (std::is_same_v<Op, KE::ScatterProd>) {
    if (i % 5 == 0) a(i % bins) *= 2.0;
  } else {
    a(i % bins).update(double(i));
  }
}

template <class Op>
double expected_bin(int b, int n, int bins) {
  double v = start_value<Op>();
  for (int i = b; i < n; i += bins) {
    if constexpr (std::is_same_v<Op, KE::ScatterSum>) v += 1.0;
    else if constexpr (std::is_same_v<Op, KE::ScatterProd>) v *= (i % 5 == 0 ? 2.0 : 1.0);
    else if constexpr (std::is_same_v<Op, KE::ScatterMin>) v = std::fmin(v, double(i));
    else v = std::fmax(v, double(i));
  }
  return v;
}

template <class Space, class Op, class Dup, class Contrib>
void check_combination() {
  const int bins = 7, n = 3001;
  Kokkos::View<double*, Kokkos::LayoutRight, Space> dest("dest", bins);
  Kokkos::deep_copy(dest, start_value<Op>());
  KE::ScatterView<double*, Kokkos::LayoutRight, Space, Op, Dup, Contrib> sv(dest);
  ASSERT_TRUE(sv.is_allocated());
  Kokkos::parallel_for(
      "scatter", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
        auto a = sv.access();
        scatter_item<Op>(a, i, bins);
      });
  KE::contribute(dest, sv);
  Space().fence();
  for (int b = 0; b < bins; ++b) ASSERT_EQ(dest(b), expected_bin<Op>(b, n, bins)) << "bin " << b;
}

template <class Space, class Op>
void check_op() {
  check_combination<Space, Op, KE::ScatterDuplicated, KE::ScatterNonAtomic>();
  check_combination<Space, Op, KE::ScatterDuplicated, KE::ScatterAtomic>();
  check_combination<Space, Op, KE::ScatterNonDuplicated, KE::ScatterAtomic>();
  // Non-duplicated without atomics is correct only with one worker.
  if (Space().concurrency() == 1) check_combination<Space, Op, KE::ScatterNonDuplicated, KE::ScatterNonAtomic>();
}

template <class Space>
struct ScatterViewTyped : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(ScatterViewTyped, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(ScatterViewTyped, Sum) { check_op<TypeParam, KE::ScatterSum>(); }
TYPED_TEST(ScatterViewTyped, Prod) { check_op<TypeParam, KE::ScatterProd>(); }
TYPED_TEST(ScatterViewTyped, Min) { check_op<TypeParam, KE::ScatterMin>(); }
TYPED_TEST(ScatterViewTyped, Max) { check_op<TypeParam, KE::ScatterMax>(); }

// The default duplication of each back end, through create_scatter_view and a 2-D LayoutLeft
// View with a static extent (the duplicated storage turns it into a runtime one).
TYPED_TEST(ScatterViewTyped, DefaultsOnARank2LayoutLeftView) {
  using Space = TypeParam;
  const int rows = 13, n = 1000;
  Kokkos::View<int* [3], Kokkos::LayoutLeft, Space> dest("dest", rows);
  auto sv = KE::create_scatter_view(dest);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
        auto a = sv.access();
        a(i % rows, i % 3) += 1;
        a(i % rows, 2) += 2;
      });
  KE::contribute(dest, sv);
  std::vector<int> expect(rows * 3, 0);
  for (int i = 0; i < n; ++i) {
    expect[(i % rows) * 3 + i % 3] += 1;
    expect[(i % rows) * 3 + 2] += 2;
  }
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < 3; ++c) ASSERT_EQ(dest(r, c), expect[r * 3 + c]);
}

// The copy a worker writes is its own: every id a launch sees indexes one of the copies.
TYPED_TEST(ScatterViewTyped, WorkerIdsIndexTheCopies) {
  using Space = TypeParam;
  const int copies = Kokkos::Impl::Experimental::scatter_worker_count(Space());
  EXPECT_GE(copies, 1);
  Kokkos::View<int*, Space> seen("seen", copies + 1);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, 100 * copies), KOKKOS_LAMBDA(int) {
        const int id = Kokkos::Impl::Experimental::scatter_worker_id<Space>();
        Kokkos::atomic_inc(&seen(id >= 0 && id < copies ? id : copies));
      });
  Space().fence();
  EXPECT_EQ(seen(copies), 0) << "a worker id outside [0, copies)";
}

// Above Impl::Experimental::scatter_inline_work elements, reset and contribute are parallel_fors
// (below it they run on the calling thread); both give the same sums.
TYPED_TEST(ScatterViewTyped, LargeViewResetAndContributeInParallel) {
  using Space = TypeParam;
  const int bins = 3 * int(Kokkos::Impl::Experimental::scatter_inline_work) + 5, n = 4 * bins;
  Kokkos::View<int*, Space> dest("dest", bins);
  Kokkos::deep_copy(dest, 1);
  KE::ScatterView<int*, Kokkos::LayoutRight, Space, KE::ScatterSum, KE::ScatterDuplicated> sv(dest);
  for (int pass = 0; pass < 2; ++pass) {
    sv.reset();
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { sv.access()((i * 7) % bins) += 1; });
    KE::contribute(dest, sv);
  }
  Space().fence();
  for (int b = 0; b < bins; ++b) ASSERT_EQ(dest(b), 9) << b;
}

TEST(ScatterView, DefaultsPerBackEnd) {
  using Kokkos::Impl::Experimental::DefaultContribution;
  using Kokkos::Impl::Experimental::DefaultDuplication;
#if defined(KOKKOS_ENABLE_SERIAL)
  static_assert(std::is_same_v<DefaultDuplication<Kokkos::Serial>::type, KE::ScatterNonDuplicated>);
  static_assert(std::is_same_v<DefaultContribution<Kokkos::Serial, KE::ScatterNonDuplicated>::type, KE::ScatterNonAtomic>);
  static_assert(std::is_same_v<DefaultContribution<Kokkos::Serial, KE::ScatterDuplicated>::type, KE::ScatterNonAtomic>);
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  static_assert(std::is_same_v<DefaultDuplication<Kokkos::OpenMP>::type, KE::ScatterDuplicated>);
  static_assert(std::is_same_v<DefaultContribution<Kokkos::OpenMP, KE::ScatterDuplicated>::type, KE::ScatterNonAtomic>);
  static_assert(std::is_same_v<DefaultContribution<Kokkos::OpenMP, KE::ScatterNonDuplicated>::type, KE::ScatterAtomic>);
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  static_assert(std::is_same_v<DefaultDuplication<Kokkos::Threads>::type, KE::ScatterDuplicated>);
  static_assert(std::is_same_v<DefaultContribution<Kokkos::Threads, KE::ScatterDuplicated>::type, KE::ScatterNonAtomic>);
  static_assert(std::is_same_v<DefaultContribution<Kokkos::Threads, KE::ScatterNonDuplicated>::type, KE::ScatterAtomic>);
#endif
  Kokkos::View<double*, Kokkos::HostSpace> v("v", 4);
  auto a = KE::create_scatter_view(v);
  auto b = KE::create_scatter_view(KE::ScatterMax(), v);
  auto c = KE::create_scatter_view(KE::ScatterProd(), KE::ScatterNonDuplicated(), KE::ScatterAtomic(), v);
  auto d = KE::create_scatter_view<KE::ScatterMin, KE::ScatterDuplicated, KE::ScatterAtomic>(v);
  using E = Kokkos::DefaultHostExecutionSpace;
  static_assert(std::is_same_v<decltype(a), KE::ScatterView<double*, Kokkos::LayoutRight, Kokkos::Device<E, Kokkos::HostSpace>>>);
  static_assert(std::is_same_v<decltype(b), KE::ScatterView<double*, Kokkos::LayoutRight, Kokkos::Device<E, Kokkos::HostSpace>,
                                                            KE::ScatterMax>>);
  static_assert(std::is_same_v<decltype(c), KE::ScatterView<double*, Kokkos::LayoutRight, Kokkos::Device<E, Kokkos::HostSpace>,
                                                            KE::ScatterProd, KE::ScatterNonDuplicated, KE::ScatterAtomic>>);
  static_assert(decltype(d)::is_duplicated);
  static_assert(KE::is_scatter_view_v<decltype(d)> && !KE::is_scatter_view_v<decltype(v)>);
  // A non-duplicated ScatterView is the View itself.
  EXPECT_EQ(c.subview().data(), v.data());
  EXPECT_NE(d.subview().data(), v.data());
  EXPECT_EQ(d.subview().extent(0), 4u);
}

TEST(ScatterView, ResetAndResetExcept) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  Kokkos::View<double*, Space> v("v", 5);
  Kokkos::deep_copy(v, 2.0);
  KE::ScatterView<double*, Kokkos::LayoutRight, Space, KE::ScatterSum, KE::ScatterNonDuplicated> nd(v);
  nd.reset_except(v);  // aliases v: v keeps its contents
  EXPECT_EQ(v(3), 2.0);
  nd.reset();  // resets the View it aliases
  EXPECT_EQ(v(3), 0.0);

  KE::ScatterView<double*, Kokkos::LayoutRight, Space, KE::ScatterMin, KE::ScatterDuplicated> dup(v);
  auto first = dup.subview();
  EXPECT_EQ(first(0), Kokkos::reduction_identity<double>::min());
  first(1) = -4.0;
  dup.reset_except(first);  // keeps the first copy
  EXPECT_EQ(first(1), -4.0);
  // Contributing into the first copy combines the others into it.
  KE::contribute(first, dup);
  EXPECT_EQ(first(1), -4.0);
  dup.reset();
  EXPECT_EQ(first(1), Kokkos::reduction_identity<double>::min());
}

TEST(ScatterView, ContributionOverriddenToAtomicAtAccess) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  Kokkos::View<long*, Space> v("v", 3);
  KE::ScatterView<long*, Kokkos::LayoutRight, Space, KE::ScatterSum, KE::ScatterNonDuplicated, KE::ScatterNonAtomic> sv(v);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, 30000), KOKKOS_LAMBDA(int i) {
        auto a = sv.access<KE::ScatterAtomic>();
        a(i % 3) += 1;
      });
  KE::contribute(v, sv);
  Space().fence();
  for (int b = 0; b < 3; ++b) EXPECT_EQ(v(b), 10000);
}

TEST(ScatterView, LabelledAllocationResizeRealloc) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  using SV = KE::ScatterView<int*, Kokkos::LayoutRight, Space, KE::ScatterSum, KE::ScatterDuplicated>;
  SV sv("counts", 4);
  EXPECT_TRUE(sv.is_allocated());
  EXPECT_EQ(sv.subview().extent(0), 4u);
  sv.resize(9);
  EXPECT_EQ(sv.subview().extent(0), 9u);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, 900), KOKKOS_LAMBDA(int i) { sv.access()(i % 9) += 1; });
  Kokkos::View<int*, Space> out("out", 9);
  sv.contribute_into(out);
  for (int b = 0; b < 9; ++b) EXPECT_EQ(out(b), 100);
  Kokkos::realloc(sv, 2);
  sv.reset();
  EXPECT_EQ(sv.subview().extent(0), 2u);
  Kokkos::View<int*, Space> out2("out2", 2);
  KE::contribute(out2, sv);
  EXPECT_EQ(out2(0), 0);

  KE::ScatterView<int*, Kokkos::LayoutRight, Space, KE::ScatterSum, KE::ScatterNonDuplicated> nd(
      Kokkos::view_alloc(Space(), "nd"), 3);
  EXPECT_EQ(nd.subview().label(), "nd");
  Kokkos::resize(nd, 6);
  EXPECT_EQ(nd.subview().extent(0), 6u);
}

TEST(ScatterView, EmptyAndMisuse) {
  KE::ScatterView<double*> none;
  EXPECT_FALSE(none.is_allocated());
  Kokkos::View<double*, Kokkos::HostSpace> empty("empty", 0);
  auto sv = KE::create_scatter_view(empty);
  KE::contribute(empty, sv);  // nothing to combine
  Kokkos::View<double*, Kokkos::HostSpace> one("one", 1);
  auto sv1 = KE::create_scatter_view<KE::ScatterSum, KE::ScatterDuplicated, KE::ScatterNonAtomic>(one);
  Kokkos::View<double*, Kokkos::HostSpace> wrong("wrong", 2);
  EXPECT_THROW(KE::contribute(wrong, sv1), std::runtime_error);
}

}  // namespace

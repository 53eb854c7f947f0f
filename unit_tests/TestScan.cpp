// parallel_scan over RangePolicy: inclusive/exclusive prefix sums against a sequential
// reference, totals, custom init/join, work tags, value-type deduction; on every back end
// (results written to Views of the space's memory and read back through host mirrors).
#include "TestCommon.hpp"

#include <cstdint>
#include <limits>

namespace {

using I64 = std::int64_t;
const I64 kSizes[] = {0, 1, 2, 3, 17, 1000, 100003};

template <class Space>
struct Scan : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(Scan, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

using Kokkos::Test::filled_view;
using Kokkos::Test::to_host;

KOKKOS_INLINE_FUNCTION I64 input(I64 i) { return (i * 31) % 17 - 5; }

// Writes the exclusive and the inclusive prefix of input() at each index.
template <class Space>
struct PrefixSums {
  using value_type = I64;
  I64* exclusive;
  I64* inclusive;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, I64& update, const bool final) const {
    if (final) exclusive[i] = update;
    update += input(i);
    if (final) inclusive[i] = update;
  }
};

TYPED_TEST(Scan, InclusiveAndExclusiveMatchSequential) {
  for (I64 n : kSizes) {
    auto d_ex = filled_view<TypeParam>(n + 1, I64(-777)), d_in = filled_view<TypeParam>(n + 1, I64(-777));
    Kokkos::parallel_scan("prefix", Kokkos::RangePolicy<TypeParam>(0, n), PrefixSums<TypeParam>{d_ex.data(), d_in.data()});
    const auto ex = to_host(d_ex), in = to_host(d_in);
    I64 run = 0;
    for (I64 i = 0; i < n; ++i) {
      ASSERT_EQ(ex(i), run) << "n=" << n << " i=" << i;
      run += input(i);
      ASSERT_EQ(in(i), run) << "n=" << n << " i=" << i;
    }
    EXPECT_EQ(ex(n), -777) << "wrote outside the range";
    EXPECT_EQ(in(n), -777) << "wrote outside the range";
  }
}

TYPED_TEST(Scan, WithTotal) {
  for (I64 n : kSizes) {
    auto ex = filled_view<TypeParam>(n + 1, I64(0)), in = filled_view<TypeParam>(n + 1, I64(0));
    I64 total = -1;
    Kokkos::parallel_scan(Kokkos::RangePolicy<TypeParam>(0, n), PrefixSums<TypeParam>{ex.data(), in.data()}, total);
    I64 expect = 0;
    for (I64 i = 0; i < n; ++i) expect += input(i);
    EXPECT_EQ(total, expect) << n;
    Kokkos::View<I64, Kokkos::HostSpace> vtotal("total");
    vtotal() = -1;
    Kokkos::parallel_scan("into view", Kokkos::RangePolicy<TypeParam>(0, n),
                          PrefixSums<TypeParam>{ex.data(), in.data()}, vtotal);
    TypeParam().fence();
    EXPECT_EQ(vtotal(), expect) << n;
  }
}

// Every index sees final == true exactly once, whatever the number of workers.
TYPED_TEST(Scan, FinalPassVisitsEachIndexOnce) {
  const I64 n = 10007;
  auto d_finals = filled_view<TypeParam>(n, 0);
  Kokkos::parallel_scan(Kokkos::RangePolicy<TypeParam>(0, n), KOKKOS_LAMBDA(I64 i, int& update, const bool final) {
    if (final) Kokkos::atomic_add(&d_finals(i), 1);
    update += 1;
  });
  const auto finals = to_host(d_finals);
  for (I64 i = 0; i < n; ++i) ASSERT_EQ(finals(i), 1) << i;
}

// Running maximum: custom init (lowest) and join (max); not a sum.
struct RunningMax {
  using value_type = double;
  double* out;
  KOKKOS_INLINE_FUNCTION static double x(I64 i) { return double((i * 7919) % 1000) - double(i % 3) * 2000.0; }
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, double& update, const bool final) const {
    if (x(i) > update) update = x(i);
    if (final) out[i] = update;
  }
  KOKKOS_INLINE_FUNCTION void init(double& v) const { v = std::numeric_limits<double>::lowest(); }
  KOKKOS_INLINE_FUNCTION void join(double& dst, const double& src) const {
    if (src > dst) dst = src;
  }
};

TYPED_TEST(Scan, CustomInitAndJoin) {
  for (I64 n : kSizes) {
    auto d_out = filled_view<TypeParam>(n, 0.0);
    double total = 0;
    Kokkos::parallel_scan(Kokkos::RangePolicy<TypeParam>(0, n), RunningMax{d_out.data()}, total);
    const auto out = to_host(d_out);
    double run = std::numeric_limits<double>::lowest();
    for (I64 i = 0; i < n; ++i) {
      if (RunningMax::x(i) > run) run = RunningMax::x(i);
      ASSERT_EQ(out(i), run) << "n=" << n << " i=" << i;
    }
    EXPECT_EQ(total, run) << n;
  }
}

// Value type deduced from operator()'s update argument; integral count (the default space);
// doubles; the label last.
TEST(ScanDefaultSpace, DeducedValueTypeAndCountForms) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  const I64 n = 5000;
  Kokkos::View<double*> out("out", n);
  Kokkos::parallel_scan(n, KOKKOS_LAMBDA(I64 i, double& update, const bool final) {
    update += 0.5 * double(i);
    if (final) out(i) = update;
  });
  const auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (I64 i = 0; i < n; ++i) ASSERT_EQ(h_out(i), 0.25 * double(i) * double(i + 1)) << i;

  Kokkos::View<int*> ints("ints", 100);
  Kokkos::parallel_scan(std::size_t(100), KOKKOS_LAMBDA(I64 i, int& update, const bool final) {
    if (final) ints(i) = update;
    update += 1;
  }, "label last");
  const auto h_ints = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ints);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(h_ints(i), i);
}

// An offset range, the value type deduced.
TYPED_TEST(Scan, OffsetRangeTotal) {
  I64 total = 0;
  Kokkos::parallel_scan(Kokkos::RangePolicy<TypeParam>(-50, 50),
                        KOKKOS_LAMBDA(I64 i, I64& update, const bool) { update += i; }, total);
  EXPECT_EQ(total, -50);
}

struct TagA {};
struct TagB {};
struct TaggedScan {
  I64* out;
  KOKKOS_INLINE_FUNCTION void operator()(TagA, I64 i, I64& update, const bool final) const {
    update += i;
    if (final) out[i] = update;
  }
  KOKKOS_INLINE_FUNCTION void operator()(TagB, I64 i, I64& update, const bool final) const {
    update += 2 * i;
    if (final) out[i] = update;
  }
};

TYPED_TEST(Scan, WorkTags) {
  const I64 n = 1000;
  auto out = filled_view<TypeParam>(n, I64(0));
  I64 total = 0;
  Kokkos::parallel_scan(Kokkos::RangePolicy<TypeParam, TagA>(0, n), TaggedScan{out.data()}, total);
  const auto a = to_host(out);
  for (I64 i = 0; i < n; ++i) ASSERT_EQ(a(i), i * (i + 1) / 2);
  EXPECT_EQ(total, n * (n - 1) / 2);
  Kokkos::parallel_scan(Kokkos::RangePolicy<TagB, TypeParam>(0, n), TaggedScan{out.data()});
  const auto b = to_host(out);
  for (I64 i = 0; i < n; ++i) ASSERT_EQ(b(i), i * (i + 1));
}

// A struct value: a scan of (count, sum) pairs with a custom join.
struct Pair {
  I64 count;
  I64 sum;
};
struct PairScan {
  using value_type = Pair;
  Pair* out;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, Pair& u, const bool final) const {
    if (i % 3 == 0) {
      u.count += 1;
      u.sum += i;
    }
    if (final) out[i] = u;
  }
  KOKKOS_INLINE_FUNCTION void init(Pair& v) const { v = Pair{0, 0}; }
  KOKKOS_INLINE_FUNCTION void join(Pair& dst, const Pair& src) const {
    dst.count += src.count;
    dst.sum += src.sum;
  }
};

TYPED_TEST(Scan, StructValue) {
  const I64 n = 30001;
  auto d_out = filled_view<TypeParam>(n, Pair{0, 0});
  Pair total{-1, -1};
  Kokkos::parallel_scan(Kokkos::RangePolicy<TypeParam>(0, n), PairScan{d_out.data()}, total);
  const auto out = to_host(d_out);
  Pair run{0, 0};
  for (I64 i = 0; i < n; ++i) {
    if (i % 3 == 0) run.count += 1, run.sum += i;
    ASSERT_EQ(out(i).count, run.count) << i;
    ASSERT_EQ(out(i).sum, run.sum) << i;
  }
  EXPECT_EQ(total.count, run.count);
  EXPECT_EQ(total.sum, run.sum);
}

}  // namespace

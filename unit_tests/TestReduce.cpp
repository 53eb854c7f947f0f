// parallel_reduce over RangePolicy: result kinds, functor-defined reductions, array
// reductions, work tags, schedules, several results, bad input; on every back end.
#include "TestCommon.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace {

template <class Space>
struct Reduce : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(Reduce, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

using I64 = std::int64_t;

const I64 kSizes[] = {0, 1, 2, 1000, 1000003};

I64 sum_i(I64 n) { return n * (n - 1) / 2; }
I64 sum_ii(I64 n) { return (n - 1) * n * (2 * n - 1) / 6; }

template <class Space, class Schedule>
void check_sums(I64 n, int chunk) {
  using Policy = Kokkos::RangePolicy<Space, Schedule>;
  Policy policy(0, n);
  if (chunk > 0) policy.set_chunk_size(chunk);

  I64 si = -1, sii = -1;
  Kokkos::parallel_reduce("sum_i", policy, KOKKOS_LAMBDA(I64 i, I64 & v) { v += i; }, si);
  Kokkos::parallel_reduce("sum_ii", policy, KOKKOS_LAMBDA(I64 i, I64 & v) { v += i * i; }, sii);
  EXPECT_EQ(si, sum_i(n)) << "n=" << n;
  EXPECT_EQ(sii, sum_ii(n)) << "n=" << n;

  // Integer-valued doubles stay exact while every partial sum is below 2^53.
  double di = -1, dii = -1;
  Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(I64 i, double& v) { v += double(i); }, di);
  EXPECT_EQ(di, double(sum_i(n))) << "n=" << n;
  if (n <= 100000) {
    Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(I64 i, double& v) { v += double(i) * double(i); }, dii);
    EXPECT_EQ(dii, double(sum_ii(n))) << "n=" << n;
  }
}

TYPED_TEST(Reduce, SumsStaticSchedule) {
  for (I64 n : kSizes) check_sums<TypeParam, Kokkos::Schedule<Kokkos::Static>>(n, 0);
}

TYPED_TEST(Reduce, SumsDynamicSchedule) {
  for (I64 n : kSizes)
    for (int chunk : {0, 1, 13, 5000}) check_sums<TypeParam, Kokkos::Schedule<Kokkos::Dynamic>>(n, chunk);
}

TYPED_TEST(Reduce, OffsetAndNegativeRanges) {
  I64 s = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(-500, 1500), KOKKOS_LAMBDA(I64 i, I64 & v) { v += i; }, s);
  // -500..1499 = (0..1499) - (1..500)
  EXPECT_EQ(s, sum_i(1500) - (500 * 501) / 2);
  int si = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam, Kokkos::IndexType<int>>(10, 20),
                          KOKKOS_LAMBDA(int i, int& v) { v += i; }, si);
  EXPECT_EQ(si, 145);
}

TEST(ReduceDefaultSpace, IntegralCountForm) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  I64 s = 0;
  Kokkos::parallel_reduce(1000, KOKKOS_LAMBDA(I64 i, I64 & v) { v += i; }, s);
  EXPECT_EQ(s, sum_i(1000));
  Kokkos::parallel_reduce("labelled", std::size_t(10), KOKKOS_LAMBDA(I64 i, I64 & v) { v += i; }, s);
  EXPECT_EQ(s, 45);
  Kokkos::parallel_reduce(0, KOKKOS_LAMBDA(I64 i, I64 & v) { v += i; }, s);
  EXPECT_EQ(s, 0);
}

// The result is overwritten, never accumulated into.
TYPED_TEST(Reduce, ResultIsOverwritten) {
  double s = 1e9;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 4), KOKKOS_LAMBDA(I64 i, double& v) { v += i; }, s);
  EXPECT_EQ(s, 6.0);
}

TYPED_TEST(Reduce, IntoRankZeroView) {
  Kokkos::View<double, Kokkos::HostSpace> result("result");
  result() = -7;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 1001), KOKKOS_LAMBDA(I64 i, double& v) { v += i; },
                          result);
  EXPECT_EQ(result(), double(sum_i(1001)));
  // A temporary View works too: it shares the allocation.
  Kokkos::View<I64, Kokkos::HostSpace> r2("r2");
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 10), KOKKOS_LAMBDA(I64 i, I64 & v) { v += i; },
                          Kokkos::View<I64, Kokkos::HostSpace>(r2));
  EXPECT_EQ(r2(), 45);
}

TYPED_TEST(Reduce, IntoReducerWithView) {
  Kokkos::View<I64, Kokkos::HostSpace> result("result");
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 1000),
                          KOKKOS_LAMBDA(I64 i, I64 & v) { v = (i % 97 > v ? i % 97 : v); },
                          Kokkos::Max<I64>(result));
  EXPECT_EQ(result(), 96);
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 1000), KOKKOS_LAMBDA(I64 i, I64 & v) { v += i; },
                          Kokkos::Sum<I64, Kokkos::HostSpace>(result));
  EXPECT_EQ(result(), sum_i(1000));
}

// ---- functor-defined reductions --------------------------------------------------------------

struct Stats {
  double sum;
  I64 count;
  I64 max;
};

// value_type + init + join + final: the mean of the odd indices, and the largest one.
struct OddStats {
  using value_type = Stats;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, value_type& v) const {
    if (i % 2 == 1) {
      v.sum += double(i);
      v.count += 1;
      if (i > v.max) v.max = i;
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    v.sum = 0;
    v.count = 0;
    v.max = -1;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    dst.sum += src.sum;
    dst.count += src.count;
    if (src.max > dst.max) dst.max = src.max;
  }
  KOKKOS_INLINE_FUNCTION void final(value_type& v) const {
    if (v.count > 0) v.sum /= double(v.count);
  }
};

TYPED_TEST(Reduce, StructWithInitJoinFinal) {
  for (I64 n : {I64(0), I64(1), I64(2), I64(1000), I64(100001)}) {
    Stats s{-1, -1, -100};
    Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, n), OddStats{}, s);
    const I64 odd = n / 2;
    EXPECT_EQ(s.count, odd) << n;
    EXPECT_EQ(s.max, odd > 0 ? 2 * odd - 1 : -1) << n;
    EXPECT_EQ(s.sum, odd > 0 ? double(odd * odd) / double(odd) : 0.0) << n;  // mean of 1,3,..: odd
  }
  Kokkos::View<Stats, Kokkos::HostSpace> v("v");
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 10), OddStats{}, v);
  EXPECT_EQ(v().count, 5);
  EXPECT_EQ(v().sum, 5.0);
}

// The old volatile join signature and a final that scales; no init (value-initialised to 0).
struct ScaledSum {
  using value_type = double;
  double scale;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, double& v) const { v += double(i); }
  KOKKOS_INLINE_FUNCTION void join(volatile double& dst, const volatile double& src) const { dst = dst + src; }
  KOKKOS_INLINE_FUNCTION void final(double& v) const { v *= scale; }
};

TYPED_TEST(Reduce, VolatileJoinAndScalingFinal) {
  double s = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 1000), ScaledSum{0.5}, s);
  EXPECT_EQ(s, double(sum_i(1000)) / 2);
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 0), ScaledSum{0.5}, s);
  EXPECT_EQ(s, 0.0);
}

// A product reduction through functor init/join on an empty range yields init, then final.
struct ProductPlusOne {
  using value_type = I64;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, I64& v) const { v *= (i % 3 == 0 ? 2 : 1); }
  KOKKOS_INLINE_FUNCTION void init(I64& v) const { v = 1; }
  KOKKOS_INLINE_FUNCTION void join(I64& dst, const I64& src) const { dst *= src; }
  KOKKOS_INLINE_FUNCTION void final(I64& v) const { v += 1; }
};

TYPED_TEST(Reduce, EmptyRangeGivesInitThenFinal) {
  I64 p = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(5, 5), ProductPlusOne{}, p);
  EXPECT_EQ(p, 2);
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 60), ProductPlusOne{}, p);
  EXPECT_EQ(p, (I64(1) << 20) + 1);
}

// No result argument: the functor names its value type and writes the result in final().  final()
// runs where the reduction runs (on the device for Cuda), so it writes host memory that execution
// space reaches (pinned for Cuda); parallel_reduce returns only once final() has run (it fences).
template <class ExecSpace>
using FinalResultSpace = std::conditional_t<Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible,
                                            Kokkos::HostSpace, Kokkos::SharedHostPinnedSpace>;
template <class ResultSpace>
struct WritesInFinal {
  using value_type = I64;
  Kokkos::View<I64, ResultSpace> out;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, I64& v) const { v += i; }
  KOKKOS_INLINE_FUNCTION void final(I64& v) const { out() = v; }
};
// Value type deduced from operator()'s argument.
template <class ResultSpace>
struct DeducedWritesInFinal {
  Kokkos::View<double, ResultSpace> out;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, double& v) const { v += 2.0 * double(i); }
  KOKKOS_INLINE_FUNCTION void final(double& v) const { out() = v; }
};

TYPED_TEST(Reduce, WithoutResultArgument) {
  using ResultSpace = FinalResultSpace<TypeParam>;
  Kokkos::View<I64, ResultSpace> out("out");
  Kokkos::View<double, ResultSpace> dout("dout");
  for (I64 n : {I64(0), I64(100), I64(1000003)}) {
    out() = -1;
    Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, n), WritesInFinal<ResultSpace>{out});
    EXPECT_EQ(out(), sum_i(n)) << "n " << n;
    dout() = -1;
    Kokkos::parallel_reduce("no result", Kokkos::RangePolicy<TypeParam>(0, n), DeducedWritesInFinal<ResultSpace>{dout});
    EXPECT_EQ(dout(), 2.0 * double(sum_i(n))) << "n " << n;
  }
}

// ---- array reductions ----------------------------------------------------------------------

// Column k accumulates (k + 1) * i; value_count is only known at run time.
struct ColumnSums {
  using value_type = I64[];
  int value_count;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, I64* v) const {
    for (int k = 0; k < value_count; ++k) v[k] += (k + 1) * i;
  }
};

// The same with init/join/final of its own: init to k, final negates.
struct ColumnSumsCustom {
  using value_type = I64[];
  int value_count;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, value_type v) const {
    for (int k = 0; k < value_count; ++k) v[k] += (k + 1) * i;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type v) const {
    for (int k = 0; k < value_count; ++k) v[k] = 0;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type dst, const value_type src) const {
    for (int k = 0; k < value_count; ++k) dst[k] += src[k];
  }
  KOKKOS_INLINE_FUNCTION void final(value_type v) const {
    for (int k = 0; k < value_count; ++k) v[k] = -v[k];
  }
};

TYPED_TEST(Reduce, ArrayReductions) {
  for (int count : {1, 3, 17}) {
    for (I64 n : {I64(0), I64(1), I64(1000), I64(100003)}) {
      Kokkos::View<I64*, Kokkos::HostSpace> view("sums", count);
      Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, n), ColumnSums{count}, view);
      std::vector<I64> raw(count + 1, -99);
      Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, n), ColumnSumsCustom{count}, raw.data());
      for (int k = 0; k < count; ++k) {
        EXPECT_EQ(view(k), (k + 1) * sum_i(n)) << "count " << count << " n " << n << " k " << k;
        EXPECT_EQ(raw[k], -(k + 1) * sum_i(n)) << "count " << count << " n " << n << " k " << k;
      }
      EXPECT_EQ(raw[count], -99) << "wrote past value_count";
    }
  }
  I64 fixed[3] = {0, 0, 0};
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 10), ColumnSums{3}, fixed);
  EXPECT_EQ(fixed[2], 135);
}

TYPED_TEST(Reduce, ArrayResultTooSmallThrows) {
  Kokkos::View<I64*, Kokkos::HostSpace> view("small", 2);
  try {
    Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 10), ColumnSums{3}, view);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("extent 2 but the reduction has value_count 3"), std::string::npos)
        << e.what();
  }
  I64 fixed[2];
  EXPECT_THROW(Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 10), ColumnSums{3}, fixed),
               std::runtime_error);
}

// A rank-1 View result with a functor without value_type: the View's extent is the count.
TYPED_TEST(Reduce, ArrayLengthFromView) {
  Kokkos::View<double*, Kokkos::HostSpace> view("v", 4);
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<TypeParam>(0, 100),
      KOKKOS_LAMBDA(I64 i, double* v) {
        for (int k = 0; k < 4; ++k) v[k] += double(i * k);
      },
      view);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(view(k), double(sum_i(100) * k));
}

// ---- work tags, schedules, both operators -----------------------------------------------------

struct TagSum {};
struct TagProduct {};
// Under TagProduct the functor's tagged init/join/final make it a product reduction; the
// untagged defaults (0 and +=) would give 0.
struct Tagged {
  using value_type = I64;
  KOKKOS_INLINE_FUNCTION void operator()(TagSum, I64 i, I64& v) const { v += i; }
  KOKKOS_INLINE_FUNCTION void operator()(TagProduct, I64 i, I64& v) const {
    if (i < 10) v *= 2;
  }
  KOKKOS_INLINE_FUNCTION void init(TagProduct, I64& v) const { v = 1; }
  KOKKOS_INLINE_FUNCTION void join(TagProduct, I64& dst, const I64& src) const { dst *= src; }
  KOKKOS_INLINE_FUNCTION void final(TagProduct, I64& v) const { v = -v; }
};

TYPED_TEST(Reduce, WorkTags) {
  I64 s = 0, p = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam, TagSum>(0, 100), Tagged{}, s);
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam, TagProduct>(0, 100), Tagged{}, p);
  EXPECT_EQ(s, sum_i(100));
  EXPECT_EQ(p, -1024);
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TagProduct, TypeParam, Kokkos::Schedule<Kokkos::Dynamic>>(0, 100),
                          Tagged{}, p);
  EXPECT_EQ(p, -1024);
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam, TagProduct>(0, 0), Tagged{}, p);
  EXPECT_EQ(p, -1);
}

struct ForAndReduce {
  int* out;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i) const { out[i] = int(i) * 2; }
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, I64& v) const { v += out[i]; }
};

TYPED_TEST(Reduce, FunctorWithBothOperators) {
  Kokkos::View<int*, typename TypeParam::memory_space> data("data", 1000);
  ForAndReduce f{data.data()};
  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(0, 1000), f);
  I64 s = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 1000), f, s);
  EXPECT_EQ(s, 2 * sum_i(1000));
}

// ---- several results at once -----------------------------------------------------------------

TYPED_TEST(Reduce, SeveralResults) {
  I64 sum = 0;
  double mx = 0;
  Kokkos::View<int, Kokkos::HostSpace> mn("min");
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<TypeParam>(0, 1000),
      KOKKOS_LAMBDA(I64 i, I64 & s, double& m, int& n) {
        s += i;
        const double x = double((i * 37) % 1000);
        if (x > m) m = x;
        const int y = int((i * 13) % 1000) - 500;
        if (y < n) n = y;
      },
      sum, Kokkos::Max<double>(mx), Kokkos::Min<int>(mn));
  EXPECT_EQ(sum, sum_i(1000));
  EXPECT_EQ(mx, 999.0);
  EXPECT_EQ(mn(), -500);

  // Empty range: each result is its reducer's identity.
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<TypeParam>(0, 0), KOKKOS_LAMBDA(I64, I64 & s, double& m) {
        s += 1;
        m = 1;
      },
      sum, Kokkos::Max<double>(mx));
  EXPECT_EQ(sum, 0);
  EXPECT_EQ(mx, Kokkos::reduction_identity<double>::max());
}

struct TagMany {};
// At namespace scope: a kernel's functor type may not be local to a host function (nvcc).
struct SumAndCountTagged {
  KOKKOS_INLINE_FUNCTION void operator()(TagMany, I64 i, I64& x, I64& y) const {
    x += i;
    y += 1;
  }
};
TYPED_TEST(Reduce, SeveralResultsWithTag) {
  I64 a = 0, b = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam, TagMany>(0, 50), SumAndCountTagged{}, a, b);
  EXPECT_EQ(a, sum_i(50));
  EXPECT_EQ(b, 50);
}

// ---- determinism and nesting ---------------------------------------------------------------------

TYPED_TEST(Reduce, StaticScheduleIsBitwiseReproducible) {
  auto run = [] {
    double s = 0;
    Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 200001),
                            KOKKOS_LAMBDA(I64 i, double& v) { v += 1.0 / double(i + 1); }, s);
    return s;
  };
  const double first = run();
  for (int k = 0; k < 5; ++k) EXPECT_EQ(run(), first);
  EXPECT_NEAR(first, std::log(200001.0) + 0.5772156649, 1e-5);
}

// Host back ends only (no device back end runs a top-level pattern inside a kernel): a
// reduction inside a reduction's functor runs on the calling worker, with its own scratch.
template <class Space>
struct ReduceOnHost : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(ReduceOnHost, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(ReduceOnHost, NestedReduction) {
  I64 total = 0;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<TypeParam>(0, 20),
      [=](I64 i, I64& v) {
        I64 inner = 0;
        Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, i), [=](I64 j, I64& w) { w += j; }, inner);
        v += inner;
      },
      total);
  I64 expect = 0;
  for (I64 i = 0; i < 20; ++i) expect += sum_i(i);
  EXPECT_EQ(total, expect);
}

}  // namespace

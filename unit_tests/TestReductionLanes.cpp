// Reductions in four interleaved lanes (Host/Kokkos_HostReductionLanes.hpp): which functors and
// reducers get them, the exact order of their additions (checked bit for bit against a model of
// the lanes, with values whose sum depends on the order), and that everything else keeps one
// running value.  On every host back end.
#include "TestCommon.hpp"

#include <Kokkos_StdAlgorithms_Fused.hpp>
#include <Host/Kokkos_HostReductionLanes.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using I64 = std::int64_t;
using Array = Kokkos::View<double*, Kokkos::HostSpace>;

template <class Space>
struct ReductionLanes : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(ReductionLanes, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// Sums v(i - first): declares that it only accumulates, so it reduces in lanes.
struct LaneSum {
  static constexpr bool accumulates_only = true;
  Array v;
  I64 first;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, double& acc) const { acc += v(i - first); }
};
// The same body without the declaration: one running value.
struct PlainSum {
  Array v;
  I64 first;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, double& acc) const { acc += v(i - first); }
};
// Declares it accumulates only but brings its own join: order matters, so no lanes.
struct LaneSumWithJoin : LaneSum {
  KOKKOS_INLINE_FUNCTION void join(double& dst, const double& src) const { dst += src; }
};
struct LaneSumWithInit : LaneSum {
  KOKKOS_INLINE_FUNCTION void init(double& v) const { v = 0; }
};
struct LaneMinLoc {
  static constexpr bool accumulates_only = true;
  KOKKOS_INLINE_FUNCTION void operator()(I64, Kokkos::MinLoc<double, I64>::value_type&) const {}
};
struct LaneArraySum {
  static constexpr bool accumulates_only = true;
  using value_type = double[];
  int value_count = 2;
  KOKKOS_INLINE_FUNCTION void operator()(I64, double*) const {}
};

using Kokkos::Impl::FunctorReducer;
using Kokkos::Impl::ReducerAdapter;
using Kokkos::Impl::reduces_in_lanes;
static_assert(reduces_in_lanes<LaneSum, FunctorReducer<LaneSum, double>>);
static_assert(reduces_in_lanes<LaneSum, FunctorReducer<LaneSum, int>>);
static_assert(!reduces_in_lanes<PlainSum, FunctorReducer<PlainSum, double>>);
static_assert(!reduces_in_lanes<LaneSumWithJoin, FunctorReducer<LaneSumWithJoin, double>>);
static_assert(!reduces_in_lanes<LaneSumWithInit, FunctorReducer<LaneSumWithInit, double>>);
static_assert(!reduces_in_lanes<LaneArraySum, FunctorReducer<LaneArraySum, double[]>>);
static_assert(reduces_in_lanes<LaneSum, ReducerAdapter<Kokkos::Sum<double>>>);
static_assert(reduces_in_lanes<LaneSum, ReducerAdapter<Kokkos::Prod<float>>>);
static_assert(reduces_in_lanes<LaneSum, ReducerAdapter<Kokkos::Min<double>>>);
static_assert(reduces_in_lanes<LaneSum, ReducerAdapter<Kokkos::Max<I64>>>);
static_assert(reduces_in_lanes<LaneSum, ReducerAdapter<Kokkos::BOr<unsigned>>>);
static_assert(!reduces_in_lanes<LaneMinLoc, ReducerAdapter<Kokkos::MinLoc<double, I64>>>);
static_assert(!reduces_in_lanes<PlainSum, ReducerAdapter<Kokkos::Sum<double>>>);
// A user reducer, even one shaped like Kokkos::Sum<T, Space>: its join may care about order.
template <class T, class Space>
struct UserSum {
  using value_type = T;
  KOKKOS_INLINE_FUNCTION void join(T& dst, const T& src) const { dst += src; }
  KOKKOS_INLINE_FUNCTION void init(T& v) const { v = 0; }
};
static_assert(!reduces_in_lanes<LaneSum, ReducerAdapter<UserSum<double, Kokkos::HostSpace>>>);

// Values whose floating-point sum depends on the order of the additions: random signs and
// magnitudes from 1e-8 to 1e8, so every addition rounds differently.
Array order_sensitive_values(I64 n, unsigned seed) {
  Array v("v", static_cast<std::size_t>(n));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-8, 8);
  for (I64 i = 0; i < n; ++i) v(i) = mantissa(rng) * std::pow(10.0, exponent(rng));
  return v;
}

// One worker's share: index i into lane i mod 4 (mod taken on the index, so blocks that
// start anywhere agree), folded ((l0 + l1) + (l2 + l3)) into 0.
double lane_model(const Array& v, I64 first, I64 b, I64 e) {
  double lane[4] = {0, 0, 0, 0};
  for (I64 i = b; i < e; ++i) lane[i & 3] += v(i - first);
  double acc = 0;
  acc += (lane[0] + lane[1]) + (lane[2] + lane[3]);
  return acc;
}
double sequential_model(const Array& v, I64 first, I64 b, I64 e) {
  double acc = 0;
  for (I64 i = b; i < e; ++i) acc += v(i - first);
  return acc;
}
// The whole launch: workers' values joined in rank order, as host_reduce does.
template <class Space, class Model>
double launch_model(const Array& v, I64 first, I64 last, const Model& model) {
  const int workers = Space().impl_thread_pool_size();
  double total = 0;
  for (int rank = 0; rank < workers; ++rank) {
    const auto block = Kokkos::Impl::range_block<I64>(first, last, rank, workers);
    const double value = model(v, first, block.begin, block.end);
    if (rank == 0) {
      total = value;
    } else {
      total += value;
    }
  }
  return total;
}

TYPED_TEST(ReductionLanes, EveryStartAndLengthAddsInTheLaneOrder) {
  // Starts 0..5 and -7 exercise the lanes' head (indices up to the next multiple of 4), the
  // unrolled body and the tail, with a negative first index too.
  for (I64 first : {I64(0), I64(1), I64(2), I64(3), I64(5), I64(-7)}) {
    for (I64 n : {I64(0), I64(1), I64(3), I64(4), I64(5), I64(9), I64(64), I64(1001), I64(70001)}) {
      const Array v = order_sensitive_values(n, static_cast<unsigned>(7 * n + first + 100));
      double lanes = -1, plain = -1;
      Kokkos::RangePolicy<TypeParam> policy(first, first + n);
      Kokkos::parallel_reduce(policy, LaneSum{v, first}, lanes);
      Kokkos::parallel_reduce(policy, PlainSum{v, first}, plain);
      EXPECT_EQ(lanes, (launch_model<TypeParam>(v, first, first + n, lane_model))) << "first=" << first << " n=" << n;
      EXPECT_EQ(plain, (launch_model<TypeParam>(v, first, first + n, sequential_model)))
          << "first=" << first << " n=" << n;
    }
  }
}

TYPED_TEST(ReductionLanes, TheValuesAreChosenSoThatTheOrderShows) {
  // Guards the test above: were lanes and one running value to give the same bits on these
  // values, it could not tell them apart.  Some ranges round alike by chance (which ones
  // depends on the worker count); most must not.
  int cases = 0, distinct = 0;
  for (I64 first : {I64(0), I64(1), I64(2), I64(3), I64(5), I64(-7)}) {
    for (I64 n : {I64(64), I64(1001), I64(70001)}) {
      const Array v = order_sensitive_values(n, static_cast<unsigned>(7 * n + first + 100));
      ++cases;
      if (launch_model<TypeParam>(v, first, first + n, lane_model) !=
          launch_model<TypeParam>(v, first, first + n, sequential_model)) {
        ++distinct;
      }
    }
  }
  EXPECT_GE(distinct, cases * 2 / 3);
}

// Bodies for Kokkos reducers over integers, declaring that they only accumulate.
struct IntSum {
  static constexpr bool accumulates_only = true;
  Kokkos::View<I64*, Kokkos::HostSpace> w;
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, I64& acc) const { acc += w(i); }
};
struct MinBody : IntSum {
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, I64& acc) const {
    if (w(i) < acc) acc = w(i);
  }
};
struct MaxBody : IntSum {
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, I64& acc) const {
    if (w(i) > acc) acc = w(i);
  }
};
struct OrBody : IntSum {
  KOKKOS_INLINE_FUNCTION void operator()(I64 i, unsigned& acc) const { acc |= 1u << (static_cast<unsigned>(w(i)) % 31u); }
};

TYPED_TEST(ReductionLanes, ReducersWhoseOrderDoesNotMatter) {
  const I64 n = 10007;
  Kokkos::View<I64*, Kokkos::HostSpace> w("w", n);
  std::mt19937_64 rng(5);
  I64 expect_min = std::numeric_limits<I64>::max(), expect_max = std::numeric_limits<I64>::min(), expect_sum = 0;
  unsigned expect_or = 0;
  for (I64 i = 0; i < n; ++i) {
    w(i) = static_cast<I64>(rng() % 2000001) - 1000000;
    expect_min = std::min(expect_min, w(i));
    expect_max = std::max(expect_max, w(i));
    expect_sum += w(i);
    expect_or |= 1u << (static_cast<unsigned>(w(i)) % 31u);
  }
  I64 sum = 0, mn = 0, mx = 0;
  unsigned bits = 0;
  Kokkos::RangePolicy<TypeParam> policy(0, n);
  Kokkos::parallel_reduce(policy, IntSum{w}, Kokkos::Sum<I64>(sum));
  Kokkos::parallel_reduce(policy, MinBody{{w}}, Kokkos::Min<I64>(mn));
  Kokkos::parallel_reduce(policy, MaxBody{{w}}, Kokkos::Max<I64>(mx));
  Kokkos::parallel_reduce(policy, OrBody{{w}}, Kokkos::BOr<unsigned>(bits));
  EXPECT_EQ(sum, expect_sum);
  EXPECT_EQ(mn, expect_min);
  EXPECT_EQ(mx, expect_max);
  EXPECT_EQ(bits, expect_or);
  // Empty range: the reducer's identity.
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(3, 3), MinBody{{w}}, Kokkos::Min<I64>(mn));
  EXPECT_EQ(mn, std::numeric_limits<I64>::max());
}

TYPED_TEST(ReductionLanes, DynamicScheduleSumsExactly) {
  // Integer-valued doubles: any order gives the exact sum, whichever blocks each worker takes.
  const I64 n = 100003;
  Array v("v", n);
  for (I64 i = 0; i < n; ++i) v(i) = double(i % 1000);
  double exact = 0;
  for (I64 i = 0; i < n; ++i) exact += v(i);
  for (int chunk : {1, 3, 64, 5000}) {
    Kokkos::RangePolicy<TypeParam, Kokkos::Schedule<Kokkos::Dynamic>> policy(0, n);
    policy.set_chunk_size(chunk);
    double s = -1;
    Kokkos::parallel_reduce(policy, LaneSum{v, 0}, s);
    EXPECT_EQ(s, exact) << "chunk=" << chunk;
  }
}

TYPED_TEST(ReductionLanes, ArrayAlgorithmsReduceInLanesFusedOrNot) {
  // KE::dot, sum, min_value and max_value declare accumulates_only: fused (the reduction ends
  // a run of the window, run in chunks) or not, they give the lanes' bits.
  TypeParam space;
  const I64 n = 50001;
  const Array x = order_sensitive_values(n, 11), y("y", n), ones("ones", n);
  for (I64 i = 0; i < n; ++i) ones(i) = 1.0;
  const double expect = launch_model<TypeParam>(x, 0, n, lane_model);
  for (bool fused : {false, true}) {
    KE::set_fusion_enabled(fused);
    double dot = 0, sum = 0;
    {
      KE::FusionScope scope(space);
      KE::copy(space, x, y);  // fuses with the dot that follows
      dot = KE::dot(space, y, ones);
      sum = KE::sum(space, y);
    }
    EXPECT_EQ(dot, expect) << "fused=" << fused;
    EXPECT_EQ(sum, expect) << "fused=" << fused;
    double lowest = x(0), highest = x(0);
    for (I64 i = 1; i < n; ++i) {
      lowest = std::min(lowest, x(i));
      highest = std::max(highest, x(i));
    }
    EXPECT_EQ(KE::min_value(space, x), lowest);
    EXPECT_EQ(KE::max_value(space, x), highest);
  }
  KE::set_fusion_enabled(true);
}

}  // namespace

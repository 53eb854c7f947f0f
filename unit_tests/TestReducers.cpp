// The built-in reducers (Kokkos 4 interface), reduction_identity, user-defined reducers, and
// every reducer through parallel_reduce on every back end, ties included.
#include "TestCommon.hpp"

#include <climits>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

template <class Space>
struct Reducers : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(Reducers, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

using I64 = std::int64_t;

TEST(ReductionIdentity, Values) {
  using RI = Kokkos::reduction_identity<int>;
  static_assert(RI::sum() == 0 && RI::prod() == 1 && RI::land() == 1 && RI::lor() == 0);
  static_assert(RI::min() == INT_MAX && RI::max() == INT_MIN);
  static_assert(RI::band() == -1 && RI::bor() == 0);
  static_assert(Kokkos::reduction_identity<unsigned char>::band() == 0xff);
  static_assert(Kokkos::reduction_identity<double>::max() == std::numeric_limits<double>::lowest());
  static_assert(Kokkos::reduction_identity<double>::min() == std::numeric_limits<double>::max());
  static_assert(Kokkos::reduction_identity<float>::prod() == 1.0f);
}

TEST(ReducerInterface, TypesAndMembers) {
  static_assert(Kokkos::is_reducer_v<Kokkos::Sum<double>>);
  static_assert(Kokkos::is_reducer<Kokkos::MinMaxLoc<float, int>>::value);
  static_assert(!Kokkos::is_reducer_v<double>);
  static_assert(!Kokkos::is_reducer_v<Kokkos::View<double, Kokkos::HostSpace>>);
  static_assert(std::is_same_v<Kokkos::Sum<const double>::value_type, double>);
  static_assert(std::is_same_v<Kokkos::Sum<double>::reducer, Kokkos::Sum<double>>);
  static_assert(std::is_same_v<Kokkos::Sum<double>::result_view_type, Kokkos::View<double, Kokkos::HostSpace>>);
  static_assert(std::is_same_v<Kokkos::MinLoc<double, int>::value_type, Kokkos::ValLocScalar<double, int>>);
  static_assert(std::is_same_v<Kokkos::MinMax<int>::value_type, Kokkos::MinMaxScalar<int>>);
  static_assert(std::is_same_v<Kokkos::MinMaxLoc<int, long>::value_type, Kokkos::MinMaxLocScalar<int, long>>);

  double s = 3;
  Kokkos::Sum<double> sum(s);
  EXPECT_TRUE(sum.references_scalar());
  EXPECT_EQ(&sum.reference(), &s);
  EXPECT_EQ(sum.view().data(), &s);
  double v = 5;
  sum.init(v);
  EXPECT_EQ(v, 0.0);
  sum.join(v, 2.5);
  sum.join(v, 1.5);
  EXPECT_EQ(v, 4.0);

  Kokkos::View<double, Kokkos::HostSpace> view("r");
  Kokkos::Max<double> mx(view);
  EXPECT_FALSE(mx.references_scalar());
  EXPECT_EQ(mx.view().data(), view.data());
  EXPECT_EQ(&mx.reference(), view.data());

  // CTAD from a View, as in Kokkos 4.
  Kokkos::Sum deduced(view);
  static_assert(std::is_same_v<decltype(deduced), Kokkos::Sum<double, Kokkos::HostSpace>>);
  Kokkos::View<Kokkos::ValLocScalar<int, long>, Kokkos::HostSpace> lv("lv");
  Kokkos::MaxLoc deduced_loc(lv);
  static_assert(std::is_same_v<decltype(deduced_loc), Kokkos::MaxLoc<int, long, Kokkos::HostSpace>>);
}

TEST(ReducerInterface, JoinAndInitSemantics) {
  int x;
  Kokkos::Prod<int> prod(x);
  prod.init(x);
  EXPECT_EQ(x, 1);
  prod.join(x, 6);
  EXPECT_EQ(x, 6);

  Kokkos::BAnd<unsigned> band(*new unsigned(0));
  unsigned b;
  band.init(b);
  EXPECT_EQ(b, ~0u);
  band.join(b, 0xf0u);
  EXPECT_EQ(b, 0xf0u);
  delete &band.reference();

  Kokkos::MinLoc<int, int>::value_type ml;
  Kokkos::MinLoc<int, int> minloc(ml);
  minloc.init(ml);
  EXPECT_EQ(ml.val, INT_MAX);
  EXPECT_EQ(ml.loc, INT_MAX);
  minloc.join(ml, {3, 7});
  minloc.join(ml, {3, 2});   // tie: the smaller location wins
  minloc.join(ml, {3, 9});
  minloc.join(ml, {4, 0});
  EXPECT_EQ(ml.val, 3);
  EXPECT_EQ(ml.loc, 2);

  Kokkos::MinMaxFirstLastLoc<int, int>::value_type mm;
  Kokkos::MinMaxFirstLastLoc<int, int> fl(mm);
  fl.init(mm);
  fl.join(mm, {1, 5, 4, 4});
  fl.join(mm, {1, 5, 2, 9});
  fl.join(mm, {1, 5, 6, 1});
  EXPECT_EQ(mm.min_loc, 2);
  EXPECT_EQ(mm.max_loc, 9);
}

// ---- through parallel_reduce --------------------------------------------------------------

// Values with many ties: v(i) = (i * 7919) % 1009 - 500 for i < n.
KOKKOS_INLINE_FUNCTION I64 val(I64 i) { return (i * 7919) % 1009 - 500; }

template <class Space>
struct Reference {
  I64 n;
  I64 sum = 0, min = LLONG_MAX, max = LLONG_MIN, min_loc = -1, max_loc = -1, max_last_loc = -1;
  explicit Reference(I64 n_) : n(n_) {
    for (I64 i = 0; i < n; ++i) {
      const I64 v = val(i);
      sum += v;
      if (v < min) min = v, min_loc = i;
      if (v > max) max = v, max_loc = i;
      if (v >= max) max_last_loc = i;
    }
  }
};

TYPED_TEST(Reducers, ScalarReducers) {
  for (I64 n : {I64(0), I64(1), I64(2), I64(1000), I64(100003)}) {
    Reference<TypeParam> ref(n);
    Kokkos::RangePolicy<TypeParam> policy(0, n);
    I64 sum = -1, mn = -1, mx = -1;
    Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(I64 i, I64 & v) { v += val(i); }, Kokkos::Sum<I64>(sum));
    Kokkos::parallel_reduce(
        policy, KOKKOS_LAMBDA(I64 i, I64 & v) { v = val(i) < v ? val(i) : v; }, Kokkos::Min<I64>(mn));
    Kokkos::parallel_reduce(
        policy, KOKKOS_LAMBDA(I64 i, I64 & v) { v = val(i) > v ? val(i) : v; }, Kokkos::Max<I64>(mx));
    EXPECT_EQ(sum, ref.sum) << n;
    EXPECT_EQ(mn, ref.min) << n;
    EXPECT_EQ(mx, ref.max) << n;
  }
}

TYPED_TEST(Reducers, Prod) {
  // 2^(number of multiples of 5 below 300) = 2^60, exact in int64 and double.
  I64 p = 0;
  double dp = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 300),
                          KOKKOS_LAMBDA(I64 i, I64 & v) { v *= (i % 5 == 0 ? 2 : 1); }, Kokkos::Prod<I64>(p));
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 300),
                          KOKKOS_LAMBDA(I64 i, double& v) { v *= (i % 5 == 0 ? 0.5 : 1.0); },
                          Kokkos::Prod<double>(dp));
  EXPECT_EQ(p, I64(1) << 60);
  EXPECT_EQ(dp, 1.0 / double(I64(1) << 60));
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 0), KOKKOS_LAMBDA(I64, I64 & v) { v *= 0; },
                          Kokkos::Prod<I64>(p));
  EXPECT_EQ(p, 1);
}

TYPED_TEST(Reducers, LogicalAndBitwise) {
  for (I64 n : {I64(0), I64(1), I64(1000), I64(100003)}) {
    Kokkos::RangePolicy<TypeParam> policy(0, n);
    int all = -1, any = -1, none_false = -1;
    // all: every i < n is below n; any: some i equals n - 1; none_false: one index is false.
    Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(I64 i, int& v) { v = v && (i < n); }, Kokkos::LAnd<int>(all));
    Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(I64 i, int& v) { v = v || (i == n - 1); }, Kokkos::LOr<int>(any));
    Kokkos::parallel_reduce(
        policy, KOKKOS_LAMBDA(I64 i, int& v) { v = v && (i != n / 2); }, Kokkos::LAnd<int>(none_false));
    EXPECT_EQ(all, 1) << n;
    EXPECT_EQ(any, n > 0 ? 1 : 0) << n;
    EXPECT_EQ(none_false, n > 0 ? 0 : 1) << n;

    unsigned band = 0, bor = 0;
    Kokkos::parallel_reduce(
        policy, KOKKOS_LAMBDA(I64 i, unsigned& v) { v &= ~(1u << (i % 31)) | 0x80000000u; },
        Kokkos::BAnd<unsigned>(band));
    Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(I64 i, unsigned& v) { v |= 1u << (i % 31); },
                            Kokkos::BOr<unsigned>(bor));
    const unsigned touched = n >= 31 ? 0x7fffffffu : (n == 0 ? 0u : ((1u << n) - 1u));
    EXPECT_EQ(band, ~touched) << n;
    EXPECT_EQ(bor, touched) << n;
  }
  bool flag = false;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 10), KOKKOS_LAMBDA(I64 i, bool& v) { v = v && i >= 0; },
                          Kokkos::LAnd<bool>(flag));
  EXPECT_TRUE(flag);
}

TYPED_TEST(Reducers, LocationReducersWithTies) {
  for (I64 n : {I64(1), I64(2), I64(1000), I64(100003)}) {
    Reference<TypeParam> ref(n);
    Kokkos::RangePolicy<TypeParam> policy(0, n);
    using ML = Kokkos::MinLoc<I64, I64>;
    using XL = Kokkos::MaxLoc<I64, I64>;
    ML::value_type minloc;
    XL::value_type maxloc;
    Kokkos::parallel_reduce(
        policy,
        KOKKOS_LAMBDA(I64 i, ML::value_type & v) {
          if (val(i) < v.val) v.val = val(i), v.loc = i;
        },
        ML(minloc));
    Kokkos::parallel_reduce(
        policy,
        KOKKOS_LAMBDA(I64 i, XL::value_type & v) {
          if (val(i) > v.val) v.val = val(i), v.loc = i;
        },
        XL(maxloc));
    EXPECT_EQ(minloc.val, ref.min) << n;
    EXPECT_EQ(minloc.loc, ref.min_loc) << n;
    EXPECT_EQ(maxloc.val, ref.max) << n;
    EXPECT_EQ(maxloc.loc, ref.max_loc) << n;

    using MM = Kokkos::MinMax<I64>;
    MM::value_type minmax;
    Kokkos::parallel_reduce(
        policy,
        KOKKOS_LAMBDA(I64 i, MM::value_type & v) {
          if (val(i) < v.min_val) v.min_val = val(i);
          if (val(i) > v.max_val) v.max_val = val(i);
        },
        MM(minmax));
    EXPECT_EQ(minmax.min_val, ref.min);
    EXPECT_EQ(minmax.max_val, ref.max);

    using MML = Kokkos::MinMaxLoc<I64, I64>;
    using MMFL = Kokkos::MinMaxFirstLastLoc<I64, I64>;
    Kokkos::View<MML::value_type, Kokkos::HostSpace> mml("mml");
    MMFL::value_type fl;
    auto body = KOKKOS_LAMBDA(I64 i, Kokkos::MinMaxLocScalar<I64, I64> & v) {
      if (val(i) < v.min_val) v.min_val = val(i), v.min_loc = i;
      if (val(i) > v.max_val) v.max_val = val(i), v.max_loc = i;
    };
    // Keeps the last maximum within a block; the join keeps the last across blocks.
    auto body_last = KOKKOS_LAMBDA(I64 i, Kokkos::MinMaxLocScalar<I64, I64> & v) {
      if (val(i) < v.min_val) v.min_val = val(i), v.min_loc = i;
      if (val(i) >= v.max_val) v.max_val = val(i), v.max_loc = i;
    };
    Kokkos::parallel_reduce(policy, body, MML(mml));
    Kokkos::parallel_reduce(policy, body_last, MMFL(fl));
    EXPECT_EQ(mml().min_val, ref.min);
    EXPECT_EQ(mml().min_loc, ref.min_loc);
    EXPECT_EQ(mml().max_val, ref.max);
    EXPECT_EQ(mml().max_loc, ref.max_loc);
    EXPECT_EQ(fl.min_loc, ref.min_loc);
    EXPECT_EQ(fl.max_val, ref.max);
    EXPECT_EQ(fl.max_loc, ref.max_last_loc);
  }
}

// Ties whose first occurrence is not in the first worker's block.
TYPED_TEST(Reducers, FirstTieInLaterBlock) {
  const I64 n = 100000;
  Kokkos::MinLoc<int, I64>::value_type r;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<TypeParam>(0, n),
      KOKKOS_LAMBDA(I64 i, Kokkos::ValLocScalar<int, I64> & v) {
        const int x = (i >= 60000 && i % 1000 == 7) ? -1 : 1;
        if (x < v.val) v.val = x, v.loc = i;
      },
      Kokkos::MinFirstLoc<int, I64>(r));
  EXPECT_EQ(r.val, -1);
  EXPECT_EQ(r.loc, 60007);
}

TYPED_TEST(Reducers, EmptyRangeGivesIdentity) {
  Kokkos::RangePolicy<TypeParam> empty(3, 3);
  Kokkos::MinLoc<double, int>::value_type ml{1, 1};
  Kokkos::parallel_reduce(empty, KOKKOS_LAMBDA(I64, Kokkos::ValLocScalar<double, int> & v) { v.val = -1; },
                          Kokkos::MinLoc<double, int>(ml));
  EXPECT_EQ(ml.val, std::numeric_limits<double>::max());
  EXPECT_EQ(ml.loc, INT_MAX);
  int mx = 0;
  Kokkos::parallel_reduce(empty, KOKKOS_LAMBDA(I64, int& v) { v = 1; }, Kokkos::Max<int>(mx));
  EXPECT_EQ(mx, INT_MIN);
}

// A user-defined reducer: an associative but non-commutative join (a polynomial hash of the
// sequence).  A static schedule joins in rank order, so it equals the sequential hash.
struct SeqHash {
  std::uint64_t hash;
  std::uint64_t power;
};
struct HashReducer {
  using reducer = HashReducer;
  using value_type = SeqHash;
  using result_view_type = Kokkos::View<SeqHash, Kokkos::HostSpace>;
  static constexpr std::uint64_t base = 1000003;
  result_view_type m_result;
  explicit HashReducer(value_type& v) : m_result(&v) {}
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    dst.hash = dst.hash * src.power + src.hash;
    dst.power *= src.power;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    v.hash = 0;
    v.power = 1;
  }
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *m_result.data(); }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return m_result; }
};

TYPED_TEST(Reducers, UserReducerJoinsInIndexOrder) {
  for (I64 n : {I64(0), I64(1), I64(3), I64(1000), I64(100003)}) {
    SeqHash expect{0, 1};
    for (I64 i = 0; i < n; ++i) {
      expect.hash = expect.hash * HashReducer::base + std::uint64_t(i * i + 1);
      expect.power *= HashReducer::base;
    }
    SeqHash got{7, 7};
    Kokkos::parallel_reduce(
        Kokkos::RangePolicy<TypeParam>(0, n),
        KOKKOS_LAMBDA(I64 i, SeqHash & v) {
          v.hash = v.hash * HashReducer::base + std::uint64_t(i * i + 1);
          v.power *= HashReducer::base;
        },
        HashReducer(got));
    EXPECT_EQ(got.hash, expect.hash) << n;
    EXPECT_EQ(got.power, expect.power) << n;
  }
}

}  // namespace

// ---- built-in reducers over a user type ------------------------------------------------------
// As Kokkos documents custom scalar types: the type brings the operators the reducer's join
// uses, and a reduction_identity specialisation brings the identities it needs.
namespace sample {
struct Pair2 {
  I64 a = 0, b = 0;
  KOKKOS_INLINE_FUNCTION Pair2& operator+=(const Pair2& o) {
    a += o.a;
    b += o.b;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION Pair2& operator*=(const Pair2& o) {
    a *= o.a;
    b *= o.b;
    return *this;
  }
  // Lexicographic order, so ties on `a` are decided by `b`.
  KOKKOS_INLINE_FUNCTION bool operator<(const Pair2& o) const { return a < o.a || (a == o.a && b < o.b); }
  KOKKOS_INLINE_FUNCTION bool operator>(const Pair2& o) const { return o < *this; }
  KOKKOS_INLINE_FUNCTION bool operator==(const Pair2& o) const { return a == o.a && b == o.b; }
  KOKKOS_INLINE_FUNCTION Pair2 operator&(const Pair2& o) const { return {a & o.a, b & o.b}; }
  KOKKOS_INLINE_FUNCTION Pair2 operator|(const Pair2& o) const { return {a | o.a, b | o.b}; }
  KOKKOS_INLINE_FUNCTION Pair2 operator&&(const Pair2& o) const { return {a && o.a, b && o.b}; }
  KOKKOS_INLINE_FUNCTION Pair2 operator||(const Pair2& o) const { return {a || o.a, b || o.b}; }
};
}  // namespace sample

namespace Kokkos {
template <>
struct reduction_identity<sample::Pair2> {
  KOKKOS_FORCEINLINE_FUNCTION static sample::Pair2 sum() { return {0, 0}; }
  KOKKOS_FORCEINLINE_FUNCTION static sample::Pair2 prod() { return {1, 1}; }
  KOKKOS_FORCEINLINE_FUNCTION static sample::Pair2 min() { return {LLONG_MAX, LLONG_MAX}; }
  KOKKOS_FORCEINLINE_FUNCTION static sample::Pair2 max() { return {LLONG_MIN, LLONG_MIN}; }
  KOKKOS_FORCEINLINE_FUNCTION static sample::Pair2 land() { return {1, 1}; }
  KOKKOS_FORCEINLINE_FUNCTION static sample::Pair2 lor() { return {0, 0}; }
  KOKKOS_FORCEINLINE_FUNCTION static sample::Pair2 band() { return {~I64(0), ~I64(0)}; }
  KOKKOS_FORCEINLINE_FUNCTION static sample::Pair2 bor() { return {0, 0}; }
};
}  // namespace Kokkos

namespace {
using sample::Pair2;

// Many ties on `a` (val), broken by `b`; `b` is never zero, `a` is zero for some i.
KOKKOS_INLINE_FUNCTION Pair2 pval(I64 i) { return {val(i), i % 13 + 1}; }

TYPED_TEST(Reducers, BuiltinReducersOverUserType) {
  using RI = Kokkos::reduction_identity<Pair2>;
  for (I64 n : {I64(0), I64(1), I64(1000), I64(100003)}) {
    Pair2 sum_ref, min_ref = RI::min(), max_ref = RI::max(), band_ref = RI::band(), bor_ref, land_ref = RI::land(),
                   lor_ref;
    I64 min_loc_ref = LLONG_MAX;
    for (I64 i = 0; i < n; ++i) {
      const Pair2 v = pval(i);
      sum_ref = {sum_ref.a + v.a, sum_ref.b + v.b};
      if (v.a < min_ref.a || (v.a == min_ref.a && v.b < min_ref.b)) min_ref = v, min_loc_ref = i;
      if (v.a > max_ref.a || (v.a == max_ref.a && v.b > max_ref.b)) max_ref = v;
      band_ref = {band_ref.a & v.a, band_ref.b & v.b};
      bor_ref = {bor_ref.a | v.a, bor_ref.b | v.b};
      land_ref = {land_ref.a && v.a, land_ref.b && v.b};
      lor_ref = {lor_ref.a || v.a, lor_ref.b || v.b};
    }
    Kokkos::RangePolicy<TypeParam> policy(0, n);
    Pair2 sum{-1, -1}, mn{-1, -1}, mx{-1, -1}, band{-1, -1}, bor{-1, -1}, land{-1, -1}, lor{-1, -1};
    Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(I64 i, Pair2 & v) { v += pval(i); }, Kokkos::Sum<Pair2>(sum));
    Kokkos::parallel_reduce(
        policy, KOKKOS_LAMBDA(I64 i, Pair2 & v) { v = pval(i) < v ? pval(i) : v; }, Kokkos::Min<Pair2>(mn));
    Kokkos::parallel_reduce(
        policy, KOKKOS_LAMBDA(I64 i, Pair2 & v) { v = pval(i) > v ? pval(i) : v; }, Kokkos::Max<Pair2>(mx));
    Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(I64 i, Pair2 & v) { v = v & pval(i); }, Kokkos::BAnd<Pair2>(band));
    Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(I64 i, Pair2 & v) { v = v | pval(i); }, Kokkos::BOr<Pair2>(bor));
    Kokkos::parallel_reduce(
        policy, KOKKOS_LAMBDA(I64 i, Pair2 & v) { v = v && pval(i); }, Kokkos::LAnd<Pair2>(land));
    Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(I64 i, Pair2 & v) { v = v || pval(i); }, Kokkos::LOr<Pair2>(lor));
    EXPECT_TRUE(sum == sum_ref) << n;
    EXPECT_TRUE(mn == min_ref) << n;
    EXPECT_TRUE(mx == max_ref) << n;
    EXPECT_TRUE(band == band_ref) << n;
    EXPECT_TRUE(bor == bor_ref) << n;
    EXPECT_TRUE(land == land_ref) << n;
    EXPECT_TRUE(lor == lor_ref) << n;
    if (n == 0) {
      EXPECT_TRUE(sum == (Pair2{0, 0}) && mn == RI::min() && band == RI::band() && land == RI::land());
    }
    if (n >= 1000) {
      EXPECT_TRUE(land == (Pair2{0, 1}) && lor == (Pair2{1, 1})) << "some val(i) is zero, no b is";
    }

    Kokkos::MinMaxScalar<Pair2> mm;
    Kokkos::parallel_reduce(
        policy,
        KOKKOS_LAMBDA(I64 i, Kokkos::MinMaxScalar<Pair2> & v) {
          if (pval(i) < v.min_val) v.min_val = pval(i);
          if (pval(i) > v.max_val) v.max_val = pval(i);
        },
        Kokkos::MinMax<Pair2>(mm));
    EXPECT_TRUE(mm.min_val == min_ref) << n;
    EXPECT_TRUE(mm.max_val == max_ref) << n;

    Kokkos::ValLocScalar<Pair2, I64> ml;
    Kokkos::parallel_reduce(
        policy,
        KOKKOS_LAMBDA(I64 i, Kokkos::ValLocScalar<Pair2, I64> & v) {
          if (pval(i) < v.val) v.val = pval(i), v.loc = i;
        },
        Kokkos::MinLoc<Pair2, I64>(ml));
    EXPECT_TRUE(ml.val == min_ref) << n;
    EXPECT_EQ(ml.loc, min_loc_ref) << n;
  }
}

TYPED_TEST(Reducers, ProdAndTeamReduceOverUserType) {
  // a: 2 at each multiple of 3 below 40 (14 of them); b: 3 at each multiple of 4 (10).
  Pair2 p{-1, -1};
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<TypeParam>(0, 40),
      KOKKOS_LAMBDA(I64 i, Pair2 & v) { v *= Pair2{i % 3 == 0 ? 2 : 1, i % 4 == 0 ? 3 : 1}; },
      Kokkos::Prod<Pair2>(p));
  EXPECT_EQ(p.a, I64(1) << 14);
  EXPECT_EQ(p.b, I64(59049));
  Kokkos::parallel_reduce(Kokkos::RangePolicy<TypeParam>(0, 0), KOKKOS_LAMBDA(I64, Pair2 & v) { v *= Pair2{}; },
                          Kokkos::Prod<Pair2>(p));
  EXPECT_TRUE(p == (Pair2{1, 1}));

  // Each team sums its league rank's row of pval through Sum<Pair2> over a TeamThreadRange.
  constexpr int league = 5, row = 37;
  Kokkos::View<Pair2*, typename TypeParam::memory_space> rows("rows", league);
  Kokkos::parallel_for(
      Kokkos::TeamPolicy<TypeParam>(league, Kokkos::AUTO),
      KOKKOS_LAMBDA(const typename Kokkos::TeamPolicy<TypeParam>::member_type& team) {
        Pair2 s;
        const I64 base = I64(team.league_rank()) * row;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, row), [&](int j, Pair2& v) { v += pval(base + j); }, Kokkos::Sum<Pair2>(s));
        Kokkos::single(Kokkos::PerTeam(team), [&] { rows(team.league_rank()) = s; });
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows);
  for (int r = 0; r < league; ++r) {
    Pair2 expect;
    for (I64 j = 0; j < row; ++j) expect += pval(I64(r) * row + j);
    EXPECT_TRUE(h(r) == expect) << r;
  }
}

}  // namespace

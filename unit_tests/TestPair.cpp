// Kokkos::pair: construction, conversion to and from std::pair, tie, the six comparisons, the
// deprecated one-member pair<T, void>, and pairs inside kernels and as subview ranges.
#include "TestCommon.hpp"

#include <Kokkos_Pair.hpp>

#include <utility>

namespace {

TEST(Pair, TypesAndConstruction) {
  using P = Kokkos::pair<int, double>;
  static_assert(std::is_same_v<P::first_type, int> && std::is_same_v<P::second_type, double>);
  static_assert(std::is_trivially_copyable_v<P>);
  constexpr P p(1, 2.5);
  static_assert(p.first == 1 && p.second == 2.5);
  constexpr Kokkos::pair<long, float> widened = Kokkos::pair<int, float>(7, 0.5f);
  static_assert(widened.first == 7L && widened.second == 0.5f);
  const P value_initialized{};
  EXPECT_EQ(value_initialized.first, 0);
  EXPECT_EQ(value_initialized.second, 0.0);

  Kokkos::pair deduced(3, 'c');
  static_assert(std::is_same_v<decltype(deduced), Kokkos::pair<int, char>>);
  EXPECT_EQ(deduced.second, 'c');
  auto made = Kokkos::make_pair(4u, 1.0f);
  static_assert(std::is_same_v<decltype(made), Kokkos::pair<unsigned, float>>);
  EXPECT_EQ(made.first, 4u);

  P assigned;
  assigned = Kokkos::make_pair(short(5), 6.0f);  // converting assignment
  EXPECT_EQ(assigned, P(5, 6.0));
}

TEST(Pair, StdPairInterop) {
  const std::pair<int, double> s(8, -1.5);
  const Kokkos::pair<long, double> k = s;
  EXPECT_EQ(k.first, 8L);
  EXPECT_EQ(k.second, -1.5);
  const std::pair<long, double> back = k.to_std_pair();
  EXPECT_EQ(back, std::make_pair(8L, -1.5));
  static_assert(Kokkos::Impl::is_pair_like<Kokkos::pair<int, int>>::value);
  static_assert(Kokkos::Impl::is_pair_like<std::pair<int, int>>::value);
  static_assert(!Kokkos::Impl::is_pair_like<int>::value);
}

TEST(Pair, TieAssignsThroughReferences) {
  int count = 0;
  bool ok = false;
  Kokkos::tie(count, ok) = Kokkos::make_pair(42, true);
  EXPECT_EQ(count, 42);
  EXPECT_TRUE(ok);
  auto refs = Kokkos::tie(count, ok);
  static_assert(std::is_same_v<decltype(refs), Kokkos::pair<int&, bool&>>);
  refs.first = 7;
  EXPECT_EQ(count, 7);
  // A reference pair's std::pair holds values, not dangling references.
  const std::pair<int, bool> copied = refs.to_std_pair();
  count = 0;
  EXPECT_EQ(copied.first, 7);

  // Mixed value / reference members.
  double d = 0;
  Kokkos::pair<int, double&> mixed(3, d);
  mixed = Kokkos::make_pair(1, 9.5);
  EXPECT_EQ(d, 9.5);
  EXPECT_EQ(mixed.first, 1);
}

TEST(Pair, LexicographicComparisons) {
  using P = Kokkos::pair<int, int>;
  const P pairs[] = {P(0, 0), P(0, 1), P(1, -1), P(1, 0), P(2, 5)};
  for (const P& a : pairs)
    for (const P& b : pairs) {
      const auto sa = a.to_std_pair(), sb = b.to_std_pair();
      EXPECT_EQ(a == b, sa == sb);
      EXPECT_EQ(a != b, sa != sb);
      EXPECT_EQ(a < b, sa < sb);
      EXPECT_EQ(a <= b, sa <= sb);
      EXPECT_EQ(a > b, sa > sb);
      EXPECT_EQ(a >= b, sa >= sb);
    }
  static_assert(P(1, 2) < P(1, 3) && P(2, 0) > P(1, 9) && P(1, 1) <= P(1, 1) && P(0, 0) != P(0, 1));
}

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
TEST(Pair, DeprecatedOneMemberPair) {
  using P = Kokkos::pair<int, void>;
  static_assert(std::is_void_v<P::second_type>);
  constexpr P a(3), b(4, 0);
  static_assert(P::second == 0);
  EXPECT_TRUE(a < b);
  EXPECT_TRUE(a != b);
  EXPECT_TRUE(a == P(3));
  EXPECT_TRUE(b >= a && b > a && a <= b);
  Kokkos::pair<long, void> c = a;
  EXPECT_EQ(c.first, 3L);
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

struct LexicographicMax {
  using value_type = Kokkos::pair<int, int>;
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = Kokkos::make_pair(-1, -1); }
  KOKKOS_INLINE_FUNCTION void operator()(int i, value_type& v) const {
    const value_type candidate(i % 10, i);
    if (v < candidate) v = candidate;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    if (dst < src) dst = src;
  }
};

template <class Space>
struct PairKernels : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(PairKernels, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(PairKernels, InKernelsAndAsSubviewRanges) {
  using Space = TypeParam;
  const int n = 100;
  Kokkos::View<Kokkos::pair<int, double>*, typename Space::memory_space> v("v", n);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
        int q = 0;
        double h = 0;
        Kokkos::tie(q, h) = Kokkos::make_pair(i / 3, 0.5 * i);
        v(i) = Kokkos::pair<int, double>(q, h);
      });
  Kokkos::fence();
  for (int i = 0; i < n; ++i) ASSERT_EQ(v(i), Kokkos::make_pair(i / 3, 0.5 * i));

  auto middle = Kokkos::subview(v, Kokkos::make_pair(10, 20));
  EXPECT_EQ(middle.extent(0), 10u);
  EXPECT_EQ(middle(0), v(10));
  auto from_std = Kokkos::subview(v, std::make_pair(95, 100));
  EXPECT_EQ(from_std(4), v(99));

  // A pair as the reduction value: the lexicographic maximum of (i % 10, i).
  Kokkos::pair<int, int> best;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<Space>(0, n), LexicographicMax{}, best);
  EXPECT_EQ(best, Kokkos::make_pair(9, 99));
}

}  // namespace

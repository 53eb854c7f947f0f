// Kokkos_Random: the generators' streams against a reference written here from the algorithms'
// definitions (Vigna's xorshift64* and xorshift1024*, Kokkos' pool seeding), ranges, the
// distributions (fixed seeds, so every statistic is deterministic), states under concurrent
// workers (lock-free and locked pools), fill_random for several ranks and layouts.
#include "TestCommon.hpp"

#include <Kokkos_Random.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <set>
#include <vector>

namespace {

// ---- reference, from the definitions ----------------------------------------------------

struct RefXorShift64Star {
  std::uint64_t x;
  std::uint64_t next() {  // returns state * M, Vigna's xorshift64* output
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x * 0x2545F4914F6CDD1DULL;
  }
};

struct RefXorShift1024Star {
  std::uint64_t s[16];
  int p = 0;
  std::uint64_t next() {
    const std::uint64_t s0 = s[p];
    p = (p + 1) & 15;
    std::uint64_t s1 = s[p];
    s1 ^= s1 << 31;
    s[p] = s1 ^ s0 ^ (s1 >> 11) ^ (s0 >> 30);
    return s[p] * 0x106689D45497FDB5ULL;
  }
};

// Kokkos' pool seeding: a xorshift64* generator from the seed, 17 discarded rand() draws, then
// each state word from the low 16 bits of four rand() draws (rand() = (output >> 16) / 2).
std::vector<std::uint64_t> reference_seed_words(std::uint64_t seed, int words) {
  RefXorShift64Star g{seed == 0 ? 1318319u : seed};
  auto rand_int = [&] { return static_cast<std::uint32_t>(g.next() >> 16) / 2; };
  for (int i = 0; i < 17; ++i) rand_int();
  std::vector<std::uint64_t> out;
  for (int w = 0; w < words; ++w) {
    std::uint64_t word = 0;
    for (int q = 0; q < 4; ++q) word |= static_cast<std::uint64_t>(rand_int() & 0xffff) << (16 * q);
    out.push_back(word);
  }
  return out;
}

// The raw outputs (state * M) of state `s` of a pool seeded with `seed`.
template <class Pool>
std::vector<std::uint64_t> reference_stream(std::uint64_t seed, int s, int length);

template <>
std::vector<std::uint64_t> reference_stream<Kokkos::Random_XorShift64_Pool<Kokkos::DefaultHostExecutionSpace>>(
    std::uint64_t seed, int s, int length) {
  RefXorShift64Star g{reference_seed_words(seed, s + 1)[s]};
  std::vector<std::uint64_t> out(length);
  for (auto& v : out) v = g.next();
  return out;
}
template <>
std::vector<std::uint64_t> reference_stream<Kokkos::Random_XorShift1024_Pool<Kokkos::DefaultHostExecutionSpace>>(
    std::uint64_t seed, int s, int length) {
  const auto words = reference_seed_words(seed, 16 * (s + 1));
  RefXorShift1024Star g;
  std::copy(words.begin() + 16 * s, words.begin() + 16 * (s + 1), g.s);
  std::vector<std::uint64_t> out(length);
  for (auto& v : out) v = g.next();
  return out;
}

using HostSpace = Kokkos::DefaultHostExecutionSpace;
using Pool64 = Kokkos::Random_XorShift64_Pool<HostSpace>;
using Pool1024 = Kokkos::Random_XorShift1024_Pool<HostSpace>;

template <class Pool>
struct RandomPoolTest : ::testing::Test {};
using PoolTypes = ::testing::Types<Pool64, Pool1024>;
TYPED_TEST_SUITE(RandomPoolTest, PoolTypes);

// ---- streams ----------------------------------------------------------------------------

TYPED_TEST(RandomPoolTest, StreamsEqualTheReference) {
  using Pool = TypeParam;
  for (std::uint64_t seed : {std::uint64_t(1), std::uint64_t(12345), std::uint64_t(0xdeadbeefcafef00dULL)}) {
    Pool pool;
    pool.init(seed, 5);
    for (int s = 0; s < 5; ++s) {
      const auto ref = reference_stream<Pool>(seed, s, 40);
      auto gen = pool.get_state(s);
      for (int k = 0; k < 10; ++k) EXPECT_EQ(gen.urand64(), ref[k] - 1) << "seed " << seed << " state " << s;
      for (int k = 10; k < 20; ++k) EXPECT_EQ(gen.urand(), static_cast<std::uint32_t>(ref[k] >> 16));
      for (int k = 20; k < 30; ++k) EXPECT_EQ(gen.rand(), static_cast<int>(static_cast<std::uint32_t>(ref[k] >> 16) / 2));
      for (int k = 30; k < 35; ++k) EXPECT_EQ(gen.rand64(), static_cast<std::int64_t>((ref[k] - 1) / 2));
      for (int k = 35; k < 40; ++k) EXPECT_EQ(gen.drand(), static_cast<double>(ref[k] - 1) / 18446744073709551615.0);
      pool.free_state(gen);
    }
  }
}

TYPED_TEST(RandomPoolTest, FreeStateContinuesTheStream) {
  using Pool = TypeParam;
  Pool pool;
  pool.init(77, 3);
  const auto ref = reference_stream<Pool>(77, 2, 30);
  for (int round = 0; round < 3; ++round) {
    auto gen = pool.get_state(2);
    for (int k = 0; k < 10; ++k) EXPECT_EQ(gen.urand64(), ref[10 * round + k] - 1);
    pool.free_state(gen);
  }
}

TYPED_TEST(RandomPoolTest, ZeroSeedIsKokkosDefaultSeed) {
  using Pool = TypeParam;
  Pool a, b;
  a.init(0, 2);
  b.init(1318319, 2);
  auto ga = a.get_state(1), gb = b.get_state(1);
  for (int k = 0; k < 20; ++k) EXPECT_EQ(ga.urand64(), gb.urand64());
  // The seeded constructor makes one state per worker.
  Pool c(5);
  EXPECT_EQ(c.impl_num_states(), HostSpace().concurrency());
}

// From an execution space instance: the instance allocates and seeds the states, one per worker
// of the instance, with the same streams as the seed alone gives; work submitted to the
// instance afterwards draws from the seeded states.
TYPED_TEST(RandomPoolTest, FromExecutionSpaceInstance) {
  using Pool = TypeParam;
  static_assert(std::is_same_v<typename Pool::execution_space, HostSpace>);
  const HostSpace exec;
  Pool pool(exec, 2024);
  EXPECT_EQ(pool.impl_num_states(), exec.concurrency());
  for (int s = 0; s < pool.impl_num_states(); ++s) {
    const auto ref = reference_stream<Pool>(2024, s, 8);
    auto gen = pool.get_state(s);
    for (int k = 0; k < 8; ++k) ASSERT_EQ(gen.urand64(), ref[k] - 1) << "state " << s;
    pool.free_state(gen);
  }

  Pool by_init;
  by_init.init(exec, 0, 3);
  Pool by_seed;
  by_seed.init(1318319, 3);
  EXPECT_EQ(by_init.impl_num_states(), 3);
  for (int s = 0; s < 3; ++s) {
    auto a = by_init.get_state(s), b = by_seed.get_state(s);
    for (int k = 0; k < 8; ++k) EXPECT_EQ(a.urand64(), b.urand64()) << "state " << s;
  }

  Kokkos::View<double*, Kokkos::HostSpace> draws("draws", 1000);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<HostSpace>(exec, 0, 1000), KOKKOS_LAMBDA(int i) {
        auto gen = pool.get_state();
        draws(i) = gen.drand(1.0, 2.0);
        pool.free_state(gen);
      });
  exec.fence();
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(draws(i) >= 1.0 && draws(i) < 2.0) << draws(i);
  EXPECT_THROW(Pool().init(exec, 7, 0), std::runtime_error);
}

TEST(Random, GeneratorFromStateMatchesDefinition) {
  Kokkos::Random_XorShift64<HostSpace> gen(42);
  RefXorShift64Star ref{42};
  for (int k = 0; k < 100; ++k) EXPECT_EQ(gen.urand64(), ref.next() - 1);
  // A zero state is xorshift's fixed point: Kokkos replaces it.
  Kokkos::Random_XorShift64<HostSpace> zero(0), fallback(1318319);
  EXPECT_EQ(zero.urand64(), fallback.urand64());
}

TEST(Random, InitRejectsNoStates) {
  Pool64 pool;
  EXPECT_THROW(pool.init(1, 0), std::runtime_error);
  Pool1024 big;
  EXPECT_THROW(big.init(1, -3), std::runtime_error);
  // A pool that was never initialised has no state to give.
  EXPECT_DEATH(pool.get_state(), "never initialised");
}

// ---- ranges -----------------------------------------------------------------------------

TYPED_TEST(RandomPoolTest, IntegerRangesAreHalfOpenAndCovered) {
  TypeParam pool;
  pool.init(2024, 1);
  auto gen = pool.get_state(0);
  std::set<std::int64_t> seen_u, seen_i, seen_u64, seen_i64;
  for (int k = 0; k < 20000; ++k) {
    const std::uint32_t u = gen.urand(10u, 17u);
    ASSERT_GE(u, 10u);
    ASSERT_LT(u, 17u);
    seen_u.insert(u);
    const int i = gen.rand(-5, 3);
    ASSERT_GE(i, -5);
    ASSERT_LT(i, 3);
    seen_i.insert(i);
    const std::uint64_t u64 = gen.urand64(1ull << 40, (1ull << 40) + 6);
    ASSERT_GE(u64, 1ull << 40);
    ASSERT_LT(u64, (1ull << 40) + 6);
    seen_u64.insert(static_cast<std::int64_t>(u64 - (1ull << 40)));
    const std::int64_t i64 = gen.rand64(-3, 2);
    ASSERT_GE(i64, -3);
    ASSERT_LT(i64, 2);
    seen_i64.insert(i64);
    ASSERT_LT(gen.urand(7u), 7u);
    ASSERT_LT(gen.rand(7), 7);
    ASSERT_LT(gen.urand64(7), 7u);
    ASSERT_LT(gen.rand64(7), 7);
  }
  EXPECT_EQ(seen_u.size(), 7u);
  EXPECT_EQ(seen_i.size(), 8u);
  EXPECT_EQ(seen_u64.size(), 6u);
  EXPECT_EQ(seen_i64.size(), 5u);
  // An empty range returns its start and draws nothing.
  EXPECT_EQ(gen.urand(0u), 0u);
  EXPECT_EQ(gen.rand(4, 4), 4);
  pool.free_state(gen);
}

TYPED_TEST(RandomPoolTest, FloatingRangesAreHalfOpen) {
  TypeParam pool;
  pool.init(99, 1);
  auto gen = pool.get_state(0);
  for (int k = 0; k < 20000; ++k) {
    const double d = gen.drand();
    ASSERT_GE(d, 0.0);
    ASSERT_LT(d, 1.0);
    const double dr = gen.drand(-2.5, 4.0);
    ASSERT_GE(dr, -2.5);
    ASSERT_LT(dr, 4.0);
    const float f = gen.frand(3.0f);
    ASSERT_GE(f, 0.0f);
    ASSERT_LT(f, 3.0f);
    const float fr = gen.frand(-1.0f, -0.5f);
    ASSERT_GE(fr, -1.0f);
    ASSERT_LT(fr, -0.5f);
  }
  pool.free_state(gen);
}

// The xorshift64* state whose next output is `target` (state * M): invert the multiplication
// and the three xorshift steps.
std::uint64_t state_before_output(std::uint64_t target) {
  std::uint64_t inverse = 1;  // M^-1 mod 2^64 by Newton's iteration
  for (int i = 0; i < 6; ++i) inverse *= 2 - 0x2545F4914F6CDD1DULL * inverse;
  std::uint64_t x = target * inverse;
  x ^= (x >> 27) ^ (x >> 54);
  x ^= (x << 25) ^ (x << 50);
  x ^= (x >> 12) ^ (x >> 24) ^ (x >> 36) ^ (x >> 48) ^ (x >> 60);
  return x;
}

TEST(Random, TopDrawStaysBelowTheUpperBound) {
  // urand64() = 2^64 - 2 rounds to 2^64 in float and double: Kokkos' formula would return the
  // excluded end.
  const std::uint64_t top = state_before_output(~std::uint64_t(0));
  {
    Kokkos::Random_XorShift64<HostSpace> gen(top);
    EXPECT_EQ(Kokkos::Random_XorShift64<HostSpace>(top).urand64(), ~std::uint64_t(0) - 1);
    EXPECT_EQ(gen.drand(), std::nextafter(1.0, 0.0));
  }
  EXPECT_EQ(Kokkos::Random_XorShift64<HostSpace>(top).frand(), std::nextafter(1.0f, 0.0f));
  EXPECT_LT(Kokkos::Random_XorShift64<HostSpace>(top).drand(2.0, 3.0), 3.0);
  EXPECT_LT(Kokkos::Random_XorShift64<HostSpace>(top).frand(-4.0f, 0.0f), 0.0f);
  EXPECT_EQ(Kokkos::Random_XorShift64<HostSpace>(top).drand(-4.0, 0.0), -std::numeric_limits<double>::denorm_min());
  EXPECT_LT(Kokkos::Random_XorShift64<HostSpace>(top).frand(10.0f), 10.0f);
  // The lowest output gives the range's start.
  const std::uint64_t bottom = state_before_output(1);
  EXPECT_EQ(Kokkos::Random_XorShift64<HostSpace>(bottom).drand(2.0, 3.0), 2.0);
}

template <class Scalar, class Gen>
void check_rand_type(Gen& gen, Scalar start, Scalar end) {
  using R = Kokkos::rand<Gen, Scalar>;
  for (int k = 0; k < 2000; ++k) {
    const Scalar v = R::draw(gen);
    ASSERT_GE(v, Scalar(0));
    ASSERT_LE(v, R::max());
    const Scalar r = R::draw(gen, end);
    ASSERT_GE(r, Scalar(0));
    ASSERT_LT(r, end);
    const Scalar s = R::draw(gen, start, end);
    ASSERT_GE(s, start);
    ASSERT_LT(s, end);
  }
}

TEST(Random, RandDrawsEveryScalarType) {
  Kokkos::Random_XorShift64<HostSpace> gen(31337);
  check_rand_type<char>(gen, 3, 100);
  check_rand_type<signed char>(gen, -3, 100);
  check_rand_type<unsigned char>(gen, 3, 250);
  check_rand_type<short>(gen, -300, 3000);
  check_rand_type<unsigned short>(gen, 300, 60000);
  check_rand_type<int>(gen, -1000, 100000);
  check_rand_type<unsigned int>(gen, 1000u, 4000000000u);
  check_rand_type<long>(gen, -1000L, 1L << 40);
  check_rand_type<unsigned long>(gen, 1000UL, 1UL << 63);
  check_rand_type<long long>(gen, -(1LL << 50), 1LL << 50);
  check_rand_type<unsigned long long>(gen, 5ULL, ~0ULL);
  check_rand_type<float>(gen, -1.5f, 2.5f);
  check_rand_type<double>(gen, -1e-3, 1e-3);
  EXPECT_EQ((Kokkos::rand<decltype(gen), int>::max()), 2147483647);
  EXPECT_EQ((Kokkos::rand<decltype(gen), unsigned long long>::max()), ~0ULL);
  EXPECT_EQ((Kokkos::rand<decltype(gen), double>::max()), 1.0);
}

// ---- distributions ----------------------------------------------------------------------

TYPED_TEST(RandomPoolTest, UniformMomentsAndChiSquare) {
  TypeParam pool;
  pool.init(8675309, 1);
  auto gen = pool.get_state(0);
  constexpr int n = 1 << 20, buckets = 100;
  double sum = 0, sum_sq = 0;
  std::vector<double> count(buckets, 0.0);
  for (int k = 0; k < n; ++k) {
    const double u = gen.drand();
    sum += u;
    sum_sq += u * u;
    count[gen.urand(buckets)] += 1;
  }
  const double mean = sum / n, var = sum_sq / n - mean * mean;
  EXPECT_NEAR(mean, 0.5, 5 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(var, 1.0 / 12, 0.002);
  double chi2 = 0;
  const double expected = double(n) / buckets;
  for (double c : count) chi2 += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi2, 148.2);  // 99 degrees of freedom, p = 0.001
  EXPECT_GT(chi2, 60.0);   // suspiciously even below p = 0.001 from the other side
  pool.free_state(gen);
}

TYPED_TEST(RandomPoolTest, NormalMomentsAndChiSquare) {
  TypeParam pool;
  pool.init(4242, 1);
  auto gen = pool.get_state(0);
  constexpr int n = 1 << 20, buckets = 40;
  double sum = 0, sum_sq = 0, sum_shifted = 0;
  std::vector<double> count(buckets + 2, 0.0);  // [-inf,-4), 40 buckets over [-4, 4), [4, inf)
  for (int k = 0; k < n; ++k) {
    const double z = gen.normal();
    sum += z;
    sum_sq += z * z;
    sum_shifted += gen.normal(3.0, 0.5);
    const int b = z < -4 ? 0 : z >= 4 ? buckets + 1 : 1 + static_cast<int>((z + 4) / 8 * buckets);
    count[b] += 1;
  }
  const double mean = sum / n, var = sum_sq / n - mean * mean;
  EXPECT_NEAR(mean, 0.0, 5 / std::sqrt(double(n)));
  EXPECT_NEAR(var, 1.0, 0.01);
  EXPECT_NEAR(sum_shifted / n, 3.0, 5 * 0.5 / std::sqrt(double(n)));
  auto cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  double chi2 = 0;
  for (int b = 0; b < buckets + 2; ++b) {
    const double lo = b == 0 ? -INFINITY : -4 + 8.0 * (b - 1) / buckets;
    const double hi = b == buckets + 1 ? INFINITY : -4 + 8.0 * b / buckets;
    const double expected = n * (cdf(hi) - cdf(lo));
    if (expected < 5) continue;  // the tails: too few for the chi-square approximation
    chi2 += (count[b] - expected) * (count[b] - expected) / expected;
  }
  EXPECT_LT(chi2, 77.0);  // at most 41 degrees of freedom, p = 0.001 (73.4 at 40)
  pool.free_state(gen);
}

// ---- concurrency ------------------------------------------------------------------------

template <class Space>
struct RandomSpaceTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(RandomSpaceTest, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// Every value drawn in a parallel launch must be the next value of exactly one state's stream:
// the draws of all workers together are the prefixes of the states' streams, with no value
// twice (a state shared by two threads at once repeats values or loses them).
template <class Space, class Pool>
void check_streams_consumed_in_order(Pool pool, std::uint64_t seed, int num_states) {
  constexpr int n = 10000, per_iteration = 3, rounds = 2;
  using HostPool = std::conditional_t<std::is_same_v<typename Pool::generator_type, Kokkos::Random_XorShift64<Space>>,
                                      Pool64, Pool1024>;
  // Where each value sits in the states' streams.
  std::unordered_map<std::uint64_t, std::pair<int, int>> where;
  where.reserve(std::size_t(num_states) * rounds * n * per_iteration);
  for (int s = 0; s < num_states; ++s) {
    const auto ref = reference_stream<HostPool>(seed, s, rounds * n * per_iteration);
    for (int k = 0; k < rounds * n * per_iteration; ++k) where.emplace(ref[k] - 1, std::make_pair(s, k));
  }
  Kokkos::View<std::uint64_t**, Space> drawn("drawn", n, per_iteration);
  std::vector<int> next_position(num_states, 0);
  for (int round = 0; round < rounds; ++round) {
    Kokkos::parallel_for(
        "draw", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
          auto gen = pool.get_state();
          for (int k = 0; k < per_iteration; ++k) drawn(i, k) = gen.urand64();
          pool.free_state(gen);
        });
    auto h = Kokkos::create_mirror_view(drawn);
    Kokkos::deep_copy(h, drawn);
    std::vector<std::vector<int>> positions(num_states);
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < per_iteration; ++k) {
        const auto it = where.find(h(i, k));
        ASSERT_NE(it, where.end()) << "a drawn value in no state's stream";
        positions[it->second.first].push_back(it->second.second);
      }
    }
    std::size_t total = 0;
    for (int s = 0; s < num_states; ++s) {
      std::sort(positions[s].begin(), positions[s].end());
      // Consecutive positions, and round 1 continues where round 0 left each state.
      for (std::size_t k = 0; k < positions[s].size(); ++k) {
        ASSERT_EQ(positions[s][k], next_position[s] + static_cast<int>(k)) << "state " << s;
      }
      next_position[s] += static_cast<int>(positions[s].size());
      total += positions[s].size();
    }
    EXPECT_EQ(total, std::size_t(n) * per_iteration);
  }
}

TYPED_TEST(RandomSpaceTest, WorkersOwnDistinctStates) {
  using Space = TypeParam;
  const int workers = Space().concurrency();
  check_streams_consumed_in_order<Space>(Kokkos::Random_XorShift64_Pool<Space>(91), 91, workers);
  check_streams_consumed_in_order<Space>(Kokkos::Random_XorShift1024_Pool<Space>(92), 92, workers);
}

TYPED_TEST(RandomSpaceTest, FewerStatesThanWorkersAreLocked) {
  using Space = TypeParam;
  Kokkos::Random_XorShift64_Pool<Space> one;
  one.init(5, 1);
  check_streams_consumed_in_order<Space>(one, 5, 1);
  Kokkos::Random_XorShift1024_Pool<Space> two;
  two.init(6, 2);
  if (Space().concurrency() > 2) check_streams_consumed_in_order<Space>(two, 6, 2);
}

// ---- fill_random --------------------------------------------------------------------------

template <class View>
void expect_all_in(const View& v, double lo, double hi) {
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, v);
  const auto* p = h.data();
  double min = p[0], max = p[0];
  for (std::size_t i = 0; i < h.size(); ++i) {
    ASSERT_GE(double(p[i]), lo);
    ASSERT_LT(double(p[i]), hi);
    min = std::min<double>(min, p[i]);
    max = std::max<double>(max, p[i]);
  }
  if (h.size() > 100) {
    EXPECT_LT(min, lo + 0.1 * (hi - lo));
    EXPECT_GT(max, hi - 0.1 * (hi - lo));
  }
}

TYPED_TEST(RandomSpaceTest, FillRandomEveryRank) {
  using Space = TypeParam;
  Kokkos::Random_XorShift64_Pool<Space> pool(2718);
  Kokkos::View<double, Space> r0("r0");
  Kokkos::fill_random(r0, pool, 2.0, 3.0);
  expect_all_in(r0, 2.0, 3.0);
  Kokkos::View<double*, Space> r1("r1", 1000);
  Kokkos::fill_random(r1, pool, 1.0);
  expect_all_in(r1, 0.0, 1.0);
  Kokkos::View<int**, Kokkos::LayoutLeft, Space> r2("r2", 300, 7);
  Kokkos::fill_random(Space(), r2, pool, -50, 50);
  Space().fence();
  expect_all_in(r2, -50, 50);
  Kokkos::View<float** [3], Space> r3("r3", 200, 4);
  Kokkos::fill_random(Space(), r3, pool, 5.0f);
  Space().fence();
  expect_all_in(r3, 0.0, 5.0);
  Kokkos::View<unsigned char********, Space> r8("r8", 130, 2, 1, 2, 1, 2, 1, 3);
  Kokkos::Random_XorShift1024_Pool<Space> pool1024(3);
  Kokkos::fill_random(r8, pool1024, 10, 200);
  expect_all_in(r8, 10, 200);
  // A strided subview: only its elements change.
  Kokkos::View<long**, Space> whole("whole", 260, 4);
  auto column = Kokkos::subview(whole, Kokkos::ALL, 2);
  Kokkos::fill_random(column, pool, 1L, 1000L);
  auto h = Kokkos::create_mirror_view(whole);
  Kokkos::deep_copy(h, whole);
  for (int i = 0; i < 260; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (j == 2) {
        EXPECT_GE(h(i, j), 1);
        EXPECT_LT(h(i, j), 1000);
      } else {
        EXPECT_EQ(h(i, j), 0);
      }
    }
  }
  // Empty views are left alone.
  Kokkos::View<double*, Space> empty("empty", 0);
  Kokkos::fill_random(empty, pool, 1.0);
}

#if defined(KOKKOS_ENABLE_SERIAL)
TEST(Random, FillRandomOneWorkerIsReproducible) {
  // One worker: the schedule cannot change which state fills which element.
  Kokkos::Random_XorShift64_Pool<Kokkos::Serial> a, b;
  a.init(11, 1);
  b.init(11, 1);
  Kokkos::View<double*, Kokkos::Serial> x("x", 500), y("y", 500);
  Kokkos::fill_random(Kokkos::Serial(), x, a, 1.0);
  Kokkos::fill_random(Kokkos::Serial(), y, b, 1.0);
  Kokkos::fence();
  for (int i = 0; i < 500; ++i) EXPECT_EQ(x(i), y(i));
  const auto ref = reference_stream<Pool64>(11, 0, 500);
  for (int i = 0; i < 500; ++i) EXPECT_EQ(x(i), static_cast<double>(ref[i] - 1) / 18446744073709551615.0);
}
#endif

}  // namespace

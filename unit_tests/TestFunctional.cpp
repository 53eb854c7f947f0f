// Kokkos_Functional.hpp, included first (it stands alone): pod_hash is MurmurHash3 (x86, 32-bit)
// of the key's bytes, checked against the algorithm's published test vectors; the pod_ and the
// operator comparisons answer as their definitions say, where they differ included (NaN, signed
// zeros), on the host and inside kernels of every back end.
#include <Kokkos_Functional.hpp>

#include "TestCommon.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

// A key of exactly N bytes (no padding), so that pod_hash hashes those bytes and no others.
template <std::size_t N>
struct Bytes {
  unsigned char b[N];
};
template <std::size_t N>
Bytes<N - 1> bytes_of(const char (&text)[N]) {
  Bytes<N - 1> key{};
  std::memcpy(key.b, text, N - 1);
  return key;
}

TEST(Functional, PodHashIsMurmurHash3OfTheKeysBytes) {
  static_assert(sizeof(Bytes<13>) == 13);
  EXPECT_EQ(Kokkos::pod_hash<std::uint32_t>()(0u), 0x2362F9DEu);
  EXPECT_EQ(Kokkos::pod_hash<std::uint32_t>()(0xFFFFFFFFu), 0x76293B50u);
  EXPECT_EQ(Kokkos::pod_hash<std::uint32_t>()(0x87654321u), 0xF55B516Bu);  // bytes 21 43 65 87
  EXPECT_EQ(Kokkos::pod_hash<Bytes<3>>()(bytes_of("abc")), 0xB3DD93FAu);   // a 3-byte tail
  constexpr std::uint32_t seed = 0x9747B28Cu;
  EXPECT_EQ(Kokkos::pod_hash<Bytes<4>>()(bytes_of("aaaa"), seed), 0x5A97808Au);
  EXPECT_EQ(Kokkos::pod_hash<Bytes<13>>()(bytes_of("Hello, world!"), seed), 0x24884CBAu);
  EXPECT_EQ(Kokkos::pod_hash<Bytes<43>>()(bytes_of("The quick brown fox jumps over the lazy dog"), seed),
            0x2FA826CDu);
  // The one-argument form is seed 0.
  EXPECT_EQ(Kokkos::pod_hash<Bytes<13>>()(bytes_of("Hello, world!")),
            Kokkos::pod_hash<Bytes<13>>()(bytes_of("Hello, world!"), 0u));
}

TEST(Functional, PodComparisonsCompareBytesWhereOperatorsCompareValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // The same NaN bit pattern: equal bytes, unequal values.
  EXPECT_TRUE(Kokkos::pod_equal_to<double>()(nan, nan));
  EXPECT_FALSE(Kokkos::pod_not_equal_to<double>()(nan, nan));
  EXPECT_FALSE(Kokkos::equal_to<double>()(nan, nan));
  EXPECT_TRUE(Kokkos::not_equal_to<double>()(nan, nan));
  // Signed zeros: equal values, different bytes.
  EXPECT_FALSE(Kokkos::pod_equal_to<double>()(0.0, -0.0));
  EXPECT_TRUE(Kokkos::pod_not_equal_to<double>()(0.0, -0.0));
  EXPECT_TRUE(Kokkos::equal_to<double>()(0.0, -0.0));
  EXPECT_NE(Kokkos::pod_hash<double>()(0.0), Kokkos::pod_hash<double>()(-0.0));
}

TEST(Functional, OrderingComparisonsOnEqualSmallerAndLargerValues) {
  for (int a : {-3, 0, 7}) {
    for (int b : {-3, 0, 7}) {
      EXPECT_EQ(Kokkos::less<int>()(a, b), a < b) << a << " " << b;
      EXPECT_EQ(Kokkos::less_equal<int>()(a, b), a <= b) << a << " " << b;
      EXPECT_EQ(Kokkos::greater<int>()(a, b), a > b) << a << " " << b;
      EXPECT_EQ(Kokkos::greater_equal<int>()(a, b), a >= b) << a << " " << b;
      EXPECT_EQ(Kokkos::equal_to<int>()(a, b), a == b) << a << " " << b;
      EXPECT_EQ(Kokkos::not_equal_to<int>()(a, b), a != b) << a << " " << b;
    }
  }
  // NaN is unordered: every ordering comparison with it is false.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(Kokkos::less<double>()(nan, 1.0));
  EXPECT_FALSE(Kokkos::greater_equal<double>()(nan, 1.0));
  EXPECT_FALSE(Kokkos::greater<double>()(1.0, nan));
  EXPECT_FALSE(Kokkos::less_equal<double>()(1.0, nan));
}

template <class Space>
struct FunctionalInKernels : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(FunctionalInKernels, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

// Each index i compares i with every j of [0, n) and hashes i; a kernel's counts equal the host's.
TYPED_TEST(FunctionalInKernels, CountsAndHashesMatchTheHost) {
  using Space = TypeParam;
  constexpr int n = 64;
  Kokkos::View<long[6], typename Space::memory_space> counts("counts");
  Kokkos::View<std::uint32_t[n], typename Space::memory_space> hashes("hashes");
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
        for (int j = 0; j < n; ++j) {
          if (Kokkos::less<int>()(i, j)) Kokkos::atomic_inc(&counts(0));
          if (Kokkos::less_equal<int>()(i, j)) Kokkos::atomic_inc(&counts(1));
          if (Kokkos::greater<int>()(i, j)) Kokkos::atomic_inc(&counts(2));
          if (Kokkos::greater_equal<int>()(i, j)) Kokkos::atomic_inc(&counts(3));
          if (Kokkos::pod_equal_to<int>()(i, j)) Kokkos::atomic_inc(&counts(4));
          if (Kokkos::pod_not_equal_to<int>()(i, j)) Kokkos::atomic_inc(&counts(5));
        }
        hashes(i) = Kokkos::pod_hash<int>()(i, 17u);
      });
  const auto c = Kokkos::Test::to_host(counts);
  const long pairs = long(n) * n, below = long(n) * (n - 1) / 2;
  EXPECT_EQ(c(0), below);
  EXPECT_EQ(c(1), below + n);
  EXPECT_EQ(c(2), below);
  EXPECT_EQ(c(3), below + n);
  EXPECT_EQ(c(4), n);
  EXPECT_EQ(c(5), pairs - n);
  const auto h = Kokkos::Test::to_host(hashes);
  for (int i = 0; i < n; ++i) EXPECT_EQ(h(i), Kokkos::pod_hash<int>()(i, 17u)) << i;
}

}  // namespace

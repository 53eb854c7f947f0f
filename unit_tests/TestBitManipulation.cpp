// Kokkos_BitManipulation.hpp: every function and its Experimental::*_builtin twin against C++20
// <bit> for each standard unsigned type (every value of unsigned char, edge and pseudo-random
// values of the wider ones), byteswap and bit_cast, the type constraints, and a kernel.
#include "TestCommon.hpp"

#include <Kokkos_BitManipulation.hpp>

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;

template <class T>
std::vector<T> sample_values() {
  std::vector<T> v;
  if constexpr (sizeof(T) == 1) {
    for (int i = 0; i < 256; ++i) v.push_back(static_cast<T>(i));
  } else {
    const T max = std::numeric_limits<T>::max();
    for (T x : {T(0), T(1), T(2), T(3), T(max), T(max - 1), T(max / 2), T(max / 2 + 1), T(0x80), T(0xff)})
      v.push_back(x);
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 200; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      v.push_back(static_cast<T>(state >> (i % 40)));
    }
    for (int s = 0; s < std::numeric_limits<T>::digits; ++s) v.push_back(static_cast<T>(T(1) << s));
  }
  return v;
}

template <class T>
T byteswap_reference(T x) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &x, sizeof(T));
  for (int i = 0; i < static_cast<int>(sizeof(T) / 2); ++i) std::swap(bytes[i], bytes[sizeof(T) - 1 - i]);
  T out;
  std::memcpy(&out, bytes, sizeof(T));
  return out;
}

template <class T>
void check_unsigned_type() {
  for (T x : sample_values<T>()) {
    EXPECT_EQ(Kokkos::countl_zero(x), std::countl_zero(x)) << +x;
    EXPECT_EQ(Kokkos::countl_one(x), std::countl_one(x)) << +x;
    EXPECT_EQ(Kokkos::countr_zero(x), std::countr_zero(x)) << +x;
    EXPECT_EQ(Kokkos::countr_one(x), std::countr_one(x)) << +x;
    EXPECT_EQ(Kokkos::popcount(x), std::popcount(x)) << +x;
    EXPECT_EQ(Kokkos::has_single_bit(x), std::has_single_bit(x)) << +x;
    EXPECT_EQ(Kokkos::bit_width(x), static_cast<T>(std::bit_width(x))) << +x;
    EXPECT_EQ(Kokkos::bit_floor(x), std::bit_floor(x)) << +x;
    EXPECT_EQ(KE::countl_zero_builtin(x), std::countl_zero(x)) << +x;
    EXPECT_EQ(KE::countl_one_builtin(x), std::countl_one(x)) << +x;
    EXPECT_EQ(KE::countr_zero_builtin(x), std::countr_zero(x)) << +x;
    EXPECT_EQ(KE::countr_one_builtin(x), std::countr_one(x)) << +x;
    EXPECT_EQ(KE::popcount_builtin(x), std::popcount(x)) << +x;
    EXPECT_EQ(KE::has_single_bit_builtin(x), std::has_single_bit(x)) << +x;
    EXPECT_EQ(KE::bit_width_builtin(x), static_cast<T>(std::bit_width(x))) << +x;
    EXPECT_EQ(KE::bit_floor_builtin(x), std::bit_floor(x)) << +x;
    if (x <= (std::numeric_limits<T>::max() >> 1) + 1) {  // bit_ceil is representable
      EXPECT_EQ(Kokkos::bit_ceil(x), std::bit_ceil(x)) << +x;
      EXPECT_EQ(KE::bit_ceil_builtin(x), std::bit_ceil(x)) << +x;
    }
    for (int s = -70; s <= 70; s += 3) {
      EXPECT_EQ(Kokkos::rotl(x, s), std::rotl(x, s)) << +x << " " << s;
      EXPECT_EQ(Kokkos::rotr(x, s), std::rotr(x, s)) << +x << " " << s;
      EXPECT_EQ(KE::rotl_builtin(x, s), std::rotl(x, s)) << +x << " " << s;
      EXPECT_EQ(KE::rotr_builtin(x, s), std::rotr(x, s)) << +x << " " << s;
    }
    EXPECT_EQ(Kokkos::byteswap(x), byteswap_reference(x)) << +x;
    EXPECT_EQ(KE::byteswap_builtin(x), byteswap_reference(x)) << +x;
    using Signed = std::make_signed_t<T>;
    EXPECT_EQ(Kokkos::byteswap(static_cast<Signed>(x)), byteswap_reference(static_cast<Signed>(x))) << +x;
    EXPECT_EQ(KE::byteswap_builtin(static_cast<Signed>(x)), byteswap_reference(static_cast<Signed>(x))) << +x;
  }
  static_assert(std::is_same_v<decltype(Kokkos::countl_zero(T())), int>);
  static_assert(std::is_same_v<decltype(Kokkos::popcount(T())), int>);
  static_assert(std::is_same_v<decltype(Kokkos::bit_width(T())), T>);
  static_assert(std::is_same_v<decltype(Kokkos::bit_ceil(T())), T>);
  static_assert(std::is_same_v<decltype(Kokkos::rotl(T(), 1)), T>);
  static_assert(std::is_same_v<decltype(KE::countr_one_builtin(T())), int>);
  static_assert(noexcept(Kokkos::popcount(T())) && noexcept(KE::popcount_builtin(T())));
}

TEST(BitManipulation, EveryUnsignedTypeAgainstStdBit) {
  check_unsigned_type<unsigned char>();
  check_unsigned_type<unsigned short>();
  check_unsigned_type<unsigned int>();
  check_unsigned_type<unsigned long>();
  check_unsigned_type<unsigned long long>();
}

template <class T, class = void>
struct takes_popcount : std::false_type {};
template <class T>
struct takes_popcount<T, std::void_t<decltype(Kokkos::popcount(std::declval<T>()))>> : std::true_type {};
template <class T, class = void>
struct takes_byteswap : std::false_type {};
template <class T>
struct takes_byteswap<T, std::void_t<decltype(Kokkos::byteswap(std::declval<T>()))>> : std::true_type {};

TEST(BitManipulation, ConstraintsAndConstexpr) {
  // Only the standard unsigned integer types, as in Kokkos (not int, bool, char16_t, double).
  static_assert(takes_popcount<unsigned>::value && takes_popcount<std::uint8_t>::value);
  static_assert(!takes_popcount<int>::value && !takes_popcount<bool>::value && !takes_popcount<char16_t>::value);
  static_assert(!takes_popcount<double>::value);
  static_assert(takes_byteswap<int>::value && takes_byteswap<std::int64_t>::value && !takes_byteswap<float>::value);

  static_assert(Kokkos::countl_zero(std::uint16_t(1)) == 15);
  static_assert(Kokkos::countr_one(std::uint8_t(0x0f)) == 4);
  static_assert(Kokkos::has_single_bit(64u) && !Kokkos::has_single_bit(0u));
  static_assert(Kokkos::rotl(std::uint8_t(0x81), 1) == 0x03 && Kokkos::rotr(std::uint8_t(0x81), 1) == 0xc0);
  static_assert(Kokkos::byteswap(std::uint32_t(0x12345678)) == 0x78563412u);
  static_assert(Kokkos::byteswap(std::int8_t(-5)) == -5);
  static_assert(Kokkos::bit_cast<std::uint64_t>(1.0) == 0x3ff0000000000000ull);
  static_assert(Kokkos::bit_cast<float>(0x3f800000u) == 1.0f);
}

TEST(BitManipulation, BitCast) {
  for (double d : {0.0, -0.0, 1.5, -3.25e300, std::numeric_limits<double>::denorm_min(),
                   std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(Kokkos::bit_cast<std::uint64_t>(d), std::bit_cast<std::uint64_t>(d));
    EXPECT_EQ(KE::bit_cast_builtin<std::uint64_t>(d), std::bit_cast<std::uint64_t>(d));
    EXPECT_EQ(Kokkos::bit_cast<double>(Kokkos::bit_cast<std::int64_t>(d)), d);
  }
  struct TwoFloats {
    float a, b;
  };
  const auto bits = Kokkos::bit_cast<std::uint64_t>(TwoFloats{1.0f, -2.0f});
  const auto back = Kokkos::bit_cast<TwoFloats>(bits);
  EXPECT_EQ(back.a, 1.0f);
  EXPECT_EQ(back.b, -2.0f);
}

TEST(BitManipulation, InsideParallelReduce) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  const int n = 4096;
  long long total = 0;
  Kokkos::parallel_reduce(
      "bits", n,
      KOKKOS_LAMBDA(int i, long long& sum) {
        const auto x = static_cast<unsigned>(i) * 2654435761u;
        sum += Kokkos::popcount(x) + KE::popcount_builtin(x) + Kokkos::countl_zero(x) + KE::countr_zero_builtin(x) +
               static_cast<long long>(Kokkos::bit_width(x)) + KE::countl_one_builtin(Kokkos::rotl(x, i % 32)) +
               static_cast<long long>(KE::byteswap_builtin(x) & 0xff);
      },
      total);
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    const auto x = static_cast<unsigned>(i) * 2654435761u;
    expected += 2 * std::popcount(x) + std::countl_zero(x) + std::countr_zero(x) + std::bit_width(x) +
                std::countl_one(std::rotl(x, i % 32)) + (byteswap_reference(x) & 0xff);
  }
  EXPECT_EQ(total, expected);
}

}  // namespace

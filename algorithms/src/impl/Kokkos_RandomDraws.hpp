#pragma once
// What both of Kokkos' xorshift* generators share: every draw (urand, rand64, drand, normal,
// ranges) is a fixed function of one 64-bit scrambled output, so the two generators differ only
// in how they step their state.  The conversions reproduce Kokkos' own, so a generator seeded
// like Kokkos' yields Kokkos' integers bit for bit; floating-point draws differ only where
// Kokkos' rounding would return the excluded upper bound (see clamp_below).
#include <Kokkos_Macros.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace Kokkos::Impl {

// The largest value of T below x (x finite): what a half-open range [start, end) may return at
// most.  Bit arithmetic rather than std::nextafter so that it also compiles for a device.
template <class T>
KOKKOS_INLINE_FUNCTION T random_next_below(T x) {
  static_assert(std::is_floating_point_v<T> && (sizeof(T) == 4 || sizeof(T) == 8));
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  if (x == T(0)) return -std::numeric_limits<T>::denorm_min();
  Bits bits;
  std::memcpy(&bits, &x, sizeof(T));
  bits = x > T(0) ? bits - 1 : bits + 1;
  std::memcpy(&x, &bits, sizeof(T));
  return x;
}

// Kokkos computes a draw in [start, end) as start + (end - start) * u / 2^64; with u close to
// 2^64 that rounds to `end` (about once in 2^25 float draws), which the documented half-open
// range excludes.  Such a draw becomes the largest value below `end`; every other draw is
// Kokkos' own value.
template <class T>
KOKKOS_INLINE_FUNCTION T random_clamp_below(T value, T start, T end) {
  return (end > start && !(value < end)) ? random_next_below(end) : value;
}

// The draws of a xorshift* generator.  Derived supplies impl_next_scrambled(): it advances the
// state and returns the state times the generator's odd multiplier (mod 2^64).
template <class Derived>
class XorShiftStarDraws {
 public:
  static constexpr std::uint32_t MAX_URAND = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint64_t MAX_URAND64 = std::numeric_limits<std::uint64_t>::max();
  static constexpr std::int32_t MAX_RAND = std::numeric_limits<std::int32_t>::max();
  static constexpr std::int64_t MAX_RAND64 = std::numeric_limits<std::int64_t>::max();

  KOKKOS_INLINE_FUNCTION std::uint32_t urand() {
    return static_cast<std::uint32_t>((self().impl_next_scrambled() >> 16) & MAX_URAND);
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t urand64() { return self().impl_next_scrambled() - 1; }

  // [0, range) without modulo bias: draws at or above the largest multiple of range below the
  // maximum are rejected.  A range of 0 (an empty range) returns 0 and draws nothing.
  KOKKOS_INLINE_FUNCTION std::uint32_t urand(const std::uint32_t& range) {
    return bounded<std::uint32_t, MAX_URAND>(range, [this] { return urand(); });
  }
  KOKKOS_INLINE_FUNCTION std::uint32_t urand(const std::uint32_t& start, const std::uint32_t& end) {
    return urand(end - start) + start;
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t urand64(const std::uint64_t& range) {
    return bounded<std::uint64_t, MAX_URAND64>(range, [this] { return urand64(); });
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t urand64(const std::uint64_t& start, const std::uint64_t& end) {
    return urand64(end - start) + start;
  }

  KOKKOS_INLINE_FUNCTION int rand() { return static_cast<int>(urand() / 2); }
  KOKKOS_INLINE_FUNCTION int rand(const int& range) {
    return bounded<int, MAX_RAND>(range, [this] { return rand(); });
  }
  KOKKOS_INLINE_FUNCTION int rand(const int& start, const int& end) { return rand(end - start) + start; }

  KOKKOS_INLINE_FUNCTION std::int64_t rand64() { return static_cast<std::int64_t>(urand64() / 2); }
  KOKKOS_INLINE_FUNCTION std::int64_t rand64(const std::int64_t& range) {
    return bounded<std::int64_t, MAX_RAND64>(range, [this] { return rand64(); });
  }
  KOKKOS_INLINE_FUNCTION std::int64_t rand64(const std::int64_t& start, const std::int64_t& end) {
    return rand64(end - start) + start;
  }

  KOKKOS_INLINE_FUNCTION float frand() { return frand(1.0f); }
  KOKKOS_INLINE_FUNCTION float frand(const float& range) {
    return random_clamp_below(range * urand64() / static_cast<float>(MAX_URAND64), 0.0f, range);
  }
  KOKKOS_INLINE_FUNCTION float frand(const float& start, const float& end) {
    return random_clamp_below(unclamped_frand(end - start) + start, start, end);
  }

  KOKKOS_INLINE_FUNCTION double drand() { return drand(1.0); }
  KOKKOS_INLINE_FUNCTION double drand(const double& range) {
    return random_clamp_below(range * urand64() / static_cast<double>(MAX_URAND64), 0.0, range);
  }
  KOKKOS_INLINE_FUNCTION double drand(const double& start, const double& end) {
    return random_clamp_below(unclamped_drand(end - start) + start, start, end);
  }

  // Box-Muller, as Kokkos 4.6 draws it: two uniform draws per normal draw, the cosine branch.
  KOKKOS_INLINE_FUNCTION double normal() {
    constexpr double two_pi = 6.283185307179586476925286766559;
    const double u = drand();
    const double v = drand();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(v * two_pi);
  }
  KOKKOS_INLINE_FUNCTION double normal(const double& mean, const double& std_dev = 1.0) {
    return mean + normal() * std_dev;
  }

 private:
  KOKKOS_INLINE_FUNCTION Derived& self() { return static_cast<Derived&>(*this); }

  template <class T, T Max, class Draw>
  KOKKOS_INLINE_FUNCTION static T bounded(const T& range, const Draw& draw) {
    if (range == 0) return 0;
    const T limit = (Max / range) * range;
    T value = draw();
    while (value >= limit) value = draw();
    return value % range;
  }
  // A start/end draw clamps once, against end, after adding start (as Kokkos adds it).
  KOKKOS_INLINE_FUNCTION float unclamped_frand(const float& range) {
    return range * urand64() / static_cast<float>(MAX_URAND64);
  }
  KOKKOS_INLINE_FUNCTION double unclamped_drand(const double& range) {
    return range * urand64() / static_cast<double>(MAX_URAND64);
  }
};

// A pool's initial states, as Kokkos fills them so that a seed gives Kokkos' streams: a
// XorShift64* generator started from the seed discards 17 draws, then each 64-bit state word is
// made of the low 16 bits of four consecutive rand() draws, least significant first.
template <class SeedGenerator>
inline std::uint64_t random_seed_word(SeedGenerator& gen) {
  std::uint64_t word = 0;
  for (int quarter = 0; quarter < 4; ++quarter) {
    word |= (static_cast<std::uint64_t>(gen.rand()) & 0xffffu) << (16 * quarter);
  }
  return word;
}
inline constexpr int random_seed_discard = 17;
// Kokkos replaces a zero seed (and a zero XorShift64 state, a fixed point) by this one.
inline constexpr std::uint64_t random_default_seed = 1318319;

}  // namespace Kokkos::Impl

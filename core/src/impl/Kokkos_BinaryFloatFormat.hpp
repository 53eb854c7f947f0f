#pragma once
// Bit-level conversions between double and a narrow IEEE-style binary format of at most 16 bits
// (binary16: 5 exponent bits, 10 mantissa bits; bfloat16: 8 and 7), rounding to nearest, ties
// to even, with gradual underflow, overflow to infinity and quiet NaNs.  Used by half_t and
// bhalf_t wherever the compiler has no native 16-bit type.
//
// Every value of the narrow formats is exactly a float (and a double), so decoding is exact;
// encoding from double rounds once (going through float first would round twice).
#include <Kokkos_Macros.hpp>

#include <bit>
#include <cstdint>

namespace Kokkos::Experimental::Impl {

template <int ExponentBits, int MantissaBits>
struct binary_float_format {
  static_assert(1 + ExponentBits + MantissaBits <= 16 && ExponentBits >= 2 && ExponentBits <= 10 &&
                MantissaBits >= 1 && MantissaBits <= 51);
  static constexpr int exponent_bits = ExponentBits;
  static constexpr int mantissa_bits = MantissaBits;
  static constexpr int bias = (1 << (ExponentBits - 1)) - 1;
  static constexpr std::uint16_t max_exponent_field = (1u << ExponentBits) - 1u;
  static constexpr std::uint16_t sign_mask = std::uint16_t(1u << (ExponentBits + MantissaBits));
  static constexpr std::uint16_t mantissa_mask = std::uint16_t((1u << MantissaBits) - 1u);
  static constexpr std::uint16_t infinity_bits = std::uint16_t(max_exponent_field << MantissaBits);
  static constexpr std::uint16_t quiet_bit = std::uint16_t(1u << (MantissaBits - 1));
  static constexpr std::uint16_t max_finite_bits = std::uint16_t(infinity_bits - 1u);

  // Rounds m / 2^shift to the nearest integer, ties to even (shift >= 1).
  KOKKOS_INLINE_FUNCTION static constexpr std::uint64_t round_shift(std::uint64_t m, int shift) {
    if (shift >= 64) return 0;  // below half of the smallest step: m < 2^53 <= 2^(shift-1)
    const std::uint64_t kept = m >> shift;
    const std::uint64_t rest = m & ((std::uint64_t(1) << shift) - 1);
    const std::uint64_t half = std::uint64_t(1) << (shift - 1);
    return (rest > half || (rest == half && (kept & 1u))) ? kept + 1 : kept;
  }

  KOKKOS_INLINE_FUNCTION static constexpr std::uint16_t encode(double x) {
    const std::uint64_t b = std::bit_cast<std::uint64_t>(x);
    const std::uint16_t sign = (b >> 63) ? sign_mask : std::uint16_t(0);
    const std::uint64_t magnitude = b & ~(std::uint64_t(1) << 63);
    const int exponent_field = int(magnitude >> 52);
    const std::uint64_t fraction = magnitude & ((std::uint64_t(1) << 52) - 1);
    if (exponent_field == 0x7ff) {
      if (fraction == 0) return std::uint16_t(sign | infinity_bits);
      // NaN: keep the top payload bits, and quiet it.
      return std::uint16_t(sign | infinity_bits | quiet_bit | std::uint16_t(fraction >> (52 - MantissaBits)));
    }
    // Double subnormals are far below the narrow formats' smallest step: they take the path of
    // the narrow subnormals with an exponent that makes them round to zero.
    const int exponent = exponent_field == 0 ? -1022 : exponent_field - 1023;
    const std::uint64_t significand = exponent_field == 0 ? fraction : (fraction | (std::uint64_t(1) << 52));
    const int biased = exponent + bias;
    if (biased >= int(max_exponent_field)) return std::uint16_t(sign | infinity_bits);
    std::uint64_t bits;
    if (biased >= 1) {
      // Normal: the carry of a round-up moves into the exponent (and up to infinity), which is
      // exactly the encoding of the next value.
      bits = (std::uint64_t(biased) << MantissaBits) + round_shift(fraction, 52 - MantissaBits);
    } else {
      // Subnormal: the significand in units of the smallest subnormal 2^(1 - bias - M); a
      // round-up to 2^M is the smallest normal's encoding.
      bits = round_shift(significand, 52 - MantissaBits + 1 - biased);
    }
    if (bits >= infinity_bits) bits = infinity_bits;
    return std::uint16_t(sign | bits);
  }

  KOKKOS_INLINE_FUNCTION static constexpr double decode(std::uint16_t h) {
    const std::uint64_t sign = (h & sign_mask) ? (std::uint64_t(1) << 63) : 0;
    const int exponent_field = (h >> MantissaBits) & max_exponent_field;
    const std::uint64_t mantissa = h & mantissa_mask;
    std::uint64_t b;
    if (exponent_field == int(max_exponent_field)) {
      b = (std::uint64_t(0x7ff) << 52) | (mantissa << (52 - MantissaBits));
      if (mantissa != 0) b |= std::uint64_t(1) << 51;  // a quiet NaN, payload kept
    } else if (exponent_field != 0) {
      b = (std::uint64_t(exponent_field - bias + 1023) << 52) | (mantissa << (52 - MantissaBits));
    } else if (mantissa == 0) {
      b = 0;
    } else {
      // Subnormal: mantissa * 2^(1 - bias - M), normalised for double.
      const int top = std::bit_width(mantissa) - 1;  // position of the leading one
      const int exponent = top + 1 - bias - MantissaBits;
      b = (std::uint64_t(exponent + 1023) << 52) | ((mantissa << (52 - top)) & ((std::uint64_t(1) << 52) - 1));
    }
    return std::bit_cast<double>(sign | b);
  }
};

using binary16_format = binary_float_format<5, 10>;
using bfloat16_format = binary_float_format<8, 7>;

}  // namespace Kokkos::Experimental::Impl

#pragma once
// The bin operators of Kokkos::BinSort: which bin a key falls in, how many bins there are, and
// the order of two keys within a bin.  A key outside [min, max] goes to the nearest end bin
// (Kokkos would index past its bins).
#include <Kokkos_Macros.hpp>
#include <cstdint>
#include <type_traits>

namespace Kokkos {

namespace Impl {
KOKKOS_INLINE_FUNCTION int clamp_bin(double scaled, int bins) {
  const int bin = static_cast<int>(scaled);
  return bin < 0 ? 0 : bin >= bins ? bins - 1 : bin;
}
}  // namespace Impl

// max_bins equal-width bins over [min, max], plus one bin for the keys equal to max.  Integer
// keys with max - min <= max_bins get a bin per value (and so need no sorting within bins).
template <class KeyViewType>
struct BinOp1D {
  int max_bins_ = {};
  double mul_ = {};
  double min_ = {};

  BinOp1D() = delete;

  BinOp1D(int max_bins, typename KeyViewType::const_value_type min, typename KeyViewType::const_value_type max)
      : max_bins_(max_bins + 1),
        mul_(static_cast<double>(max_bins) / (static_cast<double>(max) - static_cast<double>(min))),
        min_(static_cast<double>(min)) {
    if (std::is_integral_v<typename KeyViewType::const_value_type> &&
        static_cast<double>(max) - static_cast<double>(min) <= static_cast<double>(max_bins)) {
      mul_ = 1.;
    }
  }

  template <class ViewType>
  KOKKOS_INLINE_FUNCTION int bin(ViewType& keys, const std::int64_t& i) const {
    return Impl::clamp_bin(mul_ * (static_cast<double>(keys(i)) - min_), max_bins_);
  }

  KOKKOS_INLINE_FUNCTION int max_bins() const { return max_bins_; }

  // Whether key i1 goes before key i2 within a bin.
  template <class ViewType, typename iType1, typename iType2>
  KOKKOS_INLINE_FUNCTION bool operator()(ViewType& keys, iType1& i1, iType2& i2) const {
    return keys(i1) < keys(i2);
  }
};

// Bins over a box for rank-2 keys (i, 0..2): max_bins[d] equal-width bins per dimension, the
// bin index row-major in (d0, d1, d2).  Within a bin, keys go in descending lexicographic order,
// as in Kokkos.
template <class KeyViewType>
struct BinOp3D {
  int max_bins_[3] = {};
  double mul_[3] = {};
  double min_[3] = {};

  BinOp3D() = delete;

  BinOp3D(int max_bins[], typename KeyViewType::const_value_type min[], typename KeyViewType::const_value_type max[]) {
    for (int d = 0; d < 3; ++d) {
      max_bins_[d] = max_bins[d];
      mul_[d] = static_cast<double>(max_bins[d]) / (static_cast<double>(max[d]) - static_cast<double>(min[d]));
      min_[d] = static_cast<double>(min[d]);
    }
  }

  template <class ViewType>
  KOKKOS_INLINE_FUNCTION int bin(ViewType& keys, const std::int64_t& i) const {
    int b = 0;
    for (int d = 0; d < 3; ++d) {
      b = b * max_bins_[d] + Impl::clamp_bin(mul_[d] * (static_cast<double>(keys(i, d)) - min_[d]), max_bins_[d]);
    }
    return b;
  }

  KOKKOS_INLINE_FUNCTION int max_bins() const { return max_bins_[0] * max_bins_[1] * max_bins_[2]; }

  template <class ViewType, typename iType1, typename iType2>
  KOKKOS_INLINE_FUNCTION bool operator()(ViewType& keys, iType1& i1, iType2& i2) const {
    for (int d = 0; d < 3; ++d) {
      if (keys(i1, d) != keys(i2, d)) return keys(i1, d) > keys(i2, d);
    }
    return false;
  }
};

}  // namespace Kokkos

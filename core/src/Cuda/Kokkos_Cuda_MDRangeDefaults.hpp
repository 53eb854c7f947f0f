#pragma once
// MDRangePolicy defaults on Kokkos::Cuda, as in Kokkos' CUDA back end: Iterate::Left outer and
// inner (the first index fastest), and a default tile of up to 64 points in the fastest
// dimension and what remains of 256 threads in the others; at most 1024 points per tile (a tile
// is a block).  Host-only declarations, included by Kokkos_Core.hpp whenever CUDA is enabled,
// so that a policy means the same in translation units nvcc does not compile.
#include <Kokkos_MDRangePolicy.hpp>
#include <Cuda/Kokkos_Cuda.hpp>

namespace Kokkos {
template <>
struct default_outer_direction<Kokkos::Cuda> {
  using type = Iterate;
  static constexpr Iterate value = Iterate::Left;
};
template <>
struct default_inner_direction<Kokkos::Cuda> {
  using type = Iterate;
  static constexpr Iterate value = Iterate::Left;
};
}  // namespace Kokkos

namespace Kokkos::Impl {

template <>
struct MDRangeTileDefaults<Kokkos::Cuda, void> {
  static constexpr long long threads_budget = 256;
  static constexpr long long fastest_max = 64;
  template <class Point>
  static void fill(const Point& lower, const Point& upper, Point& tile, int rank, bool right) {
    long long used = 1;
    for (int d = 0; d < rank; ++d) used *= tile[d] > 0 ? tile[d] : 1;
    for (int k = 0; k < rank; ++k) {
      const int d = right ? rank - 1 - k : k;  // fastest first
      if (tile[d] != 0) continue;
      const long long span = upper[d] - lower[d];
      const long long limit = k == 0 ? fastest_max : (threads_budget / used > 0 ? threads_budget / used : 1);
      long long t = 1;
      while (t < span && t * 2 <= limit) t *= 2;
      tile[d] = t;
      used *= t;
    }
  }
  static constexpr int max_total_tile_size() { return 1024; }
};

}  // namespace Kokkos::Impl

#pragma once
// Shared by the TestStdAlgorithms*.cpp files: random rank-1 Views, contiguous and strided, and
// their contents as std::vectors to run the std:: algorithm on.
#include <Kokkos_Core.hpp>
#include <Kokkos_StdAlgorithms.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace Kokkos::Test::StdAlg {

namespace KE = Kokkos::Experimental;

using Contiguous = Kokkos::View<int*, Kokkos::HostSpace>;
using Strided = Kokkos::View<int*, Kokkos::LayoutStride, Kokkos::HostSpace>;

// Sizes that cover empty, one element, a few, and several chunks per thread.
inline const std::vector<int> sizes = {0, 1, 2, 7, 1000, 10007};

// n values uniform in [0, range): a small range gives repeats, runs and ties.
inline std::vector<int> random_values(int n, int range, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(0, range - 1);
  std::vector<int> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

inline Contiguous contiguous(const std::vector<int>& values) {
  Contiguous v("contiguous", values.size());
  for (std::size_t i = 0; i < values.size(); ++i) v(i) = values[i];
  return v;
}
// Column 1 of an n x 3 LayoutRight matrix: stride 3, the other columns hold sentinels that
// must survive every algorithm.
inline Strided strided(const std::vector<int>& values) {
  Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace> m("matrix", values.size(), 3);
  for (std::size_t i = 0; i < values.size(); ++i) {
    m(i, 0) = -7;
    m(i, 1) = values[i];
    m(i, 2) = -9;
  }
  return Kokkos::subview(m, Kokkos::ALL, 1);
}
// Whether a strided View's neighbours still hold their sentinels.
inline bool sentinels_intact(const Strided& s) {
  const int* base = s.data();
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(s.extent(0)); ++i) {
    if (base[3 * i - 1] != -7 || base[3 * i + 1] != -9) return false;
  }
  return true;
}
inline bool sentinels_intact(const Contiguous&) { return true; }

template <class V>
std::vector<int> to_vector(const V& v) {
  std::vector<int> out(v.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = v(i);
  return out;
}

// f(view, values) for every size, on a contiguous and on a strided View of the same values.
template <class F>
void for_each_layout(int range, unsigned seed, const F& f) {
  for (int n : sizes) {
    const auto values = random_values(n, range, seed + static_cast<unsigned>(n));
    f(contiguous(values), values);
    f(strided(values), values);
  }
}

struct IsMultipleOf {
  int k;
  KOKKOS_INLINE_FUNCTION bool operator()(int x) const { return x % k == 0; }
};
struct IsLess {
  int bound;
  KOKKOS_INLINE_FUNCTION bool operator()(int x) const { return x < bound; }
};
struct Greater {
  KOKKOS_INLINE_FUNCTION bool operator()(int a, int b) const { return a > b; }
};

}  // namespace Kokkos::Test::StdAlg

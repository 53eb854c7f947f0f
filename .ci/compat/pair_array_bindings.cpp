// Kokkos::pair and Kokkos::Array in kernels: an argmin / argmax of a sampled function kept in a
// Kokkos::pair, a three-component Kokkos::Array reduction unpacked with structured bindings,
// subviews from Kokkos::make_pair ranges, and Kokkos::tie.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>

struct Moments {
  using value_type = Kokkos::Array<double, 3>;  // count, sum, sum of squares
  Kokkos::View<const double*> x;
  KOKKOS_FUNCTION void operator()(const int i, value_type& m) const {
    auto& [count, sum, squares] = m;
    count += 1.0;
    sum += x(i);
    squares += x(i) * x(i);
  }
  KOKKOS_FUNCTION void join(value_type& dst, const value_type& src) const {
    for (int k = 0; k < 3; ++k) dst[k] += src[k];
  }
};

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 10000;
  Kokkos::View<double*> x("x", n);
  Kokkos::parallel_for(
      "fill", n, KOKKOS_LAMBDA(const int i) {
        const double t = (i - n / 3) * 1e-3;
        x(i) = t * t - 0.5 * t;  // minimum at t = 0.25, i.e. i = n/3 + 250
      });

  // Argmin over the middle of the range, through a subview taken with a Kokkos::pair.
  const Kokkos::pair<int, int> range = Kokkos::make_pair(1000, 9000);
  auto middle = Kokkos::subview(x, range);
  Kokkos::MinLoc<double, int>::value_type min_loc;
  Kokkos::parallel_reduce(
      "argmin", middle.extent(0),
      KOKKOS_LAMBDA(const int i, Kokkos::MinLoc<double, int>::value_type& best) {
        if (middle(i) < best.val) {
          best.val = middle(i);
          best.loc = i;
        }
      },
      Kokkos::MinLoc<double, int>(min_loc));
  int argmin = 0;
  double minimum = 0.0;
  Kokkos::tie(argmin, minimum) = Kokkos::make_pair(min_loc.loc + range.first, min_loc.val);

  Moments::value_type moments;
  Kokkos::parallel_reduce("moments", n, Moments{x}, moments);
  const auto [count, sum, squares] = moments;
  const double mean = sum / count;
  const double variance = squares / count - mean * mean;

  // Host reference.
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  double ref_sum = 0.0, ref_squares = 0.0;
  int ref_argmin = range.first;
  for (int i = 0; i < n; ++i) {
    ref_sum += h(i);
    ref_squares += h(i) * h(i);
  }
  for (int i = range.first; i < range.second; ++i)
    if (h(i) < h(ref_argmin)) ref_argmin = i;
  const double ref_mean = ref_sum / n;
  const double ref_variance = ref_squares / n - ref_mean * ref_mean;

  const Kokkos::Array<int, 2> expected_min = {n / 3 + 250, ref_argmin};
  const bool ok = argmin == expected_min[0] && argmin == expected_min[1] && minimum == h(argmin) && count == n &&
                  std::abs(mean - ref_mean) <= 1e-12 * std::abs(ref_mean) + 1e-15 &&
                  std::abs(variance - ref_variance) <= 1e-9 * ref_variance;
  std::printf("pair_array_bindings: argmin %d (expected %d), minimum %.6f, mean %.6f, variance %.6f: %s\n",
              argmin, expected_min[0], minimum, mean, variance, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}

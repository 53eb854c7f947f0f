// Fills a View with random numbers, sorts it, and sorts keys with their values: the
// Kokkos_Random + Kokkos_Sort workflow of particle codes (bin particles by a random key).
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <Kokkos_Sort.hpp>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 1 << 18;
  Kokkos::View<double*> x("x", n);
  Kokkos::Random_XorShift64_Pool<> pool(/*seed=*/12345);
  Kokkos::fill_random(x, pool, -10.0, 10.0);
  Kokkos::sort(x);

  int unsorted = 0;
  Kokkos::parallel_reduce(
      "check_sorted", n - 1, KOKKOS_LAMBDA(int i, int& bad) { bad += x(i) > x(i + 1) ? 1 : 0; }, unsorted);
  double lo = 0, hi = 0;
  Kokkos::deep_copy(lo, Kokkos::subview(x, 0));
  Kokkos::deep_copy(hi, Kokkos::subview(x, n - 1));

  // Keys with many duplicates; each value remembers its original index.
  Kokkos::View<int*> keys("keys", n), index("index", n), original("original", n);
  Kokkos::fill_random(keys, pool, 0, 100);
  Kokkos::deep_copy(original, keys);
  Kokkos::parallel_for("iota", n, KOKKOS_LAMBDA(int i) { index(i) = i; });
  Kokkos::Experimental::sort_by_key(Kokkos::DefaultExecutionSpace(), keys, index);
  Kokkos::fence();
  int wrong = 0;
  Kokkos::parallel_reduce(
      "check_pairs", n,
      KOKKOS_LAMBDA(int i, int& bad) {
        bad += (i + 1 < n && keys(i) > keys(i + 1)) ? 1 : 0;
        bad += original(index(i)) != keys(i) ? 1 : 0;
      },
      wrong);

  std::printf("sorted %d doubles in [%.3f, %.3f]: %d out of order; sort_by_key: %d wrong\n", n, lo, hi, unsorted, wrong);
  return (unsorted == 0 && wrong == 0 && lo >= -10.0 && hi < 10.0 && lo < -9.9 && hi > 9.9) ? 0 : 1;
}

// The small public headers a library includes on their own: Kokkos_DetectionIdiom.hpp picks a
// code path by what a type provides (as ArborX does for its callbacks), Kokkos_Functional.hpp
// hashes and compares struct keys of an UnorderedMap with an explicit seed.
#include <Kokkos_DetectionIdiom.hpp>
#include <Kokkos_Functional.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_UnorderedMap.hpp>

#include <cstdio>
#include <utility>

struct Cell {
  int i, j;
};

struct Weighted {
  KOKKOS_FUNCTION double weight(int k) const { return 0.5 * k; }
};
struct Unweighted {};

template <class T>
using weight_t = decltype(std::declval<const T&>().weight(0));

// 1 for every item unless the policy object says otherwise.
template <class Policy>
KOKKOS_FUNCTION double item_weight(const Policy& policy, int k) {
  if constexpr (Kokkos::is_detected_convertible_v<double, weight_t, Policy>) {
    return policy.weight(k);
  } else {
    (void)policy;
    (void)k;
    return 1.0;
  }
}

template <class Policy>
double total_weight(const Policy& policy, int n) {
  double total = 0;
  Kokkos::parallel_reduce(
      "weights", n, KOKKOS_LAMBDA(const int k, double& sum) { sum += item_weight(policy, k); }, total);
  return total;
}

struct SeededCellHash {
  KOKKOS_FUNCTION uint32_t operator()(const Cell& c) const { return Kokkos::pod_hash<Cell>()(c, 12345u); }
};

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  static_assert(!Kokkos::is_detected_v<weight_t, Unweighted>);
  const int n = 1000;
  const double weighted = total_weight(Weighted{}, n), unweighted = total_weight(Unweighted{}, n);

  // Cells (k % 40, k % 25) for k < n: 200 distinct ones (lcm of 40 and 25).
  Kokkos::UnorderedMap<Cell, int, Kokkos::DefaultExecutionSpace, SeededCellHash, Kokkos::pod_equal_to<Cell>> cells(
      512);
  Kokkos::parallel_for(
      "cells", n, KOKKOS_LAMBDA(const int k) { cells.insert(Cell{k % 40, k % 25}, k); });
  Kokkos::fence();
  const bool found = cells.exists(Cell{7, 7}) && !cells.exists(Cell{7, 8}) && !cells.failed_insert();
  const bool ordered = Kokkos::less<int>()(1, 2) && Kokkos::greater_equal<int>()(2, 2) &&
                       !Kokkos::not_equal_to<int>()(3, 3);

  std::printf("detection_and_functional_keys: weights %.1f / %.1f, %u distinct cells\n", weighted, unweighted,
              cells.size());
  return (weighted == 0.5 * n * (n - 1) / 2 && unweighted == n && cells.size() == 200 && found && ordered) ? 0 : 1;
}

#pragma once
// The weighted three-point stencil of seed 000 §III-C2, in place on one array:
//   east = input[0:-2]; central = input[1:-1]; west = input[2:N]
//   loop: output = east + west; central[:] = .5 * output
// Each iteration's two launches fuse (the write through `central` trails the reads through
// `east`/`west` by one index: the skewed schedule); consecutive iterations do not (true
// dependence through different partitions of `input`), so the window splits {1,2} {3,4} ...
// iterate_loop is the hand-written limit: a double-buffered Jacobi sweep, one launch per
// iteration, producing the same values.
// Shared by example/stencil_1d.cpp and perf_tests/PerfFusion.cpp.
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include <cstdint>
#include <utility>

namespace stencil_1d {

namespace KE = Kokkos::Experimental;
using Array = Kokkos::View<double*, Kokkos::HostSpace>;
using Range = std::pair<std::int64_t, std::int64_t>;

// input has output.extent(0) + 2 elements; its first and last stay fixed.
template <class Space>
void iterate(const Space& space, const Array& input, const Array& output, int iterations) {
  const std::int64_t n = static_cast<std::int64_t>(output.extent(0));
  const auto east = Kokkos::subview(input, Range(0, n));
  const auto central = Kokkos::subview(input, Range(1, n + 1));
  const auto west = Kokkos::subview(input, Range(2, n + 2));
  Kokkos::RangePolicy<Space> policy(space, 0, n);
  for (int it = 0; it < iterations; ++it) {
    Kokkos::parallel_for("add", KE::with_accesses(policy, KE::reads(east), KE::reads(west), KE::writes(output)),
                         KOKKOS_LAMBDA(std::int64_t i) { output(i) = east(i) + west(i); });
    Kokkos::parallel_for("scale", KE::with_accesses(policy, KE::reads(output), KE::writes(central)),
                         KOKKOS_LAMBDA(std::int64_t i) { central(i) = .5 * output(i); });
  }
}

// The same values in `input` as iterate, by sweeps alternating between input and scratch
// (same extent as input): new(i + 1) = .5 * (old(i) + old(i + 2)).
template <class Space>
void iterate_loop(const Space& space, const Array& input, const Array& scratch, int iterations) {
  const std::int64_t n = static_cast<std::int64_t>(input.extent(0)) - 2;
  space.fence();
  scratch(0) = input(0);
  scratch(n + 1) = input(n + 1);
  Kokkos::RangePolicy<Space> policy(space, 0, n);
  Array from = input, to = scratch;
  for (int it = 0; it < iterations; ++it) {
    Kokkos::parallel_for(
        "stencil_1d_loop", policy, KOKKOS_LAMBDA(std::int64_t i) { to(i + 1) = .5 * (from(i) + from(i + 2)); });
    std::swap(from, to);
  }
  if (iterations % 2 != 0) {  // the result is in scratch
    Kokkos::parallel_for("stencil_1d_copy_back", policy, KOKKOS_LAMBDA(std::int64_t i) { to(i + 1) = from(i + 1); });
  }
}

}  // namespace stencil_1d

// The weighted three-point stencil of seed 000 §III-C2, in place on one array:
//   east = input[0:-2]; central = input[1:-1]; west = input[2:N]
//   loop: output = east + west; central[:] = .5 * output
// Each iteration's two launches fuse (the write through `central` trails the reads through
// `east`/`west` by one index: the skewed schedule); consecutive iterations do not (true
// dependence through different partitions of `input`), so the window splits {1,2} {3,4} ...
//   stencil_1d [--small]
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

namespace KE = Kokkos::Experimental;
using Array = Kokkos::View<double*, Kokkos::HostSpace>;

void iterate(const Array& input, const Array& output, int iterations) {
  const std::int64_t n = static_cast<std::int64_t>(output.extent(0));
  using Range = std::pair<std::int64_t, std::int64_t>;
  const auto east = Kokkos::subview(input, Range(0, n));
  const auto central = Kokkos::subview(input, Range(1, n + 1));
  const auto west = Kokkos::subview(input, Range(2, n + 2));
  Kokkos::RangePolicy<> policy(0, n);
  for (int it = 0; it < iterations; ++it) {
    Kokkos::parallel_for("add", KE::with_accesses(policy, KE::reads(east), KE::reads(west), KE::writes(output)),
                         KOKKOS_LAMBDA(int i) { output(i) = east(i) + west(i); });
    Kokkos::parallel_for("scale", KE::with_accesses(policy, KE::reads(output), KE::writes(central)),
                         KOKKOS_LAMBDA(int i) { central(i) = .5 * output(i); });
  }
}

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  bool small = false;
  for (int i = 1; i < argc; ++i) small = small || std::strcmp(argv[i], "--small") == 0;
  const std::int64_t N = small ? 1000 : 4000000;
  const int iterations = small ? 10 : 50;
  Array a("a", N), b("b", N), out_a("out_a", N - 2), out_b("out_b", N - 2);
  for (std::int64_t i = 0; i < N; ++i) a(i) = b(i) = (i % 17 == 0) ? 1.0 : 0.0;

  KE::reset_fusion_statistics();
  Kokkos::Timer timer;
  {
    KE::FusionScope scope;
    iterate(a, out_a, iterations);
  }
  const double fused_s = timer.seconds();
  const auto s = KE::fusion_statistics();
  timer.reset();
  iterate(b, out_b, iterations);
  const double unfused_s = timer.seconds();

  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < N; ++i) differ += a(i) != b(i);
  std::printf("1-D stencil, N=%lld, %d iterations: %llu launches -> %llu dispatches, %llu fused of length %llu\n",
              (long long)N, iterations, (unsigned long long)s.launches_recorded, (unsigned long long)s.dispatches,
              (unsigned long long)s.fused_launches, (unsigned long long)s.max_fused_length);
  std::printf("  unfused %.3f ms, fused %.3f ms; results differing: %lld\n", 1e3 * unfused_s, 1e3 * fused_s,
              (long long)differ);
  KE::print_fusion_statistics(std::cout);
  const bool split_as_seed = !KE::fusion_enabled() || s.fused_launches == static_cast<std::uint64_t>(iterations) && s.max_fused_length == 2;
  return differ == 0 && split_as_seed ? 0 : 1;
}

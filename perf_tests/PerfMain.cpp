// Shared main for the perf tests: Kokkos is initialised once with the --kokkos-* flags, then
// Google Benchmark runs with the remaining flags.  Benchmarks report ratios against a peer
// measured in the same process (see each Perf*.cpp).  The exit status is non-zero when any
// benchmark's own result check failed (PerfResultCheck.hpp).
#include "PerfResultCheck.hpp"

#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <iostream>

std::atomic<int>& perf::result_check_failures() {
  static std::atomic<int> failures{0};
  return failures;
}

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  ::benchmark::Initialize(&argc, argv);
  if (::benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  Kokkos::print_configuration(std::cout);
  ::benchmark::RunSpecifiedBenchmarks();
  ::benchmark::Shutdown();
  Kokkos::finalize();
  const int failures = perf::result_check_failures().load();
  if (failures > 0) std::cerr << failures << " benchmark result check(s) failed\n";
  return failures > 0 ? 1 : 0;
}

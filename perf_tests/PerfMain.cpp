// Shared main for the perf tests: Kokkos is initialised once with the --kokkos-* flags, then
// Google Benchmark runs with the remaining flags.  Benchmarks report ratios against a peer
// measured in the same process (see each Perf*.cpp).
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <iostream>

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  ::benchmark::Initialize(&argc, argv);
  if (::benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  Kokkos::print_configuration(std::cout);
  ::benchmark::RunSpecifiedBenchmarks();
  ::benchmark::Shutdown();
  Kokkos::finalize();
  return 0;
}

// Prints the host topology as Kokkos::hwloc reports it and checks that it is consistent with the
// execution spaces' concurrency.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <thread>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const bool hwloc = Kokkos::hwloc::available();
  const unsigned numa = Kokkos::hwloc::get_available_numa_count();
  const unsigned cores = Kokkos::hwloc::get_available_cores_per_numa();
  const unsigned threads = Kokkos::hwloc::get_available_threads_per_core();
  const unsigned hardware_threads = numa * cores * threads;
  const int concurrency = Kokkos::DefaultHostExecutionSpace().concurrency();
  std::printf("topology_query: hwloc %s, %u NUMA node(s) x %u core(s) x %u thread(s) = %u; host concurrency %d\n",
              hwloc ? "available" : "not available", numa, cores, threads, hardware_threads, concurrency);

  bool ok = numa >= 1 && cores >= 1 && threads >= 1;
  if (!hwloc) ok = ok && numa == 1 && threads == 1 && cores == std::thread::hardware_concurrency();
  // Run with --kokkos-num-threads=2 on a machine with at least two hardware threads.
  if (hardware_threads >= 2) ok = ok && concurrency == 2;
  // A UniqueToken of Global scope has one token per hardware thread the space may use.
  Kokkos::Experimental::UniqueToken<Kokkos::DefaultHostExecutionSpace, Kokkos::Experimental::UniqueTokenScope::Global>
      token;
  ok = ok && static_cast<int>(token.size()) >= concurrency;
  std::printf("topology_query: %s\n", ok ? "consistent" : "INCONSISTENT");
  return ok ? 0 : 1;
}

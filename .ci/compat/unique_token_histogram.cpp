// A histogram built without atomics: each thread acquires a UniqueToken and adds into its own
// private copy of the bins; the copies are summed afterwards.
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using ExecSpace = Kokkos::DefaultExecutionSpace;
  const int n = 1 << 20, bins = 16;

  Kokkos::View<int*> data("data", n);
  Kokkos::parallel_for("fill", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(int i) {
    data(i) = (i * 7 + i / 3) % bins;
  });

  Kokkos::Experimental::UniqueToken<ExecSpace> token;
  Kokkos::View<long**> copies("copies", token.size(), bins);
  Kokkos::parallel_for("histogram", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(int i) {
    Kokkos::Experimental::AcquireUniqueToken<ExecSpace> lock(token);
    copies(lock.value(), data(i)) += 1;
  });

  Kokkos::View<long*> histogram("histogram", bins);
  const int copies_count = static_cast<int>(token.size());
  Kokkos::parallel_for("sum copies", Kokkos::RangePolicy<ExecSpace>(0, bins), KOKKOS_LAMBDA(int b) {
    long s = 0;
    for (int c = 0; c < copies_count; ++c) s += copies(c, b);
    histogram(b) = s;
  });
  Kokkos::fence("histogram done");

  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), histogram);
  auto d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), data);
  long expected[16] = {};
  for (int i = 0; i < n; ++i) ++expected[d(i)];
  bool ok = true;
  long total = 0;
  for (int b = 0; b < bins; ++b) {
    ok = ok && h(b) == expected[b];
    total += h(b);
  }
  std::printf("unique_token_histogram: %d tokens, %ld samples binned, %s\n", copies_count, total,
              ok && total == n ? "correct" : "WRONG");
  return ok && total == n ? 0 : 1;
}

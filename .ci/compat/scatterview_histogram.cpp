// A histogram with ScatterView, as in Kokkos' tutorials: each item adds to a bin through an
// accessor; contribute() folds the per-thread copies (or nothing, on back ends that update the
// View atomically) into the result.
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 100000, bins = 64;
  Kokkos::View<int*> values("values", n);
  Kokkos::parallel_for(
      "values", n, KOKKOS_LAMBDA(const int i) { values(i) = (i * 7919) % 1000; });

  Kokkos::View<long*> histogram("histogram", bins);
  auto scatter = Kokkos::Experimental::create_scatter_view(histogram);
  Kokkos::parallel_for(
      "histogram", n, KOKKOS_LAMBDA(const int i) {
        auto access = scatter.access();
        access(values(i) * bins / 1000) += 1;
      });
  Kokkos::Experimental::contribute(histogram, scatter);

  auto h_hist = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), histogram);
  auto h_values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  long expect[bins] = {};
  for (int i = 0; i < n; ++i) ++expect[h_values(i) * bins / 1000];
  int errors = 0;
  long total = 0;
  for (int b = 0; b < bins; ++b) {
    if (h_hist(b) != expect[b]) ++errors;
    total += h_hist(b);
  }
  std::printf("scatterview_histogram: %ld items in %d bins, %d wrong bins\n", total, bins, errors);
  return errors == 0 && total == n ? 0 : 1;
}

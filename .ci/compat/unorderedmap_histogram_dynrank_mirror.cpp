// A hash map's bucket histogram and a run-time-rank array brought to the host: inserts from a
// kernel, get_histogram().calculate(), the histograms mirrored with create_mirror_view_and_copy
// and checked to count every key; then a DynRankView filled in a kernel and mirrored with
// create_mirror_view_and_copy.
#include <Kokkos_Core.hpp>
#include <Kokkos_DynRankView.hpp>
#include <Kokkos_UnorderedMap.hpp>

#include <cstdio>
#include <sstream>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  int failures = 0;

  const int n = 5000;
  Kokkos::UnorderedMap<int, int> map(2 * n);
  Kokkos::parallel_for(
      "insert", n, KOKKOS_LAMBDA(const int i) { map.insert(i * 31 + 7, i); });
  Kokkos::fence();
  auto histogram = map.get_histogram();
  histogram.calculate();
  Kokkos::fence();
  auto lengths = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), histogram.m_length);
  int counted = 0, buckets = 0;
  for (int len = 1; len < 100; ++len) {
    counted += len * lengths(len);
    buckets += lengths(len);
  }
  if (counted != n || lengths(99) != 0) ++failures;
  std::ostringstream text;
  histogram.print_length(text);
  std::printf("%d keys in %d non-empty buckets; lengths: %.40s...\n", counted, buckets, text.str().c_str());

  Kokkos::DynRankView<double> field("field", 40, 30);  // rank chosen at run time
  Kokkos::parallel_for(
      "fill", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {40, 30}),
      KOKKOS_LAMBDA(const int i, const int j) { field(i, j) = 100.0 * i + j; });
  auto host_field = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field);
  if (host_field.rank() != 2 || host_field.extent(0) != 40 || host_field.extent(1) != 30) ++failures;
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 30; ++j)
      if (host_field(i, j) != 100.0 * i + j) ++failures;

  std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}

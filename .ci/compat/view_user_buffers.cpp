// A tutorial-style Kokkos 4 program around Views of memory the application owns:
//  - a C array and a std::vector wrapped in unmanaged Views (the pointer passed as is),
//  - a Fortran-ordered (LayoutLeft) matrix read through a LayoutRight mirror and back,
//  - create_mirror_view_and_copy and deep_copy between layouts,
//  - kokkos_malloc'ed scratch grown with kokkos_realloc,
//  - a sparse gather through a const RandomAccess View.
// Every step checks its result; the program exits non-zero when one is wrong.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using HostExec = Kokkos::DefaultHostExecutionSpace;
  const int rows = 5, cols = 4;

  // 1. A Fortran-ordered matrix owned by the application: a[i + j * rows].
  double column_major[rows * cols];
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) column_major[i + j * rows] = 10.0 * i + j;
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> a(column_major, rows, cols);
  check(a(3, 2) == 32.0, "LayoutLeft view of a column-major array");
  check(a.stride(1) == rows && a.span_is_contiguous(), "LayoutLeft strides");

  // 2. Work on it in row-major order on the default device, then copy back.
  Kokkos::View<double**, Kokkos::LayoutRight> b("b", rows, cols);
  auto b_host = Kokkos::create_mirror_view(b);
  Kokkos::deep_copy(b_host, a);  // host to host across layouts
  Kokkos::deep_copy(b, b_host);
  Kokkos::parallel_for(
      "scale", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {rows, cols}),
      KOKKOS_LAMBDA(int i, int j) { b(i, j) *= 2.0; });
  auto b_copy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  Kokkos::deep_copy(a, b_copy);
  check(column_major[3 + 2 * rows] == 64.0, "the user's buffer sees the result");

  // 3. A byte buffer wrapped as chars and counted in parallel.
  std::vector<char> text(64, '.');
  for (int i = 0; i < 64; i += 8) text[i] = '#';
  char* raw = text.data();
  Kokkos::View<char*, Kokkos::LayoutRight, Kokkos::HostSpace> chars(raw, text.size());
  int hashes = 0;
  Kokkos::parallel_reduce(
      "count", Kokkos::RangePolicy<HostExec>(0, chars.extent(0)),
      KOKKOS_LAMBDA(std::size_t i, int& n) { n += chars(i) == '#' ? 1 : 0; }, hashes);
  check(hashes == 8, "unmanaged char View");

  // 4. Scratch from kokkos_malloc, grown with kokkos_realloc (contents kept).
  const int n = 1000;
  auto* scratch = static_cast<double*>(Kokkos::kokkos_malloc<Kokkos::HostSpace>("scratch", n / 2 * sizeof(double)));
  for (int i = 0; i < n / 2; ++i) scratch[i] = i;
  scratch = static_cast<double*>(Kokkos::kokkos_realloc<Kokkos::HostSpace>(scratch, n * sizeof(double)));
  for (int i = n / 2; i < n; ++i) scratch[i] = i;
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> x_host(scratch, n);

  // 5. Gather y(i) += 0.5 * x(idx(i)) with x read through a const RandomAccess View.
  Kokkos::View<double*> x("x", n), y("y", n);
  Kokkos::View<int*> idx("idx", n);
  Kokkos::deep_copy(x, x_host);
  Kokkos::parallel_for(
      "indices", n, KOKKOS_LAMBDA(int i) {
        idx(i) = (i * 7) % n;
        y(i) = 1.0;
      });
  Kokkos::View<const double*, Kokkos::MemoryTraits<Kokkos::RandomAccess>> x_ra = x;
  Kokkos::View<const int*, Kokkos::MemoryTraits<Kokkos::RandomAccess>> idx_ra = idx;
  Kokkos::parallel_for(
      "gather", n, KOKKOS_LAMBDA(int i) { y(i) += 0.5 * x_ra(idx_ra(i)); });
  auto y_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  bool gathered = true;
  for (int i = 0; i < n; ++i) gathered = gathered && y_host(i) == 1.0 + 0.5 * ((i * 7) % n);
  check(gathered, "RandomAccess gather");
  Kokkos::kokkos_free<Kokkos::HostSpace>(scratch);

  std::printf("view_user_buffers: %s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}

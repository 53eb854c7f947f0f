// A DualView time loop as in Kokkos' tutorials: initialise on the host, sync to the device, run a
// kernel there, mark the device side modified and sync back to read the result on the host.
#include <Kokkos_Core.hpp>
#include <Kokkos_DualView.hpp>
#include <cstdio>

using view_type = Kokkos::DualView<double*, Kokkos::LayoutLeft, Kokkos::DefaultExecutionSpace>;

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 10000, steps = 5;
  view_type a("a", n);
  auto h_a = a.view_host();
  for (int i = 0; i < n; ++i) h_a(i) = i;
  a.modify_host();

  for (int step = 0; step < steps; ++step) {
    a.sync_device();
    auto d_a = a.view_device();
    Kokkos::parallel_for(
        "scale", Kokkos::RangePolicy<view_type::execution_space>(0, n), KOKKOS_LAMBDA(const int i) {
          d_a(i) = 2.0 * d_a(i) + 1.0;
        });
    a.modify_device();
    a.sync_host();
    if (a.need_sync_host()) return 2;
  }
  Kokkos::fence();

  int errors = 0;
  for (int i = 0; i < n; ++i) {
    double expect = i;
    for (int step = 0; step < steps; ++step) expect = 2.0 * expect + 1.0;
    if (a.h_view(i) != expect) ++errors;
  }
  std::printf("dualview_sync_loop: %d errors\n", errors);
  return errors == 0 ? 0 : 1;
}

// A tiny in-process Kokkos Tools tool: callbacks installed with
// Kokkos::Tools::Experimental::set_*_callback count kernels, regions, fences and allocations
// while an ordinary program runs kernels inside Kokkos::Profiling::ScopedRegion scopes.  The
// counts are checked at the end.
#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

namespace counting_tool {
int kernels_begun = 0;
int kernels_ended = 0;
int mismatched_ids = 0;
int open_regions = 0;
int max_region_depth = 0;
int regions = 0;
int fences = 0;
int allocations = 0;
int deallocations = 0;
uint64_t next_kernel_id = 1;
uint64_t open_kernel_id = 0;
std::map<std::string, int> kernels_by_name;

void begin_kernel(const char* name, const uint32_t, uint64_t* kernel_id) {
  ++kernels_begun;
  ++kernels_by_name[name];
  *kernel_id = next_kernel_id++;
  open_kernel_id = *kernel_id;
}
void end_kernel(const uint64_t kernel_id) {
  ++kernels_ended;
  if (kernel_id != open_kernel_id) ++mismatched_ids;
}
void push_region(const char*) {
  ++regions;
  ++open_regions;
  if (open_regions > max_region_depth) max_region_depth = open_regions;
}
void pop_region() { --open_regions; }
void begin_fence(const char*, const uint32_t, uint64_t*) { ++fences; }
void allocate(const Kokkos::Tools::SpaceHandle, const char* label, const void*, const uint64_t) {
  if (std::strcmp(label, "x") == 0 || std::strcmp(label, "y") == 0) ++allocations;
}
void deallocate(const Kokkos::Tools::SpaceHandle, const char* label, const void*, const uint64_t) {
  if (std::strcmp(label, "x") == 0 || std::strcmp(label, "y") == 0) ++deallocations;
}

void install() {
  using namespace Kokkos::Tools::Experimental;
  set_begin_parallel_for_callback(begin_kernel);
  set_end_parallel_for_callback(end_kernel);
  set_begin_parallel_reduce_callback(begin_kernel);
  set_end_parallel_reduce_callback(end_kernel);
  set_begin_parallel_scan_callback(begin_kernel);
  set_end_parallel_scan_callback(end_kernel);
  set_push_region_callback(push_region);
  set_pop_region_callback(pop_region);
  set_begin_fence_callback(begin_fence);
  set_allocate_data_callback(allocate);
  set_deallocate_data_callback(deallocate);
}
}  // namespace counting_tool

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  counting_tool::install();
  int failures = 0;
  const int n = 1000;
  const int steps = 5;
  double dot = 0;
  {
    Kokkos::View<double*> x("x", n), y("y", n);
    Kokkos::Profiling::ScopedRegion whole("axpy program");
    {
      Kokkos::Profiling::ScopedRegion init("init");
      Kokkos::parallel_for("init x", n, KOKKOS_LAMBDA(int i) { x(i) = 1.0; });
      Kokkos::parallel_for("init y", n, KOKKOS_LAMBDA(int i) { y(i) = i; });
    }
    for (int step = 0; step < steps; ++step) {
      Kokkos::Profiling::ScopedRegion iteration("iteration");
      Kokkos::parallel_for("axpy", n, KOKKOS_LAMBDA(int i) { y(i) += 2.0 * x(i); });
    }
    Kokkos::parallel_reduce("dot", n, KOKKOS_LAMBDA(int i, double& s) { s += x(i) * y(i); }, dot);
    Kokkos::fence("end of program");
  }
  Kokkos::Tools::Experimental::set_callbacks({});

  // sum_i (i + 2 * steps)
  const double expected_dot = 0.5 * n * (n - 1) + 2.0 * steps * n;
  auto check = [&](bool ok, const char* what) {
    if (!ok) {
      std::printf("FAILED: %s\n", what);
      ++failures;
    }
  };
  using namespace counting_tool;
  check(dot == expected_dot, "dot product");
  check(kernels_begun == 3 + steps && kernels_ended == kernels_begun, "kernel count");
  check(mismatched_ids == 0, "end callbacks get the kernel id their begin callback wrote");
  check(kernels_by_name["axpy"] == steps && kernels_by_name["dot"] == 1, "kernels by label");
  check(regions == 2 + steps && open_regions == 0 && max_region_depth == 2, "regions nest and close");
  check(fences >= 1, "fence reported");
  check(allocations == 2 && deallocations == 2, "allocations of x and y");
  std::printf("kernels %d, regions %d (depth %d), fences %d: %s\n", kernels_begun, regions, max_region_depth, fences,
              failures == 0 ? "passed" : "FAILED");
  Kokkos::finalize();
  return failures == 0 ? 0 : 1;
}

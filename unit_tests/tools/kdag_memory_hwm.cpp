// A connector that behaves like kokkos-tools' memory-hwm: it follows every allocation and
// deallocation per memory space (the space decided from the handle's name as kokkos-tools does,
// kdag_connector_spaces.hpp) and at finalize prints each space's high-water mark on standard
// output.
#include "kdag_connector_spaces.hpp"

#include <cinttypes>
#include <cstdio>

namespace {
kdag_connector::HighWaterMarks g_marks;
}  // namespace

extern "C" {

void kokkosp_init_library(const int, const uint64_t, const uint32_t, Kokkos_Profiling_KokkosPDeviceInfo*) {}

void kokkosp_finalize_library() {
  std::printf("KokkosP: high water mark memory consumption\n");
  for (int s = 0; s < kdag_connector::num_spaces; ++s) {
    const auto space = static_cast<kdag_connector::Space>(s);
    if (g_marks.max(space) == 0) continue;
    std::printf("KokkosP: %s: %" PRIu64 " bytes (still allocated at finalize: %" PRIu64 ")\n",
                kdag_connector::report_name(space), g_marks.max(space), g_marks.live(space));
  }
}

void kokkosp_allocate_data(const Kokkos_Profiling_SpaceHandle space, const char*, const void*, const uint64_t bytes) {
  g_marks.allocate(kdag_connector::space_of(space), bytes);
}
void kokkosp_deallocate_data(const Kokkos_Profiling_SpaceHandle space, const char*, const void*, const uint64_t bytes) {
  g_marks.deallocate(kdag_connector::space_of(space), bytes);
}

}  // extern "C"

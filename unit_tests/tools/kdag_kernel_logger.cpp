// A connector that behaves like kokkos-tools' kernel-logger: one line on standard output for
// each kernel's begin (its kind, name, device and the region stack it runs in) and end, each
// region, fence, deep copy and allocation.  It is written against Kokkos' public tools headers
// and names only (Kokkos::Profiling::KokkosPDeviceInfo, Kokkos::Tools::SpaceHandle, the
// Kokkos_Profiling_*Function types, the tool settings), so building it checks that they exist
// with Kokkos' spellings and signatures.
#include <impl/Kokkos_Profiling_C_Interface.h>
#include <impl/Kokkos_Profiling_DeviceInfo.hpp>
#include <impl/Kokkos_Profiling_Interface.hpp>

#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace {
std::mutex g_mutex;
std::vector<std::string> g_regions;
uint64_t g_next_kernel = 0;

const char* device_type_name(Kokkos::Tools::Experimental::DeviceType type) {
  using Kokkos::Tools::Experimental::DeviceType;
  switch (type) {
    case DeviceType::Serial: return "Serial";
    case DeviceType::OpenMP: return "OpenMP";
    case DeviceType::Threads: return "Threads";
    case DeviceType::Cuda: return "Cuda";
    default: return "Other";
  }
}

std::string region_stack() {
  std::string stack;
  for (const std::string& region : g_regions) stack += (stack.empty() ? "" : "/") + region;
  return stack;
}

void begin_kernel(const char* kind, const char* name, uint32_t device_id, uint64_t* kernel_id) {
  std::lock_guard lock(g_mutex);
  *kernel_id = g_next_kernel++;
  const auto device = Kokkos::Tools::Experimental::identifier_from_devid(device_id);
  std::printf("KokkosP: begin %s \"%s\" id=%" PRIu64 " device=%s/%u/%u regions=[%s]\n", kind, name, *kernel_id,
              device_type_name(device.type), device.device_id, device.instance_id, region_stack().c_str());
}
void end_kernel(const char* kind, uint64_t kernel_id) {
  std::lock_guard lock(g_mutex);
  std::printf("KokkosP: end %s id=%" PRIu64 "\n", kind, kernel_id);
}
}  // namespace

extern "C" {

void kokkosp_init_library(const int load_sequence, const uint64_t interface_version, const uint32_t device_count,
                          Kokkos::Profiling::KokkosPDeviceInfo*) {
  std::printf("KokkosP: kernel logger initialized (sequence %d, interface %" PRIu64 ", devices %u)\n", load_sequence,
              interface_version, device_count);
}
void kokkosp_finalize_library() { std::printf("KokkosP: kernel logger finalized\n"); }

void kokkosp_request_tool_settings(const uint32_t, Kokkos::Tools::Experimental::ToolSettings* settings) {
  settings->requires_global_fencing = true;
}

void kokkosp_begin_parallel_for(const char* name, const uint32_t device_id, uint64_t* kernel_id) {
  begin_kernel("parallel_for", name, device_id, kernel_id);
}
void kokkosp_end_parallel_for(const uint64_t kernel_id) { end_kernel("parallel_for", kernel_id); }
void kokkosp_begin_parallel_reduce(const char* name, const uint32_t device_id, uint64_t* kernel_id) {
  begin_kernel("parallel_reduce", name, device_id, kernel_id);
}
void kokkosp_end_parallel_reduce(const uint64_t kernel_id) { end_kernel("parallel_reduce", kernel_id); }
void kokkosp_begin_parallel_scan(const char* name, const uint32_t device_id, uint64_t* kernel_id) {
  begin_kernel("parallel_scan", name, device_id, kernel_id);
}
void kokkosp_end_parallel_scan(const uint64_t kernel_id) { end_kernel("parallel_scan", kernel_id); }

void kokkosp_push_profile_region(const char* name) {
  std::lock_guard lock(g_mutex);
  g_regions.emplace_back(name);
  std::printf("KokkosP: push region \"%s\"\n", name);
}
void kokkosp_pop_profile_region() {
  std::lock_guard lock(g_mutex);
  if (g_regions.empty()) {
    std::printf("KokkosP: pop region with no region open\n");
    return;
  }
  std::printf("KokkosP: pop region \"%s\"\n", g_regions.back().c_str());
  g_regions.pop_back();
}

void kokkosp_begin_fence(const char* name, const uint32_t, uint64_t* handle) {
  std::lock_guard lock(g_mutex);
  *handle = g_next_kernel++;
  std::printf("KokkosP: begin fence \"%s\" id=%" PRIu64 "\n", name, *handle);
}
void kokkosp_end_fence(const uint64_t handle) {
  std::lock_guard lock(g_mutex);
  std::printf("KokkosP: end fence id=%" PRIu64 "\n", handle);
}

void kokkosp_allocate_data(const Kokkos::Tools::SpaceHandle space, const char* label, const void*, const uint64_t bytes) {
  std::lock_guard lock(g_mutex);
  std::printf("KokkosP: allocate %s \"%s\" %" PRIu64 " bytes\n", space.name, label, bytes);
}
void kokkosp_deallocate_data(const Kokkos::Profiling::SpaceHandle space, const char* label, const void*,
                             const uint64_t bytes) {
  std::lock_guard lock(g_mutex);
  std::printf("KokkosP: deallocate %s \"%s\" %" PRIu64 " bytes\n", space.name, label, bytes);
}
void kokkosp_begin_deep_copy(Kokkos_Profiling_SpaceHandle dst_space, const char* dst_label, const void*,
                             Kokkos_Profiling_SpaceHandle src_space, const char* src_label, const void*,
                             uint64_t bytes) {
  std::lock_guard lock(g_mutex);
  std::printf("KokkosP: deep_copy %s \"%s\" <- %s \"%s\" %" PRIu64 " bytes\n", dst_space.name, dst_label,
              src_space.name, src_label, bytes);
}

}  // extern "C"

// The entry points have the types Kokkos calls them through, under the C and the C++ names.
static_assert(std::is_same_v<Kokkos::Profiling::KokkosPDeviceInfo, Kokkos_Profiling_KokkosPDeviceInfo>);
static_assert(std::is_same_v<Kokkos::Tools::SpaceHandle, Kokkos_Profiling_SpaceHandle>);
static_assert(std::is_same_v<Kokkos::Profiling::SpaceHandle, Kokkos_Profiling_SpaceHandle>);
static_assert(std::is_same_v<decltype(&kokkosp_init_library), Kokkos_Profiling_initFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_init_library), Kokkos::Profiling::initFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_finalize_library), Kokkos::Tools::finalizeFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_request_tool_settings), Kokkos_Tools_requestToolSettingsFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_begin_parallel_for), Kokkos_Profiling_beginFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_end_parallel_scan), Kokkos::Profiling::endFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_push_profile_region), Kokkos::Profiling::pushFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_pop_profile_region), Kokkos_Profiling_popFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_begin_fence), Kokkos::Tools::beginFenceFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_end_fence), Kokkos_Profiling_endFenceFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_allocate_data), Kokkos::Profiling::allocateDataFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_deallocate_data), Kokkos_Profiling_deallocateDataFunction>);
static_assert(std::is_same_v<decltype(&kokkosp_begin_deep_copy), Kokkos::Tools::beginDeepCopyFunction>);
static_assert(std::is_same_v<Kokkos::Tools::KernelStaticInfo, Kokkos_Profiling_Kernel_Static_Info>);
static_assert(std::is_same_v<Kokkos::Tools::Experimental::VariableInfo, Kokkos_Tools_VariableInfo>);
static_assert(std::is_same_v<Kokkos::Tools::Experimental::requestValueFunction, Kokkos_Tools_requestValueFunction>);

// A connector that behaves like kokkos-tools' simple-kernel-timer: it counts and times every
// kernel (by kind and name) and every region, and at finalize prints one line per entry,
// longest total time first, on standard output.
#include <impl/Kokkos_Profiling_C_Interface.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace {
using Clock = std::chrono::steady_clock;

struct Totals {
  uint64_t calls = 0;
  double seconds = 0;
};

std::mutex g_mutex;
// Keyed by (kind, name).
std::map<std::pair<std::string, std::string>, Totals> g_totals;
// What each running kernel is and when it began, by the id handed to Kokkos.
std::map<uint64_t, std::pair<std::pair<std::string, std::string>, Clock::time_point>> g_running;
std::vector<std::pair<std::string, Clock::time_point>> g_regions;
uint64_t g_next_kernel = 0;

void begin_kernel(const char* kind, const char* name, uint64_t* kernel_id) {
  std::lock_guard lock(g_mutex);
  *kernel_id = g_next_kernel++;
  g_running[*kernel_id] = {{kind, name}, Clock::now()};
}
void end_kernel(uint64_t kernel_id) {
  const auto now = Clock::now();
  std::lock_guard lock(g_mutex);
  const auto it = g_running.find(kernel_id);
  if (it == g_running.end()) return;
  Totals& totals = g_totals[it->second.first];
  ++totals.calls;
  totals.seconds += std::chrono::duration<double>(now - it->second.second).count();
  g_running.erase(it);
}
}  // namespace

extern "C" {

void kokkosp_init_library(const int, const uint64_t, const uint32_t, Kokkos_Profiling_KokkosPDeviceInfo*) {}

void kokkosp_finalize_library() {
  std::lock_guard lock(g_mutex);
  std::vector<std::pair<std::pair<std::string, std::string>, Totals>> rows(g_totals.begin(), g_totals.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
  std::printf("KokkosP: simple kernel timer: %zu entries\n", rows.size());
  for (const auto& [key, totals] : rows) {
    std::printf("KokkosP: %s \"%s\" calls=%" PRIu64 " total=%.9f s\n", key.first.c_str(), key.second.c_str(),
                totals.calls, totals.seconds);
  }
}

void kokkosp_begin_parallel_for(const char* name, const uint32_t, uint64_t* kernel_id) {
  begin_kernel("parallel_for", name, kernel_id);
}
void kokkosp_end_parallel_for(const uint64_t kernel_id) { end_kernel(kernel_id); }
void kokkosp_begin_parallel_reduce(const char* name, const uint32_t, uint64_t* kernel_id) {
  begin_kernel("parallel_reduce", name, kernel_id);
}
void kokkosp_end_parallel_reduce(const uint64_t kernel_id) { end_kernel(kernel_id); }
void kokkosp_begin_parallel_scan(const char* name, const uint32_t, uint64_t* kernel_id) {
  begin_kernel("parallel_scan", name, kernel_id);
}
void kokkosp_end_parallel_scan(const uint64_t kernel_id) { end_kernel(kernel_id); }

void kokkosp_push_profile_region(const char* name) {
  std::lock_guard lock(g_mutex);
  g_regions.emplace_back(name, Clock::now());
}
void kokkosp_pop_profile_region() {
  const auto now = Clock::now();
  std::lock_guard lock(g_mutex);
  if (g_regions.empty()) return;
  Totals& totals = g_totals[{"region", g_regions.back().first}];
  ++totals.calls;
  totals.seconds += std::chrono::duration<double>(now - g_regions.back().second).count();
  g_regions.pop_back();
}

}  // extern "C"

// A connector that behaves like kokkos-tools' space-time-stack: it builds the tree of regions,
// kernels and deep copies (each node by kind and name under the node open when it began) with
// call counts and times, and follows allocations per memory space, deciding the space from the
// SpaceHandle's name as space-time-stack does (kdag_connector_spaces.hpp: an unknown name
// aborts).  At finalize it prints, on standard output, one line per tree node (its path from the
// root) and, per space, the most memory allocated at once with the allocations live at that
// moment.
#include "kdag_connector_spaces.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace {
using Clock = std::chrono::steady_clock;

struct Node {
  std::string path;
  std::string kind;
  uint64_t calls = 0;
  double seconds = 0;
  Clock::time_point started;
  std::map<std::pair<std::string, std::string>, std::unique_ptr<Node>> children;

  Node* child(const std::string& child_kind, const std::string& name) {
    auto& slot = children[{child_kind, name}];
    if (!slot) {
      slot = std::make_unique<Node>();
      slot->path = path.empty() ? name : path + "/" + name;
      slot->kind = child_kind;
    }
    return slot.get();
  }
};

// One live allocation: its label and size.
struct Allocation {
  std::string label;
  uint64_t bytes;
};

std::mutex g_mutex;
Node g_root;
std::vector<Node*> g_open{&g_root};
kdag_connector::HighWaterMarks g_marks;
std::map<const void*, Allocation> g_live[kdag_connector::num_spaces];
std::vector<Allocation> g_at_peak[kdag_connector::num_spaces];
uint64_t g_next_kernel = 0;

// Opens a node under the innermost open one; returns an id for Kokkos to hand back.
uint64_t open_node(const std::string& kind, const std::string& name) {
  std::lock_guard lock(g_mutex);
  Node* node = g_open.back()->child(kind, name);
  ++node->calls;
  node->started = Clock::now();
  g_open.push_back(node);
  return g_next_kernel++;
}
void close_node() {
  const auto now = Clock::now();
  std::lock_guard lock(g_mutex);
  if (g_open.size() == 1) return;
  g_open.back()->seconds += std::chrono::duration<double>(now - g_open.back()->started).count();
  g_open.pop_back();
}

void print(const Node& node) {
  if (&node != &g_root) {
    std::printf("KokkosP: [%s] %s calls=%" PRIu64 " total=%.9f s\n", node.kind.c_str(), node.path.c_str(), node.calls,
                node.seconds);
  }
  std::vector<const Node*> children;
  for (const auto& entry : node.children) children.push_back(entry.second.get());
  std::stable_sort(children.begin(), children.end(), [](const Node* a, const Node* b) { return a->seconds > b->seconds; });
  for (const Node* child : children) print(*child);
}
}  // namespace

extern "C" {

void kokkosp_init_library(const int, const uint64_t, const uint32_t, Kokkos_Profiling_KokkosPDeviceInfo*) {}

void kokkosp_finalize_library() {
  std::lock_guard lock(g_mutex);
  std::printf("KokkosP: space-time-stack report\n");
  print(g_root);
  for (int s = 0; s < kdag_connector::num_spaces; ++s) {
    const auto space = static_cast<kdag_connector::Space>(s);
    if (g_marks.max(space) == 0) continue;
    std::printf("KokkosP: MAX MEMORY ALLOCATED %s: %" PRIu64 " bytes\n", kdag_connector::report_name(space),
                g_marks.max(space));
    for (const Allocation& allocation : g_at_peak[s]) {
      std::printf("KokkosP:   %s \"%s\" %" PRIu64 " bytes\n", kdag_connector::report_name(space),
                  allocation.label.c_str(), allocation.bytes);
    }
  }
}

void kokkosp_begin_parallel_for(const char* name, const uint32_t, uint64_t* kernel_id) {
  *kernel_id = open_node("for", name);
}
void kokkosp_end_parallel_for(const uint64_t) { close_node(); }
void kokkosp_begin_parallel_reduce(const char* name, const uint32_t, uint64_t* kernel_id) {
  *kernel_id = open_node("reduce", name);
}
void kokkosp_end_parallel_reduce(const uint64_t) { close_node(); }
void kokkosp_begin_parallel_scan(const char* name, const uint32_t, uint64_t* kernel_id) {
  *kernel_id = open_node("scan", name);
}
void kokkosp_end_parallel_scan(const uint64_t) { close_node(); }
void kokkosp_push_profile_region(const char* name) { open_node("region", name); }
void kokkosp_pop_profile_region() { close_node(); }

void kokkosp_begin_deep_copy(Kokkos_Profiling_SpaceHandle dst_space, const char* dst_label, const void*,
                             Kokkos_Profiling_SpaceHandle src_space, const char* src_label, const void*, uint64_t) {
  // Both sides must be spaces the tool knows, as in space-time-stack.
  kdag_connector::space_of(dst_space);
  kdag_connector::space_of(src_space);
  open_node("copy", std::string("\"") + dst_label + "\"=\"" + src_label + "\"");
}
void kokkosp_end_deep_copy() { close_node(); }

void kokkosp_allocate_data(const Kokkos_Profiling_SpaceHandle handle, const char* label, const void* pointer,
                           const uint64_t bytes) {
  const auto space = kdag_connector::space_of(handle);
  std::lock_guard lock(g_mutex);
  g_live[space][pointer] = {label, bytes};
  const uint64_t before = g_marks.max(space);
  g_marks.allocate(space, bytes);
  if (g_marks.max(space) > before) {
    g_at_peak[space].clear();
    for (const auto& entry : g_live[space]) g_at_peak[space].push_back(entry.second);
    std::stable_sort(g_at_peak[space].begin(), g_at_peak[space].end(),
                     [](const Allocation& a, const Allocation& b) { return a.bytes > b.bytes; });
  }
}
void kokkosp_deallocate_data(const Kokkos_Profiling_SpaceHandle handle, const char*, const void* pointer,
                             const uint64_t bytes) {
  const auto space = kdag_connector::space_of(handle);
  std::lock_guard lock(g_mutex);
  g_live[space].erase(pointer);
  g_marks.deallocate(space, bytes);
}

}  // extern "C"

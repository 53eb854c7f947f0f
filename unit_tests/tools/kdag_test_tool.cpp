// A Kokkos Tools library for the tests (TestToolsLibrary): every kokkosp_* entry point appends
// one line to the file named by KDAG_TEST_TOOL_LOG ("-": standard error), prefixed by this copy's name (the suite
// builds it twice, as tool A and tool B, to check that libraries chain).  Kernel, fence and
// section ids are this tool's own (A counts from 1000, B from 2000), so that a test can check
// that each end receives the id its begin handed out.
#include <impl/Kokkos_Profiling_C_Interface.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#ifndef KDAG_TEST_TOOL_NAME
#define KDAG_TEST_TOOL_NAME "A"
#endif
#ifndef KDAG_TEST_TOOL_FIRST_ID
#define KDAG_TEST_TOOL_FIRST_ID 1000
#endif

namespace {
std::mutex g_mutex;
uint64_t g_next_id = KDAG_TEST_TOOL_FIRST_ID;
Kokkos_Tools_ToolProgrammingInterface g_kokkos{};

void log_line(const std::string& line) {
  const char* path = std::getenv("KDAG_TEST_TOOL_LOG");
  if (path == nullptr) return;
  std::lock_guard lock(g_mutex);
  if (std::string(path) == "-") {
    std::fprintf(stderr, "%s %s\n", KDAG_TEST_TOOL_NAME, line.c_str());
  } else if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s %s\n", KDAG_TEST_TOOL_NAME, line.c_str());
    std::fclose(f);
  }
}
uint64_t next_id() {
  std::lock_guard lock(g_mutex);
  return g_next_id++;
}
std::string pointer(const void* p) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", p);
  return text;
}
void begin(const char* what, const char* name, uint32_t device_id, uint64_t* id) {
  *id = next_id();
  log_line(std::string(what) + " " + name + " dev=" + std::to_string(device_id) + " id=" + std::to_string(*id));
}
void end(const char* what, uint64_t id) { log_line(std::string(what) + " id=" + std::to_string(id)); }
}  // namespace

extern "C" {

void kokkosp_init_library(const int load_sequence, const uint64_t version, const uint32_t device_count,
                          Kokkos_Profiling_KokkosPDeviceInfo*) {
  log_line("init_library seq=" + std::to_string(load_sequence) + " version=" + std::to_string(version) +
           " devices=" + std::to_string(device_count));
}
void kokkosp_finalize_library() { log_line("finalize_library"); }

void kokkosp_request_tool_settings(const uint32_t count, Kokkos_Tools_ToolSettings* settings) {
  log_line("request_tool_settings " + std::to_string(count) + " default_fencing=" +
           std::to_string(settings->requires_global_fencing));
  settings->requires_global_fencing = false;
}
void kokkosp_provide_tool_programming_interface(const uint32_t count, Kokkos_Tools_ToolProgrammingInterface actions) {
  log_line("provide_tool_programming_interface " + std::to_string(count) +
           (actions.fence != nullptr ? " fence" : " no-fence"));
  g_kokkos = actions;
}

void kokkosp_print_help(char* program) {
  std::fprintf(stderr, "kdag_test_tool %s help for %s\n", KDAG_TEST_TOOL_NAME, program);
}
void kokkosp_parse_args(int argc, char** argv) {
  std::string line = "parse_args " + std::to_string(argc);
  for (int i = 0; i < argc; ++i) line += std::string(" ") + argv[i];
  log_line(line);
}

void kokkosp_begin_parallel_for(const char* name, const uint32_t dev, uint64_t* id) { begin("begin_parallel_for", name, dev, id); }
void kokkosp_end_parallel_for(const uint64_t id) { end("end_parallel_for", id); }
void kokkosp_begin_parallel_reduce(const char* name, const uint32_t dev, uint64_t* id) {
  begin("begin_parallel_reduce", name, dev, id);
}
void kokkosp_end_parallel_reduce(const uint64_t id) { end("end_parallel_reduce", id); }
void kokkosp_begin_parallel_scan(const char* name, const uint32_t dev, uint64_t* id) { begin("begin_parallel_scan", name, dev, id); }
void kokkosp_end_parallel_scan(const uint64_t id) { end("end_parallel_scan", id); }
void kokkosp_begin_fence(const char* name, const uint32_t dev, uint64_t* id) { begin("begin_fence", name, dev, id); }
void kokkosp_end_fence(const uint64_t id) { end("end_fence", id); }

void kokkosp_push_profile_region(const char* name) { log_line(std::string("push_profile_region ") + name); }
void kokkosp_pop_profile_region() { log_line("pop_profile_region"); }

void kokkosp_allocate_data(const Kokkos_Profiling_SpaceHandle space, const char* label, const void* ptr,
                           const uint64_t size) {
  log_line(std::string("allocate_data ") + space.name + " " + label + " " + pointer(ptr) + " " + std::to_string(size));
}
void kokkosp_deallocate_data(const Kokkos_Profiling_SpaceHandle space, const char* label, const void* ptr,
                             const uint64_t size) {
  log_line(std::string("deallocate_data ") + space.name + " " + label + " " + pointer(ptr) + " " + std::to_string(size));
}
void kokkosp_begin_deep_copy(Kokkos_Profiling_SpaceHandle dst_space, const char* dst_label, const void* dst_ptr,
                             Kokkos_Profiling_SpaceHandle src_space, const char* src_label, const void* src_ptr,
                             uint64_t size) {
  log_line(std::string("begin_deep_copy ") + dst_space.name + " " + dst_label + " " + pointer(dst_ptr) + " " +
           src_space.name + " " + src_label + " " + pointer(src_ptr) + " " + std::to_string(size));
}
void kokkosp_end_deep_copy() { log_line("end_deep_copy"); }

void kokkosp_create_profile_section(const char* name, uint32_t* id) {
  *id = static_cast<uint32_t>(next_id());
  log_line(std::string("create_profile_section ") + name + " id=" + std::to_string(*id));
}
void kokkosp_start_profile_section(const uint32_t id) { log_line("start_profile_section id=" + std::to_string(id)); }
void kokkosp_stop_profile_section(const uint32_t id) { log_line("stop_profile_section id=" + std::to_string(id)); }
void kokkosp_destroy_profile_section(const uint32_t id) { log_line("destroy_profile_section id=" + std::to_string(id)); }

// The event "tool fence" makes the tool fence through the programming interface.
void kokkosp_profile_event(const char* name) {
  log_line(std::string("profile_event ") + name);
  if (std::string(name) == "tool fence" && g_kokkos.fence != nullptr) g_kokkos.fence(0);
}
void kokkosp_declare_metadata(const char* key, const char* value) {
  log_line(std::string("declare_metadata ") + key + "=" + value);
}

}  // extern "C"

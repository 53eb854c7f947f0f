// Kokkos Tools entry points: each forwards to its entry of the callback table when one is set.
#include <impl/tools/Kokkos_Profiling.hpp>
#include <impl/tools/Kokkos_ToolsLibraries.hpp>

#include <cstring>
#include <sstream>
#include <vector>

namespace Kokkos::Tools {
namespace {
Experimental::EventSet& callbacks() { return Impl::current_callbacks; }
// What pause_tools() took out of the table.
Experimental::EventSet g_paused_callbacks{};
}  // namespace

bool profileLibraryLoaded() {
  const Experimental::EventSet& c = callbacks();
  return c.begin_parallel_for || c.end_parallel_for || c.begin_parallel_reduce || c.end_parallel_reduce ||
         c.begin_parallel_scan || c.end_parallel_scan || c.push_region || c.pop_region || c.allocate_data ||
         c.deallocate_data || c.create_profile_section || c.start_profile_section || c.stop_profile_section ||
         c.destroy_profile_section || c.profile_event || c.begin_deep_copy || c.end_deep_copy || c.begin_fence ||
         c.end_fence || c.sync_dual_view || c.modify_dual_view || c.declare_metadata || c.init || c.finalize;
}

void beginParallelFor(const std::string& kernelPrefix, const uint32_t devID, uint64_t* kernelID) {
  if (auto f = callbacks().begin_parallel_for) f(kernelPrefix.c_str(), devID, kernelID);
}
void endParallelFor(const uint64_t kernelID) {
  if (auto f = callbacks().end_parallel_for) f(kernelID);
}
void beginParallelReduce(const std::string& kernelPrefix, const uint32_t devID, uint64_t* kernelID) {
  if (auto f = callbacks().begin_parallel_reduce) f(kernelPrefix.c_str(), devID, kernelID);
}
void endParallelReduce(const uint64_t kernelID) {
  if (auto f = callbacks().end_parallel_reduce) f(kernelID);
}
void beginParallelScan(const std::string& kernelPrefix, const uint32_t devID, uint64_t* kernelID) {
  if (auto f = callbacks().begin_parallel_scan) f(kernelPrefix.c_str(), devID, kernelID);
}
void endParallelScan(const uint64_t kernelID) {
  if (auto f = callbacks().end_parallel_scan) f(kernelID);
}

void pushRegion(const std::string& kName) {
  if (auto f = callbacks().push_region) f(kName.c_str());
}
void popRegion() {
  if (auto f = callbacks().pop_region) f();
}

void createProfileSection(const std::string& sectionName, uint32_t* secID) {
  if (auto f = callbacks().create_profile_section) f(sectionName.c_str(), secID);
}
void startSection(const uint32_t secID) {
  if (auto f = callbacks().start_profile_section) f(secID);
}
void stopSection(const uint32_t secID) {
  if (auto f = callbacks().stop_profile_section) f(secID);
}
void destroyProfileSection(const uint32_t secID) {
  if (auto f = callbacks().destroy_profile_section) f(secID);
}

void markEvent(const std::string& eventName) {
  if (auto f = callbacks().profile_event) f(eventName.c_str());
}

void allocateData(const SpaceHandle space, const std::string label, const void* ptr, const uint64_t size) {
  if (auto f = callbacks().allocate_data) f(space, label.c_str(), ptr, size);
}
void deallocateData(const SpaceHandle space, const std::string label, const void* ptr, const uint64_t size) {
  if (auto f = callbacks().deallocate_data) f(space, label.c_str(), ptr, size);
}

void beginDeepCopy(const SpaceHandle dst_space, const std::string dst_label, const void* dst_ptr,
                   const SpaceHandle src_space, const std::string src_label, const void* src_ptr,
                   const uint64_t size) {
  if (auto f = callbacks().begin_deep_copy) f(dst_space, dst_label.c_str(), dst_ptr, src_space, src_label.c_str(), src_ptr, size);
}
void endDeepCopy() {
  if (auto f = callbacks().end_deep_copy) f();
}

void beginFence(const std::string name, const uint32_t deviceId, uint64_t* handle) {
  if (auto f = callbacks().begin_fence) f(name.c_str(), deviceId, handle);
}
void endFence(const uint64_t handle) {
  if (auto f = callbacks().end_fence) f(handle);
}

void declareMetadata(const std::string& key, const std::string& value) {
  if (auto f = callbacks().declare_metadata) f(key.c_str(), value.c_str());
}

void syncDualView(const std::string& label, const void* const ptr, bool to_device) {
  if (auto f = callbacks().sync_dual_view) f(label.c_str(), ptr, to_device);
}
void modifyDualView(const std::string& label, const void* const ptr, bool on_device) {
  if (auto f = callbacks().modify_dual_view) f(label.c_str(), ptr, on_device);
}

void parseArgs(int argc, char** argv) {
  if (auto f = callbacks().parse_args; f != nullptr && argc > 0) f(argc, argv);
}
// Splits on white space, as a command line would be.
void parseArgs(const std::string& args) {
  if (callbacks().parse_args == nullptr) return;
  std::istringstream words(args);
  std::vector<std::string> storage;
  for (std::string word; words >> word;) storage.push_back(word);
  std::vector<char*> argv;
  for (std::string& word : storage) argv.push_back(word.data());
  argv.push_back(nullptr);
  parseArgs(static_cast<int>(storage.size()), argv.data());
}
// The tool receives the first word (the program name when the arguments came from the command
// line), as in Kokkos.
bool printHelp(const std::string& args) {
  auto f = callbacks().print_help;
  if (f == nullptr) return false;
  std::string text = args.substr(0, args.find(' '));
  f(text.data());
  return true;
}

SpaceHandle make_space_handle(const char* space_name) {
  SpaceHandle handle{};
  if (space_name != nullptr) std::strncpy(handle.name, space_name, sizeof(handle.name) - 1);
  return handle;
}

namespace Impl {
void finalize_tools() {
  if (auto f = callbacks().finalize) f();
  callbacks() = Experimental::EventSet{};
  g_paused_callbacks = Experimental::EventSet{};
  forget_tool_libraries();
}
}  // namespace Impl

namespace Experimental {
#define KOKKOS_IMPL_TOOLS_SETTER(SETTER, MEMBER, TYPE) \
  void SETTER(TYPE callback) { callbacks().MEMBER = callback; }
KOKKOS_IMPL_TOOLS_SETTER(set_init_callback, init, initFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_finalize_callback, finalize, finalizeFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_parse_args_callback, parse_args, parseArgsFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_print_help_callback, print_help, printHelpFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_begin_parallel_for_callback, begin_parallel_for, beginFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_end_parallel_for_callback, end_parallel_for, endFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_begin_parallel_reduce_callback, begin_parallel_reduce, beginFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_end_parallel_reduce_callback, end_parallel_reduce, endFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_begin_parallel_scan_callback, begin_parallel_scan, beginFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_end_parallel_scan_callback, end_parallel_scan, endFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_push_region_callback, push_region, pushFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_pop_region_callback, pop_region, popFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_allocate_data_callback, allocate_data, allocateDataFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_deallocate_data_callback, deallocate_data, deallocateDataFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_create_profile_section_callback, create_profile_section, createProfileSectionFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_start_profile_section_callback, start_profile_section, startProfileSectionFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_stop_profile_section_callback, stop_profile_section, stopProfileSectionFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_destroy_profile_section_callback, destroy_profile_section,
                         destroyProfileSectionFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_profile_event_callback, profile_event, profileEventFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_begin_deep_copy_callback, begin_deep_copy, beginDeepCopyFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_end_deep_copy_callback, end_deep_copy, endDeepCopyFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_begin_fence_callback, begin_fence, beginFenceFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_end_fence_callback, end_fence, endFenceFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_dual_view_sync_callback, sync_dual_view, dualViewSyncFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_dual_view_modify_callback, modify_dual_view, dualViewModifyFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_declare_metadata_callback, declare_metadata, declareMetadataFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_request_tool_settings_callback, request_tool_settings, requestToolSettingsFunction)
KOKKOS_IMPL_TOOLS_SETTER(set_provide_tool_programming_interface_callback, provide_tool_programming_interface,
                         provideToolProgrammingInterfaceFunction)
#undef KOKKOS_IMPL_TOOLS_SETTER

EventSet get_callbacks() { return callbacks(); }
void set_callbacks(EventSet new_events) { callbacks() = new_events; }
void pause_tools() {
  g_paused_callbacks = callbacks();
  callbacks() = EventSet{};
}
void resume_tools() {
  callbacks() = g_paused_callbacks;
  g_paused_callbacks = EventSet{};
}
}  // namespace Experimental

}  // namespace Kokkos::Tools

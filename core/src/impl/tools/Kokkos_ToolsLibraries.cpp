// Kokkos Tools libraries: loading the libraries named by --kokkos-tools-libs / KOKKOS_TOOLS_LIBS
// with dlopen, finding their kokkosp_* entry points with dlsym, and installing them into the one
// callback table (Kokkos::Tools::Impl::current_callbacks).
//
// One library: its entry points go into the table directly, so a launch costs what it costs with
// Kokkos.  Several libraries (kdag extension: Kokkos itself loads only the first): each entry point
// that any of them defines becomes a chaining function that calls every library in load order.
// Ids the libraries hand back (kernel ids, fence handles, section ids) are kept per library: the
// chain gives Kokkos one id of its own and remembers which id each library chose.
#include <Kokkos_Core.hpp>
#include <impl/tools/Kokkos_ToolsLibraries.hpp>

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <iostream>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace Kokkos::Tools::Impl {
namespace {

using Experimental::EventSet;

struct LoadedToolLibrary {
  std::string path;
  EventSet events{};
};

std::vector<LoadedToolLibrary> g_libraries;
Experimental::ToolSettings g_tool_settings{};

// Finds `symbol` in `handle` and stores it in `entry`; true when the library defines it.
template <class FunctionPointer>
bool find_entry_point(void* handle, const char* symbol, FunctionPointer& entry) {
  void* address = dlsym(handle, symbol);
  if (address == nullptr) return false;
  // dlsym returns an object pointer; POSIX guarantees the round trip to a function pointer.
  entry = reinterpret_cast<FunctionPointer>(address);
  return true;
}

// Every entry point Kokkos looks up, with the table member it fills.
#define KOKKOS_IMPL_TOOLS_ENTRY_POINTS(X)                                       \
  X(kokkosp_init_library, init)                                                 \
  X(kokkosp_finalize_library, finalize)                                         \
  X(kokkosp_parse_args, parse_args)                                             \
  X(kokkosp_print_help, print_help)                                             \
  X(kokkosp_begin_parallel_for, begin_parallel_for)                             \
  X(kokkosp_end_parallel_for, end_parallel_for)                                 \
  X(kokkosp_begin_parallel_reduce, begin_parallel_reduce)                       \
  X(kokkosp_end_parallel_reduce, end_parallel_reduce)                           \
  X(kokkosp_begin_parallel_scan, begin_parallel_scan)                           \
  X(kokkosp_end_parallel_scan, end_parallel_scan)                               \
  X(kokkosp_push_profile_region, push_region)                                   \
  X(kokkosp_pop_profile_region, pop_region)                                     \
  X(kokkosp_allocate_data, allocate_data)                                       \
  X(kokkosp_deallocate_data, deallocate_data)                                   \
  X(kokkosp_create_profile_section, create_profile_section)                     \
  X(kokkosp_start_profile_section, start_profile_section)                       \
  X(kokkosp_stop_profile_section, stop_profile_section)                         \
  X(kokkosp_destroy_profile_section, destroy_profile_section)                   \
  X(kokkosp_profile_event, profile_event)                                       \
  X(kokkosp_begin_deep_copy, begin_deep_copy)                                   \
  X(kokkosp_end_deep_copy, end_deep_copy)                                       \
  X(kokkosp_begin_fence, begin_fence)                                           \
  X(kokkosp_end_fence, end_fence)                                               \
  X(kokkosp_dual_view_sync, sync_dual_view)                                     \
  X(kokkosp_dual_view_modify, modify_dual_view)                                 \
  X(kokkosp_declare_metadata, declare_metadata)                                 \
  X(kokkosp_provide_tool_programming_interface, provide_tool_programming_interface) \
  X(kokkosp_request_tool_settings, request_tool_settings)

// ---- chaining: one function per table member that calls every library in load order ----

template <auto Member, class Signature>
struct ChainAll;
template <auto Member, class... Args>
struct ChainAll<Member, void (*)(Args...)> {
  static void call(Args... args) {
    for (const LoadedToolLibrary& library : g_libraries) {
      if (auto entry = library.events.*Member) entry(args...);
    }
  }
};

// The ids each library chose for one chained begin (kernel, fence) or one section.
template <class Id>
class ChainedIds {
 public:
  Id remember(std::vector<Id> ids) {
    std::lock_guard lock(m_mutex);
    const Id chained = m_next++;
    m_ids.emplace(chained, std::move(ids));
    return chained;
  }
  std::vector<Id> take(Id chained) {
    std::lock_guard lock(m_mutex);
    auto it = m_ids.find(chained);
    if (it == m_ids.end()) return {};
    std::vector<Id> ids = std::move(it->second);
    m_ids.erase(it);
    return ids;
  }
  std::vector<Id> find(Id chained) {
    std::lock_guard lock(m_mutex);
    auto it = m_ids.find(chained);
    return it == m_ids.end() ? std::vector<Id>{} : it->second;
  }
  void clear() {
    std::lock_guard lock(m_mutex);
    m_ids.clear();
  }

 private:
  std::mutex m_mutex;
  Id m_next = 1;
  std::unordered_map<Id, std::vector<Id>> m_ids;
};
ChainedIds<uint64_t> g_chained_kernel_ids;
ChainedIds<uint32_t> g_chained_section_ids;

template <auto Begin>
void chain_begin(const char* name, const uint32_t device_id, uint64_t* id) {
  std::vector<uint64_t> ids(g_libraries.size(), 0);
  for (size_t i = 0; i < g_libraries.size(); ++i) {
    if (auto entry = g_libraries[i].events.*Begin) entry(name, device_id, &ids[i]);
  }
  *id = g_chained_kernel_ids.remember(std::move(ids));
}
template <auto End>
void chain_end(const uint64_t id) {
  const std::vector<uint64_t> ids = g_chained_kernel_ids.take(id);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (auto entry = g_libraries[i].events.*End) entry(ids[i]);
  }
}

void chain_create_section(const char* name, uint32_t* id) {
  std::vector<uint32_t> ids(g_libraries.size(), 0);
  for (size_t i = 0; i < g_libraries.size(); ++i) {
    if (auto entry = g_libraries[i].events.create_profile_section) entry(name, &ids[i]);
  }
  *id = g_chained_section_ids.remember(std::move(ids));
}
template <auto Member>
void chain_section(const uint32_t id) {
  const bool destroys = Member == &EventSet::destroy_profile_section;
  const std::vector<uint32_t> ids = destroys ? g_chained_section_ids.take(id) : g_chained_section_ids.find(id);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (auto entry = g_libraries[i].events.*Member) entry(ids[i]);
  }
}

// Each library learns its own place in the load order.
void chain_init(const int, const uint64_t version, const uint32_t device_count,
                Kokkos_Profiling_KokkosPDeviceInfo* devices) {
  for (size_t i = 0; i < g_libraries.size(); ++i) {
    if (auto entry = g_libraries[i].events.init) entry(static_cast<int>(i), version, device_count, devices);
  }
}

// Each library answers for itself, starting from Kokkos' default; one that needs global fences
// gets them.
void chain_request_tool_settings(const uint32_t count, Experimental::ToolSettings* settings) {
  bool fencing = false;
  for (const LoadedToolLibrary& library : g_libraries) {
    if (auto entry = library.events.request_tool_settings) {
      Experimental::ToolSettings own = *settings;
      entry(count, &own);
      fencing |= own.requires_global_fencing;
    }
  }
  settings->requires_global_fencing = fencing;
}

template <auto Member>
void install_chained(EventSet& table, auto chained) {
  for (const LoadedToolLibrary& library : g_libraries) {
    if (library.events.*Member != nullptr) {
      table.*Member = chained;
      return;
    }
  }
}

void install_chains(EventSet& table) {
#define KOKKOS_IMPL_CHAIN_ALL(SYMBOL, MEMBER) \
  install_chained<&EventSet::MEMBER>(table, &ChainAll<&EventSet::MEMBER, decltype(EventSet::MEMBER)>::call);
  KOKKOS_IMPL_TOOLS_ENTRY_POINTS(KOKKOS_IMPL_CHAIN_ALL)
#undef KOKKOS_IMPL_CHAIN_ALL
  install_chained<&EventSet::init>(table, &chain_init);
  install_chained<&EventSet::request_tool_settings>(table, &chain_request_tool_settings);
  install_chained<&EventSet::begin_parallel_for>(table, &chain_begin<&EventSet::begin_parallel_for>);
  install_chained<&EventSet::end_parallel_for>(table, &chain_end<&EventSet::end_parallel_for>);
  install_chained<&EventSet::begin_parallel_reduce>(table, &chain_begin<&EventSet::begin_parallel_reduce>);
  install_chained<&EventSet::end_parallel_reduce>(table, &chain_end<&EventSet::end_parallel_reduce>);
  install_chained<&EventSet::begin_parallel_scan>(table, &chain_begin<&EventSet::begin_parallel_scan>);
  install_chained<&EventSet::end_parallel_scan>(table, &chain_end<&EventSet::end_parallel_scan>);
  install_chained<&EventSet::begin_fence>(table, &chain_begin<&EventSet::begin_fence>);
  install_chained<&EventSet::end_fence>(table, &chain_end<&EventSet::end_fence>);
  install_chained<&EventSet::create_profile_section>(table, &chain_create_section);
  install_chained<&EventSet::start_profile_section>(table, &chain_section<&EventSet::start_profile_section>);
  install_chained<&EventSet::stop_profile_section>(table, &chain_section<&EventSet::stop_profile_section>);
  install_chained<&EventSet::destroy_profile_section>(table, &chain_section<&EventSet::destroy_profile_section>);
}

void install_single(EventSet& table, const EventSet& events) {
#define KOKKOS_IMPL_COPY_ENTRY(SYMBOL, MEMBER) \
  if (events.MEMBER != nullptr) table.MEMBER = events.MEMBER;
  KOKKOS_IMPL_TOOLS_ENTRY_POINTS(KOKKOS_IMPL_COPY_ENTRY)
#undef KOKKOS_IMPL_COPY_ENTRY
}

// Loads one library; reports (as Kokkos does, and carries on) when it cannot be loaded or
// defines none of the entry points.
void load_library(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    std::cerr << "Error: Unable to load KokkosP library: " << path << '\n'
              << "dlopen(" << path << ", RTLD_NOW | RTLD_GLOBAL) failed with " << (why ? why : "no reason given")
              << std::endl;
    return;
  }
  LoadedToolLibrary library{path, {}};
  bool any = false;
#define KOKKOS_IMPL_FIND_ENTRY(SYMBOL, MEMBER) any |= find_entry_point(handle, #SYMBOL, library.events.MEMBER);
  KOKKOS_IMPL_TOOLS_ENTRY_POINTS(KOKKOS_IMPL_FIND_ENTRY)
#undef KOKKOS_IMPL_FIND_ENTRY
  if (!any) {
    dlerror();
    dlsym(handle, "kokkosp_init_library");
    const char* why = dlerror();
    std::cerr << "Error: KokkosP library " << path << " defines no kokkosp_* entry point; it is not used as a tool ("
              << "dlsym(kokkosp_init_library) failed with " << (why ? why : "no reason given") << ")" << std::endl;
    return;
  }
  g_libraries.push_back(std::move(library));
}

void tool_invoked_fence(const uint32_t) {
  Kokkos::fence("Kokkos::Tools::Experimental::Impl::tool_invoked_fence: Tool Requested Fence");
}

}  // namespace

void load_tool_libraries(const std::string& paths) {
  std::istringstream list(paths);
  for (std::string path; std::getline(list, path, ';');) {
    if (!path.empty()) load_library(path);
  }
  if (g_libraries.size() == 1) install_single(current_callbacks, g_libraries.front().events);
  else if (g_libraries.size() > 1) install_chains(current_callbacks);
}

void initialize_tools(const InitializationSettings& settings, bool& help_requested) {
  help_requested = false;
  if (settings.has_tools_libs()) load_tool_libraries(settings.get_tools_libs());
  if (auto init = current_callbacks.init) init(0, KOKKOSP_INTERFACE_VERSION, 0, nullptr);
  // Kokkos' default: a tool that does not answer is assumed to need global fences.
  g_tool_settings = Experimental::ToolSettings{};
  g_tool_settings.requires_global_fencing = true;
  if (auto request = current_callbacks.request_tool_settings) request(1, &g_tool_settings);
  if (auto provide = current_callbacks.provide_tool_programming_interface) {
    Experimental::ToolProgrammingInterface actions{};
    actions.fence = &tool_invoked_fence;
    provide(1, actions);
  }
  const std::string args = settings.has_tools_args() ? settings.get_tools_args() : std::string();
  if (settings.has_tools_help() && settings.get_tools_help()) {
    if (!printHelp(args)) std::cerr << "Tool has not provided a help message" << std::endl;
    help_requested = true;
    return;
  }
  if (!args.empty()) parseArgs(args);
}

void forget_tool_libraries() {
  // The libraries stay mapped, as in Kokkos: a tool may have registered exit handlers.
  g_libraries.clear();
  g_chained_kernel_ids.clear();
  g_chained_section_ids.clear();
}

bool tool_requires_global_fencing() { return !g_libraries.empty() && g_tool_settings.requires_global_fencing; }

}  // namespace Kokkos::Tools::Impl

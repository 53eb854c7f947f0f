#pragma once
// Kokkos Tools: the calls user code makes (regions, sections, events, metadata), the in-process
// callback setters, and the hooks the library itself calls around launches, fences, deep copies
// and allocations.
//
// Cost model: every hook first tests one entry of the callback table (Impl::current_callbacks)
// and does nothing else when it is null -- no allocation, no string built.  Callbacks are meant
// to be installed before concurrent work starts (as with a tool library loaded at
// initialisation); the table is not synchronised.
#include <Kokkos_HostSpace.hpp>
#include <Kokkos_Macros.hpp>
#include <impl/Kokkos_Profiling_Interface.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <typeinfo>

namespace Kokkos::Tools {

namespace Impl {
// The one callback table of the process.
inline Experimental::EventSet current_callbacks{};
}  // namespace Impl

// True when any profiling callback is installed.
bool profileLibraryLoaded();

void beginParallelFor(const std::string& kernelPrefix, const uint32_t devID, uint64_t* kernelID);
void endParallelFor(const uint64_t kernelID);
void beginParallelReduce(const std::string& kernelPrefix, const uint32_t devID, uint64_t* kernelID);
void endParallelReduce(const uint64_t kernelID);
void beginParallelScan(const std::string& kernelPrefix, const uint32_t devID, uint64_t* kernelID);
void endParallelScan(const uint64_t kernelID);

void pushRegion(const std::string& kName);
void popRegion();

void createProfileSection(const std::string& sectionName, uint32_t* secID);
void startSection(const uint32_t secID);
void stopSection(const uint32_t secID);
void destroyProfileSection(const uint32_t secID);

void markEvent(const std::string& eventName);

void allocateData(const SpaceHandle space, const std::string label, const void* ptr, const uint64_t size);
void deallocateData(const SpaceHandle space, const std::string label, const void* ptr, const uint64_t size);

void beginDeepCopy(const SpaceHandle dst_space, const std::string dst_label, const void* dst_ptr,
                   const SpaceHandle src_space, const std::string src_label, const void* src_ptr, const uint64_t size);
void endDeepCopy();

void beginFence(const std::string name, const uint32_t deviceId, uint64_t* handle);
void endFence(const uint64_t handle);

void declareMetadata(const std::string& key, const std::string& value);

// DualView's sync / modify events (to_device / on_device: which side is now up to date).
void syncDualView(const std::string& label, const void* const ptr, bool to_device);
void modifyDualView(const std::string& label, const void* const ptr, bool on_device);

// Hand a tool its command-line arguments / ask it for its help text.
void parseArgs(int argc, char** argv);
void parseArgs(const std::string& args);
bool printHelp(const std::string& args);

// A space handle naming `space_name` (truncated to 63 characters).
SpaceHandle make_space_handle(const char* space_name);

namespace Experimental {
void set_init_callback(initFunction callback);
void set_finalize_callback(finalizeFunction callback);
void set_parse_args_callback(parseArgsFunction callback);
void set_print_help_callback(printHelpFunction callback);
void set_begin_parallel_for_callback(beginFunction callback);
void set_end_parallel_for_callback(endFunction callback);
void set_begin_parallel_reduce_callback(beginFunction callback);
void set_end_parallel_reduce_callback(endFunction callback);
void set_begin_parallel_scan_callback(beginFunction callback);
void set_end_parallel_scan_callback(endFunction callback);
void set_push_region_callback(pushFunction callback);
void set_pop_region_callback(popFunction callback);
void set_allocate_data_callback(allocateDataFunction callback);
void set_deallocate_data_callback(deallocateDataFunction callback);
void set_create_profile_section_callback(createProfileSectionFunction callback);
void set_start_profile_section_callback(startProfileSectionFunction callback);
void set_stop_profile_section_callback(stopProfileSectionFunction callback);
void set_destroy_profile_section_callback(destroyProfileSectionFunction callback);
void set_profile_event_callback(profileEventFunction callback);
void set_begin_deep_copy_callback(beginDeepCopyFunction callback);
void set_end_deep_copy_callback(endDeepCopyFunction callback);
void set_begin_fence_callback(beginFenceFunction callback);
void set_end_fence_callback(endFenceFunction callback);
void set_dual_view_sync_callback(dualViewSyncFunction callback);
void set_dual_view_modify_callback(dualViewModifyFunction callback);
void set_declare_metadata_callback(declareMetadataFunction callback);
void set_request_tool_settings_callback(requestToolSettingsFunction callback);
void set_provide_tool_programming_interface_callback(provideToolProgrammingInterfaceFunction callback);

// The whole table at once; pause_tools() empties it until resume_tools() puts it back.
EventSet get_callbacks();
void set_callbacks(EventSet new_events);
void pause_tools();
void resume_tools();

namespace Impl {
// The id of an execution space instance, for fences that name one instance.
struct DirectFenceIDHandle {
  uint32_t value;
};

// Reports a fence of Space around `fence` (begin with the space's device id, end with the
// handle the tool wrote).  The name (a std::string or a C string) becomes a std::string only
// when a tool listens, so an unobserved fence allocates nothing.
template <class Space, class Name, class Fence>
void profile_fence_event(const Name& name, DirectFenceIDHandle instance, const Fence& fence) {
  if (KOKKOS_IMPL_LIKELY(Tools::Impl::current_callbacks.begin_fence == nullptr &&
                         Tools::Impl::current_callbacks.end_fence == nullptr)) {
    fence();
    return;
  }
  uint64_t handle = 0;
  beginFence(name, device_id_root<Space>() + instance.value, &handle);
  fence();
  endFence(handle);
}
template <class Space, class Name, class Fence>
void profile_fence_event(const Name& name, SpecialSynchronizationCases reason, const Fence& fence) {
  profile_fence_event<Space>(name, DirectFenceIDHandle{int_for_synchronization_reason(reason)}, fence);
}
}  // namespace Impl
}  // namespace Experimental

namespace Impl {

// The name a kernel is reported under: its label, or, without one, the functor's type name
// (and the work tag's), as Kokkos does.
template <class Functor, class Tag>
std::string kernel_name(const std::string& label) {
  if (!label.empty()) return label;
  std::string name = typeid(Functor).name();
  if constexpr (!std::is_void_v<Tag>) {
    name += '/';
    name += typeid(Tag).name();
  }
  return name;
}

template <class Policy>
uint32_t policy_device_id(const Policy& policy) {
  return Experimental::device_id(policy.space());
}

// One pair per launch pattern: begin_* before the dispatch, end_* after it with the kernel id
// the begin callback wrote.
#define KOKKOS_IMPL_TOOLS_KERNEL_HOOKS(PATTERN, BEGIN, END)                                                        \
  template <class Functor, class Policy>                                                                           \
  inline void begin_##PATTERN(const Policy& policy, const std::string& label, uint64_t& kernel_id) {               \
    if (KOKKOS_IMPL_UNLIKELY(current_callbacks.begin_##PATTERN != nullptr)) {                                      \
      BEGIN(kernel_name<Functor, typename Policy::work_tag>(label), policy_device_id(policy), &kernel_id);          \
    }                                                                                                              \
  }                                                                                                                \
  inline void end_##PATTERN(uint64_t kernel_id) {                                                                  \
    if (KOKKOS_IMPL_UNLIKELY(current_callbacks.end_##PATTERN != nullptr)) END(kernel_id);                          \
  }
KOKKOS_IMPL_TOOLS_KERNEL_HOOKS(parallel_for, beginParallelFor, endParallelFor)
KOKKOS_IMPL_TOOLS_KERNEL_HOOKS(parallel_reduce, beginParallelReduce, endParallelReduce)
KOKKOS_IMPL_TOOLS_KERNEL_HOOKS(parallel_scan, beginParallelScan, endParallelScan)
#undef KOKKOS_IMPL_TOOLS_KERNEL_HOOKS

// Reports one allocation or deallocation in a memory space.
inline void report_allocation(const char* space_name, const char* label, const void* ptr, uint64_t bytes) {
  if (KOKKOS_IMPL_UNLIKELY(current_callbacks.allocate_data != nullptr)) {
    allocateData(make_space_handle(space_name), label ? label : "", ptr, bytes);
  }
}
inline void report_deallocation(const char* space_name, const char* label, const void* ptr, uint64_t bytes) {
  if (KOKKOS_IMPL_UNLIKELY(current_callbacks.deallocate_data != nullptr)) {
    deallocateData(make_space_handle(space_name), label ? label : "", ptr, bytes);
  }
}

// One side of a deep_copy as Kokkos Tools see it: a View (its memory space, label and data), or
// a host scalar (HostSpace, "Scalar", its address).
template <class T>
concept tools_view_like = requires(const T& v) {
  typename T::memory_space;
  v.label();
  v.data();
  v.span();
};
template <class T>
SpaceHandle deep_copy_space(const T&) {
  if constexpr (tools_view_like<T>) return make_space_handle(T::memory_space::name());
  else return make_space_handle(HostSpace::name());
}
template <class T>
std::string deep_copy_label(const T& side) {
  if constexpr (tools_view_like<T>) return side.label();
  else return "Scalar";
}
template <class T>
const void* deep_copy_pointer(const T& side) {
  if constexpr (tools_view_like<T>) return side.data();
  else return &side;
}

// Reports one deep_copy: begin at construction, end on every path out of the copy.  The size
// is that of the destination View (of the scalar when the destination is one), as in Kokkos.
class DeepCopyEvent {
 public:
  template <class Dst, class Src>
  DeepCopyEvent(const Dst& dst, const Src& src) {
    if (KOKKOS_IMPL_LIKELY(current_callbacks.begin_deep_copy == nullptr)) return;
    uint64_t bytes = sizeof(Dst);
    if constexpr (tools_view_like<Dst>) bytes = dst.span() * sizeof(typename Dst::value_type);
    beginDeepCopy(deep_copy_space(dst), deep_copy_label(dst), deep_copy_pointer(dst), deep_copy_space(src),
                  deep_copy_label(src), deep_copy_pointer(src), bytes);
  }
  ~DeepCopyEvent() {
    if (KOKKOS_IMPL_UNLIKELY(current_callbacks.end_deep_copy != nullptr)) endDeepCopy();
  }
  DeepCopyEvent(const DeepCopyEvent&) = delete;
  DeepCopyEvent& operator=(const DeepCopyEvent&) = delete;
};

// Kokkos::initialize loads the tool libraries and calls the init callbacks once the back ends
// are up (impl/tools/Kokkos_ToolsLibraries.hpp).
// Called by Kokkos::finalize after the finalize hooks: the finalize callback runs, then the
// table is emptied, as Kokkos does.
void finalize_tools();

}  // namespace Impl
}  // namespace Kokkos::Tools

// The older spellings: Kokkos::Profiling::pushRegion etc.
namespace Kokkos::Profiling {
using Kokkos::Tools::allocateData;
using Kokkos::Tools::beginDeepCopy;
using Kokkos::Tools::beginFence;
using Kokkos::Tools::beginParallelFor;
using Kokkos::Tools::beginParallelReduce;
using Kokkos::Tools::beginParallelScan;
using Kokkos::Tools::createProfileSection;
using Kokkos::Tools::deallocateData;
using Kokkos::Tools::declareMetadata;
using Kokkos::Tools::destroyProfileSection;
using Kokkos::Tools::endDeepCopy;
using Kokkos::Tools::endFence;
using Kokkos::Tools::endParallelFor;
using Kokkos::Tools::endParallelReduce;
using Kokkos::Tools::endParallelScan;
using Kokkos::Tools::make_space_handle;
using Kokkos::Tools::markEvent;
using Kokkos::Tools::modifyDualView;
using Kokkos::Tools::parseArgs;
using Kokkos::Tools::popRegion;
using Kokkos::Tools::printHelp;
using Kokkos::Tools::profileLibraryLoaded;
using Kokkos::Tools::pushRegion;
using Kokkos::Tools::startSection;
using Kokkos::Tools::stopSection;
using Kokkos::Tools::syncDualView;
}  // namespace Kokkos::Profiling

#pragma once
// Kokkos Tools types in C++ (Kokkos::Tools and, for older code, Kokkos::Profiling): space
// handles, the callback function types, the table of callbacks (EventSet) and the encoding of
// device ids that begin callbacks receive.
#include <Kokkos_Core_fwd.hpp>
#include <impl/Kokkos_Profiling_C_Interface.h>
#include <impl/Kokkos_Profiling_DeviceInfo.hpp>

#include <climits>
#include <cstdint>

namespace Kokkos::Tools {

using SpaceHandle = Kokkos_Profiling_SpaceHandle;

using initFunction = Kokkos_Profiling_initFunction;
using finalizeFunction = Kokkos_Profiling_finalizeFunction;
using parseArgsFunction = Kokkos_Profiling_parseArgsFunction;
using printHelpFunction = Kokkos_Profiling_printHelpFunction;
using beginFunction = Kokkos_Profiling_beginFunction;
using endFunction = Kokkos_Profiling_endFunction;
using pushFunction = Kokkos_Profiling_pushFunction;
using popFunction = Kokkos_Profiling_popFunction;
using allocateDataFunction = Kokkos_Profiling_allocateDataFunction;
using deallocateDataFunction = Kokkos_Profiling_deallocateDataFunction;
using createProfileSectionFunction = Kokkos_Profiling_createProfileSectionFunction;
using startProfileSectionFunction = Kokkos_Profiling_startProfileSectionFunction;
using stopProfileSectionFunction = Kokkos_Profiling_stopProfileSectionFunction;
using destroyProfileSectionFunction = Kokkos_Profiling_destroyProfileSectionFunction;
using profileEventFunction = Kokkos_Profiling_profileEventFunction;
using beginDeepCopyFunction = Kokkos_Profiling_beginDeepCopyFunction;
using endDeepCopyFunction = Kokkos_Profiling_endDeepCopyFunction;
using beginFenceFunction = Kokkos_Profiling_beginFenceFunction;
using endFenceFunction = Kokkos_Profiling_endFenceFunction;
using dualViewSyncFunction = Kokkos_Profiling_dualViewSyncFunction;
using dualViewModifyFunction = Kokkos_Profiling_dualViewModifyFunction;
using declareMetadataFunction = Kokkos_Profiling_declareMetadataFunction;
using markKernelStaticInfoFunction = Kokkos_Profiling_markKernelStaticInfoFunction;

using KernelStaticInfo = Kokkos_Profiling_Kernel_Static_Info;
// The C structs' sizes are part of the ABI tools are built against.
static_assert(sizeof(KernelStaticInfo) == 512);
static_assert(sizeof(Kokkos_Tools_ToolSettings) == 256 * sizeof(bool));
static_assert(sizeof(Kokkos_Tools_ToolProgrammingInterface) == 32 * sizeof(Kokkos_Tools_functionPointer));

namespace Experimental {
using ToolSettings = Kokkos_Tools_ToolSettings;
using ToolProgrammingInterface = Kokkos_Tools_ToolProgrammingInterface;
using toolInvokedFenceFunction = Kokkos_Tools_toolInvokedFenceFunction;
using requestToolSettingsFunction = Kokkos_Tools_requestToolSettingsFunction;
using provideToolProgrammingInterfaceFunction = Kokkos_Tools_provideToolProgrammingInterfaceFunction;

// Tuning types (kdag asks no tool for tuned values; a tool that implements the callbacks compiles).
using ValueSet = Kokkos_Tools_ValueSet;
using ValueRange = Kokkos_Tools_ValueRange;
using StatisticalCategory = Kokkos_Tools_VariableInfo_StatisticalCategory;
using ValueType = Kokkos_Tools_VariableInfo_ValueType;
using CandidateValueType = Kokkos_Tools_VariableInfo_CandidateValueType;
using SetOrRange = Kokkos_Tools_VariableInfo_SetOrRange;
using VariableInfo = Kokkos_Tools_VariableInfo;
using OptimizationGoal = Kokkos_Tools_OptimizationGoal;
using TuningString = Kokkos_Tools_Tuning_String;
using VariableValue = Kokkos_Tools_VariableValue;
using outputTypeDeclarationFunction = Kokkos_Tools_outputTypeDeclarationFunction;
using inputTypeDeclarationFunction = Kokkos_Tools_inputTypeDeclarationFunction;
using requestValueFunction = Kokkos_Tools_requestValueFunction;
using contextBeginFunction = Kokkos_Tools_contextBeginFunction;
using contextEndFunction = Kokkos_Tools_contextEndFunction;
using optimizationGoalDeclarationFunction = Kokkos_Tools_optimizationGoalDeclarationFunction;
}  // namespace Experimental

namespace Experimental {

// Every callback Kokkos Tools defines for profiling, by Kokkos' member names.  kdag keeps
// exactly one such table: the set_*_callback functions write single entries, set_callbacks
// the whole of it, and a tool library loaded at initialisation fills the same table.  A plain
// aggregate like Kokkos' C struct: EventSet{} (or memset) is the table without callbacks.
struct EventSet {
  initFunction init;
  finalizeFunction finalize;
  parseArgsFunction parse_args;
  printHelpFunction print_help;
  beginFunction begin_parallel_for;
  endFunction end_parallel_for;
  beginFunction begin_parallel_reduce;
  endFunction end_parallel_reduce;
  beginFunction begin_parallel_scan;
  endFunction end_parallel_scan;
  pushFunction push_region;
  popFunction pop_region;
  allocateDataFunction allocate_data;
  deallocateDataFunction deallocate_data;
  createProfileSectionFunction create_profile_section;
  startProfileSectionFunction start_profile_section;
  stopProfileSectionFunction stop_profile_section;
  destroyProfileSectionFunction destroy_profile_section;
  profileEventFunction profile_event;
  beginDeepCopyFunction begin_deep_copy;
  endDeepCopyFunction end_deep_copy;
  beginFenceFunction begin_fence;
  endFenceFunction end_fence;
  dualViewSyncFunction sync_dual_view;
  dualViewModifyFunction modify_dual_view;
  declareMetadataFunction declare_metadata;
  provideToolProgrammingInterfaceFunction provide_tool_programming_interface;
  requestToolSettingsFunction request_tool_settings;
};

// Device ids, as Kokkos encodes them: the back end in the top 8 bits, the device in the next
// 7, the instance in the low 17.  Instance 0 means "every instance" (a global fence).
enum struct DeviceType { Serial, OpenMP, Cuda, HIP, OpenMPTarget, HPX, Threads, SYCL, OpenACC, Unknown };

struct ExecutionSpaceIdentifier {
  DeviceType type;
  uint32_t device_id;
  uint32_t instance_id;
};

constexpr const uint32_t num_type_bits = 8;
constexpr const uint32_t num_device_bits = 7;
constexpr const uint32_t num_instance_bits = 17;
constexpr const uint32_t num_avail_bits = sizeof(uint32_t) * CHAR_BIT;
constexpr const uint32_t NumReservedDeviceIDs = 1;

enum SpecialSynchronizationCases : int {
  GlobalDeviceSynchronization = 1,
  DeepCopyResourceSynchronization = 2,
};

inline uint32_t int_for_synchronization_reason(SpecialSynchronizationCases reason) {
  switch (reason) {
    case GlobalDeviceSynchronization: return 0;
    case DeepCopyResourceSynchronization: return 0x00ffffff;
  }
  return 0;
}

inline DeviceType devicetype_from_uint32t(const uint32_t in) {
  return in < static_cast<uint32_t>(DeviceType::Unknown) ? static_cast<DeviceType>(in) : DeviceType::Unknown;
}

inline ExecutionSpaceIdentifier identifier_from_devid(const uint32_t in) {
  constexpr uint32_t shift = num_avail_bits - num_type_bits;
  return {devicetype_from_uint32t(in >> shift), (~(uint32_t(-1) << num_device_bits)) & (in >> num_instance_bits),
          (~(uint32_t(-1) << num_instance_bits)) & in};
}

template <class ExecutionSpace>
struct DeviceTypeTraits;

#define KOKKOS_IMPL_HOST_DEVICE_TYPE_TRAITS(SPACE)                             \
  template <>                                                                  \
  struct DeviceTypeTraits<::Kokkos::SPACE> {                                   \
    static constexpr DeviceType id = DeviceType::SPACE;                        \
    static int device_id(const ::Kokkos::SPACE&) { return 0; }                 \
  };
#if defined(KOKKOS_ENABLE_SERIAL)
KOKKOS_IMPL_HOST_DEVICE_TYPE_TRAITS(Serial)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
KOKKOS_IMPL_HOST_DEVICE_TYPE_TRAITS(OpenMP)
#endif
#if defined(KOKKOS_ENABLE_THREADS)
KOKKOS_IMPL_HOST_DEVICE_TYPE_TRAITS(Threads)
#endif
#undef KOKKOS_IMPL_HOST_DEVICE_TYPE_TRAITS

template <class ExecutionSpace>
constexpr uint32_t device_id_root() {
  return static_cast<uint32_t>(DeviceTypeTraits<ExecutionSpace>::id) << (num_instance_bits + num_device_bits);
}

template <class ExecutionSpace>
inline uint32_t device_id(const ExecutionSpace& space) noexcept {
  return device_id_root<ExecutionSpace>() +
         (static_cast<uint32_t>(DeviceTypeTraits<ExecutionSpace>::device_id(space)) << num_instance_bits) +
         space.impl_instance_id();
}

}  // namespace Experimental
}  // namespace Kokkos::Tools

namespace Kokkos::Profiling {
using Kokkos::Tools::allocateDataFunction;
using Kokkos::Tools::beginDeepCopyFunction;
using Kokkos::Tools::beginFunction;
using Kokkos::Tools::createProfileSectionFunction;
using Kokkos::Tools::deallocateDataFunction;
using Kokkos::Tools::destroyProfileSectionFunction;
using Kokkos::Tools::endDeepCopyFunction;
using Kokkos::Tools::endFunction;
using Kokkos::Tools::finalizeFunction;
using Kokkos::Tools::initFunction;
using Kokkos::Tools::parseArgsFunction;
using Kokkos::Tools::popFunction;
using Kokkos::Tools::printHelpFunction;
using Kokkos::Tools::profileEventFunction;
using Kokkos::Tools::pushFunction;
using Kokkos::Tools::SpaceHandle;
using Kokkos::Tools::startProfileSectionFunction;
using Kokkos::Tools::stopProfileSectionFunction;
namespace Experimental {
using Kokkos::Tools::Experimental::device_id;
using Kokkos::Tools::Experimental::DeviceType;
using Kokkos::Tools::Experimental::DeviceTypeTraits;
}  // namespace Experimental
}  // namespace Kokkos::Profiling

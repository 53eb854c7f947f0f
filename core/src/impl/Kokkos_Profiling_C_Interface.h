#ifndef KOKKOS_PROFILING_C_INTERFACE_H
#define KOKKOS_PROFILING_C_INTERFACE_H
/* The Kokkos Tools callback types, with Kokkos' C names, so that a tool written against Kokkos'
   header (kokkosp_begin_parallel_for and friends) has the same signatures here.  Meaning of
   the arguments:
     beginFunction(name, device_id, &kernel_id)   the tool may write kernel_id; the matching
                                                  endFunction(kernel_id) receives that value;
     beginFenceFunction(name, device_id, &handle) likewise with endFenceFunction(handle);
     allocate/deallocateDataFunction(space, label, pointer, bytes);
     beginDeepCopyFunction(dst_space, dst_label, dst_pointer, src_space, src_label,
                           src_pointer, bytes);
     createProfileSectionFunction(name, &section_id): the tool chooses the id. */
#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#define KOKKOSP_INTERFACE_VERSION 20240906

struct Kokkos_Profiling_KokkosPDeviceInfo {
  size_t deviceID;
};

struct Kokkos_Profiling_SpaceHandle {
  char name[64];
};

typedef void (*Kokkos_Profiling_initFunction)(const int, const uint64_t, const uint32_t,
                                              struct Kokkos_Profiling_KokkosPDeviceInfo*);
typedef void (*Kokkos_Profiling_finalizeFunction)(void);
typedef void (*Kokkos_Profiling_parseArgsFunction)(int, char**);
typedef void (*Kokkos_Profiling_printHelpFunction)(char*);
typedef void (*Kokkos_Profiling_beginFunction)(const char*, const uint32_t, uint64_t*);
typedef void (*Kokkos_Profiling_endFunction)(uint64_t);
typedef void (*Kokkos_Profiling_pushFunction)(const char*);
typedef void (*Kokkos_Profiling_popFunction)(void);
typedef void (*Kokkos_Profiling_allocateDataFunction)(const struct Kokkos_Profiling_SpaceHandle, const char*,
                                                      const void*, const uint64_t);
typedef void (*Kokkos_Profiling_deallocateDataFunction)(const struct Kokkos_Profiling_SpaceHandle, const char*,
                                                        const void*, const uint64_t);
typedef void (*Kokkos_Profiling_createProfileSectionFunction)(const char*, uint32_t*);
typedef void (*Kokkos_Profiling_startProfileSectionFunction)(const uint32_t);
typedef void (*Kokkos_Profiling_stopProfileSectionFunction)(const uint32_t);
typedef void (*Kokkos_Profiling_destroyProfileSectionFunction)(const uint32_t);
typedef void (*Kokkos_Profiling_profileEventFunction)(const char*);
typedef void (*Kokkos_Profiling_beginDeepCopyFunction)(struct Kokkos_Profiling_SpaceHandle, const char*, const void*,
                                                       struct Kokkos_Profiling_SpaceHandle, const char*, const void*,
                                                       uint64_t);
typedef void (*Kokkos_Profiling_endDeepCopyFunction)(void);
typedef void (*Kokkos_Profiling_beginFenceFunction)(const char*, const uint32_t, uint64_t*);
typedef void (*Kokkos_Profiling_endFenceFunction)(uint64_t);
typedef void (*Kokkos_Profiling_dualViewSyncFunction)(const char*, const void* const, bool);
typedef void (*Kokkos_Profiling_dualViewModifyFunction)(const char*, const void* const, bool);
typedef void (*Kokkos_Profiling_declareMetadataFunction)(const char*, const char*);

/* What a tool asks of Kokkos (kokkosp_request_tool_settings) and what Kokkos offers a tool
   (kokkosp_provide_tool_programming_interface): the padding keeps the layout fixed when
   members are added. */
struct Kokkos_Tools_ToolSettings {
  bool requires_global_fencing;
  bool padding[255];
};

typedef void (*Kokkos_Tools_functionPointer)(void);
typedef void (*Kokkos_Tools_toolInvokedFenceFunction)(const uint32_t);
struct Kokkos_Tools_ToolProgrammingInterface {
  Kokkos_Tools_toolInvokedFenceFunction fence;
  Kokkos_Tools_functionPointer padding[31];
};

typedef void (*Kokkos_Tools_requestToolSettingsFunction)(const uint32_t, struct Kokkos_Tools_ToolSettings*);
typedef void (*Kokkos_Tools_provideToolProgrammingInterfaceFunction)(const uint32_t,
                                                                     struct Kokkos_Tools_ToolProgrammingInterface);

#endif

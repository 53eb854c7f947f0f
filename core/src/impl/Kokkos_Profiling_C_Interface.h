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

/* What Kokkos may tell a tool about a kernel besides its name (markKernelStaticInfoFunction);
   the union fixes the size, so that fields can be added without changing the layout.  (An
   enumerator, not a const int, so that the size is a constant expression in C as well.) */
enum { Kokkos_Profiling_Kernel_Static_Info_Size = 512 };
struct Kokkos_Profiling_Kernel_Static_Info {
  union {
    struct {
      uint64_t functor_size;
    };
    char padding[Kokkos_Profiling_Kernel_Static_Info_Size];
  };
};

typedef void (*Kokkos_Profiling_initFunction)(const int, const uint64_t, const uint32_t,
                                              struct Kokkos_Profiling_KokkosPDeviceInfo*);
typedef void (*Kokkos_Profiling_finalizeFunction)(void);
typedef void (*Kokkos_Profiling_parseArgsFunction)(int, char**);
typedef void (*Kokkos_Profiling_printHelpFunction)(char*);
typedef void (*Kokkos_Profiling_beginFunction)(const char*, const uint32_t, uint64_t*);
typedef void (*Kokkos_Profiling_endFunction)(uint64_t);
typedef void (*Kokkos_Profiling_markKernelStaticInfoFunction)(uint64_t,
                                                              const struct Kokkos_Profiling_Kernel_Static_Info*);
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

/* The tuning types, under Kokkos' names, so that a tool that also implements Kokkos' tuning
   callbacks compiles; kdag itself asks no tool for tuned values. */
#define KOKKOS_TOOLS_TUNING_STRING_LENGTH 64
typedef char Kokkos_Tools_Tuning_String[KOKKOS_TOOLS_TUNING_STRING_LENGTH];

union Kokkos_Tools_VariableValue_ValueUnion {
  int64_t int_value;
  double double_value;
  Kokkos_Tools_Tuning_String string_value;
};
union Kokkos_Tools_VariableValue_ValueUnionSet {
  int64_t* int_value;
  double* double_value;
  Kokkos_Tools_Tuning_String* string_value;
};
struct Kokkos_Tools_ValueSet {
  size_t size;
  union Kokkos_Tools_VariableValue_ValueUnionSet values;
};

enum Kokkos_Tools_OptimizationType { Kokkos_Tools_Minimize, Kokkos_Tools_Maximize };
struct Kokkos_Tools_OptimizationGoal {
  size_t type_id;
  enum Kokkos_Tools_OptimizationType goal;
};

struct Kokkos_Tools_ValueRange {
  union Kokkos_Tools_VariableValue_ValueUnion lower;
  union Kokkos_Tools_VariableValue_ValueUnion upper;
  union Kokkos_Tools_VariableValue_ValueUnion step;
  bool openLower;
  bool openUpper;
};

enum Kokkos_Tools_VariableInfo_ValueType { kokkos_value_double, kokkos_value_int64, kokkos_value_string };
/* categorical: unordered; ordinal: ordered; interval: distances mean something; ratio: ratios too
   (a true zero). */
enum Kokkos_Tools_VariableInfo_StatisticalCategory {
  kokkos_value_categorical,
  kokkos_value_ordinal,
  kokkos_value_interval,
  kokkos_value_ratio
};
/* set: one of listed values; range: within bounds; unbounded: any (context variables only). */
enum Kokkos_Tools_VariableInfo_CandidateValueType { kokkos_value_set, kokkos_value_range, kokkos_value_unbounded };

union Kokkos_Tools_VariableInfo_SetOrRange {
  struct Kokkos_Tools_ValueSet set;
  struct Kokkos_Tools_ValueRange range;
};
struct Kokkos_Tools_VariableInfo {
  enum Kokkos_Tools_VariableInfo_ValueType type;
  enum Kokkos_Tools_VariableInfo_StatisticalCategory category;
  enum Kokkos_Tools_VariableInfo_CandidateValueType valueQuantity;
  union Kokkos_Tools_VariableInfo_SetOrRange candidates;
  void* toolProvidedInfo;
};
struct Kokkos_Tools_VariableValue {
  size_t type_id;
  union Kokkos_Tools_VariableValue_ValueUnion value;
  struct Kokkos_Tools_VariableInfo* metadata;
};

typedef void (*Kokkos_Tools_outputTypeDeclarationFunction)(const char*, const size_t, struct Kokkos_Tools_VariableInfo*);
typedef void (*Kokkos_Tools_inputTypeDeclarationFunction)(const char*, const size_t, struct Kokkos_Tools_VariableInfo*);
typedef void (*Kokkos_Tools_requestValueFunction)(const size_t, const size_t, const struct Kokkos_Tools_VariableValue*,
                                                  const size_t, struct Kokkos_Tools_VariableValue*);
typedef void (*Kokkos_Tools_contextBeginFunction)(const size_t);
typedef void (*Kokkos_Tools_contextEndFunction)(const size_t, struct Kokkos_Tools_VariableValue);
typedef void (*Kokkos_Tools_optimizationGoalDeclarationFunction)(const size_t,
                                                                 const struct Kokkos_Tools_OptimizationGoal);

#endif

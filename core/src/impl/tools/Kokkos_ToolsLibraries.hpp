#pragma once
// Loading Kokkos Tools libraries (--kokkos-tools-libs / KOKKOS_TOOLS_LIBS) at initialisation.
#include <impl/Kokkos_InitializationSettings.hpp>

#include <string>

namespace Kokkos::Tools::Impl {

// Loads every library of the semicolon-separated list in order and installs its kokkosp_* entry
// points into the callback table (chained when there are several).  A library that cannot be
// loaded or defines no entry point is reported on std::cerr, naming the path and dlerror's text,
// and skipped, as Kokkos does.
void load_tool_libraries(const std::string& paths);

// Called by Kokkos::initialize once the back ends are up: loads settings.get_tools_libs(), then
// calls init (load sequence, interface version, no device info), request_tool_settings,
// provide_tool_programming_interface (with a fence that fences every back end), and then either
// print_help (--kokkos-tools-help: help_requested is set and Kokkos exits) or parse_args with
// --kokkos-tools-args.
void initialize_tools(const InitializationSettings& settings, bool& help_requested);

// Called by finalize_tools once finalize_library has run.
void forget_tool_libraries();

// Whether a loaded tool asked for a global fence around each kernel (kokkosp_request_tool_settings).
bool tool_requires_global_fencing();

}  // namespace Kokkos::Tools::Impl

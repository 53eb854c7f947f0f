#pragma once
// Kokkos Tools for user code: Kokkos::Tools::pushRegion / popRegion, profile sections,
// markEvent, declareMetadata, and the in-process callback setters in
// Kokkos::Tools::Experimental (set_begin_parallel_for_callback, ...).
#include <impl/tools/Kokkos_Profiling.hpp>

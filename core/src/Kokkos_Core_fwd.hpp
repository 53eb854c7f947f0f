#pragma once
// Forward declarations of the spaces and the default space aliases.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Concepts.hpp>
#include <string>

namespace Kokkos {
class HostSpace;

// Kokkos' placeholder for "no type given" in template argument lists, distinct from void.
struct InvalidType {};

// Tag of the execution space constructors that make an independent instance, e.g.
// Kokkos::Serial(Kokkos::NewInstance{}).
struct NewInstance {
  explicit NewInstance() = default;
};
#if defined(KOKKOS_ENABLE_SERIAL)
class Serial;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
class OpenMP;
#endif
#if defined(KOKKOS_ENABLE_THREADS)
class Threads;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
class Cuda;
class CudaSpace;
class CudaUVMSpace;
class CudaHostPinnedSpace;
#endif

#if defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_CUDA)
using DefaultExecutionSpace = Cuda;
#elif defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_OPENMP)
using DefaultExecutionSpace = OpenMP;
#elif defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_THREADS)
using DefaultExecutionSpace = Threads;
#elif defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_SERIAL)
using DefaultExecutionSpace = Serial;
#endif

#if defined(KOKKOS_ENABLE_OPENMP)
using DefaultHostExecutionSpace = OpenMP;
#elif defined(KOKKOS_ENABLE_THREADS)
using DefaultHostExecutionSpace = Threads;
#else
using DefaultHostExecutionSpace = Serial;
#endif

// Lifecycle, defined in Kokkos_Core.hpp / impl/Kokkos_Core.cpp.
bool is_initialized() noexcept;
bool is_finalized() noexcept;
void fence(const char* label = "Kokkos::fence: Unnamed Global Fence");

namespace Impl {
// Aborts with a message naming `what` when called before initialize() or after finalize().
void check_initialized(const char* what);
// Waits for every back end's outstanding work without flushing the calling thread's fusion
// window (deep_copy uses it after flushing only the launches that touch its Views).
void fence_backends(const char* label);
// Prints a warning on std::cerr unless --kokkos-disable-warnings was given.
void log_warning(const std::string& message);
}  // namespace Impl
}  // namespace Kokkos

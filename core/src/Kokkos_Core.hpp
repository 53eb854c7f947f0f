#pragma once
// The umbrella header: everything a Kokkos program includes.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Concepts.hpp>
#include <Kokkos_DetectionIdiom.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_Assert.hpp>
#include <Kokkos_Printf.hpp>
#include <Kokkos_Timer.hpp>
#include <Kokkos_Tools.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>
#include <Kokkos_Profiling_ProfileSection.hpp>
#include <Kokkos_Trace.hpp>
#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_NumericTraits.hpp>
#include <Kokkos_MathematicalConstants.hpp>
#include <Kokkos_MathematicalFunctions.hpp>
#include <Kokkos_MathematicalSpecialFunctions.hpp>
#include <Kokkos_Pair.hpp>
#include <Kokkos_MinMax.hpp>
#include <Kokkos_Clamp.hpp>
#include <Kokkos_Swap.hpp>
#include <Kokkos_Array.hpp>
#include <Kokkos_HostSpace.hpp>
#if defined(KOKKOS_ENABLE_CUDA)
#include <Cuda/Kokkos_CudaSpace.hpp>
#endif
#include <Kokkos_hwloc.hpp>
#include <Kokkos_Atomic.hpp>
#include <impl/Kokkos_InitializationSettings.hpp>
#if defined(KOKKOS_ENABLE_SERIAL)
#include <Serial/Kokkos_Serial.hpp>
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
#include <OpenMP/Kokkos_OpenMP.hpp>
#endif
#if defined(KOKKOS_ENABLE_THREADS)
#include <Threads/Kokkos_Threads.hpp>
#endif
#if defined(KOKKOS_ENABLE_CUDA)
#include <Cuda/Kokkos_Cuda.hpp>
#endif
#include <Kokkos_View.hpp>
#include <Kokkos_Malloc.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_Parallel.hpp>
#include <Kokkos_Parallel_Reduce.hpp>
#include <Kokkos_Complex.hpp>
#include <Kokkos_Half.hpp>
#include <Kokkos_MDRangePolicy.hpp>
#if defined(KOKKOS_ENABLE_CUDA)
#include <Cuda/Kokkos_Cuda_MDRangeDefaults.hpp>
#endif
#include <Kokkos_TeamPolicy.hpp>
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include <Cuda/Kokkos_Cuda_Parallel.hpp>
#endif
#include <Kokkos_NestedMDPolicies.hpp>
#include <Kokkos_MemoryPool.hpp>
#include <Kokkos_Crs.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>
#include <Kokkos_TaskScheduler.hpp>
#include <Kokkos_PartitionSpace.hpp>
#include <Kokkos_UniqueToken.hpp>
#include <Kokkos_LocalDeepCopy.hpp>
#include <Kokkos_Graph.hpp>
// The back ends' implementations of the policies above: after them, since they specialise the
// policies' dispatch (only this header and the back-end folders name a back end).
#include <Host/Kokkos_HostParallelWorkGraph.hpp>
#if defined(KOKKOS_ENABLE_CUDA)
#include <Cuda/Kokkos_Cuda_DeepCopy.hpp>
#include <Cuda/Kokkos_Cuda_Task.hpp>
#endif
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include <Cuda/Kokkos_Cuda_WorkGraph.hpp>
#endif

#include <functional>
#include <iosfwd>
#include <string>

namespace Kokkos {

void initialize(int& argc, char* argv[]);
void initialize(const InitializationSettings& settings = InitializationSettings());
void finalize();
// Runs at finalize(), in reverse order of registration, before the back ends shut down.
void push_finalize_hook(std::function<void()> hook);
void print_configuration(std::ostream& os, bool verbose = false);
// False after --kokkos-disable-warnings / KOKKOS_DISABLE_WARNINGS.
bool show_warnings() noexcept;
// True after --kokkos-tune-internals / InitializationSettings::set_tune_internals(true).
bool tune_internals() noexcept;
// The threads of DefaultHostExecutionSpace (--kokkos-num-threads); after initialize().
int num_threads() noexcept;
// The CUDA device number of the GPU in use, after initialize(); -1 in a build without a device back
// end or when no GPU is usable.
int device_id() noexcept;
// The GPUs this process sees, also before initialize(); -1 in a build without a device back end.
int num_devices() noexcept;

// RAII initialize/finalize, as in Kokkos.
class ScopeGuard {
 public:
  ScopeGuard(int& argc, char* argv[]);
  explicit ScopeGuard(const InitializationSettings& settings = InitializationSettings());
  ~ScopeGuard();
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;
};

namespace Experimental {
// Threads per task team: hardware threads per core found by hwloc, unless forced with
// --kokkos-task-team-size=N / KOKKOS_TASK_TEAM_SIZE / InitializationSettings::set_task_team_size.
int task_team_size() noexcept;
}  // namespace Experimental

}  // namespace Kokkos

#pragma once
// The few calls the rest of the library makes into the fusion layer (Kokkos_Fusion.hpp).
//
// They are cheap when nothing is recorded (one thread-local load), and they do not need the
// fusion machinery to be included: the window registers its flush function the first time it
// records a launch.  Where they are called:
//   dispatch_parallel_for / dispatch_parallel_reduce / parallel_scan:
//       Impl::fusion_before_dispatch(policy);       // a launch without declared accesses
//   Kokkos::fence(), ExecSpace::fence():  Impl::fusion_flush_if_pending(FusionFlush::fence);
//   deep_copy (and mirror copies):       Impl::fusion_flush_touching(base, bytes);  per View
#include <cstddef>
#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>

namespace Kokkos::Impl {

// Why a window was flushed; statistics count each.
enum class FusionFlush : std::uint8_t {
  fence,               // Kokkos::fence() or ExecSpace::fence()
  scope_end,           // a FusionScope ended (or fusion_end())
  deep_copy,           // deep_copy / mirror copy touching a recorded View
  unannotated_launch,  // a launch without declared accesses
  reduce_result,       // a parallel_reduce whose result the host needs
  window_full,         // the window reached its size limit
  explicit_flush,      // fusion_flush() / FusionScope::flush()
  switched_off,        // set_fusion_enabled(false) with launches pending
  deallocation,        // an allocation freed while launches are pending
  communication,       // a message (mpi/src/Kokkos_MPI.hpp) needs the recorded launches it depends on
  count_
};

// Per host thread: launches are recorded by the thread that issues them, in program order.
struct FusionHookState {
  bool pending = false;  // the calling thread's window holds recorded launches
  void (*flush)(FusionFlush reason) = nullptr;
  bool (*touches)(const void* base, std::size_t bytes) = nullptr;
  // The label of a pending launch that writes (or reduces into) the allocation, or null.
  const char* (*pending_writer)(const void* allocation) = nullptr;
  // The label of the launch with declared accesses being issued (see fusion_before_dispatch).
  const std::string* issuing_label = nullptr;
  // Whether a host allocation of `bytes` made now should be reserved, not materialised: the
  // window records, and a View created now may be a temporary it eliminates
  // (impl/fusion/Kokkos_FusionTemporaries.hpp).
  bool (*defers_allocation)(std::size_t bytes) = nullptr;
};
inline thread_local FusionHookState t_fusion_hooks;

inline void fusion_flush_if_pending(FusionFlush reason = FusionFlush::fence) {
  FusionHookState& s = t_fusion_hooks;
  if (s.pending) s.flush(reason);
}

inline bool fusion_defers_allocation(std::size_t bytes) {
  FusionHookState& s = t_fusion_hooks;
  return s.defers_allocation != nullptr && s.defers_allocation(bytes);
}

// deep_copy hook: flushes when a recorded launch accesses any byte of [base, base + bytes).
inline void fusion_flush_touching(const void* base, std::size_t bytes) {
  FusionHookState& s = t_fusion_hooks;
  if (s.pending && s.touches(base, bytes)) s.flush(FusionFlush::deep_copy);
}

// Opening and closing the calling thread's fusion window, for code (Kokkos_Graph.hpp) that
// must not include the fusion machinery: Kokkos_Fusion.hpp sets them, and only a program that
// includes it can issue launches with declared accesses.
struct FusionScopeHooks {
  void (*open)() = nullptr;
  void (*close)() = nullptr;
};
inline FusionScopeHooks& fusion_scope_hooks() {
  static FusionScopeHooks hooks;
  return hooks;
}

template <class Policy>
struct is_fusion_access_policy : std::false_type {};

// The label of the launch with declared accesses being dispatched on this thread: the fusion
// layer reports the launch where it runs (impl/fusion/Kokkos_FusionReport.hpp), not at dispatch.
inline thread_local const std::string* t_fusion_launch_label = nullptr;
struct FusionLaunchLabel {
  explicit FusionLaunchLabel(const std::string& label) : previous(t_fusion_launch_label) { t_fusion_launch_label = &label; }
  ~FusionLaunchLabel() { t_fusion_launch_label = previous; }
  FusionLaunchLabel(const FusionLaunchLabel&) = delete;
  FusionLaunchLabel& operator=(const FusionLaunchLabel&) = delete;
  const std::string* previous;
};

// Set by every translation unit compiled with the stale-read check (Kokkos_View.hpp, debug
// builds): only then does a window keep its launches' labels, for the check's message.
inline std::atomic<bool>& fusion_keeps_labels() {
  static std::atomic<bool> keep{false};
  return keep;
}

// The label of a pending recorded launch of this thread that writes `allocation`, or null.
inline const char* fusion_pending_writer(const void* allocation) {
  FusionHookState& s = t_fusion_hooks;
  return s.pending && allocation != nullptr ? s.pending_writer(allocation) : nullptr;
}

// Called by every launch front end before dispatch: a launch that does not declare its
// accesses may touch anything, so everything recorded before it runs first.
template <class Policy>
inline void fusion_before_dispatch(const Policy&, const std::string& label) {
  // A launch with declared accesses is recorded, on a host back end or on Cuda
  // (Cuda/Kokkos_Cuda_Fusion.hpp), or runs at once where its front end decides.
  if constexpr (!is_fusion_access_policy<Policy>::value) {
    fusion_flush_if_pending(FusionFlush::unannotated_launch);
  } else {
    t_fusion_hooks.issuing_label = &label;
  }
}
template <class Policy>
inline void fusion_before_dispatch(const Policy& policy) {
  static const std::string unnamed;
  fusion_before_dispatch(policy, unnamed);
}

}  // namespace Kokkos::Impl

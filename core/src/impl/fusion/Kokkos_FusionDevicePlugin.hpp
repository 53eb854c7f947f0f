#pragma once
// What a device back end plugs into the fusion window: a launch's device record and the replay
// of a memoized window as one unit of work (Cuda/Kokkos_Cuda_Fusion.hpp implements both).
#include <impl/fusion/Kokkos_FusionAnalysis.hpp>
#include <impl/fusion/Kokkos_FusionDeviceChoice.hpp>
#include <impl/fusion/Kokkos_FusionTemporaries.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace Kokkos::Impl {

struct FusedRun;
struct FusionLaunch;

// How a device back end replays a memoized window as one unit of work (Cuda: a CUDA graph,
// Cuda/Kokkos_Cuda_Fusion.hpp), kept by the window per memoized plan: begin(instance) starts recording the instance's work (false:
// it cannot, nothing changed); the window is then dispatched as usual, recorded instead of
// run; end_and_launch updates or re-creates `replay` from the recording and launches it,
// returning whether it re-created it; abort discards a recording; launch launches `replay` as
// it is (the window is the one it recorded, bit for bit).
struct FusionDeviceReplay {
  bool (*begin)(const void* instance);
  bool (*end_and_launch)(const void* instance, std::shared_ptr<void>& replay);
  void (*abort)(const void* instance);
  void (*launch)(const void* instance, const std::shared_ptr<void>& replay);
};

// What a device back end records beside a launch (Cuda/Kokkos_Cuda_Fusion.hpp); it lives in the
// launch's blob.  Without -rdc a kernel can only call device code of its own translation unit,
// so launches fuse into one kernel only when `unit` agrees.
struct FusionDeviceLaunch {
  const void* unit = nullptr;      // the translation unit that recorded the launch
  const void* instance = nullptr;  // the execution space instance (its stream)
  const void* closure = nullptr;   // the functor's bytes, copied into a fused kernel
  std::uint32_t closure_bytes = 0, closure_align = 1;
  const void* (*body_address)() = nullptr;  // a loop's body in `unit`'s module (device address)
  const FusionDeviceReplay* replay = nullptr;  // set for launches whose windows can be replayed
  const FusionDeviceTimer* timer = nullptr;    // set where memoized windows choose their way by timing
  // Whether run_fused offers the other register policy and the other tile shape
  // (FusionDeviceKernelVariant; closed where the user fixed the knob).
  bool other_registers_open = false, other_tile_open = false;
  // Runs launches[0, count) as one kernel, launches[count - 1] being this launch and the others
  // loops of the same unit, in the kernel variant asked for; false when the kernel cannot take
  // the shape the launches need (nothing ran).  The run's eliminated temporaries, when the
  // kernel is the whole run, are temporaries[0, *num_temporaries); a kernel that keeps them
  // materialised instead (it cannot hold their tiles) sets *num_temporaries to 0.
  bool (*run_fused)(const FusionLaunch* launches, std::uint32_t count, const FusionTemporary* temporaries,
                    std::uint32_t* num_temporaries, FusionDeviceKernelVariant variant) = nullptr;
};
// How verify mode (Kokkos_FusionVerify.hpp) reads and writes the memory of a window with
// launches on a device back end: synchronize waits for all the device's work; copy copies
// between any two addresses the process can name (device, host, managed).  Set by the back end.
struct FusionDeviceMemory {
  void (*synchronize)() = nullptr;
  void (*copy)(void* dst, const void* src, std::size_t bytes) = nullptr;
};
inline FusionDeviceMemory& fusion_device_memory() {
  static FusionDeviceMemory memory;
  return memory;
}

// The most closure bytes and loops one fused device kernel takes (its parameter space).
inline constexpr std::size_t fusion_device_closure_capacity = 8 * 1024;
inline constexpr std::uint32_t fusion_device_max_bodies = 32;

// How a launch with declared accesses on a device execution space joins the fusion window.  A
// device back end that fuses specialises it (Cuda/Kokkos_Cuda_Fusion.hpp) with
//   parallel_for(functor, access_policy): record the launch, or run it when no window records;
//   parallel_reduce(functor_reducer, access_policy, result): record the reduction at the end of
//     the window and flush it, returning true, or return false to have it run as it is.
// Elsewhere such a launch runs as it is, after the window's pending launches.
template <class ExecSpace>
struct FusionDeviceBackend {
  static constexpr bool records = false;
};

}  // namespace Kokkos::Impl

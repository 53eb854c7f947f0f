#pragma once
// Kokkos::Experimental::FusionStatistics: what the fusion layer did (Kokkos_Fusion.hpp's
// fusion_statistics()), counted as seed 000's Tables II and III count it.
#include <impl/fusion/Kokkos_FusionAnalysis.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace Kokkos::Experimental {

// Counters since start (or reset_fusion_statistics()), summed over all host threads.  The
// names follow seed 000 Tables II and III.
struct FusionStatistics {
  std::uint64_t launches_recorded = 0;  // launches with declared accesses inside a window
  std::uint64_t launches_inline = 0;    // launches inside a window that ran at once (nothing to fuse with)
  std::uint64_t launches_fused = 0;     // of those, launches that ran inside a fused launch
  std::uint64_t fused_launches = 0;     // fused launches (runs of two or more) dispatched
  // Of those, by the adaptive dispatch (impl/fusion/Kokkos_FusionDispatchChoice.hpp): run on the
  // calling thread, run in short or long chunks, and run launch by launch because that measured
  // faster.
  std::uint64_t fused_on_caller = 0, fused_short_chunks = 0, fused_long_chunks = 0, fused_runs_unfused = 0;
  std::uint64_t dispatches = 0;         // launches dispatched for recorded work (fused or not)
  std::uint64_t min_fused_length = 0, max_fused_length = 0;
  std::uint64_t skewed_runs = 0;  // fused runs that needed the skewed schedule
  // Waves of independent runs (impl/fusion/Kokkos_FusionAnalysis.hpp, FusionWave) found, and those run
  // concurrently on disjoint groups of workers, with the runs they held.
  std::uint64_t waves = 0, waves_concurrent = 0, runs_concurrent = 0;
  // Temporaries eliminated (impl/fusion/Kokkos_FusionTemporaries.hpp), the bytes they would have
  // materialised, and the largest chunk buffers a flush used for them (all workers together).
  std::uint64_t temporaries_eliminated = 0, temporary_bytes_eliminated = 0, temporary_buffer_bytes = 0;
  // Device back ends (Cuda/Kokkos_Cuda_Fusion.hpp): fused kernels launched; fused runs split into
  // several kernels because their bodies together exceed one kernel's parameter space or came
  // from several translation units; and fused pieces run launch by launch because the fused
  // kernel cannot take the plain launch's shape (registers).
  std::uint64_t device_fused_kernels = 0, device_runs_split = 0, device_runs_unfused = 0;
  // Memoized device windows replayed as one graph (updated in place) and graph instantiations
  // (a window's first replay, or one whose structure the update refused).
  std::uint64_t device_graph_replays = 0, device_graph_instantiations = 0;
  // Memoized device windows run another way than the default fused one, because that measured
  // faster on the device (impl/fusion/Kokkos_FusionDeviceChoice.hpp): fused kernels of the other
  // register policy or tile shape; launch by launch replayed as one graph; launch by launch.
  std::uint64_t device_windows_other_registers = 0, device_windows_other_tile = 0;
  std::uint64_t device_windows_unfused_graph = 0, device_windows_unfused = 0;
  std::array<std::uint64_t, Kokkos::Impl::fusion_constraint_count> barriers{};  // by Kokkos::Impl::FusionConstraint
  std::array<std::uint64_t, static_cast<int>(Kokkos::Impl::FusionFlush::count_)> flushes{};  // by Kokkos::Impl::FusionFlush
  std::uint64_t windows_analysed = 0, memo_hits = 0;
  double analysis_seconds = 0;  // canonical key + memo lookup + analysis, all windows

  double avg_fused_length() const {
    return fused_launches == 0 ? 0.0 : static_cast<double>(launches_fused) / static_cast<double>(fused_launches);
  }
  double fraction_fused() const {
    return launches_recorded == 0 ? 0.0 : static_cast<double>(launches_fused) / static_cast<double>(launches_recorded);
  }
  double memo_hit_rate() const {
    return windows_analysed == 0 ? 0.0 : static_cast<double>(memo_hits) / static_cast<double>(windows_analysed);
  }
  double analysis_ns_per_launch() const {
    return launches_recorded == 0 ? 0.0 : 1e9 * analysis_seconds / static_cast<double>(launches_recorded);
  }
  std::uint64_t barrier_count(Kokkos::Impl::FusionConstraint c) const { return barriers[static_cast<int>(c)]; }
  std::uint64_t flush_count(Kokkos::Impl::FusionFlush f) const { return flushes[static_cast<int>(f)]; }

  // Adds another window's (or thread's) counters: sums, except the fused-length extremes (the
  // smallest non-zero minimum, the largest maximum) and the chunk buffers (the largest).
  FusionStatistics& operator+=(const FusionStatistics& o);
};

inline FusionStatistics& FusionStatistics::operator+=(const FusionStatistics& o) {
  launches_recorded += o.launches_recorded;
  launches_inline += o.launches_inline;
  launches_fused += o.launches_fused;
  fused_launches += o.fused_launches;
  fused_on_caller += o.fused_on_caller;
  fused_short_chunks += o.fused_short_chunks;
  fused_long_chunks += o.fused_long_chunks;
  fused_runs_unfused += o.fused_runs_unfused;
  dispatches += o.dispatches;
  if (o.min_fused_length != 0 && (min_fused_length == 0 || o.min_fused_length < min_fused_length)) {
    min_fused_length = o.min_fused_length;
  }
  max_fused_length = std::max(max_fused_length, o.max_fused_length);
  skewed_runs += o.skewed_runs;
  waves += o.waves;
  waves_concurrent += o.waves_concurrent;
  runs_concurrent += o.runs_concurrent;
  temporaries_eliminated += o.temporaries_eliminated;
  temporary_bytes_eliminated += o.temporary_bytes_eliminated;
  temporary_buffer_bytes = std::max(temporary_buffer_bytes, o.temporary_buffer_bytes);
  device_fused_kernels += o.device_fused_kernels;
  device_runs_split += o.device_runs_split;
  device_runs_unfused += o.device_runs_unfused;
  device_graph_replays += o.device_graph_replays;
  device_graph_instantiations += o.device_graph_instantiations;
  device_windows_other_registers += o.device_windows_other_registers;
  device_windows_other_tile += o.device_windows_other_tile;
  device_windows_unfused_graph += o.device_windows_unfused_graph;
  device_windows_unfused += o.device_windows_unfused;
  for (std::size_t k = 0; k < barriers.size(); ++k) barriers[k] += o.barriers[k];
  for (std::size_t k = 0; k < flushes.size(); ++k) flushes[k] += o.flushes[k];
  windows_analysed += o.windows_analysed;
  memo_hits += o.memo_hits;
  analysis_seconds += o.analysis_seconds;
  return *this;
}

}  // namespace Kokkos::Experimental

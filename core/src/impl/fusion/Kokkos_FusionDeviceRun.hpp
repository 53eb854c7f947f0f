#pragma once
// Fused execution of a run on a device back end, and the replay of a memoized window as one
// unit of work (FusionDeviceReplay; Cuda/Kokkos_Cuda_Fusion.hpp provides the device side).
#include <impl/fusion/Kokkos_FusionWindow.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace Kokkos::Impl {

// A fused run on a device back end: one kernel per piece.  Pieces end where the launches' units
// change (a kernel calls only its own translation unit's code), where a skewed run's tail starts
// (the head's kernel has finished every index before the tail's reads its neighbours), and where
// the next launch's closure no longer fits the kernel's parameter space.  A piece of one launch
// runs as the plain launch; so does every launch where this flush's way does not fuse
// (m_device_way), its eliminated temporaries then materialised.
inline void FusionWindow::execute_on_device(const FusionRun& run, Kokkos::Experimental::FusionStatistics& delta) const {
  const FusionLaunch* launches = m_launches.data() + run.first;
  const auto alone = [&](std::uint32_t from, std::uint32_t to) {
    for (std::uint32_t k = from; k < to; ++k) execute_alone_reported(run.first + k);
  };
  if (launches[0].begin == launches[0].end) {  // nothing to fuse; a reduction still yields init
    alone(0, run.count);
    return;
  }
  const std::uint32_t tail = run.split >= 0 ? static_cast<std::uint32_t>(run.split) : run.count;
  const auto aligned = [](std::size_t offset, const FusionDeviceLaunch& d) {
    return (offset + d.closure_align - 1) / d.closure_align * d.closure_align;
  };
  struct {
    const FusionTemporary* first = nullptr;
    std::uint32_t count = 0;
  } temporaries;
  if (!m_temporary_slot.empty() && m_temporary_slot[run.first] >= 0) {
    const RunTemporaries& t = m_run_temporaries[static_cast<std::size_t>(m_temporary_slot[run.first])];
    temporaries.first = m_temporaries.data() + t.first_temporary;
    temporaries.count = t.count;
  }
  std::uint32_t materialised_anyway = temporaries.count;
  bool split = false;
  const FusionDeviceKernelVariant variant = fusion_device_kernel_variant(m_device_way);
  if (!fusion_device_way_fuses(m_device_way)) alone(0, run.count);
  for (std::uint32_t from = 0; from < run.count && fusion_device_way_fuses(m_device_way);) {
    const FusionDeviceLaunch& first = *launches[from].device;
    std::size_t bytes = aligned(0, first) + first.closure_bytes;
    std::uint32_t to = from + 1;
    while (to < run.count && to != tail && launches[to].device->unit == first.unit && to - from < fusion_device_max_bodies) {
      const FusionDeviceLaunch& next = *launches[to].device;
      const std::size_t end = aligned(bytes, next) + next.closure_bytes;
      if (end > fusion_device_closure_capacity) break;
      bytes = end;
      ++to;
    }
    if (to < run.count && to != tail) split = true;
    if (to - from == 1) {
      alone(from, to);
    } else {
      const FusionLaunch& owner = launches[to - 1];
      const bool reduces = m_summaries[run.first + to - 1].kind == FusionLaunchKind::range_reduce;
      bool ran = false;
      // Temporaries stay on chip only when one kernel runs every launch that touches them.
      std::uint32_t kept_on_chip = from == 0 && to == run.count ? temporaries.count : 0;
      const auto body = [&] {
        ran = owner.device->run_fused(launches + from, to - from, temporaries.first, &kept_on_chip, variant);
      };
      if (KOKKOS_IMPL_LIKELY(m_report_names[run.first + from].empty())) {
        body();
      } else {
        fusion_report_launch(reduces, fused_run_name(&m_report_names[run.first + from], to - from),
                             launches[from].tools_device_id, body, true);
      }
      if (ran) {
        ++delta.device_fused_kernels;
        materialised_anyway -= kept_on_chip;
      } else {
        ++delta.device_runs_unfused;
        alone(from, to);
      }
    }
    from = to;
  }
  if (split) ++delta.device_runs_split;
  // find_temporaries counted them as eliminated; the device memory held them after all.
  for (std::uint32_t t = temporaries.count - materialised_anyway; t < temporaries.count; ++t) {
    delta.temporaries_eliminated -= 1;
    delta.temporary_bytes_eliminated -= static_cast<std::uint64_t>(temporaries.first[t].bytes);
  }
}

// A memoized window can be replayed on its device when it holds only RangePolicy loops of one
// device instance (a reduction's result must reach the host during the flush) and no message
// is in flight.
inline const FusionDeviceReplay* FusionWindow::device_replay() const {
  if (m_launches.empty() || !m_in_flight.empty() || m_launches[0].device == nullptr) return nullptr;
  const FusionDeviceLaunch& first = *m_launches[0].device;
  if (first.replay == nullptr) return nullptr;
  for (std::size_t k = 0; k < m_launches.size(); ++k) {
    const FusionDeviceLaunch* d = m_launches[k].device;
    if (d == nullptr || d->instance != first.instance || d->replay != first.replay ||
        m_summaries[k].kind != FusionLaunchKind::range_for) {
      return nullptr;
    }
  }
  return first.replay;
}

// What a device window's recording is made from: each launch's instance, range and closure
// bytes (its Views' addresses, its scalars) and the run's eliminated temporaries.  False where
// a Kokkos Tools library is loaded: its callbacks fire as the window is dispatched.
inline bool FusionWindow::device_signature(std::vector<unsigned char>& out) const {
  out.clear();
  for (const std::string& name : m_report_names) {
    if (!name.empty()) return false;
  }
  const auto put = [&out](const void* bytes, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(bytes);
    out.insert(out.end(), b, b + n);
  };
  for (const FusionLaunch& l : m_launches) {
    const FusionDeviceLaunch& d = *l.device;
    const unsigned char touches = l.touches_temporary ? 1 : 0;
    put(&d.instance, sizeof d.instance);
    put(&l.begin, sizeof l.begin);
    put(&l.end, sizeof l.end);
    put(&touches, 1);
    if (d.closure == nullptr) return false;
    put(d.closure, d.closure_bytes);
  }
  for (const FusionTemporary& t : m_temporaries) {
    put(&t.allocation, sizeof t.allocation);
    put(&t.offset, sizeof t.offset);
    put(&t.stride, sizeof t.stride);
  }
  return true;
}

// Launches the plan's replay as it is when the window is the one it recorded (same signature);
// otherwise records the window's dispatch (run_all) and launches that, updating the replay in
// place or re-creating it.  Recording runs nothing, so a recording that fails is discarded and
// the window dispatched again directly.
template <class RunAll>
void FusionWindow::replay_on_device(const FusionDeviceReplay& replay, const FusionPlan& plan,
                                    Kokkos::Experimental::FusionStatistics& delta, const RunAll& run_all) {
  const void* instance = m_launches[0].device->instance;
  DeviceReplay* kept = nullptr;
  for (DeviceReplay& r : m_device_replays) {
    if (r.plan == &plan && r.way == m_device_way) kept = &r;
  }
  const bool signed_window = device_signature(m_signature);
  if (kept != nullptr && kept->graph != nullptr && signed_window && kept->signature == m_signature) {
    replay.launch(instance, kept->graph);
    delta.waves += kept->waves;
    delta.device_fused_kernels += kept->fused_kernels;
    delta.device_runs_split += kept->runs_split;
    delta.device_runs_unfused += kept->runs_unfused;
    delta.temporaries_eliminated = delta.temporaries_eliminated - kept->temporaries;  // run_all's part, reapplied
    delta.temporary_bytes_eliminated = delta.temporary_bytes_eliminated - kept->temporary_bytes;
    ++delta.device_graph_replays;
    return;
  }
  // Whatever a first dispatch sets up (the loop bodies' device addresses) is set up before recording.
  for (const FusionLaunch& l : m_launches) {
    if (l.device->body_address != nullptr) (void)l.device->body_address();
  }
  if (!replay.begin(instance)) {
    run_all();
    return;
  }
  const Kokkos::Experimental::FusionStatistics before = delta;
  bool recorded = true;
  try {
    run_all();
  } catch (...) {
    replay.abort(instance);
    recorded = false;
  }
  if (recorded) {
    if (kept == nullptr) {
      if (m_device_replays.size() >= FusionMemo::max_entries) m_device_replays.clear();
      kept = &m_device_replays.emplace_back();
      kept->plan = &plan;
      kept->way = m_device_way;
    }
    // What run_all added (execute_on_device may take back temporaries find_temporaries counted).
    kept->waves = delta.waves - before.waves;
    kept->fused_kernels = delta.device_fused_kernels - before.device_fused_kernels;
    kept->runs_split = delta.device_runs_split - before.device_runs_split;
    kept->runs_unfused = delta.device_runs_unfused - before.device_runs_unfused;
    kept->temporaries = before.temporaries_eliminated - delta.temporaries_eliminated;
    kept->temporary_bytes = before.temporary_bytes_eliminated - delta.temporary_bytes_eliminated;
    try {
      ++(replay.end_and_launch(instance, kept->graph) ? delta.device_graph_instantiations : delta.device_graph_replays);
      if (signed_window) kept->signature = m_signature;
      else kept->signature.clear();
      return;
    } catch (...) {
      kept->graph.reset();
      kept->signature.clear();
    }
  }
  delta = before;
  run_all();  // directly; an error that was not the recording's shows here
}

// A memoized window whose way is chosen by timing it on the device: every launch on one device
// instance whose back end times (FusionDeviceLaunch::timer).  Null otherwise.
inline const FusionDeviceLaunch* FusionWindow::device_choosing_launch() const {
  if (m_launches.empty() || !m_in_flight.empty() || m_launches[0].device == nullptr) return nullptr;
  const FusionDeviceLaunch* first = m_launches[0].device;
  if (first->timer == nullptr) return nullptr;
  for (const FusionLaunch& l : m_launches) {
    if (l.device == nullptr || l.device->instance != first->instance || l.device->timer != first->timer) return nullptr;
  }
  return first;
}

// Which ways differ for this window: the kernel variants where a fused kernel of loops runs (a
// fused reduction keeps the plain reduction's shape), the unfused ways where something fuses or
// a graph replays the window.
inline FusionDeviceWaysOpen FusionWindow::device_ways_open(const FusionPlan& plan, const FusionDeviceLaunch& device,
                                                           bool graph) const {
  FusionDeviceWaysOpen open;
  open.graph = graph;
  for (const FusionRun& run : plan.runs) {
    if (run.count < 2) continue;
    open.fuses = true;
    if (m_summaries[run.first + run.count - 1].kind == FusionLaunchKind::range_for) {
      open.other_registers = open.other_registers || device.other_registers_open;
      open.other_tile = open.other_tile || device.other_tile_open;
    }
  }
  return open;
}

// Runs the window the way its plan's device choice says (replayed as a graph where the way and
// the window allow), timing it on the device when the choice asks.
inline void FusionWindow::run_on_device_measured(const FusionPlan& plan, const FusionDeviceLaunch& device,
                                                 const FusionDeviceReplay* replay,
                                                 Kokkos::Experimental::FusionStatistics& delta, bool adapt) {
  const FusionDeviceTimer& timer = *device.timer;
  const auto run_all = [&] { run_plan(plan, adapt, delta); };
  const FusionDeviceWaysOpen open = device_ways_open(plan, device, replay != nullptr);
  if (!FusionDeviceDispatchChoice::is_open(FusionDeviceWay::unfused, open)) {  // one way only: nothing to time
    if (replay != nullptr) replay_on_device(*replay, plan, delta, run_all);
    else run_all();
    return;
  }
  const FusionDeviceDispatchChoice::Decision d = plan.device_dispatch.next(timer, open);
  struct Way {
    FusionDeviceWay& way;
    ~Way() { way = FusionDeviceWay::fused; }
  } restore{m_device_way};
  m_device_way = d.way;
  void* mark = d.timed ? timer.start(device.instance) : nullptr;
  try {
    if (replay != nullptr && d.way != FusionDeviceWay::unfused) {
      replay_on_device(*replay, plan, delta, run_all);
    } else {
      run_all();
    }
  } catch (...) {
    if (mark != nullptr) timer.release(mark);
    throw;
  }
  if (mark != nullptr) {
    timer.stop(mark, device.instance);
    plan.device_dispatch.pending(d.way, mark);
  }
  switch (d.way) {
    case FusionDeviceWay::fused: break;
    case FusionDeviceWay::fused_other_registers: ++delta.device_windows_other_registers; break;
    case FusionDeviceWay::fused_other_tile: ++delta.device_windows_other_tile; break;
    case FusionDeviceWay::unfused_graph: ++delta.device_windows_unfused_graph; break;
    case FusionDeviceWay::unfused: ++delta.device_windows_unfused; break;
  }
}

}  // namespace Kokkos::Impl

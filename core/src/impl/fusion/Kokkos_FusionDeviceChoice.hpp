#pragma once
// Adaptive dispatch of a memoized window on a device back end: which way of running it is
// fastest on the user's GPU, learnt by timing the ways on the device (Impl::MeasuredChoice, with
// the host's epochs and statistics: Kokkos_FusionDispatchChoice.hpp).  Every way gives bitwise the
// same results (each index of each loop computes what it computes alone; a fused reduction keeps
// the plain reduction's shape):
//   - fused: the fused kernels as the back end launches them by default, the window replayed as
//     one device graph where it can be (FusionDeviceReplay);
//   - fused_other_registers: the same kernels built with the other register policy (on Cuda the
//     register-bounded kernel keeps every thread of a multiprocessor resident, at the price of
//     spills in heavy bodies; which wins depends on the bodies and the GPU);
//   - fused_other_tile: the other tile shape (on Cuda one index a thread where the rule takes
//     eight, eight where it takes one: a tile reused from cache against more threads in flight);
//   - unfused_graph: each launch alone, the window replayed as one device graph: a fused kernel
//     calls each loop through a function pointer and stores between loops, which a run of a few
//     light loops may not win back;
//   - unfused: each launch alone on the stream, as KOKKOS_FUSION=0 runs it: the way fusion must
//     never lose to.
// A device runs asynchronously, so a way is timed on the device itself (FusionDeviceTimer: marks
// on the instance's stream), and the time read when the device has passed the stop mark: at a
// later flush, without waiting, or, where the choice is about to use what it measured (the end
// of an epoch's sampling, an epoch's start), by waiting for it.  Which ways are open depends on
// the window: the variants only where a fused kernel of loops runs, the graph ways only where the
// window can be replayed, and the back end may close a variant (its knob forced by the user).
#include <impl/Kokkos_MeasuredChoice.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace Kokkos::Impl {

enum class FusionDeviceWay : int { fused = 0, fused_other_registers = 1, fused_other_tile = 2, unfused_graph = 3, unfused = 4 };
inline constexpr int fusion_device_num_ways = 5;

// Which variant of its fused kernel a device back end launches (FusionDeviceLaunch::run_fused).
struct FusionDeviceKernelVariant {
  bool other_registers = false;
  bool other_tile = false;
};
inline FusionDeviceKernelVariant fusion_device_kernel_variant(FusionDeviceWay way) {
  return {way == FusionDeviceWay::fused_other_registers, way == FusionDeviceWay::fused_other_tile};
}
inline bool fusion_device_way_fuses(FusionDeviceWay way) {
  return way != FusionDeviceWay::unfused_graph && way != FusionDeviceWay::unfused;
}

// How a device back end times work on an instance's stream: start and stop put marks on the
// stream (start returns a handle owning both, or null where it cannot time now: the execution
// is then not timed); elapsed_ns reads the time between them once the device has passed the
// stop mark (false while it has not, unless `wait`: it then waits); release gives the handle
// back.
struct FusionDeviceTimer {
  void* (*start)(const void* instance) = nullptr;
  void (*stop)(void* mark, const void* instance) = nullptr;
  bool (*elapsed_ns)(void* mark, bool wait, double* ns) = nullptr;
  void (*release)(void* mark) = nullptr;
};

// What a window offers the choice: which ways differ from the default at all.
struct FusionDeviceWaysOpen {
  bool other_registers = false;  // a fused kernel of loops runs, and the back end leaves the knob open
  bool other_tile = false;
  bool graph = false;  // the window can be replayed as one device graph
  bool fuses = false;  // some run of the window fuses (otherwise the unfused ways equal the others)
};

class FusionDeviceDispatchChoice {
 public:
  static constexpr std::uint32_t epoch = 64, max_epoch = 1024;
  static constexpr std::uint32_t warmup_per_way = 1, samples_per_way = 2;
  static constexpr double prune_ratio = 1.5;

  struct Decision {
    FusionDeviceWay way = FusionDeviceWay::fused;
    bool timed = false;  // time this execution: start(), run it, stop()
  };

  FusionDeviceDispatchChoice() = default;
  // A copy learns afresh from what was measured, without the original's timings in flight.
  FusionDeviceDispatchChoice(const FusionDeviceDispatchChoice& other) : m_choice(other.m_choice) {}
  FusionDeviceDispatchChoice& operator=(const FusionDeviceDispatchChoice& other) {
    if (this != &other) {
      release_pending();
      m_choice = other.m_choice;
    }
    return *this;
  }
  FusionDeviceDispatchChoice(FusionDeviceDispatchChoice&& other) noexcept
      : m_choice(other.m_choice), m_timer(other.m_timer), m_pending(std::move(other.m_pending)) {
    other.m_pending.clear();
  }
  FusionDeviceDispatchChoice& operator=(FusionDeviceDispatchChoice&& other) noexcept {
    if (this != &other) {
      release_pending();
      m_choice = other.m_choice;
      m_timer = other.m_timer;
      m_pending = std::move(other.m_pending);
      other.m_pending.clear();
    }
    return *this;
  }
  ~FusionDeviceDispatchChoice() { release_pending(); }

  // The way of this execution.  Reads what the device finished timing; waits for the rest where
  // the choice is about to use it.
  Decision next(const FusionDeviceTimer& timer, const FusionDeviceWaysOpen& open) {
    m_timer = &timer;
    collect(false);
    const std::uint32_t position = m_choice.position();
    if (!m_pending.empty() && (position == 0 || position >= m_choice.sampling_length())) collect(true);
    const MeasuredChoice::Decision d = m_choice.next([&](int way) { return is_open(static_cast<FusionDeviceWay>(way), open); });
    return {static_cast<FusionDeviceWay>(d.way), d.timed};
  }

  // The timing of an execution next() asked to time, started and stopped on the device.
  void pending(FusionDeviceWay way, void* mark) { m_pending.push_back({way, mark}); }

  // This epoch's fastest time of a way (infinite when not timed yet).
  double time_ns(FusionDeviceWay way) const { return m_choice.time_ns(static_cast<int>(way)); }
  bool dropped(FusionDeviceWay way) const { return m_choice.pruned(static_cast<int>(way)); }
  std::uint32_t epoch_length() const { return m_choice.epoch_length(); }
  std::size_t timings_in_flight() const { return m_pending.size(); }

  static bool is_open(FusionDeviceWay way, const FusionDeviceWaysOpen& open) {
    switch (way) {
      case FusionDeviceWay::fused: return true;
      case FusionDeviceWay::fused_other_registers: return open.other_registers;
      case FusionDeviceWay::fused_other_tile: return open.other_tile;
      case FusionDeviceWay::unfused_graph: return open.graph && open.fuses;
      case FusionDeviceWay::unfused: return open.fuses || open.graph;
    }
    return false;
  }

 private:
  struct Pending {
    FusionDeviceWay way;
    void* mark;
  };

  // Records the timings the device has finished (all of them, waiting, when `wait`), oldest
  // first: a stream passes its marks in order.
  void collect(bool wait) {
    std::size_t done = 0;
    for (; done < m_pending.size(); ++done) {
      double ns = 0;
      if (!m_timer->elapsed_ns(m_pending[done].mark, wait, &ns)) break;
      m_choice.record(static_cast<int>(m_pending[done].way), ns);
      m_timer->release(m_pending[done].mark);
    }
    m_pending.erase(m_pending.begin(), m_pending.begin() + static_cast<std::ptrdiff_t>(done));
  }
  void release_pending() {
    for (const Pending& p : m_pending) m_timer->release(p.mark);
    m_pending.clear();
  }

  MeasuredChoice m_choice{fusion_device_num_ways,
                          {.samples_per_way = samples_per_way,
                           .warmup_per_way = warmup_per_way,
                           .epoch = epoch,
                           .max_epoch = max_epoch,
                           .prune_ratio = prune_ratio}};
  const FusionDeviceTimer* m_timer = nullptr;
  std::vector<Pending> m_pending;
};

}  // namespace Kokkos::Impl

#pragma once
// Adaptive dispatch of a memoized fused run: which of five ways of executing it is fastest,
// learnt by timing them (Impl::MeasuredChoice).  Every way gives bitwise the same results:
//   - workers: one dispatch on the execution space's workers, each walking its block in chunks
//     sized to keep the run's working set in L1 (FusionWindow::execute);
//   - caller: the same blocks, worker by worker on the calling thread (HostSequentialWorkers),
//     joined in the same order.  A fused run of a few thousand indices is often done before
//     the workers would have woken: waking them costs a fork/join (about 3 us with libgomp on
//     two cores), and they then read every recorded functor across cores and hand the
//     window's lines back dirty, which slows the next window's recording;
//   - short_chunks: the workers again, with chunks an eighth as long (at least 256 indices).
//     At large n a run over many arrays streams only the current launch's arrays from memory
//     while it passes over a chunk; short chunks keep every array's stream in flight at once,
//     as one hand-written loop does.  CG's fused {axpby, axpby, dot} at n = 1e7 on two threads
//     ran 4.2-4.7 ms in 256-index chunks and 6.0-7.1 ms in 2048-index ones (the hand-written
//     loop: 4.2 ms), while the 20-axpy chain over two arrays at 1e6 ran 2x slower in them;
//   - long_chunks: the workers again, with chunks sixteen times longer.  At large n the short
//     chunks restart every array's hardware prefetch stream once per launch per chunk; CG at
//     n = 1e6 ran its fused {axpby, axpby, dot} 25% faster with 8 MiB chunks than with 32 KiB;
//   - unfused: each launch of the run dispatched alone, in program order (what
//     KOKKOS_FUSION=0 does), so that a fused run is never slower than not fusing it where
//     chunking costs more than the locality and the fork/joins it buys (the in-place 1-D
//     stencil on one thread at n = 1e6 ran 0.5-0.9x unfused).
// Which wins depends on the machine, its state and the functors (20 axpys of 1000 doubles: the
// caller; Black-Scholes at 1000 options: a close call), so it is measured, not modelled.
// Each epoch runs every eligible way once untimed and twice timed (the first execution after a
// change of way pays for data left in the other way's caches), keeps the minimum and runs the
// fastest for the rest of the epoch; epochs grow from 64 to 1024 executions while the winner
// holds, and a way 1.5x slower than the fastest in two epochs in a row is dropped.  Not tried:
// the caller on one worker (it is the worker) or on a run that takes more than 100 us on the
// workers (the fork/join it could save is under 3% of it); long chunks where a worker's block
// fits in one chunk; short chunks where a chunk is already short.  Only memoized runs adapt:
// they are the ones a program repeats.
#include <impl/Kokkos_MeasuredChoice.hpp>
#include <impl/Kokkos_Topology.hpp>

#include <algorithm>

#include <cstdint>
#include <limits>

namespace Kokkos::Impl {

class FusionDispatchChoice {
 public:
  // Timed in this order.
  enum class Way : int { workers = 0, caller = 1, short_chunks = 2, long_chunks = 3, unfused = 4 };
  static constexpr int num_ways = 5;
  static_assert(num_ways <= MeasuredChoice::max_ways);
  static constexpr std::uint32_t epoch = 64;       // executions in the first epoch
  static constexpr std::uint32_t max_epoch = 1024;  // the longest a settled epoch grows
  static constexpr std::uint32_t warmup_per_way = 1, samples_per_way = 2;
  static constexpr double prune_ratio = 1.5;
  static constexpr double caller_probe_limit_ns = 100e3;  // see above
  static constexpr std::int64_t long_chunk_factor = 16;
  static constexpr std::int64_t short_chunk_factor = 8, min_short_chunk = 256;

  struct Decision {
    Way way = Way::workers;
    bool timed = false;  // measure this execution and report it with record()
  };

  // The chunk the short_chunks way uses for a run whose chunk is `chunk` indices; 0 where it
  // would not be shorter than min_short_chunk.
  static std::int64_t short_chunk(std::int64_t chunk) {
    const std::int64_t shorter = chunk / short_chunk_factor;
    return shorter >= min_short_chunk ? shorter : 0;
  }

  // workers: the execution space's pool size; long_chunks_differ: whether some worker's block
  // is longer than one chunk; short_chunks_differ: whether the run has a short chunk and some
  // worker's block is longer than one.
  // unfused_allowed: whether the run may run launch by launch (not when it eliminates temporaries).
  Decision next(int workers, bool long_chunks_differ, bool short_chunks_differ, bool unfused_allowed = true) {
    m_workers = workers;
    const MeasuredChoice::Decision d = m_choice.next([&](int way) {
      switch (static_cast<Way>(way)) {
        case Way::caller: return workers > 1 && m_one_core_ns <= caller_probe_limit_ns;
        case Way::long_chunks: return long_chunks_differ;
        case Way::short_chunks: return short_chunks_differ;
        case Way::unfused: return unfused_allowed;
        default: return true;
      }
    });
    return {static_cast<Way>(d.way), d.timed};
  }

  void record(Way way, double ns) {
    m_choice.record(static_cast<int>(way), ns);
    // The run's work on one core: its time on the caller, or at most about the number of
    // workers running at once times its time on all of them (no more than the processing
    // units: an oversubscribed pool's workers take turns).  Kept across epochs: the workers'
    // way may be dropped and never timed again.
    m_one_core_ns = way == Way::caller ? ns : ns * std::min(m_workers, host_topology().processing_units);
  }

  // This epoch's fastest time of a way (infinite when not timed yet).
  double time_ns(Way way) const { return m_choice.time_ns(static_cast<int>(way)); }
  bool dropped(Way way) const { return m_choice.pruned(static_cast<int>(way)); }
  std::uint32_t epoch_length() const { return m_choice.epoch_length(); }

 private:
  double m_one_core_ns = std::numeric_limits<double>::infinity();
  int m_workers = 1;
  MeasuredChoice m_choice{num_ways,
                          {.samples_per_way = samples_per_way,
                           .warmup_per_way = warmup_per_way,
                           .epoch = epoch,
                           .max_epoch = max_epoch,
                           .prune_ratio = prune_ratio}};
};

}  // namespace Kokkos::Impl

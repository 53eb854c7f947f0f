#pragma once
// Adaptive dispatch of a memoized fused run: on the execution space's workers, or worker by
// worker on the calling thread (HostSequentialWorkers: the same blocks, the same join order,
// so the results are bitwise the same either way).
//
// Why: a fused run of a few thousand indices is often done before the workers would have
// woken.  Waking them costs one fork/join (about 3 us with libgomp on two cores), and the
// workers then read every recorded functor across cores and hand the window's lines back to
// the recording thread dirty, which slows the next window's recording.  Whether that beats
// running the whole run on one core depends on the machine and the functors (20 axpys of
// 1000 doubles: the caller wins; Black-Scholes at 1000 options: a close call that changes
// with the machine's state), so the choice is measured, not modelled (Impl::MeasuredChoice):
// each epoch of 64 executions times two executions each way and keeps the faster.  A run that
// takes more than 100 us on the workers is never tried on the caller (the fork/join it could
// save is under 3% of it).  Only memoized runs adapt: they are the ones an iterative program repeats.
#include <impl/Kokkos_MeasuredChoice.hpp>

#include <cstdint>

namespace Kokkos::Impl {

class FusionDispatchChoice {
 public:
  static constexpr std::uint32_t epoch = 64;             // executions between re-measurements
  static constexpr std::uint32_t samples_per_way = 2;    // timed executions per way and epoch
  static constexpr double caller_probe_limit_ns = 100e3;  // see above

  struct Decision {
    bool on_caller = false;  // run every worker's share on the calling thread
    bool timed = false;      // measure this execution and report it with record()
  };

  Decision next(int workers) {
    if (workers <= 1) return {};  // the workers are the caller already
    const MeasuredChoice::Decision d = m_choice.next([&](int way) {
      // The run's work on one core is at most about workers times its time on all of them.
      return way == on_workers || workers_ns() * workers <= caller_probe_limit_ns;
    });
    return {d.way == on_caller_way, d.timed};
  }

  void record(bool on_caller, double ns) { m_choice.record(on_caller ? on_caller_way : on_workers, ns); }

  double workers_ns() const { return m_choice.time_ns(on_workers); }
  double caller_ns() const { return m_choice.time_ns(on_caller_way); }

 private:
  static constexpr int on_workers = 0, on_caller_way = 1;  // way 0 is timed first in an epoch
  MeasuredChoice m_choice{2, {.samples_per_way = samples_per_way, .epoch = epoch, .max_epoch = epoch}};
};

}  // namespace Kokkos::Impl

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
// with the machine's state), so the choice is measured, not modelled: each epoch of 64
// executions times two executions each way and keeps the faster.  A run that takes more than
// 100 us on the workers is never tried on the caller (the fork/join it could save is under
// 3% of it).  Only memoized runs adapt: they are the ones an iterative program repeats.
#include <Kokkos_Macros.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

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
    const std::uint32_t k = m_executions++ % epoch;
    if (k == 0) m_workers_ns = m_caller_ns = unknown;  // the machine's state may have changed
    if (k < samples_per_way) return {false, true};
    if (k < 2 * samples_per_way) {
      // The run's work on one core is at most about workers times its time on all of them.
      const bool worth_trying = m_workers_ns * workers <= caller_probe_limit_ns;
      return {worth_trying, worth_trying};
    }
    return {m_caller_ns < m_workers_ns, false};
  }

  void record(bool on_caller, double ns) {
    double& best = on_caller ? m_caller_ns : m_workers_ns;
    best = std::min(best, ns);  // preemption only ever adds time: the minimum is the signal
  }

  double workers_ns() const { return m_workers_ns; }
  double caller_ns() const { return m_caller_ns; }

 private:
  static constexpr double unknown = std::numeric_limits<double>::infinity();
  double m_workers_ns = unknown, m_caller_ns = unknown;
  std::uint32_t m_executions = 0;
};

}  // namespace Kokkos::Impl

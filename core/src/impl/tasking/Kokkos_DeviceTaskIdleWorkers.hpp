#pragma once
// The idle workers of a device task queue (Kokkos_DeviceTaskQueue.hpp): who is counted idle,
// who has started, and the wake tokens by which idle workers learn of new work.
//
// A worker that has found nothing for a while counts itself idle (enter) and from then on only
// looks at the rings (the queue's any_ready) until it sees a ready task, when it leaves the count
// (leave) before it claims.  It looks once right after it counted itself, then only when woken:
// whoever pushes ready tasks while some worker is counted adds a wake token per worker the tasks
// can keep busy (wake; the queue's claims_for), and a counted worker looks when it takes one
// (take_token), so that idle workers wait on one word instead of scanning every ring, and a push
// wakes about as many as it made work for.  The fences
// of enter and wake make the two sides meet: either the worker's look sees the task, or the
// pusher sees the worker counted.  A worker that finds the DAG finished wakes them all (wake_all).
//
// Cycles: only workers out of the count run or claim tasks, and every task made ready was put by
// one, which then looked at every ring before it could count itself; so while every worker that
// has started is counted (all_counted) no task is ready or running, and none can become ready.
// If tasks are left then, they wait on each other: a dependence cycle.  The comparison is with the
// workers that started, not with those launched: on a GPU that other kernels share, some of a
// launch's blocks may start only when others end, and a worker that has not started runs nothing
// (it looks at every ring when it starts, as every worker does).
//
// The owner calls begin_run before the workers start; each worker calls start before it first
// looks for work.
#include <Kokkos_Atomic.hpp>
#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstdint>

namespace Kokkos::Impl {

struct DeviceTaskIdleWorkers {
  static constexpr std::size_t line_bytes = 128;  // a GPU L2 line, as the ready rings'

  // Counted idle workers, read at every pause of every idle worker; the started count is read
  // only with it.
  alignas(line_bytes) std::int32_t m_counted = 0;
  std::int32_t m_started = 0;
  alignas(line_bytes) std::int32_t m_tokens = 0;

  void begin_run() {
    m_counted = 0;
    m_started = 0;
    m_tokens = 0;
  }
  // Before the worker's first look for work: whatever it does later is after the count.
  KOKKOS_INLINE_FUNCTION void start() {
    atomic_fetch_add_relaxed(&m_started, 1);
    Kokkos::memory_fence();
  }
  // The worker looks at the rings once more after this: a task pushed before the fence is seen
  // there, one pushed after it sees the worker counted and leaves a token (wake).
  KOKKOS_INLINE_FUNCTION void enter() {
    atomic_fetch_add_relaxed(&m_counted, 1);
    Kokkos::memory_fence();
  }
  // Before the claim it is for: a worker that leaves the count is out of it before it takes a task.
  KOKKOS_INLINE_FUNCTION void leave() {
    atomic_fetch_add_relaxed(&m_counted, -1);
    Kokkos::memory_fence();
  }
  KOKKOS_INLINE_FUNCTION bool any_counted() const {
    return atomic_load_relaxed(const_cast<std::int32_t*>(&m_counted)) > 0;
  }
  // Every worker that has started is counted.  The count first, the starts after: the starts only
  // grow and each is ordered before its worker's first look (start's fence; this fence orders the
  // caller's earlier looks before the read), so equal values mean that at the moment the count was
  // read every worker that had started by then was in it.
  KOKKOS_INLINE_FUNCTION bool all_counted() const {
    const std::int32_t counted = atomic_load_relaxed(const_cast<std::int32_t*>(&m_counted));
    Kokkos::memory_fence();
    return counted == atomic_load_relaxed(const_cast<std::int32_t*>(&m_started));
  }
  // After tasks were pushed (their puts done) that can keep `workers` workers busy: that many
  // tokens, while any worker is counted, for counted workers to wake by.  The fence orders the
  // puts before the look at the count (enter's fence is the other half).
  KOKKOS_INLINE_FUNCTION void wake(std::int32_t workers) {
    Kokkos::memory_fence();
    if (workers > 0 && any_counted()) atomic_fetch_add_relaxed(&m_tokens, workers);
  }
  // When the DAG is finished, or anything else every counted worker must look at: a token for each
  // worker that has started (one that starts later looks at once).
  KOKKOS_INLINE_FUNCTION void wake_all() {
    atomic_fetch_add_relaxed(&m_tokens, atomic_load_relaxed(const_cast<std::int32_t*>(&m_started)));
  }
  // A counted worker's cue to look at the rings again: a token, taken.
  KOKKOS_INLINE_FUNCTION bool take_token() {
    std::int32_t tokens = atomic_load_relaxed(&m_tokens);
    while (tokens > 0) {
      if (atomic_compare_exchange_weak_acq_rel(&m_tokens, tokens, tokens - 1)) return true;
    }
    return false;
  }
};

}  // namespace Kokkos::Impl

#include <Host/Kokkos_HostThreadPool.hpp>
#include <impl/Kokkos_Topology.hpp>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define KOKKOS_IMPL_SPIN_PAUSE() _mm_pause()
#else
#define KOKKOS_IMPL_SPIN_PAUSE() ((void)0)
#endif

namespace Kokkos::Impl {

thread_local int HostThreadPool::t_rank = -1;

namespace {
// A worker spins (pause) for a few microseconds, then yields for a while, then parks:
// back-to-back launches stay on the fast path, an oversubscribed machine gets its cores
// back quickly, and an idle pool stops burning them.
constexpr int spins_before_yielding = 1 << 11;
constexpr int spins_before_parking = spins_before_yielding + (1 << 8);
}  // namespace

HostThreadPool::HostThreadPool(int size, bool bind) : m_size(size < 1 ? 1 : size) {
  std::atomic<int> bound{0};
  m_threads.reserve(m_size - 1);
  for (int rank = 1; rank < m_size; ++rank) {
    m_threads.emplace_back([this, rank, bind, &bound] {
      if (bind && bind_current_thread_to_processing_unit(processing_unit_for_worker(rank))) ++bound;
      worker_loop(rank);
    });
  }
  // Make sure every worker has started (and bound itself) before the first launch.
  run([](int, int) {});
  m_bound = bind && bound.load() == m_size - 1;
}

HostThreadPool::~HostThreadPool() {
  m_stop.store(true, std::memory_order_release);
  m_epoch.fetch_add(1, std::memory_order_acq_rel);
  m_epoch.notify_all();
  for (auto& t : m_threads) t.join();
}

void HostThreadPool::launch_and_join() {
  m_pending.store(m_size - 1, std::memory_order_relaxed);
  // seq_cst on both sides (epoch bump then sleeper check here, sleeper announce then epoch
  // check in worker_loop) so that a parking worker and a launch never miss each other.
  m_epoch.fetch_add(1);
  if (m_sleepers.load() > 0) m_epoch.notify_all();

  t_rank = 0;
  m_job(m_job_arg, 0, m_size);
  t_rank = -1;

  // Spin while the workers are likely running; yield once it looks like one was preempted
  // (an oversubscribed machine), so the caller does not burn the core a worker needs.
  for (int spin = 0; m_pending.load(std::memory_order_acquire) != 0; ++spin) {
    if (spin < spins_before_yielding) {
      KOKKOS_IMPL_SPIN_PAUSE();
    } else {
      std::this_thread::yield();
    }
  }
}

void HostThreadPool::worker_loop(int rank) {
  std::uint64_t seen = 0;
  for (;;) {
    std::uint64_t epoch = m_epoch.load(std::memory_order_acquire);
    for (int spin = 0; epoch == seen && spin < spins_before_parking; ++spin) {
      if (spin < spins_before_yielding) {
        KOKKOS_IMPL_SPIN_PAUSE();
      } else {
        std::this_thread::yield();  // oversubscribed: let the thread we wait for run
      }
      epoch = m_epoch.load(std::memory_order_acquire);
    }
    if (epoch == seen) {
      m_sleepers.fetch_add(1);
      // Re-check after announcing ourselves: a launch that bumped the epoch before seeing the
      // sleeper count skipped the notify.
      while ((epoch = m_epoch.load()) == seen) m_epoch.wait(seen);
      m_sleepers.fetch_sub(1);
    }
    seen = epoch;
    if (m_stop.load(std::memory_order_acquire)) return;
    t_rank = rank;
    m_job(m_job_arg, rank, m_size);
    t_rank = -1;
    m_pending.fetch_sub(1, std::memory_order_acq_rel);
  }
}

}  // namespace Kokkos::Impl

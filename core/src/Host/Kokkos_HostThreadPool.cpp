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
thread_local void* HostThreadPool::t_result = nullptr;

namespace {
// A worker spins (pause) for a few microseconds, then yields for a while, then parks:
// back-to-back launches stay on the fast path, an oversubscribed machine gets its cores
// back quickly, and an idle pool stops burning them.
constexpr int spins_before_yielding = 1 << 11;
constexpr int spins_before_parking = spins_before_yielding + (1 << 8);
}  // namespace

HostThreadPool::HostThreadPool(int size, bool bind)
    : m_size(size < 1 ? 1 : size), m_finished(new FinishedLine[static_cast<std::size_t>(m_size)]) {
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
  m_line.job = nullptr;
  m_line.epoch.fetch_add(1);
  m_line.epoch.notify_all();
  for (auto& t : m_threads) t.join();
}

void HostThreadPool::launch_and_join() {
  // seq_cst on both sides (epoch bump then sleeper check here, sleeper announce then epoch
  // check in worker_loop) so that a parking worker and a launch never miss each other.
  const std::uint64_t epoch = m_line.epoch.fetch_add(1) + 1;
  if (m_sleepers.load() > 0) m_line.epoch.notify_all();

  t_rank = 0;
  try {
    m_line.job(m_line.body, 0, m_size);
  } catch (...) {
    // The workers still read the launch line: the next launch may rewrite it only after them.
    t_rank = -1;
    wait_for_workers(epoch);
    throw;
  }
  t_rank = -1;
  wait_for_workers(epoch);
}

void HostThreadPool::wait_for_workers(std::uint64_t epoch) const {
  // Spin while the workers are likely running; yield once it looks like one was preempted
  // (an oversubscribed machine), so the caller does not burn the core a worker needs.
  int spin = 0;
  for (int rank = 1; rank < m_size; ++rank) {
    while (m_finished[static_cast<std::size_t>(rank)].epoch.load(std::memory_order_acquire) != epoch) {
      if (spin < spins_before_yielding) {
        ++spin;
        KOKKOS_IMPL_SPIN_PAUSE();
      } else {
        std::this_thread::yield();
      }
    }
  }
}

void HostThreadPool::worker_loop(int rank) {
  std::uint64_t seen = 0;
  FinishedLine& finished = m_finished[static_cast<std::size_t>(rank)];
  for (;;) {
    std::uint64_t epoch = m_line.epoch.load(std::memory_order_acquire);
    for (int spin = 0; epoch == seen && spin < spins_before_parking; ++spin) {
      if (spin < spins_before_yielding) {
        KOKKOS_IMPL_SPIN_PAUSE();
      } else {
        std::this_thread::yield();  // oversubscribed: let the thread we wait for run
      }
      epoch = m_line.epoch.load(std::memory_order_acquire);
    }
    if (epoch == seen) {
      m_sleepers.fetch_add(1);
      // Re-check after announcing ourselves: a launch that bumped the epoch before seeing the
      // sleeper count skipped the notify.
      while ((epoch = m_line.epoch.load()) == seen) m_line.epoch.wait(seen);
      m_sleepers.fetch_sub(1);
    }
    seen = epoch;
    const Job job = m_line.job;
    if (job == nullptr) return;
    t_rank = rank;
    t_result = finished.result;
    job(m_line.body, rank, m_size);
    t_result = nullptr;
    t_rank = -1;
    finished.epoch.store(epoch, std::memory_order_release);
  }
}

}  // namespace Kokkos::Impl

#pragma once
// A persistent pool of host worker threads with a low-latency fork/join: the caller is worker 0,
// workers 1..n-1 spin briefly on a launch epoch and then park on it (C++20 atomic wait), so a
// launch costs two cache-line transfers when the pool is hot instead of an OpenMP region's
// barrier round trips.  Used by the Threads back end.
#include <Kokkos_Macros.hpp>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace Kokkos::Impl {

class HostThreadPool {
 public:
  // Starts size-1 worker threads; bind=true pins worker r (r >= 1) to processing unit r.
  HostThreadPool(int size, bool bind);
  ~HostThreadPool();
  HostThreadPool(const HostThreadPool&) = delete;
  HostThreadPool& operator=(const HostThreadPool&) = delete;

  int size() const noexcept { return m_size; }
  bool bound() const noexcept { return m_bound; }

  // Rank of the calling thread inside a launch of any pool, -1 outside one.
  static int current_rank() noexcept { return t_rank; }

  // Calls body(rank, size) on every worker; returns when all have returned.  A launch from
  // inside a launch, or while another host thread is using the pool, runs body(0, 1) inline.
  template <class Body>
  void run(const Body& body) {
    if (m_size == 1 || t_rank >= 0 || m_busy.exchange(true, std::memory_order_acquire)) {
      run_inline(body);
      return;
    }
    m_job = [](const void* b, int rank, int size) { (*static_cast<const Body*>(b))(rank, size); };
    m_job_arg = &body;
    launch_and_join();
    m_busy.store(false, std::memory_order_release);
  }

 private:
  template <class Body>
  static void run_inline(const Body& body) {
    const int saved = t_rank;
    t_rank = 0;
    body(0, 1);
    t_rank = saved;
  }
  void launch_and_join();
  void worker_loop(int rank);

  using Job = void (*)(const void*, int, int);

  int m_size;
  bool m_bound = false;
  // What a worker reads when the epoch moves shares the epoch's cache line, so the transfer
  // that wakes it brings the job too (the caller writes them just before the bump).
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<std::uint64_t> m_epoch{0};
  Job m_job = nullptr;
  const void* m_job_arg = nullptr;
  std::atomic<bool> m_stop{false};
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<int> m_pending{0};
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<int> m_sleepers{0};
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<bool> m_busy{false};
  std::vector<std::thread> m_threads;

  static thread_local int t_rank;
};

}  // namespace Kokkos::Impl

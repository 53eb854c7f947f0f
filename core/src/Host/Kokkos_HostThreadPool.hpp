#pragma once
// A persistent pool of host worker threads with a low-latency fork/join: the caller is worker 0,
// workers 1..n-1 spin briefly on a launch epoch and then park on it (C++20 atomic wait).  A
// launch writes one cache line (the epoch, the job and, for a small trivially copyable body, the
// body itself), and each worker answers in a line of its own, so when the pool is hot a launch
// costs one transfer of the launch line to each worker and one of each worker's line back.
// Used by the Threads back end.
#include <Kokkos_Macros.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <thread>
#include <type_traits>
#include <vector>

namespace Kokkos::Impl {

class HostThreadPool {
 public:
  // Bytes of a body that travel inside the launch line; a larger body is read through its address.
  static constexpr std::size_t inline_body_bytes = 48;
  // Bytes a job may leave in its worker's finished line for run(body, after).
  static constexpr std::size_t worker_result_bytes = 48;

  // Starts size-1 worker threads; bind=true pins worker r (r >= 1) to processing unit r.
  HostThreadPool(int size, bool bind);
  ~HostThreadPool();
  HostThreadPool(const HostThreadPool&) = delete;
  HostThreadPool& operator=(const HostThreadPool&) = delete;

  int size() const noexcept { return m_size; }
  bool bound() const noexcept { return m_bound; }

  // Rank of the calling thread inside a launch of any pool, -1 outside one.
  static int current_rank() noexcept { return t_rank; }
  // Inside a launch of run(body, after): the worker_result_bytes (aligned as std::max_align_t)
  // that after() receives as this worker's result.  Null outside one.
  static void* current_result() noexcept { return t_result; }

  // Whether run() copies a body of this type into the launch line (otherwise workers read it
  // through its address, on the caller's stack).
  template <class Body>
  static constexpr bool travels_in_line() {
    return sizeof(Body) <= inline_body_bytes && alignof(Body) <= alignof(std::max_align_t) &&
           std::is_trivially_copyable_v<Body> && std::is_trivially_copy_constructible_v<Body> &&
           std::is_trivially_destructible_v<Body>;
  }

  // Calls body(rank, size) on every worker; returns when all have returned.  A launch from
  // inside a launch, or while another host thread is using the pool, runs body(0, 1) inline.
  // An exception from the caller's share (rank 0) is rethrown once every worker has finished.
  template <class Body>
  void run(const Body& body) {
    if (m_size == 1 || t_rank >= 0 || m_busy.exchange(true, std::memory_order_acquire)) {
      run_inline(body);
      return;
    }
    const BusyRelease release{m_busy};
    run_job(body);
  }

  // run(body), then after(size, results) on the calling thread, where results[r] is what rank r
  // left at current_result(): each worker's result travels back in the line that says it
  // finished.  after() runs before the pool takes another launch.
  template <class Body, class After>
  void run(const Body& body, const After& after) {
    if (m_size == 1 || t_rank >= 0 || m_busy.exchange(true, std::memory_order_acquire)) {
      run_alone(body, after);
      return;
    }
    const BusyRelease release{m_busy};
    {
      const ScopedValue<void*> result_area(t_result, m_finished[0].result);
      run_job(body);
    }
    void* results[max_results_on_stack];
    std::unique_ptr<void*[]> heap_results;
    void** list = results;
    if (m_size > max_results_on_stack) {
      heap_results.reset(new void*[static_cast<std::size_t>(m_size)]);
      list = heap_results.get();
    }
    for (int r = 0; r < m_size; ++r) list[r] = m_finished[static_cast<std::size_t>(r)].result;
    after(m_size, static_cast<void* const*>(list));
  }

  // What run(body, after) does when nothing but the calling thread runs it: body(0, 1) with a
  // result area on this thread's stack, then after(1, results).  For a back end without a pool.
  template <class Body, class After>
  static void run_alone(const Body& body, const After& after) {
    alignas(std::max_align_t) unsigned char own[worker_result_bytes];
    {
      const ScopedValue<void*> result_area(t_result, own);
      run_inline(body);
    }
    void* const results[1] = {own};
    after(1, results);
  }

 private:
  static constexpr int max_results_on_stack = 64;

  template <class Body>
  void run_job(const Body& body) {
    if constexpr (travels_in_line<Body>()) {
      ::new (static_cast<void*>(m_line.body)) Body(body);
      m_line.job = [](const void* line_body, int rank, int size) {
        (*std::launder(static_cast<const Body*>(line_body)))(rank, size);
      };
    } else {
      const Body* address = &body;
      ::new (static_cast<void*>(m_line.body)) const Body*(address);
      m_line.job = [](const void* line_body, int rank, int size) {
        (**std::launder(static_cast<const Body* const*>(line_body)))(rank, size);
      };
    }
    launch_and_join();
  }

  // Sets a thread_local for a scope and restores it on the way out, exceptions included.
  template <class T>
  class ScopedValue {
    T& m_slot;
    T m_saved;

   public:
    ScopedValue(T& slot, T value) : m_slot(slot), m_saved(slot) { m_slot = value; }
    ~ScopedValue() { m_slot = m_saved; }
    ScopedValue(const ScopedValue&) = delete;
    ScopedValue& operator=(const ScopedValue&) = delete;
  };
  template <class Body>
  static void run_inline(const Body& body) {
    const ScopedValue<int> rank(t_rank, 0);
    body(0, 1);
  }
  struct BusyRelease {
    std::atomic<bool>& busy;
    ~BusyRelease() { busy.store(false, std::memory_order_release); }
  };
  void launch_and_join();
  void wait_for_workers(std::uint64_t epoch) const;
  void worker_loop(int rank);

  using Job = void (*)(const void* line_body, int rank, int size);

  // Everything a worker reads to start a job shares the epoch's cache line, so the transfer
  // that wakes it brings the job too (the caller writes them just before the bump).  A null
  // job stops the workers.
  struct alignas(KOKKOS_IMPL_CACHE_LINE) LaunchLine {
    std::atomic<std::uint64_t> epoch{0};
    Job job = nullptr;
    alignas(std::max_align_t) unsigned char body[inline_body_bytes];
  };
  static_assert(sizeof(LaunchLine) == KOKKOS_IMPL_CACHE_LINE, "the launch fits one cache line");
  // A worker stores the epoch of the job it finished in a line of its own: the caller reads
  // each line once per launch, and no two workers write the same line.
  struct alignas(KOKKOS_IMPL_CACHE_LINE) FinishedLine {
    std::atomic<std::uint64_t> epoch{0};
    alignas(std::max_align_t) unsigned char result[worker_result_bytes];
  };
  static_assert(sizeof(FinishedLine) == KOKKOS_IMPL_CACHE_LINE, "a worker's answer fits one cache line");

  int m_size;
  bool m_bound = false;
  LaunchLine m_line;
  std::unique_ptr<FinishedLine[]> m_finished;
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<int> m_sleepers{0};
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<bool> m_busy{false};
  std::vector<std::thread> m_threads;

  static thread_local int t_rank;
  static thread_local void* t_result;
};

}  // namespace Kokkos::Impl

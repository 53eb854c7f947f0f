#pragma once
// Threads: kdag's own persistent std::thread pool (Kokkos' Threads back end).  Same host
// back-end contract as Serial and OpenMP; its fork/join is a spin-then-park epoch handshake,
// several times cheaper per launch than an OpenMP parallel region (see perf_tests/PerfLaunch).
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_HostSpace.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <Host/Kokkos_HostThreadPool.hpp>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

namespace Kokkos {
class InitializationSettings;
struct LayoutRight;
template <class ExecSpace>
class ScratchMemorySpace;

class Threads {
 public:
  using execution_space = Threads;
  using memory_space = HostSpace;
  using device_type = Device<execution_space, memory_space>;
  using array_layout = LayoutRight;
  using size_type = HostSpace::size_type;
  using scratch_memory_space = ScratchMemorySpace<Threads>;

  static constexpr bool impl_is_host_backend = true;

  Threads() = default;

  // Static, with an instance argument or without, as Kokkos 4 has it: Threads::concurrency() is the default
  // instance's thread count, Threads::concurrency(instance) an instance's.
  static int concurrency() { return Threads().impl_thread_pool_size(); }
  static int concurrency(const Threads& space) { return space.impl_thread_pool_size(); }
  static bool in_parallel() { return Impl::HostThreadPool::current_rank() >= 0; }
  static bool in_parallel(const Threads&) { return Impl::HostThreadPool::current_rank() >= 0; }
  void fence(const std::string& label = "Kokkos::Threads::fence: Unnamed Instance Fence") const;
  static void impl_static_fence(const std::string& label);
  static constexpr const char* name() { return "Threads"; }
  void print_configuration(std::ostream& os, bool verbose = false) const;
  uint32_t impl_instance_id() const noexcept { return m_instance_id; }
  friend bool operator==(const Threads& a, const Threads& b) { return a.m_instance_id == b.m_instance_id; }
  // The calling worker's rank in the pool it runs in (0 outside a launch), and the default pool's
  // size.
  KOKKOS_INLINE_FUNCTION static int impl_hardware_thread_id() noexcept {
    KOKKOS_IF_ON_HOST((return impl_thread_pool_rank();))
    KOKKOS_IF_ON_DEVICE((return 0;))
  }
  static int impl_max_hardware_threads() noexcept { return s_pool ? s_pool->size() : 1; }
  // A partition owns a pool of its own `workers` threads (the caller is worker 0, so a one-worker
  // partition runs on the thread that launches on it); the pool ends with the last copy.
  Threads impl_create_partition(int workers) const;

  // Host back-end contract.
  int impl_thread_pool_size() const {
    const Impl::HostThreadPool* p = pool();
    return p ? p->size() : 1;
  }
  static int impl_thread_pool_rank() {
    const int r = Impl::HostThreadPool::current_rank();
    return r < 0 ? 0 : r;
  }
  template <class Body>
  void impl_run_on_workers(const Body& body) const {
    if (Impl::HostThreadPool* p = pool()) {
      p->run(body);
    } else {
      body(0, 1);
    }
  }
  // The optional worker-result part of the host contract (Host/Kokkos_HostBackend.hpp).
  static constexpr std::size_t impl_worker_result_bytes = Impl::HostThreadPool::worker_result_bytes;
  static void* impl_current_worker_result() { return Impl::HostThreadPool::current_result(); }
  template <class Body, class After>
  void impl_run_on_workers(const Body& body, const After& after) const {
    if (Impl::HostThreadPool* p = pool()) {
      p->run(body, after);
    } else {
      Impl::HostThreadPool::run_alone(body, after);
    }
  }

  static void impl_initialize(const InitializationSettings&);
  static void impl_finalize();
  static bool impl_is_initialized();

 private:
  Impl::HostThreadPool* pool() const { return m_pool ? m_pool.get() : s_pool; }

  static inline Impl::HostThreadPool* s_pool = nullptr;
  std::shared_ptr<Impl::HostThreadPool> m_pool;  // null: the default instance, on s_pool
  std::uint32_t m_instance_id = 1;
};

}  // namespace Kokkos

#pragma once
// Threads: kdag's own persistent std::thread pool (Kokkos' Threads back end).  Same host
// back-end contract as Serial and OpenMP; its fork/join is a spin-then-park epoch handshake,
// several times cheaper per launch than an OpenMP parallel region (see perf_tests/PerfLaunch).
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_HostSpace.hpp>
#include <impl/Kokkos_HostThreadPool.hpp>
#include <iosfwd>
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

  static int concurrency() { return s_pool ? s_pool->size() : 1; }
  static bool in_parallel() { return Impl::HostThreadPool::current_rank() >= 0; }
  void fence(const std::string& label = "Kokkos::Threads::fence: Unnamed Instance Fence") const;
  static void impl_static_fence(const std::string& label);
  static constexpr const char* name() { return "Threads"; }
  void print_configuration(std::ostream& os, bool verbose = false) const;
  uint32_t impl_instance_id() const noexcept { return 1; }
  friend bool operator==(const Threads&, const Threads&) { return true; }

  // Host back-end contract.
  int impl_thread_pool_size() const { return concurrency(); }
  static int impl_thread_pool_rank() {
    const int r = Impl::HostThreadPool::current_rank();
    return r < 0 ? 0 : r;
  }
  template <class Body>
  void impl_run_on_workers(const Body& body) const {
    if (s_pool) {
      s_pool->run(body);
    } else {
      body(0, 1);
    }
  }

  static void impl_initialize(const InitializationSettings&);
  static void impl_finalize();
  static bool impl_is_initialized();

 private:
  static inline Impl::HostThreadPool* s_pool = nullptr;
};

}  // namespace Kokkos

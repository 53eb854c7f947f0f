#pragma once
// OpenMP: a pool of OpenMP threads.  Implements the host back-end contract
// (impl_run_on_workers) with one parallel region per launch; omp_get_thread_num() inside a
// functor is the worker rank, as Kokkos users expect.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_HostSpace.hpp>
#include <omp.h>
#include <iosfwd>
#include <string>

namespace Kokkos {
class InitializationSettings;
struct LayoutRight;
template <class ExecSpace>
class ScratchMemorySpace;

class OpenMP {
 public:
  using execution_space = OpenMP;
  using memory_space = HostSpace;
  using device_type = Device<execution_space, memory_space>;
  using array_layout = LayoutRight;
  using size_type = HostSpace::size_type;
  using scratch_memory_space = ScratchMemorySpace<OpenMP>;

  static constexpr bool impl_is_host_backend = true;

  OpenMP() = default;

  static int concurrency() { return s_pool_size; }
  static bool in_parallel() { return omp_in_parallel(); }
  void fence(const std::string& label = "Kokkos::OpenMP::fence: Unnamed Instance Fence") const;
  static void impl_static_fence(const std::string& label);
  static constexpr const char* name() { return "OpenMP"; }
  void print_configuration(std::ostream& os, bool verbose = false) const;
  uint32_t impl_instance_id() const noexcept { return 1; }
  friend bool operator==(const OpenMP&, const OpenMP&) { return true; }

  // Host back-end contract.
  int impl_thread_pool_size() const { return s_pool_size; }
  // The rank is kept in a thread_local for the duration of a launch: a ScatterView reads it once
  // per update, and omp_get_thread_num() is a call into libgomp's dynamic TLS (about 20 ns here;
  // its OpenMP histogram ran at 1x the speed of atomics, the Threads one at 3x).
  static int impl_thread_pool_rank() { return t_rank; }
  // Runs body(rank, size) on every worker and returns when all have returned.  A launch from
  // inside a parallel region (a task, a nested launch) runs on the calling thread alone.
  template <class Body>
  void impl_run_on_workers(const Body& body) const {
    if (s_pool_size == 1 || omp_in_parallel()) {
      const RankScope scope(omp_get_thread_num());
      body(0, 1);
      return;
    }
#pragma omp parallel num_threads(s_pool_size)
    {
      const RankScope scope(omp_get_thread_num());
      body(omp_get_thread_num(), omp_get_num_threads());
    }
  }

  static void impl_initialize(const InitializationSettings&);
  static void impl_finalize();
  static bool impl_is_initialized();

 private:
  static inline int s_pool_size = 1;
  static inline thread_local int t_rank = 0;
  struct RankScope {
    int saved;
    explicit RankScope(int rank) : saved(t_rank) { t_rank = rank; }
    ~RankScope() { t_rank = saved; }
    RankScope(const RankScope&) = delete;
    RankScope& operator=(const RankScope&) = delete;
  };
};

}  // namespace Kokkos

#pragma once
// OpenMP: a pool of OpenMP threads.  Implements the host back-end contract
// (impl_run_on_workers) with one parallel region per launch; omp_get_thread_num() inside a
// functor is the worker rank, as Kokkos users expect.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_HostSpace.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <omp.h>
#include <cstdint>
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
  // An instance whose launches run on `pool_size` OpenMP threads (partition_space makes these).
  // Launched from a thread outside any parallel region (e.g. one std::thread per instance), its
  // region is a team of its own; launched from a thread of an outer parallel region, it nests in
  // it when the program enabled nesting (omp_set_max_active_levels >= 2) and otherwise runs on
  // the calling thread alone.
  explicit OpenMP(int pool_size);

  // Static, with an instance argument or without, as Kokkos 4 has it: OpenMP::concurrency() is the default
  // instance's thread count, OpenMP::concurrency(instance) an instance's.
  static int concurrency() { return OpenMP().impl_thread_pool_size(); }
  static int concurrency(const OpenMP& space) { return space.impl_thread_pool_size(); }
  static bool in_parallel() { return omp_in_parallel(); }
  static bool in_parallel(const OpenMP&) { return omp_in_parallel(); }
  void fence(const std::string& label = "Kokkos::OpenMP::fence: Unnamed Instance Fence") const;
  static void impl_static_fence(const std::string& label);
  static constexpr const char* name() { return "OpenMP"; }
  void print_configuration(std::ostream& os, bool verbose = false) const;
  uint32_t impl_instance_id() const noexcept { return m_instance_id; }
  friend bool operator==(const OpenMP& a, const OpenMP& b) { return a.m_instance_id == b.m_instance_id; }
  // The calling thread's number in the innermost parallel region (0 outside one), and the
  // default instance's thread count.
  KOKKOS_INLINE_FUNCTION static int impl_hardware_thread_id() noexcept {
    KOKKOS_IF_ON_HOST((return omp_get_thread_num();))
    KOKKOS_IF_ON_DEVICE((return -1;))
  }
  static int impl_max_hardware_threads() noexcept { return s_pool_size; }
  OpenMP impl_create_partition(int workers) const { return OpenMP(workers); }

  // Host back-end contract.
  int impl_thread_pool_size() const { return m_pool_size > 0 ? m_pool_size : s_pool_size; }
  // The rank is kept in a thread_local for the duration of a launch: a ScatterView reads it once
  // per update, and omp_get_thread_num() is a call into libgomp's dynamic TLS (about 20 ns here;
  // its OpenMP histogram ran at 1x the speed of atomics, the Threads one at 3x).
  static int impl_thread_pool_rank() { return t_rank; }
  // Runs body(rank, size) on every worker and returns when all have returned.  A launch from
  // inside a parallel region (a task, a nested launch) runs on the calling thread alone, unless
  // this is a sized instance that may nest (see OpenMP(int)).
  template <class Body>
  void impl_run_on_workers(const Body& body) const {
    const int size = impl_thread_pool_size();
    if (size == 1 || (omp_in_parallel() && !nests_in_caller_region())) {
      const RankScope scope(omp_get_thread_num());
      body(0, 1);
      return;
    }
#pragma omp parallel num_threads(size)
    {
      const int rank = omp_get_thread_num();
      const RankScope scope(rank);
      body(rank, omp_get_num_threads());
    }
  }

  static void impl_initialize(const InitializationSettings&);
  static void impl_finalize();
  static bool impl_is_initialized();

 private:
  bool nests_in_caller_region() const {
    return m_pool_size > 0 && omp_get_level() == 1 && omp_get_max_active_levels() > 1;
  }

  static inline int s_pool_size = 1;
  static inline thread_local int t_rank = 0;
  struct RankScope {
    int saved;
    explicit RankScope(int rank) : saved(t_rank) { t_rank = rank; }
    ~RankScope() { t_rank = saved; }
    RankScope(const RankScope&) = delete;
    RankScope& operator=(const RankScope&) = delete;
  };
  int m_pool_size = 0;  // 0: the default instance, which follows s_pool_size
  std::uint32_t m_instance_id = 1;
};

}  // namespace Kokkos

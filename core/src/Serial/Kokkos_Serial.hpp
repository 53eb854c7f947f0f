#pragma once
// Serial: one host thread, the calling one.  Implements the host back-end contract
// (impl_run_on_workers) with a single worker, so every host pattern in impl/ serves it.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_HostSpace.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace Kokkos {
class InitializationSettings;
struct LayoutRight;
template <class ExecSpace>
class ScratchMemorySpace;

class Serial {
 public:
  using execution_space = Serial;
  using memory_space = HostSpace;
  using device_type = Device<execution_space, memory_space>;
  using array_layout = LayoutRight;
  using size_type = HostSpace::size_type;
  using scratch_memory_space = ScratchMemorySpace<Serial>;

  static constexpr bool impl_is_host_backend = true;

  Serial() = default;
  // An independent instance (partition_space makes these).  Launches run on the calling thread,
  // so two instances used from two host threads run concurrently.
  explicit Serial(NewInstance) : m_instance_id(Impl::new_host_instance_id()) {}

  // Static, with an instance argument or without, as Kokkos 4 has it (Serial::concurrency() and
  // space.concurrency() both work).
  static int concurrency() { return 1; }
  static int concurrency(const Serial&) { return 1; }
  static bool in_parallel() { return false; }
  static bool in_parallel(const Serial&) { return false; }
  void fence(const std::string& label = "Kokkos::Serial::fence: Unnamed Instance Fence") const;
  static void impl_static_fence(const std::string& label);
  static constexpr const char* name() { return "Serial"; }
  void print_configuration(std::ostream& os, bool verbose = false) const;
  uint32_t impl_instance_id() const noexcept { return m_instance_id; }
  friend bool operator==(const Serial& a, const Serial& b) { return a.m_instance_id == b.m_instance_id; }
  KOKKOS_INLINE_FUNCTION static int impl_hardware_thread_id() noexcept { return 0; }
  static int impl_max_hardware_threads() noexcept { return 1; }
  Serial impl_create_partition(int /*workers*/) const { return Serial(NewInstance{}); }

  // Host back-end contract.
  int impl_thread_pool_size() const { return 1; }
  static int impl_thread_pool_rank() { return 0; }
  template <class Body>
  void impl_run_on_workers(const Body& body) const {
    run_worker(body);
  }

  static void impl_initialize(const InitializationSettings&);
  static void impl_finalize();
  static bool impl_is_initialized();

 private:
  // The worker runs in a function of its own, as an OpenMP region's body does: inlined into
  // the caller, a reduction's running value could share the caller's register pressure (g++
  // kept a hand-written CG's r.r in a stack slot, a store and a reload per index: 2x slower).
  template <class Body>
  KOKKOS_IMPL_NOINLINE static void run_worker(const Body& body) {
    body(0, 1);
  }

  std::uint32_t m_instance_id = 1;
};

}  // namespace Kokkos

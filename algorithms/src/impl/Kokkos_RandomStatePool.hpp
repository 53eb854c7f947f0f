#pragma once
// Which state of a random pool a caller gets.  On a host back end whose pool has a state per
// worker (the default: num_states = concurrency()), the worker's rank is its state: no lock, no
// atomic, and a worker uses one state at a time.  A pool with fewer states than workers, and a
// device, hand states out under per-state locks (a compare-exchange per get_state, a release
// store per free_state), as Kokkos does on GPUs.
#include <Kokkos_Abort.hpp>
#include <Kokkos_Atomic.hpp>
#include <Kokkos_View.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <string>

namespace Kokkos::Impl {

template <class DeviceType>
class RandomStateSlots {
 public:
  using device_type = typename DeviceType::device_type;
  using execution_space = typename device_type::execution_space;

  RandomStateSlots() = default;

  // Host only: allocates the locks (one per cache line, so spinning on one does not slow the
  // owner of the next).
  void init(const char* pool_name, int num_states) {
    if (num_states < 1) {
      throw_runtime_exception(std::string(pool_name) + "::init: num_states must be at least 1, got " +
                              std::to_string(num_states));
    }
    m_num_states = num_states;
    m_per_worker = is_host_backend<execution_space>::value && num_states >= execution_space().concurrency();
    m_locks = View<int**, device_type>(std::string(pool_name) + "::locks", m_per_worker ? 0 : num_states,
                                       KOKKOS_IMPL_CACHE_LINE / sizeof(int));
  }

  KOKKOS_INLINE_FUNCTION int num_states() const { return m_num_states; }
  // Whether acquire() locks, so release() must unlock.
  KOKKOS_INLINE_FUNCTION bool locks() const { return !m_per_worker; }

  // The state index the calling thread owns until release(index).
  KOKKOS_INLINE_FUNCTION int acquire() const {
    if (m_num_states < 1) Kokkos::abort("Kokkos random pool: get_state() on a pool that was never initialised\n");
    int start = 0;
    if constexpr (is_host_backend<execution_space>::value) {
      KOKKOS_IF_ON_HOST((start = execution_space::impl_thread_pool_rank();))
      if (m_per_worker) {
        if (start >= m_num_states) {
          Kokkos::abort("Kokkos random pool: get_state() from a thread that is not one of the pool's workers\n");
        }
        return start;
      }
    }
    for (int i = start % m_num_states;; i = (i + 1) % m_num_states) {
      int expected = 0;
      if (atomic_load_relaxed(&m_locks(i, 0)) == 0 && atomic_compare_exchange_weak_acq_rel(&m_locks(i, 0), expected, 1)) {
        return i;
      }
    }
  }

  // Unlocks a state acquire() locked, publishing what was written back to it to its next owner.
  KOKKOS_INLINE_FUNCTION void release(int index) const { atomic_store_release(&m_locks(index, 0), 0); }

 private:
  View<int**, device_type> m_locks;
  int m_num_states = 0;
  bool m_per_worker = false;
};

}  // namespace Kokkos::Impl

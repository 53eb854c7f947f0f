#include <impl/Kokkos_AsymmetricFence.hpp>

#include <cstdlib>
#include <mutex>

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace Kokkos::Impl {
namespace {

#if defined(__linux__) && defined(SYS_membarrier)
long membarrier(int command) noexcept { return syscall(SYS_membarrier, command, 0, 0); }

bool register_expedited() noexcept {
  const long supported = membarrier(MEMBARRIER_CMD_QUERY);
  if (supported < 0 || (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return false;
  return membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}
#else
bool register_expedited() noexcept { return false; }
#endif

}  // namespace

void asymmetric_fence_prepare() noexcept {
  static std::once_flag once;
  std::call_once(once, [] {
    if (register_expedited()) g_asymmetric_fence_expedited.store(true, std::memory_order_seq_cst);
  });
}

void asymmetric_fence_heavy() noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);
#if defined(__linux__) && defined(SYS_membarrier)
  if (g_asymmetric_fence_expedited.load(std::memory_order_relaxed)) {
    // Cannot fail once registered; should it, a fast side may be using a compiler barrier only.
    if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) std::abort();
  }
#endif
}

}  // namespace Kokkos::Impl

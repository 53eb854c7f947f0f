#pragma once
// An asymmetric fence: a fast side that runs often and a slow side that runs rarely.
//
// Two threads that each store one flag and then load the other's (Dekker's pattern) need a full
// fence between the store and the load on both sides.  When one side runs on every operation
// (a thread using its own cache of memory-pool blocks) and the other almost never (a thread
// emptying every cache), the full fence can move to the rare side: the fast side keeps only a
// compiler barrier, and the slow side makes every running thread of the process execute a full
// fence (Linux membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)).  Then for each fast-side thread,
// either its load comes after that fence and sees the slow side's store, or its store came
// before it and the slow side's load sees it.
//
// Where the expedited membarrier is not available (another OS, an old kernel, a seccomp filter),
// both sides use a full fence.  asymmetric_fence_prepare() registers the process; call it before
// any thread uses either side on the data the pair protects (a memory pool calls it when it is
// built), so that both sides agree on which kind of fence is in use.
#include <Kokkos_Macros.hpp>

#include <atomic>

namespace Kokkos::Impl {

// True once the expedited membarrier is registered for this process.
inline std::atomic<bool> g_asymmetric_fence_expedited{false};

// Registers the process for the expedited membarrier (once; cheap after the first call).
void asymmetric_fence_prepare() noexcept;

// The rare side: every thread of the process has executed a full fence when this returns.
void asymmetric_fence_heavy() noexcept;

// The frequent side, between its store and its load.
inline void asymmetric_fence_light() noexcept {
  if (KOKKOS_IMPL_LIKELY(g_asymmetric_fence_expedited.load(std::memory_order_relaxed))) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
}

}  // namespace Kokkos::Impl

#pragma once
// Allocations that no kernel reads or writes before they are freed, each with the queue (a
// device stream) it may be freed on in order with the work before it.  A device memory space
// frees such an allocation on that queue instead of first waiting for the whole device, which it
// must do for memory that work on any queue may still use: the temporaries a fused kernel keeps
// in on-chip memory (Cuda/Kokkos_Cuda_Fusion.hpp) are noted here when the kernel is enqueued and
// taken when their View goes, which may be on another thread.
//
// Written once for every back end (CudaSpace keeps one of cudaStream_t); the host tests hammer it
// with many threads under ThreadSanitizer (unit_tests/TestUntouchedAllocations.cpp).
#include <cstddef>
#include <mutex>
#include <unordered_map>

namespace Kokkos::Impl {

template <class Queue>
class UntouchedAllocations {
 public:
  // Notes that the allocation starting at `allocation` is untouched and may be freed on `queue`;
  // noted again before it is taken (a recorded graph launched once more), the last queue counts.
  void note(const void* allocation, Queue queue) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_queue_of[allocation] = queue;
  }

  // Whether `allocation` is noted; if so forgets it and gives the queue to free it on.
  bool take(const void* allocation, Queue& queue) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    const auto it = m_queue_of.find(allocation);
    if (it == m_queue_of.end()) return false;
    queue = it->second;
    m_queue_of.erase(it);
    return true;
  }

  // How many noted allocations are not taken yet.
  std::size_t size() const {
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_queue_of.size();
  }

 private:
  mutable std::mutex m_mutex;
  std::unordered_map<const void*, Queue> m_queue_of;
};

}  // namespace Kokkos::Impl

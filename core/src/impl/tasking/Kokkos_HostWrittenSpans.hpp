#pragma once
// The spans of a GPU scheduler's memory pool that host code wrote since its workers last ran.
//
// The pool of TaskScheduler<Cuda> is in managed memory (seed 001 §2.2.4's UVM strategy), so a
// block that host_spawn builds a task in, or that a future released on the host frees, moves its
// page to the host.  Left there, the page faults back to the GPU when a worker first touches it,
// and in a DAG spawned from the host the workers first touch each task when its predecessors
// finish: one fault after another along the critical path.  wait() instead moves every span
// recorded here to the GPU in bulk before its workers start (Kokkos_Cuda_Task.hpp).
//
// Spans closer than merge_gap are moved as one: fewer, larger moves, and the gap between two
// blocks of one pool lies inside the pool's allocation, so a merged span never leaves it (every
// span recorded in one HostWrittenSpans must belong to one allocation).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace Kokkos {
namespace Impl {

class HostWrittenSpans {
 public:
  static constexpr std::size_t merge_gap = std::size_t(64) << 10;

  HostWrittenSpans() = default;
  HostWrittenSpans(const HostWrittenSpans&) = delete;
  HostWrittenSpans& operator=(const HostWrittenSpans&) = delete;

  // Any host thread, at any time (a record made while take() runs goes to that take or the next).
  // A span of 0 bytes is ignored.
  void record(const void* p, std::size_t bytes) {
    if (bytes == 0) return;
    const Span s{reinterpret_cast<std::uintptr_t>(p), reinterpret_cast<std::uintptr_t>(p) + bytes};
    std::lock_guard<std::mutex> lock(m_mutex);
    // Host spawns take consecutive blocks: most records widen the last span.
    if (!m_spans.empty() && near(m_spans.back(), s)) {
      m_spans.back() = {std::min(m_spans.back().begin, s.begin), std::max(m_spans.back().end, s.end)};
      return;
    }
    m_spans.push_back(s);
    if (m_spans.size() >= m_merge_at) {
      merge_locked();
      // Scattered blocks merge little: let the list grow before the next pass, so that recording
      // stays amortised constant time.
      m_merge_at = std::max(m_merge_at, 2 * m_spans.size());
    }
  }

  // Calls move(begin, bytes) once per merged span, in increasing address order, and forgets them.
  template <class Move>
  void take(Move&& move) {
    std::vector<Span> spans;
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      merge_locked();
      spans.swap(m_spans);
      m_merge_at = initial_merge_at;
    }
    for (const Span& s : spans) move(reinterpret_cast<const void*>(s.begin), std::size_t(s.end - s.begin));
  }

  bool empty() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_spans.empty();
  }

 private:
  struct Span {
    std::uintptr_t begin, end;
  };
  static constexpr std::size_t initial_merge_at = 256;

  static bool near(const Span& a, const Span& b) {
    return b.begin <= a.end + merge_gap && a.begin <= b.end + merge_gap;
  }
  void merge_locked() {
    if (m_spans.size() < 2) return;
    std::sort(m_spans.begin(), m_spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
    std::size_t last = 0;
    for (std::size_t k = 1; k < m_spans.size(); ++k) {
      if (m_spans[k].begin <= m_spans[last].end + merge_gap) {
        m_spans[last].end = std::max(m_spans[last].end, m_spans[k].end);
      } else {
        m_spans[++last] = m_spans[k];
      }
    }
    m_spans.resize(last + 1);
  }

  mutable std::mutex m_mutex;
  std::vector<Span> m_spans;
  std::size_t m_merge_at = initial_merge_at;
};

}  // namespace Impl
}  // namespace Kokkos

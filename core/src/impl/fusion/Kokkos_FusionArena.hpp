#pragma once
// The recorded functors' storage (FusionArena).
#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace Kokkos::Impl {

// Storage for the recorded functors: a ring of blocks that every flush keeps advancing through
// instead of starting over.  The workers of a fused run read the functors the recording thread
// wrote; were the next window written over the same lines, each store would first have to
// take the line back from a worker's cache, one cross-core round trip at a time (the locked
// reference counting of the user's own View copies drains the store buffer between them).
// Going round a ring larger than a core's private cache lets those lines age out first.
class FusionArena {
 public:
  void* allocate(std::size_t bytes, std::size_t align) {
    if (align > block_align || bytes > block_bytes / 4) {
      m_large.emplace_back(static_cast<std::byte*>(::operator new(bytes, std::align_val_t{align})), LargeFree{align});
      return m_large.back().get();
    }
    for (;;) {
      if (m_current < m_blocks.size()) {
        const std::size_t start = (m_used + align - 1) / align * align;
        if (start + bytes <= block_bytes) {
          m_used = start + bytes;
          return m_blocks[m_current].get() + start;
        }
        ++m_current;
        m_used = 0;
        continue;
      }
      m_blocks.emplace_back(static_cast<std::byte*>(::operator new(block_bytes, std::align_val_t{block_align})));
    }
  }
  void reset() {
    m_current = 0;
    m_used = 0;
    m_large.clear();
  }

 private:
  static constexpr std::size_t block_bytes = 64 * 1024, block_align = 64;
  struct BlockFree {
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t{block_align}); }
  };
  struct LargeFree {
    std::size_t align;
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t{align}); }
  };
  std::vector<std::unique_ptr<std::byte, BlockFree>> m_blocks;
  std::vector<std::unique_ptr<std::byte, LargeFree>> m_large;
  std::size_t m_current = 0, m_used = 0;
};

}  // namespace Kokkos::Impl

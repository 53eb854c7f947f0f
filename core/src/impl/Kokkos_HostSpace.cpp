#include <Kokkos_HostSpace.hpp>
#include <impl/Kokkos_Profiling.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>
#include <stdexcept>
#include <string>

namespace Kokkos {

namespace {

[[noreturn]] void throw_allocation_failure(const char* label, std::size_t bytes) {
  // Kokkos' wording, so that code matching it keeps working.
  throw std::runtime_error(std::string("Kokkos failed to allocate memory for label \"") + (label ? label : "") +
                           "\".  Allocation using MemorySpace named \"HostSpace\" failed with the following "
                           "error:  Allocation of size " +
                           std::to_string(bytes) + " B failed, likely due to insufficient memory.");
}

// Reserved mappings given back, kept per thread for the next reserved allocation: creating and
// unmapping a mapping costs two system calls, and a mapping that was written would fault every
// page in again.  Unwritten mappings cost address space only; written ones (a temporary that
// was not eliminated) are resident, so few of them are kept, and they are zeroed on reuse.
// Set when the thread's cache is gone (thread exit): Views freed later (by another
// thread-local's destructor, or after main returns) unmap at once.
thread_local bool t_reserved_mappings_gone = false;

class ReservedMappings {
 public:
  ~ReservedMappings() {
    t_reserved_mappings_gone = true;
    for (const Mapping& m : m_kept) ::munmap(m.ptr, m.bytes);
  }
  // A kept mapping of at least `bytes` (and not more than twice as large), zero-filled.
  void* take(std::size_t bytes) {
    std::size_t best = m_kept.size();
    for (std::size_t k = 0; k < m_kept.size(); ++k) {
      if (m_kept[k].bytes >= bytes && m_kept[k].bytes / 2 <= bytes &&
          (best == m_kept.size() || m_kept[k].bytes < m_kept[best].bytes)) {
        best = k;
      }
    }
    if (best == m_kept.size()) return nullptr;
    const Mapping m = m_kept[best];
    m_kept.erase(m_kept.begin() + static_cast<std::ptrdiff_t>(best));
    if (m.written) {
      m_written_bytes -= m.bytes;
      std::memset(m.ptr, 0, bytes);
    }
    m_sizes.push_back({m.ptr, m.bytes});
    return m.ptr;
  }
  void* map(std::size_t bytes) {
    const std::size_t mapped = round_up(bytes);
    void* p = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    m_sizes.push_back({p, mapped});
    return p;
  }
  // Every reserved pointer goes back through the thread that frees it; a mapping reserved on
  // another thread is unmapped (its size is recomputed from the request).
  void give_back(void* ptr, std::size_t bytes, bool written) {
    std::size_t mapped = round_up(bytes);
    const auto it = std::find_if(m_sizes.begin(), m_sizes.end(), [&](const Mapping& m) { return m.ptr == ptr; });
    if (it != m_sizes.end()) {
      mapped = it->bytes;
      m_sizes.erase(it);
    }
    const bool room = m_kept.size() < max_kept && (!written || m_written_bytes + mapped <= max_written_bytes);
    if (!room) {
      ::munmap(ptr, mapped);
      return;
    }
    if (written) {
      m_written_bytes += mapped;
    } else {
      // "Unwritten" is the fusion layer's word for it (it ran every launch on chunk buffers);
      // dropping the pages guarantees zeros to the next user even if a raw pointer wrote some.
      // On pages never touched this costs one system call and nothing else.
      ::madvise(ptr, mapped, MADV_DONTNEED);
    }
    m_kept.push_back({ptr, mapped, written});
  }

 private:
  struct Mapping {
    void* ptr;
    std::size_t bytes;
    bool written = false;
  };
  static constexpr std::size_t max_kept = 8, max_written_bytes = std::size_t(256) << 20;
  static std::size_t round_up(std::size_t bytes) {
    constexpr std::size_t page = 4096;
    return (bytes + page - 1) / page * page;
  }
  std::vector<Mapping> m_kept;
  std::vector<Mapping> m_sizes;  // mappings handed out by this thread
  std::size_t m_written_bytes = 0;
};

ReservedMappings& reserved_mappings() {
  static thread_local ReservedMappings mappings;
  return mappings;
}

}  // namespace

// Kokkos Tools see every allocation and deallocation, with the logical size when one is given.
void* HostSpace::allocate(const char* label, std::size_t bytes, std::size_t logical_bytes) const {
  const auto reported = [&](void* p) {
    Tools::Impl::report_allocation(name(), label, p, logical_bytes > 0 ? logical_bytes : bytes);
    return p;
  };
  if (bytes == 0) return reported(nullptr);
  // Rounding up to the alignment must not wrap a size near SIZE_MAX around to a small one.
  void* ptr = bytes > ~std::size_t(0) - alignment
                  ? nullptr
                  : std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (ptr == nullptr) throw_allocation_failure(label, bytes);
  return reported(ptr);
}

void* HostSpace::impl_allocate_reserved(const char* label, std::size_t bytes) const {
  if (bytes == 0) return allocate(label, bytes);
  void* ptr = nullptr;
  if (t_reserved_mappings_gone) {
    ptr = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (ptr == MAP_FAILED) ptr = nullptr;
  } else {
    ReservedMappings& mappings = reserved_mappings();
    ptr = mappings.take(bytes);
    if (ptr == nullptr) ptr = mappings.map(bytes);
  }
  if (ptr == nullptr) throw_allocation_failure(label, bytes);
  Tools::Impl::report_allocation(name(), label, ptr, bytes);
  return ptr;
}

void HostSpace::impl_deallocate_reserved(const char* label, void* ptr, std::size_t bytes, bool written) const {
  if (ptr == nullptr) return deallocate(label, ptr, bytes);
  Tools::Impl::report_deallocation(name(), label, ptr, bytes);
  if (t_reserved_mappings_gone) {
    ::munmap(ptr, (bytes + 4095) / 4096 * 4096);
    return;
  }
  reserved_mappings().give_back(ptr, bytes, written);
}

void HostSpace::deallocate(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes) const {
  Tools::Impl::report_deallocation(name(), label, ptr, logical_bytes > 0 ? logical_bytes : bytes);
  std::free(ptr);
}

}  // namespace Kokkos

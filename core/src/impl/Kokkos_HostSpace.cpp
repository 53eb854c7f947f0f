#include <Kokkos_HostSpace.hpp>
#include <impl/tools/Kokkos_Profiling.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace Kokkos {

namespace {

[[noreturn]] void throw_allocation_failure(const char* label, std::size_t bytes) {
  // Kokkos' wording, so that code matching it keeps working.
  throw std::runtime_error(std::string("Kokkos failed to allocate memory for label \"") + (label ? label : "") +
                           "\".  Allocation using MemorySpace named \"" + HostSpace::name() + "\" failed with the following "
                           "error:  Allocation of size " +
                           std::to_string(bytes) + " B failed, likely due to insufficient memory.");
}

// Reserved mappings given back, kept for the next reserved allocation: creating and unmapping a
// mapping costs two system calls, and a mapping that was written would fault every page in again.
// Unwritten mappings cost address space only; written ones (a temporary that was not eliminated)
// are resident, so few of them are kept, and they are zeroed on reuse.  One cache for the
// process (a View may be freed by another thread than the one that made it), never destroyed: a
// View may be freed during static destruction.
class ReservedMappings {
 public:
  // A kept mapping of at least `bytes` (and not more than twice as large), zero-filled, or a new one.
  void* take(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::size_t best = m_kept.size();
    for (std::size_t k = 0; k < m_kept.size(); ++k) {
      if (m_kept[k].bytes >= bytes && m_kept[k].bytes / 2 <= bytes &&
          (best == m_kept.size() || m_kept[k].bytes < m_kept[best].bytes)) {
        best = k;
      }
    }
    if (best == m_kept.size()) {
      const std::size_t mapped = round_up(bytes);
      void* p = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) return nullptr;
      m_out.push_back({p, mapped});
      return p;
    }
    const Mapping m = m_kept[best];
    m_kept.erase(m_kept.begin() + static_cast<std::ptrdiff_t>(best));
    if (m.written) {
      m_written_bytes -= m.bytes;
      std::memset(m.ptr, 0, bytes);
    }
    m_out.push_back({m.ptr, m.bytes});
    return m.ptr;
  }
  void give_back(void* ptr, bool written) {
    std::lock_guard<std::mutex> lock(m_mutex);
    const auto it = std::find_if(m_out.begin(), m_out.end(), [&](const Mapping& m) { return m.ptr == ptr; });
    if (it == m_out.end()) {
      std::fprintf(stderr, "Kokkos::HostSpace: %p was not allocated by impl_allocate_reserved\n", ptr);
      std::abort();
    }
    const std::size_t mapped = it->bytes;
    m_out.erase(it);
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
  std::mutex m_mutex;
  std::vector<Mapping> m_kept;
  std::vector<Mapping> m_out;  // handed out, with their mapped sizes
  std::size_t m_written_bytes = 0;
};

ReservedMappings& reserved_mappings() {
  static ReservedMappings* const mappings = new ReservedMappings;
  return *mappings;
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

void HostSpace::deallocate(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes) const {
  Tools::Impl::report_deallocation(name(), label, ptr, logical_bytes > 0 ? logical_bytes : bytes);
  std::free(ptr);
}

void* HostSpace::impl_allocate_reserved(const char* label, std::size_t bytes) const {
  if (bytes == 0) return allocate(label, bytes);
  void* ptr = reserved_mappings().take(bytes);
  if (ptr == nullptr) throw_allocation_failure(label, bytes);
  Tools::Impl::report_allocation(name(), label, ptr, bytes);
  return ptr;
}

void HostSpace::impl_deallocate_reserved(const char* label, void* ptr, std::size_t bytes, bool written) const {
  if (ptr == nullptr) return deallocate(label, ptr, bytes);
  Tools::Impl::report_deallocation(name(), label, ptr, bytes);
  reserved_mappings().give_back(ptr, written);
}

}  // namespace Kokkos

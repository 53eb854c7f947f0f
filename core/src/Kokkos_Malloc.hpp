#pragma once
// kokkos_malloc, kokkos_realloc, kokkos_free: untyped allocations in a memory space, as Kokkos 4.
//
//   void* p = Kokkos::kokkos_malloc<Kokkos::HostSpace>("scratch", bytes);
//   p = Kokkos::kokkos_realloc<Kokkos::HostSpace>(p, 2 * bytes);   // keeps the first bytes
//   Kokkos::kokkos_free<Kokkos::HostSpace>(p);
//
// The space argument is a memory space or an execution space (its memory space); it defaults
// to the default execution space's.  Every live block is registered with its size, label and
// space, so that realloc knows how much to keep and a pointer that is not a live block of
// that space (never allocated, freed already, or allocated in another space) is refused with
// a std::runtime_error instead of corrupting the heap.  kokkos_free(nullptr) does nothing;
// kokkos_realloc(nullptr, n) allocates.  A zero-byte block is a distinct pointer, freed like
// any other.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_CopyViews.hpp>

#include <cstddef>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace Kokkos {
namespace Impl {

class MallocRegistry {
 public:
  struct Block {
    std::size_t bytes;       // what the caller asked for
    std::size_t allocated;   // what the space allocated (at least one byte)
    std::string label;
    const char* space_name;  // the space's name(): a string literal
  };

  static MallocRegistry& instance() {
    static MallocRegistry registry;
    return registry;
  }

  void add(void* ptr, Block block) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_blocks.emplace(ptr, std::move(block));
  }
  // The block at `ptr` in the space named `space_name`; throws naming `caller` when there is none.
  Block find(const char* caller, void* ptr, const char* space_name) const {
    const std::lock_guard<std::mutex> lock(m_mutex);
    return check(caller, ptr, space_name)->second;
  }
  Block remove(const char* caller, void* ptr, const char* space_name) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    const auto it = check(caller, ptr, space_name);
    Block block = std::move(it->second);
    m_blocks.erase(it);
    return block;
  }

 private:
  using Map = std::unordered_map<void*, Block>;

  Map::const_iterator check(const char* caller, void* ptr, const char* space_name) const {
    const auto it = m_blocks.find(ptr);
    char where[64];
    std::snprintf(where, sizeof(where), "%p", ptr);
    if (it == m_blocks.end()) {
      throw std::runtime_error(std::string("Kokkos::") + caller + ": " + where +
                               " is not a live block of Kokkos::kokkos_malloc (never allocated by it, or freed "
                               "already)");
    }
    if (std::string(it->second.space_name) != space_name) {
      throw std::runtime_error(std::string("Kokkos::") + caller + "<" + space_name + ">: " + where + " (\"" +
                               it->second.label + "\") was allocated in " + it->second.space_name);
    }
    return it;
  }

  mutable std::mutex m_mutex;
  Map m_blocks;
};

template <class Space>
using malloc_memory_space_t = typename Space::memory_space;

}  // namespace Impl

template <class Space = typename DefaultExecutionSpace::memory_space>
inline void* kokkos_malloc(const std::string& arg_alloc_label, const std::size_t arg_alloc_size) {
  using MemorySpace = Impl::malloc_memory_space_t<Space>;
  const MemorySpace space;
  const std::size_t allocated = arg_alloc_size == 0 ? 1 : arg_alloc_size;
  void* ptr = space.allocate(arg_alloc_label.c_str(), allocated);
  Impl::MallocRegistry::instance().add(ptr, {arg_alloc_size, allocated, arg_alloc_label, MemorySpace::name()});
  return ptr;
}

template <class Space = typename DefaultExecutionSpace::memory_space>
inline void* kokkos_malloc(const std::size_t arg_alloc_size) {
  return kokkos_malloc<Space>("no-label", arg_alloc_size);
}

template <class Space = typename DefaultExecutionSpace::memory_space>
inline void kokkos_free(void* arg_alloc) {
  using MemorySpace = Impl::malloc_memory_space_t<Space>;
  if (arg_alloc == nullptr) return;
  const auto block = Impl::MallocRegistry::instance().remove("kokkos_free", arg_alloc, MemorySpace::name());
  MemorySpace().deallocate(block.label.c_str(), arg_alloc, block.allocated);
}

// A new block of `arg_alloc_size` bytes holding the first min(old, new) bytes of the old one,
// which is freed; the label is kept.
template <class Space = typename DefaultExecutionSpace::memory_space>
inline void* kokkos_realloc(void* arg_alloc, const std::size_t arg_alloc_size) {
  using MemorySpace = Impl::malloc_memory_space_t<Space>;
  if (arg_alloc == nullptr) return kokkos_malloc<Space>(arg_alloc_size);
  const auto old = Impl::MallocRegistry::instance().find("kokkos_realloc", arg_alloc, MemorySpace::name());
  void* fresh = kokkos_malloc<Space>(old.label, arg_alloc_size);
  Impl::DeepCopy<MemorySpace, MemorySpace>(fresh, arg_alloc, old.bytes < arg_alloc_size ? old.bytes : arg_alloc_size);
  kokkos_free<Space>(arg_alloc);
  return fresh;
}

}  // namespace Kokkos

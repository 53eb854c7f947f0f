#include <Kokkos_HostSpace.hpp>

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

namespace Kokkos {

void* HostSpace::allocate(const char* label, std::size_t bytes, std::size_t) const {
  if (bytes == 0) return nullptr;
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void* ptr = std::aligned_alloc(alignment, rounded);
  if (ptr == nullptr) {
    throw std::runtime_error("Kokkos::HostSpace::allocate: out of memory allocating " + std::to_string(bytes) +
                             " bytes for \"" + (label ? label : "") + "\"");
  }
  return ptr;
}

void HostSpace::deallocate(const char*, void* ptr, std::size_t, std::size_t) const { std::free(ptr); }

}  // namespace Kokkos

#include <Kokkos_HostSpace.hpp>

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

namespace Kokkos {

void* HostSpace::allocate(const char* label, std::size_t bytes, std::size_t) const {
  if (bytes == 0) return nullptr;
  // Rounding up to the alignment must not wrap a size near SIZE_MAX around to a small one.
  void* ptr = bytes > ~std::size_t(0) - alignment
                  ? nullptr
                  : std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (ptr == nullptr) {
    // Kokkos' wording, so that code matching it keeps working.
    throw std::runtime_error(std::string("Kokkos failed to allocate memory for label \"") + (label ? label : "") +
                             "\".  Allocation using MemorySpace named \"HostSpace\" failed with the following "
                             "error:  Allocation of size " +
                             std::to_string(bytes) + " B failed, likely due to insufficient memory.");
  }
  return ptr;
}

void HostSpace::deallocate(const char*, void* ptr, std::size_t, std::size_t) const { std::free(ptr); }

}  // namespace Kokkos

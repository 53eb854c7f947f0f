#include <Kokkos_HostSpace.hpp>
#include <impl/Kokkos_Profiling.hpp>

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

namespace Kokkos {

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
  if (ptr == nullptr) {
    // Kokkos' wording, so that code matching it keeps working.
    throw std::runtime_error(std::string("Kokkos failed to allocate memory for label \"") + (label ? label : "") +
                             "\".  Allocation using MemorySpace named \"HostSpace\" failed with the following "
                             "error:  Allocation of size " +
                             std::to_string(bytes) + " B failed, likely due to insufficient memory.");
  }
  return reported(ptr);
}

void HostSpace::deallocate(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes) const {
  Tools::Impl::report_deallocation(name(), label, ptr, logical_bytes > 0 ? logical_bytes : bytes);
  std::free(ptr);
}

}  // namespace Kokkos

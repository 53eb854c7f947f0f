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
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void* ptr = std::aligned_alloc(alignment, rounded);
  if (ptr == nullptr) {
    throw std::runtime_error("Kokkos::HostSpace::allocate: out of memory allocating " + std::to_string(bytes) +
                             " bytes for \"" + (label ? label : "") + "\"");
  }
  return reported(ptr);
}

void HostSpace::deallocate(const char* label, void* ptr, std::size_t bytes, std::size_t logical_bytes) const {
  Tools::Impl::report_deallocation(name(), label, ptr, logical_bytes > 0 ? logical_bytes : bytes);
  std::free(ptr);
}

}  // namespace Kokkos

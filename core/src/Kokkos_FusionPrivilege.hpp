#pragma once
// How a launch touches a View it declares to the fusion layer (Kokkos_Fusion.hpp): reads(v),
// writes(v), read_writes(v) and reduces(v) make a DataAccess of each privilege.
#include <cstdint>

namespace Kokkos::Experimental {

enum class Privilege : std::uint8_t { read, write, read_write, reduce };

}  // namespace Kokkos::Experimental

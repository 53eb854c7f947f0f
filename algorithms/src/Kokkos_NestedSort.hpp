#pragma once
// The team and thread sorts on their own (Kokkos 4.6 keeps this header beside Kokkos_Sort.hpp,
// which also includes them): Kokkos::Experimental::sort_team, sort_thread, sort_by_key_team,
// sort_by_key_thread.
#include <sorting/Kokkos_NestedSortPublicAPI.hpp>

#pragma once
// Kokkos' sorting, split as Kokkos 4.6 splits it: BinSort with its bin operators, sort,
// Experimental::sort_by_key, and the team/thread sorts callable inside kernels.
#include <sorting/Kokkos_BinSortPublicAPI.hpp>
#include <sorting/Kokkos_SortPublicAPI.hpp>
#include <sorting/Kokkos_SortByKeyPublicAPI.hpp>
#include <sorting/Kokkos_NestedSortPublicAPI.hpp>

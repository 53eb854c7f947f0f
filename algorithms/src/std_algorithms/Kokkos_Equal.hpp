#pragma once
// Kokkos 4.6 has one header per std algorithm; kdag keeps them all in one place.
#include <Kokkos_StdAlgorithms.hpp>

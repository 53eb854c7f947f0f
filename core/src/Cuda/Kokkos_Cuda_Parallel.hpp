#pragma once
// Every parallel pattern on Kokkos::Cuda: range, MDRange and team for/reduce/scan, the team
// member and its nested patterns.  Included by Kokkos_Core.hpp when CUDA is enabled and the
// translation unit is compiled by nvcc (kernels are templates instantiated in the user's unit).
#include <Cuda/Kokkos_Cuda_KernelLaunch.hpp>
#include <Cuda/Kokkos_Cuda_ReduceScan.hpp>
#include <Cuda/Kokkos_Cuda_Parallel_Range.hpp>
#include <Cuda/Kokkos_Cuda_Parallel_MDRange.hpp>
#include <Cuda/Kokkos_Cuda_Team.hpp>
#include <Cuda/Kokkos_Cuda_Parallel_Team.hpp>

#pragma once
// Device allocations that no kernel reads or writes before they are freed: the temporaries a
// fused kernel keeps in its shared memory instead (Kokkos_Cuda_Fusion.hpp).  CudaSpace frees one
// on the stream the fused kernel ran on (cudaFreeAsync), without the device-wide synchronisation
// it needs before freeing memory that kernels on any stream may still use; a NumPy-style
// program that drops its temporaries then never waits for the GPU.
//
// Only a CudaSpace allocation from cudaMallocAsync may be noted.  In a correct program whatever
// initialised it (a value-initialising memset on the instance it was allocated on) is ordered
// before the fused kernel's stream, as the unfused launches that would use it need.  The
// registry itself is impl/Kokkos_UntouchedAllocations.hpp (one for every back end, stress-tested
// on the host).
#include <cuda_runtime_api.h>

#include <cstddef>

namespace Kokkos::Impl {

// Notes that the allocation starting at `allocation` is untouched and may be freed on `stream`.
void cuda_note_untouched_allocation(const void* allocation, cudaStream_t stream);
// Whether `allocation` was noted; if so forgets it and gives the stream to free it on.
bool cuda_take_untouched_allocation(const void* allocation, cudaStream_t& stream);
// How many noted allocations are not freed yet (for tests).
std::size_t cuda_untouched_allocations();

}  // namespace Kokkos::Impl

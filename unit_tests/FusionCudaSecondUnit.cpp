// A second translation unit of TestFusionCuda: its launches' device code lives in this unit's
// module, so a fused run mixing them with the test file's launches splits at the boundary.
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#if defined(KOKKOS_ENABLE_CUDA)

void fusion_cuda_second_unit_axpy(const Kokkos::View<double*, Kokkos::CudaSpace>& x,
                                  const Kokkos::View<double*, Kokkos::CudaSpace>& y, double alpha) {
  namespace KE = Kokkos::Experimental;
  const long n = static_cast<long>(y.extent(0));
  Kokkos::parallel_for("second unit axpy",
                       KE::with_accesses(Kokkos::RangePolicy<Kokkos::Cuda>(0, n), KE::reads(x), KE::read_writes(y)),
                       KOKKOS_LAMBDA(long i) { y(i) = alpha * x(i) + y(i); });
}

#endif

// Built against the installed CUDA tree only.  With a GPU: fills a device View with a kernel,
// copies it to the host and checks every element (non-zero exit when wrong).  Without one:
// Kokkos still initialises, and the first use of the device must throw an error that names the
// CUDA error; the program checks that and exits 0.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 1 << 20;
  try {
    Kokkos::View<double*> x("x", n);  // DefaultExecutionSpace = Cuda: device memory
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(int i) { x(i) = 2.0 * i + 1.0; });
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    Kokkos::View<double*, Kokkos::CudaSpace> y("y", n);
    Kokkos::deep_copy(y, x);
    Kokkos::View<double*, Kokkos::HostSpace> hy("hy", n);
    Kokkos::deep_copy(hy, y);
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      if (h(i) != 2.0 * i + 1.0 || hy(i) != h(i)) ++wrong;
    }
    std::printf("consumer_cuda: %s on device %d: %d wrong of %d\n", Kokkos::DefaultExecutionSpace::name(),
                Kokkos::Cuda().cuda_device(), wrong, n);
    return wrong == 0 ? 0 : 1;
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    std::printf("consumer_cuda: no GPU: %s\n", what.c_str());
    // Only the clear no-GPU error is acceptable, and it must name the CUDA error.
    const bool clear = what.find("no usable CUDA device") != std::string::npos &&
                       what.find("cudaError") != std::string::npos;
    return clear && Kokkos::Cuda::detect_device_count() == 0 ? 0 : 1;
  }
}

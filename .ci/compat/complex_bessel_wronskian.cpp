// Complex special functions in a kernel: random complex points from fill_random, then the
// Wronskians J1 Y0 - J0 Y1 = 2/(pi z) and I0 K1 + I1 K0 = 1/z, H0^(1) = J0 + i Y0 below the real
// axis, and erfcx(z) = exp(z^2) (1 - erf(z)) checked at every point with a max reduction.
#include <Kokkos_Core.hpp>
#include <Kokkos_MathematicalSpecialFunctions.hpp>
#include <Kokkos_Random.hpp>

#include <cstdio>

using complex_type = Kokkos::complex<double>;

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 4000;
  Kokkos::View<complex_type*> z("z", n);
  Kokkos::Random_XorShift64_Pool<> pool(2025);
  Kokkos::fill_random(z, pool, complex_type(-12.0, -12.0), complex_type(12.0, 12.0));

  double worst = 0;
  int outside = 0;
  Kokkos::parallel_reduce(
      "identities", n,
      KOKKOS_LAMBDA(const int i, double& err, int& out) {
        using namespace Kokkos::Experimental;
        const complex_type x = z(i);
        if (x.real() < -12 || x.real() >= 12 || x.imag() < -12 || x.imag() >= 12) ++out;
        const complex_type j0 = cyl_bessel_j0<complex_type, double, int>(x);
        const complex_type j1 = cyl_bessel_j1<complex_type, double, int>(x);
        const complex_type y0 = cyl_bessel_y0<complex_type, double, int>(x);
        const complex_type y1 = cyl_bessel_y1<complex_type, double, int>(x);
        const complex_type w = 2.0 / (Kokkos::numbers::pi * x);
        double e = Kokkos::abs(j1 * y0 - j0 * y1 - w) / (Kokkos::abs(j0 * y1) + Kokkos::abs(w));
        const complex_type i0 = cyl_bessel_i0<complex_type, double, int>(x);
        const complex_type i1 = cyl_bessel_i1<complex_type, double, int>(x);
        const complex_type k0 = cyl_bessel_k0<complex_type, double, int>(x);
        const complex_type k1 = cyl_bessel_k1<complex_type, double, int>(x);
        e = Kokkos::max(e, Kokkos::abs(i0 * k1 + i1 * k0 - 1.0 / x) / (Kokkos::abs(i0 * k1) + Kokkos::abs(1.0 / x)));
        if (x.imag() < 0) {
          const complex_type h = j0 + complex_type(0, 1) * y0;
          e = Kokkos::max(e, Kokkos::abs(cyl_bessel_h10(x) - h) / Kokkos::abs(h));
        }
        if (Kokkos::abs(x) < 3) {
          const complex_type via_erf = Kokkos::exp(x * x) * (1.0 - erf(x));
          e = Kokkos::max(e, Kokkos::abs(erfcx(x) - via_erf) / Kokkos::abs(via_erf));
        }
        err = Kokkos::max(err, e);
      },
      Kokkos::Max<double>(worst), Kokkos::Sum<int>(outside));

  std::printf("worst relative identity error %.3e, draws outside the box %d\n", worst, outside);
  return (worst < 1e-11 && outside == 0) ? 0 : 1;
}

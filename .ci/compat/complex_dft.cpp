// A discrete Fourier transform with Kokkos::complex: one team per frequency, a complex Sum
// reduction over the samples with Kokkos::exp for the twiddle factors, checked against a direct
// host computation with std::complex, and Parseval's identity with a plain complex reduction.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <complex>
#include <cstdio>

using complex_type = Kokkos::complex<double>;

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 256;
  const double pi = 3.14159265358979323846;

  Kokkos::View<complex_type*> signal("signal", n);
  Kokkos::View<complex_type*> spectrum("spectrum", n);

  // Two tones and a complex offset.
  Kokkos::parallel_for(
      "make_signal", n, KOKKOS_LAMBDA(const int t) {
        const double x = 2.0 * pi * t / n;
        signal(t) = complex_type(1.5, -0.5) + 2.0 * Kokkos::cos(complex_type(5.0 * x)) +
                    Kokkos::exp(complex_type(0.0, 17.0 * x)) * complex_type(0.0, 0.75);
      });

  using team_policy = Kokkos::TeamPolicy<>;
  Kokkos::parallel_for(
      "dft", team_policy(n, Kokkos::AUTO), KOKKOS_LAMBDA(const team_policy::member_type& team) {
        const int k = team.league_rank();
        complex_type sum;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, n),
            [&](const int t, complex_type& partial) {
              const complex_type twiddle = Kokkos::exp(complex_type(0.0, -2.0 * pi * k * t / n));
              partial += signal(t) * twiddle;
            },
            Kokkos::Sum<complex_type>(sum));
        Kokkos::single(Kokkos::PerTeam(team), [&]() { spectrum(k) = sum; });
      });
  Kokkos::fence();

  auto h_signal = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), signal);
  auto h_spectrum = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), spectrum);
  double max_error = 0.0;
  for (int k = 0; k < n; ++k) {
    std::complex<double> direct = 0.0;
    for (int t = 0; t < n; ++t)
      direct += std::complex<double>(h_signal(t)) * std::polar(1.0, -2.0 * pi * k * t / n);
    max_error = std::fmax(max_error, std::abs(direct - std::complex<double>(h_spectrum(k))));
  }

  // Expected peaks: n * offset at k = 0, n at k = 5 and n - 5, 0.75 i n at k = 17.
  const bool peaks = Kokkos::abs(h_spectrum(0) - n * complex_type(1.5, -0.5)) < 1e-9 &&
                     Kokkos::abs(h_spectrum(5) - complex_type(n)) < 1e-9 &&
                     Kokkos::abs(h_spectrum(n - 5) - complex_type(n)) < 1e-9 &&
                     Kokkos::abs(h_spectrum(17) - complex_type(0.0, 0.75 * n)) < 1e-9;

  // Parseval: sum |x|^2 = sum |X|^2 / n, with a plain complex reduction of |x|^2 + i |X|^2.
  complex_type energies;
  Kokkos::parallel_reduce(
      "parseval", n,
      KOKKOS_LAMBDA(const int i, complex_type& e) {
        e += complex_type(Kokkos::norm(signal(i)), Kokkos::norm(spectrum(i)) / n);
      },
      energies);
  const bool parseval = std::fabs(energies.real() - energies.imag()) < 1e-9 * energies.real();

  std::printf("complex_dft: max |X - direct| = %.3g, peaks %s, Parseval %s (%.6f vs %.6f)\n", max_error,
              peaks ? "ok" : "WRONG", parseval ? "ok" : "WRONG", energies.real(), energies.imag());
  return (max_error < 1e-9 && peaks && parseval) ? 0 : 1;
}

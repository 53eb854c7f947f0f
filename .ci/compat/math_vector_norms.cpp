// Kokkos 4 tutorial style: vector norms, a dot product and a range check with Kokkos' math
// functions, constants, numeric traits and min/max in kernels.  Checks its results.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>

struct MinMaxAbs {
  double lo;
  double hi;
};

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  int failures = 0;
  auto check = [&](const char* what, double got, double expected, double tolerance) {
    const bool ok = std::fabs(got - expected) <= tolerance * std::fabs(expected) + 1e-300;
    std::printf("%-22s %.15g (expected %.15g) %s\n", what, got, expected, ok ? "ok" : "WRONG");
    if (!ok) ++failures;
  };

  const int n = 100000;
  Kokkos::View<double*> x("x", n), y("y", n);
  // x_i = sin(2 pi i / n), y_i = cos(2 pi i / n): orthogonal, each with squared norm n/2.
  Kokkos::parallel_for(
      "init", n, KOKKOS_LAMBDA(const int i) {
        const double t = 2 * Kokkos::numbers::pi * i / n;
        x(i) = Kokkos::sin(t);
        y(i) = Kokkos::cos(t);
      });

  double dot = 0;
  Kokkos::parallel_reduce(
      "dot", n, KOKKOS_LAMBDA(const int i, double& sum) { sum += x(i) * y(i); }, dot);
  double sum_squares = 0;
  Kokkos::parallel_reduce(
      "norm2", n, KOKKOS_LAMBDA(const int i, double& sum) { sum += x(i) * x(i); }, sum_squares);
  const double norm2 = Kokkos::sqrt(sum_squares);
  double norm1 = 0;
  Kokkos::parallel_reduce(
      "norm1", n, KOKKOS_LAMBDA(const int i, double& sum) { sum += Kokkos::fabs(x(i)); }, norm1);
  double norm_inf = 0;
  Kokkos::parallel_reduce(
      "norm_inf", n,
      KOKKOS_LAMBDA(const int i, double& m) { m = Kokkos::max(m, Kokkos::fabs(y(i))); },
      Kokkos::Max<double>(norm_inf));

  // Smallest and largest |x_i| with a MinMax reducer; the identity values come from the
  // numeric traits, as a hand-written reducer would use them.
  Kokkos::MinMaxScalar<double> range;
  Kokkos::parallel_reduce(
      "range", n,
      KOKKOS_LAMBDA(const int i, Kokkos::MinMaxScalar<double>& r) {
        const double a = Kokkos::fabs(x(i));
        r.min_val = Kokkos::min(r.min_val, a);
        r.max_val = Kokkos::max(r.max_val, a);
      },
      Kokkos::MinMax<double>(range));

  // The same with a user-defined value type and the trait-based identities.
  MinMaxAbs custom{Kokkos::Experimental::finite_max_v<double>, Kokkos::Experimental::finite_min_v<double>};
  double clamped = 0;
  Kokkos::parallel_reduce(
      "clamped", n,
      KOKKOS_LAMBDA(const int i, double& s) { s += Kokkos::clamp(4 * x(i), -1.0, 1.0); }, clamped);
  auto h_x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  for (int i = 0; i < n; ++i) {
    custom.lo = Kokkos::min(custom.lo, Kokkos::fabs(h_x(i)));
    custom.hi = Kokkos::max(custom.hi, Kokkos::fabs(h_x(i)));
  }

  const double pi = Kokkos::numbers::pi;
  check("dot(x, y)", dot + 1, 1.0, 1e-9);
  check("||x||_2", norm2, Kokkos::sqrt(n / 2.0), 1e-12);
  check("||x||_1", norm1, 2 * n / pi, 1e-6);
  check("||y||_inf", norm_inf, 1.0, 0);
  check("min |x_i|", range.min_val, 0.0, 0);
  check("max |x_i|", range.max_val, 1.0, 1e-12);
  check("host min |x_i|", custom.lo, range.min_val, 0);
  check("host max |x_i|", custom.hi, range.max_val, 0);
  check("sum clamp(4 x_i)", clamped + 1, 1.0, 1e-9);
  check("hypot(3, 4, 12)", Kokkos::hypot(3.0, 4.0, 12.0), 13.0, 1e-15);
  check("erfcx(10)", Kokkos::Experimental::erfcx(10.0), 0.0561409927438226, 1e-13);
  check("expint1(1)", Kokkos::Experimental::expint1(1.0), 0.219383934395520, 1e-13);
  if (!Kokkos::isinf(Kokkos::Experimental::infinity_v<double>) || !Kokkos::isnan(Kokkos::nan(""))) ++failures;
  if (Kokkos::reduction_identity<double>::min() != Kokkos::Experimental::finite_max_v<double>) ++failures;
  std::printf("%s\n", failures == 0 ? "all correct" : "FAILED");
  return failures == 0 ? 0 : 1;
}

#pragma once
// Black-Scholes (seed 000 Listing 1) written as a NumPy/cuPyNumeric program would be: one
// array algorithm per operation, each writing a temporary.  Inside a FusionScope the whole
// program becomes one launch; black_scholes_single_loop is the hand-written limit.
// Shared by example/black_scholes.cpp, the fusion unit tests and perf_tests/PerfFusion.cpp.
#include <Kokkos_Core.hpp>
#include <Kokkos_StdAlgorithms_Fused.hpp>

#include <cmath>
#include <cstdint>

namespace black_scholes {

using Array = Kokkos::View<double*, Kokkos::HostSpace>;
using Flags = Kokkos::View<unsigned char*, Kokkos::HostSpace>;

struct Data {
  Array S, X, T, call, put;
  Array sqrt_t, t1, t2, t3, d1, d2, cnd_d1, cnd_d2, e, k, c, exp_rt;
  Flags positive;
  double R = 0.02, V = 0.3;

  explicit Data(std::int64_t n)
      : S("S", n), X("X", n), T("T", n), call("call", n), put("put", n), sqrt_t("sqrt_t", n), t1("t1", n),
        t2("t2", n), t3("t3", n), d1("d1", n), d2("d2", n), cnd_d1("cnd_d1", n), cnd_d2("cnd_d2", n), e("e", n),
        k("k", n), c("c", n), exp_rt("exp_rt", n), positive("positive", n) {
    for (std::int64_t i = 0; i < n; ++i) {
      S(i) = 10.0 + double((i * 7919) % 900) / 10.0;
      X(i) = 10.0 + double((i * 104729) % 900) / 10.0;
      T(i) = 0.25 + double((i * 31) % 40) / 8.0;
    }
  }
};

namespace KE = Kokkos::Experimental;

// cnd(d) of Listing 1, lines 3-16: writes the cumulative normal of d into out.
template <class Space>
void cnd(const Space& space, Data& b, const Array& d, const Array& out) {
  constexpr double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978, A5 = 1.330274429;
  constexpr double RSQRT2PI = 0.39894228040143267793994605993438;
  KE::transform(space, d, b.k, KOKKOS_LAMBDA(double x) { return 1.0 / (1.0 + 0.2316419 * std::fabs(x)); });
  KE::transform(space, d, b.e, KOKKOS_LAMBDA(double x) { return std::exp(-0.5 * x * x); });
  KE::transform(space, b.k, b.c,
                KOKKOS_LAMBDA(double K) { return K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))); });
  KE::transform(space, b.e, b.c, b.c, KOKKOS_LAMBDA(double x, double p) { return RSQRT2PI * x * p; });
  KE::transform(space, d, b.positive, KOKKOS_LAMBDA(double x) { return static_cast<unsigned char>(x > 0); });
  KE::transform(space, b.c, b.t3, KOKKOS_LAMBDA(double x) { return 1.0 - x; });
  KE::where(space, b.positive, b.t3, b.c, out);
}

// Listing 1, lines 18-27.
template <class Space>
void black_scholes_algorithms(const Space& space, Data& b) {
  const double R = b.R, V = b.V;
  KE::transform(space, b.T, b.sqrt_t, KOKKOS_LAMBDA(double t) { return std::sqrt(t); });
  KE::transform(space, b.S, b.X, b.t1, KOKKOS_LAMBDA(double s, double x) { return s / x; });
  KE::transform(space, b.t1, b.t1, KOKKOS_LAMBDA(double x) { return std::log(x); });
  KE::transform(space, b.T, b.t2, KOKKOS_LAMBDA(double t) { return (R + 0.5 * V * V) * t; });
  KE::transform(space, b.sqrt_t, b.t3, KOKKOS_LAMBDA(double s) { return V * s; });
  KE::transform(space, b.t2, b.t3, b.t2, KOKKOS_LAMBDA(double x, double y) { return x / y; });
  KE::transform(space, b.t1, b.t2, b.d1, KOKKOS_LAMBDA(double x, double y) { return x + y; });
  KE::transform(space, b.d1, b.t3, b.d2, KOKKOS_LAMBDA(double x, double y) { return x - y; });
  cnd(space, b, b.d1, b.cnd_d1);
  cnd(space, b, b.d2, b.cnd_d2);
  KE::transform(space, b.T, b.exp_rt, KOKKOS_LAMBDA(double t) { return std::exp(-R * t); });
  // call = S * cnd_d1 - X * T3 * cnd_d2
  KE::transform(space, b.X, b.exp_rt, b.cnd_d2, b.t1,
                KOKKOS_LAMBDA(double x, double t3, double c2) { return x * t3 * c2; });
  KE::transform(space, b.S, b.cnd_d1, b.t1, b.call,
                KOKKOS_LAMBDA(double s, double c1, double rhs) { return s * c1 - rhs; });
  // put = X * T3 * (1 - cnd_d2) - S * (1 - cnd_d1)
  KE::transform(space, b.X, b.exp_rt, b.cnd_d2, b.t1,
                KOKKOS_LAMBDA(double x, double t3, double c2) { return x * t3 * (1.0 - c2); });
  KE::transform(space, b.S, b.cnd_d1, b.t2, KOKKOS_LAMBDA(double s, double c1) { return s * (1.0 - c1); });
  KE::transform(space, b.t1, b.t2, b.put, KOKKOS_LAMBDA(double x, double y) { return x - y; });
}

// The same arithmetic as one hand-written loop: the limit fusion aims for.
KOKKOS_INLINE_FUNCTION double cnd_scalar(double d) {
  constexpr double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978, A5 = 1.330274429;
  constexpr double RSQRT2PI = 0.39894228040143267793994605993438;
  const double K = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  const double e = std::exp(-0.5 * d * d);
  const double c = RSQRT2PI * e * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0 - c : c;
}

template <class Space>
void black_scholes_single_loop(const Space& space, Data& b) {
  const double R = b.R, V = b.V;
  const Array S = b.S, X = b.X, T = b.T, call = b.call, put = b.put;
  Kokkos::parallel_for(
      "black_scholes_loop", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, S.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) {
        const double sqrt_t = std::sqrt(T(i));
        const double vs = V * sqrt_t;
        const double d1 = std::log(S(i) / X(i)) + ((R + 0.5 * V * V) * T(i)) / vs;
        const double d2 = d1 - vs;
        const double c1 = cnd_scalar(d1), c2 = cnd_scalar(d2);
        const double t3 = std::exp(-R * T(i));
        call(i) = S(i) * c1 - X(i) * t3 * c2;
        put(i) = X(i) * t3 * (1.0 - c2) - S(i) * (1.0 - c1);
      });
}

}  // namespace black_scholes

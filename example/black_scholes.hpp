#pragma once
// Black-Scholes (seed 000 Listing 1) written as a NumPy/cuPyNumeric program would be: one
// array algorithm per operation, each writing an intermediate array.  Inside a FusionScope the
// whole program becomes one launch; black_scholes_single_loop is the hand-written limit.
//   black_scholes_algorithms         the intermediates are arrays the caller keeps (Data).
//   black_scholes_with_temporaries   the intermediates are created by the program and die in it,
//                                    as NumPy's do: a fused run eliminates them (seed 003,
//                                    Definition 4) and never touches their memory.
// Any memory space: BasicData<Kokkos::CudaSpace> runs the same program on the GPU.
// Shared by example/black_scholes.cpp, the fusion unit tests, perf_tests/PerfFusion.cpp and
// perf_tests/PerfCudaFusion.cpp.
#include <Kokkos_Core.hpp>
#include <Kokkos_StdAlgorithms_Fused.hpp>

#include <cmath>
#include <cstdint>
#include <string>

namespace black_scholes {

// The options priced and the prices.
template <class MemorySpace>
struct Problem {
  using Array = Kokkos::View<double*, MemorySpace>;
  Array S, X, T, call, put;
  double R = 0.02, V = 0.3;

  explicit Problem(std::int64_t n) : S("S", n), X("X", n), T("T", n), call("call", n), put("put", n) {
    const auto s = Kokkos::create_mirror_view(S), x = Kokkos::create_mirror_view(X), t = Kokkos::create_mirror_view(T);
    for (std::int64_t i = 0; i < n; ++i) {
      s(i) = 10.0 + double((i * 7919) % 900) / 10.0;
      x(i) = 10.0 + double((i * 104729) % 900) / 10.0;
      t(i) = 0.25 + double((i * 31) % 40) / 8.0;
    }
    Kokkos::deep_copy(S, s);
    Kokkos::deep_copy(X, x);
    Kokkos::deep_copy(T, t);
  }
};

// The program's intermediate arrays.  `initialize` false: left uninitialised, as NumPy leaves
// the result arrays of its operations (np.empty); every element is written before it is read.
// Given an execution space instance, allocated (and initialised) in its order, as
// Kokkos::view_alloc(exec, ...) does: on the GPU without waiting for the device.
template <class MemorySpace>
struct Scratch {
  using Array = Kokkos::View<double*, MemorySpace>;
  using Flags = Kokkos::View<unsigned char*, MemorySpace>;
  Array sqrt_t, t1, t2, t3, d1, d2, cnd_d1, cnd_d2, e, k, c, exp_rt;
  Flags positive;

  template <class... Exec>
  Scratch(std::int64_t n, bool initialize, const Exec&... exec)
      : sqrt_t(make<Array>("sqrt_t", n, initialize, exec...)), t1(make<Array>("t1", n, initialize, exec...)),
        t2(make<Array>("t2", n, initialize, exec...)), t3(make<Array>("t3", n, initialize, exec...)),
        d1(make<Array>("d1", n, initialize, exec...)), d2(make<Array>("d2", n, initialize, exec...)),
        cnd_d1(make<Array>("cnd_d1", n, initialize, exec...)), cnd_d2(make<Array>("cnd_d2", n, initialize, exec...)),
        e(make<Array>("e", n, initialize, exec...)), k(make<Array>("k", n, initialize, exec...)),
        c(make<Array>("c", n, initialize, exec...)), exp_rt(make<Array>("exp_rt", n, initialize, exec...)),
        positive(make<Flags>("positive", n, initialize, exec...)) {}
  // How many arrays a Scratch holds.
  static constexpr int arrays = 13;

 private:
  template <class V, class... Exec>
  static V make(const char* label, std::int64_t n, bool initialize, const Exec&... exec) {
    return initialize ? V(Kokkos::view_alloc(exec..., std::string(label)), n)
                      : V(Kokkos::view_alloc(exec..., std::string(label), Kokkos::WithoutInitializing), n);
  }
};

// Inputs, prices and intermediates kept together (the intermediates value-initialised).
template <class MemorySpace = Kokkos::HostSpace>
struct BasicData : Problem<MemorySpace>, Scratch<MemorySpace> {
  explicit BasicData(std::int64_t n) : Problem<MemorySpace>(n), Scratch<MemorySpace>(n, true) {}
};
using Data = BasicData<>;

namespace KE = Kokkos::Experimental;

// cnd(d) of Listing 1, lines 3-16: writes the cumulative normal of d into out.
template <class Space, class MemorySpace>
void cnd(const Space& space, const Scratch<MemorySpace>& b, const Kokkos::View<double*, MemorySpace>& d,
         const Kokkos::View<double*, MemorySpace>& out) {
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

// Listing 1, lines 18-27, with `b`'s intermediates.
template <class Space, class MemorySpace>
void black_scholes_program(const Space& space, const Problem<MemorySpace>& p, const Scratch<MemorySpace>& b) {
  const double R = p.R, V = p.V;
  KE::transform(space, p.T, b.sqrt_t, KOKKOS_LAMBDA(double t) { return std::sqrt(t); });
  KE::transform(space, p.S, p.X, b.t1, KOKKOS_LAMBDA(double s, double x) { return s / x; });
  KE::transform(space, b.t1, b.t1, KOKKOS_LAMBDA(double x) { return std::log(x); });
  KE::transform(space, p.T, b.t2, KOKKOS_LAMBDA(double t) { return (R + 0.5 * V * V) * t; });
  KE::transform(space, b.sqrt_t, b.t3, KOKKOS_LAMBDA(double s) { return V * s; });
  KE::transform(space, b.t2, b.t3, b.t2, KOKKOS_LAMBDA(double x, double y) { return x / y; });
  KE::transform(space, b.t1, b.t2, b.d1, KOKKOS_LAMBDA(double x, double y) { return x + y; });
  KE::transform(space, b.d1, b.t3, b.d2, KOKKOS_LAMBDA(double x, double y) { return x - y; });
  cnd(space, b, b.d1, b.cnd_d1);
  cnd(space, b, b.d2, b.cnd_d2);
  KE::transform(space, p.T, b.exp_rt, KOKKOS_LAMBDA(double t) { return std::exp(-R * t); });
  // call = S * cnd_d1 - X * T3 * cnd_d2
  KE::transform(space, p.X, b.exp_rt, b.cnd_d2, b.t1,
                KOKKOS_LAMBDA(double x, double t3, double c2) { return x * t3 * c2; });
  KE::transform(space, p.S, b.cnd_d1, b.t1, p.call,
                KOKKOS_LAMBDA(double s, double c1, double rhs) { return s * c1 - rhs; });
  // put = X * T3 * (1 - cnd_d2) - S * (1 - cnd_d1)
  KE::transform(space, p.X, b.exp_rt, b.cnd_d2, b.t1,
                KOKKOS_LAMBDA(double x, double t3, double c2) { return x * t3 * (1.0 - c2); });
  KE::transform(space, p.S, b.cnd_d1, b.t2, KOKKOS_LAMBDA(double s, double c1) { return s * (1.0 - c1); });
  KE::transform(space, b.t1, b.t2, p.put, KOKKOS_LAMBDA(double x, double y) { return x - y; });
}

// With the caller's intermediates (kept, so a fused run writes them as the unfused one does).
template <class Space, class MemorySpace>
void black_scholes_algorithms(const Space& space, BasicData<MemorySpace>& b) {
  black_scholes_program(space, b, b);
}

// NumPy's way: the intermediates are created here and die on return.  Called inside a
// FusionScope, the fused launch keeps them chunk-sized (on the GPU in shared memory) instead.
template <class Space, class MemorySpace>
void black_scholes_with_temporaries(const Space& space, const Problem<MemorySpace>& p) {
  const Scratch<MemorySpace> temporaries(static_cast<std::int64_t>(p.S.extent(0)), false, space);
  black_scholes_program(space, p, temporaries);
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

template <class Space, class MemorySpace>
void black_scholes_single_loop(const Space& space, const Problem<MemorySpace>& b) {
  const double R = b.R, V = b.V;
  using Array = typename Problem<MemorySpace>::Array;
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

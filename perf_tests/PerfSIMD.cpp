// Kokkos SIMD against the plain scalar loop, in the same run, on one thread (Serial), so the
// ratio measures vectorisation and nothing else.  The kernel is a degree-8 polynomial (Horner,
// fused multiply-adds) over n doubles, in a parallel_for:
//
//   simd        one index per simd<double> vector, copy_from / fma / copy_to, masked tail
//   scalar      one index per element, the same Horner loop on double (the compiler may
//               auto-vectorise it: this is what a user gets without SIMD types)
//   scalar_nv   the scalar loop with auto-vectorisation disabled: one lane per instruction
//
// Counters: simd_us, scalar_us, scalar_nv_us (best of interleaved rounds), lanes (simd width),
// scalar_over_simd, scalar_nv_over_simd.  perf_tests/CMakeLists.txt builds this file with
// -mavx2 -mfma when the compiler accepts them, so the host's simd<double> is
// avx2_fixed_size<4> there (check `lanes`), in a CUDA build too; the rest of the build stays
// portable.
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_SIMD.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace {

namespace KE = Kokkos::Experimental;
using Space = Kokkos::Serial;
using Array = Kokkos::View<double*, Kokkos::HostSpace>;
// The host space's ABI: simd<double> follows the default execution space, which is scalar Cuda
// in a CUDA build.
using simd_t = KE::basic_simd<double, KE::simd_abi::ForSpace<double, Space>>;
using mask_t = simd_t::mask_type;

// A function rather than a namespace-scope array, which nvcc would not let the kernels (host and
// device functions) read; each call folds to a constant.
KOKKOS_INLINE_FUNCTION constexpr double coefficient(std::size_t k) {
  constexpr double values[9] = {0.5, -1.25, 0.75, 0.125, -0.375, 0.0625, 0.25, -0.03125, 0.015625};
  return values[k];
}

KOKKOS_INLINE_FUNCTION double fused(double a, double b, double c) { return std::fma(a, b, c); }
KOKKOS_INLINE_FUNCTION simd_t fused(simd_t const& a, simd_t const& b, simd_t const& c) { return Kokkos::fma(a, b, c); }

// Spelled out as eight fused multiply-adds in every variant, so that no variant depends on the
// compiler choosing to unroll the coefficient loop.
template <class V, std::size_t... K>
KOKKOS_INLINE_FUNCTION V horner(V const& x, std::index_sequence<K...>) {
  V result(coefficient(8));
  ((result = fused(result, x, V(coefficient(7 - K)))), ...);
  return result;
}
template <class V>
KOKKOS_INLINE_FUNCTION V horner(V const& x) {
  return horner(x, std::make_index_sequence<8>{});
}

void run_simd(Array x, Array y) {
  const std::size_t n = x.extent(0);
  const std::size_t width = simd_t::size();
  Kokkos::parallel_for(
      "poly_simd", Kokkos::RangePolicy<Space>(0, (n + width - 1) / width), KOKKOS_LAMBDA(std::size_t v) {
        const std::size_t first = v * width;
        if (first + width <= n) {
          horner(simd_t(x.data() + first, KE::simd_flag_default)).copy_to(y.data() + first, KE::simd_flag_default);
        } else {
          const std::size_t rest = n - first;
          const mask_t tail([=](std::size_t lane) { return lane < rest; });
          simd_t xv(0.0);
          KE::where(tail, xv).copy_from(x.data() + first, KE::simd_flag_default);
          KE::where(tail, horner(xv)).copy_to(y.data() + first, KE::simd_flag_default);
        }
      });
}

void run_scalar(Array x, Array y) {
  Kokkos::parallel_for(
      "poly_scalar", Kokkos::RangePolicy<Space>(0, x.extent(0)), KOKKOS_LAMBDA(std::size_t i) { y(i) = horner(x(i)); });
}

#if defined(__clang__)
#define KDAG_NO_AUTO_VECTORIZE
#define KDAG_NO_AUTO_VECTORIZE_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#elif defined(__GNUC__)
#define KDAG_NO_AUTO_VECTORIZE __attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize")))
#define KDAG_NO_AUTO_VECTORIZE_LOOP
#else
#define KDAG_NO_AUTO_VECTORIZE
#define KDAG_NO_AUTO_VECTORIZE_LOOP
#endif

KDAG_NO_AUTO_VECTORIZE void run_scalar_no_vectorize(Array x, Array y) {
  const std::size_t n = x.extent(0);
  double const* px = x.data();
  double* py = y.data();
  KDAG_NO_AUTO_VECTORIZE_LOOP
  for (std::size_t i = 0; i < n; ++i) py[i] = horner(px[i]);
}

void BM_Polynomial(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  Array x("x", n), y_simd("y_simd", n), y_scalar("y_scalar", n), y_nv("y_nv", n);
  for (std::size_t i = 0; i < n; ++i) x(i) = -1.0 + 2.0 * double(i % 1000) / 999.0;
  run_simd(x, y_simd);
  run_scalar(x, y_scalar);
  run_scalar_no_vectorize(x, y_nv);
  for (std::size_t i = 0; i < n; ++i) {
    if (y_simd(i) != y_scalar(i) || y_nv(i) != y_scalar(i)) return perf::fail_result_check(state, "simd and scalar results differ");
  }
  // Interleaved rounds, best time of each: a neighbour's load slows some rounds, never speeds one.
  const int rounds = static_cast<int>(std::clamp<std::size_t>(200000000 / std::max<std::size_t>(n, 1) / 8, 5, 2000));
  double best[3] = {std::numeric_limits<double>::max(), std::numeric_limits<double>::max(),
                    std::numeric_limits<double>::max()};
  for (auto _ : state) {
    for (int r = 0; r < rounds; ++r) {
      Kokkos::Timer timer;
      run_simd(x, y_simd);
      best[0] = std::min(best[0], timer.seconds());
      timer.reset();
      run_scalar(x, y_scalar);
      best[1] = std::min(best[1], timer.seconds());
      timer.reset();
      run_scalar_no_vectorize(x, y_nv);
      best[2] = std::min(best[2], timer.seconds());
    }
    benchmark::DoNotOptimize(y_simd.data());
    benchmark::DoNotOptimize(y_scalar.data());
    benchmark::DoNotOptimize(y_nv.data());
  }
  state.counters["lanes"] = double(simd_t::size());
  state.counters["simd_us"] = 1e6 * best[0];
  state.counters["scalar_us"] = 1e6 * best[1];
  state.counters["scalar_nv_us"] = 1e6 * best[2];
  state.counters["scalar_over_simd"] = best[1] / best[0];
  state.counters["scalar_nv_over_simd"] = best[2] / best[0];
}

BENCHMARK(BM_Polynomial)->Arg(1001)->Arg(100003)->Arg(4000037)->Iterations(1)->UseRealTime();

}  // namespace

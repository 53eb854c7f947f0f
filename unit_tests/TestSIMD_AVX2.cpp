// Kokkos SIMD on the AVX2 ABI.  unit_tests/CMakeLists.txt compiles this file alone with
// -mavx2 -mfma when the compiler accepts them; each test skips itself when the compiler could
// not target AVX2 or the CPU running it lacks AVX2/FMA.
#include "SIMDTestBody.hpp"

#include <limits>

namespace {

namespace KE = Kokkos::Experimental;
using namespace Kokkos::Test::SIMD;

#if defined(__AVX2__)

#define KDAG_SKIP_WITHOUT_AVX2_CPU()                                                   \
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {             \
    GTEST_SKIP() << "this CPU has no AVX2/FMA, so AVX2 code cannot run here";          \
  }

template <int N>
using avx2 = KE::simd_abi::avx2_fixed_size<N>;

TEST(SIMD_AVX2, HostNativeAbiAndDeviceScalarAbi) {
  static_assert(sizeof(KE::basic_simd<double, avx2<4>>) == 32);
#if !defined(__AVX512F__)
  static_assert(std::is_same_v<KE::simd_abi::host_native, avx2<4>>);
#if defined(KOKKOS_ENABLE_CUDA)
  // simd<T> follows the default execution space: Cuda's code is one lane per thread.
  static_assert(std::is_same_v<KE::simd<double>, KE::basic_simd<double, KE::simd_abi::scalar>>);
  static_assert(std::is_same_v<KE::simd_abi::ForSpace<double, Kokkos::DefaultHostExecutionSpace>, avx2<4>>);
#else
  static_assert(std::is_same_v<KE::simd<double>, KE::basic_simd<double, avx2<4>>>);
#endif
#endif
}

// The raw registers are host code: a CUDA translation unit's device pass sees these ABIs as lane
// arrays (vector types are not allowed in device code), see Kokkos_SIMD_AVX2.hpp.
#if !defined(__CUDA_ARCH__)
// Overloads rather than std::is_same: a vector type as a template argument loses its attributes.
constexpr bool is_register(__m256d const*) { return true; }
constexpr bool is_register(__m256 const*) { return true; }
constexpr bool is_register(__m128 const*) { return true; }
constexpr bool is_register(void const*) { return false; }
template <class T, int N>
constexpr bool backed_by_register = is_register(static_cast<typename KE::Impl::simd_impl<T, avx2<N>>::storage const*>(nullptr));

TEST(SIMD_AVX2, IntrinsicRegistersBackDoubleAndFloat) {
  // The double and float ABIs are the registers themselves, not arrays; integers are arrays.
  static_assert(backed_by_register<double, 4>);
  static_assert(backed_by_register<float, 8>);
  static_assert(backed_by_register<float, 4>);
  static_assert(!backed_by_register<std::int64_t, 4>);
  KDAG_SKIP_WITHOUT_AVX2_CPU();
  KE::basic_simd<double, avx2<4>> v([](std::size_t i) { return double(i) + 0.5; });
  const __m256d raw = static_cast<__m256d>(v);
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, raw);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(lanes[i], i + 0.5);
  EXPECT_EQ((KE::basic_simd<double, avx2<4>>(raw)[3]), 3.5);
}
#endif

TEST(SIMD_AVX2, FourLanesEveryElementType) {
  KDAG_SKIP_WITHOUT_AVX2_CPU();
  check_every_element_type<avx2<4>>();
}

TEST(SIMD_AVX2, EightLanesFloatAndInt32) {
  KDAG_SKIP_WITHOUT_AVX2_CPU();
  {
    SCOPED_TRACE("float");
    check_all<float, avx2<8>>();
  }
  {
    SCOPED_TRACE("std::int32_t");
    check_all<std::int32_t, avx2<8>>();
  }
  {
    SCOPED_TRACE("std::uint32_t");
    check_all<std::uint32_t, avx2<8>>();
  }
}

// IEEE corner cases where an intrinsic could differ from the scalar expression.
TEST(SIMD_AVX2, NaNSignedZeroAndInfinity) {
  KDAG_SKIP_WITHOUT_AVX2_CPU();
  using simd_type = KE::basic_simd<double, avx2<4>>;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double values[4] = {nan, -0.0, inf, -inf};
  simd_type v(values, KE::simd_flag_default);
  const simd_type one(1.0);
  expect_lanes(v == v, [&](std::size_t i) { return values[i] == values[i]; }, "== with NaN");
  expect_lanes(v != v, [&](std::size_t i) { return values[i] != values[i]; }, "!= with NaN");
  expect_lanes(v < one, [&](std::size_t i) { return values[i] < 1.0; }, "< with NaN");
  expect_lanes(v >= one, [&](std::size_t i) { return values[i] >= 1.0; }, ">= with NaN");
  const simd_type magnitude = Kokkos::abs(v);
  for (std::size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(magnitude[i], std::abs(values[i]));
    EXPECT_FALSE(std::signbit(magnitude[i])) << "abs clears the sign, lane " << i;
  }
  EXPECT_TRUE(std::isnan(magnitude[0]));
  const simd_type negated = -simd_type(0.0);
  EXPECT_TRUE(std::signbit(negated[0])) << "-0.0 keeps its sign";
  const simd_type signs = Kokkos::copysign(one, v);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(signs[i], std::copysign(1.0, values[i]));
  EXPECT_TRUE(std::isnan(Kokkos::sqrt(simd_type(-1.0))[0]));
}

TEST(SIMD_AVX2, KernelInsideParallelFor) {
  KDAG_SKIP_WITHOUT_AVX2_CPU();
  check_parallel_for_kernel<Kokkos::DefaultHostExecutionSpace, double, avx2<4>>(1001);
  check_parallel_for_kernel<Kokkos::DefaultHostExecutionSpace, float, avx2<8>>(77);
}

#else

TEST(SIMD_AVX2, FourLanesEveryElementType) {
  GTEST_SKIP() << "this file was compiled without AVX2: the compiler does not accept -mavx2 -mfma";
}

#endif

}  // namespace

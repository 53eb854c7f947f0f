// Kokkos SIMD on the ABIs every build has: the scalar ABI and the native one (scalar too unless
// the build targets a vector ISA, e.g. -march=native).  The AVX2 ABI: TestSIMD_AVX2.cpp.
#include "SIMDTestBody.hpp"

namespace {

namespace KE = Kokkos::Experimental;
using namespace Kokkos::Test::SIMD;

TEST(SIMD, ScalarAbiEveryElementType) { check_every_element_type<KE::simd_abi::scalar>(); }

TEST(SIMD, NativeAbiEveryElementType) {
  if constexpr (std::is_same_v<KE::simd_abi::native<double>, KE::simd_abi::scalar>) {
    GTEST_SKIP() << "the native ABI of this build is the scalar one, tested above";
  } else {
    check_every_element_type<KE::simd_abi::native<double>>();
  }
}

TEST(SIMD, AliasesNameTheNativeTypes) {
  static_assert(std::is_same_v<KE::simd<double>, KE::basic_simd<double, KE::simd_abi::native<double>>>);
  static_assert(std::is_same_v<KE::simd_mask<float>, KE::basic_simd_mask<float, KE::simd_abi::native<float>>>);
  static_assert(std::is_same_v<KE::native_simd<double>, KE::simd<double>>);
  static_assert(std::is_same_v<KE::native_simd_mask<double>, KE::simd_mask<double>>);
  static_assert(std::is_same_v<KE::simd_abi::ForSpace<double, Kokkos::DefaultHostExecutionSpace>,
                               KE::simd_abi::host_native>);
  static_assert(KE::basic_simd<double, KE::simd_abi::scalar>::size() == 1);
  static_assert(KE::basic_simd_mask<std::int64_t, KE::simd_abi::scalar>::size() == 1);
  EXPECT_GE(KE::simd<double>::size(), 1u);
  // The scalar ABI converts to and from its element explicitly.
  KE::basic_simd<double, KE::simd_abi::scalar> one(2.5);
  EXPECT_EQ(static_cast<double>(one), 2.5);
}

TEST(SIMD, KernelInsideParallelFor) {
  check_parallel_for_kernel<Kokkos::DefaultHostExecutionSpace, double, KE::simd_abi::native<double>>(1001);
  check_parallel_for_kernel<Kokkos::DefaultHostExecutionSpace, float, KE::simd_abi::scalar>(37);
}

}  // namespace

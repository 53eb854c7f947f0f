// Kokkos 4.6 configuration and utility macros: feature macros, version comparisons, compiler
// identification, contract checks, host/device selection.
#include "TestCommon.hpp"

#include <Kokkos_Assert.hpp>

#include <cstdint>
#include <string>

namespace {

// ---- feature macros: what kdag has is announced ---------------------------------------------

#if !defined(KOKKOS_ENABLE_TASKDAG)
#error "KOKKOS_ENABLE_TASKDAG must be defined: kdag always has the task DAG"
#endif
#if !defined(KOKKOS_ENABLE_SERIAL) && !defined(KOKKOS_ENABLE_OPENMP) && !defined(KOKKOS_ENABLE_THREADS)
#error "no host back end announced"
#endif
#if !defined(KOKKOS_ENABLE_CXX20) && !defined(KOKKOS_ENABLE_CXX23) && !defined(KOKKOS_ENABLE_CXX26)
#error "the configured C++ standard must be announced (KOKKOS_ENABLE_CXX20 ...)"
#endif
#if !defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_SERIAL) && !defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_OPENMP) && \
    !defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_THREADS) && !defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_CUDA)
#error "the default device type must be announced"
#endif

TEST(Macros, TaskDagIsUsableWhereAnnounced) {
#if defined(KOKKOS_ENABLE_TASKDAG)
  using Scheduler = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;
  static_assert(std::is_class_v<Scheduler>);
  static_assert(std::is_class_v<Kokkos::BasicFuture<int, Scheduler>>);
  SUCCEED();
#else
  FAIL() << "KOKKOS_ENABLE_TASKDAG missing";
#endif
}

TEST(Macros, EachEnabledBackEndHasItsSpace) {
  int spaces = 0;
#if defined(KOKKOS_ENABLE_SERIAL)
  EXPECT_STREQ(Kokkos::Serial::name(), "Serial");
  ++spaces;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  EXPECT_STREQ(Kokkos::OpenMP::name(), "OpenMP");
  ++spaces;
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  EXPECT_STREQ(Kokkos::Threads::name(), "Threads");
  ++spaces;
#endif
  EXPECT_GE(spaces, 1);
}

// ---- version ------------------------------------------------------------------------------

static_assert(KOKKOS_VERSION == KOKKOS_VERSION_MAJOR * 10000 + KOKKOS_VERSION_MINOR * 100 + KOKKOS_VERSION_PATCH);
static_assert(KOKKOS_VERSION_MAJOR == 4 && KOKKOS_VERSION_MINOR == 6);

TEST(Macros, VersionComparisons) {
  EXPECT_TRUE(KOKKOS_VERSION_EQUAL(4, 6, 0));
  EXPECT_FALSE(KOKKOS_VERSION_EQUAL(4, 6, 1));
  EXPECT_TRUE(KOKKOS_VERSION_GREATER_EQUAL(4, 0, 0));
  EXPECT_TRUE(KOKKOS_VERSION_GREATER_EQUAL(4, 6, 0));
  EXPECT_FALSE(KOKKOS_VERSION_GREATER_EQUAL(4, 6, 1));
  EXPECT_TRUE(KOKKOS_VERSION_GREATER(4, 5, 99));
  EXPECT_FALSE(KOKKOS_VERSION_GREATER(4, 6, 0));
  EXPECT_TRUE(KOKKOS_VERSION_LESS(5, 0, 0));
  EXPECT_TRUE(KOKKOS_VERSION_LESS(4, 6, 1));
  EXPECT_FALSE(KOKKOS_VERSION_LESS(4, 6, 0));
  EXPECT_TRUE(KOKKOS_VERSION_LESS_EQUAL(4, 6, 0));
  EXPECT_FALSE(KOKKOS_VERSION_LESS_EQUAL(4, 5, 0));
  // The arguments are expressions, parenthesised by the macro.
  EXPECT_TRUE(KOKKOS_VERSION_EQUAL(2 + 2, 3 * 2, 1 - 1));
}

// Usable in #if, as Kokkos code does.
#if KOKKOS_VERSION_GREATER_EQUAL(4, 0, 0) && KOKKOS_VERSION_LESS(5, 0, 0)
constexpr bool version_usable_in_preprocessor = true;
#else
constexpr bool version_usable_in_preprocessor = false;
#endif
static_assert(version_usable_in_preprocessor);

// ---- compiler ----------------------------------------------------------------------------

TEST(Macros, CompilerVersionEncoding) {
#if defined(__clang__)
#if !defined(KOKKOS_COMPILER_CLANG) || defined(KOKKOS_COMPILER_GNU)
  FAIL() << "clang must define KOKKOS_COMPILER_CLANG only";
#else
  EXPECT_EQ(KOKKOS_COMPILER_CLANG, __clang_major__ * 100 + __clang_minor__ * 10 + __clang_patchlevel__);
  EXPECT_GE(KOKKOS_COMPILER_CLANG, 1400);
#endif
#elif defined(__GNUC__)
#if !defined(KOKKOS_COMPILER_GNU) || defined(KOKKOS_COMPILER_CLANG)
  FAIL() << "g++ must define KOKKOS_COMPILER_GNU only";
#else
  EXPECT_EQ(KOKKOS_COMPILER_GNU, __GNUC__ * 100 + __GNUC_MINOR__ * 10 + __GNUC_PATCHLEVEL__);
  EXPECT_GE(KOKKOS_COMPILER_GNU, 1200);
#endif
#endif
#if defined(KOKKOS_COMPILER_NVCC) && !defined(__NVCC__)
  FAIL() << "KOKKOS_COMPILER_NVCC without nvcc";
#endif
}

// Only what the compiler really targets is announced.
TEST(Macros, ArchitectureMacrosMatchTheTarget) {
#if defined(KOKKOS_ARCH_AVX2) != defined(__AVX2__)
  FAIL() << "KOKKOS_ARCH_AVX2 disagrees with __AVX2__";
#endif
#if defined(KOKKOS_ARCH_AVX) != defined(__AVX__)
  FAIL() << "KOKKOS_ARCH_AVX disagrees with __AVX__";
#endif
#if defined(KOKKOS_ARCH_AVX512XEON) && !defined(__AVX512F__)
  FAIL() << "KOKKOS_ARCH_AVX512XEON without AVX-512";
#endif
#if defined(KOKKOS_ARCH_AVX2)
  // A function using AVX2 through the compiler's own vectoriser must run on this machine.
  __builtin_cpu_init();
  EXPECT_TRUE(__builtin_cpu_supports("avx2"));
#endif
  SUCCEED();
}

// ---- deprecation --------------------------------------------------------------------------

KOKKOS_DEPRECATED int old_api() { return 7; }
KOKKOS_DEPRECATED_WITH_COMMENT("use new_api") int old_api_with_comment() { return 8; }

TEST(Macros, DeprecatedApiStillCompilesAndRuns) {
#if !defined(KOKKOS_ENABLE_DEPRECATED_CODE_4)
  GTEST_SKIP() << "built with Kokkos_ENABLE_DEPRECATED_CODE_4=OFF";
#endif
  KOKKOS_IMPL_DISABLE_DEPRECATED_WARNINGS_PUSH()
  EXPECT_EQ(old_api() + old_api_with_comment(), 15);
  KOKKOS_IMPL_DISABLE_DEPRECATED_WARNINGS_POP()
}

// ---- function annotations -----------------------------------------------------------------

// Declared first and defined later, as a function from another translation unit would be.  (With
// CUDA on the macro is a compile error: it needs relocatable device code, which kdag does not use.)
#if !defined(KOKKOS_ENABLE_CUDA)
KOKKOS_RELOCATABLE_FUNCTION int relocatable_twice(int x);
#endif

template <class T>
struct Wrapper {
  T value;
  KOKKOS_FUNCTION explicit Wrapper(T v) : value(v) {}
};
template <class T>
KOKKOS_DEDUCTION_GUIDE Wrapper(T) -> Wrapper<T>;

TEST(Macros, FunctionAnnotations) {
#if !defined(KOKKOS_ENABLE_CUDA)
  EXPECT_EQ(relocatable_twice(21), 42);
  int from_kernel = 0;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 4),
      KOKKOS_LAMBDA(int i, int& sum) { sum += relocatable_twice(i); }, from_kernel);
  EXPECT_EQ(from_kernel, 12);
#endif
  Wrapper w(3.5);
  static_assert(std::is_same_v<decltype(w), Wrapper<double>>);
  EXPECT_EQ(w.value, 3.5);
}

#if !defined(KOKKOS_ENABLE_CUDA)
KOKKOS_RELOCATABLE_FUNCTION int relocatable_twice(int x) { return 2 * x; }
#endif

// ---- KOKKOS_IF_ON_HOST / KOKKOS_IF_ON_DEVICE -----------------------------------------------

KOKKOS_INLINE_FUNCTION int where_am_i() {
  KOKKOS_IF_ON_HOST((return 1;))
  KOKKOS_IF_ON_DEVICE((return 2;))
}
KOKKOS_INLINE_FUNCTION int where_am_i_no_parens() {
  int r = 0;
  KOKKOS_IF_ON_HOST(r = 10;)
  KOKKOS_IF_ON_DEVICE(r = 20;)
  return r;
}

TEST(Macros, IfOnHostSelectsTheHostPath) {
  EXPECT_EQ(where_am_i(), 1);
  // Kokkos accepts the code with or without its own parentheses.
  EXPECT_EQ(where_am_i_no_parens(), 10);
  int from_kernel = 0;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 5),
      KOKKOS_LAMBDA(int, int& sum) { sum += where_am_i(); }, from_kernel);
  EXPECT_EQ(from_kernel, 5);
}

// ---- contracts -----------------------------------------------------------------------------

#if !defined(NDEBUG) || defined(KOKKOS_ENFORCE_CONTRACTS) || defined(KOKKOS_ENABLE_DEBUG)
constexpr bool contracts_active = true;
#else
constexpr bool contracts_active = false;
#endif

// Which of the two the build has depends on its type: active unless NDEBUG (Release), or always
// with KOKKOS_ENABLE_DEBUG / KOKKOS_ENFORCE_CONTRACTS.
TEST(Macros, ContractsPassQuietly) {
  int evaluated = 0;
  KOKKOS_ASSERT((++evaluated, true));
  KOKKOS_EXPECTS(1 + 1 == 2);
  KOKKOS_ENSURES(evaluated >= 0);
  // Active checks evaluate their condition; compiled-out ones do not.
  EXPECT_EQ(evaluated, contracts_active ? 1 : 0);
}

// The active checks abort with the expression and its location: TestContracts.cpp, built with
// KOKKOS_ENFORCE_CONTRACTS so that it runs in every build type.

// ---- run-time settings ---------------------------------------------------------------------

TEST(Macros, WarningsAndTuningSettings) {
  // The unit-test main passes neither --kokkos-disable-warnings nor --kokkos-tune-internals.
  EXPECT_TRUE(Kokkos::show_warnings());
  EXPECT_FALSE(Kokkos::tune_internals());
}

}  // namespace

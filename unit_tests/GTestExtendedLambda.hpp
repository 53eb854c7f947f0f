#pragma once
// nvcc refuses an extended __host__ __device__ lambda (KOKKOS_LAMBDA) whose enclosing function
// is a private member, and GoogleTest declares every TestBody() private.  Kokkos' own suite
// solves this by patching its bundled GoogleTest; kdag uses the system GoogleTest, so under nvcc
// the two macros that declare a TestBody (GTEST_TEST_, behind TEST and TEST_F, and TYPED_TEST)
// are redeclared here with TestBody public and otherwise the same expansion as GoogleTest 1.12.
// Nothing changes for g++ and clang++.
#include <gtest/gtest.h>

#if defined(__NVCC__)

// Each test's registration object (test_info_) is only ever used for its initialiser; nvcc's
// front end ignores GoogleTest's unused attribute and would warn (#177) once per test.
#pragma nv_diag_suppress 177

#undef GTEST_TEST_
#define GTEST_TEST_(test_suite_name, test_name, parent_class, parent_id)                                     \
  class GTEST_TEST_CLASS_NAME_(test_suite_name, test_name) : public parent_class {                          \
   public:                                                                                                   \
    GTEST_TEST_CLASS_NAME_(test_suite_name, test_name)() = default;                                          \
    ~GTEST_TEST_CLASS_NAME_(test_suite_name, test_name)() override = default;                                \
    GTEST_TEST_CLASS_NAME_(test_suite_name, test_name)(const GTEST_TEST_CLASS_NAME_(test_suite_name,         \
                                                                                    test_name) &) = delete;  \
    GTEST_TEST_CLASS_NAME_(test_suite_name, test_name) &                                                     \
    operator=(const GTEST_TEST_CLASS_NAME_(test_suite_name, test_name) &) = delete;                          \
    void TestBody() override;                                                                                \
                                                                                                             \
   private:                                                                                                  \
    static ::testing::TestInfo *const test_info_ GTEST_ATTRIBUTE_UNUSED_;                                    \
  };                                                                                                         \
  ::testing::TestInfo *const GTEST_TEST_CLASS_NAME_(test_suite_name, test_name)::test_info_ =                \
      ::testing::internal::MakeAndRegisterTestInfo(                                                          \
          #test_suite_name, #test_name, nullptr, nullptr, ::testing::internal::CodeLocation(__FILE__, __LINE__), \
          (parent_id), ::testing::internal::SuiteApiResolver<parent_class>::GetSetUpCaseOrSuite(__FILE__, __LINE__), \
          ::testing::internal::SuiteApiResolver<parent_class>::GetTearDownCaseOrSuite(__FILE__, __LINE__),   \
          new ::testing::internal::TestFactoryImpl<GTEST_TEST_CLASS_NAME_(test_suite_name, test_name)>);     \
  void GTEST_TEST_CLASS_NAME_(test_suite_name, test_name)::TestBody()

#undef TYPED_TEST
#define TYPED_TEST(CaseName, TestName)                                                                        \
  template <typename gtest_TypeParam_>                                                                        \
  class GTEST_TEST_CLASS_NAME_(CaseName, TestName) : public CaseName<gtest_TypeParam_> {                      \
   public:                                                                                                    \
    typedef CaseName<gtest_TypeParam_> TestFixture;                                                           \
    typedef gtest_TypeParam_ TypeParam;                                                                       \
    void TestBody() override;                                                                                 \
  };                                                                                                          \
  static bool gtest_##CaseName##_##TestName##_registered_ GTEST_ATTRIBUTE_UNUSED_ =                          \
      ::testing::internal::TypeParameterizedTest<                                                             \
          CaseName, ::testing::internal::TemplateSel<GTEST_TEST_CLASS_NAME_(CaseName, TestName)>,             \
          GTEST_TYPE_PARAMS_(CaseName)>::Register("", ::testing::internal::CodeLocation(__FILE__, __LINE__),  \
                                                  GTEST_STRINGIFY_(CaseName), GTEST_STRINGIFY_(TestName), 0,  \
                                                  ::testing::internal::GenerateNames<                         \
                                                      GTEST_NAME_GENERATOR_(CaseName),                        \
                                                      GTEST_TYPE_PARAMS_(CaseName)>());                       \
  template <typename gtest_TypeParam_>                                                                        \
  void GTEST_TEST_CLASS_NAME_(CaseName, TestName)<gtest_TypeParam_>::TestBody()

#endif

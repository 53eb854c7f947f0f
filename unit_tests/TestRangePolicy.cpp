// RangePolicy construction, bad input, and parallel_for over ranges on every back end.
#include "TestCommon.hpp"

#include <atomic>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace {

template <class Space>
struct RangeFor : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(RangeFor, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

struct TagA {};
struct TagB {};

struct TaggedFunctor {
  int* out;
  void operator()(TagA, std::int64_t i) const { out[i] = 1; }
  void operator()(TagB, std::int64_t i) const { out[i] = 2; }
};

// Every index of [b, e) is visited exactly once, for several sizes and both schedules.
template <class Space, class Schedule>
void check_visits_each_index_once(std::int64_t b, std::int64_t e, int chunk) {
  std::vector<int> hits(static_cast<size_t>(e > 0 ? e : 0) + 1, 0);
  int* h = hits.data();
  Kokkos::RangePolicy<Space, Schedule> policy(b, e);
  if (chunk > 0) policy.set_chunk_size(chunk);
  Kokkos::parallel_for("visit", policy, [=](std::int64_t i) { Kokkos::atomic_add(&h[i], 1); });
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(hits.size()); ++i) {
    ASSERT_EQ(hits[i], (i >= b && i < e) ? 1 : 0) << "index " << i << " of [" << b << "," << e << ")";
  }
}

TYPED_TEST(RangeFor, VisitsEachIndexOnceStatic) {
  for (std::int64_t n : {0, 1, 2, 3, 7, 64, 1000, 100003}) {
    check_visits_each_index_once<TypeParam, Kokkos::Schedule<Kokkos::Static>>(0, n, 0);
    check_visits_each_index_once<TypeParam, Kokkos::Schedule<Kokkos::Static>>(n / 2, n, 0);
  }
}

TYPED_TEST(RangeFor, VisitsEachIndexOnceDynamic) {
  for (std::int64_t n : {0, 1, 5, 999, 100003}) {
    for (int chunk : {0, 1, 7, 1000}) {
      check_visits_each_index_once<TypeParam, Kokkos::Schedule<Kokkos::Dynamic>>(0, n, chunk);
    }
  }
}

TEST(RangeForDefaultSpace, IntegralWorkCount) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  Kokkos::View<int*> v("v", 100);
  Kokkos::parallel_for(100, KOKKOS_LAMBDA(std::int64_t i) { v(i) = static_cast<int>(i); });
  Kokkos::parallel_for("labelled", 50, KOKKOS_LAMBDA(std::int64_t i) { v(i) += 1; });
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(h(i), i + (i < 50 ? 1 : 0));
}

TYPED_TEST(RangeFor, WorkTagsSelectOperator) {
  std::vector<int> v(10, 0);
  TaggedFunctor f{v.data()};
  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam, TagA>(0, 5), f);
  Kokkos::parallel_for(Kokkos::RangePolicy<TagB, TypeParam>(5, 10), f);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(v[i], i < 5 ? 1 : 2);
}

TYPED_TEST(RangeFor, IndexTypeIsHonoured) {
  using Policy = Kokkos::RangePolicy<TypeParam, Kokkos::IndexType<int>>;
  static_assert(std::is_same_v<typename Policy::member_type, int>);
  std::atomic<long> sum{0};
  Kokkos::parallel_for(Policy(0, 1000), [&](int i) { sum += i; });
  EXPECT_EQ(sum.load(), 999L * 1000 / 2);
}

TYPED_TEST(RangeFor, NegativeBegin) {
  std::atomic<long> sum{0};
  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(-10, 10), [&](std::int64_t i) { sum += i; });
  EXPECT_EQ(sum.load(), -10L);
}

TYPED_TEST(RangeFor, WorkersSeeTheirRank) {
  const int workers = TypeParam().impl_thread_pool_size();
  std::vector<std::atomic<int>> seen(workers);
  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(0, 1000), [&](std::int64_t) {
    const int r = TypeParam::impl_thread_pool_rank();
    ASSERT_GE(r, 0);
    ASSERT_LT(r, workers);
    seen[r] = 1;
  });
  EXPECT_EQ(seen[0].load(), 1);
}

TEST(RangePolicy, Accessors) {
  Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace> p(3, 17);
  EXPECT_EQ(p.begin(), 3);
  EXPECT_EQ(p.end(), 17);
  EXPECT_EQ(p.chunk_size(), 0);
  p.set_chunk_size(4);
  EXPECT_EQ(p.chunk_size(), 4);
  Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace> q(0, 8, Kokkos::ChunkSize(2));
  EXPECT_EQ(q.chunk_size(), 2);
  static_assert(std::is_same_v<Kokkos::RangePolicy<>::execution_space, Kokkos::DefaultExecutionSpace>);
  static_assert(std::is_same_v<decltype(Kokkos::RangePolicy(0, 5)), Kokkos::RangePolicy<>>);
  static_assert(Kokkos::is_execution_policy_v<Kokkos::RangePolicy<>>);
  static_assert(!Kokkos::is_execution_policy_v<int>);
}

// Bounds whose value the index type does not hold, as Kokkos 4.6 checks them: with deprecated
// code 4 (the default build) the converted value and a warning (then, reversed after the
// conversion, an empty range); without it Kokkos::abort with the same message.
struct RoundTripChanges {  // converts both ways, but the way back loses the value
  RoundTripChanges(int const* p) : v(*p) {}
  RoundTripChanges(int) : v(0) {}
  operator int() const { return v; }
  int v;
};
struct OneWay {  // converts to the index type only: nothing to check
  OneWay(int const* p) : v(*p) {}
  operator int() const { return v; }
  int v;
};

using UIntPolicy = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<unsigned>>;
using IntPolicy = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<int>>;
// The default execution space is Cuda in the nvcc build, which has no device to construct on here.
using HostPolicy = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>;
const std::string conversion_error = "Kokkos::RangePolicy bound type error: an unsafe implicit conversion is performed";

// The policy's [begin, end) and what it printed to stderr.
template <class Make>
auto construct_capturing(Make make) {
  testing::internal::CaptureStderr();
  auto policy = make();
  return std::make_pair(policy, testing::internal::GetCapturedStderr());
}

#if defined(KOKKOS_ENABLE_DEPRECATED_CODE_4)
TEST(RangePolicy, UnsafeBoundConversionsWarnAndConvert) {
#if defined(KOKKOS_ENABLE_DEPRECATION_WARNINGS)
  const bool warns = Kokkos::show_warnings();
#else
  const bool warns = false;
#endif
  auto expect_message = [&](const std::string& err, const std::string& text) {
    if (warns) EXPECT_NE(err.find(text), std::string::npos) << err;
    else EXPECT_TRUE(err.empty()) << err;
  };
  {  // -1 to unsigned is 4294967295, above the end: then an empty range
    auto [p, err] = construct_capturing([] { return UIntPolicy(-1, 10); });
    EXPECT_EQ(p.begin(), 0u);
    EXPECT_EQ(p.end(), 0u);
    expect_message(err, conversion_error + " on a bound (-1), which may not preserve its original value.");
    expect_message(err, "The lower bound (4294967295) is greater than the upper bound (10).");
  }
  {
    auto [p, err] = construct_capturing([] { return IntPolicy(0u, std::numeric_limits<unsigned>::max()); });
    EXPECT_EQ(p.begin(), 0);
    EXPECT_EQ(p.end(), 0);
    expect_message(err, conversion_error + " on a bound (4294967295)");
  }
  {  // narrowing: 2^40 is 0 as an int
    auto [p, err] = construct_capturing([] { return IntPolicy(0, std::size_t(1) << 40, Kokkos::ChunkSize(4)); });
    EXPECT_EQ(p.end(), 0);
    EXPECT_EQ(p.chunk_size(), 4);
    expect_message(err, conversion_error + " on a bound (1099511627776)");
  }
  {
    using U32 = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::uint32_t>>;
    auto [p, err] = construct_capturing(
        [] { return U32(Kokkos::DefaultHostExecutionSpace(), std::numeric_limits<std::int64_t>::min(), 0); });
    expect_message(err, conversion_error + " on a bound (-9223372036854775808)");
  }
  {
    const int n = 1;
    auto [p, err] = construct_capturing([&] { return HostPolicy(0, RoundTripChanges(&n)); });
    EXPECT_EQ(p.end(), 1);
    expect_message(err, conversion_error);
  }
}
#else
TEST(RangePolicyDeathTest, UnsafeBoundConversionsAbort) {
  testing::FLAGS_gtest_death_test_style = "threadsafe";
  EXPECT_DEATH((void)UIntPolicy(-1, 10), "unsafe implicit conversion is performed on a bound \\(-1\\)");
  EXPECT_DEATH((void)IntPolicy(0, std::size_t(1) << 40), "on a bound \\(1099511627776\\)");
  EXPECT_DEATH((void)IntPolicy(5, 2), "The lower bound \\(5\\) is greater than the upper bound \\(2\\)");
}
#endif

TEST(RangePolicy, SafeBoundsAreSilent) {
  const int n = 7;
  auto [p, err] = construct_capturing([&] { return HostPolicy(0, OneWay(&n)); });
  EXPECT_EQ(p.end(), 7);
  EXPECT_TRUE(err.empty()) << err;
  auto [q, err2] = construct_capturing([] { return IntPolicy(std::size_t(3), std::int64_t(1) << 30); });
  EXPECT_EQ(q.begin(), 3);
  EXPECT_EQ(q.end(), 1 << 30);
  EXPECT_TRUE(err2.empty()) << err2;
  auto [r, err3] = construct_capturing([] { return UIntPolicy(0, std::numeric_limits<unsigned>::max()); });
  EXPECT_EQ(r.end(), std::numeric_limits<unsigned>::max());
  EXPECT_TRUE(err3.empty()) << err3;
  static_assert(!std::is_constructible_v<IntPolicy, int, const char*>);
  Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace> s(0, 1);
  EXPECT_THROW(s.set_chunk_size(-1), std::runtime_error);
}

}  // namespace

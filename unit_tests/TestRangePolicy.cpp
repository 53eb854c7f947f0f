// RangePolicy construction, bad input, and parallel_for over ranges on every back end.
#include "TestCommon.hpp"

#include <atomic>
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

// Reversed bounds are an empty range with a warning, as in Kokkos 4.6 (TestPolicyConstructors).
TEST(RangePolicy, BadBoundsThrowWithMessage) {
  EXPECT_THROW((Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<int>>(0, 1LL << 40)),
               std::runtime_error);
  Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace> p(0, 1);
  EXPECT_THROW(p.set_chunk_size(-1), std::runtime_error);
}

}  // namespace

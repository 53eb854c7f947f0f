// SharedSpace aliases, execution space instances and partition_space: partitions run kernels
// from two host threads at once, each with correct results, and really concurrently.
#include "TestCommon.hpp"

#include <atomic>
#include <chrono>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

#if defined(KOKKOS_ENABLE_CUDA)
static_assert(std::is_same_v<Kokkos::SharedSpace, Kokkos::CudaUVMSpace>);
static_assert(std::is_same_v<Kokkos::SharedHostPinnedSpace, Kokkos::CudaHostPinnedSpace>);
#else
static_assert(std::is_same_v<Kokkos::SharedSpace, Kokkos::HostSpace>);
static_assert(std::is_same_v<Kokkos::SharedHostPinnedSpace, Kokkos::HostSpace>);
#endif
static_assert(Kokkos::has_shared_space && Kokkos::has_shared_host_pinned_space);

TEST(SharedSpace, ViewIsUsableFromEveryHostSpace) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::SharedSpace);
  Kokkos::View<int*, Kokkos::SharedSpace> v("shared", 100);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 100),
                       KOKKOS_LAMBDA(int i) { v(i) = 2 * i; });
  Kokkos::fence("after shared fill");
  for (int i = 0; i < 100; ++i) ASSERT_EQ(v(i), 2 * i);
}

TEST(PartitionSpace, WorkerCountsFollowWeights) {
  using Kokkos::Experimental::Impl::partition_worker_counts;
  EXPECT_EQ(partition_worker_counts(8, {1, 1}), (std::vector<int>{4, 4}));
  EXPECT_EQ(partition_worker_counts(8, {3, 1}), (std::vector<int>{6, 2}));
  EXPECT_EQ(partition_worker_counts(7, {1, 1, 1}), (std::vector<int>{3, 2, 2}));
  EXPECT_EQ(partition_worker_counts(2, {1, 1, 1}), (std::vector<int>{1, 1, 1}));  // at least one each
  EXPECT_EQ(partition_worker_counts(4, {0, 0}), (std::vector<int>{2, 2}));        // no weight: equal
  EXPECT_EQ(partition_worker_counts(4, {1, 0}), (std::vector<int>{3, 1}));
  EXPECT_TRUE(partition_worker_counts(4, {}).empty());
}

template <class Space>
struct PartitionSpace : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(PartitionSpace, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(PartitionSpace, InstancesAreDistinctAndShareTheWorkers) {
  using Space = TypeParam;
  const Space space;
  const int workers = space.concurrency();
  auto parts = Kokkos::Experimental::partition_space(space, 1, 1);
  static_assert(std::is_same_v<decltype(parts), std::vector<Space>>);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_FALSE(parts[0] == parts[1]);
  EXPECT_FALSE(parts[0] == space);
  EXPECT_NE(parts[0].impl_instance_id(), parts[1].impl_instance_id());
  const Space copy = parts[1];
  EXPECT_TRUE(copy == parts[1]);
  if constexpr (!std::is_same_v<Space, Kokkos::Serial>) {
    EXPECT_EQ(Space::concurrency(parts[0]) + Space::concurrency(parts[1]), workers < 2 ? 2 : workers);
  }
  auto weighted = Kokkos::Experimental::partition_space(space, std::vector<double>{0.5, 0.25, 0.25});
  EXPECT_EQ(weighted.size(), 3u);
  EXPECT_THROW(Kokkos::Experimental::partition_space(space, 1, -1), std::runtime_error);
  EXPECT_TRUE(Kokkos::Experimental::partition_space(space, std::vector<int>{}).empty());
  for (const Space& p : weighted) {
    EXPECT_GE(Space::concurrency(p), 1);
    p.fence("partition fence");
  }
  space.fence("Kokkos::Test::labelled fence");
  Kokkos::fence("Kokkos::Test::global labelled fence");
  EXPECT_GE(Space::impl_max_hardware_threads(), 1);
  EXPECT_EQ(Space::impl_hardware_thread_id(), 0);  // outside any launch
}

// Each instance fills its own View and reduces it, from its own std::thread.
TYPED_TEST(PartitionSpace, TwoHostThreadsGetCorrectResults) {
  using Space = TypeParam;
  auto parts = Kokkos::Experimental::partition_space(Space(), 1, 1);
  constexpr int n = 100000;
  Kokkos::View<long*, Kokkos::HostSpace> a("a", n), b("b", n);
  long sum_a = 0, sum_b = 0;
  const auto work = [](const Space& space, Kokkos::View<long*, Kokkos::HostSpace> v, long scale, long& sum) {
    for (int round = 0; round < 20; ++round) {
      Kokkos::parallel_for("partition fill", Kokkos::RangePolicy<Space>(space, 0, n),
                           KOKKOS_LAMBDA(int i) { v(i) = scale * i + round; });
      Kokkos::parallel_reduce("partition sum", Kokkos::RangePolicy<Space>(space, 0, n),
                              KOKKOS_LAMBDA(int i, long& s) { s += v(i); }, sum);
      space.fence();
    }
  };
  std::thread ta([&] { work(parts[0], a, 1, sum_a); });
  std::thread tb([&] { work(parts[1], b, 3, sum_b); });
  ta.join();
  tb.join();
  const long triangle = long(n) * (n - 1) / 2;
  EXPECT_EQ(sum_a, triangle + 19L * n);
  EXPECT_EQ(sum_b, 3 * triangle + 19L * n);
}

// A rendezvous: each kernel announces itself and waits to see the other.  Run one after the
// other they would never meet (each gives up after a generous deadline and reports it); run
// concurrently they always do.  No timing is measured.
TYPED_TEST(PartitionSpace, PartitionsRunConcurrently) {
  using Space = TypeParam;
  auto parts = Kokkos::Experimental::partition_space(Space(), 1, 1);
  std::atomic<int> arrived{0};
  std::atomic<int> met{0};
  const auto kernel = [&](const Space& space) {
    Kokkos::parallel_for("rendezvous", Kokkos::RangePolicy<Space>(space, 0, 1), [&](int) {
      arrived.fetch_add(1);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (arrived.load() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
      if (arrived.load() == 2) met.fetch_add(1);
    });
  };
  std::thread ta([&] { kernel(parts[0]); });
  std::thread tb([&] { kernel(parts[1]); });
  ta.join();
  tb.join();
  EXPECT_EQ(met.load(), 2);
}

TYPED_TEST(PartitionSpace, TeamAndMDRangeLaunchesOnPartitions) {
  using Space = TypeParam;
  auto parts = Kokkos::Experimental::partition_space(Space(), 2, 1);
  for (const Space& space : parts) {
    long teams = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamPolicy<Space>(space, 10, 1),
        KOKKOS_LAMBDA(const typename Kokkos::TeamPolicy<Space>::member_type& m, long& s) { s += m.league_rank(); },
        teams);
    EXPECT_EQ(teams, 45);
    Kokkos::View<int**, Kokkos::HostSpace> v("v", 7, 9);
    Kokkos::parallel_for(Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>(space, {0, 0}, {7, 9}),
                         KOKKOS_LAMBDA(int i, int j) { v(i, j) = i * 9 + j; });
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 9; ++j) ASSERT_EQ(v(i, j), i * 9 + j);
  }
}

#if defined(KOKKOS_ENABLE_SERIAL)
TEST(PartitionSpace, SerialNewInstance) {
  Kokkos::Serial a(Kokkos::NewInstance{}), b(Kokkos::NewInstance{});
  EXPECT_FALSE(a == b);
  EXPECT_TRUE(Kokkos::Serial() == Kokkos::Serial());
  EXPECT_EQ(Kokkos::Serial::concurrency(a), 1);
}
#endif

#if defined(KOKKOS_ENABLE_OPENMP)
TEST(PartitionSpace, OpenMPSizedInstance) {
  Kokkos::OpenMP two(2);
  EXPECT_EQ(Kokkos::OpenMP::concurrency(two), 2);
  EXPECT_THROW(Kokkos::OpenMP(0), std::runtime_error);
  std::atomic<int> seen{0};
  std::vector<int> ranks(2, 0);
  two.impl_run_on_workers([&](int rank, int size) {
    EXPECT_EQ(size, 2);
    ranks[rank] = 1;
    seen.fetch_add(1);
  });
  EXPECT_EQ(seen.load(), 2);
  EXPECT_EQ(ranks, (std::vector<int>{1, 1}));
}

// Kokkos' other documented use: partitions launched from the threads of an outer parallel region.
TEST(PartitionSpace, OpenMPPartitionsNestInAnOuterRegion) {
  auto parts = Kokkos::Experimental::partition_space(Kokkos::OpenMP(), 1, 1);
  const int saved_levels = omp_get_max_active_levels();
  omp_set_max_active_levels(2);
  long sums[2] = {0, 0};
#pragma omp parallel num_threads(2)
  {
    const int t = omp_get_thread_num();
    if (t < 2) {
      Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::OpenMP>(parts[t], 0, 1000),
                              KOKKOS_LAMBDA(int i, long& s) { s += i; }, sums[t]);
    }
  }
  omp_set_max_active_levels(saved_levels);
  EXPECT_EQ(sums[0], 499500);
  EXPECT_EQ(sums[1], 499500);
}
#endif

}  // namespace

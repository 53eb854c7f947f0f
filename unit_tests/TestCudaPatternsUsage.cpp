// cuda-suite's TestCudaPatterns.cpp, renamed so that it sits beside cuda-par's.
// The parallel patterns on Kokkos::Cuda, written the way a Kokkos CUDA user writes them: data in
// CudaSpace, KOKKOS_LAMBDA kernels, results checked through host mirrors.  Every test skips,
// naming why, where no GPU is visible.  Built only with Kokkos_ENABLE_CUDA.
#include "TestCommon.hpp"

#include <cstdint>

namespace {

using Exec = Kokkos::Cuda;
using I64 = std::int64_t;
template <class T>
using DeviceView = Kokkos::View<T, Kokkos::CudaSpace>;

struct CudaPatterns : Kokkos::Test::SpaceTest<Exec> {};

TEST_F(CudaPatterns, RangeForVisitsEachIndexOnce) {
  for (I64 n : {I64(0), I64(1), I64(31), I64(1000), I64(1) << 20}) {
    DeviceView<int*> hits("hits", n + 1);
    Kokkos::parallel_for(
        "visit", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(I64 i) { Kokkos::atomic_add(&hits(i), 1); });
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hits);
    for (I64 i = 0; i <= n; ++i) ASSERT_EQ(h(i), i < n ? 1 : 0) << "n=" << n << " i=" << i;
  }
}

TEST_F(CudaPatterns, RangeReduceSumMinMax) {
  const I64 n = 1000003;
  I64 sum = 0;
  Kokkos::parallel_reduce(
      "sum", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(I64 i, I64& s) { s += i; }, sum);
  EXPECT_EQ(sum, n * (n - 1) / 2);
  double mx = 0;
  Kokkos::parallel_reduce(
      "max", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(I64 i, double& m) { m = Kokkos::max(m, double((i * 7919) % 1000)); }, Kokkos::Max<double>(mx));
  EXPECT_EQ(mx, 999.0);
  // Into a device View: the result stays on the device until copied.
  DeviceView<I64> result("result");
  Kokkos::parallel_reduce(
      "into view", Kokkos::RangePolicy<Exec>(0, 100), KOKKOS_LAMBDA(I64 i, I64& s) { s += i; }, result);
  I64 h = 0;
  Kokkos::deep_copy(h, result);
  EXPECT_EQ(h, 4950);
}

TEST_F(CudaPatterns, RangeScanInclusiveAndExclusive) {
  const I64 n = 100003;
  DeviceView<I64*> ex("ex", n), in("in", n);
  I64 total = 0;
  Kokkos::parallel_scan(
      "scan", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(I64 i, I64& update, const bool final) {
        if (final) ex(i) = update;
        update += i % 7;
        if (final) in(i) = update;
      },
      total);
  const auto h_ex = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ex);
  const auto h_in = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), in);
  I64 run = 0;
  for (I64 i = 0; i < n; ++i) {
    ASSERT_EQ(h_ex(i), run) << i;
    run += i % 7;
    ASSERT_EQ(h_in(i), run) << i;
  }
  EXPECT_EQ(total, run);
}

TEST_F(CudaPatterns, MDRangeForAndReduce) {
  const int n0 = 37, n1 = 19, n2 = 5;
  DeviceView<int***> v("v", n0, n1, n2);
  Kokkos::parallel_for(
      "fill", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<3>>({0, 0, 0}, {n0, n1, n2}),
      KOKKOS_LAMBDA(int i, int j, int k) { v(i, j, k) = i * 10000 + j * 100 + k; });
  long sum = 0;
  Kokkos::parallel_reduce(
      "sum", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<3>>({0, 0, 0}, {n0, n1, n2}),
      KOKKOS_LAMBDA(int i, int j, int k, long& s) { s += v(i, j, k); }, sum);
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  long expected = 0;
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j)
      for (int k = 0; k < n2; ++k) {
        ASSERT_EQ(h(i, j, k), i * 10000 + j * 100 + k);
        expected += h(i, j, k);
      }
  EXPECT_EQ(sum, expected);
}

TEST_F(CudaPatterns, TeamNestedReduceAndScratch) {
  using Policy = Kokkos::TeamPolicy<Exec>;
  using Member = Policy::member_type;
  using Scratch = Kokkos::View<int*, Exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const int league = 64, width = 100;
  DeviceView<long*> row_sums("row_sums", league);
  Kokkos::parallel_for(
      "team", Policy(league, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(width))),
      KOKKOS_LAMBDA(const Member& team) {
        Scratch shared(team.team_scratch(0), width);
        const int r = team.league_rank();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, width), [&](int j) { shared(j) = r * width + j; });
        team.team_barrier();
        long s = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, width), [&](int j, long& acc) { acc += shared(j); }, s);
        Kokkos::single(Kokkos::PerTeam(team), [&]() { row_sums(r) = s; });
      });
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_sums);
  for (int r = 0; r < league; ++r) {
    const long first = long(r) * width;
    EXPECT_EQ(h(r), width * first + long(width) * (width - 1) / 2) << r;
  }
}

TEST_F(CudaPatterns, TeamSizeQueriesAreSane) {
  using Policy = Kokkos::TeamPolicy<Exec>;
  const auto body = KOKKOS_LAMBDA(const Policy::member_type&){};
  const Policy policy(16, Kokkos::AUTO);
  const int max = policy.team_size_max(body, Kokkos::ParallelForTag());
  const int recommended = policy.team_size_recommended(body, Kokkos::ParallelForTag());
  EXPECT_GT(max, 0);
  EXPECT_GT(recommended, 0);
  EXPECT_LE(recommended, max);
  EXPECT_LE(max, 1024);
}

}  // namespace

// The fusion layer: random programs fused and unfused agree bit for bit; the seeds' cases
// (seed 000 §III-C stencil and Jacobi, Listing 1 Black-Scholes); each constraint alone places
// a barrier; each flush trigger flushes; switches and bad input.
#include "FusionRandomProgram.hpp"
#include "FusionTestFixture.hpp"
#include "TestCommon.hpp"

#include <Kokkos_Fusion.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using Kokkos::Impl::FusionConstraint;
using Kokkos::Impl::FusionFlush;

template <class Space>
struct Fusion : Kokkos::Test::FusionFixture {};
TYPED_TEST_SUITE(Fusion, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

using Vec = Kokkos::Test::RandomFusion::Vec;

template <class Space>
Vec shifted(const Kokkos::View<double*, Kokkos::HostSpace>& base, std::int64_t shift, std::int64_t n) {
  return Kokkos::subview(base, Kokkos::pair<std::int64_t, std::int64_t>(shift, shift + n));
}

// ---- random programs (FusionRandomProgram.hpp) -----------------------------------------------

// Programs of `shape` from `seeds` consecutive seeds.  Each runs unfused once and fused
// `fused_repeats` times (a repeated program reuses its memoized plan, which lets the adaptive
// dispatch try the calling thread); every fused run must equal the unfused one bit for bit.
template <class Space>
void check_random_programs(std::uint64_t first_seed, int seeds, const Kokkos::Test::RandomFusion::Shape& shape,
                           int fused_repeats = 1) {
  namespace RF = Kokkos::Test::RandomFusion;
  for (int s = 0; s < seeds; ++s) {
    const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(s);
    Kokkos::Test::RandomSource rng(seed);
    const RF::Program p = RF::make_program(rng, shape);
    ASSERT_EQ(RF::fused_differs_from_unfused<Space>(p, fused_repeats), "")
        << "seed " << seed << ", n " << shape.n << ", " << shape.lanes << " lanes, " << p.temporaries << " temporaries";
  }
}
template <class Space>
void check_random_programs(std::uint64_t first_seed, int seeds, std::int64_t n, int fused_repeats = 1) {
  check_random_programs<Space>(first_seed, seeds, Kokkos::Test::RandomFusion::Shape{.n = n}, fused_repeats);
}

// KDAG_FUSION_SEEDS=N runs N seeds per size instead of 200 (the long-running label).
int seed_count(int fallback) {
  const char* v = std::getenv("KDAG_FUSION_SEEDS");
  return v != nullptr && std::atoi(v) > 0 ? std::atoi(v) : fallback;
}

TYPED_TEST(Fusion, RandomProgramsFusedEqualUnfusedBitwise) {
  // Small n exercises chunk and block edges, larger n several chunks per worker.
  check_random_programs<TypeParam>(1, seed_count(200), 37);
  check_random_programs<TypeParam>(100000, seed_count(200) / 3, 5000);
  const auto s = KE::fusion_statistics();
  EXPECT_GT(s.launches_fused, 0u);
  EXPECT_GT(s.skewed_runs, 0u);  // the skewed schedule was exercised
  for (int c = 0; c < Kokkos::Impl::fusion_constraint_count; ++c) {
    EXPECT_GT(s.barriers[c], 0u) << "constraint " << Kokkos::Impl::fusion_constraint_name(FusionConstraint(c))
                                 << " never placed a barrier";
  }
}

TYPED_TEST(Fusion, RandomProgramsTinyRangesAndSmallChunks) {
  // n = 1..8: blocks shorter than the halo; a one-launch window behaves like no window.
  for (std::int64_t n : {1, 2, 3, 5, 8}) check_random_programs<TypeParam>(77 * n, 40, n);
  KE::set_fusion_window_size(1);
  check_random_programs<TypeParam>(4242, 20, 64);
  EXPECT_EQ(KE::fusion_statistics().launches_fused > 0, true);  // from the runs above
  KE::set_fusion_window_size(50);
}

TYPED_TEST(Fusion, RandomProgramsOverStridedWindowsFusedEqualUnfusedBitwise) {
  // Windows with a stride of 2 or 3 and an offset: launches over different lanes of one
  // allocation interleave without sharing an element.
  check_random_programs<TypeParam>(880000, seed_count(60), {.n = 37, .lanes = 2});
  check_random_programs<TypeParam>(890000, seed_count(60) / 3, {.n = 3000, .lanes = 3}, 2);
  EXPECT_GT(KE::fusion_statistics().launches_fused, 0u);
}

TYPED_TEST(Fusion, RandomProgramsWithTemporariesFusedEqualUnfusedBitwise) {
  // Up to three Views created in the window and dropped before it flushes; every size counts as
  // a temporary.  Those whose launches qualify are eliminated, the others materialised: the bits
  // are the unfused program's either way.
  KE::set_fusion_temporary_elimination(true);
  KE::set_fusion_temporary_bytes(0);
  check_random_programs<TypeParam>(910000, seed_count(100), {.n = 37, .max_temporaries = 3});
  check_random_programs<TypeParam>(920000, seed_count(100) / 3, {.n = 3000, .lanes = 2, .max_temporaries = 3}, 2);
  const auto s = KE::fusion_statistics();
  EXPECT_GT(s.temporaries_eliminated, 0u);
  KE::set_fusion_temporary_bytes(256 * 1024);
}

TYPED_TEST(Fusion, RandomProgramsRepeatedUnderAdaptiveDispatchStayBitwiseEqual) {
  // Repeating a program lets each memoized run time every way of executing it (workers,
  // caller, short chunks, long chunks, unfused: three executions each, see
  // FusionDispatchChoice); every way must give the unfused bits.  Tiny runs: the caller wins
  // wherever there are workers to skip.
  KE::set_fusion_adaptive_dispatch(true);
  EXPECT_TRUE(KE::fusion_adaptive_dispatch());
  // Every run through its own dispatch choice: a wave run concurrently skips it.
  KE::set_fusion_concurrent_flush(KE::FusionConcurrentFlush::off);
  check_random_programs<TypeParam>(5150, seed_count(60), 37, 8);
  check_random_programs<TypeParam>(6160, seed_count(60) / 3, 3000, 8);
  auto s = KE::fusion_statistics();
  EXPECT_GT(s.fused_launches, 0u);
  const int workers = TypeParam().concurrency();
  if (workers == 1) {
    EXPECT_EQ(s.fused_on_caller, 0u);  // one worker is the caller already: nothing to choose
  } else if (workers <= Kokkos::Impl::host_topology().processing_units) {
    // The caller is only tried for a run under 100 us of one core's work (FusionDispatchChoice):
    // on a machine busy with other work even these tiny runs can take longer for a while (ctest
    // runs two tests at once on two cores).  Their memoized choices keep timing them: repeat the
    // programs until the caller was tried, for up to a minute.
    const auto give_up_at = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (KE::fusion_statistics().fused_on_caller == 0 && std::chrono::steady_clock::now() < give_up_at) {
      check_random_programs<TypeParam>(5150, seed_count(60), 37, 8);
    }
    EXPECT_GT(KE::fusion_statistics().fused_on_caller, 0u);
  }  // else: workers taking turns on fewer cores may make every run too slow to probe the caller
  // Blocks of several chunks: the short- and long-chunk ways differ from the workers' and are
  // tried.
  check_random_programs<TypeParam>(7170, seed_count(30) / 3, 20000, 16);
  s = KE::fusion_statistics();
  EXPECT_GT(s.fused_short_chunks, 0u);
  EXPECT_GT(s.fused_long_chunks, 0u);
  EXPECT_GT(s.fused_runs_unfused, 0u);
  KE::set_fusion_adaptive_dispatch(false);
  EXPECT_FALSE(KE::fusion_adaptive_dispatch());
  KE::reset_fusion_statistics();
  check_random_programs<TypeParam>(5150, 10, 37, 8);
  EXPECT_EQ(KE::fusion_statistics().fused_on_caller, 0u);
  KE::set_fusion_adaptive_dispatch(true);
}

// ---- the seeds' cases ------------------------------------------------------------------------

// Seed 000 §III-C2: east = input[0:-2], central = input[1:-1], west = input[2:N];
// output = east + west; central[:] = .5 * output;  two iterations -> {1,2} {3,4}.
TYPED_TEST(Fusion, ThreePointStencilSplitsIntoTwoRuns) {
  const std::int64_t N = 1003, n = N - 2;
  Kokkos::View<double*, Kokkos::HostSpace> input("input", N), expect("expect", N);
  Kokkos::View<double*, Kokkos::HostSpace> output("output", n);
  for (std::int64_t i = 0; i < N; ++i) input(i) = expect(i) = double((i * 37) % 101);
  Vec east = shifted<TypeParam>(input, 0, n), central = shifted<TypeParam>(input, 1, n),
      west = shifted<TypeParam>(input, 2, n);
  Kokkos::RangePolicy<TypeParam> policy(0, n);
  {
    KE::FusionScope scope;
    for (int it = 0; it < 2; ++it) {
      Kokkos::parallel_for("add", KE::with_accesses(policy, KE::reads(east), KE::reads(west), KE::writes(output)),
                           KOKKOS_LAMBDA(int i) { output(i) = east(i) + west(i); });
      Kokkos::parallel_for("mul", KE::with_accesses(policy, KE::reads(output), KE::writes(central)),
                           KOKKOS_LAMBDA(int i) { central(i) = .5 * output(i); });
    }
    EXPECT_EQ(KE::fusion_pending_launches(), 4u);
  }
  const auto s = KE::fusion_statistics();
  EXPECT_EQ(s.launches_recorded, 4u);
  EXPECT_EQ(s.fused_launches, 2u);
  EXPECT_EQ(s.min_fused_length, 2u);
  EXPECT_EQ(s.max_fused_length, 2u);
  EXPECT_EQ(s.barrier_count(FusionConstraint::true_dependence), 1u);
  EXPECT_EQ(s.skewed_runs, 2u);
  std::vector<double> out(n);
  for (int it = 0; it < 2; ++it) {
    for (std::int64_t i = 0; i < n; ++i) out[i] = expect(i) + expect(i + 2);
    for (std::int64_t i = 0; i < n; ++i) expect(i + 1) = .5 * out[i];
  }
  for (std::int64_t i = 0; i < N; ++i) ASSERT_EQ(input(i), expect(i)) << i;
}

// Seed 000 §III-C1 in one dimension: x = (b - (x_left + x_right)) / d, then the residual's
// dot product; the reduction ends the run and delivers its value at once.
TYPED_TEST(Fusion, JacobiDotProductEndsTheRun) {
  const std::int64_t n = 2000;
  Kokkos::View<double*, Kokkos::HostSpace> x("x", n + 2), b("b", n), tmp("tmp", n), xnew("xnew", n);
  for (std::int64_t i = 0; i < n; ++i) b(i) = 1.0 + double(i % 7);
  Vec left = shifted<TypeParam>(x, 0, n), right = shifted<TypeParam>(x, 2, n), inner = shifted<TypeParam>(x, 1, n);
  Kokkos::RangePolicy<TypeParam> policy(0, n);
  double residual[3] = {};
  {
    KE::FusionScope scope;
    for (int it = 0; it < 3; ++it) {
      Kokkos::parallel_for("sub",
                           KE::with_accesses(policy, KE::reads(b), KE::reads(left), KE::reads(right), KE::writes(tmp)),
                           KOKKOS_LAMBDA(int i) { tmp(i) = b(i) + 0.5 * (left(i) + right(i)); });
      Kokkos::parallel_for("div", KE::with_accesses(policy, KE::reads(tmp), KE::writes(xnew)),
                           KOKKOS_LAMBDA(int i) { xnew(i) = tmp(i) / 4.0; });
      Kokkos::parallel_reduce(
          "dot", KE::with_accesses(policy, KE::reads(xnew), KE::reads(inner)),
          KOKKOS_LAMBDA(int i, double& r) { r += (xnew(i) - inner(i)) * (xnew(i) - inner(i)); }, residual[it]);
      EXPECT_EQ(KE::fusion_pending_launches(), 0u);  // the host has the value now
      Kokkos::parallel_for("copy", KE::with_accesses(policy, KE::reads(xnew), KE::writes(inner)),
                           KOKKOS_LAMBDA(int i) { inner(i) = xnew(i); });
    }
  }
  const auto s = KE::fusion_statistics();
  EXPECT_EQ(s.launches_recorded, 12u);
  // Iteration 1: {sub, div, dot}.  Later ones: copy writes x through `inner` and sub reads it
  // through `left`/`right`: a true-dependence barrier, then {sub, div, dot} again.
  EXPECT_EQ(s.flush_count(FusionFlush::reduce_result), 3u);
  EXPECT_EQ(s.max_fused_length, 3u);
  EXPECT_EQ(s.barrier_count(FusionConstraint::true_dependence), 2u);
  // Serial reference.
  std::vector<double> xr(n + 2, 0.0);
  for (int it = 0; it < 3; ++it) {
    std::vector<double> xn(n);
    for (std::int64_t i = 0; i < n; ++i) xn[i] = (b(i) + 0.5 * (xr[i] + xr[i + 2])) / 4.0;
    double r = 0;
    for (std::int64_t i = 0; i < n; ++i) r += (xn[i] - xr[i + 1]) * (xn[i] - xr[i + 1]);
    EXPECT_NEAR(residual[it], r, 1e-9 * (1 + r));
    for (std::int64_t i = 0; i < n; ++i) xr[i + 1] = xn[i];
  }
  for (std::int64_t i = 0; i < n + 2; ++i) ASSERT_EQ(x(i), xr[i]) << i;
}

// ---- each constraint alone places the barrier ------------------------------------------------

struct Write {
  Vec out;
  double v;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { out(i) = v + double(i); }
};
struct Add {
  Vec out, in;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { out(i) = in(i) + 1.0; }
};

template <class Space>
KE::FusionStatistics two_launch_stats(auto first, auto second) {
  KE::reset_fusion_statistics();
  {
    KE::FusionScope scope;
    first();
    second();
  }
  return KE::fusion_statistics();
}

TYPED_TEST(Fusion, EachConstraintAlonePlacesTheBarrier) {
  using P = Kokkos::RangePolicy<TypeParam, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = 500;
  Kokkos::View<double*, Kokkos::HostSpace> a("a", n + 4), b("b", n + 4), c("c", n + 4);
  Vec a0 = shifted<TypeParam>(a, 0, n), a1 = shifted<TypeParam>(a, 1, n), b0 = shifted<TypeParam>(b, 0, n),
      c0 = shifted<TypeParam>(c, 0, n);
  auto only = [](const KE::FusionStatistics& s, FusionConstraint c) {
    std::uint64_t others = 0;
    for (int k = 0; k < Kokkos::Impl::fusion_constraint_count; ++k)
      if (k != int(c)) others += s.barriers[k];
    return s.barriers[int(c)] == 1 && others == 0 && s.fused_launches == 0;
  };
  // No barrier: same partitions, point-wise.
  auto s = two_launch_stats<TypeParam>(
      [&] { Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(a0)), Write{a0, 1}); },
      [&] { Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::reads(a0), KE::writes(b0)), Add{b0, a0}); });
  EXPECT_EQ(s.fused_launches, 1u);
  // launch domain
  s = two_launch_stats<TypeParam>(
      [&] { Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(a0)), Write{a0, 1}); },
      [&] { Kokkos::parallel_for(KE::with_accesses(P(0, n - 1), KE::writes(b0)), Write{b0, 2}); });
  EXPECT_TRUE(only(s, FusionConstraint::launch_domain));
  // true dependence: written through a0, read through a1
  s = two_launch_stats<TypeParam>(
      [&] { Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(a0)), Write{a0, 1}); },
      [&] { Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::reads(a1), KE::writes(b0)), Add{b0, a1}); });
  EXPECT_TRUE(only(s, FusionConstraint::true_dependence));
  // anti dependence beyond the skewed schedule's reach: read big[0:n), then write every other
  // element of big: not a shift of the same stride, so no ordering helps.
  Kokkos::View<double*, Kokkos::HostSpace> big("big", 2 * n + 4);
  Vec dense = shifted<TypeParam>(big, 0, n);
  Vec every_other(big.data(), Kokkos::LayoutStride(std::size_t(n), std::size_t(2)));  // unmanaged alias
  s = two_launch_stats<TypeParam>(
      [&] { Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::reads(dense), KE::writes(c0)), Add{c0, dense}); },
      [&] {
        Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::reads(c0), KE::writes(every_other)), Add{every_other, c0});
      });
  EXPECT_TRUE(only(s, FusionConstraint::anti_dependence));
  // reduction: reduced into, then read by the next launch
  Kokkos::View<double*, Kokkos::HostSpace> acc("acc", n + 4);
  Vec acc0 = shifted<TypeParam>(acc, 0, n);
  s = two_launch_stats<TypeParam>(
      [&] { Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::reads(a0), KE::reduces(acc0)), Add{acc0, a0}); },
      [&] { Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::reads(acc0), KE::writes(b0)), Add{b0, acc0}); });
  EXPECT_TRUE(only(s, FusionConstraint::reduction));
  // communication: a team launch with declared accesses runs alone
  s = two_launch_stats<TypeParam>(
      [&] { Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(a0)), Write{a0, 1}); },
      [&] {
        using Member = typename Kokkos::TeamPolicy<TypeParam>::member_type;
        Kokkos::parallel_for(KE::with_accesses(Kokkos::TeamPolicy<TypeParam>(2, 1), KE::writes(b0)),
                             KOKKOS_LAMBDA(const Member& m) {
                               b0(m.league_rank() * 2) = 1;
                               b0(m.league_rank() * 2 + 1) = 1;
                             });
      });
  EXPECT_TRUE(only(s, FusionConstraint::communication));
  EXPECT_EQ(b0(3), 1.0);
  EXPECT_EQ(a0(7), 8.0);
}

// ---- flush triggers --------------------------------------------------------------------------

TYPED_TEST(Fusion, EachFlushTriggerRunsPendingLaunches) {
  using P = Kokkos::RangePolicy<TypeParam, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = 100;
  Kokkos::View<double*, Kokkos::HostSpace> a("a", n), other("other", n);
  Vec av = a;
  auto record = [&](double v) {
    Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(av)), Write{av, v});
    EXPECT_EQ(KE::fusion_pending_launches(), 1u);
    // Through the pointer: a View access with the write pending aborts in debug builds.
    EXPECT_EQ(a.data()[5], 0.0) << "recorded, not run";
  };
  auto ran = [&](double v, FusionFlush reason) {
    EXPECT_EQ(KE::fusion_pending_launches(), 0u);
    EXPECT_EQ(a(5), v + 5.0);
    EXPECT_EQ(KE::fusion_statistics().flush_count(reason), 1u) << int(reason);
    Kokkos::deep_copy(a, 0.0);
  };
  KE::FusionScope scope;
  record(1);
  KE::fusion_flush();
  ran(1, FusionFlush::explicit_flush);

  record(2);
  Kokkos::fence();
  ran(2, FusionFlush::fence);
  KE::reset_fusion_statistics();

  record(2);
  TypeParam().fence();  // an instance fence flushes too
  ran(2, FusionFlush::fence);

  record(3);
  Kokkos::deep_copy(other, 1.0);  // touches no recorded View: the window stays
  EXPECT_EQ(KE::fusion_pending_launches(), 1u);
  double element = 0;
  Kokkos::deep_copy(element, Kokkos::subview(a, 10));  // reads `a`: the window flushes first
  EXPECT_EQ(element, 3.0 + 10);
  ran(3, FusionFlush::deep_copy);

  record(4);
  Kokkos::parallel_for(P(0, n), KOKKOS_LAMBDA(std::int64_t){});  // a launch without declared accesses
  ran(4, FusionFlush::unannotated_launch);

  record(5);
  double sum = 0;
  Kokkos::parallel_reduce(KE::with_accesses(P(0, n), KE::reads(av)),
                          KOKKOS_LAMBDA(std::int64_t i, double& r) { r += av(i); }, sum);
  EXPECT_EQ(sum, 5.0 * n + n * (n - 1) / 2.0);
  ran(5, FusionFlush::reduce_result);

  KE::set_fusion_window_size(2);
  record(6);
  Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(av)), Write{av, 7});
  EXPECT_EQ(KE::fusion_pending_launches(), 2u);
  Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(av)), Write{av, 8});  // window full
  EXPECT_EQ(KE::fusion_pending_launches(), 1u);
  EXPECT_EQ(a.data()[5], 12.0);
  KE::set_fusion_window_size(50);
  KE::fusion_flush();
  EXPECT_EQ(a(5), 13.0);
  EXPECT_EQ(KE::fusion_statistics().flush_count(FusionFlush::window_full), 1u);
  Kokkos::deep_copy(a, 0.0);

  record(9);
  KE::set_fusion_enabled(false);
  ran(9, FusionFlush::switched_off);
  KE::set_fusion_enabled(true);

  {
    KE::FusionScope inner;
    record(10);
  }
  ran(10, FusionFlush::scope_end);
}

TYPED_TEST(Fusion, OutsideAWindowOrSwitchedOffLaunchesRunAtOnce) {
  using P = Kokkos::RangePolicy<TypeParam, Kokkos::IndexType<std::int64_t>>;
  Kokkos::View<double*, Kokkos::HostSpace> a("a", 10);
  Vec av = a;
  Kokkos::parallel_for(KE::with_accesses(P(0, 10), KE::writes(av)), Write{av, 1});
  EXPECT_EQ(a(3), 4.0);
  KE::set_fusion_enabled(false);
  EXPECT_FALSE(KE::fusion_enabled());
  {
    KE::FusionScope scope;
    Kokkos::parallel_for(KE::with_accesses(P(0, 10), KE::writes(av)), Write{av, 2});
    EXPECT_EQ(a(3), 5.0);
    EXPECT_EQ(KE::fusion_pending_launches(), 0u);
  }
  KE::set_fusion_enabled(true);
  EXPECT_EQ(KE::fusion_statistics().launches_recorded, 0u);
  // An integral work count is a policy too; empty ranges record and run nothing.  (With CUDA on
  // the count names Kokkos::Cuda, where fusion does not run yet.)
#if !defined(KOKKOS_ENABLE_CUDA)
  {
    KE::FusionScope scope;
    Kokkos::parallel_for(KE::with_accesses(0, KE::writes(av)), Write{av, 3});
    Kokkos::parallel_for(KE::with_accesses(0, KE::writes(av)), Write{av, 3});
    double sum = -1;
    Kokkos::parallel_reduce(KE::with_accesses(0, KE::reads(av)),
                            KOKKOS_LAMBDA(std::int64_t i, double& r) { r += av(i); }, sum);
    EXPECT_EQ(sum, 0.0);
  }
#endif
  EXPECT_EQ(a(3), 5.0);
}

TYPED_TEST(Fusion, MemoizationMakesAnIterativeLoopAnalyseOnce) {
  using P = Kokkos::RangePolicy<TypeParam, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = 64;
  Kokkos::View<double*, Kokkos::HostSpace> x("x", n), y("y", n), u("u", n), v("v", n);
  auto iterate = [&](Vec a, Vec b) {
    KE::FusionScope scope;
    Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(a)), Write{a, 1});
    Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::reads(a), KE::writes(b)), Add{b, a});
  };
  for (int it = 0; it < 10; ++it) iterate(x, y);
  iterate(u, v);  // alpha-equivalent: other Views, same pattern
  auto s = KE::fusion_statistics();
  EXPECT_EQ(s.windows_analysed, 11u);
  EXPECT_EQ(s.memo_hits, 10u);
  EXPECT_EQ(s.fused_launches, 11u);
  iterate(x, x);  // a different pattern: a miss
  s = KE::fusion_statistics();
  EXPECT_EQ(s.memo_hits, 10u);
  {
    // The same pattern with another functor is another program: a miss, so that each program
    // (and each execution space) learns its own adaptive dispatch.
    KE::FusionScope scope;
    Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(x)), Write{x, 1});
    Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::reads(x), KE::writes(y)),
                         KOKKOS_LAMBDA(std::int64_t i) { y(i) = 2 * x(i); });
  }
  s = KE::fusion_statistics();
  EXPECT_EQ(s.windows_analysed, 13u);
  EXPECT_EQ(s.memo_hits, 10u);
  iterate(x, y);  // the first program again: still memoized
  EXPECT_EQ(KE::fusion_statistics().memo_hits, 11u);
  KE::set_fusion_memoization(false);
  iterate(x, y);
  EXPECT_EQ(KE::fusion_statistics().memo_hits, 11u);
  KE::set_fusion_memoization(true);
}

TYPED_TEST(Fusion, StatisticsPrintAndBadInput) {
  EXPECT_THROW(
      {
        try {
          KE::set_fusion_window_size(0);
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("at least one launch"), std::string::npos) << e.what();
          throw;
        }
      },
      std::runtime_error);
  std::ostringstream os;
  KE::print_fusion_statistics(os);
  EXPECT_NE(os.str().find("launches recorded"), std::string::npos);
  EXPECT_NE(os.str().find("true_dependence"), std::string::npos);
}

// Reads a View it does not declare (a lookup table): legal only while the table lives.
struct AddTable {
  Vec out;
  Kokkos::View<double*, Kokkos::HostSpace> table;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { out(i) += table(i); }
};

TYPED_TEST(Fusion, RecordedFunctorsHoldOneReferencePerDeclaredAllocation) {
  using P = Kokkos::RangePolicy<TypeParam, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = 64;
  Kokkos::View<double*, Kokkos::HostSpace> a("a", n), b("b", n);
  Vec av = a, bv = b;
  const int a_count = a.use_count(), b_count = b.use_count();
  {
    KE::FusionScope scope;
    for (int k = 0; k < 5; ++k) {
      Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(av)), Write{av, double(k)});
      Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::reads(av), KE::writes(bv)), Add{bv, av});
    }
    EXPECT_EQ(KE::fusion_pending_launches(), 10u);
    // Ten functors hold each View, yet the window counts one reference per allocation.
    EXPECT_EQ(a.use_count(), a_count + 1);
    EXPECT_EQ(b.use_count(), b_count + 1);
  }
  EXPECT_EQ(a.use_count(), a_count);
  EXPECT_EQ(b.use_count(), b_count);
  EXPECT_EQ(b(7), 4.0 + 7 + 1);
}

TYPED_TEST(Fusion, DeclaredTemporaryOutlivesItsLastHandleUntilTheFlush) {
  using P = Kokkos::RangePolicy<TypeParam, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = 100;
  Kokkos::View<double*, Kokkos::HostSpace> a("a", n);
  Vec av = a;
  KE::FusionScope scope;
  {
    Kokkos::View<double*, Kokkos::HostSpace> tmp("tmp", n);
    Vec tv = tmp;
    Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(tv)), Write{tv, 2});
    Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::reads(tv), KE::writes(av)), Add{av, tv});
  }  // the user's handles are gone; the window keeps the allocation
  EXPECT_EQ(KE::fusion_pending_launches(), 2u);
  EXPECT_EQ(a.data()[9], 0.0);  // through the pointer: the write is pending
  KE::fusion_flush();
  EXPECT_EQ(a(9), 2.0 + 9 + 1);
  EXPECT_EQ(KE::fusion_statistics().flush_count(FusionFlush::deallocation), 0u);
}

TYPED_TEST(Fusion, FreeingAnUndeclaredViewFlushesFirst) {
  using P = Kokkos::RangePolicy<TypeParam, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = 100;
  Kokkos::View<double*, Kokkos::HostSpace> a("a", n);
  Vec av = a;
  // The capture check (on in debug builds) would stop the undeclared capture this test is about.
  const bool checking = KE::fusion_check();
  KE::set_fusion_check(false);
  KE::FusionScope scope;
  {
    Kokkos::View<double*, Kokkos::HostSpace> table("table", n);
    Kokkos::deep_copy(table, 3.0);
    Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::read_writes(av)), AddTable{av, table});
    EXPECT_EQ(KE::fusion_pending_launches(), 1u);
  }  // the table's last counted reference: the pending launch must run before it is freed
  EXPECT_EQ(KE::fusion_pending_launches(), 0u);
  EXPECT_EQ(a(4), 3.0);
  EXPECT_EQ(KE::fusion_statistics().flush_count(FusionFlush::deallocation), 1u);
  KE::set_fusion_check(checking);
}

TYPED_TEST(Fusion, OneThreadLaunchesThatFitInCacheRunInline) {
  using P = Kokkos::RangePolicy<TypeParam, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = 100;
  Kokkos::View<double*, Kokkos::HostSpace> a("a", n), big("big", 1 << 16);
  Vec av = a, bigv = big;
  const bool one_thread = TypeParam().concurrency() == 1;
  KE::set_fusion_inline_bytes(4096);
  EXPECT_EQ(KE::fusion_inline_bytes(), 4096);
  {
    KE::FusionScope scope;
    Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(av)), Write{av, 1});  // 800 bytes
    EXPECT_EQ(KE::fusion_pending_launches(), one_thread ? 0u : 1u);
    EXPECT_EQ(a.data()[2], one_thread ? 3.0 : 0.0);  // through the pointer: the write may be pending
    Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::writes(bigv)), Write{bigv, 1});  // 512 KiB: recorded
    EXPECT_EQ(KE::fusion_pending_launches(), one_thread ? 1u : 2u);
    // Something is pending now, so even a small launch is recorded behind it.
    Kokkos::parallel_for(KE::with_accesses(P(0, n), KE::read_writes(av)), Add{av, av});
    EXPECT_EQ(KE::fusion_pending_launches(), one_thread ? 2u : 3u);
  }
  EXPECT_EQ(a(2), 4.0);
  EXPECT_EQ(big(2), 3.0);
  EXPECT_EQ(KE::fusion_statistics().launches_inline, one_thread ? 1u : 0u);
  KE::set_fusion_inline_bytes(0);
  EXPECT_THROW(KE::set_fusion_inline_bytes(-1), std::runtime_error);
  EXPECT_THROW(KE::set_fusion_chunk_bytes(0), std::runtime_error);
  try {
    KE::set_fusion_chunk_bytes(-5);
    ADD_FAILURE() << "a negative chunk size was accepted";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("set_fusion_chunk_bytes"), std::string::npos) << what;
    EXPECT_NE(what.find("at least 1"), std::string::npos) << what;
    EXPECT_NE(what.find("got -5"), std::string::npos) << what;
  }
  const auto chunk = KE::fusion_chunk_bytes();
  KE::set_fusion_chunk_bytes(4096);
  EXPECT_EQ(KE::fusion_chunk_bytes(), 4096);
  KE::set_fusion_chunk_bytes(chunk);
}


// ---- concurrent flush ------------------------------------------------------------------------

TYPED_TEST(Fusion, RandomProgramsUnderForcedConcurrentFlushStayBitwiseEqual) {
  KE::set_fusion_concurrent_flush(KE::FusionConcurrentFlush::always);
  check_random_programs<TypeParam>(9001, seed_count(200), 37);
  check_random_programs<TypeParam>(31337, seed_count(200) / 3, 5000, 3);
  const auto s = KE::fusion_statistics();
  EXPECT_GT(s.waves, 0u) << "the random programs never had independent runs";
  if (TypeParam().concurrency() >= 2) {
    EXPECT_GT(s.waves_concurrent, 0u);
  } else {
    EXPECT_EQ(s.waves_concurrent, 0u) << "one worker: nothing changes";
  }
}

// Probe state: how many workers of each group have started, and whether every worker of the
// first wave saw the other group start while its own was running (impossible in order).
std::atomic<int> g_group_started[2];
std::atomic<int> g_first_wave_overlapped{-1};
std::mutex g_probe_mutex;
std::vector<std::array<int, 3>> g_probe_calls;  // first launch, group, rank

void overlap_probe(std::uint32_t first_launch, int group, int rank) {
  {
    std::lock_guard<std::mutex> lock(g_probe_mutex);
    g_probe_calls.push_back({static_cast<int>(first_launch), group, rank});
  }
  if (group > 1) return;
  const int mine = g_group_started[group].fetch_add(1) + 1;
  if (mine != 1) return;  // only the first worker of each group waits, once
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (g_group_started[1 - group].load() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  const int saw = g_group_started[1 - group].load() > 0 ? 1 : 0;
  int expected = -1;
  if (!g_first_wave_overlapped.compare_exchange_strong(expected, saw) && saw == 0) g_first_wave_overlapped.store(0);
}

// Two chains over different arrays (lengths n and n - 1, so they never fuse with each other),
// each launch reading its predecessor's output through a shifted subview (so each chain is a
// sequence of runs of one), interleaved in program order.
template <class Space>
void run_two_chains(const std::array<Kokkos::View<double*, Kokkos::HostSpace>, 4>& v, std::int64_t n, int length) {
  KE::FusionScope scope;
  for (int k = 0; k < length; ++k) {
    for (int c = 0; c < 2; ++c) {
      const std::int64_t m = n - c;
      const auto src = v[2 * c + k % 2], dst = v[2 * c + (k + 1) % 2];
      const auto here = Kokkos::subview(src, Kokkos::pair<std::int64_t, std::int64_t>(0, m));
      const auto next = Kokkos::subview(src, Kokkos::pair<std::int64_t, std::int64_t>(1, m + 1));
      const auto out = Kokkos::subview(dst, Kokkos::pair<std::int64_t, std::int64_t>(0, m));
      Kokkos::parallel_for("chain", KE::with_accesses(Kokkos::RangePolicy<Space>(0, m), KE::reads(here), KE::reads(next),
                                                      KE::writes(out)),
                           KOKKOS_LAMBDA(std::int64_t i) { out(i) = 0.5 * (here(i) + next(i)) + 0.25 * k + c; });
    }
  }
}

TYPED_TEST(Fusion, IndependentChainsRunConcurrentlyOnDisjointWorkers) {
  using Space = TypeParam;
  const std::int64_t n = 4096;
  const int length = 10;
  auto make = [&] {
    std::array<Kokkos::View<double*, Kokkos::HostSpace>, 4> v;
    for (int a = 0; a < 4; ++a) {
      v[a] = Kokkos::View<double*, Kokkos::HostSpace>("chain", n + 1);
      for (std::int64_t i = 0; i <= n; ++i) v[a](i) = std::sin(0.01 * i + a);
    }
    return v;
  };
  auto plain = make(), fused = make();
  KE::set_fusion_enabled(false);
  run_two_chains<Space>(plain, n, length);
  KE::set_fusion_enabled(true);
  KE::set_fusion_concurrent_flush(KE::FusionConcurrentFlush::always);
  g_group_started[0] = 0;
  g_group_started[1] = 0;
  g_first_wave_overlapped = -1;
  g_probe_calls.clear();
  Kokkos::Impl::fusion_config().concurrent_probe.store(&overlap_probe);
  run_two_chains<Space>(fused, n, length);
  Kokkos::Impl::fusion_config().concurrent_probe.store(nullptr);
  for (int a = 0; a < 4; ++a) {
    for (std::int64_t i = 0; i <= n; ++i) ASSERT_EQ(std::memcmp(&plain[a](i), &fused[a](i), sizeof(double)), 0) << a << " " << i;
  }
  const auto s = KE::fusion_statistics();
  EXPECT_EQ(s.waves, 1u) << "the two chains are one wave";
  if (Space().concurrency() < 2) {
    EXPECT_EQ(s.waves_concurrent, 0u);
    EXPECT_TRUE(g_probe_calls.empty());
    return;
  }
  EXPECT_EQ(s.waves_concurrent, 1u);
  EXPECT_EQ(s.runs_concurrent, static_cast<std::uint64_t>(2 * length));
  EXPECT_EQ(g_first_wave_overlapped.load(), 1) << "the chains' groups did not run at the same time";
  // One dispatch: group 0 ran the first chain's launches, group 1 the second's, on disjoint ranks.
  std::map<int, std::set<int>> ranks_of_launch;
  for (const auto& call : g_probe_calls) {
    EXPECT_EQ(call[0] % 2, call[1]) << "launch " << call[0] << " ran in group " << call[1];
    ranks_of_launch[call[0]].insert(call[2]);
  }
  ASSERT_EQ(ranks_of_launch.size(), static_cast<std::size_t>(2 * length));
  for (int k = 0; k < length; ++k) {
    for (int r : ranks_of_launch[2 * k]) EXPECT_EQ(ranks_of_launch[2 * k + 1].count(r), 0u) << "rank " << r << " in both groups";
  }
}

TYPED_TEST(Fusion, DependentRunsAreNeverAWave) {
  using Space = TypeParam;
  const std::int64_t n = 1000;
  Kokkos::View<double*, Kokkos::HostSpace> a("a", n + 1), b("b", n);
  KE::set_fusion_concurrent_flush(KE::FusionConcurrentFlush::always);
  {
    KE::FusionScope scope;
    const auto next = Kokkos::subview(a, Kokkos::pair<std::int64_t, std::int64_t>(1, n + 1));
    const auto here = Kokkos::subview(a, Kokkos::pair<std::int64_t, std::int64_t>(0, n));
    Kokkos::parallel_for(KE::with_accesses(Kokkos::RangePolicy<Space>(0, n + 1), KE::writes(a)),
                         KOKKOS_LAMBDA(std::int64_t i) { a(i) = double(i); });
    Kokkos::parallel_for(KE::with_accesses(Kokkos::RangePolicy<Space>(0, n), KE::reads(next), KE::writes(b)),
                         KOKKOS_LAMBDA(std::int64_t i) { b(i) = next(i) * 2; });
    Kokkos::parallel_for(KE::with_accesses(Kokkos::RangePolicy<Space>(0, n), KE::reads(b), KE::writes(here)),
                         KOKKOS_LAMBDA(std::int64_t i) { here(i) = b(i) + 1; });
  }
  EXPECT_EQ(KE::fusion_statistics().waves, 0u);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(a(i), 2.0 * (i + 1) + 1) << i;
  EXPECT_EQ(KE::fusion_concurrent_flush(), KE::FusionConcurrentFlush::always);
}


// ---- adaptive window size (seed 003 section 7) -------------------------------------------------

struct FusionWindowSize : Kokkos::Test::FusionFixture {};

TEST_F(FusionWindowSize, GrowsWhileRunsFillTheWindowAndShrinksOnEarlyFlushes) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  const int n = 64;
  Kokkos::View<double*, Kokkos::HostSpace> x("x", n), y("y", n + 1);
  auto bump = [&] {
    Kokkos::parallel_for(KE::with_accesses(Kokkos::RangePolicy<Space>(0, n), KE::read_writes(x)),
                         KOKKOS_LAMBDA(int i) { x(i) += 1; });
  };
  KE::set_fusion_window_size(8);
  KE::set_fusion_adaptive_window(true);
  EXPECT_TRUE(KE::fusion_adaptive_window());
  EXPECT_EQ(KE::fusion_current_window_size(), 8);
  {
    KE::FusionScope scope;
    // Full windows of 8, 16, 32 each fuse into one run: the window doubles each time (the
    // 57th launch finds the third full).
    for (int k = 0; k < 56; ++k) bump();
    EXPECT_EQ(KE::fusion_current_window_size(), 32);
    bump();
    EXPECT_EQ(KE::fusion_current_window_size(), 64);
    for (int k = 0; k < 43; ++k) bump();
  }
  EXPECT_EQ(x(n - 1), 100.0);
  EXPECT_EQ(KE::fusion_current_window_size(), 64) << "a scope's end is not a forced flush";
  // Flushes forced with the window under a quarter full: every fourth halves it, down to 8.
  const int expected[] = {64, 64, 64, 32, 32, 32, 32, 16, 16, 16, 16, 8, 8, 8, 8, 8};
  for (int f = 0; f < 16; ++f) {
    {
      KE::FusionScope scope;
      bump();
      bump();
      Kokkos::fence();
      EXPECT_EQ(KE::fusion_current_window_size(), expected[f]) << "after early flush " << f + 1;
    }
  }
  EXPECT_EQ(x(0), 132.0);
  // Full windows whose runs are short (each launch a different range) do not grow it.
  {
    KE::FusionScope scope;
    for (int k = 0; k < 40; ++k) {
      Kokkos::parallel_for(KE::with_accesses(Kokkos::RangePolicy<Space>(0, 1 + k % 8 + 8 * (k % 2)), KE::read_writes(y)),
                           KOKKOS_LAMBDA(int i) { y(i) += 1; });
    }
    EXPECT_EQ(KE::fusion_current_window_size(), 8);
  }
  EXPECT_EQ(KE::fusion_statistics().flush_count(FusionFlush::window_full), 3u + 4u);
  // Fixed size when switched off, and set_fusion_window_size restarts the adaptation.
  KE::set_fusion_adaptive_window(false);
  KE::set_fusion_window_size(20);
  EXPECT_EQ(KE::fusion_current_window_size(), 20);
  {
    KE::FusionScope scope;
    for (int k = 0; k < 45; ++k) bump();
    EXPECT_EQ(KE::fusion_pending_launches(), 5u);
  }
  EXPECT_EQ(KE::fusion_current_window_size(), 20);
  KE::set_fusion_adaptive_window(true);
  EXPECT_EQ(KE::fusion_current_window_size(), 20);
  KE::set_fusion_window_size(50);
  KE::set_fusion_adaptive_window(false);
}

}  // namespace

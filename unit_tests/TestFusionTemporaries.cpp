// Temporary elimination (impl/fusion/Kokkos_FusionTemporaries.hpp): a View created inside a window,
// written and last read inside one fused run, and dropped before the flush, is kept chunk-sized.
// Results are bitwise those of the materialised and of the unfused program; every condition
// that keeps a temporary materialised is checked; the peak resident memory shows it.
#include "FusionTestFixture.hpp"
#include "TestCommon.hpp"

#include <Kokkos_StdAlgorithms_Fused.hpp>

#include "../example/black_scholes.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using Arr = Kokkos::View<double*, Kokkos::HostSpace>;

template <class Space>
struct FusionTemporaries : Kokkos::Test::FusionFixture {
  void SetUp() override {
    FusionFixture::SetUp();
    KE::set_fusion_temporary_elimination(true);
    KE::set_fusion_temporary_bytes(0);  // every View created in a window is a candidate
  }
  void TearDown() override {
    KE::set_fusion_temporary_elimination(true);
    KE::set_fusion_temporary_bytes(256 * 1024);
    FusionFixture::TearDown();
  }
};
TYPED_TEST_SUITE(FusionTemporaries, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

struct Inputs {
  Arr a, b, out;
  explicit Inputs(std::int64_t n) : a("a", n), b("b", n), out("out", n) {
    for (std::int64_t i = 0; i < n; ++i) {
      a(i) = 0.5 + static_cast<double>(i % 97) / 7.0;
      b(i) = 1.0 / (1.0 + static_cast<double>(i % 13));
    }
  }
};

// out = (sqrt(a b + 1) * a + b) - (a b + 1) / 3, through three temporaries that die in the scope.
template <class Space>
void chain_with_three_temporaries(const Inputs& in) {
  Space space;
  const auto n = static_cast<std::int64_t>(in.a.extent(0));
  KE::FusionScope scope;
  Arr t1("t1", n), t2("t2", n), t3("t3", n);
  KE::transform(space, in.a, in.b, t1, KOKKOS_LAMBDA(double x, double y) { return x * y + 1.0; });
  KE::transform(space, t1, t2, KOKKOS_LAMBDA(double x) { return std::sqrt(x); });
  KE::transform(space, t2, in.a, in.b, t3, KOKKOS_LAMBDA(double x, double y, double z) { return x * y + z; });
  KE::transform(space, t3, t1, in.out, KOKKOS_LAMBDA(double x, double y) { return x - y / 3.0; });
  // t1, t2, t3 go out of scope before the window flushes at the end of `scope`.
}

std::vector<double> values(const Arr& v) { return {v.data(), v.data() + v.extent(0)}; }

void expect_same_bits(const std::vector<double>& x, const std::vector<double>& y) {
  ASSERT_EQ(x.size(), y.size());
  EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size() * sizeof(double)), 0);
}

TYPED_TEST(FusionTemporaries, ChainEliminatesItsTemporariesWithTheSameBits) {
  for (std::int64_t n : {1, 7, 2048, 100003, 1 << 20}) {
    SCOPED_TRACE(n);
    Inputs eliminated(n), materialised(n), unfused(n);
    KE::reset_fusion_statistics();
    chain_with_three_temporaries<TypeParam>(eliminated);
    const KE::FusionStatistics s = KE::fusion_statistics();
    EXPECT_EQ(s.temporaries_eliminated, 3u);
    EXPECT_EQ(s.temporary_bytes_eliminated, 3u * static_cast<std::uint64_t>(n) * sizeof(double));
    // Chunk-sized per worker: three temporaries of at most 2^16 indices... in practice 2048.
    EXPECT_GT(s.temporary_buffer_bytes, 0u);
    EXPECT_LE(s.temporary_buffer_bytes,
              static_cast<std::uint64_t>(TypeParam().concurrency()) * 3u * 4096u * sizeof(double));
    EXPECT_EQ(s.fused_launches, 1u);

    KE::set_fusion_temporary_elimination(false);
    KE::reset_fusion_statistics();
    chain_with_three_temporaries<TypeParam>(materialised);
    EXPECT_EQ(KE::fusion_statistics().temporaries_eliminated, 0u);
    KE::set_fusion_temporary_elimination(true);

    KE::set_fusion_enabled(false);
    chain_with_three_temporaries<TypeParam>(unfused);
    KE::set_fusion_enabled(true);

    expect_same_bits(values(eliminated.out), values(materialised.out));
    expect_same_bits(values(eliminated.out), values(unfused.out));
    for (std::int64_t i = 0; i < n; i += 977) {
      const double a = eliminated.a(i), b = eliminated.b(i), t1 = a * b + 1.0;
      EXPECT_EQ(eliminated.out(i), (std::sqrt(t1) * a + b) - t1 / 3.0);
    }
  }
}

// Seed 000 Listing 1 as NumPy runs it: its 13 intermediates (one of bytes) are created by the
// program and die in it; fused, they all vanish and the one launch computes the same bits.
TYPED_TEST(FusionTemporaries, BlackScholesWithTemporariesKeepsNoIntermediate) {
  using Problem = black_scholes::Problem<Kokkos::HostSpace>;
  for (std::int64_t n : {1, 1000, 65539}) {
    SCOPED_TRACE(n);
    Problem eliminated(n), unfused(n), loop(n);
    TypeParam space;
    KE::reset_fusion_statistics();
    {
      KE::FusionScope scope;
      black_scholes::black_scholes_with_temporaries(space, eliminated);
    }
    const KE::FusionStatistics s = KE::fusion_statistics();
    EXPECT_EQ(s.fused_launches, 1u);
    EXPECT_EQ(s.launches_fused, s.launches_recorded);
    EXPECT_EQ(s.temporaries_eliminated, static_cast<std::uint64_t>(black_scholes::Scratch<Kokkos::HostSpace>::arrays));
    EXPECT_EQ(s.temporary_bytes_eliminated, static_cast<std::uint64_t>(n) * (12 * sizeof(double) + 1));

    KE::set_fusion_enabled(false);
    black_scholes::black_scholes_with_temporaries(space, unfused);
    KE::set_fusion_enabled(true);
    black_scholes::black_scholes_single_loop(space, loop);
    space.fence();
    expect_same_bits(values(eliminated.call), values(unfused.call));
    expect_same_bits(values(eliminated.put), values(unfused.put));
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_NEAR(eliminated.call(i), loop.call(i), 1e-9 * (1 + std::fabs(loop.call(i)))) << i;
      ASSERT_NEAR(eliminated.put(i), loop.put(i), 1e-9 * (1 + std::fabs(loop.put(i)))) << i;
    }
  }
}

// Repeats the chain (a memoized window with new temporaries every time), eliminating them where
// eliminate(iteration) says so; checks the bits against the unfused chain as it goes.
template <class Space, class Eliminate>
KE::FusionStatistics repeated_chains(std::int64_t n, int repeats, const Eliminate& eliminate) {
  Inputs in(n), reference(n);
  KE::set_fusion_enabled(false);
  chain_with_three_temporaries<Space>(reference);
  KE::set_fusion_enabled(true);
  KE::reset_fusion_statistics();
  for (int it = 0; it < repeats; ++it) {
    KE::set_fusion_temporary_elimination(eliminate(it));
    chain_with_three_temporaries<Space>(in);
    if (it % 50 == 0) expect_same_bits(values(in.out), values(reference.out));
  }
  KE::set_fusion_temporary_elimination(true);
  expect_same_bits(values(in.out), values(reference.out));
  return KE::fusion_statistics();
}

// Every flush eliminates them, on every dispatch way the adaptive choice tries (never the
// unfused one, nor the long chunks).
TYPED_TEST(FusionTemporaries, RepeatedWindowsEliminateEveryTime) {
  constexpr int repeats = 300;
  const KE::FusionStatistics s = repeated_chains<TypeParam>(50000, repeats, [](int) { return true; });
  EXPECT_EQ(s.temporaries_eliminated, 3u * repeats);
  EXPECT_EQ(s.fused_runs_unfused, 0u);
  EXPECT_EQ(s.fused_long_chunks, 0u);
}

// The same window alternately eliminated and materialised: each learns its own dispatch (the
// materialised one may settle on the long chunks or the unfused way, which a run with chunk
// buffers must never take; valgrind and the address sanitizer build check the buffers' bounds).
TYPED_TEST(FusionTemporaries, AlternatingWithMaterialisedWindows) {
  constexpr int repeats = 400;
  const KE::FusionStatistics s = repeated_chains<TypeParam>(60000, repeats, [](int it) { return it % 2 == 0; });
  EXPECT_EQ(s.temporaries_eliminated, 3u * repeats / 2);
}

// Each case keeps its temporary materialised, and the results stay right.
TYPED_TEST(FusionTemporaries, KeptWhereTheConditionsFail) {
  TypeParam space;
  const std::int64_t n = 10000;
  Inputs in(n);
  const auto expect_kept = [&](const char* what, std::uint64_t eliminated) {
    SCOPED_TRACE(what);
    EXPECT_EQ(KE::fusion_statistics().temporaries_eliminated, eliminated);
    KE::reset_fusion_statistics();
  };
  KE::reset_fusion_statistics();

  {  // a handle outlives the flush: the host reads it afterwards
    Arr kept;
    {
      KE::FusionScope scope;
      Arr t("t", n);
      KE::transform(space, in.a, t, KOKKOS_LAMBDA(double x) { return 2 * x; });
      KE::transform(space, t, in.out, KOKKOS_LAMBDA(double x) { return x + 1; });
      kept = t;
    }
    for (std::int64_t i = 0; i < n; i += 101) EXPECT_EQ(kept(i), 2 * in.a(i));
    expect_kept("a handle survives", 0);
  }
  {  // a user lambda declares it: its Views cannot be moved
    {
      KE::FusionScope scope;
      Arr t("t", n);
      Arr a = in.a;
      Kokkos::parallel_for("user", KE::with_accesses(Kokkos::RangePolicy<TypeParam>(space, 0, n), KE::reads(a), KE::writes(t)),
                           KOKKOS_LAMBDA(std::int64_t i) { t(i) = 3 * a(i); });
      KE::transform(space, t, in.out, KOKKOS_LAMBDA(double x) { return x + 1; });
    }
    for (std::int64_t i = 0; i < n; i += 101) EXPECT_EQ(in.out(i), 3 * in.a(i) + 1);
    expect_kept("a user functor", 0);
  }
  {  // its first access reads it: axpby reads the zeros it was initialised with
    {
      KE::FusionScope scope;
      Arr t("t", n);
      KE::axpby(space, 2.0, in.a, 1.0, t);
      KE::transform(space, t, in.out, KOKKOS_LAMBDA(double x) { return x + 1; });
    }
    for (std::int64_t i = 0; i < n; i += 101) EXPECT_EQ(in.out(i), 2 * in.a(i) + 1);
    expect_kept("read before written", 0);
  }
  {  // two runs touch it: a launch over another range ends the first
    {
      KE::FusionScope scope;
      Arr t("t", n);
      KE::transform(space, in.a, t, KOKKOS_LAMBDA(double x) { return x - 1; });
      auto half = Kokkos::subview(in.b, Kokkos::pair<std::int64_t, std::int64_t>(0, n / 2));
      KE::scale(space, 1.0, half);
      KE::transform(space, t, in.out, KOKKOS_LAMBDA(double x) { return x * 4; });
    }
    for (std::int64_t i = 0; i < n; i += 101) EXPECT_EQ(in.out(i), (in.a(i) - 1) * 4);
    expect_kept("two runs", 0);
  }
  {  // created before the window opened: never reserved
    {
      Arr t("t", n);
      KE::FusionScope scope;
      KE::transform(space, in.a, t, KOKKOS_LAMBDA(double x) { return x + 5; });
      KE::transform(space, t, in.out, KOKKOS_LAMBDA(double x) { return x * 2; });
      t = Arr();
    }
    for (std::int64_t i = 0; i < n; i += 101) EXPECT_EQ(in.out(i), (in.a(i) + 5) * 2);
    expect_kept("created outside the window", 0);
  }
  {  // smaller than fusion_temporary_bytes()
    KE::set_fusion_temporary_bytes(static_cast<std::int64_t>(n * sizeof(double)) + 1);
    {
      KE::FusionScope scope;
      Arr t("t", n);
      KE::transform(space, in.a, t, KOKKOS_LAMBDA(double x) { return x + 6; });
      KE::transform(space, t, in.out, KOKKOS_LAMBDA(double x) { return x * 2; });
    }
    KE::set_fusion_temporary_bytes(0);
    for (std::int64_t i = 0; i < n; i += 101) EXPECT_EQ(in.out(i), (in.a(i) + 6) * 2);
    expect_kept("below the size threshold", 0);
  }
  {  // a reduction reads it: the reduction's argument holds it until the flush
    double sum = 0;
    {
      KE::FusionScope scope;
      Arr t("t", n);
      KE::transform(space, in.a, t, KOKKOS_LAMBDA(double x) { return x * 0.5; });
      sum = KE::sum(space, t);
    }
    double expected = 0;
    for (std::int64_t i = 0; i < n; ++i) expected += in.a(i) * 0.5;
    EXPECT_NEAR(sum, expected, 1e-9 * std::abs(expected));
    expect_kept("read by a reduction", 0);
  }
  {  // the same program with the conditions met: eliminated (the checks above can fail)
    {
      KE::FusionScope scope;
      Arr t("t", n);
      KE::transform(space, in.a, t, KOKKOS_LAMBDA(double x) { return x + 7; });
      KE::transform(space, t, in.out, KOKKOS_LAMBDA(double x) { return x * 2; });
    }
    for (std::int64_t i = 0; i < n; i += 101) EXPECT_EQ(in.out(i), (in.a(i) + 7) * 2);
    expect_kept("conditions met", 1);
  }
}

// A temporary run ending in a reduction, and two independent chains with temporaries that a
// concurrent flush runs side by side: still eliminated, still the same bits.
TYPED_TEST(FusionTemporaries, RunsEndingInAReductionAndConcurrentWaves) {
  TypeParam space;
  const std::int64_t n = 30000;
  Inputs in(n);
  const auto program = [&](Arr x, Arr y) {
    double dot = 0;
    KE::FusionScope scope;
    {
      Arr t("t", n), u("u", n);
      KE::transform(space, in.a, t, KOKKOS_LAMBDA(double v) { return v * v; });
      KE::transform(space, in.b, u, KOKKOS_LAMBDA(double v) { return v + 2; });
      KE::transform(space, t, x, KOKKOS_LAMBDA(double v) { return v - 1; });
      KE::transform(space, u, y, KOKKOS_LAMBDA(double v) { return v / 3; });
    }
    dot = KE::dot(space, x, y);
    return dot;
  };
  Arr x0("x0", n), y0("y0", n), x1("x1", n), y1("y1", n);
  KE::set_fusion_enabled(false);
  const double reference = program(x0, y0);
  KE::set_fusion_enabled(true);
  for (auto mode : {KE::FusionConcurrentFlush::off, KE::FusionConcurrentFlush::always}) {
    KE::set_fusion_concurrent_flush(mode);
    KE::reset_fusion_statistics();
    const double dot = program(x1, y1);
    EXPECT_EQ(KE::fusion_statistics().temporaries_eliminated, 2u);
    EXPECT_EQ(std::memcmp(&dot, &reference, sizeof dot), 0);
    expect_same_bits(values(x1), values(x0));
    expect_same_bits(values(y1), values(y0));
  }
  KE::set_fusion_concurrent_flush(KE::FusionConcurrentFlush::measured);
}

// The resident memory shows it: reset the peak (Linux: /proc/self/clear_refs), run the chain at
// n = 4M (three 32 MiB temporaries), read the peak back.
std::int64_t peak_resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6));
  }
  return -1;
}
bool reset_peak_resident() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

// The sanitizers' runtimes map shadow memory for every new mapping: there the resident set
// measures them, not the program.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define KDAG_TEST_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define KDAG_TEST_UNDER_SANITIZER 1
#endif
#endif

TEST(FusionTemporariesMemory, PeakResidentMemoryStaysChunkSized) {
#if defined(KDAG_TEST_UNDER_SANITIZER)
  GTEST_SKIP() << "a sanitizer's shadow memory for new mappings shows in the resident set";
#endif
  using Space = Kokkos::DefaultHostExecutionSpace;
  const std::int64_t n = std::int64_t(1) << 22;
  const std::int64_t temporary_kib = n * static_cast<std::int64_t>(sizeof(double)) / 1024;
  KE::set_fusion_enabled(true);
  KE::set_fusion_temporary_elimination(true);
  Inputs in(n);
  for (std::int64_t i = 0; i < n; ++i) in.out(i) = 0;  // resident before the measurement
  if (!reset_peak_resident() || peak_resident_kib() < 0) GTEST_SKIP() << "/proc/self/clear_refs is not writable here";

  const std::int64_t before = peak_resident_kib();
  KE::reset_fusion_statistics();
  chain_with_three_temporaries<Space>(in);
  const std::int64_t eliminated_growth = peak_resident_kib() - before;
  EXPECT_EQ(KE::fusion_statistics().temporaries_eliminated, 3u);
  // The chunk buffers and allocator slack: far below one temporary.
  EXPECT_LT(eliminated_growth, temporary_kib / 4) << "peak grew by " << eliminated_growth << " KiB";

  // The same chain materialised: the measurement sees the three temporaries.
  KE::set_fusion_temporary_elimination(false);
  ASSERT_TRUE(reset_peak_resident());
  const std::int64_t before_materialised = peak_resident_kib();
  chain_with_three_temporaries<Space>(in);
  const std::int64_t materialised_growth = peak_resident_kib() - before_materialised;
  KE::set_fusion_temporary_elimination(true);
  EXPECT_GT(materialised_growth, 2 * temporary_kib) << "peak grew by " << materialised_growth << " KiB";
}

TEST(FusionTemporariesSettings, RejectNegativeSizes) {
  EXPECT_THROW(KE::set_fusion_temporary_bytes(-1), std::runtime_error);
  const std::int64_t before = KE::fusion_temporary_bytes();
  KE::set_fusion_temporary_bytes(12345);
  EXPECT_EQ(KE::fusion_temporary_bytes(), 12345);
  KE::set_fusion_temporary_bytes(before);
  const bool on = KE::fusion_temporary_elimination();
  KE::set_fusion_temporary_elimination(!on);
  EXPECT_EQ(KE::fusion_temporary_elimination(), !on);
  KE::set_fusion_temporary_elimination(on);
}

// A reserved View created in a window and kept is an ordinary View: zero-initialised, writable
// on the host, and its memory reused zeroed once given back.
TEST(FusionTemporariesSettings, ReservedViewsAreOrdinaryViews) {
  KE::set_fusion_temporary_bytes(0);
  for (int round = 0; round < 3; ++round) {
    Arr kept;
    {
      KE::FusionScope scope;
      kept = Arr("kept", 100000);
    }
    for (std::int64_t i = 0; i < 100000; i += 999) {
      ASSERT_EQ(kept(i), 0.0);
      kept(i) = 1.0 + i;
    }
    Kokkos::View<int*, Kokkos::HostSpace> no_init;
    {
      KE::FusionScope scope;
      no_init = Kokkos::View<int*, Kokkos::HostSpace>(Kokkos::view_alloc("no_init", Kokkos::WithoutInitializing), 5000);
    }
    no_init(4999) = 7;
    EXPECT_EQ(no_init(4999), 7);
  }
  KE::set_fusion_temporary_bytes(256 * 1024);
}

// A reserved View made on one thread and freed on another; its mapping, written, comes back zeroed.
TEST(FusionTemporariesSettings, ReservedViewsMayBeFreedOnAnotherThread) {
  KE::set_fusion_temporary_bytes(0);
  const std::int64_t n = 300000;
  for (int round = 0; round < 3; ++round) {
    Arr made;
    std::thread([&] {
      KE::FusionScope scope;
      made = Arr("made", n);
      made(n - 1) = 4.0;
    }).join();
    EXPECT_EQ(made(n - 1), 4.0);
    made = Arr();
    KE::FusionScope scope;
    Arr again("again", n);
    EXPECT_EQ(again(n - 1), 0.0);
    EXPECT_EQ(again(0), 0.0);
  }
  KE::set_fusion_temporary_bytes(256 * 1024);
}


// The rebasing primitive a fused run uses for each chunk: a copy of the functor whose Views into
// the temporaries (all, or those of a mask, as a fused Cuda kernel passes) point at the chunk's
// slice of the worker's buffer; its other members, and the functor it was copied from, stay.
struct HoldsTwoViewsAndAScalar {
  Arr first, second;
  double scale = 2.0;
  auto impl_fusion_members() { return std::tie(first, scale, second); }
};
TEST(FusionTemporariesRebase, MovesTheViewsIntoTheTemporariesOntoTheChunk) {
  using Kokkos::Impl::FusionRebase;
  using Kokkos::Impl::FusionTemporary;
  const std::int64_t n = 64, chunk = 8, chunk_begin = 24;
  const Arr t0("t0", n), t1("t1", n), other("other", n);
  // t1 is declared from index 4 on (offset), one double an index; the chunks of each lie one
  // after the other in the buffer.
  const std::array<FusionTemporary, 2> temporaries{
      FusionTemporary{t0.impl_allocation_base(), 0, sizeof(double), 0, n * 8},
      FusionTemporary{t1.impl_allocation_base(), 4 * sizeof(double), sizeof(double), chunk * sizeof(double), n * 8}};
  alignas(16) std::byte buffer[2 * chunk * sizeof(double)];
  const FusionRebase rebase{temporaries.data(), 2, buffer};
  const auto* chunk_of_t0 = reinterpret_cast<const double*>(buffer);
  const auto* chunk_of_t1 = reinterpret_cast<const double*>(buffer) + chunk;
  // Launch index i reads t0(i) and t1(i + 4): at the chunk's first index, the buffer's first slot.
  const auto at_chunk_begin = [&](const Arr& v, std::int64_t first_declared) {
    return v.data() + chunk_begin + first_declared;
  };

  const HoldsTwoViewsAndAScalar kept{t0, t1};
  int calls = 0;
  Kokkos::Impl::with_rebased_functor_copy(kept, rebase, chunk_begin, [&](const HoldsTwoViewsAndAScalar& f) {
    ++calls;
    EXPECT_EQ(at_chunk_begin(f.first, 0), chunk_of_t0);
    EXPECT_EQ(at_chunk_begin(f.second, 4), chunk_of_t1);
    EXPECT_EQ(f.first.extent(0), static_cast<std::size_t>(n)) << "only the address moves";
    EXPECT_EQ(f.scale, 2.0);
  });
  const HoldsTwoViewsAndAScalar swapped{t1, other};
  for (const std::uint32_t mask : {0b00u, 0b01u, 0b10u, 0b11u}) {
    SCOPED_TRACE(mask);
    Kokkos::Impl::with_rebased_functor_copy(
        kept, rebase, chunk_begin,
        [&](const HoldsTwoViewsAndAScalar& f) {
          ++calls;
          EXPECT_EQ(at_chunk_begin(f.first, 0) == chunk_of_t0, (mask & 1u) != 0);
          EXPECT_EQ(at_chunk_begin(f.second, 4) == chunk_of_t1, (mask & 2u) != 0);
          if ((mask & 1u) == 0) {
            EXPECT_EQ(f.first.data(), t0.data());
          }
          if ((mask & 2u) == 0) {
            EXPECT_EQ(f.second.data(), t1.data());
          }
        },
        mask);
    // A View of no temporary never moves; one of a temporary moves wherever it sits.
    Kokkos::Impl::with_rebased_functor_copy(
        swapped, rebase, chunk_begin,
        [&](const HoldsTwoViewsAndAScalar& f) {
          ++calls;
          EXPECT_EQ(at_chunk_begin(f.first, 4) == chunk_of_t1, (mask & 2u) != 0);
          EXPECT_EQ(f.second.data(), other.data());
        },
        mask);
  }
  EXPECT_EQ(calls, 9);
  EXPECT_EQ(kept.first.data(), t0.data()) << "the kept functor is not touched";
  EXPECT_EQ(kept.second.data(), t1.data());
}

}  // namespace

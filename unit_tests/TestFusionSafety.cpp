// Wrong access declarations are caught: an undeclared capture (KOKKOS_FUSION_CHECK) and, in
// verify mode (KOKKOS_FUSION_VERIFY), a write through a read declaration, a shifted read
// declared point-wise, a scatter declared as a point-wise write and a reduction that fusion
// changes.  Each wrong program is also run with the check off, to show that it then silently
// computes something else than KOKKOS_FUSION=0: the check is what catches it.
//
// The programs run on Serial: one thread makes the wrong fused result deterministic (and keeps
// the races a wrong declaration causes between workers out of ThreadSanitizer's runs).
#include "FusionTestFixture.hpp"
#include "GTestExtendedLambda.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_DualView.hpp>
#include <Kokkos_Fusion.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <utility>

#if defined(KOKKOS_ENABLE_SERIAL)
namespace {

namespace KE = Kokkos::Experimental;
using Space = Kokkos::Serial;
using V = Kokkos::View<double*, Kokkos::HostSpace>;
using Policy = Kokkos::RangePolicy<Space>;
constexpr int n = 20000;  // several chunks of a fused run

struct FusionSafety : Kokkos::Test::FusionFixture {
  void SetUp() override {
    Kokkos::Test::FusionFixture::SetUp();
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    KE::set_fusion_check(false);
    KE::set_fusion_verify(false);
  }
  void TearDown() override {
    KE::set_fusion_check(false);
    KE::set_fusion_verify(false);
    Kokkos::Test::FusionFixture::TearDown();
  }
};

// Runs `program` fused and unfused (KOKKOS_FUSION=0) and returns whether `out` came out the same.
template <class Program>
bool fused_equals_unfused(const V& out, const Program& program) {
  KE::set_fusion_enabled(false);
  program();
  Kokkos::fence();
  const auto unfused = Kokkos::create_mirror(out);
  Kokkos::deep_copy(unfused, out);
  KE::set_fusion_enabled(true);
  {
    KE::FusionScope scope;
    program();
  }
  for (int i = 0; i < static_cast<int>(out.extent(0)); ++i) {
    if (out(i) != unfused(i)) return false;
  }
  return true;
}

// Runs `program` inside a FusionScope in a child process, which must stop with `message`.
template <class Program>
void expect_stops(const Program& program, const char* message) {
  EXPECT_DEATH(
      {
        KE::FusionScope scope;
        program();
      },
      message);
}

// ---- undeclared captures ---------------------------------------------------------------------

// "mirror" reads y at n-1-i, but declares only its output: fusion runs it before "fill" has
// written the y it reads.  Reversed reads cannot be declared point-wise: the correct program
// launches "mirror" without declarations (it then runs after everything recorded before it).
void undeclared_program(const V& y, const V& z, bool correct) {
  Kokkos::deep_copy(y, 0.0);
  Kokkos::parallel_for("fill", KE::with_accesses(Policy(0, n), KE::writes(y)), KOKKOS_LAMBDA(int i) { y(i) = i + 1; });
  const auto mirror = KOKKOS_LAMBDA(int i) { z(i) = y(n - 1 - i); };
  if (correct) {
    Kokkos::parallel_for("mirror", Policy(0, n), mirror);
  } else {
    Kokkos::parallel_for("mirror", KE::with_accesses(Policy(0, n), KE::writes(z)), mirror);
  }
}

TEST_F(FusionSafety, UndeclaredCaptureStopsNamingTheLaunchAndTheView) {
  V y("undeclared_y", n), z("z", n);
  KE::set_fusion_check(true);
  EXPECT_TRUE(KE::fusion_check());
  expect_stops([&] { undeclared_program(y, z, false); },
      "Kokkos::parallel_for\\('mirror'\\): its functor captures View 'undeclared_y', which none of the launch's "
      "declared accesses names.*KOKKOS_FUSION_CHECK");
}

TEST_F(FusionSafety, UndeclaredCaptureWithTheCheckOffComputesSomethingElse) {
  V y("undeclared_y", n), z("z", n);
  EXPECT_FALSE(KE::fusion_check());
  EXPECT_FALSE(fused_equals_unfused(z, [&] { undeclared_program(y, z, false); }));
  // Launched without declarations, the same program runs correctly, under the check too.
  KE::set_fusion_check(true);
  EXPECT_TRUE(fused_equals_unfused(z, [&] { undeclared_program(y, z, true); }));
}

struct Inner {
  V hidden;
};
struct NestedFunctor {
  V out;
  Inner inner;
  KOKKOS_FUNCTION void operator()(int i) const { out(i) = inner.hidden(i); }
};

TEST_F(FusionSafety, CapturesAreFoundInsideNestedMembersAndContainers) {
  V out("out", 10), hidden("nested_hidden", 10);
  KE::set_fusion_check(true);
  EXPECT_DEATH(
      {
        KE::FusionScope scope;
        Kokkos::parallel_for("nested", KE::with_accesses(Policy(0, 10), KE::writes(out)), NestedFunctor{out, {hidden}});
      },
      "'nested'.*captures View 'nested_hidden'");
  // A container captures its own Views too (a DualView its modified flags): capture the View
  // the body uses (dual.view_host()), not the container.
  Kokkos::DualView<double*, Kokkos::HostSpace> dual("dual_in_functor", 10);
  EXPECT_DEATH(
      {
        KE::FusionScope scope;
        Kokkos::parallel_for("dual", KE::with_accesses(Policy(0, 10), KE::writes(out), KE::reads(dual.view_host())),
                             KOKKOS_LAMBDA(int i) { out(i) = dual.view_host()(i); });
      },
      "'dual'.*captures View 'DualView::modified_flags'");
  EXPECT_DEATH(
      {
        KE::FusionScope scope;
        double total = 0;
        Kokkos::parallel_for("fill", KE::with_accesses(Policy(0, 10), KE::writes(out)), KOKKOS_LAMBDA(int i) { out(i) = i; });
        Kokkos::parallel_reduce("sum_hidden", KE::with_accesses(Policy(0, 10), KE::reads(out)),
                                KOKKOS_LAMBDA(int i, double& s) { s += out(i) + hidden(i); }, total);
        std::printf("%g\n", total);
      },
      "Kokkos::parallel_reduce\\('sum_hidden'\\).*captures View 'nested_hidden'");
}

TEST_F(FusionSafety, DeclaredSubviewsAndUnmanagedViewsPassTheCheck) {
  V x("x", 100), y("y", 100);
  KE::set_fusion_check(true);
  // A declared subview names its allocation: capturing the whole View is the same allocation.
  auto head = Kokkos::subview(x, Kokkos::pair<int, int>(0, 50));
  double buffer[100] = {};
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> raw(buffer, 100);
  {
    KE::FusionScope scope;
    Kokkos::parallel_for("fill", KE::with_accesses(Policy(0, 100), KE::writes(x)), KOKKOS_LAMBDA(int i) { x(i) = i; });
    Kokkos::parallel_for("head", KE::with_accesses(Policy(0, 50), KE::reads(head), KE::writes(y)),
                         KOKKOS_LAMBDA(int i) { y(i) = x(i); });
    // The check cannot see unmanaged Views (no allocation record): the README says so.
    Kokkos::parallel_for("raw", KE::with_accesses(Policy(0, 100), KE::reads(x)),
                         KOKKOS_LAMBDA(int i) { raw(i) = x(i); });
  }
  EXPECT_EQ(y(49), 49.0);
  EXPECT_EQ(buffer[99], 99.0);
}

// ---- verify mode ----------------------------------------------------------------------------

// "scale" declares x read but writes it.
void write_through_read_program(const V& x, const V& y) {
  Kokkos::parallel_for("scale", KE::with_accesses(Policy(0, n), KE::reads(x), KE::writes(y)), KOKKOS_LAMBDA(int i) {
    y(i) = x(i);
    x(i) = 0;
  });
}

TEST_F(FusionSafety, VerifyStopsAWriteThroughAReadDeclaration) {
  V x("written_x", n), y("y", n);
  Kokkos::deep_copy(x, 1.0);
  KE::set_fusion_verify(true);
  EXPECT_TRUE(KE::fusion_verify());
  EXPECT_TRUE(KE::fusion_check());  // verify mode checks captures too
  expect_stops([&] { write_through_read_program(x, y); },
      "launch 0 'scale' declares View 'written_x' read-only \\(reads\\) but changed it.*KOKKOS_FUSION_VERIFY");
  KE::set_fusion_verify(false);
  {
    KE::FusionScope scope;
    write_through_read_program(x, y);
  }  // runs without a word
  EXPECT_EQ(x(5), 0.0);
}

// "smooth" reads x(i+1) through a point-wise declaration of x.
void shifted_read_program(const V& x, const V& y, bool declare_shift) {
  Kokkos::deep_copy(x, 0.0);
  Kokkos::parallel_for("fill", KE::with_accesses(Policy(0, n - 1), KE::writes(x)), KOKKOS_LAMBDA(int i) { x(i) = i + 1; });
  const auto smooth = KOKKOS_LAMBDA(int i) { y(i) = x(i) + x(i + 1); };
  if (declare_shift) {
    auto east = Kokkos::subview(x, Kokkos::pair<int, int>(1, n));
    Kokkos::parallel_for("smooth", KE::with_accesses(Policy(0, n - 1), KE::reads(x), KE::reads(east), KE::writes(y)),
                         smooth);
  } else {
    Kokkos::parallel_for("smooth", KE::with_accesses(Policy(0, n - 1), KE::reads(x), KE::writes(y)), smooth);
  }
}

TEST_F(FusionSafety, VerifyNamesAShiftedReadDeclaredPointwise) {
  V x("x", n), y("smoothed_y", n);
  KE::set_fusion_verify(true);
  expect_stops([&] { shifted_read_program(x, y, false); },
      "differ first at View 'smoothed_y' at index [0-9]+, written by launch 1 'smooth'\\..*Most likely wrong: launch 1 "
      "'smooth' reads View 'x' through a point-wise declaration while launch 0 'fill' of the same fused run writes "
      "it.*declare the shifted subview.*KOKKOS_FUSION_VERIFY");
  // The declared shift fuses correctly under verify.
  EXPECT_TRUE(fused_equals_unfused(y, [&] { shifted_read_program(x, y, true); }));
  EXPECT_GT(KE::fusion_statistics().launches_recorded, 0u);
}

TEST_F(FusionSafety, ShiftedReadWithVerifyOffComputesSomethingElse) {
  V x("x", n), y("y", n);
  EXPECT_FALSE(fused_equals_unfused(y, [&] { shifted_read_program(x, y, false); }));
}

// "bin" scatters into h with atomics (a histogram) but declares a point-wise write; "spread"
// reads h point-wise in the same fused run, before every bin is complete.
void scatter_program(const Kokkos::View<int*, Kokkos::HostSpace>& h, const V& z, bool declare_reduction) {
  Kokkos::deep_copy(h, 0);
  const auto bin = KOKKOS_LAMBDA(int i) { Kokkos::atomic_add(&h(i % 16), 1); };
  if (declare_reduction) {
    Kokkos::parallel_for("bin", KE::with_accesses(Policy(0, n), KE::reduces(h)), bin);
  } else {
    Kokkos::parallel_for("bin", KE::with_accesses(Policy(0, n), KE::writes(h)), bin);
  }
  Kokkos::parallel_for("spread", KE::with_accesses(Policy(0, n), KE::reads(h), KE::writes(z)),
                       KOKKOS_LAMBDA(int i) { z(i) = h(i); });
}

TEST_F(FusionSafety, VerifyNamesAScatterDeclaredAsAPointwiseWrite) {
  Kokkos::View<int*, Kokkos::HostSpace> h("histogram", n);
  V z("spread_z", n);
  KE::set_fusion_verify(true);
  expect_stops([&] { scatter_program(h, z, false); },
      "differ first at View 'spread_z' at index 0, written by launch 1 'spread'\\..*launch 1 'spread' reads View "
      "'histogram' through a point-wise declaration while launch 0 'bin' of the same fused run writes it.*declare "
      "reduces");
  EXPECT_TRUE(fused_equals_unfused(z, [&] { scatter_program(h, z, true); }));
  KE::set_fusion_verify(false);
  EXPECT_FALSE(fused_equals_unfused(z, [&] { scatter_program(h, z, false); }));
}

TEST_F(FusionSafety, VerifyComparesReductionResults) {
  V x("x", n);
  KE::set_fusion_verify(true);
  EXPECT_DEATH(
      {
        KE::FusionScope scope;
        Kokkos::parallel_for("fill", KE::with_accesses(Policy(0, n - 1), KE::writes(x)), KOKKOS_LAMBDA(int i) { x(i) = 1; });
        double sum = 0;
        Kokkos::parallel_reduce("sum_next", KE::with_accesses(Policy(0, n - 1), KE::reads(x)),
                                KOKKOS_LAMBDA(int i, double& s) { s += x(i + 1); }, sum);
        std::printf("%g\n", sum);
      },
      "the reduction of launch 1 'sum_next' gives a different result fused than unfused\\..*launch 1 'sum_next' reads "
      "View 'x' through a point-wise declaration while launch 0 'fill'");
}

TEST_F(FusionSafety, CorrectProgramsRunUnderVerifyWithTheirResultsAndFusion) {
  V a("a", n), b("b", n), c("c", n);
  KE::set_fusion_verify(true);
  double dot = 0;
  for (int iteration = 0; iteration < 3; ++iteration) {  // memoized windows, adaptive dispatch
    KE::FusionScope scope;
    Kokkos::parallel_for("a", KE::with_accesses(Policy(0, n), KE::writes(a)), KOKKOS_LAMBDA(int i) { a(i) = 0.5 * i; });
    Kokkos::parallel_for("b", KE::with_accesses(Policy(0, n), KE::reads(a), KE::writes(b)),
                         KOKKOS_LAMBDA(int i) { b(i) = a(i) + 1; });
    Kokkos::parallel_for("c", KE::with_accesses(Policy(0, n), KE::reads(a), KE::reads(b), KE::read_writes(c)),
                         KOKKOS_LAMBDA(int i) { c(i) += a(i) * b(i); });
    Kokkos::parallel_reduce("dot", KE::with_accesses(Policy(0, n), KE::reads(c)),
                            KOKKOS_LAMBDA(int i, double& s) { s += c(i); }, dot);
  }
  double expected = 0;
  for (int i = 0; i < n; ++i) expected += 3 * (0.5 * i) * (0.5 * i + 1);
  EXPECT_DOUBLE_EQ(dot, expected);
  EXPECT_EQ(c(10), 3 * 5.0 * 6.0);  // read_writes ran once per iteration, not twice
  const auto stats = KE::fusion_statistics();
  EXPECT_EQ(stats.launches_recorded, 12u);
  EXPECT_GE(stats.launches_fused, 8u);
}

TEST_F(FusionSafety, SettersOverrideTheEnvironmentAndVerifyImpliesTheCheck) {
  KE::set_fusion_check(true);
  EXPECT_TRUE(KE::fusion_check());
  KE::set_fusion_check(false);
  EXPECT_FALSE(KE::fusion_check());
  KE::set_fusion_verify(true);
  EXPECT_TRUE(KE::fusion_check());
  KE::set_fusion_verify(false);
  EXPECT_FALSE(KE::fusion_verify());
  EXPECT_FALSE(KE::fusion_check());
}

}  // namespace
#endif

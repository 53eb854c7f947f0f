// Fusion on Kokkos::Cuda (Cuda/Kokkos_Cuda_Fusion.hpp): recorded launches with declared
// accesses run as one kernel per fused run, bitwise equal to the unfused launches; a run whose
// launches come from two translation units (FusionCudaSecondUnit.cpp) splits at the boundary;
// memoized windows replay as CUDA graphs; a HostSpace View declared or captured on Cuda stops at
// record time.  Without a visible GPU the device tests skip, naming why; the HostSpace checks
// and the tile-shape rule need no GPU and always run.
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>
#include <Kokkos_StdAlgorithms_Fused.hpp>

#include "FusionTestFixture.hpp"
#include "TestCommon.hpp"

#include "../example/black_scholes.hpp"

#if defined(KOKKOS_ENABLE_CUDA)

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

// FusionCudaSecondUnit.cpp: y(i) = alpha * x(i) + y(i), recorded in that translation unit.
void fusion_cuda_second_unit_axpy(const Kokkos::View<double*, Kokkos::CudaSpace>& x,
                                  const Kokkos::View<double*, Kokkos::CudaSpace>& y, double alpha);

namespace {

namespace KE = Kokkos::Experimental;
using Cuda = Kokkos::Cuda;
using DeviceView = Kokkos::View<double*, Kokkos::CudaSpace>;
using Policy = Kokkos::RangePolicy<Cuda>;

// The default fused way for every memoized window: these tests check how it runs (kernels,
// graphs, counts); the tests of the measured choice between ways turn adaptive dispatch on.
struct FusionCuda : Kokkos::Test::FusionFixture {
  void SetUp() override {
    FusionFixture::SetUp();
    KE::set_fusion_adaptive_dispatch(false);
  }
  void TearDown() override {
    KE::set_fusion_adaptive_dispatch(true);
    FusionFixture::TearDown();
  }
};
// Temporary elimination on, every View created in a window a candidate.
struct FusionCudaTemporaries : FusionCuda {
  void SetUp() override {
    FusionCuda::SetUp();
    KE::set_fusion_temporary_elimination(true);
    KE::set_fusion_temporary_bytes(0);
  }
  void TearDown() override {
    KE::set_fusion_temporary_bytes(256 * 1024);
    FusionCuda::TearDown();
  }
};

std::vector<double> to_host(const DeviceView& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<double>(h.data(), h.data() + h.extent(0));
}

void expect_bitwise_equal(const std::vector<double>& a, const std::vector<double>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(std::memcmp(&a[i], &b[i], sizeof(double)), 0) << what << ": index " << i << " " << a[i] << " vs " << b[i];
  }
}

// Runs `program(fused)` unfused, then fused from fresh statistics; expects the same bits and
// returns the fused run's statistics.
template <class Program>
KE::FusionStatistics expect_fused_as_unfused(const Program& program, const std::string& what) {
  const std::vector<double> unfused = program(false);
  KE::reset_fusion_statistics();
  const std::vector<double> fused = program(true);
  expect_bitwise_equal(fused, unfused, what);
  return KE::fusion_statistics();
}

DeviceView filled(const std::string& label, long n, double scale) {
  DeviceView v(label, n);
  Kokkos::parallel_for("fill", Policy(0, n), KOKKOS_LAMBDA(long i) { v(i) = scale * std::sin(0.001 * i + scale); });
  return v;
}

// ---- the HostSpace check -----------------------------------------------------------------------

void expect_host_space_message(const std::string& what, const char* pattern, const char* view) {
  EXPECT_NE(what.find(view), std::string::npos) << what;
  EXPECT_NE(what.find("'copy_in'"), std::string::npos) << what;
  EXPECT_NE(what.find(pattern), std::string::npos) << what;
  EXPECT_NE(what.find("HostSpace"), std::string::npos) << what;
}

// The record-time check itself, which needs no GPU (a Cuda policy does: without a GPU the first
// Kokkos::Cuda instance throws, so the front-end test below skips there).
TEST_F(FusionCuda, RecordCheckRefusesHostSpaceViews) {
  Kokkos::View<double*, Kokkos::HostSpace> host("host_input", 16);
  double storage[16] = {};
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> unmanaged(storage, 16);
  Kokkos::View<double*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged> device(storage, 16);  // never dereferenced
  const std::string label = "copy_in";
  Kokkos::Impl::t_fusion_hooks.issuing_label = &label;
  const auto check = [](const auto& decls) { Kokkos::Impl::fusion_check_cuda_accessible(decls, "Kokkos::parallel_for"); };
  EXPECT_NO_THROW(check(std::array{KE::reads(device).impl_decl(), KE::writes(device).impl_decl()}));
  try {
    check(std::array{KE::reads(device).impl_decl(), KE::reads(host).impl_decl()});
    ADD_FAILURE() << "a HostSpace View passed the check";
  } catch (const std::runtime_error& e) {
    expect_host_space_message(e.what(), "Kokkos::parallel_for", "'host_input'");
  }
  try {
    check(std::array{KE::writes(unmanaged).impl_decl()});
    ADD_FAILURE() << "an unmanaged HostSpace View passed the check";
  } catch (const std::runtime_error& e) {
    expect_host_space_message(e.what(), "Kokkos::parallel_for", "(unmanaged)");
  }
  Kokkos::Impl::t_fusion_hooks.issuing_label = nullptr;
}

// A functor holding a HostSpace View, one level down.
struct HoldsHostView {
  struct Inner {
    Kokkos::Array<double, 2> weights;
    Kokkos::View<const double*, Kokkos::HostSpace> table;
  } inner;
  Kokkos::View<double*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged> out;
  void operator()(long i) const { out(i) = inner.weights[0] * inner.table(i); }
};

// The capture check, which needs no GPU either: a copy of the functor meets every View it holds.
TEST_F(FusionCuda, CaptureCheckRefusesHostSpaceViews) {
  Kokkos::View<double*, Kokkos::HostSpace> host("captured_host", 16);
  double storage[16] = {};
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> unmanaged(storage, 16);
  Kokkos::View<double*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged> device(storage, 16);    // never dereferenced
  Kokkos::View<double*, Kokkos::CudaUVMSpace, Kokkos::MemoryUnmanaged> shared(storage, 16);  // nor this
  const std::string label = "copy_in";
  Kokkos::Impl::t_fusion_hooks.issuing_label = &label;
  const auto check = [](const auto& functor) {
    Kokkos::Impl::fusion_check_cuda_captures(functor, std::array<Kokkos::Impl::FusionAccessDecl, 0>{},
                                             "Kokkos::parallel_for");
  };
  const auto expect_refused = [&](const auto& functor, const char* view) {
    try {
      check(functor);
      ADD_FAILURE() << "a functor capturing HostSpace View " << view << " passed the check";
    } catch (const std::runtime_error& e) {
      expect_host_space_message(e.what(), "Kokkos::parallel_for", view);
      EXPECT_NE(std::string(e.what()).find("captures"), std::string::npos) << e.what();
    }
  };
  EXPECT_NO_THROW(check([=](long i) { device(i) = shared(i); }));
  EXPECT_NO_THROW(check([](long) {}));
  const long count_before = host.use_count();
  expect_refused([=](long i) { device(i) = host(i); }, "'captured_host'");
  expect_refused([=](long i) { device(i) = unmanaged(i); }, "(unmanaged)");
  expect_refused(HoldsHostView{{{1.0, 2.0}, host}, device}, "'captured_host'");
  // The check's copy is untracked, and its watch ends with it.
  EXPECT_EQ(host.use_count(), count_before);
  EXPECT_EQ(Kokkos::Impl::t_view_capture_watch, nullptr);
  Kokkos::Impl::t_fusion_hooks.issuing_label = nullptr;
}

// Through the front ends: inside a window nothing is recorded; outside one nothing runs.
TEST_F(FusionCuda, HostSpaceViewStopsAtRecordTime) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  Kokkos::View<double*, Kokkos::HostSpace> host("host_input", 16);
  {
    KE::FusionScope scope;
    try {
      Kokkos::parallel_for("copy_in", KE::with_accesses(Policy(0, 16), KE::reads(host)), KOKKOS_LAMBDA(long) {});
      ADD_FAILURE() << "a HostSpace View declared on Cuda was recorded";
    } catch (const std::runtime_error& e) {
      expect_host_space_message(e.what(), "Kokkos::parallel_for", "'host_input'");
    }
    EXPECT_EQ(KE::fusion_pending_launches(), 0u);
    // Declared on the device, captured from the host: refused the same way.
    DeviceView device("device_output", 16);
    try {
      Kokkos::parallel_for("copy_in", KE::with_accesses(Policy(0, 16), KE::writes(device)),
                           KOKKOS_LAMBDA(long i) { device(i) = host(i); });
      ADD_FAILURE() << "a HostSpace View captured on Cuda was recorded";
    } catch (const std::runtime_error& e) {
      expect_host_space_message(e.what(), "Kokkos::parallel_for", "'host_input'");
    }
    EXPECT_EQ(KE::fusion_pending_launches(), 0u);
  }
  try {
    double sum = 0;
    Kokkos::parallel_reduce("copy_in", KE::with_accesses(Policy(0, 16), KE::reads(host)),
                            KOKKOS_LAMBDA(long, double&) {}, sum);
    ADD_FAILURE() << "a HostSpace View declared on Cuda was run";
  } catch (const std::runtime_error& e) {
    expect_host_space_message(e.what(), "Kokkos::parallel_reduce", "'host_input'");
  }
  EXPECT_EQ(KE::fusion_statistics().launches_recorded, 0u);
}

// ---- the fused kernel's tile shape (needs no GPU) ------------------------------------------------

// One index a thread until the range gives every resident thread one, then n / resident up to
// the most a tile takes; never fewer than one, whatever the range or the device reports.
TEST_F(FusionCuda, IndicesPerThreadFillTheDeviceFirst) {
  using Kokkos::Impl::cuda_fused_indices_per_thread;
  constexpr int most = Kokkos::Impl::cuda_fused_max_indices_per_thread;
  constexpr long long resident = 132LL * 4 * 256;
  EXPECT_EQ(cuda_fused_indices_per_thread(1, resident), 1);
  EXPECT_EQ(cuda_fused_indices_per_thread(100000, resident), 1);
  EXPECT_EQ(cuda_fused_indices_per_thread(resident - 1, resident), 1);
  EXPECT_EQ(cuda_fused_indices_per_thread(resident, resident), 1);
  EXPECT_EQ(cuda_fused_indices_per_thread(2 * resident - 1, resident), 1);
  EXPECT_EQ(cuda_fused_indices_per_thread(3 * resident + 5, resident), 1);
  EXPECT_EQ(cuda_fused_indices_per_thread(most * resident - 1, resident), 1);
  EXPECT_EQ(cuda_fused_indices_per_thread(most * resident, resident), most);
  EXPECT_EQ(cuda_fused_indices_per_thread(100000000, resident), most);
  EXPECT_EQ(cuda_fused_indices_per_thread(std::numeric_limits<long long>::max(), resident), most);
  // Bad input: empty or reversed ranges, a device reporting no resident threads.
  EXPECT_EQ(cuda_fused_indices_per_thread(0, resident), 1);
  EXPECT_EQ(cuda_fused_indices_per_thread(-5, resident), 1);
  EXPECT_EQ(cuda_fused_indices_per_thread(1000, 0), most);
  EXPECT_EQ(cuda_fused_indices_per_thread(1000, -3), most);
  // A forced count (KOKKOS_FUSION_CUDA_INDICES_PER_THREAD) wins, capped at the most.
  EXPECT_EQ(cuda_fused_indices_per_thread(1, resident, 4), 4);
  EXPECT_EQ(cuda_fused_indices_per_thread(100000000, resident, 2), 2);
  EXPECT_EQ(cuda_fused_indices_per_thread(1000, resident, most + 5), most);
  EXPECT_EQ(cuda_fused_indices_per_thread(100000000, resident, 0), most);
  int previous = 1;
  for (long long n = 1; n < 20 * resident; n += resident / 7) {
    const int k = cuda_fused_indices_per_thread(n, resident);
    EXPECT_GE(k, previous) << "n=" << n;
    EXPECT_LE(k, most) << "n=" << n;
    previous = k;
  }
}

// ---- the closures a fused kernel and a graph replay see ------------------------------------------

// nvcc's host-side KOKKOS_LAMBDA wrapper carries a pointer to a heap copy of the lambda, new in
// every copy: two live copies differ in those bytes, and a repeated window would never match its
// recorded graph.  The device closure zeroes them and keeps every capture.  Needs no GPU.
TEST_F(FusionCuda, DeviceClosureIsTheSameForEveryCopy) {
  using Kokkos::Impl::CudaDeviceClosure;
  double* out = nullptr;
  const double* in = nullptr;
  std::vector<std::vector<unsigned char>> closures;
  for (const double a : {0.5, 0.75}) {
    const auto axpy = KOKKOS_LAMBDA(long i) { out[i] = a * in[i] + out[i]; };
    using F = decltype(axpy);
    const F first(axpy), second(axpy);  // alive together: nvcc's heap copies differ
    CudaDeviceClosure<F> c1, c2;
    c1.assign(first);
    c2.assign(second);
    EXPECT_EQ(std::memcmp(c1.bytes, c2.bytes, sizeof(F)), 0) << "a = " << a;
    closures.emplace_back(c1.bytes, c1.bytes + sizeof(F));
  }
  EXPECT_NE(closures[0], closures[1]) << "a changed capture must change the closure";

  // The same for a functor of one's own that allocates host memory in each copy.
  struct HostHeapPerCopy {
    double scale;
    int* host_only;
    explicit HostHeapPerCopy(double s) : scale(s), host_only(new int(1)) {}
    HostHeapPerCopy(const HostHeapPerCopy& other) : scale(other.scale), host_only(new int(*other.host_only)) {}
    HostHeapPerCopy& operator=(const HostHeapPerCopy&) = delete;
    ~HostHeapPerCopy() { delete host_only; }
    KOKKOS_FUNCTION void operator()(long) const {}
  };
  const HostHeapPerCopy one(2.0), two(one), other(3.0);
  CudaDeviceClosure<HostHeapPerCopy> p1, p2, p3;
  p1.assign(one);
  p2.assign(two);
  p3.assign(other);
  EXPECT_EQ(std::memcmp(p1.bytes, p2.bytes, sizeof(HostHeapPerCopy)), 0);
  EXPECT_NE(std::memcmp(p1.bytes, p3.bytes, sizeof(HostHeapPerCopy)), 0);
}

// A capture smaller than a pointer leaves padding beside it, which a copy may fill with whatever a
// temporary of the copy held: those bytes may differ from copy to copy, the capture's never do.
// A changed capture changes the closure (else a memoized window would replay the value it was
// recorded with).  Needs no GPU.
template <class F>
std::vector<unsigned char> device_closure_of_two_copies(const F& f) {
  const F first(f), second(f);  // alive together
  Kokkos::Impl::CudaDeviceClosure<F> c1, c2;
  c1.assign(first);
  c2.assign(second);
  EXPECT_EQ(std::memcmp(c1.bytes, c2.bytes, sizeof(F)), 0);
  return std::vector<unsigned char>(c1.bytes, c1.bytes + sizeof(F));
}

// A functor whose copies leave a different byte in their padding every time, as a copy made
// through a temporary can.
struct PaddingScribbledPerCopy {
  int value;
  double* data;
  explicit PaddingScribbledPerCopy(int v) : value(v), data(nullptr) {}
  PaddingScribbledPerCopy(const PaddingScribbledPerCopy& other) {
    static unsigned char scribble = 0x10;
    std::memset(static_cast<void*>(this), ++scribble, sizeof(*this));
    value = other.value;
    data = other.data;
  }
  PaddingScribbledPerCopy& operator=(const PaddingScribbledPerCopy&) = delete;
  KOKKOS_FUNCTION void operator()(long) const {}
};

TEST_F(FusionCuda, DeviceClosureKeepsACaptureBesidePadding) {
  EXPECT_NE(device_closure_of_two_copies(PaddingScribbledPerCopy(1)),
            device_closure_of_two_copies(PaddingScribbledPerCopy(2)));

  double buffer[4] = {};
  const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> x(buffer, 4);
  std::vector<std::vector<unsigned char>> ints, chars;
  for (int s = 1; s <= 3; ++s) {
    ints.push_back(device_closure_of_two_copies(KOKKOS_LAMBDA(long i) { x(i) = s; }));
  }
  EXPECT_NE(ints[0], ints[1]);
  EXPECT_NE(ints[1], ints[2]);
  EXPECT_NE(ints[0], ints[2]);
  for (const char c : {'a', 'b'}) {
    chars.push_back(device_closure_of_two_copies(KOKKOS_LAMBDA(long i) { x(i) = c; }));
  }
  EXPECT_NE(chars[0], chars[1]);
}

// ---- seed cases ----------------------------------------------------------------------------------

// The 20-axpy chain: y_{k+1} = a_k x + y_k.
std::vector<double> axpy_chain(long n, bool fused) {
  KE::set_fusion_enabled(fused);
  const DeviceView x = filled("x", n, 1.5), y = filled("y", n, 0.5);
  {
    KE::FusionScope scope;
    for (int k = 0; k < 20; ++k) {
      const double a = 0.1 * (k + 1);
      Kokkos::parallel_for("axpy", KE::with_accesses(Policy(0, n), KE::reads(x), KE::read_writes(y)),
                           KOKKOS_LAMBDA(long i) { y(i) = a * x(i) + y(i); });
    }
  }
  KE::set_fusion_enabled(true);
  return to_host(y);
}

TEST_F(FusionCuda, AxpyChainIsOneKernelBitwiseEqual) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  // Short ranges give each thread one index, long ones tiles of several (IndicesPerThread...).
  for (const long n : {1L, 1000L, 1L << 20, 1L << 23}) {
    const std::vector<double> unfused = axpy_chain(n, false);
    KE::reset_fusion_statistics();
    const std::vector<double> fused = axpy_chain(n, true);
    expect_bitwise_equal(fused, unfused, "n=" + std::to_string(n));
    const KE::FusionStatistics s = KE::fusion_statistics();
    EXPECT_EQ(s.launches_recorded, 20u);
    EXPECT_EQ(s.launches_fused, 20u);
    EXPECT_EQ(s.device_fused_kernels, 1u) << "n=" << n;
    EXPECT_EQ(s.device_runs_split, 0u);
  }
}

// Black-Scholes-like: temporaries d1, d2 between the inputs and the call price, then a tail
// reduction of the prices in the same kernel.
struct BlackScholesResult {
  std::vector<double> call;
  double total;
};
BlackScholesResult black_scholes(long n, bool fused) {
  KE::set_fusion_enabled(fused);
  const DeviceView s = filled("s", n, 100.0), k = filled("k", n, 95.0), t = filled("t", n, 1.0);
  DeviceView d1("d1", n), d2("d2", n), call("call", n);
  const double r = 0.02, v = 0.3;
  double total = 0;
  {
    KE::FusionScope scope;
    Kokkos::parallel_for("d1", KE::with_accesses(Policy(0, n), KE::reads(s), KE::reads(k), KE::reads(t), KE::writes(d1)),
                         KOKKOS_LAMBDA(long i) {
                           const double tt = std::fabs(t(i)) + 0.1;
                           d1(i) = (std::log(std::fabs(s(i)) / (std::fabs(k(i)) + 1)) + (r + 0.5 * v * v) * tt) /
                                   (v * std::sqrt(tt));
                         });
    Kokkos::parallel_for("d2", KE::with_accesses(Policy(0, n), KE::reads(d1), KE::reads(t), KE::writes(d2)),
                         KOKKOS_LAMBDA(long i) { d2(i) = d1(i) - v * std::sqrt(std::fabs(t(i)) + 0.1); });
    Kokkos::parallel_for("call",
                         KE::with_accesses(Policy(0, n), KE::reads(s), KE::reads(k), KE::reads(t), KE::reads(d1),
                                           KE::reads(d2), KE::writes(call)),
                         KOKKOS_LAMBDA(long i) {
                           const double nd1 = 0.5 * std::erfc(-d1(i) / std::sqrt(2.0));
                           const double nd2 = 0.5 * std::erfc(-d2(i) / std::sqrt(2.0));
                           call(i) = s(i) * nd1 - k(i) * std::exp(-r * (std::fabs(t(i)) + 0.1)) * nd2;
                         });
    Kokkos::parallel_reduce("total", KE::with_accesses(Policy(0, n), KE::reads(call)),
                            KOKKOS_LAMBDA(long i, double& acc) { acc += call(i); }, total);
  }
  KE::set_fusion_enabled(true);
  return {to_host(call), total};
}

// Verify mode on Cuda: the window's device memory is read and put back through CUDA copies.
TEST_F(FusionCuda, VerifyModePassesACorrectWindowWithItsResults) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const long n = 1L << 20;
  const std::vector<double> unfused = axpy_chain(n, false);
  KE::set_fusion_verify(true);
  const std::vector<double> verified = axpy_chain(n, true);
  KE::set_fusion_verify(false);
  expect_bitwise_equal(verified, unfused, "axpy chain under verify");
}

// "smooth" reads x(i+1) through a point-wise declaration of x, in verify mode.
void verify_shifted_read_window() {
  KE::set_fusion_verify(true);
  const long n = 1L << 20;
  const DeviceView x("x", n);
  const DeviceView y("y", n);
  KE::FusionScope scope;
  Kokkos::parallel_for("fill", KE::with_accesses(Policy(0, n - 1), KE::writes(x)), KOKKOS_LAMBDA(long i) { x(i) = i + 1; });
  Kokkos::parallel_for("smooth", KE::with_accesses(Policy(0, n - 1), KE::reads(x), KE::writes(y)),
                       KOKKOS_LAMBDA(long i) { y(i) = x(i) + x(i + 1); });
}

TEST_F(FusionCuda, VerifyModeNamesAShiftedReadDeclaredPointwise) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(verify_shifted_read_window(),
               "launch 1 'smooth' reads View 'x' through a point-wise declaration while launch 0 'fill'");
}

TEST_F(FusionCuda, BlackScholesWithTailReductionIsOneKernel) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  for (const long n : {0L, 7L, 100000L, 3000001L}) {
    const BlackScholesResult unfused = black_scholes(n, false);
    KE::reset_fusion_statistics();
    const BlackScholesResult fused = black_scholes(n, true);
    expect_bitwise_equal(fused.call, unfused.call, "n=" + std::to_string(n));
    EXPECT_EQ(std::memcmp(&fused.total, &unfused.total, sizeof(double)), 0)
        << "n=" << n << ": " << fused.total << " vs " << unfused.total;
    const KE::FusionStatistics st = KE::fusion_statistics();
    EXPECT_EQ(st.launches_fused, 4u) << "n=" << n;
    EXPECT_EQ(st.device_fused_kernels + st.device_runs_unfused, n == 0 ? 0u : 1u) << "n=" << n;
  }
}

// A tail reduction over an index range the loops also use, the result read after the scope.
TEST_F(FusionCuda, TailReductionOfSquares) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const long n = 123457;
  const auto run = [&](bool fused) {
    KE::set_fusion_enabled(fused);
    const DeviceView x = filled("x", n, 2.0);
    double sum = 0;
    {
      KE::FusionScope scope;
      Kokkos::parallel_for("square", KE::with_accesses(Policy(0, n), KE::read_writes(x)),
                           KOKKOS_LAMBDA(long i) { x(i) = x(i) * x(i) - 0.001 * i; });
      Kokkos::parallel_reduce("sum of squares", KE::with_accesses(Policy(0, n), KE::reads(x)),
                              KOKKOS_LAMBDA(long i, double& acc) { acc += x(i) * x(i); }, sum);
    }
    KE::set_fusion_enabled(true);
    return sum;
  };
  const double unfused = run(false);
  KE::reset_fusion_statistics();
  const double fused = run(true);
  EXPECT_EQ(std::memcmp(&fused, &unfused, sizeof(double)), 0) << fused << " vs " << unfused;
  EXPECT_EQ(KE::fusion_statistics().launches_fused, 2u);
}

// ---- random programs -------------------------------------------------------------------------

// A random sequence of element-wise launches over four arrays (reads of any, a write of one),
// with reductions between them: fused and unfused give the same bits.
TEST_F(FusionCuda, RandomProgramsBitwiseEqual) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  std::mt19937 rng(27);
  for (int program = 0; program < 12; ++program) {
    const long n = std::uniform_int_distribution<long>(1, 200000)(rng);
    struct Step {
      int out, a, b, op;
      bool reduce;
    };
    std::vector<Step> steps(std::uniform_int_distribution<int>(2, 30)(rng));
    for (Step& s : steps) {
      s = {std::uniform_int_distribution<int>(0, 3)(rng), std::uniform_int_distribution<int>(0, 3)(rng),
           std::uniform_int_distribution<int>(0, 3)(rng), std::uniform_int_distribution<int>(0, 3)(rng),
           std::uniform_int_distribution<int>(0, 5)(rng) == 0};
    }
    const auto run = [&](bool fused) {
      KE::set_fusion_enabled(fused);
      std::vector<DeviceView> v;
      for (int k = 0; k < 4; ++k) v.push_back(filled("v" + std::to_string(k), n, 0.25 * (k + 1)));
      std::vector<double> sums;
      {
        KE::FusionScope scope;
        for (const Step& s : steps) {
          const DeviceView out = v[s.out], a = v[s.a], b = v[s.b];
          const int op = s.op;
          if (s.reduce) {
            double sum = 0;
            Kokkos::parallel_reduce("sum", KE::with_accesses(Policy(0, n), KE::reads(a)),
                                    KOKKOS_LAMBDA(long i, double& acc) { acc += a(i); }, sum);
            sums.push_back(sum);
            continue;
          }
          const auto body = KOKKOS_LAMBDA(long i) {
            const double x = a(i), y = b(i);
            out(i) = op == 0 ? x + y : op == 1 ? x * y - 0.5 : op == 2 ? std::sqrt(x * x + y * y) : 0.5 * x - y;
          };
          if (s.out == s.a || s.out == s.b) {
            Kokkos::parallel_for("step", KE::with_accesses(Policy(0, n), KE::read_writes(out), KE::reads(a), KE::reads(b)),
                                 body);
          } else {
            Kokkos::parallel_for("step", KE::with_accesses(Policy(0, n), KE::writes(out), KE::reads(a), KE::reads(b)),
                                 body);
          }
        }
      }
      KE::set_fusion_enabled(true);
      std::vector<double> all = sums;
      for (const DeviceView& x : v) {
        const std::vector<double> h = to_host(x);
        all.insert(all.end(), h.begin(), h.end());
      }
      return all;
    };
    const std::vector<double> unfused = run(false);
    const std::vector<double> fused = run(true);
    expect_bitwise_equal(fused, unfused, "program " + std::to_string(program));
  }
  EXPECT_GT(KE::fusion_statistics().device_fused_kernels, 0u);
}

// ---- temporaries ---------------------------------------------------------------------------------

// out = (sqrt(a b + 1) a + b) - (a b + 1) / 3 through three array-algorithm temporaries that die
// in the scope; with `tail`, a reduction of out ends the run (its kernel keeps them in memory).
struct TemporariesResult {
  std::vector<double> out;
  double total = 0;
};
TemporariesResult chain_with_temporaries(long n, bool fused, bool tail) {
  KE::set_fusion_enabled(fused);
  const Cuda space;
  const DeviceView a = filled("a", n, 2.0), b = filled("b", n, 0.5);
  DeviceView out("out", n);
  double total = 0;
  {
    KE::FusionScope scope;
    DeviceView t1("t1", n), t2("t2", n), t3("t3", n);
    KE::transform(space, a, b, t1, KOKKOS_LAMBDA(double x, double y) { return x * y + 1.0; });
    KE::transform(space, t1, t2, KOKKOS_LAMBDA(double x) { return std::sqrt(std::fabs(x)); });
    KE::transform(space, t2, a, b, t3, KOKKOS_LAMBDA(double x, double y, double z) { return x * y + z; });
    KE::transform(space, t3, t1, out, KOKKOS_LAMBDA(double x, double y) { return x - y / 3.0; });
    if (tail) {
      Kokkos::parallel_reduce("total", KE::with_accesses(Policy(0, n), KE::reads(out)),
                              KOKKOS_LAMBDA(long i, double& acc) { acc += out(i); }, total);
    }
  }
  KE::set_fusion_enabled(true);
  return {to_host(out), total};
}

TEST_F(FusionCudaTemporaries, ArrayAlgorithmTemporariesStayInSharedMemory) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  for (const long n : {1L, 1000L, 1025L, (1L << 20) + 3}) {
    const TemporariesResult unfused = chain_with_temporaries(n, false, false);
    KE::reset_fusion_statistics();
    const TemporariesResult fused = chain_with_temporaries(n, true, false);
    expect_bitwise_equal(fused.out, unfused.out, "n=" + std::to_string(n));
    const KE::FusionStatistics s = KE::fusion_statistics();
    EXPECT_EQ(s.device_fused_kernels, 1u) << "n=" << n;
    EXPECT_EQ(s.temporaries_eliminated, 3u) << "n=" << n;
    EXPECT_EQ(s.temporary_bytes_eliminated, 3u * sizeof(double) * static_cast<std::uint64_t>(n)) << "n=" << n;
  }
}

TEST_F(FusionCudaTemporaries, TemporariesBeforeATailReductionStayMaterialised) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const long n = 100003;
  const TemporariesResult unfused = chain_with_temporaries(n, false, true);
  KE::reset_fusion_statistics();
  const TemporariesResult fused = chain_with_temporaries(n, true, true);
  expect_bitwise_equal(fused.out, unfused.out, "n=" + std::to_string(n));
  EXPECT_EQ(std::memcmp(&fused.total, &unfused.total, sizeof(double)), 0) << fused.total << " vs " << unfused.total;
  const KE::FusionStatistics s = KE::fusion_statistics();
  EXPECT_EQ(s.device_fused_kernels, 1u);
  EXPECT_EQ(s.temporaries_eliminated, 0u) << "the reduction's kernel has no tile to keep them in";
  EXPECT_EQ(s.temporary_bytes_eliminated, 0u);
}

// Seed 000's Listing 1 as NumPy runs it: 27 array algorithms whose 13 intermediates die in the
// program.  One fused kernel keeps every one in shared memory, each loop moving only the 2 or 3
// its functor holds; call and put bitwise as unfused.
TEST_F(FusionCudaTemporaries, BlackScholesIntermediatesStayInSharedMemory) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const Cuda space;
  for (const long n : {1L, 1000L, 100003L, (1L << 21) + 5}) {
    black_scholes::Problem<Kokkos::CudaSpace> fused(n), unfused(n);
    KE::set_fusion_enabled(false);
    black_scholes::black_scholes_with_temporaries(space, unfused);
    KE::set_fusion_enabled(true);
    KE::reset_fusion_statistics();
    {
      KE::FusionScope scope;
      black_scholes::black_scholes_with_temporaries(space, fused);
    }
    const KE::FusionStatistics s = KE::fusion_statistics();
    expect_bitwise_equal(to_host(fused.call), to_host(unfused.call), "call, n=" + std::to_string(n));
    expect_bitwise_equal(to_host(fused.put), to_host(unfused.put), "put, n=" + std::to_string(n));
    EXPECT_EQ(s.device_fused_kernels, 1u) << "n=" << n;
    EXPECT_EQ(s.device_runs_split, 0u) << "n=" << n;
    EXPECT_EQ(s.temporaries_eliminated, 13u) << "n=" << n;
    EXPECT_EQ(Kokkos::Impl::cuda_untouched_allocations(), 0u) << "n=" << n << ": every one freed";
  }
}

// The same chain repeated: a memoized window, replayed as a graph.  Its temporaries stay in
// shared memory every time, are freed without waiting for the GPU (the graph launched as
// recorded notes them again), and the next iteration's allocations may reuse their memory.
TEST_F(FusionCudaTemporaries, RepeatedWindowFreesItsTemporariesEveryTime) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const long n = 300007;
  const TemporariesResult unfused = chain_with_temporaries(n, false, false);
  KE::reset_fusion_statistics();
  for (int iteration = 0; iteration < 6; ++iteration) {
    const TemporariesResult fused = chain_with_temporaries(n, true, false);
    expect_bitwise_equal(fused.out, unfused.out, "iteration " + std::to_string(iteration));
    EXPECT_EQ(Kokkos::Impl::cuda_untouched_allocations(), 0u) << "iteration " << iteration;
  }
  const KE::FusionStatistics s = KE::fusion_statistics();
  EXPECT_EQ(s.temporaries_eliminated, 6u * 3u);
  EXPECT_GT(s.device_graph_replays + s.device_graph_instantiations, 0u) << "the window repeats";
}

// CudaSpace's record of allocations no kernel touched: each is taken once, with its stream.
// Needs no GPU (no memory is freed here).
TEST_F(FusionCuda, UntouchedAllocationsAreTakenOnce) {
  using Kokkos::Impl::cuda_note_untouched_allocation;
  using Kokkos::Impl::cuda_take_untouched_allocation;
  int a = 0, b = 0;
  const auto stream_1 = reinterpret_cast<cudaStream_t>(std::uintptr_t{0x10});
  const auto stream_2 = reinterpret_cast<cudaStream_t>(std::uintptr_t{0x20});
  const std::size_t before = Kokkos::Impl::cuda_untouched_allocations();
  cuda_note_untouched_allocation(&a, stream_1);
  cuda_note_untouched_allocation(&b, stream_1);
  cuda_note_untouched_allocation(&b, stream_2);  // noted again (a graph launched as recorded): the last stream
  EXPECT_EQ(Kokkos::Impl::cuda_untouched_allocations(), before + 2);
  cudaStream_t stream = nullptr;
  ASSERT_TRUE(cuda_take_untouched_allocation(&b, stream));
  EXPECT_EQ(stream, stream_2);
  EXPECT_FALSE(cuda_take_untouched_allocation(&b, stream)) << "taken once";
  ASSERT_TRUE(cuda_take_untouched_allocation(&a, stream));
  EXPECT_EQ(stream, stream_1);
  int never = 0;
  EXPECT_FALSE(cuda_take_untouched_allocation(&never, stream));
  EXPECT_EQ(Kokkos::Impl::cuda_untouched_allocations(), before);
}

// Which of a run's eliminated temporaries a loop's functor holds (the loops move only those):
// its Views and View iterators, by allocation, subviews included; a member that can be moved
// but does not say where it points holds all of them.  Needs no GPU (host Views stand in).
struct MovableWithoutAddress {
  KOKKOS_FUNCTION void impl_fusion_rebase(const void*, std::ptrdiff_t) {}
};
template <class A, class B>
struct TwoMembersAndAScalar {
  A a;
  B b;
  double scale;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(a, scale, b); }
  KOKKOS_FUNCTION void operator()(long) const {}
};
TEST_F(FusionCuda, TemporariesTouchedAreThoseAFunctorHolds) {
  using Kokkos::Impl::cuda_fusion_temporaries_touched;
  using Kokkos::Impl::FusionTemporary;
  using HostView = Kokkos::View<double*, Kokkos::HostSpace>;
  const HostView t0("t0", 8), t1("t1", 8), t2("t2", 8), other("other", 8);
  const std::array<FusionTemporary, 3> temporaries{FusionTemporary{t0.impl_allocation_base()},
                                                   FusionTemporary{t1.impl_allocation_base()},
                                                   FusionTemporary{t2.impl_allocation_base()}};
  const auto touched = [&](const auto& functor) {
    return cuda_fusion_temporaries_touched(functor, temporaries.data(), 3);
  };
  EXPECT_EQ(touched(TwoMembersAndAScalar<HostView, HostView>{t2, other, 1.0}), 0b100u);
  EXPECT_EQ(touched(TwoMembersAndAScalar<HostView, HostView>{t0, t1, 1.0}), 0b011u);
  EXPECT_EQ(touched(TwoMembersAndAScalar<HostView, HostView>{other, other, 1.0}), 0u);
  const auto middle = Kokkos::subview(t1, std::pair<long, long>(2, 6));
  EXPECT_EQ((touched(TwoMembersAndAScalar<decltype(middle), HostView>{middle, other, 1.0})), 0b010u);
  const auto it = KE::begin(t2);
  EXPECT_EQ((touched(TwoMembersAndAScalar<decltype(it), HostView>{it, t0, 1.0})), 0b101u);
  EXPECT_EQ((touched(TwoMembersAndAScalar<MovableWithoutAddress, HostView>{{}, other, 1.0})), 0b111u);
  EXPECT_EQ(cuda_fusion_temporaries_touched(TwoMembersAndAScalar<HostView, HostView>{t0, t1, 1.0}, temporaries.data(), 0),
            0u);
  const auto lambda = [t0](long i) { (void)t0(i); };  // lists no members: never moved
  EXPECT_EQ(touched(lambda), 0u);
}

// ---- splits --------------------------------------------------------------------------------------

// Launches of two translation units in one run: one kernel per unit's stretch, the same bits.
TEST_F(FusionCuda, RunAcrossTranslationUnitsSplits) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const long n = 50001;
  const auto run = [&](bool fused) {
    KE::set_fusion_enabled(fused);
    const DeviceView x = filled("x", n, 1.0), y = filled("y", n, 2.0);
    {
      KE::FusionScope scope;
      for (int k = 0; k < 2; ++k) {
        const double a = 0.5 + k;
        Kokkos::parallel_for("here", KE::with_accesses(Policy(0, n), KE::reads(x), KE::read_writes(y)),
                             KOKKOS_LAMBDA(long i) { y(i) = a * x(i) + y(i); });
      }
      fusion_cuda_second_unit_axpy(x, y, 0.25);
      fusion_cuda_second_unit_axpy(x, y, 0.75);
      Kokkos::parallel_for("here again", KE::with_accesses(Policy(0, n), KE::reads(x), KE::read_writes(y)),
                           KOKKOS_LAMBDA(long i) { y(i) = y(i) * x(i); });
    }
    KE::set_fusion_enabled(true);
    return to_host(y);
  };
  const KE::FusionStatistics s = expect_fused_as_unfused(run, "two units");
  EXPECT_EQ(s.launches_fused, 5u);     // the analysis sees one run...
  EXPECT_EQ(s.device_fused_kernels, 2u);  // ...that runs as a kernel per unit, the last launch alone
  EXPECT_EQ(s.device_runs_split, 1u);
}

// More loops than one kernel's parameter takes: the run splits, the bits stay.
TEST_F(FusionCuda, LongRunSplitsAtTheParameterSpace) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const long n = 4099;
  const int launches = 2 * static_cast<int>(Kokkos::Impl::fusion_device_max_bodies) + 3;
  KE::set_fusion_window_size(launches + 1);
  const auto run = [&](bool fused) {
    KE::set_fusion_enabled(fused);
    const DeviceView x = filled("x", n, 1.0), y = filled("y", n, 2.0);
    {
      KE::FusionScope scope;
      for (int k = 0; k < launches; ++k) {
        const double a = 1.0 / (k + 1);
        Kokkos::parallel_for("axpy", KE::with_accesses(Policy(0, n), KE::reads(x), KE::read_writes(y)),
                             KOKKOS_LAMBDA(long i) { y(i) = a * x(i) + y(i); });
      }
    }
    KE::set_fusion_enabled(true);
    return to_host(y);
  };
  const KE::FusionStatistics s = expect_fused_as_unfused(run, "long run");
  EXPECT_EQ(s.launches_fused, static_cast<std::uint64_t>(launches));
  EXPECT_EQ(s.device_fused_kernels, 3u);
  EXPECT_EQ(s.device_runs_split, 1u);
}

// ---- memoized windows as CUDA graphs ---------------------------------------------------------

// An iterative program: each epoch's window has the analysis of the first, so from the second
// epoch on it is replayed as a graph, updated in place when the Views are new allocations.
TEST_F(FusionCuda, MemoizedWindowReplaysAsGraphWithChangedViews) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const long n = 30011;
  constexpr int epochs = 6;
  const auto run = [&](bool fused) {
    KE::set_fusion_enabled(fused);
    std::vector<double> out;
    DeviceView x = filled("x", n, 1.0), y = filled("y", n, 2.0);
    for (int e = 0; e < epochs; ++e) {
      if (e == 3) {  // new allocations: the graph's kernel parameters change, not its structure
        const DeviceView x2 = filled("x2", n, 1.5), y2 = filled("y2", n, 2.5);
        x = x2;
        y = y2;
      }
      {
        KE::FusionScope scope;
        for (int k = 0; k < 3; ++k) {
          const double a = 0.5 + e + k;
          Kokkos::parallel_for("axpy", KE::with_accesses(Policy(0, n), KE::reads(x), KE::read_writes(y)),
                               KOKKOS_LAMBDA(long i) { y(i) = a * x(i) + y(i); });
        }
        // Another range: a run of its own, a second node of the graph.
        Kokkos::parallel_for("head", KE::with_accesses(Policy(0, n / 2), KE::read_writes(x)),
                             KOKKOS_LAMBDA(long i) { x(i) = 0.5 * x(i) + 1.0; });
      }
      const std::vector<double> h = to_host(y);
      out.insert(out.end(), h.begin(), h.end());
    }
    KE::set_fusion_enabled(true);
    return out;
  };
  const std::uint64_t as_recorded = Kokkos::Impl::cuda_fusion_graph_launches_as_recorded().load();
  const KE::FusionStatistics s = expect_fused_as_unfused(run, "epochs");
  EXPECT_EQ(Kokkos::Impl::cuda_fusion_graph_launches_as_recorded().load(), as_recorded)
      << "every epoch has new scalars: its graph is recorded and updated";
  EXPECT_EQ(s.memo_hits, static_cast<std::uint64_t>(epochs - 1));
  EXPECT_EQ(s.device_graph_replays + s.device_graph_instantiations, static_cast<std::uint64_t>(epochs - 1));
  EXPECT_GE(s.device_graph_instantiations, 1u);
  EXPECT_GE(s.device_graph_replays, 1u);
}

// y = a_k x + y / 2 for four a_k: one fused run, the same closures every time it is recorded.
void record_four_axpys(const DeviceView& x, const DeviceView& y, long n) {
  for (int k = 0; k < 4; ++k) {
    const double a = 0.25 * (k + 1);
    Kokkos::parallel_for("axpy", KE::with_accesses(Policy(0, n), KE::reads(x), KE::read_writes(y)),
                         KOKKOS_LAMBDA(long i) { y(i) = a * x(i) + 0.5 * y(i); });
  }
}

// The same window (same Views, same scalars) every epoch: from the third on, the graph recorded
// at the second launches as it is, without recording the window's dispatch again.
TEST_F(FusionCuda, UnchangedWindowLaunchesItsGraphWithoutRecording) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const long n = 20011;
  constexpr int epochs = 5;
  const auto run = [&](bool fused) {
    KE::set_fusion_enabled(fused);
    const DeviceView x = filled("x", n, 1.0), y = filled("y", n, 2.0);
    for (int e = 0; e < epochs; ++e) {
      KE::FusionScope scope;
      record_four_axpys(x, y, n);
    }
    KE::set_fusion_enabled(true);
    return to_host(y);
  };
  const std::uint64_t as_recorded = Kokkos::Impl::cuda_fusion_graph_launches_as_recorded().load();
  const KE::FusionStatistics s = expect_fused_as_unfused(run, "epochs");
  EXPECT_EQ(Kokkos::Impl::cuda_fusion_graph_launches_as_recorded().load() - as_recorded,
            static_cast<std::uint64_t>(epochs - 2))
      << "the same KOKKOS_LAMBDAs over the same Views: the recorded graph launches as it is";
  EXPECT_EQ(s.memo_hits, static_cast<std::uint64_t>(epochs - 1));
  EXPECT_EQ(s.device_graph_instantiations, 1u);
  EXPECT_EQ(s.device_graph_replays, static_cast<std::uint64_t>(epochs - 2));
  EXPECT_EQ(s.device_fused_kernels, static_cast<std::uint64_t>(epochs)) << "a replay counts its kernel";
}

// ---- the measured choice between ways (impl/fusion/Kokkos_FusionDeviceChoice.hpp) ----------------

// A memoized window's first epoch runs every way three times (the fused kernel in both register
// policies and both tile shapes, launch by launch as a graph and on the stream), timed with CUDA
// events; every epoch's results are bitwise those of the unfused launches.
TEST_F(FusionCuda, MeasuredChoiceRunsEveryWayBitwiseEqual) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  KE::set_fusion_adaptive_dispatch(true);
  const long n = 30011;
  constexpr int epochs = 40;
  const auto run = [&](bool fused) {
    KE::set_fusion_enabled(fused);
    std::vector<double> out;
    const DeviceView x = filled("x", n, 1.0), y = filled("y", n, 2.0);
    for (int e = 0; e < epochs; ++e) {
      {
        KE::FusionScope scope;
        record_four_axpys(x, y, n);
      }
      const std::vector<double> h = to_host(y);
      out.insert(out.end(), h.begin(), h.end());
    }
    KE::set_fusion_enabled(true);
    return out;
  };
  const KE::FusionStatistics s = expect_fused_as_unfused(run, "epochs");
  EXPECT_EQ(s.memo_hits, static_cast<std::uint64_t>(epochs - 1));
  EXPECT_GE(s.device_windows_other_registers, 3u);
  EXPECT_GE(s.device_windows_other_tile, 3u);
  EXPECT_GE(s.device_windows_unfused_graph, 3u);
  EXPECT_GE(s.device_windows_unfused, 3u);
}

// A window ending in a reduction cannot be replayed (its result reaches the host at the flush):
// it chooses between the fused kernel and the launches one by one, with the same bits.
TEST_F(FusionCuda, MeasuredChoiceOfAWindowEndingInAReduction) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  KE::set_fusion_adaptive_dispatch(true);
  const long n = 123457;
  constexpr int epochs = 24;
  const auto run = [&](bool fused) {
    KE::set_fusion_enabled(fused);
    const DeviceView x = filled("x", n, 2.0);
    std::vector<double> sums;
    for (int e = 0; e < epochs; ++e) {
      double sum = 0;
      KE::FusionScope scope;
      Kokkos::parallel_for("scale", KE::with_accesses(Policy(0, n), KE::read_writes(x)),
                           KOKKOS_LAMBDA(long i) { x(i) = 0.999 * x(i) + 0.001; });
      Kokkos::parallel_reduce("sum of squares", KE::with_accesses(Policy(0, n), KE::reads(x)),
                              KOKKOS_LAMBDA(long i, double& acc) { acc += x(i) * x(i); }, sum);
      sums.push_back(sum);
    }
    KE::set_fusion_enabled(true);
    return sums;
  };
  const KE::FusionStatistics s = expect_fused_as_unfused(run, "sums");
  EXPECT_GE(s.device_windows_unfused, 3u);
  EXPECT_EQ(s.device_windows_unfused_graph + s.device_windows_other_registers + s.device_windows_other_tile, 0u)
      << "no graph, and a fused reduction has one shape";
}

// KOKKOS_FUSION=0's switch: nothing is recorded, every launch runs where it is issued.
TEST_F(FusionCuda, FusionOffRecordsNothing) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const std::vector<double> y = axpy_chain(1000, false);
  EXPECT_EQ(KE::fusion_statistics().launches_recorded, 0u);
  EXPECT_EQ(y.size(), 1000u);
}

// A deep_copy from a View a recorded launch writes runs the launch first.
TEST_F(FusionCuda, DeepCopyFlushesRecordedWriters) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const long n = 1000;
  const DeviceView x = filled("x", n, 1.0);
  KE::FusionScope scope;
  Kokkos::parallel_for("set", KE::with_accesses(Policy(0, n), KE::writes(x)), KOKKOS_LAMBDA(long i) { x(i) = 3.0 * i; });
  EXPECT_EQ(KE::fusion_pending_launches(), 1u);
  const std::vector<double> h = to_host(x);
  EXPECT_EQ(KE::fusion_pending_launches(), 0u);
  for (long i = 0; i < n; ++i) ASSERT_EQ(h[i], 3.0 * i);
}

}  // namespace

#endif  // KOKKOS_ENABLE_CUDA

// The back-end-independent half of fusion on a device (impl/fusion/Kokkos_FusionWindow.hpp,
// execute_on_device and replay_on_device), on any build: launches recorded with a stand-in
// device back end whose "kernels" log the launches they were given.  Checks where a fused run
// splits into kernels (translation units, the parameter space, the most loops per kernel), that
// a kernel refusing its shape runs its launches one by one, and how a memoized window is
// recorded and replayed (instantiated once, updated after), a failed recording dispatching the
// window again directly.  Cuda's own kernels are tested in TestFusionCuda.cpp.
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include "FusionTestFixture.hpp"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using Kokkos::Impl::FusionDeviceLaunch;
using Kokkos::Impl::FusionDeviceReplay;
using Kokkos::Impl::FusionLaunch;
using Kokkos::Impl::FusionTemporary;
using Arr = Kokkos::View<double*, Kokkos::HostSpace>;
using HostPolicy = Kokkos::RangePolicy<Kokkos::Serial>;

// What the stand-in back end did, in order.
struct DeviceLog {
  std::vector<std::vector<int>> kernels;  // the launches (ids) of each fused kernel
  std::vector<int> alone;                 // launches run as plain launches
  int recordings = 0, launched_replays = 0, aborts = 0;
  int launched_unchanged = 0;  // replays launched without recording (the same window)
  bool recording = false;
  bool refuse_shape = false;          // every fused kernel refuses (registers)
  bool fail_while_recording = false;  // a kernel launch fails while recording
  std::vector<std::uint32_t> temporaries_offered;  // per fused kernel: how many it was given
  bool keep_temporaries_materialised = false;      // the kernel cannot hold their tiles
};
DeviceLog g_log;
const char g_instance = 0;

bool begin_recording(const void*) {
  ++g_log.recordings;
  g_log.recording = true;
  return true;
}
bool end_and_launch(const void*, std::shared_ptr<void>& replay) {
  g_log.recording = false;
  ++g_log.launched_replays;
  const bool instantiated = replay == nullptr;
  if (instantiated) replay = std::make_shared<int>(0);
  return instantiated;
}
void abort_recording(const void*) {
  g_log.recording = false;
  ++g_log.aborts;
}
void launch_as_recorded(const void*, const std::shared_ptr<void>& replay) {
  if (replay == nullptr) throw std::logic_error("launching a replay that was never recorded");
  ++g_log.launched_replays;
  ++g_log.launched_unchanged;
}
constexpr FusionDeviceReplay g_replay{&begin_recording, &end_and_launch, &abort_recording, &launch_as_recorded};

// A recorded loop's closure: the stand-in kernels only read its id.
struct Loop {
  int id;
  int unused = 0;               // no padding: a window's closure bytes say what it computes
  const double* out = nullptr;  // what a real closure holds: the address of a View it writes
};

template <int Unit>
struct StandInBlob {
  static constexpr char unit_anchor = 0;
  static constexpr bool rebasable = true;  // may touch eliminated temporaries
  Loop functor;
  HostPolicy policy;
  std::uint32_t closure_bytes;
  FusionDeviceLaunch device{};

  static void describe(StandInBlob& self) {
    self.device.unit = &unit_anchor;
    self.device.instance = &g_instance;
    self.device.closure = &self.functor;
    self.device.closure_bytes = self.closure_bytes;
    self.device.closure_align = 8;
    self.device.run_fused = &run_fused;
    self.device.replay = &g_replay;
  }
  static void execute_alone(const void* self) { g_log.alone.push_back(static_cast<const StandInBlob*>(self)->functor.id); }
  static bool run_fused(const FusionLaunch* launches, std::uint32_t count, const FusionTemporary*,
                        std::uint32_t* num_temporaries) {
    if (g_log.refuse_shape) return false;
    g_log.temporaries_offered.push_back(*num_temporaries);
    if (g_log.keep_temporaries_materialised) *num_temporaries = 0;
    if (g_log.recording && g_log.fail_while_recording) throw std::runtime_error("not capturable");
    std::vector<int> ids;
    for (std::uint32_t k = 0; k < count; ++k) ids.push_back(static_cast<const StandInBlob*>(launches[k].blob)->functor.id);
    g_log.kernels.push_back(ids);
    return true;
  }
};

// Records launch `id` of translation unit `Unit`: y(i) += x(i), point-wise, so a window of
// them is one fused run.
template <int Unit>
void record(int id, const Arr& x, const Arr& y, std::uint32_t closure_bytes = sizeof(Loop)) {
  const HostPolicy policy(0, static_cast<long>(y.extent(0)));
  const auto accesses = KE::with_accesses(policy, KE::reads(x), KE::read_writes(y));
  Kokkos::Impl::FusionWindow::this_thread_window().record_device<StandInBlob<Unit>, Loop>(
      Kokkos::Impl::FusionLaunchKind::range_for, policy, accesses.impl_decls().data(), accesses.impl_decls().size(),
      Loop{id, 0, y.data()}, policy, closure_bytes);
}

// Records launch `id` of unit `Unit` that only writes t: t(i) = x(i).
template <int Unit>
void record_write(int id, const Arr& x, const Arr& t) {
  const HostPolicy policy(0, static_cast<long>(t.extent(0)));
  const auto accesses = KE::with_accesses(policy, KE::reads(x), KE::writes(t));
  Kokkos::Impl::FusionWindow::this_thread_window().record_device<StandInBlob<Unit>, Loop>(
      Kokkos::Impl::FusionLaunchKind::range_for, policy, accesses.impl_decls().data(), accesses.impl_decls().size(),
      Loop{id, 0, t.data()}, policy, static_cast<std::uint32_t>(sizeof(Loop)));
}

struct FusionDevicePieces : Kokkos::Test::FusionFixture {
  void SetUp() override {
    FusionFixture::SetUp();
    g_log = DeviceLog{};
    KE::set_fusion_memoization(false);  // the replay tests turn it on
  }
  Arr x{"x", 100}, y{"y", 100};
};

using Kernels = std::vector<std::vector<int>>;

TEST_F(FusionDevicePieces, OneUnitIsOneKernel) {
  {
    KE::FusionScope scope;
    for (int k = 0; k < 5; ++k) record<0>(k, x, y);
  }
  EXPECT_EQ(g_log.kernels, (Kernels{{0, 1, 2, 3, 4}}));
  EXPECT_TRUE(g_log.alone.empty());
  const KE::FusionStatistics s = KE::fusion_statistics();
  EXPECT_EQ(s.launches_fused, 5u);
  EXPECT_EQ(s.device_fused_kernels, 1u);
  EXPECT_EQ(s.device_runs_split, 0u);
}

TEST_F(FusionDevicePieces, RunSplitsWhereTheUnitChanges) {
  {
    KE::FusionScope scope;
    record<0>(0, x, y);
    record<0>(1, x, y);
    record<1>(2, x, y);
    record<1>(3, x, y);
    record<0>(4, x, y);  // a piece of one: the plain launch
  }
  EXPECT_EQ(g_log.kernels, (Kernels{{0, 1}, {2, 3}}));
  EXPECT_EQ(g_log.alone, (std::vector<int>{4}));
  const KE::FusionStatistics s = KE::fusion_statistics();
  EXPECT_EQ(s.launches_fused, 5u);
  EXPECT_EQ(s.device_fused_kernels, 2u);
  EXPECT_EQ(s.device_runs_split, 1u);
}

TEST_F(FusionDevicePieces, RunSplitsAtTheClosureCapacity) {
  const auto third = static_cast<std::uint32_t>(Kokkos::Impl::fusion_device_closure_capacity / 3);
  {
    KE::FusionScope scope;
    for (int k = 0; k < 4; ++k) record<0>(k, x, y, third + 8);  // two fit, not three
  }
  EXPECT_EQ(g_log.kernels, (Kernels{{0, 1}, {2, 3}}));
  EXPECT_EQ(KE::fusion_statistics().device_runs_split, 1u);
}

TEST_F(FusionDevicePieces, RunSplitsAtTheMostLoopsPerKernel) {
  const int n = static_cast<int>(Kokkos::Impl::fusion_device_max_bodies) + 3;
  KE::set_fusion_window_size(n + 1);
  {
    KE::FusionScope scope;
    for (int k = 0; k < n; ++k) record<0>(k, x, y, 8);
  }
  ASSERT_EQ(g_log.kernels.size(), 2u);
  EXPECT_EQ(g_log.kernels[0].size(), Kokkos::Impl::fusion_device_max_bodies);
  EXPECT_EQ(g_log.kernels[1], (std::vector<int>{n - 3, n - 2, n - 1}));
}

TEST_F(FusionDevicePieces, KernelRefusingItsShapeRunsLaunchByLaunch) {
  g_log.refuse_shape = true;
  {
    KE::FusionScope scope;
    for (int k = 0; k < 3; ++k) record<0>(k, x, y);
  }
  EXPECT_TRUE(g_log.kernels.empty());
  EXPECT_EQ(g_log.alone, (std::vector<int>{0, 1, 2}));
  const KE::FusionStatistics s = KE::fusion_statistics();
  EXPECT_EQ(s.device_fused_kernels, 0u);
  EXPECT_EQ(s.device_runs_unfused, 1u);
}

// A run's eliminated temporaries reach its kernel only when that kernel runs the whole run; a
// kernel that keeps them in device memory says so, and the statistics follow.
TEST_F(FusionDevicePieces, TemporariesReachOnlyAKernelRunningTheWholeRun) {
  KE::set_fusion_temporary_elimination(true);
  KE::set_fusion_temporary_bytes(0);  // every View created in the window is a candidate
  for (const bool materialised : {false, true}) {
    g_log = DeviceLog{};
    g_log.keep_temporaries_materialised = materialised;
    KE::reset_fusion_statistics();
    {
      KE::FusionScope scope;
      Arr t("t", 100);
      record_write<0>(0, x, t);
      record<0>(1, t, y);
    }
    EXPECT_EQ(g_log.kernels, (Kernels{{0, 1}}));
    EXPECT_EQ(g_log.temporaries_offered, (std::vector<std::uint32_t>{1}));
    const KE::FusionStatistics s = KE::fusion_statistics();
    EXPECT_EQ(s.temporaries_eliminated, materialised ? 0u : 1u);
    EXPECT_EQ(s.temporary_bytes_eliminated, materialised ? 0u : 100u * sizeof(double));
  }
  g_log = DeviceLog{};
  KE::reset_fusion_statistics();
  {
    KE::FusionScope scope;
    Arr t("t", 100);
    record_write<0>(0, x, t);
    record<0>(1, t, y);
    record<1>(2, t, y);  // another unit: the run splits, t must stay in memory between kernels
    record<1>(3, t, y);
  }
  EXPECT_EQ(g_log.kernels, (Kernels{{0, 1}, {2, 3}}));
  EXPECT_EQ(g_log.temporaries_offered, (std::vector<std::uint32_t>{0, 0}));
  EXPECT_EQ(KE::fusion_statistics().temporaries_eliminated, 0u);
  KE::set_fusion_temporary_bytes(256 * 1024);
}

// Epoch 1 analyses, epoch 2 records and instantiates, epoch 3 (the same window) launches the
// graph without recording, epoch 4 (another View) records and updates in place.
TEST_F(FusionDevicePieces, MemoizedWindowIsRecordedAndReplayed) {
  KE::set_fusion_memoization(true);
  const Arr other("other", 100);
  for (int epoch = 0; epoch < 4; ++epoch) {
    KE::FusionScope scope;
    const Arr& out = epoch < 3 ? y : other;
    for (int k = 0; k < 3; ++k) record<0>(k, x, out);
    record<1>(3, x, out);
  }
  EXPECT_EQ(g_log.recordings, 2);
  EXPECT_EQ(g_log.launched_replays, 3);
  EXPECT_EQ(g_log.launched_unchanged, 1);
  EXPECT_EQ(g_log.kernels, (Kernels{{0, 1, 2}, {0, 1, 2}, {0, 1, 2}}));
  EXPECT_EQ(g_log.alone, (std::vector<int>{3, 3, 3}));
  const KE::FusionStatistics s = KE::fusion_statistics();
  EXPECT_EQ(s.memo_hits, 3u);
  EXPECT_EQ(s.device_graph_instantiations, 1u);
  EXPECT_EQ(s.device_graph_replays, 2u);
  EXPECT_EQ(s.device_fused_kernels, 4u) << "the replay without recording counts its kernel too";
}

// A recording that fails is discarded; the window is dispatched directly, counted once.
TEST_F(FusionDevicePieces, FailedRecordingDispatchesDirectly) {
  KE::set_fusion_memoization(true);
  g_log.fail_while_recording = true;
  for (int epoch = 0; epoch < 2; ++epoch) {
    KE::FusionScope scope;
    for (int k = 0; k < 3; ++k) record<0>(k, x, y);
  }
  EXPECT_EQ(g_log.recordings, 1);
  EXPECT_EQ(g_log.aborts, 1);
  EXPECT_EQ(g_log.launched_replays, 0);
  EXPECT_EQ(g_log.kernels, (Kernels{{0, 1, 2}, {0, 1, 2}}));
  const KE::FusionStatistics s = KE::fusion_statistics();
  EXPECT_EQ(s.device_fused_kernels, 2u);
  EXPECT_EQ(s.device_graph_instantiations + s.device_graph_replays, 0u);
}

}  // namespace

// The back-end-independent half of fusion on a device (impl/fusion/Kokkos_FusionWindow.hpp,
// execute_on_device and replay_on_device), on any build: launches recorded with a stand-in
// device back end whose "kernels" log the launches they were given.  Checks where a fused run
// splits into kernels (translation units, the parameter space, the most loops per kernel), that
// a kernel refusing its shape runs its launches one by one, and how a memoized window is
// recorded and replayed (instantiated once, updated after), a failed recording dispatching the
// window again directly, and how a memoized window chooses its way by timing it on the "device"
// (impl/fusion/Kokkos_FusionDeviceChoice.hpp), with timings injected by a stand-in timer.  Cuda's
// own kernels are tested in TestFusionCuda.cpp.
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include "FusionTestFixture.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using Kokkos::Impl::FusionDeviceKernelVariant;
using Kokkos::Impl::FusionDeviceLaunch;
using Kokkos::Impl::FusionDeviceReplay;
using Kokkos::Impl::FusionDeviceTimer;
using Kokkos::Impl::FusionDeviceWay;
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
  std::vector<FusionDeviceKernelVariant> variants;  // per fused kernel: the variant asked for
  int timings_started = 0;
  // The work the "device" did, in order, replays included: 'F', 'R', 'T' a fused kernel (default,
  // other registers, other tile), 'A' a launch alone; `recorded` collects a recording's.
  std::string work, recorded;
};
DeviceLog g_log;
const char g_instance = 0;

void did(char work) { (g_log.recording ? g_log.recorded : g_log.work) += work; }
bool begin_recording(const void*) {
  ++g_log.recordings;
  g_log.recording = true;
  g_log.recorded.clear();
  return true;
}
bool end_and_launch(const void*, std::shared_ptr<void>& replay) {
  g_log.recording = false;
  ++g_log.launched_replays;
  const bool instantiated = replay == nullptr;
  if (instantiated) replay = std::make_shared<std::string>();
  *static_cast<std::string*>(replay.get()) = g_log.recorded;
  g_log.work += g_log.recorded;
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
  g_log.work += *static_cast<const std::string*>(replay.get());
}
constexpr FusionDeviceReplay g_replay{&begin_recording, &end_and_launch, &abort_recording, &launch_as_recorded};

// The stand-in device's timer (null: the back end does not time, as in the tests above).  Its
// time is the injected cost of what ran between the marks: per fused kernel by variant, per
// launch run alone, less a saving per launch when a graph replays them; it reads as not ready
// for `polls_until_ready` polls that do not wait.
struct InjectedCosts {
  double fused = 100, other_registers = 100, other_tile = 100, alone = 60, graph_saving_per_launch = 0;
  int polls_until_ready = 0;
  bool cannot_time = false;  // start() returns null (Cuda: the stream is being captured)
};
InjectedCosts g_costs;
struct StandInMark {
  std::size_t work = 0;
  int replays = 0;
  double ns = 0;
  int polls = 0;
};
void* timer_start(const void*) {
  ++g_log.timings_started;
  if (g_costs.cannot_time) return nullptr;
  return new StandInMark{g_log.work.size(), g_log.launched_replays};
}
void timer_stop(void* m, const void*) {
  auto& mark = *static_cast<StandInMark*>(m);
  const bool graph = g_log.launched_replays > mark.replays;
  for (std::size_t k = mark.work; k < g_log.work.size(); ++k) {
    switch (g_log.work[k]) {
      case 'F': mark.ns += g_costs.fused; break;
      case 'R': mark.ns += g_costs.other_registers; break;
      case 'T': mark.ns += g_costs.other_tile; break;
      default: mark.ns += g_costs.alone - (graph ? g_costs.graph_saving_per_launch : 0); break;
    }
  }
}
bool timer_elapsed(void* m, bool wait, double* ns) {
  auto& mark = *static_cast<StandInMark*>(m);
  if (!wait && mark.polls++ < g_costs.polls_until_ready) return false;
  *ns = mark.ns;
  return true;
}
void timer_release(void* m) { delete static_cast<StandInMark*>(m); }
constexpr FusionDeviceTimer g_stand_in_timer{&timer_start, &timer_stop, &timer_elapsed, &timer_release};
const FusionDeviceTimer* g_timer = nullptr;
bool g_variants_open = true;

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
    self.device.timer = g_timer;
    self.device.other_registers_open = self.device.other_tile_open = g_variants_open;
  }
  static void execute_alone(const void* self) {
    g_log.alone.push_back(static_cast<const StandInBlob*>(self)->functor.id);
    did('A');
  }
  static bool run_fused(const FusionLaunch* launches, std::uint32_t count, const FusionTemporary*,
                        std::uint32_t* num_temporaries, FusionDeviceKernelVariant variant) {
    if (g_log.refuse_shape) return false;
    g_log.variants.push_back(variant);
    did(variant.other_registers ? 'R' : variant.other_tile ? 'T' : 'F');
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
    g_costs = InjectedCosts{};
    g_timer = nullptr;
    g_variants_open = true;
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

// ---- the way of a memoized window, chosen by timing it on the device --------------------------

struct FusionDeviceChoice : FusionDevicePieces {
  void SetUp() override {
    FusionDevicePieces::SetUp();
    KE::set_fusion_memoization(true);
    KE::set_fusion_adaptive_dispatch(true);
    g_timer = &g_stand_in_timer;
  }
  void TearDown() override {
    g_timer = nullptr;
    FusionDevicePieces::TearDown();
  }
  // Runs `body` on a thread of its own, whose window memoizes afresh: the plans of other tests
  // (the same canonical window) keep their choices in this thread's memo.
  template <class Body>
  static void in_own_window(const Body& body) {
    std::thread(body).join();
  }
  // One flush of three loops of one unit (one fused kernel) and its way, read from the work
  // the device did.
  FusionDeviceWay flush_window() {
    const std::size_t before = g_log.work.size();
    const int replays = g_log.launched_replays;
    {
      KE::FusionScope scope;
      for (int k = 0; k < 3; ++k) record<0>(k, x, y);
    }
    const std::string work = g_log.work.substr(before);
    if (work == "F") return FusionDeviceWay::fused;
    if (work == "R") return FusionDeviceWay::fused_other_registers;
    if (work == "T") return FusionDeviceWay::fused_other_tile;
    EXPECT_EQ(work, "AAA") << "one fused kernel, or every launch alone";
    return g_log.launched_replays > replays ? FusionDeviceWay::unfused_graph : FusionDeviceWay::unfused;
  }
  // The ways of `count` flushes.
  std::vector<FusionDeviceWay> flush_windows(int count) {
    std::vector<FusionDeviceWay> ways;
    for (int k = 0; k < count; ++k) ways.push_back(flush_window());
    return ways;
  }
};

int count_of(const std::vector<FusionDeviceWay>& ways, FusionDeviceWay way) {
  return static_cast<int>(std::count(ways.begin(), ways.end(), way));
}

// The first epoch (64 memoized flushes after the one that analyses the window) runs every open
// way three times in a row (the first untimed), then the fastest; the statistics count the
// windows run another way.
TEST_F(FusionDeviceChoice, SettlesOnTheFastestWay) {
  in_own_window([&] {
    g_costs.alone = 20;  // three launches alone: 60 against 100 for the kernel
    g_costs.graph_saving_per_launch = 15;  // replayed as a graph: 15
    const std::vector<FusionDeviceWay> ways = flush_windows(65);
    EXPECT_EQ(ways[0], FusionDeviceWay::fused) << "the flush that analyses the window chooses nothing";
    for (FusionDeviceWay way : {FusionDeviceWay::fused, FusionDeviceWay::fused_other_registers,
                                FusionDeviceWay::fused_other_tile, FusionDeviceWay::unfused, FusionDeviceWay::unfused_graph}) {
      EXPECT_EQ(count_of({ways.begin() + 1, ways.begin() + 16}, way), 3) << static_cast<int>(way);
    }
    for (std::size_t k = 16; k < ways.size(); ++k) EXPECT_EQ(ways[k], FusionDeviceWay::unfused_graph) << k;
    EXPECT_EQ(g_log.timings_started, 10) << "two timed executions per way";
    const KE::FusionStatistics s = KE::fusion_statistics();
    EXPECT_EQ(s.device_windows_unfused_graph, static_cast<std::uint64_t>(count_of(ways, FusionDeviceWay::unfused_graph)));
    EXPECT_EQ(s.device_windows_unfused, static_cast<std::uint64_t>(count_of(ways, FusionDeviceWay::unfused)));
    EXPECT_EQ(s.device_windows_other_tile, static_cast<std::uint64_t>(count_of(ways, FusionDeviceWay::fused_other_tile)));
    EXPECT_EQ(s.device_windows_other_registers,
              static_cast<std::uint64_t>(count_of(ways, FusionDeviceWay::fused_other_registers)));
  });
}

// A fused variant that wins is launched in that variant; when the costs change, the next epoch
// re-times the ways and follows.
TEST_F(FusionDeviceChoice, FollowsTheCostsFromEpochToEpoch) {
  in_own_window([&] {
    g_costs.other_tile = 40;
    std::vector<FusionDeviceWay> ways = flush_windows(65);
    EXPECT_EQ(ways.back(), FusionDeviceWay::fused_other_tile);
    g_costs.other_tile = 100;
    g_costs.other_registers = 30;
    ways = flush_windows(64);  // the second epoch
    EXPECT_EQ(ways.back(), FusionDeviceWay::fused_other_registers);
  });
}

// Timings the device has not finished are read at a later flush; where the choice is about to
// use them it waits for them, so the late answers change nothing.
TEST_F(FusionDeviceChoice, LateTimingsAreWaitedForBeforeTheyAreUsed) {
  in_own_window([&] {
    g_costs.polls_until_ready = 1000;  // never ready without waiting
    g_costs.alone = 10;
    g_costs.graph_saving_per_launch = -5;  // this graph costs more than it saves
    const std::vector<FusionDeviceWay> ways = flush_windows(40);
    for (std::size_t k = 16; k < ways.size(); ++k) EXPECT_EQ(ways[k], FusionDeviceWay::unfused) << k;
    EXPECT_EQ(g_log.timings_started, 10);
  });
}

// Where the device cannot time (start() returns null) nothing is measured, and the window keeps
// the default fused way once the ways have had their turns.
TEST_F(FusionDeviceChoice, UntimedWaysAreNeverChosen) {
  in_own_window([&] {
    g_costs.cannot_time = true;
    g_costs.alone = 1;  // would win if it were measured
    const std::vector<FusionDeviceWay> ways = flush_windows(40);
    for (std::size_t k = 16; k < ways.size(); ++k) EXPECT_EQ(ways[k], FusionDeviceWay::fused) << k;
  });
}

// Closed ways never run: the kernel variants where the back end fixes its knobs.
TEST_F(FusionDeviceChoice, ClosedVariantsNeverRun) {
  in_own_window([&] {
    g_variants_open = false;
    const std::vector<FusionDeviceWay> ways = flush_windows(65);
    EXPECT_EQ(count_of(ways, FusionDeviceWay::fused_other_registers), 0);
    EXPECT_EQ(count_of(ways, FusionDeviceWay::fused_other_tile), 0);
    EXPECT_EQ(g_log.timings_started, 6) << "fused, unfused_graph and unfused, twice each";
  });
}

// Nothing timed where adaptive dispatch is off or the back end has no timer.
TEST_F(FusionDeviceChoice, TimesOnlyWhereAskedAndAble) {
  in_own_window([&] {
    KE::set_fusion_adaptive_dispatch(false);
    EXPECT_EQ(count_of(flush_windows(30), FusionDeviceWay::fused), 30);
    EXPECT_EQ(g_log.timings_started, 0);
    KE::set_fusion_adaptive_dispatch(true);
    g_timer = nullptr;
    EXPECT_EQ(count_of(flush_windows(30), FusionDeviceWay::fused), 30);
    EXPECT_EQ(g_log.timings_started, 0);
  });
}

// A window that is neither fused nor replayable has one way: not timed.  (Two launches of
// different instances... the stand-in has one; a window of one launch has no fused run, and its
// graph replay is the other way, so it is timed: fused (the graph) against unfused.)
TEST_F(FusionDeviceChoice, AWindowOfOneLaunchChoosesGraphOrNot) {
  in_own_window([&] {
    g_costs.alone = 50;
    g_costs.graph_saving_per_launch = 40;
    for (int k = 0; k < 65; ++k) {
      KE::FusionScope scope;
      record<0>(0, x, y);
    }
    EXPECT_EQ(g_log.timings_started, 4) << "the graph (way fused) and the plain launch, twice each";
    EXPECT_TRUE(g_log.kernels.empty());
    EXPECT_EQ(KE::fusion_statistics().device_windows_unfused, 3u) << "its three executions, one untimed";
  });
}

// The choice on its own, with a timer whose answers are injected: an unopened way is never
// handed out, results arrive in order, and a way 1.5x slower than the fastest in two epochs in a
// row is no longer timed.
TEST(FusionDeviceDispatchChoice, PrunesAWayTwiceTooSlow) {
  g_costs = InjectedCosts{};
  using Choice = Kokkos::Impl::FusionDeviceDispatchChoice;
  Choice choice;
  Kokkos::Impl::FusionDeviceWaysOpen open;
  open.fuses = true;  // fused and unfused only
  std::vector<int> timed_unfused_per_epoch;
  g_log = DeviceLog{};
  for (int epoch = 0; epoch < 4; ++epoch) {
    int timed_unfused = 0;
    for (std::uint32_t k = 0; k < choice.epoch_length(); ++k) {
      const Choice::Decision d = choice.next(g_stand_in_timer, open);
      ASSERT_TRUE(d.way == FusionDeviceWay::fused || d.way == FusionDeviceWay::unfused);
      if (!d.timed) continue;
      timed_unfused += d.way == FusionDeviceWay::unfused;
      auto* mark = static_cast<StandInMark*>(g_stand_in_timer.start(nullptr));
      mark->ns = d.way == FusionDeviceWay::fused ? 100 : 200;
      choice.pending(d.way, mark);
    }
    timed_unfused_per_epoch.push_back(timed_unfused);
  }
  EXPECT_EQ(timed_unfused_per_epoch, (std::vector<int>{2, 2, 0, 0}));
  EXPECT_TRUE(choice.dropped(FusionDeviceWay::unfused));
  EXPECT_EQ(choice.time_ns(FusionDeviceWay::fused), 100);
}

}  // namespace

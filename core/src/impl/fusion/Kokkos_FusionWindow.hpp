#pragma once
// The fusion window: the calling host thread's recorded launches and their flush (analysis,
// statistics, execution).  The window's other concerns have files of their own beside it:
// Kokkos_FusionHostRun.hpp executes a fused run on a host back end, Kokkos_FusionDeviceRun.hpp
// on a device back end (and replays a memoized window there), Kokkos_FusionMessages.hpp lets
// MPI messages wait only for the launches they depend on.  Kokkos_Fusion.hpp includes them all.
#include <Kokkos_Abort.hpp>
#include <Kokkos_FusionStatistics.hpp>
#include <Kokkos_Macros.hpp>
#include <impl/fusion/Kokkos_FusionAnalysis.hpp>
#include <impl/fusion/Kokkos_FusionArena.hpp>
#include <impl/fusion/Kokkos_FusionDevicePlugin.hpp>
#include <impl/fusion/Kokkos_FusionDispatchChoice.hpp>
#include <impl/fusion/Kokkos_FusionGraphviz.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/fusion/Kokkos_FusionLaunch.hpp>
#include <impl/fusion/Kokkos_FusionReport.hpp>
#include <impl/fusion/Kokkos_FusionSettings.hpp>
#include <impl/fusion/Kokkos_FusionTemporaries.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace Kokkos::Impl {

struct FusionVerifyRecord;

class FusionWindow {
 public:
  FusionWindow() = default;
  FusionWindow(const FusionWindow&) = delete;
  FusionWindow& operator=(const FusionWindow&) = delete;
  ~FusionWindow() {
    // A thread that exits with launches pending (fusion_begin without fusion_end) still runs
    // them, unless the back ends are gone already: then they are dropped.
    if (!m_launches.empty() && !m_flushing) {
      if (Kokkos::is_initialized()) {
        flush(FusionFlush::scope_end);
      } else {
        clear();
      }
    }
  }

  bool recording() const { return m_depth > 0 && !m_flushing && fusion_is_enabled(); }
  int depth() const { return m_depth; }
  std::size_t size() const { return m_launches.size(); }

  void open() {
    if (m_depth++ == 0) register_hooks();
  }
  void close() {
    if (m_depth > 0) --m_depth;
    flush(FusionFlush::scope_end);
    if (m_inline > 0) {
      FusionConfig& c = fusion_config();
      std::lock_guard<std::mutex> lock(c.stats_mutex);
      c.stats.launches_inline += m_inline;
      m_inline = 0;
    }
  }
  // A launch that ran at once (fusion_runs_inline); counted when the scope closes.
  void count_inline() { ++m_inline; }

  // A RangePolicy launch, or an MDRangePolicy launch fused by its first dimension: its launch
  // index is the first index, its domain the first dimension's range, and (as for a rank-2
  // View in a RangePolicy launch) iteration (i0, ...) touches slice i0 of each declared View.
  template <class Functor, class Policy>
  void record_for(const Functor& functor, const Policy& policy, const FusionAccessDecl* decls, std::size_t n) {
    FusionLaunch launch = copy_launch<FusionForBlob<Functor, Policy>>(functor, policy);
    if constexpr (is_mdrange_policy<Policy>::value) {
      launch.begin = policy.m_lower[0];
      launch.end = policy.m_upper[0];
      for (int d = 1; d < Policy::rank; ++d) {
        if (policy.m_upper[d] <= policy.m_lower[d]) launch.end = launch.begin;  // an empty box
      }
    } else {
      launch.begin = static_cast<std::int64_t>(policy.begin());
      launch.end = static_cast<std::int64_t>(policy.end());
    }
    const bool fusible = HostBackend<typename Policy::execution_space>;
    launch.on_host = fusible;
    launch.tools_device_id = Tools::Impl::policy_device_id(policy);
    push(launch, fusible ? FusionLaunchKind::range_for : FusionLaunchKind::opaque,
         type_tag<typename Policy::execution_space>(), decls, n);
    m_report_names.push_back(fusion_recorded_name<Functor, Policy>());
  }

  template <class CombinedFunctorReducer, class Policy>
  void record_reduce(const CombinedFunctorReducer& functor_reducer, const Policy& policy,
                     typename CombinedFunctorReducer::reducer_type::pointer_type result, const FusionAccessDecl* decls,
                     std::size_t n) {
    FusionLaunch launch = copy_launch<FusionReduceBlob<CombinedFunctorReducer, Policy>>(functor_reducer, policy, result);
    launch.begin = static_cast<std::int64_t>(policy.begin());
    launch.end = static_cast<std::int64_t>(policy.end());
    const bool fusible = HostBackend<typename Policy::execution_space>;
    launch.on_host = fusible;
    launch.result = result;
    launch.result_bytes = functor_reducer.get_reducer().value_size();
    launch.tools_device_id = Tools::Impl::policy_device_id(policy);
    push(launch, fusible ? FusionLaunchKind::range_reduce : FusionLaunchKind::opaque,
         type_tag<typename Policy::execution_space>(), decls, n);
    m_report_names.push_back(fusion_recorded_name<typename CombinedFunctorReducer::functor_type, Policy>());
  }

  template <class Functor, class Policy>
  void record_opaque(const Functor& functor, const Policy& policy, const FusionAccessDecl* decls, std::size_t n) {
    FusionLaunch launch = copy_launch<FusionOpaqueBlob<Functor, Policy>>(functor, policy);
    launch.on_host = HostBackend<typename Policy::execution_space>;
    launch.tools_device_id = Tools::Impl::policy_device_id(policy);
    push(launch, FusionLaunchKind::opaque, type_tag<typename Policy::execution_space>(), decls, n);
    m_report_names.push_back(fusion_recorded_name<Functor, Policy>());
  }

  // A launch on a device back end (Cuda/Kokkos_Cuda_Fusion.hpp): Blob::describe(blob) fills the
  // blob's FusionDeviceLaunch.  The domain is the instance's: launches on different streams never fuse.
  template <class Blob, class Functor, class Policy, class... Args>
  void record_device(FusionLaunchKind kind, const Policy& policy, const FusionAccessDecl* decls, std::size_t n,
                     const Args&... args) {
    FusionLaunch launch = copy_launch<Blob>(args...);
    Blob& blob = *static_cast<Blob*>(launch.blob);
    Blob::describe(blob);
    launch.device = &blob.device;
    launch.on_host = false;
    if constexpr (requires { blob.result; }) {
      launch.result = blob.result;
      launch.result_bytes = blob.functor_reducer.get_reducer().value_size();
    }
    launch.begin = static_cast<std::int64_t>(policy.begin());
    launch.end = static_cast<std::int64_t>(policy.end());
    launch.tools_device_id = Tools::Impl::policy_device_id(policy);
    push(launch, kind, blob.device.instance, decls, n);
    m_report_names.push_back(fusion_recorded_name<Functor, Policy>());
  }

  bool touches(const void* base, std::size_t bytes) const {
    const auto* lo = static_cast<const std::byte*>(base);
    for (const FusionAccess& a : m_accesses) {
      if (a.allocation == nullptr) continue;
      const auto* b = static_cast<const std::byte*>(a.allocation);
      if (a.allocation == fusion_unmanaged_allocation()) {
        // Unmanaged Views: `offset` is the address itself.
        const auto addr = static_cast<std::uintptr_t>(a.offset);
        const auto x = reinterpret_cast<std::uintptr_t>(lo);
        if (addr < x + bytes && x < addr + static_cast<std::uintptr_t>(a.span_bytes)) return true;
        continue;
      }
      if (b < lo + bytes && lo < b + a.allocation_bytes) return true;
    }
    return false;
  }

  void flush(FusionFlush reason);

  // The analysis of the launches recorded so far, as a Graphviz digraph (they stay recorded).
  std::string dot() const {
    return fusion_plan_dot(analyze_fusion_window(m_summaries.data(), m_summaries.size(), m_accesses.data()),
                           m_report_names);
  }

  // Communication (mpi/src/Kokkos_MPI.hpp): a message is an access by the host outside any
  // launch.  Runs now only the recorded launches that conflict with `access` and, transitively,
  // the earlier launches those conflict with; the rest stay recorded, in program order, and go
  // on fusing with later launches.  Returns how many launches ran.
  std::size_t flush_dependences(const FusionAccess& access, FusionFlush reason);

  // A message in flight: until `complete(context)` returns, a recorded launch that conflicts
  // with `access` must not run; a flush that would run one calls complete first (it waits for
  // the message and withdraws the access).
  void add_in_flight(const FusionAccess& access, void (*complete)(void*), void* context) {
    m_in_flight.push_back({access, complete, context});
  }
  void remove_in_flight(const void* context) {
    std::erase_if(m_in_flight, [&](const InFlight& m) { return m.context == context; });
  }

  // Two accesses conflict when they may share bytes and one of them writes (or reduces).
  // Accesses with the same stride between slices, each slice narrower than the stride (rows or
  // columns of one row-major array), share bytes only where their slices meet: a column halo
  // does not conflict with a launch on the interior columns.  Otherwise their spans decide.
  static bool conflict(const FusionAccess& a, const FusionAccess& b) {
    if (a.privilege == Privilege::read && b.privilege == Privilege::read) return false;
    if (a.span_bytes == 0 || b.span_bytes == 0) return false;
    const auto a0 = static_cast<std::int64_t>(a.address), b0 = static_cast<std::int64_t>(b.address);
    if (!(a0 < b0 + b.span_bytes && b0 < a0 + a.span_bytes)) return false;
    const std::int64_t pitch = a.stride, wa = a.slice_bytes, wb = b.slice_bytes;
    if (pitch <= 0 || b.stride != pitch || wa <= 0 || wb <= 0 || wa > pitch || wb > pitch) return true;
    // Slice i of a covers [a0 + i pitch, + wa), slice k of b [b0 + k pitch, + wb): they meet
    // when t = d + (k - i) pitch lies in (-wb, wa), d = b0 - a0: for at most two values of k - i.
    const std::int64_t rows_a = (a.span_bytes - wa) / pitch + 1, rows_b = (b.span_bytes - wb) / pitch + 1;
    const std::int64_t d = b0 - a0, x = -wb - d;
    const std::int64_t floor_x = x >= 0 ? x / pitch : -((-x + pitch - 1) / pitch);
    for (std::int64_t j = floor_x + 1; j <= floor_x + 2; ++j) {
      if (d + j * pitch < wa && j >= -(rows_a - 1) && j <= rows_b - 1) return true;
    }
    return false;
  }

  // The label of the first pending launch that writes or reduces into `allocation`, or null.
  const char* pending_writer(const void* allocation) const {
    for (std::size_t k = 0; k < m_summaries.size(); ++k) {
      const FusionLaunchSummary& s = m_summaries[k];
      for (std::uint32_t a = s.first_access; a < s.first_access + s.num_accesses; ++a) {
        if (m_accesses[a].allocation == allocation && m_accesses[a].privilege != Privilege::read) {
          if (k >= m_labels.size() || m_labels[k].empty()) return "(unnamed)";
          return m_labels[k].c_str();
        }
      }
    }
    return nullptr;
  }

 private:
  struct InFlight {
    FusionAccess access;
    void (*complete)(void*);
    void* context;
  };
  bool launch_conflicts(std::size_t k, const FusionAccess& access) const {
    const FusionLaunchSummary& s = m_summaries[k];
    for (std::uint32_t a = 0; a < s.num_accesses; ++a) {
      if (conflict(m_accesses[s.first_access + a], access)) return true;
    }
    return false;
  }
  bool launches_conflict(std::size_t k, std::size_t j) const {
    const FusionLaunchSummary& s = m_summaries[j];
    for (std::uint32_t a = 0; a < s.num_accesses; ++a) {
      if (launch_conflicts(k, m_accesses[s.first_access + a])) return true;
    }
    return false;
  }
  // Waits for the messages in flight that the recorded launches about to run conflict with.
  void complete_conflicting_messages() {
    if (m_in_flight.empty()) return;
    complete_messages_if([&](const FusionAccess& access) {
      for (std::size_t k = 0; k < m_summaries.size(); ++k) {
        if (launch_conflicts(k, access)) return true;
      }
      return false;
    });
  }
  template <class Conflicts>
  void complete_messages_if(const Conflicts& conflicts) {
    std::vector<InFlight> due;
    for (const InFlight& m : m_in_flight) {
      if (conflicts(m.access)) due.push_back(m);
    }
    for (const InFlight& m : due) m.complete(m.context);
  }

 public:
  // A launch with declared accesses that runs at once (no window, fusion off, or run inline):
  // the messages in flight it conflicts with complete first, as they would before a flush.
  void complete_messages_before(const FusionAccessDecl* decls, std::size_t n) {
    if (m_in_flight.empty()) return;
    complete_messages_if([&](const FusionAccess& access) {
      for (std::size_t k = 0; k < n; ++k) {
        if (conflict(decls[k].access, access)) return true;
      }
      return false;
    });
  }

 private:

 private:
  template <class ExecSpace>
  static const void* type_tag() {
    static const char tag = 0;
    return &tag;
  }

  // The functor's Views are copied untracked: the window holds one reference per declared
  // allocation instead (hold), which saves two locked read-modify-writes per View per launch.
  // An undeclared View's allocation freed before the flush flushes first (SharedAllocationRecord).
  // Makes room, copies the launch into the arena and describes it (the range is the caller's).
  template <class Blob, class... Args>
  FusionLaunch copy_launch(const Args&... args) {
    make_room();
    void* where = m_arena.allocate(sizeof(Blob), alignof(Blob));
    // Zeroed first: the padding inside a recorded closure is then the same from one window to
    // the next, as device_signature compares the bytes.
    std::memset(where, 0, sizeof(Blob));
    FusionLaunch launch;
    {
      const ViewTrackingDisabled untracked;
      launch.blob = new (where) Blob{args...};
    }
    launch.blob_bytes = sizeof(Blob);
    launch.execute_alone = &Blob::execute_alone;
    launch.destroy = &fusion_destroy_blob<Blob>;
    if constexpr (requires { &Blob::drive; }) {
      launch.drive = &Blob::drive;
      launch.pool_size = &fusion_blob_pool_size<Blob>;
    }
    if constexpr (requires { &Blob::run_chunk; }) launch.run_chunk = &Blob::run_chunk;
    if constexpr (requires { Blob::rebasable; }) {
      launch.rebasable = Blob::rebasable;
      if constexpr (requires { &Blob::run_chunk_rebased; }) launch.run_chunk_rebased = &Blob::run_chunk_rebased;
    }
    if constexpr (requires { &Blob::on_workers; }) launch.on_workers = &Blob::on_workers;
    return launch;
  }

  void hold(SharedAllocationRecord* record) {
    for (SharedAllocationRecord* held : m_held) {
      if (held == record) return;
    }
    record->increment();
    m_held.push_back(record);
  }

  void make_room() {
    if (static_cast<int>(m_launches.size()) >= m_sizer.limit()) flush(FusionFlush::window_full);
  }

  void push(const FusionLaunch& launch, FusionLaunchKind kind, const void* space_tag, const FusionAccessDecl* decls,
            std::size_t n) {
    FusionLaunchSummary summary;
    summary.kind = kind;
    summary.domain = domain_id(space_tag, launch.begin, launch.end);
    summary.code = reinterpret_cast<std::intptr_t>(launch.execute_alone);
    summary.first_access = static_cast<std::uint32_t>(m_accesses.size());
    for (std::size_t k = 0; k < n; ++k) {
      if (decls[k].record != nullptr) hold(decls[k].record);
      if (decls[k].access.span_bytes == 0) continue;  // an empty View touches nothing
      FusionAccess a = decls[k].access;
      if (a.allocation == fusion_unmanaged_allocation()) m_has_unmanaged = true;
      a.shape = shape_id(decls[k].shape);
      m_accesses.push_back(a);
    }
    summary.num_accesses = static_cast<std::uint32_t>(m_accesses.size()) - summary.first_access;
    m_launches.push_back(launch);
    m_launches.back().space = space_tag;
    if (fusion_keeps_labels().load(std::memory_order_relaxed) || fusion_verifies()) {
      const std::string* label = t_fusion_hooks.issuing_label;
      m_labels.resize(m_launches.size());
      m_labels.back() = label != nullptr ? *label : std::string();
    }
    m_summaries.push_back(summary);
    t_fusion_hooks.pending = true;
  }

  std::int32_t domain_id(const void* space_tag, std::int64_t b, std::int64_t e) {
    for (std::size_t k = 0; k < m_domains.size(); ++k) {
      if (m_domains[k].space == space_tag && m_domains[k].begin == b && m_domains[k].end == e) {
        return static_cast<std::int32_t>(k);
      }
    }
    m_domains.push_back({space_tag, b, e});
    return static_cast<std::int32_t>(m_domains.size() - 1);
  }
  std::int32_t shape_id(const FusionShape& shape) {
    for (std::size_t k = 0; k < m_shapes.size(); ++k) {
      if (m_shapes[k] == shape) return static_cast<std::int32_t>(k);
    }
    m_shapes.push_back(shape);
    return static_cast<std::int32_t>(m_shapes.size() - 1);
  }

  static void register_hooks() {
    FusionHookState& h = t_fusion_hooks;
    if (h.flush == nullptr) {
      h.flush = [](FusionFlush reason) { this_thread_window().flush(reason); };
      h.touches = [](const void* base, std::size_t bytes) { return this_thread_window().touches(base, bytes); };
      h.pending_writer = [](const void* allocation) { return this_thread_window().pending_writer(allocation); };
      h.defers_allocation = [](std::size_t bytes) {
        return this_thread_window().recording() && fusion_eliminates_temporaries() &&
               static_cast<std::int64_t>(bytes) >= fusion_temporary_bytes();
      };
    }
    FusionConfig& c = fusion_config();
    if (fusion_env_int("KOKKOS_FUSION_STATS", 0) != 0) {
      bool first = false;
      {
        std::lock_guard<std::mutex> lock(c.stats_mutex);
        first = !c.stats_hook_registered;
        c.stats_hook_registered = true;
      }
      if (first) push_finalize_hook(&fusion_print_statistics_at_finalize);
    }
  }

  // Returns how a run of two or more was executed (workers for a run of one).
  // The steps of flush().
  const FusionPlan& plan_window(FusionPlan& unmemoized, bool& memo_hit);
  static Kokkos::Experimental::FusionStatistics plan_statistics(const FusionPlan& plan, std::size_t launches,
                                                        FusionFlush reason, bool memo_hit, double seconds);
  void run_plan(const FusionPlan& plan, bool adapt, Kokkos::Experimental::FusionStatistics& delta);
  void run_in_order(const FusionPlan& plan, std::uint32_t from, std::uint32_t to, bool adapt,
                    Kokkos::Experimental::FusionStatistics& delta);
  FusionDispatchChoice::Way execute(const FusionRun& run, bool adapt);
  // Launch `index` dispatched alone, reported as a normal launch.
  void execute_alone_reported(std::size_t index) const {
    const FusionLaunch& launch = m_launches[index];
    if (KOKKOS_IMPL_LIKELY(m_report_names[index].empty())) {
      launch.execute_alone(launch.blob);
      return;
    }
    fusion_report_launch(m_summaries[index].kind == FusionLaunchKind::range_reduce, m_report_names[index],
                         launch.tools_device_id, [&] { launch.execute_alone(launch.blob); });
  }
  // The run's one dispatch, reported as one launch named after its members.
  template <class Body>
  void drive_reported(const FusionRun& run, bool reduces, const Body& body) const {
    if (KOKKOS_IMPL_LIKELY(m_report_names[run.first].empty())) {
      body();
      return;
    }
    fusion_report_launch(reduces, fused_run_name(&m_report_names[run.first], run.count),
                         m_launches[run.first].tools_device_id, body, true);
  }
  void prepare(const FusionRun& run, FusedRun& fused) const;
  void execute_on_device(const FusionRun& run, Kokkos::Experimental::FusionStatistics& delta) const;
  const FusionDeviceReplay* device_replay() const;
  const FusionDeviceLaunch* device_choosing_launch() const;
  FusionDeviceWaysOpen device_ways_open(const FusionPlan& plan, const FusionDeviceLaunch& device, bool graph) const;
  void run_on_device_measured(const FusionPlan& plan, const FusionDeviceLaunch& device, const FusionDeviceReplay* replay,
                              Kokkos::Experimental::FusionStatistics& delta, bool adapt);
  bool device_signature(std::vector<unsigned char>& out) const;
  template <class RunAll>
  void replay_on_device(const FusionDeviceReplay& replay, const FusionPlan& plan,
                        Kokkos::Experimental::FusionStatistics& delta, const RunAll& run_all);
  void find_temporaries(const FusionPlan& plan, Kokkos::Experimental::FusionStatistics& delta);
  // Verify mode (Kokkos_FusionVerify.hpp): the window run unfused first, what it wrote kept and
  // the written memory put back; then, after the fused run, the two compared.
  std::unique_ptr<FusionVerifyRecord> verify_run_unfused();
  void verify_compare(const FusionVerifyRecord& unfused, const FusionPlan& plan) const;
  std::string verify_launch_name(std::size_t k) const;
  std::string verify_view_name(const FusionAccess& access) const;
  std::string verify_explain(std::size_t writer, const FusionPlan& plan) const;
  bool can_run_concurrently(const FusionPlan& plan, const FusionWave& wave) const;
  void run_concurrently(const FusionPlan& plan, const FusionWave& wave) const;
  void clear();

 public:
  static FusionWindow& this_thread_window();

 private:
  struct Domain {
    const void* space;
    std::int64_t begin, end;
  };
  std::vector<FusionLaunch> m_launches;
  std::vector<FusionLaunchSummary> m_summaries;
  std::vector<FusionAccess> m_accesses;
  std::vector<FusionShape> m_shapes;
  std::vector<Domain> m_domains;
  FusionArena m_arena;
  FusionMemo m_memo;
  std::vector<std::int64_t> m_key;
  std::vector<const void*> m_names;
  std::vector<SharedAllocationRecord*> m_held;  // one counted reference per declared allocation
  std::vector<std::string> m_report_names;      // per launch: its reported name, "" when nobody listens
  std::vector<std::string> m_labels;  // per launch, only while fusion_keeps_labels()
  FusionWindowSizer m_sizer;
  // This flush's eliminated temporaries (find_temporaries), grouped by run; a run's slot is
  // found by its first launch.
  struct RunTemporaries {
    std::uint32_t first_temporary = 0, count = 0;
    std::int64_t buffer_offset = 0, buffer_bytes = 0;  // in m_buffers; buffer_bytes per worker
  };
  std::vector<FusionTemporary> m_temporaries;
  std::vector<RunTemporaries> m_run_temporaries;
  std::vector<std::int32_t> m_temporary_slot;  // per launch index: the run's slot when it starts one, -1
  struct BufferFree {
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t{64}); }
  };
  std::unique_ptr<std::byte, BufferFree> m_buffers;  // the chunk buffers, kept from flush to flush
  std::size_t m_buffers_capacity = 0;

 public:
  int current_limit() { return m_sizer.limit(); }

 private:
  std::uint64_t m_inline = 0;
  int m_depth = 0;
  bool m_flushing = false;
  bool m_has_unmanaged = false;
  bool m_partial = false;  // flushing a subset (flush_dependences): the rest keep the arena and holds
  std::vector<InFlight> m_in_flight;
  // Device replays of memoized windows (FusionDeviceReplay), by plan.  A plan the memo evicted
  // leaves its entry to whichever plan takes its address: that plan's recording updates the
  // replay, or replaces it where the structure differs, as for a plan of its own.
  // A memoized plan's device replay, with what its recording was made from (device_signature)
  // and what dispatching the window added to the statistics.
  struct DeviceReplay {
    const FusionPlan* plan = nullptr;
    FusionDeviceWay way = FusionDeviceWay::fused;  // the ways record different graphs
    std::shared_ptr<void> graph;
    std::vector<unsigned char> signature;
    std::uint64_t waves = 0, fused_kernels = 0, runs_split = 0, runs_unfused = 0;
    std::uint64_t temporaries = 0, temporary_bytes = 0;
  };
  std::vector<DeviceReplay> m_device_replays;
  std::vector<unsigned char> m_signature;  // this flush's (device_signature)
  // The way this flush runs a device window (FusionDeviceDispatchChoice), read by execute_on_device.
  FusionDeviceWay m_device_way = FusionDeviceWay::fused;
};

inline FusionWindow& FusionWindow::this_thread_window() {
  static thread_local FusionWindow window;
  return window;
}

inline void FusionWindow::clear() {
  for (FusionLaunch& l : m_launches) l.destroy(l.blob);
  m_launches.clear();
  m_summaries.clear();
  m_report_names.clear();
  m_labels.clear();
  m_accesses.clear();
  m_temporary_slot.clear();
  // The launches flush_dependences left recorded still live in the arena, name shapes and
  // domains by index, and need their allocations held.
  if (m_partial) return;
  m_shapes.clear();
  m_domains.clear();
  m_arena.reset();
  m_has_unmanaged = false;
  // Last: releasing an allocation may free it, which must not find launches still pending.
  std::vector<SharedAllocationRecord*> held;
  held.swap(m_held);
  for (SharedAllocationRecord* record : held) record->decrement();
  held.clear();
  if (m_held.empty()) m_held.swap(held);  // keep the capacity
}

inline void FusionWindow::flush(FusionFlush reason) {
  t_fusion_hooks.pending = false;
  if (m_launches.empty() || m_flushing) return;
  m_flushing = true;
  struct Done {
    FusionWindow& w;
    ~Done() {
      w.clear();
      w.m_flushing = false;
    }
  } done{*this};

  complete_conflicting_messages();
  const std::size_t n = m_launches.size();
  FusionPlan unmemoized;
  bool memo_hit = false;
  const auto t0 = std::chrono::steady_clock::now();
  const FusionPlan& plan = plan_window(unmemoized, memo_hit);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m_sizer.observe(reason, static_cast<int>(n), plan.runs.empty() ? 0 : static_cast<int>(plan.runs.back().count));

  Kokkos::Experimental::FusionStatistics delta = plan_statistics(plan, n, reason, memo_hit, seconds);
  const std::unique_ptr<FusionVerifyRecord> unfused = fusion_verifies() ? verify_run_unfused() : nullptr;
  find_temporaries(plan, delta);
  // The plan may live in the memo, which a nested flush never touches (we are flushing).
  const bool adapt = &plan != &unmemoized && fusion_adapts_dispatch();
  const FusionDeviceReplay* replay = memo_hit ? device_replay() : nullptr;
  const FusionDeviceLaunch* choosing = adapt && memo_hit ? device_choosing_launch() : nullptr;
  if (choosing != nullptr) {
    run_on_device_measured(plan, *choosing, replay, delta, adapt);
  } else if (replay != nullptr) {
    replay_on_device(*replay, plan, delta, [&] { run_plan(plan, adapt, delta); });
  } else {
    run_plan(plan, adapt, delta);
  }
  if (unfused) verify_compare(*unfused, plan);
  FusionConfig& config = fusion_config();
  std::lock_guard<std::mutex> lock(config.stats_mutex);
  config.stats += delta;
}

// The window's plan: from the memo when its canonical form was analysed before (memo_hit), else
// analysed now and memoized, or analysed into `unmemoized` where memoizing is off or a View is
// unmanaged (its address may be reused by another View between windows).
inline const FusionPlan& FusionWindow::plan_window(FusionPlan& unmemoized, bool& memo_hit) {
  const std::size_t n = m_launches.size();
  if (fusion_config().memoize.load(std::memory_order_relaxed) && !m_has_unmanaged) {
    FusionMemo::canonical_key(m_summaries.data(), n, m_accesses.data(), m_key, m_names);
    const FusionPlan* plan = m_memo.find(m_key);
    memo_hit = plan != nullptr;
    return memo_hit ? *plan : m_memo.insert(m_key, analyze_fusion_window(m_summaries.data(), n, m_accesses.data()));
  }
  memo_hit = false;
  unmemoized = analyze_fusion_window(m_summaries.data(), n, m_accesses.data());
  return unmemoized;
}

// What one flush adds to the statistics before anything runs: the plan's shape.
inline Kokkos::Experimental::FusionStatistics FusionWindow::plan_statistics(const FusionPlan& plan,
                                                                             std::size_t launches, FusionFlush reason,
                                                                             bool memo_hit, double seconds) {
  Kokkos::Experimental::FusionStatistics delta;
  delta.launches_recorded = launches;
  delta.windows_analysed = 1;
  delta.memo_hits = memo_hit ? 1 : 0;
  delta.analysis_seconds = seconds;
  for (int k = 0; k < fusion_constraint_count; ++k) delta.barriers[k] = plan.barriers[k];
  ++delta.flushes[static_cast<int>(reason)];
  for (const FusionRun& run : plan.runs) {
    delta.dispatches += 1;
    if (run.count < 2) continue;
    delta.fused_launches += 1;
    delta.launches_fused += run.count;
    if (delta.min_fused_length == 0 || run.count < delta.min_fused_length) delta.min_fused_length = run.count;
    if (run.count > delta.max_fused_length) delta.max_fused_length = run.count;
    if (run.split >= 0) delta.skewed_runs += 1;
  }
  return delta;
}

// Runs runs [from, to) of the plan one after another, each fused on its back end.
inline void FusionWindow::run_in_order(const FusionPlan& plan, std::uint32_t from, std::uint32_t to, bool adapt,
                                       Kokkos::Experimental::FusionStatistics& delta) {
  for (std::uint32_t r = from; r < to; ++r) {
    const FusionRun& run = plan.runs[r];
    if (run.count > 1 && m_launches[run.first].device != nullptr) {
      execute_on_device(run, delta);
      continue;
    }
    switch (execute(run, adapt)) {
      case FusionDispatchChoice::Way::caller: ++delta.fused_on_caller; break;
      case FusionDispatchChoice::Way::short_chunks: ++delta.fused_short_chunks; break;
      case FusionDispatchChoice::Way::long_chunks: ++delta.fused_long_chunks; break;
      case FusionDispatchChoice::Way::unfused: ++delta.fused_runs_unfused; break;
      case FusionDispatchChoice::Way::workers: break;
    }
  }
}

// Runs the whole plan: runs outside waves in program order; each wave of independent runs in
// order or concurrently (KOKKOS_FUSION_CONCURRENT, or as measured faster under adaptive dispatch).
inline void FusionWindow::run_plan(const FusionPlan& plan, bool adapt, Kokkos::Experimental::FusionStatistics& delta) {
  const FusionConcurrentMode concurrent = fusion_concurrent_mode();
  std::uint32_t next_run = 0;
  for (const FusionWave& wave : plan.waves) {
    run_in_order(plan, next_run, wave.first_run, adapt, delta);
    next_run = wave.first_run + wave.count;
    ++delta.waves;
    const bool eligible = concurrent != FusionConcurrentMode::off && can_run_concurrently(plan, wave);
    MeasuredChoice::Decision decision{FusionWave::in_order, false};
    if (eligible && concurrent == FusionConcurrentMode::always) {
      decision.way = FusionWave::concurrent;
    } else if (eligible && adapt) {
      decision = wave.choice.next();
    }
    const auto start = decision.timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    if (decision.way == FusionWave::concurrent) {
      run_concurrently(plan, wave);
      ++delta.waves_concurrent;
      delta.runs_concurrent += wave.count;
    } else {
      run_in_order(plan, wave.first_run, next_run, adapt, delta);
    }
    if (decision.timed) {
      wave.choice.record(decision.way,
                         std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
    }
  }
  run_in_order(plan, next_run, static_cast<std::uint32_t>(plan.runs.size()), adapt, delta);
}

inline std::size_t FusionWindow::flush_dependences(const FusionAccess& access, FusionFlush reason) {
  const std::size_t n = m_launches.size();
  if (n == 0 || m_flushing) return 0;
  // Backwards: a launch is needed if it conflicts with the access or with a later needed launch.
  std::vector<char> needed(n, 0);
  std::size_t count = 0;
  for (std::size_t k = n; k-- > 0;) {
    bool need = launch_conflicts(k, access);
    for (std::size_t j = k + 1; j < n && !need; ++j) need = needed[j] && launches_conflict(k, j);
    needed[k] = need ? 1 : 0;
    count += need ? 1 : 0;
  }
  if (count == 0) return 0;
  if (count == n) {
    flush(reason);
    return n;
  }
  // Split the window: the needed launches become the window and are flushed; the others wait.
  std::vector<FusionLaunch> run_launches, kept_launches;
  std::vector<FusionLaunchSummary> run_summaries, kept_summaries;
  std::vector<FusionAccess> run_accesses, kept_accesses;
  std::vector<std::string> run_names, kept_names, run_labels, kept_labels;
  for (std::size_t k = 0; k < n; ++k) {
    auto& launches = needed[k] ? run_launches : kept_launches;
    auto& summaries = needed[k] ? run_summaries : kept_summaries;
    auto& accesses = needed[k] ? run_accesses : kept_accesses;
    FusionLaunchSummary s = m_summaries[k];
    const auto first = m_accesses.begin() + s.first_access;
    s.first_access = static_cast<std::uint32_t>(accesses.size());
    accesses.insert(accesses.end(), first, first + s.num_accesses);
    launches.push_back(m_launches[k]);
    summaries.push_back(s);
    (needed[k] ? run_names : kept_names).push_back(std::move(m_report_names[k]));
    if (k < m_labels.size()) (needed[k] ? run_labels : kept_labels).push_back(std::move(m_labels[k]));
  }
  m_launches.swap(run_launches);
  m_report_names.swap(run_names);
  m_labels.swap(run_labels);
  m_summaries.swap(run_summaries);
  m_accesses.swap(run_accesses);
  m_partial = true;
  struct Restore {
    FusionWindow& w;
    std::vector<FusionLaunch>& launches;
    std::vector<FusionLaunchSummary>& summaries;
    std::vector<FusionAccess>& accesses;
    std::vector<std::string>& names;
    std::vector<std::string>& labels;
    ~Restore() {
      w.m_partial = false;
      w.m_launches.swap(launches);
      w.m_report_names.swap(names);
      w.m_labels.swap(labels);
      w.m_summaries.swap(summaries);
      w.m_accesses.swap(accesses);
      t_fusion_hooks.pending = !w.m_launches.empty();
    }
  } restore{*this, kept_launches, kept_summaries, kept_accesses, kept_names, kept_labels};
  flush(reason);
  return count;
}

}  // namespace Kokkos::Impl

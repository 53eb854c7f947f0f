#pragma once
// Kokkos::Experimental fusion: deferred launches with declared accesses, merged before dispatch
// (seeds 000, 003, 004).
//
// What the user writes
// --------------------
//   using namespace Kokkos::Experimental;
//   {
//     FusionScope fuse;                                   // open a window on this thread
//     Kokkos::parallel_for("t1", with_accesses(Kokkos::RangePolicy<>(0, n), reads(r), writes(t1)),
//                          KOKKOS_LAMBDA(int i) { t1(i) = -r(i); });
//     Kokkos::parallel_for("t2", with_accesses(Kokkos::RangePolicy<>(0, n), reads(t1), reads(t), writes(t2)),
//                          KOKKOS_LAMBDA(int i) { t2(i) = t1(i) * t(i); });
//     double s = 0;
//     Kokkos::parallel_reduce("sum", with_accesses(Kokkos::RangePolicy<>(0, n), reads(t2)),
//                             KOKKOS_LAMBDA(int i, double& a) { a += t2(i); }, s);   // one launch
//   }
//
// `with_accesses(policy_or_count, access...)` wraps any execution policy; each access is
// `reads(v)`, `writes(v)`, `read_writes(v)` or `reduces(v)` for a View v (any rank, any
// subview).  The declaration is a promise: iteration i touches only v(i, ...) of each
// declared View v (its i-th slice; rank-0 Views are shared by all iterations), and only
// with the declared privilege.  A neighbour access is declared as a shifted subview
// (seed 000's stencil: `east = subview(input, {0, n-2})`, `west = subview(input, {2, n})`).
// An MDRangePolicy launch is fused by its first dimension: iteration (i0, i1, ...) touches
// only slice i0 of each declared View, so it fuses with MDRange and RangePolicy launches over
// the same first-dimension range (its other bounds may differ); a fused run walks whole
// "rows" i0 in chunks, each launch over its own box.  An MDRange parallel_reduce runs alone
// (its tile order is its summation order).  Team and scan launches run alone.
// Launches with declared accesses inside a window are recorded; the algorithms in
// <Kokkos_StdAlgorithms_Fused.hpp> declare their own.  Outside a window, or with fusion
// switched off, they run at once exactly as without the wrapper.
//
// When recorded launches run (the window flushes)
//   - Kokkos::fence(), ExecSpace::fence(), the end of the FusionScope, fusion_flush();
//   - deep_copy or a mirror copy touching an allocation a recorded launch accesses;
//   - a launch without declared accesses (it might touch anything);
//   - a parallel_reduce with declared accesses: its result is delivered before it returns
//     (it ends its fused run, which is dispatched at once);
//   - the window is full (fusion_current_window_size(): it starts at fusion_window_size(), default
//     50 as in seed 000 (KOKKOS_FUSION_WINDOW), doubles up to 1024 while full windows end in a
//     fused run covering half of them or more, and halves back after four flushes in a row
//     forced with the window under a quarter full (seed 003 §7); set_fusion_adaptive_window(false)
//     or KOKKOS_FUSION_ADAPTIVE_WINDOW=0 keeps it fixed);
//   - an allocation is freed while launches are pending (one of them might use it).
// Host reads of pending results follow the rule Kokkos has for asynchronous back ends:
// fence first.  Reading a View on the host that a recorded launch writes, before a fence or
// the end of the scope, reads stale data.  The window keeps every declared allocation alive
// until the flush (one counted reference each; the recorded functors' View copies are
// untracked); other functor captures must stay alive until the flush.
//
// One thread: on an execution space with concurrency() == 1 a launch issued with nothing
// pending, whose declared Views span at most fusion_inline_bytes() (KOKKOS_FUSION_INLINE_BYTES,
// default 256 KiB), runs at once: fusing saves no fork/join there, and such a launch already
// has the cache locality fusing would give it.  A parallel_reduce issued with nothing pending
// always runs at once (it would be a run of one).
//
// Adaptive dispatch: a memoized fused run (one an iterative program repeats) times the ways it
// can be executed and runs the fastest (impl/fusion/Kokkos_FusionDispatchChoice.hpp): on the workers
// in cache-sized chunks; worker by worker on the calling thread (a run of a few thousand
// indices is often done before the workers would have woken); on the workers in chunks 16x
// longer; or launch by launch, unfused, so that fusing is never slower than not fusing once
// the run has been measured.  Every way gives bitwise the same results (the calling thread
// runs the workers' blocks in rank order).  set_fusion_adaptive_dispatch(false) or
// KOKKOS_FUSION_ADAPTIVE=0 always runs the first way.
//
// Concurrent flush (seed 004): the runs a flush executes form a dependence graph through their
// declared accesses.  A stretch of consecutive runs that are plain loops (no reduction, no
// skew) and fall into two or more independent chains (runs linked by touching something one of
// them writes; a "wave") runs in one dispatch: each chain on its own group of workers sized by
// its work (indices times launches), its runs in program order with a barrier between them, so
// two interleaved chains of ten launches cost one fork/join instead of twenty.  Every index
// still computes from the same inputs, so the bits are those of program order.  With one
// worker nothing changes.  Whether a memoized wave runs concurrently or in order is measured
// like the dispatch above; set_fusion_concurrent_flush(FusionConcurrentFlush::off / measured /
// always) or KOKKOS_FUSION_CONCURRENT=0/1/2 overrides it.
//
// Switching it off: set_fusion_enabled(false) or KOKKOS_FUSION=0 runs the same program with
// every launch dispatched where it is issued; results are bitwise identical either way
// (element-wise bodies see the same inputs; reductions keep the host reduce's per-worker
// blocks and rank-order join, see impl/fusion/Kokkos_FusionWindow.hpp).
//
// Messages (mpi/src/Kokkos_MPI.hpp, isend_view / irecv_view) declare their accesses too: a
// message runs only the recorded launches it depends on, and a launch with declared accesses
// never runs (recorded or at once) while a message it conflicts with is in flight: the message
// completes first.
//
// Temporaries: a View of at least fusion_temporary_bytes() (256 KiB) created inside the window,
// written and last read inside one fused run, and whose last handle is gone at the flush, is
// kept chunk-sized per worker instead of materialised, where every launch touching it is an
// array algorithm (impl/fusion/Kokkos_FusionTemporaries.hpp has the exact conditions).
//
// Statistics: fusion_statistics(), print_fusion_statistics(os); KOKKOS_FUSION_STATS=1 prints
// them at finalize.  Analysis and constraints: impl/fusion/Kokkos_FusionAnalysis.hpp.
#include <Kokkos_Core.hpp>
#include <impl/fusion/Kokkos_FusionAnalysis.hpp>
#include <impl/fusion/Kokkos_FusionCheck.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/fusion/Kokkos_FusionReport.hpp>
#include <impl/fusion/Kokkos_FusionDeviceRun.hpp>
#include <impl/fusion/Kokkos_FusionHostRun.hpp>
#include <impl/fusion/Kokkos_FusionMessages.hpp>
#include <impl/fusion/Kokkos_FusionVerify.hpp>
#include <impl/fusion/Kokkos_FusionWindow.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <type_traits>

namespace Kokkos::Experimental {

// ---- access declarations ---------------------------------------------------------------------

// One declared access; made by reads(v), writes(v), read_writes(v), reduces(v).
class DataAccess {
 public:
  const Kokkos::Impl::FusionAccessDecl& impl_decl() const { return m_decl; }

  template <class ViewType>
  static DataAccess impl_make(const ViewType& v, Privilege privilege) {
    using value_type = typename ViewType::value_type;
    constexpr std::int64_t bytes = static_cast<std::int64_t>(sizeof(value_type));
    constexpr unsigned rank = ViewType::rank();
    DataAccess a;
    Kokkos::Impl::FusionAccess& x = a.m_decl.access;
    Kokkos::Impl::FusionShape& shape = a.m_decl.shape;
    x.privilege = privilege;
    x.address = reinterpret_cast<std::uintptr_t>(v.data());
    if (v.impl_track() != nullptr && v.impl_allocation_base() != nullptr) {
      a.m_decl.record = v.impl_track();
      x.allocation = v.impl_allocation_base();
      x.allocation_bytes = static_cast<std::int64_t>(v.impl_allocation_bytes());
      x.offset = static_cast<std::int64_t>(reinterpret_cast<const char*>(v.data()) -
                                           static_cast<const char*>(v.impl_allocation_base()));
    } else {
      x.allocation = Kokkos::Impl::fusion_unmanaged_allocation();
      x.offset = static_cast<std::int64_t>(x.address);
    }
    shape.rank = static_cast<std::int32_t>(rank);
    shape.element_bytes = static_cast<std::int32_t>(bytes);
    a.m_decl.device_inaccessible =
        !SpaceAccessibility<Kokkos::DefaultExecutionSpace, typename ViewType::memory_space>::accessible;
    if (v.size() == 0 || v.data() == nullptr) return a;  // touches nothing: span_bytes stays 0
    std::int64_t span = 0, inner = 0;
    for (int r = 0; r < static_cast<int>(rank); ++r) {  // int: rank may be 0
      const auto extent = static_cast<std::int64_t>(v.extent(r));
      const auto stride = static_cast<std::int64_t>(v.stride(r));
      span += (extent - 1) * stride;
      if (r > 0) {
        inner += (extent - 1) * stride;
        shape.extent[r] = extent;
        shape.stride[r] = stride * bytes;
      }
    }
    x.span_bytes = (span + 1) * bytes;
    x.slice_bytes = (inner + 1) * bytes;
    x.stride = rank == 0 ? 0 : static_cast<std::int64_t>(v.stride(0)) * bytes;
    return a;
  }

 private:
  Kokkos::Impl::FusionAccessDecl m_decl;
};

template <class ViewType>
DataAccess reads(const ViewType& v) {
  static_assert(is_view_v<ViewType>, "Kokkos::Experimental::reads: the argument must be a Kokkos::View");
  return DataAccess::impl_make(v, Privilege::read);
}
template <class ViewType>
DataAccess writes(const ViewType& v) {
  static_assert(is_view_v<ViewType>, "Kokkos::Experimental::writes: the argument must be a Kokkos::View");
  static_assert(!std::is_const_v<typename ViewType::value_type>,
                "Kokkos::Experimental::writes: the View's value type is const");
  return DataAccess::impl_make(v, Privilege::write);
}
template <class ViewType>
DataAccess read_writes(const ViewType& v) {
  static_assert(is_view_v<ViewType>, "Kokkos::Experimental::read_writes: the argument must be a Kokkos::View");
  static_assert(!std::is_const_v<typename ViewType::value_type>,
                "Kokkos::Experimental::read_writes: the View's value type is const");
  return DataAccess::impl_make(v, Privilege::read_write);
}
// Accumulated into with atomics (or another order-independent update) by every iteration.
template <class ViewType>
DataAccess reduces(const ViewType& v) {
  static_assert(is_view_v<ViewType>, "Kokkos::Experimental::reduces: the argument must be a Kokkos::View");
  return DataAccess::impl_make(v, Privilege::reduce);
}

}  // namespace Kokkos::Experimental

namespace Kokkos::Impl {
// The wrapped policy's optional member types, forwarded where it has them.
template <class P, class = void>
struct ForwardMemberType {};
template <class P>
struct ForwardMemberType<P, std::void_t<typename P::member_type>> {
  using member_type = typename P::member_type;
};
template <class P, class = void>
struct ForwardIndexType {};
template <class P>
struct ForwardIndexType<P, std::void_t<typename P::index_type>> {
  using index_type = typename P::index_type;
};
template <class P, class = void>
struct ForwardScheduleType {};
template <class P>
struct ForwardScheduleType<P, std::void_t<typename P::schedule_type>> {
  using schedule_type = typename P::schedule_type;
};
}  // namespace Kokkos::Impl

namespace Kokkos::Experimental {

// An execution policy with declared accesses; every launch front end accepts it.
template <class Policy, std::size_t N>
class AccessPolicy : public Kokkos::Impl::ForwardMemberType<Policy>,
                     public Kokkos::Impl::ForwardIndexType<Policy>,
                     public Kokkos::Impl::ForwardScheduleType<Policy> {
 public:
  using execution_policy = AccessPolicy;
  using inner_policy = Policy;
  using execution_space = typename Policy::execution_space;
  using work_tag = typename Policy::work_tag;

  template <class... Accesses>
    requires(sizeof...(Accesses) == N && (std::is_same_v<Accesses, DataAccess> && ...))
  explicit AccessPolicy(const Policy& policy, const Accesses&... accesses)
      : m_policy(policy), m_decls{accesses.impl_decl()...} {}

  const Policy& policy() const { return m_policy; }
  const execution_space& space() const { return m_policy.space(); }
  // Launch on another instance of the space (see Kokkos::Impl::policy_on_space).
  void impl_set_space(const execution_space& space) { m_policy = Kokkos::Impl::policy_on_space(m_policy, space); }
  auto begin() const { return m_policy.begin(); }
  auto end() const { return m_policy.end(); }

  // The declarations in the form the window records (kept in that form: a launch reads them
  // in place instead of copying a few hundred bytes per launch).
  const std::array<Kokkos::Impl::FusionAccessDecl, N>& impl_decls() const { return m_decls; }

 private:
  Policy m_policy;
  std::array<Kokkos::Impl::FusionAccessDecl, N> m_decls;
};

template <class PolicyOrCount, class... Accesses>
  requires((std::is_same_v<Accesses, DataAccess> && ...) &&
           (is_execution_policy_v<PolicyOrCount> || std::is_integral_v<PolicyOrCount>))
auto with_accesses(const PolicyOrCount& policy, const Accesses&... accesses) {
  using P = std::remove_cvref_t<decltype(Kokkos::Impl::to_policy(policy))>;
  return AccessPolicy<P, sizeof...(Accesses)>(Kokkos::Impl::to_policy(policy), accesses...);
}

// ---- windows ---------------------------------------------------------------------------------

// The window belongs to the calling host thread and collects its launches on any host space.
inline void fusion_begin() { Kokkos::Impl::FusionWindow::this_thread_window().open(); }
inline void fusion_end() { Kokkos::Impl::FusionWindow::this_thread_window().close(); }
inline void fusion_flush() { Kokkos::Impl::fusion_flush_if_pending(Kokkos::Impl::FusionFlush::explicit_flush); }
template <class ExecSpace>
  requires is_execution_space_v<ExecSpace>
void fusion_begin(const ExecSpace&) {
  fusion_begin();
}
template <class ExecSpace>
  requires is_execution_space_v<ExecSpace>
void fusion_end(const ExecSpace&) {
  fusion_end();
}
template <class ExecSpace>
  requires is_execution_space_v<ExecSpace>
void fusion_flush(const ExecSpace&) {
  fusion_flush();
}
// Launches recorded and not yet run on this thread.
inline std::size_t fusion_pending_launches() { return Kokkos::Impl::FusionWindow::this_thread_window().size(); }
// The fusion analysis of this thread's pending launches as a Graphviz digraph (`dot -Tsvg`):
// one cluster per run, "fused" edges inside a run, and between runs the constraint of seed 003
// that refused the pair (communication, launch_domain, true_dependence, anti_dependence,
// reduction).  The launches stay pending.  Nodes carry the launches' labels while a Kokkos tool
// or a trace listens (the window keeps names only then), and are numbered otherwise.
inline std::string fusion_window_dot() { return Kokkos::Impl::FusionWindow::this_thread_window().dot(); }

// RAII window: launches with declared accesses issued while it lives are recorded; they run
// (fused) at the latest when it ends.  Scopes nest; each end flushes.
class FusionScope {
 public:
  FusionScope() { fusion_begin(); }
  template <class ExecSpace>
    requires is_execution_space_v<ExecSpace>
  explicit FusionScope(const ExecSpace&) : FusionScope() {}
  ~FusionScope() { fusion_end(); }
  FusionScope(const FusionScope&) = delete;
  FusionScope& operator=(const FusionScope&) = delete;
  void flush() { fusion_flush(); }
};

}  // namespace Kokkos::Experimental

namespace Kokkos::Impl {
// Lets a Kokkos::Experimental::Graph record its nodes with declared accesses into a window.
inline const bool fusion_graph_hooks_set = [] {
  FusionScopeHooks& hooks = fusion_scope_hooks();
  hooks.open = &Kokkos::Experimental::fusion_begin;
  hooks.close = &Kokkos::Experimental::fusion_end;
  return true;
}();
}  // namespace Kokkos::Impl

namespace Kokkos::Experimental {

// ---- switches --------------------------------------------------------------------------------

inline bool fusion_enabled() { return Kokkos::Impl::fusion_is_enabled(); }
inline void set_fusion_enabled(bool on) {
  if (!on) Kokkos::Impl::fusion_flush_if_pending(Kokkos::Impl::FusionFlush::switched_off);
  Kokkos::Impl::fusion_config().enabled.store(on ? 1 : 0, std::memory_order_relaxed);
}
inline int fusion_window_size() { return Kokkos::Impl::fusion_window_limit(); }
inline void set_fusion_window_size(int launches) {
  if (launches < 1) {
    Kokkos::Impl::throw_runtime_exception("Kokkos::Experimental::set_fusion_window_size: the window must hold at least one "
                                  "launch (got " + std::to_string(launches) + ")");
  }
  Kokkos::Impl::fusion_config().window_size.store(launches, std::memory_order_relaxed);
  Kokkos::Impl::fusion_config().window_generation.fetch_add(1, std::memory_order_relaxed);
}
// Adaptive window size (seed 003 §7, see Kokkos::Impl::FusionWindowSizer): on by default
// (KOKKOS_FUSION_ADAPTIVE_WINDOW); fusion_window_size() is then its floor and starting size.
inline bool fusion_adaptive_window() { return Kokkos::Impl::fusion_adapts_window(); }
inline void set_fusion_adaptive_window(bool on) {
  Kokkos::Impl::fusion_config().adaptive_window.store(on ? 1 : 0, std::memory_order_relaxed);
  Kokkos::Impl::fusion_config().window_generation.fetch_add(1, std::memory_order_relaxed);
}
// The calling thread's window limit now (fusion_window_size() unless the window adapted).
inline int fusion_current_window_size() { return Kokkos::Impl::FusionWindow::this_thread_window().current_limit(); }
// Memoization of the analysis (seed 003 §5.2); on by default.  Off only to measure it.
inline void set_fusion_memoization(bool on) { Kokkos::Impl::fusion_config().memoize.store(on, std::memory_order_relaxed); }

// ---- checks ----------------------------------------------------------------------------------

// Declarations checked against the functor's captures when a launch is recorded: a View it
// captures and does not declare stops the program, naming the launch and the View
// (KOKKOS_FUSION_CHECK; on by default in Kokkos_ENABLE_DEBUG builds, and in verify mode).
inline bool fusion_check() { return Kokkos::Impl::fusion_checks_captures(); }
inline void set_fusion_check(bool on) { Kokkos::Impl::fusion_config().check.store(on ? 1 : 0, std::memory_order_relaxed); }
// Verify mode (KOKKOS_FUSION_VERIFY): every flushed window runs unfused, then fused, and the
// two are compared bitwise; a View declared read that a launch changes, or the first difference,
// stops the program with the launch, the View, the index and the declaration most likely wrong.
inline bool fusion_verify() { return Kokkos::Impl::fusion_verifies(); }
inline void set_fusion_verify(bool on) {
  Kokkos::Impl::fusion_flush_if_pending(Kokkos::Impl::FusionFlush::explicit_flush);
  Kokkos::Impl::fusion_config().verify.store(on ? 1 : 0, std::memory_order_relaxed);
}

// ---- statistics ------------------------------------------------------------------------------

inline FusionStatistics fusion_statistics() {
  Kokkos::Impl::FusionConfig& c = Kokkos::Impl::fusion_config();
  std::lock_guard<std::mutex> lock(c.stats_mutex);
  return c.stats;
}
inline void reset_fusion_statistics() {
  Kokkos::Impl::FusionConfig& c = Kokkos::Impl::fusion_config();
  std::lock_guard<std::mutex> lock(c.stats_mutex);
  c.stats = FusionStatistics{};
}
// See KOKKOS_FUSION_INLINE_BYTES in the README: on a one-thread execution space, a launch
// whose declared Views span at most `bytes`, issued with nothing pending, runs at once.
inline void set_fusion_inline_bytes(std::int64_t bytes) {
  Kokkos::Impl::fusion_store_bytes(Kokkos::Impl::fusion_config().inline_bytes, bytes, 0, "set_fusion_inline_bytes");
}
inline std::int64_t fusion_inline_bytes() { return Kokkos::Impl::fusion_inline_bytes(); }
// Whether memoized fused runs time their ways of executing and run the fastest
// (KOKKOS_FUSION_ADAPTIVE, default on).
inline bool fusion_adaptive_dispatch() { return Kokkos::Impl::fusion_adapts_dispatch(); }
inline void set_fusion_adaptive_dispatch(bool on) {
  Kokkos::Impl::fusion_config().adaptive.store(on ? 1 : 0, std::memory_order_relaxed);
}
// Independent runs at a flush (see "Concurrent flush" above): off, measured (the default), or
// always (KOKKOS_FUSION_CONCURRENT=0/1/2).
enum class FusionConcurrentFlush : int { off = 0, measured = 1, always = 2 };
inline FusionConcurrentFlush fusion_concurrent_flush() {
  return static_cast<FusionConcurrentFlush>(Kokkos::Impl::fusion_concurrent_mode());
}
inline void set_fusion_concurrent_flush(FusionConcurrentFlush mode) {
  Kokkos::Impl::fusion_config().concurrent.store(static_cast<int>(mode), std::memory_order_relaxed);
}
// Temporary elimination (impl/fusion/Kokkos_FusionTemporaries.hpp; KOKKOS_FUSION_ELIMINATE, default
// on): Views of at least fusion_temporary_bytes() created while a window records are reserved,
// and those that live and die inside one fused run are kept chunk-sized.  Off: every View is
// allocated and materialised as without fusion.
inline bool fusion_temporary_elimination() { return Kokkos::Impl::fusion_eliminates_temporaries(); }
inline void set_fusion_temporary_elimination(bool on) {
  Kokkos::Impl::fusion_config().eliminate.store(on ? 1 : 0, std::memory_order_relaxed);
}
inline std::int64_t fusion_temporary_bytes() { return Kokkos::Impl::fusion_temporary_bytes(); }
inline void set_fusion_temporary_bytes(std::int64_t bytes) {
  Kokkos::Impl::fusion_store_bytes(Kokkos::Impl::fusion_config().temporary_bytes, bytes, 0, "set_fusion_temporary_bytes");
}
// The working set each chunk of a fused loop aims at (KOKKOS_FUSION_CHUNK_BYTES).
inline void set_fusion_chunk_bytes(std::int64_t bytes) {
  Kokkos::Impl::fusion_store_bytes(Kokkos::Impl::fusion_config().chunk_bytes, bytes, 1, "set_fusion_chunk_bytes");
}
inline std::int64_t fusion_chunk_bytes() { return Kokkos::Impl::fusion_chunk_bytes(); }

inline void print_fusion_statistics(std::ostream& os) {
  const FusionStatistics s = fusion_statistics();
  std::ostringstream out;
  out << "Kokkos fusion statistics\n";
  out << "  launches recorded        " << s.launches_recorded << "\n";
  out << "  launches run inline      " << s.launches_inline << "\n";
  out << "  launches fused           " << s.launches_fused << " (" << std::fixed << std::setprecision(1)
      << 100.0 * s.fraction_fused() << "%)\n";
  out << "  fused launches           " << s.fused_launches << ", length min/avg/max " << s.min_fused_length << " / "
      << std::setprecision(2) << s.avg_fused_length() << " / " << s.max_fused_length << ", on the calling thread "
      << s.fused_on_caller << ", in short chunks " << s.fused_short_chunks << ", in long chunks "
      << s.fused_long_chunks << ", unfused " << s.fused_runs_unfused << "\n";
  out << "  dispatches               " << s.dispatches << " (skewed runs " << s.skewed_runs << ")\n";
  out << "  waves of independent runs " << s.waves << ", run concurrently " << s.waves_concurrent << " (" << s.runs_concurrent
      << " runs)\n";
  out << "  device fused kernels     " << s.device_fused_kernels << " (runs split " << s.device_runs_split
      << ", pieces run unfused " << s.device_runs_unfused << "), graph replays " << s.device_graph_replays
      << ", graph instantiations " << s.device_graph_instantiations << "\n";
  out << "  device windows run       with the other register policy " << s.device_windows_other_registers
      << ", the other tile " << s.device_windows_other_tile << ", unfused as a graph " << s.device_windows_unfused_graph
      << ", unfused " << s.device_windows_unfused << "\n";
  out << "  temporaries eliminated   " << s.temporaries_eliminated << " (" << s.temporary_bytes_eliminated
      << " bytes never materialised; chunk buffers at most " << s.temporary_buffer_bytes << " bytes)\n";
  std::uint64_t total = 0;
  for (auto b : s.barriers) total += b;
  out << "  barriers                 " << total << "\n";
  for (int k = 0; k < Kokkos::Impl::fusion_constraint_count; ++k) {
    const auto c = static_cast<Kokkos::Impl::FusionConstraint>(k);
    out << "    " << std::left << std::setw(22) << Kokkos::Impl::fusion_constraint_name(c) << std::right << s.barriers[k] << " ("
        << std::setprecision(1) << (total == 0 ? 0.0 : 100.0 * static_cast<double>(s.barriers[k]) / total) << "%)\n";
  }
  static const char* const flush_names[] = {"fence",        "scope_end",   "deep_copy",      "unannotated_launch",
                                            "reduce_result", "window_full", "explicit_flush", "switched_off",
                                            "deallocation", "communication"};
  static_assert(std::size(flush_names) == static_cast<std::size_t>(Kokkos::Impl::FusionFlush::count_));
  out << "  flushes by trigger      ";
  for (std::size_t k = 0; k < s.flushes.size(); ++k) out << " " << flush_names[k] << "=" << s.flushes[k];
  out << "\n";
  out << "  windows analysed         " << s.windows_analysed << ", memo hit rate " << std::setprecision(1)
      << 100.0 * s.memo_hit_rate() << "%, analysis " << std::setprecision(0) << s.analysis_ns_per_launch()
      << " ns per launch\n";
  os << out.str();
}

}  // namespace Kokkos::Experimental

namespace Kokkos::Impl {

inline void fusion_print_statistics_at_finalize() {
  Kokkos::Experimental::print_fusion_statistics(std::cout);
  FusionConfig& c = fusion_config();
  std::lock_guard<std::mutex> lock(c.stats_mutex);
  c.stats_hook_registered = false;
}

template <class Policy, std::size_t N>
struct is_fusion_access_policy<Kokkos::Experimental::AccessPolicy<Policy, N>> : std::true_type {};

// The launch's label is readable by the window while it is issued, never after.
struct FusionIssuingLabelScope {
  FusionIssuingLabelScope() = default;
  FusionIssuingLabelScope(const FusionIssuingLabelScope&) = delete;
  FusionIssuingLabelScope& operator=(const FusionIssuingLabelScope&) = delete;
  ~FusionIssuingLabelScope() { t_fusion_hooks.issuing_label = nullptr; }
};

// parallel_for with declared accesses: recorded inside a window, otherwise run as it is.
template <class Functor, class Policy, std::size_t N, class ExecSpace>
class ParallelFor<Functor, Kokkos::Experimental::AccessPolicy<Policy, N>, ExecSpace> {
  const Functor& m_functor;
  const Kokkos::Experimental::AccessPolicy<Policy, N>& m_policy;

 public:
  ParallelFor(const Functor& functor, const Kokkos::Experimental::AccessPolicy<Policy, N>& policy)
      : m_functor(functor), m_policy(policy) {}
  void execute() const {
    const FusionIssuingLabelScope label_scope;
    if constexpr (!ExecSpace::impl_is_host_backend) {
      execute_on_device();
    } else {
      execute_on_host();
    }
  }

 private:
  void execute_on_device() const {
    if constexpr (FusionDeviceBackend<ExecSpace>::records) {
      FusionDeviceBackend<ExecSpace>::parallel_for(m_functor, m_policy);
      return;
    }
    fusion_flush_if_pending(FusionFlush::unannotated_launch);
    ParallelFor<Functor, Policy, ExecSpace>(m_functor, m_policy.policy()).execute();
  }

  void execute_on_host() const {
    FusionWindow& window = FusionWindow::this_thread_window();
    const auto run_now = [&] {
      fusion_run_reported<Functor>(false, m_policy.policy(),
                                   [&] { ParallelFor<Functor, Policy, ExecSpace>(m_functor, m_policy.policy()).execute(); });
    };
    if (!window.recording()) {
      window.complete_messages_before(m_policy.impl_decls().data(), N);
      run_now();
      return;
    }
    if (fusion_checks_captures()) fusion_check_captures(m_functor, m_policy.impl_decls().data(), N, "Kokkos::parallel_for");
    if (window.size() == 0 && fusion_runs_inline(m_policy.space(), m_policy.impl_decls())) {
      window.complete_messages_before(m_policy.impl_decls().data(), N);
      window.count_inline();
      run_now();
      return;
    }
    const auto& decls = m_policy.impl_decls();
    if constexpr (is_range_policy<Policy>::value || is_mdrange_policy<Policy>::value) {
      window.record_for(m_functor, m_policy.policy(), decls.data(), N);
    } else {
      window.record_opaque(m_functor, m_policy.policy(), decls.data(), N);
    }
  }
};

// parallel_reduce with declared accesses: joins the window as the end of a run, and the
// window flushes at once, because the result is the host's before parallel_reduce returns.
template <class CombinedFunctorReducer, class Policy, std::size_t N, class ExecSpace>
class ParallelReduce<CombinedFunctorReducer, Kokkos::Experimental::AccessPolicy<Policy, N>, ExecSpace> {
  using pointer_type = typename CombinedFunctorReducer::reducer_type::pointer_type;
  const CombinedFunctorReducer& m_functor_reducer;
  const Kokkos::Experimental::AccessPolicy<Policy, N>& m_policy;
  pointer_type m_result;

 public:
  ParallelReduce(const CombinedFunctorReducer& functor_reducer,
                 const Kokkos::Experimental::AccessPolicy<Policy, N>& policy, pointer_type result)
      : m_functor_reducer(functor_reducer), m_policy(policy), m_result(result) {}
  void execute() const {
    const FusionIssuingLabelScope label_scope;
    FusionWindow& window = FusionWindow::this_thread_window();
    // A reduction ends its window: with nothing recorded before it, it is a run of one.  Only a
    // RangePolicy reduction joins a run: an MDRange one reduces tile by tile, in an order a
    // fused run by rows would not keep.
    if constexpr (is_range_policy<Policy>::value && ExecSpace::impl_is_host_backend) {
      if (window.recording() && window.size() > 0) {
        const auto& decls = m_policy.impl_decls();
        if (fusion_checks_captures()) {
          fusion_check_captures(m_functor_reducer.get_functor(), decls.data(), N, "Kokkos::parallel_reduce");
        }
        window.record_reduce(m_functor_reducer, m_policy.policy(), m_result, decls.data(), N);
        window.flush(FusionFlush::reduce_result);
        return;
      }
    }
    if constexpr (FusionDeviceBackend<ExecSpace>::records) {
      if (FusionDeviceBackend<ExecSpace>::parallel_reduce(m_functor_reducer, m_policy, m_result)) return;
    }
    fusion_flush_if_pending(FusionFlush::unannotated_launch);
    window.complete_messages_before(m_policy.impl_decls().data(), N);
    fusion_run_reported<typename CombinedFunctorReducer::functor_type>(true, m_policy.policy(), [&] {
      ParallelReduce<CombinedFunctorReducer, Policy, ExecSpace>(m_functor_reducer, m_policy.policy(), m_result)
          .execute();
    });
  }
};

}  // namespace Kokkos::Impl

// The device back ends' side of fusion: each specialises Impl::FusionDeviceBackend for its
// execution space.
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include <Cuda/Kokkos_Cuda_Fusion.hpp>
#endif

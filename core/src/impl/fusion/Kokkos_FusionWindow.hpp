#pragma once
// The fusion window: recorded launches of the calling host thread, their flush, and the fused
// host execution of each run the analysis (Kokkos_FusionAnalysis.hpp) finds.
//
// A recorded launch is a copy of its functor and policy in the window's arena (blocks reused
// from flush to flush, so steady-state recording does not allocate), plus three functions
// instantiated for its types: run_chunk (the launch's own tight loop over [b, e), so a fused
// run costs per element what the unfused loops cost), execute_alone (the ordinary dispatch, for
// a run of one) and drive (one dispatch of a whole run on the launch's execution space).
//
// Fused execution: each worker takes its static block of the range and walks it in chunks
// sized so the run's working set stays in cache; for each chunk it runs every functor of the
// run in program order, so a temporary written by one launch is read by the next from cache.
// A reduction ending the run accumulates each chunk into the worker's partial exactly as the
// unfused host reduce does (same blocks, same order, joined in rank order): the bits agree.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_PartitionSpace.hpp>
#include <impl/fusion/Kokkos_FusionAnalysis.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/fusion/Kokkos_FusionReport.hpp>
#include <impl/fusion/Kokkos_FusionTemporaries.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <Host/Kokkos_HostParallelMDRange.hpp>
#include <Host/Kokkos_HostParallelRange.hpp>
#include <Host/Kokkos_HostParallelReduce.hpp>
#include <Host/Kokkos_HostTeam.hpp>
#include <impl/Kokkos_LocalFunctorCopy.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>
#include <impl/view/Kokkos_SharedAlloc.hpp>

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

namespace Kokkos {
void push_finalize_hook(std::function<void()> hook);
bool is_initialized() noexcept;
}

namespace Kokkos::Experimental {

// Counters since start (or reset_fusion_statistics()), summed over all host threads.  The
// names follow seed 000 Tables II and III.
struct FusionStatistics {
  std::uint64_t launches_recorded = 0;  // launches with declared accesses inside a window
  std::uint64_t launches_inline = 0;    // launches inside a window that ran at once (nothing to fuse with)
  std::uint64_t launches_fused = 0;     // of those, launches that ran inside a fused launch
  std::uint64_t fused_launches = 0;     // fused launches (runs of two or more) dispatched
  // Of those, by the adaptive dispatch (impl/fusion/Kokkos_FusionDispatchChoice.hpp): run on the
  // calling thread, run in short or long chunks, and run launch by launch because that measured
  // faster.
  std::uint64_t fused_on_caller = 0, fused_short_chunks = 0, fused_long_chunks = 0, fused_runs_unfused = 0;
  std::uint64_t dispatches = 0;         // launches dispatched for recorded work (fused or not)
  std::uint64_t min_fused_length = 0, max_fused_length = 0;
  std::uint64_t skewed_runs = 0;  // fused runs that needed the skewed schedule
  // Waves of independent runs (impl/fusion/Kokkos_FusionAnalysis.hpp, FusionWave) found, and those run
  // concurrently on disjoint groups of workers, with the runs they held.
  std::uint64_t waves = 0, waves_concurrent = 0, runs_concurrent = 0;
  // Temporaries eliminated (impl/fusion/Kokkos_FusionTemporaries.hpp), the bytes they would have
  // materialised, and the largest chunk buffers a flush used for them (all workers together).
  std::uint64_t temporaries_eliminated = 0, temporary_bytes_eliminated = 0, temporary_buffer_bytes = 0;
  // Device back ends (Cuda/Kokkos_Cuda_Fusion.hpp): fused kernels launched; fused runs split into
  // several kernels because their bodies together exceed one kernel's parameter space or came
  // from several translation units; and fused pieces run launch by launch because the fused
  // kernel cannot take the plain launch's shape (registers).
  std::uint64_t device_fused_kernels = 0, device_runs_split = 0, device_runs_unfused = 0;
  // Memoized device windows replayed as one graph (updated in place) and graph instantiations
  // (a window's first replay, or one whose structure the update refused).
  std::uint64_t device_graph_replays = 0, device_graph_instantiations = 0;
  std::array<std::uint64_t, Kokkos::Impl::fusion_constraint_count> barriers{};  // by Kokkos::Impl::FusionConstraint
  std::array<std::uint64_t, static_cast<int>(Kokkos::Impl::FusionFlush::count_)> flushes{};  // by Kokkos::Impl::FusionFlush
  std::uint64_t windows_analysed = 0, memo_hits = 0;
  double analysis_seconds = 0;  // canonical key + memo lookup + analysis, all windows

  double avg_fused_length() const {
    return fused_launches == 0 ? 0.0 : static_cast<double>(launches_fused) / static_cast<double>(fused_launches);
  }
  double fraction_fused() const {
    return launches_recorded == 0 ? 0.0 : static_cast<double>(launches_fused) / static_cast<double>(launches_recorded);
  }
  double memo_hit_rate() const {
    return windows_analysed == 0 ? 0.0 : static_cast<double>(memo_hits) / static_cast<double>(windows_analysed);
  }
  double analysis_ns_per_launch() const {
    return launches_recorded == 0 ? 0.0 : 1e9 * analysis_seconds / static_cast<double>(launches_recorded);
  }
  std::uint64_t barrier_count(Kokkos::Impl::FusionConstraint c) const { return barriers[static_cast<int>(c)]; }
  std::uint64_t flush_count(Kokkos::Impl::FusionFlush f) const { return flushes[static_cast<int>(f)]; }
};

}  // namespace Kokkos::Experimental

namespace Kokkos::Impl {

// A declared access before it joins a window: its geometry plus the exact inner shape, and the
// allocation record the window holds while the launch is pending (null: unmanaged).
struct FusionAccessDecl {
  FusionAccess access;
  FusionShape shape;
  SharedAllocationRecord* record = nullptr;
#if defined(KOKKOS_ENABLE_CUDA)
  bool cuda_inaccessible = false;  // a View in memory the GPU cannot access (HostSpace)
#endif
};

// ---- process-wide settings and counters ------------------------------------------------------

struct FusionConfig {
  std::atomic<int> enabled{-1};  // -1: not read from KOKKOS_FUSION yet
  std::atomic<int> window_size{-1};
  std::atomic<bool> memoize{true};
  std::atomic<std::int64_t> chunk_bytes{-1};   // working set per chunk of a fused loop
  std::atomic<std::int64_t> inline_bytes{-1};  // see fusion_runs_inline
  std::atomic<int> adaptive{-1};               // see fusion_adapts_dispatch
  std::atomic<int> concurrent{-1};             // see fusion_concurrent_mode
  std::atomic<int> adaptive_window{-1};        // see FusionWindowSizer
  std::atomic<int> eliminate{-1};              // see fusion_eliminates_temporaries
  std::atomic<std::int64_t> temporary_bytes{-1};
  std::atomic<std::uint64_t> window_generation{0};  // bumped by set_fusion_window_size
  // Test hook: called by each worker of a concurrent wave with the first launch (window index)
  // of the run it works on, its group and its rank in the dispatch.
  std::atomic<void (*)(std::uint32_t first_launch, int group, int rank)> concurrent_probe{nullptr};
  std::mutex stats_mutex;
  Experimental::FusionStatistics stats;
  bool stats_hook_registered = false;  // guarded by stats_mutex
};
inline FusionConfig& fusion_config() {
  static FusionConfig config;
  return config;
}

inline int fusion_env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return (end != nullptr && *end == '\0') ? static_cast<int>(x) : fallback;
}

// An on/off setting: -1 until first read from the environment variable `name`.
inline bool fusion_env_flag(std::atomic<int>& setting, const char* name, bool fallback) {
  int v = setting.load(std::memory_order_relaxed);
  if (v < 0) {
    v = fusion_env_int(name, fallback ? 1 : 0) != 0 ? 1 : 0;
    setting.store(v, std::memory_order_relaxed);
  }
  return v != 0;
}

inline bool fusion_is_enabled() { return fusion_env_flag(fusion_config().enabled, "KOKKOS_FUSION", true); }

inline int fusion_window_limit() {
  FusionConfig& c = fusion_config();
  int w = c.window_size.load(std::memory_order_relaxed);
  if (w < 0) {
    w = fusion_env_int("KOKKOS_FUSION_WINDOW", 50);  // seed 000's window
    if (w < 1) w = 1;
    c.window_size.store(w, std::memory_order_relaxed);
  }
  return w;
}

inline std::int64_t fusion_env_bytes(std::atomic<std::int64_t>& setting, const char* name, std::int64_t fallback) {
  std::int64_t v = setting.load(std::memory_order_relaxed);
  if (v < 0) {
    v = fusion_env_int(name, -1);
    if (v < 0) v = fallback;
    setting.store(v, std::memory_order_relaxed);
  }
  return v;
}

// A byte-size setting from its KE::set_* call: at least `minimum`, or a message naming the call.
inline void fusion_store_bytes(std::atomic<std::int64_t>& setting, std::int64_t bytes, std::int64_t minimum,
                               const char* setter) {
  if (bytes < minimum) {
    throw_runtime_exception(std::string("Kokkos::Experimental::") + setter + ": the size must be " +
                            (minimum == 0 ? "zero or more" : "at least " + std::to_string(minimum)) + " bytes (got " +
                            std::to_string(bytes) + ")");
  }
  setting.store(bytes, std::memory_order_relaxed);
}

// The working set a chunk of a fused loop aims at (see FusionWindow::execute).
inline std::int64_t fusion_chunk_bytes() {
  return fusion_env_bytes(fusion_config().chunk_bytes, "KOKKOS_FUSION_CHUNK_BYTES", 32 * 1024);
}

// With one thread, fusing saves no fork/join; all it can gain is cache locality, which a
// launch whose Views fit in L2 has already.  Such a launch, finding nothing recorded before it,
// runs at once instead of paying for recording (KOKKOS_FUSION_INLINE_BYTES, 0: never).
inline std::int64_t fusion_inline_bytes() {
  return fusion_env_bytes(fusion_config().inline_bytes, "KOKKOS_FUSION_INLINE_BYTES", 256 * 1024);
}

// Adaptive dispatch of memoized fused runs (impl/fusion/Kokkos_FusionDispatchChoice.hpp);
// KOKKOS_FUSION_ADAPTIVE=0 always wakes the workers.
inline bool fusion_adapts_dispatch() {
  return fusion_env_flag(fusion_config().adaptive, "KOKKOS_FUSION_ADAPTIVE", true);
}

// Independent runs at a flush (FusionWave): 0 in program order, 1 concurrently where measured
// faster (memoized plans with adaptive dispatch on), 2 always concurrently (KOKKOS_FUSION_CONCURRENT).
enum class FusionConcurrentMode : int { off = 0, measured = 1, always = 2 };
inline FusionConcurrentMode fusion_concurrent_mode() {
  FusionConfig& c = fusion_config();
  int v = c.concurrent.load(std::memory_order_relaxed);
  if (v < 0) {
    v = std::clamp(fusion_env_int("KOKKOS_FUSION_CONCURRENT", 1), 0, 2);
    c.concurrent.store(v, std::memory_order_relaxed);
  }
  return static_cast<FusionConcurrentMode>(v);
}

// Temporary elimination (impl/fusion/Kokkos_FusionTemporaries.hpp): KOKKOS_FUSION_ELIMINATE, default on;
// allocations of at least KOKKOS_FUSION_TEMPORARY_BYTES (default 256 KiB) made while a window
// records are reserved, so that they can be eliminated.
inline bool fusion_eliminates_temporaries() {
  return fusion_env_flag(fusion_config().eliminate, "KOKKOS_FUSION_ELIMINATE", true);
}
inline std::int64_t fusion_temporary_bytes() {
  return fusion_env_bytes(fusion_config().temporary_bytes, "KOKKOS_FUSION_TEMPORARY_BYTES", 256 * 1024);
}

inline bool fusion_adapts_window() {
  return fusion_env_flag(fusion_config().adaptive_window, "KOKKOS_FUSION_ADAPTIVE_WINDOW", true);
}

// The adaptive window size of seed 003 §7, per thread.  The window starts at the configured
// size (fusion_window_size(), the floor).  It doubles, up to max_launches, when a flush forced by
// a full window finds the window's last fused run reaching its end and covering at least half
// of it: the analysis would have fused further.  It halves, down to the floor, after
// early_flushes_to_shrink flushes in a row that found it less than a quarter full (a fence, a
// reduction's result, an unannotated launch... came first): the program's runs are short, and
// a long window only delays dispatch and holds allocations.  set_fusion_window_size() restarts it.
class FusionWindowSizer {
 public:
  static constexpr int max_launches = 1024;
  static constexpr int early_flushes_to_shrink = 4;

  int limit() {
    sync();
    return fusion_adapts_window() ? m_limit : fusion_window_limit();
  }

  // At a flush of `launches` launches whose last run holds `last_run` launches.
  void observe(FusionFlush reason, int launches, int last_run) {
    sync();
    if (!fusion_adapts_window()) return;
    if (reason == FusionFlush::window_full) {
      m_early = 0;
      if (2 * last_run >= launches) m_limit = std::min(2 * m_limit, std::max(max_launches, fusion_window_limit()));
      return;
    }
    const bool forced = reason != FusionFlush::scope_end && reason != FusionFlush::explicit_flush &&
                        reason != FusionFlush::switched_off;
    if (forced && 4 * launches < m_limit && ++m_early >= early_flushes_to_shrink) {
      m_early = 0;
      m_limit = std::max(m_limit / 2, fusion_window_limit());
    }
  }

 private:
  void sync() {
    const std::uint64_t generation = fusion_config().window_generation.load(std::memory_order_relaxed);
    if (m_limit == 0 || generation != m_generation) {
      m_generation = generation;
      m_limit = fusion_window_limit();
      m_early = 0;
    }
  }
  int m_limit = 0, m_early = 0;
  std::uint64_t m_generation = 0;
};

template <class ExecSpace, class Accesses>
bool fusion_runs_inline(const ExecSpace& space, const Accesses& accesses) {
  if (space.concurrency() != 1) return false;
  std::int64_t bytes = 0;
  for (const FusionAccessDecl& d : accesses) bytes += d.access.span_bytes;
  return bytes <= fusion_inline_bytes();
}

void fusion_print_statistics_at_finalize();

// ---- recorded launches -----------------------------------------------------------------------

// Storage for the recorded functors: a ring of blocks that every flush keeps advancing through
// instead of starting over.  The workers of a fused run read the functors the recording thread
// wrote; were the next window written over the same lines, each store would first have to
// take the line back from a worker's cache, one cross-core round trip at a time (the locked
// reference counting of the user's own View copies drains the store buffer between them).
// Going round a ring larger than a core's private cache lets those lines age out first.
class FusionArena {
 public:
  void* allocate(std::size_t bytes, std::size_t align) {
    if (align > block_align || bytes > block_bytes / 4) {
      m_large.emplace_back(static_cast<std::byte*>(::operator new(bytes, std::align_val_t{align})), LargeFree{align});
      return m_large.back().get();
    }
    for (;;) {
      if (m_current < m_blocks.size()) {
        const std::size_t start = (m_used + align - 1) / align * align;
        if (start + bytes <= block_bytes) {
          m_used = start + bytes;
          return m_blocks[m_current].get() + start;
        }
        ++m_current;
        m_used = 0;
        continue;
      }
      m_blocks.emplace_back(static_cast<std::byte*>(::operator new(block_bytes, std::align_val_t{block_align})));
    }
  }
  void reset() {
    m_current = 0;
    m_used = 0;
    m_large.clear();
  }

 private:
  static constexpr std::size_t block_bytes = 64 * 1024, block_align = 64;
  struct BlockFree {
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t{block_align}); }
  };
  struct LargeFree {
    std::size_t align;
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t{align}); }
  };
  std::vector<std::unique_ptr<std::byte, BlockFree>> m_blocks;
  std::vector<std::unique_ptr<std::byte, LargeFree>> m_large;
  std::size_t m_current = 0, m_used = 0;
};

struct FusedRun;
struct FusionLaunch;

// How a device back end replays a memoized window as one unit of work (Cuda: a CUDA graph,
// Cuda/Kokkos_Cuda_Fusion.hpp), kept by the window per memoized plan: begin(instance) starts recording the instance's work (false:
// it cannot, nothing changed); the window is then dispatched as usual, recorded instead of
// run; end_and_launch updates or re-creates `replay` from the recording and launches it,
// returning whether it re-created it; abort discards a recording; launch launches `replay` as
// it is (the window is the one it recorded, bit for bit).
struct FusionDeviceReplay {
  bool (*begin)(const void* instance);
  bool (*end_and_launch)(const void* instance, std::shared_ptr<void>& replay);
  void (*abort)(const void* instance);
  void (*launch)(const void* instance, const std::shared_ptr<void>& replay);
};

// What a device back end records beside a launch (Cuda/Kokkos_Cuda_Fusion.hpp); it lives in the
// launch's blob.  Without -rdc a kernel can only call device code of its own translation unit,
// so launches fuse into one kernel only when `unit` agrees.
struct FusionDeviceLaunch {
  const void* unit = nullptr;      // the translation unit that recorded the launch
  const void* instance = nullptr;  // the execution space instance (its stream)
  const void* closure = nullptr;   // the functor's bytes, copied into a fused kernel
  std::uint32_t closure_bytes = 0, closure_align = 1;
  const void* (*body_address)() = nullptr;  // a loop's body in `unit`'s module (device address)
  const FusionDeviceReplay* replay = nullptr;  // set for launches whose windows can be replayed
  // Runs launches[0, count) as one kernel, launches[count - 1] being this launch and the others
  // loops of the same unit; false when the kernel cannot take the shape the launches need
  // (nothing ran).  The run's eliminated temporaries, when the kernel is the whole run, are
  // temporaries[0, *num_temporaries); a kernel that keeps them materialised instead (it cannot
  // hold their tiles) sets *num_temporaries to 0.
  bool (*run_fused)(const FusionLaunch* launches, std::uint32_t count, const FusionTemporary* temporaries,
                    std::uint32_t* num_temporaries) = nullptr;
};
// The most closure bytes and loops one fused device kernel takes (its parameter space).
inline constexpr std::size_t fusion_device_closure_capacity = 8 * 1024;
inline constexpr std::uint32_t fusion_device_max_bodies = 32;

struct FusionNoReduction {
  void operator()(std::int64_t, std::int64_t) const {}
};

struct FusionLaunch {
  void* blob = nullptr;
  void (*run_chunk)(const void* blob, std::int64_t b, std::int64_t e) = nullptr;
  void (*execute_alone)(const void* blob) = nullptr;
  // One dispatch of a whole run, on the workers or worker by worker on the calling thread.
  void (*drive)(const void* blob, const FusedRun& run, bool on_caller) = nullptr;
  int (*pool_size)(const void* blob) = nullptr;  // of the launch's execution space
  void (*destroy)(void* blob) = nullptr;
  std::uint32_t tools_device_id = 0;  // reported with the launch (impl/fusion/Kokkos_FusionReport.hpp)
  bool rebasable = false;             // its functor can run on the chunk buffers
  bool touches_temporary = false;     // set at the flush: it declares an eliminated temporary
  // body(context, rank, size) once on each worker of the launch's execution space.
  void (*on_workers)(const void* blob, void (*body)(void* context, int rank, int size), void* context) = nullptr;
  const void* space = nullptr;  // the execution space type
  std::int64_t begin = 0, end = 0;
  std::size_t blob_bytes = 0;
  // run_chunk with the run's eliminated temporaries moved onto the worker's buffer; null
  // where the functor cannot be moved (FusionRebasable).
  void (*run_chunk_rebased)(const void* blob, std::int64_t b, std::int64_t e, const FusionRebase& rebase) = nullptr;
  const FusionDeviceLaunch* device = nullptr;  // set for launches on a device back end
};

// One run of two or more launches over the same range, executed as one dispatch (two when a
// skewed run has halo indices between workers).
struct FusedRun {
  const FusionLaunch* launches = nullptr;
  std::uint32_t num_for = 0;  // range_for launches; a reduction, if any, follows them
  bool reduces = false;
  std::uint32_t split = 0;    // launches [0, split) are the head, [split, num_for) the tail
  std::int64_t begin = 0, end = 0, chunk = 1024;
  std::int64_t lag = 0, halo_lo = 0, halo_hi = 0;
  mutable std::atomic<int> workers{1};  // size of the first dispatch, for the halo pass
  // Eliminated temporaries: worker r's buffer is buffers + r * buffer_bytes (never skewed).
  const FusionTemporary* temporaries = nullptr;
  std::uint32_t num_temporaries = 0;
  std::byte* buffers = nullptr;
  std::int64_t buffer_bytes = 0;

  void run_launches(std::uint32_t from, std::uint32_t to, std::int64_t b, std::int64_t e) const {
    for (std::uint32_t k = from; k < to; ++k) launches[k].run_chunk(launches[k].blob, b, e);
  }
  void run_launches(std::uint32_t from, std::uint32_t to, std::int64_t b, std::int64_t e,
                    const FusionRebase& rebase) const {
    for (std::uint32_t k = from; k < to; ++k) {
      const FusionLaunch& l = launches[k];
      if (l.touches_temporary) {
        l.run_chunk_rebased(l.blob, b, e, rebase);
      } else {
        l.run_chunk(l.blob, b, e);
      }
    }
  }
  bool skewed() const { return split < num_for; }
  bool needs_halo_pass() const { return skewed() && workers.load(std::memory_order_relaxed) > 1 && (halo_lo > 0 || halo_hi > 0); }

  // The launches and their functors were just written by the recording thread: a worker
  // that met them one by one would pay one cache-to-cache transfer per line in sequence.
  void prefetch_launches(std::uint32_t count) const {
    for (std::uint32_t k = 0; k < count; ++k) {
      const auto* blob = static_cast<const char*>(launches[k].blob);
      const std::size_t bytes = std::min<std::size_t>(launches[k].blob_bytes, 1024);
      for (std::size_t offset = 0; offset < bytes; offset += KOKKOS_IMPL_CACHE_LINE) __builtin_prefetch(blob + offset);
    }
  }

  template <class ReduceChunk>
  void work(int rank, int size, const ReduceChunk& reduce_chunk) const {
    if (rank == 0) {
      workers.store(size, std::memory_order_relaxed);
    } else {
      prefetch_launches(num_for + (std::is_same_v<ReduceChunk, FusionNoReduction> ? 0 : 1));
    }
    const HostBlock<std::int64_t> block = range_block<std::int64_t>(begin, end, rank, size);
    if (num_temporaries > 0) {
      const FusionRebase rebase{temporaries, num_temporaries, buffers + rank * buffer_bytes};
      for (std::int64_t cb = block.begin; cb < block.end;) {
        const std::int64_t ce = block.end - cb > chunk ? cb + chunk : block.end;
        run_launches(0, num_for, cb, ce, rebase);
        reduce_chunk(cb, ce);
        cb = ce;
      }
      return;
    }
    if (!skewed()) {
      for (std::int64_t cb = block.begin; cb < block.end;) {
        const std::int64_t ce = block.end - cb > chunk ? cb + chunk : block.end;
        run_launches(0, num_for, cb, ce);
        reduce_chunk(cb, ce);
        cb = ce;
      }
      return;
    }
    // The tail trails the head by `lag` indices; indices whose conflicting reads lie in a
    // neighbour's block are left to the halo pass.
    const std::int64_t lo = block.begin > begin ? halo_lo : 0, hi = block.end < end ? halo_hi : 0;
    const std::int64_t tail_lo = std::min(block.begin + lo, block.end);
    const std::int64_t tail_hi = std::max(block.end - hi, tail_lo);
    std::int64_t tail_done = tail_lo;
    for (std::int64_t cb = block.begin; cb < block.end;) {
      const std::int64_t ce = block.end - cb > chunk ? cb + chunk : block.end;
      run_launches(0, split, cb, ce);
      const std::int64_t tail_end = ce == block.end ? tail_hi : std::min(ce - lag, tail_hi);
      if (tail_end > tail_done) {
        run_launches(split, num_for, tail_done, tail_end);
        tail_done = tail_end;
      }
      cb = ce;
    }
  }

  // After every worker's head has run: the tail on the halo indices of each block.
  void halo_pass(int rank, int size) const {
    const int blocks = workers.load(std::memory_order_relaxed);
    for (int k = rank; k < blocks; k += size) {
      const HostBlock<std::int64_t> block = range_block<std::int64_t>(begin, end, k, blocks);
      const std::int64_t lo = block.begin > begin ? halo_lo : 0, hi = block.end < end ? halo_hi : 0;
      const std::int64_t first_end = std::min(block.begin + lo, block.end);
      const std::int64_t second_begin = std::max(block.end - hi, first_end);
      if (first_end > block.begin) run_launches(split, num_for, block.begin, first_end);
      if (block.end > second_begin) run_launches(split, num_for, second_begin, block.end);
    }
  }
};

// Calls body(workers) with the space itself or, on the calling thread, with
// HostSequentialWorkers over it.
template <class ExecSpace, class Body>
void fusion_on(const ExecSpace& space, bool on_caller, const Body& body) {
  if (on_caller) {
    body(HostSequentialWorkers<ExecSpace>{space});
  } else {
    body(space);
  }
}

template <class Functor, class Policy>
struct FusionForBlob {
  using ExecSpace = typename Policy::execution_space;
  Functor functor;
  Policy policy;

  // A RangePolicy's indices [b, e); an MDRangePolicy's box with its first index in [b, e)
  // (fused by its first dimension: see record_for).
  static void run_chunk(const void* self, std::int64_t b, std::int64_t e) {
    using Tag = typename Policy::work_tag;
    const auto& s = *static_cast<const FusionForBlob*>(self);
    with_local_functor_copy(s.functor, [&](const Functor& f) {
      if constexpr (is_mdrange_policy<Policy>::value) {
        using I = typename Policy::index_type;
        I lo[Policy::rank], hi[Policy::rank];
        for (int d = 0; d < Policy::rank; ++d) {
          lo[d] = static_cast<I>(s.policy.m_lower[d]);
          hi[d] = static_cast<I>(s.policy.m_upper[d]);
        }
        lo[0] = static_cast<I>(b);
        hi[0] = static_cast<I>(e);
        HostMDRangeTiles<Policy>::run_box(lo, hi, f);
      } else {
        using I = typename Policy::member_type;
        for (I i = static_cast<I>(b); i < static_cast<I>(e); ++i) invoke_functor<Tag>(f, i);
      }
    });
  }
  static constexpr bool rebasable = FusionRebasable<Functor> && !is_mdrange_policy<Policy>::value;
  static void run_chunk_rebased(const void* self, std::int64_t b, std::int64_t e, const FusionRebase& rebase) {
    if constexpr (rebasable) {
      using Tag = typename Policy::work_tag;
      using I = typename Policy::member_type;
      with_rebased_functor_copy(static_cast<const FusionForBlob*>(self)->functor, rebase, b, [&](const Functor& f) {
        for (I i = static_cast<I>(b); i < static_cast<I>(e); ++i) invoke_functor<Tag>(f, i);
      });
    }
  }
  static void execute_alone(const void* self) {
    const auto& s = *static_cast<const FusionForBlob*>(self);
    ParallelFor<Functor, Policy, ExecSpace>(s.functor, s.policy).execute();
  }
  static void on_workers(const void* self, void (*body)(void*, int, int), void* context) {
    if constexpr (HostBackend<ExecSpace>) {
      static_cast<const FusionForBlob*>(self)->policy.space().impl_run_on_workers(
          [&](int rank, int size) { body(context, rank, size); });
    }
  }
  static void drive(const void* self, const FusedRun& run, bool on_caller) {
    if constexpr (HostBackend<ExecSpace>) {
      const ExecSpace& space = static_cast<const FusionForBlob*>(self)->policy.space();
      fusion_on(space, on_caller, [&](const auto& workers) {
        workers.impl_run_on_workers([&](int rank, int size) { run.work(rank, size, FusionNoReduction{}); });
        if (run.needs_halo_pass()) workers.impl_run_on_workers([&](int rank, int size) { run.halo_pass(rank, size); });
      });
    }
  }
};

template <class CombinedFunctorReducer, class Policy>
struct FusionReduceBlob {
  using ExecSpace = typename Policy::execution_space;
  using Reducer = typename CombinedFunctorReducer::reducer_type;
  CombinedFunctorReducer functor_reducer;
  Policy policy;
  typename Reducer::pointer_type result;

  static void execute_alone(const void* self) {
    const auto& s = *static_cast<const FusionReduceBlob*>(self);
    ParallelReduce<CombinedFunctorReducer, Policy, ExecSpace>(s.functor_reducer, s.policy, s.result).execute();
  }
  using Functor = typename CombinedFunctorReducer::functor_type;
  using value_type = typename Reducer::value_type;
  using reference_type = typename Reducer::reference_type;

  using Accumulator = HostWorkerAccumulator<Functor, Reducer>;

  // Out of line: inlined into host_reduce's worker, GCC kept the accumulator in memory, a store
  // and a reload per element (axpby + dot fused ran 2.5x slower than unfused).  The worker's
  // accumulator runs its chunks in order, as the plain launch runs its block: the same bits.
  KOKKOS_IMPL_NOINLINE static void reduce_chunk(const Functor& kept, std::int64_t b, std::int64_t e, Accumulator& acc) {
    using Tag = typename Policy::work_tag;
    using I = typename Policy::member_type;
    with_local_functor_copy(kept, [&](const Functor& f) { acc.template run<Tag>(f, static_cast<I>(b), static_cast<I>(e)); });
  }

  static void drive(const void* self, const FusedRun& run, bool on_caller) {
    if constexpr (HostBackend<ExecSpace>) {
      const auto& s = *static_cast<const FusionReduceBlob*>(self);
      const auto& f = s.functor_reducer.get_functor();
      const Reducer& reducer = s.functor_reducer.get_reducer();
      fusion_on(s.policy.space(), on_caller, [&](const auto& workers) {
        host_reduce(workers, reducer, s.result, [&](int rank, int size, reference_type acc) {
          Accumulator worker(reducer, acc);
          run.work(rank, size, [&](std::int64_t b, std::int64_t e) { reduce_chunk(f, b, e, worker); });
          worker.finish();
        });
      });
    }
  }
};

template <class Functor, class Policy>
struct FusionOpaqueBlob {
  using ExecSpace = typename Policy::execution_space;
  Functor functor;
  Policy policy;
  static void execute_alone(const void* self) {
    const auto& s = *static_cast<const FusionOpaqueBlob*>(self);
    ParallelFor<Functor, Policy, ExecSpace>(s.functor, s.policy).execute();
  }
};

// The pool size of a fusible blob's execution space (FusionLaunch::pool_size).
template <class Blob>
int fusion_blob_pool_size(const void* blob) {
  return static_cast<const Blob*>(blob)->policy.space().impl_thread_pool_size();
}

template <class Blob>
void fusion_destroy_blob(void* blob) {
  static_cast<Blob*>(blob)->~Blob();
}


// ---- the window ------------------------------------------------------------------------------

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
    launch.tools_device_id = Tools::Impl::policy_device_id(policy);
    push(launch, fusible ? FusionLaunchKind::range_reduce : FusionLaunchKind::opaque,
         type_tag<typename Policy::execution_space>(), decls, n);
    m_report_names.push_back(fusion_recorded_name<typename CombinedFunctorReducer::functor_type, Policy>());
  }

  template <class Functor, class Policy>
  void record_opaque(const Functor& functor, const Policy& policy, const FusionAccessDecl* decls, std::size_t n) {
    FusionLaunch launch = copy_launch<FusionOpaqueBlob<Functor, Policy>>(functor, policy);
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
    const FusionPlan plan = analyze_fusion_window(m_summaries.data(), m_summaries.size(), m_accesses.data());
    auto node_label = [&](std::size_t k) {
      return m_report_names[k].empty() ? "launch " + std::to_string(k) : m_report_names[k];
    };
    std::string out = "digraph fusion_window {\n  rankdir=LR;\n  node [shape=box];\n";
    for (std::size_t r = 0; r < plan.runs.size(); ++r) {
      const FusionRun& run = plan.runs[r];
      out += "  subgraph cluster_run" + std::to_string(r) + " {\n    label=\"" +
             (run.count > 1 ? "fused run " + std::to_string(r) + " (" + std::to_string(run.count) + " launches" +
                                  (run.split >= 0 ? ", skewed" : "") + ")"
                            : "run " + std::to_string(r) + " (alone)") +
             "\";\n";
      for (std::uint32_t k = run.first; k < run.first + run.count; ++k) {
        out += "    l" + std::to_string(k) + " [label=" + dot_quoted(node_label(k)) + "];\n";
      }
      out += "  }\n";
      for (std::uint32_t k = run.first; k + 1 < run.first + run.count; ++k) {
        out += "  l" + std::to_string(k) + " -> l" + std::to_string(k + 1) + " [label=\"fused\"];\n";
      }
      if (run.ended_by != FusionConstraint::none) {
        const std::uint32_t last = run.first + run.count - 1;
        out += "  l" + std::to_string(last) + " -> l" + std::to_string(last + 1) + " [label=\"refused: " +
               fusion_constraint_name(run.ended_by) + "\", color=red, style=dashed];\n";
      } else if (r + 1 < plan.runs.size()) {
        const std::uint32_t last = run.first + run.count - 1;
        out += "  l" + std::to_string(last) + " -> l" + std::to_string(last + 1) + " [style=dotted];\n";
      }
    }
    return out + "}\n";
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
  static std::string dot_quoted(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  }

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
    if (fusion_keeps_labels().load(std::memory_order_relaxed)) {
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
  void execute_on_device(const FusionRun& run, Experimental::FusionStatistics& delta) const;
  const FusionDeviceReplay* device_replay() const;
  bool device_signature(std::vector<unsigned char>& out) const;
  template <class RunAll>
  void replay_on_device(const FusionDeviceReplay& replay, const FusionPlan& plan, Experimental::FusionStatistics& delta,
                        const RunAll& run_all);
  void find_temporaries(const FusionPlan& plan, Experimental::FusionStatistics& delta);
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
    std::shared_ptr<void> graph;
    std::vector<unsigned char> signature;
    std::uint64_t waves = 0, fused_kernels = 0, runs_split = 0, runs_unfused = 0;
    std::uint64_t temporaries = 0, temporary_bytes = 0;
  };
  std::vector<DeviceReplay> m_device_replays;
  std::vector<unsigned char> m_signature;  // this flush's (device_signature)
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

inline std::int64_t fusion_run_chunk(const FusionRun& run);

inline void FusionWindow::prepare(const FusionRun& run, FusedRun& fused) const {
  const FusionLaunch* launches = m_launches.data() + run.first;
  const bool reduces = m_summaries[run.first + run.count - 1].kind == FusionLaunchKind::range_reduce;
  fused.launches = launches;
  fused.num_for = run.count - (reduces ? 1 : 0);
  fused.reduces = reduces;
  fused.split = run.split >= 0 ? static_cast<std::uint32_t>(run.split) : fused.num_for;
  fused.begin = launches[0].begin;
  fused.end = launches[0].end;
  fused.lag = run.lag;
  fused.halo_lo = run.halo_lo;
  fused.halo_hi = run.halo_hi;
  fused.chunk = fusion_run_chunk(run);
  if (!m_temporary_slot.empty() && m_temporary_slot[run.first] >= 0) {
    const RunTemporaries& t = m_run_temporaries[static_cast<std::size_t>(m_temporary_slot[run.first])];
    fused.temporaries = m_temporaries.data() + t.first_temporary;
    fused.num_temporaries = t.count;
    fused.buffers = m_buffers.get() + t.buffer_offset;
    fused.buffer_bytes = t.buffer_bytes;
  }
}

// Chunks small enough that the run's distinct partitions stay in L1 while every launch passes
// over them, and at least 2048 indices, so that each launch's per-chunk call and loop start are
// noise; a run over many arrays then keeps its chunk in L2 instead.  An index that stands for a
// whole row (a rank-2 subview per index) is work enough on its own: the floor never takes a
// chunk past eight budgets (a 1000-column five-point sweep: 4 rows, not 2048).
inline std::int64_t fusion_run_chunk(const FusionRun& run) {
  const std::int64_t budget = fusion_chunk_bytes();
  const std::int64_t per_index = run.bytes_per_index > 0 ? run.bytes_per_index : 8;
  const std::int64_t floor = std::clamp<std::int64_t>(8 * budget / per_index, 1, 2048);
  return std::clamp<std::int64_t>(budget / per_index, floor, 1 << 16);
}

// Which held allocations are temporaries this flush eliminates (impl/fusion/Kokkos_FusionTemporaries.hpp
// gives the conditions), their places in each worker's chunk buffer, and the buffers.
inline void FusionWindow::find_temporaries(const FusionPlan& plan, Experimental::FusionStatistics& delta) {
  m_temporaries.clear();
  m_run_temporaries.clear();
  m_temporary_slot.clear();
  if (m_partial || !fusion_eliminates_temporaries()) return;
  const auto candidate = [](const SharedAllocationRecord* r) { return r->impl_fusion_reserved() && r->use_count() == 1; };
  if (std::none_of(m_held.begin(), m_held.end(), candidate)) return;
  const std::size_t n = m_launches.size();
  std::vector<std::uint32_t> run_of(n);
  for (std::uint32_t r = 0; r < plan.runs.size(); ++r) {
    for (std::uint32_t k = plan.runs[r].first; k < plan.runs[r].first + plan.runs[r].count; ++k) run_of[k] = r;
  }
  struct Found {
    std::uint32_t run;
    SharedAllocationRecord* record;
    FusionTemporary temporary;
    std::int64_t slice_bytes;
  };
  std::vector<Found> found;
  for (SharedAllocationRecord* record : m_held) {
    if (!candidate(record)) continue;
    const void* allocation = record->data();
    const FusionAccess* geometry = nullptr;
    std::int64_t run = -1;
    bool ok = true;
    for (std::size_t k = 0; k < n && ok; ++k) {
      const FusionLaunchSummary& s = m_summaries[k];
      bool touches = false, only_writes = true;
      for (std::uint32_t a = s.first_access; a < s.first_access + s.num_accesses; ++a) {
        const FusionAccess& x = m_accesses[a];
        if (x.allocation != allocation) continue;
        touches = true;
        if (geometry == nullptr) geometry = &x;
        ok = ok && x.offset == geometry->offset && x.stride == geometry->stride &&
             x.slice_bytes == geometry->slice_bytes && x.privilege != Privilege::reduce;
        only_writes = only_writes && x.privilege == Privilege::write;
      }
      if (!touches) continue;
      // A reduction never qualifies: its functor argument holds a counted View until the flush.
      ok = ok && m_launches[k].rebasable && s.kind == FusionLaunchKind::range_for;
      if (run < 0) {
        run = run_of[k];
        ok = ok && only_writes;  // its contents before the run are never read
      } else {
        ok = ok && run_of[k] == static_cast<std::uint32_t>(run);
      }
    }
    if (!ok || run < 0) continue;
    const FusionRun& r = plan.runs[static_cast<std::size_t>(run)];
    if (r.count < 2 || r.split >= 0 || geometry->stride <= 0 || geometry->slice_bytes <= 0 ||
        geometry->slice_bytes > geometry->stride) {
      continue;
    }
    found.push_back({static_cast<std::uint32_t>(run), record,
                     FusionTemporary{allocation, geometry->offset, geometry->stride, 0, static_cast<std::int64_t>(record->size())},
                     geometry->slice_bytes});
  }
  if (found.empty()) return;
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.run < b.run; });
  m_temporary_slot.assign(n, -1);
  std::int64_t total = 0;
  for (std::size_t f = 0; f < found.size();) {
    const FusionRun& run = plan.runs[found[f].run];
    const std::int64_t chunk = fusion_run_chunk(run);
    RunTemporaries slot;
    slot.first_temporary = static_cast<std::uint32_t>(m_temporaries.size());
    for (; f < found.size() && found[f].run == found[slot.first_temporary].run; ++f) {
      FusionTemporary t = found[f].temporary;
      t.buffer_offset = slot.buffer_bytes;
      slot.buffer_bytes += ((chunk - 1) * t.stride + found[f].slice_bytes + 63) / 64 * 64;
      m_temporaries.push_back(t);
      found[f].record->impl_set_fusion_eliminated();
      delta.temporaries_eliminated += 1;
      delta.temporary_bytes_eliminated += found[f].record->size();
      for (std::uint32_t k = run.first; k < run.first + run.count; ++k) {
        const FusionLaunchSummary& s = m_summaries[k];
        for (std::uint32_t a = s.first_access; a < s.first_access + s.num_accesses; ++a) {
          if (m_accesses[a].allocation == t.allocation) m_launches[k].touches_temporary = true;
        }
      }
    }
    slot.count = static_cast<std::uint32_t>(m_temporaries.size()) - slot.first_temporary;
    // Every worker of the run's space may take part (the caller's way runs them all in turn).
    const FusionLaunch& first = m_launches[run.first];
    const FusionLaunch& last = m_launches[run.first + run.count - 1];
    // A device kernel keeps its tiles in on-chip memory instead (Cuda/Kokkos_Cuda_Fusion.hpp).
    const int workers = first.device != nullptr ? 0 : std::max(first.pool_size(first.blob), last.pool_size(last.blob));
    slot.buffer_offset = total;
    total += slot.buffer_bytes * workers;
    m_temporary_slot[run.first] = static_cast<std::int32_t>(m_run_temporaries.size());
    m_run_temporaries.push_back(slot);
  }
  if (static_cast<std::size_t>(total) > m_buffers_capacity) {
    m_buffers.reset(static_cast<std::byte*>(::operator new(static_cast<std::size_t>(total), std::align_val_t{64})));
    m_buffers_capacity = static_cast<std::size_t>(total);
  }
  delta.temporary_buffer_bytes = static_cast<std::uint64_t>(total);
}

// A wave can run concurrently when its runs share one execution space type with two or more
// workers (on one worker nothing changes).
inline bool FusionWindow::can_run_concurrently(const FusionPlan& plan, const FusionWave& wave) const {
  const FusionLaunch& first = m_launches[plan.runs[wave.first_run].first];
  if (first.on_workers == nullptr || first.pool_size == nullptr || first.pool_size(first.blob) < 2) return false;
  for (std::uint32_t r = wave.first_run; r < wave.first_run + wave.count; ++r) {
    const FusionRun& run = plan.runs[r];
    for (std::uint32_t k = run.first; k < run.first + run.count; ++k) {
      if (m_launches[k].space != first.space || m_launches[k].run_chunk == nullptr) return false;
    }
  }
  return true;
}

// Runs the wave's chains in one dispatch, each group of consecutive workers running its chains'
// runs in program order (a barrier between two runs when the group has several workers).  With
// more chains than workers, a group takes several chains (the heaviest first, each onto the
// least loaded group); groups are sized by their estimated work (indices times launches), at
// least one worker each, as partition_space shares a pool out.
// Out of line: flush() stays small on the common path, where no wave runs concurrently.
KOKKOS_IMPL_NOINLINE inline void FusionWindow::run_concurrently(const FusionPlan& plan, const FusionWave& wave) const {
  const FusionLaunch& driver = m_launches[plan.runs[wave.first_run].first];
  const int pool = driver.pool_size(driver.blob);
  constexpr std::uint32_t max_groups = 64;
  const std::uint32_t groups = std::min({wave.chains, static_cast<std::uint32_t>(pool), max_groups});
  struct Wave {
    std::vector<FusedRun> runs;
    std::vector<std::uint32_t> order;                 // run indices, group by group, each in program order
    std::vector<std::uint32_t> first_run_of;  // group g: order[first_run_of[g] .. [g + 1])
    std::vector<int> first_worker;            // group g: workers [first_worker[g], [g + 1])
    std::unique_ptr<HostTeamBarrier[]> barriers;
    std::uint32_t groups = 0;
    int pool = 0;
    const FusionLaunch* window_launches = nullptr;

    // rank and size within the group; worker: the rank in the dispatch (for the probe).
    void run_group(std::uint32_t g, int rank, int size, int worker) {
      auto probe = fusion_config().concurrent_probe.load(std::memory_order_relaxed);
      for (std::uint32_t k = first_run_of[g]; k < first_run_of[g + 1]; ++k) {
        if (k > first_run_of[g]) barriers[g].arrive_and_wait(size);
        const FusedRun& run = runs[order[k]];
        if (probe != nullptr) probe(static_cast<std::uint32_t>(run.launches - window_launches), static_cast<int>(g), worker);
        run.work(rank, size, FusionNoReduction{});
      }
    }
  } w;
  w.runs = std::vector<FusedRun>(wave.count);
  w.first_run_of.assign(groups + 1, 0);
  w.first_worker.assign(groups + 1, 0);
  w.barriers = std::make_unique<HostTeamBarrier[]>(groups);
  w.groups = groups;
  w.pool = pool;
  w.window_launches = m_launches.data();
  std::vector<double> chain_work(wave.chains, 0.0), group_work(groups, 0.0);
  for (std::uint32_t k = 0; k < wave.count; ++k) {
    const FusionRun& run = plan.runs[wave.first_run + k];
    prepare(run, w.runs[k]);
    chain_work[wave.chain_of[k]] +=
        static_cast<double>(std::max<std::int64_t>(w.runs[k].end - w.runs[k].begin, 1)) * run.count;
  }
  std::vector<std::uint32_t> group_of_chain(wave.chains), by_work(wave.chains);
  for (std::uint32_t c = 0; c < wave.chains; ++c) by_work[c] = c;
  std::stable_sort(by_work.begin(), by_work.end(), [&](std::uint32_t a, std::uint32_t b) { return chain_work[a] > chain_work[b]; });
  for (std::uint32_t c : by_work) {
    const auto g = static_cast<std::uint32_t>(std::min_element(group_work.begin(), group_work.end()) - group_work.begin());
    group_of_chain[c] = g;
    group_work[g] += chain_work[c];
  }
  // Group numbers by first run (group 0 holds the wave's first run).
  std::vector<std::uint32_t> renumber(groups, ~0u);
  std::uint32_t next_group = 0;
  for (std::uint32_t k = 0; k < wave.count; ++k) {
    std::uint32_t& g = renumber[group_of_chain[wave.chain_of[k]]];
    if (g == ~0u) g = next_group++;
  }
  std::vector<double> work(groups);
  for (std::uint32_t g = 0; g < groups; ++g) work[renumber[g]] = group_work[g];
  for (std::uint32_t g = 0; g < groups; ++g) {
    w.first_run_of[g] = static_cast<std::uint32_t>(w.order.size());
    for (std::uint32_t k = 0; k < wave.count; ++k) {
      if (renumber[group_of_chain[wave.chain_of[k]]] == g) w.order.push_back(k);
    }
  }
  w.first_run_of[groups] = static_cast<std::uint32_t>(w.order.size());
  const std::vector<int> counts = Experimental::Impl::partition_worker_counts(pool, work);
  for (std::uint32_t g = 0; g < groups; ++g) w.first_worker[g + 1] = w.first_worker[g] + counts[g];
  driver.on_workers(
      driver.blob,
      [](void* context, int rank, int size) {
        Wave& wave = *static_cast<Wave*>(context);
        if (size != wave.pool) {  // not the pool the groups were sized for: any split gives the same bits
          for (std::uint32_t g = static_cast<std::uint32_t>(rank); g < wave.groups; g += static_cast<std::uint32_t>(size)) {
            wave.run_group(g, 0, 1, rank);
          }
          return;
        }
        std::uint32_t g = 0;
        while (rank >= wave.first_worker[g + 1]) ++g;
        const int first = wave.first_worker[g];
        wave.run_group(g, rank - first, wave.first_worker[g + 1] - first, rank);
      },
      &w);
}

// A fused run on a device back end: one kernel per piece.  Pieces end where the launches' units
// change (a kernel calls only its own translation unit's code), where a skewed run's tail starts
// (the head's kernel has finished every index before the tail's reads its neighbours), and where
// the next launch's closure no longer fits the kernel's parameter space.  A piece of one launch
// runs as the plain launch.
inline void FusionWindow::execute_on_device(const FusionRun& run, Experimental::FusionStatistics& delta) const {
  const FusionLaunch* launches = m_launches.data() + run.first;
  const auto alone = [&](std::uint32_t from, std::uint32_t to) {
    for (std::uint32_t k = from; k < to; ++k) execute_alone_reported(run.first + k);
  };
  if (launches[0].begin == launches[0].end) {  // nothing to fuse; a reduction still yields init
    alone(0, run.count);
    return;
  }
  const std::uint32_t tail = run.split >= 0 ? static_cast<std::uint32_t>(run.split) : run.count;
  const auto aligned = [](std::size_t offset, const FusionDeviceLaunch& d) {
    return (offset + d.closure_align - 1) / d.closure_align * d.closure_align;
  };
  struct {
    const FusionTemporary* first = nullptr;
    std::uint32_t count = 0;
  } temporaries;
  if (!m_temporary_slot.empty() && m_temporary_slot[run.first] >= 0) {
    const RunTemporaries& t = m_run_temporaries[static_cast<std::size_t>(m_temporary_slot[run.first])];
    temporaries.first = m_temporaries.data() + t.first_temporary;
    temporaries.count = t.count;
  }
  std::uint32_t materialised_anyway = temporaries.count;
  bool split = false;
  for (std::uint32_t from = 0; from < run.count;) {
    const FusionDeviceLaunch& first = *launches[from].device;
    std::size_t bytes = aligned(0, first) + first.closure_bytes;
    std::uint32_t to = from + 1;
    while (to < run.count && to != tail && launches[to].device->unit == first.unit && to - from < fusion_device_max_bodies) {
      const FusionDeviceLaunch& next = *launches[to].device;
      const std::size_t end = aligned(bytes, next) + next.closure_bytes;
      if (end > fusion_device_closure_capacity) break;
      bytes = end;
      ++to;
    }
    if (to < run.count && to != tail) split = true;
    if (to - from == 1) {
      alone(from, to);
    } else {
      const FusionLaunch& owner = launches[to - 1];
      const bool reduces = m_summaries[run.first + to - 1].kind == FusionLaunchKind::range_reduce;
      bool ran = false;
      // Temporaries stay on chip only when one kernel runs every launch that touches them.
      std::uint32_t kept_on_chip = from == 0 && to == run.count ? temporaries.count : 0;
      const auto body = [&] {
        ran = owner.device->run_fused(launches + from, to - from, temporaries.first, &kept_on_chip);
      };
      if (KOKKOS_IMPL_LIKELY(m_report_names[run.first + from].empty())) {
        body();
      } else {
        fusion_report_launch(reduces, fused_run_name(&m_report_names[run.first + from], to - from),
                             launches[from].tools_device_id, body, true);
      }
      if (ran) {
        ++delta.device_fused_kernels;
        materialised_anyway -= kept_on_chip;
      } else {
        ++delta.device_runs_unfused;
        alone(from, to);
      }
    }
    from = to;
  }
  if (split) ++delta.device_runs_split;
  // find_temporaries counted them as eliminated; the device memory held them after all.
  for (std::uint32_t t = temporaries.count - materialised_anyway; t < temporaries.count; ++t) {
    delta.temporaries_eliminated -= 1;
    delta.temporary_bytes_eliminated -= static_cast<std::uint64_t>(temporaries.first[t].bytes);
  }
}

// A memoized window can be replayed on its device when it holds only RangePolicy loops of one
// device instance (a reduction's result must reach the host during the flush) and no message
// is in flight.
inline const FusionDeviceReplay* FusionWindow::device_replay() const {
  if (m_launches.empty() || !m_in_flight.empty() || m_launches[0].device == nullptr) return nullptr;
  const FusionDeviceLaunch& first = *m_launches[0].device;
  if (first.replay == nullptr) return nullptr;
  for (std::size_t k = 0; k < m_launches.size(); ++k) {
    const FusionDeviceLaunch* d = m_launches[k].device;
    if (d == nullptr || d->instance != first.instance || d->replay != first.replay ||
        m_summaries[k].kind != FusionLaunchKind::range_for) {
      return nullptr;
    }
  }
  return first.replay;
}

// What a device window's recording is made from: each launch's instance, range and closure
// bytes (its Views' addresses, its scalars) and the run's eliminated temporaries.  False where
// a Kokkos Tools library is loaded: its callbacks fire as the window is dispatched.
inline bool FusionWindow::device_signature(std::vector<unsigned char>& out) const {
  out.clear();
  for (const std::string& name : m_report_names) {
    if (!name.empty()) return false;
  }
  const auto put = [&out](const void* bytes, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(bytes);
    out.insert(out.end(), b, b + n);
  };
  for (const FusionLaunch& l : m_launches) {
    const FusionDeviceLaunch& d = *l.device;
    const unsigned char touches = l.touches_temporary ? 1 : 0;
    put(&d.instance, sizeof d.instance);
    put(&l.begin, sizeof l.begin);
    put(&l.end, sizeof l.end);
    put(&touches, 1);
    if (d.closure == nullptr) return false;
    put(d.closure, d.closure_bytes);
  }
  for (const FusionTemporary& t : m_temporaries) {
    put(&t.allocation, sizeof t.allocation);
    put(&t.offset, sizeof t.offset);
    put(&t.stride, sizeof t.stride);
  }
  return true;
}

// Launches the plan's replay as it is when the window is the one it recorded (same signature);
// otherwise records the window's dispatch (run_all) and launches that, updating the replay in
// place or re-creating it.  Recording runs nothing, so a recording that fails is discarded and
// the window dispatched again directly.
template <class RunAll>
void FusionWindow::replay_on_device(const FusionDeviceReplay& replay, const FusionPlan& plan,
                                    Experimental::FusionStatistics& delta, const RunAll& run_all) {
  const void* instance = m_launches[0].device->instance;
  DeviceReplay* kept = nullptr;
  for (DeviceReplay& r : m_device_replays) {
    if (r.plan == &plan) kept = &r;
  }
  const bool signed_window = device_signature(m_signature);
  if (kept != nullptr && kept->graph != nullptr && signed_window && kept->signature == m_signature) {
    replay.launch(instance, kept->graph);
    delta.waves += kept->waves;
    delta.device_fused_kernels += kept->fused_kernels;
    delta.device_runs_split += kept->runs_split;
    delta.device_runs_unfused += kept->runs_unfused;
    delta.temporaries_eliminated = delta.temporaries_eliminated - kept->temporaries;  // run_all's part, reapplied
    delta.temporary_bytes_eliminated = delta.temporary_bytes_eliminated - kept->temporary_bytes;
    ++delta.device_graph_replays;
    return;
  }
  // Whatever a first dispatch sets up (the loop bodies' device addresses) is set up before recording.
  for (const FusionLaunch& l : m_launches) {
    if (l.device->body_address != nullptr) (void)l.device->body_address();
  }
  if (!replay.begin(instance)) {
    run_all();
    return;
  }
  const Experimental::FusionStatistics before = delta;
  bool recorded = true;
  try {
    run_all();
  } catch (...) {
    replay.abort(instance);
    recorded = false;
  }
  if (recorded) {
    if (kept == nullptr) {
      if (m_device_replays.size() >= FusionMemo::max_entries) m_device_replays.clear();
      kept = &m_device_replays.emplace_back();
      kept->plan = &plan;
    }
    // What run_all added (execute_on_device may take back temporaries find_temporaries counted).
    kept->waves = delta.waves - before.waves;
    kept->fused_kernels = delta.device_fused_kernels - before.device_fused_kernels;
    kept->runs_split = delta.device_runs_split - before.device_runs_split;
    kept->runs_unfused = delta.device_runs_unfused - before.device_runs_unfused;
    kept->temporaries = before.temporaries_eliminated - delta.temporaries_eliminated;
    kept->temporary_bytes = before.temporary_bytes_eliminated - delta.temporary_bytes_eliminated;
    try {
      ++(replay.end_and_launch(instance, kept->graph) ? delta.device_graph_instantiations : delta.device_graph_replays);
      if (signed_window) kept->signature = m_signature;
      else kept->signature.clear();
      return;
    } catch (...) {
      kept->graph.reset();
      kept->signature.clear();
    }
  }
  delta = before;
  run_all();  // directly; an error that was not the recording's shows here
}

inline FusionDispatchChoice::Way FusionWindow::execute(const FusionRun& run, bool adapt) {
  using Way = FusionDispatchChoice::Way;
  const FusionLaunch* launches = m_launches.data() + run.first;
  const FusionLaunch& last = launches[run.count - 1];
  const bool reduces = m_summaries[run.first + run.count - 1].kind == FusionLaunchKind::range_reduce;
  if (run.count == 1) {
    execute_alone_reported(run.first);
    return Way::workers;
  }
  if (launches[0].begin == launches[0].end) {  // nothing to fuse; a reduction still yields init
    if (reduces) execute_alone_reported(run.first + run.count - 1);
    return Way::workers;
  }
  FusedRun fused;
  prepare(run, fused);
  const FusionLaunch& driver = reduces ? last : launches[0];
  if (!adapt) {
    drive_reported(run, reduces, [&] { driver.drive(driver.blob, fused, false); });
    return Way::workers;
  }
  const int workers = driver.pool_size(driver.blob);
  const std::int64_t length = fused.end - fused.begin, short_chunk = FusionDispatchChoice::short_chunk(fused.chunk);
  const bool long_chunks_differ = length > fused.chunk * workers;
  const bool short_chunks_differ = short_chunk > 0 && length > short_chunk * workers;
  // A run with eliminated temporaries keeps them chunk-sized: never launch by launch, nor in
  // chunks sixteen times longer.
  const bool temporaries = fused.num_temporaries > 0;
  FusionDispatchChoice& choice = temporaries ? run.dispatch_with_temporaries : run.dispatch;
  const FusionDispatchChoice::Decision decision =
      choice.next(workers, long_chunks_differ && !temporaries, short_chunks_differ, !temporaries);
  const auto start = decision.timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  switch (decision.way) {
    case Way::unfused:  // each launch alone, in program order: what KOKKOS_FUSION=0 does
      for (std::uint32_t k = 0; k < run.count; ++k) execute_alone_reported(run.first + k);
      break;
    case Way::short_chunks: fused.chunk = short_chunk; [[fallthrough]];
    case Way::workers: drive_reported(run, reduces, [&] { driver.drive(driver.blob, fused, false); }); break;
    case Way::long_chunks:
      fused.chunk *= FusionDispatchChoice::long_chunk_factor;
      drive_reported(run, reduces, [&] { driver.drive(driver.blob, fused, false); });
      break;
    case Way::caller: drive_reported(run, reduces, [&] { driver.drive(driver.blob, fused, true); }); break;
  }
  if (decision.timed) {
    choice.record(decision.way,
                        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
  }
  return decision.way;
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
  FusionConfig& config = fusion_config();
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t n = m_launches.size();
  const FusionPlan* plan = nullptr;
  FusionPlan unmemoized;
  bool hit = false;
  if (config.memoize.load(std::memory_order_relaxed) && !m_has_unmanaged) {
    FusionMemo::canonical_key(m_summaries.data(), n, m_accesses.data(), m_key, m_names);
    plan = m_memo.find(m_key);
    hit = plan != nullptr;
    if (!hit) plan = &m_memo.insert(m_key, analyze_fusion_window(m_summaries.data(), n, m_accesses.data()));
  } else {
    unmemoized = analyze_fusion_window(m_summaries.data(), n, m_accesses.data());
    plan = &unmemoized;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m_sizer.observe(reason, static_cast<int>(n), plan->runs.empty() ? 0 : static_cast<int>(plan->runs.back().count));

  Experimental::FusionStatistics delta;
  delta.launches_recorded = n;
  delta.windows_analysed = 1;
  delta.memo_hits = hit ? 1 : 0;
  delta.analysis_seconds = seconds;
  for (int k = 0; k < fusion_constraint_count; ++k) delta.barriers[k] = plan->barriers[k];
  ++delta.flushes[static_cast<int>(reason)];
  for (const FusionRun& run : plan->runs) {
    delta.dispatches += 1;
    if (run.count < 2) continue;
    delta.fused_launches += 1;
    delta.launches_fused += run.count;
    if (delta.min_fused_length == 0 || run.count < delta.min_fused_length) delta.min_fused_length = run.count;
    if (run.count > delta.max_fused_length) delta.max_fused_length = run.count;
    if (run.split >= 0) delta.skewed_runs += 1;
  }
  find_temporaries(*plan, delta);
  // The plan may live in the memo, which a nested flush never touches (we are flushing).
  const bool adapt = plan != &unmemoized && fusion_adapts_dispatch();
  const FusionDeviceReplay* replay = hit ? device_replay() : nullptr;
  const FusionConcurrentMode concurrent = fusion_concurrent_mode();
  auto run_in_order = [&](std::uint32_t from, std::uint32_t to) {
    for (std::uint32_t r = from; r < to; ++r) {
      const FusionRun& run = plan->runs[r];
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
  };
  const auto run_all = [&] {
    std::uint32_t next_run = 0;
    for (const FusionWave& wave : plan->waves) {
      run_in_order(next_run, wave.first_run);
      next_run = wave.first_run + wave.count;
      ++delta.waves;
      const bool eligible = concurrent != FusionConcurrentMode::off && can_run_concurrently(*plan, wave);
      MeasuredChoice::Decision decision{FusionWave::in_order, false};
      if (eligible && concurrent == FusionConcurrentMode::always) {
        decision.way = FusionWave::concurrent;
      } else if (eligible && adapt) {
        decision = wave.choice.next();
      }
      const auto start = decision.timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
      if (decision.way == FusionWave::concurrent) {
        run_concurrently(*plan, wave);
        ++delta.waves_concurrent;
        delta.runs_concurrent += wave.count;
      } else {
        run_in_order(wave.first_run, next_run);
      }
      if (decision.timed) {
        wave.choice.record(decision.way,
                           std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
      }
    }
    run_in_order(next_run, static_cast<std::uint32_t>(plan->runs.size()));
  };
  if (replay != nullptr) {
    replay_on_device(*replay, *plan, delta, run_all);
  } else {
    run_all();
  }
  {
    std::lock_guard<std::mutex> lock(config.stats_mutex);
    Experimental::FusionStatistics& s = config.stats;
    s.launches_recorded += delta.launches_recorded;
    s.launches_fused += delta.launches_fused;
    s.fused_launches += delta.fused_launches;
    s.fused_on_caller += delta.fused_on_caller;
    s.fused_short_chunks += delta.fused_short_chunks;
    s.fused_long_chunks += delta.fused_long_chunks;
    s.fused_runs_unfused += delta.fused_runs_unfused;
    s.dispatches += delta.dispatches;
    s.skewed_runs += delta.skewed_runs;
    s.waves += delta.waves;
    s.waves_concurrent += delta.waves_concurrent;
    s.runs_concurrent += delta.runs_concurrent;
    s.temporaries_eliminated += delta.temporaries_eliminated;
    s.temporary_bytes_eliminated += delta.temporary_bytes_eliminated;
    s.temporary_buffer_bytes = std::max(s.temporary_buffer_bytes, delta.temporary_buffer_bytes);
    s.device_fused_kernels += delta.device_fused_kernels;
    s.device_runs_split += delta.device_runs_split;
    s.device_runs_unfused += delta.device_runs_unfused;
    s.device_graph_replays += delta.device_graph_replays;
    s.device_graph_instantiations += delta.device_graph_instantiations;
    if (delta.min_fused_length != 0 && (s.min_fused_length == 0 || delta.min_fused_length < s.min_fused_length)) {
      s.min_fused_length = delta.min_fused_length;
    }
    s.max_fused_length = std::max(s.max_fused_length, delta.max_fused_length);
    for (int k = 0; k < fusion_constraint_count; ++k) s.barriers[k] += delta.barriers[k];
    for (std::size_t k = 0; k < s.flushes.size(); ++k) s.flushes[k] += delta.flushes[k];
    s.windows_analysed += 1;
    s.memo_hits += delta.memo_hits;
    s.analysis_seconds += seconds;
  }
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

// ---- communication hooks (mpi/src/Kokkos_MPI.hpp) ------------------------------------------------

// Runs the calling thread's recorded launches a message touching `decl` depends on; returns how many.
inline std::size_t fusion_flush_dependences(const FusionAccessDecl& decl) {
  if (!t_fusion_hooks.pending) return 0;
  return FusionWindow::this_thread_window().flush_dependences(decl.access, FusionFlush::communication);
}
inline void fusion_add_in_flight(const FusionAccessDecl& decl, void (*complete)(void*), void* context) {
  FusionWindow::this_thread_window().add_in_flight(decl.access, complete, context);
}
inline void fusion_remove_in_flight(const void* context) {
  FusionWindow::this_thread_window().remove_in_flight(context);
}

}  // namespace Kokkos::Impl

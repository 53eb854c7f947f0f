#pragma once
// The fusion layer's process-wide settings (environment variables and their KE::set_* calls),
// its statistics totals, and the adaptive window size of seed 003 §7.
#include <Kokkos_Abort.hpp>
#include <Kokkos_FusionStatistics.hpp>
#include <Kokkos_Macros.hpp>
#include <impl/fusion/Kokkos_FusionAnalysis.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>

namespace Kokkos {
void push_finalize_hook(std::function<void()> hook);
bool is_initialized() noexcept;
}

namespace Kokkos::Impl {

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
  std::atomic<int> check{-1};                  // see fusion_checks_captures
  std::atomic<int> verify{-1};                 // see fusion_verifies
  std::atomic<std::uint64_t> window_generation{0};  // bumped by set_fusion_window_size
  // Test hook: called by each worker of a concurrent wave with the first launch (window index)
  // of the run it works on, its group and its rank in the dispatch.
  std::atomic<void (*)(std::uint32_t first_launch, int group, int rank)> concurrent_probe{nullptr};
  std::mutex stats_mutex;
  Kokkos::Experimental::FusionStatistics stats;
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

// Declarations are checked against what a recorded launch's functor captures
// (impl/fusion/Kokkos_FusionCheck.hpp): KOKKOS_FUSION_CHECK, on by default in Kokkos_ENABLE_DEBUG
// builds.  Verify mode (KOKKOS_FUSION_VERIFY, impl/fusion/Kokkos_FusionVerify.hpp) runs every
// flushed window unfused and fused and compares the two; it checks captures too.
inline bool fusion_verifies() { return fusion_env_flag(fusion_config().verify, "KOKKOS_FUSION_VERIFY", false); }
inline bool fusion_checks_captures() {
#if defined(KOKKOS_ENABLE_DEBUG)
  constexpr bool debug_build = true;
#else
  constexpr bool debug_build = false;
#endif
  return fusion_env_flag(fusion_config().check, "KOKKOS_FUSION_CHECK", debug_build) || fusion_verifies();
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

void fusion_print_statistics_at_finalize();

}  // namespace Kokkos::Impl

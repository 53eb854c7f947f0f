#pragma once
// A choice between a few ways of running the same work, made by timing them rather than by a
// model: the runtime's answer to "which is faster on this machine, for this functor, now?"
// where only the functor knows (its cost per call, the cache footprint of its data).
//
// Executions are counted in epochs.  The first executions of an epoch time each way in turn,
// samples_per_way times in a row (way 0 first, so a program that runs once runs way 0); the
// rest of the epoch runs the fastest.  A sample's minimum is kept: preemption only ever adds
// time.  Every epoch starts from fresh times, since the machine's state may have changed.
// Options:
//   - warmup_per_way: untimed executions before a way's samples.  A way's steady state can
//     depend on what the executions before it left behind (which core's cache holds the data):
//     a work DAG whose schedule keeps each subtree on one core runs 0.33 ms launch after launch
//     but 0.48 ms right after a launch of another schedule, so that timing the ways in turn
//     ranked a schedule 1.6x slower in the steady state first;
//   - max_epoch > epoch: an epoch whose fastest way is the last epoch's doubles the next
//     epoch's length (up to max_epoch), so that a settled choice is re-timed ever more rarely;
//   - prune_ratio: a way measured slower than prune_ratio times the fastest in two epochs in a
//     row is not timed again (a way four times slower costs four executions per sample; one
//     epoch's evidence is not enough: the first executions of a program run cold, 3-6 times
//     slower).
// next() takes a predicate that can rule a way out for this epoch's timing (the fusion layer
// does not try its caller-side dispatch on long runs); a way never timed is never chosen.
// Not thread-safe: one owner drives it (callers serialise, or own it per launch).
#include <Kokkos_Macros.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

namespace Kokkos::Impl {

struct MeasuredChoiceOptions {
  std::uint32_t samples_per_way = 2;
  std::uint32_t warmup_per_way = 0;  // untimed executions before a way's samples
  std::uint32_t epoch = 64;      // executions per epoch (the first one's, when growing)
  std::uint32_t max_epoch = 64;  // the longest a growing epoch gets
  double prune_ratio = std::numeric_limits<double>::infinity();
};

class MeasuredChoice {
 public:
  static constexpr int max_ways = 8;
  using Options = MeasuredChoiceOptions;

  struct Decision {
    int way = 0;
    bool timed = false;  // measure this execution and report it with record()
  };

  explicit MeasuredChoice(int ways = 1, Options options = {}) : m_ways(std::clamp(ways, 1, max_ways)), m_options(options) {
    m_epoch = std::max(m_options.epoch, m_ways * (m_options.warmup_per_way + m_options.samples_per_way));
    m_ns.fill(unknown);
    m_pruned.fill(false);
  }

  int ways() const { return m_ways; }

  template <class Eligible>
  Decision next(const Eligible& eligible) {
    if (m_ways == 1) return {};
    const std::uint32_t k = m_executions++;
    if (k == 0) start_epoch();
    if (m_executions == m_epoch) m_executions = 0;
    const std::uint32_t block = m_options.warmup_per_way + m_options.samples_per_way;
    if (k < static_cast<std::uint32_t>(m_ways) * block) {
      const int way = static_cast<int>(k / block);
      if (!m_pruned[static_cast<std::size_t>(way)] && eligible(way)) return {way, k % block >= m_options.warmup_per_way};
    }
    return {fastest(), false};
  }
  Decision next() {
    return next([](int) { return true; });
  }

  void record(int way, double ns) {
    double& t = m_ns[static_cast<std::size_t>(way)];
    t = std::min(t, ns);
  }

  // This epoch's fastest time of a way (infinite when not timed yet).
  double time_ns(int way) const { return m_ns[static_cast<std::size_t>(way)]; }
  bool pruned(int way) const { return m_pruned[static_cast<std::size_t>(way)]; }
  std::uint32_t epoch_length() const { return m_epoch; }
  // Where the next execution falls in its epoch (0: it starts one), and how many executions at
  // the start of an epoch may time a way: a caller whose timings arrive late (a device's) has
  // them recorded before the choice uses them, at an epoch's start and once sampling is over.
  std::uint32_t position() const { return m_executions; }
  std::uint32_t sampling_length() const {
    return static_cast<std::uint32_t>(m_ways) * (m_options.warmup_per_way + m_options.samples_per_way);
  }

  // The fastest way timed this epoch; before any has been, the last epoch's (way 0 at first):
  // the slots of pruned or ineligible ways at the start of an epoch run the settled choice.
  int fastest() const {
    int best = 0;
    for (int w = 1; w < m_ways; ++w) {
      if (m_ns[static_cast<std::size_t>(w)] < m_ns[static_cast<std::size_t>(best)]) best = w;
    }
    if (m_ns[static_cast<std::size_t>(best)] == unknown && m_last_winner >= 0) return m_last_winner;
    return best;
  }

 private:
  static constexpr double unknown = std::numeric_limits<double>::infinity();
  static constexpr std::uint32_t prune_after = 2;  // epochs in a row

  void start_epoch() {
    if (m_started) {
      const int winner = fastest();
      if (winner == m_last_winner) m_epoch = std::max(m_epoch, std::min(m_options.max_epoch, 2 * m_epoch));
      m_last_winner = winner;
      const double best = m_ns[static_cast<std::size_t>(winner)];
      for (std::size_t w = 0; w < static_cast<std::size_t>(m_ways); ++w) {
        if (m_ns[w] == unknown) continue;  // not timed: no evidence either way
        m_slow_epochs[w] = m_ns[w] > m_options.prune_ratio * best ? m_slow_epochs[w] + 1 : 0;
        m_pruned[w] = m_slow_epochs[w] >= prune_after;
      }
    }
    m_started = true;
    m_ns.fill(unknown);
  }

  int m_ways;
  Options m_options;
  std::uint32_t m_epoch;
  std::uint32_t m_executions = 0;
  bool m_started = false;
  int m_last_winner = -1;
  std::array<double, max_ways> m_ns{};
  std::array<bool, max_ways> m_pruned{};
  std::array<std::uint32_t, max_ways> m_slow_epochs{};
};

}  // namespace Kokkos::Impl

#pragma once
// How many workers a device task scheduler's wait() launches, and in what blocks (its worker
// shape), chosen by timing the scheduler's own runs on the user's GPU (Impl::MeasuredChoice).
//
// Which shape is fastest depends on the DAG: on an H200, 8 one-warp workers per SM ran Fibonacci
// fastest, 2 a wide tree of short tasks, 1 or 2 a wavefront of TaskTeam tiles, and every warp that
// fits was slowest on all of them (perf_tests/README.md, "The GPU task DAG").  So the scheduler
// does not fix one: its runs go through a few candidate shapes, samples_per_way runs each, and the
// shape that ran a task in the least time is kept for the rest of the epoch; every epoch times
// them again, and a shape slower than prune_ratio times the fastest in two epochs in a row is no
// longer tried.  The first candidate is the default: a program that waits once runs it.
//
// A run is timed in nanoseconds per task run (executions, respawns included): the DAGs of
// successive waits differ in size, and a run's time per task compares them where its total would
// not.  A run that ran no task tells nothing and is not recorded.
//
// A shape the user sets (fix) is launched as it is, every run, untimed, until measure() hands the
// choice back.  Host code only: the owner's wait() calls next() before its launch and record()
// after it; not thread-safe (one wait() at a time runs a scheduler).
#include <impl/Kokkos_MeasuredChoice.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

namespace Kokkos::Impl {

template <class Shape>
class DeviceTaskWorkerChoice {
 public:
  static constexpr MeasuredChoiceOptions options{.samples_per_way = 2,
                                                 .warmup_per_way = 0,
                                                 .epoch = 64,
                                                 .max_epoch = 1024,
                                                 .prune_ratio = 4.0};
  static constexpr int max_candidates = MeasuredChoice::max_ways;

  // What one run launches: `shape`; `way` its candidate (-1: the user's shape); `timed`: report
  // the run with record().
  struct Run {
    Shape shape{};
    int way = -1;
    bool timed = false;
  };

  explicit DeviceTaskWorkerChoice(std::span<const Shape> candidates)
      : m_choice(static_cast<int>(candidates.size()), options) {
    if (candidates.empty() || candidates.size() > static_cast<std::size_t>(max_candidates))
      throw std::invalid_argument("Kokkos::Impl::DeviceTaskWorkerChoice: 1 to 8 candidate shapes");
    for (std::size_t i = 0; i < candidates.size(); ++i) m_candidates[i] = candidates[i];
  }

  // Every run launches `shape` from now on.
  void fix(const Shape& shape) {
    m_fixed = true;
    m_fixed_shape = shape;
  }
  // Runs go back to the candidates, timing them where the epoch says.
  void measure() { m_fixed = false; }
  bool measuring() const { return !m_fixed; }

  Run next() {
    if (m_fixed) return {m_fixed_shape, -1, false};
    const MeasuredChoice::Decision d = m_choice.next();
    return {m_candidates[static_cast<std::size_t>(d.way)], d.way, d.timed};
  }
  // After the run `run` (from next()): it took `ns` and ran `tasks` tasks.
  void record(const Run& run, double ns, std::int64_t tasks) {
    if (!run.timed || run.way < 0 || tasks <= 0) return;
    m_choice.record(run.way, ns / static_cast<double>(tasks));
  }

  // The shape runs launch now: the user's, or the fastest measured so far (the first candidate
  // before any run was timed).
  Shape chosen() const {
    return m_fixed ? m_fixed_shape : m_candidates[static_cast<std::size_t>(m_choice.fastest())];
  }
  int candidate_count() const { return m_choice.ways(); }
  const Shape& candidate(int way) const { return m_candidates[static_cast<std::size_t>(way)]; }
  const MeasuredChoice& choice() const { return m_choice; }

 private:
  std::array<Shape, max_candidates> m_candidates{};
  MeasuredChoice m_choice;
  bool m_fixed = false;
  Shape m_fixed_shape{};
};

}  // namespace Kokkos::Impl

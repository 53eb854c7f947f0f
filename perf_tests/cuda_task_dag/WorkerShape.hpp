#pragma once
//   CudaTaskDag/Workers/blocks:<b>/warps:<w>/dag:<d>  one DAG on a scheduler whose workers are <b>
//                        blocks of <w> warps per SM (Experimental::set_task_workers; wait()
//                        launches fewer where fewer fit) and on one of the default shape (8 blocks
//                        of one warp), interleaved: d = 0 Fibonacci(25), 1 the Granularity tree at
//                        work 2^10, 2 Wavefront with b = 16, each checked as its benchmark checks
//                        it.  Shapes 2x4 and 1x8 (the default's 8 warps per SM in blocks that take
//                        turns polling), 6x4 and 3x8 (24 warps, about what the worker kernel's
//                        registers let an SM hold).  Counters: shaped_ms, default_ms (median ms
//                        per run), speedup = default_ms / shaped_ms (> 1: the shape wins),
//                        workers (warps launched).
//
//   CudaTaskDag/Measured/dag:<d>  the same DAGs on a scheduler left to choose its shape
//                        (set_task_workers(sched, Kokkos::AUTO), the default outside these
//                        benchmarks) and on one of the default shape: first the runs that time
//                        the candidates (two on each of 4), each followed by a run of the other
//                        scheduler, then both interleaved as above.  Counters: measured_ms,
//                        default_ms (median ms per run after the timing runs), speedup =
//                        default_ms / measured_ms (>= 1 where the choice is right: it may keep the
//                        default), sampling_cost (the timing runs' total time over the default's
//                        runs beside them: what choosing costs), kept_blocks, kept_warps (the
//                        shape kept), ns_per_task_<b>x<w> (each candidate's time per task run).
//
//   CudaTaskDag/WorkerMemory/dag:<d>  the same DAGs on a scheduler whose workers allocate what they
//                        spawn in device memory (Experimental::set_task_worker_memory(sched,
//                        CudaSpace())) and on one where they share the managed pool (the default),
//                        interleaved, both of the default shape.  Counters: device_ms, managed_ms
//                        (median ms per run), speedup = managed_ms / device_ms (> 1: device
//                        memory wins).
//
// Part of PerfCudaTaskDag.cpp (included there, and only there: see its opening comment).
#include "Common.hpp"
#include "Fib.hpp"
#include "Granularity.hpp"
#include "Wavefront.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

// One of three DAGs, run on any GPU scheduler and checked as their benchmarks
// (Fib.hpp, Granularity.hpp, Wavefront.hpp) check them:
// Fibonacci(25), the Granularity tree at work 2^10, the 16x16-tile wavefront.
enum class ShapeDag { fibonacci, granularity, wavefront };

class ShapeDagRuns {
 public:
  explicit ShapeDagRuns(ShapeDag dag)
      : m_dag(dag),
        m_chains("chains", granularity_leaves),
        m_failures("spawn failures"),
        m_reference(dag == ShapeDag::wavefront ? wavefront_reference(tile) : std::vector<double>()),
        m_matrix(wavefront_matrix<Kokkos::CudaSpace>(dag == ShapeDag::wavefront ? wavefront_initial(tile, nan)
                                                                                 : std::vector<double>())) {}

  void run(const gpu_t& sched) {
    std::string failed;
    switch (m_dag) {
      case ShapeDag::fibonacci: run_fib(sched, fib_n); break;
      case ShapeDag::granularity: failed = run_chain_tree(sched, m_chains.data(), m_failures.data(), chain_work); break;
      case ShapeDag::wavefront: failed = run_wavefront(sched, m_matrix.data(), tile, m_spawn_seconds); break;
    }
    if (m_why.empty()) m_why = failed;
  }
  // False, the benchmark failed with the reason, where a run went wrong.
  bool check(benchmark::State& state, const char* when) {
    if (m_why.empty()) m_why = spawn_failures(m_failures);
    if (m_why.empty() && m_dag == ShapeDag::granularity) m_why = chain_mismatch(m_chains, chain_work);
    if (m_why.empty() && m_dag == ShapeDag::wavefront) m_why = reference_mismatch(m_matrix, m_reference);
    if (!m_why.empty()) return perf::fail_result_check(state, std::string(when) + ": " + m_why), false;
    return true;
  }

 private:
  static constexpr long fib_n = 25;
  static constexpr int chain_work = 1 << 10, tile = 16;
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  ShapeDag m_dag;
  Kokkos::View<double*, Kokkos::CudaSpace> m_chains;
  Kokkos::View<int, Kokkos::CudaSpace> m_failures;
  std::vector<double> m_reference;
  Kokkos::View<double*, Kokkos::CudaSpace> m_matrix;
  std::vector<double> m_spawn_seconds;
  std::string m_why;
};

// One DAG on a scheduler set up by `configure` and on one of the default shape, interleaved and
// checked: their median ms per run as the counters named `configured_ms` and `default_ms`,
// speedup = default_ms / configured_ms, and where the first one's workers' time went.  The first
// scheduler, or nothing where a check failed.
template <class Configure>
std::optional<gpu_t> compare_with_default(benchmark::State& state, ShapeDag which, const Configure& configure,
                                          const char* configured_ms, const char* default_ms) {
  ShapeDagRuns dag(which);
  gpu_t configured = make_scheduler<gpu_t>(), plain = make_scheduler<gpu_t>();
  configure(configured);
  GpuWorkerTime worker_time;
  const std::vector<double> m =
      checked_medians(state, worker_time.timed([&] { dag.run(configured); }), [&] { dag.run(plain); },
                      [&](const char* when) { return dag.check(state, when); });
  if (m.empty()) return std::nullopt;
  state.counters[configured_ms] = m[0] * 1e3;
  state.counters[default_ms] = m[1] * 1e3;
  state.counters["speedup"] = m[1] / m[0];
  worker_time.report(state, configured);
  return configured;
}

// One DAG on a scheduler whose workers are `blocks` blocks of `warps` warps per SM and on one of
// the default shape.
void Workers(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const Kokkos::Experimental::CudaTaskWorkers shape{int(state.range(0)), int(state.range(1))};
  const auto shaped = compare_with_default(
      state, ShapeDag(state.range(2)), [&](gpu_t& s) { Kokkos::Experimental::set_task_workers(s, shape); },
      "shaped_ms", "default_ms");
  if (shaped) state.counters["workers"] = shaped->queue().m_workers;
}

// One DAG on a scheduler that chooses its worker shape (Kokkos::AUTO: the runs that time the
// candidates first, then the kept one) and on one of the default shape, interleaved.
void Measured(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  ShapeDagRuns dag(ShapeDag(state.range(0)));
  gpu_t measured = make_scheduler<gpu_t>(), plain = make_scheduler<gpu_t>();
  Kokkos::Experimental::set_task_workers(measured, Kokkos::AUTO);
  const auto& choice = measured.queue().m_worker_choice;
  double sampling_seconds = 0, plain_seconds = 0;
  for (std::uint32_t r = 0; r < choice.choice().sampling_length(); ++r) {
    Kokkos::Timer timer;
    dag.run(measured);
    sampling_seconds += timer.seconds();
    timer.reset();
    dag.run(plain);
    plain_seconds += timer.seconds();
  }
  if (!dag.check(state, "the runs that timed the candidates")) return;
  const std::vector<double> m = checked_medians(state, [&] { dag.run(measured); }, [&] { dag.run(plain); },
                                                [&](const char* when) { return dag.check(state, when); });
  if (m.empty()) return;
  const Kokkos::Experimental::CudaTaskWorkers kept = Kokkos::Experimental::task_workers(measured);
  state.counters["measured_ms"] = m[0] * 1e3;
  state.counters["default_ms"] = m[1] * 1e3;
  state.counters["speedup"] = m[1] / m[0];
  state.counters["sampling_cost"] = sampling_seconds / plain_seconds;
  state.counters["kept_blocks"] = kept.blocks_per_sm;
  state.counters["kept_warps"] = kept.warps_per_block;
  for (int way = 0; way < choice.candidate_count(); ++way) {
    const auto& c = choice.candidate(way);
    state.counters["ns_per_task_" + std::to_string(c.blocks_per_sm) + "x" + std::to_string(c.warps_per_block)] =
        choice.choice().time_ns(way);
  }
}

// One DAG on a scheduler whose workers allocate in device memory and on one whose workers share
// the managed pool (the default).
void WorkerMemory(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  compare_with_default(
      state, ShapeDag(state.range(0)),
      [](gpu_t& s) { Kokkos::Experimental::set_task_worker_memory(s, Kokkos::CudaSpace()); }, "device_ms",
      "managed_ms");
}

}  // namespace

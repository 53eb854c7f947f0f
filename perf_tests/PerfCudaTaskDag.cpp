// The task DAG on the GPU against the same program on the host back end, or against one plain
// kernel, measured interleaved in the same run (built only with Kokkos_ENABLE_CUDA; skips,
// naming why, where no GPU is visible).  A wrong answer fails the benchmark
// (perf::fail_result_check), so that it is never mistaken for a skip.
//
//   CudaTaskDag/Fib/<n>  seed 001's naive Fibonacci(n) (each call a task, when_all + respawn:
//                        2 * F(n+1) - 1 tasks and half as many when_all aggregates) on
//                        TaskScheduler<Cuda>  vs  on TaskScheduler<DefaultHostExecutionSpace>,
//                        for n = 20 (21,891 tasks) and n = 30 (2,692,537 tasks).
//                        Counters: gpu_tasks_per_s, host_tasks_per_s, ratio_gpu_to_host.
//
//   CudaTaskDag/Wavefront/<b>  a blocked wavefront over an NT x NT grid of b x b tiles of
//                        doubles (NT = 64, b = 16, 32: 4096 tiles, 4096 TaskTeam tasks and
//                        3969 two-way when_alls per run).  Tile (i,j) waits for (i-1,j) and
//                        (i,j-1) and fills its block from the row above it (the last row of
//                        (i-1,j), or the boundary row) and the column left of it (the last column
//                        of (i,j-1), or the boundary column):
//                          a(r,c) = (top(c) + left(r)) / 4 + (1 / 2b) sum_k top((c+k) mod b) * left((r+k) mod b),
//                        O(b^3) per tile, the team's ranks splitting the b x b elements
//                        (TeamThreadRange over them, row-major: on the GPU a warp's 32 lanes
//                        read 32 consecutive doubles of the row and one of the column).  The
//                        host spawns every tile in wavefront order (host_spawn); the run is the
//                        spawns plus wait().  GPU: TaskScheduler<Cuda>, the matrix in CudaSpace;
//                        host: TaskScheduler<DefaultHostExecutionSpace>, the matrix in HostSpace.
//                        Every block is checked against a serial host reference (to 1e-9) before and after
//                        the timed runs (the interior set to NaN before the first).
//                        Counters: gpu_ms, host_ms (median ms per run),
//                        ratio_gpu_to_host = host_ms / gpu_ms (> 1: the GPU wins),
//                        gpu_spawn_ms, host_spawn_ms (median ms of a run's spawns, before its
//                        wait(); over every run, the untimed ones included: on the GPU, where the
//                        host's spawns touch pool pages the GPU used last, UVM's share of a run),
//                        tiles_per_s_gpu, tiles_per_s_host.
//
//   CudaTaskDag/Cholesky/<b>  the tiled Cholesky factorisation of example/task_cholesky.hpp on a
//                        32 x 32 grid of b x b tiles (b = 16, 32, 64: n = 512 to 2048; 5,984
//                        TaskTeam tasks, POTRF and TRSM at High priority, and 5,890 when_alls per
//                        run), on TaskScheduler<Cuda> with the matrix in CudaSpace, spawned from
//                        the host and spawned on the GPU (one host_spawn of a CholeskyBuilder
//                        task, which task_spawns a step's panel and a task per row of it, which
//                        spawns the row's updates), vs on
//                        TaskScheduler<DefaultHostExecutionSpace> with it in HostSpace, spawned
//                        from the host, interleaved, A copied back in before each run (untimed).
//                        Every factor is checked against the serial tiled algorithm (to 1e-9) after
//                        the timed runs.  Counters: gpu_ms, gpu_built_ms, host_ms (median ms per
//                        run, spawns included), ratio_gpu_to_host = host_ms / gpu_ms and
//                        ratio_built_to_host = host_ms / gpu_built_ms (> 1: the GPU wins),
//                        gflops_gpu, gflops_gpu_built, gflops_host (n^3 / 3 over the median), tasks.
//
//   CudaTaskDag/Adaptive/peaks:<p>/spawn_depth:<d>  the adaptive quadrature of
//                        example/task_adaptive.hpp (a quadtree over the unit square refined where
//                        its estimate is not good enough: work found while it runs), TaskSingle
//                        tasks that spawn their quadrants and respawn behind when_all of them, a
//                        task per refined cell above depth d, each below d refining its cell
//                        serially on its lane; one host_spawn of the root, on
//                        TaskScheduler<Cuda> vs on TaskScheduler<DefaultHostExecutionSpace>,
//                        interleaved.  p = 1 peak to a tolerance of 1e-13 (36,789 cells of about
//                        0.3 us on a host core, 4 to 12 levels deep), p = 8 to 1e-8 (5,941 cells
//                        of about 20 us); d = 24 spawns a task per cell, d = 6 about 1,000 tasks.
//                        Both values are checked against the serial walk's (within the
//                        tolerance: nvcc contracts multiply-adds) after the first and the timed
//                        runs.  Counters: gpu_ms, host_ms (median ms per run), ratio_gpu_to_host =
//                        host_ms / gpu_ms (> 1: the GPU wins), tasks, cells.
//
//   CudaTaskDag/Sparse/grid:<g>/dims:<d>/grain:<c>  the sparse Cholesky factorisation of
//                        example/task_sparse.hpp (the weighted Laplacian of a g x g grid, d = 2, or
//                        g x g x g, d = 3, by nested dissection: a DAG that is the matrix's
//                        elimination tree; 100 x 100: 10,000 columns, 1.6e7 flop, 294 levels, 18% of
//                        the flops on the longest path; 12 x 12 x 12: 1,728 columns, 1.1e7 flop,
//                        329 levels, 41% on the longest path), TaskSingle tasks that spawn their chain's children
//                        and respawn behind when_all of them, a task per subtree of more than c
//                        columns, each column factored on one lane (and again with every chain of
//                        at least 8 columns factored by a TaskTeam task on a whole warp: team_chain);
//                        one host_spawn of the root, on
//                        TaskScheduler<Cuda> with the matrix in CudaSpace, vs the same tree as a
//                        kernel per level of it (level-set scheduling: FactorData::factor_by_levels
//                        on Cuda, a column per thread), vs on TaskScheduler<DefaultHostExecutionSpace>
//                        with it in HostSpace, interleaved.  Every factor is checked against the
//                        serial loop's (to 1e-12 relative: nvcc contracts multiply-adds) after the
//                        first and the timed runs.  Counters: gpu_ms, gpu_team_ms, gpu_levels_ms,
//                        host_ms (median ms per run), ratio_gpu_to_host = host_ms / gpu_ms,
//                        ratio_gpu_to_levels = gpu_levels_ms / gpu_ms, ratio_team_to_host,
//                        ratio_team_to_levels (the same for the team chains; > 1: the GPU's tasks
//                        win), gflops_gpu, gflops_gpu_team, tasks, team_tasks, levels.
//
//   CudaTaskDag/SparseSolve/grid:<g>/dims:<d>/grain:<c>  the solve L L^T x = A 1 with that factor
//                        (FactorData::factor_by_levels'): spawn_solve (the forward substitution up
//                        the tree, then the backward one down it, a column per lane, a task per
//                        subtree of more than c columns) on TaskScheduler<Cuda>, vs
//                        FactorData::solve_by_levels on Cuda (a kernel per level each way: twice
//                        the levels), vs spawn_solve on TaskScheduler<DefaultHostExecutionSpace>,
//                        interleaved, x reset to A 1 before each run (untimed).  Every x is checked
//                        against the serial substitutions' (to 1e-12 relative) after the first and
//                        the timed runs.  Counters: gpu_ms, gpu_levels_ms, host_ms (median ms per
//                        run), ratio_gpu_to_host = host_ms / gpu_ms, ratio_gpu_to_levels =
//                        gpu_levels_ms / gpu_ms (> 1: the GPU's tasks win), tasks (both DAGs'),
//                        levels.
//
//   CudaTaskDag/Placement/<b>  the Wavefront above on two GPU schedulers, interleaved: one whose
//                        wait() first moves the pool blocks the host wrote (its spawns) to the GPU
//                        (the default), one that leaves them in host memory, to fault in when a
//                        worker first touches each task.  Both matrices are checked as above.
//                        Counters: placed_ms, unplaced_ms (median ms per run, spawns included),
//                        speedup = unplaced_ms / placed_ms (> 1: placing wins), placed_spawn_ms,
//                        unplaced_spawn_ms (median ms of a run's spawns).
//
//   CudaTaskDag/Granularity/<work>  N = 2^16 independent TaskSingle leaf tasks, leaf i running
//                        `work` steps of the dependent chain x = x * a + b from x = (i mod 1024) / 1024
//                        and storing x in slot i of a CudaSpace View, spawned inside the GPU by
//                        an 8-ary tree of spawner tasks (task_spawn in device code: 102,985
//                        tasks in all, one host_spawn of the root), vs the same arithmetic in ONE
//                        plain kernel, parallel_for(RangePolicy<Cuda>(0, N)), an index per
//                        thread (the GPU's ideal), for work = 2^4, 2^6, ..., 2^16.  Both Views are
//                        checked slot by slot against the closed form of the chain.
//                        Counters: task_us, kernel_us (median us per run: root spawn + wait(),
//                        launch + fence), efficiency = kernel_us / task_us (1: the tasks cost
//                        nothing over the kernel), work (the steps per leaf, for reading
//                        efficiency against it), leaf_ns = task_us * 1000 / N (wall time per leaf,
//                        all tasks overlapping), tasks (leaves and spawners).  Where a chain is a
//                        few hundred ns the run is the queue's; where it is long the run is the
//                        workers' lanes: a warp runs 32 TaskSingle tasks at once, one per lane, but
//                        the scheduler runs 8 one-warp workers on an SM where the kernel's blocks
//                        fill 64 warps, so efficiency stays below about 1/8 however long a chain.
//
//   CudaTaskDag/Workers/blocks:<b>/warps:<w>/dag:<d>  one DAG on a scheduler whose workers are <b>
//                        blocks of <w> warps per SM (Experimental::set_task_workers; wait()
//                        launches fewer where fewer fit) and on one of the default shape (8 blocks
//                        of one warp), interleaved: d = 0 Fibonacci(25), 1 the Granularity tree at
//                        work 2^10, 2 Wavefront with b = 16, each checked as above.  Shapes 2x4
//                        and 1x8 (the default's 8 warps per SM in blocks that take turns polling),
//                        6x4 and 3x8 (24 warps, about what the worker kernel's registers let an SM
//                        hold).  Counters: shaped_ms, default_ms (median ms per run),
//                        speedup = default_ms / shaped_ms (> 1: the shape wins), workers (warps
//                        launched).
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
// Every benchmark also reports where the GPU workers' time went (GpuWorkerTime below: gpu_busy,
// gpu_batch_us, gpu_tasks_per_batch, gpu_team_per_batch, gpu_steal_share).
//
// Where the GPU's time goes: every task is a few instructions, so a run is bound by the ready
// rings' reservations, the pool's atomics and the tasks' own atomics (references, wait lists),
// plus, per wait(), one kernel launch and the workers' start and termination.  Tasks the host
// spawns go through UVM: each host_spawn into a pool block the GPU used moves its page back to the
// host (Wavefront spawns all 8,000 of its tasks and aggregates from the host; Fib and Granularity
// spawn one root), and wait() moves those blocks back to the GPU before its workers start
// (Placement measures what that saves).
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include "PerfCudaSkip.hpp"
#include "PerfInterleaved.hpp"
#include "PerfResultCheck.hpp"

#include "../unit_tests/TaskFibonacci.hpp"
#include "../example/task_adaptive.hpp"
#include "../example/task_cholesky.hpp"
#include "../example/task_sparse.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using gpu_t = Kokkos::TaskScheduler<Kokkos::Cuda>;
using host_t = Kokkos::TaskScheduler<Kokkos::DefaultHostExecutionSpace>;

// The schedulers every benchmark here uses: a 256 MiB pool, blocks of 64 to 1024 bytes.  A GPU
// scheduler launches the default worker shape on every run, so that a benchmark's few runs measure
// one shape, not the runs that time the candidates (CudaTaskDag/Measured measures those).
template <class Scheduler>
Scheduler make_scheduler() {
  Scheduler sched(typename Scheduler::memory_space(), std::size_t(1) << 28, 64, 1024, 1 << 16);
  if constexpr (std::is_same_v<Scheduler, gpu_t>)
    Kokkos::Experimental::set_task_workers(sched, Kokkos::Experimental::CudaTaskWorkers{});
  return sched;
}

// Where the GPU workers' time went, over every GPU run of a benchmark (the scheduler's per-shard
// counters, into which each worker reports when it stops; TaskScheduler<Cuda>'s queue()).  The wall time of those runs is
// measured here, around each (spawns included).  Counters:
//   gpu_busy             the workers' time running claimed tasks over their time in the runs
//                        (workers x wall time): what is not busy is looking for work and idling
//   gpu_batch_us         mean time of a batch, from the claim to the end of its last task
//   gpu_tasks_per_batch  mean task executions per batch (a warp runs up to 32 at once, one per
//                        lane; TaskTeam tasks one after the other)
//   gpu_team_per_batch   the TaskTeam ones among them (where there are any)
//   gpu_steal_share      executions claimed from another SM's ring, over all of them
class GpuWorkerTime {
  double m_run_seconds = 0;

 public:
  std::function<void()> timed(std::function<void()> run) {
    return [this, run = std::move(run)] {
      Kokkos::Timer timer;
      run();
      m_run_seconds += timer.seconds();
    };
  }
  void report(benchmark::State& state, const gpu_t& gpu) const {
    const auto total = gpu.queue().host_totals();
    const double workers = gpu.queue().m_workers, batches = double(total.batches), runs = double(total.tasks_run);
    if (batches == 0 || workers == 0 || m_run_seconds == 0) return;
    state.counters["gpu_busy"] = double(total.run_ns) * 1e-9 / (workers * m_run_seconds);
    state.counters["gpu_batch_us"] = double(total.run_ns) * 1e-3 / batches;
    state.counters["gpu_tasks_per_batch"] = runs / batches;
    if (total.team_tasks_run != 0) state.counters["gpu_team_per_batch"] = double(total.team_tasks_run) / batches;
    state.counters["gpu_steal_share"] = double(total.steals) / runs;
  }
};

// ---- Fib ----------------------------------------------------------------------------------------
template <class Scheduler>
using Fibonacci = Kokkos::Test::TaskFibonacci<Scheduler>;
using Kokkos::Test::serial_fibonacci;

template <class Scheduler>
void run_fib(const Scheduler& sched, long n) {
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fibonacci<Scheduler>(sched, n));
  if (f.is_null()) throw std::runtime_error("PerfCudaTaskDag: host_spawn failed");
  Kokkos::wait(sched);
  if (f.get() == Fibonacci<Scheduler>::out_of_memory)
    throw std::runtime_error("PerfCudaTaskDag: the pool ran out of memory in Fibonacci(" + std::to_string(n) + ")");
  if (f.get() != serial_fibonacci(n)) throw std::runtime_error("PerfCudaTaskDag: wrong Fibonacci(" + std::to_string(n) + ")");
}

void Fib(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  gpu_t gpu = make_scheduler<gpu_t>();
  host_t host = make_scheduler<host_t>();
  const long n = state.range(0);
  const double tasks = 2.0 * double(serial_fibonacci(n + 1)) - 1;  // the calls of the naive recursion
  GpuWorkerTime worker_time;
  std::vector<double> m;
  for (auto _ : state)
    m = perf::interleaved_medians(3, {worker_time.timed([&] { run_fib(gpu, n); }), [&] { run_fib(host, n); }});
  state.counters["gpu_tasks_per_s"] = tasks / m[0];
  state.counters["host_tasks_per_s"] = tasks / m[1];
  state.counters["ratio_gpu_to_host"] = m[1] / m[0];
  worker_time.report(state, gpu);
}

// The median seconds per run of `a` and of `b`, interleaved, after one untimed run of each;
// `check(when)` (which reports a failure itself) runs after that first run and after the timed
// runs.  Empty where a check failed.
std::vector<double> checked_medians(benchmark::State& state, const std::function<void()>& a,
                                    const std::function<void()>& b, const std::function<bool(const char*)>& check) {
  a();
  b();
  if (!check("first run")) return {};
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians(3, {a, b});
  if (!check("after the timed runs")) return {};
  return m;
}

// ---- Wavefront ----------------------------------------------------------------------------------
// The matrix: (NT*b + 1) x (NT*b + 1) doubles, row-major, row 0 and column 0 the boundary, tile
// (i,j) rows and columns 1 + i*b .. and 1 + j*b ...
constexpr int wavefront_nt = 64;

// Element (r,c) of a tile from the row above it (top[0..b)) and the column left of it
// (left[k * ld], k in [0, b)): the tasks and the serial reference share it.
KOKKOS_INLINE_FUNCTION double tile_element(const double* top, const double* left, long ld, int b, int r, int c) {
  double s = 0;
  for (int k = 0; k < b; ++k) {
    const int kc = c + k < b ? c + k : c + k - b;
    const int kr = r + k < b ? r + k : r + k - b;
    s += top[kc] * left[kr * ld];
  }
  return 0.25 * (top[c] + left[r * ld]) + (0.5 / b) * s;
}

KOKKOS_INLINE_FUNCTION long wavefront_ld(int b) { return long(wavefront_nt) * b + 1; }

template <class Scheduler>
struct WavefrontTile {
  double* a;  // the matrix, wavefront_ld(b)^2 doubles in the scheduler's execution space's memory
  int b, i, j;

  KOKKOS_INLINE_FUNCTION void operator()(typename Scheduler::member_type& member) const {
    const long ld = wavefront_ld(b);
    double* block = a + (1 + long(i) * b) * ld + 1 + long(j) * b;
    const double* top = block - ld;
    const double* left = block - 1;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, b * b), [&](int e) {
      const int r = e / b, c = e % b;
      block[r * ld + c] = tile_element(top, left, ld, b, r, c);
    });
  }
};

// The boundary row and column (values in [0, 1), so every element stays in [0, 1]), the
// interior `interior`.
std::vector<double> wavefront_initial(int b, double interior) {
  const long ld = wavefront_ld(b);
  std::vector<double> a(std::size_t(ld * ld), interior);
  for (long k = 0; k < ld; ++k) {
    a[std::size_t(k)] = double(k % 7) / 7;
    a[std::size_t(k * ld)] = double(k % 5) / 5;
  }
  return a;
}

std::vector<double> wavefront_reference(int b) {
  std::vector<double> a = wavefront_initial(b, 0);
  const long ld = wavefront_ld(b);
  for (int i = 0; i < wavefront_nt; ++i)
    for (int j = 0; j < wavefront_nt; ++j) {
      double* block = a.data() + (1 + long(i) * b) * ld + 1 + long(j) * b;
      for (int r = 0; r < b; ++r)
        for (int c = 0; c < b; ++c) block[r * ld + c] = tile_element(block - ld, block - 1, ld, b, r, c);
    }
  return a;
}

// Spawns every tile from the host in wavefront order and waits; empty, or why it failed.  The
// seconds the spawns took (before wait()) go onto spawn_seconds.
template <class Scheduler>
std::string run_wavefront(const Scheduler& sched, double* a, int b, std::vector<double>& spawn_seconds) {
  using future_t = typename Scheduler::template future_type<void>;
  constexpr int nt = wavefront_nt;
  std::vector<future_t> f(std::size_t(nt) * nt);
  std::string why;
  Kokkos::Timer spawning;
  for (int i = 0; i < nt && why.empty(); ++i)
    for (int j = 0; j < nt && why.empty(); ++j) {
      future_t dep;
      if (i > 0 && j > 0) {
        const future_t pred[2] = {f[std::size_t((i - 1) * nt + j)], f[std::size_t(i * nt + j - 1)]};
        dep = Kokkos::when_all(pred, 2);
        if (dep.is_null()) why = "when_all failed (pool full)";
      } else if (i > 0 || j > 0) {
        dep = i > 0 ? f[std::size_t((i - 1) * nt + j)] : f[std::size_t(j - 1)];
      }
      const WavefrontTile<Scheduler> tile{a, b, i, j};
      auto& t = f[std::size_t(i * nt + j)];
      t = dep.is_null() ? Kokkos::host_spawn(Kokkos::TaskTeam(sched), tile)
                        : Kokkos::host_spawn(Kokkos::TaskTeam(sched, dep), tile);
      if (why.empty() && t.is_null()) why = "host_spawn failed (pool full)";
    }
  spawn_seconds.push_back(spawning.seconds());
  Kokkos::wait(sched);  // what was spawned runs even after a failure
  return why;
}

// Empty, or where `a` (in any memory space) first differs from the serial result `ref`, to 1e-9.
template <class View>
std::string reference_mismatch(const View& a, const std::vector<double>& ref) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  for (std::size_t k = 0; k < ref.size(); ++k)
    if (!(std::abs(h(k) - ref[k]) <= 1e-9))  // nvcc contracts to FMA, the host compiler need not
      return "element " + std::to_string(k) + " is " + std::to_string(h(k)) + ", the serial reference " +
             std::to_string(ref[k]);
  return {};
}

template <class Space>
Kokkos::View<double*, Space> wavefront_matrix(const std::vector<double>& init) {
  Kokkos::View<double*, Space> a("wavefront", init.size());
  Kokkos::deep_copy(a, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(init.data(), init.size()));
  return a;
}

// One side of a wavefront comparison: a scheduler, its matrix (the interior NaN until the first
// run), why its runs failed (empty while none did), and the seconds each run's spawns took.
template <class Scheduler, class Space>
struct WavefrontSide {
  const char* name;
  Scheduler sched;
  Kokkos::View<double*, Space> a;
  std::string why;
  std::vector<double> spawn_seconds;

  WavefrontSide(const char* side_name, const Scheduler& scheduler, int b)
      : name(side_name),
        sched(scheduler),
        a(wavefront_matrix<Space>(wavefront_initial(b, std::numeric_limits<double>::quiet_NaN()))) {}
  void run(int b) {
    if (why.empty()) why = run_wavefront(sched, a.data(), b, spawn_seconds);
  }
  // Whether every run so far went right and the matrix matches the reference; reports it if not.
  bool checked(benchmark::State& state, const char* when, const std::vector<double>& ref) {
    if (why.empty()) why = reference_mismatch(a, ref);
    if (why.empty()) return true;
    perf::fail_result_check(state, std::string(name) + " " + when + ": " + why);
    return false;
  }
};

// The wavefront of b x b tiles on both sides, interleaved and checked (the first side's runs
// timed into `worker_time`): the median seconds per run of each side, then the median seconds
// of each side's spawns; empty where a check failed.
template <class First, class Second>
std::vector<double> compare_wavefronts(benchmark::State& state, int b, First& first, Second& second,
                                       GpuWorkerTime& worker_time) {
  const std::vector<double> ref = wavefront_reference(b);
  auto check = [&](const char* when) { return first.checked(state, when, ref) && second.checked(state, when, ref); };
  std::vector<double> m =
      checked_medians(state, worker_time.timed([&] { first.run(b); }), [&] { second.run(b); }, check);
  if (m.empty()) return m;
  std::vector<std::vector<double>> spawns{first.spawn_seconds, second.spawn_seconds};
  const std::vector<double> spawn_medians = perf::medians_of_samples(spawns);
  m.insert(m.end(), spawn_medians.begin(), spawn_medians.end());
  return m;
}

void Wavefront(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const int b = int(state.range(0));
  WavefrontSide<gpu_t, Kokkos::CudaSpace> gpu("GPU wavefront", make_scheduler<gpu_t>(), b);
  WavefrontSide<host_t, Kokkos::HostSpace> host("host wavefront", make_scheduler<host_t>(), b);
  GpuWorkerTime worker_time;
  const std::vector<double> m = compare_wavefronts(state, b, gpu, host, worker_time);
  if (m.empty()) return;
  const double tiles = double(wavefront_nt) * wavefront_nt;
  state.counters["gpu_ms"] = m[0] * 1e3;
  state.counters["host_ms"] = m[1] * 1e3;
  state.counters["ratio_gpu_to_host"] = m[1] / m[0];
  state.counters["gpu_spawn_ms"] = m[2] * 1e3;
  state.counters["host_spawn_ms"] = m[3] * 1e3;
  state.counters["tiles_per_s_gpu"] = tiles / m[0];
  state.counters["tiles_per_s_host"] = tiles / m[1];
  worker_time.report(state, gpu.sched);
}

// ---- Placement ----------------------------------------------------------------------------------
// The wavefront, spawned from the host, on a scheduler whose wait() moves the pool blocks the
// host wrote to the GPU before its workers start (the default) and on one that leaves them to
// fault in as the workers reach them, interleaved in the same run.
void Placement(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const int b = int(state.range(0));
  WavefrontSide<gpu_t, Kokkos::CudaSpace> placed("placed wavefront", make_scheduler<gpu_t>(), b);
  WavefrontSide<gpu_t, Kokkos::CudaSpace> unplaced("unplaced wavefront", make_scheduler<gpu_t>(), b);
  if (!placed.sched.queue().m_place_host_writes) {
    state.SkipWithError("this GPU cannot take managed memory ahead of use (no concurrent managed access): "
                        "wait() places nothing, so there is nothing to compare");
    return;
  }
  unplaced.sched.queue().m_place_host_writes = false;
  GpuWorkerTime worker_time;
  const std::vector<double> m = compare_wavefronts(state, b, placed, unplaced, worker_time);
  if (m.empty()) return;
  state.counters["placed_ms"] = m[0] * 1e3;
  state.counters["unplaced_ms"] = m[1] * 1e3;
  state.counters["speedup"] = m[1] / m[0];
  state.counters["placed_spawn_ms"] = m[2] * 1e3;
  state.counters["unplaced_spawn_ms"] = m[3] * 1e3;
  worker_time.report(state, placed.sched);
}

// ---- Cholesky -----------------------------------------------------------------------------------
constexpr int cholesky_nt = 32;

// One side of a Cholesky comparison: a scheduler, its tiles (A copied in before each run), whether
// a builder task spawns the DAG (its table of futures in the side's memory) or the host does, and
// why a run failed (empty while none did).
template <class Scheduler, class Space>
struct CholeskySide {
  const char* name;
  Scheduler sched;
  Kokkos::View<double*, Space> tiles;
  Kokkos::View<std::uint64_t*, Space> table;
  std::string why;

  CholeskySide(const char* side_name, const Scheduler& scheduler, std::size_t size, bool built)
      : name(side_name),
        sched(scheduler),
        tiles("cholesky tiles", size),
        table("cholesky builder table", built ? task_cholesky::builder_table_bytes<Scheduler>(cholesky_nt) / 8 + 1
                                              : 0) {}
  perf::SetupAndPass run(const std::vector<double>& a, int b) {
    return {[this, &a] {
              Kokkos::deep_copy(tiles, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                           a.data(), a.size()));
            },
            [this, b] {
              const task_cholesky::Tiles m{tiles.data(), cholesky_nt, b};
              std::string failed;
              if (table.size() == 0) {
                failed = task_cholesky::spawn_cholesky(sched, m);
                Kokkos::wait(sched);
              } else {
                auto builder = Kokkos::host_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High),
                                                  task_cholesky::CholeskyBuilder<Scheduler>{sched, m, table.data()});
                Kokkos::wait(sched);
                failed = builder.is_null() ? "the builder's spawn found the pool full"
                                           : task_cholesky::failure_text(builder.get());
              }
              if (why.empty()) why = failed;
            }};
  }
  // Whether every run went right and the last factor is the reference's; reports it if not.
  bool checked(benchmark::State& state, const std::vector<double>& reference) {
    if (why.empty()) why = reference_mismatch(tiles, reference);
    if (why.empty()) return true;
    perf::fail_result_check(state, std::string(name) + ": " + why);
    return false;
  }
};

void Cholesky(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const int b = int(state.range(0));
  const std::vector<double> a = task_cholesky::spd_matrix(cholesky_nt, b);
  std::vector<double> reference = a;
  task_cholesky::reference_cholesky({reference.data(), cholesky_nt, b});
  const gpu_t gpu_sched = make_scheduler<gpu_t>();
  CholeskySide<gpu_t, Kokkos::CudaSpace> gpu("GPU Cholesky", gpu_sched, a.size(), false);
  CholeskySide<gpu_t, Kokkos::CudaSpace> built("GPU Cholesky built on the GPU", gpu_sched, a.size(), true);
  CholeskySide<host_t, Kokkos::HostSpace> host("host Cholesky", make_scheduler<host_t>(), a.size(), false);
  GpuWorkerTime worker_time;
  std::vector<perf::SetupAndPass> runs{gpu.run(a, b), built.run(a, b), host.run(a, b)};
  for (int side = 0; side < 2; ++side) runs[side].pass = worker_time.timed(runs[side].pass);
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians_after_setup(6, runs);
  if (!gpu.checked(state, reference) || !built.checked(state, reference) || !host.checked(state, reference)) return;
  const double flops = task_cholesky::flop_count(cholesky_nt, b);
  state.counters["gpu_ms"] = m[0] * 1e3;
  state.counters["gpu_built_ms"] = m[1] * 1e3;
  state.counters["host_ms"] = m[2] * 1e3;
  state.counters["ratio_gpu_to_host"] = m[2] / m[0];
  state.counters["ratio_built_to_host"] = m[2] / m[1];
  state.counters["gflops_gpu"] = flops / m[0] * 1e-9;
  state.counters["gflops_gpu_built"] = flops / m[1] * 1e-9;
  state.counters["gflops_host"] = flops / m[2] * 1e-9;
  state.counters["tasks"] = double(task_cholesky::task_count(cholesky_nt));
  worker_time.report(state, gpu_sched);
}

// ---- Adaptive -----------------------------------------------------------------------------------
task_adaptive::Problem adaptive_problem(int peaks) {
  task_adaptive::Problem p;
  p.f = {peaks, 0.01};
  p.tolerance = peaks == 1 ? 1e-13 : 1e-8;
  p.min_depth = 4;
  p.max_depth = 20;
  return p;
}

// Spawns the problem's root on `sched`, waits, and stores the integral in `value` (NaN where the
// root's spawn found the pool full).
template <class Scheduler>
std::function<void()> adaptive_run(const Scheduler& sched, const task_adaptive::Problem& p, int spawn_depth,
                                   double& value) {
  return [&sched, &p, spawn_depth, &value] {
    auto root = task_adaptive::spawn_integral(sched, p, spawn_depth);
    value = std::numeric_limits<double>::quiet_NaN();
    if (root.is_null()) return;
    Kokkos::wait(sched);
    value = root.get();
  };
}

void Adaptive(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const task_adaptive::Problem p = adaptive_problem(int(state.range(0)));
  const int spawn_depth = int(state.range(1));
  const task_adaptive::TreeShape shape = task_adaptive::tree_shape(p, spawn_depth);
  const gpu_t gpu = make_scheduler<gpu_t>();
  const host_t host = make_scheduler<host_t>();
  double gpu_value = 0, host_value = 0;
  GpuWorkerTime worker_time;
  const auto check = [&](const char* when) {
    for (const auto& [name, value] : {std::pair{"GPU", gpu_value}, std::pair{"host", host_value}}) {
      if (std::abs(value - shape.value) <= p.tolerance) continue;
      perf::fail_result_check(state, std::string(name) + " integral " + when + ": " + std::to_string(value) +
                                         ", the serial walk's " + std::to_string(shape.value) +
                                         (std::isnan(value) ? " (the root's spawn found the pool full)" : ""));
      return false;
    }
    return true;
  };
  const std::vector<double> m = checked_medians(
      state, worker_time.timed(adaptive_run(gpu, p, spawn_depth, gpu_value)),
      adaptive_run(host, p, spawn_depth, host_value), check);
  if (m.empty()) return;
  state.counters["gpu_ms"] = m[0] * 1e3;
  state.counters["host_ms"] = m[1] * 1e3;
  state.counters["ratio_gpu_to_host"] = m[1] / m[0];
  state.counters["tasks"] = double(shape.tasks);
  state.counters["cells"] = double(shape.cells());
  worker_time.report(state, gpu);
}

// ---- Sparse -------------------------------------------------------------------------------------
// Whether every entry of a factor (or of a solve's x: `what`) is the serial loop's to 1e-12
// relative; reports the first that is not.
bool sparse_checked(benchmark::State& state, const char* name, const char* what, const char* when,
                    const std::vector<double>& factor, const std::vector<double>& serial) {
  for (std::size_t q = 0; q < serial.size(); ++q) {
    if (q < factor.size() && std::abs(factor[q] - serial[q]) <= 1e-12 * (1 + std::abs(serial[q]))) continue;
    const std::string value = q < factor.size() ? std::to_string(factor[q]) : std::string("missing");
    perf::fail_result_check(state, std::string(name) + " " + what + " " + when + ": entry " + std::to_string(q) +
                                       " is " + value + ", the serial loop's " + std::to_string(serial[q]) +
                                       (q < factor.size() ? "" : " (the root's spawn found the pool full)"));
    return false;
  }
  return true;
}

// Spawns the factorisation's root on `sched` and waits; a full pool leaves the factor unwritten,
// which the check reports.
template <class Scheduler, class MemorySpace>
std::function<void()> sparse_run(const Scheduler& sched, const task_sparse::FactorData<MemorySpace>& data, int grain,
                                 int team_chain, bool& spawned) {
  return [&sched, &data, grain, team_chain, &spawned] {
    auto done = task_sparse::spawn_factor(sched, data.factor(), grain, team_chain);
    spawned = !done.is_null();
    Kokkos::wait(sched);
  };
}

constexpr int sparse_team_chain = 8;

void Sparse(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const int side = int(state.range(0)), grain = int(state.range(2));
  const task_sparse::Problem p = task_sparse::make_problem({side, side, state.range(1) == 3 ? side : 1});
  const std::vector<double> serial = task_sparse::serial_factor(p);
  const task_sparse::FactorData<Kokkos::CudaSpace> gpu_data(p), team_data(p), level_data(p);
  const task_sparse::FactorData<Kokkos::HostSpace> host_data(p);
  const gpu_t gpu = make_scheduler<gpu_t>(), team = make_scheduler<gpu_t>();
  const host_t host = make_scheduler<host_t>();
  bool gpu_spawned = false, team_spawned = false, host_spawned = false;
  GpuWorkerTime worker_time;
  const std::vector<std::function<void()>> runs{
      worker_time.timed(sparse_run(gpu, gpu_data, grain, 0, gpu_spawned)),
      sparse_run(team, team_data, grain, sparse_team_chain, team_spawned),
      [&] { level_data.factor_by_levels(Kokkos::Cuda()); }, sparse_run(host, host_data, grain, 0, host_spawned)};
  const auto check = [&](const char* when) {
    return sparse_checked(state, "GPU task", "factor", when,
                          gpu_spawned ? gpu_data.values() : std::vector<double>{}, serial) &&
           sparse_checked(state, "GPU team-chain task", "factor", when,
                          team_spawned ? team_data.values() : std::vector<double>{}, serial) &&
           sparse_checked(state, "GPU level-set", "factor", when, level_data.values(), serial) &&
           sparse_checked(state, "host task", "factor", when,
                          host_spawned ? host_data.values() : std::vector<double>{}, serial);
  };
  for (const auto& run : runs) run();
  if (!check("first run")) return;
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians(3, runs);
  if (!check("after the timed runs")) return;
  state.counters["gpu_ms"] = m[0] * 1e3;
  state.counters["gpu_team_ms"] = m[1] * 1e3;
  state.counters["gpu_levels_ms"] = m[2] * 1e3;
  state.counters["host_ms"] = m[3] * 1e3;
  state.counters["ratio_gpu_to_host"] = m[3] / m[0];
  state.counters["ratio_gpu_to_levels"] = m[2] / m[0];
  state.counters["ratio_team_to_host"] = m[3] / m[1];
  state.counters["ratio_team_to_levels"] = m[2] / m[1];
  state.counters["gflops_gpu"] = p.symbolic.flops() / m[0] * 1e-9;
  state.counters["gflops_gpu_team"] = p.symbolic.flops() / m[1] * 1e-9;
  state.counters["tasks"] = double(task_sparse::dag_shape(p, grain).tasks);
  state.counters["team_tasks"] = double(task_sparse::dag_shape(p, grain, sparse_team_chain).team_tasks);
  state.counters["levels"] = gpu_data.levels().levels();
  worker_time.report(state, gpu);
}

// The factor of p in MemorySpace, with a vector x there for a solve: b = A 1 goes into x before
// each run (reset, untimed), and x comes back to the host after it (solution).
template <class MemorySpace>
struct SparseSolveData {
  task_sparse::FactorData<MemorySpace> data;
  std::vector<double> b;
  Kokkos::View<double*, MemorySpace> x;

  template <class ExecutionSpace>
  SparseSolveData(const task_sparse::Problem& p, const ExecutionSpace& space)
      : data(p), b(task_sparse::times_ones(p.a)), x("x", b.size()) {
    data.factor_by_levels(space);
  }
  void reset() { Kokkos::deep_copy(x, Kokkos::View<const double*, Kokkos::HostSpace>(b.data(), b.size())); }
  std::vector<double> solution() const {
    std::vector<double> h(b.size());
    Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace>(h.data(), h.size()), x);
    return h;
  }
};

// Spawns the solve's roots on `sched` and waits; a full pool leaves x unsolved, which the check reports.
template <class Scheduler, class MemorySpace>
std::function<void()> sparse_solve_run(const Scheduler& sched, SparseSolveData<MemorySpace>& s, int grain,
                                       bool& spawned) {
  return [&sched, &s, grain, &spawned] {
    auto done = task_sparse::spawn_solve(sched, s.data.factor(), s.x.data(), grain);
    spawned = !done.is_null();
    Kokkos::wait(sched);
  };
}

void SparseSolve(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const int side = int(state.range(0)), grain = int(state.range(2));
  const task_sparse::Problem p = task_sparse::make_problem({side, side, state.range(1) == 3 ? side : 1});
  std::vector<double> l = task_sparse::serial_factor(p), serial = task_sparse::times_ones(p.a);
  task_sparse::serial_solve(task_sparse::host_factor(p.a, p.symbolic, l.data()), serial.data());
  SparseSolveData<Kokkos::CudaSpace> gpu_data(p, Kokkos::Cuda()), level_data(p, Kokkos::Cuda());
  SparseSolveData<Kokkos::HostSpace> host_data(p, Kokkos::DefaultHostExecutionSpace());
  const gpu_t gpu = make_scheduler<gpu_t>();
  const host_t host = make_scheduler<host_t>();
  bool gpu_spawned = false, host_spawned = false;
  GpuWorkerTime worker_time;
  const std::vector<perf::SetupAndPass> runs{
      {[&] { gpu_data.reset(); }, worker_time.timed(sparse_solve_run(gpu, gpu_data, grain, gpu_spawned))},
      {[&] { level_data.reset(); }, [&] { level_data.data.solve_by_levels(Kokkos::Cuda(), level_data.x.data()); }},
      {[&] { host_data.reset(); }, sparse_solve_run(host, host_data, grain, host_spawned)}};
  const auto check = [&](const char* when) {
    return sparse_checked(state, "GPU task", "x", when,
                          gpu_spawned ? gpu_data.solution() : std::vector<double>{}, serial) &&
           sparse_checked(state, "GPU level-set", "x", when, level_data.solution(), serial) &&
           sparse_checked(state, "host task", "x", when,
                          host_spawned ? host_data.solution() : std::vector<double>{}, serial);
  };
  for (const auto& run : runs) {
    run.setup();
    run.pass();
  }
  if (!check("first run")) return;
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians_after_setup(3, runs);
  if (!check("after the timed runs")) return;
  state.counters["gpu_ms"] = m[0] * 1e3;
  state.counters["gpu_levels_ms"] = m[1] * 1e3;
  state.counters["host_ms"] = m[2] * 1e3;
  state.counters["ratio_gpu_to_host"] = m[2] / m[0];
  state.counters["ratio_gpu_to_levels"] = m[1] / m[0];
  state.counters["tasks"] = double(2 * task_sparse::dag_shape(p, grain).tasks);
  state.counters["levels"] = gpu_data.data.levels().levels();
  worker_time.report(state, gpu);
}

// ---- Granularity --------------------------------------------------------------------------------
constexpr int granularity_leaves = 1 << 16;
constexpr int granularity_fanout = 8;
constexpr double chain_a = 0.9999, chain_b = 1e-4;  // x -> 1, staying in [0, 1]

KOKKOS_INLINE_FUNCTION double chain_start(int i) { return double(i % 1024) / 1024; }

KOKKOS_INLINE_FUNCTION double chain(int i, int work) {
  double x = chain_start(i);
  for (int k = 0; k < work; ++k) x = x * chain_a + chain_b;
  return x;
}

// Spawns its range's subranges (granularity_fanout of them) until one index is left, whose
// chain it runs.  A spawn that finds the pool full counts in *failures.
struct ChainTree {
  gpu_t sched;
  double* out;
  int* failures;
  int lo, hi, work;

  KOKKOS_INLINE_FUNCTION void operator()(gpu_t::member_type&) {
    if (hi - lo == 1) {
      out[lo] = chain(lo, work);
      return;
    }
    const int step = (hi - lo + granularity_fanout - 1) / granularity_fanout;
    for (int s = lo; s < hi; s += step) {
      const auto f = Kokkos::task_spawn(Kokkos::TaskSingle(sched),
                                        ChainTree{sched, out, failures, s, s + step < hi ? s + step : hi, work});
      if (f.is_null()) Kokkos::atomic_add(failures, 1);
    }
  }
};

// The tasks a ChainTree over [lo, hi) spawns, itself included.
long chain_tree_tasks(int lo, int hi) {
  if (hi - lo == 1) return 1;
  const int step = (hi - lo + granularity_fanout - 1) / granularity_fanout;
  long n = 1;
  for (int s = lo; s < hi; s += step) n += chain_tree_tasks(s, s + step < hi ? s + step : hi);
  return n;
}

// Spawns the tree over every leaf from the host and waits; empty, or why it failed.
std::string run_chain_tree(const gpu_t& gpu, double* out, int* failures, int work) {
  const auto root = Kokkos::host_spawn(Kokkos::TaskSingle(gpu), ChainTree{gpu, out, failures, 0, granularity_leaves, work});
  Kokkos::wait(gpu);
  return root.is_null() ? "host_spawn of the root failed (pool full)" : "";
}

// Empty, or how many of the tree's task_spawns found the pool full.
std::string spawn_failures(const Kokkos::View<int, Kokkos::CudaSpace>& failures) {
  int failed = 0;
  Kokkos::deep_copy(failed, failures);
  return failed != 0 ? std::to_string(failed) + " task_spawns failed (pool full)" : "";
}

// Empty, or the first slot that differs from the chain's closed form.
std::string chain_mismatch(const Kokkos::View<double*, Kokkos::CudaSpace>& out, int work) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const double an = std::pow(chain_a, work), fixed = chain_b / (1 - chain_a);
  for (int i = 0; i < granularity_leaves; ++i) {
    const double x = an * chain_start(i) + (1 - an) * fixed;
    if (!(std::abs(h(i) - x) <= 1e-9)) return "slot " + std::to_string(i) + " is " + std::to_string(h(i)) + ", not " + std::to_string(x);
  }
  return {};
}

void Granularity(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const int work = int(state.range(0));
  constexpr int n = granularity_leaves;
  gpu_t gpu = make_scheduler<gpu_t>();
  Kokkos::View<double*, Kokkos::CudaSpace> out_task("task chains", n), out_kernel("kernel chains", n);
  Kokkos::View<int, Kokkos::CudaSpace> failures("spawn failures");
  Kokkos::deep_copy(out_task, std::numeric_limits<double>::quiet_NaN());
  Kokkos::deep_copy(out_kernel, std::numeric_limits<double>::quiet_NaN());
  std::string why;
  GpuWorkerTime worker_time;
  auto task_run = worker_time.timed([&] {
    const std::string failed = run_chain_tree(gpu, out_task.data(), failures.data(), work);
    if (why.empty()) why = failed;
  });
  auto kernel_run = [&] {
    const auto out = out_kernel;
    Kokkos::parallel_for("chains", Kokkos::RangePolicy<Kokkos::Cuda>(0, n), KOKKOS_LAMBDA(int i) { out(i) = chain(i, work); });
    Kokkos::fence();
  };
  auto check = [&](const char* when) {
    if (why.empty()) why = spawn_failures(failures);
    if (why.empty() && !(why = chain_mismatch(out_task, work)).empty()) why = "task chains: " + why;
    if (why.empty() && !(why = chain_mismatch(out_kernel, work)).empty()) why = "kernel chains: " + why;
    if (!why.empty()) return perf::fail_result_check(state, std::string(when) + ": " + why), false;
    return true;
  };
  const std::vector<double> m = checked_medians(state, task_run, kernel_run, check);
  if (m.empty()) return;
  state.counters["task_us"] = m[0] * 1e6;
  state.counters["kernel_us"] = m[1] * 1e6;
  state.counters["efficiency"] = m[1] / m[0];
  state.counters["work"] = work;
  state.counters["leaf_ns"] = m[0] * 1e9 / n;
  state.counters["tasks"] = double(chain_tree_tasks(0, n));
  worker_time.report(state, gpu);
}

// ---- Workers and Measured ------------------------------------------------------------------------
// One of three DAGs, run on any GPU scheduler and checked as the benchmarks above check them:
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

// One DAG on a scheduler whose workers are `blocks` blocks of `warps` warps per SM and on one of
// the default shape, interleaved in the same run.
void Workers(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  const Kokkos::Experimental::CudaTaskWorkers shape{int(state.range(0)), int(state.range(1))};
  ShapeDagRuns dag(ShapeDag(state.range(2)));
  gpu_t shaped = make_scheduler<gpu_t>(), plain = make_scheduler<gpu_t>();
  Kokkos::Experimental::set_task_workers(shaped, shape);
  GpuWorkerTime worker_time;
  const std::vector<double> m =
      checked_medians(state, worker_time.timed([&] { dag.run(shaped); }), [&] { dag.run(plain); },
                      [&](const char* when) { return dag.check(state, when); });
  if (m.empty()) return;
  state.counters["shaped_ms"] = m[0] * 1e3;
  state.counters["default_ms"] = m[1] * 1e3;
  state.counters["speedup"] = m[1] / m[0];
  state.counters["workers"] = shaped.queue().m_workers;
  worker_time.report(state, shaped);
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
// the managed pool, interleaved.
void WorkerMemory(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaTaskDag")) return;
  ShapeDagRuns dag(ShapeDag(state.range(0)));
  gpu_t device = make_scheduler<gpu_t>(), managed = make_scheduler<gpu_t>();
  Kokkos::Experimental::set_task_worker_memory(device, Kokkos::CudaSpace());
  GpuWorkerTime worker_time;
  const std::vector<double> m =
      checked_medians(state, worker_time.timed([&] { dag.run(device); }), [&] { dag.run(managed); },
                      [&](const char* when) { return dag.check(state, when); });
  if (m.empty()) return;
  state.counters["device_ms"] = m[0] * 1e3;
  state.counters["managed_ms"] = m[1] * 1e3;
  state.counters["speedup"] = m[1] / m[0];
  worker_time.report(state, device);
}

BENCHMARK(Fib)->Name("CudaTaskDag/Fib")->Arg(20)->Arg(30)->Iterations(1)->UseRealTime();
BENCHMARK(Wavefront)->Name("CudaTaskDag/Wavefront")->Arg(16)->Arg(32)->Iterations(1)->UseRealTime();
BENCHMARK(Cholesky)->Name("CudaTaskDag/Cholesky")->Arg(16)->Arg(32)->Arg(64)->Iterations(1)->UseRealTime();
BENCHMARK(Adaptive)
    ->Name("CudaTaskDag/Adaptive")
    ->ArgNames({"peaks", "spawn_depth"})
    ->Args({1, 24})
    ->Args({8, 24})
    ->Args({8, 6})
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK(Sparse)
    ->Name("CudaTaskDag/Sparse")
    ->ArgNames({"grid", "dims", "grain"})
    ->Args({100, 2, 4})
    ->Args({100, 2, 64})
    ->Args({12, 3, 16})
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK(SparseSolve)
    ->Name("CudaTaskDag/SparseSolve")
    ->ArgNames({"grid", "dims", "grain"})
    ->Args({100, 2, 64})
    ->Args({12, 3, 64})
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK(Placement)->Name("CudaTaskDag/Placement")->Arg(16)->Arg(32)->Iterations(1)->UseRealTime();
BENCHMARK(Granularity)
    ->Name("CudaTaskDag/Granularity")
    ->RangeMultiplier(4)
    ->Range(1 << 4, 1 << 16)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK(Workers)
    ->Name("CudaTaskDag/Workers")
    ->ArgNames({"blocks", "warps", "dag"})
    ->Apply([](benchmark::internal::Benchmark* b) {
      // The same number of warps as the default in other blocks, then as many warps as the
      // worker kernel's registers let an SM hold (about 24).
      const int shapes[][2] = {{2, 4}, {1, 8}, {6, 4}, {3, 8}};
      for (const auto& shape : shapes)
        for (int dag = 0; dag < 3; ++dag) b->Args({shape[0], shape[1], dag});
    })
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK(Measured)->Name("CudaTaskDag/Measured")->ArgName("dag")->DenseRange(0, 2)->Iterations(1)->UseRealTime();
BENCHMARK(WorkerMemory)->Name("CudaTaskDag/WorkerMemory")->ArgName("dag")->DenseRange(0, 2)->Iterations(1)->UseRealTime();

}  // namespace

#pragma once
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
//   CudaTaskDag/Placement/<b>  the Wavefront above on two GPU schedulers, interleaved: one whose
//                        wait() first moves the pool blocks the host wrote (its spawns) to the GPU
//                        (the default), one that leaves them in host memory, to fault in when a
//                        worker first touches each task.  Both matrices are checked as above.
//                        Counters: placed_ms, unplaced_ms (median ms per run, spawns included),
//                        speedup = unplaced_ms / placed_ms (> 1: placing wins), placed_spawn_ms,
//                        unplaced_spawn_ms (median ms of a run's spawns).
//
// Part of PerfCudaTaskDag.cpp (included there, and only there: see its opening comment).
#include "Common.hpp"

#include <limits>
#include <string>
#include <vector>

namespace {

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


template <class Space>
Kokkos::View<double*, Space> wavefront_matrix(const std::vector<double>& init) {
  Kokkos::View<double*, Space> a("wavefront", init.size());
  Kokkos::deep_copy(a,
                    Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(init.data(), init.size()));
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

}  // namespace

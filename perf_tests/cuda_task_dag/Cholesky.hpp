#pragma once
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
// Part of PerfCudaTaskDag.cpp (included there, and only there: see its opening comment).
#include "Common.hpp"
#include "../../example/task_cholesky.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace {

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

}  // namespace

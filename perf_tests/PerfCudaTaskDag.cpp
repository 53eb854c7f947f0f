// The task DAG on the GPU against the same program on the host back end, or against one plain
// kernel, measured interleaved in the same run (built only with Kokkos_ENABLE_CUDA; skips,
// naming why, where no GPU is visible).  A wrong answer fails the benchmark
// (perf::fail_result_check), so that it is never mistaken for a skip.
//
// The benchmarks, each in its header under cuda_task_dag/ with what it measures and its counters:
//   Fib.hpp          CudaTaskDag/Fib             Fibonacci(n), each call a task, GPU vs host
//   Wavefront.hpp    CudaTaskDag/Wavefront       a blocked wavefront of TaskTeam tiles, GPU vs host
//                    CudaTaskDag/Placement       the same, wait() placing the host's writes or not
//   Cholesky.hpp     CudaTaskDag/Cholesky        the tiled Cholesky of TaskTeam tasks, GPU vs host
//   Adaptive.hpp     CudaTaskDag/Adaptive        adaptive quadrature found while it runs, GPU vs host
//   Sparse.hpp       CudaTaskDag/Sparse          the sparse Cholesky, tasks vs a kernel per level vs host
//                    CudaTaskDag/SparseSolve     its triangular solves, the same three ways
//   Granularity.hpp  CudaTaskDag/Granularity     leaf tasks of growing size vs one plain kernel
//   WorkerShape.hpp  CudaTaskDag/Workers         fixed worker shapes vs the default one
//                    CudaTaskDag/Measured        the measured choice of shape vs the default one
//                    CudaTaskDag/WorkerMemory    the workers' own device pool vs the managed one
//
// They are headers of this one translation unit rather than translation units of their own:
// without relocatable device code a GPU scheduler's tasks must be spawned in the translation unit
// whose wait() runs them (docs/tasking.md, "No relocatable device code"), and WorkerShape.hpp runs
// the DAGs of Fib.hpp, Granularity.hpp and Wavefront.hpp.
//
// Every benchmark but Measured (whose scheduler also ran the runs that timed the candidates) also
// reports where the GPU workers' time went (GpuWorkerTime in cuda_task_dag/Common.hpp: gpu_busy,
// gpu_batch_us, gpu_tasks_per_batch, gpu_team_per_batch, gpu_steal_share).
//
// Where the GPU's time goes: every task is a few instructions, so a run is bound by the ready
// rings' reservations, the pool's atomics and the tasks' own atomics (references, wait lists),
// plus, per wait(), one kernel launch and the workers' start and termination.  Tasks the host
// spawns go through UVM: each host_spawn into a pool block the GPU used moves its page back to the
// host (Wavefront spawns all 8,000 of its tasks and aggregates from the host; Fib and Granularity
// spawn one root), and wait() moves those blocks back to the GPU before its workers start
// (Placement measures what that saves).
#include "cuda_task_dag/Adaptive.hpp"
#include "cuda_task_dag/Cholesky.hpp"
#include "cuda_task_dag/Fib.hpp"
#include "cuda_task_dag/Granularity.hpp"
#include "cuda_task_dag/Sparse.hpp"
#include "cuda_task_dag/Wavefront.hpp"
#include "cuda_task_dag/WorkerShape.hpp"

#include <benchmark/benchmark.h>

namespace {

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
BENCHMARK(WorkerMemory)
    ->Name("CudaTaskDag/WorkerMemory")
    ->ArgName("dag")
    ->DenseRange(0, 2)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace

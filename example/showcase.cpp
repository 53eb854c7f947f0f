// kdag in one page: a dynamic task DAG, a static work DAG and fused data-parallel launches,
// each timed beside the obvious alternative.  This is the README's demo.
//
//   showcase [--small] [--kokkos-num-threads=N]
#include <Kokkos_Core.hpp>
#include <Kokkos_DagBuilder.hpp>
#include <Kokkos_Fusion.hpp>
#include <Kokkos_TaskScheduler.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>

#include "black_scholes.hpp"
#include "task_fibonacci.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <utility>
#include <vector>

namespace {

using Space = Kokkos::DefaultHostExecutionSpace;

long fibonacci_by_iteration(long n) {
  long a = 0, b = 1;
  for (long i = 0; i < n; ++i) b = std::exchange(a, b) + b;
  return a;
}

// 1. Task DAG: the seed's Fibonacci, every call a task, respawn instead of blocking.  Its n-2
// child is High: TaskSchedulerMultiple keeps each worker's High/Regular order to itself, so
// the DAG runs depth-first (TaskScheduler orders priorities across all workers, which turns this
// DAG breadth-first; README, "Priorities across workers").
bool task_dag(long n) {
  using Scheduler = Kokkos::TaskSchedulerMultiple<Space>;
  Scheduler sched(Scheduler::memory_space(), 27 * 27 * 64000, 64, 1024, 4096);
  Kokkos::Timer timer;
  auto result = Kokkos::host_spawn(Kokkos::TaskSingle(sched), task_fibonacci::Fibonacci<Scheduler>(sched, n));
  Kokkos::wait(sched);
  const double seconds = timer.seconds();
  // fib(n) spawns fib(n+1)-1... tasks; each internal task also creates one when_all aggregate.
  const double tasks = 3.0 * double(fibonacci_by_iteration(n + 1)) - 2.0;
  std::printf("1. Task DAG   Fibonacci(%ld) = %ld with %.2f M tasks and aggregates: %.3f s, %.1f M/s\n", n,
              result.get(), tasks * 1e-6, seconds, tasks * 1e-6 / seconds);
  return result.get() == fibonacci_by_iteration(n);
}

// One cell of the wavefront: depends on the cell above and the cell to the left.
KOKKOS_INLINE_FUNCTION void wavefront_step(const Kokkos::View<double*, Kokkos::HostSpace>& g, int side, int i, int j) {
  const double up = i > 0 ? g((i - 1) * side + j) : 1.0, left = j > 0 ? g(i * side + j - 1) : 1.0;
  g(i * side + j) = 0.5 * (up + left) + 1e-3 * ((i * 31 + j * 17) % 7);
}

// The median of a few timings (a neighbour's load on a shared machine falls on one or two).
double median_of(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// 2. Work DAG: a side x side wavefront, item (i,j) after (i-1,j) and (i,j-1), each item one
// step of a dynamic-programming recurrence; beside it the level-synchronous schedule (one
// parallel_for per anti-diagonal).  The policy's first launch runs the plan construction made
// (the level-synchronous one, on several workers); its second makes the planner's, which the
// launches after it run: the figure is their median.
bool work_dag(int side, int rounds) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
  const std::int32_t n = side * side;
  Kokkos::Timer timer;
  Kokkos::Experimental::DagBuilder<std::int32_t, Space> dag(n);
  for (int i = 0; i < side; ++i) {
    for (int j = 0; j < side; ++j) {
      if (i + 1 < side) dag.add_edge(i * side + j, (i + 1) * side + j);
      if (j + 1 < side) dag.add_edge(i * side + j, i * side + j + 1);
    }
  }
  const auto graph = dag.build();
  const double build = timer.seconds();
  timer.reset();
  const Policy policy(graph);
  const double construct = timer.seconds();

  Kokkos::View<double*, Kokkos::HostSpace> grid("grid", n), reference("reference", n);
  std::vector<double> dag_s, level_s;
  auto run_dag = [&] {
    timer.reset();
    Kokkos::parallel_for("wavefront", policy, KOKKOS_LAMBDA(std::int32_t k) { wavefront_step(grid, side, k / side, k % side); });
    Kokkos::fence();
    dag_s.push_back(timer.seconds());
  };
  run_dag();
  const double first_s = dag_s.front();
  dag_s.clear();
  run_dag();  // the second launch plans
  dag_s.clear();
  for (int r = 0; r < rounds; ++r) {
    run_dag();
    timer.reset();
    for (int level = 0; level < 2 * side - 1; ++level) {
      const int first = level < side ? 0 : level - side + 1, last = level < side ? level : side - 1;
      Kokkos::parallel_for("level", Kokkos::RangePolicy<Space>(first, last + 1),
                           KOKKOS_LAMBDA(std::int64_t i) { wavefront_step(reference, side, int(i), level - int(i)); });
    }
    Kokkos::fence();
    level_s.push_back(timer.seconds());
  }
  const double dag_ms = 1e3 * median_of(dag_s), level_ms = 1e3 * median_of(level_s);

  std::int64_t differ = 0;
  for (std::int32_t k = 0; k < n; ++k) differ += grid(k) != reference(k);
  std::printf("2. Work DAG   %dx%d wavefront (%d items): edges listed in %.1f ms, policy built in %.1f ms, first launch"
              " %.3f ms; planned launches %.3f ms (%.1f M items/s), level-synchronous %.3f ms -> %.2fx (medians of %d)\n",
              side, side, n, build * 1e3, construct * 1e3, first_s * 1e3, dag_ms, n * 1e-3 / dag_ms, level_ms,
              level_ms / dag_ms, rounds);
  return differ == 0;
}

// 3. Fusion: Black-Scholes as ~30 array-algorithm calls; in a FusionScope they become one launch.
// The three variants take turns, round by round, and each reports its median: a neighbour's load
// on a shared machine then falls on all three alike, and the first rounds, in which the fused
// run times its ways of dispatching (Impl::FusionDispatchChoice), do not set the figure.
bool fused_launches(std::int64_t n, int rounds) {
  namespace KE = Kokkos::Experimental;
  Space space;
  black_scholes::Data fused(n), unfused(n), hand(n);
  std::vector<double> unfused_s, fused_s, hand_s;
  auto time_once = [&space](std::vector<double>& seconds, auto&& program) {
    Kokkos::Timer timer;
    program();
    space.fence();
    seconds.push_back(timer.seconds());
  };
  KE::reset_fusion_statistics();
  for (int r = 0; r < rounds; ++r) {
    time_once(unfused_s, [&] { black_scholes::black_scholes_algorithms(space, unfused); });
    time_once(fused_s, [&] {
      KE::FusionScope scope;
      black_scholes::black_scholes_algorithms(space, fused);
    });
    time_once(hand_s, [&] { black_scholes::black_scholes_single_loop(space, hand); });
  }
  const auto stats = KE::fusion_statistics();
  const double unfused_ms = 1e3 * median_of(unfused_s), fused_ms = 1e3 * median_of(fused_s), hand_ms = 1e3 * median_of(hand_s);

  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < n; ++i) differ += fused.call(i) != unfused.call(i) || fused.put(i) != unfused.put(i);
  std::printf("3. Fusion     Black-Scholes, %lld options: %llu launches -> %llu; medians of %d rounds: unfused"
              " %.3f ms, fused %.3f ms (%.2fx), hand-written loop %.3f ms\n",
              (long long)n, (unsigned long long)(stats.launches_recorded / rounds),
              (unsigned long long)(stats.dispatches / rounds), rounds, unfused_ms, fused_ms, unfused_ms / fused_ms,
              hand_ms);
  return differ == 0;
}

#if defined(KOKKOS_ENABLE_CUDA)
// 4. GPU: a sum of n doubles with parallel_reduce on Kokkos::Cuda.  The task DAG, the work DAG
// and fusion above run on the host spaces; without a visible GPU this part says so and is skipped.
bool on_the_gpu(std::int64_t n) {
  int devices = 0;
  const cudaError_t err = cudaGetDeviceCount(&devices);
  if (err != cudaSuccess || devices == 0) {
    std::printf("4. GPU        skipped: no GPU visible (%s)\n",
                err != cudaSuccess ? cudaGetErrorString(err) : "cudaGetDeviceCount found no CUDA device");
    return true;
  }
  using Policy = Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>;
  Kokkos::View<double*, Kokkos::CudaSpace> x(Kokkos::view_alloc("x", Kokkos::WithoutInitializing), n);
  Kokkos::parallel_for("fill", Policy(0, n), KOKKOS_LAMBDA(std::int64_t i) { x(i) = 0.5 * double(i % 1000); });
  Kokkos::fence();
  double sum = 0;
  Kokkos::Timer timer;
  Kokkos::parallel_reduce("sum", Policy(0, n), KOKKOS_LAMBDA(std::int64_t i, double& s) { s += x(i); }, sum);
  const double seconds = timer.seconds();
  // Every partial sum is a multiple of 0.5 far below 2^53: exact in any order.
  double expected = 0;
  for (std::int64_t i = 0; i < n; ++i) expected += 0.5 * double(i % 1000);
  std::printf("4. GPU        parallel_reduce over %lld doubles on Kokkos::Cuda: %.3f ms (%.1f GB/s)\n", (long long)n,
              seconds * 1e3, 8e-9 * double(n) / seconds);
  return sum == expected;
}
#endif

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  bool small = false;
  for (int i = 1; i < argc; ++i) small = small || std::strcmp(argv[i], "--small") == 0;
  Kokkos::print_configuration(std::cout);
  std::printf("\n");

  bool ok = task_dag(small ? 20 : 27);
  ok = work_dag(small ? 200 : 1000, 5) && ok;
  ok = fused_launches(small ? 20000 : 1000000, small ? 3 : 20) && ok;
#if defined(KOKKOS_ENABLE_CUDA)
  ok = on_the_gpu(small ? 1 << 20 : 1 << 27) && ok;
#endif

  std::printf("\n%s\n", ok ? "All results verified." : "A result did not verify.");
  return ok ? 0 : 1;
}

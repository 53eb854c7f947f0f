// Kokkos::MemoryPool<Kokkos::Cuda> beside CUDA's device heap (device-side malloc/free), measured
// interleaved in the same run (built only with Kokkos_ENABLE_CUDA; every benchmark skips, naming
// why, where no GPU is visible).
//
//   CudaPool/Pairs/<bytes>  every thread of a full device (Cuda::concurrency() threads, one
//                           parallel_for) makes 4 allocate/free pairs of <bytes> bytes in a row,
//                           writing the first 8 bytes of each block; the same kernel shape with
//                           ::malloc/::free from the device heap.  Sizes 32, 256, 1024, 4096.
//   Counters: pool_Gpairs_s, malloc_Gpairs_s (billion pairs per second), x_malloc (pool / heap;
//   the goal is >= 10), failed (pairs that got no block, either allocator: must be 0).
//
// The first H200 run (16 pairs per thread, 5 interleaved runs of each side per repetition) did
// not finish Arg(32)'s five repetitions in 60 s (no timing came back; most likely the device
// heap, which serialises under a full device's ~270,000 threads).  4 pairs and 3 runs are a
// sixth of that work.
//
// The pool holds one block per thread of the largest size at once (every thread may be between
// its allocate and its free), the device heap is raised to the same bytes plus half.  In a warp
// all 32 lanes allocate the same size at once: the pool reserves their blocks with one
// compare-exchange on the hinted superblock (Kokkos_MemoryPool.hpp, reserve_with_peers).
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include "PerfCudaSkip.hpp"
#include "PerfInterleaved.hpp"
#include "PerfResultCheck.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace {

using Pool = Kokkos::MemoryPool<Kokkos::Cuda>;
constexpr int pairs_per_thread = 4;

// Both variants run the same kernel shape: `pairs_per_thread` pairs per thread, the first 8
// bytes of each block written, failures counted.
long pool_pairs(const Kokkos::Cuda& exec, const Pool& pool, std::int64_t threads, std::size_t bytes) {
  long failed = 0;
  Kokkos::parallel_reduce(
      "pool allocate/deallocate pairs", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, threads),
      KOKKOS_LAMBDA(std::int64_t i, long& f) {
        for (int k = 0; k < pairs_per_thread; ++k) {
          void* p = pool.allocate(bytes);
          if (p == nullptr) {
            ++f;
            continue;
          }
          *static_cast<volatile std::int64_t*>(p) = i + k;
          pool.deallocate(p, bytes);
        }
      },
      failed);
  return failed;
}

// CUDA's device heap; the host never runs these (the kernels run on Cuda only).
KOKKOS_INLINE_FUNCTION void* heap_malloc(std::size_t bytes) {
  KOKKOS_IF_ON_DEVICE((return ::malloc(bytes);))
  KOKKOS_IF_ON_HOST(((void)bytes; return nullptr;))
}
KOKKOS_INLINE_FUNCTION void heap_free(void* p) {
  KOKKOS_IF_ON_DEVICE((::free(p);))
  KOKKOS_IF_ON_HOST(((void)p;))
}

long heap_pairs(const Kokkos::Cuda& exec, std::int64_t threads, std::size_t bytes) {
  long failed = 0;
  Kokkos::parallel_reduce(
      "device malloc/free pairs", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, threads),
      KOKKOS_LAMBDA(std::int64_t i, long& f) {
        for (int k = 0; k < pairs_per_thread; ++k) {
          void* p = heap_malloc(bytes);
          if (p == nullptr) {
            ++f;
            continue;
          }
          *static_cast<volatile std::int64_t*>(p) = i + k;
          heap_free(p);
        }
      },
      failed);
  return failed;
}

void Pairs(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaMemoryPool")) return;
  const std::size_t bytes = std::size_t(state.range(0));
  const Kokkos::Cuda exec;
  const std::int64_t threads = exec.concurrency();
  const std::size_t live = std::size_t(threads) * 4096;
  // The heap's size can only change before the first kernel that uses it: set it once, for the
  // largest size.
  static const bool heap_sized = [&] {
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceSetLimit(cudaLimitMallocHeapSize, live + live / 2));
    return true;
  }();
  (void)heap_sized;
  const Pool pool(Kokkos::CudaSpace(), live, 32, 4096, 1 << 20);
  long pool_failed = 0, heap_failed = 0;
  std::vector<double> m;
  for (auto _ : state) {
    m = perf::interleaved_medians(3, {[&] { pool_failed += pool_pairs(exec, pool, threads, bytes); },
                                      [&] { heap_failed += heap_pairs(exec, threads, bytes); }});
  }
  // A pair that got no block skips its write and free: a rate with failures is not a rate of
  // the same work.
  if (pool_failed != 0 || heap_failed != 0) {
    perf::fail_result_check(state, "allocations failed: " + std::to_string(pool_failed) + " from the pool, " +
                                       std::to_string(heap_failed) + " from the device heap");
  }
  const double n = double(threads) * pairs_per_thread;
  state.counters["pool_Gpairs_s"] = n / m[0] * 1e-9;
  state.counters["malloc_Gpairs_s"] = n / m[1] * 1e-9;
  state.counters["x_malloc"] = m[1] / m[0];
  state.counters["failed"] = double(pool_failed + heap_failed);
}

BENCHMARK(Pairs)->Name("CudaPool/Pairs")->Arg(32)->Arg(256)->Arg(1024)->Arg(4096)->Iterations(1)->UseRealTime();

}  // namespace

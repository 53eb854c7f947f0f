// A memory pool in the default execution space's memory, as Kokkos applications use one for
// variable-size scratch inside kernels: every item allocates a buffer whose length depends on
// the item, fills it, reduces it, and frees it.  The pool's usage statistics, read on the host
// after the kernel, show every block returned.  With a GPU build this is device memory and
// device threads; with a host build, host memory and host threads.
#include <Kokkos_Core.hpp>

#include <cstdio>

using execution_space = Kokkos::DefaultExecutionSpace;
using memory_space = execution_space::memory_space;
using pool_type = Kokkos::MemoryPool<execution_space>;

struct SumOfSquares {
  pool_type pool;

  KOKKOS_INLINE_FUNCTION void operator()(const int i, long& total, long& failures) const {
    const int length = 1 + i % 200;
    long* buffer = static_cast<long*>(pool.allocate(length * sizeof(long)));
    if (buffer == nullptr) {
      ++failures;
      return;
    }
    for (int k = 0; k < length; ++k) buffer[k] = long(k) * k;
    long sum = 0;
    for (int k = 0; k < length; ++k) sum += buffer[k];
    total += sum;
    pool.deallocate(buffer, length * sizeof(long));
  }
};

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    const int n = 100000;
    // 16 MiB in superblocks of 64 KiB, blocks of 32 B to 2 KiB.
    pool_type pool(memory_space(), 16 << 20, 32, 2048, 64 << 10);
    long total = 0, failures = 0;
    Kokkos::parallel_reduce("sum of squares", Kokkos::RangePolicy<execution_space>(0, n), SumOfSquares{pool}, total,
                            failures);
    long expected = 0;
    for (int i = 0; i < n; ++i) {
      const long m = 1 + i % 200;  // sum of k^2 for k < m
      expected += (m - 1) * m * (2 * m - 1) / 6;
    }
    Kokkos::fence();
    pool_type::usage_statistics stats;
    pool.get_usage_statistics(stats);
    std::printf("sum %ld (expected %ld), failed allocations %ld, blocks still allocated %zu of pool %zu bytes\n", total,
                expected, failures, stats.consumed_blocks, stats.capacity_bytes);
    if (total != expected || failures != 0 || stats.consumed_blocks != 0 || stats.capacity_bytes < (16u << 20)) {
      status = 1;
    }
  }
  Kokkos::finalize();
  return status;
}

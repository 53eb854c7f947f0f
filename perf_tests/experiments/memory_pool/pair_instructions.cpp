// Instructions per free-and-allocate pair of 32-byte blocks: a HostSpace MemoryPool (the thread's
// magazine) against glibc free and malloc, in the loop of PerfMemoryPool's fixed-size pairs (free
// a random block of a working set of 1024, allocate one).  Count them with callgrind (README.md):
// this VM has no hardware counters, and the instruction count does not drift with its clock.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr std::size_t live_blocks = 1024;
constexpr std::size_t pairs = 1000000;
constexpr std::size_t block_bytes = 32;

template <class Allocate, class Free>
std::uint64_t run_pairs(const Allocate& allocate, const Free& free_block, std::vector<void*>& slot) {
  std::uint64_t r = 0x9E3779B97F4A7C15ull;
  for (std::size_t k = 0; k < pairs; ++k) {
    r ^= r << 13;
    r ^= r >> 7;
    r ^= r << 17;
    const std::size_t i = r & (live_blocks - 1);
    free_block(slot[i]);
    void* p = allocate();
    if (p == nullptr) std::abort();
    std::memcpy(p, &r, sizeof(r));
    slot[i] = p;
  }
  return r;
}

using Pool = Kokkos::MemoryPool<Kokkos::DefaultHostExecutionSpace>;

__attribute__((noinline)) std::uint64_t pool_pairs(const Pool& pool, std::vector<void*>& slot) {
  return run_pairs([&] { return pool.allocate(block_bytes); }, [&](void* p) { pool.deallocate(p, block_bytes); },
                   slot);
}

__attribute__((noinline)) std::uint64_t malloc_pairs(std::vector<void*>& slot) {
  return run_pairs([] { return std::malloc(block_bytes); }, [](void* p) { std::free(p); }, slot);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const Pool pool(Kokkos::HostSpace(), std::size_t(64) << 20, block_bytes, 4096);
  std::vector<void*> pool_slot(live_blocks), malloc_slot(live_blocks);
  for (void*& p : pool_slot) p = pool.allocate(block_bytes);
  for (void*& p : malloc_slot) p = std::malloc(block_bytes);
  const std::uint64_t a = pool_pairs(pool, pool_slot);
  const std::uint64_t b = malloc_pairs(malloc_slot);
  for (void* p : pool_slot) pool.deallocate(p, block_bytes);
  for (void* p : malloc_slot) std::free(p);
  std::printf("%zu pairs each (checksums %s)\n", pairs, a == b ? "equal" : "differ");
  return a == b ? 0 : 1;
}

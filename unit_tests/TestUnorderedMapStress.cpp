// UnorderedMap under contention: random keys with many repeats inserted from every worker at
// once (AtomicAdd counts compared with a sequential count), the failed_insert/rehash loop on a
// map far too small, and erase/reinsert cycles.  Runs clean under ThreadSanitizer (tsan preset).
#include "TestCommon.hpp"

#include <Kokkos_UnorderedMap.hpp>

#include <map>
#include <random>

namespace {

template <class Space>
struct UnorderedMapStress : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(UnorderedMapStress, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(UnorderedMapStress, RandomKeysCountsAndRehash) {
  using Space = TypeParam;
  using Map = Kokkos::UnorderedMap<uint32_t, uint32_t, Space>;
  using ops = Kokkos::UnorderedMapInsertOpTypes<typename Map::value_type_view, uint32_t>;
  std::mt19937 rng(2024);
  for (int round = 0; round < 6; ++round) {
    const int n = 20000;
    const uint32_t distinct = 1 + rng() % 4000;
    Kokkos::View<uint32_t*, Space> keys("keys", n);
    std::map<uint32_t, uint32_t> expect;
    for (int i = 0; i < n; ++i) {
      keys(i) = (rng() % distinct) * 7919u;
      ++expect[keys(i)];
    }
    // Start far too small: the loop must rehash; a retry only re-adds the keys that failed.
    Map map(round % 2 == 0 ? 16 : distinct);
    Kokkos::View<int*, Space> pending("pending", n);
    Kokkos::deep_copy(pending, 1);
    int passes = 0;
    do {
      ASSERT_LT(++passes, 20);
      if (map.failed_insert()) map.rehash(map.capacity() * 2);
      Kokkos::parallel_for(
          "insert", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
            if (!pending(i)) return;
            typename ops::AtomicAdd add;
            if (!map.insert(keys(i), 1u, add).failed()) pending(i) = 0;
          });
      Space().fence();
    } while (map.failed_insert());
    ASSERT_EQ(map.size(), uint32_t(expect.size())) << "round " << round;
    for (const auto& [k, count] : expect) ASSERT_EQ(map.value_at(map.find(k)), count) << "key " << k;

    // Erase the odd multiples and put them back, concurrently with lookups of the others.
    ASSERT_TRUE(map.begin_erase());
    Kokkos::parallel_for(
        "erase", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
          if ((keys(i) / 7919u) % 2 == 1) map.erase(keys(i));
          else if (!map.exists(keys(i))) Kokkos::abort("a key that was not erased vanished");
        });
    ASSERT_TRUE(map.end_erase());
    Kokkos::parallel_for(
        "reinsert", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { map.insert(keys(i), 0u); });
    Space().fence();
    ASSERT_FALSE(map.failed_insert());
    ASSERT_EQ(map.size(), uint32_t(expect.size()));
    for (const auto& [k, count] : expect)
      ASSERT_EQ(map.value_at(map.find(k)), (k / 7919u) % 2 == 1 ? 0u : count) << "key " << k;
  }
}

}  // namespace

// Kokkos::UnorderedMap: concurrent inserts (new, existing, failed), the AtomicAdd insert
// operation, the failed_insert/rehash loop, collisions in one bucket, erase and reinsert, clear,
// the set form, const conversions, mirrors and deep_copy, pod_hash/pod_equal_to.
#include "TestCommon.hpp"

#include <Kokkos_UnorderedMap.hpp>

#include <stdexcept>
#include <type_traits>

namespace {

template <class Space>
struct UnorderedMapTyped : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(UnorderedMapTyped, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// Every key inserted by four items: one success each, the rest existing; the value kept is the
// one of the successful insert (NoOp leaves existing values alone).
TYPED_TEST(UnorderedMapTyped, DuplicateInsertsFromManyThreads) {
  using Space = TypeParam;
  using Map = Kokkos::UnorderedMap<int, int, Space>;
  const int keys = 500, n = 4 * keys;
  Map map(keys);
  Kokkos::View<int[4], Space> tally("tally");  // success, existing, failed, freed_existing
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
        const auto r = map.insert(i % keys, i);
        if (r.success()) Kokkos::atomic_inc(&tally(0));
        if (r.existing()) Kokkos::atomic_inc(&tally(1));
        if (r.failed()) Kokkos::atomic_inc(&tally(2));
        if (r.freed_existing()) Kokkos::atomic_inc(&tally(3));
      });
  Space().fence();
  EXPECT_EQ(tally(0), keys);
  EXPECT_EQ(tally(1), n - keys);
  EXPECT_EQ(tally(2), 0);
  EXPECT_LE(tally(3), tally(1));
  EXPECT_FALSE(map.failed_insert());
  EXPECT_EQ(map.size(), uint32_t(keys));
  for (int k = 0; k < keys; ++k) {
    const uint32_t idx = map.find(k);
    ASSERT_TRUE(map.valid_at(idx)) << k;
    EXPECT_EQ(map.key_at(idx), k);
    EXPECT_EQ(map.value_at(idx) % keys, k);
  }
  EXPECT_FALSE(map.exists(keys));
  EXPECT_EQ(map.find(keys), Map::invalid_index);
}

TYPED_TEST(UnorderedMapTyped, AtomicAddOnExistingKeys) {
  using Space = TypeParam;
  using Map = Kokkos::UnorderedMap<int, long, Space>;
  using ops = Kokkos::UnorderedMapInsertOpTypes<typename Map::value_type_view, uint32_t>;
  const int keys = 37, n = 10000;
  Map map(keys);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
        typename ops::AtomicAdd add;
        map.insert(i % keys, long(i), add);
      });
  Space().fence();
  for (int k = 0; k < keys; ++k) {
    long expect = 0;
    for (int i = k; i < n; i += keys) expect += i;
    EXPECT_EQ(map.value_at(map.find(k)), expect);
  }
}

// The loop of Kokkos' tutorials: insert, and while an insert failed, rehash larger and retry.
TYPED_TEST(UnorderedMapTyped, FullMapFailsThenRehashAndRetry) {
  using Space = TypeParam;
  using Map = Kokkos::UnorderedMap<uint64_t, void, Space>;
  const int n = 3000;
  Map set(10);
  EXPECT_EQ(set.capacity(), 128u);
  Kokkos::View<int, Space> failures("failures");
  auto fill = [&] {
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
          if (set.insert(uint64_t(i) * 2654435761u).failed()) Kokkos::atomic_inc(&failures());
        });
    Space().fence();
  };
  fill();
  EXPECT_TRUE(set.failed_insert());
  EXPECT_GT(failures(), 0);
  EXPECT_EQ(set.size(), set.capacity());  // every slot used
  int rounds = 0;
  while (set.failed_insert()) {
    ASSERT_LT(++rounds, 10);
    set.rehash(set.capacity() * 2);
    EXPECT_FALSE(set.failed_insert());
    fill();
  }
  EXPECT_EQ(set.size(), uint32_t(n));
  for (int i = 0; i < n; ++i) ASSERT_TRUE(set.exists(uint64_t(i) * 2654435761u));
}

// A hash that sends every key to one bucket: the list grows, everything stays findable, and
// erase/end_erase unlink from the middle of the list.
struct OneBucket {
  KOKKOS_INLINE_FUNCTION uint32_t operator()(int) const { return 7u; }
};
TYPED_TEST(UnorderedMapTyped, CollisionsEraseAndReinsert) {
  using Space = TypeParam;
  using Map = Kokkos::UnorderedMap<int, int, Space, OneBucket, Kokkos::pod_equal_to<int>>;
  const int n = 200;
  Map map(n);
  Kokkos::View<uint32_t, Space> longest("longest");
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
        Kokkos::atomic_max(&longest(), map.insert(i, -i).list_position());
      });
  Space().fence();
  EXPECT_EQ(longest(), uint32_t(n - 1));  // the last link walked past every other key
  EXPECT_EQ(map.size(), uint32_t(n));

  EXPECT_FALSE(map.erase(3));  // outside begin_erase/end_erase: refused
  ASSERT_TRUE(map.begin_erase());
  EXPECT_TRUE(map.erasable());
  EXPECT_TRUE(map.insert(n + 1, 0).failed());  // inserts are refused while erasing
  Kokkos::View<int, Space> erased("erased");
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, 2 * n), KOKKOS_LAMBDA(int t) {
        const int k = t % n;
        if (k % 2 == 1 && map.erase(k)) Kokkos::atomic_inc(&erased());
      });
  Space().fence();
  EXPECT_EQ(erased(), n / 2);  // each key erased by exactly one caller
  ASSERT_TRUE(map.end_erase());
  EXPECT_FALSE(map.erasable());
  EXPECT_EQ(map.size(), uint32_t(n / 2));
  for (int k = 0; k < n; ++k) {
    ASSERT_EQ(map.exists(k), k % 2 == 0) << k;
    if (k % 2 == 1) {
      ASSERT_EQ(map.find(k), Map::invalid_index);
    }
  }
  // The freed slots take the keys back.
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int k) {
        const auto r = map.insert(k, k);
        if ((k % 2 == 1) != r.success()) Kokkos::abort("reinsert: wrong result");
      });
  Space().fence();
  EXPECT_EQ(map.size(), uint32_t(n));
  EXPECT_FALSE(map.failed_insert());
  for (int k = 1; k < n; k += 2) ASSERT_EQ(map.value_at(map.find(k)), k);
}

TEST(UnorderedMap, RehashKeepsContentsAndClearEmpties) {
  Kokkos::UnorderedMap<int, double, Kokkos::DefaultHostExecutionSpace> map(100);
  EXPECT_EQ(map.capacity(), 128u);
  EXPECT_EQ((Kokkos::UnorderedMap<int, int, Kokkos::DefaultHostExecutionSpace>(1000).capacity()), 1280u);
  for (int k = 0; k < 100; ++k) EXPECT_TRUE(map.insert(k, k * 0.5).success());
  EXPECT_TRUE(map.insert(5, 99.0).existing());
  EXPECT_EQ(map.value_at(map.find(5)), 2.5);
  map.value_at(map.find(5)) = 7.0;  // values of an insertable map are writable
  ASSERT_TRUE(map.rehash(5000));
  EXPECT_GE(map.capacity(), 5000u);
  EXPECT_EQ(map.size(), 100u);
  for (int k = 0; k < 100; ++k) ASSERT_EQ(map.value_at(map.find(k)), k == 5 ? 7.0 : k * 0.5);
  map.rehash(0);  // never below the current size
  EXPECT_GE(map.capacity(), 100u);
  EXPECT_EQ(map.size(), 100u);
  map.clear();
  EXPECT_EQ(map.size(), 0u);
  EXPECT_FALSE(map.exists(1));
  EXPECT_TRUE(map.insert(1, 1.0).success());
}

TEST(UnorderedMap, SetFormAndConstConversions) {
  using Set = Kokkos::UnorderedMap<int, void, Kokkos::DefaultHostExecutionSpace>;
  static_assert(Set::is_set && Set::is_insertable_map);
  Set set(8);
  EXPECT_TRUE(set.insert(4).success());
  EXPECT_TRUE(set.insert(4).existing());
  EXPECT_TRUE(set.exists(4));

  using Map = Kokkos::UnorderedMap<int, int, Kokkos::DefaultHostExecutionSpace>;
  Map map(8);
  map.insert(1, 10);
  Map::modifiable_map_type modifiable = map;
  Map::const_map_type constant = map;
  static_assert(decltype(modifiable)::is_modifiable_map && !decltype(modifiable)::is_insertable_map);
  static_assert(decltype(constant)::is_const_map);
  modifiable.value_at(modifiable.find(1)) = 11;
  EXPECT_EQ(constant.value_at(constant.find(1)), 11);
  EXPECT_TRUE(constant.insert(2, 2).failed());
  EXPECT_FALSE(constant.rehash(100));
  EXPECT_THROW(Map::const_map_type(16), std::runtime_error);
}

TEST(UnorderedMap, MirrorAndDeepCopy) {
  using Map = Kokkos::UnorderedMap<int, int, Kokkos::DefaultHostExecutionSpace>;
  Map map(50);
  for (int k = 0; k < 50; ++k) map.insert(k, 2 * k);
  auto mirror = Kokkos::create_mirror(map);
  static_assert(std::is_same_v<decltype(mirror), Map::HostMirror>);
  EXPECT_EQ(mirror.capacity(), map.capacity());
  Kokkos::deep_copy(mirror, map);
  EXPECT_EQ(mirror.size(), 50u);
  for (int k = 0; k < 50; ++k) ASSERT_EQ(mirror.value_at(mirror.find(k)), 2 * k);
  // A destination of another capacity is reshaped to the source's.
  Map small(5);
  Kokkos::deep_copy(small, map);
  EXPECT_EQ(small.capacity(), map.capacity());
  EXPECT_TRUE(small.exists(49));
  small.insert(1000, 1);  // the copy is independent
  EXPECT_FALSE(map.exists(1000));
}

struct Point {
  int x, y;
};
TEST(UnorderedMap, PodHashAndEqualOnStructKeys) {
  Kokkos::pod_hash<Point> hash;
  Kokkos::pod_equal_to<Point> eq;
  Kokkos::pod_not_equal_to<Point> ne;
  EXPECT_EQ(hash(Point{1, 2}), hash(Point{1, 2}));
  EXPECT_NE(hash(Point{1, 2}), hash(Point{2, 1}));
  EXPECT_NE(hash(Point{1, 2}, 1u), hash(Point{1, 2}, 2u));
  EXPECT_TRUE(eq(Point{3, 4}, Point{3, 4}));
  EXPECT_TRUE(ne(Point{3, 4}, Point{4, 3}));
  Kokkos::UnorderedMap<Point, int, Kokkos::DefaultHostExecutionSpace> map(4);
  map.insert(Point{1, 1}, 5);
  EXPECT_EQ(map.value_at(map.find(Point{1, 1})), 5);
  EXPECT_FALSE(map.exists(Point{1, 2}));
  Kokkos::UnorderedMapInsertResult none;
  EXPECT_TRUE(none.failed());
  EXPECT_FALSE(none.success());
  EXPECT_EQ(none.index(), Kokkos::UnorderedMapInvalidIndex);
}

}  // namespace

// UnorderedMap::get_histogram(): the length, distance and block-distance histograms over the
// buckets, against a reference built from the public interface (each stored key's slot from
// find(), its bucket from the hasher), for maps filled concurrently on every back end; sets,
// empty maps, erased slots before and after end_erase, clear() and repeated calculate(), and
// the printed form.
#include "TestCommon.hpp"

#include <Kokkos_UnorderedMap.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <sstream>
#include <vector>

namespace {

using Bins = std::array<int, 100>;
struct Reference {
  Bins length{}, distance{}, block_distance{};
};

// Groups the stored keys' slots by bucket, as the map's own hasher places them.
template <class HostMap>
Reference reference_histogram(const HostMap& map) {
  std::map<std::uint32_t, std::vector<std::uint32_t>> buckets;
  typename HostMap::hasher_type hasher;
  for (std::uint32_t slot = 0; slot < map.capacity(); ++slot) {
    if (!map.valid_at(slot)) continue;
    buckets[hasher(map.key_at(slot)) % map.hash_capacity()].push_back(slot);
  }
  Reference ref;
  auto bin = [](std::uint32_t v) { return v < 100 ? v : 99u; };
  for (const auto& [bucket, slots] : buckets) {
    const auto [lo, hi] = std::minmax_element(slots.begin(), slots.end());
    ++ref.length[bin(static_cast<std::uint32_t>(slots.size()))];
    ++ref.distance[bin(*hi - *lo)];
    ++ref.block_distance[bin(*hi / 32 - *lo / 32)];
  }
  return ref;
}

template <class View>
Bins to_bins(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  Bins out{};
  for (int i = 0; i < 100; ++i) out[i] = h(i);
  return out;
}

template <class Histogram>
void expect_matches(const Histogram& h, const Reference& ref) {
  EXPECT_EQ(to_bins(h.m_length), ref.length);
  EXPECT_EQ(to_bins(h.m_distance), ref.distance);
  EXPECT_EQ(to_bins(h.m_block_distance), ref.block_distance);
}

template <class Space>
struct UnorderedMapHistogramTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(UnorderedMapHistogramTest, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(UnorderedMapHistogramTest, MatchesTheReferenceAfterConcurrentInserts) {
  using Space = TypeParam;
  using Map = Kokkos::UnorderedMap<int, double, Space>;
  // A nearly full map (long chains) and a sparse one; keys with a stride so they scatter.
  for (const int n : {3000, 200}) {
    Map map(3500);
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { map.insert(i * 7919 + 3, 1.0 * i); });
    Kokkos::fence();
    ASSERT_EQ(map.size(), static_cast<std::uint32_t>(n));
    typename Map::histogram_type histogram = map.get_histogram();
    histogram.calculate();
    Kokkos::fence();
    auto host = Kokkos::create_mirror(map);
    Kokkos::deep_copy(host, map);
    const Reference ref = reference_histogram(host);
    expect_matches(histogram, ref);
    // Consistency: the length bins count every stored key once.
    const Bins lengths = to_bins(histogram.m_length);
    int stored = 0;
    for (int len = 1; len < 99; ++len) stored += len * lengths[len];
    EXPECT_EQ(lengths[99], 0);
    EXPECT_EQ(stored, n);
    EXPECT_EQ(lengths[0], 0);  // empty buckets are not counted
  }
}

TEST(UnorderedMapHistogram, SetsEmptyMapsClearAndRepeat) {
  using Set = Kokkos::UnorderedMap<long, void, Kokkos::DefaultHostExecutionSpace>;
  Set empty(100);
  auto he = empty.get_histogram();
  he.calculate();
  Kokkos::fence();
  EXPECT_EQ(to_bins(he.m_length), Bins{});
  EXPECT_EQ(to_bins(he.m_block_distance), Bins{});

  Set set(1000);
  for (long k = 0; k < 900; ++k) set.insert(k * k + 11);
  auto h = set.get_histogram();
  h.calculate();
  Kokkos::fence();
  const Reference ref = reference_histogram(set);
  expect_matches(h, ref);
  h.calculate();  // calculate() adds
  Kokkos::fence();
  const Bins twice = to_bins(h.m_length);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(twice[i], 2 * ref.length[i]);
  h.clear();
  EXPECT_EQ(to_bins(h.m_length), Bins{});
  EXPECT_EQ(to_bins(h.m_distance), Bins{});
  EXPECT_EQ(to_bins(h.m_block_distance), Bins{});
}

TEST(UnorderedMapHistogram, ErasedSlotsCountUntilEndErase) {
  using Map = Kokkos::UnorderedMap<int, int, Kokkos::DefaultHostExecutionSpace>;
  Map map(2000);
  for (int k = 0; k < 1000; ++k) map.insert(k, k);
  map.begin_erase();
  for (int k = 0; k < 1000; k += 2) map.erase(k);
  auto during = map.get_histogram();
  during.calculate();
  Kokkos::fence();
  const Bins lengths_during = to_bins(during.m_length);
  int linked = 0;
  for (int len = 1; len < 100; ++len) linked += len * lengths_during[len];
  EXPECT_EQ(linked, 1000);  // erased slots stay linked until end_erase
  map.end_erase();
  auto after = map.get_histogram();
  after.calculate();
  Kokkos::fence();
  expect_matches(after, reference_histogram(map));
  const Bins lengths_after = to_bins(after.m_length);
  int remaining = 0;
  for (int len = 1; len < 100; ++len) remaining += len * lengths_after[len];
  EXPECT_EQ(remaining, 500);
}

TEST(UnorderedMapHistogram, LongChainsLandInTheLastBin) {
  // A hasher that sends every key to one bucket: one chain of 150 slots.
  struct OneBucket {
    KOKKOS_INLINE_FUNCTION std::uint32_t operator()(int) const { return 5; }
  };
  using Map = Kokkos::UnorderedMap<int, void, Kokkos::DefaultHostExecutionSpace, OneBucket>;
  Map map(200);
  for (int k = 0; k < 150; ++k) ASSERT_TRUE(map.insert(k).success());
  auto h = map.get_histogram();
  h.calculate();
  Kokkos::fence();
  Bins want{};
  want[99] = 1;
  EXPECT_EQ(to_bins(h.m_length), want);
  expect_matches(h, reference_histogram(map));
}

TEST(UnorderedMapHistogram, PrintsOneLineOfHundredBins) {
  Kokkos::UnorderedMap<int, int, Kokkos::DefaultHostExecutionSpace> map(300);
  for (int k = 0; k < 250; ++k) map.insert(k, k);
  auto h = map.get_histogram();
  h.calculate();
  Kokkos::fence();
  for (int which = 0; which < 3; ++which) {
    std::ostringstream out;
    if (which == 0) h.print_length(out);
    if (which == 1) h.print_distance(out);
    if (which == 2) h.print_block_distance(out);
    std::string text = out.str();
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n');
    std::replace(text.begin(), text.end(), ',', ' ');
    std::istringstream in(text);
    std::vector<int> values;
    for (int v; in >> v;) values.push_back(v);
    ASSERT_EQ(values.size(), 100u);
    const Bins bins = to_bins(which == 0 ? h.m_length : which == 1 ? h.m_distance : h.m_block_distance);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(values[i], bins[i]);
  }
}

}  // namespace

// Kokkos' non-modifying std algorithms against std:: on random data: searches, counts,
// quantifiers, extremes, comparisons, sortedness, partitions; iterator and View forms, labels,
// contiguous and strided Views, empty and one-element ranges, absent values.
#include "TestCommon.hpp"
#include "StdAlgorithmsTestCommon.hpp"

#include <algorithm>
#include <functional>
#include <string>

// nvcc accepts no KOKKOS_LAMBDA inside a generic lambda: the functors written inside the
// for_each_layout bodies below are plain [=] lambdas (these tests run on the host spaces).
namespace {

using namespace Kokkos::Test::StdAlg;

template <class Space>
struct StdNonModifying : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(StdNonModifying, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// Reductions whose answer is an index: each back end joins partial results its own way.
TYPED_TEST(StdNonModifying, FindCountQuantifiersMatchStd) {
  TypeParam space;
  for_each_layout(20, 1, [&](const auto& v, const std::vector<int>& h) {
    const auto b = KE::begin(v);
    for (int target : {0, 7, 19, 25}) {  // 25: never present
      const auto expect = std::find(h.begin(), h.end(), target) - h.begin();
      EXPECT_EQ(KE::find(space, KE::begin(v), KE::end(v), target) - b, expect);
      EXPECT_EQ(KE::find("label", space, v, target) - b, expect);
      EXPECT_EQ(KE::count(space, KE::cbegin(v), KE::cend(v), target), std::count(h.begin(), h.end(), target));
      EXPECT_EQ(KE::count("label", space, v, target), std::count(h.begin(), h.end(), target));
    }
    for (int k : {1, 3, 50}) {
      const IsMultipleOf p{k};
      EXPECT_EQ(KE::find_if(space, v, p) - b, std::find_if(h.begin(), h.end(), p) - h.begin());
      EXPECT_EQ(KE::find_if_not(space, KE::begin(v), KE::end(v), p) - b,
                std::find_if_not(h.begin(), h.end(), p) - h.begin());
      EXPECT_EQ(KE::count_if(space, v, p), std::count_if(h.begin(), h.end(), p));
      EXPECT_EQ(KE::all_of(space, v, p), std::all_of(h.begin(), h.end(), p));
      EXPECT_EQ(KE::any_of("label", space, KE::cbegin(v), KE::cend(v), p), std::any_of(h.begin(), h.end(), p));
      EXPECT_EQ(KE::none_of(space, v, p), std::none_of(h.begin(), h.end(), p));
    }
  });
}

// Ties: min_element and max_element give the first extreme, minmax_element the first minimum
// and the last maximum, as std does.
TYPED_TEST(StdNonModifying, ExtremesMatchStdIncludingTies) {
  TypeParam space;
  for_each_layout(5, 2, [&](const auto& v, const std::vector<int>& h) {
    const auto b = KE::begin(v);
    EXPECT_EQ(KE::min_element(space, v) - b, std::min_element(h.begin(), h.end()) - h.begin());
    EXPECT_EQ(KE::max_element(space, KE::begin(v), KE::end(v)) - b, std::max_element(h.begin(), h.end()) - h.begin());
    const auto [lo, hi] = KE::minmax_element(space, v);
    const auto [slo, shi] = std::minmax_element(h.begin(), h.end());
    EXPECT_EQ(lo - b, slo - h.begin());
    EXPECT_EQ(hi - b, shi - h.begin());
    // with a comparator: greater turns min into max
    EXPECT_EQ(KE::min_element("label", space, v, Greater{}) - b,
              std::min_element(h.begin(), h.end(), std::greater<>()) - h.begin());
    EXPECT_EQ(KE::max_element(space, v, Greater{}) - b,
              std::max_element(h.begin(), h.end(), std::greater<>()) - h.begin());
    const auto [glo, ghi] = KE::minmax_element(space, KE::cbegin(v), KE::cend(v), Greater{});
    const auto [sglo, sghi] = std::minmax_element(h.begin(), h.end(), std::greater<>());
    EXPECT_EQ(glo - KE::cbegin(v), sglo - h.begin());
    EXPECT_EQ(ghi - KE::cbegin(v), sghi - h.begin());
  });
  // all equal: first for min/max, last for minmax's max
  Contiguous same("same", 100);
  Kokkos::deep_copy(same, 4);
  EXPECT_EQ(KE::min_element(space, same) - KE::begin(same), 0);
  EXPECT_EQ(KE::max_element(space, same) - KE::begin(same), 0);
  EXPECT_EQ(KE::minmax_element(space, same).second - KE::begin(same), 99);
  // empty: end, and a pair of ends
  Contiguous empty("empty", 0);
  EXPECT_EQ(KE::min_element(space, empty), KE::end(empty));
  EXPECT_EQ(KE::minmax_element(space, empty).first, KE::end(empty));
  EXPECT_EQ(KE::minmax_element(space, empty).second, KE::end(empty));
}

TYPED_TEST(StdNonModifying, EqualMismatchLexicographicalCompareMatchStd) {
  TypeParam space;
  for_each_layout(3, 3, [&](const auto& v, const std::vector<int>& h) {
    auto same = contiguous(h);
    EXPECT_TRUE(KE::equal(space, v, same));
    EXPECT_TRUE(KE::equal(space, KE::cbegin(v), KE::cend(v), KE::cbegin(same)));
    EXPECT_FALSE(KE::lexicographical_compare(space, v, same));
    const auto m = KE::mismatch(space, v, same);
    EXPECT_EQ(m.first, KE::end(v));
    EXPECT_EQ(m.second, KE::end(same));
    if (h.empty()) return;
    // one element changed somewhere in the second half
    auto changed = h;
    const std::size_t at = h.size() / 2 + (h.size() - 1) / 3;
    changed[at] += 1;
    auto other = contiguous(changed);
    EXPECT_FALSE(KE::equal("label", space, v, other));
    const auto mm = KE::mismatch(space, KE::begin(v), KE::end(v), KE::begin(other), KE::end(other));
    const auto smm = std::mismatch(h.begin(), h.end(), changed.begin(), changed.end());
    EXPECT_EQ(mm.first - KE::begin(v), smm.first - h.begin());
    EXPECT_EQ(mm.second - KE::begin(other), smm.second - changed.begin());
    EXPECT_EQ(KE::lexicographical_compare(space, v, other),
              std::lexicographical_compare(h.begin(), h.end(), changed.begin(), changed.end()));
    EXPECT_EQ(KE::lexicographical_compare(space, other, v),
              std::lexicographical_compare(changed.begin(), changed.end(), h.begin(), h.end()));
    // a prefix: shorter compares less; mismatch stops at the shorter end; equal says no
    auto prefix = Kokkos::subview(same, Kokkos::pair<std::size_t, std::size_t>(0, h.size() - 1));
    EXPECT_TRUE(KE::lexicographical_compare(space, prefix, v));
    EXPECT_FALSE(KE::lexicographical_compare(space, v, prefix));
    EXPECT_FALSE(KE::equal(space, KE::cbegin(v), KE::cend(v), KE::cbegin(prefix), KE::cend(prefix)));
    EXPECT_EQ(KE::mismatch(space, v, prefix).first - KE::begin(v), static_cast<std::ptrdiff_t>(h.size() - 1));
    // a user predicate: equal modulo 2
    auto parity = [=](int a, int b) { return (a - b) % 2 == 0; };
    EXPECT_EQ(KE::equal(space, v, other, parity),
              std::equal(h.begin(), h.end(), changed.begin(), changed.end(), parity));
  });
}

TEST(StdNonModifyingSearch, SortednessAndPartitionsMatchStd) {
  Kokkos::DefaultHostExecutionSpace space;
  for_each_layout(1000, 4, [&](const auto& v, const std::vector<int>& h) {
    const auto b = KE::begin(v);
    EXPECT_EQ(KE::is_sorted(space, v), std::is_sorted(h.begin(), h.end()));
    EXPECT_EQ(KE::is_sorted_until(space, v) - b, std::is_sorted_until(h.begin(), h.end()) - h.begin());
    EXPECT_EQ(KE::adjacent_find(space, v) - b, std::adjacent_find(h.begin(), h.end()) - h.begin());
    auto sorted = h;
    std::sort(sorted.begin(), sorted.end());
    auto s = contiguous(sorted);
    EXPECT_TRUE(KE::is_sorted(space, KE::cbegin(s), KE::cend(s)));
    EXPECT_EQ(KE::is_sorted_until(space, s), KE::end(s));
    EXPECT_EQ(KE::adjacent_find(space, s) - KE::begin(s), std::adjacent_find(sorted.begin(), sorted.end()) - sorted.begin());
    EXPECT_EQ(KE::is_sorted(space, s, Greater{}), std::is_sorted(sorted.begin(), sorted.end(), std::greater<>()));
    // one element out of place near the end
    if (sorted.size() > 3) {
      sorted[sorted.size() - 2] = -1;
      auto t = contiguous(sorted);
      EXPECT_FALSE(KE::is_sorted("label", space, t));
      EXPECT_EQ(KE::is_sorted_until(space, t) - KE::begin(t),
                std::is_sorted_until(sorted.begin(), sorted.end()) - sorted.begin());
    }
    const IsLess p{500};
    EXPECT_EQ(KE::is_partitioned(space, v, p), std::is_partitioned(h.begin(), h.end(), p));
    auto part = h;
    std::stable_partition(part.begin(), part.end(), p);
    auto pv = contiguous(part);
    EXPECT_TRUE(KE::is_partitioned(space, pv, p));
    EXPECT_EQ(KE::partition_point(space, pv, p) - KE::begin(pv),
              std::partition_point(part.begin(), part.end(), p) - part.begin());
  });
}

TEST(StdNonModifyingSearch, SearchesMatchStd) {
  Kokkos::DefaultHostExecutionSpace space;
  for_each_layout(3, 5, [&](const auto& v, const std::vector<int>& h) {
    const auto b = KE::begin(v);
    for (std::size_t m : {0, 1, 3, 6}) {
      // a needle taken from the middle of the haystack (present), and one that is absent
      std::vector<int> present(h.begin() + h.size() / 2, h.begin() + std::min(h.size(), h.size() / 2 + m));
      std::vector<int> absent(m, 9);
      for (const auto& needle : {present, absent}) {
        auto n = contiguous(needle);
        EXPECT_EQ(KE::search(space, v, n) - b, std::search(h.begin(), h.end(), needle.begin(), needle.end()) - h.begin());
        EXPECT_EQ(KE::find_end(space, KE::begin(v), KE::end(v), KE::begin(n), KE::end(n)) - b,
                  std::find_end(h.begin(), h.end(), needle.begin(), needle.end()) - h.begin());
        EXPECT_EQ(KE::find_first_of(space, v, n) - b,
                  std::find_first_of(h.begin(), h.end(), needle.begin(), needle.end()) - h.begin());
      }
    }
    for (int count : {0, 1, 2, 4, 30}) {
      for (int value : {0, 2, 9}) {
        EXPECT_EQ(KE::search_n(space, v, count, value) - b,
                  std::search_n(h.begin(), h.end(), count, value) - h.begin());
      }
    }
    // a user predicate: "differs by at most one"
    auto close = [=](int a, int c) { return a - c <= 1 && c - a <= 1; };
    std::vector<int> needle = {1, 1};
    auto n = contiguous(needle);
    EXPECT_EQ(KE::search("label", space, v, n, close) - b,
              std::search(h.begin(), h.end(), needle.begin(), needle.end(), close) - h.begin());
    EXPECT_EQ(KE::search_n(space, KE::begin(v), KE::end(v), 3, 0, close) - b,
              std::search_n(h.begin(), h.end(), 3, 0, close) - h.begin());
  });
}

TEST(StdNonModifyingSearch, ReversedRangeThrowsNamingTheAlgorithm) {
  Kokkos::DefaultHostExecutionSpace space;
  Contiguous v("v", 10);
  try {
    KE::find(space, KE::end(v), KE::begin(v), 1);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("Kokkos::Experimental::find"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("precedes"), std::string::npos) << e.what();
  }
}

}  // namespace

// The team-handle overloads of Kokkos' std algorithms: each team works on its own row of a
// matrix (strided rows of a LayoutLeft matrix, contiguous rows of a LayoutRight one), every
// member gets the same answer, and the rows match std:: on the host.
#include "TestCommon.hpp"
#include "StdAlgorithmsTestCommon.hpp"

#include <algorithm>
#include <numeric>

namespace {

using namespace Kokkos::Test::StdAlg;

template <class Space>
struct StdTeam : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(StdTeam, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

enum Result : int {
  sum, dot, count_multiples, found_at, min_at, max_at, minmax_min_at, minmax_max_at, sorted, all_small, copied_if,
  removed_end, unique_end, equal_copy, mismatch_at, shifted_end, searched_at, rotated_end, scanned_end, result_count
};

template <class Space, class Layout>
void team_algorithms_match_std() {
  const int rows = 23, cols = 257;
  using Matrix = Kokkos::View<int**, Layout, Kokkos::HostSpace>;
  Matrix data("data", rows, cols), copied("copied", rows, cols), scanned("scanned", rows, cols),
      exclusive("exclusive", rows, cols), selected("selected", rows, cols), removed("removed", rows, cols),
      uniqued("uniqued", rows, cols), reversed("reversed", rows, cols), differences("differences", rows, cols),
      shifted("shifted", rows, cols), rotated("rotated", rows, cols);
  Kokkos::View<long**, Kokkos::HostSpace> results("results", rows, int(result_count));
  Kokkos::View<int, Kokkos::HostSpace> disagreements("disagreements");
  const auto values = random_values(rows * cols, 10, 77);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) data(r, c) = values[r * cols + c];
  }
  // row 3 sorted, row 5 all equal: the branches a random row never takes
  for (int c = 0; c < cols; ++c) data(3, c) = c / 10, data(5, c) = 4;

  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  // two members where the back end has two threads: the answers cross members
  const int team_size = Space().concurrency() >= 2 ? 2 : 1;
  Kokkos::View<int, Kokkos::HostSpace> seen_team_size("seen_team_size");
  Kokkos::parallel_for(
      Kokkos::TeamPolicy<Space>(Space(), rows, team_size), KOKKOS_LAMBDA(const member_type& team) {
        const int r = team.league_rank();
        if (r == 0 && team.team_rank() == 0) seen_team_size() = team.team_size();
        auto row = Kokkos::subview(data, r, Kokkos::ALL);
        auto record = [&](Result k, long mine) {
          long rank0 = mine;
          team.team_broadcast(rank0, 0);
          if (rank0 != mine) Kokkos::atomic_add(&disagreements(), 1);
          if (team.team_rank() == 0) results(r, k) = mine;
        };
        const auto b = KE::begin(row);
        record(sum, KE::reduce(team, row, 0L));
        record(dot, KE::transform_reduce(team, KE::cbegin(row), KE::cend(row), KE::cbegin(row), 0L));
        record(count_multiples, KE::count_if(team, row, IsMultipleOf{3}));
        record(found_at, KE::find(team, row, 7) - b);
        record(min_at, KE::min_element(team, row) - b);
        record(max_at, KE::max_element(team, KE::begin(row), KE::end(row)) - b);
        const auto mm = KE::minmax_element(team, row);
        record(minmax_min_at, mm.first - b);
        record(minmax_max_at, mm.second - b);
        record(sorted, KE::is_sorted(team, row));
        record(all_small, KE::all_of(team, row, IsLess{9}));

        auto copy_row = Kokkos::subview(copied, r, Kokkos::ALL);
        KE::copy(team, row, copy_row);
        record(equal_copy, KE::equal(team, row, copy_row));
        KE::for_each(team, copy_row, [](int& x) { x += 1; });
        record(mismatch_at, KE::mismatch(team, row, copy_row).first - b);
        auto scan_row = Kokkos::subview(scanned, r, Kokkos::ALL);
        const auto end = KE::inclusive_scan(team, KE::cbegin(row), KE::cend(row), KE::begin(scan_row));
        record(scanned_end, end - KE::begin(scan_row));
        KE::exclusive_scan(team, row, Kokkos::subview(exclusive, r, Kokkos::ALL), 100,
                           [](int x, int y) { return x > y ? x : y; });
        auto sel = Kokkos::subview(selected, r, Kokkos::ALL);
        record(copied_if, KE::copy_if(team, row, sel, IsMultipleOf{2}) - KE::begin(sel));
        auto rem = Kokkos::subview(removed, r, Kokkos::ALL);
        KE::copy(team, row, rem);
        record(removed_end, KE::remove_if(team, rem, IsLess{3}) - KE::begin(rem));
        auto uni = Kokkos::subview(uniqued, r, Kokkos::ALL);
        KE::copy(team, row, uni);
        record(unique_end, KE::unique(team, KE::begin(uni), KE::end(uni)) - KE::begin(uni));
        auto rev = Kokkos::subview(reversed, r, Kokkos::ALL);
        KE::transform(team, row, rev, [](int x) { return 2 * x; });
        KE::reverse(team, rev);
        KE::adjacent_difference(team, row, Kokkos::subview(differences, r, Kokkos::ALL));
        auto sh = Kokkos::subview(shifted, r, Kokkos::ALL);
        KE::fill(team, sh, -1);
        KE::copy(team, KE::cbegin(row), KE::cbegin(row) + 100, KE::begin(sh));
        record(shifted_end, KE::shift_left(team, sh, 30) - KE::begin(sh));
        auto rot = Kokkos::subview(rotated, r, Kokkos::ALL);
        KE::copy(team, row, rot);
        record(rotated_end, KE::rotate(team, rot, 41) - KE::begin(rot));
        const int needle[2] = {3, 4};
        record(searched_at, KE::search(team, KE::begin(row), KE::end(row), needle, needle + 2) - b);
      });
  Kokkos::fence();
  EXPECT_EQ(disagreements(), 0);
  EXPECT_EQ(seen_team_size(), team_size);

  for (int r = 0; r < rows; ++r) {
    std::vector<int> h(cols);
    for (int c = 0; c < cols; ++c) h[c] = data(r, c);
    auto row_of = [&](const Matrix& m) {
      std::vector<int> out(cols);
      for (int c = 0; c < cols; ++c) out[c] = m(r, c);
      return out;
    };
    auto at = [&](Result k) { return results(r, k); };
    EXPECT_EQ(at(sum), std::accumulate(h.begin(), h.end(), 0L)) << r;
    EXPECT_EQ(at(dot), std::inner_product(h.begin(), h.end(), h.begin(), 0L)) << r;
    EXPECT_EQ(at(count_multiples), std::count_if(h.begin(), h.end(), IsMultipleOf{3})) << r;
    EXPECT_EQ(at(found_at), std::find(h.begin(), h.end(), 7) - h.begin()) << r;
    EXPECT_EQ(at(min_at), std::min_element(h.begin(), h.end()) - h.begin()) << r;
    EXPECT_EQ(at(max_at), std::max_element(h.begin(), h.end()) - h.begin()) << r;
    EXPECT_EQ(at(minmax_min_at), std::minmax_element(h.begin(), h.end()).first - h.begin()) << r;
    EXPECT_EQ(at(minmax_max_at), std::minmax_element(h.begin(), h.end()).second - h.begin()) << r;
    EXPECT_EQ(at(sorted), std::is_sorted(h.begin(), h.end())) << r;
    EXPECT_EQ(at(all_small), std::all_of(h.begin(), h.end(), IsLess{9})) << r;
    EXPECT_EQ(at(equal_copy), 1) << r;
    EXPECT_EQ(at(mismatch_at), 0) << r;
    auto plus_one = h;
    for (auto& x : plus_one) x += 1;
    EXPECT_EQ(row_of(copied), plus_one) << r;
    std::vector<int> expect(cols);
    std::inclusive_scan(h.begin(), h.end(), expect.begin());
    EXPECT_EQ(at(scanned_end), cols) << r;
    EXPECT_EQ(row_of(scanned), expect) << r;
    std::exclusive_scan(h.begin(), h.end(), expect.begin(), 100, [](int x, int y) { return x > y ? x : y; });
    EXPECT_EQ(row_of(exclusive), expect) << r;
    const auto sel_end = std::copy_if(h.begin(), h.end(), expect.begin(), IsMultipleOf{2}) - expect.begin();
    EXPECT_EQ(at(copied_if), sel_end) << r;
    const auto selected_row = row_of(selected);
    EXPECT_TRUE(std::equal(expect.begin(), expect.begin() + sel_end, selected_row.begin())) << r;
    auto rem = h;
    const auto rem_end = std::remove_if(rem.begin(), rem.end(), IsLess{3}) - rem.begin();
    EXPECT_EQ(at(removed_end), rem_end) << r;
    const auto removed_row = row_of(removed);
    EXPECT_TRUE(std::equal(rem.begin(), rem.begin() + rem_end, removed_row.begin())) << r;
    auto uni = h;
    const auto uni_end = std::unique(uni.begin(), uni.end()) - uni.begin();
    EXPECT_EQ(at(unique_end), uni_end) << r;
    const auto uniqued_row = row_of(uniqued);
    EXPECT_TRUE(std::equal(uni.begin(), uni.begin() + uni_end, uniqued_row.begin())) << r;
    auto rev = h;
    for (auto& x : rev) x *= 2;
    std::reverse(rev.begin(), rev.end());
    EXPECT_EQ(row_of(reversed), rev) << r;
    std::adjacent_difference(h.begin(), h.end(), expect.begin());
    EXPECT_EQ(row_of(differences), expect) << r;
    std::vector<int> sh(cols, -1);
    std::copy(h.begin(), h.begin() + 100, sh.begin());
    const auto sh_end = std::shift_left(sh.begin(), sh.end(), 30) - sh.begin();
    EXPECT_EQ(at(shifted_end), sh_end) << r;
    const auto shifted_row = row_of(shifted);
    EXPECT_TRUE(std::equal(sh.begin(), sh.begin() + sh_end, shifted_row.begin())) << r;
    auto rot = h;
    EXPECT_EQ(at(rotated_end), std::rotate(rot.begin(), rot.begin() + 41, rot.end()) - rot.begin()) << r;
    EXPECT_EQ(row_of(rotated), rot) << r;
    const int needle[2] = {3, 4};
    EXPECT_EQ(at(searched_at), std::search(h.begin(), h.end(), needle, needle + 2) - h.begin()) << r;
  }
}

TYPED_TEST(StdTeam, StridedRowsMatchStd) { team_algorithms_match_std<TypeParam, Kokkos::LayoutLeft>(); }

TEST(StdTeamContiguous, ContiguousRowsMatchStd) {
  team_algorithms_match_std<Kokkos::DefaultHostExecutionSpace, Kokkos::LayoutRight>();
}

}  // namespace

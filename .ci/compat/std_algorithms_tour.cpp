// A tour of Kokkos' std algorithms in the style of Kokkos' tutorials: fill, transform, reduce,
// inclusive_scan, count_if, minmax_element, is_sorted, copy_if, with Views and iterators, and
// a team-level scan.  Checks every result on the host; returns non-zero when one is wrong.
#include <Kokkos_Core.hpp>
#include <Kokkos_StdAlgorithms.hpp>

#include <cstdio>

namespace KE = Kokkos::Experimental;

struct IsEven {
  KOKKOS_INLINE_FUNCTION bool operator()(int x) const { return x % 2 == 0; }
};

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using exec_space = Kokkos::DefaultExecutionSpace;
  exec_space space;
  int failures = 0;
  auto check = [&](bool ok, const char* what) {
    if (!ok) {
      std::printf("FAILED: %s\n", what);
      ++failures;
    }
  };

  const int n = 1000;
  Kokkos::View<int*> a("a", n), b("b", n), evens("evens", n);

  KE::fill(space, a, 3);
  // b(i) = a(i) * (i % 7): write the index pattern first, then combine
  Kokkos::parallel_for("pattern", n, KOKKOS_LAMBDA(int i) { b(i) = i % 7; });
  KE::transform(space, KE::cbegin(a), KE::cend(a), KE::cbegin(b), KE::begin(b),
                KOKKOS_LAMBDA(int x, int y) { return x * y; });
  space.fence();

  const long total = KE::reduce(space, b, 0L);
  long expected_total = 0;
  for (int i = 0; i < n; ++i) expected_total += 3 * (i % 7);
  check(total == expected_total, "reduce");

  const auto n_even = KE::count_if(space, b, IsEven{});
  long expected_even = 0;
  for (int i = 0; i < n; ++i) expected_even += (3 * (i % 7)) % 2 == 0;
  check(n_even == expected_even, "count_if");

  const auto [lo, hi] = KE::minmax_element(space, b);
  int last_six = 0;
  for (int i = 0; i < n; ++i) last_six = i % 7 == 6 ? i : last_six;
  check(lo - KE::begin(b) == 0, "minmax_element (min: the first 0)");
  check(hi - KE::begin(b) == last_six, "minmax_element (max: the last 18)");

  check(!KE::is_sorted(space, b), "is_sorted on a saw tooth");
  Kokkos::View<int*> prefix("prefix", n);
  const auto scan_end = KE::inclusive_scan("running sum", space, b, prefix);
  check(scan_end == KE::end(prefix), "inclusive_scan returns the end of the output");
  check(KE::is_sorted(space, prefix), "a running sum of non-negatives is sorted");
  auto prefix_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), prefix);
  check(prefix_host(n - 1) == expected_total, "inclusive_scan total");

  const auto evens_end = KE::copy_if(space, KE::cbegin(b), KE::cend(b), KE::begin(evens), IsEven{});
  check(KE::distance(KE::begin(evens), evens_end) == expected_even, "copy_if count");
  check(KE::all_of(space, KE::cbegin(evens), KE::cbegin(evens) + (evens_end - KE::begin(evens)), IsEven{}),
        "copy_if keeps only even values");

  // one running sum per row, one team per row
  const int rows = 8, cols = 100;
  Kokkos::View<int**> m("m", rows, cols);
  Kokkos::parallel_for("rows", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {rows, cols}),
                       KOKKOS_LAMBDA(int r, int c) { m(r, c) = r + 1; });
  using member_type = Kokkos::TeamPolicy<exec_space>::member_type;
  Kokkos::parallel_for(
      "row scans", Kokkos::TeamPolicy<exec_space>(space, rows, Kokkos::AUTO), KOKKOS_LAMBDA(const member_type& team) {
        auto row = Kokkos::subview(m, team.league_rank(), Kokkos::ALL);
        KE::inclusive_scan(team, row, row);
      });
  auto m_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
  bool rows_ok = true;
  for (int r = 0; r < rows; ++r) rows_ok = rows_ok && m_host(r, cols - 1) == (r + 1) * cols;
  check(rows_ok, "team inclusive_scan");

  std::printf("std algorithms tour: %s\n", failures == 0 ? "all results correct" : "WRONG RESULTS");
  return failures == 0 ? 0 : 1;
}

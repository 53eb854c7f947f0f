// A Kokkos tutorial-style program using three containers:
//  - a DynRankView whose rank comes from the command line (default: ranks 1 to 4 in turn),
//  - an OffsetView holding a 1-D field with ghost cells over [-1, n] and a Laplacian stencil,
//  - an ErrorReporter collecting the cells whose stencil result is out of tolerance.
// It checks every result and returns non-zero when one is wrong.
#include <Kokkos_Core.hpp>
#include <Kokkos_DynRankView.hpp>
#include <Kokkos_ErrorReporter.hpp>
#include <Kokkos_OffsetView.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

namespace {

// Fills a DynRankView of the given rank (extent 3 in every rank) with its flat index through
// a rank-independent kernel, and checks the sum and one element.
bool dyn_rank_fill(unsigned rank) {
  const std::size_t e = 3;
  Kokkos::DynRankView<double> field;
  switch (rank) {
    case 1: field = Kokkos::DynRankView<double>("field", e); break;
    case 2: field = Kokkos::DynRankView<double>("field", e, e); break;
    case 3: field = Kokkos::DynRankView<double>("field", e, e, e); break;
    case 4: field = Kokkos::DynRankView<double>("field", e, e, e, e); break;
    default: std::printf("rank %u: this example takes ranks 1 to 4\n", rank); return false;
  }
  if (field.rank() != rank) return false;
  const int n = static_cast<int>(field.size());
  Kokkos::parallel_for(
      "fill", n, KOKKOS_LAMBDA(int flat) {
        int idx[4] = {0, 0, 0, 0};
        int rest = flat;
        for (int r = int(rank) - 1; r >= 0; --r) {
          idx[r] = rest % 3;
          rest /= 3;
        }
        field.access(idx[0], idx[1], idx[2], idx[3]) = flat;
      });
  double sum = 0;
  Kokkos::parallel_reduce(
      "sum", n, KOKKOS_LAMBDA(int i, double& s) { s += field.data()[i]; }, sum);
  // With LayoutRight the last index is fastest, so the flat index is the memory order.
  double last = 0;
  auto last_elem = Kokkos::subdynrankview(field, 2, 2, 2, 2);
  Kokkos::deep_copy(last, last_elem);
  std::printf("DynRankView rank %u: %d elements, sum %.0f, last %.0f\n", rank, n, sum, last);
  return sum == double(n) * (n - 1) / 2 && last == n - 1;
}

struct BadCell {
  int cell;
  double value;
};

bool stencil_with_error_reporter() {
  const int n = 64;
  const int bumped = 20;
  Kokkos::Experimental::OffsetView<double*> u("u", {-1, n});  // ghost cells at -1 and n
  Kokkos::Experimental::OffsetView<double*> lap("lap", {0, n - 1});
  Kokkos::parallel_for(
      "init", Kokkos::RangePolicy<>(u.begin(0), u.end(0)), KOKKOS_LAMBDA(int64_t i) {
        u(i) = double(i) * double(i) + (i == bumped ? 0.5 : 0.0);
      });
  Kokkos::Experimental::ErrorReporter<BadCell> errors("out of tolerance", 8);
  Kokkos::parallel_for(
      "laplacian", Kokkos::RangePolicy<>(lap.begin(0), lap.end(0)), KOKKOS_LAMBDA(int64_t i) {
        lap(i) = u(i - 1) - 2.0 * u(i) + u(i + 1);
        const double deviation = lap(i) - 2.0;
        if (deviation > 1e-12 || deviation < -1e-12) errors.add_report(int(i), BadCell{int(i), lap(i)});
      });
  Kokkos::fence();
  auto [ids, reports] = errors.get_reports();
  std::set<int> cells(ids.begin(), ids.end());
  std::printf("stencil over [%lld, %lld): %d cells out of tolerance:", (long long)u.begin(0), (long long)u.end(0),
              errors.num_report_attempts());
  for (const auto& r : reports) std::printf(" %d (%.2f)", r.cell, r.value);
  std::printf("\n");
  bool ok = errors.num_report_attempts() == 3 && errors.num_reports() == 3 && !errors.full();
  ok = ok && cells == std::set<int>{bumped - 1, bumped, bumped + 1};
  for (const auto& r : reports) ok = ok && std::fabs(r.value - (r.cell == bumped ? 1.0 : 2.5)) < 1e-12;
  // The 0-based View behind the OffsetView sees the same data.
  auto plain = lap.view();
  ok = ok && plain(0) == 2.0 && plain.extent(0) == std::size_t(n);
  return ok;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  std::vector<unsigned> ranks;
  for (int a = 1; a < argc; ++a)
    if (std::strncmp(argv[a], "--kokkos", 8) != 0) ranks.push_back(static_cast<unsigned>(std::atoi(argv[a])));
  if (ranks.empty()) ranks = {1, 2, 3, 4};

  bool ok = true;
  for (unsigned rank : ranks) ok = dyn_rank_fill(rank) && ok;
  ok = stencil_with_error_reporter() && ok;
  std::printf("%s\n", ok ? "containers: all results correct" : "containers: WRONG RESULTS");
  return ok ? 0 : 1;
}

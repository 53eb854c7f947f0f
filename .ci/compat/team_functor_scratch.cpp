// A team kernel whose functor declares its own scratch (team_shmem_size): each team stages a row
// of a matrix in team scratch and computes the row's sum and maximum from it.
#include <Kokkos_Core.hpp>
#include <cstdio>

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Policy = Kokkos::TeamPolicy<ExecSpace>;
using ScratchRow = Kokkos::View<double*, ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

struct RowStats {
  Kokkos::View<double**> matrix;
  Kokkos::View<double*> sums, maxima;

  size_t team_shmem_size(int /*team_size*/) const { return ScratchRow::shmem_size(matrix.extent(1)); }

  KOKKOS_INLINE_FUNCTION void operator()(const Policy::member_type& team) const {
    const int row = team.league_rank();
    const int m = static_cast<int>(matrix.extent(1));
    ScratchRow staged(team.team_shmem(), m);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m), [&](int j) { staged(j) = matrix(row, j); });
    team.team_barrier();
    double sum = 0, max = 0;
    Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, m), [&](int j, double& s) { s += staged(j); }, sum);
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, m), [&](int j, double& v) { v = staged(j) > v ? staged(j) : v; },
        Kokkos::Max<double>(max));
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      sums(row) = sum;
      maxima(row) = max;
    });
  }
};

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 64, m = 500;
  RowStats stats{Kokkos::View<double**>("matrix", n, m), Kokkos::View<double*>("sums", n),
                 Kokkos::View<double*>("maxima", n)};
  auto matrix = stats.matrix;
  Kokkos::parallel_for("fill", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, m}),
                       KOKKOS_LAMBDA(int i, int j) { matrix(i, j) = i + j % 10; });
  Kokkos::parallel_for("row stats", Policy(n, Kokkos::AUTO), stats);
  Kokkos::fence();

  auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stats.sums);
  auto maxima = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stats.maxima);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    const double expected_sum = double(i) * m + 45.0 * (m / 10);
    ok = ok && sums(i) == expected_sum && maxima(i) == i + 9.0;
  }
  std::printf("team_functor_scratch: %d rows, %s\n", n, ok ? "correct" : "WRONG");
  return ok ? 0 : 1;
}

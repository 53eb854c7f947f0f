// MDRangePolicy launches in the fusion layer: they fuse by their first dimension (iteration
// (i0, ...) touches slice i0 of each declared View), with each other and with RangePolicy
// launches over the same rows; fused and unfused agree bit for bit.
#include "FusionTestFixture.hpp"
#include "TestCommon.hpp"

#include <Kokkos_Fusion.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using Kokkos::Impl::FusionConstraint;

template <class Space>
struct FusionMDRange : Kokkos::Test::FusionFixture {};
TYPED_TEST_SUITE(FusionMDRange, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

using Grid = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
using Rows = Kokkos::pair<std::int64_t, std::int64_t>;

template <class Space>
using MD2 = Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>;

bool bitwise_equal(const Grid& a, const Grid& b) {
  return a.span() == b.span() && std::memcmp(a.data(), b.data(), a.span() * sizeof(double)) == 0;
}

Grid filled(const char* label, std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  Grid g(label, rows, cols);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) g(i, j) = value(rng);
  }
  return g;
}

TYPED_TEST(FusionMDRange, PointwiseLaunchesFuseWithEachOtherAndWithRowLaunches) {
  const std::int64_t n = 301, m = 17;
  Grid a("a", n, m), b("b", n, m), c("c", n, m), d("d", n, m);
  {
    KE::FusionScope scope;
    Kokkos::parallel_for("a", KE::with_accesses(MD2<TypeParam>({0, 0}, {n, m}), KE::writes(a)),
                         KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { a(i, j) = double(i * m + j); });
    Kokkos::parallel_for("b", KE::with_accesses(MD2<TypeParam>({0, 0}, {n, m}, {7, 3}), KE::reads(a), KE::writes(b)),
                         KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { b(i, j) = 2.0 * a(i, j) + double(j); });
    Kokkos::parallel_for("c", KE::with_accesses(MD2<TypeParam>({0, 0}, {n, m}), KE::reads(a), KE::reads(b), KE::writes(c)),
                         KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { c(i, j) = a(i, j) + b(i, j); });
    // A RangePolicy launch over the same rows joins the run.
    Kokkos::parallel_for("d", KE::with_accesses(Kokkos::RangePolicy<TypeParam>(0, n), KE::reads(c), KE::writes(d)),
                         KOKKOS_LAMBDA(std::int64_t i) {
                           for (std::int64_t j = 0; j < m; ++j) d(i, j) = c(i, j) - 1.0;
                         });
    EXPECT_EQ(KE::fusion_pending_launches(), 4u);
  }
  const auto s = KE::fusion_statistics();
  EXPECT_EQ(s.fused_launches, 1u);
  EXPECT_EQ(s.launches_fused, 4u);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < m; ++j) {
      const double x = double(i * m + j), y = 2.0 * x + double(j);
      ASSERT_EQ(d(i, j), x + y - 1.0) << i << "," << j;
    }
  }
}

// out = x + y over box (a named function: nvcc refuses a KOKKOS_LAMBDA inside a generic lambda).
template <class Box, class X, class Y>
void add_into(const Box& box, const X& x, const Y& y, const Grid& out) {
  Kokkos::parallel_for("add", KE::with_accesses(box, KE::reads(x), KE::reads(y), KE::writes(out)),
                       KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { out(i, j) = x(i, j) + y(i, j); });
}

// Seed 003 Figure 1a with MDRange launches: each sweep is one fused run (the copy into the
// grid trails the others by a row), consecutive sweeps are split by the true dependence.
template <class Space>
void five_point_sweeps(const Grid& grid, const Grid& avg, const Grid& work, int sweeps) {
  const std::int64_t n = static_cast<std::int64_t>(avg.extent(0)), m = static_cast<std::int64_t>(avg.extent(1));
  const auto center = Kokkos::subview(grid, Rows(1, n + 1), Rows(1, m + 1));
  const auto north = Kokkos::subview(grid, Rows(0, n), Rows(1, m + 1));
  const auto south = Kokkos::subview(grid, Rows(2, n + 2), Rows(1, m + 1));
  const auto east = Kokkos::subview(grid, Rows(1, n + 1), Rows(2, m + 2));
  const auto west = Kokkos::subview(grid, Rows(1, n + 1), Rows(0, m));
  const MD2<Space> box({0, 0}, {n, m});
  auto add = [&](const auto& x, const auto& y, const Grid& out) { add_into(box, x, y, out); };
  for (int it = 0; it < sweeps; ++it) {
    add(center, north, avg);
    add(avg, east, avg);
    add(avg, west, avg);
    add(avg, south, avg);
    Kokkos::parallel_for("mult", KE::with_accesses(box, KE::reads(avg), KE::writes(work)),
                         KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { work(i, j) = 0.2 * avg(i, j); });
    Kokkos::parallel_for("copy", KE::with_accesses(box, KE::reads(work), KE::writes(center)),
                         KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { center(i, j) = work(i, j); });
  }
}

TYPED_TEST(FusionMDRange, FivePointStencilSweepIsOneSkewedRun) {
  const std::int64_t n = 203, m = 29;
  const Grid fused_grid = filled("grid", n + 2, m + 2, 11), plain_grid = filled("grid", n + 2, m + 2, 11);
  Grid avg("avg", n, m), work("work", n, m);
  {
    KE::FusionScope scope;
    five_point_sweeps<TypeParam>(fused_grid, avg, work, 3);
  }
  const auto s = KE::fusion_statistics();
  EXPECT_EQ(s.launches_recorded, 18u);
  EXPECT_EQ(s.fused_launches, 3u);
  EXPECT_EQ(s.min_fused_length, 6u);
  EXPECT_EQ(s.skewed_runs, 3u);
  EXPECT_EQ(s.barrier_count(FusionConstraint::true_dependence), 2u);
  KE::set_fusion_enabled(false);
  five_point_sweeps<TypeParam>(plain_grid, avg, work, 3);
  KE::set_fusion_enabled(true);
  EXPECT_TRUE(bitwise_equal(fused_grid, plain_grid));
}

struct Rank3Tag {};
template <class Space>
struct Rank3Scale {
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> x, y;
  KOKKOS_FUNCTION void operator()(Rank3Tag, std::int64_t i, std::int64_t j, std::int64_t k) const {
    y(i, j, k) = 3.0 * x(i, j, k) + double(i - j + k);
  }
};

TYPED_TEST(FusionMDRange, Rank3TaggedAndOffsetBoxesFuse) {
  using View3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using MD3 = Kokkos::MDRangePolicy<TypeParam, Kokkos::Rank<3>>;
  using MD3Tagged = Kokkos::MDRangePolicy<TypeParam, Kokkos::Rank<3>, Rank3Tag>;
  const std::int64_t n = 41, m = 6, l = 5;
  View3 x("x", n, m, l), y("y", n, m, l), z("z", n, m, l);
  {
    KE::FusionScope scope;
    Kokkos::parallel_for(KE::with_accesses(MD3({0, 0, 0}, {n, m, l}), KE::writes(x)),
                         KOKKOS_LAMBDA(std::int64_t i, std::int64_t j, std::int64_t k) { x(i, j, k) = double(i + 2 * j + 3 * k); });
    Kokkos::parallel_for(KE::with_accesses(MD3Tagged({0, 0, 0}, {n, m, l}), KE::reads(x), KE::writes(y)),
                         Rank3Scale<TypeParam>{x, y});
    // Inner bounds that differ: the same rows, so it fuses; only the box's own indices run.
    Kokkos::parallel_for(KE::with_accesses(MD3({0, 1, 2}, {n, m - 1, l}), KE::reads(y), KE::writes(z)),
                         KOKKOS_LAMBDA(std::int64_t i, std::int64_t j, std::int64_t k) { z(i, j, k) = y(i, j, k) + 1.0; });
  }
  const auto s = KE::fusion_statistics();
  EXPECT_EQ(s.fused_launches, 1u);
  EXPECT_EQ(s.launches_fused, 3u);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < m; ++j) {
      for (std::int64_t k = 0; k < l; ++k) {
        const double expect_y = 3.0 * double(i + 2 * j + 3 * k) + double(i - j + k);
        ASSERT_EQ(y(i, j, k), expect_y);
        const bool inside = j >= 1 && j < m - 1 && k >= 2;
        ASSERT_EQ(z(i, j, k), inside ? expect_y + 1.0 : 0.0) << i << "," << j << "," << k;
      }
    }
  }
}

TYPED_TEST(FusionMDRange, EmptyBoxesRunNothingAndOtherFirstRangesDoNotFuse) {
  const std::int64_t n = 50, m = 4;
  Grid a("a", n, m), b("b", n, m);
  {
    KE::FusionScope scope;
    Kokkos::parallel_for(KE::with_accesses(MD2<TypeParam>({0, 0}, {n, 0}), KE::writes(a)),
                         KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { a(i, j) = 1.0; });
    Kokkos::parallel_for(KE::with_accesses(MD2<TypeParam>({0, 0}, {n, m}), KE::writes(b)),
                         KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { b(i, j) = 2.0; });
    Kokkos::parallel_for(KE::with_accesses(MD2<TypeParam>({1, 0}, {n, m}), KE::reads(b), KE::writes(a)),
                         KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { a(i, j) = b(i, j) + 1.0; });
  }
  const auto s = KE::fusion_statistics();
  EXPECT_EQ(s.fused_launches, 0u);
  EXPECT_EQ(s.barrier_count(FusionConstraint::launch_domain), 2u);
  for (std::int64_t j = 0; j < m; ++j) {
    EXPECT_EQ(a(0, j), 0.0);
    for (std::int64_t i = 1; i < n; ++i) ASSERT_EQ(a(i, j), 3.0);
  }
}

TYPED_TEST(FusionMDRange, ReductionsRunAloneAndDeliverTheirValue) {
  const std::int64_t n = 64, m = 8;
  Grid a("a", n, m);
  double sum = 0;
  {
    KE::FusionScope scope;
    Kokkos::parallel_for(KE::with_accesses(MD2<TypeParam>({0, 0}, {n, m}), KE::writes(a)),
                         KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { a(i, j) = double(i + j); });
    Kokkos::parallel_reduce(KE::with_accesses(MD2<TypeParam>({0, 0}, {n, m}), KE::reads(a)),
                            KOKKOS_LAMBDA(std::int64_t i, std::int64_t j, double& acc) { acc += a(i, j); }, sum);
    EXPECT_EQ(KE::fusion_pending_launches(), 0u);  // the reduction flushed the window
  }
  EXPECT_EQ(sum, double(m * n * (n - 1) / 2 + n * m * (m - 1) / 2));
  EXPECT_EQ(KE::fusion_statistics().fused_launches, 0u);
}

// Random programs of MDRange and row launches over three grids: point-wise updates and reads
// through the rows above and below, repeated so the memoized runs try every dispatch way.
template <class Space>
void run_random_grid_program(std::uint64_t seed, const std::vector<Grid>& grids, std::int64_t n, std::int64_t m) {
  std::mt19937_64 rng(seed);
  const int launches = 1 + static_cast<int>(rng() % 30);
  for (int l = 0; l < launches; ++l) {
    const std::size_t out = rng() % grids.size(), in = (out + 1 + rng() % (grids.size() - 1)) % grids.size();
    const Grid& y = grids[out];
    const Grid& x = grids[in];
    const auto y_center = Kokkos::subview(y, Rows(1, n + 1), Kokkos::ALL);
    const auto x_center = Kokkos::subview(x, Rows(1, n + 1), Kokkos::ALL);
    const auto x_north = Kokkos::subview(x, Rows(0, n), Kokkos::ALL);
    const auto x_south = Kokkos::subview(x, Rows(2, n + 2), Kokkos::ALL);
    const double w = double(rng() % 7) * 0.25;
    const bool md = rng() % 2 == 0;
    if (rng() % 2 == 0) {  // y = w * x_north + x_south (reads the rows around)
      auto body = KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { y_center(i, j) = w * x_north(i, j) + x_south(i, j); };
      if (md) {
        Kokkos::parallel_for(KE::with_accesses(MD2<Space>({0, 0}, {n, m}), KE::reads(x_north), KE::reads(x_south),
                                               KE::writes(y_center)),
                             body);
      } else {
        Kokkos::parallel_for(KE::with_accesses(Kokkos::RangePolicy<Space>(0, n), KE::reads(x_north), KE::reads(x_south),
                                               KE::writes(y_center)),
                             KOKKOS_LAMBDA(std::int64_t i) {
                               for (std::int64_t j = 0; j < m; ++j) body(i, j);
                             });
      }
    } else {  // y = y * 0.5 + w * x (point-wise)
      auto body = KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) { y_center(i, j) = 0.5 * y_center(i, j) + w * x_center(i, j); };
      if (md) {
        Kokkos::parallel_for(
            KE::with_accesses(MD2<Space>({0, 0}, {n, m}), KE::reads(x_center), KE::read_writes(y_center)), body);
      } else {
        Kokkos::parallel_for(
            KE::with_accesses(Kokkos::RangePolicy<Space>(0, n), KE::reads(x_center), KE::read_writes(y_center)),
            KOKKOS_LAMBDA(std::int64_t i) {
              for (std::int64_t j = 0; j < m; ++j) body(i, j);
            });
      }
    }
  }
}

TYPED_TEST(FusionMDRange, RandomGridProgramsFusedEqualUnfusedBitwise) {
  for (std::int64_t n : {1, 7, 300, 5000}) {
    const std::int64_t m = n > 1000 ? 3 : 9;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      std::vector<Grid> plain, fused;
      for (std::uint64_t g = 0; g < 3; ++g) {
        plain.push_back(filled("g", n + 2, m, seed * 10 + g));
        fused.push_back(filled("g", n + 2, m, seed * 10 + g));
      }
      KE::set_fusion_enabled(false);
      run_random_grid_program<TypeParam>(seed, plain, n, m);
      KE::set_fusion_enabled(true);
      for (int repeat = 0; repeat < 13; ++repeat) {  // 13: every dispatch way gets tried
        std::vector<Grid> copy;
        for (const Grid& g : fused) {
          copy.push_back(Grid("g", n + 2, m));
          Kokkos::deep_copy(copy.back(), g);
        }
        {
          KE::FusionScope scope;
          run_random_grid_program<TypeParam>(seed, copy, n, m);
        }
        for (std::size_t g = 0; g < copy.size(); ++g) {
          ASSERT_TRUE(bitwise_equal(copy[g], plain[g])) << "n " << n << " seed " << seed << " repeat " << repeat;
        }
      }
    }
  }
  const auto s = KE::fusion_statistics();
  EXPECT_GT(s.launches_fused, 0u);
  EXPECT_GT(s.skewed_runs, 0u);
}

}  // namespace

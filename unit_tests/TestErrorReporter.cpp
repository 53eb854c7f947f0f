// Kokkos::Experimental::ErrorReporter: reports from kernels, capacity, attempts beyond it,
// clear/resize, and a concurrent stress test (run under ThreadSanitizer in CI).
#include "TestCommon.hpp"

#include <Kokkos_ErrorReporter.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <vector>

namespace {

struct Cell {
  int i;
  double value;
};

template <class Space>
class ErrorReporterSpace : public Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(ErrorReporterSpace, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(ErrorReporterSpace, ReportsFromKernelBelowCapacity) {
  using Space = TypeParam;
  Kokkos::Experimental::ErrorReporter<Cell, typename Space::device_type> errors("below", 50);
  EXPECT_EQ(errors.capacity(), 50);
  EXPECT_EQ(errors.num_reports(), 0);
  EXPECT_FALSE(errors.full());
  // Every 7th index of 100 reports: 15 reports (0, 7, ..., 98).
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, 100), KOKKOS_LAMBDA(int i) {
        if (i % 7 == 0) errors.add_report(i * 10, Cell{i, 0.5 * i});
      });
  Space().fence();
  EXPECT_EQ(errors.num_reports(), 15);
  EXPECT_EQ(errors.num_report_attempts(), 15);
  EXPECT_FALSE(errors.full());
  auto [ids, reports] = errors.get_reports();
  ASSERT_EQ(ids.size(), 15u);
  ASSERT_EQ(reports.size(), 15u);
  std::set<int> seen;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    EXPECT_EQ(ids[k], reports[k].i * 10);
    EXPECT_EQ(reports[k].value, 0.5 * reports[k].i);
    EXPECT_EQ(reports[k].i % 7, 0);
    seen.insert(reports[k].i);
  }
  EXPECT_EQ(seen.size(), 15u);
}

TYPED_TEST(ErrorReporterSpace, AttemptsBeyondCapacityAreCountedNotStored) {
  using Space = TypeParam;
  Kokkos::Experimental::ErrorReporter<int, typename Space::device_type> errors("beyond", 10);
  Kokkos::View<int, Space> stored("stored");
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, 1000), KOKKOS_LAMBDA(int i) {
        if (errors.add_report(i, -i)) Kokkos::atomic_inc(stored.data());
      });
  Space().fence();
  int stored_h = 0;
  Kokkos::deep_copy(stored_h, stored);
  EXPECT_EQ(stored_h, 10);  // add_report returned true exactly capacity times
  EXPECT_EQ(errors.num_report_attempts(), 1000);
  EXPECT_EQ(errors.num_reports(), 10);
  EXPECT_TRUE(errors.full());
  std::vector<int> ids, values;
  errors.getReports(ids, values);
  ASSERT_EQ(ids.size(), 10u);
  for (std::size_t k = 0; k < ids.size(); ++k) EXPECT_EQ(values[k], -ids[k]);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end());
}

TEST(ErrorReporter, ClearResizeAndOldNames) {
  Kokkos::Experimental::ErrorReporter<double, Kokkos::DefaultHostExecutionSpace::device_type> errors(4);
  for (int i = 0; i < 6; ++i) errors.add_report(i, i + 0.25);
  EXPECT_EQ(errors.getCapacity(), 4);
  EXPECT_EQ(errors.getNumReports(), 4);
  EXPECT_EQ(errors.getNumReportAttempts(), 6);
  EXPECT_TRUE(errors.full());

  // clear() forgets the attempts, so the reporter can be reused (e.g. every time step).
  errors.clear();
  EXPECT_EQ(errors.num_reports(), 0);
  EXPECT_FALSE(errors.full());
  errors.resize(8);
  EXPECT_EQ(errors.capacity(), 8);
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(errors.add_report(100 + i, i * 2.0));
  EXPECT_FALSE(errors.add_report(999, 0.0));
  EXPECT_TRUE(errors.full());

  Kokkos::View<int*, Kokkos::HostSpace>::HostMirror ids;
  Kokkos::View<double*, Kokkos::HostSpace>::HostMirror values;
  errors.getReports(ids, values);
  ASSERT_EQ(ids.extent(0), 8u);
  ASSERT_EQ(values.extent(0), 8u);
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(ids(k), 100 + k);  // one thread: slots in call order
    EXPECT_EQ(values(k), k * 2.0);
  }

  errors.resize(3);  // shrinking keeps the first reports
  EXPECT_EQ(errors.capacity(), 3);
  EXPECT_EQ(errors.num_reports(), 3);
  auto [ids2, values2] = errors.get_reports();
  EXPECT_EQ(ids2, (std::vector<int>{100, 101, 102}));
  EXPECT_EQ(values2, (std::vector<double>{0.0, 2.0, 4.0}));
}

TEST(ErrorReporter, ZeroCapacityAndBadSize) {
  Kokkos::Experimental::ErrorReporter<int, Kokkos::DefaultHostExecutionSpace::device_type> none("none", 0);
  EXPECT_TRUE(none.full());
  EXPECT_FALSE(none.add_report(1, 1));
  EXPECT_EQ(none.num_report_attempts(), 1);
  EXPECT_EQ(none.num_reports(), 0);
  EXPECT_TRUE(none.get_reports().first.empty());
  EXPECT_THROW((Kokkos::Experimental::ErrorReporter<int, Kokkos::DefaultHostExecutionSpace::device_type>("negative", -1)),
               std::runtime_error);
}

// Many threads report at once, several rounds with clear() between them: every stored slot
// must hold a complete, distinct report and the count of successes must equal the capacity.
TYPED_TEST(ErrorReporterSpace, ConcurrentStress) {
  using Space = TypeParam;
  constexpr int capacity = 257;
  Kokkos::Experimental::ErrorReporter<Cell, typename Space::device_type> errors("stress", capacity);
  for (int round = 0; round < 20; ++round) {
    errors.clear();
    const int n = 500 + 97 * round;  // below and above the capacity
    const int stride = 1 + round % 3;
    Kokkos::View<int, Space> successes("successes");
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
          if (i % stride != 0) return;
          if (errors.add_report(i, Cell{i, 2.0 * i})) Kokkos::atomic_inc(successes.data());
        });
    Space().fence();
    const int attempts = (n + stride - 1) / stride;
    int ok = 0;
    Kokkos::deep_copy(ok, successes);
    ASSERT_EQ(errors.num_report_attempts(), attempts) << "round " << round;
    ASSERT_EQ(ok, std::min(attempts, capacity)) << "round " << round;
    auto [ids, reports] = errors.get_reports();
    ASSERT_EQ(static_cast<int>(ids.size()), ok);
    std::set<int> distinct;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      ASSERT_EQ(ids[k], reports[k].i);
      ASSERT_EQ(reports[k].value, 2.0 * reports[k].i);
      ASSERT_EQ(reports[k].i % stride, 0);
      distinct.insert(ids[k]);
    }
    ASSERT_EQ(static_cast<int>(distinct.size()), ok);
  }
}

}  // namespace

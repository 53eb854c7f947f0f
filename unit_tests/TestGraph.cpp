// Kokkos::Experimental::Graph: node order, when_all joins, reductions into Views, scans,
// resubmission, against a sequential reference; fused (nodes with declared accesses inside a
// fusion window) and unfused.
#include "FusionTestFixture.hpp"
#include "TestCommon.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;

// The host spaces: the checks read results on the host, and on Cuda graph nodes are ordinary
// launches (fusion on the GPU is a later issue).
template <class Space>
struct Graph : Kokkos::Test::FusionFixture {};
TYPED_TEST_SUITE(Graph, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

template <class Space>
using V = Kokkos::View<double*, typename Space::memory_space>;

// Node k of a chain: x = x * 3 + k (not commutative: any reordering changes the bits).
template <class Space>
std::vector<double> chain_reference(int n, int nodes, int submissions) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5 * i;
  for (int s = 0; s < submissions; ++s) {
    for (int k = 0; k < nodes; ++k) {
      for (int i = 0; i < n; ++i) x[i] = x[i] * 3 + k;
    }
  }
  return x;
}

// A chain of `nodes` parallel_for nodes, with or without declared accesses; the order
// in which nodes started is stamped into `started`.
template <class Space>
KE::Graph<Space> make_chain(const V<Space>& x, const Kokkos::View<int*, typename Space::memory_space>& started,
                const Kokkos::View<int, typename Space::memory_space>& counter, int nodes, bool declare) {
  return KE::create_graph(Space{}, [&](KE::GraphNodeRef<Space> root) {
    KE::GraphNodeRef<Space> node = root;
    const auto n = static_cast<int>(x.extent(0));
    for (int k = 0; k < nodes; ++k) {
      auto body = KOKKOS_LAMBDA(int i) {
        x(i) = x(i) * 3 + k;
        if (i == 0) started(k) = Kokkos::atomic_fetch_add(&counter(), 1);
      };
      if (declare) {
        node = node.then_parallel_for("chain", KE::with_accesses(Kokkos::RangePolicy<Space>(0, n), KE::read_writes(x)),
                                      body);
      } else {
        node = node.then_parallel_for("chain", Kokkos::RangePolicy<Space>(0, n), body);
      }
    }
  });
}

template <class Space>
void check_chain(bool declare, bool fusion_on) {
  KE::set_fusion_enabled(fusion_on);
  const int n = 1000, nodes = 6;
  V<Space> x("x", n);
  Kokkos::View<int*, typename Space::memory_space> started("started", nodes);
  Kokkos::View<int, typename Space::memory_space> counter("counter");
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { x(i) = 0.5 * i; });
  auto graph = make_chain<Space>(x, started, counter, nodes, declare);
  graph.instantiate();
  for (int s = 0; s < 3; ++s) graph.submit();
  Space().fence();
  const std::vector<double> expected = chain_reference<Space>(n, nodes, 3);
  for (int i = 0; i < n; ++i) ASSERT_EQ(x(i), expected[i]) << "i = " << i;
  // The last submission's nodes started in node order.
  for (int k = 0; k < nodes; ++k) EXPECT_EQ(started(k), 2 * nodes + k) << "node " << k;
  KE::set_fusion_enabled(true);
}

TYPED_TEST(Graph, ChainRunsInNodeOrderOnEverySubmission) {
  check_chain<TypeParam>(false, true);
  check_chain<TypeParam>(false, false);
}

TYPED_TEST(Graph, ChainWithDeclaredAccessesFusesAndMatchesUnfused) {
  check_chain<TypeParam>(true, false);
  KE::reset_fusion_statistics();
  check_chain<TypeParam>(true, true);
  const KE::FusionStatistics s = KE::fusion_statistics();
  EXPECT_EQ(s.launches_recorded, 18u);  // six nodes, three submissions
  EXPECT_EQ(s.launches_fused, 18u);
  EXPECT_EQ(s.windows_analysed, 3u);
  EXPECT_EQ(s.memo_hits, 2u) << "a resubmitted graph is a repeated window";
}

// root -> a, root -> b, when_all(a, b) -> c -> sum; then a scan after the join.
template <class Space>
void check_diamond(bool declare) {
  const int n = 777;
  V<Space> x("x", n), y("y", n), z("z", n), prefix("prefix", n);
  Kokkos::View<double, typename Space::memory_space> sum("sum"), maximum("max");
  using P = Kokkos::RangePolicy<Space>;
  auto graph = KE::create_graph<Space>([&](KE::GraphNodeRef<Space> root) {
    auto fill_x = KOKKOS_LAMBDA(int i) { x(i) = x(i) + 1.0 / (i + 1); };
    auto fill_y = KOKKOS_LAMBDA(int i) { y(i) = y(i) + 2.0 * i; };
    auto add = KOKKOS_LAMBDA(int i) { z(i) = x(i) * y(i) - z(i); };
    auto a = declare ? root.then_parallel_for("x", KE::with_accesses(P(0, n), KE::read_writes(x)), fill_x)
                     : root.then_parallel_for("x", P(0, n), fill_x);
    auto b = declare ? root.then_parallel_for("y", KE::with_accesses(P(0, n), KE::read_writes(y)), fill_y)
                     : root.then_parallel_for(n, fill_y);
    auto joined = KE::when_all(a, b);
    auto c = declare ? joined.then_parallel_for(
                           "z", KE::with_accesses(P(0, n), KE::reads(x), KE::reads(y), KE::read_writes(z)), add)
                     : joined.then_parallel_for("z", P(0, n), add);
    auto reduce = KOKKOS_LAMBDA(int i, double& s) { s += z(i); };
    if (declare) {
      c.then_parallel_reduce("sum", KE::with_accesses(P(0, n), KE::reads(z)), reduce, sum);
    } else {
      c.then_parallel_reduce("sum", n, reduce, sum);
    }
    c.then_parallel_reduce(
        P(0, n), KOKKOS_LAMBDA(int i, double& m) { m = z(i) > m ? z(i) : m; }, Kokkos::Max<double>(maximum));
    c.then_parallel_scan(
        "prefix", n, KOKKOS_LAMBDA(int i, double& partial, bool final) {
          partial += z(i);
          if (final) prefix(i) = partial;
        });
  });
  std::vector<double> rx(n, 0), ry(n, 0), rz(n, 0);
  for (int s = 0; s < 2; ++s) {
    graph.submit();
    Space().fence();
    double rsum = 0, rmax = -1e300, run = 0;
    for (int i = 0; i < n; ++i) {
      rx[i] += 1.0 / (i + 1);
      ry[i] += 2.0 * i;
      rz[i] = rx[i] * ry[i] - rz[i];
      rmax = rz[i] > rmax ? rz[i] : rmax;
    }
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(z(i), rz[i]) << "i = " << i;
      run += rz[i];
      ASSERT_DOUBLE_EQ(prefix(i), run) << "i = " << i;
      rsum += rz[i];
    }
    EXPECT_NEAR(sum(), rsum, 1e-9 * (1 + rsum)) << "submission " << s;
    EXPECT_EQ(maximum(), rmax);
  }
}

TYPED_TEST(Graph, WhenAllJoinsReduceAndScanAgreeWithSequentialReference) {
  check_diamond<TypeParam>(false);
  check_diamond<TypeParam>(true);
  KE::set_fusion_enabled(false);
  check_diamond<TypeParam>(true);
  KE::set_fusion_enabled(true);
}

TYPED_TEST(Graph, FusedSumIsBitwiseTheUnfusedSum) {
  using Space = TypeParam;
  const int n = 5000;
  V<Space> x("x", n);
  Kokkos::View<double, typename Space::memory_space> sum("sum");
  using P = Kokkos::RangePolicy<Space>;
  auto graph = KE::create_graph(Space{}, [&](KE::GraphNodeRef<Space> root) {
    root.then_parallel_for("fill", KE::with_accesses(P(0, n), KE::writes(x)), KOKKOS_LAMBDA(int i) { x(i) = 1.0 / (i + 3); })
        .then_parallel_reduce("sum", KE::with_accesses(P(0, n), KE::reads(x)),
                              KOKKOS_LAMBDA(int i, double& s) { s += x(i) * x(i); }, sum);
  });
  graph.submit();
  const double fused = sum();
  KE::set_fusion_enabled(false);
  graph.submit();
  const double unfused = sum();
  KE::set_fusion_enabled(true);
  EXPECT_EQ(fused, unfused);
}

TYPED_TEST(Graph, EmptyGraphAndRootOnlyGraphSubmit) {
  using Space = TypeParam;
  KE::Graph<Space> empty;
  empty.submit();
  empty.submit(Space{});
  auto graph = KE::create_graph(Space{}, [](auto) {});
  graph.instantiate();
  graph.submit();
  EXPECT_NO_THROW(Space().fence());
}

TEST(GraphBadInput, MisuseIsReported) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);  // launches on the default space
  using Space = Kokkos::DefaultHostExecutionSpace;
  Kokkos::View<double*> x("x", 10);
  double scalar = 0;
  KE::Graph<Space> graph;
  auto root = graph.root_node();
  EXPECT_THROW(root.then_parallel_reduce(
                   10, KOKKOS_LAMBDA(int i, double& s) { s += x(i); }, Kokkos::Sum<double>(scalar)),
               std::runtime_error);
  KE::Graph<Space> other;
  auto a = root.then_parallel_for(10, KOKKOS_LAMBDA(int i) { x(i) = i; });
  auto b = other.root_node().then_parallel_for(10, KOKKOS_LAMBDA(int i) { x(i) = i; });
  EXPECT_THROW(KE::when_all(a, b), std::runtime_error);
  graph.instantiate();
  EXPECT_THROW(a.then_parallel_for(10, KOKKOS_LAMBDA(int i) { x(i) = 2 * i; }), std::runtime_error);
  KE::GraphNodeRef<Space> dangling;
  EXPECT_THROW(dangling.then_parallel_for(10, KOKKOS_LAMBDA(int i) { x(i) = i; }), std::runtime_error);
}

}  // namespace

// Kokkos::Experimental::Graph: node order, when_all joins, reductions into Views, scans,
// resubmission, against a sequential reference; fused (nodes with declared accesses inside a
// fusion window) and unfused.  submit(exec) runs every node on exec (Kokkos Tools see each
// launch on that instance; the workers that ran are that instance's); then() single tasks run
// once per submission, between their predecessors and successors.
#include "FusionTestFixture.hpp"
#include "TestCommon.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
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
  // The stamps into `started` are deliberately undeclared: they observe the order nodes run in.
  // The capture check (on in debug builds) would rightly stop them.
  const bool checking = KE::fusion_check();
  KE::set_fusion_check(false);
  for (int s = 0; s < 3; ++s) graph.submit();
  Space().fence();
  KE::set_fusion_check(checking);
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
      // A parallel scan sums in another association than the sequential loop: a few ulps per term.
      ASSERT_NEAR(prefix(i), run, 1e-12 * (1 + run)) << "i = " << i;
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

// ---- submit(exec): every node on exec ----

// The device ids Kokkos Tools saw the graph's launches on (for, reduce and scan).
std::vector<std::uint32_t> g_launch_devices;

struct RecordLaunchDevices {
  RecordLaunchDevices() {
    namespace KTE = Kokkos::Tools::Experimental;
    g_launch_devices.clear();
    auto begin = [](const char*, std::uint32_t device, std::uint64_t* id) {
      g_launch_devices.push_back(device);
      *id = 0;
    };
    KTE::set_begin_parallel_for_callback(begin);
    KTE::set_begin_parallel_reduce_callback(begin);
    KTE::set_begin_parallel_scan_callback(begin);
  }
  ~RecordLaunchDevices() { Kokkos::Tools::Experimental::set_callbacks(Kokkos::Tools::Experimental::EventSet{}); }
  RecordLaunchDevices(const RecordLaunchDevices&) = delete;
  RecordLaunchDevices& operator=(const RecordLaunchDevices&) = delete;
};

// A graph built on the default instance, with policies on the default instance (for, reduce,
// scan, a team launch and a single task; with declared accesses or not), submitted on a
// one-worker partition and then with submit(): each submission's launches are on its instance,
// the ranks that ran them are the instance's, and the results are the sequential reference's.
template <class Space>
void check_submit_on_instance(bool declare) {
  using P = Kokkos::RangePolicy<Space>;
  using Team = Kokkos::TeamPolicy<Space>;
  using M = typename Space::memory_space;
  const int n = 100000, league = 16;
  auto parts = KE::partition_space(Space(), 1, 1);
  const Space exec = parts[0];
  ASSERT_FALSE(exec == Space());
  V<Space> x("x", n), prefix("prefix", n);
  Kokkos::View<double, M> sum("sum"), seen("seen");
  Kokkos::View<int*, M> teams("teams", league);
  Kokkos::View<int, M> max_rank("max_rank"), tasks("tasks");
  auto graph = KE::create_graph(Space{}, [&](KE::GraphNodeRef<Space> root) {
    auto grow = KOKKOS_LAMBDA(int i) {
      x(i) = x(i) * 3 + 1;
      Kokkos::atomic_max(&max_rank(), Space::impl_hardware_thread_id());
    };
    auto add = KOKKOS_LAMBDA(int i, double& s) { s += x(i); };
    KE::GraphNodeRef<Space> a, b;
    if (declare) {
      a = root.then_parallel_for("grow", KE::with_accesses(P(0, n), KE::read_writes(x), KE::reduces(max_rank)), grow);
      b = a.then_parallel_reduce("sum", KE::with_accesses(P(0, n), KE::reads(x)), add, sum);
    } else {
      a = root.then_parallel_for("grow", n, grow);
      b = a.then_parallel_reduce("sum", P(0, n), add, sum);
    }
    a.then_parallel_for(
        "team", Team(league, Kokkos::AUTO), KOKKOS_LAMBDA(const typename Team::member_type& m) {
          if (m.team_rank() == 0) teams(m.league_rank()) += 1;
          Kokkos::atomic_max(&max_rank(), Space::impl_hardware_thread_id());
        });
    a.then_parallel_scan(
        "prefix", n, KOKKOS_LAMBDA(int i, double& partial, bool final) {
          partial += x(i);
          if (final) prefix(i) = partial;
        });
    b.then("seen", KOKKOS_LAMBDA() {
      tasks() += 1;
      seen() = sum();
    });
  });
  std::vector<double> rx(n);
  for (int i = 0; i < n; ++i) rx[i] = 0;
  for (int s = 0; s < 2; ++s) {
    const Space on = s == 0 ? exec : Space();
    max_rank() = 0;
    {
      RecordLaunchDevices record;
      if (s == 0) {
        graph.submit(exec);
      } else {
        graph.submit();
      }
      on.fence();
      ASSERT_FALSE(g_launch_devices.empty());
      for (std::uint32_t device : g_launch_devices) {
        EXPECT_EQ(device, Kokkos::Tools::Experimental::device_id(on)) << "submission " << s;
      }
    }
    if (s == 0) {
      EXPECT_LT(max_rank(), Space::concurrency(exec)) << "a rank of another instance ran a node";
    }
    double rsum = 0, run = 0;
    for (int i = 0; i < n; ++i) {
      rx[i] = rx[i] * 3 + 1;
      rsum += rx[i];
    }
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(x(i), rx[i]) << "i = " << i;
      run += rx[i];
      // A parallel scan sums in another association than the sequential loop: a few ulps per term.
      ASSERT_NEAR(prefix(i), run, 1e-12 * (1 + run)) << "i = " << i;
    }
    EXPECT_NEAR(sum(), rsum, 1e-12 * rsum);
    EXPECT_EQ(seen(), sum());
    EXPECT_EQ(tasks(), s + 1);
    for (int l = 0; l < league; ++l) EXPECT_EQ(teams(l), s + 1) << "league rank " << l;
  }
}

TYPED_TEST(Graph, SubmitOnAnInstanceRunsEveryNodeThere) {
  check_submit_on_instance<TypeParam>(false);
  check_submit_on_instance<TypeParam>(true);
  KE::set_fusion_enabled(false);
  check_submit_on_instance<TypeParam>(true);
}

struct PolicyTag {};

// What a submission does to a node's policy: only the instance changes.
TYPED_TEST(Graph, PolicyOnSpaceKeepsEverythingButTheInstance) {
  using Space = TypeParam;
  const Space exec = KE::partition_space(Space(), 1, 1)[0];
  using R = Kokkos::RangePolicy<Space, Kokkos::Schedule<Kokkos::Dynamic>, PolicyTag, Kokkos::IndexType<long>>;
  const auto range = KE::prefer(R(3, 17, Kokkos::ChunkSize(5)), KE::DesiredOccupancy(40));
  const auto moved = Kokkos::Impl::policy_on_space(range, exec);
  static_assert(std::is_same_v<decltype(moved), decltype(range)>, "the same schedule, work tag and properties");
  EXPECT_TRUE(moved.space() == exec);
  EXPECT_FALSE(range.space() == exec);
  EXPECT_EQ(moved.begin(), 3);
  EXPECT_EQ(moved.end(), 17);
  EXPECT_EQ(moved.chunk_size(), 5);
  EXPECT_EQ(moved.impl_get_desired_occupancy().value(), 40);

  V<Space> x("x", 20);
  const auto access = KE::with_accesses(range, KE::reads(x));
  const auto access_moved = Kokkos::Impl::policy_on_space(access, exec);
  EXPECT_TRUE(access_moved.space() == exec);
  EXPECT_EQ(access_moved.policy().begin(), 3);
  EXPECT_EQ(access_moved.policy().chunk_size(), 5);
  ASSERT_EQ(access_moved.impl_decls().size(), 1u);
  EXPECT_EQ(access_moved.impl_decls()[0].access.allocation, access.impl_decls()[0].access.allocation);

  using MD = Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>;
  const MD box({1, 2}, {7, 9}, {2, 3});
  const MD box_moved = Kokkos::Impl::policy_on_space(box, exec);
  EXPECT_TRUE(box_moved.space() == exec);
  EXPECT_EQ(box_moved.m_lower, box.m_lower);
  EXPECT_EQ(box_moved.m_upper, box.m_upper);
  EXPECT_EQ(box_moved.m_tile, box.m_tile);

  using T = Kokkos::TeamPolicy<Space, PolicyTag>;
  const T team(Space(), 9, Kokkos::AUTO);
  const T team_moved = Kokkos::Impl::policy_on_space(team, exec);
  EXPECT_TRUE(team_moved.space() == exec);
  EXPECT_EQ(team_moved.league_size(), 9);
  EXPECT_TRUE(team_moved.impl_auto_team_size());
  EXPECT_LE(team_moved.team_size(), Space::concurrency(exec)) << "an AUTO team size is chosen for the new instance";
  if constexpr (!std::is_same_v<Space, Kokkos::Serial>) {
    // An explicit team size that the new instance's workers cannot hold is reported.
    const T wide(Space(), 1, Space::concurrency());
    if (Space::concurrency() > Space::concurrency(exec)) {
      EXPECT_THROW(Kokkos::Impl::policy_on_space(wide, exec), std::runtime_error);
    }
  }
}

// ---- then(): single tasks ----

template <class N, class F>
concept can_then = requires(const N& node, F f) { node.then("label", f); };
static_assert(can_then<KE::GraphNodeRef<Kokkos::DefaultHostExecutionSpace>, void (*)()>);
static_assert(!can_then<KE::GraphNodeRef<Kokkos::DefaultHostExecutionSpace>, void (*)(int)>,
              "a single task takes no argument");

// fill x -> then "factor" (reads x, writes factor) -> y = x * factor;  root -> z += 2;
// when_all(y, z) -> then (unlabelled: reads y and z) -> then("last", exec, ...).  Each task
// counts its calls and stamps the order it ran in; the values it saw are those its
// predecessors wrote in the same submission.
template <class Space>
void check_then(bool declare) {
  using P = Kokkos::RangePolicy<Space>;
  using M = typename Space::memory_space;
  const int n = 2000, submissions = 4;
  V<Space> x("x", n), y("y", n), z("z", n);
  Kokkos::View<double, M> factor("factor");
  Kokkos::View<double*, M> seen("seen", 2);
  Kokkos::View<int*, M> calls("calls", 3), stamp("stamp", 3);
  Kokkos::View<int, M> clock("clock");
  auto graph = KE::create_graph(Space{}, [&](KE::GraphNodeRef<Space> root) {
    auto fill = KOKKOS_LAMBDA(int i) { x(i) = x(i) + i + 1; };
    auto scale = KOKKOS_LAMBDA(int i) { y(i) = x(i) * factor(); };
    auto bump = KOKKOS_LAMBDA(int i) { z(i) = z(i) + 2; };
    KE::GraphNodeRef<Space> a, b, c;
    if (declare) {
      a = root.then_parallel_for("fill", KE::with_accesses(P(0, n), KE::read_writes(x)), fill);
      b = root.then_parallel_for("bump", KE::with_accesses(P(0, n), KE::read_writes(z)), bump);
    } else {
      a = root.then_parallel_for("fill", P(0, n), fill);
      b = root.then_parallel_for("bump", n, bump);
    }
    auto task = a.then("factor", KOKKOS_LAMBDA() {
      calls(0) += 1;
      stamp(0) = clock()++;
      factor() = x(n - 1) + 0.5;
    });
    if (declare) {
      c = task.then_parallel_for("scale", KE::with_accesses(P(0, n), KE::reads(x), KE::reads(factor), KE::writes(y)), scale);
    } else {
      c = task.then_parallel_for("scale", P(0, n), scale);
    }
    KE::when_all(c, b)
        .then(KOKKOS_LAMBDA() {
          calls(1) += 1;
          stamp(1) = clock()++;
          seen(0) = y(n - 1) + z(n - 1);
        })
        .then(std::string("last"), Space{}, KOKKOS_LAMBDA() {
          calls(2) += 1;
          stamp(2) = clock()++;
          seen(1) = factor();
        });
  });
  graph.instantiate();
  std::vector<double> rx(n, 0), rz(n, 0);
  for (int s = 0; s < submissions; ++s) {
    graph.submit();
    Space().fence();
    for (int i = 0; i < n; ++i) {
      rx[i] += i + 1;
      rz[i] += 2;
    }
    const double rfactor = rx[n - 1] + 0.5;
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(calls(k), s + 1) << "task " << k << ", submission " << s;
      EXPECT_EQ(stamp(k), 3 * s + k) << "task " << k << ", submission " << s;
    }
    EXPECT_EQ(factor(), rfactor) << "the task ran before its predecessor, submission " << s;
    for (int i = 0; i < n; ++i) ASSERT_EQ(y(i), rx[i] * rfactor) << "i = " << i << ", submission " << s;
    EXPECT_EQ(seen(0), rx[n - 1] * rfactor + rz[n - 1]) << "the join's task ran too early, submission " << s;
    EXPECT_EQ(seen(1), rfactor);
  }
}

TYPED_TEST(Graph, ThenTasksRunOncePerSubmissionBetweenPredecessorsAndSuccessors) {
  check_then<TypeParam>(false);
  check_then<TypeParam>(true);
  KE::set_fusion_enabled(false);
  check_then<TypeParam>(false);
  check_then<TypeParam>(true);
}

// A task is a one-iteration launch on the submission's instance, reported under its label.
TYPED_TEST(Graph, ThenTaskIsOneLaunchOnTheSubmissionsInstance) {
  using Space = TypeParam;
  using M = typename Space::memory_space;
  const Space exec = KE::partition_space(Space(), 1, 1)[0];
  Kokkos::View<int, M> calls("calls");
  auto graph = KE::create_graph(Space{}, [&](KE::GraphNodeRef<Space> root) {
    root.then("only task", KOKKOS_LAMBDA() { calls() += 1; });
  });
  std::vector<std::string> names;
  static std::vector<std::string>* g_names = nullptr;
  g_names = &names;
  RecordLaunchDevices record;
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback([](const char* name, std::uint32_t device,
                                                                  std::uint64_t* id) {
    g_names->push_back(name);
    g_launch_devices.push_back(device);
    *id = 0;
  });
  graph.submit(exec);
  exec.fence();
  EXPECT_EQ(calls(), 1);
  ASSERT_EQ(names, std::vector<std::string>{"only task"});
  EXPECT_EQ(g_launch_devices, std::vector<std::uint32_t>{Kokkos::Tools::Experimental::device_id(exec)});
  g_names = nullptr;
}

// Kokkos 4.7's graph tutorial shape: a graph built on an instance (Graph<Exec>{exec}, nodes
// added from root_node()), a diamond of kernels, and host nodes that read what their
// predecessors wrote and write what their successors read.
TYPED_TEST(Graph, ThenHostRunsOnTheHostBetweenItsPredecessorsAndSuccessors) {
  using Space = TypeParam;
  using M = typename Space::memory_space;
  for (const bool fusion_on : {true, false}) {
    KE::set_fusion_enabled(fusion_on);
    const int n = 100;
    const Space exec = KE::partition_space(Space(), 1, 1)[0];
    V<Space> a("a", n), b("b", n), c("c", n);
    Kokkos::View<double, M> scale("scale");
    Kokkos::View<double, M> total("total");
    std::vector<double> seen_by_host;
    int host_calls = 0;
    KE::Graph<Space> graph{exec};
    auto fill = graph.root_node().then_parallel_for("fill", Kokkos::RangePolicy<Space>(0, n),
                                                    KOKKOS_LAMBDA(int i) { a(i) = i; });
    // Reads the fill's result and chooses the scale the next kernel uses.
    auto choose = fill.then_host("choose scale", [&]() {
      ++host_calls;
      seen_by_host.assign(a.data(), a.data() + n);
      scale() = a(n - 1) + 1;
    });
    auto left = choose.then_parallel_for("left", Kokkos::RangePolicy<Space>(0, n),
                                         KOKKOS_LAMBDA(int i) { b(i) = a(i) * scale(); });
    auto right = fill.then_parallel_for("right", Kokkos::RangePolicy<Space>(0, n),
                                        KOKKOS_LAMBDA(int i) { c(i) = -a(i); });
    auto sum = KE::when_all(left, right).then_parallel_reduce(
        "sum", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i, double& s) { s += b(i) + c(i); }, total);
    double total_seen = -1;
    sum.then_host("report", [&]() { total_seen = total(); });
    EXPECT_EQ(host_calls, 0);  // building the graph runs nothing
    for (int submission = 1; submission <= 2; ++submission) {
      Kokkos::deep_copy(a, 0.0);
      total_seen = -1;
      graph.submit();
      exec.fence();
      EXPECT_EQ(host_calls, submission);
      ASSERT_EQ(seen_by_host.size(), std::size_t(n));
      for (int i = 0; i < n; ++i) EXPECT_EQ(seen_by_host[i], i);
      // sum over i of i * n - i = (n - 1) * (n * (n - 1) / 2)
      EXPECT_EQ(total_seen, double(n - 1) * (n * (n - 1) / 2));
    }
  }
}

// A host node accepts any host callable (not only a KOKKOS_LAMBDA), and a graph whose only
// node is a host node needs no launch.
TYPED_TEST(Graph, ThenHostTakesAnyHostCallable) {
  using Space = TypeParam;
  struct Counter {
    int* calls;
    void operator()() const { ++*calls; }
  };
  int calls = 0;
  KE::Graph<Space> graph{Space{}};
  EXPECT_EQ(graph.get_execution_space(), Space{});
  graph.root_node().then_host(std::string("count"), Counter{&calls}).then_host("again", Counter{&calls});
  graph.submit();
  graph.submit(Space{});
  EXPECT_EQ(calls, 4);
}

#if defined(KOKKOS_ENABLE_CUDA)
// A cuda_capture node between kernels: the cudaMemcpyAsync its functor puts on the stream runs
// after the fill and before the doubling.  The graph is recorded as a CUDA graph, so the functor
// is called once, at instantiation, with the recording instance (a stream of the graph's own, not
// `exec`'s: Cuda/Kokkos_Cuda_Graph.hpp), and every submission (on any instance) replays its work.
TEST(GraphCuda, CudaCaptureWorkRunsBetweenItsNeighboursOnTheSubmissionsStream) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  using Space = Kokkos::Cuda;
  const int n = 1000;
  Kokkos::View<double*, Kokkos::CudaSpace> x("x", n), y("y", n);
  const Space exec = KE::partition_space(Space(), 1, 1)[0];
  std::vector<cudaStream_t> streams;
  KE::Graph<Space> graph{exec};
  auto fill = graph.root_node().then_parallel_for("fill", Kokkos::RangePolicy<Space>(0, n),
                                                  KOKKOS_LAMBDA(int i) { x(i) = i + 1; });
  auto copy = fill.cuda_capture(exec, [&streams, x, y](const Space& on) {
    streams.push_back(on.cuda_stream());
    KOKKOS_IMPL_CUDA_SAFE_CALL(
        cudaMemcpyAsync(y.data(), x.data(), x.size() * sizeof(double), cudaMemcpyDeviceToDevice, on.cuda_stream()));
  });
  copy.then_parallel_for("double", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { y(i) *= 2; });
  for (int submission = 0; submission < 2; ++submission) {
    Kokkos::deep_copy(y, 0.0);
    graph.submit();
    exec.fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    for (int i = 0; i < n; ++i) ASSERT_EQ(h(i), 2.0 * (i + 1)) << i;
  }
  ASSERT_EQ(streams.size(), 1u);
  EXPECT_NE(streams[0], exec.cuda_stream());
  Kokkos::deep_copy(y, 0.0);
  graph.submit(Space{});
  Space{}.fence();
  EXPECT_EQ(streams.size(), 1u);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  for (int i = 0; i < n; ++i) ASSERT_EQ(h(i), 2.0 * (i + 1)) << i;
}
#endif

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
  EXPECT_THROW(a.then("late", KOKKOS_LAMBDA() { x(0) = 1; }), std::runtime_error);
  EXPECT_THROW(a.then(KOKKOS_LAMBDA() { x(0) = 1; }), std::runtime_error);
  KE::GraphNodeRef<Space> dangling;
  EXPECT_THROW(dangling.then_parallel_for(10, KOKKOS_LAMBDA(int i) { x(i) = i; }), std::runtime_error);
  EXPECT_THROW(dangling.then("dangling", KOKKOS_LAMBDA() { x(0) = 1; }), std::runtime_error);
  EXPECT_THROW(a.then_host("late", [] {}), std::runtime_error);
  EXPECT_THROW(dangling.then_host("dangling", [] {}), std::runtime_error);
}

}  // namespace

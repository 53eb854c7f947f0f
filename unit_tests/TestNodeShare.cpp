// A rank's share of its node (impl/Kokkos_NodeShare.hpp): the share computation as a pure
// function over ranks x cores, and the launcher variables it reads.  The lifecycle with the
// variables set is TestLifecycleNodeShare.cpp.
#include <Kokkos_Core.hpp>
#include <impl/Kokkos_NodeShare.hpp>
#include <impl/Kokkos_Topology.hpp>

#include <gtest/gtest.h>

#include <sched.h>

#include <cstdlib>
#include <map>
#include <string>

namespace {

using Kokkos::Impl::compute_node_share;
using Kokkos::Impl::launcher_placement;
using Kokkos::Impl::LauncherPlacement;
using Kokkos::Impl::NodeShare;

LauncherPlacement placement_from(const std::map<std::string, std::string>& env) {
  return launcher_placement([&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(NodeShare, SharesTileTheCoresWithoutOverlap) {
  for (int cores = 1; cores <= 64; ++cores) {
    for (int size = 1; size <= cores; ++size) {
      int next = 0, total_pus = 0;
      for (int rank = 0; rank < size; ++rank) {
        const NodeShare s = compute_node_share(rank, size, cores, 2);
        EXPECT_FALSE(s.oversubscribed);
        EXPECT_EQ(s.first_core, next) << cores << " cores, rank " << rank << " of " << size;
        EXPECT_GE(s.share_cores, cores / size);
        EXPECT_LE(s.share_cores, cores / size + 1);
        EXPECT_EQ(s.default_threads(), 2 * s.share_cores);
        EXPECT_EQ(s.first_processing_unit(), 2 * s.first_core);
        next += s.share_cores;
        total_pus += s.default_threads();
      }
      EXPECT_EQ(next, cores);
      EXPECT_EQ(total_pus, 2 * cores);  // together the ranks' workers never exceed the node
    }
  }
}

TEST(NodeShare, Table) {
  struct Row {
    int rank, size, cores, first, count;
  };
  const Row rows[] = {{0, 1, 8, 0, 8}, {0, 2, 8, 0, 4}, {1, 2, 8, 4, 4}, {0, 3, 8, 0, 3}, {1, 3, 8, 3, 3},
                      {2, 3, 8, 6, 2}, {3, 4, 2, 1, 1}, {0, 2, 2, 0, 1}, {1, 2, 2, 1, 1}, {5, 6, 6, 5, 1}};
  for (const Row& r : rows) {
    const NodeShare s = compute_node_share(r.rank, r.size, r.cores, 1);
    EXPECT_EQ(s.first_core, r.first) << "rank " << r.rank << " of " << r.size << " on " << r.cores;
    EXPECT_EQ(s.share_cores, r.count) << "rank " << r.rank << " of " << r.size << " on " << r.cores;
    EXPECT_EQ(s.oversubscribed, r.size > r.cores);
  }
}

TEST(NodeShare, MoreRanksThanCoresGivesOneWorkerEach) {
  for (int rank = 0; rank < 4; ++rank) {
    const NodeShare s = compute_node_share(rank, 4, 2, 2);
    EXPECT_TRUE(s.oversubscribed);
    EXPECT_EQ(s.default_threads(), 1);
    EXPECT_EQ(s.share_cores, 1);
    EXPECT_EQ(s.first_core, rank % 2);
  }
}

TEST(NodeShare, NonsenseArgumentsAreClamped) {
  const NodeShare s = compute_node_share(-3, 0, 0, 0);
  EXPECT_EQ(s.local_rank, 0);
  EXPECT_EQ(s.local_size, 1);
  EXPECT_EQ(s.cores, 1);
  EXPECT_EQ(s.default_threads(), 1);
  const NodeShare t = compute_node_share(7, 2, 4, 1);
  EXPECT_EQ(t.local_rank, 1);
  EXPECT_EQ(t.first_core, 2);
}

TEST(NodeShare, DescriptionNamesRankSizeAndCores) {
  EXPECT_EQ(Kokkos::Impl::describe_node_share(compute_node_share(1, 2, 8, 1)),
            "local rank 1 of 2 on this node, cores 4-7 of 8");
  EXPECT_EQ(Kokkos::Impl::describe_node_share(compute_node_share(3, 4, 2, 1)),
            "local rank 3 of 4 on this node, core 1 of 2 (more ranks than cores: shared)");
}

TEST(LauncherPlacement, NoLauncherMeansWholeNode) {
  const LauncherPlacement p = placement_from({});
  EXPECT_EQ(p.source, nullptr);
  EXPECT_EQ(p.local_rank, 0);
  EXPECT_EQ(p.local_size, 1);
  EXPECT_TRUE(p.problem.empty());
}

TEST(LauncherPlacement, EachLauncher) {
  struct Case {
    const char *rank_var, *size_var;
  };
  const Case cases[] = {{"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
                        {"MV2_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_SIZE"},
                        {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
                        {"PMI_LOCAL_RANK", "PMI_LOCAL_SIZE"},
                        {"SLURM_LOCALID", "SLURM_NTASKS_PER_NODE"}};
  for (const Case& c : cases) {
    const LauncherPlacement p = placement_from({{c.rank_var, "2"}, {c.size_var, "3"}});
    ASSERT_NE(p.source, nullptr) << c.rank_var;
    EXPECT_EQ(std::string(p.source), c.rank_var);
    EXPECT_EQ(p.local_rank, 2);
    EXPECT_EQ(p.local_size, 3);
    EXPECT_TRUE(p.problem.empty()) << p.problem;
  }
}

TEST(LauncherPlacement, OpenMpiWinsOverSlurmAroundIt) {
  const LauncherPlacement p = placement_from({{"SLURM_LOCALID", "0"},
                                              {"SLURM_NTASKS_PER_NODE", "1"},
                                              {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                                              {"OMPI_COMM_WORLD_LOCAL_SIZE", "4"}});
  EXPECT_EQ(p.local_rank, 1);
  EXPECT_EQ(p.local_size, 4);
}

TEST(LauncherPlacement, SlurmTasksPerNodeList) {
  // 2 tasks on each of nodes 0-2, 1 task on node 3.
  const std::map<std::string, std::string> base = {{"SLURM_TASKS_PER_NODE", "2(x3),1"}, {"SLURM_LOCALID", "0"}};
  auto on_node = [&](const char* node) {
    auto env = base;
    env["SLURM_NODEID"] = node;
    return placement_from(env);
  };
  EXPECT_EQ(on_node("0").local_size, 2);
  EXPECT_EQ(on_node("2").local_size, 2);
  EXPECT_EQ(on_node("3").local_size, 1);
  const LauncherPlacement beyond = on_node("4");
  EXPECT_EQ(beyond.local_size, 1);
  EXPECT_NE(beyond.problem.find("SLURM_TASKS_PER_NODE='2(x3),1'"), std::string::npos) << beyond.problem;
  auto env = base;
  env["SLURM_TASKS_PER_NODE"] = "2(x";
  EXPECT_FALSE(placement_from(env).problem.empty());
}

TEST(LauncherPlacement, BadValuesAreReportedAndIgnored) {
  const std::map<std::string, std::string> bad[] = {
      {{"OMPI_COMM_WORLD_LOCAL_RANK", "one"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}},
      {{"OMPI_COMM_WORLD_LOCAL_RANK", "1"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2x"}},
      {{"OMPI_COMM_WORLD_LOCAL_RANK", "-1"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}},
      {{"OMPI_COMM_WORLD_LOCAL_RANK", "2"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}},
      {{"OMPI_COMM_WORLD_LOCAL_RANK", "0"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "0"}},
      {{"OMPI_COMM_WORLD_LOCAL_RANK", ""}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}},
      {{"OMPI_COMM_WORLD_LOCAL_RANK", "0"}},
      {{"MPI_LOCALRANKID", "99999999999999999999"}, {"MPI_LOCALNRANKS", "2"}},
  };
  for (const auto& env : bad) {
    const LauncherPlacement p = placement_from(env);
    EXPECT_EQ(p.local_rank, 0);
    EXPECT_EQ(p.local_size, 1);
    EXPECT_FALSE(p.problem.empty());
    const std::string rank_var = env.begin()->first;
    EXPECT_NE(p.problem.find(rank_var), std::string::npos) << p.problem;
  }
}

// Whether this process runs on fewer processing units than the node has (under taskset, or
// mpirun --bind-to core): initialize then takes the launcher's binding as the share.
bool affinity_restricted() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) < Kokkos::Impl::host_topology().processing_units;
}

// The initialize step itself, with the variables of the first of `ranks` ranks set.
struct TakeShare {
  std::string warnings;
  Kokkos::InitializationSettings settings;
  explicit TakeShare(const char* ranks, const Kokkos::InitializationSettings& given) : settings(given) {
    const NodeShare saved = Kokkos::Impl::node_share();
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "0", 1);
    setenv("OMPI_COMM_WORLD_LOCAL_SIZE", ranks, 1);
    Kokkos::Impl::take_node_share(settings, [&](const std::string& w) { warnings += w + "\n"; });
    unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
    unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    Kokkos::Impl::set_node_share(saved);
  }
};

TEST(NodeShare, ExplicitThreadsWinButOversubscriptionIsWarned) {
  if (affinity_restricted()) GTEST_SKIP() << "the process is bound to a subset of the cores (see LauncherBinding)";
  const int pus = Kokkos::Impl::host_topology().processing_units;
  const TakeShare many("2", Kokkos::InitializationSettings().set_num_threads(pus));
  EXPECT_EQ(many.settings.get_num_threads(), pus);
  if (pus > 1 || Kokkos::Impl::host_topology().cores == 1) {
    EXPECT_NE(many.warnings.find("2 ranks on this node (OMPI_COMM_WORLD_LOCAL_RANK) x " + std::to_string(pus) +
                                 " threads"),
              std::string::npos)
        << many.warnings;
  }
  const TakeShare one("2", Kokkos::InitializationSettings().set_num_threads(1));
  EXPECT_EQ(one.settings.get_num_threads(), 1);
  if (Kokkos::Impl::host_topology().cores >= 2) {
    EXPECT_EQ(one.warnings, "");
  }
}

TEST(NodeShare, MoreRanksThanCoresIsWarnedOnceWithTheCounts) {
  if (affinity_restricted()) GTEST_SKIP() << "the process is bound to a subset of the cores (see LauncherBinding)";
  const int cores = Kokkos::Impl::host_topology().cores;
  const TakeShare t(std::to_string(cores + 1).c_str(), Kokkos::InitializationSettings());
  EXPECT_EQ(t.settings.get_num_threads(), 1);
  const std::string expected =
      std::to_string(cores + 1) + " ranks on this node (OMPI_COMM_WORLD_LOCAL_RANK) but only " + std::to_string(cores);
  EXPECT_NE(t.warnings.find(expected), std::string::npos) << t.warnings;
  EXPECT_EQ(t.warnings.find('\n'), t.warnings.size() - 1) << "one warning, got: " << t.warnings;
}

// ctest runs this under `taskset -c 0` (TestNodeShareLauncherBound): the launcher's binding is
// the share, workers default to its processing units and are not bound again by kdag.
TEST(NodeShare, LauncherBindingIsRespected) {
  if (!affinity_restricted()) GTEST_SKIP() << "runs under taskset -c 0 (ctest TestNodeShareLauncherBound)";
  const TakeShare t("2", Kokkos::InitializationSettings());
  EXPECT_EQ(t.settings.get_num_threads(), 1);
  ASSERT_TRUE(t.settings.has_bind_threads());
  EXPECT_FALSE(t.settings.get_bind_threads());
  EXPECT_EQ(t.warnings, "");
  const TakeShare more("2", Kokkos::InitializationSettings().set_num_threads(3));
  EXPECT_NE(more.warnings.find("3 threads on the 1 hardware thread the launcher bound local rank 0 to"),
            std::string::npos)
      << more.warnings;
}

TEST(NodeShare, BadLauncherValueIsWarnedAndTheWholeNodeUsed) {
  const TakeShare t("two", Kokkos::InitializationSettings());
  EXPECT_NE(t.warnings.find("OMPI_COMM_WORLD_LOCAL_SIZE='two'"), std::string::npos) << t.warnings;
  EXPECT_NE(t.warnings.find("this rank uses the whole node"), std::string::npos) << t.warnings;
}

}  // namespace

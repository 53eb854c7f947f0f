// Randomized task DAGs checked against a sequential reference, on every back end (ctest runs
// with two threads; run with --kokkos-num-threads=N for more).  Run under ThreadSanitizer.
#include "TestCommon.hpp"

#include <Kokkos_TaskScheduler.hpp>

#include <atomic>
#include <cstdint>
#include <random>
#include <vector>

namespace {

template <class Space>
struct TaskStress : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TaskStress, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

template <class Space>
using Sched = Kokkos::TaskScheduler<Space>;

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

// A random DAG: node i depends on up to `max_deps` earlier nodes.
struct RandomDag {
  std::vector<std::vector<int>> deps;
  std::vector<Kokkos::TaskPriority> priority;
  RandomDag(int n, int max_deps, unsigned seed) : deps(n), priority(n) {
    std::mt19937 rng(seed);
    for (int i = 0; i < n; ++i) {
      const int k = i == 0 ? 0 : static_cast<int>(rng() % (max_deps + 1));
      for (int j = 0; j < k; ++j) deps[i].push_back(static_cast<int>(rng() % i));
      priority[i] = static_cast<Kokkos::TaskPriority>(rng() % 3);
    }
  }
  std::vector<std::uint64_t> reference() const {
    std::vector<std::uint64_t> v(deps.size());
    for (size_t i = 0; i < deps.size(); ++i) {
      std::uint64_t s = mix(i);
      for (int d : deps[i]) s += v[d];
      v[i] = s;
    }
    return v;
  }
};

// Node i: reads its dependences' results (which must be complete) and adds its own hash.
template <class S>
struct DagNode {
  using value_type = std::uint64_t;
  using future_u64 = typename S::template future_type<std::uint64_t>;
  const RandomDag* dag;
  const std::vector<future_u64>* futures;
  int i;
  void operator()(typename S::member_type&, std::uint64_t& r) {
    std::uint64_t s = mix(static_cast<std::uint64_t>(i));
    for (int d : dag->deps[i]) {
      const future_u64& f = (*futures)[d];
      if (!f.is_ready()) Kokkos::abort("DagNode: a dependence is not complete");
      s += f.get();
    }
    r = s;
  }
};

template <class S>
typename S::template future_type<void> dependence_of(const RandomDag& dag, int i,
                                                     const std::vector<typename S::template future_type<std::uint64_t>>& fs,
                                                     const S& sched) {
  const auto& d = dag.deps[i];
  if (d.empty()) return {};
  if (d.size() == 1) return fs[d[0]];
  return sched.when_all(static_cast<int>(d.size()), [&](int k) { return fs[d[k]]; });
}

// Built from the host; every node waits on its dependences through a when_all aggregate.
TYPED_TEST(TaskStress, HostBuiltRandomDags) {
  using S = Sched<TypeParam>;
  S sched(typename S::memory_space(), 8 << 20, 64, 1024, 4096);
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const RandomDag dag(3000, 4, seed);
    std::vector<typename S::template future_type<std::uint64_t>> fs(dag.deps.size());
    for (size_t i = 0; i < fs.size(); ++i) {
      auto dep = dependence_of(dag, static_cast<int>(i), fs, sched);
      fs[i] = dep.is_null() ? Kokkos::host_spawn(Kokkos::TaskSingle(sched, dag.priority[i]),
                                                 DagNode<S>{&dag, &fs, static_cast<int>(i)})
                            : Kokkos::host_spawn(Kokkos::TaskSingle(sched, dep, dag.priority[i]),
                                                 DagNode<S>{&dag, &fs, static_cast<int>(i)});
      ASSERT_FALSE(fs[i].is_null());
    }
    Kokkos::wait(sched);
    const auto ref = dag.reference();
    for (size_t i = 0; i < fs.size(); ++i) ASSERT_EQ(fs[i].get(), ref[i]) << "seed " << seed << " node " << i;
    fs.clear();
    EXPECT_EQ(sched.queue().allocation_count(), 0);
  }
}

// Built from inside a task: a builder spawns the nodes in batches and respawns itself behind
// the batch, so spawning races with execution of the earlier nodes.
template <class S>
struct Builder {
  S sched;
  const RandomDag* dag;
  std::vector<typename S::template future_type<std::uint64_t>>* fs;
  int next = 0;
  void operator()(typename S::member_type&) {
    const int n = static_cast<int>(dag->deps.size());
    const int end = next + 97 < n ? next + 97 : n;
    for (int i = next; i < end; ++i) {
      auto dep = dependence_of(*dag, i, *fs, sched);
      (*fs)[i] = Kokkos::task_spawn(Kokkos::TaskSingle(sched, dep, dag->priority[i]), DagNode<S>{dag, fs, i});
      if ((*fs)[i].is_null()) Kokkos::abort("Builder: pool exhausted");
    }
    const int begin = next;
    next = end;
    if (next < n) {
      // Half the time wait for the batch, half the time just go on.
      if ((begin / 97) % 2)
        Kokkos::respawn(this, sched.when_all(end - begin, [&](int k) { return (*fs)[begin + k]; }),
                        Kokkos::TaskPriority::Low);
      else
        Kokkos::respawn(this, sched, Kokkos::TaskPriority::Regular);
    }
  }
};

TYPED_TEST(TaskStress, TaskBuiltRandomDags) {
  using S = Sched<TypeParam>;
  S sched(typename S::memory_space(), 8 << 20, 64, 1024, 4096);
  for (unsigned seed = 11; seed <= 16; ++seed) {
    const RandomDag dag(3000, 3, seed);
    std::vector<typename S::template future_type<std::uint64_t>> fs(dag.deps.size());
    Kokkos::host_spawn(Kokkos::TaskSingle(sched), Builder<S>{sched, &dag, &fs});
    Kokkos::wait(sched);
    const auto ref = dag.reference();
    for (size_t i = 0; i < fs.size(); ++i) ASSERT_EQ(fs[i].get(), ref[i]) << "seed " << seed << " node " << i;
    fs.clear();
    EXPECT_EQ(sched.queue().allocation_count(), 0);
  }
}

// A random tree unfolded by the tasks themselves: each node spawns 0..4 children with random
// priorities, respawns behind when_all of them, and then sums their results.
template <class S>
struct TreeNode {
  using value_type = long;
  S sched;
  std::uint64_t key;
  int depth;
  std::atomic<long>* executions;
  typename S::template future_type<long> kids[4] = {};
  int nkids = -1;

  static int children(std::uint64_t key, int depth) { return depth == 0 ? 0 : static_cast<int>(mix(key) % 5); }

  void operator()(typename S::member_type& m, long& r) {
    executions->fetch_add(1, std::memory_order_relaxed);
    if (nkids < 0) {
      nkids = children(key, depth);
      if (nkids == 0) {
        r = 1;
        return;
      }
      for (int k = 0; k < nkids; ++k) {
        const auto p = static_cast<Kokkos::TaskPriority>(mix(key + k) % 3);
        kids[k] = Kokkos::task_spawn(Kokkos::TaskSingle(m.scheduler(), p),
                                     TreeNode{sched, key * 5 + k + 1, depth - 1, executions});
        if (kids[k].is_null()) Kokkos::abort("TreeNode: pool exhausted");
      }
      Kokkos::respawn(this, Kokkos::when_all(kids, nkids), static_cast<Kokkos::TaskPriority>(key % 3));
      return;
    }
    r = 1;
    for (int k = 0; k < nkids; ++k) r += kids[k].get();
  }
};

long tree_size(std::uint64_t key, int depth, long& internal) {
  const int n = depth == 0 ? 0 : static_cast<int>(mix(key) % 5);
  long s = 1;
  if (n > 0) ++internal;
  for (int k = 0; k < n; ++k) s += tree_size(key * 5 + k + 1, depth - 1, internal);
  return s;
}

TYPED_TEST(TaskStress, RandomTreesWithRespawn) {
  using S = Sched<TypeParam>;
  S sched(typename S::memory_space(), 16 << 20, 64, 1024, 4096);
  for (std::uint64_t root : {3u, 7u, 12345u, 99u}) {
    long internal = 0;
    const long expected = tree_size(root, 9, internal);
    std::atomic<long> executions{0};
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), TreeNode<S>{sched, root, 9, &executions});
    Kokkos::wait(sched);
    EXPECT_EQ(f.get(), expected) << "root " << root;
    EXPECT_EQ(executions.load(), expected + internal);  // internal nodes run twice
  }
  EXPECT_EQ(sched.queue().allocation_count(), 0);
}

// Many small waits in a row: termination detection must neither hang nor return early.
TYPED_TEST(TaskStress, ManyShortWaits) {
  using S = Sched<TypeParam>;
  S sched(typename S::memory_space(), 1 << 20, 64, 1024, 4096);
  std::atomic<long> executions{0};
  for (int rep = 0; rep < 300; ++rep) {
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), TreeNode<S>{sched, static_cast<std::uint64_t>(rep), 3, &executions});
    Kokkos::wait(sched);
    long internal = 0;
    ASSERT_EQ(f.get(), tree_size(rep, 3, internal));
  }
}

}  // namespace

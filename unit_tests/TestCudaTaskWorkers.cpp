// TaskScheduler<Cuda>'s workers in blocks of several warps (Experimental::CudaTaskWorkers): a
// shape is checked when it is set, a scheduler left to choose times its candidate shapes on the
// GPU and keeps one, and on a GPU every shape runs the same DAGs to the same results: Fibonacci
// with when_all and respawn (TaskSingle tasks, one per lane), and TaskTeam tasks whose team
// collectives must stay within their warp while the block's other warps run other tasks.  CUDA
// builds only; the tests that launch skip, with the reason, without a GPU.
#include "TaskFibonacci.hpp"
#include "TestCommon.hpp"

#include <string>
#include <vector>

namespace {

using Scheduler = Kokkos::TaskScheduler<Kokkos::Cuda>;
using Kokkos::Experimental::CudaTaskWorkers;

// The message a shape is refused with, or empty when it is accepted.
std::string refusal_of(const CudaTaskWorkers& shape) {
  try {
    Kokkos::Impl::cuda_task_check_workers(shape);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

TEST(CudaTaskWorkers, ShapesAreCheckedBeforeAnyLaunch) {
  EXPECT_EQ(refusal_of(CudaTaskWorkers{}), "");
  EXPECT_EQ(CudaTaskWorkers{}.blocks_per_sm, 8);
  EXPECT_EQ(CudaTaskWorkers{}.warps_per_block, 1);
  EXPECT_EQ(refusal_of({1, 1}), "");
  EXPECT_EQ(refusal_of({1, 8}), "");
  EXPECT_EQ(refusal_of({1000, 8}), "") << "more blocks than fit: wait() launches those that fit";
  EXPECT_NE(refusal_of({1, 0}).find("warps_per_block is 0; a worker block has 1 to 8 warps"), std::string::npos)
      << refusal_of({1, 0});
  EXPECT_NE(refusal_of({1, 9}).find("warps_per_block is 9"), std::string::npos);
  EXPECT_NE(refusal_of({1, -2}).find("warps_per_block is -2"), std::string::npos);
  EXPECT_NE(refusal_of({0, 1}).find("blocks_per_sm is 0; wait() needs at least one block per SM"), std::string::npos)
      << refusal_of({0, 1});
  EXPECT_NE(refusal_of({-1, 4}).find("blocks_per_sm is -1"), std::string::npos);
}

// One block of one warp per SM, the default, blocks of 4 and of 8, and as many blocks of 8 as fit.
const CudaTaskWorkers shapes[] = {{1, 1}, {8, 1}, {2, 4}, {1, 8}, {1000, 8}};

int sm_count() {
  int device = 0, count = 0;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetDevice(&device));
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

TEST(CudaTaskWorkers, SetAndReadBackAndRefuseWithoutChange) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  Scheduler sched(Scheduler::memory_space(), 1 << 20, 64, 1024, 4096);
  EXPECT_EQ(Kokkos::Experimental::task_workers(sched).blocks_per_sm, 8);
  EXPECT_EQ(Kokkos::Experimental::task_workers(sched).warps_per_block, 1);
  Kokkos::Experimental::set_task_workers(sched, {3, 4});
  EXPECT_EQ(Kokkos::Experimental::task_workers(sched).blocks_per_sm, 3);
  EXPECT_EQ(Kokkos::Experimental::task_workers(sched).warps_per_block, 4);
  EXPECT_THROW(Kokkos::Experimental::set_task_workers(sched, {3, 9}), std::runtime_error);
  EXPECT_EQ(Kokkos::Experimental::task_workers(sched).warps_per_block, 4) << "a refused shape changed the scheduler";
  const Scheduler copy = sched;  // the shape belongs to the scheduler, not to one handle
  EXPECT_EQ(Kokkos::Experimental::task_workers(copy).blocks_per_sm, 3);
  Kokkos::Experimental::set_task_workers(copy, Kokkos::AUTO);
  EXPECT_EQ(Kokkos::Experimental::task_workers(sched).blocks_per_sm, 8) << "no run timed yet: the first candidate";
  EXPECT_EQ(Kokkos::Experimental::task_workers(sched).warps_per_block, 1);
}

// By default the scheduler's runs go through its candidate shapes, each timed on the GPU, and keep
// one of them; every run computes the same results whatever shape it launched.
TEST(CudaTaskWorkers, TheSchedulerTimesEachCandidateAndKeepsOne) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  using Fibonacci = Kokkos::Test::TaskFibonacci<Scheduler>;
  Scheduler sched(Scheduler::memory_space(), 21 * 21 * 64000, 64, 1024, 4096);
  const auto& choice = sched.queue().m_worker_choice;
  ASSERT_TRUE(choice.measuring());
  const int sms = sm_count();
  const int sampling = static_cast<int>(choice.choice().sampling_length());
  std::vector<int> workers;
  for (int run = 0; run < sampling + 3; ++run) {
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fibonacci(sched, 20));
    ASSERT_FALSE(f.is_null());
    Kokkos::wait(sched);
    ASSERT_EQ(f.get(), Kokkos::Test::serial_fibonacci(20)) << "run " << run;
    workers.push_back(sched.queue().m_workers);
  }
  for (int way = 0; way < choice.candidate_count(); ++way) {
    const double ns = choice.choice().time_ns(way);
    EXPECT_GT(ns, 0) << "candidate " << way;
    EXPECT_LT(ns, 1e6) << "candidate " << way << ": ns per task";
  }
  const CudaTaskWorkers kept = Kokkos::Experimental::task_workers(sched);
  bool is_candidate = false;
  for (const CudaTaskWorkers& c : Kokkos::Impl::cuda_task_worker_candidates)
    is_candidate = is_candidate || (c.blocks_per_sm == kept.blocks_per_sm && c.warps_per_block == kept.warps_per_block);
  EXPECT_TRUE(is_candidate) << kept.blocks_per_sm << " blocks of " << kept.warps_per_block << " warps";
  for (int run = sampling; run < sampling + 3; ++run) {
    const int w = workers[std::size_t(run)];
    EXPECT_EQ(w % (kept.warps_per_block * sms), 0) << "run " << run << " launched " << w << " warps";
    EXPECT_LE(w, kept.blocks_per_sm * kept.warps_per_block * sms) << "run " << run;
  }
  EXPECT_EQ(sched.queue().allocation_count(), 0);
}

TEST(CudaTaskWorkers, FibonacciOnEveryShape) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  using Fibonacci = Kokkos::Test::TaskFibonacci<Scheduler>;
  Scheduler sched(Scheduler::memory_space(), 27 * 27 * 64000, 64, 1024, 4096);
  const int sms = sm_count();
  for (const CudaTaskWorkers& shape : shapes) {
    Kokkos::Experimental::set_task_workers(sched, shape);
    const std::string where =
        std::to_string(shape.blocks_per_sm) + " blocks of " + std::to_string(shape.warps_per_block) + " warps";
    for (long n : {0L, 1L, 2L, 15L, 22L}) {
      const auto before = sched.queue().host_totals();
      auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fibonacci(sched, n));
      ASSERT_FALSE(f.is_null());
      Kokkos::wait(sched);
      ASSERT_NE(f.get(), Fibonacci::out_of_memory) << where << ", n = " << n;
      ASSERT_EQ(f.get(), Kokkos::Test::serial_fibonacci(n)) << where << ", n = " << n;
      const long tasks = 2 * Kokkos::Test::serial_fibonacci(n + 1) - 1, inner = (tasks - 1) / 2;
      EXPECT_EQ(sched.queue().host_totals().tasks_run - before.tasks_run, tasks + inner) << where << ", n = " << n;
    }
    const int workers = sched.queue().m_workers;
    EXPECT_EQ(workers % (shape.warps_per_block * sms), 0) << where << ": " << workers << " workers";
    EXPECT_GE(workers, shape.warps_per_block * sms) << where;
    EXPECT_LE(workers, shape.blocks_per_sm * shape.warps_per_block * sms) << where;
  }
  EXPECT_EQ(sched.queue().allocation_count(), 0);
}

// A TaskTeam task that runs every team collective and checks each on every rank: team_reduce,
// team_scan (with and without a global counter), team_broadcast, team_barrier, and the
// TeamThreadRange and TeamVectorRange reductions and scans.  Its value: the number of ranks
// that found every result right, times 1000, plus the reduction over TeamThreadRange mod 1000.
struct TeamCollectives {
  using value_type = long;
  long seed;
  long* counter;   // every task's team_scan adds its team's size here
  long* scratch;   // 32 slots per task, for the barrier's check

  KOKKOS_INLINE_FUNCTION void operator()(Scheduler::member_type& m, long& result) const {
    const int r = m.team_rank(), n = m.team_size();
    bool ok = true;

    long sum = seed + r;
    m.team_reduce(Kokkos::Sum<long>(sum));
    ok = ok && sum == n * seed + long(n) * (n - 1) / 2;

    // Every rank calls every collective: none is behind a condition.
    const long prefix = m.team_scan(long(r + 1));
    ok = ok && prefix == long(r) * (r + 1) / 2;
    const long ticket = m.team_scan(1L, counter);  // the team's n tickets are consecutive
    long first_ticket = ticket;
    m.team_broadcast(first_ticket, 0);
    ok = ok && ticket == first_ticket + r && first_ticket % n == 0;

    const int source = int(seed % n);
    long broadcast = 1000L * r + seed;
    m.team_broadcast(broadcast, source);
    ok = ok && broadcast == 1000L * source + seed;

    scratch[r] = seed * r;
    m.team_barrier();
    ok = ok && scratch[(r + 1) % n] == seed * ((r + 1) % n);

    const long length = 100 + seed % 50;
    long thread_sum = 0;
    Kokkos::parallel_reduce(Kokkos::TeamThreadRange(m, length), [&](long i, long& s) { s += i * seed; }, thread_sum);
    ok = ok && thread_sum == seed * length * (length - 1) / 2;

    long scan_total = 0;
    long wrong_prefixes = 0;
    Kokkos::parallel_scan(
        Kokkos::TeamThreadRange(m, length),
        [&](long i, long& partial, const bool final) {
          if (final && partial != i * (i - 1) / 2 + i * seed) ++wrong_prefixes;
          partial += i + seed;
        },
        scan_total);
    ok = ok && wrong_prefixes == 0 && scan_total == length * (length - 1) / 2 + length * seed;

    long vector_sum = 0;
    Kokkos::parallel_reduce(Kokkos::TeamVectorRange(m, length), [&](long i, long& s) { s += i; }, vector_sum);
    ok = ok && vector_sum == length * (length - 1) / 2;

    long right = ok ? 1 : 0;
    m.team_reduce(Kokkos::Sum<long>(right));
    if (r == 0) result = right * 1000 + thread_sum % 1000;
  }
};

TEST(CudaTaskWorkers, TeamCollectivesStayInTheirWarpOnEveryShape) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  Scheduler sched(Scheduler::memory_space(), 1 << 22, 64, 1024, 4096);
  constexpr int tasks = 2048;  // ready at once, so that the warps of a block run team tasks side by side
  Kokkos::View<long, Kokkos::CudaSpace> counter("counter");
  Kokkos::View<long*, Kokkos::CudaSpace> scratch("scratch", std::size_t(tasks) * 32);
  for (const CudaTaskWorkers& shape : shapes) {
    Kokkos::Experimental::set_task_workers(sched, shape);
    const std::string where =
        std::to_string(shape.blocks_per_sm) + " blocks of " + std::to_string(shape.warps_per_block) + " warps";
    Kokkos::deep_copy(counter, 0L);
    std::vector<Scheduler::future_type<long>> f;
    for (int k = 0; k < tasks; ++k) {
      f.push_back(Kokkos::host_spawn(Kokkos::TaskTeam(sched),
                                     TeamCollectives{k + 1, counter.data(), scratch.data() + std::size_t(k) * 32}));
      ASSERT_FALSE(f.back().is_null());
    }
    Kokkos::wait(sched);
    for (int k = 0; k < tasks; ++k) {
      const long seed = k + 1, length = 100 + seed % 50;
      ASSERT_EQ(f[std::size_t(k)].get(), 32 * 1000 + (seed * length * (length - 1) / 2) % 1000) << where << ", task " << k;
    }
    long issued = 0;
    Kokkos::deep_copy(issued, counter);
    EXPECT_EQ(issued, 32L * tasks) << where;
  }
}

}  // namespace

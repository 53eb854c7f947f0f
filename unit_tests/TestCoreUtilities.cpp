// Spaces, traits, configuration print-out, HostSpace, topology, Timer, bit functions, printf, abort.
#include "TestCommon.hpp"
#include <impl/fusion/Kokkos_FusionDispatchChoice.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <Host/Kokkos_HostParallelReduce.hpp>
#include <impl/Kokkos_MeasuredChoice.hpp>
#include <impl/Kokkos_Topology.hpp>

#include <cstring>
#include <sstream>
#include <thread>
#include <vector>

namespace {

template <class Space>
struct ExecSpace : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(ExecSpace, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(ExecSpace, TraitsAndTypedefs) {
  using S = TypeParam;
  static_assert(Kokkos::is_execution_space_v<S>);
  static_assert(!Kokkos::is_memory_space_v<S>);
  static_assert(std::is_same_v<typename S::memory_space, Kokkos::HostSpace>);
  static_assert(std::is_same_v<typename S::device_type, Kokkos::Device<S, Kokkos::HostSpace>>);
  static_assert(std::is_same_v<typename S::execution_space, S>);
  static_assert(Kokkos::SpaceAccessibility<S, Kokkos::HostSpace>::accessible);
}

TYPED_TEST(ExecSpace, ConcurrencyNameFence) {
  TypeParam space;
  EXPECT_GE(space.concurrency(), 1);
  EXPECT_GE(TypeParam::concurrency(), 1);
  EXPECT_EQ(space.impl_thread_pool_size(), TypeParam::concurrency());
  EXPECT_FALSE(std::string(TypeParam::name()).empty());
  space.fence();
  space.fence("labelled fence");
  Kokkos::fence();
  Kokkos::fence("global labelled fence");
  std::ostringstream os;
  space.print_configuration(os);
  EXPECT_NE(os.str().find(TypeParam::name()), std::string::npos) << os.str();
}

TEST(ExecSpace, OpenMPPoolHasTheRequestedThreads) {
#if defined(KOKKOS_ENABLE_OPENMP)
  // ctest runs every unit test with --kokkos-num-threads=2.
  if (Kokkos::OpenMP::concurrency() < 2) GTEST_SKIP() << "run with --kokkos-num-threads=2";
  std::vector<int> ranks(Kokkos::OpenMP::concurrency(), 0);
  Kokkos::OpenMP().impl_run_on_workers([&](int rank, int size) {
    EXPECT_EQ(size, Kokkos::OpenMP::concurrency());
    ranks[rank] = 1;
  });
  for (int r : ranks) EXPECT_EQ(r, 1);
#else
  GTEST_SKIP() << "OpenMP back end not enabled";
#endif
}

TEST(ExecSpace, DefaultSpaces) {
  static_assert(Kokkos::is_execution_space_v<Kokkos::DefaultExecutionSpace>);
  static_assert(Kokkos::is_execution_space_v<Kokkos::DefaultHostExecutionSpace>);
  static_assert(Kokkos::is_memory_space_v<Kokkos::HostSpace>);
  static_assert(Kokkos::is_device<Kokkos::Device<Kokkos::DefaultExecutionSpace, Kokkos::HostSpace>>::value);
  static_assert(std::is_same_v<Kokkos::Impl::SpaceTraits<Kokkos::HostSpace>::memory_space, Kokkos::HostSpace>);
  EXPECT_TRUE(Kokkos::is_initialized());
}

TEST(Configuration, PrintListsBackEndsAndTopology) {
  std::ostringstream os;
  Kokkos::print_configuration(os, true);
  const std::string text = os.str();
  EXPECT_NE(text.find("Default execution space: "), std::string::npos);
  EXPECT_NE(text.find(Kokkos::DefaultExecutionSpace::name()), std::string::npos);
  EXPECT_NE(text.find("Host topology"), std::string::npos);
  EXPECT_NE(text.find("Task team size"), std::string::npos);
}

TEST(Topology, CountsAreConsistent) {
  const auto& topo = Kokkos::Impl::host_topology();
  EXPECT_GE(topo.cores, 1);
  EXPECT_GE(topo.processing_units, topo.cores);
  EXPECT_EQ(topo.threads_per_core, topo.processing_units / topo.cores);
#if defined(KOKKOS_ENABLE_HWLOC)
  EXPECT_TRUE(topo.from_hwloc);
#endif
  const int team = Kokkos::Experimental::task_team_size();
  EXPECT_GE(team, 1);
  EXPECT_LE(team, Kokkos::DefaultHostExecutionSpace::concurrency());
}

TEST(HostSpace, AllocateAlignedAndWritable) {
  Kokkos::HostSpace space;
  EXPECT_STREQ(Kokkos::HostSpace::name(), "Host");
  EXPECT_EQ(space.allocate("zero", 0), nullptr);
  for (std::size_t bytes : {1u, 63u, 64u, 1000u, 1u << 20}) {
    auto* p = static_cast<unsigned char*>(space.allocate("test", bytes));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % Kokkos::HostSpace::alignment, 0u);
    for (std::size_t i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(i);
    for (std::size_t i = 0; i < bytes; ++i) ASSERT_EQ(p[i], static_cast<unsigned char>(i));
    space.deallocate("test", p, bytes);
  }
}

TEST(HostSpace, OutOfMemoryThrowsNamingTheLabel) {
  Kokkos::HostSpace space;
  try {
    void* p = space.allocate("huge", std::size_t(1) << 62);
    space.deallocate(p, std::size_t(1) << 62);
    FAIL() << "allocating 2^62 bytes succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("\"huge\""), std::string::npos) << e.what();
  }
}

TEST(Timer, MeasuresElapsedTimeAndResets) {
  Kokkos::Timer timer;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double t = timer.seconds();
  EXPECT_GE(t, 0.019);
  timer.reset();
  EXPECT_LT(timer.seconds(), t);
}

TEST(BitManipulation, MatchesStandardLibrary) {
  static_assert(Kokkos::bit_ceil(0u) == 1u);
  static_assert(Kokkos::bit_ceil(1u) == 1u);
  static_assert(Kokkos::bit_ceil(5u) == 8u);
  static_assert(Kokkos::bit_width(0u) == 0u);
  static_assert(Kokkos::bit_width(8u) == 4u);
  for (unsigned long long x : {1ull, 2ull, 3ull, 4ull, 1000ull, (1ull << 40) + 1, (1ull << 63)}) {
    EXPECT_EQ(Kokkos::bit_ceil(x), std::bit_ceil(x)) << x;
    EXPECT_EQ(Kokkos::bit_width(x), static_cast<unsigned long long>(std::bit_width(x))) << x;
    EXPECT_EQ(Kokkos::bit_floor(x), std::bit_floor(x)) << x;
    EXPECT_EQ(Kokkos::countl_zero(x), std::countl_zero(x)) << x;
    EXPECT_EQ(Kokkos::countr_zero(x), std::countr_zero(x)) << x;
    EXPECT_EQ(Kokkos::popcount(x), std::popcount(x)) << x;
    EXPECT_EQ(Kokkos::has_single_bit(x), std::has_single_bit(x)) << x;
  }
  for (std::uint8_t x = 1; x < 128; ++x) EXPECT_EQ(Kokkos::bit_ceil(x), std::bit_ceil(x));
}

TEST(Printf, FormatsLikePrintf) {
  testing::internal::CaptureStdout();
  Kokkos::printf("value %d and %.1f\n", 42, 2.5);
  Kokkos::printf("plain 100%% text\n");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "value 42 and 2.5\nplain 100% text\n");
}

TYPED_TEST(ExecSpace, AbortInsideFunctorPrintsMessage) {
  EXPECT_DEATH(Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(0, 4),
                                    [](std::int64_t i) {
                                      if (i == 3) Kokkos::abort("functor gave up at index 3");
                                    }),
               "functor gave up at index 3");
}

// Range blocks tile [first, last) in rank order, differ in size by less than two granules (the
// last one holds the partial granule), and
// start on a granule boundary (relative to first) once every worker gets 16 granules or more.
TEST(HostBackend, RangeBlocksTileTheRangeOnGranuleBoundaries) {
  using Kokkos::Impl::range_block;
  constexpr std::int64_t g = Kokkos::Impl::range_block_granule;
  for (int size : {1, 2, 3, 7, 64}) {
    for (std::int64_t first : {std::int64_t(0), std::int64_t(5), std::int64_t(-100)}) {
      for (std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(100), g * 16 * size - 1, g * 16 * size,
                             std::int64_t(1000003)}) {
        const std::int64_t last = first + n;
        std::int64_t expected_begin = first, smallest = n, largest = 0;
        for (int rank = 0; rank < size; ++rank) {
          const auto b = range_block(first, last, rank, size);
          ASSERT_EQ(b.begin, expected_begin) << "size " << size << " n " << n << " rank " << rank;
          ASSERT_LE(b.begin, b.end);
          if (size > 1 && n >= g * 16 * size && rank > 0) {
            EXPECT_EQ((b.begin - first) % g, 0) << "rank " << rank;
          }
          smallest = std::min(smallest, b.end - b.begin);
          largest = std::max(largest, b.end - b.begin);
          expected_begin = b.end;
        }
        EXPECT_EQ(expected_begin, last);
        EXPECT_LE(largest - smallest, n >= g * 16 * size && size > 1 ? 2 * g - 1 : 1) << "size " << size << " n " << n;
      }
    }
  }
}


// The sequential stand-in for a space's workers calls every rank of the space's size, in order,
// on the calling thread; host_reduce run through it joins exactly as on the workers.
TEST(HostBackend, SequentialWorkersRunEveryRankInOrderOnTheCaller) {
  Kokkos::DefaultHostExecutionSpace space;
  const Kokkos::Impl::HostSequentialWorkers<Kokkos::DefaultHostExecutionSpace> sequential{space};
  EXPECT_EQ(sequential.impl_thread_pool_size(), space.impl_thread_pool_size());
  std::vector<int> ranks;
  const auto caller = std::this_thread::get_id();
  sequential.impl_run_on_workers([&](int rank, int size) {
    EXPECT_EQ(size, space.impl_thread_pool_size());
    EXPECT_EQ(std::this_thread::get_id(), caller);
    ranks.push_back(rank);
  });
  ASSERT_EQ(static_cast<int>(ranks.size()), space.impl_thread_pool_size());
  for (int r = 0; r < static_cast<int>(ranks.size()); ++r) EXPECT_EQ(ranks[r], r);

  // A floating-point sum whose value depends on the split and the join order.
  const std::int64_t n = 100003;
  auto sum_on = [&](const auto& workers) {
    double total = 0;
    const Kokkos::Impl::ReducerAdapter<Kokkos::Sum<double>> reducer{Kokkos::Sum<double>(total)};
    Kokkos::Impl::host_reduce(workers, reducer, &total, [&](int rank, int size, double& acc) {
      const auto block = Kokkos::Impl::range_block<std::int64_t>(0, n, rank, size);
      for (std::int64_t i = block.begin; i < block.end; ++i) acc += 1.0 / double(i + 1);
    });
    return total;
  };
  const double parallel = sum_on(space), sequential_sum = sum_on(sequential);
  EXPECT_EQ(std::memcmp(&parallel, &sequential_sum, sizeof(double)), 0) << parallel << " vs " << sequential_sum;
}

// The adaptive dispatch of a memoized fused run: each epoch runs each eligible way once
// untimed and twice timed (workers, caller, short chunks, long chunks, unfused), then keeps
// the fastest.
TEST(HostBackend, FusionDispatchChoiceTimesEveryEligibleWayAndKeepsTheFastest) {
  using Choice = Kokkos::Impl::FusionDispatchChoice;
  using Way = Choice::Way;
  constexpr std::uint32_t block = Choice::warmup_per_way + Choice::samples_per_way;
  struct Times {
    double workers, caller, short_chunks, long_chunks, unfused;
    double of(Way w) const {
      switch (w) {
        case Way::workers: return workers;
        case Way::caller: return caller;
        case Way::short_chunks: return short_chunks;
        case Way::long_chunks: return long_chunks;
        case Way::unfused: return unfused;
      }
      return 0;
    }
  };
  // chunks_differ: both the long and the short chunks differ from the workers' way.
  auto decide = [](Choice& c, int workers, bool chunks_differ, const Times& t) {
    const Choice::Decision d = c.next(workers, chunks_differ, chunks_differ);
    if (d.timed) c.record(d.way, t.of(d.way));
    return d;
  };
  {
    // Epochs 0 and 2: the caller is fastest; epoch 1: unfused.  Way order and warm-ups.
    Choice c;
    std::uint32_t length = Choice::epoch;
    for (int epoch = 0; epoch < 3; ++epoch) {
      const Times t = epoch == 1 ? Times{5000, 9000, 5900, 6000, 4000} : Times{5000, 3000, 4400, 6000, 7000};
      const Way best = epoch == 1 ? Way::unfused : Way::caller;
      EXPECT_EQ(c.epoch_length(), length) << epoch;
      for (std::uint32_t k = 0; k < length; ++k) {
        const auto d = decide(c, 2, true, t);
        if (k < Choice::num_ways * block) {
          EXPECT_EQ(d.way, static_cast<Way>(k / block)) << "epoch " << epoch << " execution " << k;
          EXPECT_EQ(d.timed, k % block >= Choice::warmup_per_way) << k;
        } else {
          EXPECT_EQ(d.way, best) << "epoch " << epoch << " execution " << k;
          EXPECT_FALSE(d.timed) << k;
        }
      }
      for (Way w : {Way::workers, Way::caller, Way::short_chunks, Way::long_chunks, Way::unfused}) {
        EXPECT_EQ(c.time_ns(w), t.of(w));
      }
    }
  }
  {
    // One worker: the caller is the worker, never tried; a block that fits one chunk: long
    // and short chunks would be the same execution, never tried.  A settled winner's epochs
    // grow.
    Choice one;
    for (std::uint32_t k = 0; k < 8 * Choice::max_epoch; ++k) {
      const auto d = decide(one, 1, false, Times{5000, 1, 1, 1, 7000});
      EXPECT_TRUE(d.way == Way::workers || d.way == Way::unfused) << k;
    }
    EXPECT_GT(one.time_ns(Way::caller), 1e300);
    EXPECT_GT(one.time_ns(Way::short_chunks), 1e300);
    EXPECT_GT(one.time_ns(Way::long_chunks), 1e300);
    EXPECT_EQ(one.epoch_length(), Choice::max_epoch);
  }
  {
    // Blocks longer than one short chunk but not than one chunk: only the short chunks differ.
    Choice c;
    for (std::uint32_t k = 0; k < Choice::epoch; ++k) {
      const Choice::Decision d = c.next(2, false, true);
      EXPECT_NE(d.way, Way::long_chunks) << k;
      if (d.timed) c.record(d.way, Times{5000, 6000, 4000, 1, 7000}.of(d.way));
    }
    EXPECT_EQ(c.time_ns(Way::short_chunks), 4000);
    EXPECT_GT(c.time_ns(Way::long_chunks), 1e300);
  }
  {
    // A way 1.5x slower than the fastest for two epochs is dropped: unfused at 8x.
    Choice c;
    std::uint32_t unfused_runs = 0, executions = 0;
    for (; executions < 2 * Choice::epoch + 256; ++executions) {
      unfused_runs += decide(c, 2, true, Times{1000, 900, 1050, 1100, 8000}).way == Way::unfused ? 1 : 0;
    }
    EXPECT_TRUE(c.dropped(Way::unfused));
    EXPECT_FALSE(c.dropped(Way::workers));
    EXPECT_FALSE(c.dropped(Way::short_chunks));
    EXPECT_FALSE(c.dropped(Way::long_chunks));  // 1.22x: a close call stays timed
    EXPECT_EQ(unfused_runs, 2 * block);         // its two epochs' probes, then never again
  }
  {
    // Tiny runs: the caller is 12x faster, so the workers' and unfused ways are dropped after
    // two epochs.  The caller stays eligible (it remembers the run's one-core time), and the
    // dropped ways' slots at the start of later epochs run the settled caller, not way 0.
    Choice c;
    std::uint32_t after_drop = 0, on_caller = 0;
    for (std::uint32_t k = 0; k < 4 * Choice::max_epoch; ++k) {
      const auto d = decide(c, 2, false, Times{7000, 570, 1, 1, 7000});
      if (c.dropped(Way::workers)) {
        ++after_drop;
        on_caller += d.way == Way::caller ? 1 : 0;
      }
    }
    EXPECT_TRUE(c.dropped(Way::unfused));
    EXPECT_GT(after_drop, 2 * Choice::max_epoch);
    EXPECT_EQ(on_caller, after_drop);
    EXPECT_EQ(c.time_ns(Way::caller), 570);
  }
  // A noisy (preempted) sample does not hide a fast one: the minimum counts.
  Choice noisy;
  decide(noisy, 2, true, Times{0, 0, 0, 0, 0});  // warm-up, untimed
  noisy.record(Way::workers, 80000);
  noisy.record(Way::workers, 4000);
  EXPECT_EQ(noisy.time_ns(Way::workers), 4000);
  // A long run (100 us or more of work on one core) is never tried on the caller.
  Choice longer;
  for (std::uint32_t k = 0; k < 2 * Choice::epoch; ++k) {
    const auto d = decide(longer, 4, true, Times{60000, 1, 65000, 70000, 90000});
    EXPECT_NE(d.way, Way::caller) << k;
  }
  EXPECT_GT(longer.time_ns(Way::caller), 1e300);  // never measured
}

// The N-way measured choice: each epoch runs every way warmup_per_way + samples_per_way times
// in a row, way 0 first, timing all but the warm-up, then runs the fastest; fresh times each
// epoch.
TEST(MeasuredChoice, TimesEveryWayThenRunsTheFastest) {
  using Choice = Kokkos::Impl::MeasuredChoice;
  const Choice::Options options{.samples_per_way = 2, .warmup_per_way = 1, .epoch = 16, .max_epoch = 16};
  Choice c(3, options);
  EXPECT_EQ(c.ways(), 3);
  for (int epoch = 0; epoch < 3; ++epoch) {
    // Way 2 is fastest, except in epoch 1 where way 1 is.
    const double ns[3] = {300, epoch == 1 ? 50.0 : 200.0, 100};
    for (std::uint32_t k = 0; k < options.epoch; ++k) {
      const auto d = c.next();
      if (k < 9) {
        EXPECT_EQ(d.way, static_cast<int>(k / 3)) << "epoch " << epoch << " execution " << k;
        EXPECT_EQ(d.timed, k % 3 != 0) << "epoch " << epoch << " execution " << k;  // k % 3 == 0: warm-up
      } else {
        EXPECT_EQ(d.way, epoch == 1 ? 1 : 2) << "epoch " << epoch << " execution " << k;
        EXPECT_FALSE(d.timed);
      }
      if (d.timed) c.record(d.way, ns[d.way] + (k % 3 == 1 ? 1000 : 0));  // the minimum counts
    }
    EXPECT_EQ(c.time_ns(0), 300);
    EXPECT_EQ(c.fastest(), epoch == 1 ? 1 : 2);
  }
  // One way: nothing to time.
  Choice one(1, options);
  for (int k = 0; k < 40; ++k) {
    const auto d = one.next();
    EXPECT_EQ(d.way, 0);
    EXPECT_FALSE(d.timed);
  }
  // Bad input: the number of ways is clamped to [1, max_ways].
  EXPECT_EQ(Choice(0).ways(), 1);
  EXPECT_EQ(Choice(99).ways(), Choice::max_ways);
  // An epoch never ends before every way was timed.
  const Choice::Options tiny{.warmup_per_way = 1, .epoch = 1, .max_epoch = 1};
  EXPECT_EQ(Choice(3, tiny).epoch_length(), 3u * (1 + tiny.samples_per_way));
}

// A settled choice is re-timed ever more rarely; a change of winner does not grow the epoch.
TEST(MeasuredChoice, EpochDoublesWhileTheWinnerHolds) {
  using Choice = Kokkos::Impl::MeasuredChoice;
  const Choice::Options options{.epoch = 8, .max_epoch = 64};
  Choice c(2, options);
  // Runs one epoch (its length is decided when it starts) and returns its length.
  auto run_epoch = [&](double way0, double way1) {
    std::uint32_t length = 0;
    for (std::uint32_t k = 0; k == 0 || k < length; ++k) {
      const auto d = c.next();
      if (k == 0) length = c.epoch_length();
      if (d.timed) c.record(d.way, d.way == 0 ? way0 : way1);
    }
    return length;
  };
  EXPECT_EQ(run_epoch(10, 20), 8u);   // way 0 wins
  EXPECT_EQ(run_epoch(10, 20), 8u);   // the first repeat of a winner is seen when the next starts
  EXPECT_EQ(run_epoch(10, 20), 16u);  // way 0 won twice in a row: the length doubles
  EXPECT_EQ(run_epoch(20, 10), 32u);  // way 1 wins this one...
  EXPECT_EQ(run_epoch(20, 10), 32u);  // ...so this epoch does not grow
  EXPECT_EQ(run_epoch(20, 10), 64u);
  EXPECT_EQ(run_epoch(20, 10), 64u);  // capped at max_epoch
}

// A way slower than prune_ratio times the fastest in two epochs in a row is not timed again;
// one slow epoch (a cold start) is not enough.  Ineligible ways are skipped for the epoch and
// never chosen.
TEST(MeasuredChoice, PrunesSlowWaysAndSkipsIneligibleOnes) {
  using Choice = Kokkos::Impl::MeasuredChoice;
  const Choice::Options options{.epoch = 10, .max_epoch = 10, .prune_ratio = 1.5};
  auto run = [&](Choice& c, int epochs, const std::vector<std::vector<double>>& ns_of_epoch) {
    std::vector<int> timed_ways;
    for (int k = 0; k < epochs * 10; ++k) {
      const auto d = c.next();
      if (d.timed) {
        timed_ways.push_back(d.way);
        c.record(d.way, ns_of_epoch[static_cast<std::size_t>(k / 10)][static_cast<std::size_t>(d.way)]);
      }
    }
    return timed_ways;
  };
  {
    Choice c(3, options);
    // Way 1 is 4x slower than way 0 in every epoch: timed in two, pruned from the third.
    const std::vector<double> ns = {100, 400, 120};
    EXPECT_EQ(run(c, 3, {ns, ns, ns}), (std::vector<int>{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 0, 0, 2, 2}));
    EXPECT_TRUE(c.pruned(1));
    EXPECT_FALSE(c.pruned(2));
    EXPECT_EQ(c.fastest(), 0);
  }
  {
    Choice c(2, options);
    // Way 0 runs cold in the first epoch only: it is never pruned, and wins from the second.
    EXPECT_EQ(run(c, 3, {{400, 150}, {100, 150}, {100, 150}}), (std::vector<int>{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}));
    EXPECT_FALSE(c.pruned(0));
    EXPECT_EQ(c.fastest(), 0);
  }

  {
    // Way 0 is pruned: the slots at the start of later epochs run the last epoch's winner
    // (untimed) rather than falling back to way 0.
    Choice c(2, options);
    std::vector<int> ways;
    for (int k = 0; k < 50; ++k) {
      const auto d = c.next();
      ways.push_back(d.way);
      if (d.timed) c.record(d.way, d.way == 0 ? 900 : 100);
    }
    EXPECT_TRUE(c.pruned(0));
    for (int k = 30; k < 50; ++k) EXPECT_EQ(ways[static_cast<std::size_t>(k)], 1) << k;
  }

  Choice gated(2, options);
  for (int k = 0; k < 20; ++k) {
    const auto d = gated.next([](int way) { return way == 0; });
    EXPECT_EQ(d.way, 0);
    if (d.timed) gated.record(d.way, 50);
  }
  EXPECT_GT(gated.time_ns(1), 1e300);  // never timed
}

}  // namespace

// initialize / finalize / settings.  Kokkos can be initialised once per process, so every
// scenario runs in a child process (a death test that expects a clean exit or a crash).
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace {

// argv from strings, with the trailing nullptr C programs expect.
struct Args {
  std::vector<std::string> storage;
  std::vector<char*> ptrs;
  int argc;
  explicit Args(std::vector<std::string> a) : storage(std::move(a)) {
    for (auto& s : storage) ptrs.push_back(s.data());
    ptrs.push_back(nullptr);
    argc = static_cast<int>(storage.size());
  }
};

void empty_launch() {
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 1), [](std::int64_t) {});
}

TEST(LifecycleDeathTest, LaunchBeforeInitializeAborts) {
  EXPECT_DEATH(empty_launch(), "Kokkos::parallel_for used before Kokkos::initialize");
}

TEST(LifecycleDeathTest, FenceBeforeInitializeAborts) {
  EXPECT_DEATH(Kokkos::fence(), "Kokkos::fence used before Kokkos::initialize");
}

TEST(LifecycleDeathTest, LaunchAfterFinalizeAborts) {
  EXPECT_DEATH(
      {
        Kokkos::initialize();
        Kokkos::finalize();
        empty_launch();
      },
      "Kokkos::parallel_for used after Kokkos::finalize");
}

TEST(LifecycleDeathTest, InitializeTwiceAborts) {
  EXPECT_DEATH(
      {
        Kokkos::initialize();
        Kokkos::initialize();
      },
      "already initialized");
}

TEST(LifecycleDeathTest, InitializeAfterFinalizeAborts) {
  EXPECT_DEATH(
      {
        Kokkos::initialize();
        Kokkos::finalize();
        Kokkos::initialize();
      },
      "cannot be initialized again");
}

TEST(LifecycleDeathTest, FinalizeWithoutInitializeAborts) {
  EXPECT_DEATH(Kokkos::finalize(), "called before Kokkos::initialize");
}

TEST(LifecycleDeathTest, FinalizeTwiceAborts) {
  EXPECT_DEATH(
      {
        Kokkos::initialize();
        Kokkos::finalize();
        Kokkos::finalize();
      },
      "called twice");
}

TEST(LifecycleDeathTest, StateQueries) {
  EXPECT_EXIT(
      {
        bool ok = !Kokkos::is_initialized() && !Kokkos::is_finalized();
        Kokkos::initialize();
        ok = ok && Kokkos::is_initialized() && !Kokkos::is_finalized();
        Kokkos::finalize();
        ok = ok && !Kokkos::is_initialized() && Kokkos::is_finalized();
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleDeathTest, CommandLineFlagsAreConsumed) {
  EXPECT_EXIT(
      {
        Args a({"prog", "--kokkos-num-threads=1", "keep-me", "--kokkos-disable-warnings", "--other"});
        Kokkos::initialize(a.argc, a.ptrs.data());
        const bool ok = a.argc == 3 && std::string(a.ptrs[1]) == "keep-me" && std::string(a.ptrs[2]) == "--other" &&
                        a.ptrs[3] == nullptr && Kokkos::DefaultHostExecutionSpace::concurrency() == 1;
        Kokkos::finalize();
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleDeathTest, UnknownKokkosFlagWarnsAndIsKept) {
  EXPECT_EXIT(
      {
        Args a({"prog", "--kokkos-no-such-flag=3"});
        Kokkos::initialize(a.argc, a.ptrs.data());
        const bool ok = a.argc == 2;
        Kokkos::finalize();
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "unknown command-line argument '--kokkos-no-such-flag=3'");
}

TEST(LifecycleDeathTest, BadFlagValueThrows) {
  EXPECT_EXIT(
      {
        Args a({"prog", "--kokkos-num-threads=many"});
        try {
          Kokkos::initialize(a.argc, a.ptrs.data());
        } catch (const std::runtime_error& e) {
          std::fprintf(stderr, "%s\n", e.what());
          std::exit(3);
        }
        std::exit(0);
      },
      ::testing::ExitedWithCode(3), "--kokkos-num-threads expects an integer, got 'many'");
}

TEST(LifecycleDeathTest, HelpIsPrinted) {
  EXPECT_EXIT(
      {
        Args a({"prog", "--kokkos-help"});
        testing::internal::CaptureStdout();
        Kokkos::initialize(a.argc, a.ptrs.data());
        const std::string out = testing::internal::GetCapturedStdout();
        Kokkos::finalize();
        std::exit(out.find("--kokkos-num-threads") != std::string::npos ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleDeathTest, EnvironmentSetsThreads) {
  EXPECT_EXIT(
      {
        setenv("KOKKOS_NUM_THREADS", "1", 1);
        Kokkos::initialize();
        const bool ok = Kokkos::DefaultHostExecutionSpace::concurrency() == 1;
        Kokkos::finalize();
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// Kokkos 4's runtime queries: num_threads() follows --kokkos-num-threads; num_devices() answers
// before initialize(); device_id() names a device it counts, or -1 without one.
TEST(LifecycleDeathTest, NumThreadsDeviceIdAndNumDevices) {
  EXPECT_EXIT(
      {
        const int devices_before = Kokkos::num_devices();
        Args a({"prog", "--kokkos-num-threads=1"});
        Kokkos::initialize(a.argc, a.ptrs.data());
        const int threads = Kokkos::num_threads();
        const int id = Kokkos::device_id();
        const int devices = Kokkos::num_devices();
        Kokkos::finalize();
#if defined(KOKKOS_ENABLE_CUDA)
        const bool device_ok = devices >= 0 && (id == -1 || (id >= 0 && id < devices));
#else
        const bool device_ok = devices == -1 && id == -1;
#endif
        std::exit(threads == 1 && devices_before == devices && device_ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleDeathTest, NumThreadsAndDeviceIdBeforeInitializeAbort) {
  EXPECT_DEATH((void)Kokkos::num_threads(), "Kokkos::num_threads\\(\\) used before Kokkos::initialize");
  EXPECT_DEATH((void)Kokkos::device_id(), "Kokkos::device_id\\(\\) used before Kokkos::initialize");
}

TEST(LifecycleDeathTest, CommandLineOverridesEnvironment) {
#if defined(KOKKOS_ENABLE_OPENMP)
  EXPECT_EXIT(
      {
        setenv("KOKKOS_NUM_THREADS", "1", 1);
        Args a({"prog", "--kokkos-num-threads=2"});
        Kokkos::initialize(a.argc, a.ptrs.data());
        const bool ok = Kokkos::OpenMP::concurrency() == 2;
        Kokkos::finalize();
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
#else
  GTEST_SKIP() << "needs a multi-threaded host back end";
#endif
}

TEST(LifecycleDeathTest, SettingsObject) {
  EXPECT_EXIT(
      {
        Kokkos::InitializationSettings s;
        s.set_num_threads(2).set_task_team_size(2).set_disable_warnings(true);
        const bool has = s.has_num_threads() && s.get_num_threads() == 2 && !s.has_device_id();
        Kokkos::initialize(s);
        const int expected_threads = Kokkos::is_execution_space_v<Kokkos::DefaultHostExecutionSpace> &&
                                             Kokkos::DefaultHostExecutionSpace::name() == std::string("Serial")
                                         ? 1
                                         : 2;
        const bool ok = has && Kokkos::DefaultHostExecutionSpace::concurrency() == expected_threads &&
                        Kokkos::Experimental::task_team_size() == expected_threads;
        Kokkos::finalize();
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleDeathTest, NonPositiveThreadCountThrows) {
  EXPECT_EXIT(
      {
        try {
          Kokkos::initialize(Kokkos::InitializationSettings().set_num_threads(0));
        } catch (const std::runtime_error& e) {
          std::fprintf(stderr, "%s\n", e.what());
          std::exit(3);
        }
        std::exit(0);
      },
      ::testing::ExitedWithCode(3), "number of threads must be positive, got 0");
}

TEST(LifecycleDeathTest, TaskTeamSizeLargerThanPoolIsClampedWithWarning) {
  EXPECT_EXIT(
      {
        Args a({"prog", "--kokkos-num-threads=1", "--kokkos-task-team-size=4"});
        Kokkos::initialize(a.argc, a.ptrs.data());
        const bool ok = Kokkos::Experimental::task_team_size() == 1;
        Kokkos::finalize();
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "task team size 4 exceeds the 1 host threads");
}

TEST(LifecycleDeathTest, TaskTeamSizeMustBePositive) {
  EXPECT_EXIT(
      {
        try {
          Kokkos::initialize(Kokkos::InitializationSettings().set_task_team_size(0));
        } catch (const std::runtime_error& e) {
          std::fprintf(stderr, "%s\n", e.what());
          std::exit(3);
        }
        std::exit(0);
      },
      ::testing::ExitedWithCode(3), "task-team-size must be positive, got 0");
}

TEST(LifecycleDeathTest, FinalizeHooksRunInReverseOrder) {
  EXPECT_EXIT(
      {
        static std::string order;
        Kokkos::initialize();
        Kokkos::push_finalize_hook([] { order += "a"; });
        Kokkos::push_finalize_hook([] { order += "b"; });
        Kokkos::finalize();
        std::exit(order == "ba" ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleDeathTest, ScopeGuard) {
  EXPECT_EXIT(
      {
        {
          Args a({"prog"});
          Kokkos::ScopeGuard guard(a.argc, a.ptrs.data());
          if (!Kokkos::is_initialized()) std::exit(1);
        }
        std::exit(Kokkos::is_finalized() ? 0 : 2);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(LifecycleDeathTest, PrintConfigurationFlag) {
  EXPECT_EXIT(
      {
        Args a({"prog", "--kokkos-print-configuration"});
        testing::internal::CaptureStdout();
        Kokkos::initialize(a.argc, a.ptrs.data());
        const std::string out = testing::internal::GetCapturedStdout();
        Kokkos::finalize();
        std::exit(out.find("Default execution space") != std::string::npos ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  return RUN_ALL_TESTS();
}

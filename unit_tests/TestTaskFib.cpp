// The seed's naive Fibonacci (seed 001 Figure 3.4) on every back end and every scheduler name,
// for n = 0..26, in the memory the issue allows (27*27*64000 bytes, blocks 64..1024, 4096-byte
// superblocks): depth-first scheduling keeps the live tasks within that pool.
#include "TestCommon.hpp"

#include <Kokkos_TaskScheduler.hpp>

namespace {

template <class Scheduler>
struct Fibonacci {
  using value_type = long;
  using future_type = typename Scheduler::template future_type<long>;
  using member_type = typename Scheduler::member_type;

  Scheduler sched;
  future_type fib[2];
  value_type n;

  KOKKOS_INLINE_FUNCTION Fibonacci(const Scheduler& s, value_type arg_n) : sched(s), fib{}, n(arg_n) {}

  KOKKOS_INLINE_FUNCTION void operator()(member_type&, value_type& result) {
    if (n <= 1) {
      result = n;
    } else if (!fib[0].is_null()) {
      result = fib[0].get() + fib[1].get();
    } else {
      fib[0] = Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High), Fibonacci(sched, n - 2));
      fib[1] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), Fibonacci(sched, n - 1));
      if (fib[0].is_null() || fib[1].is_null()) Kokkos::abort("Fibonacci test: the pool ran out of memory");
      Kokkos::respawn(this, Kokkos::when_all(fib, 2), Kokkos::TaskPriority::High);
    }
  }
};

long serial_fib(long n) {
  long a = 0, b = 1;
  for (long i = 0; i < n; ++i) {
    const long c = a + b;
    a = b;
    b = c;
  }
  return a;
}

template <class Scheduler>
void run_fib_range(int max_n) {
  using memory_space = typename Scheduler::memory_space;
  Scheduler sched(memory_space(), 27 * 27 * 64000, 64, 1024, 4096);
  for (int n = 0; n <= max_n; ++n) {
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fibonacci<Scheduler>(sched, n));
    ASSERT_FALSE(f.is_null());
    Kokkos::wait(sched);
    ASSERT_TRUE(f.is_ready());
    ASSERT_EQ(f.get(), serial_fib(n)) << "n = " << n;
  }
  EXPECT_EQ(sched.queue().allocation_count(), 0);
}

template <class Space>
struct TaskFib : Kokkos::Test::SpaceTest<Space> {};
// Kokkos::Cuda included: the same functor runs on the GPU scheduler (Cuda/Kokkos_Cuda_Task.hpp).
TYPED_TEST_SUITE(TaskFib, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(TaskFib, TaskScheduler) { run_fib_range<Kokkos::TaskScheduler<TypeParam>>(26); }
TYPED_TEST(TaskFib, TaskSchedulerMultiple) { run_fib_range<Kokkos::TaskSchedulerMultiple<TypeParam>>(26); }
TYPED_TEST(TaskFib, ChaseLevTaskScheduler) { run_fib_range<Kokkos::ChaseLevTaskScheduler<TypeParam>>(26); }
TYPED_TEST(TaskFib, DeprecatedTaskScheduler) { run_fib_range<Kokkos::DeprecatedTaskScheduler<TypeParam>>(26); }
TYPED_TEST(TaskFib, DeprecatedTaskSchedulerMultiple) {
  run_fib_range<Kokkos::DeprecatedTaskSchedulerMultiple<TypeParam>>(26);
}

// The seed's own spelling: Future<long, Space>, a pool constructed first, then the scheduler.
TYPED_TEST(TaskFib, SeedSpelling) {
  using sched_t = Kokkos::TaskScheduler<TypeParam>;
  using future_t = Kokkos::Future<long, TypeParam>;
  static_assert(std::is_same_v<future_t, typename sched_t::template future_type<long>>);
  static_assert(std::is_same_v<Kokkos::Future<TypeParam, long>, future_t>);
  typename sched_t::memory_pool pool(typename sched_t::memory_space(), 1 << 20, 64, 1024, 4096);
  sched_t sched(pool);
  EXPECT_NE(sched.memory(), nullptr);
  future_t f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), Fibonacci<sched_t>(sched, 20));
  Kokkos::wait(sched);
  EXPECT_EQ(f.get(), 6765);
}

}  // namespace

// Kokkos::kokkos_malloc / kokkos_realloc / kokkos_free: allocation in a named or default space,
// realloc keeping the contents, free(nullptr), and pointers that are not live blocks refused
// with a clear message; many threads allocating and freeing at once.
#include "TestCommon.hpp"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

template <class Call>
std::string thrown_message(const Call& call) {
  try {
    call();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(KokkosMalloc, MallocWriteFree) {
  auto* p = static_cast<int*>(Kokkos::kokkos_malloc<Kokkos::HostSpace>("ints", 100 * sizeof(int)));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignof(std::max_align_t), 0u);
  for (int i = 0; i < 100; ++i) p[i] = i;
  EXPECT_EQ(p[99], 99);
  Kokkos::kokkos_free<Kokkos::HostSpace>(p);

  // an execution space names its memory space
  void* r = Kokkos::kokkos_malloc<Kokkos::DefaultHostExecutionSpace>("exec", 8);
  Kokkos::kokkos_free<Kokkos::HostSpace>(r);
}

// No space named: the default execution space's memory space, no label.
TEST(KokkosMalloc, DefaultSpace) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  void* q = Kokkos::kokkos_malloc(64);
  ASSERT_NE(q, nullptr);
  Kokkos::kokkos_free(q);
}

TEST(KokkosMalloc, ZeroBytesAndNull) {
  void* a = Kokkos::kokkos_malloc<Kokkos::HostSpace>(0);
  void* b = Kokkos::kokkos_malloc<Kokkos::HostSpace>(0);
  EXPECT_NE(a, nullptr);
  EXPECT_NE(a, b);
  Kokkos::kokkos_free<Kokkos::HostSpace>(a);
  Kokkos::kokkos_free<Kokkos::HostSpace>(b);
  Kokkos::kokkos_free<Kokkos::HostSpace>(nullptr);  // nothing happens
  Kokkos::kokkos_free(nullptr);
}

TEST(KokkosMalloc, ReallocKeepsContents) {
  auto* p = static_cast<double*>(Kokkos::kokkos_malloc<Kokkos::HostSpace>("grow", 10 * sizeof(double)));
  for (int i = 0; i < 10; ++i) p[i] = 1.5 * i;
  p = static_cast<double*>(Kokkos::kokkos_realloc<Kokkos::HostSpace>(p, 1000 * sizeof(double)));
  for (int i = 0; i < 10; ++i) EXPECT_EQ(p[i], 1.5 * i);
  p[999] = 7;  // the new tail is usable
  p = static_cast<double*>(Kokkos::kokkos_realloc<Kokkos::HostSpace>(p, 4 * sizeof(double)));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(p[i], 1.5 * i);
  p = static_cast<double*>(Kokkos::kokkos_realloc<Kokkos::HostSpace>(p, 0));
  EXPECT_NE(p, nullptr);
  Kokkos::kokkos_free<Kokkos::HostSpace>(p);
  // realloc of nullptr allocates
  void* fresh = Kokkos::kokkos_realloc<Kokkos::HostSpace>(nullptr, 32);
  ASSERT_NE(fresh, nullptr);
  std::memset(fresh, 1, 32);
  Kokkos::kokkos_free<Kokkos::HostSpace>(fresh);
}

TEST(KokkosMalloc, BadInputIsRefused) {
  int local = 0;
  const std::string stack = thrown_message([&] { Kokkos::kokkos_free<Kokkos::HostSpace>(&local); });
  EXPECT_NE(stack.find("Kokkos::kokkos_free: "), std::string::npos) << stack;
  EXPECT_NE(stack.find("is not a live block of Kokkos::kokkos_malloc"), std::string::npos) << stack;

  void* p = Kokkos::kokkos_malloc<Kokkos::HostSpace>("once", 16);
  Kokkos::kokkos_free<Kokkos::HostSpace>(p);
  EXPECT_NE(thrown_message([&] { Kokkos::kokkos_free<Kokkos::HostSpace>(p); }).find("freed already"),
            std::string::npos);
  EXPECT_NE(thrown_message([&] { Kokkos::kokkos_realloc<Kokkos::HostSpace>(p, 32); }).find("Kokkos::kokkos_realloc: "),
            std::string::npos);

  const std::string huge = thrown_message([] { Kokkos::kokkos_malloc<Kokkos::HostSpace>("huge", SIZE_MAX - 3); });
  EXPECT_NE(huge.find("Kokkos failed to allocate memory for label \"huge\""), std::string::npos) << huge;
  // 2^62 bytes exceed every virtual address space (x86-64 and AArch64: at most 2^57), so the
  // allocation fails on any host; 2 TiB (once used here) succeeds where the host has the memory
  // or overcommits it.
  const std::string unlabeled = thrown_message([] { Kokkos::kokkos_malloc<Kokkos::HostSpace>(std::size_t(1) << 62); });
  EXPECT_NE(unlabeled.find("label \"no-label\""), std::string::npos) << unlabeled;
}

TEST(KokkosMalloc, ManyThreads) {
  constexpr int threads = 8, rounds = 2000;
  std::vector<std::thread> pool;
  std::vector<int> failures(threads, 0);
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([t, &failures] {
      std::vector<unsigned char*> live;
      for (int r = 0; r < rounds; ++r) {
        const std::size_t bytes = 1 + std::size_t((r * 37 + t * 11) % 200);
        auto* p = static_cast<unsigned char*>(Kokkos::kokkos_malloc<Kokkos::HostSpace>("stress", bytes));
        p[0] = static_cast<unsigned char>(t);
        live.push_back(p);
        if (r % 3 == 2) {
          live[0] = static_cast<unsigned char*>(Kokkos::kokkos_realloc<Kokkos::HostSpace>(live[0], bytes + 64));
          if (live[0][0] != static_cast<unsigned char>(t)) ++failures[t];
        }
        if (live.size() > 8) {
          if (live.back()[0] != static_cast<unsigned char>(t)) ++failures[t];
          Kokkos::kokkos_free<Kokkos::HostSpace>(live.back());
          live.pop_back();
        }
      }
      for (auto* p : live) Kokkos::kokkos_free<Kokkos::HostSpace>(p);
    });
  }
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

}  // namespace

// Team and thread scratch memory: sizes, levels, alignment, exhaustion, and that concurrent
// teams and the threads of a team get disjoint memory, on every host back end.
#include "TestCommon.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

template <class Space>
struct TeamScratch : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(TeamScratch, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

template <class Space>
std::vector<int> team_sizes() {
  std::vector<int> sizes{1};
  if (Space().concurrency() >= 2) sizes.push_back(2);
  return sizes;
}

TYPED_TEST(TeamScratch, SpaceTraits) {
  using Scratch = typename TypeParam::scratch_memory_space;
  static_assert(std::is_same_v<Scratch, Kokkos::ScratchMemorySpace<TypeParam>>);
  static_assert(Kokkos::is_memory_space_v<Scratch>);
  static_assert(std::is_same_v<typename Scratch::execution_space, TypeParam>);
  static_assert(Scratch::is_host_accessible);
  static_assert(std::is_same_v<typename TypeParam::scratch_memory_space,
                               typename Kokkos::TeamPolicy<TypeParam>::member_type::scratch_memory_space>);
}

// get_shmem on a stand-alone arena: bump allocation, alignment, exhaustion returns nullptr and
// leaves the arena usable, thread mode hands out disjoint slices.
TYPED_TEST(TeamScratch, ArenaSemantics) {
  alignas(64) char l0[256];
  alignas(64) char l1[64];
  Kokkos::ScratchMemorySpace<TypeParam> s(l0, 256, l1, 64);
  char* a = static_cast<char*>(s.get_shmem(10));
  EXPECT_EQ(a, l0);
  char* b = static_cast<char*>(s.get_shmem_aligned(8, 16));
  EXPECT_EQ(b, l0 + 16) << "aligned request skips to the next multiple of 16";
  EXPECT_EQ(s.get_shmem(1000), nullptr);
  char* c = static_cast<char*>(s.get_shmem(8));
  EXPECT_EQ(c, l0 + 24) << "a failed request does not consume the arena";
  EXPECT_EQ(s.get_shmem(32, 1), l1) << "level 1 is a separate arena";
  EXPECT_EQ(s.get_shmem(40, 1), nullptr);
  EXPECT_EQ(s.get_shmem(32, 1), l1 + 32);
  // Thread mode: 4 threads, rank 2 gets the third 16-byte slice of a 64-byte block.
  s.set_team_thread_mode(0, 4, 2);
  char* slice = static_cast<char*>(s.get_shmem(16));
  EXPECT_EQ(slice, l0 + 32 + 2 * 16);
  s.set_team_thread_mode(0, 1, 0);
  EXPECT_EQ(s.get_shmem(0), l0 + 96);
  EXPECT_EQ(s.get_shmem(160), l0 + 96);
  EXPECT_EQ(s.get_shmem(1), nullptr) << "exactly full";

  Kokkos::ScratchMemorySpace<TypeParam> empty;
  EXPECT_EQ(empty.get_shmem(1), nullptr);
  EXPECT_EQ(empty.get_shmem(1, 1), nullptr);
}

// Each team fills its team scratch with its league rank and checks it after a barrier and some
// delay: concurrent teams must not share scratch.  Per-thread scratch is checked the same way.
TYPED_TEST(TeamScratch, TeamAndThreadScratchAreDisjoint) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  using Member = typename Policy::member_type;
  using ScratchView = Kokkos::View<int*, typename TypeParam::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  for (int ts : team_sizes<TypeParam>()) {
    for (int level : {0, 1}) {
      const int n_team = 257, n_thread = 33, league = 40;
      Policy policy(league, ts);
      policy.set_scratch_size(level, Kokkos::PerTeam(ScratchView::shmem_size(n_team)),
                              Kokkos::PerThread(ScratchView::shmem_size(n_thread)));
      std::vector<int> errors(1, 0);
      int* err = errors.data();
      std::vector<std::uintptr_t> team_ptr(league, 0), thread_ptr(static_cast<std::size_t>(league * ts), 0);
      std::uintptr_t* tp = team_ptr.data();
      std::uintptr_t* thp = thread_ptr.data();
      Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const Member& m) {
        ScratchView shared(m.team_scratch(level), n_team);
        ScratchView mine(m.thread_scratch(level), n_thread);
        if (shared.data() == nullptr || mine.data() == nullptr) {
          Kokkos::atomic_add(err, 1000);
          return;
        }
        const int id = m.league_rank();
        const int me = id * 100 + m.team_rank();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n_team), [&](int i) { shared(i) = id * 1000 + i; });
        for (int i = 0; i < n_thread; ++i) mine(i) = me;
        m.team_barrier();
        volatile int spin = 0;
        for (int k = 0; k < 2000; ++k) spin = spin + k;
        for (int i = 0; i < n_team; ++i)
          if (shared(i) != id * 1000 + i) Kokkos::atomic_add(err, 1);
        for (int i = 0; i < n_thread; ++i)
          if (mine(i) != me) Kokkos::atomic_add(err, 1);
        if (m.team_rank() == 0) tp[id] = reinterpret_cast<std::uintptr_t>(shared.data());
        thp[id * m.team_size() + m.team_rank()] = reinterpret_cast<std::uintptr_t>(mine.data());
        m.team_barrier();  // the next league rank of this team reuses the scratch
      });
      EXPECT_EQ(errors[0], 0) << "team size " << ts << " level " << level;
      // Within a team, thread slices are disjoint and outside the team block.
      for (int l = 0; l < league; ++l) {
        const std::uintptr_t team_begin = team_ptr[l], team_end = team_begin + n_team * sizeof(int);
        for (int r = 0; r < ts; ++r) {
          const std::uintptr_t b = thread_ptr[l * ts + r], e = b + n_thread * sizeof(int);
          EXPECT_TRUE(e <= team_begin || b >= team_end) << "thread slice overlaps team scratch";
          EXPECT_EQ(b % alignof(int), 0u);
          for (int q = 0; q < r; ++q) {
            const std::uintptr_t qb = thread_ptr[l * ts + q], qe = qb + n_thread * sizeof(int);
            EXPECT_TRUE(e <= qb || b >= qe) << "thread slices " << q << " and " << r << " overlap";
          }
        }
      }
    }
  }
}

// The scratch a policy requests is exactly what the members can take: get_shmem succeeds up to
// the request and returns nullptr beyond it.
TYPED_TEST(TeamScratch, CapacityMatchesRequest) {
  using Policy = Kokkos::TeamPolicy<TypeParam, Kokkos::Schedule<Kokkos::Dynamic>>;
  using Member = typename Policy::member_type;
  for (int ts : team_sizes<TypeParam>()) {
    Policy policy(17, ts);
    policy.set_scratch_size(0, Kokkos::PerTeam(1000), Kokkos::PerThread(24));
    policy.set_scratch_size(1, Kokkos::PerTeam(4096));
    std::vector<int> errors(1, 0);
    int* err = errors.data();
    Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const Member& m) {
      const auto fail = [&] { Kokkos::atomic_add(err, 1); };
      if (m.team_shmem().get_shmem(600) == nullptr) fail();
      if (m.team_scratch(0).get_shmem(400) == nullptr) fail();
      // Thread scratch follows the team part in the same level-0 arena.
      void* t0 = m.thread_scratch(0).get_shmem(24);
      if (t0 == nullptr) fail();
      if (m.thread_scratch(0).get_shmem(1) != nullptr) fail();
      if (m.team_scratch(0).get_shmem(1) != nullptr) fail();
      if (m.team_scratch(1).get_shmem(4096) == nullptr) fail();
      if (m.team_scratch(1).get_shmem(1) != nullptr) fail();
      if (m.thread_scratch(1).get_shmem(1) != nullptr) fail();  // no per-thread level 1 requested
      // Team memory is the same address on every member; thread memory differs.
      std::uintptr_t team_addr = reinterpret_cast<std::uintptr_t>(m.team_scratch(0).get_shmem(0));
      std::uintptr_t thread_addr = reinterpret_cast<std::uintptr_t>(t0);
      std::uintptr_t team_of_0 = team_addr, thread_of_0 = thread_addr;
      m.team_broadcast(team_of_0, 0);
      m.team_broadcast(thread_of_0, 0);
      if (team_of_0 != team_addr) fail();
      if (m.team_rank() != 0 && thread_of_0 == thread_addr) fail();
    });
    EXPECT_EQ(errors[0], 0) << "team size " << ts;
  }
}

// Scratch is fresh per league rank (the bump pointer restarts), and a launch without a request
// has no scratch at all.
TYPED_TEST(TeamScratch, PerLeagueRankAndNoRequest) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  using Member = typename Policy::member_type;
  std::vector<int> errors(1, 0);
  int* err = errors.data();
  Policy with(50, 1);
  with.set_scratch_size(0, Kokkos::PerTeam(128));
  Kokkos::parallel_for(with, KOKKOS_LAMBDA(const Member& m) {
    if (m.team_scratch(0).get_shmem(128) == nullptr) Kokkos::atomic_add(err, 1);
  });
  Kokkos::parallel_for(Policy(50, 1), KOKKOS_LAMBDA(const Member& m) {
    if (m.team_scratch(0).get_shmem(1) != nullptr || m.thread_scratch(1).get_shmem(1) != nullptr)
      Kokkos::atomic_add(err, 1);
    if (m.team_scratch(0).get_shmem(0) != m.team_scratch(0).get_shmem(0)) Kokkos::atomic_add(err, 1);
  });
  Kokkos::parallel_for(Policy(0, 1).set_scratch_size(1, Kokkos::PerTeam(1 << 20)),
                       KOKKOS_LAMBDA(const Member&) { Kokkos::atomic_add(err, 1); });
  EXPECT_EQ(errors[0], 0);
}

// A large level-1 request (beyond the per-thread storage cache) works and is released.
TYPED_TEST(TeamScratch, LargeLevel1) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  using Member = typename Policy::member_type;
  const std::size_t bytes = std::size_t(32) << 20;
  Policy policy(3, 1);
  policy.set_scratch_size(1, Kokkos::PerTeam(bytes));
  std::vector<long> sums(3, 0);
  long* s = sums.data();
  Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const Member& m) {
    char* p = static_cast<char*>(m.team_scratch(1).get_shmem(bytes));
    if (!p) return;
    for (std::size_t i = 0; i < bytes; i += 4096) p[i] = static_cast<char>(m.league_rank() + 1);
    long sum = 0;
    for (std::size_t i = 0; i < bytes; i += 4096) sum += p[i];
    s[m.league_rank()] = sum;
  });
  for (int l = 0; l < 3; ++l) EXPECT_EQ(sums[l], static_cast<long>(bytes / 4096) * (l + 1));
}

// Scratch-backed nested reduction: a team stages values in team scratch, then reduces them.
TYPED_TEST(TeamScratch, StagedTeamReduction) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  using Member = typename Policy::member_type;
  using ScratchView = Kokkos::View<double*, typename TypeParam::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  for (int ts : team_sizes<TypeParam>()) {
    const int n = 100, league = 12;
    Policy policy(league, ts);
    policy.set_scratch_size(0, Kokkos::PerTeam(ScratchView::shmem_size(n)));
    double total = 0;
    Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(const Member& m, double& acc) {
      ScratchView stage(m.team_scratch(0), n);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int i) { stage(i) = m.league_rank() + 0.25 * i; });
      m.team_barrier();
      double team_sum = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(m, n), [&](int i, double& a) { a += stage(i); }, team_sum);
      Kokkos::single(Kokkos::PerTeam(m), [&]() { acc += team_sum; });
    }, total);
    double expect = 0;
    for (int l = 0; l < league; ++l)
      for (int i = 0; i < n; ++i) expect += l + 0.25 * i;
    EXPECT_DOUBLE_EQ(total, expect) << "team size " << ts;
  }
}


// ---- Views of mixed element types taken in sequence ------------------------------------------
// Kokkos aligns each scratch View to max(sizeof, alignof, ScratchMemorySpace::ALIGN) of its value
// type, and shmem_size() adds that alignment to the span, so the sum of the Views' shmem_size()
// is always enough, whatever the arena's base address.
struct alignas(32) Wide {
  double v[4];
};
struct Triple {
  double x, y, z;
};

template <class T, class Space>
using MixedView = Kokkos::View<T, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

// A thread's slice starts a whole number of its requests past the aligned block, so it keeps
// sizeof/alignof alignment but not necessarily the 8-byte minimum: `minimum` is 8 for team
// scratch and 1 for thread scratch.
template <class T>
KOKKOS_INLINE_FUNCTION constexpr std::size_t kokkos_scratch_alignment(std::size_t minimum) {
  const std::size_t a = sizeof(T) > alignof(T) ? sizeof(T) : alignof(T);
  return a > minimum ? a : minimum;
}

template <class Space>
std::size_t mixed_bytes() {
  return MixedView<char*, Space>::shmem_size(3) + MixedView<double*, Space>::shmem_size(5) +
         MixedView<std::int16_t*, Space>::shmem_size(7) + MixedView<double**, Space>::shmem_size(3, 3) +
         MixedView<Wide*, Space>::shmem_size(2) + MixedView<Triple*, Space>::shmem_size(3);
}

// Takes the six Views from `scratch` and checks each is non-null and aligned (to at least
// `minimum`); returns the number of failures.  With `write`, fills and rereads every element, so
// overlapping Views show as corrupted values.
template <class Space, class Scratch>
KOKKOS_INLINE_FUNCTION int take_mixed_views(const Scratch& scratch, int tag, std::size_t minimum,
                                            bool write = true) {
  MixedView<char*, Space> c(scratch, 3);
  MixedView<double*, Space> d(scratch, 5);
  MixedView<std::int16_t*, Space> s(scratch, 7);
  MixedView<double**, Space> m(scratch, 3, 3);
  MixedView<Wide*, Space> w(scratch, 2);
  MixedView<Triple*, Space> t(scratch, 3);
  if (!c.data() || !d.data() || !s.data() || !m.data() || !w.data() || !t.data()) return 100;
  auto misaligned = [](const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a != 0; };
  int bad = 0;
  bad += misaligned(d.data(), kokkos_scratch_alignment<double>(minimum));
  bad += misaligned(s.data(), kokkos_scratch_alignment<std::int16_t>(minimum));
  bad += misaligned(m.data(), kokkos_scratch_alignment<double>(minimum));
  bad += misaligned(w.data(), kokkos_scratch_alignment<Wide>(minimum));
  bad += misaligned(t.data(), kokkos_scratch_alignment<Triple>(minimum));
  if (!write) return bad;
  for (int i = 0; i < 3; ++i) c(i) = char(tag + i);
  for (int i = 0; i < 5; ++i) d(i) = tag + 0.5 * i;
  for (int i = 0; i < 7; ++i) s(i) = std::int16_t(tag + i);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = tag + 10 * i + j;
  for (int i = 0; i < 2; ++i) w(i).v[3] = tag - i;
  for (int i = 0; i < 3; ++i) t(i).z = tag * 2.0 + i;
  for (int i = 0; i < 3; ++i) bad += c(i) != char(tag + i);
  for (int i = 0; i < 5; ++i) bad += d(i) != tag + 0.5 * i;
  for (int i = 0; i < 7; ++i) bad += s(i) != std::int16_t(tag + i);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) bad += m(i, j) != tag + 10 * i + j;
  for (int i = 0; i < 2; ++i) bad += w(i).v[3] != tag - i;
  for (int i = 0; i < 3; ++i) bad += t(i).z != tag * 2.0 + i;
  return bad;
}

TYPED_TEST(TeamScratch, MixedTypeViewsShmemSizeAsKokkos) {
  using Char = MixedView<char*, TypeParam>;
  using Wides = MixedView<Wide*, TypeParam>;
  using Triples = MixedView<Triple*, TypeParam>;
  using Matrix = MixedView<double**, TypeParam>;
  EXPECT_EQ(Char::shmem_size(3), 3u + 8u);
  EXPECT_EQ(Wides::shmem_size(2), 2 * sizeof(Wide) + 32u);
  EXPECT_EQ(Triples::shmem_size(3), 3 * sizeof(Triple) + sizeof(Triple));
  EXPECT_EQ(Matrix::shmem_size(3, 3), 9 * sizeof(double) + 8u);
  EXPECT_EQ(Matrix::shmem_size(Kokkos::LayoutRight(3, 3)), 9 * sizeof(double) + 8u);
  EXPECT_EQ(Char::shmem_size(0), 8u);
}

// On a stand-alone arena at every base misalignment: the sum of shmem_size() suffices.
TYPED_TEST(TeamScratch, MixedTypeViewsOnArena) {
  const std::size_t bytes = mixed_bytes<TypeParam>();
  std::vector<char> buffer(bytes + 64);
  for (std::size_t shift = 0; shift < 32; ++shift) {
    char* base = buffer.data() + (64 - reinterpret_cast<std::uintptr_t>(buffer.data()) % 64) % 64;
    Kokkos::ScratchMemorySpace<TypeParam> arena(base + shift, bytes);
    EXPECT_EQ(take_mixed_views<TypeParam>(arena, int(shift), 8), 0) << "base offset " << shift;
  }
}

// Through a TeamPolicy whose request is the sum of shmem_size(), in team and thread scratch, on
// both levels.
TYPED_TEST(TeamScratch, MixedTypeViewsInTeamAndThreadScratch) {
  using Policy = Kokkos::TeamPolicy<TypeParam>;
  using Member = typename Policy::member_type;
  const std::size_t bytes = mixed_bytes<TypeParam>();
  for (int ts : team_sizes<TypeParam>()) {
    for (int level : {0, 1}) {
      Policy policy(9, ts);
      policy.set_scratch_size(level, Kokkos::PerTeam(bytes), Kokkos::PerThread(bytes));
      int errors = 0;
      Kokkos::parallel_reduce(
          policy,
          KOKKOS_LAMBDA(const Member& m, int& err) {
            // Every member takes the team Views (same addresses); only team rank 0 writes them.
            err += take_mixed_views<TypeParam>(m.team_scratch(level), m.league_rank(), 8, m.team_rank() == 0);
            const int thread_tag = 1000 + m.league_rank() * 10 + m.team_rank();
            err += take_mixed_views<TypeParam>(m.thread_scratch(level), thread_tag, 1);
          },
          errors);
      EXPECT_EQ(errors, 0) << "team size " << ts << " level " << level;
    }
  }
}

}  // namespace

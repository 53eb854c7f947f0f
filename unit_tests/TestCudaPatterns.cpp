// Every parallel pattern on Kokkos::Cuda, checked against host-computed references: RangePolicy
// for/reduce/scan (every built-in reducer, array reductions, init/join/final functors, results
// in device Views, work tags, 64-bit indices), MDRangePolicy rank 2..6, TeamPolicy with nested
// ranges, collectives, scratch and single, and the launch errors a bad team request gives.
// Without a visible GPU each test skips, naming why.
#include <Kokkos_Core.hpp>

#include "TestCommon.hpp"

#if defined(KOKKOS_ENABLE_CUDA)

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Cuda = Kokkos::Cuda;
using DeviceView = Kokkos::View<double*, Kokkos::CudaSpace>;
using DeviceLongView = Kokkos::View<long*, Kokkos::CudaSpace>;

template <class V>
auto to_host(const V& v) {
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, v);
  return h;
}

// Runs f, which must throw std::runtime_error whose message contains every one of `parts`.
template <class F>
void expect_error(const F& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no exception thrown";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    for (const std::string& p : parts) EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
  }
}

struct Twice {};

// ---- RangePolicy -----------------------------------------------------------------------------------

TEST(CudaRange, ForFillsEveryIndex) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  for (const long n : {0L, 1L, 31L, 1000L, 1L << 20}) {
    DeviceView a("a", n);
    Kokkos::parallel_for("fill", Kokkos::RangePolicy<Cuda>(0, n), KOKKOS_LAMBDA(const long i) { a(i) = 2.0 * i; });
    const auto h = to_host(a);
    for (long i = 0; i < n; ++i) ASSERT_EQ(h(i), 2.0 * i) << "n=" << n;
  }
}

struct TaggedFill {
  DeviceLongView a;
  KOKKOS_INLINE_FUNCTION void operator()(const Twice, const std::int64_t i) const { a(i) = 2 * i + 1; }
};

TEST(CudaRange, ForWorkTagInt64IndexAndOffset) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const std::int64_t n = 100003;
  DeviceLongView a("a", n);
  Kokkos::parallel_for("tagged",
                       Kokkos::RangePolicy<Cuda, Twice, Kokkos::IndexType<std::int64_t>, Kokkos::Schedule<Kokkos::Dynamic>>(
                           10, n),
                       TaggedFill{a});
  const auto h = to_host(a);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(h(i), i < 10 ? 0 : 2 * i + 1);
}

TEST(CudaRange, ReduceSumIsExactAndDeterministic) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  for (const long n : {0L, 1L, 257L, 1000003L}) {
    long sum = -1;
    Kokkos::parallel_reduce(
        "sum", Kokkos::RangePolicy<Cuda>(0, n), KOKKOS_LAMBDA(const long i, long& s) { s += i; }, sum);
    EXPECT_EQ(sum, n * (n - 1) / 2) << "n=" << n;
  }
  const long n = 1 << 22;
  double first = 0, second = 0;
  const auto body = KOKKOS_LAMBDA(const long i, double& s) { s += 1.0 / (1.0 + i); };
  Kokkos::parallel_reduce("harmonic", Kokkos::RangePolicy<Cuda>(0, n), body, first);
  Kokkos::parallel_reduce("harmonic", Kokkos::RangePolicy<Cuda>(0, n), body, second);
  EXPECT_EQ(first, second);
  double reference = 0;
  for (long i = 0; i < n; ++i) reference += 1.0 / (1.0 + i);
  EXPECT_NEAR(first, reference, 1e-9 * reference);
}

TEST(CudaRange, BuiltInReducers) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const int n = 100001;
  std::vector<int> ref(n);
  for (int i = 0; i < n; ++i) ref[i] = (i * 7919) % 10007 - 5000;
  Kokkos::View<int*, Kokkos::CudaSpace> v("v", n);
  auto h = Kokkos::create_mirror_view(v);
  for (int i = 0; i < n; ++i) h(i) = ref[i];
  Kokkos::deep_copy(v, h);
  const Kokkos::RangePolicy<Cuda> p(0, n);

  int s = 0, mn = 0, mx = 0, band = 0, bor = 0;
  bool land = false, lor = false;
  double prod = 0;
  Kokkos::parallel_reduce("sum", p, KOKKOS_LAMBDA(int i, int& r) { r += v(i); }, Kokkos::Sum<int>(s));
  Kokkos::parallel_reduce("min", p, KOKKOS_LAMBDA(int i, int& r) { r = v(i) < r ? v(i) : r; }, Kokkos::Min<int>(mn));
  Kokkos::parallel_reduce("max", p, KOKKOS_LAMBDA(int i, int& r) { r = v(i) > r ? v(i) : r; }, Kokkos::Max<int>(mx));
  Kokkos::parallel_reduce("band", p, KOKKOS_LAMBDA(int i, int& r) { r &= (v(i) | 0x10); }, Kokkos::BAnd<int>(band));
  Kokkos::parallel_reduce("bor", p, KOKKOS_LAMBDA(int i, int& r) { r |= (v(i) & 0xff); }, Kokkos::BOr<int>(bor));
  Kokkos::parallel_reduce("land", p, KOKKOS_LAMBDA(int i, bool& r) { r = r && (v(i) > -6000); }, Kokkos::LAnd<bool>(land));
  Kokkos::parallel_reduce("lor", p, KOKKOS_LAMBDA(int i, bool& r) { r = r || (v(i) == 4999); }, Kokkos::LOr<bool>(lor));
  Kokkos::parallel_reduce(
      "prod", Kokkos::RangePolicy<Cuda>(0, 20), KOKKOS_LAMBDA(int i, double& r) { r *= (i % 3 == 0 ? 2.0 : 1.0); },
      Kokkos::Prod<double>(prod));
  EXPECT_EQ(s, std::accumulate(ref.begin(), ref.end(), 0));
  EXPECT_EQ(mn, *std::min_element(ref.begin(), ref.end()));
  EXPECT_EQ(mx, *std::max_element(ref.begin(), ref.end()));
  int rband = ~0, rbor = 0;
  bool rlor = false;
  for (int x : ref) {
    rband &= (x | 0x10);
    rbor |= (x & 0xff);
    rlor = rlor || x == 4999;
  }
  EXPECT_EQ(band, rband);
  EXPECT_EQ(bor, rbor);
  EXPECT_TRUE(land);
  EXPECT_EQ(lor, rlor);
  EXPECT_EQ(prod, 128.0);

  using MinLocT = Kokkos::MinLoc<int, int>::value_type;
  using MaxLocT = Kokkos::MaxLoc<int, int>::value_type;
  using MinMaxT = Kokkos::MinMax<int>::value_type;
  using MinMaxLocT = Kokkos::MinMaxLoc<int, int>::value_type;
  MinLocT minloc;
  MaxLocT maxloc;
  MinMaxT minmax;
  MinMaxLocT minmaxloc;
  Kokkos::parallel_reduce(
      "minloc", p,
      KOKKOS_LAMBDA(int i, MinLocT& r) {
        if (v(i) < r.val) {
          r.val = v(i);
          r.loc = i;
        }
      },
      Kokkos::MinLoc<int, int>(minloc));
  Kokkos::parallel_reduce(
      "maxloc", p,
      KOKKOS_LAMBDA(int i, MaxLocT& r) {
        if (v(i) > r.val) {
          r.val = v(i);
          r.loc = i;
        }
      },
      Kokkos::MaxLoc<int, int>(maxloc));
  Kokkos::parallel_reduce(
      "minmax", p,
      KOKKOS_LAMBDA(int i, MinMaxT& r) {
        if (v(i) < r.min_val) r.min_val = v(i);
        if (v(i) > r.max_val) r.max_val = v(i);
      },
      Kokkos::MinMax<int>(minmax));
  Kokkos::parallel_reduce(
      "minmaxloc", p,
      KOKKOS_LAMBDA(int i, MinMaxLocT& r) {
        if (v(i) < r.min_val) {
          r.min_val = v(i);
          r.min_loc = i;
        }
        if (v(i) > r.max_val) {
          r.max_val = v(i);
          r.max_loc = i;
        }
      },
      Kokkos::MinMaxLoc<int, int>(minmaxloc));
  const int lo = *std::min_element(ref.begin(), ref.end()), hi = *std::max_element(ref.begin(), ref.end());
  EXPECT_EQ(minloc.val, lo);
  EXPECT_EQ(ref[minloc.loc], lo);
  EXPECT_EQ(maxloc.val, hi);
  EXPECT_EQ(ref[maxloc.loc], hi);
  EXPECT_EQ(minmax.min_val, lo);
  EXPECT_EQ(minmax.max_val, hi);
  EXPECT_EQ(minmaxloc.min_val, lo);
  EXPECT_EQ(ref[minmaxloc.min_loc], lo);
  EXPECT_EQ(minmaxloc.max_val, hi);
  EXPECT_EQ(ref[minmaxloc.max_loc], hi);
}

// A histogram as an array reduction of runtime length.
struct Histogram {
  using value_type = long[];
  int value_count;
  KOKKOS_INLINE_FUNCTION void operator()(const long i, long* bins) const { bins[i % value_count] += i; }
};

TEST(CudaRange, ArrayReduction) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  for (const int bins : {1, 3, 17, 100}) {
    const long n = 123457;
    std::vector<long> result(bins, -1);
    Kokkos::parallel_reduce("histogram", Kokkos::RangePolicy<Cuda>(0, n), Histogram{bins}, result.data());
    std::vector<long> ref(bins, 0);
    for (long i = 0; i < n; ++i) ref[i % bins] += i;
    EXPECT_EQ(result, ref) << "bins=" << bins;
  }
}

// Max of squares with a custom init/join, doubled by final().
struct MaxSquareTwice {
  using value_type = long;
  KOKKOS_INLINE_FUNCTION void operator()(const long i, long& m) const {
    const long s = (i % 1000) * (i % 1000);
    if (s > m) m = s;
  }
  KOKKOS_INLINE_FUNCTION void init(long& m) const { m = -7; }
  KOKKOS_INLINE_FUNCTION void join(long& dst, const long& src) const {
    if (src > dst) dst = src;
  }
  KOKKOS_INLINE_FUNCTION void final(long& m) const { m *= 2; }
};

TEST(CudaRange, FunctorInitJoinFinalAndEmptyRange) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  long m = 0;
  Kokkos::parallel_reduce("maxsq", Kokkos::RangePolicy<Cuda>(0, 54321), MaxSquareTwice{}, m);
  EXPECT_EQ(m, 2L * 999 * 999);
  Kokkos::parallel_reduce("maxsq-empty", Kokkos::RangePolicy<Cuda>(0, 0), MaxSquareTwice{}, m);
  EXPECT_EQ(m, -14);
}

TEST(CudaRange, ReduceIntoDeviceViewAndSeveralResults) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const long n = 300000;
  Kokkos::View<long, Kokkos::CudaSpace> total("total");
  Kokkos::parallel_reduce(
      "into-view", Kokkos::RangePolicy<Cuda>(0, n), KOKKOS_LAMBDA(const long i, long& s) { s += i; }, total);
  Kokkos::View<long, Kokkos::CudaSpace> largest("largest");
  Kokkos::parallel_reduce(
      "into-reducer-view", Kokkos::RangePolicy<Cuda>(0, n), KOKKOS_LAMBDA(const long i, long& s) { s = i > s ? i : s; },
      Kokkos::Max<long, Kokkos::CudaSpace>(largest));
  long h_total = 0, h_largest = 0;
  Kokkos::deep_copy(h_total, total);
  Kokkos::deep_copy(h_largest, largest);
  EXPECT_EQ(h_total, n * (n - 1) / 2);
  EXPECT_EQ(h_largest, n - 1);

  long sum = 0;
  int mx = 0;
  Kokkos::parallel_reduce(
      "two", Kokkos::RangePolicy<Cuda>(0, n),
      KOKKOS_LAMBDA(const long i, long& s, int& m) {
        s += i;
        if (int(i % 977) > m) m = int(i % 977);
      },
      sum, Kokkos::Max<int>(mx));
  EXPECT_EQ(sum, n * (n - 1) / 2);
  EXPECT_EQ(mx, 976);
}

TEST(CudaRange, ScanExclusiveInclusiveAndTotal) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  for (const long n : {1L, 100L, 4096L, 1000003L}) {
    DeviceLongView ex("ex", n), in("in", n);
    long total = -1;
    Kokkos::parallel_scan(
        "scan", Kokkos::RangePolicy<Cuda>(0, n),
        KOKKOS_LAMBDA(const long i, long& update, const bool final) {
          if (final) ex(i) = update;
          update += i % 7;
          if (final) in(i) = update;
        },
        total);
    const auto hex = to_host(ex);
    const auto hin = to_host(in);
    long running = 0;
    for (long i = 0; i < n; ++i) {
      ASSERT_EQ(hex(i), running) << "n=" << n << " i=" << i;
      running += i % 7;
      ASSERT_EQ(hin(i), running);
    }
    EXPECT_EQ(total, running);
  }
}

// ---- MDRangePolicy ---------------------------------------------------------------------------------

template <int R>
void check_mdrange() {
  using Policy = Kokkos::MDRangePolicy<Cuda, Kokkos::Rank<R>>;
  typename Policy::point_type lo{}, hi{};
  const long ext[6] = {13, 7, 5, 4, 3, 3};
  long count = 1;
  for (int d = 0; d < R; ++d) {
    lo[d] = d;  // nonzero offsets in all but the first dimension
    hi[d] = d + ext[d];
    count *= ext[d];
  }
  DeviceLongView hits("hits", count);
  long weight_sum = 0;
  const auto linear = KOKKOS_LAMBDA(const long* i) {
    long l = 0;
    for (int d = R - 1; d >= 0; --d) l = l * ext[d] + (i[d] - d);
    return l;
  };
  if constexpr (R == 2) {
    Kokkos::parallel_for("md2", Policy(lo, hi), KOKKOS_LAMBDA(long a, long b) {
      const long i[] = {a, b};
      Kokkos::atomic_add(&hits(linear(i)), 1L);
    });
    Kokkos::parallel_reduce("md2r", Policy(lo, hi, {4, 3}), KOKKOS_LAMBDA(long a, long b, long& s) { s += a * 3 + b; },
                            weight_sum);
  } else if constexpr (R == 3) {
    Kokkos::parallel_for("md3", Policy(lo, hi), KOKKOS_LAMBDA(long a, long b, long c) {
      const long i[] = {a, b, c};
      Kokkos::atomic_add(&hits(linear(i)), 1L);
    });
    Kokkos::parallel_reduce("md3r", Policy(lo, hi, {2, 2, 2}),
                            KOKKOS_LAMBDA(long a, long b, long c, long& s) { s += a * 3 + b + c; }, weight_sum);
  } else if constexpr (R == 4) {
    Kokkos::parallel_for("md4", Policy(lo, hi), KOKKOS_LAMBDA(long a, long b, long c, long d) {
      const long i[] = {a, b, c, d};
      Kokkos::atomic_add(&hits(linear(i)), 1L);
    });
    Kokkos::parallel_reduce("md4r", Policy(lo, hi), KOKKOS_LAMBDA(long a, long b, long c, long d, long& s) {
      s += a * 3 + b + c + d;
    }, weight_sum);
  } else if constexpr (R == 5) {
    Kokkos::parallel_for("md5", Policy(lo, hi), KOKKOS_LAMBDA(long a, long b, long c, long d, long e) {
      const long i[] = {a, b, c, d, e};
      Kokkos::atomic_add(&hits(linear(i)), 1L);
    });
    Kokkos::parallel_reduce("md5r", Policy(lo, hi), KOKKOS_LAMBDA(long a, long b, long c, long d, long e, long& s) {
      s += a * 3 + b + c + d + e;
    }, weight_sum);
  } else {
    Kokkos::parallel_for("md6", Policy(lo, hi), KOKKOS_LAMBDA(long a, long b, long c, long d, long e, long f) {
      const long i[] = {a, b, c, d, e, f};
      Kokkos::atomic_add(&hits(linear(i)), 1L);
    });
    Kokkos::parallel_reduce("md6r", Policy(lo, hi),
                            KOKKOS_LAMBDA(long a, long b, long c, long d, long e, long f, long& s) {
                              s += a * 3 + b + c + d + e + f;
                            },
                            weight_sum);
  }
  const auto h = to_host(hits);
  for (long k = 0; k < count; ++k) ASSERT_EQ(h(k), 1) << "rank " << R << " point " << k;
  // Reference: every point once.
  long ref = 0;
  std::vector<long> idx(R);
  for (long k = 0; k < count; ++k) {
    long rest = k, w = 0;
    for (int d = 0; d < R; ++d) {
      idx[d] = lo[d] + rest % ext[d];
      rest /= ext[d];
      w += d == 0 ? 3 * idx[d] : idx[d];
    }
    ref += w;
  }
  EXPECT_EQ(weight_sum, ref) << "rank " << R;
}

TEST(CudaMDRange, Rank2To6ForAndReduce) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  check_mdrange<2>();
  check_mdrange<3>();
  check_mdrange<4>();
  check_mdrange<5>();
  check_mdrange<6>();
}

TEST(CudaMDRange, OversizedTileNamesTheLaunch) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  using Policy = Kokkos::MDRangePolicy<Cuda, Kokkos::Rank<2>>;
  expect_error([] { Kokkos::parallel_for("big-tile", Policy({0, 0}, {100, 100}, {64, 64}), KOKKOS_LAMBDA(int, int){}); },
               {"big-tile", "64 x 64", "4096"});
}

// ---- TeamPolicy ------------------------------------------------------------------------------------

using TeamPolicy = Kokkos::TeamPolicy<Cuda>;
using Member = TeamPolicy::member_type;

TEST(CudaTeam, NestedRangesForReduceAndScan) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const int league = 37, rows = 45, cols = 19;
  for (const int vl : {1, 4, 32}) {
    Kokkos::View<long**, Kokkos::CudaSpace> m("m", league * rows, cols);
    DeviceLongView row_sums("row_sums", league * rows), team_sums("team_sums", league);
    DeviceLongView prefix("prefix", league * rows), vec_prefix("vec_prefix", league * cols);
    DeviceLongView tv("tv", league);
    Kokkos::parallel_for("nested", TeamPolicy(league, Kokkos::AUTO, vl), KOKKOS_LAMBDA(const Member& team) {
      const int t = team.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows), [&](const int r) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, cols),
                             [&](const int c) { m(t * rows + r, c) = long(t) * 1000 + r * cols + c; });
        long s = 0;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, cols), [&](const int c, long& acc) { acc += long(t) * 1000 + r * cols + c; },
            s);
        Kokkos::single(Kokkos::PerThread(team), [&]() { row_sums(t * rows + r) = s; });
      });
      long total = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, rows), [&](const int r, long& acc) { acc += r + t; }, total);
      long scanned = 0;
      Kokkos::parallel_scan(
          Kokkos::TeamThreadRange(team, rows),
          [&](const int r, long& update, const bool final) {
            if (final) prefix(t * rows + r) = update;
            update += r + 1;
          },
          scanned);
      // Every vector lane of team rank 0 takes part in its vector scan.
      if (team.team_rank() == 0) {
        Kokkos::parallel_scan(Kokkos::ThreadVectorRange(team, cols), [&](const int c, long& update, const bool final) {
          if (final) vec_prefix(t * cols + c) = update;
          update += c;
        });
      }
      long tv_sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamVectorRange(team, 1000), [&](const int i, long& acc) { acc += i; }, tv_sum);
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        team_sums(t) = total + (scanned == long(rows) * (rows + 1) / 2 ? 0 : 1000000);
        tv(t) = tv_sum;
      });
    });
    const auto hm = to_host(m);
    const auto hrow = to_host(row_sums);
    const auto hteam = to_host(team_sums);
    const auto hprefix = to_host(prefix);
    const auto hvec = to_host(vec_prefix);
    const auto htv = to_host(tv);
    for (int t = 0; t < league; ++t) {
      for (int r = 0; r < rows; ++r) {
        long s = 0;
        for (int c = 0; c < cols; ++c) {
          const long v = long(t) * 1000 + r * cols + c;
          ASSERT_EQ(hm(t * rows + r, c), v) << "vl=" << vl;
          s += v;
        }
        ASSERT_EQ(hrow(t * rows + r), s) << "vl=" << vl;
        ASSERT_EQ(hprefix(t * rows + r), long(r) * (r + 1) / 2) << "vl=" << vl;
      }
      for (int c = 0; c < cols; ++c) ASSERT_EQ(hvec(t * cols + c), long(c) * (c - 1) / 2) << "vl=" << vl;
      EXPECT_EQ(hteam(t), long(rows) * (rows - 1) / 2 + long(rows) * t) << "vl=" << vl;
      EXPECT_EQ(htv(t), 999L * 1000 / 2) << "vl=" << vl;
    }
  }
}

TEST(CudaTeam, BarrierBroadcastCollectivesAndScratch) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const int league = 50, team_size = 64, per_thread = 8;
  DeviceLongView out("out", league * 5);
  TeamPolicy policy(league, team_size, 2);
  policy.set_scratch_size(0, Kokkos::PerTeam(team_size * sizeof(long)));
  policy.set_scratch_size(1, Kokkos::PerTeam(4096), Kokkos::PerThread(per_thread * sizeof(long)));
  using Scratch = Kokkos::View<long*, Cuda::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::parallel_for("collectives", policy, KOKKOS_LAMBDA(const Member& team) {
    const int r = team.team_rank();
    Scratch shared(team.team_scratch(0), team.team_size());
    Scratch big(team.team_scratch(1), 4096 / sizeof(long));
    Scratch mine(team.thread_scratch(1), per_thread);
    Kokkos::single(Kokkos::PerThread(team), [&]() {
      shared(r) = r + team.league_rank();
      for (int k = 0; k < per_thread; ++k) mine(k) = r * k;
    });
    team.team_barrier();
    // Each rank reads its neighbour's level-0 value: only correct after the barrier.
    long neighbour = shared((r + 1) % team.team_size());
    long from_three = r == 3 ? 42 + team.league_rank() : -1;
    team.team_broadcast(from_three, 3);
    const long team_sum = team.team_reduce(neighbour);
    long maxr = r;
    team.team_reduce(Kokkos::Max<long>(maxr));
    const long before = team.team_scan(long(r));
    long own = 0;
    for (int k = 0; k < per_thread; ++k) own += mine(k);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 4096 / sizeof(long)), [&](int k) {
      Kokkos::single(Kokkos::PerThread(team), [&]() { big(k) = k; });
    });
    team.team_barrier();
    long big_sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, 4096 / sizeof(long)), [&](int k, long& acc) { acc += big(k); }, big_sum);
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      out(team.league_rank() * 5 + 0) = from_three;
      out(team.league_rank() * 5 + 1) = team_sum;
      out(team.league_rank() * 5 + 2) = maxr;
      out(team.league_rank() * 5 + 4) = big_sum;
    });
    if (r == team.team_size() - 1) {
      Kokkos::single(Kokkos::PerThread(team), [&]() { out(team.league_rank() * 5 + 3) = before + own; });
    }
  });
  const auto h = to_host(out);
  const long n = 4096 / sizeof(long);
  for (int t = 0; t < league; ++t) {
    EXPECT_EQ(h(t * 5 + 0), 42 + t);
    EXPECT_EQ(h(t * 5 + 1), long(team_size) * (team_size - 1) / 2 + long(team_size) * t);
    EXPECT_EQ(h(t * 5 + 2), team_size - 1);
    const long last = team_size - 1;
    EXPECT_EQ(h(t * 5 + 3), last * (last - 1) / 2 + last * (per_thread * (per_thread - 1) / 2));
    EXPECT_EQ(h(t * 5 + 4), n * (n - 1) / 2);
  }
}

// Dynamic shared memory under 48 KiB whose sum with the kernel's static shared memory (the team
// reduction's slots) is over 48 KiB: the launch must opt in to the larger limit.
TEST(CudaTeam, ScratchJustUnder48KiBWithStaticSharedMemory) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const int league = 4, team_size = 32;
  const std::size_t scratch = 48 * 1024 - 64;
  DeviceLongView out("out", league);
  TeamPolicy policy(league, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(scratch));
  using Scratch = Kokkos::View<char*, Cuda::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::parallel_for("scratch under 48 KiB", policy, KOKKOS_LAMBDA(const Member& team) {
    Scratch bytes(team.team_scratch(0), scratch);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, long(scratch)), [&](long k) { bytes(k) = char(k % 7); });
    team.team_barrier();
    long local = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, long(scratch)), [&](long k, long& acc) { acc += bytes(k); }, local);
    const long total = team.team_reduce(long(team.team_rank() == 0 ? local : 0));
    Kokkos::single(Kokkos::PerTeam(team), [&]() { out(team.league_rank()) = total; });
  });
  long expected = 0;
  for (std::size_t k = 0; k < scratch; ++k) expected += long(k % 7);
  const auto h = to_host(out);
  for (int t = 0; t < league; ++t) EXPECT_EQ(h(t), expected) << "team " << t;
}

struct TeamSum {
  using value_type = long;
  KOKKOS_INLINE_FUNCTION void operator()(const Twice, const Member& team, long& s) const {
    long local = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, 100), [&](int i, long& acc) { acc += i + team.league_rank(); }, local);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { s += local; });
  }
};

TEST(CudaTeam, ReduceOverLeagueWithTagAndDeviceResult) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  for (const int league : {0, 1, 1000}) {
    long sum = -1;
    Kokkos::parallel_reduce("team-sum", Kokkos::TeamPolicy<Cuda, Twice>(league, 32), TeamSum{}, sum);
    EXPECT_EQ(sum, league * 4950L + 100L * league * (league - 1) / 2) << "league=" << league;
  }
  Kokkos::View<long, Kokkos::CudaSpace> dev("dev");
  Kokkos::parallel_reduce("team-sum-view", Kokkos::TeamPolicy<Cuda, Twice>(10, Kokkos::AUTO), TeamSum{}, dev);
  long h = 0;
  Kokkos::deep_copy(h, dev);
  EXPECT_EQ(h, 10 * 4950L + 100L * 45);
}

TEST(CudaTeam, SizeQueries) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const auto f = KOKKOS_LAMBDA(const Member&) {};
  TeamPolicy p(1, 1, 4);
  const int max = p.team_size_max(f, Kokkos::ParallelForTag());
  const int rec = p.team_size_recommended(f, Kokkos::ParallelForTag());
  EXPECT_GE(max, 1);
  EXPECT_LE(max * 4, 1024);
  EXPECT_GE(rec, 1);
  EXPECT_LE(rec, max);
  EXPECT_EQ(TeamPolicy::vector_length_max(), 32);
  EXPECT_GE(TeamPolicy::scratch_size_max(0), std::size_t(48 * 1024));
}

TEST(CudaTeam, BadInputNamesTheProblemAndTheLaunch) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  const auto f = KOKKOS_LAMBDA(const Member&) {};
  // 512 x 4 = 2048 threads: more than a block holds.
  expect_error([&] { Kokkos::parallel_for("oversized-team", TeamPolicy(4, 512, 4), f); },
               {"oversized-team", "team_size 512", "vector_length 4", "2048"});
  expect_error([] { TeamPolicy(4, 8, 64); }, {"vector length 64", "vector_length_max 32"});
  expect_error([] { TeamPolicy(4, 8, 3); }, {"vector length 3", "power of two"});
  expect_error([] { TeamPolicy(4, 2048); }, {"team size 2048"});
  expect_error(
      [] {
        TeamPolicy p(4, 32);
        p.set_scratch_size(0, Kokkos::PerTeam(TeamPolicy::scratch_size_max(0) + 1));
      },
      {"scratch_size_max(0)"});
  // Within the policy's limit, but the launch's own shared memory does not fit beside it.
  TeamPolicy p(4, 32);
  p.set_scratch_size(0, Kokkos::PerTeam(TeamPolicy::scratch_size_max(0)));
  long sum = 0;
  expect_error(
      [&] {
        Kokkos::parallel_reduce(
            "too-much-scratch", p, KOKKOS_LAMBDA(const Member& team, long& s) { s += team.team_reduce(1L); }, sum);
      },
      {"too-much-scratch", "level-0 scratch"});
}

struct BigClosure {
  DeviceLongView out;
  long table[6000];  // 48 KB: over the kernel parameter limit
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const { out(i) = table[i]; }
};

TEST(CudaLaunch, LargeClosureGoesThroughGlobalMemory) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  using Big = BigClosure;
  auto big = std::make_unique<Big>();
  big->out = DeviceLongView("out", 6000);
  for (int i = 0; i < 6000; ++i) big->table[i] = 3L * i;
  Kokkos::parallel_for("big-closure", Kokkos::RangePolicy<Cuda>(0, 6000), *big);
  const auto h = to_host(big->out);
  for (int i = 0; i < 6000; ++i) ASSERT_EQ(h(i), 3L * i);
}

TEST(CudaLaunch, PrintfAndAbortInKernels) {
  KOKKOS_TEST_REQUIRE_SPACE(Cuda);
  testing::internal::CaptureStdout();
  Kokkos::parallel_for("printf", Kokkos::RangePolicy<Cuda>(0, 3),
                       KOKKOS_LAMBDA(const int i) { Kokkos::printf("kdag-device-printf-%d\n", i); });
  Kokkos::fence();
  std::fflush(stdout);
  const std::string out = testing::internal::GetCapturedStdout();
  for (int i = 0; i < 3; ++i) EXPECT_NE(out.find("kdag-device-printf-" + std::to_string(i)), std::string::npos) << out;

  // The device abort prints and traps, so the next fence fails (a kernel that returned would
  // let the statement finish, which fails the death test).
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        try {
          Kokkos::parallel_for("abort", Kokkos::RangePolicy<Cuda>(0, 1),
                               KOKKOS_LAMBDA(const int) { Kokkos::abort("kdag-device-abort\n"); });
          Kokkos::fence();
        } catch (const std::exception& e) {
          std::fprintf(stderr, "fence after the device abort: %s\n", e.what());
          std::abort();
        }
      },
      "fence after the device abort");
}

}  // namespace

#else
TEST(CudaPatterns, NeedsCuda) { GTEST_SKIP() << "Kokkos_ENABLE_CUDA is off: no Cuda patterns to test"; }
#endif

// Work DAG throughput: items per second of WorkGraphPolicy on three shapes, at 1
// thread (Serial) and on every thread of the multi-threaded host back ends, beside peers
// measured in the same run on the same graph and functor:
//
//   Seq          a plain loop over the items in a topological order: the floor
//   Ceiling      the same calls without dependences (a parallel_for writing to scratch): what
//                the threads can give at all on this machine at this moment
//   LevelSync    the level-synchronous baseline: items grouped by topological level, one
//                parallel_for per level
//   Kokkos46     Kokkos 4.6's WorkGraphPolicy algorithm, re-implemented here: one shared ready
//                queue (pop scans from a begin hint and claims with a CAS, push takes a slot at
//                an end hint), every item's successors counted down with an atomic each
//   WorkGraph    kdag's WorkGraphPolicy, launch only (construction excluded)
//   SideBySide   WorkGraph, LevelSync and the 1-thread WorkGraph in rotating order in each of 60
//                rounds (the values zeroed and checked around each run): vs_levelsync and
//                vs_1thread from one run's medians, free of the drift between benchmarks
//   Construct    WorkGraphPolicy construction: checks, order and the first launch's schedule
//                (no plan kept from an earlier construction)
//   TopoSort     a plain sequential Kahn topological sort of the same CRS (in-degrees, then a
//                FIFO queue): the floor construction is held to
//   Rebuild      a policy constructed again from the unchanged graph (its plan reused)
//   OneShot      construction + first launch of a fresh policy, beside Kokkos46OneShot: the
//                transcription's construction (its queue allocated and initialised: counts,
//                sources pushed) + launch
//
// Shapes:  Tree       binary-tree reduction, 2^20 - 1 items (each node after its two children)
//          Wavefront  1000 x 1000 grid, (i, j) after (i-1, j) and (i, j-1)
//          Random     2^20 items, item j after 0-3 items drawn uniformly from [0, j)
//
// Counters:  items/s          items per second
//            vs_levelsync     LevelSync's time / this time, same space (> 1: faster than it)
//            vs_kokkos46      Kokkos46's time / this time, same space
//            vs_1thread       the 1-thread (Serial) time of the same executor / this time
//            ceiling          Ceiling's vs_1thread: the speedup a DAG-free loop gets
//            vs_seq           Seq's time / this time
//            round_trip_ns    (CoreToCore) a cache line's round trip between two threads now
//            vs_toposort      (Construct) construction / TopoSort: goal <= 2
//            vs_construct     (Rebuild) rebuild / construction, same space: goal <= 0.1
//            vs_kokkos46_oneshot  (OneShot) Kokkos46OneShot / OneShot, same space: goal >= 5 at 2 threads
//
// Run: PerfWorkGraph --kokkos-num-threads=2 --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_Crs.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using Graph = Kokkos::WorkGraphPolicy<std::int32_t, Kokkos::Serial>::graph_type;  // host arrays

// ---- shapes -----------------------------------------------------------------------------------

enum class Shape { Tree, Wavefront, Random };
const char* shape_name(Shape s) { return s == Shape::Tree ? "Tree" : s == Shape::Wavefront ? "Wavefront" : "Random"; }

constexpr std::int32_t tree_items = (1 << 20) - 1;
constexpr std::int32_t grid = 1000;
constexpr std::int32_t random_items = 1 << 20;

// Everything a shape's executors share, built once.
struct ShapeData {
  std::int32_t n = 0;
  std::vector<std::int32_t> row_map, entries;         // successors: the work graph
  std::vector<std::int32_t> pred_row_map, pred_entries;  // predecessors: what the functor reads
  std::vector<std::int32_t> seq_order;                 // a topological order for the plain loop
  std::vector<std::int32_t> level_items, level_begin;  // items by level, for LevelSync
  Kokkos::View<double*, Kokkos::HostSpace> values;
};

ShapeData build_shape(Shape shape) {
  ShapeData d;
  std::vector<std::vector<std::int32_t>> preds;
  if (shape == Shape::Tree) {
    d.n = tree_items;
    preds.resize(static_cast<std::size_t>(d.n));
    for (std::int32_t i = 0; 2 * i + 2 < d.n; ++i) preds[static_cast<std::size_t>(i)] = {2 * i + 1, 2 * i + 2};
    for (std::int32_t i = d.n; i-- > 0;) d.seq_order.push_back(i);
  } else if (shape == Shape::Wavefront) {
    d.n = grid * grid;
    preds.resize(static_cast<std::size_t>(d.n));
    for (std::int32_t i = 0; i < grid; ++i) {
      for (std::int32_t j = 0; j < grid; ++j) {
        auto& p = preds[static_cast<std::size_t>(i * grid + j)];
        if (i > 0) p.push_back((i - 1) * grid + j);
        if (j > 0) p.push_back(i * grid + j - 1);
      }
    }
    for (std::int32_t k = 0; k < d.n; ++k) d.seq_order.push_back(k);
  } else {
    d.n = random_items;
    preds.resize(static_cast<std::size_t>(d.n));
    std::mt19937 rng(12345);
    for (std::int32_t j = 1; j < d.n; ++j) {
      const int k = static_cast<int>(rng() % 4);
      for (int e = 0; e < k; ++e) preds[static_cast<std::size_t>(j)].push_back(static_cast<std::int32_t>(rng() % static_cast<unsigned>(j)));
      std::sort(preds[static_cast<std::size_t>(j)].begin(), preds[static_cast<std::size_t>(j)].end());
      preds[static_cast<std::size_t>(j)].erase(std::unique(preds[static_cast<std::size_t>(j)].begin(), preds[static_cast<std::size_t>(j)].end()),
                                               preds[static_cast<std::size_t>(j)].end());
    }
    for (std::int32_t k = 0; k < d.n; ++k) d.seq_order.push_back(k);
  }
  // Predecessor CRS, and its transpose (successors, ascending) for the work graph.
  d.pred_row_map.assign(1, 0);
  std::vector<std::int32_t> out_degree(static_cast<std::size_t>(d.n), 0);
  for (const auto& p : preds) {
    for (std::int32_t q : p) {
      d.pred_entries.push_back(q);
      ++out_degree[static_cast<std::size_t>(q)];
    }
    d.pred_row_map.push_back(static_cast<std::int32_t>(d.pred_entries.size()));
  }
  d.row_map.assign(static_cast<std::size_t>(d.n) + 1, 0);
  for (std::int32_t i = 0; i < d.n; ++i) d.row_map[static_cast<std::size_t>(i) + 1] = d.row_map[static_cast<std::size_t>(i)] + out_degree[static_cast<std::size_t>(i)];
  d.entries.resize(d.pred_entries.size());
  std::vector<std::int32_t> cursor(d.row_map.begin(), d.row_map.end() - 1);
  for (std::int32_t j = 0; j < d.n; ++j) {
    for (std::int32_t q : preds[static_cast<std::size_t>(j)]) d.entries[static_cast<std::size_t>(cursor[static_cast<std::size_t>(q)]++)] = j;
  }
  // Levels: the longest path from a source, relaxed in the topological order seq_order.
  std::vector<std::int32_t> level(static_cast<std::size_t>(d.n), 0);
  std::int32_t levels = 0;
  for (std::int32_t i : d.seq_order) {
    for (std::int32_t q : preds[static_cast<std::size_t>(i)]) {
      level[static_cast<std::size_t>(i)] = std::max(level[static_cast<std::size_t>(i)], level[static_cast<std::size_t>(q)] + 1);
    }
    levels = std::max(levels, level[static_cast<std::size_t>(i)] + 1);
  }
  d.level_begin.assign(static_cast<std::size_t>(levels) + 1, 0);
  for (std::int32_t l : level) ++d.level_begin[static_cast<std::size_t>(l) + 1];
  for (std::size_t l = 1; l < d.level_begin.size(); ++l) d.level_begin[l] += d.level_begin[l - 1];
  d.level_items.resize(static_cast<std::size_t>(d.n));
  std::vector<std::int32_t> fill(d.level_begin.begin(), d.level_begin.end() - 1);
  for (std::int32_t i = 0; i < d.n; ++i) d.level_items[static_cast<std::size_t>(fill[static_cast<std::size_t>(level[static_cast<std::size_t>(i)])]++)] = i;
  d.values = Kokkos::View<double*, Kokkos::HostSpace>("values", static_cast<std::size_t>(d.n));
  return d;
}

ShapeData& shape_data(Shape s) {
  static std::map<Shape, std::unique_ptr<ShapeData>> cache;
  auto& p = cache[s];
  if (!p) p = std::make_unique<ShapeData>(build_shape(s));
  return *p;
}

template <class Space>
typename Kokkos::WorkGraphPolicy<std::int32_t, Space>::graph_type work_graph(const ShapeData& d) {
  using G = typename Kokkos::WorkGraphPolicy<std::int32_t, Space>::graph_type;
  G g;
  g.row_map = typename G::row_map_type("row_map", d.row_map.size());
  g.entries = typename G::entries_type("entries", d.entries.size());
  std::copy(d.row_map.begin(), d.row_map.end(), g.row_map.data());
  std::copy(d.entries.begin(), d.entries.end(), g.entries.data());
  return g;
}

// ---- the functors: one per shape, cheap, reading their predecessors' values -------------------

// `in` and `out` are the same array for the DAG; the Ceiling peer writes to scratch instead.
struct TreeFunctor {
  const double* in;
  double* out;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    const std::int32_t c = 2 * i + 1;
    out[i] = c < tree_items ? in[c] + in[c + 1] : static_cast<double>(i & 7);
  }
};

struct WavefrontFunctor {
  const double* in;
  double* out;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    const std::int32_t r = i / grid, c = i % grid;
    const double up = r > 0 ? in[i - grid] : 0.0, left = c > 0 ? in[i - 1] : 0.0;
    out[i] = (up > left ? up : left) + static_cast<double>((r * 31 + c * 17) & 7);
  }
};

struct RandomFunctor {
  const double* in;
  double* out;
  const std::int32_t* pred_row_map;
  const std::int32_t* pred_entries;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    double s = 1.0;
    for (std::int32_t k = pred_row_map[i]; k < pred_row_map[i + 1]; ++k) s += 0.25 * in[pred_entries[k]];
    out[i] = s;
  }
};

// Calls body(functor) with the functor of shape s.
template <class Body>
void with_functor(Shape s, const Body& body, double* out = nullptr) {
  ShapeData& d = shape_data(s);
  double* v = d.values.data();
  if (out == nullptr) out = v;
  if (s == Shape::Tree) {
    body(TreeFunctor{v, out});
  } else if (s == Shape::Wavefront) {
    body(WavefrontFunctor{v, out});
  } else {
    body(RandomFunctor{v, out, d.pred_row_map.data(), d.pred_entries.data()});
  }
}

// The result every executor must reproduce: the values after a plain loop.
double checksum(Shape s) {
  const ShapeData& d = shape_data(s);
  double sum = 0;
  for (std::int32_t i = 0; i < d.n; ++i) sum += d.values(i) * static_cast<double>((i % 13) + 1);
  return sum;
}
double expected_checksum(Shape s) {
  static std::map<Shape, double> cache;
  auto it = cache.find(s);
  if (it != cache.end()) return it->second;
  const ShapeData& d = shape_data(s);
  with_functor(s, [&](const auto& f) {
    for (std::int32_t i : d.seq_order) f(i);
  });
  return cache[s] = checksum(s);
}

// ---- bookkeeping for the ratios -----------------------------------------------------------------

std::map<std::tuple<std::string, Shape, std::string>, double>& seconds_of() {
  static std::map<std::tuple<std::string, Shape, std::string>, double> m;
  return m;
}

template <class Space>
std::string space_key() {
  return Space::name();
}

// Times `run` (one execution over all items), checks the result, and reports the counters.  The
// values start at 0, so that the check fails for an executor that leaves them as an earlier
// benchmark wrote them.
template <class Space, class Run, class Setup = void (*)()>
void measure(benchmark::State& state, const std::string& executor, Shape s, const Run& run, const Setup& setup = [] {}) {
  const ShapeData& d = shape_data(s);
  const double expected = expected_checksum(s);
  Kokkos::deep_copy(d.values, 0.0);
  double seconds = 0;
  std::int64_t runs = 0;
  for (auto _ : state) {
    setup();
    const auto t0 = Clock::now();
    run();
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    seconds += dt;
    state.SetIterationTime(dt);
    ++runs;
  }
  if (std::abs(checksum(s) - expected) > 1e-9 * std::abs(expected)) {
    perf::fail_result_check(state, "wrong result");
    return;
  }
  const double t = seconds / static_cast<double>(runs);
  seconds_of()[{executor, s, space_key<Space>()}] = t;
  state.counters["items/s"] = benchmark::Counter(static_cast<double>(d.n) / t);
  state.counters["threads"] = Space().concurrency();
  auto ratio = [&](const char* name, const std::string& peer, const std::string& peer_space) {
    auto it = seconds_of().find({peer, s, peer_space});
    if (it != seconds_of().end()) state.counters[name] = it->second / t;
  };
  ratio("vs_seq", "Seq", "Serial");
  if (executor != "LevelSync") ratio("vs_levelsync", "LevelSync", space_key<Space>());
  if (executor == "WorkGraph") ratio("vs_kokkos46", "Kokkos46", space_key<Space>());
  if (space_key<Space>() != "Serial") {
    ratio("vs_1thread", executor, "Serial");
    auto one = seconds_of().find({"Ceiling", s, "Serial"});
    auto all = seconds_of().find({"Ceiling", s, space_key<Space>()});
    if (one != seconds_of().end() && all != seconds_of().end()) state.counters["ceiling"] = one->second / all->second;
  }
}

// ---- executors -------------------------------------------------------------------------------

void BM_Seq(benchmark::State& state, Shape s) {
  const ShapeData& d = shape_data(s);
  with_functor(s, [&](const auto& f) {
    measure<Kokkos::Serial>(state, "Seq", s, [&] {
      for (std::int32_t i : d.seq_order) f(i);
    });
  });
}

template <class F>
struct LevelFunctor {
  F f;
  const std::int32_t* items;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k) const { f(items[k]); }
};

// One parallel_for per topological level.
template <class Space, class F>
void run_level_sync(const ShapeData& d, const F& f) {
  const LevelFunctor<F> lf{f, d.level_items.data()};
  for (std::size_t l = 0; l + 1 < d.level_begin.size(); ++l) {
    Kokkos::parallel_for(Kokkos::RangePolicy<Space>(d.level_begin[l], d.level_begin[l + 1]), lf);
  }
}

template <class Space>
void BM_LevelSync(benchmark::State& state, Shape s) {
  const ShapeData& d = shape_data(s);
  with_functor(s, [&](const auto& f) { measure<Space>(state, "LevelSync", s, [&] { run_level_sync<Space>(d, f); }); });
}

// The machine's ceiling: the same calls with no dependences (a parallel_for over all items,
// writing to scratch), so vs_1thread can be read against what the threads can give at all.
template <class Space>
void BM_Ceiling(benchmark::State& state, Shape s) {
  const ShapeData& d = shape_data(s);
  std::vector<double> scratch(static_cast<std::size_t>(d.n));
  with_functor(
      s,
      [&](const auto& f) {
        const LevelFunctor<std::decay_t<decltype(f)>> lf{f, d.seq_order.data()};
        double seconds = 0;
        std::int64_t runs = 0;
        for (auto _ : state) {
          const auto t0 = Clock::now();
          Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, d.n), lf);
          const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
          state.SetIterationTime(dt);
          seconds += dt;
          ++runs;
        }
        const double t = seconds / static_cast<double>(runs);
        seconds_of()[{"Ceiling", s, space_key<Space>()}] = t;
        state.counters["items/s"] = benchmark::Counter(static_cast<double>(d.n) / t);
        auto it = seconds_of().find({"Ceiling", s, "Serial"});
        if (space_key<Space>() != "Serial" && it != seconds_of().end()) state.counters["vs_1thread"] = it->second / t;
      },
      scratch.data());
}

// Kokkos 4.6's WorkGraphPolicy scheduler (core/src/Kokkos_WorkGraphPolicy.hpp there): queue[0, N)
// is the ready queue, queue[N, 2N) the waiting counts, queue[2N] and queue[2N+1] the begin and
// end hints.
class Kokkos46Queue {
 public:
  enum : std::int32_t { END_TOKEN = -1, BEGIN_TOKEN = -2, COMPLETED_TOKEN = -3 };

  explicit Kokkos46Queue(const ShapeData& d) : m_d(d), m_queue(2 * static_cast<std::size_t>(d.n) + 2) {}

  // The policy constructor's initialisation: tokens, counts, then every source pushed.
  void reset() {
    const std::int32_t n = m_d.n;
    std::fill(m_queue.begin(), m_queue.begin() + n, END_TOKEN);
    std::fill(m_queue.begin() + n, m_queue.end(), 0);
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(m_d.entries.size()); ++k) ++m_queue[static_cast<std::size_t>(n + m_d.entries[static_cast<std::size_t>(k)])];
    for (std::int32_t w = 0; w < n; ++w) {
      if (m_queue[static_cast<std::size_t>(n + w)] == 0) push_work(w);
    }
  }

  void push_work(std::int32_t w) const {
    std::int32_t* const ready_queue = m_queue.data();
    std::int32_t* const end_hint = ready_queue + 2 * m_d.n + 1;
    const std::int32_t j = Kokkos::atomic_fetch_add(end_hint, 1);
    if (m_d.n <= j || END_TOKEN != Kokkos::atomic_exchange(ready_queue + j, w)) Kokkos::abort("push_work error");
  }

  std::int32_t pop_work() const {
    std::int32_t* const ready_queue = m_queue.data();
    std::int32_t* const begin_hint = ready_queue + 2 * m_d.n;
    for (std::int32_t i = Kokkos::atomic_load(begin_hint); i < m_d.n; ++i) {
      const std::int32_t w = Kokkos::atomic_load(ready_queue + i);
      if (w == END_TOKEN) return END_TOKEN;
      if (w != BEGIN_TOKEN && w == Kokkos::atomic_compare_exchange(ready_queue + i, w, std::int32_t(BEGIN_TOKEN))) {
        Kokkos::atomic_increment(begin_hint);
        return w;
      }
    }
    return COMPLETED_TOKEN;
  }

  void completed_work(std::int32_t w) const {
    Kokkos::memory_fence();
    std::int32_t* const count_queue = m_queue.data() + m_d.n;
    for (std::int32_t i = m_d.row_map[static_cast<std::size_t>(w)]; i < m_d.row_map[static_cast<std::size_t>(w) + 1]; ++i) {
      const std::int32_t j = m_d.entries[static_cast<std::size_t>(i)];
      if (1 == Kokkos::atomic_fetch_add(count_queue + j, -1)) push_work(j);
    }
  }

 private:
  const ShapeData& m_d;
  mutable std::vector<std::int32_t> m_queue;
};

template <class Space, class F>
void run_kokkos46(benchmark::State& state, Shape s, const ShapeData& d, const F& f);

template <class Space>
void BM_Kokkos46(benchmark::State& state, Shape s) {
  const ShapeData& d = shape_data(s);
  with_functor(s, [&](const auto& f) { run_kokkos46<Space>(state, s, d, f); });
}

template <class Space, class F>
void run_kokkos46(benchmark::State& state, Shape s, const ShapeData& d, const F& f) {
  Kokkos46Queue queue(d);
  // Construction (the queue's initialisation) is excluded, as in the reference figures.
  double seconds = 0;
  std::int64_t runs = 0;
  const double expected = expected_checksum(s);
  for (auto _ : state) {
    queue.reset();
    const auto t0 = Clock::now();
    Space().impl_run_on_workers([&](int, int) {
      for (std::int32_t w = Kokkos46Queue::END_TOKEN; Kokkos46Queue::COMPLETED_TOKEN != (w = queue.pop_work());) {
        if (Kokkos46Queue::END_TOKEN != w) {
          f(w);
          queue.completed_work(w);
        }
      }
    });
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    state.SetIterationTime(dt);
    seconds += dt;
    ++runs;
  }
  if (std::abs(checksum(s) - expected) > 1e-9 * std::abs(expected)) {
    perf::fail_result_check(state, "wrong result");
    return;
  }
  const double t = seconds / static_cast<double>(runs);
  seconds_of()[{"Kokkos46", s, space_key<Space>()}] = t;
  state.counters["items/s"] = benchmark::Counter(static_cast<double>(d.n) / t);
  state.counters["threads"] = Space().concurrency();
  auto it = seconds_of().find({"Kokkos46", s, "Serial"});
  if (space_key<Space>() != "Serial" && it != seconds_of().end()) state.counters["vs_1thread"] = it->second / t;
}

template <class Space>
const Kokkos::WorkGraphPolicy<std::int32_t, Space>& cached_policy(Shape s) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
  static std::map<Shape, std::unique_ptr<Policy>> cache;
  auto& p = cache[s];
  if (!p) {
    p = std::make_unique<Policy>(work_graph<Space>(shape_data(s)));
    p->impl_plan_fully();  // what a second launch would do: the launches timed are the steady state's
  }
  return *p;
}

template <class Space>
void BM_WorkGraph(benchmark::State& state, Shape s) {
  const auto& policy = cached_policy<Space>(s);
  with_functor(s, [&](const auto& f) {
    measure<Space>(state, "WorkGraph", s, [&] { Kokkos::parallel_for("work graph", policy, f); });
  });
  state.counters["units"] = static_cast<double>(policy.impl_num_units());
  // The schedules the launches choose between by timing them, and the one they settled on.
  state.counters["schedules"] = policy.impl_num_schedules();
  state.counters["schedule"] = policy.impl_preferred_schedule();
}

// The ratios that drift most between benchmarks run a minute apart, timed side by side: each
// iteration runs the work graph on `Space`, the level-synchronous loop on `Space` and the work
// graph on one thread (Serial), in an order that rotates from one iteration to the next, and
// checks each result.  The iteration's time is the work graph's on `Space`; the counters are
// ratios of the medians of the iteration's three times.
constexpr int side_by_side_rounds = 60;

template <class Space>
void BM_SideBySide(benchmark::State& state, Shape s) {
  const ShapeData& d = shape_data(s);
  const auto& policy = cached_policy<Space>(s);
  const auto& serial_policy = cached_policy<Kokkos::Serial>(s);
  const double expected = expected_checksum(s);
  std::vector<double> seconds[3];  // the work graph, the level-synchronous loop, one thread
  with_functor(s, [&](const auto& f) {
    const auto run = [&](int executor) {
      if (executor == 0) {
        Kokkos::parallel_for("work graph", policy, f);
      } else if (executor == 1) {
        run_level_sync<Space>(d, f);
      } else {
        Kokkos::parallel_for("work graph", serial_policy, f);
      }
    };
    std::int64_t round = 0;
    for (auto _ : state) {
      for (int k = 0; k < 3; ++k) {
        const int executor = int((round + k) % 3);
        Kokkos::deep_copy(d.values, 0.0);
        const auto t0 = Clock::now();
        run(executor);
        const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
        if (std::abs(checksum(s) - expected) > 1e-9 * std::abs(expected)) {
          perf::fail_result_check(state, "wrong result");
          return;
        }
        seconds[executor].push_back(dt);
        if (executor == 0) state.SetIterationTime(dt);
      }
      ++round;
    }
  });
  if (seconds[0].empty()) return;
  const auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  const double mine = median(seconds[0]);
  state.counters["items/s"] = benchmark::Counter(static_cast<double>(d.n) / mine);
  state.counters["threads"] = Space().concurrency();
  state.counters["vs_levelsync"] = median(seconds[1]) / mine;
  state.counters["vs_1thread"] = median(seconds[2]) / mine;
}

template <class Space>
void BM_Construct(benchmark::State& state, Shape s) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
  const auto graph = work_graph<Space>(shape_data(s));
  double seconds = 0;
  std::int64_t runs = 0;
  for (auto _ : state) {
    Kokkos::Impl::WorkGraphPlanCache<typename Policy::memory_space>::clear();
    const auto t0 = Clock::now();
    Policy policy(graph);
    benchmark::DoNotOptimize(policy.impl_num_units());
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    state.SetIterationTime(dt);
    seconds += dt;
    ++runs;
  }
  const double t = seconds / static_cast<double>(runs);
  seconds_of()[{"Construct", s, space_key<Space>()}] = t;
  state.counters["items/s"] = benchmark::Counter(static_cast<double>(shape_data(s).n) / t);
  auto it = seconds_of().find({"WorkGraph", s, space_key<Space>()});
  if (it != seconds_of().end()) state.counters["vs_launch"] = t / it->second;  // construction / one launch
  auto topo = seconds_of().find({"TopoSort", s, "Serial"});
  if (topo != seconds_of().end()) state.counters["vs_toposort"] = t / topo->second;
}

// The construction floor: Kahn's algorithm, sequential, on the same CRS (host arrays).
void BM_TopoSort(benchmark::State& state, Shape s) {
  const ShapeData& d = shape_data(s);
  double seconds = 0;
  std::int64_t runs = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    std::vector<std::int32_t> indegree(static_cast<std::size_t>(d.n), 0), order(static_cast<std::size_t>(d.n));
    for (std::int32_t j : d.entries) ++indegree[static_cast<std::size_t>(j)];
    std::int32_t tail = 0;
    for (std::int32_t i = 0; i < d.n; ++i) {
      if (indegree[static_cast<std::size_t>(i)] == 0) order[static_cast<std::size_t>(tail++)] = i;
    }
    for (std::int32_t head = 0; head < tail; ++head) {
      const std::int32_t i = order[static_cast<std::size_t>(head)];
      for (std::int32_t k = d.row_map[static_cast<std::size_t>(i)]; k < d.row_map[static_cast<std::size_t>(i) + 1]; ++k) {
        const std::int32_t j = d.entries[static_cast<std::size_t>(k)];
        if (--indegree[static_cast<std::size_t>(j)] == 0) order[static_cast<std::size_t>(tail++)] = j;
      }
    }
    benchmark::DoNotOptimize(order.data());
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    if (tail != d.n) perf::fail_result_check(state, "cycle");
    state.SetIterationTime(dt);
    seconds += dt;
    ++runs;
  }
  seconds_of()[{"TopoSort", s, "Serial"}] = seconds / static_cast<double>(runs);
}

// A policy rebuilt from the unchanged graph, as in a time-step loop: the plan is reused after
// one pass over the graph (its fingerprint).
template <class Space>
void BM_Rebuild(benchmark::State& state, Shape s) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
  const auto graph = work_graph<Space>(shape_data(s));
  const Policy first(graph);
  double seconds = 0;
  std::int64_t runs = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    Policy policy(graph);
    benchmark::DoNotOptimize(policy.impl_num_units());
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    if (policy.impl_plan() != first.impl_plan()) perf::fail_result_check(state, "plan not reused");
    state.SetIterationTime(dt);
    seconds += dt;
    ++runs;
  }
  const double t = seconds / static_cast<double>(runs);
  auto it = seconds_of().find({"Construct", s, space_key<Space>()});
  if (it != seconds_of().end()) state.counters["vs_construct"] = t / it->second;
}

// Kokkos 4.6's one-shot cost: its constructor (allocate and initialise the queue) and a launch.
template <class Space>
void BM_Kokkos46OneShot(benchmark::State& state, Shape s) {
  const ShapeData& d = shape_data(s);
  with_functor(s, [&](const auto& f) {
    measure<Space>(state, "Kokkos46OneShot", s, [&] {
      Kokkos46Queue queue(d);
      queue.reset();
      Space().impl_run_on_workers([&](int, int) {
        for (std::int32_t w = Kokkos46Queue::END_TOKEN; Kokkos46Queue::COMPLETED_TOKEN != (w = queue.pop_work());) {
          if (Kokkos46Queue::END_TOKEN != w) {
            f(w);
            queue.completed_work(w);
          }
        }
      });
    });
  });
}

// A policy used once: constructed (no plan kept from before) and launched.
template <class Space>
void BM_OneShot(benchmark::State& state, Shape s) {
  using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
  const auto graph = work_graph<Space>(shape_data(s));
  with_functor(s, [&](const auto& f) {
    measure<Space>(
        state, "OneShot", s, [&] {
          const Policy policy(graph);
          Kokkos::parallel_for("work graph", policy, f);
        },
        [] { Kokkos::Impl::WorkGraphPlanCache<typename Policy::memory_space>::clear(); });
  });
  auto mine = seconds_of().find({"OneShot", s, space_key<Space>()});
  auto theirs = seconds_of().find({"Kokkos46OneShot", s, space_key<Space>()});
  if (mine != seconds_of().end() && theirs != seconds_of().end()) {
    state.counters["vs_kokkos46_oneshot"] = theirs->second / mine->second;
  }
}

template <class Space>
void register_space(Shape s, const std::string& prefix) {
  const std::string name = std::string(shape_name(s)) + "/" + Space::name();
  benchmark::RegisterBenchmark((prefix + "Ceiling/" + name).c_str(), BM_Ceiling<Space>, s)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark((prefix + "LevelSync/" + name).c_str(), BM_LevelSync<Space>, s)->UseManualTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark((prefix + "Kokkos46/" + name).c_str(), BM_Kokkos46<Space>, s)->UseManualTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark((prefix + "WorkGraph/" + name).c_str(), BM_WorkGraph<Space>, s)->UseManualTime()->Unit(benchmark::kMillisecond);
  if constexpr (!std::is_same_v<Space, Kokkos::Serial>) {
    benchmark::RegisterBenchmark((prefix + "SideBySide/" + name).c_str(), BM_SideBySide<Space>, s)
        ->UseManualTime()
        ->Iterations(side_by_side_rounds)
        ->Unit(benchmark::kMillisecond);
  }
}

// The machine's core-to-core latency at this moment, for reading the DAG shapes' ratios: two
// threads pass a token through one cache line.  The DAG executors read values other cores
// wrote, the Ceiling does not; on virtual machines whose cores share no cache this round trip
// ranges from ~100 ns to over 400 ns from one hour to the next, and the shapes' speedups with it.
void BM_CoreToCore(benchmark::State& state) {
  constexpr int passes = 20000;
  alignas(64) std::atomic<int> token{0};
  double seconds = 0;
  std::int64_t runs = 0;
  for (auto _ : state) {
    token.store(0);
    std::thread echo([&] {
      for (int k = 0; k < passes; ++k) {
        while (token.load(std::memory_order_acquire) != 2 * k + 1) {
        }
        token.store(2 * k + 2, std::memory_order_release);
      }
    });
    const auto t0 = Clock::now();
    for (int k = 0; k < passes; ++k) {
      token.store(2 * k + 1, std::memory_order_release);
      while (token.load(std::memory_order_acquire) != 2 * k + 2) {
      }
    }
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    echo.join();
    state.SetIterationTime(dt);
    seconds += dt;
    ++runs;
  }
  state.counters["round_trip_ns"] = seconds / static_cast<double>(runs) / passes * 1e9;
}

// Registered in dependency order: each ratio's peer runs first.
const bool registered = [] {
  if (std::thread::hardware_concurrency() > 1) {
    benchmark::RegisterBenchmark("BM_CoreToCore", BM_CoreToCore)->UseManualTime()->Unit(benchmark::kMicrosecond);
  }
  for (Shape s : {Shape::Tree, Shape::Wavefront, Shape::Random}) {
    benchmark::RegisterBenchmark((std::string("BM_Seq/") + shape_name(s)).c_str(), BM_Seq, s)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    register_space<Kokkos::Serial>(s, "BM_");
#if defined(KOKKOS_ENABLE_OPENMP)
    register_space<Kokkos::OpenMP>(s, "BM_");
#endif
#if defined(KOKKOS_ENABLE_THREADS)
    register_space<Kokkos::Threads>(s, "BM_");
#endif
  }
  for (Shape s : {Shape::Tree, Shape::Wavefront, Shape::Random}) {
    const std::string shape = shape_name(s);
    auto add = [&](const std::string& name, auto* fn) {
      benchmark::RegisterBenchmark(name.c_str(), fn, s)->UseManualTime()->Unit(benchmark::kMillisecond);
    };
    add("BM_TopoSort/" + shape, BM_TopoSort);
    // Construction, rebuild and one-shot per space, each after its peer (a type tag: no
    // execution space exists before Kokkos::initialize).
    auto add_space = [&](auto tag) {
      using Space = typename decltype(tag)::type;
      const std::string name = shape + "/" + Space::name();
      add("BM_Construct/" + name, BM_Construct<Space>);
      add("BM_Rebuild/" + name, BM_Rebuild<Space>);
      add("BM_Kokkos46OneShot/" + name, BM_Kokkos46OneShot<Space>);
      add("BM_OneShot/" + name, BM_OneShot<Space>);
    };
    add_space(std::type_identity<Kokkos::Serial>{});
#if defined(KOKKOS_ENABLE_OPENMP)
    add_space(std::type_identity<Kokkos::OpenMP>{});
#endif
#if defined(KOKKOS_ENABLE_THREADS)
    add_space(std::type_identity<Kokkos::Threads>{});
#endif
  }
  return true;
}();

}  // namespace

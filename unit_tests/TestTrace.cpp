// Chrome traces (Kokkos_Trace.hpp): files written by start_trace / stop_trace are read back as
// JSON; every slice has a duration, the slices of one thread nest and never partly overlap,
// a task DAG's slices count its tasks (fib(n) spawns a known number), work-graph units cover
// the graph's items, launches carry their labels (or Kokkos' default name), and a full ring
// drops events and says how many.
#include "TestCommon.hpp"
#include "TraceTestJson.hpp"

#include <Kokkos_TaskScheduler.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using kdag_test_json::Value;

std::string temporary_path(const char* stem) {
  return std::string("/tmp/kdag_") + stem + "_" + std::to_string(::getpid()) + ".json";
}

struct Slice {
  std::string name, cat;
  double ts = 0, dur = 0;
  int tid = 0;
  const Value* event = nullptr;
};

// Reads `path`, checks the file's shape, and returns its complete events.
std::vector<Slice> read_trace(const std::string& path, Value& root) {
  root = kdag_test_json::parse_file(path);
  EXPECT_EQ(root.type, Value::Type::object);
  EXPECT_EQ(root["traceEvents"].type, Value::Type::array);
  EXPECT_EQ(root["otherData"]["writer"].string, "kdag");
  std::vector<Slice> slices;
  for (const Value& e : root["traceEvents"].array) {
    const std::string ph = e["ph"].string;
    EXPECT_TRUE(ph == "X" || ph == "M") << "only complete and metadata events: " << ph;
    if (ph != "X") continue;
    EXPECT_EQ(e["ts"].type, Value::Type::number);
    EXPECT_EQ(e["dur"].type, Value::Type::number) << "a complete event has a duration";
    EXPECT_GE(e["dur"].number, 0.0);
    slices.push_back({e["name"].string, e["cat"].string, e["ts"].number, e["dur"].number,
                      static_cast<int>(e["tid"].number), &e});
  }
  return slices;
}

// On each thread, two slices are disjoint or one contains the other, up to `slack` us: the
// time-stamp counter is read without serialising the pipeline (a serialising read would cost
// several times more per event), so a read can move by some tens of cycles, and a slice that
// starts right after its neighbour ends may appear to overlap it by a few ns.
constexpr double slack = 0.1;

void expect_nested_per_thread(std::vector<Slice> slices) {
  std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
    return a.tid != b.tid ? a.tid < b.tid : a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur;
  });
  std::vector<const Slice*> open;
  int tid = -1;
  for (const Slice& s : slices) {
    if (s.tid != tid) open.clear(), tid = s.tid;
    while (!open.empty() && open.back()->ts + open.back()->dur <= s.ts + slack) open.pop_back();
    if (!open.empty()) {
      EXPECT_LE(s.ts + s.dur, open.back()->ts + open.back()->dur + slack)
          << "thread " << s.tid << ": '" << s.name << "' overlaps '" << open.back()->name << "' without nesting";
    }
    open.push_back(&s);
  }
}

template <class Scheduler>
struct TracedFib {
  using value_type = long;
  using future_type = typename Scheduler::template future_type<long>;
  Scheduler sched;
  future_type fib[2];
  long n;
  TracedFib(const Scheduler& s, long arg_n) : sched(s), fib{}, n(arg_n) {}
  void operator()(typename Scheduler::member_type&, long& result) {
    if (n <= 1) {
      result = n;
    } else if (!fib[0].is_null()) {
      result = fib[0].get() + fib[1].get();
    } else {
      fib[0] = Kokkos::task_spawn(Kokkos::TaskSingle(sched, Kokkos::TaskPriority::High), TracedFib(sched, n - 2));
      fib[1] = Kokkos::task_spawn(Kokkos::TaskSingle(sched), TracedFib(sched, n - 1));
      Kokkos::respawn(this, Kokkos::when_all(fib, 2), Kokkos::TaskPriority::Low);
    }
  }
};
// Tasks fib(n) spawns, the first included: T(n) = 1 + T(n-1) + T(n-2), T(0) = T(1) = 1.
long fib_tasks(long n) { return n <= 1 ? 1 : 1 + fib_tasks(n - 1) + fib_tasks(n - 2); }

struct UnlabelledTraceFunctor {
  KOKKOS_FUNCTION void operator()(int) const {}
};

TEST(Trace, LaunchesTasksAndWorkGraphUnitsAreSlicesThatNest) {
  using Space = Kokkos::DefaultHostExecutionSpace;  // the task DAG and work DAG run on host spaces
  const std::string path = temporary_path("trace");
  Kokkos::Experimental::start_trace(path);
  EXPECT_TRUE(Kokkos::Experimental::trace_enabled());
  EXPECT_EQ(Kokkos::Experimental::trace_path(), path);
  Kokkos::parallel_for("labelled \"for\"", Kokkos::RangePolicy<Space>(0, 100), KOKKOS_LAMBDA(int) {});
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, 100), UnlabelledTraceFunctor{});
  long sum = 0;
  Kokkos::parallel_reduce("sum", Kokkos::RangePolicy<Space>(0, 100), KOKKOS_LAMBDA(int i, long& s) { s += i; }, sum);
  Kokkos::parallel_scan("scan", Kokkos::RangePolicy<Space>(0, 100), KOKKOS_LAMBDA(int i, long& s, bool) { s += i; });
  const long n = 12;
  {
    using Scheduler = Kokkos::TaskScheduler<Space>;
    Scheduler sched(typename Scheduler::memory_space(), 1 << 22, 64, 1024, 4096);
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), TracedFib<Scheduler>(sched, n));
    Kokkos::wait(sched);
    EXPECT_EQ(f.get(), 144);
  }
  const int items = 50;
  {
    using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
    typename Policy::graph_type graph;
    graph.row_map = typename Policy::graph_type::row_map_type("row_map", items + 1);
    graph.entries = typename Policy::graph_type::entries_type("entries", items - 1);
    auto rows = Kokkos::create_mirror_view(graph.row_map);
    auto entries = Kokkos::create_mirror_view(graph.entries);
    for (int i = 0; i < items; ++i) rows(i) = i;  // item i + 1 runs after item i: a chain
    rows(items) = items - 1;
    for (int i = 0; i < items - 1; ++i) entries(i) = i + 1;
    Kokkos::deep_copy(graph.row_map, rows);
    Kokkos::deep_copy(graph.entries, entries);
    Kokkos::parallel_for("chain", Policy(graph), KOKKOS_LAMBDA(std::int32_t) {});
  }
  Kokkos::fence();
  const std::uint64_t recorded_before_stop = Kokkos::Experimental::trace_recorded_events();
  Kokkos::Experimental::stop_trace();
  EXPECT_FALSE(Kokkos::Experimental::trace_enabled());
  EXPECT_EQ(Kokkos::Experimental::trace_dropped_events(), 0u);
  EXPECT_EQ(Kokkos::Experimental::trace_recorded_events(), recorded_before_stop);

  Value root;
  const std::vector<Slice> slices = read_trace(path, root);
  EXPECT_EQ(slices.size(), recorded_before_stop);
  EXPECT_EQ(root["otherData"]["dropped_events"].number, 0.0);
  expect_nested_per_thread(slices);

  std::map<std::string, int> by_name;
  long first_runs = 0, respawns = 0, high = 0, low = 0, unit_items = 0;
  for (const Slice& s : slices) {
    ++by_name[s.cat + ":" + s.name];
    if (s.cat == "task") {
      const Value& args = (*s.event)["args"];
      EXPECT_NE(s.name.find("TracedFib"), std::string::npos) << "a task is named after its functor's type";
      (args["respawn"].boolean ? respawns : first_runs) += 1;
      high += args["priority"].string == "High";
      low += args["priority"].string == "Low";
    }
    if (s.cat == "work_graph_unit") unit_items += static_cast<long>((*s.event)["args"]["items"].number);
  }
  EXPECT_EQ(by_name["parallel_for:labelled \"for\""], 1);
  EXPECT_EQ(by_name["parallel_reduce:sum"], 1);
  EXPECT_EQ(by_name["parallel_scan:scan"], 1);
  EXPECT_EQ(by_name["parallel_for:chain"], 1);
  const std::string default_name = "parallel_for:" + std::string("(anonymous namespace)::UnlabelledTraceFunctor");
  EXPECT_EQ(by_name[default_name], 1) << "an unlabelled launch is named after its functor's type";
  // Every task ran once; every task that spawned ran again as a respawn (at Low priority).
  EXPECT_EQ(first_runs, fib_tasks(n));
  EXPECT_EQ(respawns, (fib_tasks(n) - 1) / 2);
  EXPECT_EQ(low, respawns);
  EXPECT_GT(high, 0);
  EXPECT_EQ(unit_items, items) << "the work-graph units ran every item once";
  std::remove(path.c_str());
}

TEST(Trace, AFullRingDropsEventsAndCountsThem) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);  // launches on the default space
  const std::string path = temporary_path("trace_dropped");
  const std::size_t before = Kokkos::Experimental::trace_buffer_events();
  Kokkos::Experimental::set_trace_buffer_events(8);
  Kokkos::Experimental::start_trace(path);
  EXPECT_THROW(Kokkos::Experimental::set_trace_buffer_events(16), std::runtime_error);
  for (int k = 0; k < 20; ++k) Kokkos::parallel_for("tiny", 4, KOKKOS_LAMBDA(int) {});
  EXPECT_EQ(Kokkos::Experimental::trace_dropped_events(), 12u) << "8 fit the calling thread's ring";
  Kokkos::fence();  // written out: the ring has room again
  Kokkos::parallel_for("after the fence", 4, KOKKOS_LAMBDA(int) {});
  Kokkos::Experimental::stop_trace();
  Kokkos::Experimental::set_trace_buffer_events(before);
  Value root;
  const std::vector<Slice> slices = read_trace(path, root);
  EXPECT_EQ(slices.size(), 9u);
  EXPECT_EQ(slices.back().name, "after the fence");
  EXPECT_EQ(root["otherData"]["dropped_events"].number, 12.0);
  bool named = false;
  for (const Value& e : root["traceEvents"].array) {
    if (e["name"].string == "thread_name") named |= e["args"]["name"].string.find("12 events dropped") != std::string::npos;
  }
  EXPECT_TRUE(named) << "the thread's track says how many of its events were dropped";
  std::remove(path.c_str());
}

TEST(Trace, MisuseIsReported) {
  const std::string path = temporary_path("trace_misuse");
  EXPECT_NO_THROW(Kokkos::Experimental::stop_trace()) << "stopping without a trace does nothing";
  try {
    Kokkos::Experimental::start_trace("/nonexistent/dir/trace.json");
    ADD_FAILURE() << "an unwritable path must throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/trace.json"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(Kokkos::Experimental::trace_enabled());
  Kokkos::Experimental::start_trace(path);
  EXPECT_THROW(Kokkos::Experimental::start_trace(path + ".second"), std::runtime_error);
  EXPECT_THROW(Kokkos::Experimental::set_trace_buffer_events(0), std::runtime_error);
  Kokkos::Experimental::stop_trace();
  Value root;
  EXPECT_TRUE(read_trace(path, root).empty()) << "an empty trace is still a valid file";
  std::remove(path.c_str());
}

// Many threads record at once (tasks on every worker, launches from tasks): TSan checks that
// the rings need no lock.
TEST(Trace, ConcurrentRecordingFromEveryWorker) {
  using Space = Kokkos::DefaultHostExecutionSpace;  // the task DAG and work DAG run on host spaces
  const std::string path = temporary_path("trace_stress");
  Kokkos::Experimental::start_trace(path);
  using Scheduler = Kokkos::TaskScheduler<Space>;
  Scheduler sched(typename Scheduler::memory_space(), 1 << 24, 64, 1024, 4096);
  long total = 0;
  for (int round = 0; round < 3; ++round) {
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), TracedFib<Scheduler>(sched, 16));
    Kokkos::wait(sched);
    total += f.get();
  }
  EXPECT_EQ(total, 3 * 987);
  Kokkos::Experimental::stop_trace();
  Value root;
  const std::vector<Slice> slices = read_trace(path, root);
  EXPECT_EQ(static_cast<long>(slices.size()) + static_cast<long>(Kokkos::Experimental::trace_dropped_events()),
            3 * (fib_tasks(16) + (fib_tasks(16) - 1) / 2));
  expect_nested_per_thread(slices);
  std::remove(path.c_str());
}

}  // namespace

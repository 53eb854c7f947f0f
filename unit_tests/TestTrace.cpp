// Chrome traces (Kokkos_Trace.hpp): files written by start_trace / stop_trace are read back as
// JSON; every slice has a duration, the slices of one thread nest and never partly overlap,
// a task DAG's slices count its tasks (fib(n) spawns a known number), work-graph units cover
// the graph's items, launches carry their labels (or Kokkos' default name), and a full ring
// drops events and says how many.  Task DAGs get arrows (flow events) for their spawn,
// dependence and respawn edges, every start paired with one finish and both inside task slices,
// as many as the DAG has edges; traced_task_dag_dot draws the same DAG, cut with a note.
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

struct FlowEnd {
  std::string name, cat;
  double ts = 0;
  int tid = 0;
};
// Flow events by id: the start ("s") and the finish ("f").
struct Flow {
  std::vector<FlowEnd> starts, finishes;
};

// Reads `path`, checks the file's shape, and returns its complete events (and, in `flows`, its
// flow events).
std::vector<Slice> read_trace(const std::string& path, Value& root, std::map<long, Flow>* flows = nullptr) {
  root = kdag_test_json::parse_file(path);
  EXPECT_EQ(root.type, Value::Type::object);
  EXPECT_EQ(root["traceEvents"].type, Value::Type::array);
  EXPECT_EQ(root["otherData"]["writer"].string, "kdag");
  std::vector<Slice> slices;
  for (const Value& e : root["traceEvents"].array) {
    const std::string ph = e["ph"].string;
    EXPECT_TRUE(ph == "X" || ph == "M" || ph == "s" || ph == "f") << "only complete, metadata and flow events: " << ph;
    if (ph == "s" || ph == "f") {
      EXPECT_EQ(e["id"].type, Value::Type::number);
      EXPECT_EQ(e["ts"].type, Value::Type::number);
      if (ph == "f") {
        EXPECT_EQ(e["bp"].string, "e") << "a finish binds to its enclosing slice";
      }
      if (flows != nullptr) {
        Flow& flow = (*flows)[static_cast<long>(e["id"].number)];
        (ph == "s" ? flow.starts : flow.finishes)
            .push_back({e["name"].string, e["cat"].string, e["ts"].number, static_cast<int>(e["tid"].number)});
      }
      continue;
    }
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

// The task slice of `slices` on thread `tid` that contains `ts`, or null.
const Slice* task_slice_at(const std::vector<Slice>& slices, int tid, double ts) {
  for (const Slice& s : slices)
    if (s.cat == "task" && s.tid == tid && s.ts <= ts && ts <= s.ts + s.dur) return &s;
  return nullptr;
}

// fib(n) with when_all: T = fib_tasks(n) tasks; every task but the root is spawned by a task
// (T - 1 spawn edges); each of the (T - 1) / 2 inner tasks respawns once behind a when_all of
// its two children (T - 1 dependence edges, (T - 1) / 2 respawn edges).
TEST(Trace, TaskDagArrowsPairUpAndCountTheEdges) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  using Scheduler = Kokkos::TaskScheduler<Space>;
  const std::string path = temporary_path("trace_flows");
  const long n = 10, tasks = fib_tasks(n);
  Scheduler sched(typename Scheduler::memory_space(), 1 << 22, 64, 1024, 4096);
  Kokkos::Experimental::start_trace(path);
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), TracedFib<Scheduler>(sched, n));
  Kokkos::wait(sched);
  EXPECT_EQ(f.get(), 55);
  Kokkos::Experimental::stop_trace();
  ASSERT_EQ(Kokkos::Experimental::trace_dropped_events(), 0u);

  Value root;
  std::map<long, Flow> flows;
  const std::vector<Slice> slices = read_trace(path, root, &flows);
  long task_slices = 0;
  for (const Slice& s : slices) task_slices += s.cat == "task";
  EXPECT_EQ(task_slices, tasks + (tasks - 1) / 2);
  std::map<std::string, long> by_name;
  for (const auto& [id, flow] : flows) {
    ASSERT_EQ(flow.starts.size(), 1u) << "flow " << id << " has one start";
    ASSERT_EQ(flow.finishes.size(), 1u) << "flow " << id << " has one finish";
    const FlowEnd& from = flow.starts[0];
    const FlowEnd& to = flow.finishes[0];
    EXPECT_EQ(from.name, to.name);
    EXPECT_EQ(from.cat, "task_flow");
    EXPECT_EQ(to.cat, "task_flow");
    EXPECT_LT(from.ts, to.ts) << from.name << " arrow " << id << " points back in time";
    const Slice* source = task_slice_at(slices, from.tid, from.ts);
    const Slice* target = task_slice_at(slices, to.tid, to.ts);
    EXPECT_NE(source, nullptr) << from.name << " arrow " << id << " starts outside every task slice";
    EXPECT_NE(target, nullptr) << to.name << " arrow " << id << " ends outside every task slice";
    if (target != nullptr && from.name != "dependence") {
      const bool respawn = (*target->event)["args"]["respawn"].boolean;
      EXPECT_EQ(respawn, from.name == "respawn") << "a respawn arrow ends at a respawn, a spawn arrow at a first run";
    }
    if (target != nullptr && from.name == "dependence") {
      EXPECT_TRUE((*target->event)["args"]["respawn"].boolean) << "in fib, the task that waits is a respawn";
    }
    ++by_name[from.name];
  }
  EXPECT_EQ(by_name["spawn"], tasks - 1);
  EXPECT_EQ(by_name["dependence"], tasks - 1);
  EXPECT_EQ(by_name["respawn"], (tasks - 1) / 2);
  EXPECT_EQ(static_cast<long>(flows.size()), 2 * (tasks - 1) + (tasks - 1) / 2);
  std::remove(path.c_str());
}

// A task waiting on a when_all of 12 tasks (more sources than one event carries), after the
// futures were dropped: 12 dependence arrows, from the slices of the 12.
struct TraceLeaf {
  using value_type = int;
  template <class Member>
  void operator()(Member&, int& r) { r = 1; }
};
template <class Scheduler>
struct TraceJoin {
  using value_type = int;
  Scheduler sched;
  bool spawned = false;
  void operator()(typename Scheduler::member_type&, int& r) {
    if (spawned) {
      r = 12;
      return;
    }
    spawned = true;
    typename Scheduler::template future_type<int> leaves[12];
    for (auto& leaf : leaves) leaf = Kokkos::task_spawn(Kokkos::TaskSingle(sched), TraceLeaf{});
    Kokkos::respawn(this, Kokkos::when_all(leaves, 12));
  }  // the leaves' futures go away here: only the aggregate keeps them
};

TEST(Trace, WhenAllOfManyFuturesDrawsEveryDependence) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  using Scheduler = Kokkos::TaskScheduler<Space>;
  const std::string path = temporary_path("trace_when_all");
  Scheduler sched(typename Scheduler::memory_space(), 1 << 20, 64, 1024, 4096);
  Kokkos::Experimental::start_trace(path);
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), TraceJoin<Scheduler>{sched});
  Kokkos::wait(sched);
  EXPECT_EQ(f.get(), 12);
  Kokkos::Experimental::stop_trace();
  Value root;
  std::map<long, Flow> flows;
  const std::vector<Slice> slices = read_trace(path, root, &flows);
  std::map<std::string, long> by_name;
  for (const auto& [id, flow] : flows) {
    ASSERT_EQ(flow.starts.size() + flow.finishes.size(), 2u);
    EXPECT_NE(task_slice_at(slices, flow.starts[0].tid, flow.starts[0].ts), nullptr);
    EXPECT_NE(task_slice_at(slices, flow.finishes[0].tid, flow.finishes[0].ts), nullptr);
    ++by_name[flow.starts[0].name];
  }
  EXPECT_EQ(by_name["spawn"], 12);
  EXPECT_EQ(by_name["dependence"], 12);
  EXPECT_EQ(by_name["respawn"], 1);
  const std::string dot = Kokkos::Experimental::traced_task_dag_dot();
  EXPECT_EQ(dot.find("cut ["), std::string::npos) << dot;
  std::remove(path.c_str());
  // The aggregate's extra hold on its entries is gone with it: nothing leaks.
  f = decltype(f)();
  EXPECT_EQ(sched.allocated_task_count(), 0);
}

long count_of(const std::string& text, const std::string& what) {
  long n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

TEST(Trace, TaskDagDotDrawsTheExecutedDagAndCutsLargeOnes) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  using Scheduler = Kokkos::TaskScheduler<Space>;
  const long n = 8, tasks = fib_tasks(n);
  Scheduler sched(typename Scheduler::memory_space(), 1 << 22, 64, 1024, 4096);
  Kokkos::Experimental::start_trace("/dev/null");  // the DAG without a file
  auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), TracedFib<Scheduler>(sched, n));
  Kokkos::wait(sched);
  EXPECT_EQ(f.get(), 21);
  const std::string during = Kokkos::Experimental::traced_task_dag_dot();
  Kokkos::Experimental::stop_trace();
  const std::string dot = Kokkos::Experimental::traced_task_dag_dot();
  EXPECT_EQ(dot, during) << "the running trace's DAG is the same once stopped";
  EXPECT_EQ(dot.rfind("digraph task_dag {", 0), 0u);
  EXPECT_EQ(dot.find("cut ["), std::string::npos);
  const long executions = tasks + (tasks - 1) / 2;
  EXPECT_EQ(count_of(dot, "[label="), executions);
  EXPECT_EQ(count_of(dot, "class=spawn"), tasks - 1);
  EXPECT_EQ(count_of(dot, "class=dependence"), tasks - 1);
  EXPECT_EQ(count_of(dot, "class=respawn"), (tasks - 1) / 2);
  EXPECT_EQ(count_of(dot, " -> "), 2 * (tasks - 1) + (tasks - 1) / 2);
  EXPECT_EQ(count_of(dot, "High"), (tasks - 1) / 2) << "fib(n - 2) is spawned at High priority";
  EXPECT_EQ(count_of(dot, ", respawn 1\""), (tasks - 1) / 2) << "each respawned task ran twice";
  EXPECT_NE(dot.find("TracedFib<...>"), std::string::npos) << dot.substr(0, 400);

  testing::internal::CaptureStderr();
  const std::string cut = Kokkos::Experimental::traced_task_dag_dot(10);
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string message = "task DAG of " + std::to_string(executions) + " task executions: only the first 10 are drawn";
  EXPECT_NE(cut.find("cut [shape=note, label=\"" + message), std::string::npos) << cut;
  EXPECT_NE(err.find(message), std::string::npos) << err;
  EXPECT_EQ(count_of(cut, "[label="), 10);
  for (std::size_t at = cut.find(" -> n"); at != std::string::npos; at = cut.find(" -> n", at + 1))
    EXPECT_LT(std::stol(cut.substr(at + 5)), 10) << "edges only between drawn nodes";
}

}  // namespace

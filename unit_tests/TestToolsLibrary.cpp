// Kokkos Tools libraries loaded at initialisation (--kokkos-tools-libs / KOKKOS_TOOLS_LIBS): the
// test tool (unit_tests/tools/kdag_test_tool.cpp, built as tools A and B) records every callback
// in a file; the test runs each pattern, a fence, deep copies, a region, a section, allocations,
// a launch inside a task and a work-graph launch, then reads the file back and checks the order
// and the arguments of the calls.  Its own main: Kokkos can be initialised once per process, so
// the cases that need another initialisation (a missing library, a library without entry points,
// --kokkos-tools-help) run as death tests, each in a fresh process; so do the connectors modelled
// on kokkos-tools (kernel-logger, simple-kernel-timer, space-time-stack, memory-hwm), each loaded
// with KOKKOS_TOOLS_LIBS under a small program whose report the test checks.
#include "GTestExtendedLambda.hpp"
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_TaskScheduler.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <typeinfo>
#include <unistd.h>
#include <vector>

namespace {

// The space every launch here runs on: the host default, so that the tools interface (which
// reports every back end's launches alike) is checked in a CUDA build without a GPU too, and
// the task DAG and WorkGraphPolicy (host-only) run on it.
using Space = Kokkos::DefaultHostExecutionSpace;

std::string g_log_path;

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of one tool, without the tool's name.
std::vector<std::string> lines_of(const std::vector<std::string>& lines, const std::string& tool) {
  std::vector<std::string> out;
  for (const std::string& line : lines) {
    if (line.rfind(tool + " ", 0) == 0) out.push_back(line.substr(tool.size() + 1));
  }
  return out;
}

// The index of the first line at or after `from` that starts with `prefix`, or -1.
long find_from(const std::vector<std::string>& lines, const std::string& prefix, long from = 0) {
  for (long i = from; i < static_cast<long>(lines.size()); ++i) {
    if (lines[i].rfind(prefix, 0) == 0) return i;
  }
  return -1;
}

std::string value_of(const std::string& line, const std::string& key) {
  const auto at = line.find(key + "=");
  if (at == std::string::npos) return "";
  const auto begin = at + key.size() + 1;
  return line.substr(begin, line.find(' ', begin) - begin);
}

// Checks that the begin line at `at` is closed by the matching end line with the same id, and
// returns that end's index.
long check_pair(const std::vector<std::string>& lines, long at, const std::string& end_kind) {
  EXPECT_GE(at, 0);
  if (at < 0) return -1;
  const std::string id = value_of(lines[at], "id");
  const long end = find_from(lines, end_kind + " id=" + id, at + 1);
  EXPECT_GT(end, at) << "no " << end_kind << " for: " << lines[at];
  return end;
}

struct UnlabelledFunctor {
  Kokkos::View<int*, Space> v;
  KOKKOS_FUNCTION void operator()(int i) const { v(i) = i; }
};

struct TaggedWork {};
struct TaggedFunctor {
  KOKKOS_FUNCTION void operator()(TaggedWork, int) const {}
};

#if defined(KOKKOS_ENABLE_SERIAL)
// A task that launches a parallel_for of its own on the Serial space.
template <class Scheduler>
struct LaunchingTask {
  using value_type = int;
  void operator()(typename Scheduler::member_type&, int& result) {
    int sum = 0;
    Kokkos::parallel_reduce("launch in task", Kokkos::RangePolicy<Kokkos::Serial>(0, 4),
                            [](int i, int& s) { s += i; }, sum);
    result = sum;
  }
};
#endif

constexpr uint32_t default_device_id() {
  return Kokkos::Tools::Experimental::device_id_root<Space>();
}

TEST(ToolsLibrary, CallbacksOfEveryEventReachBothLibrariesInOrder) {
  Kokkos::View<int*, Space> v("v", 10);
  int total = 0;
  Kokkos::parallel_for("pf", Kokkos::RangePolicy<Space>(0, 10), KOKKOS_LAMBDA(int i) { v(i) = i; });
  Kokkos::parallel_reduce("pr", Kokkos::RangePolicy<Space>(0, 10), KOKKOS_LAMBDA(int i, int& s) { s += v(i); }, total);
  Kokkos::parallel_scan("ps", Kokkos::RangePolicy<Space>(0, 10), KOKKOS_LAMBDA(int i, int& s, bool) { s += i; });
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, 10), UnlabelledFunctor{v});
  Kokkos::parallel_for(Kokkos::RangePolicy<Space, TaggedWork>(0, 3), TaggedFunctor{});
  Kokkos::fence("my fence");
  Kokkos::View<int*, Space> w("w", 10);
  Kokkos::deep_copy(w, 3);
  Kokkos::deep_copy(v, w);
  Kokkos::Profiling::pushRegion("region");
  Kokkos::Profiling::popRegion();
  uint32_t section = 0;
  Kokkos::Profiling::createProfileSection("section", &section);
  Kokkos::Profiling::startSection(section);
  Kokkos::Profiling::stopSection(section);
  Kokkos::Profiling::destroyProfileSection(section);
  Kokkos::Tools::markEvent("tool fence");
  Kokkos::Tools::declareMetadata("key", "value");
#if defined(KOKKOS_ENABLE_SERIAL)
  {
    using Scheduler = Kokkos::TaskScheduler<Space>;
    Scheduler sched(typename Scheduler::memory_space(), 1 << 20, 64, 1024, 4096);
    auto f = Kokkos::host_spawn(Kokkos::TaskSingle(sched), LaunchingTask<Scheduler>{});
    Kokkos::wait(sched);
    EXPECT_EQ(f.get(), 6);
  }
#endif
  {
    using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Space>;
    typename Policy::graph_type graph;
    graph.row_map = typename Policy::graph_type::row_map_type("row_map", 4);
    graph.entries = typename Policy::graph_type::entries_type("entries", 2);
    auto rows = Kokkos::create_mirror_view(graph.row_map);
    auto entries = Kokkos::create_mirror_view(graph.entries);
    rows(0) = 0, rows(1) = 1, rows(2) = 2, rows(3) = 2;  // 0 -> 1 -> 2 (each runs after the previous)
    entries(0) = 1, entries(1) = 2;
    Kokkos::deep_copy(graph.row_map, rows);
    Kokkos::deep_copy(graph.entries, entries);
    Kokkos::View<int*, Space> order("order", 3);
    Kokkos::parallel_for("work graph", Policy(graph), KOKKOS_LAMBDA(std::int32_t i) { order(i) = 1; });
  }
  const void* v_data = v.data();
  const void* w_data = w.data();
  v = {};
  w = {};
  Kokkos::finalize();

  const std::vector<std::string> lines = read_lines(g_log_path);
  const std::vector<std::string> a = lines_of(lines, "A"), b = lines_of(lines, "B");
  ASSERT_FALSE(a.empty());
  // Tool B sees the same calls as tool A, with its own ids, and each call reaches A first.  Not
  // compared: init (each library has its own load sequence) and the event at which tool A
  // fences (the fence's calls reach both tools inside A's event callback, before B's).
  std::vector<std::string> all;
  for (const std::string& line : lines) {
    if (line.find(" init_library ") == std::string::npos && line.find(" profile_event ") == std::string::npos) {
      all.push_back(line);
    }
  }
  const std::vector<std::string> same_a = lines_of(all, "A"), same_b = lines_of(all, "B");
  ASSERT_EQ(same_a.size(), same_b.size());
  for (size_t i = 0; i < same_a.size(); ++i) {
    const std::string id_a = value_of(same_a[i], "id"), id_b = value_of(same_b[i], "id");
    EXPECT_EQ(same_a[i].substr(0, same_a[i].find("id=")), same_b[i].substr(0, same_b[i].find("id="))) << "line " << i;
    if (!id_a.empty()) {
      EXPECT_EQ(std::stoul(id_b) - std::stoul(id_a), 1000u) << same_a[i] << " / " << same_b[i];
    }
  }
  // In every pair of adjacent calls, A is called before B.
  for (size_t i = 0; i + 1 < all.size(); i += 2) {
    EXPECT_EQ(all[i][0], 'A') << i;
    EXPECT_EQ(all[i + 1][0], 'B') << i;
  }

  // Start-up: init with each library's load sequence, then settings, interface, arguments.
  EXPECT_EQ(a[0], "init_library seq=0 version=" + std::to_string(KOKKOSP_INTERFACE_VERSION) + " devices=0");
  EXPECT_EQ(b[0], "init_library seq=1 version=" + std::to_string(KOKKOSP_INTERFACE_VERSION) + " devices=0");
  EXPECT_EQ(a[1], "request_tool_settings 1 default_fencing=1");
  EXPECT_EQ(a[2], "provide_tool_programming_interface 1 fence");
  EXPECT_EQ(a[3], "parse_args 3 TestToolsLibrary --alpha 1");
  EXPECT_EQ(a.back(), "finalize_library");

  const std::string dev = "dev=" + std::to_string(default_device_id() + 1);
  long at = find_from(a, "begin_parallel_for pf " + dev);
  long end = check_pair(a, at, "end_parallel_for");
  at = find_from(a, "begin_parallel_reduce pr " + dev, end);
  end = check_pair(a, at, "end_parallel_reduce");
  at = find_from(a, "begin_parallel_scan ps " + dev, end);
  end = check_pair(a, at, "end_parallel_scan");
  // Unlabelled launches are named after the functor's type (and the work tag's), as in Kokkos.
  at = find_from(a, std::string("begin_parallel_for ") + typeid(UnlabelledFunctor).name() + " " + dev, end);
  end = check_pair(a, at, "end_parallel_for");
  at = find_from(a, std::string("begin_parallel_for ") + typeid(TaggedFunctor).name() + "/" + typeid(TaggedWork).name(),
                 end);
  end = check_pair(a, at, "end_parallel_for");
  at = find_from(a, "begin_fence my fence", end);
  end = check_pair(a, at, "end_fence");
  // Allocation of w, then the two deep copies with their sizes.
  at = find_from(a, "allocate_data Host w ", end);
  EXPECT_GT(at, end);
  at = find_from(a, "begin_deep_copy ", end);
  ASSERT_GE(at, 0);
  EXPECT_NE(a[at].find(" w "), std::string::npos) << a[at];
  EXPECT_NE(a[at].find(" Scalar "), std::string::npos) << a[at];
  // (deep_copy fences inside the begin/end pair, as in Kokkos.)
  EXPECT_LT(find_from(a, "end_deep_copy", at), find_from(a, "begin_deep_copy ", at + 1));
  at = find_from(a, "begin_deep_copy ", at + 1);
  ASSERT_GE(at, 0);
  {
    std::ostringstream text;
    text << " v " << v_data << " ";
    EXPECT_NE(a[at].find(text.str()), std::string::npos) << a[at];
    std::ostringstream src;
    src << " w " << w_data << " 40";
    EXPECT_NE(a[at].find(src.str()), std::string::npos) << a[at];
  }
  end = find_from(a, "end_deep_copy", at);
  EXPECT_GT(end, at);
  at = find_from(a, "push_profile_region region", end);
  ASSERT_GE(at, 0);
  EXPECT_EQ(a[at + 1], "pop_profile_region");
  at = find_from(a, "create_profile_section section", at);
  ASSERT_GE(at, 0);
  const std::string section_id = value_of(a[at], "id");
  EXPECT_EQ(a[at + 1], "start_profile_section id=" + section_id);
  EXPECT_EQ(a[at + 2], "stop_profile_section id=" + section_id);
  EXPECT_EQ(a[at + 3], "destroy_profile_section id=" + section_id);
  // The tool's own fence, through the programming interface, is reported like any other.
  at = find_from(a, "profile_event tool fence", at);
  ASSERT_GE(at, 0);
  EXPECT_EQ(a[at + 1].rfind("begin_fence Kokkos::Tools::Experimental::Impl::tool_invoked_fence", 0), 0u) << a[at + 1];
  end = check_pair(a, at + 1, "end_fence");
  at = find_from(a, "declare_metadata key=value", end);
  EXPECT_GE(at, 0);
#if defined(KOKKOS_ENABLE_SERIAL)
  at = find_from(a, "begin_parallel_reduce launch in task dev=" +
                        std::to_string(Kokkos::Tools::Experimental::device_id_root<Kokkos::Serial>() + 1), at);
  end = check_pair(a, at, "end_parallel_reduce");
#endif
  at = find_from(a, "begin_parallel_for work graph " + dev, at);
  end = check_pair(a, at, "end_parallel_for");
  // Every View allocated was deallocated, with the same pointer and size.
  std::map<std::string, int> live;
  for (const std::string& line : a) {
    std::istringstream words(line);
    std::string kind, space, label, pointer, bytes;
    words >> kind >> space >> label >> pointer >> bytes;
    if (kind == "allocate_data") ++live[label + pointer + bytes];
    if (kind == "deallocate_data") --live[label + pointer + bytes];
  }
  for (const auto& [key, count] : live) EXPECT_EQ(count, 0) << key;
}

// The cases below initialise Kokkos in a fresh process each.
void initialize_with_libraries(const char* libraries) {
  setenv("KOKKOS_TOOLS_LIBS", libraries, 1);
  Kokkos::initialize();
  Kokkos::parallel_for("after a bad tool", Kokkos::RangePolicy<Space>(0, 4), KOKKOS_LAMBDA(int) {});
  Kokkos::finalize();
  std::fprintf(stderr, "carried on\n");
  std::exit(0);
}

TEST(ToolsLibraryDeathTest, MissingLibraryIsNamedWithDlerrorAndKokkosCarriesOn) {
  EXPECT_EXIT(initialize_with_libraries("/nonexistent/libkdag_missing_tool.so"), ::testing::ExitedWithCode(0),
              "Unable to load KokkosP library: /nonexistent/libkdag_missing_tool.so.*"
              "dlopen\\(/nonexistent/libkdag_missing_tool.so, RTLD_NOW \\| RTLD_GLOBAL\\) failed with .*"
              "No such file or directory.*carried on");
}

TEST(ToolsLibraryDeathTest, LibraryWithoutEntryPointsIsNamed) {
  EXPECT_EXIT(initialize_with_libraries(KDAG_NO_ENTRY_TOOL), ::testing::ExitedWithCode(0),
              "KokkosP library .*kdag_no_entry_tool.* defines no kokkosp_\\* entry point.*undefined symbol: "
              "kokkosp_init_library.*carried on");
}

TEST(ToolsLibraryDeathTest, AGoodLibraryAfterABadOneIsStillLoaded) {
  EXPECT_EXIT(
      {
        setenv("KDAG_TEST_TOOL_LOG", "-", 1);
        initialize_with_libraries("/nonexistent/libkdag_missing_tool.so;" KDAG_TEST_TOOL_A);
      },
      ::testing::ExitedWithCode(0), "Unable to load KokkosP library.*A init_library seq=0.*A begin_parallel_for after a bad tool");
}

void initialize_for_help() {
  char arg0[] = "TestToolsLibrary";
  char libs[] = "--kokkos-tools-libs=" KDAG_TEST_TOOL_A ";" KDAG_TEST_TOOL_B;
  char help[] = "--kokkos-tools-help";
  char* argv[] = {arg0, libs, help, nullptr};
  int argc = 3;
  Kokkos::initialize(argc, argv);
  std::fprintf(stderr, "not reached\n");
  std::exit(3);
}

TEST(ToolsLibraryDeathTest, ToolsHelpPrintsEachToolsHelpAndExits) {
  EXPECT_EXIT(initialize_for_help(), ::testing::ExitedWithCode(0),
              "kdag_test_tool A help for TestToolsLibrary\nkdag_test_tool B help for TestToolsLibrary");
}

TEST(ToolsLibraryDeathTest, DeprecatedProfileLibraryVariableStillLoads) {
  EXPECT_EXIT(
      {
        unsetenv("KOKKOS_TOOLS_LIBS");
        setenv("KOKKOS_PROFILE_LIBRARY", KDAG_TEST_TOOL_A, 1);
        setenv("KDAG_TEST_TOOL_LOG", "-", 1);
        Kokkos::initialize();
        Kokkos::finalize();
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "KOKKOS_PROFILE_LIBRARY is deprecated.*A init_library seq=0.*A finalize_library");
}

// KOKKOS_TRACE=file: the whole run is traced and the file is complete at finalize.
void run_with_trace_variable(const char* path) {
  setenv("KOKKOS_TRACE", path, 1);
  Kokkos::initialize();
  const bool tracing = Kokkos::Experimental::trace_enabled() && Kokkos::Experimental::trace_path() == path;
  Kokkos::parallel_for("traced launch", Kokkos::RangePolicy<Space>(0, 4), KOKKOS_LAMBDA(int) {});
  Kokkos::finalize();
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string json = text.str();
  const bool complete = json.find("\"name\":\"traced launch\"") != std::string::npos &&
                        json.rfind("\"dropped_events\":0") != std::string::npos && json.back() == '\n';
  std::remove(path);
  std::fprintf(stderr, "%s %s\n", tracing ? "tracing" : "not tracing", complete ? "complete" : "incomplete");
  std::exit(0);
}

TEST(ToolsLibraryDeathTest, TraceVariableTracesTheWholeRun) {
  const std::string path = "/tmp/kdag_trace_variable_" + std::to_string(::getpid()) + ".json";
  EXPECT_EXIT(run_with_trace_variable(path.c_str()), ::testing::ExitedWithCode(0), "tracing complete");
}

TEST(ToolsLibraryDeathTest, UnwritableTraceVariableWarnsAndCarriesOn) {
  EXPECT_EXIT(run_with_trace_variable("/nonexistent/dir/trace.json"), ::testing::ExitedWithCode(0),
              "KOKKOS_TRACE: .*cannot open '/nonexistent/dir/trace.json'.*not tracing incomplete");
}

// The connectors modelled on kokkos-tools (unit_tests/tools/kdag_{kernel_logger,kernel_timer,
// space_time_stack,memory_hwm}.cpp), each loaded with KOKKOS_TOOLS_LIBS in a fresh process that
// runs a small program; they report on standard output, which the process sends to standard
// error, where the test reads it.
class CaptureOutput : public ::testing::MatcherInterface<const std::string&> {
 public:
  explicit CaptureOutput(std::string* out) : m_out(out) {}
  bool MatchAndExplain(const std::string& text, ::testing::MatchResultListener*) const override {
    *m_out = text;
    return true;
  }
  void DescribeTo(std::ostream* os) const override { *os << "any output (kept for the checks that follow)"; }

 private:
  std::string* m_out;
};

[[noreturn]] void run_program_under(const char* library) {
  dup2(STDERR_FILENO, STDOUT_FILENO);
  setenv("KOKKOS_TOOLS_LIBS", library, 1);
  Kokkos::initialize();
  {
    Kokkos::View<double*, Kokkos::HostSpace> a("connector a", 1000);
    Kokkos::View<double*, Kokkos::HostSpace> b("connector b", 500);
    Kokkos::Profiling::pushRegion("connector region");
    Kokkos::parallel_for("connector fill", Kokkos::RangePolicy<Space>(0, 1000), KOKKOS_LAMBDA(int i) { a(i) = i; });
    double sum = 0;
    {
      Kokkos::Profiling::ScopedRegion inner("connector inner");
      Kokkos::parallel_reduce("connector sum", Kokkos::RangePolicy<Space>(0, 1000),
                              KOKKOS_LAMBDA(int i, double& s) { s += a(i); }, sum);
    }
    Kokkos::Profiling::popRegion();
    Kokkos::deep_copy(b, sum);
    std::fprintf(stderr, "sum=%.0f\n", sum);
  }
  Kokkos::finalize();
  std::fflush(stdout);
  std::exit(0);
}

std::string output_under(const char* library) {
  std::string output;
  EXPECT_EXIT(run_program_under(library), ::testing::ExitedWithCode(0),
              ::testing::MakeMatcher(new CaptureOutput(&output)));
  EXPECT_NE(output.find("sum=499500"), std::string::npos) << output;
  return output;
}

#define EXPECT_OUTPUT_HAS(output, text) EXPECT_NE((output).find(text), std::string::npos) << (output)

TEST(ToolsConnectorsDeathTest, KernelLoggerPrintsEachKernelWithItsRegionStack) {
  const std::string out = output_under(KDAG_KERNEL_LOGGER);
  const std::string device = std::string(" device=") + Space::name() + "/0/";
  EXPECT_OUTPUT_HAS(out, "KokkosP: kernel logger initialized (sequence 0, interface " +
                             std::to_string(KOKKOSP_INTERFACE_VERSION));
  EXPECT_OUTPUT_HAS(out, "KokkosP: allocate Host \"connector a\" 8000 bytes\n");
  const auto fill = out.find("KokkosP: begin parallel_for \"connector fill\" id=");
  ASSERT_NE(fill, std::string::npos) << out;
  const std::string fill_line = out.substr(fill, out.find('\n', fill) - fill);
  EXPECT_NE(fill_line.find(device), std::string::npos) << fill_line;
  EXPECT_NE(fill_line.find(" regions=[connector region]"), std::string::npos) << fill_line;
  const std::string fill_id = value_of(fill_line, "id");
  EXPECT_OUTPUT_HAS(out.substr(fill), "KokkosP: end parallel_for id=" + fill_id + "\n");
  EXPECT_OUTPUT_HAS(out, "\" id=" + std::to_string(std::stoul(fill_id) + 1));
  const auto sum = out.find("KokkosP: begin parallel_reduce \"connector sum\" id=");
  ASSERT_NE(sum, std::string::npos) << out;
  EXPECT_NE(out.substr(sum, out.find('\n', sum) - sum).find(" regions=[connector region/connector inner]"),
            std::string::npos)
      << out;
  EXPECT_OUTPUT_HAS(out, "KokkosP: pop region \"connector inner\"\nKokkosP: pop region \"connector region\"\n");
  EXPECT_OUTPUT_HAS(out, "KokkosP: deep_copy Host \"connector b\" <- Host \"Scalar\" 4000 bytes\n");
  EXPECT_OUTPUT_HAS(out, "KokkosP: deallocate Host \"connector a\" 8000 bytes\n");
  EXPECT_OUTPUT_HAS(out, "KokkosP: kernel logger finalized\n");
  EXPECT_EQ(out.find("pop region with no region open"), std::string::npos) << out;
}

TEST(ToolsConnectorsDeathTest, KernelTimerCountsAndTimesEachKernelAndRegion) {
  const std::string out = output_under(KDAG_KERNEL_TIMER);
  EXPECT_OUTPUT_HAS(out, "KokkosP: simple kernel timer: ");
  EXPECT_OUTPUT_HAS(out, "KokkosP: parallel_for \"connector fill\" calls=1 total=");
  EXPECT_OUTPUT_HAS(out, "KokkosP: parallel_reduce \"connector sum\" calls=1 total=");
  EXPECT_OUTPUT_HAS(out, "KokkosP: region \"connector region\" calls=1 total=");
  EXPECT_OUTPUT_HAS(out, "KokkosP: region \"connector inner\" calls=1 total=");
  // A region lasts at least as long as the kernels inside it.
  const auto seconds = [&](const std::string& entry) {
    const auto at = out.find(entry);
    return at == std::string::npos ? -1.0 : std::stod(value_of(out.substr(at, out.find('\n', at) - at), "total"));
  };
  EXPECT_GE(seconds("\"connector region\""), seconds("\"connector fill\"") + seconds("\"connector inner\""));
  EXPECT_GE(seconds("\"connector inner\""), seconds("\"connector sum\""));
  EXPECT_GT(seconds("\"connector sum\""), 0.0);
}

TEST(ToolsConnectorsDeathTest, SpaceTimeStackAttributesAllocationsToHost) {
  const std::string out = output_under(KDAG_SPACE_TIME_STACK);
  EXPECT_OUTPUT_HAS(out, "KokkosP: [region] connector region calls=1 ");
  EXPECT_OUTPUT_HAS(out, "KokkosP: [for] connector region/connector fill calls=1 ");
  EXPECT_OUTPUT_HAS(out, "KokkosP: [region] connector region/connector inner calls=1 ");
  EXPECT_OUTPUT_HAS(out, "KokkosP: [reduce] connector region/connector inner/connector sum calls=1 ");
  EXPECT_OUTPUT_HAS(out, "KokkosP: [copy] \"connector b\"=\"Scalar\" calls=1 ");
  EXPECT_OUTPUT_HAS(out, "KokkosP: MAX MEMORY ALLOCATED HOST: 12000 bytes\n"
                         "KokkosP:   HOST \"connector a\" 8000 bytes\n"
                         "KokkosP:   HOST \"connector b\" 4000 bytes\n");
}

TEST(ToolsConnectorsDeathTest, MemoryHwmOfHostIsTheBytesAllocated) {
  const std::string out = output_under(KDAG_MEMORY_HWM);
  EXPECT_OUTPUT_HAS(out, "KokkosP: HOST: 12000 bytes (still allocated at finalize: 0)\n");
}

// Allocations reported under device names: space-time-stack decides by the prefix, so every
// Cuda space is CUDA.
[[noreturn]] void report_device_allocations_under(const char* library) {
  dup2(STDERR_FILENO, STDOUT_FILENO);
  setenv("KOKKOS_TOOLS_LIBS", library, 1);
  Kokkos::initialize();
  int uvm = 0, pinned = 0;
  Kokkos::Tools::allocateData(Kokkos::Tools::make_space_handle("CudaUVM"), "uvm", &uvm, 64);
  Kokkos::Tools::allocateData(Kokkos::Tools::make_space_handle("CudaHostPinned"), "pinned", &pinned, 32);
  Kokkos::Tools::deallocateData(Kokkos::Tools::make_space_handle("CudaUVM"), "uvm", &uvm, 64);
  Kokkos::Tools::deallocateData(Kokkos::Tools::make_space_handle("CudaHostPinned"), "pinned", &pinned, 32);
  Kokkos::finalize();
  std::fflush(stdout);
  std::exit(0);
}

TEST(ToolsConnectorsDeathTest, DeviceSpacesAreToldByTheirNamesPrefix) {
  std::string out;
  EXPECT_EXIT(report_device_allocations_under(KDAG_MEMORY_HWM), ::testing::ExitedWithCode(0),
              ::testing::MakeMatcher(new CaptureOutput(&out)));
  EXPECT_OUTPUT_HAS(out, "KokkosP: CUDA: 96 bytes (still allocated at finalize: 0)\n");
  EXPECT_EQ(out.find("KokkosP: HOST:"), std::string::npos) << out;
  EXPECT_EXIT(report_device_allocations_under(KDAG_SPACE_TIME_STACK), ::testing::ExitedWithCode(0),
              ::testing::MakeMatcher(new CaptureOutput(&out)));
  EXPECT_OUTPUT_HAS(out, "KokkosP: MAX MEMORY ALLOCATED CUDA: 96 bytes\n"
                         "KokkosP:   CUDA \"uvm\" 64 bytes\nKokkosP:   CUDA \"pinned\" 32 bytes\n");
}

// A space name space-time-stack does not know (Kokkos' HostSpace is "Host", not "HostSpace")
// makes it abort at that allocation.
TEST(ToolsConnectorsDeathTest, SpaceTimeStackAbortsOnASpaceNameItDoesNotKnow) {
  EXPECT_EXIT(
      {
        setenv("KOKKOS_TOOLS_LIBS", KDAG_SPACE_TIME_STACK, 1);
        Kokkos::initialize();
        int x = 0;
        std::fprintf(stderr, "allocating\n");
        Kokkos::Tools::allocateData(Kokkos::Tools::make_space_handle("HostSpace"), "x", &x, sizeof(x));
        std::fprintf(stderr, "not reached\n");
        std::exit(0);
      },
      ::testing::KilledBySignal(SIGABRT), "allocating\n$");
}

}  // namespace

int main(int argc, char* argv[]) {
  bool death_test_child = false;
  for (int i = 1; i < argc; ++i) death_test_child |= std::string(argv[i]).rfind("--gtest_internal_run_death_test", 0) == 0;
  ::testing::InitGoogleTest(&argc, argv);
  // Death tests re-run this program for the one test, in a fresh process.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  if (death_test_child) {
    unsetenv("KOKKOS_TRACE");
    unsetenv("KDAG_TEST_TOOL_LOG");
    unsetenv("KOKKOS_TOOLS_LIBS");
    return RUN_ALL_TESTS();
  }
  char log_template[] = "/tmp/kdag_tools_log_XXXXXX";
  const int fd = mkstemp(log_template);
  if (fd < 0) return 2;
  close(fd);
  g_log_path = log_template;
  setenv("KDAG_TEST_TOOL_LOG", g_log_path.c_str(), 1);
  // The libraries come from the command line, which overrides the variable; the tools'
  // arguments too: tools see the program name first.
  setenv("KOKKOS_TOOLS_LIBS", "/nonexistent/overridden.so", 1);
  std::vector<char*> args(argv, argv + argc);
  std::string program = "TestToolsLibrary";
  std::string libs = std::string("--kokkos-tools-libs=") + KDAG_TEST_TOOL_A + ";" + KDAG_TEST_TOOL_B;
  std::string tool_args = "--kokkos-tools-args=--alpha 1";
  args[0] = program.data();
  args.push_back(libs.data());
  args.push_back(tool_args.data());
  int kokkos_argc = static_cast<int>(args.size());
  args.push_back(nullptr);
  Kokkos::initialize(kokkos_argc, args.data());
  const int result = RUN_ALL_TESTS();
  if (Kokkos::is_initialized()) Kokkos::finalize();
  std::remove(g_log_path.c_str());
  return result;
}

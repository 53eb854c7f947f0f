// Kokkos Tools and traces of launches with declared accesses (impl/fusion/Kokkos_FusionReport.hpp): a
// fused run is reported once, under a name from which fused_run_labels recovers its members; a
// launch that runs alone (outside a window, fusion off, a run of one) is reported as a normal
// launch with its label or Kokkos' default name; a trace shows the fused run's slice.
#include "FusionTestFixture.hpp"
#include "TestCommon.hpp"
#include "TraceTestJson.hpp"

#include <Kokkos_Fusion.hpp>

#include <cstdio>
#include <string>
#include <typeinfo>
#include <unistd.h>
#include <vector>

namespace {

std::vector<std::string> g_calls;

struct ToolsFusion : Kokkos::Test::FusionFixture {
  void SetUp() override {
    FusionFixture::SetUp();
    // The adaptive dispatch may run a measured run unfused: keep one way here.
    Kokkos::Experimental::set_fusion_adaptive_dispatch(false);
    g_calls.clear();
    namespace KTE = Kokkos::Tools::Experimental;
    KTE::set_begin_parallel_for_callback([](const char* name, uint32_t, uint64_t* id) {
      g_calls.push_back(std::string("for ") + name);
      *id = g_calls.size();
    });
    KTE::set_end_parallel_for_callback([](uint64_t id) { g_calls.push_back("end " + std::to_string(id)); });
    KTE::set_begin_parallel_reduce_callback([](const char* name, uint32_t, uint64_t* id) {
      g_calls.push_back(std::string("reduce ") + name);
      *id = g_calls.size();
    });
    KTE::set_end_parallel_reduce_callback([](uint64_t id) { g_calls.push_back("end " + std::to_string(id)); });
  }
  void TearDown() override {
    Kokkos::Tools::Experimental::set_callbacks(Kokkos::Tools::Experimental::EventSet{});
    Kokkos::Experimental::set_fusion_adaptive_dispatch(true);
    FusionFixture::TearDown();
  }
};

struct Unlabelled {
  Kokkos::View<double*> a;
  KOKKOS_FUNCTION void operator()(int i) const { a(i) += 1; }
};

// t1 = r + 1; t2 = 2 t1 (unlabelled functor: +1 on t2 after); sum(t2)
double run_program(int n) {
  using namespace Kokkos::Experimental;
  Kokkos::View<double*> r("r", n), t1("t1", n), t2("t2", n);
  double sum = 0;
  {
    FusionScope fuse;
    Kokkos::parallel_for("t1", with_accesses(Kokkos::RangePolicy<>(0, n), reads(r), writes(t1)),
                         KOKKOS_LAMBDA(int i) { t1(i) = r(i) + 1; });
    Kokkos::parallel_for("t2", with_accesses(Kokkos::RangePolicy<>(0, n), reads(t1), writes(t2)),
                         KOKKOS_LAMBDA(int i) { t2(i) = 2 * t1(i); });
    Kokkos::parallel_for(with_accesses(Kokkos::RangePolicy<>(0, n), read_writes(t2)), Unlabelled{t2});
    Kokkos::parallel_reduce("sum", with_accesses(Kokkos::RangePolicy<>(0, n), reads(t2)),
                            KOKKOS_LAMBDA(int i, double& s) { s += t2(i); }, sum);
  }
  return sum;
}

const std::string unlabelled_name = typeid(Unlabelled).name();

TEST_F(ToolsFusion, AFusedRunIsReportedOnceWithItsMembersLabels) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);  // launches on the default space
  const int n = 1000;
  EXPECT_EQ(run_program(n), 3.0 * n);
  ASSERT_EQ(g_calls.size(), 2u) << (g_calls.empty() ? "" : g_calls[0]);
  const std::string prefix = "reduce ";
  ASSERT_EQ(g_calls[0].rfind(prefix, 0), 0u) << "a run that ends in a reduction is reported as one: " << g_calls[0];
  const std::string name = g_calls[0].substr(prefix.size());
  EXPECT_EQ(Kokkos::Experimental::fused_run_labels(name),
            (std::vector<std::string>{"t1", "t2", unlabelled_name, "sum"}));
  EXPECT_EQ(g_calls[1], "end 1");
  EXPECT_TRUE(Kokkos::Experimental::fused_run_labels("t1").empty()) << "not a fused run's name";
}

TEST_F(ToolsFusion, LaunchesThatRunAloneAreReportedAsNormalLaunches) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);  // launches on the default space
  const int n = 1000;
  Kokkos::Experimental::set_fusion_enabled(false);
  EXPECT_EQ(run_program(n), 3.0 * n);
  EXPECT_EQ(g_calls, (std::vector<std::string>{"for t1", "end 1", "for t2", "end 3", "for " + unlabelled_name, "end 5",
                                               "reduce sum", "end 7"}));
  // Outside a window, with fusion on: each launch at once.
  Kokkos::Experimental::set_fusion_enabled(true);
  g_calls.clear();
  Kokkos::View<double*> a("a", n);
  Kokkos::parallel_for("alone", Kokkos::Experimental::with_accesses(n, Kokkos::Experimental::writes(a)),
                       KOKKOS_LAMBDA(int i) { a(i) = 1; });
  EXPECT_EQ(g_calls, (std::vector<std::string>{"for alone", "end 1"}));
  // A run of one in a window: reported under its own name when the window flushes.
  g_calls.clear();
  {
    Kokkos::Experimental::FusionScope fuse;
    Kokkos::parallel_for("single", Kokkos::Experimental::with_accesses(n, Kokkos::Experimental::writes(a)),
                         KOKKOS_LAMBDA(int i) { a(i) = 2; });
    EXPECT_TRUE(g_calls.empty()) << "recorded, not run yet";
  }
  EXPECT_EQ(g_calls, (std::vector<std::string>{"for single", "end 1"}));
}

TEST_F(ToolsFusion, ATraceShowsTheFusedRunWithItsLabels) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);  // launches on the default space
  Kokkos::Tools::Experimental::set_callbacks(Kokkos::Tools::Experimental::EventSet{});
  const std::string path = "/tmp/kdag_trace_fusion_" + std::to_string(::getpid()) + ".json";
  Kokkos::Experimental::start_trace(path);
  EXPECT_EQ(run_program(100), 300.0);
  Kokkos::Experimental::stop_trace();
  const kdag_test_json::Value root = kdag_test_json::parse_file(path);
  int fused = 0, reduces = 0;
  for (const kdag_test_json::Value& e : root["traceEvents"].array) {
    if (e["cat"].string == "fused_run") {
      ++fused;
      EXPECT_EQ(e["args"]["labels"].string, "t1 | t2 | " + unlabelled_name + " | sum");
    }
    if (e["cat"].string == "parallel_reduce" || e["cat"].string == "parallel_for") ++reduces;
  }
  EXPECT_EQ(fused, 1);
  EXPECT_EQ(reduces, 0) << "the fused run's slice stands for its launches";
  std::remove(path.c_str());
}

}  // namespace

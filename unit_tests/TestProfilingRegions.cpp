// Kokkos::Profiling regions, sections, events and metadata as user code calls them, seen through
// in-process callbacks (Kokkos::Tools::Experimental::set_*_callback).
#include "TestCommon.hpp"

#include <Kokkos_Profiling_ProfileSection.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>
#include <Kokkos_Tools.hpp>

#include <string>
#include <utility>
#include <vector>

namespace {

// What the callbacks saw, in order, one line per event.
std::vector<std::string> g_events;

void record(std::string line) { g_events.push_back(std::move(line)); }

// Installs nothing itself; restores an empty callback table when the test ends, so that one
// test's callbacks never leak into the next.
class ProfilingRegions : public ::testing::Test {
 protected:
  void SetUp() override {
    g_events.clear();
    Kokkos::Tools::Experimental::set_callbacks({});
  }
  void TearDown() override { Kokkos::Tools::Experimental::set_callbacks({}); }
};

void install_region_callbacks() {
  Kokkos::Tools::Experimental::set_push_region_callback([](const char* name) { record(std::string("push ") + name); });
  Kokkos::Tools::Experimental::set_pop_region_callback([] { record("pop"); });
}

TEST_F(ProfilingRegions, PushAndPopReachTheCallbacksInOrder) {
  install_region_callbacks();
  Kokkos::Profiling::pushRegion("outer");
  Kokkos::Profiling::pushRegion("inner");
  Kokkos::Profiling::popRegion();
  Kokkos::Tools::pushRegion("tools spelling");
  Kokkos::Tools::popRegion();
  Kokkos::Profiling::popRegion();
  EXPECT_EQ(g_events, (std::vector<std::string>{"push outer", "push inner", "pop", "push tools spelling", "pop",
                                                "pop"}));
}

TEST_F(ProfilingRegions, ScopedRegionsNestAndCloseOnEveryExit) {
  install_region_callbacks();
  auto early_return = [](bool leave) {
    Kokkos::Profiling::ScopedRegion region("early");
    if (leave) return 1;
    Kokkos::Profiling::ScopedRegion nested("late");
    return 2;
  };
  {
    Kokkos::Profiling::ScopedRegion outer("outer");
    EXPECT_EQ(early_return(true), 1);
    EXPECT_EQ(early_return(false), 2);
  }
  EXPECT_EQ(g_events, (std::vector<std::string>{"push outer", "push early", "pop", "push early", "push late", "pop",
                                                "pop", "pop"}));
}

TEST_F(ProfilingRegions, RegionsEncloseTheKernelsLaunchedInThem) {
  install_region_callbacks();
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(
      [](const char* name, uint32_t, uint64_t*) { record(std::string("for ") + name); });
  {
    Kokkos::Profiling::ScopedRegion region("phase 1");
    Kokkos::parallel_for("fill", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 10), KOKKOS_LAMBDA(int){});
  }
  EXPECT_EQ(g_events, (std::vector<std::string>{"push phase 1", "for fill", "pop"}));
}

struct SectionLog {
  static inline uint32_t next_id = 40;
};

TEST_F(ProfilingRegions, ProfilingSectionCreatesStartsStopsAndDestroys) {
  namespace KTE = Kokkos::Tools::Experimental;
  KTE::set_create_profile_section_callback([](const char* name, uint32_t* id) {
    *id = SectionLog::next_id++;
    record(std::string("create ") + name + " " + std::to_string(*id));
  });
  KTE::set_start_profile_section_callback([](uint32_t id) { record("start " + std::to_string(id)); });
  KTE::set_stop_profile_section_callback([](uint32_t id) { record("stop " + std::to_string(id)); });
  KTE::set_destroy_profile_section_callback([](uint32_t id) { record("destroy " + std::to_string(id)); });
  {
    Kokkos::Profiling::ProfilingSection a("solve");
    Kokkos::Profiling::ProfilingSection b("assemble");
    a.start();
    b.start();
    b.stop();
    a.stop();
    a.start();
    a.stop();
  }
  // Each section keeps the id the tool gave it; destruction in reverse order of construction.
  EXPECT_EQ(g_events, (std::vector<std::string>{"create solve 40", "create assemble 41", "start 40", "start 41",
                                                "stop 41", "stop 40", "start 40", "stop 40", "destroy 41",
                                                "destroy 40"}));
}

TEST_F(ProfilingRegions, SectionFunctionsByHand) {
  namespace KTE = Kokkos::Tools::Experimental;
  KTE::set_create_profile_section_callback([](const char* name, uint32_t* id) {
    *id = 7;
    record(std::string("create ") + name);
  });
  KTE::set_start_profile_section_callback([](uint32_t id) { record("start " + std::to_string(id)); });
  KTE::set_stop_profile_section_callback([](uint32_t id) { record("stop " + std::to_string(id)); });
  KTE::set_destroy_profile_section_callback([](uint32_t id) { record("destroy " + std::to_string(id)); });
  uint32_t id = 0;
  Kokkos::Profiling::createProfileSection("by hand", &id);
  EXPECT_EQ(id, 7u);
  Kokkos::Profiling::startSection(id);
  Kokkos::Profiling::stopSection(id);
  Kokkos::Profiling::destroyProfileSection(id);
  EXPECT_EQ(g_events, (std::vector<std::string>{"create by hand", "start 7", "stop 7", "destroy 7"}));
}

TEST_F(ProfilingRegions, EventsAndMetadata) {
  namespace KTE = Kokkos::Tools::Experimental;
  KTE::set_profile_event_callback([](const char* name) { record(std::string("event ") + name); });
  KTE::set_declare_metadata_callback(
      [](const char* key, const char* value) { record(std::string("meta ") + key + "=" + value); });
  Kokkos::Profiling::markEvent("converged");
  Kokkos::Tools::markEvent("tools spelling");
  Kokkos::Tools::declareMetadata("mesh", "cube-64");
  EXPECT_EQ(g_events, (std::vector<std::string>{"event converged", "event tools spelling", "meta mesh=cube-64"}));
}

TEST_F(ProfilingRegions, ProfileLibraryLoadedFollowsTheTable) {
  EXPECT_FALSE(Kokkos::Profiling::profileLibraryLoaded());
  Kokkos::Tools::Experimental::set_profile_event_callback([](const char*) {});
  EXPECT_TRUE(Kokkos::Profiling::profileLibraryLoaded());
  EXPECT_TRUE(Kokkos::Tools::profileLibraryLoaded());
  Kokkos::Tools::Experimental::set_profile_event_callback(nullptr);
  EXPECT_FALSE(Kokkos::Profiling::profileLibraryLoaded());
}

TEST_F(ProfilingRegions, PauseAndResumeTools) {
  install_region_callbacks();
  Kokkos::Tools::Experimental::pause_tools();
  EXPECT_FALSE(Kokkos::Tools::profileLibraryLoaded());
  Kokkos::Profiling::pushRegion("unseen");
  Kokkos::Profiling::popRegion();
  Kokkos::Tools::Experimental::resume_tools();
  Kokkos::Profiling::pushRegion("seen");
  Kokkos::Profiling::popRegion();
  EXPECT_EQ(g_events, (std::vector<std::string>{"push seen", "pop"}));
  EXPECT_NE(Kokkos::Tools::Experimental::get_callbacks().push_region, nullptr);
}

// Without callbacks every call is a no-op: nothing recorded, nothing crashes, and a section
// that no tool numbered stays usable.
TEST_F(ProfilingRegions, WithoutCallbacksNothingHappens) {
  EXPECT_FALSE(Kokkos::Profiling::profileLibraryLoaded());
  Kokkos::Profiling::pushRegion("r");
  Kokkos::Profiling::popRegion();
  Kokkos::Profiling::popRegion();  // unbalanced: still harmless without a tool
  {
    Kokkos::Profiling::ScopedRegion region("scoped");
    Kokkos::Profiling::ProfilingSection section("s");
    section.start();
    section.stop();
  }
  uint32_t id = 123;
  Kokkos::Profiling::createProfileSection("untouched", &id);
  EXPECT_EQ(id, 123u);
  Kokkos::Profiling::markEvent("e");
  Kokkos::Tools::declareMetadata("k", "v");
  EXPECT_TRUE(g_events.empty());
}

TEST(ProfilingSpaceHandle, NamesAreCopiedAndTruncated) {
  EXPECT_STREQ(Kokkos::Profiling::make_space_handle(Kokkos::HostSpace::name()).name, "Host");
  const std::string long_name(100, 'x');
  const Kokkos::Tools::SpaceHandle h = Kokkos::Tools::make_space_handle(long_name.c_str());
  EXPECT_EQ(std::string(h.name), std::string(63, 'x'));
  EXPECT_STREQ(Kokkos::Tools::make_space_handle(nullptr).name, "");
}

}  // namespace

namespace {

TEST_F(ProfilingRegions, ToolArgumentsAndHelp) {
  namespace KTE = Kokkos::Tools::Experimental;
  EXPECT_FALSE(Kokkos::Tools::printHelp("--help")) << "no tool: nothing printed";
  KTE::set_parse_args_callback([](int argc, char** argv) {
    std::string line = "args " + std::to_string(argc);
    for (int i = 0; i < argc; ++i) line += std::string(" ") + argv[i];
    record(line);
  });
  KTE::set_print_help_callback([](char* text) { record(std::string("help ") + text); });
  Kokkos::Tools::parseArgs("--sampling 10   --out=file");
  char arg0[] = "tool";
  char* argv[] = {arg0, nullptr};
  Kokkos::Tools::parseArgs(1, argv);
  Kokkos::Tools::parseArgs(0, argv);  // no arguments: not forwarded
  EXPECT_TRUE(Kokkos::Tools::printHelp("--help"));
  EXPECT_EQ(g_events, (std::vector<std::string>{"args 3 --sampling 10 --out=file", "args 1 tool", "help --help"}));
}

TEST_F(ProfilingRegions, DualViewEvents) {
  namespace KTE = Kokkos::Tools::Experimental;
  KTE::set_dual_view_sync_callback([](const char* label, const void* const, bool to_device) {
    record(std::string("sync ") + label + (to_device ? " to device" : " to host"));
  });
  KTE::set_dual_view_modify_callback([](const char* label, const void* const, bool on_device) {
    record(std::string("modify ") + label + (on_device ? " on device" : " on host"));
  });
  int data = 0;
  Kokkos::Tools::modifyDualView("dv", &data, false);
  Kokkos::Tools::syncDualView("dv", &data, true);
  EXPECT_EQ(g_events, (std::vector<std::string>{"modify dv on host", "sync dv to device"}));
}

}  // namespace

// Kokkos Tools across initialize / finalize: an init callback installed before
// Kokkos::initialize is called once the back ends are up, with the interface version; the
// finalize callback runs in Kokkos::finalize after the finalize hooks, and the callback table
// is empty afterwards.  A TestLifecycle* executable has its own main: Kokkos is not initialised
// up front.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace {

std::vector<std::string> g_log;
uint64_t g_interface_version = 0;

TEST(ToolsLifecycle, InitAndFinalizeCallbacksFrameTheSession) {
  namespace KTE = Kokkos::Tools::Experimental;
  KTE::set_init_callback([](const int load_sequence, const uint64_t version, const uint32_t device_count,
                            Kokkos_Profiling_KokkosPDeviceInfo*) {
    g_interface_version = version;
    g_log.push_back("init " + std::to_string(load_sequence) + " " + std::to_string(device_count) + " " +
                    (Kokkos::is_initialized() ? "after back ends" : "too early"));
  });
  KTE::set_finalize_callback([] { g_log.push_back("finalize"); });
  KTE::set_push_region_callback([](const char* name) { g_log.push_back(std::string("push ") + name); });
  EXPECT_TRUE(g_log.empty()) << "nothing is called before Kokkos::initialize";

  Kokkos::initialize();
  Kokkos::push_finalize_hook([] { g_log.push_back("finalize hook"); });
  Kokkos::Profiling::pushRegion("work");
  Kokkos::finalize();

  EXPECT_EQ(g_log, (std::vector<std::string>{"init 0 0 after back ends", "push work", "finalize hook", "finalize"}));
  EXPECT_EQ(g_interface_version, static_cast<uint64_t>(KOKKOSP_INTERFACE_VERSION));
  EXPECT_FALSE(Kokkos::Tools::profileLibraryLoaded()) << "finalize empties the callback table";
  Kokkos::Profiling::pushRegion("after finalize");
  EXPECT_EQ(g_log.size(), 4u);
}

}  // namespace

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

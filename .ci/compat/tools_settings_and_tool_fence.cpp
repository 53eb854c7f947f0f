// An in-process tool that uses the Kokkos Tools handshake: installed before Kokkos::initialize,
// it receives the interface version in init, answers request_tool_settings (no global fences
// needed), keeps the fence Kokkos hands it in provide_tool_programming_interface, reads its
// arguments from --kokkos-tools-args, and times kernels.  Then the program asks the tool to
// fence through the interface and checks what the tool saw.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace timer_tool {
uint64_t version = 0;
bool settings_asked = false;
Kokkos::Tools::Experimental::ToolProgrammingInterface kokkos{};
std::vector<std::string> args;
std::vector<std::string> kernels;
std::vector<std::string> fences;
int finalized = 0;

void init(const int, const uint64_t interface_version, const uint32_t, Kokkos_Profiling_KokkosPDeviceInfo*) {
  version = interface_version;
}
void settings(const uint32_t, Kokkos::Tools::Experimental::ToolSettings* s) {
  settings_asked = true;
  s->requires_global_fencing = false;
}
void interface(const uint32_t count, Kokkos::Tools::Experimental::ToolProgrammingInterface actions) {
  if (count > 0) kokkos = actions;
}
void parse(int argc, char** argv) {
  for (int i = 0; i < argc; ++i) args.emplace_back(argv[i]);
}
void begin_kernel(const char* name, const uint32_t, uint64_t* id) {
  kernels.emplace_back(name);
  *id = kernels.size();
}
void end_kernel(const uint64_t) {}
void begin_fence(const char* name, const uint32_t, uint64_t* id) {
  fences.emplace_back(name);
  *id = fences.size();
}
void end_fence(const uint64_t) {}
void finalize() { ++finalized; }
}  // namespace timer_tool

int main(int argc, char* argv[]) {
  namespace KTE = Kokkos::Tools::Experimental;
  KTE::set_init_callback(timer_tool::init);
  KTE::set_request_tool_settings_callback(timer_tool::settings);
  KTE::set_provide_tool_programming_interface_callback(timer_tool::interface);
  KTE::set_parse_args_callback(timer_tool::parse);
  KTE::set_begin_parallel_for_callback(timer_tool::begin_kernel);
  KTE::set_end_parallel_for_callback(timer_tool::end_kernel);
  KTE::set_begin_parallel_reduce_callback(timer_tool::begin_kernel);
  KTE::set_end_parallel_reduce_callback(timer_tool::end_kernel);
  KTE::set_begin_fence_callback(timer_tool::begin_fence);
  KTE::set_end_fence_callback(timer_tool::end_fence);
  KTE::set_finalize_callback(timer_tool::finalize);

  std::vector<char*> args(argv, argv + argc);
  char tool_args[] = "--kokkos-tools-args=--interval 5";
  args.push_back(tool_args);
  int n_args = static_cast<int>(args.size());
  args.push_back(nullptr);
  int failures = 0;
  Kokkos::initialize(n_args, args.data());
  {
    const int n = 1000;
    Kokkos::View<double*> x("x", n);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) { x(i) = 0.5 * i; });
    double sum = 0;
    Kokkos::parallel_reduce("sum", n, KOKKOS_LAMBDA(const int i, double& s) { s += x(i); }, sum);
    if (sum != 0.25 * n * (n - 1)) {
      std::printf("wrong sum %f\n", sum);
      ++failures;
    }
    if (timer_tool::kokkos.fence == nullptr) {
      std::printf("the tool was given no fence\n");
      ++failures;
    } else {
      const std::size_t before = timer_tool::fences.size();
      timer_tool::kokkos.fence(0);
      if (timer_tool::fences.size() <= before) {
        std::printf("the tool's fence was not reported\n");
        ++failures;
      }
    }
  }
  Kokkos::finalize();

  if (timer_tool::version == 0 || !timer_tool::settings_asked) {
    std::printf("handshake incomplete: version %llu, settings asked %d\n",
                static_cast<unsigned long long>(timer_tool::version), int(timer_tool::settings_asked));
    ++failures;
  }
  if (timer_tool::args.size() != 3 || timer_tool::args[1] != "--interval" || timer_tool::args[2] != "5") {
    std::printf("the tool's arguments were not passed (%zu)\n", timer_tool::args.size());
    ++failures;
  }
  // (View initialisation may be reported as a kernel too, as Kokkos does.)
  std::vector<std::string> user_kernels;
  for (const std::string& k : timer_tool::kernels) {
    if (k == "fill" || k == "sum") user_kernels.push_back(k);
  }
  if (user_kernels != std::vector<std::string>{"fill", "sum"}) {
    std::printf("kernels seen: %zu\n", timer_tool::kernels.size());
    ++failures;
  }
  if (timer_tool::finalized != 1) {
    std::printf("finalize called %d times\n", timer_tool::finalized);
    ++failures;
  }
  if (failures == 0) std::printf("tools handshake OK\n");
  return failures == 0 ? 0 : 1;
}

// Lifecycle: initialize / finalize, command-line and environment settings, configuration print-out.
#include <Kokkos_Core.hpp>
#include <impl/Kokkos_Topology.hpp>
#include <impl/Kokkos_NodeShare.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/tools/Kokkos_ToolsLibraries.hpp>
#include <impl/tools/Kokkos_Trace.hpp>
#if defined(KOKKOS_ENABLE_CUDA)
#include <Cuda/Kokkos_Cuda_Instance.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <vector>

namespace Kokkos {
namespace {

enum class State { never_initialized, initialized, finalized };
State g_state = State::never_initialized;
std::vector<std::function<void()>> g_finalize_hooks;
int g_task_team_size = 1;
bool g_disable_warnings = false;
bool g_tune_internals = false;

void warn(const std::string& message) {
  if (!g_disable_warnings) std::cerr << "Kokkos::initialize WARNING: " << message << '\n';
}

}  // namespace

namespace Impl {
void log_warning(const std::string& message) {
  if (!g_disable_warnings) std::cerr << "Kokkos WARNING: " << message << '\n';
}
}  // namespace Impl

namespace {

bool parse_int(const char* text, int& value) {
  if (!text || !*text) return false;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*end != '\0' || v < -2147483647L || v > 2147483647L) return false;
  value = static_cast<int>(v);
  return true;
}

bool parse_bool(const char* text, bool& value) {
  if (!text) return false;
  const std::string s(text);
  if (s == "1" || s == "true" || s == "ON" || s == "on" || s == "yes") { value = true; return true; }
  if (s == "0" || s == "false" || s == "OFF" || s == "off" || s == "no") { value = false; return true; }
  return false;
}

void print_help(std::ostream& os) {
  os << "--------------------------------------------------------------------------------\n"
        "kdag (Kokkos " << KOKKOS_VERSION_MAJOR << '.' << KOKKOS_VERSION_MINOR << " API) command-line options:\n"
        "  --kokkos-help                  print this message\n"
        "  --kokkos-num-threads=INT       number of host threads (env KOKKOS_NUM_THREADS)\n"
        "  --kokkos-device-id=INT         device to use (env KOKKOS_DEVICE_ID)\n"
        "  --kokkos-map-device-id-by=mpi_rank|random\n"
        "                                 device choice without a device id (env KOKKOS_MAP_DEVICE_ID_BY;\n"
        "                                 default mpi_rank: node-local MPI rank modulo the device count)\n"
        "  --kokkos-task-team-size=INT    threads per task team (env KOKKOS_TASK_TEAM_SIZE;\n"
        "                                 default: hardware threads per core)\n"
        "  --kokkos-bind-threads=BOOL     bind host workers to processing units (env KOKKOS_BIND_THREADS;\n"
        "                                 default: on unless OMP_PROC_BIND or OMP_PLACES is set)\n"
        "  --kokkos-print-configuration   print the configuration after initialization\n"
        "  --kokkos-disable-warnings      silence warnings (env KOKKOS_DISABLE_WARNINGS)\n"
        "  --kokkos-tune-internals        accepted for compatibility\n"
        "  --kokkos-tools-libs=STR        Kokkos Tools libraries to load, separated by ';'\n"
        "                                 (env KOKKOS_TOOLS_LIBS)\n"
        "  --kokkos-tools-args=STR        arguments for the tools (env KOKKOS_TOOLS_ARGS)\n"
        "  --kokkos-tools-help            print the tools' help and exit\n"
        "  environment: KOKKOS_TRACE=FILE.json (Chrome trace of launches, tasks, work-graph units)\n"
        "  environment: KOKKOS_FUSION=0/1, KOKKOS_FUSION_STATS=1 (fusion layer)\n"
        "--------------------------------------------------------------------------------\n";
}

// Applies one "--kokkos-NAME[=VALUE]" argument; returns false if NAME is unknown.
bool apply_flag(const std::string& name, const char* value, InitializationSettings& s, bool& help) {
  auto need_int = [&](auto setter) {
    int v = 0;
    if (!parse_int(value, v)) {
      throw std::runtime_error("Kokkos::initialize: --kokkos-" + name + " expects an integer, got '" +
                               (value ? value : "") + "'");
    }
    (s.*setter)(v);
  };
  auto flag_bool = [&](auto setter) {
    bool v = true;
    if (value && !parse_bool(value, v)) {
      throw std::runtime_error("Kokkos::initialize: --kokkos-" + name + " expects a boolean, got '" + value + "'");
    }
    (s.*setter)(v);
  };
  if (name == "help") help = true;
  else if (name == "num-threads" || name == "threads") need_int(&InitializationSettings::set_num_threads);
  else if (name == "device-id" || name == "device") need_int(&InitializationSettings::set_device_id);
  else if (name == "task-team-size") need_int(&InitializationSettings::set_task_team_size);
  else if (name == "bind-threads") flag_bool(&InitializationSettings::set_bind_threads);
  else if (name == "print-configuration") flag_bool(&InitializationSettings::set_print_configuration);
  else if (name == "disable-warnings") flag_bool(&InitializationSettings::set_disable_warnings);
  else if (name == "tune-internals") flag_bool(&InitializationSettings::set_tune_internals);
  else if (name == "map-device-id-by") s.set_map_device_id_by(value ? value : "");
  else if (name == "tools-libs" || name == "tools-library") s.set_tools_libs(value ? value : "");
  else if (name == "tools-args") s.set_tools_args(value ? value : "");
  else if (name == "tools-help") flag_bool(&InitializationSettings::set_tools_help);
  else return false;
  return true;
}

void apply_environment(InitializationSettings& s) {
  auto env_int = [&](const char* var, auto has, auto setter) {
    const char* text = std::getenv(var);
    if (!text || (s.*has)()) return;
    int v = 0;
    if (!parse_int(text, v)) throw std::runtime_error(std::string("Kokkos::initialize: ") + var + "='" + text + "' is not an integer");
    (s.*setter)(v);
  };
  auto env_bool = [&](const char* var, auto has, auto setter) {
    const char* text = std::getenv(var);
    if (!text || (s.*has)()) return;
    bool v = false;
    if (!parse_bool(text, v)) throw std::runtime_error(std::string("Kokkos::initialize: ") + var + "='" + text + "' is not a boolean");
    (s.*setter)(v);
  };
  using IS = InitializationSettings;
  env_int("KOKKOS_NUM_THREADS", &IS::has_num_threads, &IS::set_num_threads);
  env_int("KOKKOS_DEVICE_ID", &IS::has_device_id, &IS::set_device_id);
  env_int("KOKKOS_TASK_TEAM_SIZE", &IS::has_task_team_size, &IS::set_task_team_size);
  env_bool("KOKKOS_BIND_THREADS", &IS::has_bind_threads, &IS::set_bind_threads);
  env_bool("KOKKOS_DISABLE_WARNINGS", &IS::has_disable_warnings, &IS::set_disable_warnings);
  env_bool("KOKKOS_PRINT_CONFIGURATION", &IS::has_print_configuration, &IS::set_print_configuration);
  if (!s.has_tools_libs()) {
    if (const char* libs = std::getenv("KOKKOS_TOOLS_LIBS")) {
      s.set_tools_libs(libs);
    } else if (const char* old_name = std::getenv("KOKKOS_PROFILE_LIBRARY")) {
      warn("KOKKOS_PROFILE_LIBRARY is deprecated; use KOKKOS_TOOLS_LIBS");
      s.set_tools_libs(old_name);
    }
  }
  if (const char* args = std::getenv("KOKKOS_TOOLS_ARGS"); args && !s.has_tools_args()) s.set_tools_args(args);
}

void initialize_internal(InitializationSettings settings) {
  if (g_state == State::initialized) {
    Impl::host_abort("Kokkos::initialize: Kokkos is already initialized; it can be initialized at most once.");
  }
  if (g_state == State::finalized) {
    Impl::host_abort("Kokkos::initialize: Kokkos was already finalized; it cannot be initialized again.");
  }
  apply_environment(settings);
  g_disable_warnings = settings.has_disable_warnings() && settings.get_disable_warnings();
  g_tune_internals = settings.has_tune_internals() && settings.get_tune_internals();
  if (settings.has_num_threads() && settings.get_num_threads() < 1) {
    throw std::runtime_error("Kokkos::initialize: the number of threads must be positive, got " +
                             std::to_string(settings.get_num_threads()));
  }
  Impl::take_node_share(settings, warn);

#if defined(KOKKOS_ENABLE_SERIAL)
  Serial::impl_initialize(settings);
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  OpenMP::impl_initialize(settings);
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  Threads::impl_initialize(settings);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  Cuda::impl_initialize(settings);
#endif

  const int host_threads = DefaultHostExecutionSpace::concurrency();
  const Impl::HostTopology& topo = Impl::host_topology();
  int team = topo.threads_per_core;
  if (settings.has_task_team_size()) {
    team = settings.get_task_team_size();
    if (team < 1) {
      throw std::runtime_error("Kokkos::initialize: --kokkos-task-team-size must be positive, got " + std::to_string(team));
    }
    if (team > host_threads) {
      warn("task team size " + std::to_string(team) + " exceeds the " + std::to_string(host_threads) +
           " host threads; using " + std::to_string(host_threads));
      team = host_threads;
    }
  }
  g_task_team_size = team > host_threads ? host_threads : team;
  g_state = State::initialized;
  bool tools_help = false;
  Tools::Impl::initialize_tools(settings, tools_help);
  if (tools_help) {
    // As Kokkos: the tools' help is all the program does.
    finalize();
    std::exit(EXIT_SUCCESS);
  }
  Impl::trace_initialize_from_environment();

  if (settings.has_print_configuration() && settings.get_print_configuration()) {
    print_configuration(std::cout, false);
  }
}

}  // namespace

namespace Impl {
void host_abort(const char* message) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", message);
  std::fflush(stderr);
  std::abort();
}
void throw_runtime_exception(const char* message) { throw std::runtime_error(message); }
void throw_runtime_exception(const std::string& message) { throw std::runtime_error(message); }

void check_initialized(const char* what) {
  if (g_state == State::initialized) return;
  const std::string message = std::string(what) +
                              (g_state == State::never_initialized ? " used before Kokkos::initialize()"
                                                                   : " used after Kokkos::finalize()");
  host_abort(message.c_str());
}
}  // namespace Impl

bool is_initialized() noexcept { return g_state == State::initialized; }
bool is_finalized() noexcept { return g_state == State::finalized; }

void initialize(int& argc, char* argv[]) {
  InitializationSettings settings;
  bool help = false;
  int kept = argc > 0 ? 1 : 0;
  for (int i = kept; i < argc; ++i) {
    const char* arg = argv[i];
    if (std::strncmp(arg, "--kokkos-", 9) != 0) {
      argv[kept++] = argv[i];
      continue;
    }
    std::string name(arg + 9);
    const char* value = nullptr;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = arg + 9 + eq + 1;
      name.resize(eq);
    }
    if (name == "tools-args" && value != nullptr && argc > 0) {
      // Tools parse their arguments as a command line: the program name comes first.
      std::string tool_args(value);
      if (tool_args.size() >= 2 && (tool_args.front() == '"' || tool_args.front() == '\'') &&
          tool_args.back() == tool_args.front()) {
        tool_args = tool_args.substr(1, tool_args.size() - 2);
      }
      settings.set_tools_args(std::string(argv[0]) + " " + tool_args);
      continue;
    }
    if (!apply_flag(name, value, settings, help)) {
      std::cerr << "Kokkos::initialize WARNING: unknown command-line argument '" << arg
                << "' ignored (see --kokkos-help)\n";
      argv[kept++] = argv[i];
    }
  }
  if (kept < argc) argv[kept] = nullptr;
  argc = kept;
  // A tool's help is told the program's name.
  if (settings.has_tools_help() && !settings.has_tools_args() && argc > 0) settings.set_tools_args(argv[0]);
  if (help) print_help(std::cout);
  initialize_internal(settings);
}

void initialize(const InitializationSettings& settings) { initialize_internal(settings); }

void push_finalize_hook(std::function<void()> hook) { g_finalize_hooks.push_back(std::move(hook)); }

void finalize() {
  if (g_state != State::initialized) {
    Impl::host_abort(g_state == State::finalized ? "Kokkos::finalize: called twice"
                                                 : "Kokkos::finalize: called before Kokkos::initialize");
  }
  fence("Kokkos::finalize: fence before finalize");
  while (!g_finalize_hooks.empty()) {
    auto hook = std::move(g_finalize_hooks.back());
    g_finalize_hooks.pop_back();
    hook();
  }
  Impl::trace_finalize();
  Tools::Impl::finalize_tools();
#if defined(KOKKOS_ENABLE_CUDA)
  Cuda::impl_finalize();
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  Threads::impl_finalize();
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  OpenMP::impl_finalize();
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
  Serial::impl_finalize();
#endif
  g_state = State::finalized;
}

void fence(const char* label) {
  Impl::check_initialized("Kokkos::fence");
  Impl::fusion_flush_if_pending(Impl::FusionFlush::fence);
  Impl::fence_backends(label);
  Impl::trace_flush_if_on();
}

// Each back end's part of a global fence is reported to Kokkos Tools as a fence of all of its
// instances, as Kokkos does.
template <class Space>
static void fence_all_instances(const char* label) {
  Tools::Experimental::Impl::profile_fence_event<Space>(
      label, Tools::Experimental::GlobalDeviceSynchronization, [&] { Space::impl_static_fence(label); });
}

void Impl::fence_backends(const char* label) {
#if defined(KOKKOS_ENABLE_SERIAL)
  fence_all_instances<Serial>(label);
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  fence_all_instances<OpenMP>(label);
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  fence_all_instances<Threads>(label);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  fence_all_instances<Cuda>(label);
#endif
}

void print_configuration(std::ostream& os, bool verbose) {
  const Impl::HostTopology& topo = Impl::host_topology();
  os << "kdag " << KDAG_VERSION_STRING << " (Kokkos " << KOKKOS_VERSION_MAJOR << '.' << KOKKOS_VERSION_MINOR
     << " API)\n";
  os << "  Back ends:";
#if defined(KOKKOS_ENABLE_SERIAL)
  os << " Serial";
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  os << " OpenMP";
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  os << " Threads";
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  os << " Cuda";
#endif
  os << "\n  Default execution space: " << DefaultExecutionSpace::name() << '\n';
  os << "  Host topology: " << topo.cores << " core(s), " << topo.processing_units << " hardware thread(s), "
     << topo.threads_per_core << " per core" << (topo.from_hwloc ? " (hwloc)" : " (no hwloc)") << '\n';
  os << "  Task team size: " << g_task_team_size << '\n';
  os << "  Node share: " << Impl::describe_node_share(Impl::node_share()) << '\n';
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
  os << "  View bounds checking: on\n";
#endif
  if (g_state == State::initialized) {
#if defined(KOKKOS_ENABLE_SERIAL)
    Serial().print_configuration(os, verbose);
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    OpenMP().print_configuration(os, verbose);
#endif
#if defined(KOKKOS_ENABLE_THREADS)
    Threads().print_configuration(os, verbose);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    if (Impl::cuda_device_available()) {
      Cuda().print_configuration(os, verbose);
    } else {
      os << "  Cuda: no usable GPU: " << Impl::cuda_device_error() << '\n';
    }
#endif
  }
}

bool show_warnings() noexcept { return !g_disable_warnings; }
bool tune_internals() noexcept { return g_tune_internals; }

int num_threads() noexcept {
  Impl::check_initialized("Kokkos::num_threads()");
  return DefaultHostExecutionSpace().concurrency();
}

int device_id() noexcept {
  Impl::check_initialized("Kokkos::device_id()");
#if defined(KOKKOS_ENABLE_CUDA)
  return Impl::cuda_device_available() ? Cuda().cuda_device() : -1;
#else
  return -1;
#endif
}

int num_devices() noexcept {
#if defined(KOKKOS_ENABLE_CUDA)
  return Cuda::detect_device_count();
#else
  return -1;
#endif
}

ScopeGuard::ScopeGuard(int& argc, char* argv[]) { initialize(argc, argv); }
ScopeGuard::ScopeGuard(const InitializationSettings& settings) { initialize(settings); }
ScopeGuard::~ScopeGuard() { finalize(); }

namespace Experimental {
int task_team_size() noexcept { return g_task_team_size; }
}  // namespace Experimental

}  // namespace Kokkos

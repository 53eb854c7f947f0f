// The trace writer: per-thread rings of TraceEvent, written out as Chrome trace-event JSON.
#include <Kokkos_Core.hpp>
#include <Kokkos_Trace.hpp>
#include <impl/tools/Kokkos_Trace.hpp>

#include <cxxabi.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <algorithm>
#include <charconv>
#include <cmath>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace Kokkos::Impl {
namespace {

// A single-producer ring: only its thread writes events and `head`; only a flush (under
// g_flush_mutex) reads them and writes `flushed`.  A slot is rewritten only after the flush
// that published its event, so neither side ever waits for the other.
struct TraceRing {
  std::unique_ptr<TraceEvent[]> events;
  std::size_t capacity = 0;
  int tid = 0;
  std::atomic<std::uint64_t> head{0};
  std::atomic<std::uint64_t> flushed{0};
  std::atomic<std::uint64_t> dropped{0};
  // The writer's (under g_flush_mutex): where the last task slice written from this ring ends
  // its arrows (task_flows events follow it), and its node in the task DAG (-1: none kept).
  std::uint64_t last_task_mid_ns = 0;
  long last_task_node = -1;
};

std::mutex g_registry_mutex;                      // g_rings grows when a thread records first
std::vector<std::unique_ptr<TraceRing>> g_rings;  // one per thread that ever recorded; never freed
thread_local TraceRing* t_ring = nullptr;

std::mutex g_flush_mutex;  // the file and everything below
std::FILE* g_file = nullptr;
std::string g_path;
bool g_first_event = true;
std::atomic<std::size_t> g_capacity{0};  // 0: not set yet (KOKKOS_TRACE_BUFFER_EVENTS or the default)
std::uint64_t g_dropped_total = 0, g_recorded_total = 0;
std::vector<std::string> g_fused_labels;  // a fused run's event holds an index here
std::unordered_map<const char*, std::string> g_demangled;
std::atomic<std::uint32_t> g_generation{0};  // of the running trace (TracePoint::thread's high half)
std::uint64_t g_flow_id = 0;                 // arrows written in the running trace

// The task DAG of the running (or last) trace, for traced_task_dag_dot: the first
// g_dag_capacity task executions the writer saw, and the arrows that end at them.
constexpr std::size_t g_dag_capacity = 2000;
constexpr std::size_t g_dag_edge_capacity = 16 * g_dag_capacity;
enum class FlowKind : std::uint8_t { spawn, respawn, dependence };
struct DagNode {
  std::uint64_t begin = 0, end = 0;  // ticks
  const char* type_name = nullptr;
  int tid = 0;
  std::uint8_t priority = 0, respawn = 0;
};
struct DagEdge {
  std::uint64_t src_tick = 0;
  int src_tid = 0;
  std::uint32_t dst = 0;
  FlowKind kind = FlowKind::spawn;
};
std::vector<DagNode> g_dag_nodes;
std::vector<DagEdge> g_dag_edges;
std::uint64_t g_dag_executions = 0, g_dag_arrows = 0;
std::chrono::steady_clock::time_point g_start;
// Events are stamped in clock ticks: the time-stamp counter where there is one (a few ns to
// read, where steady_clock costs 20-80 ns: two reads per event), converted to ns when written.
#if defined(__x86_64__) || defined(__i386__)
#define KOKKOS_IMPL_TRACE_TSC
std::uint64_t g_start_ticks = 0;
#endif
double g_ns_per_tick = 1.0;

// Measures the counter against steady_clock over 2 ms (the counter of every x86 CPU of the
// last decade runs at a constant rate on every core).
void calibrate_clock() {
  g_start = std::chrono::steady_clock::now();
#if defined(KOKKOS_IMPL_TRACE_TSC)
  g_start_ticks = __rdtsc();
  std::chrono::steady_clock::time_point now;
  do now = std::chrono::steady_clock::now();
  while (now - g_start < std::chrono::milliseconds(2));
  const std::uint64_t ticks = __rdtsc() - g_start_ticks;
  g_ns_per_tick = std::chrono::duration<double, std::nano>(now - g_start).count() / static_cast<double>(ticks);
#endif
}

// Caller holds g_flush_mutex.
std::size_t configured_capacity() {
  if (g_capacity.load(std::memory_order_relaxed) == 0) {
    std::size_t capacity = 65536;
    if (const char* text = std::getenv("KOKKOS_TRACE_BUFFER_EVENTS")) {
      char* end = nullptr;
      const long long v = std::strtoll(text, &end, 10);
      if (end != text && *end == '\0' && v > 0) capacity = static_cast<std::size_t>(v);
      else Kokkos::Impl::log_warning(std::string("KOKKOS_TRACE_BUFFER_EVENTS='") + text + "' is not a positive integer; using 65536");
    }
    g_capacity.store(capacity, std::memory_order_relaxed);
  }
  return g_capacity.load(std::memory_order_relaxed);
}

TraceRing* register_ring() {
  std::lock_guard lock(g_registry_mutex);
  auto ring = std::make_unique<TraceRing>();
  // start_trace chose the capacity before switching tracing on.
  const std::size_t capacity = g_capacity.load(std::memory_order_relaxed);
  ring->events.reset(new TraceEvent[capacity]);
  ring->capacity = capacity;
  ring->tid = static_cast<int>(g_rings.size());
  t_ring = ring.get();
  g_rings.push_back(std::move(ring));
  return t_ring;
}

std::vector<TraceRing*> rings() {
  std::lock_guard lock(g_registry_mutex);
  std::vector<TraceRing*> out;
  for (auto& ring : g_rings) out.push_back(ring.get());
  return out;
}

// A type's demangled name as a JSON string literal (quoted and escaped), made once per type.
std::string json_literal(const std::string& text);
const std::string& demangled_literal(const char* name) {
  auto it = g_demangled.find(name);
  if (it != g_demangled.end()) return it->second;
  int status = 0;
  char* text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string result = json_literal((status == 0 && text != nullptr) ? text : name);
  std::free(text);
  return g_demangled.emplace(name, std::move(result)).first->second;
}

// The JSON is built in g_out and written in large blocks: a flush writes tens of thousands of
// events, and per-character stdio calls (each taking the FILE's lock) cost microseconds each.
std::string g_out;

std::string json_literal(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + '"';
}
void out_json_string(const std::string& text) { g_out += json_literal(text); }

template <class Number>
void out_number(Number value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof(text), value).ptr;
  g_out.append(text, end);
}
// Microseconds with nanosecond digits, as the format's "ts" and "dur" are, printed from whole
// nanoseconds so that no rounding happens in the text.
void out_microseconds(std::uint64_t ns) {
  out_number(ns / 1000);
  char digits[5] = {'.', char('0' + ns / 100 % 10), char('0' + ns / 10 % 10), char('0' + ns % 10), '\0'};
  g_out += digits;
}
// Ticks to whole nanoseconds since the trace's start.  A slice's end is converted, not its
// duration, so a slice nested in another in ticks stays nested in the file (rounding the start
// and the duration separately could push a child's end 10 ns past its parent's).
std::uint64_t tick_ns(std::uint64_t ticks) {
  return static_cast<std::uint64_t>(static_cast<double>(ticks) * g_ns_per_tick + 0.5);
}

void write_out() {
  if (!g_out.empty()) std::fwrite(g_out.data(), 1, g_out.size(), g_file);
  g_out.clear();
}

const char* category(TraceKind kind) {
  switch (kind) {
    case TraceKind::parallel_for: return "parallel_for";
    case TraceKind::parallel_reduce: return "parallel_reduce";
    case TraceKind::parallel_scan: return "parallel_scan";
    case TraceKind::task: return "task";
    case TraceKind::work_graph_unit: return "work_graph_unit";
    case TraceKind::fused_run: return "fused_run";
    case TraceKind::task_flows: return "task_flow";
  }
  return "unknown";
}

const char* priority_name(std::uint8_t priority) {
  switch (priority) {
    case 0: return "High";
    case 1: return "Regular";
    default: return "Low";
  }
}

void begin_record() {
  g_out += g_first_event ? "\n" : ",\n";
  g_first_event = false;
}

const char* flow_name(FlowKind kind) {
  switch (kind) {
    case FlowKind::spawn: return "spawn";
    case FlowKind::respawn: return "respawn";
    case FlowKind::dependence: return "dependence";
  }
  return "unknown";
}

// One arrow: a flow start inside the source slice and a flow end bound to the enclosing
// (destination) slice, the v1 flow events both chrome://tracing and Perfetto read.  Formatted
// into one buffer (a traced task DAG writes two or three arrows per task).
struct FlowText {
  char text[320];
  char* at = text;
  template <std::size_t N>
  void literal(const char (&s)[N]) {
    std::memcpy(at, s, N - 1);
    at += N - 1;
  }
  void text_of(const char* s) {
    const std::size_t n = std::strlen(s);
    std::memcpy(at, s, n);
    at += n;
  }
  void number(std::uint64_t v) { at = std::to_chars(at, text + sizeof(text), v).ptr; }
  void microseconds(std::uint64_t ns) {
    number(ns / 1000);
    *at++ = '.';
    *at++ = char('0' + ns / 100 % 10);
    *at++ = char('0' + ns / 10 % 10);
    *at++ = char('0' + ns % 10);
  }
};

void write_flow(FlowKind kind, const TracePoint& from, int dst_tid, std::uint64_t dst_ns) {
  const std::uint64_t id = ++g_flow_id;
  const auto src_tid = static_cast<std::uint64_t>((from.thread & 0xffff) - 1);
  const char* name = flow_name(kind);
  FlowText f;
  f.literal(",\n{\"name\":\"");
  f.text_of(name);
  f.literal("\",\"cat\":\"task_flow\",\"ph\":\"s\",\"id\":");
  f.number(id);
  f.literal(",\"pid\":1,\"tid\":");
  f.number(src_tid);
  f.literal(",\"ts\":");
  f.microseconds(tick_ns(from.tick));
  f.literal("},\n{\"name\":\"");
  f.text_of(name);
  f.literal("\",\"cat\":\"task_flow\",\"ph\":\"f\",\"bp\":\"e\",\"id\":");
  f.number(id);
  f.literal(",\"pid\":1,\"tid\":");
  f.number(static_cast<std::uint64_t>(dst_tid));
  f.literal(",\"ts\":");
  f.microseconds(dst_ns);
  f.literal("}");
  // The text starts with a separator: a flow is never the file's first event (its slice is).
  g_first_event = false;
  g_out.append(f.text, static_cast<std::size_t>(f.at - f.text));
}

// The arrows a task slice (or its task_flows continuation) carries, ending at `ring`'s last task slice.
void write_flows(const TraceEvent& e, TraceRing& ring) {
  const int n = static_cast<int>(e.count & trace_flow_count_mask);
  for (int i = 0; i < n; ++i) {
    const TracePoint from = trace_flow_point(e, i);
    FlowKind kind = FlowKind::dependence;
    if (i == 0 && e.kind == TraceKind::task && (e.count & trace_flow_first_is_spawn) != 0)
      kind = e.respawn ? FlowKind::respawn : FlowKind::spawn;
    write_flow(kind, from, ring.tid, ring.last_task_mid_ns);
    ++g_dag_arrows;
    if (ring.last_task_node >= 0 && g_dag_edges.size() < g_dag_edge_capacity)
      g_dag_edges.push_back({from.tick, static_cast<int>(from.thread & 0xffff) - 1,
                             static_cast<std::uint32_t>(ring.last_task_node), kind});
  }
}

// The task DAG's bookkeeping of a written task slice, then its arrows.
void task_slice_written(const TraceEvent& e, TraceRing& ring, std::uint64_t ticks) {
  ring.last_task_mid_ns = tick_ns(e.begin_ns + ticks / 2);
  ++g_dag_executions;
  ring.last_task_node = -1;
  if (g_dag_nodes.size() < g_dag_capacity) {
    ring.last_task_node = static_cast<long>(g_dag_nodes.size());
    g_dag_nodes.push_back({e.begin_ns, e.begin_ns + ticks, e.type_name, ring.tid, e.priority, e.respawn});
  }
  write_flows(e, ring);
}

// A task slice, the most frequent event: formatted into one buffer.
void write_task_slice(const TraceEvent& e, TraceRing& ring, std::uint64_t ticks) {
  static const char* last_type = nullptr;  // tasks of one type come in runs: skip the lookup
  static const std::string* last_name = nullptr;
  if (e.type_name != last_type) {
    last_type = e.type_name;
    last_name = &demangled_literal(e.type_name);
  }
  g_out += g_first_event ? "\n{\"name\":" : ",\n{\"name\":";
  g_first_event = false;
  g_out += *last_name;
  FlowText f;
  f.literal(",\"cat\":\"task\",\"ph\":\"X\",\"pid\":1,\"tid\":");
  f.number(static_cast<std::uint64_t>(ring.tid));
  f.literal(",\"ts\":");
  const std::uint64_t begin_ns = tick_ns(e.begin_ns);
  f.microseconds(begin_ns);
  f.literal(",\"dur\":");
  f.microseconds(tick_ns(e.begin_ns + ticks) - begin_ns);
  f.literal(",\"args\":{\"priority\":\"");
  f.text_of(priority_name(e.priority));
  if (e.respawn) f.literal("\",\"respawn\":true}}");
  else f.literal("\",\"respawn\":false}}");
  g_out.append(f.text, static_cast<std::size_t>(f.at - f.text));
  task_slice_written(e, ring, ticks);
  if (g_out.size() > (1u << 20)) write_out();
}

void write_event(const TraceEvent& e, TraceRing& ring) {
  const int tid = ring.tid;
  if (e.kind == TraceKind::task_flows) {
    write_flows(e, ring);
    return;
  }
  const std::uint64_t ticks = e.end_ns > e.begin_ns ? e.end_ns - e.begin_ns : 0;
  if (e.kind == TraceKind::task && e.type_name != nullptr) {
    write_task_slice(e, ring, ticks);
    return;
  }
  begin_record();
  g_out += "{\"name\":";
  // A slice without a label is named after its functor's type (Kokkos' default kernel name).
  // (A task's label bytes hold its arrows' sources: a task is always named after its type.)
  const bool named_by_type = e.kind != TraceKind::fused_run && (e.kind == TraceKind::task || e.label[0] == '\0') &&
                             e.type_name != nullptr;
  if (e.kind == TraceKind::fused_run) g_out += "\"fused run\"";
  else if (named_by_type) g_out += demangled_literal(e.type_name);
  else out_json_string(e.label);
  g_out += ",\"cat\":\"";
  g_out += category(e.kind);
  g_out += "\",\"ph\":\"X\",\"pid\":1,\"tid\":";
  out_number(tid);
  g_out += ",\"ts\":";
  const std::uint64_t begin_ns = tick_ns(e.begin_ns);
  out_microseconds(begin_ns);
  g_out += ",\"dur\":";
  out_microseconds(tick_ns(e.begin_ns + ticks) - begin_ns);
  g_out += ",\"args\":{";
  bool first_arg = true;
  switch (e.kind) {
    case TraceKind::task:
      g_out += "\"priority\":\"";
      g_out += priority_name(e.priority);
      g_out += e.respawn ? "\",\"respawn\":true" : "\",\"respawn\":false";
      first_arg = false;
      break;
    case TraceKind::work_graph_unit:
      g_out += "\"items\":";
      out_number(e.count);
      first_arg = false;
      break;
    case TraceKind::fused_run:
      g_out += "\"labels\":";
      out_json_string(e.count < g_fused_labels.size() ? g_fused_labels[e.count] : std::string());
      first_arg = false;
      break;
    default: break;
  }
  if (e.type_name != nullptr && e.kind != TraceKind::fused_run && !named_by_type) {
    if (!first_arg) g_out += ',';
    g_out += "\"functor\":";
    g_out += demangled_literal(e.type_name);
  }
  g_out += "}}";
  if (e.kind == TraceKind::task) task_slice_written(e, ring, ticks);
  if (g_out.size() > (1u << 20)) write_out();
}

// Caller holds g_flush_mutex.
void flush_locked() {
  if (g_file == nullptr) return;
  for (TraceRing* ring : rings()) {
    const std::uint64_t head = ring->head.load(std::memory_order_acquire);
    const std::uint64_t from = ring->flushed.load(std::memory_order_relaxed);
    for (std::uint64_t i = from; i < head; ++i) write_event(ring->events[i % ring->capacity], *ring);
    ring->flushed.store(head, std::memory_order_release);
  }
  write_out();
  std::fflush(g_file);
}

}  // namespace

std::uint64_t trace_clock() {
#if defined(KOKKOS_IMPL_TRACE_TSC)
  return __rdtsc() - g_start_ticks;
#else
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - g_start).count());
#endif
}

namespace {
std::uint32_t thread_code(const TraceRing* ring) {
  return (g_generation.load(std::memory_order_relaxed) << 16) | static_cast<std::uint32_t>((ring->tid + 1) & 0xffff);
}
}  // namespace

std::uint32_t trace_record(TraceEvent& event) {
  TraceRing* ring = t_ring != nullptr ? t_ring : register_ring();
  event.end_ns = trace_clock();
  const std::uint64_t head = ring->head.load(std::memory_order_relaxed);
  if (head - ring->flushed.load(std::memory_order_acquire) >= ring->capacity) {
    ring->dropped.store(ring->dropped.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    t_trace_ring_full = true;
    return 0;
  }
  ring->events[head % ring->capacity] = event;
  ring->head.store(head + 1, std::memory_order_release);
  return thread_code(ring);
}

TracePoint trace_point_now() {
  TraceRing* ring = t_ring != nullptr ? t_ring : register_ring();
  return TracePoint{trace_clock(), thread_code(ring)};
}

bool trace_point_current(const TracePoint& p) {
  return (p.thread & 0xffff) != 0 && (p.thread >> 16) == (g_generation.load(std::memory_order_relaxed) & 0xffff);
}

bool trace_ring_has_room_again() {
  TraceRing* ring = t_ring;
  if (ring == nullptr || ring->head.load(std::memory_order_relaxed) - ring->flushed.load(std::memory_order_acquire) <
                             ring->capacity) {
    t_trace_ring_full = false;
    return true;
  }
  ring->dropped.store(ring->dropped.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  return false;
}

void trace_launch(TraceKind kind, std::uint64_t begin, const std::string& label, const char* type_name) {
  TraceEvent event;
  event.kind = kind;
  event.begin_ns = begin;
  event.type_name = type_name;
  const std::size_t n = label.size() < sizeof(event.label) - 1 ? label.size() : sizeof(event.label) - 1;
  std::memcpy(event.label, label.data(), n);
  trace_record(event);
}

void trace_fused_run(std::uint64_t begin, const std::string& labels) {
  TraceEvent event;
  event.kind = TraceKind::fused_run;
  event.begin_ns = begin;
  {
    std::lock_guard lock(g_flush_mutex);
    event.count = g_fused_labels.size();
    g_fused_labels.push_back(labels);
  }
  trace_record(event);
}

void trace_flush() {
  std::lock_guard lock(g_flush_mutex);
  flush_locked();
}

void trace_initialize_from_environment() {
  const char* path = std::getenv("KOKKOS_TRACE");
  if (path == nullptr || *path == '\0') return;
  try {
    Kokkos::Experimental::start_trace(path);
  } catch (const std::exception& e) {
    log_warning(std::string("KOKKOS_TRACE: ") + e.what() + "; no trace is written");
  }
}

void trace_finalize() { Kokkos::Experimental::stop_trace(); }

}  // namespace Kokkos::Impl

namespace Kokkos::Experimental {

using namespace Kokkos::Impl;

void start_trace(const std::string& path) {
  std::lock_guard lock(g_flush_mutex);
  if (g_file != nullptr) {
    throw std::runtime_error("Kokkos::Experimental::start_trace: a trace is already being written to '" + g_path +
                             "'; call stop_trace() first");
  }
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    throw std::runtime_error("Kokkos::Experimental::start_trace: cannot open '" + path +
                             "' for writing: " + std::strerror(errno));
  }
  // No parallel work is in flight (the documented precondition): the rings can be reset.
  const std::size_t capacity = configured_capacity();
  for (TraceRing* ring : rings()) {
    if (ring->capacity != capacity) {
      ring->events.reset(new TraceEvent[capacity]);
      ring->capacity = capacity;
    }
    ring->head.store(0, std::memory_order_relaxed);
    ring->flushed.store(0, std::memory_order_relaxed);
    ring->dropped.store(0, std::memory_order_relaxed);
  }
  g_file = file;
  g_path = path;
  g_first_event = true;
  g_dropped_total = g_recorded_total = 0;
  g_fused_labels.clear();
  g_flow_id = 0;
  g_dag_nodes.clear();
  g_dag_edges.clear();
  g_dag_executions = g_dag_arrows = 0;
  for (TraceRing* ring : rings()) ring->last_task_node = -1;
  g_generation.store((g_generation.load(std::memory_order_relaxed) + 1) & 0xffff, std::memory_order_relaxed);
  calibrate_clock();
  std::fputs("{\"traceEvents\":[", g_file);
  g_trace_on.store(true, std::memory_order_release);
}

void stop_trace() {
  std::lock_guard lock(g_flush_mutex);
  if (g_file == nullptr) return;
  g_trace_on.store(false, std::memory_order_release);
  flush_locked();
  std::uint64_t dropped = 0, recorded = 0;
  begin_record();
  g_out += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"kdag\"}}";
  for (TraceRing* ring : rings()) {
    const std::uint64_t lost = ring->dropped.load(std::memory_order_relaxed);
    const std::uint64_t kept = ring->head.load(std::memory_order_acquire);
    dropped += lost;
    recorded += kept;
    if (kept == 0 && lost == 0) continue;
    std::string name = "thread " + std::to_string(ring->tid);
    if (lost > 0) name += " (" + std::to_string(lost) + " events dropped: ring full)";
    begin_record();
    g_out += "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":";
    out_number(ring->tid);
    g_out += ",\"args\":{\"name\":";
    out_json_string(name);
    g_out += "}}";
  }
  g_out += "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"writer\":\"kdag\",\"dropped_events\":";
  out_number(dropped);
  g_out += ",\"events_per_thread\":";
  out_number(g_capacity.load());
  g_out += "}}\n";
  write_out();
  std::fclose(g_file);
  g_file = nullptr;
  g_path.clear();
  g_dropped_total = dropped;
  g_recorded_total = recorded;
}

bool trace_enabled() { return g_trace_on.load(std::memory_order_relaxed); }

namespace {
// A functor type's name for a node: its last name component, templates elided.
std::string short_type_name(const char* name) {
  if (name == nullptr) return "task";
  int status = 0;
  char* text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string full = (status == 0 && text != nullptr) ? text : name;
  std::free(text);
  const std::size_t angle = full.find('<');
  std::string head = full.substr(0, angle);
  const std::size_t colon = head.rfind("::");
  if (colon != std::string::npos) head = head.substr(colon + 2);
  if (angle != std::string::npos) head += "<...>";
  std::string escaped;
  for (const char c : head) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return escaped;
}
}  // namespace

std::string traced_task_dag_dot(std::size_t max_nodes) {
  std::lock_guard lock(g_flush_mutex);
  flush_locked();  // the running trace's events still in the rings
  if (max_nodes > g_dag_capacity) max_nodes = g_dag_capacity;
  const std::size_t shown = g_dag_nodes.size() < max_nodes ? g_dag_nodes.size() : max_nodes;
  // Arrow sources are places (thread, tick): find the task slice containing each.
  std::vector<std::vector<std::uint32_t>> by_thread;
  for (std::uint32_t i = 0; i < shown; ++i) {
    const auto tid = static_cast<std::size_t>(g_dag_nodes[i].tid);
    if (by_thread.size() <= tid) by_thread.resize(tid + 1);
    by_thread[tid].push_back(i);
  }
  for (auto& nodes : by_thread)
    std::sort(nodes.begin(), nodes.end(),
              [](std::uint32_t a, std::uint32_t b) { return g_dag_nodes[a].begin < g_dag_nodes[b].begin; });
  auto find = [&](int tid, std::uint64_t tick) -> long {
    if (tid < 0 || static_cast<std::size_t>(tid) >= by_thread.size()) return -1;
    const auto& nodes = by_thread[static_cast<std::size_t>(tid)];
    auto it = std::upper_bound(nodes.begin(), nodes.end(), tick,
                               [](std::uint64_t t, std::uint32_t n) { return t < g_dag_nodes[n].begin; });
    if (it == nodes.begin()) return -1;
    --it;
    return tick <= g_dag_nodes[*it].end ? static_cast<long>(*it) : -1;
  };
  struct Drawn {
    long src;
    std::uint32_t dst;
    FlowKind kind;
  };
  std::vector<Drawn> edges;
  std::vector<long> previous_run(shown, -1);
  for (const DagEdge& e : g_dag_edges) {
    if (e.dst >= shown) continue;
    const long src = find(e.src_tid, e.src_tick);
    if (src < 0) continue;
    edges.push_back({src, e.dst, e.kind});
    if (e.kind == FlowKind::respawn) previous_run[e.dst] = src;
  }
  const std::uint64_t executions = g_dag_executions;
  const std::uint64_t dropped = [] {
    std::uint64_t n = 0;
    for (TraceRing* ring : rings()) n += ring->dropped.load(std::memory_order_relaxed);
    return g_file == nullptr ? g_dropped_total : n;
  }();
  std::string out = "digraph task_dag {\n  node [shape=box, fontsize=10];\n";
  std::string note;
  if (shown < executions) {
    note = "task DAG of " + std::to_string(executions) + " task executions: only the first " + std::to_string(shown) +
           " are drawn, with the " + std::to_string(edges.size()) + " edges between them";
  }
  if (g_dag_edges.size() == g_dag_edge_capacity) note += std::string(note.empty() ? "" : "; ") + "edges beyond " +
                                                         std::to_string(g_dag_edge_capacity) + " are not drawn";
  if (dropped > 0) {
    note += std::string(note.empty() ? "" : "; ") + std::to_string(dropped) +
            " trace events were dropped (full rings): some executions and edges are missing";
  }
  if (!note.empty()) {
    out += "  cut [shape=note, label=\"" + note + "\"];\n";
    Kokkos::Impl::log_warning("Kokkos::Experimental::traced_task_dag_dot: " + note);
  }
  for (std::size_t i = 0; i < shown; ++i) {
    const DagNode& n = g_dag_nodes[i];
    std::string label = short_type_name(n.type_name) + "\\n" + priority_name(n.priority);
    if (n.respawn) {  // which respawn: follow the respawn edges back to the first execution
      std::size_t first = i;
      int k = 0;
      while (previous_run[first] >= 0 && k < (1 << 20)) first = static_cast<std::size_t>(previous_run[first]), ++k;
      label += g_dag_nodes[first].respawn ? std::string(", respawn") : ", respawn " + std::to_string(k);
    }
    out += "  n" + std::to_string(i) + " [label=\"" + label + "\"" + (n.respawn ? ", style=rounded" : "") + "];\n";
  }
  for (const Drawn& e : edges) {
    out += "  n" + std::to_string(e.src) + " -> n" + std::to_string(e.dst);
    switch (e.kind) {
      case FlowKind::spawn: out += " [class=spawn];\n"; break;
      case FlowKind::respawn: out += " [class=respawn, style=dashed, color=gray40];\n"; break;
      case FlowKind::dependence: out += " [class=dependence, color=blue];\n"; break;
    }
  }
  return out + "}\n";
}

std::string trace_path() {
  std::lock_guard lock(g_flush_mutex);
  return g_path;
}

std::uint64_t trace_dropped_events() {
  std::lock_guard lock(g_flush_mutex);
  if (g_file == nullptr) return g_dropped_total;
  std::uint64_t dropped = 0;
  for (TraceRing* ring : rings()) dropped += ring->dropped.load(std::memory_order_relaxed);
  return dropped;
}

std::uint64_t trace_recorded_events() {
  std::lock_guard lock(g_flush_mutex);
  if (g_file == nullptr) return g_recorded_total;
  std::uint64_t recorded = 0;
  for (TraceRing* ring : rings()) recorded += ring->head.load(std::memory_order_acquire);
  return recorded;
}

void set_trace_buffer_events(std::size_t events_per_thread) {
  std::lock_guard lock(g_flush_mutex);
  if (events_per_thread == 0) {
    throw std::runtime_error("Kokkos::Experimental::set_trace_buffer_events: a ring must hold at least one event");
  }
  if (g_file != nullptr) {
    throw std::runtime_error("Kokkos::Experimental::set_trace_buffer_events: called while a trace is running");
  }
  g_capacity.store(events_per_thread, std::memory_order_relaxed);
}

std::size_t trace_buffer_events() {
  std::lock_guard lock(g_flush_mutex);
  return configured_capacity();
}

}  // namespace Kokkos::Experimental

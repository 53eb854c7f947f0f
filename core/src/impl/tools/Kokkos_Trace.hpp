#pragma once
// The hot half of kdag's trace writer (Kokkos_Trace.hpp has the user's calls): what the event
// sites call.  Host code only (launch front ends, the host task workers, the host work-graph
// executor, fused runs).
//
// Cost model: with tracing off every event site costs one relaxed load and one predictable
// branch (trace_begin() returns 0).  With tracing on, an event is two reads of the time-stamp
// counter (steady_clock where there is none) and one 96-byte store into the calling thread's ring: no allocation after the thread's first event,
// no lock, nothing shared with other threads but the ring's publication counter, which only a
// flush reads.  A full ring drops events (counted) until the next flush (Kokkos::fence,
// Kokkos::wait on a scheduler, finalize, stop_trace).
//
// Task DAG arrows cost no event of their own: a task slice carries the places (TracePoint) its
// arrows start from, read from the task headers of its spawner, its previous execution and its
// predecessors; the writer emits each as a pair of flow events.  Task spawn and when_all add
// one predictable branch each (the same relaxed load) for their hooks.
#include <Kokkos_Macros.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>

namespace Kokkos::Impl {

// task_flows: more arrow sources of the task slice recorded just before it on the same thread.
enum class TraceKind : std::uint8_t {
  parallel_for,
  parallel_reduce,
  parallel_scan,
  task,
  work_graph_unit,
  fused_run,
  task_flows
};

// One slice.  `type_name` is a string that lives as long as the program (a typeid name); the
// label (a launch's, truncated) is copied into the event so that no string outlives its launch.
struct TraceEvent {
  std::uint64_t begin_ns = 0, end_ns = 0;  // trace_clock() ticks; nanoseconds in the file
  const char* type_name = nullptr;
  // work-graph unit: items; fused run: index of its merged labels; task and task_flows: the
  // arrow sources packed in `label` (trace_flow_count_mask) and trace_flow_first_is_spawn.
  std::uint64_t count = 0;
  TraceKind kind = TraceKind::parallel_for;
  std::uint8_t priority = 0;
  std::uint8_t respawn = 0;
  char label[61] = {};  // a task's arrow sources: up to 5 TracePoints of 12 bytes (trace_flow_point)
};
static_assert(sizeof(TraceEvent) == 96);

// ---- flow arrows of task DAGs -----------------------------------------------------------------
// A place in the trace: a clock tick inside a task slice, and the slice's thread.  `thread` is
// (trace generation << 16) | (ring index + 1); 0: no place (a slice that was dropped, or none).
// A task keeps the point of its latest execution (or of its spawn, before it first runs) in its
// header (trace_store_point in Host/Kokkos_HostTaskWorkerLoop.cpp); arrows start there.
struct TracePoint {
  std::uint64_t tick = 0;
  std::uint32_t thread = 0;
};
inline constexpr std::uint64_t trace_flow_count_mask = 0xff;
inline constexpr std::uint64_t trace_flow_first_is_spawn = 0x100;  // point 0: spawn (or respawn) source
inline constexpr int trace_flow_points_per_event = 5;
inline void trace_flow_point(TraceEvent& e, int i, const TracePoint& p) {
  char* at = e.label + 12 * i;
  std::memcpy(at, &p.tick, 8);
  std::memcpy(at + 8, &p.thread, 4);
}
inline TracePoint trace_flow_point(const TraceEvent& e, int i) {
  TracePoint p;
  const char* at = e.label + 12 * i;
  std::memcpy(&p.tick, at, 8);
  std::memcpy(&p.thread, at + 8, 4);
  return p;
}
// The calling thread's place now (registering its ring if it has none).
TracePoint trace_point_now();
// Whether `p` is a place in the running trace.
bool trace_point_current(const TracePoint& p);

inline std::atomic<bool> g_trace_on{false};

// Clock ticks since the trace started (converted to nanoseconds when written).
std::uint64_t trace_clock();

// Set by a thread whose ring was full: until a flush makes room its events are only counted,
// without reading the clock.
inline thread_local bool t_trace_ring_full = false;
// Counts one dropped event of this thread; true when a flush has made room since.
bool trace_ring_has_room_again();

// 0 when tracing is off: the one branch of an event site.  Otherwise the start time (never 0),
// or 0 when the calling thread's ring is full (the event is counted as dropped).
inline std::uint64_t trace_begin() {
  if (KOKKOS_IMPL_LIKELY(!g_trace_on.load(std::memory_order_acquire))) return 0;
  if (KOKKOS_IMPL_UNLIKELY(t_trace_ring_full) && !trace_ring_has_room_again()) return 0;
  return trace_clock() | 1;
}

// Appends `event` (its end time is taken now) to the calling thread's ring.  Returns the
// thread's TracePoint::thread, or 0 when the ring was full and the event dropped.
std::uint32_t trace_record(TraceEvent& event);

// What a task execution's slice starts with: 0 when tracing is off (the one branch), else the
// start time; 0 as well when the thread's ring is full: the slice and its arrows are dropped,
// and `*trace_thread` (the task's TaskBase::m_trace) is cleared, so that the task forgets its
// point and no later arrow starts at a slice that is not in the trace.
inline std::uint64_t trace_task_begin(std::uint32_t* trace_thread) {
  if (KOKKOS_IMPL_LIKELY(!g_trace_on.load(std::memory_order_acquire))) return 0;
  if (KOKKOS_IMPL_UNLIKELY(t_trace_ring_full) && !trace_ring_has_room_again()) {
    *trace_thread = 0;
    return 0;
  }
  return trace_clock() | 1;
}

// A launch that began at `begin` (from trace_begin, non-zero) ends now.
void trace_launch(TraceKind kind, std::uint64_t begin, const std::string& label, const char* type_name);
// A fused run of launches `labels` (joined with ", ") ends now.
void trace_fused_run(std::uint64_t begin, const std::string& labels);

// Writes what the rings hold to the trace file (any thread; flushes are serialised).
void trace_flush();
inline void trace_flush_if_on() {
  if (KOKKOS_IMPL_UNLIKELY(g_trace_on.load(std::memory_order_relaxed))) trace_flush();
}

// Kokkos::initialize: KOKKOS_TRACE=file starts a trace; Kokkos::finalize stops it.
void trace_initialize_from_environment();
void trace_finalize();

// The slice of a launch: begins at construction, recorded at destruction.
class TraceLaunchScope {
 public:
  TraceLaunchScope(TraceKind kind, const std::string& label, const char* type_name)
      : m_begin(trace_begin()), m_kind(kind), m_label(label), m_type_name(type_name) {}
  ~TraceLaunchScope() {
    if (KOKKOS_IMPL_UNLIKELY(m_begin != 0)) trace_launch(m_kind, m_begin, m_label, m_type_name);
  }
  TraceLaunchScope(const TraceLaunchScope&) = delete;
  TraceLaunchScope& operator=(const TraceLaunchScope&) = delete;

 private:
  std::uint64_t m_begin;
  TraceKind m_kind;
  const std::string& m_label;
  const char* m_type_name;
};

}  // namespace Kokkos::Impl

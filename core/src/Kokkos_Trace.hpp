#pragma once
// kdag extension: Chrome trace-event files of what ran (open them in https://ui.perfetto.dev or
// chrome://tracing).  One track per host thread; a slice per launch (parallel_for / _reduce /
// _scan: its label, or the functor's type as Kokkos names unlabelled kernels), per task
// execution (the functor's type, its priority, whether it is a respawn), per work-graph unit
// (the items it ran) and per fused run (the labels it merged); and arrows (flow events) for the
// edges of task DAGs: spawn (from the spawning execution to the child's first), dependence (from
// the last execution of each predecessor a task waited on, through a future or when_all, to the
// execution that waited) and respawn (from a task's execution to its next).
//
//   KOKKOS_TRACE=trace.json ./app           # the whole run, written at Kokkos::finalize
//   Kokkos::Experimental::start_trace("step.json");  ...  Kokkos::Experimental::stop_trace();
//
// With a trace running, a when_all keeps its entries' memory until the aggregate itself is freed
// (for the arrows of its waiters), so pools fill slightly sooner than without.
//
// Memory is bounded: each thread records into a ring of trace_buffer_events() events (96 bytes
// each; KOKKOS_TRACE_BUFFER_EVENTS, default 65536) that is written out at Kokkos::fence,
// Kokkos::wait(scheduler), stop_trace and finalize.  Events that find their thread's ring full
// are dropped and counted: trace_dropped_events(), and "dropped_events" in the file's otherData
// and its thread names.  With no trace running, each event site costs one predictable branch.
#include <cstddef>
#include <cstdint>
#include <string>

namespace Kokkos::Experimental {

// Starts writing a trace to `path` (created or truncated).  Throws std::runtime_error when a
// trace is already running or the file cannot be opened.  Call it, like stop_trace, from host
// code with no parallel work in flight.
void start_trace(const std::string& path);
// Writes the remaining events and closes the file; a no-op when no trace is running.
void stop_trace();
bool trace_enabled();
// The file of the running trace ("" when none).
std::string trace_path();
// Events dropped in the running (or last) trace because a thread's ring was full.
std::uint64_t trace_dropped_events();
// Events recorded (written or waiting to be) in the running (or last) trace.
std::uint64_t trace_recorded_events();
// The size of each thread's ring; changing it while a trace runs throws std::runtime_error.
void set_trace_buffer_events(std::size_t events_per_thread);
std::size_t trace_buffer_events();

// The task DAG the running (or last) trace saw executed, as Graphviz DOT (render it with
// `dot -Tsvg dag.dot > dag.svg`), for small DAGs: one node per task execution (box: a first
// execution, rounded: a respawn; labelled with the functor's type, its priority and, for a
// respawn, which one), and an edge per arrow of the trace: spawn (plain), dependence (blue) and
// respawn (dashed), each with its `class` attribute.  The trace keeps its first 2000 task
// executions (in the order it wrote them); beyond `max_nodes` (at most 2000) the picture is cut,
// says so in a note, and the same message goes to stderr, as it does when events were dropped.
// Edges whose ends are not both drawn are left out.  A trace to /dev/null records the DAG alone.
std::string traced_task_dag_dot(std::size_t max_nodes = 2000);

}  // namespace Kokkos::Experimental

#pragma once
// kdag extension: Chrome trace-event files of what ran (open them in https://ui.perfetto.dev or
// chrome://tracing).  One track per host thread; a slice per launch (parallel_for / _reduce /
// _scan: its label, or the functor's type as Kokkos names unlabelled kernels), per task
// execution (the functor's type, its priority, whether it is a respawn), per work-graph unit
// (the items it ran) and per fused run (the labels it merged).
//
//   KOKKOS_TRACE=trace.json ./app           # the whole run, written at Kokkos::finalize
//   Kokkos::Experimental::start_trace("step.json");  ...  Kokkos::Experimental::stop_trace();
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

}  // namespace Kokkos::Experimental

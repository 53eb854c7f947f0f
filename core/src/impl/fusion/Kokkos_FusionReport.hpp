#pragma once
// What Kokkos Tools and traces see of recorded launches (Kokkos_Fusion.hpp).  A launch with
// declared accesses is reported where it runs, not where it is recorded:
//   - run at once (no window, fusion off, a run of one, the one-thread inline rule, or a member
//     that the adaptive dispatch runs unfused): a normal begin/end_parallel_for / _reduce with
//     its label (Kokkos' default name when it has none) and its policy's device id;
//   - in a fused run: one begin/end pair for the whole run (parallel_reduce when the run ends
//     in a reduction, parallel_for otherwise) named fused_run_name(member names), from which
//     Kokkos::Experimental::fused_run_labels recovers the member names; traces show a
//     "fused run" slice with the labels in its args.
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/tools/Kokkos_Profiling.hpp>
#include <impl/tools/Kokkos_Trace.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace Kokkos::Impl {

inline constexpr const char fused_run_prefix[] = "kdag fused run: ";
inline constexpr const char fused_run_separator[] = " | ";

// Whether anyone listens: then the window keeps each launch's name.
inline bool fusion_reporting_active() {
  const Tools::Experimental::EventSet& c = Tools::Impl::current_callbacks;
  return c.begin_parallel_for != nullptr || c.end_parallel_for != nullptr || c.begin_parallel_reduce != nullptr ||
         c.end_parallel_reduce != nullptr || g_trace_on.load(std::memory_order_relaxed);
}

inline std::string fused_run_name(const std::string* names, std::uint32_t count) {
  std::string name = fused_run_prefix;
  for (std::uint32_t k = 0; k < count; ++k) {
    if (k > 0) name += fused_run_separator;
    name += names[k];
  }
  return name;
}

// Runs body() as one reported launch named `name`; a fused run's trace slice is its own
// (trace_fused_run), not a launch's.
template <class Body>
void fusion_report_launch(bool reduces, const std::string& name, std::uint32_t device_id, const Body& body,
                          bool fused = false) {
  std::uint64_t kernel_id = 0;
  if (reduces) Tools::beginParallelReduce(name, device_id, &kernel_id);
  else Tools::beginParallelFor(name, device_id, &kernel_id);
  if (fused) {
    const std::uint64_t trace_start = trace_begin();
    body();
    if (trace_start != 0) trace_fused_run(trace_start, name.substr(sizeof(fused_run_prefix) - 1));
  } else {
    const TraceLaunchScope trace(reduces ? TraceKind::parallel_reduce : TraceKind::parallel_for, name, nullptr);
    body();
  }
  if (reduces) Tools::endParallelReduce(kernel_id);
  else Tools::endParallelFor(kernel_id);
}

// A launch with declared accesses that runs at once, named as dispatch named it.
template <class Functor, class Policy, class Body>
void fusion_run_reported(bool reduces, const Policy& policy, const Body& body) {
  if (KOKKOS_IMPL_LIKELY(!fusion_reporting_active())) {
    body();
    return;
  }
  const std::string* label = t_fusion_launch_label;
  const std::string name = Tools::Impl::kernel_name<Functor, typename Policy::work_tag>(label ? *label : std::string());
  fusion_report_launch(reduces, name, Tools::Impl::policy_device_id(policy), body);
}

// The name a recorded launch will be reported under ("" when nobody listens).
template <class Functor, class Policy>
std::string fusion_recorded_name() {
  if (KOKKOS_IMPL_LIKELY(!fusion_reporting_active())) return std::string();
  const std::string* label = t_fusion_launch_label;
  return Tools::Impl::kernel_name<Functor, typename Policy::work_tag>(label ? *label : std::string());
}

}  // namespace Kokkos::Impl

namespace Kokkos::Experimental {

// The names of the launches a fused run merged, in program order, from the kernel name Kokkos
// Tools received for it; empty when `kernel_name` is not a fused run's.
inline std::vector<std::string> fused_run_labels(const std::string& kernel_name) {
  std::vector<std::string> labels;
  const std::string prefix = Kokkos::Impl::fused_run_prefix, separator = Kokkos::Impl::fused_run_separator;
  if (kernel_name.rfind(prefix, 0) != 0) return labels;
  std::size_t at = prefix.size();
  for (;;) {
    const std::size_t next = kernel_name.find(separator, at);
    labels.push_back(kernel_name.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) break;
    at = next + separator.size();
  }
  return labels;
}

}  // namespace Kokkos::Experimental

#pragma once
// Shared by the PerfCuda* benchmarks: every benchmark skips, naming why, where no GPU is usable.
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <string>

namespace perf {

// Why nothing can be measured here; empty when a GPU is usable.  `who` names the benchmark.
inline const std::string& gpu_unavailable_reason(const char* who) {
  static const std::string reason = [who] {
    try {
      Kokkos::Impl::cuda_require_device(who);
      return std::string();
    } catch (const std::runtime_error& e) {
      return std::string("no GPU visible: ") + e.what();
    }
  }();
  return reason;
}

inline bool skip_without_gpu(benchmark::State& state, const char* who) {
  const std::string& reason = gpu_unavailable_reason(who);
  if (reason.empty()) return false;
  state.SkipWithError(reason.c_str());
  return true;
}

}  // namespace perf

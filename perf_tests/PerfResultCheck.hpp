#pragma once
// A benchmark whose own result check fails (fused != unfused, a wrong reduction) reports the
// reason through Google Benchmark and makes its executable exit non-zero (PerfMain.cpp), so that
// a wrong answer is never mistaken for a skip.  A benchmark that cannot run here (no GPU) calls
// SkipWithError directly and does not count.
#include <benchmark/benchmark.h>

#include <atomic>
#include <string>

namespace perf {

// How many result checks failed in this process.
std::atomic<int>& result_check_failures();

inline void fail_result_check(benchmark::State& state, const std::string& why) {
  result_check_failures().fetch_add(1, std::memory_order_relaxed);
  state.SkipWithError(why.c_str());
}

}  // namespace perf

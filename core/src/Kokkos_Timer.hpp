#pragma once
#include <chrono>

namespace Kokkos {
// Wall-clock timer: seconds since construction or the last reset().
class Timer {
  using clock = std::chrono::steady_clock;
  clock::time_point start_;

 public:
  Timer() : start_(clock::now()) {}
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;
  void reset() { start_ = clock::now(); }
  double seconds() const { return std::chrono::duration<double>(clock::now() - start_).count(); }
};
}  // namespace Kokkos

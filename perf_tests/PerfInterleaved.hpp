#pragma once
// Shared by the perf tests: the median time of each of several variants of one computation,
// measured in the same run so that their ratios mean something on a loaded machine.
#include <Kokkos_Timer.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace perf {

inline std::vector<double> medians_of_samples(std::vector<std::vector<double>>& samples) {
  std::vector<double> medians;
  for (auto& s : samples) {
    std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(s.size() / 2), s.end());
    medians.push_back(s[s.size() / 2]);
  }
  return medians;
}

// Median seconds per call of each variant: rounds that run every variant `block` times in a
// rotating order, the first call of each block untimed (it meets the other variant's cache).
inline std::vector<double> interleaved_medians(int rounds, const std::vector<std::function<void()>>& variants) {
  constexpr int block = 4;
  std::vector<std::vector<double>> samples(variants.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t j = 0; j < variants.size(); ++j) {
      const std::size_t k = (j + static_cast<std::size_t>(r)) % variants.size();
      variants[k]();
      for (int b = 1; b < block; ++b) {
        Kokkos::Timer timer;
        variants[k]();
        samples[k].push_back(timer.seconds());
      }
    }
  }
  return medians_of_samples(samples);
}

// A variant whose every timed pass needs a fresh, untimed set-up (a container emptied, a
// histogram zeroed).
struct SetupAndPass {
  std::function<void()> setup, pass;
};

// Median seconds per pass of each variant: one untimed set-up and one timed pass per variant per
// round, the variants' order rotating each round.
inline std::vector<double> interleaved_medians_after_setup(int rounds, const std::vector<SetupAndPass>& variants) {
  std::vector<std::vector<double>> samples(variants.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t j = 0; j < variants.size(); ++j) {
      const std::size_t k = (j + static_cast<std::size_t>(r)) % variants.size();
      variants[k].setup();
      Kokkos::Timer timer;
      variants[k].pass();
      samples[k].push_back(timer.seconds());
    }
  }
  return medians_of_samples(samples);
}

}  // namespace perf

#pragma once
// Kokkos::Experimental::partition_space: independent instances of an execution space that share
// its workers out by relative weight.
//
//   auto parts = Kokkos::Experimental::partition_space(Kokkos::DefaultHostExecutionSpace(), 1, 1);
//   std::thread a([&] { Kokkos::parallel_for(Kokkos::RangePolicy(parts[0], 0, n), f); });
//   std::thread b([&] { Kokkos::parallel_for(Kokkos::RangePolicy(parts[1], 0, n), g); });
//
// A back end that can give a partition its own workers provides
// `ExecSpace impl_create_partition(int workers) const`; the others return copies of the instance,
// as Kokkos does.  Host back ends: OpenMP partitions are OpenMP(pool_size) instances, Threads
// partitions own a thread pool of their share, Serial partitions are Serial(NewInstance) instances
// (each runs on the thread that launches on it).  Both forms return std::vector, as in Kokkos 4.6.
#include <Kokkos_Concepts.hpp>
#include <Kokkos_Abort.hpp>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

namespace Kokkos::Experimental {

namespace Impl {

// Workers per partition: one each, then the rest in proportion to the weights (largest
// remainders first, earlier partitions first on ties), so the counts sum to
// max(workers, partitions).  Zero weights everywhere mean equal shares.
inline std::vector<int> partition_worker_counts(int workers, const std::vector<double>& weights) {
  const std::size_t n = weights.size();
  std::vector<int> counts(n, 1);
  double total = 0;
  for (double w : weights) total += w;
  const int rest = workers - static_cast<int>(n);
  if (n == 0 || rest <= 0) return counts;
  std::vector<double> remainder(n);
  int given = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double share = total > 0 ? rest * (weights[i] / total) : double(rest) / double(n);
    const int whole = static_cast<int>(std::floor(share));
    counts[i] += whole;
    given += whole;
    remainder[i] = share - whole;
  }
  for (; given < rest; ++given) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < n; ++i) {
      if (remainder[i] > remainder[best]) best = i;
    }
    ++counts[best];
    remainder[best] = -1;
  }
  return counts;
}

template <class ExecSpace>
std::vector<ExecSpace> partition(const ExecSpace& space, const std::vector<double>& weights) {
  static_assert(is_execution_space_v<ExecSpace>, "Kokkos::Experimental::partition_space: the first argument must be "
                                                 "an execution space instance");
  for (double w : weights) {
    if (!(w >= 0) || !std::isfinite(w)) {
      Kokkos::Impl::throw_runtime_exception(
          "Kokkos::Experimental::partition_space: weight " + std::to_string(w) +
          " is not a finite non-negative number");
    }
  }
  std::vector<ExecSpace> instances;
  instances.reserve(weights.size());
  if constexpr (requires { space.impl_create_partition(1); }) {
    for (int workers : partition_worker_counts(space.impl_thread_pool_size(), weights)) {
      instances.push_back(space.impl_create_partition(workers));
    }
  } else if constexpr (requires { space.impl_create_instance(); }) {
    // A GPU back end: each partition is an instance of its own (a new stream).
    for (std::size_t i = 0; i < weights.size(); ++i) instances.push_back(space.impl_create_instance());
  } else {
    instances.assign(weights.size(), space);
  }
  return instances;
}

}  // namespace Impl

template <class ExecSpace, class... Args>
std::vector<ExecSpace> partition_space(const ExecSpace& space, Args... args) {
  static_assert((... && std::is_arithmetic_v<Args>),
                "Kokkos Error: partitioning arguments must be integers or floats");
  return Impl::partition(space, std::vector<double>{static_cast<double>(args)...});
}

template <class ExecSpace, class T>
std::vector<ExecSpace> partition_space(const ExecSpace& space, const std::vector<T>& weights) {
  static_assert(std::is_arithmetic_v<T>, "Kokkos Error: partitioning arguments must be integers or floats");
  return Impl::partition(space, std::vector<double>(weights.begin(), weights.end()));
}

}  // namespace Kokkos::Experimental

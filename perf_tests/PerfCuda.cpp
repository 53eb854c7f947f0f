// The CUDA back end against the bare CUDA runtime and CUB, each pair measured interleaved in the
// same run (built only with Kokkos_ENABLE_CUDA; every benchmark skips, naming why, where no GPU
// is visible):
//
//   Cuda/LaunchLatency  an empty parallel_for on one index, 100 back-to-back launches then a
//                       fence  vs  an empty kernel<<<1, 1>>> the same way on the same stream.
//                       Counters: us_per_launch, bare_us_per_launch, ratio_to_bare (goal <= 1.2).
//   Cuda/StreamTriad    a(i) = b(i) + s * c(i) over three CudaSpace Views of 2^27 doubles
//                       vs  cudaMemcpy device-to-device of 2^27 doubles.
//                       Counters: triad_GBs, memcpy_GBs (bytes read + written per second),
//                       ratio_to_memcpy (goal >= 0.9).
//   Cuda/ReduceSum      parallel_reduce sum of 2^27 doubles into a host double  vs
//                       cub::DeviceReduce::Sum into device memory, then copied to the host.
//                       Counters: reduce_us, cub_us, ratio_to_cub (goal <= 1.1).
//   Cuda/AtomicHistogram/<bins>  2^26 increments of pseudo-random bins of a CudaSpace View of
//                       `bins` counters (256: every warp contends; 2^20: hardly any two
//                       increments meet), one index per thread, with Kokkos::atomic_add (relaxed,
//                       as Kokkos 4's: goal public_to_bare <= 1.05)  vs  a seq_cst fetch-add
//                       (Kokkos::Impl::atomic_fetch_add_seq_cst: a fence.sc before each, a
//                       fence.acq_rel after, what an ordered atomic costs)  vs  a bare kernel's
//                       atomicAdd.  Every histogram is checked bin by bin against the bare kernel's.
//                       Counters: public_us, seq_cst_us, bare_us (median per pass),
//                       public_to_bare, seq_cst_to_bare.
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include "PerfCudaSkip.hpp"
#include "PerfInterleaved.hpp"

#include <cub/device/device_reduce.cuh>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using Array = Kokkos::View<double*, Kokkos::CudaSpace>;
constexpr std::int64_t stream_length = std::int64_t(1) << 27;

bool skip_without_gpu(benchmark::State& state) { return perf::skip_without_gpu(state, "PerfCuda"); }

__global__ void empty_kernel() {}

constexpr int launches_per_sample = 100;

void kokkos_empty_launches(const Kokkos::Cuda& exec) {
  for (int l = 0; l < launches_per_sample; ++l) {
    Kokkos::parallel_for("empty", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, 1), KOKKOS_LAMBDA(std::int64_t){});
  }
  exec.fence("PerfCuda: empty launches");
}

void bare_empty_launches(cudaStream_t stream) {
  for (int l = 0; l < launches_per_sample; ++l) empty_kernel<<<1, 1, 0, stream>>>();
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(stream));
}

void LaunchLatency(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Kokkos::Cuda exec;
  const cudaStream_t stream = exec.cuda_stream();
  std::vector<double> m;
  for (auto _ : state) {
    m = perf::interleaved_medians(50, {[&] { kokkos_empty_launches(exec); }, [&] { bare_empty_launches(stream); }});
  }
  state.counters["us_per_launch"] = 1e6 * m[0] / launches_per_sample;
  state.counters["bare_us_per_launch"] = 1e6 * m[1] / launches_per_sample;
  state.counters["ratio_to_bare"] = m[0] / m[1];
}

void fill(const Kokkos::Cuda& exec, const Array& v, double scale) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, v.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) { v(i) = scale * double(i % 1000); });
}

void triad(const Kokkos::Cuda& exec, const Array& a, const Array& b, const Array& c, double s) {
  Kokkos::parallel_for(
      "triad", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, a.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) { a(i) = b(i) + s * c(i); });
  exec.fence("PerfCuda: triad");
}

void StreamTriad(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Kokkos::Cuda exec;
  const cudaStream_t stream = exec.cuda_stream();
  const Array a(Kokkos::view_alloc(exec, "a", Kokkos::WithoutInitializing), stream_length);
  const Array b(Kokkos::view_alloc(exec, "b", Kokkos::WithoutInitializing), stream_length);
  const Array c(Kokkos::view_alloc(exec, "c", Kokkos::WithoutInitializing), stream_length);
  fill(exec, b, 1.0);
  fill(exec, c, 2.0);
  constexpr double s = 3.0;
  const std::size_t bytes = sizeof(double) * std::size_t(stream_length);
  auto memcpy_d2d = [&] {
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemcpyAsync(a.data(), b.data(), bytes, cudaMemcpyDeviceToDevice, stream));
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(stream));
  };
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians(10, {[&] { triad(exec, a, b, c, s); }, memcpy_d2d});

  // The last variant run may be either: run the triad once more and check one element.
  triad(exec, a, b, c, s);
  double probe = 0;
  const std::int64_t at = stream_length - 1;
  Kokkos::deep_copy(probe, Kokkos::subview(a, at));
  if (probe != 1.0 * double(at % 1000) + s * 2.0 * double(at % 1000)) {
    return perf::fail_result_check(state, "the triad computed a wrong value");
  }
  const double triad_gbs = 3.0 * double(bytes) / m[0] / 1e9;
  const double memcpy_gbs = 2.0 * double(bytes) / m[1] / 1e9;
  state.counters["triad_GBs"] = triad_gbs;
  state.counters["memcpy_GBs"] = memcpy_gbs;
  state.counters["ratio_to_memcpy"] = triad_gbs / memcpy_gbs;
}

double kokkos_sum(const Kokkos::Cuda& exec, const Array& x) {
  double sum = 0;
  Kokkos::parallel_reduce(
      "sum", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, x.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i, double& acc) { acc += x(i); }, sum);
  return sum;
}

// CUB's device-wide sum with its temporary storage allocated once, as a CUB user would.
struct CubSum {
  cudaStream_t stream;
  const double* in;
  int n;
  Kokkos::View<double, Kokkos::CudaSpace> out{"cub_out"};
  // Pinned, as kdag's reduction result goes through pinned scratch: the copy back costs the same.
  Kokkos::View<double, Kokkos::CudaHostPinnedSpace> result{"cub_result"};
  Kokkos::View<unsigned char*, Kokkos::CudaSpace> temp;

  CubSum(cudaStream_t s, const Array& x) : stream(s), in(x.data()), n(static_cast<int>(x.extent(0))) {
    std::size_t temp_bytes = 0;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out.data(), n, stream));
    temp = Kokkos::View<unsigned char*, Kokkos::CudaSpace>("cub_temp", temp_bytes);
  }
  double operator()() const {
    std::size_t temp_bytes = temp.extent(0);
    KOKKOS_IMPL_CUDA_SAFE_CALL(cub::DeviceReduce::Sum(temp.data(), temp_bytes, in, out.data(), n, stream));
    KOKKOS_IMPL_CUDA_SAFE_CALL(
        cudaMemcpyAsync(result.data(), out.data(), sizeof(double), cudaMemcpyDeviceToHost, stream));
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(stream));
    return result();
  }
};

void ReduceSum(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Kokkos::Cuda exec;
  const Array x(Kokkos::view_alloc(exec, "x", Kokkos::WithoutInitializing), stream_length);
  fill(exec, x, 0.5);
  exec.fence("PerfCuda: fill");
  const CubSum cub_sum(exec.cuda_stream(), x);

  // Same value up to rounding, or the comparison means nothing.
  const double ours = kokkos_sum(exec, x), theirs = cub_sum();
  if (std::abs(ours - theirs) > 1e-9 * std::abs(theirs)) return perf::fail_result_check(state, "parallel_reduce and CUB disagree");

  std::vector<double> m;
  for (auto _ : state) {
    m = perf::interleaved_medians(
        20, {[&] { benchmark::DoNotOptimize(kokkos_sum(exec, x)); }, [&] { benchmark::DoNotOptimize(cub_sum()); }});
  }
  state.counters["reduce_us"] = 1e6 * m[0];
  state.counters["cub_us"] = 1e6 * m[1];
  state.counters["ratio_to_cub"] = m[0] / m[1];
}

// ---- AtomicHistogram -----------------------------------------------------------------------------
constexpr std::int64_t histogram_updates = std::int64_t(1) << 26;
using Counts = Kokkos::View<unsigned*, Kokkos::CudaSpace>;

KOKKOS_INLINE_FUNCTION unsigned histogram_bin(std::int64_t i, unsigned bins) {
  return static_cast<unsigned>(((std::uint64_t(i) * 0x9E3779B97F4A7C15ull) >> 32) % bins);
}

__global__ void bare_histogram(unsigned* counts, unsigned bins, std::int64_t n) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(counts + histogram_bin(i, bins), 1u);
}

void AtomicHistogram(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Kokkos::Cuda exec;
  const cudaStream_t stream = exec.cuda_stream();
  const unsigned bins = static_cast<unsigned>(state.range(0));
  const Counts public_counts("public", bins), seq_cst_counts("seq_cst", bins), bare_counts("bare", bins);
  const auto policy = Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, histogram_updates);
  auto zero = [&](const Counts& c) {
    return [&exec, c] {
      Kokkos::deep_copy(exec, c, 0u);
      exec.fence("PerfCuda: zero the histogram");
    };
  };
  auto public_pass = [&] {
    const Counts c = public_counts;
    Kokkos::parallel_for("histogram public", policy, KOKKOS_LAMBDA(std::int64_t i) {
      Kokkos::atomic_add(&c(histogram_bin(i, bins)), 1u);
    });
    exec.fence("PerfCuda: histogram");
  };
  auto seq_cst_pass = [&] {
    const Counts c = seq_cst_counts;
    Kokkos::parallel_for("histogram seq_cst", policy, KOKKOS_LAMBDA(std::int64_t i) {
      Kokkos::Impl::atomic_fetch_add_seq_cst(&c(histogram_bin(i, bins)), 1u);
    });
    exec.fence("PerfCuda: histogram");
  };
  auto bare_pass = [&] {
    constexpr int block = 256;
    bare_histogram<<<unsigned((histogram_updates + block - 1) / block), block, 0, stream>>>(bare_counts.data(), bins,
                                                                                       histogram_updates);
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetLastError());
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(stream));
  };
  std::vector<double> m;
  for (auto _ : state) {
    m = perf::interleaved_medians_after_setup(
        9, {{zero(public_counts), public_pass}, {zero(seq_cst_counts), seq_cst_pass}, {zero(bare_counts), bare_pass}});
  }
  // Each histogram holds exactly one pass (zeroed before it): the same counts, summing to the updates.
  const auto expected = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bare_counts);
  std::int64_t total = 0;
  for (unsigned b = 0; b < bins; ++b) total += expected(b);
  if (total != histogram_updates) return perf::fail_result_check(state, "the bare histogram lost increments");
  for (const Counts& c : {public_counts, seq_cst_counts}) {
    const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    for (unsigned b = 0; b < bins; ++b)
      if (got(b) != expected(b))
        return perf::fail_result_check(state, std::string(c.label()) + " histogram differs from the bare one at bin " +
                                                  std::to_string(b));
  }
  state.counters["public_us"] = 1e6 * m[0];
  state.counters["seq_cst_us"] = 1e6 * m[1];
  state.counters["bare_us"] = 1e6 * m[2];
  state.counters["public_to_bare"] = m[0] / m[2];
  state.counters["seq_cst_to_bare"] = m[1] / m[2];
}

BENCHMARK(LaunchLatency)->Name("Cuda/LaunchLatency")->Iterations(1)->UseRealTime();
BENCHMARK(StreamTriad)->Name("Cuda/StreamTriad")->Iterations(1)->UseRealTime();
BENCHMARK(ReduceSum)->Name("Cuda/ReduceSum")->Iterations(1)->UseRealTime();
BENCHMARK(AtomicHistogram)->Name("Cuda/AtomicHistogram")->Arg(256)->Arg(1 << 20)->Iterations(1)->UseRealTime();

}  // namespace

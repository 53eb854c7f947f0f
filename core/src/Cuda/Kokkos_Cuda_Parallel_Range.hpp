#pragma once
// parallel_for / parallel_reduce / parallel_scan over a RangePolicy on Kokkos::Cuda.
//
//   for:    one index per thread where the grid allows, a grid-stride loop beyond; Schedule<Static>
//           and Schedule<Dynamic> run the same way (the hardware schedules blocks dynamically).
//   reduce: a grid of at most one resident wave of blocks, each thread accumulating a
//           grid-stride share; the block and inter-block combines of Kokkos_Cuda_ReduceScan.hpp.
//           The grid depends only on the range length and the device, so a reduction is
//           deterministic for a given n on a given device.
//   scan:   two kernels over contiguous per-block chunks (see Kokkos_Cuda_ReduceScan.hpp).
// The result of a reduction goes straight to device-accessible memory (a CudaSpace,
// CudaUVMSpace or CudaHostPinnedSpace View: no fence); a host result goes through the
// instance's pinned scratch and the launch fences the instance.
#include <Kokkos_ExecPolicy.hpp>
#include <Cuda/Kokkos_Cuda_Instance.hpp>
#include <Cuda/Kokkos_Cuda_KernelLaunch.hpp>
#include <Cuda/Kokkos_Cuda_ReduceScan.hpp>
#include <impl/Kokkos_FunctorAnalysis.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <type_traits>

namespace Kokkos::Impl {

template <class CombinedFunctorReducer, class Policy, class ExecSpace>
class ParallelReduce;

inline constexpr const char* cuda_for_name = "Kokkos::parallel_for";
inline constexpr const char* cuda_reduce_name = "Kokkos::parallel_reduce";
inline constexpr const char* cuda_scan_name = "Kokkos::parallel_scan";

// Bytes a partial of a reduction takes in scratch_space (16-byte aligned slots).
inline std::size_t cuda_reduce_slot_bytes(std::size_t value_size) { return (value_size + 15) / 16 * 16; }

// True when the device can write through `p` (device, managed or mapped pinned memory).
inline bool cuda_device_writable(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    (void)cudaGetLastError();  // an unknown host pointer is not an error worth keeping
    return false;
  }
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged ||
         (attributes.type == cudaMemoryTypeHost && attributes.devicePointer == p);
}

// A grid of at most one resident wave of `block`-thread blocks (`blocks_per_sm` of them fit on a
// multiprocessor), at least one block.
inline unsigned cuda_one_wave(int device, long long work_items, int block, int blocks_per_sm) {
  const CudaLaunchLimits& limits = cuda_launch_limits(device);
  const long long wave = static_cast<long long>(blocks_per_sm > 0 ? blocks_per_sm : 1) * limits.sm_count;
  const long long needed = (work_items + block - 1) / block;
  return static_cast<unsigned>(needed < 1 ? 1 : (needed < wave ? needed : wave));
}
// The same, when the kernel's occupancy is not known: by the threads a multiprocessor holds.
inline unsigned cuda_one_wave(int device, long long work_items, int block) {
  const int per_sm = cuda_launch_limits(device).max_threads_per_sm / block;
  return cuda_one_wave(device, work_items, block, per_sm);
}

// Where a reduction's kernel writes its result, and how the host gets it: device-writable
// results are written in place; host ones through the instance's pinned scratch and a fence.
// Holds the instance's scratch lock from the scratch request until the result is back.
template <class Reducer>
class CudaReduceResult {
  using pointer_type = typename Reducer::pointer_type;

 public:
  CudaReduceResult(CudaInternal* internal, const Reducer& reducer, pointer_type result)
      : m_internal(internal), m_lock(internal->m_mutexScratchSpace), m_result(result), m_count(reducer.value_count()) {
    if (result != nullptr && !cuda_device_writable(result)) {
      m_staging = reinterpret_cast<pointer_type>(m_internal->scratch_unified(reducer.value_size()));
    }
  }
  // The pointer the kernel writes through (null when the result is discarded).
  pointer_type device_pointer() const { return m_staging != nullptr ? m_staging : m_result; }
  // Partials for `blocks` blocks and the last-block flag.
  unsigned char* partials(std::size_t blocks, std::size_t value_size) const {
    return reinterpret_cast<unsigned char*>(m_internal->scratch_space(blocks * cuda_reduce_slot_bytes(value_size)));
  }
  unsigned int* flag() const { return reinterpret_cast<unsigned int*>(m_internal->scratch_flags(sizeof(unsigned int))); }
  // After the launch: a host result is fenced and copied out.  A reduction without a result
  // fences too: Kokkos treats it as a host result, and its final() may write memory the caller
  // reads as soon as parallel_reduce returns.
  void finish(const char* fence_label) {
    if (m_staging == nullptr && m_result != nullptr) return;
    m_internal->fence(fence_label);
    if (m_staging == nullptr) return;
    for (int k = 0; k < m_count; ++k) m_result[k] = m_staging[k];
  }

 private:
  CudaInternal* m_internal;
  std::lock_guard<std::mutex> m_lock;
  pointer_type m_result;
  pointer_type m_staging = nullptr;
  int m_count;
};

template <class Policy>
struct CudaRangeBounds {
  using I = typename Policy::member_type;
  // Wide enough that index + stride never overflows.
  using W = std::conditional_t<std::is_signed_v<I>, long long, unsigned long long>;
  W begin, end;
  explicit CudaRangeBounds(const Policy& p) : begin(static_cast<W>(p.begin())), end(static_cast<W>(p.end())) {}
  long long size() const { return end > begin ? static_cast<long long>(end - begin) : 0; }
};

// ---- parallel_for -------------------------------------------------------------------------------

template <class Functor, class Policy>
struct CudaRangeForDriver {
  using Tag = typename Policy::work_tag;
  using I = typename Policy::member_type;
  using W = typename CudaRangeBounds<Policy>::W;
  Functor functor;
  W begin, end;

  __device__ void operator()() const {
    const W stride = static_cast<W>(gridDim.x) * blockDim.x;
    for (W i = begin + static_cast<W>(blockIdx.x) * blockDim.x + threadIdx.x; i < end; i += stride) {
      invoke_functor<Tag>(functor, static_cast<I>(i));
    }
  }
};

template <class Functor, class... P>
class ParallelFor<Functor, RangePolicy<P...>, Kokkos::Cuda> {
  using Policy = RangePolicy<P...>;
  using Driver = CudaRangeForDriver<Functor, Policy>;
  using Bounds = typename Policy::launch_bounds;

  const Functor& m_functor;
  const Policy& m_policy;

 public:
  ParallelFor(const Functor& functor, const Policy& policy) : m_functor(functor), m_policy(policy) {}

  void execute() const {
    const CudaRangeBounds<Policy> range(m_policy);
    if (range.size() == 0) return;
    CudaInternal* internal = m_policy.space().impl_internal_space_instance();
    const int device = internal->m_cudaDev;
    const int block = CudaKernel<Driver, Bounds>::block_size(cuda_for_name, device, 0, 0);
    const long long blocks = (range.size() + block - 1) / block;
    const int max_grid = cuda_launch_limits(device).max_grid_x;
    const unsigned grid = static_cast<unsigned>(blocks < max_grid ? blocks : max_grid);
    const Driver driver = cuda_make_driver([&] { return Driver{m_functor, range.begin, range.end}; });
    cuda_parallel_launch<Bounds>(cuda_for_name, driver, dim3(grid), dim3(block), 0, device, internal->m_stream);
  }
};

// ---- parallel_reduce ----------------------------------------------------------------------------

template <class CombinedFunctorReducer, class Policy>
struct CudaRangeReduceDriver {
  using Tag = typename Policy::work_tag;
  using I = typename Policy::member_type;
  using W = typename CudaRangeBounds<Policy>::W;
  using Reducer = typename CombinedFunctorReducer::reducer_type;
  using Reduction = CudaReduction<Reducer>;
  using value_type = typename Reducer::value_type;
  using pointer_type = typename Reducer::pointer_type;

  CombinedFunctorReducer functor_reducer;
  W begin, end;
  unsigned char* partials;
  unsigned int* flag;
  pointer_type result;

  __device__ void operator()() const { run(nullptr); }
  // before(first, last, step) runs a fused run's loops (Cuda/Kokkos_Cuda_Fusion.hpp) at a
  // group of the thread's indices first, first + step, ... below last, ahead of the functor at
  // them: the same indices in the same order, so the same bits, as the plain reduction.
  template <class Before>
  __device__ void run(const Before& before) const {
    const Reducer& reducer = functor_reducer.get_reducer();
    const auto& functor = functor_reducer.get_functor();
    value_type local;
    const pointer_type acc = Reduction::accumulator(reducer, &local);
    reducer.init(acc);
    const W stride = static_cast<W>(gridDim.x) * blockDim.x;
    W i = begin + static_cast<W>(blockIdx.x) * blockDim.x + threadIdx.x;
    if constexpr (std::is_same_v<Before, std::nullptr_t>) {
      for (; i < end; i += stride) invoke_functor<Tag>(functor, static_cast<I>(i), reducer.reference(acc));
    } else {
      constexpr W group = 8;  // as the fused loops' indices per thread (Kokkos_Cuda_Fusion.hpp)
      while (i < end) {
        const W last = (end - i) / stride >= group ? i + group * stride : end;
        before(static_cast<long long>(i), static_cast<long long>(last), static_cast<long long>(stride));
        for (; i < last; i += stride) invoke_functor<Tag>(functor, static_cast<I>(i), reducer.reference(acc));
      }
    }
    Reduction::finish(reducer, acc, partials, flag, result);
  }
};

// Launches a reduction driver: block size by occupancy (with the array reduction's shared
// memory), `grid_for(block, blocks_per_sm)` blocks, partials and the result per CudaReduceResult.
// The launch shape of a reduction driver: block size by occupancy (with the array reduction's
// shared memory) and `grid_for(block, blocks_per_sm)` blocks.
struct CudaReduceLaunchShape {
  int block;
  unsigned grid;
  std::size_t shmem;
};
template <class Driver, class Bounds, class Reducer, class GridFor>
CudaReduceLaunchShape cuda_reduce_shape(int device, const Reducer& reducer, const GridFor& grid_for) {
  const std::size_t per_thread = CudaReduction<Reducer>::shmem_per_thread(reducer);
  const auto shape = CudaKernel<Driver, Bounds>::occupancy_shape(cuda_reduce_name, device, per_thread, 0);
  return {shape.block, grid_for(shape.block, shape.blocks_per_sm), per_thread * std::size_t(shape.block)};
}

// Launches a reduction: `make_driver(partials, flag, result)` builds what the kernel gets and
// `launch(driver, shape)` enqueues it; partials and the result per CudaReduceResult.
template <class Reducer, class Make, class Launch>
void cuda_run_reduction(CudaInternal* internal, const Reducer& reducer, typename Reducer::pointer_type result,
                        const CudaReduceLaunchShape& shape, const Make& make_driver, const Launch& launch) {
  CudaReduceResult<Reducer> out(internal, reducer, result);
  unsigned char* partials = shape.grid > 1 ? out.partials(shape.grid, reducer.value_size()) : nullptr;
  unsigned int* flag = shape.grid > 1 ? out.flag() : nullptr;
  launch(make_driver(partials, flag, out.device_pointer()), shape);
  out.finish("Kokkos::parallel_reduce on Cuda: fence before reading the result on the host");
}

template <class Driver, class Bounds, class Reducer, class GridFor, class Make>
void cuda_launch_reduction(CudaInternal* internal, const Reducer& reducer, typename Reducer::pointer_type result,
                           const GridFor& grid_for, const Make& make_driver) {
  const int device = internal->m_cudaDev;
  const CudaReduceLaunchShape shape = cuda_reduce_shape<Driver, Bounds>(device, reducer, grid_for);
  cuda_run_reduction(internal, reducer, result, shape, make_driver, [&](const Driver& driver, const CudaReduceLaunchShape& s) {
    cuda_parallel_launch<Bounds>(cuda_reduce_name, driver, dim3(s.grid), dim3(s.block), s.shmem, device,
                                 internal->m_stream);
  });
}

template <class CombinedFunctorReducerType, class... P>
class ParallelReduce<CombinedFunctorReducerType, RangePolicy<P...>, Kokkos::Cuda> {
  using Policy = RangePolicy<P...>;
  using Reducer = typename CombinedFunctorReducerType::reducer_type;
  using pointer_type = typename Reducer::pointer_type;
  using Driver = CudaRangeReduceDriver<CombinedFunctorReducerType, Policy>;
  using Bounds = typename Policy::launch_bounds;

  const CombinedFunctorReducerType& m_functor_reducer;
  const Policy& m_policy;
  pointer_type m_result;

 public:
  ParallelReduce(const CombinedFunctorReducerType& functor_reducer, const Policy& policy, pointer_type result)
      : m_functor_reducer(functor_reducer), m_policy(policy), m_result(result) {}

  void execute() const {
    const CudaRangeBounds<Policy> range(m_policy);
    CudaInternal* internal = m_policy.space().impl_internal_space_instance();
    const int device = internal->m_cudaDev;
    cuda_launch_reduction<Driver, Bounds>(
        internal, m_functor_reducer.get_reducer(), m_result,
        [&](int block, int blocks_per_sm) { return cuda_one_wave(device, range.size(), block, blocks_per_sm); },
        [&](unsigned char* partials, unsigned int* flag, pointer_type out) {
          return cuda_make_driver([&] { return Driver{m_functor_reducer, range.begin, range.end, partials, flag, out}; });
        });
  }
};

// ---- parallel_scan ------------------------------------------------------------------------------

// Pass 1 (`final_pass` false): block b reduces its chunk into partials[b].  Pass 2: block b
// starts from the join of partials[0, b) and scans its chunk in rows of blockDim.x indices; the
// last block writes the total when `total` is not null.
template <class CombinedFunctorReducer, class Policy>
struct CudaRangeScanDriver {
  using Tag = typename Policy::work_tag;
  using I = typename Policy::member_type;
  using W = typename CudaRangeBounds<Policy>::W;
  using Reducer = typename CombinedFunctorReducer::reducer_type;
  using value_type = typename Reducer::value_type;

  CombinedFunctorReducer functor_reducer;
  W begin, end, chunk;
  unsigned char* partials;
  value_type* total;
  bool final_pass;

  static constexpr std::size_t slot_bytes = (sizeof(value_type) + 15) / 16 * 16;
  __device__ value_type& partial(unsigned b) const {
    return *reinterpret_cast<value_type*>(partials + slot_bytes * b);
  }

  __device__ void operator()() const {
    const Reducer& reducer = functor_reducer.get_reducer();
    const auto& functor = functor_reducer.get_functor();
    const auto join = [&](value_type& dst, const value_type& src) { reducer.join(&dst, &src); };
    const W first = begin + chunk * blockIdx.x;
    const W last = first + chunk < end ? first + chunk : end;
    if (!final_pass) {
      value_type acc;
      reducer.init(&acc);
      for (W i = first + threadIdx.x; i < last; i += blockDim.x) invoke_functor<Tag>(functor, static_cast<I>(i), acc, false);
      cuda_block_reduce(acc, join);
      if (threadIdx.x == 0) new (&partial(blockIdx.x)) value_type(acc);
      return;
    }
    value_type prefix;
    reducer.init(&prefix);
    for (unsigned b = threadIdx.x; b < blockIdx.x; b += blockDim.x) join(prefix, partial(b));
    cuda_block_reduce(prefix, join);
    value_type identity;
    reducer.init(&identity);
    for (W row = first; row < last; row += blockDim.x) {
      const W i = row + threadIdx.x;
      value_type contribution;
      reducer.init(&contribution);
      if (i < last) invoke_functor<Tag>(functor, static_cast<I>(i), contribution, false);
      value_type row_total;
      value_type update = cuda_block_exclusive_scan(contribution, identity, join, row_total);
      value_type mine = prefix;
      join(mine, update);
      if (i < last) invoke_functor<Tag>(functor, static_cast<I>(i), mine, true);
      join(prefix, row_total);
    }
    if (total != nullptr && threadIdx.x == 0 && blockIdx.x + 1 == gridDim.x) *total = prefix;
  }
};

template <class CombinedFunctorReducerType, class Policy>
void cuda_range_scan(const CombinedFunctorReducerType& functor_reducer, const Policy& policy,
                     typename CombinedFunctorReducerType::reducer_type::value_type* total) {
  using Driver = CudaRangeScanDriver<CombinedFunctorReducerType, Policy>;
  using Bounds = typename Policy::launch_bounds;
  using value_type = typename CombinedFunctorReducerType::reducer_type::value_type;
  using W = typename CudaRangeBounds<Policy>::W;
  const CudaRangeBounds<Policy> range(policy);
  CudaInternal* internal = policy.space().impl_internal_space_instance();
  const int device = internal->m_cudaDev;
  const auto shape = CudaKernel<Driver, Bounds>::occupancy_shape(cuda_scan_name, device, 0, 0);
  const int block = shape.block;
  const long long n = range.size();
  unsigned grid = cuda_one_wave(device, n, block, shape.blocks_per_sm);
  // Chunks are whole rows, so that only the last block has a partial row.
  const long long rows = (n + block - 1) / block;
  const long long chunk_rows = (rows + grid - 1) / grid > 0 ? (rows + grid - 1) / grid : 1;
  const long long chunk = chunk_rows * block;
  grid = static_cast<unsigned>(n == 0 ? 1 : (n + chunk - 1) / chunk);

  std::lock_guard<std::mutex> lock(internal->m_mutexScratchSpace);
  unsigned char* partials =
      reinterpret_cast<unsigned char*>(internal->scratch_space(grid * cuda_reduce_slot_bytes(sizeof(value_type))));
  value_type* staging = total != nullptr ? reinterpret_cast<value_type*>(internal->scratch_unified(sizeof(value_type)))
                                         : nullptr;
  for (const bool final_pass : {false, true}) {
    if (!final_pass && grid == 1) continue;  // one block needs no partials
    const Driver driver = cuda_make_driver([&] {
      return Driver{functor_reducer, range.begin, range.end, static_cast<W>(chunk), partials, staging, final_pass};
    });
    cuda_parallel_launch<Bounds>(cuda_scan_name, driver, dim3(grid), dim3(block), 0, device, internal->m_stream);
  }
  if (total != nullptr) {
    internal->fence("Kokkos::parallel_scan on Cuda: fence before reading the total on the host");
    *total = *staging;
  }
}

template <class CombinedFunctorReducerType, class... P>
class ParallelScan<CombinedFunctorReducerType, RangePolicy<P...>, Kokkos::Cuda> {
  using Policy = RangePolicy<P...>;
  const CombinedFunctorReducerType& m_functor_reducer;
  const Policy& m_policy;

 public:
  ParallelScan(const CombinedFunctorReducerType& functor_reducer, const Policy& policy)
      : m_functor_reducer(functor_reducer), m_policy(policy) {}
  void execute() const {
    if (CudaRangeBounds<Policy>(m_policy).size() == 0) return;
    cuda_range_scan(m_functor_reducer, m_policy, nullptr);
  }
};

template <class CombinedFunctorReducerType, class... P>
class ParallelScanWithTotal<CombinedFunctorReducerType, RangePolicy<P...>, Kokkos::Cuda> {
  using Policy = RangePolicy<P...>;
  using value_type = typename CombinedFunctorReducerType::reducer_type::value_type;
  const CombinedFunctorReducerType& m_functor_reducer;
  const Policy& m_policy;
  value_type* m_total;

 public:
  ParallelScanWithTotal(const CombinedFunctorReducerType& functor_reducer, const Policy& policy, value_type* total)
      : m_functor_reducer(functor_reducer), m_policy(policy), m_total(total) {}
  void execute() const {
    if (CudaRangeBounds<Policy>(m_policy).size() == 0) {
      value_type v;
      m_functor_reducer.get_reducer().init(&v);
      *m_total = v;
      return;
    }
    cuda_range_scan(m_functor_reducer, m_policy, m_total);
  }
};

}  // namespace Kokkos::Impl

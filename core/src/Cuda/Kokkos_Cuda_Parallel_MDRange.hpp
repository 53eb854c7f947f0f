#pragma once
// parallel_for / parallel_reduce over an MDRangePolicy (rank 2 to 6) on Kokkos::Cuda.
//
// A tile is a block: its threads are the tile's points, numbered with the policy's inner
// direction's fastest dimension fastest (consecutive threads take consecutive indices of the
// fastest dimension, so accesses coalesce); blocks walk the tiles in the outer direction's order.
// The tile's point count must not exceed the threads per block the kernel supports (1024 at
// most); a larger tile is an error naming the launch.  The policy defaults for Cuda (directions,
// tiles) are in Kokkos_Cuda_MDRangeDefaults.hpp.
#include <Kokkos_MDRangePolicy.hpp>
#include <Cuda/Kokkos_Cuda_MDRangeDefaults.hpp>
#include <Cuda/Kokkos_Cuda_KernelLaunch.hpp>
#include <Cuda/Kokkos_Cuda_Parallel_Range.hpp>
#include <Cuda/Kokkos_Cuda_ReduceScan.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>

#include <string>
#include <utility>

namespace Kokkos::Impl {

template <class Policy>
struct CudaMDTiles {
  static constexpr int rank = Policy::rank;
  using I = typename Policy::index_type;
  using Tag = typename Policy::work_tag;
  static constexpr bool right_outer = Policy::outer_direction == Iterate::Right;
  static constexpr bool right_inner = Policy::inner_direction == Iterate::Right;

  long long lower[rank], upper[rank], tile[rank], tile_end[rank];
  long long num_tiles;

  explicit CudaMDTiles(const Policy& p) : num_tiles(static_cast<long long>(p.m_num_tiles)) {
    for (int d = 0; d < rank; ++d) {
      lower[d] = p.m_lower[d];
      upper[d] = p.m_upper[d];
      tile[d] = p.m_tile[d];
      tile_end[d] = p.m_tile_end[d];
    }
  }

  // The point of tile `t` that thread `thread` takes; false when it lies outside the box.
  __device__ bool point(long long t, long long thread, I (&idx)[rank]) const {
    for (int k = 0; k < rank; ++k) {
      const int d = right_outer ? rank - 1 - k : k;
      idx[d] = static_cast<I>(lower[d] + (t % tile_end[d]) * tile[d]);
      t /= tile_end[d];
    }
    for (int k = 0; k < rank; ++k) {
      const int d = right_inner ? rank - 1 - k : k;
      const long long i = idx[d] + thread % tile[d];
      thread /= tile[d];
      if (i >= upper[d]) return false;
      idx[d] = static_cast<I>(i);
    }
    return true;
  }

  template <class F, class... Extra>
  __device__ void call(const F& f, const I (&idx)[rank], Extra&&... extra) const {
    call(std::make_integer_sequence<int, rank>{}, f, idx, static_cast<Extra&&>(extra)...);
  }

 private:
  template <int... D, class F, class... Extra>
  __device__ void call(std::integer_sequence<int, D...>, const F& f, const I (&idx)[rank], Extra&&... extra) const {
    invoke_functor<Tag>(f, idx[D]..., static_cast<Extra&&>(extra)...);
  }
};

template <class Functor, class Policy>
struct CudaMDRangeForDriver {
  Functor functor;
  CudaMDTiles<Policy> tiles;

  __device__ void operator()() const {
    typename Policy::index_type idx[Policy::rank];
    for (long long t = blockIdx.x; t < tiles.num_tiles; t += gridDim.x) {
      if (tiles.point(t, threadIdx.x, idx)) tiles.call(functor, idx);
    }
  }
};

template <class CombinedFunctorReducer, class Policy>
struct CudaMDRangeReduceDriver {
  using Reducer = typename CombinedFunctorReducer::reducer_type;
  using Reduction = CudaReduction<Reducer>;
  using value_type = typename Reducer::value_type;
  using pointer_type = typename Reducer::pointer_type;

  CombinedFunctorReducer functor_reducer;
  CudaMDTiles<Policy> tiles;
  unsigned char* partials;
  unsigned int* flag;
  pointer_type result;

  __device__ void operator()() const {
    const Reducer& reducer = functor_reducer.get_reducer();
    value_type local;
    const pointer_type acc = Reduction::accumulator(reducer, &local);
    reducer.init(acc);
    typename Policy::index_type idx[Policy::rank];
    for (long long t = blockIdx.x; t < tiles.num_tiles; t += gridDim.x) {
      if (tiles.point(t, threadIdx.x, idx)) tiles.call(functor_reducer.get_functor(), idx, reducer.reference(acc));
    }
    Reduction::finish(reducer, acc, partials, flag, result);
  }
};

// The tile's point count as the block size, checked against what the kernel supports.
template <class Driver, class Policy>
int cuda_mdrange_block(const char* pattern, const Policy& policy, std::size_t shmem_per_thread, int device) {
  const cudaFuncAttributes& attr = CudaKernel<Driver, typename Policy::launch_bounds>::attributes(pattern);
  const long long threads = static_cast<long long>(policy.m_prod_tile_dims);
  std::string tile;
  for (int d = 0; d < Policy::rank; ++d) tile += (d ? " x " : "") + std::to_string(policy.m_tile[d]);
  if (threads > attr.maxThreadsPerBlock) {
    cuda_launch_error(pattern, "MDRangePolicy tile " + tile + " has " + std::to_string(threads) +
                                   " points, more than the " + std::to_string(attr.maxThreadsPerBlock) +
                                   " threads per block this kernel supports");
  }
  const std::size_t shmem = shmem_per_thread * static_cast<std::size_t>(threads) + attr.sharedSizeBytes;
  if (shmem > cuda_launch_limits(device).shmem_per_block_optin) {
    cuda_launch_error(pattern, "MDRangePolicy tile " + tile + " needs " + std::to_string(shmem) +
                                   " bytes of shared memory for its reduction values, more than the device's " +
                                   std::to_string(cuda_launch_limits(device).shmem_per_block_optin));
  }
  return static_cast<int>(threads);
}

template <class Functor, class... P>
class ParallelFor<Functor, MDRangePolicy<P...>, Kokkos::Cuda> {
  using Policy = MDRangePolicy<P...>;
  using Driver = CudaMDRangeForDriver<Functor, Policy>;
  using Bounds = typename Policy::launch_bounds;

  const Functor& m_functor;
  const Policy& m_policy;

 public:
  ParallelFor(const Functor& functor, const Policy& policy) : m_functor(functor), m_policy(policy) {}

  void execute() const {
    CudaInternal* internal = m_policy.space().impl_internal_space_instance();
    const int device = internal->m_cudaDev;
    const int block = cuda_mdrange_block<Driver>(cuda_for_name, m_policy, 0, device);
    const long long tiles = static_cast<long long>(m_policy.m_num_tiles);
    if (tiles == 0) return;
    const int max_grid = cuda_launch_limits(device).max_grid_x;
    const unsigned grid = static_cast<unsigned>(tiles < max_grid ? tiles : max_grid);
    const Driver driver = cuda_make_driver([&] { return Driver{m_functor, CudaMDTiles<Policy>(m_policy)}; });
    cuda_parallel_launch<Bounds>(cuda_for_name, driver, dim3(grid), dim3(block), 0, device, internal->m_stream);
  }
};

template <class CombinedFunctorReducerType, class... P>
class ParallelReduce<CombinedFunctorReducerType, MDRangePolicy<P...>, Kokkos::Cuda> {
  using Policy = MDRangePolicy<P...>;
  using Reducer = typename CombinedFunctorReducerType::reducer_type;
  using pointer_type = typename Reducer::pointer_type;
  using Driver = CudaMDRangeReduceDriver<CombinedFunctorReducerType, Policy>;
  using Bounds = typename Policy::launch_bounds;

  const CombinedFunctorReducerType& m_functor_reducer;
  const Policy& m_policy;
  pointer_type m_result;

 public:
  ParallelReduce(const CombinedFunctorReducerType& functor_reducer, const Policy& policy, pointer_type result)
      : m_functor_reducer(functor_reducer), m_policy(policy), m_result(result) {}

  void execute() const {
    CudaInternal* internal = m_policy.space().impl_internal_space_instance();
    const int device = internal->m_cudaDev;
    const Reducer& reducer = m_functor_reducer.get_reducer();
    const std::size_t per_thread = CudaReduction<Reducer>::shmem_per_thread(reducer);
    const int block = cuda_mdrange_block<Driver>(cuda_reduce_name, m_policy, per_thread, device);
    const long long tiles = static_cast<long long>(m_policy.m_num_tiles);
    const unsigned grid = cuda_one_wave(device, tiles * block, block);
    CudaReduceResult<Reducer> out(internal, reducer, m_result);
    unsigned char* partials = grid > 1 ? out.partials(grid, reducer.value_size()) : nullptr;
    unsigned int* flag = grid > 1 ? out.flag() : nullptr;
    const Driver driver = cuda_make_driver([&] {
      return Driver{m_functor_reducer, CudaMDTiles<Policy>(m_policy), partials, flag, out.device_pointer()};
    });
    cuda_parallel_launch<Bounds>(cuda_reduce_name, driver, dim3(grid), dim3(block), per_thread * std::size_t(block),
                                 device, internal->m_stream);
    out.finish("Kokkos::parallel_reduce on Cuda: fence before reading the result on the host");
  }
};

}  // namespace Kokkos::Impl

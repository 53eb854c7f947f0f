#pragma once
// parallel_for / parallel_reduce over a TeamPolicy on Kokkos::Cuda, and the Cuda team limits.
//
// League ranks map to blocks of (vector_length, team_size) threads; with more league ranks than
// the grid holds (or when level-1 scratch limits the teams in flight) a block runs several
// league ranks in turn, separated by a barrier.  Dynamic shared memory holds, in order: the
// per-thread values of an array reduction, then the level-0 team scratch (the policy's request
// plus the functor's team_shmem_size).  Level-1 scratch is one slice of
// CudaInternal::resize_team_scratch_space per block in flight.
//
// Checked on the host before the launch, each error naming the launch's label:
// vector_length a power of two <= 32, team_size * vector_length within the threads per block
// the kernel supports, and the shared memory within the device's per-block limit.
#include <Kokkos_TeamPolicy.hpp>
#include <Cuda/Kokkos_Cuda_KernelLaunch.hpp>
#include <Cuda/Kokkos_Cuda_Parallel_Range.hpp>
#include <Cuda/Kokkos_Cuda_ReduceScan.hpp>
#include <Cuda/Kokkos_Cuda_Team.hpp>
#include <impl/Kokkos_FunctorAnalysis.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>

#include <cstddef>
#include <mutex>
#include <string>
#include <type_traits>

namespace Kokkos::Impl {

// Where a team block finds its scratch.
struct CudaTeamScratch {
  std::size_t l0_offset;  // start of level 0 in dynamic shared memory
  std::size_t l0_bytes;
  char* l1_base;  // this launch's level-1 slices, one per block, or null
  std::size_t l1_bytes;
  std::size_t l1_stride;

  __device__ CudaTeamMember member(int league_rank, int league_size) const {
    char* const shared = cuda_dynamic_shared_memory<char>() + l0_offset;
    char* const l1 = l1_base != nullptr ? l1_base + l1_stride * blockIdx.x : nullptr;
    return CudaTeamMember(shared, l0_bytes, l1, l1_bytes, league_rank, league_size);
  }
};

template <class Functor, class Policy>
struct CudaTeamForDriver {
  using Tag = typename Policy::work_tag;
  Functor functor;
  int league_size;
  CudaTeamScratch scratch;

  __device__ void operator()() const {
    for (int rank = static_cast<int>(blockIdx.x); rank < league_size; rank += static_cast<int>(gridDim.x)) {
      if (rank != static_cast<int>(blockIdx.x)) __syncthreads();  // the scratch is reused
      invoke_functor<Tag>(functor, scratch.member(rank, league_size));
    }
  }
};

template <class CombinedFunctorReducer, class Policy>
struct CudaTeamReduceDriver {
  using Tag = typename Policy::work_tag;
  using Reducer = typename CombinedFunctorReducer::reducer_type;
  using Reduction = CudaReduction<Reducer>;
  using value_type = typename Reducer::value_type;
  using pointer_type = typename Reducer::pointer_type;

  CombinedFunctorReducer functor_reducer;
  int league_size;
  CudaTeamScratch scratch;
  unsigned char* partials;
  unsigned int* flag;
  pointer_type result;

  __device__ void operator()() const {
    const Reducer& reducer = functor_reducer.get_reducer();
    value_type local;
    const pointer_type acc = Reduction::accumulator(reducer, &local);
    reducer.init(acc);
    for (int rank = static_cast<int>(blockIdx.x); rank < league_size; rank += static_cast<int>(gridDim.x)) {
      if (rank != static_cast<int>(blockIdx.x)) __syncthreads();
      invoke_functor<Tag>(functor_reducer.get_functor(), scratch.member(rank, league_size), reducer.reference(acc));
    }
    // Vector lanes repeat their thread's work: lane 0 speaks for the thread, as in Kokkos.
    if (threadIdx.x != 0) reducer.init(acc);
    Reduction::finish(reducer, acc, partials, flag, result);
  }
};

template <>
struct TeamBackend<Kokkos::Cuda, void> {
  using member_type = CudaTeamMember;

  // Bounds checked when a policy is built; the launch checks the kernel's own limits.
  static int team_size_max(const Kokkos::Cuda&) { return 1024; }
  static int team_size_recommended(const Kokkos::Cuda&) { return 128; }
  static int team_size_recommended(const Kokkos::Cuda&, int vector_length) {
    const int t = 128 / (vector_length > 0 ? vector_length : 1);
    return t > 1 ? t : 1;
  }
  static constexpr int vector_length_max() { return 32; }
  KOKKOS_INLINE_FUNCTION static constexpr int effective_vector_length(int requested) { return requested; }
  static std::size_t scratch_size_max(int level) {
    if (level != 0) return std::size_t(1) << 31;
    return cuda_launch_limits(CudaInternal::singleton().m_cudaDev).shmem_per_block_optin;
  }

  // The most threads a team launch of `Driver` may use, over the vector length.
  template <class Driver, class Policy>
  static int kernel_team_size_max(const Policy& policy) {
    const cudaFuncAttributes& attr =
        CudaKernel<Driver, typename Policy::launch_bounds>::attributes("Kokkos::TeamPolicy::team_size_max");
    const int vl = policy.impl_vector_length() > 0 ? policy.impl_vector_length() : 1;
    int threads = 1;
    while (threads * 2 <= attr.maxThreadsPerBlock) threads *= 2;
    return threads / vl > 0 ? threads / vl : 1;
  }

  template <class Policy, class Functor>
  static int team_size_max(const Policy& policy, const Functor&, const ParallelForTag&) {
    return kernel_team_size_max<CudaTeamForDriver<Functor, Policy>>(policy);
  }
  template <class Policy, class Functor>
  static int team_size_max(const Policy& policy, const Functor& functor, const ParallelReduceTag&) {
    using V = typename functor_value_type<Functor, FunctorPatternInterface::REDUCE, typename Policy::work_tag>::type;
    if constexpr (std::is_void_v<V>) {
      return team_size_max(policy, functor, ParallelForTag());
    } else {
      using Combined = CombinedFunctorReducer<Functor, FunctorReducer<Functor, V, typename Policy::work_tag>>;
      return kernel_team_size_max<CudaTeamReduceDriver<Combined, Policy>>(policy);
    }
  }
  template <class Policy, class Functor, class ReducerType>
  static int team_size_max(const Policy& policy, const Functor&, const ReducerType&, const ParallelReduceTag&) {
    using Combined = CombinedFunctorReducer<Functor, ReducerAdapter<ReducerType>>;
    return kernel_team_size_max<CudaTeamReduceDriver<Combined, Policy>>(policy);
  }
  // Half the most the kernel allows, at most 256 threads: several teams share a multiprocessor.
  template <class Policy, class... A>
  static int team_size_recommended(const Policy& policy, const A&... a) {
    const int max = team_size_max(policy, a...);
    const int vl = policy.impl_vector_length() > 0 ? policy.impl_vector_length() : 1;
    const int cap = 256 / vl > 0 ? 256 / vl : 1;
    const int half = max / 2 > 0 ? max / 2 : 1;
    return half < cap ? half : cap;
  }
};

// The launch shape of a team launch; throws (naming the label) what cannot run.
template <class Policy, class Driver>
struct CudaTeamShape {
  int team_size;
  int vector_length;
  unsigned grid;
  std::size_t reduce_bytes;  // per-thread array reduction values at the start of shared memory
  std::size_t l0_bytes;
  std::size_t l1_bytes;

  template <class Functor>
  CudaTeamShape(const char* pattern, const Policy& policy, const Functor& functor, std::size_t reduce_per_thread,
                int device) {
    const CudaLaunchLimits& limits = cuda_launch_limits(device);
    const cudaFuncAttributes& attr = CudaKernel<Driver, typename Policy::launch_bounds>::attributes(pattern);
    vector_length = policy.impl_vector_length();
    if (vector_length < 1 || vector_length > 32 || (vector_length & (vector_length - 1)) != 0) {
      cuda_launch_error(pattern, "vector_length " + std::to_string(vector_length) +
                                     " is not a power of two between 1 and 32 (the warp size)");
    }
    team_size = policy.team_size();
    if (policy.impl_auto_team_size()) {
      const int fit = attr.maxThreadsPerBlock / vector_length;
      const int wanted = 128 / vector_length > 0 ? 128 / vector_length : 1;
      team_size = wanted < fit ? wanted : (fit > 0 ? fit : 1);
    }
    const long long threads = static_cast<long long>(team_size) * vector_length;
    if (threads > attr.maxThreadsPerBlock) {
      cuda_launch_error(pattern, "team_size " + std::to_string(team_size) + " x vector_length " +
                                     std::to_string(vector_length) + " = " + std::to_string(threads) +
                                     " threads per team exceed the " + std::to_string(attr.maxThreadsPerBlock) +
                                     " threads per block this kernel supports (team_size_max is " +
                                     std::to_string(attr.maxThreadsPerBlock / vector_length) + ")");
    }
    reduce_bytes = (reduce_per_thread * static_cast<std::size_t>(threads) + 15) / 16 * 16;
    const std::size_t functor_bytes = functor_team_shmem_size(functor, team_size);
    l0_bytes = policy.scratch_size(0, team_size) + functor_bytes;
    const std::size_t shared = reduce_bytes + l0_bytes + attr.sharedSizeBytes;
    if (shared > limits.shmem_per_block_optin) {
      cuda_launch_error(pattern, "level-0 scratch of " + std::to_string(l0_bytes) + " bytes per team (policy " +
                                     std::to_string(policy.scratch_size(0, team_size)) + ", functor team_shmem_size " +
                                     std::to_string(functor_bytes) + ") plus " +
                                     std::to_string(reduce_bytes + attr.sharedSizeBytes) +
                                     " bytes the launch itself needs exceed the device's " +
                                     std::to_string(limits.shmem_per_block_optin) + " bytes of shared memory per block");
    }
    l1_bytes = policy.scratch_size(1, team_size);
    long long blocks = policy.league_size();
    if (blocks > limits.max_grid_x) blocks = limits.max_grid_x;
    if (l1_bytes > 0) {
      // Level 1 is one slice per block in flight: a resident wave of teams walks the league.
      const long long per_sm = limits.max_threads_per_sm / threads > 0 ? limits.max_threads_per_sm / threads : 1;
      const long long wave = per_sm * limits.sm_count;
      if (blocks > wave) blocks = wave;
    }
    grid = static_cast<unsigned>(blocks < 1 ? 1 : blocks);
  }

  std::size_t l1_stride() const { return (l1_bytes + 255) / 256 * 256; }

  // Must be called with the instance's scratch lock held (the slices stay the launch's until
  // it has been enqueued; later launches on the stream run after it).
  CudaTeamScratch scratch(CudaInternal* internal) const {
    char* l1 = nullptr;
    if (l1_bytes > 0) l1 = static_cast<char*>(internal->resize_team_scratch_space(l1_stride() * grid));
    return CudaTeamScratch{reduce_bytes, l0_bytes, l1, l1_bytes, l1_stride()};
  }
  dim3 block() const { return dim3(static_cast<unsigned>(vector_length), static_cast<unsigned>(team_size), 1); }
  std::size_t shmem() const { return reduce_bytes + l0_bytes; }
};

template <class Functor, class... P>
class ParallelFor<Functor, TeamPolicy<P...>, Kokkos::Cuda> {
  using Policy = TeamPolicy<P...>;
  using Driver = CudaTeamForDriver<Functor, Policy>;
  using Bounds = typename Policy::launch_bounds;

  const Functor& m_functor;
  const Policy& m_policy;

 public:
  ParallelFor(const Functor& functor, const Policy& policy) : m_functor(functor), m_policy(policy) {}

  void execute() const {
    CudaInternal* internal = m_policy.space().impl_internal_space_instance();
    const int device = internal->m_cudaDev;
    const CudaTeamShape<Policy, Driver> shape(cuda_for_name, m_policy, m_functor, 0, device);
    if (m_policy.league_size() == 0) return;
    std::lock_guard<std::mutex> lock(internal->m_mutexScratchSpace);
    const CudaTeamScratch scratch = shape.scratch(internal);
    const Driver driver = cuda_make_driver([&] { return Driver{m_functor, m_policy.league_size(), scratch}; });
    cuda_parallel_launch<Bounds>(cuda_for_name, driver, dim3(shape.grid), shape.block(), shape.shmem(), device,
                                 internal->m_stream);
  }
};

template <class CombinedFunctorReducerType, class... P>
class ParallelReduce<CombinedFunctorReducerType, TeamPolicy<P...>, Kokkos::Cuda> {
  using Policy = TeamPolicy<P...>;
  using Reducer = typename CombinedFunctorReducerType::reducer_type;
  using pointer_type = typename Reducer::pointer_type;
  using Driver = CudaTeamReduceDriver<CombinedFunctorReducerType, Policy>;
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
    const CudaTeamShape<Policy, Driver> shape(cuda_reduce_name, m_policy, m_functor_reducer.get_functor(),
                                              CudaReduction<Reducer>::shmem_per_thread(reducer), device);
    CudaReduceResult<Reducer> out(internal, reducer, m_result);
    const unsigned grid = shape.grid;
    unsigned char* partials = grid > 1 ? out.partials(grid, reducer.value_size()) : nullptr;
    unsigned int* flag = grid > 1 ? out.flag() : nullptr;
    const CudaTeamScratch scratch = shape.scratch(internal);
    const Driver driver = cuda_make_driver([&] {
      return Driver{m_functor_reducer, m_policy.league_size(), scratch, partials, flag, out.device_pointer()};
    });
    cuda_parallel_launch<Bounds>(cuda_reduce_name, driver, dim3(grid), shape.block(), shape.shmem(), device,
                                 internal->m_stream);
    out.finish("Kokkos::parallel_reduce on Cuda: fence before reading the result on the host");
  }
};

}  // namespace Kokkos::Impl

#pragma once
// Warp- and block-level reductions and scans on the device, and the deterministic
// inter-block reduction and scan that the Cuda patterns share.
//
// Every combine happens in a fixed order for a given launch shape (block size, grid size), so a
// reduction gives the same bits every time it runs with the same configuration:
//   warp:   a shfl_down tree over the lanes (values of any type travel in 4-byte words);
//   block:  each warp's result goes to a static shared buffer, warp 0 combines them the same way;
//           array reductions (value_count() > 1, a runtime length) use a tree over per-thread
//           slots in dynamic shared memory instead;
//   grid:   each block writes its value to CudaInternal::scratch_space; the last block to finish
//           (found with an atomicInc on scratch_flags, which leaves the flag zero again) folds the
//           partials thread by thread in block order, reduces the block, calls final() and writes
//           the result.
// Scans run in two kernels: pass 1 reduces each block's chunk into scratch_space; pass 2 starts
// each block from the join of the lower blocks' partials and scans its chunk row by row.
#include <Kokkos_Macros.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

namespace Kokkos::Impl {

#if defined(__CUDACC__)

inline constexpr int cuda_warp_size = 32;

// ---- values in 4-byte words -------------------------------------------------------------------
template <class T>
struct CudaWords {
  static constexpr int count = static_cast<int>((sizeof(T) + sizeof(int) - 1) / sizeof(int));
  union Storage {
    T value;
    int words[count];
    KOKKOS_INLINE_FUNCTION Storage() {}
    KOKKOS_INLINE_FUNCTION ~Storage() {}
  };
};

// Raw storage for a T in static shared memory (no constructor runs there).
template <class T, int N>
struct CudaSharedSlots {
  alignas(alignof(T) > alignof(int) ? alignof(T) : alignof(int)) unsigned char bytes[sizeof(T) * N];
  __device__ T& operator[](int i) { return reinterpret_cast<T*>(bytes)[i]; }
};

#define KOKKOS_IMPL_CUDA_SHUFFLE(NAME, INTRINSIC)                                          \
  template <class T>                                                                     \
  __device__ inline T NAME(const T& value, int arg, int width = cuda_warp_size,           \
                           unsigned mask = 0xffffffffu) {                                 \
    typename CudaWords<T>::Storage in, out;                                              \
    new (&in.value) T(value);                                                            \
    for (int w = 0; w < CudaWords<T>::count; ++w) out.words[w] = INTRINSIC(mask, in.words[w], arg, width); \
    T result(out.value);                                                                 \
    return result;                                                                       \
  }
KOKKOS_IMPL_CUDA_SHUFFLE(cuda_shfl, __shfl_sync)
KOKKOS_IMPL_CUDA_SHUFFLE(cuda_shfl_down, __shfl_down_sync)
KOKKOS_IMPL_CUDA_SHUFFLE(cuda_shfl_up, __shfl_up_sync)
#undef KOKKOS_IMPL_CUDA_SHUFFLE

__device__ inline int cuda_block_threads() { return static_cast<int>(blockDim.x * blockDim.y * blockDim.z); }
__device__ inline int cuda_thread_id() {
  return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}

// Lanes of this thread's warp that belong to the block (the last warp may be partial).
__device__ inline int cuda_warp_active_lanes() {
  const int first = cuda_thread_id() & ~(cuda_warp_size - 1);
  const int left = cuda_block_threads() - first;
  return left < cuda_warp_size ? left : cuda_warp_size;
}
__device__ inline unsigned cuda_warp_mask(int lanes) {
  return lanes >= cuda_warp_size ? 0xffffffffu : ((1u << lanes) - 1u);
}

// ---- reductions of a value held in a register ---------------------------------------------------

// Joins the values of the valid lanes [0, lanes) within groups of `width` lanes (a power of two
// <= 32), column by column (lanes whose index differs by a multiple of `stride` form a column);
// the first row of each group ends with its column totals.  `mask`: the lanes that call.
template <class T, class Join>
__device__ inline void cuda_warp_reduce(T& value, const Join& join, int width, int stride, int lanes,
                                        unsigned mask) {
  const int lane = cuda_thread_id() & (cuda_warp_size - 1);
  const int in_group = lane & (width - 1);
  for (int offset = width / 2; offset >= stride; offset /= 2) {
    const T other = cuda_shfl_down(value, offset, width, mask);
    if (in_group + offset < width && lane + offset < lanes) join(value, other);
  }
}

// Joins `value` over every thread of the block in thread-id order (a fixed tree); every thread
// returns with the block's total.  All threads of the block must call it.
template <class T, class Join>
__device__ inline void cuda_block_reduce(T& value, const Join& join) {
  __shared__ CudaSharedSlots<T, cuda_warp_size> warp_values;
  const int tid = cuda_thread_id();
  const int threads = cuda_block_threads();
  const int lanes = cuda_warp_active_lanes();
  cuda_warp_reduce(value, join, cuda_warp_size, 1, lanes, cuda_warp_mask(lanes));
  const int warps = (threads + cuda_warp_size - 1) / cuda_warp_size;
  if (warps > 1) {
    if ((tid & (cuda_warp_size - 1)) == 0) new (&warp_values[tid / cuda_warp_size]) T(value);
    __syncthreads();
    if (tid < cuda_warp_size) {
      if (tid < warps) value = warp_values[tid];
      // Warp 0 is whole here (the block has more than one warp); lanes >= warps join nothing.
      cuda_warp_reduce(value, join, cuda_warp_size, 1, warps, 0xffffffffu);
      if (tid == 0) warp_values[0] = value;
    }
    __syncthreads();
  } else {
    if (tid == 0) new (&warp_values[0]) T(value);
    __syncthreads();
  }
  value = warp_values[0];
  __syncthreads();  // the buffer may be reused by the next call
}

// Inclusive scan of `value` over the valid lanes [0, lanes) of the warp in lane order
// (inclusive(l) = join(inclusive(l - offset), inclusive(l))).  `mask`: the lanes that call.
template <class T, class Join>
__device__ inline T cuda_warp_inclusive_scan(const T& value, const Join& join, int lanes, unsigned mask) {
  const int lane = cuda_thread_id() & (cuda_warp_size - 1);
  T inclusive = value;
  for (int offset = 1; offset < cuda_warp_size; offset *= 2) {
    const T lower = cuda_shfl_up(inclusive, offset, cuda_warp_size, mask);
    if (lane >= offset && lane < lanes) {
      T joined = lower;
      join(joined, inclusive);
      inclusive = joined;
    }
  }
  return inclusive;
}

// Exclusive scan of `value` over the 32 lanes of a whole warp in lane order, with no other warp
// (a team that is one warp of a larger block); `total` receives the join of every lane's value.
template <class T, class Join>
__device__ inline T cuda_warp_exclusive_scan(const T& value, const T& identity, const Join& join, T& total) {
  const T inclusive = cuda_warp_inclusive_scan(value, join, cuda_warp_size, 0xffffffffu);
  total = cuda_shfl(inclusive, cuda_warp_size - 1);
  T exclusive = cuda_shfl_up(inclusive, 1);
  if ((cuda_thread_id() & (cuda_warp_size - 1)) == 0) exclusive = identity;
  return exclusive;
}

// Exclusive scan of `value` over the block's threads in thread-id order; `total` receives the
// join of every thread's value.  `identity` is the value of an empty prefix.
template <class T, class Join>
__device__ inline T cuda_block_exclusive_scan(const T& value, const T& identity, const Join& join, T& total) {
  __shared__ CudaSharedSlots<T, cuda_warp_size> warp_totals;
  const int tid = cuda_thread_id();
  const int lane = tid & (cuda_warp_size - 1);
  const int warp = tid / cuda_warp_size;
  const int threads = cuda_block_threads();
  const int lanes = cuda_warp_active_lanes();
  const unsigned mask = cuda_warp_mask(lanes);
  const T inclusive = cuda_warp_inclusive_scan(value, join, lanes, mask);
  T exclusive = cuda_shfl_up(inclusive, 1, cuda_warp_size, mask);
  if (lane == 0) exclusive = identity;
  if (lane == lanes - 1) new (&warp_totals[warp]) T(inclusive);
  __syncthreads();
  const int warps = (threads + cuda_warp_size - 1) / cuda_warp_size;
  T base = identity;
  for (int w = 0; w < warp; ++w) join(base, warp_totals[w]);
  total = base;
  for (int w = warp; w < warps; ++w) join(total, warp_totals[w]);
  __syncthreads();
  join(base, exclusive);
  return base;
}

// ---- the dynamic shared memory of a kernel ------------------------------------------------------
template <class T>
__device__ inline T* cuda_dynamic_shared_memory() {
  extern __shared__ __align__(16) unsigned char kokkos_impl_cuda_dynamic_shared[];
  return reinterpret_cast<T*>(kokkos_impl_cuda_dynamic_shared);
}

// ---- block reduction through a Reducer (FunctorReducer / ReducerAdapter protocol) ---------------
//
// Scalar reductions keep each thread's value in a register; array reductions keep it in the
// thread's slot of dynamic shared memory (block_threads * value_size bytes, see
// CudaReduceShape::shmem_per_thread).
template <class Reducer>
struct CudaReduction {
  using value_type = typename Reducer::value_type;
  using pointer_type = typename Reducer::pointer_type;
  static constexpr bool is_array = !std::is_reference_v<typename Reducer::reference_type>;
  // Bytes of dynamic shared memory per thread the block reduction needs.
  static std::size_t shmem_per_thread(const Reducer& reducer) {
    return is_array ? (reducer.value_size() + 15) / 16 * 16 : 0;
  }

  // The thread's accumulator: `local` for scalars, the thread's shared slot for arrays.
  __device__ static pointer_type accumulator(const Reducer& reducer, value_type* local) {
    if constexpr (is_array) {
      const std::size_t stride = (reducer.value_size() + 15) / 16 * 16;
      return reinterpret_cast<pointer_type>(cuda_dynamic_shared_memory<unsigned char>() +
                                            stride * static_cast<std::size_t>(cuda_thread_id()));
    } else {
      (void)reducer;
      return local;
    }
  }

  // Joins every thread's accumulator; thread 0's accumulator ends with the block's total
  // (for scalars every thread's does).
  __device__ static void block_reduce(const Reducer& reducer, pointer_type value) {
    if constexpr (is_array) {
      const int tid = cuda_thread_id();
      const int threads = cuda_block_threads();
      const std::size_t stride = (reducer.value_size() + 15) / 16 * 16;
      unsigned char* const base = cuda_dynamic_shared_memory<unsigned char>();
      int span = 1;
      while (span < threads) span *= 2;
      __syncthreads();
      for (int half = span / 2; half > 0; half /= 2) {
        if (tid < half && tid + half < threads) {
          reducer.join(value, reinterpret_cast<pointer_type>(base + stride * static_cast<std::size_t>(tid + half)));
        }
        __syncthreads();
      }
    } else {
      cuda_block_reduce(*value, [&](value_type& dst, const value_type& src) { reducer.join(&dst, &src); });
    }
  }

  __device__ static void copy(pointer_type dst, const value_type* src, int count) {
    for (int k = 0; k < count; ++k) dst[k] = src[k];
  }

  // Finishes the launch's reduction: block reduction, then (with several blocks) the partial in
  // scratch_space, and in the last block the fixed-order combine, final() and the result.
  // `partials` holds gridDim.x values of value_size bytes rounded up to 16; `flag` is one zeroed
  // counter; `result` is device-writable memory or null.
  __device__ static void finish(const Reducer& reducer, pointer_type value, unsigned char* partials,
                                unsigned int* flag, pointer_type result) {
    block_reduce(reducer, value);
    const int tid = cuda_thread_id();
    const int count = reducer.value_count();
    const unsigned blocks = gridDim.x * gridDim.y * gridDim.z;
    if (blocks > 1) {
      const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
      const std::size_t stride = (reducer.value_size() + 15) / 16 * 16;
      __shared__ int is_last;
      if (tid == 0) {
        copy(reinterpret_cast<pointer_type>(partials + stride * block), value, count);
        __threadfence();  // the partial is visible before the ticket is taken
        // atomicInc wraps to 0 at blocks - 1, so the last block leaves the flag zero.
        is_last = atomicInc(flag, blocks - 1) == blocks - 1;
      }
      __syncthreads();
      if (!is_last) return;
      __threadfence();  // every other block's partial is visible to this block
      reducer.init(value);
      for (unsigned b = static_cast<unsigned>(tid); b < blocks; b += static_cast<unsigned>(cuda_block_threads())) {
        reducer.join(value, reinterpret_cast<const value_type*>(partials + stride * b));
      }
      block_reduce(reducer, value);
    }
    if (tid == 0) {
      reducer.final(value);
      if (result != nullptr) copy(result, value, count);
    }
  }
};

#endif  // __CUDACC__

}  // namespace Kokkos::Impl

#pragma once
// Fusion on Kokkos::Cuda: launches with declared accesses are recorded into the
// calling thread's window (impl/fusion/Kokkos_FusionWindow.hpp) and analysed there as on the host; a
// fused run executes as one kernel.
//
// A fused kernel calls each member's body through a device function pointer.  When the range
// holds eight indices for each thread the device keeps resident, a block takes tiles of
// consecutive indices and runs every member over the whole tile, in program order, thread t
// always at the same eight indices of the tile (point-wise dependences make that legal), so a
// member reads what the members before it wrote from cache, and each call covers eight indices
// of its thread.  A shorter range gives every thread one index and calls each body at that
// index alone: a tile of several indices a thread would leave SMs idle, and a body with a loop
// costs more per call (it saves the registers the calling convention asks it to keep).  A RangePolicy reduction ending
// the run keeps the plain reduction's launch shape, per-thread index order and block/grid
// combines, its loops run at groups of the thread's indices ahead of it, so the bits are those
// of the unfused launches.
//
// Eliminated temporaries (impl/fusion/Kokkos_FusionTemporaries.hpp, seed 003 Definition 4) of a run
// that is one kernel without a reduction live in the block's shared memory, one tile at a time:
// the members that touch them run on a copy of their functor whose Views point there, and the
// device memory the Views were allocated with is never read or written, so CudaSpace frees it
// without first waiting for the GPU (Kokkos_Cuda_UntouchedAllocations.hpp).
//
// No -rdc: a kernel may only call device code of its own translation unit (each has its own
// module).  Everything here that touches device code is instantiated per translation unit
// through CudaFusionUnit, a type in an anonymous namespace: the body's address is read from a
// __device__ variable of that unit's module, and the fused kernel that calls it is that unit's
// kernel.  A run whose members were recorded in different translation units is split into one
// kernel per unit (impl/fusion/Kokkos_FusionWindow.hpp, execute_on_device).
//
// The members' closures (their functors' bytes, Views untracked, less the bytes that differ
// from copy to copy: CudaDeviceClosure) travel in the kernel's parameter, read in place
// (__grid_constant__), up to fusion_device_closure_capacity bytes and fusion_device_max_bodies
// members per kernel; a longer run is split.
#include <Cuda/Kokkos_Cuda_Closure.hpp>
#include <Cuda/Kokkos_Cuda_Error.hpp>
#include <Cuda/Kokkos_Cuda_Parallel_Range.hpp>
#include <Cuda/Kokkos_Cuda_UntouchedAllocations.hpp>
#include <impl/fusion/Kokkos_FusionCheck.hpp>
#include <impl/fusion/Kokkos_FusionDevicePlugin.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/fusion/Kokkos_FusionReport.hpp>
#include <impl/fusion/Kokkos_FusionWindow.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace Kokkos::Impl {

namespace {
// This translation unit's identity (one distinct type, and one address, per unit).
struct CudaFusionUnit {};
inline constexpr char cuda_fusion_unit_anchor = 0;
}  // namespace

// A body runs its loop at indices first, first + step, ... below last: one call per loop and
// tile, not per index, so the functor is inlined into its own loop and its members are loaded
// once.  `touched` (bit t: rebase->temporaries[t]), set for a loop whose functor holds Views of
// eliminated temporaries, moves those onto the block's shared memory for the tile starting at
// tile_begin; the others are not looked at (a loop of Black-Scholes touches 2 or 3 of 13).
using CudaFusedBodyFn = void (*)(const void* closure, long long first, long long last, int step,
                                 const FusionRebase* rebase, std::uint32_t touched, long long tile_begin);
// A body at one index, for kernels that give each thread one index: no loop state to keep
// across the call (ptxas: 4 bytes saved and restored per call for an axpy, against 60 for the
// loop).
using CudaFusedIndexFn = void (*)(const void* closure, long long i);
// The same for a loop whose functor holds eliminated temporaries (`touched`, as above): a
// Black-Scholes loop's one-index entry saves 8-40 bytes a call where its loop entry saves
// 92-136 (ptxas -v).
using CudaFusedRebasedIndexFn = void (*)(const void* closure, long long i, const FusionRebase* rebase,
                                         std::uint32_t touched, long long tile_begin);

// A body's entry points in its unit's module, and (on the host) which of a run's eliminated
// temporaries its recorded functor (the launch's blob) holds Views of: bit t for temporaries[t].
struct CudaFusedBodyEntries {
  CudaFusedBodyFn loop = nullptr;
  CudaFusedIndexFn at = nullptr;
  CudaFusedRebasedIndexFn at_rebased = nullptr;
  std::uint32_t (*touched)(const void* blob, const FusionTemporary* temporaries, std::uint32_t count) = nullptr;
};

struct CudaFusedBody {
  CudaFusedBodyFn fn;
  union {
    CudaFusedIndexFn at;                  // touched == 0
    CudaFusedRebasedIndexFn at_rebased;  // touched != 0
  };
  std::uint32_t offset;   // of the closure in CudaFusedBodies::closures
  std::uint32_t touched;  // the run's eliminated temporaries it moves onto shared memory (a mask)
};

// The loops of a fused run, in the kernel's parameter.
struct alignas(16) CudaFusedBodies {
  std::uint32_t count = 0;
  CudaFusedBody body[fusion_device_max_bodies];
  alignas(16) unsigned char closures[fusion_device_closure_capacity];

  __device__ void run(long long first, long long last, int step, const FusionRebase* rebase = nullptr,
                      long long tile_begin = 0) const {
    for (std::uint32_t k = 0; k < count; ++k) {
      body[k].fn(closures + body[k].offset, first, last, step, rebase, body[k].touched, tile_begin);
    }
  }
  // Every loop at index i alone (a loop that touches temporaries through its rebasing entry).
  __device__ void run_at(long long i, const FusionRebase* rebase, long long tile_begin) const {
    for (std::uint32_t k = 0; k < count; ++k) {
      if (body[k].touched != 0) {
        body[k].at_rebased(closures + body[k].offset, i, rebase, body[k].touched, tile_begin);
      } else {
        body[k].at(closures + body[k].offset, i);
      }
    }
  }
};

// The members of a functor whose Views are moved (FusionRebasable): the allocation a View or
// View iterator member points into, null for a member that is neither (it holds no View) and
// `unknown` for one that can be moved but does not say where it points.
template <class Member>
const void* cuda_fusion_member_allocation(const Member& member, const void* unknown) {
  if constexpr (requires { member.impl_allocation_base(); }) {
    return member.impl_allocation_base();
  } else if constexpr (requires { member.view().impl_allocation_base(); }) {
    return member.view().impl_allocation_base();
  } else if constexpr (requires(Member& m) { m.impl_fusion_rebase(nullptr, std::ptrdiff_t{}); }) {
    return unknown;
  } else {
    return nullptr;
  }
}

// Which of temporaries[0, count) `functor` holds Views of (bit t for temporaries[t]); every one
// for a member that does not say where it points.
template <class Functor>
std::uint32_t cuda_fusion_temporaries_touched(const Functor& functor, const FusionTemporary* temporaries,
                                              std::uint32_t count) {
  const std::uint32_t all = count >= 32 ? ~0u : (1u << count) - 1;
  if constexpr (!FusionRebasable<Functor>) {
    return 0;
  } else {
    static constexpr char unknown = 0;
    std::uint32_t touched = 0;
    // impl_fusion_members() ties non-const references; only read through them.
    std::apply(
        [&](const auto&... member) {
          const auto one = [&](const void* allocation) {
            if (allocation == &unknown) touched = all;
            for (std::uint32_t t = 0; allocation != nullptr && t < count && t < 32; ++t) {
              if (temporaries[t].allocation == allocation) touched |= 1u << t;
            }
          };
          (one(cuda_fusion_member_allocation(member, &unknown)), ...);
        },
        const_cast<Functor&>(functor).impl_fusion_members());
    return touched;
  }
}

// Calls body(f) with f the closure's functor, its Views into the temporaries in `touched`
// (bit t: rebase.temporaries[t]) moved onto the block's tile starting at tile_begin.
template <class Functor, class Body>
__device__ void cuda_with_touched_rebased(const void* closure, const FusionRebase& rebase, std::uint32_t touched,
                                          long long tile_begin, const Body& body) {
  if constexpr (FusionRebasable<Functor>) {
    with_rebased_functor_copy(*static_cast<const Functor*>(closure), rebase, tile_begin, body, touched);
  } else {
    body(*static_cast<const Functor*>(closure));  // never touches one (cuda_fusion_temporaries_touched)
  }
}

template <class Functor, class Policy>
__device__ void cuda_fused_for_body(const void* closure, long long first, long long last, int step,
                                    const FusionRebase* rebase, std::uint32_t touched, long long tile_begin) {
  using I = typename Policy::member_type;
  const auto loop = [&](const Functor& f) {
    for (long long i = first; i < last; i += step) invoke_functor<typename Policy::work_tag>(f, static_cast<I>(i));
  };
  if (touched != 0) {
    cuda_with_touched_rebased<Functor>(closure, *rebase, touched, tile_begin, loop);
    return;
  }
  // In place, in the parameter: a copy would cost more loads than the loop saves (measured
  // on an H200: a 20-loop axpy chain ran 2-6x slower with a local copy of each closure).
  loop(*static_cast<const Functor*>(closure));
}
template <class Functor, class Policy>
__device__ void cuda_fused_for_body_at(const void* closure, long long i) {
  invoke_functor<typename Policy::work_tag>(*static_cast<const Functor*>(closure),
                                            static_cast<typename Policy::member_type>(i));
}
template <class Functor, class Policy>
__device__ void cuda_fused_for_body_at_rebased(const void* closure, long long i, const FusionRebase* rebase,
                                               std::uint32_t touched, long long tile_begin) {
  cuda_with_touched_rebased<Functor>(closure, *rebase, touched, tile_begin, [&](const Functor& f) {
    invoke_functor<typename Policy::work_tag>(f, static_cast<typename Policy::member_type>(i));
  });
}
// Writes the body's entry points in Unit's module.  (A __device__ variable templated on the
// functor would do without a launch, but nvcc cannot register one for an extended lambda's type.)
template <class Functor, class Policy, class Unit>
__global__ void cuda_fused_body_address_kernel(CudaFusedBodyEntries* out) {
  out->loop = &cuda_fused_for_body<Functor, Policy>;
  out->at = &cuda_fused_for_body_at<Functor, Policy>;
  out->at_rebased = &cuda_fused_for_body_at_rebased<Functor, Policy>;
}

// A block runs tiles of `tile` consecutive indices, every loop over the whole tile before the
// next loop: thread t takes the tile's indices t, t + block, ..., the same in every loop, so a
// loop reads what the loops before it wrote at its indices from its own writes (L1), and an
// eliminated temporary's tile lives in the block's shared memory, each slot only ever touched
// by one thread (no barrier).  A tile of one index a thread calls the bodies' one-index entries.
inline constexpr int cuda_fused_block = 256;
inline constexpr int cuda_fused_max_indices_per_thread = 8;
// Seed 000's Black-Scholes has 13 (about 24 KiB of shared memory at one index a thread).
inline constexpr std::uint32_t fusion_device_max_temporaries = 16;

// Indices a thread takes per tile for a range of n indices when the device holds
// `resident_threads` of the kernel's threads at once: one until the range gives every resident
// thread cuda_fused_max_indices_per_thread of them, then that many.  Measured on an H200 with
// KOKKOS_FUSION_CUDA_INDICES_PER_THREAD (and the unbounded kernel, three blocks resident): below
// that size (n = 1e5 and 1e6) one index a thread was as fast or faster in every program (the
// axpy chain 1.3x at 1e6); at 1e8 eight were 1.45x faster for Black-Scholes, one 1.15x for the
// axpy chain.  `forced` (1 to the maximum; 0: none) overrides the rule; `other` takes the shape
// the rule does not (a memoized window times both: FusionDeviceWay::fused_other_tile).
inline int cuda_fused_indices_per_thread(long long n, long long resident_threads, int forced = 0, bool other = false) {
  if (forced > 0) return std::min(forced, cuda_fused_max_indices_per_thread);
  if (resident_threads < 1) resident_threads = 1;
  const bool many = n / resident_threads >= cuda_fused_max_indices_per_thread;
  return many != other ? cuda_fused_max_indices_per_thread : 1;
}

struct CudaFusedForArgs {
  long long begin, end;
  long long tile;
  std::uint32_t num_temporaries;
  FusionTemporary temporaries[fusion_device_max_temporaries];  // buffer_offset: in shared memory
  CudaFusedBodies bodies;
};
static_assert(sizeof(CudaFusedForArgs) <= cuda_max_kernel_parameter_bytes,
              "a fused kernel's loops must fit the kernel parameter space");

// Registers.  ptxas gives a kernel that calls functions through pointers the registers of the
// hungriest function its module may call (72 in PerfCudaFusion's module, where Black-Scholes'
// bodies live beside the axpy chain's): three blocks of 256 threads a multiprocessor, 768 of
// the 2048 threads it could keep to hide the latency of loops that each reload what the loop
// before stored.  Bounded to eight blocks (32 registers) all 2048 fit, for a little more stack
// in the bodies (ptxas -v on PerfCudaFusion.cpp: the kernel's cumulative stack 192 -> 232
// bytes, the largest loop entry's frame 144 -> 200 bytes, the one-index entries unchanged).
// KOKKOS_FUSION_CUDA_BOUNDED_REGISTERS=0 launches the unbounded kernel instead, to compare.
inline constexpr int cuda_fused_min_blocks_per_sm = 8;

template <class Unit, int MinBlocksPerSM>
__global__ __launch_bounds__(cuda_fused_block, MinBlocksPerSM) void cuda_fused_for_kernel(
    const __grid_constant__ CudaFusedForArgs args) {
  extern __shared__ __align__(16) unsigned char cuda_fused_tiles[];
  const FusionRebase rebase{args.temporaries, args.num_temporaries, reinterpret_cast<std::byte*>(cuda_fused_tiles)};
  const long long tile_stride = static_cast<long long>(gridDim.x) * args.tile;
  const bool one_index = args.tile == blockDim.x;
  for (long long base = args.begin + static_cast<long long>(blockIdx.x) * args.tile; base < args.end;
       base += tile_stride) {
    const long long last = args.end - base < args.tile ? args.end : base + args.tile;
    if (one_index) {
      if (base + threadIdx.x < last) args.bodies.run_at(base + threadIdx.x, &rebase, base);
    } else {
      args.bodies.run(base + threadIdx.x, last, static_cast<int>(blockDim.x), &rebase, base);
    }
  }
}

template <class Driver>
struct CudaFusedReduceArgs {
  Driver driver;
  CudaFusedBodies bodies;
};

template <class Driver, class Bounds, class Unit>
__global__ __launch_bounds__(CudaLaunchBounds<Bounds>::max_threads, CudaLaunchBounds<Bounds>::min_blocks) void
cuda_fused_reduce_kernel(const __grid_constant__ CudaFusedReduceArgs<Driver> args) {
  args.driver.run([&](long long first, long long last, long long step) {
    args.bodies.run(first, last, static_cast<int>(step));
  });
}

// A kernel's attributes, queried once per kernel (a unit's kernels are its own instantiations).
template <auto Kernel>
const cudaFuncAttributes& cuda_fused_kernel_attributes() {
  static cudaFuncAttributes attr;
  static std::once_flag once;
  static cudaError_t err = cudaSuccess;
  std::call_once(once, [] { err = cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(Kernel)); });
  cuda_check_launch(cuda_for_name, err, "cudaFuncGetAttributes (fused kernel)");
  return attr;
}

// KOKKOS_FUSION_CUDA_INDICES_PER_THREAD=k (1 to 8) fixes the indices a thread takes per tile,
// for tuning on a given GPU; unset, 0 or not a number: the rule above, and memoized windows time
// the other shape too.  Read once.
inline int cuda_fused_forced_indices_per_thread() {
  static const int forced = std::clamp(fusion_env_int("KOKKOS_FUSION_CUDA_INDICES_PER_THREAD", 0), 0,
                                       cuda_fused_max_indices_per_thread);
  return forced;
}

// Whether fused loops run in the register-bounded kernel by default (see
// cuda_fused_min_blocks_per_sm); memoized windows time the other kernel too unless
// KOKKOS_FUSION_CUDA_BOUNDED_REGISTERS is set.  Read once.
inline bool cuda_fused_bounded_registers() {
  static const bool bounded = fusion_env_int("KOKKOS_FUSION_CUDA_BOUNDED_REGISTERS", 1) != 0;
  return bounded;
}
inline bool cuda_fused_registers_fixed() {
  static const bool fixed = std::getenv("KOKKOS_FUSION_CUDA_BOUNDED_REGISTERS") != nullptr;
  return fixed;
}

// ---- timing a memoized window on the device (FusionDeviceTimer) --------------------------------
// Two events around the window's work on the instance's stream; the time is read once the
// device has passed the second.  Only the executions a choice times pay for them (a few per
// epoch).  A failed event call gives an infinite time: that way is never chosen.
struct CudaFusionTimerMark {
  cudaEvent_t start = nullptr, stop = nullptr;
  bool failed = false;
};

inline void* cuda_fusion_timer_start(const void* instance) {
  // Inside someone's stream capture an event would become a node of their graph, and reading
  // it would invalidate the capture: not timed.
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(static_cast<const CudaInternal*>(instance)->m_stream, &status) != cudaSuccess ||
      status != cudaStreamCaptureStatusNone) {
    (void)cudaGetLastError();
    return nullptr;
  }
  auto* mark = new CudaFusionTimerMark;
  mark->failed = cudaEventCreate(&mark->start) != cudaSuccess || cudaEventCreate(&mark->stop) != cudaSuccess ||
                 cudaEventRecord(mark->start, static_cast<const CudaInternal*>(instance)->m_stream) != cudaSuccess;
  if (mark->failed) (void)cudaGetLastError();
  return mark;
}
inline void cuda_fusion_timer_stop(void* m, const void* instance) {
  auto* mark = static_cast<CudaFusionTimerMark*>(m);
  if (!mark->failed && cudaEventRecord(mark->stop, static_cast<const CudaInternal*>(instance)->m_stream) != cudaSuccess) {
    mark->failed = true;
    (void)cudaGetLastError();
  }
}
inline bool cuda_fusion_timer_elapsed_ns(void* m, bool wait, double* ns) {
  auto* mark = static_cast<CudaFusionTimerMark*>(m);
  *ns = std::numeric_limits<double>::infinity();
  if (mark->failed) return true;
  const cudaError_t done = wait ? cudaEventSynchronize(mark->stop) : cudaEventQuery(mark->stop);
  if (done == cudaErrorNotReady) {
    (void)cudaGetLastError();  // not an error: keep it from failing the thread's next launch check
    return false;
  }
  float ms = 0;
  if (done == cudaSuccess && cudaEventElapsedTime(&ms, mark->start, mark->stop) == cudaSuccess) {
    *ns = 1e6 * static_cast<double>(ms);
  } else {
    (void)cudaGetLastError();
  }
  return true;
}
inline void cuda_fusion_timer_release(void* m) {
  auto* mark = static_cast<CudaFusionTimerMark*>(m);
  // After Kokkos::finalize the events may already be gone with the context: nothing to report.
  if (mark->start != nullptr) (void)cudaEventDestroy(mark->start);
  if (mark->stop != nullptr) (void)cudaEventDestroy(mark->stop);
  (void)cudaGetLastError();
  delete mark;
}
inline constexpr FusionDeviceTimer cuda_fusion_timer{&cuda_fusion_timer_start, &cuda_fusion_timer_stop,
                                                     &cuda_fusion_timer_elapsed_ns, &cuda_fusion_timer_release};

// How many blocks of `block` threads without dynamic shared memory a multiprocessor holds for
// a kernel, queried once per kernel (its block size is fixed by its attributes).
template <auto Kernel>
int cuda_fused_blocks_per_sm(int block) {
  static int blocks = 0;
  static std::once_flag once;
  static cudaError_t err = cudaSuccess;
  std::call_once(once, [block] {
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reinterpret_cast<const void*>(Kernel), block, 0);
  });
  cuda_check_launch(cuda_for_name, err, "cudaOccupancyMaxActiveBlocksPerMultiprocessor (fused kernel)");
  return blocks > 0 ? blocks : 1;
}

template <class Functor, class Policy, class Unit>
struct CudaFusionForBlob;

// The device addresses of a loop's body (a CudaFusedBodyEntries), read from its unit's module
// once.  The read runs on a non-blocking stream of its own, in the relaxed capture mode, so that
// another thread capturing a stream into a CUDA graph meanwhile neither makes it fail nor is
// disturbed by it; a failed read is reported and tried again by the next call.
template <class Functor, class Policy, class Unit>
const void* cuda_fused_body_address() {
  static CudaFusedBodyEntries entries;
  static std::mutex mutex;
  static std::atomic<bool> read{false};
  if (read.load(std::memory_order_acquire)) return &entries;
  const std::lock_guard<std::mutex> lock(mutex);
  if (read.load(std::memory_order_relaxed)) return &entries;
  std::string failed;
  const auto check = [&failed](cudaError_t err, const char* call) {
    if (err != cudaSuccess && failed.empty()) failed = std::string(call) + " failed: " + cudaGetErrorName(err);
  };
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  const bool relaxed = cudaThreadExchangeStreamCaptureMode(&mode) == cudaSuccess;
  check(relaxed ? cudaSuccess : cudaGetLastError(), "cudaThreadExchangeStreamCaptureMode (fused loop body address)");
  cudaStream_t stream = nullptr;
  CudaFusedBodyEntries* slot = nullptr;
  if (failed.empty()) {
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags (fused loop body address)");
  }
  if (failed.empty()) check(cudaMalloc(&slot, sizeof(CudaFusedBodyEntries)), "cudaMalloc (fused loop body address)");
  if (failed.empty()) {
    cuda_fused_body_address_kernel<Functor, Policy, Unit><<<1, 1, 0, stream>>>(slot);
    check(cudaGetLastError(), "kernel launch (fused loop body address)");
  }
  if (failed.empty()) {
    check(cudaMemcpyAsync(&entries, slot, sizeof(entries), cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync (fused loop body address)");
  }
  if (stream != nullptr) {
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (fused loop body address)");
    check(cudaStreamDestroy(stream), "cudaStreamDestroy (fused loop body address)");
  }
  if (slot != nullptr) check(cudaFree(slot), "cudaFree (fused loop body address)");
  if (relaxed) (void)cudaThreadExchangeStreamCaptureMode(&mode);
  if (!failed.empty()) {
    (void)cudaGetLastError();
    cuda_launch_error(cuda_for_name, failed);
  }
  entries.touched = [](const void* blob, const FusionTemporary* temporaries, std::uint32_t count) {
    return cuda_fusion_temporaries_touched(static_cast<const CudaFusionForBlob<Functor, Policy, Unit>*>(blob)->functor,
                                           temporaries, count);
  };
  read.store(true, std::memory_order_release);
  return &entries;
}

// Copies the closures of loops launches[0, count) (all of one unit: execute_on_device splits
// at units) and their bodies' addresses into `bodies`, and which of the eliminated
// temporaries[0, num_temporaries) each loop's functor holds.
inline void cuda_fill_fused_bodies(CudaFusedBodies& bodies, const FusionLaunch* launches, std::uint32_t count,
                                   const FusionTemporary* temporaries = nullptr, std::uint32_t num_temporaries = 0) {
  std::size_t offset = 0;
  bodies.count = count;
  for (std::uint32_t k = 0; k < count; ++k) {
    const FusionDeviceLaunch& d = *launches[k].device;
    offset = (offset + d.closure_align - 1) / d.closure_align * d.closure_align;
    std::memcpy(bodies.closures + offset, d.closure, d.closure_bytes);
    const auto& entries = *static_cast<const CudaFusedBodyEntries*>(d.body_address());
    const std::uint32_t touched = num_temporaries > 0 && launches[k].touches_temporary
                                      ? entries.touched(launches[k].blob, temporaries, num_temporaries)
                                      : 0;
    CudaFusedBody& body = bodies.body[k];
    body.fn = entries.loop;
    if (touched != 0) body.at_rebased = entries.at_rebased;
    else body.at = entries.at;
    body.offset = static_cast<std::uint32_t>(offset);
    body.touched = touched;
    offset += d.closure_bytes;
  }
}

// ---- memoized windows as CUDA graphs (seed 004) -------------------------------------------------
// A window the memo recognises, made only of RangePolicy loops on one instance, is recorded by
// stream capture while it is dispatched as usual; the first time the graph is instantiated, and
// afterwards the instantiated graph is updated in place (cudaGraphExecUpdate: only View
// addresses, scalars and launch shapes changed) and launched with one cudaGraphLaunch.  An update
// the driver refuses (the structure changed) re-instantiates.  A window identical to the one
// recorded (the same closures, ranges and temporaries: FusionWindow::device_signature) launches
// the graph as it is, without recording.  Nothing executes while it records: a failed capture is
// discarded and the window dispatched again without it.

inline cudaStream_t cuda_fusion_stream(const void* instance) {
  return static_cast<const CudaInternal*>(instance)->m_stream;
}

// While this thread records a window into a graph: the temporaries its fused kernels keep in
// shared memory (noted untouched: CudaSpace frees them without synchronising the device).
struct CudaFusionCapture {
  bool recording = false;
  std::vector<const void*> untouched;
};
inline CudaFusionCapture& cuda_fusion_capture() {
  static thread_local CudaFusionCapture capture;
  return capture;
}

// A memoized window's instantiated graph, and the temporaries its fused kernels keep in shared
// memory: a window launched as recorded holds the same ones, noted untouched again.
struct CudaFusionGraph {
  cudaGraphExec_t exec = nullptr;
  std::vector<const void*> untouched;
  CudaFusionGraph() = default;
  CudaFusionGraph(const CudaFusionGraph&) = delete;
  CudaFusionGraph& operator=(const CudaFusionGraph&) = delete;
  ~CudaFusionGraph() {
    if (exec != nullptr) (void)cudaGraphExecDestroy(exec);
  }
};

inline bool cuda_fusion_begin_capture(const void* instance) {
  CudaFusionCapture& capture = cuda_fusion_capture();
  capture.untouched.clear();
  // A stream someone else captures (a user's cudaStreamBeginCapture around Kokkos launches):
  // a capture cannot start inside it; the window is dispatched into theirs.
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(cuda_fusion_stream(instance), &status) != cudaSuccess ||
      status != cudaStreamCaptureStatusNone) {
    (void)cudaGetLastError();
    capture.recording = false;
    return false;
  }
  capture.recording = cudaStreamBeginCapture(cuda_fusion_stream(instance), cudaStreamCaptureModeRelaxed) == cudaSuccess;
  if (capture.recording) return true;
  (void)cudaGetLastError();  // a stream that cannot be captured (the legacy stream): dispatch directly
  return false;
}

inline void cuda_fusion_abort_capture(const void* instance) {
  cuda_fusion_capture().recording = false;
  cudaGraph_t graph = nullptr;
  if (cudaStreamEndCapture(cuda_fusion_stream(instance), &graph) == cudaSuccess && graph != nullptr) {
    (void)cudaGraphDestroy(graph);
  }
  (void)cudaGetLastError();
}

inline void cuda_check_replay(cudaError_t err, const char* call) {
  if (err != cudaSuccess) {
    throw_runtime_exception(std::string("Kokkos fusion on Cuda: replaying a memoized window: ") + call +
                            " failed: " + cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
  }
}

// Ends the capture, updates or instantiates `replay` (an instantiated graph) and launches it;
// returns whether it instantiated.
inline bool cuda_fusion_end_capture_and_launch(const void* instance, std::shared_ptr<void>& replay) {
  const cudaStream_t stream = cuda_fusion_stream(instance);
  CudaFusionCapture& capture = cuda_fusion_capture();
  capture.recording = false;
  cudaGraph_t graph = nullptr;
  cuda_check_replay(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  const std::unique_ptr<CUgraph_st, cudaError_t (*)(cudaGraph_t)> captured(graph, &cudaGraphDestroy);
  if (replay != nullptr) {
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(static_cast<CudaFusionGraph*>(replay.get())->exec, graph, &info) != cudaSuccess) {
      (void)cudaGetLastError();
      replay.reset();
    }
  }
  const bool instantiated = replay == nullptr;
  if (instantiated) {
    auto made = std::make_shared<CudaFusionGraph>();
    cuda_check_replay(cudaGraphInstantiate(&made->exec, graph, 0), "cudaGraphInstantiate");
    replay = std::move(made);
  }
  auto& recorded = *static_cast<CudaFusionGraph*>(replay.get());
  recorded.untouched = std::move(capture.untouched);
  capture.untouched.clear();
  cuda_check_replay(cudaGraphLaunch(recorded.exec, stream), "cudaGraphLaunch");
  return instantiated;
}

// Memoized windows whose graph was launched as recorded (no recording, no update), process-wide;
// the tests read it to see that a repeated window is recognised.
inline std::atomic<std::uint64_t>& cuda_fusion_graph_launches_as_recorded() {
  static std::atomic<std::uint64_t> launches{0};
  return launches;
}

inline void cuda_fusion_launch_graph(const void* instance, const std::shared_ptr<void>& replay) {
  const auto& recorded = *static_cast<const CudaFusionGraph*>(replay.get());
  const cudaStream_t stream = cuda_fusion_stream(instance);
  cuda_check_replay(cudaGraphLaunch(recorded.exec, stream), "cudaGraphLaunch");
  for (const void* allocation : recorded.untouched) cuda_note_untouched_allocation(allocation, stream);
  cuda_fusion_graph_launches_as_recorded().fetch_add(1, std::memory_order_relaxed);
}

inline constexpr FusionDeviceReplay cuda_fusion_replay{&cuda_fusion_begin_capture, &cuda_fusion_end_capture_and_launch,
                                                       &cuda_fusion_abort_capture, &cuda_fusion_launch_graph};

// Lays the temporaries' tiles out in shared memory for tiles of `tile` indices; false when they
// do not fit the block's shared memory.
inline bool cuda_place_temporary_tiles(FusionTemporary* temporaries, std::uint32_t count, long long tile,
                                       std::size_t shmem_limit, std::size_t& bytes) {
  bytes = 0;
  for (std::uint32_t t = 0; t < count; ++t) {
    temporaries[t].buffer_offset = static_cast<std::int64_t>(bytes);
    bytes += (static_cast<std::size_t>(tile * temporaries[t].stride) + 15) / 16 * 16;
  }
  return bytes <= shmem_limit;
}

template <class Functor, class Policy, class Unit>
struct CudaFusionForBlob {
  static constexpr bool rebasable = FusionRebasable<Functor> && !is_mdrange_policy<Policy>::value;
  Functor functor;
  Policy policy;
  FusionDeviceLaunch device{};
  CudaDeviceClosure<Functor> closure;

  static void describe(CudaFusionForBlob& self) {
    self.device.unit = &cuda_fusion_unit_anchor;
    self.device.instance = self.policy.space().impl_internal_space_instance();
    self.closure.assign(self.functor);
    self.device.closure = self.closure.bytes;
    self.device.closure_bytes = sizeof(Functor);
    self.device.closure_align = alignof(Functor);
    self.device.body_address = &cuda_fused_body_address<Functor, Policy, Unit>;
    self.device.run_fused = &run_fused;
    self.device.replay = &cuda_fusion_replay;
    self.device.timer = &cuda_fusion_timer;
    self.device.other_registers_open = !cuda_fused_registers_fixed();
    self.device.other_tile_open = cuda_fused_forced_indices_per_thread() == 0;
  }
  static void execute_alone(const void* self) {
    const auto& s = *static_cast<const CudaFusionForBlob*>(self);
    ParallelFor<Functor, Policy, Kokkos::Cuda>(s.functor, s.policy).execute();
  }
  // launches[0, count) are loops of this unit over the same range on the same instance.
  static bool run_fused(const FusionLaunch* launches, std::uint32_t count, const FusionTemporary* temporaries,
                        std::uint32_t* num_temporaries, FusionDeviceKernelVariant variant) {
    return cuda_fused_bounded_registers() != variant.other_registers
               ? run_fused_in<&cuda_fused_for_kernel<Unit, cuda_fused_min_blocks_per_sm>>(launches, count, temporaries,
                                                                                          num_temporaries, variant)
               : run_fused_in<&cuda_fused_for_kernel<Unit, 1>>(launches, count, temporaries, num_temporaries, variant);
  }
  template <auto kernel>
  static bool run_fused_in(const FusionLaunch* launches, std::uint32_t count, const FusionTemporary* temporaries,
                           std::uint32_t* num_temporaries, FusionDeviceKernelVariant variant) {
    const auto& last = *static_cast<const CudaFusionForBlob*>(launches[count - 1].blob);
    CudaInternal* internal = last.policy.space().impl_internal_space_instance();
    const int device = internal->m_cudaDev;
    const cudaFuncAttributes& attr = cuda_fused_kernel_attributes<kernel>();
    const CudaLaunchLimits& limits = cuda_launch_limits(device);
    // Large: on the heap rather than the host stack.
    const auto args = std::make_unique<CudaFusedForArgs>();
    args->begin = launches[0].begin;
    args->end = launches[0].end;
    int block = cuda_fused_block;
    while (block > attr.maxThreadsPerBlock) block /= 2;
    const long long resident = static_cast<long long>(limits.sm_count) * cuda_fused_blocks_per_sm<kernel>(block) * block;
    args->tile = static_cast<long long>(block) * cuda_fused_indices_per_thread(args->end - args->begin, resident,
                                                                              cuda_fused_forced_indices_per_thread(),
                                                                              variant.other_tile);
    // Eliminated temporaries: the tile shrinks until theirs fit the block's shared memory, or
    // they stay in device memory (materialised: the Views' allocations are real).
    std::size_t shmem = 0;
    std::uint32_t kept = *num_temporaries <= fusion_device_max_temporaries ? *num_temporaries : 0;
    std::copy(temporaries, temporaries + kept, args->temporaries);
    const std::size_t shmem_limit = limits.shmem_per_block - attr.sharedSizeBytes;
    while (kept > 0 && !cuda_place_temporary_tiles(args->temporaries, kept, args->tile, shmem_limit, shmem)) {
      if (args->tile <= 32) kept = 0;
      else args->tile /= 2;
    }
    if (kept == 0) shmem = 0;
    if (args->tile < block) block = static_cast<int>(args->tile);
    args->num_temporaries = kept;
    *num_temporaries = kept;
    cuda_fill_fused_bodies(args->bodies, launches, count, args->temporaries, kept);
    const long long tiles = (args->end - args->begin + args->tile - 1) / args->tile;
    const unsigned grid = static_cast<unsigned>(tiles < limits.max_grid_x ? tiles : limits.max_grid_x);
    kernel<<<grid, block, shmem, internal->m_stream>>>(*args);
    cuda_check_launch(cuda_for_name, cudaGetLastError(), "fused kernel launch");
    // No other kernel touches the temporaries kept here (the window gives them only to a kernel
    // that runs every launch declaring them); from cudaMallocAsync, they are freed on this
    // stream without waiting for the device.
    if (internal->m_memoryPoolsSupported) {
      for (std::uint32_t t = 0; t < kept; ++t) {
        cuda_note_untouched_allocation(args->temporaries[t].allocation, internal->m_stream);
        if (cuda_fusion_capture().recording) cuda_fusion_capture().untouched.push_back(args->temporaries[t].allocation);
      }
    }
    return true;
  }
};

template <class CombinedFunctorReducer, class Policy, class Unit>
struct CudaFusionReduceBlob {
  using Reducer = typename CombinedFunctorReducer::reducer_type;
  using pointer_type = typename Reducer::pointer_type;
  using Driver = CudaRangeReduceDriver<CombinedFunctorReducer, Policy>;
  using Bounds = typename Policy::launch_bounds;
  CombinedFunctorReducer functor_reducer;
  Policy policy;
  pointer_type result;
  FusionDeviceLaunch device{};

  static void describe(CudaFusionReduceBlob& self) {
    self.device.unit = &cuda_fusion_unit_anchor;
    self.device.instance = self.policy.space().impl_internal_space_instance();
    self.device.run_fused = &run_fused;  // its closure travels in the reduction's driver
    self.device.timer = &cuda_fusion_timer;
  }
  static void execute_alone(const void* self) {
    const auto& s = *static_cast<const CudaFusionReduceBlob*>(self);
    ParallelReduce<CombinedFunctorReducer, Policy, Kokkos::Cuda>(s.functor_reducer, s.policy, s.result).execute();
  }
  // launches[0, count - 1) are loops of this unit, launches[count - 1] this reduction.  The
  // kernel takes the plain reduction's shape (block, grid, shared memory), or nothing runs.
  // Eliminated temporaries stay materialised here: a thread's indices are the plain
  // reduction's, a grid apart, with no tile a block could keep on chip.
  static bool run_fused(const FusionLaunch* launches, std::uint32_t count, const FusionTemporary*,
                        std::uint32_t* num_temporaries, FusionDeviceKernelVariant) {
    *num_temporaries = 0;
    using Args = CudaFusedReduceArgs<Driver>;
    if constexpr (sizeof(Args) > cuda_max_kernel_parameter_bytes) {
      return false;
    } else {
      const auto& s = *static_cast<const CudaFusionReduceBlob*>(launches[count - 1].blob);
      const CudaRangeBounds<Policy> range(s.policy);
      CudaInternal* internal = s.policy.space().impl_internal_space_instance();
      const int device = internal->m_cudaDev;
      const Reducer& reducer = s.functor_reducer.get_reducer();
      const CudaReduceLaunchShape shape = cuda_reduce_shape<Driver, Bounds>(device, reducer, [&](int block, int per_sm) {
        return cuda_one_wave(device, range.size(), block, per_sm);
      });
      constexpr auto kernel = &cuda_fused_reduce_kernel<Driver, Bounds, Unit>;
      const cudaFuncAttributes& attr = cuda_fused_kernel_attributes<kernel>();
      const CudaLaunchLimits& limits = cuda_launch_limits(device);
      if (shape.block > attr.maxThreadsPerBlock || shape.shmem + attr.sharedSizeBytes > limits.shmem_per_block) {
        return false;
      }
      cuda_run_reduction(
          internal, reducer, s.result, shape,
          [&](unsigned char* partials, unsigned int* flag, pointer_type out) {
            return cuda_make_driver([&] { return Driver{s.functor_reducer, range.begin, range.end, partials, flag, out}; });
          },
          [&](const Driver& driver, const CudaReduceLaunchShape& sh) {
            // Large: on the heap rather than the host stack; its Views untracked like the driver's.
            const auto args = cuda_make_driver([&] { return std::make_unique<Args>(Args{driver, CudaFusedBodies{}}); });
            cuda_fill_fused_bodies(args->bodies, launches, count - 1);
            kernel<<<sh.grid, sh.block, sh.shmem, internal->m_stream>>>(*args);
            cuda_check_launch(cuda_reduce_name, cudaGetLastError(), "fused kernel launch");
          });
      return true;
    }
  }
};

// A launch on Cuda that declares or captures a View the GPU cannot access stops before it is
// recorded or run, naming the View and the launch (a device fault would name neither).
[[noreturn]] inline void fusion_cuda_inaccessible_view(const char* pattern, const char* how,
                                                       const SharedAllocationRecord* record) {
  const std::string* label = t_fusion_hooks.issuing_label;
  throw_runtime_exception(std::string(pattern) + "('" +
                          (label != nullptr && !label->empty() ? *label : std::string("(unlabeled)")) + "') on Cuda " +
                          how + " View '" + (record != nullptr ? record->get_label() : "(unmanaged)") +
                          "', whose memory space the GPU cannot access (HostSpace): declare and capture Views of "
                          "CudaSpace, CudaUVMSpace or CudaHostPinnedSpace");
}

template <std::size_t N>
void fusion_check_cuda_accessible(const std::array<FusionAccessDecl, N>& decls, const char* pattern) {
  for (const FusionAccessDecl& d : decls) {
    if (d.device_inaccessible) fusion_cuda_inaccessible_view(pattern, "declares", d.record);
  }
}

// The functor's captures (fusion_watch_captures).  Only launches with declared accesses are
// checked; a plain Kokkos launch may capture a HostSpace View it never dereferences (for its
// extent).  A launch a window records is also checked against its declarations
// (fusion_checks_captures).
template <class Functor, std::size_t N>
void fusion_check_cuda_captures(const Functor& functor, const std::array<FusionAccessDecl, N>& decls,
                                const char* pattern) {
  ViewCaptureWatch watch;
  fusion_watch_captures(functor, watch);
  if (watch.seen_host_space) fusion_cuda_inaccessible_view(pattern, "captures", watch.host_space_record);
  if (FusionWindow::this_thread_window().recording() && fusion_checks_captures()) {
    if (SharedAllocationRecord* undeclared = fusion_first_undeclared(watch, decls.data(), N)) {
      fusion_undeclared_capture(pattern, *undeclared);
    }
  }
}

// Launches on Cuda with declared accesses record into the calling thread's window: a RangePolicy
// loop as one body of a fused kernel, any other policy as an opaque launch that ends a run.
template <>
struct FusionDeviceBackend<Kokkos::Cuda> {
  static constexpr bool records = true;

  template <class Functor, class AccessPolicy>
  static void parallel_for(const Functor& functor, const AccessPolicy& access_policy) {
    using Policy = std::decay_t<decltype(access_policy.policy())>;
    const auto& decls = access_policy.impl_decls();
    constexpr std::size_t n = std::tuple_size_v<std::decay_t<decltype(decls)>>;
    fusion_check_cuda_accessible(decls, "Kokkos::parallel_for");
    fusion_check_cuda_captures(functor, decls, "Kokkos::parallel_for");
    FusionWindow& window = FusionWindow::this_thread_window();
    if (!window.recording()) {
      window.complete_messages_before(decls.data(), n);
      fusion_run_reported<Functor>(false, access_policy.policy(), [&] {
        ParallelFor<Functor, Policy, Kokkos::Cuda>(functor, access_policy.policy()).execute();
      });
    } else if constexpr (is_range_policy<Policy>::value) {
      window.record_device<CudaFusionForBlob<Functor, Policy, CudaFusionUnit>, Functor>(
          FusionLaunchKind::range_for, access_policy.policy(), decls.data(), n, functor, access_policy.policy());
    } else {
      window.record_opaque(functor, access_policy.policy(), decls.data(), n);
    }
  }

  template <class CombinedFunctorReducer, class AccessPolicy, class Pointer>
  static bool parallel_reduce(const CombinedFunctorReducer& functor_reducer, const AccessPolicy& access_policy,
                              Pointer result) {
    using Policy = std::decay_t<decltype(access_policy.policy())>;
    const auto& decls = access_policy.impl_decls();
    constexpr std::size_t n = std::tuple_size_v<std::decay_t<decltype(decls)>>;
    fusion_check_cuda_accessible(decls, "Kokkos::parallel_reduce");
    fusion_check_cuda_captures(functor_reducer.get_functor(), decls, "Kokkos::parallel_reduce");
    if constexpr (is_range_policy<Policy>::value) {
      FusionWindow& window = FusionWindow::this_thread_window();
      if (window.recording() && window.size() > 0) {
        window.record_device<CudaFusionReduceBlob<CombinedFunctorReducer, Policy, CudaFusionUnit>,
                             typename CombinedFunctorReducer::functor_type>(
            FusionLaunchKind::range_reduce, access_policy.policy(), decls.data(), n, functor_reducer,
            access_policy.policy(), result);
        window.flush(FusionFlush::reduce_result);
        return true;
      }
    }
    return false;
  }
};

// Verify mode's access to the memory a window on Cuda touches (FusionDeviceMemory): all of
// the device's streams waited for, and copies between any addresses (unified addressing).
inline const bool cuda_fusion_memory_set = [] {
  FusionDeviceMemory& memory = fusion_device_memory();
  memory.synchronize = [] { KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceSynchronize()); };
  memory.copy = [](void* dst, const void* src, std::size_t bytes) {
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
  };
  return true;
}();

}  // namespace Kokkos::Impl

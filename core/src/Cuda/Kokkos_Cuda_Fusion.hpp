#pragma once
// Fusion on Kokkos::Cuda (issue 27): launches with declared accesses are recorded into the
// calling thread's window (impl/Kokkos_FusionWindow.hpp) and analysed there as on the host; a
// fused run executes as one kernel.
//
// A fused kernel calls each member's body through a device function pointer: thread t runs,
// for each of its grid-stride indices i, every member's body at i in program order (point-wise
// dependences make that legal), and a RangePolicy reduction ending the run reduces at i in the
// same kernel, with the launch shape and the block/grid combines of the plain reduction, so the
// bits are those of the unfused launches.
//
// No -rdc: a kernel may only call device code of its own translation unit (each has its own
// module).  Everything here that touches device code is instantiated per translation unit
// through CudaFusionUnit, a type in an anonymous namespace: the body's address is read from a
// __device__ variable of that unit's module, and the fused kernel that calls it is that unit's
// kernel.  A run whose members were recorded in different translation units is split into one
// kernel per unit (impl/Kokkos_FusionWindow.hpp, execute_on_device).
//
// The members' closures (their functors' bytes, Views untracked) travel in the kernel's
// parameter, read in place (__grid_constant__), up to fusion_device_closure_capacity bytes
// and fusion_device_max_bodies members per kernel; a longer run is split.
#include <Cuda/Kokkos_Cuda_Parallel_Range.hpp>
#include <impl/Kokkos_FusionWindow.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

namespace Kokkos::Impl {

namespace {
// This translation unit's identity (one distinct type, and one address, per unit).
struct CudaFusionUnit {};
inline constexpr char cuda_fusion_unit_anchor = 0;
}  // namespace

using CudaFusedBodyFn = void (*)(const void* closure, long long i);

struct CudaFusedBody {
  CudaFusedBodyFn fn;
  std::uint32_t offset;  // of the closure in CudaFusedBodies::closures
};

// The loops of a fused run, in the kernel's parameter.
struct alignas(16) CudaFusedBodies {
  std::uint32_t count = 0;
  CudaFusedBody body[fusion_device_max_bodies];
  alignas(16) unsigned char closures[fusion_device_closure_capacity];

  __device__ void run(long long i) const {
    for (std::uint32_t k = 0; k < count; ++k) body[k].fn(closures + body[k].offset, i);
  }
};

template <class Functor, class Policy>
__device__ void cuda_fused_for_body(const void* closure, long long i) {
  invoke_functor<typename Policy::work_tag>(*static_cast<const Functor*>(closure),
                                            static_cast<typename Policy::member_type>(i));
}
// Writes the body's address in Unit's module.  (A __device__ variable templated on the functor
// would do without a launch, but nvcc cannot register one for an extended lambda's type.)
template <class Functor, class Policy, class Unit>
__global__ void cuda_fused_body_address_kernel(CudaFusedBodyFn* out) {
  *out = &cuda_fused_for_body<Functor, Policy>;
}

struct CudaFusedForArgs {
  long long begin, end;
  CudaFusedBodies bodies;
};
static_assert(sizeof(CudaFusedForArgs) <= cuda_max_kernel_parameter_bytes,
              "a fused kernel's loops must fit the kernel parameter space");

template <class Unit>
__global__ void cuda_fused_for_kernel(const __grid_constant__ CudaFusedForArgs args) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = args.begin + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < args.end;
       i += stride) {
    args.bodies.run(i);
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
  args.driver.run([&](long long i) { args.bodies.run(i); });
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

// The device address of a loop's body, read from its unit's module once.
template <class Functor, class Policy, class Unit>
const void* cuda_fused_body_address() {
  static CudaFusedBodyFn fn = nullptr;
  static std::once_flag once;
  static std::string failed;
  std::call_once(once, [] {
    CudaFusedBodyFn* slot = nullptr;
    const auto check = [](cudaError_t err, const char* call) {
      if (err != cudaSuccess && failed.empty()) failed = std::string(call) + " failed: " + cudaGetErrorName(err);
    };
    check(cudaMalloc(&slot, sizeof(CudaFusedBodyFn)), "cudaMalloc (fused loop body address)");
    if (!failed.empty()) return;
    cuda_fused_body_address_kernel<Functor, Policy, Unit><<<1, 1>>>(slot);
    check(cudaGetLastError(), "kernel launch (fused loop body address)");
    if (failed.empty()) {
      check(cudaMemcpy(&fn, slot, sizeof(fn), cudaMemcpyDeviceToHost), "cudaMemcpy (fused loop body address)");
    }
    check(cudaFree(slot), "cudaFree (fused loop body address)");
  });
  if (!failed.empty()) cuda_launch_error(cuda_for_name, failed);
  return reinterpret_cast<const void*>(fn);
}

// Copies the closures of loops launches[0, count) (all of one unit: execute_on_device splits
// at units) and their bodies' addresses into `bodies`.
inline void cuda_fill_fused_bodies(CudaFusedBodies& bodies, const FusionLaunch* launches, std::uint32_t count) {
  std::size_t offset = 0;
  bodies.count = count;
  for (std::uint32_t k = 0; k < count; ++k) {
    const FusionDeviceLaunch& d = *launches[k].device;
    offset = (offset + d.closure_align - 1) / d.closure_align * d.closure_align;
    std::memcpy(bodies.closures + offset, d.closure, d.closure_bytes);
    bodies.body[k] = CudaFusedBody{reinterpret_cast<CudaFusedBodyFn>(d.body_address()), static_cast<std::uint32_t>(offset)};
    offset += d.closure_bytes;
  }
}

// ---- memoized windows as CUDA graphs (seed 004) -------------------------------------------------
// A window the memo recognises, made only of RangePolicy loops on one instance, is recorded by
// stream capture while it is dispatched as usual; the first time the graph is instantiated, and
// afterwards the instantiated graph is updated in place (cudaGraphExecUpdate: only View
// addresses, scalars and launch shapes changed) and launched with one cudaGraphLaunch.  An update
// the driver refuses (the structure changed) re-instantiates.  Nothing executes while it records:
// a failed capture is discarded and the window dispatched again without it.

inline cudaStream_t cuda_fusion_stream(const void* instance) {
  return static_cast<const CudaInternal*>(instance)->m_stream;
}

inline bool cuda_fusion_begin_capture(const void* instance) {
  if (cudaStreamBeginCapture(cuda_fusion_stream(instance), cudaStreamCaptureModeRelaxed) == cudaSuccess) return true;
  (void)cudaGetLastError();  // a stream that cannot be captured (the legacy stream): dispatch directly
  return false;
}

inline void cuda_fusion_abort_capture(const void* instance) {
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
  cudaGraph_t graph = nullptr;
  cuda_check_replay(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  const std::unique_ptr<CUgraph_st, cudaError_t (*)(cudaGraph_t)> captured(graph, &cudaGraphDestroy);
  if (replay != nullptr) {
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(static_cast<cudaGraphExec_t>(replay.get()), graph, &info) != cudaSuccess) {
      (void)cudaGetLastError();
      replay.reset();
    }
  }
  const bool instantiated = replay == nullptr;
  if (instantiated) {
    cudaGraphExec_t exec = nullptr;
    cuda_check_replay(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
    replay = std::shared_ptr<void>(exec, [](void* e) { (void)cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(e)); });
  }
  cuda_check_replay(cudaGraphLaunch(static_cast<cudaGraphExec_t>(replay.get()), stream), "cudaGraphLaunch");
  return instantiated;
}

inline constexpr FusionDeviceReplay cuda_fusion_replay{&cuda_fusion_begin_capture, &cuda_fusion_end_capture_and_launch,
                                                       &cuda_fusion_abort_capture};

template <class Functor, class Policy, class Unit>
struct CudaFusionForBlob {
  Functor functor;
  Policy policy;
  FusionDeviceLaunch device{};

  static void describe(CudaFusionForBlob& self) {
    self.device.unit = &cuda_fusion_unit_anchor;
    self.device.instance = self.policy.space().impl_internal_space_instance();
    self.device.closure = &self.functor;
    self.device.closure_bytes = sizeof(Functor);
    self.device.closure_align = alignof(Functor);
    self.device.body_address = &cuda_fused_body_address<Functor, Policy, Unit>;
    self.device.run_fused = &run_fused;
    self.device.replay = &cuda_fusion_replay;
  }
  static void execute_alone(const void* self) {
    const auto& s = *static_cast<const CudaFusionForBlob*>(self);
    ParallelFor<Functor, Policy, Kokkos::Cuda>(s.functor, s.policy).execute();
  }
  // launches[0, count) are loops of this unit over the same range on the same instance.
  static bool run_fused(const FusionLaunch* launches, std::uint32_t count) {
    const auto& last = *static_cast<const CudaFusionForBlob*>(launches[count - 1].blob);
    CudaInternal* internal = last.policy.space().impl_internal_space_instance();
    const int device = internal->m_cudaDev;
    constexpr auto kernel = &cuda_fused_for_kernel<Unit>;
    const cudaFuncAttributes& attr = cuda_fused_kernel_attributes<kernel>();
    CudaFusedForArgs args;
    args.begin = launches[0].begin;
    args.end = launches[0].end;
    cuda_fill_fused_bodies(args.bodies, launches, count);
    int block = 256;
    while (block > attr.maxThreadsPerBlock) block /= 2;
    const long long blocks = (args.end - args.begin + block - 1) / block;
    const int max_grid = cuda_launch_limits(device).max_grid_x;
    const unsigned grid = static_cast<unsigned>(blocks < max_grid ? blocks : max_grid);
    kernel<<<grid, block, 0, internal->m_stream>>>(args);
    cuda_check_launch(cuda_for_name, cudaGetLastError(), "fused kernel launch");
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
  }
  static void execute_alone(const void* self) {
    const auto& s = *static_cast<const CudaFusionReduceBlob*>(self);
    ParallelReduce<CombinedFunctorReducer, Policy, Kokkos::Cuda>(s.functor_reducer, s.policy, s.result).execute();
  }
  // launches[0, count - 1) are loops of this unit, launches[count - 1] this reduction.  The
  // kernel takes the plain reduction's shape (block, grid, shared memory), or nothing runs.
  static bool run_fused(const FusionLaunch* launches, std::uint32_t count) {
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

}  // namespace Kokkos::Impl

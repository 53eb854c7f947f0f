#pragma once
// parallel_for and parallel_reduce over a WorkGraphPolicy on Kokkos::Cuda (seed 001 §2.4).
//
// One persistent kernel: a single resident wave of blocks (the occupancy the Cuda reductions
// compute), in which every warp is a worker of the queue of impl/workgraph/Kokkos_WorkGraphQueue.hpp,
// the algorithm the host back ends run:
//   - lane 0 takes a unit (the successor it kept, else one popped from the device queue) and
//     broadcasts it with __shfl_sync;
//   - the warp's lanes run the unit's items strided by 32, all at once: the plan cuts units whose
//     items are independent of each other for this (work_graph_independent_unit_items_v);
//   - each lane fences its writes, the warp meets at __syncwarp, and lane 0 completes the unit:
//     it decrements the successors' waiting counts and keeps one newly ready successor to run
//     next (unless a unit of higher priority is waiting), pushing the others.
// Completions are counted in WorkGraphQueue's counting mode (work_graph_completion_slots_v
// counters), so that an idle warp's poll does not read one slot per warp of the device.
//
// The queue's arrays live in device memory and are reset on the instance's stream before each
// launch (WorkGraphPlan::prepare); the graph's checks ran on the host when the policy was
// constructed.  Launches of one policy share those arrays: a launch on another stream than the
// previous launch of the policy waits for it on the device (CudaWorkGraphPlanOrder).  A launch over a graph constructed with check_graph = false fences the instance
// and reads whether the workers found the graph stalled (a cycle), then aborts naming it; that
// detection needs every warp of the wave resident at once, which a GPU shared with other
// kernels may not give (the launch then waits until it is).  Without that, launches are
// asynchronous, except those the policy's measured choice between schedules times (fenced).
//
// parallel_for has a second way (impl/workgraph/Kokkos_WorkGraphLevels.hpp): one kernel per
// level of the graph, over that level's items, recorded once per (plan, functor type) into a
// CUDA graph by stream capture and replayed while the functor's bytes are unchanged (re-captured
// and updated in place when they change).  Launches time both ways and run the faster
// (WorkGraphLaunch, WorkGraphDeviceWays), where the plan found the levels wide enough.
// parallel_reduce keeps the persistent kernel: its threads accumulate over every item they run
// within one launch and combine once at its end; a kernel per level would need a partial per
// level and thread, combined after the last, another reduction scheme than the ones the range
// reductions share.
//
// A reduction accumulates per thread over every item the thread runs and combines as the range
// reductions do (Kokkos_Cuda_ReduceScan.hpp); which items a thread runs depends on timing, so
// the result is exact for exact joins but not bitwise reproducible for floating point.
#include <Kokkos_WorkGraphPolicy.hpp>
#include <Cuda/Kokkos_Cuda_Closure.hpp>
#include <Cuda/Kokkos_Cuda_Instance.hpp>
#include <Cuda/Kokkos_Cuda_KernelLaunch.hpp>
#include <Cuda/Kokkos_Cuda_Parallel_Range.hpp>
#include <Cuda/Kokkos_Cuda_ReduceScan.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <impl/workgraph/Kokkos_WorkGraphLaunch.hpp>
#include <impl/workgraph/Kokkos_WorkGraphQueue.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace Kokkos::Impl {

// Orders the launches of one plan (one policy and its copies) on the device.  They share the
// plan's run-time state (WorkGraphPlan::state), which each launch resets on its own stream: a
// launch on instance B must not reset it while A's kernel still runs.  Held for the whole of a
// launch's issue: launches of a plan are issued one at a time, and one on another stream than
// the previous launch's waits for that launch's event.  A launch into a stream capture (a
// recording) is left to the recording's order.
class CudaWorkGraphPlanOrder {
  struct Entry {
    std::weak_ptr<const void> plan;
    std::mutex issuing;
    cudaEvent_t done = nullptr;     // recorded after the last launch
    cudaStream_t stream = nullptr;  // the last launch's (valid once `done` is)
    ~Entry() {
      if (done != nullptr) (void)cudaEventDestroy(done);
    }
  };

  static std::shared_ptr<Entry> entry_for(const std::shared_ptr<const void>& plan) {
    static std::mutex mutex;
    static std::unordered_map<const void*, std::shared_ptr<Entry>> entries;
    static std::size_t prune_at = 64;
    const std::lock_guard<std::mutex> lock(mutex);
    if (entries.size() >= prune_at) {
      std::erase_if(entries, [](const auto& e) { return e.second->plan.expired(); });
      prune_at = 2 * entries.size() + 64;
    }
    std::shared_ptr<Entry>& e = entries[plan.get()];
    // An expired entry at this address belonged to a plan that no longer exists.
    const bool same = e && !e->plan.owner_before(plan) && !plan.owner_before(e->plan);
    if (!same) {
      e = std::make_shared<Entry>();
      e->plan = plan;
    }
    return e;
  }

  static bool capturing(cudaStream_t stream) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamIsCapturing(stream, &status));
    return status != cudaStreamCaptureStatusNone;
  }

 public:
  CudaWorkGraphPlanOrder(const std::shared_ptr<const void>& plan, cudaStream_t stream)
      : m_entry(entry_for(plan)), m_lock(m_entry->issuing), m_stream(stream), m_capturing(capturing(stream)) {
    if (!m_capturing && m_entry->done != nullptr && m_entry->stream != stream) {
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamWaitEvent(stream, m_entry->done, 0));
    }
  }
  ~CudaWorkGraphPlanOrder() {
    if (m_capturing) return;
    if (m_entry->done == nullptr && cudaEventCreateWithFlags(&m_entry->done, cudaEventDisableTiming) != cudaSuccess) {
      m_entry->done = nullptr;
    }
    if (m_entry->done != nullptr && cudaEventRecord(m_entry->done, m_stream) == cudaSuccess) {
      m_entry->stream = m_stream;
      return;
    }
    (void)cudaGetLastError();
    // Without the event, the launch has finished before the next one is issued.
    m_entry->stream = nullptr;
    KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaStreamSynchronize(m_stream));
  }
  CudaWorkGraphPlanOrder(const CudaWorkGraphPlanOrder&) = delete;
  CudaWorkGraphPlanOrder& operator=(const CudaWorkGraphPlanOrder&) = delete;

 private:
  std::shared_ptr<Entry> m_entry;
  std::lock_guard<std::mutex> m_lock;
  cudaStream_t m_stream;
  bool m_capturing;
};

// Calls call(i) for this lane's share of items[b .. e) (or of the indices b .. e-1, or, when
// b > e, of b-1 down to e): every stride-th from the lane's offset.
template <class Call>
__device__ inline void cuda_work_graph_lane_items(const std::int32_t* items, std::int32_t b, std::int32_t e,
                                                  std::int32_t lane, std::int32_t stride, const Call& call) {
  if (items != nullptr) {
    for (std::int32_t k = b + lane; k < e; k += stride) call(items[k]);
  } else if (b <= e) {
    for (std::int32_t i = b + lane; i < e; i += stride) call(i);
  } else {
    for (std::int32_t i = b - 1 - lane; i >= e; i -= stride) call(i);
  }
}

// The worker loop of the warp this thread belongs to.  run_lane(items, b, e, lane, stride)
// runs this lane's share of a unit's items (cuda_work_graph_lane_items).  Every thread of the
// launch calls it; blockDim.x is a multiple of 32.
template <class RunLane>
__device__ inline void cuda_work_graph_worker(const WorkGraphWork& work, const RunLane& run_lane) {
  constexpr std::int32_t lanes = cuda_warp_size;
  const std::int32_t lane = static_cast<std::int32_t>(threadIdx.x) & (lanes - 1);
  const int warps_per_block = static_cast<int>(blockDim.x) / lanes;
  const int rank = static_cast<int>(blockIdx.x) * warps_per_block + static_cast<int>(threadIdx.x) / lanes;
  const int size = static_cast<int>(gridDim.x) * warps_per_block;
  if (work.runs_order(size)) {
    // The policy planned no units (one worker): its order is a sequence, run by one thread.
    if (rank == 0 && lane == 0) {
      work.run_order([&](const std::int32_t* items, std::int32_t b, std::int32_t e) { run_lane(items, b, e, 0, 1); });
    }
    return;
  }
  const WorkGraphQueue& queue = work.queue;
  std::int32_t done_here = 0;  // lane 0's
  std::int32_t unit = WorkGraphQueue::empty;
  for (;;) {
    if (lane == 0) unit = queue.template next_unit<true>(rank, size, unit, done_here);
    unit = __shfl_sync(0xffffffffu, unit, 0);
    if (unit == WorkGraphQueue::empty) return;
    // Lane 0 acquired the unit (the predecessors' completions); the warp barrier orders that
    // before every lane's fence, which keeps a lane from reading a predecessor's data from a
    // stale line of its multiprocessor's L1 cache.
    __syncwarp();
    __threadfence();
    const WorkGraphQueue::UnitItems items = queue.items_of(unit);
    run_lane(items.items, items.begin, items.end, lane, lanes);
    // Every lane's writes are visible device-wide before lane 0 releases the successors.
    __threadfence();
    __syncwarp();
    if (lane == 0) unit = queue.template finish_unit<true>(rank, unit, done_here);
  }
}

// The block size of a work-graph kernel: the occupancy's, which must hold whole warps.
inline void cuda_work_graph_check_block(const char* pattern, int block) {
  if (block < cuda_warp_size || block % cuda_warp_size != 0) {
    cuda_launch_error(pattern, "a WorkGraphPolicy kernel runs whole warps, but the occupancy allows blocks of " +
                                   std::to_string(block) + " threads only (shared memory per thread too large?)");
  }
}

// A wave of `block`-thread blocks, `blocks_per_sm` resident per multiprocessor, with no more
// warps than `units` (a warp beyond the number of units would only poll).
inline unsigned cuda_work_graph_grid(int device, std::int32_t units, int block, int blocks_per_sm) {
  return cuda_one_wave(device, static_cast<long long>(units > 0 ? units : 1) * cuda_warp_size, block, blocks_per_sm);
}

// ---- parallel_for: one kernel per level ---------------------------------------------------------

// One level's kernel: its threads stride over the level's items.  The driver is a kernel
// parameter, so that a recorded graph holds its own copy and a replay needs no memory of ours.
template <class Functor, class Policy>
struct CudaWorkGraphLevelDriver {
  using Tag = typename Policy::work_tag;
  using I = typename Policy::index_type;
  Functor functor;

  __device__ void operator()(const std::int32_t* items, std::int32_t b, std::int32_t e) const {
    const auto stride = static_cast<std::int32_t>(gridDim.x * blockDim.x);
    const auto rank = static_cast<std::int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
    cuda_work_graph_lane_items(items, b, e, rank, stride,
                               [&](std::int32_t i) { invoke_functor<Tag>(functor, static_cast<I>(i)); });
  }
};

template <class Driver>
__global__ void cuda_work_graph_level_kernel(const Driver driver, const std::int32_t* items, std::int32_t b,
                                             std::int32_t e) {
  driver(items, b, e);
}

// The per-level way passes its driver by value: kernel parameters of CUDA before 12.1 (and of
// drivers that do not take more) hold 4 KB; a larger functor keeps the persistent kernel.
inline constexpr std::size_t cuda_work_graph_level_param_limit = 4000;
inline constexpr int cuda_work_graph_level_block = 256;

// The recorded level loop of one (plan, functor type): WorkGraphDeviceWays::recording.
struct CudaWorkGraphLevelRecording {
  cudaGraphExec_t exec = nullptr;
  std::vector<unsigned char> driver;  // the driver it was recorded with (CudaDeviceClosure's bytes)
  bool failed = false;                // capture is refused here: the loop runs directly

  CudaWorkGraphLevelRecording() = default;
  CudaWorkGraphLevelRecording(const CudaWorkGraphLevelRecording&) = delete;
  CudaWorkGraphLevelRecording& operator=(const CudaWorkGraphLevelRecording&) = delete;
  ~CudaWorkGraphLevelRecording() {
    // Possibly after the runtime shut down (a plan outliving finalize): errors are ignored.
    if (exec != nullptr) (void)cudaGraphExecDestroy(exec);
    (void)cudaGetLastError();
  }
};

// Runs `launch`'s level sets with `driver` on `stream`: replays the recording when the driver's
// bytes are those it was recorded with, else records (or re-records and updates in place), and
// runs the loop directly where capture fails.
template <class Driver, class Launch>
void cuda_work_graph_run_levels(const Driver& driver, const Launch& launch, int device, cudaStream_t stream) {
  const auto& plan = launch.plan();
  const WorkGraphLevelSets& sets = plan.level_sets;
  const std::int32_t* items = sets.ranges ? nullptr : plan.level_items.data();
  auto loop = [&] {
    for (std::int32_t l = 0; l < sets.num_levels(); ++l) {
      const WorkGraphLevelSets::Span span = sets.span(l);
      const std::int32_t width = span.b <= span.e ? span.e - span.b : span.b - span.e;
      if (width == 0) continue;
      const unsigned grid = cuda_one_wave(device, width, cuda_work_graph_level_block);
      cuda_work_graph_level_kernel<Driver><<<grid, cuda_work_graph_level_block, 0, stream>>>(driver, items, span.b, span.e);
    }
  };
  work_graph_device_counters.level_launches.fetch_add(1, std::memory_order_relaxed);
  WorkGraphDeviceWays& ways = *launch.ways();
  if (!ways.recording) ways.recording = std::make_shared<CudaWorkGraphLevelRecording>();
  auto& rec = *static_cast<CudaWorkGraphLevelRecording*>(ways.recording.get());
  auto direct = [&] {
    loop();
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetLastError());
  };
  // A KOKKOS_LAMBDA's host wrapper differs from copy to copy in bytes the device never reads.
  CudaDeviceClosure<Driver> closure;
  closure.assign(driver);
  const unsigned char* bytes = closure.bytes;
  const bool same = rec.exec != nullptr && rec.driver.size() == sizeof(Driver) &&
                    std::memcmp(rec.driver.data(), bytes, sizeof(Driver)) == 0;
  if (!same && !rec.failed) {
    // A stream already capturing (an enclosing recording) takes the kernels as they are.
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &status) != cudaSuccess || status != cudaStreamCaptureStatusNone) {
      (void)cudaGetLastError();
      direct();
      return;
    }
    if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed) != cudaSuccess) {
      (void)cudaGetLastError();
      rec.failed = true;
      direct();
      return;
    }
    loop();
    cudaGraph_t graph = nullptr;
    const bool captured = cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph != nullptr;
    (void)cudaGetLastError();
    bool ready = false;
    if (captured) {
      work_graph_device_counters.recordings.fetch_add(1, std::memory_order_relaxed);
      if (rec.exec != nullptr) {
        cudaGraphExecUpdateResultInfo info{};
        ready = cudaGraphExecUpdate(rec.exec, graph, &info) == cudaSuccess;
        if (!ready) {
          (void)cudaGetLastError();
          (void)cudaGraphExecDestroy(rec.exec);
          rec.exec = nullptr;
        }
      }
      if (!ready) {
        ready = cudaGraphInstantiate(&rec.exec, graph, 0) == cudaSuccess;
        if (!ready) {
          (void)cudaGetLastError();
          rec.exec = nullptr;
        }
      }
    }
    if (graph != nullptr) (void)cudaGraphDestroy(graph);
    if (!ready) {
      // The capture ran nothing: the loop runs now, and later launches run it directly.
      rec.failed = true;
      direct();
      return;
    }
    rec.driver.assign(bytes, bytes + sizeof(Driver));
  } else if (rec.failed) {
    direct();
    return;
  }
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphLaunch(rec.exec, stream));
  work_graph_device_counters.graph_replays.fetch_add(1, std::memory_order_relaxed);
}

// ---- parallel_for -------------------------------------------------------------------------------

template <class Functor, class Policy>
struct CudaWorkGraphForDriver {
  using Tag = typename Policy::work_tag;
  using I = typename Policy::index_type;
  Functor functor;
  WorkGraphWork work;

  __device__ void operator()() const {
    cuda_work_graph_worker(work, [&](const std::int32_t* items, std::int32_t b, std::int32_t e, std::int32_t lane,
                                     std::int32_t stride) {
      cuda_work_graph_lane_items(items, b, e, lane, stride,
                                 [&](std::int32_t i) { invoke_functor<Tag>(functor, static_cast<I>(i)); });
    });
  }
};

template <class Functor, class... P>
class ParallelFor<Functor, WorkGraphPolicy<P...>, Kokkos::Cuda> {
  using Policy = WorkGraphPolicy<P...>;
  using Driver = CudaWorkGraphForDriver<Functor, Policy>;
  using LevelDriver = CudaWorkGraphLevelDriver<Functor, Policy>;
  using Bounds = typename Policy::launch_bounds;

  const Functor& m_functor;
  const Policy& m_policy;

 public:
  ParallelFor(const Functor& functor, const Policy& policy) : m_functor(functor), m_policy(policy) {}

  void execute() const {
    if (m_policy.num_items() == 0) return;
    CudaInternal* internal = m_policy.space().impl_internal_space_instance();
    const int device = internal->m_cudaDev;
    const CudaWorkGraphPlanOrder order(m_policy.impl_plan(), internal->m_stream);
    const auto shape = CudaKernel<Driver, Bounds>::occupancy_shape(cuda_for_name, device, 0, 0);
    cuda_work_graph_check_block(cuda_for_name, shape.block);
    const unsigned wave =
        cuda_work_graph_grid(device, static_cast<std::int32_t>(m_policy.num_items()), shape.block, shape.blocks_per_sm);
    const WorkGraphLaunch<Policy> launch(m_policy, static_cast<int>(wave) * (shape.block / cuda_warp_size),
                                         &work_graph_functor_key<Functor>, work_graph_completion_slots_v<Kokkos::Cuda>,
                                         sizeof(LevelDriver) <= cuda_work_graph_level_param_limit);
    if constexpr (sizeof(LevelDriver) <= cuda_work_graph_level_param_limit) {
      if (launch.runs_levels()) {
        const LevelDriver driver = cuda_make_driver([&] { return LevelDriver{m_functor}; });
        cuda_work_graph_run_levels(driver, launch, device, internal->m_stream);
        launch.finish();
        return;
      }
    }
    const WorkGraphWork work = launch.work();
    const unsigned grid = cuda_work_graph_grid(device, work.queue.num_units, shape.block, shape.blocks_per_sm);
    const Driver driver = cuda_make_driver([&] { return Driver{m_functor, work}; });
    cuda_parallel_launch<Bounds>(cuda_for_name, driver, dim3(grid), dim3(shape.block), 0, device, internal->m_stream);
    launch.finish();
  }
};

// ---- parallel_reduce ----------------------------------------------------------------------------

template <class CombinedFunctorReducer, class Policy>
struct CudaWorkGraphReduceDriver {
  using Tag = typename Policy::work_tag;
  using I = typename Policy::index_type;
  using Reducer = typename CombinedFunctorReducer::reducer_type;
  using Reduction = CudaReduction<Reducer>;
  using value_type = typename Reducer::value_type;
  using pointer_type = typename Reducer::pointer_type;

  CombinedFunctorReducer functor_reducer;
  WorkGraphWork work;
  unsigned char* partials;
  unsigned int* flag;
  pointer_type result;

  __device__ void operator()() const {
    const Reducer& reducer = functor_reducer.get_reducer();
    const auto& functor = functor_reducer.get_functor();
    value_type local;
    const pointer_type acc = Reduction::accumulator(reducer, &local);
    reducer.init(acc);
    cuda_work_graph_worker(work, [&](const std::int32_t* items, std::int32_t b, std::int32_t e, std::int32_t lane,
                                     std::int32_t stride) {
      cuda_work_graph_lane_items(items, b, e, lane, stride, [&](std::int32_t i) {
        invoke_functor<Tag>(functor, static_cast<I>(i), reducer.reference(acc));
      });
    });
    Reduction::finish(reducer, acc, partials, flag, result);
  }
};

template <class CombinedFunctorReducerType, class... P>
class ParallelReduce<CombinedFunctorReducerType, WorkGraphPolicy<P...>, Kokkos::Cuda> {
  using Policy = WorkGraphPolicy<P...>;
  using Functor = typename CombinedFunctorReducerType::functor_type;
  using Reducer = typename CombinedFunctorReducerType::reducer_type;
  using pointer_type = typename Reducer::pointer_type;
  using Driver = CudaWorkGraphReduceDriver<CombinedFunctorReducerType, Policy>;
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
    const CudaWorkGraphPlanOrder order(m_policy.impl_plan(), internal->m_stream);
    // An empty graph runs too: its one worker runs no item, and the blocks combine the identity.
    std::optional<WorkGraphLaunch<Policy>> launch;
    WorkGraphWork work;
    cuda_launch_reduction<Driver, Bounds>(
        internal, m_functor_reducer.get_reducer(), m_result,
        [&](int block, int blocks_per_sm) {
          cuda_work_graph_check_block(cuda_reduce_name, block);
          const unsigned wave =
              cuda_work_graph_grid(device, static_cast<std::int32_t>(m_policy.num_items()), block, blocks_per_sm);
          launch.emplace(m_policy, static_cast<int>(wave) * (block / cuda_warp_size), &work_graph_functor_key<Functor>,
                         work_graph_completion_slots_v<Kokkos::Cuda>);
          work = launch->work();
          return cuda_work_graph_grid(device, work.queue.num_units, block, blocks_per_sm);
        },
        [&](unsigned char* partials, unsigned int* flag, pointer_type out) {
          return cuda_make_driver([&] { return Driver{m_functor_reducer, work, partials, flag, out}; });
        });
    launch->finish();
  }
};

}  // namespace Kokkos::Impl

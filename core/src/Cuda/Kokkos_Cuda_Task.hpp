#pragma once
// The task DAG on Kokkos::Cuda (seed 001 §2.2.4, §2.3): BasicTaskScheduler<Cuda, Kind>, shared
// by the five scheduler names, over the portable queue of impl/tasking/Kokkos_DeviceTaskQueue.hpp.
//
// Memory: the pool, and so the tasks, are in CudaUVMSpace (seed 001 §2.2.4's UVM strategy):
// host_spawn constructs the closure on the host right in its pool block, futures count
// references and read results on the host, and the host never touches the DAG while the kernel
// runs (tasks run inside wait() only).  Experimental::set_task_worker_memory(sched, CudaSpace())
// gives the workers a pool of the same sizes in device memory for what they spawn and aggregate,
// so that no managed memory is on their path but the host's own spawns.  The ready rings and the
// shard counters are in device memory (CudaTaskQueue); what the host makes ready goes onto the
// queue object's overflow lists.
// Before its workers start, wait() moves the pool blocks the host wrote since the last run and
// the queue object to the GPU in bulk (impl/tasking/Kokkos_HostWrittenSpans.hpp), so that a DAG
// spawned from the host does not fault its tasks in one by one as they become ready.
// A closure built on the host must be a standard-layout class (checked at compile time), so
// that nvcc's and the host compiler's layouts agree.
//
// Execution: wait() launches one persistent kernel whose workers are warps: blocks of
// dim3(1, 32, warps), so many on every SM (Experimental::CudaTaskWorkers; by default 8 blocks
// of one warp).  The warps of a block take turns polling the queue when they find nothing
// (impl/tasking/Kokkos_DeviceTaskWorkerGroup.hpp; the kernel: Kokkos_Cuda_TaskWorker.hpp).  A
// worker claims up to 32 ready tasks from its SM's rings (or steals them); its TaskSingle tasks
// run at once, one per lane, each with a member that is a team of one; its TaskTeam tasks then
// run one after the other on the whole warp (the team, with CudaTeamMember's nested patterns),
// or, while other workers are idle, only the first, the others going back to the rings for them
// (DeviceTaskQueue::hand_back_extra_teams).  Spawns, respawns and released waiters go into the
// worker's stage in shared memory, and from there into the rings once per batch
// (impl/tasking/Kokkos_DeviceTaskQueue.hpp).  A worker stops when every spawned task completed.
// Its statistics and the time it spent running its batches (the GPU's clock) go into its SM's
// counters then, which task_dag_statistics(sched) and queue().host_totals() read after wait().
//
// No relocatable device code: a task's device entry point must belong to the module (the
// translation unit) whose kernel calls it.  host_spawn and wait carry a tag type of this
// translation unit (an unnamed namespace), so each translation unit instantiates its own
// kernel and its own __device__ variable holding &DeviceTaskNode::apply, read once with
// cudaMemcpyFromSymbol.  Every task records the module id of its translation unit; a kernel
// that meets a task of another module never calls it: it stops every worker and wait()
// aborts on the host with a message naming both modules.  task_spawn in device code takes the
// entry point's address directly, in the module of the kernel running it.
#include <Kokkos_Abort.hpp>
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Future.hpp>
#include <Kokkos_MemoryPool.hpp>
#include <Cuda/Kokkos_Cuda.hpp>
#include <Cuda/Kokkos_CudaSpace.hpp>
#include <Cuda/Kokkos_Cuda_Error.hpp>
#include <Cuda/Kokkos_Cuda_Team.hpp>
#include <Cuda/Kokkos_Cuda_TaskWorker.hpp>
#include <impl/tasking/Kokkos_DeviceTaskQueue.hpp>
#include <impl/tasking/Kokkos_DeviceTaskWorkerChoice.hpp>
#include <impl/tasking/Kokkos_TaskBase.hpp>
#include <impl/tasking/Kokkos_TaskStatistics.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace Kokkos {
namespace Experimental {
// How wait() on a TaskScheduler<Cuda> launches its workers: blocks of `warps_per_block` warps
// (each warp a worker), `blocks_per_sm` of them on every SM, or as many as fit if fewer do.
// Unless the user sets one (set_task_workers), the scheduler chooses among a few shapes by timing
// its own runs (Impl::cuda_task_worker_candidates); the default values are its first candidate.
struct CudaTaskWorkers {
  int blocks_per_sm = 8;
  int warps_per_block = 1;
};
}  // namespace Experimental

namespace Impl {

// Whether F may be built on the host for a GPU task (seed 001 §2.2.4: a standard-layout class,
// which a lambda is not guaranteed to be), and copied into the pool block.
template <class F>
inline constexpr bool is_cuda_host_task_closure_v =
    std::is_class_v<F> && std::is_standard_layout_v<F> && std::is_copy_constructible_v<F>;

// The worker kernel calls tasks through a pointer (TaskBase::m_apply).  Without relocatable
// device code every task entry point of the translation unit is known to ptxas, which sizes the
// kernel's stack with the deepest of them (the "cumulative stack size" of -Xptxas -v), and the
// driver raises the per-thread stack of a launch to what its kernel needs.  A recursive task
// leaves the size unknown (-Xptxas -v then prints no cumulative stack size for the kernel), and
// the device's limit applies, 1 KiB by default: wait() raises the limit to at least this for such
// tasks, and never lowers it (changing it synchronises the device).
inline constexpr std::size_t cuda_task_stack_bytes = 4096;
inline void cuda_task_raise_stack_limit() {
  std::size_t stack = 0;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
  if (stack < cuda_task_stack_bytes)
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceSetLimit(cudaLimitStackSize, cuda_task_stack_bytes));
}

// Starts moving `bytes` of managed memory from `p` to `device`, in order on `stream`.
inline void cuda_prefetch_to_device(const void* p, std::size_t bytes, int device, cudaStream_t stream) {
#if CUDART_VERSION >= 13000
  cudaMemLocation where{};
  where.type = cudaMemLocationTypeDevice;
  where.id = device;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemPrefetchAsync(p, bytes, where, 0, stream));
#else
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemPrefetchAsync(p, bytes, device, stream));
#endif
}

// The device time between two points of a stream, for a run wait() times (an untimed run makes
// no events).  Read elapsed_ns after the stream passed stop().
class CudaTaskRunTimer {
  cudaEvent_t m_start = nullptr, m_stop = nullptr;

 public:
  CudaTaskRunTimer(bool timed, cudaStream_t stream) {
    if (!timed) return;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaEventCreate(&m_start));
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaEventCreate(&m_stop));
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaEventRecord(m_start, stream));
  }
  CudaTaskRunTimer(const CudaTaskRunTimer&) = delete;
  CudaTaskRunTimer& operator=(const CudaTaskRunTimer&) = delete;
  ~CudaTaskRunTimer() {
    if (m_start != nullptr) (void)cudaEventDestroy(m_start);
    if (m_stop != nullptr) (void)cudaEventDestroy(m_stop);
  }
  void stop(cudaStream_t stream) {
    if (m_stop != nullptr) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaEventRecord(m_stop, stream));
  }
  double elapsed_ns() const {
    if (m_stop == nullptr) return 0;
    float ms = 0;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaEventElapsedTime(&ms, m_start, m_stop));
    return double(ms) * 1e6;
  }
};

// Throws, naming the value, unless `workers` is a shape wait() can launch.
inline void cuda_task_check_workers(const Experimental::CudaTaskWorkers& workers) {
  if (workers.warps_per_block < 1 || workers.warps_per_block > cuda_task_max_warps_per_block)
    throw_runtime_exception("Kokkos::Experimental::set_task_workers: warps_per_block is " +
                            std::to_string(workers.warps_per_block) + "; a worker block has 1 to " +
                            std::to_string(cuda_task_max_warps_per_block) + " warps");
  if (workers.blocks_per_sm < 1)
    throw_runtime_exception("Kokkos::Experimental::set_task_workers: blocks_per_sm is " +
                            std::to_string(workers.blocks_per_sm) + "; wait() needs at least one block per SM");
}

// The shapes a scheduler's runs are timed on (Impl::DeviceTaskWorkerChoice), the first its
// default.  On an H200 (perf_tests/README.md, "The GPU task DAG"): 8 one-warp blocks per SM ran
// Fibonacci fastest, 2 the Granularity tree, 1 or 2 the TaskTeam wavefront;
// blocks of 4 warps hold as many warps with one poller per block (8 warps per SM), or 24, about
// what the worker kernel's registers let an SM hold, for DAGs wide enough to use them.
inline constexpr std::array<Experimental::CudaTaskWorkers, 4> cuda_task_worker_candidates{
    {{8, 1}, {2, 1}, {2, 4}, {6, 4}}};

// The pool the workers allocate from where the user asks for device memory
// (Experimental::set_task_worker_memory).
using CudaTaskWorkerPool = MemoryPool<Device<Kokkos::Cuda, CudaSpace>>;

// The workers' pool of `queue` set to `pool` (empty: the scheduler's), or a throw naming why not.
template <class Queue>
void cuda_task_set_worker_pool(Queue& queue, const CudaTaskWorkerPool& pool) {
  if (!queue.set_worker_pool(pool))
    throw_runtime_exception("Kokkos::Experimental::set_task_worker_memory: " +
                            std::to_string(queue.allocation_count()) +
                            " tasks or aggregates are alive; set it before spawning, or after wait() once their "
                            "futures are dropped");
}

// Module ids: one per translation unit that spawns or runs GPU tasks, from one process-wide count.
inline std::uint32_t cuda_task_new_module_id() {
  static std::atomic<std::uint32_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}
template <class Module>
std::uint32_t cuda_task_module_id() {
  static const std::uint32_t id = cuda_task_new_module_id();
  return id;
}

namespace {
// The translation unit's own tag: the templates below instantiated with it are distinct per
// translation unit, and so are their kernels and __device__ variables.
struct CudaTaskModule {};
}  // namespace

#if defined(__CUDACC__)
// &Node::apply in the device code of the translation unit of `Module`.
template <class Node, class Module>
__device__ TaskBase::function_type cuda_task_apply_entry = &Node::apply;

// The device address of Node::apply in this translation unit's module, read once.
template <class Node, class Module>
TaskBase::function_type cuda_task_device_apply() {
  static const TaskBase::function_type entry = [] {
    TaskBase::function_type f = nullptr;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemcpyFromSymbol(&f, cuda_task_apply_entry<Node, Module>, sizeof(f)));
    return f;
  }();
  return entry;
}
#endif

// A TaskTeam task's team is its warp, whatever the other warps of the block run
// (CudaTeamMember::impl_set_warp_team).  A TaskSingle task runs on one lane, the other lanes
// running other tasks: its member is a team of one (CudaTeamMember::impl_set_team_of_one).
template <class Scheduler>
class CudaTaskTeamMember : public CudaTeamMember {
  Scheduler m_scheduler;

 public:
  using scheduler_type = Scheduler;
  using team_handle = CudaTaskTeamMember;
  KOKKOS_INLINE_FUNCTION explicit CudaTaskTeamMember(const Scheduler& scheduler)
      : CudaTeamMember(nullptr, 0, nullptr, 0, 0, 1), m_scheduler(scheduler) {
    impl_set_warp_team(true);
  }
  KOKKOS_INLINE_FUNCTION const Scheduler& scheduler() const noexcept { return m_scheduler; }
};

// The nested patterns of CudaTeamMember (Kokkos_Cuda_Team.hpp) serve the task team too.
template <class Scheduler>
struct is_cuda_team_member<CudaTaskTeamMember<Scheduler>> : std::true_type {};

// The queue of the Cuda scheduler: the portable queue with its rings and counters in device
// memory (shards: the GPU's SMs), which also dies with its last user (scheduler handle or
// task) when that user goes away on the host.  The object itself is in CudaUVMSpace: the host
// spawns into its overflow lists and reads its own counts there between runs.
template <class MemoryPoolType>
struct CudaTaskQueue : DeviceTaskQueue<MemoryPoolType, CudaTaskQueueContext, CudaTaskWorkerPool> {
  using base = DeviceTaskQueue<MemoryPoolType, CudaTaskQueueContext, CudaTaskWorkerPool>;
  using base::base;
  // Ready tasks one shard's ring of one priority holds before its pushes go to other shards.
  static constexpr std::uint32_t ring_capacity = 4096;

  static CudaTaskQueue* create(const MemoryPoolType& pool) {
    int device = 0, sm_count = 1;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetDevice(&device));
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
    DeviceTaskQueueStorage storage;
    storage.shards = sm_count > 0 ? sm_count : 1;
    storage.ring_capacity = ring_capacity;
    const std::size_t rings = std::size_t(task_priority_count) * storage.shards;
    const std::size_t slots = DeviceTaskQueueStorage::slot_count(storage.shards, ring_capacity);
    CudaSpace device_space;
    storage.rings = static_cast<DeviceTaskRing*>(
        device_space.allocate("Kokkos::TaskScheduler<Cuda> rings", rings * sizeof(DeviceTaskRing)));
    storage.slots = static_cast<TaskBase**>(
        device_space.allocate("Kokkos::TaskScheduler<Cuda> ring slots", slots * sizeof(TaskBase*)));
    storage.counters = static_cast<DeviceTaskShardCounters*>(device_space.allocate(
        "Kokkos::TaskScheduler<Cuda> shard counters", storage.shards * sizeof(DeviceTaskShardCounters)));
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemset(storage.slots, 0, slots * sizeof(TaskBase*)));
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemset(storage.counters, 0, storage.shards * sizeof(DeviceTaskShardCounters)));
    std::vector<DeviceTaskRing> ring_image(rings);
    base::init_rings(storage, ring_image.data());
    KOKKOS_IMPL_CUDA_SAFE_CALL(
        cudaMemcpy(storage.rings, ring_image.data(), rings * sizeof(DeviceTaskRing), cudaMemcpyHostToDevice));

    int managed_prefetch = 0;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceGetAttribute(&managed_prefetch, cudaDevAttrConcurrentManagedAccess, device));

    task_statistics_register_print();
    void* p = CudaUVMSpace().allocate("Kokkos::TaskScheduler<Cuda> queue", sizeof(CudaTaskQueue));
    CudaTaskQueue* q = ::new (p) CudaTaskQueue(pool, storage);
    q->m_handles = 1;
    q->m_device = device;
    q->m_place_host_writes = managed_prefetch != 0;
    return q;
  }
  // Scheduler handles made and dropped in device code (task closures, the kernel's members)
  // are counted per SM, not in m_handles: a task that copies its scheduler would otherwise make
  // every spawn two atomics on one word.  Their sum only changes while a kernel runs, and
  // wait() reads it after each (device_handles).
  std::int64_t m_device_handles = 0;
  // The worker warps of the last wait()'s kernel (for reading the workers' time per shard).
  std::int32_t m_workers = 0;
  // How wait() launches them: the user's shape, or one of the candidates, timed.
  DeviceTaskWorkerChoice<Experimental::CudaTaskWorkers> m_worker_choice{cuda_task_worker_candidates};
  std::int32_t m_device = 0;
  // Whether wait() moves the pool blocks the host wrote, and the queue object, to the GPU before
  // its workers start (HostWrittenSpans): where the device can take managed memory ahead of use
  // (concurrent managed access).  PerfCudaTaskDag turns it off to measure what it saves.
  bool m_place_host_writes = false;
  KOKKOS_INLINE_FUNCTION void count_handle(int delta) {
#if defined(__CUDA_ARCH__)
    Kokkos::atomic_add(&this->counters(cuda_task_sm_id() % this->shards()).handles, std::int64_t(delta));
#else
    (void)atomic_fetch_add_seq_cst(&this->m_handles, delta);
#endif
  }
  std::int64_t handles() const { return this->m_handles + m_device_handles; }

  // On the host, with no kernel running: frees the queue when nothing refers to it any more.
  void destroy_if_unused() {
    if (handles() != 0 || this->m_alive != 0) return;
    task_statistics_fold(statistics());
    const DeviceTaskQueueStorage storage = this->m_storage;
    this->~CudaTaskQueue();
    CudaUVMSpace().deallocate("Kokkos::TaskScheduler<Cuda> queue", this, sizeof(CudaTaskQueue));
    CudaSpace device_space;
    device_space.deallocate("Kokkos::TaskScheduler<Cuda> shard counters", storage.counters,
                            storage.shards * sizeof(DeviceTaskShardCounters));
    const std::size_t slots = DeviceTaskQueueStorage::slot_count(storage.shards, storage.ring_capacity);
    device_space.deallocate("Kokkos::TaskScheduler<Cuda> ring slots", storage.slots, slots * sizeof(TaskBase*));
    device_space.deallocate("Kokkos::TaskScheduler<Cuda> rings", storage.rings,
                            std::size_t(task_priority_count) * storage.shards * sizeof(DeviceTaskRing));
  }
  // On the host, before a run on `stream`: what the host wrote since the last run goes to the GPU
  // ahead of the workers (or is forgotten, when placement is off): the blocks, the pool's own
  // words if the host allocated or freed any (their states and bits), and the queue object.
  void place_host_writes(cudaStream_t stream) {
    const bool place = m_place_host_writes;
    const int device = m_device;
    bool host_wrote_blocks = false;
    this->m_host_written.take([&](const void* p, std::size_t bytes) {
      host_wrote_blocks = true;
      if (place) cuda_prefetch_to_device(p, bytes, device, stream);
    });
    if (!place) return;
    if (host_wrote_blocks) {
      const auto [words, bytes] = this->m_pool.impl_bookkeeping();
      if (bytes != 0) cuda_prefetch_to_device(words, bytes, device, stream);
    }
    cuda_prefetch_to_device(this, sizeof(CudaTaskQueue), device, stream);
  }

  KOKKOS_INLINE_FUNCTION static CudaTaskQueue* queue_of(const TaskBase* t) {
    return static_cast<CudaTaskQueue*>(base::queue_of(t));
  }
  KOKKOS_INLINE_FUNCTION static void release_reference(TaskBase* t) {
    if (t == nullptr) return;
    CudaTaskQueue* q = queue_of(t);
    base::release_reference(t);
    KOKKOS_IF_ON_HOST((q->destroy_if_unused();))
    (void)q;
  }

  // On the host, with no kernel running: the shards' counts summed, the host's added (the
  // handles are those of device code only: the host's are m_handles).
  DeviceTaskShardCounters host_totals() const {
    std::vector<DeviceTaskShardCounters> shards(static_cast<std::size_t>(this->m_storage.shards));
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaMemcpy(shards.data(), this->m_storage.counters,
                                          shards.size() * sizeof(DeviceTaskShardCounters), cudaMemcpyDeviceToHost));
    DeviceTaskShardCounters total = this->host_counts();
    for (const DeviceTaskShardCounters& c : shards) total += c;
    return total;
  }
  Experimental::TaskDagStatistics statistics() const { return this->statistics_of(host_totals()); }
  bool host_finished() const {
    const DeviceTaskShardCounters total = host_totals();
    return total.spawned == total.completed;
  }
};

}  // namespace Impl

template <class Kind>
class BasicTaskScheduler<Kokkos::Cuda, Kind> {
 public:
  using execution_space = Kokkos::Cuda;
  using memory_space = Kokkos::CudaUVMSpace;
  using device_type = Device<execution_space, memory_space>;
  using memory_pool = MemoryPool<device_type>;
  using scheduler_type = BasicTaskScheduler;
  using member_type = Impl::CudaTaskTeamMember<BasicTaskScheduler>;
  using queue_type = Impl::CudaTaskQueue<memory_pool>;
  template <class V>
  using future_type = BasicFuture<V, BasicTaskScheduler>;
  template <class F>
  using future_type_for_functor = future_type<typename Impl::task_functor_value<F>::type>;

 private:
  template <class, class>
  friend class BasicFuture;

  queue_type* m_queue = nullptr;

  // A handle on an existing queue: handles are counted on the host and on the device alike
  // (never both at once), and only the host frees.
  KOKKOS_INLINE_FUNCTION explicit BasicTaskScheduler(queue_type* q) noexcept : m_queue(q) {
    if (m_queue != nullptr) m_queue->count_handle(1);
  }
  KOKKOS_INLINE_FUNCTION void release_handle() noexcept {
    if (m_queue != nullptr) {
      m_queue->count_handle(-1);
      KOKKOS_IF_ON_HOST((m_queue->destroy_if_unused();))
    }
    m_queue = nullptr;
  }

  KOKKOS_INLINE_FUNCTION static queue_type* queue_of(const Impl::TaskBase* t) { return queue_type::queue_of(t); }

  template <Impl::TaskKind K, class Functor>
  using node_type = Impl::DeviceTaskNode<Functor, typename Impl::task_functor_value<Functor>::type, member_type>;

 public:
  BasicTaskScheduler() noexcept = default;
  KOKKOS_INLINE_FUNCTION BasicTaskScheduler(const BasicTaskScheduler& rhs) noexcept : BasicTaskScheduler(rhs.m_queue) {}
  KOKKOS_INLINE_FUNCTION BasicTaskScheduler(BasicTaskScheduler&& rhs) noexcept : m_queue(rhs.m_queue) {
    rhs.m_queue = nullptr;
  }
  KOKKOS_INLINE_FUNCTION BasicTaskScheduler& operator=(const BasicTaskScheduler& rhs) noexcept {
    if (rhs.m_queue) rhs.m_queue->count_handle(1);
    release_handle();
    m_queue = rhs.m_queue;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION BasicTaskScheduler& operator=(BasicTaskScheduler&& rhs) noexcept {
    if (this != &rhs) {
      release_handle();
      m_queue = rhs.m_queue;
      rhs.m_queue = nullptr;
    }
    return *this;
  }
  KOKKOS_INLINE_FUNCTION ~BasicTaskScheduler() { release_handle(); }

  BasicTaskScheduler(const execution_space&, const memory_pool& pool) {
    Impl::check_initialized("Kokkos::TaskScheduler<Cuda>");
    if (pool.capacity() != 0 && pool.max_block_size() <= sizeof(Impl::TaskBase))
      Impl::throw_runtime_exception(
          "Kokkos::TaskScheduler<Cuda>: the memory pool is too small for even one task: its largest block is " +
          std::to_string(pool.max_block_size()) + " bytes and a task needs more than its " +
          std::to_string(sizeof(Impl::TaskBase)) + "-byte header");
    m_queue = queue_type::create(pool);
  }
  explicit BasicTaskScheduler(const memory_pool& pool) : BasicTaskScheduler(execution_space(), pool) {}
  BasicTaskScheduler(const memory_space& space, std::size_t capacity, unsigned min_block, unsigned max_block,
                     unsigned superblock)
      : BasicTaskScheduler(execution_space(), memory_pool(space, capacity, min_block, max_block, superblock)) {}

  KOKKOS_INLINE_FUNCTION static BasicTaskScheduler impl_from_queue(queue_type* q) { return BasicTaskScheduler(q); }
  KOKKOS_INLINE_FUNCTION static BasicTaskScheduler impl_from_task(Impl::TaskBase* t) {
    return BasicTaskScheduler(queue_of(t));
  }

  KOKKOS_INLINE_FUNCTION bool is_null() const noexcept { return m_queue == nullptr; }
  memory_pool* memory() const noexcept {
    return m_queue != nullptr && m_queue->m_pool.capacity() != 0 ? &m_queue->m_pool : nullptr;
  }
  queue_type& queue() const {
    if (m_queue == nullptr)
      Kokkos::abort("Kokkos::TaskScheduler::queue(): the scheduler is empty (default-constructed)");
    return *m_queue;
  }
  execution_space get_execution_space() const { return execution_space(); }

  // ---- pool sizing queries (Kokkos 4; exact outside wait()) ------------------------------------
  template <class FunctorType>
  std::size_t spawn_allocation_size() const {
    using Node = node_type<Impl::TaskKind::Single, FunctorType>;
    return m_queue != nullptr ? m_queue->m_pool.allocate_block_size(sizeof(Node)) : 0;
  }
  template <Impl::TaskKind K, class FunctorType>
  std::size_t spawn_allocation_size(const Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler>&,
                                    const FunctorType&) const {
    return spawn_allocation_size<FunctorType>();
  }
  std::size_t when_all_allocation_size(int narg) const {
    return m_queue != nullptr ? m_queue->m_pool.allocate_block_size(queue_type::aggregate_bytes(narg)) : 0;
  }
  int allocation_capacity() const noexcept { return m_queue ? static_cast<int>(m_queue->m_pool.capacity()) : 0; }
  int allocated_task_count() const noexcept { return m_queue ? static_cast<int>(m_queue->allocation_count()) : 0; }
  // The most alive at once as the workers' batches reported it (DeviceTaskQueue).
  int allocated_task_count_max() const noexcept {
    return m_queue ? static_cast<int>(m_queue->allocation_count_max()) : 0;
  }
  long allocated_task_count_accum() const { return m_queue ? long(m_queue->host_totals().allocated) : 0; }

  KOKKOS_INLINE_FUNCTION friend bool operator==(const BasicTaskScheduler& a, const BasicTaskScheduler& b) {
    return a.m_queue == b.m_queue;
  }
  KOKKOS_INLINE_FUNCTION friend bool operator!=(const BasicTaskScheduler& a, const BasicTaskScheduler& b) {
    return a.m_queue != b.m_queue;
  }

  // ---- spawn ------------------------------------------------------------------------------------
 private:
  // Takes the policy's predecessor reference; aborts on a predecessor of another scheduler.
  template <Impl::TaskKind K>
  KOKKOS_INLINE_FUNCTION static Impl::TaskBase* adopt_predecessor(
      Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler>& policy, queue_type* q) {
    Impl::TaskBase* dep = policy.m_predecessor.m_task;
    policy.m_predecessor.m_task = nullptr;
    if (dep != nullptr && queue_of(dep) != q)
      Kokkos::abort("Kokkos spawn: the predecessor future belongs to another scheduler");
    return dep;
  }

 public:
  // host_spawn (from the host, `Module` the caller's translation unit).
  template <class Module, Impl::TaskKind K, class F>
  static future_type_for_functor<std::decay_t<F>> impl_host_spawn(
      Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler> policy, F&& functor) {
    using Functor = std::decay_t<F>;
    static_assert(Impl::is_cuda_host_task_closure_v<Functor>,
                  "Kokkos::host_spawn on Kokkos::Cuda: the task functor must be a copyable standard-layout class "
                  "(seed 001 2.2.4: the host compiler builds it, nvcc's code reads it; a lambda's layout is not "
                  "guaranteed to agree)");
#if defined(__CUDACC__)
    using Node = node_type<K, Functor>;
    using Result = future_type_for_functor<Functor>;
    queue_type* q = policy.m_scheduler.m_queue;
    if (q == nullptr) Kokkos::abort("Kokkos::host_spawn: the policy's scheduler is empty (default-constructed)");
    Impl::TaskBase* dep = adopt_predecessor(policy, q);
    void* p = q->allocate(sizeof(Node));
    if (p == nullptr) {  // the pool is full: a null future, nothing else changed
      queue_type::release_reference(dep);
      return Result();
    }
    Node* t = ::new (p) Node(std::forward<F>(functor));
    t->m_apply = Impl::cuda_task_device_apply<Node, Module>();
    t->m_module = Impl::cuda_task_module_id<Module>();
    q->init_task(t, static_cast<std::uint32_t>(sizeof(Node)), K, policy.m_priority, dep);
    q->spawn(t);
    return Result(static_cast<Impl::TaskBase*>(t));
#else
    static_assert(sizeof(Module) == 0, "Kokkos::host_spawn on Kokkos::Cuda: compile this translation unit with nvcc");
    return {};
#endif
  }

  // task_spawn (inside a task running on the GPU).
  template <Impl::TaskKind K, class F>
  KOKKOS_INLINE_FUNCTION static future_type_for_functor<std::decay_t<F>> impl_task_spawn(
      Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler> policy, F&& functor) {
    using Functor = std::decay_t<F>;
    using Result = future_type_for_functor<Functor>;
#if defined(__CUDA_ARCH__)
    using Node = node_type<K, Functor>;
    queue_type* q = policy.m_scheduler.m_queue;
    if (q == nullptr) Kokkos::abort("Kokkos::task_spawn: the policy's scheduler is empty (default-constructed)");
    Impl::TaskBase* dep = adopt_predecessor(policy, q);
    void* p = q->allocate(sizeof(Node));
    if (p == nullptr) {
      queue_type::release_reference(dep);
      return Result();
    }
    Node* t = ::new (p) Node(static_cast<F&&>(functor));
    t->m_apply = &Node::apply;
    t->m_module = Impl::cuda_task_worker_context().module;
    q->init_task(t, static_cast<std::uint32_t>(sizeof(Node)), K, policy.m_priority, dep);
    q->spawn(t);
    return Result(static_cast<Impl::TaskBase*>(t));
#else
    (void)policy;
    (void)functor;
    Kokkos::abort("Kokkos::task_spawn: called outside a task; use Kokkos::host_spawn in host code");
    return Result();
#endif
  }

  // host_spawn in host code, task_spawn in a task.
  template <Impl::TaskKind K, class F, class Module = Impl::CudaTaskModule>
  KOKKOS_INLINE_FUNCTION future_type_for_functor<std::decay_t<F>> spawn(
      Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler> policy, F&& functor) const {
    if (policy.m_scheduler.m_queue != m_queue)
      Kokkos::abort("Kokkos::TaskScheduler::spawn: the policy names another scheduler");
#if defined(__CUDA_ARCH__)
    return impl_task_spawn(static_cast<Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler>&&>(policy),
                           static_cast<F&&>(functor));
#else
    return impl_host_spawn<Module>(static_cast<Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler>&&>(policy),
                                   static_cast<F&&>(functor));
#endif
  }

  // ---- when_all -----------------------------------------------------------------------------------
  template <class V>
  KOKKOS_INLINE_FUNCTION static future_type<void> when_all(const future_type<V> futures[], int n) {
    return impl_when_all(nullptr, n, [&](int i) -> const future_type<V>& { return futures[i]; });
  }
  template <class Generator>
  KOKKOS_INLINE_FUNCTION future_type<void> when_all(int n, Generator&& generator) const {
    if (m_queue == nullptr)
      Kokkos::abort("Kokkos::TaskScheduler::when_all: the scheduler is empty (default-constructed)");
    return impl_when_all(m_queue, n, generator);
  }
  // Generator(i) for i in [0, n), once each, in order.  The static form takes the scheduler of
  // the first non-null future; a full pool or no non-null entry gives a null future.
  template <class Generator>
  KOKKOS_INLINE_FUNCTION static future_type<void> impl_when_all(queue_type* q, int n, Generator&& generator) {
    if (n <= 0) return future_type<void>();
    Impl::TaskBase* a = q != nullptr ? q->begin_aggregate(n) : nullptr;
    if (q != nullptr && a == nullptr) return future_type<void>();
    for (int i = 0; i < n; ++i) {
      decltype(auto) f = generator(i);
      static_assert(std::is_same_v<typename std::decay_t<decltype(f)>::scheduler_type, BasicTaskScheduler>,
                    "when_all: the futures must belong to this scheduler type");
      Impl::TaskBase* t = f.impl_get_task();
      if (t == nullptr) continue;
      if (q == nullptr) {
        q = queue_of(t);
        a = q->begin_aggregate(n);
        if (a == nullptr) return future_type<void>();
      } else if (queue_of(t) != q) {
        Kokkos::abort("Kokkos::when_all: the futures belong to different schedulers");
      }
      queue_type::add_aggregate_entry(a, t);
    }
    if (a == nullptr) return future_type<void>();
    return future_type<void>(q->finish_aggregate(a));
  }

  // ---- respawn (inside a running GPU task) ---------------------------------------------------------
  template <class F>
  KOKKOS_INLINE_FUNCTION static void respawn(F* self, const BasicTaskScheduler& sched,
                                             TaskPriority priority = TaskPriority::Regular) {
    Impl::TaskBase* t = respawn_target(self);
    if (sched.m_queue != nullptr && sched.m_queue != queue_of(t))
      Kokkos::abort("Kokkos::respawn: the scheduler is not the one running the task");
    request(t, priority, nullptr);
  }
  template <class F, class V>
  KOKKOS_INLINE_FUNCTION static void respawn(F* self, const future_type<V>& dependence,
                                             TaskPriority priority = TaskPriority::Regular) {
    Impl::TaskBase* t = respawn_target(self);
    Impl::TaskBase* d = dependence.impl_get_task();
    if (d != nullptr) {
      if (queue_of(d) != queue_of(t)) Kokkos::abort("Kokkos::respawn: the dependence belongs to another scheduler");
      d->add_ref();
    }
    request(t, priority, d);
  }
  // A temporary future (respawn(this, when_all(...))) hands its reference over.
  template <class F, class V>
  KOKKOS_INLINE_FUNCTION static void respawn(F* self, future_type<V>&& dependence,
                                             TaskPriority priority = TaskPriority::Regular) {
    Impl::TaskBase* t = respawn_target(self);
    Impl::TaskBase* d = dependence.impl_get_task();
    if (d != nullptr && queue_of(d) != queue_of(t))
      Kokkos::abort("Kokkos::respawn: the dependence belongs to another scheduler");
    dependence.m_task = nullptr;
    request(t, priority, d);
  }

 private:
  KOKKOS_INLINE_FUNCTION static Impl::TaskBase* respawn_target(const void* self) {
#if defined(__CUDA_ARCH__)
    Impl::TaskBase* t = Impl::cuda_task_worker_context().current[threadIdx.y];
    const char* b = reinterpret_cast<const char*>(t);
    const char* p = static_cast<const char*>(self);
    if (t == nullptr || p <= b || p >= b + t->m_alloc_size)
      Kokkos::abort("Kokkos::respawn: the first argument must be `this` of the running task's functor");
    return t;
#else
    (void)self;
    Kokkos::abort("Kokkos::respawn: called outside a running task (TaskScheduler<Cuda> tasks run on the GPU)");
    return nullptr;
#endif
  }
  KOKKOS_INLINE_FUNCTION static void request(Impl::TaskBase* t, TaskPriority priority, Impl::TaskBase* dependence) {
    if (!queue_type::request_respawn(t, priority, dependence))
      Kokkos::abort(
          "Kokkos::respawn: called twice in one execution of a task (in a TaskTeam task, call it from one team rank)");
  }

 public:
  // Runs the DAG to completion: one persistent kernel of this translation unit's module.
  template <class Module>
  void impl_wait() const {
    if (m_queue == nullptr) Kokkos::abort("Kokkos::wait: the scheduler is empty (default-constructed)");
#if defined(__CUDACC__)
    const Impl::DeviceTaskShardCounters before = m_queue->host_totals();
    if (before.spawned == before.completed) return;
    const auto kernel = &Impl::cuda_task_worker_kernel<BasicTaskScheduler, Module>;
    const auto run = m_queue->m_worker_choice.next();
    const Experimental::CudaTaskWorkers shape = run.shape;
    const std::size_t shared = Impl::cuda_task_block_shared_bytes(shape.warps_per_block);
    int device = 0, sm_count = 1, per_sm = 0;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetDevice(&device));
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
    KOKKOS_IMPL_CUDA_SAFE_CALL(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32 * shape.warps_per_block, shared));
    const int blocks = std::clamp(per_sm, 1, shape.blocks_per_sm) * sm_count;
    Impl::cuda_task_raise_stack_limit();
    m_queue->m_idle.begin_run();
    m_queue->m_workers = blocks * shape.warps_per_block;
    const cudaStream_t stream = execution_space().cuda_stream();
    m_queue->place_host_writes(stream);
    // A timed run is timed on the stream, from the end of the placement to the kernel's end.
    Impl::CudaTaskRunTimer timer(run.timed, stream);
    const dim3 block(1, 32, shape.warps_per_block);
    kernel<<<blocks, block, shared, stream>>>(m_queue, Impl::cuda_task_module_id<Module>());
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetLastError());
    timer.stop(stream);
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamSynchronize(stream));
    const Impl::DeviceTaskShardCounters after = m_queue->host_totals();
    m_queue->m_device_handles = after.handles;
    m_queue->m_worker_choice.record(run, timer.elapsed_ns(), after.tasks_run - before.tasks_run);
    if (m_queue->m_stop == Impl::cuda_task_stop_cycle) {
      Kokkos::abort("Kokkos::wait(TaskScheduler<Cuda>): tasks are still waiting after every runnable task finished: "
                    "their dependences form a cycle (a task respawned behind a future that depends on it)");
    }
    if (m_queue->m_stop != Impl::cuda_task_stop_none) {
      char message[320];
      std::snprintf(message, sizeof(message),
                    "Kokkos::wait(TaskScheduler<Cuda>): a task spawned from one translation unit (module %u) "
                    "reached the scheduler's kernel of another (module %u); without relocatable device code a "
                    "kernel can only call task code of its own translation unit: spawn and wait in one "
                    "translation unit",
                    unsigned(m_queue->m_stop_detail), unsigned(Impl::cuda_task_module_id<Module>()));
      Kokkos::abort(message);
    }
#else
    static_assert(sizeof(Module) == 0, "Kokkos::wait on Kokkos::Cuda: compile this translation unit with nvcc");
#endif
  }
};

// The Cuda overloads of host_spawn and wait: their last template parameter is this translation
// unit's tag, so that each translation unit reaches its own kernel and entry points.
template <Impl::TaskKind K, class Kind, class F, class Module = Impl::CudaTaskModule>
typename BasicTaskScheduler<Kokkos::Cuda, Kind>::template future_type_for_functor<std::decay_t<F>> host_spawn(
    Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler<Kokkos::Cuda, Kind>> policy, F&& functor) {
  return BasicTaskScheduler<Kokkos::Cuda, Kind>::template impl_host_spawn<Module>(std::move(policy),
                                                                                  std::forward<F>(functor));
}
template <Impl::TaskKind K, class Kind, class F>
KOKKOS_INLINE_FUNCTION
    typename BasicTaskScheduler<Kokkos::Cuda, Kind>::template future_type_for_functor<std::decay_t<F>>
    task_spawn(Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler<Kokkos::Cuda, Kind>> policy, F&& functor) {
  return BasicTaskScheduler<Kokkos::Cuda, Kind>::impl_task_spawn(
      static_cast<Impl::TaskPolicyWithScheduler<K, BasicTaskScheduler<Kokkos::Cuda, Kind>>&&>(policy),
      static_cast<F&&>(functor));
}
template <class Kind, class Module = Impl::CudaTaskModule>
void wait(const BasicTaskScheduler<Kokkos::Cuda, Kind>& sched) {
  sched.template impl_wait<Module>();
}

namespace Experimental {
// The shape the scheduler's wait() launches: the one set with set_task_workers, or, while the
// scheduler chooses (Kokkos::AUTO, the default), the fastest per task among its candidates so far
// (8 one-warp blocks per SM before any run was timed).
template <class Kind>
CudaTaskWorkers task_workers(const BasicTaskScheduler<Kokkos::Cuda, Kind>& sched) {
  return sched.queue().m_worker_choice.chosen();
}
// Sets it: `warps_per_block` in [1, 8], `blocks_per_sm` at least 1 (wait() launches fewer where
// fewer fit); anything else throws, and the shape stays as it was.  Every wait() then launches it.
template <class Kind>
void set_task_workers(const BasicTaskScheduler<Kokkos::Cuda, Kind>& sched, const CudaTaskWorkers& workers) {
  Kokkos::Impl::cuda_task_check_workers(workers);
  sched.queue().m_worker_choice.fix(workers);
}
// Hands the choice back to the scheduler: its runs time the candidate shapes again.
template <class Kind>
void set_task_workers(const BasicTaskScheduler<Kokkos::Cuda, Kind>& sched, Kokkos::AUTO_t) {
  sched.queue().m_worker_choice.measure();
}

// Where the workers of wait() allocate the tasks they spawn and the when_all aggregates they
// make.  CudaSpace: a pool of the scheduler pool's capacity and block sizes in device memory,
// allocated now, so that no managed memory is on the workers' path but the tasks the host spawned
// (those stay in the scheduler's pool, and so do the host's aggregates); a task spawned on the
// GPU must then never reach host code through a future (results are how values come back).  The
// two pools bound the DAG separately: each spawn into a full one returns a null future.
// CudaUVMSpace (the default): the scheduler's pool, as Kokkos.  Only while no task or aggregate
// is alive (after wait(), the futures dropped); otherwise, or for a scheduler without a pool,
// it throws and nothing changes.
template <class Kind>
void set_task_worker_memory(const BasicTaskScheduler<Kokkos::Cuda, Kind>& sched, const Kokkos::CudaSpace& space) {
  const auto& pool = sched.queue().m_pool;
  if (pool.capacity() == 0)
    Kokkos::Impl::throw_runtime_exception(
        "Kokkos::Experimental::set_task_worker_memory: the scheduler has no memory pool to size the workers' on");
  Kokkos::Impl::cuda_task_set_worker_pool(
      sched.queue(), Kokkos::Impl::CudaTaskWorkerPool(space, pool.capacity(), pool.min_block_size(),
                                                       pool.max_block_size(),
                                                       pool.capacity() / std::size_t(pool.number_of_superblocks())));
}
template <class Kind>
void set_task_worker_memory(const BasicTaskScheduler<Kokkos::Cuda, Kind>& sched, const Kokkos::CudaUVMSpace&) {
  Kokkos::Impl::cuda_task_set_worker_pool(sched.queue(), Kokkos::Impl::CudaTaskWorkerPool());
}
// Whether the workers allocate in device memory (set_task_worker_memory(sched, CudaSpace())).
template <class Kind>
bool task_worker_memory_is_device(const BasicTaskScheduler<Kokkos::Cuda, Kind>& sched) {
  return sched.queue().m_worker_pool.capacity() != 0;
}
}  // namespace Experimental

}  // namespace Kokkos

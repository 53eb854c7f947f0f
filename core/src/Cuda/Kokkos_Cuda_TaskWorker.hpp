#pragma once
// The workers of TaskScheduler<Cuda> (Kokkos_Cuda_Task.hpp): the persistent kernel that wait()
// launches, and the warp-wide forms of impl/tasking/Kokkos_DeviceTaskQueue.hpp's steps it runs
// (claims, stage flushes, the termination and idle checks, the hand-back of TaskTeam tasks), with
// the shared memory each worker block holds: its warps' DeviceTaskWorkerGroup and each warp's
// context (the task each lane runs, the kernel's module, the warp's stage).
#include <Kokkos_Macros.hpp>
#include <Cuda/Kokkos_Cuda_ReduceScan.hpp>
#include <impl/tasking/Kokkos_DeviceTaskQueue.hpp>
#include <impl/tasking/Kokkos_DeviceTaskWorkerGroup.hpp>
#include <impl/tasking/Kokkos_TaskBase.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace Kokkos::Impl {

// Why the workers of a wait() stopped early (DeviceTaskQueue::m_stop).
enum CudaTaskStopReason : std::uint32_t {
  cuda_task_stop_none = 0,
  cuda_task_stop_foreign_module = 1,
  cuda_task_stop_cycle = 2,  // every worker idle, nothing ready, tasks left: they wait on each other
};

// The most warps a worker block has (the kernel's launch bound).
inline constexpr int cuda_task_max_warps_per_block = 8;

// What the lanes of a worker (a warp) share: the task each lane runs (a TaskTeam task: every
// lane's), the module of its kernel, and its stage (DeviceTaskQueue).
struct CudaTaskWorkerContext {
  TaskBase* current[32];
  std::uint32_t module;
  DeviceTaskStage stage;
};

// A worker block's dynamic shared memory: its warps' group, then each warp's context.
inline constexpr std::size_t cuda_task_group_bytes =
    (sizeof(DeviceTaskWorkerGroup) + alignof(CudaTaskWorkerContext) - 1) / alignof(CudaTaskWorkerContext) *
    alignof(CudaTaskWorkerContext);
inline constexpr std::size_t cuda_task_block_shared_bytes(int warps) {
  return cuda_task_group_bytes + std::size_t(warps) * sizeof(CudaTaskWorkerContext);
}

#if defined(__CUDACC__)
__device__ inline DeviceTaskWorkerGroup& cuda_task_worker_group() {
  return *cuda_dynamic_shared_memory<DeviceTaskWorkerGroup>();
}
__device__ inline CudaTaskWorkerContext& cuda_task_worker_context() {
  unsigned char* const contexts = cuda_dynamic_shared_memory<unsigned char>() + cuda_task_group_bytes;
  return reinterpret_cast<CudaTaskWorkerContext*>(contexts)[threadIdx.z];
}

#endif

// DeviceTaskQueue's view of the worker running: the block's stage on the GPU; none on the host,
// which cannot reach the rings (device memory).
struct CudaTaskQueueContext {
  KOKKOS_INLINE_FUNCTION static DeviceTaskStage* stage() {
#if defined(__CUDA_ARCH__)
    return &cuda_task_worker_context().stage;
#else
    return nullptr;
#endif
  }
  KOKKOS_INLINE_FUNCTION static bool rings_reachable() {
#if defined(__CUDA_ARCH__)
    return true;
#else
    return false;
#endif
  }
};

#if defined(__CUDACC__)
constexpr unsigned cuda_task_full_warp = 0xffffffffu;
// An idle worker's pause doubles from 64 ns up to this.
constexpr unsigned cuda_task_longest_pause = 4096;

template <class T>
__device__ T* cuda_task_shfl_pointer(T* p, int source) {
  return reinterpret_cast<T*>(
      __shfl_sync(cuda_task_full_warp, static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)), source));
}

// DeviceTaskQueue::claim_ready with a warp's lanes: each lane looks at one shard's ring, so that
// the home shard and the next 31 (or, with `every_shard`, all of them) are looked at in one
// step; lane 0 claims up to 32 tickets of the first ring found with tasks.  Every lane returns
// the same claim.
template <class Queue>
__device__ DeviceTaskClaim cuda_task_claim(Queue* queue, int home, int lane, bool every_shard) {
  const int shards = queue->shards();
  const int looked_at = every_shard || shards < 32 ? shards : 32;
  for (int p = 0; p < task_priority_count; ++p) {
    for (int base = 0; base < looked_at; base += 32) {
      const int k = base + lane;
      const bool has_tasks = k < looked_at && queue->ring(p, (home + k) % shards).size() > 0;
      unsigned found = __ballot_sync(cuda_task_full_warp, has_tasks);
      while (found != 0u) {
        const int first_found = __ffs(found) - 1;
        found &= found - 1u;
        DeviceTaskClaim c;
        if (lane == 0) {
          DeviceTaskRing& r = queue->ring(p, (home + base + first_found) % shards);
          c.count = r.reserve_pop(32, c.first);
          c.ring = c.count > 0 ? &r : nullptr;
        }
        c.count = __shfl_sync(cuda_task_full_warp, c.count, 0);
        if (c.count > 0) {
          c.first = __shfl_sync(cuda_task_full_warp, c.first, 0);
          c.ring = cuda_task_shfl_pointer(c.ring, 0);
          c.stolen = base + first_found != 0;
          return c;
        }
      }
    }
    DeviceTaskClaim c;
    c.single = cuda_task_shfl_pointer(lane == 0 ? queue->pop_overflow(p) : nullptr, 0);
    if (c.single != nullptr) return c;
  }
  return DeviceTaskClaim();
}

// DeviceTaskQueue::flush_stage with a warp's lanes: 32 staged tasks at a time, one reservation
// per priority for all of them, each lane putting its own; idle workers are woken for the claims
// of 32 (a warp's) that each 32 make.
template <class Queue>
__device__ void cuda_task_flush_stage(Queue* queue, DeviceTaskStage& stage, int lane) {
  __syncwarp();
  const int staged = stage.staged();
  int claims = 0;
  for (int base = 0; base < staged; base += 32) {
    TaskBase* t = base + lane < staged ? stage.tasks[base + lane] : nullptr;
    // Read before any push: a pushed task may run at once.
    const int priority = t != nullptr ? int(t->m_priority) : -1;
    const bool team = t != nullptr && t->m_kind == TaskKind::Team;
    unsigned below;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
    for (int p = 0; p < task_priority_count; ++p) {
      const unsigned mine = __ballot_sync(cuda_task_full_warp, priority == p);
      if (mine == 0u) continue;
      const int teams = __popc(__ballot_sync(cuda_task_full_warp, priority == p && team));
      claims += Queue::claims_for(teams, __popc(mine) - teams, 32);
      DeviceTaskRing& r = queue->ring(p, stage.shard);
      std::uint32_t ticket = 0;
      int reserved = 0;
      if (lane == 0) reserved = r.reserve_push(__popc(mine), ticket);
      reserved = __shfl_sync(cuda_task_full_warp, reserved, 0);
      ticket = __shfl_sync(cuda_task_full_warp, ticket, 0);
      if (priority == p) {
        if (reserved) {
          r.put(ticket + __popc(mine & below), t);
        } else {
          queue->push_direct(t, stage.shard);
        }
      }
    }
  }
  __syncwarp();
  if (lane == 0) {
    stage.size = 0;
    queue->report_counts(stage, claims);
  }
  __syncwarp();
}

template <class T>
__device__ T cuda_task_warp_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(cuda_task_full_warp, v, offset);
  return v;
}

// DeviceTaskQueue::finished with a warp's lanes (every lane returns the same answer).
template <class Queue>
__device__ bool cuda_task_finished(Queue* queue, int lane) {
  const int shards = queue->shards();
  long long completed = 0, spawned = 0;
  for (int s = lane; s < shards; s += 32) completed += atomic_load_relaxed(&queue->counters(s).completed);
  completed = cuda_task_warp_sum(completed) + atomic_load_relaxed(&queue->m_host_completed);
  // Every lane's completed counts are read before any lane reads a spawned count: the warp
  // barrier orders the lanes, the fence orders the reads against other SMs' updates.
  __syncwarp();
  __threadfence();
  for (int s = lane; s < shards; s += 32) spawned += atomic_load_relaxed(&queue->counters(s).spawned);
  spawned = cuda_task_warp_sum(spawned) + atomic_load_relaxed(&queue->m_host_spawned);
  return __shfl_sync(cuda_task_full_warp, int(completed == spawned), 0) != 0;
}

// DeviceTaskQueue::any_ready with a warp's lanes, each looking at every 32nd shard.
template <class Queue>
__device__ bool cuda_task_any_ready(Queue* queue, int lane) {
  const int shards = queue->shards();
  bool found = false;
  for (int p = 0; p < task_priority_count; ++p) {
    for (int s = lane; s < shards; s += 32) found = found || queue->ring(p, s).size() > 0;
    if (lane == 0) found = found || queue->overflow_nonempty(p);
  }
  return __any_sync(cuda_task_full_warp, found);
}

// The GPU's nanosecond clock, the same on every SM (its resolution is the GPU's: up to a
// microsecond on some).
__device__ inline std::int64_t cuda_task_clock_ns() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return static_cast<std::int64_t>(ns);
}

__device__ inline int cuda_task_sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return static_cast<int>(id);
}

// DeviceTaskQueue::hand_back_extra_teams with a warp's lanes, for a claim whose TaskTeam tasks
// are on `team_lanes` (two or more): while workers are idle, the first stays and the others go
// back to the rings now, before anything runs.  Returns the lane's task, or null where it went
// back.  Not inlined: the worker kernel's loop stays as short as without it.
template <class Queue>
__device__ __noinline__ TaskBase* cuda_task_hand_back_extra_teams(Queue* queue, DeviceTaskStage& stage, int lane,
                                                                   TaskBase* t, unsigned team_lanes) {
  if (__shfl_sync(cuda_task_full_warp, lane == 0 ? int(queue->m_idle.any_counted()) : 0, 0) == 0) return t;
  const unsigned first_team = team_lanes & (0u - team_lanes);
  const bool back = ((team_lanes & ~first_team) >> lane & 1u) != 0u;
  if (back) queue->push_ready(t);
  cuda_task_flush_stage(queue, stage, lane);
  return back ? nullptr : t;
}

// A member's pause while another warp of its block is the scout (it reads shared memory only).
constexpr unsigned cuda_task_member_pause = 256;

// A worker counted idle looks at the rings when woken (DeviceTaskQueue's wake tokens), and also
// every this many of its longest pauses: the tokens are how the work reaches idle workers, and
// this bounds how long one can miss it (a pusher always takes its own tasks next, so a missed
// token costs parallelism, never progress).
constexpr unsigned cuda_task_idle_look_every = 16;

// DeviceTaskWorkerGroup's turn of a warp whose claim over every shard found nothing: true when
// the warp goes on looking itself (it is, or has become, its block's scout); otherwise the warp
// waits, counted idle, until the group says to look again, and returns false.
template <class Queue>
__device__ bool cuda_task_look_or_wait(Queue* queue, DeviceTaskWorkerGroup& group, int warp, int lane) {
  std::uint32_t seen = 0;
  int look = 0;
  if (lane == 0) look = int(group.look_myself(warp, seen));
  if (__shfl_sync(cuda_task_full_warp, look, 0) != 0) return true;
  if (lane == 0) {
    queue->m_idle.enter();
    while (!group.should_look(seen)) __nanosleep(cuda_task_member_pause);
    queue->m_idle.leave();
  }
  __syncwarp();
  return false;
}

// The persistent kernel: every warp is a worker.  Its lanes claim up to 32 ready tasks; the
// TaskSingle ones run at once, one per lane, then the TaskTeam ones one after the other with the
// whole warp; what they made ready goes from the stage into the home shard's rings.  A worker
// that finds nothing looks at every shard, then, if no other warp of its block does so already
// (the group's scout), at termination, and sleeps a little longer each time; if another does, it
// waits for that one's news.
//
// A cycle (a task respawned behind a future that depends on it) leaves tasks that never become
// ready: the workers stop when every one that has started is idle with nothing ready anywhere
// (the protocol of impl/tasking/Kokkos_DeviceTaskIdleWorkers.hpp); a worker counts itself
// idle once it has slept the longest pause; counted idle, it waits for a wake token (or every
// worker counted, or every cuda_task_idle_look_every-th pause) before it looks at the rings again.
template <class Scheduler, class Module>
__global__ void __launch_bounds__(32 * cuda_task_max_warps_per_block)
    cuda_task_worker_kernel(typename Scheduler::queue_type* queue, std::uint32_t module) {
  using queue_type = typename Scheduler::queue_type;
  const int lane = static_cast<int>(threadIdx.y);
  const int warp = static_cast<int>(threadIdx.z);
  const bool grouped = blockDim.z > 1;
  DeviceTaskWorkerGroup& group = cuda_task_worker_group();
  CudaTaskWorkerContext& context = cuda_task_worker_context();
  DeviceTaskStage& stage = context.stage;
  if (lane == 0) {
    if (warp == 0) group.reset();
    context.module = module;
    stage.reset(cuda_task_sm_id() % queue->shards());
    queue->m_idle.start();
  }
  context.current[lane] = nullptr;
  __syncthreads();  // the group is reset before any warp uses it
  typename Scheduler::member_type member(Scheduler::impl_from_queue(queue));
  const auto destroy_closure = [](TaskBase* done) { done->m_apply(done, TaskOp::DestroyClosure, nullptr); };
  unsigned pause = 0;
  bool every_shard = false;
  bool counted_idle = false;
  unsigned idle_pauses = 0;  // since the worker counted itself idle; 0: it looks at once
  int all_idle_looks = 0;
  while (true) {
    if (__shfl_sync(cuda_task_full_warp, int(queue->stopped()), 0) != 0) break;
    if (counted_idle) {
      int cue = 0;  // 1: look at the rings; 2: every worker is counted idle
      if (lane == 0) {
        const bool all_idle = queue->m_idle.all_counted();
        const bool look = all_idle || idle_pauses % cuda_task_idle_look_every == 0 || queue->m_idle.take_token();
        cue = (look ? 1 : 0) | (all_idle ? 2 : 0);
      }
      cue = __shfl_sync(cuda_task_full_warp, cue, 0);
      ++idle_pauses;
      if ((cue & 1) == 0) {
        __nanosleep(pause);
        continue;
      }
      if (!cuda_task_any_ready(queue, lane)) {
        const bool all_idle = (cue & 2) != 0;
        if (cuda_task_finished(queue, lane)) break;
        // Seen twice, a pause apart, for a margin.
        all_idle_looks = all_idle ? all_idle_looks + 1 : 0;
        if (all_idle_looks >= 2 && lane == 0) queue->stop(cuda_task_stop_cycle, 0);
        __nanosleep(pause);
        continue;
      }
      if (lane == 0) queue->m_idle.leave();
      __syncwarp();
      counted_idle = false;
      idle_pauses = 0;
      all_idle_looks = 0;
      pause = 0;
    }
    const DeviceTaskClaim claim = cuda_task_claim(queue, stage.shard, lane, every_shard);
    const int claimed = claim.single != nullptr ? 1 : claim.count;
    if (claimed == 0) {
      if (!every_shard) {
        every_shard = true;  // look everywhere before sleeping
        continue;
      }
      if (cuda_task_finished(queue, lane)) {
        if (lane == 0) queue->m_idle.wake_all();
        break;
      }
      if (grouped && !cuda_task_look_or_wait(queue, group, warp, lane)) {
        if (__shfl_sync(cuda_task_full_warp, lane == 0 ? int(group.is_over()) : 0, 0) != 0) break;
        every_shard = false;
        pause = 0;
        continue;
      }
      if (pause == cuda_task_longest_pause) {
        if (lane == 0) queue->m_idle.enter();
        counted_idle = true;
      }
      pause = pause == 0 ? 64 : (pause < cuda_task_longest_pause ? 2 * pause : pause);
      __nanosleep(pause);
      continue;
    }
    every_shard = false;
    pause = 0;
    if (grouped && lane == 0) group.found_work(warp);
    const std::int64_t claimed_at = lane == 0 ? cuda_task_clock_ns() : 0;
    TaskBase* t = lane < claimed ? queue_type::take(claim, lane) : nullptr;
    if (t != nullptr && t->m_module != module) {
      // Its entry point is another module's code, which this kernel must not call.
      ::printf("Kokkos::wait(TaskScheduler<Cuda>): a task spawned from translation unit (module %u) met the "
               "kernel of module %u\n",
               unsigned(t->m_module), unsigned(module));
      queue->stop(cuda_task_stop_foreign_module, t->m_module);
      queue->push_direct(t, stage.shard);
      t = nullptr;
    }
    unsigned team_lanes = __ballot_sync(cuda_task_full_warp, t != nullptr && t->m_kind == TaskKind::Team);
    if ((team_lanes & (team_lanes - 1u)) != 0u) {
      t = cuda_task_hand_back_extra_teams(queue, stage, lane, t, team_lanes);
      team_lanes &= __ballot_sync(cuda_task_full_warp, t != nullptr);
    }
    const bool team = (team_lanes >> lane & 1u) != 0u;
    const unsigned running = __ballot_sync(cuda_task_full_warp, t != nullptr);
    if (t != nullptr && !team) {
      queue_type::begin_execution(t);
      context.current[lane] = t;
      member.impl_set_team_of_one(true);
      t->m_apply(t, TaskOp::Run, &member);
      context.current[lane] = nullptr;
      queue->end_execution(t, destroy_closure);
    }
    unsigned teams = team_lanes;
    member.impl_set_team_of_one(false);
    while (teams != 0u) {
      const int owner = __ffs(teams) - 1;
      teams &= teams - 1u;
      TaskBase* const tt = cuda_task_shfl_pointer(t, owner);
      if (lane == 0) queue_type::begin_execution(tt);
      context.current[lane] = tt;
      __syncwarp();
      tt->m_apply(tt, TaskOp::Run, &member);
      __syncwarp();
      context.current[lane] = nullptr;
      if (lane == 0) queue->end_execution(tt, destroy_closure);
      __syncwarp();
    }
    if (lane == 0 && running != 0u)
      stage.note_batch(__popc(running), __popc(team_lanes), claim.stolen, cuda_task_clock_ns() - claimed_at);
    cuda_task_flush_stage(queue, stage, lane);
  }
  cuda_task_flush_stage(queue, stage, lane);
  if (lane == 0) {
    queue->report_statistics(stage);
    group.end();
  }
}
#endif

}  // namespace Kokkos::Impl

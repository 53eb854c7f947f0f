#pragma once
// A recorded launch (FusionLaunch): a copy of its functor and policy plus the functions
// instantiated for its types, and a run of launches ready to execute as one (FusedRun).
//
// A recorded launch has three functions instantiated for its types: run_chunk (the launch's own
// tight loop over [b, e), so a fused run costs per element what the unfused loops cost),
// execute_alone (the ordinary dispatch, for a run of one) and drive (one dispatch of a whole run
// on the launch's execution space).
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_Macros.hpp>
#include <Kokkos_PartitionSpace.hpp>
#include <impl/fusion/Kokkos_FusionAnalysis.hpp>
#include <impl/fusion/Kokkos_FusionDevicePlugin.hpp>
#include <impl/fusion/Kokkos_FusionSettings.hpp>
#include <impl/fusion/Kokkos_FusionTemporaries.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <Host/Kokkos_HostParallelMDRange.hpp>
#include <Host/Kokkos_HostParallelRange.hpp>
#include <Host/Kokkos_HostParallelReduce.hpp>
#include <Host/Kokkos_HostTeam.hpp>
#include <impl/Kokkos_LocalFunctorCopy.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>
#include <impl/view/Kokkos_SharedAlloc.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace Kokkos::Impl {

// A declared access before it joins a window: its geometry plus the exact inner shape, and the
// allocation record the window holds while the launch is pending (null: unmanaged).
struct FusionAccessDecl {
  FusionAccess access;
  FusionShape shape;
  SharedAllocationRecord* record = nullptr;
  // A View in memory the default execution space cannot access (HostSpace on Cuda): a device
  // launch that declares it stops with a message naming it.
  bool device_inaccessible = false;
};

// A launch inside a window that runs at once: on one thread, with nothing recorded before it and
// Views that fit in L2 (fusion_inline_bytes()).
template <class ExecSpace, class Accesses>
bool fusion_runs_inline(const ExecSpace& space, const Accesses& accesses) {
  if (space.concurrency() != 1) return false;
  std::int64_t bytes = 0;
  for (const FusionAccessDecl& d : accesses) bytes += d.access.span_bytes;
  return bytes <= fusion_inline_bytes();
}

struct FusionNoReduction {
  void operator()(std::int64_t, std::int64_t) const {}
};

struct FusionLaunch {
  void* blob = nullptr;
  void (*run_chunk)(const void* blob, std::int64_t b, std::int64_t e) = nullptr;
  void (*execute_alone)(const void* blob) = nullptr;
  // One dispatch of a whole run, on the workers or worker by worker on the calling thread.
  void (*drive)(const void* blob, const FusedRun& run, bool on_caller) = nullptr;
  int (*pool_size)(const void* blob) = nullptr;  // of the launch's execution space
  void (*destroy)(void* blob) = nullptr;
  std::uint32_t tools_device_id = 0;  // reported with the launch (impl/fusion/Kokkos_FusionReport.hpp)
  bool rebasable = false;             // its functor can run on the chunk buffers
  bool touches_temporary = false;     // set at the flush: it declares an eliminated temporary
  // body(context, rank, size) once on each worker of the launch's execution space.
  void (*on_workers)(const void* blob, void (*body)(void* context, int rank, int size), void* context) = nullptr;
  const void* space = nullptr;  // the execution space type
  std::int64_t begin = 0, end = 0;
  std::size_t blob_bytes = 0;
  // run_chunk with the run's eliminated temporaries moved onto the worker's buffer; null
  // where the functor cannot be moved (FusionRebasable).
  void (*run_chunk_rebased)(const void* blob, std::int64_t b, std::int64_t e, const FusionRebase& rebase) = nullptr;
  const FusionDeviceLaunch* device = nullptr;  // set for launches on a device back end
  bool on_host = true;                          // its execution space is a host back end
  void* result = nullptr;                       // a reduction's result and its bytes (verify mode)
  std::size_t result_bytes = 0;
};

// One run of two or more launches over the same range, executed as one dispatch (two when a
// skewed run has halo indices between workers).
struct FusedRun {
  const FusionLaunch* launches = nullptr;
  std::uint32_t num_for = 0;  // range_for launches; a reduction, if any, follows them
  bool reduces = false;
  std::uint32_t split = 0;    // launches [0, split) are the head, [split, num_for) the tail
  std::int64_t begin = 0, end = 0, chunk = 1024;
  std::int64_t lag = 0, halo_lo = 0, halo_hi = 0;
  mutable std::atomic<int> workers{1};  // size of the first dispatch, for the halo pass
  // Eliminated temporaries: worker r's buffer is buffers + r * buffer_bytes (never skewed).
  const FusionTemporary* temporaries = nullptr;
  std::uint32_t num_temporaries = 0;
  std::byte* buffers = nullptr;
  std::int64_t buffer_bytes = 0;

  void run_launches(std::uint32_t from, std::uint32_t to, std::int64_t b, std::int64_t e) const {
    for (std::uint32_t k = from; k < to; ++k) launches[k].run_chunk(launches[k].blob, b, e);
  }
  void run_launches(std::uint32_t from, std::uint32_t to, std::int64_t b, std::int64_t e,
                    const FusionRebase& rebase) const {
    for (std::uint32_t k = from; k < to; ++k) {
      const FusionLaunch& l = launches[k];
      if (l.touches_temporary) {
        l.run_chunk_rebased(l.blob, b, e, rebase);
      } else {
        l.run_chunk(l.blob, b, e);
      }
    }
  }
  bool skewed() const { return split < num_for; }
  bool needs_halo_pass() const { return skewed() && workers.load(std::memory_order_relaxed) > 1 && (halo_lo > 0 || halo_hi > 0); }

  // The launches and their functors were just written by the recording thread: a worker
  // that met them one by one would pay one cache-to-cache transfer per line in sequence.
  void prefetch_launches(std::uint32_t count) const {
    for (std::uint32_t k = 0; k < count; ++k) {
      const auto* blob = static_cast<const char*>(launches[k].blob);
      const std::size_t bytes = std::min<std::size_t>(launches[k].blob_bytes, 1024);
      for (std::size_t offset = 0; offset < bytes; offset += KOKKOS_IMPL_CACHE_LINE) __builtin_prefetch(blob + offset);
    }
  }

  template <class ReduceChunk>
  void work(int rank, int size, const ReduceChunk& reduce_chunk) const {
    if (rank == 0) {
      workers.store(size, std::memory_order_relaxed);
    } else {
      prefetch_launches(num_for + (std::is_same_v<ReduceChunk, FusionNoReduction> ? 0 : 1));
    }
    const HostBlock<std::int64_t> block = range_block<std::int64_t>(begin, end, rank, size);
    if (num_temporaries > 0) {
      const FusionRebase rebase{temporaries, num_temporaries, buffers + rank * buffer_bytes};
      for (std::int64_t cb = block.begin; cb < block.end;) {
        const std::int64_t ce = block.end - cb > chunk ? cb + chunk : block.end;
        run_launches(0, num_for, cb, ce, rebase);
        reduce_chunk(cb, ce);
        cb = ce;
      }
      return;
    }
    if (!skewed()) {
      for (std::int64_t cb = block.begin; cb < block.end;) {
        const std::int64_t ce = block.end - cb > chunk ? cb + chunk : block.end;
        run_launches(0, num_for, cb, ce);
        reduce_chunk(cb, ce);
        cb = ce;
      }
      return;
    }
    // The tail trails the head by `lag` indices; indices whose conflicting reads lie in a
    // neighbour's block are left to the halo pass.
    const std::int64_t lo = block.begin > begin ? halo_lo : 0, hi = block.end < end ? halo_hi : 0;
    const std::int64_t tail_lo = std::min(block.begin + lo, block.end);
    const std::int64_t tail_hi = std::max(block.end - hi, tail_lo);
    std::int64_t tail_done = tail_lo;
    for (std::int64_t cb = block.begin; cb < block.end;) {
      const std::int64_t ce = block.end - cb > chunk ? cb + chunk : block.end;
      run_launches(0, split, cb, ce);
      const std::int64_t tail_end = ce == block.end ? tail_hi : std::min(ce - lag, tail_hi);
      if (tail_end > tail_done) {
        run_launches(split, num_for, tail_done, tail_end);
        tail_done = tail_end;
      }
      cb = ce;
    }
  }

  // After every worker's head has run: the tail on the halo indices of each block.
  void halo_pass(int rank, int size) const {
    const int blocks = workers.load(std::memory_order_relaxed);
    for (int k = rank; k < blocks; k += size) {
      const HostBlock<std::int64_t> block = range_block<std::int64_t>(begin, end, k, blocks);
      const std::int64_t lo = block.begin > begin ? halo_lo : 0, hi = block.end < end ? halo_hi : 0;
      const std::int64_t first_end = std::min(block.begin + lo, block.end);
      const std::int64_t second_begin = std::max(block.end - hi, first_end);
      if (first_end > block.begin) run_launches(split, num_for, block.begin, first_end);
      if (block.end > second_begin) run_launches(split, num_for, second_begin, block.end);
    }
  }
};

// Calls body(workers) with the space itself or, on the calling thread, with
// HostSequentialWorkers over it.
template <class ExecSpace, class Body>
void fusion_on(const ExecSpace& space, bool on_caller, const Body& body) {
  if (on_caller) {
    body(HostSequentialWorkers<ExecSpace>{space});
  } else {
    body(space);
  }
}

template <class Functor, class Policy>
struct FusionForBlob {
  using ExecSpace = typename Policy::execution_space;
  Functor functor;
  Policy policy;

  // A RangePolicy's indices [b, e); an MDRangePolicy's box with its first index in [b, e)
  // (fused by its first dimension: see record_for).
  static void run_chunk(const void* self, std::int64_t b, std::int64_t e) {
    using Tag = typename Policy::work_tag;
    const auto& s = *static_cast<const FusionForBlob*>(self);
    with_local_functor_copy(s.functor, [&](const Functor& f) {
      if constexpr (is_mdrange_policy<Policy>::value) {
        using I = typename Policy::index_type;
        I lo[Policy::rank], hi[Policy::rank];
        for (int d = 0; d < Policy::rank; ++d) {
          lo[d] = static_cast<I>(s.policy.m_lower[d]);
          hi[d] = static_cast<I>(s.policy.m_upper[d]);
        }
        lo[0] = static_cast<I>(b);
        hi[0] = static_cast<I>(e);
        HostMDRangeTiles<Policy>::run_box(lo, hi, f);
      } else {
        using I = typename Policy::member_type;
        for (I i = static_cast<I>(b); i < static_cast<I>(e); ++i) invoke_functor<Tag>(f, i);
      }
    });
  }
  static constexpr bool rebasable = FusionRebasable<Functor> && !is_mdrange_policy<Policy>::value;
  static void run_chunk_rebased(const void* self, std::int64_t b, std::int64_t e, const FusionRebase& rebase) {
    if constexpr (rebasable) {
      using Tag = typename Policy::work_tag;
      using I = typename Policy::member_type;
      with_rebased_functor_copy(static_cast<const FusionForBlob*>(self)->functor, rebase, b, [&](const Functor& f) {
        for (I i = static_cast<I>(b); i < static_cast<I>(e); ++i) invoke_functor<Tag>(f, i);
      });
    }
  }
  static void execute_alone(const void* self) {
    const auto& s = *static_cast<const FusionForBlob*>(self);
    ParallelFor<Functor, Policy, ExecSpace>(s.functor, s.policy).execute();
  }
  static void on_workers(const void* self, void (*body)(void*, int, int), void* context) {
    if constexpr (HostBackend<ExecSpace>) {
      static_cast<const FusionForBlob*>(self)->policy.space().impl_run_on_workers(
          [&](int rank, int size) { body(context, rank, size); });
    }
  }
  static void drive(const void* self, const FusedRun& run, bool on_caller) {
    if constexpr (HostBackend<ExecSpace>) {
      const ExecSpace& space = static_cast<const FusionForBlob*>(self)->policy.space();
      fusion_on(space, on_caller, [&](const auto& workers) {
        workers.impl_run_on_workers([&](int rank, int size) { run.work(rank, size, FusionNoReduction{}); });
        if (run.needs_halo_pass()) workers.impl_run_on_workers([&](int rank, int size) { run.halo_pass(rank, size); });
      });
    }
  }
};

template <class CombinedFunctorReducer, class Policy>
struct FusionReduceBlob {
  using ExecSpace = typename Policy::execution_space;
  using Reducer = typename CombinedFunctorReducer::reducer_type;
  CombinedFunctorReducer functor_reducer;
  Policy policy;
  typename Reducer::pointer_type result;

  static void execute_alone(const void* self) {
    const auto& s = *static_cast<const FusionReduceBlob*>(self);
    ParallelReduce<CombinedFunctorReducer, Policy, ExecSpace>(s.functor_reducer, s.policy, s.result).execute();
  }
  using Functor = typename CombinedFunctorReducer::functor_type;
  using value_type = typename Reducer::value_type;
  using reference_type = typename Reducer::reference_type;

  using Accumulator = HostWorkerAccumulator<Functor, Reducer>;

  // Out of line: inlined into host_reduce's worker, GCC kept the accumulator in memory, a store
  // and a reload per element (axpby + dot fused ran 2.5x slower than unfused).  The worker's
  // accumulator runs its chunks in order, as the plain launch runs its block: the same bits.
  KOKKOS_IMPL_NOINLINE static void reduce_chunk(const Functor& kept, std::int64_t b, std::int64_t e, Accumulator& acc) {
    using Tag = typename Policy::work_tag;
    using I = typename Policy::member_type;
    with_local_functor_copy(kept, [&](const Functor& f) { acc.template run<Tag>(f, static_cast<I>(b), static_cast<I>(e)); });
  }

  static void drive(const void* self, const FusedRun& run, bool on_caller) {
    if constexpr (HostBackend<ExecSpace>) {
      const auto& s = *static_cast<const FusionReduceBlob*>(self);
      const auto& f = s.functor_reducer.get_functor();
      const Reducer& reducer = s.functor_reducer.get_reducer();
      fusion_on(s.policy.space(), on_caller, [&](const auto& workers) {
        host_reduce(workers, reducer, s.result, [&](int rank, int size, reference_type acc) {
          Accumulator worker(reducer, acc);
          run.work(rank, size, [&](std::int64_t b, std::int64_t e) { reduce_chunk(f, b, e, worker); });
          worker.finish();
        });
      });
    }
  }
};

template <class Functor, class Policy>
struct FusionOpaqueBlob {
  using ExecSpace = typename Policy::execution_space;
  Functor functor;
  Policy policy;
  static void execute_alone(const void* self) {
    const auto& s = *static_cast<const FusionOpaqueBlob*>(self);
    ParallelFor<Functor, Policy, ExecSpace>(s.functor, s.policy).execute();
  }
};

// The pool size of a fusible blob's execution space (FusionLaunch::pool_size).
template <class Blob>
int fusion_blob_pool_size(const void* blob) {
  return static_cast<const Blob*>(blob)->policy.space().impl_thread_pool_size();
}

template <class Blob>
void fusion_destroy_blob(void* blob) {
  static_cast<Blob*>(blob)->~Blob();
}

}  // namespace Kokkos::Impl

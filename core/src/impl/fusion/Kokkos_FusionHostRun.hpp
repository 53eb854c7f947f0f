#pragma once
// Fused execution of a run on a host back end (FusionWindow::execute and what it calls).
//
// Each worker takes its static block of the range and walks it in chunks sized so the run's
// working set stays in cache; for each chunk it runs every functor of the run in program order,
// so a temporary written by one launch is read by the next from cache.  A reduction ending the
// run accumulates each chunk into the worker's partial exactly as the unfused host reduce does
// (same blocks, same order, joined in rank order): the bits agree.
#include <impl/fusion/Kokkos_FusionWindow.hpp>

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

inline std::int64_t fusion_run_chunk(const FusionRun& run);

inline void FusionWindow::prepare(const FusionRun& run, FusedRun& fused) const {
  const FusionLaunch* launches = m_launches.data() + run.first;
  const bool reduces = m_summaries[run.first + run.count - 1].kind == FusionLaunchKind::range_reduce;
  fused.launches = launches;
  fused.num_for = run.count - (reduces ? 1 : 0);
  fused.reduces = reduces;
  fused.split = run.split >= 0 ? static_cast<std::uint32_t>(run.split) : fused.num_for;
  fused.begin = launches[0].begin;
  fused.end = launches[0].end;
  fused.lag = run.lag;
  fused.halo_lo = run.halo_lo;
  fused.halo_hi = run.halo_hi;
  fused.chunk = fusion_run_chunk(run);
  if (!m_temporary_slot.empty() && m_temporary_slot[run.first] >= 0) {
    const RunTemporaries& t = m_run_temporaries[static_cast<std::size_t>(m_temporary_slot[run.first])];
    fused.temporaries = m_temporaries.data() + t.first_temporary;
    fused.num_temporaries = t.count;
    fused.buffers = m_buffers.get() + t.buffer_offset;
    fused.buffer_bytes = t.buffer_bytes;
  }
}

// Chunks small enough that the run's distinct partitions stay in L1 while every launch passes
// over them, and at least 2048 indices, so that each launch's per-chunk call and loop start are
// noise; a run over many arrays then keeps its chunk in L2 instead.  An index that stands for a
// whole row (a rank-2 subview per index) is work enough on its own: the floor never takes a
// chunk past eight budgets (a 1000-column five-point sweep: 4 rows, not 2048).
inline std::int64_t fusion_run_chunk(const FusionRun& run) {
  const std::int64_t budget = fusion_chunk_bytes();
  const std::int64_t per_index = run.bytes_per_index > 0 ? run.bytes_per_index : 8;
  const std::int64_t floor = std::clamp<std::int64_t>(8 * budget / per_index, 1, 2048);
  return std::clamp<std::int64_t>(budget / per_index, floor, 1 << 16);
}

// Which held allocations are temporaries this flush eliminates (impl/fusion/Kokkos_FusionTemporaries.hpp
// gives the conditions), their places in each worker's chunk buffer, and the buffers.
inline void FusionWindow::find_temporaries(const FusionPlan& plan, Kokkos::Experimental::FusionStatistics& delta) {
  m_temporaries.clear();
  m_run_temporaries.clear();
  m_temporary_slot.clear();
  if (m_partial || !fusion_eliminates_temporaries()) return;
  const auto candidate = [](const SharedAllocationRecord* r) { return r->impl_fusion_reserved() && r->use_count() == 1; };
  if (std::none_of(m_held.begin(), m_held.end(), candidate)) return;
  const std::size_t n = m_launches.size();
  std::vector<std::uint32_t> run_of(n);
  for (std::uint32_t r = 0; r < plan.runs.size(); ++r) {
    for (std::uint32_t k = plan.runs[r].first; k < plan.runs[r].first + plan.runs[r].count; ++k) run_of[k] = r;
  }
  struct Found {
    std::uint32_t run;
    SharedAllocationRecord* record;
    FusionTemporary temporary;
    std::int64_t slice_bytes;
  };
  std::vector<Found> found;
  for (SharedAllocationRecord* record : m_held) {
    if (!candidate(record)) continue;
    const void* allocation = record->data();
    const FusionAccess* geometry = nullptr;
    std::int64_t run = -1;
    bool ok = true;
    for (std::size_t k = 0; k < n && ok; ++k) {
      const FusionLaunchSummary& s = m_summaries[k];
      bool touches = false, only_writes = true;
      for (std::uint32_t a = s.first_access; a < s.first_access + s.num_accesses; ++a) {
        const FusionAccess& x = m_accesses[a];
        if (x.allocation != allocation) continue;
        touches = true;
        if (geometry == nullptr) geometry = &x;
        ok = ok && x.offset == geometry->offset && x.stride == geometry->stride &&
             x.slice_bytes == geometry->slice_bytes && x.privilege != Privilege::reduce;
        only_writes = only_writes && x.privilege == Privilege::write;
      }
      if (!touches) continue;
      // A reduction never qualifies: its functor argument holds a counted View until the flush.
      ok = ok && m_launches[k].rebasable && s.kind == FusionLaunchKind::range_for;
      if (run < 0) {
        run = run_of[k];
        ok = ok && only_writes;  // its contents before the run are never read
      } else {
        ok = ok && run_of[k] == static_cast<std::uint32_t>(run);
      }
    }
    if (!ok || run < 0) continue;
    const FusionRun& r = plan.runs[static_cast<std::size_t>(run)];
    if (r.count < 2 || r.split >= 0 || geometry->stride <= 0 || geometry->slice_bytes <= 0 ||
        geometry->slice_bytes > geometry->stride) {
      continue;
    }
    found.push_back({static_cast<std::uint32_t>(run), record,
                     FusionTemporary{allocation, geometry->offset, geometry->stride, 0, static_cast<std::int64_t>(record->size())},
                     geometry->slice_bytes});
  }
  if (found.empty()) return;
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.run < b.run; });
  m_temporary_slot.assign(n, -1);
  std::int64_t total = 0;
  for (std::size_t f = 0; f < found.size();) {
    const FusionRun& run = plan.runs[found[f].run];
    const std::int64_t chunk = fusion_run_chunk(run);
    RunTemporaries slot;
    slot.first_temporary = static_cast<std::uint32_t>(m_temporaries.size());
    for (; f < found.size() && found[f].run == found[slot.first_temporary].run; ++f) {
      FusionTemporary t = found[f].temporary;
      t.buffer_offset = slot.buffer_bytes;
      slot.buffer_bytes += ((chunk - 1) * t.stride + found[f].slice_bytes + 63) / 64 * 64;
      m_temporaries.push_back(t);
      found[f].record->impl_set_fusion_eliminated();
      delta.temporaries_eliminated += 1;
      delta.temporary_bytes_eliminated += found[f].record->size();
      for (std::uint32_t k = run.first; k < run.first + run.count; ++k) {
        const FusionLaunchSummary& s = m_summaries[k];
        for (std::uint32_t a = s.first_access; a < s.first_access + s.num_accesses; ++a) {
          if (m_accesses[a].allocation == t.allocation) m_launches[k].touches_temporary = true;
        }
      }
    }
    slot.count = static_cast<std::uint32_t>(m_temporaries.size()) - slot.first_temporary;
    // Every worker of the run's space may take part (the caller's way runs them all in turn).
    const FusionLaunch& first = m_launches[run.first];
    const FusionLaunch& last = m_launches[run.first + run.count - 1];
    // A device kernel keeps its tiles in on-chip memory instead (Cuda/Kokkos_Cuda_Fusion.hpp).
    const int workers = first.device != nullptr ? 0 : std::max(first.pool_size(first.blob), last.pool_size(last.blob));
    slot.buffer_offset = total;
    total += slot.buffer_bytes * workers;
    m_temporary_slot[run.first] = static_cast<std::int32_t>(m_run_temporaries.size());
    m_run_temporaries.push_back(slot);
  }
  if (static_cast<std::size_t>(total) > m_buffers_capacity) {
    m_buffers.reset(static_cast<std::byte*>(::operator new(static_cast<std::size_t>(total), std::align_val_t{64})));
    m_buffers_capacity = static_cast<std::size_t>(total);
  }
  delta.temporary_buffer_bytes = static_cast<std::uint64_t>(total);
}

// A wave can run concurrently when its runs share one execution space type with two or more
// workers (on one worker nothing changes).
inline bool FusionWindow::can_run_concurrently(const FusionPlan& plan, const FusionWave& wave) const {
  const FusionLaunch& first = m_launches[plan.runs[wave.first_run].first];
  if (first.on_workers == nullptr || first.pool_size == nullptr || first.pool_size(first.blob) < 2) return false;
  for (std::uint32_t r = wave.first_run; r < wave.first_run + wave.count; ++r) {
    const FusionRun& run = plan.runs[r];
    for (std::uint32_t k = run.first; k < run.first + run.count; ++k) {
      if (m_launches[k].space != first.space || m_launches[k].run_chunk == nullptr) return false;
    }
  }
  return true;
}

// Runs the wave's chains in one dispatch, each group of consecutive workers running its chains'
// runs in program order (a barrier between two runs when the group has several workers).  With
// more chains than workers, a group takes several chains (the heaviest first, each onto the
// least loaded group); groups are sized by their estimated work (indices times launches), at
// least one worker each, as partition_space shares a pool out.
// Out of line: flush() stays small on the common path, where no wave runs concurrently.
KOKKOS_IMPL_NOINLINE inline void FusionWindow::run_concurrently(const FusionPlan& plan, const FusionWave& wave) const {
  const FusionLaunch& driver = m_launches[plan.runs[wave.first_run].first];
  const int pool = driver.pool_size(driver.blob);
  constexpr std::uint32_t max_groups = 64;
  const std::uint32_t groups = std::min({wave.chains, static_cast<std::uint32_t>(pool), max_groups});
  struct Wave {
    std::vector<FusedRun> runs;
    std::vector<std::uint32_t> order;                 // run indices, group by group, each in program order
    std::vector<std::uint32_t> first_run_of;  // group g: order[first_run_of[g] .. [g + 1])
    std::vector<int> first_worker;            // group g: workers [first_worker[g], [g + 1])
    std::unique_ptr<HostTeamBarrier[]> barriers;
    std::uint32_t groups = 0;
    int pool = 0;
    const FusionLaunch* window_launches = nullptr;

    // rank and size within the group; worker: the rank in the dispatch (for the probe).
    void run_group(std::uint32_t g, int rank, int size, int worker) {
      auto probe = fusion_config().concurrent_probe.load(std::memory_order_relaxed);
      for (std::uint32_t k = first_run_of[g]; k < first_run_of[g + 1]; ++k) {
        if (k > first_run_of[g]) barriers[g].arrive_and_wait(size);
        const FusedRun& run = runs[order[k]];
        if (probe != nullptr) probe(static_cast<std::uint32_t>(run.launches - window_launches), static_cast<int>(g), worker);
        run.work(rank, size, FusionNoReduction{});
      }
    }
  } w;
  w.runs = std::vector<FusedRun>(wave.count);
  w.first_run_of.assign(groups + 1, 0);
  w.first_worker.assign(groups + 1, 0);
  w.barriers = std::make_unique<HostTeamBarrier[]>(groups);
  w.groups = groups;
  w.pool = pool;
  w.window_launches = m_launches.data();
  std::vector<double> chain_work(wave.chains, 0.0), group_work(groups, 0.0);
  for (std::uint32_t k = 0; k < wave.count; ++k) {
    const FusionRun& run = plan.runs[wave.first_run + k];
    prepare(run, w.runs[k]);
    chain_work[wave.chain_of[k]] +=
        static_cast<double>(std::max<std::int64_t>(w.runs[k].end - w.runs[k].begin, 1)) * run.count;
  }
  std::vector<std::uint32_t> group_of_chain(wave.chains), by_work(wave.chains);
  for (std::uint32_t c = 0; c < wave.chains; ++c) by_work[c] = c;
  std::stable_sort(by_work.begin(), by_work.end(), [&](std::uint32_t a, std::uint32_t b) { return chain_work[a] > chain_work[b]; });
  for (std::uint32_t c : by_work) {
    const auto g = static_cast<std::uint32_t>(std::min_element(group_work.begin(), group_work.end()) - group_work.begin());
    group_of_chain[c] = g;
    group_work[g] += chain_work[c];
  }
  // Group numbers by first run (group 0 holds the wave's first run).
  std::vector<std::uint32_t> renumber(groups, ~0u);
  std::uint32_t next_group = 0;
  for (std::uint32_t k = 0; k < wave.count; ++k) {
    std::uint32_t& g = renumber[group_of_chain[wave.chain_of[k]]];
    if (g == ~0u) g = next_group++;
  }
  std::vector<double> work(groups);
  for (std::uint32_t g = 0; g < groups; ++g) work[renumber[g]] = group_work[g];
  for (std::uint32_t g = 0; g < groups; ++g) {
    w.first_run_of[g] = static_cast<std::uint32_t>(w.order.size());
    for (std::uint32_t k = 0; k < wave.count; ++k) {
      if (renumber[group_of_chain[wave.chain_of[k]]] == g) w.order.push_back(k);
    }
  }
  w.first_run_of[groups] = static_cast<std::uint32_t>(w.order.size());
  const std::vector<int> counts = Kokkos::Experimental::Impl::partition_worker_counts(pool, work);
  for (std::uint32_t g = 0; g < groups; ++g) w.first_worker[g + 1] = w.first_worker[g] + counts[g];
  driver.on_workers(
      driver.blob,
      [](void* context, int rank, int size) {
        Wave& wave = *static_cast<Wave*>(context);
        if (size != wave.pool) {  // not the pool the groups were sized for: any split gives the same bits
          for (std::uint32_t g = static_cast<std::uint32_t>(rank); g < wave.groups; g += static_cast<std::uint32_t>(size)) {
            wave.run_group(g, 0, 1, rank);
          }
          return;
        }
        std::uint32_t g = 0;
        while (rank >= wave.first_worker[g + 1]) ++g;
        const int first = wave.first_worker[g];
        wave.run_group(g, rank - first, wave.first_worker[g + 1] - first, rank);
      },
      &w);
}

inline FusionDispatchChoice::Way FusionWindow::execute(const FusionRun& run, bool adapt) {
  using Way = FusionDispatchChoice::Way;
  const FusionLaunch* launches = m_launches.data() + run.first;
  const FusionLaunch& last = launches[run.count - 1];
  const bool reduces = m_summaries[run.first + run.count - 1].kind == FusionLaunchKind::range_reduce;
  if (run.count == 1) {
    execute_alone_reported(run.first);
    return Way::workers;
  }
  if (launches[0].begin == launches[0].end) {  // nothing to fuse; a reduction still yields init
    if (reduces) execute_alone_reported(run.first + run.count - 1);
    return Way::workers;
  }
  FusedRun fused;
  prepare(run, fused);
  const FusionLaunch& driver = reduces ? last : launches[0];
  if (!adapt) {
    drive_reported(run, reduces, [&] { driver.drive(driver.blob, fused, false); });
    return Way::workers;
  }
  const int workers = driver.pool_size(driver.blob);
  const std::int64_t length = fused.end - fused.begin, short_chunk = FusionDispatchChoice::short_chunk(fused.chunk);
  const bool long_chunks_differ = length > fused.chunk * workers;
  const bool short_chunks_differ = short_chunk > 0 && length > short_chunk * workers;
  // A run with eliminated temporaries keeps them chunk-sized: never launch by launch, nor in
  // chunks sixteen times longer.
  const bool temporaries = fused.num_temporaries > 0;
  FusionDispatchChoice& choice = temporaries ? run.dispatch_with_temporaries : run.dispatch;
  const FusionDispatchChoice::Decision decision =
      choice.next(workers, long_chunks_differ && !temporaries, short_chunks_differ, !temporaries);
  const auto start = decision.timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  switch (decision.way) {
    case Way::unfused:  // each launch alone, in program order: what KOKKOS_FUSION=0 does
      for (std::uint32_t k = 0; k < run.count; ++k) execute_alone_reported(run.first + k);
      break;
    case Way::short_chunks: fused.chunk = short_chunk; [[fallthrough]];
    case Way::workers: drive_reported(run, reduces, [&] { driver.drive(driver.blob, fused, false); }); break;
    case Way::long_chunks:
      fused.chunk *= FusionDispatchChoice::long_chunk_factor;
      drive_reported(run, reduces, [&] { driver.drive(driver.blob, fused, false); });
      break;
    case Way::caller: drive_reported(run, reduces, [&] { driver.drive(driver.blob, fused, true); }); break;
  }
  if (decision.timed) {
    choice.record(decision.way,
                        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
  }
  return decision.way;
}

}  // namespace Kokkos::Impl

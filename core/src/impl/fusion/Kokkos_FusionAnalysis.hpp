#pragma once
// Fusion analysis: which consecutive recorded launches may run as one launch (seed 003 §4,
// Figure 5; seed 000 §III-B), and the memo that lets an iterative loop pay for it once
// (seed 003 §5.2).
//
// Data model.  An access names an allocation and how launch index i maps into it: iteration i
// touches only "slice" i of the View, the bytes [offset + i*stride, offset + i*stride + slice).
// Two accesses with the same allocation, offset, stride and inner shape are the same
// partition: iteration i of both touches the same elements and no other iteration does, so
// any privileges combine point-wise.  Any other pair of overlapping accesses of one allocation
// (a shifted subview, a rank-0 View every iteration shares) is an aliasing partition.
//
// Constraints, checked when launch j would join the current run, strongest first (the
// statistics count the first one that fails, as seed 000 Table III does):
//   communication     j (or the run's last launch) is not a plain range launch: a reduction
//                     ends its run; team/scan/unknown launches and MDRange reductions run
//                     alone (an MDRange parallel_for is a range launch over its first
//                     dimension);
//   launch_domain     j's range (first dimension) or execution space differs from the run's;
//   true_dependence   the run wrote an allocation through one partition and j reads or writes
//                     it through another (unless they only ever meet at the same index);
//   anti_dependence   the run read through one partition and j writes through another, and
//                     the skewed schedule below cannot order them;
//   reduction         something reduced into is read or written by another launch of the run.
//
// Beyond Figure 5: a read through a shifted partition followed by a write through another
// (the seed-000 stencil `output = east + west; central = .5 * output`) fuses with a skewed
// schedule: the launches from the first such writer on (the "tail") trail the others by `lag`
// indices inside each worker's block, and the few indices whose conflicting reads belong to a
// neighbouring worker's block (`halo_lo`, `halo_hi`) run after all workers have finished.  A
// run has at most one such split and no reduction.
#include <Kokkos_Macros.hpp>
#include <impl/fusion/Kokkos_FusionDeviceChoice.hpp>
#include <impl/fusion/Kokkos_FusionDispatchChoice.hpp>

#include <Kokkos_FusionPrivilege.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <unordered_map>
#include <vector>

namespace Kokkos::Impl {

using Kokkos::Experimental::Privilege;

enum class FusionConstraint : std::uint8_t {
  communication,
  launch_domain,
  true_dependence,
  anti_dependence,
  reduction,
  count_,
  none = 255
};
inline constexpr int fusion_constraint_count = static_cast<int>(FusionConstraint::count_);

inline const char* fusion_constraint_name(FusionConstraint c) {
  switch (c) {
    case FusionConstraint::communication: return "communication";
    case FusionConstraint::launch_domain: return "launch_domain";
    case FusionConstraint::true_dependence: return "true_dependence";
    case FusionConstraint::anti_dependence: return "anti_dependence";
    case FusionConstraint::reduction: return "reduction";
    default: return "none";
  }
}

// The layout of a View apart from its first (launch) dimension; two accesses are the same
// partition only if these agree exactly.
struct FusionShape {
  std::int32_t rank = 0;
  std::int32_t element_bytes = 0;
  std::int64_t extent[8] = {};  // extent[0] unused: partitions may differ in length
  std::int64_t stride[8] = {};  // in bytes
  friend bool operator==(const FusionShape&, const FusionShape&) = default;
};

// Unmanaged Views (no allocation record) share this one pseudo-allocation, with their absolute
// address as offset, so they alias each other exactly.  One that may alias a managed
// allocation is compared by address; a window holding one is not memoized.
inline const void* fusion_unmanaged_allocation() {
  static const char tag = 0;
  return &tag;
}

// One declared access, as recorded.
struct FusionAccess {
  const void* allocation = nullptr;  // identity of the allocation (all its subviews share it)
  std::uintptr_t address = 0;        // data(), for unmanaged-versus-managed comparisons
  std::int64_t allocation_bytes = 0;
  std::int64_t offset = 0;       // bytes from the allocation base to data()
  std::int64_t stride = 0;       // bytes between the slices of consecutive launch indices
  std::int64_t slice_bytes = 0;  // bytes one slice spans
  std::int64_t span_bytes = 0;   // bytes the whole View spans (0: empty View, no access)
  std::int32_t shape = 0;        // index of its FusionShape in the window (first-use order)
  Privilege privilege = Privilege::read;
};

enum class FusionLaunchKind : std::uint8_t {
  range_for,     // RangePolicy parallel_for on a host back end: fusible
  range_reduce,  // RangePolicy parallel_reduce on a host back end: may end a run
  opaque         // anything else with declared accesses: runs alone
};

// What the analysis sees of a recorded launch.
struct FusionLaunchSummary {
  FusionLaunchKind kind = FusionLaunchKind::range_for;
  std::int32_t domain = 0;  // launch domains renamed by first use
  std::uint32_t first_access = 0, num_accesses = 0;
  // Names the launch's functor, policy and execution space types: not used by the analysis,
  // but part of the memo key, so that a run's adaptive dispatch learns per program and space.
  std::intptr_t code = 0;
};

struct FusionRun {
  std::uint32_t first = 0, count = 0;
  std::int32_t split = -1;  // run-relative index of the first tail launch, -1: no skew
  std::int64_t lag = 0, halo_lo = 0, halo_hi = 0;
  std::int64_t bytes_per_index = 0;  // drives the chunk size of the fused loop
  FusionConstraint ended_by = FusionConstraint::none;  // refused the next launch (none: the window's end)
  mutable FusionDispatchChoice dispatch;  // learnt while the plan is memoized
  // The same, for flushes that eliminate temporaries in the run (fewer ways are open to it).
  mutable FusionDispatchChoice dispatch_with_temporaries;
};

// Consecutive plain range loops of a plan (no reduction, no skew) that fall into two or more
// independent *chains*: the connected components of "touches an element the other writes or
// reduces into".  A flush may run the chains at once on disjoint groups of workers (seed 004's
// independent tasks), each group running its chain's runs in program order with a barrier
// between them, in one dispatch: two interleaved chains of ten runs cost one fork/join, not
// twenty.  The bits are those of program order: a run still follows every run it depends on,
// and runs of different chains share nothing that either writes.  Which is faster, the runs one
// after another on all the workers or the chains together on shares of them, is measured per
// memoized plan.
struct FusionWave {
  std::uint32_t first_run = 0, count = 0;
  std::uint32_t chains = 0;
  std::vector<std::uint32_t> chain_of;  // per run of the wave: its chain, numbered by first run
  enum Way : int { in_order = 0, concurrent = 1 };
  mutable MeasuredChoice choice{2, {.samples_per_way = 2, .warmup_per_way = 1, .epoch = 64, .max_epoch = 1024,
                                    .prune_ratio = 1.5}};
};

struct FusionPlan {
  std::vector<FusionRun> runs;
  std::vector<FusionWave> waves;  // sorted by first_run; runs in no wave run in order
  std::array<std::uint32_t, fusion_constraint_count> barriers{};
  mutable FusionDeviceDispatchChoice device_dispatch;  // a device window's way, learnt while memoized
};

inline bool fusion_writes(Privilege p) { return p == Privilege::write || p == Privilege::read_write; }
inline bool fusion_reads(Privilege p) { return p == Privilege::read || p == Privilege::read_write; }

// The largest index distance the skewed schedule accepts; beyond it the launches do not fuse.
inline constexpr std::int64_t fusion_max_skew = 4096;

namespace FusionDetail {

inline std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return -floor_div(-a, b); }

enum class Relation : std::uint8_t {
  disjoint,        // no element in common
  same_partition,  // iteration i of both touches the same slice: point-wise
  shifted,         // slices of the same stride that meet at index distances [dmin, dmax]
  unknown          // overlap that depends on more than the index distance
};

struct Pair {
  Relation relation;
  std::int64_t dmin = 0, dmax = 0;  // for `shifted`: reader index - writer index
};

// How `second` (accessing slice r) meets `first` (slice t): r - t over all meeting pairs.
inline Pair relate(const FusionAccess& first, const FusionAccess& second) {
  if (first.allocation != second.allocation) {
    const void* unmanaged = fusion_unmanaged_allocation();
    if (first.allocation != unmanaged && second.allocation != unmanaged) return {Relation::disjoint};
    const bool overlap = first.address < second.address + static_cast<std::uintptr_t>(second.span_bytes) &&
                         second.address < first.address + static_cast<std::uintptr_t>(first.span_bytes);
    return {overlap ? Relation::unknown : Relation::disjoint};
  }
  if (first.offset + first.span_bytes <= second.offset || second.offset + second.span_bytes <= first.offset) {
    return {Relation::disjoint};
  }
  if (first.stride <= 0 || second.stride != first.stride) return {Relation::unknown};
  if (first.offset == second.offset && first.shape == second.shape) return {Relation::same_partition};
  // Slice t of `first` is [o1 + s*t, o1 + s*t + l1), slice r of `second` [o2 + s*r, ...).
  const std::int64_t s = first.stride, d = first.offset - second.offset;
  const std::int64_t dmin = floor_div(d - second.slice_bytes, s) + 1;
  const std::int64_t dmax = ceil_div(d + first.slice_bytes, s) - 1;
  if (dmin > dmax) return {Relation::disjoint};  // interleaved but never the same bytes
  return {Relation::shifted, dmin, dmax};
}

}  // namespace FusionDetail

inline bool fusion_run_is_plain_loop(const FusionRun& run, const FusionLaunchSummary* launches) {
  if (run.split >= 0) return false;
  for (std::uint32_t k = run.first; k < run.first + run.count; ++k) {
    if (launches[k].kind != FusionLaunchKind::range_for) return false;
  }
  return true;
}

// Whether two runs touch a common element where either of them writes or reduces.
inline bool fusion_runs_conflict(const FusionRun& x, const FusionRun& y, const FusionLaunchSummary* launches,
                                 const FusionAccess* accesses) {
  for (std::uint32_t k = x.first; k < x.first + x.count; ++k) {
    for (std::uint32_t l = y.first; l < y.first + y.count; ++l) {
      for (std::uint32_t a = 0; a < launches[k].num_accesses; ++a) {
        const FusionAccess& A = accesses[launches[k].first_access + a];
        for (std::uint32_t b = 0; b < launches[l].num_accesses; ++b) {
          const FusionAccess& B = accesses[launches[l].first_access + b];
          if (A.privilege == Privilege::read && B.privilege == Privilege::read) continue;
          if (FusionDetail::relate(A, B).relation != FusionDetail::Relation::disjoint) return true;
        }
      }
    }
  }
  return false;
}

// Greedy: each wave is the longest stretch of consecutive plain-loop runs that keeps two or more
// chains; a run that would join every chain into one starts the next stretch.
inline void find_fusion_waves(FusionPlan& plan, const FusionLaunchSummary* launches, const FusionAccess* accesses) {
  const std::size_t n = plan.runs.size();
  std::vector<std::uint32_t> parent;  // union-find over the stretch's runs
  const auto root = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::size_t r = 0;
  while (r < n) {
    if (!fusion_run_is_plain_loop(plan.runs[r], launches)) {
      ++r;
      continue;
    }
    parent.assign(1, 0);
    std::size_t end = r + 1, components = 1;
    std::vector<std::uint32_t> joined;
    for (; end < n && fusion_run_is_plain_loop(plan.runs[end], launches); ++end) {
      joined.clear();
      for (std::size_t k = r; k < end; ++k) {
        const std::uint32_t c = root(static_cast<std::uint32_t>(k - r));
        if (std::find(joined.begin(), joined.end(), c) != joined.end()) continue;
        if (fusion_runs_conflict(plan.runs[k], plan.runs[end], launches, accesses)) joined.push_back(c);
      }
      const std::size_t after = components + 1 - joined.size();
      if (components >= 2 && after < 2) break;
      const auto self = static_cast<std::uint32_t>(end - r);
      parent.push_back(self);
      for (std::uint32_t c : joined) parent[c] = self;
      components = after;
    }
    if (components >= 2) {
      FusionWave wave;
      wave.first_run = static_cast<std::uint32_t>(r);
      wave.count = static_cast<std::uint32_t>(end - r);
      std::vector<std::uint32_t> number(wave.count, ~0u);
      for (std::uint32_t k = 0; k < wave.count; ++k) {
        std::uint32_t& c = number[root(k)];
        if (c == ~0u) c = wave.chains++;
        wave.chain_of.push_back(c);
      }
      plan.waves.push_back(std::move(wave));
    }
    r = end;
  }
}

// Greedy longest fusible prefix, repeated over the window.
inline FusionPlan analyze_fusion_window(const FusionLaunchSummary* launches, std::size_t n,
                                        const FusionAccess* accesses) {
  using namespace FusionDetail;
  FusionPlan plan;
  std::size_t i = 0;
  while (i < n) {
    FusionRun run;
    run.first = static_cast<std::uint32_t>(i);
    run.count = 1;
    // The run's working set per index: each distinct partition once.
    auto count_bytes = [&](std::size_t launch) {
      for (std::uint32_t a = 0; a < launches[launch].num_accesses; ++a) {
        const FusionAccess& x = accesses[launches[launch].first_access + a];
        bool seen = false;
        for (std::size_t k = i; k <= launch && !seen; ++k) {
          const std::uint32_t limit = k == launch ? a : launches[k].num_accesses;
          for (std::uint32_t b = 0; b < limit && !seen; ++b) {
            const FusionAccess& y = accesses[launches[k].first_access + b];
            seen = y.allocation == x.allocation && y.offset == x.offset && y.stride == x.stride && y.shape == x.shape;
          }
        }
        if (!seen) run.bytes_per_index += x.slice_bytes;
      }
    };
    count_bytes(i);
    std::int64_t skew_min = 0, skew_max = 0;  // index distances the tail must respect
    std::size_t j = i + 1;
    for (; j < n; ++j) {
      const FusionLaunchSummary& last = launches[j - 1];
      const FusionLaunchSummary& next = launches[j];
      FusionConstraint broken = FusionConstraint::none;
      auto fail = [&](FusionConstraint c) {
        if (static_cast<int>(c) < static_cast<int>(broken)) broken = c;
      };
      if (last.kind != FusionLaunchKind::range_for || next.kind == FusionLaunchKind::opaque) {
        fail(FusionConstraint::communication);
      } else if (next.domain != launches[i].domain) {
        fail(FusionConstraint::launch_domain);
      }
      const bool tail_exists = run.split >= 0;
      bool new_split = false;
      std::int64_t new_min = skew_min, new_max = skew_max;
      if (broken == FusionConstraint::none) {
        for (std::size_t k = i; k < j; ++k) {
          const bool k_in_tail = tail_exists && k >= i + static_cast<std::size_t>(run.split);
          for (std::uint32_t a = 0; a < launches[k].num_accesses; ++a) {
            const FusionAccess& A = accesses[launches[k].first_access + a];
            for (std::uint32_t b = 0; b < next.num_accesses; ++b) {
              const FusionAccess& B = accesses[next.first_access + b];
              const Pair p = relate(A, B);
              if (p.relation == Relation::disjoint) continue;
              const bool a_reduces = A.privilege == Privilege::reduce, b_reduces = B.privilege == Privilege::reduce;
              if (a_reduces || b_reduces) {
                if (!(a_reduces && b_reduces)) fail(FusionConstraint::reduction);
                continue;
              }
              if (p.relation == Relation::same_partition) continue;
              const bool meets_only_at_same_index = p.relation == Relation::shifted && p.dmin == 0 && p.dmax == 0;
              if (fusion_writes(A.privilege)) {
                if (!meets_only_at_same_index) fail(FusionConstraint::true_dependence);
              } else if (fusion_writes(B.privilege)) {
                if (meets_only_at_same_index) continue;
                // Read through A (index r) then written through B (index t): d = r - t.
                if (p.relation != Relation::shifted || k_in_tail || p.dmin < -fusion_max_skew ||
                    p.dmax > fusion_max_skew) {
                  fail(FusionConstraint::anti_dependence);
                } else {
                  const Pair q = relate(B, A);  // distances measured from the writer
                  new_min = std::min(new_min, q.dmin);
                  new_max = std::max(new_max, q.dmax);
                  if (!tail_exists) new_split = true;
                }
              }
            }
          }
        }
        if ((new_split || tail_exists) && next.kind == FusionLaunchKind::range_reduce) {
          fail(FusionConstraint::anti_dependence);  // a skewed run has no reduction
        }
      }
      if (broken != FusionConstraint::none) {
        ++plan.barriers[static_cast<int>(broken)];
        run.ended_by = broken;
        break;
      }
      if (new_split) run.split = static_cast<std::int32_t>(j - i);
      skew_min = new_min;
      skew_max = new_max;
      ++run.count;
      count_bytes(j);
    }
    if (run.split >= 0) {
      run.lag = std::max<std::int64_t>(0, skew_max);
      run.halo_hi = std::max<std::int64_t>(0, skew_max);
      run.halo_lo = std::max<std::int64_t>(0, -skew_min);
    }
    plan.runs.push_back(run);
    i = j;
  }
  find_fusion_waves(plan, launches, accesses);
  return plan;
}

// The canonical form of a window (seed 003 §5.2): allocations and launch domains renamed by
// first use, shapes already numbered by first use, privileges and partition geometry as they
// are, plus each launch's code (its functor, policy and space types).  Two windows with equal
// keys have the same plan; the code keeps the plan's learnt dispatch to one program and space.
class FusionMemo {
 public:
  struct KeyHash {
    std::size_t operator()(const std::vector<std::int64_t>& key) const noexcept {
      std::uint64_t h = 1469598103934665603ull;
      for (std::int64_t v : key) {
        h ^= static_cast<std::uint64_t>(v);
        h *= 1099511628211ull;
        h ^= h >> 29;
      }
      return static_cast<std::size_t>(h);
    }
  };

  // Builds the key of the window into `key` (reused storage).
  static void canonical_key(const FusionLaunchSummary* launches, std::size_t n, const FusionAccess* accesses,
                            std::vector<std::int64_t>& key, std::vector<const void*>& names) {
    key.clear();
    names.clear();
    key.push_back(static_cast<std::int64_t>(n));
    for (std::size_t l = 0; l < n; ++l) {
      const FusionLaunchSummary& s = launches[l];
      key.push_back((static_cast<std::int64_t>(s.kind) << 32) | s.domain);
      key.push_back(static_cast<std::int64_t>(s.code));
      key.push_back(s.num_accesses);
      for (std::uint32_t a = 0; a < s.num_accesses; ++a) {
        const FusionAccess& x = accesses[s.first_access + a];
        std::int64_t id = 0;
        while (id < static_cast<std::int64_t>(names.size()) && names[id] != x.allocation) ++id;
        if (id == static_cast<std::int64_t>(names.size())) names.push_back(x.allocation);
        key.push_back((id << 8) | static_cast<std::int64_t>(x.privilege));
        key.push_back(x.offset);
        key.push_back(x.stride);
        key.push_back(x.slice_bytes);
        key.push_back(x.span_bytes);
        key.push_back(x.shape);
      }
    }
  }

  const FusionPlan* find(const std::vector<std::int64_t>& key) const {
    auto it = m_plans.find(key);
    return it == m_plans.end() ? nullptr : &it->second;
  }
  const FusionPlan& insert(const std::vector<std::int64_t>& key, FusionPlan plan) {
    if (m_plans.size() >= max_entries) m_plans.clear();  // a program that never repeats
    return m_plans.emplace(key, std::move(plan)).first->second;
  }
  void clear() { m_plans.clear(); }

  static constexpr std::size_t max_entries = 512;

 private:
  std::unordered_map<std::vector<std::int64_t>, FusionPlan, KeyHash> m_plans;
};

}  // namespace Kokkos::Impl

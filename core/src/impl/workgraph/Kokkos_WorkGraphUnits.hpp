#pragma once
// Scheduling units of a work graph (WorkGraphUnits) and the planner that cuts a topological order
// into them (Kokkos_WorkGraphAnalysis.hpp computes the orders and levels it starts from).
//
// The workers schedule units of consecutive items of the order as the seed schedules items.  One
// ready-queue operation and one waiting-count update per unit instead of per item is what makes
// a cheap functor worth running as a DAG: a locked read-modify-write costs ~20 ns on current x86
// servers, 5-20 times a cheap functor call.  The cut must keep the units' DAG parallel:
// candidate cuts of "banded level orders" are compared by the critical path of their units' DAG
// (WorkGraphPlanner).  That comparison costs several passes per candidate: a policy's first
// launch runs the level-synchronous plan (work_graph_first_launch_units), which needs only the
// levels, and its second the planner's (work_graph_plan_units).
#include <impl/workgraph/Kokkos_WorkGraphAnalysis.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

namespace Kokkos::Impl {

// The scheduling units the workers run: unit u is items[begin[u] .. begin[u+1]), its successor
// units are succ[row_map[u] .. row_map[u+1]) (no duplicates), and it waits on indegree[u] units.
struct WorkGraphUnits {
  std::vector<std::int32_t> items;  // empty when every unit is an index range (first)
  std::vector<std::int32_t> begin;
  std::vector<std::int32_t> first;  // per unit: its first item when the units are index ranges
  std::vector<std::int32_t> row_map;
  std::vector<std::int32_t> succ;
  std::vector<std::int32_t> indegree;
  std::vector<std::uint8_t> priority;  // the most urgent of its items'; empty with one priority
};

// Builds candidate cuts of a graph into units and measures them; the buffers are reused by
// every candidate (first-touch page faults dominate a pass over fresh memory).
//
// A candidate is a *banded level order* cut into units: a topological order cut into bands of
// 2^shift consecutive items, each band sorted by level (the longest path from a source).  The
// topological order is the item numbering when every edge goes forward (or backward) in it --
// the order the application generated its items in, which is how its data is laid out -- and
// Kahn's order otherwise.  A band keeps that order's locality (rows of a grid, subtrees of a
// tree); sorting it by level puts independent items next to each other, which lets the
// processor overlap consecutive functor calls and, cut into units, makes tiles (a band of grid
// rows split by diagonals) instead of chains.  A unit closes where a band starts, at unit_size
// items, and where a level starts once it holds half of unit_size.
template <class SizeT, class IndexT>
class WorkGraphPlanner {
 public:
  static constexpr int one_band = 62;

  struct Cost {
    std::int64_t critical_path = 0;  // in items, through the units' DAG
    std::int64_t units = 0;
    std::int64_t edges = 0;  // between units, without duplicates
    std::int64_t cross_band_edges = 0;  // item edges between bands (with more than one band)
  };

  WorkGraphPlanner(const WorkGraphHostCrs<SizeT, IndexT>& g, const WorkGraphOrder& o) : m_g(g), m_o(o) {
    const auto n = static_cast<std::int32_t>(g.num_items);
    bool forward = true, backward = true;
    for (std::int32_t i = 0; i < n && (forward || backward); ++i) {
      for (std::int64_t e = g.begin(i); e < g.end(i); ++e) {
        forward = forward && g.entry(e) > i;
        backward = backward && g.entry(e) < i;
      }
    }
    m_position.resize(static_cast<std::size_t>(n));
    for (std::int32_t k = 0; k < n; ++k) {
      const std::int32_t i = forward ? k : backward ? n - 1 - k : o.order[static_cast<std::size_t>(k)];
      m_position[static_cast<std::size_t>(i)] = k;
    }
    sort_by_level(forward || backward);
  }

  // For leveled() and build_leveled() only (the plan a first launch runs, right after the
  // levels): items by level, ascending index order within a level, which is a valid order for
  // any graph since a level's items are independent.  When each level is an index range
  // (WorkGraphOrder::level_start), nothing is sorted and every unit is an index range.
  struct LevelsOnly {
    bool level_ranges = false;  // use o.level_start (only without priorities)
  };
  WorkGraphPlanner(const WorkGraphHostCrs<SizeT, IndexT>& g, const WorkGraphOrder& o, LevelsOnly mode)
      : m_g(g), m_o(o), m_levels_only(true), m_level_ranges(mode.level_ranges && !o.level_start.empty()) {
    if (m_level_ranges) {
      m_level_start = o.level_start;
    } else {
      sort_by_level(true);
    }
  }

  // The banded level order with bands of 2^shift items (one_band: a single band).
  const std::vector<std::int32_t>& sequence(int shift) {
    m_shift = shift;
    const std::size_t n = m_by_level.size();
    auto band_of = [&](std::int32_t i) { return static_cast<std::size_t>(m_position[static_cast<std::size_t>(i)]) >> shift; };
    const std::size_t bands = shift >= one_band ? 1 : (n >> shift) + 1;
    if (bands == 1) {
      m_seq = m_by_level;
    } else {
      // Stable counting sort of the level order by band: sorted by band, then level.
      std::vector<std::int32_t> next(bands);
      for (std::size_t b = 0; b < bands; ++b) next[b] = static_cast<std::int32_t>(std::min(b << shift, n));
      m_seq.resize(n);
      for (std::int32_t i : m_by_level) m_seq[static_cast<std::size_t>(next[band_of(i)]++)] = i;
    }
    m_breaks.assign(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
      const std::int32_t i = m_seq[k];
      if (k == 0 || band_of(i) != band_of(m_seq[k - 1])) {
        m_breaks[k] = 2;
      } else if (m_o.level[static_cast<std::size_t>(i)] != m_o.level[static_cast<std::size_t>(m_seq[k - 1])]) {
        m_breaks[k] = 1;
      }
    }
    return m_seq;
  }

  std::vector<std::int32_t> take_sequence() { return std::move(m_seq); }

  // Cuts the current sequence into units of at most unit_size items.  With independent_items,
  // a unit also closes at every level start, so that no item of a unit waits for another of
  // it: a worker that is a group of threads (a GPU's warp) runs a unit's items at once.
  void cut(std::int32_t unit_size, bool independent_items = false) {
    const auto n = static_cast<std::int32_t>(m_breaks.size());
    const std::int32_t half = independent_items ? 1 : std::max(1, unit_size / 2);
    m_begin.clear();
    m_begin.push_back(0);
    for (std::int32_t k = 1; k < n; ++k) {
      const std::int32_t held = k - m_begin.back();
      const std::uint8_t b = m_breaks[static_cast<std::size_t>(k)];
      if (b == 2 || held >= unit_size || (b == 1 && held >= half)) m_begin.push_back(k);
    }
    if (n > 0) m_begin.push_back(n);
    const std::size_t m = m_begin.size() - 1;
    m_unit_of.resize(m_seq.size());
    for (std::size_t u = 0; u < m; ++u) {
      for (std::int32_t k = m_begin[u]; k < m_begin[u + 1]; ++k) {
        m_unit_of[static_cast<std::size_t>(m_seq[static_cast<std::size_t>(k)])] = static_cast<std::int32_t>(u);
      }
    }
  }

  // The critical path of the current units' DAG and its size.  Units are ranges of a
  // topological order, so every unit edge goes forward and one pass in unit order suffices.
  Cost measure() {
    const std::size_t m = m_begin.size() - 1;
    std::vector<std::int64_t> start(m, 0);
    m_mark.assign(m, work_graph_empty);
    Cost c;
    c.units = static_cast<std::int64_t>(m);
    const bool banded = m_shift < one_band;
    for (std::size_t u = 0; u < m; ++u) {
      const std::int64_t end = start[u] + (m_begin[u + 1] - m_begin[u]);
      c.critical_path = std::max(c.critical_path, end);
      for (std::int32_t k = m_begin[u]; k < m_begin[u + 1]; ++k) {
        const std::int32_t i = m_seq[static_cast<std::size_t>(k)];
        const std::int32_t band = m_position[static_cast<std::size_t>(i)] >> (banded ? m_shift : 0);
        for (std::int64_t e = m_g.begin(i); e < m_g.end(i); ++e) {
          const std::int32_t j = m_g.entry(e);
          if (banded && (m_position[static_cast<std::size_t>(j)] >> m_shift) != band) ++c.cross_band_edges;
          const auto v = static_cast<std::size_t>(m_unit_of[static_cast<std::size_t>(j)]);
          if (v == u) continue;
          if (start[v] < end) start[v] = end;
          if (m_mark[v] != static_cast<std::int32_t>(u)) {
            m_mark[v] = static_cast<std::int32_t>(u);
            ++c.edges;
          }
        }
      }
    }
    return c;
  }

  // Level-synchronous units: every level cut into guided chunks (each a 4P-th of what is left
  // of the level, at least min_chunk items, so the level ends in small chunks and no worker waits
  // long at its barrier), and between consecutive levels a join unit without items that every
  // chunk of the level before feeds and every chunk of the level after waits on.  The ready
  // queue is FIFO, so the large chunks go first.  Every edge goes from a lower level to a higher
  // one, so the joins imply them all: the units' DAG stays small however dense the graph
  // (random graphs with wide levels), at the price of a barrier per level.
  Cost leveled(std::int64_t workers, std::int32_t min_chunk) {
    if (m_levels_only) {
      m_seq = std::move(m_by_level);  // no other candidate needs it
    } else {
      m_seq = m_by_level;
    }
    m_begin.assign(1, 0);
    m_joins.clear();
    Cost c;
    const std::size_t levels = m_level_start.size() - 1;
    for (std::size_t l = 0; l < levels; ++l) {
      const std::int32_t b = m_level_start[l], e = m_level_start[l + 1];
      std::int64_t chunks = 0, largest = 0;
      for (std::int64_t at = b; at < e; ++chunks) {
        const std::int64_t left = e - at;
        const std::int64_t chunk = std::min(left, std::max<std::int64_t>(min_chunk, (left + 4 * workers - 1) / (4 * workers)));
        largest = std::max(largest, chunk);
        at += chunk;
        m_begin.push_back(static_cast<std::int32_t>(at));
      }
      c.critical_path += largest;
      c.edges += chunks * ((l > 0) + (l + 1 < levels));
      if (l + 1 < levels) {
        m_joins.push_back(static_cast<std::int32_t>(m_begin.size()) - 1);
        m_begin.push_back(e);  // the join: an empty unit
      }
    }
    c.units = static_cast<std::int64_t>(m_begin.size()) - 1;
    return c;
  }

  // The units of leveled(), with their successor lists; consumes the sequence.
  void build_leveled(const std::uint8_t* item_priority, WorkGraphUnits& out) {
    const std::size_t m = m_begin.size() - 1;
    out.row_map.assign(m + 1, 0);
    out.succ.clear();
    out.indegree.assign(m, 0);
    // Units between join j-1 and join j belong to level j; join j feeds level j + 1.
    std::size_t next_join = 0;
    std::int32_t previous_join = work_graph_empty;
    for (std::size_t u = 0; u < m; ++u) {
      const bool is_join = next_join < m_joins.size() && static_cast<std::size_t>(m_joins[next_join]) == u;
      if (is_join) {
        for (std::size_t v = u + 1; v < m && (next_join + 1 >= m_joins.size() || v < static_cast<std::size_t>(m_joins[next_join + 1])); ++v) {
          out.succ.push_back(static_cast<std::int32_t>(v));
        }
        previous_join = static_cast<std::int32_t>(u);
        ++next_join;
      } else {
        if (next_join < m_joins.size()) {
          out.succ.push_back(m_joins[next_join]);
          ++out.indegree[static_cast<std::size_t>(m_joins[next_join])];
        }
        if (previous_join != work_graph_empty) out.indegree[u] = 1;
      }
      out.row_map[u + 1] = static_cast<std::int32_t>(out.succ.size());
    }
    unit_priorities(item_priority, out);
    if (m_level_ranges) range_firsts(out);
    out.items = std::move(m_seq);
    out.begin = std::move(m_begin);
  }

  // The current units, with their successor lists; consumes the current sequence.
  void build(const std::uint8_t* item_priority, std::int64_t edges, WorkGraphUnits& out) {
    const std::size_t m = m_begin.size() - 1;
    out.row_map.assign(m + 1, 0);
    out.succ.clear();
    out.succ.reserve(static_cast<std::size_t>(edges));
    out.indegree.assign(m, 0);
    m_mark.assign(m, work_graph_empty);
    for (std::size_t u = 0; u < m; ++u) {
      for (std::int32_t k = m_begin[u]; k < m_begin[u + 1]; ++k) {
        const std::int32_t i = m_seq[static_cast<std::size_t>(k)];
        for (std::int64_t e = m_g.begin(i); e < m_g.end(i); ++e) {
          const std::int32_t v = m_unit_of[static_cast<std::size_t>(m_g.entry(e))];
          if (static_cast<std::size_t>(v) == u || m_mark[static_cast<std::size_t>(v)] == static_cast<std::int32_t>(u)) continue;
          m_mark[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(u);
          out.succ.push_back(v);
          ++out.indegree[static_cast<std::size_t>(v)];
        }
      }
      // Ascending: the worker that completes u keeps the first successor made ready, so it
      // stays on the nearest one in the sequence (its own band) and another worker picks up
      // the next band.  The bands then run as a pipeline, each on one core, rather than
      // changing hands at every unit (where every unit would read its inputs from the other
      // core's cache: twice the time per item on the wavefront).
      std::sort(out.succ.begin() + out.row_map[u], out.succ.end());
      out.row_map[u + 1] = static_cast<std::int32_t>(out.succ.size());
    }
    unit_priorities(item_priority, out);
    out.items = std::move(m_seq);
    out.begin = std::move(m_begin);
  }

 private:
  // Items by level: a counting sort.  Within a level, items are independent: a numbered graph
  // keeps them in ascending index order (its memory order, whichever way its edges go; a unit
  // of consecutive items runs as an index range), Kahn's order otherwise.
  void sort_by_level(bool numbered) {
    const auto n = static_cast<std::int32_t>(m_g.num_items);
    const std::int32_t* const level = m_o.level.data();
    std::vector<std::int32_t> start(static_cast<std::size_t>(m_o.num_levels) + 1, 0);
    for (std::int32_t i = 0; i < n; ++i) ++start[static_cast<std::size_t>(level[i]) + 1];
    for (std::size_t l = 1; l < start.size(); ++l) start[l] += start[l - 1];
    m_level_start = start;
    m_by_level.resize(static_cast<std::size_t>(n));
    std::int32_t* const out = m_by_level.data();
    std::int32_t* const next = start.data();
    for (std::int32_t k = 0; k < n; ++k) {
      const std::int32_t i = numbered ? k : m_o.order[static_cast<std::size_t>(k)];
      out[next[level[i]]++] = i;
    }
  }

  // With level ranges, each unit's first item: position p of level l in the level order is
  // item level_start(l) + (p - m_level_start[l]), level_start(l) being the range's first index.
  void range_firsts(WorkGraphUnits& out) const {
    const std::size_t m = m_begin.size() - 1;
    const std::int32_t n = m_level_start.back();
    out.first.assign(m, work_graph_empty);
    std::size_t l = 0;
    for (std::size_t u = 0; u < m; ++u) {
      const std::int32_t b = m_begin[u];
      if (b == m_begin[u + 1]) continue;  // a join
      while (b >= m_level_start[l + 1]) ++l;
      const std::int32_t lowest = m_o.backward ? n - m_level_start[l + 1] : m_level_start[l];
      out.first[u] = lowest + (b - m_level_start[l]);
    }
  }

  // A unit's priority is its most urgent item's; a unit without items (a join) is urgent.
  void unit_priorities(const std::uint8_t* item_priority, WorkGraphUnits& out) const {
    const std::size_t m = m_begin.size() - 1;
    out.priority.clear();
    if (item_priority == nullptr) return;
    out.priority.assign(m, std::numeric_limits<std::uint8_t>::max());
    for (std::size_t u = 0; u < m; ++u) {
      if (m_begin[u] == m_begin[u + 1]) out.priority[u] = 0;
      for (std::int32_t k = m_begin[u]; k < m_begin[u + 1]; ++k) {
        out.priority[u] = std::min(out.priority[u], item_priority[m_seq[static_cast<std::size_t>(k)]]);
      }
    }
  }

  const WorkGraphHostCrs<SizeT, IndexT>& m_g;
  const WorkGraphOrder& m_o;
  std::vector<std::int32_t> m_position, m_by_level, m_level_start, m_seq, m_begin, m_unit_of, m_mark, m_joins;
  std::vector<std::uint8_t> m_breaks;
  int m_shift = one_band;
  bool m_levels_only = false;
  bool m_level_ranges = false;
};

// Per unit: its first item when its items are consecutive ascending indices (the workers then
// run it as an index range), else work_graph_empty.
inline std::vector<std::int32_t> work_graph_unit_first(const WorkGraphUnits& units) {
  if (!units.first.empty()) return units.first;
  const std::size_t m = units.begin.empty() ? 0 : units.begin.size() - 1;
  std::vector<std::int32_t> first(m, work_graph_empty);
  for (std::size_t u = 0; u < m; ++u) {
    const std::int32_t b = units.begin[u], e = units.begin[u + 1];
    if (b == e) continue;
    bool consecutive = true;
    for (std::int32_t k = b + 1; k < e && consecutive; ++k) {
      consecutive = units.items[static_cast<std::size_t>(k)] == units.items[static_cast<std::size_t>(k) - 1] + 1;
    }
    if (consecutive) first[u] = units.items[static_cast<std::size_t>(b)];
  }
  return first;
}

// Cuts a sequence of weighted things into `parts` contiguous shares of about equal weight:
// `prefix` holds the running sums (prefix[0] = 0, prefix[k] = the weight of the first k); share
// w is [bounds[w], bounds[w+1]), bounds[0] = 0 and bounds[parts] = prefix.size() - 1.  Share w
// ends at the first k whose running sum reaches w+1 parts of the total, so every share but the
// last weighs at most a part plus one thing.
inline std::vector<std::int32_t> work_graph_balanced_split(const std::vector<std::int64_t>& prefix, int parts) {
  const auto count = static_cast<std::int32_t>(prefix.size()) - 1;
  std::vector<std::int32_t> bounds(static_cast<std::size_t>(parts) + 1, 0);
  const std::int64_t total = prefix.back();
  for (int w = 1; w < parts; ++w) {
    const std::int64_t target = (total * w + parts - 1) / parts;
    bounds[static_cast<std::size_t>(w)] =
        static_cast<std::int32_t>(std::lower_bound(prefix.begin(), prefix.end(), target) - prefix.begin());
  }
  bounds[static_cast<std::size_t>(parts)] = count;
  return bounds;
}

inline int work_graph_log2_ceil(std::int64_t x) {
  int s = 0;
  while ((std::int64_t(1) << s) < x) ++s;
  return s;
}

// Plans the units for `workers` workers.  Candidates are banded level orders with bands of
// 16 units' worth of items or a single band, cut into units of 4096 items, then 1024, 256, 64
// (at least four units per worker), and with the largest units also bands of a 4P-th and a
// 2P-th of the items.  The estimated time of a candidate is
//     N / P + critical path * (P - 1) / P + units * unit_cost + edges * edge_cost
//           + cross-band edges * transfer_cost
// Graham's bound for a greedy schedule of the units, plus the scheduling (a unit costs a queue
// operation, an edge a waiting-count update), plus the data movement: a worker keeps the
// successor nearest in the sequence, so each band runs on one core and the bands pipeline, and
// an item edge between bands is a read of a value another core has just written.  Between cores
// that share no cache a cache-line transfer costs 100-250 ns, as much as dozens of cheap functor
// calls: with bands of 65 rows a 1000x1000 wavefront ran up to 1.5x slower on 2 threads than
// with bands of 262 rows on such a machine, and 10% faster when transfers were cheap.
// Smaller units are tried only while the critical path is long and the estimate improves, since
// every candidate costs a pass over the graph.  A level-synchronous plan
// (WorkGraphPlanner::leveled) competes too; it wins on graphs with wide levels and many edges
// between them.  unit_size > 0 forces the unit size.  independent_items: every unit's items are
// independent of each other (WorkGraphPlanner::cut), for workers that run a unit's items at
// once; the level-synchronous plan's units always are.
//
// The estimate counts in cheap functor calls and knows nothing of the functor's own data, so
// it cannot rank plans whose difference is the functor's cost or cache footprint.  Returns the
// schedules a launch chooses between by timing them (WorkGraphPlan, Impl::MeasuredChoice): the
// best estimate first, then at most two contenders:
//   - when the level-synchronous plan wins, bands of four of the largest units: a level of a
//     graph with long edges is scattered over the whole numbering, so the level-synchronous
//     order touches a new cache line per item where a band's levels stay within a working set
//     a core's cache holds (2^20-item random DAG, 6.4 ns per item: bands of 2^14 items 5.4-6.8
//     ms on 2 threads, the level-synchronous plan 7.2-7.8 ms, in the same session);
//   - the runner-up, when its estimate is within 10% of the best (the band height of the
//     wavefront above, which the transfer cost decides).
template <class SizeT, class IndexT>
std::vector<WorkGraphUnits> work_graph_plan_units(const WorkGraphHostCrs<SizeT, IndexT>& g, const WorkGraphOrder& o,
                                                  const std::uint8_t* item_priority, int workers, std::int32_t unit_size,
                                                  bool independent_items = false) {
  // In cheap functor calls (a few ns each): a queue operation and a locked update cost ~20 ns.
  constexpr std::int64_t unit_cost = 32, edge_cost = 8, transfer_cost = 32;
  constexpr int leveled = -1;  // a candidate's shift when it is the level-synchronous plan
  struct Candidate {
    int shift = 0;
    std::int32_t size = 0;
    std::int64_t estimate = 0, edges = 0;
  };
  const std::int64_t n = g.num_items;
  const std::int64_t p = std::max(1, workers);
  std::int32_t largest = unit_size > 0 ? unit_size : 4096;
  if (unit_size <= 0) {
    while (largest > 1 && largest > n / (4 * p)) largest /= 4;
  }
  WorkGraphPlanner<SizeT, IndexT> planner(g, o);
  std::vector<Candidate> candidates;
  auto best = [&] {
    return *std::min_element(candidates.begin(), candidates.end(),
                             [](const Candidate& x, const Candidate& y) { return x.estimate < y.estimate; });
  };
  for (std::int32_t size = largest; size >= 1; size /= 4) {
    const std::int64_t before = candidates.empty() ? -1 : best().estimate;
    std::int64_t shortest_path = n;
    const int shifts[] = {work_graph_log2_ceil(size) + 4, work_graph_log2_ceil((n + 4 * p - 1) / (4 * p)),
                          work_graph_log2_ceil((n + 2 * p - 1) / (2 * p)), planner.one_band};
    for (std::size_t s = 0; s < std::size(shifts); ++s) {
      const int shift = shifts[s];
      if (shift != planner.one_band && (std::int64_t(1) << shift) >= n) continue;  // one band
      if (std::find(shifts, shifts + s, shift) != shifts + s) continue;             // tried
      // Tall bands pipeline with a long critical path that smaller units do not shorten much:
      // they are tried with the largest units only, which keeps construction to a few passes.
      if ((s == 1 || s == 2) && size != largest) continue;
      planner.sequence(shift);
      planner.cut(size, independent_items);
      const auto c = planner.measure();
      const std::int64_t estimate = (n + p - 1) / p + c.critical_path * (p - 1) / p + c.units * unit_cost +
                                    c.edges * edge_cost + c.cross_band_edges * transfer_cost;
      shortest_path = std::min(shortest_path, c.critical_path);
      candidates.push_back({shift, size, estimate, c.edges});
    }
    const bool short_enough = 4 * p * shortest_path <= n;
    const bool improved = before < 0 || best().estimate < before;
    if (unit_size > 0 || short_enough || !improved || size < 4) break;
  }
  if (unit_size <= 0 && p > 1) {
    const auto c = planner.leveled(p, 256);
    const std::int64_t estimate =
        (n + p - 1) / p + c.critical_path * (p - 1) / p + c.units * unit_cost + c.edges * edge_cost;
    candidates.push_back({leveled, 0, estimate, c.edges});
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.estimate < y.estimate; });
  std::vector<Candidate> chosen(1, candidates.front());
  if (unit_size <= 0 && p > 1) {
    const int local_shift = work_graph_log2_ceil(largest) + 2;
    auto add = [&](const Candidate& c) {
      const bool known = std::any_of(chosen.begin(), chosen.end(),
                                     [&](const Candidate& k) { return k.shift == c.shift && k.size == c.size; });
      if (!known) chosen.push_back(c);
    };
    if (chosen[0].shift == leveled && (std::int64_t(1) << local_shift) < n) add({local_shift, largest, 0, 0});
    if (candidates.size() > 1 && 10 * candidates[1].estimate <= 11 * candidates[0].estimate) add(candidates[1]);
  }
  std::vector<WorkGraphUnits> schedules(chosen.size());
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    if (chosen[k].shift == leveled) {
      planner.leveled(p, 256);
      planner.build_leveled(item_priority, schedules[k]);
    } else {
      planner.sequence(chosen[k].shift);
      planner.cut(chosen[k].size, independent_items);
      planner.build(item_priority, chosen[k].edges, schedules[k]);
    }
  }
  return schedules;
}

// The first unit of `units` with an edge between two of its own items (which a worker that
// runs a unit's items at once would run out of order), or work_graph_empty when there is none.
template <class SizeT, class IndexT>
std::int32_t work_graph_unit_with_dependent_items(const WorkGraphHostCrs<SizeT, IndexT>& g, const WorkGraphUnits& units) {
  const auto m = static_cast<std::int32_t>(units.indegree.size());
  std::vector<std::int32_t> unit_of(static_cast<std::size_t>(g.num_items), work_graph_empty);
  const std::vector<std::int32_t> first = work_graph_unit_first(units);
  auto item_at = [&](std::int32_t u, std::int32_t k) {
    return first[static_cast<std::size_t>(u)] != work_graph_empty ? first[static_cast<std::size_t>(u)] + (k - units.begin[static_cast<std::size_t>(u)])
                                                                  : units.items[static_cast<std::size_t>(k)];
  };
  for (std::int32_t u = 0; u < m && !units.begin.empty(); ++u) {
    for (std::int32_t k = units.begin[static_cast<std::size_t>(u)]; k < units.begin[static_cast<std::size_t>(u) + 1]; ++k) {
      unit_of[static_cast<std::size_t>(item_at(u, k))] = u;
    }
  }
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(g.num_items); ++i) {
    const std::int32_t u = unit_of[static_cast<std::size_t>(i)];
    for (std::int64_t e = g.begin(i); e < g.end(i) && u != work_graph_empty; ++e) {
      if (unit_of[static_cast<std::size_t>(g.entry(e))] == u) return u;
    }
  }
  return work_graph_empty;
}

// The schedule a first launch runs on several workers, available right after the levels: the
// level-synchronous plan (WorkGraphPlanner::leveled), which costs two passes over the items and
// none over the edges, or none at all when each level is an index range (its units are then
// index ranges too).  The planner's comparison of candidate cuts costs several passes over
// the graph each; only a policy (or graph) launched again gets it (WorkGraphPlan).
template <class SizeT, class IndexT>
WorkGraphUnits work_graph_first_launch_units(const WorkGraphHostCrs<SizeT, IndexT>& g, const WorkGraphOrder& o,
                                             const std::uint8_t* item_priority, int workers) {
  using Planner = WorkGraphPlanner<SizeT, IndexT>;
  Planner planner(g, o, typename Planner::LevelsOnly{.level_ranges = item_priority == nullptr});
  planner.leveled(std::max(1, workers), 256);
  WorkGraphUnits units;
  planner.build_leveled(item_priority, units);
  return units;
}

// One worker's order without priorities: the banded level order with bands of 4096 items
// (locality of the numbering or of Kahn's order, independent neighbours).
template <class SizeT, class IndexT>
std::vector<std::int32_t> work_graph_serial_order(const WorkGraphHostCrs<SizeT, IndexT>& g, const WorkGraphOrder& o) {
  WorkGraphPlanner<SizeT, IndexT> planner(g, o);
  planner.sequence(12);
  return planner.take_sequence();
}

}  // namespace Kokkos::Impl

#pragma once
// Host-side analysis of a work graph, run once when a WorkGraphPolicy is constructed:
//
//  1. structure: the CRS is well formed (row_map starts at 0, never decreases, ends at
//     entries.extent(0); every entry in [0, N)), and whether every edge goes one way in the
//     numbering (then the numbering is an order and there is no cycle); a pass over ranges of
//     rows that workers share (work_graph_check_rows); otherwise the in-degrees (the seed's
//     waiting counts);
//  2. order: a numbered graph's levels in one pass over its edges (work_graph_numbered_levels),
//     or Kahn's algorithm with one FIFO range per priority in a single ready array
//     (seed §2.4.2), where a successor made ready by the item just taken is taken next unless a
//     higher priority is waiting.  Items left over lie on or behind a cycle, which is found and
//     named in the error.  One worker runs this order when priorities are given; it also
//     yields each item's level (the longest path from a source);
//  3. units (Kokkos_WorkGraphUnits.hpp): a topological order is cut into units of consecutive items that the workers
//     schedule as the seed schedules items.  One ready-queue operation and one waiting-count
//     update per unit instead of per item is what makes a cheap functor worth running as a
//     DAG: a locked read-modify-write costs ~20 ns on current x86 servers, 5-20 times a cheap
//     functor call.  The cut must keep the units' DAG parallel: candidate cuts of "banded
//     level orders" are compared by the critical path of their units' DAG (WorkGraphPlanner).
//     That comparison costs several passes per candidate: a policy's first launch runs the
//     level-synchronous plan (work_graph_first_launch_units), which needs only the levels, and
//     its second the planner's (work_graph_plan_units).
#include <Kokkos_Macros.hpp>
#include <Kokkos_Abort.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

namespace Kokkos::Impl {

inline constexpr std::int64_t work_graph_max_items = std::numeric_limits<std::int32_t>::max() - 1;
inline constexpr int work_graph_max_priorities = 16;
inline constexpr std::int32_t work_graph_empty = -1;

// A host-accessible CRS: the successors of item i are entries[row_map[i] .. row_map[i+1]).
template <class SizeT, class IndexT>
struct WorkGraphHostCrs {
  std::int64_t num_items = 0;
  const SizeT* row_map = nullptr;
  const IndexT* entries = nullptr;

  std::int64_t begin(std::int64_t i) const { return static_cast<std::int64_t>(row_map[i]); }
  std::int64_t end(std::int64_t i) const { return static_cast<std::int64_t>(row_map[i + 1]); }
  std::int32_t entry(std::int64_t k) const { return static_cast<std::int32_t>(entries[k]); }
};

// A fingerprint of a graph's contents, to tell a graph that is unchanged since a plan was made
// for it (a policy rebuilt in a time-step loop reuses the plan) from one modified in place.
// Per array, a sum over its 64-bit words w = (hi, lo) at positions k of
//     ((lo + a_k) mod 2^32) * ((hi + b_k) mod 2^32) + w        (mod 2^64)
// with keys a_k, b_k that step by odd constants (NH, the hash of UMAC, plus the word itself).
// A change of one 32-bit element changes the sum (the product changes by d * (other half +
// key), the word by d or d * 2^32, and the two never cancel, since the other half plus its key
// stays below 2^32); the keys make the term depend on the position, so moved values change it
// too.  The terms are independent and 32x32->64-bit multiplies vectorise, so a pass runs at
// about the speed of reading the arrays; and a sum splits into ranges of words that the workers
// fingerprint in parallel (work_graph_fingerprint_words).
struct WorkGraphFingerprint {
  std::uint64_t row_map = 0, entries = 0;
  friend bool operator==(const WorkGraphFingerprint&, const WorkGraphFingerprint&) = default;
};

// The number of words of an array of `bytes` bytes (a last partial word counts as one).
inline constexpr std::size_t work_graph_fingerprint_word_count(std::size_t bytes) { return (bytes + 7) / 8; }

// The sum of the terms of words [first, last) of an array of `bytes` bytes.
inline std::uint64_t work_graph_fingerprint_words(const void* data, std::size_t bytes, std::size_t first,
                                                  std::size_t last) {
  constexpr std::uint32_t step_a = 0x632BE59Bu, step_b = 0xD9B4E019u;
  const auto* p = static_cast<const unsigned char*>(data);
  const std::size_t whole = bytes / 8;
  std::uint32_t a = 0x9E3779B9u + static_cast<std::uint32_t>(first) * step_a;
  std::uint32_t b = 0x7F4A7C15u + static_cast<std::uint32_t>(first) * step_b;
  auto term = [&](std::uint64_t w) {
    const std::uint32_t lo = static_cast<std::uint32_t>(w) + a, hi = static_cast<std::uint32_t>(w >> 32) + b;
    a += step_a;
    b += step_b;
    return static_cast<std::uint64_t>(lo) * hi + w;
  };
  std::uint64_t sum = 0;
  const std::size_t end = last < whole ? last : whole;
  for (std::size_t k = first; k < end; ++k) {
    std::uint64_t w;
    std::memcpy(&w, p + 8 * k, 8);
    sum += term(w);
  }
  if (bytes % 8 != 0 && first <= whole && whole < last) {
    std::uint64_t w = 0;
    std::memcpy(&w, p + 8 * whole, bytes % 8);
    sum += term(w);
  }
  return sum;
}

// The fingerprint of one array from the sum of all its words' terms.
inline std::uint64_t work_graph_fingerprint_finish(std::uint64_t sum, std::size_t bytes) { return sum ^ bytes; }

template <class SizeT, class IndexT>
WorkGraphFingerprint work_graph_fingerprint(std::size_t row_map_extent, const SizeT* row_map, std::size_t num_entries,
                                            const IndexT* entries) {
  const std::size_t row_bytes = row_map_extent * sizeof(SizeT), entry_bytes = num_entries * sizeof(IndexT);
  return {work_graph_fingerprint_finish(
              work_graph_fingerprint_words(row_map, row_bytes, 0, work_graph_fingerprint_word_count(row_bytes)), row_bytes),
          work_graph_fingerprint_finish(
              work_graph_fingerprint_words(entries, entry_bytes, 0, work_graph_fingerprint_word_count(entry_bytes)),
              entry_bytes)};
}

// Checks what does not need a pass: the sizes, row_map(0) and the last offset.  `who` prefixes
// the messages ("Kokkos::WorkGraphPolicy").
template <class SizeT>
void work_graph_check_shape(const std::string& who, std::size_t row_map_extent, const SizeT* row_map,
                            std::size_t num_entries) {
  const std::string bad = who + ": malformed graph: ";
  if (row_map_extent == 0) {
    if (num_entries != 0) {
      throw_runtime_exception(bad + "row_map is empty (no work items) but entries.extent(0) = " +
                              std::to_string(num_entries));
    }
    return;
  }
  const std::int64_t n = static_cast<std::int64_t>(row_map_extent) - 1;
  if (n > work_graph_max_items) {
    throw_runtime_exception(who + ": " + std::to_string(n) + " work items exceed the limit of " +
                            std::to_string(work_graph_max_items));
  }
  if (num_entries > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw_runtime_exception(who + ": " + std::to_string(num_entries) + " dependences exceed the limit of " +
                            std::to_string(std::numeric_limits<std::int32_t>::max()));
  }
  const auto first = static_cast<std::int64_t>(row_map[0]);
  if (first != 0) throw_runtime_exception(bad + "row_map(0) = " + std::to_string(first) + ", expected 0");
}

// What a pass over some rows of a CRS finds: whether they are well formed (row_map never
// decreases and stays within the entries, every entry is an item), and whether every edge goes
// forward (or every edge backward) in the numbering -- then the graph has no cycle, and the
// numbering is a topological order.  Rows split into ranges that workers check in parallel.
struct WorkGraphRowCheck {
  bool well_formed = true, forward = true, backward = true;
  void join(const WorkGraphRowCheck& other) {
    well_formed = well_formed && other.well_formed;
    forward = forward && other.forward;
    backward = backward && other.backward;
  }
};

// Checks rows [first, last) of a graph of n items (and row_map(last)).  With entry_rows, also
// stores the row of each of their entries there (see work_graph_entry_rows), which the loop
// over the rows has at hand.
template <class SizeT, class IndexT>
WorkGraphRowCheck work_graph_check_rows(const SizeT* row_map, const IndexT* entries, std::size_t num_entries,
                                        std::int64_t n, std::int64_t first, std::int64_t last,
                                        std::int32_t* entry_rows = nullptr) {
  WorkGraphRowCheck c;
  const auto m = static_cast<std::int64_t>(num_entries);
  bool outside = false, forward = true, backward = true;
  auto check = [&](auto store_rows) {
    for (std::int64_t i = first; i < last; ++i) {
      const auto b = static_cast<std::int64_t>(row_map[i]), e = static_cast<std::int64_t>(row_map[i + 1]);
      if (b < 0 || e < b || e > m) return false;
      for (std::int64_t k = b; k < e; ++k) {
        const auto j = static_cast<std::int64_t>(entries[k]);
        outside |= static_cast<std::uint64_t>(j) >= static_cast<std::uint64_t>(n);
        forward &= j > i;
        backward &= j < i;
        if constexpr (decltype(store_rows)::value) entry_rows[k] = static_cast<std::int32_t>(i);
      }
    }
    return true;
  };
  const bool rows_fine = entry_rows != nullptr ? check(std::true_type{}) : check(std::false_type{});
  c.well_formed = rows_fine && !outside;
  c.forward = forward;
  c.backward = backward;
  return c;
}

// Each item's in-degree (the seed's waiting counts), of a graph already checked.
template <class IndexT>
std::vector<std::int32_t> work_graph_checked_indegrees(std::int64_t n, const IndexT* entries, std::size_t num_entries) {
  std::vector<std::int32_t> indegree(static_cast<std::size_t>(n), 0);
  std::int32_t* const count = indegree.data();
  for (std::size_t k = 0; k < num_entries; ++k) ++count[entries[k]];
  return indegree;
}

// What a sequential pass over the graph learns: the in-degrees and the directions (above).
struct WorkGraphScan {
  std::vector<std::int32_t> indegree;
  bool forward = true, backward = true;
};

// Checks that the CRS is well formed, naming the first problem, and scans it (above).
template <class SizeT, class IndexT>
WorkGraphScan work_graph_scan(const std::string& who, std::size_t row_map_extent, const SizeT* row_map,
                              std::size_t num_entries, const IndexT* entries) {
  const std::string bad = who + ": malformed graph: ";
  work_graph_check_shape(who, row_map_extent, row_map, num_entries);
  WorkGraphScan scan;
  if (row_map_extent == 0) return scan;
  const std::int64_t n = static_cast<std::int64_t>(row_map_extent) - 1;
  auto at = [&](std::int64_t i) { return static_cast<std::int64_t>(row_map[i]); };
  for (std::int64_t i = 0; i < n; ++i) {
    if (at(i + 1) < at(i)) {
      throw_runtime_exception(bad + "row_map decreases at row " + std::to_string(i) + ": row_map(" +
                              std::to_string(i) + ") = " + std::to_string(at(i)) + " > row_map(" +
                              std::to_string(i + 1) + ") = " + std::to_string(at(i + 1)));
    }
  }
  if (at(n) != static_cast<std::int64_t>(num_entries)) {
    throw_runtime_exception(bad + "row_map(" + std::to_string(n) + ") = " + std::to_string(at(n)) +
                            " (the last offset) differs from entries.extent(0) = " + std::to_string(num_entries));
  }
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t k = at(i); k < at(i + 1); ++k) {
      const auto j = entries[k];
      if (j < 0 || static_cast<std::int64_t>(j) >= n) {
        throw_runtime_exception(bad + "entries(" + std::to_string(k) + ") = " + std::to_string(j) + " (in row " +
                                std::to_string(i) + ") is outside the work items [0, " + std::to_string(n) + ")");
      }
    }
  }
  const WorkGraphRowCheck c = work_graph_check_rows(row_map, entries, num_entries, n, 0, n);
  scan.forward = c.forward;
  scan.backward = c.backward;
  scan.indegree = work_graph_checked_indegrees(n, entries, num_entries);
  return scan;
}

// Checks that the CRS is well formed and returns each item's in-degree.
template <class SizeT, class IndexT>
std::vector<std::int32_t> work_graph_indegrees(const std::string& who, std::size_t row_map_extent,
                                               const SizeT* row_map, std::size_t num_entries,
                                               const IndexT* entries) {
  return work_graph_scan(who, row_map_extent, row_map, num_entries, entries).indegree;
}

// The seed's ready queue (§2.4, §2.4.2) on the host: one array of all items, one FIFO range per
// priority sized to the number of items of that priority, so nothing can overflow.
class WorkGraphReadyRanges {
 public:
  // priority[i] in [0, num_priorities), or null for a single priority.
  WorkGraphReadyRanges(const std::uint8_t* priority, std::int32_t n, int num_priorities)
      : m_priority(priority), m_slots(static_cast<std::size_t>(n)) {
    m_head.assign(static_cast<std::size_t>(num_priorities), 0);
    if (priority != nullptr) {
      for (std::int32_t i = 0; i < n; ++i) ++m_head[priority[i]];
    } else {
      m_head[0] = n;
    }
    std::int32_t begin = 0;
    for (auto& h : m_head) {
      const std::int32_t count = h;
      h = begin;
      begin += count;
    }
    m_begin = m_head;
    m_tail = m_head;
  }

  int priority_of(std::int32_t i) const { return m_priority != nullptr ? m_priority[i] : 0; }
  void push(std::int32_t i) { m_slots[static_cast<std::size_t>(m_tail[static_cast<std::size_t>(priority_of(i))]++)] = i; }
  std::int32_t pop() {
    for (std::size_t p = 0; p < m_head.size(); ++p) {
      if (m_head[p] < m_tail[p]) return m_slots[static_cast<std::size_t>(m_head[p]++)];
    }
    return work_graph_empty;
  }
  // Whether an item of a higher priority (smaller number) than p is waiting.
  bool higher_waiting(int p) const {
    for (int q = 0; q < p; ++q) {
      if (m_head[static_cast<std::size_t>(q)] < m_tail[static_cast<std::size_t>(q)]) return true;
    }
    return false;
  }
  const std::vector<std::int32_t>& range_begin() const { return m_begin; }
  const std::vector<std::int32_t>& tails() const { return m_tail; }
  const std::vector<std::int32_t>& slots() const { return m_slots; }

 private:
  const std::uint8_t* m_priority;
  std::vector<std::int32_t> m_slots;
  std::vector<std::int32_t> m_begin, m_head, m_tail;
};

struct WorkGraphOrder {
  std::vector<std::int32_t> order;        // a topological order: what one worker runs
  std::vector<std::int32_t> level;        // per item: the longest path from a source, in edges
  std::int32_t num_levels = 0;
  // Of a numbered graph whose levels never decrease along the numbering (ascending indices when
  // its edges go forward, descending when they go backward: a tree or a mesh numbered level by
  // level): where each level starts along it, and a last entry n.  Level l is then the index
  // range [level_start[l], level_start[l+1]) going forward, [n - level_start[l+1], n -
  // level_start[l]) going backward.  Empty for other graphs.
  std::vector<std::int32_t> level_start;
  bool backward = false;  // the numbering's order is descending
};

// Kahn's algorithm, keeping the successor it just made ready (see the file comment).  Returns
// false on a cycle; `waiting` (the in-degrees on entry) then holds the counts of the items left.
template <class SizeT, class IndexT>
bool work_graph_order(const WorkGraphHostCrs<SizeT, IndexT>& g, std::vector<std::int32_t>& waiting,
                      const std::uint8_t* priority, int num_priorities, WorkGraphOrder& out) {
  const auto n = static_cast<std::int32_t>(g.num_items);
  WorkGraphReadyRanges ready(priority, n, num_priorities);
  for (std::int32_t i = 0; i < n; ++i) {
    if (waiting[static_cast<std::size_t>(i)] == 0) ready.push(i);
  }
  out.order.resize(static_cast<std::size_t>(n));
  out.level.assign(static_cast<std::size_t>(n), 0);
  std::int32_t count = 0, top_level = -1;
  std::int32_t kept = work_graph_empty;
  for (;;) {
    std::int32_t i = kept;
    if (i == work_graph_empty) {
      i = ready.pop();
      if (i == work_graph_empty) break;
    }
    out.order[static_cast<std::size_t>(count++)] = i;
    const std::int32_t next_level = out.level[static_cast<std::size_t>(i)] + 1;
    top_level = std::max(top_level, next_level - 1);
    kept = work_graph_empty;
    for (std::int64_t k = g.begin(i); k < g.end(i); ++k) {
      const std::int32_t j = g.entry(k);
      auto& lj = out.level[static_cast<std::size_t>(j)];
      lj = std::max(lj, next_level);
      if (--waiting[static_cast<std::size_t>(j)] != 0) continue;
      if (kept == work_graph_empty) {
        kept = j;
      } else if (ready.priority_of(j) < ready.priority_of(kept)) {
        ready.push(kept);
        kept = j;
      } else {
        ready.push(j);
      }
    }
    if (kept != work_graph_empty && ready.higher_waiting(ready.priority_of(kept))) {
      ready.push(kept);
      kept = work_graph_empty;
    }
  }
  out.num_levels = top_level + 1;
  if (count != n) {
    out.order.resize(static_cast<std::size_t>(count));
    return false;
  }
  return true;
}

// The row of every entry of a well-formed CRS (the edges' sources, as a coordinate list), from
// the rows' starts: entry k is in row i when i rows after row 0 start at or before k.  No
// branch depends on a row's length: a loop over the rows and their entries mispredicts the end
// of almost every row of a graph whose rows hold 0-3 entries, which costs more than the rest.
template <class SizeT, class IndexT>
std::vector<std::int32_t> work_graph_entry_rows(const WorkGraphHostCrs<SizeT, IndexT>& g) {
  const std::int64_t n = g.num_items, m = n > 0 ? g.end(n - 1) : 0;
  std::vector<std::int32_t> row(static_cast<std::size_t>(m) + 1, 0);
  std::int32_t* const r = row.data();
  for (std::int64_t i = 1; i < n; ++i) ++r[g.begin(i)];
  std::int32_t rows = 0;
  for (std::int64_t k = 0; k < m; ++k) {
    rows += r[k];
    r[k] = rows;
  }
  row.pop_back();
  return row;
}

// Levels of a graph whose every edge goes forward (or every edge backward) in the numbering:
// the numbering is a topological order, so one pass over the edges in that order (the rows'
// entries are stored in it) relaxes every edge after its source's level is final.  No order is
// stored: the planner and the one-worker launch use the numbering.  A pass along the numbering
// then notes whether levels never decrease along it (level_start above).
template <class SizeT, class IndexT>
void work_graph_numbered_levels(const WorkGraphHostCrs<SizeT, IndexT>& g, bool forward, WorkGraphOrder& out,
                                const std::int32_t* entry_rows = nullptr) {
  const auto n = static_cast<std::int32_t>(g.num_items);
  out.order.clear();
  out.level.assign(static_cast<std::size_t>(n), 0);
  out.level_start.clear();
  out.backward = !forward;
  out.num_levels = 0;
  if (n == 0) return;
  std::int32_t* const level = out.level.data();
  // The rows of the entries, unless the caller has them (work_graph_check_rows).
  std::vector<std::int32_t> rows;
  if (entry_rows == nullptr) {
    rows = work_graph_entry_rows(g);
    entry_rows = rows.data();
  }
  const std::int64_t m = g.end(n - 1);
  auto relax = [&](std::int64_t k) {
    const std::int32_t next = level[entry_rows[k]] + 1;
    std::int32_t& lj = level[g.entry(k)];
    lj = std::max(lj, next);
  };
  if (forward) {
    for (std::int64_t k = 0; k < m; ++k) relax(k);
  } else {
    for (std::int64_t k = m; k-- > 0;) relax(k);
  }
  // Levels along the numbering's order: each is the same as the item's before or one more
  // while they are in order (one more than every level so far is the most a level can be).
  std::vector<std::int32_t> starts(1, 0);
  std::int32_t top = 0;
  bool in_order = true;
  for (std::int32_t k = 0; k < n && in_order; ++k) {
    const std::int32_t l = level[forward ? k : n - 1 - k];
    if (l < top) {
      in_order = false;
    } else if (l > top) {
      starts.push_back(k);
      top = l;
    }
  }
  out.num_levels = (in_order ? top : *std::max_element(level, level + n)) + 1;
  if (in_order) {
    starts.push_back(n);
    out.level_start = std::move(starts);
  }
}

// Kahn's algorithm without priorities: first in, first out, with the levels.  What the
// planner needs of an order (any topological order will do) at the cost of a plain
// topological sort plus one level update per edge.  Returns false on a cycle; `waiting` then
// holds the counts of the items left.
template <class SizeT, class IndexT>
bool work_graph_fifo_order(const WorkGraphHostCrs<SizeT, IndexT>& g, std::vector<std::int32_t>& waiting,
                           WorkGraphOrder& out) {
  const auto n = static_cast<std::int32_t>(g.num_items);
  out.order.resize(static_cast<std::size_t>(n));
  out.level.assign(static_cast<std::size_t>(n), 0);
  std::int32_t* const order = out.order.data();
  std::int32_t* const level = out.level.data();
  std::int32_t* const wait = waiting.data();
  std::int32_t tail = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    if (wait[i] == 0) order[tail++] = i;
  }
  std::int32_t top = -1;
  for (std::int32_t head = 0; head < tail; ++head) {
    const std::int32_t i = order[head];
    const std::int32_t next = level[i] + 1;
    if (next - 1 > top) top = next - 1;
    for (std::int64_t e = g.begin(i); e < g.end(i); ++e) {
      const std::int32_t j = g.entry(e);
      if (level[j] < next) level[j] = next;
      if (--wait[j] == 0) order[tail++] = j;
    }
  }
  out.num_levels = top + 1;
  if (tail != n) {
    out.order.resize(static_cast<std::size_t>(tail));
    return false;
  }
  return true;
}

inline std::string work_graph_index_list(const std::vector<std::int32_t>& items, std::size_t limit,
                                         const char* separator) {
  std::string s;
  for (std::size_t k = 0; k < items.size() && k < limit; ++k) {
    if (k > 0) s += separator;
    s += std::to_string(items[k]);
  }
  if (items.size() > limit) s += std::string(separator) + "... (" + std::to_string(items.size() - limit) + " more)";
  return s;
}

// The message for a graph whose items `left` (left[i] != 0) can never run: names one cycle
// (found by depth-first search over the items left, all of whose successors are also left)
// and the items left.
template <class SizeT, class IndexT>
std::string work_graph_cycle_message(const std::string& who, const WorkGraphHostCrs<SizeT, IndexT>& g,
                                     const std::vector<std::uint8_t>& left) {
  const auto n = static_cast<std::int32_t>(g.num_items);
  std::vector<std::int32_t> remaining;
  for (std::int32_t i = 0; i < n; ++i) {
    if (left[static_cast<std::size_t>(i)]) remaining.push_back(i);
  }
  enum : std::uint8_t { white = 0, grey = 1, black = 2 };
  std::vector<std::uint8_t> colour(static_cast<std::size_t>(n), white);
  struct Frame {
    std::int32_t item;
    std::int64_t next;
  };
  std::vector<Frame> stack;
  std::vector<std::int32_t> cycle;
  for (std::int32_t s : remaining) {
    if (!cycle.empty()) break;
    if (colour[static_cast<std::size_t>(s)] != white) continue;
    stack.push_back({s, g.begin(s)});
    colour[static_cast<std::size_t>(s)] = grey;
    while (!stack.empty() && cycle.empty()) {
      Frame& f = stack.back();
      if (f.next == g.end(f.item)) {
        colour[static_cast<std::size_t>(f.item)] = black;
        stack.pop_back();
        continue;
      }
      const std::int32_t j = g.entry(f.next++);
      if (!left[static_cast<std::size_t>(j)] || colour[static_cast<std::size_t>(j)] == black) continue;
      if (colour[static_cast<std::size_t>(j)] == grey) {
        std::size_t k = stack.size();
        while (stack[k - 1].item != j) --k;
        for (; k <= stack.size(); ++k) cycle.push_back(stack[k - 1].item);
        cycle.push_back(j);
      } else {
        colour[static_cast<std::size_t>(j)] = grey;
        stack.push_back({j, g.begin(j)});
      }
    }
  }
  std::string msg = who + ": the graph has a cycle, so its work items cannot all run: ";
  msg += cycle.empty() ? std::string("(no cycle found)") : work_graph_index_list(cycle, 32, " -> ");
  msg += ". " + std::to_string(remaining.size()) + " of " + std::to_string(n) +
         " work items are on a cycle or wait on one: " + work_graph_index_list(remaining, 32, ", ");
  return msg;
}

}  // namespace Kokkos::Impl

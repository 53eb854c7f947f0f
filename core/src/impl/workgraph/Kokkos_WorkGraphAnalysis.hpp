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
//  3. units: a topological order is cut into units of consecutive items that the workers
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

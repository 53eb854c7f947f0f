// libFuzzer target: Kokkos::WorkGraphPolicy's input checks.  The bytes make a CRS (an edge list,
// then a few raw edits of row_map and entries) and the policy's options; a reference check here
// says whether it is malformed, cyclic or fine.  A malformed CRS, or a cycle with the check on,
// must be rejected with std::runtime_error; anything else must construct, and every launch must
// run each item exactly once, after every item it executes after.
#include <Kokkos_Core.hpp>
#include <Kokkos_Crs.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// One byte a choice, zeros once the bytes run out.
struct Bytes {
  const std::uint8_t* data;
  std::size_t left;
  int pick(int k) {
    if (left == 0) return 0;
    --left;
    return *data++ % k;
  }
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "FuzzWorkGraphInput: %s\n", what.c_str());
  std::abort();
}

enum class Verdict { malformed, cyclic, fine };

// The reference: the CRS rules the policy documents, then Kahn's algorithm.
Verdict judge(const std::vector<std::int32_t>& row_map, const std::vector<std::int32_t>& entries) {
  if (row_map.empty()) return entries.empty() ? Verdict::fine : Verdict::malformed;
  const auto n = static_cast<std::int32_t>(row_map.size() - 1);
  if (row_map[0] != 0) return Verdict::malformed;
  for (std::int32_t i = 0; i < n; ++i) {
    if (row_map[i] > row_map[i + 1]) return Verdict::malformed;
  }
  if (static_cast<std::size_t>(row_map[n]) != entries.size()) return Verdict::malformed;
  for (std::int32_t j : entries) {
    if (j < 0 || j >= n) return Verdict::malformed;
  }
  std::vector<std::int32_t> waiting(n, 0), ready;
  for (std::int32_t j : entries) ++waiting[j];
  for (std::int32_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) ready.push_back(i);
  }
  for (std::size_t k = 0; k < ready.size(); ++k) {
    const std::int32_t i = ready[k];
    for (std::int32_t e = row_map[i]; e < row_map[i + 1]; ++e) {
      if (--waiting[entries[e]] == 0) ready.push_back(entries[e]);
    }
  }
  return ready.size() == static_cast<std::size_t>(n) ? Verdict::fine : Verdict::cyclic;
}

// Stamps each item's start and end on one clock, and counts its runs.
struct Recorder {
  Kokkos::View<std::int64_t, Kokkos::HostSpace> clock;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> start, end, runs;
  void operator()(std::int32_t i) const {
    start(i) = Kokkos::atomic_fetch_add(&clock(), std::int64_t(1));
    Kokkos::atomic_add(&runs(i), std::int64_t(1));
    end(i) = Kokkos::atomic_fetch_add(&clock(), std::int64_t(1));
  }
};

template <class Space>
void run(Bytes& bytes, const std::vector<std::int32_t>& row_map, const std::vector<std::int32_t>& entries) {
  using Policy = Kokkos::WorkGraphPolicy<Space, Kokkos::IndexType<std::int32_t>>;
  using Graph = typename Policy::graph_type;
  typename Policy::options_type options;
  options.check_graph = bytes.pick(4) != 0;
  options.unit_size = bytes.pick(4);
  const bool prioritised = bytes.pick(4) == 0;
  const int launches = 1 + bytes.pick(3);

  Graph g;
  g.row_map = typename Graph::row_map_type("row_map", row_map.size());
  g.entries = typename Graph::entries_type("entries", entries.size());
  for (std::size_t k = 0; k < row_map.size(); ++k) g.row_map(k) = row_map[k];
  for (std::size_t k = 0; k < entries.size(); ++k) g.entries(k) = entries[k];
  const std::int32_t n = row_map.empty() ? 0 : static_cast<std::int32_t>(row_map.size() - 1);
  Kokkos::View<std::uint8_t*, Kokkos::HostSpace> priority("priority", static_cast<std::size_t>(n));
  for (std::int32_t i = 0; i < n; ++i) priority(i) = static_cast<std::uint8_t>(bytes.pick(3));

  const Verdict verdict = judge(row_map, entries);
  const bool must_reject = verdict == Verdict::malformed || (verdict == Verdict::cyclic && options.check_graph);
  std::string rejected;
  Policy* policy = nullptr;
  try {
    policy = prioritised ? new Policy(g, priority, options) : new Policy(g, options);
  } catch (const std::runtime_error& e) {
    rejected = e.what();
  }
  if (must_reject != !rejected.empty()) {
    delete policy;
    fail(must_reject ? "a " + std::string(verdict == Verdict::cyclic ? "cyclic" : "malformed") + " graph was accepted"
                     : "a well-formed graph was rejected: " + rejected);
  }
  if (!rejected.empty()) {
    if (rejected.find("Kokkos::WorkGraphPolicy") == std::string::npos) fail("the message names no policy: " + rejected);
    return;
  }
  // Unchecked and cyclic: a launch aborts by design, so only the construction is under test.
  if (verdict == Verdict::cyclic) {
    delete policy;
    return;
  }
  Recorder r{Kokkos::View<std::int64_t, Kokkos::HostSpace>("clock"),
             Kokkos::View<std::int64_t*, Kokkos::HostSpace>("start", static_cast<std::size_t>(n)),
             Kokkos::View<std::int64_t*, Kokkos::HostSpace>("end", static_cast<std::size_t>(n)),
             Kokkos::View<std::int64_t*, Kokkos::HostSpace>("runs", static_cast<std::size_t>(n))};
  // Later launches run the plan's second schedule (and timed contenders); each must be correct.
  for (int l = 0; l < launches; ++l) {
    Kokkos::deep_copy(r.runs, 0);
    Kokkos::parallel_for("fuzz", *policy, r);
    Kokkos::fence();
    for (std::int32_t i = 0; i < n; ++i) {
      if (r.runs(i) != 1) fail("launch " + std::to_string(l) + ": item " + std::to_string(i) + " ran " + std::to_string(r.runs(i)) + " times");
      for (std::int32_t e = row_map[i]; e < row_map[i + 1]; ++e) {
        const std::int32_t j = entries[e];
        if (r.start(j) < r.end(i)) {
          fail("launch " + std::to_string(l) + ": item " + std::to_string(j) + " started before item " + std::to_string(i) + " returned");
        }
      }
    }
  }
  delete policy;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Never finalized: libFuzzer leaves through exit(), and Kokkos::finalize from an exit handler
  // would run after the library's own function-local statics are gone.
  Kokkos::initialize(Kokkos::InitializationSettings().set_num_threads(2));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes bytes{data, size};
  const bool threads = bytes.pick(2) == 1;
  // n items (-1: a row_map with no rows at all), then up to 4 n edges, then up to three edits.
  const int n = bytes.pick(66) - 1;
  std::vector<std::int32_t> row_map, entries;
  if (n >= 0) {
    std::vector<std::vector<std::int32_t>> after(static_cast<std::size_t>(n));
    const int edges = n == 0 ? 0 : bytes.pick(4 * n + 1);
    for (int e = 0; e < edges; ++e) {
      const int i = bytes.pick(n), j = bytes.pick(n);
      // Mostly forward or backward edges (a numbering), sometimes as drawn (cycles possible).
      const int how = bytes.pick(4);
      const int lo = i < j ? i : j, hi = i < j ? j : i;
      if (how == 3) {
        after[i].push_back(j);
      } else if (lo != hi) {
        if (how == 2) {
          after[hi].push_back(lo);
        } else {
          after[lo].push_back(hi);
        }
      }
    }
    row_map.push_back(0);
    for (const auto& row : after) {
      entries.insert(entries.end(), row.begin(), row.end());
      row_map.push_back(static_cast<std::int32_t>(entries.size()));
    }
  }
  for (int edits = bytes.pick(4); edits > 0; --edits) {
    // A value near the valid range: -2 .. n + 2.
    const std::int32_t value = bytes.pick(n + 6) - 2;
    if (bytes.pick(2) == 0 && !row_map.empty()) {
      row_map[bytes.pick(static_cast<int>(row_map.size()))] = value;
    } else if (!entries.empty()) {
      entries[bytes.pick(static_cast<int>(entries.size()))] = value;
    }
  }
  if (threads) {
    run<Kokkos::DefaultHostExecutionSpace>(bytes, row_map, entries);
  } else {
    run<Kokkos::Serial>(bytes, row_map, entries);
  }
  return 0;
}

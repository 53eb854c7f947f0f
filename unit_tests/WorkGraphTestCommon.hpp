// Helpers shared by the work graph tests (TestWorkGraph, TestWorkGraphStress).
#pragma once

#include <Kokkos_Core.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace Kokkos::Test {

using WorkGraphEdges = std::vector<std::pair<std::int32_t, std::int32_t>>;  // (before, after)

// The execute-after graph of `edges`: row i lists the items after i, in the order given.
template <class Policy>
typename Policy::graph_type make_work_graph_of(std::int32_t n, const WorkGraphEdges& edges) {
  using Graph = typename Policy::graph_type;
  Graph g;
  g.row_map = typename Graph::row_map_type("row_map", static_cast<std::size_t>(n) + 1);
  g.entries = typename Graph::entries_type("entries", edges.size());
  auto rows = Kokkos::create_mirror_view(g.row_map);
  auto entries = Kokkos::create_mirror_view(g.entries);
  std::vector<std::int32_t> cursor(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& e : edges) ++cursor[static_cast<std::size_t>(e.first) + 1];
  for (std::int32_t i = 0; i < n; ++i) cursor[static_cast<std::size_t>(i) + 1] += cursor[static_cast<std::size_t>(i)];
  for (std::int32_t i = 0; i <= n; ++i) rows(i) = cursor[static_cast<std::size_t>(i)];
  for (const auto& e : edges) entries(cursor[static_cast<std::size_t>(e.first)]++) = e.second;
  Kokkos::deep_copy(g.row_map, rows);
  Kokkos::deep_copy(g.entries, entries);
  return g;
}

// Constructing a policy over `graph` throws std::runtime_error with `expected` in its message.
template <class Policy>
void expect_rejected(const typename Policy::graph_type& graph, const std::string& expected,
                     const typename Policy::options_type& options = {}) {
  try {
    const Policy policy(graph, options);
    ADD_FAILURE() << "no exception; expected " << expected;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

// A ready queue driven by hand: `ready` holds the homes' slots, then the shared queue's.  Home w
// is the slots [home_bounds[w], home_bounds[w+1]); the shared queue holds the slots from
// home_bounds.back() to shared_tail.
struct HandWorkGraphQueue {
  std::vector<std::int32_t> ready, control;
  std::vector<std::int64_t> homes;
  Kokkos::Impl::WorkGraphQueue q;

  HandWorkGraphQueue(std::vector<std::int32_t> units, const std::vector<std::int32_t>& home_bounds, std::int32_t shared_tail)
      : ready(std::move(units)) {
    using Queue = Kokkos::Impl::WorkGraphQueue;
    const int workers = static_cast<int>(home_bounds.size()) - 1;
    control.assign(Queue::control_size(1, workers), 0);
    homes.assign(static_cast<std::size_t>(workers) * Queue::home_stride, 0);
    q.num_units = static_cast<std::int32_t>(ready.size());
    q.max_workers = workers;
    q.ready = ready.data();
    q.control = control.data();
    q.homes = homes.data();
    q.num_homes = workers;
    for (int w = 0; w < workers; ++w) {
      *q.home(w) = Queue::pack_home(home_bounds[static_cast<std::size_t>(w)], home_bounds[static_cast<std::size_t>(w) + 1]);
    }
    *q.head(0) = home_bounds.back();
    *q.tail(0) = shared_tail;
  }
  HandWorkGraphQueue(const HandWorkGraphQueue&) = delete;
  HandWorkGraphQueue& operator=(const HandWorkGraphQueue&) = delete;
};

// The items of each scheduling unit of one of the schedules a policy planned, on the host.
template <class Policy>
std::vector<std::vector<std::int32_t>> planned_units(const Policy& policy, int schedule = 0) {
  const auto& plan = policy.impl_plan()->schedules.at(static_cast<std::size_t>(schedule));
  auto items = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plan.unit_items);
  auto begin = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plan.unit_begin);
  auto first = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plan.unit_first);
  // Units that are index ranges may come without an items array (unit_first alone).
  const bool ranges_only = items.extent(0) == 0;
  std::vector<std::vector<std::int32_t>> units(static_cast<std::size_t>(plan.num_units));
  for (std::int32_t u = 0; u < plan.num_units; ++u) {
    for (std::int32_t k = begin(u); k < begin(u + 1); ++k) {
      units[static_cast<std::size_t>(u)].push_back(ranges_only ? first(u) + (k - begin(u)) : items(k));
    }
  }
  return units;
}

}  // namespace Kokkos::Test

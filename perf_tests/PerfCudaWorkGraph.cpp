// Work DAGs on the GPU: WorkGraphPolicy<Kokkos::Cuda>, which times two ways and runs the faster
// (one persistent kernel whose warps pull ready units from a device queue, or one kernel per
// level recorded into a CUDA graph: impl/workgraph/Kokkos_WorkGraphLevels.hpp), beside the
// level-synchronous baselines: one parallel_for per topological level, each over that level's
// items, launched one by one (what a user writes), and the same per-level kernels hand-written in
// CUDA and recorded once into a CUDA graph that each pass replays (the best a user can do by hand,
// and what the work graph's per-level way does).  All three are measured interleaved in the same
// run on the same graph and functor, each pass followed by a fence:
//
//   CudaWorkGraph/Wavefront  1000 x 1000 grid, (i, j) after (i-1, j) and (i, j-1): 1999 levels
//   CudaWorkGraph/Tree       binary-tree reduction, 2^20 - 1 items (each node after its two
//                            children): 20 levels
//
// Counters:  workgraph_ms      one WorkGraphPolicy launch (the policy constructed beforehand)
//            levelsync_ms      the level-synchronous pass
//            vs_levelsync      levelsync_ms / workgraph_ms (> 1: the work graph is faster; goal)
//            levelgraph_ms     the hand-made CUDA graph of per-level kernels, one replay
//            vs_levelgraph     levelgraph_ms / workgraph_ms (about 1 where the work graph runs
//                              its per-level way: the same kernels, replayed the same way)
//            items_per_s       items per second of the work graph
//            way               the way the work graph settled on: 0 the persistent queue,
//                              1 one kernel per level (-1: it made no choice)
//            level_launches    launches of the work graph that ran the per-level way
//            graph_replays     of those, launches of the recorded CUDA graph
// Before measuring, the policy is launched warm_launches (72) times: its second launch plans
// (levels included) and starts the choice between the ways, whose first epoch (64 launches) and
// the next epoch's re-timing of each way (3 launches each) end before the 72nd, so that the
// measured launches run the settled way.
// The three results are checked against a sequential pass on the host (the functors are
// deterministic, so every value must match bitwise).  Every benchmark skips, naming why, where
// no GPU is visible.
//
// Run: PerfCudaWorkGraph --benchmark_repetitions=3
#include "PerfResultCheck.hpp"
#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_WorkGraphPolicy.hpp>
#include "PerfCudaSkip.hpp"
#include "PerfInterleaved.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using Cuda = Kokkos::Cuda;
using Policy = Kokkos::WorkGraphPolicy<std::int32_t, Cuda>;

constexpr std::int32_t tree_items = (1 << 20) - 1;
constexpr std::int32_t side = 1000;
constexpr int warm_launches = 72;

// Each item reads its predecessors' values in `values` and writes its own.
struct TreeItem {
  double* values;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    const std::int32_t c = 2 * i + 1;
    values[i] = c < tree_items ? values[c] + values[c + 1] : static_cast<double>(i & 7);
  }
};

struct WavefrontItem {
  double* values;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    const std::int32_t r = i / side, c = i % side;
    const double up = r > 0 ? values[i - side] : 0.0, left = c > 0 ? values[i - 1] : 0.0;
    values[i] = (up > left ? up : left) + static_cast<double>((r * 31 + c * 17) & 7);
  }
};

// The items of one level, for the level-synchronous baseline.
template <class Item>
struct LevelItems {
  Item item;
  const std::int32_t* items;
  std::int32_t first;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k) const { item(items[first + static_cast<std::int32_t>(k)]); }
};

// One level's items as a hand-written kernel, for the hand-made CUDA graph.
template <class Item>
__global__ void hand_level_kernel(Item item, const std::int32_t* items, std::int32_t first, std::int32_t count) {
  const std::int32_t k = static_cast<std::int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k < count) item(items[first + k]);
}

// A shape: its predecessor lists (in a topological order `order`), its work graph and levels.
struct Shape {
  std::int32_t n = 0;
  std::vector<std::vector<std::int32_t>> preds;
  std::vector<std::int32_t> order;
  std::vector<std::int32_t> level_begin, level_items;
  Policy::graph_type graph;
  Kokkos::View<std::int32_t*, Kokkos::CudaSpace> device_level_items;

  void finish() {
    std::vector<std::int32_t> row_map(static_cast<std::size_t>(n) + 1, 0), entries, level(static_cast<std::size_t>(n), 0);
    for (const auto& p : preds) {
      for (std::int32_t q : p) ++row_map[static_cast<std::size_t>(q) + 1];
    }
    for (std::int32_t i = 0; i < n; ++i) row_map[static_cast<std::size_t>(i) + 1] += row_map[static_cast<std::size_t>(i)];
    entries.resize(static_cast<std::size_t>(row_map.back()));
    std::vector<std::int32_t> cursor(row_map.begin(), row_map.end() - 1);
    for (std::int32_t j = 0; j < n; ++j) {
      for (std::int32_t q : preds[static_cast<std::size_t>(j)]) entries[static_cast<std::size_t>(cursor[static_cast<std::size_t>(q)]++)] = j;
    }
    std::int32_t levels = 0;
    for (std::int32_t i : order) {
      for (std::int32_t q : preds[static_cast<std::size_t>(i)]) {
        level[static_cast<std::size_t>(i)] = std::max(level[static_cast<std::size_t>(i)], level[static_cast<std::size_t>(q)] + 1);
      }
      levels = std::max(levels, level[static_cast<std::size_t>(i)] + 1);
    }
    level_begin.assign(static_cast<std::size_t>(levels) + 1, 0);
    for (std::int32_t l : level) ++level_begin[static_cast<std::size_t>(l) + 1];
    for (std::size_t l = 1; l < level_begin.size(); ++l) level_begin[l] += level_begin[l - 1];
    level_items.resize(static_cast<std::size_t>(n));
    std::vector<std::int32_t> fill(level_begin.begin(), level_begin.end() - 1);
    for (std::int32_t i = 0; i < n; ++i) level_items[static_cast<std::size_t>(fill[static_cast<std::size_t>(level[static_cast<std::size_t>(i)])]++)] = i;
    graph.row_map = Policy::graph_type::row_map_type("row_map", row_map.size());
    graph.entries = Policy::graph_type::entries_type("entries", entries.size());
    device_level_items = Kokkos::View<std::int32_t*, Kokkos::CudaSpace>("level_items", level_items.size());
    using Unmanaged = Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    Kokkos::deep_copy(graph.row_map, Unmanaged(row_map.data(), row_map.size()));
    Kokkos::deep_copy(graph.entries, Unmanaged(entries.data(), entries.size()));
    Kokkos::deep_copy(device_level_items, Unmanaged(level_items.data(), level_items.size()));
  }
};

Shape tree_shape() {
  Shape s;
  s.n = tree_items;
  s.preds.resize(static_cast<std::size_t>(s.n));
  for (std::int32_t i = 0; 2 * i + 2 < s.n; ++i) s.preds[static_cast<std::size_t>(i)] = {2 * i + 1, 2 * i + 2};
  for (std::int32_t i = s.n; i-- > 0;) s.order.push_back(i);
  s.finish();
  return s;
}

Shape wavefront_shape() {
  Shape s;
  s.n = side * side;
  s.preds.resize(static_cast<std::size_t>(s.n));
  for (std::int32_t i = 0; i < s.n; ++i) {
    if (i >= side) s.preds[static_cast<std::size_t>(i)].push_back(i - side);
    if (i % side > 0) s.preds[static_cast<std::size_t>(i)].push_back(i - 1);
    s.order.push_back(i);
  }
  s.finish();
  return s;
}

template <class Item>
void run(benchmark::State& state, const Shape& shape) {
  const Cuda exec;
  Kokkos::View<double*, Kokkos::CudaSpace> graph_values("graph_values", static_cast<std::size_t>(shape.n));
  Kokkos::View<double*, Kokkos::CudaSpace> level_values("level_values", static_cast<std::size_t>(shape.n));
  Kokkos::View<double*, Kokkos::CudaSpace> hand_values("hand_values", static_cast<std::size_t>(shape.n));
  const Policy policy(exec, shape.graph);
  const Item graph_item{graph_values.data()};
  const Item level_item{level_values.data()};
  const Item hand_item{hand_values.data()};
  auto work_graph_pass = [&] {
    Kokkos::parallel_for("PerfCudaWorkGraph::work_graph", policy, graph_item);
    exec.fence("PerfCudaWorkGraph: work graph");
  };
  auto level_sync_pass = [&] {
    for (std::size_t l = 0; l + 1 < shape.level_begin.size(); ++l) {
      const std::int32_t first = shape.level_begin[l], count = shape.level_begin[l + 1] - first;
      Kokkos::parallel_for("PerfCudaWorkGraph::level", Kokkos::RangePolicy<Cuda>(exec, 0, count),
                           LevelItems<Item>{level_item, shape.device_level_items.data(), first});
    }
    exec.fence("PerfCudaWorkGraph: level-synchronous");
  };
  // The hand-made graph: every level's kernel recorded once, in order, on the instance's stream.
  const cudaStream_t stream = exec.cuda_stream();
  cudaGraph_t hand_graph = nullptr;
  cudaGraphExec_t hand_exec = nullptr;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (std::size_t l = 0; l + 1 < shape.level_begin.size(); ++l) {
    const std::int32_t first = shape.level_begin[l], count = shape.level_begin[l + 1] - first;
    constexpr int block = 256;
    hand_level_kernel<Item><<<(count + block - 1) / block, block, 0, stream>>>(
        hand_item, shape.device_level_items.data(), first, count);
  }
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaStreamEndCapture(stream, &hand_graph));
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphInstantiate(&hand_exec, hand_graph, 0));
  auto hand_graph_pass = [&] {
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphLaunch(hand_exec, stream));
    exec.fence("PerfCudaWorkGraph: hand-made CUDA graph");
  };
  // The policy's second launch plans fully, and its first launches time the ways and schedules.
  auto& counters = Kokkos::Impl::work_graph_device_counters;
  const std::uint64_t level_launches = counters.level_launches.load(), graph_replays = counters.graph_replays.load();
  for (int warm = 0; warm < warm_launches; ++warm) work_graph_pass();
  std::vector<double> m;
  for (auto _ : state) m = perf::interleaved_medians(10, {work_graph_pass, level_sync_pass, hand_graph_pass});
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphExecDestroy(hand_exec));
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphDestroy(hand_graph));

  // A sequential pass on the host gives the values both must have.
  std::vector<double> expected(static_cast<std::size_t>(shape.n));
  const Item host_item{expected.data()};
  for (std::int32_t i : shape.order) host_item(i);
  const auto from_graph = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), graph_values);
  const auto from_levels = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), level_values);
  const auto from_hand = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hand_values);
  for (std::int32_t i = 0; i < shape.n; ++i) {
    const double e = expected[static_cast<std::size_t>(i)];
    if (from_graph(i) != e || from_levels(i) != e || from_hand(i) != e) {
      perf::fail_result_check(state, ("wrong value at item " + std::to_string(i)).c_str());
      return;
    }
  }
  state.counters["workgraph_ms"] = 1e3 * m[0];
  state.counters["levelsync_ms"] = 1e3 * m[1];
  state.counters["vs_levelsync"] = m[1] / m[0];
  state.counters["levelgraph_ms"] = 1e3 * m[2];
  state.counters["vs_levelgraph"] = m[2] / m[0];
  state.counters["items_per_s"] = static_cast<double>(shape.n) / m[0];
  state.counters["levels"] = static_cast<double>(shape.level_begin.size() - 1);
  state.counters["units"] = static_cast<double>(policy.impl_num_units());
  const auto* ways = policy.impl_plan()->device_ways_of(&Kokkos::Impl::work_graph_functor_key<Item>);
  state.counters["way"] = ways != nullptr ? ways->choice().fastest() : -1;  // -1: no choice made
  state.counters["level_launches"] = static_cast<double>(counters.level_launches.load() - level_launches);
  state.counters["graph_replays"] = static_cast<double>(counters.graph_replays.load() - graph_replays);
}

void Wavefront(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaWorkGraph")) return;
  static const Shape shape = wavefront_shape();
  run<WavefrontItem>(state, shape);
}

void Tree(benchmark::State& state) {
  if (perf::skip_without_gpu(state, "PerfCudaWorkGraph")) return;
  static const Shape shape = tree_shape();
  run<TreeItem>(state, shape);
}

}  // namespace

BENCHMARK(Wavefront)->Name("CudaWorkGraph/Wavefront")->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(Tree)->Name("CudaWorkGraph/Tree")->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

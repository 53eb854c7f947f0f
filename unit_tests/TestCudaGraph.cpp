// Graph<Kokkos::Cuda> as a CUDA graph (Kokkos 4.7/5): native_graph() and native_graph_exec(),
// construction from a cudaGraph_t, results equal to the same kernels launched directly, many
// submissions, host nodes, and the graphs that run as in-order launches instead.
#include "TestCommon.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include <cuda_runtime_api.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

namespace KE = Kokkos::Experimental;
using Space = Kokkos::Cuda;
using DeviceView = Kokkos::View<double*, Kokkos::CudaSpace>;

std::vector<double> to_host(const DeviceView& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<double>(h.data(), h.data() + h.size());
}

std::size_t node_count(cudaGraph_t graph) {
  std::size_t count = 0;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphGetNodes(graph, nullptr, &count));
  return count;
}

// A fork and a join of three kernels: x = 2i, y = i + 1, then z = x * y + z.
template <class Root>
void add_fork_join(const Root& root, int n, DeviceView x, DeviceView y, DeviceView z) {
  auto fx = root.then_parallel_for("x", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { x(i) = 2.0 * i; });
  auto fy = root.then_parallel_for("y", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { y(i) = i + 1.0; });
  KE::when_all(fx, fy).then_parallel_for("z", Kokkos::RangePolicy<Space>(0, n),
                                         KOKKOS_LAMBDA(int i) { z(i) = x(i) * y(i) + z(i); });
}

TEST(CudaGraph, ResultsEqualTheSameKernelsLaunchedDirectly) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  const int n = 4096;
  const Space exec = KE::partition_space(Space(), 1)[0];
  DeviceView x("x", n), y("y", n), z("z", n), xd("xd", n), yd("yd", n), zd("zd", n);
  KE::Graph<Space> graph{exec};
  add_fork_join(graph.root_node(), n, x, y, z);
  graph.instantiate();
  for (int submission = 0; submission < 3; ++submission) {
    graph.submit();
    Kokkos::parallel_for("xd", Kokkos::RangePolicy<Space>(exec, 0, n), KOKKOS_LAMBDA(int i) { xd(i) = 2.0 * i; });
    Kokkos::parallel_for("yd", Kokkos::RangePolicy<Space>(exec, 0, n), KOKKOS_LAMBDA(int i) { yd(i) = i + 1.0; });
    Kokkos::parallel_for("zd", Kokkos::RangePolicy<Space>(exec, 0, n),
                         KOKKOS_LAMBDA(int i) { zd(i) = xd(i) * yd(i) + zd(i); });
  }
  exec.fence();
  EXPECT_EQ(to_host(z), to_host(zd));
  EXPECT_EQ(to_host(x), to_host(xd));
}

// Kokkos' promises: the graph exists before instantiate() and keeps its handle; the executable
// graph is null until then; submissions change neither.
TEST(CudaGraph, NativeObjects) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  const int n = 100;
  DeviceView x("x", n), y("y", n), z("z", n);
  KE::Graph<Space> graph{Space()};
  add_fork_join(graph.root_node(), n, x, y, z);
  const cudaGraph_t native = graph.native_graph();
  ASSERT_NE(native, nullptr);
  EXPECT_EQ(graph.native_graph_exec(), nullptr);  // misuse in Kokkos' sense: null, no error
  graph.instantiate();
  const cudaGraphExec_t exec = graph.native_graph_exec();
  ASSERT_NE(exec, nullptr);
  EXPECT_EQ(graph.native_graph(), native);
  EXPECT_GE(node_count(native), 3u);  // the three kernels (the root and the join launch nothing)
  for (int submission = 0; submission < 2; ++submission) graph.submit();
  Space().fence();
  EXPECT_EQ(graph.native_graph(), native);
  EXPECT_EQ(graph.native_graph_exec(), exec);
  const std::vector<double> h = to_host(z);
  for (int i = 0; i < n; ++i) ASSERT_EQ(h[i], 2 * (2.0 * i) * (i + 1.0)) << i;
}

// A user's graph holding a memset node, then a Kokkos node reading what it set.
TEST(CudaGraph, FromANativeGraphItsNodesRunFirst) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  const int n = 1000;
  Kokkos::View<int*, Kokkos::CudaSpace> bytes("bytes", n);
  DeviceView out("out", n);
  cudaGraph_t native = nullptr;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphCreate(&native, 0));
  cudaMemsetParams params{};
  params.dst = bytes.data();
  params.value = 1;  // every byte: each int reads 0x01010101
  params.elementSize = 1;
  params.width = n * sizeof(int);
  params.height = 1;
  params.pitch = 0;
  cudaGraphNode_t memset_node = nullptr;
  KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphAddMemsetNode(&memset_node, native, nullptr, 0, &params));

  KE::Graph graph(Space(), native);  // Kokkos' spelling; the Graph owns `native` from here on
  static_assert(std::is_same_v<decltype(graph), KE::Graph<Space>>);
  EXPECT_EQ(graph.native_graph(), native);
  graph.root_node().then_parallel_for("read", Kokkos::RangePolicy<Space>(0, n),
                                      KOKKOS_LAMBDA(int i) { out(i) += bytes(i); });
  graph.instantiate();
  EXPECT_GE(node_count(native), 2u);
  for (int submission = 0; submission < 3; ++submission) {
    Kokkos::deep_copy(bytes, 0);
    graph.submit();
  }
  Space().fence();
  const std::vector<double> h = to_host(out);
  for (int i = 0; i < n; ++i) ASSERT_EQ(h[i], 3.0 * 0x01010101) << i;
}

TEST(CudaGraph, SubmittedManyTimesOnSeveralInstances) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  const int n = 512, submissions = 200;
  DeviceView x("x", n);
  const auto instances = KE::partition_space(Space(), 1, 1);
  KE::Graph<Space> graph{instances[0]};
  graph.root_node()
      .then_parallel_for("inc", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { x(i) += 1; })
      .then("one", KOKKOS_LAMBDA() { x(0) += 1; });
  for (int s = 0; s < submissions; ++s) {
    graph.submit(instances[s % 2]);
    instances[s % 2].fence();  // the two streams are not ordered with each other
  }
  const std::vector<double> h = to_host(x);
  EXPECT_EQ(h[0], 2.0 * submissions);
  for (int i = 1; i < n; ++i) ASSERT_EQ(h[i], double(submissions)) << i;
}

// The recording runs on a stream of the graph's own: a graph of an instance over the legacy
// default stream (which cannot be captured) is still a CUDA graph.
TEST(CudaGraph, AGraphOfALegacyStreamInstanceIsRecorded) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  const int n = 1000;
  DeviceView x("x", n), y("y", n), z("z", n);
  const Space legacy(cudaStreamLegacy);
  KE::Graph<Space> graph{legacy};
  add_fork_join(graph.root_node(), n, x, y, z);
  graph.instantiate();
  EXPECT_NE(graph.native_graph_exec(), nullptr);
  for (int submission = 0; submission < 2; ++submission) graph.submit();
  legacy.fence();
  const std::vector<double> h = to_host(z);
  for (int i = 0; i < n; ++i) ASSERT_EQ(h[i], 2 * (2.0 * i) * (i + 1.0)) << i;
}

// Launches the calling thread recorded in a fusion window before submit() run before the graph
// (the first submission also instantiates: the recording must not capture them either).
TEST(CudaGraph, ASubmissionRunsAfterTheLaunchesItsThreadRecordedBefore) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  const int n = 1000;
  DeviceView x("x", n), out("out", n);
  KE::Graph<Space> graph{Space()};
  graph.root_node().then_parallel_for("read", Kokkos::RangePolicy<Space>(0, n),
                                      KOKKOS_LAMBDA(int i) { out(i) += x(i); });
  for (int s = 1; s <= 3; ++s) {
    KE::FusionScope scope;
    Kokkos::parallel_for("write", KE::with_accesses(Kokkos::RangePolicy<Space>(0, n), KE::writes(x)),
                         KOKKOS_LAMBDA(int i) { x(i) = s; });
    graph.submit();
  }
  Space().fence();
  EXPECT_NE(graph.native_graph_exec(), nullptr);
  const std::vector<double> h = to_host(out);
  for (int i = 0; i < n; ++i) ASSERT_EQ(h[i], 1.0 + 2.0 + 3.0) << i;
}

// A then_host node is a host node of the CUDA graph: it sees what its predecessors wrote, and
// its successors see what it wrote (host-pinned memory, readable from both).
TEST(CudaGraph, ThenHostRunsAfterItsPredecessors) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  const int n = 256;
  Kokkos::View<double*, Kokkos::CudaHostPinnedSpace> a("a", n);
  Kokkos::View<double, Kokkos::CudaHostPinnedSpace> scale("scale");
  DeviceView b("b", n);
  std::atomic<int> calls{0};
  std::vector<double> seen;
  KE::Graph<Space> graph{Space()};
  graph.root_node()
      .then_parallel_for("fill", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { a(i) = i; })
      .then_host("host",
                 [&] {
                   ++calls;
                   seen.assign(a.data(), a.data() + n);
                   scale() = a(n - 1) + 1;
                 })
      .then_parallel_for("scale", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { b(i) = a(i) * scale(); });
  EXPECT_NE(graph.native_graph(), nullptr);
  for (int submission = 1; submission <= 2; ++submission) {
    Kokkos::deep_copy(a, -1.0);
    graph.submit();
    Space().fence();
    EXPECT_EQ(calls.load(), submission);
    ASSERT_EQ(seen.size(), std::size_t(n));
    for (int i = 0; i < n; ++i) ASSERT_EQ(seen[i], i);
    const std::vector<double> h = to_host(b);
    for (int i = 0; i < n; ++i) ASSERT_EQ(h[i], double(i) * n) << i;
  }
}

// A reduction keeps the in-order path: results are right, and the native objects say why
// there are none.
TEST(CudaGraph, AGraphWithAReductionRunsInOrderAndSaysSo) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  const int n = 1000;
  DeviceView x("x", n);
  Kokkos::View<double, Kokkos::CudaSpace> total("total");
  KE::Graph<Space> graph{Space()};
  graph.root_node()
      .then_parallel_for("fill", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { x(i) = i; })
      .then_parallel_reduce("sum", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i, double& s) { s += x(i); },
                            total);
  graph.submit();
  Space().fence();
  double h = 0;
  Kokkos::deep_copy(h, total);
  EXPECT_EQ(h, double(n) * (n - 1) / 2);
  try {
    (void)graph.native_graph();
    FAIL() << "native_graph() of a graph with a reduction";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("parallel_reduce"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)graph.native_graph_exec(), std::runtime_error);
}

TEST(CudaGraph, AddingANodeAfterInstantiateIsAnError) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::Cuda);
  DeviceView x("x", 10);
  KE::Graph<Space> graph{Space()};
  auto root = graph.root_node();
  root.then_parallel_for("fill", Kokkos::RangePolicy<Space>(0, 10), KOKKOS_LAMBDA(int i) { x(i) = i; });
  graph.instantiate();
  EXPECT_THROW(root.then_parallel_for("late", Kokkos::RangePolicy<Space>(0, 10), KOKKOS_LAMBDA(int i) { x(i) = 0; }),
               std::runtime_error);
}

}  // namespace

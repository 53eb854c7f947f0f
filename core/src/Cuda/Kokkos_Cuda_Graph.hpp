#pragma once
// A Graph<Kokkos::Cuda> as a real CUDA graph (Kokkos 4.7/5: native_graph(), native_graph_exec(),
// Graph(exec, cudaGraph_t)).
//
// instantiate() records one submission by stream capture on an instance of the graph's own, over
// a non-blocking stream that nothing else uses (so another thread's launches on the graph's
// instance cannot slip into the recording): every node's launch is issued as usual, but into
// the graph (cudaStreamBeginCaptureToGraph, so the handle native_graph() gave out before
// instantiate() is the one that receives the nodes, and the Kokkos nodes of a graph built from a
// user's cudaGraph_t depend on every node of it that has no successor).  A then_host node becomes a host node (cudaLaunchHostFunc), as in Kokkos: its
// callable then runs on a CUDA runtime thread and must not call CUDA (nor Kokkos operations that
// do).  submit(exec) is one cudaGraphLaunch on exec's stream.
//
// Fusion windows are not opened while recording: fusion's own replay captures the same stream,
// and a capture cannot be started inside another.  Nodes with declared accesses run unfused.
// The calling thread's fusion window is flushed before recording (its launches must not be
// captured into the graph) and before each cudaGraphLaunch (they were issued first, so they
// run first).
//
// What cannot be recorded runs as before, in creation order as launches on the submission's
// stream (after the user's native graph, launched on its own, when there is one):
//  - reductions and scans: their partials go through the instance's shared scratch, grown with a
//    synchronisation and shared with the instance's other launches, which a graph replayed later
//    (or on another stream) cannot own;
//  - parallel_for over a TeamPolicy (team scratch is grown the same way) or a WorkGraphPolicy
//    (it runs on its own instance's workers);
//  - a node whose launch failed to record (one that synchronises or allocates, e.g. a functor too
//    large for a kernel parameter whose copy cannot be ordered on the stream), and a recording
//    that CUDA could not start or instantiate.
// If instantiate() throws (a CUDA call failed outside the recording), every later submit()
// throws the same error rather than run nothing.
// native_graph() and native_graph_exec() of such a graph throw, naming the reason: there is no
// CUDA graph that runs its work.
#include <Cuda/Kokkos_Cuda.hpp>
#include <Cuda/Kokkos_Cuda_Error.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace Kokkos::Impl {

template <>
class GraphNative<Kokkos::Cuda> {
 public:
  static constexpr bool enabled = true;

  GraphNative() = default;
  // The graph is owned from here on and destroyed with the Graph, as Kokkos does.
  explicit GraphNative(cudaGraph_t user_graph) : m_graph(user_graph), m_from_user(true) {
    if (user_graph == nullptr) {
      throw_runtime_exception("Kokkos::Experimental::Graph<Kokkos::Cuda>: constructed from a null cudaGraph_t");
    }
  }
  GraphNative(const GraphNative&) = delete;
  GraphNative& operator=(const GraphNative&) = delete;
  ~GraphNative() {
    // A submission may still be running, its host nodes calling into the Graph's nodes: wait for
    // it as Kokkos' Graph destructor fences (submissions may be on any instance of the device).
    if (m_launched) KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaDeviceSynchronize());
    if (m_exec != nullptr) KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaGraphExecDestroy(m_exec));
    if (m_graph != nullptr) KOKKOS_IMPL_CUDA_SAFE_CALL_NOTHROW(cudaGraphDestroy(m_graph));
  }

  // A node that cannot be recorded makes the whole graph run as in-order launches.
  void note_node(const char* not_capturable) {
    if (not_capturable != nullptr && m_fallback.empty()) m_fallback = not_capturable;
  }

  cudaGraph_t native_graph() {
    check_native("native_graph");
    if (m_graph == nullptr) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphCreate(&m_graph, 0));
    return m_graph;
  }
  // Null before instantiate(), as in Kokkos.
  cudaGraphExec_t native_graph_exec() const {
    check_native("native_graph_exec");
    return m_exec;
  }

  // Records the nodes (run_nodes issues them on the instance it is given) and instantiates the
  // graph; on a failed recording or instantiation, falls back to in-order submission.  In either
  // case the user's graph gets an executable graph, so that it runs first.
  void instantiate(const Kokkos::Cuda& exec, const std::function<void(const Kokkos::Cuda&)>& run_nodes) {
    try {
      fusion_flush_if_pending(FusionFlush::unannotated_launch);
      std::vector<cudaGraphNode_t> users;
      if (m_fallback.empty()) users = record(exec, run_nodes);
      if (m_graph == nullptr || (!m_fallback.empty() && !m_from_user)) return;
      const cudaError_t made = cudaGraphInstantiate(&m_exec, m_graph, 0);
      if (made == cudaSuccess) return;
      (void)cudaGetLastError();
      m_exec = nullptr;
      if (!m_fallback.empty()) KOKKOS_IMPL_CUDA_SAFE_CALL(made);  // the user's graph alone
      keep_only(users);
      m_fallback = std::string("nodes that cudaGraphInstantiate rejected (") + cudaGetErrorName(made) + ")";
      if (m_from_user) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphInstantiate(&m_exec, m_graph, 0));
    } catch (const std::exception& e) {
      m_failed = e.what();
      throw;
    }
  }

  // Launches the recorded graph; false when the nodes must be run in order (the user's native
  // graph, if any, has then been launched first).
  bool launch(const Kokkos::Cuda& exec) {
    if (!m_failed.empty()) {
      throw_runtime_exception("Kokkos::Experimental::Graph<Kokkos::Cuda>::submit: the graph's instantiation failed: " +
                              m_failed);
    }
    fusion_flush_if_pending(FusionFlush::unannotated_launch);
    if (m_exec != nullptr) {
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphLaunch(m_exec, exec.cuda_stream()));
      m_launched = true;
    }
    return m_fallback.empty();
  }

  // A then_host node in the recording: its callable runs when its predecessors have finished.
  static void enqueue_host_call(const Kokkos::Cuda& exec, std::function<void()>* call) {
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaLaunchHostFunc(
        exec.cuda_stream(), [](void* f) { (*static_cast<std::function<void()>*>(f))(); }, call));
  }

 private:
  void check_native(const char* what) const {
    if (!m_fallback.empty()) {
      throw_runtime_exception(std::string("Kokkos::Experimental::Graph<Kokkos::Cuda>::") + what +
                              ": this graph runs as in-order launches, not as a CUDA graph, because it holds " +
                              m_fallback);
    }
  }

  static std::vector<cudaGraphNode_t> nodes_of(cudaGraph_t graph) {
    std::size_t count = 0;
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphGetNodes(graph, nullptr, &count));
    std::vector<cudaGraphNode_t> nodes(count);
    if (count > 0) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphGetNodes(graph, nodes.data(), &count));
    nodes.resize(count);
    return nodes;
  }

  // The user's nodes the recorded ones wait for: those with no successor.
  static std::vector<cudaGraphNode_t> sinks(const std::vector<cudaGraphNode_t>& nodes) {
    std::vector<cudaGraphNode_t> out;
    for (cudaGraphNode_t node : nodes) {
      std::size_t successors = 0;
#if CUDART_VERSION >= 13000
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphNodeGetDependentNodes(node, nullptr, nullptr, &successors));
#else
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphNodeGetDependentNodes(node, nullptr, &successors));
#endif
      if (successors == 0) out.push_back(node);
    }
    return out;
  }

  // Removes every node of the graph but `keep` (the user's nodes, before a recording).
  void keep_only(const std::vector<cudaGraphNode_t>& keep) {
    for (cudaGraphNode_t node : nodes_of(m_graph)) {
      bool old = false;
      for (cudaGraphNode_t k : keep) old = old || k == node;
      if (!old) (void)cudaGraphDestroyNode(node);
    }
    (void)cudaGetLastError();
  }

  // An instance of exec's device over a non-blocking stream of its own, kept for the graph's
  // lifetime (what its launches recorded may refer to the instance).
  const Kokkos::Cuda& recorder(const Kokkos::Cuda& exec) {
    if (!m_recorder) {
      int current = 0;
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGetDevice(&current));
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaSetDevice(exec.cuda_device()));
      cudaStream_t stream = nullptr;
      const cudaError_t made = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
      KOKKOS_IMPL_CUDA_SAFE_CALL(cudaSetDevice(current));
      KOKKOS_IMPL_CUDA_SAFE_CALL(made);
      m_recorder.emplace(stream, ManageStream::yes);
    }
    return *m_recorder;
  }

  // Records the nodes after the user's; returns the user's nodes (those there before).
  std::vector<cudaGraphNode_t> record(const Kokkos::Cuda& exec,
                                      const std::function<void(const Kokkos::Cuda&)>& run_nodes) {
#if CUDART_VERSION < 12030
    (void)exec;
    (void)run_nodes;
    m_fallback = "nodes that this CUDA runtime cannot record into an existing graph (CUDA 12.3 is needed)";
    return {};
#else
    if (m_graph == nullptr) KOKKOS_IMPL_CUDA_SAFE_CALL(cudaGraphCreate(&m_graph, 0));
    std::vector<cudaGraphNode_t> before = nodes_of(m_graph);
    const std::vector<cudaGraphNode_t> deps = sinks(before);
    const Kokkos::Cuda& on = recorder(exec);
    const cudaStream_t stream = on.cuda_stream();
    // Thread-local: a node that synchronises or allocates on this thread fails the recording
    // (rather than leaving an address in the graph that a later grow frees).
    const cudaError_t began = cudaStreamBeginCaptureToGraph(stream, m_graph, deps.empty() ? nullptr : deps.data(),
                                                            nullptr, deps.size(), cudaStreamCaptureModeThreadLocal);
    if (began != cudaSuccess) {
      (void)cudaGetLastError();
      m_fallback = std::string("nodes that could not be recorded (cudaStreamBeginCaptureToGraph: ") +
                   cudaGetErrorName(began) + ")";
      return before;
    }
    std::string failure;
    try {
      run_nodes(on);
      // What a node recorded into the thread's window (a user's FusionScope is open) goes into
      // the capture, not to a later flush outside it.
      fusion_flush_if_pending(FusionFlush::explicit_flush);
    } catch (const std::exception& e) {
      failure = e.what();
    } catch (...) {
      failure = "an exception";
    }
    cudaGraph_t captured = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(stream, &captured);
    if (failure.empty() && ended != cudaSuccess) failure = std::string("cudaStreamEndCapture: ") + cudaGetErrorName(ended);
    if (failure.empty()) return before;
    (void)cudaGetLastError();
    keep_only(before);  // the graph as it was: the user's nodes only
    m_fallback = "a node whose launch could not be recorded (" + failure + ")";
    return before;
#endif
  }

  cudaGraph_t m_graph = nullptr;
  cudaGraphExec_t m_exec = nullptr;
  bool m_from_user = false;
  bool m_launched = false;
  std::string m_fallback;  // non-empty: why the nodes run as in-order launches
  std::string m_failed;    // non-empty: instantiate() threw this
  std::optional<Kokkos::Cuda> m_recorder;
};

}  // namespace Kokkos::Impl

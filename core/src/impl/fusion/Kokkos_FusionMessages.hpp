#pragma once
// The communication hooks of the fusion window, for mpi/src/Kokkos_MPI.hpp: a message waits only
// for the recorded launches it depends on (seed 000's communication-absence constraint).
#include <impl/fusion/Kokkos_FusionWindow.hpp>

#include <cstddef>

namespace Kokkos::Impl {

// Runs the calling thread's recorded launches a message touching `decl` depends on; returns how many.
inline std::size_t fusion_flush_dependences(const FusionAccessDecl& decl) {
  if (!t_fusion_hooks.pending) return 0;
  return FusionWindow::this_thread_window().flush_dependences(decl.access, FusionFlush::communication);
}
inline void fusion_add_in_flight(const FusionAccessDecl& decl, void (*complete)(void*), void* context) {
  FusionWindow::this_thread_window().add_in_flight(decl.access, complete, context);
}
inline void fusion_remove_in_flight(const void* context) {
  FusionWindow::this_thread_window().remove_in_flight(context);
}

}  // namespace Kokkos::Impl

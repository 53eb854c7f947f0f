#pragma once
// Checking a recorded launch's declarations against what its functor captures
// (KOKKOS_FUSION_CHECK=1, KE::set_fusion_check, on by default in Kokkos_ENABLE_DEBUG builds).
//
// Fusion trusts declarations: a View a launch touches but does not declare is invisible to the
// analysis, so a fused run may reorder the launch against the launches that write or read it,
// and the program silently computes something else than with KOKKOS_FUSION=0.  A copy of the
// functor made under a ViewCaptureWatch meets every View it holds, at any depth (members,
// nested structs, containers built of Views such as DualView or ScatterView); an allocation met
// there that no declaration names stops the program, naming the launch and the View.
//
// What the watch cannot see: raw pointers (`v.data()` captured as `double*`), unmanaged Views
// (they have no allocation record: they are counted, never compared), Views reached through a
// pointer or a reference the functor holds, and global Views.  Verify mode
// (impl/fusion/Kokkos_FusionVerify.hpp) finds the consequences of those.
#include <Kokkos_Abort.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/fusion/Kokkos_FusionLaunch.hpp>
#include <impl/view/Kokkos_SharedAlloc.hpp>

#include <cstddef>
#include <string>

namespace Kokkos::Impl {

// Fills `watch` with the Views a copy of `functor` meets (the copy's Views are untracked).
template <class Functor>
void fusion_watch_captures(const Functor& functor, ViewCaptureWatch& watch) {
  (void)watch;  // registered on this thread by its constructor
  const ViewTrackingDisabled untracked;
  [[maybe_unused]] const Functor copy(functor);
}

inline std::string fusion_issuing_label() {
  const std::string* label = t_fusion_hooks.issuing_label;
  return label != nullptr && !label->empty() ? *label : std::string("(unlabeled)");
}

[[noreturn]] inline void fusion_undeclared_capture(const char* pattern, const SharedAllocationRecord& record) {
  const std::string view = record.get_label();
  const std::string message =
      std::string(pattern) + "('" + fusion_issuing_label() + "'): its functor captures View '" + view +
      "', which none of the launch's declared accesses names.  Fusion trusts the declarations: a fused run may "
      "execute this launch before the launches that write '" + view + "', or after those that read it, and compute "
      "something else than KOKKOS_FUSION=0.  Declare it (reads, writes, read_writes or reduces), capture what the "
      "body needs of it (an extent) instead of the View, or, if the body touches it at other indices than its "
      "own, launch without declared accesses.  [KOKKOS_FUSION_CHECK]";
  host_abort(message.c_str());
}

// The first allocation the watch met that no declaration names (null: none).
inline SharedAllocationRecord* fusion_first_undeclared(const ViewCaptureWatch& watch, const FusionAccessDecl* decls,
                                                       std::size_t n) {
  for (SharedAllocationRecord* captured : watch.records) {
    bool declared = false;
    for (std::size_t k = 0; k < n && !declared; ++k) declared = decls[k].record == captured;
    if (!declared) return captured;
  }
  return nullptr;
}

// Stops the program when the functor captures a View its declarations do not name.
template <class Functor>
void fusion_check_captures(const Functor& functor, const FusionAccessDecl* decls, std::size_t n, const char* pattern) {
  ViewCaptureWatch watch;
  fusion_watch_captures(functor, watch);
  if (SharedAllocationRecord* undeclared = fusion_first_undeclared(watch, decls, n)) {
    fusion_undeclared_capture(pattern, *undeclared);
  }
}

}  // namespace Kokkos::Impl

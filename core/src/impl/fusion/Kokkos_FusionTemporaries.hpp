#pragma once
// Temporary elimination (seed 003, Definition 4): a View that is created inside a fusion window,
// written and last read inside one fused run, and whose last handle is gone when the window
// flushes, is never materialised.  The fused run keeps it chunk-sized instead: each worker writes
// and reads its current chunk of the temporary in a buffer of its own, which stays in L1/L2.
//
// How a View becomes a candidate: while a window records, host allocations of at least
// fusion_temporary_bytes() (KOKKOS_FUSION_TEMPORARY_BYTES, default 256 KiB) of arithmetic
// elements are *reserved* (HostSpace::impl_allocate_reserved: zero pages that cost memory only
// where written), so value-initialisation is free and nothing is touched before the flush.
//
// When it is eliminated, at the flush (FusionWindow::find_temporaries):
//   - the window's counted reference is its last (no View handle is left; the window holds
//     one reference per declared allocation until the flush), and the whole window flushes
//     (not a partial flush for a message);
//   - every recorded launch that declares it lies in one fused run (two or more launches, not
//     skewed), each a RangePolicy parallel_for whose functor lists its Views
//     (impl_fusion_members(), below): the array algorithms' functors do, a user's lambda cannot.
//     A reduction never qualifies: its functor argument holds a counted View until the flush;
//   - every declaration of it has the same geometry (offset, stride between indices, slice
//     no wider than the stride), none reduces into it, and the first launch to declare it only
//     writes it: its old contents are never read.
// Then every launch of the run that touches it runs on a copy of its functor whose Views into
// the temporary point at the worker's chunk buffer (View::impl_fusion_rebase), and the run is
// executed fused (the adaptive dispatch does not try the unfused or long-chunk ways for it).
// Results are bitwise those of the materialised run: each index computes the same values from
// the same inputs, only the address of the temporary's slice differs.
//
// A user functor that captured such a View (a lambda passed to an algorithm capturing the
// temporary, or a with_accesses launch) keeps it materialised: only functors that list their
// Views can be moved onto the buffers.
#include <Kokkos_Macros.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>

namespace Kokkos::Impl {

// An eliminated temporary as a fused run sees it.
struct FusionTemporary {
  const void* allocation = nullptr;
  std::int64_t offset = 0;         // bytes from the allocation to launch index 0's slice
  std::int64_t stride = 0;         // bytes between the slices of consecutive launch indices
  std::int64_t buffer_offset = 0;  // where its chunk lies in a worker's buffer
  std::int64_t bytes = 0;          // of the allocation (the statistics)
};

// A worker's view of the run's temporaries while it runs one chunk.
struct FusionRebase {
  const FusionTemporary* temporaries = nullptr;
  std::uint32_t count = 0;
  std::byte* buffer = nullptr;  // this worker's buffer
};

// A functor whose Views can be moved: `impl_fusion_members()` returns a tuple of references to
// its members (std::tie); Views and View iterators among them are moved, the rest ignored.
// Small functors only: the fused run copies the functor for each chunk.  The functions below are
// host-device and skip the execution-space check: a host back end's functor (host-only
// impl_fusion_members, host lambdas) only ever reaches them on the host.
template <class Functor>
concept FusionRebasable = sizeof(Functor) <= 1024 && requires(Functor& f) { f.impl_fusion_members(); };

KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Member>
KOKKOS_INLINE_FUNCTION void fusion_rebase_member(Member& member, const void* allocation, std::ptrdiff_t delta_bytes) {
  if constexpr (requires { member.impl_fusion_rebase(allocation, delta_bytes); }) {
    member.impl_fusion_rebase(allocation, delta_bytes);
  }
}

// Moves f's Views into `temporary` onto `buffer` for the chunk starting at launch index
// `chunk_begin`.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Functor>
KOKKOS_INLINE_FUNCTION void fusion_rebase_members_into(Functor& f, const FusionTemporary& temporary, std::byte* buffer,
                                                       std::int64_t chunk_begin) {
  const auto chunk_in_buffer = reinterpret_cast<std::intptr_t>(buffer + temporary.buffer_offset);
  const auto chunk_in_allocation =
      reinterpret_cast<std::intptr_t>(temporary.allocation) + temporary.offset + chunk_begin * temporary.stride;
  const std::ptrdiff_t delta = chunk_in_buffer - chunk_in_allocation;
  std::apply([&](auto&... member) { (fusion_rebase_member(member, temporary.allocation, delta), ...); },
             f.impl_fusion_members());
}

// The same for every temporary of the run.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Functor>
KOKKOS_INLINE_FUNCTION void fusion_rebase_members(Functor& f, const FusionRebase& rebase, std::int64_t chunk_begin) {
  for (std::uint32_t t = 0; t < rebase.count; ++t) {
    fusion_rebase_members_into(f, rebase.temporaries[t], rebase.buffer, chunk_begin);
  }
}

// The same for the temporaries in `touched` only (bit t: rebase.temporaries[t]), for a kernel
// that knows which ones a functor holds (Cuda/Kokkos_Cuda_Fusion.hpp: a Black-Scholes loop
// holds 2 or 3 of 13).
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Functor>
KOKKOS_INLINE_FUNCTION void fusion_rebase_members(Functor& f, const FusionRebase& rebase, std::int64_t chunk_begin,
                                                  std::uint32_t touched) {
  for (; touched != 0; touched &= touched - 1) {
    int t = 0;
    KOKKOS_IF_ON_DEVICE((t = __ffs(static_cast<int>(touched)) - 1;))
    KOKKOS_IF_ON_HOST((t = std::countr_zero(touched);))
    fusion_rebase_members_into(f, rebase.temporaries[t], rebase.buffer, chunk_begin);
  }
}

// Calls body(f) with a copy of `kept` whose Views into the temporaries (those in the optional
// mask `touched`, else all) point at the worker's buffer for the chunk starting at launch index
// `chunk_begin`.  On the host the copy is bytewise and never destroyed, like
// with_local_functor_copy's: the recorded functor's Views are untracked.  On a device copying a
// View counts nothing, and a plain copy stays in registers where a bytewise one of unknown
// alignment would go through local memory byte by byte.
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Functor, class Body, class... Touched>
KOKKOS_INLINE_FUNCTION void with_rebased_functor_copy(const Functor& kept, const FusionRebase& rebase,
                                                      std::int64_t chunk_begin, const Body& body,
                                                      Touched... touched) {
  static_assert(sizeof...(Touched) <= 1, "with_rebased_functor_copy: at most one mask of touched temporaries");
  KOKKOS_IF_ON_HOST((union Local {
    Functor f;
    Local() {}
    ~Local() {}
  } local;
  std::memcpy(static_cast<void*>(&local), static_cast<const void*>(&kept), sizeof(Functor));
  fusion_rebase_members(local.f, rebase, chunk_begin, touched...);
  body(static_cast<const Functor&>(local.f));))
  KOKKOS_IF_ON_DEVICE((Functor local(kept); fusion_rebase_members(local, rebase, chunk_begin, touched...);
                       body(static_cast<const Functor&>(local));))
}

}  // namespace Kokkos::Impl

#pragma once
// A functor's bytes as a CUDA graph sees them: what two recordings of the same launch have in
// common, so that a replay can tell an unchanged launch from a changed one (fusion's window
// replay, Kokkos_Cuda_Fusion.hpp; the work graph's per-level recording, Kokkos_Cuda_WorkGraph.hpp).
//
// nvcc's host-side wrapper of a __host__ __device__ lambda (KOKKOS_LAMBDA) holds, after the
// captures the device reads, a pointer to a heap copy of the lambda that every copy of the
// wrapper allocates anew: the raw bytes of two recordings of the same launch differ, and a
// repeated window would never be recognised as the one its graph recorded (the graph would be
// recorded and updated again at every flush).  Such bytes are found once per type from two
// copies alive together, built over storage filled with 0x00 and with 0xff.  A captured value
// reads the same in both: a byte that differs is padding (left unwritten, or written with
// whatever a temporary of the copy held) or part of the heap pointer.  Two nearby allocations
// may agree in some bytes that a later copy's pointer does not, so a pointer-aligned word that
// holds a user-space address in both copies, differing in its lowest byte, is taken whole.  A
// word holding a value and padding is never taken whole: its lowest byte is the value's, the
// same in both copies.
// These bytes are zeroed in the closure the fused kernels and the replay signature see; nvcc's
// device code never reads the wrapper's pointer.  (A functor whose copy constructor gave each
// copy device data of its own would replay the recorded copy's: Kokkos copies functors by value
// to the device, and such a functor breaks that already.)
#include <impl/view/Kokkos_SharedAlloc.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

namespace Kokkos::Impl {

template <class Functor>
const std::array<bool, sizeof(Functor)>& cuda_closure_copy_varying_bytes(const Functor& functor) {
  static const std::array<bool, sizeof(Functor)> varying = [&] {
    alignas(Functor) unsigned char a[sizeof(Functor)], b[sizeof(Functor)];
    std::memset(a, 0x00, sizeof a);
    std::memset(b, 0xff, sizeof b);
    std::array<bool, sizeof(Functor)> differs{};
    const ViewTrackingDisabled untracked;
    const Functor* copy_a = ::new (static_cast<void*>(a)) Functor(functor);
    const Functor* copy_b = ::new (static_cast<void*>(b)) Functor(functor);
    for (std::size_t i = 0; i < sizeof(Functor); ++i) differs[i] = a[i] != b[i];
    constexpr std::size_t word = sizeof(void*);
    const auto user_address = [](const unsigned char* bytes) {
      std::uintptr_t p = 0;
      std::memcpy(&p, bytes, word);
      return p != 0 && (static_cast<std::uint64_t>(p) >> 47) == 0;
    };
    for (std::size_t from = 0; from + word <= sizeof(Functor); from += word) {
      if (differs[from] && user_address(a + from) && user_address(b + from)) {
        for (std::size_t j = from; j < from + word; ++j) differs[j] = true;
      }
    }
    copy_a->~Functor();
    copy_b->~Functor();
    return differs;
  }();
  return varying;
}

// A functor's bytes less those that vary from copy to copy (zeroed).
template <class Functor>
struct CudaDeviceClosure {
  alignas(Functor) unsigned char bytes[sizeof(Functor)];

  void assign(const Functor& functor) {
    std::memcpy(bytes, static_cast<const void*>(&functor), sizeof(Functor));
    const std::array<bool, sizeof(Functor)>& varying = cuda_closure_copy_varying_bytes(functor);
    for (std::size_t i = 0; i < sizeof(Functor); ++i) {
      if (varying[i]) bytes[i] = 0;
    }
  }
};

}  // namespace Kokkos::Impl

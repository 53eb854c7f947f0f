#pragma once
// Running a host loop over a functor that lives in memory the loop's stores might reach.
#include <Kokkos_Macros.hpp>

#include <cstring>

namespace Kokkos::Impl {

// Calls body(f) with a shallow copy of `kept` on the stack (no copy constructor: `kept` keeps
// the Views alive for the whole call), which tells the compiler the loop's stores cannot change
// the functor, so its members stay in registers; reading them through `kept` reloads them
// after every store through a View.
// Host patterns only (it calls std::memcpy); a device kernel gets its own copy of the functor.
template <class Functor, class Body>
[[gnu::always_inline]] inline void with_local_functor_copy(const Functor& kept, const Body& body) {
  if constexpr (sizeof(Functor) <= 512) {
    union Shallow {
      Functor f;
      Shallow() {}
      ~Shallow() {}
    } local;
    std::memcpy(static_cast<void*>(&local), static_cast<const void*>(&kept), sizeof(Functor));
    body(local.f);
  } else {
    body(kept);
  }
}

}  // namespace Kokkos::Impl

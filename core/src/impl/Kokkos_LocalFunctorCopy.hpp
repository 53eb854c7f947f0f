#pragma once
// Running a host loop over a functor that lives in memory the loop's stores might reach.
#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstring>
#include <type_traits>

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

// What a host launch's body keeps of the functor: a copy when the functor is small and trivially
// copyable (copying it runs no user code), so the body fits a pool's launch line and a worker
// does not read the caller's stack for it; otherwise its address.  get() is the functor.
template <class Functor, std::size_t MaxBytes = 24>
class CapturedFunctor {
  static constexpr bool by_value = sizeof(Functor) <= MaxBytes && std::is_trivially_copyable_v<Functor> &&
                                   std::is_trivially_copy_constructible_v<Functor> &&
                                   std::is_trivially_destructible_v<Functor>;
  using Held = std::conditional_t<by_value, Functor, const Functor*>;
  Held m_held;

 public:
  static constexpr bool holds_copy = by_value;
  explicit CapturedFunctor(const Functor& f) : m_held(held_from(f)) {}
  const Functor& get() const {
    if constexpr (by_value) {
      return m_held;
    } else {
      return *m_held;
    }
  }

 private:
  static Held held_from(const Functor& f) {
    if constexpr (by_value) {
      return f;
    } else {
      return &f;
    }
  }
};

}  // namespace Kokkos::Impl

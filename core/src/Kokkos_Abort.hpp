#pragma once
// Kokkos::abort: prints the message and terminates; usable from functors on every back end.
#include <Kokkos_Macros.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace Kokkos {
namespace Impl {
[[noreturn]] void host_abort(const char* message);
}  // namespace Impl

[[noreturn]] KOKKOS_INLINE_FUNCTION void abort(const char* const message) {
#if defined(__CUDA_ARCH__)
  ::printf("%s", message);
  __trap();
#else
  Impl::host_abort(message);
#endif
}
}  // namespace Kokkos

#define KOKKOS_IMPL_ABORT_NORETURN [[noreturn]]
// Throw on the host for recoverable misuse detected outside functors.
#define KOKKOS_IMPL_ERROR(msg) ::Kokkos::Impl::throw_runtime_exception(msg)
namespace Kokkos::Impl {
[[noreturn]] void throw_runtime_exception(const char* message);
[[noreturn]] void throw_runtime_exception(const std::string& message);
}

#include <Serial/Kokkos_Serial.hpp>
#include <impl/Kokkos_InitializationSettings.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/tools/Kokkos_Profiling.hpp>

#include <ostream>

namespace Kokkos {
namespace {
bool g_serial_initialized = false;
}

void Serial::fence(const std::string& label) const {
  Tools::Experimental::Impl::profile_fence_event<Serial>(
      label, Tools::Experimental::Impl::DirectFenceIDHandle{impl_instance_id()}, [&] {
        Impl::fusion_flush_if_pending(Impl::FusionFlush::fence);
        impl_static_fence(label);
      });
}
// Serial launches complete before they return: a fence has nothing to wait for.
void Serial::impl_static_fence(const std::string&) {}

void Serial::print_configuration(std::ostream& os, bool) const { os << "  Serial: 1 thread\n"; }

void Serial::impl_initialize(const InitializationSettings&) { g_serial_initialized = true; }
void Serial::impl_finalize() { g_serial_initialized = false; }
bool Serial::impl_is_initialized() { return g_serial_initialized; }

}  // namespace Kokkos

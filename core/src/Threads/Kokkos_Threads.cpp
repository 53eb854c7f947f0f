#include <Threads/Kokkos_Threads.hpp>
#include <impl/Kokkos_InitializationSettings.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/tools/Kokkos_Profiling.hpp>
#include <impl/Kokkos_Topology.hpp>

#include <cstdlib>
#include <ostream>
#include <thread>

namespace Kokkos {

Threads Threads::impl_create_partition(int workers) const {
  Threads instance;
  instance.m_pool = std::make_shared<Impl::HostThreadPool>(workers, false);
  instance.m_instance_id = Impl::new_host_instance_id();
  return instance;
}

void Threads::fence(const std::string& label) const {
  Tools::Experimental::Impl::profile_fence_event<Threads>(
      label, Tools::Experimental::Impl::DirectFenceIDHandle{impl_instance_id()}, [&] {
        Impl::fusion_flush_if_pending(Impl::FusionFlush::fence);
        impl_static_fence(label);
      });
}
// Every launch joins its workers before it returns: nothing is in flight.
void Threads::impl_static_fence(const std::string&) {}

void Threads::print_configuration(std::ostream& os, bool) const {
  const int n = concurrency();
  os << "  Threads: " << n << " thread" << (n == 1 ? "" : "s")
     << (s_pool && s_pool->bound() ? ", workers bound to processing units by hwloc" : ", unbound") << '\n';
}

void Threads::impl_initialize(const InitializationSettings& settings) {
  int threads = 0;
  if (settings.has_num_threads()) threads = settings.get_num_threads();
  if (threads < 1) threads = Impl::host_topology().processing_units;
  const bool want_binding = settings.has_bind_threads() ? settings.get_bind_threads()
                                                        : threads <= Impl::host_topology().processing_units;
  s_pool = new Impl::HostThreadPool(threads, want_binding);
}

void Threads::impl_finalize() {
  delete s_pool;
  s_pool = nullptr;
}
bool Threads::impl_is_initialized() { return s_pool != nullptr; }

}  // namespace Kokkos

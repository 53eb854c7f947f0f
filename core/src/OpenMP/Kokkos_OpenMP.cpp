#include <OpenMP/Kokkos_OpenMP.hpp>
#include <impl/Kokkos_InitializationSettings.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>
#include <impl/tools/Kokkos_Profiling.hpp>
#include <impl/Kokkos_Topology.hpp>

#include <Kokkos_Abort.hpp>

#include <cstdlib>
#include <ostream>

namespace Kokkos {
namespace {
bool g_openmp_initialized = false;
bool g_openmp_bound = false;
}  // namespace

OpenMP::OpenMP(int pool_size) : m_pool_size(pool_size), m_instance_id(Impl::new_host_instance_id()) {
  if (pool_size < 1) {
    Impl::throw_runtime_exception("Kokkos::OpenMP(int pool_size): pool size " + std::to_string(pool_size) +
                                  " is less than 1");
  }
}

void OpenMP::fence(const std::string& label) const {
  Tools::Experimental::Impl::profile_fence_event<OpenMP>(
      label, Tools::Experimental::Impl::DirectFenceIDHandle{impl_instance_id()}, [&] {
        Impl::fusion_flush_if_pending(Impl::FusionFlush::fence);
        impl_static_fence(label);
      });
}
// Every OpenMP launch joins its parallel region before it returns: nothing is in flight.
void OpenMP::impl_static_fence(const std::string&) {}

void OpenMP::print_configuration(std::ostream& os, bool verbose) const {
  os << "  OpenMP: " << s_pool_size << " thread" << (s_pool_size == 1 ? "" : "s");
  os << (g_openmp_bound ? ", bound to processing units by hwloc" : ", binding left to the OpenMP runtime") << '\n';
  if (verbose) os << "    omp_get_max_threads() = " << omp_get_max_threads() << '\n';
}

void OpenMP::impl_initialize(const InitializationSettings& settings) {
  int threads = settings.has_num_threads() && settings.get_num_threads() > 0 ? settings.get_num_threads()
                                                                            : omp_get_max_threads();
  if (threads < 1) threads = 1;
  s_pool_size = threads;
  omp_set_dynamic(0);

  // Bind workers to processing units unless the user chose an OpenMP binding policy.
  const bool user_binding = std::getenv("OMP_PROC_BIND") != nullptr || std::getenv("OMP_PLACES") != nullptr;
  const bool want_binding = settings.has_bind_threads() ? settings.get_bind_threads() : !user_binding;
  g_openmp_bound = false;
  if (want_binding && threads > 1 && threads <= Impl::host_topology().processing_units) {
    // The master thread (rank 0) stays unbound: threads it creates later (std::thread, oneTBB,
    // a user's own pool) inherit its affinity mask and must not be confined to one PU.
    int bound = 0;
#pragma omp parallel num_threads(threads) reduction(+ : bound)
    {
      const int rank = omp_get_thread_num();
      if (rank > 0 && Impl::bind_current_thread_to_processing_unit(Impl::processing_unit_for_worker(rank))) ++bound;
    }
    g_openmp_bound = bound == threads - 1;
  }
  g_openmp_initialized = true;
}

void OpenMP::impl_finalize() {
  g_openmp_initialized = false;
  s_pool_size = 1;
}
bool OpenMP::impl_is_initialized() { return g_openmp_initialized; }

}  // namespace Kokkos

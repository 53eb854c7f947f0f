// Compiled to PTX by AtomicFences.py (ctest CudaAtomicFences): one kernel per memory order of
// Kokkos_Atomic.hpp, so that the fences each one emits on the device can be counted.
#include <Kokkos_Atomic.hpp>
#include <Kokkos_Complex.hpp>

extern "C" {
__global__ void relaxed_add(int* p) { Kokkos::Impl::atomic_fetch_add_relaxed(p, 1); }
__global__ void acq_rel_add(int* p) { Kokkos::Impl::atomic_fetch_add_acq_rel(p, 1); }
__global__ void seq_cst_add(int* p) { Kokkos::Impl::atomic_fetch_add_seq_cst(p, 1); }
__global__ void seq_cst_max(long long* p) {
  Kokkos::Impl::atomic_rmw<Kokkos::Impl::AtomicOpMax, false, Kokkos::Impl::atomic_order::seq_cst>(p, 7ll);
}
__global__ void seq_cst_float_cas_loop(float* p) {
  Kokkos::Impl::atomic_rmw<Kokkos::Impl::AtomicOpMul, false, Kokkos::Impl::atomic_order::seq_cst>(p, 2.0f);
}
__global__ void acquire_load(int* p, int* out) { *out = Kokkos::Impl::atomic_load_acquire(p); }
__global__ void relaxed_load(int* p, int* out) { *out = Kokkos::Impl::atomic_load_relaxed(p); }
__global__ void seq_cst_load(int* p, int* out) {
  *out = Kokkos::Impl::atomic_load_order<Kokkos::Impl::atomic_order::seq_cst>(p);
}
__global__ void release_store(int* p) { Kokkos::Impl::atomic_store_release(p, 1); }
__global__ void seq_cst_store(int* p) { Kokkos::Impl::atomic_store_seq_cst(p, 1); }
__global__ void seq_cst_exchange(int* p, int* out) { *out = Kokkos::Impl::atomic_exchange_seq_cst(p, 1); }
__global__ void seq_cst_compare_exchange(int* p, int* out) {
  *out = Kokkos::Impl::atomic_compare_exchange_seq_cst(p, 0, 1);
}
// The public functions: relaxed, as Kokkos 4's.
__global__ void public_add(int* p) { Kokkos::atomic_add(p, 1); }
__global__ void public_fetch_add(int* p, int* out) { *out = Kokkos::atomic_fetch_add(p, 1); }
__global__ void public_max(long long* p) { Kokkos::atomic_max(p, 7ll); }
__global__ void public_float_cas_loop(float* p) { Kokkos::atomic_fetch_mul(p, 2.0f); }
__global__ void public_double_add(double* p) { Kokkos::atomic_add(p, 1.5); }
__global__ void public_load(int* p, int* out) { *out = Kokkos::atomic_load(p); }
__global__ void public_store(int* p) { Kokkos::atomic_store(p, 1); }
__global__ void public_exchange(int* p, int* out) { *out = Kokkos::atomic_exchange(p, 1); }
__global__ void public_compare_exchange(int* p, int* out) { *out = Kokkos::atomic_compare_exchange(p, 0, 1); }
__global__ void public_increment(unsigned* p) { Kokkos::atomic_increment(p); }
__global__ void weak_compare_exchange_acq_rel(int* p, int* out) {
  int expected = 0;
  *out = Kokkos::Impl::atomic_compare_exchange_weak_acq_rel(p, expected, 1) ? 1 : expected;
}
__global__ void locked_add(Kokkos::complex<double>* p) { Kokkos::atomic_add(p, Kokkos::complex<double>(1, 2)); }
__global__ void memory_fence() { Kokkos::memory_fence(); }
__global__ void load_fence() { Kokkos::load_fence(); }
__global__ void store_fence() { Kokkos::store_fence(); }
}

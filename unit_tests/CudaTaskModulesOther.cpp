// The second translation unit of TestCudaTaskModules (its own device module).
#include "CudaTaskModules.hpp"

namespace kdag_test {

CudaScheduler::future_type<long> spawn_square_in_other_unit(const CudaScheduler& sched, long x) {
  return Kokkos::host_spawn(Kokkos::TaskSingle(sched), SquareTask{x});
}

void wait_in_other_unit(const CudaScheduler& sched) { Kokkos::wait(sched); }

}  // namespace kdag_test

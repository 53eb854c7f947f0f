#pragma once
// Shared by TestCudaTaskModules.cpp and CudaTaskModulesOther.cpp: one task type spawned from
// two translation units (two device modules, no relocatable device code).
#include <Kokkos_Core.hpp>

namespace kdag_test {

using CudaScheduler = Kokkos::TaskScheduler<Kokkos::Cuda>;

struct SquareTask {
  using value_type = long;
  long x;
  KOKKOS_INLINE_FUNCTION void operator()(CudaScheduler::member_type&, long& result) { result = x * x; }
};

// Defined in CudaTaskModulesOther.cpp: spawn, and wait, from that translation unit.
CudaScheduler::future_type<long> spawn_square_in_other_unit(const CudaScheduler& sched, long x);
void wait_in_other_unit(const CudaScheduler& sched);

}  // namespace kdag_test

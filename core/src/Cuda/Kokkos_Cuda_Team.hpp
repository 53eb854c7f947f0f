#pragma once
// The team member of TeamPolicy<Cuda> launches and the nested patterns on it.
//
// A team is one thread block of blockDim = (vector_length, team_size): threadIdx.y is the team
// rank and threadIdx.x the vector lane, so a thread's vector lanes are consecutive lanes of one
// warp (vector_length is a power of two <= 32).  The GPU task scheduler's TaskTeam team is one
// warp of a block of several (impl_set_warp_team), and a TaskSingle task's is one lane
// (impl_set_team_of_one).  Code outside ThreadVectorRange runs on every
// lane alike, so the team collectives (team_reduce, team_scan, team_broadcast, the
// TeamThreadRange reductions and scans) take each team rank's value from vector lane 0, and
// every lane gets the result, as in Kokkos.  The collectives are warp shuffles plus a small
// static shared buffer; every thread of the team must call them, as every member must on host
// teams.
//
// Scratch: level 0 is the block's dynamic shared memory, level 1 a slice of the instance's
// global team scratch (CudaInternal::resize_team_scratch_space).
#include <Kokkos_Macros.hpp>
#include <Kokkos_Atomic.hpp>
#include <Kokkos_NestedPolicies.hpp>
#include <Kokkos_Reducers.hpp>
#include <Kokkos_ScratchSpace.hpp>
#include <Cuda/Kokkos_Cuda_ReduceScan.hpp>

#include <cstddef>
#include <type_traits>

namespace Kokkos::Impl {

class CudaTeamMember {
 public:
  using execution_space = Kokkos::Cuda;
  using scratch_memory_space = ScratchMemorySpace<Kokkos::Cuda>;
  using team_handle = CudaTeamMember;

  KOKKOS_INLINE_FUNCTION CudaTeamMember(void* shmem, std::size_t shmem_bytes, void* scratch_l1,
                                        std::size_t scratch_l1_bytes, int league_rank, int league_size)
      : m_scratch(shmem, shmem_bytes, scratch_l1, scratch_l1_bytes),
        m_league_rank(league_rank),
        m_league_size(league_size) {}

  KOKKOS_INLINE_FUNCTION int league_rank() const noexcept { return m_league_rank; }
  KOKKOS_INLINE_FUNCTION int league_size() const noexcept { return m_league_size; }
  // A team of one thread (a TaskSingle task of the GPU scheduler runs on one lane while the
  // warp's other lanes run other tasks): rank 0 of 1, and the collectives below are trivial.
  KOKKOS_INLINE_FUNCTION void impl_set_team_of_one(bool one) noexcept { m_team_of_one = one; }
  KOKKOS_INLINE_FUNCTION bool impl_team_of_one() const noexcept { return m_team_of_one; }
  // A team that is one whole warp of a block of several (a TaskTeam task of the GPU scheduler,
  // whose block's other warps run other tasks; blockDim.x is 1): the collectives synchronise
  // and exchange within the warp only.
  KOKKOS_INLINE_FUNCTION void impl_set_warp_team(bool warp) noexcept { m_warp_team = warp; }

  KOKKOS_INLINE_FUNCTION int team_rank() const noexcept {
    if (m_team_of_one) return 0;
#if defined(__CUDA_ARCH__)
    return static_cast<int>(threadIdx.y);
#else
    return 0;
#endif
  }
  KOKKOS_INLINE_FUNCTION int team_size() const noexcept {
    if (m_team_of_one) return 1;
#if defined(__CUDA_ARCH__)
    return static_cast<int>(blockDim.y);
#else
    return 1;
#endif
  }
  KOKKOS_INLINE_FUNCTION int impl_vector_rank() const noexcept {
#if defined(__CUDA_ARCH__)
    return static_cast<int>(threadIdx.x);
#else
    return 0;
#endif
  }
  KOKKOS_INLINE_FUNCTION int impl_vector_length() const noexcept {
#if defined(__CUDA_ARCH__)
    return static_cast<int>(blockDim.x);
#else
    return 1;
#endif
  }

  KOKKOS_INLINE_FUNCTION const scratch_memory_space& team_shmem() const { return m_scratch.set_team_thread_mode(0, 1, 0); }
  KOKKOS_INLINE_FUNCTION const scratch_memory_space& team_scratch(const int level) const {
    return m_scratch.set_team_thread_mode(level, 1, 0);
  }
  KOKKOS_INLINE_FUNCTION const scratch_memory_space& thread_scratch(const int level) const {
    return m_scratch.set_team_thread_mode(level, team_size(), team_rank());
  }

  KOKKOS_INLINE_FUNCTION void team_barrier() const noexcept {
#if defined(__CUDA_ARCH__)
    if (m_team_of_one) return;
    if (m_warp_team) {
      __syncwarp();
    } else {
      __syncthreads();
    }
#endif
  }

  // `value` of team rank `source` (its vector lane 0) is copied to every thread's `value`.
  template <class ValueType>
  KOKKOS_INLINE_FUNCTION void team_broadcast(ValueType& value, const int source) const noexcept {
#if defined(__CUDA_ARCH__)
    __shared__ CudaSharedSlots<ValueType, 1> slot;
    if (source < 0 || source >= team_size()) Kokkos::abort("Kokkos::team_broadcast: source rank is not a rank of the team");
    if (m_team_of_one) return;
    if (m_warp_team) {
      value = cuda_shfl(value, source);
      return;
    }
    if (threadIdx.y == static_cast<unsigned>(source) && threadIdx.x == 0) new (&slot[0]) ValueType(value);
    __syncthreads();
    value = slot[0];
    __syncthreads();
#else
    (void)value;
    (void)source;
#endif
  }
  template <class Closure, class ValueType>
  KOKKOS_INLINE_FUNCTION void team_broadcast(const Closure& f, ValueType& value, const int source) const noexcept {
    if (team_rank() == source) f(value);
    team_broadcast(value, source);
  }

  // Joins every team rank's reducer.reference() in team-rank order; every thread gets the result.
  template <class ReducerType>
  KOKKOS_INLINE_FUNCTION std::enable_if_t<is_reducer_v<ReducerType>> team_reduce(
      const ReducerType& reducer) const noexcept {
    reducer.reference() = impl_reduce_rows(reducer, reducer.reference());
  }
  template <class ReducerType>
  KOKKOS_INLINE_FUNCTION std::enable_if_t<is_reducer_v<ReducerType>> team_reduce(
      const ReducerType& reducer, const typename ReducerType::value_type contribution) const noexcept {
    reducer.reference() = impl_reduce_rows(reducer, contribution);
  }
  template <class ValueType>
  KOKKOS_INLINE_FUNCTION std::enable_if_t<!is_reducer_v<ValueType>, ValueType> team_reduce(
      const ValueType& value) const noexcept {
    ValueType result;
    return impl_reduce_rows(Sum<ValueType>(result), value);
  }

  // Exclusive prefix sum of `value` in team-rank order.  With `global`, the team's total is
  // added atomically to *global and the prefix is offset by *global's previous value.
  template <class ValueType>
  KOKKOS_INLINE_FUNCTION ValueType team_scan(const ValueType& value, ValueType* const global = nullptr) const noexcept {
#if defined(__CUDA_ARCH__)
    if (m_team_of_one) return global != nullptr ? Kokkos::atomic_fetch_add(global, value) : ValueType();
    ValueType total;
    ValueType prefix = impl_scan_rows(value, ValueType(), [](ValueType& dst, const ValueType& src) { dst += src; }, total);
    if (global == nullptr) return prefix;
    if (m_warp_team) {
      ValueType offset = team_rank() == 0 ? Kokkos::atomic_fetch_add(global, total) : ValueType();
      return cuda_shfl(offset, 0) + prefix;
    }
    __shared__ CudaSharedSlots<ValueType, 1> base;
    if (threadIdx.x == 0 && threadIdx.y == 0) new (&base[0]) ValueType(Kokkos::atomic_fetch_add(global, total));
    __syncthreads();
    const ValueType offset = base[0];
    __syncthreads();
    return offset + prefix;
#else
    (void)global;
    (void)value;
    return ValueType();
#endif
  }

  // ---- collectives the nested patterns build on -------------------------------------------------

  // The lanes of this thread's row (its vector lanes) within the warp.
  KOKKOS_INLINE_FUNCTION unsigned impl_row_mask() const noexcept {
#if defined(__CUDA_ARCH__)
    const unsigned length = blockDim.x;
    if (length >= 32u) return 0xffffffffu;
    const unsigned first = (cuda_thread_id() & (cuda_warp_size - 1)) & ~(length - 1u);
    return ((1u << length) - 1u) << first;
#else
    return 0u;
#endif
  }

  // The join over team ranks (vector lane 0 of each) of `value`, on every thread.
  template <class ReducerType>
  KOKKOS_INLINE_FUNCTION typename ReducerType::value_type impl_reduce_rows(
      const ReducerType& reducer, const typename ReducerType::value_type& value) const noexcept {
    using value_type = typename ReducerType::value_type;
    value_type v = value;
#if defined(__CUDA_ARCH__)
    if (m_team_of_one) return v;
    if (threadIdx.x != 0) reducer.init(v);
    impl_reduce_threads(v, [&](value_type& dst, const value_type& src) { reducer.join(dst, src); });
#else
    (void)reducer;
#endif
    return v;
  }

  // Exclusive scan over team ranks (vector lane 0 of each) of `value`; every lane of a row gets
  // its row's prefix, `total` the join over all ranks.
  template <class ValueType, class Join>
  KOKKOS_INLINE_FUNCTION ValueType impl_scan_rows(const ValueType& value, const ValueType& identity, const Join& join,
                                                  ValueType& total) const noexcept {
#if defined(__CUDA_ARCH__)
    if (m_team_of_one) {
      total = value;
      return identity;
    }
    const ValueType mine = threadIdx.x == 0 ? value : identity;
    const ValueType prefix = impl_scan_threads(mine, identity, join, total);
    return cuda_shfl(prefix, 0, static_cast<int>(blockDim.x), impl_row_mask());
#else
    (void)join;
    total = value;
    return identity;
#endif
  }

#if defined(__CUDACC__)
  // The join of `value` over every thread of the team (a fixed tree), on every thread; not for a
  // team of one.
  template <class T, class Join>
  __device__ void impl_reduce_threads(T& value, const Join& join) const {
    if (m_warp_team) {
      cuda_warp_reduce(value, join, cuda_warp_size, 1, cuda_warp_size, 0xffffffffu);
      value = cuda_shfl(value, 0);
    } else {
      cuda_block_reduce(value, join);
    }
  }
  // Exclusive scan over every thread of the team in thread order; `total` the join of all.
  template <class T, class Join>
  __device__ T impl_scan_threads(const T& value, const T& identity, const Join& join, T& total) const {
    return m_warp_team ? cuda_warp_exclusive_scan(value, identity, join, total)
                       : cuda_block_exclusive_scan(value, identity, join, total);
  }
#endif

  // The join of `value` over this thread's vector lanes, on each of them (fixed order).
  template <class ValueType, class Join>
  KOKKOS_INLINE_FUNCTION ValueType impl_reduce_lanes(const ValueType& value, const Join& join) const noexcept {
    ValueType v = value;
#if defined(__CUDA_ARCH__)
    const int width = static_cast<int>(blockDim.x);
    const unsigned mask = impl_row_mask();
    cuda_warp_reduce(v, join, width, 1, cuda_warp_size, mask);
    v = cuda_shfl(v, 0, width, mask);
#else
    (void)join;
#endif
    return v;
  }

 private:
  scratch_memory_space m_scratch;
  int m_league_rank;
  int m_league_size;
  bool m_team_of_one = false;
  bool m_warp_team = false;
};

template <class T>
struct is_cuda_team_member : std::is_same<std::remove_cv_t<T>, CudaTeamMember> {};
template <class Member>
inline constexpr bool is_cuda_team_member_v = is_cuda_team_member<Member>::value;

// Row-by-row scan of [start, end) over `lanes` threads numbered `rank` (a row is `lanes`
// consecutive indices): each index gets the join of `accumulated` and the exclusive prefix of its
// row.  `row_scan(contribution, identity, join, row_total)` is the matching exclusive scan.
template <class iType, class Closure, class ValueType, class Join, class RowScan>
KOKKOS_INLINE_FUNCTION void cuda_nested_scan(iType start, iType end, int rank, int lanes, const Closure& closure,
                                             const ValueType& identity, const Join& join, const RowScan& row_scan,
                                             ValueType& accumulated) {
  for (iType base = start; base < end; base += static_cast<iType>(lanes)) {
    const iType i = base + static_cast<iType>(rank);
    ValueType contribution = identity;
    if (i < end) closure(i, contribution, false);
    ValueType row_total;
    const ValueType prefix = row_scan(contribution, identity, join, row_total);
    ValueType update = accumulated;
    join(update, prefix);
    if (i < end) closure(i, update, true);
    join(accumulated, row_total);
  }
}

}  // namespace Kokkos::Impl

namespace Kokkos {

// ---- TeamThreadRange: team ranks split the range; vector lanes repeat it -------------------------

template <class iType, class Member, class Closure>
  requires Impl::is_cuda_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void parallel_for(const Impl::TeamThreadRangeBoundariesStruct<iType, Member>& range,
                                         const Closure& closure) {
  const iType step = static_cast<iType>(range.member.team_size());
  for (iType i = range.start + static_cast<iType>(range.member.team_rank()); i < range.end; i += step) closure(i);
}
template <class iType, class Member, class Closure, class ReducerType>
  requires(Impl::is_cuda_team_member_v<Member> && is_reducer_v<ReducerType>)
KOKKOS_INLINE_FUNCTION void parallel_reduce(const Impl::TeamThreadRangeBoundariesStruct<iType, Member>& range,
                                            const Closure& closure, const ReducerType& reducer) {
  typename ReducerType::value_type local;
  reducer.init(local);
  const iType step = static_cast<iType>(range.member.team_size());
  for (iType i = range.start + static_cast<iType>(range.member.team_rank()); i < range.end; i += step) closure(i, local);
  reducer.reference() = range.member.impl_reduce_rows(reducer, local);
}
template <class iType, class Member, class Closure, class ValueType>
  requires(Impl::is_cuda_team_member_v<Member> && !is_reducer_v<ValueType>)
KOKKOS_INLINE_FUNCTION void parallel_reduce(const Impl::TeamThreadRangeBoundariesStruct<iType, Member>& range,
                                            const Closure& closure, ValueType& result) {
  parallel_reduce(range, closure, Sum<ValueType>(result));
}
template <class iType, class Member, class Closure, class ValueType>
  requires(Impl::is_cuda_team_member_v<Member> && !is_reducer_v<ValueType>)
KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::TeamThreadRangeBoundariesStruct<iType, Member>& range,
                                          const Closure& closure, ValueType& total) {
  const auto& member = range.member;
  const auto join = [](ValueType& dst, const ValueType& src) { dst += src; };
  const auto row_scan = [&](const ValueType& v, const ValueType& identity, const auto& j, ValueType& row_total) {
    return member.impl_scan_rows(v, identity, j, row_total);
  };
  ValueType accumulated = ValueType();
  Impl::cuda_nested_scan(range.start, range.end, member.team_rank(), member.team_size(), closure, ValueType(), join,
                         row_scan, accumulated);
  total = accumulated;
}
template <class iType, class Member, class Closure>
  requires Impl::is_cuda_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::TeamThreadRangeBoundariesStruct<iType, Member>& range,
                                          const Closure& closure) {
  using value_type = Impl::scan_closure_value_t<Closure>;
  static_assert(!std::is_void_v<value_type>,
                "Kokkos::parallel_scan: cannot deduce the scan value type from the closure (a generic lambda?); "
                "pass a result argument of the value type");
  value_type total;
  parallel_scan(range, closure, total);
}

// ---- TeamVectorRange: every thread of the team takes indices -------------------------------------

template <class iType, class Member, class Closure>
  requires Impl::is_cuda_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void parallel_for(const Impl::TeamVectorRangeBoundariesStruct<iType, Member>& range,
                                         const Closure& closure) {
  const auto& m = range.member;
  const iType step = static_cast<iType>(m.team_size() * m.impl_vector_length());
  const iType first = static_cast<iType>(m.team_rank() * m.impl_vector_length() + m.impl_vector_rank());
  for (iType i = range.start + first; i < range.end; i += step) closure(i);
}
template <class iType, class Member, class Closure, class ReducerType>
  requires(Impl::is_cuda_team_member_v<Member> && is_reducer_v<ReducerType>)
KOKKOS_INLINE_FUNCTION void parallel_reduce(const Impl::TeamVectorRangeBoundariesStruct<iType, Member>& range,
                                            const Closure& closure, const ReducerType& reducer) {
  using value_type = typename ReducerType::value_type;
  const auto& m = range.member;
  value_type local;
  reducer.init(local);
  const iType step = static_cast<iType>(m.team_size() * m.impl_vector_length());
  const iType first = static_cast<iType>(m.team_rank() * m.impl_vector_length() + m.impl_vector_rank());
  for (iType i = range.start + first; i < range.end; i += step) closure(i, local);
#if defined(__CUDA_ARCH__)
  // A team of one (a TaskSingle task's lane) has nothing to join, and must not wait for the
  // warp's other lanes: they run other tasks.
  if (!m.impl_team_of_one()) {
    m.impl_reduce_threads(local, [&](value_type& dst, const value_type& src) { reducer.join(dst, src); });
  }
#endif
  reducer.reference() = local;
}
template <class iType, class Member, class Closure, class ValueType>
  requires(Impl::is_cuda_team_member_v<Member> && !is_reducer_v<ValueType>)
KOKKOS_INLINE_FUNCTION void parallel_reduce(const Impl::TeamVectorRangeBoundariesStruct<iType, Member>& range,
                                            const Closure& closure, ValueType& result) {
  parallel_reduce(range, closure, Sum<ValueType>(result));
}
template <class iType, class Member, class Closure, class ValueType>
  requires(Impl::is_cuda_team_member_v<Member> && !is_reducer_v<ValueType>)
KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::TeamVectorRangeBoundariesStruct<iType, Member>& range,
                                          const Closure& closure, ValueType& total) {
  const auto& m = range.member;
  const auto join = [](ValueType& dst, const ValueType& src) { dst += src; };
  const auto row_scan = [&m](const ValueType& v, const ValueType& identity, const auto& j, ValueType& row_total) {
#if defined(__CUDA_ARCH__)
    if (m.impl_team_of_one()) {  // as impl_scan_rows: no other rank to scan with
      row_total = v;
      return identity;
    }
    return m.impl_scan_threads(v, identity, j, row_total);
#else
    (void)m;
    (void)j;
    row_total = v;
    return identity;
#endif
  };
  ValueType accumulated = ValueType();
  Impl::cuda_nested_scan(range.start, range.end, m.team_rank() * m.impl_vector_length() + m.impl_vector_rank(),
                         m.team_size() * m.impl_vector_length(), closure, ValueType(), join, row_scan, accumulated);
  total = accumulated;
}
template <class iType, class Member, class Closure>
  requires Impl::is_cuda_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::TeamVectorRangeBoundariesStruct<iType, Member>& range,
                                          const Closure& closure) {
  using value_type = Impl::scan_closure_value_t<Closure>;
  static_assert(!std::is_void_v<value_type>,
                "Kokkos::parallel_scan: cannot deduce the scan value type from the closure (a generic lambda?); "
                "pass a result argument of the value type");
  value_type total;
  parallel_scan(range, closure, total);
}

// ---- ThreadVectorRange: the calling thread's vector lanes split the range -----------------------

template <class iType, class Member, class Closure>
  requires Impl::is_cuda_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void parallel_for(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                         const Closure& closure) {
  const iType step = static_cast<iType>(range.member.impl_vector_length());
  for (iType i = range.start + static_cast<iType>(range.member.impl_vector_rank()); i < range.end; i += step)
    closure(i);
}
template <class iType, class Member, class Closure, class ReducerType>
  requires(Impl::is_cuda_team_member_v<Member> && is_reducer_v<ReducerType>)
KOKKOS_INLINE_FUNCTION void parallel_reduce(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                            const Closure& closure, const ReducerType& reducer) {
  using value_type = typename ReducerType::value_type;
  value_type local;
  reducer.init(local);
  const iType step = static_cast<iType>(range.member.impl_vector_length());
  for (iType i = range.start + static_cast<iType>(range.member.impl_vector_rank()); i < range.end; i += step)
    closure(i, local);
  reducer.reference() =
      range.member.impl_reduce_lanes(local, [&](value_type& dst, const value_type& src) { reducer.join(dst, src); });
}
template <class iType, class Member, class Closure, class ValueType>
  requires(Impl::is_cuda_team_member_v<Member> && !is_reducer_v<ValueType>)
KOKKOS_INLINE_FUNCTION void parallel_reduce(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                            const Closure& closure, ValueType& result) {
  parallel_reduce(range, closure, Sum<ValueType>(result));
}
template <class iType, class Member, class Closure, class ReducerType>
  requires(Impl::is_cuda_team_member_v<Member> && is_reducer_v<ReducerType>)
KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                          const Closure& closure, const ReducerType& reducer) {
  using value_type = typename ReducerType::value_type;
  const auto& m = range.member;
  const auto join = [&](value_type& dst, const value_type& src) { reducer.join(dst, src); };
  const auto row_scan = [&](const value_type& v, const value_type& identity, const auto& j, value_type& row_total) {
#if defined(__CUDA_ARCH__)
    // Inclusive scan over the row's lanes, then shifted by one lane.
    const int width = m.impl_vector_length();
    const int lane = m.impl_vector_rank();
    const unsigned mask = m.impl_row_mask();
    value_type inclusive = v;
    for (int offset = 1; offset < width; offset *= 2) {
      value_type lower = Impl::cuda_shfl_up(inclusive, offset, width, mask);
      if (lane >= offset) {
        j(lower, inclusive);
        inclusive = lower;
      }
    }
    row_total = Impl::cuda_shfl(inclusive, width - 1, width, mask);
    const value_type shifted = Impl::cuda_shfl_up(inclusive, 1, width, mask);
    return lane == 0 ? identity : shifted;
#else
    (void)j;
    (void)m;
    row_total = v;
    return identity;
#endif
  };
  value_type identity;
  reducer.init(identity);
  value_type accumulated = identity;
  Impl::cuda_nested_scan(range.start, range.end, m.impl_vector_rank(), m.impl_vector_length(), closure, identity, join,
                         row_scan, accumulated);
  reducer.reference() = accumulated;
}
template <class iType, class Member, class Closure, class ValueType>
  requires(Impl::is_cuda_team_member_v<Member> && !is_reducer_v<ValueType>)
KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                          const Closure& closure, ValueType& total) {
  parallel_scan(range, closure, Sum<ValueType>(total));
}
template <class iType, class Member, class Closure>
  requires Impl::is_cuda_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                          const Closure& closure) {
  using value_type = Impl::scan_closure_value_t<Closure>;
  static_assert(!std::is_void_v<value_type>,
                "Kokkos::parallel_scan: cannot deduce the scan value type from the closure (a generic lambda?); "
                "pass a result argument of the value type");
  value_type total;
  parallel_scan(range, closure, Sum<value_type>(total));
}

// ---- single ---------------------------------------------------------------------------------------

template <class Member, class Closure>
  requires Impl::is_cuda_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void single(const Impl::VectorSingleStruct<Member>& single, const Closure& closure) {
  if (single.team_member.impl_vector_rank() == 0) closure();
}
template <class Member, class Closure>
  requires Impl::is_cuda_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void single(const Impl::ThreadSingleStruct<Member>& single, const Closure& closure) {
  if (single.team_member.team_rank() == 0 && single.team_member.impl_vector_rank() == 0) closure();
}
// Vector lane 0 runs closure(value); every lane of the thread then holds its value.
template <class Member, class Closure, class ValueType>
  requires Impl::is_cuda_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void single(const Impl::VectorSingleStruct<Member>& single, const Closure& closure,
                                   ValueType& value) {
  const auto& m = single.team_member;
  if (m.impl_vector_rank() == 0) closure(value);
#if defined(__CUDA_ARCH__)
  value = Impl::cuda_shfl(value, 0, m.impl_vector_length(), m.impl_row_mask());
#endif
}
// Team rank 0 (lane 0) runs closure(value); every thread of the team then holds its value.
template <class Member, class Closure, class ValueType>
  requires Impl::is_cuda_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void single(const Impl::ThreadSingleStruct<Member>& single, const Closure& closure,
                                   ValueType& value) {
  const auto& m = single.team_member;
  if (m.team_rank() == 0 && m.impl_vector_rank() == 0) closure(value);
  m.team_broadcast(value, 0);
}

}  // namespace Kokkos

#pragma once
// Nested parallelism inside a team functor (Kokkos 4 API):
//
//   parallel_for(TeamThreadRange(team, n), [&](int i) { ... });          // split over the team
//   parallel_reduce(TeamThreadRange(team, b, e), [&](int i, double& s) { ... }, sum);
//   parallel_scan(TeamThreadRange(team, n), [&](int i, long& partial, bool final) { ... });
//   parallel_for(ThreadVectorRange(team, n), ...);   // the calling thread's vector lanes
//   parallel_for(TeamVectorRange(team, n), ...);     // team threads and vector lanes together
//   single(PerTeam(team), [&]() { ... });            // once per team (team rank 0)
//   single(PerThread(team), [&]() { ... });          // once per thread (vector lane 0)
//
// Reductions take a scalar (summed) or a reducer; a TeamThreadRange/TeamVectorRange result is
// the team-wide value on every member, a ThreadVectorRange result is the thread's own.  Scans
// pass each index its exclusive prefix; the optional last argument receives the total.  Nested
// parallel_for has no implied barrier (call team.team_barrier()), as in Kokkos.
//
// The overloads here serve the host team members; host vector lanes run sequentially.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Reducers.hpp>
#include <Kokkos_ScratchSpace.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <Host/Kokkos_HostTeam.hpp>

#include <type_traits>

namespace Kokkos {

// A team handle: what team functors receive (Kokkos 4's is_team_handle).
template <class T, class = void>
struct is_team_handle : std::false_type {};
template <class T>
struct is_team_handle<T, std::void_t<decltype(std::declval<const T&>().team_rank()),
                                     decltype(std::declval<const T&>().team_size()),
                                     decltype(std::declval<const T&>().league_rank()),
                                     decltype(std::declval<const T&>().league_size()),
                                     decltype(std::declval<const T&>().team_barrier()),
                                     decltype(std::declval<const T&>().team_scratch(0))>> : std::true_type {};
template <class T>
inline constexpr bool is_team_handle_v = is_team_handle<T>::value;

namespace Impl {

template <class iType, class Member>
struct TeamThreadRangeBoundariesStruct {
  using index_type = iType;
  const Member& member;
  iType start;
  iType end;
  KOKKOS_INLINE_FUNCTION TeamThreadRangeBoundariesStruct(const Member& m, iType b, iType e)
      : member(m), start(b), end(e < b ? b : e) {}
};
template <class iType, class Member>
struct ThreadVectorRangeBoundariesStruct {
  using index_type = iType;
  const Member& member;
  iType start;
  iType end;
  KOKKOS_INLINE_FUNCTION ThreadVectorRangeBoundariesStruct(const Member& m, iType b, iType e)
      : member(m), start(b), end(e < b ? b : e) {}
};
template <class iType, class Member>
struct TeamVectorRangeBoundariesStruct {
  using index_type = iType;
  const Member& member;
  iType start;
  iType end;
  KOKKOS_INLINE_FUNCTION TeamVectorRangeBoundariesStruct(const Member& m, iType b, iType e)
      : member(m), start(b), end(e < b ? b : e) {}
};

template <class Member>
struct ThreadSingleStruct {  // single(PerTeam(team), ...)
  const Member& team_member;
};
template <class Member>
struct VectorSingleStruct {  // single(PerThread(team), ...)
  const Member& team_member;
};

template <class Member>
inline constexpr bool is_host_team_member_v = is_host_thread_team_member<std::remove_cv_t<Member>>::value;

// The contiguous block of [start, end) a team member takes: Kokkos' host partition.  Host
// members only; host-device in name so that KOKKOS_INLINE_FUNCTION closures may call the
// patterns above it (a host task team's, in a CUDA translation unit).
KOKKOS_IMPL_DISABLE_EXEC_CHECK
template <class Range>
KOKKOS_INLINE_FUNCTION HostBlock<typename Range::index_type> team_block(const Range& range) {
  return static_block(range.start, range.end, range.member.team_rank(), range.member.team_size());
}

// The value type of a scan closure: its value_type, else the T of operator()(i, T&, bool).
template <class F>
struct scan_closure_argument {
  using type = void;
};
template <class C, class R, class I, class T, class B>
struct scan_closure_argument<R (C::*)(I, T&, B) const> {
  using type = T;
};
template <class C, class R, class I, class T, class B>
struct scan_closure_argument<R (C::*)(I, T&, B)> {
  using type = T;
};
template <class C, class R, class I, class T, class B>
struct scan_closure_argument<R (C::*)(I, T&, B) const noexcept> {
  using type = T;
};
template <class C, class R, class I, class T, class B>
struct scan_closure_argument<R (C::*)(I, T&, B) noexcept> {
  using type = T;
};
template <class F>
auto scan_closure_value_probe() {
  if constexpr (requires { typename F::value_type; }) {
    return std::type_identity<typename F::value_type>{};
  } else if constexpr (requires { &F::operator(); }) {
    return std::type_identity<std::remove_cv_t<typename scan_closure_argument<decltype(&F::operator())>::type>>{};
  } else {
    return std::type_identity<void>{};
  }
}
template <class F>
using scan_closure_value_t = typename decltype(scan_closure_value_probe<F>())::type;

// A reducer's join applied to a local value: the team reduction never touches the caller's
// result until the end, so results aliased across members stay race-free.
template <class Reducer>
struct JoinIntoLocal {
  using reducer = JoinIntoLocal;
  using value_type = typename Reducer::value_type;
  const Reducer& target;
  value_type& local;
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const { target.join(dst, src); }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { target.init(v); }
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return local; }
};

template <class Range, class Closure, class Reducer>
KOKKOS_INLINE_FUNCTION void team_range_reduce(const Range& range, const Closure& closure, const Reducer& reducer) {
  using value_type = typename Reducer::value_type;
  value_type local;
  reducer.init(local);
  const auto block = team_block(range);
  for (auto i = block.begin; i < block.end; ++i) closure(i, local);
  range.member.team_reduce(JoinIntoLocal<Reducer>{reducer, local});
  reducer.reference() = local;
}

template <class Range, class Closure, class ValueType>
KOKKOS_INLINE_FUNCTION void team_range_scan(const Range& range, const Closure& closure, ValueType* total_out) {
  static_assert(!std::is_void_v<ValueType>,
                "Kokkos::parallel_scan: cannot deduce the scan value type from the closure (a generic lambda?); "
                "pass a result argument of the value type");
  const auto& member = range.member;
  ValueType total = ValueType();
  if (member.team_size() == 1) {
    for (auto i = range.start; i < range.end; ++i) closure(i, total, true);
  } else {
    const auto block = team_block(range);
    ValueType local = ValueType();
    for (auto i = block.begin; i < block.end; ++i) closure(i, local, false);
    ValueType partial = member.impl_team_scan(local, total);
    for (auto i = block.begin; i < block.end; ++i) closure(i, partial, true);
  }
  if (total_out) *total_out = total;
}

}  // namespace Impl

// ---- range factories ---------------------------------------------------------------------------

template <class iType, class Member, std::enable_if_t<is_team_handle_v<Member> && std::is_integral_v<iType>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::TeamThreadRangeBoundariesStruct<iType, Member> TeamThreadRange(const Member& member,
                                                                                           const iType& count) {
  return {member, iType(0), count};
}
template <class iType1, class iType2, class Member,
          std::enable_if_t<is_team_handle_v<Member> && std::is_integral_v<iType1> && std::is_integral_v<iType2>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::TeamThreadRangeBoundariesStruct<std::common_type_t<iType1, iType2>, Member>
TeamThreadRange(const Member& member, const iType1& begin, const iType2& end) {
  using iType = std::common_type_t<iType1, iType2>;
  return {member, iType(begin), iType(end)};
}

template <class iType, class Member, std::enable_if_t<is_team_handle_v<Member> && std::is_integral_v<iType>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::ThreadVectorRangeBoundariesStruct<iType, Member> ThreadVectorRange(const Member& member,
                                                                                               const iType& count) {
  return {member, iType(0), count};
}
template <class iType1, class iType2, class Member,
          std::enable_if_t<is_team_handle_v<Member> && std::is_integral_v<iType1> && std::is_integral_v<iType2>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::ThreadVectorRangeBoundariesStruct<std::common_type_t<iType1, iType2>, Member>
ThreadVectorRange(const Member& member, const iType1& begin, const iType2& end) {
  using iType = std::common_type_t<iType1, iType2>;
  return {member, iType(begin), iType(end)};
}

template <class iType, class Member, std::enable_if_t<is_team_handle_v<Member> && std::is_integral_v<iType>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::TeamVectorRangeBoundariesStruct<iType, Member> TeamVectorRange(const Member& member,
                                                                                           const iType& count) {
  return {member, iType(0), count};
}
template <class iType1, class iType2, class Member,
          std::enable_if_t<is_team_handle_v<Member> && std::is_integral_v<iType1> && std::is_integral_v<iType2>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::TeamVectorRangeBoundariesStruct<std::common_type_t<iType1, iType2>, Member>
TeamVectorRange(const Member& member, const iType1& begin, const iType2& end) {
  using iType = std::common_type_t<iType1, iType2>;
  return {member, iType(begin), iType(end)};
}

template <class Member, std::enable_if_t<is_team_handle_v<Member>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::ThreadSingleStruct<Member> PerTeam(const Member& member) {
  return {member};
}
template <class Member, std::enable_if_t<is_team_handle_v<Member>, int> = 0>
KOKKOS_INLINE_FUNCTION Impl::VectorSingleStruct<Member> PerThread(const Member& member) {
  return {member};
}

// ---- TeamThreadRange / TeamVectorRange (host vector lanes are sequential, so these agree) ----

#define KOKKOS_IMPL_HOST_TEAM_RANGE_PATTERNS(BOUNDARIES)                                                         \
  template <class iType, class Member, class Closure>                                                           \
    requires Impl::is_host_team_member_v<Member>                                                                 \
  KOKKOS_INLINE_FUNCTION void parallel_for(const Impl::BOUNDARIES<iType, Member>& range, const Closure& closure) { \
    const auto block = Impl::team_block(range);                                                                 \
    for (iType i = block.begin; i < block.end; ++i) closure(i);                                                 \
  }                                                                                                             \
  template <class iType, class Member, class Closure, class ReducerType>                                       \
    requires(Impl::is_host_team_member_v<Member> && is_reducer_v<ReducerType>)                                  \
  KOKKOS_INLINE_FUNCTION void parallel_reduce(const Impl::BOUNDARIES<iType, Member>& range, const Closure& closure, \
                                              const ReducerType& reducer) {                                     \
    Impl::team_range_reduce(range, closure, reducer);                                                           \
  }                                                                                                             \
  template <class iType, class Member, class Closure, class ValueType>                                         \
    requires(Impl::is_host_team_member_v<Member> && !is_reducer_v<ValueType>)                                   \
  KOKKOS_INLINE_FUNCTION void parallel_reduce(const Impl::BOUNDARIES<iType, Member>& range, const Closure& closure, \
                                              ValueType& result) {                                              \
    Impl::team_range_reduce(range, closure, Sum<ValueType>(result));                                            \
  }                                                                                                             \
  template <class iType, class Member, class Closure>                                                           \
    requires Impl::is_host_team_member_v<Member>                                                                 \
  KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::BOUNDARIES<iType, Member>& range, const Closure& closure) { \
    Impl::team_range_scan<Impl::BOUNDARIES<iType, Member>, Closure, Impl::scan_closure_value_t<Closure>>(       \
        range, closure, nullptr);                                                                               \
  }                                                                                                             \
  template <class iType, class Member, class Closure, class ValueType>                                         \
    requires(Impl::is_host_team_member_v<Member> && !is_reducer_v<ValueType>)                                   \
  KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::BOUNDARIES<iType, Member>& range, const Closure& closure,   \
                                            ValueType& total) {                                                 \
    Impl::team_range_scan(range, closure, &total);                                                              \
  }

KOKKOS_IMPL_HOST_TEAM_RANGE_PATTERNS(TeamThreadRangeBoundariesStruct)
KOKKOS_IMPL_HOST_TEAM_RANGE_PATTERNS(TeamVectorRangeBoundariesStruct)
#undef KOKKOS_IMPL_HOST_TEAM_RANGE_PATTERNS

// ---- ThreadVectorRange: the calling thread runs every index ------------------------------------

template <class iType, class Member, class Closure>
  requires Impl::is_host_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void parallel_for(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                         const Closure& closure) {
  for (iType i = range.start; i < range.end; ++i) closure(i);
}
template <class iType, class Member, class Closure, class ReducerType>
  requires(Impl::is_host_team_member_v<Member> && is_reducer_v<ReducerType>)
KOKKOS_INLINE_FUNCTION void parallel_reduce(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                            const Closure& closure, const ReducerType& reducer) {
  typename ReducerType::value_type local;
  reducer.init(local);
  for (iType i = range.start; i < range.end; ++i) closure(i, local);
  reducer.reference() = local;
}
template <class iType, class Member, class Closure, class ValueType>
  requires(Impl::is_host_team_member_v<Member> && !is_reducer_v<ValueType>)
KOKKOS_INLINE_FUNCTION void parallel_reduce(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                            const Closure& closure, ValueType& result) {
  parallel_reduce(range, closure, Sum<ValueType>(result));
}
template <class iType, class Member, class Closure, class ReducerType>
  requires(Impl::is_host_team_member_v<Member> && is_reducer_v<ReducerType>)
KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                          const Closure& closure, const ReducerType& reducer) {
  typename ReducerType::value_type accum;
  reducer.init(accum);
  for (iType i = range.start; i < range.end; ++i) closure(i, accum, true);
  reducer.reference() = accum;
}
template <class iType, class Member, class Closure, class ValueType>
  requires(Impl::is_host_team_member_v<Member> && !is_reducer_v<ValueType>)
KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                          const Closure& closure, ValueType& total) {
  parallel_scan(range, closure, Sum<ValueType>(total));
}
template <class iType, class Member, class Closure>
  requires Impl::is_host_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void parallel_scan(const Impl::ThreadVectorRangeBoundariesStruct<iType, Member>& range,
                                          const Closure& closure) {
  using value_type = Impl::scan_closure_value_t<Closure>;
  static_assert(!std::is_void_v<value_type>,
                "Kokkos::parallel_scan: cannot deduce the scan value type from the closure (a generic lambda?); "
                "pass a result argument of the value type");
  value_type total;
  parallel_scan(range, closure, Sum<value_type>(total));
}

// ---- single -----------------------------------------------------------------------------------

template <class Member, class Closure>
  requires Impl::is_host_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void single(const Impl::VectorSingleStruct<Member>&, const Closure& closure) {
  closure();
}
template <class Member, class Closure>
  requires Impl::is_host_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void single(const Impl::ThreadSingleStruct<Member>& single, const Closure& closure) {
  if (single.team_member.team_rank() == 0) closure();
}
template <class Member, class Closure, class ValueType>
  requires Impl::is_host_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void single(const Impl::VectorSingleStruct<Member>&, const Closure& closure, ValueType& value) {
  closure(value);
}
// Team rank 0 runs closure(value); every member then holds its value.
template <class Member, class Closure, class ValueType>
  requires Impl::is_host_team_member_v<Member>
KOKKOS_INLINE_FUNCTION void single(const Impl::ThreadSingleStruct<Member>& single, const Closure& closure,
                                   ValueType& value) {
  if (single.team_member.team_rank() == 0) closure(value);
  single.team_member.team_broadcast(value, 0);
}

}  // namespace Kokkos

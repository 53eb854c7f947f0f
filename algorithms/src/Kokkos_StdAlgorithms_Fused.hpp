#pragma once
// Array algorithms over rank-1 Views that declare their own accesses, so a program written
// with them fuses inside a FusionScope with no annotation at all (the cuPyNumeric situation
// of seeds 000 and 003):
//
//   namespace KE = Kokkos::Experimental;
//   KE::FusionScope fuse;
//   KE::transform(space, s, x, t, KOKKOS_LAMBDA(double a, double b) { return a / b; });  // t = s / x
//   KE::axpby(space, 2.0, t, 1.0, y);                                                  // y = 2 t + y
//   double d = KE::dot(space, t, y);                       // the run {transform, axpby, dot}
//
// Kokkos' own std algorithms (fill, copy, transform, for_each, reduce, transform_reduce and the
// rest) live in <Kokkos_StdAlgorithms.hpp>, included here; their element-wise ones declare
// their accesses the same way.  This header adds what Kokkos lacks: a ternary transform,
// axpby, scale, where (select), sum, dot, nrm2, min_value, max_value.  Reductions return the
// value to the host, so they end their fused run and flush the window.
//
// Every View argument is rank 1, any layout (subviews included), host-accessible from the
// execution space; extents must agree (checked, std::runtime_error naming the algorithm).
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>
#include <Kokkos_StdAlgorithms.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

namespace Kokkos::Experimental {
namespace Impl {

template <class... Views>
constexpr void static_check_rank1() {
  static_assert((Kokkos::is_view_v<Views> && ...), "Kokkos::Experimental algorithms take Kokkos::Views");
  static_assert(((Views::rank() == 1) && ...), "Kokkos::Experimental algorithms take rank-1 Views");
}

template <class V, class... Vs>
std::size_t checked_extent(const char* algorithm, const V& first, const Vs&... rest) {
  const std::size_t n = first.extent(0);
  const bool same = ((rest.extent(0) == n) && ...);
  if (!same) {
    std::string msg = std::string("Kokkos::Experimental::") + algorithm + ": the Views' extents differ (";
    msg += std::to_string(n);
    ((msg += ", " + std::to_string(rest.extent(0))), ...);
    msg += ")";
    Kokkos::Impl::throw_runtime_exception(msg);
  }
  return n;
}

template <class ExecSpace>
auto range(const ExecSpace& space, std::size_t n) {
  return Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, static_cast<std::int64_t>(n));
}

template <class S1, class S2, class S3, class D, class Op>
struct Transform3 {
  S1 a;
  S2 b;
  S3 c;
  D dst;
  Op op;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(a, b, c, dst); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst(i) = op(a(i), b(i), c(i)); }
};
template <class X, class Y, class A, class B>
struct Axpby {
  A a;
  X x;
  B b;
  Y y;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(x, y); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { y(i) = a * x(i) + b * y(i); }
};
template <class X, class A>
struct Scale {
  A a;
  X x;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(x); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { x(i) = a * x(i); }
};
template <class C, class T, class F, class D>
struct Where {
  C cond;
  T if_true;
  F if_false;
  D dst;
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(cond, if_true, if_false, dst); }  // impl/fusion/Kokkos_FusionTemporaries.hpp
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst(i) = cond(i) ? if_true(i) : if_false(i); }
};

template <class V, class T>
struct SumFunctor {
  static constexpr bool accumulates_only = true;  // reduce in lanes (Host/Kokkos_HostReductionLanes.hpp)
  V v;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, T& acc) const { acc += v(i); }
};
template <class V, class T>
struct MinFunctor {
  static constexpr bool accumulates_only = true;  // reduce in lanes (Host/Kokkos_HostReductionLanes.hpp)
  V v;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, T& acc) const {
    if (v(i) < acc) acc = v(i);
  }
};
template <class V, class T>
struct MaxFunctor {
  static constexpr bool accumulates_only = true;  // reduce in lanes (Host/Kokkos_HostReductionLanes.hpp)
  V v;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, T& acc) const {
    if (acc < v(i)) acc = v(i);
  }
};

template <class ExecSpace>
inline constexpr bool is_space_v = Kokkos::is_execution_space_v<ExecSpace>;

}  // namespace Impl

// ---- element-wise ----------------------------------------------------------------------------

// dest(i) = op(a(i), b(i), c(i))
template <class ExecSpace, class S1, class S2, class S3, class D, class Op>
  requires Impl::is_space_v<ExecSpace> && Kokkos::is_view_v<S3> && Kokkos::is_view_v<D>
void transform(const std::string& label, const ExecSpace& space, const S1& a, const S2& b, const S3& c,
               const D& dest, const Op& op) {
  Impl::static_check_rank1<S1, S2, S3, D>();
  const std::size_t n = Impl::checked_extent("transform", a, b, c, dest);
  Kokkos::parallel_for(label, with_accesses(Impl::range(space, n), reads(a), reads(b), reads(c), writes(dest)),
                       Impl::Transform3<S1, S2, S3, D, Op>{a, b, c, dest, op});
}
template <class ExecSpace, class S1, class S2, class S3, class D, class Op>
  requires Impl::is_space_v<ExecSpace> && Kokkos::is_view_v<S3> && Kokkos::is_view_v<D>
void transform(const ExecSpace& space, const S1& a, const S2& b, const S3& c, const D& dest, const Op& op) {
  transform("Kokkos::transform_view_api_default", space, a, b, c, dest, op);
}

// y = a x + b y
template <class ExecSpace, class A, class X, class B, class Y>
  requires Impl::is_space_v<ExecSpace>
void axpby(const ExecSpace& space, const A& a, const X& x, const B& b, const Y& y) {
  Impl::static_check_rank1<X, Y>();
  const std::size_t n = Impl::checked_extent("axpby", x, y);
  Kokkos::parallel_for("Kokkos::axpby", with_accesses(Impl::range(space, n), reads(x), read_writes(y)),
                       Impl::Axpby<X, Y, A, B>{a, x, b, y});
}

// x = a x
template <class ExecSpace, class A, class X>
  requires Impl::is_space_v<ExecSpace>
void scale(const ExecSpace& space, const A& a, const X& x) {
  Impl::static_check_rank1<X>();
  Kokkos::parallel_for("Kokkos::scale", with_accesses(Impl::range(space, x.extent(0)), read_writes(x)),
                       Impl::Scale<X, A>{a, x});
}

// dest(i) = cond(i) ? if_true(i) : if_false(i)   (numpy.where)
template <class ExecSpace, class C, class T, class F, class D>
  requires Impl::is_space_v<ExecSpace>
void where(const ExecSpace& space, const C& cond, const T& if_true, const F& if_false, const D& dest) {
  Impl::static_check_rank1<C, T, F, D>();
  const std::size_t n = Impl::checked_extent("where", cond, if_true, if_false, dest);
  Kokkos::parallel_for("Kokkos::where",
                       with_accesses(Impl::range(space, n), reads(cond), reads(if_true), reads(if_false), writes(dest)),
                       Impl::Where<C, T, F, D>{cond, if_true, if_false, dest});
}

// ---- reductions (the value is the host's when they return) ------------------------------------

template <class ExecSpace, class V>
  requires Impl::is_space_v<ExecSpace>
typename V::non_const_value_type sum(const ExecSpace& space, const V& v) {
  Impl::static_check_rank1<V>();
  using T = typename V::non_const_value_type;
  T result{};
  Kokkos::parallel_reduce("Kokkos::sum", with_accesses(Impl::range(space, v.extent(0)), reads(v)),
                          Impl::SumFunctor<V, T>{v}, result);
  return result;
}

template <class ExecSpace, class X, class Y>
  requires Impl::is_space_v<ExecSpace>
auto dot(const ExecSpace& space, const X& x, const Y& y) {
  using T = std::common_type_t<typename X::non_const_value_type, typename Y::non_const_value_type>;
  return transform_reduce(space, x, y, T{});
}

template <class ExecSpace, class X>
  requires Impl::is_space_v<ExecSpace>
auto nrm2(const ExecSpace& space, const X& x) {
  using std::sqrt;
  return sqrt(dot(space, x, x));
}

// The smallest / largest element; for an empty View the reduction identity (the type's
// largest / lowest value), as Kokkos::Min / Kokkos::Max give.
template <class ExecSpace, class V>
  requires Impl::is_space_v<ExecSpace>
typename V::non_const_value_type min_value(const ExecSpace& space, const V& v) {
  Impl::static_check_rank1<V>();
  using T = typename V::non_const_value_type;
  T result{};
  Kokkos::parallel_reduce("Kokkos::min_value", with_accesses(Impl::range(space, v.extent(0)), reads(v)),
                          Impl::MinFunctor<V, T>{v}, Kokkos::Min<T>(result));
  return result;
}
template <class ExecSpace, class V>
  requires Impl::is_space_v<ExecSpace>
typename V::non_const_value_type max_value(const ExecSpace& space, const V& v) {
  Impl::static_check_rank1<V>();
  using T = typename V::non_const_value_type;
  T result{};
  Kokkos::parallel_reduce("Kokkos::max_value", with_accesses(Impl::range(space, v.extent(0)), reads(v)),
                          Impl::MaxFunctor<V, T>{v}, Kokkos::Max<T>(result));
  return result;
}

}  // namespace Kokkos::Experimental

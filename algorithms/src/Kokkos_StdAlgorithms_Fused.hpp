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
// Names and argument order follow Kokkos' std algorithms (fill, copy, transform, for_each,
// reduce, transform_reduce), each with an optional leading label; except that the ones
// returning an iterator there return nothing here.  Beyond them: a ternary transform, axpby,
// scale, where (select), sum, dot, nrm2, min_value, max_value.  Reductions return the value
// to the host, so they end their fused run and flush the window.
//
// Every View argument is rank 1, any layout (subviews included), host-accessible from the
// execution space; extents must agree (checked, std::runtime_error naming the algorithm).
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

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

template <class V, class T>
struct FillFunctor {
  V v;
  T value;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { v(i) = value; }
};
template <class S, class D>
struct CopyFunctor {
  S src;
  D dst;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst(i) = src(i); }
};
template <class S, class D, class Op>
struct Transform1 {
  S a;
  D dst;
  Op op;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst(i) = op(a(i)); }
};
template <class S1, class S2, class D, class Op>
struct Transform2 {
  S1 a;
  S2 b;
  D dst;
  Op op;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst(i) = op(a(i), b(i)); }
};
template <class S1, class S2, class S3, class D, class Op>
struct Transform3 {
  S1 a;
  S2 b;
  S3 c;
  D dst;
  Op op;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst(i) = op(a(i), b(i), c(i)); }
};
template <class V, class F>
struct ForEach {
  V v;
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { f(v(i)); }
};
template <class X, class Y, class A, class B>
struct Axpby {
  A a;
  X x;
  B b;
  Y y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { y(i) = a * x(i) + b * y(i); }
};
template <class X, class A>
struct Scale {
  A a;
  X x;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { x(i) = a * x(i); }
};
template <class C, class T, class F, class D>
struct Where {
  C cond;
  T if_true;
  F if_false;
  D dst;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst(i) = cond(i) ? if_true(i) : if_false(i); }
};

template <class V, class T>
struct SumFunctor {
  static constexpr bool accumulates_only = true;  // reduce in lanes (impl/Kokkos_HostReductionLanes.hpp)
  V v;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, T& acc) const { acc += v(i); }
};
template <class X, class Y, class T>
struct DotFunctor {
  static constexpr bool accumulates_only = true;  // reduce in lanes (impl/Kokkos_HostReductionLanes.hpp)
  X x;
  Y y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, T& acc) const { acc += x(i) * y(i); }
};
template <class V, class T>
struct MinFunctor {
  static constexpr bool accumulates_only = true;  // reduce in lanes (impl/Kokkos_HostReductionLanes.hpp)
  V v;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, T& acc) const {
    if (v(i) < acc) acc = v(i);
  }
};
template <class V, class T>
struct MaxFunctor {
  static constexpr bool accumulates_only = true;  // reduce in lanes (impl/Kokkos_HostReductionLanes.hpp)
  V v;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, T& acc) const {
    if (acc < v(i)) acc = v(i);
  }
};

// reduce / transform_reduce with a user joiner: no identity is known, so a partial value
// remembers whether it has seen an element.
template <class T>
struct Partial {
  T value;
  bool set;
};
template <class Joiner, class Transform, class T, class... Vs>
struct JoinReduce {
  using value_type = Partial<T>;
  Joiner join_op;
  Transform transform;
  std::tuple<Vs...> views;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, value_type& acc) const {
    const T x = std::apply([&](const auto&... v) { return transform(v(i)...); }, views);
    acc.value = acc.set ? join_op(acc.value, x) : x;
    acc.set = true;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    v.value = T();
    v.set = false;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    if (!src.set) return;
    dst.value = dst.set ? join_op(dst.value, src.value) : src.value;
    dst.set = true;
  }
};

struct Identity {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& x) const {
    return x;
  }
};
struct Plus {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
struct Multiplies {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return a * b;
  }
};

template <class ExecSpace>
inline constexpr bool is_space_v = Kokkos::is_execution_space_v<ExecSpace>;

}  // namespace Impl

// ---- element-wise ----------------------------------------------------------------------------

template <class ExecSpace, class V, class T>
  requires Impl::is_space_v<ExecSpace>
void fill(const std::string& label, const ExecSpace& space, const V& v, const T& value) {
  Impl::static_check_rank1<V>();
  using value_type = typename V::non_const_value_type;
  Kokkos::parallel_for(label, with_accesses(Impl::range(space, v.extent(0)), writes(v)),
                       Impl::FillFunctor<V, value_type>{v, static_cast<value_type>(value)});
}
template <class ExecSpace, class V, class T>
  requires Impl::is_space_v<ExecSpace>
void fill(const ExecSpace& space, const V& v, const T& value) {
  fill("Kokkos::fill_view_api_default", space, v, value);
}

template <class ExecSpace, class S, class D>
  requires Impl::is_space_v<ExecSpace>
void copy(const std::string& label, const ExecSpace& space, const S& from, const D& to) {
  Impl::static_check_rank1<S, D>();
  const std::size_t n = Impl::checked_extent("copy", from, to);
  Kokkos::parallel_for(label, with_accesses(Impl::range(space, n), reads(from), writes(to)),
                       Impl::CopyFunctor<S, D>{from, to});
}
template <class ExecSpace, class S, class D>
  requires Impl::is_space_v<ExecSpace>
void copy(const ExecSpace& space, const S& from, const D& to) {
  copy("Kokkos::copy_view_api_default", space, from, to);
}

// dest(i) = op(source(i))
template <class ExecSpace, class S, class D, class Op>
  requires Impl::is_space_v<ExecSpace> && Kokkos::is_view_v<D>
void transform(const std::string& label, const ExecSpace& space, const S& source, const D& dest, const Op& op) {
  Impl::static_check_rank1<S, D>();
  const std::size_t n = Impl::checked_extent("transform", source, dest);
  Kokkos::parallel_for(label, with_accesses(Impl::range(space, n), reads(source), writes(dest)),
                       Impl::Transform1<S, D, Op>{source, dest, op});
}
template <class ExecSpace, class S, class D, class Op>
  requires Impl::is_space_v<ExecSpace> && Kokkos::is_view_v<D>
void transform(const ExecSpace& space, const S& source, const D& dest, const Op& op) {
  transform("Kokkos::transform_view_api_default", space, source, dest, op);
}

// dest(i) = op(a(i), b(i))
template <class ExecSpace, class S1, class S2, class D, class Op>
  requires Impl::is_space_v<ExecSpace> && Kokkos::is_view_v<S2> && Kokkos::is_view_v<D>
void transform(const std::string& label, const ExecSpace& space, const S1& a, const S2& b, const D& dest,
               const Op& op) {
  Impl::static_check_rank1<S1, S2, D>();
  const std::size_t n = Impl::checked_extent("transform", a, b, dest);
  Kokkos::parallel_for(label, with_accesses(Impl::range(space, n), reads(a), reads(b), writes(dest)),
                       Impl::Transform2<S1, S2, D, Op>{a, b, dest, op});
}
template <class ExecSpace, class S1, class S2, class D, class Op>
  requires Impl::is_space_v<ExecSpace> && Kokkos::is_view_v<S2> && Kokkos::is_view_v<D>
void transform(const ExecSpace& space, const S1& a, const S2& b, const D& dest, const Op& op) {
  transform("Kokkos::transform_view_api_default", space, a, b, dest, op);
}

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

// f(v(i)) for every i; f may modify the element through its reference argument.
template <class ExecSpace, class V, class F>
  requires Impl::is_space_v<ExecSpace>
void for_each(const std::string& label, const ExecSpace& space, const V& v, const F& f) {
  Impl::static_check_rank1<V>();
  if constexpr (std::is_const_v<typename V::value_type>) {
    Kokkos::parallel_for(label, with_accesses(Impl::range(space, v.extent(0)), reads(v)), Impl::ForEach<V, F>{v, f});
  } else {
    Kokkos::parallel_for(label, with_accesses(Impl::range(space, v.extent(0)), read_writes(v)),
                         Impl::ForEach<V, F>{v, f});
  }
}
template <class ExecSpace, class V, class F>
  requires Impl::is_space_v<ExecSpace>
void for_each(const ExecSpace& space, const V& v, const F& f) {
  for_each("Kokkos::for_each_view_api_default", space, v, f);
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

// init + the sum of v's elements
template <class ExecSpace, class V>
  requires Impl::is_space_v<ExecSpace>
typename V::non_const_value_type reduce(const ExecSpace& space, const V& v) {
  return sum(space, v);
}
template <class ExecSpace, class V, class T>
  requires Impl::is_space_v<ExecSpace> && Kokkos::is_view_v<V>
T reduce(const ExecSpace& space, const V& v, const T& init) {
  return init + static_cast<T>(sum(space, v));
}
// join(init, join over all elements); join must be associative and commutative.
template <class ExecSpace, class V, class T, class Joiner>
  requires Impl::is_space_v<ExecSpace> && Kokkos::is_view_v<V>
T reduce(const ExecSpace& space, const V& v, const T& init, const Joiner& join) {
  Impl::static_check_rank1<V>();
  using F = Impl::JoinReduce<Joiner, Impl::Identity, T, V>;
  typename F::value_type partial{};
  Kokkos::parallel_reduce("Kokkos::reduce", with_accesses(Impl::range(space, v.extent(0)), reads(v)),
                          F{join, Impl::Identity{}, std::tuple<V>(v)}, partial);
  return partial.set ? join(init, partial.value) : init;
}

// init + sum of x(i) * y(i)
template <class ExecSpace, class X, class Y, class T>
  requires Impl::is_space_v<ExecSpace> && Kokkos::is_view_v<X> && Kokkos::is_view_v<Y>
T transform_reduce(const ExecSpace& space, const X& x, const Y& y, const T& init) {
  Impl::static_check_rank1<X, Y>();
  const std::size_t n = Impl::checked_extent("transform_reduce", x, y);
  T result{};
  Kokkos::parallel_reduce("Kokkos::transform_reduce", with_accesses(Impl::range(space, n), reads(x), reads(y)),
                          Impl::DotFunctor<X, Y, T>{x, y}, result);
  return init + result;
}
// join(init, join over transform(x(i), y(i)))
template <class ExecSpace, class X, class Y, class T, class Joiner, class Transform>
  requires Impl::is_space_v<ExecSpace> && Kokkos::is_view_v<X> && Kokkos::is_view_v<Y>
T transform_reduce(const ExecSpace& space, const X& x, const Y& y, const T& init, const Joiner& join,
                   const Transform& transform) {
  Impl::static_check_rank1<X, Y>();
  const std::size_t n = Impl::checked_extent("transform_reduce", x, y);
  using F = Impl::JoinReduce<Joiner, Transform, T, X, Y>;
  typename F::value_type partial{};
  Kokkos::parallel_reduce("Kokkos::transform_reduce", with_accesses(Impl::range(space, n), reads(x), reads(y)),
                          F{join, transform, std::tuple<X, Y>(x, y)}, partial);
  return partial.set ? join(init, partial.value) : init;
}
// join(init, join over transform(v(i)))
template <class ExecSpace, class V, class T, class Joiner, class Transform>
  requires Impl::is_space_v<ExecSpace> && Kokkos::is_view_v<V> && (!Kokkos::is_view_v<T>)
T transform_reduce(const ExecSpace& space, const V& v, const T& init, const Joiner& join, const Transform& transform) {
  Impl::static_check_rank1<V>();
  using F = Impl::JoinReduce<Joiner, Transform, T, V>;
  typename F::value_type partial{};
  Kokkos::parallel_reduce("Kokkos::transform_reduce", with_accesses(Impl::range(space, v.extent(0)), reads(v)),
                          F{join, transform, std::tuple<V>(v)}, partial);
  return partial.set ? join(init, partial.value) : init;
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

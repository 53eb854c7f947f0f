#pragma once
// Kokkos 4's built-in reducers (reduction_identity<T> is in Kokkos_NumericTraits.hpp, as in Kokkos).
//
//   double s;   parallel_reduce(n, f, Kokkos::Sum<double>(s));
//   Kokkos::View<Kokkos::MinLoc<double, int>::value_type, HostSpace> r("r");
//   parallel_reduce(n, g, Kokkos::MinLoc<double, int>(r));
//
// A reducer names where the result goes (a host scalar, wrapped as an unmanaged rank-0 View,
// or a rank-0 View) and how values combine (init gives the identity, join combines two).
// Everything a functor or back end calls is device-safe.
//
// Ties: MinLoc/MaxLoc/MinMaxLoc keep the smallest location among equal values, so results do
// not depend on the thread count (Kokkos leaves this unspecified; MinFirstLoc/MaxFirstLoc are
// the Kokkos 4 names that guarantee it).  MinMaxFirstLastLoc keeps the first min, last max.
#include <Kokkos_Macros.hpp>
#include <Kokkos_HostSpace.hpp>
#include <Kokkos_View.hpp>
#include <Kokkos_NumericTraits.hpp>

#include <type_traits>

namespace Kokkos {

// A class is a reducer when its `reducer` member type is itself (cv-qualified too, as in Kokkos).
template <class T, class = void>
struct is_reducer : std::false_type {};
template <class T>
struct is_reducer<T, std::void_t<typename T::reducer>> : std::is_same<typename T::reducer, std::remove_cv_t<T>> {};
template <class T>
inline constexpr bool is_reducer_v = is_reducer<T>::value;

namespace Impl {
// Where a reducer's result lives, shared by every built-in reducer: a rank-0 View, unmanaged
// when it wraps a caller's scalar.
template <class ValueType, class Space>
class ReducerResult {
 public:
  using value_type = ValueType;
  using result_view_type = Kokkos::View<value_type, Space>;

  KOKKOS_INLINE_FUNCTION ReducerResult(value_type& value) : m_view(&value), m_references_scalar(true) {}
  KOKKOS_INLINE_FUNCTION ReducerResult(const result_view_type& view) : m_view(view), m_references_scalar(false) {}

  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *m_view.data(); }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return m_view; }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return m_references_scalar; }

 private:
  result_view_type m_view;
  bool m_references_scalar;
};
}  // namespace Impl

// Defines a scalar reducer NAME whose identity is reduction_identity<T>::IDENTITY() and whose
// join is JOIN_BODY over (dest, src).
#define KOKKOS_IMPL_SCALAR_REDUCER(NAME, IDENTITY, JOIN_BODY)                                        \
  template <class Scalar, class Space = HostSpace>                                                   \
  struct NAME : Impl::ReducerResult<std::remove_cv_t<Scalar>, Space> {                               \
    using reducer = NAME<Scalar, Space>;                                                             \
    using value_type = std::remove_cv_t<Scalar>;                                                     \
    static_assert(!std::is_pointer_v<value_type> && !std::is_array_v<value_type>,                    \
                  "Kokkos::" #NAME ": the value type must be a scalar");                             \
    using result_view_type = Kokkos::View<value_type, Space>;                                        \
    using Impl::ReducerResult<value_type, Space>::ReducerResult;                                     \
    KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const { JOIN_BODY; }   \
    KOKKOS_INLINE_FUNCTION void init(value_type& val) const {                                        \
      val = reduction_identity<value_type>::IDENTITY();                                              \
    }                                                                                                \
  };                                                                                                 \
  template <class V, class... P>                                                                     \
  NAME(const View<V, P...>&) -> NAME<V, typename View<V, P...>::memory_space>;

KOKKOS_IMPL_SCALAR_REDUCER(Sum, sum, dest += src)
KOKKOS_IMPL_SCALAR_REDUCER(Prod, prod, dest *= src)
KOKKOS_IMPL_SCALAR_REDUCER(Min, min, if (src < dest) dest = src)
KOKKOS_IMPL_SCALAR_REDUCER(Max, max, if (src > dest) dest = src)
KOKKOS_IMPL_SCALAR_REDUCER(LAnd, land, dest = dest && src)
KOKKOS_IMPL_SCALAR_REDUCER(LOr, lor, dest = dest || src)
KOKKOS_IMPL_SCALAR_REDUCER(BAnd, band, dest = dest & src)
KOKKOS_IMPL_SCALAR_REDUCER(BOr, bor, dest = dest | src)
#undef KOKKOS_IMPL_SCALAR_REDUCER

// ---- value-and-location reducers -------------------------------------------------------------

template <class Scalar, class Index>
struct ValLocScalar {
  Scalar val;
  Index loc;
};

template <class Scalar, class Index>
struct MinMaxLocScalar {
  Scalar min_val;
  Scalar max_val;
  Index min_loc;
  Index max_loc;
};

template <class Scalar>
struct MinMaxScalar {
  Scalar min_val;
  Scalar max_val;
};

namespace Impl {
// Keeps src when it is strictly better, or equally good at a location the policy prefers.
template <class Scalar, class Index>
KOKKOS_INLINE_FUNCTION void join_min_loc(Scalar& val, Index& loc, const Scalar& src_val, const Index& src_loc) {
  if (src_val < val || (src_val == val && src_loc < loc)) {
    val = src_val;
    loc = src_loc;
  }
}
template <class Scalar, class Index>
KOKKOS_INLINE_FUNCTION void join_max_loc(Scalar& val, Index& loc, const Scalar& src_val, const Index& src_loc) {
  if (src_val > val || (src_val == val && src_loc < loc)) {
    val = src_val;
    loc = src_loc;
  }
}
// Last location among equal maxima; the identity location is min() (largest), so it must
// lose against any real location, hence the explicit check.
template <class Scalar, class Index>
KOKKOS_INLINE_FUNCTION void join_max_last_loc(Scalar& val, Index& loc, const Scalar& src_val,
                                              const Index& src_loc) {
  if (src_val > val || (src_val == val && (loc == reduction_identity<Index>::min() ||
                                            (src_loc > loc && src_loc != reduction_identity<Index>::min())))) {
    val = src_val;
    loc = src_loc;
  }
}
}  // namespace Impl

#define KOKKOS_IMPL_LOC_REDUCER(NAME, VAL_IDENTITY, JOIN_FN)                                          \
  template <class Scalar, class Index, class Space = HostSpace>                                      \
  struct NAME                                                                                        \
      : Impl::ReducerResult<ValLocScalar<std::remove_cv_t<Scalar>, std::remove_cv_t<Index>>, Space> { \
    using scalar_type = std::remove_cv_t<Scalar>;                                                    \
    using index_type = std::remove_cv_t<Index>;                                                      \
    using reducer = NAME<Scalar, Index, Space>;                                                      \
    using value_type = ValLocScalar<scalar_type, index_type>;                                        \
    using result_view_type = Kokkos::View<value_type, Space>;                                        \
    using Impl::ReducerResult<value_type, Space>::ReducerResult;                                     \
    KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {                \
      Impl::JOIN_FN(dest.val, dest.loc, src.val, src.loc);                                           \
    }                                                                                                \
    KOKKOS_INLINE_FUNCTION void init(value_type& val) const {                                        \
      val.val = reduction_identity<scalar_type>::VAL_IDENTITY();                                     \
      val.loc = reduction_identity<index_type>::min();                                               \
    }                                                                                                \
  };                                                                                                 \
  template <class V, class... P>                                                                     \
  NAME(const View<V, P...>&)->NAME<decltype(V::val), decltype(V::loc), typename View<V, P...>::memory_space>;

KOKKOS_IMPL_LOC_REDUCER(MinLoc, min, join_min_loc)
KOKKOS_IMPL_LOC_REDUCER(MaxLoc, max, join_max_loc)
KOKKOS_IMPL_LOC_REDUCER(MinFirstLoc, min, join_min_loc)
KOKKOS_IMPL_LOC_REDUCER(MaxFirstLoc, max, join_max_loc)
#undef KOKKOS_IMPL_LOC_REDUCER

template <class Scalar, class Space = HostSpace>
struct MinMax : Impl::ReducerResult<MinMaxScalar<std::remove_cv_t<Scalar>>, Space> {
  using scalar_type = std::remove_cv_t<Scalar>;
  using reducer = MinMax<Scalar, Space>;
  using value_type = MinMaxScalar<scalar_type>;
  using result_view_type = Kokkos::View<value_type, Space>;
  using Impl::ReducerResult<value_type, Space>::ReducerResult;

  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {
    if (src.min_val < dest.min_val) dest.min_val = src.min_val;
    if (src.max_val > dest.max_val) dest.max_val = src.max_val;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& val) const {
    val.min_val = reduction_identity<scalar_type>::min();
    val.max_val = reduction_identity<scalar_type>::max();
  }
};
template <class V, class... P>
MinMax(const View<V, P...>&) -> MinMax<decltype(V::min_val), typename View<V, P...>::memory_space>;

#define KOKKOS_IMPL_MINMAXLOC_REDUCER(NAME, MAX_JOIN_FN)                                                          \
  template <class Scalar, class Index, class Space = HostSpace>                                                  \
  struct NAME                                                                                                    \
      : Impl::ReducerResult<MinMaxLocScalar<std::remove_cv_t<Scalar>, std::remove_cv_t<Index>>, Space> {        \
    using scalar_type = std::remove_cv_t<Scalar>;                                                                \
    using index_type = std::remove_cv_t<Index>;                                                                  \
    using reducer = NAME<Scalar, Index, Space>;                                                                  \
    using value_type = MinMaxLocScalar<scalar_type, index_type>;                                                 \
    using result_view_type = Kokkos::View<value_type, Space>;                                                    \
    using Impl::ReducerResult<value_type, Space>::ReducerResult;                                                 \
    KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {                            \
      Impl::join_min_loc(dest.min_val, dest.min_loc, src.min_val, src.min_loc);                                  \
      Impl::MAX_JOIN_FN(dest.max_val, dest.max_loc, src.max_val, src.max_loc);                                   \
    }                                                                                                            \
    KOKKOS_INLINE_FUNCTION void init(value_type& val) const {                                                    \
      val.min_val = reduction_identity<scalar_type>::min();                                                      \
      val.max_val = reduction_identity<scalar_type>::max();                                                      \
      val.min_loc = reduction_identity<index_type>::min();                                                       \
      val.max_loc = reduction_identity<index_type>::min();                                                       \
    }                                                                                                            \
  };                                                                                                             \
  template <class V, class... P>                                                                                 \
  NAME(const View<V, P...>&)->NAME<decltype(V::min_val), decltype(V::min_loc), typename View<V, P...>::memory_space>;

KOKKOS_IMPL_MINMAXLOC_REDUCER(MinMaxLoc, join_max_loc)
KOKKOS_IMPL_MINMAXLOC_REDUCER(MinMaxFirstLastLoc, join_max_last_loc)
#undef KOKKOS_IMPL_MINMAXLOC_REDUCER

}  // namespace Kokkos

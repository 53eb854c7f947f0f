#pragma once
// What a reduction or scan needs to know about a functor, and the reducer interface every
// back end's ParallelReduce / ParallelScan works through (as in Kokkos 4):
//
//   CombinedFunctorReducer<Functor, Reducer> fr(functor, reducer);
//   fr.get_functor()(i, reducer.reference(ptr));          // the per-index call
//   reducer.init(ptr); reducer.join(dst, src); reducer.final(ptr);
//
// The reducer part works on *pointers* so that scalar, struct and runtime-length array
// (`value_type[]` + `value_count`) reductions share one interface: pointer_type is value_type*,
// reference_type is value_type& for scalars and value_type* for arrays, value_count() is 1 for
// scalars.
//
// Two reducer kinds exist:
//   FunctorReducer<Functor, ValueType, Tag>  the functor's own value_type/init/join/final, with
//                                            Sum semantics for whatever it does not define;
//   ReducerAdapter<Reducer>                  a Kokkos reducer (Sum, MinLoc, user-defined ...).
// Everything here is device-safe.
#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

namespace Kokkos::Impl {

enum class FunctorPatternInterface { FOR, REDUCE, SCAN };

// ---- functor introspection -----------------------------------------------------------------

template <class F, class = void>
struct functor_has_value_type : std::false_type {};
template <class F>
struct functor_has_value_type<F, std::void_t<typename F::value_type>> : std::true_type {};

// Types only: std::tuple is never instantiated as an object, so this stays device-safe.
template <std::size_t FromEnd, class... A>
struct arg_from_end {
  using type = void;
};
template <std::size_t FromEnd, class... A>
  requires(sizeof...(A) > FromEnd)
struct arg_from_end<FromEnd, A...> {
  using type = std::tuple_element_t<sizeof...(A) - 1 - FromEnd, std::tuple<A...>>;
};

// The arguments of operator() after the work tag: the value argument is the last one for a
// reduction, the one before `final` for a scan.
template <class... A>
struct operator_args {
  using reduce_arg = typename arg_from_end<0, A...>::type;
  using scan_arg = std::conditional_t<std::is_same_v<std::remove_cvref_t<typename arg_from_end<0, A...>::type>, bool>,
                                      typename arg_from_end<1, A...>::type, void>;
};

// Picks the operator() for work tag Tag out of the overload set &F::operator(): deduction
// from an overload set succeeds when exactly one member matches, as in Kokkos.
template <class F, class Tag>
struct operator_deducer {
#define KOKKOS_IMPL_OPERATOR_DEDUCER(QUALS)                               \
  template <class R, class... A>                                        \
  static operator_args<A...> deduce(R (F::*)(Tag, A...) QUALS);         \
  template <class R, class... A>                                        \
  static operator_args<A...> deduce(R (F::*)(const Tag&, A...) QUALS);
  KOKKOS_IMPL_OPERATOR_DEDUCER()
  KOKKOS_IMPL_OPERATOR_DEDUCER(const)
  KOKKOS_IMPL_OPERATOR_DEDUCER(noexcept)
  KOKKOS_IMPL_OPERATOR_DEDUCER(const noexcept)
#undef KOKKOS_IMPL_OPERATOR_DEDUCER
};
template <class F>
struct operator_deducer<F, void> {
#define KOKKOS_IMPL_OPERATOR_DEDUCER(QUALS) \
  template <class R, class... A>          \
  static operator_args<A...> deduce(R (F::*)(A...) QUALS);
  KOKKOS_IMPL_OPERATOR_DEDUCER()
  KOKKOS_IMPL_OPERATOR_DEDUCER(const)
  KOKKOS_IMPL_OPERATOR_DEDUCER(noexcept)
  KOKKOS_IMPL_OPERATOR_DEDUCER(const noexcept)
#undef KOKKOS_IMPL_OPERATOR_DEDUCER
};

template <class F, class Tag, class = void>
struct deduced_operator_args {
  using reduce_arg = void;
  using scan_arg = void;
};
template <class F, class Tag>
struct deduced_operator_args<F, Tag, std::void_t<decltype(operator_deducer<F, Tag>::deduce(&F::operator()))>>
    : decltype(operator_deducer<F, Tag>::deduce(&F::operator())) {};

// The value type a reduction (or scan) over F uses when nothing else names it: F::value_type,
// else the type of operator()'s value argument (for work tag Tag), else void.  Generic lambdas
// and functors with several candidate operators give void.
template <class F, FunctorPatternInterface Pattern, class Tag = void>
struct functor_value_type {
  using arg = std::conditional_t<Pattern == FunctorPatternInterface::SCAN,
                                 typename deduced_operator_args<F, Tag>::scan_arg,
                                 typename deduced_operator_args<F, Tag>::reduce_arg>;
  using type = std::remove_cv_t<std::remove_reference_t<arg>>;
};
template <class F, FunctorPatternInterface Pattern, class Tag>
  requires functor_has_value_type<F>::value
struct functor_value_type<F, Pattern, Tag> {
  using type = typename F::value_type;
};

// Functor members that may take the work tag first: init, join, final (tagged form wins).
template <class Tag, class F, class... A>
concept tagged_init = !std::is_void_v<Tag> && requires(const F& f, A&&... a) { f.init(Tag{}, static_cast<A&&>(a)...); };
template <class Tag, class F, class... A>
concept untagged_init = requires(const F& f, A&&... a) { f.init(static_cast<A&&>(a)...); };
template <class Tag, class F, class... A>
concept tagged_join = !std::is_void_v<Tag> && requires(const F& f, A&&... a) { f.join(Tag{}, static_cast<A&&>(a)...); };
template <class Tag, class F, class... A>
concept untagged_join = requires(const F& f, A&&... a) { f.join(static_cast<A&&>(a)...); };
template <class Tag, class F, class... A>
concept tagged_final = !std::is_void_v<Tag> && requires(const F& f, A&&... a) { f.final(Tag{}, static_cast<A&&>(a)...); };
template <class Tag, class F, class... A>
concept untagged_final = requires(const F& f, A&&... a) { f.final(static_cast<A&&>(a)...); };

template <class F>
concept has_value_count_member = requires(const F& f) { static_cast<int>(f.value_count); };

// ---- the reducer built from a functor --------------------------------------------------------

// ValueType is a scalar/struct T, or T[] for an array reduction of runtime length.
template <class Functor, class ValueType, class Tag = void>
class FunctorReducer {
 public:
  static constexpr bool is_array = std::is_array_v<ValueType>;
  using functor_type = Functor;
  using value_type = std::remove_cv_t<std::remove_extent_t<ValueType>>;
  using pointer_type = value_type*;
  using const_pointer_type = const value_type*;
  using reference_type = std::conditional_t<is_array, value_type*, value_type&>;
  using work_tag = Tag;
  static_assert(!std::is_void_v<value_type>,
                "Kokkos::parallel_reduce/parallel_scan: cannot tell the reduction's value type; give the functor a "
                "value_type, pass a result argument, or give operator() a non-template value argument");

 private:
  using scalar_ref = std::conditional_t<is_array, value_type*, value_type&>;
  using const_scalar_ref = std::conditional_t<is_array, const value_type*, const value_type&>;

 public:
  static constexpr bool has_init_member_function =
      tagged_init<Tag, Functor, scalar_ref> || untagged_init<Tag, Functor, scalar_ref>;
  static constexpr bool has_join_member_function =
      tagged_join<Tag, Functor, scalar_ref, const_scalar_ref> || untagged_join<Tag, Functor, scalar_ref, const_scalar_ref>;
  static constexpr bool has_final_member_function =
      tagged_final<Tag, Functor, scalar_ref> || untagged_final<Tag, Functor, scalar_ref>;

  // count: the array length for array reductions; taken from functor.value_count when given.
  KOKKOS_INLINE_FUNCTION explicit FunctorReducer(const Functor& functor, int count = -1)
      : m_functor(functor), m_count(is_array ? (count >= 0 ? count : functor_count(functor)) : 1) {}

  KOKKOS_INLINE_FUNCTION const Functor& get_functor() const { return m_functor; }
  KOKKOS_INLINE_FUNCTION int value_count() const { return m_count; }
  KOKKOS_INLINE_FUNCTION std::size_t value_size() const { return sizeof(value_type) * std::size_t(m_count); }

  KOKKOS_INLINE_FUNCTION reference_type reference(pointer_type p) const {
    if constexpr (is_array) {
      return p;
    } else {
      return *p;
    }
  }

  KOKKOS_INLINE_FUNCTION void init(pointer_type p) const {
    if constexpr (tagged_init<Tag, Functor, scalar_ref>) {
      m_functor.init(Tag{}, reference(p));
    } else if constexpr (untagged_init<Tag, Functor, scalar_ref>) {
      m_functor.init(reference(p));
    } else {
      for (int k = 0; k < m_count; ++k) new (p + k) value_type();
    }
  }

  KOKKOS_INLINE_FUNCTION void join(pointer_type dst, const_pointer_type src) const {
    if constexpr (tagged_join<Tag, Functor, scalar_ref, const_scalar_ref>) {
      m_functor.join(Tag{}, reference(dst), cref(src));
    } else if constexpr (untagged_join<Tag, Functor, scalar_ref, const_scalar_ref>) {
      m_functor.join(reference(dst), cref(src));
    } else {
      for (int k = 0; k < m_count; ++k) dst[k] += src[k];
    }
  }

  KOKKOS_INLINE_FUNCTION void final(pointer_type p) const {
    if constexpr (tagged_final<Tag, Functor, scalar_ref>) {
      m_functor.final(Tag{}, reference(p));
    } else if constexpr (untagged_final<Tag, Functor, scalar_ref>) {
      m_functor.final(reference(p));
    }
  }

 private:
  KOKKOS_INLINE_FUNCTION static int functor_count(const Functor& f) {
    if constexpr (has_value_count_member<Functor>) {
      return static_cast<int>(f.value_count);
    } else {
      return 1;
    }
  }
  KOKKOS_INLINE_FUNCTION static const_scalar_ref cref(const_pointer_type p) {
    if constexpr (is_array) {
      return p;
    } else {
      return *p;
    }
  }

  Functor m_functor;
  int m_count;
};

// ---- the reducer wrapping a Kokkos reducer ---------------------------------------------------

template <class Reducer>
class ReducerAdapter {
 public:
  using reducer_type = Reducer;
  using value_type = std::remove_cv_t<typename Reducer::value_type>;
  using pointer_type = value_type*;
  using const_pointer_type = const value_type*;
  using reference_type = value_type&;

  static constexpr bool has_init_member_function = true;
  static constexpr bool has_join_member_function = true;
  static constexpr bool has_final_member_function = requires(const Reducer& r, value_type& v) { r.final(v); };

  KOKKOS_INLINE_FUNCTION explicit ReducerAdapter(const Reducer& reducer) : m_reducer(reducer) {}

  KOKKOS_INLINE_FUNCTION const Reducer& get_reducer() const { return m_reducer; }
  KOKKOS_INLINE_FUNCTION static constexpr int value_count() { return 1; }
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t value_size() { return sizeof(value_type); }
  KOKKOS_INLINE_FUNCTION static reference_type reference(pointer_type p) { return *p; }
  KOKKOS_INLINE_FUNCTION void init(pointer_type p) const {
    new (p) value_type();
    m_reducer.init(*p);
  }
  KOKKOS_INLINE_FUNCTION void join(pointer_type dst, const_pointer_type src) const { m_reducer.join(*dst, *src); }
  KOKKOS_INLINE_FUNCTION void final(pointer_type p) const {
    if constexpr (has_final_member_function) m_reducer.final(*p);
  }

 private:
  Reducer m_reducer;
};

// ---- functor + reducer, the first template argument of ParallelReduce -------------------------

template <class Functor, class Reducer>
class CombinedFunctorReducer {
 public:
  using functor_type = Functor;
  using reducer_type = Reducer;
  KOKKOS_INLINE_FUNCTION CombinedFunctorReducer(const Functor& functor, const Reducer& reducer)
      : m_functor(functor), m_reducer(reducer) {}
  KOKKOS_INLINE_FUNCTION const Functor& get_functor() const { return m_functor; }
  KOKKOS_INLINE_FUNCTION const Reducer& get_reducer() const { return m_reducer; }

 private:
  Functor m_functor;
  Reducer m_reducer;
};

// When the reducer is built from the functor itself it already holds the functor: keep one copy.
template <class Functor, class ValueType, class Tag>
class CombinedFunctorReducer<Functor, FunctorReducer<Functor, ValueType, Tag>> {
 public:
  using functor_type = Functor;
  using reducer_type = FunctorReducer<Functor, ValueType, Tag>;
  KOKKOS_INLINE_FUNCTION CombinedFunctorReducer(const Functor& /*functor*/, const reducer_type& reducer)
      : m_reducer(reducer) {}
  KOKKOS_INLINE_FUNCTION const Functor& get_functor() const { return m_reducer.get_functor(); }
  KOKKOS_INLINE_FUNCTION const reducer_type& get_reducer() const { return m_reducer; }

 private:
  reducer_type m_reducer;
};

// Kokkos' spelling, for code that names the analysis: FunctorAnalysis<REDUCE, Policy, F, V>::Reducer.
template <FunctorPatternInterface Pattern, class Policy, class Functor, class ValueType = void>
struct FunctorAnalysis {
  using work_tag = typename Policy::work_tag;
  using value_type_or_array =
      std::conditional_t<functor_has_value_type<Functor>::value || std::is_void_v<ValueType>,
                         typename functor_value_type<Functor, Pattern, work_tag>::type, ValueType>;
  using Reducer = FunctorReducer<Functor, value_type_or_array, work_tag>;
  using value_type = typename Reducer::value_type;
  using pointer_type = typename Reducer::pointer_type;
  using reference_type = typename Reducer::reference_type;
  static constexpr bool has_init_member_function = Reducer::has_init_member_function;
  static constexpr bool has_join_member_function = Reducer::has_join_member_function;
  static constexpr bool has_final_member_function = Reducer::has_final_member_function;
};

}  // namespace Kokkos::Impl

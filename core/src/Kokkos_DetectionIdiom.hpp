#pragma once
// Kokkos' detection idiom (ISO/IEC TS 19568:2017, Library Fundamentals v2, [meta.detect]): whether
// Op<Args...> names a valid type, asked in a SFINAE-friendly way.
//
//   template <class T> using has_size_t = decltype(std::declval<T const&>().size());
//   static_assert(Kokkos::is_detected_v<has_size_t, std::vector<int>>);
//   using size_type = Kokkos::detected_or_t<int, has_size_t, T>;  // int where T has no size()
//
// As in Kokkos, detected_or (the TS's pair of value_t and type) is left out; detected_or_t is
// provided.  The header is public and stands alone.
#include <type_traits>

namespace Kokkos {

namespace Impl {
template <class Default, class AlwaysVoid, template <class...> class Op, class... Args>
struct detector {
  using value_t = std::false_type;
  using type = Default;
};

template <class Default, template <class...> class Op, class... Args>
struct detector<Default, std::void_t<Op<Args...>>, Op, Args...> {
  using value_t = std::true_type;
  using type = Op<Args...>;
};
}  // namespace Impl

// What detected_t names when Op<Args...> is not valid: a type no program can create, copy or
// destroy (nor aggregate-initialise: it declares a constructor), so that it never matches a real
// result by accident.
struct nonesuch {
  ~nonesuch() = delete;
  nonesuch(nonesuch const&) = delete;
  void operator=(nonesuch const&) = delete;
};

template <template <class...> class Op, class... Args>
using is_detected = typename Impl::detector<nonesuch, void, Op, Args...>::value_t;

template <template <class...> class Op, class... Args>
using detected_t = typename Impl::detector<nonesuch, void, Op, Args...>::type;

template <class Default, template <class...> class Op, class... Args>
using detected_or_t = typename Impl::detector<Default, void, Op, Args...>::type;

template <class Expected, template <class...> class Op, class... Args>
using is_detected_exact = std::is_same<Expected, detected_t<Op, Args...>>;

template <class To, template <class...> class Op, class... Args>
using is_detected_convertible = std::is_convertible<detected_t<Op, Args...>, To>;

template <template <class...> class Op, class... Args>
inline constexpr bool is_detected_v = is_detected<Op, Args...>::value;

template <class Expected, template <class...> class Op, class... Args>
inline constexpr bool is_detected_exact_v = is_detected_exact<Expected, Op, Args...>::value;

template <class To, template <class...> class Op, class... Args>
inline constexpr bool is_detected_convertible_v = is_detected_convertible<To, Op, Args...>::value;

}  // namespace Kokkos

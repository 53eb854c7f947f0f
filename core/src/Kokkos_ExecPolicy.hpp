#pragma once
// RangePolicy and ChunkSize.  (MDRangePolicy and TeamPolicy live in their own headers.)
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Abort.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace Kokkos {

struct ChunkSize {
  int value;
  explicit ChunkSize(int v) : value(v) {}
};

template <class... Properties>
class RangePolicy : public Impl::PolicyOccupancy {
  using traits = Impl::PolicyTraits<Properties...>;
  template <class IB, class IE>
  static constexpr bool bounds_convert_v =
      std::is_convertible_v<IB, typename traits::index_type::type> &&
      std::is_convertible_v<IE, typename traits::index_type::type>;

 public:
  using execution_policy = RangePolicy<Properties...>;
  using execution_space = typename traits::execution_space;
  using schedule_type = typename traits::schedule_type;
  using index_type = typename traits::index_type::type;
  using work_tag = typename traits::work_tag;
  using launch_bounds = typename traits::launch_bounds;
  using work_item_property = typename traits::work_item_property;
  using occupancy_control = typename traits::occupancy_control;
  using member_type = index_type;
  using traits_type = traits;

  RangePolicy() = default;

  // The same range with other properties (what require/prefer return), as in Kokkos.
  template <class... Other>
  RangePolicy(const RangePolicy<Other...>& other)  // NOLINT: implicit, as in Kokkos
      : Impl::PolicyOccupancy(other),
        m_space(other.space()),
        m_begin(static_cast<member_type>(other.begin())),
        m_end(static_cast<member_type>(other.end())),
        m_chunk_size(other.chunk_size()) {
    static_assert(std::is_same_v<typename RangePolicy<Other...>::execution_space, execution_space>,
                  "Kokkos::RangePolicy: conversion between policies of different execution spaces");
  }

  // Bounds of any type that converts to the index type, as in Kokkos.
  template <class IB, class IE, class = std::enable_if_t<bounds_convert_v<IB, IE>>>
  RangePolicy(const execution_space& space, IB begin, IE end) : m_space(space) {
    set_bounds(begin, end);
  }
  template <class IB, class IE, class = std::enable_if_t<bounds_convert_v<IB, IE>>>
  RangePolicy(IB begin, IE end) {
    set_bounds(begin, end);
  }
  template <class IB, class IE, class = std::enable_if_t<bounds_convert_v<IB, IE>>>
  RangePolicy(const execution_space& space, IB begin, IE end, ChunkSize chunk) : m_space(space) {
    set_bounds(begin, end);
    set_chunk_size(chunk.value);
  }
  template <class IB, class IE, class = std::enable_if_t<bounds_convert_v<IB, IE>>>
  RangePolicy(IB begin, IE end, ChunkSize chunk) {
    set_bounds(begin, end);
    set_chunk_size(chunk.value);
  }

  KOKKOS_INLINE_FUNCTION member_type begin() const { return m_begin; }
  KOKKOS_INLINE_FUNCTION member_type end() const { return m_end; }
  const execution_space& space() const { return m_space; }
  // Launch on another instance of the space (see Impl::policy_on_space).
  void impl_set_space(const execution_space& space) { m_space = space; }
  int chunk_size() const { return m_chunk_size; }
  // 0 means "let the back end choose".
  RangePolicy& set_chunk_size(int chunk) {
    if (chunk < 0) {
      Impl::throw_runtime_exception("Kokkos::RangePolicy::set_chunk_size: chunk size " + std::to_string(chunk) +
                                    " is negative");
    }
    m_chunk_size = chunk;
    return *this;
  }

 private:
  // Kokkos 4.6's bound checks.  A bound whose value the index type does not hold (a narrowing
  // or sign-changing conversion, or a class type whose round trip changes it) is an error:
  // Kokkos::abort, or, with deprecated code 4 (the default), the converted value with a warning
  // under deprecation warnings.  Bounds reversed after conversion give the same choice between
  // abort and an empty range [0, 0) with a warning.
  template <class IB, class IE>
  void set_bounds(const IB& begin, const IE& end) {
    check_conversion_safety(begin);
    check_conversion_safety(end);
    m_begin = static_cast<member_type>(begin);
    m_end = static_cast<member_type>(end);
    if (m_begin > m_end) {
      const std::string msg = "Kokkos::RangePolicy bounds error: The lower bound (" + std::to_string(m_begin) +
                              ") is greater than the upper bound (" + std::to_string(m_end) + ").";
      report_bound_error(msg);
      m_begin = m_end = 0;
    }
  }
  template <class I>
  static void check_conversion_safety(const I& bound) {
    if constexpr (std::is_convertible_v<member_type, I>) {
      bool unsafe;
      if constexpr (std::is_integral_v<I>) {
        unsafe = !std::in_range<member_type>(bound);
      } else {
        unsafe = static_cast<I>(static_cast<member_type>(bound)) != bound;
      }
      // The message is formatted only for a bound that fails: every launch builds a policy.
      if (unsafe) {
        std::string text;
        if constexpr (std::is_integral_v<I>) {
          text = std::to_string(bound);
        } else {
          text = std::to_string(static_cast<member_type>(bound));
        }
        report_bound_error(
            "Kokkos::RangePolicy bound type error: an unsafe implicit conversion is performed on a bound (" + text +
            "), which may not preserve its original value.");
      }
    }
  }
  static void report_bound_error([[maybe_unused]] const std::string& msg) {
#if !defined(KOKKOS_ENABLE_DEPRECATED_CODE_4)
    Kokkos::abort((msg + "\n").c_str());
#elif defined(KOKKOS_ENABLE_DEPRECATION_WARNINGS)
    Impl::log_warning(msg);
#endif
  }

  execution_space m_space{};
  member_type m_begin = 0;
  member_type m_end = 0;
  int m_chunk_size = 0;
};

// CTAD as in Kokkos 4.6: RangePolicy(0, n) and RangePolicy(DefaultExecutionSpace(), 0, n) are
// RangePolicy<>; RangePolicy(other_space, 0, n) is RangePolicy<OtherSpace>.
RangePolicy() -> RangePolicy<>;
template <class I1, class I2, class = std::enable_if_t<std::is_integral_v<I1> && std::is_integral_v<I2>>>
RangePolicy(I1, I2) -> RangePolicy<>;
template <class I1, class I2, class = std::enable_if_t<std::is_integral_v<I1> && std::is_integral_v<I2>>>
RangePolicy(I1, I2, ChunkSize) -> RangePolicy<>;
template <class I1, class I2, class = std::enable_if_t<std::is_integral_v<I1> && std::is_integral_v<I2>>>
RangePolicy(const DefaultExecutionSpace&, I1, I2) -> RangePolicy<>;
template <class I1, class I2, class = std::enable_if_t<std::is_integral_v<I1> && std::is_integral_v<I2>>>
RangePolicy(const DefaultExecutionSpace&, I1, I2, ChunkSize) -> RangePolicy<>;
template <class E, class I1, class I2,
          class = std::enable_if_t<is_execution_space_v<E> && !std::is_same_v<E, DefaultExecutionSpace> &&
                                   std::is_integral_v<I1> && std::is_integral_v<I2>>>
RangePolicy(E, I1, I2) -> RangePolicy<E>;
template <class E, class I1, class I2,
          class = std::enable_if_t<is_execution_space_v<E> && !std::is_same_v<E, DefaultExecutionSpace> &&
                                   std::is_integral_v<I1> && std::is_integral_v<I2>>>
RangePolicy(E, I1, I2, ChunkSize) -> RangePolicy<E>;

template <class T>
struct is_range_policy : std::false_type {};
template <class... P>
struct is_range_policy<RangePolicy<P...>> : std::true_type {};

template <class T, class = void>
struct is_execution_policy : std::false_type {};
template <class T>
struct is_execution_policy<T, std::void_t<typename T::execution_policy>>
    : std::is_same<std::remove_cv_t<T>, typename T::execution_policy> {};
template <class T>
inline constexpr bool is_execution_policy_v = is_execution_policy<T>::value;

namespace Impl {
// `policy` launched on the instance `space` instead of its own: the same bounds, chunk size,
// schedule, work tag and properties (a Graph submitted on an instance runs its nodes there).
// A policy that can change its instance provides impl_set_space; a WorkGraphPolicy, whose
// schedule is planned for its own instance's workers, does not: it keeps its instance.
template <class Policy>
  requires is_execution_policy_v<Policy>
Policy policy_on_space(Policy policy, const typename Policy::execution_space& space) {
  if constexpr (requires { policy.impl_set_space(space); }) policy.impl_set_space(space);
  return policy;
}
}  // namespace Impl

}  // namespace Kokkos

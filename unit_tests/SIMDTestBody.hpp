#pragma once
// The SIMD checks, written once for any (element type, ABI): every operation is compared lane
// by lane with the same expression on scalars.  TestSIMD.cpp instantiates them for the scalar
// and native ABIs; TestSIMD_AVX2.cpp, compiled with -mavx2 -mfma, for the AVX2 ABI.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>
#include <Kokkos_SIMD.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

namespace Kokkos::Test::SIMD {

namespace KE = Kokkos::Experimental;

// Sixteen values without zeros, ties or NaNs; integer types get them scaled to whole numbers.
template <class T>
T sample(std::size_t k) {
  constexpr double values[16] = {3.25, -1.5, 7.0, 0.5, -4.75, 2.0, 9.5, -0.25, 5.5, 1.0, -6.0, 8.25, 0.75, -2.5, 4.0, 6.5};
  const double v = values[k % 16];
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(v * 4);
  } else {
    return static_cast<T>(std::abs(v * 4));
  }
}

template <class Simd, class Reference>
void expect_lanes(Simd const& v, Reference reference, char const* what) {
  for (std::size_t i = 0; i < Simd::size(); ++i) {
    EXPECT_EQ(v[i], reference(i)) << what << ", lane " << i;
  }
}

template <class T, class Abi>
struct Operands {
  using simd_type = KE::basic_simd<T, Abi>;
  using mask_type = KE::basic_simd_mask<T, Abi>;
  simd_type a{[](std::size_t i) { return sample<T>(i + 2); }};
  simd_type b{[](std::size_t i) { return sample<T>(3 * i + 5); }};
  T la(std::size_t i) const { return sample<T>(i + 2); }
  T lb(std::size_t i) const { return sample<T>(3 * i + 5); }
};

template <class T, class Abi>
void check_construction_and_memory() {
  using simd_type = KE::basic_simd<T, Abi>;
  constexpr std::size_t width = simd_type::size();
  static_assert(std::is_same_v<typename simd_type::value_type, T>);
  static_assert(std::is_same_v<typename simd_type::mask_type, KE::basic_simd_mask<T, Abi>>);
  expect_lanes(simd_type(T(3)), [](std::size_t) { return T(3); }, "broadcast");
  expect_lanes(simd_type([](auto i) { return T(2 * i + 1); }), [](std::size_t i) { return T(2 * i + 1); }, "generator");
  // A generator may use the lane index as a constant expression.
  simd_type constant_index([](auto i) {
    constexpr std::size_t lane = decltype(i)::value;
    return T(lane);
  });
  expect_lanes(constant_index, [](std::size_t i) { return T(i); }, "constexpr generator");

  alignas(64) T source[2 * width];
  for (std::size_t i = 0; i < 2 * width; ++i) source[i] = sample<T>(i);
  simd_type v;
  v.copy_from(source + 1, KE::simd_flag_default);
  expect_lanes(v, [&](std::size_t i) { return source[i + 1]; }, "copy_from element aligned");
  v.copy_from(source, KE::simd_flag_aligned);
  expect_lanes(v, [&](std::size_t i) { return source[i]; }, "copy_from vector aligned");
  expect_lanes(simd_type(source + 1, KE::element_aligned_tag()), [&](std::size_t i) { return source[i + 1]; },
               "pointer constructor");
  alignas(64) T target[2 * width] = {};
  v.copy_to(target, KE::vector_aligned_tag());
  v.copy_to(target + width, KE::element_aligned_tag());
  for (std::size_t i = 0; i < width; ++i) {
    EXPECT_EQ(target[i], source[i]);
    EXPECT_EQ(target[width + i], source[i]);
  }
}

template <class T, class Abi>
void check_arithmetic() {
  Operands<T, Abi> o;
  auto const& a = o.a;
  auto const& b = o.b;
  expect_lanes(a + b, [&](std::size_t i) { return T(o.la(i) + o.lb(i)); }, "a + b");
  expect_lanes(a - b, [&](std::size_t i) { return T(o.la(i) - o.lb(i)); }, "a - b");
  expect_lanes(a * b, [&](std::size_t i) { return T(o.la(i) * o.lb(i)); }, "a * b");
  expect_lanes(a / b, [&](std::size_t i) { return T(o.la(i) / o.lb(i)); }, "a / b");
  expect_lanes(-a, [&](std::size_t i) { return T(-o.la(i)); }, "-a");
  expect_lanes(a + 1, [&](std::size_t i) { return T(o.la(i) + 1); }, "a + 1");
  expect_lanes(T(2) * a, [&](std::size_t i) { return T(2 * o.la(i)); }, "2 * a");
  expect_lanes(T(100) - a, [&](std::size_t i) { return T(T(100) - o.la(i)); }, "100 - a");
  auto c = a;
  c += b;
  c *= T(3);
  c -= a;
  c /= b;
  expect_lanes(c, [&](std::size_t i) { return T(T(T(T(o.la(i) + o.lb(i)) * T(3)) - o.la(i)) / o.lb(i)); },
               "compound assignment");
  static_assert(std::is_same_v<decltype(a * 2.0), KE::basic_simd<double, Abi>>,
                "simd OP scalar follows the usual arithmetic conversions");
}

template <class T, class Abi>
void check_comparisons_and_masks() {
  using mask_type = KE::basic_simd_mask<T, Abi>;
  constexpr std::size_t width = mask_type::size();
  Operands<T, Abi> o;
  auto const& a = o.a;
  auto const& b = o.b;
  expect_lanes(a == b, [&](std::size_t i) { return o.la(i) == o.lb(i); }, "==");
  expect_lanes(a == a, [](std::size_t) { return true; }, "a == a");
  expect_lanes(a != b, [&](std::size_t i) { return o.la(i) != o.lb(i); }, "!=");
  expect_lanes(a < b, [&](std::size_t i) { return o.la(i) < o.lb(i); }, "<");
  expect_lanes(a <= b, [&](std::size_t i) { return o.la(i) <= o.lb(i); }, "<=");
  expect_lanes(a > b, [&](std::size_t i) { return o.la(i) > o.lb(i); }, ">");
  expect_lanes(a >= b, [&](std::size_t i) { return o.la(i) >= o.lb(i); }, ">=");

  mask_type even([](std::size_t i) { return i % 2 == 0; });
  mask_type low([](std::size_t i) { return i < 2; });
  expect_lanes(even && low, [](std::size_t i) { return i % 2 == 0 && i < 2; }, "&&");
  expect_lanes(even || low, [](std::size_t i) { return i % 2 == 0 || i < 2; }, "||");
  expect_lanes(!even, [](std::size_t i) { return i % 2 != 0; }, "!");
  expect_lanes(mask_type(true), [](std::size_t) { return true; }, "mask broadcast true");
  expect_lanes(mask_type(false), [](std::size_t) { return false; }, "mask broadcast false");
  EXPECT_TRUE(even == even);
  EXPECT_FALSE(even != even);
  EXPECT_EQ(even == low, width <= 1);
  EXPECT_TRUE(KE::all_of(mask_type(true)));
  EXPECT_FALSE(KE::any_of(mask_type(false)));
  EXPECT_TRUE(KE::none_of(mask_type(false)));
  EXPECT_TRUE(KE::any_of(even));
  EXPECT_EQ(KE::all_of(even), width == 1);
  EXPECT_FALSE(KE::none_of(even));
  mask_type last([](std::size_t i) { return i + 1 == width; });
  EXPECT_TRUE(KE::any_of(last));
  EXPECT_FALSE(KE::none_of(last));
  EXPECT_EQ(KE::all_of(last), width == 1);
  // The bool overloads let generic code treat a scalar as a one-lane mask.
  EXPECT_TRUE(KE::all_of(true));
  EXPECT_TRUE(KE::none_of(false));
}

template <class T, class Abi>
void check_integer_operations() {
  using simd_type = KE::basic_simd<T, Abi>;
  Operands<T, Abi> o;
  auto const& a = o.a;
  auto const& b = o.b;
  simd_type counts([](std::size_t i) { return T(i % 4); });
  expect_lanes(a << 2, [&](std::size_t i) { return T(o.la(i) << 2); }, "a << 2");
  expect_lanes(a >> 1, [&](std::size_t i) { return T(o.la(i) >> 1); }, "a >> 1");
  expect_lanes(a << counts, [&](std::size_t i) { return T(o.la(i) << (i % 4)); }, "a << counts");
  expect_lanes(a >> counts, [&](std::size_t i) { return T(o.la(i) >> (i % 4)); }, "a >> counts");
  expect_lanes(a & b, [&](std::size_t i) { return T(o.la(i) & o.lb(i)); }, "a & b");
  expect_lanes(a | b, [&](std::size_t i) { return T(o.la(i) | o.lb(i)); }, "a | b");
  expect_lanes(a ^ b, [&](std::size_t i) { return T(o.la(i) ^ o.lb(i)); }, "a ^ b");
  expect_lanes(~a, [&](std::size_t i) { return T(~o.la(i)); }, "~a");
  auto c = a;
  c <<= 3;
  c >>= 1;
  expect_lanes(c, [&](std::size_t i) { return T(T(o.la(i) << 3) >> 1); }, "shift assignment");
}

template <class T, class Abi>
void check_where_and_condition() {
  using simd_type = KE::basic_simd<T, Abi>;
  using mask_type = KE::basic_simd_mask<T, Abi>;
  constexpr std::size_t width = simd_type::size();
  Operands<T, Abi> o;
  auto const& a = o.a;
  auto const& b = o.b;
  const mask_type m = a < b;
  auto ref_m = [&](std::size_t i) { return o.la(i) < o.lb(i); };

  simd_type c = a;
  KE::where(m, c) = b;
  expect_lanes(c, [&](std::size_t i) { return ref_m(i) ? o.lb(i) : o.la(i); }, "where = simd");
  c = a;
  KE::where(m, c) = T(7);
  expect_lanes(c, [&](std::size_t i) { return ref_m(i) ? T(7) : o.la(i); }, "where = scalar");
  c = a;
  KE::where(m, c) += b;
  KE::where(!m, c) -= T(1);
  expect_lanes(c, [&](std::size_t i) { return ref_m(i) ? T(o.la(i) + o.lb(i)) : T(o.la(i) - 1); }, "where += / -=");
  c = a;
  KE::where(m, c) *= b;
  KE::where(!m, c) /= b;
  expect_lanes(c, [&](std::size_t i) { return ref_m(i) ? T(o.la(i) * o.lb(i)) : T(o.la(i) / o.lb(i)); },
               "where *= / /=");

  expect_lanes(KE::condition(m, a, b), [&](std::size_t i) { return ref_m(i) ? o.la(i) : o.lb(i); }, "condition");

  // Masked loads and stores touch only the selected lanes: the arrays hold exactly those lanes
  // after `first`, so AddressSanitizer reports any access to the others.
  const mask_type lower([](std::size_t i) { return i < (width + 1) / 2; });
  const std::size_t selected = (width + 1) / 2;
  std::vector<T> exact(selected);
  for (std::size_t i = 0; i < selected; ++i) exact[i] = sample<T>(i + 9);
  c = a;
  KE::where(lower, c).copy_from(exact.data(), KE::simd_flag_default);
  expect_lanes(c, [&](std::size_t i) { return i < selected ? exact[i] : o.la(i); }, "where copy_from");
  std::vector<T> out(selected, T(0));
  KE::where(lower, b).copy_to(out.data(), KE::simd_flag_default);
  for (std::size_t i = 0; i < selected; ++i) EXPECT_EQ(out[i], o.lb(i)) << "where copy_to, lane " << i;

  using index_type = KE::basic_simd<std::int32_t, Abi>;
  const index_type reversed([](std::size_t i) { return std::int32_t(2 * (width - 1 - i)); });
  std::vector<T> table(2 * width);
  for (std::size_t i = 0; i < table.size(); ++i) table[i] = sample<T>(i + 4);
  c = a;
  KE::where(m, c).gather_from(table.data(), reversed);
  expect_lanes(c, [&](std::size_t i) { return ref_m(i) ? table[2 * (width - 1 - i)] : o.la(i); }, "gather_from");
  std::vector<T> scattered(2 * width, T(0));
  KE::where(m, b).scatter_to(scattered.data(), reversed);
  for (std::size_t i = 0; i < width; ++i) {
    EXPECT_EQ(scattered[2 * (width - 1 - i)], ref_m(i) ? o.lb(i) : T(0)) << "scatter_to, lane " << i;
  }

  T scalar = T(1);
  KE::where(true, scalar) = T(5);
  KE::where(false, scalar) = T(9);
  EXPECT_EQ(scalar, T(5));
}

template <class T, class Abi>
void check_reductions() {
  using mask_type = KE::basic_simd_mask<T, Abi>;
  constexpr std::size_t width = mask_type::size();
  Operands<T, Abi> o;
  auto const& a = o.a;
  const mask_type m = a > o.b;
  T sum = T(0), product = T(1), masked_sum = T(0);
  T low = o.la(0), high = o.la(0);
  T masked_low = Kokkos::reduction_identity<T>::min(), masked_high = Kokkos::reduction_identity<T>::max();
  for (std::size_t i = 0; i < width; ++i) {
    sum = T(sum + o.la(i));
    product = T(product * o.la(i));
    low = std::min(low, o.la(i));
    high = std::max(high, o.la(i));
    if (m[i]) {
      masked_sum = T(masked_sum + o.la(i));
      masked_low = std::min(masked_low, o.la(i));
      masked_high = std::max(masked_high, o.la(i));
    }
  }
  EXPECT_EQ(KE::reduce(a), sum);
  EXPECT_EQ(KE::reduce(a, std::plus<>()), sum);
  EXPECT_EQ(KE::reduce(a, std::multiplies<>()), product);
  EXPECT_EQ(KE::reduce_min(a), low);
  EXPECT_EQ(KE::reduce_max(a), high);
  EXPECT_EQ(KE::reduce(a, m), masked_sum);
  EXPECT_EQ(KE::reduce(a, m, std::plus<>(), T(0)), masked_sum);
  EXPECT_EQ(KE::reduce_min(a, m), masked_low);
  EXPECT_EQ(KE::reduce_max(a, m), masked_high);
  EXPECT_EQ(KE::reduce(KE::where(m, a), T(0), std::plus<>()), masked_sum);
  EXPECT_EQ(KE::hmin(KE::where(m, a)), masked_low);
  EXPECT_EQ(KE::hmax(KE::where(m, a)), masked_high);
  // An empty mask reduces to the identity.
  const mask_type none(false);
  EXPECT_EQ(KE::reduce(a, none), T(0));
  EXPECT_EQ(KE::reduce(a, none, std::multiplies<>()), T(1));
  EXPECT_EQ(KE::reduce(a, none, std::plus<>(), T(42)), T(42));
  EXPECT_EQ(KE::reduce_min(a, none), Kokkos::reduction_identity<T>::min());
  EXPECT_EQ(KE::reduce_max(a, none), Kokkos::reduction_identity<T>::max());
}

template <class T, class Abi>
void check_math() {
  Operands<T, Abi> o;
  auto const& a = o.a;
  auto const& b = o.b;
  expect_lanes(Kokkos::min(a, b), [&](std::size_t i) { return std::min(o.la(i), o.lb(i)); }, "min");
  expect_lanes(Kokkos::max(a, b), [&](std::size_t i) { return std::max(o.la(i), o.lb(i)); }, "max");
  if constexpr (std::is_signed_v<T>) {
    expect_lanes(Kokkos::abs(a), [&](std::size_t i) { return T(o.la(i) < 0 ? -o.la(i) : o.la(i)); }, "abs");
  }
  if constexpr (std::is_floating_point_v<T>) {
    auto positive = Kokkos::abs(a) + T(0.5);
    auto ref_positive = [&](std::size_t i) { return T(std::abs(o.la(i)) + T(0.5)); };
    expect_lanes(Kokkos::sqrt(positive), [&](std::size_t i) { return std::sqrt(ref_positive(i)); }, "sqrt");
    expect_lanes(Kokkos::cbrt(a), [&](std::size_t i) { return std::cbrt(o.la(i)); }, "cbrt");
    expect_lanes(Kokkos::exp(a), [&](std::size_t i) { return std::exp(o.la(i)); }, "exp");
    expect_lanes(Kokkos::log(positive), [&](std::size_t i) { return std::log(ref_positive(i)); }, "log");
    expect_lanes(Kokkos::sin(a), [&](std::size_t i) { return std::sin(o.la(i)); }, "sin");
    expect_lanes(Kokkos::pow(positive, b), [&](std::size_t i) { return std::pow(ref_positive(i), o.lb(i)); }, "pow");
    expect_lanes(Kokkos::atan2(a, b), [&](std::size_t i) { return std::atan2(o.la(i), o.lb(i)); }, "atan2");
    expect_lanes(Kokkos::hypot(a, b), [&](std::size_t i) { return std::hypot(o.la(i), o.lb(i)); }, "hypot");
    expect_lanes(Kokkos::fma(a, b, positive), [&](std::size_t i) { return std::fma(o.la(i), o.lb(i), ref_positive(i)); },
                 "fma");
    expect_lanes(Kokkos::copysign(a, b), [&](std::size_t i) { return std::copysign(o.la(i), o.lb(i)); }, "copysign");
    expect_lanes(Kokkos::floor(a), [&](std::size_t i) { return std::floor(o.la(i)); }, "floor");
    expect_lanes(Kokkos::ceil(a), [&](std::size_t i) { return std::ceil(o.la(i)); }, "ceil");
    expect_lanes(Kokkos::trunc(a), [&](std::size_t i) { return std::trunc(o.la(i)); }, "trunc");
    expect_lanes(Kokkos::round(a), [&](std::size_t i) { return std::rint(o.la(i)); }, "round");
    // Halfway cases round to even, as Kokkos' simd round does.
    using simd_type = KE::basic_simd<T, Abi>;
    simd_type halves([](std::size_t i) { return T(i % 2 == 0 ? 2.5 : -3.5); });
    expect_lanes(Kokkos::round(halves), [](std::size_t i) { return T(i % 2 == 0 ? 2.0 : -4.0); }, "round half even");
  } else {
    expect_lanes(Kokkos::floor(a), [&](std::size_t i) { return o.la(i); }, "floor of integers");
    expect_lanes(Kokkos::round(a), [&](std::size_t i) { return o.la(i); }, "round of integers");
  }
}

// y = a * x + y over n elements: full vectors, then the tail under a mask that reads and
// writes only the remaining elements.
template <class T, class Abi>
void check_tail_loop(std::size_t n) {
  using simd_type = KE::basic_simd<T, Abi>;
  using mask_type = KE::basic_simd_mask<T, Abi>;
  constexpr std::size_t width = simd_type::size();
  std::vector<T> x(n), y(n), expected(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = sample<T>(i);
    y[i] = sample<T>(i + 7);
    expected[i] = T(T(3) * x[i] + y[i]);
  }
  std::size_t i = 0;
  for (; i + width <= n; i += width) {
    simd_type xv(x.data() + i, KE::simd_flag_default);
    simd_type yv(y.data() + i, KE::simd_flag_default);
    (T(3) * xv + yv).copy_to(y.data() + i, KE::simd_flag_default);
  }
  if (i < n) {
    const std::size_t rest = n - i;
    const mask_type tail([=](std::size_t lane) { return lane < rest; });
    simd_type xv(T(0)), yv(T(0));
    KE::where(tail, xv).copy_from(x.data() + i, KE::simd_flag_default);
    KE::where(tail, yv).copy_from(y.data() + i, KE::simd_flag_default);
    KE::where(tail, T(3) * xv + yv).copy_to(y.data() + i, KE::simd_flag_default);
  }
  for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(y[k], expected[k]) << "n = " << n << ", element " << k;
}

template <class T, class Abi>
void check_all() {
  check_construction_and_memory<T, Abi>();
  check_arithmetic<T, Abi>();
  check_comparisons_and_masks<T, Abi>();
  if constexpr (std::is_integral_v<T>) check_integer_operations<T, Abi>();
  check_where_and_condition<T, Abi>();
  check_reductions<T, Abi>();
  check_math<T, Abi>();
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(37), std::size_t(64)}) check_tail_loop<T, Abi>(n);
}

template <class Abi>
void check_every_element_type() {
  {
    SCOPED_TRACE("double");
    check_all<double, Abi>();
  }
  {
    SCOPED_TRACE("float");
    check_all<float, Abi>();
  }
  {
    SCOPED_TRACE("std::int32_t");
    check_all<std::int32_t, Abi>();
  }
  {
    SCOPED_TRACE("std::uint32_t");
    check_all<std::uint32_t, Abi>();
  }
  {
    SCOPED_TRACE("std::int64_t");
    check_all<std::int64_t, Abi>();
  }
  {
    SCOPED_TRACE("std::uint64_t");
    check_all<std::uint64_t, Abi>();
  }
}

// A SIMD kernel inside parallel_for: each index handles one vector of a View, the last one
// under a mask; the result is checked element by element.
template <class ExecSpace, class T, class Abi>
void check_parallel_for_kernel(std::size_t n) {
  using simd_type = KE::basic_simd<T, Abi>;
  using mask_type = KE::basic_simd_mask<T, Abi>;
  constexpr std::size_t width = simd_type::size();
  Kokkos::View<T*, typename ExecSpace::memory_space> x("x", n), y("y", n);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(std::size_t i) {
        x(i) = T(i % 17);
        y(i) = T(1);
      });
  const std::size_t vectors = (n + width - 1) / width;
  Kokkos::parallel_for(
      "simd axpy", Kokkos::RangePolicy<ExecSpace>(0, vectors), KOKKOS_LAMBDA(std::size_t v) {
        const std::size_t first = v * width;
        const std::size_t rest = n - first;
        const mask_type active([=](std::size_t lane) { return lane < rest; });
        simd_type xv(T(0)), yv(T(0));
        KE::where(active, xv).copy_from(x.data() + first, KE::simd_flag_default);
        KE::where(active, yv).copy_from(y.data() + first, KE::simd_flag_default);
        KE::where(active, Kokkos::fma(simd_type(T(2)), xv, yv)).copy_to(y.data() + first, KE::simd_flag_default);
      });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(host(i), T(2 * T(i % 17) + 1)) << "element " << i;
}

}  // namespace Kokkos::Test::SIMD

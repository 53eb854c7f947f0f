// Kokkos::Array: aggregate initialisation, deduction, to_array, the tuple interface, comparisons,
// kokkos_swap, range-for, the empty array, the deprecated proxy views, and arrays inside kernels.
#include "TestCommon.hpp"

#include <Kokkos_Array.hpp>

#include <string>
#include <type_traits>
#include <utility>

namespace {

TEST(Array, AggregateAndTypes) {
  using A = Kokkos::Array<int, 3>;
  static_assert(std::is_aggregate_v<A> && std::is_trivially_copyable_v<A>);
  static_assert(std::is_same_v<A::value_type, int> && std::is_same_v<A::const_pointer, const int*>);
  static_assert(A::size() == 3 && !A::empty());
  constexpr A a = {1, 2, 3};
  static_assert(a[0] == 1 && a[2] == 3 && a.max_size() == 3);
  static_assert(*a.data() == 1);
  A b{};
  EXPECT_EQ(b[1], 0);
  b[1] = 5;
  b[std::size_t(2)] = 6;
  EXPECT_EQ(b.data()[1], 5);
  enum Slot { first, second };
  EXPECT_EQ(b[second], 5);  // enum indices are allowed, as in Kokkos

  Kokkos::Array deduced{1.0, 2.0, 3.0, 4.0};
  static_assert(std::is_same_v<decltype(deduced), Kokkos::Array<double, 4>>);
  EXPECT_EQ(deduced[3], 4.0);
  int raw[] = {7, 8};
  auto converted = Kokkos::to_array(raw);
  static_assert(std::is_same_v<decltype(converted), Kokkos::Array<int, 2>>);
  EXPECT_EQ(converted[1], 8);
  constexpr auto from_temporary = Kokkos::to_array<const long>({4L, 5L, 6L});
  static_assert(std::is_same_v<decltype(from_temporary), const Kokkos::Array<long, 3>>);
  static_assert(from_temporary[2] == 6L);
  std::string words[] = {"a", "bc"};
  auto moved = Kokkos::to_array(std::move(words));
  EXPECT_EQ(moved[1], "bc");
}

TEST(Array, TupleInterfaceAndRanges) {
  Kokkos::Array<int, 3> a = {1, 2, 3};
  auto& [x, y, z] = a;
  x = 10;
  EXPECT_EQ(a[0], 10);
  const auto [cx, cy, cz] = a;
  EXPECT_EQ(cy + cz, 5);
  static_assert(std::tuple_size_v<Kokkos::Array<float, 7>> == 7);
  static_assert(std::is_same_v<std::tuple_element_t<2, Kokkos::Array<float, 7>>, float>);
  EXPECT_EQ(Kokkos::get<2>(a), 3);
  EXPECT_EQ(Kokkos::get<1>(std::as_const(a)), 2);
  static_assert(std::is_same_v<decltype(Kokkos::get<0>(std::move(a))), int&&>);
  static_assert(std::is_same_v<decltype(Kokkos::get<0>(std::move(std::as_const(a)))), const int&&>);
  int sum = 0;
  for (int v : a) sum += v;
  EXPECT_EQ(sum, 15);
  EXPECT_EQ(Kokkos::end(a) - Kokkos::begin(a), 3);
  (void)y;
  (void)z;
}

TEST(Array, ComparisonsAndSwap) {
  Kokkos::Array<int, 2> a = {1, 2}, b = {1, 2}, c = {2, 1};
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a != b);
  EXPECT_TRUE(a != c);
  kokkos_swap(a, c);  // found by argument-dependent lookup
  EXPECT_EQ(a, (Kokkos::Array<int, 2>{2, 1}));
  EXPECT_EQ(c, b);
  Kokkos::Array<std::string, 2> s = {"x", "y"}, t = {"long string, heap allocated", ""};
  kokkos_swap(s, t);
  EXPECT_EQ(s[0], "long string, heap allocated");
  EXPECT_EQ(t[1], "y");
}

TEST(Array, EmptyArray) {
  using E = Kokkos::Array<double, 0>;
  static_assert(E::size() == 0 && E::empty() && std::is_empty_v<E>);
  E e, f;
  EXPECT_EQ(e.data(), nullptr);
  EXPECT_TRUE(e == f);
  EXPECT_FALSE(e != f);
  kokkos_swap(e, f);
  EXPECT_EQ(Kokkos::begin(e), Kokkos::end(e));
  static_assert(std::tuple_size_v<E> == 0);
  EXPECT_DEATH(e[0], "Kokkos::Array");
}

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
TEST(Array, DeprecatedProxyViews) {
  double storage[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  using Contiguous = Kokkos::Array<double, KOKKOS_INVALID_INDEX, Kokkos::Array<>::contiguous>;
  using Strided = Kokkos::Array<double, KOKKOS_INVALID_INDEX, Kokkos::Array<>::strided>;
  static_assert(!std::is_copy_constructible_v<Contiguous> && !std::is_default_constructible_v<Strided>);
  Contiguous head(storage, 3);
  EXPECT_EQ(head.size(), 3u);
  EXPECT_FALSE(head.empty());
  EXPECT_EQ(head[2], 2.0);
  EXPECT_EQ(head.data(), storage);
  Strided evens(storage, 4, 2);
  EXPECT_EQ(evens.size(), 4u);
  EXPECT_EQ(evens[3], 6.0);
  // Assignment copies min(size) elements through the view and leaves the view in place.
  const Kokkos::Array<double, 5> values = {-1, -2, -3, -4, -5};
  head = values;
  EXPECT_EQ(storage[0], -1.0);
  EXPECT_EQ(storage[2], -3.0);
  EXPECT_EQ(storage[3], 3.0);
  double other[3] = {9, 8, 7};
  const Contiguous source(other, 3);
  evens = source;  // from another proxy: 3 elements into positions 0, 2, 4
  EXPECT_EQ(storage[0], 9.0);
  EXPECT_EQ(storage[1], -2.0);
  EXPECT_EQ(storage[4], 7.0);
  EXPECT_EQ(storage[6], 6.0);
  const Contiguous empty_view(storage, 0);
  EXPECT_TRUE(empty_view.empty());
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
TEST(Array, BoundsCheckAborts) {
  Kokkos::Array<int, 2> a = {1, 2};
  volatile int i = 2;
  EXPECT_DEATH(a[i], "index out of bounds");
}
#endif

template <class Space>
struct ArrayKernels : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(ArrayKernels, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// An Array as a reduction value: three sums in one pass.
struct ThreeSums {
  using value_type = Kokkos::Array<long, 3>;
  KOKKOS_INLINE_FUNCTION void operator()(int i, value_type& acc) const {
    auto& [count, total, squares] = acc;
    count += 1;
    total += i;
    squares += long(i) * i;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    for (std::size_t k = 0; k < dst.size(); ++k) dst[k] += src[k];
  }
};

TYPED_TEST(ArrayKernels, AsReductionValueAndInKernels) {
  using Space = TypeParam;
  const int n = 1000;
  Kokkos::Array<long, 3> sums;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<Space>(0, n), ThreeSums{}, sums);
  EXPECT_EQ(sums, (Kokkos::Array<long, 3>{n, long(n) * (n - 1) / 2, long(n - 1) * n * (2 * n - 1) / 6}));

  Kokkos::View<Kokkos::Array<int, 2>*, typename Space::memory_space> v("v", n);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
        Kokkos::Array<int, 2> a = {i, -i};
        Kokkos::Array<int, 2> b = Kokkos::to_array({0, 0});
        kokkos_swap(a, b);
        v(i) = b;
      });
  Kokkos::fence();
  for (int i = 0; i < n; ++i) ASSERT_EQ(v(i), (Kokkos::Array<int, 2>{i, -i}));
}

}  // namespace

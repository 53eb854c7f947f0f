// Kokkos 4.6 View constructors, member functions, type aliases and assignment rules, as
// ordinary Kokkos code uses them: unmanaged Views of user buffers (pointer taken by value),
// view_alloc / view_wrap properties, layout objects, required_allocation_size / shmem_size,
// scratch Views, conversions between layouts and extents, mirrors.
#include "TestCommon.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using Host = Kokkos::HostSpace;

// ---------------------------------------------------------------------------------------------
// Type aliases
using V2 = Kokkos::View<double**[3], Kokkos::LayoutLeft, Host>;
static_assert(std::is_same_v<V2::data_type, double**[3]>);
static_assert(std::is_same_v<V2::const_data_type, const double**[3]>);
static_assert(std::is_same_v<V2::non_const_data_type, double**[3]>);
static_assert(std::is_same_v<V2::scalar_array_type, double**[3]>);
static_assert(std::is_same_v<V2::value_type, double>);
static_assert(std::is_same_v<V2::const_value_type, const double>);
static_assert(std::is_same_v<V2::non_const_value_type, double>);
static_assert(std::is_same_v<V2::array_layout, Kokkos::LayoutLeft>);
static_assert(std::is_same_v<V2::memory_space, Host>);
static_assert(std::is_same_v<V2::execution_space, Kokkos::DefaultHostExecutionSpace>);
static_assert(std::is_same_v<V2::device_type, Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Host>>);
static_assert(std::is_same_v<V2::memory_traits, Kokkos::MemoryManaged>);
static_assert(std::is_same_v<V2::pointer_type, double*>);
static_assert(std::is_same_v<V2::reference_type, double&>);
static_assert(std::is_same_v<V2::traits, Kokkos::ViewTraits<double**[3], Kokkos::LayoutLeft, Host>>);
static_assert(std::is_same_v<V2::const_type::data_type, const double**[3]>);
static_assert(std::is_same_v<V2::non_const_type::data_type, double**[3]>);
static_assert(std::is_same_v<V2::HostMirror, V2::host_mirror_type>);
static_assert(std::is_same_v<V2::HostMirror::array_layout, Kokkos::LayoutLeft>);
static_assert(std::is_same_v<V2::uniform_type::data_type, double**[3]>);
static_assert(std::is_same_v<V2::uniform_const_type::data_type, const double**[3]>);
static_assert(std::is_same_v<V2::uniform_runtime_type::data_type, double***>);
static_assert(std::is_same_v<V2::uniform_runtime_const_type::data_type, const double***>);
static_assert(std::is_void_v<V2::specialize>);
// rank and rank_dynamic: constants, callable, usable as template arguments
static_assert(V2::rank == 3 && V2::rank() == 3 && V2::rank_dynamic == 2 && V2::rank_dynamic() == 2);
static_assert(std::is_same_v<std::array<int, V2::rank>, std::array<int, 3>>);
static_assert(V2::static_extent(0) == 0 && V2::static_extent(2) == 3);
static_assert(Kokkos::is_view<V2>::value && Kokkos::is_view_v<const V2> && !Kokkos::is_view_v<double*>);
// the no-alias access handle of Restrict and of const RandomAccess Views
static_assert(!std::is_same_v<Kokkos::View<const double*, Kokkos::MemoryTraits<Kokkos::RandomAccess>>::handle_type,
                              const double*>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::MemoryTraits<Kokkos::RandomAccess>>::handle_type, double*>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::HostSpace>::handle_type, double*>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::MemoryTraits<Kokkos::Restrict>>::pointer_type, double*>);

// ---------------------------------------------------------------------------------------------
// Unmanaged Views of user memory: the pointer is taken by value, so arrays, char pointers
// (which are also labels) and nullptr convert.
TEST(ViewConstructors, UnmanagedFromPointerAndArray) {
  std::vector<char> bytes(16, 'a');
  char* ptr = bytes.data();
  Kokkos::View<char*, Kokkos::LayoutRight, Host> chars(ptr, 16);
  EXPECT_EQ(chars.data(), ptr);
  EXPECT_EQ(chars.extent(0), 16u);
  EXPECT_EQ(chars.use_count(), 0);
  EXPECT_EQ(chars.label(), "");
  chars(3) = 'z';
  EXPECT_EQ(bytes[3], 'z');
  const char* cptr = bytes.data();
  Kokkos::View<const char*, Host, Kokkos::MemoryUnmanaged> cchars(cptr, 16);
  EXPECT_EQ(cchars(3), 'z');

  double buf[10] = {};
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> v(buf, 10);
  EXPECT_EQ(v.data(), buf);
  v(9) = 4.5;
  EXPECT_EQ(buf[9], 4.5);
  Kokkos::View<double[10], Host, Kokkos::MemoryUnmanaged> fixed(buf);
  EXPECT_EQ(fixed.extent(0), 10u);
  EXPECT_EQ(fixed(9), 4.5);
  Kokkos::View<double*, Host> wrapped(Kokkos::view_wrap(buf), 10);
  EXPECT_EQ(wrapped.data(), buf);
  EXPECT_EQ(wrapped.use_count(), 0);
  Kokkos::View<double*, Host> null_view(nullptr, 0);
  EXPECT_FALSE(null_view.is_allocated());
}

TEST(ViewConstructors, UnmanagedWithLayoutObjects) {
  double buf[12];
  for (int i = 0; i < 12; ++i) buf[i] = i;
  Kokkos::View<double**, Kokkos::LayoutLeft, Host> left(buf, Kokkos::LayoutLeft(3, 4));
  EXPECT_EQ(left(2, 1), 5.0);  // 2 + 1 * 3
  Kokkos::View<double**, Kokkos::LayoutRight, Host> right(buf, Kokkos::LayoutRight(3, 4));
  EXPECT_EQ(right(2, 1), 9.0);  // 2 * 4 + 1
  Kokkos::View<double**, Kokkos::LayoutStride, Host> strided(buf, Kokkos::LayoutStride(2, 6, 3, 2));
  EXPECT_EQ(strided(1, 2), 10.0);  // 1 * 6 + 2 * 2
  EXPECT_EQ(strided.stride(0), 6u);
  EXPECT_EQ(strided.stride(1), 2u);
  EXPECT_FALSE(strided.span_is_contiguous());
  EXPECT_EQ(strided.span(), 11u);
  Kokkos::View<double**, Kokkos::LayoutLeft, Host> wrapped(Kokkos::view_wrap(buf), Kokkos::LayoutLeft(4, 3));
  EXPECT_EQ(wrapped(3, 2), 11.0);
}

// ---------------------------------------------------------------------------------------------
// Managed Views: labels, view_alloc properties, layout objects
TEST(ViewConstructors, ManagedForms) {
  const std::string label = "from_string";
  Kokkos::View<double*[3], Host> a(label, 5);
  EXPECT_EQ(a.label(), label);
  EXPECT_EQ(a.extent(0), 5u);
  EXPECT_EQ(a.extent(1), 3u);
  Kokkos::View<double*[3], Host> all_extents("all_extents", 5, 3);
  EXPECT_EQ(all_extents.size(), 15u);
  EXPECT_EQ(a(4, 2), 0.0);  // value-initialised

  Kokkos::View<double**, Kokkos::LayoutLeft, Host> left("left", Kokkos::LayoutLeft(3, 4));
  EXPECT_EQ(left.extent(0), 3u);
  EXPECT_EQ(left.stride(1), 3u);
  Kokkos::View<int**, Kokkos::LayoutStride, Host> strided("strided", Kokkos::LayoutStride(3, 1, 4, 3));
  EXPECT_EQ(strided.stride(1), 3u);
  EXPECT_EQ(strided.span(), 12u);

  Kokkos::View<int**, Host> noinit(Kokkos::view_alloc("noinit", Kokkos::WithoutInitializing), 3, 4);
  EXPECT_EQ(noinit.label(), "noinit");
  Kokkos::View<int**, Host> padded(Kokkos::view_alloc(std::string("padded"), Kokkos::AllowPadding), 3, 4);
  EXPECT_GE(padded.span(), padded.size());
  Kokkos::View<int**, Host> spaced(Kokkos::view_alloc(Host(), Kokkos::DefaultHostExecutionSpace(), "spaced"), 3, 4);
  EXPECT_EQ(spaced.label(), "spaced");
  EXPECT_EQ(spaced(2, 3), 0);
  Kokkos::View<int**, Kokkos::LayoutLeft, Host> prop_layout(Kokkos::view_alloc("prop_layout"),
                                                            Kokkos::LayoutLeft(2, 5));
  EXPECT_EQ(prop_layout.extent(1), 5u);
  // char data: a string literal is still a label, a char pointer is still memory to wrap
  Kokkos::View<char*, Host> text("text", 8);
  EXPECT_EQ(text.label(), "text");
  EXPECT_EQ(text.use_count(), 1);
  EXPECT_EQ(text(7), '\0');
  Kokkos::View<int, Host> scalar("scalar");
  scalar() = 7;
  EXPECT_EQ(scalar(), 7);
  EXPECT_EQ(scalar.size(), 1u);
}

TEST(ViewConstructors, AllocationSizes) {
  using V = Kokkos::View<double**, Host>;
  EXPECT_EQ(V::required_allocation_size(3, 4), 96u);
  EXPECT_EQ(V::required_allocation_size(Kokkos::LayoutRight(3, 4)), 96u);
  EXPECT_EQ((Kokkos::View<float*[4], Host>::required_allocation_size(5)), 80u);
  EXPECT_GE(V::shmem_size(3, 4), 96u);
  EXPECT_GE(V::shmem_size(Kokkos::LayoutRight(3, 4)), 96u);
}

// ---------------------------------------------------------------------------------------------
// Member functions
TEST(ViewConstructors, MemberFunctions) {
  Kokkos::View<int**[2], Host> v("members", 3, 4);
  EXPECT_EQ(v.rank(), 3u);
  EXPECT_EQ(v.rank_dynamic(), 2u);
  EXPECT_EQ(v.extent(1), 4u);
  EXPECT_EQ(v.extent_int(2), 2);
  EXPECT_EQ(v.static_extent(2), 2u);
  EXPECT_EQ(v.size(), 24u);
  EXPECT_EQ(v.span(), 24u);
  EXPECT_TRUE(v.span_is_contiguous());
  EXPECT_EQ(v.stride_0(), 8u);
  EXPECT_EQ(v.stride_1(), 2u);
  EXPECT_EQ(v.stride_2(), 1u);
  EXPECT_EQ(v.stride(0), 8u);
  std::size_t s[4];
  v.stride(s);
  EXPECT_EQ(s[0], 8u);
  EXPECT_EQ(s[2], 1u);
  EXPECT_EQ(s[3], 24u);
  int si[4];
  v.stride(si);
  EXPECT_EQ(si[1], 2);
  EXPECT_TRUE(v.is_allocated());
  EXPECT_EQ(v.use_count(), 1);
  EXPECT_EQ(v.label(), "members");
  v.access(2, 3, 1) = 11;
  EXPECT_EQ(v(2, 3, 1), 11);
  EXPECT_EQ(v.access(2, 3, 1, 0, 0, 0, 0, 0), 11);
  EXPECT_EQ(v.data()[2 * 8 + 3 * 2 + 1], 11);
  EXPECT_EQ(v.impl_map().extent(1), 4u);
  EXPECT_EQ(Kokkos::rank(v), 3u);
}

// ---------------------------------------------------------------------------------------------
// Assignment and conversion rules
TEST(ViewConstructors, Conversions) {
  Kokkos::View<double**, Host> a("a", 3, 4);
  a(1, 2) = 3.0;
  Kokkos::View<const double**, Host> c = a;  // non-const to const
  EXPECT_EQ(c(1, 2), 3.0);
  EXPECT_EQ(a.use_count(), 2);
  Kokkos::View<double*[4], Host> fixed = a;  // dynamic to static, checked at run time
  EXPECT_EQ(fixed(1, 2), 3.0);
  Kokkos::View<double**, Host> back = fixed;  // static to dynamic
  EXPECT_EQ(back.extent(1), 4u);
  Kokkos::View<double**, Kokkos::LayoutStride, Host> strided = a;  // to LayoutStride
  EXPECT_EQ(strided.stride(0), 4u);
  Kokkos::View<double**, Host> from_strided = strided;  // and back: the strides fit
  EXPECT_EQ(from_strided(1, 2), 3.0);
  Kokkos::View<double*, Host> row = Kokkos::subview(a, 1, Kokkos::ALL);
  Kokkos::View<double*, Kokkos::LayoutLeft, Host> row_left = row;  // rank 1: Left <-> Right
  EXPECT_EQ(row_left(2), 3.0);
  Kokkos::View<double, Kokkos::LayoutLeft, Host> s0("s0");
  Kokkos::View<double, Kokkos::LayoutRight, Host> s0_right = s0;  // rank 0
  EXPECT_EQ(s0_right.data(), s0.data());
  Kokkos::View<const double*, Host, Kokkos::MemoryTraits<Kokkos::RandomAccess>> random = row;
  Kokkos::View<double*, Host, Kokkos::MemoryTraits<Kokkos::Restrict>> restricted = row;
  Kokkos::View<double*, Host, Kokkos::MemoryUnmanaged> unmanaged = row;
  EXPECT_EQ(random(2), 3.0);
  EXPECT_EQ(restricted(2), 3.0);
  EXPECT_EQ(unmanaged(2), 3.0);
  const int counted = a.use_count();
  Kokkos::View<double*, Host> managed_from_unmanaged = unmanaged;  // shares, does not count
  EXPECT_EQ(a.use_count(), counted);
  EXPECT_EQ(managed_from_unmanaged(2), 3.0);
  // subview as a constructor
  Kokkos::View<double*, Kokkos::LayoutStride, Host> column(a, Kokkos::ALL, 2);
  EXPECT_EQ(column(1), 3.0);
}

TEST(ViewConstructors, IsAssignable) {
  Kokkos::View<int**, Host> a("a", 3, 4);
  EXPECT_TRUE(Kokkos::is_assignable(Kokkos::View<const int**, Host>(), a));
  EXPECT_TRUE((Kokkos::is_assignable(Kokkos::View<int*[4], Host>(), a)));
  EXPECT_FALSE((Kokkos::is_assignable(Kokkos::View<int*[3], Host>(), a)));  // run-time extent
  EXPECT_FALSE(Kokkos::is_assignable(a, Kokkos::View<const int**, Host>(a)));  // const to non-const
  EXPECT_FALSE(Kokkos::is_assignable(a, Kokkos::View<double**, Host>()));  // value type
  EXPECT_FALSE((Kokkos::is_assignable(Kokkos::View<int**, Kokkos::LayoutLeft, Host>(), a)));  // rank 2 layouts
  // columns 1-2 of every row: unit inner stride, row stride 4, a padded LayoutRight
  Kokkos::View<int**, Kokkos::LayoutStride, Host> block = Kokkos::subview(a, Kokkos::ALL, Kokkos::pair(1, 3));
  EXPECT_TRUE(Kokkos::is_assignable(a, block));
  Kokkos::View<int**, Kokkos::LayoutStride, Host> every_other(a.data(), Kokkos::LayoutStride(3, 4, 2, 2));
  EXPECT_FALSE(Kokkos::is_assignable(a, every_other));
  Kokkos::View<int**, Kokkos::LayoutStride, Host> transposed(a.data(), Kokkos::LayoutStride(4, 1, 3, 4));
  EXPECT_FALSE(Kokkos::is_assignable(a, transposed));
}

TEST(ViewConstructors, AssignDataAndOlderSpellings) {
  Kokkos::View<double*, Host> v(Kokkos::ViewAllocateWithoutInitializing("old_spelling"), 4);
  EXPECT_EQ(v.label(), "old_spelling");
  EXPECT_EQ(v.extent(0), 4u);
  Kokkos::View<double*, Host> other = v;
  EXPECT_EQ(v.use_count(), 2);
  double buf[4] = {1, 2, 3, 4};
  other.assign_data(buf);  // no longer a reference to v's allocation
  EXPECT_EQ(v.use_count(), 1);
  EXPECT_EQ(other.data(), buf);
  EXPECT_EQ(other(3), 4.0);
  EXPECT_EQ(other.extent(0), 4u);
  EXPECT_EQ(other.use_count(), 0);
}

TEST(ViewConstructorsDeath, LayoutStrideToLayoutLeftRightMismatch) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  using Right2 = Kokkos::View<int**, Kokkos::LayoutRight, Host>;
  using Left2 = Kokkos::View<int**, Kokkos::LayoutLeft, Host>;
  using Left1 = Kokkos::View<int*, Kokkos::LayoutLeft, Host>;
  using Stride2 = Kokkos::View<int**, Kokkos::LayoutStride, Host>;
  Right2 a("a", 4, 6);
  Stride2 transposed(a.data(), Kokkos::LayoutStride(6, 1, 4, 6));
  EXPECT_DEATH((void)Right2(transposed),
               "View assignment must have compatible layouts: the source \"\" has extents \\(6, 4\\) and strides "
               "\\(1, 6\\), but a LayoutRight View needs stride\\(1\\) = 1, not 6");
  Left2 l("l", 4, 6);
  // a row of a LayoutLeft matrix is strided: not a LayoutLeft vector (Kokkos' own death test)
  EXPECT_DEATH((void)Left1(l, 1, Kokkos::ALL),
               "View assignment must have compatible layouts: the source \"l\" has extents \\(6\\) and strides "
               "\\(4\\), but a LayoutLeft View needs stride\\(0\\) = 1, not 4");
  Left1 column(l, Kokkos::ALL, 1);
  EXPECT_EQ(column.extent(0), 4u);
  Stride2 rows = Kokkos::subview(l, Kokkos::pair(0, 2), Kokkos::ALL);
  Left2 fits = rows;  // stride(1) = 4: a padded LayoutLeft
  EXPECT_EQ(fits.stride(1), 4u);
  Stride2 every_other(l.data(), Kokkos::LayoutStride(2, 2, 6, 4));
  EXPECT_DEATH((void)Left2(every_other), "a LayoutLeft View needs stride\\(0\\) = 1, not 2");
}

// ---------------------------------------------------------------------------------------------
// Mirrors
TEST(ViewConstructors, Mirrors) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  Kokkos::View<int**, Kokkos::LayoutLeft> d("d", 3, 2);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<>(0, 3), KOKKOS_LAMBDA(int i) {
        d(i, 0) = i;
        d(i, 1) = 10 * i;
      });
  Kokkos::fence();
  auto copy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  static_assert(std::is_same_v<decltype(copy)::array_layout, Kokkos::LayoutLeft>);
  EXPECT_EQ(copy(2, 1), 20);
  auto labelled = Kokkos::create_mirror_view_and_copy(Kokkos::view_alloc(Kokkos::HostSpace(), "labelled"), d);
  EXPECT_EQ(labelled(1, 1), 10);
  auto noinit = Kokkos::create_mirror(Kokkos::WithoutInitializing, d);
  EXPECT_NE(noinit.data(), d.data());  // create_mirror always allocates
  EXPECT_EQ(noinit.extent(0), 3u);
  Kokkos::deep_copy(noinit, d);
  EXPECT_EQ(noinit(2, 0), 2);
  auto by_prop = Kokkos::create_mirror(Kokkos::view_alloc(Kokkos::HostSpace(), Kokkos::WithoutInitializing), d);
  EXPECT_EQ(by_prop.extent(1), 2u);
  auto host_view = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, Kokkos::HostSpace(), d);
  EXPECT_EQ(host_view.extent(0), 3u);
}

// ---------------------------------------------------------------------------------------------
// Team scratch Views: View(team.team_shmem(), n), View(team.team_scratch(0), n), shmem_size
TEST(ViewConstructors, ScratchViews) {
  using Policy = Kokkos::TeamPolicy<Kokkos::DefaultHostExecutionSpace>;
  using Scratch = Kokkos::View<double*, Kokkos::DefaultHostExecutionSpace::scratch_memory_space,
                               Kokkos::MemoryUnmanaged>;
  using Scratch2 = Kokkos::View<int**, Kokkos::DefaultHostExecutionSpace::scratch_memory_space,
                                Kokkos::MemoryUnmanaged>;
  const std::size_t bytes = Scratch::shmem_size(8) + Scratch2::shmem_size(2, 3);
  int sum = 0;
  Kokkos::parallel_reduce(
      Policy(4, 1).set_scratch_size(0, Kokkos::PerTeam(bytes)),
      KOKKOS_LAMBDA(const Policy::member_type& team, int& acc) {
        Scratch a(team.team_shmem(), 8);
        Scratch2 b(team.team_scratch(0), 2, 3);
        a(7) = 2.0;
        b(1, 2) = 3;
        acc += int(a(7)) + b(1, 2) + int(a.size() + b.size());
      },
      sum);
  EXPECT_EQ(sum, 4 * (2 + 3 + 8 + 6));
}

// ---------------------------------------------------------------------------------------------
// Elements without a default constructor: allocated WithoutInitializing (the caller constructs
// them in place), unmanaged over a buffer, resized and reallocated WithoutInitializing, and
// mirrored.  The value-initialising forms (View(label, n), resize(v, n), create_mirror(v)) do
// not compile, as in Kokkos.
struct Tagged {
  int id;
  double weight;
  KOKKOS_INLINE_FUNCTION Tagged(int i, double w) : id(i), weight(w) {}
};
static_assert(!std::is_default_constructible_v<Tagged>);

TEST(ViewConstructors, ElementsWithoutDefaultConstructor) {
  using V = Kokkos::View<Tagged*, Host>;
  V a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tagged"), 10);
  EXPECT_EQ(a.extent(0), 10u);
  EXPECT_EQ(a.label(), "tagged");
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 10),
                       KOKKOS_LAMBDA(int i) { new (&a(i)) Tagged(i, 0.5 * i); });
  Kokkos::fence();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(a(i).id, i);

  // resize keeps the leading elements; the new ones are the caller's to construct.
  Kokkos::resize(Kokkos::WithoutInitializing, a, 16);
  EXPECT_EQ(a.extent(0), 16u);
  EXPECT_EQ(a.label(), "tagged");
  for (int i = 0; i < 10; ++i) EXPECT_EQ(a(i).weight, 0.5 * i);
  for (int i = 10; i < 16; ++i) new (&a(i)) Tagged(i, -1.0);
  Kokkos::resize(Kokkos::view_alloc(Kokkos::WithoutInitializing), a, 12);
  EXPECT_EQ(a.extent(0), 12u);
  EXPECT_EQ(a(11).id, 11);
  EXPECT_EQ(a(11).weight, -1.0);
  Kokkos::resize(Kokkos::WithoutInitializing, a, 0);
  EXPECT_EQ(a.extent(0), 0u);

  Kokkos::realloc(Kokkos::WithoutInitializing, a, 4);
  EXPECT_EQ(a.extent(0), 4u);
  EXPECT_EQ(a.label(), "tagged");
  for (int i = 0; i < 4; ++i) new (&a(i)) Tagged(100 + i, 1.0);

  // A host View is its own host mirror; a real mirror is allocated without initialising and
  // filled by deep_copy.
  auto same = Kokkos::create_mirror_view(a);
  EXPECT_EQ(same.data(), a.data());
  auto copy = Kokkos::create_mirror(Kokkos::WithoutInitializing, a);
  EXPECT_NE(copy.data(), a.data());
  Kokkos::deep_copy(copy, a);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(copy(i).id, 100 + i);

  Kokkos::View<Tagged**, Kokkos::LayoutLeft, Host> m(Kokkos::view_alloc("m", Kokkos::WithoutInitializing), 3, 2);
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i) new (&m(i, j)) Tagged(10 * i + j, 0.0);
  EXPECT_EQ(m(2, 1).id, 21);
  EXPECT_EQ(&m(1, 0) - &m(0, 0), 1);

  // Unmanaged over caller-constructed elements; const conversion and subviews as usual.
  std::vector<Tagged> buffer;
  for (int i = 0; i < 6; ++i) buffer.emplace_back(i, 2.0 * i);
  Kokkos::View<Tagged*, Host, Kokkos::MemoryUnmanaged> u(buffer.data(), buffer.size());
  Kokkos::View<const Tagged*, Host> cu = u;
  auto tail = Kokkos::subview(cu, Kokkos::make_pair(2, 6));
  EXPECT_EQ(tail.extent(0), 4u);
  EXPECT_EQ(tail(3).weight, 10.0);
  EXPECT_EQ(u.use_count(), 0);
}

// Mirrors of unmanaged Views are managed (the mirror types drop MemoryUnmanaged, as in Kokkos);
// a mirror *view* of host memory is the source's memory itself.
TEST(ViewConstructors, MirrorsOfUnmanagedViews) {
  KOKKOS_TEST_REQUIRE_SPACE(Kokkos::DefaultExecutionSpace);
  using Mem = Kokkos::DefaultExecutionSpace::memory_space;
  using U = Kokkos::View<int**, Kokkos::LayoutLeft, Mem, Kokkos::MemoryUnmanaged>;
  static_assert(std::is_same_v<U::HostMirror, Kokkos::View<int**, Kokkos::LayoutLeft, U::HostMirror::device_type>>);
  static_assert(!U::HostMirror::traits::memory_traits::is_unmanaged);
  Kokkos::View<int**, Kokkos::LayoutLeft> owner("owner", 3, 2);
  U u(owner.data(), 3, 2);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<>(0, 3), KOKKOS_LAMBDA(int i) {
        u(i, 0) = i;
        u(i, 1) = 10 * i;
      });
  Kokkos::fence();

  auto mirror = Kokkos::create_mirror(u);
  static_assert(std::is_same_v<decltype(mirror), U::HostMirror>);
  EXPECT_NE(mirror.data(), u.data());
  EXPECT_EQ(mirror.use_count(), 1);
  Kokkos::deep_copy(mirror, u);
  EXPECT_EQ(mirror(2, 1), 20);

  auto mirror_view = Kokkos::create_mirror_view(u);
  static_assert(std::is_same_v<decltype(mirror_view), U::HostMirror>);
  constexpr bool host_memory = std::is_same_v<U::HostMirror::memory_space, Mem>;
  EXPECT_EQ(mirror_view.data() == u.data(), host_memory);

  auto in_host = Kokkos::create_mirror(Kokkos::HostSpace(), u);
  static_assert(std::is_same_v<decltype(in_host), Kokkos::View<int**, Kokkos::LayoutLeft, Kokkos::HostSpace>>);
  EXPECT_EQ(in_host.use_count(), 1);
  auto copied = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  EXPECT_EQ(copied(1, 1), 10);
  EXPECT_EQ(copied(2, 0), 2);

  // A host unmanaged View: the mirror view is the same memory (untracked, like the source), the
  // mirror is a fresh managed copy, and the same-space copy is the source itself.
  std::array<double, 6> buffer{0, 1, 2, 3, 4, 5};
  using HU = Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged | Kokkos::RandomAccess>>;
  HU hu(buffer.data(), buffer.size());
  auto same = Kokkos::create_mirror_view(hu);
  static_assert(std::is_same_v<decltype(same), HU::HostMirror>);
  static_assert(!HU::HostMirror::traits::memory_traits::is_unmanaged);
  EXPECT_EQ(same.data(), buffer.data());
  EXPECT_EQ(same.use_count(), 0);
  auto same_space = Kokkos::create_mirror_view(Kokkos::HostSpace(), hu);
  EXPECT_EQ(same_space.data(), buffer.data());
  auto same_copy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hu);
  static_assert(std::is_same_v<decltype(same_copy), HU>);
  EXPECT_EQ(same_copy.data(), buffer.data());
  auto fresh = Kokkos::create_mirror(hu);
  static_assert(std::is_same_v<decltype(fresh), HU::HostMirror>);
  EXPECT_NE(fresh.data(), buffer.data());
  Kokkos::deep_copy(fresh, hu);
  fresh(4) = -1;
  EXPECT_EQ(buffer[4], 4.0);
  EXPECT_EQ(fresh(5), 5.0);
  hu = HU();  // the mirror owns its memory: it outlives the source
  EXPECT_EQ(fresh(3), 3.0);
  auto noinit = Kokkos::create_mirror(Kokkos::WithoutInitializing, Kokkos::HostSpace(), same_space);
  EXPECT_EQ(noinit.use_count(), 1);
  EXPECT_EQ(noinit.extent(0), 6u);
}

}  // namespace

// Kokkos::View basics: data types and ranks, extents, layouts and offsets, labels, reference
// counting, unmanaged views, conversions, the Atomic trait, view_alloc.
#include "TestCommon.hpp"

#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// ---------------------------------------------------------------------------------------------
// Compile-time properties
static_assert(Kokkos::View<double, Kokkos::HostSpace>::rank == 0);
static_assert(Kokkos::View<double*, Kokkos::HostSpace>::rank == 1);
static_assert(Kokkos::View<double**[3], Kokkos::HostSpace>::rank == 3);
static_assert(Kokkos::View<double**[3], Kokkos::HostSpace>::rank() == 3);
static_assert(Kokkos::View<double**[3], Kokkos::HostSpace>::rank_dynamic == 2);
static_assert(Kokkos::View<int*[2][3], Kokkos::HostSpace>::rank_dynamic == 1);
static_assert(Kokkos::View<int********, Kokkos::HostSpace>::rank == 8);
static_assert(Kokkos::View<int[2][3], Kokkos::HostSpace>::rank_dynamic == 0);
static_assert(Kokkos::View<int*[2][3], Kokkos::HostSpace>::static_extent(0) == 0);
static_assert(Kokkos::View<int*[2][3], Kokkos::HostSpace>::static_extent(1) == 2);
static_assert(Kokkos::View<int*[2][3], Kokkos::HostSpace>::static_extent(2) == 3);
static_assert(std::is_same_v<Kokkos::View<const float*[2][4], Kokkos::HostSpace>::value_type, const float>);
static_assert(std::is_same_v<Kokkos::View<const float*[2][4], Kokkos::HostSpace>::non_const_value_type, float>);
static_assert(std::is_same_v<Kokkos::View<const float*[2][4], Kokkos::HostSpace>::non_const_data_type, float*[2][4]>);
static_assert(std::is_same_v<Kokkos::View<float*[2][4], Kokkos::HostSpace>::const_data_type, const float*[2][4]>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::HostSpace>::array_layout, Kokkos::LayoutRight>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::HostSpace>::memory_space, Kokkos::HostSpace>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::HostSpace>::execution_space, Kokkos::DefaultHostExecutionSpace>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::HostSpace>::memory_traits, Kokkos::MemoryManaged>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::HostSpace>::reference_type, double&>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::HostSpace>::pointer_type, double*>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::HostSpace>::size_type, std::size_t>);
// Without a memory space, a View lives in the default execution space's memory.
static_assert(std::is_same_v<Kokkos::View<double*>::memory_space, Kokkos::DefaultExecutionSpace::memory_space>);
static_assert(std::is_same_v<Kokkos::View<double*>::execution_space, Kokkos::DefaultExecutionSpace>);
static_assert(std::is_same_v<Kokkos::View<double*>::array_layout, Kokkos::DefaultExecutionSpace::array_layout>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::HostSpace>::execution_space,
                             Kokkos::DefaultHostExecutionSpace>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::LayoutLeft, Kokkos::HostSpace,
                                          Kokkos::MemoryUnmanaged>::array_layout,
                             Kokkos::LayoutLeft>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::MemoryUnmanaged, Kokkos::LayoutLeft>::memory_traits,
                             Kokkos::MemoryUnmanaged>);
static_assert(std::is_same_v<Kokkos::View<double*, Kokkos::Device<Kokkos::DefaultHostExecutionSpace,
                                                                  Kokkos::HostSpace>>::device_type,
                             Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>>);
static_assert(std::is_same_v<Kokkos::View<const int**, Kokkos::LayoutLeft>::HostMirror::data_type, int**>);
static_assert(std::is_same_v<Kokkos::View<const int**, Kokkos::LayoutLeft>::HostMirror::array_layout,
                             Kokkos::LayoutLeft>);
static_assert(std::is_same_v<Kokkos::View<const int**, Kokkos::HostSpace>::HostMirror::memory_space, Kokkos::HostSpace>);
static_assert(std::is_same_v<Kokkos::View<int*, Kokkos::HostSpace>::const_type, Kokkos::View<const int*, Kokkos::LayoutRight,
                                                                          Kokkos::View<int*, Kokkos::HostSpace>::device_type,
                                                                          Kokkos::MemoryManaged>>);
static_assert(std::is_same_v<Kokkos::View<const int*, Kokkos::HostSpace>::non_const_type::value_type, int>);
static_assert(Kokkos::is_view_v<Kokkos::View<int*, Kokkos::HostSpace>>);
static_assert(Kokkos::is_view<const Kokkos::View<int*, Kokkos::HostSpace>>::value);
static_assert(!Kokkos::is_view_v<int*>);
static_assert(Kokkos::MemoryTraits<Kokkos::Unmanaged | Kokkos::Atomic>::is_atomic);
static_assert(Kokkos::MemoryTraits<Kokkos::Unmanaged | Kokkos::Atomic>::is_unmanaged);
static_assert(!Kokkos::MemoryManaged::is_unmanaged);
static_assert(Kokkos::MemoryRandomAccess::is_random_access && Kokkos::MemoryRandomAccess::is_unmanaged);
static_assert(std::is_same_v<Kokkos::View<int*, Kokkos::MemoryTraits<Kokkos::Atomic>>::reference_type,
                             Kokkos::Impl::AtomicDataElement<int>>);
// rank usable as a constant expression and as a template argument
template <std::size_t N>
struct RankHolder {
  static constexpr std::size_t value = N;
};
static_assert(RankHolder<Kokkos::View<int***, Kokkos::HostSpace>::rank>::value == 3);

// ---------------------------------------------------------------------------------------------
TEST(ViewBasic, DefaultConstructedIsNull) {
  Kokkos::View<double**, Kokkos::HostSpace> v;
  EXPECT_EQ(v.data(), nullptr);
  EXPECT_EQ(v.use_count(), 0);
  EXPECT_FALSE(v.is_allocated());
  EXPECT_EQ(v.size(), 0u);
  EXPECT_EQ(v.span(), 0u);
  EXPECT_EQ(v.extent(0), 0u);
  EXPECT_EQ(v.extent(1), 0u);
  EXPECT_EQ(v.label(), "");
  EXPECT_EQ(v.impl_track(), nullptr);
  EXPECT_EQ(v.impl_allocation_base(), nullptr);
}

TEST(ViewBasic, Rank0) {
  Kokkos::View<double, Kokkos::HostSpace> v("scalar");
  EXPECT_EQ(v.rank(), 0u);
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(v.span(), 1u);
  EXPECT_EQ(v(), 0.0);
  v() = 3.5;
  EXPECT_EQ(v(), 3.5);
  EXPECT_EQ(*v.data(), 3.5);
  EXPECT_EQ(v.access(), 3.5);
  EXPECT_TRUE(v.span_is_contiguous());
  EXPECT_EQ(v.label(), "scalar");
}

template <class V>
void fill_iota_check(const V& v) {
  // every element value-initialised to zero
  const auto* p = v.data();
  for (std::size_t i = 0; i < v.span(); ++i) ASSERT_EQ(p[i], 0);
}

TEST(ViewBasic, RanksAndExtents) {
  Kokkos::View<int*, Kokkos::HostSpace> v1("v1", 5);
  EXPECT_EQ(v1.extent(0), 5u);
  EXPECT_EQ(v1.extent(1), 1u);  // ranks beyond the view's rank
  EXPECT_EQ(v1.size(), 5u);
  fill_iota_check(v1);
  Kokkos::View<int**, Kokkos::HostSpace> v2("v2", 3, 4);
  EXPECT_EQ(v2.extent(0), 3u);
  EXPECT_EQ(v2.extent(1), 4u);
  EXPECT_EQ(v2.extent_int(1), 4);
  fill_iota_check(v2);
  Kokkos::View<int***, Kokkos::HostSpace> v3("v3", 2, 3, 4);
  EXPECT_EQ(v3.size(), 24u);
  Kokkos::View<int****, Kokkos::HostSpace> v4("v4", 2, 1, 3, 2);
  EXPECT_EQ(v4.size(), 12u);
  Kokkos::View<int*****, Kokkos::HostSpace> v5("v5", 1, 2, 1, 2, 3);
  EXPECT_EQ(v5.size(), 12u);
  Kokkos::View<int******, Kokkos::HostSpace> v6("v6", 2, 2, 2, 2, 2, 2);
  EXPECT_EQ(v6.size(), 64u);
  fill_iota_check(v6);
  Kokkos::View<int*******, Kokkos::HostSpace> v7("v7", 1, 1, 1, 1, 1, 1, 3);
  EXPECT_EQ(v7.size(), 3u);
  EXPECT_EQ(v7.extent(6), 3u);
  Kokkos::View<int********, Kokkos::HostSpace> v8("v8", 2, 1, 2, 1, 2, 1, 2, 3);
  EXPECT_EQ(v8.size(), 48u);
  EXPECT_EQ(v8.extent(7), 3u);
  v8(1, 0, 1, 0, 1, 0, 1, 2) = 9;
  EXPECT_EQ(v8.data()[v8.span() - 1], 9);
  // zero extents
  Kokkos::View<int**, Kokkos::HostSpace> z("z", 0, 7);
  EXPECT_EQ(z.size(), 0u);
  EXPECT_EQ(z.span(), 0u);
  EXPECT_EQ(z.extent(1), 7u);
  Kokkos::View<double*, Kokkos::HostSpace> z1("z1", 0);
  EXPECT_EQ(z1.size(), 0u);
  EXPECT_EQ(z1.use_count(), 1);
}

TEST(ViewBasic, MixedStaticExtents) {
  Kokkos::View<double**[3], Kokkos::HostSpace> a("a", 4, 5);
  EXPECT_EQ(a.extent(0), 4u);
  EXPECT_EQ(a.extent(1), 5u);
  EXPECT_EQ(a.extent(2), 3u);
  EXPECT_EQ(a.static_extent(2), 3u);
  EXPECT_EQ(a.size(), 60u);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 3; ++k) EXPECT_EQ(&a(i, j, k) - a.data(), (i * 5 + j) * 3 + k);
  Kokkos::View<int*[2][3], Kokkos::HostSpace> b("b", 7);
  EXPECT_EQ(b.extent(0), 7u);
  EXPECT_EQ(b.extent(1), 2u);
  EXPECT_EQ(b.extent(2), 3u);
  EXPECT_EQ(&b(6, 1, 2) - b.data(), 6 * 6 + 1 * 3 + 2);
  // all extents given, the static ones matching
  Kokkos::View<int*[2][3], Kokkos::HostSpace> c("c", 7, 2, 3);
  EXPECT_EQ(c.size(), 42u);
  Kokkos::View<int[2][3], Kokkos::HostSpace> d("d");
  EXPECT_EQ(d.size(), 6u);
  Kokkos::View<int*[2], Kokkos::LayoutLeft, Kokkos::HostSpace> e("e", 5);
  EXPECT_EQ(&e(3, 1) - e.data(), 3 + 1 * 5);
}

TEST(ViewBasic, LayoutRightOffsets) {
  Kokkos::View<int***, Kokkos::LayoutRight, Kokkos::HostSpace> v("v", 3, 4, 5);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) ASSERT_EQ(&v(i, j, k) - v.data(), (i * 4 + j) * 5 + k);
  EXPECT_EQ(v.stride(0), 20u);
  EXPECT_EQ(v.stride(1), 5u);
  EXPECT_EQ(v.stride(2), 1u);
  EXPECT_EQ(v.stride_0(), 20u);
  EXPECT_EQ(v.stride_1(), 5u);
  EXPECT_EQ(v.stride_2(), 1u);
  std::size_t s[4];
  v.stride(s);
  EXPECT_EQ(s[0], 20u);
  EXPECT_EQ(s[1], 5u);
  EXPECT_EQ(s[2], 1u);
  EXPECT_EQ(s[3], 60u);
  EXPECT_TRUE(v.span_is_contiguous());
  const Kokkos::LayoutRight l = v.layout();
  EXPECT_EQ(l.dimension[0], 3u);
  EXPECT_EQ(l.dimension[1], 4u);
  EXPECT_EQ(l.dimension[2], 5u);
}

TEST(ViewBasic, LayoutLeftOffsets) {
  Kokkos::View<int***, Kokkos::LayoutLeft, Kokkos::HostSpace> v("v", 3, 4, 5);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) ASSERT_EQ(&v(i, j, k) - v.data(), i + 3 * (j + 4 * k));
  EXPECT_EQ(v.stride(0), 1u);
  EXPECT_EQ(v.stride(1), 3u);
  EXPECT_EQ(v.stride(2), 12u);
  EXPECT_EQ(v.span(), 60u);
  Kokkos::View<double****, Kokkos::LayoutLeft, Kokkos::HostSpace> w("w", 2, 3, 4, 5);
  EXPECT_EQ(&w(1, 2, 3, 4) - w.data(), 1 + 2 * (2 + 3 * (3 + 4 * 4)));
  const Kokkos::LayoutLeft l = w.layout();
  EXPECT_EQ(l.dimension[3], 5u);
}

TEST(ViewBasic, LayoutStrideOffsets) {
  // 3 x 4 with padded rows (stride 6) and columns of stride 1
  Kokkos::LayoutStride ls(3, 6, 4, 1);
  Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace> v("v", ls);
  EXPECT_EQ(v.extent(0), 3u);
  EXPECT_EQ(v.extent(1), 4u);
  EXPECT_EQ(v.stride(0), 6u);
  EXPECT_EQ(v.stride(1), 1u);
  EXPECT_EQ(v.span(), 2u * 6u + 3u + 1u);
  EXPECT_FALSE(v.span_is_contiguous());
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) ASSERT_EQ(&v(i, j) - v.data(), i * 6 + j);
  const Kokkos::LayoutStride l = v.layout();
  EXPECT_EQ(l.dimension[0], 3u);
  EXPECT_EQ(l.stride[0], 6u);
  // order_dimensions: rank 1 fastest, then 2, then 0
  const int order[3] = {1, 2, 0};
  const std::size_t dims[3] = {2, 3, 4};
  const Kokkos::LayoutStride o = Kokkos::LayoutStride::order_dimensions(3, order, dims);
  EXPECT_EQ(o.stride[1], 1u);
  EXPECT_EQ(o.stride[2], 3u);
  EXPECT_EQ(o.stride[0], 12u);
  EXPECT_EQ(o.dimension[0], 2u);
  EXPECT_EQ(o.dimension[2], 4u);
  Kokkos::View<int***, Kokkos::LayoutStride, Kokkos::HostSpace> w("w", o);
  EXPECT_TRUE(w.span_is_contiguous());
  EXPECT_EQ(&w(1, 2, 3) - w.data(), 1 * 12 + 2 * 1 + 3 * 3);
}

TEST(ViewBasic, Labels) {
  Kokkos::View<int*, Kokkos::HostSpace> a("alpha", 3);
  EXPECT_EQ(a.label(), "alpha");
  const std::string name = "beta";
  Kokkos::View<int*, Kokkos::HostSpace> b(name, 3);
  EXPECT_EQ(b.label(), "beta");
  Kokkos::View<int*, Kokkos::HostSpace> c(Kokkos::view_alloc("gamma"), 3);
  EXPECT_EQ(c.label(), "gamma");
  const char* cname = "delta";
  Kokkos::View<int*, Kokkos::HostSpace> d(cname, 2);
  EXPECT_EQ(d.label(), "delta");
  auto s = Kokkos::subview(a, Kokkos::make_pair(0, 2));
  EXPECT_EQ(s.label(), "alpha");
  Kokkos::View<int*, Kokkos::HostSpace> copy = a;
  EXPECT_EQ(copy.label(), "alpha");
}

TEST(ViewBasic, UseCount) {
  Kokkos::View<double*, Kokkos::HostSpace> a("a", 10);
  EXPECT_EQ(a.use_count(), 1);
  {
    Kokkos::View<double*, Kokkos::HostSpace> b = a;
    EXPECT_EQ(a.use_count(), 2);
    Kokkos::View<double*, Kokkos::HostSpace> c(b);
    EXPECT_EQ(a.use_count(), 3);
    Kokkos::View<double*, Kokkos::HostSpace> d(std::move(c));
    EXPECT_EQ(a.use_count(), 3);
    EXPECT_EQ(c.use_count(), 0);
    EXPECT_EQ(c.data(), nullptr);
    EXPECT_EQ(d.data(), a.data());
    auto s = Kokkos::subview(a, Kokkos::make_pair(2, 5));
    EXPECT_EQ(a.use_count(), 4);
    EXPECT_EQ(s.use_count(), 4);
    Kokkos::View<const double*, Kokkos::HostSpace> k = a;
    EXPECT_EQ(a.use_count(), 5);
    Kokkos::View<double*, Kokkos::HostSpace> e;
    e = std::move(d);
    EXPECT_EQ(a.use_count(), 5);
    Kokkos::View<double*, Kokkos::HostSpace>& e_ref = e;
    e = e_ref;  // self-assignment
    EXPECT_EQ(a.use_count(), 5);
    e = Kokkos::View<double*, Kokkos::HostSpace>();
    EXPECT_EQ(a.use_count(), 4);
  }
  EXPECT_EQ(a.use_count(), 1);
  Kokkos::View<double*, Kokkos::HostSpace> other("other", 3);
  Kokkos::View<double*, Kokkos::HostSpace> x = a;
  x = other;  // release a, acquire other
  EXPECT_EQ(a.use_count(), 1);
  EXPECT_EQ(other.use_count(), 2);
}

// kokkos/kokkos#7464: default-constructed View then assigned under g++ 12 optimisation.
struct HolderOfView {
  Kokkos::View<int*, Kokkos::HostSpace> v;
};
TEST(ViewBasic, DefaultConstructThenAssign) {
  Kokkos::View<int*, Kokkos::HostSpace> src("src", 8);
  {
    Kokkos::View<int*, Kokkos::HostSpace> dst;
    dst = src;
    EXPECT_EQ(dst.use_count(), 2);
    EXPECT_EQ(src.use_count(), 2);
    HolderOfView h;
    h.v = src;
    EXPECT_EQ(src.use_count(), 3);
    HolderOfView h2 = h;
    EXPECT_EQ(src.use_count(), 4);
    std::vector<Kokkos::View<int*, Kokkos::HostSpace>> many(5);
    for (auto& m : many) m = src;
    EXPECT_EQ(src.use_count(), 9);
  }
  EXPECT_EQ(src.use_count(), 1);
}

// Elements with a destructor are destroyed exactly once when the last View goes away.
struct Counted {
  static inline int alive = 0;
  int value = 7;
  Counted() { ++alive; }
  Counted(const Counted& o) : value(o.value) { ++alive; }
  Counted& operator=(const Counted&) = default;
  ~Counted() { --alive; }
};
TEST(ViewBasic, FreedExactlyOnce) {
  ASSERT_EQ(Counted::alive, 0);
  {
    Kokkos::View<Counted*, Kokkos::HostSpace> a("a", 5);
    EXPECT_EQ(Counted::alive, 5);
    EXPECT_EQ(a(3).value, 7);
    Kokkos::View<Counted*, Kokkos::HostSpace> b;
    b = a;
    Kokkos::View<Counted*, Kokkos::HostSpace> c(a);
    a = Kokkos::View<Counted*, Kokkos::HostSpace>();
    EXPECT_EQ(Counted::alive, 5);
    b = Kokkos::View<Counted*, Kokkos::HostSpace>();
    EXPECT_EQ(Counted::alive, 5);
  }
  EXPECT_EQ(Counted::alive, 0);
}

TEST(ViewBasic, Unmanaged) {
  std::vector<double> storage(12);
  std::iota(storage.begin(), storage.end(), 0.0);
  Kokkos::View<double**, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> u(storage.data(), 3, 4);
  EXPECT_EQ(u.use_count(), 0);
  EXPECT_EQ(u.label(), "");
  EXPECT_EQ(u.data(), storage.data());
  EXPECT_EQ(u(2, 3), 11.0);
  EXPECT_EQ(u.impl_track(), nullptr);
  EXPECT_EQ(u.impl_allocation_base(), storage.data());
  EXPECT_EQ(u.impl_allocation_bytes(), 12 * sizeof(double));
  // a plain View over a pointer is unmanaged too
  Kokkos::View<double*, Kokkos::HostSpace> p(storage.data(), 12);
  EXPECT_EQ(p.use_count(), 0);
  p(0) = -1;
  EXPECT_EQ(storage[0], -1.0);
  Kokkos::View<double*, Kokkos::HostSpace> p2 = p;
  EXPECT_EQ(p2.use_count(), 0);
  // via view_wrap and with a layout
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> l(Kokkos::view_wrap(storage.data()), 4, 3);
  EXPECT_EQ(&l(1, 2) - storage.data(), 1 + 2 * 4);
  Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace> s(storage.data(), Kokkos::LayoutStride(3, 1, 4, 3));
  EXPECT_EQ(&s(2, 1) - storage.data(), 2 + 3);
  // managed -> Unmanaged trait: shares data, no reference
  Kokkos::View<int*, Kokkos::HostSpace> m("m", 4);
  Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> um = m;
  EXPECT_EQ(m.use_count(), 1);
  EXPECT_EQ(um.use_count(), 0);
  EXPECT_EQ(um.data(), m.data());
  EXPECT_EQ(um.impl_allocation_base(), m.impl_allocation_base());
}

TEST(ViewBasic, ConstAndLayoutConversions) {
  Kokkos::View<int*, Kokkos::HostSpace> a("a", 4);
  a(2) = 5;
  Kokkos::View<const int*, Kokkos::HostSpace> c = a;
  EXPECT_EQ(c(2), 5);
  EXPECT_EQ(c.data(), a.data());
  Kokkos::View<const int*, Kokkos::HostSpace> c2;
  c2 = a;
  EXPECT_EQ(c2.use_count(), 3);
  // rank-1 LayoutRight <-> LayoutLeft
  Kokkos::View<int*, Kokkos::LayoutLeft, Kokkos::HostSpace> l = a;
  EXPECT_EQ(l(2), 5);
  Kokkos::View<int*, Kokkos::LayoutRight, Kokkos::HostSpace> r = l;
  EXPECT_EQ(&r(3), &a(3));
  // any -> LayoutStride
  Kokkos::View<double**, Kokkos::HostSpace> m("m", 3, 4);
  Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace> s = m;
  EXPECT_EQ(s.stride(0), 4u);
  EXPECT_EQ(s.stride(1), 1u);
  EXPECT_EQ(&s(2, 3), &m(2, 3));
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> ml("ml", 3, 4);
  Kokkos::View<const double**, Kokkos::LayoutStride, Kokkos::HostSpace> sl = ml;
  EXPECT_EQ(sl.stride(0), 1u);
  EXPECT_EQ(sl.stride(1), 3u);
  // LayoutStride -> LayoutRight with compatible strides
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> back = s;
  EXPECT_EQ(&back(1, 2), &m(1, 2));
  // static <-> dynamic extents
  Kokkos::View<int*[3], Kokkos::HostSpace> st("st", 2);
  Kokkos::View<int**, Kokkos::HostSpace> dyn = st;
  EXPECT_EQ(dyn.extent(1), 3u);
  Kokkos::View<int*[3], Kokkos::HostSpace> st2 = dyn;
  EXPECT_EQ(st2.data(), st.data());
  // Unmanaged + const
  Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged | Kokkos::RandomAccess>> ra = a;
  EXPECT_EQ(ra(2), 5);
  EXPECT_TRUE((a == Kokkos::View<int*, Kokkos::HostSpace>(a)));
  EXPECT_FALSE((a == Kokkos::View<int*, Kokkos::HostSpace>("other", 4)));
}

// A host View, spelled without a comma so that it can stand inside EXPECT_DEATH's block.
template <class T>
using HostView = Kokkos::View<T, Kokkos::HostSpace>;

TEST(ViewBasicDeath, DynamicToStaticExtentMismatch) {
  Kokkos::View<int**, Kokkos::HostSpace> dyn("dyn", 2, 4);
  EXPECT_DEATH(
      {
        HostView<int* [3]> st = dyn;
        (void)st;
      },
      "compile-time extent");
}

TEST(ViewBasicDeath, WrongNumberOfExtents) {
  EXPECT_DEATH(
      {
        HostView<int**> v("badargs", 3);
        (void)v;
      },
      "badargs.*mismatched number of arguments");
}

TEST(ViewBasicDeath, AllocationAfterFinalize) {
  EXPECT_DEATH(
      {
        Kokkos::finalize();
        HostView<int*> late("late", 3);
      },
      "Kokkos::View \\(label \"late\"\\) allocation used after Kokkos::finalize");
}

TEST(ViewBasic, ViewAllocProperties) {
  Kokkos::View<int*, Kokkos::HostSpace> a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "noinit"), 16);
  EXPECT_EQ(a.label(), "noinit");
  EXPECT_EQ(a.extent(0), 16u);
  Kokkos::View<int*, Kokkos::HostSpace> b(Kokkos::view_alloc("inspace", Kokkos::HostSpace()), 4);
  EXPECT_EQ(b.label(), "inspace");
  EXPECT_EQ(b(3), 0);
  Kokkos::View<int*, Kokkos::HostSpace> c(Kokkos::view_alloc(Kokkos::DefaultHostExecutionSpace(), std::string("withexec"),
                                          Kokkos::AllowPadding),
                       4);
  EXPECT_EQ(c.label(), "withexec");
  Kokkos::View<int**, Kokkos::HostSpace> d(Kokkos::view_alloc(Kokkos::WithoutInitializing), 2, 2);
  EXPECT_EQ(d.label(), "");
  EXPECT_EQ(d.size(), 4u);
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> e(Kokkos::view_alloc("layout"), Kokkos::LayoutLeft(5, 6));
  EXPECT_EQ(e.extent(0), 5u);
  EXPECT_EQ(e.extent(1), 6u);
  Kokkos::View<double**, Kokkos::HostSpace> f("f", Kokkos::LayoutRight(2, 9));
  EXPECT_EQ(f.extent(1), 9u);
}

TEST(ViewBasic, AllocationIdentity) {
  Kokkos::View<double**, Kokkos::HostSpace> a("a", 4, 5);
  EXPECT_EQ(a.impl_allocation_base(), static_cast<const void*>(a.data()));
  EXPECT_EQ(a.impl_allocation_bytes(), 20 * sizeof(double));
  EXPECT_NE(a.impl_track(), nullptr);
  auto row = Kokkos::subview(a, 2, Kokkos::ALL);
  EXPECT_EQ(row.impl_allocation_base(), a.impl_allocation_base());
  EXPECT_EQ(row.impl_allocation_bytes(), a.impl_allocation_bytes());
  EXPECT_EQ(row.impl_track(), a.impl_track());
  EXPECT_EQ(row.impl_allocation_offset(), 10u);
  auto col = Kokkos::subview(a, Kokkos::ALL, 1);
  EXPECT_EQ(col.impl_allocation_base(), a.impl_allocation_base());
  EXPECT_EQ(col.impl_allocation_offset(), 1u);
  Kokkos::View<double**, Kokkos::HostSpace> b("b", 4, 5);
  EXPECT_NE(b.impl_allocation_base(), a.impl_allocation_base());
}

TEST(ViewBasic, AccessAndBracket) {
  Kokkos::View<int*, Kokkos::HostSpace> v("v", 4);
  v[1] = 3;
  EXPECT_EQ(v(1), 3);
  EXPECT_EQ(v.access(1), 3);
  EXPECT_EQ(v.access(1, 0, 0), 3);
  Kokkos::View<int**, Kokkos::HostSpace> w("w", 2, 3);
  w(1, 2) = 8;
  EXPECT_EQ(w.access(1, 2), 8);
  EXPECT_EQ(w.access(1, 2, 0, 0, 0, 0, 0, 0), 8);
  EXPECT_EQ(&w.access(1), &w(1, 0));
}

// ---------------------------------------------------------------------------------------------
template <class Space>
class ViewSpaceTest : public Kokkos::Test::SpaceTest<Space> {};
// Every back end: on Cuda the Views are device memory, read back through host mirrors.
TYPED_TEST_SUITE(ViewSpaceTest, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(ViewSpaceTest, FillInParallel) {
  using Space = TypeParam;
  const int n = 1000;
  Kokkos::View<int**, Space> v("v", n, 3);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
        for (int j = 0; j < 3; ++j) v(i, j) = 3 * i + j;
      });
  Space().fence();
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) ASSERT_EQ(h(i, j), 3 * i + j);
  // A host View's mirror is the View itself; a device View's is a new allocation.
  constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  EXPECT_EQ(v.use_count(), host_memory ? 2 : 1);
}

TYPED_TEST(ViewSpaceTest, AtomicTrait) {
  using Space = TypeParam;
  const int n = 20000;
  Kokkos::View<long*, Space> counts("counts", 4);
  Kokkos::View<long*, Space, Kokkos::MemoryTraits<Kokkos::Atomic>> ac = counts;
  Kokkos::View<double, Space, Kokkos::MemoryTraits<Kokkos::Atomic>> sum("sum");
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
        ac(i % 4) += 1;
        ac(0)++;
        ++ac(1);
        ac(2) -= 1;
        ac(3)--;
        sum() += 0.5;
      });
  const auto h_counts = Kokkos::Test::to_host(counts);
  EXPECT_EQ(h_counts(0), n / 4 + n);
  EXPECT_EQ(h_counts(1), n / 4 + n);
  EXPECT_EQ(h_counts(2), n / 4 - n);
  EXPECT_EQ(h_counts(3), n / 4 - n);
  EXPECT_EQ(double(Kokkos::Test::to_host(sum)()), 0.5 * n);
  // the other operators
  Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Atomic>> x("x", 1);
  x(0) = 6;
  EXPECT_EQ(int(x(0)), 6);
  EXPECT_EQ(x(0) *= 3, 18);
  EXPECT_EQ(x(0) /= 2, 9);
  EXPECT_EQ(x(0) &= 3, 1);
  EXPECT_EQ(x(0) |= 6, 7);
  EXPECT_EQ(x(0) ^= 2, 5);
  EXPECT_EQ(x(0)++, 5);
  EXPECT_EQ(x(0)--, 6);
  EXPECT_EQ(int(x(0)), 5);
  EXPECT_TRUE(x(0) == 5);
}

TYPED_TEST(ViewSpaceTest, CopiesInsideFunctorKeepCount) {
  using Space = TypeParam;
  Kokkos::View<int*, Space> v("v", 100);
  {
    auto f = KOKKOS_LAMBDA(int i) {
      auto local = v;  // a View copy inside the functor
      local(i) = i;
    };
    Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, 100), f);
    Space().fence();
  }
  EXPECT_EQ(v.use_count(), 1);
  const auto h = Kokkos::Test::to_host(v);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(h(i), i);
}

}  // namespace

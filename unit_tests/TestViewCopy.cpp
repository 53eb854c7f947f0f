// deep_copy, mirrors, resize and realloc.
#include "TestCommon.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

namespace {

template <class V>
void iota3(const V& v) {
  for (std::size_t i = 0; i < v.extent(0); ++i)
    for (std::size_t j = 0; j < v.extent(1); ++j)
      for (std::size_t k = 0; k < v.extent(2); ++k) v(i, j, k) = double(100 * i + 10 * j + k);
}
template <class V>
bool equal3(const V& v) {
  for (std::size_t i = 0; i < v.extent(0); ++i)
    for (std::size_t j = 0; j < v.extent(1); ++j)
      for (std::size_t k = 0; k < v.extent(2); ++k)
        if (v(i, j, k) != double(100 * i + 10 * j + k)) return false;
  return true;
}

TEST(ViewCopy, SameLayoutContiguous) {
  Kokkos::View<double***, Kokkos::HostSpace> a("a", 3, 4, 5), b("b", 3, 4, 5);
  iota3(a);
  Kokkos::deep_copy(b, a);
  EXPECT_TRUE(equal3(b));
  EXPECT_NE(a.data(), b.data());
  // const source
  Kokkos::View<const double***, Kokkos::HostSpace> ca = a;
  Kokkos::View<double***, Kokkos::HostSpace> c("c", 3, 4, 5);
  Kokkos::deep_copy(c, ca);
  EXPECT_TRUE(equal3(c));
  // self copy is a no-op
  Kokkos::deep_copy(a, a);
  EXPECT_TRUE(equal3(a));
}

TEST(ViewCopy, BetweenLayouts) {
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> r("r", 3, 4, 5);
  Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace> l("l", 3, 4, 5);
  iota3(r);
  Kokkos::deep_copy(l, r);
  EXPECT_TRUE(equal3(l));
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> r2("r2", 3, 4, 5);
  Kokkos::deep_copy(r2, l);
  EXPECT_TRUE(equal3(r2));
  // LayoutStride with padding
  Kokkos::View<double***, Kokkos::LayoutStride, Kokkos::HostSpace> s("s", Kokkos::LayoutStride(3, 40, 4, 8, 5, 1));
  Kokkos::deep_copy(s, l);
  EXPECT_TRUE(equal3(s));
  // into a strided subview and back
  Kokkos::View<double***, Kokkos::HostSpace> big("big", 5, 6, 7);
  auto sub = Kokkos::subview(big, Kokkos::make_pair(1, 4), Kokkos::make_pair(2, 6), Kokkos::make_pair(0, 5));
  Kokkos::deep_copy(sub, r);
  EXPECT_TRUE(equal3(sub));
  EXPECT_EQ(big(0, 0, 0), 0.0);
  EXPECT_EQ(big(1, 2, 0), 0.0 + 0);
  EXPECT_EQ(big(3, 5, 4), 234.0);
  EXPECT_EQ(big(3, 5, 5), 0.0);
  Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace> back("back", 3, 4, 5);
  Kokkos::deep_copy(back, sub);
  EXPECT_TRUE(equal3(back));
}

TEST(ViewCopy, ExtentMismatchThrowsWithClearMessage) {
  Kokkos::View<int**, Kokkos::HostSpace> a("alpha", 2, 3), b("beta", 3, 2);
  try {
    Kokkos::deep_copy(a, b);
    FAIL() << "deep_copy did not throw";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("deep_copy"), std::string::npos) << msg;
    EXPECT_NE(msg.find("\"alpha\" (2,3)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("\"beta\" (3,2)"), std::string::npos) << msg;
  }
  Kokkos::View<int*, Kokkos::HostSpace> c("c", 4), d("d", 5);
  EXPECT_THROW(Kokkos::deep_copy(c, d), std::runtime_error);
  EXPECT_THROW(Kokkos::deep_copy(Kokkos::DefaultHostExecutionSpace(), c, d), std::runtime_error);
}

TEST(ViewCopy, ScalarFillAndRank0) {
  Kokkos::View<double**, Kokkos::HostSpace> a("a", 3, 4);
  Kokkos::deep_copy(a, 2.5);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) ASSERT_EQ(a(i, j), 2.5);
  Kokkos::deep_copy(a, 1);  // int converts to the value type
  EXPECT_EQ(a(2, 3), 1.0);
  // fill a strided subview only
  auto col = Kokkos::subview(a, Kokkos::ALL, 2);
  Kokkos::deep_copy(col, -7.0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a(i, 2), -7.0);
    EXPECT_EQ(a(i, 1), 1.0);
  }
  // rank 0
  Kokkos::View<int, Kokkos::HostSpace> s("s");
  Kokkos::deep_copy(s, 17);
  EXPECT_EQ(s(), 17);
  int out = 0;
  Kokkos::deep_copy(out, s);
  EXPECT_EQ(out, 17);
  Kokkos::View<int, Kokkos::HostSpace> t("t");
  Kokkos::deep_copy(t, s);
  EXPECT_EQ(t(), 17);
  int out2 = 0;
  Kokkos::deep_copy(Kokkos::DefaultHostExecutionSpace(), out2, t);
  EXPECT_EQ(out2, 17);
  Kokkos::deep_copy(Kokkos::DefaultHostExecutionSpace(), t, 4);
  EXPECT_EQ(t(), 4);
  // empty views
  Kokkos::View<int*, Kokkos::HostSpace> e1("e1", 0), e2;
  Kokkos::deep_copy(e1, e2);
  Kokkos::deep_copy(e2, 3);
}

TEST(ViewCopy, Mirrors) {
  Kokkos::View<double**, Kokkos::HostSpace> a("a", 3, 4);
  a(1, 2) = 5;
  auto mv = Kokkos::create_mirror_view(a);
  static_assert(std::is_same_v<typename decltype(mv)::memory_space, Kokkos::HostSpace>);
  EXPECT_EQ(mv.data(), a.data());
  EXPECT_EQ(a.use_count(), 2);
  auto m = Kokkos::create_mirror(a);
  EXPECT_NE(m.data(), a.data());
  EXPECT_EQ(m.extent(0), 3u);
  EXPECT_EQ(m.extent(1), 4u);
  EXPECT_EQ(m(1, 2), 0.0);
  EXPECT_EQ(m.label(), "a_mirror");
  Kokkos::deep_copy(m, a);
  EXPECT_EQ(m(1, 2), 5.0);
  auto mw = Kokkos::create_mirror(Kokkos::WithoutInitializing, a);
  EXPECT_NE(mw.data(), a.data());
  auto ms = Kokkos::create_mirror(Kokkos::HostSpace(), a);
  EXPECT_NE(ms.data(), a.data());
  auto mvs = Kokkos::create_mirror_view(Kokkos::HostSpace(), a);
  EXPECT_EQ(mvs.data(), a.data());
  auto mve = Kokkos::create_mirror_view(Kokkos::DefaultHostExecutionSpace(), a);
  EXPECT_EQ(mve.data(), a.data());
  auto mvw = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, a);
  EXPECT_EQ(mvw.data(), a.data());
  auto mp = Kokkos::create_mirror(Kokkos::view_alloc(Kokkos::HostSpace(), "named"), a);
  EXPECT_EQ(mp.label(), "named");
  auto mc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  EXPECT_EQ(mc.data(), a.data());
  // a const source: the host mirror is non-const, so create_mirror_view allocates
  Kokkos::View<const double**, Kokkos::HostSpace> ca = a;
  auto mcv = Kokkos::create_mirror_view(ca);
  static_assert(std::is_same_v<typename decltype(mcv)::value_type, double>);
  EXPECT_NE(mcv.data(), a.data());
  // other layouts keep theirs
  Kokkos::View<int**, Kokkos::LayoutLeft, Kokkos::HostSpace> l("l", 2, 3);
  auto ml = Kokkos::create_mirror(l);
  static_assert(std::is_same_v<typename decltype(ml)::array_layout, Kokkos::LayoutLeft>);
  Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace> st("st", Kokkos::LayoutStride(2, 5, 3, 1));
  auto mst = Kokkos::create_mirror(st);
  EXPECT_EQ(mst.extent(0), 2u);
  EXPECT_EQ(mst.extent(1), 3u);
  Kokkos::View<int*[3], Kokkos::HostSpace> sx("sx", 4);
  auto msx = Kokkos::create_mirror(sx);
  EXPECT_EQ(msx.extent(1), 3u);
}

TEST(ViewCopy, Resize) {
  // 1D grow and shrink
  Kokkos::View<int*, Kokkos::HostSpace> v("v", 4);
  for (int i = 0; i < 4; ++i) v(i) = i + 1;
  const int* old = v.data();
  Kokkos::resize(v, 6);
  EXPECT_NE(v.data(), old);
  EXPECT_EQ(v.extent(0), 6u);
  EXPECT_EQ(v.label(), "v");
  for (int i = 0; i < 4; ++i) EXPECT_EQ(v(i), i + 1);
  EXPECT_EQ(v(4), 0);
  EXPECT_EQ(v(5), 0);
  Kokkos::resize(v, 2);
  EXPECT_EQ(v.extent(0), 2u);
  EXPECT_EQ(v(1), 2);
  const int* same = v.data();
  Kokkos::resize(v, 2);  // unchanged extents: no reallocation
  EXPECT_EQ(v.data(), same);
  // 2D LayoutRight and LayoutLeft
  Kokkos::View<int**, Kokkos::HostSpace> r("r", 3, 4);
  Kokkos::View<int**, Kokkos::LayoutLeft, Kokkos::HostSpace> l("l", 3, 4);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) r(i, j) = l(i, j) = 10 * i + j;
  Kokkos::resize(r, 5, 2);
  Kokkos::resize(l, 2, 6);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 2; ++j) EXPECT_EQ(r(i, j), i < 3 ? 10 * i + j : 0);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_EQ(l(i, j), j < 4 ? 10 * i + j : 0);
  // 3D with a static extent
  Kokkos::View<double**[3], Kokkos::HostSpace> t("t", 2, 2);
  iota3(t);
  Kokkos::resize(t, 4, 1);
  EXPECT_EQ(t.extent(0), 4u);
  EXPECT_EQ(t.extent(1), 1u);
  EXPECT_EQ(t.extent(2), 3u);
  EXPECT_EQ(t(1, 0, 2), 102.0);
  EXPECT_EQ(t(3, 0, 2), 0.0);
  // WithoutInitializing and view_alloc forms, and from empty
  Kokkos::View<int*, Kokkos::HostSpace> w;
  Kokkos::resize(Kokkos::WithoutInitializing, w, 3);
  EXPECT_EQ(w.extent(0), 3u);
  w(0) = 1;
  w(1) = 2;
  w(2) = 3;
  Kokkos::resize(Kokkos::view_alloc(Kokkos::WithoutInitializing), w, 5);
  EXPECT_EQ(w(2), 3);
  Kokkos::resize(Kokkos::DefaultHostExecutionSpace(), w, 1);
  EXPECT_EQ(w(0), 1);
  // old views keep the old allocation alive
  Kokkos::View<int*, Kokkos::HostSpace> keep("keep", 2);
  keep(1) = 9;
  Kokkos::View<int*, Kokkos::HostSpace> alias = keep;
  Kokkos::resize(keep, 3);
  EXPECT_EQ(alias.use_count(), 1);
  EXPECT_EQ(alias(1), 9);
  EXPECT_EQ(keep(1), 9);
  // layout form
  Kokkos::View<int**, Kokkos::HostSpace> rl("rl", 2, 2);
  rl(1, 1) = 4;
  Kokkos::resize(rl, Kokkos::LayoutRight(3, 3));
  EXPECT_EQ(rl(1, 1), 4);
}

TEST(ViewCopy, Realloc) {
  Kokkos::View<int**, Kokkos::HostSpace> v("v", 2, 3);
  v(1, 1) = 5;
  Kokkos::realloc(v, 4, 4);
  EXPECT_EQ(v.extent(0), 4u);
  EXPECT_EQ(v.extent(1), 4u);
  EXPECT_EQ(v.label(), "v");
  EXPECT_EQ(v(1, 1), 0);
  v(1, 1) = 5;
  Kokkos::realloc(v, 4, 4);  // same extents: re-initialised
  EXPECT_EQ(v(1, 1), 0);
  Kokkos::realloc(Kokkos::WithoutInitializing, v, 1, 2);
  EXPECT_EQ(v.extent(0), 1u);
  EXPECT_EQ(v.use_count(), 1);
  Kokkos::realloc(Kokkos::view_alloc(Kokkos::WithoutInitializing), v, 2, 2);
  EXPECT_EQ(v.size(), 4u);
  Kokkos::realloc(v, Kokkos::LayoutRight(3, 1));
  EXPECT_EQ(v.size(), 3u);
}

template <class Space>
class ViewCopySpace : public Kokkos::Test::SpaceTest<Space> {};
// Every back end: on Cuda the Views are device memory, copied through host mirrors.
TYPED_TEST_SUITE(ViewCopySpace, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(ViewCopySpace, DeviceToHostRoundTrip) {
  using Space = TypeParam;
  const int n = 1000;
  Kokkos::View<double*, Space> d("d", n);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { d(i) = 2.0 * i; });
  auto h = Kokkos::create_mirror(d);
  Kokkos::deep_copy(h, d);  // fences before copying
  for (int i = 0; i < n; ++i) ASSERT_EQ(h(i), 2.0 * i);
  for (int i = 0; i < n; ++i) h(i) = -i;
  Kokkos::deep_copy(Space(), d, h);
  Space().fence();
  Kokkos::View<double*, Kokkos::LayoutLeft, Space> l("l", n);
  Kokkos::deep_copy(Space(), l, d);
  Kokkos::View<double, Space> sum("sum");
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, 1), KOKKOS_LAMBDA(int) {
        double s = 0;
        for (int i = 0; i < n; ++i) s += l(i);
        sum() = s;
      });
  double result = 0;
  Kokkos::deep_copy(result, sum);
  EXPECT_EQ(result, -double(n) * (n - 1) / 2);
  auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), l);
  EXPECT_EQ(hc(n - 1), -(n - 1.0));
}

// Copies between non-contiguous blocks of rank 3 and rank 8 Views of the space's memory (on Cuda a
// kernel copies them in device memory), synchronous and on an instance, in both layouts: the
// copied block has the source's values, everything around it keeps the destination's.
template <class Space, class Layout>
void check_strided_copies_in_space() {
  using memory_space = typename Space::memory_space;
  using V3 = Kokkos::View<double***, Layout, memory_space>;
  V3 src("src", 5, 6, 7), dst("dst", 5, 6, 7);
  Kokkos::parallel_for(Kokkos::MDRangePolicy<Space, Kokkos::Rank<3>>({0, 0, 0}, {5, 6, 7}),
                       KOKKOS_LAMBDA(int i, int j, int k) {
                         src(i, j, k) = 100.0 * i + 10.0 * j + k;
                         dst(i, j, k) = -1.0;
                       });
  const auto block = std::make_pair(1, 4);
  auto d = Kokkos::subview(dst, block, std::make_pair(2, 5), std::make_pair(1, 6));
  auto s = Kokkos::subview(src, std::make_pair(0, 3), std::make_pair(1, 4), std::make_pair(2, 7));
  ASSERT_FALSE(d.span_is_contiguous());
  Kokkos::deep_copy(d, s);
  const auto h = Kokkos::Test::to_host(dst);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 7; ++k) {
        const bool inside = i >= 1 && i < 4 && j >= 2 && j < 5 && k >= 1 && k < 6;
        const double expect = inside ? 100.0 * (i - 1) + 10.0 * (j - 1) + (k + 1) : -1.0;
        ASSERT_EQ(h(i, j, k), expect) << i << "," << j << "," << k;
      }

  using V8 = Kokkos::View<int********, Layout, memory_space>;
  V8 a("a", 2, 3, 2, 3, 2, 3, 2, 3), b("b", 2, 3, 2, 3, 2, 3, 2, 3);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, int(a.size())), KOKKOS_LAMBDA(int n) {
    a.data()[n] = n;
    b.data()[n] = -1;
  });
  const auto all = Kokkos::ALL;
  const auto two = std::make_pair(1, 3);
  auto bs = Kokkos::subview(b, all, two, all, two, all, two, all, two);
  auto as = Kokkos::subview(a, all, std::make_pair(0, 2), all, std::make_pair(0, 2), all, std::make_pair(0, 2), all,
                            std::make_pair(0, 2));
  Kokkos::deep_copy(Space(), bs, as);
  Space().fence();
  const auto ha = Kokkos::Test::to_host(a);
  const auto hb = Kokkos::Test::to_host(b);
  int copied = 0;
  for (int i0 = 0; i0 < 2; ++i0)
    for (int i1 = 0; i1 < 3; ++i1)
      for (int i2 = 0; i2 < 2; ++i2)
        for (int i3 = 0; i3 < 3; ++i3)
          for (int i4 = 0; i4 < 2; ++i4)
            for (int i5 = 0; i5 < 3; ++i5)
              for (int i6 = 0; i6 < 2; ++i6)
                for (int i7 = 0; i7 < 3; ++i7) {
                  const bool inside = i1 > 0 && i3 > 0 && i5 > 0 && i7 > 0;
                  const int expect = inside ? ha(i0, i1 - 1, i2, i3 - 1, i4, i5 - 1, i6, i7 - 1) : -1;
                  ASSERT_EQ(hb(i0, i1, i2, i3, i4, i5, i6, i7), expect);
                  copied += inside;
                }
  EXPECT_EQ(copied, 2 * 2 * 2 * 2 * 2 * 2 * 2 * 2);
}

TYPED_TEST(ViewCopySpace, NonContiguousRank3AndRank8) {
  check_strided_copies_in_space<TypeParam, Kokkos::LayoutRight>();
  check_strided_copies_in_space<TypeParam, Kokkos::LayoutLeft>();
}

}  // namespace

// Kokkos::create_mirror_view_and_copy for DynRankView: the same memory space returns the source
// itself (every rank, with or without a label or an execution space in the properties); the
// copying path, which a second memory space (a device) takes, gives a DynRankView of the same
// rank, extents, layout and contents with the requested label.
#include "TestCommon.hpp"

#include <Kokkos_DynRankView.hpp>

#include <string>

namespace {

using Kokkos::DynRankView;

template <class V>
void fill_by_position(const V& v) {
  // Distinct values at distinct positions, whatever the rank.
  auto flat = v.DownCast();
  const std::size_t n[7] = {v.extent(0), v.extent(1), v.extent(2), v.extent(3), v.extent(4), v.extent(5), v.extent(6)};
  for (std::size_t i0 = 0; i0 < n[0]; ++i0)
    for (std::size_t i1 = 0; i1 < n[1]; ++i1)
      for (std::size_t i2 = 0; i2 < n[2]; ++i2)
        for (std::size_t i3 = 0; i3 < n[3]; ++i3)
          for (std::size_t i4 = 0; i4 < n[4]; ++i4)
            for (std::size_t i5 = 0; i5 < n[5]; ++i5)
              for (std::size_t i6 = 0; i6 < n[6]; ++i6)
                flat(i0, i1, i2, i3, i4, i5, i6) =
                    static_cast<double>(((((i0 * 7 + i1) * 7 + i2) * 7 + i3) * 7 + i4) * 7 + i5) * 7 + i6 + 0.5;
}

template <class A, class B>
void expect_same_contents(const A& a, const B& b) {
  ASSERT_EQ(a.rank(), b.rank());
  for (unsigned r = 0; r < 7; ++r) ASSERT_EQ(a.extent(r), b.extent(r)) << r;
  auto fa = a.DownCast();
  auto fb = b.DownCast();
  std::size_t checked = 0;
  for (std::size_t i0 = 0; i0 < a.extent(0); ++i0)
    for (std::size_t i1 = 0; i1 < a.extent(1); ++i1)
      for (std::size_t i2 = 0; i2 < a.extent(2); ++i2)
        for (std::size_t i3 = 0; i3 < a.extent(3); ++i3)
          for (std::size_t i4 = 0; i4 < a.extent(4); ++i4)
            for (std::size_t i5 = 0; i5 < a.extent(5); ++i5)
              for (std::size_t i6 = 0; i6 < a.extent(6); ++i6, ++checked)
                ASSERT_EQ(fa(i0, i1, i2, i3, i4, i5, i6), fb(i0, i1, i2, i3, i4, i5, i6));
  EXPECT_EQ(checked, a.size());
}

template <class Layout>
DynRankView<double, Layout, Kokkos::HostSpace> make_of_rank(unsigned rank) {
  const std::size_t e[7] = {3, 2, 4, 2, 3, 2, 2};
  switch (rank) {
    case 0: return DynRankView<double, Layout, Kokkos::HostSpace>("src");
    case 1: return DynRankView<double, Layout, Kokkos::HostSpace>("src", e[0]);
    case 2: return DynRankView<double, Layout, Kokkos::HostSpace>("src", e[0], e[1]);
    case 3: return DynRankView<double, Layout, Kokkos::HostSpace>("src", e[0], e[1], e[2]);
    case 4: return DynRankView<double, Layout, Kokkos::HostSpace>("src", e[0], e[1], e[2], e[3]);
    case 5: return DynRankView<double, Layout, Kokkos::HostSpace>("src", e[0], e[1], e[2], e[3], e[4]);
    case 6: return DynRankView<double, Layout, Kokkos::HostSpace>("src", e[0], e[1], e[2], e[3], e[4], e[5]);
    default: return DynRankView<double, Layout, Kokkos::HostSpace>("src", e[0], e[1], e[2], e[3], e[4], e[5], e[6]);
  }
}

TEST(DynRankViewMirror, SameSpaceReturnsTheSourceAtEveryRank) {
  for (unsigned rank = 0; rank <= 7; ++rank) {
    auto src = make_of_rank<Kokkos::LayoutRight>(rank);
    fill_by_position(src);
    auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), src);
    static_assert(std::is_same_v<decltype(m), decltype(src)>);
    EXPECT_EQ(m.data(), src.data());
    EXPECT_EQ(m.rank(), rank);
    EXPECT_EQ(m.label(), "src");  // the source itself, not a labelled copy
    auto named = Kokkos::create_mirror_view_and_copy(Kokkos::DefaultHostExecutionSpace(), src, "ignored");
    EXPECT_EQ(named.data(), src.data());
    auto with_exec = Kokkos::create_mirror_view_and_copy(
        Kokkos::view_alloc(Kokkos::HostSpace(), Kokkos::DefaultHostExecutionSpace()), src);
    EXPECT_EQ(with_exec.data(), src.data());
  }
}

TEST(DynRankViewMirror, SameSpaceSeesAKernelsWrites) {
  // Without an execution space in the properties the call fences: a kernel's writes are
  // visible in the returned view.
  DynRankView<int, Kokkos::DefaultHostExecutionSpace> v("v", 1000, 3);
  auto flat = v.DownCast();
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 1000), KOKKOS_LAMBDA(int i) {
        for (int j = 0; j < 3; ++j) flat(i, j, 0, 0, 0, 0, 0) = 3 * i + j;
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (int i = 0; i < 1000; ++i)
    for (int j = 0; j < 3; ++j) ASSERT_EQ(h(i, j), 3 * i + j);
}

// The copying path, as a second memory space takes it: called here directly, with HostSpace
// as the destination.
template <class Layout>
void expect_copy_path_round_trip() {
  using Mirror = Kokkos::Impl::DynRankMirror<Kokkos::HostSpace, double, Layout>;
  for (unsigned rank = 0; rank <= 7; ++rank) {
    auto src = make_of_rank<Layout>(rank);
    fill_by_position(src);
    auto copy = Kokkos::Impl::dyn_rank_mirror_and_copy<Mirror>(Kokkos::view_alloc(Kokkos::HostSpace()), src);
    static_assert(std::is_same_v<typename decltype(copy)::array_layout, Layout>);
    EXPECT_NE(copy.data(), src.data());
    EXPECT_EQ(copy.label(), "src_mirror");
    expect_same_contents(copy, src);
    auto named = Kokkos::Impl::dyn_rank_mirror_and_copy<Mirror>(
        Kokkos::view_alloc(Kokkos::HostSpace(), std::string("device_copy"), Kokkos::DefaultHostExecutionSpace()), src);
    EXPECT_EQ(named.label(), "device_copy");
    expect_same_contents(named, src);
  }
}

TEST(DynRankViewMirror, CopyPathKeepsRankExtentsLayoutAndContents) {
  expect_copy_path_round_trip<Kokkos::LayoutRight>();
  expect_copy_path_round_trip<Kokkos::LayoutLeft>();
}

TEST(DynRankViewMirror, CopyPathOfAStridedSubview) {
  DynRankView<double, Kokkos::HostSpace> big("big", 5, 6);
  fill_by_position(big);
  auto column = Kokkos::subdynrankview(big, Kokkos::ALL, 4);  // LayoutStride, rank 1
  using Mirror = Kokkos::Impl::DynRankMirror<Kokkos::HostSpace, double, Kokkos::LayoutStride>;
  auto copy = Kokkos::Impl::dyn_rank_mirror_and_copy<Mirror>(Kokkos::view_alloc(Kokkos::HostSpace()), column);
  ASSERT_EQ(copy.rank(), 1u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(copy(i), big(i, 4));
  auto same = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), column);
  EXPECT_EQ(same.data(), column.data());
}

}  // namespace

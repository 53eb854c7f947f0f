// Sizes that cannot be allocated are bad input, not a crash: a View whose byte size overflows
// std::size_t throws before allocating, naming its label and extents; a failed allocation
// throws in Kokkos' words, naming the label and the size.
#include "TestCommon.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace {

// The message of the std::runtime_error that `make` throws ("" when it throws nothing).
template <class Make>
std::string thrown_message(const Make& make) {
  try {
    make();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(ViewOverflow, Rank1ByteCountOverflows) {
  const std::string what = thrown_message([] { Kokkos::View<double*, Kokkos::HostSpace> v("huge", SIZE_MAX / 4); });
  EXPECT_EQ(what, "Kokkos::View \"huge\": the allocation size of extents (" + std::to_string(SIZE_MAX / 4) +
                      ") with 8-byte elements overflows std::size_t");
}

TEST(ViewOverflow, ElementCountOverflows) {
  const std::string what = thrown_message(
      [] { Kokkos::View<double**, Kokkos::HostSpace> v("square", std::size_t(1) << 33, std::size_t(1) << 33); });
  EXPECT_EQ(what,
            "Kokkos::View \"square\": the allocation size of extents (8589934592, 8589934592) with 8-byte elements "
            "overflows std::size_t");
  // the strides of rank 0 wrap around to 0 here: the check must not trust them
  EXPECT_NE(thrown_message([] {
              Kokkos::View<char***, Kokkos::HostSpace> v("wrap", 2, std::size_t(1) << 32, std::size_t(1) << 32);
            }).find("\"wrap\": the allocation size of extents (2, 4294967296, 4294967296) with 1-byte"),
            std::string::npos);
  // static extents count too
  EXPECT_NE(thrown_message([] { Kokkos::View<double* [1024], Kokkos::HostSpace> v("static", SIZE_MAX / 1024); })
                .find("overflows std::size_t"),
            std::string::npos);
}

TEST(ViewOverflow, ViewAllocAndLayoutStride) {
  EXPECT_NE(thrown_message([] {
              Kokkos::View<int*, Kokkos::HostSpace> v(Kokkos::view_alloc("noinit", Kokkos::WithoutInitializing),
                                                      SIZE_MAX / 2);
            }).find("\"noinit\""),
            std::string::npos);
  // the span of explicit strides overflows even though the element count does not
  EXPECT_NE(thrown_message([] {
              Kokkos::View<int**, Kokkos::LayoutStride, Kokkos::HostSpace> v(
                  "strided", Kokkos::LayoutStride(4, SIZE_MAX / 2, 4, 1));
            }).find("\"strided\": the allocation size of extents (4, 4)"),
            std::string::npos);
}

TEST(ViewOverflow, FailedAllocation) {
  // 1 TiB: more than this machine has (and than the sanitizers allow)
  const std::string what = thrown_message([] { Kokkos::View<char*, Kokkos::HostSpace> v("tebi", std::size_t(1) << 40); });
  EXPECT_NE(what.find("Kokkos failed to allocate memory for label \"tebi\""), std::string::npos) << what;
  EXPECT_NE(what.find("Allocation of size 1099511627776 B failed"), std::string::npos) << what;
  // a byte count just under SIZE_MAX must not wrap around when rounded up to the alignment
  const std::string near_max =
      thrown_message([] { Kokkos::View<char*, Kokkos::HostSpace> v("near_max", SIZE_MAX - 7); });
  EXPECT_NE(near_max.find("label \"near_max\""), std::string::npos) << near_max;
}

TEST(ViewOverflow, EdgeSizesStillWork) {
  Kokkos::View<double**, Kokkos::HostSpace> empty("empty", std::size_t(1) << 62, 0);  // no elements, no bytes
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.span(), 0u);
  Kokkos::View<double**, Kokkos::HostSpace> fine("fine", 1000, 1000);
  EXPECT_EQ(fine.span(), 1000000u);
}

}  // namespace

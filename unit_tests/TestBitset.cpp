// Kokkos::Bitset / ConstBitset: sizes around the 32-bit block boundary, set/reset/test and their
// return values, whole-set operations, atomic updates from kernels, the near-hint searches and
// deep_copy.
#include "TestCommon.hpp"

#include <Kokkos_Bitset.hpp>

#include <stdexcept>
#include <vector>

namespace {

template <class Space>
struct BitsetTyped : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(BitsetTyped, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

// Every thread sets the even bits and resets some of them again; each bit is changed by exactly
// one successful call however the threads interleave.
TYPED_TEST(BitsetTyped, AtomicSetResetFromKernels) {
  using Space = TypeParam;
  for (unsigned n : {1u, 31u, 32u, 33u, 1000u}) {
    Kokkos::Bitset<Space> bits(n);
    EXPECT_EQ(bits.size(), n);
    EXPECT_EQ(bits.count(), 0u);
    Kokkos::View<unsigned, Space> wins("wins");
    const int threads_per_bit = 8;
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Space>(0, int(n) * threads_per_bit), KOKKOS_LAMBDA(int t) {
          const unsigned i = unsigned(t % int(n));
          if (i % 2 == 0 && bits.set(i)) Kokkos::atomic_inc(&wins());
        });
    Space().fence();
    EXPECT_EQ(wins(), (n + 1) / 2);
    EXPECT_EQ(bits.count(), (n + 1) / 2);
    Kokkos::deep_copy(wins, 0u);
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Space>(0, int(n) * threads_per_bit), KOKKOS_LAMBDA(int t) {
          const unsigned i = unsigned(t % int(n));
          if (i % 4 == 0 && bits.reset(i)) Kokkos::atomic_inc(&wins());
        });
    Space().fence();
    EXPECT_EQ(wins(), (n + 3) / 4);
    for (unsigned i = 0; i < n; ++i) ASSERT_EQ(bits.test(i), i % 4 == 2) << i;
  }
}

TEST(Bitset, WholeSetOperationsKeepTheTailClear) {
  Kokkos::Bitset<Kokkos::DefaultHostExecutionSpace> bits(37);
  bits.set();
  EXPECT_EQ(bits.count(), 37u);
  EXPECT_TRUE(bits.test(36));
  EXPECT_FALSE(bits.test(37));  // past the end
  EXPECT_FALSE(bits.set(37));
  EXPECT_FALSE(bits.reset(40));
  bits.reset();
  EXPECT_EQ(bits.count(), 0u);
  bits.set();
  bits.clear();
  EXPECT_EQ(bits.count(), 0u);
  EXPECT_TRUE(bits.set(5));
  EXPECT_FALSE(bits.set(5));
  EXPECT_TRUE(bits.reset(5));
  EXPECT_FALSE(bits.reset(5));
  EXPECT_EQ(bits.max_hint(), 2u);
  EXPECT_TRUE(bits.is_allocated());
  Kokkos::Bitset<Kokkos::DefaultHostExecutionSpace> empty;
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.count(), 0u);
  EXPECT_FALSE(empty.test(0));
  EXPECT_FALSE(empty.find_any_set_near(0).first);
}

TEST(Bitset, FindNearHint) {
  using B = Kokkos::Bitset<Kokkos::DefaultHostExecutionSpace>;
  B bits(100);  // blocks [0,32) [32,64) [64,96) [96,100)
  bits.set(40);
  bits.set(50);
  auto r = bits.find_any_set_near(45);
  EXPECT_TRUE(r.first);
  EXPECT_EQ(r.second, 50u);  // forward from 45
  r = bits.find_any_set_near(51);
  EXPECT_EQ(r.second, 40u);  // cyclic within the block
  r = bits.find_any_set_near(45, B::BIT_SCAN_REVERSE_MOVE_HINT_FORWARD);
  EXPECT_EQ(r.second, 40u);
  r = bits.find_any_set_near(70);  // empty block: the next hint, same offset
  EXPECT_FALSE(r.first);
  EXPECT_EQ(r.second, 96u + 6u);
  r = bits.find_any_set_near(70, B::BIT_SCAN_FORWARD_MOVE_HINT_BACKWARD);
  EXPECT_EQ(r.second, 32u + 6u);
  r = bits.find_any_set_near(97);  // last block wraps to the first
  EXPECT_FALSE(r.first);
  EXPECT_EQ(r.second, 1u);
  r = bits.find_any_unset_near(96);
  EXPECT_TRUE(r.first);
  EXPECT_EQ(r.second, 96u);
  bits.set();
  r = bits.find_any_unset_near(97);  // the bits past size() never count as unset
  EXPECT_FALSE(r.first);
  bits.reset(99);
  r = bits.find_any_unset_near(97);
  EXPECT_TRUE(r.first);
  EXPECT_EQ(r.second, 99u);
  r = bits.find_any_unset_near(5000);  // a hint out of range starts at block 0
  EXPECT_FALSE(r.first);
}

TEST(Bitset, ConstBitsetAndDeepCopy) {
  Kokkos::Bitset<Kokkos::DefaultHostExecutionSpace> a(70), b(70), wrong(69);
  a.set(3);
  a.set(69);
  Kokkos::ConstBitset<Kokkos::DefaultHostExecutionSpace> ca(a);
  EXPECT_EQ(ca.size(), 70u);
  EXPECT_TRUE(ca.test(69));
  EXPECT_EQ(ca.count(), 2u);
  Kokkos::deep_copy(b, a);
  EXPECT_TRUE(b.test(3));
  EXPECT_EQ(b.count(), 2u);
  Kokkos::Bitset<Kokkos::HostSpace> host(70);
  Kokkos::deep_copy(host, ca);
  EXPECT_TRUE(host.test(69));
  Kokkos::Bitset<Kokkos::DefaultHostExecutionSpace> c(70);
  Kokkos::ConstBitset<Kokkos::DefaultHostExecutionSpace> cc(c);
  Kokkos::deep_copy(cc, ca);
  EXPECT_TRUE(c.test(3));
  EXPECT_THROW(Kokkos::deep_copy(wrong, a), std::runtime_error);
  Kokkos::Bitset<Kokkos::DefaultHostExecutionSpace> labelled(Kokkos::view_alloc("mine"), 8);
  EXPECT_EQ(labelled.size(), 8u);
}

}  // namespace

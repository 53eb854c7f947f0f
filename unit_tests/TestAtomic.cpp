// Kokkos atomics (Kokkos_Atomic.hpp): every public function and the Kokkos::Impl memory-order
// variants, for int32, uint32, int64, uint64, float, double and for types that take the lock
// fallback; exact results and old/new return values; concurrency through parallel_for on every
// enabled back end.
#include "TestCommon.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

template <class Space>
struct AtomicTest : Kokkos::Test::SpaceTest<Space> {};
TYPED_TEST_SUITE(AtomicTest, Kokkos::Test::ExecSpaces, Kokkos::Test::SpaceNames);

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "uint64";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else return "other";
}

// A 16-byte type: never lock-free here, so it exercises the striped-lock fallback.
struct Pair16 {
  double a;
  double b;
  KOKKOS_INLINE_FUNCTION Pair16 operator+(const Pair16& o) const { return {a + o.a, b + o.b}; }
  KOKKOS_INLINE_FUNCTION bool operator==(const Pair16& o) const { return a == o.a && b == o.b; }
};
static_assert(sizeof(Pair16) == 16);

// 8 bytes but only 4-byte aligned: also takes the lock fallback.
struct Float2 {
  float x;
  float y;
  KOKKOS_INLINE_FUNCTION Float2 operator+(const Float2& o) const { return {x + o.x, y + o.y}; }
  KOKKOS_INLINE_FUNCTION bool operator==(const Float2& o) const { return x == o.x && y == o.y; }
};
static_assert(sizeof(Float2) == 8 && alignof(Float2) == 4);

// Sequential checks written as device-callable functions that return 0, or the line of the first
// failing check, so that they run inside a parallel_for on every back end as well as on the host.
// They work on memory handed in (on a GPU, atomics need global memory, not a local variable).
#define ATOMIC_CHECK(cond)        \
  do {                            \
    if (!(cond)) return __LINE__; \
  } while (false)

template <class T>
KOKKOS_INLINE_FUNCTION int check_common_ops(T* const px) {
  T& x = *px;
  x = T(10);
  // load / store / assign / exchange
  ATOMIC_CHECK(Kokkos::atomic_load(&x) == T(10));
  Kokkos::atomic_store(&x, T(7));
  ATOMIC_CHECK(x == T(7));
  Kokkos::atomic_assign(&x, T(8));
  ATOMIC_CHECK(x == T(8));
  ATOMIC_CHECK(Kokkos::atomic_exchange(&x, T(9)) == T(8));
  ATOMIC_CHECK(x == T(9));
  // compare_exchange: success returns the old value and stores; failure returns the current
  // value and leaves it unchanged.
  ATOMIC_CHECK(Kokkos::atomic_compare_exchange(&x, T(9), T(11)) == T(9));
  ATOMIC_CHECK(x == T(11));
  ATOMIC_CHECK(Kokkos::atomic_compare_exchange(&x, T(9), T(12)) == T(11));
  ATOMIC_CHECK(x == T(11));
  ATOMIC_CHECK(Kokkos::atomic_compare_exchange_strong(&x, T(11), T(13)));
  ATOMIC_CHECK(x == T(13));
  ATOMIC_CHECK(!Kokkos::atomic_compare_exchange_strong(&x, T(11), T(14)));
  ATOMIC_CHECK(x == T(13));
  // add
  x = T(10);
  ATOMIC_CHECK(Kokkos::atomic_fetch_add(&x, T(5)) == T(10));
  ATOMIC_CHECK(x == T(15));
  ATOMIC_CHECK(Kokkos::atomic_add_fetch(&x, T(5)) == T(20));
  ATOMIC_CHECK(x == T(20));
  Kokkos::atomic_add(&x, T(5));
  ATOMIC_CHECK(x == T(25));
  // sub
  ATOMIC_CHECK(Kokkos::atomic_fetch_sub(&x, T(5)) == T(25));
  ATOMIC_CHECK(x == T(20));
  ATOMIC_CHECK(Kokkos::atomic_sub_fetch(&x, T(5)) == T(15));
  ATOMIC_CHECK(x == T(15));
  Kokkos::atomic_sub(&x, T(5));
  ATOMIC_CHECK(x == T(10));
  // max (larger, smaller, equal)
  ATOMIC_CHECK(Kokkos::atomic_fetch_max(&x, T(20)) == T(10));
  ATOMIC_CHECK(x == T(20));
  ATOMIC_CHECK(Kokkos::atomic_fetch_max(&x, T(5)) == T(20));
  ATOMIC_CHECK(x == T(20));
  ATOMIC_CHECK(Kokkos::atomic_fetch_max(&x, T(20)) == T(20));
  ATOMIC_CHECK(x == T(20));
  ATOMIC_CHECK(Kokkos::atomic_max_fetch(&x, T(30)) == T(30));
  ATOMIC_CHECK(Kokkos::atomic_max_fetch(&x, T(1)) == T(30));
  ATOMIC_CHECK(Kokkos::atomic_max_fetch(&x, T(30)) == T(30));
  Kokkos::atomic_max(&x, T(40));
  ATOMIC_CHECK(x == T(40));
  Kokkos::atomic_max(&x, T(39));
  ATOMIC_CHECK(x == T(40));
  // min (smaller, larger, equal)
  ATOMIC_CHECK(Kokkos::atomic_fetch_min(&x, T(30)) == T(40));
  ATOMIC_CHECK(x == T(30));
  ATOMIC_CHECK(Kokkos::atomic_fetch_min(&x, T(35)) == T(30));
  ATOMIC_CHECK(x == T(30));
  ATOMIC_CHECK(Kokkos::atomic_fetch_min(&x, T(30)) == T(30));
  ATOMIC_CHECK(x == T(30));
  ATOMIC_CHECK(Kokkos::atomic_min_fetch(&x, T(20)) == T(20));
  ATOMIC_CHECK(Kokkos::atomic_min_fetch(&x, T(25)) == T(20));
  ATOMIC_CHECK(Kokkos::atomic_min_fetch(&x, T(20)) == T(20));
  Kokkos::atomic_min(&x, T(3));
  ATOMIC_CHECK(x == T(3));
  Kokkos::atomic_min(&x, T(4));
  ATOMIC_CHECK(x == T(3));
  // mul
  ATOMIC_CHECK(Kokkos::atomic_fetch_mul(&x, T(4)) == T(3));
  ATOMIC_CHECK(x == T(12));
  ATOMIC_CHECK(Kokkos::atomic_mul_fetch(&x, T(2)) == T(24));
  Kokkos::atomic_mul(&x, T(2));
  ATOMIC_CHECK(x == T(48));
  // div
  ATOMIC_CHECK(Kokkos::atomic_fetch_div(&x, T(2)) == T(48));
  ATOMIC_CHECK(x == T(24));
  ATOMIC_CHECK(Kokkos::atomic_div_fetch(&x, T(4)) == T(6));
  Kokkos::atomic_div(&x, T(3));
  ATOMIC_CHECK(x == T(2));
  // inc / dec in all spellings
  x = T(5);
  ATOMIC_CHECK(Kokkos::atomic_fetch_inc(&x) == T(5));
  ATOMIC_CHECK(x == T(6));
  ATOMIC_CHECK(Kokkos::atomic_inc_fetch(&x) == T(7));
  ATOMIC_CHECK(Kokkos::atomic_fetch_dec(&x) == T(7));
  ATOMIC_CHECK(x == T(6));
  ATOMIC_CHECK(Kokkos::atomic_dec_fetch(&x) == T(5));
  Kokkos::atomic_increment(&x);
  ATOMIC_CHECK(x == T(6));
  Kokkos::atomic_inc(&x);
  ATOMIC_CHECK(x == T(7));
  Kokkos::atomic_decrement(&x);
  ATOMIC_CHECK(x == T(6));
  Kokkos::atomic_dec(&x);
  ATOMIC_CHECK(x == T(5));
  // value arguments are not deduced: a literal of another type converts to T
  Kokkos::atomic_add(&x, 1);
  ATOMIC_CHECK(x == T(6));
  // fences
  Kokkos::memory_fence();
  Kokkos::load_fence();
  Kokkos::store_fence();
  // Impl memory-order variants
  ATOMIC_CHECK(Kokkos::Impl::atomic_load_relaxed(&x) == T(6));
  ATOMIC_CHECK(Kokkos::Impl::atomic_load_acquire(&x) == T(6));
  Kokkos::Impl::atomic_store_relaxed(&x, T(3));
  ATOMIC_CHECK(x == T(3));
  Kokkos::Impl::atomic_store_release(&x, T(4));
  ATOMIC_CHECK(x == T(4));
  ATOMIC_CHECK(Kokkos::Impl::atomic_fetch_add_relaxed(&x, T(2)) == T(4));
  ATOMIC_CHECK(Kokkos::Impl::atomic_fetch_add_acq_rel(&x, T(2)) == T(6));
  ATOMIC_CHECK(Kokkos::Impl::atomic_fetch_sub_acq_rel(&x, T(3)) == T(8));
  ATOMIC_CHECK(x == T(5));
  // weak CAS: failure reports the current value in `expected` and leaves *dest unchanged;
  // success may need retries (spurious failure) and stores.
  T expected = T(1);
  ATOMIC_CHECK(!Kokkos::Impl::atomic_compare_exchange_weak_acq_rel(&x, expected, T(9)));
  ATOMIC_CHECK(expected == T(5));
  ATOMIC_CHECK(x == T(5));
  int tries = 0;
  while (!Kokkos::Impl::atomic_compare_exchange_weak_acq_rel(&x, expected, T(9)) && tries < 1000) {
    ATOMIC_CHECK(expected == T(5));
    ++tries;
  }
  ATOMIC_CHECK(x == T(9));
  ATOMIC_CHECK(expected == T(5));
  // seq_cst variants (the public functions are relaxed, as Kokkos 4's)
  static_assert(Kokkos::Impl::atomic_public_order == Kokkos::Impl::atomic_order::relaxed);
  Kokkos::Impl::atomic_store_seq_cst(&x, T(2));
  ATOMIC_CHECK(x == T(2));
  ATOMIC_CHECK(Kokkos::Impl::atomic_exchange_seq_cst(&x, T(7)) == T(2));
  ATOMIC_CHECK(Kokkos::Impl::atomic_compare_exchange_seq_cst(&x, T(6), T(1)) == T(7));  // fails
  ATOMIC_CHECK(x == T(7));
  ATOMIC_CHECK(Kokkos::Impl::atomic_compare_exchange_seq_cst(&x, T(7), T(3)) == T(7));
  ATOMIC_CHECK(Kokkos::Impl::atomic_fetch_add_seq_cst(&x, T(6)) == T(3));
  ATOMIC_CHECK(x == T(9));
  // const pointer loads
  const T* cx = &x;
  ATOMIC_CHECK(Kokkos::atomic_load(cx) == T(9));
  ATOMIC_CHECK(Kokkos::Impl::atomic_load_acquire(cx) == T(9));
  Kokkos::Impl::pause();
  return 0;
}

template <class T>
KOKKOS_INLINE_FUNCTION int check_integer_ops(T* const px) {
  constexpr unsigned bits = 8 * sizeof(T);
  T& x = *px;
  x = T(17);
  // mod
  ATOMIC_CHECK(Kokkos::atomic_fetch_mod(&x, T(5)) == T(17));
  ATOMIC_CHECK(x == T(2));
  x = T(17);
  ATOMIC_CHECK(Kokkos::atomic_mod_fetch(&x, T(5)) == T(2));
  x = T(17);
  Kokkos::atomic_mod(&x, T(10));
  ATOMIC_CHECK(x == T(7));
  // and / or / xor / nand
  x = T(12);  // 0b1100
  ATOMIC_CHECK(Kokkos::atomic_fetch_and(&x, T(10)) == T(12));
  ATOMIC_CHECK(x == T(8));
  ATOMIC_CHECK(Kokkos::atomic_and_fetch(&x, T(24)) == T(8));
  Kokkos::atomic_and(&x, T(7));
  ATOMIC_CHECK(x == T(0));
  ATOMIC_CHECK(Kokkos::atomic_fetch_or(&x, T(3)) == T(0));
  ATOMIC_CHECK(x == T(3));
  ATOMIC_CHECK(Kokkos::atomic_or_fetch(&x, T(12)) == T(15));
  Kokkos::atomic_or(&x, T(16));
  ATOMIC_CHECK(x == T(31));
  ATOMIC_CHECK(Kokkos::atomic_fetch_xor(&x, T(5)) == T(31));
  ATOMIC_CHECK(x == T(26));
  ATOMIC_CHECK(Kokkos::atomic_xor_fetch(&x, T(26)) == T(0));
  Kokkos::atomic_xor(&x, T(9));
  ATOMIC_CHECK(x == T(9));
  x = T(12);
  ATOMIC_CHECK(Kokkos::atomic_fetch_nand(&x, T(10)) == T(12));
  ATOMIC_CHECK(x == T(~T(8)));
  x = T(12);
  ATOMIC_CHECK(Kokkos::atomic_nand_fetch(&x, T(12)) == T(~T(12)));
  x = T(-1);
  Kokkos::atomic_nand(&x, T(-1));
  ATOMIC_CHECK(x == T(0));
  // shifts
  x = T(3);
  ATOMIC_CHECK(Kokkos::atomic_fetch_lshift(&x, 2) == T(3));
  ATOMIC_CHECK(x == T(12));
  ATOMIC_CHECK(Kokkos::atomic_lshift_fetch(&x, 1) == T(24));
  Kokkos::atomic_lshift(&x, 3);
  ATOMIC_CHECK(x == T(192));
  ATOMIC_CHECK(Kokkos::atomic_fetch_rshift(&x, 3) == T(192));
  ATOMIC_CHECK(x == T(24));
  ATOMIC_CHECK(Kokkos::atomic_rshift_fetch(&x, 1) == T(12));
  Kokkos::atomic_rshift(&x, 2);
  ATOMIC_CHECK(x == T(3));
  x = T(1);
  Kokkos::atomic_lshift(&x, bits - 2);  // highest value bit of a signed type
  ATOMIC_CHECK(x == T(T(1) << (bits - 2)));
  ATOMIC_CHECK(Kokkos::atomic_rshift_fetch(&x, bits - 2) == T(1));
  Kokkos::atomic_lshift(&x, 0);
  ATOMIC_CHECK(x == T(1));
  if constexpr (std::is_unsigned_v<T>) {
    x = T(1);
    ATOMIC_CHECK(Kokkos::atomic_lshift_fetch(&x, bits - 1) == T(T(1) << (bits - 1)));
    ATOMIC_CHECK(Kokkos::atomic_rshift_fetch(&x, bits - 1) == T(1));
    // unsigned wrap-around
    x = T(0);
    ATOMIC_CHECK(Kokkos::atomic_fetch_dec(&x) == T(0));
    ATOMIC_CHECK(x == T(~T(0)));
    ATOMIC_CHECK(Kokkos::atomic_inc_fetch(&x) == T(0));
  } else {
    // negative values: arithmetic, max/min, arithmetic shift
    x = T(-5);
    ATOMIC_CHECK(Kokkos::atomic_fetch_add(&x, T(-3)) == T(-5));
    ATOMIC_CHECK(x == T(-8));
    ATOMIC_CHECK(Kokkos::atomic_fetch_max(&x, T(-10)) == T(-8));
    ATOMIC_CHECK(x == T(-8));
    ATOMIC_CHECK(Kokkos::atomic_min_fetch(&x, T(-10)) == T(-10));
    ATOMIC_CHECK(Kokkos::atomic_max_fetch(&x, T(0)) == T(0));
    ATOMIC_CHECK(Kokkos::atomic_sub_fetch(&x, T(16)) == T(-16));
    ATOMIC_CHECK(Kokkos::atomic_rshift_fetch(&x, 2) == T(-4));
    ATOMIC_CHECK(Kokkos::atomic_mul_fetch(&x, T(-3)) == T(12));
    ATOMIC_CHECK(Kokkos::atomic_div_fetch(&x, T(-4)) == T(-3));
    ATOMIC_CHECK(Kokkos::atomic_mod_fetch(&x, T(2)) == T(-1));
  }
  if constexpr (sizeof(T) == 8) {
    // values beyond 32 bits
    x = T(1) << 40;
    ATOMIC_CHECK(Kokkos::atomic_add_fetch(&x, T(1) << 40) == T(1) << 41);
    ATOMIC_CHECK(Kokkos::atomic_fetch_or(&x, T(1) << 62) == T(1) << 41);
    ATOMIC_CHECK(x == T((T(1) << 62) | (T(1) << 41)));
    ATOMIC_CHECK(Kokkos::atomic_compare_exchange(&x, T(1) << 41, T(0)) == x);  // fails: high bit
    ATOMIC_CHECK(Kokkos::atomic_exchange(&x, T(1) << 33) == T((T(1) << 62) | (T(1) << 41)));
    ATOMIC_CHECK(Kokkos::atomic_max_fetch(&x, T(1) << 32) == T(1) << 33);
    ATOMIC_CHECK(Kokkos::atomic_min_fetch(&x, T(1) << 32) == T(1) << 32);
  }
  // Impl or / and
  x = T(5);
  ATOMIC_CHECK(Kokkos::Impl::atomic_fetch_or_acq_rel(&x, T(10)) == T(5));
  ATOMIC_CHECK(x == T(15));
  ATOMIC_CHECK(Kokkos::Impl::atomic_fetch_and_acq_rel(&x, T(6)) == T(15));
  ATOMIC_CHECK(x == T(6));
  return 0;
}

template <class T>
KOKKOS_INLINE_FUNCTION int check_floating_ops(T* const px) {
  T& x = *px;
  x = T(1.5);
  ATOMIC_CHECK(Kokkos::atomic_fetch_add(&x, T(0.25)) == T(1.5));
  ATOMIC_CHECK(x == T(1.75));
  ATOMIC_CHECK(Kokkos::atomic_sub_fetch(&x, T(2)) == T(-0.25));
  ATOMIC_CHECK(Kokkos::atomic_fetch_max(&x, T(-0.5)) == T(-0.25));
  ATOMIC_CHECK(x == T(-0.25));
  ATOMIC_CHECK(Kokkos::atomic_min_fetch(&x, T(-0.5)) == T(-0.5));
  ATOMIC_CHECK(Kokkos::atomic_mul_fetch(&x, T(-3)) == T(1.5));
  ATOMIC_CHECK(Kokkos::atomic_div_fetch(&x, T(4)) == T(0.375));
  ATOMIC_CHECK(Kokkos::atomic_compare_exchange(&x, T(0.375), T(2.5)) == T(0.375));
  ATOMIC_CHECK(Kokkos::atomic_compare_exchange(&x, T(0.375), T(3.5)) == T(2.5));
  ATOMIC_CHECK(x == T(2.5));
  ATOMIC_CHECK(Kokkos::atomic_inc_fetch(&x) == T(3.5));
  return 0;
}

// The lock fallback: load/store/exchange/compare_exchange/add/add_fetch on a type U that is not
// lock-free, built from two T.
template <class U>
KOKKOS_INLINE_FUNCTION int check_locked_ops(U* const px) {
  U& x = *px;
  x = U{1, 2};
  ATOMIC_CHECK(Kokkos::atomic_load(&x) == (U{1, 2}));
  Kokkos::atomic_store(&x, U{3, 4});
  ATOMIC_CHECK(x == (U{3, 4}));
  ATOMIC_CHECK(Kokkos::atomic_exchange(&x, U{5, 6}) == (U{3, 4}));
  ATOMIC_CHECK(x == (U{5, 6}));
  ATOMIC_CHECK(Kokkos::atomic_fetch_add(&x, U{1, 1}) == (U{5, 6}));
  ATOMIC_CHECK(Kokkos::atomic_add_fetch(&x, U{1, 1}) == (U{7, 8}));
  Kokkos::atomic_add(&x, U{-7, -8});
  ATOMIC_CHECK(x == (U{0, 0}));
  ATOMIC_CHECK(Kokkos::atomic_compare_exchange(&x, U{0, 0}, U{9, 9}) == (U{0, 0}));
  ATOMIC_CHECK(x == (U{9, 9}));
  ATOMIC_CHECK(Kokkos::atomic_compare_exchange(&x, U{9, 8}, U{1, 1}) == (U{9, 9}));  // fails
  ATOMIC_CHECK(x == (U{9, 9}));
  ATOMIC_CHECK(Kokkos::atomic_compare_exchange_strong(&x, U{9, 9}, U{2, 3}));
  ATOMIC_CHECK(!Kokkos::atomic_compare_exchange_strong(&x, U{9, 9}, U{4, 4}));
  ATOMIC_CHECK(x == (U{2, 3}));
  U expected{0, 0};
  ATOMIC_CHECK(!Kokkos::Impl::atomic_compare_exchange_weak_acq_rel(&x, expected, U{5, 5}));
  ATOMIC_CHECK(expected == (U{2, 3}));
  while (!Kokkos::Impl::atomic_compare_exchange_weak_acq_rel(&x, expected, U{5, 5})) {
  }
  ATOMIC_CHECK(x == (U{5, 5}));
  ATOMIC_CHECK(Kokkos::Impl::atomic_load_acquire(&x) == (U{5, 5}));
  Kokkos::Impl::atomic_store_release(&x, U{6, 6});
  ATOMIC_CHECK(Kokkos::atomic_load(&x) == (U{6, 6}));
  return 0;
}
#undef ATOMIC_CHECK


// n values of T in Space's memory space (atomics are exercised on the memory a kernel of that
// space really uses), filled from and read back to the host.
template <class Space, class T>
class SpaceArray {
 public:
  using memory_space = typename Space::memory_space;
  explicit SpaceArray(const std::vector<T>& init)
      : n_(init.size()), p_(static_cast<T*>(memory_space().allocate("TestAtomic", bytes()))) {
    if (n_ > 0) Kokkos::deep_copy(bytes_in_space(p_), host_bytes(init.data()));
  }
  SpaceArray(std::size_t n, const T& value) : SpaceArray(std::vector<T>(n, value)) {}
  ~SpaceArray() { memory_space().deallocate("TestAtomic", p_, bytes()); }
  SpaceArray(const SpaceArray&) = delete;
  SpaceArray& operator=(const SpaceArray&) = delete;

  T* data() const { return p_; }
  std::vector<T> host() const {
    std::vector<T> h(n_);
    if (n_ > 0) Kokkos::deep_copy(host_bytes(h.data()), bytes_in_space(p_));
    return h;
  }

 private:
  std::size_t bytes() const { return (n_ > 0 ? n_ : 1) * sizeof(T); }
  // The array's bytes as unmanaged Views, so that deep_copy moves them between the host and the
  // space's memory (a device's included).
  using Bytes = Kokkos::View<unsigned char*, memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using HostBytes = Kokkos::View<unsigned char*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Bytes bytes_in_space(T* p) const { return Bytes(reinterpret_cast<unsigned char*>(p), n_ * sizeof(T)); }
  HostBytes host_bytes(const T* p) const {
    return HostBytes(reinterpret_cast<unsigned char*>(const_cast<T*>(p)), n_ * sizeof(T));
  }
  std::size_t n_;
  T* p_;
};

// Runs `check(T*)` once on the host (on a host variable) and once inside a one-iteration
// parallel_for on Space (on memory of Space's memory space).
template <class Space, class T, class Check>
void run_checks(const std::string& what, Check check) {
  T host_value{};
  EXPECT_EQ(check(&host_value), 0) << what << " on the host: the value is the line of the failing check";
  SpaceArray<Space, T> scratch(1, T{});
  SpaceArray<Space, int> result(1, -1);
  T* x = scratch.data();
  int* r = result.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, 1), KOKKOS_LAMBDA(const int) { *r = check(x); });
  Kokkos::fence();
  EXPECT_EQ(result.host()[0], 0) << what << " in parallel_for on " << Space::name()
                                 << ": the value is the line of the failing check";
}

template <class Space, class T>
void sequential_checks() {
  run_checks<Space, T>("common ops, " + type_name<T>(),
                       [] KOKKOS_IMPL_HOST_DEVICE(T* x) { return check_common_ops<T>(x); });
  if constexpr (std::is_integral_v<T>) {
    run_checks<Space, T>("integer ops, " + type_name<T>(),
                         [] KOKKOS_IMPL_HOST_DEVICE(T* x) { return check_integer_ops<T>(x); });
  } else {
    run_checks<Space, T>("floating ops, " + type_name<T>(),
                         [] KOKKOS_IMPL_HOST_DEVICE(T* x) { return check_floating_ops<T>(x); });
  }
}

#define FOR_EACH_ATOMIC_TYPE(FN, SPACE) \
  FN<SPACE, std::int32_t>();            \
  FN<SPACE, std::uint32_t>();           \
  FN<SPACE, std::int64_t>();            \
  FN<SPACE, std::uint64_t>();           \
  FN<SPACE, float>();                   \
  FN<SPACE, double>()

// Problem size for which every partial sum 0 + 1 + ... + (n-1) stays exact and in range
// (float: below 2^24; int32: below 2^31).
template <class T>
constexpr int concurrency_n() {
  return std::is_same_v<T, float> ? 4096 : 60000;
}

TYPED_TEST(AtomicTest, SequentialOps) {
  FOR_EACH_ATOMIC_TYPE(sequential_checks, TypeParam);
}

TYPED_TEST(AtomicTest, LockFallbackSequential) {
  run_checks<TypeParam, Pair16>("16-byte struct",
                                [] KOKKOS_IMPL_HOST_DEVICE(Pair16* x) { return check_locked_ops<Pair16>(x); });
  run_checks<TypeParam, Float2>("under-aligned 8-byte struct",
                                [] KOKKOS_IMPL_HOST_DEVICE(Float2* x) { return check_locked_ops<Float2>(x); });
}

// Every index adds 1 and adds i; also sub and fetch_dec from n down to 0.
template <class Space, class T>
void concurrent_add_sub() {
  SCOPED_TRACE(type_name<T>());
  const int n = concurrency_n<T>();
  SpaceArray<Space, T> counts({T(0), T(0), T(n), T(n)});
  T* c = counts.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const int i) {
    Kokkos::atomic_add(&c[0], T(1));
    Kokkos::atomic_fetch_add(&c[1], T(i));
    Kokkos::atomic_sub(&c[2], T(1));
    Kokkos::atomic_fetch_dec(&c[3]);
  });
  Kokkos::fence();
  const std::vector<T> h = counts.host();
  EXPECT_EQ(h[0], T(n));
  EXPECT_EQ(h[1], T(static_cast<std::int64_t>(n) * (n - 1) / 2));
  EXPECT_EQ(h[2], T(0));
  EXPECT_EQ(h[3], T(0));
}

TYPED_TEST(AtomicTest, ConcurrentAddSub) {
  FOR_EACH_ATOMIC_TYPE(concurrent_add_sub, TypeParam);
}

// max/min over a scrambled order of 0..n-1 find the true max and min; with the _fetch spellings
// the returned value is never below (above) the value offered.
template <class Space, class T>
void concurrent_max_min() {
  SCOPED_TRACE(type_name<T>());
  const int n = concurrency_n<T>();
  SpaceArray<Space, T> m({T(0), T(n), T(0), T(n)});
  SpaceArray<Space, int> bad(1, 0);
  T* p = m.data();
  int* b = bad.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const int i) {
    const T v = T((static_cast<std::int64_t>(i) * 7919) % n);  // 7919 is prime: a permutation
    Kokkos::atomic_max(&p[0], v);
    Kokkos::atomic_min(&p[1], v);
    if (Kokkos::atomic_max_fetch(&p[2], v) < v) Kokkos::atomic_inc(b);
    if (Kokkos::atomic_min_fetch(&p[3], v) > v) Kokkos::atomic_inc(b);
  });
  Kokkos::fence();
  const std::vector<T> h = m.host();
  EXPECT_EQ(h[0], T(n - 1));
  EXPECT_EQ(h[1], T(0));
  EXPECT_EQ(h[2], T(n - 1));
  EXPECT_EQ(h[3], T(0));
  EXPECT_EQ(bad.host()[0], 0);
}

TYPED_TEST(AtomicTest, ConcurrentMaxMin) {
  FOR_EACH_ATOMIC_TYPE(concurrent_max_min, TypeParam);
}

// Contended retry loops (compare-exchange counters, a spin lock) cost one failed attempt per
// waiting thread per success: O(n * waiting) attempts on one address.  A GPU keeps every one of
// the n threads waiting at once, so one counter would take n^2 / 2 attempts (minutes for
// n = 60000, each attempt fenced); index i uses slot i % kContendedSlots instead, which keeps
// dozens of threads (and every lane of a warp) contending per slot.
constexpr int kContendedSlots = 64;

// How many of the indices 0..n-1 map to `slot`.
int indices_in_slot(int n, int slot) { return n / kContendedSlots + (slot < n % kContendedSlots ? 1 : 0); }

// Counters incremented only through compare_exchange retry loops (strong returning the old
// value, strong returning bool, and the weak acq_rel variant), kContendedSlots of each kind.
template <class Space, class T>
void concurrent_cas_counter() {
  SCOPED_TRACE(type_name<T>());
  const int n = concurrency_n<T>();
  SpaceArray<Space, T> counters(3 * kContendedSlots, T(0));
  T* c = counters.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const int i) {
    T* const slot = c + 3 * (i % kContendedSlots);
    T old = Kokkos::atomic_load(&slot[0]);
    while (true) {
      const T prev = Kokkos::atomic_compare_exchange(&slot[0], old, T(old + T(1)));
      if (prev == old) break;
      old = prev;
    }
    T cur = Kokkos::atomic_load(&slot[1]);
    while (!Kokkos::atomic_compare_exchange_strong(&slot[1], cur, T(cur + T(1)))) cur = Kokkos::atomic_load(&slot[1]);
    T expected = Kokkos::Impl::atomic_load_relaxed(&slot[2]);
    while (!Kokkos::Impl::atomic_compare_exchange_weak_acq_rel(&slot[2], expected, T(expected + T(1)))) {
    }
  });
  Kokkos::fence();
  const std::vector<T> h = counters.host();
  for (int k = 0; k < kContendedSlots; ++k) {
    const T expected = T(indices_in_slot(n, k));
    EXPECT_EQ(h[3 * k], expected) << "slot " << k;
    EXPECT_EQ(h[3 * k + 1], expected) << "slot " << k;
    EXPECT_EQ(h[3 * k + 2], expected) << "slot " << k;
  }
}

TYPED_TEST(AtomicTest, ConcurrentCompareExchangeCounter) {
  FOR_EACH_ATOMIC_TYPE(concurrent_cas_counter, TypeParam);
}

// Counts, in a host bitmap, how often each of 0..n-1 occurs in `values`; returns the number of
// values out of range plus the number of indices not seen exactly once.
template <class T>
int permutation_errors(const std::vector<T>& values, int n) {
  std::vector<int> seen(static_cast<std::size_t>(n), 0);
  int errors = 0;
  for (const T v : values) {
    bool negative = false;
    if constexpr (std::is_signed_v<T>) negative = v < T(0);
    if (negative || !(v < T(n))) {
      ++errors;
      continue;
    }
    ++seen[static_cast<std::size_t>(v)];
  }
  for (const int s : seen) errors += (s != 1);
  return errors;
}

// atomic_fetch_inc hands out tickets: a permutation of 0..n-1. So does atomic_inc_fetch - 1.
template <class Space, class T>
void concurrent_tickets() {
  SCOPED_TRACE(type_name<T>());
  const int n = concurrency_n<T>();
  SpaceArray<Space, T> tickets(2 * static_cast<std::size_t>(n), T(0));
  SpaceArray<Space, T> counters(2, T(0));
  T* t = tickets.data();
  T* c = counters.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const int i) {
    t[i] = Kokkos::atomic_fetch_inc(&c[0]);
    t[n + i] = T(Kokkos::atomic_inc_fetch(&c[1]) - T(1));
  });
  Kokkos::fence();
  const std::vector<T> h = tickets.host();
  EXPECT_EQ(counters.host(), std::vector<T>(2, T(n)));
  EXPECT_EQ(permutation_errors(std::vector<T>(h.begin(), h.begin() + n), n), 0) << "atomic_fetch_inc";
  EXPECT_EQ(permutation_errors(std::vector<T>(h.begin() + n, h.end()), n), 0) << "atomic_inc_fetch";
}

TYPED_TEST(AtomicTest, ConcurrentTicketsArePermutation) {
  FOR_EACH_ATOMIC_TYPE(concurrent_tickets, TypeParam);
}

// Every index i exchanges i + 1 in over an initial 0: the old values plus the final value are
// 0..n, each exactly once.
template <class Space, class T>
void concurrent_exchange() {
  SCOPED_TRACE(type_name<T>());
  const int n = concurrency_n<T>() - 1;
  SpaceArray<Space, T> olds(static_cast<std::size_t>(n) + 1, T(0));  // [n]: the exchanged value
  T* o = olds.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const int i) {
    o[i] = Kokkos::atomic_exchange(&o[n], T(i + 1));
  });
  Kokkos::fence();
  EXPECT_EQ(permutation_errors(olds.host(), n + 1), 0);
}

TYPED_TEST(AtomicTest, ConcurrentExchange) {
  FOR_EACH_ATOMIC_TYPE(concurrent_exchange, TypeParam);
}

// Bitwise operations from many threads: or sets bits, and clears them, xor toggles each bit
// 64 times (back to 0) or once (to 1); the Impl acq_rel or/and likewise.
template <class Space, class T>
void concurrent_bitwise() {
  SCOPED_TRACE(type_name<T>());
  constexpr int bits = 8 * sizeof(T);
  const int n = 64 * bits;
  SpaceArray<Space, T> w({T(0), T(~T(0)), T(0), T(0), T(0), T(~T(0))});
  T* p = w.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const int i) {
    const T bit = T(T(1) << (i % bits));
    Kokkos::atomic_or(&p[0], bit);
    Kokkos::atomic_fetch_and(&p[1], T(~bit));
    Kokkos::atomic_xor_fetch(&p[2], bit);  // each bit toggled 64 times
    if (i < bits) Kokkos::atomic_fetch_xor(&p[3], bit);
    Kokkos::Impl::atomic_fetch_or_acq_rel(&p[4], bit);
    Kokkos::Impl::atomic_fetch_and_acq_rel(&p[5], T(~bit));
  });
  Kokkos::fence();
  const std::vector<T> h = w.host();
  EXPECT_EQ(h[0], T(~T(0)));
  EXPECT_EQ(h[1], T(0));
  EXPECT_EQ(h[2], T(0));
  EXPECT_EQ(h[3], T(~T(0)));
  EXPECT_EQ(h[4], T(~T(0)));
  EXPECT_EQ(h[5], T(0));
}

TYPED_TEST(AtomicTest, ConcurrentBitwise) {
  concurrent_bitwise<TypeParam, std::int32_t>();
  concurrent_bitwise<TypeParam, std::uint32_t>();
  concurrent_bitwise<TypeParam, std::int64_t>();
  concurrent_bitwise<TypeParam, std::uint64_t>();
}

// Doubles summing integer-valued doubles (and halves) are exact whatever the order.
TYPED_TEST(AtomicTest, ConcurrentDoubleSumIsExact) {
  const int n = 200000;
  SpaceArray<TypeParam, double> sums(3, 0.0);
  double* s = sums.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(0, n), KOKKOS_LAMBDA(const int i) {
    Kokkos::atomic_add(&s[0], static_cast<double>(i));
    Kokkos::atomic_add_fetch(&s[1], 0.5 * (i % 7));
    Kokkos::atomic_fetch_sub(&s[2], static_cast<double>(i % 1000));
  });
  Kokkos::fence();
  double expected1 = 0.0, expected2 = 0.0;
  for (int i = 0; i < n; ++i) {
    expected1 += 0.5 * (i % 7);
    expected2 -= static_cast<double>(i % 1000);
  }
  const std::vector<double> h = sums.host();
  EXPECT_EQ(h[0], static_cast<double>(n) * (n - 1) / 2);
  EXPECT_EQ(h[1], expected1);
  EXPECT_EQ(h[2], expected2);
}

// The lock fallback under contention: add, compare_exchange counters (spread over
// kContendedSlots, see concurrent_cas_counter) and exchange on a 16-byte struct, and add on an
// under-aligned 8-byte struct.
TYPED_TEST(AtomicTest, ConcurrentLockFallback) {
  const int n = 50000;
  // [0] sum, [1] exchanged value, [2 + i] old value seen by index i
  SpaceArray<TypeParam, Pair16> pairs(static_cast<std::size_t>(n) + 2, Pair16{0.0, 0.0});
  SpaceArray<TypeParam, Pair16> counters(kContendedSlots, Pair16{0.0, 0.0});
  SpaceArray<TypeParam, Float2> fsum(1, Float2{0.0f, 0.0f});
  Pair16* p = pairs.data();
  Pair16* c = counters.data();
  Float2* pf = fsum.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(0, n), KOKKOS_LAMBDA(const int i) {
    Kokkos::atomic_add(&p[0], Pair16{1.0, static_cast<double>(i)});
    Pair16* const counter = &c[i % kContendedSlots];
    Pair16 old = Kokkos::atomic_load(counter);
    while (true) {
      const Pair16 prev = Kokkos::atomic_compare_exchange(counter, old, Pair16{old.a + 1.0, old.b - 1.0});
      if (prev == old) break;
      old = prev;
    }
    p[2 + i] = Kokkos::atomic_exchange(&p[1], Pair16{static_cast<double>(i + 1), -static_cast<double>(i + 1)});
    Kokkos::atomic_add(pf, Float2{1.0f, 2.0f});
  });
  Kokkos::fence();
  const std::vector<Pair16> h = pairs.host();
  EXPECT_EQ(h[0].a, static_cast<double>(n));
  EXPECT_EQ(h[0].b, static_cast<double>(n) * (n - 1) / 2);
  const std::vector<Pair16> hc = counters.host();
  for (int k = 0; k < kContendedSlots; ++k) {
    EXPECT_EQ(hc[k].a, static_cast<double>(indices_in_slot(n, k))) << "slot " << k;
    EXPECT_EQ(hc[k].b, -static_cast<double>(indices_in_slot(n, k))) << "slot " << k;
  }
  const Float2 f = fsum.host()[0];
  EXPECT_EQ(f.x, static_cast<float>(n));
  EXPECT_EQ(f.y, 2.0f * static_cast<float>(n));
  // exchange: no torn values (b == -a), and the olds plus the final value are 0..n once each
  std::vector<double> firsts;
  int torn = 0;
  for (std::size_t k = 1; k < h.size(); ++k) {
    torn += (h[k].b != -h[k].a);
    firsts.push_back(h[k].a);
  }
  EXPECT_EQ(torn, 0);
  EXPECT_EQ(permutation_errors(firsts, n + 1), 0);
}

// The Impl memory-order variants build a working spin lock that protects plain data; index i
// takes lock i % kContendedSlots (see concurrent_cas_counter), which guards its own data.
TYPED_TEST(AtomicTest, ImplVariantsSpinLock) {
  const int n = 100000;
  SpaceArray<TypeParam, unsigned int> locks(kContendedSlots, 0u);
  SpaceArray<TypeParam, std::int64_t> data(2 * kContendedSlots + 1, 0);  // plain [2k], [2k+1]; atomic [last]
  unsigned int* l = locks.data();
  std::int64_t* p = data.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<TypeParam>(0, n), KOKKOS_LAMBDA(const int i) {
    const int slot = i % kContendedSlots;
    bool done = false;  // the lock is taken and released in one branch, safe for GPU warps too
    while (!done) {
      unsigned int expected = 0;
      if (Kokkos::Impl::atomic_compare_exchange_weak_acq_rel(&l[slot], expected, 1u)) {
        p[2 * slot] += 1;
        p[2 * slot + 1] += i;
        Kokkos::Impl::atomic_store_release(&l[slot], 0u);
        done = true;
      } else {
        Kokkos::Impl::pause();
      }
    }
    Kokkos::Impl::atomic_fetch_add_relaxed(&p[2 * kContendedSlots], std::int64_t(1));
  });
  Kokkos::fence();
  const std::vector<std::int64_t> h = data.host();
  std::int64_t count = 0, sum = 0;
  for (int k = 0; k < kContendedSlots; ++k) {
    EXPECT_EQ(h[2 * k], indices_in_slot(n, k)) << "slot " << k;
    count += h[2 * k];
    sum += h[2 * k + 1];
  }
  EXPECT_EQ(count, n);
  EXPECT_EQ(sum, static_cast<std::int64_t>(n) * (n - 1) / 2);
  EXPECT_EQ(Kokkos::Impl::atomic_load_acquire(&h[2 * kContendedSlots]), n);
  EXPECT_EQ(locks.host(), std::vector<unsigned int>(kContendedSlots, 0u));
}

// volatile_load / volatile_store: plain reads and writes through volatile pointers, in kernels
// on every back end, for integers, doubles and pointers; a volatile source value is accepted.
TYPED_TEST(AtomicTest, VolatileLoadAndStore) {
  constexpr int n = 1000;
  Kokkos::View<std::int64_t*, typename TypeParam::memory_space> ints("ints", n);
  Kokkos::View<double*, typename TypeParam::memory_space> reals("reals", n);
  Kokkos::View<int, typename TypeParam::memory_space> errors("errors");
  Kokkos::parallel_for(
      Kokkos::RangePolicy<TypeParam>(0, n), KOKKOS_LAMBDA(int i) {
        volatile std::int64_t* const pi = &ints(i);
        volatile double* const pd = &reals(i);
        Kokkos::volatile_store(pi, std::int64_t(3) * i - 7);
        const volatile double src = 0.5 * i;
        Kokkos::volatile_store(pd, src);
        if (Kokkos::volatile_load(pi) != std::int64_t(3) * i - 7) Kokkos::atomic_add(&errors(), 1);
        const double* const plain = &reals(i);
        if (Kokkos::volatile_load(plain) != 0.5 * i) Kokkos::atomic_add(&errors(), 1);
        double* target = &reals(i);
        double* volatile slot = nullptr;
        Kokkos::volatile_store(&slot, target);
        if (Kokkos::volatile_load(&slot) != target) Kokkos::atomic_add(&errors(), 1);
      });
  static_assert(std::is_same_v<decltype(Kokkos::volatile_load(std::declval<const volatile float*>())), float>);
  auto h_ints = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ints);
  auto h_reals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), reals);
  auto h_errors = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), errors);
  EXPECT_EQ(h_errors(), 0);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(h_ints(i), std::int64_t(3) * i - 7) << i;
    ASSERT_EQ(h_reals(i), 0.5 * i) << i;
  }
}

}  // namespace

#pragma once
// Kokkos' pseudo-random numbers: the XorShift64* and XorShift1024* generators (Vigna 2014,
// "An experimental exploration of Marsaglia's xorshift generators, scrambled"), pools of their
// states for parallel code, Kokkos::rand<Generator, Scalar> and fill_random.
//
//   Kokkos::Random_XorShift64_Pool<> pool(12345);
//   Kokkos::parallel_for(n, KOKKOS_LAMBDA(int i) {
//     auto gen = pool.get_state();       // this thread's generator
//     x(i) = gen.drand(-1.0, 1.0);
//     pool.free_state(gen);              // writes the advanced state back
//   });
//
// A seed gives Kokkos' streams: the pool seeds its states as Kokkos does and the generators
// step and scramble as Kokkos' do (see impl/Kokkos_RandomDraws.hpp for the one difference, a
// floating-point draw that Kokkos would round up to its excluded upper bound).  On host back
// ends each worker owns one state, so get_state/free_state take no lock.
#include <Kokkos_Core.hpp>
#include <impl/Kokkos_RandomDraws.hpp>
#include <impl/Kokkos_RandomStatePool.hpp>
#include <cstdint>
#include <type_traits>

namespace Kokkos {

template <class DeviceType>
class Random_XorShift64_Pool;
template <class DeviceType>
class Random_XorShift1024_Pool;

// ------------------------------------------------------------------------------------------
// Generators
// ------------------------------------------------------------------------------------------

namespace Impl {
// What a pool needs of a generator: which state it came from and whether it holds its lock.
class RandomStateTicket {
 public:
  KOKKOS_INLINE_FUNCTION explicit RandomStateTicket(int state_idx) : m_state_idx(state_idx) {}
  KOKKOS_INLINE_FUNCTION int impl_state_index() const { return m_state_idx; }
  KOKKOS_INLINE_FUNCTION bool impl_holds_lock() const { return m_holds_lock; }
  KOKKOS_INLINE_FUNCTION void impl_set_holds_lock(bool holds) { m_holds_lock = holds; }

 private:
  int m_state_idx;
  bool m_holds_lock = false;
};
}  // namespace Impl

// XorShift64*: 64 bits of state (period 2^64 - 1); cheap to copy, the default choice.
template <class DeviceType>
class Random_XorShift64 : public Impl::XorShiftStarDraws<Random_XorShift64<DeviceType>>,
                          public Impl::RandomStateTicket {
 public:
  using device_type = DeviceType;

  KOKKOS_INLINE_FUNCTION Random_XorShift64(std::uint64_t state, int state_idx = 0)
      : RandomStateTicket(state_idx), m_state(state == 0 ? Impl::random_default_seed : state) {}

  KOKKOS_INLINE_FUNCTION std::uint64_t impl_next_scrambled() {
    m_state ^= m_state >> 12;
    m_state ^= m_state << 25;
    m_state ^= m_state >> 27;
    return m_state * 2685821657736338717ULL;
  }

  // A pool's state row: the state word.
  static constexpr int impl_row_words = 1;
  static constexpr int impl_seeded_words = 1;
  static constexpr const char* impl_pool_name = "Kokkos::Random_XorShift64";
  template <class StateView>
  KOKKOS_INLINE_FUNCTION static Random_XorShift64 impl_load(const StateView& states, int state_idx) {
    return Random_XorShift64(states(state_idx, 0), state_idx);
  }
  template <class StateView>
  KOKKOS_INLINE_FUNCTION void impl_store(const StateView& states) const {
    states(impl_state_index(), 0) = m_state;
  }

 private:
  std::uint64_t m_state;
};

// XorShift1024*: 16 words of state (period 2^1024 - 1), for long streams per thread.
template <class DeviceType>
class Random_XorShift1024 : public Impl::XorShiftStarDraws<Random_XorShift1024<DeviceType>>,
                            public Impl::RandomStateTicket {
 public:
  using pool_type = Random_XorShift1024_Pool<DeviceType>;
  using device_type = DeviceType;
  static constexpr int state_words = 16;

  // The generator of state `state_idx` of a pool's state array, at word position p.
  template <class StateView>
  KOKKOS_INLINE_FUNCTION Random_XorShift1024(const StateView& state, int p, int state_idx = 0)
      : RandomStateTicket(state_idx), m_p(p) {
    for (int j = 0; j < state_words; ++j) m_state[j] = state(state_idx, j);
  }

  KOKKOS_INLINE_FUNCTION std::uint64_t impl_next_scrambled() {
    std::uint64_t s0 = m_state[m_p];
    m_p = (m_p + 1) & (state_words - 1);
    std::uint64_t s1 = m_state[m_p];
    s1 ^= s1 << 31;
    s1 ^= s1 >> 11;
    s0 ^= s0 >> 30;
    m_state[m_p] = s0 ^ s1;
    return m_state[m_p] * 1181783497276652981ULL;
  }

  // A pool's state row: the 16 state words, then the position.
  static constexpr int impl_row_words = state_words + 1;
  static constexpr int impl_seeded_words = state_words;
  static constexpr const char* impl_pool_name = "Kokkos::Random_XorShift1024";
  template <class StateView>
  KOKKOS_INLINE_FUNCTION static Random_XorShift1024 impl_load(const StateView& states, int state_idx) {
    return Random_XorShift1024(states, static_cast<int>(states(state_idx, state_words)), state_idx);
  }
  template <class StateView>
  KOKKOS_INLINE_FUNCTION void impl_store(const StateView& states) const {
    for (int j = 0; j < state_words; ++j) states(impl_state_index(), j) = m_state[j];
    states(impl_state_index(), state_words) = static_cast<std::uint64_t>(m_p);
  }

 private:
  std::uint64_t m_state[state_words];
  int m_p;
};

// ------------------------------------------------------------------------------------------
// Pools
// ------------------------------------------------------------------------------------------

namespace Impl {
// A pool of Generator states in DeviceType's memory: a row per state (at least a cache line,
// so that workers drawing side by side do not share lines), handed out by RandomStateSlots.
template <class DeviceType, class Generator>
class RandomPool {
 public:
  using device_type = typename DeviceType::device_type;
  using execution_space = typename device_type::execution_space;
  using generator_type = Generator;

  RandomPool() = default;
  // One state per worker of the device's execution space.
  RandomPool(std::uint64_t seed) { init(seed, execution_space().concurrency()); }
  // One state per worker of `exec`, which allocates and fills them: work later submitted to
  // `exec` sees the seeded pool.
  RandomPool(const execution_space& exec, std::uint64_t seed) { init(exec, seed, exec.concurrency()); }

  void init(std::uint64_t seed, int num_states) { init(execution_space(), seed, num_states); }
  // Seeds the states as Kokkos does (see impl/Kokkos_RandomDraws.hpp), so a seed gives
  // Kokkos' streams.
  void init(const execution_space& exec, std::uint64_t seed, int num_states) {
    m_slots.init(Generator::impl_pool_name, num_states);
    m_states = View<std::uint64_t**, device_type>(
        view_alloc(exec, std::string(Generator::impl_pool_name) + "::state", WithoutInitializing), num_states, row);
    auto host = create_mirror_view(WithoutInitializing, m_states);
    Random_XorShift64<DefaultHostExecutionSpace> seeder(seed == 0 ? random_default_seed : seed);
    for (int i = 0; i < random_seed_discard; ++i) seeder.rand();
    for (int s = 0; s < num_states; ++s) {
      for (int w = 0; w < Generator::impl_seeded_words; ++w) host(s, w) = random_seed_word(seeder);
      for (int w = Generator::impl_seeded_words; w < row; ++w) host(s, w) = 0;
    }
    deep_copy(exec, m_states, host);
    // The host seeds are freed on return, so the copy out of them must be complete.
    exec.fence("Kokkos random pool: init");
  }

  // This thread's generator, until free_state.
  KOKKOS_INLINE_FUNCTION generator_type get_state() const {
    generator_type gen = get_state(m_slots.acquire());
    gen.impl_set_holds_lock(m_slots.locks());
    return gen;
  }
  // The generator of state `state_idx`; the caller guarantees that no other thread uses that
  // state until it is freed.
  KOKKOS_INLINE_FUNCTION generator_type get_state(const int state_idx) const {
    return Generator::impl_load(m_states, state_idx);
  }
  // Writes the generator's advanced state back for the state's next user.
  KOKKOS_INLINE_FUNCTION void free_state(const generator_type& gen) const {
    gen.impl_store(m_states);
    if (gen.impl_holds_lock()) m_slots.release(gen.impl_state_index());
  }

  KOKKOS_INLINE_FUNCTION int impl_num_states() const { return m_slots.num_states(); }

 private:
  static constexpr int row =
      Generator::impl_row_words * 8 >= KOKKOS_IMPL_CACHE_LINE ? Generator::impl_row_words : KOKKOS_IMPL_CACHE_LINE / 8;
  View<std::uint64_t**, device_type> m_states;
  RandomStateSlots<DeviceType> m_slots;
};
}  // namespace Impl

template <class DeviceType = DefaultExecutionSpace>
class Random_XorShift64_Pool : public Impl::RandomPool<DeviceType, Random_XorShift64<DeviceType>> {
 public:
  using Impl::RandomPool<DeviceType, Random_XorShift64<DeviceType>>::RandomPool;
  Random_XorShift64_Pool() = default;
};

template <class DeviceType = DefaultExecutionSpace>
class Random_XorShift1024_Pool : public Impl::RandomPool<DeviceType, Random_XorShift1024<DeviceType>> {
 public:
  using Impl::RandomPool<DeviceType, Random_XorShift1024<DeviceType>>::RandomPool;
  Random_XorShift1024_Pool() = default;
};

// ------------------------------------------------------------------------------------------
// Kokkos::rand<Generator, Scalar>: a draw of any arithmetic type.  draw(gen) is in [0, max()],
// draw(gen, range) in [0, range), draw(gen, start, end) in [start, end).
// ------------------------------------------------------------------------------------------

template <class Generator, class Scalar>
struct rand;

namespace Impl {
// Integers narrower than int: rand() masked to the type's non-negative range, ranges via
// rand(range) / rand(start, end).  (Kokkos' char draw returns rand() & 0xff, which becomes
// negative half the time where char is signed; kdag keeps the documented [0, max()].)
template <class Generator, class Small, int Mask>
struct RandSmallInteger {
  KOKKOS_INLINE_FUNCTION static Small max() { return static_cast<Small>(Mask); }
  KOKKOS_INLINE_FUNCTION static Small draw(Generator& gen) { return static_cast<Small>(gen.rand() & Mask); }
  KOKKOS_INLINE_FUNCTION static Small draw(Generator& gen, const Small& range) {
    return static_cast<Small>(gen.rand(static_cast<int>(range)));
  }
  KOKKOS_INLINE_FUNCTION static Small draw(Generator& gen, const Small& start, const Small& end) {
    return static_cast<Small>(gen.rand(static_cast<int>(start), static_cast<int>(end)));
  }
};

// Integers of 32 or 64 bits: the generator's own draw of that width and signedness.
template <class Generator, class Integer>
struct RandWideInteger {
  static constexpr bool wide = sizeof(Integer) == 8;
  static constexpr bool is_signed = std::is_signed_v<Integer>;
  KOKKOS_INLINE_FUNCTION static Integer max() {
    if constexpr (wide) {
      return static_cast<Integer>(is_signed ? Generator::MAX_RAND64 : Generator::MAX_URAND64);
    } else {
      return static_cast<Integer>(is_signed ? Generator::MAX_RAND : Generator::MAX_URAND);
    }
  }
  KOKKOS_INLINE_FUNCTION static Integer draw(Generator& gen) {
    if constexpr (wide) {
      return static_cast<Integer>(is_signed ? gen.rand64() : gen.urand64());
    } else if constexpr (is_signed) {
      return static_cast<Integer>(gen.rand());
    } else {
      return static_cast<Integer>(gen.urand());
    }
  }
  KOKKOS_INLINE_FUNCTION static Integer draw(Generator& gen, const Integer& range) {
    if constexpr (wide && is_signed) return static_cast<Integer>(gen.rand64(range));
    if constexpr (wide && !is_signed) return static_cast<Integer>(gen.urand64(range));
    if constexpr (!wide && is_signed) return static_cast<Integer>(gen.rand(range));
    if constexpr (!wide && !is_signed) return static_cast<Integer>(gen.urand(range));
  }
  KOKKOS_INLINE_FUNCTION static Integer draw(Generator& gen, const Integer& start, const Integer& end) {
    if constexpr (wide && is_signed) return static_cast<Integer>(gen.rand64(start, end));
    if constexpr (wide && !is_signed) return static_cast<Integer>(gen.urand64(start, end));
    if constexpr (!wide && is_signed) return static_cast<Integer>(gen.rand(start, end));
    if constexpr (!wide && !is_signed) return static_cast<Integer>(gen.urand(start, end));
  }
};
}  // namespace Impl

template <class Generator>
struct rand<Generator, char> : Impl::RandSmallInteger<Generator, char, 0x7f> {};
template <class Generator>
struct rand<Generator, signed char> : Impl::RandSmallInteger<Generator, signed char, 0x7f> {};
template <class Generator>
struct rand<Generator, unsigned char> : Impl::RandSmallInteger<Generator, unsigned char, 0xff> {};
template <class Generator>
struct rand<Generator, short> : Impl::RandSmallInteger<Generator, short, 0x7fff> {};
template <class Generator>
struct rand<Generator, unsigned short> : Impl::RandSmallInteger<Generator, unsigned short, 0xffff> {};
template <class Generator>
struct rand<Generator, int> : Impl::RandWideInteger<Generator, int> {};
template <class Generator>
struct rand<Generator, unsigned int> : Impl::RandWideInteger<Generator, unsigned int> {};
template <class Generator>
struct rand<Generator, long> : Impl::RandWideInteger<Generator, long> {};
template <class Generator>
struct rand<Generator, unsigned long> : Impl::RandWideInteger<Generator, unsigned long> {};
template <class Generator>
struct rand<Generator, long long> : Impl::RandWideInteger<Generator, long long> {};
template <class Generator>
struct rand<Generator, unsigned long long> : Impl::RandWideInteger<Generator, unsigned long long> {};

namespace Impl {
// float and double: frand / drand, [0, 1] for the plain draw (max() is 1).
template <class Generator, class Real>
struct RandReal {
  KOKKOS_INLINE_FUNCTION static Real max() { return Real(1); }
  KOKKOS_INLINE_FUNCTION static Real draw(Generator& gen) { return draw(gen, Real(1)); }
  KOKKOS_INLINE_FUNCTION static Real draw(Generator& gen, const Real& range) {
    if constexpr (std::is_same_v<Real, float>) {
      return gen.frand(range);
    } else {
      return gen.drand(range);
    }
  }
  KOKKOS_INLINE_FUNCTION static Real draw(Generator& gen, const Real& start, const Real& end) {
    if constexpr (std::is_same_v<Real, float>) {
      return gen.frand(start, end);
    } else {
      return gen.drand(start, end);
    }
  }
};
}  // namespace Impl

template <class Generator>
struct rand<Generator, float> : Impl::RandReal<Generator, float> {};
template <class Generator>
struct rand<Generator, double> : Impl::RandReal<Generator, double> {};

namespace Impl {
// Kokkos::complex<float|double>: real and imaginary parts drawn independently, the real part
// first, each with its real type's rule applied to the matching part of range / start / end
// (so max() is (1, 1) and a range (a, b) fills the rectangle [0, a) x [0, b)).
template <class Generator, class Real>
struct RandComplex {
  using Complex = Kokkos::complex<Real>;
  using Part = RandReal<Generator, Real>;
  KOKKOS_INLINE_FUNCTION static Complex max() { return Complex(Real(1), Real(1)); }
  KOKKOS_INLINE_FUNCTION static Complex draw(Generator& gen) {
    const Real re = Part::draw(gen);
    const Real im = Part::draw(gen);
    return Complex(re, im);
  }
  KOKKOS_INLINE_FUNCTION static Complex draw(Generator& gen, const Complex& range) {
    const Real re = Part::draw(gen, range.real());
    const Real im = Part::draw(gen, range.imag());
    return Complex(re, im);
  }
  KOKKOS_INLINE_FUNCTION static Complex draw(Generator& gen, const Complex& start, const Complex& end) {
    const Real re = Part::draw(gen, start.real(), end.real());
    const Real im = Part::draw(gen, start.imag(), end.imag());
    return Complex(re, im);
  }
};
}  // namespace Impl

template <class Generator>
struct rand<Generator, Kokkos::complex<float>> : Impl::RandComplex<Generator, float> {};
template <class Generator>
struct rand<Generator, Kokkos::complex<double>> : Impl::RandComplex<Generator, double> {};

// ------------------------------------------------------------------------------------------
// fill_random: every element of a View of rank 0 to 8, uniform in [0, range) or [begin, end)
// (for complex values: per part, in the rectangle those bounds span).
// Rows of the first extent are dealt out in blocks of 128, one generator per block, as Kokkos
// does; which state fills which block depends on the schedule, so only the distribution (not
// the exact values) is reproducible across thread counts.
// ------------------------------------------------------------------------------------------

namespace Impl {
template <class ViewType, class RandomPool>
struct FillRandomBlocks {
  static constexpr std::int64_t rows_per_block = 128;
  using value_type = typename ViewType::non_const_value_type;
  using Draw = Kokkos::rand<typename RandomPool::generator_type, value_type>;

  ViewType view;
  RandomPool pool;
  value_type begin, end;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t block) const {
    auto gen = pool.get_state();
    if constexpr (ViewType::rank == 0) {
      view() = Draw::draw(gen, begin, end);
    } else {
      const std::int64_t rows = static_cast<std::int64_t>(view.extent(0));
      const std::int64_t last = (block + 1) * rows_per_block < rows ? (block + 1) * rows_per_block : rows;
      for (std::int64_t i = block * rows_per_block; i < last; ++i) fill_row(gen, i);
    }
    pool.free_state(gen);
  }

  // Every element whose leading indices are `index...`, in row-major order.
  template <class Generator, class... Index>
  KOKKOS_INLINE_FUNCTION void fill_row(Generator& gen, Index... index) const {
    constexpr std::size_t fixed = sizeof...(Index);
    if constexpr (fixed == ViewType::rank) {
      view(index...) = Draw::draw(gen, begin, end);
    } else {
      for (std::size_t k = 0; k < view.extent(fixed); ++k) fill_row(gen, index..., k);
    }
  }
};
}  // namespace Impl

template <class ExecutionSpace, class ViewType, class RandomPool, class IndexType = std::int64_t>
std::enable_if_t<is_execution_space_v<ExecutionSpace>> fill_random(const ExecutionSpace& exec, ViewType a,
                                                                    RandomPool g,
                                                                    typename ViewType::const_value_type begin,
                                                                    typename ViewType::const_value_type end) {
  using Functor = Impl::FillRandomBlocks<ViewType, RandomPool>;
  const std::int64_t rows = ViewType::rank == 0 ? 1 : static_cast<std::int64_t>(a.extent(0));
  if (a.size() == 0) return;
  const std::int64_t blocks = (rows + Functor::rows_per_block - 1) / Functor::rows_per_block;
  parallel_for("Kokkos::fill_random", RangePolicy<ExecutionSpace, IndexType>(exec, 0, blocks),
               Functor{a, g, begin, end});
}

template <class ExecutionSpace, class ViewType, class RandomPool, class IndexType = std::int64_t>
std::enable_if_t<is_execution_space_v<ExecutionSpace>> fill_random(const ExecutionSpace& exec, ViewType a,
                                                                    RandomPool g,
                                                                    typename ViewType::const_value_type range) {
  fill_random<ExecutionSpace, ViewType, RandomPool, IndexType>(exec, a, g, 0, range);
}

template <class ViewType, class RandomPool, class IndexType = std::int64_t>
void fill_random(ViewType a, RandomPool g, typename ViewType::const_value_type begin,
                 typename ViewType::const_value_type end) {
  Kokkos::fence("fill_random: fence before since no execution space instance provided");
  typename ViewType::execution_space exec;
  fill_random<decltype(exec), ViewType, RandomPool, IndexType>(exec, a, g, begin, end);
  exec.fence("fill_random: fence after since no execution space instance provided");
}

template <class ViewType, class RandomPool, class IndexType = std::int64_t>
void fill_random(ViewType a, RandomPool g, typename ViewType::const_value_type range) {
  fill_random<ViewType, RandomPool, IndexType>(a, g, 0, range);
}

}  // namespace Kokkos

#pragma once
// Kokkos::Experimental::UniqueToken: a small integer in [0, size()) that no other holder has until
// it is released, e.g. to index per-thread private copies of an array.
//
//   Kokkos::Experimental::UniqueToken<ExecSpace> token;             // size() = the instance's workers
//   Kokkos::Experimental::UniqueToken<ExecSpace> sized(n);           // Instance scope, size() = n
//   Kokkos::Experimental::UniqueToken<ExecSpace, Kokkos::Experimental::UniqueTokenScope::Global> g;
//   parallel_for(..., KOKKOS_LAMBDA(int i) {
//     Kokkos::Experimental::AcquireUniqueToken<ExecSpace> lock(token);  // RAII acquire/release
//     private_copy(lock.value(), ...) += ...;
//   });
//
// Instance-scope tokens are unique among holders of the same token object (and its copies);
// Global-scope tokens among all Global tokens of the execution space, size() =
// ExecSpace::impl_max_hardware_threads().  Tokens are bits of a shared bitset taken with one
// atomic fetch_or (the caller's hardware thread id is tried first, so workers of one launch
// normally take distinct words without contention); a holder never blocks another holder.  When
// every token is held, acquire() waits for a release, as in Kokkos: more simultaneous holders than
// size() (e.g. an oversubscribed set of host threads) wait instead of sharing a token.
//
// On Kokkos::Cuda the bitset lives in device memory and tokens are acquired and released by
// device threads (not from host code); the default Instance size and the Global size are the
// device's resident threads (multiprocessors times threads per multiprocessor), and a thread's
// index in its launch is the first token tried.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_Atomic.hpp>
#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_View.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace Kokkos {
void push_finalize_hook(std::function<void()> hook);
}

namespace Kokkos::Experimental {

enum class UniqueTokenScope : int { Instance, Global };

namespace Impl {

// The bitset of `size` tokens in `words`, one bit per token; a set bit is a held token.
class TokenBitset {
 public:
  KOKKOS_DEFAULTED_FUNCTION TokenBitset() = default;
  KOKKOS_INLINE_FUNCTION TokenBitset(std::uint32_t* words, int size) : m_words(words), m_size(size) {}

  KOKKOS_INLINE_FUNCTION int size() const { return m_size; }

  KOKKOS_INLINE_FUNCTION int acquire(int hint) const {
    const int words = (m_size + 31) / 32;
    // A device thread's hint (its index in the launch) may exceed size(): wrapped.
    const int start = hint >= 0 ? hint % m_size : 0;
    const int first = start / 32;
    const int preferred_bit = start % 32;
    for (unsigned attempt = 0;; ++attempt) {
      for (int k = 0; k < words; ++k) {
        const int w = (first + k) % words;
        std::uint32_t* const word = m_words + w;
        const std::uint32_t valid = valid_bits(w);
        std::uint32_t held = Kokkos::Impl::atomic_load_relaxed(word);
        while ((~held & valid) != 0u) {
          // Start at the preferred bit in the hint's word, so that workers of one launch take
          // distinct bits on their first try.
          const std::uint32_t free = ~held & valid;
          const int shift = k == 0 ? preferred_bit : 0;
          const std::uint32_t rotated = shift ? ((free >> shift) | (free << (32 - shift))) : free;
          const int bit = (lowest_set(rotated) + shift) % 32;
          const std::uint32_t mask = std::uint32_t(1) << bit;
          const std::uint32_t before = Kokkos::Impl::atomic_fetch_or_acq_rel(word, mask);
          if ((before & mask) == 0u) return w * 32 + bit;
          held = before | mask;
        }
      }
      // Every token is held: wait for a release.
      KOKKOS_IF_ON_HOST((if (attempt > 16) std::this_thread::yield();))
    }
  }

  KOKKOS_INLINE_FUNCTION void release(int token) const {
    Kokkos::Impl::atomic_fetch_and_acq_rel(m_words + token / 32, ~(std::uint32_t(1) << (token % 32)));
  }

  // Tokens currently held (for tests and diagnostics; a snapshot), read from host code: the
  // words are copied out of MemorySpace first where the host cannot read it.
  template <class MemorySpace>
  int impl_held() const {
    const int words = static_cast<int>(words_for(m_size));
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible) {
      int n = 0;
      for (int w = 0; w < words; ++w) n += Kokkos::popcount(Kokkos::Impl::atomic_load_relaxed(m_words + w));
      return n;
    } else {
      View<std::uint32_t*, Kokkos::HostSpace> host("Kokkos::UniqueToken::impl_held", words);
      Kokkos::deep_copy(host, View<const std::uint32_t*, MemorySpace, MemoryUnmanaged>(m_words, words));
      int n = 0;
      for (int w = 0; w < words; ++w) n += Kokkos::popcount(host(w));
      return n;
    }
  }

  static std::size_t words_for(int size) { return static_cast<std::size_t>((size + 31) / 32); }

 private:
  KOKKOS_INLINE_FUNCTION std::uint32_t valid_bits(int w) const {
    const int left = m_size - w * 32;
    return left >= 32 ? ~std::uint32_t(0) : ((std::uint32_t(1) << left) - 1u);
  }
  KOKKOS_INLINE_FUNCTION static int lowest_set(std::uint32_t x) {
    KOKKOS_IF_ON_HOST((return __builtin_ctz(x);))
    KOKKOS_IF_ON_DEVICE((return Kokkos::countr_zero(x);))
  }

  std::uint32_t* m_words = nullptr;
  int m_size = 0;
};

// The bitset of a space's Global tokens.  In host memory it lives for the whole program (tokens
// may be copied into functors that outlive a finalize); it is re-made larger only when the space
// was re-initialised with more threads, when no launch holds a token.  In device memory it is a
// View freed by finalize (before the device is released; no kernel can run after it), and the
// next initialisation makes a new one.
template <class ExecSpace>
TokenBitset global_token_bitset(int size) {
  using memory_space = typename ExecSpace::memory_space;
  static std::mutex mutex;
  static int capacity = 0;
  std::lock_guard<std::mutex> lock(mutex);
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible) {
    static std::vector<std::unique_ptr<std::uint32_t[]>> buffers;
    if (size > capacity) {
      buffers.push_back(std::make_unique<std::uint32_t[]>(TokenBitset::words_for(size)));
      capacity = size;
    }
    return TokenBitset(buffers.back().get(), size);
  } else {
    static std::vector<View<std::uint32_t*, memory_space>> buffers;
    if (size > capacity) {
      if (buffers.empty()) {
        Kokkos::push_finalize_hook([] {
          std::lock_guard<std::mutex> hook_lock(mutex);
          buffers.clear();
          capacity = 0;
        });
      }
      buffers.emplace_back("Kokkos::UniqueToken (Global)", TokenBitset::words_for(size));
      capacity = size;
    }
    return TokenBitset(buffers.back().data(), size);
  }
}

// The calling worker's hardware thread id is the first token tried.
template <class ExecSpace>
KOKKOS_INLINE_FUNCTION int acquire_token(const TokenBitset& bits) {
  return bits.acquire(ExecSpace::impl_hardware_thread_id());
}

template <class ExecSpace>
int instance_concurrency(const ExecSpace& space) {
  if constexpr (requires { space.impl_thread_pool_size(); }) {
    return space.impl_thread_pool_size();
  } else {
    return space.concurrency();
  }
}

[[noreturn]] inline void bad_token_size(long long size) {
  Kokkos::Impl::throw_runtime_exception("Kokkos::Experimental::UniqueToken: size " + std::to_string(size) +
                                        " is less than 1");
}

}  // namespace Impl

template <class ExecutionSpace = DefaultExecutionSpace, UniqueTokenScope = UniqueTokenScope::Instance>
class UniqueToken;

template <class ExecutionSpace>
class UniqueToken<ExecutionSpace, UniqueTokenScope::Global> {
 public:
  using execution_space = ExecutionSpace;
  using size_type = typename execution_space::size_type;

  explicit UniqueToken(const execution_space& = execution_space())
      : m_bits(Impl::global_token_bitset<execution_space>(max_threads())) {}

  KOKKOS_DEFAULTED_FUNCTION UniqueToken(const UniqueToken&) = default;
  KOKKOS_DEFAULTED_FUNCTION UniqueToken& operator=(const UniqueToken&) = default;

  KOKKOS_INLINE_FUNCTION size_type size() const { return static_cast<size_type>(m_bits.size()); }
  KOKKOS_INLINE_FUNCTION size_type acquire() const {
    return static_cast<size_type>(Impl::acquire_token<execution_space>(m_bits));
  }
  KOKKOS_INLINE_FUNCTION void release(size_type token) const { m_bits.release(static_cast<int>(token)); }

  KOKKOS_INLINE_FUNCTION const Impl::TokenBitset& impl_bitset() const { return m_bits; }
  int impl_held() const { return m_bits.impl_held<typename execution_space::memory_space>(); }

 private:
  static int max_threads() {
    const int n = execution_space::impl_max_hardware_threads();
    return n > 0 ? n : 1;
  }
  Impl::TokenBitset m_bits;
};

template <class ExecutionSpace>
class UniqueToken<ExecutionSpace, UniqueTokenScope::Instance> {
 public:
  using execution_space = ExecutionSpace;
  using size_type = typename execution_space::size_type;

  // size() = the instance's concurrency.
  explicit UniqueToken(const execution_space& space = execution_space())
      : UniqueToken(static_cast<size_type>(Impl::instance_concurrency(space)), space) {}
  // size() = max_size, whatever the instance's concurrency (e.g. one token per team).
  explicit UniqueToken(size_type max_size, const execution_space& = execution_space()) {
    if (static_cast<long long>(max_size) < 1 || max_size > size_type(1u << 30)) {
      Impl::bad_token_size(static_cast<long long>(max_size));
    }
    m_buffer = View<std::uint32_t*, typename execution_space::memory_space>(
        "Kokkos::UniqueToken", Impl::TokenBitset::words_for(static_cast<int>(max_size)));
    m_bits = Impl::TokenBitset(m_buffer.data(), static_cast<int>(max_size));
  }

  KOKKOS_DEFAULTED_FUNCTION UniqueToken(const UniqueToken&) = default;
  KOKKOS_DEFAULTED_FUNCTION UniqueToken& operator=(const UniqueToken&) = default;

  KOKKOS_INLINE_FUNCTION size_type size() const { return static_cast<size_type>(m_bits.size()); }
  KOKKOS_INLINE_FUNCTION size_type acquire() const {
    return static_cast<size_type>(Impl::acquire_token<execution_space>(m_bits));
  }
  KOKKOS_INLINE_FUNCTION void release(size_type token) const { m_bits.release(static_cast<int>(token)); }

  KOKKOS_INLINE_FUNCTION const Impl::TokenBitset& impl_bitset() const { return m_bits; }
  int impl_held() const { return m_bits.impl_held<typename execution_space::memory_space>(); }

 private:
  View<std::uint32_t*, typename execution_space::memory_space> m_buffer;
  Impl::TokenBitset m_bits;
};

// Holds a token for its lifetime.  It keeps only the token's bitset, not a copy of the token: a
// copy would bump the reference count of the token's View on every acquisition, one cache line
// that every worker would fight over.
template <class ExecutionSpace, UniqueTokenScope TokenScope = UniqueTokenScope::Instance>
class AcquireUniqueToken {
 public:
  using exec_space = ExecutionSpace;
  using size_type = typename exec_space::size_type;
  using token_type = UniqueToken<exec_space, TokenScope>;

  KOKKOS_INLINE_FUNCTION AcquireUniqueToken(const token_type& t)  // NOLINT: implicit, as in Kokkos
      : m_bits(t.impl_bitset()), m_value(static_cast<size_type>(Impl::acquire_token<exec_space>(m_bits))) {}
  KOKKOS_INLINE_FUNCTION ~AcquireUniqueToken() { m_bits.release(static_cast<int>(m_value)); }
  AcquireUniqueToken(const AcquireUniqueToken&) = delete;
  AcquireUniqueToken& operator=(const AcquireUniqueToken&) = delete;

  KOKKOS_INLINE_FUNCTION size_type value() const { return m_value; }

 private:
  Impl::TokenBitset m_bits;
  size_type m_value;
};

// One token for a whole team: team rank 0 acquires it, every member sees the same value, and the
// last member out releases it after a team barrier.  shmem_size() is the team scratch Kokkos
// reserves for it; kdag passes the value through the team's broadcast instead, so the
// reservation is harmless but not required.
template <class TeamPolicy>
class AcquireTeamUniqueToken {
 public:
  using exec_space = typename TeamPolicy::execution_space;
  using token_type = UniqueToken<exec_space>;
  using size_type = typename token_type::size_type;
  using team_member_type = typename TeamPolicy::member_type;

  KOKKOS_INLINE_FUNCTION AcquireTeamUniqueToken(const token_type& t, const team_member_type& team)
      : m_bits(t.impl_bitset()), m_team(team), m_value(0) {
    Kokkos::single(
        Kokkos::PerTeam(m_team),
        [&](size_type& v) { v = static_cast<size_type>(Impl::acquire_token<exec_space>(m_bits)); }, m_value);
  }
  KOKKOS_INLINE_FUNCTION ~AcquireTeamUniqueToken() {
    m_team.team_barrier();  // every member is done with the token
    Kokkos::single(Kokkos::PerTeam(m_team), [&]() { m_bits.release(static_cast<int>(m_value)); });
  }
  AcquireTeamUniqueToken(const AcquireTeamUniqueToken&) = delete;
  AcquireTeamUniqueToken& operator=(const AcquireTeamUniqueToken&) = delete;

  KOKKOS_INLINE_FUNCTION size_type value() const { return m_value; }
  static std::size_t shmem_size() { return sizeof(size_type); }

 private:
  Impl::TokenBitset m_bits;
  team_member_type m_team;
  size_type m_value;
};

}  // namespace Kokkos::Experimental

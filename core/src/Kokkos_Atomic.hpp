#pragma once
// Atomic operations on plain memory (Kokkos 4 API: every function takes a `T*`).
//
// Three implementation tiers, chosen per type at compile time:
//  1. native  : integral types on host (__atomic_fetch_add/...), and on device the CUDA
//               intrinsics atomicAdd/Max/Min/And/Or/Xor/Exch for 4- and 8-byte types;
//  2. CAS loop: any other type whose size is lock-free (host: 1, 2, 4, 8 bytes, device: 4 and
//               8 bytes) and whose alignment is at least its size, e.g. float, double, or a
//               pair of floats aligned to 8 — a compare-exchange loop on its bit pattern;
//  3. locked  : everything else (a 16-byte struct, complex<double>, a 12-byte struct) goes
//               through a small striped spin-lock table hashed by address. Every access to
//               such an object through this header (load and store included) takes the lock.
//
// Memory order: the public functions are relaxed, as Kokkos 4's (desul's MemoryOrderRelaxed):
// indivisible, but ordering nothing else; code that publishes data through one pairs it with
// memory_fence() (as in Kokkos) or uses Impl's acquire / release / acq_rel / seq_cst variants,
// as the library's own lock-free structures do.  On a type too wide for a hardware atomic the
// lock orders them anyway.  Device code follows PTX's mapping of C++ atomics: fence.sc before a
// seq_cst access, fence.acq_rel for acquire / release / acq_rel, none for relaxed.
// Compare-exchange compares bit patterns (as Kokkos/desul): -0.0 != 0.0, NaN == NaN.
//
// Everything here is KOKKOS_INLINE_FUNCTION and free of exceptions, virtuals and containers so
// that the CUDA back end compiles it for the device.

#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace Kokkos {
namespace Impl {

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

// Value arguments are not deduced (as in Kokkos 4), so `atomic_add(&double_var, 1)` works.
template <class T>
struct atomic_dont_deduce {
  using type = T;
};
template <class T>
using atomic_dont_deduce_t = typename atomic_dont_deduce<T>::type;

enum class atomic_order { relaxed, acquire, release, acq_rel, seq_cst };
// The order of the public functions (Kokkos 4's).
inline constexpr atomic_order atomic_public_order = atomic_order::relaxed;

// Whether T is handled with lock-free hardware atomics in the current compilation pass.
template <class T>
inline constexpr bool atomic_is_lock_free_v =
#if defined(__CUDA_ARCH__)
    (sizeof(T) == 4 || sizeof(T) == 8) && alignof(T) >= sizeof(T);
#else
    (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) &&
    alignof(T) >= sizeof(T);
#endif

template <class T>
inline constexpr bool atomic_is_integer_v =
    std::is_integral_v<std::remove_cv_t<T>> && !std::is_same_v<std::remove_cv_t<T>, bool>;

// Unsigned integer of the same size as T (4 and 8 bytes only; used for the device).
template <std::size_t N>
struct atomic_rep;
template <>
struct atomic_rep<4> {
  using type = unsigned int;
  using signed_type = int;
};
template <>
struct atomic_rep<8> {
  using type = unsigned long long;
  using signed_type = long long;
};
template <class T>
using atomic_rep_t = typename atomic_rep<sizeof(T)>::type;
template <class T>
using atomic_signed_rep_t = typename atomic_rep<sizeof(T)>::signed_type;

template <class To, class From>
KOKKOS_FORCEINLINE_FUNCTION To atomic_bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  memcpy(static_cast<void*>(&to), static_cast<const void*>(&from), sizeof(To));
  return to;
}

// Wrapping integer arithmetic (no signed-overflow UB), the plain operator otherwise.
template <class T>
using atomic_wrap_t =
    std::conditional_t<(sizeof(T) < sizeof(unsigned int)), unsigned int, std::make_unsigned_t<T>>;

// Spin-wait hint.  On the device a short sleep: thousands of spinning threads retrying an
// atomic on one address without one slow down the thread that holds what they wait for.
KOKKOS_FORCEINLINE_FUNCTION void pause() {
#if defined(__CUDA_ARCH__)
#if __CUDA_ARCH__ >= 700
  __nanosleep(32);
#endif
#elif defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// ---------------------------------------------------------------------------------------------
// Fences
// ---------------------------------------------------------------------------------------------

template <atomic_order MO>
KOKKOS_FORCEINLINE_FUNCTION void atomic_fence_before() {
#if defined(__CUDA_ARCH__)
  constexpr bool light = __CUDA_ARCH__ >= 700 && (MO == atomic_order::release || MO == atomic_order::acq_rel);
  if constexpr (light) asm volatile("fence.acq_rel.gpu;" ::: "memory");  // Volta and later
  else if constexpr (MO != atomic_order::relaxed && MO != atomic_order::acquire) __threadfence();
#endif
}
template <atomic_order MO>
KOKKOS_FORCEINLINE_FUNCTION void atomic_fence_after() {
#if defined(__CUDA_ARCH__)
  if constexpr (MO == atomic_order::acquire || MO == atomic_order::acq_rel ||
                MO == atomic_order::seq_cst)  // seq_cst: a fence.sc came before the access
    atomic_fence_before<atomic_order::release>();  // the fence.acq_rel
#endif
}

#if !defined(__CUDA_ARCH__)
template <atomic_order MO>
inline constexpr int atomic_host_order =
    MO == atomic_order::relaxed   ? __ATOMIC_RELAXED
    : MO == atomic_order::acquire ? __ATOMIC_ACQUIRE
    : MO == atomic_order::release ? __ATOMIC_RELEASE
    : MO == atomic_order::acq_rel ? __ATOMIC_ACQ_REL
                                  : __ATOMIC_SEQ_CST;
// Order of the load performed by a failed compare-exchange (may not be release / acq_rel).
template <atomic_order MO>
inline constexpr int atomic_host_failure_order =
    MO == atomic_order::seq_cst                                  ? __ATOMIC_SEQ_CST
    : (MO == atomic_order::acquire || MO == atomic_order::acq_rel) ? __ATOMIC_ACQUIRE
                                                                   : __ATOMIC_RELAXED;
#endif

// ---------------------------------------------------------------------------------------------
// Striped lock table (types that are not lock-free)
// ---------------------------------------------------------------------------------------------

inline constexpr unsigned int atomic_lock_count = 4096;  // power of two

KOKKOS_INLINE_FUNCTION unsigned int* atomic_lock_array() {
  // One table per process on the host (inline function => one static object); on the device
  // an implicit __device__ variable (one per translation unit without relocatable device code).
  static unsigned int locks[atomic_lock_count];
  return locks;
}

KOKKOS_FORCEINLINE_FUNCTION unsigned int* atomic_lock_for(const volatile void* ptr) {
  const auto a = reinterpret_cast<std::uintptr_t>(ptr);
  return atomic_lock_array() + ((a >> 4) & (atomic_lock_count - 1));
}

KOKKOS_FORCEINLINE_FUNCTION bool atomic_try_lock(unsigned int* lock) {
#if defined(__CUDA_ARCH__)
  // Test before test-and-set, as on the host: waiters read the lock instead of queueing atomics.
  if (*static_cast<volatile unsigned int*>(lock) != 0u) return false;
  if (atomicCAS(lock, 0u, 1u) != 0u) return false;
  __threadfence();  // fence.sc: an access to a locked type is ordered as a seq_cst one
  return true;
#else
  if (__atomic_load_n(lock, __ATOMIC_RELAXED) != 0u) return false;
  return __atomic_exchange_n(lock, 1u, __ATOMIC_SEQ_CST) == 0u;
#endif
}

KOKKOS_FORCEINLINE_FUNCTION void atomic_unlock(unsigned int* lock) {
#if defined(__CUDA_ARCH__)
  __threadfence();
  atomicExch(lock, 0u);
#else
  __atomic_store_n(lock, 0u, __ATOMIC_SEQ_CST);
#endif
}

// Bitwise equality (the locked compare-exchange matches the lock-free ones).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION bool atomic_bitwise_equal(const T& a, const T& b) {
  const unsigned char* pa = reinterpret_cast<const unsigned char*>(&a);
  const unsigned char* pb = reinterpret_cast<const unsigned char*>(&b);
  for (std::size_t i = 0; i < sizeof(T); ++i)
    if (pa[i] != pb[i]) return false;
  return true;
}

// The `done` flag form (rather than spinning on the lock) keeps a warp whose threads contend for
// one lock from dead-locking on the device.
template <class Op, bool ReturnNew, class T, class V>
KOKKOS_INLINE_FUNCTION T atomic_locked_rmw(T* const dest, const V val) {
  unsigned int* lock = atomic_lock_for(dest);
  while (true) {
    if (atomic_try_lock(lock)) {
      const T old_v = *dest;
      const T new_v = Op::apply(old_v, val);
      *dest = new_v;
      atomic_unlock(lock);
      if constexpr (ReturnNew)
        return new_v;
      else
        return old_v;
    }
    pause();
  }
}

template <class T>
KOKKOS_INLINE_FUNCTION std::remove_cv_t<T> atomic_locked_load(T* const dest) {
  unsigned int* lock = atomic_lock_for(dest);
  while (true) {
    if (atomic_try_lock(lock)) {
      const std::remove_cv_t<T> v = *dest;
      atomic_unlock(lock);
      return v;
    }
    pause();
  }
}

template <class T>
KOKKOS_INLINE_FUNCTION void atomic_locked_store(T* const dest, const T val) {
  unsigned int* lock = atomic_lock_for(dest);
  while (true) {
    if (atomic_try_lock(lock)) {
      *dest = val;
      atomic_unlock(lock);
      return;
    }
    pause();
  }
}

// Returns the old value; stores `desired` iff the old value equals `expected` bitwise.
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_locked_cas(T* const dest, const T expected, const T desired) {
  unsigned int* lock = atomic_lock_for(dest);
  while (true) {
    if (atomic_try_lock(lock)) {
      const T old_v = *dest;
      if (atomic_bitwise_equal(old_v, expected)) *dest = desired;
      atomic_unlock(lock);
      return old_v;
    }
    pause();
  }
}

// ---------------------------------------------------------------------------------------------
// Operations: apply(old, val) gives the new value; `native<T>` says whether the current
// compilation pass has a dedicated instruction / builtin, `fetch_native` uses it.
// ---------------------------------------------------------------------------------------------

#if defined(__CUDA_ARCH__)
template <class T>
inline constexpr bool atomic_device_int_v = atomic_is_integer_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);
template <class T>
inline constexpr bool atomic_device_fp_v = std::is_same_v<T, float> || std::is_same_v<T, double>;
#endif

struct AtomicOpAdd {
  template <class T, class V>
  KOKKOS_FORCEINLINE_FUNCTION static T apply(const T a, const V b) {
    if constexpr (atomic_is_integer_v<T>) {
      using W = atomic_wrap_t<T>;
      return static_cast<T>(static_cast<W>(a) + static_cast<W>(b));
    } else {
      return static_cast<T>(a + b);
    }
  }
#if defined(__CUDA_ARCH__)
  template <class T>
  static constexpr bool native = atomic_device_int_v<T> || atomic_device_fp_v<T>;
  template <class T, atomic_order>
  __device__ static T fetch_native(T* p, const T v) {
    if constexpr (atomic_device_fp_v<T>) {
      return atomicAdd(p, v);
    } else {
      using R = atomic_rep_t<T>;
      return static_cast<T>(atomicAdd(reinterpret_cast<R*>(p), static_cast<R>(v)));
    }
  }
#else
  template <class T>
  static constexpr bool native = atomic_is_integer_v<T>;
  template <class T, atomic_order MO>
  static T fetch_native(T* p, const T v) {
    return __atomic_fetch_add(p, v, atomic_host_order<MO>);
  }
#endif
};

struct AtomicOpSub {
  template <class T, class V>
  KOKKOS_FORCEINLINE_FUNCTION static T apply(const T a, const V b) {
    if constexpr (atomic_is_integer_v<T>) {
      using W = atomic_wrap_t<T>;
      return static_cast<T>(static_cast<W>(a) - static_cast<W>(b));
    } else {
      return static_cast<T>(a - b);
    }
  }
#if defined(__CUDA_ARCH__)
  template <class T>
  static constexpr bool native = atomic_device_int_v<T> || atomic_device_fp_v<T>;
  template <class T, atomic_order>
  __device__ static T fetch_native(T* p, const T v) {
    if constexpr (atomic_device_fp_v<T>) {
      return atomicAdd(p, -v);  // IEEE: a - b == a + (-b)
    } else {
      using R = atomic_rep_t<T>;
      return static_cast<T>(atomicAdd(reinterpret_cast<R*>(p), R(0) - static_cast<R>(v)));
    }
  }
#else
  template <class T>
  static constexpr bool native = atomic_is_integer_v<T>;
  template <class T, atomic_order MO>
  static T fetch_native(T* p, const T v) {
    return __atomic_fetch_sub(p, v, atomic_host_order<MO>);
  }
#endif
};

struct AtomicOpMax {
  template <class T, class V>
  KOKKOS_FORCEINLINE_FUNCTION static T apply(const T a, const V b) {
    return a > b ? a : static_cast<T>(b);
  }
#if defined(__CUDA_ARCH__)
  template <class T>
  static constexpr bool native = atomic_device_int_v<T>;
  template <class T, atomic_order>
  __device__ static T fetch_native(T* p, const T v) {
    if constexpr (std::is_signed_v<T>) {
      using S = atomic_signed_rep_t<T>;
      return static_cast<T>(atomicMax(reinterpret_cast<S*>(p), static_cast<S>(v)));
    } else {
      using R = atomic_rep_t<T>;
      return static_cast<T>(atomicMax(reinterpret_cast<R*>(p), static_cast<R>(v)));
    }
  }
#else
  template <class T>
  static constexpr bool native = false;
  template <class T, atomic_order>
  static T fetch_native(T*, const T);
#endif
};

struct AtomicOpMin {
  template <class T, class V>
  KOKKOS_FORCEINLINE_FUNCTION static T apply(const T a, const V b) {
    return a < b ? a : static_cast<T>(b);
  }
#if defined(__CUDA_ARCH__)
  template <class T>
  static constexpr bool native = atomic_device_int_v<T>;
  template <class T, atomic_order>
  __device__ static T fetch_native(T* p, const T v) {
    if constexpr (std::is_signed_v<T>) {
      using S = atomic_signed_rep_t<T>;
      return static_cast<T>(atomicMin(reinterpret_cast<S*>(p), static_cast<S>(v)));
    } else {
      using R = atomic_rep_t<T>;
      return static_cast<T>(atomicMin(reinterpret_cast<R*>(p), static_cast<R>(v)));
    }
  }
#else
  template <class T>
  static constexpr bool native = false;
  template <class T, atomic_order>
  static T fetch_native(T*, const T);
#endif
};

// Operations without a native form anywhere: CAS loop or lock.
#define KOKKOS_IMPL_ATOMIC_CAS_ONLY_OP(NAME, EXPR)                                     \
  struct NAME {                                                                         \
    template <class T, class V>                                                         \
    KOKKOS_FORCEINLINE_FUNCTION static T apply(const T a, const V b) {                  \
      return static_cast<T>(EXPR);                                                      \
    }                                                                                   \
    template <class T>                                                                  \
    static constexpr bool native = false;                                               \
    template <class T, atomic_order>                                                    \
    KOKKOS_FORCEINLINE_FUNCTION static T fetch_native(T*, const T v) { return v; }      \
  };

struct AtomicOpMul {
  template <class T, class V>
  KOKKOS_FORCEINLINE_FUNCTION static T apply(const T a, const V b) {
    if constexpr (atomic_is_integer_v<T>) {
      using W = atomic_wrap_t<T>;
      return static_cast<T>(static_cast<W>(a) * static_cast<W>(b));
    } else {
      return static_cast<T>(a * b);
    }
  }
  template <class T>
  static constexpr bool native = false;
  template <class T, atomic_order>
  KOKKOS_FORCEINLINE_FUNCTION static T fetch_native(T*, const T v) { return v; }
};
KOKKOS_IMPL_ATOMIC_CAS_ONLY_OP(AtomicOpDiv, a / b)
KOKKOS_IMPL_ATOMIC_CAS_ONLY_OP(AtomicOpMod, a % b)
KOKKOS_IMPL_ATOMIC_CAS_ONLY_OP(AtomicOpLshift, a << b)
KOKKOS_IMPL_ATOMIC_CAS_ONLY_OP(AtomicOpRshift, a >> b)
KOKKOS_IMPL_ATOMIC_CAS_ONLY_OP(AtomicOpAssign, ((void)a, b))
#undef KOKKOS_IMPL_ATOMIC_CAS_ONLY_OP

#if defined(__CUDA_ARCH__)
#define KOKKOS_IMPL_ATOMIC_BITWISE_OP(NAME, EXPR, CUDA_FN, HOST_BUILTIN)                      \
  struct NAME {                                                                                \
    template <class T, class V>                                                                \
    KOKKOS_FORCEINLINE_FUNCTION static T apply(const T a, const V b) {                         \
      return static_cast<T>(EXPR);                                                             \
    }                                                                                          \
    template <class T>                                                                         \
    static constexpr bool native = atomic_device_int_v<T>;                                     \
    template <class T, atomic_order>                                                           \
    __device__ static T fetch_native(T* p, const T v) {                                        \
      using R = atomic_rep_t<T>;                                                               \
      return static_cast<T>(CUDA_FN(reinterpret_cast<R*>(p), static_cast<R>(v)));              \
    }                                                                                          \
  };
#define KOKKOS_IMPL_ATOMIC_NAND_OP(NAME)                                                       \
  struct NAME {                                                                                \
    template <class T, class V>                                                                \
    KOKKOS_FORCEINLINE_FUNCTION static T apply(const T a, const V b) {                         \
      return static_cast<T>(~(a & b));                                                         \
    }                                                                                          \
    template <class T>                                                                         \
    static constexpr bool native = false;                                                      \
    template <class T, atomic_order>                                                           \
    KOKKOS_FORCEINLINE_FUNCTION static T fetch_native(T*, const T v) { return v; }             \
  };
#else
#define KOKKOS_IMPL_ATOMIC_BITWISE_OP(NAME, EXPR, CUDA_FN, HOST_BUILTIN)                      \
  struct NAME {                                                                                \
    template <class T, class V>                                                                \
    KOKKOS_FORCEINLINE_FUNCTION static T apply(const T a, const V b) {                         \
      return static_cast<T>(EXPR);                                                             \
    }                                                                                          \
    template <class T>                                                                         \
    static constexpr bool native = atomic_is_integer_v<T>;                                     \
    template <class T, atomic_order MO>                                                        \
    static T fetch_native(T* p, const T v) {                                                   \
      return HOST_BUILTIN(p, v, atomic_host_order<MO>);                                        \
    }                                                                                          \
  };
#define KOKKOS_IMPL_ATOMIC_NAND_OP(NAME) \
  KOKKOS_IMPL_ATOMIC_BITWISE_OP(NAME, ~(a & b), unused, __atomic_fetch_nand)
#endif
KOKKOS_IMPL_ATOMIC_BITWISE_OP(AtomicOpAnd, a& b, atomicAnd, __atomic_fetch_and)
KOKKOS_IMPL_ATOMIC_BITWISE_OP(AtomicOpOr, a | b, atomicOr, __atomic_fetch_or)
KOKKOS_IMPL_ATOMIC_BITWISE_OP(AtomicOpXor, a ^ b, atomicXor, __atomic_fetch_xor)
KOKKOS_IMPL_ATOMIC_NAND_OP(AtomicOpNand)
#undef KOKKOS_IMPL_ATOMIC_BITWISE_OP
#undef KOKKOS_IMPL_ATOMIC_NAND_OP

// ---------------------------------------------------------------------------------------------
// Lock-free primitives with an explicit memory order
// ---------------------------------------------------------------------------------------------

template <atomic_order MO, class T>
KOKKOS_FORCEINLINE_FUNCTION std::remove_cv_t<T> atomic_load_order(T* const dest) {
  using U = std::remove_cv_t<T>;
  if constexpr (!atomic_is_lock_free_v<U>) {
    return atomic_locked_load(dest);
  } else {
#if defined(__CUDA_ARCH__)
    using R = atomic_rep_t<U>;
    if constexpr (MO == atomic_order::seq_cst) __threadfence();
    const R r = *reinterpret_cast<const volatile R*>(dest);
    atomic_fence_after<MO>();
    return atomic_bit_cast<U>(r);
#else
    U r;
    __atomic_load(dest, &r, atomic_host_failure_order<MO>);
    return r;
#endif
  }
}

template <atomic_order MO, class T>
KOKKOS_FORCEINLINE_FUNCTION void atomic_store_order(T* const dest, const T val) {
  if constexpr (!atomic_is_lock_free_v<T>) {
    atomic_locked_store(dest, val);
  } else {
#if defined(__CUDA_ARCH__)
    using R = atomic_rep_t<T>;
    atomic_fence_before<MO>();
    *reinterpret_cast<volatile R*>(dest) = atomic_bit_cast<R>(val);
    if constexpr (MO == atomic_order::seq_cst) __threadfence();
#else
    T v = val;
    __atomic_store(dest, &v,
                   MO == atomic_order::seq_cst   ? __ATOMIC_SEQ_CST
                   : MO == atomic_order::relaxed ? __ATOMIC_RELAXED
                                                 : __ATOMIC_RELEASE);
#endif
  }
}

// Strong compare-exchange: returns the old value.
template <atomic_order MO, class T>
KOKKOS_FORCEINLINE_FUNCTION T atomic_cas_order(T* const dest, const T expected, const T desired) {
  if constexpr (!atomic_is_lock_free_v<T>) {
    return atomic_locked_cas(dest, expected, desired);
  } else {
#if defined(__CUDA_ARCH__)
    using R = atomic_rep_t<T>;
    atomic_fence_before<MO>();
    const R old = atomicCAS(reinterpret_cast<R*>(dest), atomic_bit_cast<R>(expected),
                            atomic_bit_cast<R>(desired));
    atomic_fence_after<MO>();
    return atomic_bit_cast<T>(old);
#else
    T exp = expected;
    T des = desired;
    __atomic_compare_exchange(dest, &exp, &des, false, atomic_host_order<MO>,
                              atomic_host_failure_order<MO>);
    return exp;
#endif
  }
}

template <atomic_order MO, class T>
KOKKOS_FORCEINLINE_FUNCTION T atomic_exchange_order(T* const dest, const T val) {
  if constexpr (!atomic_is_lock_free_v<T>) {
    return atomic_locked_rmw<AtomicOpAssign, false>(dest, val);
  } else {
#if defined(__CUDA_ARCH__)
    using R = atomic_rep_t<T>;
    atomic_fence_before<MO>();
    const R old = atomicExch(reinterpret_cast<R*>(dest), atomic_bit_cast<R>(val));
    atomic_fence_after<MO>();
    return atomic_bit_cast<T>(old);
#else
    T v = val;
    T old;
    __atomic_exchange(dest, &v, &old, atomic_host_order<MO>);
    return old;
#endif
  }
}

// Read-modify-write `*dest = Op::apply(*dest, val)`; returns the old value, or the new one when
// ReturnNew.
template <class Op, bool ReturnNew, atomic_order MO, class T, class V>
KOKKOS_INLINE_FUNCTION T atomic_rmw(T* const dest, const V val) {
  static_assert(!std::is_const_v<T>, "Kokkos atomic read-modify-write on a pointer to const");
  if constexpr (!atomic_is_lock_free_v<T>) {
    return atomic_locked_rmw<Op, ReturnNew>(dest, val);
  } else if constexpr (Op::template native<T>) {
    atomic_fence_before<MO>();
    const T old_v = Op::template fetch_native<T, MO>(dest, static_cast<T>(val));
    atomic_fence_after<MO>();
    if constexpr (ReturnNew)
      return Op::apply(old_v, val);
    else
      return old_v;
  } else {
#if defined(__CUDA_ARCH__)
    using R = atomic_rep_t<T>;
    R* const p = reinterpret_cast<R*>(dest);
    atomic_fence_before<MO>();
    R assumed;
    R old = *reinterpret_cast<volatile R*>(p);
    T old_v;
    T new_v;
    do {
      assumed = old;
      old_v = atomic_bit_cast<T>(assumed);
      new_v = Op::apply(old_v, val);
      old = atomicCAS(p, assumed, atomic_bit_cast<R>(new_v));
    } while (old != assumed);
    atomic_fence_after<MO>();
#else
    T old_v;
    T new_v;
    __atomic_load(dest, &old_v, __ATOMIC_RELAXED);
    do {
      new_v = Op::apply(old_v, val);
    } while (!__atomic_compare_exchange(dest, &old_v, &new_v, true, atomic_host_order<MO>,
                                        __ATOMIC_RELAXED));
#endif
    if constexpr (ReturnNew)
      return new_v;
    else
      return old_v;
  }
}

// ---------------------------------------------------------------------------------------------
// Memory-order variants used by the library's lock-free structures
// ---------------------------------------------------------------------------------------------

template <class T>
KOKKOS_INLINE_FUNCTION std::remove_cv_t<T> atomic_load_relaxed(T* const dest) {
  return atomic_load_order<atomic_order::relaxed>(dest);
}
template <class T>
KOKKOS_INLINE_FUNCTION std::remove_cv_t<T> atomic_load_acquire(T* const dest) {
  return atomic_load_order<atomic_order::acquire>(dest);
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_store_relaxed(T* const dest, atomic_dont_deduce_t<const T> val) {
  atomic_store_order<atomic_order::relaxed>(dest, val);
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_store_release(T* const dest, atomic_dont_deduce_t<const T> val) {
  atomic_store_order<atomic_order::release>(dest, val);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_add_relaxed(T* const dest, atomic_dont_deduce_t<const T> val) {
  return atomic_rmw<AtomicOpAdd, false, atomic_order::relaxed>(dest, val);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_add_acq_rel(T* const dest, atomic_dont_deduce_t<const T> val) {
  return atomic_rmw<AtomicOpAdd, false, atomic_order::acq_rel>(dest, val);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_sub_acq_rel(T* const dest, atomic_dont_deduce_t<const T> val) {
  return atomic_rmw<AtomicOpSub, false, atomic_order::acq_rel>(dest, val);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_or_acq_rel(T* const dest, atomic_dont_deduce_t<const T> val) {
  return atomic_rmw<AtomicOpOr, false, atomic_order::acq_rel>(dest, val);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_and_acq_rel(T* const dest, atomic_dont_deduce_t<const T> val) {
  return atomic_rmw<AtomicOpAnd, false, atomic_order::acq_rel>(dest, val);
}
// Sequentially consistent, for the library's protocols that need more than the public
// functions' relaxed order (wait lists, reference counts, publication through a link).
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_store_seq_cst(T* const dest, atomic_dont_deduce_t<const T> val) {
  atomic_store_order<atomic_order::seq_cst>(dest, val);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_exchange_seq_cst(T* const dest, atomic_dont_deduce_t<const T> val) {
  return atomic_exchange_order<atomic_order::seq_cst>(dest, val);
}
// Strong compare-exchange: returns the old value.
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_compare_exchange_seq_cst(T* const dest, atomic_dont_deduce_t<const T> expected,
                                                         atomic_dont_deduce_t<const T> desired) {
  return atomic_cas_order<atomic_order::seq_cst>(dest, expected, desired);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_add_seq_cst(T* const dest, atomic_dont_deduce_t<const T> val) {
  return atomic_rmw<AtomicOpAdd, false, atomic_order::seq_cst>(dest, val);
}
// Weak compare-exchange (may fail spuriously): on failure `expected` receives the current value.
template <class T>
KOKKOS_INLINE_FUNCTION bool atomic_compare_exchange_weak_acq_rel(T* const dest, T& expected,
                                                                 atomic_dont_deduce_t<const T> desired) {
  if constexpr (!atomic_is_lock_free_v<T>) {
    const T old = atomic_locked_cas(dest, expected, desired);
    const bool ok = atomic_bitwise_equal(old, expected);
    expected = old;
    return ok;
  } else {
#if defined(__CUDA_ARCH__)
    using R = atomic_rep_t<T>;
    const R exp = atomic_bit_cast<R>(expected);
    atomic_fence_before<atomic_order::acq_rel>();
    const R old = atomicCAS(reinterpret_cast<R*>(dest), exp, atomic_bit_cast<R>(desired));
    atomic_fence_after<atomic_order::acq_rel>();
    if (old == exp) return true;
    expected = atomic_bit_cast<T>(old);
    return false;
#else
    T des = desired;
    return __atomic_compare_exchange(dest, &expected, &des, true, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE);
#endif
  }
}

}  // namespace Impl

// ---------------------------------------------------------------------------------------------
// Public API (Kokkos 4)
// ---------------------------------------------------------------------------------------------

KOKKOS_INLINE_FUNCTION void memory_fence() {
#if defined(__CUDA_ARCH__)
  __threadfence();
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}
KOKKOS_INLINE_FUNCTION void load_fence() {
#if defined(__CUDA_ARCH__)
  Impl::atomic_fence_after<Impl::atomic_order::acquire>();
#else
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
}
KOKKOS_INLINE_FUNCTION void store_fence() {
#if defined(__CUDA_ARCH__)
  Impl::atomic_fence_before<Impl::atomic_order::release>();
#else
  __atomic_thread_fence(__ATOMIC_RELEASE);
#endif
}

template <class T>
KOKKOS_INLINE_FUNCTION std::remove_cv_t<T> atomic_load(T* const dest) {
  return Impl::atomic_load_order<Impl::atomic_public_order>(dest);
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_store(T* const dest, Impl::atomic_dont_deduce_t<const T> val) {
  Impl::atomic_store_order<Impl::atomic_public_order>(dest, val);
}
// Deprecated in Kokkos 4: same as atomic_store.
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_assign(T* const dest, Impl::atomic_dont_deduce_t<const T> val) {
  Impl::atomic_store_order<Impl::atomic_public_order>(dest, val);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_exchange(T* const dest, Impl::atomic_dont_deduce_t<const T> val) {
  return Impl::atomic_exchange_order<Impl::atomic_public_order>(dest, val);
}
// Stores `desired` iff *dest equals `expected` (bitwise); returns the old value.
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_compare_exchange(T* const dest,
                                                 Impl::atomic_dont_deduce_t<const T> expected,
                                                 Impl::atomic_dont_deduce_t<const T> desired) {
  return Impl::atomic_cas_order<Impl::atomic_public_order>(dest, expected, desired);
}
// Same, but returns whether the exchange happened.
template <class T>
KOKKOS_INLINE_FUNCTION bool atomic_compare_exchange_strong(
    T* const dest, Impl::atomic_dont_deduce_t<const T> expected,
    Impl::atomic_dont_deduce_t<const T> desired) {
  const T old = Impl::atomic_cas_order<Impl::atomic_public_order>(dest, expected, desired);
  return Impl::atomic_bitwise_equal(old, expected);
}

// atomic_fetch_OP (returns the old value), atomic_OP_fetch (returns the new value),
// atomic_OP (returns nothing).
#define KOKKOS_IMPL_ATOMIC_OP(NAME, OP, VALUE_T)                                                \
  template <class T>                                                                          \
  KOKKOS_INLINE_FUNCTION T atomic_fetch_##NAME(T* const dest, VALUE_T val) {                  \
    return Impl::atomic_rmw<Impl::OP, false, Impl::atomic_public_order>(dest, val);           \
  }                                                                                           \
  template <class T>                                                                          \
  KOKKOS_INLINE_FUNCTION T atomic_##NAME##_fetch(T* const dest, VALUE_T val) {                \
    return Impl::atomic_rmw<Impl::OP, true, Impl::atomic_public_order>(dest, val);            \
  }                                                                                           \
  template <class T>                                                                          \
  KOKKOS_INLINE_FUNCTION void atomic_##NAME(T* const dest, VALUE_T val) {                     \
    (void)Impl::atomic_rmw<Impl::OP, false, Impl::atomic_public_order>(dest, val);            \
  }

KOKKOS_IMPL_ATOMIC_OP(add, AtomicOpAdd, Impl::atomic_dont_deduce_t<const T>)
KOKKOS_IMPL_ATOMIC_OP(sub, AtomicOpSub, Impl::atomic_dont_deduce_t<const T>)
KOKKOS_IMPL_ATOMIC_OP(max, AtomicOpMax, Impl::atomic_dont_deduce_t<const T>)
KOKKOS_IMPL_ATOMIC_OP(min, AtomicOpMin, Impl::atomic_dont_deduce_t<const T>)
KOKKOS_IMPL_ATOMIC_OP(mul, AtomicOpMul, Impl::atomic_dont_deduce_t<const T>)
KOKKOS_IMPL_ATOMIC_OP(div, AtomicOpDiv, Impl::atomic_dont_deduce_t<const T>)
KOKKOS_IMPL_ATOMIC_OP(mod, AtomicOpMod, Impl::atomic_dont_deduce_t<const T>)
KOKKOS_IMPL_ATOMIC_OP(and, AtomicOpAnd, Impl::atomic_dont_deduce_t<const T>)
KOKKOS_IMPL_ATOMIC_OP(or, AtomicOpOr, Impl::atomic_dont_deduce_t<const T>)
KOKKOS_IMPL_ATOMIC_OP(xor, AtomicOpXor, Impl::atomic_dont_deduce_t<const T>)
KOKKOS_IMPL_ATOMIC_OP(nand, AtomicOpNand, Impl::atomic_dont_deduce_t<const T>)
KOKKOS_IMPL_ATOMIC_OP(lshift, AtomicOpLshift, const unsigned int)
KOKKOS_IMPL_ATOMIC_OP(rshift, AtomicOpRshift, const unsigned int)
#undef KOKKOS_IMPL_ATOMIC_OP

template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_inc(T* const dest) {
  return Impl::atomic_rmw<Impl::AtomicOpAdd, false, Impl::atomic_public_order>(dest, T(1));
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_dec(T* const dest) {
  return Impl::atomic_rmw<Impl::AtomicOpSub, false, Impl::atomic_public_order>(dest, T(1));
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_inc_fetch(T* const dest) {
  return Impl::atomic_rmw<Impl::AtomicOpAdd, true, Impl::atomic_public_order>(dest, T(1));
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_dec_fetch(T* const dest) {
  return Impl::atomic_rmw<Impl::AtomicOpSub, true, Impl::atomic_public_order>(dest, T(1));
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_increment(T* const dest) {
  (void)Impl::atomic_rmw<Impl::AtomicOpAdd, false, Impl::atomic_public_order>(dest, T(1));
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_decrement(T* const dest) {
  (void)Impl::atomic_rmw<Impl::AtomicOpSub, false, Impl::atomic_public_order>(dest, T(1));
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_inc(T* const dest) {
  atomic_increment(dest);
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_dec(T* const dest) {
  atomic_decrement(dest);
}

// A plain read or write through a volatile access, which the compiler may neither elide nor
// merge with other accesses; unlike the atomics it orders nothing and is not indivisible.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T volatile_load(const volatile T* const src) {
  return *src;
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void volatile_store(volatile T* const dst, const T& val) {
  *dst = val;
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void volatile_store(volatile T* const dst, const volatile T& val) {
  *dst = val;
}

}  // namespace Kokkos

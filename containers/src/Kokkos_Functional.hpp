#pragma once
// Kokkos' function objects, callable in kernels: hashes and comparisons, such as UnorderedMap's
// defaults (pod_hash and pod_equal_to) for its keys.
//
// pod_hash and pod_equal_to / pod_not_equal_to look at a key's object representation (its bytes):
// right for keys without padding, whose equal values have equal bytes.  equal_to .. less_equal
// call the type's own operators.  The header stands alone.
#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstdint>

namespace Kokkos {

namespace Impl {
// MurmurHash3 (x86, 32-bit) of `len` bytes: good avalanche for the bucket and slot hints.
KOKKOS_INLINE_FUNCTION uint32_t murmur_rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
KOKKOS_INLINE_FUNCTION uint32_t murmur_fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}
KOKKOS_INLINE_FUNCTION uint32_t murmur_hash3_x86_32(const void* key, int len, uint32_t seed) {
  const unsigned char* data = static_cast<const unsigned char*>(key);
  const int nblocks = len / 4;
  constexpr uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
  uint32_t h1 = seed;
  for (int i = 0; i < nblocks; ++i) {
    uint32_t k1 = uint32_t(data[4 * i]) | (uint32_t(data[4 * i + 1]) << 8) | (uint32_t(data[4 * i + 2]) << 16) |
                  (uint32_t(data[4 * i + 3]) << 24);
    k1 *= c1;
    k1 = murmur_rotl32(k1, 15);
    k1 *= c2;
    h1 ^= k1;
    h1 = murmur_rotl32(h1, 13);
    h1 = h1 * 5u + 0xe6546b64u;
  }
  const unsigned char* tail = data + nblocks * 4;
  uint32_t k1 = 0;
  switch (len & 3) {
    case 3: k1 ^= uint32_t(tail[2]) << 16; [[fallthrough]];
    case 2: k1 ^= uint32_t(tail[1]) << 8; [[fallthrough]];
    case 1:
      k1 ^= uint32_t(tail[0]);
      k1 *= c1;
      k1 = murmur_rotl32(k1, 15);
      k1 *= c2;
      h1 ^= k1;
  }
  h1 ^= uint32_t(len);
  return murmur_fmix32(h1);
}

template <class T>
KOKKOS_INLINE_FUNCTION bool bitwise_equal(const T* a, const T* b) {
  const unsigned char* x = reinterpret_cast<const unsigned char*>(a);
  const unsigned char* y = reinterpret_cast<const unsigned char*>(b);
  for (std::size_t i = 0; i < sizeof(T); ++i)
    if (x[i] != y[i]) return false;
  return true;
}
}  // namespace Impl

template <typename T>
struct pod_hash {
  KOKKOS_INLINE_FUNCTION uint32_t operator()(T const& t) const { return Impl::murmur_hash3_x86_32(&t, sizeof(T), 0); }
  KOKKOS_INLINE_FUNCTION uint32_t operator()(T const& t, uint32_t seed) const {
    return Impl::murmur_hash3_x86_32(&t, sizeof(T), seed);
  }
};
template <typename T>
struct pod_equal_to {
  KOKKOS_INLINE_FUNCTION bool operator()(T const& a, T const& b) const { return Impl::bitwise_equal(&a, &b); }
};
template <typename T>
struct pod_not_equal_to {
  KOKKOS_INLINE_FUNCTION bool operator()(T const& a, T const& b) const { return !Impl::bitwise_equal(&a, &b); }
};

template <typename T>
struct equal_to {
  KOKKOS_FORCEINLINE_FUNCTION bool operator()(T const& a, T const& b) const { return a == b; }
};
template <typename T>
struct not_equal_to {
  KOKKOS_FORCEINLINE_FUNCTION bool operator()(T const& a, T const& b) const { return a != b; }
};
template <typename T>
struct greater {
  KOKKOS_FORCEINLINE_FUNCTION bool operator()(T const& a, T const& b) const { return a > b; }
};
template <typename T>
struct less {
  KOKKOS_FORCEINLINE_FUNCTION bool operator()(T const& a, T const& b) const { return a < b; }
};
template <typename T>
struct greater_equal {
  KOKKOS_FORCEINLINE_FUNCTION bool operator()(T const& a, T const& b) const { return a >= b; }
};
template <typename T>
struct less_equal {
  KOKKOS_FORCEINLINE_FUNCTION bool operator()(T const& a, T const& b) const { return a <= b; }
};

}  // namespace Kokkos

#pragma once
// The body each generated translation unit of TestPublicHeaders ends with (see CMakeLists.txt):
// a little of the containers, the algorithms and SIMD, so that the unit uses what it included.
#define KDAG_PUBLIC_HEADERS_SMOKE(ORDER)                                                            \
  int public_headers_smoke_##ORDER() {                                                              \
    const int n = 100;                                                                              \
    Kokkos::View<int*> values("values", n);                                                         \
    Kokkos::parallel_for(                                                                           \
        "descending", n, KOKKOS_LAMBDA(const int i) { values(i) = n - i; });                        \
    Kokkos::sort(values);                                                                           \
    const bool sorted = Kokkos::Experimental::is_sorted(Kokkos::DefaultExecutionSpace(), values);    \
    Kokkos::UnorderedMap<int, int> map(128);                                                        \
    Kokkos::parallel_for(                                                                           \
        "keys", n, KOKKOS_LAMBDA(const int i) { map.insert(i % 10, i); });                          \
    Kokkos::fence();                                                                                \
    const Kokkos::Experimental::simd<double> twos(2.0);                                             \
    const double lanes = Kokkos::Experimental::reduce(twos, std::plus<>()) / 2.0;                   \
    return (sorted ? 1 : 0) + int(map.size()) +                                                     \
           (lanes == double(Kokkos::Experimental::simd<double>::size()) ? 100 : 0);                 \
  }

// Counting distinct keys with an UnorderedMap from a kernel, with the retry loop of Kokkos'
// tutorials: start with a small capacity; while an insert failed, rehash larger and insert again.
#include <Kokkos_Core.hpp>
#include <Kokkos_UnorderedMap.hpp>
#include <cstdio>
#include <set>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 50000;
  Kokkos::View<int*> keys("keys", n);
  Kokkos::parallel_for(
      "keys", n, KOKKOS_LAMBDA(const int i) { keys(i) = (i * 2654435761u) % 12345; });

  using map_type = Kokkos::UnorderedMap<int, int>;
  map_type map(100);
  int attempts = 0;
  do {
    if (map.failed_insert()) map.rehash(map.capacity() * 2);
    ++attempts;
    Kokkos::parallel_for(
        "insert", n, KOKKOS_LAMBDA(const int i) { map.insert(keys(i), i); });
    Kokkos::fence();
  } while (map.failed_insert() && attempts < 20);

  auto h_keys = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), keys);
  std::set<int> distinct(h_keys.data(), h_keys.data() + n);

  int missing = 0;
  Kokkos::parallel_reduce(
      "check", n, KOKKOS_LAMBDA(const int i, int& miss) { miss += map.exists(keys(i)) ? 0 : 1; }, missing);
  std::printf("unorderedmap_distinct_keys: %u distinct keys (expected %zu) after %d attempts, capacity %u\n",
              map.size(), distinct.size(), attempts, map.capacity());
  return (map.size() == distinct.size() && missing == 0 && !map.failed_insert()) ? 0 : 1;
}

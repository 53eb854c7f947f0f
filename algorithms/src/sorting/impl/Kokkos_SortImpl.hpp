#pragma once
// Kokkos::sort's engine on host back ends: a parallel merge sort over the space's workers.
//
//   1. each of P blocks (one per worker) is sorted with std::sort;
//   2. ceil(log2 P) rounds merge neighbouring runs pairwise; in every round each worker writes
//      an equal share of the output, found by "merge path" co-ranking (a binary search for how
//      many elements of each run precede output position k), so a round is as parallel as the
//      first however few pairs are left;
//   3. the runs ping-pong between the data and one buffer; the last round writes the data.
//
// With one worker, or few elements per worker, it is std::sort on the calling thread.  Like
// Kokkos::sort it is not stable.  A space that is not a host back end (the GPU) sorts a host
// copy and copies back, as Kokkos' fallback does.
#include <Kokkos_Core.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace Kokkos::Impl {

// Views Kokkos::sort accepts: rank 1, LayoutLeft, LayoutRight or LayoutStride.
template <class T>
constexpr inline bool is_admissible_to_kokkos_sort =
    is_view_v<T> && T::rank == 1 &&
    (std::is_same_v<typename T::array_layout, LayoutLeft> || std::is_same_v<typename T::array_layout, LayoutRight> ||
     std::is_same_v<typename T::array_layout, LayoutStride>);

template <class ViewType>
constexpr void static_assert_is_admissible_to_kokkos_sort(const ViewType&) {
  static_assert(is_admissible_to_kokkos_sort<ViewType>,
                "Kokkos::sort only accepts 1D values View with LayoutRight, LayoutLeft or LayoutStride.");
}

// Below this many elements per worker the merge rounds cost more than they save.
inline constexpr std::size_t host_sort_min_per_worker = std::size_t(1) << 14;

// How many elements of sorted run a (length na) are among the first k elements of merge(a, b):
// the smallest i that is not too small, where i is too small when a[i] would be merged before
// b[k - i - 1] (std::merge takes a's element first among equals).
template <class T, class Compare>
std::size_t merge_corank(const T* a, std::size_t na, const T* b, std::size_t nb, std::size_t k, const Compare& comp) {
  std::size_t lo = k > nb ? k - nb : 0, hi = k < na ? k : na;
  while (lo < hi) {
    const std::size_t i = lo + (hi - lo) / 2, j = k - i;
    if (j > 0 && !comp(b[j - 1], a[i])) {
      lo = i + 1;  // a[i] <= b[j-1]: a[i] belongs among the first k
    } else {
      hi = i;
    }
  }
  return lo;
}

// Writes output positions [out_begin, out_end) of merge(a, b) to out + out_begin.
template <class T, class Compare>
void merge_slice(const T* a, std::size_t na, const T* b, std::size_t nb, T* out, std::size_t out_begin,
                 std::size_t out_end, const Compare& comp) {
  const std::size_t i0 = merge_corank(a, na, b, nb, out_begin, comp);
  const std::size_t i1 = merge_corank(a, na, b, nb, out_end, comp);
  std::merge(a + i0, a + i1, b + (out_begin - i0), b + (out_end - i1), out + out_begin, comp);
}

// Sorts data[0, n) with the workers of `exec` (a host back end).
template <class ExecutionSpace, class T, class Compare>
void host_parallel_sort(const ExecutionSpace& exec, T* data, std::size_t n, const Compare& comp) {
  const int workers = exec.impl_thread_pool_size();
  if (workers <= 1 || n < host_sort_min_per_worker * static_cast<std::size_t>(workers)) {
    std::sort(data, data + n, comp);
    return;
  }
  const std::size_t runs = static_cast<std::size_t>(workers);
  auto run_begin = [&](std::size_t r) { return r * (n / runs) + std::min(r, n % runs); };
  // A launch's workers may be fewer than impl_thread_pool_size() (a launch from inside a
  // parallel region runs on its caller alone): each worker takes every size-th share.
  auto on_workers = [&](auto&& share) {
    exec.impl_run_on_workers([&](int rank, int size) {
      for (std::size_t s = static_cast<std::size_t>(rank); s < runs; s += static_cast<std::size_t>(size)) share(s);
    });
  };

  on_workers([&](std::size_t r) { std::sort(data + run_begin(r), data + run_begin(r + 1), comp); });

  View<T*, HostSpace> buffer(view_alloc("Kokkos::sort::buffer", WithoutInitializing), n);
  T* from = data;
  T* to = buffer.data();
  for (std::size_t width = 1; width < runs; width *= 2) {
    // Runs [r, r + width) and [r + width, r + 2 width) (in blocks) merge into one.
    on_workers([&](std::size_t share) {
      const std::size_t out_begin = run_begin(share), out_end = run_begin(share + 1);
      for (std::size_t first = 0; first < runs; first += 2 * width) {
        const std::size_t lo = run_begin(first), mid = run_begin(std::min(first + width, runs)),
                          hi = run_begin(std::min(first + 2 * width, runs));
        const std::size_t b = std::max(lo, out_begin), e = std::min(hi, out_end);
        if (b >= e) continue;
        merge_slice(from + lo, mid - lo, from + mid, hi - mid, to + lo, b - lo, e - lo, comp);
      }
    });
    std::swap(from, to);
  }
  if (from != data) {
    on_workers([&](std::size_t share) { std::copy(from + run_begin(share), from + run_begin(share + 1), data + run_begin(share)); });
  }
}

// dst(i) = src(i) for every i of src, on exec; src and dst are anything indexable like a
// rank-1 View (a DynamicView range too).
template <class ExecutionSpace, class Src, class Dst>
void sort_copy(const ExecutionSpace& exec, const Src& src, const Dst& dst) {
  parallel_for(
      "Kokkos::sort::copy", RangePolicy<ExecutionSpace>(exec, 0, src.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) { dst(i) = src(i); });
  exec.fence("Kokkos::sort: copy");
}

// A contiguous host array holding the view's elements: the view's own data when it is
// contiguous, else a copy that write_back() returns to the view.
template <class ExecutionSpace, class ViewType>
class ContiguousSortData {
 public:
  using value_type = typename ViewType::non_const_value_type;

  ContiguousSortData(const ExecutionSpace& exec, const ViewType& view) : m_exec(exec), m_view(view) {
    if (view.stride(0) == 1) {
      m_data = view.data();
    } else {
      m_copy = View<value_type*, HostSpace>(view_alloc("Kokkos::sort::contiguous", WithoutInitializing), view.extent(0));
      copy(m_view, m_copy);
      m_data = m_copy.data();
    }
  }
  value_type* data() const { return m_data; }
  std::size_t size() const { return m_view.extent(0); }
  void write_back() const {
    if (m_copy.data() != nullptr) copy(m_copy, m_view);
  }

  template <class Src, class Dst>
  void copy(const Src& src, const Dst& dst) const {
    sort_copy(m_exec, src, dst);
  }

 private:
  ExecutionSpace m_exec;
  ViewType m_view;
  View<value_type*, HostSpace> m_copy;
  value_type* m_data = nullptr;
};

// Sorts a rank-1 view in exec's memory with comparator comp.
template <class ExecutionSpace, class ViewType, class Compare>
void sort_view(const ExecutionSpace& exec, const ViewType& view, const Compare& comp) {
  if (view.extent(0) <= 1) return;
  if constexpr (!is_view_v<ViewType>) {
    // A DynamicView range: its elements are in chunks, so they are sorted in a View of the same
    // memory space and copied back.
    using value_type = typename ViewType::non_const_value_type;
    View<value_type*, typename ViewType::memory_space> values(
        view_alloc(exec, WithoutInitializing, "Kokkos::sort::range"), view.extent(0));
    sort_copy(exec, view, values);
    sort_view(exec, values, comp);
    sort_copy(exec, values, view);
  } else if constexpr (is_host_backend<ExecutionSpace>::value) {
    exec.fence("Kokkos::sort: before sorting on the host");
    ContiguousSortData<ExecutionSpace, ViewType> contiguous(exec, view);
    host_parallel_sort(exec, contiguous.data(), contiguous.size(), comp);
    contiguous.write_back();
  } else {
    auto host = create_mirror_view_and_copy(view_alloc(HostSpace()), view);
    sort_view(DefaultHostExecutionSpace(), host, comp);
    deep_copy(exec, view, host);
  }
}

// The less-than a sort without comparator uses.
struct SortLess {
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION constexpr bool operator()(const A& a, const B& b) const {
    return a < b;
  }
};

}  // namespace Kokkos::Impl

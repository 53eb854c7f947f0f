#pragma once
// The work graph's run-time scheduler (seed 001 §2.4.1, §2.4.2), written once for every back
// end: raw pointers into pre-allocated arrays, Kokkos atomics, no allocation, no exceptions.
//
// What is scheduled is a *unit*: a range of consecutive items of a topological order (see
// Kokkos_WorkGraphAnalysis.hpp), or a single item when the graph was not analysed.  As in the
// seed:
//   - waiting[u] counts the predecessor units of u not yet complete; the worker that completes
//     the last one makes u ready;
//   - the ready queue is one array of num_units slots holding one FIFO range per priority,
//     each as long as the number of units of that priority, so it can never overflow; a push
//     reserves a slot at its range's tail, a pop claims the slot at its range's head.
// Beyond the seed, to keep the cost per unit to a few atomics:
//   - the worker that makes successors ready keeps one to run next (no queue round trip),
//     unless a unit of higher priority is waiting;
//   - a unit with a single predecessor unit becomes ready without touching its count;
//   - completion is counted per worker (a plain store), summed only by idle workers; or, for
//     launches with thousands of workers (a GPU's warps, see completion_slots), in a few
//     shared counters, so that an idle worker's sum stays short;
//   - with a single priority, the units ready at launch are dealt out in P contiguous shares
//     ("homes", balanced by item count): a worker runs its own share front to back and then
//     takes from the back of another's.  Consecutive units of the plan touch neighbouring data
//     (subtrees of a tree, the first levels of a banded order), so a worker mostly reads what it
//     wrote itself; dealt out one at a time from the shared queue, half of every unit's inputs
//     would come from the other core's cache, which costs more than the functor on machines
//     whose cores do not share a cache level;
//   - a graph that cannot finish (a cycle that was not checked for) is detected when every
//     worker is idle, nothing is ready and nothing completes, instead of spinning forever.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Atomic.hpp>

#include <cstddef>
#include <cstdint>
#include <thread>

namespace Kokkos::Impl {

struct WorkGraphQueue {
  // Control counters are int32 slots one cache line apart:
  //   head(p), tail(p) for each priority p, the completion slots, idle, stalled.
  static constexpr std::int32_t slot_stride = KOKKOS_IMPL_CACHE_LINE / sizeof(std::int32_t);
  static constexpr std::int32_t empty = -1;

  // completion_slots as below (0: one per worker).
  static constexpr std::size_t control_size(int num_priorities, int max_workers, int completion_slots = 0) {
    return static_cast<std::size_t>(2 * num_priorities + (completion_slots > 0 ? completion_slots : max_workers) + 2) *
           slot_stride;
  }

  std::int32_t num_units = 0;
  std::int32_t num_priorities = 1;
  std::int32_t max_workers = 1;
  // How completions are counted.  0: worker w stores its own count in slot w (a plain store),
  // and an idle worker sums one slot per worker of the launch.  k > 0 (the counting mode):
  // worker w adds each completion to slot w % k with an atomic, and an idle worker sums k slots
  // whatever the number of workers, which keeps the idle poll of thousands of workers short.
  std::int32_t completion_slots = 0;
  const std::int32_t* items = nullptr;     // unit u runs items[begin[u] .. begin[u+1]) (null when all are ranges)
  const std::int32_t* begin = nullptr;
  const std::int32_t* first = nullptr;     // per unit: its first item when its items are consecutive, else
                                           // empty; null: unit u is item u
  const std::int32_t* row_map = nullptr;   // successor units of u: succ[row_map[u] .. row_map[u+1])
  const std::int32_t* succ = nullptr;
  const std::int32_t* indegree = nullptr;  // waiting counts at launch
  const std::uint8_t* priority = nullptr;  // per unit; null with one priority
  std::int32_t* waiting = nullptr;
  std::int32_t* ready = nullptr;
  std::int32_t* control = nullptr;
  // Home w (w < num_homes) is the packed range [head, tail) of ready slots, home_stride apart.
  std::int64_t* homes = nullptr;
  std::int32_t num_homes = 0;

  static constexpr std::int32_t home_stride = KOKKOS_IMPL_CACHE_LINE / sizeof(std::int64_t);
  KOKKOS_INLINE_FUNCTION static constexpr std::int64_t pack_home(std::int32_t head, std::int32_t tail) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(static_cast<std::uint32_t>(head)) << 32 |
                                     static_cast<std::uint32_t>(tail));
  }
  KOKKOS_INLINE_FUNCTION static constexpr std::int32_t home_head(std::int64_t h) {
    return static_cast<std::int32_t>(static_cast<std::uint64_t>(h) >> 32);
  }
  KOKKOS_INLINE_FUNCTION static constexpr std::int32_t home_tail(std::int64_t h) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(h)));
  }
  KOKKOS_INLINE_FUNCTION std::int64_t* home(int w) const { return homes + w * home_stride; }

  KOKKOS_INLINE_FUNCTION std::int32_t* head(int p) const { return control + (2 * p) * slot_stride; }
  KOKKOS_INLINE_FUNCTION std::int32_t* tail(int p) const { return control + (2 * p + 1) * slot_stride; }
  KOKKOS_INLINE_FUNCTION std::int32_t* completed(int w) const {
    return control + (2 * num_priorities + w) * slot_stride;
  }
  KOKKOS_INLINE_FUNCTION std::int32_t num_completion_slots() const {
    return completion_slots > 0 ? completion_slots : max_workers;
  }
  KOKKOS_INLINE_FUNCTION std::int32_t* idle() const { return completed(num_completion_slots()); }
  KOKKOS_INLINE_FUNCTION std::int32_t* stalled() const { return completed(num_completion_slots() + 1); }

  KOKKOS_INLINE_FUNCTION int priority_of(std::int32_t u) const { return priority != nullptr ? priority[u] : 0; }

  // ---- the ready queue ----------------------------------------------------------------------
  template <bool Concurrent>
  KOKKOS_INLINE_FUNCTION void push(std::int32_t u) const {
    std::int32_t* t = tail(priority_of(u));
    if constexpr (Concurrent) {
      const std::int32_t slot = atomic_fetch_add_relaxed(t, 1);
      atomic_store_release(&ready[slot], u);
    } else {
      ready[(*t)++] = u;
    }
  }

  template <bool Concurrent>
  KOKKOS_INLINE_FUNCTION std::int32_t try_pop() const {
    for (int p = 0; p < num_priorities; ++p) {
      if constexpr (Concurrent) {
        std::int32_t h = atomic_load_relaxed(head(p));
        while (h < atomic_load_acquire(tail(p))) {
          if (atomic_compare_exchange_weak_acq_rel(head(p), h, h + 1)) {
            // The pusher reserved the slot before writing it: wait for the write.
            std::int32_t u;
            while ((u = atomic_load_acquire(&ready[h])) == empty) Kokkos::Impl::pause();
            return u;
          }
        }
      } else {
        if (*head(p) < *tail(p)) return ready[(*head(p))++];
      }
    }
    return empty;
  }

  // Takes the unit at the front (the owner) or at the back (another worker) of home w.  The
  // slots of a home were written before the launch, so the unit is there once claimed.
  template <bool Concurrent>
  KOKKOS_INLINE_FUNCTION std::int32_t take_home(int w, bool front) const {
    std::int64_t* h = home(w);
    std::int64_t range = Concurrent ? atomic_load_relaxed(h) : *h;
    for (;;) {
      const std::int32_t b = home_head(range), e = home_tail(range);
      if (b >= e) return empty;
      const std::int64_t rest = front ? pack_home(b + 1, e) : pack_home(b, e - 1);
      if constexpr (Concurrent) {
        if (!atomic_compare_exchange_weak_acq_rel(h, range, rest)) continue;
      } else {
        *h = rest;
      }
      return ready[front ? b : e - 1];
    }
  }

  // The next unit for worker `rank`: from its home, else the shared queue, else another home.
  template <bool Concurrent>
  KOKKOS_INLINE_FUNCTION std::int32_t pop(int rank) const {
    std::int32_t u = rank < num_homes ? take_home<Concurrent>(rank, true) : empty;
    if (u == empty) u = try_pop<Concurrent>();
    for (int k = 1; u == empty && k <= num_homes; ++k) u = take_home<Concurrent>((rank + k) % num_homes, false);
    return u;
  }

  template <bool Concurrent>
  KOKKOS_INLINE_FUNCTION bool waiting_above(int p) const {
    for (int q = 0; q < p; ++q) {
      if constexpr (Concurrent) {
        if (atomic_load_relaxed(head(q)) < atomic_load_relaxed(tail(q))) return true;
      } else {
        if (*head(q) < *tail(q)) return true;
      }
    }
    return false;
  }

  KOKKOS_INLINE_FUNCTION bool any_ready() const {
    for (int w = 0; w < num_homes; ++w) {
      const std::int64_t range = atomic_load_relaxed(home(w));
      if (home_head(range) < home_tail(range)) return true;
    }
    return waiting_above<true>(num_priorities);
  }

  KOKKOS_INLINE_FUNCTION std::int32_t completed_sum(int size) const {
    const int slots = completion_slots > 0 ? completion_slots : size;
    std::int32_t sum = 0;
    for (int w = 0; w < slots; ++w) sum += atomic_load_acquire(completed(w));
    return sum;
  }

  // Publishes the completion of one more unit by worker `rank` (done_here in all).
  template <bool Concurrent>
  KOKKOS_INLINE_FUNCTION void count_completion(int rank, std::int32_t done_here) const {
    if constexpr (Concurrent) {
      if (completion_slots > 0) {
        atomic_fetch_add_acq_rel(completed(rank % completion_slots), 1);
      } else {
        atomic_store_release(completed(rank), done_here);
      }
    }
  }

  // ---- the worker loop ----------------------------------------------------------------------

  // Runs units until all num_units are complete (or the graph is found stalled).  Every worker
  // of the launch calls it with its rank; Concurrent = (size > 1).  run_items(items, b, e)
  // runs the items items[b .. e), or b .. e-1 when items is null (and, for a launch's one
  // worker running the whole numbering backwards, b-1 down to e when b > e).
  template <bool Concurrent, class RunItems>
  KOKKOS_INLINE_FUNCTION void run(int rank, int size, const RunItems& run_items) const {
    std::int32_t done_here = 0;
    std::int32_t u = empty;
    for (;;) {
      u = next_unit<Concurrent>(rank, size, u, done_here);
      if (u == empty) return;
      const UnitItems r = items_of(u);
      run_items(r.items, r.begin, r.end);
      u = finish_unit<Concurrent>(rank, u, done_here);
    }
  }

  // The steps of run(), for back ends whose worker is a group of threads (a GPU's warp): one
  // thread takes the unit and completes it, the group runs its items in between.

  // The unit to run: `next` when there is one, else one popped, else (after waiting) empty
  // when the launch is over.
  template <bool Concurrent>
  KOKKOS_INLINE_FUNCTION std::int32_t next_unit(int rank, int size, std::int32_t next, std::int32_t done_here) const {
    while (next == empty) {
      next = pop<Concurrent>(rank);
      if (next == empty && !wait_for_work<Concurrent>(size, done_here)) return empty;
    }
    return next;
  }

  // The items of unit u: items[begin .. end), or the indices begin .. end-1 when items is null.
  struct UnitItems {
    const std::int32_t* items;
    std::int32_t begin, end;
  };
  KOKKOS_INLINE_FUNCTION UnitItems items_of(std::int32_t u) const {
    if (first == nullptr) return {nullptr, u, u + 1};
    // Consecutive items run as a plain index range: no indirection, and the functor's loop
    // may vectorise.
    if (first[u] != empty) return {nullptr, first[u], first[u] + (begin[u + 1] - begin[u])};
    return {items, begin[u], begin[u + 1]};
  }

  // After unit u's items have run (and their writes are visible to every worker): counts it
  // complete and returns the successor to run next, if any.
  template <bool Concurrent>
  KOKKOS_INLINE_FUNCTION std::int32_t finish_unit(int rank, std::int32_t u, std::int32_t& done_here) const {
    const std::int32_t next = complete<Concurrent>(u);
    ++done_here;
    count_completion<Concurrent>(rank, done_here);
    return next;
  }

  // Counts down the successors of u; returns the one to run next, if any, after pushing the
  // others.
  template <bool Concurrent>
  KOKKOS_INLINE_FUNCTION std::int32_t complete(std::int32_t u) const {
    std::int32_t next = empty;
    for (std::int32_t k = row_map[u]; k < row_map[u + 1]; ++k) {
      const std::int32_t v = succ[k];
      bool now_ready;
      if (indegree[v] == 1) {
        now_ready = true;
      } else if constexpr (Concurrent) {
        now_ready = atomic_fetch_sub_acq_rel(&waiting[v], 1) == 1;
      } else {
        now_ready = --waiting[v] == 0;
      }
      if (!now_ready) continue;
      if (next == empty) {
        next = v;
      } else if (priority_of(v) < priority_of(next)) {
        push<Concurrent>(next);
        next = v;
      } else {
        push<Concurrent>(v);
      }
    }
    if (next != empty && priority != nullptr && waiting_above<Concurrent>(priority_of(next))) {
      push<Concurrent>(next);
      next = empty;
    }
    return next;
  }

  KOKKOS_INLINE_FUNCTION static void backoff(int spins) {
    Kokkos::Impl::pause();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    // Thousands of idle warps polling the counters would take the memory bandwidth of the
    // warps still working.
    __nanosleep(spins < 8 ? 64u : 512u);
#endif
    if (spins > 64) {
      KOKKOS_IF_ON_HOST((std::this_thread::yield();))
    }
  }

  // Called with no unit in hand after a failed pop.  Returns true when a unit may be ready,
  // false when the launch is over: all units complete, or stalled.
  //
  // Stall detection: a worker registers as idle here and deregisters before it pops again, so
  // while every worker is registered none holds a unit and none can push.  If, in addition,
  // the queue is empty and no unit completes between two such observations, no unit can ever
  // become ready again: the graph has a cycle.
  template <bool Concurrent>
  KOKKOS_INLINE_FUNCTION bool wait_for_work(int size, std::int32_t done_here) const {
    if constexpr (!Concurrent) {
      if (done_here != num_units) *stalled() = 1;
      return false;
    } else {
      atomic_fetch_add_acq_rel(idle(), 1);
      bool more = false;
      for (int spins = 0;; ++spins) {
        if (completed_sum(size) == num_units || atomic_load_acquire(stalled()) != 0) break;
        if (any_ready()) {
          more = true;
          break;
        }
        if (atomic_load_acquire(idle()) == size && stall_confirmed(size)) {
          atomic_store_release(stalled(), 1);
          break;
        }
        backoff(spins);
      }
      atomic_fetch_sub_acq_rel(idle(), 1);
      return more;
    }
  }

  KOKKOS_INLINE_FUNCTION bool stall_confirmed(int size) const {
    const std::int32_t before = completed_sum(size);
    if (atomic_load_acquire(idle()) != size || any_ready()) return false;
    if (atomic_load_acquire(idle()) != size) return false;
    const std::int32_t after = completed_sum(size);
    return before == after && after < num_units;
  }
};

}  // namespace Kokkos::Impl

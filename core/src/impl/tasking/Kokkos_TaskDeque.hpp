#pragma once
// The public half of a worker's ready tasks in the host task scheduler: thieves take the oldest
// task from the top while the owner pushes and pops at the bottom (Kokkos_TaskQueue.hpp).
#include <impl/tasking/Kokkos_TaskBase.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace Kokkos::Impl {

// Chase-Lev work-stealing deque (Lê, Pop, Cohen, Zappa Nardelli 2013), with seq_cst
// operations where the paper uses fences, so ThreadSanitizer understands it.  Arrays replaced
// by growth stay readable by late thieves until the owner calls reclaim() while no one steals.
class TaskDeque {
  struct Array {
    std::int64_t mask;
    std::atomic<TaskBase*>* slots;
    explicit Array(std::int64_t capacity)
        : mask(capacity - 1), slots(new std::atomic<TaskBase*>[static_cast<size_t>(capacity)]) {}
    ~Array() { delete[] slots; }
    std::int64_t capacity() const { return mask + 1; }
    TaskBase* get(std::int64_t i) const { return slots[i & mask].load(std::memory_order_relaxed); }
    void put(std::int64_t i, TaskBase* t) { slots[i & mask].store(t, std::memory_order_relaxed); }
  };

  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<std::int64_t> m_top{0};
  alignas(KOKKOS_IMPL_CACHE_LINE) std::atomic<std::int64_t> m_bottom{0};
  std::atomic<Array*> m_array;
  std::vector<std::unique_ptr<Array>> m_retired;  // owner only
  std::unique_ptr<Array> m_current;

 public:
  explicit TaskDeque(std::int64_t capacity = 64) : m_current(new Array(capacity)) { m_array.store(m_current.get()); }
  TaskDeque(const TaskDeque&) = delete;
  TaskDeque& operator=(const TaskDeque&) = delete;

  // Owner only.
  void push(TaskBase* t) {
    const std::int64_t b = m_bottom.load(std::memory_order_relaxed);
    const std::int64_t top = m_top.load(std::memory_order_acquire);
    Array* a = m_array.load(std::memory_order_relaxed);
    if (b - top > a->mask) a = grow(a, top, b);
    a->put(b, t);
    m_bottom.store(b + 1, std::memory_order_release);
  }

  // Owner only: the most recently pushed task, or null.
  TaskBase* pop() {
    const std::int64_t b = m_bottom.load(std::memory_order_relaxed) - 1;
    Array* a = m_array.load(std::memory_order_relaxed);
    m_bottom.store(b, std::memory_order_seq_cst);
    std::int64_t t = m_top.load(std::memory_order_seq_cst);
    if (t > b) {  // empty
      m_bottom.store(b + 1, std::memory_order_relaxed);
      return nullptr;
    }
    TaskBase* x = a->get(b);
    if (t == b) {  // the last one: race the thieves for it
      if (!m_top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed)) x = nullptr;
      m_bottom.store(b + 1, std::memory_order_relaxed);
    }
    return x;
  }

  // Any thread: the oldest task, or null when empty or when another thief won the race.
  TaskBase* steal() {
    std::int64_t t = m_top.load(std::memory_order_seq_cst);
    const std::int64_t b = m_bottom.load(std::memory_order_seq_cst);
    if (t >= b) return nullptr;
    Array* a = m_array.load(std::memory_order_acquire);
    TaskBase* x = a->get(t);
    if (!m_top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed)) return nullptr;
    return x;
  }

  // Owner only: a cheap hint (thieves only ever shrink the deque).
  bool owner_nonempty() const {
    return m_top.load(std::memory_order_relaxed) < m_bottom.load(std::memory_order_relaxed);
  }

  bool maybe_nonempty() const {
    return m_top.load(std::memory_order_seq_cst) < m_bottom.load(std::memory_order_seq_cst);
  }

  // Owner only, while no thief runs (end of wait): frees arrays replaced by growth.
  void reclaim() { m_retired.clear(); }

 private:
  // Out of line: push() is on every task's path, growth almost never.
  KOKKOS_IMPL_NOINLINE Array* grow(Array* old, std::int64_t top, std::int64_t bottom) {
    auto bigger = std::make_unique<Array>(old->capacity() * 2);
    for (std::int64_t i = top; i < bottom; ++i) bigger->put(i, old->get(i));
    Array* raw = bigger.get();
    m_retired.push_back(std::move(m_current));
    m_current = std::move(bigger);
    m_array.store(raw, std::memory_order_release);
    return raw;
  }
};

}  // namespace Kokkos::Impl

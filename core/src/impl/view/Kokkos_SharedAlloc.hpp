#pragma once
// The reference-counted allocation record behind managed Views.
//
// A record owns one allocation in one memory space, its label and the element construction /
// destruction.  Views hold a pointer to the record; copying a View on the host increments the
// count, destroying one decrements it, and the last one deletes the record, which destroys
// the elements and frees the memory.  Device code never touches the count (the record lives
// in host memory).
#include <Kokkos_Macros.hpp>
#include <impl/fusion/Kokkos_FusionHooks.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace Kokkos {
namespace Impl {

class SharedAllocationRecord {
 public:
  SharedAllocationRecord(const SharedAllocationRecord&) = delete;
  SharedAllocationRecord& operator=(const SharedAllocationRecord&) = delete;
  virtual ~SharedAllocationRecord() = default;

  void* data() const noexcept { return m_data; }
  std::size_t size() const noexcept { return m_bytes; }  // bytes
  const std::string& get_label() const noexcept { return m_label; }
  // Stable for the lifetime of the record; what bounds-check messages print.
  const char* label_c_str() const noexcept { return m_label.c_str(); }
  int use_count() const noexcept { return m_count.load(std::memory_order_relaxed); }
  // A candidate temporary: allocated inside a fusion window, in reserved host memory
  // (HostSpace::impl_allocate_reserved) or in device memory.  Eliminated: the window ran every
  // launch that touched it on chunk buffers instead, so its memory was never written.
  bool impl_fusion_reserved() const noexcept { return m_fusion_reserved; }
  void impl_set_fusion_eliminated() noexcept { m_fusion_eliminated = true; }

  void increment() noexcept { m_count.fetch_add(1, std::memory_order_relaxed); }
  // Deletes the record (and so frees the allocation) when the last reference goes away.
  // Launches the calling thread recorded for fusion run first: their functors hold untracked
  // copies of Views (see ViewTrackingDisabled) and one of them may be this allocation.
  void decrement() noexcept {
    if (m_count.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      fusion_flush_if_pending(FusionFlush::deallocation);
      delete this;
    }
  }

 protected:
  SharedAllocationRecord(std::string label, void* data, std::size_t bytes)
      : m_count(1), m_data(data), m_bytes(bytes), m_label(std::move(label)) {}

  std::atomic<int> m_count;
  bool m_fusion_reserved = false, m_fusion_eliminated = false;
  void* m_data;
  std::size_t m_bytes;
  std::string m_label;
};

// While a ViewTrackingDisabled scope is alive on a host thread, the Views copied on that thread
// are *untracked*: they share the allocation without counting as a reference, and never free
// it (Kokkos does the same for functor copies inside parallel dispatch).  Whoever disables
// tracking must keep the allocations alive by other means; the fusion window holds one
// counted reference per allocation its launches declare, instead of one per View copy.
inline thread_local int t_view_tracking_disabled = 0;

struct ViewTrackingDisabled {
  ViewTrackingDisabled() noexcept { ++t_view_tracking_disabled; }
  ~ViewTrackingDisabled() { --t_view_tracking_disabled; }
  ViewTrackingDisabled(const ViewTrackingDisabled&) = delete;
  ViewTrackingDisabled& operator=(const ViewTrackingDisabled&) = delete;
};

// While a ViewCaptureWatch is alive on a host thread, copying a View notes its allocation
// record (null for an unmanaged View).  The fusion layer copies a recorded launch's functor under
// one to find the Views it captures: the allocations its declarations do not name
// (KOKKOS_FUSION_CHECK) and, on Cuda, HostSpace Views the GPU cannot access.
struct ViewCaptureWatch;
inline thread_local ViewCaptureWatch* t_view_capture_watch = nullptr;

struct ViewCaptureWatch {
  SharedAllocationRecord* host_space_record = nullptr;  // of the first HostSpace View copied
  bool seen_host_space = false;
  int unmanaged = 0;                              // unmanaged Views copied (no record to compare)
  std::vector<SharedAllocationRecord*> records;  // every managed allocation met, once each

  ViewCaptureWatch() noexcept : m_outer(t_view_capture_watch) { t_view_capture_watch = this; }
  ~ViewCaptureWatch() { t_view_capture_watch = m_outer; }
  ViewCaptureWatch(const ViewCaptureWatch&) = delete;
  ViewCaptureWatch& operator=(const ViewCaptureWatch&) = delete;

  void note(SharedAllocationRecord* r, bool host_space) {
    if (host_space && !seen_host_space) {
      seen_host_space = true;
      host_space_record = r;
    }
    if (r == nullptr) {
      ++unmanaged;
      return;
    }
    for (SharedAllocationRecord* seen : records) {
      if (seen == r) return;
    }
    records.push_back(r);
  }

 private:
  ViewCaptureWatch* m_outer;
};

// A View's record pointer carries the "untracked" mark in its lowest bit (records are
// pointer-aligned).
inline constexpr std::uintptr_t view_untracked_bit = 1;

template <class Record>
KOKKOS_INLINE_FUNCTION Record* view_record(Record* tagged) {
  return reinterpret_cast<Record*>(reinterpret_cast<std::uintptr_t>(tagged) & ~view_untracked_bit);
}
template <class Record>
KOKKOS_INLINE_FUNCTION bool view_counts_reference(Record* tagged) {
  return tagged != nullptr && (reinterpret_cast<std::uintptr_t>(tagged) & view_untracked_bit) == 0;
}

// Construction and destruction of elements in memory the host cannot touch: a device back end
// specialises it for its memory space, with
//   template <class T, class Exec> static void construct(const Exec&, T*, std::size_t n, bool value_init);
//   template <class T> static void destroy(T*, std::size_t n);
// (Exec is NoExecutionSpaceArg when the View was allocated without an execution space instance).
template <class MemorySpace>
struct DeviceElementOps;

// "No execution space instance was given" (allocation on the space's default instance).
struct NoExecutionSpaceArg {};

// Record for `count` elements of ValueType in MemorySpace.  Host-accessible memory is
// constructed and destroyed with plain loops (no parallel dispatch); other memory by its back end
// (DeviceElementOps), before the View is handed out.
template <class MemorySpace, class ValueType>
class SharedAllocationRecordFor final : public SharedAllocationRecord {
 public:
  // Allocates; value-initialises each element when `initialize`, otherwise leaves trivial
  // types uninitialised (non-trivial types are still default-constructed, and types without a
  // default constructor are left to the caller to construct).
  static SharedAllocationRecordFor* allocate(const MemorySpace& space, const std::string& label, std::size_t count,
                                             bool initialize) {
    return allocate(space, label, count, initialize, NoExecutionSpaceArg{});
  }
  // The same, ordered on the execution space instance `exec` where the memory space supports it
  // (a device allocation and initialisation on the instance's stream).
  template <class Exec>
  static SharedAllocationRecordFor* allocate(const MemorySpace& space, const std::string& label, std::size_t count,
                                             bool initialize, const Exec& exec) {
    const std::size_t bytes = count * sizeof(ValueType);
    if constexpr (reservable) {
      // Reserved memory is zero-filled: value-initialised already.
      if (fusion_defers_allocation(bytes)) {
        auto* rec =
            new SharedAllocationRecordFor(space, label, space.impl_allocate_reserved(label.c_str(), bytes), bytes, count);
        rec->m_fusion_reserved = true;
        rec->m_constructed = true;
        return rec;
      }
    }
    void* ptr = nullptr;
    if constexpr (requires { space.allocate(exec, label.c_str(), bytes); }) ptr = space.allocate(exec, label.c_str(), bytes);
    else ptr = space.allocate(label.c_str(), bytes);
    auto* rec = new SharedAllocationRecordFor(space, label, ptr, bytes, count);
    if constexpr (!std::is_default_constructible_v<ValueType>) {
      // As in Kokkos: the caller constructs the elements (placement new), and owns their
      // destruction too, so the record never destroys them.
      if (initialize) {
        delete rec;
        throw std::logic_error("Kokkos::View \"" + label + "\": cannot value-initialise elements without a default constructor");
      }
      return rec;
    } else if constexpr (MemorySpace::is_host_accessible) {
      ValueType* p = static_cast<ValueType*>(ptr);
      if (initialize) {
        // value-initialisation: zero for arithmetic types, the default constructor otherwise
        for (std::size_t i = 0; i < count; ++i) new (p + i) ValueType();
      } else if constexpr (!std::is_trivially_default_constructible_v<ValueType>) {
        for (std::size_t i = 0; i < count; ++i) new (p + i) ValueType;
      }
    } else {
      try {
        DeviceElementOps<MemorySpace>::construct(exec, static_cast<ValueType*>(ptr), count, initialize);
      } catch (...) {
        delete rec;  // frees the memory; no element was constructed
        throw;
      }
    }
    rec->m_constructed = true;
    // Device memory cannot be reserved and filled lazily: a temporary there is allocated (and
    // initialised) as usual, and a candidate all the same.  Eliminated, a fused kernel keeps
    // it in on-chip memory and never reads or writes it (Cuda/Kokkos_Cuda_Fusion.hpp).
    if constexpr (device_candidate) rec->m_fusion_reserved = fusion_defers_allocation(bytes);
    return rec;
  }

  ~SharedAllocationRecordFor() override {
    if constexpr (!std::is_trivially_destructible_v<ValueType>) {
      if (m_constructed) {
        ValueType* p = static_cast<ValueType*>(m_data);
        if constexpr (MemorySpace::is_host_accessible) {
          // Memory a device also reaches (managed memory): its kernels finish before the host
          // destroys what they may still use.
          using exec = typename MemorySpace::execution_space;
          if constexpr (!exec::impl_is_host_backend) exec().fence("Kokkos::View: fence before destroying elements");
          for (std::size_t i = 0; i < m_count_elems; ++i) p[i].~ValueType();
        } else {
          DeviceElementOps<MemorySpace>::destroy(p, m_count_elems);
        }
      }
    }
    if constexpr (reservable) {
      if (m_fusion_reserved) {
        m_space.impl_deallocate_reserved(m_label.c_str(), m_data, m_bytes, !m_fusion_eliminated);
        return;
      }
    }
    m_space.deallocate(m_label.c_str(), m_data, m_bytes);
  }

 private:
  // Elements whose value-initialisation is all zero bits and that need no destructor, in memory
  // that can be reserved.
  static constexpr bool reservable =
      (std::is_arithmetic_v<ValueType> || std::is_pointer_v<ValueType> || std::is_enum_v<ValueType>) &&
      requires(const MemorySpace& s, void* p) {
        s.impl_allocate_reserved("", std::size_t(0));
        s.impl_deallocate_reserved("", p, std::size_t(0), true);
      };

  static constexpr bool device_candidate =
      !MemorySpace::is_host_accessible &&
      (std::is_arithmetic_v<ValueType> || std::is_pointer_v<ValueType> || std::is_enum_v<ValueType>);

  SharedAllocationRecordFor(const MemorySpace& space, const std::string& label, void* data, std::size_t bytes,
                            std::size_t count)
      : SharedAllocationRecord(label, data, bytes), m_space(space), m_count_elems(count), m_constructed(false) {}

  MemorySpace m_space;
  std::size_t m_count_elems;
  bool m_constructed;
};

}  // namespace Impl
}  // namespace Kokkos

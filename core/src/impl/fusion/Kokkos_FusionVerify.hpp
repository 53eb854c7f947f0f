#pragma once
// Verify mode (KOKKOS_FUSION_VERIFY=1, KE::set_fusion_verify): every flushed window runs twice.
//
//  1. Unfused, launch by launch in program order, as KOKKOS_FUSION=0 runs it.  Before, the
//     memory the window declares writing (each written allocation whole) is copied aside.
//     Around each launch, every View it declares `reads` (and does not also write) is copied
//     before and compared after: a change stops the program, naming the launch and the View.
//     Afterwards what the launches wrote, and each reduction's result, is kept, and the written
//     memory is put back as it was.
//  2. Fused, as the window would run without verify mode (adaptive dispatch, concurrent waves,
//     temporary elimination included).
//  3. The two compared bitwise.  The first difference stops the program with the View, the
//     index, the launch that wrote it and the declaration most likely wrong: a point-wise read of
//     a View another launch of the same fused run writes (a shifted read declared point-wise, or
//     a scatter or reduction declared as a point-wise write).
// Eliminated temporaries are not compared (nothing can read them).  Launch functors run twice:
// side effects outside the declared Views (counters, printing) happen twice.  Cost: the window
// runs twice, plus three copies of every written allocation and two of every read View.
// A window with launches on a device back end is read and written through the back end's
// copies, after waiting for its work (FusionDeviceMemory).
#include <Kokkos_Abort.hpp>
#include <impl/fusion/Kokkos_FusionDevicePlugin.hpp>
#include <impl/fusion/Kokkos_FusionWindow.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace Kokkos::Impl {

// How verify mode reaches a window's memory: plain copies on the host; the device back end's,
// after waiting for its work, when a launch of the window runs on a device.
struct FusionVerifyMemory {
  bool device = false;
  void settle() const {
    if (device) fusion_device_memory().synchronize();
  }
  void read(std::vector<std::byte>& out, const void* from, std::size_t bytes) const {
    out.resize(bytes);
    if (bytes == 0) return;
    if (device) {
      fusion_device_memory().copy(out.data(), from, bytes);
    } else {
      std::memcpy(out.data(), from, bytes);
    }
  }
  void write(void* to, const std::vector<std::byte>& bytes) const {
    if (bytes.empty()) return;
    if (device) {
      fusion_device_memory().copy(to, bytes.data(), bytes.size());
    } else {
      std::memcpy(to, bytes.data(), bytes.size());
    }
  }
};

struct FusionVerifyRecord {
  FusionVerifyMemory memory;
  struct Region {
    const void* allocation = nullptr;  // the FusionAccess identity
    std::byte* base = nullptr;
    std::size_t bytes = 0;
    std::vector<std::byte> before, unfused;
  };
  std::vector<Region> written;
  std::vector<std::vector<std::byte>> results;  // per launch: a reduction's result, unfused
};

// Writes, read-writes and reductions change the memory they declare.
inline bool fusion_changes(Privilege p) { return p != Privilege::read; }

// The whole allocation of a managed access; the View's own span for an unmanaged one.
inline FusionVerifyRecord::Region fusion_verify_region(const FusionAccess& a) {
  FusionVerifyRecord::Region r;
  r.allocation = a.allocation;
  if (a.allocation == fusion_unmanaged_allocation()) {
    r.base = reinterpret_cast<std::byte*>(a.address);
    r.bytes = static_cast<std::size_t>(a.span_bytes);
  } else {
    r.base = static_cast<std::byte*>(const_cast<void*>(a.allocation));
    r.bytes = static_cast<std::size_t>(a.allocation_bytes);
  }
  return r;
}

inline std::string FusionWindow::verify_launch_name(std::size_t k) const {
  const std::string label = k < m_labels.size() ? m_labels[k] : std::string();
  return "launch " + std::to_string(k) + (label.empty() ? std::string(" (unlabeled)") : " '" + label + "'");
}

inline std::string FusionWindow::verify_view_name(const FusionAccess& access) const {
  if (access.allocation != fusion_unmanaged_allocation()) {
    for (const SharedAllocationRecord* record : m_held) {
      if (record->data() == access.allocation) return "'" + record->get_label() + "'";
    }
  }
  char text[64];
  std::snprintf(text, sizeof(text), "(unmanaged View at %p)", reinterpret_cast<const void*>(access.address));
  return text;
}

inline std::unique_ptr<FusionVerifyRecord> FusionWindow::verify_run_unfused() {
  const std::size_t n = m_launches.size();
  auto record = std::make_unique<FusionVerifyRecord>();
  const FusionVerifyMemory& memory = record->memory;
  for (const FusionLaunch& l : m_launches) record->memory.device = record->memory.device || !l.on_host;
  memory.settle();  // work issued before the window
  for (const FusionAccess& a : m_accesses) {
    if (!fusion_changes(a.privilege)) continue;
    FusionVerifyRecord::Region region = fusion_verify_region(a);
    bool known = false;
    for (const auto& r : record->written) known = known || (r.base == region.base && r.bytes == region.bytes);
    if (known) continue;
    memory.read(region.before, region.base, region.bytes);
    record->written.push_back(std::move(region));
  }
  record->results.resize(n);
  std::vector<std::vector<std::byte>> read_copies;
  std::vector<std::byte> after;
  for (std::size_t k = 0; k < n; ++k) {
    const FusionLaunchSummary& s = m_summaries[k];
    const FusionAccess* first = m_accesses.data() + s.first_access;
    const FusionAccess* last = first + s.num_accesses;
    // Views the launch declares only reading: copied before it runs, compared after.
    const auto read_only = [&](const FusionAccess& a) {
      if (a.privilege != Privilege::read) return false;
      for (const FusionAccess* b = first; b != last; ++b) {
        if (fusion_changes(b->privilege) && b->allocation == a.allocation) return false;
      }
      return true;
    };
    read_copies.assign(s.num_accesses, {});
    for (std::uint32_t j = 0; j < s.num_accesses; ++j) {
      if (!read_only(first[j])) continue;
      memory.read(read_copies[j], reinterpret_cast<const void*>(first[j].address),
                  static_cast<std::size_t>(first[j].span_bytes));
    }
    m_launches[k].execute_alone(m_launches[k].blob);
    memory.settle();
    for (std::uint32_t j = 0; j < s.num_accesses; ++j) {
      if (!read_only(first[j])) continue;
      memory.read(after, reinterpret_cast<const void*>(first[j].address), read_copies[j].size());
      if (after == read_copies[j]) continue;
      const std::string view = verify_view_name(first[j]);
      const std::string message = "Kokkos fusion verify: " + verify_launch_name(k) + " declares View " + view +
                                  " read-only (reads) but changed it.  A fused run lets other launches read " + view +
                                  " before this launch has written it.  Declare read_writes or writes for it "
                                  "(reduces for atomic or order-independent updates).  [KOKKOS_FUSION_VERIFY]";
      host_abort(message.c_str());
    }
    const FusionLaunch& l = m_launches[k];
    if (l.result != nullptr) memory.read(record->results[k], l.result, l.result_bytes);
  }
  for (FusionVerifyRecord::Region& r : record->written) {
    memory.read(r.unfused, r.base, r.bytes);
    memory.write(r.base, r.before);
  }
  return record;
}

// Why launch `writer`'s output at `address` may differ: the first point-wise read, in the
// writer's fused run, of a View another launch of that run writes (the writer's own reads
// first: its output is what differs).
inline std::string FusionWindow::verify_explain(std::size_t writer, const FusionPlan& plan) const {
  const FusionRun* run = nullptr;
  for (const FusionRun& r : plan.runs) {
    if (writer >= r.first && writer < r.first + r.count) run = &r;
  }
  if (run == nullptr || run->count < 2) {
    return "  The launch ran alone, not fused: its Views are most likely touched by a launch that does not declare "
           "them (a raw pointer, an unmanaged View, a View reached through a pointer).";
  }
  const auto accesses = [&](std::size_t k) {
    const FusionLaunchSummary& s = m_summaries[k];
    return std::pair<const FusionAccess*, const FusionAccess*>(m_accesses.data() + s.first_access,
                                                              m_accesses.data() + s.first_access + s.num_accesses);
  };
  std::vector<std::size_t> readers{writer};
  for (std::size_t k = run->first; k < run->first + run->count; ++k) {
    if (k != writer) readers.push_back(k);
  }
  for (std::size_t reader : readers) {
    const auto [rb, re] = accesses(reader);
    for (const FusionAccess* a = rb; a != re; ++a) {
      if (a->privilege == Privilege::reduce) continue;
      for (std::size_t w = run->first; w < run->first + run->count; ++w) {
        if (w == reader) continue;
        const auto [wb, we] = accesses(w);
        for (const FusionAccess* b = wb; b != we; ++b) {
          if (!fusion_changes(b->privilege) || b->allocation != a->allocation) continue;
          const std::string view = verify_view_name(*a);
          return "  Most likely wrong: " + verify_launch_name(reader) + " reads View " + view +
                 " through a point-wise declaration while " + verify_launch_name(w) +
                 " of the same fused run writes it.  If the first reads " + view +
                 " at another index than its own (x(i+1), x(i-1)), declare the shifted subview it reads "
                 "(reads(Kokkos::subview(x, std::pair(1, n))) for x(i+1)); if the second updates other indices "
                 "than its own (a histogram, atomics), declare reduces for it.";
        }
      }
    }
  }
  return "  No two launches of its fused run share a View through their declarations: a launch most likely "
         "touches memory it does not declare (a raw pointer, an unmanaged View, a View reached through a pointer).";
}

inline void FusionWindow::verify_compare(const FusionVerifyRecord& unfused, const FusionPlan& plan) const {
  const std::size_t n = m_launches.size();
  const FusionVerifyMemory& memory = unfused.memory;
  memory.settle();
  std::vector<std::byte> now;
  for (std::size_t k = 0; k < n; ++k) {
    const FusionLaunch& l = m_launches[k];
    if (l.result == nullptr) continue;
    memory.read(now, l.result, l.result_bytes);
    if (now == unfused.results[k]) continue;
    const std::string message = "Kokkos fusion verify: the reduction of " + verify_launch_name(k) +
                                " gives a different result fused than unfused." + verify_explain(k, plan) +
                                "  [KOKKOS_FUSION_VERIFY]";
    host_abort(message.c_str());
  }
  for (const FusionVerifyRecord::Region& r : unfused.written) {
    bool eliminated = false;
    for (const FusionTemporary& t : m_temporaries) eliminated = eliminated || t.allocation == r.allocation;
    if (eliminated) continue;
    memory.read(now, r.base, r.bytes);
    std::size_t at = 0;
    while (at < r.bytes && now[at] == r.unfused[at]) ++at;
    if (at == r.bytes) continue;
    const auto address = reinterpret_cast<std::uintptr_t>(r.base + at);
    // The last launch whose declared write covers the byte, and the index it writes there.
    std::size_t writer = n;
    const FusionAccess* written = nullptr;
    for (std::size_t k = n; k-- > 0 && writer == n;) {
      const FusionLaunchSummary& s = m_summaries[k];
      for (std::uint32_t j = 0; j < s.num_accesses; ++j) {
        const FusionAccess& a = m_accesses[s.first_access + j];
        if (!fusion_changes(a.privilege) || a.allocation != r.allocation) continue;
        if (address >= a.address && address < a.address + static_cast<std::uintptr_t>(a.span_bytes)) {
          writer = k;
          written = &a;
          break;
        }
      }
    }
    std::string where;
    if (written != nullptr) {
      where = "View " + verify_view_name(*written);
      where += written->stride > 0
                   ? " at index " + std::to_string((address - written->address) / static_cast<std::uintptr_t>(written->stride))
                   : std::string(" (its only element)");
      where += ", written by " + verify_launch_name(writer) + ".";
    } else {
      where = "byte " + std::to_string(at) + " of an allocation the window writes, outside every declared write.";
    }
    const std::string message = "Kokkos fusion verify: the fused and the unfused run of a window differ first at " +
                                where + (writer < n ? verify_explain(writer, plan) : std::string()) +
                                "  [KOKKOS_FUSION_VERIFY]";
    host_abort(message.c_str());
  }
}

}  // namespace Kokkos::Impl

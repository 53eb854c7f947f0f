#pragma once
// Kokkos::Experimental::ErrorReporter<ReportType, DeviceType>: kernels record (reporter id,
// report) pairs into a fixed-capacity buffer; the host reads them back afterwards.
//
//   Kokkos::Experimental::ErrorReporter<double> errors("bad cells", 10);
//   parallel_for(n, KOKKOS_LAMBDA(int i) { if (x(i) < 0) errors.add_report(i, x(i)); });
//   auto [ids, values] = errors.get_reports();
//
// Lock-free: add_report claims a slot with one atomic fetch-add on the attempt counter, so
// any number of threads may report concurrently; attempts beyond the capacity are counted
// but not stored.  Both the Kokkos 4.6 names (capacity, num_reports, ...) and the older ones
// (getCapacity, getNumReports, ...) are provided.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace Kokkos {
namespace Experimental {

template <typename ReportType, typename DeviceType = typename DefaultExecutionSpace::device_type>
class ErrorReporter {
 public:
  using report_type = ReportType;
  using device_type = DeviceType;
  using execution_space = typename device_type::execution_space;

 private:
  using counter_view = View<int, device_type>;
  using reporters_view = View<int*, device_type>;
  using reports_view = View<report_type*, device_type>;

 public:
  using reporters_host_view = typename View<int*, execution_space>::HostMirror;
  using reports_host_view = typename View<report_type*, execution_space>::HostMirror;

  ErrorReporter(const std::string& label, int size)
      : m_numReportsAttempted(label + "::numReportsAttempted"),
        m_reports(label + "::reports", impl_checked_size(size)),
        m_reporters(label + "::reporters", impl_checked_size(size)) {
    clear();
  }
  ErrorReporter(int size) : ErrorReporter(std::string("ErrorReporter"), size) {}

  int capacity() const { return static_cast<int>(m_reports.extent(0)); }
  int num_report_attempts() const {
    int attempts = 0;
    Kokkos::deep_copy(attempts, m_numReportsAttempted);
    return attempts;
  }
  int num_reports() const {
    const int attempts = num_report_attempts();
    return attempts < capacity() ? attempts : capacity();
  }
  bool full() const { return num_report_attempts() >= capacity(); }

  // The stored reports in the order their slots were claimed.
  std::pair<std::vector<int>, std::vector<report_type>> get_reports() const {
    const int n = num_reports();
    auto reporters = impl_host_copy(m_reporters, n);
    auto reports = impl_host_copy(m_reports, n);
    std::pair<std::vector<int>, std::vector<report_type>> out;
    out.first.assign(reporters.data(), reporters.data() + n);
    out.second.assign(reports.data(), reports.data() + n);
    return out;
  }

  void clear() const { Kokkos::deep_copy(m_numReportsAttempted, 0); }

  // New capacity; reports already stored within it are kept, the attempt count is unchanged.
  void resize(const std::size_t new_size) {
    impl_checked_size(static_cast<long long>(new_size));
    Kokkos::resize(m_reports, new_size);
    Kokkos::resize(m_reporters, new_size);
    Kokkos::fence("Kokkos::Experimental::ErrorReporter::resize");
  }

  // Callable from any thread of any kernel; returns whether the report was stored.
  KOKKOS_INLINE_FUNCTION bool add_report(int reporter_id, report_type report) const {
    const int slot = Kokkos::atomic_fetch_add(m_numReportsAttempted.data(), 1);
    if (slot < 0 || slot >= static_cast<int>(m_reports.extent(0))) return false;
    m_reporters(slot) = reporter_id;
    m_reports(slot) = report;
    return true;
  }

  // Kokkos 3 / early Kokkos 4 spellings.
  int getCapacity() const { return capacity(); }
  int getNumReports() const { return num_reports(); }
  int getNumReportAttempts() const { return num_report_attempts(); }
  void getReports(std::vector<int>& reporters_out, std::vector<report_type>& reports_out) const {
    auto reports = get_reports();
    reporters_out = std::move(reports.first);
    reports_out = std::move(reports.second);
  }
  void getReports(reporters_host_view& reporters_out, reports_host_view& reports_out) const {
    const int n = num_reports();
    reporters_out = reporters_host_view("ErrorReport::reporters_out", n);
    reports_out = reports_host_view("ErrorReport::reports_out", n);
    Kokkos::deep_copy(reporters_out, impl_host_copy(m_reporters, n));
    Kokkos::deep_copy(reports_out, impl_host_copy(m_reports, n));
  }

 private:
  static std::size_t impl_checked_size(long long size) {
    if (size < 0)
      Kokkos::Impl::throw_runtime_exception("Kokkos::Experimental::ErrorReporter: the capacity must not be negative (got " +
                                            std::to_string(size) + ")");
    return static_cast<std::size_t>(size);
  }

  // The first n entries of v, readable on the host.
  template <class V>
  static auto impl_host_copy(const V& v, int n) {
    auto head = Kokkos::subview(v, Kokkos::pair<std::size_t, std::size_t>(0, static_cast<std::size_t>(n)));
    auto host = Kokkos::create_mirror_view(head);
    Kokkos::deep_copy(host, head);
    return host;
  }

  counter_view m_numReportsAttempted;
  reports_view m_reports;
  reporters_view m_reporters;
};

}  // namespace Experimental
}  // namespace Kokkos

#pragma once
// Kokkos::Experimental halo messages of Views over MPI, declared to the fusion window.
//
//   #include <Kokkos_MPI.hpp>                 // target Kokkos::kokkos_mpi (built when CMake finds MPI)
//   namespace KE = Kokkos::Experimental;
//   KE::FusionScope fuse;
//   ... fused launches that write u ...
//   auto recv_lo = KE::irecv_view(Kokkos::subview(u, 0, Kokkos::ALL), below, 0);
//   auto send_lo = KE::isend_view(Kokkos::subview(u, 1, Kokkos::ALL), below, 1);
//   ... fused launches on the interior rows keep being recorded while the messages fly ...
//   recv_lo.wait(); send_lo.wait();
//
// A message is an access by the host outside any launch, and it is declared to the calling
// thread's fusion window like one (seed 000's communication-absence constraint):
//   - isend_view(v) reads v: before posting, the window runs exactly the recorded launches v
//     depends on (those writing bytes of v, and the earlier launches those depend on); launches
//     that do not touch v stay recorded and keep fusing while the message is in flight.  Until
//     wait(), a recorded launch that writes v does not run: a flush that would run it waits for
//     the send first.
//   - irecv_view(v) writes v: recorded launches that read or write v run before it is posted
//     (they must see the old contents).  Launches recorded after it may read v: the access
//     completes at wait(), and a flush that would run such a launch before wait() waits for the
//     message first, so a fused launch never reads a halo that has not arrived.
//   - The same holds for a launch with declared accesses that runs at once (outside a window,
//     with fusion off, or run inline on one thread): a conflicting message completes first, so
//     fused and unfused runs of one program give the same results.  A launch WITHOUT declared
//     accesses is not checked: as in plain MPI, it must not touch a View before its wait().
//   - Messages are tracked by the thread that posted them: post and wait on one thread.
//   - Which launches a message conflicts with: exact for rows and columns of one row-major
//     array (same row pitch: a column halo does not hold back launches on the interior columns);
//     otherwise every byte between a View's first and last element counts as touched.
//
// Views: any rank when contiguous; rank 1 and rank 2 slices of any layout (LayoutLeft,
// LayoutRight, LayoutStride: a column of a row-major array, a row of a column-major one) are
// sent in place through an MPI derived datatype, without packing.  The memory must be host
// accessible (a compile-time error otherwise).
//
// Bad input stops with a message naming the View's label, the rank and the sizes, instead of an
// MPI abort deep inside: a receive whose View holds a different number of elements than the
// sender's, or elements of another size (each message carries its element count and size ahead
// of the data), a peer rank outside the communicator, a negative tag, MPI_ANY_SOURCE /
// MPI_ANY_TAG (a halo knows its neighbour), a non-contiguous View of rank 3 or more, or MPI not
// initialised.  MPI_PROC_NULL as the peer is a message that completes at once (edge ranks).  The helpers throw std::runtime_error, as Kokkos does
// for host-side misuse.
#include <Kokkos_Core.hpp>
#include <Kokkos_Fusion.hpp>

#include <mpi.h>

#include <chrono>
#include <complex>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace Kokkos::Impl {

template <class T>
MPI_Datatype mpi_scalar_type() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<U, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<U, int>) return MPI_INT;
  else if constexpr (std::is_same_v<U, long>) return MPI_LONG;
  else if constexpr (std::is_same_v<U, long long>) return MPI_LONG_LONG;
  else if constexpr (std::is_same_v<U, unsigned>) return MPI_UNSIGNED;
  else if constexpr (std::is_same_v<U, unsigned long>) return MPI_UNSIGNED_LONG;
  else if constexpr (std::is_same_v<U, char>) return MPI_CHAR;
  else if constexpr (std::is_same_v<U, std::complex<double>>) return MPI_CXX_DOUBLE_COMPLEX;
  else return MPI_DATATYPE_NULL;  // sent as its bytes (see MPIViewType)
}

// MPI reports errors to the communicator's handler, which aborts by default: a message is
// checked here instead, for the duration of one call.
class MPIErrorsReturn {
 public:
  explicit MPIErrorsReturn(MPI_Comm comm) : m_comm(comm) {
    MPI_Comm_get_errhandler(comm, &m_saved);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  }
  ~MPIErrorsReturn() {
    MPI_Comm_set_errhandler(m_comm, m_saved);
    MPI_Errhandler_free(&m_saved);
  }
  MPIErrorsReturn(const MPIErrorsReturn&) = delete;
  MPIErrorsReturn& operator=(const MPIErrorsReturn&) = delete;

 private:
  MPI_Comm m_comm;
  MPI_Errhandler m_saved;
};

inline std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

// What every message says about itself when something is wrong.
struct MPIMessageName {
  std::string what;   // "isend_view" or "irecv_view"
  std::string label;  // the View's
  int rank = -1, peer = -1, tag = 0;
  std::string text(const std::string& problem) const {
    return "Kokkos::Experimental::" + what + ": View '" + label + "' on rank " + std::to_string(rank) +
           (what == "isend_view" ? " to rank " : " from rank ") + std::to_string(peer) + " (tag " +
           std::to_string(tag) + "): " + problem;
  }
  [[noreturn]] void fail(const std::string& problem) const { throw std::runtime_error(text(problem)); }
  void check(int code, const char* call) const {
    if (code != MPI_SUCCESS) fail(std::string(call) + " failed: " + mpi_error_text(code));
  }
};

// The View's elements in place: a contiguous run, or a strided rank-1/rank-2 slice as an MPI
// vector type (strides in elements; a byte-strided hvector for the outer dimension).
class MPIViewType {
 public:
  template <class ViewType>
  MPIViewType(const ViewType& v, const MPIMessageName& name) {
    using value_type = typename ViewType::value_type;
    MPI_Datatype element = mpi_scalar_type<value_type>();
    if (element == MPI_DATATYPE_NULL) {
      name.check(MPI_Type_contiguous(static_cast<int>(sizeof(value_type)), MPI_BYTE, &m_element), "MPI_Type_contiguous");
      name.check(MPI_Type_commit(&m_element), "MPI_Type_commit");
      element = m_element;
    }
    const std::size_t n = v.size();
    if (n > static_cast<std::size_t>(INT32_MAX)) fail_size(name, n);
    constexpr unsigned rank = ViewType::rank();
    if (n == 0 || v.span_is_contiguous()) {
      m_type = element;
      m_count = static_cast<int>(n);
      return;
    }
    const auto bytes = static_cast<MPI_Aint>(sizeof(value_type));
    if constexpr (rank == 1) {
      name.check(MPI_Type_vector(static_cast<int>(v.extent(0)), 1, static_cast<int>(v.stride(0)), element, &m_derived),
                 "MPI_Type_vector");
    } else if constexpr (rank == 2) {
      // Inner dimension: the one with the smaller stride, so a row of LayoutRight (or a column
      // of LayoutLeft) is one block.
      const bool rows_inner = v.stride(1) <= v.stride(0);
      const unsigned in = rows_inner ? 1 : 0, out = rows_inner ? 0 : 1;
      MPI_Datatype inner = MPI_DATATYPE_NULL;
      if (v.stride(in) == 1) {
        name.check(MPI_Type_contiguous(static_cast<int>(v.extent(in)), element, &inner), "MPI_Type_contiguous");
      } else {
        name.check(MPI_Type_vector(static_cast<int>(v.extent(in)), 1, static_cast<int>(v.stride(in)), element, &inner),
                   "MPI_Type_vector");
      }
      const int code = MPI_Type_create_hvector(static_cast<int>(v.extent(out)), 1,
                                               static_cast<MPI_Aint>(v.stride(out)) * bytes, inner, &m_derived);
      MPI_Type_free(&inner);
      name.check(code, "MPI_Type_create_hvector");
    } else {
      name.fail("a non-contiguous View of rank " + std::to_string(rank) +
                " cannot be sent in place (rank 1 and rank 2 slices can); copy it to a contiguous View first");
    }
    name.check(MPI_Type_commit(&m_derived), "MPI_Type_commit");
    m_type = m_derived;
    m_count = 1;
  }
  ~MPIViewType() {
    if (m_derived != MPI_DATATYPE_NULL) MPI_Type_free(&m_derived);
    if (m_element != MPI_DATATYPE_NULL) MPI_Type_free(&m_element);
  }
  MPIViewType(const MPIViewType&) = delete;
  MPIViewType& operator=(const MPIViewType&) = delete;

  MPI_Datatype type() const { return m_type; }
  int count() const { return m_count; }

 private:
  [[noreturn]] static void fail_size(const MPIMessageName& name, std::size_t n) {
    name.fail(std::to_string(n) + " elements exceed what one MPI message can count");
  }
  MPI_Datatype m_element = MPI_DATATYPE_NULL, m_derived = MPI_DATATYPE_NULL, m_type = MPI_DATATYPE_NULL;
  int m_count = 0;
};

}  // namespace Kokkos::Impl

namespace Kokkos::Experimental {

// Time messages spent in flight, and how much of it the posting thread spent blocked waiting
// for them (in wait(), or in a flush that needed one): the rest overlapped with computation.
// Summed over the process's messages since start or reset_mpi_statistics().
struct MPIStatistics {
  std::uint64_t messages = 0;
  double seconds_in_flight = 0;  // from posting to completion
  double seconds_waiting = 0;    // blocked completing them
  double overlapped_fraction() const {
    return seconds_in_flight <= 0 ? 0.0 : 1.0 - seconds_waiting / seconds_in_flight;
  }
};

}  // namespace Kokkos::Experimental

namespace Kokkos::Impl {

struct MPIStatisticsState {
  std::mutex mutex;
  Experimental::MPIStatistics stats;
};
inline MPIStatisticsState& mpi_statistics_state() {
  static MPIStatisticsState state;
  return state;
}

// One message in flight: its two MPI requests (element count, then the data), and what the
// fusion window knows of it.  Heap-allocated so that its address, which the window holds,
// survives moves of the request object.
struct MPIMessage {
  MPIMessageName name;
  MPI_Comm comm = MPI_COMM_NULL;
  bool receive = false;
  // The header each message carries ahead of its data: elements and bytes per element, the
  // local View's (sent) and the sender's (received).
  std::int64_t header_out[2] = {0, 0}, header_in[2] = {0, 0};
  MPI_Request header = MPI_REQUEST_NULL, data = MPI_REQUEST_NULL;
  bool in_flight = false;
  std::unique_ptr<MPIViewType> type;  // freed at completion
  std::chrono::steady_clock::time_point posted;

  static void complete_from_window(void* self) { static_cast<MPIMessage*>(self)->complete(); }

  void complete() {
    if (!in_flight) return;
    in_flight = false;
    fusion_remove_in_flight(this);
    const auto waiting = std::chrono::steady_clock::now();
    MPIErrorsReturn errors(comm);
    MPI_Status status;
    name.check(MPI_Wait(&header, &status), "MPI_Wait");
    if (receive && (header_in[0] != header_out[0] || header_in[1] != header_out[1])) {
      MPI_Cancel(&data);
      auto elements = [](const std::int64_t* h) {
        return std::to_string(h[0]) + " elements of " + std::to_string(h[1]) + " bytes";
      };
      name.fail("the View holds " + elements(header_out) + " but rank " + std::to_string(name.peer) + " sent " +
                elements(header_in) + "; sender and receiver slices must have the same size and element type");
    }
    name.check(MPI_Wait(&data, &status), "MPI_Wait");
    type.reset();
    const auto done = std::chrono::steady_clock::now();
    MPIStatisticsState& state = mpi_statistics_state();
    std::lock_guard<std::mutex> lock(state.mutex);
    state.stats.messages += 1;
    state.stats.seconds_in_flight += std::chrono::duration<double>(done - posted).count();
    state.stats.seconds_waiting += std::chrono::duration<double>(done - waiting).count();
  }
};

template <class ViewType>
MPIMessageName mpi_message_name(const char* what, const ViewType& v, int peer, int tag, MPI_Comm comm) {
  MPIMessageName name;
  name.what = what;
  name.label = v.label();
  name.peer = peer;
  name.tag = tag;
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) name.fail("MPI is not initialised (call MPI_Init before, MPI_Finalize after)");
  MPI_Comm_rank(comm, &name.rank);
  int size = 0;
  MPI_Comm_size(comm, &size);
  if (peer == MPI_ANY_SOURCE || tag == MPI_ANY_TAG) {
    name.fail("MPI_ANY_SOURCE and MPI_ANY_TAG are not supported: a halo message names its neighbour and tag");
  }
  if (peer != MPI_PROC_NULL && (peer < 0 || peer >= size)) {
    name.fail("the peer rank is outside the communicator of " + std::to_string(size) + " ranks");
  }
  if (tag < 0) name.fail("the tag must not be negative");
  return name;
}

}  // namespace Kokkos::Impl

namespace Kokkos::Experimental {

// A posted message: wait() completes it (the View may then be reused or read).  Destroying a
// request that was not waited for waits for it.  Move-only.
class MPIRequest {
 public:
  MPIRequest() = default;
  explicit MPIRequest(std::unique_ptr<Kokkos::Impl::MPIMessage> message) : m_message(std::move(message)) {}
  MPIRequest(MPIRequest&&) noexcept = default;
  MPIRequest& operator=(MPIRequest&& other) noexcept {
    if (this != &other) {
      finish_quietly();
      m_message = std::move(other.m_message);
    }
    return *this;
  }
  ~MPIRequest() { finish_quietly(); }

  void wait() {
    if (m_message) m_message->complete();
  }
  // Whether the message is still posted (not completed by wait() or by a flush that needed it).
  bool in_flight() const { return m_message && m_message->in_flight; }

 private:
  void finish_quietly() noexcept {
    try {
      wait();
    } catch (const std::exception& e) {
      Kokkos::Impl::host_abort(e.what());
    }
  }
  std::unique_ptr<Kokkos::Impl::MPIMessage> m_message;
};

inline MPIStatistics mpi_statistics() {
  Kokkos::Impl::MPIStatisticsState& state = Kokkos::Impl::mpi_statistics_state();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.stats;
}
inline void reset_mpi_statistics() {
  Kokkos::Impl::MPIStatisticsState& state = Kokkos::Impl::mpi_statistics_state();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.stats = MPIStatistics{};
}

inline void wait_all(std::vector<MPIRequest>& requests) {
  for (MPIRequest& r : requests) r.wait();
}

namespace Impl {
template <class ViewType>
MPIRequest post_view_message(const char* what, bool receive, const ViewType& v, int peer, int tag, MPI_Comm comm) {
  static_assert(Kokkos::is_view_v<ViewType>, "Kokkos::Experimental::isend_view/irecv_view: the argument must be a View");
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ViewType::memory_space>::accessible,
                "Kokkos::Experimental::isend_view/irecv_view: the View's memory is not host accessible, so MPI "
                "cannot address it; deep_copy it to a host mirror first");
  using Kokkos::Impl::MPIMessage;
  auto message = std::make_unique<MPIMessage>();
  message->name = Kokkos::Impl::mpi_message_name(what, v, peer, tag, comm);
  message->comm = comm;
  message->receive = receive;
  message->header_out[0] = static_cast<std::int64_t>(v.size());
  message->header_out[1] = static_cast<std::int64_t>(sizeof(typename ViewType::value_type));
  if (peer == MPI_PROC_NULL) return MPIRequest(std::move(message));
  message->type = std::make_unique<Kokkos::Impl::MPIViewType>(v, message->name);

  // Before the message touches v, the recorded launches it depends on run (a send needs what
  // they write; a receive must not overwrite what they read).
  const Kokkos::Impl::FusionAccessDecl decl =
      DataAccess::impl_make(v, receive ? Privilege::write : Privilege::read).impl_decl();
  Kokkos::Impl::fusion_flush_dependences(decl);

  const Kokkos::Impl::MPIErrorsReturn errors(comm);
  const MPIMessage& m = *message;
  void* data = const_cast<std::remove_const_t<typename ViewType::value_type>*>(v.data());
  if (receive) {
    m.name.check(MPI_Irecv(message->header_in, 2, MPI_INT64_T, peer, tag, comm, &message->header), "MPI_Irecv");
    m.name.check(MPI_Irecv(data, m.type->count(), m.type->type(), peer, tag, comm, &message->data), "MPI_Irecv");
  } else {
    m.name.check(MPI_Isend(message->header_out, 2, MPI_INT64_T, peer, tag, comm, &message->header), "MPI_Isend");
    m.name.check(MPI_Isend(data, m.type->count(), m.type->type(), peer, tag, comm, &message->data), "MPI_Isend");
  }
  message->in_flight = true;
  message->posted = std::chrono::steady_clock::now();
  Kokkos::Impl::fusion_add_in_flight(decl, &MPIMessage::complete_from_window, message.get());
  return MPIRequest(std::move(message));
}
}  // namespace Impl

// MPI_Isend of the View's elements to rank `dest` (see the top of this header).
template <class ViewType>
[[nodiscard]] MPIRequest isend_view(const ViewType& v, int dest, int tag, MPI_Comm comm = MPI_COMM_WORLD) {
  return Impl::post_view_message("isend_view", false, v, dest, tag, comm);
}

// MPI_Irecv into the View's elements from rank `source`; the View must hold exactly as many
// elements as the sender's.
template <class ViewType>
[[nodiscard]] MPIRequest irecv_view(const ViewType& v, int source, int tag, MPI_Comm comm = MPI_COMM_WORLD) {
  static_assert(!std::is_const_v<typename ViewType::value_type>,
                "Kokkos::Experimental::irecv_view: the View's value type is const");
  return Impl::post_view_message("irecv_view", true, v, source, tag, comm);
}

}  // namespace Kokkos::Experimental

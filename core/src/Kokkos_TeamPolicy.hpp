#pragma once
// TeamPolicy (Kokkos 4 API): a league of `league_size` teams of `team_size` threads each.
//
//   using policy = Kokkos::TeamPolicy<ExecSpace, Schedule<Dynamic>, Tag>;
//   policy p(league_size, Kokkos::AUTO);
//   p.set_scratch_size(0, Kokkos::PerTeam(bytes), Kokkos::PerThread(bytes));
//   Kokkos::parallel_for(p, KOKKOS_LAMBDA(const policy::member_type& team) { ... });
//
// What a back end contributes (member type, limits) comes from Impl::TeamBackend<ExecSpace>;
// host back ends get theirs from Host/Kokkos_HostParallelTeam.hpp.  Host limits:
//   team_size_max       = the execution space's thread pool size;
//   AUTO team size      = Kokkos::Experimental::task_team_size() (hyperthreads per core), at most
//                         the pool size;
//   vector length       = any power of two is accepted; ThreadVectorRange runs sequentially, so
//                         vector_length() reports 1, as in Kokkos' host back ends;
//   scratch_size_max(0) = 1 MiB per team (a cache-sized arena), scratch_size_max(1) = 1 GiB.
// Invalid requests throw std::runtime_error naming the request and the limit.
#include <Kokkos_Core_fwd.hpp>
#include <Kokkos_Abort.hpp>
#include <Kokkos_ExecPolicy.hpp>
#include <Kokkos_ScratchSpace.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>

#include <concepts>
#include <cstddef>
#include <string>
#include <type_traits>

namespace Kokkos {

// Shared with other policies in Kokkos (Kokkos_ExecPolicy.hpp there); defined here until the
// front ends need them too.
#if !defined(KOKKOS_IMPL_AUTO_T_DEFINED)
#define KOKKOS_IMPL_AUTO_T_DEFINED
struct AUTO_t {
  KOKKOS_INLINE_FUNCTION constexpr const AUTO_t& operator()() const { return *this; }
};
inline constexpr AUTO_t AUTO{};
#endif
#if !defined(KOKKOS_IMPL_PARALLEL_TAGS_DEFINED)
#define KOKKOS_IMPL_PARALLEL_TAGS_DEFINED
struct ParallelForTag {};
struct ParallelScanTag {};
struct ParallelReduceTag {};
#endif

namespace Experimental {
int task_team_size() noexcept;  // declared with its documentation in Kokkos_Core.hpp
}  // namespace Experimental

namespace Impl {
// Per back end: `member_type`, `team_size_max(space)`, `team_size_recommended(space)`,
// `vector_length_max()`, `effective_vector_length(requested)`, `scratch_size_max(level)`.
template <class ExecSpace, class = void>
struct TeamBackend;
}  // namespace Impl

template <class... Properties>
class TeamPolicy : public Impl::PolicyOccupancy {
  using traits = Impl::PolicyTraits<Properties...>;
  using backend = Impl::TeamBackend<typename traits::execution_space>;

 public:
  using execution_policy = TeamPolicy<Properties...>;
  using execution_space = typename traits::execution_space;
  using schedule_type = typename traits::schedule_type;
  using index_type = typename traits::index_type::type;
  using work_tag = typename traits::work_tag;
  using launch_bounds = typename traits::launch_bounds;
  using work_item_property = typename traits::work_item_property;
  using occupancy_control = typename traits::occupancy_control;
  using traits_type = traits;
  using member_type = typename backend::member_type;

  TeamPolicy() = default;

  TeamPolicy(const execution_space& space, int league_size, int team_size, int vector_length = 1) : m_space(space) {
    init(league_size, team_size, false, vector_length, false);
  }
  TeamPolicy(const execution_space& space, int league_size, const AUTO_t&, int vector_length = 1) : m_space(space) {
    init(league_size, 0, true, vector_length, false);
  }
  TeamPolicy(const execution_space& space, int league_size, const AUTO_t&, const AUTO_t&) : m_space(space) {
    init(league_size, 0, true, 1, true);
  }
  TeamPolicy(const execution_space& space, int league_size, int team_size, const AUTO_t&) : m_space(space) {
    init(league_size, team_size, false, 1, true);
  }
  TeamPolicy(int league_size, int team_size, int vector_length = 1) {
    init(league_size, team_size, false, vector_length, false);
  }
  TeamPolicy(int league_size, const AUTO_t&, int vector_length = 1) { init(league_size, 0, true, vector_length, false); }
  TeamPolicy(int league_size, const AUTO_t&, const AUTO_t&) { init(league_size, 0, true, 1, true); }
  TeamPolicy(int league_size, int team_size, const AUTO_t&) { init(league_size, team_size, false, 1, true); }

  // The same launch with other properties (work tag, schedule, ...) on the same space type.
  template <class... Other>
  TeamPolicy(const TeamPolicy<Other...>& other)  // NOLINT: implicit, as in Kokkos
      : Impl::PolicyOccupancy(other),
        m_space(other.space()),
        m_league_size(other.league_size()),
        m_team_size(other.team_size()),
        m_vector_length(other.impl_requested_vector_length()),
        m_chunk_size(other.chunk_size()),
        m_auto_team_size(other.impl_auto_team_size()),
        m_auto_vector_length(other.impl_auto_vector_length()) {
    static_assert(std::is_same_v<typename TeamPolicy<Other...>::execution_space, execution_space>,
                  "Kokkos::TeamPolicy: conversion between policies of different execution spaces");
    for (int level = 0; level < 2; ++level) {
      m_team_scratch[level] = other.team_scratch_size(level);
      m_thread_scratch[level] = other.thread_scratch_size(level);
    }
  }

  KOKKOS_INLINE_FUNCTION int league_size() const { return m_league_size; }
  KOKKOS_INLINE_FUNCTION int team_size() const { return m_team_size; }
  KOKKOS_INLINE_FUNCTION int impl_vector_length() const { return backend::effective_vector_length(m_vector_length); }
  KOKKOS_INLINE_FUNCTION int vector_length() const { return impl_vector_length(); }
  int impl_requested_vector_length() const { return m_vector_length; }
  bool impl_auto_team_size() const { return m_auto_team_size; }
  bool impl_auto_vector_length() const { return m_auto_vector_length; }
  const execution_space& space() const { return m_space; }
  // Launch on another instance of the space (see Impl::policy_on_space): an AUTO team size is
  // chosen again for the new instance, an explicit one is checked against its team_size_max.
  void impl_set_space(const execution_space& space) {
    m_space = space;
    init(m_league_size, m_auto_team_size ? 0 : m_team_size, m_auto_team_size, m_vector_length, m_auto_vector_length);
  }

  int chunk_size() const { return m_chunk_size > 0 ? m_chunk_size : auto_chunk_size(); }
  // 0 restores the automatic chunk size.  Only Schedule<Dynamic> launches use it.
  TeamPolicy& set_chunk_size(int chunk) {
    if (chunk < 0) {
      Impl::throw_runtime_exception("Kokkos::TeamPolicy::set_chunk_size: chunk size " + std::to_string(chunk) +
                                    " is negative");
    }
    m_chunk_size = chunk;
    return *this;
  }

  TeamPolicy& set_scratch_size(const int& level, const Impl::PerTeamValue& per_team) {
    return set_scratch(level, per_team.value, thread_scratch_of(level));
  }
  TeamPolicy& set_scratch_size(const int& level, const Impl::PerThreadValue& per_thread) {
    return set_scratch(level, team_scratch_of(level), per_thread.value);
  }
  TeamPolicy& set_scratch_size(const int& level, const Impl::PerTeamValue& per_team,
                               const Impl::PerThreadValue& per_thread) {
    return set_scratch(level, per_team.value, per_thread.value);
  }
  TeamPolicy& set_scratch_size(const int& level, const Impl::PerThreadValue& per_thread,
                               const Impl::PerTeamValue& per_team) {
    return set_scratch(level, per_team.value, per_thread.value);
  }

  // Bytes one team needs on `level`: its team request plus team_size thread requests.
  std::size_t scratch_size(const int& level, int team_size = -1) const {
    if (team_size < 0) team_size = m_team_size;
    return team_scratch_of(level) + static_cast<std::size_t>(team_size) * thread_scratch_of(level);
  }
  std::size_t team_scratch_size(const int& level) const { return team_scratch_of(level); }
  std::size_t thread_scratch_size(const int& level) const { return thread_scratch_of(level); }
  static std::size_t scratch_size_max(int level) { return backend::scratch_size_max(level); }
  static int vector_length_max() { return backend::vector_length_max(); }

  // A back end whose limits depend on the functor's kernel (Cuda) answers per functor; host back
  // ends answer per space.
  template <class FunctorType>
  int team_size_max(const FunctorType& f, const ParallelForTag& t) const {
    return query_team_size<true>(f, t);
  }
  template <class FunctorType>
  int team_size_max(const FunctorType& f, const ParallelReduceTag& t) const {
    return query_team_size<true>(f, t);
  }
  template <class FunctorType, class ReducerType>
  int team_size_max(const FunctorType& f, const ReducerType& r, const ParallelReduceTag& t) const {
    return query_team_size<true>(f, r, t);
  }
  template <class FunctorType>
  int team_size_recommended(const FunctorType& f, const ParallelForTag& t) const {
    return query_team_size<false>(f, t);
  }
  template <class FunctorType>
  int team_size_recommended(const FunctorType& f, const ParallelReduceTag& t) const {
    return query_team_size<false>(f, t);
  }
  template <class FunctorType, class ReducerType>
  int team_size_recommended(const FunctorType& f, const ReducerType& r, const ParallelReduceTag& t) const {
    return query_team_size<false>(f, r, t);
  }

 private:
  template <bool Max, class... A>
  int query_team_size(const A&... a) const {
    if constexpr (Max && requires { backend::team_size_max(*this, a...); }) {
      return backend::team_size_max(*this, a...);
    } else if constexpr (!Max && requires { backend::team_size_recommended(*this, a...); }) {
      return backend::team_size_recommended(*this, a...);
    } else if constexpr (Max) {
      return backend::team_size_max(m_space);
    } else {
      return backend::team_size_recommended(m_space);
    }
  }

  void init(int league_size, int team_size, bool auto_team, int vector_length, bool auto_vector) {
    if (league_size < 0) fail("league size " + std::to_string(league_size) + " is negative");
    const int max = backend::team_size_max(m_space);
    if (auto_team) {
      // A back end whose teams are vector_length lanes wide sizes AUTO teams by it.
      if constexpr (requires { backend::team_size_recommended(m_space, vector_length); }) {
        team_size = backend::team_size_recommended(m_space, auto_vector ? 1 : vector_length);
      } else {
        team_size = backend::team_size_recommended(m_space);
      }
    } else if (team_size < 1) {
      fail("team size " + std::to_string(team_size) + " is less than 1");
    } else if (team_size > max) {
      fail("team size " + std::to_string(team_size) + " exceeds team_size_max " + std::to_string(max) +
           (execution_space::impl_is_host_backend ? " (the execution space's thread pool size)"
                                                  : " (the most threads a block holds)"));
    }
    if (auto_vector) {
      vector_length = 1;
    } else if (vector_length < 1 || (vector_length & (vector_length - 1)) != 0) {
      fail("vector length " + std::to_string(vector_length) + " is not a power of two");
    } else if (vector_length > backend::vector_length_max()) {
      fail("vector length " + std::to_string(vector_length) + " exceeds vector_length_max " +
           std::to_string(backend::vector_length_max()));
    }
    m_league_size = league_size;
    m_team_size = team_size;
    m_vector_length = vector_length;
    m_auto_team_size = auto_team;
    m_auto_vector_length = auto_vector;
  }

  TeamPolicy& set_scratch(int level, std::size_t per_team, std::size_t per_thread) {
    if (level != 0 && level != 1) fail("set_scratch_size: scratch level " + std::to_string(level) + " is not 0 or 1");
    const std::size_t max = backend::scratch_size_max(level);
    const std::size_t threads = static_cast<std::size_t>(m_team_size);
    // Compare without overflowing: per_team + threads * per_thread > max.
    if (per_team > max || (threads > 0 && per_thread > (max - per_team) / threads)) {
      fail("set_scratch_size: level " + std::to_string(level) + " request of " + std::to_string(per_team) +
           " bytes per team + " + std::to_string(threads) + " threads x " + std::to_string(per_thread) +
           " bytes per thread exceeds scratch_size_max(" + std::to_string(level) + ") = " + std::to_string(max) +
           " bytes");
    }
    m_team_scratch[level] = per_team;
    m_thread_scratch[level] = per_thread;
    return *this;
  }
  [[noreturn]] static void fail(const std::string& message) {
    Impl::throw_runtime_exception("Kokkos::TeamPolicy<" + std::string(execution_space::name()) + ">: " + message);
  }
  std::size_t team_scratch_of(int level) const { return level == 0 || level == 1 ? m_team_scratch[level] : 0; }
  std::size_t thread_scratch_of(int level) const { return level == 0 || level == 1 ? m_thread_scratch[level] : 0; }

  // Kokkos' host heuristic: a power of two, growing with league size per concurrent team.
  int auto_chunk_size() const {
    const long long teams_at_once = [&] {
      const int t = m_space.concurrency() / (m_team_size > 0 ? m_team_size : 1);
      return t > 0 ? t : 1;
    }();
    long long chunk = 1;
    while (chunk * 100 * teams_at_once < m_league_size) chunk *= 2;
    if (chunk < 128) {
      chunk = 1;
      while (chunk * 40 * teams_at_once < m_league_size && chunk < 128) chunk *= 2;
    }
    return static_cast<int>(chunk);
  }

  execution_space m_space{};
  int m_league_size = 0;
  int m_team_size = 1;
  int m_vector_length = 1;
  int m_chunk_size = 0;
  bool m_auto_team_size = false;
  bool m_auto_vector_length = false;
  std::size_t m_team_scratch[2] = {0, 0};
  std::size_t m_thread_scratch[2] = {0, 0};
};

// CTAD as in Kokkos 4.6: TeamPolicy(n, AUTO) and TeamPolicy(DefaultExecutionSpace(), n, AUTO) are
// TeamPolicy<>; TeamPolicy(other_space, n, AUTO) is TeamPolicy<OtherSpace>.
namespace Impl {
template <class T>
concept team_extent = std::is_integral_v<T> || std::is_same_v<T, AUTO_t>;
template <class E>
concept team_non_default_space = is_execution_space_v<E> && !std::is_same_v<E, DefaultExecutionSpace>;
}  // namespace Impl
TeamPolicy() -> TeamPolicy<>;
template <std::integral L, Impl::team_extent T>
TeamPolicy(L, T) -> TeamPolicy<>;
template <std::integral L, Impl::team_extent T, Impl::team_extent V>
TeamPolicy(L, T, V) -> TeamPolicy<>;
template <std::integral L, Impl::team_extent T>
TeamPolicy(const DefaultExecutionSpace&, L, T) -> TeamPolicy<>;
template <std::integral L, Impl::team_extent T, Impl::team_extent V>
TeamPolicy(const DefaultExecutionSpace&, L, T, V) -> TeamPolicy<>;
template <Impl::team_non_default_space E, std::integral L, Impl::team_extent T>
TeamPolicy(const E&, L, T) -> TeamPolicy<E>;
template <Impl::team_non_default_space E, std::integral L, Impl::team_extent T, Impl::team_extent V>
TeamPolicy(const E&, L, T, V) -> TeamPolicy<E>;

namespace Impl {
// Level-0 team scratch a functor declares for itself, as Kokkos reads it: team_shmem_size(team_size)
// or else the older shmem_size(team_size); 0 when it declares neither.  Launches add it to the
// policy's level-0 request, so member.team_shmem() hands it out.
template <class Functor>
std::size_t functor_team_shmem_size(const Functor& functor, int team_size) {
  if constexpr (requires { functor.team_shmem_size(team_size); }) {
    return static_cast<std::size_t>(functor.team_shmem_size(team_size));
  } else if constexpr (requires { functor.shmem_size(team_size); }) {
    return static_cast<std::size_t>(functor.shmem_size(team_size));
  } else {
    return 0;
  }
}

template <class T>
struct is_team_policy : std::false_type {};
template <class... P>
struct is_team_policy<TeamPolicy<P...>> : std::true_type {};
}  // namespace Impl

}  // namespace Kokkos

#include <Host/Kokkos_HostParallelTeam.hpp>
#include <Kokkos_NestedPolicies.hpp>

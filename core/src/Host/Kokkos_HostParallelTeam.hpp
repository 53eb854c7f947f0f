#pragma once
// parallel_for and parallel_reduce over a TeamPolicy on any host back end, and the host back
// ends' team limits.
//
// A launch splits the workers (impl_run_on_workers' `size`) into size / team_size teams of
// consecutive ranks; leftover workers idle.  When a launch gets fewer workers than the team size
// (a launch from inside a parallel region runs on one worker), its teams are as large as the
// workers it got, and member.team_size() says so, as in Kokkos' host back ends.  The league is
// split over the teams in static blocks, or claimed in chunks by each team's rank 0 under
// Schedule<Dynamic>.  Consecutive league ranks of a team are separated by a team barrier because
// they reuse the team's scratch arena.
#include <Kokkos_TeamPolicy.hpp>
#include <Host/Kokkos_HostBackend.hpp>
#include <Host/Kokkos_HostTeam.hpp>
#include <impl/Kokkos_ParallelDispatch.hpp>
#include <impl/Kokkos_PolicyTraits.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

namespace Kokkos::Impl {

template <class CombinedFunctorReducerType, class PolicyType, class ExecutionSpaceType>
class ParallelReduce;

template <class ExecSpace>
struct TeamBackend<ExecSpace, std::enable_if_t<is_host_backend<ExecSpace>::value>> {
  using member_type = HostThreadTeamMember<ExecSpace>;

  static int team_size_max(const ExecSpace& space) { return space.impl_thread_pool_size(); }
  static int team_size_recommended(const ExecSpace& space) {
    const int max = team_size_max(space);
    const int per_core = Kokkos::Experimental::task_team_size();
    return per_core < 1 ? 1 : (per_core > max ? max : per_core);
  }
  static constexpr int vector_length_max() { return 1 << 30; }
  KOKKOS_INLINE_FUNCTION static constexpr int effective_vector_length(int /*requested*/) { return 1; }
  static constexpr std::size_t scratch_size_max(int level) {
    return level == 0 ? std::size_t(1) << 20 : std::size_t(1) << 30;
  }
};

// Runs a TeamPolicy launch's league on the host workers.
template <class Policy>
class HostTeamLauncher {
  using Member = typename Policy::member_type;
  using League = std::int64_t;

 public:
  // `worker_bytes`: a private buffer per worker (reduction values), see worker_buffer().
  // `functor`: its own team scratch declaration (team_shmem_size) joins the level-0 arena.
  template <class Functor>
  HostTeamLauncher(const Policy& policy, const Functor& functor, std::size_t worker_bytes)
      : m_policy(policy),
        m_pool(pool_size(policy)),
        m_lease(layout(policy, m_pool, worker_bytes, functor_scratch(policy, functor))) {}

  void* worker_buffer(int rank) const { return m_lease.storage().worker_buffer(rank); }
  int pool() const { return m_pool; }

  // on_worker(rank, size) runs first on each worker (idle ones included); then body(member, rank)
  // runs for every league rank of the worker's team.
  template <class OnWorker, class Body>
  void run(const OnWorker& on_worker, const Body& body) const {
    const League league = m_policy.league_size();
    HostChunkQueue<League> queue(0, league, static_cast<League>(m_policy.chunk_size()));
    HostTeamStorage& storage = m_lease.storage();
    m_policy.space().impl_run_on_workers([&](int rank, int size) {
      if (rank >= m_pool) return;  // more workers than the pool size: never on host back ends
      on_worker(rank, size);
      const int team_size = m_policy.team_size() < size ? m_policy.team_size() : size;
      const int teams = size / team_size < storage.teams() ? size / team_size : storage.teams();
      const int team = rank / team_size;
      if (team >= teams) return;
      const int team_rank = rank - team * team_size;
      HostTeamShared& shared = storage.team(team);
      const auto run_block = [&](HostBlock<League> block) {
        for (League r = block.begin; r < block.end; ++r) {
          if (r != block.begin) shared.barrier(team_size);
          body(Member(shared, team_rank, team_size, static_cast<int>(r), static_cast<int>(league)), rank);
        }
      };
      if constexpr (std::is_same_v<typename Policy::schedule_type::type, Dynamic>) {
        for (unsigned claim = 0;; ++claim) {
          if (team_rank == 0) {
            HostBlock<League> block{league, league};
            if (!queue.next(block)) block = {league, league};
            shared.set_league_block(claim, block);
          }
          shared.barrier(team_size);  // publishes the block; separates it from the previous one
          const HostBlock<League> block = shared.league_block(claim);
          if (block.begin >= block.end) break;
          run_block(block);
        }
      } else {
        run_block(static_block<League>(0, league, team, teams));
      }
    });
  }

 private:
  static int pool_size(const Policy& policy) {
    const int pool = policy.space().impl_thread_pool_size();
    return pool > 0 ? pool : 1;
  }
  template <class Functor>
  static std::size_t functor_scratch(const Policy& policy, const Functor& functor) {
    const int team_size = policy.team_size() > 0 ? policy.team_size() : 1;
    const std::size_t bytes = functor_team_shmem_size(functor, team_size);
    const std::size_t policy_bytes = policy.scratch_size(0, team_size);
    const std::size_t max = Policy::scratch_size_max(0);
    if (bytes > max || policy_bytes > max - bytes) {
      throw_runtime_exception("Kokkos::TeamPolicy<" + std::string(Policy::execution_space::name()) +
                              ">: the functor's team_shmem_size(" + std::to_string(team_size) + ") of " +
                              std::to_string(bytes) + " bytes plus the policy's level-0 request of " +
                              std::to_string(policy_bytes) + " bytes exceeds scratch_size_max(0) = " +
                              std::to_string(max) + " bytes");
    }
    return bytes;
  }
  static HostTeamLayout layout(const Policy& policy, int pool, std::size_t worker_bytes, std::size_t functor_bytes) {
    HostTeamLayout l;
    l.team_size = policy.team_size() > 0 ? policy.team_size() : 1;
    l.teams = pool / l.team_size > 0 ? pool / l.team_size : 1;
    l.scratch_bytes_l0 = policy.scratch_size(0, l.team_size) + functor_bytes;
    l.scratch_bytes_l1 = policy.scratch_size(1, l.team_size);
    l.workers = worker_bytes > 0 ? pool : 0;
    l.worker_bytes = worker_bytes;
    return l;
  }

  const Policy& m_policy;
  int m_pool;
  HostTeamStorageLease m_lease;
};

template <class Functor, class... P, HostBackend ExecSpace>
class ParallelFor<Functor, TeamPolicy<P...>, ExecSpace> {
  using Policy = TeamPolicy<P...>;
  using Tag = typename Policy::work_tag;
  using Member = typename Policy::member_type;

  const Functor& m_functor;
  const Policy& m_policy;

 public:
  ParallelFor(const Functor& functor, const Policy& policy) : m_functor(functor), m_policy(policy) {}

  void execute() const {
    if (m_policy.league_size() == 0) return;
    HostTeamLauncher<Policy> launcher(m_policy, m_functor, 0);
    launcher.run([](int, int) {}, [&](const Member& member, int) { invoke_functor<Tag>(m_functor, member); });
  }
};

// Each worker accumulates into its own value(s); the workers' values are joined in rank order.
template <class CombinedFunctorReducerType, class... P, HostBackend ExecSpace>
class ParallelReduce<CombinedFunctorReducerType, TeamPolicy<P...>, ExecSpace> {
  using Policy = TeamPolicy<P...>;
  using Tag = typename Policy::work_tag;
  using Member = typename Policy::member_type;
  using Reducer = std::remove_cvref_t<decltype(std::declval<const CombinedFunctorReducerType&>().get_reducer())>;
  using value_type = typename Reducer::value_type;
  using pointer_type = typename Reducer::pointer_type;

  const CombinedFunctorReducerType& m_combined;
  const Policy& m_policy;
  pointer_type m_result;

 public:
  ParallelReduce(const CombinedFunctorReducerType& combined, const Policy& policy, pointer_type result)
      : m_combined(combined), m_policy(policy), m_result(result) {}

  void execute() const {
    const Reducer& reducer = m_combined.get_reducer();
    const auto& functor = m_combined.get_functor();
    const std::size_t count = static_cast<std::size_t>(reducer.value_count());
    const std::size_t bytes = static_cast<std::size_t>(reducer.value_size());
    HostTeamLauncher<Policy> launcher(m_policy, functor,
                                      bytes > count * sizeof(value_type) ? bytes : count * sizeof(value_type));
    const auto values = [&](int rank) { return static_cast<pointer_type>(launcher.worker_buffer(rank)); };
    const auto start = [&](int rank) {
      std::uninitialized_default_construct_n(values(rank), count);
      reducer.init(values(rank));
    };

    int workers = 1;
    if (m_policy.league_size() == 0) {
      start(0);
    } else {
      launcher.run(
          [&](int rank, int size) {
            start(rank);
            if (rank == 0) workers = size < launcher.pool() ? size : launcher.pool();
          },
          [&](const Member& member, int rank) {
            invoke_functor<Tag>(functor, member, reducer.reference(values(rank)));
          });
    }
    for (int r = 1; r < workers; ++r) reducer.join(values(0), values(r));
    reducer.final(values(0));
    if (m_result) {
      for (std::size_t i = 0; i < count; ++i) m_result[i] = values(0)[i];
    }
    for (int r = 0; r < workers; ++r) std::destroy_n(values(r), count);
  }
};

}  // namespace Kokkos::Impl

#pragma once
// Team scratch memory (Kokkos 4 API): the per-team and per-thread arenas a TeamPolicy launch
// provides, and the PerTeam / PerThread / ScratchRequest values that size them.
//
//   policy.set_scratch_size(0, Kokkos::PerTeam(team_bytes), Kokkos::PerThread(thread_bytes));
//   double* shared = (double*)member.team_scratch(0).get_shmem(n * sizeof(double));
//   View<double*, ExecSpace::scratch_memory_space, MemoryUnmanaged> mine(member.thread_scratch(0), n);
//
// Allocation is a bump pointer private to each team member.  Every member of a team makes the
// same sequence of requests, so team requests return the same address on every member, and
// thread requests return member `team_rank`'s slice of a block sized `team_size` times the
// request.  Level 0 and level 1 are separate arenas.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Concepts.hpp>
#include <Kokkos_Printf.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace Kokkos {

namespace Impl {
struct PerTeamValue {
  std::size_t value;
  explicit PerTeamValue(std::size_t arg) : value(arg) {}
};
struct PerThreadValue {
  std::size_t value;
  explicit PerThreadValue(std::size_t arg) : value(arg) {}
};
}  // namespace Impl

// PerTeam(bytes) / PerThread(bytes).  The overloads taking a team member (for single()) live in
// Kokkos_NestedPolicies.hpp; these take only integral byte counts.
template <class IntType, std::enable_if_t<std::is_integral_v<IntType>, int> = 0>
inline Impl::PerTeamValue PerTeam(const IntType& bytes) {
  return Impl::PerTeamValue(static_cast<std::size_t>(bytes));
}
template <class IntType, std::enable_if_t<std::is_integral_v<IntType>, int> = 0>
inline Impl::PerThreadValue PerThread(const IntType& bytes) {
  return Impl::PerThreadValue(static_cast<std::size_t>(bytes));
}

// A (level, per team, per thread) request, as Kokkos spells it.
struct ScratchRequest {
  int level;
  std::size_t per_team;
  std::size_t per_thread;

  ScratchRequest(const int& arg_level, const Impl::PerTeamValue& team)
      : level(arg_level), per_team(team.value), per_thread(0) {}
  ScratchRequest(const int& arg_level, const Impl::PerThreadValue& thread)
      : level(arg_level), per_team(0), per_thread(thread.value) {}
  ScratchRequest(const int& arg_level, const Impl::PerTeamValue& team, const Impl::PerThreadValue& thread)
      : level(arg_level), per_team(team.value), per_thread(thread.value) {}
  ScratchRequest(const int& arg_level, const Impl::PerThreadValue& thread, const Impl::PerTeamValue& team)
      : level(arg_level), per_team(team.value), per_thread(thread.value) {}
};

template <class ExecSpace>
class ScratchMemorySpace {
  static_assert(is_execution_space_v<ExecSpace>, "Kokkos::ScratchMemorySpace<ExecSpace>: ExecSpace must be an execution space");

 public:
  using memory_space = ScratchMemorySpace<ExecSpace>;
  using execution_space = ExecSpace;
  using device_type = Device<execution_space, memory_space>;
  using array_layout = typename ExecSpace::array_layout;
  using size_type = typename ExecSpace::size_type;
  static constexpr bool is_host_accessible = ExecSpace::memory_space::is_host_accessible;
  // Kokkos' minimum alignment of get_shmem_aligned when asked for less.
  enum { ALIGN = 8 };

  static constexpr const char* name() { return "ScratchMemorySpace"; }

  KOKKOS_DEFAULTED_FUNCTION ScratchMemorySpace() = default;

  template <class IntType0, class IntType1 = std::size_t>
  KOKKOS_INLINE_FUNCTION ScratchMemorySpace(void* ptr_l0, const IntType0& bytes_l0, void* ptr_l1 = nullptr,
                                            const IntType1& bytes_l1 = 0)
      : m_iter_l0(static_cast<char*>(ptr_l0)),
        m_iter_l1(static_cast<char*>(ptr_l1)),
        m_end_l0(static_cast<char*>(ptr_l0) + bytes_l0),
        m_end_l1(static_cast<char*>(ptr_l1) + bytes_l1) {}

  // Takes `bytes` (times team size in thread mode) from the current level; nullptr when the
  // arena is exhausted, leaving it unchanged.
  template <class IntType>
  KOKKOS_INLINE_FUNCTION void* get_shmem(const IntType& bytes, int level = -1) const {
    return take(static_cast<std::ptrdiff_t>(bytes), 1, level);
  }
  template <class IntType>
  KOKKOS_INLINE_FUNCTION void* get_shmem_aligned(const IntType& bytes, const std::ptrdiff_t alignment,
                                                 int level = -1) const {
    return take(static_cast<std::ptrdiff_t>(bytes), alignment < 1 ? 1 : alignment, level);
  }

  // Selects the level and the team/thread mode of subsequent requests: multiplier 1, offset 0
  // for team memory; multiplier team_size, offset team_rank for thread memory.
  KOKKOS_INLINE_FUNCTION const ScratchMemorySpace& set_team_thread_mode(const int& level, const int& multiplier,
                                                                        const int& offset) const {
    m_default_level = level;
    m_multiplier = multiplier;
    m_offset = offset;
    return *this;
  }

  // Bytes still available on `level` (in team mode).
  KOKKOS_INLINE_FUNCTION std::size_t impl_remaining(int level) const {
    return static_cast<std::size_t>(level == 0 ? m_end_l0 - m_iter_l0 : m_end_l1 - m_iter_l1);
  }

 private:
  KOKKOS_INLINE_FUNCTION void* take(std::ptrdiff_t bytes, std::ptrdiff_t alignment, int level) const {
    if (level == -1) level = m_default_level;
    char*& iter = level == 0 ? m_iter_l0 : m_iter_l1;
    char* const end = level == 0 ? m_end_l0 : m_end_l1;
    if (bytes < 0 || iter == nullptr) return nullptr;
    const std::uintptr_t misalign = reinterpret_cast<std::uintptr_t>(iter) % static_cast<std::uintptr_t>(alignment);
    const std::uintptr_t pad = misalign ? static_cast<std::uintptr_t>(alignment) - misalign : 0;
    const std::uintptr_t capacity = static_cast<std::uintptr_t>(end - iter);
    const std::uintptr_t increment = pad + static_cast<std::uintptr_t>(bytes) * static_cast<std::uintptr_t>(m_multiplier);
    if (increment > capacity) {
#if defined(KOKKOS_ENABLE_DEBUG)
      Kokkos::printf("Kokkos::ScratchMemorySpace::get_shmem: failed to allocate %ld bytes on level %d; %ld bytes left\n",
                     long(bytes) * long(m_multiplier), level, long(capacity));
#endif
      return nullptr;
    }
    char* const block = iter + pad;
    iter += increment;
    return block + static_cast<std::ptrdiff_t>(m_offset) * bytes;
  }

  // Mutable because team_scratch()/thread_scratch() hand out const references, as in Kokkos.
  mutable char* m_iter_l0 = nullptr;
  mutable char* m_iter_l1 = nullptr;
  char* m_end_l0 = nullptr;
  char* m_end_l1 = nullptr;
  mutable int m_multiplier = 1;
  mutable int m_offset = 0;
  mutable int m_default_level = 0;
};

}  // namespace Kokkos

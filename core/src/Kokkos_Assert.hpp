#pragma once
// Contract checks, as in Kokkos: KOKKOS_EXPECTS (precondition), KOKKOS_ENSURES (postcondition)
// and KOKKOS_ASSERT.  They are active unless NDEBUG is defined -- or always, with
// KOKKOS_ENABLE_DEBUG or KOKKOS_ENFORCE_CONTRACTS -- and then abort through Kokkos::abort (host
// and device) with the expression and file:line.  Compiled out, they do not evaluate their
// argument.  A project's own KOKKOS_ASSERT, defined before this header, is left alone.
#include <Kokkos_Macros.hpp>
#include <Kokkos_Abort.hpp>

#if !defined(NDEBUG) || defined(KOKKOS_ENFORCE_CONTRACTS) || defined(KOKKOS_ENABLE_DEBUG)
#define KOKKOS_IMPL_CONTRACT_CHECK(KIND, ...)                                                         \
  {                                                                                                   \
    if (!bool(__VA_ARGS__)) {                                                                         \
      ::Kokkos::abort("Kokkos contract violation:\n    " KIND " `" #__VA_ARGS__ "` evaluated false.\n" \
                      "Error at " KOKKOS_IMPL_TOSTRING(__FILE__) ":" KOKKOS_IMPL_TOSTRING(__LINE__) " \n"); \
    }                                                                                                 \
  }
#define KOKKOS_EXPECTS(...) KOKKOS_IMPL_CONTRACT_CHECK("Expected precondition", __VA_ARGS__)
#define KOKKOS_ENSURES(...) KOKKOS_IMPL_CONTRACT_CHECK("Ensured postcondition", __VA_ARGS__)
#ifndef KOKKOS_ASSERT
#define KOKKOS_ASSERT(...) KOKKOS_IMPL_CONTRACT_CHECK("Asserted condition", __VA_ARGS__)
#endif
#else
#define KOKKOS_EXPECTS(...)
#define KOKKOS_ENSURES(...)
#ifndef KOKKOS_ASSERT
#define KOKKOS_ASSERT(...)
#endif
#endif

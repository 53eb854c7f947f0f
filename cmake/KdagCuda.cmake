# The CUDA back end's build setup (Kokkos_ENABLE_CUDA=ON), included by the top-level CMakeLists
# before the library targets are made: the compiler, the GPU architecture, CMake's CUDA language.

# nvcc: CMAKE_CUDA_COMPILER when it names a compiler, otherwise the toolkit's own bin directory
# ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda) before PATH, so that a CI shell whose PATH lacks the
# toolkit still finds it (a preset's "$env{CUDA_HOME}/bin/nvcc" with CUDA_HOME unset gives
# "/bin/nvcc", which is why a path that does not exist is searched for again too).
if(NOT CMAKE_CUDA_COMPILER OR NOT EXISTS "${CMAKE_CUDA_COMPILER}")
  if(CMAKE_CUDA_COMPILER)
    message(STATUS "kdag: CMAKE_CUDA_COMPILER=${CMAKE_CUDA_COMPILER} does not exist; searching for nvcc")
  endif()
  unset(KDAG_NVCC CACHE)
  find_program(KDAG_NVCC nvcc
    HINTS "$ENV{CUDA_HOME}/bin" "$ENV{CUDA_PATH}/bin" "$ENV{CUDAToolkit_ROOT}/bin" /usr/local/cuda/bin
    NO_CACHE)
  if(NOT KDAG_NVCC)
    message(FATAL_ERROR "kdag: Kokkos_ENABLE_CUDA=ON but nvcc was not found; set CMAKE_CUDA_COMPILER or CUDA_HOME")
  endif()
  set(CMAKE_CUDA_COMPILER "${KDAG_NVCC}" CACHE FILEPATH "CUDA compiler" FORCE)
endif()
# nvcc compiles the host side with the C++ compiler the rest of the library uses.
if(NOT CMAKE_CUDA_HOST_COMPILER)
  set(CMAKE_CUDA_HOST_COMPILER "${CMAKE_CXX_COMPILER}" CACHE FILEPATH "Host compiler for nvcc")
endif()

# Architecture: Kokkos' Kokkos_ARCH_<NAME><CC> options, else CMAKE_CUDA_ARCHITECTURES, else sm_90
# (H100/H200).  At most one Kokkos_ARCH_ GPU option, as in Kokkos.
set(KDAG_CUDA_ARCH_OPTIONS KEPLER35 MAXWELL50 PASCAL60 PASCAL61 VOLTA70 VOLTA72 TURING75 AMPERE80 AMPERE86
                           ADA89 HOPPER90 BLACKWELL100 BLACKWELL120)
set(KDAG_CUDA_ARCH_SELECTED "")
foreach(_arch ${KDAG_CUDA_ARCH_OPTIONS})
  option(Kokkos_ARCH_${_arch} "Compile device code for NVIDIA ${_arch}" OFF)
  if(Kokkos_ARCH_${_arch})
    list(APPEND KDAG_CUDA_ARCH_SELECTED ${_arch})
  endif()
endforeach()
list(LENGTH KDAG_CUDA_ARCH_SELECTED _n_arch)
if(_n_arch GREATER 1)
  message(FATAL_ERROR "kdag: choose one NVIDIA architecture, got ${KDAG_CUDA_ARCH_SELECTED}")
elseif(_n_arch EQUAL 1)
  string(REGEX MATCH "[0-9]+$" _cc "${KDAG_CUDA_ARCH_SELECTED}")
  set(CMAKE_CUDA_ARCHITECTURES ${_cc} CACHE STRING "CUDA architectures" FORCE)
elseif(NOT CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures" FORCE)
endif()
# The Kokkos_ARCH_ name of the first architecture, for KOKKOS_ARCH_<NAME> in the configuration
# header and Kokkos_ARCH in the package.
list(GET CMAKE_CUDA_ARCHITECTURES 0 _first_arch)
string(REGEX MATCH "^[0-9]+" _first_cc "${_first_arch}")
set(KDAG_CUDA_ARCH_NAME "")
foreach(_arch ${KDAG_CUDA_ARCH_OPTIONS})
  if(_arch MATCHES "[A-Z]+${_first_cc}$")
    set(KDAG_CUDA_ARCH_NAME ${_arch})
  endif()
endforeach()
if(KDAG_CUDA_ARCH_NAME)
  set(KOKKOS_ARCH_${KDAG_CUDA_ARCH_NAME} 1)
  string(REGEX REPLACE "[0-9]+$" "" _family "${KDAG_CUDA_ARCH_NAME}")
  set(KOKKOS_ARCH_${_family} 1)
  list(APPEND KOKKOS_CONFIG_ARCH ${KDAG_CUDA_ARCH_NAME})
endif()
set(KOKKOS_CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")

find_program(KDAG_CCACHE ccache)
if(KDAG_CCACHE AND NOT CMAKE_CUDA_COMPILER_LAUNCHER)
  set(CMAKE_CUDA_COMPILER_LAUNCHER ${KDAG_CCACHE})
endif()
# One CUDA runtime per process: the static one, which CMake also links into every target with
# CUDA sources by default, so a consumer's CUDA executable and the library agree.
if(NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY)
  set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
endif()
enable_language(CUDA)
include(${CMAKE_CURRENT_LIST_DIR}/KdagCudaStandard.cmake)
set(CMAKE_CUDA_STANDARD 20)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
set(CMAKE_CUDA_EXTENSIONS OFF)
find_package(CUDAToolkit REQUIRED)
message(STATUS "kdag: CUDA back end with ${CMAKE_CUDA_COMPILER} (${CMAKE_CUDA_COMPILER_VERSION}), "
               "architectures ${CMAKE_CUDA_ARCHITECTURES}")

# CMake before 3.26 does not know nvcc's -std=c++20 (CUDA 12+ has it): teach it, so that
# CUDA_STANDARD 20 and the cuda_std_20 compile feature work.  Included after enable_language(CUDA)
# by kdag's build and by its installed package (installed next to KokkosConfig.cmake).
if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA" AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0
   AND NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  list(APPEND CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
  list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
endif()

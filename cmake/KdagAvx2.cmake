# kdag_build_with_avx2(<source>): compile one source file with -mavx2 -mfma when the compiler
# accepts them, leaving the rest of the build portable.  Used for the test and the benchmark of
# the AVX2 SIMD ABI; that code checks at run time that the CPU has AVX2 before running it.
include(CheckCXXCompilerFlag)
check_cxx_compiler_flag("-mavx2 -mfma" KDAG_CXX_ACCEPTS_AVX2)
function(kdag_build_with_avx2 source)
  if(KDAG_CXX_ACCEPTS_AVX2)
    # Through nvcc (a CUDA build) the flags go to the host compiler.
    set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS
      "$<$<COMPILE_LANGUAGE:CXX>:-mavx2;-mfma>;$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-mavx2,-mfma>")
  endif()
endfunction()

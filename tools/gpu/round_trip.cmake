# ctest's GpuPackRoundTrip: pack one test executable of this build with tools/gpu/pack.py, run the
# archive with tools/gpu/run.py, and check the summary counts it (passed on a host build; on a CUDA
# build without a GPU its typed device tests skip, and the executable still passes on the host
# spaces).  Arguments: PYTHON, SOURCE_DIR, BUILD_DIR, WORK_DIR.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(
  COMMAND ${PYTHON} ${SOURCE_DIR}/tools/gpu/pack.py --build-dir ${BUILD_DIR} --label unit --names TestPair
          --output ${WORK_DIR}/pack.tar.gz
  RESULT_VARIABLE pack_result)
if(NOT pack_result EQUAL 0)
  message(FATAL_ERROR "pack.py failed (${pack_result})")
endif()
# run.py unpacks into a temporary folder, here one of our own, which it must leave empty.
file(MAKE_DIRECTORY ${WORK_DIR}/tmp)
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env TMPDIR=${WORK_DIR}/tmp
          ${PYTHON} ${SOURCE_DIR}/tools/gpu/run.py ${WORK_DIR}/pack.tar.gz --out ${WORK_DIR}/out --budget-s 120
  RESULT_VARIABLE run_result)
if(NOT run_result EQUAL 0)
  message(FATAL_ERROR "run.py failed (${run_result})")
endif()
file(GLOB left_behind ${WORK_DIR}/tmp/*)
if(left_behind)
  message(FATAL_ERROR "run.py left its unpacked archive behind: ${left_behind}")
endif()
file(READ ${WORK_DIR}/out/summary.json summary)
string(JSON passed GET ${summary} tests executables passed)
string(JSON cases GET ${summary} tests cases passed)
string(JSON ok GET ${summary} ok)
if(NOT passed EQUAL 1 OR cases LESS 1 OR NOT ok)
  message(FATAL_ERROR "the summary does not count TestPair as one passing executable:\n${summary}")
endif()
foreach(file summary.txt tests.log benchmarks.log results.tar.gz)
  if(NOT EXISTS ${WORK_DIR}/out/${file})
    message(FATAL_ERROR "run.py wrote no ${file}")
  endif()
endforeach()

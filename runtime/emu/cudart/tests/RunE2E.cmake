# Runs an emulated CUDA program and checks what it did.
#   cmake -DAPP=<exe> -DLIBDIR=<dir with libcudart.so.13> -DOUTDIR=<truth dir>
#         [-DARGS=a@@b] [-DEXPECT_RC=0] [-DSTDOUT_RE=re1@@re2]
#         [-DSTDERR_RE=re1@@re2] [-DENV=VAR=value@@...] [-DTRUTH=1]
#         -P RunE2E.cmake
# (lists are separated by @@: ctest would split on semicolons)
if(NOT DEFINED EXPECT_RC)
  set(EXPECT_RC 0)
endif()
file(REMOVE_RECURSE ${OUTDIR})
foreach(v ARGS STDOUT_RE STDERR_RE ENV)
  string(REPLACE "@@" ";" ${v} "${${v}}")
endforeach()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${LIBDIR}
          WARPSCOPE_OUT=${OUTDIR} XDG_CACHE_HOME=${OUTDIR}/cache ${ENV}
          ${APP} ${ARGS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  TIMEOUT 120)
message("--- exit code: ${rc}\n--- stdout:\n${out}--- stderr:\n${err}---")
set(failed "")
if(NOT "${rc}" STREQUAL "${EXPECT_RC}")
  string(APPEND failed "exit code ${rc}, expected ${EXPECT_RC}\n")
endif()
foreach(re IN LISTS STDOUT_RE)
  if(NOT out MATCHES "${re}")
    string(APPEND failed "stdout does not match: ${re}\n")
  endif()
endforeach()
foreach(re IN LISTS STDERR_RE)
  if(NOT err MATCHES "${re}")
    string(APPEND failed "stderr does not match: ${re}\n")
  endif()
endforeach()
if(TRUTH)
  file(GLOB truth ${OUTDIR}/emu-*-0.json)
  list(LENGTH truth n)
  if(NOT n EQUAL 1)
    string(APPEND failed "expected one ${OUTDIR}/emu-<pid>-0.json, found ${n}\n")
  else()
    file(READ ${truth} json)
    if(NOT json MATCHES "warpscope-emu/1")
      string(APPEND failed "${truth} lacks schema warpscope-emu/1\n")
    endif()
  endif()
endif()
if(failed)
  message(FATAL_ERROR "${failed}")
endif()

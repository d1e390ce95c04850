# Fuzzers, one recipe (warpscope_fuzzer) in two builds, as LLVM's fuzzers
# are with and without LLVM_USE_SANITIZE_COVERAGE:
# - always (make test): the fuzzer's entry point, LLVMFuzzerTestOneInput,
#   linked with the normal libraries and a replay main
#   (test/fuzz/ReplayMain.cpp), and a ctest running every input of its
#   checked-in corpus once: a deterministic regression test, built like any
#   other test, whose sources the layer check and compile_commands.json see.
# - with -DWARPSCOPE_FUZZ=ON (make fuzz): coverage-guided fuzzing. That
#   needs the fuzzed code built by clang with coverage
#   (-fsanitize=fuzzer-no-link) and ASan, which the main build (any
#   compiler) does not give, so each fuzzed library gets a fuzz twin
#   (warpscope_fuzz_twin, in the library's own folder) and the target
#   `fuzz` runs each libFuzzer executable for WARPSCOPE_FUZZ_SECONDS.
option(WARPSCOPE_FUZZ
  "Build the libFuzzer fuzzers (clang, ASan and coverage twins of the fuzzed libraries) and the target fuzz"
  OFF)
set(WARPSCOPE_FUZZ_SECONDS 60 CACHE STRING
  "How long the target fuzz runs each fuzzer, in seconds")
set(WARPSCOPE_FUZZ_FLAGS -std=c++17 -g -O1 -fsanitize=fuzzer-no-link,address
  -Wno-deprecated-declarations
  ${LLVM_DEFINITIONS_LIST} -isystem ${LLVM_INCLUDE_DIRS}
  -I${WARPSCOPE_INCLUDE_DIR})
if(WARPSCOPE_FUZZ)
  add_custom_target(fuzz COMMENT "Fuzzed every fuzzer for ${WARPSCOPE_FUZZ_SECONDS} s")
endif()

# warpscope_fuzz_twin(LIBRARY [FLAGS flag...]): with WARPSCOPE_FUZZ, the
# target LIBRARY-fuzz building libLIBRARY-fuzz.a from LIBRARY's sources
# with the fuzz flags plus FLAGS; nothing otherwise. Called in LIBRARY's
# own folder, so that no folder compiles another folder's sources
# (docs/architecture.md).
function(warpscope_fuzz_twin library)
  if(NOT WARPSCOPE_FUZZ)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 A "" "" "FLAGS")
  get_target_property(home ${library} SOURCE_DIR)
  if(NOT home STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "warpscope_fuzz_twin(${library}) belongs in ${home}")
  endif()
  get_target_property(sources ${library} SOURCES)
  set(name ${library}-fuzz)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${name})
  set(objs)
  foreach(src ${sources})
    if(NOT IS_ABSOLUTE ${src})
      set(src ${CMAKE_CURRENT_SOURCE_DIR}/${src})
    endif()
    get_filename_component(base ${src} NAME_WE)
    set(obj ${dir}/${base}.o)
    add_custom_command(
      OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${WARPSCOPE_CLANG} ${WARPSCOPE_FUZZ_FLAGS} ${A_FLAGS}
              -I${CMAKE_CURRENT_SOURCE_DIR} -MD -MF ${obj}.d
              -c ${src} -o ${obj}
      DEPENDS ${src}
      DEPFILE ${obj}.d
      COMMENT "Building ${base} for fuzzing with ${WARPSCOPE_CLANG}"
      VERBATIM)
    list(APPEND objs ${obj})
  endforeach()
  set(lib ${CMAKE_CURRENT_BINARY_DIR}/lib${name}.a)
  add_custom_command(
    OUTPUT ${lib}
    COMMAND ${CMAKE_COMMAND} -E rm -f ${lib}
    COMMAND ${CMAKE_AR} qc ${lib} ${objs}
    DEPENDS ${objs}
    VERBATIM)
  add_custom_target(${name} DEPENDS ${lib})
  set_property(TARGET ${name} PROPERTY WARPSCOPE_ARCHIVE ${lib})
endfunction()

# warpscope_fuzzer(NAME MAIN source LIBRARIES library... CORPUS dir...
#                  [LIBS lib...] [FLAGS flag...] [ARGS arg...]): the one
# recipe for a fuzzer whose entry point is in MAIN (in the calling folder).
# Always: the executable NAME-replay (MAIN, the LIBRARIES and the replay
# main; built by warpscope-test-deps) and the ctest NAME (label fuzz)
# running every input under the CORPUS folders once. With WARPSCOPE_FUZZ:
# the libFuzzer executable NAME (MAIN, the LIBRARIES' fuzz twins, dependents
# first, LIBS, built with the fuzz flags plus FLAGS) and the target
# fuzz-NAME (part of fuzz) fuzzing the CORPUS with ARGS; new inputs go to
# fuzz/NAME-corpus and crashes to fuzz/NAME-crash-* in the build folder.
function(warpscope_fuzzer name)
  cmake_parse_arguments(PARSE_ARGV 1 A "" "MAIN"
    "LIBRARIES;CORPUS;LIBS;FLAGS;ARGS")
  set(corpus)
  foreach(dir ${A_CORPUS})
    if(NOT IS_ABSOLUTE ${dir})
      set(dir ${CMAKE_CURRENT_SOURCE_DIR}/${dir})
    endif()
    list(APPEND corpus ${dir})
  endforeach()
  add_executable(${name}-replay ${A_MAIN})
  target_link_libraries(${name}-replay PRIVATE ${A_LIBRARIES}
    warpscope-fuzz-replay)
  add_test(NAME ${name} COMMAND ${name}-replay ${corpus})
  set_tests_properties(${name} PROPERTIES LABELS fuzz TIMEOUT 60)
  if(NOT WARPSCOPE_FUZZ)
    return()
  endif()

  set(work ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
  set(exe ${work}/${name})
  set(archives)
  foreach(library ${A_LIBRARIES})
    get_target_property(archive ${library}-fuzz WARPSCOPE_ARCHIVE)
    list(APPEND archives ${archive})
  endforeach()
  list(TRANSFORM A_LIBRARIES APPEND -fuzz OUTPUT_VARIABLE twins)
  add_custom_command(
    OUTPUT ${exe}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${work}/${name}-corpus
    COMMAND ${WARPSCOPE_CLANG} ${WARPSCOPE_FUZZ_FLAGS} ${A_FLAGS} -fsanitize=fuzzer
            -I${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/${A_MAIN}
            ${archives} ${A_LIBS} -lpthread -o ${exe}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${A_MAIN} ${archives} ${twins}
    COMMENT "Linking the fuzzer ${name} with ${WARPSCOPE_CLANG}"
    VERBATIM)
  add_custom_target(fuzz-${name}
    COMMAND ${exe} -max_total_time=${WARPSCOPE_FUZZ_SECONDS} ${A_ARGS}
            -artifact_prefix=${work}/${name}-crash- ${work}/${name}-corpus
            ${corpus}
    DEPENDS ${exe}
    COMMENT "Fuzzing ${name} for ${WARPSCOPE_FUZZ_SECONDS} s"
    USES_TERMINAL
    VERBATIM)
  add_dependencies(fuzz fuzz-${name})
endfunction()

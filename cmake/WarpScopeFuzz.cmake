# Fuzzers need the code they fuzz built by clang with coverage
# (-fsanitize=fuzzer-no-link) and ASan, which the main build (any compiler)
# does not give. Each component builds such an archive of its own sources
# with warpscope_fuzz_archive; a fuzzer links the archives, so no folder
# compiles another folder's sources (docs/architecture.md).
set(WARPSCOPE_FUZZ_FLAGS -std=c++17 -g -O1 -fsanitize=fuzzer-no-link,address
  -Wno-deprecated-declarations
  ${LLVM_DEFINITIONS_LIST} -isystem ${LLVM_INCLUDE_DIRS}
  -I${WARPSCOPE_INCLUDE_DIR})

# warpscope_fuzz_archive(NAME SOURCE... [FLAGS flag...]): a target NAME
# building lib<NAME>.a from SOURCEs (relative to the calling folder, or
# absolute for a file the folder generates) with the fuzz flags plus FLAGS;
# the archive's path is the target's WARPSCOPE_ARCHIVE property.
function(warpscope_fuzz_archive name)
  cmake_parse_arguments(PARSE_ARGV 1 A "" "" "FLAGS")
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${name})
  set(objs)
  foreach(src ${A_UNPARSED_ARGUMENTS})
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

# warpscope_fuzzer(NAME MAIN source ARCHIVES target... [LIBS lib...]
#                  [FLAGS flag...] [RUN arg...] [TIMEOUT s]): the libFuzzer
# executable NAME from MAIN (in the calling folder) and the fuzz archives of
# the ARCHIVES targets (dependents first), built by warpscope-test-deps, and
# a ctest NAME running it with RUN's arguments. The only recipe for a fuzzer:
# no fuzzer compiles another folder's sources.
function(warpscope_fuzzer name)
  cmake_parse_arguments(PARSE_ARGV 1 A "" "MAIN;TIMEOUT" "ARCHIVES;LIBS;FLAGS;RUN")
  set(exe ${CMAKE_CURRENT_BINARY_DIR}/fuzz/${name})
  set(archives)
  foreach(t ${A_ARCHIVES})
    get_target_property(archive ${t} WARPSCOPE_ARCHIVE)
    list(APPEND archives ${archive})
  endforeach()
  add_custom_command(
    OUTPUT ${exe}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/fuzz
    COMMAND ${WARPSCOPE_CLANG} ${WARPSCOPE_FUZZ_FLAGS} ${A_FLAGS} -fsanitize=fuzzer
            -I${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/${A_MAIN}
            ${archives} ${A_LIBS} -lpthread -o ${exe}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${A_MAIN} ${archives} ${A_ARCHIVES}
    COMMENT "Linking the fuzzer ${name} with ${WARPSCOPE_CLANG}"
    VERBATIM)
  add_custom_target(${name} DEPENDS ${exe})
  add_dependencies(warpscope-test-deps ${name})
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 120)
  endif()
  add_test(NAME ${name} COMMAND ${exe} ${A_RUN})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${A_TIMEOUT})
endfunction()

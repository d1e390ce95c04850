# Fuzzers need the code they fuzz built by clang with coverage
# (-fsanitize=fuzzer-no-link) and ASan, which the main build (any compiler)
# does not give. Each component builds such an archive of its own sources
# with warpscope_fuzz_archive; a fuzzer links the archives, so no folder
# compiles another folder's sources (docs/architecture.md).
set(WARPSCOPE_FUZZ_FLAGS -std=c++17 -g -O1 -fsanitize=fuzzer-no-link,address
  -Wno-deprecated-declarations
  ${LLVM_DEFINITIONS_LIST} -isystem ${LLVM_INCLUDE_DIRS}
  -I${WARPSCOPE_INCLUDE_DIR})

# warpscope_fuzz_archive(NAME SOURCE...): a target NAME building
# lib<NAME>.a from SOURCEs (relative to the calling folder); the archive's
# path is the target's WARPSCOPE_ARCHIVE property.
function(warpscope_fuzz_archive name)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${name})
  set(objs)
  foreach(src ${ARGN})
    get_filename_component(base ${src} NAME_WE)
    set(obj ${dir}/${base}.o)
    add_custom_command(
      OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${WARPSCOPE_CLANG} ${WARPSCOPE_FUZZ_FLAGS}
              -I${CMAKE_CURRENT_SOURCE_DIR} -MD -MF ${obj}.d
              -c ${CMAKE_CURRENT_SOURCE_DIR}/${src} -o ${obj}
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${src}
      DEPFILE ${obj}.d
      COMMENT "Building ${src} for fuzzing with ${WARPSCOPE_CLANG}"
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

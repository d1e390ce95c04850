# Unity (jumbo) builds: CMake compiles a target's C++ files a batch at a
# time, each batch one translation unit (build/<folder>/CMakeFiles/<target>.dir/
# Unity/unity_<n>_cxx.cxx), so the headers they share (LLVM's, GoogleTest's,
# nlohmann/json's) are parsed and their templates instantiated once per batch
# instead of once per file. On the 2-core development machine this halves
# the CPU time of building the passes, the driver and the unit tests.
#
# Used for the targets whose compile time is header-dominated and whose
# machine code is no hot path: the passes layer (passes/, passes/ptx/), the
# driver (driver/, driver/advise/) and the GoogleTest executables (test/,
# runtime/**/tests; the top-level CMakeLists.txt finds them). Never for the
# runtime libraries loaded into users' processes nor the emulator
# (runtime/): batching changes what the compiler inlines, so their machine
# code would change unmeasured (benchmarks/, build/bin/emu-core-bench).
#
# A batch is one translation unit, so the files of one target share what
# their files define at namespace scope with internal linkage (static,
# anonymous namespaces) and their macros: names there are unique in the
# target, a macro a file defines for itself (DEBUG_TYPE) is #undef'd at its
# end, and a file never relies on another's `using namespace`.
# WARPSCOPE_UNITY_BUILD=OFF builds every file on its own, as before (what
# an editor's compile_commands.json and a one-file rebuild prefer).
option(WARPSCOPE_UNITY_BUILD
  "Compile the passes, the driver and the unit tests as unity (jumbo) batches"
  ON)
# Files per batch. The 103 files of the passes and the driver take 262 CPU-s
# compiled one by one; in batches of 4, 167; of 8 (CMake's default), 140;
# a target in one batch (0), 114, but then the driver's three batches are
# 20-35 s steps that a 2-core build ends up waiting for, and editing one
# file recompiles all of its target's. Measured 2026-11-29 (GCC 12, 2 cores).
set(WARPSCOPE_UNITY_BATCH_SIZE 8 CACHE STRING
  "C++ files per unity batch (WARPSCOPE_UNITY_BUILD)")

# warpscope_unity_build(TARGET...): builds each TARGET's C++ files in unity
# batches when WARPSCOPE_UNITY_BUILD is ON; nothing otherwise, nor for a
# target of fewer than two C++ files (nothing to share).
function(warpscope_unity_build)
  if(NOT WARPSCOPE_UNITY_BUILD)
    return()
  endif()
  foreach(target ${ARGN})
    get_target_property(sources ${target} SOURCES)
    list(FILTER sources INCLUDE REGEX "\\.(cpp|cc|cxx)$")
    list(LENGTH sources count)
    if(count GREATER 1)
      set_target_properties(${target} PROPERTIES
        UNITY_BUILD ON
        UNITY_BUILD_BATCH_SIZE ${WARPSCOPE_UNITY_BATCH_SIZE})
    endif()
  endforeach()
endfunction()

# Writes the built-in configurations as C++ string literals:
# {"<name>", R"json(<text>)json"}, one per NAMES entry (comma-separated) (Config.cpp).
string(REPLACE "," ";" NAMES "${NAMES}")
set(out "// Generated from runtime/emu/timing/configs/*.json; do not edit.\n")
foreach(n ${NAMES})
  file(READ ${DIR}/${n}.json text)
  string(APPEND out "{\"${n}\", R\"json(${text})json\"},\n")
endforeach()
file(WRITE ${OUT} "${out}")

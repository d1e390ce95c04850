#!/usr/bin/env bash
# Builds examples/divergence.cu with the plugin, runs it under warpscope (on
# the emulator when no GPU is present) and prints its report.
set -euo pipefail
cd "$(dirname "$0")/.."
WS=build/bin/warpscope
CLANG=$(sed -n 's/^WARPSCOPE_CLANG:FILEPATH=//p' build/CMakeCache.txt)
OUT=build/demo
mkdir -p "$OUT"
echo "== compiling examples/divergence.cu with the WarpScope plugin" >&2
"$CLANG" -x cuda --cuda-gpu-arch=sm_90 -O2 $($WS config --cflags) \
  examples/divergence.cu $($WS config --ldflags) -o "$OUT/divergence"
echo "== running it under warpscope run" >&2
# --force: `make demo` again replaces the last demo's profile.
"$WS" run --force -o "$OUT/profile" -- "$OUT/divergence"
echo "== report (also: $WS report $OUT/profile --format html -o report.html)" >&2
"$WS" report "$OUT/profile"
echo "== also: $WS predict $OUT/profile (each kernel's time predicted on an H100, labelled)" >&2

#!/usr/bin/env bash
# Regenerates test/conformance/instr/clang-forms.txt (issue 16): the PTX forms
# clang 22 emits for every CUDA program of the repository (benchmarks, tests,
# examples; libdevice and the CUDA headers' intrinsics come with them) at
# -O0..-O3, plus the checked-in emulator test PTX. The conformance suites
# (test/conformance/*) are left out, but for the instr suite's corpus/ of
# math and intrinsic calls: their inline-asm forms are the ones they test
# (some on purpose unsupported, like tex.cube), not what clang emits.
#   scripts/clang-forms.sh [OUTDIR]     (OUTDIR keeps the PTX; default a tmpdir)
# Prints how many files did not compile (they need flags of their own) and
# the number of forms. See docs/emulator.md, "Conformance".
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
clang=${CLANG:-clang++-22}
cuda=${CUDA_HOME:-/usr/local/cuda}
out=${1:-$(mktemp -d)}
mkdir -p "$out"
cd "$root"
mapfile -t srcs < <(git ls-files '*.cu' | grep -v '^test/conformance/'
  git ls-files 'test/conformance/instr/corpus/*.cu')
fails=0
for f in "${srcs[@]}"; do
  base=$(echo "$f" | tr '/' '_')
  for O in O0 O1 O2 O3; do
    # Reuse the PTX of an earlier run into the same OUTDIR.
    [ "$out/${base%.cu}_$O.ptx" -nt "$f" ] && continue
    if ! "$clang" -x cuda --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
      --cuda-path="$cuda" --cuda-device-only -S -$O -I include \
      -I benchmarks/src -I "$(dirname "$f")" "$f" -o "$out/${base%.cu}_$O.ptx" \
      2>/dev/null; then
      echo "clang-forms: $f -$O did not compile; skipped" >&2
      fails=$((fails + 1))
    fi
  done
done
python3 scripts/ptx-forms.py runtime/emu/core/tests/ptx/*.ptx "$out"/*.ptx \
  >test/conformance/instr/clang-forms.txt
echo "clang-forms: $(wc -l <test/conformance/instr/clang-forms.txt) forms" \
  "from ${#srcs[@]} sources ($fails compilations skipped); PTX in $out"

#!/usr/bin/env bash
# Builds an instrumented variant of every benchmark with extra plugin
# options, beside the default builds, for measurements on a GPU:
#
#   benchmarks/gpu/build_variant.sh SUFFIX [-warpscope-OPTION=V ...]
#
# writes build/benchmarks/<name>.SUFFIX for each program of list.txt, with
# the flags of benchmarks/CMakeLists.txt, from build/benchmarks (so the
# module ids equal the default builds'), each option passed to the plugin
# on both sides. The variant's databases go to a directory of their own, so
# the default builds' are left alone. Example:
#
#   benchmarks/gpu/build_variant.sh k1 -warpscope-counter-replicas=1
set -eu
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
suffix="${1:?usage: build_variant.sh SUFFIX [-warpscope-OPTION=V ...]}"
shift
build="$repo/build"
clang="${WARPSCOPE_CLANG:-/usr/lib/llvm-22/bin/clang++}"
cuda="${CUDA_HOME:-/usr/local/cuda}"
dbdir="$(mktemp -d "${TMPDIR:-/tmp}/warpscope-variant.XXXXXX")"
trap 'rm -rf "$dbdir"' EXIT
opts=(-mllvm "-warpscope-db-dir=$dbdir")
for o in "$@"; do opts+=(-mllvm "$o"); done
jobs="${JOBS:-$(nproc)}"

cd "$build/benchmarks"
while IFS= read -r name; do
  name="$(echo "${name%%#*}" | tr -d '[:space:]')"
  [ -n "$name" ] || continue
  "$clang" -x cuda --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version -O2 \
    --cuda-include-ptx=sm_90 -gline-tables-only -I"$repo/include" \
    -fpass-plugin="$build/lib/libWarpScope.so" "${opts[@]}" \
    "$repo/benchmarks/src/$name.cu" -L"$cuda/lib64" -lcudart \
    -Wl,-rpath,"$cuda/lib64" -L"$build/lib" -lwarpscope-rt \
    -Wl,-rpath,"$build/lib" -o "$build/benchmarks/$name.$suffix" &
  while (($(jobs -r | wc -l) >= jobs)); do wait -n; done
done <"$repo/benchmarks/list.txt"
wait
status=0
while IFS= read -r name; do
  name="$(echo "${name%%#*}" | tr -d '[:space:]')"
  [ -z "$name" ] || [ "$build/benchmarks/$name.$suffix" -nt "$repo/benchmarks/src/$name.cu" ] || {
    echo "build_variant.sh: $name.$suffix was not built" >&2
    status=1
  }
done <"$repo/benchmarks/list.txt"
((status)) || echo "build_variant.sh: built build/benchmarks/*.$suffix" >&2
exit $status

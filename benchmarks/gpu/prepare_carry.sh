#!/usr/bin/env bash
# Makes build/gpu-carry: what a GPU session needs from this machine's build,
# without debug info, in the build tree's own layout (bin/, lib/, lib/emu/,
# benchmarks/, conformance/), so that `warpscope` finds its libraries beside
# it as usual. The device tool carries at most 64 MiB; the debug build's
# `warpscope` alone is larger, the stripped tree about 20 MiB. Carry just
# `build/gpu-carry`; session.sh uses it when it is there.
#
#   benchmarks/gpu/prepare_carry.sh [BUILD_DIR]
set -eu
build="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build}"
c="$build/gpu-carry"
rm -rf "$c"
mkdir -p "$c/bin" "$c/lib/emu" "$c/benchmarks" "$c/conformance"
# copy SRC DST: an executable or shared library without its debug sections.
copy() { strip --strip-debug -o "$2" "$1" && chmod +x "$2"; }
copy "$build/bin/warpscope" "$c/bin/warpscope"
for l in libwarpscope-rt.so libwarpscope-collect.so; do
  copy "$build/lib/$l" "$c/lib/$l"
done
# The emulator, for its scaling on the GPU machine's cores (issue 24).
copy "$build/lib/emu/libcudart.so.13" "$c/lib/emu/libcudart.so.13"
ln -s libcudart.so.13 "$c/lib/emu/libcudart.so"
for f in "$build"/benchmarks/*; do
  [ -f "$f" ] && [ -x "$f" ] && copy "$f" "$c/benchmarks/$(basename "$f")"
done
for f in "$build"/conformance/*; do
  [ -f "$f" ] && [ -x "$f" ] && copy "$f" "$c/conformance/$(basename "$f")"
done
# The advisor pairs (issue 39 item 3): before and after without the plugin,
# before with it, built as benchmarks/advisor/evaluate.py builds them.
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ws="$build/bin/warpscope"
mkdir -p "$c/advisor"
cuda=(clang++-22 -x cuda --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version -O2 -gline-tables-only)
read -r -a plain_flags <<<"$("$ws" config --cflags --no-instrument)"
read -r -a inst_flags <<<"$("$ws" config --cflags)"
read -r -a ld_flags <<<"$("$ws" config --ldflags)"
for d in "$src"/benchmarks/advisor/pairs/*/; do
  n="$(basename "$d")"
  "${cuda[@]}" "${plain_flags[@]}" "$d/before.cu" "${ld_flags[@]}" -o "$c/advisor/$n.before" &
  "${cuda[@]}" "${plain_flags[@]}" "$d/after.cu" "${ld_flags[@]}" -o "$c/advisor/$n.after" &
  "${cuda[@]}" "${inst_flags[@]}" "$d/before.cu" "${ld_flags[@]}" -o "$c/advisor/$n.before.inst"
  wait
done
# The timing model's microbenchmarks (session.sh's micro phase).
mkdir -p "$c/micro"
"${cuda[@]}" "$src/benchmarks/micro/timing_micro.cu" -L/usr/local/cuda/lib64 -lcudart \
  -o "$c/micro/timing_micro"
# CUPTI, used when the GPU machine has none of its own.
cp /usr/local/cuda/lib64/libcupti.so.13 "$c/lib/" 2>/dev/null ||
  echo "prepare_carry.sh: no libcupti.so.13 to carry; the collector needs the GPU machine's" >&2
size=$(du -sm "$c" | cut -f1)
echo "build/gpu-carry: ${size} MiB"
if ((size > 60)); then
  echo "prepare_carry.sh: ${size} MiB is over the device tool's 64 MiB carry; leave out variants" >&2
  exit 1
fi

#!/usr/bin/env bash
# Runs every benchmark of benchmarks/list.txt and reports one line per
# program (name, status, time_ms), then "N passed, M failed[, K skipped]".
#
#   benchmarks/run.sh [--emulate] [--size small|large] [--instrumented]
#                     [--build DIR] [--timeout SECONDS]
#
#   --emulate       run on the CPU PTX emulator: LD_LIBRARY_PATH=DIR/lib/emu
#                   (exit 77 if DIR/lib/emu/libcudart.so.13 is missing)
#   --size          small (default) or large, or an integer N
#   --instrumented  run <name>.inst instead of <name> (missing ones: skipped)
#   --build DIR     build directory (default: <repo>/build)
#   --timeout S     per-program limit (default 300 small, 900 large)
#
# Exit status: 0 all passed, 1 some failed, 77 nothing could run (no GPU and
# no --emulate, or emulator not built), 2 usage error.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
build="$repo/build"
emulate=0
size=small
inst=0
limit=""

usage() {
  sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

while (($#)); do
  case "$1" in
    --emulate) emulate=1 ;;
    --instrumented) inst=1 ;;
    --size) shift; size="${1:-}" ;;
    --size=*) size="${1#--size=}" ;;
    --build) shift; build="${1:-}" ;;
    --build=*) build="${1#--build=}" ;;
    --timeout) shift; limit="${1:-}" ;;
    --timeout=*) limit="${1#--timeout=}" ;;
    -h|--help) usage ;;
    *) echo "run.sh: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done

case "$size" in
  small|large) ;;
  *) [[ "$size" =~ ^[0-9]+$ ]] || { echo "run.sh: bad --size '$size'" >&2; exit 2; } ;;
esac
[ -n "$build" ] || usage
build="$(cd "$build" 2>/dev/null && pwd)" || {
  echo "run.sh: build directory not found" >&2
  exit 2
}
if [ -z "$limit" ]; then
  if [ "$size" = large ]; then limit=900; else limit=300; fi
fi

if ((emulate)); then
  if [ ! -e "$build/lib/emu/libcudart.so.13" ]; then
    echo "run.sh: emulator not built"
    exit 77
  fi
  export LD_LIBRARY_PATH="$build/lib/emu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
  if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "run.sh: no GPU (nvidia-smi -L failed); use --emulate to run on the CPU emulator"
    exit 77
  fi
fi

bindir="$build/benchmarks"
logdir="$(mktemp -d "${TMPDIR:-/tmp}/warpscope-bench.XXXXXX")"
trap 'rm -rf "$logdir"' EXIT

passed=0 failed=0 skipped=0
own_out=0
[ -n "${WARPSCOPE_OUT:-}" ] || own_out=1
mode=plain; ((inst)) && mode=instrumented
((emulate)) && mode="$mode, emulated"
echo "# benchmarks: size $size, $mode, $bindir"

while IFS= read -r name || [ -n "$name" ]; do
  name="${name%%#*}"
  name="$(echo "$name" | tr -d '[:space:]')"
  [ -n "$name" ] || continue
  exe="$bindir/$name"
  ((inst)) && exe="$exe.inst"
  if [ ! -x "$exe" ]; then
    if ((inst)); then
      printf '%-14s %-7s %10s  %s\n' "$name" SKIP - "not built: $exe"
      skipped=$((skipped + 1))
    else
      printf '%-14s %-7s %10s  %s\n' "$name" FAIL - "not built: $exe"
      failed=$((failed + 1))
    fi
    continue
  fi
  log="$logdir/$name.log"
  # Profiles / emulator ground truth go to a scratch directory unless the
  # caller chose WARPSCOPE_OUT.
  if ((own_out)); then
    export WARPSCOPE_OUT="$logdir/out/$name"
    mkdir -p "$WARPSCOPE_OUT"
  fi
  timeout "$limit" "$exe" "$size" >"$log" 2>&1 </dev/null
  rc=$?
  ms="$(awk '$1 == "time_ms" { v = $2 } END { print (v == "" ? "-" : v) }' "$log")"
  last="$(grep -E '^(PASS|FAIL)( |$)' "$log" | tail -n 1)"
  if ((rc == 0)) && [ "$last" = "PASS $name" ]; then
    printf '%-14s %-7s %10s\n' "$name" PASS "$ms"
    passed=$((passed + 1))
  else
    if ((rc == 124)); then
      why="timed out after ${limit}s"
    elif [ -n "$last" ]; then
      why="$last (exit $rc)"
    else
      why="exit $rc, no PASS/FAIL line: $(tail -n 1 "$log" | cut -c1-160)"
    fi
    printf '%-14s %-7s %10s  %s\n' "$name" FAIL "$ms" "$why"
    failed=$((failed + 1))
  fi
done <"$here/list.txt"

summary="$passed passed, $failed failed"
((skipped)) && summary="$summary, $skipped skipped"
echo "$summary"
((failed == 0)) || exit 1
exit 0

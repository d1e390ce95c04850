#!/usr/bin/env bash
# Emulator throughput per benchmark and thread count: runs each plain
# benchmark of benchmarks/list.txt on the emulator with
# WARPSCOPE_EMU_THREADS=N for every N given, and prints thread-instructions
# (sum of the ground truth's thread_executions), wall seconds of the whole
# program and M thread-instructions per second; with two or more thread
# counts, also the speedup of the last over the first. Each program runs
# REPS times (default 1) and the fastest run counts. The last column says
# whether every run left the same ground truth: "varies" is expected only
# where the order of atomics between CTAs steers control flow (bfs: the
# frontier order), as it would on a GPU. Exit 1 when a run fails.
# With --kernel the seconds are the program's own timed kernel section (its
# `time_ms` line: CUDA events, host wall time on the emulator) instead of
# the whole process, so start-up, inputs and the CPU reference drop out;
# every benchmark launches all its kernels inside that section.
#
#   benchmarks/emu_threads.sh [--build DIR] [--size small|large|N]
#                             [--reps R] [--kernel] [THREADS...]  (default: 1 2)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(dirname "$here")/build"
size=small
reps=1
kernel=0
threads=()
while (($#)); do
  case "$1" in
    --build) shift; build="$1" ;;
    --size) shift; size="$1" ;;
    --reps) shift; reps="$1" ;;
    --kernel) kernel=1 ;;
    -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) threads+=("$1") ;;
  esac
  shift
done
((${#threads[@]})) || threads=(1 2)
[ -e "$build/lib/emu/libcudart.so.13" ] || { echo "emu_threads.sh: emulator not built in $build" >&2; exit 77; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# Sum of thread_executions and a digest of all counters in the truth files of DIR.
truth() {
  python3 - "$1" <<'EOF'
import glob, hashlib, json, sys
total, h = 0, hashlib.sha256()
for f in sorted(glob.glob(sys.argv[1] + "/emu-*.json")):
    doc = json.load(open(f))
    for fn in doc.get("functions", []):
        for i in fn.get("instructions", []):
            total += i.get("thread_executions", 0)
            h.update(json.dumps(i, sort_keys=True).encode())
print(total, h.hexdigest()[:16])
EOF
}

printf '%-14s %14s' program thread-instr
unit=s; ((kernel)) && unit=ks
for t in "${threads[@]}"; do printf ' %9s %10s' "$unit(T=$t)" "Mti/s(T=$t)"; done
((${#threads[@]} > 1)) && printf ' %8s' speedup
printf ' %7s\n' truth
status=0
while read -r name; do
  [[ "$name" =~ ^[A-Za-z0-9_]+$ ]] || continue
  exe="$build/benchmarks/$name"
  [ -x "$exe" ] || { printf '%-14s not built\n' "$name"; continue; }
  line="" first="" last="" digest0="" ti=0 same=same
  for t in "${threads[@]}"; do
    best=""
    for ((r = 0; r < reps; ++r)); do
      d="$out/$name-$t-$r"
      t0=$(date +%s.%N)
      if ! WARPSCOPE_OUT="$d" WARPSCOPE_EMU_THREADS="$t" \
           LD_LIBRARY_PATH="$build/lib/emu" "$exe" "$size" > "$d.log" 2>&1; then
        printf '%-14s FAIL (T=%s)\n' "$name" "$t"; tail -3 "$d.log"; status=1; continue 3
      fi
      t1=$(date +%s.%N)
      s=$(echo "$t1 - $t0" | bc -l)
      if ((kernel)); then
        ms=$(awk '$1 == "time_ms" { print $2 }' "$d.log" | tail -1)
        [ -n "$ms" ] || { printf '%-14s no time_ms line (T=%s)\n' "$name" "$t"; status=1; continue 3; }
        s=$(echo "$ms / 1000" | bc -l)
      fi
      if [ -z "$best" ] || (($(echo "$s < $best" | bc -l))); then best=$s; fi
      read -r ti digest < <(truth "$d")
      if [ -z "$digest0" ]; then digest0=$digest
      elif [ "$digest" != "$digest0" ]; then same=varies
      fi
    done
    rate=$(echo "$ti / $best / 1000000" | bc -l)
    line+=$(printf ' %9.3f %10.1f' "$best" "$rate")
    [ -z "$first" ] && first=$best
    last=$best
  done
  printf '%-14s %14s%s' "$name" "$ti" "$line"
  ((${#threads[@]} > 1)) && printf ' %8.2f' "$(echo "$first / $last" | bc -l)"
  printf ' %7s\n' "$same"
done < "$here/list.txt"
exit $status

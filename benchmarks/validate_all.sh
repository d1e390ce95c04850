#!/usr/bin/env bash
# Runs every instrumented benchmark (small size) on the emulator under
# `warpscope run` and checks with `warpscope validate` that every block and
# branch count equals the emulator's ground truth, and that the plain and the
# instrumented build print the same output (timings aside). Each line also
# says how many of the checked blocks and branches were counted in registers
# (loop counter promotion); with none in the whole suite the check fails,
# unless WARPSCOPE_EXPECT_PROMOTED=0 (builds with promotion off). A program
# whose instruction histograms give only lower bounds ("partial") fails
# unless WARPSCOPE_ALLOW_PARTIAL=1. Ends with
# the line "N passed, M failed"; exit 77 when the emulator or the .inst builds
# are missing.
# With WARPSCOPE_EMU_THREADS other than 1, each program is run again on one
# emulator thread, and its probe counters, ground truth and modeled cycles
# must equal the parallel run's (tools/same_counts.py), except for the
# programs of racy-counts.txt, whose CTAs race by design (as on a GPU): for
# those the difference is printed, not failed.
#   benchmarks/validate_all.sh [--build DIR]
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(dirname "$here")/build"
[ "${1:-}" = "--build" ] && build="$2"
ws="$build/bin/warpscope"
[ -e "$build/lib/emu/libcudart.so.13" ] || { echo "validate_all.sh: emulator not built"; exit 77; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
pass=0 fail=0 promoted=0
threads="${WARPSCOPE_EMU_THREADS:-0}"
racy() { grep -q "^$1:" "$here/racy-counts.txt"; }
# same_counts NAME: the parallel run's counts against a one-thread run's.
same_counts() {
  WARPSCOPE_QUIET=1 WARPSCOPE_EMU_THREADS=1 "$ws" run --emulate -o "$out/$1-1t" \
    -- "$build/benchmarks/$1.inst" small > "$out/$1-1t.log" 2>&1 &&
    python3 "$here/tools/same_counts.py" "$out/$1-1t" "$out/$1" > "$out/$1.same" 2>&1
}
while read -r name; do
  [[ "$name" =~ ^[A-Za-z0-9_]+$ ]] || continue
  exe="$build/benchmarks/$name.inst"
  [ -x "$exe" ] || { echo "validate_all.sh: $exe not built"; exit 77; }
  if WARPSCOPE_QUIET=1 "$ws" run --emulate -o "$out/$name" -- "$exe" small > "$out/$name.log" 2>&1 &&
     grep -q "^PASS" "$out/$name.log" &&
     WARPSCOPE_OUT="$out/plain-$name" LD_LIBRARY_PATH="$build/lib/emu" \
       "$build/benchmarks/$name" small > "$out/$name.plain" 2>&1 &&
     diff <(grep -v '^time_ms' "$out/$name.plain") \
          <(grep -v -e '^time_ms' -e '^warpscope:' "$out/$name.log") > "$out/$name.diff" &&
     "$ws" validate "$out/$name" > "$out/$name.validate" 2>&1; then
    n=$(cat "$out/$name"/db-*.json | grep -o '"promoted": *true' | wc -l)
    promoted=$((promoted + n))
    if grep -q '^partial' "$out/$name.validate" && [ "${WARPSCOPE_ALLOW_PARTIAL:-0}" = 0 ]; then
      # Instruction histograms are exact on the whole suite: a lower bound
      # is a regression (WARPSCOPE_ALLOW_PARTIAL=1 accepts them).
      printf '%-14s FAIL %s\n' "$name" "$(tail -1 "$out/$name.validate")"
      grep '^partial' "$out/$name.validate" | sed 's/^/    /'
      fail=$((fail + 1))
      continue
    fi
    same=""
    if [ "$threads" != 1 ]; then
      if same_counts "$name"; then
        same=", same counts on 1 thread"
        racy "$name" && same="$same (listed as racy)"
      elif racy "$name"; then
        same=", counts differ on 1 thread: racy by design ($(grep "^$name:" "$here/racy-counts.txt" | cut -d: -f2- | cut -c2-60)...)"
      else
        printf '%-14s FAIL counts differ between %s threads and 1 thread\n' "$name" "$threads"
        sed 's/^/    /' "$out/$name.same" "$out/$name-1t.log" | head -8
        fail=$((fail + 1))
        continue
      fi
    fi
    printf '%-14s ok   %s (%d promoted records%s)\n' "$name" "$(tail -1 "$out/$name.validate")" "$n" "$same"
    pass=$((pass + 1))
  else
    printf '%-14s FAIL\n' "$name"
    tail -5 "$out/$name.log" "$out/$name.diff" "$out/$name.validate" 2>/dev/null | sed 's/^/    /'
    fail=$((fail + 1))
  fi
done < "$here/list.txt"
if [ "$promoted" = 0 ] && [ "${WARPSCOPE_EXPECT_PROMOTED:-1}" != 0 ]; then
  echo "validate_all.sh: no block or branch was counted in registers: loop counter promotion went unchecked"
  fail=$((fail + 1))
fi
echo "$pass passed, $fail failed ($promoted promoted records checked)"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# Tests benchmarks/gpu/validate.sh and summarize.py without a GPU: fake
# nvidia-smi, ncu and benchmark executables on PATH / in a fake build tree.
#   benchmarks/gpu/testdata/test_scripts.sh      (exit 0 = pass)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
gpu="$(dirname "$here")"
fail() { echo "test_scripts: FAIL: $*"; exit 1; }

bash -n "$gpu/validate.sh" || fail "validate.sh does not parse"
for f in session.sh phases15.sh prepare_carry.sh; do
  bash -n "$gpu/$f" || fail "$f does not parse"
done
python3 "$gpu/summarize.py" "$here/sample-results.csv" >"${TMPDIR:-/tmp}/ws-summary.$$" ||
  fail "summarize.py failed on the sample"
diff -u "$here/sample-results.md" "${TMPDIR:-/tmp}/ws-summary.$$" || fail "summary differs from sample-results.md"
rm -f "${TMPDIR:-/tmp}/ws-summary.$$"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/ws-validate-test.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/build/benchmarks"
cat >"$tmp/bin/nvidia-smi" <<'SH'
#!/bin/sh
echo "NVIDIA Fake GPU, 999.99"
SH
# Fake ncu: the newer option set fails (to exercise the fallback), the
# minimal one prints a canned CSV mixed with the program's output.
cat >"$tmp/bin/ncu" <<SH
#!/bin/sh
for a in "\$@"; do
  [ "\$a" = --print-kernel-base ] && { echo "==ERROR== unrecognised option" >&2; exit 1; }
done
cat "$here/fake_ncu.csv"
SH
# reduction: both variants pass; bfs: the instrumented one fails.
for v in reduction reduction.inst bfs; do
  n="${v%.inst}"
  cat >"$tmp/build/benchmarks/$v" <<SH
#!/bin/sh
[ "\$1" = large ] || [ "\$1" = small ] || { echo "FAIL $n: size"; exit 1; }
echo "time_ms \$(( (\$\$ % 7) + 10 )).5"
echo "PASS $n"
SH
done
cat >"$tmp/build/benchmarks/bfs.inst" <<'SH'
#!/bin/sh
echo "time_ms 1.0"
echo "FAIL bfs: dist[3] = 2, expected 1"
exit 1
SH
chmod +x "$tmp/bin/"* "$tmp/build/benchmarks/"*

PATH="$tmp/bin:$PATH" bash "$gpu/validate.sh" --build "$tmp/build" --runs 3 \
  --only reduction,bfs "$tmp/out.csv" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] || { cat "$tmp/err"; fail "validate.sh exit $rc, expected 1 (bfs.inst fails)"; }
grep -q '^# gpu: NVIDIA Fake GPU, 999.99; date: ' "$tmp/out.csv" || fail "no gpu header"
grep -q '^program,kernel,plain_ms,inst_ms,overhead,branch_eff_ncu$' "$tmp/out.csv" || fail "no column header"
grep -Eq '^reduction,\*,1[0-6]\.500,1[0-6]\.500,[0-9.]+,$' "$tmp/out.csv" || { cat "$tmp/out.csv"; fail "reduction times"; }
grep -Eq '^bfs,\*,1[0-6]\.500,FAIL,,$' "$tmp/out.csv" || { cat "$tmp/out.csv"; fail "bfs row"; }
grep -q '^reduction,reduce_sum_f32,,,,90.00$' "$tmp/out.csv" || { cat "$tmp/out.csv"; fail "ncu: reduce_sum_f32 (mean of 91.5 and 88.5)"; }
grep -q '^reduction,reduce_max_i32,,,,100.00$' "$tmp/out.csv" || { cat "$tmp/out.csv"; fail "ncu: reduce_max_i32"; }
python3 "$gpu/summarize.py" "$tmp/out.csv" "$tmp/out.md" || fail "summarize.py on validate.sh output"
grep -q '^| reduction |' "$tmp/out.md" || fail "summary lacks reduction"
grep -q 'Failed runs: bfs (instrumented)' "$tmp/out.md" || fail "summary lacks the failure"
# inst_ratio.py: our PTX counts (a report of the emulated reduction.inst)
# against a fake ncu; a kernel whose launches ncu did not all profile gets
# no ratio.
python3 "$gpu/inst_ratio.py" --header reduction "$here/sample-report.json" \
  "$here/fake_ncu_inst.csv" >"$tmp/ratio.csv" || fail "inst_ratio.py failed"
grep -q '^program,kernel,launches,ncu_launches,ptx_warp,sass_warp,' "$tmp/ratio.csv" || fail "inst_ratio header"
grep -q '^reduction,_Z14reduce_sum_f32PKflPf,2,2,32487,21000,0.646,1005660,630000,0.626,yes$' "$tmp/ratio.csv" ||
  { cat "$tmp/ratio.csv"; fail "inst_ratio: reduce_sum_f32 (two launches summed)"; }
grep -q '^reduction,_Z14reduce_max_i32PKilPi,2,1,32487,21000,,1005660,640000,,yes$' "$tmp/ratio.csv" ||
  { cat "$tmp/ratio.csv"; fail "inst_ratio: reduce_max_i32 (ncu saw 1 of 2 launches: no ratio)"; }
echo '{"kernels": 3}' >"$tmp/bad.json"
python3 "$gpu/inst_ratio.py" reduction "$tmp/bad.json" "$here/fake_ncu_inst.csv" 2>/dev/null &&
  fail "inst_ratio.py accepted a report without kernels"
echo "test_scripts: PASS"

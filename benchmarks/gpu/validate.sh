#!/usr/bin/env bash
# GPU validation of the benchmark suite, run ON a machine with an NVIDIA GPU
# (nvidia-smi, ncu; no LLVM needed) from the repository root, with binaries
# built elsewhere and carried in build/benchmarks/.
#
#   benchmarks/gpu/validate.sh [options] [RESULTS.csv]
#
#   RESULTS.csv     default: $OUT/gpu-results.csv if OUT is set, else
#                   ./gpu-results.csv
#   --build DIR     build directory holding benchmarks/ (default: build)
#   --size S        size for the timed runs (default: large)
#   --runs N        timed runs per variant after one warm-up (default: 5)
#   --only a,b,c    only these programs (default: all of benchmarks/list.txt)
#   --append        append rows to RESULTS.csv instead of starting it anew
#   --no-ncu        skip the Nsight Compute branch-efficiency pass
#   --ncu-size S    size for the ncu pass (default: small, which launches
#                   every kernel a few times; large sizes launch thousands)
#   --ncu-launches N  profile at most N kernel launches per program
#                   (default: 200; gaussian small launches 126)
#   --timeout S     limit per program run (default: 600)
#
# For every program: one warm-up, then N timed runs each of <name> and
# <name>.inst; the median of the printed time_ms of each is recorded; every
# run must print "PASS <name>". Then `ncu --section SourceCounters --csv` on
# the plain binary gives branch efficiency per kernel.
#
# RESULTS.csv (header comment lines start with '#'):
#   program,kernel,plain_ms,inst_ms,overhead,branch_eff_ncu
#   kernel '*' is the whole program (times; overhead = inst_ms / plain_ms);
#   other rows are per kernel (branch efficiency in percent from ncu).
#   A variant that failed has FAIL in its time column; one not built, NA.
# Exit status: 0 when every run passed, 1 otherwise.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench_root="$(dirname "$here")"
build=build
size=large
runs=5
only=""
append=0
do_ncu=1
ncu_size=small
ncu_launches=200
limit=600
out=""

while (($#)); do
  case "$1" in
    --build) shift; build="${1:-}" ;;
    --size) shift; size="${1:-}" ;;
    --runs) shift; runs="${1:-}" ;;
    --only) shift; only="${1:-}" ;;
    --append) append=1 ;;
    --no-ncu) do_ncu=0 ;;
    --ncu-size) shift; ncu_size="${1:-}" ;;
    --ncu-launches) shift; ncu_launches="${1:-}" ;;
    --timeout) shift; limit="${1:-}" ;;
    -h|--help) sed -n '2,32p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "validate.sh: unknown option '$1'" >&2; exit 2 ;;
    *) out="$1" ;;
  esac
  shift
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "validate.sh: bad --runs '$runs'" >&2; exit 2; }
[[ "$ncu_launches" =~ ^[1-9][0-9]*$ ]] || { echo "validate.sh: bad --ncu-launches '$ncu_launches'" >&2; exit 2; }
if [ -z "$out" ]; then
  if [ -n "${OUT:-}" ]; then out="$OUT/gpu-results.csv"; else out="./gpu-results.csv"; fi
fi
bindir="$build/benchmarks"
if [ ! -d "$bindir" ]; then
  echo "validate.sh: no $bindir (run from the repository root, or pass --build)" >&2
  exit 2
fi

# A libcudart.so.13 carried next to the binaries wins over the toolkit's.
if [ -e "$bindir/lib/libcudart.so.13" ]; then
  export LD_LIBRARY_PATH="$(cd "$bindir/lib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
first=""
while IFS= read -r n; do
  n="$(echo "${n%%#*}" | tr -d '[:space:]')"
  if [ -n "$n" ] && [ -x "$bindir/$n" ]; then first="$n"; break; fi
done <"$bench_root/list.txt"
if [ -n "$first" ] && command -v ldd >/dev/null 2>&1 &&
   ldd "$bindir/$first" 2>/dev/null | grep -q 'libcudart.*not found'; then
  echo "validate.sh: libcudart.so.13 not found for $bindir/$first; copy it to $bindir/lib/" >&2
fi

own_out=0
[ -n "${WARPSCOPE_OUT:-}" ] || own_out=1
work="$(mktemp -d "${TMPDIR:-/tmp}/warpscope-validate.XXXXXX")"
trap 'rm -rf "$work"' EXIT

gpu="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
[ -n "$gpu" ] || gpu="unknown (nvidia-smi failed)"
have_ncu=0
if ((do_ncu)) && command -v ncu >/dev/null 2>&1; then
  have_ncu=1
fi

mkdir -p "$(dirname "$out")"
if ((!append)) || [ ! -s "$out" ]; then
  {
    echo "# gpu: $gpu; date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "# size: $size; timed runs: $runs (median) after 1 warm-up; ncu: $( ((have_ncu)) && echo "size $ncu_size" || echo "not run")"
    echo "program,kernel,plain_ms,inst_ms,overhead,branch_eff_ncu"
  } >"$out"
fi

# Runs one variant: prints the median time_ms, or FAIL / NA. Logs failures.
run_variant() {
  local name="$1" exe="$2" times=() i log ms last
  if [ ! -x "$exe" ]; then
    echo NA
    return 0
  fi
  for ((i = 0; i <= runs; i++)); do # run 0 is the warm-up
    log="$work/$name.$i.log"
    if ((own_out)); then # profiles of .inst runs: scratch, dropped after
      export WARPSCOPE_OUT="$work/out/${exe##*/}.$i"
      mkdir -p "$WARPSCOPE_OUT"
    fi
    timeout "$limit" "$exe" "$size" >"$log" 2>&1 </dev/null
    local rc=$?
    last="$(grep -E '^(PASS|FAIL)( |$)' "$log" | tail -n 1)"
    if ((rc != 0)) || [ "$last" != "PASS $name" ]; then
      echo "validate.sh: $exe run $i: exit $rc: ${last:-$(tail -n 1 "$log")}" >&2
      echo FAIL
      return 1
    fi
    ms="$(awk '$1 == "time_ms" { v = $2 } END { print v }' "$log")"
    if ((i > 0)); then
      [[ "$ms" =~ ^[0-9.eE+-]+$ ]] || { echo "validate.sh: $exe: no time_ms" >&2; echo FAIL; return 1; }
      times+=("$ms")
    fi
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 }
    END { if (NR % 2) printf "%.3f\n", v[(NR + 1) / 2];
          else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
  return 0
}

# Prints "kernel,branch_eff" lines from an ncu --csv output file.
parse_ncu() {
  python3 - "$here" "$1" <<'PY'
import re, sys
from collections import OrderedDict
sys.path.insert(0, sys.argv[1])
import ncu_csv  # the one reader of ncu's CSV
RAW = "smsp__sass_average_branch_targets_threads_uniform.pct"
raw, named = OrderedDict(), OrderedDict()
for r in ncu_csv.rows(sys.argv[2]):
    kname = (r.get("Kernel Name") or "").strip()
    metric = (r.get("Metric Name") or "").strip()
    v = r["Metric Value"]
    if not kname or not metric or v is None:
        continue
    # "foo(int *, float)" or "void foo<...>(...)" -> "foo"
    k = kname.split("(")[0].strip().split(" ")[-1]
    k = re.sub(r"[^A-Za-z0-9_:<>.]", "_", k) or "?"
    if metric == RAW or metric.startswith(RAW):
        raw.setdefault(k, []).append(v)
    elif metric.lower() == "branch efficiency":
        named.setdefault(k, []).append(v)
src = raw if raw else named
for k, vs in src.items():
    print("%s,%.2f" % (k, sum(vs) / len(vs)))
PY
}

status=0
while IFS= read -r name || [ -n "$name" ]; do
  name="$(echo "${name%%#*}" | tr -d '[:space:]')"
  [ -n "$name" ] || continue
  if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then
    continue
  fi
  echo "== $name" >&2
  plain="$(run_variant "$name" "$bindir/$name")" || status=1
  inst="$(run_variant "$name" "$bindir/$name.inst")" || status=1
  [ -x "$bindir/$name" ] || { echo "validate.sh: $bindir/$name not built" >&2; status=1; }
  overhead=""
  if [[ "$plain" =~ ^[0-9.]+$ && "$inst" =~ ^[0-9.]+$ ]]; then
    overhead="$(awk -v a="$inst" -v b="$plain" 'BEGIN { if (b > 0) printf "%.3f", a / b }')"
  fi
  echo "$name,*,$plain,$inst,$overhead," >>"$out"
  echo "   plain $plain ms, inst $inst ms, overhead ${overhead:-NA}" >&2
  if ((have_ncu)) && [ -x "$bindir/$name" ]; then
    ncsv="$work/$name.ncu.csv"
    # Newer ncu first (function names, raw metric); then the minimal form.
    if ! timeout "$limit" ncu --csv --page details --clock-control none \
        --section SourceCounters \
        --metrics smsp__sass_average_branch_targets_threads_uniform.pct \
        --print-kernel-base function --launch-count "$ncu_launches" \
        "$bindir/$name" "$ncu_size" >"$ncsv" 2>"$work/$name.ncu.err" ||
       ! grep -q "Kernel Name" "$ncsv"; then
      timeout "$limit" ncu --section SourceCounters --csv --launch-count "$ncu_launches" \
        "$bindir/$name" "$ncu_size" >"$ncsv" 2>"$work/$name.ncu.err"
    fi
    kernels="$(parse_ncu "$ncsv")"
    if [ -z "$kernels" ]; then
      echo "validate.sh: $name: no branch efficiency from ncu: $(tail -n 2 "$work/$name.ncu.err" | tr '\n' ' ')" >&2
      echo "$name,?,,,,NA" >>"$out"
    else
      while IFS=, read -r k eff; do
        echo "$name,$k,,,,$eff" >>"$out"
        echo "   ncu $k: branch efficiency $eff%" >&2
      done <<<"$kernels"
    fi
  fi
done <"$bench_root/list.txt"

echo "validate.sh: results in $out" >&2
exit $status

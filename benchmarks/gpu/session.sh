#!/usr/bin/env bash
# One GPU session's measurements, run ON the GPU machine from the repository
# root with the build carried (docs/gpu-runbook.md lists the carry):
#
#   benchmarks/gpu/session.sh PHASE [BUDGET_SECONDS]
#
#   truth   exact counts on the GPU (instrumented runs), CUPTI PC sampling
#           and SASS metrics, Nsight Compute counters of plain and
#           instrumented builds (branch efficiency, SASS instructions, warps,
#           CTAs, sectors/requests, shared bank conflicts), cubin listings
#   timing  overhead (plain vs instrumented time_ms, small and large), and
#           Nsight Compute counters of the instrumented builds
#   pcs     PC sampling of every program, compute-sanitizer on instrumented ones
#   rest    large-size overhead of the programs a timed-out timing run left,
#           and srad at growing sizes (it fails at large on an H100)
#   replicas  large-size times of builds with 1, 32 and 256 counter replicas
#           and small-size exact counts of the default build
#   dataset the time-prediction dataset: per-launch counts and features, and
#           ncu kernel times, at three sizes (benchmarks/gpu/sizes.txt)
#   conformance  the emulator's conformance programs with --dump (results
#           bit for bit, to diff with the emulator's: compare_dumps.py),
#           and `control trap` (the error a trap gives)
#   emuscale  the emulator's speed with 1..16 threads on this machine's cores
#
# Issue 39's phases (15 minutes of device time per lend, docs/gpu-runbook.md):
#   overhead  every benchmark, plain and instrumented, small (lazy and eager
#           module loading) and large (eager), one timed run each, with NVML
#           power sampled beside every run; SASS listings of both builds
#   model   Nsight Compute per kernel at small and middle size: time, cycles,
#           warp-state (stall) counters, memory counters (timing-model truth)
#   advisor the advisor pairs: ncu time of every before and after, CUPTI PC
#           samples of every before (plain and instrumented)
#   approx  every .approx form's results over whole binades and random bits
#   counts  exact counts of the instrumented builds (stale fixtures first)
#   times   ncu kernel times at three sizes (the prediction dataset's target
#           on this GPU; power comes from the overhead phase's NVML samples)
#   micro   the timing model's microbenchmarks under ncu (timing_micro.py
#           --measured: each configured figure against this GPU's)
#
# Several phases run in one call as `session.sh overhead:200,model:220 530`:
# each gets its share of the seconds (or all that is left) in turn; time a
# phase leaves unused goes to the next.
#
# Every step runs under a timeout inside BUDGET_SECONDS (default 540) and is
# logged in steps.log (name, exit status, seconds); steps that no longer fit
# are logged as SKIP. Everything lands in $OUT/PHASE.tar.gz (one file: the
# device tool returns at most 8), to be unpacked and analysed off the GPU.
set -u
phases="${1:?usage: session.sh PHASE[:SECONDS][,PHASE[:SECONDS]...] [BUDGET_SECONDS]}"
total_budget="${2:-540}"
repo="$(pwd)"
# The stripped tree of prepare_carry.sh when it was carried, else the build.
root="$repo/build"
[ -x "$repo/build/gpu-carry/bin/warpscope" ] && root="$repo/build/gpu-carry"
bench="$root/benchmarks"
ws="$root/bin/warpscope"
out="${OUT:-/tmp/ws-out}"
mkdir -p "$out"
t_total=$SECONDS

export LD_LIBRARY_PATH="$root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# CUPTI: the machine's own if it has one, else the copy carried in
# build/gpu-carry (the same CUDA 13.0 release as the collector was built with).
cupti="$(find /usr/local/cuda/ /usr/local/cuda*/ /opt -name 'libcupti.so.13' 2>/dev/null | head -n 1)"
if [ -n "$cupti" ]; then
  export LD_LIBRARY_PATH="$(dirname "$cupti"):$LD_LIBRARY_PATH"
elif [ -e "$root/lib/libcupti.so.13" ]; then
  : # carried in $root/lib, already on the path
elif [ -e "$repo/build/gpu-carry/libcupti.so.13" ]; then
  export LD_LIBRARY_PATH="$repo/build/gpu-carry:$LD_LIBRARY_PATH"
fi
export PATH="/usr/local/cuda/bin:$PATH"
# A dry run without a GPU: the programs run on the emulator (the profilers'
# steps then fail and are logged so), to check a phase's flow before a lend.
if [ -n "${SESSION_EMULATE:-}" ]; then
  export LD_LIBRARY_PATH="$root/lib/emu:$LD_LIBRARY_PATH"
fi
programs=()
while IFS= read -r n; do
  n="$(echo "${n%%#*}" | tr -d '[:space:]')"
  [ -n "$n" ] && programs+=("$n")
done <"$repo/benchmarks/list.txt"

# The phase's tarball; over the device tool's 16 MiB a file, in parts.
finish() {
  echo "total $((SECONDS - t_start))s" >>"$W/steps.log"
  tar czf "$out/$phase.tar.gz" -C "$W" . 2>/dev/null
  if (($(stat -c %s "$out/$phase.tar.gz") > 15 * 1048576)); then
    split -b 15m "$out/$phase.tar.gz" "$out/$phase.tar.gz.part-"
    rm -f "$out/$phase.tar.gz"
  fi
}
export repo root bench ws cupti

left() { echo $((budget - (SECONDS - t_start))); }
# step NAME MIN_SECONDS CMD...: runs CMD if MIN_SECONDS still fit, logs it.
# STEP_CAP (seconds) bounds one step further.
step() {
  local name="$1" need="$2" t0=$SECONDS rc lim
  shift 2
  if (($(left) < need)); then
    echo "SKIP $name" >>"$W/steps.log"
    return 0
  fi
  # timeout 0 would mean no limit: a step ends 5 s inside the budget.
  lim=$(($(left) - 5))
  ((lim < 1)) && lim=1
  ((lim > ${STEP_CAP:-300})) && lim=${STEP_CAP:-300}
  timeout -k 5 "$lim" bash -c '"$@"' step "$@" >>"$W/log/$name.log" 2>&1
  rc=$?
  echo "$name rc=$rc $((SECONDS - t0))s" >>"$W/steps.log"
  return 0
}

environment() {
  date -u '+%Y-%m-%dT%H:%M:%SZ'
  uname -a
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv
  nvcc --version | tail -n 2
  ncu --version | tail -n 1
  command -v nvdisasm cuobjdump compute-sanitizer
  echo "cupti: ${cupti:-carried}"
  echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  ldd "$bench/reduction.inst" | grep -E 'cudart|warpscope'
  ldd "$root/lib/libwarpscope-collect.so" | grep -i cupti
}

# Metrics asked of ncu, filtered to those the chip offers: one unknown name
# would fail the whole ncu run.
COUNT_METRICS="smsp__sass_average_branch_targets_threads_uniform.pct
smsp__sass_branch_targets.sum smsp__sass_branch_targets_threads_divergent.sum
smsp__sass_branch_targets_threads_uniform.sum smsp__inst_executed.sum
smsp__thread_inst_executed.sum smsp__warps_launched.sum sm__ctas_launched.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum
smsp__sass_inst_executed_op_global_ld.sum smsp__sass_inst_executed_op_global_st.sum
gpu__time_duration.sum"
TIME_METRICS="gpu__time_duration.sum sm__cycles_elapsed.max smsp__cycles_active.avg"

filter_metrics() {
  local m base keep=()
  ncu --query-metrics --chip gh100 >"$W/ncu-query.txt" 2>&1 || true
  for m in $1; do
    base="${m%.*}"
    if grep -qE "^$base( |$)" "$W/ncu-query.txt"; then keep+=("$m"); fi
  done
  if ((${#keep[@]} == 0)); then echo "$1" | tr '\n' ' ' | tr -s ' ' ','; return; fi
  (IFS=,; echo "${keep[*]}")
}

# ncu_counts DIR METRICS EXE ARGS...: every launch (up to 2000), mangled names.
ncu_run() {
  local csv="$1" metrics="$2" limit="$3"
  shift 3
  ncu --csv --page details --print-units base --print-kernel-base mangled \
    --launch-count "$limit" --metrics "$metrics" "$@" >"$csv" 2>"${csv%.csv}.err"
}

truth() {
  step environment 0 environment
  mkdir -p "$W/counts" "$W/pcs" "$W/sass" "$W/ncu" "$W/ncu-inst" "$W/pcs-inst" "$W/sass-inst"
  local metrics p
  metrics="$(filter_metrics "$COUNT_METRICS")"
  echo "$metrics" >"$W/ncu-metrics.txt"
  # 1. Exact counts measured on the GPU (instrumented builds, small).
  for p in "${programs[@]}"; do
    step "counts-$p" 20 "$ws" run -o "$W/counts/$p" -- "$bench/$p.inst" small
    step "report-$p" 10 sh -c "'$ws' report --format json '$W/counts/$p' > '$W/counts/$p.json'"
  done
  # 2. CUPTI collectors on the plain builds (risky first: never run before).
  for p in "${programs[@]}"; do
    step "pcs-$p" 30 "$ws" run --pc-sampling -o "$W/pcs/$p" -- "$bench/$p" small
    step "sass-$p" 30 "$ws" run --sass-metrics -o "$W/sass/$p" -- "$bench/$p" small
  done
  for p in reduction bfs hotspot nw; do
    step "pcs-inst-$p" 30 "$ws" run --pc-sampling -o "$W/pcs-inst/$p" -- "$bench/$p.inst" small
    step "sass-inst-$p" 30 "$ws" run --sass-metrics -o "$W/sass-inst/$p" -- "$bench/$p.inst" small
    step "pcs-inst-report-$p" 10 sh -c "'$ws' report '$W/pcs-inst/$p' > '$W/pcs-inst/$p.txt'"
    step "sass-inst-report-$p" 10 sh -c "'$ws' report '$W/sass-inst/$p' > '$W/sass-inst/$p.txt'"
  done
  # 3. Nsight Compute counters, every launch, plain then instrumented.
  for p in "${programs[@]}"; do
    step "ncu-$p" 40 ncu_run "$W/ncu/$p.csv" "$metrics" 2000 "$bench/$p" small
  done
}

timing() {
  step environment 0 environment
  # 1. Overhead: plain vs instrumented time_ms (median), small then large.
  step overhead-small 60 benchmarks/gpu/validate.sh --no-ncu --size small --runs 5 \
    --timeout 60 "$W/overhead-small.csv"
  step overhead-large 120 benchmarks/gpu/validate.sh --no-ncu --size large --runs 3 \
    --timeout 60 "$W/overhead-large.csv"
  # 2. Nsight Compute counters of the instrumented builds (what the probes
  #    add in SASS instructions and branches).
  local metrics p
  metrics="$(filter_metrics "$COUNT_METRICS")"
  mkdir -p "$W/ncu-inst"
  export WARPSCOPE_OUT="$W/scratch"
  mkdir -p "$WARPSCOPE_OUT"
  for p in "${programs[@]}"; do
    step "ncu-inst-$p" 40 ncu_run "$W/ncu-inst/$p.csv" "$metrics" 2000 "$bench/$p.inst" small
  done
  rm -rf "$W/scratch"
  unset WARPSCOPE_OUT
}

# PC sampling alone (after a collector fix), then compute-sanitizer on the
# instrumented builds (the probes must not race or write out of bounds).
pcs() {
  step environment 0 environment
  mkdir -p "$W/pcs" "$W/pcs-inst" "$W/sanitizer"
  local p
  for p in "${programs[@]}"; do
    step "pcs-$p" 20 "$ws" run --pc-sampling -o "$W/pcs/$p" -- "$bench/$p" small
  done
  for p in reduction bfs hotspot nw; do
    step "pcs-inst-$p" 20 "$ws" run --pc-sampling -o "$W/pcs-inst/$p" -- "$bench/$p.inst" small
    step "pcs-inst-report-$p" 10 sh -c "'$ws' report '$W/pcs-inst/$p' > '$W/pcs-inst/$p.txt'"
  done
  export WARPSCOPE_OUT="$W/scratch"
  mkdir -p "$WARPSCOPE_OUT"
  for p in reduction bfs hotspot warp_reduce; do
    step "memcheck-$p" 40 compute-sanitizer --tool memcheck --error-exitcode 3 "$bench/$p.inst" small
    step "racecheck-$p" 40 compute-sanitizer --tool racecheck --error-exitcode 3 "$bench/$p.inst" small
  done
  rm -rf "$W/scratch"
  unset WARPSCOPE_OUT
}

# The rest of the large-size overhead (one timed run each), and where srad
# starts failing on the GPU.
rest() {
  step environment 0 environment
  step overhead-large-rest 60 benchmarks/gpu/validate.sh --no-ncu --size large --runs 1 \
    --timeout 40 --only histogram,spmv,nbody,kmeans,mandelbrot,warp_reduce,lu,interp,streams \
    "$W/overhead-large-rest.csv"
  local n
  for n in 64 128 256 384 512 768 1024; do
    step "srad-$n" 10 "$bench/srad" "$n" 1
  done
}

# Counter replicas (-warpscope-counter-replicas): time at large size of the
# plain build and of instrumented builds with 1 (<name>.k1), 32 (<name>.inst,
# the default) and 256 (<name>.k256) replicas, one warm-up and one timed run
# each; then exact counts of the default build at small size, to compare
# with those of a 1-replica build.
replicas() {
  step environment 0 environment
  local p v exe ms
  echo "program,variant,time_ms" >"$W/replicas-large.csv"
  export WARPSCOPE_OUT="$W/scratch"
  mkdir -p "$WARPSCOPE_OUT" "$W/counts"
  for p in "${programs[@]}"; do
    [ "$p" != histogram ] || continue # its own atomics dominate (7.8 s plain)
    for v in plain k1 inst k256; do
      exe="$bench/$p.$v"
      [ "$v" != plain ] || exe="$bench/$p"
      [ -x "$exe" ] || continue
      step "large-$p-$v-warm" 30 "$exe" large
      step "large-$p-$v" 30 "$exe" large
      ms="$(awk '$1 == "time_ms" { v = $2 } END { print v }' "$W/log/large-$p-$v.log" 2>/dev/null)"
      grep -q "^PASS" "$W/log/large-$p-$v.log" 2>/dev/null || ms="FAIL:$ms"
      echo "$p,$v,$ms" >>"$W/replicas-large.csv"
    done
  done
  rm -rf "$W/scratch"
  unset WARPSCOPE_OUT
  for p in "${programs[@]}"; do
    step "counts-$p" 15 "$ws" run -o "$W/counts/$p" -- "$bench/$p.inst" small
    step "report-$p" 10 sh -c "'$ws' report --format json '$W/counts/$p' > '$W/counts/$p.json'"
  done
}

dataset() {
  step environment 0 environment
  # Per-launch exact counts (features) and ncu kernel times per size.
  local metrics p small mid large size tag
  metrics="$(filter_metrics "$TIME_METRICS")"
  mkdir -p "$W/data"
  export WARPSCOPE_OUT="$W/scratch"
  mkdir -p "$WARPSCOPE_OUT"
  while read -r p small mid large; do
    case "$p" in '#'* | '') continue ;; esac
    for size in small "$mid" "large 1"; do
      tag="${size// /-}"
      # Features even when the program's self-check failed (its counts are
      # still exact); its .out says PASS or FAIL.
      step "features-$p-$tag" 30 sh -c "'$ws' run --mode per-launch -o '$W/data/$p-$tag' -- '$bench/$p.inst' $size >'$W/data/$p-$tag.out' 2>&1;
        '$ws' features '$W/data/$p-$tag' > '$W/data/$p-$tag.features.csv'"
      step "time-$p-$tag" 30 ncu_run "$W/data/$p-$tag.ncu.csv" "$metrics" 5000 "$bench/$p" $size
      # Per-launch logs of large runs are bulky: dropped once the features
      # are out (the directory then no longer reports).
      if [ "$tag" = large-1 ] && [ -s "$W/data/$p-$tag.features.csv" ]; then
        rm -f "$W/data/$p-$tag"/launches-*.jsonl
      fi
    done
  done <"$repo/benchmarks/gpu/sizes.txt"
  rm -rf "$W/scratch"
  unset WARPSCOPE_OUT
}

# The emulator's conformance programs on the GPU (issues 16 and 21): each
# writes every (form, case, inputs, result bits) with --dump; off the GPU,
# compare_dumps.py diffs them with the emulator's dumps of the same binaries.
conformance() {
  step environment 0 environment
  mkdir -p "$W/conf"
  local f n
  for f in "$root"/conformance/*; do
    [ -x "$f" ] || continue
    n="$(basename "$f")"
    step "conf-$n" 20 "$f" --dump "$W/conf/$n.dump"
    # instr's dump is 160 MB of text: xz brings it to 9 (gzip: 16).
    if [ -s "$W/conf/$n.dump" ] && command -v xz >/dev/null; then
      xz -T0 -3 "$W/conf/$n.dump"
    fi
  done
  # trap ends the process's use of CUDA: its own run (which error the GPU
  # reports, and that it is sticky; conf-control-trap.log).
  [ -x "$root/conformance/control" ] &&
    step conf-control-trap 10 "$root/conformance/control" trap
  return 0
}

# The emulator's scaling over this machine's cores (issue 24; the lending
# machine has 16, the development machine 2): each arithmetic benchmark's
# timed kernel section (time_ms) with 1, 2, 4, 8 and 16 emulator threads,
# best of 3; the output checks itself (PASS).
emuscale() {
  step environment 0 environment
  nproc >"$W/nproc.txt"
  lscpu >"$W/lscpu.txt" 2>&1
  echo "program,size,threads,rep,time_ms,pass" >"$W/emuscale.csv"
  local p size t r log
  for spec in "nbody 8192" "sgemm_shared 800" "hotspot 1024" "cfd_flux 512" "md_neighbor 32"; do
    read -r p size <<<"$spec"
    for t in 1 2 4 8 16; do
      for r in 1 2 3; do
        log="$W/log/emu-$p-$t-$r.log"
        step "emu-$p-$t-$r" 20 env WARPSCOPE_EMU_THREADS="$t" WARPSCOPE_OUT="$W/scratch" \
          LD_LIBRARY_PATH="$root/lib/emu" "$bench/$p" "$size"
        echo "$p,$size,$t,$r,$(awk '$1 == "time_ms" { v = $2 } END { print v }' \
          "$W/log/emu-$p-$t-$r.log" 2>/dev/null),$(grep -c '^PASS' \
          "$W/log/emu-$p-$t-$r.log" 2>/dev/null)" >>"$W/emuscale.csv"
      done
    done
  done
  rm -rf "$W/scratch"
}

export -f environment ncu_run

# shellcheck source=benchmarks/gpu/phases15.sh
. "$repo/benchmarks/gpu/phases15.sh"

IFS=, read -r -a specs <<<"$phases"
for spec in "${specs[@]}"; do
  phase="${spec%%:*}"
  case "$phase" in
    truth | timing | dataset | pcs | rest | replicas | conformance | emuscale | \
      overhead | model | advisor | approx | times | counts | micro) ;;
    *) echo "session.sh: unknown phase '$phase'" >&2; exit 2 ;;
  esac
done
for spec in "${specs[@]}"; do
  phase="${spec%%:*}"
  rest_of_total=$((total_budget - (SECONDS - t_total)))
  budget=$rest_of_total
  [ "$spec" != "$phase" ] && ((${spec#*:} < budget)) && budget=${spec#*:}
  ((budget >= 20)) || { echo "session.sh: no time left for $phase" >&2; continue; }
  W="/tmp/ws-$phase"
  rm -rf "$W"
  mkdir -p "$W/log"
  export W
  t_start=$SECONDS
  "$phase"
  finish
done
ls -la "$out" >&2

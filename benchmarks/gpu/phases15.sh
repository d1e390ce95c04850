# Issue 39's phases for session.sh (sourced; uses its step, left, ncu_run,
# filter_metrics, $root, $bench, $ws, $W, programs). Each is planned for a
# 15-minute lend: what is most wanted runs first, and step() skips what the
# phase's budget no longer holds.

# NVML power beside the runs: power_sampler.py writes one row per 10 ms
# until stopped (the benchmarks print their section's wall-clock interval
# with BENCH_WALLCLOCK=1, which names the rows of a run).
power_start() {
  python3 "$repo/benchmarks/gpu/power_sampler.py" "$1" 10 >"$W/log/power-sampler.log" 2>&1 &
  power_pid=$!
}
power_stop() {
  [ -n "${power_pid:-}" ] && kill "$power_pid" 2>/dev/null && wait "$power_pid" 2>/dev/null
  power_pid=""
}

# SASS listings and resource usage of every carried binary (CPU only, so it
# runs beside the GPU work): cubins as cuobjdump extracts them, nvdisasm with
# line information, and cuobjdump -res-usage (registers, shared, spills).
sass_listings() {
  local d="$W/sass" f n c
  mkdir -p "$d"
  for f in "$bench"/* "$root"/advisor/*; do
    [ -f "$f" ] && [ -x "$f" ] || continue
    n="$(basename "$f")"
    mkdir -p "$d/$n"
    (cd "$d/$n" && cuobjdump -xelf all "$f" >/dev/null 2>&1)
    cuobjdump -res-usage "$f" >"$d/$n/res-usage.txt" 2>&1
    for c in "$d/$n"/*.cubin; do
      [ -e "$c" ] || continue
      nvdisasm -c -g "$c" >"${c%.cubin}.sass" 2>/dev/null ||
        nvdisasm -c "$c" >"${c%.cubin}.sass" 2>&1
    done
  done
}

# timed_run PROGRAM plain|inst small|large lazy|eager: one run, one CSV row.
timed_run() {
  local p="$1" v="$2" size="$3" load="$4" exe tag log ms pass wall
  exe="$bench/$p"
  [ "$v" = plain ] || exe="$bench/$p.$v"
  [ -x "$exe" ] || return 0
  tag="$p-$v-$size-$load"
  log="$W/log/run-$tag.log"
  step "run-$tag" 8 env CUDA_MODULE_LOADING="${load^^}" BENCH_WALLCLOCK=1 \
    WARPSCOPE_OUT="$W/scratch" "$exe" "$size"
  [ -e "$log" ] || return 0
  ms="$(awk '$1 == "time_ms" { v = $2 } END { print v }' "$log")"
  wall="$(awk '$1 == "section_wall_ns" { v = $2 "," $3 } END { print v }' "$log")"
  pass=0
  grep -q "^PASS" "$log" && pass=1
  echo "$p,$v,$size,$load,$pass,$ms,${wall:-,}" >>"$W/overhead.csv"
  rm -rf "$W/scratch"/*
}

# Item 1: probe overhead of today's build, and both builds' SASS.
overhead() {
  step environment 0 environment
  mkdir -p "$W/scratch"
  (sass_listings >"$W/log/sass.log" 2>&1) &
  local sass_pid=$! p v
  echo "program,variant,size,loading,pass,time_ms,section_start_ns,section_end_ns" >"$W/overhead.csv"
  power_start "$W/power.csv"
  # Small first, every program: lazy loading (as the 2026-11-23 runs; the
  # first launch loads the module inside the timed section), then eager.
  for p in "${programs[@]}"; do
    for v in plain inst; do
      timed_run "$p" "$v" small lazy
      timed_run "$p" "$v" small eager
    done
  done
  # Large, eager, one run each (the section repeats its kernels; the small
  # runs warmed the machine), costly host work last.
  for p in "${programs[@]}"; do
    case "$p" in histogram | bitonic_sort) continue ;; esac
    for v in plain inst; do STEP_CAP=40 timed_run "$p" "$v" large eager; done
  done
  for p in bitonic_sort histogram; do
    for v in plain inst; do STEP_CAP=40 timed_run "$p" "$v" large eager; done
  done
  power_stop
  wait "$sass_pid"
  rm -rf "$W/scratch"
}

# Metrics beside ncu's sections for the timing model (issue 34): time and
# clocks, memory traffic by level, atomics, shared-memory wavefronts.
MODEL_METRICS="gpu__time_duration.sum sm__cycles_elapsed.max sm__cycles_elapsed.avg
smsp__cycles_active.avg sm__cycles_active.avg smsp__inst_executed.sum
smsp__thread_inst_executed.sum smsp__warps_launched.sum sm__ctas_launched.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
l1tex__t_sector_hit_rate.pct lts__t_sector_hit_rate.pct lts__t_sectors.sum
lts__t_sectors_op_atom.sum lts__t_sectors_op_red.sum
dram__bytes_read.sum dram__bytes_write.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum
smsp__sass_inst_executed_op_global_ld.sum smsp__sass_inst_executed_op_global_st.sum"

# ncu_model CSV LAUNCHES EXE ARGS...: the raw page (one row per launch, a
# column per metric) with the warp-state (stall) section.
# Where ncu rejects the sections (it then profiles nothing), the metrics
# alone.
ncu_model() {
  local csv="$1" launches="$2"
  shift 2
  local base=(ncu --csv --page raw --print-units base --print-kernel-base mangled
    --launch-count "$launches")
  "${base[@]}" --section SpeedOfLight --section WarpStateStats --section LaunchStats \
    --section Occupancy --metrics "$model_metrics" "$@" >"$csv" 2>"${csv%.csv}.err" && return 0
  grep -q '"ID"' "$csv" && return 1
  "${base[@]}" --metrics "$model_metrics" "$@" >"$csv" 2>>"${csv%.csv}.err"
}

# Item 2: timing-model truth per kernel, small then middle size.
model() {
  step environment 0 environment
  mkdir -p "$W/ncu"
  model_metrics="$(filter_metrics "$MODEL_METRICS")"
  export model_metrics
  echo "$model_metrics" >"$W/ncu-metrics.txt"
  cp "$W/ncu-query.txt" "$W/ncu-query-gh100.txt" 2>/dev/null
  local p small mid
  for p in "${programs[@]}"; do
    STEP_CAP=40 step "ncu-$p-small" 15 ncu_model "$W/ncu/$p-small.csv" 60 "$bench/$p" small
  done
  while read -r p small mid _; do
    case "$p" in '#'* | '') continue ;; esac
    STEP_CAP=40 step "ncu-$p-$mid" 15 ncu_model "$W/ncu/$p-$mid.csv" 40 "$bench/$p" "$mid"
  done <"$repo/benchmarks/gpu/sizes.txt"
}

# Item 3: the advisor pairs. One ncu process times every before and after
# program (its kernel time; two rounds), then CUPTI PC sampling of each
# before, plain and instrumented (counts and real samples in one profile).
advisor() {
  step environment 0 environment
  local a="$root/advisor" d="$W/advisor" pair r
  mkdir -p "$d"
  printf '#!/bin/sh\nfor r in 1 2; do for f in %s/*.before %s/*.after; do "$f"; done; done\n' \
    "$a" "$a" >"$W/pairs.sh"
  chmod +x "$W/pairs.sh"
  # step sends the command's stdout to its log, so the CSV's redirect is
  # the command's own (the 2026-11-27 run's CSV ended up in the log).
  STEP_CAP=120 step ncu-pairs 30 sh -c 'ncu --csv --page raw --print-units base \
    --print-kernel-base mangled --target-processes all \
    --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__cycles_active.avg,smsp__inst_executed.sum \
    "$1" >"$2"' sh "$W/pairs.sh" "$d/ncu-pairs.csv"
  export WARPSCOPE_QUIET=1
  for f in "$a"/*.before; do
    pair="$(basename "$f" .before)"
    STEP_CAP=30 step "pcs-$pair" 10 "$ws" run --pc-sampling -o "$d/$pair-plain" -- "$f"
    STEP_CAP=30 step "pcs-inst-$pair" 10 "$ws" run --pc-sampling -o "$d/$pair-inst" -- "$f.inst"
    step "advise-$pair" 5 sh -c "'$ws' advise '$d/$pair-inst' --format json > '$d/$pair-advice.json'"
  done
  unset WARPSCOPE_QUIET
}

# Item 5 (bit-exactness): every .approx form's results, packed.
approx() {
  step environment 0 environment
  mkdir -p "$W/approx"
  step approx-dump 20 "$root/conformance/approx_dump" "$W/approx"
  step approx-pack 20 python3 "$repo/benchmarks/gpu/approx_pack.py" pack "$W/approx"
  rm -f "$W/approx"/*.bin
}

# Item 4: the prediction dataset's times on this GPU: ncu time and cycles
# per launch of the plain builds at three sizes. Features are the exact
# counts, the same on every GPU, so the H100 dataset's serve; power per
# program comes from the overhead phase's large runs (NVML beside them,
# outside ncu, whose replays and locked clocks would distort it).
times() {
  step environment 0 environment
  local metrics p small mid large size tag
  metrics="$(filter_metrics "$TIME_METRICS")"
  mkdir -p "$W/data"
  for tag in small mid large; do
    while read -r p small mid large; do
      case "$p" in '#'* | '') continue ;; esac
      case "$tag" in small) size=small ;; mid) size="$mid" ;; *) size="large 1" ;; esac
      STEP_CAP=40 step "time-$p-$tag" 15 ncu_run "$W/data/$p-${size// /-}.ncu.csv" \
        "$metrics" 5000 "$bench/$p" $size
    done <"$repo/benchmarks/gpu/sizes.txt"
  done
}

# Exact counts of the instrumented builds whose H100 fixtures predate their
# probes' last change (docs/gpu-runbook.md), then every other program.
counts() {
  step environment 0 environment
  mkdir -p "$W/counts"
  local p
  for p in nw backprop scan histogram spmv kmeans mandelbrot "${programs[@]}"; do
    [ -e "$W/counts/$p.json" ] && continue
    STEP_CAP=30 step "counts-$p" 8 "$ws" run -o "$W/counts/$p" -- "$bench/$p.inst" small
    step "report-$p" 4 sh -c "'$ws' report --format json '$W/counts/$p' > '$W/counts/$p.json'"
  done
}

# Issue 34's microbenchmarks (benchmarks/micro/timing_micro.cu): every
# launch's time and SM cycles under ncu, in launch order, for
# `timing_micro.py --measured` (latencies, throughputs, bank conflicts,
# occupancy, DRAM bandwidth, the launch's fixed cost, same-address and
# shared atomics, fences), the model's configured figures against the GPU.
micro() {
  step environment 0 environment
  mkdir -p "$W/micro"
  STEP_CAP=90 step ncu-micro 20 sh -c 'ncu --csv --page raw --print-units base \
    --print-kernel-base mangled --launch-count 500 \
    --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__cycles_active.avg \
    "$1" >"$2"' sh "$root/micro/timing_micro" "$W/micro/ncu-raw.csv"
  # Without ncu's replay and locked clocks: the program's own run.
  step run-micro 5 "$root/micro/timing_micro"
}

export -f ncu_model

#!/usr/bin/env bash
# Remakes a shipped prediction model, data/models/<gpu>-time.json, from its
# measured dataset and this build's emulator (docs/prediction.md, "Shipped
# models"). Run it after the timing model changes: the model records the
# timing model's fingerprint, and `warpscope predict` leaves out modeled
# figures of another version (one warning line) until the model is remade.
#
#   scripts/train-model.sh [h100|h200] [RUNS_DIR] [MODEL]
#
# Needs the build's driver and its plain benchmarks (`make test` builds
# them; alone: cmake --build build --target benchmarks).
#
# Steps (about 20 minutes of one core here, most of it the large runs:
# gaussian 6.3 min, lu 1.5 min, hotspot 2 min):
#   1. the emulated runs of the plain benchmarks at the dataset's sizes
#      (benchmarks/predict/emulated_features.py run; the timing model's
#      default configuration h100-sxm): every program at `small` and the
#      middle size, and at `large 1` the programs in LARGE below (the
#      others take too long to emulate: mandelbrot, nbody, bitonic_sort;
#      their 7 large rows keep no modeled figures; srad's large rows have
#      no features in the dataset);
#   2. summarize and join them with the measured dataset;
#   3. warpscope train (deterministic: the same runs and dataset give the
#      same file; its rounds and tree parameters chosen by nested
#      leave-one-program-out: about 650 small models, a minute of CPU).
# RUNS_DIR (default build/predict-runs) keeps the runs and train-<gpu>.csv;
# MODEL (default data/models/<gpu>-time.json) is the model written.
# TRAIN_MODEL_PARALLEL=N runs N emulations at once (default: the cores;
# each is one emulator thread, so the figures do not depend on it).
# TRAIN_MODEL_JOBS="P-TAG ..." runs only those (a quick check of the
# script; the model then lacks most modeled figures: not one to ship).
set -euo pipefail
cd "$(dirname "$0")/.."
GPU=${1:-h100}
RUNS=${2:-build/predict-runs}
MODEL=${3:-data/models/$GPU-time.json}
GPU_CONFIG=()
case "$GPU" in
h100) DATA=benchmarks/data/2026-11-23-h100-kernel-times.csv ;;
h200)
  DATA=benchmarks/data/2026-11-27-h200-kernel-times.csv
  GPU_CONFIG=(--gpu-config runtime/emu/timing/configs/h200.json)
  ;;
*)
  echo "train-model.sh: no dataset for GPU '$GPU' (h100, h200)" >&2
  exit 2
  ;;
esac
WS=build/bin/warpscope
[ -x "$WS" ] || { echo "train-model.sh: build first (make demo)" >&2; exit 2; }
# The plain benchmarks are built by the tests' target, not by `make build`:
# without them every run fails and the model would have no modeled figures.
for p in $(awk '!/^#/ && NF {print $1}' benchmarks/gpu/sizes.txt); do
  [ -x "build/benchmarks/$p" ] || {
    echo "train-model.sh: build/benchmarks/$p is missing; build the benchmarks first (cmake --build build --target benchmarks)" >&2
    exit 2
  }
done
LARGE="interp reduction kmeans histogram streams warp_reduce bfs pathfinder spmv backprop nw scan lu gaussian hotspot"
INTERP="interp:its features leave out the work of the __noinline__ device functions interp_kernel calls (docs/results/2026-11-23-h100-dataset.md)"
jobs=()
while read -r p _small mid _large; do
  case "$p" in \#* | "") continue ;; esac
  jobs+=("$p-small" "$p-$mid")
done < benchmarks/gpu/sizes.txt
for p in $LARGE; do jobs+=("$p-large-1"); done
if [ -n "${TRAIN_MODEL_JOBS:-}" ]; then read -r -a jobs <<< "$TRAIN_MODEL_JOBS"; fi
mkdir -p "$RUNS"
echo "== emulating ${#jobs[@]} runs into $RUNS (log: $RUNS/steps.log)" >&2
python3 benchmarks/predict/emulated_features.py run --build build -o "$RUNS" \
  -j "${TRAIN_MODEL_PARALLEL:-$(nproc)}" "${jobs[@]}"
python3 benchmarks/predict/emulated_features.py summarize "$RUNS" -o "$RUNS/summary.csv"
python3 benchmarks/predict/emulated_features.py join "$DATA" "$RUNS/summary.csv" \
  -o "$RUNS/train-$GPU.csv" --commit "$(git rev-parse --short HEAD)" --lower-bound "$INTERP"
"$WS" train "$RUNS/train-$GPU.csv" -o "$MODEL" --name "$GPU-time" \
  "${GPU_CONFIG[@]}"

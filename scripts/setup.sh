#!/usr/bin/env bash
# Installs what WarpScope needs on a fresh Debian machine, then configures
# CMake in build/. Safe to run again: it installs only what is missing.
#   scripts/setup.sh          what the build and the demo need
#   scripts/setup.sh --test   also what only the tests need (make test)
set -euo pipefail
cd "$(dirname "$0")/.."

# Build: the compiler and LLVM, JSON, zstd, GoogleTest (the test targets
# are configured with the rest), CMake and Ninja. Not for the build but for
# `warpscope predict` and `train` on the demo: XGBoost's library
# (libxgboost0), which they open when they run; without it they say so in
# one line and everything else works.
BUILD_PACKAGES=(clang-22 llvm-22-dev libclang-22-dev llvm-22-tools nlohmann-json3-dev
                libzstd-dev libgtest-dev libxgboost0 cmake ninja-build)
# Tests only: headless Chromium (the HTML report's layout), clang-format
# (the format check), the sanitizer runtimes (fuzzers), MPFR (the math
# suite's Bessel references), scikit-learn (benchmarks/predict/
# mangrove_baseline.py, the prediction evaluation's baseline, run on a small
# dataset by lit-predict), Open MPI (the cluster tests' 4-rank job).
TEST_PACKAGES=(chromium clang-format-22 libclang-rt-22-dev libmpfr-dev python3-sklearn
               openmpi-bin libopenmpi-dev)
with_tests=0
[ "${1:-}" = --test ] && with_tests=1
PACKAGES=("${BUILD_PACKAGES[@]}")
((with_tests)) && PACKAGES+=("${TEST_PACKAGES[@]}")
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== setup: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}" >/dev/null
fi

CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -f "$CUDA_HOME/include/cuda_runtime.h" ] || [ ! -e "$CUDA_HOME/lib64/libcudart.so" ]; then
  echo "setup: error: no CUDA toolkit at '$CUDA_HOME' (need include/cuda_runtime.h and lib64/libcudart.so); install CUDA 13 or set CUDA_HOME" >&2
  exit 1
fi

if ((with_tests)); then
  # The SARIF validator the tests use (pinned; installed once per machine).
  # Without network the tests go on; the SARIF test then says what is missing.
  scripts/sarif-multitool.sh --install ||
    echo "setup: warning: the SARIF Multitool could not be installed (npm); test lit-sarif fails until it is" >&2
fi

if [ ! -f build/build.ninja ]; then
  echo "== setup: configuring build/" >&2
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSCOPE_WERROR=ON \
    -DCUDAToolkit_ROOT="$CUDA_HOME" -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >/dev/null
elif ((with_tests)) || ((${#missing[@]})); then
  # Packages installed since the first configure (MPFR, XGBoost) are found
  # now.
  cmake build >/dev/null
fi

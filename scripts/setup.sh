#!/usr/bin/env bash
# Installs what WarpScope needs on a fresh Debian machine, then configures
# CMake in build/. Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(clang-22 llvm-22-dev libclang-22-dev llvm-22-tools nlohmann-json3-dev
          libzstd-dev libgtest-dev cmake ninja-build chromium libclang-rt-22-dev
          clang-format-22 libmpfr-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}" >/dev/null
fi

CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -f "$CUDA_HOME/include/cuda_runtime.h" ] || [ ! -e "$CUDA_HOME/lib64/libcudart.so" ]; then
  echo "setup: error: no CUDA toolkit at '$CUDA_HOME' (need include/cuda_runtime.h and lib64/libcudart.so); install CUDA 13 or set CUDA_HOME" >&2
  exit 1
fi

# The SARIF validator the tests use (pinned; installed once per machine).
# Without network the build goes on; the SARIF test then says what is missing.
scripts/sarif-multitool.sh --install ||
  echo "setup: warning: the SARIF Multitool could not be installed (npm); test lit-sarif fails until it is" >&2

if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSCOPE_WERROR=ON \
    -DCUDAToolkit_ROOT="$CUDA_HOME" -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >/dev/null
fi

#!/usr/bin/env bash
# Runs every test: ctest drives lit (one test per folder), the unit tests, the
# emulator's tests, the benchmark suite and the format and layer checks.
# Builds what only the tests need first (benchmarks, fuzzers, e2e programs:
# the target warpscope-test-deps). `make test` runs it after set-up and build.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-$(nproc)}"
scripts/setup.sh --test
echo "== test: building what only the tests need (warpscope-test-deps)" >&2
cmake --build build -j "$JOBS" --target warpscope-test-deps
echo "== test: ctest" >&2
ctest --test-dir build --output-on-failure -j "$JOBS" "$@"

#!/usr/bin/env bash
# Runs every test: ctest drives lit, the unit tests, the emulator's tests and
# the benchmark suite. Built by `make test` after set-up and build.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-$(nproc)}"
ctest --test-dir build --output-on-failure -j "$JOBS" "$@"

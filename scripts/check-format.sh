#!/usr/bin/env bash
# Fails when a tracked C++ file is not clang-format-22 clean (LLVM style,
# .clang-format). Test inputs that are PTX or generated stay as written.
# Exit 77 (skipped) where clang-format-22 is missing; make setup installs it.
set -euo pipefail
cd "$(dirname "$0")/.."
CF="${CLANG_FORMAT:-$(command -v clang-format-22 || true)}"
if [ -z "$CF" ]; then
  echo "check-format: clang-format-22 not found; run make setup" >&2
  exit 77
fi
git ls-files '*.cpp' '*.h' |
  grep -v -e '^benchmarks/src/' -e '/tests/ptx/' -e '/tests/gen/' -e '^test/fixtures/' |
  xargs "$CF" --dry-run -Werror

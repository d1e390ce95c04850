#!/usr/bin/env bash
# Fails when a function of ours is longer than the style guide's limit (150
# lines, comments and blank lines included), by clang-tidy-22's
# readability-function-size over every file of build/compile_commands.json
# in this repository. Exit 77 (skipped) where clang-tidy-22 is missing; make
# setup installs it.
#   scripts/check-function-length.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
build="${1:-build}"
TIDY="${CLANG_TIDY:-$(command -v clang-tidy-22 || true)}"
if [ -z "$TIDY" ]; then
  echo "check-function-length: clang-tidy-22 not found; run make setup" >&2
  exit 77
fi
if [ ! -f "$build/compile_commands.json" ]; then
  echo "check-function-length: no $build/compile_commands.json; run make build" >&2
  exit 2
fi
limit=150
files="$(python3 - "$build/compile_commands.json" "$root" <<'PY'
import json, os, sys
root = sys.argv[2] + "/"
seen = set()
for e in json.load(open(sys.argv[1])):
    f = os.path.normpath(os.path.join(e["directory"], e["file"]))
    if f.startswith(root) and not f.startswith(root + "build") and f not in seen:
        seen.add(f)
        print(f)
PY
)"
report="$(printf '%s\n' $files |
  xargs -P "$(nproc)" -n 4 "$TIDY" -p "$build" --quiet \
    --checks='-*,readability-function-size' \
    --header-filter="^$root/(driver|passes|runtime|include|test)/" \
    --config="{CheckOptions: {readability-function-size.LineThreshold: $limit}}" \
    2>/dev/null |
  grep "warning: function .* exceeds" | sort -u || true)"
if [ -n "$report" ]; then
  echo "$report" | sed "s|$root/||"
  echo "check-function-length: functions over $limit lines (split them)" >&2
  exit 1
fi
echo "check-function-length: every function is at most $limit lines"

#!/usr/bin/env bash
# Microsoft's SARIF Multitool (npm @microsoft/sarif-multitool), pinned, which
# the test lit/sarif validates the demo's SARIF with (GitHub rules included).
#   sarif-multitool.sh --install   installs it unless it is there (setup.sh)
#   sarif-multitool.sh --path      prints the executable, or one line saying
#                                  to run scripts/setup.sh (exit 1)
#   sarif-multitool.sh --tools-dir prints where tools are installed
# It lives outside the tree, shared by every checkout:
# $WARPSCOPE_TOOLS_DIR, else ${XDG_CACHE_HOME:-~/.cache}/warpscope/tools.
set -euo pipefail
VERSION=5.7.0
TOOLS="${WARPSCOPE_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warpscope/tools}"
DIR="$TOOLS/sarif-multitool-$VERSION"
# The package's launcher runs this through a shell, which would split
# arguments such as "Sarif;Gh"; the executable itself is called instead.
BIN="$DIR/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"

case "${1:-}" in
--install)
  [ -x "$BIN" ] && exit 0
  if ! command -v npm >/dev/null; then
    echo "setup: installing npm (for the SARIF Multitool)" >&2
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q npm >/dev/null
  fi
  echo "setup: installing @microsoft/sarif-multitool@$VERSION in $DIR" >&2
  mkdir -p "$DIR"
  npm install --silent --no-audit --no-fund --prefix "$DIR" \
    "@microsoft/sarif-multitool@$VERSION" >/dev/null
  # Its postinstall (chmod u+x) may not have run: npm can skip scripts.
  chmod u+x "$BIN"
  ;;
--tools-dir)
  echo "$TOOLS"
  ;;
--path)
  if [ ! -x "$BIN" ]; then
    echo "error: SARIF Multitool $VERSION not installed (no $BIN); run scripts/setup.sh" >&2
    exit 1
  fi
  echo "$BIN"
  ;;
*)
  echo "usage: $0 --install | --path | --tools-dir" >&2
  exit 2
  ;;
esac
